/* resolve_render.c - the resolver's texts: key conditions, values, filters, steps and warnings.
 *
 * Key values are the templates rendered with what the caller knows (fixed values formatted,
 * literal braces doubled, an unknown placeholder as {name}); a key condition depends only on the
 * index and the kind of sort-key condition, so it is made once and shared. Every text lives in
 * the analysis' arena (a->resolve_arena): the live pane recomputes on every keystroke, and
 * thousands of small mallocs and frees per run would cost more than the resolution itself. */
#include "resolve_int.h"

#include "humanfmt.h"
#include "i18n.h"
#include "textf.h"

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

void rs_warnf(wlist *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *t = textf_arena(w->c->ar, fmt, ap);
    va_end(ap);
    warn_keep(w, t);
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
                if (o + tl + fl + 3 >= sizeof buf || !tpl_name_valid(pt->text))
                    return render_parts_long(c, v, end, K); /* there: a name in backticks too */
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

/* The values of candidate cd's key condition: the partition's, and the sort key's for the kind
 * of condition it sends (its prefix, its exact value, or the range's bounds). */
static void key_values(const rctx *c, const cand *cd, const kset *K, kvlist *vals)
{
    const entry *en = cd->en;
    rs_kv_add_key(c, vals, KV_PK, rs_render_parts(c, &en->pk, en->pk.n, K));
    if (!(cd->xi->sk && en->has_sk))
        return;
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

/* The key condition of index xi for one kind of sort-key condition: the data, the text and the
 * names it aliases. It depends only on the index and the kind: made once and shared by the
 * steps. */
static const kcshare *key_condition(const rctx *c, ixinfo *xi, skc kind)
{
    if (!xi->sk)
        kind = SKC_NONE;
    if (xi->kc[kind])
        return xi->kc[kind];
    static const expr_sk_op ops[4] = {
        [SKC_NONE] = EXPR_SK_NONE,
        [SKC_BEGINS] = EXPR_SK_BEGINS,
        [SKC_BETWEEN] = EXPR_SK_BETWEEN,
        [SKC_EXACT] = EXPR_SK_EQ,
    };
    kcshare *k = arena_zalloc(c->ar, sizeof *k);
    bool between = kind == SKC_BETWEEN;
    k->kc = (expr_keycond){.pk = (char *)xi->pk,
                           .pk_value = c->keynames[KV_PK],
                           .op = ops[kind],
                           .sk = kind == SKC_NONE ? NULL : (char *)xi->sk,
                           .sk_value = kind == SKC_NONE ? NULL : c->keynames[between ? KV_SK1 : KV_SK],
                           .sk_value2 = between ? c->keynames[KV_SK2] : NULL};
    expr_names names = {.ar = c->ar, .borrow = true}; /* the index's names: the design's */
    expr_writer w = expr_names_writer(&names);
    char b_in[240];
    sbuf b;
    sbuf_init_in(&b, b_in, sizeof b_in);
    expr_keycond_render_into(&b, &k->kc, &w);
    k->text = sbuf_to_arena(&b, c->ar);
    k->names = names.v;
    k->nnames = names.n;
    xi->kc[kind] = k;
    return k;
}

static void set_key_condition(kp_step *st, const kcshare *k)
{
    st->kc = &k->kc;
    st->key_condition = k->text;
    st->names = k->names;
    st->nnames = k->nnames;
}

/* A step's FilterExpression while it is made: its terms, a few in the struct. */
#define FB_INL 8
typedef struct fbuild {
    kp_expr *v;
    size_t n, cap;
    kp_expr inl[FB_INL];
} fbuild;

static kp_expr *fb_push(fbuild *f)
{
    if (!f->v)
        f->v = f->inl, f->cap = FB_INL;
    if (f->n == f->cap) {
        kp_expr *nv = xcalloc(f->cap * 2, sizeof *nv);
        memcpy(nv, f->v, f->n * sizeof *nv);
        if (f->v != f->inl)
            free(f->v);
        f->v = nv;
        f->cap *= 2;
    }
    return &f->v[f->n++];
}

/* Appends a term on `attr` with value names values[0..n): the strings are the design's (which
 * outlives the analysis) or the arena's already, so they are pointed at, not copied. */
static void fb_term(const rctx *c, fbuild *f, expr_kind kind, const char *attr, const char *const *values,
                    size_t n)
{
    kp_expr *e = fb_push(f);
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->attr = (char *)attr;
    if (n) {
        e->values = arena_alloc(c->ar, n * sizeof *e->values);
        memcpy(e->values, values, n * sizeof *e->values);
        e->nvalues = n;
    }
}

static bool kv_has(const kvlist *l, const char *name)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->v[i].name, name) == 0)
            return true;
    return false;
}

/* A value name for attribute `attr` (in the arena): ":attr" and the suffix when the attribute's
 * name can stand in a value name (ASCII letters, digits, '_') and no other value has it, else
 * ":v" and a number (":v1", ...): DynamoDB reads a value name as ':' and [A-Za-z0-9_] only. */
static char *value_name(const rctx *c, const kvlist *vals, const char *attr, const char *suffix)
{
    size_t la = strlen(attr);
    bool ok = la > 0 && la <= 200;
    for (const char *q = attr; *q && ok; q++)
        ok = (*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') || *q == '_';
    if (ok) {
        size_t ls = strlen(suffix);
        char *name = arena_alloc(c->ar, la + ls + 2);
        name[0] = ':';
        memcpy(name + 1, attr, la);
        memcpy(name + 1 + la, suffix, ls + 1);
        if (!kv_has(vals, name))
            return name;
    }
    for (unsigned k = 1;; k++) {
        char tmp[32];
        snprintf(tmp, sizeof tmp, ":v%u", k);
        if (!kv_has(vals, tmp))
            return arena_strdup(c->ar, tmp);
    }
}

/* "{attr}" (in backticks when the name needs them) in the arena. */
static char *placeholder(const rctx *c, const char *attr)
{
    if (tpl_name_valid(attr)) {
        size_t n = strlen(attr);
        char *out = arena_alloc(c->ar, n + 3);
        out[0] = '{';
        memcpy(out + 1, attr, n);
        out[n + 1] = '}';
        out[n + 2] = '\0';
        return out;
    }
    char *ph = tpl_placeholder(attr);
    char *out = arena_strdup(c->ar, ph);
    free(ph);
    return out;
}

/* Appends `attr = :value` (value: a fixed value, NULL for "{attr}"); the same attribute again
 * reuses its value name. */
static void filter_eq(const rctx *c, fbuild *f, kvlist *vals, const char *attr, const char *value)
{
    const char *vn = NULL;
    for (size_t i = 0; i < f->n && !vn; i++)
        if (f->v[i].kind == EXPR_CMP && strcmp(f->v[i].attr, attr) == 0)
            vn = f->v[i].values[0];
    if (!vn) {
        char *name = value_name(c, vals, attr, "");
        kv_add_own(vals, name, value ? arena_strdup(c->ar, value) : placeholder(c, attr));
        vn = name;
    }
    fb_term(c, f, EXPR_CMP, attr, &vn, 1);
}

/* Moves the terms into the step: its fexpr, its filter text rendered after the key condition
 * (so that the names continue its aliases), its names. */
static void filter_finish(const rctx *c, fbuild *f, kp_step *st)
{
    if (f->n) {
        kp_expr *e = arena_alloc(c->ar, sizeof *e);
        expr_and(c->ar, e, f->v, f->n);
        /* the attribute names are the design's (or static): they outlive the analysis */
        expr_names names = {.v = st->names, .n = st->nnames, .cap = st->nnames, .ar = c->ar, .borrow = true};
        expr_writer w = expr_names_writer(&names);
        char b_in[240];
        sbuf b;
        sbuf_init_in(&b, b_in, sizeof b_in);
        expr_render_into(&b, e, &w);
        st->fexpr = e;
        st->filter = sbuf_to_arena(&b, c->ar);
        st->names = names.v;
        st->nnames = names.n;
    }
    if (f->v && f->v != f->inl)
        free(f->v);
    f->v = NULL;
    f->n = f->cap = 0;
}

/* Appends `attr IN (:attr0, :attr1, ...)`: a known attribute with several fixed values, any of
 * them. */
static void add_in_term(const rctx *c, fbuild *f, kvlist *vals, const known *k)
{
    const char *vn[KNOWN_VALS];
    for (size_t i = 0; i < k->nvals && i < KNOWN_VALS; i++) {
        char suffix[2] = {(char)('0' + i), '\0'};
        char *name = value_name(c, vals, k->name, suffix);
        kv_add_own(vals, name, arena_strdup(c->ar, k->vals[i]));
        vn[i] = name;
    }
    fb_term(c, f, EXPR_IN, k->name, vn, k->nvals < KNOWN_VALS ? k->nvals : KNOWN_VALS);
}

/* The FilterExpression of candidate cd (none when it needs none) into st; its values appended to
 * vals, what it filters on to *what. */
static void build_filter(rctx *c, const kp_pattern *p, const cand *cd, const kset *K, kvlist *vals,
                         sbuf *what, kp_step *st)
{
    if (!cd->filter)
        return;
    const kp_entity *e = cd->en->e;
    fbuild f = {0};
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
            add_in_term(c, &f, vals, &K->v[i]);
        else
            filter_eq(c, &f, vals, nm, K->v[i].value);
        sbuf_add(what, what->len ? ", " : "");
        sbuf_add(what, nm);
    }
    if (cd->range_unserved) {
        const char *ra = p->range.s;
        const char *bounds[2] = {value_name(c, vals, ra, "1"), NULL};
        kv_add_own(vals, (char *)bounds[0], placeholder(c, ra));
        bounds[1] = value_name(c, vals, ra, "2");
        kv_add_own(vals, (char *)bounds[1], placeholder(c, ra));
        fb_term(c, &f, EXPR_BETWEEN, ra, bounds, 2);
        sbuf_add(what, what->len ? ", " : "");
        sbuf_add(what, ra);
    }
    for (size_t i = 0; i < p->nfilter; i++) {
        if (!p->filter[i].s || !rs_knows(c, e, p->filter[i].s))
            continue;
        filter_eq(c, &f, vals, p->filter[i].s, NULL);
        sbuf_add(what, what->len ? ", " : "");
        sbuf_add(what, p->filter[i].s);
    }
    if (cd->mixed) {
        /* an attribute this entity carries and the other one does not; else a type tag */
        const char *tag = rs_mixed_tag(cd);
        if (tag)
            fb_term(c, &f, EXPR_EXISTS, tag, NULL, 0);
        else
            filter_eq(c, &f, vals, ITEM_TYPE_ATTR, e->name);
        sbuf_add(what, what->len ? ", " : "");
        /* TRANSLATORS: what a FilterExpression tests; %s an entity's name */
        textf_add(what, _("other entities (%s)"), cd->collider ? cd->collider->e->name : "?");
    }
    filter_finish(c, &f, st);
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

/* What the choice between one query per value and one query with a filter came to (requests:
 * pages x fan-out plus a fetch's; units: a GSI's fetch included). */
static void fan_choice_note(const cand *cd, const cand *other, wlist *w)
{
    const cand *fan = cd->alt ? cd : other, *one = cd->alt ? other : cd;
    if (!fan || !one || !fan->skfan)
        return;
    char n1[HUMANFMT_SIZE], n2[HUMANFMT_SIZE], n3[HUMANFMT_SIZE], n4[HUMANFMT_SIZE];
    double q1 = fan->reqs, q2 = one->reqs, c1 = rs_cand_cost(fan), c2 = rs_cand_cost(one);
    char r1[HUMANFMT_SIZE + 64], r2[HUMANFMT_SIZE + 64];
    /* TRANSLATORS: a number of requests (%s the figure) */
    snprintf(r1, sizeof r1, ngettext("%s request", "%s requests", q1 == 1 ? 1 : 2),
             textf_figure(n1, sizeof n1, q1, HF_PRINTF_G));
    snprintf(r2, sizeof r2, ngettext("%s request", "%s requests", q2 == 1 ? 1 : 2),
             textf_figure(n3, sizeof n3, q2, HF_PRINTF_G));
    const char *verdict = fabs(c1 - c2) > 1e-9 ? (cd->alt ? _("one query per value, the cheaper")
                                                          : _("the filter, the cheaper"))
                          : cd->alt            ? _("one query per value, as cheap, without the filter")
                                               : _("the filter, as cheap, in fewer requests");
    /* TRANSLATORS: %1$s an attribute; %2$s and %4$s "N requests"; %3$s and %5$s read units; %6$s the
       choice ("the filter, the cheaper"...) */
    rs_warnf(w,
             _("%s takes several values: one query per value (%s, %s RCU a call) or one query with a filter "
               "(%s, %s RCU): %s"),
             fan->skfan, r1, humanfmt(n2, sizeof n2, c1, HF_NUM_REPORT), r2,
             humanfmt(n4, sizeof n4, c2, HF_NUM_REPORT), verdict);
}

void rs_cand_warnings(const rctx *c, const kp_pattern *p, const cand *cd, const cand *other, wlist *w,
                      const char *filter_what)
{
    fan_choice_note(cd, other, w);
    if (cd->warn & W_CONST_PK) {
        char *src = rs_keyview_src(&cd->en->pk);
        /* TRANSLATORS: %1$s an entity, %2$s an index (or "table"), %3$s the key's template */
        rs_warnf(
            w, _("hot key: %s's partition key on %s is the constant '%s'; every request hits one partition"),
            cd->en->e->name, cd->xi->name, src);
        free(src);
    }
    char nb[HUMANFMT_SIZE];
    if (cd->app_sort)
        /* TRANSLATORS: %1$s an attribute, %2$s an index (or "table") */
        rs_warnf(w, _("order by %s is not served by the sort key of %s: the app sorts"), p->order.s,
                 cd->xi->name);
    if (cd->app_sort && !isnan(p->limit))
        /* TRANSLATORS: %s the pattern's limit (a number of items) */
        rs_warnf(w, _("limit %s not pushed down: the whole collection is read"),
                 textf_figure(nb, sizeof nb, p->limit, HF_PRINTF_G));
    double lim = rs_cand_limit(p, cd);
    if (cd->limit_pushed && cd->filter && lim > p->limit) {
        char nb2[HUMANFMT_SIZE];
        /* TRANSLATORS: %1$s the Limit sent, %2$s the items the pattern wants */
        rs_warnf(
            w,
            _("Limit counts the items read before the filter: Limit %s reads that many to return about %s "
              "(the app asks the next page while it has fewer)"),
            textf_figure(nb, sizeof nb, lim, HF_PRINTF_G),
            textf_figure(nb2, sizeof nb2, p->limit, HF_PRINTF_G));
    }
    if (cd->filter && filter_what && *filter_what)
        /* TRANSLATORS: %s the attributes the filter tests */
        rs_warnf(w, _("FilterExpression on %s: capacity counts every item read before the filter"),
                 filter_what);
    if ((cd->warn & W_UNKNOWN_DIST) && cd->unknown_attr)
        /* TRANSLATORS: %1$s an attribute, %2$s a number of items */
        rs_warnf(w, _("unknown distribution of %s: assumed %s items per partition"), cd->unknown_attr,
                 textf_figure(nb, sizeof nb, DEFAULT_COLLECTION, HF_PRINTF_G));
    else if (cd->warn & W_UNKNOWN_DIST)
        /* TRANSLATORS: %s a number of items */
        rs_warnf(w, _("unknown distribution of a key attribute: assumed %s items per partition"),
                 textf_figure(nb, sizeof nb, DEFAULT_COLLECTION, HF_PRINTF_G));
    if (cd->warn & W_UNKNOWN_SEL)
        /* TRANSLATORS: %s a share (0.1) */
        rs_warnf(w, _("unknown distribution of a filtered attribute: assumed selectivity %s"),
                 c->unknown_sel);
    if (cd->pages > 1) {
        char mb[HUMANFMT_SIZE];
        /* TRANSLATORS: %1$s megabytes, %2$s a number of requests */
        rs_warnf(w, _("reads %s MB per query: %s requests, one per 1 MB page (a Query returns at most 1 MB)"),
                 textf_figure(mb, sizeof mb, cd->bytes / CAP_PAGE_BYTES, HF_PRINTF_F1),
                 textf_figure(nb, sizeof nb, cd->pages, HF_PRINTF_G));
    }
    if (cd->fanout > 1)
        /* TRANSLATORS: %1$s a number of queries, %2$s an attribute */
        rs_warnf(w, _("fan-out: %s queries over the values of %s"),
                 textf_figure(nb, sizeof nb, cd->fanout, HF_PRINTF_G),
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
    key_values(c, cd, K, &vals);
    set_key_condition(st,
                      key_condition(c, (ixinfo *)cd->xi, cd->xi->sk && cd->en->has_sk ? cd->kind : SKC_NONE));
    build_filter(c, p, cd, K, &vals, what, st);
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
    fbuild f = {0};
    for (size_t i = 0; i < K->n; i++) {
        if (K->v[i].nvals > 1)
            add_in_term(c, &f, &vals, &K->v[i]);
        else
            filter_eq(c, &f, &vals, K->v[i].name, K->v[i].value);
    }
    for (size_t i = 0; i < p->nfilter; i++)
        if (p->filter[i].s)
            filter_eq(c, &f, &vals, p->filter[i].s, NULL);
    filter_finish(c, &f, st);
    rs_kv_finish(c, &vals, st);
    *rcu_call = rcu;
    *lat = rs_query_latency(c->table_bytes, 1);
}

/* What a screen's order and limit come to: which entity's items come first in the read,
 * whether the Limit holds them, or why the order or the limit is not the query's. */
static void screen_notes(const rctx *c, const kp_pattern *p, const screenplan *sp, wlist *w)
{
    char nb[HUMANFMT_SIZE], nb2[HUMANFMT_SIZE];
    bool fwd = sp->forward;
    if (sp->app_sort) {
        /* TRANSLATORS: %1$s an attribute, %2$s an index (or "table") */
        rs_warnf(
            w,
            _("order by %s is not served by the sort key of %s for every entity of the screen: the app sorts"),
            p->order.s, c->ix[sp->k].name);
        if (!isnan(p->limit))
            rs_warnf(w, _("limit %s not pushed down: the whole collection is read"),
                     textf_figure(nb, sizeof nb, p->limit, HF_PRINTF_G));
        return;
    }
    if (!sp->ordered)
        return;
    const char *oname = sp->ordered->e->name;
    if (sp->outside) {
        /* TRANSLATORS: %1$s the pattern's limit, %2$s an entity's name */
        rs_warnf(
            w,
            fwd ? _("limit %s not pushed down: read forwards, the Limit ends before %s's items: the whole "
                    "collection is read")
                : _("limit %s not pushed down: read backwards, the Limit ends before %s's items: the whole "
                    "collection is read"),
            textf_figure(nb, sizeof nb, p->limit, HF_PRINTF_G), sp->outside->e->name);
        return;
    }
    if (isnan(sp->limit))
        return;
    /* asc and desc are the words of the design file */
    const char *dir = p->order_desc ? "desc" : "asc";
    if (sp->lead)
        /* TRANSLATORS: %1$s the Limit, %2$s an entity, %3$s its number of items, %4$s another entity,
           %5$s an attribute, %6$s asc or desc */
        rs_warnf(
            w,
            fwd ? _("one Query forwards with Limit %s: %s's items come first (%s, inside the Limit), then %s's "
                    "by %s %s")
                : _("one Query backwards with Limit %s: %s's items come first (%s, inside the Limit), then "
                    "%s's by %s %s"),
            textf_figure(nb, sizeof nb, sp->limit, HF_PRINTF_G), sp->lead->e->name,
            textf_figure(nb2, sizeof nb2, sp->lead_items, HF_PRINTF_G), oname, p->order.s, dir);
    else
        /* TRANSLATORS: %1$s the Limit, %2$s an entity, %3$s an attribute, %4$s asc or desc */
        rs_warnf(w,
                 fwd ? _("one Query forwards with Limit %s: %s's items by %s %s come first")
                     : _("one Query backwards with Limit %s: %s's items by %s %s come first"),
                 textf_figure(nb, sizeof nb, sp->limit, HF_PRINTF_G), oname, p->order.s, dir);
}

void rs_screen_step(const rctx *c, const kp_pattern *p, const kset *K, const screenplan *sp, steplist *sl,
                    wlist *w)
{
    ixinfo *xi = &c->ix[sp->k];
    kp_step *st = rs_step_new(sl);
    kvlist vals = {0};
    st->op = KP_OP_QUERY;
    st->index = xi->index;
    st->entity = sp->first->e;
    rs_kv_add_key(c, &vals, KV_PK, rs_render_parts(c, &sp->first->pk, sp->first->pk.n, K));
    bool prefix = sp->prefix[0] && xi->sk;
    if (prefix) {
        char tmp_in[240];
        sbuf tmp;
        sbuf_init_in(&tmp, tmp_in, sizeof tmp_in);
        tpl_add_literal(&tmp, sp->prefix);
        rs_kv_add_key(c, &vals, KV_SK, sbuf_to_arena(&tmp, c->ar));
        sbuf_free(&tmp);
    }
    set_key_condition(st, key_condition(c, xi, prefix ? SKC_BEGINS : SKC_NONE));
    if (sp->mixed) {
        const char **types = arena_alloc(c->ar, (p->nentities ? p->nentities : 1) * sizeof *types);
        for (size_t i = 0; i < p->nentities; i++) {
            char *nm = arena_printf(c->ar, ":type%zu", i);
            kv_add(c, &vals, nm, arena_strdup(c->ar, p->entities[i].s ? p->entities[i].s : ""));
            types[i] = nm;
        }
        fbuild f = {0};
        fb_term(c, &f, EXPR_IN, ITEM_TYPE_ATTR, types, p->nentities);
        filter_finish(c, &f, st);
        /* TRANSLATORS: %s an entity's name */
        rs_warnf(
            w,
            _("FilterExpression on other entities (%s): capacity counts every item read before the filter"),
            sp->coll ? sp->coll->e->name : "?");
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
