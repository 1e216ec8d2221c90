/* screens.c - the seven screens, each a table of function pointers (tig view_ops): Patterns,
 * Keys, Indexes, Attributes and Decisions are tables of editable cells plus columns the model
 * computes; History and Cost & heat are reports. Drawing of the generic table lives here too. */
#include "wb.h"

#include "diff.h"
#include "export_md.h"
#include "fileio.h"
#include "display.h"

#include <curses.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- columns -------------------------------------------------------------------------------- */

enum { COMP_PLAN, COMP_SERVES, COMP_ITEMS, COMP_LIVE, COMP_SIGNALS, COMP_HOT };

static wb_col *cols_of_table(const kp_design *d, edit_table t, size_t *n)
{
    size_t k = edit_ncols(d, t);
    wb_col *v = xcalloc(k ? k : 1, sizeof *v);
    for (size_t i = 0; i < k; i++)
        v[i] = (wb_col){(int)t, i, edit_col_name(d, t, i), 0};
    *n = k;
    return v;
}

static wb_col *patterns_columns(wb *w, size_t *n)
{
    size_t k;
    wb_col *t = cols_of_table(session_design(w->ss), EDIT_PATTERNS, &k);
    wb_col *v = xcalloc(k + 1, sizeof *v);
    v[0] = t[0];                                /* id (frozen) */
    v[1] = (wb_col){-1, COMP_PLAN, "plan", 0};  /* the model's verdict next to the id */
    memcpy(v + 2, t + 1, (k - 1) * sizeof *v);
    free(t);
    *n = k + 1;
    return v;
}

static wb_col *keys_columns(wb *w, size_t *n)
{
    const kp_design *d = session_design(w->ss);
    size_t k;
    wb_col *t = cols_of_table(d, EDIT_KEYS, &k);
    static const char *const extra[] = {"count", "size", "attributes", "writes", "description"};
    size_t ne = sizeof extra / sizeof *extra;
    wb_col *v = xcalloc(k + ne, sizeof *v);
    memcpy(v, t, k * sizeof *v);
    for (size_t i = 0; i < ne; i++)
        v[k + i] = (wb_col){EDIT_ENTITIES, (size_t)edit_col_find(d, EDIT_ENTITIES, extra[i]), extra[i], 0};
    free(t);
    *n = k + ne;
    return v;
}

static wb_col *indexes_columns(wb *w, size_t *n)
{
    size_t k;
    wb_col *t = cols_of_table(session_design(w->ss), EDIT_INDEXES, &k);
    wb_col *v = xcalloc(k + 3, sizeof *v);
    v[0] = t[0];
    v[1] = (wb_col){-1, COMP_SERVES, "serves", 0};
    v[2] = (wb_col){-1, COMP_ITEMS, "items", 0};
    v[3] = (wb_col){-1, COMP_HOT, "hot", 0};
    memcpy(v + 4, t + 1, (k - 1) * sizeof *v);
    free(t);
    *n = k + 3;
    return v;
}

static wb_col *attrs_columns(wb *w, size_t *n) { return cols_of_table(session_design(w->ss), EDIT_ATTRS, n); }

static wb_col *decisions_columns(wb *w, size_t *n)
{
    size_t k;
    wb_col *t = cols_of_table(session_design(w->ss), EDIT_DECISIONS, &k);
    wb_col *v = xcalloc(k + 2, sizeof *v);
    v[0] = t[0];
    v[1] = (wb_col){-1, COMP_LIVE, "live", 0};
    v[2] = t[1]; /* title */
    v[3] = t[2]; /* status */
    v[4] = (wb_col){-1, COMP_SIGNALS, "signals now", 0};
    memcpy(v + 5, t + 3, (k - 3) * sizeof *v);
    free(t);
    *n = k + 2;
    return v;
}

static size_t rows_patterns(wb *w) { return edit_nrows(session_design(w->ss), EDIT_PATTERNS); }
static size_t rows_entities(wb *w) { return edit_nrows(session_design(w->ss), EDIT_ENTITIES); }
static size_t rows_indexes(wb *w) { return edit_nrows(session_design(w->ss), EDIT_INDEXES); }
static size_t rows_attrs(wb *w) { return edit_nrows(session_design(w->ss), EDIT_ATTRS); }
static size_t rows_decisions(wb *w) { return edit_nrows(session_design(w->ss), EDIT_DECISIONS); }

/* The analysis result of the current design's pattern `row` (matched by id: the analysis is of
 * the last good design), or NULL. */
static const kp_pattern_result *result_of(wb *w, size_t row)
{
    const kp_design *d = session_design(w->ss);
    if (!w->an || row >= d->npatterns || !d->patterns[row].id)
        return NULL;
    for (size_t i = 0; i < w->an->npatterns; i++) {
        const kp_pattern *p = w->an->patterns[i].pattern;
        if (p && p->id && strcmp(p->id, d->patterns[row].id) == 0)
            return &w->an->patterns[i];
    }
    return NULL;
}

static const kp_index_result *index_result(wb *w, const char *name)
{
    if (!w->an || !name)
        return NULL;
    for (size_t i = 0; i < w->an->nindexes; i++)
        if (w->an->indexes[i].name && strcmp(w->an->indexes[i].name, name) == 0)
            return &w->an->indexes[i];
    return NULL;
}

static char *computed(wb *w, size_t row, size_t code, int *role)
{
    const kp_design *d = session_design(w->ss);
    *role = UI_ROLE_NORMAL;
    switch (code) {
    case COMP_PLAN: {
        const kp_pattern_result *r = result_of(w, row);
        if (!r)
            return xstrdup("");
        *role = r->plan == KP_PLAN_GET || r->plan == KP_PLAN_COVERED ? UI_ROLE_GOOD
                : r->plan == KP_PLAN_SCAN || r->plan == KP_PLAN_INVALID ? UI_ROLE_BAD
                : r->plan == KP_PLAN_MULTI ? UI_ROLE_WARN
                                           : UI_ROLE_NORMAL;
        return xasprintf("%s %s", kp_plan_symbol(r->plan), kp_plan_word(r->plan));
    }
    case COMP_SERVES:
    case COMP_ITEMS:
    case COMP_HOT: {
        const kp_index_result *x = row < d->nindexes ? index_result(w, d->indexes[row].name) : NULL;
        if (!x)
            return xstrdup("");
        if (code == COMP_SERVES) {
            if (x->patterns_served == 0)
                *role = UI_ROLE_WARN;
            return xasprintf("%d", x->patterns_served);
        }
        if (code == COMP_HOT) {
            if (x->hot_share >= 0.5)
                *role = UI_ROLE_WARN;
            return isnan(x->hot_share) ? xstrdup("") : xasprintf("%.1f%%", x->hot_share * 100);
        }
        return wb_fmt_num(x->items);
    }
    case COMP_LIVE:
    case COMP_SIGNALS: {
        if (row >= d->ndecisions)
            return xstrdup("");
        const kp_decision *dec = &d->decisions[row];
        bool fired = false;
        sbuf b;
        sbuf_init(&b);
        sbuf_add(&b, "");
        for (size_t i = 0; i < w->sigs.n; i++) {
            const sig_result *s = &w->sigs.v[i];
            if (!s->decision || !s->decision->id || !dec->id || strcmp(s->decision->id, dec->id) != 0)
                continue;
            fired |= s->fired;
            char *v = s->known ? wb_fmt_num(s->value) : xstrdup("?");
            sbuf_printf(&b, "%s%s%s: %s", b.len ? "; " : "", s->fired ? "FIRED " : "", s->signal->metric, v);
            if (s->observed)
                sbuf_printf(&b, " (observed %g)", s->observed->value);
            free(v);
        }
        if (code == COMP_SIGNALS) {
            if (fired)
                *role = UI_ROLE_BAD;
            return sbuf_steal(&b);
        }
        sbuf_free(&b);
        if (fired) {
            *role = UI_ROLE_ALARM;
            return xstrdup("REOPEN");
        }
        *role = dec->status == KP_DEC_ACCEPTED ? UI_ROLE_GOOD : UI_ROLE_NORMAL;
        return xstrdup(kp_decision_status_name(dec->status));
    }
    default: return xstrdup("");
    }
}

static int patterns_handle(wb *w, ui_action a)
{
    (void)w, (void)a;
    return WB_IGNORED;
}

/* ---- History ---------------------------------------------------------------------------------- */

static size_t rows_history(wb *w) { return w->nversions; }

static wb_col *history_columns(wb *w, size_t *n)
{
    (void)w;
    *n = 1;
    wb_col *v = xcalloc(1, sizeof *v);
    v[0] = (wb_col){-1, 0, "version", 0};
    return v;
}

void wb_make_diff(wb *w, int a, int b)
{
    for (size_t i = 0; i < w->ndifflines; i++)
        free(w->difflines[i]);
    free(w->difflines);
    w->difflines = NULL;
    w->ndifflines = 0;
    kp_design *da = NULL, *db = NULL;
    char *err = NULL;
    if (session_version_design(w->ss, a, &da, &err) != KP_OK ||
        session_version_design(w->ss, b, &db, &err) != KP_OK) {
        wb_message(w, UI_ROLE_BAD, "diff: %s", err ? err : "no such version");
        free(err);
        design_free(da);
        return;
    }
    kp_analysis *aa = w->opt.analyze ? w->opt.analyze(da) : analysis_run(da);
    kp_analysis *ab = w->opt.analyze ? w->opt.analyze(db) : analysis_run(db);
    kp_diff df;
    diff_compute(da, aa, NULL, db, ab, NULL, &df);
    char *from = xasprintf("version %d", a), *to = xasprintf("version %d", b);
    char *text = diff_render(&df, from, to);
    free(from);
    free(to);
    diff_free(&df);
    size_t cap = 0;
    for (char *p = text, *e; p && *p; p = e ? e + 1 : NULL) {
        e = strchr(p, '\n');
        VEC_GROW(w->difflines, w->ndifflines, cap);
        w->difflines[w->ndifflines++] = e ? xstrndup(p, (size_t)(e - p)) : xstrdup(p);
        if (!e)
            break;
    }
    free(text);
    if (w->opt.analysis_free) {
        w->opt.analysis_free(aa);
        w->opt.analysis_free(ab);
    } else {
        analysis_free(aa);
        analysis_free(ab);
    }
    design_free(da);
    design_free(db);
    w->mark_a = a;
    w->mark_b = b;
    wb_message(w, UI_ROLE_GOOD, "diff of version %d and version %d", a, b);
}

static int history_handle(wb *w, ui_action a)
{
    if (a != UI_ACT_MARK)
        return WB_IGNORED;
    if (!w->nversions) {
        wb_message(w, UI_ROLE_WARN, "no versions yet: c commits the working copy");
        return WB_REDRAW;
    }
    int v = w->versions[w->cur[UI_SCREEN_HISTORY].row].number;
    if (w->mark_a == 0 || w->mark_b != 0) {
        w->mark_a = v;
        w->mark_b = 0;
        wb_message(w, UI_ROLE_NORMAL, "marked version %d; mark another to see the diff", v);
    } else {
        wb_make_diff(w, w->mark_a, v);
    }
    return WB_REDRAW;
}

static void history_draw(wb *w, ui_rect r)
{
    wb_cursor *c = &w->cur[UI_SCREEN_HISTORY];
    int listh = w->ndifflines ? (r.h - 1) / 2 : r.h - 1;
    if (listh < 2)
        listh = r.h - 1;
    wb_putf(r.y, r.x, r.w, UI_ROLE_HEADER, "%-4s %-20s %-12s %s", "ver", "time", "author", "message");
    if (!w->nversions)
        wb_put(r.y + 1, r.x, r.w, "no versions yet: c commits the working copy with a message", UI_ROLE_DIM);
    if (c->row < c->top)
        c->top = c->row;
    if (c->row >= c->top + (size_t)listh)
        c->top = c->row - (size_t)listh + 1;
    for (int i = 0; i < listh && c->top + (size_t)i < w->nversions; i++) {
        size_t k = c->top + (size_t)i;
        const ws_version *v = &w->versions[k];
        bool marked = v->number == w->mark_a || v->number == w->mark_b;
        ui_role role = k == c->row ? UI_ROLE_CURSOR_ROW : marked ? UI_ROLE_CHANGED : UI_ROLE_NORMAL;
        wb_putf(r.y + 1 + i, r.x, r.w, role, "%c%-3d %-20s %-12s %s%s", marked ? '*' : ' ', v->number,
                v->time ? v->time : "", v->author ? v->author : "", v->message ? v->message : "",
                v->number == session_base(w->ss) ? (session_dirty(w->ss) ? "  <- base (modified)" : "  <- current")
                                                 : "");
    }
    int y = r.y + 1 + listh;
    for (size_t i = 0; i < w->ndifflines && y < r.y + r.h; i++, y++) {
        const char *l = w->difflines[i];
        ui_role role = (l[0] != ' ' && l[0] != '-' && l[0] != '+' && l[0] != '~') ? UI_ROLE_TITLE
                       : strstr(l, "scan") || strstr(l, "HOT") ? UI_ROLE_WARN
                                                                : UI_ROLE_NORMAL;
        wb_put(y, r.x, r.w, l, role);
    }
}

/* ---- Cost & heat ------------------------------------------------------------------------------ */

typedef struct rline {
    char *text;
    ui_role role;
} rline;

static void add_line(rline **v, size_t *n, size_t *cap, ui_role role, char *text)
{
    VEC_GROW(*v, *n, *cap);
    (*v)[(*n)++] = (rline){text, role};
}

/* s right-aligned in `width` display columns (UTF-8 aware: "€" is one column). Caller frees. */
static char *ralign(const char *s, int width)
{
    int pad = width - disp_width(s);
    return xasprintf("%*s%s", pad > 0 ? pad : 0, "", s);
}

static rline *cost_lines(wb *w, size_t *n)
{
    rline *v = NULL;
    size_t cap = 0;
    *n = 0;
    const kp_analysis *a = w->an;
    if (!a || !a->cost) {
        add_line(&v, n, &cap, UI_ROLE_DIM, xstrdup("no analysis yet: the design needs a valid table"));
        return v;
    }
    const char *cur = a->cost->currency;
    const kp_design *d = session_design(w->ss);
    char *st = edit_get(d, EDIT_SETTINGS, (size_t)edit_setting_find("streams"), 1);
    char *pt = edit_get(d, EDIT_SETTINGS, (size_t)edit_setting_find("pitr"), 1);
    add_line(&v, n, &cap, UI_ROLE_DIM,
             xasprintf("table %s  billing %s  streams %s  pitr %s   (:set NAME VALUE; all settings at the end)",
                       d->table.name ? d->table.name : "?", kp_billing_name(d->table.billing), *st ? st : "unset",
                       *pt ? pt : "unset"));
    free(st);
    free(pt);
    add_line(&v, n, &cap, UI_ROLE_TITLE, xasprintf("Monthly cost (730 h)   design billing: %s",
                                                   kp_billing_name(a->cost->mode)));
    add_line(&v, n, &cap, UI_ROLE_HEADER, xasprintf("%-16s %16s %16s", "line", "on-demand", "provisioned"));
    size_t nl = a->on_demand.nlines > a->provisioned.nlines ? a->on_demand.nlines : a->provisioned.nlines;
    for (size_t i = 0; i < nl; i++) {
        const kp_cost_line *o = i < a->on_demand.nlines ? &a->on_demand.lines[i] : NULL;
        const kp_cost_line *p = i < a->provisioned.nlines ? &a->provisioned.lines[i] : NULL;
        char *mo = o ? wb_fmt_money(o->amount, cur) : xstrdup("");
        char *mp = p ? wb_fmt_money(p->amount, cur) : xstrdup("");
        char *ro = ralign(mo, 16), *rp = ralign(mp, 16);
        add_line(&v, n, &cap, UI_ROLE_NORMAL, xasprintf("%-16s %s %s", o ? o->name : p ? p->name : "", ro, rp));
        free(ro);
        free(rp);
        free(mo);
        free(mp);
    }
    char *tod = wb_fmt_money(a->on_demand.total, cur), *tpv = wb_fmt_money(a->provisioned.total, cur);
    char *rto = ralign(tod, 16), *rtp = ralign(tpv, 16);
    add_line(&v, n, &cap, UI_ROLE_HEADER, xasprintf("%-16s %s %s", "total", rto, rtp));
    free(rto);
    free(rtp);
    free(tod);
    free(tpv);
    add_line(&v, n, &cap, UI_ROLE_NORMAL, xstrdup(""));
    add_line(&v, n, &cap, UI_ROLE_TITLE, xstrdup("Partitions: hottest value per key template"));
    add_line(&v, n, &cap, UI_ROLE_HEADER,
             xasprintf("%-8s %-24s %10s %6s %7s %7s  %s", "index", "template", "distinct", "hot%", "read%",
                       "write%", ""));
    for (size_t i = 0; i < a->npartitions; i++) {
        const kp_partition_result *p = &a->partitions[i];
        char *dn = wb_fmt_num(p->distinct);
        char *tp = xstrdup(p->template_src ? p->template_src : "");
        size_t fit = disp_fit(tp, 24, NULL);
        tp[fit] = 0;
        int pad = 24 - disp_width(tp);
        char *shards = p->hot && p->suggest_shards > 0 ? xasprintf("HOT: shard x%d", p->suggest_shards)
                                                        : xstrdup(p->hot ? "HOT" : "");
        add_line(&v, n, &cap, p->hot ? UI_ROLE_BAD : p->read_util >= 0.5 || p->write_util >= 0.5 ? UI_ROLE_WARN : UI_ROLE_NORMAL,
                 xasprintf("%-8s %s%*s %10s %5.1f%% %6.1f%% %6.1f%%  %s", p->index_name ? p->index_name : "", tp,
                           pad > 0 ? pad : 0, "", dn, p->hot_share * 100, p->read_util * 100, p->write_util * 100,
                           shards));
        free(shards);
        free(dn);
        free(tp);
    }
    add_line(&v, n, &cap, UI_ROLE_NORMAL, xstrdup(""));
    add_line(&v, n, &cap, UI_ROLE_TITLE,
             xasprintf("Checklist: %d of %d applicable items pass", a->checklist_pass, a->checklist_applicable));
    for (int i = 0; i < KP_CHECKLIST_ITEMS; i++) {
        const kp_check_item *c = &a->checklist[i];
        if (!c->title)
            continue;
        add_line(&v, n, &cap, c->status == KP_CHECK_FAIL ? UI_ROLE_BAD : c->status == KP_CHECK_PASS ? UI_ROLE_GOOD : UI_ROLE_DIM,
                 xasprintf("%2d %-4s %s: %s", c->item, kp_check_status_name(c->status), c->title, c->why ? c->why : ""));
    }
    add_line(&v, n, &cap, UI_ROLE_NORMAL, xstrdup(""));
    add_line(&v, n, &cap, UI_ROLE_TITLE, xasprintf("Findings: %zu", a->nfindings));
    for (size_t i = 0; i < a->nfindings; i++) {
        const kp_finding *f = &a->findings[i];
        add_line(&v, n, &cap, f->sev == KP_SEV_ERROR ? UI_ROLE_BAD : f->sev == KP_SEV_WARNING ? UI_ROLE_WARN : UI_ROLE_NORMAL,
                 xasprintf("%s [%s] %s: %s%s%s", f->sev == KP_SEV_ERROR ? "E" : f->sev == KP_SEV_WARNING ? "W" : "i",
                           f->code, f->where ? f->where : "", f->message ? f->message : "", f->fix ? " -> " : "",
                           f->fix ? f->fix : ""));
    }
    add_line(&v, n, &cap, UI_ROLE_NORMAL, xstrdup(""));
    add_line(&v, n, &cap, UI_ROLE_TITLE, xstrdup("Settings (:set NAME VALUE changes one; u undoes)"));
    for (size_t i = 0; i < edit_nrows(d, EDIT_SETTINGS); i++) {
        char *k = edit_get(d, EDIT_SETTINGS, i, 0), *val = edit_get(d, EDIT_SETTINGS, i, 1);
        add_line(&v, n, &cap, *val ? UI_ROLE_NORMAL : UI_ROLE_DIM, xasprintf("  %-24s %s", k, *val ? val : "(default)"));
        free(k);
        free(val);
    }
    return v;
}

static size_t rows_cost(wb *w)
{
    size_t n;
    rline *v = cost_lines(w, &n);
    for (size_t i = 0; i < n; i++)
        free(v[i].text);
    free(v);
    return n;
}

static void cost_draw(wb *w, ui_rect r)
{
    size_t n;
    rline *v = cost_lines(w, &n);
    wb_cursor *c = &w->cur[UI_SCREEN_COST];
    /* the cursor row scrolls the report: keep it on the top line */
    c->top = c->row;
    for (int i = 0; i < r.h && c->top + (size_t)i < n; i++)
        wb_put(r.y + i, r.x, r.w, v[c->top + (size_t)i].text, v[c->top + (size_t)i].role);
    for (size_t i = 0; i < n; i++)
        free(v[i].text);
    free(v);
}

static wb_col *cost_columns(wb *w, size_t *n)
{
    (void)w;
    *n = 1;
    wb_col *v = xcalloc(1, sizeof *v);
    v[0] = (wb_col){-1, 0, "line", 0};
    return v;
}

/* ---- the table --------------------------------------------------------------------------------- */

static const wb_screen_ops screens[UI_SCREEN__COUNT] = {
    [UI_SCREEN_PATTERNS] = {.name = "Patterns", .table = EDIT_PATTERNS, .is_table = true,
                            .columns = patterns_columns, .computed = computed, .rows = rows_patterns,
                            .handle = patterns_handle},
    [UI_SCREEN_KEYS] = {.name = "Keys", .table = EDIT_KEYS, .is_table = true, .columns = keys_columns,
                        .computed = computed, .rows = rows_entities},
    [UI_SCREEN_INDEXES] = {.name = "Indexes", .table = EDIT_INDEXES, .is_table = true,
                           .columns = indexes_columns, .computed = computed, .rows = rows_indexes},
    [UI_SCREEN_ATTRS] = {.name = "Attributes", .table = EDIT_ATTRS, .is_table = true, .columns = attrs_columns,
                         .computed = computed, .rows = rows_attrs},
    [UI_SCREEN_DECISIONS] = {.name = "Decisions", .table = EDIT_DECISIONS, .is_table = true,
                             .columns = decisions_columns, .computed = computed, .rows = rows_decisions},
    [UI_SCREEN_HISTORY] = {.name = "History", .table = EDIT_PATTERNS, .is_table = false,
                           .columns = history_columns, .rows = rows_history, .draw = history_draw,
                           .handle = history_handle},
    [UI_SCREEN_COST] = {.name = "Cost & heat", .table = EDIT_PATTERNS, .is_table = false,
                        .columns = cost_columns, .rows = rows_cost, .draw = cost_draw},
};

const wb_screen_ops *wb_screen(int id) { return &screens[(unsigned)id < UI_SCREEN__COUNT ? id : 0]; }

char *wb_cell_text(wb *w, int screen, size_t row, size_t col, int *role)
{
    const wb_screen_ops *ops = wb_screen(screen);
    *role = UI_ROLE_NORMAL;
    if (!ops->columns)
        return xstrdup("");
    size_t n = 0;
    wb_col *c = ops->columns(w, &n);
    char *r;
    if (col >= n)
        r = xstrdup("");
    else if (c[col].table < 0)
        r = ops->computed ? ops->computed(w, row, c[col].col, role) : xstrdup("");
    else {
        const wb_draft *dr = wb_draft_at(w, screen, row, col);
        if (dr) {
            *role = UI_ROLE_BAD;
            r = xasprintf("!%s", dr->text);
        } else {
            r = edit_get(session_design(w->ss), (edit_table)c[col].table, row, c[col].col);
        }
    }
    free(c);
    return r;
}

/* Column widths from the titles and the contents, capped. */
static int *col_widths(wb *w, const wb_col *c, size_t n, size_t nrows)
{
    int *wd = xcalloc(n ? n : 1, sizeof *wd);
    for (size_t i = 0; i < n; i++) {
        int cap = c[i].table == EDIT_KEYS && i > 0 ? 28 : 24;
        if (c[i].table == EDIT_PATTERNS && strcmp(c[i].title, "name") == 0)
            cap = 30;
        int m = disp_width(c[i].title);
        for (size_t r = 0; r < nrows; r++) {
            int role;
            char *t = wb_cell_text(w, w->screen, r, i, &role);
            int tw = disp_width(t);
            free(t);
            if (tw > m)
                m = tw;
        }
        wd[i] = m < 3 ? 3 : m > cap ? cap : m;
    }
    return wd;
}

/* The x of every visible column (or -1), given the editor width; keeps column 0 frozen and the
 * cursor column visible by moving cur->left. */
static int *col_xs(wb *w, const int *wd, size_t n, int width)
{
    wb_cursor *cur = &w->cur[w->screen];
    int *xs = xcalloc(n ? n : 1, sizeof *xs);
    if (cur->left < 1 || cur->col == 0)
        cur->left = 1;
    if (cur->col > 0 && cur->col < cur->left)
        cur->left = cur->col;
    for (;;) {
        for (size_t i = 0; i < n; i++)
            xs[i] = -1;
        int x = 0;
        if (n) {
            xs[0] = 0;
            x = wd[0] + 1;
        }
        for (size_t i = cur->left; i < n; i++) {
            if (x + wd[i] > width && i > cur->left)
                break;
            xs[i] = x;
            x += wd[i] + 1;
        }
        if (cur->col == 0 || cur->col >= n || xs[cur->col] >= 0 || cur->left >= cur->col)
            break;
        cur->left++;
    }
    return xs;
}

int wb_col_at(wb *w, int x)
{
    const wb_screen_ops *ops = wb_screen(w->screen);
    if (!ops->is_table)
        return -1;
    size_t n = 0;
    wb_col *c = ops->columns(w, &n);
    int *wd = col_widths(w, c, n, ops->rows(w));
    int *xs = col_xs(w, wd, n, w->lay.editor.w);
    int hit = -1;
    for (size_t i = 0; i < n; i++)
        if (xs[i] >= 0 && x >= xs[i] && x < xs[i] + wd[i] + 1)
            hit = (int)i;
    free(xs);
    free(wd);
    free(c);
    return hit;
}

static const char *empty_hint(int screen)
{
    switch (screen) {
    case UI_SCREEN_PATTERNS: return "No access patterns yet. Press a to add one, then Enter to edit its cells.";
    case UI_SCREEN_KEYS: return "No entities yet. Press a to add one, then type its key templates.";
    case UI_SCREEN_INDEXES: return "No indexes. Press a to add a GSI (only when a pattern needs it).";
    case UI_SCREEN_ATTRS: return "No attributes declared. Press a to give one a type or a distribution.";
    case UI_SCREEN_DECISIONS: return "No decisions. On Patterns, D records one about the pattern under the cursor.";
    default: return "";
    }
}

/* Draws a table screen; returns through cy and cx where the terminal cursor goes (editing). */
static void table_draw(wb *w, ui_rect r, int *cy, int *cx)
{
    const wb_screen_ops *ops = wb_screen(w->screen);
    size_t n = 0, nrows = ops->rows(w);
    wb_col *c = ops->columns(w, &n);
    wb_cursor *cur = &w->cur[w->screen];
    int *wd = col_widths(w, c, n, nrows);
    if (w->editing && cur->col < n && wd[cur->col] < 24)
        wd[cur->col] = r.w - wd[0] - 2 < 24 ? (r.w - wd[0] - 2 > 3 ? r.w - wd[0] - 2 : 3) : 24;
    int *xs = col_xs(w, wd, n, r.w);
    /* header */
    wb_put(r.y, r.x, r.w, "", UI_ROLE_HEADER);
    for (size_t i = 0; i < n; i++)
        if (xs[i] >= 0)
            wb_put(r.y, r.x + xs[i], wd[i] < r.w - xs[i] ? wd[i] : r.w - xs[i], c[i].title,
                   i == cur->col ? UI_ROLE_TAB_ACTIVE : UI_ROLE_HEADER);
    int h = r.h - 1;
    if (nrows == 0) {
        wb_put(r.y + 1, r.x, r.w, empty_hint(w->screen), UI_ROLE_DIM);
        for (int i = 2; i < r.h; i++)
            wb_put(r.y + i, r.x, r.w, "", UI_ROLE_NORMAL);
    }
    if (cur->row < cur->top)
        cur->top = cur->row;
    if (h > 0 && cur->row >= cur->top + (size_t)h)
        cur->top = cur->row - (size_t)h + 1;
    for (int i = 0; i < h && nrows; i++) {
        size_t row = cur->top + (size_t)i;
        int y = r.y + 1 + i;
        if (row >= nrows) {
            wb_put(y, r.x, r.w, "", UI_ROLE_NORMAL);
            continue;
        }
        bool is_cur = row == cur->row;
        wb_put(y, r.x, r.w, "", is_cur ? UI_ROLE_CURSOR_ROW : UI_ROLE_NORMAL);
        for (size_t k = 0; k < n; k++) {
            if (xs[k] < 0)
                continue;
            int cw = wd[k] < r.w - xs[k] ? wd[k] : r.w - xs[k];
            if (cw <= 0)
                continue;
            if (is_cur && k == cur->col && w->editing) {
                size_t start;
                int ccol;
                le_view(&w->le, cw, &start, &ccol);
                wb_put(y, r.x + xs[k], cw, w->le.buf + start, UI_ROLE_EDITOR);
                *cy = y;
                *cx = r.x + xs[k] + ccol;
                continue;
            }
            int role;
            char *t = wb_cell_text(w, w->screen, row, k, &role);
            if (is_cur && k == cur->col)
                role = role == UI_ROLE_BAD ? UI_ROLE_ALARM : UI_ROLE_CURSOR_CELL;
            else if (is_cur && (role == UI_ROLE_NORMAL))
                role = UI_ROLE_CURSOR_ROW;
            /* numbers right-aligned */
            int tw = disp_width(t);
            bool numeric = *t && strspn(t, "0123456789.,%") == strlen(t);
            if (numeric && tw < cw) {
                char *p = xasprintf("%*s%s", cw - tw, "", t);
                free(t);
                t = p;
            }
            wb_put(y, r.x + xs[k], cw, t, (ui_role)role);
            free(t);
        }
    }
    free(xs);
    free(wd);
    free(c);
}

void wb_draw_screen(wb *w, ui_rect r, int *cy, int *cx)
{
    const wb_screen_ops *ops = wb_screen(w->screen);
    if (ops->is_table)
        table_draw(w, r, cy, cx);
    else if (ops->draw)
        ops->draw(w, r);
}

/* ---- export -------------------------------------------------------------------------------- */

int wb_export_md(wb *w, const char *file)
{
    if (!w->an || !w->good) {
        wb_message(w, UI_ROLE_BAD, "export: the design has no valid analysis yet; fix the errors first");
        return WB_REDRAW;
    }
    export_record r;
    memset(&r, 0, sizeof r);
    r.design = w->good;
    r.analysis = w->an;
    r.signals = &w->sigs;
    r.source = session_path(w->ss);
    r.version = session_dirty(w->ss) ? 0 : session_base(w->ss);
    r.history = w->versions;
    r.nhistory = w->nversions;
    r.obs = w->obs;
    r.nobs = w->nobs;
    char *md = export_md(&r);
    char *err = NULL;
    if (fileio_write_atomic(file, md, strlen(md), &err))
        wb_message(w, UI_ROLE_GOOD, "decision record written to %s (%zu bytes)%s", file, strlen(md),
                   w->diags.errors ? " from the last good state" : "");
    else
        wb_message(w, UI_ROLE_BAD, "export: %s", err ? err : "cannot write the file");
    free(err);
    free(md);
    return WB_REDRAW;
}
