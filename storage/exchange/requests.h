/* requests.h - DynamoDB API requests per pattern (GetItem, Query, Scan, BatchGetItem,
 * TransactWriteItems) and sample items, as DynamoDB JSON (jansson). Used by
 * `export --format requests|items`, the NoSQL Workbench export and `verify`.
 *
 * The items themselves are model data (model/item.h: generated there, written out here as
 * {"PK":{"S":"..."}} objects); the key conditions and filters are model data too (the plan's
 * steps, model/expr.h), written here as the plan renders them: the same text, every name that
 * is not a plain identifier or is a reserved word as its #placeholder in
 * ExpressionAttributeNames, the plan's value names in ExpressionAttributeValues.
 *
 * DynamoDB's batch limits: a BatchGetItem holds at most 100 keys (and returns at most 16 MB: a
 * larger read takes more requests), a BatchWriteItem at most 25 puts or deletes (never an
 * update), a TransactWriteItems at most 100 actions. */
#ifndef KP_REQUESTS_H
#define KP_REQUESTS_H

#include "analysis.h"
#include "design.h"
#include "expr.h"
#include "item.h"

#include <jansson.h>

#define REQUESTS_BATCHGET_MAX   100
#define REQUESTS_BATCHWRITE_MAX 25
#define REQUESTS_TRANSACT_MAX   100

/* JSON text: for every DynamoDB pattern, the API request(s) usable with
 * `aws dynamodb <op> --cli-input-json`. Caller frees; NULL with *err (caller frees) on failure. */
char *requests_export(const kp_design *d, const kp_analysis *a, char **err);

/* JSON text: sample items per entity as BatchWriteItem request JSON. Caller frees; NULL with
 * *err (caller frees) when the design has no table name or partition key. */
char *items_export(const kp_design *d, char **err);

/* `n` sample items of entity `e` (item_gen_items over x's design) in DynamoDB JSON: a new JSON
 * array (caller json_decref). */
json_t *items_generate(item_gen *x, const kp_entity *e, size_t n, unsigned seed);

/* The item as a DynamoDB JSON object ({"PK":{"S":"..."}, "n":{"N":"7"}, "b":{"BOOL":true}});
 * new reference (caller json_decref). */
json_t *items_json(const kp_item *it);

/* Reads a DynamoDB JSON item's scalar attributes (S, N, BOOL; others are skipped) into *out
 * (caller frees with item_free). */
void items_from_json(const json_t *j, kp_item *out);

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
 *            pattern's `by` values); the key condition and the filter are the step's data
 *            (kc, fexpr), rendered as the plan renders them;
 *   filter   when not NULL, receives the FilterExpression sent as data (release with
 *            requests_filter_free; present false when none).
 * Returns a new JSON object (caller json_decref) or NULL with *err (caller frees). */
json_t *requests_step_input(const kp_design *d, const kp_pattern_result *r, const kp_step *s,
                            const char *table, const kp_item *values, const kp_item *const *samples,
                            size_t nsamples, bool with_filter, requests_filter *filter, char **err);

#endif
