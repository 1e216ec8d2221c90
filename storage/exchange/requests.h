/* requests.h - DynamoDB API requests per pattern (GetItem, Query, Scan, BatchGetItem,
 * TransactWriteItems), and sample items generated from the templates and distributions.
 * Used by `export --format requests|items`, the NoSQL Workbench export and `verify`.
 *
 * All JSON goes through jansson. Sample items are DynamoDB JSON objects ({"PK":{"S":"..."}}):
 * the entity's rendered key attributes, every attribute the entity knows (its `attributes` and
 * every placeholder of its templates) with a typed value, and the type tag "entityType" (the
 * entity's name, which the resolver's mixed-collection filters test). Verify pads its items to
 * the entity's `size` (items_pad), so that the capacity DynamoDB reports for them is the
 * capacity the design's sizes predict; the exports do not. */
#ifndef KP_REQUESTS_H
#define KP_REQUESTS_H

#include "analysis.h"
#include "design.h"

#include <jansson.h>

/* JSON text: for every DynamoDB pattern, the API request(s) usable with
 * `aws dynamodb <op> --cli-input-json`. Caller frees; NULL with *err (caller frees) on failure. */
char *requests_export(const kp_design *d, const kp_analysis *a, char **err);

/* JSON text: sample items per entity as BatchWriteItem request JSON. Caller frees. */
char *items_export(const kp_design *d, char **err);

/* `n` sample items of entity `e` in DynamoDB JSON ({"PK":{"S":"..."}, ...}), deterministic for
 * a given seed. Returns a new JSON array (caller json_decref). Items are unique by the table's
 * primary key (fewer than n when the templates cannot tell more items apart). */
json_t *items_generate(const kp_design *d, const kp_entity *e, size_t n, unsigned seed);

/* ---- building blocks shared with verify ------------------------------------------------ */

#define ITEMS_DEFAULT_SEED 208u

/* How many sample items of `e` the exports and verify generate: 12, fewer when the design
 * says the entity has fewer (count 1..11), more when an enum needs it to show every value. An
 * entity with count 0 (not populated yet) still gets 12: the structure is what is verified. */
size_t items_default_count(const kp_design *d, const kp_entity *e);

/* Adds (or resizes) the filler attribute "_pad" so that `item` weighs about the entity's
 * `size` bytes; nothing when the entity has no size. */
void items_pad(const kp_entity *e, json_t *item);

/* Every entity's sample items (padded when `pad`): a new JSON object {entity name: [items]}
 * (caller json_decref), unique by primary key across entities (an item whose key another entity already produced is
 * left out; `collisions`, when not NULL, receives a new array of {"entity","other","key"}
 * objects describing each, caller json_decref). */
json_t *items_sample(const kp_design *d, unsigned seed, bool pad, json_t **collisions);

/* DynamoDB scalar type of key attribute `attr`: "N" when every template filling it is a single
 * number or shard placeholder (or it is a plain number attribute), else "S". Static string. */
const char *items_key_type(const kp_design *d, const char *attr);

/* Renders template `t` with the values of `item` (a sample item; numbers take their attribute's
 * `format`). NULL when a placeholder has no value in the item. Caller frees. */
char *items_render(const kp_design *d, const tpl *t, const json_t *item);

/* The text of attribute `name` in `item` as it appears inside templates (formatted numbers,
 * "true"/"false"), or NULL when absent. Caller frees. */
char *items_value_text(const kp_design *d, const json_t *item, const char *name);

/* Size of an item in bytes by DynamoDB's rules (name bytes + value bytes; numbers about one
 * byte per two significant digits plus one). */
size_t items_size(const json_t *item);

/* A key condition as the resolver writes it, read back: "PK = :pk", optionally
 * "AND SK = :sk" / "< <= > >=" / "begins_with(SK, :sk)" / "SK BETWEEN :a AND :b". */
typedef enum requests_sk_op {
    RQ_SK_NONE,
    RQ_SK_EQ,
    RQ_SK_LT,
    RQ_SK_LE,
    RQ_SK_GT,
    RQ_SK_GE,
    RQ_SK_BEGINS,
    RQ_SK_BETWEEN,
} requests_sk_op;

typedef struct requests_keycond {
    char *pk, *pk_value;          /* attribute name, value name (":pk") */
    requests_sk_op op;
    char *sk, *sk_value, *sk_value2; /* sk_value2 only for BETWEEN */
} requests_keycond;

/* Parses `text` into *out (caller releases with requests_keycond_free). false with *err set
 * (caller frees) when the text is not a key condition of that shape. */
bool requests_keycond_parse(const char *text, requests_keycond *out, char **err);
void requests_keycond_free(requests_keycond *kc);

/* Rewrites every attribute name of a condition expression as an #placeholder (reserved words,
 * UTF-8 and '-' in names then work), adding the mapping to `names` (a JSON object). Returns the
 * new text, caller frees. */
char *requests_expr_names(const char *expr, json_t *names);

/* The request input of one step (op GetItem, Query, Scan, BatchGetItem, PutItem, UpdateItem,
 * DeleteItem or TransactWriteItems) against table `table`:
 *   values   JSON object {":pk": "CUSTOMER#c-001", ...}: the rendered text of each key value
 *            (NULL: rendered from samples[0]);
 *   samples  the sample items the step reads or writes (BatchGetItem: one key per sample;
 *            TransactWriteItems: one Put per sample; others: samples[0] supplies the filter,
 *            scan and update values);
 *   with_filter  include the step's FilterExpression.
 * Returns a new JSON object (caller json_decref) or NULL with *err (caller frees). */
json_t *requests_step_input(const kp_design *d, const kp_pattern_result *r, const kp_step *s,
                            const char *table, const json_t *values, const json_t *const *samples,
                            size_t nsamples, bool with_filter, char **err);

/* Evaluates a FilterExpression written with plain attribute names (terms joined by AND / OR /
 * NOT and parentheses: a = :v, <>, <, <=, >, >=, BETWEEN, IN (...), begins_with, contains,
 * attribute_exists, attribute_not_exists) on `item`, with `values` the typed expression values
 * ({":v": {"S": "..."}}) and `names` (may be NULL) resolving #placeholders. Comparisons follow DynamoDB: different types never compare. Returns 1
 * (keep), 0 (drop) or -1 when the expression cannot be read or names a value not given. */
int requests_filter_eval(const char *expr, const json_t *item, const json_t *values, const json_t *names);

/* The sample item of entity `e` that best exercises a read on index `index` (-1 base table):
 * it carries the index's key attributes, matches the pattern's fixed `by` values, and lies in
 * the partition holding the most items. `items` is the entity's array from items_sample.
 * Borrowed pointer into `items`, or NULL when no item qualifies. */
const json_t *requests_anchor(const kp_design *d, const kp_pattern *p, const kp_entity *e,
                              ptrdiff_t index, const json_t *items);

/* Index attribute names: index -1 is the base table. sk may be NULL. */
const char *requests_index_pk(const kp_design *d, ptrdiff_t index);
const char *requests_index_sk(const kp_design *d, ptrdiff_t index);

#endif
