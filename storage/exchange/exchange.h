/* exchange.h - the formats a design leaves and enters keyplan by: exports cfn, nosqlwb,
 * csv, requests, items; imports of NoSQL Workbench JSON and CSV pattern tables. */
#ifndef KP_EXCHANGE_H
#define KP_EXCHANGE_H

#include "analysis.h"
#include "design.h"

/* Exports `d` (with its analysis `a`) in `format`: "cfn" | "nosqlwb" | "csv" | "requests" |
 * "items". Returns the text (caller frees) or NULL with *err set (caller frees) for an unknown
 * format or a design the format cannot express. */
char *exchange_export(const kp_design *d, const kp_analysis *a, const char *format, char **err);

/* true when exchange_export knows `format`. */
bool exchange_has_format(const char *format);

/* Imports a NoSQL Workbench model (JSON) or a CSV access-pattern table, guessing by content.
 * Returns a new design (caller frees) or NULL with diags filled ("FILE:LINE:COL: error: ..."). */
kp_design *exchange_import_file(const char *path, kp_diags *diags);

/* Imports table `table` of the NoSQL Workbench model in file `path` ("-": standard input).
 * Returns a new design (caller frees; warnings in diags) or NULL: with errors in diags, or with
 * *err (caller frees; a complete message line without the newline) when the file cannot be
 * read or is not JSON. */
kp_design *exchange_import_table(const char *path, const char *table, kp_diags *diags, char **err);

/* The design in file `into` with its patterns replaced by those of the CSV pattern table in file
 * `path` ("-": standard input). The design file's diagnostics go to design_diags, the table's to
 * table_diags; when the table file cannot be read or is JSON, *err (caller frees; a complete
 * message line) says so. Returns a new design (caller frees) or NULL. */
kp_design *exchange_import_into(const char *path, const char *into, kp_diags *design_diags,
                                kp_diags *table_diags, char **err);

/* What an imported design gives when saved as YAML and loaded back. */
typedef enum exchange_roundtrip {
    EXCHANGE_SAME,      /* it loads back equal: what is written is what `check` will load */
    EXCHANGE_NO_LOAD,   /* it cannot be saved or does not load back (the diagnostics in diags) */
    EXCHANGE_DIFFERENT, /* it loads back different (a keyplan bug) */
} exchange_roundtrip;

/* Saves `d` as YAML and loads it back under the name "the imported design" (diagnostics of the
 * save and the load into diags, which the caller initialises and frees). Never fails: a design
 * that cannot be saved is EXCHANGE_NO_LOAD. */
exchange_roundtrip exchange_import_roundtrip(const kp_design *d, kp_diags *diags);

#endif
