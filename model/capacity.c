/* capacity.c - DynamoDB unit arithmetic and per-entity write costs (see capacity.h). */
#include "capacity.h"

#include "namemap.h"
#include "syntax.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

double capacity_read_factor(kp_consistency c)
{
    switch (c) {
    case KP_STRONG:
        return 1.0;
    case KP_TRANSACTIONAL:
        return 2.0;
    case KP_EVENTUAL:
    default:
        return 0.5;
    }
}

static double pos(double x) { return (isnan(x) || x < 0) ? 0 : x; }

/* ceil(bytes / unit) with a tolerance so that exact multiples do not round up through
 * floating-point noise; at least `min`. */
static double units_of(double bytes, double unit, double min)
{
    double u = ceil(pos(bytes) / unit - 1e-9);
    return u < min ? min : u;
}

double capacity_get_rcu(double item_bytes, kp_consistency c)
{
    return units_of(item_bytes, CAP_READ_UNIT_BYTES, 1) * capacity_read_factor(c);
}

double capacity_query_rcu(double items, double item_bytes, kp_consistency c)
{
    return units_of(pos(items) * pos(item_bytes), CAP_READ_UNIT_BYTES, 1) * capacity_read_factor(c);
}

double capacity_batchget_rcu(double items, double item_bytes, kp_consistency c)
{
    return pos(items) * units_of(item_bytes, CAP_READ_UNIT_BYTES, 1) * capacity_read_factor(c);
}

double capacity_scan_rcu(double table_bytes, kp_consistency c)
{
    return units_of(table_bytes, CAP_READ_UNIT_BYTES, 1) * capacity_read_factor(c);
}

double capacity_pages(double bytes) { return units_of(bytes, CAP_PAGE_BYTES, 1); }

double capacity_query_pages(double items, double bytes)
{
    if (!(pos(items) > 0) || !(pos(bytes) > 0) || bytes <= CAP_PAGE_BYTES)
        return 1;                                                 /* what most reads are: one page */
    double per_page = units_of(CAP_PAGE_BYTES, bytes / items, 1); /* the last one crosses 1 MB */
    double pages = units_of(items, per_page, 1);
    return isfinite(pages) ? pages : 1;
}

double capacity_write_units(double item_bytes, bool transactional)
{
    return units_of(item_bytes, CAP_WRITE_UNIT_BYTES, 1) * (transactional ? 2.0 : 1.0);
}

/* ---- size estimates ---------------------------------------------------------------- */

static double format_width(const char *fmt)
{
    if (!fmt || !*fmt)
        return 0;
    return (double)atoi(fmt);
}

/* How the estimates find attributes: by design_attr, or through a memo's name map. */
typedef struct finder {
    const kp_design *d;
    const namemap *attrs; /* NULL: design_attr */
} finder;

static const kp_attr *find_attr(const finder *f, const char *name)
{
    if (!f->d || !name)
        return NULL;
    if (!f->attrs)
        return design_attr(f->d, name);
    size_t i;
    return namemap_get(f->attrs, name, &i) ? &f->d->attrs[i] : NULL;
}

static double value_bytes(const finder *f, const char *name, const char *inline_format)
{
    return capacity_attr_value_bytes(find_attr(f, name), inline_format);
}

double capacity_attr_value_bytes(const kp_attr *a, const char *inline_format)
{
    if (a && !isnan(a->size) && a->size > 0)
        return a->size;
    double w = format_width(inline_format);
    if (!a)
        return w > 0 ? w : CAP_DEFAULT_VALUE_BYTES;
    switch (a->type) {
    case KP_ATTR_NUMBER: {
        double fw = w > 0 ? w : format_width(a->format);
        return fw > 0 ? fw : 8;
    }
    case KP_ATTR_DATE:
        return 10;
    case KP_ATTR_ENUM: {
        if (a->nvalues == 0)
            return CAP_DEFAULT_VALUE_BYTES;
        double sum = 0;
        for (size_t i = 0; i < a->nvalues; i++)
            sum += (double)strlen(a->values[i].name);
        return sum / (double)a->nvalues;
    }
    case KP_ATTR_SHARD: {
        int n = a->shard_count > 1 ? a->shard_count - 1 : 0;
        double digits = 1;
        while (n >= 10) {
            n /= 10;
            digits++;
        }
        return digits;
    }
    case KP_ATTR_BOOL:
        return 1;
    case KP_ATTR_STRING:
    default:
        return w > 0 ? w : CAP_DEFAULT_VALUE_BYTES;
    }
}

double capacity_value_bytes(const kp_design *d, const char *name, const char *inline_format)
{
    finder f = {d, NULL};
    return value_bytes(&f, name, inline_format);
}

static double key_bytes(const finder *f, const kp_entity *e, const char *attr)
{
    if (!attr)
        return 0;
    double bytes = (double)strlen(attr);
    const kp_keytpl *k = e ? entity_key(e, attr) : NULL;
    if (!k)
        return bytes + value_bytes(f, attr, NULL);
    for (size_t i = 0; i < k->tpl.n; i++) {
        const tpl_part *p = &k->tpl.parts[i];
        if (p->kind == TPL_LIT)
            bytes += (double)strlen(p->text);
        else
            bytes += value_bytes(f, p->text, p->format);
    }
    return bytes;
}

double capacity_key_bytes(const kp_design *d, const kp_entity *e, const char *attr)
{
    finder f = {d, NULL};
    return key_bytes(&f, e, attr);
}

/* ---- index membership -------------------------------------------------------------- */

static const kp_index *index_at(const kp_design *d, ptrdiff_t index)
{
    if (!d || index < 0 || (size_t)index >= d->nindexes)
        return NULL;
    return &d->indexes[index];
}

bool capacity_on_index(const kp_design *d, const kp_entity *e, ptrdiff_t index)
{
    if (index < 0)
        return true;
    const kp_index *x = index_at(d, index);
    if (!x || !e)
        return false;
    if (!entity_carries(e, x->pk.s))
        return false;
    if (x->sk.s && !entity_carries(e, x->sk.s))
        return false;
    return true;
}

/* The share of the items holding `value`, or with `writes` the share of the writes landing on
 * it (write_shares; NAN = the item share). */
static double enum_share(const kp_attr *a, const char *value, bool writes)
{
    for (size_t i = 0; i < a->nvalues; i++)
        if (strcmp(a->values[i].name, value) == 0)
            return writes && !isnan(a->values[i].write_share) ? a->values[i].write_share : a->values[i].share;
    return 0;
}

/* The share of the items where the sparse rule holds, or with `writes` the share of the WRITES
 * landing there. DynamoDB charges a sparse index where the writes land, not where the items rest:
 * an update moving an item into the indexed values costs 1, within them 2 (delete + put), out of
 * them 1; entries and exits balance over time, so the expected cost of a write is
 * 2 x P(its new value is indexed) when the condition attribute is part of the index key. */
static double sparse_share(const finder *f, const kp_sparse *s, bool writes)
{
    if (s->kind == KP_SPARSE_SHARE)
        return isnan(s->share) ? 1.0 : s->share;
    const kp_attr *a = s->cond_attr.s ? find_attr(f, s->cond_attr.s) : NULL;
    if (!a || a->type != KP_ATTR_ENUM || a->nvalues == 0)
        return 0.5;
    double sum = 0;
    for (size_t i = 0; i < s->nvalues; i++)
        sum += enum_share(a, s->values[i].s, writes);
    if (sum > 1)
        sum = 1;
    return s->op == KP_COND_NE ? 1.0 - sum : sum;
}

bool capacity_set_together(const kp_entity *e, const char *a, const char *b)
{
    if (!e || !a || !b || strcmp(a, b) == 0)
        return true;
    bool named = false;
    for (size_t i = 0; i < e->ntogether; i++) {
        bool ha = syn_group_has(e->together[i].s, a), hb = syn_group_has(e->together[i].s, b);
        if (ha && hb)
            return true;
        named = named || ha || hb;
    }
    return !named;
}

bool capacity_grouped(const kp_entity *e, const char *a, const char *b)
{
    for (size_t i = 0; e && a && b && i < e->ntogether; i++)
        if (syn_group_has(e->together[i].s, a) && syn_group_has(e->together[i].s, b))
            return true;
    return false;
}

static size_t index_rules(const kp_entity *e, const kp_index *x, const kp_sparse *out[2])
{
    out[0] = out[1] = NULL;
    if (!e || !x)
        return 0;
    const kp_sparse *s = entity_sparse(e, x->pk.s);
    const kp_sparse *t = x->sk.s ? entity_sparse(e, x->sk.s) : NULL;
    if (t == s)
        t = NULL;
    if (s && t && capacity_set_together(e, x->pk.s, x->sk.s))
        t = NULL; /* one membership: the partition attribute's rule decides */
    size_t n = 0;
    if (s)
        out[n++] = s;
    if (t)
        out[n++] = t;
    return n;
}

size_t capacity_index_rules(const kp_design *d, const kp_entity *e, ptrdiff_t index, const kp_sparse *out[2])
{
    return index_rules(e, index_at(d, index), out);
}

/* capacity_index_share once the entity is known to be on the index (with `writes`: the share of
 * its writes that land on the index): the product of the rules deciding its membership. */
static double share_on(const finder *f, const kp_entity *e, ptrdiff_t index, bool writes)
{
    const kp_sparse *r[2];
    size_t n = index_rules(e, index_at(f->d, index), r);
    double share = 1.0;
    for (size_t i = 0; i < n; i++)
        share *= sparse_share(f, r[i], writes);
    return share;
}

double capacity_index_share(const kp_design *d, const kp_entity *e, ptrdiff_t index)
{
    if (index < 0)
        return 1.0;
    if (!capacity_on_index(d, e, index))
        return 0;
    finder f = {d, NULL};
    return share_on(&f, e, index, false);
}

static double projected_bytes(const finder *f, const kp_entity *e, ptrdiff_t index)
{
    const kp_design *d = f->d;
    if (!e)
        return 0;
    double size = pos(e->size);
    const kp_index *x = index_at(d, index);
    if (!x || x->projection == KP_PROJ_ALL)
        return size;
    double bytes = key_bytes(f, e, d->table.pk.s) + key_bytes(f, e, d->table.sk.s);
    const char *ks[2] = {x->pk.s, x->sk.s};
    for (int i = 0; i < 2; i++) {
        if (!ks[i])
            continue;
        if ((d->table.pk.s && strcmp(ks[i], d->table.pk.s) == 0) ||
            (d->table.sk.s && strcmp(ks[i], d->table.sk.s) == 0))
            continue; /* already counted (inverted index, LSI) */
        bytes += key_bytes(f, e, ks[i]);
    }
    if (x->projection == KP_PROJ_INCLUDE) {
        for (size_t i = 0; i < x->ninclude; i++) {
            const char *n = x->include[i].s;
            if (!n || !entity_carries(e, n))
                continue;
            if (entity_key(e, n))
                bytes += key_bytes(f, e, n);
            else
                bytes += (double)strlen(n) + value_bytes(f, n, NULL);
        }
    }
    return (size > 0 && bytes > size) ? size : bytes;
}

double capacity_projected_bytes(const kp_design *d, const kp_entity *e, ptrdiff_t index)
{
    finder f = {d, NULL};
    return projected_bytes(&f, e, index);
}

bool capacity_changes_index_key(const kp_design *d, const kp_entity *e, ptrdiff_t index, const char *attr)
{
    if (!attr || !e)
        return false;
    const char *ks[2];
    if (index < 0) {
        ks[0] = d->table.pk.s;
        ks[1] = d->table.sk.s;
    } else {
        const kp_index *x = index_at(d, index);
        if (!x)
            return false;
        ks[0] = x->pk.s;
        ks[1] = x->sk.s;
    }
    for (int i = 0; i < 2; i++) {
        if (!ks[i])
            continue;
        if (strcmp(ks[i], attr) == 0)
            return true;
        const kp_keytpl *k = entity_key(e, ks[i]);
        if (k && tpl_has_attr(&k->tpl, attr))
            return true;
    }
    return false;
}

/* true when `attr` is the condition attribute of a rule deciding the entity's membership of x. */
static bool changes_sparse_cond(const kp_entity *e, const kp_index *x, const char *attr)
{
    const kp_sparse *r[2];
    size_t n = index_rules(e, x, r);
    for (size_t i = 0; i < n; i++)
        if (r[i]->kind == KP_SPARSE_COND && r[i]->cond_attr.s && strcmp(r[i]->cond_attr.s, attr) == 0)
            return true;
    return false;
}

/* true when an update of `attr` changes what index x holds of the entity's item beyond its keys:
 * ALL projects every attribute; INCLUDE its listed attributes (and the templates filling them);
 * KEYS nothing else. */
static bool projects(const kp_entity *e, const kp_index *x, const char *attr)
{
    if (x->projection == KP_PROJ_ALL)
        return true;
    if (x->projection != KP_PROJ_INCLUDE)
        return false;
    for (size_t i = 0; i < x->ninclude; i++) {
        const char *n = x->include[i].s;
        if (!n)
            continue;
        if (strcmp(n, attr) == 0)
            return true;
        const kp_keytpl *k = entity_key(e, n);
        if (k && tpl_has_attr(&k->tpl, attr))
            return true;
    }
    return false;
}

bool capacity_update_moves_key(const kp_design *d, const kp_entity *e, kp_write_op op, const kp_str *changes,
                               size_t nchanges)
{
    if (op != KP_OP_UPDATE || !d || !e)
        return false;
    for (size_t c = 0; c < nchanges; c++)
        if (changes[c].s && capacity_changes_index_key(d, e, -1, changes[c].s))
            return true;
    return false;
}

/* capacity_index_write, `moves` its capacity_update_moves_key (computed once per write). */
static double index_write(const kp_design *d, const kp_entity *e, ptrdiff_t index, kp_write_op op,
                          const kp_str *changes, size_t nchanges, double share, double proj_bytes, bool moves)
{
    const kp_index *x = index_at(d, index);
    if (!x || !e || share <= 0)
        return 0;
    double units = capacity_write_units(proj_bytes, false);
    if (moves)
        return 2 * 2 * share * units; /* a Delete and a Put, in a transaction */
    if (op == KP_OP_TRANSACT)
        return 2 * share * units;
    if (op != KP_OP_UPDATE)
        return share * units;
    bool key = false, cond = false, touched = false;
    for (size_t c = 0; c < nchanges; c++) {
        if (!changes[c].s)
            continue;
        if (changes_sparse_cond(e, x, changes[c].s))
            cond = true;
        else if (capacity_changes_index_key(d, e, index, changes[c].s))
            key = true;
        else if (projects(e, x, changes[c].s))
            touched = true;
    }
    if (cond) {
        bool in_key = false;
        for (size_t c = 0; c < nchanges; c++)
            if (changes[c].s && changes_sparse_cond(e, x, changes[c].s) &&
                capacity_changes_index_key(d, e, index, changes[c].s))
                in_key = true;
        if (in_key || key)
            return 2 * share * units;
        double p = 2 * share;
        if (p > 1)
            p = 1;
        return p * units;
    }
    if (key)
        return 2 * share * units;
    if (nchanges == 0) /* what it changes is not said: the projected attributes, assumed */
        return x->projection == KP_PROJ_KEYS ? 0 : share * units;
    return touched ? share * units : 0;
}

double capacity_index_write(const kp_design *d, const kp_entity *e, ptrdiff_t index, kp_write_op op,
                            const kp_str *changes, size_t nchanges, double share, double proj_bytes)
{
    return index_write(d, e, index, op, changes, nchanges, share, proj_bytes,
                       capacity_update_moves_key(d, e, op, changes, nchanges));
}

/* ---- the memo ---------------------------------------------------------------------- */

struct capacity_memo {
    const kp_design *d;
    namemap attrs;
    size_t stride;        /* 1 + d->nindexes: [0] base table */
    unsigned char *state; /* per (entity, index): MEMO_* bits */
    double *share, *proj, *wshare;
    /* the indexes' key attribute names, numbered: on_index for all the indexes of an entity at
     * once, from one look-up of each name the entity carries */
    namemap keynames;
    size_t *pkslot, *skslot; /* per index; SIZE_MAX: no such attribute */
    size_t nslots;
    bool *seen;
};

enum { MEMO_ON_DONE = 1, MEMO_ON = 2, MEMO_SHARE = 4, MEMO_PROJ = 8, MEMO_WSHARE = 16 };

capacity_memo *capacity_memo_new(const kp_design *d)
{
    capacity_memo *m = xcalloc(1, sizeof *m);
    m->d = d;
    capacity_memo_attrs_moved(m);
    m->stride = 1 + (d ? d->nindexes : 0);
    size_t n = (d && d->nentities ? d->nentities : 1) * m->stride;
    m->state = xcalloc(n, sizeof *m->state);
    m->share = xcalloc(n, sizeof *m->share);
    m->proj = xcalloc(n, sizeof *m->proj);
    m->wshare = xcalloc(n, sizeof *m->wshare);
    size_t nx = d ? d->nindexes : 0;
    namemap_init(&m->keynames, 2 * nx);
    m->pkslot = xmalloc((nx ? nx : 1) * sizeof *m->pkslot);
    m->skslot = xmalloc((nx ? nx : 1) * sizeof *m->skslot);
    for (size_t x = 0; x < nx; x++) {
        m->pkslot[x] = namemap_number(&m->keynames, d->indexes[x].pk.s);
        m->skslot[x] = namemap_number(&m->keynames, d->indexes[x].sk.s);
    }
    m->nslots = m->keynames.n;
    m->seen = xmalloc(m->nslots ? m->nslots : 1);
    return m;
}

/* capacity_on_index of entity e for every index, into the state bits (e is the design's). */
static void memo_on_all(capacity_memo *m, const kp_entity *e)
{
    const kp_design *d = m->d;
    size_t base = (size_t)(e - d->entities) * m->stride;
    memset(m->seen, 0, m->nslots);
    size_t sl;
    for (size_t k = 0; k < e->nkeys; k++)
        if (namemap_get(&m->keynames, e->keys[k].attr.s, &sl))
            m->seen[sl] = true;
    for (size_t k = 0; k < e->nattrs; k++)
        if (namemap_get(&m->keynames, e->attrs[k].s, &sl))
            m->seen[sl] = true;
    m->state[base] |= MEMO_ON_DONE | MEMO_ON; /* the base table */
    for (size_t x = 0; x < d->nindexes; x++) {
        bool on = m->pkslot[x] != SIZE_MAX && m->seen[m->pkslot[x]] &&
                  (!d->indexes[x].sk.s || (m->skslot[x] != SIZE_MAX && m->seen[m->skslot[x]]));
        m->state[base + 1 + x] |= (unsigned char)(MEMO_ON_DONE | (on ? MEMO_ON : 0));
    }
}

void capacity_memo_forget(capacity_memo *m, size_t epos)
{
    if (m && m->d && epos < m->d->nentities)
        memset(&m->state[epos * m->stride], 0, m->stride * sizeof *m->state);
}

void capacity_memo_attrs_moved(capacity_memo *m)
{
    if (!m || !m->d)
        return;
    namemap_free(&m->attrs);
    namemap_init(&m->attrs, m->d->nattrs);
    for (size_t i = 0; i < m->d->nattrs; i++)
        namemap_put(&m->attrs, m->d->attrs[i].name, i);
}

void capacity_memo_free(capacity_memo *m)
{
    if (!m)
        return;
    namemap_free(&m->attrs);
    namemap_free(&m->keynames);
    free(m->pkslot);
    free(m->skslot);
    free(m->seen);
    free(m->state);
    free(m->share);
    free(m->proj);
    free(m->wshare);
    free(m);
}

/* The slot of (e, index), or SIZE_MAX when e is not the design's or the index does not exist. */
static size_t memo_slot(const capacity_memo *m, const kp_entity *e, ptrdiff_t index)
{
    const kp_design *d = m->d;
    if (!d || !e || e < d->entities || e >= d->entities + d->nentities || index < -1 ||
        index >= (ptrdiff_t)d->nindexes)
        return SIZE_MAX;
    return (size_t)(e - d->entities) * m->stride + (size_t)(index + 1);
}

bool capacity_memo_on_index(capacity_memo *m, const kp_entity *e, ptrdiff_t index)
{
    size_t s = memo_slot(m, e, index);
    if (s == SIZE_MAX)
        return capacity_on_index(m->d, e, index);
    if (!(m->state[s] & MEMO_ON_DONE))
        memo_on_all(m, e);
    return (m->state[s] & MEMO_ON) != 0;
}

double capacity_memo_index_share(capacity_memo *m, const kp_entity *e, ptrdiff_t index)
{
    size_t s = memo_slot(m, e, index);
    if (s == SIZE_MAX)
        return capacity_index_share(m->d, e, index);
    if (!(m->state[s] & MEMO_SHARE)) {
        finder f = {m->d, &m->attrs};
        m->share[s] = index < 0                              ? 1.0
                      : !capacity_memo_on_index(m, e, index) ? 0
                                                             : share_on(&f, e, index, false);
        m->state[s] |= MEMO_SHARE;
    }
    return m->share[s];
}

double capacity_memo_projected_bytes(capacity_memo *m, const kp_entity *e, ptrdiff_t index)
{
    size_t s = memo_slot(m, e, index);
    if (s == SIZE_MAX)
        return capacity_projected_bytes(m->d, e, index);
    if (!(m->state[s] & MEMO_PROJ)) {
        finder f = {m->d, &m->attrs};
        m->proj[s] = projected_bytes(&f, e, index);
        m->state[s] |= MEMO_PROJ;
    }
    return m->proj[s];
}

/* The share of e's writes landing on index `index` (share_on with writes), through memo m. */
static double write_share(const finder *f, capacity_memo *m, const kp_entity *e, ptrdiff_t index)
{
    size_t s = m ? memo_slot(m, e, index) : SIZE_MAX;
    if (s == SIZE_MAX)
        return share_on(f, e, index, true);
    if (!(m->state[s] & MEMO_WSHARE)) {
        m->wshare[s] = share_on(f, e, index, true);
        m->state[s] |= MEMO_WSHARE;
    }
    return m->wshare[s];
}

/* capacity_entity_write, through memo m when it is not NULL (the same figures, computed once). */
static void entity_write(const kp_design *d, capacity_memo *m, const kp_entity *e, kp_write_op op,
                         const kp_str *changes, size_t nchanges, double *table_wcu,
                         double *index_wcu_per_index)
{
    size_t nx = d ? d->nindexes : 0;
    if (index_wcu_per_index)
        for (size_t i = 0; i < nx; i++)
            index_wcu_per_index[i] = 0;
    if (table_wcu)
        *table_wcu = 0;
    if (!d || !e)
        return;
    double table = capacity_write_units(e->size, op == KP_OP_TRANSACT);
    bool moves = capacity_update_moves_key(d, e, op, changes, nchanges);
    if (moves)
        table = 2 * capacity_write_units(e->size, true); /* Delete + Put, in a transaction */
    finder wf = {d, m ? &m->attrs : NULL};
    for (size_t i = 0; i < nx; i++) {
        ptrdiff_t x = (ptrdiff_t)i;
        double share = m ? capacity_memo_index_share(m, e, x) : capacity_index_share(d, e, x);
        if (share <= 0)
            continue;
        double proj = m ? capacity_memo_projected_bytes(m, e, x) : capacity_projected_bytes(d, e, x);
        double w = index_write(d, e, x, op, changes, nchanges, write_share(&wf, m, e, x), proj, moves);
        if (d->indexes[i].kind == KP_LSI)
            table += w;
        else if (index_wcu_per_index)
            index_wcu_per_index[i] = w;
    }
    if (table_wcu)
        *table_wcu = table;
}

void capacity_entity_write(const kp_design *d, const kp_entity *e, kp_write_op op, const kp_str *changes,
                           size_t nchanges, double *table_wcu, double *index_wcu_per_index)
{
    entity_write(d, NULL, e, op, changes, nchanges, table_wcu, index_wcu_per_index);
}

void capacity_memo_entity_write(capacity_memo *m, const kp_entity *e, kp_write_op op, const kp_str *changes,
                                size_t nchanges, double *table_wcu, double *index_wcu_per_index)
{
    entity_write(m->d, m, e, op, changes, nchanges, table_wcu, index_wcu_per_index);
}
