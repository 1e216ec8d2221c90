/* item.h - DynamoDB items as data, and the sample items of a design.
 *
 * An item is a list of named attributes, each a typed scalar (S, N or BOOL), in the order they
 * were set: setting an attribute again replaces its value in place, deleting one keeps the order
 * of the others. storage/exchange writes items as DynamoDB JSON ({"PK":{"S":"..."}}).
 *
 * Sample items are generated deterministically from the templates and the attributes'
 * distributions: the entity's rendered key attributes, every attribute the entity knows (its
 * `attributes` and every placeholder of its templates) with a typed value, and the type tag
 * "entityType" (the entity's name, which the resolver's mixed-collection filters test).
 * Verify pads its items to the entity's `size` (item_pad), so that the capacity DynamoDB
 * reports for them is the capacity the design's sizes predict; the exports do not. */
#ifndef KP_ITEM_H
#define KP_ITEM_H

#include "design.h"

/* The type tag every sample item carries: its entity's name. */
#define ITEM_TYPE_ATTR "entityType"
/* The filler attribute item_pad adds. */
#define ITEM_PAD_ATTR "_pad"
/* DynamoDB's largest item: 400 KB, names and values together (409,601 bytes is refused). */
#define ITEM_MAX_BYTES 409600

typedef enum kp_vtype { KP_VAL_S, KP_VAL_N, KP_VAL_BOOL } kp_vtype;

/* A scalar: S its string, N its number as written ("42", "0.5"), BOOL "true" or "false". */
typedef struct kp_value {
    kp_vtype type;
    char *text;
} kp_value;

typedef struct kp_item_attr {
    char *name;
    kp_value v;
} kp_item_attr;

/* An item; zero-initialised is empty. Release with item_free. */
typedef struct kp_item {
    kp_item_attr *v;
    size_t n, cap;
} kp_item;

/* A list of items; zero-initialised is empty. Release with item_list_free. */
typedef struct kp_item_list {
    kp_item *v;
    size_t n, cap;
} kp_item_list;

/* "S", "N", "BOOL": DynamoDB's type tag. */
const char *kp_vtype_name(kp_vtype t);

/* Compares two values the way DynamoDB's conditions do: -2 when either is NULL or the types
 * differ, else <0, 0, >0 (numbers by value, strings and booleans by UTF-8 bytes). */
int kp_value_cmp(const kp_value *a, const kp_value *b);

void item_free(kp_item *it);
/* Deep copy into *dst (which is overwritten, not freed). */
void item_copy(kp_item *dst, const kp_item *src);
/* The value of attribute `name`, NULL when absent. Borrowed. */
const kp_value *item_get(const kp_item *it, const char *name);
/* The text of attribute `name` (see kp_value), NULL when absent. Borrowed. */
const char *item_text(const kp_item *it, const char *name);
/* Sets attribute `name` (replacing its value in place, else appending); name and text copied. */
void item_set(kp_item *it, const char *name, kp_vtype type, const char *text);
void item_set_value(kp_item *it, const char *name, const kp_value *v);
/* Removes attribute `name`; false when it was absent. */
bool item_del(kp_item *it, const char *name);
/* Size of the item in bytes by DynamoDB's rules: name bytes + value bytes; a string its UTF-8
 * bytes, a boolean 1, a number one byte per base-100 digit pair from its first to its last
 * non-zero pair, plus one, plus one when negative (zero: 1) — as DynamoDB Local counts them. */
size_t item_size(const kp_item *it);

/* Appends a new empty item to the list and returns it (valid until the next push). */
kp_item *item_list_push(kp_item_list *l);
void item_list_free(kp_item_list *l);

/* ---- sample items ------------------------------------------------------------------------- */

#define ITEM_DEFAULT_SEED 208u

/* `n` sample items of entity `e` appended to `out`, deterministic for a given seed. Items are
 * unique by the table's primary key (fewer than n when the templates cannot tell more items
 * apart); none when the design has no table partition key. */
void item_generate(const kp_design *d, const kp_entity *e, size_t n, unsigned seed, kp_item_list *out);

/* How many sample items of `e` the exports and verify generate: 12, fewer when the design
 * says the entity has fewer (count 1..11), more when an enum needs it to show every value. An
 * entity with count 0 (not populated yet) still gets 12: the structure is what is verified. */
size_t item_default_count(const kp_design *d, const kp_entity *e);

/* Adds (or resizes) the filler attribute "_pad" so that `item` weighs exactly the entity's
 * `size` bytes as DynamoDB counts them (item_size), or one byte over DynamoDB's limit when the
 * size is larger (so that DynamoDB refuses it as it would the real item); nothing when the
 * entity has no size or the item weighs that much already. */
void item_pad(const kp_entity *e, kp_item *item);

/* Two entities' sample items that got the same primary key. */
typedef struct item_collision {
    const kp_entity *entity, *other; /* the item of `entity` was left out; `other` has the key */
    char *key;                       /* "PK" or "PK\x1fSK" */
} item_collision;

/* Every entity's sample items: lists[i] belongs to d->entities[i]. */
typedef struct item_sample {
    kp_item_list *lists;
    size_t n;
    item_collision *coll;
    size_t ncoll;
} item_sample;

/* Every entity's sample items (item_default_count of each, padded when `pad`), unique by
 * primary key across entities: an item whose key an earlier entity already produced is left out
 * and described in out->coll. Release with item_sample_free. */
void item_sample_make(const kp_design *d, unsigned seed, bool pad, item_sample *out);

/* How many sample items item_sample_make_opts makes. */
typedef struct item_sample_opts {
    unsigned seed;
    bool pad;
    size_t partitions;    /* partitions per entity; 0: as the exports (item_default_count over 4
                             items a partition, or one item each when the sort key is fixed) */
    size_t per_partition; /* items per partition of an entity whose sort key varies (others: 1);
                             0: 4, as the exports */
} item_sample_opts;

/* item_sample_make with the sizes of `o` (both 0: exactly item_sample_make). */
void item_sample_make_opts(const kp_design *d, const item_sample_opts *o, item_sample *out);
void item_sample_free(item_sample *s);

/* true when entity e sets attributes a and b on the same items: an index's key pair unless e's
 * `together` says otherwise (capacity_set_together), other attributes when a `together` group
 * names both. The sample items then carry both or neither. */
bool item_set_together(const kp_design *d, const kp_entity *e, const char *a, const char *b);

/* The item after an update of entity e changing `changes` (copied into *out; caller frees with
 * item_free): each changed attribute takes another value (another item's of `others`, may be NULL,
 * else one made from the old), and every key attribute whose template holds a changed attribute
 * is rendered again (removed where its sparse condition no longer holds). */
void item_apply_changes(const kp_design *d, const kp_entity *e, const kp_str *changes, size_t nchanges,
                        const kp_item_list *others, const kp_item *item, kp_item *out);

/* DynamoDB scalar type of key attribute `attr`: KP_VAL_N when every template filling it is a
 * single number or shard placeholder (or it is a plain number attribute), else KP_VAL_S. */
kp_vtype item_key_type(const kp_design *d, const char *attr);

/* Renders template `t` with the values of `item` (numbers take their attribute's `format`).
 * NULL when a placeholder has no value in the item. Caller frees. */
char *item_render(const kp_design *d, const tpl *t, const kp_item *item);

/* The text of attribute `name` in `item` as it appears inside templates (formatted numbers,
 * "true"/"false"), or NULL when absent. Caller frees. */
char *item_value_text(const kp_design *d, const kp_item *item, const char *name);

/* The item's table key as one text ("PK" or "PK\x1fSK"), NULL when it lacks the table's key.
 * Caller frees. */
char *item_primary_key(const kp_design *d, const kp_item *item);

#endif
