/* requests.c - the DynamoDB API requests of every pattern and the sample items, as JSON
 * (jansson); the items, the expressions and the anchors are model data (see requests.h). */
#include "requests.h"

#include "planeval.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- items as JSON ---------------------------------------------------------------------------- */

static json_t *value_json(const kp_value *v)
{
    if (v->type == KP_VAL_BOOL)
        return json_pack("{s:b}", "BOOL", strcmp(v->text, "true") == 0);
    return json_pack("{s:s}", kp_vtype_name(v->type), v->text);
}

json_t *items_json(const kp_item *it)
{
    json_t *o = json_object();
    for (size_t i = 0; i < it->n; i++)
        json_object_set_new(o, it->v[i].name, value_json(&it->v[i].v));
    return o;
}

void items_from_json(const json_t *j, kp_item *out)
{
    memset(out, 0, sizeof *out);
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)j, k, v)
    {
        json_t *x;
        if ((x = json_object_get(v, "S")) && json_is_string(x))
            item_set(out, k, KP_VAL_S, json_string_value(x));
        else if ((x = json_object_get(v, "N")) && json_is_string(x))
            item_set(out, k, KP_VAL_N, json_string_value(x));
        else if ((x = json_object_get(v, "BOOL")) && json_is_boolean(x))
            item_set(out, k, KP_VAL_BOOL, json_is_true(x) ? "true" : "false");
    }
}

static json_t *list_json(const kp_item_list *l)
{
    json_t *arr = json_array();
    for (size_t i = 0; i < l->n; i++)
        json_array_append_new(arr, items_json(&l->v[i]));
    return arr;
}

json_t *items_generate(const kp_design *d, const kp_entity *e, size_t n, unsigned seed)
{
    kp_item_list l = {0};
    item_generate(d, e, n, seed, &l);
    json_t *arr = list_json(&l);
    item_list_free(&l);
    return arr;
}

/* The document as indented JSON text with a final newline (caller frees), or NULL with *err
 * when jansson could not build it (doc NULL) or cannot write it. */
static char *dump_doc(json_t *doc, char **err)
{
    char *text = doc ? json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
    if (!text) {
        *err = xstrdup("jansson cannot write the document as JSON");
        return NULL;
    }
    char *out = xasprintf("%s\n", text);
    free(text);
    return out;
}

char *items_export(const kp_design *d, char **err)
{
    if (!d->table.name || !d->table.pk.s) {
        *err = xstrdup("the design has no table name or partition key");
        return NULL;
    }
    item_sample sample;
    item_sample_make(d, ITEM_DEFAULT_SEED, false, &sample);
    json_t *counts = json_object();
    json_t *batches = json_array();
    json_t *puts = NULL;
    for (size_t i = 0; i < d->nentities; i++) {
        const kp_item_list *items = &sample.lists[i];
        json_object_set_new(counts, d->entities[i].name, json_integer((json_int_t)items->n));
        for (size_t k = 0; k < items->n; k++) {
            if (!puts || json_array_size(puts) == 25) {
                puts = json_array();
                json_array_append_new(batches, json_pack("{s:{s:o}}", "RequestItems", d->table.name, puts));
            }
            json_array_append_new(puts,
                                  json_pack("{s:{s:o}}", "PutRequest", "Item", items_json(&items->v[k])));
        }
    }
    json_t *doc = json_pack("{s:s,s:s,s:i,s:o,s:o}", "table", d->table.name, "usage",
                            "each element of batches is one BatchWriteItem request (25 puts at most): "
                            "aws dynamodb batch-write-item --cli-input-json \"$(jq -c '.batches[N]' FILE)\"",
                            "seed", (int)ITEM_DEFAULT_SEED, "items", counts, "batches", batches);
    char *out = dump_doc(doc, err);
    json_decref(doc);
    item_sample_free(&sample);
    return out;
}

/* ---- names and values of expressions ------------------------------------------------------ */

/* Words the expression grammar reserves for itself: written as they are. */
static bool operator_word(const char *name)
{
    static const char *const ops[] = {"AND", "OR", "NOT", "BETWEEN", "IN"};
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        if (strcasecmp(name, ops[i]) == 0)
            return true;
    return false;
}

/* The writer of request expressions: every attribute name becomes a #placeholder of `names`
 * (except placeholders already, names starting with a digit and the grammar's own words);
 * value names found in `values` (old -> new) are renamed. */
typedef struct writer_ctx {
    json_t *names;
    const json_t *values; /* may be NULL */
} writer_ctx;

static void write_name(void *vctx, sbuf *out, const char *name)
{
    writer_ctx *c = vctx;
    if (name[0] == '#' || isdigit((unsigned char)name[0]) || operator_word(name)) {
        sbuf_add(out, name);
        return;
    }
    const char *key = NULL, *k;
    json_t *v;
    json_object_foreach(c->names, k, v) if (strcmp(json_string_value(v), name) == 0) key = k;
    if (key) {
        sbuf_add(out, key);
        return;
    }
    char *ph = xasprintf("#n%zu", json_object_size(c->names));
    json_object_set_new(c->names, ph, json_string(name));
    sbuf_add(out, ph);
    free(ph);
}

static void write_value(void *vctx, sbuf *out, const char *value)
{
    writer_ctx *c = vctx;
    const char *r = c->values ? json_string_value(json_object_get(c->values, value)) : NULL;
    sbuf_add(out, r ? r : value);
}

char *requests_expr_names(const char *expr, json_t *names)
{
    kp_expr e;
    expr_parse(expr, &e);
    writer_ctx c = {names, NULL};
    expr_writer w = {write_name, write_value, &c};
    char *out = expr_render(&e, &w);
    expr_free(&e);
    return out;
}

/* ---- request inputs ---------------------------------------------------------------------- */

void requests_filter_free(requests_filter *f)
{
    expr_free(&f->expr);
    item_free(&f->values);
    memset(f, 0, sizeof *f);
}

/* What one request is built from while it is built. */
typedef struct build {
    const kp_design *d;
    const kp_step *s;
    const kp_item *values; /* given value texts, may be NULL */
    const kp_item *sample;
    json_t *in;
    json_t *names; /* #placeholder -> attribute name */
    kp_item vals;  /* value name -> typed value, in the order DynamoDB gets them */
    bool has_kc, has_filter;
    expr_keycond kc;
    kp_expr filter;
} build;

static const char *keyval_template(const kp_step *s, const char *name)
{
    for (size_t i = 0; i < s->nvalues; i++)
        if (s->values[i].name && strcmp(s->values[i].name, name) == 0)
            return s->values[i].value;
    return NULL;
}

/* The rendered text of value `name`: from `values`, else the step's template over the sample. */
static char *value_text(const build *b, const char *name, char **err)
{
    const char *given = b->values ? item_text(b->values, name) : NULL;
    if (given)
        return xstrdup(given);
    const char *src = keyval_template(b->s, name);
    if (!src) {
        *err = xasprintf("the plan gives no value for %s", name);
        return NULL;
    }
    tpl t;
    char *perr = NULL;
    if (tpl_parse(src, &t, &perr, NULL) != KP_OK) {
        *err = xasprintf("value %s: cannot read template '%s': %s", name, src, perr);
        free(perr);
        return NULL;
    }
    char *out = b->sample ? item_render(b->d, &t, b->sample) : NULL;
    if (!out)
        out = tpl_render(&t, NULL, NULL); /* no sample: keep the placeholders visible */
    tpl_free(&t);
    return out;
}

/* The table key of an item: {"PK": {...}, "SK": {...}}. */
static json_t *item_key(const kp_design *d, const kp_item *item)
{
    json_t *k = json_object();
    const kp_value *pk = item_get(item, d->table.pk.s);
    if (pk)
        json_object_set_new(k, d->table.pk.s, value_json(pk));
    if (d->table.sk.s) {
        const kp_value *sk = item_get(item, d->table.sk.s);
        if (sk)
            json_object_set_new(k, d->table.sk.s, value_json(sk));
    }
    return k;
}

static void add_value_from_sample(build *b, const char *vname, const char *attr)
{
    const kp_value *v = b->sample ? item_get(b->sample, attr) : NULL;
    if (v)
        item_set_value(&b->vals, vname, v);
    else
        item_set(&b->vals, vname, item_key_type(b->d, attr), "example");
}

/* Query: the key condition and its typed values; the text is written at the end. */
static bool add_key_condition(build *b, char **err)
{
    if (expr_keycond_parse(b->s->key_condition, &b->kc, err) != KP_OK)
        return false;
    b->has_kc = true;
    char *pv = value_text(b, b->kc.pk_value, err);
    if (!pv)
        return false;
    item_set(&b->vals, b->kc.pk_value, item_key_type(b->d, b->kc.pk), pv);
    free(pv);
    for (int w = 0; b->kc.op != EXPR_SK_NONE && w < 2; w++) {
        const char *vn = w == 0 ? b->kc.sk_value : b->kc.sk_value2;
        if (!vn)
            continue;
        char *sv = value_text(b, vn, err);
        if (!sv)
            return false;
        item_set(&b->vals, vn, item_key_type(b->d, b->kc.sk), sv);
        free(sv);
    }
    json_object_set_new(b->in, "KeyConditionExpression", json_string(""));
    return true;
}

/* KP_VAL_N when a value template is one number or shard placeholder, else KP_VAL_S. */
static kp_vtype template_type(const kp_design *d, const char *src)
{
    tpl t;
    if (!src || tpl_parse(src, &t, NULL, NULL) != KP_OK)
        return KP_VAL_S;
    const kp_attr *a = t.n == 1 && t.parts[0].kind == TPL_ATTR ? design_attr(d, t.parts[0].text) : NULL;
    bool num = a && (a->type == KP_ATTR_NUMBER || a->type == KP_ATTR_SHARD);
    tpl_free(&t);
    return num ? KP_VAL_N : KP_VAL_S;
}

/* A value of the filter: from `values`, else the step's template rendered over the sample, else
 * (a value named after an attribute, ":total") the sample's value of that attribute. */
static void filter_value(void *vctx, const char *vn)
{
    build *b = vctx;
    const char *src = keyval_template(b->s, vn);
    if (item_get(&b->vals, vn)) {
        /* already set */
    } else if ((b->values && item_text(b->values, vn)) || src) {
        char *err = NULL;
        char *text = value_text(b, vn, &err);
        item_set(&b->vals, vn, template_type(b->d, src), text ? text : "");
        free(text);
        free(err);
    } else {
        char *attr = xstrdup(vn + 1);
        size_t n = strlen(attr);
        while (n > 0 && isdigit((unsigned char)attr[n - 1]))
            attr[--n] = '\0';
        add_value_from_sample(b, vn, attr);
        free(attr);
    }
}

/* FilterExpression: the step's filter and its values; the text is written at the end. */
static void add_filter(build *b, const char *filter)
{
    expr_parse(filter, &b->filter);
    b->has_filter = true;
    expr_each_value(&b->filter, filter_value, b);
    json_object_set_new(b->in, "FilterExpression", json_string(""));
}

/* Scan: a filter on the pattern's `by` attributes with the sample's values. */
static void add_by_filter(build *b, const kp_pattern *p)
{
    sbuf f;
    sbuf_init(&f);
    for (size_t i = 0; i < p->nby; i++) {
        char *vn = xasprintf(":by%zu", i);
        sbuf_printf(&f, "%s%s = %s", i ? " AND " : "", p->by[i].attr.s, vn);
        if (p->by[i].value) {
            const kp_attr *a = design_attr(b->d, p->by[i].attr.s);
            bool num = a && (a->type == KP_ATTR_NUMBER || a->type == KP_ATTR_SHARD);
            item_set(&b->vals, vn, num ? KP_VAL_N : KP_VAL_S, p->by[i].value);
        } else {
            add_value_from_sample(b, vn, p->by[i].attr.s);
        }
        free(vn);
    }
    if (f.len) {
        expr_parse(f.s, &b->filter);
        b->has_filter = true;
        json_object_set_new(b->in, "FilterExpression", json_string(""));
    }
    sbuf_free(&f);
}

/* DynamoDB wants value names of [A-Za-z0-9_]: ":línea" becomes ":v0". The renaming (old ->
 * new, a new JSON object) of the values in b->vals. */
static json_t *safe_value_names(const kp_item *vals)
{
    json_t *map = json_object();
    size_t n = 0;
    for (size_t i = 0; i < vals->n; i++) {
        const char *k = vals->v[i].name;
        bool ok = k[0] == ':' && k[1];
        for (const char *c = k + 1; *c && ok; c++)
            ok = isalnum((unsigned char)*c) || *c == '_';
        if (!ok) {
            char *nn;
            do
                nn = xasprintf(":v%zu", n++);
            while (item_get(vals, nn) && (free(nn), 1));
            json_object_set_new(map, k, json_string(nn));
            free(nn);
        }
    }
    return map;
}

/* ---- the steps of DynamoDB's rules: key updates, transactions ------------------------------- */

/* An update also rewrites the key attributes of the entity's indexes whose templates hold a
 * changed attribute (GSI1PK = ESTADO#{status} when status changes): SET from the sample (the item
 * after the update), REMOVE where the sample no longer has it (a sparse condition that stopped
 * holding). The table's own key is never among them: an update of it is a Delete + Put. */
static void add_key_updates(build *b, const kp_pattern *p, const kp_entity *e, sbuf *u)
{
    const kp_design *d = b->d;
    sbuf rm;
    sbuf_init(&rm);
    size_t n = 0;
    for (size_t k = 0; k < e->nkeys; k++) {
        const kp_keytpl *kt = &e->keys[k];
        const char *a = kt->attr.s;
        if (!a || strcmp(a, d->table.pk.s) == 0 || (d->table.sk.s && strcmp(a, d->table.sk.s) == 0))
            continue;
        bool touched = false, listed = false;
        for (size_t c = 0; c < p->nchanges; c++) {
            listed = listed || (p->changes[c].s && strcmp(p->changes[c].s, a) == 0);
            touched = touched || (p->changes[c].s && tpl_has_attr(&kt->tpl, p->changes[c].s));
        }
        if (!touched || listed)
            continue;
        char *nn = xasprintf("#k%zu", n), *vn = xasprintf(":k%zu", n);
        n++;
        json_object_set_new(b->names, nn, json_string(a));
        const kp_value *v = b->sample ? item_get(b->sample, a) : NULL;
        if (v) {
            sbuf_printf(u, "%s%s = %s", u->len ? ", " : "SET ", nn, vn);
            item_set_value(&b->vals, vn, v);
        } else {
            sbuf_printf(&rm, "%s%s", rm.len ? ", " : " REMOVE ", nn);
        }
        free(nn);
        free(vn);
    }
    if (rm.len)
        sbuf_add(u, rm.s);
    sbuf_free(&rm);
}

/* A key update's TransactItems: a Delete of the old item's key (samples[0]) and a Put of the new
 * item (samples[1]). */
static json_t *key_move_items(const kp_design *d, const char *table, const kp_item *const *samples, size_t n)
{
    json_t *ti = json_array();
    if (n >= 1)
        json_array_append_new(
            ti, json_pack("{s:{s:s,s:o}}", "Delete", "TableName", table, "Key", item_key(d, samples[0])));
    if (n >= 2)
        json_array_append_new(
            ti, json_pack("{s:{s:s,s:o}}", "Put", "TableName", table, "Item", items_json(samples[1])));
    return ti;
}

/* Writes the expressions' texts, the names and the values into the request. */
static void finish(build *b)
{
    json_t *map = safe_value_names(&b->vals);
    writer_ctx c = {b->names, map};
    expr_writer w = {write_name, write_value, &c};
    if (b->has_kc) {
        char *text = expr_keycond_render(&b->kc, &w);
        json_object_set_new(b->in, "KeyConditionExpression", json_string(text));
        free(text);
    }
    if (b->has_filter) {
        char *text = expr_render(&b->filter, &w);
        json_object_set_new(b->in, "FilterExpression", json_string(text));
        free(text);
    }
    if (json_object_size(b->names))
        json_object_set(b->in, "ExpressionAttributeNames", b->names);
    if (b->vals.n) {
        kp_item vals;
        item_copy(&vals, &b->vals);
        const char *k;
        json_t *v;
        json_object_foreach(map, k, v)
        {
            kp_value val = *item_get(&vals, k);
            val.text = xstrdup(val.text);
            item_del(&vals, k);
            item_set_value(&vals, json_string_value(v), &val);
            free(val.text);
        }
        json_object_set_new(b->in, "ExpressionAttributeValues", items_json(&vals));
        item_free(&vals);
    }
    json_decref(map);
}

json_t *requests_step_input(const kp_design *d, const kp_pattern_result *r, const kp_step *s,
                            const char *table, const kp_item *values, const kp_item *const *samples,
                            size_t nsamples, bool with_filter, requests_filter *filter, char **err)
{
    const kp_pattern *p = r->pattern;
    *err = NULL;
    if (filter)
        memset(filter, 0, sizeof *filter);
    build b = {.d = d, .s = s, .values = values, .sample = nsamples ? samples[0] : NULL};
    bool strong = p && (p->consistency == KP_STRONG || p->consistency == KP_TRANSACTIONAL) &&
                  (s->index < 0 || d->indexes[s->index].kind == KP_LSI);
    b.in = json_object();
    b.names = json_object();
    json_t *in = b.in;
    bool ok = true;
    switch (s->op) {
    case KP_OP_GETITEM: {
        expr_keycond kc;
        if (expr_keycond_parse(s->key_condition, &kc, err) != KP_OK) {
            ok = false;
            break;
        }
        json_t *key = json_object();
        char *pv = value_text(&b, kc.pk_value, err);
        char *sv = pv && kc.op == EXPR_SK_EQ ? value_text(&b, kc.sk_value, err) : NULL;
        if (!pv || (kc.op == EXPR_SK_EQ && !sv)) {
            ok = false;
        } else {
            json_object_set_new(key, kc.pk, json_pack("{s:s}", kp_vtype_name(item_key_type(d, kc.pk)), pv));
            if (sv)
                json_object_set_new(key, kc.sk,
                                    json_pack("{s:s}", kp_vtype_name(item_key_type(d, kc.sk)), sv));
        }
        free(pv);
        free(sv);
        expr_keycond_free(&kc);
        json_object_set_new(in, "TableName", json_string(table));
        json_object_set_new(in, "Key", key);
        if (strong)
            json_object_set_new(in, "ConsistentRead", json_true());
        break;
    }
    case KP_OP_QUERY:
        json_object_set_new(in, "TableName", json_string(table));
        if (s->index >= 0)
            json_object_set_new(in, "IndexName", json_string(d->indexes[s->index].name));
        ok = add_key_condition(&b, err);
        if (ok && with_filter && s->filter && *s->filter)
            add_filter(&b, s->filter);
        json_object_set_new(in, "ScanIndexForward", json_boolean(s->forward));
        if (isfinite(s->limit) && s->limit >= 1)
            json_object_set_new(in, "Limit", json_integer((json_int_t)s->limit));
        if (strong)
            json_object_set_new(in, "ConsistentRead", json_true());
        if (s->fetch) /* an LSI fetches what it does not project from the table */
            json_object_set_new(in, "Select", json_string("ALL_ATTRIBUTES"));
        break;
    case KP_OP_SCAN:
        json_object_set_new(in, "TableName", json_string(table));
        if (s->index >= 0)
            json_object_set_new(in, "IndexName", json_string(d->indexes[s->index].name));
        if (with_filter && s->filter && *s->filter)
            add_filter(&b, s->filter);
        else if (with_filter && p)
            add_by_filter(&b, p);
        if (isfinite(s->limit) && s->limit >= 1)
            json_object_set_new(in, "Limit", json_integer((json_int_t)s->limit));
        if (strong)
            json_object_set_new(in, "ConsistentRead", json_true());
        break;
    case KP_OP_BATCHGET: {
        json_t *keys = json_array();
        for (size_t i = 0; i < nsamples && i < 100; i++)
            json_array_append_new(keys, item_key(d, samples[i]));
        json_t *ri = json_object();
        json_t *t = json_pack("{s:o}", "Keys", keys);
        if (strong)
            json_object_set_new(t, "ConsistentRead", json_true());
        json_object_set_new(ri, table, t);
        json_object_set_new(in, "RequestItems", ri);
        break;
    }
    case KP_OP_PUTITEM:
        json_object_set_new(in, "TableName", json_string(table));
        json_object_set_new(in, "Item", b.sample ? items_json(b.sample) : json_object());
        break;
    case KP_OP_DELETEITEM:
        json_object_set_new(in, "TableName", json_string(table));
        json_object_set_new(in, "Key", b.sample ? item_key(d, b.sample) : json_object());
        break;
    case KP_OP_UPDATEITEM: {
        json_object_set_new(in, "TableName", json_string(table));
        json_object_set_new(in, "Key", b.sample ? item_key(d, b.sample) : json_object());
        sbuf u;
        sbuf_init(&u);
        if (p)
            for (size_t i = 0; i < p->nchanges; i++) {
                char *vn = xasprintf(":c%zu", i), *nn = xasprintf("#c%zu", i);
                sbuf_printf(&u, "%s%s = %s", i ? ", " : "SET ", nn, vn);
                json_object_set_new(b.names, nn, json_string(p->changes[i].s));
                add_value_from_sample(&b, vn, p->changes[i].s);
                free(vn);
                free(nn);
            }
        if (!u.len && b.sample) {
            /* no changes listed: touch one non-key attribute so the request is complete */
            for (size_t i = 0; i < b.sample->n; i++) {
                const char *k = b.sample->v[i].name;
                if (strcmp(k, d->table.pk.s) == 0 || (d->table.sk.s && strcmp(k, d->table.sk.s) == 0))
                    continue;
                sbuf_add(&u, "SET #c0 = :c0");
                json_object_set_new(b.names, "#c0", json_string(k));
                item_set_value(&b.vals, ":c0", &b.sample->v[i].v);
                break;
            }
        }
        if (p && s->entity)
            add_key_updates(&b, p, s->entity, &u);
        if (u.len)
            json_object_set_new(in, "UpdateExpression", json_string(u.s));
        sbuf_free(&u);
        break;
    }
    case KP_OP_TRANSACTWRITE: {
        json_t *ti = s->key_move ? key_move_items(d, table, samples, nsamples) : json_array();
        for (size_t i = 0; !s->key_move && i < nsamples && i < 100; i++)
            json_array_append_new(
                ti, json_pack("{s:{s:s,s:o}}", "Put", "TableName", table, "Item", items_json(samples[i])));
        json_object_set_new(in, "TransactItems", ti);
        break;
    }
    case KP_OP_TRANSACTGET: {
        json_t *ti = json_array();
        for (size_t i = 0; i < nsamples && i < 100; i++)
            json_array_append_new(
                ti, json_pack("{s:{s:s,s:o}}", "Get", "TableName", table, "Key", item_key(d, samples[i])));
        json_object_set_new(in, "TransactItems", ti);
        break;
    }
    case KP_OP_NONE:
    default:
        *err = xstrdup("the step has no DynamoDB operation");
        ok = false;
        break;
    }
    if (ok) {
        finish(&b);
        json_object_set_new(in, "ReturnConsumedCapacity", json_string("TOTAL"));
    }
    if (ok && filter && b.has_filter) {
        filter->present = true;
        filter->expr = b.filter;
        memset(&b.filter, 0, sizeof b.filter);
        item_copy(&filter->values, &b.vals);
    }
    json_decref(b.names);
    item_free(&b.vals);
    expr_keycond_free(&b.kc);
    expr_free(&b.filter);
    if (!ok) {
        json_decref(in);
        if (!*err)
            *err = xstrdup("cannot build the request");
        return NULL;
    }
    return in;
}

/* ---- requests export ---------------------------------------------------------------------- */

static bool dynamodb_plan(kp_plan p)
{
    return p == KP_PLAN_GET || p == KP_PLAN_QUERY || p == KP_PLAN_MULTI || p == KP_PLAN_SCAN ||
           p == KP_PLAN_WRITE || p == KP_PLAN_TRANSACT;
}

static const kp_item_list *entity_items(const kp_design *d, const item_sample *sample, const kp_entity *e)
{
    ptrdiff_t i = e ? design_entity_pos(d, e->name) : -1;
    return i < 0 ? NULL : &sample->lists[i];
}

/* For a BETWEEN key condition on the pattern's range attribute: the bounds rendered from the
 * lowest and the highest value of the items in the anchor's partition, so that the example
 * request returns several items (S values by value name). false otherwise. */
static bool range_values(const kp_design *d, const kp_pattern *p, const kp_step *s, const kp_item_list *items,
                         const kp_item *anchor, kp_item *out)
{
    expr_keycond kc;
    char *err = NULL;
    memset(out, 0, sizeof *out);
    if (s->op != KP_OP_QUERY || !p->range.s || expr_keycond_parse(s->key_condition, &kc, &err) != KP_OK) {
        free(err);
        return false;
    }
    bool any = false;
    const char *pv = item_text(anchor, kc.pk);
    const kp_value *lo = NULL, *hi = NULL;
    for (size_t i = 0; items && i < items->n; i++) {
        const kp_item *it = &items->v[i];
        const char *v = item_text(it, kc.pk);
        const kp_value *rv = item_get(it, p->range.s);
        if (!v || !pv || strcmp(v, pv) != 0 || !rv)
            continue;
        if (!lo || kp_value_cmp(rv, lo) < 0)
            lo = rv;
        if (!hi || kp_value_cmp(rv, hi) > 0)
            hi = rv;
    }
    if (kc.op == EXPR_SK_BETWEEN && lo && hi) {
        any = true;
        const char *names[2] = {kc.sk_value, kc.sk_value2};
        const kp_value *bounds[2] = {lo, hi};
        for (int b = 0; b < 2; b++) {
            kp_item copy;
            item_copy(&copy, anchor);
            item_set_value(&copy, p->range.s, bounds[b]);
            const char *src = keyval_template(s, names[b]);
            tpl t;
            if (src && tpl_parse(src, &t, NULL, NULL) == KP_OK) {
                char *text = item_render(d, &t, &copy);
                if (text)
                    item_set(out, names[b], KP_VAL_S, text);
                free(text);
                tpl_free(&t);
            }
            item_free(&copy);
        }
    }
    expr_keycond_free(&kc);
    return any;
}

static const char *cli_name(kp_op op)
{
    switch (op) {
    case KP_OP_GETITEM:
        return "get-item";
    case KP_OP_QUERY:
        return "query";
    case KP_OP_SCAN:
        return "scan";
    case KP_OP_BATCHGET:
        return "batch-get-item";
    case KP_OP_PUTITEM:
        return "put-item";
    case KP_OP_UPDATEITEM:
        return "update-item";
    case KP_OP_DELETEITEM:
        return "delete-item";
    case KP_OP_TRANSACTGET:
        return "transact-get-items";
    default:
        return "transact-write-items";
    }
}

char *requests_export(const kp_design *d, const kp_analysis *a, char **err)
{
    if (!d->table.name || !d->table.pk.s) {
        *err = xstrdup("the design has no table name or partition key");
        return NULL;
    }
    item_sample sample;
    item_sample_make(d, ITEM_DEFAULT_SEED, false, &sample);
    json_t *pats = json_array();
    for (size_t i = 0; a && i < a->npatterns; i++) {
        const kp_pattern_result *r = &a->patterns[i];
        if (!r->pattern || !dynamodb_plan(r->plan))
            continue;
        json_t *reqs = json_array();
        for (size_t k = 0; k < r->nsteps; k++) {
            const kp_step *s = &r->steps[k];
            if (s->op == KP_OP_NONE)
                continue;
            const kp_entity *e = s->entity;
            if (!e && r->pattern->nentities)
                e = design_entity(d, r->pattern->entities[0].s);
            const kp_item_list *items = entity_items(d, &sample, e);
            size_t nitems = items ? items->n : 0;
            const kp_item *samples[100];
            size_t ns = 0;
            kp_item changed = {0};
            bool has_changed = false;
            if (s->key_move || s->op == KP_OP_UPDATEITEM) {
                /* the item before (for the key) and after the update */
                if (nitems) {
                    item_apply_changes(d, e, r->pattern->changes, r->pattern->nchanges, items, &items->v[0],
                                       &changed);
                    has_changed = true;
                    if (s->key_move)
                        samples[ns++] = &items->v[0];
                    samples[ns++] = &changed;
                }
            } else if (s->op == KP_OP_TRANSACTGET) {
                for (size_t q = 0; q < r->pattern->nentities && ns < 100; q++) {
                    const kp_entity *qe = design_entity(d, r->pattern->entities[q].s);
                    const kp_item *an = planeval_anchor(d, r->pattern, -1, entity_items(d, &sample, qe));
                    if (an)
                        samples[ns++] = an;
                }
            } else if (s->op == KP_OP_TRANSACTWRITE) {
                for (size_t q = 0; q < r->pattern->nentities && ns < 100; q++) {
                    const kp_item_list *its =
                        entity_items(d, &sample, design_entity(d, r->pattern->entities[q].s));
                    if (its && its->n)
                        samples[ns++] = &its->v[0];
                }
            } else if (s->op == KP_OP_BATCHGET) {
                size_t want = isfinite(s->items) && s->items >= 1 ? (size_t)s->items : 3;
                for (size_t q = 0; q < nitems && ns < want && ns < 100; q++)
                    samples[ns++] = &items->v[q];
            } else {
                const kp_item *anchor =
                    s->op == KP_OP_PUTITEM || s->op == KP_OP_UPDATEITEM || s->op == KP_OP_DELETEITEM
                        ? (nitems ? &items->v[0] : NULL)
                        : planeval_anchor(d, r->pattern, s->index, items);
                if (!anchor && nitems)
                    anchor = &items->v[0];
                if (anchor)
                    samples[ns++] = anchor;
            }
            char *e2 = NULL;
            kp_item given;
            bool has_given = ns && range_values(d, r->pattern, s, items, samples[0], &given);
            json_t *in = requests_step_input(d, r, s, d->table.name, has_given ? &given : NULL, samples, ns,
                                             true, NULL, &e2);
            if (has_given)
                item_free(&given);
            if (has_changed)
                item_free(&changed);
            if (!in) {
                json_array_append_new(reqs,
                                      json_pack("{s:s,s:s}", "operation", kp_op_name(s->op), "error", e2));
                free(e2);
                continue;
            }
            json_t *rq = json_pack("{s:s,s:s}", "operation", kp_op_name(s->op), "cli", cli_name(s->op));
            if (isfinite(s->count) && s->count > 1)
                json_object_set_new(rq, "count", json_real(s->count));
            json_object_set_new(rq, "input", in);
            json_array_append_new(reqs, rq);
        }
        json_t *pj = json_pack("{s:s,s:s,s:s,s:o}", "id", r->pattern->id ? r->pattern->id : "", "name",
                               r->pattern->name ? r->pattern->name : "", "plan", kp_plan_word(r->plan),
                               "requests", reqs);
        json_array_append_new(pats, pj);
    }
    json_t *doc =
        json_pack("{s:s,s:s,s:o}", "table", d->table.name, "usage",
                  "aws dynamodb <cli> --cli-input-json \"$(jq -c '.patterns[P].requests[R].input' FILE)\"; "
                  "example values come from the sample items of --format items",
                  "patterns", pats);
    char *out = dump_doc(doc, err);
    json_decref(doc);
    item_sample_free(&sample);
    return out;
}
