/* session.h - the workbench's working copy: the design being edited, its unlimited undo/redo
 * (kept in memory for speed and persisted in the workspace so that nothing typed is lost),
 * commits with the stale-parent refusal, reload and the change check for the workshop.
 * A session either wraps a workspace (session_open) or lives in memory only (tests). */
#ifndef KP_UI_SESSION_H
#define KP_UI_SESSION_H

#include "design.h"
#include "workspace.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct session session;

/* Opens (creating when missing) the workspace at `path` and loads its working copy, else its
 * latest version, else a new empty design. *created tells whether the file was new. On failure
 * returns the status with *err set (caller frees) and *out NULL. A working copy that no longer
 * loads is reported in session_note() and the latest version is opened instead. */
kp_status session_open(const char *path, session **out, bool *created, char **err);
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
/* Undo / redo one step. KP_NOTFOUND with *err (caller frees; err may be NULL) when there is
 * nothing to undo/redo; KP_INVALID when the stored state does not load (the design is then
 * unchanged); another status when the workspace fails. */
kp_status session_undo(session *s, char **err);
kp_status session_redo(session *s, char **err);
size_t session_undo_depth(const session *s);
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
 * workspace's message in *err) when someone committed meanwhile: nothing is changed then.
 * On success *number is the new version. A memory session numbers versions itself. */
kp_status session_commit(session *s, const char *message, int *number, char **err);
/* Makes the latest version the working copy (undoable). */
kp_status session_reload(session *s, char **err);
/* true when another process changed the workspace since the last call. */
bool session_changed_elsewhere(session *s);
/* The latest version number (0 when none). */
int session_latest(session *s);

/* Versions, oldest first (caller frees with ws_versions_free). */
kp_status session_log(session *s, ws_version **v, size_t *n, char **err);
/* Version `number` as a design (caller frees). */
kp_status session_version_design(session *s, int number, kp_design **out, char **err);

#endif
