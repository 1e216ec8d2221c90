/* diff.c - the designer's diff of two designs and their analyses (the rules in diff.h). */
#include "diff.h"

#include "analysis_stages.h"
#include "capacity.h"
#include "fields.h"
#include "humanfmt.h"
#include "i18n.h"
#include "display.h"
#include "textf.h"

#include <math.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char *const section_titles[] = {
#define KP_DIFF_TITLE(name, title) title,
    KP_DIFF_SECTIONS(KP_DIFF_TITLE)
#undef KP_DIFF_TITLE
};

const char *diff_section_title(diff_section s)
{
    return (unsigned)s < DIFF__COUNT ? _(section_titles[s]) : "?";
}

static diff_item *add(kp_diff *d, diff_section sec, diff_change ch, const char *what, const char *before,
                      const char *after, const char *subject_fmt, ...) __attribute__((format(printf, 7, 8)));
static diff_item *add(kp_diff *d, diff_section sec, diff_change ch, const char *what, const char *before,
                      const char *after, const char *subject_fmt, ...)
{
    VEC_GROW(d->v, d->n, d->cap);
    diff_item *it = &d->v[d->n++];
    memset(it, 0, sizeof *it);
    it->section = sec;
    it->change = ch;
    va_list ap;
    va_start(ap, subject_fmt);
    it->subject = xvasprintf(subject_fmt, ap);
    va_end(ap);
    it->what = xstrdup(what ? what : "");
    it->before = xstrdup(before);
    it->after = xstrdup(after);
    it->num_before = NAN;
    it->num_after = NAN;
    return it;
}

static bool s_eq(const char *a, const char *b) { return strcmp(a ? a : "", b ? b : "") == 0; }

static bool n_eq(double a, double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    double m = fmax(fabs(a), fabs(b));
    return fabs(a - b) <= 1e-9 * (m > 1 ? m : 1);
}

/* A figure as the diff writes it (HF_NUM_DIFF), with its unit when it is given. Caller frees. */
static char *num_text(double v, const char *unit)
{
    sbuf b;
    sbuf_init(&b);
    humanfmt_add(&b, v, HF_NUM_DIFF);
    if (unit && !isnan(v)) {
        sbuf_addc(&b, ' ');
        sbuf_add(&b, unit);
    }
    return sbuf_steal(&b);
}

static void num_change(kp_diff *d, diff_section sec, const char *subject, const char *what, double before,
                       double after, const char *unit)
{
    if (n_eq(before, after))
        return;
    char *bs = num_text(before, unit), *as = num_text(after, unit);
    diff_item *it = add(d, sec, DIFF_CHANGED, what, bs, as, "%s", subject);
    it->num_before = before;
    it->num_after = after;
    free(bs);
    free(as);
}

static void text_change(kp_diff *d, diff_section sec, const char *subject, const char *what,
                        const char *before, const char *after)
{
    if (s_eq(before, after))
        return;
    add(d, sec, DIFF_CHANGED, what, before && *before ? before : _("(none)"),
        after && *after ? after : _("(none)"), "%s", subject);
}

/* ---- the fields a designer follows ------------------------------------------------------- */

/* A field of a record (model/fields.h) as the diff names it: numbers compare with a unit, texts,
 * names and enum words as text, lists by their length. */
typedef struct diff_field {
    int id;
    const char *what;
    const char *unit;
} diff_field;

static const diff_field DESIGN_FIELDS[] = {{FW_NAME, N_("name"), NULL}};
static const diff_field PATTERN_FIELDS[] = {
    {FP_NAME, N_("name"), NULL},
    {FP_RATE, N_("requests/s at peak"), NULL},
    {FP_LATENCY, N_("latency target"), "ms"},
    {FP_CONSISTENCY, N_("consistency"), NULL},
};
static const diff_field TABLE_FIELDS[] = {
    {FT_PK, N_("partition key"), NULL},
    {FT_SK, N_("sort key"), NULL},
    {FT_BILLING, N_("billing"), NULL},
};
static const diff_field ENTITY_FIELDS[] = {
    {FE_COUNT, N_("items"), NULL},
    {FE_SIZE, N_("average item size"), "bytes"},
    {FE_WRITES, N_("writes/s at peak"), NULL},
};
static const diff_field INDEX_FIELDS[] = {
    {FX_TYPE, N_("type"), NULL},
    {FX_PK, N_("partition key"), NULL},
    {FX_SK, N_("sort key"), NULL},
};
static const diff_field DECISION_FIELDS[] = {
    {FD_TITLE, N_("title"), NULL},
    {FD_DECISION, N_("decision"), NULL},
    {FD_CONTEXT, N_("context"), NULL},
    {FD_ROLLBACK, N_("rollback"), NULL},
    {FD_FAILURE_TEST, N_("failure test"), NULL},
    {FD_LIMITATIONS, N_("limitations"), NULL},
    {FD_ALTERNATIVES, N_("alternatives discarded"), NULL},
    {FD_ASSUMPTIONS, N_("assumptions"), NULL},
};
#define NFIELDS(v) (sizeof(v) / sizeof *(v))

/* The text of a text, name or enum field. */
static const char *field_text(const kp_field *f, const void *r)
{
    const void *p = kp_fcptr(r, f);
    switch (f->kind) {
    case KF_TEXT:
        return *(char *const *)p;
    case KF_REF:
        return ((const kp_str *)p)->s;
    case KF_ENUM:
        return kp_word(f->words, *(const int *)p);
    default:
        return NULL;
    }
}

/* The changes of the listed fields of two records of `rec`, in list order. */
static void diff_fields(kp_diff *d, diff_section sec, const char *subject, const kp_record *rec,
                        const diff_field *v, size_t n, const void *a, const void *b)
{
    for (size_t i = 0; i < n; i++) {
        const kp_field *f = &rec->f[v[i].id];
        switch (f->kind) {
        case KF_NUM:
            num_change(d, sec, subject, v[i].what, *(const double *)kp_fcptr(a, f),
                       *(const double *)kp_fcptr(b, f), v[i].unit);
            break;
        case KF_REFS:
        case KF_TEXTS:
        case KF_RECS:
            num_change(d, sec, subject, v[i].what, (double)kp_fcount(a, f), (double)kp_fcount(b, f),
                       v[i].unit);
            break;
        default:
            text_change(d, sec, subject, v[i].what, field_text(f, a), field_text(f, b));
            break;
        }
    }
}

static const kp_pattern_result *pattern_result(const kp_analysis *a, const kp_pattern *p)
{
    if (!a)
        return NULL;
    for (size_t i = 0; i < a->npatterns; i++)
        if (a->patterns[i].pattern == p)
            return &a->patterns[i];
    return NULL;
}

/* ---- patterns ------------------------------------------------------------------------- */

static char *pattern_subject(const kp_pattern *p)
{
    return xasprintf("pattern %s (%s)", p->id, p->name ? p->name : "");
}

static void diff_patterns(kp_diff *d, const kp_design *a, const kp_analysis *aa, const kp_design *b,
                          const kp_analysis *ab)
{
    for (size_t i = 0; i < a->npatterns; i++) {
        const kp_pattern *p = &a->patterns[i];
        if (!design_pattern(b, p->id)) {
            const kp_pattern_result *r = pattern_result(aa, p);
            char *subj = pattern_subject(p);
            add(d, DIFF_PATTERNS, DIFF_REMOVED, "", r ? kp_plan_word(r->plan) : "", NULL, "%s", subj);
            free(subj);
        }
    }
    for (size_t i = 0; i < b->npatterns; i++) {
        const kp_pattern *q = &b->patterns[i];
        const kp_pattern *p = design_pattern(a, q->id);
        const kp_pattern_result *rb = pattern_result(ab, q);
        char *subj = pattern_subject(q);
        if (!p) {
            char *desc =
                rb ? xasprintf("%s on %s", kp_plan_word(rb->plan), rb->index_name ? rb->index_name : "table")
                   : xstrdup("");
            add(d, DIFF_PATTERNS, DIFF_ADDED, "", NULL, desc, "%s", subj);
            free(desc);
            free(subj);
            continue;
        }
        const kp_pattern_result *ra = pattern_result(aa, p);
        if (ra && rb) {
            text_change(d, DIFF_PATTERNS, subj, N_("plan"), kp_plan_word(ra->plan), kp_plan_word(rb->plan));
            text_change(d, DIFF_PATTERNS, subj, N_("served by"), ra->index_name, rb->index_name);
            text_change(d, DIFF_PATTERNS, subj, N_("key condition"), ra->key_condition, rb->key_condition);
            num_change(d, DIFF_PATTERNS, subj, N_("DynamoDB requests per call"), ra->requests, rb->requests,
                       NULL);
            num_change(d, DIFF_PATTERNS, subj, N_("read units per call"), ra->rcu_per_call, rb->rcu_per_call,
                       NULL);
            num_change(d, DIFF_PATTERNS, subj, N_("read units/s"), ra->rcu_per_s, rb->rcu_per_s, NULL);
            num_change(d, DIFF_PATTERNS, subj, N_("write units/s"), ra->wcu_per_s, rb->wcu_per_s, NULL);
            num_change(d, DIFF_PATTERNS, subj, N_("estimated latency"), ra->latency_ms, rb->latency_ms, "ms");
            if (ra->filter != rb->filter)
                text_change(d, DIFF_PATTERNS, subj, N_("filter expression"),
                            ra->filter ? _("needed") : _("none"), rb->filter ? _("needed") : _("none"));
            if (ra->app_sort != rb->app_sort)
                text_change(d, DIFF_PATTERNS, subj, N_("order"),
                            ra->app_sort ? _("sorted by the app") : _("served by the key"),
                            rb->app_sort ? _("sorted by the app") : _("served by the key"));
        }
        diff_fields(d, DIFF_PATTERNS, subj, &kp_rec_pattern, PATTERN_FIELDS, NFIELDS(PATTERN_FIELDS), p, q);
        free(subj);
    }
}

/* ---- heat ----------------------------------------------------------------------------- */

static const kp_partition_result *find_partition(const kp_analysis *a, const kp_partition_result *p)
{
    for (size_t i = 0; i < a->npartitions; i++) {
        const kp_partition_result *q = &a->partitions[i];
        if (s_eq(q->index_name, p->index_name) && s_eq(q->template_src, p->template_src) &&
            s_eq(q->entity ? q->entity->name : NULL, p->entity ? p->entity->name : NULL))
            return q;
    }
    return NULL;
}

static char *util_text(const kp_partition_result *p)
{
    /* the words (HOT) stay: diff_render counts them */
    return p->hot ? textf(_("read %.0f%%, write %.0f%% of the partition limit (HOT)"), p->read_util * 100,
                          p->write_util * 100)
                  : textf(_("read %.0f%%, write %.0f%% of the partition limit"), p->read_util * 100,
                          p->write_util * 100);
}

static void diff_heat(kp_diff *d, const kp_analysis *aa, const kp_analysis *ab)
{
    for (size_t i = 0; i < ab->npartitions; i++) {
        const kp_partition_result *q = &ab->partitions[i];
        const kp_partition_result *p = find_partition(aa, q);
        char *subj = xasprintf("%s %s%s%s", q->index_name ? q->index_name : "table",
                               q->template_src ? q->template_src : "", q->entity ? " of " : "",
                               q->entity ? q->entity->name : "");
        char *ut = util_text(q);
        if (!p) {
            add(d, DIFF_HEAT, DIFF_ADDED, "", NULL, ut, "%s", subj);
        } else if (p->hot != q->hot) {
            char *pt = util_text(p);
            add(d, DIFF_HEAT, DIFF_CHANGED, q->hot ? N_("became hot") : N_("cooled down"), pt, ut, "%s",
                subj);
            free(pt);
        } else if (fabs(p->read_util - q->read_util) >= 0.01 || fabs(p->write_util - q->write_util) >= 0.01) {
            char *pt = util_text(p);
            add(d, DIFF_HEAT, DIFF_CHANGED, N_("utilisation"), pt, ut, "%s", subj);
            free(pt);
        }
        if (p)
            num_change(d, DIFF_HEAT, subj, N_("distinct partition values"), p->distinct, q->distinct, NULL);
        free(ut);
        free(subj);
    }
    for (size_t i = 0; i < aa->npartitions; i++) {
        const kp_partition_result *p = &aa->partitions[i];
        if (!find_partition(ab, p)) {
            char *pt = util_text(p);
            add(d, DIFF_HEAT, DIFF_REMOVED, "", pt, NULL, "%s %s%s%s",
                p->index_name ? p->index_name : "table", p->template_src ? p->template_src : "",
                p->entity ? " of " : "", p->entity ? p->entity->name : "");
            free(pt);
        }
    }
    num_change(d, DIFF_HEAT, "table", N_("hottest partition's share"), aa->table_hot_share,
               ab->table_hot_share, NULL);
}

/* ---- cost ----------------------------------------------------------------------------- */

static void diff_cost_mode(kp_diff *d, const kp_cost *a, const kp_cost *b)
{
    const char *mode = kp_billing_name(b->mode);
    const char *cur = b->currency ? b->currency : "USD";
    for (size_t i = 0; i < b->nlines; i++) {
        const kp_cost_line *l = &b->lines[i];
        const kp_cost_line *k = NULL;
        for (size_t j = 0; j < a->nlines && !k; j++)
            if (s_eq(a->lines[j].name, l->name))
                k = &a->lines[j];
        char *subj = xasprintf("%s %s", mode, l->name);
        num_change(d, DIFF_COST, subj, N_("amount"), k ? k->amount : 0, l->amount, cur);
        free(subj);
    }
    for (size_t j = 0; j < a->nlines; j++) {
        bool found = false;
        for (size_t i = 0; i < b->nlines && !found; i++)
            found = s_eq(a->lines[j].name, b->lines[i].name);
        if (!found) {
            char *subj = xasprintf("%s %s", mode, a->lines[j].name);
            num_change(d, DIFF_COST, subj, N_("amount"), a->lines[j].amount, 0, cur);
            free(subj);
        }
    }
    char *subj = xasprintf("%s total", mode);
    num_change(d, DIFF_COST, subj, N_("amount"), a->total, b->total, cur);
    free(subj);
}

/* ---- keys, entities, indexes ------------------------------------------------------------ */

static char *tpl_text(const kp_keytpl *k) { return xstrdup(k && k->tpl.src ? k->tpl.src : ""); }

static void diff_entities(kp_diff *d, const kp_design *a, const kp_design *b)
{
    diff_fields(d, DIFF_KEYS, "table", &kp_rec_table, TABLE_FIELDS, NFIELDS(TABLE_FIELDS), &a->table,
                &b->table);
    for (size_t i = 0; i < a->nentities; i++)
        if (!design_entity(b, a->entities[i].name))
            add(d, DIFF_KEYS, DIFF_REMOVED, "", a->entities[i].name, NULL, "entity %s", a->entities[i].name);
    for (size_t i = 0; i < b->nentities; i++) {
        const kp_entity *f = &b->entities[i];
        const kp_entity *e = design_entity(a, f->name);
        if (!e) {
            sbuf s;
            sbuf_init(&s);
            for (size_t k = 0; k < f->nkeys; k++)
                sbuf_printf(&s, "%s%s = %s", k ? ", " : "", f->keys[k].attr.s,
                            f->keys[k].tpl.src ? f->keys[k].tpl.src : "");
            add(d, DIFF_KEYS, DIFF_ADDED, "", NULL, s.s ? s.s : "", "entity %s", f->name);
            sbuf_free(&s);
            continue;
        }
        char *subj = xasprintf("entity %s", f->name);
        for (size_t k = 0; k < e->nkeys; k++)
            if (!entity_key(f, e->keys[k].attr.s)) {
                char *t = tpl_text(&e->keys[k]);
                add(d, DIFF_KEYS, DIFF_CHANGED, e->keys[k].attr.s, t, _("(none)"), "%s", subj);
                free(t);
            }
        for (size_t k = 0; k < f->nkeys; k++) {
            const kp_keytpl *old = entity_key(e, f->keys[k].attr.s);
            char *o = old ? tpl_text(old) : xstrdup(_("(none)"));
            char *n = tpl_text(&f->keys[k]);
            text_change(d, DIFF_KEYS, subj, f->keys[k].attr.s, o, n);
            free(o);
            free(n);
        }
        diff_fields(d, DIFF_KEYS, subj, &kp_rec_entity, ENTITY_FIELDS, NFIELDS(ENTITY_FIELDS), e, f);
        for (size_t k = 0; k < e->nsparse; k++)
            if (!entity_sparse(f, e->sparse[k].attr.s))
                text_change(d, DIFF_KEYS, subj, N_("sparse"), e->sparse[k].src, NULL);
        for (size_t k = 0; k < f->nsparse; k++) {
            const kp_sparse *old = entity_sparse(e, f->sparse[k].attr.s);
            char *w = xasprintf("sparse %s", f->sparse[k].attr.s);
            text_change(d, DIFF_KEYS, subj, w, old ? old->src : NULL, f->sparse[k].src);
            free(w);
        }
        free(subj);
    }
}

static char *projection_text(const kp_index *x)
{
    if (x->projection != KP_PROJ_INCLUDE)
        return xstrdup(kp_projection_name(x->projection));
    sbuf s;
    sbuf_init(&s);
    sbuf_add(&s, "include [");
    for (size_t i = 0; i < x->ninclude; i++)
        sbuf_printf(&s, "%s%s", i ? ", " : "", x->include[i].s);
    sbuf_add(&s, "]");
    return sbuf_steal(&s);
}

static char *index_text(const kp_index *x)
{
    char *p = projection_text(x);
    char *t = xasprintf("%s pk %s%s%s, projection %s", kp_index_kind_name(x->kind), x->pk.s ? x->pk.s : "",
                        x->sk.s ? " sk " : "", x->sk.s ? x->sk.s : "", p);
    free(p);
    return t;
}

static void diff_indexes(kp_diff *d, const kp_design *a, const kp_analysis *aa, const kp_design *b,
                         const kp_analysis *ab)
{
    for (size_t i = 0; i < a->nindexes; i++)
        if (!design_index(b, a->indexes[i].name)) {
            char *t = index_text(&a->indexes[i]);
            add(d, DIFF_INDEXES, DIFF_REMOVED, "", t, NULL, "index %s", a->indexes[i].name);
            free(t);
        }
    for (size_t i = 0; i < b->nindexes; i++) {
        const kp_index *y = &b->indexes[i];
        const kp_index *x = design_index(a, y->name);
        char *subj = xasprintf("index %s", y->name);
        if (!x) {
            char *t = index_text(y);
            add(d, DIFF_INDEXES, DIFF_ADDED, "", NULL, t, "%s", subj);
            free(t);
        } else {
            diff_fields(d, DIFF_INDEXES, subj, &kp_rec_index, INDEX_FIELDS, NFIELDS(INDEX_FIELDS), x, y);
            char *pa = projection_text(x), *pb = projection_text(y);
            text_change(d, DIFF_INDEXES, subj, N_("projection"), pa, pb);
            free(pa);
            free(pb);
            if (aa && ab) {
                ptrdiff_t ia = design_index_pos(a, x->name), ib = (ptrdiff_t)i;
                if (ia >= 0 && (size_t)ia + 1 < aa->nindexes && (size_t)ib + 1 < ab->nindexes) {
                    const kp_index_result *ra = &aa->indexes[ia + 1], *rb = &ab->indexes[ib + 1];
                    num_change(d, DIFF_INDEXES, subj, N_("items"), ra->items, rb->items, NULL);
                    num_change(d, DIFF_INDEXES, subj, N_("write units/s"), ra->wcu_per_s, rb->wcu_per_s,
                               NULL);
                    num_change(d, DIFF_INDEXES, subj, N_("patterns served"), ra->patterns_served,
                               rb->patterns_served, NULL);
                }
            }
        }
        free(subj);
    }
}

/* ---- irreversible changes and what the change costs ------------------------------------- */

static const char WHY_KEYS[] = N_("a table's keys never change");
static const char WHY_NAME[] = N_("a table is never renamed");
static const char WHY_LSI[] = N_("an LSI exists only from the table's creation");

static void irreversible_item(kp_diff *d, diff_change ch, const char *what, const char *before,
                              const char *after, const char *why, const char *subject)
{
    diff_item *it = add(d, DIFF_IRREVERSIBLE, ch, what, before, after, "%s", subject);
    it->why = xstrdup(_(why));
}

static bool is_lsi(const kp_index *x) { return x && x->kind == KP_LSI; }

/* Appends to d the changes from a to b that DynamoDB cannot make in place; returns how many. */
static size_t irreversible(kp_diff *d, const kp_design *a, const kp_design *b)
{
    size_t before = d->n;
    const kp_table *ta = &a->table, *tb = &b->table;
    if (!s_eq(ta->name, tb->name))
        irreversible_item(d, DIFF_CHANGED, N_("name"), ta->name, tb->name, WHY_NAME, "table");
    if (!s_eq(ta->pk.s, tb->pk.s))
        irreversible_item(d, DIFF_CHANGED, N_("partition key"), ta->pk.s, tb->pk.s, WHY_KEYS, "table");
    if (!s_eq(ta->sk.s, tb->sk.s))
        irreversible_item(d, DIFF_CHANGED, N_("sort key"), ta->sk.s ? ta->sk.s : _("(none)"),
                          tb->sk.s ? tb->sk.s : _("(none)"), WHY_KEYS, "table");
    for (size_t i = 0; i < a->nindexes; i++) {
        const kp_index *x = &a->indexes[i];
        if (!is_lsi(x))
            continue;
        const kp_index *y = design_index(b, x->name);
        char *subj = xasprintf("LSI %s", x->name), *tx = index_text(x);
        if (!is_lsi(y)) {
            irreversible_item(d, DIFF_REMOVED, "", tx, NULL, WHY_LSI, subj);
        } else {
            char *ty = index_text(y);
            if (!s_eq(tx, ty))
                irreversible_item(d, DIFF_CHANGED, N_("definition"), tx, ty, WHY_LSI, subj);
            free(ty);
        }
        free(tx);
        free(subj);
    }
    for (size_t i = 0; i < b->nindexes; i++) {
        const kp_index *y = &b->indexes[i];
        if (!is_lsi(y) || is_lsi(design_index(a, y->name)))
            continue;
        char *subj = xasprintf("LSI %s", y->name), *ty = index_text(y);
        irreversible_item(d, DIFF_ADDED, "", NULL, ty, WHY_LSI, subj);
        free(ty);
        free(subj);
    }
    return d->n - before;
}

size_t diff_irreversible(const kp_design *a, const kp_design *b, char **what)
{
    kp_diff d;
    memset(&d, 0, sizeof d);
    size_t n = irreversible(&d, a, b);
    if (what) {
        sbuf s;
        sbuf_init(&s);
        sbuf_add(&s, "");
        for (size_t i = 0; i < d.n; i++) {
            const diff_item *it = &d.v[i];
            sbuf_add(&s, i ? "; " : "");
            if (it->change == DIFF_CHANGED)
                sbuf_printf(&s, "%s %s %s → %s", it->subject, _(it->what), it->before, it->after);
            else
                sbuf_printf(&s, "%s %s", it->subject, it->change == DIFF_ADDED ? _("added") : _("removed"));
        }
        *what = sbuf_steal(&s);
    }
    diff_free(&d);
    return n;
}

/* The bytes a Scan of the design's table reads: every entity's items x their size. */
static double table_item_bytes(const kp_design *d)
{
    double b = 0;
    for (size_t i = 0; i < d->nentities; i++)
        b += util_nz(d->entities[i].count) * util_nz(d->entities[i].size);
    return b;
}

/* Write units that put every entry of index x (design position) once: each entity's items on it
 * x the 1 KB units of its projected entry; *entries (may be NULL) the entries. x = -1: the
 * table's own items, with the entries of its LSIs (table writes). */
static double fill_units(const kp_design *d, ptrdiff_t x, double *entries)
{
    double units = 0, n = 0;
    for (size_t i = 0; i < d->nentities; i++) {
        const kp_entity *e = &d->entities[i];
        double share = capacity_index_share(d, e, x), count = util_nz(e->count) * share;
        if (count <= 0)
            continue;
        n += count;
        units += count * capacity_write_units(capacity_projected_bytes(d, e, x), false);
        for (size_t k = 0; x < 0 && k < d->nindexes; k++)
            if (is_lsi(&d->indexes[k]))
                units += util_nz(e->count) * capacity_index_share(d, e, (ptrdiff_t)k) *
                         capacity_write_units(capacity_projected_bytes(d, e, (ptrdiff_t)k), false);
    }
    if (entries)
        *entries = n;
    return units;
}

/* The money of a one-off load at design d's prices: request units on-demand; provisioned, the
 * unit-hours that absorb the units. */
static double once_money(const kp_design *d, double reads, double writes, double index_writes)
{
    kp_unit_prices p;
    stage_cost_prices(d, &p);
    if (d->table.billing == KP_BILLING_PROVISIONED)
        return (reads * p.rcu_hour + (writes + index_writes) * p.wcu_hour) / 3600;
    return reads / 1e6 * p.read_per_million + writes / 1e6 * p.write_per_million +
           index_writes / 1e6 * p.index_write_per_million;
}

static void cost_item(kp_diff *d, const kp_design *b, const char *subject, sbuf *text, double money)
{
    kp_unit_prices p;
    stage_cost_prices(b, &p);
    sbuf_add(text, " ≈ ");
    humanfmt_add_money(text, money, p.currency, HF_MONEY_DOC);
    diff_item *it = add(d, DIFF_CHANGE_COST, DIFF_ADDED, "", NULL, text->s, "%s", subject);
    it->num_after = money;
}

/* The migration when something irreversible changed, else each GSI's backfill. */
static void change_cost(kp_diff *d, const kp_design *a, const kp_design *b, size_t nirreversible)
{
    sbuf s;
    sbuf_init(&s);
    if (nirreversible) {
        double reads = table_item_bytes(a) / CAP_READ_UNIT_BYTES * 0.5, items, iw = 0;
        double writes = fill_units(b, -1, &items);
        for (size_t i = 0; i < b->nindexes; i++)
            if (!is_lsi(&b->indexes[i]))
                iw += fill_units(b, (ptrdiff_t)i, NULL);
        char *r = num_text(reads, _("read units")), *it = num_text(items, _("items")),
             *w = num_text(writes, _("write units")), *x = num_text(iw, _("index write units"));
        /* TRANSLATORS: %1$s read units, %2$s items, %3$s write units, %4$s index write units (figures with
           their unit) */
        textf_add(&s, _("scan the old table, %s; write its %s to the new one, %s and %s"), r, it, w, x);
        free(r);
        free(it);
        free(w);
        free(x);
        cost_item(d, b, _("migration to a new table"), &s, once_money(b, reads, writes, iw));
        sbuf_free(&s);
        return;
    }
    double reads = table_item_bytes(b) / CAP_READ_UNIT_BYTES * 0.5;
    for (size_t i = 0; i < b->nindexes; i++) {
        const kp_index *y = &b->indexes[i], *x = design_index(a, y->name);
        if (is_lsi(y))
            continue;
        char *tx = x ? index_text(x) : NULL, *ty = index_text(y);
        bool same = tx && s_eq(tx, ty);
        free(tx);
        free(ty);
        if (same)
            continue;
        double entries, w = fill_units(b, (ptrdiff_t)i, &entries);
        sbuf_free(&s);
        sbuf_init(&s);
        char *r = num_text(reads, _("read units")), *en = num_text(entries, _("entries")),
             *wu = num_text(w, _("index write units"));
        /* TRANSLATORS: %1$s read units, %2$s entries, %3$s index write units (figures with their unit) */
        textf_add(&s, _("scan the table, %s; write %s, %s"), r, en, wu);
        free(r);
        free(en);
        free(wu);
        /* TRANSLATORS: %s an index's name */
        char *subj = textf(x ? _("rebuild of GSI %s") : _("backfill of GSI %s"), y->name);
        cost_item(d, b, subj, &s, once_money(b, reads, 0, w));
        free(subj);
    }
    sbuf_free(&s);
}

/* ---- decisions ------------------------------------------------------------------------ */

static const kp_decision *find_decision(const kp_design *d, const char *id)
{
    for (size_t i = 0; i < d->ndecisions; i++)
        if (s_eq(d->decisions[i].id, id))
            return &d->decisions[i];
    return NULL;
}

static char *signals_text(const kp_decision *x)
{
    sbuf s;
    sbuf_init(&s);
    for (size_t i = 0; i < x->nsignals; i++)
        sbuf_printf(&s, "%s%s", i ? "; " : "", x->signals[i].src ? x->signals[i].src : "");
    return sbuf_steal(&s);
}

static void diff_decisions(kp_diff *d, const kp_design *a, const sig_report *sa, const kp_design *b,
                           const sig_report *sb)
{
    for (size_t i = 0; i < a->ndecisions; i++)
        if (!find_decision(b, a->decisions[i].id))
            add(d, DIFF_DECISIONS, DIFF_REMOVED, "", a->decisions[i].title ? a->decisions[i].title : "", NULL,
                "decision %s", a->decisions[i].id);
    for (size_t i = 0; i < b->ndecisions; i++) {
        const kp_decision *y = &b->decisions[i];
        const kp_decision *x = find_decision(a, y->id);
        char *subj = xasprintf("decision %s", y->id);
        if (!x) {
            char *t = xasprintf("%s [%s]", y->title ? y->title : "", sig_decision_status(sb, y));
            add(d, DIFF_DECISIONS, DIFF_ADDED, "", NULL, t, "%s", subj);
            free(t);
            free(subj);
            continue;
        }
        const char *st_a = sig_decision_status(sa, x), *st_b = sig_decision_status(sb, y);
        if (!s_eq(st_a, st_b))
            add(d, DIFF_DECISIONS, DIFF_CHANGED,
                strcmp(st_b, "reopen") == 0 || y->status == KP_DEC_REOPENED ? N_("reopened") : N_("status"),
                st_a, st_b, "%s", subj);
        diff_fields(d, DIFF_DECISIONS, subj, &kp_rec_decision, DECISION_FIELDS, NFIELDS(DECISION_FIELDS), x,
                    y);
        char *sa_t = signals_text(x), *sb_t = signals_text(y);
        text_change(d, DIFF_DECISIONS, subj, N_("signals"), sa_t, sb_t);
        free(sa_t);
        free(sb_t);
        free(subj);
    }
}

/* ---- checklist and findings ------------------------------------------------------------- */

static void diff_checklist(kp_diff *d, const kp_analysis *aa, const kp_analysis *ab)
{
    for (int i = 0; i < KP_CHECKLIST_ITEMS; i++) {
        const kp_check_item *x = &aa->checklist[i], *y = &ab->checklist[i];
        if (x->status != y->status)
            add(d, DIFF_CHECKLIST, DIFF_CHANGED, N_("status"), kp_check_status_name(x->status),
                kp_check_status_name(y->status), "item %d (%s)", y->item ? y->item : i + 1,
                y->title ? y->title : "");
    }
    num_change(d, DIFF_CHECKLIST, "score", N_("items passing"), aa->checklist_pass, ab->checklist_pass, NULL);
}

static bool has_finding(const kp_analysis *a, const kp_finding *f)
{
    for (size_t i = 0; i < a->nfindings; i++)
        if (s_eq(a->findings[i].code, f->code) && s_eq(a->findings[i].where, f->where))
            return true;
    return false;
}

static void diff_findings(kp_diff *d, const kp_analysis *aa, const kp_analysis *ab)
{
    for (size_t i = 0; i < ab->nfindings; i++)
        if (!has_finding(aa, &ab->findings[i]))
            add(d, DIFF_FINDINGS, DIFF_ADDED, "", NULL,
                ab->findings[i].message ? ab->findings[i].message : "", "%s at %s", ab->findings[i].code,
                ab->findings[i].where ? ab->findings[i].where : "");
    for (size_t i = 0; i < aa->nfindings; i++)
        if (!has_finding(ab, &aa->findings[i]))
            add(d, DIFF_FINDINGS, DIFF_REMOVED, "", aa->findings[i].message ? aa->findings[i].message : "",
                NULL, "%s at %s", aa->findings[i].code, aa->findings[i].where ? aa->findings[i].where : "");
}

/* ---- entry points ------------------------------------------------------------------------ */

static int by_section(const void *x, const void *y)
{
    const diff_item *a = x, *b = y;
    if (a->section != b->section)
        return a->section < b->section ? -1 : 1;
    return 0;
}

void diff_compute(const kp_design *a, const kp_analysis *aa, const sig_report *sa, const kp_design *b,
                  const kp_analysis *ab, const sig_report *sb, kp_diff *out)
{
    memset(out, 0, sizeof *out);
    change_cost(out, a, b, irreversible(out, a, b));
    diff_patterns(out, a, aa, b, ab);
    if (aa && ab) {
        diff_heat(out, aa, ab);
        diff_cost_mode(out, &aa->on_demand, &ab->on_demand);
        diff_cost_mode(out, &aa->provisioned, &ab->provisioned);
    }
    diff_entities(out, a, b);
    diff_indexes(out, a, aa, b, ab);
    diff_decisions(out, a, sa, b, sb);
    if (aa && ab) {
        diff_checklist(out, aa, ab);
        diff_findings(out, aa, ab);
    }
    diff_fields(out, DIFF_OTHER, "design", &kp_rec_design, DESIGN_FIELDS, NFIELDS(DESIGN_FIELDS), a, b);
    /* stable grouping by section: insertion sort keeps the order inside a section */
    for (size_t i = 1; i < out->n; i++) {
        diff_item t = out->v[i];
        size_t j = i;
        while (j > 0 && by_section(&out->v[j - 1], &t) > 0) {
            out->v[j] = out->v[j - 1];
            j--;
        }
        out->v[j] = t;
    }
}

void diff_free(kp_diff *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->n; i++) {
        free(d->v[i].subject);
        free(d->v[i].what);
        free(d->v[i].before);
        free(d->v[i].after);
        free(d->v[i].why);
    }
    free(d->v);
    memset(d, 0, sizeof *d);
}

size_t diff_count(const kp_diff *d, diff_section s)
{
    size_t n = 0;
    for (size_t i = 0; i < d->n; i++)
        n += d->v[i].section == s;
    return n;
}

char *diff_render(const kp_diff *d, const char *from, const char *to)
{
    sbuf b;
    sbuf_init(&b);
    sbuf_printf(&b, "%s → %s\n", from ? from : _("before"), to ? to : _("after"));
    if (d->n == 0) {
        sbuf_printf(&b, "%s\n", _("no differences"));
        return sbuf_steal(&b);
    }
    /* a headline first: what a designer asks about before the details */
    size_t plans = 0, hot = 0, cool = 0, dec_added = 0, reopened = 0, pat_added = 0, pat_removed = 0;
    for (size_t i = 0; i < d->n; i++) {
        const diff_item *it = &d->v[i];
        if (it->section == DIFF_PATTERNS && it->change == DIFF_CHANGED && strcmp(it->what, "plan") == 0)
            plans++;
        if (it->section == DIFF_PATTERNS)
            pat_added += it->change == DIFF_ADDED, pat_removed += it->change == DIFF_REMOVED;
        if (it->section == DIFF_HEAT) {
            hot += strcmp(it->what, "became hot") == 0 ||
                   (it->change == DIFF_ADDED && strstr(it->after, "(HOT)"));
            cool += strcmp(it->what, "cooled down") == 0 ||
                    (it->change == DIFF_REMOVED && strstr(it->before, "(HOT)"));
        }
        if (it->section == DIFF_DECISIONS)
            dec_added += it->change == DIFF_ADDED, reopened += strcmp(it->what, "reopened") == 0;
    }
    sbuf_printf(&b, "\n%s\n", _("In short:"));
    size_t nirr = diff_count(d, DIFF_IRREVERSIBLE);
    for (size_t i = 0; i < d->n; i++) {
        const diff_item *it = &d->v[i];
        if (it->section != DIFF_CHANGE_COST)
            continue;
        if (nirr) {
            /* "  IRREVERSIBLE: " stays: the decision record (export md) finds the line by it */
            sbuf_add(&b, "  IRREVERSIBLE: ");
            /* TRANSLATORS: %1$zu how many changes, %2$s what the migration costs ("≈ 12.50 USD") */
            sbuf_printf(
                &b,
                ngettext("%zu change DynamoDB cannot make to the table in place; the way there is a new "
                         "table and a data migration (%s)",
                         "%zu changes DynamoDB cannot make to the table in place; the way there is a new "
                         "table and a data migration (%s)",
                         nirr),
                nirr, strstr(it->after, "≈ ") ? strstr(it->after, "≈ ") : "");
            sbuf_addc(&b, '\n');
        } else
            /* TRANSLATORS: %1$s what is done once (a backfill), %2$s its cost */
            sbuf_printf(&b, _("  once: %s %s\n"), it->subject,
                        strstr(it->after, "≈ ") ? strstr(it->after, "≈ ") : "");
    }
    if (plans) {
        /* TRANSLATORS: the patterns follow, "1 scan → query" */
        sbuf_printf(&b, ngettext("  %zu pattern changed plan:", "  %zu patterns changed plan:", plans),
                    plans);
        size_t shown = 0;
        for (size_t i = 0; i < d->n && shown < 6; i++) {
            const diff_item *it = &d->v[i];
            if (it->section == DIFF_PATTERNS && it->change == DIFF_CHANGED && strcmp(it->what, "plan") == 0) {
                const char *sp = strchr(it->subject + 8, ' ');
                sbuf_printf(&b, "%s %.*s %s → %s", shown ? "," : "", (int)(sp ? sp - it->subject - 8 : 0),
                            it->subject + 8, it->before, it->after);
                shown++;
            }
        }
        sbuf_add(&b, plans > shown ? ", ...\n" : "\n");
    }
    if (pat_added || pat_removed)
        sbuf_printf(&b, _("  patterns: %zu added, %zu removed\n"), pat_added, pat_removed);
    for (size_t i = 0; i < d->n; i++) {
        const diff_item *it = &d->v[i];
        size_t sl = strlen(it->subject);
        if (it->section == DIFF_COST && sl > 6 && strcmp(it->subject + sl - 6, " total") == 0)
            /* TRANSLATORS: %1$s the billing mode and line ("on-demand total"), %2$s and %3$s amounts */
            sbuf_printf(&b, _("  monthly cost, %s: %s → %s\n"), it->subject, it->before, it->after);
    }
    if (hot || cool)
        sbuf_printf(&b, _("  partitions: %zu became hot, %zu cooled down\n"), hot, cool);
    if (dec_added || reopened)
        sbuf_printf(&b, _("  decisions: %zu added, %zu reopened\n"), dec_added, reopened);

    int last = -1;
    for (size_t i = 0; i < d->n; i++) {
        const diff_item *it = &d->v[i];
        if ((int)it->section != last) {
            sbuf_printf(&b, "\n%s\n", diff_section_title(it->section));
            last = (int)it->section;
        }
        if (it->section == DIFF_IRREVERSIBLE) {
            if (it->change == DIFF_CHANGED)
                sbuf_printf(&b, "  ! %s %s: %s → %s (%s)\n", it->subject, _(it->what), it->before, it->after,
                            it->why);
            else
                sbuf_printf(&b, "  ! %s %s: %s (%s)\n", it->subject,
                            it->change == DIFF_ADDED ? _("added") : _("removed"),
                            it->change == DIFF_ADDED ? it->after : it->before, it->why);
            continue;
        }
        if (it->section == DIFF_CHANGE_COST) {
            sbuf_printf(&b, "  $ %s: %s\n", it->subject, it->after);
            continue;
        }
        switch (it->change) {
        case DIFF_ADDED:
            sbuf_printf(&b, "  + %s%s%s\n", it->subject, it->after && *it->after ? ": " : "",
                        it->after ? it->after : "");
            break;
        case DIFF_REMOVED:
            sbuf_printf(&b, "  - %s%s%s\n", it->subject, it->before && *it->before ? ": " : "",
                        it->before ? it->before : "");
            break;
        case DIFF_CHANGED: {
            /* consecutive changes of one subject are listed under it */
            bool grouped =
                (i + 1 < d->n && d->v[i + 1].change == DIFF_CHANGED && d->v[i + 1].section == it->section &&
                 strcmp(d->v[i + 1].subject, it->subject) == 0) ||
                (i > 0 && d->v[i - 1].change == DIFF_CHANGED && d->v[i - 1].section == it->section &&
                 strcmp(d->v[i - 1].subject, it->subject) == 0);
            bool first =
                !(i > 0 && d->v[i - 1].change == DIFF_CHANGED && d->v[i - 1].section == it->section &&
                  strcmp(d->v[i - 1].subject, it->subject) == 0);
            if (!grouped) {
                sbuf_printf(&b, "  ~ %s: %s %s → %s\n", it->subject, _(it->what),
                            it->before ? it->before : "", it->after ? it->after : "");
            } else {
                if (first)
                    sbuf_printf(&b, "  ~ %s\n", it->subject);
                {
                    /* the label padded to 28 display cells (a translation may have accents) */
                    const char *what = _(it->what);
                    int pad = 28 - disp_width(what);
                    sbuf_printf(&b, "      %s%*s %s → %s\n", what, pad > 0 ? pad : 0, "",
                                it->before ? it->before : "", it->after ? it->after : "");
                }
            }
            break;
        }
        }
    }
    return sbuf_steal(&b);
}
