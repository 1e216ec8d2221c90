/* checklist.c - skeleton; its owner replaces it. */
#include "model/analysis_stages.h"

void stage_checklist(kp_analysis *a) { (void)a; }
void stage_checklist_free(kp_analysis *a) { (void)a; }
