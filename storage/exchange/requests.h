/* requests.h - DynamoDB API requests per pattern (GetItem, Query, Scan, BatchGetItem,
 * TransactWriteItems) and sample items, as DynamoDB JSON (jansson). Used by
 * `export --format requests|items`, the NoSQL Workbench export and `verify`.
 *
 * The items themselves are model data (model/item.h: generated there, written out here as
 * {"PK":{"S":"..."}} objects); the key conditions and filters are model data too
 * (model/expr.h), written here with every attribute name as a #placeholder and every value
 * name DynamoDB would refuse renamed. */
#ifndef KP_REQUESTS_H
#define KP_REQUESTS_H

#include "analysis.h"
#include "design.h"
#include "expr.h"
#include "item.h"

#include <jansson.h>

/* JSON text: for every DynamoDB pattern, the API request(s) usable with
 * `aws dynamodb <op> --cli-input-json`. Caller frees; NULL with *err (caller frees) on failure. */
char *requests_export(const kp_design *d, const kp_analysis *a, char **err);

/* JSON text: sample items per entity as BatchWriteItem request JSON. Caller frees; NULL with
 * *err (caller frees) when the design has no table name or partition key. */
char *items_export(const kp_design *d, char **err);

/* `n` sample items of entity `e` (item_generate) in DynamoDB JSON: a new JSON array (caller
 * json_decref). */
json_t *items_generate(const kp_design *d, const kp_entity *e, size_t n, unsigned seed);

/* The item as a DynamoDB JSON object ({"PK":{"S":"..."}, "n":{"N":"7"}, "b":{"BOOL":true}});
 * new reference (caller json_decref). */
json_t *items_json(const kp_item *it);

/* Reads a DynamoDB JSON item's scalar attributes (S, N, BOOL; others are skipped) into *out
 * (caller frees with item_free). */
void items_from_json(const json_t *j, kp_item *out);

/* Rewrites every attribute name of a condition expression as an #placeholder (reserved words,
 * UTF-8 and '-' in names then work), adding the mapping to `names` (a JSON object) and reusing
 * the placeholders already there. Returns the new text, caller frees. */
char *requests_expr_names(const char *expr, json_t *names);

/* The filter a request carries, as data: what verify evaluates over the loaded items. */
typedef struct requests_filter {
    bool present;
    kp_expr expr;
    kp_item values; /* the value of each value name the request uses, as the plan names it */
} requests_filter;

void requests_filter_free(requests_filter *f);

/* The request input of one step (op GetItem, Query, Scan, BatchGetItem, PutItem, UpdateItem,
 * DeleteItem or TransactWriteItems) against table `table`:
 *   values   the rendered text of each key value by its name (":pk" -> "CUSTOMER#c-001"), as S
 *            values (NULL: rendered from samples[0]);
 *   samples  the sample items the step reads or writes (BatchGetItem: one key per sample;
 *            TransactWriteItems: one Put per sample; others: samples[0] supplies the filter,
 *            scan and update values);
 *   with_filter  include the step's FilterExpression (a Scan without one: a filter on the
 *            pattern's `by` values);
 *   filter   when not NULL, receives the FilterExpression sent as data (release with
 *            requests_filter_free; present false when none).
 * Returns a new JSON object (caller json_decref) or NULL with *err (caller frees). */
json_t *requests_step_input(const kp_design *d, const kp_pattern_result *r, const kp_step *s,
                            const char *table, const kp_item *values, const kp_item *const *samples,
                            size_t nsamples, bool with_filter, requests_filter *filter, char **err);

#endif
