/* merge.h - the three-way merge of designs: base (the version both sides started from), ours
 * (the working copy) and theirs (the latest version). Pure: no I/O.
 *
 * The merge walks the field tables of fields.h, so every record kind and every field is merged
 * the same way. Records in lists (indexes, attributes, entities, patterns, alerts, decisions and
 * the lists inside them: entity keys and sparse rules, enum values, by, join, alternatives,
 * signals) are matched by their key (name, id, attribute; a signal by its metric). For each
 * field: changed on one side only -> that side's value; changed the same way on both -> it; changed
 * two ways -> a conflict. Lists of names (attributes, include, filter, ...) merge element by
 * element when both sides only added or only removed names; a name replaced on one side while the
 * other changed the list is a conflict. A record deleted on one side and changed on the other, or
 * added on both sides with one key and different contents, is a conflict. A rule with text as
 * written (sparse, signal) merges as a whole. Order of lists: ours' order (theirs' when only
 * theirs reordered), with the other side's additions placed after the record they followed.
 *
 * Resolving conflicts, the caller's loop:
 *
 *     merge_result *m = merge_designs(base, ours, theirs);
 *     for (size_t i = 0; i < merge_nconflicts(m); i++) {
 *         const merge_conflict *c = merge_conflict_at(m, i);   // show c->record, key, field, values
 *         merge_resolve(m, i, MERGE_THEIRS, NULL, &err);       // or MERGE_OURS, or
 *         merge_resolve(m, i, MERGE_TEXT, "25", &err);         // a value typed in (c->editable)
 *     }
 *     kp_design *d = merge_finish(m, &err);                    // NULL while one is unresolved
 *     merge_free(m);
 *
 * Then validate and analyse d like any edit, and commit it with the latest version as its
 * parent. merge_take gives the design with the unresolved conflicts taking one side (a preview;
 * `keyplan merge-file` writes its markers from the two). */
#ifndef KP_MERGE_H
#define KP_MERGE_H

#include "design.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum merge_side {
    MERGE_OURS,   /* keep ours (the working copy's value, or keep/drop the record as ours did) */
    MERGE_THEIRS, /* take theirs */
    MERGE_TEXT,   /* a value typed in, in the editor's syntax of the field (edit_set) */
} merge_side;

typedef enum merge_conflict_kind {
    MERGE_BOTH_CHANGED,    /* the same field changed two ways */
    MERGE_DELETED_CHANGED, /* ours deleted the record, theirs changed it */
    MERGE_CHANGED_DELETED, /* ours changed the record, theirs deleted it */
    MERGE_BOTH_ADDED,      /* both added a record with one key, with different contents */
} merge_conflict_kind;

typedef struct merge_conflict {
    merge_conflict_kind kind;
    const char *record; /* the top-level record's kind: "pattern", "entity", "index", "attribute",
                           "alert", "decision", or "design", "table", "pricing" (static) */
    char *key;          /* the record's name or id ("5", "Order"); "" for design, table, pricing */
    char *field;        /* "rate", "keys[PK].template", "signals[pattern.5.rate]"; NULL when the
                           whole record is in conflict (deleted/changed, added twice) */
    char *base;         /* each side's value as text (the editor's syntax where the field has a
                           cell); NULL when that side has no such record */
    char *ours;
    char *theirs;
    bool editable; /* MERGE_TEXT is accepted (the field has an editor cell) */
    int resolved;  /* -1 while unresolved, else the merge_side chosen */
} merge_conflict;

typedef struct merge_result merge_result;

/* Merges: every non-conflicting change of ours and of theirs, and the list of conflicts (in a
 * stable order: the order of the records, then of the fields). The inputs are only read (and
 * may be released afterwards: the result keeps copies). Never fails, never NULL. Release with
 * merge_free. */
merge_result *merge_designs(const kp_design *base, const kp_design *ours, const kp_design *theirs);
void merge_free(merge_result *m);

size_t merge_nconflicts(const merge_result *m);
/* Conflict i (owned by m, valid until m is freed), or NULL when i is out of range. */
const merge_conflict *merge_conflict_at(const merge_result *m, size_t i);
/* How many conflicts are still unresolved. */
size_t merge_unresolved(const merge_result *m);

/* Resolves conflict i: MERGE_OURS or MERGE_THEIRS (text ignored), or MERGE_TEXT with the value
 * text (only when the conflict is editable; checked now with the cell's own rules). A conflict
 * may be resolved again. KP_OK, or with *err (caller frees; err may be NULL) and nothing changed:
 * KP_NOTFOUND (no conflict i), KP_INVALID (text for a conflict that is not editable, or text the
 * cell refuses: the editor's message). */
kp_status merge_resolve(merge_result *m, size_t i, merge_side side, const char *text, char **err);

/* The merged design (caller frees with design_free). NULL with *err (caller frees; may be NULL)
 * while a conflict is unresolved, naming the first one. */
kp_design *merge_finish(const merge_result *m, char **err);

/* The merged design with every resolved conflict as resolved and every unresolved one taking
 * side `unresolved` (MERGE_OURS or MERGE_THEIRS). Never NULL; caller frees with design_free. */
kp_design *merge_take(const merge_result *m, merge_side unresolved);

/* One line per conflict, for people: "pattern 5 rate: base 10, ours 20, theirs 30". Caller
 * frees; "" when there is none. */
char *merge_conflicts_text(const merge_result *m);

/* The text `ours` with conflict markers where it differs from `theirs`, line by line (a line
 * diff): "<<<<<<< ours\n" its lines "=======\n" theirs' lines ">>>>>>> theirs\n" around each
 * difference, common lines once. Labels NULL = "ours" / "theirs". Never NULL; caller frees. */
char *merge_markers(const char *ours, const char *theirs, const char *ours_label, const char *theirs_label);

#endif
