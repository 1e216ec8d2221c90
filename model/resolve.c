/* resolve.c - skeleton; its owner replaces it. */
#include "model/analysis_stages.h"

void stage_resolve(kp_analysis *a) { (void)a; }
void stage_resolve_free(kp_analysis *a) { (void)a; }
