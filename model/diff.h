/* diff.h - the designer's diff of two designs and their analyses: the changes DynamoDB cannot
 * make to a table in place and what the change itself costs, patterns whose plan changed (scan ->
 * query), requests and units per second before and after, partitions that became hot or cool,
 * cost before and after (both modes), keys, entities and indexes changed, decisions added,
 * changed or reopened, checklist items and findings that changed. Pure data; diff_render gives
 * the text `keyplan diff` prints.
 *
 * Irreversible (DynamoDB changes neither in place; the way there is a new table and a data
 * migration): the table's name, partition key or sort key changed; an LSI added, removed or
 * changed (an LSI exists only from the table's creation). The cost of the change, one-off, at
 * the after design's prices (on-demand: request units; provisioned: the unit-hours that absorb
 * the units, units / 3,600 x the unit-hour price):
 * - a migration, when anything irreversible changed: a Scan of the old table (its items' bytes /
 *   4 KB x 0.5, eventual), and every item written to the new one (1 KB units per item, LSI
 *   entries with it) with every GSI entry (the new table's GSIs fill as the items arrive);
 * - otherwise a backfill for each GSI added or rebuilt (a GSI's keys and projection cannot be
 *   changed: it is deleted and created again): a Scan of the table as above, and a write of each
 *   entry entering the index (the items of each entity on it x the 1 KB units of its projected
 *   entry). */
#ifndef KP_DIFF_H
#define KP_DIFF_H

#include "analysis.h"
#include "design.h"
#include "i18n.h"
#include "signals.h"

#include <stddef.h>

/* clang-format off */
#define KP_DIFF_SECTIONS(X)                                                   \
    X(IRREVERSIBLE, N_("Irreversible: DynamoDB cannot change this table in place")) \
    X(CHANGE_COST, N_("What the change costs, once"))                             \
    X(PATTERNS, N_("Access patterns"))                                            \
    X(HEAT, N_("Partitions and heat")) \
    X(COST, N_("Cost per month"))      \
    X(KEYS, N_("Keys and entities"))   \
    X(INDEXES, N_("Indexes"))          \
    X(DECISIONS, N_("Decisions"))      \
    X(CHECKLIST, N_("Checklist"))      \
    X(FINDINGS, N_("Findings"))        \
    X(OTHER, N_("Other"))
/* clang-format on */

typedef enum diff_section {
/* clang-format off */
#define KP_DIFF_ENUM(name, title) DIFF_##name,
    KP_DIFF_SECTIONS(KP_DIFF_ENUM)
#undef KP_DIFF_ENUM
    DIFF__COUNT
    /* clang-format on */
} diff_section;

typedef enum diff_change { DIFF_ADDED, DIFF_REMOVED, DIFF_CHANGED } diff_change;

typedef struct diff_item {
    diff_section section;
    diff_change change;
    char *subject;     /* "pattern 1 (Get order by id)", "index GSI1", "cost on-demand reads" */
    char *what;        /* "plan", "read units/s", "hot", "status"; "" for added/removed */
    char *before;      /* as text; NULL when added */
    char *after;       /* as text; NULL when removed */
    double num_before; /* numeric values when the change is a number, else NAN */
    double num_after;  /* CHANGE_COST: the change's cost in money */
    char *why;         /* IRREVERSIBLE: why DynamoDB cannot do it in place; else NULL */
} diff_item;

typedef struct kp_diff {
    diff_item *v; /* grouped by section, in section order */
    size_t n, cap;
} kp_diff;

/* Compares design `a` (before) with `b` (after) with their analyses (either may be NULL: then
 * no numbers are compared) and signal reports (may be NULL: then no decision reads "reopen").
 * Fills *out (caller releases with diff_free). Never fails. */
void diff_compute(const kp_design *a, const kp_analysis *aa, const sig_report *sa, const kp_design *b,
                  const kp_analysis *ab, const sig_report *sb, kp_diff *out);
void diff_free(kp_diff *d);

/* How many irreversible changes lead from design a to design b (the IRREVERSIBLE section's
 * items; no analysis needed), with *what (may be NULL; caller frees) naming them, "sort key SK ->
 * GSK; LSI ByDate added". Never fails. */
size_t diff_irreversible(const kp_design *a, const kp_design *b, char **what);

/* The section's title in the reader's language. */
const char *diff_section_title(diff_section s);

/* How many items of section `s`. */
size_t diff_count(const kp_diff *d, diff_section s);

/* The diff as text, one line per item grouped under section titles; `from` and `to` name the
 * two sides ("version 2"). "no differences" when empty. Caller frees. */
char *diff_render(const kp_diff *d, const char *from, const char *to);

#endif
