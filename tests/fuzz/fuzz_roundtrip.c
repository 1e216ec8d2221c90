/* fuzz_roundtrip.c - libFuzzer target: for every YAML input that loads, analysis_run must not
 * crash and load(save(x)) must succeed with design_equal(x, load(save(x))).
 * Aborts on a round-trip failure (a bug in design_yaml.c or design_equal). */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    kp_diags dg;
    diags_init(&dg, "fuzz.yaml");
    kp_design *d = designio_load_string((const char *)data, size, "fuzz.yaml", &dg);
    if (getenv("KP_FUZZ_VERBOSE")) /* KP_FUZZ_VERBOSE=1 fuzz_roundtrip FILE: why it does not load */
        diags_print(&dg, stderr);
    diags_free(&dg);
    if (!d)
        return 0;
    fuzz_roundtrip(d);
    design_free(d);
    return 0;
}
