/* status.h - the bars around the screens: the screen tabs on the top line, the status line
 * (version, checklist, cost, patterns, errors, the hot-partition alarm) above the message line,
 * and the "terminal too small" screen shown instead of everything below the minimum size. */
#ifndef KP_UI_STATUS_H
#define KP_UI_STATUS_H

#include "analysis.h"
#include "layout.h"

#include <stdbool.h>
#include <stddef.h>

/* Draws the tabs of every screen (UI_SCREENS) into r, `current` highlighted, and `path` at the
 * right when it fits. */
void status_tabs_draw(ui_rect r, int current, const char *path);
/* The screen whose tab covers column x of a tabs line `width` columns wide (same geometry as the
 * drawing: titles cut to their first word when they do not all fit), or -1. */
int status_tab_at(int x, int width);

/* What the status line says. */
typedef struct status_view {
    int base;              /* the version the working copy is based on (0: none yet) */
    bool dirty;            /* the working copy differs from it */
    const kp_analysis *an; /* the last good analysis, or NULL */
    size_t npatterns;      /* patterns of the working copy */
    size_t errors;         /* validation errors of the working copy */
    bool remote_change;    /* another process committed a version */
} status_view;

/* Draws the status line of `v` into r, the hottest partition at or over its limit right-aligned. */
void status_draw(ui_rect r, const status_view *v);
/* Clears the terminal and says it is smaller than UI_MIN_COLS x UI_MIN_LINES (it has lines x cols). */
void status_too_small_draw(int lines, int cols);

#endif
