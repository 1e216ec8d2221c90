/* layout.c - the one layout function. */
#include "layout.h"

#include <string.h>

void layout_compute(int lines, int cols, bool tour, ui_layout *out)
{
    layout_compute_pane(lines, cols, tour, 0, false, out);
}

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

void layout_compute_pane(int lines, int cols, bool tour, int pane_step, bool pane_hidden, ui_layout *out)
{
    layout_compute_tour(lines, cols, tour ? 0 : -1, pane_step, pane_hidden, out);
}

void layout_compute_tour(int lines, int cols, int tour_rows, int pane_step, bool pane_hidden, ui_layout *out)
{
    bool tour = tour_rows >= 0;
    memset(out, 0, sizeof *out);
    out->lines = lines;
    out->cols = cols;
    if (lines < UI_MIN_LINES || cols < UI_MIN_COLS) {
        out->too_small = true;
        return;
    }
    out->tabs = (ui_rect){0, 0, 1, cols};
    out->msg = (ui_rect){lines - 1, 0, 1, cols};
    out->status = (ui_rect){lines - 2, 0, 1, cols};
    int bottom = lines - 2; /* first line below the work area */
    if (tour) {
        int nh = (lines - 3) / 3;
        if (nh < 4)
            nh = 4;
        if (tour_rows > nh) /* the step's figures need more, up to leaving 4 lines to work in */
            nh = tour_rows < lines - 3 - 4 ? tour_rows : lines - 3 - 4 > nh ? lines - 3 - 4 : nh;
        out->narration = (ui_rect){bottom - nh, 0, nh, cols};
        bottom -= nh;
    }
    int top = 1, h = bottom - top;
    if (pane_hidden) {
        out->side = cols >= UI_SIDE_COLS;
        out->editor = (ui_rect){top, 0, h, cols};
        out->pane = (ui_rect){top, out->side ? cols : 0, 0, 0};
        return;
    }
    if (cols >= UI_SIDE_COLS) {
        out->side = true;
        int pw = cols / 2;
        if (pw < 60)
            pw = 60;
        if (pane_step)
            pw = clampi(pw + pane_step * cols / 10, 10, cols - 10);
        out->editor = (ui_rect){top, 0, h, cols - pw};
        out->pane = (ui_rect){top, cols - pw, h, pw};
    } else {
        int eh = (h + 1) / 2;
        if (pane_step)
            eh = clampi(eh - pane_step * h / 10, 3, h - 3);
        out->editor = (ui_rect){top, 0, eh, cols};
        out->pane = (ui_rect){top + eh, 0, h - eh, cols};
    }
}
