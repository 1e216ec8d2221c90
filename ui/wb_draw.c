/* wb_draw.c - the frame: tabs, the current screen (or the help overlay), the live model pane,
 * the tour narration, the status line and the message/prompt line, or the "terminal too small"
 * screen, each drawn by its widget or screen from what the core hands it. Only called from the
 * main loop (or a test) through wb_draw. */
#include "wb_int.h"

#include "help.h"
#include "pane.h"
#include "status.h"
#include "tour.h"

#include <curses.h>
#include <stdlib.h>
#include <string.h>

static void draw_help(wb *w)
{
    ui_rect r = {w->lay.editor.y, 0, w->lay.status.y - w->lay.editor.y, w->lay.cols};
    size_t na, nc, nl;
    char **acts = help_action_lines(&na);
    char **cmds = wb_command_help(&nc);
    char **legend = help_legend_lines(&nl);
    char **lines = xcalloc(na + nc + nl, sizeof *lines);
    memcpy(lines, acts, na * sizeof *lines);
    memcpy(lines + na, cmds, nc * sizeof *lines);
    memcpy(lines + na + nc, legend, nl * sizeof *lines);
    help_draw(r, lines, na + nc + nl, &w->help_top);
    for (size_t i = 0; i < na + nc + nl; i++)
        free(lines[i]);
    free(lines);
    free(acts);
    free(cmds);
    free(legend);
}

static void draw_pane(wb *w)
{
    if (w->lay.pane.h <= 0 || w->lay.pane.w <= 0)
        return;
    const kp_design *d = session_design(w->ss);
    pane_view v = {
        .design = d,
        .an = w->an,
        .prev = w->tour_prev_an,
        .diags = &w->diags,
        .drafts = &w->drafts,
        .sel = (w->screen == UI_SCREEN_PATTERNS || w->screen == UI_SCREEN_ITEMS) &&
                       w->cur[UI_SCREEN_PATTERNS].row < d->npatterns
                   ? &d->patterns[w->cur[UI_SCREEN_PATTERNS].row]
                   : NULL,
        .step = wb_tour_shown(w),
        .dec = w->screen == UI_SCREEN_DECISIONS && w->cur[UI_SCREEN_DECISIONS].row < d->ndecisions
                   ? &d->decisions[w->cur[UI_SCREEN_DECISIONS].row]
                   : NULL,
        .sigs = &w->sigs,
        .side = w->lay.side,
        .partial = w->partial,
    };
    pane_draw(&v, w->lay.pane, w->pane_hit, w->npane_hit);
}

void wb_draw(wb *w)
{
    const wb_tour_step *tst = wb_tour_shown(w);
    char *why = tst ? tour_cost_why(w->an) : NULL;
    int need = w->tour_on ? narration_need(tst, w->lay.cols, why) : 0;
    if (need != w->tour_rows) { /* the panel as high as this step's why and figures need */
        w->tour_rows = need;
        wb_relayout(w);
    }
    if (w->lay.too_small) {
        free(why);
        curs_set(0);
        status_too_small_draw(w->lay.lines, w->lay.cols);
        return;
    }
    int cy = -1, cx = -1;
    status_tabs_draw(w->lay.tabs, w->screen, session_path(w->ss));
    wb_presence_draw(w, w->lay.tabs);
    if (w->help) {
        draw_help(w);
    } else if (form_is_open(&w->form)) {
        form_draw(&w->form, (ui_rect){w->lay.editor.y, 0, w->lay.status.y - w->lay.editor.y, w->lay.cols},
                  &cy, &cx);
    } else if (detail_is_open(&w->detail)) {
        detail_draw(&w->detail,
                    (ui_rect){w->lay.editor.y, 0, w->lay.status.y - w->lay.editor.y, w->lay.cols});
    } else if (session_merge(w->ss, NULL)) {
        wb_merge_draw(w, w->lay.editor, &cy, &cx);
        draw_pane(w);
    } else {
        screen_env e = wb_env(w, w->screen);
        screen_draw(&e, w->lay.editor, &cy, &cx);
        draw_pane(w);
    }
    if (!w->help && !detail_is_open(&w->detail) && !form_is_open(&w->form)) { /* drawn over the tour */
        const wb_tour_step *st = tst;
        bool *done = st && st->ntry ? xcalloc(st->ntry, sizeof *done) : NULL;
        if (done)
            wb_tour_exercise(w, done);
        narration_draw(w->lay.narration, st, w->tour_step, w->opt.ntour, &w->narr_top, done, why);
        free(done);
    }
    free(why);
    status_view sv = {
        .base = session_base(w->ss),
        .dirty = session_dirty(w->ss),
        .an = w->an,
        .npatterns = session_design(w->ss)->npatterns,
        .errors = w->diags.errors,
        .remote_change = w->remote_change,
    };
    status_draw(w->lay.status, &sv);
    static const char *const leads[] = {
        [WB_PROMPT_COMMAND] = ":", [WB_PROMPT_SEARCH] = "/", [WB_PROMPT_COMMIT] = N_("Commit message: ")};
    msgline_draw(&w->msg, w->lay.msg, w->prompt != WB_PROMPT_NONE ? _(leads[w->prompt]) : NULL, &w->pl, &cy,
                 &cx);
    if (cy >= 0) {
        curs_set(1);
        move(cy, cx);
    } else {
        curs_set(0);
    }
}
