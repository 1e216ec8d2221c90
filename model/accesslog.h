/* accesslog.h - an access log tallied per partition key, streamed: the log's text in, chunk by
 * chunk, each key's requests and read/write units out, the hottest first, and how the keys
 * compare with a partition's limits (capacity.h). No I/O: the caller reads the text and hands
 * it over (storage/exchange/heatlog.h reads files and standard input).
 *
 * One request per line:
 *   PK                                 one request of 1 unit
 *   PK<TAB>SK                          the sort key is ignored (heat is per partition)
 *   PK<TAB>SK<TAB>UNITS                units consumed (read or write units; default 1)
 *   PK<TAB>SK<TAB>UNITS<TAB>KIND       the kind (default read), one whole word, any case: r, read,
 *                                      get, GetItem, query, scan, BatchGetItem, TransactGetItems
 *                                      are reads; w, write, put, PutItem, update, UpdateItem,
 *                                      delete, DeleteItem, BatchWriteItem, TransactWriteItems
 *                                      writes; any other word is an error
 * or a line starting with '{', which the caller's decoder reads (DynamoDB JSON, CloudTrail). In
 * a part file (accesslog_opts.parts: the per-key totals another engine such as Athena or Spark
 * produced) a line is PK<TAB>COUNT<TAB>UNITS[<TAB>KIND]. Blank lines and lines starting with '#'
 * are skipped; leading spaces and a trailing CR are ignored.
 *
 * Memory grows with the distinct keys, never with the log: the text is read a chunk at a time
 * and each key is looked up before it is copied. The keys live in ACCESSLOG_SHARDS tables, a
 * key's shard chosen by its hash: each an open-addressing index of 8-byte slots (a hash tag and an
 * entry's number) over dense entries (the hash, keys up to 20 bytes inline, the figures) in the
 * order the keys came. With several threads every thread reads the whole chunk and adds the
 * requests of its own shards (shard % threads), so each key's requests are added in the log's
 * order: every figure is the same whatever the number of threads. The usual line (a printable
 * ASCII key, the units as digits, read or write) is read in one pass without a call, its key
 * hashed as it is scanned; its table slot and entry are fetched into the cache some requests
 * before it is added (a ring of requests in flight).
 *
 * Approximate mode (accesslog_opts.approx = K): at most K keys are kept (Space-Saving, per
 * shard K / ACCESSLOG_SHARDS): a new key arriving at a full shard takes the place of the shard's
 * coldest key and inherits its units as its error. A key's reported units are then at most its
 * `error` above the true figure and never below it; a key that is not kept has at most `bound`
 * units (the coldest kept units of its shard), so every key whose true units exceed the bound
 * is reported. Totals stay exact. */
#ifndef KP_ACCESSLOG_H
#define KP_ACCESSLOG_H

#include "util.h"

#include <stdbool.h>
#include <stddef.h>

/* The most units one request may state: a 400 KB item read strongly in a transaction is 200
 * units; far larger figures are a broken log, refused so that the sums stay finite. */
#define ACCESSLOG_MAX_UNITS 1e9
/* The longest partition key a log line may hold: DynamoDB's own limit, 2,048 bytes. */
#define ACCESSLOG_MAX_KEY 2048
/* The longest line: 64 MiB (a CloudTrail log file, which is one line). A longer line is refused
 * with its number, so an endless input without newlines never exhausts memory. */
#define ACCESSLOG_MAX_LINE ((size_t)64 << 20)
/* The tables the keys are spread over (by hash); threads share them out. */
#define ACCESSLOG_SHARDS 16
/* The most threads a tally uses. */
#define ACCESSLOG_MAX_THREADS ACCESSLOG_SHARDS

/* One key's figures. In approximate mode or after merging incomplete parts `error` bounds how
 * far `units` may be above the truth (0 otherwise). */
typedef struct accesslog_key {
    char *key; /* NUL-terminated (keys hold no NUL) */
    size_t keylen;
    double requests, units, read_units, write_units, error;
} accesslog_key;

typedef struct accesslog accesslog;           /* the tally (opaque) */
typedef struct accesslog_sink accesslog_sink; /* where one piece's requests go, for a decoder */

/* Decodes one JSON line (text[0..len), not NUL-terminated) into requests, each handed to
 * accesslog_emit(s, ...); KP_INVALID with *err (caller frees) when the line is unusable. Called
 * from several threads at once (with different sinks) when the tally has several. */
typedef kp_status (*accesslog_json_fn)(accesslog_sink *s, const char *line, size_t len, void *ctx,
                                       char **err);

typedef struct accesslog_opts {
    unsigned threads;       /* 0 or 1: the caller's thread only; at most ACCESSLOG_MAX_THREADS */
    size_t approx;          /* 0: exact; else at most this many keys (>= ACCESSLOG_SHARDS) */
    bool parts;             /* lines are PK<TAB>COUNT<TAB>UNITS[<TAB>KIND] */
    accesslog_json_fn json; /* NULL: a JSON line is an error */
    void *ctx;              /* for json */
    size_t piece;           /* threads share a chunk from this many bytes per thread on (0: 64
                               KiB; the tests set 1 to share even tiny logs) */
} accesslog_opts;

/* A new empty tally (o may be NULL: exact, one thread, no JSON). Never NULL; accesslog_free
 * releases it. */
accesslog *accesslog_new(const accesslog_opts *o);
void accesslog_free(accesslog *h);

/* Tallies the complete lines of text[0..len): *used is how many bytes were taken (up to and
 * including the last newline; everything when `eof`, the end of the log). The caller keeps the
 * rest and hands it again, followed by more text. KP_ENCODING (a NUL byte) or KP_INVALID at the
 * first unusable line, with *lineno its number in the whole log (1-based) and *err what is
 * wrong (caller frees); a line longer than ACCESSLOG_MAX_LINE is one. After a failure the
 * tally is incomplete: free it. */
kp_status accesslog_feed(accesslog *h, const char *text, size_t len, bool eof, size_t *used, size_t *lineno,
                         char **err);

/* The same for a whole log at once (eof). */
kp_status accesslog_read(accesslog *h, const char *text, size_t len, size_t *lineno, char **err);

/* Counts `requests` requests of `units` on key[0..len) from a decoder: KP_INVALID with *err
 * (caller frees) when the key is empty, longer than ACCESSLOG_MAX_KEY, not UTF-8 or holds a
 * control character, or the units are not within 0..ACCESSLOG_MAX_UNITS. */
kp_status accesslog_emit(accesslog_sink *s, const char *key, size_t len, double requests, double units,
                         bool write, char **err);

/* Adds a key's figures as they are (a part of a merge; key not validated, copied) without
 * touching the totals; k->key and k->keylen name the key. */
void accesslog_add(accesslog *h, const accesslog_key *k);
/* Adds to the totals (a part of a merge). */
void accesslog_add_totals(accesslog *h, double requests, double units, double read_units, double write_units);
/* Raises every key's units and error by `by`, and the bound of the keys not listed (a merge of
 * parts that listed only their hottest keys: an absent key may have had up to that part's
 * bound there). */
void accesslog_raise(accesslog *h, double by);

/* The tally's figures: the `top` hottest keys (0: all) by units, then requests, then key, and the
 * totals. `hot`: over `seconds` some key reaches a partition's limit (never when NaN). */
typedef struct accesslog_result {
    accesslog_key *v; /* hottest first; owned by the result */
    size_t n;         /* shown */
    size_t distinct;  /* keys in the tally */
    double requests, units, read_units, write_units;
    bool approx;     /* approximate mode, or an incomplete merge: errors are meaningful */
    size_t capacity; /* approximate mode: the most keys kept */
    double bound;    /* the most units a key not in the tally may have */
    bool hot;
} accesslog_result;

/* Fills *r (accesslog_result_free releases it). Never fails. */
void accesslog_result_get(const accesslog *h, size_t top, double seconds, accesslog_result *r);
void accesslog_result_free(accesslog_result *r);

/* Over `seconds` (the time the log covers), true when the key's read or write units per second
 * reach a partition's limit; false when seconds is NaN. */
bool accesslog_key_hot(const accesslog_key *k, double seconds);

/* The kind of a request from its word w[0..n), one whole word in any case (see the top): 1 a
 * write, 0 a read, -1 neither. */
int accesslog_kind(const char *w, size_t n);

#endif
