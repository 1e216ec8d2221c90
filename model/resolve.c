/* resolve.c - the resolver stage: a->patterns.
 *
 * For every pattern: the plan, its requests (steps) with the key condition as DynamoDB receives
 * it, items read, read/write units per call and per second, the latency estimate and warnings.
 * This file walks the patterns (reads of one entity, chains, screens; writes); the work is split
 * by job as SQLite splits its planner, with one private header (resolve_int.h):
 *   resolve_index.c     what is computed once per analysis: the indexes' entries and groups
 *   resolve_plan.c      the choice of a plan for an entity or a screen
 *   resolve_capacity.c  the estimates: items, bytes, units, latency (documented there)
 *   resolve_render.c    the texts: key conditions, values, filters, steps, warnings */
#include "resolve_int.h"

#include "humanfmt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The result's main figures from its first step (the main one). */
static void finish_main(kp_pattern_result *r, const rctx *c)
{
    if (r->nsteps > 0) {
        kp_step *m = &r->steps[0];
        r->index = m->index;
        r->key_condition = m->key_condition ? m->key_condition : arena_strdup(c->ar, "");
        r->values = m->values; /* shared with the main step (freed with it) */
        r->nvalues = m->nvalues;
    } else {
        r->index = -1;
        r->key_condition = arena_strdup(c->ar, "");
    }
    r->index_name = r->index < 0 ? "table" : c->d->indexes[r->index].name;
}

/* A read of one entity (or a find before a write): best plan or scan. Adds its step and
 * warnings; fills *o (o->result: the items it returns, for chains). */
static void read_entity(rctx *c, const kp_pattern *p, const kset *K, size_t epos, const size_t *asked,
                        size_t nasked, steplist *sl, wlist *w, readout *o)
{
    cand best, other;
    bool strong_refused = false;
    memset(&best, 0, sizeof best);
    memset(o, 0, sizeof *o);
    bool ok = rs_best_for_entity(c, p, K, epos, asked, nasked, false, &best, &other, &strong_refused);
    const kp_entity *e = &c->d->entities[epos];
    if (strong_refused) {
        bool gsi_only = !ok || best.xi->index >= 0;
        if (gsi_only)
            WARN(w, "strong read refused on a GSI for ", e->name, ": GSIs are eventually consistent");
    }
    if (!ok) {
        double rcu, lat;
        rs_scan_step(c, p, K, e, sl, &rcu, &lat);
        WARN(w, "nothing serves ", e->name, " by [", K->n ? K->v[0].name : "", "]: Scan of the whole table");
        o->plan = KP_PLAN_SCAN;
        o->requests = sl->v[sl->n - 1].count;
        o->rcu = rcu;
        o->items = c->table_items;
        o->result = c->table_items > 0 ? DEFAULT_COLLECTION : 0;
        o->latency = lat;
        o->filter = K->n > 0 || p->nfilter > 0;
        o->scan = true;
        return;
    }
    char what_in[240];
    sbuf what;
    sbuf_init_in(&what, what_in, sizeof what_in);
    rs_cand_step(c, p, &best, K, sl, &what);
    rs_cand_warnings(c, p, &best, other.finished ? &other : NULL, w, what.s);
    sbuf_free(&what);
    o->plan = best.fanout > 1 ? KP_PLAN_MULTI : best.get ? KP_PLAN_GET : KP_PLAN_QUERY;
    o->requests = best.fanout * best.pages;
    o->rcu = best.rcu * best.fanout;
    o->items = best.items * best.fanout;
    o->result = best.result;
    o->latency = best.latency;
    o->filter = best.filter;
    o->app_sort = best.app_sort;
    o->limit_pushed = best.limit_pushed;
}

/* A screen of n entities (epos) without a join: one query serving them all when there is one,
 * else one read per entity, in parallel. */
static void read_screen(rctx *c, const kp_pattern *p, const kset *K, const size_t *epos, size_t n,
                        steplist *sl, wlist *w, readout *o)
{
    screenplan sp;
    if (rs_plan_screen(c, p, K, epos, n, &sp)) {
        rs_screen_step(c, p, K, &sp, sl, w);
        *o = (readout){.plan = KP_PLAN_QUERY,
                       .requests = sp.pages,
                       .rcu = sp.rcu,
                       .items = sp.items,
                       .result = sp.result,
                       .latency = sp.latency,
                       .filter = sp.mixed,
                       .app_sort = sp.app_sort,
                       .limit_pushed = !isnan(sp.limit)};
        return;
    }
    double requests = 0, rcu = 0, items = 0, lat = 0;
    bool filter = false;
    for (size_t i = 0; i < n; i++) {
        kset Ki = {0};
        const kp_entity *e = &c->d->entities[epos[i]];
        for (size_t k = 0; k < K->n; k++)
            if (rs_knows(c, e, K->v[k].name))
                rs_kset_add_known(&Ki, &K->v[k]);
        readout oi;
        read_entity(c, p, &Ki, epos[i], epos, n, sl, w, &oi);
        rs_kset_free(&Ki);
        requests += oi.requests;
        rcu += oi.rcu;
        items += oi.items;
        if (oi.latency > lat)
            lat = oi.latency;
        filter |= oi.filter;
    }
    lat += LAT_MERGE_MS * requests;
    *o = (readout){.plan = KP_PLAN_MULTI,
                   .requests = requests,
                   .rcu = rcu,
                   .items = items,
                   .latency = lat,
                   .filter = filter};
    rs_warn_add(w, xasprintf("%g requests for one screen: the entities do not share a partition", requests));
}

/* A chain of n entities (epos) joined: each next entity's keys come from the previous result. */
static void read_chain(rctx *c, const kp_pattern *p, const kset *K, const size_t *epos, size_t n,
                       steplist *sl, wlist *w, readout *o)
{
    double requests = 0, rcu = 0, items = 0, lat = 0, prev = 1;
    bool filter = false, app_sort = false, limit_pushed = false; /* the first read's */
    for (size_t i = 0; i < n; i++) {
        kset Ki = {0};
        const kp_entity *e = &c->d->entities[epos[i]];
        if (i == 0) {
            for (size_t k = 0; k < K->n; k++)
                rs_kset_add_known(&Ki, &K->v[k]);
        } else {
            for (size_t j = 0; j < p->njoin; j++)
                if (p->join[j].to.s && rs_knows(c, e, p->join[j].to.s))
                    rs_kset_add(&Ki, p->join[j].to.s, NULL, rs_attr_of(c, p->join[j].to.s));
            for (size_t k = 0; k < K->n; k++)
                if (rs_knows(c, e, K->v[k].name))
                    rs_kset_add_known(&Ki, &K->v[k]);
        }
        size_t before = sl->n;
        readout oi;
        read_entity(c, p, &Ki, epos[i], &epos[i], 1, sl, w, &oi);
        rs_kset_free(&Ki);
        filter |= oi.filter;
        if (i == 0) {
            requests += oi.requests;
            rcu += oi.rcu;
            items += oi.items;
            lat += oi.latency;
            app_sort = oi.app_sort;
            limit_pushed = oi.limit_pushed;
        } else if (sl->n > before) {
            kp_step *st = &sl->v[before];
            double times = prev < 0 ? 0 : prev;
            if (st->op == KP_OP_GETITEM) {
                /* the keys of `times` items: BatchGetItem, each item rounded */
                double size = util_nz(e->size);
                st->op = KP_OP_BATCHGET;
                st->count = ceil(times / CAP_BATCHGET_MAX_ITEMS);
                if (st->count < 1)
                    st->count = 1;
                st->items = times / st->count;
                st->rcu = capacity_batchget_rcu(st->items, size, p->consistency);
                requests += st->count;
                rcu += st->rcu * st->count;
                items += times;
                lat += LAT_RTT_MS + times * size / CAP_PAGE_BYTES * LAT_MS_PER_MB;
                oi.result = times;
            } else {
                /* one request per previous item, in parallel */
                double ct = times < 1 ? 1 : ceil(times);
                st->count *= ct;
                requests += oi.requests * ct;
                rcu += oi.rcu * ct;
                items += oi.items * ct;
                lat += oi.latency + LAT_MERGE_MS * ct;
                oi.result *= ct;
            }
        }
        prev = oi.result;
    }
    *o = (readout){.plan = KP_PLAN_MULTI,
                   .requests = requests,
                   .rcu = rcu,
                   .items = items,
                   .latency = lat,
                   .filter = filter,
                   .app_sort = app_sort,
                   .limit_pushed = limit_pushed};
}

/* A pattern that names no entity: a Scan of the whole table. */
static void read_all(rctx *c, const kp_pattern *p, const kset *K, steplist *sl, wlist *w, readout *o)
{
    double rcu, lat;
    rs_scan_step(c, p, K, NULL, sl, &rcu, &lat);
    rs_warn_add(w, xstrdup("nothing serves the pattern: Scan of the whole table"));
    *o = (readout){.plan = KP_PLAN_SCAN,
                   .requests = sl->v[sl->n - 1].count,
                   .rcu = rcu,
                   .items = c->table_items,
                   .latency = lat,
                   .filter = K->n > 0};
}

static void resolve_read(rctx *c, const kp_pattern *p, kp_pattern_result *r, steplist *sl, wlist *w)
{
    size_t n = p->nentities;
    size_t epos_inl[8];
    size_t *epos = n <= 8 ? epos_inl : xcalloc(n, sizeof *epos);
    for (size_t i = 0; i < n; i++) {
        if (!rs_entity_of(c, p->entities[i].s, &epos[i])) {
            rs_warn_add(w, xasprintf("unknown entity '%s'", p->entities[i].s ? p->entities[i].s : ""));
            r->plan = KP_PLAN_INVALID;
            if (epos != epos_inl)
                free(epos);
            return;
        }
    }
    kset K = {0};
    rs_known_from_by(c, p, &K);
    readout o;
    memset(&o, 0, sizeof o);
    if (n == 0)
        read_all(c, p, &K, sl, w, &o);
    else if (p->njoin > 0 && n > 1)
        read_chain(c, p, &K, epos, n, sl, w, &o);
    else if (n > 1)
        read_screen(c, p, &K, epos, n, sl, w, &o);
    else
        read_entity(c, p, &K, epos[0], epos, n, sl, w, &o);
    r->plan = o.plan;
    r->requests = o.requests;
    r->rcu_per_call = o.rcu;
    r->items_per_call = o.items;
    r->latency_ms = o.latency;
    r->filter = o.filter;
    r->app_sort = o.app_sort;
    r->limit_pushed = o.limit_pushed;
    rs_kset_free(&K);
    if (epos != epos_inl)
        free(epos);
}

static void resolve_write(rctx *c, const kp_pattern *p, kp_pattern_result *r, steplist *sl, wlist *w)
{
    size_t n = p->nentities;
    double items_total = !isnan(p->items) && p->items > 0 ? p->items : (double)(n ? n : 1);
    double per_entity = n ? items_total / (double)n : 0;
    kset K = {0};
    rs_known_from_by(c, p, &K);
    double wcu = 0, iwcu = 0, requests = 0, lat = 0, rcu = 0;
    bool multi = false;
    for (size_t i = 0; i < n; i++) {
        size_t epos;
        const kp_entity *e = rs_entity_of(c, p->entities[i].s, &epos);
        if (!e) {
            rs_warn_add(w, xasprintf("unknown entity '%s'", p->entities[i].s ? p->entities[i].s : ""));
            r->plan = KP_PLAN_INVALID;
            goto out;
        }
        double tw, iw;
        rs_write_units(c, p, epos, &tw, &iw);
        wcu += tw * per_entity;
        iwcu += iw * per_entity;
        if (p->op == KP_OP_TRANSACT)
            continue;
        kp_op op = p->op == KP_OP_UPDATE   ? KP_OP_UPDATEITEM
                   : p->op == KP_OP_DELETE ? KP_OP_DELETEITEM
                                           : KP_OP_PUTITEM;
        double writes = per_entity;
        bool direct = true;
        const entry *base = c->on[epos * c->nix + 0];
        if (p->op != KP_OP_PUT) {
            /* the full base-table key must be known */
            if (!base)
                direct = false;
            else {
                for (size_t j = 0; j < base->pk.n && direct; j++)
                    if (base->pk.parts[j].kind == TPL_ATTR &&
                        !rs_known_one(rs_kset_find(&K, base->pk.parts[j].text)))
                        direct = false;
                for (size_t j = 0; base->has_sk && j < base->sk.n && direct; j++)
                    if (base->sk.parts[j].kind == TPL_ATTR &&
                        !rs_known_one(rs_kset_find(&K, base->sk.parts[j].text)))
                        direct = false;
            }
            if (!direct) {
                readout o;
                read_entity(c, p, &K, epos, &epos, 1, sl, w, &o);
                requests += o.requests;
                rcu += o.rcu;
                lat += o.latency;
                writes = o.result > 0 ? o.result : 1;
                wcu += tw * (writes - per_entity);
                iwcu += iw * (writes - per_entity);
                multi = true;
                WARN(w, kp_write_op_name(p->op), " needs the full key of ", e->name, ": find, then write");
            }
        }
        kp_step *st = rs_step_new(sl);
        st->op = op;
        st->index = -1;
        st->entity = e;
        st->count = writes;
        st->items = 1;
        st->wcu = tw;
        if (base && direct) {
            kvlist vals = {0};
            rs_kv_add_key(c, &vals, KV_PK, rs_render_parts(c, &base->pk, base->pk.n, &K));
            if (base->has_sk)
                rs_kv_add_key(c, &vals, KV_SK, rs_render_parts(c, &base->sk, base->sk.n, &K));
            rs_kv_finish(c, &vals, st);
        }
        requests += writes;
    }
    if (p->op == KP_OP_TRANSACT) {
        kp_step *st = rs_step_new(sl);
        st->op = KP_OP_TRANSACTWRITE;
        st->index = -1;
        st->entity = n ? rs_entity_of(c, p->entities[0].s, NULL) : NULL;
        st->count = 1;
        st->items = items_total;
        st->wcu = wcu;
        r->plan = KP_PLAN_TRANSACT;
        r->requests = 1;
        lat = LAT_TRANSACT_MS;
    } else {
        r->plan = multi ? KP_PLAN_MULTI : KP_PLAN_WRITE;
        r->requests = requests;
        lat += LAT_WRITE_MS;
    }
    r->items_per_call = items_total;
    r->wcu_per_call = wcu;
    r->index_wcu_per_call = iwcu;
    r->rcu_per_call = rcu;
    r->latency_ms = lat;
out:
    rs_kset_free(&K);
}

static void resolve_pattern(rctx *c, const kp_pattern *p, kp_pattern_result *r)
{
    steplist sl = c->steps; /* scratch reused from pattern to pattern */
    sl.n = 0;
    wlist w = {0};
    w.c = c;
    w.v = c->wv; /* scratch reused from pattern to pattern */
    w.cap = c->wcap;
    r->pattern = p;
    r->index = -1;
    r->latency_ok = true;
    if (p->served_by) {
        r->plan = KP_PLAN_OUTSIDE;
    } else if (p->covered_by.s) {
        r->plan = KP_PLAN_COVERED;
    } else if (p->kind == KP_WRITE) {
        resolve_write(c, p, r, &sl, &w);
    } else {
        resolve_read(c, p, r, &sl, &w);
    }
    c->steps = sl;
    r->nsteps = sl.n;
    r->steps = NULL;
    if (sl.n) {
        r->steps = arena_alloc(c->ar, sl.n * sizeof *r->steps);
        memcpy(r->steps, sl.v, sl.n * sizeof *r->steps);
    }
    finish_main(r, c);
    if (r->plan == KP_PLAN_OUTSIDE || r->plan == KP_PLAN_COVERED) {
        r->index_name = "";
        r->index = -1;
    }
    rs_set_totals(r, p);
    if (!r->latency_ok) {
        char nb1[HUMANFMT_SIZE], nb2[HUMANFMT_SIZE];
        WARN(&w, "estimated ", humanfmt(nb1, sizeof nb1, r->latency_ms, HF_PRINTF_F0), " ms misses the ",
             humanfmt(nb2, sizeof nb2, p->latency, HF_PRINTF_G), " ms target");
    }
    if (p->needs != KP_NEEDS_NONE && !p->served_by)
        rs_warn_add(&w,
                    xasprintf("needs %s: DynamoDB cannot serve it; serve it outside (served_by), fed by the "
                              "change stream",
                              kp_needs_name(p->needs)));
    r->nwarnings = w.n;
    r->warnings = NULL;
    if (w.n) {
        r->warnings = arena_alloc(c->ar, w.n * sizeof *r->warnings);
        memcpy(r->warnings, w.v, w.n * sizeof *r->warnings); /* in the arena already */
    }
    c->wv = w.v;
    c->wcap = w.cap;
}

void stage_resolve(kp_analysis *a)
{
    const kp_design *d = a->design;
    a->npatterns = d ? d->npatterns : 0;
    a->patterns = xcalloc(a->npatterns ? a->npatterns : 1, sizeof *a->patterns);
    if (!d)
        return;
    rctx c;
    if (!a->capacity_memo)
        a->capacity_memo = capacity_memo_new(d);
    rs_ctx_init(&c, d, a->capacity_memo);
    c.cands = xcalloc(2 * c.nix, sizeof *c.cands);
    humanfmt(c.unknown_sel, sizeof c.unknown_sel, UNKNOWN_SELECTIVITY, HF_PRINTF_G);
    c.ar = arena_new();
    a->resolve_arena = c.ar;
    static const char *const keynames[4] = {":pk", ":sk", ":sk1", ":sk2"};
    for (int i = 0; i < 4; i++)
        c.keynames[i] = arena_strdup(c.ar, keynames[i]);
    for (size_t i = 0; i < d->npatterns; i++)
        resolve_pattern(&c, &d->patterns[i], &a->patterns[i]);
    free(c.steps.v);
    free(c.wv);
    rs_ctx_free(&c);
}

void stage_resolve_free(kp_analysis *a)
{
    for (size_t i = 0; i < a->npatterns; i++) {
        kp_pattern_result *r = &a->patterns[i];
        r->steps = NULL; /* in the arena */
        r->warnings = NULL;
    }
    free(a->patterns);
    arena_free(a->resolve_arena);
    a->resolve_arena = NULL;
    capacity_memo_free(a->capacity_memo);
    a->capacity_memo = NULL;
    a->patterns = NULL;
    a->npatterns = 0;
}
