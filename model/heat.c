/* heat.c - skeleton; its owner replaces it. */
#include "model/analysis_stages.h"

void stage_heat(kp_analysis *a) { (void)a; }
void stage_heat_free(kp_analysis *a) { (void)a; }
