/* requests.c - the DynamoDB API requests of every pattern and the sample items, as JSON
 * (jansson); the items, the expressions and the anchors are model data (see requests.h). */
#include "requests.h"

#include "capacity.h"
#include "i18n.h"
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

json_t *items_generate(item_gen *x, const kp_entity *e, size_t n, unsigned seed)
{
    kp_item_list l = {0};
    item_gen_items(x, e, n, seed, &l);
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
        *err = xstrdup(_("jansson cannot write the document as JSON"));
        return NULL;
    }
    char *out = xasprintf("%s\n", text);
    free(text);
    return out;
}

char *items_export(const kp_design *d, char **err)
{
    if (!d->table.name || !d->table.pk.s) {
        *err = xstrdup(_("the design has no table name or partition key"));
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
            if (!puts || json_array_size(puts) == REQUESTS_BATCHWRITE_MAX) {
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
    expr_names names;       /* the ExpressionAttributeNames, in the order the texts use them */
    kp_item vals;           /* value name -> typed value, in the order DynamoDB gets them */
    const expr_keycond *kc; /* the key condition sent, NULL when none */
    const kp_expr *filter;  /* the filter sent, NULL when none */
    kp_expr own_filter;     /* a filter made here (a Scan's on `by`) */
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
        *err = xasprintf(_("the plan gives no value for %s"), name);
        return NULL;
    }
    tpl t;
    char *perr = NULL;
    if (tpl_parse(src, &t, &perr, NULL) != KP_OK) {
        /* TRANSLATORS: %1$s a value's name, %2$s its key template, %3$s why the template does not read. */
        *err = xasprintf(_("value %1$s: cannot read template '%2$s': %3$s"), name, src, perr);
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

/* Query: the key condition's typed values; the text is written at the end. */
static bool add_key_condition(build *b, char **err)
{
    const expr_keycond *kc = b->s->kc;
    if (!kc) {
        *err = xstrdup(_("the plan's query has no key condition"));
        return false;
    }
    b->kc = kc;
    char *pv = value_text(b, kc->pk_value, err);
    if (!pv)
        return false;
    item_set(&b->vals, kc->pk_value, item_key_type(b->d, kc->pk), pv);
    free(pv);
    for (int w = 0; kc->op != EXPR_SK_NONE && w < 2; w++) {
        const char *vn = w == 0 ? kc->sk_value : kc->sk_value2;
        if (!vn)
            continue;
        char *sv = value_text(b, vn, err);
        if (!sv)
            return false;
        item_set(&b->vals, vn, item_key_type(b->d, kc->sk), sv);
        free(sv);
    }
    json_object_set_new(b->in, "KeyConditionExpression", json_string("")); /* its place; finish() writes it */
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

/* Value vn of the filter, which compares attribute `attr`: from `values`, else the step's
 * template rendered over the sample, else the sample's value of the attribute. */
static void filter_value(build *b, const char *attr, const char *vn)
{
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
        add_value_from_sample(b, vn, attr);
    }
}

static void filter_values(build *b, const kp_expr *e)
{
    for (size_t i = 0; i < e->nvalues; i++)
        filter_value(b, e->attr ? e->attr : "", e->values[i]);
    for (size_t i = 0; i < e->nkids; i++)
        filter_values(b, &e->kids[i]);
}

/* FilterExpression: the step's filter and its values; the text is written at the end. */
static void add_filter(build *b, const kp_expr *filter)
{
    b->filter = filter;
    filter_values(b, filter);
    json_object_set_new(b->in, "FilterExpression", json_string("")); /* its place; finish() writes it */
}

/* Scan: a filter on the pattern's `by` attributes with the sample's values. */
static void add_by_filter(build *b, const kp_pattern *p)
{
    kp_expr *terms = xcalloc(p->nby ? p->nby : 1, sizeof *terms);
    for (size_t i = 0; i < p->nby; i++) {
        char vn[32];
        snprintf(vn, sizeof vn, ":by%zu", i);
        const char *vp = vn;
        expr_term(NULL, &terms[i], EXPR_CMP, EXPR_EQ, p->by[i].attr.s, &vp, 1);
        if (p->by[i].value) {
            const kp_attr *a = design_attr(b->d, p->by[i].attr.s);
            bool num = a && (a->type == KP_ATTR_NUMBER || a->type == KP_ATTR_SHARD);
            item_set(&b->vals, vn, num ? KP_VAL_N : KP_VAL_S, p->by[i].value);
        } else {
            add_value_from_sample(b, vn, p->by[i].attr.s);
        }
    }
    if (p->nby) {
        expr_and(NULL, &b->own_filter, terms, p->nby);
        b->filter = &b->own_filter;
        json_object_set_new(b->in, "FilterExpression", json_string(""));
    }
    free(terms);
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
        char vn[32];
        snprintf(vn, sizeof vn, ":k%zu", n++);
        const char *nn = expr_names_alias(&b->names, a);
        const kp_value *v = b->sample ? item_get(b->sample, a) : NULL;
        if (v) {
            sbuf_printf(u, "%s%s = %s", u->len ? ", " : "SET ", nn, vn);
            item_set_value(&b->vals, vn, v);
        } else {
            sbuf_printf(&rm, "%s%s", rm.len ? ", " : " REMOVE ", nn);
        }
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

/* Writes the expressions' texts (the key condition's names first, then the filter's, as the
 * plan renders them), the names and the values into the request. */
static void finish(build *b)
{
    expr_writer w = expr_names_writer(&b->names);
    if (b->kc) {
        char *text = expr_keycond_render(b->kc, &w);
        json_object_set_new(b->in, "KeyConditionExpression", json_string(text));
        free(text);
    }
    if (b->filter) {
        char *text = expr_render(b->filter, &w);
        json_object_set_new(b->in, "FilterExpression", json_string(text));
        free(text);
    }
    if (b->names.n) {
        json_t *names = json_object();
        for (size_t i = 0; i < b->names.n; i++)
            json_object_set_new(names, b->names.v[i].alias, json_string(b->names.v[i].name));
        json_object_set_new(b->in, "ExpressionAttributeNames", names);
    }
    if (b->vals.n)
        json_object_set_new(b->in, "ExpressionAttributeValues", items_json(&b->vals));
}

/* UpdateItem: SET each changed attribute (or, none listed, one non-key attribute of the sample)
 * to the sample's value. */
static void add_update(build *b, const kp_pattern *p)
{
    const kp_design *d = b->d;
    sbuf u;
    sbuf_init(&u);
    size_t k = 0;
    for (size_t i = 0; p && i < p->nchanges; i++) {
        char vn[32];
        snprintf(vn, sizeof vn, ":c%zu", k++);
        sbuf_printf(&u, "%s%s = %s", u.len ? ", " : "SET ", expr_names_alias(&b->names, p->changes[i].s), vn);
        add_value_from_sample(b, vn, p->changes[i].s);
    }
    for (size_t i = 0; !u.len && b->sample && i < b->sample->n; i++) {
        /* no changes listed: touch one non-key attribute so the request is complete */
        const char *name = b->sample->v[i].name;
        if (strcmp(name, d->table.pk.s) == 0 || (d->table.sk.s && strcmp(name, d->table.sk.s) == 0))
            continue;
        sbuf_printf(&u, "SET %s = :c0", expr_names_alias(&b->names, name));
        item_set_value(&b->vals, ":c0", &b->sample->v[i].v);
    }
    if (p && b->s->entity)
        add_key_updates(b, p, b->s->entity, &u);
    if (u.len)
        json_object_set_new(b->in, "UpdateExpression", json_string(u.s));
    sbuf_free(&u);
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
    json_t *in = b.in;
    bool ok = true;
    switch (s->op) {
    case KP_OP_GETITEM: {
        const expr_keycond *kc = s->kc;
        if (!kc) {
            *err = xstrdup(_("the plan's GetItem has no key"));
            ok = false;
            break;
        }
        json_t *key = json_object();
        char *pv = value_text(&b, kc->pk_value, err);
        char *sv = pv && kc->op == EXPR_SK_EQ ? value_text(&b, kc->sk_value, err) : NULL;
        if (!pv || (kc->op == EXPR_SK_EQ && !sv)) {
            ok = false;
        } else {
            json_object_set_new(key, kc->pk, json_pack("{s:s}", kp_vtype_name(item_key_type(d, kc->pk)), pv));
            if (sv)
                json_object_set_new(key, kc->sk,
                                    json_pack("{s:s}", kp_vtype_name(item_key_type(d, kc->sk)), sv));
        }
        free(pv);
        free(sv);
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
        if (ok && with_filter && s->fexpr)
            add_filter(&b, s->fexpr);
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
        if (with_filter && s->fexpr)
            add_filter(&b, s->fexpr);
        else if (with_filter && p)
            add_by_filter(&b, p);
        if (isfinite(s->limit) && s->limit >= 1)
            json_object_set_new(in, "Limit", json_integer((json_int_t)s->limit));
        if (strong)
            json_object_set_new(in, "ConsistentRead", json_true());
        break;
    case KP_OP_BATCHGET: {
        json_t *keys = json_array();
        for (size_t i = 0; i < nsamples && i < REQUESTS_BATCHGET_MAX; i++)
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
    case KP_OP_UPDATEITEM:
        json_object_set_new(in, "TableName", json_string(table));
        json_object_set_new(in, "Key", b.sample ? item_key(d, b.sample) : json_object());
        add_update(&b, p);
        break;
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
        for (size_t i = 0; i < nsamples && i < REQUESTS_TRANSACT_MAX; i++)
            json_array_append_new(
                ti, json_pack("{s:{s:s,s:o}}", "Get", "TableName", table, "Key", item_key(d, samples[i])));
        json_object_set_new(in, "TransactItems", ti);
        break;
    }
    case KP_OP_NONE:
    default:
        *err = xstrdup(_("the step has no DynamoDB operation"));
        ok = false;
        break;
    }
    if (ok) {
        finish(&b);
        json_object_set_new(in, "ReturnConsumedCapacity", json_string("TOTAL"));
    }
    if (ok && filter && b.filter) {
        filter->present = true;
        expr_copy(&filter->expr, b.filter);
        item_copy(&filter->values, &b.vals);
    }
    expr_names_free(&b.names);
    item_free(&b.vals);
    expr_free(&b.own_filter);
    if (!ok) {
        json_decref(in);
        if (!*err)
            *err = xstrdup(_("cannot build the request"));
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
    memset(out, 0, sizeof *out);
    if (s->op != KP_OP_QUERY || !p->range.s || !s->kc)
        return false;
    const expr_keycond kc = *s->kc;
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
        *err = xstrdup(_("the design has no table name or partition key"));
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
                /* one request of the step: its keys, at most 100 and 16 MB of items */
                size_t want = isfinite(s->items) && s->items >= 1 ? (size_t)ceil(s->items) : 3;
                double bytes = 0;
                for (size_t q = 0; q < nitems && ns < want && ns < REQUESTS_BATCHGET_MAX; q++) {
                    bytes += (double)item_size(&items->v[q]);
                    if (ns && bytes > CAP_BATCHGET_MAX_BYTES)
                        break;
                    samples[ns++] = &items->v[q];
                }
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
