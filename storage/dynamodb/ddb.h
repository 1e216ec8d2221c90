/* ddb.h - a DynamoDB API client: one request in, one JSON response out, over HTTP(S) with
 * libcurl, signed with SigV4 (CURLOPT_AWS_SIGV4). Throttling and 5xx answers are retried with a
 * growing pause (5 attempts in all). The credentials are kept only as long as the client and
 * wiped when it closes; nothing here prints. libcurl is loaded when a client opens (dlopen of
 * DDB_LIBCURL), not linked, so that the commands that never call DynamoDB do not load it. */
#ifndef KP_DDB_H
#define KP_DDB_H

#include "creds.h"

#include <jansson.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct ddb ddb;

typedef enum ddb_status {
    DDB_OK = 0,        /* the call succeeded */
    DDB_API = 1,       /* DynamoDB answered with an error ("ValidationException: ...") */
    DDB_TRANSPORT = 2, /* anything else: unreachable, not DynamoDB, bad HTTP status */
} ddb_status;

/* The library loaded: libcurl's ABI 4, the one its headers describe since 7.16. */
#define DDB_LIBCURL "libcurl.so.4"

/* A client for `endpoint` ("http://127.0.0.1:8000") signing with `c` (copied). NULL with *err
 * (caller frees) when libcurl does not load (missing, or older than 7.75 which signs SigV4) or
 * cannot start. Release with ddb_close. */
ddb *ddb_open(const char *endpoint, const kp_creds *c, char **err);
void ddb_close(ddb *db);

/* Sends API call `op` ("Query") with input `in`. DDB_OK with *out (caller json_decref);
 * DDB_API with *err "Type: message" for an error DynamoDB answered; DDB_TRANSPORT with *err for
 * anything else (caller frees *err). */
ddb_status ddb_call(ddb *db, const char *op, const json_t *in, json_t **out, char **err);

/* The largest answer read: 32 MiB (DynamoDB's answers hold at most 16 MB, a BatchGetItem's). A
 * longer body, or one that never ends, is cut and reported as a transport error. */
#define DDB_MAX_RESPONSE ((size_t)32 << 20)

/* While *stop (may be NULL: never) is non-zero, a request in flight is abandoned within about a
 * second and retries are not made (DDB_TRANSPORT, "interrupted"). Set NULL again to send the
 * requests that must go out after an interruption (deleting the table). */
void ddb_set_stop(ddb *db, volatile sig_atomic_t *stop);

/* Whether libcurl loads from `file` (NULL: DDB_LIBCURL) with everything the client calls (a
 * library that did is kept loaded, as the client keeps it). false with *err (caller frees)
 * naming the file and what is missing. */
bool ddb_curl_check(const char *file, char **err);

/* HTTP requests sent so far (retries included). */
size_t ddb_requests(const ddb *db);

#endif
