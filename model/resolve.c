/* resolve.c - the resolver and the per-pattern capacity.
 *
 * For every pattern: the plan, its requests (steps) with the key condition as DynamoDB receives
 * it, items read, read/write units per call and per second, the latency estimate and warnings.
 *
 * Work done once per analysis (so that the live pane stays cheap): for the base table and every
 * index, the entities it holds with their partition/sort templates (a plain domain attribute used
 * as a key is a one-placeholder template), the share of their items it holds (sparse rules) and
 * the projected entry size; entities grouped by the literal shape of their partition template
 * ("CLIENTE#\1"), and, lazily, for each group the groups whose shape can produce the same value.
 * A pattern then looks at one entry per index and at the few colliding groups only; candidates
 * are ranked on a lower bound first, and the mixed-collection sums (cached per entry and kind of
 * sort-key condition) are computed only for the ones that can still win. The results' steps,
 * strings and key values live in one block allocator (a->resolve_arena), released at once.
 *
 * Plan choice: fewer requests; then the key that serves order, range and conditions
 * (no app sort, no filter); then fewer read units per call; then the base table.
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
#include "analysis_stages.h"
#include "capacity.h"
#include "humanfmt.h"
#include "namemap.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_COLLECTION 10.0
#define UNKNOWN_SELECTIVITY 0.5
#define LAT_RTT_MS 4.0
#define LAT_MS_PER_MB 10.0
#define LAT_MERGE_MS 0.2
#define LAT_WRITE_MS 5.0
#define LAT_TRANSACT_MS 10.0

/* ---- precomputed index contents ------------------------------------------------------ */

typedef struct keyview {
    const tpl_part *parts;
    size_t n;
    tpl_part one; /* a plain domain attribute as a one-placeholder template */
    const char *src;
    bool plain;   /* parts must point at `one` */
    /* render_parts' text when no part has a fixed value (then it depends only on the parts and
     * `end`), in the arena: of every part, and of parts [0, r_end) */
    char *r_full, *r_part;
    size_t r_end;
} keyview;

typedef struct entry {
    const kp_entity *e;
    size_t epos;
    keyview pk, sk;
    bool has_sk;
    double share; /* share of the entity's items on the index */
    double proj;  /* projected bytes per entry */
    double coll;  /* its items per partition value (collection size) */
    const char *sk_lead; /* the sort key's leading literal ("" when none) */
    size_t sk_lead_len;
    bool sk_const;
    size_t group;
} entry;

typedef struct ixinfo {
    ptrdiff_t index; /* -1 base table */
    const char *name;
    const char *pk, *sk;
    bool gsi;
    entry *entries;
    size_t n, cap;
    size_t ngroups;
    size_t *gstart;   /* members of group g: gmembers[gstart[g] .. gstart[g+1]) */
    size_t *gmembers; /* entry positions */
    size_t **coll;    /* lazily: compatible groups of g */
    struct collsum *sums; /* per entry x condition kind (none, prefix, exact): other entities read */
    size_t *ncoll;
    bool *coll_done;
    struct glead *byshape; /* lazily: the groups sorted by the leading literal of their partition template */
    size_t nempty;   /* byshape[0 .. nempty): the groups whose template has no leading literal */
    char *kc[4];     /* lazily, in the arena: the key condition text per sort-key condition kind (skc);
                        the steps on the index share it (read only, released with the arena) */
} ixinfo;

/* What a mixed collection adds for one entry and one kind of sort-key condition, when the
 * pattern asks for that entity alone (cached: many patterns read the same collections). */
typedef struct collsum {
    bool done;
    double others, bytes;
    const struct entry *first;
} collsum;

typedef struct rctx {
    const kp_design *d;
    ixinfo *ix;
    size_t nix;   /* 1 + d->nindexes */
    entry **on;   /* on[epos * nix + i] */
    namemap ents, attrs;
    double table_items, table_bytes;
    unsigned *mark; /* mark[epos] == stamp: the entity is asked for by the current pattern */
    namemap knows;  /* (attribute name, entity position): every name each entity knows, an
                       entity's names added on first use (knows_built) */
    bool *knows_built;
    struct cand *cands; /* room for one candidate per index */
    arena *ar;          /* where the results' strings go (a->resolve_arena) */
    char *keynames[4];  /* ":pk", ":sk", ":sk1", ":sk2" in the arena, shared by the key values */
    struct steplist {
        kp_step *v;
        size_t n, cap;
    } steps;            /* scratch steps of the pattern being resolved */
    char **wv;          /* scratch warning list of the pattern being resolved (wlist.v) */
    size_t wcap;
    unsigned stamp;
    size_t nasked;  /* entities marked by the current pattern */
    char unknown_sel[32]; /* UNKNOWN_SELECTIVITY as %g writes it (for the warnings) */
} rctx;

static const kp_attr *attr_of(const rctx *c, const char *name)
{
    size_t i;
    return namemap_get(&c->attrs, name, &i) ? &c->d->attrs[i] : NULL;
}

static const kp_entity *entity_of(const rctx *c, const char *name, size_t *pos)
{
    size_t i;
    if (!namemap_get(&c->ents, name, &i))
        return NULL;
    if (pos)
        *pos = i;
    return &c->d->entities[i];
}

static void keyview_set(keyview *v, const kp_entity *e, const char *attr)
{
    memset(v, 0, sizeof *v);
    const kp_keytpl *k = entity_key(e, attr);
    if (k) {
        v->parts = k->tpl.parts;
        v->n = k->tpl.n;
        v->src = k->tpl.src;
    } else {
        v->one.kind = TPL_ATTR;
        v->one.text = (char *)attr; /* never freed through the view */
        v->parts = &v->one;
        v->n = 1;
        v->src = NULL;
        v->plain = true;
    }
}

static char *keyview_src(const keyview *v)
{
    if (!v->plain)
        return v->src ? xstrdup(v->src) : tpl_format(&(tpl){NULL, (tpl_part *)v->parts, v->n});
    return xasprintf("{%s}", v->parts[0].text);
}

/* The shape of a template as text: its literals with '%' doubled, each followed by "%.", and
 * "%P" for each placeholder, so that two templates have the same text exactly when their
 * literals and placeholders match part for part. Appended to b. */
static void add_shape(sbuf *b, const keyview *v)
{
    for (size_t i = 0; i < v->n; i++) {
        if (v->parts[i].kind != TPL_LIT) {
            sbuf_add(b, "%P");
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

static bool starts_with(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

static bool ends_with(const char *s, const char *p)
{
    size_t ls = strlen(s), lp = strlen(p);
    return lp <= ls && memcmp(s + ls - lp, p, lp) == 0;
}

static const char *lead_lit(const keyview *v)
{
    return (v->n > 0 && v->parts[0].kind == TPL_LIT) ? v->parts[0].text : "";
}

static const char *trail_lit(const keyview *v)
{
    return (v->n > 0 && v->parts[v->n - 1].kind == TPL_LIT) ? v->parts[v->n - 1].text : "";
}

static bool is_const(const keyview *v) { return v->n == 0 || (v->n == 1 && v->parts[0].kind == TPL_LIT); }

/* Can two templates produce the same value? Compared by their literal structure: leading
 * literals prefix-compatible, trailing literals suffix-compatible; constants exactly. */
static bool shape_compat(const keyview *a, const keyview *b)
{
    bool ca = is_const(a), cb = is_const(b);
    const char *la = lead_lit(a), *lb = lead_lit(b), *ta = trail_lit(a), *tb = trail_lit(b);
    if (ca && cb)
        return strcmp(la, lb) == 0;
    if (ca || cb) {
        const char *s = ca ? la : lb;
        const keyview *o = ca ? b : a;
        const char *lo = lead_lit(o), *to = trail_lit(o);
        return starts_with(s, lo) && ends_with(s, to) && strlen(s) > strlen(lo) + strlen(to) - 1;
    }
    if (!(starts_with(la, lb) || starts_with(lb, la)))
        return false;
    return ends_with(ta, tb) || ends_with(tb, ta);
}

/* Groups the index's entries by the shape of their partition template (numbered in the order
 * they first come), and lists each group's members. */
static void build_groups(ixinfo *xi)
{
    size_t n = xi->n;
    /* every entry's shape text, one after the other in one buffer (NUL-separated) */
    sbuf shapes;
    sbuf_init(&shapes);
    size_t *at = xmalloc((n ? n : 1) * sizeof *at);
    for (size_t k = 0; k < n; k++) {
        at[k] = shapes.len;
        add_shape(&shapes, &xi->entries[k].pk);
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

static const char *group_lead(const ixinfo *xi, size_t g) { return lead_lit(&xi->entries[xi->gmembers[xi->gstart[g]]].pk); }

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

/* Groups whose partition template can produce the same value as group g's (g included), in
 * group order. Two templates can only meet when one leading literal is a prefix of the other
 * (shape_compat), so only those groups are tested: the ones without a leading literal, the ones
 * whose literal is a prefix of g's (looked up by length) and the ones g's literal prefixes (one
 * run of the sorted order). */
static const size_t *colliding_groups(ixinfo *xi, size_t g, size_t *n)
{
    if (!xi->coll_done[g]) {
        const keyview *a = &xi->entries[xi->gmembers[xi->gstart[g]]].pk;
        const char *la = lead_lit(a);
        size_t *v = xmalloc(xi->ngroups * sizeof *v), k = 0;
        if (!la[0]) {
            for (size_t h = 0; h < xi->ngroups; h++)
                if (h == g || shape_compat(a, &xi->entries[xi->gmembers[xi->gstart[h]]].pk))
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
            for (size_t i = 0; i < nc; i++) {
                size_t h = v[i];
                if (h == g || shape_compat(a, &xi->entries[xi->gmembers[xi->gstart[h]]].pk))
                    v[k++] = h;
            }
        }
        xi->coll[g] = v;
        xi->ncoll[g] = k;
        xi->coll_done[g] = true;
    }
    *n = xi->ncoll[g];
    return xi->coll[g];
}

static double collection_of(const rctx *c, const entry *o);

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

static void ctx_init(rctx *c, const kp_design *d, capacity_memo *cap)
{
    memset(c, 0, sizeof *c);
    c->d = d;
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
    size_t nknown = 0; /* room for every name of every entity: most patterns ask most entities */
    for (size_t i = 0; i < d->nentities; i++) {
        const kp_entity *e = &d->entities[i];
        nknown += e->nattrs + e->nkeys;
        for (size_t k = 0; k < e->nkeys; k++)
            nknown += e->keys[k].tpl.n;
    }
    namemap_init(&c->knows, nknown);
    for (size_t i = 0; i < d->nentities; i++) {
        const kp_entity *e = &d->entities[i];
        double cnt = isnan(e->count) ? 0 : e->count, sz = isnan(e->size) ? 0 : e->size;
        c->table_items += cnt;
        c->table_bytes += cnt * sz;
    }
    /* key attribute name -> the (index, role) slots using it: role 0 partition, 1 sort */
    namemap keyattrs;
    namemap_init(&keyattrs, 2 * nix);
    size_t *head = xmalloc(2 * nix * sizeof *head), *next = xmalloc(2 * nix * sizeof *next);
    for (size_t k = 0; k < nix; k++) {
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
            size_t nnames = keyattrs.n, slot = namemap_number(&keyattrs, names[r]);
            if (slot == nnames)
                head[slot] = SIZE_MAX; /* a new name */
            size_t node = 2 * k + (size_t)r;
            next[node] = head[slot];
            head[slot] = node;
        }
    }
    /* per entity: which key slots it carries, and with which template */
    bool *carries = xcalloc(2 * nix, sizeof *carries);
    const kp_keytpl **tpls = xcalloc(2 * nix, sizeof *tpls);
    for (size_t i = 0; i < d->nentities; i++) {
        const kp_entity *e = &d->entities[i];
        memset(carries, 0, 2 * nix * sizeof *carries);
        memset(tpls, 0, 2 * nix * sizeof *tpls);
        for (size_t j = 0; j < e->nkeys + e->nattrs; j++) {
            bool key = j < e->nkeys;
            const char *nm = key ? e->keys[j].attr.s : e->attrs[j - e->nkeys].s;
            size_t slot;
            if (!namemap_get(&keyattrs, nm, &slot))
                continue;
            for (size_t node = head[slot]; node != SIZE_MAX; node = next[node]) {
                carries[node] = true;
                if (key && !tpls[node])
                    tpls[node] = &e->keys[j];
            }
        }
        for (size_t k = 0; k < nix; k++) {
            ixinfo *xi = &c->ix[k];
            if (!xi->pk || !carries[2 * k])
                continue; /* base table: validation reports an entity without its key */
            bool has_sk = xi->sk && carries[2 * k + 1];
            if (k > 0 && xi->sk && !has_sk)
                continue;
            VEC_GROW(xi->entries, xi->n, xi->cap);
            entry *en = &xi->entries[xi->n++];
            memset(en, 0, sizeof *en);
            en->e = e;
            en->epos = i;
            view_from(&en->pk, tpls[2 * k], xi->pk);
            en->has_sk = has_sk;
            if (has_sk)
                view_from(&en->sk, tpls[2 * k + 1], xi->sk);
            if (k == 0) {
                en->share = 1;
                en->proj = isnan(e->size) ? 0 : e->size;
            } else {
                en->share = e->nsparse ? capacity_memo_index_share(cap, e, xi->index) : 1;
                en->proj = d->indexes[k - 1].projection == KP_PROJ_ALL ? (isnan(e->size) ? 0 : e->size)
                                                                      : capacity_memo_projected_bytes(cap, e, xi->index);
            }
        }
    }
    free(carries);
    free(tpls);
    free(head);
    free(next);
    namemap_free(&keyattrs);
    for (size_t k = 0; k < nix; k++) {
        ixinfo *xi = &c->ix[k];
        /* the views' self pointers are final now */
        for (size_t j = 0; j < xi->n; j++) {
            entry *en = &xi->entries[j];
            if (en->pk.plain)
                en->pk.parts = &en->pk.one;
            if (en->has_sk && en->sk.plain)
                en->sk.parts = &en->sk.one;
            c->on[en->epos * nix + k] = en;
            en->coll = collection_of(c, en);
            en->sk_lead = en->has_sk ? lead_lit(&en->sk) : "";
            en->sk_lead_len = strlen(en->sk_lead);
            en->sk_const = en->has_sk && is_const(&en->sk);
        }
        build_groups(xi);
        xi->sums = xcalloc(3 * (xi->n ? xi->n : 1), sizeof *xi->sums);
    }
}

static void ctx_free(rctx *c)
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
        free(xi->sums);
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
}

/* ---- what the caller knows ----------------------------------------------------------- */

typedef struct known {
    const char *name;
    const char *value;   /* fixed value or NULL */
    const kp_attr *attr; /* attr_of(name), looked up once */
} known;

/* A pattern's known attributes: a few, so they start in the struct (no malloc per pattern).
 * Zero-initialise; never copy by value (v may point into it); release with kset_free. */
#define KSET_INL 8
typedef struct kset {
    known *v;
    size_t n, cap;
    known inl[KSET_INL];
} kset;

static void kset_add(kset *k, const char *name, const char *value, const kp_attr *attr)
{
    if (!name)
        return;
    for (size_t i = 0; i < k->n; i++)
        if (strcmp(k->v[i].name, name) == 0)
            return;
    if (!k->v) {
        k->v = k->inl;
        k->cap = KSET_INL;
    }
    if (k->n == k->cap) {
        known *nv = xmalloc(2 * k->cap * sizeof *nv);
        memcpy(nv, k->v, k->n * sizeof *nv);
        if (k->v != k->inl)
            free(k->v);
        k->v = nv;
        k->cap *= 2;
    }
    k->v[k->n++] = (known){name, value, attr};
}

static void kset_free(kset *k)
{
    if (k->v != k->inl)
        free(k->v);
    k->v = NULL;
    k->n = k->cap = 0;
}

static const known *kset_find(const kset *k, const char *name)
{
    for (size_t i = 0; i < k->n; i++)
        if (strcmp(k->v[i].name, name) == 0)
            return &k->v[i];
    return NULL;
}

/* ---- warnings ------------------------------------------------------------------------ */

/* The pattern's warnings; the texts live in the analysis' arena (c->ar). */
typedef struct wlist {
    char **v;
    size_t n, cap;
    const rctx *c;
} wlist;

static void warn_keep(wlist *w, char *msg)
{
    for (size_t i = 0; i < w->n; i++)
        if (strcmp(w->v[i], msg) == 0)
            return; /* the arena copy is released with the rest */
    VEC_GROW(w->v, w->n, w->cap);
    w->v[w->n++] = msg;
}

/* Adds a warning (heap text, freed here) unless the same text is there already. */
static void warn_add(wlist *w, char *msg)
{
    size_t n = strlen(msg);
    char *t = arena_alloc(w->c->ar, n + 1);
    memcpy(t, msg, n + 1);
    free(msg);
    warn_keep(w, t);
}

/* Adds the concatenation of the pieces (up to a NULL) as a warning: the warnings of the live
 * pane are built without printf, which costs more than the resolution of a pattern. */
static void warn_cat(wlist *w, ...)
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
#define WARN(w, ...) warn_cat((w), __VA_ARGS__, (const char *)NULL)

/* ---- selectivity --------------------------------------------------------------------- */

/* Share of items having a given value of attribute a (fixed value or any one value); NAN unknown
 * (a NULL: not declared). */
static double selectivity_of(const kp_attr *a, const char *value)
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

/* The same by attribute name. */
static double selectivity(const rctx *c, const char *name, const char *value)
{
    return selectivity_of(attr_of(c, name), value);
}

/* Fan-out width of an unbound partition placeholder: shard count or enum values; 0 = none. */
static double fanout_of(const rctx *c, const char *name)
{
    const kp_attr *a = attr_of(c, name);
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

/* ---- one entity on one index --------------------------------------------------------- */

typedef enum skc { SKC_NONE, SKC_BEGINS, SKC_BETWEEN, SKC_EXACT } skc;

enum {
    W_CONST_PK = 1 << 0,
    W_UNKNOWN_DIST = 1 << 1,
    W_UNKNOWN_SEL = 1 << 2,
};

typedef struct cand {
    const ixinfo *xi;
    const entry *en;
    bool get;
    double fanout;
    skc kind;
    size_t sk_end;      /* sort-key parts in the prefix */
    const char *next;   /* first unbound sort-key placeholder */
    bool app_sort, range_unserved, filter, mixed, limit_pushed;
    const entry *collider; /* first other entity read by a mixed collection */
    double matched;     /* entity items matching the key condition (all requests) */
    double result;      /* items returned per call */
    double items;       /* items read per request */
    double bytes;       /* bytes read per request */
    double rcu;         /* per request */
    double latency;
    int quality;        /* 0 best */
    double mine, per_req, fsel; /* the entity's own items read / matching per request; filter selectivity */
    bool has_limit, has_filters, finished;
    unsigned warn;
    const char *unknown_attr;
    const char *fanout_attr;
} cand;

static bool cand_better(const cand *a, const cand *b)
{
    if (a->fanout != b->fanout)
        return a->fanout < b->fanout;
    if (a->quality != b->quality)
        return a->quality < b->quality;
    double ra = a->rcu * a->fanout, rb = b->rcu * b->fanout;
    if (fabs(ra - rb) > 1e-9)
        return ra < rb;
    return a->xi->index < b->xi->index;
}

/* entity_knows() through the (name, entity) set. */
static bool knows(rctx *c, const kp_entity *e, const char *name)
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

/* Marks the entities a pattern asks for, by position (mixed collections of those need no filter). */
static void mark_asked(rctx *c, const size_t *asked, size_t nasked)
{
    c->stamp++;
    c->nasked = nasked;
    for (size_t i = 0; i < nasked; i++)
        c->mark[asked[i]] = c->stamp;
}

static bool is_asked(const rctx *c, size_t epos) { return c->mark[epos] == c->stamp; }

/* What one entity knows of a pattern, computed once per pattern and entity. */
#define PI_MAX 64
typedef struct pinfo {
    bool knows[PI_MAX]; /* K->v[i] is an attribute the entity knows */
    bool range_known;
    double filter_sel;  /* product of the selectivities of the `filter:` attributes it knows */
    size_t nfilter;
    bool filter_unknown;
} pinfo;

static double selectivity(const rctx *c, const char *name, const char *value);

static void pinfo_init(rctx *c, const kp_pattern *p, const kset *K, const kp_entity *e, pinfo *pi)
{
    memset(pi, 0, sizeof *pi);
    for (size_t i = 0; i < K->n && i < PI_MAX; i++)
        pi->knows[i] = knows(c, e, K->v[i].name);
    pi->range_known = p->range.s && knows(c, e, p->range.s);
    pi->filter_sel = 1;
    for (size_t i = 0; i < p->nfilter; i++) {
        if (!p->filter[i].s || !knows(c, e, p->filter[i].s))
            continue;
        double s = selectivity(c, p->filter[i].s, NULL);
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

static double query_latency(double bytes, double fanout)
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
        return shape_compat(&cd->en->sk, &o->sk);
    if (o->sk_const)
        return o->sk_lead_len >= lp_len && memcmp(o->sk_lead, lp, lp_len) == 0;
    size_t n = o->sk_lead_len < lp_len ? o->sk_lead_len : lp_len;
    return memcmp(o->sk_lead, lp, n) == 0;
}

/* Entity items per partition of entry o (its own collection). */
static double collection_of(const rctx *c, const entry *o)
{
    double n = (isnan(o->e->count) ? 0 : o->e->count) * o->share;
    for (size_t i = 0; i < o->pk.n; i++) {
        if (o->pk.parts[i].kind != TPL_ATTR)
            continue;
        double s = selectivity(c, o->pk.parts[i].text, NULL);
        if (isnan(s))
            return n < DEFAULT_COLLECTION ? n : DEFAULT_COLLECTION;
        n *= s;
    }
    return n;
}

/* Evaluates entity entry `en` on index `xi` for pattern p with known set K (pi: what the
 * entity knows of it; the asked entities are marked, see mark_asked). false when the index
 * cannot serve it; *strong_refused set when only consistency forbade it. */
static bool eval_entity(rctx *c, const kp_pattern *p, const kset *K, ixinfo *xi, const entry *en,
                        const pinfo *pi, bool screen, cand *out, bool *strong_refused)
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
                const known *k = s->cond_attr.s ? kset_find(K, s->cond_attr.s) : NULL;
                if (!k || !k->value || !cond_holds(s, k->value))
                    return false;
                sparse_fixed_used[i] = true;
                sparse_fixed_attr[i] = s->cond_attr.s;
            } else {
                bool bound = i == 0;
                if (!bound) {
                    keyview v;
                    keyview_set(&v, e, ks[i]);
                    if (v.plain)
                        v.parts = &v.one;
                    bound = true;
                    for (size_t j = 0; j < v.n; j++)
                        if (v.parts[j].kind == TPL_ATTR && !kset_find(K, v.parts[j].text))
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
#define BIND(nm)                                                                                \
    do {                                                                                        \
        bool dup_ = false;                                                                      \
        for (size_t b_ = 0; b_ < nbound; b_++)                                                  \
            if (strcmp(bound[b_], (nm)) == 0)                                                   \
                dup_ = true;                                                                    \
        if (!dup_ && nbound < 32) {                                                             \
            bound[nbound++] = (nm);                                                             \
            const known *k_ = kset_find(K, (nm));                                               \
            double s_ = k_ ? selectivity_of(k_->attr, k_->value) : selectivity(c, (nm), NULL);  \
            if (isnan(s_)) {                                                                    \
                unknown = true;                                                                 \
                if (!out->unknown_attr)                                                         \
                    out->unknown_attr = (nm);                                                   \
            } else                                                                              \
                sel *= s_;                                                                      \
        }                                                                                       \
    } while (0)

    /* 1. partition */
    for (size_t i = 0; i < en->pk.n; i++) {
        const tpl_part *pt = &en->pk.parts[i];
        if (pt->kind != TPL_ATTR)
            continue;
        if (kset_find(K, pt->text)) {
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
    if (is_const(&en->pk))
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
            if (!kset_find(K, pt->text))
                break;
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
            if (en->sk.parts[j].kind == TPL_ATTR)
                BIND(en->sk.parts[j].text);
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
        double s = selectivity_of(K->v[i].attr, K->v[i].value);
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
    bool order_served = !order_asked || out->get ||
                        (out->next && strcmp(out->next, p->order.s) == 0);
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

/* Completes a candidate: the other entities a mixed collection reads (when `colliders`), items,
 * bytes, units, latency and quality. Without colliders the figures are a lower bound. */
static void cand_finish(rctx *c, const kp_pattern *p, cand *out, bool colliders)
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
            const size_t *gs = colliding_groups(xi, en->group, &ng);
            for (size_t gi = 0; gi < ng; gi++) {
                size_t g = gs[gi];
                for (size_t m = xi->gstart[g]; m < xi->gstart[g + 1]; m++) {
                    const entry *o = &xi->entries[xi->gmembers[m]];
                    if (o == en || o->coll <= 0 || is_asked(c, o->epos) || !sk_meets(out, o, lp, lp_len))
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
    out->latency = query_latency(out->bytes, out->fanout);
    out->quality = (out->app_sort ? 1 : 0) + (out->filter ? 1 : 0) + (out->range_unserved ? 1 : 0);
    out->finished = colliders;
}

/* Best candidate over every index holding entity epos. */
static bool best_for_entity(rctx *c, const kp_pattern *p, const kset *K, size_t epos,
                            const size_t *asked, size_t nasked, bool screen, cand *best,
                            bool *strong_refused)
{
    pinfo pi;
    pinfo_init(c, p, K, &c->d->entities[epos], &pi);
    mark_asked(c, asked, nasked);
    /* every index's candidate with a lower bound (no mixed collection) ... */
    cand *cs = c->cands;
    size_t n = 0;
    for (size_t k = 0; k < c->nix; k++) {
        const entry *en = c->on[epos * c->nix + k];
        if (!en)
            continue;
        if (!eval_entity(c, p, K, &c->ix[k], en, &pi, screen, &cs[n], strong_refused))
            continue;
        cand_finish(c, p, &cs[n], false);
        n++;
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
        if (found && !cand_better(&cs[i], best))
            break; /* mixed collections only make a candidate worse */
        cand_finish(c, p, &cs[i], true);
        if (!found || cand_better(&cs[i], best)) {
            *best = cs[i];
            found = true;
        }
    }
    return true;
}

/* ---- rendering ----------------------------------------------------------------------- */

static void add_escaped(sbuf *b, const char *s)
{
    while (*s) {
        size_t run = strcspn(s, "{}");
        sbuf_addn(b, s, run);
        s += run;
        if (*s) { /* a brace: doubled */
            sbuf_addn(b, s, 1);
            sbuf_addn(b, s, 1);
            s++;
        }
    }
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
            add_escaped(&b, pt->text);
            continue;
        }
        const known *k = kset_find(K, pt->text);
        if (k && k->value) {
            const kp_attr *a = k->attr; /* attr_of(c, pt->text): k is its name's entry */
            const char *fmt = pt->format ? pt->format : (a ? a->format : NULL);
            char *val = tpl_apply_format(k->value, fmt);
            add_escaped(&b, val);
            free(val);
        } else {
            sbuf_addc(&b, '{');
            sbuf_add(&b, pt->text);
            if (pt->format) {
                sbuf_addc(&b, ':');
                sbuf_add(&b, pt->format);
            }
            sbuf_addc(&b, '}');
        }
    }
    return sbuf_to_arena(&b, c->ar);
}

static char *render_parts_text(const rctx *c, const keyview *v, size_t end, const kset *K);

/* parts[0..end) as a value template; fixed values substituted (formatted); literal text with
 * its braces doubled, an unknown placeholder as {name} or {name:format}. The same text as
 * render_parts_long, built in a stack buffer (a key value is short); longer texts go there. */
static char *render_parts(const rctx *c, const keyview *v, size_t end, const kset *K)
{
    size_t n = end < v->n ? end : v->n;
    /* no fixed value among the parts: the text made for these parts before (shared, read only) */
    bool fixed = false;
    for (size_t i = 0; i < n && !fixed; i++)
        if (v->parts[i].kind != TPL_LIT) {
            const known *k = kset_find(K, v->parts[i].text);
            fixed = k && k->value;
        }
    keyview *mv = (keyview *)v; /* the views live in the context's entries: the cache is theirs */
    if (!fixed) {
        if (n == v->n && mv->r_full)
            return mv->r_full;
        if (n < v->n && mv->r_part && mv->r_end == n)
            return mv->r_part;
    }
    char *r = render_parts_text(c, v, end, K);
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

/* render_parts' work: the text, in the arena. */
static char *render_parts_text(const rctx *c, const keyview *v, size_t end, const kset *K)
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
            const known *k = kset_find(K, pt->text);
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
            const kp_attr *a = k->attr; /* attr_of(c, pt->text): k is its name's entry */
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

/* The upper bound of a BETWEEN on a sort key that goes on after the range attribute
 * (PEDIDO#{orderDate}#{orderId}): the bound must sort after every continuation, or the items of
 * the last value are lost (PEDIDO#2025-01-10#4471 > PEDIDO#2025-01-10). A '~' follows any ASCII
 * literal below it ('#'); otherwise U+10FFFF, the greatest UTF-8 sequence. */
static char *range_upper(const rctx *c, const keyview *v, size_t end, const kset *K)
{
    char *base = render_parts(c, v, end, K);
    if (end >= v->n)
        return base;
    const tpl_part *next = &v->parts[end];
    bool ascii_lit = next->kind == TPL_LIT && next->text[0] && (unsigned char)next->text[0] < '~';
    char b_in[240];
    sbuf b;
    sbuf_init_in(&b, b_in, sizeof b_in);
    sbuf_add(&b, base);
    sbuf_add(&b, ascii_lit ? "~" : "\xF4\x8F\xBF\xBF");
    return sbuf_to_arena(&b, c->ar);
}


#define KV_INL 8
typedef struct kvlist {
    kp_keyval *v; /* NULL until the first value; then inl or the heap */
    size_t n, cap;
    kp_keyval inl[KV_INL];
} kvlist;

/* Appends name = value, both in the arena already (not copied). */
static void kv_add_own(kvlist *l, char *name, char *value)
{
    if (!l->v) {
        l->v = l->inl;
        l->cap = KV_INL;
    }
    if (l->n == l->cap) {
        kp_keyval *nv = xmalloc(2 * l->cap * sizeof *nv);
        memcpy(nv, l->v, l->n * sizeof *nv);
        if (l->v != l->inl)
            free(l->v);
        l->v = nv;
        l->cap *= 2;
    }
    l->v[l->n].name = name;
    l->v[l->n].value = value;
    l->n++;
}

/* Appends name (copied into the arena) = value (already in the arena). */
static void kv_add(const rctx *c, kvlist *l, const char *name, char *value)
{
    kv_add_own(l, arena_strdup(c->ar, name), value);
}

/* Appends key name KV_PK..KV_SK2 = value (in the arena): the names are in the arena once per
 * analysis (c->keynames) and shared by the values (read only, released with the arena). */
enum { KV_PK, KV_SK, KV_SK1, KV_SK2 };
static void kv_add_key(const rctx *c, kvlist *l, int which, char *value)
{
    kv_add_own(l, c->keynames[which], value);
}

/* Moves the values into the arena as the step's values. */
static void kv_finish(const rctx *c, kvlist *l, kp_step *st)
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
    kv_add_key(c, vals, KV_PK, render_parts(c, &en->pk, en->pk.n, K));
    if (sk) {
        switch (cd->kind) {
        case SKC_EXACT:
            kv_add_key(c, vals, KV_SK, render_parts(c, &en->sk, en->sk.n, K));
            break;
        case SKC_BEGINS:
            kv_add_key(c, vals, KV_SK, render_parts(c, &en->sk, cd->sk_end, K));
            break;
        case SKC_BETWEEN:
            kv_add_key(c, vals, KV_SK1, render_parts(c, &en->sk, cd->sk_end + 1, K));
            kv_add_key(c, vals, KV_SK2, range_upper(c, &en->sk, cd->sk_end + 1, K));
            break;
        case SKC_NONE:
            break;
        }
    }
    if (xi->kc[kind])
        return xi->kc[kind];
    char b_in[240];
    sbuf b;
    sbuf_init_in(&b, b_in, sizeof b_in);
    sbuf_add(&b, xi->pk);
    sbuf_add(&b, " = :pk");
    switch (kind) {
    case SKC_EXACT:
        sbuf_add(&b, " AND ");
        sbuf_add(&b, xi->sk);
        sbuf_add(&b, " = :sk");
        break;
    case SKC_BEGINS:
        sbuf_add(&b, " AND begins_with(");
        sbuf_add(&b, xi->sk);
        sbuf_add(&b, ", :sk)");
        break;
    case SKC_BETWEEN:
        sbuf_add(&b, " AND ");
        sbuf_add(&b, xi->sk);
        sbuf_add(&b, " BETWEEN :sk1 AND :sk2");
        break;
    case SKC_NONE:
        break;
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

/* FilterExpression of candidate cd (NULL when none); its values appended to vals. */
static char *build_filter(rctx *c, const kp_pattern *p, const cand *cd, const kset *K,
                          kvlist *vals, sbuf *what)
{
    if (!cd->filter)
        return NULL;
    const kp_entity *e = cd->en->e;
    char b_in[240];
    sbuf b;
    sbuf_init_in(&b, b_in, sizeof b_in);
    for (size_t i = 0; i < K->n; i++) {
        const char *nm = K->v[i].name;
        if (!knows(c, e, nm))
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
        if (!p->filter[i].s || !knows(c, e, p->filter[i].s))
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

/* ---- result assembly ----------------------------------------------------------------- */

typedef struct steplist steplist;

static kp_step *step_new(steplist *s)
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

static void cand_warnings(const rctx *c, const kp_pattern *p, const cand *cd, wlist *w,
                          const char *filter_what)
{
    if (cd->warn & W_CONST_PK) {
        char *src = keyview_src(&cd->en->pk);
        warn_add(w, xasprintf("hot key: %s's partition key on %s is the constant '%s'; every request "
                              "hits one partition",
                              cd->en->e->name, cd->xi->name, src));
        free(src);
    }
    char nb[HUMANFMT_SIZE];
    if (cd->app_sort)
        WARN(w, "order by ", p->order.s, " is not served by the sort key of ", cd->xi->name, ": the app sorts");
    if (cd->app_sort && !isnan(p->limit))
        WARN(w, "limit ", humanfmt(nb, sizeof nb, p->limit, HF_PRINTF_G), " not pushed down: the whole collection is read");
    if (cd->filter && filter_what && *filter_what)
        WARN(w, "FilterExpression on ", filter_what, ": capacity counts every item read before the filter");
    if (cd->warn & W_UNKNOWN_DIST)
        WARN(w, "unknown distribution of ", cd->unknown_attr ? cd->unknown_attr : "a key attribute", ": assumed ",
             humanfmt(nb, sizeof nb, DEFAULT_COLLECTION, HF_PRINTF_G), " items per partition");
    if (cd->warn & W_UNKNOWN_SEL)
        WARN(w, "unknown distribution of a filtered attribute: assumed selectivity ", c->unknown_sel);
    if (cd->fanout > 1)
        WARN(w, "fan-out: ", humanfmt(nb, sizeof nb, cd->fanout, HF_PRINTF_G), " queries over the values of ",
             cd->fanout_attr ? cd->fanout_attr : "?");
    (void)c;
}

/* Appends the step of candidate cd; returns it. Filter description in *what. */
static kp_step *cand_step(rctx *c, const kp_pattern *p, const cand *cd, const kset *K,
                          steplist *sl, sbuf *what)
{
    kp_step *st = step_new(sl);
    kvlist vals = {0};
    st->op = cd->get ? KP_OP_GETITEM : KP_OP_QUERY;
    st->index = cd->xi->index;
    st->entity = cd->en->e;
    st->key_condition = build_key_condition(c, cd, K, &vals);
    st->filter = build_filter(c, p, cd, K, &vals, what);
    st->forward = !(p->order.s && p->order_desc && !cd->app_sort);
    st->limit = cd->limit_pushed ? p->limit : NAN;
    st->count = cd->fanout;
    st->items = cd->items;
    st->rcu = cd->rcu;
    kv_finish(c, &vals, st);
    return st;
}

static void scan_step(const rctx *c, const kp_pattern *p, const kset *K, const kp_entity *e,
                      steplist *sl, double *rcu_call, double *lat)
{
    kp_step *st = step_new(sl);
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
    kv_finish(c, &vals, st);
    *rcu_call = rcu;
    *lat = query_latency(c->table_bytes, 1);
}

static void known_from_by(const rctx *c, const kp_pattern *p, kset *K)
{
    for (size_t i = 0; i < p->nby; i++)
        kset_add(K, p->by[i].attr.s, p->by[i].value, attr_of(c, p->by[i].attr.s));
}

static double nz(double x) { return isnan(x) ? 0 : x; }

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

/* A read of one entity (or a find before a write): best plan or scan. Adds steps; returns the
 * result items (for chains) and fills the totals. */
typedef struct readout {
    kp_plan plan;
    double requests, rcu, items, result, latency;
    bool filter, app_sort, limit_pushed, scan;
} readout;

static void read_entity(rctx *c, const kp_pattern *p, const kset *K, size_t epos, const size_t *asked,
                        size_t nasked, steplist *sl, wlist *w, readout *o)
{
    cand best;
    bool strong_refused = false;
    memset(&best, 0, sizeof best);
    memset(o, 0, sizeof *o);
    bool ok = best_for_entity(c, p, K, epos, asked, nasked, false, &best, &strong_refused);
    const kp_entity *e = &c->d->entities[epos];
    if (strong_refused) {
        bool gsi_only = !ok || best.xi->index >= 0;
        if (gsi_only)
            WARN(w, "strong read refused on a GSI for ", e->name, ": GSIs are eventually consistent");
    }
    if (!ok) {
        double rcu, lat;
        scan_step(c, p, K, e, sl, &rcu, &lat);
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
    cand_step(c, p, &best, K, sl, &what);
    cand_warnings(c, p, &best, w, what.s);
    sbuf_free(&what);
    o->plan = best.fanout > 1 ? KP_PLAN_MULTI : best.get ? KP_PLAN_GET : KP_PLAN_QUERY;
    o->requests = best.fanout;
    o->rcu = best.rcu * best.fanout;
    o->items = best.items * best.fanout;
    o->result = best.result;
    o->latency = best.latency;
    o->filter = best.filter;
    o->app_sort = best.app_sort;
    o->limit_pushed = best.limit_pushed;
}

static void set_totals(kp_pattern_result *r, const kp_pattern *p)
{
    double rate = nz(p->rate), avg = isnan(p->avg) ? rate : p->avg;
    r->rcu_per_s = r->rcu_per_call * rate;
    r->rcu_per_s_avg = r->rcu_per_call * avg;
    r->wcu_per_s = r->wcu_per_call * rate;
    r->latency_ok = isnan(p->latency) || r->latency_ms <= p->latency;
}

/* ---- reads --------------------------------------------------------------------------- */

/* The best single query serving every entity of a screen on one index, when there is one. */
typedef struct screenplan {
    size_t k;           /* the index: c->ix[k] */
    char *prefix;       /* the entities' common sort-key prefix (in the arena); "" none */
    const entry *first; /* the first entity on the index */
    const entry *coll;  /* the first other entity the query reads (mixed) */
    bool mixed;
    double rcu, items, latency, result;
} screenplan;

static bool plan_screen(rctx *c, const kp_pattern *p, const kset *K, const size_t *epos, size_t n,
                        screenplan *sp)
{
    memset(sp, 0, sizeof *sp);
    size_t npis = n < 64 ? n : 64;
    pinfo *pis = xmalloc(npis * sizeof *pis);
    for (size_t i = 0; i < npis; i++)
        pinfo_init(c, p, K, &c->d->entities[epos[i]], &pis[i]);
    mark_asked(c, epos, n);
    for (size_t k = 0; k < c->nix; k++) {
        ixinfo *xi = &c->ix[k];
        const entry *first = c->on[epos[0] * c->nix + k];
        if (!first)
            continue;
        bool ok = true;
        double items = 0, bytes = 0, result = 0;
        char *prefix = NULL;
        bool all_same = true;
        cand cds[64];
        size_t m = n < 64 ? n : 64;
        for (size_t i = 0; i < m && ok; i++) {
            const entry *en = c->on[epos[i] * c->nix + k];
            bool sr = false;
            if (!en || !eval_entity(c, p, K, xi, en, &pis[i], true, &cds[i], &sr) ||
                cds[i].fanout > 1)
                ok = false;
            else if (i > 0 && en->group != first->group && !shape_compat(&en->pk, &first->pk))
                ok = false;
            else
                cand_finish(c, p, &cds[i], false);
        }
        if (!ok)
            continue;
        /* common sort-key prefix: the literal prefixes' longest common start, cut after '#' */
        for (size_t i = 0; i < m; i++) {
            const entry *en = cds[i].en;
            /* a fresh copy (not render_parts' shared one): cut below */
            char *pf = en->has_sk ? render_parts_text(c, &en->sk, cds[i].kind == SKC_EXACT ? en->sk.n : cds[i].sk_end, K)
                                  : arena_strdup(c->ar, "");
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
        /* items: each entity's collection, plus colliders not asked for */
        for (size_t i = 0; i < m; i++) {
            double mine = !isnan(p->items) ? p->items / (double)m : cds[i].matched;
            if (isnan(p->items) && cds[i].get)
                mine = 1;
            items += mine;
            bytes += mine * cds[i].en->proj;
            result += mine;
        }
        bool mixed = false;
        const entry *coll = NULL;
        size_t ng;
        const size_t *gs = colliding_groups(xi, first->group, &ng);
        for (size_t gi = 0; gi < ng; gi++)
            for (size_t mm = xi->gstart[gs[gi]]; mm < xi->gstart[gs[gi] + 1]; mm++) {
                const entry *oe = &xi->entries[xi->gmembers[mm]];
                if (is_asked(c, oe->epos))
                    continue;
                if (prefix[0] && oe->has_sk && !starts_with(lead_lit(&oe->sk), prefix) &&
                    !(!is_const(&oe->sk) && starts_with(prefix, lead_lit(&oe->sk))))
                    continue;
                double oc = oe->coll;
                if (oc <= 0)
                    continue;
                mixed = true;
                if (!coll)
                    coll = oe;
                items += oc;
                bytes += oc * oe->proj;
            }
        double rcu = capacity_query_rcu(1, bytes, p->consistency);
        double lat = query_latency(bytes, 1);
        bool better = !sp->prefix || (mixed ? 1 : 0) < (sp->mixed ? 1 : 0) ||
                      ((mixed == sp->mixed) && rcu < sp->rcu - 1e-9);
        if (better)
            *sp = (screenplan){k, prefix, first, coll, mixed, rcu, items, lat, result};
    }
    free(pis);
    return sp->prefix != NULL;
}

/* The step of a screen's single query. */
static void screen_step(const rctx *c, const kp_pattern *p, const kset *K, const screenplan *sp, steplist *sl,
                        wlist *w)
{
    const ixinfo *xi = &c->ix[sp->k];
    kp_step *st = step_new(sl);
    kvlist vals = {0};
    st->op = KP_OP_QUERY;
    st->index = xi->index;
    st->entity = sp->first->e;
    char b_in[240];
    sbuf b;
    sbuf_init_in(&b, b_in, sizeof b_in);
    sbuf_printf(&b, "%s = :pk", xi->pk);
    kv_add_key(c, &vals, KV_PK, render_parts(c, &sp->first->pk, sp->first->pk.n, K));
    if (sp->prefix[0] && xi->sk) {
        sbuf_printf(&b, " AND begins_with(%s, :sk)", xi->sk);
        char tmp_in[240];
        sbuf tmp;
        sbuf_init_in(&tmp, tmp_in, sizeof tmp_in);
        add_escaped(&tmp, sp->prefix);
        kv_add_key(c, &vals, KV_SK, sbuf_to_arena(&tmp, c->ar));
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
        warn_add(w, xasprintf("FilterExpression on other entities (%s): capacity counts every item read "
                              "before the filter",
                              sp->coll ? sp->coll->e->name : "?"));
    }
    kv_finish(c, &vals, st);
    st->items = sp->items;
    st->rcu = sp->rcu;
}

static void resolve_screen_one_query(rctx *c, const kp_pattern *p, const kset *K, const size_t *epos,
                                     size_t n, steplist *sl, wlist *w, readout *o, bool *done)
{
    screenplan sp;
    *done = plan_screen(c, p, K, epos, n, &sp);
    if (!*done)
        return;
    screen_step(c, p, K, &sp, sl, w);
    o->plan = KP_PLAN_QUERY;
    o->requests = 1;
    o->rcu = sp.rcu;
    o->items = sp.items;
    o->result = sp.result;
    o->latency = sp.latency;
    o->filter = sp.mixed;
}

static void resolve_read(rctx *c, const kp_pattern *p, kp_pattern_result *r, steplist *sl, wlist *w)
{
    size_t n = p->nentities;
    size_t epos_inl[8];
    size_t *epos = n <= 8 ? epos_inl : xcalloc(n, sizeof *epos);
    for (size_t i = 0; i < n; i++) {
        if (!entity_of(c, p->entities[i].s, &epos[i])) {
            warn_add(w, xasprintf("unknown entity '%s'", p->entities[i].s ? p->entities[i].s : ""));
            r->plan = KP_PLAN_INVALID;
            if (epos != epos_inl)
                free(epos);
            return;
        }
    }
    kset K = {0};
    known_from_by(c, p, &K);
    readout o;
    memset(&o, 0, sizeof o);
    if (n == 0) {
        double rcu, lat;
        scan_step(c, p, &K, NULL, sl, &rcu, &lat);
        warn_add(w, xstrdup("nothing serves the pattern: Scan of the whole table"));
        r->plan = KP_PLAN_SCAN;
        r->requests = sl->v[0].count;
        r->rcu_per_call = rcu;
        r->items_per_call = c->table_items;
        r->latency_ms = lat;
        r->filter = K.n > 0;
    } else if (p->njoin > 0 && n > 1) {
        /* chain: each next entity's keys come from the previous result */
        double requests = 0, rcu = 0, items = 0, lat = 0, prev = 1;
        bool filter = false;
        for (size_t i = 0; i < n; i++) {
            kset Ki = {0};
            const kp_entity *e = &c->d->entities[epos[i]];
            if (i == 0) {
                for (size_t k = 0; k < K.n; k++)
                    kset_add(&Ki, K.v[k].name, K.v[k].value, K.v[k].attr);
            } else {
                for (size_t j = 0; j < p->njoin; j++)
                    if (p->join[j].to.s && knows(c, e, p->join[j].to.s))
                        kset_add(&Ki, p->join[j].to.s, NULL, attr_of(c, p->join[j].to.s));
                for (size_t k = 0; k < K.n; k++)
                    if (knows(c, e, K.v[k].name))
                        kset_add(&Ki, K.v[k].name, K.v[k].value, K.v[k].attr);
            }
            size_t before = sl->n;
            readout oi;
            read_entity(c, p, &Ki, epos[i], &epos[i], 1, sl, w, &oi);
            kset_free(&Ki);
            filter |= oi.filter;
            if (i == 0) {
                requests += oi.requests;
                rcu += oi.rcu;
                items += oi.items;
                lat += oi.latency;
                r->app_sort = oi.app_sort;
                r->limit_pushed = oi.limit_pushed;
            } else if (sl->n > before) {
                kp_step *st = &sl->v[before];
                double times = prev < 0 ? 0 : prev;
                if (st->op == KP_OP_GETITEM) {
                    /* the keys of `times` items: BatchGetItem, each item rounded */
                    double size = nz(e->size);
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
        r->plan = KP_PLAN_MULTI;
        r->requests = requests;
        r->rcu_per_call = rcu;
        r->items_per_call = items;
        r->latency_ms = lat;
        r->filter = filter;
    } else if (n > 1) {
        bool done = false;
        resolve_screen_one_query(c, p, &K, epos, n, sl, w, &o, &done);
        if (done) {
            r->plan = KP_PLAN_QUERY;
            r->requests = 1;
            r->rcu_per_call = o.rcu;
            r->items_per_call = o.items;
            r->latency_ms = o.latency;
            r->filter = o.filter;
        } else {
            double requests = 0, rcu = 0, items = 0, lat = 0;
            bool filter = false;
            for (size_t i = 0; i < n; i++) {
                kset Ki = {0};
                const kp_entity *e = &c->d->entities[epos[i]];
                for (size_t k = 0; k < K.n; k++)
                    if (knows(c, e, K.v[k].name))
                        kset_add(&Ki, K.v[k].name, K.v[k].value, K.v[k].attr);
                readout oi;
                read_entity(c, p, &Ki, epos[i], epos, n, sl, w, &oi);
                kset_free(&Ki);
                requests += oi.requests;
                rcu += oi.rcu;
                items += oi.items;
                if (oi.latency > lat)
                    lat = oi.latency;
                filter |= oi.filter;
            }
            lat += LAT_MERGE_MS * requests;
            r->plan = KP_PLAN_MULTI;
            r->requests = requests;
            r->rcu_per_call = rcu;
            r->items_per_call = items;
            r->latency_ms = lat;
            r->filter = filter;
            warn_add(w, xasprintf("%g requests for one screen: the entities do not share a partition",
                                  requests));
        }
    } else {
        read_entity(c, p, &K, epos[0], epos, n, sl, w, &o);
        r->plan = o.plan;
        r->requests = o.requests;
        r->rcu_per_call = o.rcu;
        r->items_per_call = o.items;
        r->latency_ms = o.latency;
        r->filter = o.filter;
        r->app_sort = o.app_sort;
        r->limit_pushed = o.limit_pushed;
    }
    kset_free(&K);
    if (epos != epos_inl)
        free(epos);
}

/* ---- writes -------------------------------------------------------------------------- */

/* Write units of one item of entity epos written by pattern p: *table on the table (its LSIs
 * included), *gsis on the GSIs (capacity_entity_write over the precomputed shares and entry
 * sizes). */
static void write_units(const rctx *c, const kp_pattern *p, size_t epos, double *table, double *gsis)
{
    const kp_design *d = c->d;
    const kp_entity *e = &d->entities[epos];
    double tw = capacity_write_units(e->size, p->op == KP_OP_TRANSACT), iw = 0;
    for (size_t k = 1; k < c->nix; k++) {
        const entry *en = c->on[epos * c->nix + k];
        if (!en || en->share <= 0)
            continue;
        double u = capacity_index_write(d, e, (ptrdiff_t)k - 1, p->op, p->changes, p->nchanges, en->share, en->proj);
        if (d->indexes[k - 1].kind == KP_LSI)
            tw += u;
        else
            iw += u;
    }
    *table = tw;
    *gsis = iw;
}

static void resolve_write(rctx *c, const kp_pattern *p, kp_pattern_result *r, steplist *sl, wlist *w)
{
    size_t n = p->nentities;
    double items_total = !isnan(p->items) && p->items > 0 ? p->items : (double)(n ? n : 1);
    double per_entity = n ? items_total / (double)n : 0;
    kset K = {0};
    known_from_by(c, p, &K);
    double wcu = 0, iwcu = 0, requests = 0, lat = 0, rcu = 0;
    bool multi = false;
    for (size_t i = 0; i < n; i++) {
        size_t epos;
        const kp_entity *e = entity_of(c, p->entities[i].s, &epos);
        if (!e) {
            warn_add(w, xasprintf("unknown entity '%s'", p->entities[i].s ? p->entities[i].s : ""));
            r->plan = KP_PLAN_INVALID;
            goto out;
        }
        double tw, iw;
        write_units(c, p, epos, &tw, &iw);
        wcu += tw * per_entity;
        iwcu += iw * per_entity;
        if (p->op == KP_OP_TRANSACT)
            continue;
        kp_op op = p->op == KP_OP_UPDATE ? KP_OP_UPDATEITEM : p->op == KP_OP_DELETE ? KP_OP_DELETEITEM
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
                    if (base->pk.parts[j].kind == TPL_ATTR && !kset_find(&K, base->pk.parts[j].text))
                        direct = false;
                for (size_t j = 0; base->has_sk && j < base->sk.n && direct; j++)
                    if (base->sk.parts[j].kind == TPL_ATTR && !kset_find(&K, base->sk.parts[j].text))
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
        kp_step *st = step_new(sl);
        st->op = op;
        st->index = -1;
        st->entity = e;
        st->count = writes;
        st->items = 1;
        st->wcu = tw;
        if (base && direct) {
            kvlist vals = {0};
            kv_add_key(c, &vals, KV_PK, render_parts(c, &base->pk, base->pk.n, &K));
            if (base->has_sk)
                kv_add_key(c, &vals, KV_SK, render_parts(c, &base->sk, base->sk.n, &K));
            kv_finish(c, &vals, st);
        }
        requests += writes;
    }
    if (p->op == KP_OP_TRANSACT) {
        kp_step *st = step_new(sl);
        st->op = KP_OP_TRANSACTWRITE;
        st->index = -1;
        st->entity = n ? entity_of(c, p->entities[0].s, NULL) : NULL;
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
    kset_free(&K);
}

/* ---- the stage ----------------------------------------------------------------------- */

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
    set_totals(r, p);
    if (!r->latency_ok) {
        char nb1[HUMANFMT_SIZE], nb2[HUMANFMT_SIZE];
        WARN(&w, "estimated ", humanfmt(nb1, sizeof nb1, r->latency_ms, HF_PRINTF_F0), " ms misses the ",
             humanfmt(nb2, sizeof nb2, p->latency, HF_PRINTF_G), " ms target");
    }
    if (p->needs != KP_NEEDS_NONE && !p->served_by)
        warn_add(&w, xasprintf("needs %s: DynamoDB cannot serve it; serve it outside (served_by), fed by the "
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
    ctx_init(&c, d, a->capacity_memo);
    c.cands = xcalloc(c.nix, sizeof *c.cands);
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
    ctx_free(&c);
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
