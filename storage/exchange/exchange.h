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

#endif
