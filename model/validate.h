/* validate.h - semantic validation of a design (references, duplicates, templates, figures,
 * shares, index rules, signals). Used by the YAML loader and by the TUI after every edit.
 * Messages follow "what is wrong; what was expected" and name the closest existing name
 * ("did you mean 'OrderSummary'?"). */
#ifndef KP_VALIDATE_H
#define KP_VALIDATE_H

#include "design.h"

/* Appends every problem of `d` to `diags` (errors and warnings); true when no error. */
bool validate_design(const kp_design *d, kp_diags *diags);

#endif
