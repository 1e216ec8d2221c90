/* accesslog.h - an access log tallied per partition key: the log's lines in, each key's
 * requests and read/write units out, sorted hottest first, and how the keys compare with a
 * partition's limits (capacity.h). No I/O: the caller reads the text.
 *
 * One request per line:
 *   PK                                 one request of 1 unit
 *   PK<TAB>SK                          the sort key is ignored (heat is per partition)
 *   PK<TAB>SK<TAB>UNITS                units consumed (read or write units; default 1)
 *   PK<TAB>SK<TAB>UNITS<TAB>read|write the kind (default read; r/w, get/put... accepted)
 * or a line starting with '{', which the caller's decoder reads (a DynamoDB JSON line). Blank
 * lines and lines starting with '#' are skipped; leading spaces and a trailing CR are ignored. */
#ifndef KP_ACCESSLOG_H
#define KP_ACCESSLOG_H

#include "namemap.h"

#include <stdbool.h>
#include <stddef.h>

/* The largest log `keyplan heat` reads: 1 GiB (more is refused with a message, never read until
 * memory runs out). */
#define ACCESSLOG_MAX_BYTES ((size_t)1 << 30)
/* The most units one request may state: a 400 KB item read strongly in a transaction is 200
 * units; far larger figures are a broken log, refused so that the sums stay finite. */
#define ACCESSLOG_MAX_UNITS 1e9
/* The longest partition key a log line may hold: DynamoDB's own limit, 2,048 bytes. */
#define ACCESSLOG_MAX_KEY 2048

typedef struct accesslog_key {
    char *key;
    double requests, units, read_units, write_units;
} accesslog_key;

/* The tally; accesslog_init makes it empty, accesslog_free releases it. */
typedef struct accesslog {
    accesslog_key *v; /* one per partition key, in order of first appearance until sorted */
    size_t n, cap;
    namemap map; /* key -> position in v */
    double requests, units, read_units, write_units;
} accesslog;

void accesslog_init(accesslog *h);
void accesslog_free(accesslog *h);

/* Counts one request of `units` on partition key key[0..keylen) (copied). */
void accesslog_add(accesslog *h, const char *key, size_t keylen, double units, bool write);

/* true when the word names a write ("w", "write", "put", "update", "delete", "transact",
 * "batchwrite", by prefix, any case) or a read ("r", "read", "get", "query", "scan",
 * "batchget"). */
bool accesslog_is_write(const char *word);
bool accesslog_is_read(const char *word);

/* Decodes one JSON line into the tally; KP_INVALID with *err (caller frees) when unusable. */
typedef kp_status (*accesslog_json_fn)(accesslog *h, const char *line, size_t len, void *ctx, char **err);

/* Tallies every line of text[0..len) (text is modified: lines are cut in place). JSON lines go
 * to `json` with `ctx` (NULL: they are errors). KP_INVALID at the first unusable line, with
 * *lineno its number (1-based) and *err what is wrong (caller frees). */
kp_status accesslog_read(accesslog *h, char *text, size_t len, accesslog_json_fn json, void *ctx,
                         size_t *lineno, char **err);

/* Sorts the keys hottest first: by units, then requests, then key. */
void accesslog_sort(accesslog *h);

/* Over `seconds` (the time the log covers), true when the key's read or write units per second
 * reach a partition's limit; false when seconds is NaN. accesslog_hot: any key. */
bool accesslog_key_hot(const accesslog_key *k, double seconds);
bool accesslog_hot(const accesslog *h, double seconds);

#endif
