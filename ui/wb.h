/* wb.h - the workbench core, shared by the ui/ files (not used outside ui/ and its tests):
 * the state, the screens (a table of function pointers each, tig view_ops / htop PanelClass),
 * key handling that returns flags, and drawing into stdscr. Only ui_run's main loop (or a test)
 * calls wb_draw; handlers never draw.
 *
 * Headless use (tests): newterm on /dev/null with a fixed size, wb_new, wb_key for each key,
 * wb_draw, then read stdscr back. */
#ifndef KP_UI_WB_H
#define KP_UI_WB_H

#include "analysis.h"
#include "edit.h"
#include "signals.h"
#include "actions.h"
#include "layout.h"
#include "lineedit.h"
#include "session.h"
#include "theme.h"

#include <stdbool.h>
#include <stddef.h>

/* Handler result flags (htop HandlerResult). */
enum { WB_IGNORED = 0, WB_HANDLED = 1, WB_REDRAW = 2, WB_RESIZE = 4, WB_QUIT = 8 };

typedef struct wb wb;

/* A column of a screen: a cell of an edit table, or a read-only column the screen computes. */
typedef struct wb_col {
    int table;          /* edit_table, or -1 for a computed column */
    size_t col;         /* edit column, or the screen's own code */
    const char *title;
    int width;
} wb_col;

/* One screen (tig view_ops). Unset members fall back to the default handlers. */
typedef struct wb_screen_ops {
    const char *name;
    edit_table table;                 /* the table whose rows the screen lists */
    bool is_table;                    /* rows and cells (false: a report) */
    /* columns of the screen; caller frees the array */
    wb_col *(*columns)(wb *w, size_t *n);
    /* text of a computed column (table == -1); caller frees */
    char *(*computed)(wb *w, size_t row, size_t code, int *role);
    /* number of rows */
    size_t (*rows)(wb *w);
    /* draws a report screen (is_table false) into the rectangle */
    void (*draw)(wb *w, ui_rect r);
    /* screen-specific action; returns flags, WB_IGNORED to delegate to the default */
    int (*handle)(wb *w, ui_action a);
} wb_screen_ops;

/* A cell text that did not parse (a broken template): kept and shown with its error, while
 * the design stays at its last good state. */
typedef struct wb_draft {
    int screen;
    size_t row, col;
    char *text;
    char *err;
} wb_draft;

typedef struct wb_cursor {
    size_t row, col, top, left;
} wb_cursor;

typedef enum wb_prompt { WB_PROMPT_NONE, WB_PROMPT_COMMAND, WB_PROMPT_SEARCH, WB_PROMPT_COMMIT } wb_prompt;

/* A tour step as the workbench needs it (filled from storage/tour.h by ui_run). */
typedef struct wb_tour_step {
    char *title;
    char *narration;
    kp_design *design;
    char *figures;      /* the step's figures as the tour computes them (may be NULL) */
    char **marks;       /* what the step points at, "kind:name" ("pattern:5", "index:GSI1") */
    size_t nmarks;
} wb_tour_step;

typedef struct wb_options {
    /* tour steps (taken; may be NULL) */
    wb_tour_step *tour;
    size_t ntour;
    /* the analysis to run (tests inject a fixed one); NULL = analysis_run / analysis_free */
    kp_analysis *(*analyze)(const kp_design *d);
    void (*analysis_free)(kp_analysis *a);
    /* run validation (validate_design) before analysing; tests may turn it off */
    bool no_validate;
} wb_options;

struct wb {
    session *ss;
    wb_options opt;
    /* the last design that validated and its analysis (the pane shows these) */
    kp_design *good;
    kp_analysis *an;
    kp_diags diags;            /* problems of the current design */
    sig_report sigs;
    sig_observation *obs;
    size_t nobs;
    /* screens */
    int screen;
    wb_cursor cur[UI_SCREEN__COUNT];
    ui_layout lay;
    /* cell editor */
    bool editing;
    lineedit le;
    /* prompt line */
    wb_prompt prompt;
    lineedit pl;
    char *msg;
    ui_role msg_role;
    /* help overlay */
    bool help;
    size_t help_top;
    /* search */
    char *search;
    /* drafts */
    wb_draft *drafts;
    size_t ndrafts, capdrafts;
    /* history screen */
    ws_version *versions;
    size_t nversions;
    int mark_a, mark_b;
    char **difflines;
    size_t ndifflines;
    /* tour */
    bool tour_on;
    size_t tour_step;
    size_t narr_top;            /* first narration line shown */
    kp_analysis *tour_prev_an;  /* analysis of the previous step (what changed) */
    kp_design *tour_prev;
    /* for mouse clicks: the design pattern row drawn on each screen line of the pane, or -1
       (filled by the drawing, read by wb_click) */
    int *pane_hit;
    int npane_hit;
    bool quit;
    bool quit_armed;            /* q pressed once while cells hold drafts */
    bool remote_change;         /* another process committed */
};

/* Creates the workbench on session `s` (taken) with options (copied; the tour steps are taken).
 * Computes the first analysis. Never NULL; wb_free releases everything. */
wb *wb_new(session *s, const wb_options *opt);
void wb_free(wb *w);
/* Sets the terminal size (the one layout function); returns WB_REDRAW. */
int wb_resize(wb *w, int lines, int cols);
/* Handles one key (a character's code point or UI_FKEY(KEY_xxx)); returns flags. */
int wb_key(wb *w, int key);
/* A mouse click at screen line y, column x; returns flags. */
int wb_click(wb *w, int y, int x);
/* Idle tick: checks whether another process changed the workspace; returns flags. */
int wb_tick(wb *w);
/* Runs a `:` command line ("diff 3 5"); returns flags. */
int wb_command(wb *w, const char *line);
/* Before quitting: a cell being edited is saved (or kept as a draft). */
void wb_finish(wb *w);
/* Draws the whole frame into stdscr (no refresh). */
void wb_draw(wb *w);
/* Sets the message line. */
void wb_message(wb *w, ui_role role, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The help text, one line per action: "keys  name  help" (caller frees each line and the array). */
char **wb_help_lines(size_t *n);
/* Screen ops of screen `id`. */
const wb_screen_ops *wb_screen(int id);
/* Recomputes validation and (when valid) the analysis of the current design. */
void wb_recompute(wb *w);

/* Keys while the help overlay is open. */
int wb_help_key(wb *w, int key);
/* The draft (broken text) of a cell, or NULL. */
const wb_draft *wb_draft_at(wb *w, int screen, size_t row, size_t col);
/* The text shown in a cell of a screen (caller frees); *role its colour role. */
char *wb_cell_text(wb *w, int screen, size_t row, size_t col, int *role);
/* The screen column under editor-relative column x, or -1 (same geometry as the drawing). */
int wb_col_at(wb *w, int x);
/* Fills w->difflines with the designer diff of versions a and b (History screen). */
void wb_make_diff(wb *w, int a, int b);
/* true when the current tour step points at `kind` `name` (highlight it). */
bool wb_tour_marked(const wb *w, const char *kind, const char *name);
/* Writes the decision record as Markdown to `file`; returns flags (message set). */
int wb_export_md(wb *w, const char *file);

/* drawing helpers shared by the screens (draw.c) */
void wb_put(int y, int x, int w, const char *text, ui_role role);
void wb_putf(int y, int x, int w, ui_role role, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
char *wb_fmt_num(double v);       /* "1,234" / "2.5" / "-"; caller frees */
char *wb_fmt_money(double v, const char *currency);
char *wb_fmt_short(double v);     /* at most 6 columns: "17.6M", "2.4G", "1,234"; caller frees */ /* "$1,234.56"; caller frees */
void wb_draw_pane(wb *w, ui_rect r);
/* Draws the current screen into r; cy and cx receive the terminal cursor when a cell is edited. */
void wb_draw_screen(wb *w, ui_rect r, int *cy, int *cx);

#endif
