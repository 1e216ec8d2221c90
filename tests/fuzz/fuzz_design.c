/* fuzz_design.c - libFuzzer target: designio_load_string on arbitrary bytes (YAML design files).
 * A load either gives a design or NULL with at least one error; nothing else may happen. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* an exact-size copy: the loader gets (text, len) and must not read past len */
    char *text = malloc(size ? size : 1);
    memcpy(text, data, size);
    kp_diags dg;
    diags_init(&dg, "fuzz.yaml");
    kp_design *d = designio_load_string(text, size, "fuzz.yaml", &dg);
    if (!d && dg.errors == 0) {
        fprintf(stderr, "LOADER BUG: NULL design without an error diagnostic\n");
        abort();
    }
    for (size_t i = 0; i < dg.n; i++)
        free(diags_format(&dg, i));
    design_free(d);
    diags_free(&dg);
    free(text);
    return 0;
}
