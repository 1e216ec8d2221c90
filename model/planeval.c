/* planeval.c - a plan's requests evaluated over a set of items (see planeval.h). */
#include "planeval.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the set ---------------------------------------------------------------------------------- */

char *planeval_key_text(const kp_design *d, const kp_item *item)
{
    const char *pk = item_text(item, d->table.pk.s);
    const char *sk = d->table.sk.s ? item_text(item, d->table.sk.s) : NULL;
    if (!pk)
        return xstrdup("?");
    return sk ? xasprintf("%s=%s, %s=%s", d->table.pk.s, pk, d->table.sk.s, sk)
              : xasprintf("%s=%s", d->table.pk.s, pk);
}

void planeval_set_add(planeval_set *s, const kp_design *d, const kp_entity *e, const kp_item *item)
{
    VEC_GROW(s->v, s->n, s->cap);
    s->v[s->n++] = (planeval_item){e, item, planeval_key_text(d, item)};
}

void planeval_set_free(planeval_set *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i].key);
    free(s->v);
    memset(s, 0, sizeof *s);
}

const planeval_item *planeval_set_find(const planeval_set *s, const char *key)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->v[i].key, key) == 0)
            return &s->v[i];
    return NULL;
}

/* ---- indexes and capacity ------------------------------------------------------------------- */

const char *planeval_index_pk(const kp_design *d, ptrdiff_t index)
{
    if (index < 0 || (size_t)index >= d->nindexes)
        return d->table.pk.s;
    return d->indexes[index].pk.s;
}

const char *planeval_index_sk(const kp_design *d, ptrdiff_t index)
{
    if (index < 0 || (size_t)index >= d->nindexes)
        return d->table.sk.s;
    return d->indexes[index].sk.s;
}

static const char *text_of(const kp_item *item, const char *attr)
{
    return attr ? item_text(item, attr) : NULL;
}

bool planeval_on_index(const kp_design *d, ptrdiff_t index, const kp_item *item)
{
    const char *pk = planeval_index_pk(d, index), *sk = planeval_index_sk(d, index);
    return text_of(item, pk) && (!sk || text_of(item, sk));
}

void planeval_project(const kp_design *d, ptrdiff_t index, const kp_item *item, kp_item *out)
{
    if (index < 0 || d->indexes[index].projection == KP_PROJ_ALL) {
        item_copy(out, item);
        return;
    }
    memset(out, 0, sizeof *out);
    const kp_index *x = &d->indexes[index];
    const char *names[4] = {d->table.pk.s, d->table.sk.s, x->pk.s, x->sk.s};
    for (int i = 0; i < 4; i++)
        if (names[i] && item_get(item, names[i]))
            item_set_value(out, names[i], item_get(item, names[i]));
    for (size_t i = 0; x->projection == KP_PROJ_INCLUDE && i < x->ninclude; i++)
        if (item_get(item, x->include[i].s))
            item_set_value(out, x->include[i].s, item_get(item, x->include[i].s));
}

size_t planeval_read_bytes(const kp_design *d, ptrdiff_t index, const kp_item *item)
{
    kp_item p;
    planeval_project(d, index, item, &p);
    size_t n = item_size(&p);
    item_free(&p);
    return n;
}

double planeval_read_factor(const kp_design *d, const kp_pattern *p, ptrdiff_t index)
{
    if ((p->consistency == KP_STRONG || p->consistency == KP_TRANSACTIONAL) &&
        (index < 0 || d->indexes[index].kind == KP_LSI))
        return 1;
    return 0.5;
}

double planeval_read_units(double bytes) { return bytes <= 0 ? 1 : ceil(bytes / 4096.0); }

double planeval_write_units(const kp_design *d, const kp_item *item)
{
    double u = ceil((double)item_size(item) / 1024.0);
    if (u < 1)
        u = 1;
    for (size_t i = 0; i < d->nindexes; i++)
        if (planeval_on_index(d, (ptrdiff_t)i, item)) {
            double x = ceil((double)planeval_read_bytes(d, (ptrdiff_t)i, item) / 1024.0);
            u += x < 1 ? 1 : x;
        }
    return u;
}

static double kb_units(size_t bytes)
{
    double u = ceil((double)bytes / 1024.0);
    return u < 1 ? 1 : u;
}

/* true when both views hold the same attributes with the same values. */
static bool same_view(const kp_item *a, const kp_item *b)
{
    if (a->n != b->n)
        return false;
    for (size_t i = 0; i < a->n; i++) {
        const kp_value *v = item_get(b, a->v[i].name);
        if (!v || kp_value_cmp(v, &a->v[i].v) != 0)
            return false;
    }
    return true;
}

double planeval_update_index_units(const kp_design *d, ptrdiff_t index, const kp_item *before,
                                   const kp_item *after)
{
    bool ob = planeval_on_index(d, index, before), oa = planeval_on_index(d, index, after);
    if (!ob && !oa)
        return 0;
    kp_item vb = {0}, va = {0};
    if (ob)
        planeval_project(d, index, before, &vb);
    if (oa)
        planeval_project(d, index, after, &va);
    double ub = ob ? kb_units(item_size(&vb)) : 0, ua = oa ? kb_units(item_size(&va)) : 0, units;
    if (ob != oa) {
        units = ob ? ub : ua; /* the entry leaves or enters the index */
    } else {
        const char *keys[2] = {planeval_index_pk(d, index), planeval_index_sk(d, index)};
        bool moved = false;
        for (int k = 0; k < 2; k++) {
            const kp_value *x = keys[k] ? item_get(before, keys[k]) : NULL;
            const kp_value *y = keys[k] ? item_get(after, keys[k]) : NULL;
            moved = moved || (x && y && kp_value_cmp(x, y) != 0);
        }
        units = moved ? ub + ua : same_view(&vb, &va) ? 0 : (ub > ua ? ub : ua);
    }
    item_free(&vb);
    item_free(&va);
    return units;
}

/* ---- queries ------------------------------------------------------------------------------- */

static bool numeric_key(const kp_design *d, const char *attr)
{
    return attr && item_key_type(d, attr) == KP_VAL_N;
}

/* Sorts by the index's sort key (then by table key, for ties); insertion sort: small sets,
 * stable. */
static void sort_items(const kp_design *d, const char *sk, const planeval_item **v, size_t n, bool forward)
{
    bool num = numeric_key(d, sk);
    for (size_t i = 1; i < n; i++) {
        const planeval_item *x = v[i];
        size_t j = i;
        while (j > 0) {
            int c = sk ? expr_key_cmp(num, item_text(v[j - 1]->item, sk), item_text(x->item, sk)) : 0;
            if (c == 0)
                c = strcmp(v[j - 1]->key, x->key);
            if (forward ? c <= 0 : c >= 0)
                break;
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x;
    }
}

void planeval_query_run(const kp_design *d, const planeval_set *s, const planeval_query *q,
                        planeval_result *out)
{
    memset(out, 0, sizeof *out);
    const expr_keycond *kc = q->kc;
    out->v = xcalloc(s->n + 1, sizeof *out->v);
    size_t n = 0;
    bool pknum = numeric_key(d, kc->pk), sknum = numeric_key(d, kc->sk);
    for (size_t i = 0; i < s->n; i++) {
        const kp_item *it = s->v[i].item;
        /* the partition first: most items are in another one (one look-up each) */
        const char *ipk = item_text(it, kc->pk);
        if (!ipk || expr_key_cmp(pknum, ipk, q->pk_value) != 0 || !planeval_on_index(d, q->index, it))
            continue;
        if (!expr_keycond_sk_match(kc, sknum, kc->sk ? item_text(it, kc->sk) : NULL, q->sk_value,
                                   q->sk_value2))
            continue;
        out->v[n++] = &s->v[i];
    }
    const char *isk = planeval_index_sk(d, q->index);
    sort_items(d, isk, out->v, n, q->forward);
    /* Limit: the first items by sort key; items tied with the last one kept are all possible */
    size_t nall = n, nopt = 0;
    if (isfinite(q->limit) && q->limit >= 1 && n > (size_t)q->limit) {
        size_t lim = (size_t)q->limit;
        const char *bv = isk ? item_text(out->v[lim - 1]->item, isk) : NULL;
        size_t first = lim; /* first item tied with the boundary value */
        while (bv && first > 0 && item_text(out->v[first - 1]->item, isk) &&
               strcmp(item_text(out->v[first - 1]->item, isk), bv) == 0)
            first--;
        size_t last = lim;
        while (bv && last < nall && item_text(out->v[last]->item, isk) &&
               strcmp(item_text(out->v[last]->item, isk), bv) == 0)
            last++;
        if (last > lim) { /* ties straddle the boundary */
            n = first;
            nopt = last - first;
        } else {
            n = lim;
        }
    }
    out->n = n;
    out->nopt = nopt;
    out->nall = nall;
    out->nread = nopt ? (size_t)q->limit : n;
    if (out->nread > nall)
        out->nread = nall;
}

void planeval_scan(const kp_design *d, const planeval_set *s, ptrdiff_t index, planeval_result *out)
{
    memset(out, 0, sizeof *out);
    out->v = xcalloc(s->n + 1, sizeof *out->v);
    for (size_t i = 0; i < s->n; i++)
        if (planeval_on_index(d, index, s->v[i].item))
            out->v[out->n++] = &s->v[i];
    out->nall = out->nread = out->n;
}

/* The pattern's `by` values on the item, compared as text (unfixed ones from `binding`). */
static bool by_match(const kp_pattern *p, const kp_item *item, const kp_item *binding)
{
    bool keep = true;
    for (size_t b = 0; b < p->nby && keep; b++) {
        const char *x = item_text(item, p->by[b].attr.s);
        const char *y = p->by[b].value ? p->by[b].value : item_text(binding, p->by[b].attr.s);
        keep = x && y && strcmp(x, y) == 0;
    }
    return keep;
}

void planeval_filter(const kp_design *d, ptrdiff_t index, const kp_expr *filter, const kp_item *values,
                     const kp_pattern *by, const kp_item *binding, planeval_result *r)
{
    size_t kept = 0, keptopt = 0;
    for (size_t i = 0; i < r->n + r->nopt; i++) {
        kp_item view;
        planeval_project(d, index, r->v[i]->item, &view);
        int keep = expr_eval(filter, &view, values);
        item_free(&view);
        if (keep < 0)
            keep = by && by_match(by, r->v[i]->item, binding);
        if (keep == 1) {
            r->v[kept + keptopt] = r->v[i];
            if (i < r->n)
                kept++;
            else
                keptopt++;
        }
    }
    r->n = kept;
    r->nopt = keptopt;
}

static bool in_pattern(const kp_pattern *p, const kp_entity *e)
{
    for (size_t i = 0; e && i < p->nentities; i++)
        if (p->entities[i].s && strcmp(p->entities[i].s, e->name) == 0)
            return true;
    return false;
}

ptrdiff_t planeval_order_break(const kp_design *d, const planeval_set *s, const planeval_query *q,
                               const kp_expr *filter, const kp_item *values, const kp_pattern *p,
                               const planeval_item *const *returned, size_t n, const kp_value **got,
                               const kp_value **want)
{
    const char *a = p->order.s;
    *got = *want = NULL;
    if (!a)
        return -1;
    planeval_query all = *q;
    all.limit = NAN;
    planeval_result res;
    planeval_query_run(d, s, &all, &res);
    if (filter)
        planeval_filter(d, q->index, filter, values, NULL, NULL, &res);
    const kp_value **vals = xcalloc(res.n + 1, sizeof *vals);
    size_t nv = 0;
    for (size_t i = 0; i < res.n; i++)
        if (in_pattern(p, res.v[i]->e) && item_get(res.v[i]->item, a))
            vals[nv++] = item_get(res.v[i]->item, a);
    for (size_t i = 1; i < nv; i++) { /* insertion sort: small sets */
        const kp_value *x = vals[i];
        size_t j = i;
        while (j > 0) {
            int c = kp_value_cmp(vals[j - 1], x);
            if (p->order_desc ? c >= 0 : c <= 0)
                break;
            vals[j] = vals[j - 1];
            j--;
        }
        vals[j] = x;
    }
    ptrdiff_t bad = -1;
    size_t k = 0;
    for (size_t i = 0; i < n && bad < 0; i++) {
        if (!in_pattern(p, returned[i]->e) || !item_get(returned[i]->item, a))
            continue;
        const kp_value *g = item_get(returned[i]->item, a);
        if (k >= nv || kp_value_cmp(g, vals[k]) != 0) {
            bad = (ptrdiff_t)k;
            *got = g;
            *want = k < nv ? vals[k] : NULL;
        }
        k++;
    }
    free(vals);
    planeval_result_free(&res);
    return bad;
}

void planeval_result_free(planeval_result *r)
{
    free(r->v);
    memset(r, 0, sizeof *r);
}

/* ---- choosing what to ask ---------------------------------------------------------------- */

static bool matches_fixed_by(const kp_design *d, const kp_pattern *p, const kp_item *item)
{
    for (size_t i = 0; p && i < p->nby; i++) {
        if (!p->by[i].value)
            continue;
        char *v = item_value_text(d, item, p->by[i].attr.s);
        bool ok = false; /* any of the values the pattern fixes the attribute to */
        for (size_t j = 0; v && j < p->nby && !ok; j++)
            ok = p->by[j].value && strcmp(p->by[j].attr.s, p->by[i].attr.s) == 0 &&
                 strcmp(v, p->by[j].value) == 0;
        free(v);
        if (!ok)
            return false;
    }
    return true;
}

size_t planeval_fixed_values(const kp_pattern *p, const char *attr, const char **out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; p && attr && i < p->nby && n < max; i++) {
        if (!p->by[i].value || strcmp(p->by[i].attr.s, attr) != 0)
            continue;
        bool dup = false;
        for (size_t j = 0; j < n; j++)
            dup = dup || strcmp(out[j], p->by[i].value) == 0;
        if (!dup)
            out[n++] = p->by[i].value;
    }
    return n >= 2 ? n : 0;
}

/* An item the index holds: its partition key and its place in the list. */
typedef struct keyed {
    const char *pk;
    size_t at;
} keyed;

/* By partition key, then by place. */
static int cmp_keyed(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    int c = strcmp(x->pk, y->pk);
    return c ? c : (x->at > y->at) - (x->at < y->at);
}

const kp_item *planeval_anchor(const kp_design *d, const kp_pattern *p, ptrdiff_t index,
                               const kp_item_list *items)
{
    const char *pk = planeval_index_pk(d, index), *sk = planeval_index_sk(d, index);
    if (!items || !items->n)
        return NULL;
    /* The first item (in the list's order) that the pattern's fixed values allow, of the largest
       partition the index holds. The items the index holds sorted by partition key then place:
       a partition is a run, its first allowed item the run's first that matches (n log n, and
       the fixed values checked until a run's first match, not on every item). */
    keyed *v = xcalloc(items->n, sizeof *v);
    size_t nk = 0;
    for (size_t j = 0; j < items->n; j++) {
        const char *w = item_text(&items->v[j], pk);
        if (w && (!sk || item_get(&items->v[j], sk)))
            v[nk++] = (keyed){w, j};
    }
    qsort(v, nk, sizeof *v, cmp_keyed);
    size_t best = 0, best_n = 0;
    for (size_t i = 0, end; i < nk; i = end) {
        for (end = i + 1; end < nk && strcmp(v[end].pk, v[i].pk) == 0; end++)
            ;
        size_t n = end - i;
        if (n < best_n)
            continue;
        for (size_t k = i; k < end; k++) {
            if (n == best_n && v[k].at >= best)
                break; /* as large as the best, and after it in the list */
            if (matches_fixed_by(d, p, &items->v[v[k].at])) {
                best = v[k].at;
                best_n = n;
                break;
            }
        }
    }
    free(v);
    return best_n ? &items->v[best] : NULL;
}

void planeval_range_bounds(const kp_design *d, const planeval_set *s, const kp_pattern *p, const kp_entity *e,
                           ptrdiff_t index, const kp_item *anchor, kp_item *lo, kp_item *hi)
{
    item_copy(lo, anchor);
    item_copy(hi, anchor);
    if (!p->range.s)
        return;
    const char *pk = planeval_index_pk(d, index);
    const char *pv = text_of(anchor, pk);
    const kp_value *vals[256];
    size_t n = 0;
    for (size_t i = 0; i < s->n && n < 256; i++) {
        const kp_item *it = s->v[i].item;
        if (s->v[i].e != e || !planeval_on_index(d, index, it) || !pv || !text_of(it, pk) ||
            strcmp(text_of(it, pk), pv) != 0)
            continue;
        if (item_get(it, p->range.s))
            vals[n++] = item_get(it, p->range.s);
    }
    if (n == 0)
        return;
    bool num = numeric_key(d, p->range.s);
    for (size_t i = 1; i < n; i++) /* insertion sort by value */
        for (size_t j = i; j > 0; j--) {
            const char *x = vals[j - 1]->text, *y = vals[j]->text;
            if (!x || !y || expr_key_cmp(num, x, y) <= 0)
                break;
            const kp_value *tmp = vals[j - 1];
            vals[j - 1] = vals[j];
            vals[j] = tmp;
        }
    item_set_value(lo, p->range.s, vals[n / 4]);
    item_set_value(hi, p->range.s, vals[(3 * n) / 4 < n ? (3 * n) / 4 : n - 1]);
}

size_t planeval_fanout(const kp_design *d, const kp_pattern *p, const kp_step *s, const char *out[4])
{
    size_t n = 0;
    if (!(isfinite(s->count) && s->count > 1))
        return 0;
    for (size_t i = 0; i < s->nvalues; i++) {
        tpl t;
        if (!s->values[i].value || tpl_parse(s->values[i].value, &t, NULL, NULL) != KP_OK)
            continue;
        for (size_t k = 0; k < t.n; k++) {
            if (t.parts[k].kind != TPL_ATTR)
                continue;
            const char *name = t.parts[k].text, *fixed[2];
            const kp_attr *a = design_attr(d, name);
            bool several = planeval_fixed_values(p, name, fixed, 2) > 0;
            if (!several && (!a || (a->type != KP_ATTR_SHARD && a->type != KP_ATTR_ENUM)))
                continue;
            bool known = false;
            for (size_t b = 0; b < p->nby; b++)
                if (strcmp(p->by[b].attr.s, name) == 0)
                    known = !several;
            for (size_t q = 0; q < n; q++)
                if (strcmp(out[q], name) == 0)
                    known = true;
            if (!known && n < 4)
                out[n++] = a ? a->name : name;
        }
        tpl_free(&t);
    }
    return n;
}

size_t planeval_value_count(const kp_attr *a)
{
    if (a->type == KP_ATTR_SHARD)
        return a->shard_count > 0 ? (size_t)a->shard_count : 10;
    return a->nvalues;
}

void planeval_set_value(kp_item *item, const kp_attr *a, size_t k)
{
    if (a->type == KP_ATTR_SHARD) {
        char *s = xasprintf("%zu", k);
        item_set(item, a->name, KP_VAL_N, s);
        free(s);
    } else {
        item_set(item, a->name, KP_VAL_S, a->values[k].name);
    }
}
