/* session.h - the workbench's working copy: the design being edited (the author's own working
 * copy in the workspace), its undo/redo (kept in memory for speed and persisted in the workspace
 * so that nothing typed is lost; an undo step brings back the base version too), commits with the
 * stale-parent refusal, reload as a three-way merge of the latest version into the working copy
 * (model/merge.h), and the change check for the workshop. Nothing is ever reverted silently: a
 * commit whose base is not the latest version is refused, and only a merge moves the base.
 * A session either wraps a workspace (session_open) or lives in memory only (tests). */
#ifndef KP_UI_SESSION_H
#define KP_UI_SESSION_H

#include "design.h"
#include "edit.h"
#include "merge.h"
#include "workspace.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct session session;

/* Opens (creating when missing) the workspace at `path` and loads its working copy, else its
 * latest version, else a new empty design. *created tells whether the file was new. On failure
 * returns the status with *err set (caller frees) and *out NULL. A working copy that no longer
 * loads is reported in session_note() and the latest version is opened instead. */
kp_status session_open(const char *path, session **out, bool *created, char **err);
/* session_open for `author` (NULL = ws_default_author()): their working copy and undo history.
 * An author with no working copy takes over the one a workspace of schema 2 had (session_note
 * says so). KP_INVALID / KP_RANGE for an author's name ws_set_author refuses. */
kp_status session_open_as(const char *path, const char *author, session **out, bool *created, char **err);
/* A session in memory only, on design `d` (taken; NULL = a new empty design). Never NULL. */
session *session_new_memory(kp_design *d);
void session_close(session *s);

/* The current design (owned by the session; valid until the next change). */
const kp_design *session_design(const session *s);
/* Replaces the design by `d` (taken), pushing the current one on the undo stack with `label`
 * and clearing redo; persisted in the workspace. KP_OK, or with *err (caller frees; err may be
 * NULL) when the change could not be stored: the workspace's status, or KP_INVALID when the
 * design cannot be saved (designio_save). The change is kept in memory anyway. */
kp_status session_apply(session *s, kp_design *d, const char *label, char **err);
/* Sets one cell of the current design as edit_set does, as one undoable step labelled `label`,
 * saved as session_apply saves. *applied tells whether the cell took the text: false with
 * edit_set's status and message in *err (caller frees; err may be NULL) when it refused it (the
 * design and the workspace unchanged); true with session_apply's status otherwise (KP_OK, or
 * KP_READONLY, or the save's failure with the change kept in memory). A cell whose edit changes
 * one pattern and nothing else (edit_changes_pattern_only) costs in proportion to that pattern:
 * the design is changed in place (session_design's pointer stays the same), its undo step holds
 * the pattern's old value and the save writes that pattern's lines; any other cell is edited on
 * a copy of the design given to session_apply. */
kp_status session_edit_set(session *s, edit_table t, size_t row, size_t col, const char *text,
                           const char *label, bool *applied, char **err);
/* The Patterns table's row commands, made by session_pattern_rows. */
typedef enum session_rowcmd {
    SESSION_ROW_ADD,       /* a new pattern at `row` (edit_add) */
    SESSION_ROW_DELETE,    /* pattern `row` taken out */
    SESSION_ROW_DUPLICATE, /* a copy of pattern `row` after it (edit_duplicate) */
    SESSION_ROW_UP,        /* pattern `row` moved up one (edit_move) */
    SESSION_ROW_DOWN,      /* pattern `row` moved down one */
} session_rowcmd;
/* Makes row command `cmd` on pattern `row` of the current design in place (session_design's
 * pointer stays the same) as one undoable step labelled `label`, in proportion to the step: its
 * undo entry is the step that takes it back (holding the deleted pattern for a delete), and the
 * save writes the lines it moves (a workspace's text not known: saved whole). *op receives the
 * structural step made (an insertion's row is the new pattern's, a move's `to` where it went;
 * a move past a pattern equal to it changes nothing and makes no step, KP_OK).
 * KP_NOTFOUND when the command does not apply there (out of range, a move past an end) and
 * KP_READONLY (with *err) while read-only: nothing changed then. Else KP_OK, or the save's
 * failure with *err (caller frees; err may be NULL) and the change kept in memory. */
kp_status session_pattern_rows(session *s, session_rowcmd cmd, size_t row, const char *label, kp_rowop *op,
                               char **err);
/* The same on table t's rows (session_pattern_rows for EDIT_PATTERNS): an entity (EDIT_ENTITIES,
 * EDIT_KEYS: edit_add refuses a row there), an index, an attribute or a decision added, deleted,
 * duplicated or moved in place, its undo entry the step that takes it back (holding the element
 * taken out for a delete), the save the text around the patterns' list. KP_NOTFOUND as there, and
 * for EDIT_SETTINGS. session_last_step_rows tells the pattern list's steps alone. */
kp_status session_rows(session *s, edit_table t, session_rowcmd cmd, size_t row, const char *label,
                       kp_rowop *op, char **err);
/* For idle moments: an edit is saved as the lines it changed (a few patterns: in proportion to
 * the edit, not the design); the working copy's text is then written whole here, once, when
 * edits were saved that way. Failures are left for the next save to report. */
void session_idle(session *s);
/* Undo / redo one step. KP_NOTFOUND with *err (caller frees; err may be NULL) when there is
 * nothing to undo/redo; KP_INVALID when the stored state does not load (the design is then
 * unchanged); another status when the workspace fails. */
kp_status session_undo(session *s, char **err);
kp_status session_redo(session *s, char **err);
/* true when the last session_undo or session_redo (that succeeded) exchanged the value of one
 * pattern alone, a cell edited in place by session_edit_set, with *row that pattern's: the rest of
 * the design is as it was, so checks and analysis may follow that row alone. false after any
 * other step (a whole design, or the persisted history of an earlier session). */
bool session_last_step_row(const session *s, size_t *row);
/* The same for one element edited in place (edit_changes_row_only: an entity, an attribute, an
 * index, a decision): *t its list (EDIT_KEYS for a cell of the Keys table), *row its row. */
bool session_last_step_element(const session *s, edit_table *t, size_t *row);
/* The same for an entity renamed in place (edit_renames_entity), *row its row: that entity and
 * the patterns naming it (by either name) changed, nothing else. */
bool session_last_step_rename(const session *s, size_t *row);
/* The same for a pattern's id changed in place (edit_renames_pattern), *row its row: that
 * pattern, the covered_by naming it and the decisions' lists of patterns changed, nothing else. */
bool session_last_step_pattern_id(const session *s, size_t *row);
/* true when the last session_undo or session_redo exchanged the design's rest alone (a step of a
 * setting, of a decision's cell, or of a change design_same_model calls the rest's). */
bool session_last_step_rest(const session *s);
/* true when the last session_undo or session_redo exchanged the design's keys alone (a key
 * attribute renamed, the templates keyed on it following: edit_changes_keys_only), with *t and
 * *row the cell's table and row (EDIT_INDEXES and the index, or EDIT_SETTINGS). */
bool session_last_step_keys(const session *s, edit_table *t, size_t *row);
/* true when the last session_undo or session_redo (that succeeded) made a structural step of
 * the pattern list alone (a step of session_pattern_rows taken back or made again), with *op that
 * step as made on the design before it; false after any other step. */
bool session_last_step_rows(const session *s, kp_rowop *op);
/* The same for a structural step of another list (session_rows of an entity, an index, an
 * attribute or a decision), with *t that list. */
bool session_last_step_list(const session *s, edit_table *t, kp_rowop *op);
/* Undo steps held in memory: at most 1,000, of which at most 32 whole designs when a workspace
 * keeps the history (older steps are read back from it when undone that far). */
size_t session_undo_depth(const session *s);
/* Keeps the newest `keep` undo steps, in the workspace (ws_compact: *freed, may be NULL, the bytes
 * the file shrank by) and in memory. KP_NOTFOUND (with *err) for a session with no workspace;
 * else ws_compact's status. */
kp_status session_compact(session *s, size_t keep, long long *freed, char **err);
/* What the next undo (redo) takes back, as its change was labelled ("edit patterns row 2 rate"),
 * or NULL when not known (nothing to undo, or a step of an earlier session). Owned by the
 * session, valid until the next change. */
const char *session_undo_label(const session *s);
const char *session_redo_label(const session *s);

/* The version the working copy is based on (0 = none) and whether it differs from it. */
int session_base(const session *s);
bool session_dirty(const session *s);
/* The workspace (NULL for a memory session) and its path ("(memory)"). */
ws_t *session_ws(session *s);
const char *session_path(const session *s);
/* Why the session is read-only (the latest version is damaged or does not load: the newest
 * intact version was opened instead), or NULL when it can be edited. While read-only,
 * session_apply (which then releases the design it was given), undo, redo and commit refuse with
 * KP_READONLY and that reason. */
const char *session_readonly(const session *s);
/* A note from opening (e.g. the working copy did not load), or NULL. */
const char *session_note(const session *s);
/* The text of a saved working copy that did not load when the session opened (so that it can be
 * written out and repaired by hand), or NULL. Owned by the session. */
const char *session_unloaded_text(const session *s);

/* Commits the working copy with `message` on its base version. KP_CONFLICT (with the
 * workspace's message in *err) when someone committed meanwhile, or while a merge has
 * conflicts to resolve: nothing is changed then. On success *number is the new version. A
 * memory session numbers versions itself. */
kp_status session_commit(session *s, const char *message, int *number, char **err);
/* Brings the latest version in. A working copy without changes becomes it; one with changes is
 * merged with it (base: its base version, theirs: the latest, ours: the working copy). Without
 * conflicts the merge result becomes the working copy based on the latest version, as one
 * undoable step (undo brings back the working copy and its old base, which a commit then
 * refuses); with conflicts *nconflicts (may be NULL) says how many and the merge stays open
 * (session_merge) until session_merge_finish or session_merge_abort. KP_OK also when there is
 * nothing to bring in; else *err (caller frees): KP_NOTFOUND (nothing committed), KP_READONLY,
 * KP_CONFLICT (a merge is open already), or the workspace's failure. */
kp_status session_reload(session *s, size_t *nconflicts, char **err);
/* The open merge (owned by the session: resolve its conflicts with merge_resolve) and the
 * version it brings in (*into, may be NULL), or NULL when none is open. */
merge_result *session_merge(session *s, int *into);
/* Ends the open merge: its result becomes the working copy based on the version merged (one
 * undoable step). KP_CONFLICT with *err naming the first unresolved conflict (the merge stays
 * open); KP_NOTFOUND when none is open. */
kp_status session_merge_finish(session *s, char **err);
/* Drops the open merge; the working copy stays as it was. */
void session_merge_abort(session *s);
/* Whose working copy this is (owned by the session). */
const char *session_author(const session *s);
/* Switches to `author`: their working copy and undo history when they have one, else what is on
 * screen becomes theirs. KP_INVALID / KP_RANGE (a name ws_set_author refuses), KP_CONFLICT
 * while a merge is open; the author is unchanged then. */
kp_status session_set_author(session *s, const char *author, char **err);
/* true when another process changed the workspace since the last call. */
bool session_changed_elsewhere(session *s);
/* The latest version number (0 when none). */
int session_latest(session *s);

/* Versions, oldest first (caller frees with ws_versions_free). */
kp_status session_log(session *s, ws_version **v, size_t *n, char **err);
/* Version `number` as a design (caller frees). */
kp_status session_version_design(session *s, int number, kp_design **out, char **err);

#endif
