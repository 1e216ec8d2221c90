/* analysis_json.h - the analysis of a design as one JSON object: the `keyplan check --json`
 * output, reused by `export --format json`.
 *
 * The object (numbers are JSON numbers, NaN/unknown figures are null, ids are strings):
 *   keyplan: 1, design: name, table: {name, pk, sk, billing, streams, pitr},
 *   patterns[]:   {id, name, kind, plan, symbol, requests, index ("table" for the base table),
 *                  key_condition (as DynamoDB receives it: "#State_Date = :pk"), values
 *                  {":pk": "CLIENTE#{customerId}", ...}, names {"#State_Date": "State#Date"}
 *                  ({} when every name is written as it is), filter (bool), app_sort,
 *                  limit_pushed, items_per_call, rcu_per_call, rcu_per_s, rcu_per_s_avg,
 *                  wcu_per_call, wcu_per_s, index_wcu_per_call, latency_ms, latency_target_ms,
 *                  latency_ok, warnings[], steps[] {op, index, entity, key_condition, values,
 *                  names, filter (text), forward, limit, count, items, rcu, wcu}}
 *   partitions[]: {index, template, entity, distinct, hot_share, read_hot_share,
 *                  write_hot_share, read_units, write_units, read_util, write_util, hot,
 *                  suggest_shards}
 *   indexes[]:    {name, items, bytes, rcu_per_s, wcu_per_s, wcu_per_s_avg, distinct,
 *                  hot_share, read_hot_share, write_hot_share, patterns_served}
 *   table_hot_share,
 *   cost:         {mode, currency, lines[] {name, units, amount}, total}   (the design's mode)
 *   costs:        {"on-demand": <cost>, "provisioned": <cost>}            (both, side by side)
 *   checklist[]:  {item (1-11), title, status ("pass"|"fail"|"n/a"), why},
 *   checklist_pass, checklist_applicable,
 *   findings[]:   {code, severity ("error"|"warning"|"note"), where, message, fix}
 *   signals[]:    {decision, signal, metric, value (the design's own figure or null), fired} */
#ifndef KP_ANALYSIS_JSON_H
#define KP_ANALYSIS_JSON_H

#include "analysis.h"
#include "design.h"

#include <jansson.h>

/* The object above for design `d` and its analysis `a` (a->design == d). Never NULL; the
 * caller releases it with json_decref. */
json_t *analysis_json(const kp_design *d, const kp_analysis *a);

/* The same object as indented text ending in a newline (caller frees), or NULL with *err
 * (caller frees; err may be NULL) when jansson cannot write it. */
char *analysis_json_string(const kp_design *d, const kp_analysis *a, char **err);

/* "error" | "warning" | "note" */
const char *analysis_json_severity(kp_severity s);

#endif
