/* heat.c - partition heat and whole-index figures: a->partitions, a->indexes,
 * a->table_hot_share. The stage runs in phases (stage_heat, at the end): rows, items and bytes
 * (place_items), reads (place_reads), writes (place_writes), then the partitions' figures and the
 * indexes' (partition_results, index_results).
 *
 * Model (documented once, here):
 * - Rows. For the base table and every GSI, one row per distinct partition-key template (the
 *   entity's template for the index's partition attribute, or "{attr}" when the entity carries
 *   that attribute plainly); entities with the identical template on the same index share the
 *   row. LSIs have no rows of their own: they live in the table's partitions, so their reads
 *   land on the table's rows and their entries count in the table rows' `bytes` (10 GB limit).
 * - Values. The template's values are the product of its placeholders' value classes
 *   (model/distrib.h): every enum value, or "the hottest value" of any other distribution. An
 *   unknown distribution (no `distinct`) is assumed to have one value per item of the entity
 *   (a unique key; 1,000,000 values when the count is unknown too), and the row's `distinct` is
 *   NAN (a finding says so). When the product of
 *   enum values exceeds 4,096 combinations the later enums collapse to their hottest value.
 * - Sparse indexes. A `sparse` condition on an enum placeholder of the index's partition
 *   template keeps only the values meeting it (GSI1PK "ESTADO#{status}" with status =
 *   pending-shipment is one value holding every entry).
 * - Reads. Every GetItem/Query/BatchGetItem step of a pattern (a write pattern's "find" steps
 *   included) lands on the row of its
 *   (index, entity) with rate x count x rcu units/s, spread over the values as: a placeholder the
 *   caller supplies (`by`, or a `join` target) follows the item distribution; a fixed value
 *   (`status=pending-shipment`) lands entirely on that value (a fixed non-enum value is taken to
 *   be the hottest one); an enum or shard placeholder not supplied is a fan-out, one request per
 *   value. Scans spread over the whole table and count only in the index figures.
 * - Writes. An entity's logical writes are its `writes` (peak; `writes_avg` average) when given,
 *   else the rates of the write patterns naming it (x the pattern's `items` split evenly over its
 *   entities, at least 1 each). model/capacity.h prices one logical write on the
 *   table (LSIs included) and on each GSI. Writes follow the write distribution (enum
 *   write_shares, attribute write_hot); a write pattern's fixed value lands on that value.
 * - Per value: items, read units/s, write units/s, bytes. A row reports the maximum of each over
 *   its values (the hottest value for reads may differ from the hottest for writes: CloudShop's
 *   first design keeps 71 % of the items in `delivered` while the writes land on
 *   `pending-payment`), utilisation against 3,000 RCU/s and 1,000 WCU/s, `hot` at >= 100 %, and
 *   the smallest shard count bringing both under 50 %.
 * - Index figures: items, bytes (items x (size + 100 B); index entries projected size + 100 B),
 *   peak read/write units and average write units, distinct values summed over its templates,
 *   and the shares of the index's items, reads and writes on its hottest value. Templates with
 *   the same literals and the same number of placeholders (USER#{username} for profiles,
 *   USER#{followedUsername} for follows: one item collection) are taken to share their values:
 *   they count their distinct values once (the largest) and their hottest values add up.
 *   Other templates are taken not to share values. table_hot_share = the base table's hot_share
 *   (items). */
#include "analysis_stages.h"
#include "capacity.h"
#include "distrib.h"
#include "namemap.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COMBOS     4096
#define UNKNOWN_VALUES 1e6 /* values assumed for an unknown distribution when the count is unknown too */

typedef struct hph {
    const char *name;
    bool is_enum, is_shard, collapsed;
    double distinct; /* NAN unknown */
    kp_vclass *cls;
    size_t ncls;
} hph;

typedef struct hrow {
    ptrdiff_t index;
    char *src;
    const kp_entity *entity; /* first entity */
    hph *ph;
    size_t nph;
    size_t ncombo;
    double *items, *reads, *writes, *bytes; /* per value combination, one allocation */
    double total_items, total_reads, total_writes;
    bool unknown;
    char *skeleton;  /* the template with every placeholder written {} */
    ptrdiff_t first; /* first member (position in members), -1 none */
    /* what a kept run reuses (the design's alone), set by its first partition_results */
    bool known;
    double distinct, max_items, max_bytes;
    size_t fam; /* its family */
} hrow;

typedef struct hmember {
    ptrdiff_t row;    /* -1: not on the index */
    bool on;          /* the entity's items can be on the index (LSIs included) */
    double share;     /* share of the entity's items on the index */
    double projected; /* bytes of one entry, without the 100 B overhead */
    ptrdiff_t next;   /* next member of the same row (position in members), -1 last */
    double entry_bytes;
    size_t rph; /* restricted placeholder, SIZE_MAX none */
    const kp_sparse *rule;
    double kept_share, kept_wshare;
    size_t nkept;
} hmember;

/* Rows whose templates have the same literals and the same number of placeholders
 * (USER#{username}, USER#{followedUsername}) are taken to share their values on the index. */
typedef struct hfamily {
    ptrdiff_t index;
    double distinct;             /* the largest of its rows' (NAN unknown) */
    double items, reads, writes; /* the rows' hottest values added: they coincide, pessimistically */
} hfamily;

/* One addition a run makes to a sum. After an edit, heat replays each unchanged pattern's
 * additions (the same values in the same order: the same sums) instead of computing them again. */
typedef enum hop_kind { HOP_ROW, HOP_INDEX, HOP_SERVED } hop_kind;
typedef struct hop {
    hop_kind kind;
    unsigned rowi; /* HOP_ROW: the row's position, and off the sum's place in it (row_sum): where
                      row points in a heat made again with the same rows (stage_heat_take) */
    double *row;   /* HOP_ROW: a row's sum (the rows do not move once made) */
    size_t off;    /* HOP_ROW: see rowi; HOP_INDEX: byte offset of a double in a->indexes;
                      HOP_SERVED: the index */
    double v;
} hop;

typedef struct hops {
    hop *v;
    size_t n, cap;
} hops;

/* ---- the working state ------------------------------------------------------------------ */
typedef struct heat {
    const kp_design *d;
    kp_analysis *a;
    namemap anames, enames; /* attributes, entities by name (analysis_name_maps) */
    kp_dist *dists;         /* per design attribute, computed once */
    bool *dist_done;
    hrow *rows;
    size_t nrows, caprows;
    namemap rowmap;   /* (template source, index) -> row */
    bool *pk_carried; /* [entity * nindexes + x]: the entity carries index x's partition attribute */
    namemap families; /* (skeleton, index) -> family */
    hfamily *fam;
    size_t nfam, capfam;
    hmember *members; /* (nindexes + 1) x nentities; [0] base table */
    size_t nent;
    tpl *synth_tpl; /* "{attr}" templates made for plain attributes; never reallocated */
    size_t nsynth_tpl, capsynth_tpl;
    namemap wcache; /* (op|changes, entity) -> slot of wvals: capacity_entity_write results */
    double *wvals;  /* per slot: table units, then one per index */
    size_t nw, capwv;
    capacity_memo *cap;   /* capacity figures per (entity, index), computed once */
    capacity_memo *own;   /* cap when the stage made it (no resolver ran) */
    arena *ar;            /* the rows' arrays (placeholders, value classes, per-value sums,
                           skeletons) and the write cache's keys: hundreds of small pieces per
                           run, released together */
    kp_index_result *ix0; /* the indexes' figures after place_items (names, items, bytes): what
                             each run starts from */
    hops *rec;            /* where additions go instead of their sums (a pattern being recorded) */
    size_t nlog;          /* patterns recorded (stage_heat_open); 0: none, additions made */
    hops *rlog, *wlog;    /* per pattern: its reads' additions, its writes' */
    hops elog;            /* the entities' own `writes` */
    bool *dirty;          /* per pattern: to be recorded again */
    bool fam_made;        /* families holds a run's families */
    bool kept;            /* stage_heat_open: runs reuse the rows' figures (hrow.known) and the
                             partitions share the rows' template texts */
} heat;

static const kp_attr *attr_of(const heat *h, const char *name)
{
    size_t i;
    return namemap_get(&h->anames, name, &i) ? &h->d->attrs[i] : NULL;
}

static hmember *member(heat *h, ptrdiff_t index, const kp_entity *e)
{
    size_t ei = (size_t)(e - h->d->entities);
    return &h->members[(size_t)(index + 1) * h->nent + ei];
}

static bool rule_keeps(const kp_sparse *r, const char *value)
{
    if (!value)
        return true;
    bool in = false;
    for (size_t i = 0; i < r->nvalues; i++)
        if (r->values[i].s && strcmp(r->values[i].s, value) == 0)
            in = true;
    return r->op == KP_COND_NE ? !in : in;
}

static const char *index_pk(const kp_design *d, ptrdiff_t index)
{
    return index < 0 ? d->table.pk.s : d->indexes[index].pk.s;
}

/* The partition template of entity e on index `index`, or NULL when it has none. */
static const tpl *partition_tpl(heat *h, const kp_entity *e, ptrdiff_t index)
{
    const char *pk = index_pk(h->d, index);
    if (!pk)
        return NULL;
    const kp_keytpl *k = entity_key(e, pk);
    if (k)
        return &k->tpl;
    if (!entity_carries(e, pk))
        return NULL;
    /* a plain attribute: the template "{pk}" */
    char *src = tpl_placeholder(pk);
    tpl t;
    if (tpl_parse(src, &t, NULL, NULL) != KP_OK) {
        free(src);
        return NULL;
    }
    free(src);
    VEC_GROW(h->synth_tpl, h->nsynth_tpl, h->capsynth_tpl);
    h->synth_tpl[h->nsynth_tpl] = t;
    return &h->synth_tpl[h->nsynth_tpl++];
}

/* The template with every placeholder written "{}", literals as they are (in the arena). */
static char *skeleton_of(heat *h, const tpl *t)
{
    char inl[256];
    sbuf b;
    sbuf_init_in(&b, inl, sizeof inl);
    for (size_t i = 0; i < t->n; i++)
        sbuf_add(&b, t->parts[i].kind == TPL_ATTR ? "{}" : t->parts[i].text);
    return sbuf_to_arena(&b, h->ar);
}

/* The distribution of attribute a (NULL: undeclared), computed once per attribute. */
static kp_dist dist_of(heat *h, const kp_attr *a)
{
    if (!a)
        return distrib_attr(NULL);
    size_t ai = (size_t)(a - h->d->attrs);
    if (!h->dist_done[ai]) {
        h->dists[ai] = distrib_attr(a);
        h->dist_done[ai] = true;
    }
    return h->dists[ai];
}

/* Placeholder `name` of a row of entity e: its distribution and value classes; when the row
 * would pass MAX_COMBOS value combinations (combos so far), it collapses to its hottest value.
 * Sets row->unknown when the distribution is. */
static void setup_placeholder(heat *h, hrow *row, hph *ph, const char *name, const kp_entity *e,
                              size_t combos)
{
    ph->name = name;
    const kp_attr *a = attr_of(h, name);
    kp_dist di = dist_of(h, a);
    ph->is_enum = di.kind == KP_DIST_ENUM;
    ph->is_shard = di.kind == KP_DIST_SHARD;
    ph->distinct = di.distinct;
    if (di.kind == KP_DIST_UNKNOWN)
        row->unknown = true;
    size_t n = a && a->type == KP_ATTR_ENUM && a->nvalues > 0 ? a->nvalues : 1;
    ph->cls = arena_zalloc(h->ar, n * sizeof *ph->cls);
    ph->ncls = distrib_classes_of(a, &di, e->count >= 1 ? e->count : UNKNOWN_VALUES, ph->cls, n);
    if (combos * ph->ncls > MAX_COMBOS) {
        /* collapse to the hottest value, matching any fixed value */
        size_t best = 0;
        for (size_t k = 1; k < ph->ncls; k++)
            if (ph->cls[k].share > ph->cls[best].share)
                best = k;
        ph->cls[0] = ph->cls[best];
        ph->cls[0].value = NULL;
        ph->ncls = 1;
        ph->collapsed = true;
    }
}

/* Row `row` (its first entity set, its placeholders none) takes template t: its text and
 * skeleton, its placeholders' value classes, its sums (zeroed) for their value combinations. */
static void row_template(heat *h, hrow *row, const tpl *t)
{
    row->src = xstrdup(t->src);
    row->skeleton = skeleton_of(h, t);
    size_t nph = tpl_attr_count(t);
    row->ph = arena_zalloc(h->ar, (nph ? nph : 1) * sizeof *row->ph);
    size_t combos = 1;
    for (size_t i = 0; i < t->n; i++) {
        if (t->parts[i].kind != TPL_ATTR)
            continue;
        hph *ph = &row->ph[row->nph++];
        setup_placeholder(h, row, ph, t->parts[i].text, row->entity, combos);
        combos *= ph->ncls;
    }
    row->ncombo = combos;
    double *all = arena_zalloc(h->ar, 4 * combos * sizeof *all);
    row->items = all;
    row->reads = all + combos;
    row->writes = all + 2 * combos;
    row->bytes = all + 3 * combos;
}

/* The row of template t on index `index` (first entity e), made on first use. */
static size_t row_for(heat *h, ptrdiff_t index, const tpl *t, const kp_entity *e)
{
    size_t r;
    if (namemap_find(&h->rowmap, t->src, index, &r))
        return r;
    VEC_GROW(h->rows, h->nrows, h->caprows);
    r = h->nrows++;
    hrow *row = &h->rows[r];
    memset(row, 0, sizeof *row);
    row->index = index;
    row->first = -1;
    row->entity = e;
    row_template(h, row, t);
    namemap_insert(&h->rowmap, row->src, index, r, NULL);
    return r;
}

/* How pattern p supplies placeholder `name`: 0 unbound, 1 by the caller, 2 fixed (*fixed). */
static int binding(const kp_pattern *p, const char *name, const char **fixed)
{
    for (size_t i = 0; i < p->nby; i++)
        if (p->by[i].attr.s && strcmp(p->by[i].attr.s, name) == 0) {
            if (p->by[i].value) {
                *fixed = p->by[i].value;
                return 2;
            }
            return 1;
        }
    for (size_t i = 0; i < p->njoin; i++)
        if (p->join[i].to.s && strcmp(p->join[i].to.s, name) == 0)
            return 1;
    return 0;
}

enum wmode { W_ITEMS, W_WRITES, W_READS };

/* Share of the items / writes / requests of member m (with pattern p's bindings; p NULL = all
 * supplied by the caller) landing on value combination `combo` of row r. */
static double weight(const hrow *r, const hmember *m, size_t combo, enum wmode mode, const kp_pattern *p)
{
    double w = 1;
    for (size_t i = 0; i < r->nph; i++) {
        const hph *ph = &r->ph[i];
        const kp_vclass *c = &ph->cls[combo % ph->ncls];
        combo /= ph->ncls;
        double ns = 1, nw = 1;
        size_t nvals = ph->ncls;
        if (m->rph == i) {
            if (!ph->collapsed && !rule_keeps(m->rule, c->value))
                return 0;
            if (!ph->collapsed) {
                ns = m->kept_share;
                nw = m->kept_wshare;
                nvals = m->nkept;
            }
        }
        const char *fixed = NULL;
        int b = p ? binding(p, ph->name, &fixed) : 1;
        if (b == 2) {
            if (ph->is_enum && c->value && strcmp(fixed, c->value) != 0)
                return 0;
            continue;
        }
        if (mode == W_READS && b == 0 && (ph->is_enum || ph->is_shard)) {
            w *= ph->is_enum ? (ph->collapsed ? c->share : 1.0 / (double)(nvals ? nvals : 1)) : c->share;
            continue;
        }
        double s = mode == W_WRITES ? (nw > 0 ? c->write_share / nw : 0) : (ns > 0 ? c->share / ns : 0);
        w *= s;
    }
    return w;
}

/* Member m keeps only the values of its row's enum placeholder that sparse condition sp keeps
 * (when the row has that placeholder, not collapsed). */
static void restrict_member(hmember *m, const hrow *row, const kp_sparse *sp)
{
    for (size_t i = 0; i < row->nph; i++) {
        const hph *ph = &row->ph[i];
        if (!ph->is_enum || ph->collapsed || strcmp(ph->name, sp->cond_attr.s) != 0)
            continue;
        m->rph = i;
        m->rule = sp;
        for (size_t k = 0; k < ph->ncls; k++)
            if (rule_keeps(sp, ph->cls[k].value)) {
                m->kept_share += ph->cls[k].share;
                m->kept_wshare += ph->cls[k].write_share;
                m->nkept++;
            }
        return;
    }
}

/* Member m (entity e, on the index: its share and projection set) of a row: the bytes of one of
 * its entries, the table's with the entries of its LSIs (which live in the table's partitions). */
static void member_entry_bytes(heat *h, hmember *m, const kp_entity *e, ptrdiff_t index)
{
    const kp_design *d = h->d;
    m->entry_bytes = m->projected + CAP_ITEM_OVERHEAD_BYTES;
    for (size_t x = 0; index < 0 && x < d->nindexes; x++) {
        const hmember *l = member(h, (ptrdiff_t)x, e);
        if (d->indexes[x].kind == KP_LSI && l->on)
            m->entry_bytes += l->share * (l->projected + CAP_ITEM_OVERHEAD_BYTES);
    }
}

/* Member m (entity e) of its row: the values of the row's enum placeholder its sparse condition
 * keeps, when it has one. */
static void member_restrict(heat *h, hmember *m, const kp_entity *e, ptrdiff_t index)
{
    m->rph = SIZE_MAX;
    m->rule = NULL;
    m->kept_share = 0;
    m->kept_wshare = 0;
    m->nkept = 0;
    const kp_sparse *sp = entity_sparse(e, index_pk(h->d, index));
    if (sp && sp->kind == KP_SPARSE_COND && sp->cond_attr.s)
        restrict_member(m, &h->rows[m->row], sp);
}

/* Entity e on index `index`: whether its items are there, their share and entry size, and its
 * row (none on an LSI: it lives in the table's partitions). */
static void setup_member(heat *h, const kp_entity *e, ptrdiff_t index)
{
    const kp_design *d = h->d;
    hmember *m = member(h, index, e);
    /* every field set here: the members are not zeroed when allocated */
    m->row = -1;
    m->next = -1;
    m->rph = SIZE_MAX;
    m->share = 0;
    m->projected = 0;
    m->entry_bytes = 0;
    m->rule = NULL;
    m->kept_share = 0;
    m->kept_wshare = 0;
    m->nkept = 0;
    /* fast negative path: an entity that does not carry the partition attribute is not on it */
    m->on = (index < 0 || h->pk_carried[(size_t)(e - d->entities) * d->nindexes + (size_t)index]) &&
            capacity_memo_on_index(h->cap, e, index);
    if (!m->on)
        return;
    m->share = capacity_memo_index_share(h->cap, e, index);
    m->projected = index < 0 ? util_nz(e->size) : capacity_memo_projected_bytes(h->cap, e, index);
    if (index >= 0 && d->indexes[index].kind == KP_LSI)
        return; /* lives in the table's partitions */
    const tpl *t = partition_tpl(h, e, index);
    if (!t)
        return;
    member_entry_bytes(h, m, e, index);
    size_t r = row_for(h, index, t, e);
    m->row = (ptrdiff_t)r;
    m->next = h->rows[r].first;
    h->rows[r].first = (ptrdiff_t)(m - h->members);
    member_restrict(h, m, e, index);
}

static void add_items(heat *h, const kp_entity *e, ptrdiff_t index)
{
    hmember *m = member(h, index, e);
    if (m->row < 0)
        return;
    hrow *r = &h->rows[m->row];
    double n = (isnan(e->count) ? 0 : e->count) * m->share;
    for (size_t c = 0; c < r->ncombo; c++) {
        double it = n * weight(r, m, c, W_ITEMS, NULL);
        r->items[c] += it;
        r->bytes[c] += it * m->entry_bytes;
    }
    r->total_items += n;
}

static void hop_push(hops *l, hop_kind kind, unsigned rowi, double *row, size_t off, double v)
{
    VEC_GROW(l->v, l->n, l->cap);
    l->v[l->n++] = (hop){kind, rowi, row, off, v};
}

/* Sum `off` of row r: its value combinations' items, reads, writes and bytes one after the other
 * (4 x ncombo), then total_reads, then total_writes. */
static double *row_sum(hrow *r, size_t off)
{
    size_t n = 4 * r->ncombo;
    return off < n ? &r->items[off] : off == n ? &r->total_reads : &r->total_writes;
}

/* Sum `off` of row r += v, or recorded. */
static void acc_row(heat *h, size_t r, size_t off, double v)
{
    double *t = row_sum(&h->rows[r], off);
    if (h->rec)
        hop_push(h->rec, HOP_ROW, (unsigned)r, t, off, v);
    else
        *t += v;
}

/* The double at byte offset `off` of index x's result += v, or recorded. */
static void acc_index(heat *h, size_t x, size_t off, double v)
{
    off += x * sizeof(kp_index_result);
    if (h->rec)
        hop_push(h->rec, HOP_INDEX, 0, NULL, off, v);
    else
        *(double *)((char *)h->a->indexes + off) += v;
}

static void served(heat *h, size_t x)
{
    if (h->rec)
        hop_push(h->rec, HOP_SERVED, 0, NULL, x, 0);
    else
        h->a->indexes[x].patterns_served++;
}

static void replay(heat *h, const hops *l)
{
    for (size_t i = 0; i < l->n; i++) {
        const hop *o = &l->v[i];
        if (o->kind == HOP_ROW)
            *o->row += o->v;
        else if (o->kind == HOP_INDEX)
            *(double *)((char *)h->a->indexes + o->off) += o->v;
        else
            h->a->indexes[o->off].patterns_served++;
    }
}

/* Adds `units` units/s of kind `mode` from entity e (pattern p's bindings, may be NULL) to its
 * row on `index`. */
static void add_load(heat *h, const kp_entity *e, ptrdiff_t index, double units, enum wmode mode,
                     const kp_pattern *p)
{
    if (!(units > 0) || e < h->d->entities || e >= h->d->entities + h->d->nentities)
        return; /* nothing, or an entity that is not this design's */
    hmember *m = member(h, index, e);
    if (m->row < 0)
        return;
    hrow *r = &h->rows[m->row];
    size_t at = (mode == W_READS ? 1 : 2) * r->ncombo; /* the reads, the writes (row_sum) */
    for (size_t c = 0; c < r->ncombo; c++)
        acc_row(h, (size_t)m->row, at + c, units * weight(r, m, c, mode, p));
    acc_row(h, (size_t)m->row, 4 * r->ncombo + (mode == W_READS ? 0 : 1), units);
}

/* Items of entity e written per call of write pattern p: the pattern's `items` split evenly over
 * its entities (at least 1 each); 1 when not given. */
static double items_per_call(const kp_pattern *p)
{
    double items = isnan(p->items) || p->items <= 0 ? 1 : p->items;
    double per = items / (double)(p->nentities ? p->nentities : 1);
    return per < 1 ? 1 : per;
}

/* capacity_entity_write, remembered per (entity, op, changes): many patterns write alike. */
static const double *write_units(heat *h, const kp_entity *e, kp_write_op op, const kp_str *changes,
                                 size_t nchanges)
{
    const kp_design *d = h->d;
    /* the key "<op>|change|change..." (the changes count for updates only) */
    char inl[256];
    sbuf key;
    sbuf_init_in(&key, inl, sizeof inl);
    sbuf_add(&key, kp_write_op_name(op));
    for (size_t i = 0; op == KP_OP_UPDATE && i < nchanges; i++) {
        sbuf_addc(&key, '|');
        sbuf_add(&key, changes[i].s ? changes[i].s : "");
    }
    ptrdiff_t ei = e - d->entities;
    size_t slot, stride = d->nindexes + 1;
    if (namemap_find(&h->wcache, key.s, ei, &slot)) {
        sbuf_free(&key);
        return &h->wvals[slot * stride];
    }
    while ((h->nw + 1) * stride > h->capwv) {
        h->capwv = h->capwv ? h->capwv * 2 : 8 * stride;
        h->wvals = xrealloc(h->wvals, h->capwv * sizeof *h->wvals);
    }
    slot = h->nw++;
    double *v = &h->wvals[slot * stride];
    memset(v, 0, stride * sizeof *v);
    capacity_memo_entity_write(h->cap, e, op, changes, nchanges, &v[0], d->nindexes ? v + 1 : NULL);
    namemap_insert(&h->wcache, sbuf_to_arena(&key, h->ar), ei, slot, NULL);
    return v;
}

static void add_writes(heat *h, const kp_entity *e, double rate, double avg, kp_write_op op,
                       const kp_str *changes, size_t nchanges, const kp_pattern *p)
{
    const kp_design *d = h->d;
    const double *v = write_units(h, e, op, changes, nchanges);
    double twcu = v[0];
    const double *iw = v + 1;
    const size_t wcu = offsetof(kp_index_result, wcu_per_s),
                 wcu_avg = offsetof(kp_index_result, wcu_per_s_avg);
    add_load(h, e, -1, rate * twcu, W_WRITES, p);
    acc_index(h, 0, wcu, rate * twcu);
    acc_index(h, 0, wcu_avg, avg * twcu);
    for (size_t x = 0; x < d->nindexes; x++) {
        if (d->indexes[x].kind == KP_LSI || !(iw[x] > 0))
            continue;
        add_load(h, e, (ptrdiff_t)x, rate * iw[x], W_WRITES, p);
        acc_index(h, x + 1, wcu, rate * iw[x]);
        acc_index(h, x + 1, wcu_avg, avg * iw[x]);
    }
}

static void hrow_free(hrow *r) { free(r->src); /* the rest is in the stage's arena */ }

static int suggest_shards(double read_units, double write_units)
{
    double need = fmax(read_units / (CAP_PARTITION_RCU * 0.5), write_units / (CAP_PARTITION_WCU * 0.5));
    if (!(need > 0))
        return 0;
    double n = floor(need) + 1;
    return n > 1e6 ? 1000000 : (int)n;
}

/* ---- the phases ------------------------------------------------------------------------- */

/* Which entities carry each index's partition attribute (as a key or plainly): the indexes'
 * partition attribute names numbered, then each entity's names looked up once. */
static void mark_pk_carried(heat *h)
{
    const kp_design *d = h->d;
    namemap pknames;
    namemap_init(&pknames, d->nindexes);
    size_t *pkslot = xmalloc((d->nindexes ? d->nindexes : 1) * sizeof *pkslot);
    for (size_t x = 0; x < d->nindexes; x++)
        pkslot[x] = namemap_number(&pknames, d->indexes[x].pk.s);
    size_t nslots = pknames.n;
    bool *seen = xmalloc(nslots ? nslots : 1);
    h->pk_carried = xcalloc((h->nent ? h->nent : 1) * (d->nindexes ? d->nindexes : 1), sizeof *h->pk_carried);
    for (size_t e = 0; e < d->nentities && nslots; e++) {
        const kp_entity *en = &d->entities[e];
        memset(seen, 0, nslots);
        size_t sl;
        for (size_t k = 0; k < en->nkeys; k++)
            if (namemap_get(&pknames, en->keys[k].attr.s, &sl))
                seen[sl] = true;
        for (size_t k = 0; k < en->nattrs; k++)
            if (namemap_get(&pknames, en->attrs[k].s, &sl))
                seen[sl] = true;
        for (size_t x = 0; x < d->nindexes; x++)
            h->pk_carried[e * d->nindexes + x] = pkslot[x] != SIZE_MAX && seen[pkslot[x]];
    }
    free(seen);
    free(pkslot);
    namemap_free(&pknames);
}

/* The working state for analysis a, and a->indexes with their names. */
static void heat_open(heat *h, kp_analysis *a)
{
    const kp_design *d = a->design;
    memset(h, 0, sizeof *h);
    h->d = d;
    h->a = a;
    h->nent = d->nentities;
    h->ar = arena_new();
    analysis_name_maps(d, &h->anames, &h->enames);
    /* the resolver's memo when it ran (the same figures), else one of our own */
    h->own = a->capacity_memo ? NULL : capacity_memo_new(d);
    h->cap = h->own ? h->own : a->capacity_memo;
    h->dists = xcalloc(d->nattrs ? d->nattrs : 1, sizeof *h->dists);
    h->dist_done = xcalloc(d->nattrs ? d->nattrs : 1, sizeof *h->dist_done);
    namemap_init(&h->rowmap, d->nentities * 2 + d->nindexes);
    namemap_init(&h->wcache, 64);
    mark_pk_carried(h);
    /* every member is set up (setup_member sets all its fields) before it is read */
    h->members = xmalloc((d->nindexes + 1) * (h->nent ? h->nent : 1) * sizeof *h->members);
    /* the synthetic templates must not move once rows point at them; [0, nsynth_tpl) in use */
    h->capsynth_tpl = (d->nindexes + 1) * (h->nent ? h->nent : 1);
    h->synth_tpl = xmalloc(h->capsynth_tpl * sizeof *h->synth_tpl);
    h->ix0 = xcalloc(d->nindexes + 1, sizeof *h->ix0);
    for (size_t x = 0; x < d->nindexes + 1; x++) {
        kp_index_result *ir = &h->ix0[x];
        ir->index = (ptrdiff_t)x - 1;
        ir->name = x == 0 ? "table" : d->indexes[x - 1].name;
    }
}

static void heat_close(heat *h, kp_analysis *a)
{
    for (size_t r = 0; r < h->nrows; r++)
        hrow_free(&h->rows[r]);
    free(h->rows);
    arena_free(h->ar);
    for (size_t i = 0; i < h->nsynth_tpl; i++)
        tpl_free(&h->synth_tpl[i]);
    free(h->synth_tpl);
    free(h->members);
    namemap_free(&h->anames);
    namemap_free(&h->enames);
    /* heat is the memo's last user: the finished analysis (a; NULL: kept by analysis_update)
       does not hold it */
    if (h->own)
        capacity_memo_free(h->own);
    else if (a) {
        capacity_memo_free(a->capacity_memo);
        a->capacity_memo = NULL;
    }
    free(h->ix0);
    free(h->dists);
    free(h->dist_done);
    namemap_free(&h->rowmap);
    namemap_free(&h->wcache);
    free(h->wvals);
    free(h->pk_carried);
    if (h->fam_made)
        namemap_free(&h->families);
    free(h->fam);
}

/* Entity e's items and bytes added to index `index`'s figures (when it is on it). */
static void index_items(heat *h, const kp_entity *e, ptrdiff_t index)
{
    const hmember *m = member(h, index, e);
    if (!m->on)
        return;
    kp_index_result *ir = &h->ix0[index + 1];
    ir->items += util_nz(e->count) * m->share;
    ir->bytes += util_nz(e->count) * m->share * (m->projected + CAP_ITEM_OVERHEAD_BYTES);
}

/* Rows, items and bytes: every entity on every index (the LSI members first: the table's rows
 * hold their entries). */
static void place_items(heat *h)
{
    const kp_design *d = h->d;
    for (size_t e = 0; e < d->nentities; e++) {
        const kp_entity *en = &d->entities[e];
        for (size_t x = 0; x < d->nindexes; x++)
            if (d->indexes[x].kind == KP_LSI)
                setup_member(h, en, (ptrdiff_t)x);
        for (ptrdiff_t x = -1; x < (ptrdiff_t)d->nindexes; x++) {
            if (x < 0 || d->indexes[x].kind != KP_LSI)
                setup_member(h, en, x);
            add_items(h, en, x);
            index_items(h, en, x);
        }
    }
}

/* Reads: every step of pattern i on the rows of its (index, entity) and in its index's figures
 * (a write pattern's read steps, find then write, read too). */
static void place_pattern_reads(heat *h, size_t i)
{
    const kp_design *d = h->d;
    kp_analysis *a = h->a;
    const kp_pattern_result *pr = &a->patterns[i];
    const kp_pattern *p = pr->pattern ? pr->pattern : &d->patterns[i];
    double rate = util_nz(p->rate);
    if (p->kind == KP_READ &&
        (pr->plan == KP_PLAN_GET || pr->plan == KP_PLAN_QUERY || pr->plan == KP_PLAN_MULTI)) {
        if (pr->index >= -1 && pr->index < (ptrdiff_t)d->nindexes)
            served(h, (size_t)(pr->index + 1));
    }
    for (size_t s = 0; s < pr->nsteps; s++) {
        const kp_step *st = &pr->steps[s];
        if (st->index < -1 || st->index >= (ptrdiff_t)d->nindexes)
            continue;
        double units = rate * (st->count > 0 ? st->count : 1) * util_nz(st->rcu);
        if (st->op == KP_OP_GETITEM || st->op == KP_OP_QUERY || st->op == KP_OP_BATCHGET ||
            st->op == KP_OP_SCAN)
            acc_index(h, (size_t)(st->index + 1), offsetof(kp_index_result, rcu_per_s), units);
        if (st->op == KP_OP_SCAN || !st->entity)
            continue;
        if (st->op != KP_OP_GETITEM && st->op != KP_OP_QUERY && st->op != KP_OP_BATCHGET)
            continue;
        ptrdiff_t x = st->index;
        if (x >= 0 && d->indexes[x].kind == KP_LSI)
            x = -1;
        add_load(h, st->entity, x, units, W_READS, p);
    }
}

/* Writes, first: an entity's `writes` when given. */
static void place_entity_writes(heat *h)
{
    const kp_design *d = h->d;
    for (size_t e = 0; e < d->nentities; e++) {
        const kp_entity *en = &d->entities[e];
        if (!isnan(en->writes)) {
            double avg = isnan(en->writes_avg) ? en->writes : en->writes_avg;
            add_writes(h, en, en->writes, avg, KP_OP_PUT, NULL, 0, NULL);
        }
    }
}

/* Then write pattern i on the entities it names (without `writes` of their own). */
static void place_pattern_writes(heat *h, size_t i)
{
    const kp_design *d = h->d;
    const kp_pattern *p = &d->patterns[i];
    if (p->kind != KP_WRITE)
        return;
    for (size_t k = 0; k < p->nentities; k++) {
        size_t ep;
        const kp_entity *en = namemap_get(&h->enames, p->entities[k].s, &ep) ? &d->entities[ep] : NULL;
        if (!en || !isnan(en->writes))
            continue;
        double items = items_per_call(p);
        double rate = util_nz(p->rate) * items, avg = util_nz(isnan(p->avg) ? p->rate : p->avg) * items;
        add_writes(h, en, rate, avg, p->op, p->changes, p->nchanges, p);
    }
}

/* Every pattern's loads: computed (nlog 0), or replayed from the log, the patterns marked
 * recorded again first. */
static void place_loads(heat *h)
{
    size_t n = h->a->npatterns;
    if (!h->nlog) {
        for (size_t i = 0; i < n; i++)
            place_pattern_reads(h, i);
        place_entity_writes(h);
        for (size_t i = 0; i < h->d->npatterns; i++)
            place_pattern_writes(h, i);
        return;
    }
    for (size_t i = 0; i < h->nlog; i++) {
        if (!h->dirty[i])
            continue;
        h->rlog[i].n = h->wlog[i].n = 0;
        h->rec = &h->rlog[i];
        place_pattern_reads(h, i);
        h->rec = &h->wlog[i];
        place_pattern_writes(h, i);
        h->rec = NULL;
        h->dirty[i] = false;
    }
    for (size_t i = 0; i < h->nlog; i++)
        replay(h, &h->rlog[i]);
    replay(h, &h->elog);
    for (size_t i = 0; i < h->nlog; i++)
        replay(h, &h->wlog[i]);
}

/* Distinct values of a row: the product over its placeholders; an enum a sparse condition keeps
 * only some values of counts those any member keeps. NAN when some distribution is unknown. */
static double row_distinct(const heat *h, const hrow *row)
{
    if (row->unknown)
        return NAN;
    double dn = 1;
    for (size_t i = 0; i < row->nph; i++) {
        const hph *ph = &row->ph[i];
        double n = ph->distinct;
        if (ph->is_enum && !ph->collapsed) {
            size_t kept = 0;
            for (size_t k = 0; k < ph->ncls; k++) {
                bool any = false;
                for (ptrdiff_t mi = row->first; mi >= 0 && !any; mi = h->members[mi].next) {
                    const hmember *m = &h->members[mi];
                    any = m->rph != i || rule_keeps(m->rule, ph->cls[k].value);
                }
                kept += any;
            }
            n = (double)kept;
        }
        dn *= n;
    }
    return dn;
}

/* A partition's figures from its row: the hottest value of each kind, utilisation, hot, shards.
 * Returns the items of the hottest value. */
/* fmax: the larger, a NaN losing to a number (inline; libm's is a call). */
static inline double dmax(double a, double b) { return a > b || isnan(b) ? a : b; }

static double row_result(heat *h, hrow *row, kp_partition_result *pr)
{
    pr->index = row->index;
    pr->index_name = row->index < 0 ? "table" : h->d->indexes[row->index].name;
    pr->entity = row->entity;
    /* a kept row's text is shared with the partition (stage_heat_free leaves it to the row) */
    pr->template_src = h->kept ? row->src : xstrdup(row->src);
    double maxi = 0, maxr = 0, maxw = 0, maxb = 0;
    if (row->known) {
        maxi = row->max_items;
        maxb = row->max_bytes;
        for (size_t c = 0; c < row->ncombo; c++) {
            maxr = dmax(maxr, row->reads[c]);
            maxw = dmax(maxw, row->writes[c]);
        }
        pr->distinct = row->distinct;
    } else {
        for (size_t c = 0; c < row->ncombo; c++) {
            maxi = dmax(maxi, row->items[c]);
            maxr = dmax(maxr, row->reads[c]);
            maxw = dmax(maxw, row->writes[c]);
            maxb = dmax(maxb, row->bytes[c]);
        }
        pr->distinct = row_distinct(h, row);
        if (h->kept) {
            row->max_items = maxi;
            row->max_bytes = maxb;
            row->distinct = pr->distinct;
        }
    }
    pr->hot_share =
        row->total_items > 0 ? maxi / row->total_items : (row->ncombo == 1 && row->nph == 0 ? 1 : 0);
    pr->read_hot_share = row->total_reads > 0 ? maxr / row->total_reads : 0;
    pr->write_hot_share = row->total_writes > 0 ? maxw / row->total_writes : 0;
    pr->read_units = maxr;
    pr->write_units = maxw;
    pr->read_util = maxr / CAP_PARTITION_RCU;
    pr->write_util = maxw / CAP_PARTITION_WCU;
    pr->bytes = maxb;
    pr->hot = pr->read_util >= 1 || pr->write_util >= 1;
    pr->suggest_shards = pr->hot ? suggest_shards(maxr, maxw) : 0;
    pr->items = row->total_items;
    return maxi;
}

/* Adds partition pr of row `row` (hottest value: max_items items) to the row's family: same
 * literals, same number of placeholders. */
static void add_to_family(heat *h, hrow *row, const kp_partition_result *pr, double max_items)
{
    size_t f;
    if (row->known) {
        f = row->fam; /* the families were made by the first run, and reset */
    } else {
        if (!namemap_find(&h->families, row->skeleton, row->index, &f)) {
            VEC_GROW(h->fam, h->nfam, h->capfam);
            f = h->nfam++;
            h->fam[f] = (hfamily){row->index, 0, 0, 0, 0};
            namemap_insert(&h->families, row->skeleton, row->index, f, NULL);
        }
        row->fam = f;
    }
    hfamily *fm = &h->fam[f];
    fm->distinct = isnan(pr->distinct) || isnan(fm->distinct) ? NAN : fmax(fm->distinct, pr->distinct);
    fm->items += max_items;
    fm->reads += pr->read_units;
    fm->writes += pr->write_units;
}
/* a->partitions: one per row, and the rows' families. */
static void partition_results(heat *h)
{
    kp_analysis *a = h->a;
    bool again = h->fam_made && h->kept; /* the rows and families of the first run stand */
    if (again) {
        for (size_t f = 0; f < h->nfam; f++)
            h->fam[f] = (hfamily){h->fam[f].index, 0, 0, 0, 0};
    } else {
        if (h->fam_made)
            namemap_free(&h->families);
        h->nfam = 0;
        namemap_init(&h->families, h->nrows);
        h->fam_made = true;
    }
    a->partitions = xcalloc(h->nrows ? h->nrows : 1, sizeof *a->partitions);
    a->npartitions = h->nrows;
    for (size_t r = 0; r < h->nrows; r++) {
        double max_items = row_result(h, &h->rows[r], &a->partitions[r]);
        add_to_family(h, &h->rows[r], &a->partitions[r], max_items);
    }
    if (h->kept)
        for (size_t r = 0; r < h->nrows; r++)
            h->rows[r].known = true;
}

/* The indexes' distinct values and hottest shares from the families; LSIs share the table's
 * partitions. */
static void index_results(heat *h)
{
    const kp_design *d = h->d;
    kp_analysis *a = h->a;
    for (size_t f = 0; f < h->nfam; f++) {
        const hfamily *fm = &h->fam[f];
        kp_index_result *ir = &a->indexes[fm->index + 1];
        ir->distinct += fm->distinct; /* NAN stays NAN: unknown */
        if (ir->items > 0)
            ir->hot_share = fmax(ir->hot_share, fmin(1, fm->items / ir->items));
        ir->read_hot_share = fmax(ir->read_hot_share, fm->reads);    /* units for now */
        ir->write_hot_share = fmax(ir->write_hot_share, fm->writes); /* units for now */
    }
    /* turn the hottest units into shares of the index's traffic */
    for (size_t x = 0; x < a->nindexes; x++) {
        kp_index_result *ir = &a->indexes[x];
        double reads = ir->rcu_per_s;
        if (x == 0)
            for (size_t k = 0; k < d->nindexes; k++)
                if (d->indexes[k].kind == KP_LSI)
                    reads += a->indexes[k + 1].rcu_per_s;
        ir->read_hot_share = reads > 0 ? fmin(1, ir->read_hot_share / reads) : 0;
        ir->write_hot_share = ir->wcu_per_s > 0 ? fmin(1, ir->write_hot_share / ir->wcu_per_s) : 0;
    }
    for (size_t k = 0; k < d->nindexes; k++)
        if (d->indexes[k].kind == KP_LSI) {
            kp_index_result *ir = &a->indexes[k + 1];
            ir->distinct = a->indexes[0].distinct;
            ir->hot_share = a->indexes[0].hot_share;
            ir->read_hot_share = a->indexes[0].read_hot_share;
            ir->write_hot_share = a->indexes[0].write_hot_share;
        }
    a->table_hot_share = a->indexes[0].hot_share;
}

heat *stage_heat_open(kp_analysis *a)
{
    heat *h = xmalloc(sizeof *h);
    heat_open(h, a);
    place_items(h);
    h->kept = true;
    /* every pattern to be recorded on the first run; the entities' writes now */
    h->nlog = a->npatterns;
    h->rlog = xcalloc(h->nlog + 1, sizeof *h->rlog);
    h->wlog = xcalloc(h->nlog + 1, sizeof *h->wlog);
    h->dirty = xmalloc((h->nlog + 1) * sizeof *h->dirty);
    for (size_t i = 0; i < h->nlog; i++)
        h->dirty[i] = true;
    h->rec = &h->elog;
    place_entity_writes(h);
    h->rec = NULL;
    return h;
}

/* The placeholders of row `row` made again from its first entity (whose count their value
 * classes read), its members' restrictions with them; false (the row as it was) when the value
 * combinations would not be as many. */
static bool row_classes_again(heat *h, hrow *row)
{
    hph *ph = arena_zalloc(h->ar, (row->nph ? row->nph : 1) * sizeof *ph);
    bool unknown = row->unknown;
    row->unknown = false;
    size_t combos = 1;
    for (size_t i = 0; i < row->nph; i++) {
        setup_placeholder(h, row, &ph[i], row->ph[i].name, row->entity, combos);
        combos *= ph[i].ncls;
    }
    if (combos != row->ncombo) {
        row->unknown = unknown;
        return false;
    }
    row->ph = ph;
    for (ptrdiff_t mi = row->first; mi >= 0; mi = h->members[mi].next) {
        size_t at = (size_t)mi;
        member_restrict(h, &h->members[at], &h->d->entities[at % h->nent], (ptrdiff_t)(at / h->nent) - 1);
    }
    return true;
}

void stage_heat_entities_renamed(heat *h)
{
    if (!h)
        return;
    namemap_free(&h->enames);
    analysis_entity_map(h->d, &h->enames);
}

/* Row `row`'s items and bytes added again from its members, in place_items' order (the first
 * member made first: the list holds them the other way round). */
static void row_items_again(heat *h, size_t r)
{
    hrow *row = &h->rows[r];
    memset(row->items, 0, row->ncombo * sizeof *row->items);
    memset(row->bytes, 0, row->ncombo * sizeof *row->bytes);
    row->total_items = 0;
    row->known = false;
    size_t n = 0;
    for (ptrdiff_t mi = row->first; mi >= 0; mi = h->members[mi].next)
        n++;
    size_t *v = xmalloc((n ? n : 1) * sizeof *v), k = n;
    for (ptrdiff_t mi = row->first; mi >= 0; mi = h->members[mi].next)
        v[--k] = (size_t)mi;
    for (size_t i = 0; i < n; i++)
        add_items(h, &h->d->entities[v[i] % h->nent], (ptrdiff_t)(v[i] / h->nent) - 1);
    free(v);
}

bool stage_heat_rekey(heat *h, size_t epos)
{
    if (!h || !h->nlog || epos >= h->nent)
        return false;
    const kp_design *d = h->d;
    const kp_entity *e = &d->entities[epos];
    ptrdiff_t nx = (ptrdiff_t)d->nindexes;
    const tpl **to = xcalloc((size_t)nx + 1, sizeof *to); /* per index: its new template, NULL same */
    bool ok = true, any = false;
    for (ptrdiff_t x = -1; x < nx && ok; x++) {
        const hmember *m = member(h, x, e);
        if (m->row < 0)
            continue;
        const hrow *row = &h->rows[m->row];
        const kp_keytpl *k = entity_key(e, index_pk(d, x));
        size_t r;
        if (!k || strcmp(k->tpl.src, row->src) == 0)
            continue; /* the same template, or a plain attribute's (the key attributes stay) */
        /* in a row of its own, before and after */
        ok = row->entity == e && row->first == m - h->members && m->next < 0 &&
             !namemap_find(&h->rowmap, k->tpl.src, x, &r);
        to[x + 1] = &k->tpl;
        any = true;
    }
    if (!ok || !any) {
        free(to);
        return ok;
    }
    for (ptrdiff_t x = -1; x < nx; x++) {
        const tpl *t = to[x + 1];
        if (!t)
            continue;
        hrow *row = &h->rows[member(h, x, e)->row];
        free(row->src);
        row->nph = 0;
        row->unknown = false;
        row->total_items = 0;
        row_template(h, row, t);
    }
    free(to);
    /* the map of the rows' templates, and their families (a template's skeleton may have
       changed), made again as a new heat would make them */
    namemap_free(&h->rowmap);
    namemap_init(&h->rowmap, h->nrows);
    for (size_t r = 0; r < h->nrows; r++) {
        h->rows[r].known = false;
        namemap_insert(&h->rowmap, h->rows[r].src, h->rows[r].index, r, NULL);
    }
    if (h->fam_made)
        namemap_free(&h->families);
    h->fam_made = false;
    return true;
}

void stage_heat_rowmates(const heat *h, const bool *ents, bool *touch)
{
    for (size_t r = 0; h && r < h->nrows; r++) {
        const hrow *row = &h->rows[r];
        if (!row->unknown || !ents[row->entity - h->d->entities])
            continue;
        for (ptrdiff_t mi = row->first; mi >= 0; mi = h->members[mi].next)
            touch[(size_t)mi % h->nent] = true;
    }
}

/* Does row r hold placeholder `attr`? */
static bool row_holds(const hrow *row, const char *attr)
{
    for (size_t i = 0; i < row->nph; i++)
        if (strcmp(row->ph[i].name, attr) == 0)
            return true;
    return false;
}

/* The patterns whose loads land on a row holding placeholder `attr` marked to be made again. */
static void dirty_on_rows(heat *h, const char *attr)
{
    unsigned char *holds = xcalloc(h->nrows ? h->nrows : 1, 1);
    bool any = false;
    for (size_t r = 0; r < h->nrows; r++)
        any |= holds[r] = row_holds(&h->rows[r], attr);
    for (size_t i = 0; any && i < h->nlog; i++) {
        const hops *l[2] = {&h->rlog[i], &h->wlog[i]};
        for (int k = 0; k < 2 && !h->dirty[i]; k++)
            for (size_t j = 0; j < l[k]->n; j++)
                if (l[k]->v[j].kind == HOP_ROW && holds[l[k]->v[j].rowi]) {
                    h->dirty[i] = true;
                    break;
                }
    }
    free(holds);
}

bool stage_heat_refigure(heat *h, const bool *ents, const char *attr, const bool *redo)
{
    if (!h || !h->nlog)
        return false;
    const kp_design *d = h->d;
    ptrdiff_t nx = (ptrdiff_t)d->nindexes;
    size_t ai;
    if (!h->own)
        h->cap = h->a->capacity_memo; /* made anew with the resolver's context, after a key's edit */
    if (attr && namemap_get(&h->anames, attr, &ai))
        h->dist_done[ai] = false; /* its distribution computed again */
    /* the rows whose value classes change (2): those an entity comes first in (its count counts;
       a row with the attribute's placeholder has a carrier of it first); then (1) every row of the
       entities, for their items */
    unsigned char *again = xcalloc(h->nrows ? h->nrows : 1, 1);
    for (size_t e = 0; e < h->nent; e++)
        for (ptrdiff_t x = -1; ents[e] && x < nx; x++) {
            const hmember *m = member(h, x, &d->entities[e]);
            if (m->row >= 0)
                again[m->row] = h->rows[m->row].entity == &d->entities[e] ? 2
                                : again[m->row]                           ? again[m->row]
                                                                          : 1;
        }
    bool ok = true;
    for (size_t r = 0; r < h->nrows && ok; r++)
        ok = again[r] != 2 || row_classes_again(h, &h->rows[r]);
    if (!ok) {
        free(again);
        return false;
    }
    for (size_t e = 0; e < h->nent; e++) /* their shares and entry sizes, the LSIs' first */
        for (int lsi = 1; ents[e] && lsi >= 0; lsi--)
            for (ptrdiff_t x = -1; x < nx; x++) {
                const kp_entity *en = &d->entities[e];
                hmember *m = member(h, x, en);
                if (!m->on || (x >= 0 && d->indexes[x].kind == KP_LSI) != lsi)
                    continue;
                m->share = capacity_memo_index_share(h->cap, en, x);
                m->projected = x < 0 ? util_nz(en->size) : capacity_memo_projected_bytes(h->cap, en, x);
                if (m->row >= 0)
                    member_entry_bytes(h, m, en, x);
            }
    for (size_t r = 0; r < h->nrows; r++)
        if (again[r])
            row_items_again(h, r);
    free(again);
    for (ptrdiff_t x = -1; x < nx; x++) /* the indexes' items and bytes, in place_items' order */
        h->ix0[x + 1].items = h->ix0[x + 1].bytes = 0;
    for (size_t i = 0; i < d->nentities; i++)
        for (ptrdiff_t x = -1; x < nx; x++)
            index_items(h, &d->entities[i], x);
    /* the write units (an item's size makes them) computed again, the entities' writes too */
    namemap_free(&h->wcache);
    namemap_init(&h->wcache, 64);
    h->nw = 0;
    h->elog.n = 0;
    h->rec = &h->elog;
    place_entity_writes(h);
    h->rec = NULL;
    for (size_t i = 0; i < h->nlog; i++)
        h->dirty[i] = h->dirty[i] || redo[i];
    if (attr) /* the loads on the rows holding its placeholder: their value classes changed */
        dirty_on_rows(h, attr);
    return true;
}

void stage_heat_dirty(heat *h, size_t i)
{
    if (h && i < h->nlog)
        h->dirty[i] = true;
}

void stage_heat_rows(heat *h, kp_rowop op)
{
    size_t n = h->nlog;
    if (!kp_rowop_fits(op, n))
        return;
    if (op.kind == KP_ROW_REMOVE) {
        free(h->rlog[op.row].v);
        free(h->wlog[op.row].v);
    } else if (op.kind == KP_ROW_INSERT) {
        h->rlog = xrealloc(h->rlog, (n + 2) * sizeof *h->rlog);
        h->wlog = xrealloc(h->wlog, (n + 2) * sizeof *h->wlog);
        h->dirty = xrealloc(h->dirty, (n + 2) * sizeof *h->dirty);
    }
    kp_rowop_shift(h->rlog, n, sizeof *h->rlog, op);
    kp_rowop_shift(h->wlog, n, sizeof *h->wlog, op);
    kp_rowop_shift(h->dirty, n, sizeof *h->dirty, op);
    if (op.kind == KP_ROW_INSERT) {
        h->rlog[op.row] = h->wlog[op.row] = (hops){0};
        h->dirty[op.row] = true;
    }
    h->nlog = kp_rowop_count(op, n);
}

bool stage_heat_take(heat *h, heat *from, const bool *redo)
{
    if (!h || !from || h->nlog != from->nlog)
        return false;
    /* from's rows in h: the same template on the same index, with the same first entity (whose
       count may set the value classes) and value combinations; -1 none */
    ptrdiff_t *to = xmalloc((from->nrows ? from->nrows : 1) * sizeof *to);
    for (size_t r = 0; r < from->nrows; r++) {
        const hrow *y = &from->rows[r];
        size_t x;
        to[r] = namemap_find(&h->rowmap, y->src, y->index, &x) && h->rows[x].ncombo == y->ncombo &&
                        h->rows[x].entity == y->entity
                    ? (ptrdiff_t)x
                    : -1;
    }
    for (size_t i = 0; i < h->nlog; i++) {
        if (redo[i] || from->dirty[i])
            continue;
        hops *l[2] = {&h->rlog[i], &h->wlog[i]}, *m[2] = {&from->rlog[i], &from->wlog[i]};
        bool all = true; /* every row it added to is in h */
        for (int k = 0; k < 2 && all; k++)
            for (size_t j = 0; j < m[k]->n && all; j++)
                all = m[k]->v[j].kind != HOP_ROW || to[m[k]->v[j].rowi] >= 0;
        if (!all)
            continue; /* computed again */
        for (int k = 0; k < 2; k++) {
            free(l[k]->v);
            *l[k] = *m[k];
            *m[k] = (hops){0};
            for (size_t j = 0; j < l[k]->n; j++) {
                hop *o = &l[k]->v[j];
                if (o->kind == HOP_ROW) {
                    o->rowi = (unsigned)to[o->rowi];
                    o->row = row_sum(&h->rows[o->rowi], o->off);
                }
            }
        }
        h->dirty[i] = false;
    }
    free(to);
    return true;
}

void stage_heat_run(heat *h, kp_analysis *a)
{
    h->a = a;
    for (size_t r = 0; r < h->nrows; r++) { /* the loads of the last run go */
        hrow *row = &h->rows[r];
        memset(row->reads, 0, 2 * row->ncombo * sizeof *row->reads); /* reads, then writes */
        row->total_reads = row->total_writes = 0;
    }
    a->nindexes = h->d->nindexes + 1;
    a->indexes = xmalloc(a->nindexes * sizeof *a->indexes);
    memcpy(a->indexes, h->ix0, a->nindexes * sizeof *a->indexes);
    place_loads(h);
    partition_results(h);
    index_results(h);
}

void stage_heat_close(heat *h)
{
    if (!h)
        return;
    for (size_t i = 0; i < h->nlog; i++) {
        free(h->rlog[i].v);
        free(h->wlog[i].v);
    }
    free(h->rlog);
    free(h->wlog);
    free(h->elog.v);
    free(h->dirty);
    heat_close(h, NULL);
    free(h);
}

void stage_heat(kp_analysis *a)
{
    heat h;
    heat_open(&h, a);
    place_items(&h);
    stage_heat_run(&h, a);
    heat_close(&h, a);
}

void stage_heat_free(kp_analysis *a)
{
    /* after analysis_update the texts are the kept rows' (row_result) */
    for (size_t i = 0; !a->incr && i < a->npartitions; i++)
        free(a->partitions[i].template_src);
    free(a->partitions);
    a->partitions = NULL;
    a->npartitions = 0;
    free(a->indexes);
    a->indexes = NULL;
    a->nindexes = 0;
}
