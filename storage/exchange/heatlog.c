/* heatlog.c - access-log JSON lines in, the hottest partition keys out (see heatlog.h). */
#include "heatlog.h"

#include "capacity.h"
#include "display.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* One JSON line (accesslog_json_fn); ctx is the partition attribute or NULL. */
static kp_status json_line(accesslog *h, const char *line, size_t len, void *ctx, char **err)
{
    const char *pk = ctx;
    json_error_t je;
    json_t *o = json_loadb(line, len, 0, &je);
    if (!o || !json_is_object(o)) {
        *err = o ? xstrdup("expected a JSON object")
                 : xasprintf("bad JSON at column %d: %s", je.column, je.text);
        json_decref(o);
        return KP_INVALID;
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
        *err =
            xasprintf("no partition key %s%s%s in the JSON line", pk ? "'" : "", pk ? pk : "", pk ? "'" : "");
        json_decref(o);
        return KP_INVALID;
    }
    if (strlen(text) > ACCESSLOG_MAX_KEY) {
        *err = xasprintf("a partition key of %zu bytes; DynamoDB's partition keys hold at most %d bytes",
                         strlen(text), ACCESSLOG_MAX_KEY);
        free(text);
        json_decref(o);
        return KP_INVALID;
    }
    double units = 1;
    json_t *cc = json_object_get(o, "ConsumedCapacity");
    json_t *u = json_is_object(cc) ? json_object_get(cc, "CapacityUnits") : json_object_get(o, "units");
    if (u) {
        if (!json_is_number(u) || !(json_number_value(u) >= 0) ||
            json_number_value(u) > ACCESSLOG_MAX_UNITS) {
            *err = xasprintf("units: expected a number from 0 to %g (the units one request consumed)",
                             ACCESSLOG_MAX_UNITS);
            free(text);
            json_decref(o);
            return KP_INVALID;
        }
        units = json_number_value(u);
    }
    json_t *op = json_object_get(o, "Operation");
    if (!op)
        op = json_object_get(o, "op");
    bool write = json_is_string(op) && accesslog_is_write(json_string_value(op));
    accesslog_add(h, text, strlen(text), units, write);
    free(text);
    json_decref(o);
    return KP_OK;
}

kp_status heatlog_read(accesslog *h, char *text, size_t len, const char *pk, size_t *lineno, char **err)
{
    return accesslog_read(h, text, len, json_line, (void *)pk, lineno, err);
}

char *heatlog_json(const accesslog *h, const char *name, size_t top, double seconds, char **err)
{
    size_t show = top < h->n ? top : h->n;
    bool timed = !isnan(seconds);
    json_t *o = json_object();
    json_object_set_new(o, "source", json_string(name));
    json_object_set_new(o, "requests", json_real(h->requests));
    json_object_set_new(o, "units", json_real(h->units));
    json_object_set_new(o, "read_units", json_real(h->read_units));
    json_object_set_new(o, "write_units", json_real(h->write_units));
    json_object_set_new(o, "distinct_keys", json_integer((json_int_t)h->n));
    json_object_set_new(o, "seconds", timed ? json_real(seconds) : json_null());
    json_object_set_new(o, "hot_share", json_real(h->n && h->units > 0 ? h->v[0].units / h->units : 0));
    json_object_set_new(o, "hot", json_boolean(accesslog_hot(h, seconds)));
    json_t *keys = json_array();
    for (size_t i = 0; i < show; i++) {
        const accesslog_key *k = &h->v[i];
        json_t *e = json_object();
        json_object_set_new(e, "key", json_string(k->key));
        json_object_set_new(e, "requests", json_real(k->requests));
        json_object_set_new(e, "request_share", json_real(h->requests > 0 ? k->requests / h->requests : 0));
        json_object_set_new(e, "units", json_real(k->units));
        json_object_set_new(e, "unit_share", json_real(h->units > 0 ? k->units / h->units : 0));
        json_object_set_new(e, "read_units", json_real(k->read_units));
        json_object_set_new(e, "write_units", json_real(k->write_units));
        if (timed) {
            json_object_set_new(e, "read_util", json_real(k->read_units / seconds / CAP_PARTITION_RCU));
            json_object_set_new(e, "write_util", json_real(k->write_units / seconds / CAP_PARTITION_WCU));
            json_object_set_new(e, "hot", json_boolean(accesslog_key_hot(k, seconds)));
        }
        json_array_append_new(keys, e);
    }
    json_object_set_new(o, "keys", keys);
    char *text = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(o);
    if (!text) {
        kp_fail(err, KP_INVALID, "jansson cannot write the tally as JSON");
        return NULL;
    }
    char *out = xasprintf("%s\n", text);
    free(text);
    return out;
}

char *heatlog_text(const accesslog *h, const char *name, size_t top, double seconds)
{
    size_t show = top < h->n ? top : h->n;
    bool timed = !isnan(seconds);
    sbuf b;
    sbuf_init(&b);
    sbuf_printf(&b, "heat of %s: %.0f requests, %.1f units, %zu partition keys\n", name, h->requests,
                h->units, h->n);
    if (h->n && h->units > 0)
        sbuf_printf(&b, "hottest key %s: %.1f %% of the units, %.1f %% of the requests\n", h->v[0].key,
                    h->v[0].units / h->units * 100,
                    h->requests > 0 ? h->v[0].requests / h->requests * 100 : 0);
    if (show)
        sbuf_printf(&b, "\n%4s  %-32s %10s %7s %11s %7s%s\n", "rank", "partition key", "requests", "share",
                    "units", "share", timed ? "    read/s  read %   write/s  write %" : "");
    for (size_t i = 0; i < show; i++) {
        const accesslog_key *k = &h->v[i];
        int kw = disp_width(k->key);
        sbuf_printf(&b, "%4zu  %s%*s %10.0f %6.1f%% %11.1f %6.1f%%", i + 1, k->key, kw < 32 ? 32 - kw : 0, "",
                    k->requests, h->requests > 0 ? k->requests / h->requests * 100 : 0, k->units,
                    h->units > 0 ? k->units / h->units * 100 : 0);
        if (timed) {
            double r = k->read_units / seconds, w = k->write_units / seconds;
            sbuf_printf(&b, " %9.1f %6.1f%% %9.1f %7.1f%%%s", r, r / CAP_PARTITION_RCU * 100, w,
                        w / CAP_PARTITION_WCU * 100, accesslog_key_hot(k, seconds) ? "  HOT" : "");
        }
        sbuf_addc(&b, '\n');
    }
    if (accesslog_hot(h, seconds))
        sbuf_add(&b,
                 "\nhot: at least one key passes a partition's limit (3,000 read / 1,000 write units/s);\n"
                 "spread it with a key suffix, cache its reads, or aggregate its writes.\n");
    return sbuf_steal(&b);
}
