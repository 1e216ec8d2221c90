/* csvio.h - the access-pattern table as people keep it in a spreadsheet: CSV (RFC 4180), a
 * header row, one row per pattern with every pattern field.
 *
 * Columns (export order; import matches headers case-insensitively, in any order, and knows
 * the course's Spanish headers too: nº, patrón, se pide con, veces/s, latencia, ...):
 *   id, name, kind, entity, entities, by, rate, avg, latency, consistency, why, order, limit,
 *   range, filter, join, covered_by, needs, served_by, op, items, changes
 * Lists are written "a, b" (import also splits at ';', and `by` at '+': "cliente+fecha");
 * `by` elements may fix a value ("status=pending-shipment"); `join` is "to=from, ...";
 * `order` is "attr" or "attr desc". Numbers may carry units on import: rate "2/min",
 * "1 vez/día"; latency "< 20 ms", "1 s", "5 min" (-> milliseconds). Qualitative figures
 * ("alta", "—") are left unset with a warning.
 * Import accepts a UTF-8 BOM, CRLF or LF, quoted fields with "" and embedded newlines, and ','
 * ';' or tab as the separator (whichever the header row uses). */
#ifndef KP_CSVIO_H
#define KP_CSVIO_H

#include "design.h"

/* The patterns of `d` as CSV text (caller frees). NULL with *err (caller frees) never happens
 * for a loaded design, but is kept for symmetry with the other exports. */
char *csvio_export(const kp_design *d, char **err);

/* Parses a CSV pattern table into patterns (caller frees each with pattern_free, then the
 * array). KP_OK, or the code of the first error with the errors in `diags` ("FILE:LINE:COL:
 * error: ...") and nothing in *out; warnings are added in both cases. */
kp_status csvio_read_patterns(const char *text, size_t len, const char *name, kp_diags *diags,
                              kp_pattern **out, size_t *nout);

/* A design around the patterns of a CSV table: a skeleton to start from (table PK/SK, one
 * entity per entity named, carrying the attributes the patterns use, keys "ENTITY#{attr}"
 * and a sort key on the range/order attribute, placeholder count and size), said so in the
 * description and a warning. NULL with diags on error. Caller frees. */
kp_design *csvio_import(const char *text, size_t len, const char *name, kp_diags *diags);

#endif
