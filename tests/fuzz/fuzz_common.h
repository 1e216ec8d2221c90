/* fuzz_common.h - helpers shared by the libFuzzer harnesses in tests/fuzz/ (CMake builds them as
 * fuzzers with KEYPLAN_FUZZ, else as corpus replayers). Header-only: every function is static
 * inline. */
#ifndef KP_FUZZ_COMMON_H
#define KP_FUZZ_COMMON_H

#include "analysis.h"
#include "design.h"
#include "util.h"
#include "design_io.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* true when `msg` contains one of the '|'-separated substrings of $KP_FUZZ_KNOWN: findings
 * already reported, skipped so that a run can get past them. */
static inline bool fuzz_known(const char *msg)
{
    const char *k = getenv("KP_FUZZ_KNOWN");
    while (k && *k && msg) {
        const char *bar = strchr(k, '|');
        size_t n = bar ? (size_t)(bar - k) : strlen(k);
        char *needle = xstrndup(k, n);
        bool hit = n > 0 && strstr(msg, needle) != NULL;
        free(needle);
        if (hit)
            return true;
        k = bar ? bar + 1 : NULL;
    }
    return false;
}

/* Prints the diagnostics of a reload that should have succeeded, then aborts. */
static inline void fuzz_fail_roundtrip(const char *what, const char *yaml, const kp_diags *dg)
{
    fprintf(stderr, "ROUND-TRIP BUG: %s\n", what);
    if (dg)
        diags_print(dg, stderr);
    fprintf(stderr, "---- saved YAML ----\n%s\n---- end ----\n", yaml ? yaml : "(null)");
    abort();
}

/* The round trip for a design that loaded (or imported and validated): analysis_run must not
 * crash, save must give YAML that loads back to an equal design, and saving that again must give
 * the same text (canonical). Aborts on any violation. */
static inline void fuzz_roundtrip(const kp_design *d)
{
    kp_analysis *a = analysis_run(d);
    analysis_free(a);

    char *err = NULL;
    char *yaml = designio_save(d, &err);
    if (!yaml) { /* whatever loads or imports is UTF-8: the emitter must take it */
        fprintf(stderr, "ROUND-TRIP BUG: save(x) failed: %s\n", err);
        abort();
    }
    kp_diags dg;
    diags_init(&dg, "saved.yaml");
    kp_design *back = designio_load_string(yaml, strlen(yaml), "saved.yaml", &dg);
    if (!back) {
        char *first = dg.n ? diags_format(&dg, 0) : NULL;
        bool known = fuzz_known(first);
        free(first);
        if (known) {
            diags_free(&dg);
            free(yaml);
            return;
        }
        fuzz_fail_roundtrip("load(save(x)) failed", yaml, &dg);
    }
    if (!design_equal(d, back))
        fuzz_fail_roundtrip("design_equal(x, load(save(x))) is false", yaml, NULL);
    char *yaml2 = designio_save(back, NULL);
    if (!yaml2 || strcmp(yaml, yaml2) != 0) {
        fprintf(stderr, "---- second save ----\n%s\n", yaml2 ? yaml2 : "(null)");
        fuzz_fail_roundtrip("save(load(save(x))) != save(x)", yaml, NULL);
    }
    free(yaml2);
    design_free(back);
    diags_free(&dg);
    free(yaml);
}

/* Writes the input to the harness's temporary file and returns its path: `path` (a buffer of
 * `cap` bytes kept by the harness) is named once, "$TMPDIR/kp-fuzz-TAG-PID.EXT" (scripts/fuzz.sh
 * points TMPDIR at build-fuzz/tmp and empties it after each run). Aborts when it cannot write. */
static inline const char *fuzz_write_temp(char *path, size_t cap, const char *tag, const char *ext,
                                          const uint8_t *data, size_t size)
{
    if (!path[0]) {
        const char *dir = getenv("TMPDIR");
        snprintf(path, cap, "%s/kp-fuzz-%s-%ld.%s", dir && *dir ? dir : "/tmp", tag, (long)getpid(), ext);
    }
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    if (size && fwrite(data, 1, size, f) != size)
        abort();
    fclose(f);
    return path;
}

#endif
