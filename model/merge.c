/* merge.c - the three-way merge of designs over the field tables (see merge.h).
 *
 * One pass (run) merges base, ours and theirs into a new design, numbering the conflicts in the
 * order it meets them and taking for each the side chosen so far (ours until resolved). The
 * order of the walk depends only on the three inputs, never on the choices, so conflict i is the
 * same conflict on every pass: merge_take is a pass with the choices, followed by the typed-in
 * values set through edit_set. */
#include "merge.h"

#include "edit.h"
#include "fields.h"
#include "i18n.h"
#include "namemap.h"
#include "syntax.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where a typed-in value goes: a cell of an editor table. */
typedef struct mloc {
    int table;     /* edit_table, or -1 when the conflict is not editable */
    char *rowkey;  /* the top-level record's key (NULL for settings: the row is the cell) */
    int col;       /* the cell (settings: the row) */
    char *keyattr; /* EDIT_KEYS: the key attribute (the column) */
} mloc;

struct merge_result {
    kp_design *base, *ours, *theirs;
    merge_conflict *c;
    mloc *loc;
    char **text; /* MERGE_TEXT values */
    size_t n;
};

typedef struct mctx {
    const kp_design *B, *O, *T;
    const int *choices; /* per conflict; NULL = ours for all */
    size_t n;           /* conflicts met */
    bool collect;
    merge_conflict *out;
    mloc *loc;
    size_t cap;
    /* the top-level record being merged */
    const char *top_record;
    const char *top_key;
    int top_table; /* edit_table or -1 */
} mctx;

/* ---- fields one at a time --------------------------------------------------------------- */

static kp_record single(const kp_record *rec, size_t i)
{
    return (kp_record){rec->name, rec->size, -1, &rec->f[i], 1};
}

static size_t member_size(const kp_field *f)
{
    switch (f->kind) {
    case KF_TEXT:
        return sizeof(char *);
    case KF_REF:
        return sizeof(kp_str);
    case KF_NUM:
        return sizeof(double);
    case KF_INT:
    case KF_ENUM:
    case KF_TRI:
        return sizeof(int);
    case KF_FLAG:
        return sizeof(bool);
    case KF_REFS:
    case KF_TEXTS:
    case KF_RECS:
        return sizeof(void *);
    case KF_TPL:
        return sizeof(tpl);
    case KF_REC:
        return f->sub->size;
    case KF_VIRTUAL:
        break;
    }
    return 0;
}

static bool feq(const kp_record *rec, size_t i, const void *a, const void *b)
{
    kp_record one = single(rec, i);
    return fields_equal(&one, a, b);
}

/* dst's field i becomes a deep copy of src's. */
static void copy_field(const kp_record *rec, size_t i, void *dst, const void *src)
{
    const kp_field *f = &rec->f[i];
    kp_record one = single(rec, i);
    fields_free(&one, dst);
    memcpy(kp_fptr(dst, f), kp_fcptr(src, f), member_size(f));
    if (f->kind == KF_REFS || f->kind == KF_TEXTS || f->kind == KF_RECS)
        memcpy((char *)dst + f->count_off, (const char *)src + f->count_off, sizeof(size_t));
    fields_clone(&one, dst, src);
}

/* The field that keys a record in a list: its label, else its first compared field. */
static size_t key_field(const kp_record *rec)
{
    for (size_t i = 0; i < rec->n; i++)
        if (rec->f[i].flags & KP_F_LABEL)
            return i;
    for (size_t i = 0; i < rec->n; i++)
        if (!(rec->f[i].flags & KP_F_NOEQ))
            return i;
    return 0;
}

static const char *rec_key(const kp_record *rec, const void *r)
{
    const kp_field *f = &rec->f[key_field(rec)];
    const void *p = kp_fcptr(r, f);
    const char *s = f->kind == KF_TEXT  ? *(char *const *)p
                    : f->kind == KF_REF ? ((const kp_str *)p)->s
                                        : NULL;
    return s ? s : "";
}

/* A record holding its text as written (sparse rule, signal) merges as a whole. */
static bool atomic(const kp_record *rec)
{
    for (size_t i = 0; i < rec->n; i++)
        if (rec->f[i].flags & KP_F_NOEQ)
            return true;
    return false;
}

/* ---- values as text ---------------------------------------------------------------------- */

static void render_record(sbuf *s, const kp_record *rec, const void *r);

static void render_field(sbuf *s, const kp_field *f, const void *r)
{
    const void *p = kp_fcptr(r, f);
    switch (f->kind) {
    case KF_TEXT:
        sbuf_add(s, *(char *const *)p ? *(char *const *)p : "");
        break;
    case KF_REF:
        sbuf_add(s, ((const kp_str *)p)->s ? ((const kp_str *)p)->s : "");
        break;
    case KF_NUM:
        if (!isnan(*(const double *)p)) {
            char buf[40];
            sbuf_add(s, syn_number_text(*(const double *)p, buf, sizeof buf));
        }
        break;
    case KF_INT:
        if (*(const int *)p != -1)
            sbuf_printf(s, "%d", *(const int *)p);
        break;
    case KF_ENUM: {
        const char *w = kp_word(f->words, *(const int *)p);
        sbuf_add(s, w ? w : "");
        break;
    }
    case KF_TRI:
        sbuf_add(s, *(const int *)p == KP_TRUE ? "true" : *(const int *)p == KP_FALSE ? "false" : "");
        break;
    case KF_FLAG:
        sbuf_add(s, *(const bool *)p ? "true" : "false");
        break;
    case KF_REFS:
    case KF_TEXTS: {
        size_t n = kp_fcount(r, f);
        for (size_t k = 0; k < n; k++) {
            const char *e = f->kind == KF_REFS ? (*(kp_str *const *)p)[k].s : (*(char **const *)p)[k];
            sbuf_add(s, k ? (f->kind == KF_REFS ? ", " : "; ") : "");
            sbuf_add(s, e ? e : "");
        }
        break;
    }
    case KF_TPL:
        sbuf_add(s, ((const tpl *)p)->src ? ((const tpl *)p)->src : "");
        break;
    case KF_REC:
        render_record(s, f->sub, p);
        break;
    case KF_RECS: {
        size_t n = kp_fcount(r, f);
        const char *v = *(char *const *)p;
        for (size_t k = 0; k < n; k++) {
            sbuf_add(s, k ? "; " : "");
            render_record(s, f->sub, v + k * f->sub->size);
        }
        break;
    }
    case KF_VIRTUAL:
        break;
    }
}

/* "key: value, key: value" of the fields with a value; a rule with its text as written: that. */
static void render_record(sbuf *s, const kp_record *rec, const void *r)
{
    for (size_t i = 0; i < rec->n; i++)
        if ((rec->f[i].flags & KP_F_NOEQ) && rec->f[i].kind == KF_TEXT &&
            *(char *const *)kp_fcptr(r, &rec->f[i])) {
            sbuf_add(s, *(char *const *)kp_fcptr(r, &rec->f[i]));
            return;
        }
    bool first = true;
    for (size_t i = 0; i < rec->n; i++) {
        const kp_field *f = &rec->f[i];
        if (f->kind == KF_VIRTUAL || f->kind == KF_FLAG || (f->flags & KP_F_NOEQ))
            continue;
        sbuf v;
        sbuf_init(&v);
        render_field(&v, f, r);
        if (v.len) {
            sbuf_printf(s, "%s%s: %s", first ? "" : ", ", f->key, v.s);
            first = false;
        }
        sbuf_free(&v);
    }
}

/* The fields of x that differ from y, "key: value, ..." (x's values). */
static char *render_diff(const kp_record *rec, const void *x, const void *y)
{
    sbuf s;
    sbuf_init(&s);
    bool first = true;
    for (size_t i = 0; i < rec->n; i++) {
        const kp_field *f = &rec->f[i];
        if (f->kind == KF_VIRTUAL || f->kind == KF_FLAG || (f->flags & KP_F_NOEQ) || feq(rec, i, x, y))
            continue;
        sbuf_printf(&s, "%s%s: ", first ? "" : ", ", f->key);
        render_field(&s, f, x);
        first = false;
    }
    return sbuf_steal(&s);
}

static char *render_one(const kp_field *f, const void *r)
{
    sbuf s;
    sbuf_init(&s);
    render_field(&s, f, r);
    return sbuf_steal(&s);
}

static char *render_whole(const kp_record *rec, const void *r)
{
    sbuf s;
    sbuf_init(&s);
    render_record(&s, rec, r);
    return sbuf_steal(&s);
}

/* ---- editor cells ---------------------------------------------------------------------- */

static const char *top_name(const kp_record *rec) { return rec == &kp_rec_attr ? "attribute" : rec->name; }

static int top_table(const kp_record *rec)
{
    if (rec == &kp_rec_pattern)
        return EDIT_PATTERNS;
    if (rec == &kp_rec_entity)
        return EDIT_ENTITIES;
    if (rec == &kp_rec_index)
        return EDIT_INDEXES;
    if (rec == &kp_rec_attr)
        return EDIT_ATTRS;
    if (rec == &kp_rec_decision)
        return EDIT_DECISIONS;
    if (rec == &kp_rec_design || rec == &kp_rec_table || rec == &kp_rec_pricing)
        return EDIT_SETTINGS;
    return -1;
}

/* The row of the record keyed `key` in editor table t of d, or -1. */
static ptrdiff_t row_of(const kp_design *d, int t, const char *key)
{
    switch (t) {
    case EDIT_PATTERNS:
        return design_pattern_pos(d, key);
    case EDIT_ENTITIES:
    case EDIT_KEYS:
        return design_entity_pos(d, key);
    case EDIT_INDEXES:
        return design_index_pos(d, key);
    case EDIT_ATTRS:
        for (size_t i = 0; i < d->nattrs; i++)
            if (d->attrs[i].name && !strcmp(d->attrs[i].name, key))
                return (ptrdiff_t)i;
        return -1;
    case EDIT_DECISIONS:
        for (size_t i = 0; i < d->ndecisions; i++)
            if (d->decisions[i].id && !strcmp(d->decisions[i].id, key))
                return (ptrdiff_t)i;
        return -1;
    default:
        return -1;
    }
}

/* Row and column of the cell at loc in d; false when d has no such cell. */
static bool cell_of(const kp_design *d, const mloc *l, size_t *row, size_t *col)
{
    if (l->table == EDIT_SETTINGS) {
        *row = (size_t)l->col;
        *col = 1;
        return true;
    }
    ptrdiff_t r = row_of(d, l->table, l->rowkey);
    if (r < 0)
        return false;
    *row = (size_t)r;
    if (l->table == EDIT_KEYS) {
        int c = edit_col_find(d, EDIT_KEYS, l->keyattr);
        if (c < 0)
            return false;
        *col = (size_t)c;
    } else {
        *col = (size_t)l->col;
    }
    return true;
}

static char *cell_text(const kp_design *d, const mloc *l)
{
    size_t row, col;
    return cell_of(d, l, &row, &col) ? edit_get(d, (edit_table)l->table, row, col) : NULL;
}

/* ---- conflicts ------------------------------------------------------------------------- */

/* The editor cell of a conflict (l->table -1 when it has none): a direct field of a top-level
 * record with a cell, a setting, or a key template. */
static void locate(const mctx *c, const kp_record *rec, int fi, const char *path, const char *keyattr,
                   mloc *l)
{
    *l = (mloc){.table = -1};
    if (fi < 0 || c->top_table < 0)
        return;
    const kp_field *f = &rec->f[fi];
    bool setting = rec == &kp_rec_design || rec == &kp_rec_table || rec == &kp_rec_pricing;
    bool direct = c->top_table == EDIT_SETTINGS ? setting : !strchr(path, '.') && !strchr(path, '[');
    if (direct && f->cell >= 0) {
        l->table = c->top_table;
        l->col = f->cell;
        l->rowkey = c->top_table == EDIT_SETTINGS ? NULL : xstrdup(c->top_key);
    } else if (rec == &kp_rec_keytpl && f->kind == KF_TPL && keyattr) {
        l->table = EDIT_KEYS;
        l->rowkey = xstrdup(c->top_key);
        l->keyattr = xstrdup(keyattr);
    }
}

/* Fills the three values of conflict m as text: the editor's cells when it has one in every side
 * (then editable), else the field's value, or for a whole record the fields that differ. */
static void describe(const mctx *c, merge_conflict *m, mloc *l, const kp_record *rec, int fi, const void *b,
                     const void *o, const void *t)
{
    if (l->table >= 0) {
        m->base = cell_text(c->B, l);
        m->ours = cell_text(c->O, l);
        m->theirs = cell_text(c->T, l);
        m->editable = m->base && m->ours && m->theirs;
        if (m->editable)
            return;
        /* a side lacks the cell (its key attribute was renamed): plain values, no typing */
        free(m->base);
        free(m->ours);
        free(m->theirs);
        m->base = m->ours = m->theirs = NULL;
        free(l->rowkey);
        free(l->keyattr);
        *l = (mloc){.table = -1};
    }
    if (fi >= 0) {
        m->base = render_one(&rec->f[fi], b);
        m->ours = render_one(&rec->f[fi], o);
        m->theirs = render_one(&rec->f[fi], t);
    } else if (m->kind == MERGE_BOTH_CHANGED) {
        m->base = render_whole(rec, b);
        m->ours = render_whole(rec, o);
        m->theirs = render_whole(rec, t);
    } else if (m->kind == MERGE_BOTH_ADDED) {
        m->ours = render_diff(rec, o, t);
        m->theirs = render_diff(rec, t, o);
    } else if (m->kind == MERGE_DELETED_CHANGED) {
        m->base = render_diff(rec, b, t);
        m->theirs = render_diff(rec, t, b);
    } else {
        m->base = render_diff(rec, b, o);
        m->ours = render_diff(rec, o, b);
    }
}

/* Records conflict number c->n (when collecting) and returns the side chosen for it. rec/fi:
 * the field in conflict (fi -1: the whole record); b/o/t: the three records (NULL when absent);
 * path: the field's name within the top-level record (NULL for a whole top-level record);
 * keyattr: the attribute of the key template being merged, else NULL. */
static int conflict(mctx *c, merge_conflict_kind kind, const kp_record *rec, int fi, const void *b,
                    const void *o, const void *t, const char *path, const char *keyattr)
{
    size_t idx = c->n++;
    if (c->collect) {
        if (c->n > c->cap) {
            c->cap = c->cap ? 2 * c->cap : 8;
            c->out = xrealloc(c->out, c->cap * sizeof *c->out);
            c->loc = xrealloc(c->loc, c->cap * sizeof *c->loc);
        }
        merge_conflict *m = &c->out[idx];
        *m = (merge_conflict){.kind = kind, .record = c->top_record, .resolved = -1};
        m->key = xstrdup(c->top_key);
        m->field = path ? xstrdup(path) : NULL;
        locate(c, rec, kind == MERGE_BOTH_CHANGED ? fi : -1, path, keyattr, &c->loc[idx]);
        describe(c, m, &c->loc[idx], rec, fi, b, o, t);
    }
    int side = c->choices ? c->choices[idx] : MERGE_OURS;
    return side == MERGE_THEIRS ? MERGE_THEIRS : MERGE_OURS; /* a typed value is set afterwards */
}

/* ---- lists of names --------------------------------------------------------------------- */

static const char *elem_text(const kp_field *f, const void *v, size_t k)
{
    const char *s = f->kind == KF_REFS ? ((const kp_str *)v)[k].s : ((char *const *)v)[k];
    return s ? s : "";
}

static bool list_has(const kp_field *f, const void *r, const char *s)
{
    size_t n = kp_fcount(r, f);
    const void *v = *(void *const *)kp_fcptr(r, f);
    for (size_t k = 0; k < n; k++)
        if (!strcmp(elem_text(f, v, k), s))
            return true;
    return false;
}

/* What side x did to the list of base b: added names, removed names. */
static void list_change(const kp_field *f, const void *b, const void *x, bool *added, bool *removed)
{
    size_t nb = kp_fcount(b, f), nx = kp_fcount(x, f);
    const void *vb = *(void *const *)kp_fcptr(b, f), *vx = *(void *const *)kp_fcptr(x, f);
    *added = *removed = false;
    for (size_t k = 0; k < nx; k++)
        if (!list_has(f, b, elem_text(f, vx, k)))
            *added = true;
    for (size_t k = 0; k < nb; k++)
        if (!list_has(f, x, elem_text(f, vb, k)))
            *removed = true;
}

/* Merges two lists of names element by element into r (which holds ours) when each side only
 * added or only removed names; false (r untouched) when one replaced a name (added and removed)
 * or only reordered them. */
static bool merge_names(const kp_field *f, const void *b, const void *o, const void *t, void *r)
{
    bool oa, orm, ta, trm;
    list_change(f, b, o, &oa, &orm);
    list_change(f, b, t, &ta, &trm);
    if ((oa && orm) || (ta && trm))
        return false;
    if ((!oa && !orm) || (!ta && !trm)) /* a side that only reordered the names: its order would be lost */
        return false;
    size_t no = kp_fcount(o, f), nt = kp_fcount(t, f), n = 0;
    const void *vo = *(void *const *)kp_fcptr(o, f), *vt = *(void *const *)kp_fcptr(t, f);
    const char **keep = xmalloc((no + nt + 1) * sizeof *keep);
    for (size_t k = 0; k < no; k++) { /* ours' names that theirs did not remove */
        const char *s = elem_text(f, vo, k);
        if (!list_has(f, b, s) || list_has(f, t, s))
            keep[n++] = s;
    }
    size_t at = 0; /* theirs' additions go after the name they followed in theirs */
    for (size_t k = 0; k < nt; k++) {
        const char *s = elem_text(f, vt, k);
        ptrdiff_t p = -1;
        for (size_t j = 0; j < n && p < 0; j++)
            if (!strcmp(keep[j], s))
                p = (ptrdiff_t)j;
        if (p >= 0) { /* after it and after ours' own additions there */
            for (at = (size_t)p + 1; at < n && !list_has(f, t, keep[at]);)
                at++;
            continue;
        }
        if (list_has(f, b, s))
            continue; /* ours removed it */
        memmove(keep + at + 1, keep + at, (n - at) * sizeof *keep);
        keep[at++] = s;
        n++;
    }
    kp_record one = {"", 0, -1, f, 1};
    char *arr = n ? xmalloc(n * (f->kind == KF_REFS ? sizeof(kp_str) : sizeof(char *))) : NULL;
    for (size_t k = 0; k < n; k++) {
        if (f->kind == KF_REFS)
            ((kp_str *)arr)[k] = str_make(keep[k], (kp_loc){0, 0});
        else
            ((char **)arr)[k] = xstrdup(keep[k]);
    }
    free(keep);
    fields_free(&one, r);
    *(char **)kp_fptr(r, f) = arr;
    *(size_t *)((char *)r + f->count_off) = n;
    return true;
}

/* ---- records and lists of records ------------------------------------------------------ */

static void merge_record(mctx *c, const kp_record *rec, const void *b, const void *o, const void *t, void *r,
                         const char *path, const char *keyattr);

static char *join_path(const char *path, const char *key)
{
    sbuf s;
    sbuf_init(&s);
    if (path && *path)
        sbuf_printf(&s, "%s.", path);
    sbuf_add(&s, key);
    return sbuf_steal(&s);
}

/* The keys of a list of records: each record's key and its repeat (0 for the first record with
 * that key, 1 for the next...), and the map from (key, repeat) to the position. */
typedef struct klist {
    const char **name; /* point into the design */
    int32_t *rep;
    size_t n;
    namemap map;
} klist;

typedef struct kref {
    const char *name;
    int32_t rep;
} kref;

static void klist_init(klist *k, const kp_record *rec, const char *v, size_t n)
{
    *k = (klist){.n = n};
    k->name = xmalloc((n + 1) * sizeof *k->name);
    k->rep = xmalloc((n + 1) * sizeof *k->rep);
    namemap_init(&k->map, n);
    namemap seen = {0}; /* key -> how many records had it so far */
    for (size_t i = 0; i < n; i++) {
        k->name[i] = rec_key(rec, v + i * rec->size);
        size_t *count = namemap_insert(&seen, k->name[i], 0, 0, NULL);
        k->rep[i] = (int32_t)(*count)++;
        namemap_insert(&k->map, k->name[i], k->rep[i], i, NULL);
    }
    namemap_free(&seen);
}

static void klist_free(klist *k)
{
    free(k->name);
    free(k->rep);
    namemap_free(&k->map);
}

/* The position of key r in k, or -1. */
static ptrdiff_t klist_find(const klist *k, kref r)
{
    size_t at;
    return namemap_find(&k->map, r.name, r.rep, &at) ? (ptrdiff_t)at : -1;
}

static kref klist_at(const klist *k, size_t i) { return (kref){k->name[i], k->rep[i]}; }

/* true when the keys common to x and base appear in a different order in x. */
static bool reordered(const klist *kb, const klist *kx)
{
    ptrdiff_t last = -1;
    for (size_t i = 0; i < kx->n; i++) {
        ptrdiff_t p = klist_find(kb, klist_at(kx, i));
        if (p < 0)
            continue;
        if (p < last)
            return true;
        last = p;
    }
    return false;
}

/* The keys of the merged list in order: the skeleton's, and the other side's keys it lacks
 * placed after the key they followed in the other side, behind the skeleton's own additions
 * there (before the next key both have; at the end when none follows). */
static kref *merged_order(const klist *ks, const klist *kx, size_t *n)
{
    kref *seq = xmalloc((ks->n + kx->n + 1) * sizeof *seq);
    size_t m = 0;
    ptrdiff_t anchor = -1; /* the other side's additions wait behind their anchor's position there */
    for (size_t s = 0; s <= ks->n; s++) {
        ptrdiff_t p = s < ks->n ? klist_find(kx, klist_at(ks, s)) : (ptrdiff_t)kx->n;
        if (p >= 0) { /* a common key (or the end): first the additions that followed the last one */
            for (size_t j = (size_t)(anchor + 1); j < kx->n && klist_find(ks, klist_at(kx, j)) < 0; j++)
                seq[m++] = klist_at(kx, j);
            anchor = p < (ptrdiff_t)kx->n ? p : anchor;
        }
        if (s < ks->n)
            seq[m++] = klist_at(ks, s);
    }
    *n = m;
    return seq;
}

/* Merges the list field f (records of f->sub) of b, o, t into r's member. */
static void merge_list(mctx *c, const kp_field *f, const void *b, const void *o, const void *t, void *r,
                       const char *path)
{
    const kp_record *sub = f->sub;
    size_t el = sub->size;
    size_t nb = kp_fcount(b, f), no = kp_fcount(o, f), nt = kp_fcount(t, f);
    const char *vb = *(char *const *)kp_fcptr(b, f), *vo = *(char *const *)kp_fcptr(o, f),
               *vt = *(char *const *)kp_fcptr(t, f);
    klist kb, ko, kt;
    klist_init(&kb, sub, vb, nb);
    klist_init(&ko, sub, vo, no);
    klist_init(&kt, sub, vt, nt);
    bool ours_first = reordered(&kb, &ko) || !reordered(&kb, &kt);
    size_t nseq;
    kref *seq = ours_first ? merged_order(&ko, &kt, &nseq) : merged_order(&kt, &ko, &nseq);
    char *out = xcalloc(no + nt + 1, el);
    size_t n = 0;
    bool top = path == NULL;
    for (size_t s = 0; s < nseq; s++) {
        ptrdiff_t ib = klist_find(&kb, seq[s]), io = klist_find(&ko, seq[s]), it = klist_find(&kt, seq[s]);
        const void *eb = ib >= 0 ? vb + (size_t)ib * el : NULL, *eo = io >= 0 ? vo + (size_t)io * el : NULL,
                   *et = it >= 0 ? vt + (size_t)it * el : NULL;
        const char *key = rec_key(sub, eo ? eo : et ? et : eb);
        char *sub_path = NULL;
        if (top) {
            c->top_record = top_name(sub);
            c->top_key = key;
            c->top_table = top_table(sub);
        } else {
            sbuf p;
            sbuf_init(&p);
            sbuf_printf(&p, "%s[%s]", path, key);
            sub_path = sbuf_steal(&p);
        }
        const void *take = NULL; /* a side's record copied as it is */
        void *dst = out + n * el;
        if (eo && et && eb && !atomic(sub)) {
            memcpy(dst, eo, el);
            fields_clone(sub, dst, eo);
            merge_record(c, sub, eb, eo, et, dst, sub_path ? sub_path : "",
                         sub == &kp_rec_keytpl ? key : NULL);
            n++;
        } else if (eo && et) {
            bool eq_ot = fields_equal(sub, eo, et);
            if (eq_ot || (eb && fields_equal(sub, et, eb)))
                take = eo;
            else if (eb && fields_equal(sub, eo, eb))
                take = et;
            else
                take = conflict(c, eb ? MERGE_BOTH_CHANGED : MERGE_BOTH_ADDED, sub, -1, eb, eo, et, sub_path,
                                NULL) == MERGE_THEIRS
                           ? et
                           : eo;
        } else if (eo && !eb) {
            take = eo; /* added by ours */
        } else if (et && !eb) {
            take = et;   /* added by theirs */
        } else if (eo) { /* theirs deleted it */
            if (!fields_equal(sub, eo, eb) &&
                conflict(c, MERGE_CHANGED_DELETED, sub, -1, eb, eo, NULL, sub_path, NULL) == MERGE_OURS)
                take = eo;
        } else if (et) { /* ours deleted it */
            if (!fields_equal(sub, et, eb) &&
                conflict(c, MERGE_DELETED_CHANGED, sub, -1, eb, NULL, et, sub_path, NULL) == MERGE_THEIRS)
                take = et;
        }
        if (take) {
            memcpy(dst, take, el);
            fields_clone(sub, dst, take);
            n++;
        }
        free(sub_path);
    }
    free(seq);
    klist_free(&kb);
    klist_free(&ko);
    klist_free(&kt);
    /* r's member becomes the merged list */
    kp_record one = {"", 0, -1, f, 1};
    fields_free(&one, r);
    if (!n) {
        free(out);
        out = NULL;
    }
    *(char **)kp_fptr(r, f) = out;
    *(size_t *)((char *)r + f->count_off) = n;
    if (top)
        c->top_record = NULL;
}

/* Merges record b/o/t field by field into r, which holds a copy of o. path: the field names
 * above within the top-level record ("" at its top); keyattr: a key template's attribute. */
static void merge_record(mctx *c, const kp_record *rec, const void *b, const void *o, const void *t, void *r,
                         const char *path, const char *keyattr)
{
    for (size_t i = 0; i < rec->n; i++) {
        const kp_field *f = &rec->f[i];
        if (f->kind == KF_VIRTUAL || (f->flags & KP_F_NOEQ))
            continue;
        bool design = rec == &kp_rec_design;
        if (f->kind == KF_REC) {
            const char *saved = c->top_record;
            int saved_t = c->top_table;
            if (design) {
                c->top_record = top_name(f->sub);
                c->top_key = "";
                c->top_table = top_table(f->sub);
            }
            char *p = design ? xstrdup("") : join_path(path, f->key);
            merge_record(c, f->sub, kp_fcptr(b, f), kp_fcptr(o, f), kp_fcptr(t, f), kp_fptr(r, f), p, NULL);
            free(p);
            c->top_record = saved;
            c->top_table = saved_t;
            continue;
        }
        if (f->kind == KF_RECS) {
            char *p = design ? NULL : join_path(path, f->key);
            merge_list(c, f, b, o, t, r, p);
            free(p);
            if (design) {
                c->top_record = "design";
                c->top_key = "";
                c->top_table = EDIT_SETTINGS;
            }
            continue;
        }
        if (feq(rec, i, t, b) || feq(rec, i, o, t))
            continue; /* ours stays */
        if (feq(rec, i, o, b)) {
            copy_field(rec, i, r, t);
            continue;
        }
        if ((f->kind == KF_REFS || f->kind == KF_TEXTS) && merge_names(f, b, o, t, r))
            continue;
        char *p = join_path(path, f->key);
        if (conflict(c, MERGE_BOTH_CHANGED, rec, (int)i, b, o, t, p, keyattr) == MERGE_THEIRS)
            copy_field(rec, i, r, t);
        free(p);
    }
}

/* One pass: the merged design with the choices taken (typed values not yet set). */
static kp_design *run(mctx *c)
{
    kp_design *r = design_clone(c->O);
    c->top_record = "design";
    c->top_key = "";
    c->top_table = EDIT_SETTINGS;
    merge_record(c, &kp_rec_design, c->B, c->O, c->T, r, "", NULL);
    return r;
}

/* ---- the public calls ------------------------------------------------------------------- */

merge_result *merge_designs(const kp_design *base, const kp_design *ours, const kp_design *theirs)
{
    merge_result *m = xcalloc(1, sizeof *m);
    m->base = design_clone(base);
    m->ours = design_clone(ours);
    m->theirs = design_clone(theirs);
    mctx c = {.B = m->base, .O = m->ours, .T = m->theirs, .collect = true};
    design_free(run(&c));
    m->c = c.out;
    m->loc = c.loc;
    m->n = c.n;
    m->text = m->n ? xcalloc(m->n, sizeof *m->text) : NULL;
    return m;
}

void merge_free(merge_result *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->n; i++) {
        free(m->c[i].key);
        free(m->c[i].field);
        free(m->c[i].base);
        free(m->c[i].ours);
        free(m->c[i].theirs);
        free(m->loc[i].rowkey);
        free(m->loc[i].keyattr);
        free(m->text[i]);
    }
    free(m->c);
    free(m->loc);
    free(m->text);
    design_free(m->base);
    design_free(m->ours);
    design_free(m->theirs);
    free(m);
}

size_t merge_nconflicts(const merge_result *m) { return m->n; }

const merge_conflict *merge_conflict_at(const merge_result *m, size_t i)
{
    return i < m->n ? &m->c[i] : NULL;
}

size_t merge_unresolved(const merge_result *m)
{
    size_t n = 0;
    for (size_t i = 0; i < m->n; i++)
        n += m->c[i].resolved < 0;
    return n;
}

/* "pattern 5 rate", "table name", "pattern 4": what a conflict is about. */
static void add_label(sbuf *s, const merge_conflict *c)
{
    sbuf_add(s, c->record);
    if (*c->key)
        sbuf_printf(s, " %s", c->key);
    if (c->field)
        sbuf_printf(s, " %s", c->field);
}

/* kp_fail with the conflict's label before the message. */
static kp_status fail_at(char **err, kp_status st, const merge_conflict *c, const char *msg)
{
    sbuf s;
    sbuf_init(&s);
    add_label(&s, c);
    st = kp_fail(err, st, "%s: %s", s.s, msg);
    sbuf_free(&s);
    return st;
}

/* The pass with the choices, then the typed values; KP_INVALID with *err when a typed value is
 * refused (the design then holds ours there). */
static kp_status take(const merge_result *m, merge_side unresolved, kp_design **out, char **err)
{
    int *choices = m->n ? xmalloc(m->n * sizeof *choices) : NULL;
    for (size_t i = 0; i < m->n; i++)
        choices[i] = m->c[i].resolved < 0 ? (int)unresolved : m->c[i].resolved;
    mctx c = {.B = m->base, .O = m->ours, .T = m->theirs, .choices = choices};
    kp_design *d = run(&c);
    free(choices);
    kp_status st = KP_OK;
    for (size_t i = 0; i < m->n; i++) {
        if (m->c[i].resolved != MERGE_TEXT)
            continue;
        size_t row, col;
        char *e = NULL;
        if (!cell_of(d, &m->loc[i], &row, &col)) {
            if (st == KP_OK)
                st = fail_at(err, KP_INVALID, &m->c[i], _("the merged design has no such cell any more"));
        } else if (edit_set(d, (edit_table)m->loc[i].table, row, col, m->text[i], &e) != KP_OK) {
            if (st == KP_OK)
                st = fail_at(err, KP_INVALID, &m->c[i], e ? e : _("the value is refused"));
        }
        free(e);
    }
    *out = d;
    return st;
}

kp_status merge_resolve(merge_result *m, size_t i, merge_side side, const char *text, char **err)
{
    if (i >= m->n)
        /* TRANSLATORS: %1$zu a conflict's number, %2$zu how many there are */
        return kp_fail(err, KP_NOTFOUND, _("no conflict %zu (there are %zu)"), i + 1, m->n);
    if (side != MERGE_TEXT) {
        m->c[i].resolved = side == MERGE_THEIRS ? MERGE_THEIRS : MERGE_OURS;
        return KP_OK;
    }
    if (!m->c[i].editable)
        return fail_at(err, KP_INVALID, &m->c[i],
                       /* TRANSLATORS: ours and theirs are the words the command takes */
                       _("choose ours or theirs; this conflict takes no typed value"));
    int was = m->c[i].resolved;
    char *old = m->text[i];
    m->c[i].resolved = MERGE_TEXT;
    m->text[i] = xstrdup(text ? text : "");
    kp_design *d = NULL;
    kp_status st = take(m, MERGE_OURS, &d, err);
    design_free(d);
    if (st != KP_OK) {
        free(m->text[i]);
        m->text[i] = old;
        m->c[i].resolved = was;
        return st;
    }
    free(old);
    return KP_OK;
}

kp_design *merge_finish(const merge_result *m, char **err)
{
    for (size_t i = 0; i < m->n; i++)
        if (m->c[i].resolved < 0) {
            sbuf s;
            sbuf_init(&s);
            add_label(&s, &m->c[i]);
            size_t n = merge_unresolved(m);
            /* TRANSLATORS: %1$zu how many conflicts, %2$s the first ("pattern 5 rate": design-file words) */
            kp_fail(err, KP_CONFLICT,
                    ngettext("%zu conflict unresolved, the first: %s",
                             "%zu conflicts unresolved, the first: %s", n),
                    n, s.s);
            sbuf_free(&s);
            return NULL;
        }
    kp_design *d = NULL;
    if (take(m, MERGE_OURS, &d, err) != KP_OK) {
        design_free(d);
        return NULL;
    }
    return d;
}

kp_design *merge_take(const merge_result *m, merge_side unresolved)
{
    kp_design *d = NULL;
    take(m, unresolved == MERGE_THEIRS ? MERGE_THEIRS : MERGE_OURS, &d, NULL);
    return d;
}

/* A value as the conflict lines show it. */
static const char *shown(const char *s) { return !s ? _("(absent)") : !*s ? _("(empty)") : s; }

static void conflict_line(sbuf *s, const merge_conflict *c)
{
    sbuf label;
    sbuf_init(&label);
    add_label(&label, c); /* the design file's words: "pattern 5 rate" */
    /* ours, theirs and base are the words of the merge commands; %1$s each time: what conflicts */
    switch (c->kind) {
    case MERGE_BOTH_CHANGED:
        sbuf_printf(s, _("%s: changed two ways: base %s; ours %s; theirs %s"), label.s ? label.s : "",
                    shown(c->base), shown(c->ours), shown(c->theirs));
        break;
    case MERGE_DELETED_CHANGED:
        sbuf_printf(s, _("%s: deleted by ours, changed by theirs: %s"), label.s ? label.s : "",
                    shown(c->theirs));
        break;
    case MERGE_CHANGED_DELETED:
        sbuf_printf(s, _("%s: changed by ours (%s), deleted by theirs"), label.s ? label.s : "",
                    shown(c->ours));
        break;
    case MERGE_BOTH_ADDED:
        sbuf_printf(s, _("%s: added on both sides, differently: ours %s; theirs %s"), label.s ? label.s : "",
                    shown(c->ours), shown(c->theirs));
        break;
    }
    sbuf_free(&label);
}

char *merge_conflict_text(const merge_result *m, size_t i)
{
    if (i >= m->n)
        return NULL;
    sbuf s;
    sbuf_init(&s);
    conflict_line(&s, &m->c[i]);
    return sbuf_steal(&s);
}

char *merge_conflicts_text(const merge_result *m)
{
    sbuf s;
    sbuf_init(&s);
    for (size_t i = 0; i < m->n; i++) {
        conflict_line(&s, &m->c[i]);
        sbuf_addc(&s, '\n');
    }
    return sbuf_steal(&s);
}
