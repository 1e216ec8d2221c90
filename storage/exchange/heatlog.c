/* heatlog.c - access logs streamed in, JSON lines and CloudTrail events decoded, parts merged,
 * the hottest partition keys out (see heatlog.h). */
#include "heatlog.h"

#include "capacity.h"
#include "display.h"
#include "fileio.h"
#include "i18n.h"
#include "textf.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A chunk handed to the tally: large enough for both threads to be worth starting. */
#define CHUNK ((size_t)2 << 20)

/* ---- JSON lines --------------------------------------------------------------------------- */

/* The text of a DynamoDB attribute value {"S": "x"} / {"N": "7"} / {"B": "..."}, or a plain
 * JSON string/number. NULL when it is none of those. Caller frees. */
static char *attr_text(json_t *v)
{
    if (json_is_string(v))
        return xstrndup(json_string_value(v), json_string_length(v));
    if (json_is_integer(v))
        return xasprintf("%lld", (long long)json_integer_value(v));
    if (json_is_real(v))
        return xasprintf("%.17g", json_real_value(v));
    if (json_is_object(v)) {
        const char *types[] = {"S", "N", "B"};
        for (size_t i = 0; i < 3; i++) {
            json_t *s = json_object_get(v, types[i]);
            if (json_is_string(s))
                return xstrndup(json_string_value(s), json_string_length(s));
        }
    }
    return NULL;
}

/* The partition key's value in the key map `key`: attribute pk, else PK, else the first that is
 * not one of `skip`. */
static json_t *key_value(json_t *key, const char *pk, const char *const *skip, size_t nskip)
{
    if (pk)
        return json_object_get(key, pk);
    json_t *v = json_object_get(key, "PK");
    if (v)
        return v;
    const char *name;
    json_t *fv;
    json_object_foreach(key, name, fv)
    {
        bool skipped = false;
        for (size_t i = 0; i < nskip; i++)
            skipped |= strcmp(name, skip[i]) == 0;
        if (!skipped)
            return fv;
    }
    return NULL;
}

static kp_status no_key(const char *pk, char **err)
{
    if (pk)
        return kp_fail(err, KP_INVALID, _("no partition key '%s' in the JSON line"), pk);
    return kp_fail(err, KP_INVALID, _("no partition key  in the JSON line"));
}

/* Emits the key value v. */
static kp_status emit_value(accesslog_sink *s, json_t *v, const char *pk, double units, bool write,
                            char **err)
{
    char *text = v ? attr_text(v) : NULL;
    if (!text)
        return no_key(pk, err);
    kp_status st = accesslog_emit(s, text, strlen(text), 1, units, write, err);
    free(text);
    return st;
}

/* A DynamoDB JSON line. */
static kp_status dynamodb_line(accesslog_sink *s, json_t *o, const char *pk, char **err)
{
    static const char *const skip[] = {"ConsumedCapacity", "Operation", "units", "op", "TableName"};
    json_t *key = json_object_get(o, "Key");
    if (!json_is_object(key))
        key = json_object_get(o, "key");
    if (!json_is_object(key))
        key = o;
    json_t *v = key_value(key, pk, skip, sizeof skip / sizeof *skip);
    double units = 1;
    json_t *cc = json_object_get(o, "ConsumedCapacity");
    json_t *u = json_is_object(cc) ? json_object_get(cc, "CapacityUnits") : json_object_get(o, "units");
    if (u) {
        if (!json_is_number(u) || !(json_number_value(u) >= 0) || json_number_value(u) > ACCESSLOG_MAX_UNITS)
            return kp_fail(err, KP_INVALID,
                           _("units: expected a number from 0 to %g (the units one request consumed)"),
                           ACCESSLOG_MAX_UNITS);
        units = json_number_value(u);
    }
    json_t *op = json_object_get(o, "Operation");
    if (!op)
        op = json_object_get(o, "op");
    bool write = false;
    if (json_is_string(op)) {
        int k = accesslog_kind(json_string_value(op), json_string_length(op));
        if (k < 0)
            return kp_fail(err, KP_INVALID,
                           _("operation '%s' is neither a read nor a write (expected GetItem, "
                             "Query, PutItem, UpdateItem, DeleteItem...)"),
                           json_string_value(op));
        write = k == 1;
    }
    return emit_value(s, v, pk, units, write, err);
}

/* The value of a Query's partition key from its key condition ("#n = :v AND ...", "PK = :v"). */
static json_t *query_key(json_t *rp, const char *pk)
{
    json_t *kce = json_object_get(rp, "keyConditionExpression");
    json_t *vals = json_object_get(rp, "expressionAttributeValues");
    json_t *names = json_object_get(rp, "expressionAttributeNames");
    if (!json_is_string(kce) || !json_is_object(vals))
        return NULL;
    const char *e = json_string_value(kce);
    /* each "NAME = :VALUE" comparison; the partition key's is the one naming pk (or PK), else
     * the first */
    json_t *first = NULL;
    for (const char *p = e; *p;) {
        while (*p == ' ' || *p == '(')
            p++;
        const char *n0 = p;
        while (*p && *p != ' ' && *p != '=')
            p++;
        size_t nlen = (size_t)(p - n0);
        while (*p == ' ')
            p++;
        if (*p != '=' || p[1] == '=')
            break;
        p++;
        while (*p == ' ')
            p++;
        const char *v0 = p;
        while (*p && *p != ' ' && *p != ')')
            p++;
        char *vname = xstrndup(v0, (size_t)(p - v0));
        char *name = xstrndup(n0, nlen);
        json_t *v = json_object_get(vals, vname);
        const char *real = name;
        if (name[0] == '#' && json_is_object(names) && json_is_string(json_object_get(names, name)))
            real = json_string_value(json_object_get(names, name));
        bool match = strcmp(real, pk ? pk : "PK") == 0;
        free(vname);
        free(name);
        if (v && match)
            return v;
        if (v && !first && !pk)
            first = v;
        /* the next comparison, after AND */
        const char *and = strstr(p, " AND ");
        if (!and)
            and = strstr(p, " and ");
        if (!and)
            break;
        p = and+5;
    }
    return first;
}

/* One CloudTrail event. */
static kp_status cloudtrail_one(accesslog_sink *s, json_t *ev, const char *pk, char **err)
{
    json_t *src = json_object_get(ev, "eventSource"), *name = json_object_get(ev, "eventName");
    if (!json_is_string(src) || strcmp(json_string_value(src), "dynamodb.amazonaws.com") != 0)
        return kp_fail(err, KP_INVALID,
                       _("an event of %s; expected DynamoDB data events (eventSource "
                         "dynamodb.amazonaws.com)"),
                       json_is_string(src) ? json_string_value(src) : _("no eventSource"));
    const char *op = json_is_string(name) ? json_string_value(name) : "";
    static const char *const keyed[] = {"GetItem", "PutItem", "UpdateItem", "DeleteItem"};
    bool by_key = false;
    for (size_t i = 0; i < sizeof keyed / sizeof *keyed; i++)
        by_key |= strcmp(op, keyed[i]) == 0;
    bool query = strcmp(op, "Query") == 0;
    if (!by_key && !query)
        return kp_fail(err, KP_INVALID,
                       _("eventName '%s': expected a DynamoDB data event on one key (GetItem, "
                         "PutItem, UpdateItem, DeleteItem, Query)"),
                       op);
    json_t *rp = json_object_get(ev, "requestParameters");
    if (!json_is_object(rp))
        /* TRANSLATORS: %s is the event's name (GetItem) */
        return kp_fail(err, KP_INVALID, _("%s without requestParameters"), op);
    json_t *v;
    if (by_key) {
        json_t *key = json_object_get(rp, "key");
        if (!json_is_object(key))
            /* TRANSLATORS: %s is the event's name (GetItem) */
            return kp_fail(err, KP_INVALID, _("%s without requestParameters.key"), op);
        v = key_value(key, pk, NULL, 0);
    } else {
        v = query_key(rp, pk);
        if (!v)
            return kp_fail(err, KP_INVALID,
                           _("Query without its partition key's value (keyConditionExpression "
                             "and expressionAttributeValues)"));
    }
    return emit_value(s, v, pk, 1, accesslog_kind(op, strlen(op)) == 1, err);
}

/* One CloudTrail event (record `rec` of the line, 0 when the line is the event): what is wrong
 * with a record says which. */
static kp_status cloudtrail_event(accesslog_sink *s, json_t *ev, size_t rec, const char *pk, char **err)
{
    kp_status st = cloudtrail_one(s, ev, pk, err);
    if (st != KP_OK && rec) {
        /* TRANSLATORS: %1$zu is the record's number in a CloudTrail file, %2$s what is wrong */
        char *e = xasprintf(_("record %1$zu: %2$s"), rec, *err);
        free(*err);
        *err = e;
    }
    return st;
}

kp_status heatlog_json_line(accesslog_sink *s, const char *line, size_t len, void *ctx, char **err)
{
    const char *pk = ctx;
    json_error_t je;
    json_t *o = json_loadb(line, len, 0, &je);
    if (!o || !json_is_object(o)) {
        kp_status st = o ? kp_fail(err, KP_INVALID, _("expected a JSON object"))
                         /* TRANSLATORS: %1$d is a column, %2$s the JSON parser's own message */
                         : kp_fail(err, KP_INVALID, _("bad JSON at column %1$d: %2$s"), je.column, je.text);
        json_decref(o);
        return st;
    }
    kp_status st;
    json_t *records = json_object_get(o, "Records");
    if (json_is_array(records)) {
        st = KP_OK;
        size_t i;
        json_t *ev;
        json_array_foreach(records, i, ev)
        {
            if (!json_is_object(ev)) {
                st = kp_fail(err, KP_INVALID, _("record %zu: expected a CloudTrail event object"), i + 1);
                break;
            }
            if ((st = cloudtrail_event(s, ev, i + 1, pk, err)) != KP_OK)
                break;
        }
    } else if (json_object_get(o, "eventSource") && json_object_get(o, "eventName")) {
        st = cloudtrail_event(s, o, 0, pk, err);
    } else {
        st = dynamodb_line(s, o, pk, err);
    }
    json_decref(o);
    return st;
}

/* ---- streaming ---------------------------------------------------------------------------- */

static int open_log(const char *path, char **err)
{
    if (strcmp(path, "-") == 0)
        return STDIN_FILENO;
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        /* TRANSLATORS: %1$s is the log's path, %2$s the system's reason */
        kp_fail(err, KP_IO, _("%1$s: cannot open: %2$s"), path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        close(fd);
        kp_fail(err, KP_IO, _("%s: is a directory; expected a file"), path);
        return -1;
    }
    return fd;
}

/* One chunk read by a thread of its own while the tally works on the one before. */
typedef struct chunk_read {
    int fd;
    char *buf;
    size_t cap, len; /* len bytes read, cap wanted: fewer at the end of the input */
    int error;       /* errno of a failed read, 0 */
} chunk_read;

static void *read_chunk(void *arg)
{
    chunk_read *c = arg;
    c->len = 0;
    c->error = 0;
    while (c->len < c->cap) {
        ssize_t r = read(c->fd, c->buf + c->len, c->cap - c->len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            c->error = errno;
            break;
        }
        if (r == 0)
            break;
        c->len += (size_t)r;
    }
    return NULL;
}

/* The thread that reads the next chunk while the tally works on one: started once for the log,
 * when a second chunk is wanted (a log of 350 MB is some 170 chunks, and a thread started and
 * joined for each cost more than one woken for each; a log of one chunk needs none). */
typedef struct reader {
    pthread_mutex_t mu;
    pthread_cond_t cv; /* a chunk to read, or one read: each side waits on it for the other */
    chunk_read *job;   /* the chunk being read; NULL: none */
    bool quit;
    bool tried;   /* the thread was asked for */
    bool running; /* the thread started (else the chunks are read in the caller's thread) */
    pthread_t tid;
} reader;

static void *reader_main(void *arg)
{
    reader *r = arg;
    pthread_mutex_lock(&r->mu);
    for (;;) {
        while (!r->job && !r->quit)
            pthread_cond_wait(&r->cv, &r->mu);
        if (!r->job)
            break;
        chunk_read *c = r->job;
        pthread_mutex_unlock(&r->mu);
        read_chunk(c);
        pthread_mutex_lock(&r->mu);
        r->job = NULL;
        pthread_cond_broadcast(&r->cv);
    }
    pthread_mutex_unlock(&r->mu);
    return NULL;
}

static void reader_open(reader *r)
{
    memset(r, 0, sizeof *r);
    if (pthread_mutex_init(&r->mu, NULL) != 0)
        util_die("cannot make a lock");
    if (pthread_cond_init(&r->cv, NULL) != 0)
        util_die("cannot make a lock");
}

/* c read by the reader (or now, in this thread, when it could not start): reader_wait waits. */
static void reader_start(reader *r, chunk_read *c)
{
    if (!r->tried) {
        r->tried = true;
        r->running = pthread_create(&r->tid, NULL, reader_main, r) == 0;
    }
    if (!r->running) {
        read_chunk(c);
        return;
    }
    pthread_mutex_lock(&r->mu);
    r->job = c;
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
}

static void reader_wait(reader *r)
{
    pthread_mutex_lock(&r->mu);
    while (r->job)
        pthread_cond_wait(&r->cv, &r->mu);
    pthread_mutex_unlock(&r->mu);
}

static void reader_close(reader *r)
{
    if (r->running) {
        pthread_mutex_lock(&r->mu);
        r->quit = true;
        pthread_cond_broadcast(&r->cv);
        pthread_mutex_unlock(&r->mu);
        pthread_join(r->tid, NULL);
    }
    pthread_mutex_destroy(&r->mu);
    pthread_cond_destroy(&r->cv);
}

/* carry[0..*clen) + more[0..n): the line cut between two chunks (growing carry as it needs). */
static void carry_add(char **carry, size_t *clen, size_t *ccap, const char *more, size_t n)
{
    if (!n)
        return; /* carry may be NULL yet */
    if (*clen + n > *ccap) {
        *ccap = (*clen + n) * 2;
        *carry = xrealloc(*carry, *ccap);
    }
    memcpy(*carry + *clen, more, n);
    *clen += n;
}

/* The log is read in chunks, CHUNK bytes each, by a thread of its own (the next read while the
 * tally works on one); the line cut at a chunk's end is carried over to the next (carry, usually
 * one short line; a line longer than a chunk grows it, up to the longest line accesslog_feed
 * accepts). A regular file too: copied into two chunks that stay in the processor's cache, its
 * lines are read faster than in place through a mapping of the page cache (whose pages, each
 * touched once, come from memory and cost a fault each), and a file cut shorter while it is read
 * simply ends early, which the size it had says. */
kp_status heatlog_stream(accesslog *h, const char *path, size_t *lineno, char **err)
{
    *lineno = 0;
    int fd = open_log(path, err);
    if (fd < 0)
        return KP_IO;
    struct stat sb;
    off_t at = lseek(fd, 0, SEEK_CUR); /* standard input from a file: where it stands */
    /* a regular file's bytes from where it stands, as its size says (-1: anything else) */
    off_t expect =
        fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && at >= 0 && sb.st_size >= at ? sb.st_size - at : -1;
    uintmax_t total = 0;
    chunk_read c[2] = {{fd, xmalloc(CHUNK), CHUNK, 0, 0}, {fd, xmalloc(CHUNK), CHUNK, 0, 0}};
    char *carry = NULL;
    size_t clen = 0, ccap = 0, used;
    kp_status st = KP_OK;
    reader rd;
    reader_open(&rd);
    read_chunk(&c[0]);
    for (size_t k = 0;; k ^= 1) {
        chunk_read *cur = &c[k];
        if (cur->error) {
            /* TRANSLATORS: %1$s is the log's path or "standard input", %2$s the system's reason */
            st = kp_fail(err, KP_IO, _("%1$s: cannot read: %2$s"),
                         strcmp(path, "-") == 0 ? _("standard input") : path, strerror(cur->error));
            *lineno = 0;
            break;
        }
        bool eof = cur->len < cur->cap;
        total += cur->len;
        if (eof && expect >= 0 && total < (uintmax_t)expect) {
            /* TRANSLATORS: %s is the log's path */
            st = kp_fail(err, KP_IO,
                         _("%s: the file shrank while it was read; read it again once it is whole"), path);
            *lineno = 0;
            break;
        }
        if (!eof) /* the next chunk read meanwhile */
            reader_start(&rd, &c[k ^ 1]);
        const char *text = cur->buf;
        size_t len = cur->len;
        if (clen) { /* the line cut at the last chunk's end, completed */
            const char *nl = memchr(text, '\n', len);
            size_t take = nl ? (size_t)(nl - text) + 1 : len;
            carry_add(&carry, &clen, &ccap, text, take);
            text += take;
            len -= take;
            st = accesslog_feed(h, carry, clen, eof && !len, &used, lineno, err);
            memmove(carry, carry + used, clen - used);
            clen -= used;
        }
        if (st == KP_OK && !clen) {
            st = accesslog_feed(h, text, len, eof, &used, lineno, err);
            if (st == KP_OK)
                carry_add(&carry, &clen, &ccap, text + used, len - used);
        }
        reader_wait(&rd);
        if (st != KP_OK || eof)
            break;
    }
    reader_close(&rd);
    free(carry);
    free(c[0].buf);
    free(c[1].buf);
    if (fd != STDIN_FILENO)
        close(fd);
    return st;
}

/* ---- merging ------------------------------------------------------------------------------ */

static bool num(json_t *o, const char *name, double *out)
{
    json_t *v = json_object_get(o, name);
    if (!json_is_number(v) || !(json_number_value(v) >= 0) || !isfinite(json_number_value(v)))
        return false;
    *out = json_number_value(v);
    return true;
}

/* A `keyplan heat --json` result. */
static kp_status merge_json(accesslog *h, const char *text, size_t len, double *raise, size_t *lineno,
                            char **err)
{
    json_error_t je;
    json_t *o = json_loadb(text, len, 0, &je);
    if (!o) {
        *lineno = (size_t)(je.line > 0 ? je.line : 1);
        return kp_fail(err, KP_INVALID, _("bad JSON at column %1$d: %2$s"), je.column, je.text);
    }
    *lineno = 1;
    kp_status st = KP_OK;
    double req, units, ru, wu, bound = 0;
    json_t *keys = json_object_get(o, "keys"), *dk = json_object_get(o, "distinct_keys");
    if (!json_is_object(o) || !json_is_array(keys) || !json_is_integer(dk) || !num(o, "requests", &req) ||
        !num(o, "units", &units) || !num(o, "read_units", &ru) || !num(o, "write_units", &wu)) {
        st = kp_fail(err, KP_INVALID,
                     _("expected the JSON of `keyplan heat --json` (requests, units, read_units, "
                       "write_units, distinct_keys, keys)"));
        goto out;
    }
    if (json_object_get(o, "bound") && !num(o, "bound", &bound)) {
        st = kp_fail(err, KP_INVALID, _("bound: expected a number >= 0"));
        goto out;
    }
    size_t n = json_array_size(keys);
    /* a part listing only its hottest keys: an absent key had at most the coldest listed units */
    if ((json_int_t)n < json_integer_value(dk)) {
        double coldest = units; /* none listed: an absent key may hold them all */
        if (n)
            num(json_array_get(keys, n - 1), "units", &coldest);
        bound = fmax(bound, coldest);
    }
    accesslog_add_totals(h, req, units, ru, wu);
    for (size_t i = 0; i < n; i++) {
        json_t *k = json_array_get(keys, i), *name = json_object_get(k, "key");
        accesslog_key e = {0};
        if (!json_is_string(name) || !num(k, "requests", &e.requests) || !num(k, "units", &e.units) ||
            !num(k, "read_units", &e.read_units) || !num(k, "write_units", &e.write_units) ||
            (json_object_get(k, "error") && !num(k, "error", &e.error))) {
            st = kp_fail(err, KP_INVALID,
                         _("keys[%zu]: expected key, requests, units, read_units, write_units"), i);
            goto out;
        }
        e.key = (char *)json_string_value(name);
        e.keylen = json_string_length(name);
        if (e.keylen == 0 || e.keylen > ACCESSLOG_MAX_KEY || memchr(e.key, '\0', e.keylen) ||
            util_control_at(e.key, false) >= 0) {
            st = kp_fail(err, KP_INVALID,
                         _("keys[%zu]: not a partition key (empty, over %d bytes or with control "
                           "characters)"),
                         i, ACCESSLOG_MAX_KEY);
            goto out;
        }
        e.units -= bound;
        e.error -= bound;
        accesslog_add(h, &e);
    }
    *raise += bound;
out:
    json_decref(o);
    return st;
}

kp_status heatlog_merge_part(accesslog *h, const char *path, double *raise, size_t *lineno, char **err)
{
    *lineno = 0;
    int fd = open_log(path, err);
    if (fd < 0)
        return KP_IO;
    /* a JSON part starts with '{' (spaces aside) */
    char c = 0;
    ssize_t r;
    bool std = fd == STDIN_FILENO;
    if (!std) {
        do
            r = read(fd, &c, 1);
        while (r == 1 && (c == ' ' || c == '\n' || c == '\r' || c == '\t'));
        close(fd);
    }
    if (std || c != '{')
        return heatlog_stream(h, path, lineno, err);
    size_t len;
    char *text = fileio_read_max(path, (size_t)1 << 30, &len, err);
    if (!text)
        return KP_IO;
    kp_status st = merge_json(h, text, len, raise, lineno, err);
    free(text);
    return st;
}

/* ---- output ------------------------------------------------------------------------------- */

/* A double as jansson writes it (%.17g, ".0" when it looks whole, the exponent's '+' and leading
 * zeros dropped), so that the output stays what it was when jansson wrote it. */
static void json_num(sbuf *b, double x)
{
    char t[64];
    snprintf(t, sizeof t, "%.17g", x);
    if (!strpbrk(t, ".eEn"))
        strcat(t, ".0");
    char *e = strchr(t, 'e');
    if (e) {
        char *d = e + 1, *s = e + 1;
        if (*s == '+')
            s++;
        else if (*s == '-')
            *d++ = *s++;
        while (*s == '0' && s[1])
            s++;
        memmove(d, s, strlen(s) + 1);
    }
    sbuf_add(b, t);
}

static void json_str(sbuf *b, const char *s)
{
    sbuf_addc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"':
            sbuf_add(b, "\\\"");
            break;
        case '\\':
            sbuf_add(b, "\\\\");
            break;
        case '\b':
            sbuf_add(b, "\\b");
            break;
        case '\f':
            sbuf_add(b, "\\f");
            break;
        case '\n':
            sbuf_add(b, "\\n");
            break;
        case '\r':
            sbuf_add(b, "\\r");
            break;
        case '\t':
            sbuf_add(b, "\\t");
            break;
        default:
            if (*p < 0x20)
                sbuf_printf(b, "\\u%04X", *p);
            else
                sbuf_addc(b, (char)*p);
        }
    }
    sbuf_addc(b, '"');
}

static void field_num(sbuf *b, const char *ind, const char *name, double x, bool more)
{
    sbuf_printf(b, "%s\"%s\": ", ind, name);
    json_num(b, x);
    sbuf_add(b, more ? ",\n" : "\n");
}

static double share(double part, double whole) { return whole > 0 ? part / whole : 0; }

char *heatlog_json(const accesslog_result *r, const char *name, double seconds)
{
    bool timed = !isnan(seconds);
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, "{\n  \"source\": ");
    json_str(&b, name);
    sbuf_add(&b, ",\n");
    field_num(&b, "  ", "requests", r->requests, true);
    field_num(&b, "  ", "units", r->units, true);
    field_num(&b, "  ", "read_units", r->read_units, true);
    field_num(&b, "  ", "write_units", r->write_units, true);
    sbuf_printf(&b, "  \"distinct_keys\": %zu,\n", r->distinct);
    if (timed)
        field_num(&b, "  ", "seconds", seconds, true);
    else
        sbuf_add(&b, "  \"seconds\": null,\n");
    field_num(&b, "  ", "hot_share", r->n ? share(r->v[0].units, r->units) : 0, true);
    sbuf_printf(&b, "  \"hot\": %s,\n", r->hot ? "true" : "false");
    if (r->approx) {
        sbuf_add(&b, "  \"approximate\": true,\n");
        if (r->capacity)
            sbuf_printf(&b, "  \"capacity\": %zu,\n", r->capacity);
        field_num(&b, "  ", "bound", r->bound, true);
    }
    sbuf_add(&b, r->n ? "  \"keys\": [\n" : "  \"keys\": []\n");
    for (size_t i = 0; i < r->n; i++) {
        const accesslog_key *k = &r->v[i];
        const char *in = "      ";
        sbuf_add(&b, "    {\n      \"key\": ");
        json_str(&b, k->key);
        sbuf_add(&b, ",\n");
        field_num(&b, in, "requests", k->requests, true);
        field_num(&b, in, "request_share", share(k->requests, r->requests), true);
        field_num(&b, in, "units", k->units, true);
        field_num(&b, in, "unit_share", share(k->units, r->units), true);
        field_num(&b, in, "read_units", k->read_units, true);
        field_num(&b, in, "write_units", k->write_units, timed || r->approx);
        if (r->approx)
            field_num(&b, in, "error", k->error, timed);
        if (timed) {
            field_num(&b, in, "read_util", k->read_units / seconds / CAP_PARTITION_RCU, true);
            field_num(&b, in, "write_util", k->write_units / seconds / CAP_PARTITION_WCU, true);
            sbuf_printf(&b, "%s\"hot\": %s\n", in, accesslog_key_hot(k, seconds) ? "true" : "false");
        }
        sbuf_add(&b, i + 1 < r->n ? "    },\n" : "    }\n");
    }
    if (r->n)
        sbuf_add(&b, "  ]\n");
    sbuf_add(&b, "}\n");
    return sbuf_steal(&b);
}

/* text padded with spaces to `width` display cells (on the left when `right`): a translated
 * header keeps its column whatever its accents. */
static void add_cells(sbuf *b, const char *text, int width, bool right)
{
    int pad = width - disp_width(text);
    if (right)
        sbuf_printf(b, "%*s", pad > 0 ? pad : 0, "");
    sbuf_add(b, text);
    if (!right)
        sbuf_printf(b, "%*s", pad > 0 ? pad : 0, "");
}

/* One figure of the table: printf's fmt (one conversion of v, with its width, which stays) with
 * the reader's decimal mark. */
static void add_fig(sbuf *b, const char *fmt, double v)
{
    char tmp[400];
    snprintf(tmp, sizeof tmp, fmt, v);
    const char *dec = i18n_numbers()->decimal;
    char *dot = strchr(tmp, '.');
    if (dot && strlen(dec) == 1)
        *dot = dec[0];
    sbuf_add(b, tmp);
}

char *heatlog_text(const accesslog_result *r, const char *name, double seconds)
{
    bool timed = !isnan(seconds);
    sbuf b;
    sbuf_init(&b);
    textf_add(&b, _("heat of %s: %.0f requests, %.1f units, %zu partition keys\n"), name, r->requests,
              r->units, r->distinct);
    if (r->approx) {
        if (r->capacity)
            textf_add(&b,
                      _("approximate: at most %zu keys kept; a key's units are at most its error above "
                        "the truth; a key not listed had at most %.1f units\n"),
                      r->capacity, r->bound);
        else
            textf_add(&b,
                      _("approximate (merged parts that listed only their hottest keys): a key's units "
                        "are at most its error above the truth; a key not listed had at most %.1f "
                        "units\n"),
                      r->bound);
    }
    if (r->n && r->units > 0)
        /* TRANSLATORS: %1$s is the key, then its shares of the units and of the requests */
        textf_add(&b, _("hottest key %1$s: %2$.1f %% of the units, %3$.1f %% of the requests\n"), r->v[0].key,
                  r->v[0].units / r->units * 100, r->requests > 0 ? r->v[0].requests / r->requests * 100 : 0);
    /* the columns' headers, each within its column's display cells (given in the comments) */
    const struct {
        const char *text;
        int cells;
        bool right, shown;
    } cols[] = {
        /* TRANSLATORS: a column header, at most 4 cells */
        {P_("heat", "rank"), 4, true, true},
        /* TRANSLATORS: a column header, at most 32 cells */
        {P_("heat", "partition key"), 32, false, true},
        /* TRANSLATORS: a column header (requests of a key), at most 10 cells */
        {P_("heat", "requests"), 10, true, true},
        /* TRANSLATORS: a column header (a key's share of the requests, then of the units), at most 7 cells */
        {P_("heat", "share"), 7, true, true},
        /* TRANSLATORS: a column header (units consumed), at most 11 cells */
        {P_("heat", "units"), 11, true, true},
        {P_("heat", "share"), 7, true, true},
        /* TRANSLATORS: a column header (how far the units may be above the truth), at most 11 cells */
        {P_("heat", "error"), 11, true, r->approx},
        /* TRANSLATORS: a column header (read units per second), at most 9 cells */
        {P_("heat", "read/s"), 9, true, timed},
        /* TRANSLATORS: a column header (share of a partition's read limit), at most 7 cells */
        {P_("heat", "read %"), 7, true, timed},
        /* TRANSLATORS: a column header (write units per second), at most 9 cells */
        {P_("heat", "write/s"), 9, true, timed},
        /* TRANSLATORS: a column header (share of a partition's write limit), at most 8 cells */
        {P_("heat", "write %"), 8, true, timed},
    };
    if (r->n) {
        sbuf_addc(&b, '\n');
        for (size_t c = 0; c < sizeof cols / sizeof *cols; c++)
            if (cols[c].shown) {
                sbuf_add(&b, c == 0 ? "" : c == 1 ? "  " : " ");
                add_cells(&b, cols[c].text, cols[c].cells, cols[c].right);
            }
        sbuf_addc(&b, '\n');
    }
    for (size_t i = 0; i < r->n; i++) {
        const accesslog_key *k = &r->v[i];
        int kw = disp_width(k->key);
        sbuf_printf(&b, "%4zu  %s%*s", i + 1, k->key, kw < 32 ? 32 - kw : 0, "");
        add_fig(&b, " %10.0f", k->requests);
        add_fig(&b, " %6.1f%%", r->requests > 0 ? k->requests / r->requests * 100 : 0);
        add_fig(&b, " %11.1f", k->units);
        add_fig(&b, " %6.1f%%", r->units > 0 ? k->units / r->units * 100 : 0);
        if (r->approx)
            add_fig(&b, " %11.1f", k->error);
        if (timed) {
            double rd = k->read_units / seconds, w = k->write_units / seconds;
            add_fig(&b, " %9.1f", rd);
            add_fig(&b, " %6.1f%%", rd / CAP_PARTITION_RCU * 100);
            add_fig(&b, " %9.1f", w);
            add_fig(&b, " %7.1f%%", w / CAP_PARTITION_WCU * 100);
            if (accesslog_key_hot(k, seconds)) {
                sbuf_add(&b, "  ");
                /* TRANSLATORS: the mark of a key at or over a partition's limit, in capitals */
                sbuf_add(&b, P_("heat", "HOT"));
            }
        }
        sbuf_addc(&b, '\n');
    }
    if (r->hot)
        sbuf_add(&b,
                 _("\nhot: at least one key passes a partition's limit (3,000 read / 1,000 write units/s);\n"
                   "spread it with a key suffix, cache its reads, or aggregate its writes.\n"));
    return sbuf_steal(&b);
}
