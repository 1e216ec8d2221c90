/* wb.c - the workbench core: state, recompute, the screens' envs, key handling, the default
 * actions and mouse clicks. Handlers change the state and return flags; nothing here draws. */
#include "wb_int.h"

#include "help.h"
#include "status.h"
#include "fields.h"
#include "validate.h"

#include <curses.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- setup ------------------------------------------------------------------------------- */

static void load_observations(wb *w)
{
    sig_observations_free(w->obs, w->nobs);
    w->obs = NULL;
    w->nobs = 0;
    ws_t *ws = session_ws(w->ss);
    if (ws && ws_observations(ws, &w->obs, &w->nobs, NULL) != KP_OK) {
        w->obs = NULL;
        w->nobs = 0;
    }
}

void wb_load_versions(wb *w)
{
    ws_versions_free(w->versions, w->nversions);
    w->versions = NULL;
    w->nversions = 0;
    if (session_log(w->ss, &w->versions, &w->nversions, NULL) != KP_OK) {
        w->versions = NULL;
        w->nversions = 0;
    }
}

void wb_analysis_free(wb *w, kp_analysis *a)
{
    if (!a)
        return;
    if (w->opt.analysis_free)
        w->opt.analysis_free(a);
    else
        analysis_free(a);
}

/* Whether steps a and b are the same. */
static bool same_rowop(kp_rowop a, kp_rowop b)
{
    return a.kind == b.kind && a.row == b.row && (a.kind != KP_ROW_MOVE || a.to == b.to);
}

/* The analysis of w->good in place of w->an: the injected one, else analysis_update, told the
 * pattern row a cell edit changed when w->an is of the design just before it (or the step an
 * index's row took; index_rest: w->index_rest as the recompute found it). */
static void run_analysis(wb *w, bool index_rest)
{
    if (w->opt.analyze) {
        wb_analysis_free(w, w->an);
        w->an = w->opt.analyze(w->good);
        return;
    }
    bool told =
        (w->pattern_edit || w->rows_edit || w->elem_edit || w->attr_rows || w->renamed || w->pid_edit) &&
        !w->an_behind && w->an;
    /* an index's step: an analysed good before it (or, its inverse, the valid rest it left) and
       owns its copy of the design, which takes the step */
    bool index =
        w->index_rows && w->an && w->an->design != w->good &&
        (!w->an_behind || (index_rest && same_rowop(w->index_op, kp_rowop_inverse(w->index_rest_op))));
    if (w->rest_edit && w->an)
        w->an = analysis_update(w->an, w->good, ANALYSIS_REST);
    else if (index)
        w->an = analysis_update_index_rows(w->an, w->good, w->index_op);
    else if (told && w->pid_edit)
        w->an = analysis_update_pattern_id(w->an, w->good, w->pid_row);
    else if (told && w->renamed)
        w->an = analysis_update_entity_name(w->an, w->good, w->renamed_row);
    else if (told && w->attr_rows)
        w->an = analysis_update_attr_rows(w->an, w->good, w->attr_rows_op);
    else if (told && w->elem_edit)
        w->an = analysis_update_row(w->an, w->good, w->elem_table, w->elem_row);
    else if (told && w->rows_edit)
        w->an = analysis_update_rows(w->an, w->good, w->rows_op);
    else if (w->keys_edit && !w->an_behind && w->an && w->an->design != w->good)
        w->an = analysis_update_keys(w->an, w->good, w->keys_table, w->keys_row);
    else
        w->an = analysis_update(w->an, w->good, told ? w->pattern_row : ANALYSIS_UNKNOWN);
}

/* Makes good the session's design d after the indexes' step w->index_op, when good was d before it
 * (valid), or d's valid rest after the inverse step (index_rest: then d's keys and rest, which
 * that rest left templates and signals out of, are copied). false when neither holds: good
 * unchanged. */
static bool take_good_index(wb *w, const kp_design *d, bool index_rest)
{
    kp_design *g = w->good;
    bool back = w->an_behind && index_rest && same_rowop(w->index_op, kp_rowop_inverse(w->index_rest_op));
    if (!w->index_rows || !g || w->opt.analyze || (w->an_behind && !back) ||
        !edit_rows_step_fits(g, d, EDIT_INDEXES, w->index_op))
        return false;
    if (!back)
        return edit_rows_step_from(g, d, EDIT_INDEXES, w->index_op);
    /* the rest's drops put back: d's keys (the index, the templates) and rest (the signals) */
    design_keys_copy_to(g, d);
    design_rest_copy(g, d);
    return true;
}

/* Makes w->good the session's design d: after a cell edit of pattern `row` alone of a design good
 * was a copy of (the last recompute validated it, so `good` is not a salvaged rest nor an older
 * tour step's), that pattern is copied again; after a structural step of the pattern list alone,
 * the same step is made on good (an inserted pattern copied); else the whole design. An injected
 * analysis may point into good: then always a new copy. */
static void take_good(wb *w, const kp_design *d, bool index_rest)
{
    if (take_good_index(w, d, index_rest))
        return;
    if (w->rest_edit) { /* the model is good's already */
        design_rest_copy(w->good, d);
        return;
    }
    if (w->keys_edit && !w->an_behind && w->good && !w->opt.analyze) { /* d's keys alone changed */
        design_keys_copy_to(w->good, d);
        return;
    }
    size_t row = w->pattern_row;
    if (w->renamed && !w->an_behind && w->good && !w->opt.analyze && w->good->nentities == d->nentities &&
        w->good->npatterns == d->npatterns && w->renamed_row < d->nentities) {
        /* that entity copied again, the patterns naming it renamed as the session's were (good
           was valid: no pattern named the new name, so the rename is the same on either) */
        kp_entity *ge = &w->good->entities[w->renamed_row];
        const kp_entity *de = &d->entities[w->renamed_row];
        for (size_t i = 0; i < d->npatterns; i++)
            edit_rename_entity_refs(&w->good->patterns[i], ge->name, de->name);
        fields_copy(&kp_rec_entity, ge, de);
        return;
    }
    if (w->pid_edit && !w->an_behind && w->good && !w->opt.analyze && w->good->npatterns == d->npatterns &&
        w->pid_row < d->npatterns) {
        row = w->pid_row;
        /* that pattern and those covered_by it copied again, the rest (the decisions naming it)
           too: good was the design before the edit, so they are what the edit changed */
        char *old = w->good->patterns[row].id ? xstrdup(w->good->patterns[row].id) : NULL;
        for (size_t i = 0; i < d->npatterns; i++) {
            const char *cb = w->good->patterns[i].covered_by.s;
            if (i == row || (old && cb && strcmp(cb, old) == 0))
                fields_copy(&kp_rec_pattern, &w->good->patterns[i], &d->patterns[i]);
        }
        free(old);
        design_rest_copy(w->good, d);
        return;
    }
    const kp_record *rec;
    void *ge = w->elem_edit && !w->an_behind && w->good && !w->opt.analyze
                   ? edit_row(w->good, w->elem_table, w->elem_row, &rec)
                   : NULL;
    const void *de = ge ? edit_row((kp_design *)d, w->elem_table, w->elem_row, &rec) : NULL;
    if (de && edit_nrows(w->good, w->elem_table) == edit_nrows(d, w->elem_table)) {
        fields_copy(rec, ge, de); /* that element alone copied again */
        return;
    }
    if (w->pattern_edit && !w->an_behind && w->good && !w->opt.analyze &&
        w->good->npatterns == d->npatterns && row < d->npatterns) {
        kp_pattern *g = &w->good->patterns[row];
        pattern_free(g);
        *g = d->patterns[row];
        fields_clone(&kp_rec_pattern, g, &d->patterns[row]);
        return;
    }
    kp_rowop op = w->rows_op;
    size_t n = w->good ? w->good->npatterns : 0;
    if (w->rows_edit && !w->an_behind && w->good && !w->opt.analyze && kp_rowop_fits(op, n) &&
        kp_rowop_count(op, n) == d->npatterns) { /* the same step on the copy */
        kp_pattern p = {0}, gone = {0};
        if (op.kind == KP_ROW_INSERT) {
            p = d->patterns[op.row];
            fields_clone(&kp_rec_pattern, &p, &d->patterns[op.row]);
        }
        design_patterns_step(w->good, op, &p, &gone);
        if (op.kind == KP_ROW_REMOVE)
            pattern_free(&gone);
        return;
    }
    design_free(w->good);
    w->good = design_clone(d);
}

/* Whether the rows step `op`, made on a design whose good copy is `good` from which the design
 * came by step `lag` alone, brings that design back: the inverse step (an insertion putting back
 * the same pattern that was removed). */
static bool undoes(const kp_design *good, const kp_design *d, kp_rowop lag, kp_rowop op)
{
    if (!same_rowop(op, kp_rowop_inverse(lag)))
        return false;
    return op.kind != KP_ROW_INSERT ||
           (op.row < d->npatterns && op.row < good->npatterns &&
            fields_equal(&kp_rec_pattern, &good->patterns[op.row], &d->patterns[op.row]));
}

void wb_recompute(wb *w)
{
    const kp_design *d = session_design(w->ss);
    unsigned long before = w->gen + w->drafts.changes, marks = w->drafts.changes;
    w->gen++;
    bool ok = true, rows = w->rows_edit, behind = w->an_behind, index_rest = w->index_rest;
    w->index_rest = false; /* of the design before: wb_salvage may make it anew */
    kp_rowop op = w->rows_op;
    /* good and an are of d but for one pattern row that does not validate (fill: inserted, or
       broken by its own cells), and this edit is of that row's cells or takes it away: they stay,
       or are told that row's step; a cell edit of a valid design may start such a state */
    bool fill = w->fill && behind && w->good && w->an && !w->opt.analyze, fill_new = w->fill_new;
    size_t fill_row = w->fill_row, gn = w->good ? w->good->npatterns : 0;
    bool fill_cell = fill && w->pattern_edit && w->pattern_row == fill_row && gn + fill_new == d->npatterns,
         fill_gone =
             fill && rows && op.kind == KP_ROW_REMOVE && op.row == fill_row && gn == d->npatterns + !fill_new,
         break_cell = !behind && w->pattern_edit && w->good && w->an && !w->opt.analyze;
    w->fill = false;
    if (w->opt.no_validate) {
        diags_free(&w->diags);
        diags_init(&w->diags, "design");
    } else if (w->pattern_edit) { /* the patterns the edit can change are checked again */
        ok = validate_pattern_edit(d, w->pattern_row, &w->diags, &w->vmemo);
    } else if (w->rows_edit) { /* the patterns the step can change are checked again */
        ok = validate_rows_edit(d, w->rows_op, &w->diags, &w->vmemo);
    } else if (w->elem_edit) { /* the patterns that read the element are checked again */
        ok = validate_row_edit(d, w->elem_table, w->elem_row, &w->diags, &w->vmemo);
    } else if (w->renamed) { /* the patterns naming it, or naming what no entity is */
        ok = validate_entity_rename(d, w->renamed_row, &w->diags, &w->vmemo);
    } else if (w->pid_edit) { /* the pattern, those with either id or a covered_by, the decisions */
        ok = validate_pattern_id_edit(d, w->pid_row, &w->diags, &w->vmemo);
    } else if (w->index_rows) { /* the indexes' list: the patterns' checks stand */
        ok = validate_index_rows_edit(d, &w->diags, &w->vmemo);
    } else if (!behind && w->good && w->an && !w->opt.analyze &&
               (w->rest_told || design_same_model(w->good, d))) {
        /* the rest alone changed (a setting, a decision): the patterns' checks and results stand */
        w->rest_edit = true;
        ok = validate_rest_edit(d, &w->diags, &w->vmemo);
    } else {
        ok = validate_design_memo(d, &w->diags, &w->vmemo);
    }
    drafts_unmark(&w->drafts);
    w->partial = false;
    w->an_kept = false;
    size_t without = rows && op.kind == KP_ROW_INSERT && !behind ? op.row
                     : fill_cell && fill_new                     ? fill_row
                                                                 : (size_t)-1;
    if (!ok) {
        const kp_design *g = w->good;
        wb_salvage(w, d, without);
        w->an_kept = !w->partial; /* no valid rest: good and an stay */
        /* good and an stand (not replaced by another valid rest): of d without that row, or of d
           with that row as it was when it last validated */
        w->fill = w->good == g &&
                  (without != (size_t)-1 || (fill_cell && !w->partial) || (break_cell && w->an_kept));
        w->fill_new = without != (size_t)-1;
        w->fill_row = without != (size_t)-1 ? without : w->pattern_row;
    }
    if (ok) {
        sig_report_free(&w->sigs);
        if (rows && behind && !w->opt.analyze && w->good &&
            ((w->lag && undoes(w->good, d, w->lag_op, op)) || (fill_gone && fill_new))) {
            w->an_kept = true; /* the step that broke the design taken back: good is d again */
        } else if (behind && !w->opt.analyze && w->good && !fill_cell && !fill_gone &&
                   design_equal(w->good, d)) {
            w->an_kept = true; /* back to the design last valid (an entity added, then undone) */
        } else {
            if (fill_cell || fill_gone) /* good and an are of d but for that row: told its step */
                w->an_behind = false;
            if (fill_cell && fill_new) { /* the inserted row's cell that makes it valid */
                w->pattern_edit = false;
                w->rows_edit = true;
                w->rows_op = (kp_rowop){KP_ROW_INSERT, fill_row, 0};
            }
            take_good(w, d, index_rest);
            run_analysis(w, index_rest);
        }
        sig_evaluate(w->good, w->an, w->obs, w->nobs, &w->sigs);
    }
    /* a rows step from a valid design to one with no valid rest: good and an are one step back */
    w->lag = !ok && rows && !behind && w->an_kept;
    w->lag_op = op;
    w->an_behind = !ok;
    /* the rest alone changed: no pattern's cell nor plan did (unless a cell's mark went) */
    if (w->rest_edit && ok && w->drafts.changes == marks)
        screen_cache_kept(&w->cache[UI_SCREEN_PATTERNS], before, w->gen + w->drafts.changes);
    w->pattern_edit = false;
    w->elem_edit = false;
    w->renamed = false;
    w->pid_edit = false;
    w->keys_edit = false;
    w->rows_edit = false;
    w->attr_rows = false;
    w->index_rows = false;
    w->rest_edit = false;
    w->rest_told = false;
}

wb *wb_new(session *s, const wb_options *opt)
{
    wb *w = xcalloc(1, sizeof *w);
    w->ss = s;
    if (opt)
        w->opt = *opt;
    diags_init(&w->diags, "design");
    le_init(&w->le, NULL);
    le_init(&w->pl, NULL);
    le_init(&w->merge_le, NULL);
    drafts_init(&w->drafts);
    for (int i = 0; i < UI_SCREEN__COUNT; i++)
        w->state[i] = screen_get(i)->open ? screen_get(i)->open() : NULL;
    load_observations(w);
    wb_load_versions(w);
    wb_recompute(w);
    w->tour_on = w->opt.ntour > 0;
    wb_tour_resume(w);
    /* a version committed while this author was away, on top of their uncommitted work: said at
       once, as when one arrives during the session */
    int latest = session_latest(s);
    w->remote_change = latest > session_base(s) && session_base(s) > 0;
    if (session_note(s))
        wb_message(w, UI_ROLE_WARN, "%s", session_note(s));
    else if (w->remote_change)
        wb_message(w, UI_ROLE_WARN,
                   _("version %1$d was committed since your working copy's version %2$d; R merges it into "
                     "your working copy"),
                   latest, session_base(s));
    else
        wb_message(w, UI_ROLE_DIM, _("? help   : commands   Tab next screen   Enter edit   a add   q quit"));
    return w;
}

void wb_free(wb *w)
{
    if (!w)
        return;
    sig_report_free(&w->sigs);
    wb_analysis_free(w, w->an);
    design_free(w->good);
    wb_analysis_free(w, w->tour_prev_an);
    design_free(w->tour_prev);
    wb_tour_free(w);
    diags_free(&w->diags);
    validate_memo_free(&w->vmemo);
    sig_observations_free(w->obs, w->nobs);
    le_free(&w->le);
    le_free(&w->pl);
    le_free(&w->merge_le);
    ws_presence_free(w->others, w->nothers);
    msgline_free(&w->msg);
    detail_close(&w->detail);
    form_close(&w->form);
    free(w->search);
    drafts_free(&w->drafts);
    free(w->pane_hit);
    ws_versions_free(w->versions, w->nversions);
    for (int i = 0; i < UI_SCREEN__COUNT; i++) {
        if (screen_get(i)->close)
            screen_get(i)->close(w->state[i]);
        screen_cache_free(&w->cache[i]);
    }
    narration_steps_free(w->opt.tour, w->opt.ntour);
    session_close(w->ss);
    free(w);
}

void wb_message(wb *w, ui_role role, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    msgline_set(&w->msg, role, "%s", s);
    free(s);
}

bool wb_quitting(const wb *w) { return w->quit; }
const session *wb_session(const wb *w) { return w->ss; }
const drafts *wb_drafts(const wb *w) { return &w->drafts; }

const ui_draft *wb_draft_at(const wb *w, int screen, size_t row, size_t col)
{
    return drafts_find(&w->drafts, screen, row, col);
}

/* ---- layout -------------------------------------------------------------------------------- */

void wb_relayout(wb *w)
{
    int lines = w->lay.lines, cols = w->lay.cols;
    layout_compute_tour(lines, cols, w->tour_on ? w->tour_rows : -1, w->pane_step, w->pane_hidden, &w->lay);
    int n = lines > 0 ? lines : 0;
    w->pane_hit = xrealloc(w->pane_hit, (size_t)(n ? n : 1) * sizeof *w->pane_hit);
    w->npane_hit = n;
    for (int i = 0; i < n; i++)
        w->pane_hit[i] = -1;
}

int wb_resize(wb *w, int lines, int cols)
{
    w->lay.lines = lines;
    w->lay.cols = cols;
    wb_relayout(w);
    return UI_REDRAW | UI_RESIZE;
}

/* ---- screens ------------------------------------------------------------------------------- */

static kp_analysis *analyze_default(const kp_design *d) { return analysis_run(d); }
static void analysis_free_default(kp_analysis *a) { analysis_free(a); }

screen_env wb_env(wb *w, int id)
{
    if ((unsigned)id >= UI_SCREEN__COUNT)
        id = 0;
    return (screen_env){
        .id = id,
        .ops = screen_get(id),
        .state = w->state[id],
        .cur = &w->cur[id],
        .ss = w->ss,
        .design = session_design(w->ss),
        .an = w->an,
        .sigs = &w->sigs,
        .obs = w->obs,
        .nobs = w->nobs,
        .versions = w->versions,
        .nversions = w->nversions,
        .drafts = &w->drafts,
        .editor = w->editing && id == w->screen ? &w->le : NULL,
        .pattern_cur = &w->cur[UI_SCREEN_PATTERNS],
        .msg = &w->msg,
        .gen = w->gen + w->drafts.changes, /* both only grow: any change makes a new sum */
        .cache = &w->cache[id],
        .analyze = w->opt.analyze ? w->opt.analyze : analyze_default,
        .analysis_free = w->opt.analysis_free ? w->opt.analysis_free : analysis_free_default,
    };
}

static size_t cur_nrows(wb *w)
{
    screen_env e = wb_env(w, w->screen);
    return screen_rows(&e);
}

static size_t cur_ncols(wb *w)
{
    screen_env e = wb_env(w, w->screen);
    size_t n = 0;
    free(screen_columns(&e, &n));
    return n;
}

static bool cur_col(wb *w, size_t i, screen_col *out)
{
    screen_env e = wb_env(w, w->screen);
    size_t n = 0;
    screen_col *c = screen_columns(&e, &n);
    bool ok = i < n;
    if (ok)
        *out = c[i];
    free(c);
    return ok;
}

static int page_rows(wb *w)
{
    int h = w->lay.editor.h - 2;
    return h > 1 ? h : 1;
}

static void clamp_cursor(wb *w)
{
    size_t nr = cur_nrows(w), nc = cur_ncols(w);
    ui_cursor *c = &w->cur[w->screen];
    if (c->row >= nr)
        c->row = nr ? nr - 1 : 0;
    if (c->col >= nc)
        c->col = nc ? nc - 1 : 0;
    size_t ph = (size_t)page_rows(w);
    if (c->row < c->top)
        c->top = c->row;
    if (c->row >= c->top + ph)
        c->top = c->row - ph + 1;
}

/* ---- changes ------------------------------------------------------------------------------ */

static void after_change(wb *w)
{
    wb_recompute(w);
    clamp_cursor(w);
}

/* After a cell edit of pattern row `row` (or its undo or redo) and its recompute: every other
 * row of the Patterns screen shows what it showed, so its widths may follow that row alone. So
 * when, before and after, the design validated (each pattern's plan is resolved on its own, and
 * no cell was marked by salvage) or good and an were of it but for that row (fill: only that row
 * is marked, the others' plans are from the same analysis). */
static bool row_cells_alone(const wb *w, size_t row, bool valid_before, bool fill_before)
{
    return !w->opt.analyze && w->screen == UI_SCREEN_PATTERNS && (valid_before || fill_before) &&
           ((!w->an_behind && !w->partial) || (w->fill && w->fill_row == row));
}

/* Is pattern `row` named by another's covered_by (whose cell a change of its id changes too)? */
static bool covers_others(const kp_design *d, size_t row)
{
    const char *id = row < d->npatterns ? d->patterns[row].id : NULL;
    for (size_t i = 0; id && i < d->npatterns; i++)
        if (i != row && d->patterns[i].covered_by.s && strcmp(d->patterns[i].covered_by.s, id) == 0)
            return true;
    return false;
}

/* After a change given to the session: its refusal or failure on the message line (err taken),
 * then the analysis. Returns st. */
static kp_status changed(wb *w, kp_status st, char *err)
{
    if (st == KP_READONLY)
        wb_message(w, UI_ROLE_BAD, "%s", err ? err : _("read-only"));
    else if (st != KP_OK)
        wb_message(w, UI_ROLE_WARN, _("kept in memory only: %s"), err ? err : _("the workspace refused it"));
    free(err);
    after_change(w);
    return st;
}

kp_status wb_apply(wb *w, kp_design *nd, const char *label)
{
    char *err = NULL;
    kp_status st = session_apply(w->ss, nd, label, &err);
    return changed(w, st, err);
}

bool wb_set_rest(wb *w, edit_table t, size_t row, size_t col, const char *text, const char *label,
                 kp_status *st, char **refused)
{
    char *err = NULL;
    bool applied = false;
    bool rest = edit_changes_rest_only(t, row, col); /* else compared as any change */
    *st = session_edit_set(w->ss, t, row, col, text, label, &applied, &err);
    if (!applied) {
        *refused = err;
        return false;
    }
    w->rest_told = rest;
    /* the table's key attribute (:set pk): made in place, the keys alone changed */
    w->keys_edit = edit_changes_keys_only(t, row, col);
    w->keys_table = t;
    w->keys_row = row;
    *st = changed(w, *st, err);
    return true;
}

static void save_cell(wb *w, const char *text)
{
    ui_cursor *c = &w->cur[w->screen];
    screen_col col;
    if (!cur_col(w, c->col, &col) || col.table < 0) {
        wb_message(w, UI_ROLE_WARN, _("this column is computed by the model; it cannot be edited"));
        return;
    }
    const kp_design *d = session_design(w->ss);
    char *old = edit_get(d, (edit_table)col.table, c->row, col.col);
    bool same = strcmp(old, text) == 0;
    free(old);
    if (same) {
        drafts_drop(&w->drafts, w->screen, c->row, c->col);
        wb_message(w, UI_ROLE_DIM, _("%s unchanged"), col.title);
        return;
    }
    char *err = NULL;
    char *label =
        xasprintf("edit %s row %zu %s", edit_table_name((edit_table)col.table), c->row + 1, col.title);
    /* what the Patterns screen drew from, to tell its cache that this row alone changes */
    unsigned long before = w->gen + w->drafts.changes;
    bool valid_before = !w->an_behind && !w->partial, fill_before = w->fill && w->fill_row == c->row;
    bool applied = false;
    /* an entity's cell other than its name, an attribute's, an index's other than its keys change
       that element alone (the session edits it in place, as it does a pattern's cell); a
       decision's changes the rest alone (rest_told below) */
    edit_table tab = (edit_table)col.table;
    bool elem_only =
        edit_changes_row_only(d, tab, col.col) && c->row < edit_nrows(d, tab) && tab != EDIT_DECISIONS;
    /* an entity's name: that entity and the patterns naming it (the session renames in place) */
    bool renames = edit_renames_entity(tab, col.col) && c->row < d->nentities;
    /* a pattern's id: that pattern, the covered_by and the decisions naming it (in place too) */
    bool pid = edit_renames_pattern(tab, col.col) && c->row < d->npatterns;
    /* a pattern's cell is changed in place, its save and undo step in proportion to it */
    kp_status st =
        session_edit_set(w->ss, (edit_table)col.table, c->row, col.col, text, label, &applied, &err);
    free(label);
    if (!applied) {
        drafts_set(&w->drafts, w->screen, c->row, c->col, text, err);
        wb_message(w, UI_ROLE_BAD, _("%s: %s (the model keeps the last good value)"), col.title, err);
        free(err);
        return;
    }
    drafts_drop(&w->drafts, w->screen, c->row, c->col);
    bool one = edit_changes_pattern_only((edit_table)col.table, col.col);
    w->pattern_edit = one;
    w->pattern_row = c->row;
    w->elem_edit = elem_only;
    w->elem_table = tab;
    w->elem_row = c->row;
    w->renamed = renames;
    w->renamed_row = c->row;
    w->pid_edit = pid;
    w->pid_row = c->row;
    w->rest_told = edit_changes_rest_only(tab, c->row, col.col);
    /* a key attribute renamed in place (the templates following): the keys alone changed */
    w->keys_edit = edit_changes_keys_only(tab, c->row, col.col);
    w->keys_table = tab;
    w->keys_row = c->row;
    size_t row = c->row;
    st = changed(w, st, err);
    /* an id no covered_by names: that row's cells alone changed, as for a cell */
    one = one || (pid && !covers_others(session_design(w->ss), row));
    /* valid before and after: the row's cells and its pattern's result are all that changed (each
       pattern's plan is resolved on its own; no cell was marked by salvage either time) */
    if (one && row_cells_alone(w, row, valid_before, fill_before))
        screen_cache_row_changed(&w->cache[UI_SCREEN_PATTERNS], before, w->gen + w->drafts.changes, row);
    if (st == KP_READONLY)
        return; /* the message says why */
    if (w->diags.errors)
        wb_message(w, UI_ROLE_WARN, "%s", w->diags.v[0].msg);
    else
        wb_message(w, UI_ROLE_GOOD, _("saved %s"), col.title);
}

/* An undo step's label for people: the workspace keeps it in English ("edit patterns row 2
 * rate", what this file and the others write), the message line says it in the reader's
 * language; a label of another shape is shown as it is. Caller frees. */
static char *label_text(const char *label)
{
    static const struct {
        const char *verb;
        const char *row; /* "VERB TABLE row N" */
    } rows[] = {
        {"add", N_("add %s row %zu")},
        {"delete", N_("delete %s row %zu")},
        {"duplicate", N_("duplicate %s row %zu")},
        {"move up", N_("move up %s row %zu")},
        {"move down", N_("move down %s row %zu")},
    };
    char table[64], col[256];
    size_t row = 0;
    int used = 0;
    /* TRANSLATORS: an undo step: "edit patterns row 2 rate" (the design file's table and column) */
    if (sscanf(label, "edit %63s row %zu %255[^\n]%n", table, &row, col, &used) == 3 && !label[used])
        return xasprintf(_("edit %s row %zu %s"), table, row, col);
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        size_t n = strlen(rows[i].verb);
        if (strncmp(label, rows[i].verb, n) == 0 && label[n] == ' ' &&
            sscanf(label + n + 1, "%63s row %zu%n", table, &row, &used) == 2 && !label[n + 1 + (size_t)used])
            return xasprintf(_(rows[i].row), table, row);
    }
    int step = 0;
    if (sscanf(label, "merge version %d%n", &step, &used) == 1 && !label[used])
        return xasprintf(_("merge version %d"), step);
    if (strncmp(label, "set ", 4) == 0)
        return xasprintf(_("set %s"), label + 4);
    if (strncmp(label, "import ", 7) == 0)
        return xasprintf(_("import %s"), label + 7);
    if (strcmp(label, "record decision") == 0)
        return xstrdup(_("record decision"));
    if (strcmp(label, "open design file") == 0)
        return xstrdup(_("open design file"));
    return xstrdup(label);
}

/* What the Patterns screen showed before a rows step, for rows_cells_kept. */
typedef struct rows_before {
    bool drafts; /* some cell held a draft (typed text or a mark): the step clears them */
    bool partial, behind;
    bool fill; /* good and an were of the design but for pattern row fill_row (wb.fill) */
    size_t fill_row;
} rows_before;

static rows_before rows_before_of(const wb *w)
{
    return (rows_before){w->drafts.n > 0, w->partial, w->an_behind, w->fill, w->fill_row};
}

/* After rows step op and its recompute: every row of the Patterns screen shows the cells its row
 * showed before (no draft or mark before or after, and each pattern's plan from an analysis of
 * the design it was in, or from the same analysis: the row that kept the design from validating
 * removed, the others' results kept), so its widths may follow the rows. */
static bool rows_cells_kept(const wb *w, rows_before was, kp_rowop op)
{
    return !w->opt.analyze && w->screen == UI_SCREEN_PATTERNS && !was.drafts && !was.partial && !w->partial &&
           ((!was.behind && !w->an_behind) || w->an_kept ||
            (was.fill && op.kind == KP_ROW_REMOVE && op.row == was.fill_row && !w->an_behind));
}

/* A row command on the Patterns table: made in place by the session (its undo entry and save in
 * proportion to the step), then checked, copied and analysed as that step (rows_edit), and the
 * Patterns screen's widths follow the rows instead of being measured again. The message line
 * says how it went (what: the undo step's label; cannot, done: the messages). */
static int pattern_rows(wb *w, ui_action a, const char *what, const char *cannot, const char *done)
{
    ui_cursor *c = &w->cur[w->screen];
    session_rowcmd cmd = a == UI_ACT_ADD_ROW         ? SESSION_ROW_ADD
                         : a == UI_ACT_DELETE_ROW    ? SESSION_ROW_DELETE
                         : a == UI_ACT_DUPLICATE_ROW ? SESSION_ROW_DUPLICATE
                         : a == UI_ACT_ROW_UP        ? SESSION_ROW_UP
                                                     : SESSION_ROW_DOWN;
    size_t nr = session_design(w->ss)->npatterns;
    size_t row = cmd == SESSION_ROW_ADD ? (nr ? c->row + 1 : 0) : c->row;
    char *label = xasprintf("%s %s row %zu", what, edit_table_name(EDIT_PATTERNS), c->row + 1);
    unsigned long before = w->gen + w->drafts.changes; /* what the Patterns screen drew from */
    rows_before was = rows_before_of(w);
    char *err = NULL;
    kp_rowop op;
    kp_status st = session_pattern_rows(w->ss, cmd, row, label, &op, &err);
    free(label);
    if (st == KP_NOTFOUND) {
        free(err);
        wb_message(w, UI_ROLE_WARN, "%s", cannot);
        return UI_REDRAW;
    }
    if (st != KP_READONLY) {
        drafts_clear(&w->drafts);
        w->rows_edit = true;
        w->rows_op = op;
    }
    st = changed(w, st, err);
    if (st == KP_READONLY)
        return UI_REDRAW;
    if (rows_cells_kept(w, was, op))
        screen_cache_rows_moved(&w->cache[UI_SCREEN_PATTERNS], before, w->gen + w->drafts.changes, op);
    c->row = op.kind == KP_ROW_MOVE ? op.to : op.row;
    clamp_cursor(w);
    wb_message(w, UI_ROLE_GOOD, "%s", done);
    return UI_REDRAW;
}

static int row_op(wb *w, ui_action a)
{
    const screen_ops *ops = screen_get(w->screen);
    if (!ops->is_table) {
        wb_message(w, UI_ROLE_WARN, _("%s has no rows to change"), _(ops->name));
        return UI_REDRAW;
    }
    edit_table t = ops->table;
    ui_cursor *c = &w->cur[w->screen];
    /* what: the undo step's label (kept in the workspace, in English); cannot and done: what the
       message line says */
    const char *what = "", *cannot = "", *done = "";
    switch (a) {
    case UI_ACT_ADD_ROW:
        what = "add", cannot = _("cannot add here"), done = _("add: done (u undoes)");
        break;
    case UI_ACT_DELETE_ROW:
        what = "delete", cannot = _("cannot delete here"), done = _("delete: done (u undoes)");
        break;
    case UI_ACT_DUPLICATE_ROW:
        what = "duplicate", cannot = _("cannot duplicate here"), done = _("duplicate: done (u undoes)");
        break;
    case UI_ACT_ROW_UP:
        what = "move up", cannot = _("cannot move up here"), done = _("move up: done (u undoes)");
        break;
    case UI_ACT_ROW_DOWN:
        what = "move down", cannot = _("cannot move down here"), done = _("move down: done (u undoes)");
        break;
    default:
        break;
    }
    if (t == EDIT_PATTERNS)
        return pattern_rows(w, a, what, cannot, done);
    /* another list: the session makes the step in place too (its undo entry the step back), and
       the checks, the copy and the analysis follow the whole design */
    const kp_design *d = session_design(w->ss);
    size_t nr = edit_nrows(d, t);
    session_rowcmd cmd = a == UI_ACT_ADD_ROW         ? SESSION_ROW_ADD
                         : a == UI_ACT_DELETE_ROW    ? SESSION_ROW_DELETE
                         : a == UI_ACT_DUPLICATE_ROW ? SESSION_ROW_DUPLICATE
                         : a == UI_ACT_ROW_UP        ? SESSION_ROW_UP
                                                     : SESSION_ROW_DOWN;
    char *label = xasprintf("%s %s row %zu", what, edit_table_name(t), c->row + 1);
    char *err = NULL;
    kp_rowop op = {0};
    kp_status st = session_rows(w->ss, t, cmd, cmd == SESSION_ROW_ADD ? (nr ? c->row + 1 : 0) : c->row, label,
                                &op, &err);
    free(label);
    if (st == KP_NOTFOUND) {
        free(err);
        wb_message(w, UI_ROLE_WARN, "%s", cannot);
        return UI_REDRAW;
    }
    if (st != KP_READONLY) {
        drafts_clear(&w->drafts);
        /* a row of the attributes added or taken out: the analysis told that step (one that
           nothing reads moves the others' positions alone) */
        w->attr_rows = t == EDIT_ATTRS && op.kind != KP_ROW_MOVE;
        w->attr_rows_op = op;
        w->index_rows = t == EDIT_INDEXES;
        w->index_op = op;
    }
    st = changed(w, st, err);
    if (st == KP_READONLY)
        return UI_REDRAW;
    c->row = op.kind == KP_ROW_MOVE ? op.to : op.row;
    clamp_cursor(w);
    wb_message(w, UI_ROLE_GOOD, "%s", done);
    return UI_REDRAW;
}

/* ---- search ------------------------------------------------------------------------------- */

static int search(wb *w, int dir)
{
    if (!w->search || !*w->search) {
        wb_message(w, UI_ROLE_WARN, _("no search yet: / starts one"));
        return UI_REDRAW;
    }
    size_t nr = cur_nrows(w), nc = cur_ncols(w);
    if (!nr || !nc) {
        wb_message(w, UI_ROLE_WARN, _("nothing to search here"));
        return UI_REDRAW;
    }
    ui_cursor *c = &w->cur[w->screen];
    size_t total = nr * nc, pos = c->row * nc + c->col;
    for (size_t k = 1; k <= total; k++) {
        size_t p = dir > 0 ? (pos + k) % total : (pos + total - (k % total)) % total;
        int role;
        screen_env e = wb_env(w, w->screen);
        char *t = screen_cell_text(&e, p / nc, p % nc, &role);
        bool hit = util_contains_ci(t, w->search);
        free(t);
        if (hit) {
            c->row = p / nc;
            c->col = p % nc;
            clamp_cursor(w);
            wb_message(w, UI_ROLE_NORMAL, "/%s", w->search);
            return UI_REDRAW;
        }
    }
    wb_message(w, UI_ROLE_WARN, _("'%s' not found"), w->search);
    return UI_REDRAW;
}

/* ---- commits, reload, history -------------------------------------------------------------- */

int wb_commit(wb *w, const char *message)
{
    if (drafts_typed(&w->drafts)) {
        sbuf b;
        sbuf_init(&b);
        size_t k = 0;
        for (size_t i = 0; i < w->drafts.n; i++) {
            const ui_draft *dr = &w->drafts.v[i];
            if (dr->model)
                continue;
            screen_env e = wb_env(w, dr->screen);
            size_t nc = 0;
            screen_col *cols = screen_columns(&e, &nc);
            sbuf_add(&b, k++ ? ", " : "");
            /* TRANSLATORS: a cell: "Patterns row 2 rate 'abc'" (screen, row, column, its text) */
            sbuf_printf(&b, _("%s row %zu %s '%s'"), ui_screen_title(dr->screen), dr->row + 1,
                        dr->col < nc ? cols[dr->col].title : "", dr->text);
            free(cols);
        }
        wb_message(
            w, UI_ROLE_BAD,
            ngettext("nothing committed: %zu cell marked ! holds text that was never applied (%s); fix it, "
                     "or Esc in it drops the text",
                     "nothing committed: %zu cells marked ! hold text that was never applied (%s); fix "
                     "them, or Esc in each drops the text",
                     k),
            k, b.s);
        sbuf_free(&b);
        return UI_REDRAW;
    }
    int n = 0;
    char *err = NULL;
    kp_status st = session_commit(w->ss, message, &n, &err);
    if (st == KP_CONFLICT) {
        wb_message(w, UI_ROLE_BAD, _("commit refused, R merges the latest version into yours: %s"),
                   err ? err : "");
        w->remote_change = true;
    } else if (st != KP_OK) {
        if (st == KP_INVALID)
            wb_message(w, UI_ROLE_BAD, "%s", err ? err : kp_status_text(st));
        else
            wb_message(w, UI_ROLE_BAD, _("commit failed: %s"), err ? err : kp_status_text(st));
    } else {
        wb_message(w, UI_ROLE_GOOD, _("committed version %d: %s"), n, message);
        w->remote_change = false;
        wb_load_versions(w);
    }
    free(err);
    return UI_REDRAW;
}

static int do_reload(wb *w)
{
    char *err = NULL;
    int before = session_base(w->ss);
    bool dirty = session_dirty(w->ss);
    size_t nconflicts = 0;
    if (session_reload(w->ss, &nconflicts, &err) != KP_OK) {
        wb_message(w, UI_ROLE_WARN, _("reload: %s"), err ? err : _("failed"));
        free(err);
        return UI_REDRAW;
    }
    wb_load_versions(w);
    load_observations(w);
    if (nconflicts) /* the merge view takes over until its conflicts are resolved */
        return wb_merge_opened(w, nconflicts);
    drafts_clear(&w->drafts);
    w->remote_change = false;
    after_change(w);
    if (session_base(w->ss) == before)
        wb_message(w, UI_ROLE_DIM, _("your working copy is based on the latest version (%d) already"),
                   before);
    else if (dirty)
        wb_message(w, UI_ROLE_GOOD,
                   _("merged version %d into your working copy; c commits it (u undoes the merge)"),
                   session_base(w->ss));
    else
        wb_message(w, UI_ROLE_GOOD, _("reloaded version %d"), session_base(w->ss));
    return UI_REDRAW;
}

void wb_after_merge(wb *w)
{
    drafts_clear(&w->drafts);
    w->remote_change = false;
    after_change(w);
}

int wb_tick(wb *w)
{
    int pf = wb_presence_tick(w);
    session_idle(w->ss); /* the edits saved as lines become the whole text while nobody types */
    if (!session_changed_elsewhere(w->ss))
        return pf;
    int latest = session_latest(w->ss);
    size_t before = w->nversions;
    wb_load_versions(w);
    load_observations(w);
    wb_recompute(w);
    if (w->nversions != before && latest != session_base(w->ss)) {
        /* an untouched working copy follows the new version, unless a cell or prompt is open */
        if (!session_dirty(w->ss) && !w->editing && w->prompt == WB_PROMPT_NONE &&
            !session_merge(w->ss, NULL))
            return do_reload(w);
        w->remote_change = true;
        wb_message(w, UI_ROLE_WARN,
                   _("version %d was committed by another keyplan; R merges it into your working copy"),
                   latest);
    }
    return UI_REDRAW;
}

/* ---- actions ------------------------------------------------------------------------------- */

static void start_edit(wb *w)
{
    if (session_readonly(w->ss)) {
        wb_message(w, UI_ROLE_BAD, _("read-only: %s"), session_readonly(w->ss));
        return;
    }
    ui_cursor *c = &w->cur[w->screen];
    screen_col col;
    if (!cur_nrows(w) || !cur_col(w, c->col, &col)) {
        wb_message(w, UI_ROLE_WARN, _("nothing to edit here: a adds a row"));
        return;
    }
    if (col.table < 0) {
        wb_message(w, UI_ROLE_WARN, _("%s is computed by the model; it cannot be edited"), col.title);
        return;
    }
    const ui_draft *dr = drafts_find(&w->drafts, w->screen, c->row, c->col);
    char *text =
        dr ? xstrdup(dr->text) : edit_get(session_design(w->ss), (edit_table)col.table, c->row, col.col);
    le_set(&w->le, text);
    free(text);
    w->editing = true;
    wb_message(w, UI_ROLE_DIM, _("%s: %s   (Enter saves, Esc cancels)"), col.title,
               edit_col_hint(session_design(w->ss), (edit_table)col.table, col.col));
}

void wb_prompt_open(wb *w, wb_prompt p, const char *init)
{
    w->prompt = p;
    le_set(&w->pl, init);
}

int wb_detail_show(wb *w, const char *title, const char *const *lines, size_t n)
{
    detail_show(&w->detail, title, lines, n);
    return UI_REDRAW;
}

/* The detail view of what is under the current screen's cursor. */
static int show_detail(wb *w)
{
    screen_env e = wb_env(w, w->screen);
    char *title = NULL;
    size_t n = 0;
    char **v = screen_detail(&e, &title, &n);
    if (!v) {
        wb_message(w, UI_ROLE_DIM, _("nothing under the cursor to show"));
        free(title);
        return UI_REDRAW;
    }
    wb_detail_show(w, title, (const char *const *)v, n);
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
    free(title);
    return UI_REDRAW;
}

/* The pane's size changes by `step` tenths; 0 hides or shows it. */
static int pane_resize(wb *w, int step)
{
    if (step == 0) {
        w->pane_hidden = !w->pane_hidden;
    } else {
        w->pane_hidden = false;
        if ((step > 0 && w->pane_step < 4) || (step < 0 && w->pane_step > -4))
            w->pane_step += step;
    }
    wb_relayout(w);
    return UI_REDRAW | UI_RESIZE;
}

static int default_handle(wb *w, ui_action a)
{
    ui_cursor *c = &w->cur[w->screen];
    size_t nr = cur_nrows(w), nc = cur_ncols(w);
    switch (a) {
    case UI_ACT_NONE:
        return UI_IGNORED;
    case UI_ACT_QUIT:
        if (drafts_typed(&w->drafts) && !w->quit_armed) {
            w->quit_armed = true;
            wb_message(w, UI_ROLE_WARN,
                       ngettext("%zu cell hold text that did not parse (shown with !); q again quits and "
                                "prints them, any other key stays",
                                "%zu cells hold text that did not parse (shown with !); q again quits and "
                                "prints them, any other key stays",
                                drafts_typed(&w->drafts)),
                       drafts_typed(&w->drafts));
            return UI_REDRAW;
        }
        w->quit = true;
        return UI_QUIT;
    case UI_ACT_HELP:
        w->help = true;
        w->help_top = 0;
        return UI_REDRAW;
    case UI_ACT_NEXT_SCREEN:
    case UI_ACT_PREV_SCREEN:
        w->screen = (w->screen + (a == UI_ACT_NEXT_SCREEN ? 1 : UI_SCREEN__COUNT - 1)) % UI_SCREEN__COUNT;
        clamp_cursor(w);
        return UI_REDRAW;
    case UI_ACT_SCREEN_PATTERNS:
    case UI_ACT_SCREEN_KEYS:
    case UI_ACT_SCREEN_INDEXES:
    case UI_ACT_SCREEN_ATTRS:
    case UI_ACT_SCREEN_DECISIONS:
    case UI_ACT_SCREEN_HISTORY:
    case UI_ACT_SCREEN_COST:
    case UI_ACT_SCREEN_ITEMS:
        w->screen = (int)(a - UI_ACT_SCREEN_PATTERNS);
        if (w->screen == UI_SCREEN_HISTORY)
            wb_load_versions(w);
        clamp_cursor(w);
        return UI_REDRAW;
    case UI_ACT_MOVE_UP:
        if (c->row)
            c->row--;
        break;
    case UI_ACT_MOVE_DOWN:
        if (c->row + 1 < nr)
            c->row++;
        break;
    case UI_ACT_MOVE_LEFT:
        if (c->col)
            c->col--;
        break;
    case UI_ACT_MOVE_RIGHT:
        if (c->col + 1 < nc)
            c->col++;
        break;
    case UI_ACT_PAGE_UP:
        c->row = c->row > (size_t)page_rows(w) ? c->row - (size_t)page_rows(w) : 0;
        break;
    case UI_ACT_PAGE_DOWN:
        c->row += (size_t)page_rows(w);
        break;
    case UI_ACT_FIRST_ROW:
        c->row = 0;
        break;
    case UI_ACT_LAST_ROW:
        c->row = nr ? nr - 1 : 0;
        break;
    case UI_ACT_FIRST_COL:
        c->col = 0;
        break;
    case UI_ACT_LAST_COL:
        c->col = nc ? nc - 1 : 0;
        break;
    case UI_ACT_EDIT:
        if (!screen_get(w->screen)->is_table)
            return show_detail(w);                    /* a report's rows are read, not edited */
        if (w->screen == UI_SCREEN_DECISIONS && nr) { /* a decision opens as a form, at the cursor's field */
            screen_col col;
            bool field = cur_col(w, c->col, &col) && col.table == EDIT_DECISIONS;
            return wb_form_open(
                w, c->row,
                field ? col.col : (size_t)edit_col_find(session_design(w->ss), EDIT_DECISIONS, "title"));
        }
        start_edit(w);
        return UI_REDRAW;
    case UI_ACT_DETAIL:
        return show_detail(w);
    case UI_ACT_MESSAGES:
        if (!w->msg.npast) {
            wb_message(w, UI_ROLE_DIM, _("no messages yet"));
            return UI_REDRAW;
        }
        detail_show(&w->detail, _("Messages, oldest first"), (const char *const *)w->msg.past, w->msg.npast);
        w->detail.top = (size_t)-1 / 2; /* the newest at the bottom */
        return UI_REDRAW;
    case UI_ACT_PANE_WIDER:
        return pane_resize(w, +1);
    case UI_ACT_PANE_NARROWER:
        return pane_resize(w, -1);
    case UI_ACT_PANE_TOGGLE:
        return pane_resize(w, 0);
    case UI_ACT_ITEMS_INDEX:
    case UI_ACT_ITEMS_PATTERN:
    case UI_ACT_ITEMS_PATTERN_PREV:
    case UI_ACT_ITEMS_SEED:
    case UI_ACT_ITEMS_MORE:
    case UI_ACT_ITEMS_FEWER:
        wb_message(w, UI_ROLE_WARN, _("%s works on the Items screen (8)"), ui_action_name(a));
        return UI_REDRAW;
    case UI_ACT_ADD_ROW:
    case UI_ACT_DELETE_ROW:
    case UI_ACT_DUPLICATE_ROW:
    case UI_ACT_ROW_UP:
    case UI_ACT_ROW_DOWN:
        return row_op(w, a);
    case UI_ACT_UNDO:
    case UI_ACT_REDO: {
        char *err = NULL;
        const char *l = a == UI_ACT_UNDO ? session_undo_label(w->ss) : session_redo_label(w->ss);
        char *label = l ? xstrdup(l) : NULL;
        /* what the Patterns screen drew from, to tell its cache that one row alone changes */
        unsigned long before = w->gen + w->drafts.changes;
        bool valid_before = !w->an_behind && !w->partial, fill_before = w->fill;
        size_t fill_row = w->fill_row;
        rows_before was = rows_before_of(w);
        kp_status st = a == UI_ACT_UNDO ? session_undo(w->ss, &err) : session_redo(w->ss, &err);
        if (st == KP_OK) {
            /* a cell edit moves no row: the cells holding text that did not parse keep it (it was
               never applied, so undo does not take it back) */
            bool rows_kept = label && (strncmp(label, "edit ", 5) == 0 || strncmp(label, "set ", 4) == 0);
            if (!rows_kept)
                drafts_clear(&w->drafts);
            /* one pattern's value exchanged (a cell edited in place): checked and analysed again
               as that cell's edit was, that row alone */
            size_t prow = 0;
            bool one = session_last_step_row(w->ss, &prow);
            w->pattern_edit = one;
            w->pattern_row = prow;
            size_t erow = 0;
            edit_table etab = EDIT_ENTITIES;
            bool elem = session_last_step_element(w->ss, &etab, &erow);
            w->elem_edit = elem && etab != EDIT_DECISIONS;
            w->rest_told = session_last_step_rest(w->ss);
            w->elem_table = etab;
            w->elem_row = erow;
            w->renamed = session_last_step_rename(w->ss, &w->renamed_row);
            w->pid_edit = session_last_step_pattern_id(w->ss, &w->pid_row);
            /* a step of the pattern list taken back or made again: checked, copied and analysed as
               that step, and the Patterns screen's widths follow the rows */
            kp_rowop op = {0}, lop = {0};
            bool rows = session_last_step_rows(w->ss, &op);
            w->rows_edit = rows;
            w->rows_op = op;
            edit_table list = EDIT_PATTERNS;
            w->index_rows = session_last_step_list(w->ss, &list, &lop) && list == EDIT_INDEXES;
            w->index_op = lop;
            w->keys_edit = session_last_step_keys(w->ss, &w->keys_table, &w->keys_row);
            /* a step of the attributes' list taken back or made again: found by comparing the
               design with the one last analysed (their lists differ by one attribute alone), and
               told as that step */
            kp_rowop aop = {0};
            w->attr_rows = !one && !w->elem_edit && !w->renamed && !w->pid_edit && !rows && !w->an_behind &&
                           design_attr_step(w->good, session_design(w->ss), &aop);
            w->attr_rows_op = aop;
            size_t pid_row = w->pid_row;
            bool pid = w->pid_edit && !covers_others(session_design(w->ss), pid_row);
            after_change(w);
            if (pid) { /* an id no covered_by names: that row's cells alone, as for a cell */
                one = true;
                prow = pid_row;
            }
            if (rows && rows_cells_kept(w, was, op))
                screen_cache_rows_moved(&w->cache[UI_SCREEN_PATTERNS], before, w->gen + w->drafts.changes,
                                        op);
            if (one && rows_kept && row_cells_alone(w, prow, valid_before, fill_before && fill_row == prow))
                screen_cache_row_changed(&w->cache[UI_SCREEN_PATTERNS], before, w->gen + w->drafts.changes,
                                         prow);
            size_t typed = drafts_typed(&w->drafts);
            const char *fmt =
                a == UI_ACT_UNDO
                    ? typed
                          ? _("undone: %s (Ctrl-R redoes); the cell marked ! still holds text that was never "
                              "applied (Esc in it drops it)")
                          : _("undone: %s (Ctrl-R redoes)")
                : typed
                    ? _("redone: %s; the cell marked ! still holds text that was never applied (Esc in it drops "
                        "it)")
                    : _("redone: %s");
            char *shown = label ? label_text(label) : xstrdup(_("a step of an earlier session"));
            wb_message(w, UI_ROLE_GOOD, fmt, shown);
            free(shown);
        } else {
            wb_message(w, UI_ROLE_WARN, "%s", err ? err : _("nothing to do"));
        }
        free(err);
        free(label);
        return UI_REDRAW;
    }
    case UI_ACT_COMMIT:
        wb_prompt_open(w, WB_PROMPT_COMMIT, "");
        return UI_REDRAW;
    case UI_ACT_DECIDE: {
        if (w->screen != UI_SCREEN_PATTERNS || !edit_nrows(session_design(w->ss), EDIT_PATTERNS)) {
            wb_message(w, UI_ROLE_WARN,
                       _("D records a decision about the pattern under the cursor (Patterns screen)"));
            return UI_REDRAW;
        }
        kp_design *nd = design_clone(session_design(w->ss));
        size_t at = edit_decision_from_pattern(nd, c->row);
        if (wb_apply(w, nd, "record decision") == KP_READONLY)
            return UI_REDRAW;
        w->screen = UI_SCREEN_DECISIONS;
        w->cur[w->screen].row = at;
        w->cur[w->screen].col = 2; /* the title */
        clamp_cursor(w);
        /* the new decision opens as a form, its title being edited */
        wb_form_open(w, at, (size_t)edit_col_find(session_design(w->ss), EDIT_DECISIONS, "title"));
        wb_form_key(w, UI_KEY_ENTER);
        return UI_REDRAW;
    }
    case UI_ACT_COMMAND:
        wb_prompt_open(w, WB_PROMPT_COMMAND, "");
        return UI_REDRAW;
    case UI_ACT_SEARCH:
        wb_prompt_open(w, WB_PROMPT_SEARCH, "");
        return UI_REDRAW;
    case UI_ACT_SEARCH_NEXT:
        return search(w, +1);
    case UI_ACT_SEARCH_PREV:
        return search(w, -1);
    case UI_ACT_MARK:
        wb_message(w, UI_ROLE_WARN, _("mark works on the History screen (6)"));
        return UI_REDRAW;
    case UI_ACT_TOUR_NEXT:
        return w->tour_on || !(w->tour_visited || w->tour_resumed)
                   ? wb_tour_go(w, w->tour_on ? w->tour_step + 1 : 0)
                   : wb_tour_command(w, "");
    case UI_ACT_TOUR_PREV:
        return wb_tour_go(w, w->tour_on && w->tour_step > 0 ? w->tour_step - 1 : (size_t)-1);
    case UI_ACT_NARRATION_DOWN:
        if (!w->tour_on)
            return default_handle(w, UI_ACT_TOUR_NEXT);
        w->narr_top += 3;
        return UI_REDRAW;
    case UI_ACT_NARRATION_UP:
        w->narr_top = w->narr_top > 3 ? w->narr_top - 3 : 0;
        return UI_REDRAW;
    case UI_ACT_RELOAD:
        return do_reload(w);
    case UI_ACT_REDRAW:
        return UI_REDRAW | UI_RESIZE;
    case UI_ACT__COUNT:
        return UI_IGNORED;
    }
    clamp_cursor(w);
    return UI_REDRAW;
}

int wb_run_action(wb *w, ui_action a)
{
    screen_env e = wb_env(w, w->screen);
    int f = e.ops->handle ? e.ops->handle(&e, a) : UI_IGNORED;
    if (f != UI_IGNORED)
        return f;
    return default_handle(w, a);
}

/* ---- keys --------------------------------------------------------------------------------- */

/* Editing keys shared by the cell editor and the prompt; true when handled. */
static bool line_key(lineedit *e, int key)
{
    static const struct {
        int key;
        le_key k;
    } map[] = {
        {UI_FKEY(KEY_LEFT), LE_LEFT},
        {UI_FKEY(KEY_RIGHT), LE_RIGHT},
        {UI_FKEY(KEY_HOME), LE_HOME},
        {UI_CTRL('a'), LE_HOME},
        {UI_FKEY(KEY_END), LE_END},
        {UI_CTRL('e'), LE_END},
        {UI_FKEY(KEY_BACKSPACE), LE_BACKSPACE},
        {127, LE_BACKSPACE},
        {8, LE_BACKSPACE},
        {UI_FKEY(KEY_DC), LE_DELETE},
        {UI_CTRL('d'), LE_DELETE},
        {UI_CTRL('w'), LE_WORD_BACK},
        {UI_CTRL('u'), LE_KILL_START},
        {UI_CTRL('k'), LE_KILL_END},
        {UI_FKEY(0x222), LE_WORD_LEFT},
        {UI_FKEY(0x231), LE_WORD_RIGHT}, /* Ctrl-Left/Right (xterm) */
    };
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (map[i].key == key) {
            le_key_apply(e, map[i].k);
            return true;
        }
    if (!UI_IS_FKEY(key) && key >= 32 && key != 127)
        return le_insert(e, (unsigned)key);
    return false;
}

bool wb_line_key(lineedit *e, int key) { return line_key(e, key); }

static int edit_key(wb *w, int key)
{
    if (key == UI_KEY_ESC) {
        w->editing = false;
        ui_cursor *c = &w->cur[w->screen];
        const ui_draft *dr = drafts_find(&w->drafts, w->screen, c->row, c->col);
        if (dr && !dr->model) { /* cancelling the edit of a rejected text drops it */
            drafts_drop(&w->drafts, w->screen, c->row, c->col);
            wb_message(w, UI_ROLE_DIM,
                       _("edit cancelled: the text that did not parse is dropped; the cell "
                         "keeps its saved value"));
        } else {
            wb_message(w, UI_ROLE_DIM, _("edit cancelled"));
        }
        return UI_REDRAW;
    }
    if (key == UI_KEY_ENTER || key == '\r' || key == UI_FKEY(KEY_ENTER) || key == UI_KEY_TAB ||
        key == UI_FKEY(KEY_BTAB) || key == UI_FKEY(KEY_UP) || key == UI_FKEY(KEY_DOWN)) {
        w->editing = false;
        char *text = xstrdup(w->le.buf ? w->le.buf : "");
        save_cell(w, text);
        free(text);
        ui_cursor *c = &w->cur[w->screen];
        if (key == UI_KEY_TAB && c->col + 1 < cur_ncols(w)) {
            c->col++;
            start_edit(w);
        } else if (key == UI_FKEY(KEY_BTAB) && c->col > 0) {
            c->col--;
            start_edit(w);
        } else if (key == UI_FKEY(KEY_UP) && c->row > 0) {
            c->row--;
        } else if (key == UI_FKEY(KEY_DOWN) && c->row + 1 < cur_nrows(w)) {
            c->row++;
        }
        clamp_cursor(w);
        return UI_REDRAW;
    }
    line_key(&w->le, key);
    return UI_REDRAW;
}

static int prompt_key(wb *w, int key)
{
    if (key == UI_KEY_ESC) {
        w->prompt = WB_PROMPT_NONE;
        wb_message(w, UI_ROLE_DIM, _("cancelled"));
        return UI_REDRAW;
    }
    if (key == UI_KEY_ENTER || key == '\r' || key == UI_FKEY(KEY_ENTER)) {
        wb_prompt p = w->prompt;
        char *text = xstrdup(w->pl.buf ? w->pl.buf : "");
        w->prompt = WB_PROMPT_NONE;
        msgline_clear(&w->msg);
        int f = UI_REDRAW;
        if (p == WB_PROMPT_COMMAND)
            f = wb_command(w, text);
        else if (p == WB_PROMPT_SEARCH) {
            if (*text) {
                free(w->search);
                w->search = xstrdup(text);
            }
            f = search(w, +1);
        } else if (p == WB_PROMPT_COMMIT) {
            if (*text)
                f = wb_commit(w, text);
            else
                wb_message(w, UI_ROLE_WARN, _("a commit needs a message; nothing committed"));
        }
        free(text);
        return f;
    }
    line_key(&w->pl, key);
    return UI_REDRAW;
}

int wb_key(wb *w, int key)
{
    if (key == UI_FKEY(KEY_RESIZE))
        return wb_resize(w, LINES, COLS);
    if (w->lay.too_small) {
        if (key == 'q' || key == UI_CTRL('c')) {
            w->quit = true;
            return UI_QUIT;
        }
        return UI_IGNORED;
    }
    int pf = wb_presence_tick(w);
    if (w->editing || w->prompt != WB_PROMPT_NONE) {
        int f = w->editing ? edit_key(w, key) : prompt_key(w, key);
        wb_tour_after_key(w);
        return f | pf;
    }
    if (session_merge(w->ss, NULL) && !w->help)
        return wb_merge_key(w, key) | pf;
    if (w->help) {
        if (!help_scroll(&w->help_top, key))
            w->help = false;
        return UI_REDRAW;
    }
    if (form_is_open(&w->form)) {
        int f = wb_form_key(w, key);
        wb_tour_after_key(w);
        return f;
    }
    if (detail_is_open(&w->detail))
        return detail_key(&w->detail, key, w->lay.status.y - w->lay.editor.y - 1) ? UI_REDRAW : UI_IGNORED;
    if (key == UI_KEY_ESC) {
        if (w->tour_on && w->opt.ntour)
            return wb_tour_off(w);
        msgline_clear(&w->msg);
        return UI_REDRAW;
    }
    ui_action a = ui_key_action(w->screen, key);
    if (a != UI_ACT_QUIT)
        w->quit_armed = false;
    if (a == UI_ACT_NONE) {
        char k[32];
        wb_message(w, UI_ROLE_DIM, _("%s is not bound: ? lists every key"), ui_key_name(key, k, sizeof k));
        return UI_REDRAW;
    }
    int f = wb_run_action(w, a);
    /* a message about the cell under the cursor when it holds a broken draft */
    ui_cursor *c = &w->cur[w->screen];
    const ui_draft *dr = drafts_find(&w->drafts, w->screen, c->row, c->col);
    if (dr && a != UI_ACT_QUIT && a != UI_ACT_UNDO && a != UI_ACT_REDO && !w->editing &&
        w->prompt == WB_PROMPT_NONE)
        wb_message(w, UI_ROLE_BAD, "%s", dr->err);
    wb_tour_after_key(w);
    return f;
}

void wb_finish(wb *w)
{
    if (w->editing) {
        w->editing = false;
        char *text = xstrdup(w->le.buf ? w->le.buf : "");
        save_cell(w, text);
        free(text);
    }
}

int wb_click(wb *w, int y, int x)
{
    if (w->lay.too_small || w->editing || w->prompt != WB_PROMPT_NONE)
        return UI_IGNORED;
    if (w->help || detail_is_open(&w->detail)) {
        w->help = false;
        detail_close(&w->detail);
        return UI_REDRAW;
    }
    if (y == w->lay.tabs.y) {
        int s = status_tab_at(x, w->lay.cols);
        if (s < 0)
            return UI_IGNORED;
        w->screen = s;
        clamp_cursor(w);
        return UI_REDRAW;
    }
    ui_rect pr = w->lay.pane;
    if (y >= pr.y && y < pr.y + pr.h && x >= pr.x && x < pr.x + pr.w) {
        int row = y < w->npane_hit ? w->pane_hit[y] : -1;
        if (row < 0 || (size_t)row >= session_design(w->ss)->npatterns)
            return UI_IGNORED;
        w->screen = UI_SCREEN_PATTERNS;
        w->cur[UI_SCREEN_PATTERNS].row = (size_t)row;
        clamp_cursor(w);
        return UI_REDRAW;
    }
    ui_rect r = w->lay.editor;
    screen_env e = wb_env(w, w->screen);
    if (y > r.y && y < r.y + r.h && x >= r.x && x < r.x + r.w && e.ops->is_table) {
        ui_cursor *c = &w->cur[w->screen];
        size_t row = c->top + (size_t)(y - r.y - 1);
        if (row >= cur_nrows(w))
            return UI_IGNORED;
        /* find the column under x: same geometry as the drawing */
        int col = screen_col_at(&e, w->lay.editor.w, x - r.x);
        c->row = row;
        if (col >= 0)
            c->col = (size_t)col;
        clamp_cursor(w);
        return UI_REDRAW;
    }
    return UI_IGNORED;
}
