/* verify.c - `keyplan verify`: the design against a real DynamoDB endpoint (see verify.h). The
 * requests are built by requests.h, sent by ddb.h; what they should return is planeval.h's. */
#include "verify.h"
#include "i18n.h"

#include "capacity.h"
#include "ddb.h"
#include "humanfmt.h"
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
    bool cap_checked;               /* measured vs predicted is compared */
    bool cap_unchecked;             /* some requests' capacity is only reported */
    size_t cap_requests, cap_model; /* requests compared; of them, with the plan's own figure */
    bool cap_bad;                   /* a request's capacity differed (said once) */
    bool empty_query;               /* a Query read nothing (said once) */
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

/* Capacity is billed in steps of half a unit at the least (an eventual read of 4 KB): a request's
 * measured units must equal the prediction, within less than that step. */
#define CAP_TOLERANCE 0.25

/* One request's capacity: DynamoDB's `measured` units against the model's `predicted`, within
 * CAP_TOLERANCE, a tolerance below any prediction and any step: a request billed a step more or
 * less, or not at all, fails. `model`: `predicted` is the plan's own figure for the request (the
 * sample read the items the plan says it reads), not the model's rules applied to the items the
 * sample holds. */
static void cap_request(check *c, const char *what, double measured, double predicted, bool model)
{
    c->measured += measured;
    c->predicted += predicted;
    c->tolerance += CAP_TOLERANCE;
    c->cap_checked = true;
    c->cap_requests++;
    c->cap_model += model;
    if (fabs(measured - predicted) > CAP_TOLERANCE && !c->cap_bad) {
        c->cap_bad = true;
        /* TRANSLATORS: %1$s the request (Query PK=...), %2$.1f the units DynamoDB measured, %3$.1f the prediction */
        fail(
            c,
            model
                ? _("%1$s: DynamoDB consumed %2$.1f capacity units where the plan says %3$.1f")
                : _("%1$s: DynamoDB consumed %2$.1f capacity units where the model's rules over the same items "
                    "give %3$.1f"),
            what, measured, predicted);
    }
}

/* The rule of DynamoDB's a refusal breaks, from DynamoDB's own message (NULL when keyplan does not
 * know it): verify's failures name the rule, not only the message. */
static const char *refused_rule(const char *msg)
{
    static const struct {
        const char *says, *rule;
    } rules[] = {
        {"reserved keyword",
         N_("an attribute name that is one of DynamoDB's reserved words must be written through "
            "an ExpressionAttributeNames placeholder (#name)")},
        {"Syntax error; token",
         N_("an attribute name DynamoDB cannot read as itself (anything but an ASCII letter then letters, digits or "
            "'_', or a word of the grammar such as IN) must be written through an ExpressionAttributeNames "
            "placeholder")},
        {"ExpressionAttributeNames contains invalid key",
         N_("a name placeholder is '#' then letters, digits or '_', at most 255 bytes")},
        {"ExpressionAttributeValues contains invalid key",
         N_("a value placeholder is ':' then letters, digits or '_', at most 255 bytes")},
        {"unused in expressions",
         N_("every name and value a request declares must be used by its expressions")},
        {"Too many items requested for the BatchGetItem", N_("a BatchGetItem holds at most 100 keys")},
        {"Too many items requested for the BatchWriteItem",
         N_("a BatchWriteItem holds at most 25 puts or deletes")},
        {"Item size has exceeded",
         N_("an item is at most 400 KB (409,600 bytes, attribute names and values)")},
        {"must be between 1 and 255 characters",
         N_("a key attribute's (or a projected attribute's) name is 1 to 255 bytes")},
        {"primary key values must be under",
         N_("a partition key value is at most 2,048 bytes and a sort key value at most 1,024 bytes")},
        {"cannot contain an empty string value", N_("a key attribute's value cannot be an empty string")},
        {"Invalid table/index name",
         N_("a table or index name is 3 to 255 characters of a-z, A-Z, 0-9, '_', '-' and '.'")},
    };
    for (size_t i = 0; msg && i < sizeof rules / sizeof *rules; i++)
        if (strstr(msg, rules[i].says))
            return rules[i].rule;
    return NULL;
}

/* fail() for a request DynamoDB refused: its message, then the rule it breaks when known. */
static void refused(check *c, const char *op, const char *msg)
{
    const char *rule = refused_rule(msg);
    /* TRANSLATORS: %1$s the operation (Query), %2$s DynamoDB's own message (English), %3$s the rule it breaks */
    if (rule)
        fail(c, _("%1$s rejected: %2$s (the rule: %3$s)"), op, msg, _(rule));
    else
        fail(c, _("%s rejected: %s"), op, msg);
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
        fail(c, _("%s: %zu returned item(s) are not among the loaded items"), what, unknown);
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
        /* TRANSLATORS: %1$s the request, %2$zu items returned, %3$zu items expected, %4$s the key of an
           expected item that did not come back */
        if (missing)
            fail(
                c,
                _("%1$s: DynamoDB returned %2$zu item(s), the plan evaluated over the loaded items gives %3$zu "
                  "(missing %4$s)"),
                what, nret, nexp, first_missing);
        else
            fail(
                c,
                _("%1$s: DynamoDB returned %2$zu item(s), the plan evaluated over the loaded items gives %3$zu"),
                what, nret, nexp);
        if (extra)
            sbuf_printf(&c->why, _(" (unexpected %s)"), first_extra);
    } else if (ordered) {
        /* positions compared by sort-key value: items that tie may come back in any order */
        const char *sk = planeval_index_sk(d, s->index);
        for (size_t g = 0; sk && g < got.n && g < nexp; g++) {
            const char *a = item_text(got.v[g]->item, sk), *b = item_text(expected[g]->item, sk);
            if (a && b && strcmp(a, b) != 0) {
                fail(
                    c,
                    _("%s: items come back in another order than the sort key gives (item %zu is %s, expected %s)"),
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
            _("%s: %zu of %zu items are %s items (e.g. %s): the key condition %s also matches them, and the model "
              "predicted no filter (the plan needs a filter, or a sort-key prefix that tells the entities apart)"),
            what, foreign, got.n, ex->e ? ex->e->name : "unknown", ex->key,
            s->key_condition ? s->key_condition : "");
    else if (foreign && fm == FILTER_SENT)
        fail(c, _("%s: the model's filter '%s' lets %zu %s item(s) through (e.g. %s)"), what, filter, foreign,
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
            /* TRANSLATORS: %1$s the request, %2$s an attribute and %3$s the value asked, %4$zu items, %5$s an
               entity, %6$s an item's key, %7$s the value it has, %8$s the key condition */
            fail(
                c,
                fm == FILTER_NONE
                    ? _("%1$s: asked %2$s=%3$s, but %4$zu returned item(s) have another %2$s (e.g. %5$s item %6$s "
                        "with %2$s=%7$s): %8$s also matches them, and the model predicted no filter")
                    : _("%1$s: asked %2$s=%3$s, but %4$zu returned item(s) have another %2$s (e.g. %5$s item %6$s "
                        "with %2$s=%7$s): %8$s also matches them, and the model predicted a filter that keeps "
                        "them"),
                what, bad, want, nbad, w->e->name, w->key, have, s->key_condition ? s->key_condition : "");
            free(have);
            free(want);
            break;
        }
    }
    if (fm == FILTER_SENT && matched_own > 0 && mine == 0)
        fail(
            c,
            s->index >= 0 && d->indexes[s->index].projection != KP_PROJ_ALL
                ? _("%s: the key condition reads %zu %s item(s) but the model's filter '%s' drops them all (the "
                    "attribute it tests may not be projected on the index)")
                : _("%s: the key condition reads %zu %s item(s) but the model's filter '%s' drops them all"),
            what, matched_own, s->entity ? s->entity->name : "", filter);
    c->items += got.n;
    free(got.v);
}

/* `order: a [desc]` served by the key: the items DynamoDB returned are the partition's first by
 * a, over every item the key condition matches (planeval_order_break), not only in order among
 * themselves. */
static void check_order(vctx *v, check *c, const kp_pattern_result *r, const planeval_query *q,
                        const requests_filter *filt, const json_t *ret, const char *what)
{
    const kp_design *d = v->d;
    const kp_pattern *p = r->pattern;
    size_t n = json_array_size(ret), k = 0, i;
    const planeval_item **got = xcalloc(n + 1, sizeof *got);
    json_t *it;
    json_array_foreach((json_t *)ret, i, it)
    {
        char *key = returned_key(d, it);
        const planeval_item *w = planeval_set_find(&v->w, key);
        free(key);
        if (w)
            got[k++] = w;
    }
    const kp_value *have, *want;
    ptrdiff_t bad =
        planeval_order_break(d, &v->w, q, filt && filt->present ? &filt->expr : NULL,
                             filt && filt->present ? &filt->values : NULL, p, got, k, &have, &want);
    if (bad >= 0)
        fail(
            c,
            _("%s: the model says the sort key serves 'order: %s %s', but item %td that came back has %s=%s where "
              "the partition's items in that order give %s=%s (every item the key condition matches compared, not "
              "only the returned ones)"),
            what, p->order.s, p->order_desc ? "desc" : "asc", bad + 1, p->order.s, have ? have->text : "?",
            p->order.s, want ? want->text : _("(no more items)"));
    free(got);
}

/* Runs a request, following pages when no Limit; returns the items (new array) or NULL, and
 * the units DynamoDB consumed over its pages in *units. */
static json_t *run_paged(vctx *v, check *c, const char *op, json_t *in, const char *list_key, double *units)
{
    json_t *all = json_array();
    *units = 0;
    for (int page = 0; page < 100; page++) {
        json_t *resp = NULL;
        char *err = NULL;
        ddb_status rc = ddb_call(v->db, op, in, &resp, &err);
        if (rc != DDB_OK) {
            if (rc == DDB_TRANSPORT) {
                c->fatal = true;
                c->fatal_err = err;
            } else {
                refused(c, op, err);
                free(err);
            }
            json_decref(all);
            return NULL;
        }
        c->requests++;
        *units += consumed(resp);
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
                _("%s: asked %s between %s and %s, but %s item %s (%s=%s) is not returned: the upper bound %s = '%s' "
                  "stops at the value and sorts before the sort keys that continue after it (it needs a suffix that "
                  "sorts after them, e.g. '%s~')"),
                what, ra, lov, hiv, w->e->name, w->key, ra, val, kc->sk_value2, upper, upper);
            return;
        }
    }
}

/* The read capacity of `pages` requests of step s (a Query's 1 MB pages; 1 otherwise) that read
 * items[0..n): the plan's own units per request (s->rcu) when one request read the items the plan
 * says one request reads (s->items), else the model's rules (model/capacity.h) over the items read
 * with the sizes the model gives them, a Query's units page by page (a page holds items until
 * their size reaches 1 MB, the crossing item in; each page rounds on its own); at the consistency
 * the model bills (a GSI reads eventually). */
static void read_capacity(vctx *v, check *c, const kp_pattern_result *r, const kp_step *s, const char *what,
                          double measured, const planeval_item *const *items, size_t n, size_t pages)
{
    const kp_design *d = v->d;
    kp_consistency cons = r->pattern->consistency;
    ptrdiff_t index = s->op == KP_OP_BATCHGET ? -1 : s->index;
    if (index >= 0 && d->indexes[index].kind == KP_GSI)
        cons = KP_EVENTUAL;
    double bytes = 0, rule = 0, page = 0;
    for (size_t i = 0; i < n; i++) {
        double b = capacity_projected_bytes(d, items[i]->e, index);
        bytes += b;
        if (s->op == KP_OP_BATCHGET)
            rule += capacity_get_rcu(b, cons);
        if (s->op == KP_OP_QUERY && (page += b) >= CAP_PAGE_BYTES) { /* a page ends */
            rule += capacity_query_rcu(1, page, cons);
            page = 0;
        }
    }
    if (s->op == KP_OP_GETITEM)
        rule = capacity_get_rcu(bytes, cons);
    else if (s->op == KP_OP_QUERY && (page > 0 || rule == 0))
        rule += capacity_query_rcu(1, page, cons);
    else if (s->op == KP_OP_SCAN)
        rule = capacity_scan_rcu(bytes, cons);
    if (s->fetch && s->op == KP_OP_QUERY) /* an LSI fetching from the table: a read of each item */
        for (size_t i = 0; i < n; i++)
            rule += capacity_get_rcu((double)item_size(items[i]->item), cons);
    if (s->op == KP_OP_QUERY && n == 0 && measured == 0) {
        /* DynamoDB bills a Query that reads nothing its minimum unit (the model's rule); DynamoDB
           Local reports 0 for it: not comparable */
        if (!c->empty_query)
            sbuf_add(&c->info, _("(an empty Query: DynamoDB Local bills it 0 units, DynamoDB its minimum) "));
        c->empty_query = true;
        c->cap_unchecked = true;
        return;
    }
    bool own = s->op != KP_OP_SCAN && pages <= 1 && isfinite(s->items) && isfinite(s->rcu) &&
               fabs((double)n - s->items) < 0.5;
    cap_request(c, what, measured, own ? s->rcu : rule, own);
}

/* One Query or GetItem of a step with the values rendered from `binding` (lo/hi for ranges). */
static void run_keyed(vctx *v, check *c, const kp_pattern_result *r, const kp_step *s, const kp_item *binding,
                      const kp_item *lo, const kp_item *hi, const kp_item *by_binding, hits *out)
{
    const kp_design *d = v->d;
    const kp_pattern *p = r->pattern;
    char *err = NULL;
    if (!s->kc) {
        fail(c, _("the plan's %s has no key condition"), kp_op_name(s->op));
        return;
    }
    const expr_keycond kc = *s->kc;
    kp_item values = {0};
    requests_filter filt = {0};
    char *pv = render_value(d, s, kc.pk_value, binding);
    char *v1 = kc.sk_value ? render_value(d, s, kc.sk_value, kc.op == EXPR_SK_BETWEEN ? lo : binding) : NULL;
    char *v2 = kc.sk_value2 ? render_value(d, s, kc.sk_value2, hi) : NULL;
    if (!pv || (kc.sk_value && !v1) || (kc.sk_value2 && !v2)) {
        fail(c, _("the plan's values (%s) cannot be filled from a sample %s item"), kc.pk_value,
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
            sbuf_printf(&c->info, _("(filter '%s' checked as an entity filter) "),
                        s->filter ? s->filter : "");
        }
    }
    if (!in) {
        fail(c, "%s", err);
        free(err);
        goto done;
    }
    double units = 0;
    size_t before = c->requests;
    json_t *ret = run_paged(v, c, get ? "GetItem" : "Query", in, get ? NULL : "Items", &units);
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
    /* capacity: the plan's own figure when the sample read what the plan says (before any filter),
       else the model's rules over the items it read */
    size_t matched_own = 0;
    for (size_t i = 0; i < res.nread; i++)
        if (res.v[i]->e == s->entity || (!s->entity && entity_in_pattern(p, res.v[i]->e)))
            matched_own++;
    char *cw = xasprintf("%s %s", kp_op_name(s->op), pv);
    read_capacity(v, c, r, s, cw, units, res.v, res.nread, pages);
    free(cw);
    /* a Query returns at most 1 MB per request: the model's page rule over the same items */
    double bytes = 0;
    for (size_t i = 0; i < res.nread; i++)
        bytes += (double)planeval_read_bytes(d, s->index, res.v[i]->item);
    double want_pages = capacity_query_pages((double)res.nread, bytes);
    if (!get && !(isfinite(s->limit) && s->limit >= 1) && fabs((double)pages - want_pages) > 0.5)
        fail(
            c,
            _("%s %s: DynamoDB took %zu request(s) (1 MB pages) for %zu item(s) of %.0f bytes, the model's page "
              "rule gives %g"),
            kp_op_name(s->op), pv, pages, res.nread, bytes, want_pages);
    if (fm == FILTER_SENT && filt.present)
        planeval_filter(d, s->index, &filt.expr, &filt.values, NULL, NULL, &res);
    char *what = xasprintf("%s %s", kp_op_name(s->op), pv);
    compare(v, c, r, s, what, ret, res.v, res.n, res.v + res.n, res.nopt, !get, fm, s->filter, matched_own,
            by_binding, out);
    if (s == &r->steps[0] && !get && p->order.s && !r->app_sort && r->plan == KP_PLAN_QUERY)
        check_order(v, c, r, &q, fm == FILTER_SENT ? &filt : NULL, ret, what);
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
    double units = 0;
    json_t *ret = run_paged(v, c, "Scan", in, "Items", &units);
    if (!ret) {
        json_decref(in);
        requests_filter_free(&filt);
        return;
    }
    planeval_result res;
    planeval_scan(d, &v->w, s->index, &res);
    read_capacity(v, c, r, s, "Scan", units, res.v, res.nread, 1);
    /* a filter verify cannot evaluate: the pattern's `by` values, compared as text */
    if (filt.present)
        planeval_filter(d, s->index, &filt.expr, &filt.values, p, binding, &res);
    compare(v, c, r, s, "Scan", ret, res.v, res.n, NULL, 0, false, FILTER_CLIENT, s->filter, 0, NULL, out);
    planeval_result_free(&res);
    requests_filter_free(&filt);
    json_decref(ret);
    json_decref(in);
}

/* Sends step s's request `op` for the samples: the answer (caller json_decref), counted with
 * its consumed capacity; NULL when it could not be built or DynamoDB refused it (c says why). */
static json_t *call_step(vctx *v, check *c, const kp_pattern_result *r, const kp_step *s, const char *op,
                         const kp_item *const *samples, size_t n)
{
    char *err = NULL;
    json_t *in = requests_step_input(v->d, r, s, v->table, NULL, samples, n, false, NULL, &err);
    if (!in) {
        fail(c, "%s", err);
        free(err);
        return NULL;
    }
    json_t *resp = NULL;
    ddb_status rc = ddb_call(v->db, op, in, &resp, &err);
    json_decref(in);
    if (rc != DDB_OK) {
        if (rc == DDB_TRANSPORT) {
            c->fatal = true;
            c->fatal_err = err;
        } else {
            fail(c, _("%s rejected: %s"), op, err);
            free(err);
        }
        return NULL;
    }
    c->requests++;
    c->measured += consumed(resp);
    return resp;
}

/* The items of a BatchGetItem step, in requests as DynamoDB takes them: at most 100 keys, and
 * at most 16 MB of items (what one response returns), each request checked on its own. */
static void run_batchget(vctx *v, check *c, const kp_pattern_result *r, const kp_step *s,
                         const planeval_item **want, size_t nwant, hits *out)
{
    const kp_design *d = v->d;
    for (size_t off = 0; off < nwant && !c->fatal;) {
        size_t n = 0;
        double bytes = 0;
        while (off + n < nwant && n < REQUESTS_BATCHGET_MAX) {
            double b = (double)item_size(want[off + n]->item);
            if (n && bytes + b > CAP_BATCHGET_MAX_BYTES)
                break;
            bytes += b;
            n++;
        }
        const kp_item **samples = xcalloc(n, sizeof *samples);
        for (size_t i = 0; i < n; i++)
            samples[i] = want[off + i]->item;
        char *err = NULL;
        json_t *in = requests_step_input(d, r, s, v->table, NULL, samples, n, false, NULL, &err);
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
                refused(c, "BatchGetItem", err);
                free(err);
            }
            return;
        }
        c->requests++;
        if (json_object_size(json_object_get(resp, "UnprocessedKeys")))
            fail(
                c,
                _("BatchGetItem of %zu keys (%.0f bytes) left keys unprocessed: the plan's requests do not hold "
                  "them"),
                n, bytes);
        json_t *ret = json_object_get(json_object_get(resp, "Responses"), v->table);
        read_capacity(v, c, r, s, "BatchGetItem", consumed(resp), want + off, n, 1);
        json_t *none = json_array();
        compare(v, c, r, s, "BatchGetItem", ret ? ret : none, want + off, n, NULL, 0, false,
                r->filter || (s->filter && *s->filter) ? FILTER_CLIENT : FILTER_NONE, s->filter, 0, NULL,
                out);
        json_decref(none);
        json_decref(resp);
        off += n;
    }
}

/* A TransactGetItems: one Get per entity of the pattern, by the table key of the item that best
 * exercises the pattern (planeval_anchor), every other entity's item agreeing with the first's
 * `by` values. DynamoDB must return exactly those items, at 2 read units per 4 KB each. */
static void run_transactget(vctx *v, check *c, const kp_pattern_result *r, const kp_step *s, hits *out)
{
    const kp_design *d = v->d;
    const kp_pattern *p = r->pattern;
    const planeval_item *want[100];
    const kp_item *samples[100];
    size_t n = 0;
    const kp_item *first = NULL;
    for (size_t q = 0; q < p->nentities && n < 100; q++) {
        const kp_entity *e = design_entity(d, p->entities[q].s);
        const kp_item_list *items = entity_items(v, e);
        const kp_item *it = NULL;
        for (size_t i = 0; first && items && i < items->n && !it; i++)
            if (by_equal(p, &items->v[i], first))
                it = &items->v[i];
        if (!it)
            it = planeval_anchor(d, p, -1, items);
        if (!it)
            continue;
        if (!first)
            first = it;
        char *k = planeval_key_text(d, it);
        const planeval_item *w = planeval_set_find(&v->w, k);
        free(k);
        if (!w)
            continue;
        want[n] = w;
        samples[n++] = it;
    }
    if (n == 0) {
        fail(c, _("no sample item to read in a TransactGetItems"));
        return;
    }
    json_t *resp = call_step(v, c, r, s, "TransactGetItems", samples, n);
    if (!resp)
        return;
    json_t *ret = json_array();
    size_t i;
    json_t *x;
    json_array_foreach(json_object_get(resp, "Responses"), i, x) if (json_object_get(x, "Item"))
        json_array_append(ret, json_object_get(x, "Item"));
    double units = 0;
    for (size_t k = 0; k < n; k++)
        units += planeval_read_units((double)item_size(want[k]->item)) * 2; /* transactional */
    c->predicted += units;
    c->tolerance += 2;
    c->cap_checked = true;
    compare(v, c, r, s, "TransactGetItems", ret, want, n, NULL, 0, false, FILTER_NONE, NULL, 0, NULL, out);
    json_decref(ret);
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
        sbuf_printf(&c->info, _("fan-out over %zu values "), combos);
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
            if (nwant == 0) /* a join not run proves nothing */
                fail(
                    c,
                    _("step %zu (%s) did not run: the previous step's result names no loaded %s item through "
                      "the join, so the chain was not exercised"),
                    k + 1, kp_op_name(s->op), e ? e->name : "");
            free(want);
        } else if (s->op == KP_OP_BATCHGET && s->fetch) {
            /* the fetch after an index's Query: the items it returned, from the table */
            const planeval_item **want = xcalloc(prev.n + 1, sizeof *want);
            size_t nwant = 0;
            for (size_t i = 0; i < prev.n; i++)
                if (prev.v[i]->e == e)
                    want[nwant++] = prev.v[i];
            run_batchget(v, c, r, s, want, nwant, &got);
            free(want);
        } else if (s->op == KP_OP_TRANSACTGET) {
            run_transactget(v, c, r, s, &got);
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
                fail(c, _("no sample %s item lies on %s with the pattern's values"),
                     e ? e->name : "(no entity)", s->index < 0 ? _("the table") : d->indexes[s->index].name);
                free(got.v);
                break;
            }
            if (!bound) {
                item_copy(&binding, anchor);
                bound = true;
            }
            run_anchored(v, c, r, s, e, anchor, &binding, &got);
        }
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

/* The write units DynamoDB reports for index `name` in a ReturnConsumedCapacity INDEXES answer
 * (its global or local secondary indexes); 0 when it does not name it. */
static double index_units(const json_t *resp, const char *name)
{
    const json_t *cc = json_object_get(resp, "ConsumedCapacity");
    if (json_is_array(cc))
        cc = json_array_get(cc, 0);
    const char *groups[2] = {"GlobalSecondaryIndexes", "LocalSecondaryIndexes"};
    for (int g = 0; g < 2; g++) {
        const json_t *x = json_object_get(json_object_get(cc, groups[g]), name);
        if (x)
            return json_number_value(json_object_get(x, "CapacityUnits"));
    }
    return 0;
}

/* An update writes an index only when the index changes (DynamoDB's rule, planeval's figure for
 * the item before and after): every index's units, as DynamoDB reports them, against it. */
static void check_index_units(vctx *v, check *c, const json_t *resp, const kp_item *before,
                              const kp_item *after)
{
    const kp_design *d = v->d;
    sbuf_add(&c->info, _("(index write units measured/predicted:"));
    for (size_t x = 0; x < d->nindexes; x++) {
        double want = planeval_update_index_units(d, (ptrdiff_t)x, before, after);
        double got = index_units(resp, d->indexes[x].name);
        sbuf_printf(&c->info, " %s %g/%g", d->indexes[x].name, got, want);
        if (fabs(got - want) > 1e-9)
            fail(c,
                 _("the update consumed %g write units on %s where DynamoDB's rules give %g for the item "
                   "before and after it (an index is written only when its entry changes)"),
                 got, d->indexes[x].name, want);
    }
    sbuf_add(&c->info, ") ");
}

/* Puts `before` back after an update changed it (the later patterns find the loaded items as
 * they were); `moved`, when not NULL, is the item a key update put under a new key, deleted. */
static void restore_item(vctx *v, check *c, const kp_item *before, const kp_item *moved)
{
    for (int i = moved ? 0 : 1; i < 2 && !c->fatal; i++) {
        json_t *in = json_object();
        json_object_set_new(in, "TableName", json_string(v->table));
        if (i == 0) {
            json_t *key = json_object();
            const char *ks[2] = {v->d->table.pk.s, v->d->table.sk.s};
            for (int k = 0; k < 2; k++) {
                const kp_value *val = ks[k] ? item_get(moved, ks[k]) : NULL;
                if (val)
                    json_object_set_new(key, ks[k], json_pack("{s:s}", kp_vtype_name(val->type), val->text));
            }
            json_object_set_new(in, "Key", key);
        } else {
            json_object_set_new(in, "Item", items_json(before));
        }
        json_t *resp = NULL;
        char *err = NULL;
        if (ddb_call(v->db, i == 0 ? "DeleteItem" : "PutItem", in, &resp, &err) != DDB_OK) {
            fail(c, _("cannot restore the item after the update: %s"), err ? err : "?");
            free(err);
        }
        json_decref(resp);
        json_decref(in);
    }
}

/* A key update's transaction: the old key is gone, the new item is there. */
static void check_key_move(vctx *v, check *c, const kp_item *before, const kp_item *after)
{
    const kp_item *items[2] = {before, after};
    for (int i = 0; i < 2 && !c->fatal; i++) {
        json_t *key = json_object();
        const char *ks[2] = {v->d->table.pk.s, v->d->table.sk.s};
        for (int k = 0; k < 2; k++) {
            const kp_value *val = ks[k] ? item_get(items[i], ks[k]) : NULL;
            if (val)
                json_object_set_new(key, ks[k], json_pack("{s:s}", kp_vtype_name(val->type), val->text));
        }
        json_t *in = json_pack("{s:s,s:o,s:b}", "TableName", v->table, "Key", key, "ConsistentRead", 1);
        json_t *resp = NULL;
        char *err = NULL;
        ddb_status rc = ddb_call(v->db, "GetItem", in, &resp, &err);
        json_decref(in);
        if (rc != DDB_OK) {
            fail(c, _("GetItem after the key update rejected: %s"), err ? err : "?");
            free(err);
            return;
        }
        c->requests++;
        bool there = json_object_get(resp, "Item") != NULL;
        if (there != (i == 1)) {
            char *kt = planeval_key_text(v->d, items[i]);
            if (i)
                fail(c, _("after the Delete + Put the new key %s is missing"), kt);
            else
                fail(c, _("after the Delete + Put the old key %s is still there"), kt);
            free(kt);
        }
        json_decref(resp);
    }
    sbuf_add(&c->info, _("(old key deleted, new item put) "));
}

static void verify_write(vctx *v, check *c, const kp_pattern_result *r)
{
    const kp_design *d = v->d;
    const kp_pattern *p = r->pattern;
    for (size_t k = 0; k < r->nsteps && !c->fatal; k++) {
        const kp_step *s = &r->steps[k];
        const char *op = kp_op_name(s->op);
        if (s->op != KP_OP_PUTITEM && s->op != KP_OP_UPDATEITEM && s->op != KP_OP_DELETEITEM &&
            s->op != KP_OP_TRANSACTWRITE) /* a TransactGetItems is a read */
            continue;                     /* the read half of a find-then-write is not re-checked here */
        const kp_entity *e =
            s->entity ? s->entity : (p->nentities ? design_entity(d, p->entities[0].s) : NULL);
        const kp_item *samples[100];
        size_t ns = 0;
        kp_item_list hold = {0}; /* fresh items */
        kp_item changed = {0};   /* the item an update leaves */
        const kp_item *before = NULL;
        if (s->key_move || s->op == KP_OP_UPDATEITEM) {
            const kp_item_list *items = entity_items(v, e);
            if (items && items->n) {
                before = &items->v[items->n - 1];
                item_apply_changes(d, e, p->changes, p->nchanges, items, before, &changed);
                item_pad(e, &changed);
                if (s->key_move)
                    samples[ns++] = before;
                samples[ns++] = &changed;
            }
        } else if (s->op == KP_OP_TRANSACTWRITE) {
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
            fail(c, _("no sample %s item to write"), e ? e->name : "");
            item_list_free(&hold);
            item_free(&changed);
            continue;
        }
        char *err = NULL;
        json_t *in = requests_step_input(d, r, s, v->table, NULL, samples, ns, false, NULL, &err);
        if (!in) {
            fail(c, "%s", err);
            free(err);
            item_list_free(&hold);
            item_free(&changed);
            continue;
        }
        if (s->op == KP_OP_UPDATEITEM || s->key_move)
            json_object_set_new(in, "ReturnConsumedCapacity", json_string("INDEXES"));
        json_t *resp = NULL;
        ddb_status rc = ddb_call(v->db, op, in, &resp, &err);
        json_decref(in);
        if (rc == DDB_TRANSPORT) {
            c->fatal = true;
            c->fatal_err = err;
            item_list_free(&hold);
            item_free(&changed);
            return;
        }
        if (rc == DDB_API) {
            refused(c, op, err);
            free(err);
            item_list_free(&hold);
            item_free(&changed);
            continue;
        }
        if (s->op == KP_OP_UPDATEITEM && before)
            check_index_units(v, c, resp, before, &changed);
        if (s->key_move && before)
            check_key_move(v, c, before, &changed);
        if (before)
            restore_item(v, c, before, s->key_move ? &changed : NULL);
        c->requests++;
        c->items += ns;
        if (s->op == KP_OP_PUTITEM) {
            /* a new item: write units of the item and of each index holding it, to the byte */
            cap_request(c, "PutItem", consumed(resp), planeval_write_units(d, samples[0]), false);
        } else {
            c->measured += consumed(resp);
            c->cap_unchecked = true;
        }
        json_decref(resp);
        item_list_free(&hold);
        item_free(&changed);
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
                   ? xstrdup(_("interrupted"))
                   : xasprintf(_("table %s did not become ACTIVE within 2 minutes"), v->table);
    return rc;
}

/* One BatchWriteItem of `chunk` (puts), retrying what DynamoDB leaves unprocessed. */
static ddb_status write_chunk(vctx *v, json_t *chunk, char **err)
{
    ddb_status rc = DDB_OK;
    json_incref(chunk);
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
        *err = xstrdup(_("BatchWriteItem kept leaving items unprocessed"));
        rc = DDB_TRANSPORT;
    }
    json_decref(chunk);
    return rc;
}

/* Loads the sample items, entity by entity, in BatchWriteItem requests of 25 puts. An entity
 * whose items DynamoDB refuses gets a FAIL line with DynamoDB's answer and the rule it breaks
 * (*nrefused counts them; its other items are not sent); DDB_TRANSPORT (with *err) stops. */
static ddb_status load_items(vctx *v, size_t *nrefused, char **err)
{
    ddb_status rc = DDB_OK;
    for (size_t i = 0; i < v->w.n && rc == DDB_OK;) {
        const kp_entity *e = v->w.v[i].e;
        size_t end = i;
        while (end < v->w.n && v->w.v[end].e == e)
            end++;
        size_t biggest = 0;
        for (size_t off = i; off < end && rc == DDB_OK; off += REQUESTS_BATCHWRITE_MAX) {
            json_t *chunk = json_array();
            for (size_t k = off; k < off + REQUESTS_BATCHWRITE_MAX && k < end; k++) {
                size_t sz = item_size(v->w.v[k].item);
                biggest = sz > biggest ? sz : biggest;
                json_array_append_new(
                    chunk, json_pack("{s:{s:o}}", "PutRequest", "Item", items_json(v->w.v[k].item)));
            }
            rc = write_chunk(v, chunk, err);
            json_decref(chunk);
        }
        if (rc == DDB_API) {
            char nb[HUMANFMT_SIZE];
            /* TRANSLATORS: a line of verify's report: keep "FAIL  load  " (the status column) */
            fprintf(v->o->out, _("FAIL  load  %s: DynamoDB refused its sample items: %s"), e ? e->name : "?",
                    *err);
            if (biggest > ITEM_MAX_BYTES)
                fprintf(
                    v->o->out,
                    _("\n      why: an item of %s bytes (the entity's size) is over DynamoDB's item limit of 400 KB "
                      "(409,600 bytes, attribute names and values together)"),
                    humanfmt(nb, sizeof nb, (double)biggest, HF_NUM_REPORT));
            else if (refused_rule(*err))
                fprintf(v->o->out, _("\n      why: %s"), _(refused_rule(*err)));
            fputc('\n', v->o->out);
            free(*err);
            *err = NULL;
            (*nrefused)++;
            rc = DDB_OK;
        }
        i = end;
    }
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
        /* TRANSLATORS: after a plan (Query), the index it uses */
        fprintf(o->out, _(" on %s"), r->index_name);
    fprintf(o->out, "]");
    if (c) {
        if (c->info.len)
            fprintf(o->out, " %s", c->info.s);
        if (c->requests)
            fprintf(o->out, _(" %zu request(s), %zu item(s);"), c->requests, c->items);
        if (c->requests && c->cap_checked)
            fprintf(
                o->out,
                c->cap_unchecked
                    ? _(" capacity %.1f units measured, %.1f predicted (for the checked requests; each request "
                        "within a quarter unit; %zu of %zu request(s) by the plan's own figure)")
                    : _(" capacity %.1f units measured, %.1f predicted (each request within a quarter unit; %zu "
                        "of %zu request(s) by the plan's own figure)"),
                c->measured, c->predicted, c->cap_model, c->cap_requests);
        else if (c->requests)
            fprintf(o->out,
                    _(" capacity %.1f units measured (not compared: updates, deletes and transactions "
                      "depend on the item's previous state and DynamoDB Local's accounting)"),
                    c->measured);
        if (c->why.len)
            fprintf(o->out, _("\n      why: %s"), c->why.s);
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
        fail(&c, _("the model has no plan for this pattern"));
    } else if (read && r->plan == KP_PLAN_SCAN && r->pattern->nentities == 0) {
        sbuf_add(&c.info,
                 _("(names no entity: nothing to compare; the model says only a Scan could serve it)"));
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
        *err =
            xasprintf(_("--endpoint '%s' is not an http:// or https:// URL"), o->endpoint ? o->endpoint : "");
        return KP_INVALID;
    }
    if (!d->table.name || !d->table.pk.s) {
        *err = xstrdup(_("the design has no table name or partition key"));
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
    ddb_set_stop(db, o->stop);
    ddb_status rc = ddb_call(db, "CreateTable", in, &resp, err);
    json_decref(in);
    json_decref(resp);
    if (rc == DDB_API && *err && strstr(*err, "ResourceInUseException")) {
        /* the name is fresh (the time and our pid): a retry after an answer that was lost (a 500,
           a timeout) found the table the first attempt created. It is ours. */
        free(*err);
        *err = NULL;
        rc = DDB_OK;
    }
    if (rc != DDB_OK) {
        /* a request that never came back may still have created the table: delete it on the way
           out (a refusal by DynamoDB created nothing) */
        created = rc == DDB_TRANSPORT;
        if (rc == DDB_API) { /* DynamoDB refused the table the design describes */
            char *m = *err;
            const char *rule = refused_rule(m);
            /* TRANSLATORS: %1$s the table, %2$s DynamoDB's message (English), %3$s the rule it breaks */
            *err =
                rule ? xasprintf(
                           _("DynamoDB refused to create table %1$s from the design: %2$s (the rule: %3$s)"),
                           v.table, m, _(rule))
                     : xasprintf(_("DynamoDB refused to create table %s from the design: %s"), v.table, m);
            free(m);
        }
        st = KP_NETWORK;
        goto out;
    }
    created = true;
    size_t nrefused = 0;
    if (wait_active(&v, err) != DDB_OK || load_items(&v, &nrefused, err) != DDB_OK || (o->stop && *o->stop)) {
        if (!*err)
            *err = xstrdup(_("interrupted"));
        st = KP_NETWORK;
        goto out;
    }
    if (nrefused) {
        fprintf(
            o->out,
            ngettext("verify: DynamoDB refused the sample items of %zu entity: the patterns were not run\n",
                     "verify: DynamoDB refused the sample items of %zu entities: the patterns were not run\n",
                     nrefused),
            nrefused);
        sum->failed += nrefused;
        fprintf(o->out, _("verify: %zu passed, %zu failed, %zu skipped (%zu requests)\n"), sum->passed,
                sum->failed, sum->skipped, ddb_requests(db));
        goto out;
    }
    fprintf(o->out, _("verify: table %s at %s: %zu sample items of %zu entities loaded\n"), v.table,
            o->endpoint, v.w.n, d->nentities);
    fprintf(o->out,
            _("verify: capacity is compared request by request: with the plan's own units when the sample "
              "reads the items the plan says, else with the model's rules over the items read; within a "
              "quarter unit\n"));

    for (size_t i = 0; i < v.sample.ncoll; i++) {
        const item_collision *cx = &v.sample.coll[i];
        /* TRANSLATORS: a line of verify's report: keep "FAIL  keys  " (the status column) */
        fprintf(o->out,
                _("FAIL  keys  %s and %s items get the same primary key (%s): one overwrites the other\n"),
                cx->entity->name, cx->other->name, cx->key);
        sum->failed++;
    }
    for (int pass = 0; pass < 2 && st == KP_OK; pass++) { /* reads first, then writes */
        for (size_t k = 0; a && k < a->npatterns; k++) {
            const kp_pattern_result *r = &a->patterns[k];
            if (o->stop && *o->stop) {
                *err = xstrdup(_("interrupted"));
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
        fprintf(o->out, _("verify: %zu passed, %zu failed, %zu skipped (%zu requests)\n"), sum->passed,
                sum->failed, sum->skipped, ddb_requests(db));
out:
    if (created) {
        /* the table goes, whatever happened: after Ctrl-C, SIGHUP or SIGTERM too (the stop flag no
           longer cuts requests short), after a timeout, after a refusal */
        ddb_set_stop(db, NULL);
        json_t *del = json_pack("{s:s}", "TableName", v.table);
        json_t *dresp = NULL;
        char *derr = NULL;
        ddb_status drc = ddb_call(db, "DeleteTable", del, &dresp, &derr);
        if (drc == DDB_OK)
            fprintf(o->out, _("verify: table %s deleted\n"), v.table);
        else if (!(derr && strstr(derr, "ResourceNotFoundException"))) /* never created: nothing left */
            fprintf(o->err ? o->err : stderr, _("keyplan: verify: could not delete table %s: %s\n"), v.table,
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
