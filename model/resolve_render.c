/* resolve_render.c - the resolver's texts: key conditions, values, filters, steps and warnings.
 *
 * Key values are the templates rendered with what the caller knows (fixed values formatted,
 * literal braces doubled, an unknown placeholder as {name}); a key condition depends only on the
 * index and the kind of sort-key condition, so it is made once and shared. Every text lives in
 * the analysis' arena (a->resolve_arena): the live pane recomputes on every keystroke, and
 * thousands of small mallocs and frees per run would cost more than the resolution itself. */
#include "resolve_int.h"

#include "humanfmt.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void warn_keep(wlist *w, char *msg)
{
    for (size_t i = 0; i < w->n; i++)
        if (strcmp(w->v[i], msg) == 0)
            return; /* the arena copy is released with the rest */
    VEC_GROW(w->v, w->n, w->cap);
    w->v[w->n++] = msg;
}

void rs_warn_add(wlist *w, char *msg)
{
    size_t n = strlen(msg);
    char *t = arena_alloc(w->c->ar, n + 1);
    memcpy(t, msg, n + 1);
    free(msg);
    warn_keep(w, t);
}

void rs_warn_cat(wlist *w, ...)
{
    va_list ap;
    size_t len = 0;
    va_start(ap, w);
    for (const char *s = va_arg(ap, const char *); s; s = va_arg(ap, const char *))
        len += strlen(s);
    va_end(ap);
    char *msg = arena_alloc(w->c->ar, len + 1), *q = msg;
    va_start(ap, w);
    for (const char *s = va_arg(ap, const char *); s; s = va_arg(ap, const char *)) {
        size_t n = strlen(s);
        memcpy(q, s, n);
        q += n;
    }
    va_end(ap);
    *q = '\0';
    warn_keep(w, msg);
}

/* parts[0..end) as a value template; fixed values substituted (formatted): the general
 * version, for the texts that do not fit render_parts' buffer. */
static char *render_parts_long(const rctx *c, const keyview *v, size_t end, const kset *K)
{
    char b_in[240];
    sbuf b;
    sbuf_init_in(&b, b_in, sizeof b_in);
    for (size_t i = 0; i < end && i < v->n; i++) {
        const tpl_part *pt = &v->parts[i];
        if (pt->kind == TPL_LIT) {
            tpl_add_literal(&b, pt->text);
            continue;
        }
        const known *k = rs_kset_find(K, pt->text);
        if (k && k->value) {
            const kp_attr *a = k->attr; /* rs_attr_of(c, pt->text): k is its name's entry */
            const char *fmt = pt->format ? pt->format : (a ? a->format : NULL);
            char *val = tpl_apply_format(k->value, fmt);
            tpl_add_literal(&b, val);
            free(val);
        } else {
            tpl_add_placeholder(&b, pt);
        }
    }
    return sbuf_to_arena(&b, c->ar);
}

char *rs_render_parts(const rctx *c, const keyview *v, size_t end, const kset *K)
{
    size_t n = end < v->n ? end : v->n;
    /* no fixed value among the parts: the text made for these parts before (shared, read only) */
    bool fixed = false;
    for (size_t i = 0; i < n && !fixed; i++)
        if (v->parts[i].kind != TPL_LIT) {
            const known *k = rs_kset_find(K, v->parts[i].text);
            fixed = k && k->value;
        }
    keyview *mv = (keyview *)v; /* the views live in the context's entries: the cache is theirs */
    if (!fixed) {
        if (n == v->n && mv->r_full)
            return mv->r_full;
        if (n < v->n && mv->r_part && mv->r_end == n)
            return mv->r_part;
    }
    char *r = rs_render_parts_text(c, v, end, K);
    if (!fixed) {
        if (n == v->n) {
            mv->r_full = r;
        } else {
            mv->r_part = r;
            mv->r_end = n;
        }
    }
    return r;
}

char *rs_render_parts_text(const rctx *c, const keyview *v, size_t end, const kset *K)
{
    char buf[256];
    size_t o = 0, n = end < v->n ? end : v->n;
    for (size_t i = 0; i < n; i++) {
        const tpl_part *pt = &v->parts[i];
        const char *s;
        char *val = NULL;
        if (pt->kind == TPL_LIT) {
            s = pt->text;
        } else {
            const known *k = rs_kset_find(K, pt->text);
            if (!k || !k->value) {
                size_t tl = strlen(pt->text), fl = pt->format ? strlen(pt->format) : 0;
                if (o + tl + fl + 3 >= sizeof buf)
                    return render_parts_long(c, v, end, K);
                buf[o++] = '{';
                memcpy(buf + o, pt->text, tl);
                o += tl;
                if (pt->format) {
                    buf[o++] = ':';
                    memcpy(buf + o, pt->format, fl);
                    o += fl;
                }
                buf[o++] = '}';
                continue;
            }
            const kp_attr *a = k->attr; /* rs_attr_of(c, pt->text): k is its name's entry */
            const char *fmt = pt->format ? pt->format : (a ? a->format : NULL);
            if (fmt && *fmt) {
                val = tpl_apply_format(k->value, fmt);
                s = val;
            } else {
                s = k->value; /* tpl_apply_format's answer: the value as it is */
            }
        }
        for (; *s; s++) {
            if (o + 2 >= sizeof buf) {
                free(val);
                return render_parts_long(c, v, end, K);
            }
            buf[o++] = *s;
            if (*s == '{' || *s == '}')
                buf[o++] = *s;
        }
        free(val);
    }
    return arena_strndup(c->ar, buf, o);
}

/* The bounds of a BETWEEN on the sort key parts[0..end) (the range attribute last), the one
 * builder of every plan that sends one (a query, one per shard, one per enum value): the lower
 * bound is the prefix and the range value; the upper one must sort after every continuation of
 * the key (PEDIDO#{orderDate}#{orderId}, {status}-{day}-{ticketId}), or the items of the last
 * value are lost (PEDIDO#2025-01-10#4471 > PEDIDO#2025-01-10): a '~' follows when the next
 * literal starts with an ASCII character below it ('#', '-'); otherwise U+10FFFF, the greatest
 * UTF-8 sequence. */
static void range_bounds(const rctx *c, const keyview *v, size_t end, const kset *K, char **lo, char **hi)
{
    char *base = rs_render_parts(c, v, end, K);
    *lo = base;
    if (end >= v->n) {
        *hi = base;
        return;
    }
    const tpl_part *next = &v->parts[end];
    bool ascii_lit = next->kind == TPL_LIT && next->text[0] && (unsigned char)next->text[0] < '~';
    char b_in[240];
    sbuf b;
    sbuf_init_in(&b, b_in, sizeof b_in);
    sbuf_add(&b, base);
    sbuf_add(&b, ascii_lit ? "~" : "\xF4\x8F\xBF\xBF");
    *hi = sbuf_to_arena(&b, c->ar);
}

/* Appends name = value, both in the arena already (not copied). */
static void kv_add_own(kvlist *l, char *name, char *value)
{
    VEC_GROW_INL(l->v, l->n, l->cap, l->inl);
    l->v[l->n].name = name;
    l->v[l->n].value = value;
    l->n++;
}

/* Appends name (copied into the arena) = value (already in the arena). */
static void kv_add(const rctx *c, kvlist *l, const char *name, char *value)
{
    kv_add_own(l, arena_strdup(c->ar, name), value);
}

void rs_kv_add_key(const rctx *c, kvlist *l, int which, char *value)
{
    kv_add_own(l, c->keynames[which], value);
}

void rs_kv_finish(const rctx *c, kvlist *l, kp_step *st)
{
    st->nvalues = l->n;
    st->values = NULL;
    if (l->n) {
        st->values = arena_alloc(c->ar, l->n * sizeof *st->values);
        memcpy(st->values, l->v, l->n * sizeof *st->values);
    }
    if (l->v && l->v != l->inl)
        free(l->v);
    l->v = NULL;
    l->n = l->cap = 0;
}

/* Key condition and values of candidate cd. The text depends only on the index and the kind
 * of sort-key condition: made once per (index, kind) and shared by the steps. */
static char *build_key_condition(const rctx *c, const cand *cd, const kset *K, kvlist *vals)
{
    ixinfo *xi = (ixinfo *)cd->xi;
    const entry *en = cd->en;
    bool sk = xi->sk && en->has_sk;
    skc kind = sk ? cd->kind : SKC_NONE;
    rs_kv_add_key(c, vals, KV_PK, rs_render_parts(c, &en->pk, en->pk.n, K));
    if (sk) {
        switch (cd->kind) {
        case SKC_EXACT:
            rs_kv_add_key(c, vals, KV_SK, rs_render_parts(c, &en->sk, en->sk.n, K));
            break;
        case SKC_BEGINS:
            rs_kv_add_key(c, vals, KV_SK, rs_render_parts(c, &en->sk, cd->sk_end, K));
            break;
        case SKC_BETWEEN: {
            char *lo, *hi;
            range_bounds(c, &en->sk, cd->sk_end + 1, K, &lo, &hi);
            rs_kv_add_key(c, vals, KV_SK1, lo);
            rs_kv_add_key(c, vals, KV_SK2, hi);
            break;
        }
        case SKC_NONE:
            break;
        }
    }
    if (xi->kc[kind])
        return xi->kc[kind];
    char b_in[240];
    sbuf b;
    sbuf_init_in(&b, b_in, sizeof b_in);
    /* the sort key's condition per kind: the text before its name and after it */
    static const char *const sk_cond[4][2] = {
        [SKC_NONE] = {NULL, NULL},
        [SKC_BEGINS] = {" AND begins_with(", ", :sk)"},
        [SKC_BETWEEN] = {" AND ", " BETWEEN :sk1 AND :sk2"},
        [SKC_EXACT] = {" AND ", " = :sk"},
    };
    sbuf_add(&b, xi->pk);
    sbuf_add(&b, " = :pk");
    if (sk_cond[kind][0]) {
        sbuf_add(&b, sk_cond[kind][0]);
        sbuf_add(&b, xi->sk);
        sbuf_add(&b, sk_cond[kind][1]);
    }
    xi->kc[kind] = sbuf_to_arena(&b, c->ar);
    return xi->kc[kind];
}

static void add_filter_term(const rctx *c, sbuf *b, kvlist *vals, const char *fmt_attr, const char *attr,
                            const char *value)
{
    if (b->len)
        sbuf_add(b, " AND ");
    if (strcmp(fmt_attr, "%s = :%s") == 0) {
        sbuf_add(b, attr);
        sbuf_add(b, " = :");
        sbuf_add(b, attr);
    } else
        sbuf_printf(b, fmt_attr, attr, attr);
    for (size_t i = 0; i < vals->n; i++)
        if (vals->v[i].name[0] == ':' && strcmp(vals->v[i].name + 1, attr) == 0)
            return;
    size_t la = strlen(attr);
    char *name = arena_alloc(c->ar, la + 2);
    name[0] = ':';
    memcpy(name + 1, attr, la + 1);
    char *val;
    if (value)
        val = arena_strdup(c->ar, value);
    else {
        val = arena_alloc(c->ar, la + 3);
        val[0] = '{';
        memcpy(val + 1, attr, la);
        val[la + 1] = '}';
        val[la + 2] = '\0';
    }
    kv_add_own(vals, name, val);
}

/* "attr IN (:attr0, :attr1)": a known attribute with several fixed values, any of them. */
static void add_in_term(const rctx *c, sbuf *b, kvlist *vals, const known *k)
{
    if (b->len)
        sbuf_add(b, " AND ");
    sbuf_add(b, k->name);
    sbuf_add(b, " IN (");
    for (size_t i = 0; i < k->nvals; i++) {
        char *name = arena_printf(c->ar, ":%s%zu", k->name, i);
        sbuf_add(b, i ? ", " : "");
        sbuf_add(b, name);
        kv_add_own(vals, name, arena_strdup(c->ar, k->vals[i]));
    }
    sbuf_addc(b, ')');
}

/* FilterExpression of candidate cd (NULL when none); its values appended to vals. */
static char *build_filter(rctx *c, const kp_pattern *p, const cand *cd, const kset *K, kvlist *vals,
                          sbuf *what)
{
    if (!cd->filter)
        return NULL;
    const kp_entity *e = cd->en->e;
    char b_in[240];
    sbuf b;
    sbuf_init_in(&b, b_in, sizeof b_in);
    for (size_t i = 0; i < K->n; i++) {
        const char *nm = K->v[i].name;
        if (!rs_knows(c, e, nm))
            continue;
        bool used = false;
        for (size_t j = 0; j < cd->en->pk.n && !used; j++)
            if (cd->en->pk.parts[j].kind == TPL_ATTR && strcmp(cd->en->pk.parts[j].text, nm) == 0)
                used = true;
        if (cd->en->has_sk)
            for (size_t j = 0; j < cd->sk_end && j < cd->en->sk.n && !used; j++)
                if (cd->en->sk.parts[j].kind == TPL_ATTR && strcmp(cd->en->sk.parts[j].text, nm) == 0)
                    used = true;
        if (!used && cd->xi->index >= 0) {
            const char *ks[2] = {cd->xi->pk, cd->xi->sk};
            for (int s = 0; s < 2; s++) {
                const kp_sparse *sp = ks[s] ? entity_sparse(e, ks[s]) : NULL;
                if (sp && sp->kind == KP_SPARSE_COND && sp->cond_attr.s && strcmp(sp->cond_attr.s, nm) == 0)
                    used = true;
            }
        }
        if (used)
            continue;
        if (K->v[i].nvals > 1)
            add_in_term(c, &b, vals, &K->v[i]);
        else
            add_filter_term(c, &b, vals, "%s = :%s", nm, K->v[i].value);
        sbuf_add(what, what->len ? ", " : "");
        sbuf_add(what, nm);
    }
    if (cd->range_unserved) {
        if (b.len)
            sbuf_add(&b, " AND ");
        sbuf_add(&b, p->range.s);
        sbuf_add(&b, " BETWEEN :");
        sbuf_add(&b, p->range.s);
        sbuf_add(&b, "1 AND :");
        sbuf_add(&b, p->range.s);
        sbuf_add(&b, "2");
        kv_add_own(vals, arena_printf(c->ar, ":%s1", p->range.s), arena_printf(c->ar, "{%s}", p->range.s));
        kv_add_own(vals, arena_printf(c->ar, ":%s2", p->range.s), arena_printf(c->ar, "{%s}", p->range.s));
        sbuf_add(what, what->len ? ", " : "");
        sbuf_add(what, p->range.s);
    }
    for (size_t i = 0; i < p->nfilter; i++) {
        if (!p->filter[i].s || !rs_knows(c, e, p->filter[i].s))
            continue;
        add_filter_term(c, &b, vals, "%s = :%s", p->filter[i].s, NULL);
        sbuf_add(what, what->len ? ", " : "");
        sbuf_add(what, p->filter[i].s);
    }
    if (cd->mixed) {
        /* an attribute this entity carries and the other one does not; else a type tag */
        const char *tag = NULL;
        for (size_t i = 0; i < e->nattrs && !tag; i++)
            if (cd->collider && !entity_carries(cd->collider->e, e->attrs[i].s) &&
                !entity_knows(cd->collider->e, e->attrs[i].s))
                tag = e->attrs[i].s;
        if (b.len)
            sbuf_add(&b, " AND ");
        if (tag) {
            sbuf_add(&b, "attribute_exists(");
            sbuf_add(&b, tag);
            sbuf_addc(&b, ')');
        } else {
            sbuf_add(&b, "entityType = :entityType");
            kv_add(c, vals, ":entityType", arena_strdup(c->ar, e->name));
        }
        sbuf_add(what, what->len ? ", " : "");
        sbuf_add(what, "other entities (");
        sbuf_add(what, cd->collider ? cd->collider->e->name : "?");
        sbuf_addc(what, ')');
    }
    (void)c;
    if (!b.len) {
        sbuf_free(&b);
        return NULL;
    }
    return sbuf_to_arena(&b, c->ar);
}

kp_step *rs_step_new(steplist *s)
{
    VEC_GROW(s->v, s->n, s->cap);
    kp_step *st = &s->v[s->n++];
    memset(st, 0, sizeof *st);
    st->op = KP_OP_NONE;
    st->index = -1;
    st->forward = true;
    st->limit = NAN;
    st->count = 1;
    return st;
}

/* What the choice between one query per value and one query with a filter came to. */
static void fan_choice_note(const cand *cd, const cand *other, wlist *w)
{
    const cand *fan = cd->alt ? cd : other, *one = cd->alt ? other : cd;
    if (!fan || !one || !fan->skfan)
        return;
    char n1[HUMANFMT_SIZE], n2[HUMANFMT_SIZE], n3[HUMANFMT_SIZE], n4[HUMANFMT_SIZE];
    double q1 = fan->fanout * fan->pages, q2 = one->fanout * one->pages;
    WARN(w, fan->skfan, " takes several values: one query per value (",
         humanfmt(n1, sizeof n1, q1, HF_PRINTF_G), q1 == 1 ? " request, " : " requests, ",
         humanfmt(n2, sizeof n2, fan->rcu * fan->fanout, HF_NUM_REPORT),
         " RCU a call) or one query with a filter (", humanfmt(n3, sizeof n3, q2, HF_PRINTF_G),
         q2 == 1 ? " request, " : " requests, ",
         humanfmt(n4, sizeof n4, one->rcu * one->fanout, HF_NUM_REPORT),
         " RCU): ", cd->alt ? "one query per value" : "the filter",
         fabs(fan->rcu * fan->fanout - one->rcu * one->fanout) > 1e-9 ? ", the cheaper"
         : cd->alt                                                    ? ", as cheap, without the filter"
                                                                      : ", as cheap, in fewer requests");
}

void rs_cand_warnings(const rctx *c, const kp_pattern *p, const cand *cd, const cand *other, wlist *w,
                      const char *filter_what)
{
    fan_choice_note(cd, other, w);
    if (cd->warn & W_CONST_PK) {
        char *src = rs_keyview_src(&cd->en->pk);
        rs_warn_add(w, xasprintf("hot key: %s's partition key on %s is the constant '%s'; every request "
                                 "hits one partition",
                                 cd->en->e->name, cd->xi->name, src));
        free(src);
    }
    char nb[HUMANFMT_SIZE];
    if (cd->app_sort)
        WARN(w, "order by ", p->order.s, " is not served by the sort key of ", cd->xi->name,
             ": the app sorts");
    if (cd->app_sort && !isnan(p->limit))
        WARN(w, "limit ", humanfmt(nb, sizeof nb, p->limit, HF_PRINTF_G),
             " not pushed down: the whole collection is read");
    double lim = rs_cand_limit(p, cd);
    if (cd->limit_pushed && cd->filter && lim > p->limit) {
        char nb2[HUMANFMT_SIZE];
        WARN(w, "Limit counts the items read before the filter: Limit ",
             humanfmt(nb, sizeof nb, lim, HF_PRINTF_G), " reads that many to return about ",
             humanfmt(nb2, sizeof nb2, p->limit, HF_PRINTF_G),
             " (the app asks the next page while it has fewer)");
    }
    if (cd->filter && filter_what && *filter_what)
        WARN(w, "FilterExpression on ", filter_what, ": capacity counts every item read before the filter");
    if (cd->warn & W_UNKNOWN_DIST)
        WARN(w, "unknown distribution of ", cd->unknown_attr ? cd->unknown_attr : "a key attribute",
             ": assumed ", humanfmt(nb, sizeof nb, DEFAULT_COLLECTION, HF_PRINTF_G), " items per partition");
    if (cd->warn & W_UNKNOWN_SEL)
        WARN(w, "unknown distribution of a filtered attribute: assumed selectivity ", c->unknown_sel);
    if (cd->pages > 1) {
        char mb[HUMANFMT_SIZE];
        WARN(w, "reads ", humanfmt(mb, sizeof mb, cd->bytes / CAP_PAGE_BYTES, HF_PRINTF_F1),
             " MB per query: ", humanfmt(nb, sizeof nb, cd->pages, HF_PRINTF_G),
             " requests, one per 1 MB page (a Query returns at most 1 MB)");
    }
    if (cd->fanout > 1)
        WARN(w, "fan-out: ", humanfmt(nb, sizeof nb, cd->fanout, HF_PRINTF_G), " queries over the values of ",
             cd->fanout_attr ? cd->fanout_attr
             : cd->skfan     ? cd->skfan
                             : "?");
    (void)c;
}

kp_step *rs_cand_step(rctx *c, const kp_pattern *p, const cand *cd, const kset *K, steplist *sl, sbuf *what)
{
    kp_step *st = rs_step_new(sl);
    kvlist vals = {0};
    st->op = cd->get ? KP_OP_GETITEM : KP_OP_QUERY;
    st->index = cd->xi->index;
    st->entity = cd->en->e;
    st->key_condition = build_key_condition(c, cd, K, &vals);
    st->filter = build_filter(c, p, cd, K, &vals, what);
    st->forward = !(p->order.s && p->order_desc && !cd->app_sort);
    st->limit = rs_cand_limit(p, cd);
    /* one request per fan-out value and 1 MB page: the figures are per request */
    double pages = cd->pages >= 1 ? cd->pages : 1;
    st->count = cd->fanout * pages;
    st->items = cd->items / pages;
    st->rcu = cd->rcu / pages;
    rs_kv_finish(c, &vals, st);
    return st;
}

void rs_scan_step(const rctx *c, const kp_pattern *p, const kset *K, const kp_entity *e, steplist *sl,
                  double *rcu_call, double *lat)
{
    kp_step *st = rs_step_new(sl);
    st->op = KP_OP_SCAN;
    st->index = -1;
    st->entity = e;
    double pages = capacity_pages(c->table_bytes);
    double rcu = capacity_scan_rcu(c->table_bytes, p->consistency);
    st->count = pages;
    st->items = c->table_items / pages;
    st->rcu = rcu / pages;
    kvlist vals = {0};
    char b_in[240];
    sbuf b;
    sbuf_init_in(&b, b_in, sizeof b_in);
    for (size_t i = 0; i < K->n; i++)
        add_filter_term(c, &b, &vals, "%s = :%s", K->v[i].name, K->v[i].value);
    for (size_t i = 0; i < p->nfilter; i++)
        if (p->filter[i].s)
            add_filter_term(c, &b, &vals, "%s = :%s", p->filter[i].s, NULL);
    st->filter = b.len ? sbuf_to_arena(&b, c->ar) : NULL;
    sbuf_free(&b);
    rs_kv_finish(c, &vals, st);
    *rcu_call = rcu;
    *lat = rs_query_latency(c->table_bytes, 1);
}

/* What a screen's order and limit come to: which entity's items come first in the read,
 * whether the Limit holds them, or why the order or the limit is not the query's. */
static void screen_notes(const rctx *c, const kp_pattern *p, const screenplan *sp, wlist *w)
{
    char nb[HUMANFMT_SIZE], nb2[HUMANFMT_SIZE];
    const char *dir = sp->forward ? "forwards" : "backwards";
    if (sp->app_sort) {
        WARN(w, "order by ", p->order.s, " is not served by the sort key of ", c->ix[sp->k].name,
             " for every entity of the screen: the app sorts");
        if (!isnan(p->limit))
            WARN(w, "limit ", humanfmt(nb, sizeof nb, p->limit, HF_PRINTF_G),
                 " not pushed down: the whole collection is read");
        return;
    }
    if (!sp->ordered)
        return;
    const char *oname = sp->ordered->e->name;
    if (sp->outside) {
        WARN(w, "limit ", humanfmt(nb, sizeof nb, p->limit, HF_PRINTF_G), " not pushed down: read ", dir,
             ", the Limit ends before ", sp->outside->e->name, "'s items: the whole collection is read");
        return;
    }
    if (isnan(sp->limit))
        return;
    if (sp->lead)
        WARN(w, "one Query ", dir, " with Limit ", humanfmt(nb, sizeof nb, sp->limit, HF_PRINTF_G), ": ",
             sp->lead->e->name, "'s items come first (",
             humanfmt(nb2, sizeof nb2, sp->lead_items, HF_PRINTF_G), ", inside the Limit), then ", oname,
             "'s by ", p->order.s, p->order_desc ? " desc" : " asc");
    else
        WARN(w, "one Query ", dir, " with Limit ", humanfmt(nb, sizeof nb, sp->limit, HF_PRINTF_G), ": ",
             oname, "'s items by ", p->order.s, p->order_desc ? " desc" : " asc", " come first");
}

void rs_screen_step(const rctx *c, const kp_pattern *p, const kset *K, const screenplan *sp, steplist *sl,
                    wlist *w)
{
    const ixinfo *xi = &c->ix[sp->k];
    kp_step *st = rs_step_new(sl);
    kvlist vals = {0};
    st->op = KP_OP_QUERY;
    st->index = xi->index;
    st->entity = sp->first->e;
    char b_in[240];
    sbuf b;
    sbuf_init_in(&b, b_in, sizeof b_in);
    sbuf_printf(&b, "%s = :pk", xi->pk);
    rs_kv_add_key(c, &vals, KV_PK, rs_render_parts(c, &sp->first->pk, sp->first->pk.n, K));
    if (sp->prefix[0] && xi->sk) {
        sbuf_printf(&b, " AND begins_with(%s, :sk)", xi->sk);
        char tmp_in[240];
        sbuf tmp;
        sbuf_init_in(&tmp, tmp_in, sizeof tmp_in);
        tpl_add_literal(&tmp, sp->prefix);
        rs_kv_add_key(c, &vals, KV_SK, sbuf_to_arena(&tmp, c->ar));
        sbuf_free(&tmp);
    }
    st->key_condition = sbuf_to_arena(&b, c->ar);
    if (sp->mixed) {
        char f_in[240];
        sbuf f;
        sbuf_init_in(&f, f_in, sizeof f_in);
        sbuf_add(&f, "entityType IN (");
        for (size_t i = 0; i < p->nentities; i++) {
            char *nm = arena_printf(c->ar, ":type%zu", i);
            sbuf_printf(&f, "%s%s", i ? ", " : "", nm);
            kv_add(c, &vals, nm, arena_strdup(c->ar, p->entities[i].s ? p->entities[i].s : ""));
        }
        sbuf_add(&f, ")");
        st->filter = sbuf_to_arena(&f, c->ar);
        rs_warn_add(w, xasprintf("FilterExpression on other entities (%s): capacity counts every item read "
                                 "before the filter",
                                 sp->coll ? sp->coll->e->name : "?"));
    }
    rs_kv_finish(c, &vals, st);
    double pages = sp->pages >= 1 ? sp->pages : 1;
    st->forward = sp->forward;
    st->limit = sp->limit;
    st->count = pages;
    st->items = sp->items / pages;
    st->rcu = sp->rcu / pages;
    screen_notes(c, p, sp, w);
}
