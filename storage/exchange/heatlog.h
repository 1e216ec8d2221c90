/* heatlog.h - access logs for `keyplan heat`: DynamoDB JSON lines read into the tally of
 * model/accesslog.h (which reads the tab-separated lines itself), and the tally written out as
 * text or JSON.
 *
 * A JSON line is {"Key": {"PK": {"S": "CLIENTE#7"}, ...}, "ConsumedCapacity": {"CapacityUnits":
 * 0.5}, "Operation": "GetItem"} or just the key map {"PK": {"S": "..."}}; "units" and "op" are
 * accepted as short forms. The partition attribute is the one asked for, else "PK" when present,
 * else the first attribute. Operations named Put/Update/Delete/Write/Transact count as writes. */
#ifndef KP_HEATLOG_H
#define KP_HEATLOG_H

#include "accesslog.h"

/* Tallies the log text[0..len) (modified in place) into h; `pk` is the partition attribute of
 * JSON lines (NULL: PK, else the first). KP_INVALID at the first unusable line, with *lineno
 * and *err (caller frees). */
kp_status heatlog_read(accesslog *h, char *text, size_t len, const char *pk, size_t *lineno, char **err);

/* The sorted tally `h` of the log named `name` as text: totals, the hottest key's shares, the
 * `top` hottest keys with their shares and, when `seconds` is not NaN, units per second against
 * a partition's limits. Caller frees. */
char *heatlog_text(const accesslog *h, const char *name, size_t top, double seconds);

/* The same as one JSON object with a final newline (caller frees), or NULL with *err (caller
 * frees; err may be NULL) when jansson cannot write it. */
char *heatlog_json(const accesslog *h, const char *name, size_t top, double seconds, char **err);

#endif
