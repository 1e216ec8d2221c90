/* design_io.h - the design file: YAML load (libyaml), validation, canonical save.
 *
 * Loading never half-loads: on any error the result is NULL and `diags` holds every problem
 * found, each "FILE:LINE:COL: error: what is wrong; what was expected". Saving writes canonical
 * YAML (fixed key order, stable formatting) so that load(save(x)) equals x. */
#ifndef KP_DESIGN_IO_H
#define KP_DESIGN_IO_H

#include "design.h"

/* Loads and validates the design in `path`. Returns NULL on any error (diags filled, with
 * diags->file set to `path` when the caller left it NULL). The caller frees the design. */
kp_design *designio_load_file(const char *path, kp_diags *diags);

/* The same over text in memory; `name` is the file name used in messages. */
kp_design *designio_load_string(const char *text, size_t len, const char *name, kp_diags *diags);

/* Canonical YAML of a design (caller frees), or NULL with *err (caller frees; err may be NULL)
 * when the YAML emitter refuses it. It refuses text that is not UTF-8, which the loader, the
 * editor (edit_set) and the importers never let into a design; a NULL is then a bug, but an
 * error the caller reports, not a crash. */
char *designio_save(const kp_design *d, char **err);

/* The canonical YAML of one pattern exactly as designio_save writes it inside the design's
 * `patterns:` list: "- id: ...\n  name: ...\n" (caller frees), so that a saved design text can
 * be updated by replacing that pattern's lines alone. NULL with *err (caller frees; err may be
 * NULL) when the emitter refuses it. */
char *designio_save_pattern(const kp_pattern *p, char **err);
/* The lines designio_save_pattern writes for p's entity (`entity:`, or `entities:` for the list
 * form), as they stand when the field is the item's first ("- entity: Order\n"; after another
 * field, the same lines with "  " for "- "), or NULL when it writes none. The field is written
 * on its own, whatever the pattern's others: a rename of an entity changes those lines alone. */
char *designio_save_pattern_entities(const kp_pattern *p);
/* The same for one entity inside the design's `entities:` list. */
char *designio_save_entity(const kp_entity *e, char **err);
/* What designio_save writes before the design's `patterns:` list (*head) and after it (*tail),
 * each the caller's to free: the whole text is head, the list, tail (a design whose patterns are
 * unchanged is saved by writing these again). false with *err (may be NULL) when the emitter
 * refuses the design. */
bool designio_save_around_patterns(const kp_design *d, char **head, char **tail, char **err);

/* Writes canonical YAML to `path` atomically (temp file + rename). KP_OK, or with one error in
 * diags (the file untouched): KP_INVALID when the emitter refuses the design, KP_IO when the
 * file cannot be written. */
kp_status designio_save_file(const kp_design *d, const char *path, kp_diags *diags);

#endif
