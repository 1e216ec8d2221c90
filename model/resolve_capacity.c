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

/* Does the sort key of collider `o` possibly meet the condition of candidate `cd`, whose
 * prefix's leading literal is lp (lp_len bytes)? */
static bool sk_meets(const cand *cd, const entry *o, const char *lp, size_t lp_len)
{
    if (!cd->en->has_sk || cd->kind == SKC_NONE)
        return true;
    if (!o->has_sk)
        return false;
    if (cd->kind == SKC_EXACT)
        return rs_shape_compat(&cd->en->sk, &o->sk);
    if (o->sk_const)
        return o->sk_lead_len >= lp_len && memcmp(o->sk_lead, lp, lp_len) == 0;
    size_t n = o->sk_lead_len < lp_len ? o->sk_lead_len : lp_len;
    return memcmp(o->sk_lead, lp, n) == 0;
}

void rs_cand_finish(rctx *c, const kp_pattern *p, cand *out, bool colliders)
{
    const entry *en = out->en;
    ixinfo *xi = (ixinfo *)out->xi;
    const kp_entity *e = en->e;
    double mine = out->mine, per_req = out->per_req;
    double others = 0, others_bytes = 0;
    out->collider = NULL;
    out->mixed = false;
    if (colliders && !out->get) {
        /* the cache holds the sums when only this entity is asked for */
        int slot = out->kind == SKC_NONE || !en->has_sk ? 0 : out->kind == SKC_EXACT ? 2 : 1;
        bool alone = c->nasked <= 1;
        collsum *cs = &xi->sums[3 * (size_t)(en - xi->entries) + (size_t)slot];
        if (alone && cs->done) {
            others = cs->others;
            others_bytes = cs->bytes;
            out->collider = cs->first;
        } else {
            const keyview *sv = &en->sk;
            const char *lp =
                (en->has_sk && out->sk_end > 0 && sv->parts[0].kind == TPL_LIT) ? sv->parts[0].text : "";
            size_t lp_len = strlen(lp);
            size_t ng;
            const size_t *gs = rs_colliding_groups(xi, en->group, &ng);
            for (size_t gi = 0; gi < ng; gi++) {
                size_t g = gs[gi];
                for (size_t m = xi->gstart[g]; m < xi->gstart[g + 1]; m++) {
                    const entry *o = &xi->entries[xi->gmembers[m]];
                    if (o == en || o->coll <= 0 || rs_is_asked(c, o->epos) || !sk_meets(out, o, lp, lp_len))
                        continue;
                    if (!out->collider)
                        out->collider = o;
                    others += o->coll;
                    others_bytes += o->coll * o->proj;
                }
            }
            if (alone) {
                cs->done = true;
                cs->others = others;
                cs->bytes = others_bytes;
                cs->first = out->collider;
            }
        }
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
    out->latency = rs_query_latency(out->bytes, out->fanout);
    out->quality = (out->app_sort ? 1 : 0) + (out->filter ? 1 : 0) + (out->range_unserved ? 1 : 0);
    out->finished = colliders;
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
