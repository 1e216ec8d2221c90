/* ui.h - the workbench (ncurses). The one entry point app/ calls. */
#ifndef KP_UI_H
#define KP_UI_H

#include <stdbool.h>

typedef struct ui_options {
    bool tour;             /* open the CloudShop walkthrough */
    const char *tour_name; /* "cloudshop" (default) */
    const char *author;    /* whose working copy (NULL = ws_default_author()) */
} ui_options;

/* The tour's own workspace, in the current folder (keyplan tour's default). */
#define UI_TOUR_WORKSPACE "tour.keyplan"

/* Runs the workbench on the workspace at `workspace_path` (created when missing) until the user
 * quits. NULL (or "") names ./design.keyplan; when that does not exist, the tour opens in its own
 * workspace UI_TOUR_WORKSPACE instead (never in design.keyplan). The tour resumes where it was
 * left and refuses a workspace whose working copy is a design of its own (exit 2). Restores the terminal on every exit path. Returns the process exit status (0 normal,
 * 2 unusable input with the message already on stderr). */
int ui_run(const char *workspace_path, const ui_options *opt);

#endif
