/* metrics.c - skeleton; its owner replaces it. */
#include "model/analysis.h"

bool analysis_metric(const kp_analysis *a, const char *metric, double *out)
{
    (void)a, (void)metric, (void)out;
    return false;
}

const kp_finding_info *analysis_finding_catalogue(size_t *n)
{
    *n = 0;
    return NULL;
}
