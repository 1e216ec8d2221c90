/* grid.h - the table grid widget: a header of column titles over rows of cells, column 0 frozen
 * while the others scroll sideways to keep the cursor's column visible, numbers right-aligned,
 * the cursor row and cell in their roles, and the cell being edited drawn from its line editor.
 * Column widths follow the titles and the contents, each capped. It knows cells only through a
 * callback: nothing of the workbench. */
#ifndef KP_UI_GRID_H
#define KP_UI_GRID_H

#include "design.h"
#include "layout.h"
#include "lineedit.h"

#include <stdbool.h>
#include <stddef.h>

/* A screen's cursor and its scroll position (the report screens use row and top only). */
typedef struct ui_cursor {
    size_t row, col;
    size_t top;  /* first row shown */
    size_t left; /* first scrolling column shown (column 0 is always shown) */
} ui_cursor;

typedef struct grid_col {
    const char *title;
    int cap; /* the widest the column gets */
} grid_col;

typedef struct grid {
    const grid_col *cols;
    size_t ncols, nrows;
    /* the text of a cell (caller frees); *role receives its ui_role */
    char *(*cell)(const void *ctx, size_t row, size_t col, int *role);
    const void *ctx;
    ui_cursor *cur;         /* moved by drawing: top and left follow the cursor */
    const lineedit *editor; /* the cursor's cell is being edited with it, or NULL */
    const char *empty;      /* shown when there are no rows */
    const int *widths;      /* each column's width (grid_widths), or NULL: computed per call */
    const bool *cut;        /* with widths: per column, true when a cell is wider than its cap
                               (grid_memo_cut); the width a further column cannot use then goes to
                               the first such column shown. NULL: none */
} grid;

/* Each column's width from its title and every row's text, capped: what the grid draws with
 * when g->widths is NULL (it formats every cell: keep the result while the cells stay the
 * same). Caller frees the array (one int per column). */
int *grid_widths(const grid *g);

/* What grid_widths_memo keeps of the rows so that a change of one row updates the widths in
 * proportion to that row: per column, every row's width (up to the cap), or which row is
 * the first wider than the cap (the scan stops there; the rows before it are kept). Zero-initialised = empty; grid_memo_free releases it. */
#define GRID_ALL   ((size_t)-1) /* every row's width is kept */
#define GRID_TITLE ((size_t)-2) /* the title reaches the cap: no row matters */
typedef struct grid_memo {
    size_t nrows, ncols;
    unsigned short *rowwd; /* column by column: nrows widths each, capped */
    size_t *capped;        /* per column: GRID_ALL, GRID_TITLE or the first row wider than the cap */
    bool *cut;             /* per column: a row is wider than the cap (grid_memo_cut) */
} grid_memo;
/* grid_widths, keeping in m (emptied first) what grid_widths_row needs. Caller frees the array. */
int *grid_widths_memo(const grid *g, grid_memo *m);
/* Updates wd (what grid_widths_memo gave, with m) after the cells of row `row` alone changed:
 * the same widths as grid_widths of g, formatting that row's cells (and a column's every cell
 * only when the row that passed its cap no longer does). */
void grid_widths_row(const grid *g, int *wd, grid_memo *m, size_t row);
/* Updates wd and m (of the rows before) after structural step op of the rows alone (a row
 * inserted, removed or moved; g has the rows after it): each row's kept width follows its row,
 * an inserted row's cells are formatted, and a column's rows only from the row that passed its
 * cap when that row left (a move formats the rows it passed). The same widths as grid_widths
 * of g. A memo that op does not fit is made again (grid_widths_memo). */
void grid_widths_rows(const grid *g, int *wd, grid_memo *m, kp_rowop op);
void grid_memo_free(grid_memo *m);
/* Per column, whether a row is wider than its cap (what grid.cut wants), as m says now; NULL
 * when m is empty. Owned by m: valid until m changes. */
const bool *grid_memo_cut(grid_memo *m);

/* Draws the grid into r. While a cell is edited, *cy and *cx receive where the terminal cursor
 * goes (left alone otherwise). */
void grid_draw(const grid *g, ui_rect r, int *cy, int *cx);
/* The column under column x of a grid drawn `width` columns wide, or -1. */
int grid_col_at(const grid *g, int width, int x);

#endif
