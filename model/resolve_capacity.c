/* resolve_capacity.c - the resolver's estimates: items, bytes, units and latency per pattern.
 *
 * Estimates (documented here once):
 * - Items matching a key condition = entity count x share on the index x the product, over the
 *   distinct bound placeholders, of their selectivity: a fixed enum value its share, an enum
 *   1/values, a shard 1/count, else 1/distinct. When a bound placeholder's distinct count is
 *   unknown the collection is assumed to be DEFAULT_COLLECTION items (warning "unknown
 *   distribution"), an exact key 1 item.
 * - Items read per call: GetItem 1; a Query reads `limit` items when the limit is pushed down
 *   (order served, or no order asked), else every matching item; a FilterExpression reads
 *   1/selectivity items per item returned (read amplification): with a pushed limit the read is
 *   limit x amplification (capped at the collection); without one the whole collection is read
 *   anyway. Other entities of a mixed collection add their own collection (count x share /
 *   distinct partition values). A pattern's `items:` replaces the entity's items read per call.
 * - Filter selectivity of an attribute: a fixed enum value its share; an enum 1/values; a bool
 *   0.5; a declared distinct count 1/distinct; otherwise UNKNOWN_SELECTIVITY (warning).
 * - A Scan reads the whole table (sum of count x size of every entity), one request per 1 MB.
 *
 * Latency model (ms): every request or page is one round trip of LAT_RTT_MS plus LAT_MS_PER_MB
 * per megabyte transferred; a Query or Scan reads 1 MB pages one after the other; BatchGetItem
 * sends its batches of 100 in parallel; requests of a fan-out (shards, enum values) or of
 * independent entities of one screen run in parallel: the slowest plus LAT_MERGE_MS per request
 * merged; steps of a chain (join, find-then-write) add up; a write costs LAT_WRITE_MS, a
 * transaction LAT_TRANSACT_MS. Outside and covered patterns cost 0. */
#include "resolve_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double rs_selectivity_of(const kp_attr *a, const char *value)
{
    if (!a)
        return NAN;
    switch (a->type) {
    case KP_ATTR_ENUM:
        if (a->nvalues == 0)
            return NAN;
        if (value)
            for (size_t i = 0; i < a->nvalues; i++)
                if (strcmp(a->values[i].name, value) == 0)
                    return a->values[i].share;
        return 1.0 / (double)a->nvalues;
    case KP_ATTR_SHARD:
        return a->shard_count > 0 ? 1.0 / a->shard_count : NAN;
    case KP_ATTR_BOOL:
        return 0.5;
    default:
        return (!isnan(a->distinct) && a->distinct >= 1) ? 1.0 / a->distinct : NAN;
    }
}

double rs_known_sel(const known *k)
{
    if (k->nvals <= 1)
        return rs_selectivity_of(k->attr, k->value);
    double sum = 0;
    for (size_t i = 0; i < k->nvals; i++)
        sum += rs_selectivity_of(k->attr, k->vals[i]);
    return sum > 1 ? 1 : sum;
}

double rs_selectivity(const rctx *c, const char *name, const char *value)
{
    return rs_selectivity_of(rs_attr_of(c, name), value);
}

double rs_query_latency(double bytes, double fanout)
{
    double pages = capacity_pages(bytes);
    double one = pages * LAT_RTT_MS + bytes / CAP_PAGE_BYTES * LAT_MS_PER_MB;
    return fanout > 1 ? one + LAT_MERGE_MS * fanout : one;
}

/* The fixed values among the placeholders of parts[0..n) (at most `max`, into fx): a pattern's
 * fixed value binds its placeholder (by: "stage=live" reads live-..., not draft-...). */
static size_t fixed_of(const kset *K, const tpl_part *parts, size_t n, ov_fixed *fx, size_t max)
{
    size_t m = 0;
    for (size_t i = 0; K && K->nfixed && i < n && m < max; i++) {
        if (parts[i].kind != TPL_ATTR)
            continue;
        const known *k = rs_kset_find(K, parts[i].text);
        if (k && k->value)
            fx[m++] = (ov_fixed){k->name, k->value};
    }
    return m;
}

/* What a candidate's key condition asks, as languages over the placeholders' domains (built on
 * first need: most other entities are told apart by their leading literals alone). */
typedef struct qside {
    const rctx *c;
    const cand *cd;
    const kset *K;
    bool pk_fixed; /* the partition has fixed values: its own language */
    bool built[2];
    ov_lang l[2]; /* [0] the partition with its fixed values, [1] the sort-key condition */
} qside;

/* One byte between the least and the greatest of `first` (a BETWEEN's bounds start with values
 * of the range attribute: what lies between them goes on with such a byte). */
static void byte_span(const ov_bytes *first, ov_bytes *span)
{
    memset(span, 0, sizeof *span);
    int lo = -1, hi = -1;
    for (int b = 1; b < 256; b++)
        if ((first->w[b >> 6] >> (b & 63)) & 1) {
            if (lo < 0)
                lo = b;
            hi = b;
        }
    for (int b = lo; lo > 0 && b <= hi; b++)
        span->w[b >> 6] |= (uint64_t)1 << (b & 63);
}

static const ov_lang *qside_lang(qside *q, int which)
{
    if (q->built[which])
        return &q->l[which];
    const entry *en = q->cd->en;
    ov_fixed fx[8];
    ov_lang *l = &q->l[which];
    ov_lang_init(l);
    if (which == 0) {
        size_t nfx = fixed_of(q->K, en->pk.parts, en->pk.n, fx, 8);
        ov_lang_parts(l, q->c->dom, en->pk.parts, en->pk.n, fx, nfx);
    } else {
        size_t end = q->cd->kind == SKC_EXACT ? en->sk.n : q->cd->sk_end;
        size_t nfx = fixed_of(q->K, en->sk.parts, end, fx, 8);
        ov_lang_parts(l, q->c->dom, en->sk.parts, end, fx, nfx);
        if (q->cd->kind == SKC_BETWEEN) {
            ov_bytes first, span;
            ov_first_bytes(q->c->dom, q->cd->next, &first);
            byte_span(&first, &span);
            ov_lang_bytes(l, &span);
        }
    }
    ov_lang_end(l);
    q->built[which] = true;
    return l;
}

static void qside_free(qside *q)
{
    for (int i = 0; i < 2; i++)
        if (q->built[i])
            ov_lang_free(&q->l[i]);
}

/* Can the items of entry `o` (same index, a group whose partition template meets the
 * candidate's) be read by candidate q->cd's key condition? Leading literals first, then the
 * languages (overlap.h). */
static bool collider_meets(qside *q, const entry *o)
{
    const cand *cd = q->cd;
    const entry *en = cd->en;
    if (q->pk_fixed && !ov_meet(qside_lang(q, 0), rs_entry_lang(q->c, o, false), OV_EQUAL))
        return false;
    if (!en->has_sk || cd->kind == SKC_NONE)
        return true;
    if (!o->has_sk)
        return false;
    /* the literal both sort keys start with must agree as far as both go */
    size_t n = o->sk_lead_len < en->sk_lead_len ? o->sk_lead_len : en->sk_lead_len;
    bool lead_in = cd->kind == SKC_EXACT || cd->sk_end > 0;
    if (lead_in && memcmp(o->sk_lead, en->sk_lead, n) != 0)
        return false;
    return ov_meet(qside_lang(q, 1), rs_entry_lang(q->c, o, true),
                   cd->kind == SKC_EXACT ? OV_EQUAL : OV_PREFIX);
}

/* Does parts[0..n) hold a placeholder with a fixed value? */
static inline bool has_fixed(const kset *K, const tpl_part *parts, size_t n)
{
    ov_fixed fx[1];
    return K && K->nfixed && fixed_of(K, parts, n, fx, 1) > 0;
}

void rs_cand_finish(rctx *c, const kp_pattern *p, const kset *K, cand *out, bool colliders)
{
    const entry *en = out->en;
    ixinfo *xi = (ixinfo *)out->xi;
    const kp_entity *e = en->e;
    double mine = out->mine, per_req = out->per_req;
    double others = 0, others_bytes = 0;
    out->collider = NULL;
    out->mixed = false;
    if (colliders && !out->get) {
        /* the cache holds the sums when only this entity is asked for and no fixed value
         * narrows the key condition */
        qside q = {.c = c, .cd = out, .K = K};
        size_t end = out->kind == SKC_EXACT ? en->sk.n : out->sk_end;
        q.pk_fixed = has_fixed(K, en->pk.parts, en->pk.n);
        bool sk_fixed = en->has_sk && has_fixed(K, en->sk.parts, end);
        bool cached = c->nasked <= 1 && !q.pk_fixed && !sk_fixed;
        size_t k = (size_t)(en - xi->entries);
        if (cached && !xi->sums[k]) /* the entry's slots, on its first use */
            xi->sums[k] = xcalloc(rs_sum_slot(en, SKC_BETWEEN, en->sk.n) + 1, sizeof *xi->sums[k]);
        collsum *cs = cached ? &xi->sums[k][rs_sum_slot(en, out->kind, out->sk_end)] : NULL;
        if (cs && cs->done) {
            others = cs->others;
            others_bytes = cs->bytes;
            out->collider = cs->first;
            for (size_t i = 0; i < cs->nwho; i++)
                rs_note_read(c, cs->who[i]);
        } else {
            size_t ng, nwho = 0, capwho = 0, *who = NULL;
            const size_t *gs = rs_colliding_groups(c, xi, en->group, &ng);
            for (size_t gi = 0; gi < ng; gi++) {
                size_t g = gs[gi];
                for (size_t m = xi->gstart[g]; m < xi->gstart[g + 1]; m++) {
                    const entry *o = &xi->entries[xi->gmembers[m]];
                    if (o == en || rs_is_asked(c, o->epos) || !collider_meets(&q, o))
                        continue;
                    /* read whatever its count: a count made positive would count */
                    rs_note_read(c, o->epos);
                    if (cs) {
                        VEC_GROW(who, nwho, capwho);
                        who[nwho++] = o->epos;
                    }
                    if (o->coll <= 0)
                        continue;
                    if (!out->collider)
                        out->collider = o;
                    others += o->coll;
                    others_bytes += o->coll * o->proj;
                }
            }
            if (cs) {
                cs->done = true;
                cs->others = others;
                cs->bytes = others_bytes;
                cs->first = out->collider;
                cs->who = who;
                cs->nwho = nwho;
            }
        }
        qside_free(&q);
    }
    if (others > 0) {
        out->mixed = true;
        if (out->limit_pushed && per_req > 0 && mine < per_req) {
            /* interleaved: the other items come in proportion until the limit is met */
            double f = mine / per_req;
            others *= f;
            others_bytes *= f;
        }
    }
    out->filter = out->mixed || out->has_filters || out->range_unserved;
    out->items = out->get ? 1 : mine + others;
    out->bytes = mine * (out->get ? (isnan(e->size) ? 0 : e->size) : en->proj) + others_bytes;
    if (out->get)
        out->rcu = capacity_get_rcu(isnan(e->size) ? 0 : e->size, p->consistency);
    else
        out->rcu = capacity_query_rcu(1, out->bytes, p->consistency);
    out->result = out->get ? 1 : mine * out->fsel * out->fanout;
    if (out->has_limit && out->result > p->limit)
        out->result = p->limit;
    /* a Query returns at most 1 MB per request: a longer read is one request per page */
    out->pages = out->get || out->bytes <= CAP_PAGE_BYTES ? 1 : capacity_query_pages(out->items, out->bytes);
    out->latency = rs_query_latency(out->bytes, out->fanout);
    out->quality = (out->app_sort ? 1 : 0) + (out->filter ? 1 : 0) + (out->range_unserved ? 1 : 0);
    out->finished = colliders;
}

double rs_cand_limit(const kp_pattern *p, const cand *cd)
{
    if (!cd->limit_pushed)
        return NAN;
    if (!cd->filter || cd->items <= p->limit)
        return p->limit;
    return ceil(cd->items - 1e-9);
}

void rs_set_totals(kp_pattern_result *r, const kp_pattern *p)
{
    double rate = util_nz(p->rate), avg = isnan(p->avg) ? rate : p->avg;
    r->rcu_per_s = r->rcu_per_call * rate;
    r->rcu_per_s_avg = r->rcu_per_call * avg;
    r->wcu_per_s = r->wcu_per_call * rate;
    r->latency_ok = isnan(p->latency) || r->latency_ms <= p->latency;
}

void rs_write_units(const rctx *c, const kp_pattern *p, size_t epos, double *table, double *gsis)
{
    const kp_design *d = c->d;
    const kp_entity *e = &d->entities[epos];
    double inl[32];
    double *iw = d->nindexes <= 32 ? inl : xmalloc(d->nindexes * sizeof *iw);
    capacity_memo_entity_write(c->cap, e, p->op, p->changes, p->nchanges, table, d->nindexes ? iw : NULL);
    double sum = 0;
    for (size_t x = 0; x < d->nindexes; x++)
        if (d->indexes[x].kind != KP_LSI)
            sum += iw[x];
    *gsis = sum;
    if (iw != inl)
        free(iw);
}
