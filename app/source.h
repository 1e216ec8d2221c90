/* source.h - what commands read: a SRC that is a design file or a workspace (its latest version,
 * or a given one), loaded with its analysis, the workspace's history and observations, and the
 * evaluation of its signals. Errors are printed on stderr ("keyplan: ...") and give exit 2. */
#ifndef KP_APP_SOURCE_H
#define KP_APP_SOURCE_H

#include "analysis.h"
#include "design.h"
#include "signals.h"
#include "workspace.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct source {
    char *name; /* SRC as given */
    bool is_workspace;
    int version;     /* the version loaded (workspace), 0 for a design file */
    ws_version info; /* its metadata (workspace) */
    kp_design *design;
    kp_analysis *analysis;
    ws_version *history; /* every version, oldest first (workspace) */
    size_t nhistory;
    sig_observation *obs; /* every observation (workspace) */
    size_t nobs;
    sig_report signals; /* the design's signals against its numbers and the observations */
} source;

/* true when `path` looks like a workspace: a SQLite file, or a name ending in ".keyplan". */
bool source_is_workspace(const char *path);

/* Loads SRC (a design file or a workspace; for a workspace `version` 0 = the latest). Returns 0
 * and fills *out (release with source_free), or 2 after printing the problem on stderr. */
int source_load(const char *src, int version, source *out);
void source_free(source *s);

/* source_load in two steps: source_read loads SRC (the design, the workspace's history and
 * observations; no analysis) and prints its problems (0 or 2, as source_load); source_analyse
 * runs (again) the analysis and the signals of what was read, in the messages' language of the
 * moment. Never fails. */
int source_read(const char *src, int version, source *out);
void source_analyse(source *s);

/* Machine output (JSON, CSV, CloudFormation, requests, items) is the same bytes in every
 * language: source_machine_begin saves the language in `lang` and switches the messages to
 * English, the figures to C's and the dates' words (LC_TIME) to C's; source_machine_end(lang) brings the messages back (the figures
 * stay C's to the end of the process). Never fail. */
void source_machine_begin(char lang[3]);
void source_machine_end(const char lang[3]);

/* A time the workspace stores (ISO 8601 UTC: "2026-01-01T09:30:00Z") as people read it: that
 * text itself in English (the output English readers always had), the language's date and time
 * (i18n_datetime, local time) in another language; the text as it is when it does not parse.
 * Writes into buf (size > 0) and returns it. */
const char *source_time(char *buf, size_t size, const char *iso);

/* What changed since the parent of the loaded workspace version, as diff_render writes it
 * ("version P" against "version V"); NULL for a design file, a first version, or a parent that
 * cannot be loaded (its problem printed on stderr). Caller frees. */
char *source_parent_changes(const source *s);

/* Opens a workspace for a command, printing the problem on stderr; returns 0 or 2. */
int source_open_ws(const char *path, unsigned flags, ws_t **out);

/* Parses a REV argument ("3"); false after printing the problem on stderr. */
bool source_parse_rev(const char *arg, int *rev);

/* Sets LC_CTYPE so that wcwidth() measures UTF-8 text (names such as `línea` in reports)
 * whatever the caller's locale: the environment's when it is UTF-8, else C.UTF-8 or
 * en_US.UTF-8 (i18n_utf8; the display widths do it themselves at their first non-ASCII
 * character, so only code that calls the C library's wide-character functions directly needs
 * this). */
void source_utf8_locale(void);

#endif
