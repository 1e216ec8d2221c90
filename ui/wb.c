/* wb.c - workbench state, key handling, actions and the `:` command line. Handlers change the
 * state and return flags; nothing here draws. */
#include "wb.h"

#include "validate.h"
#include "fileio.h"
#include "display.h"

#include <ctype.h>
#include <curses.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

static void load_versions(wb *w)
{
    ws_versions_free(w->versions, w->nversions);
    w->versions = NULL;
    w->nversions = 0;
    if (session_log(w->ss, &w->versions, &w->nversions, NULL) != KP_OK) {
        w->versions = NULL;
        w->nversions = 0;
    }
}

static void free_analysis(wb *w, kp_analysis *a)
{
    if (!a)
        return;
    if (w->opt.analysis_free)
        w->opt.analysis_free(a);
    else
        analysis_free(a);
}

static kp_analysis *run_analysis(wb *w, const kp_design *d)
{
    return w->opt.analyze ? w->opt.analyze(d) : analysis_run(d);
}

void wb_recompute(wb *w)
{
    const kp_design *d = session_design(w->ss);
    diags_free(&w->diags);
    diags_init(&w->diags, "design");
    bool ok = w->opt.no_validate ? true : validate_design(d, &w->diags);
    if (ok) {
        sig_report_free(&w->sigs);
        free_analysis(w, w->an);
        design_free(w->good);
        w->good = design_clone(d);
        w->an = run_analysis(w, w->good);
        sig_evaluate(w->good, w->an, w->obs, w->nobs, &w->sigs);
    }
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
    load_observations(w);
    load_versions(w);
    wb_recompute(w);
    w->tour_on = w->opt.ntour > 0;
    if (session_note(s))
        wb_message(w, UI_ROLE_WARN, "%s", session_note(s));
    else
        wb_message(w, UI_ROLE_DIM, "? help   : commands   Tab next screen   Enter edit   a add   q quit");
    return w;
}

static void drafts_clear(wb *w)
{
    for (size_t i = 0; i < w->ndrafts; i++) {
        free(w->drafts[i].text);
        free(w->drafts[i].err);
    }
    w->ndrafts = 0;
}

static void diff_clear(wb *w)
{
    for (size_t i = 0; i < w->ndifflines; i++)
        free(w->difflines[i]);
    free(w->difflines);
    w->difflines = NULL;
    w->ndifflines = 0;
}

void wb_free(wb *w)
{
    if (!w)
        return;
    sig_report_free(&w->sigs);
    free_analysis(w, w->an);
    design_free(w->good);
    free_analysis(w, w->tour_prev_an);
    design_free(w->tour_prev);
    diags_free(&w->diags);
    sig_observations_free(w->obs, w->nobs);
    le_free(&w->le);
    le_free(&w->pl);
    free(w->msg);
    free(w->search);
    drafts_clear(w);
    free(w->drafts);
    free(w->pane_hit);
    ws_versions_free(w->versions, w->nversions);
    diff_clear(w);
    for (size_t i = 0; i < w->opt.ntour; i++) {
        free(w->opt.tour[i].title);
        free(w->opt.tour[i].narration);
        free(w->opt.tour[i].figures);
        design_free(w->opt.tour[i].design);
        for (size_t k = 0; k < w->opt.tour[i].nmarks; k++)
            free(w->opt.tour[i].marks[k]);
        free(w->opt.tour[i].marks);
    }
    free(w->opt.tour);
    session_close(w->ss);
    free(w);
}

void wb_message(wb *w, ui_role role, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    free(w->msg);
    w->msg = xvasprintf(fmt, ap);
    va_end(ap);
    w->msg_role = role;
}

int wb_resize(wb *w, int lines, int cols)
{
    layout_compute(lines, cols, w->tour_on, &w->lay);
    int n = lines > 0 ? lines : 0;
    w->pane_hit = xrealloc(w->pane_hit, (size_t)(n ? n : 1) * sizeof *w->pane_hit);
    w->npane_hit = n;
    for (int i = 0; i < n; i++)
        w->pane_hit[i] = -1;
    return WB_REDRAW | WB_RESIZE;
}

/* ---- screen geometry ---------------------------------------------------------------------- */

static size_t screen_rows(wb *w)
{
    const wb_screen_ops *ops = wb_screen(w->screen);
    return ops->rows ? ops->rows(w) : 0;
}

static size_t screen_ncols(wb *w)
{
    const wb_screen_ops *ops = wb_screen(w->screen);
    if (!ops->columns)
        return 0;
    size_t n = 0;
    free(ops->columns(w, &n));
    return n;
}

static bool screen_col(wb *w, size_t i, wb_col *out)
{
    const wb_screen_ops *ops = wb_screen(w->screen);
    if (!ops->columns)
        return false;
    size_t n = 0;
    wb_col *c = ops->columns(w, &n);
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
    size_t nr = screen_rows(w), nc = screen_ncols(w);
    wb_cursor *c = &w->cur[w->screen];
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

/* ---- drafts ------------------------------------------------------------------------------- */

static wb_draft *draft_find(wb *w, int screen, size_t row, size_t col)
{
    for (size_t i = 0; i < w->ndrafts; i++)
        if (w->drafts[i].screen == screen && w->drafts[i].row == row && w->drafts[i].col == col)
            return &w->drafts[i];
    return NULL;
}

static void draft_drop(wb *w, int screen, size_t row, size_t col)
{
    wb_draft *dr = draft_find(w, screen, row, col);
    if (!dr)
        return;
    free(dr->text);
    free(dr->err);
    *dr = w->drafts[--w->ndrafts];
}

static void draft_set(wb *w, const char *text, const char *err)
{
    wb_cursor *c = &w->cur[w->screen];
    draft_drop(w, w->screen, c->row, c->col);
    VEC_GROW(w->drafts, w->ndrafts, w->capdrafts);
    w->drafts[w->ndrafts++] = (wb_draft){w->screen, c->row, c->col, xstrdup(text), xstrdup(err)};
}

const wb_draft *wb_draft_at(wb *w, int screen, size_t row, size_t col)
{
    return draft_find(w, screen, row, col);
}

/* ---- changes ------------------------------------------------------------------------------ */

static void after_change(wb *w)
{
    wb_recompute(w);
    clamp_cursor(w);
}

/* Applies a changed copy of the design (taken) as one undoable step. */
static void apply_design(wb *w, kp_design *nd, const char *label)
{
    char *err = NULL;
    if (!session_apply(w->ss, nd, label, &err)) {
        wb_message(w, UI_ROLE_WARN, "kept in memory only: %s", err ? err : "the workspace refused it");
        free(err);
    }
    after_change(w);
}

static edit_table row_table(wb *w)
{
    edit_table t = wb_screen(w->screen)->table;
    return t == EDIT_KEYS ? EDIT_ENTITIES : t;
}

static void save_cell(wb *w, const char *text)
{
    wb_cursor *c = &w->cur[w->screen];
    wb_col col;
    if (!screen_col(w, c->col, &col) || col.table < 0) {
        wb_message(w, UI_ROLE_WARN, "this column is computed by the model; it cannot be edited");
        return;
    }
    const kp_design *d = session_design(w->ss);
    char *old = edit_get(d, (edit_table)col.table, c->row, col.col);
    bool same = strcmp(old, text) == 0;
    free(old);
    if (same) {
        draft_drop(w, w->screen, c->row, c->col);
        wb_message(w, UI_ROLE_DIM, "%s unchanged", col.title);
        return;
    }
    kp_design *nd = design_clone(d);
    char *err = NULL;
    if (!edit_set(nd, (edit_table)col.table, c->row, col.col, text, &err)) {
        design_free(nd);
        draft_set(w, text, err);
        wb_message(w, UI_ROLE_BAD, "%s: %s (the model keeps the last good value)", col.title, err);
        free(err);
        return;
    }
    draft_drop(w, w->screen, c->row, c->col);
    char *label = xasprintf("edit %s row %zu %s", edit_table_name((edit_table)col.table), c->row + 1, col.title);
    apply_design(w, nd, label);
    free(label);
    if (w->diags.errors)
        wb_message(w, UI_ROLE_WARN, "%s", w->diags.v[0].msg);
    else
        wb_message(w, UI_ROLE_GOOD, "saved %s", col.title);
}

static int row_op(wb *w, ui_action a)
{
    const wb_screen_ops *ops = wb_screen(w->screen);
    if (!ops->is_table) {
        wb_message(w, UI_ROLE_WARN, "%s has no rows to change", ops->name);
        return WB_REDRAW;
    }
    edit_table t = row_table(w);
    wb_cursor *c = &w->cur[w->screen];
    const kp_design *d = session_design(w->ss);
    size_t nr = edit_nrows(d, t);
    kp_design *nd = design_clone(d);
    size_t at = (size_t)-1;
    const char *what = "";
    switch (a) {
    case UI_ACT_ADD_ROW:
        at = edit_add(nd, t, nr ? c->row + 1 : 0);
        what = "add";
        break;
    case UI_ACT_DELETE_ROW:
        if (nr && edit_delete(nd, t, c->row))
            at = c->row;
        what = "delete";
        break;
    case UI_ACT_DUPLICATE_ROW:
        if (nr)
            at = edit_duplicate(nd, t, c->row);
        what = "duplicate";
        break;
    case UI_ACT_ROW_UP:
        if (nr && edit_move(nd, t, c->row, -1))
            at = c->row - 1;
        what = "move up";
        break;
    case UI_ACT_ROW_DOWN:
        if (nr && edit_move(nd, t, c->row, +1))
            at = c->row + 1;
        what = "move down";
        break;
    default: break;
    }
    if (at == (size_t)-1) {
        design_free(nd);
        wb_message(w, UI_ROLE_WARN, "cannot %s here", what);
        return WB_REDRAW;
    }
    drafts_clear(w);
    char *label = xasprintf("%s %s row %zu", what, edit_table_name(t), c->row + 1);
    apply_design(w, nd, label);
    free(label);
    c->row = at;
    clamp_cursor(w);
    wb_message(w, UI_ROLE_GOOD, "%s: done (u undoes)", what);
    return WB_REDRAW;
}

/* ---- search ------------------------------------------------------------------------------- */

static bool contains_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *p = hay; *p; p++)
        if (strncasecmp(p, needle, n) == 0)
            return true;
    return false;
}

static int search(wb *w, int dir)
{
    if (!w->search || !*w->search) {
        wb_message(w, UI_ROLE_WARN, "no search yet: / starts one");
        return WB_REDRAW;
    }
    size_t nr = screen_rows(w), nc = screen_ncols(w);
    if (!nr || !nc) {
        wb_message(w, UI_ROLE_WARN, "nothing to search here");
        return WB_REDRAW;
    }
    wb_cursor *c = &w->cur[w->screen];
    size_t total = nr * nc, pos = c->row * nc + c->col;
    for (size_t k = 1; k <= total; k++) {
        size_t p = dir > 0 ? (pos + k) % total : (pos + total - (k % total)) % total;
        int role;
        char *t = wb_cell_text(w, w->screen, p / nc, p % nc, &role);
        bool hit = contains_ci(t, w->search);
        free(t);
        if (hit) {
            c->row = p / nc;
            c->col = p % nc;
            clamp_cursor(w);
            wb_message(w, UI_ROLE_NORMAL, "/%s", w->search);
            return WB_REDRAW;
        }
    }
    wb_message(w, UI_ROLE_WARN, "'%s' not found", w->search);
    return WB_REDRAW;
}

/* ---- commits, reload, history -------------------------------------------------------------- */

static int do_commit(wb *w, const char *message)
{
    int n = 0;
    char *err = NULL;
    kp_status st = session_commit(w->ss, message, &n, &err);
    if (st == KP_CONFLICT) {
        wb_message(w, UI_ROLE_BAD, "commit refused: %s (R reloads the latest version)", err ? err : "");
        w->remote_change = true;
    } else if (st != KP_OK) {
        wb_message(w, UI_ROLE_BAD, "%s%s", st == KP_INVALID ? "" : "commit failed: ", err ? err : kp_status_text(st));
    } else {
        wb_message(w, UI_ROLE_GOOD, "committed version %d: %s", n, message);
        w->remote_change = false;
        load_versions(w);
    }
    free(err);
    return WB_REDRAW;
}

static int do_reload(wb *w)
{
    char *err = NULL;
    if (session_reload(w->ss, &err) != KP_OK) {
        wb_message(w, UI_ROLE_WARN, "reload: %s", err ? err : "failed");
        free(err);
        return WB_REDRAW;
    }
    drafts_clear(w);
    w->remote_change = false;
    load_versions(w);
    load_observations(w);
    after_change(w);
    wb_message(w, UI_ROLE_GOOD, "reloaded version %d (u brings your working copy back)", session_base(w->ss));
    return WB_REDRAW;
}

int wb_tick(wb *w)
{
    if (!session_changed_elsewhere(w->ss))
        return WB_IGNORED;
    int latest = session_latest(w->ss);
    size_t before = w->nversions;
    load_versions(w);
    load_observations(w);
    wb_recompute(w);
    if (w->nversions != before && latest != session_base(w->ss)) {
        /* an untouched working copy follows the new version, unless a cell or prompt is open */
        if (!session_dirty(w->ss) && !w->editing && w->prompt == WB_PROMPT_NONE)
            return do_reload(w);
        w->remote_change = true;
        wb_message(w, UI_ROLE_WARN, "version %d was committed by another keyplan; R reloads it (your edits stay in undo)",
                   latest);
    }
    return WB_REDRAW;
}

/* ---- tour --------------------------------------------------------------------------------- */

static int tour_go(wb *w, size_t step)
{
    if (!w->opt.ntour) {
        wb_message(w, UI_ROLE_WARN, "no tour loaded: keyplan tour starts one");
        return WB_REDRAW;
    }
    if (step >= w->opt.ntour) {
        wb_message(w, UI_ROLE_WARN, step == w->opt.ntour ? "that was the last step" : "this is the first step");
        return WB_REDRAW;
    }
    if (!w->tour_on) {
        w->tour_on = true;
        wb_resize(w, w->lay.lines, w->lay.cols);
    }
    /* keep the previous step's analysis to show what changed */
    free_analysis(w, w->tour_prev_an);
    design_free(w->tour_prev);
    w->tour_prev = w->good;
    w->tour_prev_an = w->an;
    w->good = NULL;
    w->an = NULL;
    sig_report_free(&w->sigs);
    memset(&w->sigs, 0, sizeof w->sigs);
    w->tour_step = step;
    w->narr_top = 0;
    kp_design *nd = design_clone(w->opt.tour[step].design);
    char *label = xasprintf("tour step %zu", step + 1);
    apply_design(w, nd, label);
    free(label);
    if (step == 0) { /* nothing to compare the first step with */
        free_analysis(w, w->tour_prev_an);
        design_free(w->tour_prev);
        w->tour_prev_an = NULL;
        w->tour_prev = NULL;
    }
    if (!w->good) { /* the step did not validate: keep showing the previous one */
        w->good = w->tour_prev;
        w->an = w->tour_prev_an;
        w->tour_prev = NULL;
        w->tour_prev_an = NULL;
    }
    drafts_clear(w);
    wb_message(w, UI_ROLE_TITLE, "tour step %zu/%zu: %s   (] next, [ previous)", step + 1, w->opt.ntour,
               w->opt.tour[step].title ? w->opt.tour[step].title : "");
    return WB_REDRAW | WB_RESIZE;
}

bool wb_tour_marked(const wb *w, const char *kind, const char *name)
{
    if (!w->tour_on || w->tour_step >= w->opt.ntour || !kind || !name)
        return false;
    const wb_tour_step *st = &w->opt.tour[w->tour_step];
    size_t kl = strlen(kind);
    for (size_t i = 0; i < st->nmarks; i++)
        if (strncmp(st->marks[i], kind, kl) == 0 && st->marks[i][kl] == ':' && strcmp(st->marks[i] + kl + 1, name) == 0)
            return true;
    return false;
}

/* ---- actions ------------------------------------------------------------------------------- */

static void start_edit(wb *w)
{
    wb_cursor *c = &w->cur[w->screen];
    wb_col col;
    if (!screen_rows(w) || !screen_col(w, c->col, &col)) {
        wb_message(w, UI_ROLE_WARN, "nothing to edit here: a adds a row");
        return;
    }
    if (col.table < 0) {
        wb_message(w, UI_ROLE_WARN, "%s is computed by the model; it cannot be edited", col.title);
        return;
    }
    const wb_draft *dr = draft_find(w, w->screen, c->row, c->col);
    char *text = dr ? xstrdup(dr->text) : edit_get(session_design(w->ss), (edit_table)col.table, c->row, col.col);
    le_set(&w->le, text);
    free(text);
    w->editing = true;
    wb_message(w, UI_ROLE_DIM, "%s: %s   (Enter saves, Esc cancels)", col.title,
               edit_col_hint(session_design(w->ss), (edit_table)col.table, col.col));
}

static void open_prompt(wb *w, wb_prompt p, const char *init)
{
    w->prompt = p;
    le_set(&w->pl, init);
}

static int default_handle(wb *w, ui_action a)
{
    wb_cursor *c = &w->cur[w->screen];
    size_t nr = screen_rows(w), nc = screen_ncols(w);
    switch (a) {
    case UI_ACT_NONE: return WB_IGNORED;
    case UI_ACT_QUIT:
        if (w->ndrafts && !w->quit_armed) {
            w->quit_armed = true;
            wb_message(w, UI_ROLE_WARN, "%zu cell%s hold text that did not parse (shown with !); q again quits and "
                       "prints them, any other key stays", w->ndrafts, w->ndrafts == 1 ? "" : "s");
            return WB_REDRAW;
        }
        w->quit = true;
        return WB_QUIT;
    case UI_ACT_HELP:
        w->help = true;
        w->help_top = 0;
        return WB_REDRAW;
    case UI_ACT_NEXT_SCREEN:
    case UI_ACT_PREV_SCREEN:
        w->screen = (w->screen + (a == UI_ACT_NEXT_SCREEN ? 1 : UI_SCREEN__COUNT - 1)) % UI_SCREEN__COUNT;
        clamp_cursor(w);
        return WB_REDRAW;
    case UI_ACT_SCREEN_PATTERNS:
    case UI_ACT_SCREEN_KEYS:
    case UI_ACT_SCREEN_INDEXES:
    case UI_ACT_SCREEN_ATTRS:
    case UI_ACT_SCREEN_DECISIONS:
    case UI_ACT_SCREEN_HISTORY:
    case UI_ACT_SCREEN_COST:
        w->screen = (int)(a - UI_ACT_SCREEN_PATTERNS);
        if (w->screen == UI_SCREEN_HISTORY)
            load_versions(w);
        clamp_cursor(w);
        return WB_REDRAW;
    case UI_ACT_MOVE_UP: if (c->row) c->row--; break;
    case UI_ACT_MOVE_DOWN: if (c->row + 1 < nr) c->row++; break;
    case UI_ACT_MOVE_LEFT: if (c->col) c->col--; break;
    case UI_ACT_MOVE_RIGHT: if (c->col + 1 < nc) c->col++; break;
    case UI_ACT_PAGE_UP: c->row = c->row > (size_t)page_rows(w) ? c->row - (size_t)page_rows(w) : 0; break;
    case UI_ACT_PAGE_DOWN: c->row += (size_t)page_rows(w); break;
    case UI_ACT_FIRST_ROW: c->row = 0; break;
    case UI_ACT_LAST_ROW: c->row = nr ? nr - 1 : 0; break;
    case UI_ACT_FIRST_COL: c->col = 0; break;
    case UI_ACT_LAST_COL: c->col = nc ? nc - 1 : 0; break;
    case UI_ACT_EDIT: start_edit(w); return WB_REDRAW;
    case UI_ACT_ADD_ROW:
    case UI_ACT_DELETE_ROW:
    case UI_ACT_DUPLICATE_ROW:
    case UI_ACT_ROW_UP:
    case UI_ACT_ROW_DOWN: return row_op(w, a);
    case UI_ACT_UNDO:
    case UI_ACT_REDO: {
        char *err = NULL;
        bool ok = a == UI_ACT_UNDO ? session_undo(w->ss, &err) : session_redo(w->ss, &err);
        if (ok) {
            drafts_clear(w);
            after_change(w);
            wb_message(w, UI_ROLE_GOOD, "%s", a == UI_ACT_UNDO ? "undone (Ctrl-R redoes)" : "redone");
        } else {
            wb_message(w, UI_ROLE_WARN, "%s", err ? err : "nothing to do");
        }
        free(err);
        return WB_REDRAW;
    }
    case UI_ACT_COMMIT: open_prompt(w, WB_PROMPT_COMMIT, ""); return WB_REDRAW;
    case UI_ACT_DECIDE: {
        if (w->screen != UI_SCREEN_PATTERNS || !edit_nrows(session_design(w->ss), EDIT_PATTERNS)) {
            wb_message(w, UI_ROLE_WARN, "D records a decision about the pattern under the cursor (Patterns screen)");
            return WB_REDRAW;
        }
        kp_design *nd = design_clone(session_design(w->ss));
        size_t at = edit_decision_from_pattern(nd, c->row);
        apply_design(w, nd, "record decision");
        w->screen = UI_SCREEN_DECISIONS;
        w->cur[w->screen].row = at;
        w->cur[w->screen].col = 2; /* the title */
        clamp_cursor(w);
        start_edit(w);
        return WB_REDRAW;
    }
    case UI_ACT_COMMAND: open_prompt(w, WB_PROMPT_COMMAND, ""); return WB_REDRAW;
    case UI_ACT_SEARCH: open_prompt(w, WB_PROMPT_SEARCH, ""); return WB_REDRAW;
    case UI_ACT_SEARCH_NEXT: return search(w, +1);
    case UI_ACT_SEARCH_PREV: return search(w, -1);
    case UI_ACT_MARK:
        wb_message(w, UI_ROLE_WARN, "mark works on the History screen (6)");
        return WB_REDRAW;
    case UI_ACT_TOUR_NEXT: return tour_go(w, w->tour_on ? w->tour_step + 1 : 0);
    case UI_ACT_TOUR_PREV:
        return tour_go(w, w->tour_on && w->tour_step > 0 ? w->tour_step - 1 : (size_t)-1);
    case UI_ACT_NARRATION_DOWN:
        if (!w->tour_on)
            return default_handle(w, UI_ACT_TOUR_NEXT);
        w->narr_top += 3;
        return WB_REDRAW;
    case UI_ACT_NARRATION_UP:
        w->narr_top = w->narr_top > 3 ? w->narr_top - 3 : 0;
        return WB_REDRAW;
    case UI_ACT_RELOAD: return do_reload(w);
    case UI_ACT_REDRAW: return WB_REDRAW | WB_RESIZE;
    case UI_ACT__COUNT: return WB_IGNORED;
    }
    clamp_cursor(w);
    return WB_REDRAW;
}

static int run_action(wb *w, ui_action a)
{
    const wb_screen_ops *ops = wb_screen(w->screen);
    int f = ops->handle ? ops->handle(w, a) : WB_IGNORED;
    if (f != WB_IGNORED)
        return f;
    return default_handle(w, a);
}

/* ---- the `:` command line ---------------------------------------------------------------- */

int wb_command(wb *w, const char *line)
{
    char **argv = NULL;
    size_t argc = 0, cap = 0;
    const char *p = line;
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        const char *e = p;
        while (*e && *e != ' ')
            e++;
        VEC_GROW(argv, argc, cap);
        argv[argc++] = xstrndup(p, (size_t)(e - p));
        p = e;
    }
    int f = WB_REDRAW;
    const char *cmd = argc ? argv[0] : "";
    if (!argc) {
        /* nothing */
    } else if (strcmp(cmd, "q") == 0 || strcmp(cmd, "quit") == 0 || strcmp(cmd, "wq") == 0) {
        w->quit = true;
        f = WB_QUIT;
    } else if (strcmp(cmd, "w") == 0 || strcmp(cmd, "write") == 0) {
        wb_message(w, UI_ROLE_GOOD, "the working copy is saved after every edit; :commit records a version");
    } else if (strcmp(cmd, "commit") == 0) {
        const char *msg = strstr(line, "commit") + 6;
        while (*msg == ' ')
            msg++;
        if (*msg)
            f = do_commit(w, msg);
        else
            open_prompt(w, WB_PROMPT_COMMIT, "");
    } else if (strcmp(cmd, "export") == 0) {
        if (argc != 3 || strcmp(argv[1], "md") != 0)
            wb_message(w, UI_ROLE_WARN, "usage: :export md FILE");
        else
            f = wb_export_md(w, argv[2]);
    } else if (strcmp(cmd, "diff") == 0) {
        char *e1 = NULL, *e2 = NULL;
        long a = argc == 3 ? strtol(argv[1], &e1, 10) : 0, b = argc == 3 ? strtol(argv[2], &e2, 10) : 0;
        if (argc != 3 || *e1 || *e2 || a < 1 || b < 1)
            wb_message(w, UI_ROLE_WARN, "usage: :diff REV1 REV2 (version numbers, e.g. :diff 3 5)");
        else {
            w->screen = UI_SCREEN_HISTORY;
            load_versions(w);
            wb_make_diff(w, (int)a, (int)b);
        }
    } else if (strcmp(cmd, "set") == 0) {
        int row = argc >= 2 ? edit_setting_find(argv[1]) : -1;
        if (row < 0) {
            sbuf b;
            sbuf_init(&b);
            sbuf_add(&b, argc >= 2 ? "unknown setting; " : "");
            sbuf_add(&b, "usage: :set NAME VALUE with NAME one of");
            for (size_t i = 0; i < edit_nrows(session_design(w->ss), EDIT_SETTINGS); i++) {
                char *n = edit_get(session_design(w->ss), EDIT_SETTINGS, i, 0);
                sbuf_printf(&b, " %s", n);
                free(n);
            }
            wb_message(w, UI_ROLE_WARN, "%s", b.s);
            sbuf_free(&b);
        } else {
            const char *value = strstr(line, argv[1]) + strlen(argv[1]);
            while (*value == ' ')
                value++;
            kp_design *nd = design_clone(session_design(w->ss));
            char *err = NULL;
            if (!edit_set(nd, EDIT_SETTINGS, (size_t)row, 1, value, &err)) {
                design_free(nd);
                wb_message(w, UI_ROLE_BAD, "%s: %s", argv[1], err);
                free(err);
            } else {
                char *label = xasprintf("set %s", argv[1]);
                apply_design(w, nd, label);
                free(label);
                char *now = edit_get(session_design(w->ss), EDIT_SETTINGS, (size_t)row, 1);
                wb_message(w, UI_ROLE_GOOD, "%s = %s (u undoes)", argv[1], *now ? now : "(not set)");
                free(now);
            }
        }
    } else if (strcmp(cmd, "recover") == 0) {
        const char *text = session_unloaded_text(w->ss);
        char *err = NULL;
        if (argc != 2)
            wb_message(w, UI_ROLE_WARN, "usage: :recover FILE (writes the working copy that did not load)");
        else if (!text)
            wb_message(w, UI_ROLE_WARN, "nothing to recover: the working copy loaded");
        else if (!fileio_write_atomic(argv[1], text, strlen(text), &err))
            wb_message(w, UI_ROLE_BAD, "recover: %s", err ? err : "cannot write");
        else
            wb_message(w, UI_ROLE_GOOD, "wrote the unloadable working copy to %s: fix it, then keyplan commit", argv[1]);
        free(err);
    } else if (strcmp(cmd, "tour") == 0) {
        f = tour_go(w, 0);
    } else if (strcmp(cmd, "help") == 0 || strcmp(cmd, "h") == 0) {
        w->help = true;
        w->help_top = 0;
    } else if (ui_action_find(cmd) != UI_ACT_NONE) {
        f = run_action(w, ui_action_find(cmd));
    } else {
        wb_message(w, UI_ROLE_WARN,
                   "unknown command '%s'; expected commit [MSG], set NAME VALUE, export md FILE, diff A B, tour, recover FILE, help, quit "
                   "or an action name (? lists them)",
                   cmd);
    }
    for (size_t i = 0; i < argc; i++)
        free(argv[i]);
    free(argv);
    return f;
}

/* ---- keys --------------------------------------------------------------------------------- */

/* Editing keys shared by the cell editor and the prompt; true when handled. */
static bool line_key(lineedit *e, int key)
{
    static const struct {
        int key;
        le_key k;
    } map[] = {
        {UI_FKEY(KEY_LEFT), LE_LEFT},        {UI_FKEY(KEY_RIGHT), LE_RIGHT},
        {UI_FKEY(KEY_HOME), LE_HOME},        {UI_CTRL('a'), LE_HOME},
        {UI_FKEY(KEY_END), LE_END},          {UI_CTRL('e'), LE_END},
        {UI_FKEY(KEY_BACKSPACE), LE_BACKSPACE}, {127, LE_BACKSPACE},
        {8, LE_BACKSPACE},                   {UI_FKEY(KEY_DC), LE_DELETE},
        {UI_CTRL('d'), LE_DELETE},           {UI_CTRL('w'), LE_WORD_BACK},
        {UI_CTRL('u'), LE_KILL_START},       {UI_CTRL('k'), LE_KILL_END},
        {UI_FKEY(0x222), LE_WORD_LEFT},      {UI_FKEY(0x231), LE_WORD_RIGHT}, /* Ctrl-Left/Right (xterm) */
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

static int edit_key(wb *w, int key)
{
    if (key == UI_KEY_ESC) {
        w->editing = false;
        wb_message(w, UI_ROLE_DIM, "edit cancelled");
        return WB_REDRAW;
    }
    if (key == UI_KEY_ENTER || key == '\r' || key == UI_FKEY(KEY_ENTER) || key == UI_KEY_TAB ||
        key == UI_FKEY(KEY_BTAB) || key == UI_FKEY(KEY_UP) || key == UI_FKEY(KEY_DOWN)) {
        w->editing = false;
        char *text = xstrdup(w->le.buf ? w->le.buf : "");
        save_cell(w, text);
        free(text);
        wb_cursor *c = &w->cur[w->screen];
        if (key == UI_KEY_TAB && c->col + 1 < screen_ncols(w)) {
            c->col++;
            start_edit(w);
        } else if (key == UI_FKEY(KEY_BTAB) && c->col > 0) {
            c->col--;
            start_edit(w);
        } else if (key == UI_FKEY(KEY_UP) && c->row > 0) {
            c->row--;
        } else if (key == UI_FKEY(KEY_DOWN) && c->row + 1 < screen_rows(w)) {
            c->row++;
        }
        clamp_cursor(w);
        return WB_REDRAW;
    }
    line_key(&w->le, key);
    return WB_REDRAW;
}

static int prompt_key(wb *w, int key)
{
    if (key == UI_KEY_ESC) {
        w->prompt = WB_PROMPT_NONE;
        wb_message(w, UI_ROLE_DIM, "cancelled");
        return WB_REDRAW;
    }
    if (key == UI_KEY_ENTER || key == '\r' || key == UI_FKEY(KEY_ENTER)) {
        wb_prompt p = w->prompt;
        char *text = xstrdup(w->pl.buf ? w->pl.buf : "");
        w->prompt = WB_PROMPT_NONE;
        free(w->msg);
        w->msg = NULL;
        int f = WB_REDRAW;
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
                f = do_commit(w, text);
            else
                wb_message(w, UI_ROLE_WARN, "a commit needs a message; nothing committed");
        }
        free(text);
        return f;
    }
    line_key(&w->pl, key);
    return WB_REDRAW;
}

int wb_key(wb *w, int key)
{
    if (key == UI_FKEY(KEY_RESIZE))
        return WB_RESIZE | WB_REDRAW;
    if (w->lay.too_small) {
        if (key == 'q' || key == UI_CTRL('c')) {
            w->quit = true;
            return WB_QUIT;
        }
        return WB_IGNORED;
    }
    if (w->editing)
        return edit_key(w, key);
    if (w->prompt != WB_PROMPT_NONE)
        return prompt_key(w, key);
    if (w->help)
        return wb_help_key(w, key);
    if (key == UI_KEY_ESC) {
        free(w->msg);
        w->msg = NULL;
        return WB_REDRAW;
    }
    ui_action a = ui_key_action(w->screen, key);
    if (a != UI_ACT_QUIT)
        w->quit_armed = false;
    if (a == UI_ACT_NONE) {
        char k[32];
        wb_message(w, UI_ROLE_DIM, "%s is not bound: ? lists every key", ui_key_name(key, k, sizeof k));
        return WB_REDRAW;
    }
    int f = run_action(w, a);
    /* a message about the cell under the cursor when it holds a broken draft */
    wb_cursor *c = &w->cur[w->screen];
    const wb_draft *dr = draft_find(w, w->screen, c->row, c->col);
    if (dr && a != UI_ACT_QUIT && !w->editing && w->prompt == WB_PROMPT_NONE)
        wb_message(w, UI_ROLE_BAD, "%s", dr->err);
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

int wb_help_key(wb *w, int key)
{
    if (key == UI_FKEY(KEY_DOWN) || key == 'j')
        w->help_top++;
    else if ((key == UI_FKEY(KEY_UP) || key == 'k') && w->help_top)
        w->help_top--;
    else if (key == UI_FKEY(KEY_NPAGE) || key == ' ')
        w->help_top += 10;
    else if (key == UI_FKEY(KEY_PPAGE))
        w->help_top = w->help_top > 10 ? w->help_top - 10 : 0;
    else
        w->help = false;
    return WB_REDRAW;
}

char **wb_help_lines(size_t *n)
{
    char **v = xcalloc(UI_ACT__COUNT, sizeof *v);
    size_t k = 0;
    for (int a = 1; a < UI_ACT__COUNT; a++) {
        char keys[96];
        ui_action_keys((ui_action)a, keys, sizeof keys);
        int kw = disp_width(keys);
        v[k++] = xasprintf("%s%*s %-15s %s", keys, kw < 16 ? 16 - kw : 0, "", ui_action_name((ui_action)a),
                           ui_action_help((ui_action)a));
    }
    *n = k;
    return v;
}

int wb_click(wb *w, int y, int x)
{
    if (w->lay.too_small || w->editing || w->prompt != WB_PROMPT_NONE)
        return WB_IGNORED;
    if (w->help) {
        w->help = false;
        return WB_REDRAW;
    }
    /* tabs: from column 1, each title takes its width plus 3 columns ("1 Title ") */
    if (y == w->lay.tabs.y) {
        int col = 1;
        for (int s = 0; s < UI_SCREEN__COUNT; s++) {
            int tw = disp_width(ui_screen_title(s)) + 3;
            if (x >= col && x < col + tw) {
                w->screen = s;
                clamp_cursor(w);
                return WB_REDRAW;
            }
            col += tw;
        }
        return WB_IGNORED;
    }
    ui_rect pr = w->lay.pane;
    if (y >= pr.y && y < pr.y + pr.h && x >= pr.x && x < pr.x + pr.w) {
        int row = y < w->npane_hit ? w->pane_hit[y] : -1;
        if (row < 0 || (size_t)row >= session_design(w->ss)->npatterns)
            return WB_IGNORED;
        w->screen = UI_SCREEN_PATTERNS;
        w->cur[UI_SCREEN_PATTERNS].row = (size_t)row;
        clamp_cursor(w);
        return WB_REDRAW;
    }
    ui_rect r = w->lay.editor;
    if (y > r.y && y < r.y + r.h && x >= r.x && x < r.x + r.w && wb_screen(w->screen)->is_table) {
        wb_cursor *c = &w->cur[w->screen];
        size_t row = c->top + (size_t)(y - r.y - 1);
        if (row >= screen_rows(w))
            return WB_IGNORED;
        /* find the column under x: same geometry as the drawing */
        int col = wb_col_at(w, x - r.x);
        c->row = row;
        if (col >= 0)
            c->col = (size_t)col;
        clamp_cursor(w);
        return WB_REDRAW;
    }
    return WB_IGNORED;
}
