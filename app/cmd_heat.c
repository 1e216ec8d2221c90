/* cmd_heat.c - keyplan heat [LOG|-] [--json] [--top N] [--seconds S] [--pk NAME]: the
 * hottest partition keys of a real access log.
 *
 * The log (a file, or standard input for "-" or no argument) has one request per line:
 *   PK                                 one request of 1 unit
 *   PK<TAB>SK                          the sort key is ignored (heat is per partition)
 *   PK<TAB>SK<TAB>UNITS                units consumed (read or write units; default 1)
 *   PK<TAB>SK<TAB>UNITS<TAB>read|write the kind (default read; r/w, get/put... accepted)
 * or a DynamoDB JSON line: {"Key": {"PK": {"S": "CLIENTE#7"}, ...}, "ConsumedCapacity":
 * {"CapacityUnits": 0.5}, "Operation": "GetItem"} or just the key map {"PK": {"S": "..."}}.
 * The partition attribute is --pk NAME, else "PK" when present, else the first attribute.
 * "units" / "op" fields are accepted as short forms. Blank lines and lines starting with '#'
 * are skipped. Operations named Put/Update/Delete/Write/Transact count as writes.
 *
 * Output: requests, units and distinct keys; the --top N keys (default 10) by units with their
 * share of the requests and of the units. With --seconds S (the time the log covers), units per
 * second and the utilisation of a partition's 3,000 read / 1,000 write units per second.
 * Exit status: 0; 1 when --seconds shows a key at >= 100 % of a partition's limit (a hot key);
 * 2 for an unreadable log or a malformed line (LOG:LINE: what is wrong). */
#include "commands.h"

#include "distrib.h"
#include "util.h"
#include "fileio.h"
#include "display.h"

#include <jansson.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define PARTITION_RCU 3000.0
#define PARTITION_WCU 1000.0

typedef struct hkey {
    char *key;
    double requests, units, read_units, write_units;
} hkey;

typedef struct hlog {
    hkey *v;
    size_t n, cap;
    distrib_map *map;
    double requests, units, read_units, write_units;
} hlog;

static void heat_usage(FILE *out)
{
    fprintf(out, "usage: keyplan heat [LOG|-] [--json] [--top N] [--seconds S] [--pk NAME]\n"
                 "  the hottest partition keys of an access log (standard input when LOG is - or absent).\n"
                 "  one request per line: PK, or PK<TAB>SK<TAB>UNITS[<TAB>read|write], or a DynamoDB JSON\n"
                 "  line ({\"Key\": {\"PK\": {\"S\": \"...\"}}, \"ConsumedCapacity\": {\"CapacityUnits\": 1},\n"
                 "  \"Operation\": \"PutItem\"}, or the key map alone); '#' lines are comments.\n"
                 "  --json       one JSON object\n"
                 "  --top N      how many keys to list (default 10)\n"
                 "  --seconds S  the time the log covers: units/s and the per-partition limits\n"
                 "               (3,000 read and 1,000 write units per second)\n"
                 "  --pk NAME    the partition attribute of JSON lines (default PK, else the first)\n"
                 "exit status: 0, 1 when --seconds finds a key at or over a partition's limit, 2 bad input\n");
}

static void add_request(hlog *h, const char *key, size_t keylen, double units, bool write)
{
    char *k = xstrndup(key, keylen);
    size_t i;
    if (!distrib_map_get(h->map, k, 0, &i)) {
        VEC_GROW(h->v, h->n, h->cap);
        i = h->n++;
        h->v[i] = (hkey){k, 0, 0, 0, 0};
        distrib_map_put(h->map, h->v[i].key, 0, i);
    } else {
        free(k);
    }
    hkey *e = &h->v[i];
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

static bool is_write_word(const char *s)
{
    const char *w[] = {"w", "write", "put", "update", "delete", "transact", "batchwrite"};
    for (size_t i = 0; i < sizeof w / sizeof *w; i++)
        if (strncasecmp(s, w[i], strlen(w[i])) == 0)
            return true;
    return false;
}

static bool is_read_word(const char *s)
{
    const char *r[] = {"r", "read", "get", "query", "scan", "batchget"};
    for (size_t i = 0; i < sizeof r / sizeof *r; i++)
        if (strncasecmp(s, r[i], strlen(r[i])) == 0)
            return true;
    return false;
}

/* The text of a DynamoDB attribute value {"S": "x"} / {"N": "7"} / {"B": "..."}, or a plain
 * JSON string/number. NULL when it is none of those. Caller frees. */
static char *attr_text(json_t *v)
{
    if (json_is_string(v))
        return xstrdup(json_string_value(v));
    if (json_is_integer(v))
        return xasprintf("%lld", (long long)json_integer_value(v));
    if (json_is_real(v))
        return xasprintf("%.17g", json_real_value(v));
    if (json_is_object(v)) {
        const char *types[] = {"S", "N", "B"};
        for (size_t i = 0; i < 3; i++) {
            json_t *s = json_object_get(v, types[i]);
            if (json_is_string(s))
                return xstrdup(json_string_value(s));
        }
    }
    return NULL;
}

/* Parses one JSON line. false with *err (caller frees) when unusable. */
static bool json_line(hlog *h, const char *line, size_t len, const char *pk, char **err)
{
    json_error_t je;
    json_t *o = json_loadb(line, len, 0, &je);
    if (!o || !json_is_object(o)) {
        *err = o ? xstrdup("expected a JSON object") : xasprintf("bad JSON at column %d: %s", je.column, je.text);
        json_decref(o);
        return false;
    }
    json_t *key = json_object_get(o, "Key");
    if (!json_is_object(key))
        key = json_object_get(o, "key");
    if (!json_is_object(key))
        key = o;
    json_t *v = pk ? json_object_get(key, pk) : json_object_get(key, "PK");
    if (!v && !pk) {
        const char *first = NULL;
        json_t *fv;
        json_object_foreach(key, first, fv)
        {
            if (strcmp(first, "ConsumedCapacity") != 0 && strcmp(first, "Operation") != 0 &&
                strcmp(first, "units") != 0 && strcmp(first, "op") != 0 && strcmp(first, "TableName") != 0) {
                v = fv;
                break;
            }
        }
    }
    char *text = v ? attr_text(v) : NULL;
    if (!text) {
        *err = xasprintf("no partition key %s%s%s in the JSON line", pk ? "'" : "", pk ? pk : "", pk ? "'" : "");
        json_decref(o);
        return false;
    }
    double units = 1;
    json_t *cc = json_object_get(o, "ConsumedCapacity");
    json_t *u = json_is_object(cc) ? json_object_get(cc, "CapacityUnits") : json_object_get(o, "units");
    if (u) {
        if (!json_is_number(u) || json_number_value(u) < 0) {
            *err = xstrdup("units must be a number >= 0");
            free(text);
            json_decref(o);
            return false;
        }
        units = json_number_value(u);
    }
    json_t *op = json_object_get(o, "Operation");
    if (!op)
        op = json_object_get(o, "op");
    bool write = json_is_string(op) && is_write_word(json_string_value(op));
    add_request(h, text, strlen(text), units, write);
    free(text);
    json_decref(o);
    return true;
}

/* Parses one tab-separated line. false with *err (caller frees) when unusable. */
static bool tab_line(hlog *h, char *line, char **err)
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
    size_t bad;
    if (!util_utf8_valid(field[0], strlen(field[0]), &bad)) {
        *err = xasprintf("invalid UTF-8 in the key at byte %zu", bad + 1);
        return false;
    }
    double units = 1;
    if (nf >= 3 && *field[2]) {
        char *end;
        units = strtod(field[2], &end);
        if (end == field[2] || *end || !(units >= 0) || isinf(units)) {
            *err = xasprintf("units '%s' is not a number >= 0", field[2]);
            return false;
        }
    }
    bool write = false;
    if (nf >= 4 && *field[3]) {
        if (is_write_word(field[3]))
            write = true;
        else if (!is_read_word(field[3])) {
            *err = xasprintf("kind '%s' is neither read nor write", field[3]);
            return false;
        }
    }
    add_request(h, field[0], strlen(field[0]), units, write);
    return true;
}

static int cmp_units(const void *a, const void *b)
{
    const hkey *x = a, *y = b;
    if (x->units != y->units)
        return x->units > y->units ? -1 : 1;
    if (x->requests != y->requests)
        return x->requests > y->requests ? -1 : 1;
    return strcmp(x->key, y->key);
}

static void hlog_free(hlog *h)
{
    for (size_t i = 0; i < h->n; i++)
        free(h->v[i].key);
    free(h->v);
    distrib_map_free(h->map);
}

int cmd_heat(int argc, char **argv)
{
    const char *path = NULL, *pk = NULL;
    bool json = false;
    long top = 10;
    double seconds = NAN;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            heat_usage(stdout);
            return 0;
        } else if (strcmp(a, "--json") == 0) {
            json = true;
        } else if (strcmp(a, "--top") == 0 || strcmp(a, "--seconds") == 0 || strcmp(a, "--pk") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "keyplan heat: %s needs a value\n", a);
                return 2;
            }
            const char *v = argv[++i];
            char *end;
            if (strcmp(a, "--pk") == 0) {
                pk = v;
            } else if (strcmp(a, "--top") == 0) {
                top = strtol(v, &end, 10);
                if (end == v || *end || top < 1) {
                    fprintf(stderr, "keyplan heat: --top '%s': expected a whole number >= 1\n", v);
                    return 2;
                }
            } else {
                seconds = strtod(v, &end);
                if (end == v || *end || !(seconds > 0) || isinf(seconds)) {
                    fprintf(stderr, "keyplan heat: --seconds '%s': expected a number of seconds > 0\n", v);
                    return 2;
                }
            }
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "keyplan heat: unknown option '%s'\n", a);
            heat_usage(stderr);
            return 2;
        } else if (!path) {
            path = a;
        } else {
            fprintf(stderr, "keyplan heat: one log at a time ('%s' and '%s')\n", path, a);
            return 2;
        }
    }
    const char *name = !path || strcmp(path, "-") == 0 ? "<stdin>" : path;
    char *text = NULL;
    size_t len = 0;
    if (!path || strcmp(path, "-") == 0) {
        sbuf b;
        sbuf_init(&b);
        char chunk[65536];
        size_t got;
        while ((got = fread(chunk, 1, sizeof chunk, stdin)) > 0)
            sbuf_addn(&b, chunk, got);
        if (ferror(stdin)) {
            fprintf(stderr, "keyplan heat: cannot read standard input\n");
            sbuf_free(&b);
            return 2;
        }
        len = b.len;
        text = b.s ? sbuf_steal(&b) : xstrdup("");
    } else {
        char *err = NULL;
        text = fileio_read(path, &len, &err);
        if (!text) {
            fprintf(stderr, "keyplan heat: %s: %s\n", path, err ? err : "cannot read");
            free(err);
            return 2;
        }
    }

    /* display widths of UTF-8 keys (DIRECCIÓN#casa) whatever the caller's locale */
    setlocale(LC_CTYPE, "");
    const char *cs = nl_langinfo(CODESET);
    if (!cs || (strcmp(cs, "UTF-8") != 0 && strcmp(cs, "utf8") != 0))
        if (!setlocale(LC_CTYPE, "C.UTF-8"))
            setlocale(LC_CTYPE, "en_US.UTF-8");

    hlog h = {0};
    h.map = distrib_map_new(1024);
    size_t lineno = 0;
    char *p = text, *end = text + len;
    while (p < end) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        char *stop = nl ? nl : end;
        lineno++;
        if (stop > p && stop[-1] == '\r')
            stop[-1] = '\0';
        *stop = '\0';
        char *line = p;
        p = nl ? nl + 1 : end;
        while (*line == ' ')
            line++;
        if (!*line || *line == '#')
            continue;
        char *err = NULL;
        bool ok = *line == '{' ? json_line(&h, line, strlen(line), pk, &err) : tab_line(&h, line, &err);
        if (!ok) {
            fprintf(stderr, "%s:%zu: error: %s\n", name, lineno, err);
            free(err);
            hlog_free(&h);
            free(text);
            return 2;
        }
    }
    free(text);

    qsort(h.v, h.n, sizeof *h.v, cmp_units);
    size_t show = (size_t)top < h.n ? (size_t)top : h.n;
    bool timed = !isnan(seconds), any_hot = false;
    for (size_t i = 0; timed && i < h.n; i++)
        if (h.v[i].read_units / seconds >= PARTITION_RCU || h.v[i].write_units / seconds >= PARTITION_WCU)
            any_hot = true;

    if (json) {
        json_t *o = json_object();
        json_object_set_new(o, "source", json_string(name));
        json_object_set_new(o, "requests", json_real(h.requests));
        json_object_set_new(o, "units", json_real(h.units));
        json_object_set_new(o, "read_units", json_real(h.read_units));
        json_object_set_new(o, "write_units", json_real(h.write_units));
        json_object_set_new(o, "distinct_keys", json_integer((json_int_t)h.n));
        json_object_set_new(o, "seconds", timed ? json_real(seconds) : json_null());
        json_object_set_new(o, "hot_share", json_real(h.n && h.units > 0 ? h.v[0].units / h.units : 0));
        json_object_set_new(o, "hot", json_boolean(any_hot));
        json_t *keys = json_array();
        for (size_t i = 0; i < show; i++) {
            const hkey *k = &h.v[i];
            json_t *e = json_object();
            json_object_set_new(e, "key", json_string(k->key));
            json_object_set_new(e, "requests", json_real(k->requests));
            json_object_set_new(e, "request_share", json_real(h.requests > 0 ? k->requests / h.requests : 0));
            json_object_set_new(e, "units", json_real(k->units));
            json_object_set_new(e, "unit_share", json_real(h.units > 0 ? k->units / h.units : 0));
            json_object_set_new(e, "read_units", json_real(k->read_units));
            json_object_set_new(e, "write_units", json_real(k->write_units));
            if (timed) {
                json_object_set_new(e, "read_util", json_real(k->read_units / seconds / PARTITION_RCU));
                json_object_set_new(e, "write_util", json_real(k->write_units / seconds / PARTITION_WCU));
                json_object_set_new(e, "hot",
                                    json_boolean(k->read_units / seconds >= PARTITION_RCU ||
                                                 k->write_units / seconds >= PARTITION_WCU));
            }
            json_array_append_new(keys, e);
        }
        json_object_set_new(o, "keys", keys);
        char *out = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        printf("%s\n", out);
        free(out);
        json_decref(o);
    } else {
        printf("heat of %s: %.0f requests, %.1f units, %zu partition keys\n", name, h.requests, h.units, h.n);
        if (h.n && h.units > 0)
            printf("hottest key %s: %.1f %% of the units, %.1f %% of the requests\n", h.v[0].key,
                   h.v[0].units / h.units * 100, h.requests > 0 ? h.v[0].requests / h.requests * 100 : 0);
        if (show)
            printf("\n%4s  %-32s %10s %7s %11s %7s%s\n", "rank", "partition key", "requests", "share", "units", "share",
                   timed ? "    read/s  read %   write/s  write %" : "");
        for (size_t i = 0; i < show; i++) {
            const hkey *k = &h.v[i];
            int kw = disp_width(k->key);
            printf("%4zu  %s%*s %10.0f %6.1f%% %11.1f %6.1f%%", i + 1, k->key, kw < 32 ? 32 - kw : 0, "", k->requests,
                   h.requests > 0 ? k->requests / h.requests * 100 : 0, k->units,
                   h.units > 0 ? k->units / h.units * 100 : 0);
            if (timed) {
                double r = k->read_units / seconds, w = k->write_units / seconds;
                printf(" %9.1f %6.1f%% %9.1f %7.1f%%%s", r, r / PARTITION_RCU * 100, w, w / PARTITION_WCU * 100,
                       r >= PARTITION_RCU || w >= PARTITION_WCU ? "  HOT" : "");
            }
            printf("\n");
        }
        if (any_hot)
            printf("\nhot: at least one key passes a partition's limit (3,000 read / 1,000 write units/s);\n"
                   "spread it with a key suffix, cache its reads, or aggregate its writes.\n");
    }
    hlog_free(&h);
    return any_hot ? 1 : 0;
}
