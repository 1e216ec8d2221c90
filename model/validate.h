/* validate.h - semantic validation of a design (references, duplicates, templates, figures,
 * shares, index rules, signals, and the schema limits DynamoDB enforces). Used by the YAML loader
 * and by the TUI after every edit. Messages follow "what is wrong; what was expected" and name the
 * closest existing name ("did you mean 'OrderSummary'?"). */
#ifndef KP_VALIDATE_H
#define KP_VALIDATE_H

#include "design.h"
#include "edit.h"
#include "namemap.h"

/* DynamoDB's schema limits (AWS Developer Guide, "Quotas in Amazon DynamoDB"; DynamoDB Local
 * refuses the same CreateTable and PutItem requests). validate_design refuses a design beyond
 * any of them. */
#define KP_LIMIT_GSIS           20  /* GSIs per table (a default quota AWS raises on request) */
#define KP_LIMIT_LSIS           5   /* LSIs per table */
#define KP_LIMIT_PROJECTED      100 /* INCLUDE attributes summed over every index */
#define KP_LIMIT_NAME_MIN       3   /* table and index names: 3..255 of [A-Za-z0-9_.-] */
#define KP_LIMIT_NAME_MAX       255
#define KP_LIMIT_PK_VALUE_BYTES 2048.0  /* a partition key value (table or index), UTF-8 bytes */
#define KP_LIMIT_SK_VALUE_BYTES 1024.0  /* a sort key value (table or index) */
#define KP_LIMIT_TABLE_UNITS    40000.0 /* read or write units/s per table and per GSI (a quota) */

/* Appends every problem of `d` to `diags` (errors and warnings); true when no error. */
bool validate_design(const kp_design *d, kp_diags *diags);

/* The checks after the patterns' alone (pricing, decisions and their signals, the table's and
 * indexes' limits, item sizes, name lengths), appended to diags; true when none is an error. For
 * a design that differs from one whose checks passed only in what those checks alone read (its
 * decisions): validate_design's verdict, and its errors, which can only come from them. */
bool validate_after_patterns(const kp_design *d, kp_diags *diags);
/* The same, made again and again on one design whose decisions change between the checks (what
 * the search for a valid rest does, one decision after another): validate_after_open takes d (its
 * names collected once), which must validate without its decisions, outlive the checks and change
 * in its decisions alone (the list and its elements, read at each check).
 * validate_after_check(t, msg) is then validate_after_patterns' verdict on d as it is, made from
 * the checks that read the decisions alone (the others passed without them); on failure *msg
 * (when msg is not NULL, and *msg NULL; caller frees) is its first error. */
typedef struct validate_after validate_after;
validate_after *validate_after_open(const kp_design *d);
bool validate_after_check(validate_after *t, char **msg);
void validate_after_close(validate_after *t);

/* Patterns tried alone on one model (what the search for a valid rest does, one pattern after
 * another): validate_trials_open takes d's model (its entities, indexes, attributes, settings;
 * not its patterns nor its decisions), which must validate without them (validate_design of d
 * without patterns and decisions: no error); d must outlive the trials and not change.
 * validate_trial(t, ps, n, msg) is then validate_design's verdict on that model with the n
 * patterns ps and no decision, made from their own checks alone (the model's checks read no
 * pattern but their ids' lengths), in proportion to them; on failure *msg (when msg is not NULL,
 * and *msg NULL; caller frees) is its first error. */
typedef struct validate_trials validate_trials;
validate_trials *validate_trials_open(const kp_design *d);
bool validate_trial(validate_trials *t, kp_pattern *ps, size_t n, char **msg);
void validate_trials_close(validate_trials *t);

/* What a validation keeps for the next one: where each pattern's diagnostics are in its list.
 * Zero-initialised = nothing kept; released with validate_memo_free. */
typedef struct validate_memo {
    size_t npatterns;
    size_t *at;           /* npatterns + 1: where pattern i's diagnostics start, the last where the ones
                   of the checks after the patterns start */
    size_t n;             /* the list's length then */
    struct memo_ids *ids; /* the pattern ids, hashed (validate.c) */
} validate_memo;

/* validate_design into `diags`, emptied first (its file name stays), keeping in m where each
 * pattern's diagnostics are. true when no error. */
bool validate_design_memo(const kp_design *d, kp_diags *diags, validate_memo *m);
/* The same list, after an edit that changed cells of pattern `row` alone and not its id
 * (edit_changes_pattern_only): diags and m are what validate_design_memo (or this) gave for the
 * design just before the edit. Only that pattern and those covered_by it are checked again (every
 * design-wide set of names is built anew, so unique ids and references stay exact); the list
 * equals validate_design_memo's of d, diagnostic by diagnostic. When m is not of a list like
 * diags (another number of patterns or diagnostics) it is validate_design_memo. true when no
 * error. */
bool validate_pattern_edit(const kp_design *d, size_t row, kp_diags *diags, validate_memo *m);
/* The same list after structural step op of the pattern list alone (a pattern inserted at op.row
 * (d's), removed from it, or moved to op.to; nothing else changed): diags and m are what
 * validate_design_memo (or this, or validate_pattern_edit) gave for the design just before it.
 * The other patterns' diagnostics follow their patterns; checked again are an inserted pattern,
 * those with the id the step added, removed or moved (which one is first changes), those with a
 * covered_by (found by id; an unknown one's message lists the ids), and the checks after the
 * patterns' (decisions name pattern ids; id lengths). The list equals validate_design_memo's of
 * d, diagnostic by diagnostic. When m does not fit (another number of patterns or diagnostics)
 * or a pattern has no id (it is then named by its position), it is validate_design_memo. true
 * when no error. */
bool validate_rows_edit(const kp_design *d, kp_rowop op, kp_diags *diags, validate_memo *m);
/* The same list after an edit of the design's rest alone (design_same_model: its name, settings,
 * alerts, pricing or decisions): diags and m are what validate_design_memo (or the functions
 * above) gave for the design just before it. The patterns' diagnostics stay; the checks before
 * and after them are made again. The list equals validate_design_memo's of d, diagnostic by
 * diagnostic. When m is not of a list like diags it is validate_design_memo. true when no
 * error. */
bool validate_rest_edit(const kp_design *d, kp_diags *diags, validate_memo *m);
/* The same list after a step of the index list alone (an index added, deleted, duplicated or
 * moved; nothing else changed): no pattern's checks read the indexes, so theirs stay, and the
 * checks before and after them are made again (an index's, the entities' templates for its keys,
 * the signals naming it). The list equals validate_design_memo's of d. When m is not of a list
 * like diags it is validate_design_memo. true when no error. */
bool validate_index_rows_edit(const kp_design *d, kp_diags *diags, validate_memo *m);
/* The same list after an edit of element `row` of list t alone (edit_changes_row_only): an
 * entity's that kept its name (EDIT_ENTITIES, EDIT_KEYS: a figure, its attributes, a key
 * template, a sparse rule), an attribute's (its name too: m keeps the old one), an index's. diags
 * and m are what validate_design_memo (or the functions above) gave for the design just before
 * it. The checks before and after the patterns' are made again, and those of the patterns that
 * read the element (that name the entity or are covered_by a pattern that does; whose `by` names
 * the attribute by its old or new name; none read an index); the others' stay. The list equals
 * validate_design_memo's of d, diagnostic by diagnostic. When m is not of a list like diags (or
 * of another number of attributes), or t is another list, it is validate_design_memo. true when
 * no error. */
bool validate_row_edit(const kp_design *d, edit_table t, size_t row, kp_diags *diags, validate_memo *m);
/* The same list after entity `row` was renamed (edit_renames_entity: the patterns naming it follow
 * it): checked again are the patterns naming it or covered_by one that does, and those naming an
 * entity the design lacks (their message suggests the design's names); the checks before and after
 * the patterns' made again, the others' kept. The list equals validate_design_memo's of d. When m
 * is not of a list like diags it is validate_design_memo. true when no error. */
bool validate_entity_rename(const kp_design *d, size_t row, kp_diags *diags, validate_memo *m);
/* The same list after pattern `row`'s id was changed (edit_renames_pattern: the covered_by and
 * the decisions naming it follow it): checked again are that pattern, those with its old or new
 * id (which one is first with it may change), those with a covered_by (found by id; an unknown
 * one's message lists the ids), and the checks after the patterns' (decisions and signals name
 * pattern ids). The list equals validate_design_memo's of d. When m is not of a list like diags
 * it is validate_design_memo. true when no error. */
bool validate_pattern_id_edit(const kp_design *d, size_t row, kp_diags *diags, validate_memo *m);
void validate_memo_free(validate_memo *m);

/* Fills `limits` (an empty map, released by the caller with namemap_free) with every key
 * attribute of the table and its indexes -> the byte limit on its values: 2,048 for a partition
 * key, 1,024 for a sort key (the smaller when it is both). */
void validate_key_limits(const kp_design *d, namemap *limits);

/* How to find an attribute by name (a hashed map, or NULL for design_attr). */
typedef const kp_attr *(*validate_attr_fn)(const void *ctx, const char *name);

/* The size of a key value rendered from template t, in UTF-8 bytes. *sure: what the items with
 * the longest bounded values certainly reach: the literals, an enum's longest value, a date's
 * 10 bytes, a bool's 5, a shard's digits, a number at its zero-padded width (1 without one; an
 * inline width counts whatever the attribute), a string nothing (its length is unknown). *likely: the average by the size estimates of
 * model/capacity.h (a string's `size:`, else 8 bytes). find may be NULL (design_attr). */
void validate_key_size(const kp_design *d, const tpl *t, validate_attr_fn find, const void *ctx, double *sure,
                       double *likely);

#endif
