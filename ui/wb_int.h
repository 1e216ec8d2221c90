/* wb_int.h - the workbench core's private header: struct wb and what its files (wb.c: state,
 * keys and dispatch; wb_cmd.c: the `:` command table; wb_tour.c: the tour; wb_draw.c: the
 * frame) share. Nothing below the core includes it (the headless tests do, to look inside). */
#ifndef KP_UI_WB_INT_H
#define KP_UI_WB_INT_H

#include "wb.h"

#include "detail.h"
#include "form.h"
#include "grid.h"
#include "layout.h"
#include "lineedit.h"
#include "msgline.h"
#include "screens.h"
#include "signals.h"
#include "validate.h"

typedef enum wb_prompt { WB_PROMPT_NONE, WB_PROMPT_COMMAND, WB_PROMPT_SEARCH, WB_PROMPT_COMMIT } wb_prompt;

struct wb {
    session *ss;
    wb_options opt;
    /* the last design that validated and its analysis (the pane shows these) */
    kp_design *good;
    kp_analysis *an;
    bool an_behind;    /* the last design did not validate: `an` is of an older one */
    bool pattern_edit; /* the change being applied alters pattern row `pattern_row` alone (a
                          cell): analysis_update's hint, reset by wb_recompute */
    size_t pattern_row;
    bool elem_edit; /* the change being applied alters element `elem_row` of list `elem_table`
                       alone (edit_changes_row_only: an entity's cell but its name, an attribute's,
                       an index's but its keys): told as pattern_edit is */
    edit_table elem_table;
    size_t elem_row;
    bool renamed; /* the change being applied renames entity `renamed_row` (edit_renames_entity),
                     the patterns naming it following, nothing else: told as elem_edit is */
    size_t renamed_row;
    bool keys_edit; /* the change being applied renames a key attribute of the table or of index
                       keys_row (keys_table), the templates keyed on it following, in place
                       (edit_changes_keys_only): the good copy and the analysis take the new keys */
    edit_table keys_table;
    size_t keys_row;
    bool pid_edit; /* the change being applied changes pattern `pid_row`'s id (edit_renames_pattern),
                      the covered_by and the decisions naming it following: told as renamed is */
    size_t pid_row;
    bool rows_edit; /* the change being applied is structural step `rows_op` of the pattern list
                         alone (a row added, deleted, duplicated or moved, or such a step undone):
                         what validation, the copy and the analysis are told, reset by
                         wb_recompute */
    kp_rowop rows_op;
    bool attr_rows; /* the change being applied is step `attr_rows_op` of the attributes' list alone
                       (a row added, duplicated or deleted on the Attributes screen): what the
                       analysis is told, reset by wb_recompute */
    kp_rowop attr_rows_op;
    bool index_rows; /* the change being applied is step `index_op` of the indexes' list alone (a
                        row added, deleted, duplicated or moved, or such a step undone): what
                        validation is told (the patterns' checks read no index), and the good
                        copy takes the same step; reset by wb_recompute */
    kp_rowop index_op;
    bool index_rest; /* good is the valid rest of the current design less its orphan key templates
                        (and the decisions or signals that failed then) alone, made in place from
                        the design before by index step index_rest_op (wb_salvage.c): that step's
                        inverse makes good that design again, the entities and the rest it
                        changed copied back; reset by the next recompute */
    kp_rowop index_rest_op;
    bool rest_told; /* the change being applied alters the design's rest alone, as its maker knows
                       (edit_changes_rest_only): wb_recompute need not compare the models */
    bool rest_edit; /* wb_recompute found the design changed in its rest alone (a setting, a
                       decision: design_same_model with good): checks and analysis follow that */
    bool an_kept;   /* the last recompute left good and an as they were (no valid rest was found, or
                     a step's inverse made good current again) */
    bool lag;       /* good and an are of the design the current one came from by rows step lag_op,
                     which left it invalid with no valid rest: its inverse makes them current */
    kp_rowop lag_op;
    bool fill; /* good and an are of the current design but for pattern row fill_row, which
                        does not validate: without it (fill_new: a row inserted, its cells edited
                        since), or with its value when it last validated (its own cells broke it);
                        each edit of its cells keeps them, the one that makes the design valid is
                        told as that row's step (its insertion, its edit), and so is its removal */
    bool fill_new;
    size_t fill_row;
    kp_diags diags;      /* problems of the current design */
    validate_memo vmemo; /* where each pattern's diagnostics are in `diags` (validate_pattern_edit) */
    bool partial;        /* good is the valid rest of a design that does not validate (wb_salvage.c) */
    sig_report sigs;
    sig_observation *obs;
    size_t nobs;
    ws_version *versions; /* the workspace's versions (History, the decision record) */
    size_t nversions;
    /* screens: the current one, each one's cursor and own state (screen_ops.open) */
    int screen;
    ui_cursor cur[UI_SCREEN__COUNT];
    void *state[UI_SCREEN__COUNT];
    ui_layout lay;
    unsigned long gen;                    /* counts recomputes (screen_env.gen) */
    screen_cache cache[UI_SCREEN__COUNT]; /* each screen's drawing cache */
    int pane_step;    /* the model pane's size: tenths of the work area more (+) or less (-) */
    bool pane_hidden; /* z hides the pane */
    /* cell editor */
    bool editing;
    lineedit le;
    /* prompt line */
    wb_prompt prompt;
    lineedit pl;
    msgline msg;
    /* help overlay */
    bool help;
    size_t help_top;
    /* a decision opened as a form (wb_form.c; drawn over the editor and the pane while open) */
    ui_form form;
    size_t form_row;
    /* the detail view (drawn over the editor and the pane while open) */
    detail_view detail;
    /* search */
    char *search;
    drafts drafts;
    /* tour */
    bool tour_on;
    size_t tour_step;
    size_t narr_top;           /* first narration line shown */
    int tour_rows;             /* the narration panel's height the step's figures need (0: usual) */
    kp_analysis *tour_prev_an; /* analysis of the previous step (what changed) */
    kp_design *tour_prev;
    kp_design **tour_mine; /* per step: the student's edits of it, or NULL (wb_tour.c) */
    bool tour_done;        /* the step's exercise held after the last key */
    bool tour_resumed;     /* the workspace said where the tour was left */
    bool tour_visited;     /* the tour was shown in this session */
    bool tour_fresh;       /* the working copy is not a step's yet: nothing of it to keep */
    /* for mouse clicks: the design pattern row drawn on each screen line of the pane, or -1
       (filled by the drawing, read by wb_click) */
    int *pane_hit;
    int npane_hit;
    bool quit;
    bool quit_armed;    /* q pressed once while cells hold drafts */
    bool remote_change; /* another process committed */
    /* the merge view (wb_merge.c), shown while the session has a merge open */
    size_t merge_sel;
    bool merge_editing;
    lineedit merge_le;
    /* presence (wb_presence.c): the others who have the workspace open */
    double presence_beat; /* when this workbench last beat (monotonic seconds), 0 = never */
    ws_presence *others;
    size_t nothers;
};

/* wb.c */
/* What screen `id` gets for one call (screen.h). */
screen_env wb_env(wb *w, int id);
/* Lays the frame out again for the current size and whether the tour runs (the one place
 * layout_compute is called). */
void wb_relayout(wb *w);
/* Applies a changed copy of the design (taken) as one undoable step and recomputes. KP_READONLY
 * (message shown, design released) when the session is read-only. */
kp_status wb_apply(wb *w, kp_design *nd, const char *label);
/* Sets cell (t, row, col) of the design's rest from text, as :set does a setting's value
 * (EDIT_SETTINGS, col 1) and the decision form a decision's field: in place in the session, undo
 * label `label`, then checked and analysed as a change of the rest. false, with the cell's refusal
 * in *refused (caller frees), when the text is refused; else true with the session's status in
 * *st. */
bool wb_set_rest(wb *w, edit_table t, size_t row, size_t col, const char *text, const char *label,
                 kp_status *st, char **refused);
/* Recomputes validation and (when valid) the analysis of the current design. */
void wb_recompute(wb *w);
/* Frees an analysis made by the workbench's analyze option (a may be NULL). */
void wb_analysis_free(wb *w, kp_analysis *a);
/* Reads the workspace's versions again (none when the log cannot be read). */
void wb_load_versions(wb *w);
/* Commits the working copy with `message`; the message line says how it went. Returns flags. */
int wb_commit(wb *w, const char *message);
/* Opens the prompt line with `init` typed. */
void wb_prompt_open(wb *w, wb_prompt p, const char *init);
/* Opens the detail view (detail.h) over the editor and the pane with a copy of `title` and of
 * lines[0..n); Esc closes it. Returns UI_REDRAW. */
int wb_detail_show(wb *w, const char *title, const char *const *lines, size_t n);
/* Runs an action: the current screen's handler, else the default. Returns flags. */
int wb_run_action(wb *w, ui_action a);
/* After a merge became the working copy: drafts dropped, everything recomputed. */
void wb_after_merge(wb *w);
/* The editing keys of the cell editor and the prompt on `e`; true when handled. */
bool wb_line_key(lineedit *e, int key);

/* wb_merge.c: the merge view, over the screens while a merge has conflicts to resolve */
/* A merge with `nconflicts` conflicts was opened: the view starts on the first. Returns flags. */
int wb_merge_opened(wb *w, size_t nconflicts);
/* A key while the merge view shows; returns flags. */
int wb_merge_key(wb *w, int key);
/* Draws the merge view into r; *cy, *cx receive the cursor while a value is typed. */
void wb_merge_draw(wb *w, ui_rect r, int *cy, int *cx);

/* wb_pair.c: authors, the undo history's size, presence */
/* :set author NAME: the workbench works on NAME's working copy from now on. Returns flags. */
int wb_set_author(wb *w, const char *name);
/* :compact [KEEP]. Returns flags. */
int wb_cmd_compact(wb *w, const wb_cmd *c, const wb_cmd_args *a);
/* Beats (about once a second) and reads who else has the workspace open; UI_REDRAW when that
 * changed, else UI_IGNORED. Nothing for a session without a workspace. */
int wb_presence_tick(wb *w);
/* Draws the others (author, screen, row) at the right end of line r. */
void wb_presence_draw(const wb *w, ui_rect r);

/* wb_tour.c */
/* Goes to tour step `step` (its design becomes an undoable edit); returns flags. */
int wb_tour_go(wb *w, size_t step);
/* The tour step shown, or NULL when no tour runs. */
const wb_tour_step *wb_tour_shown(const wb *w);
/* At wb_new: the step the workspace says the tour was left at, and the student's edits per step. */
void wb_tour_resume(wb *w);
/* Frees what wb_tour_resume and the steps kept. */
void wb_tour_free(wb *w);
/* `:tour [off | reset | STEP]`: shows the tour (where it was left, else from step 1), leaves it,
 * takes the step back to its own design, or goes to a step. Returns flags. */
int wb_tour_command(wb *w, const char *arg);
/* Leaves the tour (Esc); the student's edits stay. Returns flags. */
int wb_tour_off(wb *w);
/* Takes the step shown back to its own design (undoable). Returns flags. */
int wb_tour_reset(wb *w);
/* Whether every check of the shown step's exercise holds on the working copy's analysis; each
 * check's result in done[] (may be NULL; as many as the step's checks). false without one. */
bool wb_tour_exercise(const wb *w, bool *done);
/* After a key: says so when the exercise has just turned green. */
void wb_tour_after_key(wb *w);

/* wb_form.c */
/* Opens decision `row` as a form with field `sel` selected. Returns flags. */
int wb_form_open(wb *w, size_t row, size_t sel);
/* A key while the form is open. Returns flags. */
int wb_form_key(wb *w, int key);
/* The line editor's keys (cursor, delete, insert) on e; true when handled (wb.c). */
bool wb_line_key(lineedit *e, int key);

/* wb_salvage.c */
/* The working copy `d` does not validate: analyses its valid rest (when there is one) and marks
 * the places left out in their cells (drafts_mark). `without`: the row of a pattern d has and the
 * design good and an are of lacks, nothing else differing (an inserted row), else (size_t)-1;
 * when that row's errors are all there are, good and an stand as the valid rest. */
void wb_salvage(wb *w, const kp_design *d, size_t without);

/* wb_cmd.c */
/* Writes the working copy to `file` in `format` (md, json: the decision record; the formats of
 * exchange.h), saying in the record whether it is a version or an uncommitted working copy; the
 * message line says how it went. Returns flags. */
int wb_export(wb *w, const char *format, const char *file);

#endif
