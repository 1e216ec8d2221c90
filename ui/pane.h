/* pane.h - the live model pane, always visible: the cost, one line per pattern (plan, index, key
 * condition, units, latency against target), the design's first error, the cells that did not
 * parse, the steps of the selected pattern (on Decisions: the selected decision and its
 * signals) and the findings, as room allows. During the tour,
 * what changed since the previous step and what the step points at are highlighted. */
#ifndef KP_UI_PANE_H
#define KP_UI_PANE_H

#include "analysis.h"
#include "drafts.h"
#include "layout.h"
#include "narration.h"
#include "signals.h"
#include "theme.h"
#include "util.h"

#include <stdbool.h>

typedef struct pane_view {
    const kp_design *design;  /* the working copy */
    const kp_analysis *an;    /* the last good design's analysis, or NULL */
    const kp_analysis *prev;  /* the previous tour step's analysis (changes highlighted), or NULL */
    const kp_diags *diags;    /* problems of the working copy */
    const drafts *drafts;     /* cells that did not parse */
    const kp_pattern *sel;    /* the pattern under the Patterns screen's cursor, or NULL */
    const wb_tour_step *step; /* the tour step shown (its marks are highlighted), or NULL */
    const kp_decision *dec;   /* the decision under the Decisions screen's cursor, or NULL */
    const sig_report *sigs;   /* the design's reopening signals (for dec), or NULL */
    bool side;                /* beside the editor: a border on the left */
    bool partial;             /* an is of the valid rest of a design that does not validate */
} pane_view;

/* Draws the pane into r. hit[y] (for 0 <= y < nhit) receives, for each line of r, the working
 * copy's row of the pattern drawn on it, or -1 (for mouse clicks). */
void pane_draw(const pane_view *v, ui_rect r, int *hit, int nhit);
/* The colour role of a plan: get and covered good, scan and invalid bad, multi a warning. */
ui_role pane_plan_role(kp_plan p);
/* The result of pattern `id` in `a` (either may be NULL), or NULL (analysis_pattern: O(1)). */
const kp_pattern_result *pane_result(const kp_analysis *a, const char *id);
/* The same for the pattern at `row` of the design: its result is looked for at that row first
 * (O(1) when the analysis is of the same patterns, as it is while the design validates). */
const kp_pattern_result *pane_result_at(const kp_analysis *a, size_t row, const char *id);

/* An index's name for people: the model's word for the base table ("table") in the reader's
 * language, any other name as it is (NULL: ""). Static or `name` itself: nothing to free. */
const char *pane_index_label(const char *name);

#endif
