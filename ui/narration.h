/* narration.h - the tour as the workbench shows it: a step (filled from storage's tour by
 * ui_run), the narration panel with the step's title, text and figures, and the marks a step
 * puts on what it talks about. */
#ifndef KP_UI_NARRATION_H
#define KP_UI_NARRATION_H

#include "design.h"
#include "layout.h"

#include <stdbool.h>
#include <stddef.h>

/* A tour step as the workbench needs it (filled from storage/tour.h by ui_run). */
typedef struct wb_tour_step {
    char *title;
    char *narration;
    kp_design *design;
    char *figures; /* the step's figures as the tour computes them (may be NULL) */
    char **marks;  /* what the step points at, "kind:name" ("pattern:5", "index:GSI1") */
    size_t nmarks;
    char *try_task;    /* the "try it" exercise, or NULL */
    char **try_checks; /* the conditions that say it is done (storage/tour.h's check language) */
    size_t ntry;
} wb_tour_step;

/* Frees n steps and the array (v may be NULL). */
void narration_steps_free(wb_tour_step *v, size_t n);
/* true when step `st` (may be NULL) points at `kind` `name`. */
bool narration_marked(const wb_tour_step *st, const char *kind, const char *name);
/* Draws the narration panel into r (nothing when r.h <= 0): step `step` of the n steps, its lines
 * from *top on (clamped so that the last line shows at the bottom at most); blank when `st` is
 * NULL (no tour running). The step's "try it" exercise is drawn above the narration, each check
 * marked done or not by done[] (NULL: none done); from 100 columns the narration takes the left
 * half and the exercise and the figures the right, so that the figures show without scrolling;
 * below, the why and the figures come first (narration_need).
 * `why` (may be NULL) says why a huge figure is what it is; drawn after the exercise. */
/* The lines the panel needs, title included, to show the why and the figures of step `st` (may
 * be NULL: 0) whole in a panel `width` columns wide; 0 from 100 columns, where they have the right
 * half. Below 100 columns the panel shows the why and the figures first (a figure line too wide
 * loses spaces from its widest gap rather than wrap), then the exercise and the narration. */
int narration_need(const wb_tour_step *st, int width, const char *why);
void narration_draw(ui_rect r, const wb_tour_step *st, size_t step, size_t n, size_t *top, const bool *done,
                    const char *why);

#endif
