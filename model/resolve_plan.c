/* resolve_plan.c - the resolver's planning: the best way to read an entity.
 *
 * What the caller knows (a pattern's `by`, a join's keys); each index that holds the entity is
 * a candidate (eval_entity: the key condition it allows, fan-out, filters, order, range, items
 * matched); candidates are ranked on a lower bound first, and the mixed-collection sums are
 * computed only for the ones that can still win. A screen of several entities first looks for one
 * query serving them all (plan_screen).
 *
 * Plan choice: fewer requests; then the key that serves order, range and conditions
 * (no app sort, no filter); then fewer read units per call; then the base table. */
#include "resolve_int.h"

#include "humanfmt.h"
#include "i18n.h"
#include "item.h"
#include "textf.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void rs_kset_add(kset *k, const char *name, const char *value, const kp_attr *attr)
{
    if (!name)
        return;
    for (size_t i = 0; i < k->n; i++) {
        known *o = &k->v[i];
        if (strcmp(o->name, name) != 0)
            continue;
        /* another fixed value of a fixed attribute: any of them is asked */
        bool dup = !value || o->nvals == 0;
        for (size_t j = 0; j < o->nvals && !dup; j++)
            dup = strcmp(o->vals[j], value) == 0;
        if (!dup && o->nvals < KNOWN_VALS) {
            o->vals[o->nvals++] = value;
            o->value = NULL;
        }
        return;
    }
    VEC_GROW_INL(k->v, k->n, k->cap, k->inl);
    k->nfixed += value ? 1 : 0;
    known *n = &k->v[k->n++];
    memset(n, 0, sizeof *n);
    *n = (known){.name = name, .value = value, .attr = attr, .nvals = value ? 1 : 0, .vals = {value}};
}

void rs_kset_add_known(kset *K, const known *k)
{
    if (rs_kset_find(K, k->name))
        return;
    VEC_GROW_INL(K->v, K->n, K->cap, K->inl);
    K->nfixed += k->nvals ? 1 : 0;
    K->v[K->n++] = *k;
}

void rs_kset_free(kset *k)
{
    if (k->v != k->inl)
        free(k->v);
    k->v = NULL;
    k->n = k->cap = 0;
}

/* Fan-out width of an unbound partition placeholder: shard count or enum values; 0 = none. */
static double fanout_of(const rctx *c, const char *name)
{
    const kp_attr *a = rs_attr_of(c, name);
    if (!a)
        return 0;
    if (a->type == KP_ATTR_SHARD && a->shard_count > 0)
        return a->shard_count;
    if (a->type == KP_ATTR_ENUM && a->nvalues > 0)
        return (double)a->nvalues;
    return 0;
}

/* Does a fixed value satisfy a sparse condition? */
static bool cond_holds(const kp_sparse *s, const char *value)
{
    bool in = false;
    for (size_t i = 0; i < s->nvalues; i++)
        if (s->values[i].s && strcmp(s->values[i].s, value) == 0)
            in = true;
    return s->op == KP_COND_NE ? !in : in;
}

/* true when index xi holds attribute `attr` of its entries as an attribute of its own: every
 * attribute on the table and an ALL index; the table's and the index's key attributes; an
 * INCLUDE index's listed ones. DynamoDB refuses a FilterExpression on anything else (DynamoDB
 * Local: "Secondary index X does not project one or more filter attributes", on GSIs and LSIs
 * alike). */
static bool ix_projects(const rctx *c, const ixinfo *xi, const char *attr)
{
    if (xi->index < 0 || !attr)
        return true;
    const kp_index *x = &c->d->indexes[xi->index];
    if (x->projection == KP_PROJ_ALL)
        return true;
    const char *keys[4] = {c->d->table.pk.s, c->d->table.sk.s, xi->pk, xi->sk};
    for (int i = 0; i < 4; i++)
        if (keys[i] && strcmp(keys[i], attr) == 0)
            return true;
    if (x->projection == KP_PROJ_INCLUDE)
        for (size_t i = 0; i < x->ninclude; i++)
            if (x->include[i].s && strcmp(x->include[i].s, attr) == 0)
                return true;
    return false;
}

/* true when a read of entity e on xi gets `attr` back: projected, or a placeholder of e's template
 * for a projected key attribute (the application reads it out of the key). */
static bool ix_returns(const rctx *c, const ixinfo *xi, const kp_entity *e, const char *attr)
{
    if (ix_projects(c, xi, attr))
        return true;
    const char *keys[4] = {c->d->table.pk.s, c->d->table.sk.s, xi->pk, xi->sk};
    for (int i = 0; i < 4; i++) {
        const kp_keytpl *k = keys[i] ? entity_key(e, keys[i]) : NULL;
        if (k && tpl_has_attr(&k->tpl, attr))
            return true;
    }
    return false;
}

/* The first attribute the current read must return (c->want) that a read of e on xi does not
 * get back, NULL when it gets everything. */
static const char *returns_missing(const rctx *c, const ixinfo *xi, const kp_entity *e)
{
    if (xi->index < 0 || c->want_keys || c->d->indexes[xi->index].projection == KP_PROJ_ALL)
        return NULL;
    if (c->want_item) {
        /* the whole item: the same answer for every pattern, computed once per entity and index */
        size_t slot = (size_t)(e - c->d->entities) * c->nix + (size_t)(xi->index + 1);
        const char **memo = &c->item_miss[slot];
        if (*memo == NULL) {
            *memo = "";
            for (size_t i = 0; i < e->nattrs && !**memo; i++)
                if (e->attrs[i].s && !ix_returns(c, xi, e, e->attrs[i].s))
                    *memo = e->attrs[i].s;
        }
        return **memo ? *memo : NULL;
    }
    for (size_t i = 0; i < c->nwant; i++)
        if (c->want[i].s && !ix_returns(c, xi, e, c->want[i].s))
            return c->want[i].s;
    return NULL;
}

/* true when index xi's sort key holds numbers (DynamoDB's N): every template filling it is one
 * number placeholder (item_key_type), computed once per index. */
static bool sk_is_number(rctx *c, const ixinfo *xi)
{
    size_t k = (size_t)(xi->index + 1);
    if (!c->sk_num[k])
        c->sk_num[k] = xi->sk && item_key_type(c->d, xi->sk) == KP_VAL_N ? 1 : 2;
    return c->sk_num[k] == 1;
}

/* true when a zero-padded width `fmt` holds every value of number attribute a: a distinct count
 * of 10^width or more needs another digit (1000 sorts before 999 as text). */
static bool pad_holds(const kp_attr *a, const char *fmt)
{
    int w = fmt ? atoi(fmt) : 0;
    if (w <= 0)
        return false;
    return isnan(a->distinct) || a->distinct < pow(10, w);
}

/* true when sort-key part `part` of entry en on xi is a number that sorts as text: a number
 * attribute inside a string sort key (literals around it, or another entity filling the key with
 * text), not zero-padded wide enough. DynamoDB compares string keys byte by byte: P#1, P#10,
 * P#4. */
static bool sorts_as_text(rctx *c, const ixinfo *xi, const entry *en, size_t part)
{
    const tpl_part *pt = &en->sk.parts[part];
    const kp_attr *a = rs_attr_of(c, pt->text);
    if (!a || a->type != KP_ATTR_NUMBER || sk_is_number(c, xi))
        return false;
    return !pad_holds(a, pt->format ? pt->format : a->format);
}

const char *rs_mixed_tag(const cand *cd)
{
    const kp_entity *e = cd->en->e;
    for (size_t i = 0; i < e->nattrs; i++)
        if (cd->collider && !entity_carries(cd->collider->e, e->attrs[i].s) &&
            !entity_knows(cd->collider->e, e->attrs[i].s))
            return e->attrs[i].s;
    return NULL;
}

static bool cand_better(const cand *a, const cand *b)
{
    if (a->reqs != b->reqs) /* pages x fan-out, plus a fetch's requests (cand_fetch) */
        return a->reqs < b->reqs;
    if (a->fanout != b->fanout)
        return a->fanout < b->fanout;
    if (a->quality != b->quality)
        return a->quality < b->quality;
    double ra = a->rcu * a->fanout, rb = b->rcu * b->fanout;
    if (fabs(ra - rb) > 1e-9)
        return ra < rb;
    return a->xi->index < b->xi->index;
}

/* Marks the entities a pattern asks for, by position (mixed collections of those need no filter). */
static void mark_asked(rctx *c, const size_t *asked, size_t nasked)
{
    c->stamp++;
    c->nasked = nasked;
    for (size_t i = 0; i < nasked; i++)
        c->mark[asked[i]] = c->stamp;
}

static void pinfo_init(rctx *c, const kp_pattern *p, const kset *K, const kp_entity *e, pinfo *pi)
{
    memset(pi, 0, sizeof *pi);
    for (size_t i = 0; i < K->n && i < PI_MAX; i++)
        pi->knows[i] = rs_knows(c, e, K->v[i].name);
    pi->range_known = p->range.s && rs_knows(c, e, p->range.s);
    pi->filter_sel = 1;
    for (size_t i = 0; i < p->nfilter; i++) {
        if (!p->filter[i].s || !rs_knows(c, e, p->filter[i].s))
            continue;
        double s = rs_selectivity(c, p->filter[i].s, NULL);
        if (isnan(s)) {
            s = UNKNOWN_SELECTIVITY;
            pi->filter_unknown = true;
        }
        pi->filter_sel *= s;
        pi->nfilter++;
    }
}

static bool pi_knows(const pinfo *pi, const kset *K, const kp_entity *e, size_t i)
{
    return i < PI_MAX ? pi->knows[i] : entity_knows(e, K->v[i].name);
}

/* Evaluates entity entry `en` on index `xi` for pattern p with known set K (pi: what the
 * entity knows of it; the asked entities are marked, see mark_asked). false when the index
 * cannot serve it; *strong_refused set when only consistency forbade it. */
static bool eval_entity(rctx *c, const kp_pattern *p, const kset *K, ixinfo *xi, const entry *en,
                        const pinfo *pi, bool screen, const char *skfan, cand *out, bool *strong_refused)
{
    memset(out, 0, sizeof *out);
    out->xi = xi;
    out->en = en;
    out->fanout = 1;
    const kp_entity *e = en->e;

    /* sparse membership: the index must hold every item the pattern asks for. DynamoDB indexes
     * an item exactly when it has every key attribute of the index: the rules deciding it are
     * one (the key pair set together, the default) or two (set independently) */
    double share_adj = en->share;
    const char *sparse_fixed_attr[2] = {NULL, NULL};
    if (xi->index >= 0) {
        share_adj = 1;
        const kp_sparse *rules[2];
        size_t nr = e->nsparse ? capacity_index_rules(c->d, e, xi->index, rules) : 0;
        for (size_t i = 0; i < nr; i++) {
            const kp_sparse *s = rules[i];
            if (s->kind == KP_SPARSE_COND) {
                const known *k = s->cond_attr.s ? rs_kset_find(K, s->cond_attr.s) : NULL;
                bool holds = k && k->nvals > 0; /* every value asked is on the index */
                for (size_t v = 0; holds && v < k->nvals; v++)
                    holds = cond_holds(s, k->vals[v]);
                if (!holds) {
                    out->why = WN_SPARSE;
                    out->why_attr = s->attr.s;
                    return false;
                }
                sparse_fixed_attr[i] = s->cond_attr.s;
            } else {
                share_adj *= isnan(s->share) ? 1 : s->share;
            }
        }
    }
    if (xi->gsi && p->consistency != KP_EVENTUAL) {
        *strong_refused = true;
        out->why = WN_STRONG;
        return false;
    }
    if (xi->index >= 0 && p->consistency == KP_TRANSACTIONAL) {
        out->why = WN_TRANSACT; /* TransactGetItems reads the table by key, never an index */
        return false;
    }

    /* bound attributes (unique names) and their selectivity */
    const char *bound[32];
    size_t nbound = 0;
    bool unknown = false;
    double sel = 1;
    bool fanned_ = false; /* BIND of a fanned-out placeholder no one gave: every value, 1 */
#define BIND(nm)                                                                             \
    do {                                                                                     \
        bool dup_ = false;                                                                   \
        for (size_t b_ = 0; b_ < nbound; b_++)                                               \
            if (strcmp(bound[b_], (nm)) == 0)                                                \
                dup_ = true;                                                                 \
        if (!dup_ && nbound < 32) {                                                          \
            bound[nbound++] = (nm);                                                          \
            const known *k_ = rs_kset_find(K, (nm));                                         \
            double s_ = k_ ? rs_known_sel(k_) : fanned_ ? 1 : rs_selectivity(c, (nm), NULL); \
            if (isnan(s_)) {                                                                 \
                unknown = true;                                                              \
                if (!out->unknown_attr)                                                      \
                    out->unknown_attr = (nm);                                                \
            } else                                                                           \
                sel *= s_;                                                                   \
        }                                                                                    \
    } while (0)

    /* 1. partition */
    for (size_t i = 0; i < en->pk.n; i++) {
        const tpl_part *pt = &en->pk.parts[i];
        if (pt->kind != TPL_ATTR)
            continue;
        const known *k = rs_kset_find(K, pt->text);
        if (k) {
            if (k->nvals > 1) { /* several fixed values: one query per value */
                out->fanout *= (double)k->nvals;
                if (!out->fanout_attr)
                    out->fanout_attr = pt->text;
            }
            BIND(pt->text);
            continue;
        }
        double f = fanout_of(c, pt->text);
        if (f <= 0) {
            out->why = WN_PK_UNBOUND;
            out->why_attr = pt->text;
            return false;
        }
        out->fanout *= f;
        if (!out->fanout_attr)
            out->fanout_attr = pt->text;
    }
    if (rs_is_const(&en->pk))
        out->warn |= W_CONST_PK;

    /* 2. sort key walk */
    if (!xi->sk) {
        out->kind = SKC_EXACT;
    } else {
        size_t i = 0;
        for (; i < en->sk.n; i++) {
            const tpl_part *pt = &en->sk.parts[i];
            if (pt->kind == TPL_LIT)
                continue;
            const known *k = rs_kset_find(K, pt->text);
            if (rs_known_one(k))
                continue;
            if (!skfan || strcmp(skfan, pt->text) != 0)
                break;
            /* the fan-out variant: one query per value of this placeholder */
            double f = k ? (double)k->nvals : fanout_of(c, pt->text);
            if (f <= 1)
                break;
            out->fanout *= f;
            out->skfan = pt->text;
            out->alt = true;
        }
        out->sk_end = i;
        if (i == en->sk.n)
            out->kind = SKC_EXACT;
        else {
            out->next = en->sk.parts[i].text;
            bool ranged = p->range.s && strcmp(out->next, p->range.s) == 0;
            bool ordered = p->order.s && !screen && strcmp(out->next, p->order.s) == 0;
            if ((ranged || ordered) && sorts_as_text(c, xi, en, i)) {
                out->text_attr = out->next; /* neither its order nor a range of it is the key's */
                out->text_part = i;
                ranged = false;
            }
            if (ranged)
                out->kind = SKC_BETWEEN;
            else
                out->kind = i > 0 ? SKC_BEGINS : SKC_NONE;
        }
        for (size_t j = 0; j < out->sk_end; j++)
            if (en->sk.parts[j].kind == TPL_ATTR) {
                fanned_ = out->skfan && strcmp(out->skfan, en->sk.parts[j].text) == 0;
                BIND(en->sk.parts[j].text);
                fanned_ = false;
            }
    }
    for (int i = 0; i < 2; i++)
        if (sparse_fixed_attr[i])
            BIND(sparse_fixed_attr[i]);
    size_t nkey_bound = nbound;

    /* attributes of K the entity knows but the key does not use: filter */
    double fsel = 1;
    const char *filters[32];
    size_t nfilters = 0;
    size_t known_to_entity = 0;
    for (size_t i = 0; i < K->n; i++) {
        if (!pi_knows(pi, K, e, i))
            continue;
        known_to_entity++;
        bool used = false;
        for (size_t b = 0; b < nkey_bound; b++)
            if (strcmp(bound[b], K->v[i].name) == 0)
                used = true;
        if (used)
            continue;
        if (nfilters < 32)
            filters[nfilters++] = K->v[i].name;
        double s = rs_known_sel(&K->v[i]);
        if (isnan(s)) {
            s = UNKNOWN_SELECTIVITY;
            out->warn |= W_UNKNOWN_SEL;
        }
        fsel *= s;
    }
    if (known_to_entity > 0 && nkey_bound == 0) {
        out->why = WN_NO_KEY_USE;
        return false; /* the key uses nothing the caller knows: this is a scan */
    }

    out->get = xi->index < 0 && out->kind == SKC_EXACT; /* GetItem (one per fan-out value) */

    /* order, range, limit */
    bool order_asked = p->order.s && !screen;
    bool order_served = !order_asked || out->get ||
                        (out->next && strcmp(out->next, p->order.s) == 0 && out->text_attr != out->next);
    out->app_sort = !order_served;
    out->range_unserved = p->range.s && !screen && out->kind != SKC_BETWEEN && pi->range_known;

    /* a FilterExpression may only test what the index projects */
    if (xi->index >= 0 && c->d->indexes[xi->index].projection != KP_PROJ_ALL) {
        const char *miss = NULL;
        for (size_t i = 0; i < nfilters && !miss; i++)
            if (!ix_projects(c, xi, filters[i]))
                miss = filters[i];
        if (!miss && out->range_unserved && !ix_projects(c, xi, p->range.s))
            miss = p->range.s;
        for (size_t i = 0; i < p->nfilter && !miss; i++)
            if (p->filter[i].s && rs_knows(c, e, p->filter[i].s) && !ix_projects(c, xi, p->filter[i].s))
                miss = p->filter[i].s;
        if (miss) {
            out->why = WN_PROJ_FILTER;
            out->why_attr = miss;
            return false;
        }
    }
    out->fetch_attr = p->kind == KP_READ ? returns_missing(c, xi, e) : NULL;
    out->fetch = out->fetch_attr != NULL;
    if (out->range_unserved)
        fsel *= UNKNOWN_SELECTIVITY;
    fsel *= pi->filter_sel;
    nfilters += pi->nfilter;
    if (pi->filter_unknown)
        out->warn |= W_UNKNOWN_SEL;
    bool has_limit = !isnan(p->limit) && p->limit > 0 && !screen;
    out->limit_pushed = has_limit && order_served && !out->get;

    /* items */
    double count = isnan(e->count) ? 0 : e->count;
    if (out->get) {
        out->matched = out->fanout;
    } else if (unknown) {
        out->matched = out->kind == SKC_EXACT ? 1 : DEFAULT_COLLECTION;
        if (out->matched > count * share_adj)
            out->matched = count * share_adj;
        out->warn |= W_UNKNOWN_DIST;
    } else {
        out->matched = count * share_adj * sel;
    }
    double per_req = out->matched / out->fanout;
    double amp = fsel > 0 ? 1.0 / fsel : 1.0;
    double mine;
    if (out->get)
        mine = 1;
    else if (out->limit_pushed) {
        mine = p->limit * amp;
        if (mine > per_req)
            mine = per_req;
    } else
        mine = per_req;
    if (!isnan(p->items) && p->kind == KP_READ)
        mine = p->items / out->fanout;

    out->mine = mine;
    out->per_req = per_req;
    out->fsel = fsel;
    out->has_limit = has_limit;
    out->has_filters = nfilters > 0;
    return true;
#undef BIND
}

/* The fetch of what index cd does not project, on top of rs_cand_finish's figures. A GSI's
 * Query returns only what it projects: the items come from the table by key, BatchGetItem in
 * batches of 100, each item rounded up to 4 KB (one request more per 100 results, its latency
 * after the Query's). An LSI fetches them itself within the Query (Select ALL_ATTRIBUTES):
 * DynamoDB Local bills each result as a read of the table's item, rounded up to 4 KB. */
static void cand_fetch(const kp_pattern *p, cand *cd)
{
    cd->fetch_requests = cd->fetch_rcu = 0;
    cd->reqs = cd->fanout * cd->pages; /* each 1 MB page of each query is a request */
    if (!cd->fetch)
        return;
    double size = util_nz(cd->en->e->size), n = cd->result > 0 ? cd->result : 0;
    if (cd->xi->gsi) {
        double batches = ceil(n / CAP_BATCHGET_MAX_ITEMS);
        cd->fetch_requests = batches < 1 ? 1 : batches;
        cd->fetch_rcu = capacity_batchget_rcu(n, size, p->consistency);
        cd->latency += LAT_RTT_MS + n * size / CAP_PAGE_BYTES * LAT_MS_PER_MB;
        cd->reqs += cd->fetch_requests;
    } else {
        cd->fetch_rcu = capacity_batchget_rcu(n, size, p->consistency);
        cd->rcu += cd->fetch_rcu / cd->fanout;
        cd->latency += n * size / CAP_PAGE_BYTES * LAT_MS_PER_MB;
    }
}

/* The candidate's mixed-collection filter can be sent: the index projects what it tests. */
static bool mixed_filter_ok(const rctx *c, const cand *cd, const char **miss)
{
    if (!cd->mixed)
        return true;
    const char *tag = rs_mixed_tag(cd);
    *miss = tag ? tag : "entityType";
    return ix_projects(c, cd->xi, *miss);
}

/* The sort-key placeholder where candidate cd's walk stopped, when one query per value of it is
 * a plan too: a placeholder the pattern fixes to several values (status=paid, status=shipped),
 * or an enum, shard or bool that the range attribute follows in the sort key (each query then a
 * range: {status}-{day}-...). NULL otherwise. */
static const char *fan_choice(const rctx *c, const kp_pattern *p, const kset *K, const cand *cd)
{
    if (!cd->next || cd->kind == SKC_BETWEEN || cd->get)
        return NULL;
    const known *k = rs_kset_find(K, cd->next);
    if (k)
        return k->nvals > 1 ? cd->next : NULL;
    if (!p->range.s || fanout_of(c, cd->next) <= 1)
        return NULL;
    const keyview *v = &cd->en->sk;
    for (size_t j = cd->sk_end + 1; j < v->n; j++)
        if (v->parts[j].kind == TPL_ATTR && strcmp(v->parts[j].text, p->range.s) == 0)
            return cd->next;
    return NULL;
}

double rs_cand_cost(const cand *cd) { return cd->rcu * cd->fanout + (cd->xi->gsi ? cd->fetch_rcu : 0); }

/* One query per value (a) against the plan with a filter (b): the cheaper in read units, then
 * the one the key serves (no filter), then fewer requests. */
static bool alt_wins(const cand *a, const cand *b)
{
    double ca = rs_cand_cost(a), cb = rs_cand_cost(b);
    if (fabs(ca - cb) > 1e-9)
        return ca < cb;
    return a->quality < b->quality;
}

bool rs_best_for_entity(rctx *c, const kp_pattern *p, const kset *K, size_t epos, const size_t *asked,
                        size_t nasked, bool screen, cand *best, cand *other, bool *strong_refused)
{
    pinfo pi;
    pinfo_init(c, p, K, &c->d->entities[epos], &pi);
    mark_asked(c, asked, nasked);
    if (other)
        other->finished = false;
    /* every index's candidate with a lower bound (no mixed collection), and its fan-out
       variant when it has one ... */
    cand *cs = c->cands;
    size_t n = 0;
    for (size_t k = 0; k < c->nix; k++) {
        const entry *en = c->on[epos * c->nix + k];
        c->rej[k] = (reject){WN_NOT_ON, NULL};
        if (!en)
            continue;
        if (!eval_entity(c, p, K, &c->ix[k], en, &pi, screen, NULL, &cs[n], strong_refused)) {
            c->rej[k] = (reject){cs[n].why, cs[n].why_attr};
            continue;
        }
        c->rej[k] = (reject){WN_NONE, NULL};
        rs_cand_finish(c, p, K, &cs[n], false);
        cand_fetch(p, &cs[n]);
        const char *fan = screen ? NULL : fan_choice(c, p, K, &cs[n]);
        n++;
        bool sr = false;
        if (fan && eval_entity(c, p, K, &c->ix[k], en, &pi, screen, fan, &cs[n], &sr) && cs[n].alt) {
            rs_cand_finish(c, p, K, &cs[n], false);
            cand_fetch(p, &cs[n]);
            n++;
        }
    }
    if (n == 0)
        return false;
    /* ... then, best bound first, the real figures until no bound can beat the best */
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && cand_better(&cs[j], &cs[j - 1]); j--) {
            cand t = cs[j];
            cs[j] = cs[j - 1];
            cs[j - 1] = t;
        }
    bool found = false;
    for (size_t i = 0; i < n; i++) {
        if (cs[i].alt)
            continue;
        if (found && !cand_better(&cs[i], best))
            break; /* mixed collections only make a candidate worse */
        rs_cand_finish(c, p, K, &cs[i], true);
        cand_fetch(p, &cs[i]);
        const char *miss = NULL;
        if (!mixed_filter_ok(c, &cs[i], &miss)) {
            c->rej[cs[i].xi->index + 1] = (reject){WN_PROJ_FILTER, miss};
            continue;
        }
        if (!found || cand_better(&cs[i], best)) {
            *best = cs[i];
            found = true;
        }
    }
    /* one query per value against one query with a filter: the cheaper (then fewer requests) */
    const cand *alt = NULL;
    for (size_t i = 0; i < n; i++) {
        if (!cs[i].alt)
            continue;
        rs_cand_finish(c, p, K, &cs[i], true);
        cand_fetch(p, &cs[i]);
        const char *miss = NULL;
        if (!mixed_filter_ok(c, &cs[i], &miss))
            continue; /* its mixed-collection filter would be refused */
        if (!alt || alt_wins(&cs[i], alt))
            alt = &cs[i];
    }
    if (alt && (!found || alt_wins(alt, best))) {
        if (other && found)
            *other = *best;
        *best = *alt;
    } else if (alt && other) {
        *other = *alt;
    }
    return found || alt;
}

void rs_known_from_by(const rctx *c, const kp_pattern *p, kset *K)
{
    for (size_t i = 0; i < p->nby; i++)
        rs_kset_add(K, p->by[i].attr.s, p->by[i].value, rs_attr_of(c, p->by[i].attr.s));
}

/* The bytes entry en's sort keys (which begin with its leading literal) hold at byte `at`, no
 * further than that literal's end: a byte of the literal, else the first bytes of the
 * placeholder after it; *ends when a key may end there. */
static void sk_next_bytes(const rctx *c, const entry *en, size_t at, ov_bytes *out, bool *ends)
{
    memset(out, 0, sizeof *out);
    *ends = false;
    if (at < en->sk_lead_len) {
        unsigned char b = (unsigned char)en->sk_lead[at];
        out->w[b >> 6] |= (uint64_t)1 << (b & 63);
        return;
    }
    size_t i = en->sk.n > 0 && en->sk.parts[0].kind == TPL_LIT ? 1 : 0;
    if (i >= en->sk.n) {
        *ends = true;
        return;
    }
    ov_first_bytes(c->dom, en->sk.parts[i].text, out);
}

static int byte_lo(const ov_bytes *s)
{
    for (int b = 0; b < 256; b++)
        if (ov_bytes_has(s, (unsigned char)b))
            return b;
    return 256;
}

static int byte_hi(const ov_bytes *s)
{
    for (int b = 255; b >= 0; b--)
        if (ov_bytes_has(s, (unsigned char)b))
            return b;
    return -1;
}

/* Where entry x's sort keys sort against entry o's in one partition: -1 every one before, +1
 * every one after, 0 they may interleave. Decided where their leading literals part, on the
 * literal bytes or the first bytes of the placeholders there (a key that ends sorts first). */
static int sk_side(const rctx *c, const entry *x, const entry *o)
{
    if (!x->has_sk || !o->has_sk)
        return 0;
    size_t q = 0;
    while (q < x->sk_lead_len && q < o->sk_lead_len && x->sk_lead[q] == o->sk_lead[q])
        q++;
    ov_bytes bx, bo;
    bool ex, eo;
    sk_next_bytes(c, x, q, &bx, &ex);
    sk_next_bytes(c, o, q, &bo, &eo);
    int xlo = ex ? -1 : byte_lo(&bx), xhi = ex ? -1 : byte_hi(&bx);
    int olo = eo ? -1 : byte_lo(&bo), ohi = eo ? -1 : byte_hi(&bo);
    if (ex && eo)
        return 0;
    if (xhi < olo)
        return -1;
    if (xlo > ohi)
        return 1;
    return 0;
}

/* One entity's items in a screen's query: asked for, or another entity the key condition reads. */
typedef struct spart {
    const entry *en;
    bool asked;
    int side;    /* against the ordered entity, in the order of the read: -1 read before it, +1 after */
    double coll; /* its items in the partition */
    double read; /* items read per call */
} spart;

/* The `items:` of a screen spread over its asked entities by their collections (water-filling:
 * an entity with fewer items than an even share reads them all, the rest share what is left): the
 * customer screen's 25 items are 1 profile, 2 addresses and 22 order summaries, not 8 of each. */
static void screen_items(spart *v, size_t n, double total)
{
    size_t left = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i].asked) {
            v[i].read = -1;
            left++;
        }
    while (left > 0) {
        size_t low = SIZE_MAX; /* the asked entity with the smallest collection not placed yet */
        for (size_t i = 0; i < n; i++)
            if (v[i].asked && v[i].read < 0 && (low == SIZE_MAX || v[i].coll < v[low].coll))
                low = i;
        double share = total / (double)left;
        v[low].read = v[low].coll < share ? v[low].coll : share;
        total -= v[low].read;
        left--;
    }
}

/* The items of each part read under the screen's order and limit (sp->forward, sp->limit):
 * in the order of the read, the entities before the ordered one, then it, then the ones after,
 * until the Limit. An asked entity the Limit leaves out sets sp->outside. */
static void screen_walk(spart *v, size_t n, size_t io, screenplan *sp)
{
    for (size_t i = 0; i < n; i++)
        v[i].read = v[i].coll;
    if (isnan(sp->limit))
        return;
    double left = sp->limit;
    for (int side = -1; side <= 1; side++) {
        double sum = 0;
        for (size_t i = 0; i < n; i++)
            if ((i == io ? 0 : v[i].side) == side)
                sum += v[i].coll;
        double f = sum <= left || sum <= 0 ? 1 : left / sum;
        for (size_t i = 0; i < n; i++)
            if ((i == io ? 0 : v[i].side) == side) {
                v[i].read = v[i].coll * f;
                if (v[i].asked && f < 1 - 1e-9 && i != io && !sp->outside)
                    sp->outside = v[i].en;
            }
        left -= sum * f;
        if (side == -1) {
            sp->lead_items = sum * f;
            for (size_t i = 0; i < n && !sp->lead; i++)
                if (i != io && v[i].side == -1 && v[i].read > 0)
                    sp->lead = v[i].en;
        }
    }
}

bool rs_plan_screen(rctx *c, const kp_pattern *p, const kset *K, const size_t *epos, size_t n, screenplan *sp)
{
    memset(sp, 0, sizeof *sp);
    size_t npis = n < 64 ? n : 64;
    pinfo *pis = xmalloc(npis * sizeof *pis);
    for (size_t i = 0; i < npis; i++)
        pinfo_init(c, p, K, &c->d->entities[epos[i]], &pis[i]);
    mark_asked(c, epos, n);
    spart *parts = NULL;
    size_t cap = 0;
    for (size_t k = 0; k < c->nix; k++) {
        ixinfo *xi = &c->ix[k];
        const entry *first = c->on[epos[0] * c->nix + k];
        if (!first)
            continue;
        bool ok = true;
        char *prefix = NULL;
        bool all_same = true;
        cand cds[64];
        size_t m = n < 64 ? n : 64;
        for (size_t i = 0; i < m && ok; i++) {
            const entry *en = c->on[epos[i] * c->nix + k];
            bool sr = false;
            if (!en || !eval_entity(c, p, K, xi, en, &pis[i], true, NULL, &cds[i], &sr) ||
                cds[i].fanout > 1 || cds[i].fetch)
                ok = false; /* one query returning what is asked: nothing left to fetch */
            else if (i > 0 && !rs_groups_meet(c, xi, en->group, first->group))
                ok = false;
            else
                rs_cand_finish(c, p, K, &cds[i], false);
        }
        if (!ok)
            continue;
        /* common sort-key prefix: the literal prefixes' longest common start, cut after '#' */
        for (size_t i = 0; i < m; i++) {
            const entry *en = cds[i].en;
            /* a fresh copy (not render_parts' shared one): cut below */
            size_t end = cds[i].kind == SKC_EXACT ? en->sk.n : cds[i].sk_end;
            char *pf = en->has_sk ? rs_render_parts_text(c, &en->sk, end, K) : arena_strdup(c->ar, "");
            char *brace = strchr(pf, '{');
            if (brace)
                *brace = '\0';
            if (!prefix)
                prefix = pf;
            else {
                if (strcmp(prefix, pf) != 0)
                    all_same = false;
                size_t l = 0;
                while (prefix[l] && prefix[l] == pf[l])
                    l++;
                prefix[l] = '\0';
            }
        }
        if (!all_same || m > 1) {
            char *hash = strrchr(prefix, '#');
            if (hash)
                hash[1] = '\0';
            else
                prefix[0] = '\0';
        }
        /* what the query reads: the asked entities' collections and the others' whose keys meet
           the prefix */
        size_t np = 0;
        for (size_t i = 0; i < m; i++) {
            VEC_GROW(parts, np, cap);
            parts[np++] = (spart){cds[i].en, true, 0, cds[i].get ? 1 : cds[i].matched, 0};
        }
        size_t ng;
        const size_t *gs = rs_colliding_groups(c, xi, first->group, &ng);
        ov_lang pl;
        ov_lang_init(&pl);
        ov_lang_literal(&pl, prefix);
        ov_lang_end(&pl);
        for (size_t gi = 0; gi < ng; gi++)
            for (size_t mm = xi->gstart[gs[gi]]; mm < xi->gstart[gs[gi] + 1]; mm++) {
                const entry *oe = &xi->entries[xi->gmembers[mm]];
                if (rs_is_asked(c, oe->epos))
                    continue;
                if (prefix[0] && oe->has_sk && !ov_meet(&pl, rs_entry_lang(c, oe, true), OV_PREFIX))
                    continue;
                rs_note_read(c, oe->epos); /* whatever its count: a count made positive would count */
                if (oe->coll <= 0)
                    continue;
                VEC_GROW(parts, np, cap);
                parts[np++] = (spart){oe, false, 0, oe->coll, 0};
            }
        ov_lang_free(&pl);
        /* order: served when it is the first free placeholder of one entity's sort key and every
           other entity's keys sort wholly before or after that entity's */
        screenplan cur = {.k = k, .prefix = prefix, .first = first, .forward = true, .limit = NAN};
        size_t io = SIZE_MAX;
        for (size_t i = 0; p->order.s && i < m && io == SIZE_MAX; i++)
            if (cds[i].next && strcmp(cds[i].next, p->order.s) == 0 &&
                !sorts_as_text(c, xi, cds[i].en, cds[i].sk_end))
                io = i; /* (a number that sorts as text serves no order: P#1, P#10, P#4) */
        bool separable = io != SIZE_MAX;
        for (size_t i = 0; separable && i < np; i++) {
            if (i == io)
                continue;
            int side = sk_side(c, parts[i].en, parts[io].en);
            parts[i].side = p->order_desc ? -side : side;
            separable = side != 0;
        }
        if (io != SIZE_MAX && separable) {
            cur.ordered = parts[io].en;
            cur.forward = !p->order_desc;
        }
        cur.app_sort = p->order.s && !cur.ordered;
        if (cur.ordered && !isnan(p->limit) && p->limit > 0)
            cur.limit = p->limit;
        screen_walk(parts, np, io, &cur);
        if (cur.outside) { /* the Limit would cut an asked entity away: not pushed */
            cur.limit = NAN;
            screen_walk(parts, np, io, &cur);
        }
        if (!isnan(p->items))
            screen_items(parts, m, p->items);
        double items = 0, bytes = 0, result = 0;
        for (size_t i = 0; i < np; i++) {
            items += parts[i].read;
            bytes += parts[i].read * parts[i].en->proj;
            if (parts[i].asked)
                result += parts[i].read;
            else if (parts[i].read > 0 && !cur.mixed) {
                cur.mixed = true;
                cur.coll = parts[i].en;
            }
        }
        if (cur.mixed && !ix_projects(c, xi, "entityType"))
            continue; /* its entityType filter would be refused */
        cur.items = items;
        cur.result = result;
        cur.rcu = capacity_query_rcu(1, bytes, p->consistency);
        cur.pages = capacity_query_pages(items, bytes);
        cur.latency = rs_query_latency(bytes, 1);
        int qa = (cur.app_sort ? 1 : 0) + (cur.mixed ? 1 : 0),
            qb = (sp->app_sort ? 1 : 0) + (sp->mixed ? 1 : 0);
        if (!sp->prefix || qa < qb || (qa == qb && cur.rcu < sp->rcu - 1e-9))
            *sp = cur;
    }
    free(parts);
    free(pis);
    return sp->prefix != NULL;
}

void rs_why_add(rctx *c, const char *rule, const char *text)
{
    for (size_t i = 0; i < c->why.n; i++)
        if (strcmp(c->why.v[i].text, text) == 0)
            return;
    VEC_GROW(c->why.v, c->why.n, c->why.cap);
    c->why.v[c->why.n++] = (kp_why_not){rule, arena_strdup(c->ar, text)};
}

/* Bits 1 and 2: entity epos carries index k's partition, sort attribute (computed once per
 * entity for every index). */
static unsigned char carried(rctx *c, size_t epos, size_t k)
{
    unsigned char *v = &c->carry[epos * c->nix];
    if (!(v[0] & 4)) {
        const kp_entity *e = &c->d->entities[epos];
        for (size_t x = 0; x < c->nix; x++) {
            const ixinfo *xi = &c->ix[x];
            v[x] = (unsigned char)((xi->pk && entity_carries(e, xi->pk) ? 1 : 0) |
                                   (xi->sk && entity_carries(e, xi->sk) ? 2 : 0));
        }
        v[0] |= 4;
    }
    return v[k] & 3;
}

/* Appends the pieces (up to a NULL): the why-not lines are built without printf, as the
 * warnings are (the live pane recomputes them on every keystroke). */
static void cat_pieces(sbuf *b, ...)
{
    va_list ap;
    va_start(ap, b);
    for (const char *s = va_arg(ap, const char *); s; s = va_arg(ap, const char *))
        sbuf_add(b, s);
    va_end(ap);
}
#define CAT(b, ...) cat_pieces((b), __VA_ARGS__, (const char *)NULL)

static void sb_clear(sbuf *b)
{
    b->len = 0;
    if (b->s)
        b->s[0] = '\0';
}

/* Appends "pk = TEMPLATE" of an entry's key view. */
static void add_key_src(sbuf *b, const char *attr, const keyview *v)
{
    CAT(b, attr, " = ");
    if (v->plain) {
        CAT(b, "{", v->parts[0].text, "}");
    } else if (v->src) {
        sbuf_add(b, v->src);
    } else {
        char *src = rs_keyview_src(v);
        sbuf_add(b, src);
        free(src);
    }
}

/* The why-not line of index k (nothing when it is not worth a line); `order` ranks them. */
static bool why_index(rctx *c, const kp_pattern *p, const kp_entity *e, size_t epos, size_t k, int order,
                      bool scan, sbuf *b, const char **rule)
{
    const ixinfo *xi = &c->ix[k];
    const reject *r = &c->rej[k];
    const entry *en = c->on[epos * c->nix + k];
    *rule = NULL;
    sb_clear(b);
    switch (r->why) {
    case WN_PROJ_FILTER:
        if (order != 0)
            return false;
        /* TRANSLATORS: %1$s an index, %2$s an attribute */
        textf_add(
            b,
            _("%s does not project `%s`, which the FilterExpression tests (DynamoDB refuses a filter on an "
              "attribute the index does not project)"),
            xi->name, r->attr ? r->attr : "?");
        *rule = scan ? "projection-filter" : NULL; /* a finding when it left only a Scan */
        return true;
    case WN_SPARSE: {
        if (order != 0)
            return false;
        const kp_sparse *s = r->attr ? entity_sparse(e, r->attr) : NULL;
        const char *ra = r->attr ? r->attr : "?";
        if (s && s->src && s->cond_attr.s)
            /* TRANSLATORS: %1$s an index, %2$s an entity, %3$s the sparse rule (a condition), %4$s an
               attribute, %5$s the attribute the rule tests */
            textf_add(
                b,
                _("%s holds only the %s items where %s (sparse %s); the pattern does not fix %s to such a value"),
                xi->name, e->name, s->src, ra, s->cond_attr.s);
        else if (s && s->src)
            /* TRANSLATORS: %1$s an index, %2$s an entity, %3$s the sparse rule (a condition), %4$s an attribute */
            textf_add(
                b,
                _("%s holds only the %s items where %s (sparse %s); the pattern does not fix it to such a value"),
                xi->name, e->name, s->src, ra);
        else if (s && s->cond_attr.s)
            /* TRANSLATORS: %1$s an index, %2$s an entity, %3$s an attribute, %4$s the attribute the rule tests */
            textf_add(
                b,
                _("%s holds only the %s items where its sparse rule holds (sparse %s); the pattern does not "
                  "fix %s to such a value"),
                xi->name, e->name, ra, s->cond_attr.s);
        else
            /* TRANSLATORS: %1$s an index, %2$s an entity, %3$s an attribute */
            textf_add(
                b,
                _("%s holds only the %s items where its sparse rule holds (sparse %s); the pattern does not "
                  "fix it to such a value"),
                xi->name, e->name, ra);
        return true;
    }
    case WN_NOT_ON: {
        if (order != 0 || k == 0 || !xi->pk)
            return false;
        unsigned char cb = carried(c, epos, k);
        bool hp = cb & 1, hs = cb & 2;
        const char *have = hp ? xi->pk : hs ? xi->sk : NULL, *miss = hp ? xi->sk : xi->pk;
        const char *tk[2] = {c->d->table.pk.s, c->d->table.sk.s};
        for (int i = 0; i < 2 && have; i++)
            if (tk[i] && strcmp(tk[i], have) == 0)
                have = NULL; /* every item has the table's key: an index of other entities */
        if (!have || !miss)
            return false;
        textf_add(
            b,
            entity_key(e, have)
                /* TRANSLATORS: %1$s an entity, %2$s a key attribute, %3$s the entity again, %4$s an index */
                ? _("%s has no %s template, so %s items are not in %s")
                /* TRANSLATORS: %1$s an entity, %2$s a key attribute, %3$s the entity again, %4$s an index */
                : _("%s has no %s attribute, so %s items are not in %s"),
            e->name, miss, e->name, xi->name);
        return true;
    }
    case WN_TRANSACT:
        if (order != 0)
            return false;
        /* TRANSLATORS: %s an index */
        textf_add(b,
                  _("%s is an index: a transactional read (TransactGetItems) reads only the table, by key"),
                  xi->name);
        return true;
    case WN_STRONG:
        if (order != 1)
            return false;
        textf_add(
            b,
            p->consistency == KP_TRANSACTIONAL
                /* TRANSLATORS: %s an index */
                ? _("%s is a GSI: its reads are eventually consistent, and the pattern reads transactional")
                /* TRANSLATORS: %s an index */
                : _("%s is a GSI: its reads are eventually consistent, and the pattern reads strong"),
            xi->name);
        return true;
    case WN_PK_UNBOUND:
        if (order != 1 || !en)
            return false;
        {
            char kin[160];
            sbuf key;
            sbuf_init_in(&key, kin, sizeof kin);
            add_key_src(&key, xi->pk, &en->pk);
            if (k == 0)
                /* TRANSLATORS: %1$s a key (PK = C#{customerId}), %2$s an attribute */
                textf_add(b, _("the table's partition key %s needs %s, which the pattern does not give"),
                          key.s, r->attr ? r->attr : "?");
            else
                /* TRANSLATORS: %1$s an index, %2$s a key (PK = C#{customerId}), %3$s an attribute */
                textf_add(b, _("%s's partition key %s needs %s, which the pattern does not give"), xi->name,
                          key.s, r->attr ? r->attr : "?");
            sbuf_free(&key);
            return true;
        }
    case WN_NO_KEY_USE:
        if (order != 1 || !en)
            return false;
        {
            char kin[240];
            sbuf key;
            sbuf_init_in(&key, kin, sizeof kin);
            add_key_src(&key, xi->pk, &en->pk);
            if (en->has_sk) {
                sbuf_add(&key, ", ");
                add_key_src(&key, xi->sk, &en->sk);
            }
            if (k == 0)
                /* TRANSLATORS: %s the key (PK = C#{customerId}, SK = PROFILE) */
                textf_add(b, _("the table's key (%s) uses nothing the pattern gives"), key.s);
            else
                /* TRANSLATORS: %1$s an index, %2$s its key (PK = C#{customerId}, SK = PROFILE) */
                textf_add(b, _("%s's key (%s) uses nothing the pattern gives"), xi->name, key.s);
            sbuf_free(&key);
            return true;
        }
    default:
        return false;
    }
}

#define WHY_MAX_INDEXES 4

void rs_why_not(rctx *c, const kp_pattern *p, size_t epos, const cand *best, bool all)
{
    const kp_entity *e = &c->d->entities[epos];
    char in[240];
    sbuf b;
    sbuf_init_in(&b, in, sizeof in);
    if (best && best->text_attr) {
        const kp_attr *a = rs_attr_of(c, best->text_attr);
        const char *fmt = best->en->sk.parts[best->text_part].format;
        if (!fmt && a)
            fmt = a->format;
        char kin[160];
        sbuf key;
        sbuf_init_in(&key, kin, sizeof kin);
        add_key_src(&key, best->xi->sk, &best->en->sk);
        const char *in_table = best->xi->index < 0 ? NULL : best->xi->name;
        if (fmt) {
            char nb[HUMANFMT_SIZE];
            humanfmt(nb, sizeof nb, a ? a->distinct : NAN, HF_NUM_DOC);
            if (!in_table)
                /* TRANSLATORS: %1$s an attribute, %2$s the sort key (SK = P#{n}), %3$s its format, %4$s a
                   number of values */
                textf_add(
                    &b,
                    _("`%s` sorts as text in the table's %s: its pad '%s' is narrower than its %s distinct "
                      "values, so the key serves neither its order nor a range of it"),
                    best->text_attr, key.s, fmt, nb);
            else
                /* TRANSLATORS: %1$s an attribute, %2$s an index, %3$s the sort key (SK = P#{n}), %4$s its
                   format, %5$s a number of values */
                textf_add(
                    &b,
                    _("`%s` sorts as text in %s's %s: its pad '%s' is narrower than its %s distinct values, "
                      "so the key serves neither its order nor a range of it"),
                    best->text_attr, in_table, key.s, fmt, nb);
        } else if (!in_table)
            /* TRANSLATORS: %1$s an attribute, %2$s the sort key (SK = P#{n}) */
            textf_add(
                &b,
                _("`%s` sorts as text in the table's %s: a number inside a string key (P#1, P#10, P#4), so "
                  "the key serves neither its order nor a range of it"),
                best->text_attr, key.s);
        else
            /* TRANSLATORS: %1$s an attribute, %2$s an index, %3$s the sort key (SK = P#{n}) */
            textf_add(
                &b,
                _("`%s` sorts as text in %s's %s: a number inside a string key (P#1, P#10, P#4), so the key "
                  "serves neither its order nor a range of it"),
                best->text_attr, in_table, key.s);
        sbuf_free(&key);
        if (a && !isnan(a->distinct) && a->distinct >= 1) {
            /* the pad that holds every value: the digits of the largest */
            char pad[8] = "0";
            int digits = 1;
            for (double v = a->distinct; v >= 10 && digits < 6; v /= 10)
                digits++;
            pad[1] = (char)('0' + digits);
            pad[2] = '\0';
            /* TRANSLATORS: %s a format ("04") */
            textf_add(&b, _(" (format: \"%s\" holds its values)"), pad);
        }
        rs_why_add(c, "number-sorts-as-text", b.s);
    }
    if (best && best->fetch) {
        sb_clear(&b);
        textf_add(
            &b,
            best->xi->gsi
                /* TRANSLATORS: %1$s an index, %2$s an attribute */
                ? _("%s does not project `%s`, which the pattern returns: each result is fetched from the "
                    "table (BatchGetItem)")
                /* TRANSLATORS: %1$s an index, %2$s an attribute */
                : _("%s does not project `%s`, which the pattern returns: the Query fetches each result "
                    "from the table (Select ALL_ATTRIBUTES), a table read each"),
            best->xi->name, best->fetch_attr ? best->fetch_attr : "?");
        rs_why_add(c, "index-fetch", b.s);
    }
    if (!all) {
        sbuf_free(&b);
        return;
    }
    /* a scan lists the keys that would need what the pattern does not give; a plan that is
     * served otherwise only the indexes that nearly served it */
    size_t added = 0;
    for (int order = 0; order < (best ? 1 : 2) && added < WHY_MAX_INDEXES; order++)
        for (size_t k = 0; k < c->nix && added < WHY_MAX_INDEXES; k++) {
            if (best && best->xi == &c->ix[k])
                continue;
            const char *rule;
            if (why_index(c, p, e, epos, k, order, !best, &b, &rule)) {
                rs_why_add(c, rule, b.s);
                added++;
            }
        }
    sbuf_free(&b);
}
