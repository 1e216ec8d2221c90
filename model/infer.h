/* infer.h - a design's entities inferred from sample items: which items are one entity, the key
 * templates their values follow, the placeholders' names, sparse index keys, counts, sizes and
 * distinct values. No file format here: a reader (the NoSQL Workbench import) hands over each
 * sample item as its attributes' names and scalar texts, grouped by entity when the source says
 * (facets) or as one list to be grouped.
 *
 * The rules:
 * - grouping (no facets): by an entity-type attribute (EntityType, Type, ...) when every item
 *   has one, else by the shape of the table keys (a word position where many different words
 *   occur is a value: User:UserA, User:UserB); a group is named after the first word of its keys;
 * - key templates: positions (split at '#', '|', ':') where every sample agrees and that hold no
 *   value-like text (digits, dates, <...>) stay literal, the others become placeholders
 *   (c#12345, c#67890 -> c#{customerId}). A facet's KeyAttributeAlias that is itself a template
 *   matching the samples is taken as written. Samples that disagree in shape give a prefix
 *   template and a warning;
 * - placeholder names come, in order, from: another placeholder of the same entity with the
 *   same values, a non-key attribute holding the same values, the alias, the entity whose name
 *   the literal before it abbreviates (c# -> customer), the literal word itself, the key's name;
 * - an index key that is a whole value of the item (RoomID) becomes a plain domain attribute of
 *   the entity; an index key present on only some items gives a sparse share;
 * - counts: INFER_NOMINAL_ITEMS items split between the entities in the proportion of their
 *   sample items; sizes: the average of the items' sizes (as the reader counts them); an
 *   attribute's distinct values: the entity count times (distinct sample values / sample items).
 * Every guess is said in a warning. */
#ifndef KP_INFER_H
#define KP_INFER_H

#include "design.h"

/* Items a nominal inferred table holds, split between entities by their share of sample items. */
#define INFER_NOMINAL_ITEMS 1000000.0

/* One attribute of a sample item: its name and the text of its scalar value (a string, a number
 * as written, binary as its base64 text); NULL when the value is not a scalar (map, list, set,
 * bool, null). */
typedef struct infer_attr {
    char *name;
    char *text;
} infer_attr;

/* A sample item: its attributes in the order the source lists them, and its size in bytes. */
typedef struct infer_row {
    infer_attr *v;
    size_t n, cap;
    double size;
} infer_row;

/* The sample items of one entity. `alias` is the source's name or template for the table's
 * partition and sort key (NULL: none); `nonkey`, when `declared`, the attributes the source
 * says the entity has (else every attribute the items carry). */
typedef struct infer_group {
    char *name;
    infer_row *rows;
    size_t nrows, caprows;
    char *alias[2];
    char **nonkey;
    size_t nnonkey;
    bool declared;
    char *sig; /* private: the shape the group was formed by */
} infer_group;

/* An inference in progress over the design `d`, whose table and indexes are already set. */
typedef struct infer {
    kp_design *d;
    kp_diags *diags; /* warnings are appended here */
    infer_group *groups;
    size_t ngroups;
    char **keyattrs; /* the table's pk and sk, then the index keys not already listed */
    size_t nkeyattrs;
    size_t ntablekeys;
} infer;

/* Starts an inference that adds entities and attributes to `d` (borrowed; its table and indexes
 * give the key attributes) and warnings to `diags`. Release with infer_free. */
void infer_init(infer *m, kp_design *d, kp_diags *diags);
void infer_free(infer *m);

/* A new, empty group named `name` (copied); the caller sets its alias and nonkey (owned by the
 * group, freed by infer_free) and adds its items. The pointer is valid until the next group is
 * added. */
infer_group *infer_add_group(infer *m, const char *name);

/* A new, empty item at the end of g's rows; valid until the next item is added. */
infer_row *infer_add_row(infer_group *g);

/* Appends attribute `name` with scalar text `text` (NULL: not a scalar) to the item; both copied. */
void infer_row_set(infer_row *r, const char *name, const char *text);

/* The scalar text of attribute `name` in the item, NULL when absent or not a scalar. */
const char *infer_row_get(const infer_row *r, const char *name);

/* Releases an item's attributes. */
void infer_row_free(infer_row *r);

/* Groups `n` items of a source without entities into groups (by an entity-type attribute, else
 * by the shape of their table keys). Takes `rows` and everything they hold. */
void infer_group_rows(infer *m, infer_row *rows, size_t n);

/* Adds one entity per group to the design (key templates, sparse shares, count, size, domain
 * attributes), then the attributes with their distinct estimates and types, and the attributes
 * an index projects that no item carries. Warnings go to m->diags. */
void infer_build(infer *m);

#endif
