/* requests.h - DynamoDB API requests per pattern (GetItem, Query, Scan, BatchGetItem,
 * TransactWriteItems), and sample items generated from the templates and distributions.
 * Used by `export --format requests|items`, the NoSQL Workbench export and `verify`. */
#ifndef KP_REQUESTS_H
#define KP_REQUESTS_H

#include "model/analysis.h"
#include "model/design.h"

#include <jansson.h>

/* JSON text: for every DynamoDB pattern, the API request(s) usable with
 * `aws dynamodb <op> --cli-input-json`. Caller frees; NULL with *err (caller frees) on failure. */
char *requests_export(const kp_design *d, const kp_analysis *a, char **err);

/* JSON text: sample items per entity as BatchWriteItem request JSON. Caller frees. */
char *items_export(const kp_design *d, char **err);

/* `n` sample items of entity `e` in DynamoDB JSON ({"PK":{"S":"..."}, ...}), deterministic for
 * a given seed. Returns a new JSON array (caller json_decref). */
json_t *items_generate(const kp_design *d, const kp_entity *e, size_t n, unsigned seed);

#endif
