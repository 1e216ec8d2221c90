/* findings.c - skeleton; its owner replaces it. */
#include "model/analysis_stages.h"

void stage_findings(kp_analysis *a) { (void)a; }
void stage_findings_free(kp_analysis *a) { (void)a; }
