/* nosqlwb.h - NoSQL Workbench data models (JSON, jansson): import into a design, export of a
 * design as a model (format 3.0) that NoSQL Workbench imports.
 *
 * Import reads every model version seen in the wild (1.0 step-by-step models without facets,
 * 3.0 models with TableFacets, M values holding raw JSON instead of typed attribute values):
 * - the first table of DataModel (others are named in a warning) or the one asked for, its key, GSIs/LSIs with their
 *   projections, billing mode and autoscaling target;
 * - one entity per facet (without facets the rows of TableData are grouped into entities), its
 *   key templates, sparse shares, count and distinct values inferred from the sample rows as
 *   model/infer.h says;
 * - sizes: the DynamoDB size of each sample row (name bytes + value bytes; raw JSON counted as its
 *   compact text), averaged per entity. All of it is a starting point,
 *   said in the design's description and in warnings. Streams and PITR stay unset. */
#ifndef KP_NOSQLWB_H
#define KP_NOSQLWB_H

#include "analysis.h"
#include "design.h"
#include "infer.h"

/* Items a nominal imported table holds, split between entities by their share of sample rows. */
#define NOSQLWB_NOMINAL_ITEMS INFER_NOMINAL_ITEMS

/* Imports the model in `text` (JSON). `name` is the file name used in messages. Returns a new
 * design (caller frees with design_free) or NULL with errors in `diags` (a JSON syntax error
 * as "FILE:LINE:COL", a shape error naming the JSON path and what was expected). Warnings about
 * guesses are appended to `diags` in both cases. */
kp_design *nosqlwb_import(const char *text, size_t len, const char *name, kp_diags *diags);

/* The same for the table named `table` of a model holding several (NULL: the first, with a
 * warning naming the others). An unknown name is an error listing the tables there are. */
kp_design *nosqlwb_import_table(const char *text, size_t len, const char *name, const char *table,
                                kp_diags *diags);

/* A NoSQL Workbench model (format 3.0) of the design: the table, its GSIs, one facet per entity
 * (KeyAttributeAlias = the key templates as written) with sample rows from items_generate (3 per
 * entity), billing mode and, when provisioned, the capacity from the analysis' peak units /
 * target utilisation (`a` may be NULL: 1 unit each). Dates are now, or SOURCE_DATE_EPOCH.
 * Returns the JSON text (caller frees) or NULL with *err (caller frees). */
char *nosqlwb_export(const kp_design *d, const kp_analysis *a, char **err);

#endif
