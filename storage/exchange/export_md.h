/* export_md.h - the decision record: everything a reviewer needs to repeat the reasoning without
 * anyone in the room, as GitHub-flavoured Markdown
 * (`keyplan export SRC --format md`) or as one JSON object (`--format json`). */
#ifndef KP_EXPORT_MD_H
#define KP_EXPORT_MD_H

#include "analysis.h"
#include "design.h"
#include "signals.h"
#include "workspace.h"

#include <stdbool.h>
#include <stddef.h>

/* What the record is made of. Only design and analysis are required; the rest may be NULL/0. */
typedef struct export_record {
    const kp_design *design;
    const kp_analysis *analysis; /* analysis of design */
    const sig_report *signals;   /* its signals evaluated (fired ones read "reopen") */
    const char *source;          /* the file or workspace it came from, for the heading */
    int version;                 /* the workspace version exported, 0 for a design file */
    bool working;                /* an uncommitted working copy of the workspace (version is 0) */
    int working_base;            /* the version that working copy is based on (0 = none) */
    const ws_version *history;   /* the workspace's versions, oldest first */
    size_t nhistory;
    const sig_observation *obs; /* every observation recorded */
    size_t nobs;
    const char *changes; /* the designer's diff from the previous version (diff_render
                                       text), shown under the history; NULL = none */
} export_record;

/* The decision record as Markdown (caller frees), or NULL with *err (caller frees; err may be
 * NULL) when the design cannot be saved for the appendix (designio_save). */
char *export_md(const export_record *r, char **err);

/* The decision record as JSON text: the analysis object of storage/analysis_json.h plus
 * decisions[] (every field, status and "reopen"), signals[] with observed values, history[],
 * observations[] and source/version. Caller frees; NULL with *err (caller frees; err may be
 * NULL) when jansson cannot write it. */
char *export_json(const export_record *r, char **err);

#endif
