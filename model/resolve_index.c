/* resolve_index.c - the resolver's work done once per analysis (index precompute).
 *
 * For the base table and every index, the entities it holds with their partition/sort templates
 * (a plain domain attribute used as a key is a one-placeholder template), the share of their
 * items it holds (sparse rules) and the projected entry size; entities grouped by the literal
 * shape of their partition template ("CLIENTE#\1"), and, lazily, for each group the groups whose
 * shape can produce the same value; every name each entity knows. So a pattern looks at one entry
 * per index and at the few colliding groups only, and the live pane stays cheap. */
#include "resolve_int.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

char *rs_keyview_src(const keyview *v)
{
    if (!v->plain)
        return v->src ? xstrdup(v->src) : tpl_format(&(tpl){NULL, (tpl_part *)v->parts, v->n});
    return tpl_placeholder(v->parts[0].text);
}

/* The shape of a template as text: its literals with '%' doubled, each followed by "%.", and
 * "%P<n>" for each placeholder of domain n (overlap.h), so that two templates have the same text
 * exactly when their literals and placeholders' domains match part for part (the same values).
 * Appended to b. */
static void add_shape(const rctx *c, sbuf *b, const keyview *v)
{
    for (size_t i = 0; i < v->n; i++) {
        if (v->parts[i].kind != TPL_LIT) {
            size_t dom = ov_part_domain(c->dom, &v->parts[i]);
            if (dom == SIZE_MAX) {
                sbuf_add(b, "%P?"); /* a plain attribute the templates do not use */
                continue;
            }
            char num[24], *q = num + sizeof num;
            *--q = '\0';
            do /* the number without printf: the shapes are made for every entry of every index */
                *--q = (char)('0' + dom % 10);
            while ((dom /= 10) > 0);
            sbuf_add(b, "%P");
            sbuf_add(b, q);
            continue;
        }
        for (const char *t = v->parts[i].text; *t;) {
            size_t run = strcspn(t, "%");
            sbuf_addn(b, t, run);
            t += run;
            if (*t) {
                sbuf_add(b, "%%");
                t++;
            }
        }
        sbuf_add(b, "%.");
    }
}

const ov_lang *rs_entry_lang(const rctx *c, const entry *en, bool sk)
{
    entry *m = (entry *)en; /* the languages are the entry's cache */
    ov_lang **l = &m->lang[sk ? 1 : 0];
    if (!*l) {
        const keyview *v = sk ? &en->sk : &en->pk;
        *l = xmalloc(sizeof **l);
        ov_lang_init(*l);
        if (!sk || en->has_sk)
            ov_lang_parts(*l, c->dom, v->parts, v->n, NULL, 0);
        ov_lang_end(*l);
    }
    return *l;
}

static const char *trail_lit(const keyview *v)
{
    return (v->n > 0 && v->parts[v->n - 1].kind == TPL_LIT) ? v->parts[v->n - 1].text : "";
}

/* Do two literals agree as far as both go, from the start (from the end when `back`)? */
static bool lits_agree(const char *a, const char *b, bool back)
{
    size_t la = strlen(a), lb = strlen(b), n = la < lb ? la : lb;
    return back ? memcmp(a + la - n, b + lb - n, n) == 0 : memcmp(a, b, n) == 0;
}

bool rs_groups_meet(const rctx *c, const ixinfo *xi, size_t g, size_t h)
{
    if (g == h)
        return true;
    const entry *a = &xi->entries[xi->gmembers[xi->gstart[g]]],
                *b = &xi->entries[xi->gmembers[xi->gstart[h]]];
    /* a common value starts with both leading literals and ends with both trailing ones */
    if (!lits_agree(rs_lead_lit(&a->pk), rs_lead_lit(&b->pk), false) ||
        !lits_agree(trail_lit(&a->pk), trail_lit(&b->pk), true))
        return false;
    return ov_meet(rs_entry_lang(c, a, false), rs_entry_lang(c, b, false), OV_EQUAL);
}

/* Groups the index's entries by the shape of their partition template (numbered in the order
 * they first come), and lists each group's members. */
static void build_groups(const rctx *c, ixinfo *xi)
{
    size_t n = xi->n;
    /* every entry's shape text, one after the other in one buffer (NUL-separated) */
    sbuf shapes;
    sbuf_init(&shapes);
    size_t *at = xmalloc((n ? n : 1) * sizeof *at);
    for (size_t k = 0; k < n; k++) {
        at[k] = shapes.len;
        add_shape(c, &shapes, &xi->entries[k].pk);
        sbuf_addn(&shapes, "", 1);
    }
    namemap byshape;
    namemap_init(&byshape, n);
    size_t *count = xcalloc(n ? n : 1, sizeof *count);
    for (size_t k = 0; k < n; k++) {
        entry *en = &xi->entries[k];
        en->group = namemap_number(&byshape, shapes.s + at[k]);
        count[en->group]++;
    }
    xi->ngroups = byshape.n;
    namemap_free(&byshape);
    sbuf_free(&shapes);
    free(at);
    size_t g = xi->ngroups;
    xi->gstart = xcalloc(g + 1, sizeof *xi->gstart);
    for (size_t i = 0; i < g; i++)
        xi->gstart[i + 1] = xi->gstart[i] + count[i];
    xi->gmembers = xmalloc((n ? n : 1) * sizeof *xi->gmembers);
    memset(count, 0, (n ? n : 1) * sizeof *count);
    for (size_t k = 0; k < n; k++) {
        size_t gr = xi->entries[k].group;
        xi->gmembers[xi->gstart[gr] + count[gr]++] = k;
    }
    xi->coll = xcalloc(g ? g : 1, sizeof *xi->coll);
    xi->ncoll = xcalloc(g ? g : 1, sizeof *xi->ncoll);
    xi->coll_done = xcalloc(g ? g : 1, sizeof *xi->coll_done);
    free(count);
}

static const char *group_lead(const ixinfo *xi, size_t g)
{
    return rs_lead_lit(&xi->entries[xi->gmembers[xi->gstart[g]]].pk);
}

typedef struct glead {
    const char *lead; /* the group's leading literal */
    size_t g;
} glead;

static int cmp_group_lead(const void *x, const void *y)
{
    const glead *a = x, *b = y;
    int r = strcmp(a->lead, b->lead);
    return r ? r : (a->g > b->g) - (a->g < b->g);
}

static int cmp_size(const void *x, const void *y)
{
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    return (a > b) - (a < b);
}

/* First position in xi->byshape whose group's leading literal is >= s (the first n bytes of s). */
static size_t lead_lower_bound(const ixinfo *xi, const char *s, size_t n)
{
    size_t lo = 0, hi = xi->ngroups;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const char *m = xi->byshape[mid].lead;
        int r = strncmp(m, s, n);
        if (r < 0 || (r == 0 && strlen(m) < n))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

const size_t *rs_colliding_groups(const rctx *c, ixinfo *xi, size_t g, size_t *n)
{
    if (!xi->coll_done[g]) {
        const keyview *a = &xi->entries[xi->gmembers[xi->gstart[g]]].pk;
        const char *la = rs_lead_lit(a);
        size_t *v = xmalloc(xi->ngroups * sizeof *v), k = 0;
        if (!la[0]) {
            for (size_t h = 0; h < xi->ngroups; h++)
                if (rs_groups_meet(c, xi, g, h))
                    v[k++] = h;
        } else {
            if (!xi->byshape) {
                xi->byshape = xmalloc(xi->ngroups * sizeof *xi->byshape);
                for (size_t h = 0; h < xi->ngroups; h++)
                    xi->byshape[h] = (glead){group_lead(xi, h), h};
                qsort(xi->byshape, xi->ngroups, sizeof *xi->byshape, cmp_group_lead);
                while (xi->nempty < xi->ngroups && !xi->byshape[xi->nempty].lead[0])
                    xi->nempty++;
            }
            size_t nc = 0;
            for (size_t i = 0; i < xi->nempty; i++)
                v[nc++] = xi->byshape[i].g;
            size_t ll = strlen(la);
            for (size_t len = 1; len < ll; len++) /* literals that are proper prefixes of la */
                for (size_t i = lead_lower_bound(xi, la, len); i < xi->ngroups; i++) {
                    const char *lb = xi->byshape[i].lead;
                    if (strlen(lb) != len || strncmp(lb, la, len) != 0)
                        break;
                    v[nc++] = xi->byshape[i].g;
                }
            for (size_t i = lead_lower_bound(xi, la, ll); i < xi->ngroups; i++) { /* la is their prefix */
                if (strncmp(xi->byshape[i].lead, la, ll) != 0)
                    break;
                v[nc++] = xi->byshape[i].g;
            }
            qsort(v, nc, sizeof *v, cmp_size);
            for (size_t i = 0; i < nc; i++)
                if (rs_groups_meet(c, xi, g, v[i]))
                    v[k++] = v[i];
        }
        xi->coll[g] = v;
        xi->ncoll[g] = k;
        xi->coll_done[g] = true;
    }
    *n = xi->ncoll[g];
    return xi->coll[g];
}

/* Entity items per partition of entry o (its own collection). */
static double collection_of(const rctx *c, const entry *o)
{
    double n = (isnan(o->e->count) ? 0 : o->e->count) * o->share;
    for (size_t i = 0; i < o->pk.n; i++) {
        if (o->pk.parts[i].kind != TPL_ATTR)
            continue;
        double s = rs_selectivity(c, o->pk.parts[i].text, NULL);
        if (isnan(s))
            return n < DEFAULT_COLLECTION ? n : DEFAULT_COLLECTION;
        n *= s;
    }
    return n;
}

/* *v = template k, or attr itself as a placeholder when k is NULL (then v->parts is left for
 * the caller to point at v->one once v is where it stays). */
static void view_from(keyview *v, const kp_keytpl *k, const char *attr)
{
    memset(v, 0, sizeof *v);
    if (k) {
        v->parts = k->tpl.parts;
        v->n = k->tpl.n;
        v->src = k->tpl.src;
    } else {
        v->one.kind = TPL_ATTR;
        v->one.text = (char *)attr; /* never freed through the view */
        v->n = 1;
        v->plain = true;
    }
}

void rs_keyview_set(keyview *v, const kp_entity *e, const char *attr)
{
    view_from(v, entity_key(e, attr), attr);
    if (v->plain)
        v->parts = &v->one;
}

/* The key attribute slots: for index k, slot 2k its partition attribute, 2k + 1 its sort
 * attribute. Names the indexes' key attributes (numbered in keyattrs) and links, per name, the
 * slots using it: head[name], then next[slot] (SIZE_MAX ends). Also names each ixinfo. */
static void key_slots(rctx *c, namemap *keyattrs, size_t *head, size_t *next)
{
    const kp_design *d = c->d;
    for (size_t k = 0; k < c->nix; k++) {
        ixinfo *xi = &c->ix[k];
        xi->index = (ptrdiff_t)k - 1;
        if (k == 0) {
            xi->name = "table";
            xi->pk = d->table.pk.s;
            xi->sk = d->table.sk.s;
            xi->gsi = false;
        } else {
            const kp_index *x = &d->indexes[k - 1];
            xi->name = x->name;
            xi->pk = x->pk.s;
            xi->sk = x->sk.s;
            xi->gsi = x->kind == KP_GSI;
        }
        xi->entries = NULL; /* grown as entities join: most indexes hold few of them */
        const char *names[2] = {xi->pk, xi->sk};
        for (int r = 0; r < 2; r++) {
            if (!names[r])
                continue;
            size_t nnames = keyattrs->n, name = namemap_number(keyattrs, names[r]);
            if (name == nnames)
                head[name] = SIZE_MAX; /* a new name */
            size_t slot = 2 * k + (size_t)r;
            next[slot] = head[name];
            head[name] = slot;
        }
    }
}

/* Entity e (position epos) joins index k, with its templates pk and sk (NULL: the plain
 * attribute) when it carries the sort key (has_sk). */
static void add_entry(rctx *c, capacity_memo *cap, size_t k, const kp_entity *e, size_t epos,
                      const kp_keytpl *pk, const kp_keytpl *sk, bool has_sk)
{
    ixinfo *xi = &c->ix[k];
    VEC_GROW(xi->entries, xi->n, xi->cap);
    entry *en = &xi->entries[xi->n++];
    memset(en, 0, sizeof *en);
    en->e = e;
    en->epos = epos;
    view_from(&en->pk, pk, xi->pk);
    en->has_sk = has_sk;
    if (has_sk)
        view_from(&en->sk, sk, xi->sk);
    if (k == 0) {
        en->share = 1;
        en->proj = util_nz(e->size);
    } else {
        en->share = e->nsparse ? capacity_memo_index_share(cap, e, xi->index) : 1;
        en->proj = c->d->indexes[k - 1].projection == KP_PROJ_ALL
                       ? util_nz(e->size)
                       : capacity_memo_projected_bytes(cap, e, xi->index);
    }
}

/* Every entity joins the indexes whose key attributes it carries (the slots of key_slots). */
static void add_entries(rctx *c, capacity_memo *cap, const namemap *keyattrs, const size_t *head,
                        const size_t *next)
{
    const kp_design *d = c->d;
    size_t nix = c->nix;
    bool *carries = xcalloc(2 * nix, sizeof *carries);
    const kp_keytpl **tpls = xcalloc(2 * nix, sizeof *tpls);
    for (size_t i = 0; i < d->nentities; i++) {
        const kp_entity *e = &d->entities[i];
        memset(carries, 0, 2 * nix * sizeof *carries);
        memset(tpls, 0, 2 * nix * sizeof *tpls);
        for (size_t j = 0; j < e->nkeys + e->nattrs; j++) {
            bool key = j < e->nkeys;
            const char *nm = key ? e->keys[j].attr.s : e->attrs[j - e->nkeys].s;
            size_t name;
            if (!namemap_get(keyattrs, nm, &name))
                continue;
            for (size_t slot = head[name]; slot != SIZE_MAX; slot = next[slot]) {
                carries[slot] = true;
                if (key && !tpls[slot])
                    tpls[slot] = &e->keys[j];
            }
        }
        for (size_t k = 0; k < nix; k++) {
            ixinfo *xi = &c->ix[k];
            if (!xi->pk || !carries[2 * k])
                continue; /* base table: validation reports an entity without its key */
            bool has_sk = xi->sk && carries[2 * k + 1];
            if (k > 0 && xi->sk && !has_sk)
                continue;
            add_entry(c, cap, k, e, i, tpls[2 * k], tpls[2 * k + 1], has_sk);
        }
    }
    free(carries);
    free(tpls);
}

/* Index k's entries are all there: their self pointers, collections and sort-key literals; the
 * groups. */
static void finish_index(rctx *c, size_t k)
{
    ixinfo *xi = &c->ix[k];
    for (size_t j = 0; j < xi->n; j++) {
        entry *en = &xi->entries[j];
        if (en->pk.plain)
            en->pk.parts = &en->pk.one;
        if (en->has_sk && en->sk.plain)
            en->sk.parts = &en->sk.one;
        c->on[en->epos * c->nix + k] = en;
        en->coll = collection_of(c, en);
        en->sk_lead = en->has_sk ? rs_lead_lit(&en->sk) : "";
        en->sk_lead_len = strlen(en->sk_lead);
        en->sk_const = en->has_sk && rs_is_const(&en->sk);
    }
    build_groups(c, xi);
    xi->sums = xcalloc(xi->n ? xi->n : 1, sizeof *xi->sums);
}

void rs_ctx_init(rctx *c, const kp_design *d, capacity_memo *cap)
{
    memset(c, 0, sizeof *c);
    c->d = d;
    c->cap = cap;
    c->dom = ov_domains_new(d);
    c->nix = 1 + d->nindexes;
    size_t nix = c->nix;
    namemap_init(&c->ents, d->nentities);
    for (size_t i = 0; i < d->nentities; i++)
        namemap_put(&c->ents, d->entities[i].name, i);
    namemap_init(&c->attrs, d->nattrs);
    for (size_t i = 0; i < d->nattrs; i++)
        namemap_put(&c->attrs, d->attrs[i].name, i);
    c->ix = xcalloc(nix, sizeof *c->ix);
    c->on = xcalloc(d->nentities * nix + 1, sizeof *c->on);
    c->mark = xcalloc(d->nentities + 1, sizeof *c->mark);
    c->knows_built = xcalloc(d->nentities + 1, sizeof *c->knows_built);
    /* c->knows starts empty (zeroed) and grows with the entities asked: after an edit, the few
       whose patterns are resolved again */
    for (size_t i = 0; i < d->nentities; i++) {
        const kp_entity *e = &d->entities[i];
        double cnt = util_nz(e->count);
        c->table_items += cnt;
        c->table_bytes += cnt * util_nz(e->size);
    }
    namemap keyattrs;
    namemap_init(&keyattrs, 2 * nix);
    size_t *head = xmalloc(2 * nix * sizeof *head), *next = xmalloc(2 * nix * sizeof *next);
    key_slots(c, &keyattrs, head, next);
    add_entries(c, cap, &keyattrs, head, next);
    free(head);
    free(next);
    namemap_free(&keyattrs);
    for (size_t k = 0; k < nix; k++)
        finish_index(c, k); /* the views' self pointers are final now */
}

void rs_sums_free(ixinfo *xi, size_t j)
{
    collsum *v = xi->sums[j];
    if (!v)
        return;
    const entry *en = &xi->entries[j];
    for (size_t s = 0, n = rs_sum_slot(en, SKC_BETWEEN, en->sk.n) + 1; s < n; s++)
        free(v[s].who);
    free(v);
    xi->sums[j] = NULL;
}

/* Forgets the collection sums of the entries of group g of index xi. */
static void forget_sums(ixinfo *xi, size_t g)
{
    for (size_t m = xi->gstart[g]; m < xi->gstart[g + 1]; m++) {
        rs_sums_free(xi, xi->gmembers[m]);
    }
}

void rs_ctx_refigure(rctx *c, size_t epos)
{
    const kp_design *d = c->d;
    if (epos >= d->nentities)
        return;
    capacity_memo_forget(c->cap, epos);
    c->table_items = c->table_bytes = 0; /* added in the same order as rs_ctx_init: the same sums */
    for (size_t i = 0; i < d->nentities; i++) {
        double cnt = util_nz(d->entities[i].count);
        c->table_items += cnt;
        c->table_bytes += cnt * util_nz(d->entities[i].size);
    }
    const kp_entity *e = &d->entities[epos];
    for (size_t k = 0; k < c->nix; k++) {
        entry *en = c->on[epos * c->nix + k];
        if (!en)
            continue;
        ixinfo *xi = &c->ix[k];
        if (k == 0) {
            en->proj = util_nz(e->size);
        } else {
            en->share = e->nsparse ? capacity_memo_index_share(c->cap, e, xi->index) : 1;
            en->proj = d->indexes[k - 1].projection == KP_PROJ_ALL
                           ? util_nz(e->size)
                           : capacity_memo_projected_bytes(c->cap, e, xi->index);
        }
        en->coll = collection_of(c, en);
        /* the sums that count its items: its group's and those of the groups meeting it */
        size_t ng;
        const size_t *gs = rs_colliding_groups(c, xi, en->group, &ng);
        for (size_t i = 0; i < ng; i++)
            forget_sums(xi, gs[i]);
        forget_sums(xi, en->group);
    }
}

void rs_ctx_free(rctx *c)
{
    for (size_t k = 0; k < c->nix; k++) {
        ixinfo *xi = &c->ix[k];
        for (size_t g = 0; g < xi->ngroups; g++)
            free(xi->coll[g]);
        free(xi->coll);
        free(xi->ncoll);
        free(xi->coll_done);
        free(xi->byshape);
        free(xi->gstart);
        free(xi->gmembers);
        for (size_t j = 0; j < xi->n; j++)
            rs_sums_free(xi, j);
        free(xi->sums);
        for (size_t j = 0; j < xi->n; j++)
            for (int r = 0; r < 2; r++)
                if (xi->entries[j].lang[r]) {
                    ov_lang_free(xi->entries[j].lang[r]);
                    free(xi->entries[j].lang[r]);
                }
        free(xi->entries);
    }
    free(c->ix);
    free(c->on);
    free(c->mark);
    namemap_free(&c->knows);
    free(c->knows_built);
    free(c->cands);
    namemap_free(&c->ents);
    namemap_free(&c->attrs);
    ov_domains_free(c->dom);
}

bool rs_knows(rctx *c, const kp_entity *e, const char *name)
{
    if (!name)
        return false;
    size_t epos = (size_t)(e - c->d->entities), v;
    if (epos >= c->d->nentities)
        return entity_knows(e, name);
    namemap *m = &c->knows;
    ptrdiff_t tag = (ptrdiff_t)epos;
    if (!c->knows_built[epos]) {
        for (size_t i = 0; i < e->nattrs; i++)
            namemap_insert(m, e->attrs[i].s, tag, 0, NULL);
        for (size_t i = 0; i < e->nkeys; i++) {
            namemap_insert(m, e->keys[i].attr.s, tag, 0, NULL);
            for (size_t j = 0; j < e->keys[i].tpl.n; j++)
                if (e->keys[i].tpl.parts[j].kind == TPL_ATTR)
                    namemap_insert(m, e->keys[i].tpl.parts[j].text, tag, 0, NULL);
        }
        c->knows_built[epos] = true;
    }
    return namemap_find(m, name, tag, &v);
}
