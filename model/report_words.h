/* report_words.h - the analysis's words as people read them (the `check` report, the decision
 * record, the workbench, the tour): the analysis and the JSON keep their English keys ("query", "index writes",
 * "warning"); these give the reader's language. */
#ifndef KP_REPORT_WORDS_H
#define KP_REPORT_WORDS_H

#include "analysis.h"
#include "design.h"

/* The plan's word ("query" -> "consulta"); kp_plan_word() for a plan without one. Static text. */
const char *report_plan_word(kp_plan p);

/* A cost line's name ("index writes" -> "escrituras en índices"); `name` itself when it is not
 * one of the analysis's lines, "" for NULL. Static text (or `name`). */
const char *report_cost_name(const char *name);

/* A finding's severity ("warning" -> "aviso"). Static text. */
const char *report_severity(kp_severity s);

/* The billing mode ("on-demand" -> "bajo demanda"). Static text. */
const char *report_billing_name(kp_billing b);

#endif
