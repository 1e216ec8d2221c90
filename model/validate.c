/* validate.c - semantic validation of a design: required names, duplicates, references (with
 * "did you mean"), figures, enum shares, index rules, key templates, sparse rules, covered_by
 * and signals, and DynamoDB's schema limits (index counts, names, projected attributes, key types
 * and key value sizes, item size, replica regions). Works on the kp_design alone (places from its kp_locs), so the TUI can run it
 * after every edit. Every message reads "what is wrong; what was expected". */
#include "validate.h"

#include "edit.h"

#include "i18n.h"
#include "capacity.h"
#include "display.h"
#include "fields.h"
#include "namemap.h"
#include "signals.h"
#include "syntax.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SHARE_TOLERANCE 0.001
/* Candidate lists in messages are cut after this many names. */
#define MAX_LISTED 12

/* A set of borrowed names in insertion order, hashed (designs with thousands of patterns stay
 * linear). Each name carries a tag: the position of the element that first used it. */
typedef struct names {
    const char **v;
    size_t *tag;
    size_t n, cap, tcap;
    namemap pos; /* name -> its position in v */
} names;

/* Position of s in the set, or -1. */
static ptrdiff_t names_find(const names *l, const char *s)
{
    size_t at;
    return namemap_get(&l->pos, s, &at) ? (ptrdiff_t)at : -1;
}

/* Adds s with its tag unless present; returns the tag of the name in the set (the earlier one
 * when s was already there). NULL names are ignored (returns `tag`). */
static size_t names_add_tag(names *l, const char *s, size_t tag)
{
    if (!s)
        return tag;
    bool added;
    size_t at = *namemap_insert(&l->pos, s, 0, l->n, &added);
    if (!added)
        return l->tag[at];
    VEC_GROW(l->v, l->n, l->cap);
    VEC_GROW(l->tag, l->n, l->tcap);
    l->v[l->n] = s;
    l->tag[l->n] = tag;
    l->n++;
    return tag;
}

static void names_add(names *l, const char *s) { names_add_tag(l, s, 0); }

static bool names_has(const names *l, const char *s) { return names_find(l, s) >= 0; }

static void names_free(names *l)
{
    free(l->v);
    free(l->tag);
    namemap_free(&l->pos);
    memset(l, 0, sizeof *l);
}

/* "(did you mean 'x'?)" or "; expected one of: a, b, c" (or `none` when the list is empty),
 * appended to a message prefix. */
static void report_unknown(kp_diags *dg, kp_status code, kp_loc loc, const char *prefix, const char *word,
                           const names *cands, const char *none)
{
    /* numbers are ids: "2" is no typo of "1" */
    bool numeric = word && *word && strspn(word, "0123456789") == strlen(word);
    const char *dym = word && !numeric ? util_did_you_mean(word, cands->v, cands->n) : NULL;
    if (dym) {
        diags_add(dg, code, loc, _("%s (did you mean '%s'?)"), prefix, dym);
        return;
    }
    if (!cands->n) {
        diags_add(dg, code, loc, _("%s; expected %s"), prefix, none);
        return;
    }
    sbuf s;
    sbuf_init(&s);
    for (size_t i = 0; i < cands->n && i < MAX_LISTED; i++) {
        if (i)
            sbuf_add(&s, ", ");
        sbuf_add(&s, cands->v[i]);
    }
    if (cands->n > MAX_LISTED)
        sbuf_add(&s, ", ...");
    diags_add(dg, code, loc, _("%s; expected one of: %s"), prefix, s.s);
    sbuf_free(&s);
}

/* ---- context --------------------------------------------------------------------------- */

typedef struct vctx {
    const kp_design *d;
    kp_diags *dg;
    names key_attrs; /* table's and indexes' key attribute names */
    names all_attrs; /* every attribute name the design knows */
    names entity_names;
    names pattern_ids; /* the design's, unless pids is a memo's */
    names *pids;       /* the set of pattern ids used: &pattern_ids, or validate_memo's */
    names index_names;
    names attr_names; /* declared attributes */
    names decision_ids;
    size_t *at; /* NULL, or where check_patterns's diagnostics of each pattern start (validate_memo) */
} vctx;

/* The pattern ids a validate_memo keeps: its own copies, hashed, so that an edit that changes no
 * id does not hash them all again. */
typedef struct memo_ids {
    char **own; /* npatterns copies (NULL for a pattern without an id) */
    size_t n;
    names set;
    /* the attributes' names (nattrs copies, NULL for one without a name): an attribute renamed in
       place (validate_row_edit) is told by its old name, which the patterns' checks read */
    char **attrs;
    size_t nattrs;
} memo_ids;

static void memo_ids_free(memo_ids *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->n; i++)
        free(m->own[i]);
    free(m->own);
    names_free(&m->set);
    for (size_t i = 0; i < m->nattrs; i++)
        free(m->attrs[i]);
    free(m->attrs);
    free(m);
}

static memo_ids *memo_ids_new(const kp_design *d)
{
    memo_ids *m = xcalloc(1, sizeof *m);
    m->n = d->npatterns;
    m->own = xcalloc(m->n + 1, sizeof *m->own);
    namemap_init(&m->set.pos, m->n);
    for (size_t i = 0; i < m->n; i++) {
        m->own[i] = d->patterns[i].id ? xstrdup(d->patterns[i].id) : NULL;
        names_add_tag(&m->set, m->own[i], i);
    }
    m->nattrs = d->nattrs;
    m->attrs = xcalloc(m->nattrs + 1, sizeof *m->attrs);
    for (size_t i = 0; i < m->nattrs; i++)
        m->attrs[i] = d->attrs[i].name ? xstrdup(d->attrs[i].name) : NULL;
    return m;
}

/* m's set made again from its copies, in their order (each id tagged with its first position). */
static void memo_ids_rehash(memo_ids *m)
{
    names_free(&m->set);
    namemap_init(&m->set.pos, m->n);
    for (size_t i = 0; i < m->n; i++)
        names_add_tag(&m->set, m->own[i], i);
}

/* m (taken) after structural step op of d's patterns, d's ids the ones after it: the copies
 * follow their patterns (an inserted one's copied; a removed one's handed to *gone, the
 * caller's to free) and the set is made again in the new order, no id copied again. */
static memo_ids *memo_ids_step(memo_ids *m, const kp_design *d, kp_rowop op, char **gone)
{
    *gone = NULL;
    if (op.kind == KP_ROW_REMOVE)
        *gone = m->own[op.row];
    else if (op.kind == KP_ROW_INSERT)
        m->own = xrealloc(m->own, (m->n + 2) * sizeof *m->own);
    kp_rowop_shift(m->own, m->n, sizeof *m->own, op);
    m->n = d->npatterns;
    if (op.kind == KP_ROW_INSERT)
        m->own[op.row] = d->patterns[op.row].id ? xstrdup(d->patterns[op.row].id) : NULL;
    memo_ids_rehash(m);
    return m;
}

/* NULL-safe look-ups through the sets (names may be missing while a design is edited): the
 * first element with the name. */
static const kp_entity *find_entity(const vctx *c, const char *name)
{
    ptrdiff_t i = names_find(&c->entity_names, name);
    return i < 0 ? NULL : &c->d->entities[c->entity_names.tag[i]];
}

static const kp_attr *find_attr(const vctx *c, const char *name)
{
    ptrdiff_t i = names_find(&c->attr_names, name);
    return i < 0 ? NULL : &c->d->attrs[c->attr_names.tag[i]];
}

static const kp_pattern *find_pattern(const vctx *c, const char *id)
{
    ptrdiff_t i = names_find(c->pids, id);
    return i < 0 ? NULL : &c->d->patterns[c->pids->tag[i]];
}

/* The labels quote names cut to LABEL_COLS columns: a name pasted whole (40,000 bytes, refused
 * by its own message) must not fill every other message about its record. */
#define LABEL_COLS 100

static char *label_named(const char *fmt, const char *name)
{
    char *s = disp_short(name, LABEL_COLS);
    char *l = xasprintf(fmt, s);
    free(s);
    return l;
}

static char *label_entity(const kp_entity *e, size_t i)
{
    return e->name ? label_named(_("entity '%s'"), e->name) : xasprintf(_("entity #%zu"), i + 1);
}

static char *label_pattern(const kp_pattern *p, size_t i)
{
    return p->id ? label_named(_("pattern %s"), p->id) : xasprintf(_("pattern #%zu"), i + 1);
}

static char *label_index(const kp_index *x, size_t i)
{
    return x->name ? label_named(_("index '%s'"), x->name) : xasprintf(_("index #%zu"), i + 1);
}

static char *label_decision(const kp_decision *x, size_t i)
{
    return x->id ? label_named(_("decision %s"), x->id) : xasprintf(_("decision #%zu"), i + 1);
}

/* Who a message is about, made when a message needs it: a pattern's label costs more than its
 * checks, and most patterns have no message (a 10,000-pattern validation made 10,000 labels). */
typedef struct lazy_label {
    const char *s; /* the label given, else the one of pattern p (row i), made on first use */
    const kp_pattern *p;
    size_t i;
    char *made;
} lazy_label;

/* The label of w, made once. */
static const char *label_text(lazy_label *w)
{
    if (!w->s)
        w->s = w->made = label_pattern(w->p, w->i);
    return w->s;
}

static void check_figure(vctx *c, kp_loc loc, lazy_label *w, const char *key, double v, double lo, double hi)
{
    if (isnan(v))
        return;
    if (isinf(v) || v < lo || v > hi) {
        if (hi == INFINITY)
            diags_add(c->dg, KP_RANGE, loc, _("%s: '%s' is %g; expected a number >= %g"), label_text(w), key,
                      v, lo);
        else
            diags_add(c->dg, KP_RANGE, loc, _("%s: '%s' is %g; expected a number between %g and %g"),
                      label_text(w), key, v, lo, hi);
    }
}

/* The range validation holds a number field to (the file's own rule, model/fields.h). */
static bool figure_range(kp_numrule rule, double *lo, double *hi)
{
    switch (rule) {
    case KP_NUM_NONNEG:
        *lo = 0, *hi = INFINITY;
        return true;
    case KP_NUM_SHARE:
        *lo = 0, *hi = 1;
        return true;
    case KP_NUM_GE1:
        *lo = 1, *hi = INFINITY;
        return true;
    case KP_NUM_UTIL:
        *lo = 0.01, *hi = 1;
        return true;
    default:
        return false;
    }
}

/* check_figure on every number field of the record at r, in table order. */
static void check_figures(vctx *c, const kp_record *rec, const void *r, kp_loc loc, lazy_label *w)
{
    for (size_t i = 0; i < rec->n; i++) {
        const kp_field *f = &rec->f[i];
        double lo, hi;
        if (f->kind == KF_NUM && figure_range(f->num, &lo, &hi))
            check_figure(c, loc, w, f->key, *(const double *)kp_fcptr(r, f), lo, hi);
    }
}

static void collect(vctx *c)
{
    const kp_design *d = c->d;
    names_add(&c->key_attrs, d->table.pk.s);
    names_add(&c->key_attrs, d->table.sk.s);
    for (size_t i = 0; i < d->nindexes; i++) {
        names_add(&c->key_attrs, d->indexes[i].pk.s);
        names_add(&c->key_attrs, d->indexes[i].sk.s);
        names_add_tag(&c->index_names, d->indexes[i].name, i);
    }
    for (size_t i = 0; i < d->nattrs; i++) {
        names_add(&c->all_attrs, d->attrs[i].name);
        names_add_tag(&c->attr_names, d->attrs[i].name, i);
    }
    for (size_t i = 0; i < c->key_attrs.n; i++)
        names_add(&c->all_attrs, c->key_attrs.v[i]);
    for (size_t i = 0; i < d->nentities; i++) {
        const kp_entity *e = &d->entities[i];
        names_add_tag(&c->entity_names, e->name, i);
        for (size_t k = 0; k < e->nattrs; k++)
            names_add(&c->all_attrs, e->attrs[k].s);
        for (size_t k = 0; k < e->nkeys; k++) {
            names_add(&c->all_attrs, e->keys[k].attr.s);
            for (size_t j = 0; j < e->keys[k].tpl.n; j++)
                if (e->keys[k].tpl.parts[j].kind == TPL_ATTR)
                    names_add(&c->all_attrs, e->keys[k].tpl.parts[j].text);
        }
    }
    if (c->pids == &c->pattern_ids)
        for (size_t i = 0; i < d->npatterns; i++)
            names_add_tag(c->pids, d->patterns[i].id, i);
    for (size_t i = 0; i < d->ndecisions; i++)
        names_add_tag(&c->decision_ids, d->decisions[i].id, i);
}

/* Every attribute an entity knows (domain attributes, key attributes, placeholders). */
static void entity_known_names(const kp_entity *e, names *out)
{
    for (size_t k = 0; k < e->nattrs; k++)
        names_add(out, e->attrs[k].s);
    for (size_t k = 0; k < e->nkeys; k++) {
        names_add(out, e->keys[k].attr.s);
        for (size_t j = 0; j < e->keys[k].tpl.n; j++)
            if (e->keys[k].tpl.parts[j].kind == TPL_ATTR)
                names_add(out, e->keys[k].tpl.parts[j].text);
    }
}

/* ---- table and indexes ----------------------------------------------------------------- */

static void check_table(vctx *c)
{
    const kp_table *t = &c->d->table;
    if (!t->name || !*t->name)
        diags_add(c->dg, KP_MISSING_KEY, t->loc, _("table: 'name' is missing; expected the table's name"));
    if (!t->pk.s || !*t->pk.s)
        diags_add(c->dg, KP_MISSING_KEY, t->loc,
                  _("table: 'pk' is missing; expected the partition key attribute name"));
    if (t->pk.s && t->sk.s && !strcmp(t->pk.s, t->sk.s))
        diags_add(c->dg, KP_INDEX, t->sk.loc,
                  _("table: sort key '%s' is the partition key too; expected two different attributes"),
                  t->sk.s);
    check_figures(c, &kp_rec_table, t, t->loc, &(lazy_label){.s = _("table")});
}

static void check_indexes(vctx *c)
{
    const kp_design *d = c->d;
    for (size_t i = 0; i < d->nindexes; i++) {
        const kp_index *x = &d->indexes[i];
        char *w = label_index(x, i);
        if (!x->name || !*x->name)
            diags_add(c->dg, KP_MISSING_KEY, x->loc, _("%s: 'name' is missing; expected the index's name"),
                      w);
        size_t first = names_add_tag(&c->index_names, x->name, i);
        if (first != i)
            diags_add(c->dg, KP_DUPLICATE, x->loc,
                      _("%s is defined twice (first at line %d); expected unique index names"), w,
                      d->indexes[first].loc.line);
        if (!x->pk.s || !*x->pk.s)
            diags_add(c->dg, KP_MISSING_KEY, x->loc,
                      _("%s: 'pk' is missing; expected the item attribute the index is partitioned on"), w);
        if (x->pk.s && x->sk.s && !strcmp(x->pk.s, x->sk.s))
            diags_add(c->dg, KP_INDEX, x->sk.loc,
                      _("%s: sort key '%s' is the partition key too; expected two different attributes"), w,
                      x->sk.s);
        if (x->kind == KP_LSI) {
            if (x->pk.s && d->table.pk.s && strcmp(x->pk.s, d->table.pk.s) != 0)
                diags_add(
                    c->dg, KP_INDEX, x->pk.loc,
                    _("%s: an LSI's partition attribute '%s' differs from the table's '%s'; expected pk: %s"),
                    w, x->pk.s, d->table.pk.s, d->table.pk.s);
            if (!x->sk.s)
                diags_add(c->dg, KP_INDEX, x->loc,
                          _("%s: an LSI without 'sk'; expected the LSI's own sort key attribute"), w);
            if (!d->table.sk.s)
                diags_add(c->dg, KP_INDEX, x->loc,
                          _("%s: an LSI on a table without a sort key; expected a table with 'sk' "
                            "(or type: gsi)"),
                          w);
        }
        if (x->projection == KP_PROJ_INCLUDE && !x->ninclude)
            diags_add(c->dg, KP_INDEX, x->loc,
                      _("%s: projection include lists no attributes; expected include: [a, b]"), w);
        if (x->projection != KP_PROJ_INCLUDE && x->ninclude)
            diags_add(c->dg, KP_INDEX, x->include[0].loc,
                      _("%s: 'include' is given but the projection is %s; expected "
                        "projection: include"),
                      w, kp_projection_name(x->projection));
        for (size_t k = 0; k < x->ninclude; k++) {
            if (names_has(&c->all_attrs, x->include[k].s))
                continue;
            char *pre = xasprintf(_("%s: include names unknown attribute '%s'"), w, x->include[k].s);
            report_unknown(c->dg, KP_UNKNOWN_REF, x->include[k].loc, pre, x->include[k].s, &c->all_attrs,
                           _("an attribute some entity carries"));
            free(pre);
        }
        free(w);
    }
}

/* ---- attributes ------------------------------------------------------------------------ */

static void check_attrs(vctx *c)
{
    const kp_design *d = c->d;
    for (size_t i = 0; i < d->nattrs; i++) {
        const kp_attr *a = &d->attrs[i];
        char *w = xasprintf(_("attribute '%s'"), a->name ? a->name : "?");
        size_t first = names_add_tag(&c->attr_names, a->name, i);
        if (first != i)
            diags_add(c->dg, KP_DUPLICATE, a->loc,
                      _("%s is declared twice (first at line %d); expected unique attribute names"), w,
                      d->attrs[first].loc.line);
        check_figures(c, &kp_rec_attr, a, a->loc, &(lazy_label){.s = w});
        if (a->type == KP_ATTR_ENUM) {
            if (!a->nvalues) {
                diags_add(c->dg, KP_MISSING_KEY, a->loc,
                          _("%s: type enum without values; expected values: { a: 0.6, b: 0.4 }"), w);
            } else {
                double sum = 0, wsum = 0;
                bool any_w = false, bad = false;
                for (size_t k = 0; k < a->nvalues; k++) {
                    const kp_enum_value *v = &a->values[k];
                    for (size_t j = 0; j < k; j++)
                        if (v->name && a->values[j].name && !strcmp(v->name, a->values[j].name)) {
                            diags_add(c->dg, KP_DUPLICATE, v->loc,
                                      _("%s: value '%s' is listed twice; expected each value once"), w,
                                      v->name);
                            break;
                        }
                    check_figure(c, v->loc, &(lazy_label){.s = w}, v->name ? v->name : "value", v->share, 0,
                                 1);
                    if (!isnan(v->write_share)) {
                        any_w = true;
                        wsum += v->write_share;
                        check_figure(c, v->loc, &(lazy_label){.s = w}, v->name ? v->name : "value",
                                     v->write_share, 0, 1);
                    }
                    if (!isnan(v->share))
                        sum += v->share;
                    else
                        bad = true; /* a share that did not read: reported where it was read */
                }
                if (!bad && fabs(sum - 1) > SHARE_TOLERANCE)
                    diags_add(c->dg, KP_SHARES, a->loc,
                              _("%s: the value shares sum to %g; expected 1 (within %g)"), w, sum,
                              SHARE_TOLERANCE);
                if (any_w && fabs(wsum - 1) > SHARE_TOLERANCE)
                    diags_add(c->dg, KP_SHARES, a->loc,
                              _("%s: the write_shares sum to %g; expected 1 (within %g)"), w, wsum,
                              SHARE_TOLERANCE);
            }
        } else if (a->nvalues) {
            diags_add(c->dg, KP_INVALID, a->loc,
                      _("%s: 'values' are given but the type is %s; expected type: enum"), w,
                      kp_attr_type_name(a->type));
        }
        if (a->type == KP_ATTR_SHARD && a->shard_count < 1)
            diags_add(c->dg, KP_MISSING_KEY, a->loc,
                      _("%s: type shard without 'count'; expected count: N (suffixes 0..N-1)"), w);
        if (a->type != KP_ATTR_SHARD && a->shard_count >= 0)
            diags_add(c->dg, KP_INVALID, a->loc,
                      _("%s: 'count' is given but the type is %s; expected type: shard"), w,
                      kp_attr_type_name(a->type));
        free(w);
    }
}

/* ---- entities -------------------------------------------------------------------------- */

/* `together`: each group is attributes joined by '+', each one an attribute the entity carries
 * (a key attribute or one of its attributes). */
static void check_together(vctx *c, const kp_entity *e, const char *w)
{
    for (size_t k = 0; k < e->ntogether; k++) {
        const kp_str *g = &e->together[k];
        if (!g->s)
            continue;
        syn_span *parts = NULL;
        size_t n = 0, at = 0;
        char *err = NULL;
        if (syn_group_parse(g->s, strlen(g->s), &parts, &n, &err, &at) != KP_OK) {
            kp_loc loc = g->loc;
            loc.col += (int)at;
            diags_add(c->dg, KP_INVALID, loc, _("%s: together '%s': %s"), w, g->s, err);
            free(err);
            continue;
        }
        for (size_t i = 0; i < n; i++) {
            char *name = xstrndup(g->s + parts[i].at, parts[i].len);
            if (!entity_carries(e, name) && !entity_knows(e, name)) {
                names carried = {0};
                for (size_t j = 0; j < e->nkeys; j++)
                    names_add(&carried, e->keys[j].attr.s);
                for (size_t j = 0; j < e->nattrs; j++)
                    names_add(&carried, e->attrs[j].s);
                kp_loc loc = g->loc;
                loc.col += (int)parts[i].at;
                char *pre =
                    xasprintf(_("%s: together names '%s', which the entity's items do not carry"), w, name);
                report_unknown(c->dg, KP_UNKNOWN_REF, loc, pre, name, &carried,
                               _("an attribute of the entity"));
                free(pre);
                names_free(&carried);
            }
            free(name);
        }
        free(parts);
    }
}

static void check_sparse(vctx *c, const kp_entity *e, const char *w)
{
    const kp_design *d = c->d;
    for (size_t k = 0; k < e->nsparse; k++) {
        const kp_sparse *s = &e->sparse[k];
        if (!s->attr.s)
            continue;
        for (size_t j = 0; j < k; j++)
            if (e->sparse[j].attr.s && !strcmp(e->sparse[j].attr.s, s->attr.s)) {
                diags_add(c->dg, KP_DUPLICATE, s->attr.loc, _("%s: two sparse rules for '%s'; expected one"),
                          w, s->attr.s);
                break;
            }
        if ((d->table.pk.s && !strcmp(s->attr.s, d->table.pk.s)) ||
            (d->table.sk.s && !strcmp(s->attr.s, d->table.sk.s))) {
            diags_add(c->dg, KP_INVALID, s->attr.loc,
                      _("%s: sparse rule for '%s', the table's own key, which every item "
                        "carries; expected an index key attribute"),
                      w, s->attr.s);
        } else if (!entity_carries(e, s->attr.s)) {
            names carried = {0};
            for (size_t j = 0; j < e->nkeys; j++)
                names_add(&carried, e->keys[j].attr.s);
            char *pre =
                xasprintf(_("%s: sparse rule for '%s', which the entity's items do not carry"), w, s->attr.s);
            report_unknown(c->dg, KP_UNKNOWN_REF, s->attr.loc, pre, s->attr.s, &carried,
                           _("a key attribute of the entity"));
            free(pre);
            names_free(&carried);
        }
        if (s->kind == KP_SPARSE_SHARE) {
            check_figure(c, s->loc, &(lazy_label){.s = w}, s->attr.s, s->share, 0, 1);
            continue;
        }
        if (!s->cond_attr.s)
            continue;
        if (!entity_knows(e, s->cond_attr.s)) {
            names known = {0};
            entity_known_names(e, &known);
            char *pre = xasprintf(_("%s: sparse condition on '%s', which the entity does not carry"), w,
                                  s->cond_attr.s);
            report_unknown(c->dg, KP_UNKNOWN_REF, s->cond_attr.loc, pre, s->cond_attr.s, &known,
                           _("an attribute of the entity"));
            free(pre);
            names_free(&known);
            continue;
        }
        const kp_attr *a = find_attr(c, s->cond_attr.s);
        if (a && a->type == KP_ATTR_ENUM && a->nvalues) {
            names vals = {0};
            for (size_t j = 0; j < a->nvalues; j++)
                names_add(&vals, a->values[j].name);
            for (size_t j = 0; j < s->nvalues; j++) {
                if (!s->values[j].s || names_has(&vals, s->values[j].s))
                    continue;
                char *pre = xasprintf(_("%s: sparse condition value '%s' is not a value of enum '%s'"), w,
                                      s->values[j].s, a->name);
                report_unknown(c->dg, KP_UNKNOWN_REF, s->values[j].loc, pre, s->values[j].s, &vals,
                               _("a value of the enum"));
                free(pre);
            }
            names_free(&vals);
        }
    }
}

static void check_entities(vctx *c)
{
    const kp_design *d = c->d;
    for (size_t i = 0; i < d->nentities; i++) {
        const kp_entity *e = &d->entities[i];
        char *w = label_entity(e, i);
        if (!e->name || !*e->name)
            diags_add(c->dg, KP_MISSING_KEY, e->loc, _("%s: 'name' is missing; expected the entity's name"),
                      w);
        size_t first = names_add_tag(&c->entity_names, e->name, i);
        if (first != i)
            diags_add(c->dg, KP_DUPLICATE, e->loc,
                      _("%s is defined twice (first at line %d); expected unique entity names"), w,
                      d->entities[first].loc.line);
        check_figures(c, &kp_rec_entity, e, e->loc, &(lazy_label){.s = w});
        for (size_t k = 0; k < e->nkeys; k++) {
            const kp_keytpl *kt = &e->keys[k];
            if (!kt->attr.s)
                continue;
            for (size_t j = 0; j < k; j++)
                if (e->keys[j].attr.s && !strcmp(e->keys[j].attr.s, kt->attr.s)) {
                    diags_add(c->dg, KP_DUPLICATE, kt->attr.loc,
                              _("%s: two templates for key '%s'; expected one"), w, kt->attr.s);
                    break;
                }
            if (!names_has(&c->key_attrs, kt->attr.s)) {
                char *pre = xasprintf(
                    _("%s: key template for '%s', which is neither the table's nor any index's key attribute"),
                    w, kt->attr.s);
                report_unknown(c->dg, KP_UNKNOWN_REF, kt->attr.loc, pre, kt->attr.s, &c->key_attrs,
                               _("a key attribute of the table or an index"));
                free(pre);
            }
        }
        if (d->table.pk.s && !entity_carries(e, d->table.pk.s))
            diags_add(c->dg, KP_MISSING_KEY, e->loc,
                      _("%s: no template for the table's partition key '%s'; expected keys: "
                        "{ %s: \"...\" }"),
                      w, d->table.pk.s, d->table.pk.s);
        if (d->table.sk.s && !entity_carries(e, d->table.sk.s))
            diags_add(c->dg, KP_MISSING_KEY, e->loc,
                      _("%s: no template for the table's sort key '%s'; expected keys: "
                        "{ %s: \"...\" }"),
                      w, d->table.sk.s, d->table.sk.s);
        check_sparse(c, e, w);
        check_together(c, e, w);
        free(w);
    }
}

/* ---- DynamoDB's schema limits ------------------------------------------------------------ */

/* A table or index name DynamoDB takes: 3..255 bytes of [A-Za-z0-9_.-]. Reports the first
 * problem of `name` (NULL and "" are reported as missing elsewhere). */
static void check_dynamo_name(vctx *c, kp_loc loc, const char *who, const char *what, const char *name)
{
    if (!name || !*name)
        return;
    size_t n = strlen(name),
           bad = strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.");
    bool table = !strcmp(what, "table");
    if (bad < n)
        diags_add(c->dg, KP_INVALID, loc,
                  table ? _("%s: table name '%s' has a character DynamoDB refuses at byte %zu; expected only "
                            "A-Z a-z 0-9 _ - . in table names")
                        : _("%s: index name '%s' has a character DynamoDB refuses at byte %zu; expected only "
                            "A-Z a-z 0-9 _ - . in index names"),
                  who, name, bad + 1);
    else if (n < KP_LIMIT_NAME_MIN || n > KP_LIMIT_NAME_MAX)
        /* TRANSLATORS: the second %s is "..." when the name is cut at 40 characters */
        diags_add(
            c->dg, KP_RANGE, loc,
            table ? ngettext("%s: table name '%.40s%s' is %zu character long; DynamoDB takes table names "
                             "of %d to %d characters",
                             "%s: table name '%.40s%s' is %zu characters long; DynamoDB takes table names "
                             "of %d to %d characters",
                             n)
                  : ngettext("%s: index name '%.40s%s' is %zu character long; DynamoDB takes index names "
                             "of %d to %d characters",
                             "%s: index name '%.40s%s' is %zu characters long; DynamoDB takes index names "
                             "of %d to %d characters",
                             n),
            who, name, n > 40 ? "..." : "", n, KP_LIMIT_NAME_MIN, KP_LIMIT_NAME_MAX);
}

/* Index counts, index names and the projected attributes summed over every index. */
static void check_index_limits(vctx *c)
{
    const kp_design *d = c->d;
    size_t gsis = 0, lsis = 0, projected = 0;
    bool over_projected = false;
    for (size_t i = 0; i < d->nindexes; i++) {
        const kp_index *x = &d->indexes[i];
        char *w = label_index(x, i);
        check_dynamo_name(c, x->loc, w, "index", x->name);
        if (x->kind == KP_GSI && ++gsis == KP_LIMIT_GSIS + 1)
            diags_add(
                c->dg, KP_INDEX, x->loc,
                _("%s is GSI number %zu of the table; DynamoDB allows %d GSIs per table (a default quota "
                  "AWS raises on request); expected at most %d, or one GSI overloaded by several entities"),
                w, gsis, KP_LIMIT_GSIS, KP_LIMIT_GSIS);
        if (x->kind == KP_LSI && ++lsis == KP_LIMIT_LSIS + 1)
            diags_add(
                c->dg, KP_INDEX, x->loc,
                _("%s is LSI number %zu of the table; DynamoDB allows %d LSIs per table; expected at most "
                  "%d (or a GSI)"),
                w, lsis, KP_LIMIT_LSIS, KP_LIMIT_LSIS);
        if (x->projection == KP_PROJ_INCLUDE)
            for (size_t k = 0; k < x->ninclude && !over_projected; k++)
                if (++projected > KP_LIMIT_PROJECTED) {
                    over_projected = true;
                    diags_add(
                        c->dg, KP_INDEX, x->include[k].loc,
                        _("%s: include '%s' is projected attribute %zu of the table's indexes; DynamoDB "
                          "allows %d in total over every index (an attribute in two indexes counts "
                          "twice); expected at most %d, or projection: all"),
                        w, x->include[k].s ? x->include[k].s : "", projected, KP_LIMIT_PROJECTED,
                        KP_LIMIT_PROJECTED);
                }
        free(w);
    }
}

/* A region name as AWS writes them: lower-case words and a number joined by '-' (eu-west-1,
 * us-gov-west-1, ap-southeast-2). */
static bool region_name(const char *s)
{
    size_t n = s ? strlen(s) : 0, dashes = 0;
    if (n < 4 || !(s[0] >= 'a' && s[0] <= 'z') || !(s[n - 1] >= '0' && s[n - 1] <= '9'))
        return false;
    for (size_t i = 0; i < n; i++) {
        bool ok = (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-';
        if (!ok || (s[i] == '-' && (i + 1 == n || s[i + 1] == '-')))
            return false;
        dashes += s[i] == '-';
    }
    return dashes >= 2;
}

static void check_table_limits(vctx *c)
{
    const kp_table *t = &c->d->table;
    check_dynamo_name(c, t->loc, _("table"), "table", t->name);
    for (size_t i = 0; i < t->nreplicas; i++) {
        const kp_str *r = &t->replicas[i];
        if (!region_name(r->s)) {
            diags_add(c->dg, KP_INVALID, r->loc,
                      _("table: replica '%s' is not a region name; expected a region such as eu-west-1"),
                      r->s ? r->s : "");
            continue;
        }
        for (size_t j = 0; j < i; j++)
            if (t->replicas[j].s && !strcmp(t->replicas[j].s, r->s)) {
                diags_add(c->dg, KP_DUPLICATE, r->loc,
                          _("table: replica region '%s' is listed twice; expected each region once"), r->s);
                break;
            }
    }
}

void validate_key_limits(const kp_design *d, namemap *limits)
{
    /* the first put wins: the sort keys first */
    for (int pass = 0; pass < 2; pass++)
        for (ptrdiff_t x = -1; x < (ptrdiff_t)d->nindexes; x++) {
            const kp_index *ix = x < 0 ? NULL : &d->indexes[x];
            const kp_str *k = pass ? (ix ? &ix->pk : &d->table.pk) : (ix ? &ix->sk : &d->table.sk);
            namemap_put(limits, k->s,
                        pass ? (size_t)KP_LIMIT_PK_VALUE_BYTES : (size_t)KP_LIMIT_SK_VALUE_BYTES);
        }
}

/* The width of a zero-padded number format ("03": 3) as templates apply it (at most 3 digits),
 * 0 when none. */
static double pad_width(const char *fmt)
{
    if (!fmt || !*fmt || strlen(fmt) > 3 || strspn(fmt, "0123456789") != strlen(fmt))
        return 0;
    return (double)atoi(fmt);
}

static double digits_of(int n)
{
    double k = 1;
    for (; n >= 10; n /= 10)
        k++;
    return k;
}

void validate_key_size(const kp_design *d, const tpl *t, validate_attr_fn find, const void *ctx, double *sure,
                       double *likely)
{
    double s = 0, l = 0;
    for (size_t i = 0; i < t->n; i++) {
        const tpl_part *p = &t->parts[i];
        if (p->kind == TPL_LIT) {
            s += (double)strlen(p->text);
            l += (double)strlen(p->text);
            continue;
        }
        const kp_attr *a = find ? find(ctx, p->text) : design_attr(d, p->text);
        l += capacity_attr_value_bytes(a, p->format);
        switch (a ? a->type : KP_ATTR_STRING) {
        case KP_ATTR_ENUM: {
            double longest = 0;
            for (size_t k = 0; k < a->nvalues; k++)
                if (a->values[k].name && !(a->values[k].share <= 0))
                    longest = fmax(longest, (double)strlen(a->values[k].name));
            s += longest;
            break;
        }
        case KP_ATTR_DATE:
            s += 10;
            break;
        case KP_ATTR_BOOL:
            s += 5;
            break;
        case KP_ATTR_SHARD:
            s += digits_of(a->shard_count > 1 ? a->shard_count - 1 : 0);
            break;
        case KP_ATTR_NUMBER: {
            double w = pad_width(p->format ? p->format : a->format);
            s += w > 0 ? w : 1;
            break;
        }
        default:
            s += pad_width(p->format); /* "{n:05}": a number, padded, whatever it was declared */
            break;
        }
    }
    *sure = s;
    *likely = l;
}

/* DynamoDB's type of key attribute `attr` on the items of entity e: 'N' when a single unpadded
 * number or shard placeholder (or a plain number attribute) fills it, 'S' otherwise, 0 when the
 * items do not carry it (item_key_type's rule, per entity). */
static char entity_key_type(vctx *c, const kp_entity *e, const char *attr)
{
    const kp_keytpl *k = entity_key(e, attr);
    const kp_attr *a;
    if (k) {
        if (k->tpl.n != 1 || k->tpl.parts[0].kind != TPL_ATTR || k->tpl.parts[0].format)
            return 'S';
        a = find_attr(c, k->tpl.parts[0].text);
    } else if (entity_carries(e, attr)) {
        a = find_attr(c, attr);
    } else {
        return 0;
    }
    return a && (a->type == KP_ATTR_NUMBER || a->type == KP_ATTR_SHARD) ? 'N' : 'S';
}

static const kp_attr *vfind_attr(const void *ctx, const char *name) { return find_attr(ctx, name); }

/* Key attributes of one type for every entity; key values within 2,048 / 1,024 bytes; items
 * within 400 KB. */
static void check_item_limits(vctx *c)
{
    const kp_design *d = c->d;
    for (size_t i = 0; i < c->key_attrs.n; i++) {
        const char *attr = c->key_attrs.v[i];
        const kp_entity *first[2] = {NULL, NULL}; /* the first entity with a number, with a string */
        for (size_t k = 0; k < d->nentities; k++) {
            const kp_entity *e = &d->entities[k];
            char ty = entity_key_type(c, e, attr);
            if (!ty)
                continue;
            int slot = ty == 'N' ? 0 : 1;
            if (!first[slot])
                first[slot] = e;
            const kp_entity *other = first[1 - slot];
            if (other && first[slot] == e) {
                const kp_keytpl *kt = entity_key(e, attr);
                char *w = label_entity(e, k);
                diags_add(c->dg, KP_TYPE, kt ? kt->loc : e->loc,
                          ty == 'N'
                              ? _("%s: key attribute '%s' is a number here but a string for entity '%s'; "
                                  "DynamoDB gives a key attribute one type for every item; expected the same "
                                  "type for both (a number inside a text template such as \"N#{n:05}\" is a "
                                  "string)")
                              : _("%s: key attribute '%s' is a string here but a number for entity '%s'; "
                                  "DynamoDB gives a key attribute one type for every item; expected the same "
                                  "type for both (a number inside a text template such as \"N#{n:05}\" is a "
                                  "string)"),
                          w, attr, other->name ? other->name : "?");
                free(w);
            }
        }
    }
    namemap limits = {0};
    validate_key_limits(d, &limits);
    for (size_t k = 0; k < d->nentities; k++) {
        const kp_entity *e = &d->entities[k];
        char *w = label_entity(e, k);
        if (!isnan(e->size) && e->size > CAP_ITEM_MAX_BYTES)
            diags_add(c->dg, KP_RANGE, e->loc,
                      _("%s: items of %.15g bytes are over DynamoDB's item limit of 400 KB (409600 bytes); "
                        "expected size <= 409600 (keep a large payload in S3 and its reference in the item)"),
                      w, e->size);
        for (size_t j = 0; j < e->nkeys; j++) {
            const kp_keytpl *kt = &e->keys[j];
            size_t limit;
            if (!namemap_get(&limits, kt->attr.s, &limit) || entity_key_type(c, e, kt->attr.s) != 'S')
                continue;
            double lim = (double)limit;
            double sure, likely;
            validate_key_size(d, &kt->tpl, vfind_attr, c, &sure, &likely);
            if (sure > lim)
                diags_add(
                    c->dg, KP_RANGE, kt->loc,
                    lim == KP_LIMIT_SK_VALUE_BYTES
                        ? _("%s: %s values reach %.0f bytes (literals, the longest enum values, padded "
                            "numbers); DynamoDB refuses sort key values over %.0f bytes; expected a shorter "
                            "template")
                        : _("%s: %s values reach %.0f bytes (literals, the longest enum values, padded "
                            "numbers); DynamoDB refuses partition key values over %.0f bytes; expected a "
                            "shorter template"),
                    w, kt->attr.s, sure, lim);
        }
        free(w);
    }
    namemap_free(&limits);
}

/* ---- patterns -------------------------------------------------------------------------- */

/* The pattern's entities that exist in the design, each once (out holds d->nentities). */
static size_t pattern_entities(const vctx *c, const kp_pattern *p, const kp_entity **out)
{
    size_t n = 0;
    for (size_t i = 0; i < p->nentities; i++) {
        const kp_entity *e = find_entity(c, p->entities[i].s);
        bool seen = false;
        for (size_t k = 0; k < n && e; k++)
            seen = seen || out[k] == e;
        if (e && !seen)
            out[n++] = e;
    }
    return n;
}

static bool any_knows(const kp_entity *const *es, size_t n, const char *attr)
{
    for (size_t i = 0; i < n; i++)
        if (entity_knows(es[i], attr))
            return true;
    return false;
}

/* Reports `attr` (named by `role`) when no entity of the pattern carries it. */
static void check_pattern_attr(vctx *c, lazy_label *w, const char *role, const kp_str *attr,
                               const kp_entity *const *es, size_t n)
{
    if (!attr->s || !n || any_knows(es, n, attr->s))
        return;
    names known = {0};
    for (size_t i = 0; i < n; i++)
        entity_known_names(es[i], &known);
    sbuf ents;
    sbuf_init(&ents);
    for (size_t i = 0; i < n; i++) {
        if (i)
            sbuf_add(&ents, ", ");
        sbuf_add(&ents, es[i]->name);
    }
    char *pre = xasprintf(_("%s: '%s' names '%s', which no entity of the pattern (%s) carries"),
                          label_text(w), role, attr->s, ents.s);
    report_unknown(c->dg, KP_UNKNOWN_REF, attr->loc, pre, attr->s, &known,
                   _("an attribute of the pattern's entities"));
    free(pre);
    sbuf_free(&ents);
    names_free(&known);
}

static bool is_dynamo_read(const kp_pattern *p)
{
    return p->kind == KP_READ && !p->served_by && p->needs == KP_NEEDS_NONE;
}

static void check_covered_by(vctx *c, const kp_pattern *p, lazy_label *w, const kp_entity *const *es,
                             size_t n)
{
    const kp_str *cb = &p->covered_by;
    if (!cb->s)
        return;
    if (p->id && !strcmp(cb->s, p->id)) {
        diags_add(c->dg, KP_INVALID, cb->loc,
                  _("%s: covered_by names the pattern itself; expected another read pattern"), label_text(w));
        return;
    }
    const kp_pattern *q = find_pattern(c, cb->s);
    if (!q) {
        char *pre = xasprintf(_("%s: covered_by names unknown pattern '%s'"), label_text(w), cb->s);
        report_unknown(c->dg, KP_UNKNOWN_REF, cb->loc, pre, cb->s, c->pids, _("the id of a read pattern"));
        free(pre);
        return;
    }
    if (!is_dynamo_read(q) || q->covered_by.s) {
        const char *fmt =
            q->kind == KP_WRITE
                ? _("%s: covered_by %s, which is a write; expected a read pattern served by DynamoDB")
            : q->covered_by.s
                ? _("%s: covered_by %s, which is itself covered by another pattern; expected a read pattern "
                    "served by DynamoDB")
                : _("%s: covered_by %s, which is served outside DynamoDB; expected a read pattern served by "
                    "DynamoDB");
        diags_add(c->dg, KP_INVALID, cb->loc, fmt, label_text(w), cb->s);
        return;
    }
    if (!n)
        return;
    /* valid when q's entities include one of ours, or one of q's entities carries every `by`
     * attribute of this pattern */
    for (size_t i = 0; i < q->nentities; i++)
        for (size_t k = 0; k < n; k++)
            if (q->entities[i].s && !strcmp(q->entities[i].s, es[k]->name))
                return;
    for (size_t i = 0; i < q->nentities; i++) {
        const kp_entity *qe = find_entity(c, q->entities[i].s);
        if (!qe || !p->nby)
            continue;
        bool all = true;
        for (size_t k = 0; k < p->nby; k++)
            if (!entity_knows(qe, p->by[k].attr.s))
                all = false;
        if (all)
            return;
    }
    diags_add(c->dg, KP_INVALID, cb->loc,
              _("%s: covered_by %s, whose result cannot hold this pattern's data; expected a "
                "pattern whose entities include %s or carry every 'by' attribute"),
              label_text(w), cb->s, es[0]->name);
}

/* Checks pattern i; es has room for the design's entities. */
static void check_pattern(vctx *c, size_t i, const kp_entity **es)
{
    const kp_design *d = c->d;
    {
        const kp_pattern *p = &d->patterns[i];
        lazy_label w = {.p = p, .i = i}; /* its label made when a message needs it */
        if (!p->id || !*p->id)
            diags_add(c->dg, KP_MISSING_KEY, p->loc,
                      _("%s: 'id' is missing; expected a unique id (a number or a short name)"),
                      label_text(&w));
        size_t first = names_add_tag(c->pids, p->id, i);
        if (first != i)
            diags_add(c->dg, KP_DUPLICATE, p->loc,
                      _("%s: id %s is used twice (first at line %d); expected unique pattern ids"),
                      label_text(&w), p->id, d->patterns[first].loc.line);
        if (!p->name || !*p->name)
            diags_add(c->dg, KP_MISSING_KEY, p->loc,
                      _("%s: 'name' is missing; expected a short description of the pattern"),
                      label_text(&w));
        if (!p->nentities && !p->served_by && p->needs == KP_NEEDS_NONE)
            diags_add(c->dg, KP_MISSING_KEY, p->loc,
                      _("%s names no entity; expected entity: X or entities: [X, Y] "
                        "(or served_by: for what DynamoDB cannot serve)"),
                      label_text(&w));
        for (size_t k = 0; k < p->nentities; k++) {
            const char *en = p->entities[k].s;
            bool twice = false;
            for (size_t j = 0; j < k && en; j++)
                twice = twice || (p->entities[j].s && !strcmp(p->entities[j].s, en));
            if (twice) {
                diags_add(c->dg, KP_DUPLICATE, p->entities[k].loc,
                          _("%s: entity '%s' is listed twice; expected each entity of the pattern once"),
                          label_text(&w), en);
                continue;
            }
            if (!en || find_entity(c, en))
                continue;
            char *pre = xasprintf(_("%s: unknown entity '%s'"), label_text(&w), en);
            report_unknown(c->dg, KP_UNKNOWN_REF, p->entities[k].loc, pre, en, &c->entity_names,
                           _("an entity of the design"));
            free(pre);
        }
        size_t n = d->nentities ? pattern_entities(c, p, es) : 0;
        for (size_t k = 0; k < p->nby; k++) {
            check_pattern_attr(c, &w, "by", &p->by[k].attr, es, n);
            const kp_attr *a = find_attr(c, p->by[k].attr.s);
            if (!p->by[k].value || !a || a->type != KP_ATTR_ENUM || !a->nvalues)
                continue;
            names vals = {0};
            for (size_t j = 0; j < a->nvalues; j++)
                names_add(&vals, a->values[j].name);
            if (!names_has(&vals, p->by[k].value)) {
                char *pre = xasprintf(_("%s: 'by' fixes %s to '%s', which is not a value of enum '%s'"),
                                      label_text(&w), a->name, p->by[k].value, a->name);
                report_unknown(c->dg, KP_UNKNOWN_REF, p->by[k].attr.loc, pre, p->by[k].value, &vals,
                               _("a value of the enum"));
                free(pre);
            }
            names_free(&vals);
        }
        check_pattern_attr(c, &w, "range", &p->range, es, n);
        check_pattern_attr(c, &w, "order", &p->order, es, n);
        for (size_t k = 0; k < p->nfilter; k++)
            check_pattern_attr(c, &w, "filter", &p->filter[k], es, n);
        for (size_t k = 0; k < p->njoin; k++) {
            check_pattern_attr(c, &w, "join", &p->join[k].to, es, n);
            check_pattern_attr(c, &w, "join", &p->join[k].from, es, n);
        }
        if (p->njoin && p->nentities < 2)
            diags_add(c->dg, KP_INVALID, p->join[0].to.loc,
                      _("%s: a join needs two entities; expected entities: [A, B]"), label_text(&w));
        for (size_t k = 0; k < p->nchanges; k++)
            check_pattern_attr(c, &w, "changes", &p->changes[k], es, n);
        if (p->nchanges && p->kind != KP_WRITE)
            diags_add(c->dg, KP_INVALID, p->changes[0].loc,
                      _("%s: 'changes' on a read pattern; expected kind: write"), label_text(&w));
        for (size_t k = 0; k < p->nreturns; k++)
            check_pattern_attr(c, &w, "returns", &p->returns[k], es, n);
        if (p->nreturns && p->kind != KP_READ)
            diags_add(c->dg, KP_INVALID, p->returns[0].loc,
                      _("%s: 'returns' on a write pattern; expected kind: read"), label_text(&w));
        if (p->op != KP_OP_PUT && p->kind != KP_WRITE)
            diags_add(c->dg, KP_INVALID, p->loc, _("%s: op %s on a read pattern; expected kind: write"),
                      label_text(&w), kp_write_op_name(p->op));
        check_figures(c, &kp_rec_pattern, p, p->loc, &w);
        check_covered_by(c, p, &w, es, n);
        free(w.made);
    }
}

static void check_patterns(vctx *c)
{
    const kp_design *d = c->d;
    const kp_entity **es = d->nentities ? xcalloc(d->nentities + 1, sizeof *es) : NULL;
    for (size_t i = 0; i < d->npatterns; i++) {
        if (c->at)
            c->at[i] = c->dg->n;
        check_pattern(c, i, es);
    }
    if (c->at)
        c->at[d->npatterns] = c->dg->n;
    free(es);
}

/* ---- pricing, alerts, decisions -------------------------------------------------------- */

static void check_pricing(vctx *c)
{
    const kp_pricing *p = &c->d->pricing;
    check_figures(c, &kp_rec_pricing, p, p->loc, &(lazy_label){.s = _("pricing")});
    if (p->base && strcmp(p->base, "aws-us-east-1") != 0)
        diags_add(c->dg, KP_INVALID, p->loc,
                  _("pricing: unknown base price table '%s'; expected aws-us-east-1"), p->base);
}

/* The name between the kind and the field of "kind.<name>.field". */
static char *metric_name(const char *metric)
{
    const char *dot = strchr(metric, '.'), *last = strrchr(metric, '.');
    if (!dot || last <= dot)
        return NULL;
    return xstrndup(dot + 1, (size_t)(last - dot - 1));
}

static void check_signal(vctx *c, const char *w, const kp_signal *g)
{
    char *why = NULL;
    if (!g->metric || sig_metric_check(g->metric, &why) != KP_OK) {
        diags_add(c->dg, KP_SIGNAL, g->loc, _("%s: signal \"%s\" names no known metric '%s'; %s"), w,
                  g->src ? g->src : "", g->metric ? g->metric : "",
                  why ? why : _("expected pattern.<id>.rate and the like"));
        free(why);
        return;
    }
    char *name = metric_name(g->metric);
    if (!name)
        return;
    const names *cands = NULL;
    const char *what = NULL;
    names idx = {0};
    if (!strncmp(g->metric, "pattern.", 8)) {
        cands = c->pids, what = _("%s: signal \"%s\" names unknown pattern '%s'");
    } else if (!strncmp(g->metric, "entity.", 7)) {
        cands = &c->entity_names, what = _("%s: signal \"%s\" names unknown entity '%s'");
    } else if (!strncmp(g->metric, "index.", 6)) {
        for (size_t i = 0; i < c->index_names.n; i++)
            names_add(&idx, c->index_names.v[i]);
        names_add(&idx, "table");
        names_add(&idx, c->d->table.name);
        cands = &idx, what = _("%s: signal \"%s\" names unknown index '%s'");
    }
    if (cands && !names_has(cands, name)) {
        char *pre = xasprintf(what, w, g->src ? g->src : g->metric, name);
        report_unknown(c->dg, KP_UNKNOWN_REF, g->loc, pre, name, cands, _("a name from the design"));
        free(pre);
    }
    names_free(&idx);
    free(name);
}

static void check_decisions(vctx *c)
{
    const kp_design *d = c->d;
    for (size_t i = 0; i < d->ndecisions; i++) {
        const kp_decision *x = &d->decisions[i];
        char *w = label_decision(x, i);
        if (!x->id || !*x->id)
            diags_add(c->dg, KP_MISSING_KEY, x->loc,
                      _("%s: 'id' is missing; expected a unique id such as D1"), w);
        size_t first = names_add_tag(&c->decision_ids, x->id, i);
        if (first != i)
            diags_add(c->dg, KP_DUPLICATE, x->loc,
                      _("%s: id %s is used twice (first at line %d); expected unique decision ids"), w, x->id,
                      d->decisions[first].loc.line);
        for (size_t k = 0; k < x->npatterns; k++) {
            const kp_str *pid = &x->patterns[k];
            if (!pid->s || find_pattern(c, pid->s))
                continue;
            char *pre = xasprintf(_("%s: unknown pattern '%s'"), w, pid->s);
            report_unknown(c->dg, KP_UNKNOWN_REF, pid->loc, pre, pid->s, c->pids, _("the id of a pattern"));
            free(pre);
        }
        for (size_t k = 0; k < x->nsignals; k++)
            check_signal(c, w, &x->signals[k]);
        free(w);
    }
}

/* ---- name lengths ------------------------------------------------------------------------ */

/* The longest name or id: DynamoDB's limit for a key attribute's name, 255 bytes, kept for every
 * name keyplan uses (attributes, entities, pattern and decision ids), so that none can grow past
 * what a key attribute holds or make a report line of megabytes. */
#define NAME_MAX_BYTES 255

/* what: untranslated (N_), translated when the name is too long (not for each of 10,000 ids) */
static void name_length(const vctx *c, const char *what, const char *s, kp_loc loc)
{
    size_t n = s ? strlen(s) : 0;
    if (n > NAME_MAX_BYTES)
        diags_add(c->dg, KP_RANGE, loc,
                  _("%s of %zu bytes; expected at most %d bytes (DynamoDB's limit for a key "
                    "attribute's name)"),
                  _(what), n, NAME_MAX_BYTES);
}

static void check_name_lengths(const vctx *c)
{
    const kp_design *d = c->d;
    name_length(c, N_("the table's partition key name"), d->table.pk.s, d->table.pk.loc);
    name_length(c, N_("the table's sort key name"), d->table.sk.s, d->table.sk.loc);
    for (size_t i = 0; i < d->nindexes; i++) {
        name_length(c, N_("an index's partition key name"), d->indexes[i].pk.s, d->indexes[i].pk.loc);
        name_length(c, N_("an index's sort key name"), d->indexes[i].sk.s, d->indexes[i].sk.loc);
    }
    for (size_t i = 0; i < d->nattrs; i++)
        name_length(c, N_("an attribute name"), d->attrs[i].name, d->attrs[i].loc);
    for (size_t i = 0; i < d->nentities; i++) {
        const kp_entity *e = &d->entities[i];
        name_length(c, N_("an entity name"), e->name, e->loc);
        for (size_t k = 0; k < e->nattrs; k++)
            name_length(c, N_("an attribute name"), e->attrs[k].s, e->attrs[k].loc);
        for (size_t k = 0; k < e->nkeys; k++)
            name_length(c, N_("a key attribute name"), e->keys[k].attr.s, e->keys[k].attr.loc);
    }
    for (size_t i = 0; i < d->npatterns; i++)
        name_length(c, N_("a pattern id"), d->patterns[i].id, d->patterns[i].loc);
    for (size_t i = 0; i < d->ndecisions; i++)
        name_length(c, N_("a decision id"), d->decisions[i].id, d->decisions[i].loc);
}

static void vctx_free(vctx *c)
{
    names_free(&c->key_attrs);
    names_free(&c->all_attrs);
    names_free(&c->entity_names);
    names_free(&c->pattern_ids);
    names_free(&c->index_names);
    names_free(&c->attr_names);
    names_free(&c->decision_ids);
}

/* The checks after the patterns' (they read the set of pattern ids, not the patterns' other
 * fields). */
/* The checks before the patterns': the table's, the indexes', the attributes', the entities'. */
static void checks_before_patterns(vctx *c)
{
    check_table(c);
    check_indexes(c);
    check_attrs(c);
    check_entities(c);
}

static void checks_after_patterns(vctx *c)
{
    check_pricing(c);
    check_decisions(c);
    check_table_limits(c);
    check_index_limits(c);
    check_item_limits(c);
    check_name_lengths(c);
}

/* validate_design, with where each pattern's diagnostics start in *at (npatterns + 1, NULL: not
 * wanted); pids: the set of d's pattern ids, each tagged with its first position (a memo's), or
 * NULL (made here). */
static bool validate_at(const kp_design *d, kp_diags *diags, size_t *at, names *pids)
{
    size_t before = diags->errors;
    vctx c = {.d = d, .dg = diags, .at = at, .pids = pids};
    if (!c.pids)
        c.pids = &c.pattern_ids;
    collect(&c);
    checks_before_patterns(&c);
    check_patterns(&c);
    checks_after_patterns(&c);
    vctx_free(&c);
    return diags->errors == before;
}

bool validate_design(const kp_design *d, kp_diags *diags) { return validate_at(d, diags, NULL, NULL); }

bool validate_after_patterns(const kp_design *d, kp_diags *diags)
{
    size_t before = diags->errors;
    vctx c = {.d = d, .dg = diags};
    c.pids = &c.pattern_ids;
    collect(&c);
    checks_after_patterns(&c);
    vctx_free(&c);
    return diags->errors == before;
}

/* Whether dg (released here) holds no error; else its first error in *msg (when msg is not NULL,
 * and *msg NULL; caller frees). */
static bool first_error(kp_diags *dg, char **msg)
{
    bool ok = dg->errors == 0;
    if (!ok && msg)
        for (size_t i = 0; i < dg->n && !*msg; i++)
            if (dg->v[i].sev == KP_SEV_ERROR)
                *msg = xstrdup(dg->v[i].msg);
    diags_free(dg);
    return ok;
}

struct validate_after {
    vctx c;
};

validate_after *validate_after_open(const kp_design *d)
{
    validate_after *t = xcalloc(1, sizeof *t);
    t->c = (vctx){.d = d};
    t->c.pids = &t->c.pattern_ids;
    collect(&t->c); /* the names, once; the decisions' ids are made again at each check */
    return t;
}

bool validate_after_check(validate_after *t, char **msg)
{
    vctx *c = &t->c;
    const kp_design *d = c->d;
    names_free(&c->decision_ids); /* check_decisions makes it from the decisions as they are now */
    kp_diags dg;
    diags_init(&dg, NULL);
    c->dg = &dg;
    /* the checks after the patterns' that read the decisions: the others passed without them */
    check_decisions(c);
    for (size_t i = 0; i < d->ndecisions; i++)
        name_length(c, N_("a decision id"), d->decisions[i].id, d->decisions[i].loc);
    c->dg = NULL;
    return first_error(&dg, msg);
}

void validate_after_close(validate_after *t)
{
    if (!t)
        return;
    vctx_free(&t->c);
    free(t);
}

struct validate_trials {
    kp_design model; /* the model's fields (shared, not owned), the trial's patterns */
    vctx c;
    const kp_entity **es;
};

validate_trials *validate_trials_open(const kp_design *d)
{
    validate_trials *t = xcalloc(1, sizeof *t);
    t->model = *d;
    t->model.patterns = NULL;
    t->model.npatterns = 0;
    t->model.decisions = NULL;
    t->model.ndecisions = 0;
    t->c = (vctx){.d = &t->model};
    t->c.pids = &t->c.pattern_ids;
    collect(&t->c); /* the model's names, once */
    t->es = xcalloc(d->nentities + 1, sizeof *t->es);
    return t;
}

bool validate_trial(validate_trials *t, kp_pattern *ps, size_t n, char **msg)
{
    vctx *c = &t->c;
    t->model.patterns = ps;
    t->model.npatterns = n;
    names_free(&c->pattern_ids);
    kp_diags dg;
    diags_init(&dg, NULL);
    c->dg = &dg;
    /* what validate_design reports of the model with these patterns alone: their checks (the
       model's read none of them), then the lengths of their ids (the one check after theirs that
       reads them) */
    for (size_t i = 0; i < n; i++)
        names_add_tag(c->pids, ps[i].id, i);
    for (size_t i = 0; i < n; i++)
        check_pattern(c, i, t->es);
    for (size_t i = 0; i < n; i++)
        name_length(c, N_("a pattern id"), ps[i].id, ps[i].loc);
    bool ok = first_error(&dg, msg);
    c->dg = NULL;
    t->model.patterns = NULL;
    t->model.npatterns = 0;
    return ok;
}

void validate_trials_close(validate_trials *t)
{
    if (!t)
        return;
    vctx_free(&t->c);
    free(t->es);
    free(t);
}

/* Empties the list (its file stays). */
static void diags_clear(kp_diags *dg)
{
    for (size_t i = 0; i < dg->n; i++)
        free(dg->v[i].msg);
    dg->n = dg->errors = 0;
}

bool validate_design_memo(const kp_design *d, kp_diags *diags, validate_memo *m)
{
    diags_clear(diags);
    free(m->at);
    memo_ids_free(m->ids);
    m->npatterns = d->npatterns;
    m->at = xmalloc((d->npatterns + 1) * sizeof *m->at);
    m->ids = memo_ids_new(d);
    bool ok = validate_at(d, diags, m->at, &m->ids->set);
    m->n = diags->n;
    return ok;
}

/* Appends src's diagnostics to v (nv of cap), taking their messages. */
static void diags_take(kp_diag **v, size_t *nv, size_t *cap, const kp_diag *src, size_t n)
{
    if (*nv + n > *cap) {
        *cap = *nv + n + *cap / 2;
        *v = xrealloc(*v, *cap * sizeof **v);
    }
    if (n)
        memcpy(*v + *nv, src, n * sizeof **v);
    *nv += n;
}

/* Appends every diagnostic of src to v (nv of cap) and releases src (its messages are v's). */
static void diags_take_all(kp_diag **v, size_t *nv, size_t *cap, kp_diags *src)
{
    diags_take(v, nv, cap, src->v, src->n);
    free(src->v);
    src->v = NULL;
    src->n = 0;
    diags_free(src);
}

/* Makes v[0..nv) (room for cap) the list of diags (its old array released: the messages are
 * v's) and of m; true when no error. */
static bool diags_install(kp_diags *diags, validate_memo *m, kp_diag *v, size_t nv, size_t cap)
{
    free(diags->v);
    diags->v = v;
    diags->n = m->n = nv;
    diags->cap = cap;
    diags->errors = 0;
    for (size_t i = 0; i < nv; i++)
        diags->errors += v[i].sev == KP_SEV_ERROR;
    return diags->errors == 0;
}

/* Each pattern's diagnostics appended to v (nv of cap) after an edit: pattern i's checked again
 * when again(c, i, arg) says its checks read what changed (its old ones' messages released),
 * else taken as they were; at[i] says where they now start. */
static void patterns_again(vctx *c, kp_diags *diags, size_t *at, kp_diag **v, size_t *nv, size_t *cap,
                           bool (*again)(const vctx *c, size_t i, const void *arg), const void *arg)
{
    const kp_design *d = c->d;
    const kp_entity **es = d->nentities ? xcalloc(d->nentities + 1, sizeof *es) : NULL;
    for (size_t i = 0; i < d->npatterns; i++) {
        size_t from = at[i], to = at[i + 1];
        at[i] = *nv;
        if (!again(c, i, arg)) {
            diags_take(v, nv, cap, diags->v + from, to - from);
            continue;
        }
        for (size_t k = from; k < to; k++)
            free(diags->v[k].msg);
        kp_diags fresh;
        diags_init(&fresh, NULL);
        c->dg = &fresh;
        check_pattern(c, i, es);
        diags_take_all(v, nv, cap, &fresh);
    }
    free(es);
}

/* After an edit of pattern *row: whether pattern i's checks read it (it is the pattern, or it is
 * covered_by its id). */
static bool reads_pattern(const vctx *c, size_t i, const void *arg)
{
    size_t row = *(const size_t *)arg;
    const char *id = c->d->patterns[row].id, *cb = c->d->patterns[i].covered_by.s;
    return i == row || (id && cb && strcmp(cb, id) == 0);
}

bool validate_pattern_edit(const kp_design *d, size_t row, kp_diags *diags, validate_memo *m)
{
    size_t n = d->npatterns;
    memo_ids *ids = m->ids;
    if (!m->at || !ids || m->npatterns != n || ids->n != n || m->n != diags->n || row >= n ||
        !(ids->own[row] ? d->patterns[row].id && strcmp(ids->own[row], d->patterns[row].id) == 0
                        : !d->patterns[row].id))
        return validate_design_memo(d, diags, m);
    vctx c = {.d = d, .pids = &ids->set}; /* the ids are those of the design before: unchanged */
    collect(&c);
    /* the patterns whose checks read the edited one: itself, and those covered_by its id */
    kp_diag *v = xmalloc((diags->n + 1) * sizeof *v);
    size_t nv = 0, cap = diags->n + 1, *at = m->at;
    diags_take(&v, &nv, &cap, diags->v, at[0]); /* the checks before the patterns' */
    patterns_again(&c, diags, at, &v, &nv, &cap, reads_pattern, &row);
    size_t after = at[n]; /* the checks after the patterns' */
    at[n] = nv;
    diags_take(&v, &nv, &cap, diags->v + after, diags->n - after);
    vctx_free(&c);
    return diags_install(diags, m, v, nv, cap);
}

bool validate_rows_edit(const kp_design *d, kp_rowop op, kp_diags *diags, validate_memo *m)
{
    size_t n = d->npatterns, was = m->npatterns;
    memo_ids *old = m->ids;
    bool fits = m->at && old && old->n == was && m->n == diags->n && kp_rowop_fits(op, was) &&
                kp_rowop_count(op, was) == n;
    if (!fits)
        return validate_design_memo(d, diags, m);
    /* the ids in the new order (first positions and listed order), and the id the step added,
       took out or moved (duplicates of it see another first one: when some id was or is used
       twice, the patterns with it are looked for) */
    size_t distinct = old->set.n;
    char *gone;
    m->ids = memo_ids_step(old, d, op, &gone);
    const char *id =
        op.kind == KP_ROW_REMOVE ? gone : d->patterns[op.kind == KP_ROW_MOVE ? op.to : op.row].id;
    bool twice = distinct < was || m->ids->set.n < n;
    /* a pattern without an id is named by its position, which the step moves: checked whole */
    bool named = true;
    for (size_t i = 0; named && i < n; i++)
        named = m->ids->own[i] != NULL;
    if (!named) {
        free(gone);
        return validate_design_memo(d, diags, m);
    }
    vctx c = {.d = d, .pids = &m->ids->set};
    collect(&c);
    const kp_entity **es = d->nentities ? xcalloc(d->nentities + 1, sizeof *es) : NULL;
    /* where each new position's pattern was: its diagnostics' segment in the old list */
    size_t *from = xmalloc((n + 1) * sizeof *from);
    for (size_t j = 0, i = 0; j < n; j++) {
        if (op.kind == KP_ROW_INSERT)
            from[j] = j == op.row ? (size_t)-1 : j < op.row ? j : j - 1;
        else if (op.kind == KP_ROW_REMOVE)
            from[j] = j < op.row ? j : j + 1;
        else
            from[j] = i++;
    }
    if (op.kind == KP_ROW_MOVE)
        kp_rowop_shift(from, n, sizeof *from, op);
    size_t *at = m->at, *nat = xmalloc((n + 1) * sizeof *nat);
    size_t cap = diags->n + 16, nv = 0;
    kp_diag *v = xmalloc(cap * sizeof *v);
    diags_take(&v, &nv, &cap, diags->v, at[0]); /* the checks before the patterns' */
    bool *kept = xcalloc(was + 1, sizeof *kept);
    for (size_t j = 0; j < n; j++) {
        const kp_pattern *p = &d->patterns[j];
        nat[j] = nv;
        size_t f = from[j];
        /* checked again: a new pattern, the ones with its id, and every covered_by (its target is
           found by id; an unknown one's message lists the ids, which the step changed) */
        if (f == (size_t)-1 || p->covered_by.s || (twice && id && strcmp(p->id, id) == 0)) {
            kp_diags fresh;
            diags_init(&fresh, NULL);
            c.dg = &fresh;
            check_pattern(&c, j, es);
            diags_take_all(&v, &nv, &cap, &fresh);
            continue;
        }
        diags_take(&v, &nv, &cap, diags->v + at[f], at[f + 1] - at[f]);
        kept[f] = true;
    }
    nat[n] = nv;
    /* the checks after the patterns' read the set of ids: made again */
    kp_diags after;
    diags_init(&after, NULL);
    c.dg = &after;
    checks_after_patterns(&c);
    diags_take_all(&v, &nv, &cap, &after);
    /* the messages not taken into the new list: those of the patterns checked again or gone, and
       the old checks after the patterns' */
    for (size_t i = 0; i < was; i++)
        for (size_t k = at[i]; !kept[i] && k < at[i + 1]; k++)
            free(diags->v[k].msg);
    for (size_t k = at[was]; k < diags->n; k++)
        free(diags->v[k].msg);
    free(kept);
    free(from);
    free(at);
    free(gone);
    m->at = nat;
    m->npatterns = n;
    free(es);
    vctx_free(&c);
    return diags_install(diags, m, v, nv, cap);
}

/* `checks` run on c, their diagnostics appended to v (nv of cap). */
static void take_checks(vctx *c, void (*checks)(vctx *), kp_diag **v, size_t *nv, size_t *cap)
{
    kp_diags fresh;
    diags_init(&fresh, NULL);
    c->dg = &fresh;
    checks(c);
    diags_take_all(v, nv, cap, &fresh);
}

/* The start of a list made again after an edit that changed no pattern's id nor their number:
 * false when m and diags do not fit d (then the caller validates whole); else c holds d's names
 * (the memo's ids) and the new list v (nv of cap) the checks before the patterns' made again,
 * the old ones' messages released. */
static bool start_same_ids(const kp_design *d, kp_diags *diags, validate_memo *m, vctx *c, kp_diag **v,
                           size_t *nv, size_t *cap)
{
    size_t n = d->npatterns;
    memo_ids *ids = m->ids;
    if (!m->at || !ids || m->npatterns != n || ids->n != n || m->n != diags->n)
        return false;
    *c = (vctx){.d = d, .pids = &ids->set}; /* the patterns' ids are unchanged */
    collect(c);
    *nv = 0;
    *cap = diags->n + 16;
    *v = xmalloc(*cap * sizeof **v);
    take_checks(c, checks_before_patterns, v, nv, cap);
    for (size_t k = 0; k < m->at[0]; k++)
        free(diags->v[k].msg);
    return true;
}

/* Its end: the old checks after the patterns' (from old_after in diags) released, made again
 * into v, and v installed as the list (start_same_ids' c released). */
static bool finish_same_ids(vctx *c, kp_diags *diags, validate_memo *m, size_t old_after, kp_diag *v,
                            size_t nv, size_t cap)
{
    for (size_t k = old_after; k < diags->n; k++)
        free(diags->v[k].msg);
    take_checks(c, checks_after_patterns, &v, &nv, &cap);
    vctx_free(c);
    return diags_install(diags, m, v, nv, cap);
}

bool validate_index_rows_edit(const kp_design *d, kp_diags *diags, validate_memo *m)
{
    return validate_rest_edit(d, diags, m); /* the same: the patterns' checks read no index */
}

bool validate_rest_edit(const kp_design *d, kp_diags *diags, validate_memo *m)
{
    vctx c;
    kp_diag *v;
    size_t nv, cap, n = d->npatterns, *at = m->at;
    if (!start_same_ids(d, diags, m, &c, &v, &nv, &cap))
        return validate_design_memo(d, diags, m);
    /* each pattern's, as they were: they read the model alone */
    size_t shift = nv - at[0], after = at[n];
    diags_take(&v, &nv, &cap, diags->v + at[0], at[n] - at[0]);
    for (size_t i = 0; i <= n; i++)
        at[i] += shift; /* a size_t's wrap-around subtracts when fewer came before */
    /* the checks after the patterns' (the decisions, the alerts), made again */
    return finish_same_ids(&c, diags, m, after, v, nv, cap);
}

/* After an edit of the entity named *arg: whether pattern i's checks read it (the pattern names
 * it, or its covered_by target, found by id through c, does). */
static bool reads_entity(const vctx *c, size_t i, const void *arg)
{
    const char *name = arg;
    const kp_pattern *p = &c->d->patterns[i];
    for (size_t k = 0; name && k < p->nentities; k++)
        if (p->entities[k].s && strcmp(p->entities[k].s, name) == 0)
            return true;
    const kp_pattern *q = p->covered_by.s ? find_pattern(c, p->covered_by.s) : NULL;
    for (size_t k = 0; name && q && k < q->nentities; k++)
        if (q->entities[k].s && strcmp(q->entities[k].s, name) == 0)
            return true;
    return false;
}

/* An attribute's name before and after an edit of it (the same when it kept its name; either
 * may be NULL). */
typedef struct attr_change {
    const char *old, *now;
} attr_change;

/* After an edit of attribute *arg: whether pattern i's checks read it (a `by` names it by either
 * name: its enum values, found by name). */
static bool reads_attr(const vctx *c, size_t i, const void *arg)
{
    const attr_change *ch = arg;
    const kp_pattern *p = &c->d->patterns[i];
    for (size_t k = 0; k < p->nby; k++) {
        const char *a = p->by[k].attr.s;
        if (a && ((ch->old && strcmp(a, ch->old) == 0) || (ch->now && strcmp(a, ch->now) == 0)))
            return true;
    }
    return false;
}

/* After an edit of an index: no pattern's checks read the indexes. */
static bool reads_nothing(const vctx *c, size_t i, const void *arg)
{
    (void)c, (void)i, (void)arg;
    return false;
}

bool validate_row_edit(const kp_design *d, edit_table t, size_t row, kp_diags *diags, validate_memo *m)
{
    vctx c;
    kp_diag *v;
    size_t nv, cap, n = d->npatterns, *at = m->at;
    bool ent = t == EDIT_ENTITIES || t == EDIT_KEYS;
    if ((!ent && t != EDIT_ATTRS && t != EDIT_INDEXES) || row >= edit_nrows(d, t) ||
        (t == EDIT_ATTRS && (!m->ids || m->ids->nattrs != d->nattrs)) ||
        !start_same_ids(d, diags, m, &c, &v, &nv, &cap))
        return validate_design_memo(d, diags, m);
    /* each pattern's: checked again when they read the element (an entity's name is the one it
       had: a rename is no such edit; an attribute's may be another, the memo has the old one),
       else as they were */
    if (ent) {
        patterns_again(&c, diags, at, &v, &nv, &cap, reads_entity, d->entities[row].name);
    } else if (t == EDIT_ATTRS) {
        char **was = &m->ids->attrs[row];
        attr_change ch = {*was, d->attrs[row].name};
        patterns_again(&c, diags, at, &v, &nv, &cap, reads_attr, &ch);
        if (!(*was == ch.now || (*was && ch.now && strcmp(*was, ch.now) == 0))) {
            free(*was);
            *was = ch.now ? xstrdup(ch.now) : NULL;
        }
    } else
        patterns_again(&c, diags, at, &v, &nv, &cap, reads_nothing, NULL);
    /* the checks after the patterns' (item sizes and key limits read the entities), made again */
    size_t after = at[n];
    at[n] = nv;
    return finish_same_ids(&c, diags, m, after, v, nv, cap);
}

/* After entity *arg was renamed: whether pattern i's checks read it (reads_entity), or name an
 * entity the design lacks (their message suggests the design's entities by name). */
static bool reads_renamed(const vctx *c, size_t i, const void *arg)
{
    const kp_pattern *p = &c->d->patterns[i];
    for (size_t k = 0; k < p->nentities; k++)
        if (p->entities[k].s && !find_entity(c, p->entities[k].s))
            return true;
    return reads_entity(c, i, arg);
}

bool validate_entity_rename(const kp_design *d, size_t row, kp_diags *diags, validate_memo *m)
{
    vctx c;
    kp_diag *v;
    size_t nv, cap, n = d->npatterns, *at = m->at;
    if (row >= d->nentities || !start_same_ids(d, diags, m, &c, &v, &nv, &cap))
        return validate_design_memo(d, diags, m);
    patterns_again(&c, diags, at, &v, &nv, &cap, reads_renamed, d->entities[row].name);
    size_t after = at[n];
    at[n] = nv;
    return finish_same_ids(&c, diags, m, after, v, nv, cap);
}

/* A pattern's id changed from old to now (either may be NULL): the ids the change reaches. */
typedef struct id_change {
    size_t row;
    const char *old, *now;
} id_change;

/* After pattern *arg's id changed: whether pattern i's checks read it (it is the pattern; its id
 * is one of the two, so which pattern is first with it may change; it has a covered_by, found by
 * id, whose message when unknown lists the ids). */
static bool reads_id(const vctx *c, size_t i, const void *arg)
{
    const id_change *ch = arg;
    const kp_pattern *p = &c->d->patterns[i];
    return i == ch->row || p->covered_by.s ||
           (p->id && ((ch->old && strcmp(p->id, ch->old) == 0) || (ch->now && strcmp(p->id, ch->now) == 0)));
}

bool validate_pattern_id_edit(const kp_design *d, size_t row, kp_diags *diags, validate_memo *m)
{
    size_t n = d->npatterns;
    memo_ids *ids = m->ids;
    if (!m->at || !ids || m->npatterns != n || ids->n != n || m->n != diags->n || row >= n)
        return validate_design_memo(d, diags, m);
    /* the memo's ids take the new one; their set is made again (first positions), none copied */
    char *old = ids->own[row];
    ids->own[row] = d->patterns[row].id ? xstrdup(d->patterns[row].id) : NULL;
    memo_ids_rehash(ids);
    vctx c;
    kp_diag *v;
    size_t nv, cap, *at = m->at;
    start_same_ids(d, diags, m, &c, &v, &nv, &cap); /* fits: checked above */
    id_change ch = {row, old, ids->own[row]};
    patterns_again(&c, diags, at, &v, &nv, &cap, reads_id, &ch);
    free(old);
    size_t after = at[n];
    at[n] = nv;
    /* the checks after the patterns' (decisions and signals name pattern ids; id lengths) */
    return finish_same_ids(&c, diags, m, after, v, nv, cap);
}

void validate_memo_free(validate_memo *m)
{
    memo_ids_free(m->ids);
    free(m->at);
    *m = (validate_memo){0};
}
