/* wb_tour.c - the tour in the workbench: going to a step applies its design as an undoable edit
 * and keeps the previous step's analysis, so that the pane highlights what changed. The steps
 * and the narration panel are narration.h's. */
#include "wb_int.h"

#include <stdlib.h>
#include <string.h>

int wb_tour_go(wb *w, size_t step)
{
    if (!w->opt.ntour) {
        wb_message(w, UI_ROLE_WARN, "no tour loaded: keyplan tour starts one");
        return UI_REDRAW;
    }
    if (step >= w->opt.ntour) {
        wb_message(w, UI_ROLE_WARN,
                   step == w->opt.ntour ? "that was the last step" : "this is the first step");
        return UI_REDRAW;
    }
    if (!w->tour_on) {
        w->tour_on = true; /* the narration panel takes room: lay the frame out again */
        wb_relayout(w);
    }
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
    kp_design *nd = design_clone(w->opt.tour[step].design);
    char *label = xasprintf("tour step %zu", step + 1);
    wb_apply(w, nd, label);
    free(label);
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
    wb_message(w, UI_ROLE_TITLE, "tour step %zu/%zu: %s   (] next, [ previous)", step + 1, w->opt.ntour,
               w->opt.tour[step].title ? w->opt.tour[step].title : "");
    return UI_REDRAW | UI_RESIZE;
}

const wb_tour_step *wb_tour_shown(const wb *w)
{
    return w->tour_on && w->tour_step < w->opt.ntour ? &w->opt.tour[w->tour_step] : NULL;
}

bool wb_tour_marked(const wb *w, const char *kind, const char *name)
{
    return narration_marked(wb_tour_shown(w), kind, name);
}
