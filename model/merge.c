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
        if (!isnan(*(const double *)p))
            sbuf_printf(s, "%.15g", *(const double *)p);
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

/* Records conflict number c->n (when collecting) and returns the side chosen for it. rec/fi:
 * the field in conflict (fi -1: the whole record); b/o/t: the three records (NULL when absent);
 * path: the field's name within the top-level record (NULL for a whole top-level record). */
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
        mloc *l = &c->loc[idx];
        *m = (merge_conflict){.kind = kind, .record = c->top_record, .resolved = -1};
        *l = (mloc){.table = -1};
        m->key = xstrdup(c->top_key);
        m->field = path ? xstrdup(path) : NULL;
        if (kind == MERGE_BOTH_CHANGED && fi >= 0 && c->top_table >= 0) {
            const kp_field *f = &rec->f[fi];
            bool direct = (c->top_table == EDIT_SETTINGS &&
                           (rec == &kp_rec_design || rec == &kp_rec_table || rec == &kp_rec_pricing)) ||
                          (c->top_table != EDIT_SETTINGS && path && !strchr(path, '.') && !strchr(path, '['));
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
        if (l->table >= 0) {
            m->editable = true;
            m->base = cell_text(c->B, l);
            m->ours = cell_text(c->O, l);
            m->theirs = cell_text(c->T, l);
        } else if (fi >= 0) {
            m->base = render_one(&rec->f[fi], b);
            m->ours = render_one(&rec->f[fi], o);
            m->theirs = render_one(&rec->f[fi], t);
        } else if (kind == MERGE_BOTH_CHANGED) {
            m->base = render_whole(rec, b);
            m->ours = render_whole(rec, o);
            m->theirs = render_whole(rec, t);
        } else if (kind == MERGE_BOTH_ADDED) {
            m->ours = render_diff(rec, o, t);
            m->theirs = render_diff(rec, t, o);
        } else if (kind == MERGE_DELETED_CHANGED) {
            m->base = render_diff(rec, b, t);
            m->theirs = render_diff(rec, t, b);
        } else {
            m->base = render_diff(rec, b, o);
            m->ours = render_diff(rec, o, b);
        }
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

/* Merges two lists of names element by element into r (which holds ours) when neither side
 * replaced a name (added and removed); false (r untouched) when one did. */
static bool merge_names(const kp_field *f, const void *b, const void *o, const void *t, void *r)
{
    bool oa, orm, ta, trm;
    list_change(f, b, o, &oa, &orm);
    list_change(f, b, t, &ta, &trm);
    if ((oa && orm) || (ta && trm))
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

typedef struct kentry {
    char *key; /* the record's key, with "\x1f<n>" for the n-th repeat of a key */
    size_t at;
} kentry;

static kentry *keys_of(const kp_record *rec, const char *v, size_t n)
{
    kentry *k = n ? xmalloc(n * sizeof *k) : NULL;
    for (size_t i = 0; i < n; i++) {
        const char *key = rec_key(rec, v + i * rec->size);
        size_t rep = 0;
        for (size_t j = 0; j < i; j++)
            if (!strcmp(rec_key(rec, v + j * rec->size), key))
                rep++;
        sbuf s;
        sbuf_init(&s);
        sbuf_add(&s, key);
        if (rep)
            sbuf_printf(&s, "\x1f%zu", rep);
        k[i] = (kentry){sbuf_steal(&s), i};
    }
    return k;
}

static ptrdiff_t key_find(const kentry *k, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(k[i].key, key))
            return (ptrdiff_t)i;
    return -1;
}

static void keys_free(kentry *k, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(k[i].key);
    free(k);
}

/* true when the keys common to x and base appear in a different order in x. */
static bool reordered(const kentry *kb, size_t nb, const kentry *kx, size_t nx)
{
    ptrdiff_t last = -1;
    for (size_t i = 0; i < nx; i++) {
        ptrdiff_t p = key_find(kb, nb, kx[i].key);
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
static const char **merged_order(const kentry *ks, size_t ns, const kentry *kx, size_t nx, size_t *n)
{
    const char **seq = xmalloc((ns + nx + 1) * sizeof *seq);
    size_t m = 0;
    ptrdiff_t anchor = -1; /* the other side's additions wait behind their anchor's position there */
    for (size_t s = 0; s <= ns; s++) {
        ptrdiff_t p = s < ns ? key_find(kx, nx, ks[s].key) : (ptrdiff_t)nx;
        if (p >= 0) { /* a common key (or the end): first the additions that followed the last one */
            for (size_t j = (size_t)(anchor + 1); j < nx && key_find(ks, ns, kx[j].key) < 0; j++)
                seq[m++] = kx[j].key;
            anchor = p < (ptrdiff_t)nx ? p : anchor;
        }
        if (s < ns)
            seq[m++] = ks[s].key;
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
    kentry *kb = keys_of(sub, vb, nb), *ko = keys_of(sub, vo, no), *kt = keys_of(sub, vt, nt);
    bool ours_first = reordered(kb, nb, ko, no) || !reordered(kb, nb, kt, nt);
    size_t nseq;
    const char **seq = ours_first ? merged_order(ko, no, kt, nt, &nseq) : merged_order(kt, nt, ko, no, &nseq);
    char *out = xcalloc(no + nt + 1, el);
    size_t n = 0;
    bool top = path == NULL;
    for (size_t s = 0; s < nseq; s++) {
        ptrdiff_t ib = key_find(kb, nb, seq[s]), io = key_find(ko, no, seq[s]), it = key_find(kt, nt, seq[s]);
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
                take = conflict(c, eb ? MERGE_BOTH_CHANGED : MERGE_BOTH_ADDED, sub, -1, eb, eo, et,
                                eb ? sub_path : (top ? NULL : sub_path), NULL) == MERGE_THEIRS
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
    keys_free(kb, nb);
    keys_free(ko, no);
    keys_free(kt, nt);
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
                st = kp_fail(err, KP_INVALID, "%s %s %s: the merged design has no such cell", m->c[i].record,
                             m->c[i].key, m->c[i].field ? m->c[i].field : "");
        } else if (edit_set(d, (edit_table)m->loc[i].table, row, col, m->text[i], &e) != KP_OK) {
            if (st == KP_OK)
                st = kp_fail(err, KP_INVALID, "%s", e ? e : "the value is refused");
        }
        free(e);
    }
    *out = d;
    return st;
}

kp_status merge_resolve(merge_result *m, size_t i, merge_side side, const char *text, char **err)
{
    if (i >= m->n)
        return kp_fail(err, KP_NOTFOUND, "no conflict %zu (there are %zu)", i + 1, m->n);
    if (side != MERGE_TEXT) {
        m->c[i].resolved = side == MERGE_THEIRS ? MERGE_THEIRS : MERGE_OURS;
        return KP_OK;
    }
    if (!m->c[i].editable)
        return kp_fail(err, KP_INVALID,
                       "%s %s%s%s: choose ours or theirs; this conflict takes no typed value", m->c[i].record,
                       m->c[i].key, m->c[i].field ? " " : "", m->c[i].field ? m->c[i].field : "");
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
            kp_fail(err, KP_CONFLICT, "%zu conflict%s unresolved, the first: %s %s%s%s", merge_unresolved(m),
                    merge_unresolved(m) == 1 ? "" : "s", m->c[i].record, m->c[i].key,
                    m->c[i].field ? " " : "", m->c[i].field ? m->c[i].field : "");
            return NULL;
        }
    kp_design *d = NULL;
    take(m, MERGE_OURS, &d, NULL);
    return d;
}

kp_design *merge_take(const merge_result *m, merge_side unresolved)
{
    kp_design *d = NULL;
    take(m, unresolved == MERGE_THEIRS ? MERGE_THEIRS : MERGE_OURS, &d, NULL);
    return d;
}

static const char *or_absent(const char *s) { return s ? s : "(absent)"; }

char *merge_conflicts_text(const merge_result *m)
{
    sbuf s;
    sbuf_init(&s);
    for (size_t i = 0; i < m->n; i++) {
        const merge_conflict *c = &m->c[i];
        sbuf_add(&s, c->record);
        if (*c->key)
            sbuf_printf(&s, " %s", c->key);
        if (c->field)
            sbuf_printf(&s, " %s", c->field);
        switch (c->kind) {
        case MERGE_BOTH_CHANGED:
            sbuf_printf(&s, ": changed two ways: base %s; ours %s; theirs %s\n", c->base, c->ours, c->theirs);
            break;
        case MERGE_DELETED_CHANGED:
            sbuf_printf(&s, ": deleted by ours, changed by theirs: %s\n", or_absent(c->theirs));
            break;
        case MERGE_CHANGED_DELETED:
            sbuf_printf(&s, ": changed by ours (%s), deleted by theirs\n", or_absent(c->ours));
            break;
        case MERGE_BOTH_ADDED:
            sbuf_printf(&s, ": added on both sides, differently: ours %s; theirs %s\n", or_absent(c->ours),
                        or_absent(c->theirs));
            break;
        }
    }
    return sbuf_steal(&s);
}

/* ---- conflict markers: a line diff (Myers) ---------------------------------------------- */

typedef struct lines {
    const char **s;
    size_t *len;
    size_t n;
} lines;

static void split_lines(const char *text, lines *l)
{
    size_t cap = 16;
    l->s = xmalloc(cap * sizeof *l->s);
    l->len = xmalloc(cap * sizeof *l->len);
    l->n = 0;
    const char *p = text ? text : "";
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) + 1 : strlen(p);
        if (l->n == cap) {
            cap *= 2;
            l->s = xrealloc(l->s, cap * sizeof *l->s);
            l->len = xrealloc(l->len, cap * sizeof *l->len);
        }
        l->s[l->n] = p;
        l->len[l->n++] = len;
        p += len;
    }
}

static bool line_eq(const lines *a, size_t i, const lines *b, size_t j)
{
    return a->len[i] == b->len[j] && memcmp(a->s[i], b->s[j], a->len[i]) == 0;
}

static void add_line(sbuf *s, const char *p, size_t len)
{
    sbuf_addn(s, p, len);
    if (!len || p[len - 1] != '\n')
        sbuf_addc(s, '\n');
}

char *merge_markers(const char *ours, const char *theirs, const char *ours_label, const char *theirs_label)
{
    lines a, b;
    split_lines(ours, &a);
    split_lines(theirs, &b);
    /* common prefix and suffix first: the diff runs on what is left */
    size_t pre = 0;
    while (pre < a.n && pre < b.n && line_eq(&a, pre, &b, pre))
        pre++;
    size_t suf = 0;
    while (suf < a.n - pre && suf < b.n - pre && line_eq(&a, a.n - 1 - suf, &b, b.n - 1 - suf))
        suf++;
    size_t n = a.n - pre - suf, m = b.n - pre - suf, max = n + m;
    /* Myers: v[d] is the furthest x on each diagonal k after d edits */
    ptrdiff_t off = (ptrdiff_t)max + 1;
    size_t width = 2 * max + 3;
    ptrdiff_t **trace = xcalloc(max + 1, sizeof *trace);
    ptrdiff_t *v = xcalloc(width, sizeof *v);
    size_t dend = 0;
    for (size_t d = 0; d <= max; d++) {
        for (ptrdiff_t k = -(ptrdiff_t)d; k <= (ptrdiff_t)d; k += 2) {
            ptrdiff_t x;
            if (k == -(ptrdiff_t)d || (k != (ptrdiff_t)d && v[off + k - 1] < v[off + k + 1]))
                x = v[off + k + 1];
            else
                x = v[off + k - 1] + 1;
            ptrdiff_t y = x - k;
            while (x < (ptrdiff_t)n && y < (ptrdiff_t)m && line_eq(&a, pre + (size_t)x, &b, pre + (size_t)y))
                x++, y++;
            v[off + k] = x;
        }
        trace[d] = xmalloc((2 * d + 1) * sizeof *v); /* v[-d..d] */
        memcpy(trace[d], v + off - (ptrdiff_t)d, (2 * d + 1) * sizeof *v);
        bool done = false;
        for (ptrdiff_t k = -(ptrdiff_t)d; k <= (ptrdiff_t)d; k += 2)
            if (v[off + k] >= (ptrdiff_t)n && v[off + k] - k >= (ptrdiff_t)m)
                done = true;
        if (done) {
            dend = d;
            break;
        }
    }
    /* walk back: mark for each line of a and b whether it is common */
    bool *ca = xcalloc(n + 1, sizeof *ca), *cb = xcalloc(m + 1, sizeof *cb);
    ptrdiff_t x = (ptrdiff_t)n, y = (ptrdiff_t)m;
    for (size_t d = dend + 1; d-- > 0;) {
        ptrdiff_t k = x - y;
        ptrdiff_t pk, px, py;
        if (d == 0) {
            while (x > 0 && y > 0)
                ca[--x] = true, cb[--y] = true;
            break;
        }
        const ptrdiff_t *pv = trace[d - 1] + (d - 1); /* pv[k] for k in -(d-1)..d-1 */
        if (k == -(ptrdiff_t)d || (k != (ptrdiff_t)d && pv[k - 1] < pv[k + 1]))
            pk = k + 1;
        else
            pk = k - 1;
        px = pv[pk];
        py = px - pk;
        while (x > px && y > py)
            ca[--x] = true, cb[--y] = true;
        x = px;
        y = py;
    }
    sbuf s;
    sbuf_init(&s);
    for (size_t i = 0; i < pre; i++)
        sbuf_addn(&s, a.s[i], a.len[i]);
    size_t i = 0, j = 0;
    while (i < n || j < m) {
        if (i < n && j < m && ca[i] && cb[j]) {
            sbuf_addn(&s, a.s[pre + i], a.len[pre + i]);
            i++, j++;
            continue;
        }
        sbuf_printf(&s, "<<<<<<< %s\n", ours_label ? ours_label : "ours");
        while (i < n && !ca[i])
            add_line(&s, a.s[pre + i], a.len[pre + i]), i++;
        sbuf_add(&s, "=======\n");
        while (j < m && !cb[j])
            add_line(&s, b.s[pre + j], b.len[pre + j]), j++;
        sbuf_printf(&s, ">>>>>>> %s\n", theirs_label ? theirs_label : "theirs");
    }
    for (size_t k = a.n - suf; k < a.n; k++)
        sbuf_addn(&s, a.s[k], a.len[k]);
    for (size_t d = 0; d <= dend; d++)
        free(trace[d]);
    free(trace);
    free(v);
    free(ca);
    free(cb);
    free(a.s);
    free(a.len);
    free(b.s);
    free(b.len);
    return sbuf_steal(&s);
}
