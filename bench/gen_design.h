/* gen_design.h - the generated designs the benchmarks and the incremental analysis' test use:
 * GEN_ENTITIES entities, GEN_GSIS GSIs and any number of patterns (bench_analysis.c describes
 * the layout). */
#ifndef KP_GEN_DESIGN_H
#define KP_GEN_DESIGN_H

#include "design.h"

#define GEN_ENTITIES 200
#define GEN_GSIS     20

/* A valid design of npatterns patterns. Never NULL; the caller frees it with design_free. */
kp_design *gen_design(size_t npatterns);

#endif
