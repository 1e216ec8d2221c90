/* capacity.c - DynamoDB unit arithmetic and per-entity write costs (see capacity.h). */
#include "model/capacity.h"

#include <math.h>
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

double capacity_value_bytes(const kp_design *d, const char *name, const char *inline_format)
{
    const kp_attr *a = (d && name) ? design_attr(d, name) : NULL;
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

double capacity_key_bytes(const kp_design *d, const kp_entity *e, const char *attr)
{
    if (!attr)
        return 0;
    double bytes = (double)strlen(attr);
    const kp_keytpl *k = e ? entity_key(e, attr) : NULL;
    if (!k)
        return bytes + capacity_value_bytes(d, attr, NULL);
    for (size_t i = 0; i < k->tpl.n; i++) {
        const tpl_part *p = &k->tpl.parts[i];
        if (p->kind == TPL_LIT)
            bytes += (double)strlen(p->text);
        else
            bytes += capacity_value_bytes(d, p->text, p->format);
    }
    return bytes;
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

static double enum_share(const kp_attr *a, const char *value)
{
    for (size_t i = 0; i < a->nvalues; i++)
        if (strcmp(a->values[i].name, value) == 0)
            return a->values[i].share;
    return 0;
}

static double sparse_share(const kp_design *d, const kp_sparse *s)
{
    if (s->kind == KP_SPARSE_SHARE)
        return isnan(s->share) ? 1.0 : s->share;
    const kp_attr *a = s->cond_attr.s ? design_attr(d, s->cond_attr.s) : NULL;
    if (!a || a->type != KP_ATTR_ENUM || a->nvalues == 0)
        return 0.5;
    double sum = 0;
    for (size_t i = 0; i < s->nvalues; i++)
        sum += enum_share(a, s->values[i].s);
    if (sum > 1)
        sum = 1;
    return s->op == KP_COND_NE ? 1.0 - sum : sum;
}

double capacity_index_share(const kp_design *d, const kp_entity *e, ptrdiff_t index)
{
    if (index < 0)
        return 1.0;
    if (!capacity_on_index(d, e, index))
        return 0;
    const kp_index *x = index_at(d, index);
    double share = 1.0;
    const kp_sparse *s = entity_sparse(e, x->pk.s);
    if (s)
        share *= sparse_share(d, s);
    if (x->sk.s) {
        const kp_sparse *t = entity_sparse(e, x->sk.s);
        if (t && t != s)
            share *= sparse_share(d, t);
    }
    return share;
}

double capacity_projected_bytes(const kp_design *d, const kp_entity *e, ptrdiff_t index)
{
    if (!e)
        return 0;
    double size = pos(e->size);
    const kp_index *x = index_at(d, index);
    if (!x || x->projection == KP_PROJ_ALL)
        return size;
    double bytes = capacity_key_bytes(d, e, d->table.pk.s) + capacity_key_bytes(d, e, d->table.sk.s);
    const char *ks[2] = {x->pk.s, x->sk.s};
    for (int i = 0; i < 2; i++) {
        if (!ks[i])
            continue;
        if ((d->table.pk.s && strcmp(ks[i], d->table.pk.s) == 0) ||
            (d->table.sk.s && strcmp(ks[i], d->table.sk.s) == 0))
            continue; /* already counted (inverted index, LSI) */
        bytes += capacity_key_bytes(d, e, ks[i]);
    }
    if (x->projection == KP_PROJ_INCLUDE) {
        for (size_t i = 0; i < x->ninclude; i++) {
            const char *n = x->include[i].s;
            if (!n || !entity_carries(e, n))
                continue;
            if (entity_key(e, n))
                bytes += capacity_key_bytes(d, e, n);
            else
                bytes += (double)strlen(n) + capacity_value_bytes(d, n, NULL);
        }
    }
    return (size > 0 && bytes > size) ? size : bytes;
}

bool capacity_changes_index_key(const kp_design *d, const kp_entity *e, ptrdiff_t index,
                                const char *attr)
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

/* true when `attr` is the condition attribute of a sparse rule on the index's key attributes. */
static bool changes_sparse_cond(const kp_entity *e, const kp_index *x, const char *attr)
{
    const char *ks[2] = {x->pk.s, x->sk.s};
    for (int i = 0; i < 2; i++) {
        if (!ks[i])
            continue;
        const kp_sparse *s = entity_sparse(e, ks[i]);
        if (s && s->kind == KP_SPARSE_COND && s->cond_attr.s && strcmp(s->cond_attr.s, attr) == 0)
            return true;
    }
    return false;
}

double capacity_index_write(const kp_design *d, const kp_entity *e, ptrdiff_t index, kp_write_op op,
                            const kp_str *changes, size_t nchanges, double share, double proj_bytes)
{
    const kp_index *x = index_at(d, index);
    if (!x || !e || share <= 0)
        return 0;
    double units = capacity_write_units(proj_bytes, false);
    if (op != KP_OP_UPDATE)
        return share * units;
    bool key = false, cond = false;
    for (size_t c = 0; c < nchanges; c++) {
        if (!changes[c].s)
            continue;
        if (changes_sparse_cond(e, x, changes[c].s))
            cond = true;
        else if (capacity_changes_index_key(d, e, index, changes[c].s))
            key = true;
    }
    if (cond) {
        double p = 2 * share;
        if (p > 1)
            p = 1;
        return key ? p * 2 * units : p * units;
    }
    if (key)
        return 2 * share * units;
    return x->projection == KP_PROJ_KEYS ? 0 : share * units;
}

void capacity_entity_write(const kp_design *d, const kp_entity *e, kp_write_op op,
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
    for (size_t i = 0; i < nx; i++) {
        double share = capacity_index_share(d, e, (ptrdiff_t)i);
        if (share <= 0)
            continue;
        double w = capacity_index_write(d, e, (ptrdiff_t)i, op, changes, nchanges, share,
                                        capacity_projected_bytes(d, e, (ptrdiff_t)i));
        if (d->indexes[i].kind == KP_LSI)
            table += w;
        else if (index_wcu_per_index)
            index_wcu_per_index[i] = w;
    }
    if (table_wcu)
        *table_wcu = table;
}
