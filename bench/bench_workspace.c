/* bench_workspace.c - how fast the workspace is on this machine: commits of the CloudShop design
 * (each one a durable transaction with its decisions and signals), working-copy saves with undo,
 * undo/redo steps, opening (with its integrity check) and reading the log. Prints figures; not a
 * test. Usage: bench_workspace [SOURCE_DIR] [N] */
#include "util.h"
#include "design.h"
#include "design_io.h"
#include "workspace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    util_keep_heap(); /* as keyplan's main */
    const char *src = argc > 1 ? argv[1] : ".";
    int n = argc > 2 ? atoi(argv[2]) : 200;
    char *path = xasprintf("%s/samples/cloudshop/design.yaml", src);
    kp_diags dg;
    diags_init(&dg, path);
    kp_design *d = designio_load_file(path, &dg);
    if (!d) {
        diags_print(&dg, stderr);
        return 2;
    }
    diags_free(&dg);
    char dir[] = "/tmp/keyplan-bench-XXXXXX";
    if (!mkdtemp(dir))
        return 2;
    char *wsp = xasprintf("%s/bench.keyplan", dir);
    ws_t *ws = NULL;
    char *err = NULL;
    if (ws_open(wsp, WS_CREATE, &ws, &err) != KP_OK) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    double t = now();
    for (int i = 0; i < n; i++)
        if (ws_commit(ws, d, "bench", "bench commit", i, false, NULL, &err) != KP_OK) {
            fprintf(stderr, "%s\n", err);
            return 2;
        }
    double commit = (now() - t) / n;
    char *yaml = designio_save(d, &err);
    if (!yaml) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    size_t len = strlen(yaml);
    t = now();
    for (int i = 0; i < n; i++) {
        yaml[len - 2] = (char)('a' + i % 26); /* a different text each time */
        ws_working_set(ws, yaml, n, true, "edit", NULL);
    }
    double save = (now() - t) / n;
    t = now();
    for (int i = 0; i < n; i++)
        ws_undo(ws, NULL, NULL, NULL);
    double undo = (now() - t) / n;
    ws_close(ws);
    t = now();
    for (int i = 0; i < 20; i++) {
        ws_open(wsp, 0, &ws, NULL);
        ws_close(ws);
    }
    double open = (now() - t) / 20;
    ws_open(wsp, WS_READONLY, &ws, NULL);
    ws_version *v;
    size_t nv;
    t = now();
    ws_log(ws, &v, &nv, NULL);
    double logt = now() - t;
    ws_versions_free(v, nv);
    kp_design *back = NULL;
    t = now();
    ws_version_design(ws, n / 2, &back, NULL);
    double load = now() - t;
    design_free(back);
    ws_close(ws);
    FILE *f = fopen(wsp, "rb");
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fclose(f);
    printf("workspace benchmark (CloudShop design, %zu bytes of YAML, %d versions)\n", len, n);
    printf("  commit (durable, with decisions and signals)   %8.2f ms\n", commit * 1e3);
    printf("  working-copy save with undo record             %8.2f ms\n", save * 1e3);
    printf("  undo step                                      %8.2f ms\n", undo * 1e3);
    printf("  open (header + quick_check + pragmas)          %8.2f ms\n", open * 1e3);
    printf("  log of %d versions                            %8.2f ms\n", n, logt * 1e3);
    printf("  load one version as a design                   %8.2f ms\n", load * 1e3);
    printf("  file size                                      %8.1f KB (%.1f KB per version)\n", size / 1024.0,
           size / 1024.0 / n);
    free(yaml);
    design_free(d);
    unlink(wsp);
    char *side = xasprintf("%s-wal", wsp);
    unlink(side);
    free(side);
    side = xasprintf("%s-shm", wsp);
    unlink(side);
    free(side);
    rmdir(dir);
    free(wsp);
    free(path);
    return 0;
}
