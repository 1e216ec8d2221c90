/* heatlog.h - access logs for `keyplan heat`: files and standard input streamed into the tally
 * of model/accesslog.h (which reads the tab-separated lines itself), the JSON lines decoded, part
 * results merged, and the tally written out as text or JSON.
 *
 * JSON lines, one object per line:
 * - DynamoDB: {"Key": {"PK": {"S": "CLIENTE#7"}, ...}, "ConsumedCapacity": {"CapacityUnits":
 *   0.5}, "Operation": "GetItem"} or just the key map {"PK": {"S": "..."}}; "units" and "op" are
 *   accepted as short forms. The operation is a whole word (accesslog_kind); none: a read.
 * - CloudTrail data events (an object with "eventSource" and "eventName"), one per line, or a
 *   CloudTrail log file {"Records": [event, ...]} on one line (as CloudTrail writes them). An
 *   event must come from dynamodb.amazonaws.com and be a data event keyed by one item:
 *   GetItem, PutItem, UpdateItem, DeleteItem (requestParameters.key) or Query
 *   (requestParameters.keyConditionExpression "#n = :v" or "PK = :v" with the value in
 *   requestParameters.expressionAttributeValues). Each counts one request of 1 unit (CloudTrail
 *   records no consumed capacity); eventName says read or write. Anything else (another
 *   service, a control-plane call, a batch or a transaction, a Query whose key value CloudTrail
 *   left out) is refused with its line (and record).
 * The partition attribute is the one asked for, else "PK" when present, else the first. */
#ifndef KP_HEATLOG_H
#define KP_HEATLOG_H

#include "accesslog.h"

/* The JSON decoder of the lines above (an accesslog_json_fn): ctx is the partition attribute
 * (const char *, NULL: PK, else the first). */
kp_status heatlog_json_line(accesslog_sink *s, const char *line, size_t len, void *ctx, char **err);

/* Streams the log at `path` ("-": standard input) into h, a chunk at a time, each read by a
 * thread of its own while the tally works on the one before: memory grows with h's keys, not with
 * the log. KP_IO with *err (caller frees) and *lineno 0 when it cannot be opened or read, or when
 * a regular file ends before the size it had when opened (it shrank while it was read); the
 * tally's failure (accesslog_feed) with *lineno and *err otherwise. */
kp_status heatlog_stream(accesslog *h, const char *path, size_t *lineno, char **err);

/* Merges one part into h (made with accesslog_opts.parts): a `keyplan heat --json` result, or
 * PK<TAB>COUNT<TAB>UNITS[<TAB>KIND] lines (every key of that part, as an Athena or Spark query
 * grouping a log by key writes them). A JSON part that lists only its hottest keys adds, for each
 * key it does not list, the most that key can have had there to *raise (the caller applies the
 * sum with accesslog_raise once every part is in). Failures as heatlog_stream's; a JSON part is
 * read whole (at most 1 GiB). */
kp_status heatlog_merge_part(accesslog *h, const char *path, double *raise, size_t *lineno, char **err);

/* The result `r` of the log named `name` as text: totals, the hottest key's shares, r's keys with
 * their shares and, when `seconds` is not NaN, units per second against a partition's limits;
 * approximate figures say their error. Caller frees. */
char *heatlog_text(const accesslog_result *r, const char *name, double seconds);

/* The same as one JSON object with a final newline (caller frees). Never fails. */
char *heatlog_json(const accesslog_result *r, const char *name, double seconds);

#endif
