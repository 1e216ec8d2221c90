/* edit.h - pure editing operations on a kp_design, the way the workbench edits it: every field of
 * a pattern, entity, index, attribute or decision is a cell that reads as text and is set from
 * text with validation; rows are added, deleted, duplicated and moved. No I/O, no curses.
 *
 * A failed edit leaves the design exactly as it was and returns a message (caller frees) that
 * says what is wrong and what was expected. Lists are written comma-separated ("a, b"); lists
 * whose elements may hold commas (signals, assumptions, sparse rules) use ";". */
#ifndef KP_EDIT_H
#define KP_EDIT_H

#include "design.h"

#include <stdbool.h>
#include <stddef.h>

struct kp_record; /* fields.h */

/* The editable tables of a design. EDIT_KEYS is one row per entity with one column per key
 * attribute of the table and its indexes (edit_key_attrs), each cell a template. */
typedef enum edit_table {
    EDIT_PATTERNS,
    EDIT_ENTITIES,
    EDIT_INDEXES,
    EDIT_ATTRS,
    EDIT_DECISIONS,
    EDIT_KEYS,
    EDIT_SETTINGS,
    EDIT__TABLES
} edit_table;

/* EDIT_SETTINGS is the design's single values, one row each (name, table, pk, sk, billing,
 * streams, pitr, target_utilization, currency and the prices): column 0 is the setting's name
 * (read-only), column 1 its value. Rows cannot be added or removed. Renaming the table's or an
 * index's key attribute renames the entities' templates for it (when no other key uses it). */

/* Name of a table ("patterns"). */
const char *edit_table_name(edit_table t);

/* Columns of a table (fixed for every table but EDIT_KEYS, whose columns depend on the design:
 * "entity" then each key attribute, then "sparse"). `d` may be NULL for the fixed tables. */
size_t edit_ncols(const kp_design *d, edit_table t);
/* The column's name ("rate"); for EDIT_KEYS the key attribute's name (points into the design).
 * NULL when col is out of range. */
const char *edit_col_name(const kp_design *d, edit_table t, size_t col);
/* The column whose name is `name`, or -1. */
int edit_col_find(const kp_design *d, edit_table t, const char *name);
/* The name of row i of list t: a pattern's or a decision's id, an entity's (EDIT_KEYS too), an
 * index's or an attribute's name (points into the design); NULL for the settings. */
const char *edit_row_name(const kp_design *d, edit_table t, size_t i);
/* A one-line hint of what the column accepts ("number >= 0, empty = not given"); static. */
const char *edit_col_hint(const kp_design *d, edit_table t, size_t col);

/* Number of rows (patterns, entities, ...). */
size_t edit_nrows(const kp_design *d, edit_table t);

/* The cell as text (what edit_set accepts back: set(get(x)) leaves x unchanged). Never NULL
 * ("" for an empty cell); caller frees. */
char *edit_get(const kp_design *d, edit_table t, size_t row, size_t col);

/* Sets a cell from text. KP_OK with *err NULL on success. On failure the design is unchanged
 * and *err holds the message (caller frees; err may be NULL): KP_NOTFOUND when there is no such
 * cell, KP_ENCODING when the text is not UTF-8 (the byte is named), KP_INVALID when the cell
 * refuses the text. Renaming an entity or a pattern id updates the references to it
 * (patterns' entities, covered_by, decisions). */
kp_status edit_set(kp_design *d, edit_table t, size_t row, size_t col, const char *text, char **err);

/* Whether a successful edit_set of this cell changes one pattern and nothing else: a cell of
 * EDIT_PATTERNS other than its id (which the references to it follow). What analysis_update is
 * told after such an edit. */
bool edit_changes_pattern_only(edit_table t, size_t col);
/* Whether a successful edit_set of this cell changes the one element its row is and nothing
 * else: a cell of EDIT_ENTITIES or EDIT_DECISIONS other than its name or id, any of EDIT_ATTRS
 * (nothing follows an attribute's name), of EDIT_INDEXES other than its pk and sk (which rename
 * the templates keyed on them; its name is one: nothing follows it), or of EDIT_KEYS other than
 * its first (the entity's name). What the session edits in place. */
bool edit_changes_row_only(const kp_design *d, edit_table t, size_t col);
/* Whether a successful edit_set of this cell renames an entity (EDIT_ENTITIES' name, EDIT_KEYS'
 * first column): that entity's name changes, and the patterns naming it (edit_names_entity) name
 * it by the new one; nothing else. */
bool edit_renames_entity(edit_table t, size_t col);
/* Whether a successful edit_set of this cell changes a pattern's id (EDIT_PATTERNS' id): that
 * pattern's id changes, and the covered_by and the decisions' lists of patterns naming it by the
 * old one name it by the new one; nothing else. */
bool edit_renames_pattern(edit_table t, size_t col);
/* Pattern p's entities named `from` named `to` instead, as an entity's rename does it to every
 * pattern. */
void edit_rename_entity_refs(kp_pattern *p, const char *from, const char *to);
/* Does pattern p name entity `name` (its entities' list)? */
bool edit_names_entity(const kp_pattern *p, const char *name);
/* Whether a successful edit_set of this cell changes the design's rest alone
 * (design_same_model): a setting's value other than the table's keys (which rename the templates
 * keyed on them), a decision's cell other than its id. */
bool edit_changes_rest_only(edit_table t, size_t row, size_t col);
/* Whether a successful edit_set of this cell changes the design's keys alone (design_keys_swap):
 * a key attribute of the table or of an index, which renames the templates and sparse rules keyed
 * on it (nothing else follows). */
bool edit_changes_keys_only(edit_table t, size_t row, size_t col);
/* The element row `row` of table t is (EDIT_KEYS: the entity) with its record in *rec; NULL when
 * t has no such row (EDIT_SETTINGS has no elements). */
void *edit_row(kp_design *d, edit_table t, size_t row, const struct kp_record **rec);

/* Inserts a new row with defaults (a fresh unique name/id) at position `at` (clamped to the
 * end) and returns its position. Not available for EDIT_KEYS (returns (size_t)-1; add an
 * entity instead). */
size_t edit_add(kp_design *d, edit_table t, size_t at);
/* Deletes a row; false when out of range. */
bool edit_delete(kp_design *d, edit_table t, size_t row);
/* Inserts a copy of row `row` right after it with a fresh unique name/id and returns its
 * position; (size_t)-1 when out of range. */
size_t edit_duplicate(kp_design *d, edit_table t, size_t row);
/* Moves a row by delta positions (-1 up, +1 down); false when it would leave the table. */
bool edit_move(kp_design *d, edit_table t, size_t row, int delta);

/* Structural step op made on table t's list in place, as design_patterns_step makes it on the
 * patterns: an insertion puts the element *in (a value of its record's size, taken: its fields are
 * the list's then) at op.row; a removal hands element op.row to *out (the caller's then); a move
 * moves it. false, nothing changed, when t has no list (EDIT_SETTINGS) or op does not fit it. */
bool edit_rows_step(kp_design *d, edit_table t, kp_rowop op, const void *in, void *out);
/* The same step made on `to`, a copy of d before it: an inserted element a copy of d's at op.row,
 * a removed one freed. false, nothing changed, when t has no list or op does not fit to and d
 * (edit_rows_step_fits: d's list is to's with op made). */
bool edit_rows_step_fits(const kp_design *to, const kp_design *d, edit_table t, kp_rowop op);
bool edit_rows_step_from(kp_design *to, const kp_design *d, edit_table t, kp_rowop op);
/* The record of table t's elements (EDIT_KEYS: the entity's); NULL for EDIT_SETTINGS. */
const struct kp_record *edit_record(edit_table t);

/* The key attributes of the design in display order: the table's pk, sk, then each index's
 * pk and sk, without repeats, skipping plain domain attributes that some entity lists.
 * Returns pointers into the design (valid until it changes); caller frees the array only. */
const char **edit_key_attrs(const kp_design *d, size_t *n);

/* The row of setting `name` in EDIT_SETTINGS ("billing"), or -1. */
int edit_setting_find(const char *name);

/* Records a proposed decision about pattern `pattern_row` (title from its name, patterns: [id],
 * a fresh id "D<n>") and returns its position in d->decisions; (size_t)-1 when out of range. */
size_t edit_decision_from_pattern(kp_design *d, size_t pattern_row);

#endif
