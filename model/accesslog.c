/* accesslog.c - an access log's requests tallied per partition key (see accesslog.h). */
#include "accesslog.h"

#include "capacity.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void accesslog_init(accesslog *h)
{
    memset(h, 0, sizeof *h);
    namemap_init(&h->map, 1024);
}

void accesslog_free(accesslog *h)
{
    for (size_t i = 0; i < h->n; i++)
        free(h->v[i].key);
    free(h->v);
    namemap_free(&h->map);
    memset(h, 0, sizeof *h);
}

void accesslog_add(accesslog *h, const char *key, size_t keylen, double units, bool write)
{
    char *k = xstrndup(key, keylen);
    size_t i;
    if (!namemap_get(&h->map, k, &i)) {
        VEC_GROW(h->v, h->n, h->cap);
        i = h->n++;
        h->v[i] = (accesslog_key){k, 0, 0, 0, 0};
        namemap_put(&h->map, h->v[i].key, i);
    } else {
        free(k);
    }
    accesslog_key *e = &h->v[i];
    e->requests++;
    e->units += units;
    if (write)
        e->write_units += units;
    else
        e->read_units += units;
    h->requests++;
    h->units += units;
    if (write)
        h->write_units += units;
    else
        h->read_units += units;
}

static bool prefix_of(const char *s, const char *const *words, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strncasecmp(s, words[i], strlen(words[i])) == 0)
            return true;
    return false;
}

bool accesslog_is_write(const char *s)
{
    static const char *const w[] = {"w", "write", "put", "update", "delete", "transact", "batchwrite"};
    return prefix_of(s, w, sizeof w / sizeof *w);
}

bool accesslog_is_read(const char *s)
{
    static const char *const r[] = {"r", "read", "get", "query", "scan", "batchget"};
    return prefix_of(s, r, sizeof r / sizeof *r);
}

/* One tab-separated line. false with *err (caller frees) when unusable. */
static bool tab_line(accesslog *h, char *line, char **err)
{
    char *field[5] = {0};
    size_t nf = 0;
    char *s = line;
    while (nf < 5) {
        field[nf++] = s;
        char *tab = strchr(s, '\t');
        if (!tab)
            break;
        *tab = '\0';
        s = tab + 1;
    }
    if (nf > 4) {
        *err = xstrdup("too many fields; expected PK<TAB>SK<TAB>UNITS<TAB>read|write");
        return false;
    }
    if (!*field[0]) {
        *err = xstrdup("empty partition key");
        return false;
    }
    size_t bad, klen = strlen(field[0]);
    if (klen > ACCESSLOG_MAX_KEY) {
        *err = xasprintf("a partition key of %zu bytes; DynamoDB's partition keys hold at most %d bytes",
                         klen, ACCESSLOG_MAX_KEY);
        return false;
    }
    if (!util_utf8_valid(field[0], klen, &bad)) {
        *err = xasprintf("invalid UTF-8 in the key at byte %zu", bad + 1);
        return false;
    }
    double units = 1;
    if (nf >= 3 && *field[2]) {
        char *end;
        units = strtod(field[2], &end);
        if (end == field[2] || *end || !(units >= 0) || units > ACCESSLOG_MAX_UNITS) {
            *err = xasprintf("units '%s': expected a number from 0 to %g (the units one request consumed)",
                             field[2], ACCESSLOG_MAX_UNITS);
            return false;
        }
    }
    bool write = false;
    if (nf >= 4 && *field[3]) {
        if (accesslog_is_write(field[3]))
            write = true;
        else if (!accesslog_is_read(field[3])) {
            *err = xasprintf("kind '%s' is neither read nor write", field[3]);
            return false;
        }
    }
    accesslog_add(h, field[0], strlen(field[0]), units, write);
    return true;
}

kp_status accesslog_read(accesslog *h, char *text, size_t len, accesslog_json_fn json, void *ctx,
                         size_t *lineno, char **err)
{
    *lineno = 0;
    char *p = text, *end = text + len;
    while (p < end) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        char *stop = nl ? nl : end;
        (*lineno)++;
        const char *nul = memchr(p, '\0', (size_t)(stop - p));
        if (nul) {
            *err = xasprintf("column %zu: a NUL character; expected text (is it a binary file?)",
                             (size_t)(nul - p) + 1);
            return KP_ENCODING;
        }
        if (stop > p && stop[-1] == '\r')
            stop[-1] = '\0';
        *stop = '\0';
        char *line = p;
        p = nl ? nl + 1 : end;
        while (*line == ' ')
            line++;
        if (!*line || *line == '#')
            continue;
        bool ok;
        if (*line == '{') {
            ok = json && json(h, line, strlen(line), ctx, err) == KP_OK;
            if (!json)
                *err = xstrdup("JSON lines are not read here");
        } else {
            ok = tab_line(h, line, err);
        }
        if (!ok)
            return KP_INVALID;
    }
    return KP_OK;
}

static int cmp_units(const void *a, const void *b)
{
    const accesslog_key *x = a, *y = b;
    if (x->units != y->units)
        return x->units > y->units ? -1 : 1;
    if (x->requests != y->requests)
        return x->requests > y->requests ? -1 : 1;
    return strcmp(x->key, y->key);
}

void accesslog_sort(accesslog *h)
{
    if (h->n)
        qsort(h->v, h->n, sizeof *h->v, cmp_units);
    /* the map's positions are stale after sorting: rebuild it */
    namemap_free(&h->map);
    namemap_init(&h->map, h->n ? h->n : 1024);
    for (size_t i = 0; i < h->n; i++)
        namemap_put(&h->map, h->v[i].key, i);
}

bool accesslog_key_hot(const accesslog_key *k, double seconds)
{
    if (isnan(seconds))
        return false;
    return k->read_units / seconds >= CAP_PARTITION_RCU || k->write_units / seconds >= CAP_PARTITION_WCU;
}

bool accesslog_hot(const accesslog *h, double seconds)
{
    for (size_t i = 0; i < h->n; i++)
        if (accesslog_key_hot(&h->v[i], seconds))
            return true;
    return false;
}
