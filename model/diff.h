/* diff.h - the designer's diff of two designs and their analyses: patterns whose plan changed
 * (scan -> query), requests and units per second before and after, partitions that became hot or
 * cool, cost before and after (both modes), keys, entities and indexes changed, decisions added,
 * changed or reopened, checklist items and findings that changed. Pure data; diff_render gives
 * the text `keyplan diff` prints. */
#ifndef KP_DIFF_H
#define KP_DIFF_H

#include "analysis.h"
#include "design.h"
#include "signals.h"

#include <stddef.h>

/* clang-format off */
#define KP_DIFF_SECTIONS(X)        \
    X(PATTERNS, "Access patterns") \
    X(HEAT, "Partitions and heat") \
    X(COST, "Cost per month")      \
    X(KEYS, "Keys and entities")   \
    X(INDEXES, "Indexes")          \
    X(DECISIONS, "Decisions")      \
    X(CHECKLIST, "Checklist")      \
    X(FINDINGS, "Findings")        \
    X(OTHER, "Other")
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
    double num_after;
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

const char *diff_section_title(diff_section s);

/* How many items of section `s`. */
size_t diff_count(const kp_diff *d, diff_section s);

/* The diff as text, one line per item grouped under section titles; `from` and `to` name the
 * two sides ("version 2"). "no differences" when empty. Caller frees. */
char *diff_render(const kp_diff *d, const char *from, const char *to);

#endif
