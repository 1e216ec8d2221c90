/* workspace.h - the SQLite workspace: immutable versions of the design, the
 * decisions and their signals as real tables, observations, one working copy per author with
 * its persisted undo/redo history (so that quitting, a crash or a killed terminal loses nothing,
 * and two people pairing on one workspace never see each other's edits as their own), and who
 * has it open (presence).
 *
 * One ws_t is one open connection (WAL, foreign keys, defensive mode, busy timeout). Every
 * change is one transaction (BEGIN IMMEDIATE): after a crash the file holds either all of it or
 * none of it. Two processes may open the same workspace: a commit on a stale parent is refused
 * with KP_CONFLICT and a message naming who committed what meanwhile.
 *
 * Errors: every function returns a kp_status (KP_OK on success) and, on failure, sets *err
 * (when err is not NULL) to a one-line message the caller frees. A ws_t stays usable after a
 * failed call. The schema is documented at the top of workspace.c. */
#ifndef KP_WORKSPACE_H
#define KP_WORKSPACE_H

#include "design.h"
#include "signals.h"
#include "util.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct ws ws_t;

#define WS_DEFAULT_PATH "design.keyplan"

/* ws_open flags. */
enum {
    WS_CREATE = 1u << 0,   /* create the workspace when the file does not exist */
    WS_READONLY = 1u << 1, /* open for reading only (log, show, diff, export); never writes */
    WS_SALVAGE = 1u << 2,  /* with WS_READONLY: open a file whose SQLite check fails (damaged pages),
                              so that ws_fsck can say what is still intact */
    WS_AS_IS = 1u << 3,    /* never upgrade: a file of an older schema fails with KP_VERSION, no
                              message and nothing written (for opening ahead, before the caller
                              knows it will write; it then opens again without the flag) */
};

/* Opens the workspace at `path`.
 * - missing file: created (empty, current schema) with WS_CREATE, else KP_NOTFOUND;
 * - not a SQLite file, a SQLite file of another application, or a damaged one: KP_DAMAGED, and
 *   the file is left untouched (it is checked read-only before anything is written);
 * - a workspace made by a newer keyplan (schema above ours): KP_VERSION, untouched;
 * - the file or its folder not writable (and WS_READONLY not given): KP_READONLY;
 * - an older schema is migrated (PRAGMA user_version steps) in one transaction.
 * On success *out is the handle (ws_close releases it); on failure *out is NULL. */
kp_status ws_open(const char *path, unsigned flags, ws_t **out, char **err);
void ws_close(ws_t *ws);
const char *ws_path(const ws_t *ws); /* as given to ws_open; owned by ws */
bool ws_readonly(const ws_t *ws);

/* The schema version this code writes (PRAGMA user_version of a fresh workspace). */
int ws_schema_version(void);

/* Author for commits, observations and the working copy when nobody says otherwise:
 * $KEYPLAN_AUTHOR, else git's user.name (the global git config: $GIT_CONFIG_GLOBAL, else
 * ~/.gitconfig, else $XDG_CONFIG_HOME/git/config), else $USER, else "unknown". Caller frees. */
char *ws_default_author(void);

/* Whose working copy, undo history and presence this handle works on (ws_open starts with
 * ws_default_author(); --author and :set author come here). KP_INVALID (empty, a control
 * character) or KP_RANGE (over 255 bytes) with *err, the author unchanged. */
kp_status ws_set_author(ws_t *ws, const char *author, char **err);
/* The author (owned by ws). */
const char *ws_author(const ws_t *ws);

/* ---- versions --------------------------------------------------------------------------- */
typedef struct ws_version {
    int number; /* 1, 2, ... in commit order */
    int parent; /* 0 for the first version */
    char *time; /* ISO 8601 UTC, "2026-11-29T21:40:12Z" */
    char *author;
    char *message;
    char *name; /* the design's name at that version (may be "") */
} ws_version;

void ws_version_free(ws_version *v);            /* the strings, not v itself */
void ws_versions_free(ws_version *v, size_t n); /* the strings and the array */

/* The latest version number in *number (0 when nothing was committed yet). */
kp_status ws_latest(ws_t *ws, int *number, char **err);

/* Every version, oldest first, in *out (caller frees with ws_versions_free) and *n. */
kp_status ws_log(ws_t *ws, ws_version **out, size_t *n, char **err);

/* Version `number` (0 = the latest): its metadata in *info (may be NULL; caller frees the
 * strings with ws_version_free) and its canonical design YAML in *yaml (may be NULL; caller
 * frees). KP_NOTFOUND when there is no such version (message says which versions exist). */
kp_status ws_version_get(ws_t *ws, int number, ws_version *info, char **yaml, char **err);

/* Version `number` (0 = latest) loaded as a design (caller frees with design_free). A stored
 * design that no longer loads gives KP_DAMAGED with the loader's first message. */
kp_status ws_version_design(ws_t *ws, int number, kp_design **out, char **err);

#define WS_PARENT_LATEST (-1)

/* Records design `d` as a new version: its canonical YAML (designio_save), the author
 * (NULL = ws_author()), the message (required, non-empty) and its decisions and signals
 * (with the design's own value of each signal's metric) in their tables, all in one transaction.
 * `expected_parent` is the version the design was based on (0 = an empty workspace); when it is
 * no longer the latest the commit is refused with KP_CONFLICT and a message such as
 * "version 4 was committed meanwhile by ana at 2026-11-29T21:40:12Z ("shard GSI1"); your
 * design is based on version 3: reload, merge and commit again". WS_PARENT_LATEST commits on
 * top of whatever is latest. When `update_working` is true the author's working copy becomes
 * this design based on the new version in the same transaction (its undo history is kept).
 * The design text is stored once per distinct text (compressed, under its digest), the
 * decisions and signals only when they differ from the latest version's.
 * The version is on disk when ws_commit returns: a checkpoint copies it into the file and syncs
 * it (or the WAL is synced when a reader's older snapshot keeps the checkpoint from copying).
 * On success *number (may be NULL) is the new version's number. `d` must have passed
 * validation (designio_load_* or validate_design): its analysis is run to record each signal's
 * design value. */
kp_status ws_commit(ws_t *ws, const kp_design *d, const char *author, const char *message,
                    int expected_parent, bool update_working, int *number, char **err);

/* ws_commit in two steps: what a commit computes from the design alone (its canonical text, its
 * analysis for the signals' design values, their digests), which needs no workspace and may run
 * on any thread, e.g. while another opens the workspace; then the transaction. NULL with *err
 * (KP_INVALID's message) when the design cannot be saved. ws_commit_prep_free releases it (NULL
 * is fine); `d` must outlive it unchanged. ws_commit_prepared is ws_commit with `p` made from
 * `d`. */
typedef struct ws_commit_prep ws_commit_prep;
ws_commit_prep *ws_commit_prepare(const kp_design *d, char **err);
void ws_commit_prep_free(ws_commit_prep *p);
kp_status ws_commit_prepared(ws_t *ws, const kp_design *d, const ws_commit_prep *p, const char *author,
                             const char *message, int expected_parent, bool update_working, int *number,
                             char **err);

/* Checks the file: PRAGMA integrity_check, foreign keys, and each version's stored digest
 * against its design text. KP_DAMAGED with the first problem when anything is wrong. */
kp_status ws_verify(ws_t *ws, char **err);

/* What `keyplan fsck` reports: the file's checks and every version, intact or not. A version is
 * intact when its design text matches its digest and loads. Every version read (show, export,
 * the workbench, commit) is checked the same way and refused by number when damaged. */
typedef struct ws_fsck_version {
    int number;
    char *problem; /* NULL when intact */
} ws_fsck_version;

typedef struct ws_fsck_report {
    char *integrity;           /* NULL when PRAGMA integrity_check says ok, else its first problem */
    char *foreign_keys;        /* NULL when every reference holds, else the first broken one */
    ws_fsck_version *versions; /* oldest first */
    size_t nversions;
    int last_intact; /* the newest intact version, 0 when none */
    char *working;   /* NULL when every author's working copy loads, else the first that does not
                        ("working copy of ana: ...") */
    size_t problems; /* everything found wrong */
} ws_fsck_report;

/* Fills *r (release with ws_fsck_report_free). KP_OK when it could look (whatever it found);
 * another status with *err when the file cannot be read at all. */
kp_status ws_fsck(ws_t *ws, ws_fsck_report *r, char **err);
void ws_fsck_report_free(ws_fsck_report *r);

/* ---- the working copies and their undo history ------------------------------------------ */
/* Each author has their own working copy and undo/redo history; the functions below work on
 * ws_author()'s. An undo entry stores the edit as a delta on the state above it (the bytes that
 * differ), so its size follows the edit, not the design; at most 1,000 steps are kept per author
 * (the oldest go), and ws_compact keeps fewer. */

/* The working copy: the YAML being edited (not necessarily valid) and the version it is based
 * on (0 = none). KP_NOTFOUND when the author has no working copy yet. Caller frees *yaml. */
kp_status ws_working_get(ws_t *ws, char **yaml, int *base, char **err);

/* The working copy a workspace of schema 2 had (one for everybody, kept under no author by the
 * upgrade) becomes the author's with its undo history, when the author has none yet: the first
 * workbench opened after the upgrade takes it over. *adopted tells whether it did. */
kp_status ws_working_adopt(ws_t *ws, bool *adopted, char **err);

/* Replaces the working copy by `yaml` based on version `base`, in one transaction that
 * survives a crash. When `undoable` is true and the text or the base differs from the current
 * working copy, the current state (text and base) is pushed on the undo stack (with `label`,
 * e.g. "edit pattern 3 rate"; may be NULL) and the redo stack is cleared. */
kp_status ws_working_set(ws_t *ws, const char *yaml, int base, bool undoable, const char *label, char **err);

/* Saves an edit of the working copy in proportion to it: the working copy's bytes `prefix` to
 * (length - `suffix`), which are `was` (waslen bytes), become `text` (len bytes), in one
 * transaction that survives a crash, with `was` pushed on the undo stack as that step (`label`
 * may be NULL) and the redo stack cleared; the base stays. The edit goes to the working copy's
 * log (folded into its text every few dozen edits, by ws_working_fold and by any whole save).
 * Only valid when this handle knows the working copy as it is: after ws_working_get (the text
 * read), ws_working_set or ws_working_splice, with the edit made against that text by the caller.
 * KP_CONFLICT (nothing changed) when the handle does not know it, or it changed since (another
 * handle saved it): the caller then saves it whole with ws_working_set. Other failures as
 * ws_working_set. */
kp_status ws_working_splice(ws_t *ws, size_t prefix, size_t suffix, const char *was, size_t waslen,
                            const char *text, size_t len, const char *label, char **err);
/* One range of the working copy's text replaced: its bytes [at, at + waslen), which are `was`,
 * by text[0..len). */
typedef struct ws_range {
    size_t at;
    const char *was;
    size_t waslen;
    const char *text;
    size_t len;
} ws_range;
/* ws_working_splice of n ranges at once, in ascending order of `at` and none overlapping, on the
 * text as this handle knows it (tlen bytes): one undo step and one edit of the log, each holding
 * the ranges (not the span between them: an entity renamed, which 2,500 patterns follow, is
 * stored as those few bytes each). KP_INVALID (nothing changed) when they are out of order,
 * overlap or do not fit tlen; KP_CONFLICT as ws_working_splice. */
kp_status ws_working_splices(ws_t *ws, size_t tlen, const ws_range *r, size_t n, const char *label,
                             char **err);
/* Folds the author's edit log into the working copy's text (one transaction; the text itself
 * is unchanged). Meant for idle moments: it writes the whole text. KP_OK when there is nothing
 * to fold. */
kp_status ws_working_fold(ws_t *ws, char **err);
/* ws_working_fold by a caller that holds the text the log makes (`text`: the working copy as its
 * last ws_working_set or ws_working_splice through this handle left it): that text is stored,
 * the log neither read nor applied. Only when the handle knows the working copy as it is (as
 * ws_working_splice); else, or when the log is empty, ws_working_fold. */
kp_status ws_working_fold_text(ws_t *ws, const char *text, char **err);

/* Undo: the working copy goes back to the state on top of the undo stack, its base version
 * included (the current one is pushed on the redo stack). *yaml and *base (either may be NULL)
 * receive the restored text (caller frees) and base. KP_NOTFOUND when there is nothing to undo;
 * KP_DAMAGED when the step does not fit the working copy (nothing changed). */
kp_status ws_undo(ws_t *ws, char **yaml, int *base, char **err);
/* Redo: the inverse of ws_undo; KP_NOTFOUND when there is nothing to redo. */
kp_status ws_redo(ws_t *ws, char **yaml, int *base, char **err);
/* ws_undo (undo true) or ws_redo by a caller that holds the working copy's text (`text`, as the
 * handle last knew it: ws_working_set, ws_working_splice or a step that handed its text back):
 * the log is then neither read nor applied. When the handle does not know the working copy as it
 * is, or text is NULL, the text is read as ws_undo reads it. */
kp_status ws_step_text(ws_t *ws, bool undo, const char *text, char **yaml, int *base, char **err);
/* How many undo and redo steps are stored (either pointer may be NULL). */
kp_status ws_history_depth(ws_t *ws, size_t *nundo, size_t *nredo, char **err);
/* Keeps the author's newest `keep` undo steps, stores every author's history as deltas and
 * rewrites the file without its free pages (VACUUM). *freed (may be NULL) receives the bytes
 * the file shrank by. */
kp_status ws_compact(ws_t *ws, size_t keep, long long *freed, char **err);

/* Everybody's working copy: its author, base and whether it differs from its base. */
typedef struct ws_copy {
    char *author; /* "" for the working copy of a schema-2 workspace nobody took over yet */
    int base;
    bool dirty;
    char *time; /* of the last change, ISO 8601 UTC */
} ws_copy;
/* The working copies ordered by author (caller frees with ws_copies_free). */
kp_status ws_copies(ws_t *ws, ws_copy **out, size_t *n, char **err);
void ws_copies_free(ws_copy *c, size_t n);

/* ---- presence: who else has the workspace open --------------------------------------------- */
/* A workbench beats about once a second: its author, screen and row in a row of its own, gone
 * when it closes (ws_close, ws_presence_leave) or, when it is killed, ignored after 4 seconds. */
kp_status ws_presence_beat(ws_t *ws, const char *screen, int row, char **err);
kp_status ws_presence_leave(ws_t *ws, char **err);

typedef struct ws_presence {
    char *author;
    char *screen;
    int row;
    double age; /* seconds since its last beat */
} ws_presence;
/* The other handles' fresh rows, ordered by author (caller frees with ws_presence_free). */
kp_status ws_presence_others(ws_t *ws, ws_presence **out, size_t *n, char **err);
void ws_presence_free(ws_presence *p, size_t n);

/* ---- observations ---------------------------------------------------------------------- */

/* Records metric = value (source NULL = "cli:" + ws_default_author()). The metric must look
 * like a signal metric (pattern.<id>.rate, index.<name>.items, cost.total, ...), else
 * KP_SIGNAL; the value must be finite, else KP_RANGE. */
kp_status ws_observe(ws_t *ws, const char *metric, double value, const char *source, char **err);

/* Every observation, oldest first (caller frees with sig_observations_free). */
kp_status ws_observations(ws_t *ws, sig_observation **out, size_t *n, char **err);

/* The latest observation of each metric, ordered by metric (caller frees with
 * sig_observations_free). */
kp_status ws_observations_latest(ws_t *ws, sig_observation **out, size_t *n, char **err);

/* ---- settings kept in the workspace ------------------------------------------------------ */

/* A value of the meta table (the tour's step and a student's edits per step: "tour.step",
 * "tour.mine.3"). *value is NULL when the key is not set (caller frees). */
kp_status ws_meta_get(ws_t *ws, const char *key, char **value, char **err);
/* Sets key to value in one transaction; value NULL removes the key. The keys keyplan writes
 * when it creates the file (created_at, created_by) are refused (KP_INVALID). */
kp_status ws_meta_set(ws_t *ws, const char *key, const char *value, char **err);

/* ---- refresh -------------------------------------------------------------------------- */

/* true when another connection (another keyplan process) committed a version or recorded an
 * observation since the last call on this handle (PRAGMA data_version, then the newest of
 * each); other authors' edits and heartbeats do not count. The first call after ws_open returns
 * false. Cheap: meant to be called on every idle tick of the workbench. Errors count as "not
 * changed". */
bool ws_changed_elsewhere(ws_t *ws);

#endif
