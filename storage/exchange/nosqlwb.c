/* nosqlwb.c - NoSQL Workbench models: import (with key-template inference) and export. */
#include "nosqlwb.h"

#include "i18n.h"
#include "cfn.h"
#include "display.h"
#include "infer.h"
#include "namemap.h"
#include "requests.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const kp_loc NOLOC = {0, 0};

/* ==== small helpers ========================================================================= */

#define PUSH(arr, n) \
    (arr = xrealloc(arr, ((n) + 1) * sizeof *(arr)), memset(&(arr)[n], 0, sizeof *(arr)), &(arr)[(n)++])

static bool streq(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

/* The scalar text of an attribute value: typed {"S": ...}, {"N": ...}, {"B": ...}, or raw
 * JSON string/number/bool. NULL for maps, lists, sets and absent values. Caller frees. */
static char *av_text(json_t *v)
{
    if (!v)
        return NULL;
    if (json_is_string(v))
        return xstrdup(json_string_value(v));
    if (json_is_integer(v))
        return xasprintf("%lld", (long long)json_integer_value(v));
    if (json_is_real(v))
        return xasprintf("%.15g", json_real_value(v));
    if (json_is_object(v) && json_object_size(v) == 1) {
        json_t *x;
        if ((x = json_object_get(v, "S")) || (x = json_object_get(v, "N")) || (x = json_object_get(v, "B")))
            return av_text(x);
    }
    return NULL;
}

static bool typed_value(json_t *v)
{
    static const char *const types[] = {"S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS"};
    if (!json_is_object(v) || json_object_size(v) != 1)
        return false;
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (json_object_get(v, types[i]))
            return true;
    return false;
}

/* Approximate DynamoDB storage bytes of a value (AWS developer guide, item sizes). Raw JSON
 * (not a typed value) counts as its compact text. */
static double av_size(json_t *v)
{
    if (!typed_value(v)) {
        char *t = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
        double n = t ? (double)strlen(t) : 1;
        free(t);
        return n;
    }
    const char *type = json_object_iter_key(json_object_iter(v));
    json_t *x = json_object_iter_value(json_object_iter(v));
    if (!strcmp(type, "S") || !strcmp(type, "B"))
        return json_is_string(x) ? (double)strlen(json_string_value(x)) : 1;
    if (!strcmp(type, "N")) {
        char *t = av_text(x);
        double n = t ? ceil(strlen(t) / 2.0) + 1 : 1;
        free(t);
        return n;
    }
    if (!strcmp(type, "BOOL") || !strcmp(type, "NULL"))
        return 1;
    double n = 3;
    if (!strcmp(type, "M") && json_is_object(x)) {
        const char *k;
        json_t *y;
        json_object_foreach(x, k, y) n += (double)strlen(k) + av_size(y);
    } else if (json_is_array(x)) {
        size_t i;
        json_t *y;
        json_array_foreach(x, i, y) n +=
            1 + (json_is_string(y) ? (double)strlen(json_string_value(y)) : av_size(y));
    } else
        n += av_size(x);
    return n;
}

static double row_size(json_t *row)
{
    double n = 0;
    const char *k;
    json_t *v;
    json_object_foreach(row, k, v) n += (double)strlen(k) + av_size(v);
    return n;
}

/* ==== import ================================================================================= */

/* What the reader needs while it walks the model. */
typedef struct imp {
    kp_diags *diags;
    kp_design *d;
} imp;

/* A warning about a guess, with no place in the source. */
#define warn(m, ...) diags_warn((m)->diags, KP_INVALID, NOLOC, __VA_ARGS__)

static void push_str(kp_str **v, size_t *n, const char *s)
{
    for (size_t i = 0; i < *n; i++)
        if (streq((*v)[i].s, s))
            return;
    *PUSH(*v, *n) = str_make(s, NOLOC);
}

static bool shape_err(imp *m, const char *path, const char *what)
{
    diags_add(m->diags, KP_TYPE, NOLOC, _("%s: expected %s"), path, what);
    return false;
}

static const char *get_string(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

/* The first string of v (a key or a value, at any depth) holding a control character or longer
 * than a design's value may be, reported with its place (e.g.
 * "DataModel[0].TableFacets[2].FacetName"): the design file refuses them, so a design imported
 * with one would save and never load again. Newlines and tabs are allowed. */
static bool strings_ok(imp *m, json_t *v, sbuf *path)
{
    size_t at = path->len;
    bool ok = true;
    if (json_is_string(v)) {
        if (json_string_length(v) > KP_MAX_VALUE) { /* as the design file refuses it */
            diags_add(m->diags, KP_RANGE, NOLOC, _("%s: a text of %zu bytes; expected at most %d (64 KiB)"),
                      path->len ? path->s : _("the top level"), json_string_length(v), KP_MAX_VALUE);
            return false;
        }
        ptrdiff_t ctl = util_control_at(json_string_value(v), true);
        if (ctl < 0)
            return true;
        unsigned char ch = (unsigned char)json_string_value(v)[ctl];
        diags_add(m->diags, KP_ENCODING, NOLOC,
                  _("%s: a control character (%s%02x) at byte %td; expected printable text (newlines and "
                    "tabs are the only controls allowed)"),
                  path->len ? path->s : _("the top level"), ch == 0xc2 ? "U+00" : "0x",
                  ch == 0xc2 ? (unsigned char)json_string_value(v)[ctl + 1] : ch, ctl + 1);
        return false;
    }
    if (json_is_array(v)) {
        size_t i;
        json_t *x;
        json_array_foreach(v, i, x)
        {
            sbuf_printf(path, "[%zu]", i);
            ok = strings_ok(m, x, path);
            path->len = at;
            path->s[at] = '\0';
            if (!ok)
                return false;
        }
    } else if (json_is_object(v)) {
        const char *k;
        json_t *x;
        json_object_foreach(v, k, x)
        {
            char *ek = util_escape_controls(k);
            sbuf_printf(path, "%s%s", at ? "." : "", ek);
            free(ek);
            ptrdiff_t ctl = util_control_at(k, false);
            if (ctl >= 0) {
                diags_add(m->diags, KP_ENCODING, NOLOC,
                          _("%s: a control character at byte %td of the name; expected printable text"),
                          path->s, ctl + 1);
                ok = false;
            } else {
                ok = strings_ok(m, x, path);
            }
            path->len = at;
            path->s[at] = '\0';
            if (!ok)
                return false;
        }
    }
    return true;
}

/* KeyAttributes -> pk (required), sk (optional) */
static bool read_keys(imp *m, json_t *ka, const char *path, const char **pk, const char **sk)
{
    char *p = xasprintf("%s.KeyAttributes", path);
    bool ok = true;
    if (!json_is_object(ka))
        ok = shape_err(m, p, _("an object with PartitionKey and SortKey"));
    else {
        *pk = get_string(json_object_get(ka, "PartitionKey"), "AttributeName");
        json_t *s = json_object_get(ka, "SortKey");
        *sk = s ? get_string(s, "AttributeName") : NULL;
        if (!*pk || !**pk)
            ok = shape_err(m, p, _("PartitionKey.AttributeName: the partition key's attribute name"));
        else if (s && !json_is_null(s) && (!*sk || !**sk) && json_object_size(s))
            ok = shape_err(m, p, _("SortKey.AttributeName: the sort key's attribute name"));
    }
    free(p);
    return ok;
}

static bool read_indexes(imp *m, json_t *t, const char *tpath, const char *field, kp_index_kind kind)
{
    json_t *arr = json_object_get(t, field);
    if (!arr || json_is_null(arr))
        return true;
    char *path = xasprintf("%s.%s", tpath, field);
    bool ok = true;
    if (!json_is_array(arr)) {
        ok = shape_err(m, path, _("a list of indexes"));
        free(path);
        return ok;
    }
    size_t i;
    json_t *g;
    json_array_foreach(arr, i, g)
    {
        char *ip = xasprintf("%s[%zu]", path, i);
        const char *name = get_string(g, "IndexName");
        const char *pk = NULL, *sk = NULL;
        if (!json_is_object(g) || !name || !*name) {
            ok = shape_err(m, ip, _("an index with IndexName and KeyAttributes"));
            free(ip);
            continue;
        }
        if (!read_keys(m, json_object_get(g, "KeyAttributes"), ip, &pk, &sk)) {
            ok = false;
            free(ip);
            continue;
        }
        kp_index *x = PUSH(m->d->indexes, m->d->nindexes);
        index_init(x);
        x->name = xstrdup(name);
        x->kind = kind;
        x->pk = str_make(pk, NOLOC);
        x->sk = sk && *sk ? str_make(sk, NOLOC) : (kp_str){0};
        json_t *pr = json_object_get(g, "Projection");
        const char *pt = pr ? get_string(pr, "ProjectionType") : NULL;
        if (!pt || !strcmp(pt, "ALL"))
            x->projection = KP_PROJ_ALL;
        else if (!strcmp(pt, "KEYS_ONLY"))
            x->projection = KP_PROJ_KEYS;
        else if (!strcmp(pt, "INCLUDE")) {
            x->projection = KP_PROJ_INCLUDE;
            json_t *nk = json_object_get(pr, "NonKeyAttributes");
            size_t q;
            json_t *a;
            json_array_foreach(nk, q, a) if (json_is_string(a))
                push_str(&x->include, &x->ninclude, json_string_value(a));
        } else {
            char *pp = xasprintf("%s.Projection.ProjectionType", ip);
            ok = shape_err(m, pp, _("ALL, KEYS_ONLY or INCLUDE"));
            free(pp);
        }
        free(ip);
    }
    free(path);
    return ok;
}

/* The sample item `row` as the inference reads it: each attribute's scalar text, its size. */
static void row_read(infer_row *r, json_t *row)
{
    const char *k;
    json_t *v;
    json_object_foreach(row, k, v)
    {
        char *t = av_text(v);
        infer_row_set(r, k, t);
        free(t);
    }
    r->size = row_size(row);
}

/* The items of `arr` (JSON path `path`) that have a partition key: appended to *rows. */
static bool read_rows(imp *m, json_t *arr, const char *path, json_t ***rows, size_t *n)
{
    if (!arr || json_is_null(arr))
        return true;
    if (!json_is_array(arr))
        return shape_err(m, path, _("a list of items"));
    size_t i;
    json_t *row;
    bool ok = true;
    json_array_foreach(arr, i, row)
    {
        if (!json_is_object(row)) {
            char *p = xasprintf("%s[%zu]", path, i);
            ok = shape_err(m, p, _("an item (an object of attribute values)"));
            free(p);
            continue;
        }
        const char *pkname = m->d->table.pk.s;
        char *pk = av_text(json_object_get(row, pkname));
        if (!pk) {
            warn(m, _("%s[%zu]: no value for the partition key %s; the row is ignored"), path, i, pkname);
            continue;
        }
        free(pk);
        *PUSH(*rows, *n) = row;
    }
    return ok;
}

kp_design *nosqlwb_import(const char *text, size_t len, const char *name, kp_diags *diags)
{
    return nosqlwb_import_table(text, len, name, NULL, diags);
}

kp_design *nosqlwb_import_table(const char *text, size_t len, const char *name, const char *table,
                                kp_diags *diags)
{
    json_error_t je;
    json_t *root = json_loadb(text, len, 0, &je);
    if (!root) {
        diags_add(diags, KP_SYNTAX, (kp_loc){je.line, je.column},
                  _("invalid JSON: %s; expected a NoSQL Workbench model"), je.text);
        return NULL;
    }
    imp m = {.diags = diags, .d = design_new()};
    infer inf;
    memset(&inf, 0, sizeof inf);
    sbuf path;
    sbuf_init(&path);
    sbuf_add(&path, "");
    bool ok = strings_ok(&m, root, &path);
    sbuf_free(&path);
    if (!ok)
        goto out;
    json_t *dm = json_is_object(root) ? json_object_get(root, "DataModel") : NULL;
    size_t ti = 0;
    if (table && json_is_array(dm)) {
        for (ti = 0; ti < json_array_size(dm); ti++)
            if (streq(get_string(json_array_get(dm, ti), "TableName"), table))
                break;
    } else if (table && !streq(get_string(dm, "TableName"), table))
        ti = 1;
    if (table && ti >= (json_is_array(dm) ? json_array_size(dm) : 1)) {
        sbuf b;
        sbuf_init(&b);
        sbuf_add(&b, "");
        size_t n = json_is_array(dm) ? json_array_size(dm) : json_is_object(dm) ? 1 : 0;
        for (size_t i = 0; i < n; i++) {
            const char *tn = get_string(json_is_array(dm) ? json_array_get(dm, i) : dm, "TableName");
            sbuf_printf(&b, "%s'%s'", i ? ", " : "", tn ? tn : "?");
        }
        diags_add(diags, KP_NOTFOUND, NOLOC, _("DataModel: no table '%s'; expected one of %s"), table,
                  n ? b.s : _("(none: the model has no tables)"));
        sbuf_free(&b);
        ok = false;
        goto out;
    }
    json_t *t = json_is_array(dm) ? json_array_get(dm, ti) : dm;
    if (!json_is_object(t)) {
        ok = shape_err(&m, json_is_object(root) ? "DataModel" : _("the top level"),
                       json_is_object(root)
                           ? _("a list with at least one table")
                           : _("an object with ModelName and DataModel (a NoSQL Workbench model)"));
        goto out;
    }
    if (!table && json_is_array(dm) && json_array_size(dm) > 1) {
        sbuf b;
        sbuf_init(&b);
        for (size_t i = 1; i < json_array_size(dm); i++) {
            const char *tn = get_string(json_array_get(dm, i), "TableName");
            sbuf_printf(&b, "%s'%s'", i > 1 ? ", " : "", tn ? tn : "?");
        }
        warn(&m,
             _("the model has %zu tables; imported the first ('%s'), not %s (choose one with "
               "--table NAME)"),
             json_array_size(dm), get_string(t, "TableName") ? get_string(t, "TableName") : "?", b.s);
        sbuf_free(&b);
    }
    char tpath[48];
    if (json_is_array(dm))
        snprintf(tpath, sizeof tpath, "DataModel[%zu]", ti);
    else
        snprintf(tpath, sizeof tpath, "DataModel");
    const char *tname = get_string(t, "TableName");
    const char *pk = NULL, *sk = NULL;
    if (!tname || !*tname) {
        char *p = xasprintf("%s.TableName", tpath);
        ok = shape_err(&m, p, _("the table's name"));
        free(p);
        goto out;
    }
    if (!read_keys(&m, json_object_get(t, "KeyAttributes"), tpath, &pk, &sk)) {
        ok = false;
        goto out;
    }
    const char *model = get_string(root, "ModelName");
    m.d->name = xstrdup(model && *model ? model : tname);
    m.d->table.name = xstrdup(tname);
    m.d->table.pk = str_make(pk, NOLOC);
    if (sk && *sk)
        m.d->table.sk = str_make(sk, NOLOC);
    const char *bm = get_string(t, "BillingMode");
    if (bm && !strcmp(bm, "PROVISIONED")) {
        m.d->table.billing = KP_BILLING_PROVISIONED;
        json_t *tv =
            json_object_get(json_object_get(json_object_get(json_object_get(t, "ProvisionedCapacitySettings"),
                                                            "AutoScalingRead"),
                                            "ScalingPolicyConfiguration"),
                            "TargetValue");
        if (json_is_number(tv) && json_number_value(tv) > 0 && json_number_value(tv) <= 100 &&
            json_number_value(tv) != 70)
            m.d->table.target_utilization = json_number_value(tv) / 100.0;
    }
    ok = read_indexes(&m, t, tpath, "GlobalSecondaryIndexes", KP_GSI) && ok;
    ok = read_indexes(&m, t, tpath, "LocalSecondaryIndexes", KP_LSI) && ok;
    if (!ok)
        goto out;

    infer_init(&inf, m.d, diags);
    json_t *facets = json_object_get(t, "TableFacets");
    if (facets && !json_is_array(facets)) {
        char *p = xasprintf("%s.TableFacets", tpath);
        ok = shape_err(&m, p, _("a list of facets"));
        free(p);
        goto out;
    }
    if (json_array_size(facets)) {
        size_t i;
        json_t *f;
        json_array_foreach(facets, i, f)
        {
            char *fp = xasprintf("%s.TableFacets[%zu]", tpath, i);
            const char *fname = get_string(f, "FacetName");
            if (!json_is_object(f) || !fname || !*fname) {
                ok = shape_err(&m, fp, _("a facet with FacetName"));
                free(fp);
                continue;
            }
            infer_group *g = infer_add_group(&inf, fname);
            for (size_t q = 0; q + 1 < inf.ngroups; q++)
                if (streq(inf.groups[q].name, fname)) {
                    free(g->name);
                    g->name = xasprintf("%s%zu", fname, inf.ngroups);
                    warn(&m, _("%s: facet name '%s' repeats; imported as '%s'"), fp, fname, g->name);
                    break;
                }
            json_t *al = json_object_get(f, "KeyAttributeAlias");
            g->alias[0] = xstrdup(get_string(al, "PartitionKeyAlias"));
            g->alias[1] = xstrdup(get_string(al, "SortKeyAlias"));
            json_t *nk = json_object_get(f, "NonKeyAttributes");
            if (json_is_array(nk)) {
                g->declared = true;
                size_t q;
                json_t *a;
                json_array_foreach(nk, q, a)
                {
                    const char *s = json_is_string(a) ? json_string_value(a) : get_string(a, "AttributeName");
                    if (s)
                        *PUSH(g->nonkey, g->nnonkey) = xstrdup(s);
                }
            }
            char *rp = xasprintf("%s.TableData", fp);
            json_t **rows = NULL;
            size_t nrows = 0;
            ok = read_rows(&m, json_object_get(f, "TableData"), rp, &rows, &nrows) && ok;
            for (size_t r = 0; r < nrows; r++)
                row_read(infer_add_row(g), rows[r]);
            free(rows);
            free(rp);
            free(fp);
        }
    } else {
        json_t **rows = NULL;
        size_t nrows = 0;
        char *rp = xasprintf("%s.TableData", tpath);
        ok = read_rows(&m, json_object_get(t, "TableData"), rp, &rows, &nrows) && ok;
        free(rp);
        infer_row *ir = xcalloc(nrows ? nrows : 1, sizeof *ir);
        for (size_t i = 0; i < nrows; i++)
            row_read(&ir[i], rows[i]);
        free(rows);
        infer_group_rows(&inf, ir, nrows);
        if (!nrows)
            warn(&m, _("the model has no facets and no sample data: no entities imported; add them "
                       "with their key templates"));
    }
    if (!ok)
        goto out;
    infer_build(&inf);
    char *where = util_escape_controls(name ? name : "model"); /* a file's name may hold anything */
    /* the model's name quoted short: the description must stay under a design value's limit */
    char *quoted = disp_short(m.d->name, 200);
    m.d->description =
        xasprintf(_("Imported from the NoSQL Workbench model '%s' (%s). Key templates are inferred from the "
                    "sample data; counts assume %.0f items split as the sample rows are, sizes are the "
                    "sample rows' average, distinct values scale the samples': all of it is a starting "
                    "point. Add the access patterns, and say whether streams and PITR are on."),
                  quoted, where, NOSQLWB_NOMINAL_ITEMS);
    free(quoted);
    free(where);

out:
    infer_free(&inf);
    json_decref(root);
    if (!ok) {
        design_free(m.d);
        return NULL;
    }
    return m.d;
}

/* ==== export ================================================================================= */

static json_t *key_attr_json(const kp_design *d, const char *name)
{
    return json_pack("{s:s, s:s}", "AttributeName", name, "AttributeType", cfn_key_type(d, name));
}

static json_t *key_attrs_json(const kp_design *d, const char *pk, const char *sk)
{
    json_t *o = json_object();
    json_object_set_new(o, "PartitionKey", key_attr_json(d, pk));
    if (sk)
        json_object_set_new(o, "SortKey", key_attr_json(d, sk));
    return o;
}

static void add_name(json_t *arr, const char *name)
{
    size_t i;
    json_t *v;
    json_array_foreach(arr, i, v) if (streq(json_string_value(v), name)) return;
    json_array_append_new(arr, json_string(name));
}

/* add_name for a long list: `seen` holds the names added (borrowed from the design). */
static void add_name_once(json_t *arr, namemap *seen, const char *name)
{
    if (name && namemap_put(seen, name, 0))
        json_array_append_new(arr, json_string(name));
}

static bool is_key_of(const kp_design *d, const char *a)
{
    return streq(d->table.pk.s, a) || streq(d->table.sk.s, a);
}

char *nosqlwb_export(const kp_design *d, const kp_analysis *a, char **err)
{
    if (!d->table.pk.s || !*d->table.pk.s) {
        *err = xstrdup(_("the design has no table partition key; a NoSQL Workbench model needs one"));
        return NULL;
    }
    const char *tname = d->table.name && *d->table.name ? d->table.name : (d->name ? d->name : "Table");
    char when[64];
    /* SOURCE_DATE_EPOCH, when set, makes the output reproducible */
    const char *sde = getenv("SOURCE_DATE_EPOCH");
    char *end = NULL;
    long long epoch = sde ? strtoll(sde, &end, 10) : 0;
    time_t now = sde && end && *end == '\0' && epoch >= 0 ? (time_t)epoch : time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(when, sizeof when, "%b %d, %Y, %I:%M %p", &tm);

    json_t *root = json_object();
    json_object_set_new(root, "ModelName", json_string(d->name ? d->name : tname));
    json_object_set_new(root, "ModelMetadata",
                        json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "Author", "keyplan", "DateCreated", when,
                                  "DateLastModified", when, "Description",
                                  d->description ? d->description : "", "AWSService", "Amazon DynamoDB",
                                  "Version", "3.0"));
    json_t *t = json_object();
    json_object_set_new(t, "TableName", json_string(tname));
    json_object_set_new(t, "KeyAttributes", key_attrs_json(d, d->table.pk.s, d->table.sk.s));

    /* every non-key attribute any entity carries: index keys first, then domain attributes */
    json_t *names = json_array();
    namemap seen = {0};
    for (size_t i = 0; i < d->nindexes; i++) {
        if (!is_key_of(d, d->indexes[i].pk.s))
            add_name_once(names, &seen, d->indexes[i].pk.s);
        if (d->indexes[i].sk.s && !is_key_of(d, d->indexes[i].sk.s))
            add_name_once(names, &seen, d->indexes[i].sk.s);
    }
    for (size_t e = 0; e < d->nentities; e++) {
        for (size_t k = 0; k < d->entities[e].nkeys; k++)
            if (!is_key_of(d, d->entities[e].keys[k].attr.s))
                add_name_once(names, &seen, d->entities[e].keys[k].attr.s);
        for (size_t k = 0; k < d->entities[e].nattrs; k++)
            if (!is_key_of(d, d->entities[e].attrs[k].s))
                add_name_once(names, &seen, d->entities[e].attrs[k].s);
    }
    namemap_free(&seen);
    namemap declared = {0}; /* design_attr without its walk */
    for (size_t k = 0; k < d->nattrs; k++)
        namemap_put(&declared, d->attrs[k].name, k);
    json_t *nka = json_array();
    size_t i;
    json_t *nv;
    json_array_foreach(names, i, nv)
    {
        const char *n = json_string_value(nv);
        size_t at;
        const kp_attr *da = namemap_get(&declared, n, &at) ? &d->attrs[at] : NULL;
        bool is_index_key = false;
        for (size_t x = 0; x < d->nindexes; x++)
            is_index_key = is_index_key || streq(d->indexes[x].pk.s, n) || streq(d->indexes[x].sk.s, n);
        const char *type = is_index_key                       ? cfn_key_type(d, n)
                           : da && da->type == KP_ATTR_NUMBER ? "N"
                           : da && da->type == KP_ATTR_BOOL   ? "BOOL"
                                                              : "S";
        json_array_append_new(nka, json_pack("{s:s, s:s}", "AttributeName", n, "AttributeType", type));
    }
    namemap_free(&declared);
    json_object_set_new(t, "NonKeyAttributes", nka);

    json_t *facets = json_array();
    item_gen *gen = item_gen_new(d);
    for (size_t e = 0; e < d->nentities; e++) {
        const kp_entity *en = &d->entities[e];
        json_t *f = json_object();
        json_object_set_new(f, "FacetName", json_string(en->name));
        const kp_keytpl *pk = entity_key(en, d->table.pk.s);
        const kp_keytpl *sk = d->table.sk.s ? entity_key(en, d->table.sk.s) : NULL;
        json_t *alias = json_object();
        json_object_set_new(alias, "PartitionKeyAlias", json_string(pk ? pk->tpl.src : d->table.pk.s));
        if (d->table.sk.s)
            json_object_set_new(alias, "SortKeyAlias", json_string(sk ? sk->tpl.src : d->table.sk.s));
        json_object_set_new(f, "KeyAttributeAlias", alias);
        json_object_set_new(f, "TableData", items_generate(gen, en, 3, (unsigned)(e + 1)));
        json_t *fn = json_array();
        for (size_t k = 0; k < en->nkeys; k++)
            if (!is_key_of(d, en->keys[k].attr.s))
                add_name(fn, en->keys[k].attr.s);
        for (size_t k = 0; k < en->nattrs; k++)
            if (!is_key_of(d, en->attrs[k].s))
                add_name(fn, en->attrs[k].s);
        json_object_set_new(f, "NonKeyAttributes", fn);
        json_object_set_new(f, "DataAccess", json_pack("{s:{}}", "MySql"));
        json_array_append_new(facets, f);
    }
    item_gen_free(gen);
    json_object_set_new(t, "TableFacets", facets);

    bool prov = d->table.billing == KP_BILLING_PROVISIONED;
    for (int pass = 0; pass < 2; pass++) {
        kp_index_kind kind = pass == 0 ? KP_GSI : KP_LSI;
        json_t *arr = json_array();
        for (size_t x = 0; x < d->nindexes; x++) {
            const kp_index *ix = &d->indexes[x];
            if (ix->kind != kind)
                continue;
            json_t *g = json_object();
            json_object_set_new(g, "IndexName", json_string(ix->name));
            json_object_set_new(g, "KeyAttributes", key_attrs_json(d, ix->pk.s, ix->sk.s));
            json_t *pr = json_object();
            json_object_set_new(pr, "ProjectionType",
                                json_string(ix->projection == KP_PROJ_KEYS      ? "KEYS_ONLY"
                                            : ix->projection == KP_PROJ_INCLUDE ? "INCLUDE"
                                                                                : "ALL"));
            if (ix->projection == KP_PROJ_INCLUDE) {
                json_t *inc = json_array();
                for (size_t q = 0; q < ix->ninclude; q++)
                    json_array_append_new(inc, json_string(ix->include[q].s));
                json_object_set_new(pr, "NonKeyAttributes", inc);
            }
            json_object_set_new(g, "Projection", pr);
            if (prov && kind == KP_GSI) {
                long r, w;
                cfn_capacity(d, a, (ptrdiff_t)x, &r, &w);
                json_object_set_new(g, "ProvisionedThroughput",
                                    json_pack("{s:I, s:I}", "ReadCapacityUnits", (json_int_t)r,
                                              "WriteCapacityUnits", (json_int_t)w));
            }
            json_array_append_new(arr, g);
        }
        if (json_array_size(arr))
            json_object_set_new(t, kind == KP_GSI ? "GlobalSecondaryIndexes" : "LocalSecondaryIndexes", arr);
        else
            json_decref(arr);
    }
    json_object_set_new(t, "TableData", json_array());
    json_object_set_new(t, "DataAccess", json_pack("{s:{}}", "MySql"));
    json_object_set_new(t, "BillingMode", json_string(prov ? "PROVISIONED" : "PAY_PER_REQUEST"));
    if (prov) {
        long r, w;
        cfn_capacity(d, a, -1, &r, &w);
        double target = d->table.target_utilization > 0 ? d->table.target_utilization : 0.7;
        json_t *scale = json_pack("{s:{s:I, s:I, s:s}, s:{s:f}}", "ScalableTargetRequest", "MinCapacity",
                                  (json_int_t)1, "MaxCapacity", (json_int_t)(r > 10 ? r * 2 : 10),
                                  "ServiceRole", "AWSServiceRoleForApplicationAutoScaling_DynamoDBTable",
                                  "ScalingPolicyConfiguration", "TargetValue", round(target * 100));
        json_t *scalew = json_pack("{s:{s:I, s:I, s:s}, s:{s:f}}", "ScalableTargetRequest", "MinCapacity",
                                   (json_int_t)1, "MaxCapacity", (json_int_t)(w > 10 ? w * 2 : 10),
                                   "ServiceRole", "AWSServiceRoleForApplicationAutoScaling_DynamoDBTable",
                                   "ScalingPolicyConfiguration", "TargetValue", round(target * 100));
        json_object_set_new(t, "ProvisionedCapacitySettings",
                            json_pack("{s:{s:I, s:I}, s:o, s:o}", "ProvisionedThroughput",
                                      "ReadCapacityUnits", (json_int_t)r, "WriteCapacityUnits", (json_int_t)w,
                                      "AutoScalingRead", scale, "AutoScalingWrite", scalew));
    }
    json_object_set_new(root, "DataModel", json_pack("[o]", t));
    json_decref(names);
    char *out = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(root);
    if (!out) {
        *err = xstrdup(_("cannot encode the model as JSON"));
        return NULL;
    }
    char *res = xasprintf("%s\n", out);
    free(out);
    return res;
}
