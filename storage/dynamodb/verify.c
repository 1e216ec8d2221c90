/* verify.c - `keyplan verify`: the design against a real DynamoDB endpoint (see verify.h). The
 * requests are built by requests.h, sent by ddb.h; what they should return is planeval.h's. */
#include "verify.h"

#include "capacity.h"
#include "ddb.h"
#include "planeval.h"
#include "requests.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- per-pattern checking ------------------------------------------------------------------------ */

typedef struct check {
    sbuf why;  /* failure reasons, "; "-separated */
    sbuf info; /* what ran */
    double measured, predicted, tolerance;
    size_t requests, items;
    bool failed, fatal;
    bool cap_checked;   /* measured vs predicted is compared */
    bool cap_unchecked; /* some requests' capacity is only reported */
    char *fatal_err;
} check;

static void fail(check *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(check *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *m = xvasprintf(fmt, ap);
    va_end(ap);
    if (c->why.len)
        sbuf_add(&c->why, "; ");
    sbuf_add(&c->why, m);
    free(m);
    c->failed = true;
}

typedef struct vctx {
    const kp_design *d;
    const kp_analysis *a;
    const verify_opts *o;
    ddb *db;
    char *table;
    item_sample sample; /* every entity's items */
    planeval_set w;     /* the loaded items */
} vctx;

static const kp_item_list *entity_items(const vctx *v, const kp_entity *e)
{
    ptrdiff_t i = e ? design_entity_pos(v->d, e->name) : -1;
    return i < 0 ? NULL : &v->sample.lists[i];
}

static bool numeric_key(const kp_design *d, const char *attr) { return item_key_type(d, attr) == KP_VAL_N; }

static double consumed(const json_t *resp)
{
    const json_t *cc = json_object_get(resp, "ConsumedCapacity");
    if (json_is_array(cc)) {
        double t = 0;
        size_t i;
        json_t *x;
        json_array_foreach((json_t *)cc, i, x) t += json_number_value(json_object_get(x, "CapacityUnits"));
        return t;
    }
    return json_number_value(json_object_get(cc, "CapacityUnits"));
}

/* The loaded items DynamoDB returned. */
typedef struct hits {
    const planeval_item **v;
    size_t n, cap;
} hits;

static void hits_push(hits *h, const planeval_item *w)
{
    VEC_GROW(h->v, h->n, h->cap);
    h->v[h->n++] = w;
}

static const char *jstr(const json_t *o, const char *k) { return json_string_value(json_object_get(o, k)); }

/* The key text of a returned item, as planeval_key_text gives it. Caller frees. */
static char *returned_key(const kp_design *d, const json_t *item)
{
    kp_item it;
    items_from_json(item, &it);
    char *k = planeval_key_text(d, &it);
    item_free(&it);
    return k;
}

static bool entity_in_pattern(const kp_pattern *p, const kp_entity *e)
{
    for (size_t i = 0; e && i < p->nentities; i++)
        if (strcmp(p->entities[i].s, e->name) == 0)
            return true;
    return false;
}

/* How the plan's filter took part in a request. */
typedef enum filter_mode {
    FILTER_NONE,   /* the model predicted no filter */
    FILTER_SENT,   /* sent as FilterExpression and evaluated by verify the same way */
    FILTER_CLIENT, /* predicted but beyond verify's evaluator: other entities dropped by verify */
} filter_mode;

/* The result of one request compared with the model. `expected` is the request evaluated over
 * the loaded items (key condition, order, Limit, then the filter when it was sent), in
 * DynamoDB's order; `matched_own` counts the pattern's own items the key condition matched
 * before the filter. */
static void compare(vctx *v, check *c, const kp_pattern_result *r, const kp_step *s, const char *what,
                    const json_t *returned, const planeval_item *const *expected, size_t nexp,
                    const planeval_item *const *opt, size_t nopt, bool ordered, filter_mode fm,
                    const char *filter, size_t matched_own, const kp_item *binding, hits *out)
{
    const kp_design *d = v->d;
    const kp_pattern *p = r->pattern;
    size_t nret = json_array_size(returned);
    hits got = {0};
    size_t unknown = 0;
    size_t i;
    json_t *it;
    json_array_foreach((json_t *)returned, i, it)
    {
        char *k = returned_key(d, it);
        const planeval_item *w = planeval_set_find(&v->w, k);
        free(k);
        if (!w)
            unknown++;
        else
            hits_push(&got, w);
    }
    if (unknown)
        fail(c, "%s: %zu returned item(s) are not among the loaded items", what, unknown);
    /* same set */
    size_t missing = 0, extra = 0;
    const char *first_missing = NULL, *first_extra = NULL;
    for (size_t e = 0; e < nexp; e++) {
        bool f = false;
        for (size_t g = 0; g < got.n && !f; g++)
            f = got.v[g] == expected[e];
        if (!f && !missing++)
            first_missing = expected[e]->key;
    }
    for (size_t g = 0; g < got.n; g++) {
        bool f = false;
        for (size_t e = 0; e < nexp && !f; e++)
            f = got.v[g] == expected[e];
        for (size_t e = 0; e < nopt && !f; e++)
            f = got.v[g] == opt[e];
        if (!f && !extra++)
            first_extra = got.v[g]->key;
    }
    /* opt: items tied on the sort key at the Limit boundary; DynamoDB may return any of them */
    bool count_ok = nopt ? nret >= nexp && nret <= nexp + nopt : nret == nexp;
    if (missing || extra || !count_ok) {
        fail(c, "%s: DynamoDB returned %zu item(s), the plan evaluated over the loaded items gives %zu%s%s%s",
             what, nret, nexp, missing ? " (missing " : "", missing ? first_missing : "", missing ? ")" : "");
        if (extra)
            sbuf_printf(&c->why, " (unexpected %s)", first_extra);
    } else if (ordered) {
        /* positions compared by sort-key value: items that tie may come back in any order */
        const char *sk = planeval_index_sk(d, s->index);
        for (size_t g = 0; sk && g < got.n && g < nexp; g++) {
            const char *a = item_text(got.v[g]->item, sk), *b = item_text(expected[g]->item, sk);
            if (a && b && strcmp(a, b) != 0) {
                fail(
                    c,
                    "%s: items come back in another order than the sort key gives (item %zu is %s, expected %s)",
                    what, g + 1, got.v[g]->key, expected[g]->key);
                break;
            }
        }
    }
    /* the model: only the pattern's entities come back (after the filter it predicted) */
    size_t foreign = 0, mine = 0;
    const planeval_item *ex = NULL;
    for (size_t g = 0; g < got.n; g++) {
        if (entity_in_pattern(p, got.v[g]->e)) {
            mine++;
            if (out)
                hits_push(out, got.v[g]);
        } else if (!foreign++) {
            ex = got.v[g];
        }
    }
    if (foreign && fm == FILTER_NONE)
        fail(
            c,
            "%s: %zu of %zu items are %s items (e.g. %s): the key condition %s also matches them, and the model "
            "predicted no filter (the plan needs a filter, or a sort-key prefix that tells the entities apart)",
            what, foreign, got.n, ex->e ? ex->e->name : "unknown", ex->key,
            s->key_condition ? s->key_condition : "");
    else if (foreign && fm == FILTER_SENT)
        fail(c, "%s: the model's filter '%s' lets %zu %s item(s) through (e.g. %s)", what, filter, foreign,
             ex->e ? ex->e->name : "unknown", ex->key);
    /* ... and only items with the caller's values (`by`) */
    for (size_t g = 0; binding && g < got.n; g++) {
        const planeval_item *w = got.v[g];
        if (!entity_in_pattern(p, w->e))
            continue;
        const char *bad = NULL;
        char *have = NULL, *want = NULL;
        for (size_t b = 0; b < p->nby && !bad; b++) {
            const char *an = p->by[b].attr.s;
            const char *several[16];
            size_t nsev = planeval_fixed_values(p, an, several, 16);
            have = item_value_text(d, w->item, an);
            want = p->by[b].value ? xstrdup(p->by[b].value) : item_value_text(d, binding, an);
            bool any = false; /* several fixed values: any of them is asked */
            for (size_t q = 0; have && q < nsev && !any; q++)
                any = strcmp(have, several[q]) == 0;
            if (have && want && !any && strcmp(have, want) != 0)
                bad = an;
            else {
                free(have);
                free(want);
                have = want = NULL;
            }
        }
        if (bad) {
            size_t nbad = 0;
            for (size_t q = g; q < got.n; q++) {
                char *h2 = item_value_text(d, got.v[q]->item, bad);
                if (entity_in_pattern(p, got.v[q]->e) && h2 && strcmp(h2, want) != 0)
                    nbad++;
                free(h2);
            }
            fail(
                c,
                "%s: asked %s=%s, but %zu returned item(s) have another %s (e.g. %s item %s with %s=%s): %s also "
                "matches them, and the model predicted %s",
                what, bad, want, nbad, bad, w->e->name, w->key, bad, have,
                s->key_condition ? s->key_condition : "",
                fm == FILTER_NONE ? "no filter" : "a filter that keeps them");
            free(have);
            free(want);
            break;
        }
    }
    if (fm == FILTER_SENT && matched_own > 0 && mine == 0)
        fail(c, "%s: the key condition reads %zu %s item(s) but the model's filter '%s' drops them all%s",
             what, matched_own, s->entity ? s->entity->name : "", filter,
             s->index >= 0 && d->indexes[s->index].projection != KP_PROJ_ALL
                 ? " (the attribute it tests may not be projected on the index)"
                 : "");
    c->items += got.n;
    free(got.v);
}

/* Order check over the pattern's items: `order: a [desc]` served by the key. */
static void check_order(vctx *v, check *c, const kp_pattern_result *r, const hits *h)
{
    const kp_pattern *p = r->pattern;
    if (!p->order.s || r->app_sort || (r->plan != KP_PLAN_QUERY && r->plan != KP_PLAN_GET))
        return;
    bool num = numeric_key(v->d, p->order.s);
    char *prev = NULL;
    for (size_t i = 0; i < h->n; i++) {
        char *cur = item_value_text(v->d, h->v[i]->item, p->order.s);
        if (!cur)
            continue;
        if (prev) {
            int cmp = expr_key_cmp(num, prev, cur);
            if (p->order_desc ? cmp < 0 : cmp > 0) {
                fail(c, "the model says the key serves 'order: %s %s', but %s=%s comes before %s=%s",
                     p->order.s, p->order_desc ? "desc" : "asc", p->order.s, prev, p->order.s, cur);
                free(cur);
                break;
            }
        }
        free(prev);
        prev = cur;
    }
    free(prev);
}

/* Runs a request, following pages when no Limit; returns the items (new array) or NULL. */
static json_t *run_paged(vctx *v, check *c, const char *op, json_t *in, const char *list_key)
{
    json_t *all = json_array();
    for (int page = 0; page < 100; page++) {
        json_t *resp = NULL;
        char *err = NULL;
        ddb_status rc = ddb_call(v->db, op, in, &resp, &err);
        if (rc != DDB_OK) {
            if (rc == DDB_TRANSPORT) {
                c->fatal = true;
                c->fatal_err = err;
            } else {
                fail(c, "%s rejected: %s", op, err);
                free(err);
            }
            json_decref(all);
            return NULL;
        }
        c->requests++;
        c->measured += consumed(resp);
        if (list_key) {
            json_array_extend(all, json_object_get(resp, list_key));
        } else if (json_object_get(resp, "Item")) {
            json_array_append(all, json_object_get(resp, "Item"));
        }
        json_t *lek = json_object_get(resp, "LastEvaluatedKey");
        bool more = lek && !json_object_get(in, "Limit");
        if (more)
            json_object_set(in, "ExclusiveStartKey", lek);
        json_decref(resp);
        if (!more)
            break;
    }
    return all;
}

/* Renders value `name` of step s over `binding`; NULL when the plan has no such value. */
static char *render_value(const kp_design *d, const kp_step *s, const char *name, const kp_item *binding)
{
    for (size_t i = 0; i < s->nvalues; i++) {
        if (!s->values[i].name || strcmp(s->values[i].name, name) != 0)
            continue;
        tpl t;
        if (tpl_parse(s->values[i].value, &t, NULL, NULL) != KP_OK)
            return NULL;
        char *out = item_render(d, &t, binding);
        tpl_free(&t);
        return out;
    }
    return NULL;
}

/* `range: a` asks for the items whose a lies between two values, both included. Every item of
 * the pattern's entities in the partition with a in [lo, hi] (and kept by the filter) must come
 * back: a bound that stops at the value ("PEDIDO#2025-01-10") sorts before the sort keys that
 * continue after it ("PEDIDO#2025-01-10#4471"), and loses the last value's items. */
static void check_range(vctx *v, check *c, const kp_pattern_result *r, const kp_step *s,
                        const expr_keycond *kc, const char *pv, const char *upper, const kp_item *lo,
                        const kp_item *hi, const json_t *ret, const requests_filter *filt, filter_mode fm,
                        const char *what)
{
    const kp_design *d = v->d;
    const kp_pattern *p = r->pattern;
    const char *ra = p->range.s;
    const char *lov = item_text(lo, ra), *hiv = item_text(hi, ra);
    if (!lov || !hiv)
        return;
    bool pknum = numeric_key(d, kc->pk), rnum = numeric_key(d, ra);
    const char *fan[4]; /* one request per value of these: the items of this request's value */
    size_t nfan = planeval_fanout(d, p, s, fan);
    for (size_t i = 0; i < v->w.n; i++) {
        const planeval_item *w = &v->w.v[i];
        const char *val = item_text(w->item, ra);
        const char *ipk = item_text(w->item, kc->pk);
        if (!entity_in_pattern(p, w->e) || !planeval_on_index(d, s->index, w->item) || !val || !ipk ||
            expr_key_cmp(pknum, ipk, pv) != 0 || expr_key_cmp(rnum, val, lov) < 0 ||
            expr_key_cmp(rnum, val, hiv) > 0)
            continue;
        bool other_value = false;
        for (size_t q = 0; q < nfan && !other_value; q++) {
            const char *x = item_text(w->item, fan[q]), *y = item_text(lo, fan[q]);
            other_value = x && y && strcmp(x, y) != 0;
        }
        if (other_value)
            continue;
        if (fm == FILTER_SENT && filt->present) {
            kp_item view;
            planeval_project(d, s->index, w->item, &view);
            int keep = expr_eval(&filt->expr, &view, &filt->values);
            item_free(&view);
            if (keep != 1)
                continue;
        }
        bool back = false;
        size_t k;
        json_t *it;
        json_array_foreach((json_t *)ret, k, it)
        {
            char *key = returned_key(d, it);
            back = back || strcmp(key, w->key) == 0;
            free(key);
        }
        if (!back) {
            fail(
                c,
                "%s: asked %s between %s and %s, but %s item %s (%s=%s) is not returned: the upper bound %s = '%s' "
                "stops at the value and sorts before the sort keys that continue after it (it needs a suffix that "
                "sorts after them, e.g. '%s~')",
                what, ra, lov, hiv, w->e->name, w->key, ra, val, kc->sk_value2, upper, upper);
            return;
        }
    }
}

/* One Query or GetItem of a step with the values rendered from `binding` (lo/hi for ranges). */
static void run_keyed(vctx *v, check *c, const kp_pattern_result *r, const kp_step *s, const kp_item *binding,
                      const kp_item *lo, const kp_item *hi, const kp_item *by_binding, hits *out)
{
    const kp_design *d = v->d;
    const kp_pattern *p = r->pattern;
    expr_keycond kc;
    char *err = NULL;
    if (expr_keycond_parse(s->key_condition, &kc, &err) != KP_OK) {
        fail(c, "%s", err);
        free(err);
        return;
    }
    kp_item values = {0};
    requests_filter filt = {0};
    char *pv = render_value(d, s, kc.pk_value, binding);
    char *v1 = kc.sk_value ? render_value(d, s, kc.sk_value, kc.op == EXPR_SK_BETWEEN ? lo : binding) : NULL;
    char *v2 = kc.sk_value2 ? render_value(d, s, kc.sk_value2, hi) : NULL;
    if (!pv || (kc.sk_value && !v1) || (kc.sk_value2 && !v2)) {
        fail(c, "the plan's values (%s) cannot be filled from a sample %s item", kc.pk_value,
             s->entity ? s->entity->name : "");
        goto done;
    }
    item_set(&values, kc.pk_value, KP_VAL_S, pv);
    if (v1)
        item_set(&values, kc.sk_value, KP_VAL_S, v1);
    if (v2)
        item_set(&values, kc.sk_value2, KP_VAL_S, v2);
    const kp_item *samples[1] = {binding};
    bool predicted_filter = r->filter || (s->filter && *s->filter);
    filter_mode fm = predicted_filter ? FILTER_SENT : FILTER_NONE;
    bool get = s->op == KP_OP_GETITEM;
    if (get && predicted_filter)
        fm = FILTER_CLIENT;
    json_t *in = requests_step_input(d, r, s, v->table, &values, samples, 1, !get, &filt, &err);
    if (in && fm == FILTER_SENT) {
        kp_item probe = {0};
        if (!filt.present || expr_eval(&filt.expr, &probe, &filt.values) < 0) {
            /* a filter verify cannot evaluate: leave it to verify's entity check */
            fm = FILTER_CLIENT;
            json_decref(in);
            requests_filter_free(&filt);
            in = requests_step_input(d, r, s, v->table, &values, samples, 1, false, NULL, &err);
            sbuf_printf(&c->info, "(filter '%s' checked as an entity filter) ", s->filter ? s->filter : "");
        }
    }
    if (!in) {
        fail(c, "%s", err);
        free(err);
        goto done;
    }
    size_t before = c->requests;
    json_t *ret = run_paged(v, c, get ? "GetItem" : "Query", in, get ? NULL : "Items");
    if (!ret) {
        json_decref(in);
        goto done;
    }
    size_t pages = c->requests - before;
    /* the plan evaluated over the loaded items: key condition, order, Limit, then the filter */
    planeval_query q = {.index = s->index,
                        .kc = &kc,
                        .pk_value = pv,
                        .sk_value = v1,
                        .sk_value2 = v2,
                        .forward = get ? true : s->forward,
                        .limit = get ? NAN : s->limit};
    planeval_result res;
    planeval_query_run(d, &v->w, &q, &res);
    /* capacity by the model's rules over what is read (before any filter) */
    double f = planeval_read_factor(d, p, s->index);
    double bytes = 0;
    size_t matched_own = 0;
    for (size_t i = 0; i < res.nread; i++) {
        bytes += (double)planeval_read_bytes(d, s->index, res.v[i]->item);
        if (res.v[i]->e == s->entity || (!s->entity && entity_in_pattern(p, res.v[i]->e)))
            matched_own++;
    }
    c->predicted += planeval_read_units(bytes) * f;
    c->tolerance += f * (double)pages;
    c->cap_checked = true;
    /* a Query returns at most 1 MB per request: the model's page rule over the same items */
    double want_pages = capacity_query_pages((double)res.nread, bytes);
    if (!get && !(isfinite(s->limit) && s->limit >= 1) && fabs((double)pages - want_pages) > 0.5)
        fail(
            c,
            "%s %s: DynamoDB took %zu request(s) (1 MB pages) for %zu item(s) of %.0f bytes, the model's page "
            "rule gives %g",
            kp_op_name(s->op), pv, pages, res.nread, bytes, want_pages);
    if (fm == FILTER_SENT && filt.present)
        planeval_filter(d, s->index, &filt.expr, &filt.values, NULL, NULL, &res);
    char *what = xasprintf("%s %s", kp_op_name(s->op), pv);
    compare(v, c, r, s, what, ret, res.v, res.n, res.v + res.n, res.nopt, !get, fm, s->filter, matched_own,
            by_binding, out);
    if (kc.op == EXPR_SK_BETWEEN && p->range.s && res.nall <= res.n + res.nopt)
        check_range(v, c, r, s, &kc, pv, v2, lo, hi, ret, &filt, fm, what);
    free(what);
    planeval_result_free(&res);
    json_decref(ret);
    json_decref(in);
done:
    item_free(&values);
    requests_filter_free(&filt);
    free(pv);
    free(v1);
    free(v2);
    expr_keycond_free(&kc);
}

static bool by_equal(const kp_pattern *p, const kp_item *a, const kp_item *b)
{
    for (size_t i = 0; i < p->nby; i++) {
        const char *x = item_text(a, p->by[i].attr.s), *y = item_text(b, p->by[i].attr.s);
        if (x && y && strcmp(x, y) != 0)
            return false;
    }
    return true;
}

static void run_scan(vctx *v, check *c, const kp_pattern_result *r, const kp_step *s, const kp_item *binding,
                     hits *out)
{
    const kp_design *d = v->d;
    const kp_pattern *p = r->pattern;
    char *err = NULL;
    const kp_item *samples[1] = {binding};
    requests_filter filt;
    json_t *in = requests_step_input(d, r, s, v->table, NULL, samples, 1, true, &filt, &err);
    if (!in) {
        fail(c, "%s", err);
        free(err);
        return;
    }
    json_t *ret = run_paged(v, c, "Scan", in, "Items");
    if (!ret) {
        json_decref(in);
        requests_filter_free(&filt);
        return;
    }
    planeval_result res;
    planeval_scan(d, &v->w, s->index, &res);
    double bytes = 0;
    for (size_t i = 0; i < res.nread; i++)
        bytes += (double)planeval_read_bytes(d, s->index, res.v[i]->item);
    /* a filter verify cannot evaluate: the pattern's `by` values, compared as text */
    if (filt.present)
        planeval_filter(d, s->index, &filt.expr, &filt.values, p, binding, &res);
    double f = planeval_read_factor(d, p, s->index);
    c->predicted += planeval_read_units(bytes) * f;
    c->tolerance += f;
    c->cap_checked = true;
    compare(v, c, r, s, "Scan", ret, res.v, res.n, NULL, 0, false, FILTER_CLIENT, s->filter, 0, NULL, out);
    planeval_result_free(&res);
    requests_filter_free(&filt);
    json_decref(ret);
    json_decref(in);
}

static void run_batchget(vctx *v, check *c, const kp_pattern_result *r, const kp_step *s,
                         const planeval_item **want, size_t nwant, hits *out)
{
    const kp_design *d = v->d;
    if (nwant == 0)
        return;
    if (nwant > 100)
        nwant = 100; /* BatchGetItem's limit */
    const kp_item **samples = xcalloc(nwant, sizeof *samples);
    for (size_t i = 0; i < nwant; i++)
        samples[i] = want[i]->item;
    char *err = NULL;
    json_t *in = requests_step_input(d, r, s, v->table, NULL, samples, nwant, false, NULL, &err);
    free(samples);
    if (!in) {
        fail(c, "%s", err);
        free(err);
        return;
    }
    json_t *resp = NULL;
    ddb_status rc = ddb_call(v->db, "BatchGetItem", in, &resp, &err);
    json_decref(in);
    if (rc != DDB_OK) {
        if (rc == DDB_TRANSPORT) {
            c->fatal = true;
            c->fatal_err = err;
        } else {
            fail(c, "BatchGetItem rejected: %s", err);
            free(err);
        }
        return;
    }
    c->requests++;
    c->measured += consumed(resp);
    json_t *ret = json_object_get(json_object_get(resp, "Responses"), v->table);
    double f = planeval_read_factor(d, r->pattern, -1), units = 0;
    for (size_t i = 0; i < nwant; i++)
        units += planeval_read_units((double)item_size(want[i]->item));
    c->predicted += units * f;
    c->tolerance += f;
    c->cap_checked = true;
    json_t *none = json_array();
    compare(v, c, r, s, "BatchGetItem", ret ? ret : none, want, nwant, NULL, 0, false,
            r->filter || (s->filter && *s->filter) ? FILTER_CLIENT : FILTER_NONE, s->filter, 0, NULL, out);
    json_decref(none);
    json_decref(resp);
}

/* The anchor of a later step: an item of its entity that agrees with the first step's `by`
 * values, else planeval_anchor's choice. */
static const kp_item *step_anchor(vctx *v, const kp_pattern *p, const kp_step *s, const kp_entity *e,
                                  const kp_item *binding)
{
    const kp_item_list *items = entity_items(v, e);
    for (size_t i = 0; binding && items && i < items->n; i++)
        if (planeval_on_index(v->d, s->index, &items->v[i]) && by_equal(p, &items->v[i], binding))
            return &items->v[i];
    return planeval_anchor(v->d, p, s->index, items);
}

/* One step that queries with the values of `anchor` (the caller's `by` from `binding`): a Scan,
 * or a Query/GetItem per fan-out value. */
static void run_anchored(vctx *v, check *c, const kp_pattern_result *r, const kp_step *s, const kp_entity *e,
                         const kp_item *anchor, const kp_item *binding, hits *got)
{
    const kp_design *d = v->d;
    const kp_pattern *p = r->pattern;
    kp_item b;
    item_copy(&b, anchor);
    for (size_t q = 0; q < p->nby; q++) /* the caller's values hold for every step */
        if (item_get(binding, p->by[q].attr.s) && item_get(&b, p->by[q].attr.s))
            item_set_value(&b, p->by[q].attr.s, item_get(binding, p->by[q].attr.s));
    if (s->op == KP_OP_SCAN) {
        run_scan(v, c, r, s, &b, got);
        item_free(&b);
        return;
    }
    const char *fan[4];
    size_t nfan = planeval_fanout(d, p, s, fan);
    size_t combos = 1;
    const char *fixed[4][16]; /* the values of a fan-out the pattern fixes (several of them) */
    size_t nfixed[4];
    for (size_t q = 0; q < nfan; q++) {
        nfixed[q] = planeval_fixed_values(p, fan[q], fixed[q], 16);
        combos *= nfixed[q] ? nfixed[q] : planeval_value_count(design_attr(d, fan[q]));
    }
    if (combos > 64)
        combos = 64;
    for (size_t m = 0; m < combos && !c->fatal; m++) {
        kp_item bm;
        item_copy(&bm, &b);
        size_t rest = m;
        for (size_t q = 0; q < nfan; q++) {
            const kp_attr *a = design_attr(d, fan[q]);
            size_t cnt = nfixed[q] ? nfixed[q] : planeval_value_count(a);
            if (nfixed[q])
                item_set(&bm, fan[q], item_get(&bm, fan[q]) ? item_get(&bm, fan[q])->type : KP_VAL_S,
                         fixed[q][rest % cnt]);
            else
                planeval_set_value(&bm, a, cnt ? rest % cnt : 0);
            rest = cnt ? rest / cnt : 0;
        }
        kp_item lo, hi;
        planeval_range_bounds(d, &v->w, p, e, s->index, &bm, &lo, &hi);
        run_keyed(v, c, r, s, &bm, &lo, &hi, &bm, got);
        item_free(&lo);
        item_free(&hi);
        item_free(&bm);
    }
    if (nfan)
        sbuf_printf(&c->info, "fan-out over %zu values ", combos);
    item_free(&b);
}

static void verify_read(vctx *v, check *c, const kp_pattern_result *r)
{
    const kp_design *d = v->d;
    const kp_pattern *p = r->pattern;
    kp_item binding = {0}; /* the first step's anchor: the caller's `by` values */
    bool bound = false;
    hits prev = {0};
    for (size_t k = 0; k < r->nsteps && !c->fatal; k++) {
        const kp_step *s = &r->steps[k];
        const kp_entity *e =
            s->entity ? s->entity : (p->nentities ? design_entity(d, p->entities[0].s) : NULL);
        hits got = {0};
        if (k > 0 && p->njoin > 0) {
            /* a chain: the previous result supplies this step's keys */
            const planeval_item **want = xcalloc(v->w.n + 1, sizeof *want);
            size_t nwant = 0;
            for (size_t i = 0; i < v->w.n; i++) {
                if (v->w.v[i].e != e)
                    continue;
                bool found = false;
                for (size_t q = 0; q < prev.n && !found; q++) {
                    bool all = true;
                    for (size_t j = 0; j < p->njoin && all; j++) {
                        const char *x = item_text(v->w.v[i].item, p->join[j].to.s);
                        const char *y = item_text(prev.v[q]->item, p->join[j].from.s);
                        all = x && y && strcmp(x, y) == 0;
                    }
                    found = all;
                }
                if (found)
                    want[nwant++] = &v->w.v[i];
            }
            if (s->op == KP_OP_BATCHGET) {
                run_batchget(v, c, r, s, want, nwant, &got);
            } else if (s->op == KP_OP_GETITEM || s->op == KP_OP_QUERY) {
                for (size_t i = 0; i < nwant && i < 10 && !c->fatal; i++)
                    run_keyed(v, c, r, s, want[i]->item, want[i]->item, want[i]->item, NULL, &got);
            }
            if (nwant == 0)
                sbuf_printf(&c->info, "(step %zu: the previous result names no loaded %s item) ", k + 1,
                            e ? e->name : "");
            free(want);
        } else if (s->op == KP_OP_BATCHGET) {
            /* a batch without a chain: the items of the entity that match the caller's values */
            const planeval_item **want = xcalloc(v->w.n + 1, sizeof *want);
            size_t nwant = 0;
            for (size_t i = 0; i < v->w.n && nwant < 100; i++)
                if (v->w.v[i].e == e && (!bound || by_equal(p, v->w.v[i].item, &binding)))
                    want[nwant++] = &v->w.v[i];
            run_batchget(v, c, r, s, want, nwant, &got);
            free(want);
        } else {
            const kp_item *anchor = k == 0 ? planeval_anchor(d, p, s->index, entity_items(v, e))
                                           : step_anchor(v, p, s, e, bound ? &binding : NULL);
            if (!anchor) {
                fail(c, "no sample %s item lies on %s with the pattern's values", e ? e->name : "(no entity)",
                     s->index < 0 ? "the table" : d->indexes[s->index].name);
                free(got.v);
                break;
            }
            if (!bound) {
                item_copy(&binding, anchor);
                bound = true;
            }
            run_anchored(v, c, r, s, e, anchor, &binding, &got);
        }
        if (r->nsteps == 1 || k == 0)
            check_order(v, c, r, &got);
        free(prev.v);
        prev = got;
    }
    free(prev.v);
    item_free(&binding);
}

/* ---- writes ---------------------------------------------------------------------------------- */

/* A fresh item of `e` (a key no loaded item has) into *out; false when there is none. */
static bool fresh_item(vctx *v, const kp_entity *e, kp_item *out)
{
    const kp_item_list *have = entity_items(v, e);
    kp_item_list g = {0};
    item_generate(v->d, e, (have ? have->n : 0) + 4, ITEM_DEFAULT_SEED, &g);
    bool found = false;
    for (size_t i = g.n; i-- > 0 && !found;) {
        char *k = planeval_key_text(v->d, &g.v[i]);
        if (!planeval_set_find(&v->w, k)) {
            item_copy(out, &g.v[i]);
            item_pad(e, out);
            found = true;
        }
        free(k);
    }
    item_list_free(&g);
    return found;
}

static void verify_write(vctx *v, check *c, const kp_pattern_result *r)
{
    const kp_design *d = v->d;
    const kp_pattern *p = r->pattern;
    for (size_t k = 0; k < r->nsteps && !c->fatal; k++) {
        const kp_step *s = &r->steps[k];
        const char *op = kp_op_name(s->op);
        if (s->op != KP_OP_PUTITEM && s->op != KP_OP_UPDATEITEM && s->op != KP_OP_DELETEITEM &&
            s->op != KP_OP_TRANSACTWRITE)
            continue; /* the read half of a find-then-write is not re-checked here */
        const kp_entity *e =
            s->entity ? s->entity : (p->nentities ? design_entity(d, p->entities[0].s) : NULL);
        const kp_item *samples[100];
        size_t ns = 0;
        kp_item_list hold = {0}; /* fresh items */
        if (s->op == KP_OP_TRANSACTWRITE) {
            for (size_t q = 0; q < p->nentities && hold.n < 100; q++) {
                kp_item f;
                if (fresh_item(v, design_entity(d, p->entities[q].s), &f))
                    *item_list_push(&hold) = f;
            }
            for (size_t q = 0; q < hold.n; q++)
                samples[ns++] = &hold.v[q];
        } else if (s->op == KP_OP_PUTITEM) {
            kp_item f;
            if (e && fresh_item(v, e, &f)) {
                *item_list_push(&hold) = f;
                samples[ns++] = &hold.v[0];
            }
        } else {
            const kp_item_list *items = entity_items(v, e);
            if (items && items->n)
                samples[ns++] = &items->v[items->n - 1];
        }
        if (ns == 0) {
            fail(c, "no sample %s item to write", e ? e->name : "");
            item_list_free(&hold);
            continue;
        }
        char *err = NULL;
        json_t *in = requests_step_input(d, r, s, v->table, NULL, samples, ns, false, NULL, &err);
        if (!in) {
            fail(c, "%s", err);
            free(err);
            item_list_free(&hold);
            continue;
        }
        json_t *resp = NULL;
        ddb_status rc = ddb_call(v->db, op, in, &resp, &err);
        json_decref(in);
        if (rc == DDB_TRANSPORT) {
            c->fatal = true;
            c->fatal_err = err;
            item_list_free(&hold);
            return;
        }
        if (rc == DDB_API) {
            fail(c, "%s rejected: %s", op, err);
            free(err);
            item_list_free(&hold);
            continue;
        }
        c->requests++;
        c->items += ns;
        c->measured += consumed(resp);
        if (s->op == KP_OP_PUTITEM) {
            /* a new item: the model's write units are exact up to the number-size estimate */
            c->predicted += planeval_write_units(d, samples[0]);
            c->tolerance += 1;
            c->cap_checked = true;
        } else {
            c->cap_unchecked = true;
        }
        json_decref(resp);
        item_list_free(&hold);
    }
}

/* ---- table lifecycle ------------------------------------------------------------------------- */

static void add_attr_def(const kp_design *d, json_t *defs, const char *name)
{
    size_t i;
    json_t *x;
    json_array_foreach(defs, i, x) if (strcmp(jstr(x, "AttributeName"), name) == 0) return;
    json_array_append_new(defs, json_pack("{s:s,s:s}", "AttributeName", name, "AttributeType",
                                          kp_vtype_name(item_key_type(d, name))));
}

static json_t *key_schema(const char *pk, const char *sk)
{
    json_t *k = json_pack("[{s:s,s:s}]", "AttributeName", pk, "KeyType", "HASH");
    if (sk)
        json_array_append_new(k, json_pack("{s:s,s:s}", "AttributeName", sk, "KeyType", "RANGE"));
    return k;
}

static json_t *projection(const kp_index *x)
{
    if (x->projection == KP_PROJ_KEYS)
        return json_pack("{s:s}", "ProjectionType", "KEYS_ONLY");
    if (x->projection == KP_PROJ_INCLUDE && x->ninclude) {
        json_t *n = json_array();
        for (size_t i = 0; i < x->ninclude; i++)
            json_array_append_new(n, json_string(x->include[i].s));
        return json_pack("{s:s,s:o}", "ProjectionType", "INCLUDE", "NonKeyAttributes", n);
    }
    if (x->projection == KP_PROJ_INCLUDE)
        return json_pack("{s:s}", "ProjectionType", "KEYS_ONLY");
    return json_pack("{s:s}", "ProjectionType", "ALL");
}

static json_t *create_table_input(const kp_design *d, const char *table)
{
    json_t *defs = json_array();
    add_attr_def(d, defs, d->table.pk.s);
    if (d->table.sk.s)
        add_attr_def(d, defs, d->table.sk.s);
    json_t *gsis = json_array(), *lsis = json_array();
    for (size_t i = 0; i < d->nindexes; i++) {
        const kp_index *x = &d->indexes[i];
        add_attr_def(d, defs, x->pk.s);
        if (x->sk.s)
            add_attr_def(d, defs, x->sk.s);
        json_t *ix = json_pack("{s:s,s:o,s:o}", "IndexName", x->name, "KeySchema",
                               key_schema(x->pk.s, x->sk.s), "Projection", projection(x));
        json_array_append_new(x->kind == KP_LSI ? lsis : gsis, ix);
    }
    json_t *in = json_pack("{s:s,s:o,s:o,s:s}", "TableName", table, "AttributeDefinitions", defs, "KeySchema",
                           key_schema(d->table.pk.s, d->table.sk.s), "BillingMode", "PAY_PER_REQUEST");
    if (json_array_size(gsis))
        json_object_set(in, "GlobalSecondaryIndexes", gsis);
    if (json_array_size(lsis))
        json_object_set(in, "LocalSecondaryIndexes", lsis);
    json_decref(gsis);
    json_decref(lsis);
    return in;
}

static ddb_status wait_active(vctx *v, char **err)
{
    json_t *in = json_pack("{s:s}", "TableName", v->table);
    ddb_status rc = DDB_TRANSPORT;
    for (int i = 0; i < 600 && !(v->o->stop && *v->o->stop); i++) { /* up to 2 minutes */
        json_t *resp = NULL;
        rc = ddb_call(v->db, "DescribeTable", in, &resp, err);
        if (rc != DDB_OK)
            break;
        json_t *t = json_object_get(resp, "Table");
        bool active = jstr(t, "TableStatus") && strcmp(jstr(t, "TableStatus"), "ACTIVE") == 0;
        size_t k;
        json_t *g;
        json_array_foreach(json_object_get(t, "GlobalSecondaryIndexes"), k, g)
        {
            const char *st = jstr(g, "IndexStatus");
            if (st && strcmp(st, "ACTIVE") != 0)
                active = false;
        }
        json_decref(resp);
        if (active) {
            json_decref(in);
            return DDB_OK;
        }
        usleep(200000);
        rc = DDB_TRANSPORT;
    }
    json_decref(in);
    if (rc == DDB_TRANSPORT && !*err)
        *err = v->o->stop && *v->o->stop
                   ? xstrdup("interrupted")
                   : xasprintf("table %s did not become ACTIVE within 2 minutes", v->table);
    return rc;
}

static ddb_status load_items(vctx *v, char **err)
{
    json_t *puts = json_array();
    for (size_t i = 0; i < v->w.n; i++)
        json_array_append_new(puts, json_pack("{s:{s:o}}", "PutRequest", "Item", items_json(v->w.v[i].item)));
    ddb_status rc = DDB_OK;
    for (size_t off = 0; off < json_array_size(puts) && rc == DDB_OK; off += 25) {
        json_t *chunk = json_array();
        for (size_t k = off; k < off + 25 && k < json_array_size(puts); k++)
            json_array_append(chunk, json_array_get(puts, k));
        for (int attempt = 0; attempt < 10 && json_array_size(chunk); attempt++) {
            json_t *in = json_pack("{s:{s:O}}", "RequestItems", v->table, chunk);
            json_t *resp = NULL;
            rc = ddb_call(v->db, "BatchWriteItem", in, &resp, err);
            json_decref(in);
            if (rc != DDB_OK)
                break;
            json_t *un = json_object_get(json_object_get(resp, "UnprocessedItems"), v->table);
            json_decref(chunk);
            chunk = json_array();
            if (un)
                json_array_extend(chunk, un);
            json_decref(resp);
            if (json_array_size(chunk))
                usleep((useconds_t)(50000u << attempt));
        }
        if (rc == DDB_OK && json_array_size(chunk)) {
            *err = xstrdup("BatchWriteItem kept leaving items unprocessed");
            rc = DDB_TRANSPORT;
        }
        json_decref(chunk);
    }
    json_decref(puts);
    return rc;
}

static char *fresh_table_name(const char *base)
{
    sbuf b;
    sbuf_init(&b);
    for (const char *c = base ? base : "keyplan"; *c && b.len < 180; c++)
        if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_' ||
            *c == '-' || *c == '.')
            sbuf_addc(&b, *c);
    sbuf_printf(&b, "%s-verify-%ld-%ld", b.len ? "" : "keyplan", (long)time(NULL), (long)getpid());
    return sbuf_steal(&b);
}

static bool is_read_plan(kp_plan p)
{
    return p == KP_PLAN_GET || p == KP_PLAN_QUERY || p == KP_PLAN_SCAN || p == KP_PLAN_MULTI;
}

static void print_line(const verify_opts *o, const char *status, const kp_pattern_result *r, const check *c)
{
    const kp_pattern *p = r->pattern;
    fprintf(o->out, "%-4s  %-4s %s  [%s", status, p->id ? p->id : "?", p->name ? p->name : "",
            kp_plan_word(r->plan));
    if (r->index_name && r->plan != KP_PLAN_OUTSIDE && r->plan != KP_PLAN_COVERED)
        fprintf(o->out, " on %s", r->index_name);
    fprintf(o->out, "]");
    if (c) {
        if (c->info.len)
            fprintf(o->out, " %s", c->info.s);
        if (c->requests)
            fprintf(o->out, " %zu request(s), %zu item(s);", c->requests, c->items);
        if (c->requests && c->cap_checked)
            fprintf(o->out, " capacity %.1f units measured, %.1f predicted (tolerance %.1f)%s", c->measured,
                    c->predicted, c->tolerance, c->cap_unchecked ? " for the checked requests" : "");
        else if (c->requests)
            fprintf(o->out,
                    " capacity %.1f units measured (not compared: updates, deletes and transactions "
                    "depend on the item's previous state and DynamoDB Local's accounting)",
                    c->measured);
        if (c->why.len)
            fprintf(o->out, "\n      why: %s", c->why.s);
    }
    fputc('\n', o->out);
}

/* Checks one pattern: a line, and the counters. Returns false when the run must stop (*err set). */
static bool verify_pattern(vctx *v, const kp_pattern_result *r, size_t *passed, size_t *failed,
                           size_t *skipped, char **err)
{
    const verify_opts *o = v->o;
    bool read = r->pattern->kind == KP_READ;
    check c = {0};
    sbuf_init(&c.why);
    sbuf_init(&c.info);
    bool go_on = true;
    if (r->plan == KP_PLAN_INVALID || r->nsteps == 0) {
        fail(&c, "the model has no plan for this pattern");
    } else if (read && r->plan == KP_PLAN_SCAN && r->pattern->nentities == 0) {
        sbuf_add(&c.info, "(names no entity: nothing to compare; the model says only a Scan could serve it)");
        print_line(o, "SKIP", r, &c);
        (*skipped)++;
        sbuf_free(&c.why);
        sbuf_free(&c.info);
        return true;
    } else if (read && is_read_plan(r->plan)) {
        verify_read(v, &c, r);
    } else {
        verify_write(v, &c, r);
    }
    if (!c.failed && !c.fatal && c.cap_checked && fabs(c.measured - c.predicted) > c.tolerance + 1e-9)
        fail(&c, "DynamoDB consumed %.1f capacity units where the model's rules give %.1f for the same items",
             c.measured, c.predicted);
    if (c.fatal) {
        *err = c.fatal_err;
        go_on = false;
    } else {
        print_line(o, c.failed ? "FAIL" : "PASS", r, &c);
        if (c.failed)
            (*failed)++;
        else
            (*passed)++;
    }
    sbuf_free(&c.why);
    sbuf_free(&c.info);
    return go_on;
}

kp_status verify_run(const kp_design *d, const kp_analysis *a, const verify_opts *o, verify_summary *sum,
                     char **err)
{
    *err = NULL;
    memset(sum, 0, sizeof *sum);
    if (!o->endpoint ||
        (strncmp(o->endpoint, "http://", 7) != 0 && strncmp(o->endpoint, "https://", 8) != 0)) {
        *err = xasprintf("--endpoint '%s' is not an http:// or https:// URL", o->endpoint ? o->endpoint : "");
        return KP_INVALID;
    }
    if (!d->table.name || !d->table.pk.s) {
        *err = xstrdup("the design has no table name or partition key");
        return KP_INVALID;
    }
    kp_creds cr;
    kp_status st = creds_load(&cr, o->region, err);
    if (st != KP_OK)
        return st;
    ddb *db = ddb_open(o->endpoint, &cr, err);
    creds_free(&cr);
    if (!db)
        return KP_NETWORK;

    vctx v = {.d = d, .a = a, .o = o, .db = db};
    v.table = fresh_table_name(d->table.name);
    item_sample_make(d, ITEM_DEFAULT_SEED, true, &v.sample);
    for (size_t i = 0; i < d->nentities; i++)
        for (size_t k = 0; k < v.sample.lists[i].n; k++)
            planeval_set_add(&v.w, d, &d->entities[i], &v.sample.lists[i].v[k]);

    bool created = false;
    json_t *resp = NULL;
    json_t *in = create_table_input(d, v.table);
    ddb_status rc = ddb_call(db, "CreateTable", in, &resp, err);
    json_decref(in);
    json_decref(resp);
    if (rc != DDB_OK) {
        if (rc == DDB_API) { /* DynamoDB refused the table the design describes */
            char *m = *err;
            *err = xasprintf("DynamoDB refused to create table %s from the design: %s", v.table, m);
            free(m);
        }
        st = KP_NETWORK;
        goto out;
    }
    created = true;
    if (wait_active(&v, err) != DDB_OK || load_items(&v, err) != DDB_OK || (o->stop && *o->stop)) {
        if (!*err)
            *err = xstrdup("interrupted");
        st = KP_NETWORK;
        goto out;
    }
    fprintf(o->out, "verify: table %s at %s: %zu sample items of %zu entities loaded\n", v.table, o->endpoint,
            v.w.n, d->nentities);
    fprintf(o->out, "verify: capacity is compared with the model's rules over the items each request reads; "
                    "tolerance one read unit per request\n");

    for (size_t i = 0; i < v.sample.ncoll; i++) {
        const item_collision *cx = &v.sample.coll[i];
        fprintf(o->out,
                "FAIL  keys  %s and %s items get the same primary key (%s): one overwrites the other\n",
                cx->entity->name, cx->other->name, cx->key);
        sum->failed++;
    }
    for (int pass = 0; pass < 2 && st == KP_OK; pass++) { /* reads first, then writes */
        for (size_t k = 0; a && k < a->npatterns; k++) {
            const kp_pattern_result *r = &a->patterns[k];
            if (o->stop && *o->stop) {
                *err = xstrdup("interrupted");
                st = KP_NETWORK;
                break;
            }
            if (!r->pattern)
                continue;
            bool read = r->pattern->kind == KP_READ;
            if ((pass == 0) != read)
                continue;
            if (r->plan == KP_PLAN_OUTSIDE || r->plan == KP_PLAN_COVERED) {
                if (pass == 0 || !read) {
                    print_line(o, "SKIP", r, NULL);
                    sum->skipped++;
                }
                continue;
            }
            if (!verify_pattern(&v, r, &sum->passed, &sum->failed, &sum->skipped, err)) {
                st = KP_NETWORK;
                break;
            }
        }
    }
    if (st == KP_OK)
        fprintf(o->out, "verify: %zu passed, %zu failed, %zu skipped (%zu requests)\n", sum->passed,
                sum->failed, sum->skipped, ddb_requests(db));
out:
    if (created) {
        json_t *del = json_pack("{s:s}", "TableName", v.table);
        json_t *dresp = NULL;
        char *derr = NULL;
        if (ddb_call(db, "DeleteTable", del, &dresp, &derr) == DDB_OK)
            fprintf(o->out, "verify: table %s deleted\n", v.table);
        else
            fprintf(o->err ? o->err : stderr, "keyplan: verify: could not delete table %s: %s\n", v.table,
                    derr ? derr : "?");
        free(derr);
        json_decref(dresp);
        json_decref(del);
    }
    item_sample_free(&v.sample);
    planeval_set_free(&v.w);
    free(v.table);
    ddb_close(db);
    return st;
}
