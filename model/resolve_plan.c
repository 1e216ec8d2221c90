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

#include <math.h>
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

static bool cand_better(const cand *a, const cand *b)
{
    double qa = a->fanout * a->pages, qb = b->fanout * b->pages;
    if (qa != qb)
        return qa < qb;
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

    /* sparse membership: the index must hold every item the pattern asks for */
    double share_adj = en->share;
    bool sparse_fixed_used[2] = {false, false};
    const char *sparse_fixed_attr[2] = {NULL, NULL};
    if (xi->index >= 0) {
        const char *ks[2] = {xi->pk, xi->sk};
        share_adj = 1;
        for (int i = 0; i < 2; i++) {
            const kp_sparse *s = ks[i] ? entity_sparse(e, ks[i]) : NULL;
            if (!s || (i == 1 && xi->sk && xi->pk && strcmp(xi->sk, xi->pk) == 0))
                continue;
            if (s->kind == KP_SPARSE_COND) {
                const known *k = s->cond_attr.s ? rs_kset_find(K, s->cond_attr.s) : NULL;
                if (!k || !k->nvals)
                    return false;
                for (size_t v = 0; v < k->nvals; v++) /* every value asked is on the index */
                    if (!cond_holds(s, k->vals[v]))
                        return false;
                sparse_fixed_used[i] = true;
                sparse_fixed_attr[i] = s->cond_attr.s;
            } else {
                bool bound = i == 0;
                if (!bound) {
                    keyview v;
                    rs_keyview_set(&v, e, ks[i]);
                    bound = true;
                    for (size_t j = 0; j < v.n; j++)
                        if (v.parts[j].kind == TPL_ATTR && !rs_known_one(rs_kset_find(K, v.parts[j].text)))
                            bound = false;
                }
                if (!bound)
                    return false;
                share_adj *= isnan(s->share) ? 1 : s->share;
            }
        }
    }
    if (xi->gsi && p->consistency != KP_EVENTUAL) {
        *strong_refused = true;
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
        if (f <= 0)
            return false;
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
            if (p->range.s && strcmp(out->next, p->range.s) == 0)
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
        if (sparse_fixed_used[i])
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
    if (known_to_entity > 0 && nkey_bound == 0)
        return false; /* the key uses nothing the caller knows: this is a scan */
    (void)filters;

    out->get = xi->index < 0 && out->kind == SKC_EXACT; /* GetItem (one per fan-out value) */

    /* order, range, limit */
    bool order_asked = p->order.s && !screen;
    bool order_served = !order_asked || out->get || (out->next && strcmp(out->next, p->order.s) == 0);
    out->app_sort = !order_served;
    out->range_unserved = p->range.s && !screen && out->kind != SKC_BETWEEN && pi->range_known;
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

static double cand_cost(const cand *cd) { return cd->rcu * cd->fanout; }

/* One query per value (a) against the plan with a filter (b): the cheaper in read units, then
 * the one the key serves (no filter), then fewer requests. */
static bool alt_wins(const cand *a, const cand *b)
{
    double ca = cand_cost(a), cb = cand_cost(b);
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
        if (!en)
            continue;
        if (!eval_entity(c, p, K, &c->ix[k], en, &pi, screen, NULL, &cs[n], strong_refused))
            continue;
        rs_cand_finish(c, p, K, &cs[n], false);
        const char *fan = screen ? NULL : fan_choice(c, p, K, &cs[n]);
        n++;
        bool sr = false;
        if (fan && eval_entity(c, p, K, &c->ix[k], en, &pi, screen, fan, &cs[n], &sr) && cs[n].alt) {
            rs_cand_finish(c, p, K, &cs[n], false);
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
    return true;
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
            if (!en || !eval_entity(c, p, K, xi, en, &pis[i], true, NULL, &cds[i], &sr) || cds[i].fanout > 1)
                ok = false;
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
                if (rs_is_asked(c, oe->epos) || oe->coll <= 0)
                    continue;
                if (prefix[0] && oe->has_sk && !ov_meet(&pl, rs_entry_lang(c, oe, true), OV_PREFIX))
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
            if (cds[i].next && strcmp(cds[i].next, p->order.s) == 0)
                io = i;
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
