/* screen.h - what a screen is and what the workbench core lends it. Each screen is a table of
 * function pointers with designated initialisers (tig view_ops, htop PanelClass), defined in its
 * own file (screen_*.c) with its own state behind `open`/`close`; unset members fall back to the
 * core's default handling. A screen never sees the core: every call gets a screen_env, built by
 * the core for that call, with what the screen may read and the few things it may change (its
 * cursor, its state, the message line). Screens return handler flags (UI_REDRAW...) and draw only
 * when the core's frame asks them to.
 *
 * The five table screens share one implementation (screen_table.c, the default of a table
 * screen's draw and col_at): a screen lists its columns, each a cell of an edit table (edit.h) or
 * a column the screen computes, and the grid widget draws them. */
#ifndef KP_UI_SCREEN_H
#define KP_UI_SCREEN_H

#include "actions.h"
#include "analysis.h"
#include "drafts.h"
#include "edit.h"
#include "grid.h"
#include "layout.h"
#include "lineedit.h"
#include "msgline.h"
#include "session.h"
#include "signals.h"

#include <stdbool.h>
#include <stddef.h>

/* A column of a screen: a cell of an edit table, or a read-only column the screen computes. */
typedef struct screen_col {
    int table;  /* edit_table, or -1 for a computed column */
    size_t col; /* edit column, or the screen's own code for a computed one */
    const char *title;
    int cap; /* the widest the column is drawn */
} screen_col;

typedef struct screen_ops screen_ops;

/* What the table drawing keeps between frames of one screen, for one generation of what it
 * shows (screen_env.gen): the columns, their widths, and each row's pattern result. Owned by the
 * core, one per screen; screen_cache_free releases it. */
typedef struct screen_cache {
    unsigned long gen; /* the generation the rest was computed for; 0: nothing yet */
    screen_col *cols;
    size_t ncols;
    int *widths;    /* one per column, NULL until drawn */
    grid_memo memo; /* what the widths were made of (grid_widths_memo) */
    bool stale;     /* the cells of row stale_row changed since the widths were made */
    size_t stale_row;
    bool moved; /* the rows made step `rows` since the widths were made (their cells did not
                        change: a row added, deleted or moved) */
    kp_rowop rows;
} screen_cache;

/* Forgets what the cache holds (it is then empty, gen 0). */
void screen_cache_free(screen_cache *c);
/* Tells a cache made for generation `before` that the move to generation `now` changed the
 * cells of row `row` alone (a cell of one pattern saved, its analysis updated for it): what it
 * holds stays, and the widths are updated from that row when next drawn. A cache of another
 * generation is left alone (it is made again when drawn). */
void screen_cache_row_changed(screen_cache *c, unsigned long before, unsigned long now, size_t row);
/* The same after structural step op of the rows alone (a pattern added, deleted or moved, each
 * row's cells the same as its row's before): the widths follow when next drawn
 * (grid_widths_rows). */
void screen_cache_rows_moved(screen_cache *c, unsigned long before, unsigned long now, kp_rowop op);
/* The same when the move to generation `now` changed none of the screen's cells (the Patterns
 * screen after an edit of the design's rest alone: a setting, a decision): what it holds stays. */
void screen_cache_kept(screen_cache *c, unsigned long before, unsigned long now);

/* What the core lends a screen for one call. Pointers are valid for that call only. */
typedef struct screen_env {
    int id;                     /* UI_SCREEN_xxx */
    const screen_ops *ops;      /* the screen's own ops */
    void *state;                /* what ops->open returned (NULL without open) */
    ui_cursor *cur;             /* the screen's cursor */
    session *ss;                /* the workspace: versions, base, dirty */
    const kp_design *design;    /* the working copy */
    const kp_analysis *an;      /* the last good design's analysis, or NULL */
    const sig_report *sigs;     /* its reopening signals */
    const sig_observation *obs; /* the workspace's observations (what the signals compare with) */
    size_t nobs;
    const ws_version *versions; /* the workspace's versions, oldest first */
    size_t nversions;
    const drafts *drafts;   /* cells whose text did not parse */
    const lineedit *editor; /* the cell editor while a cell of this screen is edited, else NULL */
    ui_cursor *pattern_cur; /* the Patterns screen's cursor: its row is the selected pattern */
    msgline *msg;           /* the message line */
    unsigned long gen;      /* changes whenever the design, its analysis or a draft does (never 0) */
    screen_cache *cache;    /* the screen's cache, or NULL: compute everything */
    kp_analysis *(*analyze)(const kp_design *d); /* how to analyse a design (tests inject one) */
    void (*analysis_free)(kp_analysis *a);       /* and how to free that */
} screen_env;

struct screen_ops {
    const char *name;
    edit_table table;  /* the table whose rows the screen lists (add, delete, move rows) */
    bool is_table;     /* rows of cells (false: a report, whose rows scroll it) */
    const char *empty; /* a table screen without rows says this */
    /* the screen's own state (caller of open frees it with close); NULL members: no state */
    void *(*open)(void);
    void (*close)(void *state);
    /* the columns (caller frees the array; default for a table screen: those of `table`) */
    screen_col *(*columns)(const screen_env *e, size_t *n);
    /* text of a computed column (table == -1); caller frees; *role its ui_role */
    char *(*computed)(const screen_env *e, size_t row, size_t code, int *role);
    /* the text shown for an edited column's cell, from `text` (edit_get's, which it takes and may
     * return); NULL: the text as edited. The cell editor starts from edit_get's text. */
    char *(*shown)(const screen_env *e, size_t row, const screen_col *c, char *text);
    /* number of rows (default for a table screen: the rows of `table`) */
    size_t (*rows)(const screen_env *e);
    /* draws the screen into r; *cy and *cx receive the terminal cursor when a cell is edited
       (default for a table screen: the grid widget) */
    void (*draw)(const screen_env *e, ui_rect r, int *cy, int *cx);
    /* the column under column x of the screen drawn `width` wide, or -1 (mouse clicks; default
       for a table screen: the grid's) */
    int (*col_at)(const screen_env *e, int width, int x);
    /* what is under the cursor, whole, for the detail view: lines (caller frees each and the
       array; *n their number) and *title (caller frees); NULL when there is nothing (default for
       a table screen: every column's title and full text of the cursor's row) */
    char **(*detail)(const screen_env *e, char **title, size_t *n);
    /* a screen's own action: returns flags, UI_IGNORED to let the core's default handle it */
    int (*handle)(const screen_env *e, ui_action a);
};

/* ---- calling a screen, with the defaults (screen_table.c) ---- */

/* ops->columns, else for a table screen the columns of its edit table, else none (NULL, *n 0).
 * Caller frees the array. */
screen_col *screen_columns(const screen_env *e, size_t *n);
/* ops->rows, else for a table screen the rows of its edit table, else 0. */
size_t screen_rows(const screen_env *e);
/* ops->draw, else for a table screen its columns and rows in the grid widget. */
void screen_draw(const screen_env *e, ui_rect r, int *cy, int *cx);
/* ops->col_at, else for a table screen the grid's column under x (same geometry as the drawing);
 * -1 when there is none. */
int screen_col_at(const screen_env *e, int width, int x);
/* The text shown in a cell of the screen: an edit cell, its draft (shown as "!text" in
 * UI_ROLE_BAD) or a computed column; "" past the last column or for a screen without columns.
 * Caller frees; *role receives its ui_role. */
char *screen_cell_text(const screen_env *e, size_t row, size_t col, int *role);

/* ops->detail, else for a table screen the cursor row's columns as "title: text" lines, else
 * NULL. Caller frees the lines, the array and *title. */
char **screen_detail(const screen_env *e, char **title, size_t *n);

/* One column per column of edit table t (cap 24): what table screens build theirs from. Caller
 * frees the array; *n receives their number. */
screen_col *screen_table_cols(const kp_design *d, edit_table t, size_t *n);

#endif
