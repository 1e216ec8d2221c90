/* layout.h - the one layout function: where the tabs, the editor, the live model pane, the tour
 * narration, the status line and the message line go for a terminal of a given size. Pure
 * arithmetic (no curses), so it is tested directly. */
#ifndef KP_UI_LAYOUT_H
#define KP_UI_LAYOUT_H

#include <stdbool.h>

/* Smallest usable terminal; below it the "terminal too small" screen is shown. */
#define UI_MIN_COLS  50
#define UI_MIN_LINES 14
/* From this width on the model pane sits beside the editor, else below it. */
#define UI_SIDE_COLS 120

typedef struct ui_rect {
    int y, x, h, w;
} ui_rect;

typedef struct ui_layout {
    int lines, cols;
    bool too_small;
    bool side;         /* pane beside the editor (true) or below it */
    ui_rect tabs;      /* screen tabs, top line */
    ui_rect editor;    /* the current screen */
    ui_rect pane;      /* the live model pane (always visible) */
    ui_rect narration; /* tour narration (h == 0 when no tour) */
    ui_rect status;    /* status line */
    ui_rect msg;       /* message / prompt line, bottom */
} ui_layout;

/* Computes the layout for a lines x cols terminal; `tour` reserves the narration panel. */
void layout_compute(int lines, int cols, bool tour, ui_layout *out);
/* The same with the model pane resized by `pane_step` tenths of the work area (positive: wider
 * beside the editor, taller below it; clamped so that editor and pane keep at least 10 columns
 * or 3 lines each) or, with `pane_hidden`, no pane at all (pane w and h 0, the editor takes the
 * work area). layout_compute is step 0, shown. */
void layout_compute_pane(int lines, int cols, bool tour, int pane_step, bool pane_hidden, ui_layout *out);
/* The same with the tour's narration panel `tour_rows` lines high when that is more than its usual
 * third of the work area (a step whose figures need them), leaving the editor and pane at least 4
 * lines; tour_rows < 0: no tour, 0: the usual height. */
void layout_compute_tour(int lines, int cols, int tour_rows, int pane_step, bool pane_hidden, ui_layout *out);

#endif
