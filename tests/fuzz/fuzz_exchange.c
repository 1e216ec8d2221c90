/* fuzz_exchange.c - libFuzzer target: exchange_import_file on a NoSQL Workbench JSON model or a
 * CSV pattern table (the input is written to a temp file). As `keyplan import` does, an imported
 * design is validated; one that validates must analyse, save and load back equal. */
#include "fuzz_common.h"
#include "validate.h"
#include "exchange.h"

#include <unistd.h>

static char fuzz_path[4096];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_write_temp(fuzz_path, sizeof fuzz_path, "exchange", "in", data, size);

    kp_diags dg;
    diags_init(&dg, NULL);
    kp_design *d = exchange_import_file(fuzz_path, &dg);
    unlink(fuzz_path);
    if (!d && dg.errors == 0) {
        fprintf(stderr, "IMPORT BUG: NULL design without an error diagnostic\n");
        abort();
    }
    bool verbose = getenv("KP_FUZZ_VERBOSE") != NULL; /* replaying one file: say what happened */
    for (size_t i = 0; i < dg.n; i++)
        free(diags_format(&dg, i));
    if (verbose)
        diags_print(&dg, stderr);
    diags_free(&dg);
    if (d) {
        kp_diags vd;
        diags_init(&vd, "imported");
        bool valid = validate_design(d, &vd);
        if (verbose) {
            diags_print(&vd, stderr);
            fprintf(stderr, "imported; %s\n", valid ? "validates: round trip checked" : "does not validate");
        }
        diags_free(&vd);
        if (valid)
            fuzz_roundtrip(d);
        design_free(d);
    }
    return 0;
}
