/* fuzz_accesslog.c - libFuzzer target: an access log in every line format `keyplan heat` reads
 * (PK, PK<TAB>SK<TAB>UNITS<TAB>kind, DynamoDB JSON lines). A log either tallies or fails with a
 * message and a line number inside the text; a tally sorts, and its text and JSON reports are
 * written without trouble, with finite totals. */
#include "accesslog.h"
#include "heatlog.h"
#include "util.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = xmalloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    size_t lines = 1;
    for (size_t i = 0; i < size; i++)
        lines += data[i] == '\n';
    accesslog h;
    accesslog_init(&h);
    size_t lineno = 0;
    char *err = NULL;
    kp_status st = heatlog_read(&h, text, size, size % 2 ? "PK" : NULL, &lineno, &err);
    if (st != KP_OK) {
        if (!err || lineno == 0 || lineno > lines) {
            fprintf(stderr, "ACCESSLOG BUG: failure without a message or with line %zu of %zu\n", lineno,
                    lines);
            abort();
        }
        free(err);
    } else {
        if (!isfinite(h.units) || !isfinite(h.requests)) {
            fprintf(stderr, "ACCESSLOG BUG: totals not finite\n");
            abort();
        }
        accesslog_sort(&h);
        free(heatlog_text(&h, "fuzz.log", 10, size % 3 ? 60 : 0));
        char *j = heatlog_json(&h, "fuzz.log", 5, 0, &err);
        if (!j) {
            fprintf(stderr, "ACCESSLOG BUG: no JSON report: %s\n", err ? err : "?");
            abort();
        }
        free(j);
    }
    accesslog_free(&h);
    free(text);
    return 0;
}
