/* bench_exports.c - how the exports grow with the number of entities: each export format of a
 * generated design of 1,250, 2,500, 5,000 and 10,000 entities (one pattern per ten entities),
 * with the ratio of each time to the previous size's. Linear work doubles with the size (ratio
 * about 2); quadratic work quadruples it. `check`'s analysis is timed beside them as the floor.
 *
 * Entity i carries id<i>, createdAt, status and tenantId and is keyed "E<i>#{id<i>}" /
 * "E<i>#{createdAt}"; pattern i/10 gets entity i by id.
 *
 * Time: the median of RUNS runs (default 3) of the process's CPU time (CLOCK_PROCESS_CPUTIME_ID:
 * a machine loaded by other work does not inflate it). The exported text is built in memory and
 * freed, never written.
 *
 * Usage: bench_exports [RUNS] [ENTITIES...] */
#include "analysis.h"
#include "design_io.h"
#include "exchange.h"
#include "export_md.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static kp_design *make_design(size_t n)
{
    sbuf y;
    sbuf_init(&y);
    sbuf_add(&y, "keyplan: 1\nname: big\ntable: { name: Big, pk: PK, sk: SK }\nentities:\n");
    for (size_t i = 0; i < n; i++)
        sbuf_printf(&y,
                    "  - { name: E%zu, attributes: [id%zu, createdAt, status, tenantId],"
                    " keys: { PK: \"E%zu#{id%zu}\", SK: \"E%zu#{createdAt}\" } }\n",
                    i, i, i, i, i);
    sbuf_add(&y, "patterns:\n");
    for (size_t i = 0; i < n; i += 10)
        sbuf_printf(&y, "  - { id: %zu, name: get%zu, entities: [E%zu], by: [id%zu], rate: 1 }\n", i + 1, i,
                    i, i);
    kp_diags diags = {0};
    kp_design *d = designio_load_string(y.s, y.len, "big.yaml", &diags);
    diags_free(&diags);
    sbuf_free(&y);
    if (!d) {
        fprintf(stderr, "bench_exports: the generated design does not load\n");
        exit(1);
    }
    return d;
}

#define NFORMATS 7
static const char *const formats[NFORMATS] = {"check", "items", "requests", "nosqlwb", "md", "json", "cfn"};

static double time_one(const kp_design *d, const char *format, int runs)
{
    double t[64];
    if (runs > 64)
        runs = 64;
    for (int r = 0; r < runs; r++) {
        double t0 = cpu_now();
        kp_analysis *a = analysis_run(d);
        if (strcmp(format, "check") != 0) {
            char *err = NULL, *text;
            export_record rec = {.design = d, .analysis = a, .source = "big.yaml"};
            if (strcmp(format, "md") == 0)
                text = export_md(&rec, &err);
            else if (strcmp(format, "json") == 0)
                text = export_json(&rec, &err);
            else
                text = exchange_export(d, a, format, &err);
            if (!text) {
                fprintf(stderr, "bench_exports: %s: %s\n", format, err ? err : "failed");
                exit(1);
            }
            free(text);
            free(err);
        }
        analysis_free(a);
        t[r] = cpu_now() - t0;
    }
    qsort(t, (size_t)runs, sizeof t[0], cmp_double);
    return t[runs / 2];
}

int main(int argc, char **argv)
{
    util_keep_heap(); /* as keyplan's main */
    int runs = argc > 1 ? atoi(argv[1]) : 3;
    if (runs < 1)
        runs = 1;
    size_t sizes[16] = {1250, 2500, 5000, 10000};
    size_t nsizes = 4;
    if (argc > 2) {
        nsizes = 0;
        for (int i = 2; i < argc && nsizes < 16; i++)
            sizes[nsizes++] = (size_t)strtoul(argv[i], NULL, 10);
    }
    printf("exports by entities: CPU seconds, median of %d run(s) (ratio to the previous size)\n", runs);
    printf("%-9s", "entities");
    for (int f = 0; f < NFORMATS; f++)
        printf(" %16s", formats[f]);
    printf("\n");
    double prev[NFORMATS] = {0};
    for (size_t s = 0; s < nsizes; s++) {
        kp_design *d = make_design(sizes[s]);
        printf("%-9zu", sizes[s]);
        for (int f = 0; f < NFORMATS; f++) {
            double t = time_one(d, formats[f], runs);
            char cell[40];
            if (s > 0 && prev[f] > 0)
                snprintf(cell, sizeof cell, "%.3f (x%.1f)", t, t / prev[f]);
            else
                snprintf(cell, sizeof cell, "%.3f", t);
            printf(" %16s", cell);
            prev[f] = t;
            fflush(stdout);
        }
        printf("\n");
        design_free(d);
    }
    return 0;
}
