/* wb_tour.c - the tour in the workbench. It lives in its own workspace: the step shown, and a
 * student's edits of each step, are kept there (meta "tour.step", "tour.mine.N"), so that the tour
 * resumes where it was left, with narration and model in step. Going to a step keeps the edits
 * of the step left and applies the next one's (the student's own, else the step's design) as an
 * undoable edit; the previous step's analysis is kept so that the pane highlights what changed.
 * Each step's "try it" exercise is checked on the working copy's analysis. */
#include "wb_int.h"

#include "design_io.h"
#include "i18n.h"
#include "tour.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- what the workspace keeps ---------------------------------------------------------------- */

static void meta_set(wb *w, const char *key, const char *value)
{
    ws_t *ws = session_ws(w->ss);
    if (ws && !session_readonly(w->ss))
        ws_meta_set(ws, key, value, NULL); /* a failure only loses the resume point */
}

static char *meta_get(wb *w, const char *key)
{
    ws_t *ws = session_ws(w->ss);
    char *v = NULL;
    if (ws && ws_meta_get(ws, key, &v, NULL) != KP_OK)
        v = NULL;
    return v;
}

/* Keeps the working copy as the student's version of the step shown (none when it is the
 * step's own design). */
static void keep_mine(wb *w)
{
    size_t i = w->tour_step;
    if (i >= w->opt.ntour)
        return;
    const kp_design *d = session_design(w->ss);
    design_free(w->tour_mine[i]);
    w->tour_mine[i] = design_equal(d, w->opt.tour[i].design) ? NULL : design_clone(d);
    char key[32];
    snprintf(key, sizeof key, "tour.mine.%zu", i + 1);
    char *yaml = w->tour_mine[i] ? designio_save(w->tour_mine[i], NULL) : NULL;
    meta_set(w, key, yaml);
    free(yaml);
}

void wb_tour_resume(wb *w)
{
    if (!w->opt.ntour)
        return;
    w->tour_mine = xcalloc(w->opt.ntour, sizeof *w->tour_mine);
    char *step = meta_get(w, "tour.step");
    long n = step ? strtol(step, NULL, 10) : 0;
    free(step);
    if (n < 1 || (size_t)n > w->opt.ntour)
        return;
    for (size_t i = 0; i < w->opt.ntour; i++) {
        char key[32];
        snprintf(key, sizeof key, "tour.mine.%zu", i + 1);
        char *yaml = meta_get(w, key);
        if (yaml) {
            kp_diags dg;
            diags_init(&dg, NULL);
            w->tour_mine[i] = designio_load_string(yaml, strlen(yaml), key, &dg);
            diags_free(&dg);
            free(yaml);
        }
    }
    /* the working copy is the student's state of that step: shown as it is */
    w->tour_step = (size_t)n - 1;
    w->tour_on = true;
    w->tour_resumed = true;
}

void wb_tour_free(wb *w)
{
    for (size_t i = 0; w->tour_mine && i < w->opt.ntour; i++)
        design_free(w->tour_mine[i]);
    free(w->tour_mine);
    w->tour_mine = NULL;
}

/* ---- steps ------------------------------------------------------------------------------------ */

int wb_tour_go(wb *w, size_t step)
{
    if (!w->opt.ntour) {
        wb_message(w, UI_ROLE_WARN, "%s",
                   _("the tour runs in its own workspace: quit and run keyplan tour (this "
                     "working copy stays as it is)"));
        return UI_REDRAW;
    }
    if (step >= w->opt.ntour) {
        wb_message(w, UI_ROLE_WARN, "%s",
                   step == w->opt.ntour ? _("that was the last step") : _("this is the first step"));
        return UI_REDRAW;
    }
    if (!w->tour_on) {
        w->tour_on = true; /* the narration panel takes room: lay the frame out again */
        wb_relayout(w);
    } else if (!w->tour_fresh) {
        keep_mine(w); /* the student's edits of the step left stay with it */
    }
    w->tour_fresh = false;
    /* keep the previous step's analysis to show what changed */
    wb_analysis_free(w, w->tour_prev_an);
    design_free(w->tour_prev);
    w->tour_prev = w->good;
    w->tour_prev_an = w->an;
    w->good = NULL;
    w->an = NULL;
    sig_report_free(&w->sigs);
    memset(&w->sigs, 0, sizeof w->sigs);
    w->tour_step = step;
    w->narr_top = 0;
    w->tour_done = false;
    bool mine = w->tour_mine && w->tour_mine[step];
    kp_design *nd = design_clone(mine ? w->tour_mine[step] : w->opt.tour[step].design);
    /* TRANSLATORS: the version label of a tour step's design in the workspace's history */
    char *label = xasprintf(_("tour step %zu"), step + 1);
    wb_apply(w, nd, label);
    free(label);
    char num[24];
    snprintf(num, sizeof num, "%zu", step + 1);
    meta_set(w, "tour.step", num);
    if (step == 0) { /* nothing to compare the first step with */
        wb_analysis_free(w, w->tour_prev_an);
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
    drafts_clear(&w->drafts);
    w->tour_done = wb_tour_exercise(w, NULL);
    const char *title = w->opt.tour[step].title ? w->opt.tour[step].title : "";
    if (mine)
        /* TRANSLATORS: the step's number, the tour's steps, its title; ] [ and Esc are keys */
        wb_message(
            w, UI_ROLE_TITLE,
            _("tour step %1$zu/%2$zu: %3$s (your edits; :tour reset goes back)   (] next, [ previous, Esc leaves)"),
            step + 1, w->opt.ntour, title);
    else
        /* TRANSLATORS: the step's number, the tour's steps, its title; ] [ and Esc are keys */
        wb_message(w, UI_ROLE_TITLE, _("tour step %1$zu/%2$zu: %3$s   (] next, [ previous, Esc leaves)"),
                   step + 1, w->opt.ntour, title);
    return UI_REDRAW | UI_RESIZE;
}

int wb_tour_off(wb *w)
{
    if (!w->tour_on) {
        wb_message(w, UI_ROLE_WARN, "%s",
                   w->opt.ntour ? _("no tour shown; :tour resumes it") : _("no tour shown; :tour explains"));
        return UI_REDRAW;
    }
    w->tour_on = false;
    wb_relayout(w);
    wb_message(w, UI_ROLE_GOOD, _("left the tour at step %zu (your edits stay); :tour resumes it"),
               w->tour_step + 1);
    return UI_REDRAW | UI_RESIZE;
}

int wb_tour_reset(wb *w)
{
    if (!w->opt.ntour || !w->tour_on) {
        wb_message(w, UI_ROLE_WARN, "%s", _("no tour step shown to reset"));
        return UI_REDRAW;
    }
    size_t i = w->tour_step;
    design_free(w->tour_mine[i]);
    w->tour_mine[i] = NULL;
    char key[32];
    snprintf(key, sizeof key, "tour.mine.%zu", i + 1);
    meta_set(w, key, NULL);
    drafts_clear(&w->drafts);
    /* TRANSLATORS: the version label of a step taken back to its own design */
    char *label = xasprintf(_("tour step %zu reset"), i + 1);
    wb_apply(w, design_clone(w->opt.tour[i].design), label);
    free(label);
    w->tour_done = wb_tour_exercise(w, NULL);
    wb_message(w, UI_ROLE_GOOD, _("step %zu is back to its own design (u brings your edits back)"), i + 1);
    return UI_REDRAW;
}

int wb_tour_command(wb *w, const char *arg)
{
    if (!*arg) {
        if (!w->opt.ntour)
            return wb_tour_go(w, 0); /* says where the tour runs */
        if (w->tour_resumed || w->tour_visited) {
            /* shown before in this workspace: where it was left, the working copy as it is */
            w->tour_resumed = false;
            w->tour_visited = true;
            if (!w->tour_on) {
                w->tour_on = true;
                wb_relayout(w);
            }
            w->tour_done = wb_tour_exercise(w, NULL);
            wb_message(w, UI_ROLE_TITLE,
                       _("tour step %1$zu/%2$zu, where you left it   (] next, [ previous, Esc leaves)"),
                       w->tour_step + 1, w->opt.ntour);
            return UI_REDRAW | UI_RESIZE;
        }
        w->tour_visited = true;
        w->tour_fresh = true;
        return wb_tour_go(w, 0);
    }
    if (strcmp(arg, "off") == 0)
        return wb_tour_off(w);
    if (strcmp(arg, "reset") == 0)
        return wb_tour_reset(w);
    char *end = NULL;
    long n = strtol(arg, &end, 10);
    if (*end || n < 1 || !w->opt.ntour || (size_t)n > w->opt.ntour) {
        /* TRANSLATORS: off, reset and STEP are what :tour takes */
        wb_message(w, UI_ROLE_WARN, _("usage: :tour [off | reset | STEP] (STEP from 1 to %zu)"),
                   w->opt.ntour);
        return UI_REDRAW;
    }
    w->tour_fresh = !w->tour_visited && !w->tour_resumed;
    w->tour_visited = true;
    return wb_tour_go(w, (size_t)n - 1);
}

/* ---- the exercise ------------------------------------------------------------------------------ */

bool wb_tour_exercise(const wb *w, bool *done)
{
    const wb_tour_step *st = wb_tour_shown(w);
    if (!st || !st->ntry)
        return false;
    bool all = w->an != NULL;
    for (size_t k = 0; k < st->ntry; k++) {
        bool ok = w->an && w->an->design && tour_check(st->try_checks[k], w->an, NULL);
        if (done)
            done[k] = ok;
        all &= ok;
    }
    return all;
}

void wb_tour_after_key(wb *w)
{
    bool now = wb_tour_exercise(w, NULL);
    if (now && !w->tour_done)
        wb_message(w, UI_ROLE_GOOD, _("Try it: done! step %zu's exercise holds (] goes on)"),
                   w->tour_step + 1);
    w->tour_done = now;
}

const wb_tour_step *wb_tour_shown(const wb *w)
{
    return w->tour_on && w->tour_step < w->opt.ntour ? &w->opt.tour[w->tour_step] : NULL;
}

bool wb_tour_marked(const wb *w, const char *kind, const char *name)
{
    return narration_marked(wb_tour_shown(w), kind, name);
}
