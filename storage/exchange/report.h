/* report.h - the text report of `keyplan check`: an analysis for people, within 100 columns.
 *
 * One line per pattern (plan symbol and word, index, key condition, RCU per call, RCU/s,
 * latency against target), the key conditions with their values, the warnings, the partitions'
 * heat, the cost in both billing modes side by side, the checklist, the findings and the
 * reopening signals. Names are padded by display width (UTF-8 aware: the caller's locale must
 * give wcwidth UTF-8), so `línea` and `DIRECCIÓN#casa` line up; long cells are cut with "…".
 * Words and figures are in the reader's language (i18n.h, humanfmt.h): a translated header or
 * plan word wider than its column widens it (the pattern's name gives up as much), so the tables
 * keep their width and their alignment in every language. */
#ifndef KP_REPORT_H
#define KP_REPORT_H

#include "analysis.h"
#include "design.h"

/* The report of design `d` (read from `path`, named in the title) with its analysis `a`.
 * Never fails; caller frees. */
char *report_check_text(const char *path, const kp_design *d, const kp_analysis *a);

#endif
