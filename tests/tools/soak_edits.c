/* soak_edits.c - the workbench's edits without a terminal, for scripts/soak.sh: opens the session
 * of WORKSPACE (as the workbench does) and renames its first pattern "soak-K" for K = START,
 * START+1, ... for ever, printing K (and flushing) after each edit the session reports saved.
 * The soak kills it at random moments; the workspace must then hold the last K printed (or the
 * next one, when the kill came between the save and the print), intact.
 * `soak_edits --show WORKSPACE` prints the working copy as keyplan reads it (its text with the
 * edits saved as lines applied), for the soak to look at. */
#include "edit.h"
#include "session.h"
#include "util.h"
#include "workspace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Prints the author's working copy of `path`; 0, or 1 when there is none or it cannot be read. */
static int show(const char *path)
{
    ws_t *ws = NULL;
    char *err = NULL, *yaml = NULL;
    kp_status st = ws_open(path, WS_READONLY, &ws, &err);
    if (st == KP_OK)
        st = ws_working_get(ws, &yaml, NULL, &err);
    ws_close(ws);
    if (st != KP_OK) {
        fprintf(stderr, "soak_edits: %s\n", err);
        free(err);
        return 1;
    }
    fputs(yaml, stdout);
    free(yaml);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--show") == 0)
        return show(argv[2]);
    if (argc != 3) {
        fprintf(stderr, "usage: soak_edits WORKSPACE START | soak_edits --show WORKSPACE\n");
        return 2;
    }
    long k = strtol(argv[2], NULL, 10);
    session *s = NULL;
    char *err = NULL;
    if (session_open(argv[1], &s, NULL, &err) != KP_OK) {
        fprintf(stderr, "soak_edits: %s\n", err);
        return 2;
    }
    setvbuf(stdout, NULL, _IONBF, 0);
    for (;; k++) {
        kp_design *d = design_clone(session_design(s));
        char *name = xasprintf("soak-%ld", k);
        int col = edit_col_find(d, EDIT_PATTERNS, "name");
        kp_status st = col < 0 ? KP_INVALID : edit_set(d, EDIT_PATTERNS, 0, (size_t)col, name, &err);
        free(name);
        if (st != KP_OK) {
            fprintf(stderr, "soak_edits: %s\n", err ? err : "no pattern name column");
            return 2;
        }
        if (session_apply(s, d, "soak", &err) != KP_OK) {
            fprintf(stderr, "soak_edits: %s\n", err);
            return 2;
        }
        printf("%ld\n", k);
    }
}
