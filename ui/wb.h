/* wb.h - the workbench core, on top of ui/: its state (opaque), the screens it switches between,
 * key and mouse handling that change the state and return flags (UI_REDRAW...; actions.h), the
 * `:` command line, and the frame it draws into stdscr. Only ui_run's main loop (or a test)
 * calls wb_draw; handlers never draw.
 *
 * Below it, in one direction: the screens (screens.h, each its own file, reached through
 * screen_ops and a screen_env), the widgets (grid, pane, status, msgline, narration, help,
 * lineedit) and the drawing primitives (draw.h). None of them sees struct wb.
 *
 * Headless use (tests): newterm on /dev/null with a fixed size, wb_new, wb_resize, wb_key for
 * each key, wb_draw, then read stdscr back. */
#ifndef KP_UI_WB_H
#define KP_UI_WB_H

#include "actions.h"
#include "analysis.h"
#include "drafts.h"
#include "narration.h"
#include "session.h"
#include "theme.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct wb wb;

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

/* Creates the workbench on session `s` (taken) with options (copied; the tour steps are taken).
 * Computes the first analysis; call wb_resize before the first wb_draw. Never NULL; wb_free
 * releases everything. */
wb *wb_new(session *s, const wb_options *opt);
/* Frees the workbench, its session, its screens' states and the tour steps (w may be NULL). */
void wb_free(wb *w);
/* Tells the workbench the terminal's size and lays the frame out for it (layout_compute: the one
 * layout function); returns UI_REDRAW | UI_RESIZE. wb_key calls it on KEY_RESIZE. */
int wb_resize(wb *w, int lines, int cols);
/* Handles one key (a character's code point or UI_FKEY(KEY_xxx); UI_FKEY(KEY_RESIZE) after the
 * terminal changed size); returns flags. */
int wb_key(wb *w, int key);
/* A mouse click at screen line y, column x; returns flags. */
int wb_click(wb *w, int y, int x);
/* Idle tick: checks whether another process changed the workspace; returns flags. */
int wb_tick(wb *w);
/* Runs a `:` command line ("diff 3 5"), parsed and dispatched by the command table; returns flags. */
int wb_command(wb *w, const char *line);
/* Before quitting: a cell being edited is saved (or kept as a draft). */
void wb_finish(wb *w);
/* Draws the whole frame into stdscr (no refresh). */
void wb_draw(wb *w);
/* Sets the message line. */
void wb_message(wb *w, ui_role role, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* true once the user asked to quit. */
bool wb_quitting(const wb *w);
/* The session the workbench runs on (still owned by it). */
const session *wb_session(const wb *w);
/* The cells whose text did not parse (owned by the workbench). */
const drafts *wb_drafts(const wb *w);
/* The draft (broken text) of a cell of a screen, or NULL. */
const ui_draft *wb_draft_at(const wb *w, int screen, size_t row, size_t col);
/* true when the tour step shown points at `kind` `name` (highlight it). */
bool wb_tour_marked(const wb *w, const char *kind, const char *name);

/* A `:` command line split into words at blanks. */
typedef struct wb_cmd_args {
    char **argv; /* argv[0] is the command's name as typed */
    size_t argc;
    const char *const *rest; /* rest[i]: the line after word i, blanks skipped ("" at the end) */
} wb_cmd_args;

/* One `:` command (wb_cmd.c): the table drives parsing, dispatch and help. */
typedef struct wb_cmd {
    const char *name;    /* "commit" */
    const char *aliases; /* other names, blank-separated ("q wq"), or NULL */
    const char *args;    /* what follows the name, as help and the unknown-command hint say it */
    int nargs;           /* words that must follow the name, or -1: the handler reads the line */
    int (*run)(wb *w, const struct wb_cmd *c, const wb_cmd_args *a); /* returns flags */
    const char *usage; /* said as "usage: USAGE" when the words do not fit (NULL: never) */
    bool noop;         /* does nothing but say why (vi's :w): left out of the hint */
    const char *help;  /* its line in the help */
} wb_cmd;

/* The command table, static. */
const wb_cmd *wb_commands(size_t *n);
/* The help lines of the commands: a heading, then one line per command, ":name ARGS, :alias"
 * then its help from column HELP_HEAD (caller frees each line and the array). */
char **wb_command_help(size_t *n);

#endif
