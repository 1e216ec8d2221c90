/* resolve.c - the resolver stage: a->patterns.
 *
 * For every pattern: the plan, its requests (steps) with the key condition as DynamoDB receives
 * it, items read, read/write units per call and per second, the latency estimate and warnings.
 * This file walks the patterns (reads of one entity, chains, screens; writes); the work is split
 * by job as SQLite splits its planner, with one private header (resolve_int.h):
 *   resolve_index.c     what is computed once per analysis: the indexes' entries and groups
 *   resolve_plan.c      the choice of a plan for an entity or a screen
 *   resolve_capacity.c  the estimates: items, bytes, units, latency (documented there)
 *   resolve_render.c    the texts: key conditions, values, filters, steps, warnings
 * For analysis_update it also keeps, per pattern, the entities its result read beside those it
 * names (rs_note_read), and patches its context after an element's edit (stage_resolve_refigure,
 * stage_resolve_reopen). */
#include "resolve_int.h"

#include "humanfmt.h"
#include "i18n.h"
#include "textf.h"

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
        r->names = m->names;
        r->nnames = m->nnames;
    } else {
        r->index = -1;
        r->key_condition = arena_strdup(c->ar, "");
    }
    r->index_name = r->index < 0 ? "table" : c->d->indexes[r->index].name;
}

/* The BatchGetItem after a GSI's Query that returns only what the index projects: the results'
 * items from the table by key (cand_fetch's figures). */
static void fetch_step(rctx *c, const kp_pattern *p, const cand *cd, const kp_entity *e, steplist *sl,
                       wlist *w, readout *o)
{
    kp_step *f = rs_step_new(sl);
    f->op = KP_OP_BATCHGET;
    f->index = -1;
    f->entity = e;
    f->fetch = true;
    f->count = cd->fetch_requests;
    f->items = cd->result / cd->fetch_requests;
    f->rcu = cd->fetch_rcu / cd->fetch_requests;
    o->requests += cd->fetch_requests;
    o->rcu += cd->fetch_rcu;
    o->items += cd->result;
    if (cd->fetch_attr)
        /* TRANSLATORS: %1$s an index's name, %2$s an attribute's name */
        rs_warnf(w, _("%s does not project %s: each result is fetched from the table (BatchGetItem)"),
                 cd->xi->name, cd->fetch_attr);
    else
        /* TRANSLATORS: %s an index's name */
        rs_warnf(w,
                 _("%s does not project what the pattern returns: each result is fetched from the table "
                   "(BatchGetItem)"),
                 cd->xi->name);
    (void)p;
}

/* A transactional read: TransactGetItems holds Gets by the table's full key, never a Query, a
 * Scan or an index. A read the table serves by key becomes one TransactGetItems of its Gets (up
 * to 100 a request); anything else is refused (the plan keeps its strong read, a why-not line
 * and the error finding say so). best: the chosen candidate, NULL for a Scan. */
static void transact_read(rctx *c, const kp_pattern *p, const kp_entity *e, const cand *best, steplist *sl,
                          wlist *w, readout *o)
{
    if (p->kind != KP_READ || p->consistency != KP_TRANSACTIONAL)
        return;
    if (best && best->get && !best->fetch && sl->n > 0 && sl->v[sl->n - 1].op == KP_OP_GETITEM) {
        kp_step *st = &sl->v[sl->n - 1];
        double gets = st->count;
        st->op = KP_OP_TRANSACTGET;
        st->count = ceil(gets / CAP_TRANSACT_MAX_ITEMS);
        if (st->count < 1)
            st->count = 1;
        st->items = gets / st->count;
        st->rcu = st->rcu * gets / st->count;
        o->requests = st->count;
        o->plan = KP_PLAN_GET;
        return;
    }
    char in[320];
    sbuf b;
    sbuf_init_in(&b, in, sizeof in);
    /* TRANSLATORS: the operation a refused transactional read would need */
    const char *need = !best ? "Scan" : best->xi->index >= 0 ? _("Query on an index") : "Query";
    if (e)
        /* TRANSLATORS: %1$s an entity's name, %2$s "Scan", "Query" or "Query on an index" */
        textf_add(
            &b,
            _("a transactional read is a TransactGetItems of Gets by the table's full key; %s needs a %s: "
              "refused (read it strong, or give the full key)"),
            e->name, need);
    else
        /* TRANSLATORS: %s "Scan", "Query" or "Query on an index" */
        textf_add(&b,
                  _("a transactional read is a TransactGetItems of Gets by the table's full key; the pattern "
                    "needs a %s: refused (read it strong, or give the full key)"),
                  need);
    rs_why_add(c, "transactional-read", b.s);
    if (e)
        /* TRANSLATORS: %s an entity's name */
        rs_warnf(w, _("transactional read refused: %s is not read by its full key"), e->name);
    else
        rs_warnf(w, "%s", _("transactional read refused: the pattern is not read by its full key"));
    sbuf_free(&b);
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
        if (gsi_only) {
            /* TRANSLATORS: %s an entity's name */
            rs_warnf(w, _("strong read refused on a GSI for %s: GSIs are eventually consistent"), e->name);
            if (!w->strong_gsi)
                w->strong_gsi = w->n; /* the findings name it (strong-read-gsi), in any language */
        }
    }
    if (!ok) {
        double rcu, lat;
        rs_scan_step(c, p, K, e, sl, &rcu, &lat);
        /* TRANSLATORS: %1$s an entity's name, %2$s the attribute the pattern gives (may be empty) */
        rs_warnf(w, _("nothing serves %s by [%s]: Scan of the whole table"), e->name,
                 K->n ? K->v[0].name : "");
        o->plan = KP_PLAN_SCAN;
        o->requests = sl->v[sl->n - 1].count;
        o->rcu = rcu;
        o->items = c->table_items;
        o->result = c->table_items > 0 ? DEFAULT_COLLECTION : 0;
        o->latency = lat;
        o->filter = K->n > 0 || p->nfilter > 0;
        o->scan = true;
        rs_why_not(c, p, epos, NULL, true);
        transact_read(c, p, e, NULL, sl, w, o);
        return;
    }
    char what_in[240];
    sbuf what;
    sbuf_init_in(&what, what_in, sizeof what_in);
    kp_step *st = rs_cand_step(c, p, &best, K, sl, &what);
    st->fetch = best.fetch && !best.xi->gsi; /* an LSI fetches within its Query */
    rs_cand_warnings(c, p, &best, other.finished ? &other : NULL, w, what.s);
    sbuf_free(&what);
    o->requests = best.fanout * best.pages; /* each 1 MB page is a request; a GSI's fetch adds its own */
    o->rcu = best.rcu * best.fanout;
    o->items = best.items * best.fanout;
    o->result = best.result;
    o->latency = best.latency;
    o->filter = best.filter;
    o->app_sort = best.app_sort;
    o->limit_pushed = best.limit_pushed;
    if (best.fetch && best.xi->gsi)
        fetch_step(c, p, &best, e, sl, w, o);
    /* several requests: a fan-out, or a GSI's Query and its fetch (the 1 MB pages of one Query
       are requests of the same query plan) */
    o->plan = best.fanout > 1 || (best.fetch && best.xi->gsi) ? KP_PLAN_MULTI
              : best.get                                      ? KP_PLAN_GET
                                                              : KP_PLAN_QUERY;
    rs_why_not(c, p, epos, &best,
               best.fanout > 1 || best.app_sort || best.range_unserved || best.fetch || best.text_attr);
    transact_read(c, p, e, &best, sl, w, o);
}

/* Adds to Ki what K knows that entity e knows too (its fixed values with it). */
static void known_to(rctx *c, const kp_entity *e, const kset *K, kset *Ki)
{
    for (size_t k = 0; k < K->n; k++)
        if (rs_knows(c, e, K->v[k].name))
            rs_kset_add_known(Ki, &K->v[k]); /* its several fixed values too */
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
        known_to(c, &c->d->entities[epos[i]], K, &Ki);
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
    /* TRANSLATORS: %g a number of requests */
    rs_warnf(w, _("%g requests for one screen: the entities do not share a partition"), requests);
}

/* What the read planned next must return (rctx.want). */
static void want_set(rctx *c, const kp_str *v, size_t n, bool item, bool keys)
{
    c->want = v;
    c->nwant = n;
    c->want_item = item;
    c->want_keys = keys;
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
            known_to(c, e, K, &Ki);
        }
        size_t before = sl->n;
        readout oi;
        /* a step before the last returns what the next one needs: the join's attributes */
        kp_str from[8];
        size_t nfrom = 0;
        if (i + 1 < n) {
            for (size_t j = 0; j < p->njoin && nfrom < 8; j++)
                if (p->join[j].from.s)
                    from[nfrom++] = p->join[j].from;
            want_set(c, from, nfrom, false, false);
        } else {
            want_set(c, p->returns, p->nreturns, p->nreturns == 0, false);
        }
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
                /* the keys of `times` items: BatchGetItem, each item rounded; a request holds 100
                   keys and returns 16 MB at most (the rest comes back unprocessed) */
                double size = util_nz(e->size);
                st->op = KP_OP_BATCHGET;
                st->count =
                    fmax(ceil(times / CAP_BATCHGET_MAX_ITEMS), ceil(times * size / CAP_BATCHGET_MAX_BYTES));
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

/* A transactional screen of n entities: each entity read by its full key, the Gets together in
 * one TransactGetItems (100 a request); an entity that needs a Query is refused (transact_read). */
static void read_transact_screen(rctx *c, const kp_pattern *p, const kset *K, const size_t *epos, size_t n,
                                 steplist *sl, wlist *w, readout *o)
{
    memset(o, 0, sizeof *o);
    kp_step *first = NULL;
    size_t first_at = 0;
    bool all_gets = true;
    for (size_t i = 0; i < n; i++) {
        kset Ki = {0};
        known_to(c, &c->d->entities[epos[i]], K, &Ki);
        size_t before = sl->n;
        readout oi;
        read_entity(c, p, &Ki, epos[i], epos, n, sl, w, &oi);
        rs_kset_free(&Ki);
        o->rcu += oi.rcu;
        o->items += oi.items;
        o->result += oi.result;
        o->filter |= oi.filter;
        if (oi.latency > o->latency)
            o->latency = oi.latency;
        bool get = sl->n == before + 1 && sl->v[before].op == KP_OP_TRANSACTGET;
        all_gets = all_gets && get;
        if (!get) {
            o->requests += oi.requests;
            continue;
        }
        if (!first) {
            first_at = before;
            first = &sl->v[before];
            o->requests += oi.requests;
            continue;
        }
        /* one TransactGetItems for every Get */
        first = &sl->v[first_at];
        double gets = first->count * first->items + sl->v[before].count * sl->v[before].items;
        double rcu = first->count * first->rcu + sl->v[before].count * sl->v[before].rcu;
        o->requests -= first->count;
        first->count = ceil(gets / CAP_TRANSACT_MAX_ITEMS);
        first->items = gets / first->count;
        first->rcu = rcu / first->count;
        o->requests += first->count;
        sl->n = before; /* the merged step goes */
    }
    o->plan = all_gets ? KP_PLAN_GET : KP_PLAN_MULTI;
}

/* A pattern that names no entity: a Scan of the whole table. */
static void read_all(rctx *c, const kp_pattern *p, const kset *K, steplist *sl, wlist *w, readout *o)
{
    double rcu, lat;
    rs_scan_step(c, p, K, NULL, sl, &rcu, &lat);
    rs_warnf(w, "%s", _("nothing serves the pattern: Scan of the whole table"));
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
            /* TRANSLATORS: %s an entity's name */
            rs_warnf(w, _("unknown entity '%s'"), p->entities[i].s ? p->entities[i].s : "");
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
    want_set(c, p->returns, p->nreturns, p->nreturns == 0, false);
    if (n == 0)
        read_all(c, p, &K, sl, w, &o);
    else if (p->njoin > 0 && n > 1)
        read_chain(c, p, &K, epos, n, sl, w, &o);
    else if (n > 1 && p->consistency == KP_TRANSACTIONAL)
        read_transact_screen(c, p, &K, epos, n, sl, w, &o);
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

/* The why-not line of an update that changes the table key of e: the attribute and the key. */
static void key_move_why(rctx *c, const kp_pattern *p, const kp_entity *e, wlist *w)
{
    const char *attr = NULL, *key = NULL;
    const char *keys[2] = {c->d->table.pk.s, c->d->table.sk.s};
    for (size_t i = 0; i < p->nchanges && !attr; i++)
        for (int k = 0; k < 2 && !attr; k++) {
            const char *ch = p->changes[i].s;
            const kp_keytpl *t = keys[k] ? entity_key(e, keys[k]) : NULL;
            if (ch && keys[k] && (strcmp(ch, keys[k]) == 0 || (t && tpl_has_attr(&t->tpl, ch)))) {
                attr = ch;
                key = keys[k];
            }
        }
    const kp_keytpl *t = key ? entity_key(e, key) : NULL;
    /* TRANSLATORS: %1$s an attribute, %2$s an entity, %3$s the key attribute, %4$s its template */
    char *m = textf(_("the update changes %s, part of %s's table key %s = %s: DynamoDB cannot update a key "
                      "attribute, so it is a Delete of the old item and a Put of the new one, in one "
                      "TransactWriteItems"),
                    attr ? attr : "?", e->name, key ? key : "?", t && t->tpl.src ? t->tpl.src : "?");
    rs_why_add(c, "key-update", m);
    free(m);
    if (attr)
        /* TRANSLATORS: %1$s an entity's name, %2$s one of its attributes */
        rs_warnf(w, _("key change: %s's %s is in its table key: Delete + Put in a transaction"), e->name,
                 attr);
    else
        /* TRANSLATORS: %s an entity's name */
        rs_warnf(w, _("key change: %s's key is in its table key: Delete + Put in a transaction"), e->name);
}

static void resolve_write(rctx *c, const kp_pattern *p, kp_pattern_result *r, steplist *sl, wlist *w)
{
    size_t n = p->nentities;
    double items_total = !isnan(p->items) && p->items > 0 ? p->items : (double)(n ? n : 1);
    double per_entity = n ? items_total / (double)n : 0;
    kset K = {0};
    rs_known_from_by(c, p, &K);
    double wcu = 0, iwcu = 0, requests = 0, lat = 0, rcu = 0;
    bool multi = false, moved = false;
    for (size_t i = 0; i < n; i++) {
        size_t epos;
        const kp_entity *e = rs_entity_of(c, p->entities[i].s, &epos);
        if (!e) {
            /* TRANSLATORS: %s an entity's name */
            rs_warnf(w, _("unknown entity '%s'"), p->entities[i].s ? p->entities[i].s : "");
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
                want_set(c, NULL, 0, false, true); /* the find needs the table key only */
                read_entity(c, p, &K, epos, &epos, 1, sl, w, &o);
                requests += o.requests;
                rcu += o.rcu;
                lat += o.latency;
                writes = o.result > 0 ? o.result : 1;
                wcu += tw * (writes - per_entity);
                iwcu += iw * (writes - per_entity);
                multi = true;
                /* TRANSLATORS: %1$s a DynamoDB operation (UpdateItem...), %2$s an entity's name */
                rs_warnf(w, _("%s needs the full key of %s: find, then write"), kp_write_op_name(p->op),
                         e->name);
            }
        }
        bool moves = capacity_update_moves_key(c->d, e, p->op, p->changes, p->nchanges);
        kp_step *st = rs_step_new(sl);
        st->op = op;
        st->index = -1;
        st->entity = e;
        st->count = writes;
        st->items = 1;
        st->wcu = tw;
        if (moves) {
            /* DynamoDB cannot update a key attribute: Delete + Put, in one transaction */
            st->op = KP_OP_TRANSACTWRITE;
            st->key_move = true;
            st->items = 2;
            key_move_why(c, p, e, w);
            moved = true;
        }
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
        r->plan = multi ? KP_PLAN_MULTI : moved ? KP_PLAN_TRANSACT : KP_PLAN_WRITE;
        r->requests = requests;
        lat += moved ? LAT_TRANSACT_MS : LAT_WRITE_MS;
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
    c->reads.n = 0;
    if (++c->rstamp == 0) { /* wrapped: no mark may look current */
        memset(c->rmark, 0, (c->d->nentities + 1) * sizeof *c->rmark);
        c->rstamp = 1;
    }
    steplist sl = c->steps; /* scratch reused from pattern to pattern */
    sl.n = 0;
    c->why.n = 0;
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
        /* TRANSLATORS: %1$s the estimated latency, %2$s the target, both in milliseconds */
        rs_warnf(&w, _("estimated %s ms misses the %s ms target"),
                 textf_figure(nb1, sizeof nb1, r->latency_ms, HF_PRINTF_F0),
                 textf_figure(nb2, sizeof nb2, p->latency, HF_PRINTF_G));
    }
    if (p->needs != KP_NEEDS_NONE && !p->served_by)
        /* TRANSLATORS: %s search, aggregate or adhoc (words of the design file) */
        rs_warnf(
            &w,
            _("needs %s: DynamoDB cannot serve it; serve it outside (served_by), fed by the change stream"),
            kp_needs_name(p->needs));
    r->nwarnings = w.n;
    r->strong_gsi_warning = w.strong_gsi;
    r->warnings = NULL;
    if (w.n) {
        r->warnings = arena_alloc(c->ar, w.n * sizeof *r->warnings);
        memcpy(r->warnings, w.v, w.n * sizeof *r->warnings); /* in the arena already */
    }
    c->wv = w.v;
    c->wcap = w.cap;
    r->nwhy_not = c->why.n;
    r->why_not = NULL;
    if (c->why.n) {
        r->why_not = arena_alloc(c->ar, c->why.n * sizeof *r->why_not);
        memcpy(r->why_not, c->why.v, c->why.n * sizeof *r->why_not); /* texts in the arena already */
    }
}

struct rs_keep {
    rctx c;
    struct readlist *read; /* per pattern: the entities its result read beside those it names
                              (rctx.reads when it was resolved) */
    size_t nread;
};

/* The context for a->design, its results' strings going to ar; a->capacity_memo made when
 * there is none. */
static void keep_init(rctx *c, kp_analysis *a, arena *ar)
{
    const kp_design *d = a->design;
    if (!a->capacity_memo)
        a->capacity_memo = capacity_memo_new(d);
    rs_ctx_init(c, d, a->capacity_memo);
    c->cands = xcalloc(2 * c->nix, sizeof *c->cands); /* a fan-out variant per index too */
    c->rej = xcalloc(c->nix, sizeof *c->rej);
    c->sk_num = xcalloc(c->nix, sizeof *c->sk_num);
    c->item_miss = xcalloc(c->nix * (d->nentities + 1), sizeof *c->item_miss);
    c->carry = xcalloc(c->nix * (d->nentities + 1), sizeof *c->carry);
    c->rmark = xcalloc(d->nentities + 1, sizeof *c->rmark);
    textf_figure(c->unknown_sel, sizeof c->unknown_sel, UNKNOWN_SELECTIVITY, HF_PRINTF_G);
    c->ar = ar;
    a->resolve_arena = ar;
    static const char *const keynames[4] = {":pk", ":sk", ":sk1", ":sk2"};
    for (int i = 0; i < 4; i++)
        c->keynames[i] = arena_strdup(ar, keynames[i]);
}

rs_keep *stage_resolve_open(kp_analysis *a, bool keep_reads)
{
    const kp_design *d = a->design;
    a->npatterns = d ? d->npatterns : 0;
    a->patterns = xcalloc(a->npatterns ? a->npatterns : 1, sizeof *a->patterns);
    if (!d)
        return NULL;
    rs_keep *k = xmalloc(sizeof *k);
    keep_init(&k->c, a, arena_new());
    k->nread = keep_reads ? a->npatterns : 0; /* analysis_run's resolver keeps nothing after */
    k->read = xcalloc(k->nread + 1, sizeof *k->read);
    return k;
}

void stage_resolve_pattern(rs_keep *k, kp_analysis *a, size_t i)
{
    if (!k || i >= a->npatterns)
        return;
    memset(&a->patterns[i], 0, sizeof a->patterns[i]);
    resolve_pattern(&k->c, &k->c.d->patterns[i], &a->patterns[i]);
    struct readlist *l = i < k->nread ? &k->read[i] : NULL, *r = &k->c.reads;
    if (l) { /* what it read, kept (its list's room reused) */
        if (l->cap < r->n) {
            l->cap = r->n;
            l->v = xrealloc(l->v, l->cap * sizeof *l->v);
        }
        if (r->n)
            memcpy(l->v, r->v, r->n * sizeof *l->v);
        l->n = r->n;
    }
}

const size_t *stage_resolve_read(const rs_keep *k, size_t i, size_t *n)
{
    *n = k && i < k->nread ? k->read[i].n : 0;
    return *n ? k->read[i].v : NULL;
}

void stage_resolve_rows(rs_keep *k, kp_rowop op)
{
    size_t n = k ? k->nread : 0;
    if (!k || !kp_rowop_fits(op, n))
        return;
    if (op.kind == KP_ROW_REMOVE)
        free(k->read[op.row].v);
    else if (op.kind == KP_ROW_INSERT)
        k->read = xrealloc(k->read, (n + 2) * sizeof *k->read);
    kp_rowop_shift(k->read, n, sizeof *k->read, op);
    if (op.kind == KP_ROW_INSERT)
        k->read[op.row] = (struct readlist){0};
    k->nread = kp_rowop_count(op, n);
}

/* The context's own parts, the scratch lists included (not the arena: the results' strings). */
static void keep_release(rctx *c)
{
    free(c->steps.v);
    free(c->wv);
    free(c->why.v);
    free(c->rej);
    free(c->sk_num);
    free(c->item_miss);
    free(c->carry);
    free(c->rmark);
    free(c->reads.v);
    rs_ctx_free(c);
}

void stage_resolve_close(rs_keep *k)
{
    if (!k)
        return;
    keep_release(&k->c);
    for (size_t i = 0; i < k->nread; i++)
        free(k->read[i].v);
    free(k->read);
    free(k);
}

void stage_resolve_reopen(rs_keep *k, kp_analysis *a, const bool *forget)
{
    if (!k)
        return;
    arena *ar = k->c.ar;
    keep_release(&k->c);
    if (forget) {
        for (size_t e = 0; e < a->design->nentities; e++)
            if (forget[e])
                capacity_memo_forget(a->capacity_memo, e);
    } else {
        capacity_memo_free(a->capacity_memo);
        a->capacity_memo = NULL;
    }
    keep_init(&k->c, a, ar);
}

void stage_resolve_refigure(rs_keep *k, size_t epos)
{
    if (k)
        rs_ctx_refigure(&k->c, epos);
}

void stage_resolve_reproject(rs_keep *k, ptrdiff_t index)
{
    rctx *c = k ? &k->c : NULL;
    if (!c || index < 0 || (size_t)index + 1 >= c->nix)
        return;
    for (size_t e = 0; e < c->d->nentities; e++)
        if (c->on[e * c->nix + (size_t)(index + 1)]) {
            c->item_miss[e * c->nix + (size_t)(index + 1)] = NULL; /* what a whole item misses */
            rs_ctx_refigure(c, e);
        }
}

bool stage_resolve_on(rs_keep *k, size_t epos, ptrdiff_t index)
{
    return k && epos < k->c.d->nentities && index >= -1 && index + 1 < (ptrdiff_t)k->c.nix &&
           k->c.on[epos * k->c.nix + (size_t)(index + 1)] != NULL;
}

void stage_resolve_entry_figures(const rs_keep *k, size_t epos, double *out)
{
    const rctx *c = &k->c;
    for (size_t x = 0; x < c->nix; x++) {
        const entry *en = epos < c->d->nentities ? c->on[epos * c->nix + x] : NULL;
        out[4 * x] = en != NULL;
        out[4 * x + 1] = en ? en->share : 0;
        out[4 * x + 2] = en ? en->proj : 0;
        out[4 * x + 3] = en ? en->coll : 0;
    }
}

void stage_resolve_neighbours(rs_keep *k, size_t epos, bool *touch)
{
    if (!k || epos >= k->c.d->nentities)
        return;
    rctx *c = &k->c;
    touch[epos] = true;
    for (size_t x = 0; x < c->nix; x++) {
        const entry *en = c->on[epos * c->nix + x];
        if (!en)
            continue;
        ixinfo *xi = &c->ix[x];
        size_t ng;
        const size_t *gs = rs_colliding_groups(c, xi, en->group, &ng);
        for (size_t gi = 0; gi < ng; gi++)
            for (size_t m = xi->gstart[gs[gi]]; m < xi->gstart[gs[gi] + 1]; m++)
                touch[xi->entries[xi->gmembers[m]].epos] = true;
        for (size_t m = xi->gstart[en->group]; m < xi->gstart[en->group + 1]; m++)
            touch[xi->entries[xi->gmembers[m]].epos] = true;
    }
}

void stage_resolve(kp_analysis *a)
{
    rs_keep *k = stage_resolve_open(a, false);
    for (size_t i = 0; i < a->npatterns; i++)
        stage_resolve_pattern(k, a, i);
    stage_resolve_close(k);
}

void stage_resolve_free(kp_analysis *a)
{
    for (size_t i = 0; i < a->npatterns; i++) {
        kp_pattern_result *r = &a->patterns[i];
        r->steps = NULL; /* in the arena */
        r->warnings = NULL;
        r->why_not = NULL;
    }
    free(a->patterns);
    arena_free(a->resolve_arena);
    a->resolve_arena = NULL;
    capacity_memo_free(a->capacity_memo);
    a->capacity_memo = NULL;
    a->patterns = NULL;
    a->npatterns = 0;
}
