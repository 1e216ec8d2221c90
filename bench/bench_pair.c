/* bench_pair.c - what an edit and a version cost in the workspace: saving a cell of a design of
 * 10,000 patterns (session_edit_set, the workbench's path: the edit in place and the workspace
 * write; beside it the path of an edit that needs a copy of the design, session_apply of a
 * changed copy; then folding the edits saved as lines into the whole text, which the workbench
 * does while idle), the bytes one undo entry stores,
 * the file's growth per version (20 commits of CloudShop with one edit each, against the design's
 * own size), and `keyplan commit` as a command against the sqlite3 shell doing the same insert
 * (WAL, synchronous=FULL). Prints figures; not a test.
 * Usage: bench_pair SOURCE_DIR [KEYPLAN_BINARY] */
#include "util.h"
#include "design.h"
#include "design_io.h"
#include "edit.h"
#include "session.h"
#include "workspace.h"

#include <malloc.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static long file_size(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0 ? (long)sb.st_size : 0;
}

static long long history_bytes(const char *wsp)
{
    sqlite3 *db;
    long long n = 0;
    if (sqlite3_open_v2(wsp, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
        sqlite3_stmt *s;
        if (sqlite3_prepare_v2(db, "SELECT coalesce(sum(length(CAST(design AS BLOB))), 0) FROM history", -1,
                               &s, NULL) == SQLITE_OK &&
            sqlite3_step(s) == SQLITE_ROW)
            n = sqlite3_column_int64(s, 0);
        sqlite3_finalize(s);
    }
    sqlite3_close(db);
    return n;
}

static void remove_ws(const char *wsp)
{
    unlink(wsp);
    char *side = xasprintf("%s-wal", wsp);
    unlink(side);
    free(side);
    side = xasprintf("%s-shm", wsp);
    unlink(side);
    free(side);
}

static int run(const char *cmd)
{
    int rc = system(cmd);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* A copy of `d` with `n` patterns: its own repeated under fresh ids and names. */
static kp_design *grow_patterns(const kp_design *d, size_t n)
{
    kp_design *big = design_clone(d);
    size_t own = big->npatterns;
    big->patterns = xrealloc(big->patterns, n * sizeof *big->patterns);
    while (big->npatterns < n) {
        kp_design *c = design_clone(d);
        for (size_t i = 0; i < c->npatterns; i++) {
            if (big->npatterns < n) {
                kp_pattern *p = &big->patterns[big->npatterns];
                *p = c->patterns[i];
                free(p->id);
                free(p->name);
                p->id = xasprintf("x%zu", big->npatterns + 1);
                p->name = xasprintf("copy %zu of pattern %zu", big->npatterns + 1, i % own + 1);
                big->npatterns++;
            } else {
                pattern_free(&c->patterns[i]);
            }
        }
        c->npatterns = 0;
        design_free(c);
    }
    return big;
}

int main(int argc, char **argv)
{
    util_keep_heap(); /* as keyplan's main */
    const char *src = argc > 1 ? argv[1] : ".";
    const char *bin = argc > 2 ? argv[2] : NULL;
    char *path = xasprintf("%s/samples/cloudshop/design.yaml", src);
    kp_diags dg;
    diags_init(&dg, path);
    kp_design *d = designio_load_file(path, &dg);
    if (!d) {
        diags_print(&dg, stderr);
        return 2;
    }
    diags_free(&dg);
    char *yaml = designio_save(d, NULL);
    size_t design_len = strlen(yaml);
    free(yaml);
    char dir[] = "/tmp/keyplan-bench-pair-XXXXXX";
    if (!mkdtemp(dir))
        return 2;
    char *err = NULL;
    printf("pair benchmark (CloudShop design: %zu bytes of YAML)\n", design_len);

    /* save a cell at 10,000 patterns: the workbench's session_edit_set */
    kp_design *big = grow_patterns(d, 10000);
    char *wsp = xasprintf("%s/big.keyplan", dir);
    session *ss = NULL;
    if (session_open(wsp, &ss, NULL, &err) != KP_OK) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    session_apply(ss, big, "bench: 10,000 patterns", NULL);
    int col = edit_col_find(session_design(ss), EDIT_PATTERNS, "rate");
    long long hist0 = history_bytes(wsp);
    const int nedits = 20;
    double t = now(), c = cpu_now();
    for (int i = 0; i < nedits; i++) {
        char *v = xasprintf("%d", 100 + i);
        bool applied = false;
        if (session_edit_set(ss, EDIT_PATTERNS, (size_t)(i * 37), (size_t)col, v, "edit", &applied, &err) !=
            KP_OK) {
            fprintf(stderr, "%s\n", err);
            return 2;
        }
        free(v);
    }
    double save = (now() - t) / nedits, save_cpu = (cpu_now() - c) / nedits;
    long long hist1 = history_bytes(wsp);
    /* an entity's count: edited in place, the working copy saved whole */
    int ecol = edit_col_find(session_design(ss), EDIT_ENTITIES, "count");
    t = now(), c = cpu_now();
    for (int i = 0; i < nedits; i++) {
        char *v = xasprintf("%d", 1000 + i);
        bool applied = false;
        if (session_edit_set(ss, EDIT_ENTITIES, (size_t)i % session_design(ss)->nentities, (size_t)ecol, v,
                             "edit", &applied, &err) != KP_OK) {
            fprintf(stderr, "%s\n", err);
            return 2;
        }
        free(v);
    }
    double esave = (now() - t) / nedits, esave_cpu = (cpu_now() - c) / nedits;
    /* those entity edits undone, one by one, then made again: the workspace's history steps */
    t = now(), c = cpu_now();
    for (int i = 0; i < nedits; i++)
        if (session_undo(ss, &err) != KP_OK) {
            fprintf(stderr, "%s\n", err);
            return 2;
        }
    double undo = (now() - t) / nedits, undo_cpu = (cpu_now() - c) / nedits;
    for (int i = 0; i < nedits; i++)
        session_redo(ss, NULL);
    /* an entity renamed (Order, a quarter of the patterns naming it: a suffix put on and taken
       off): in place, saved as the ranges it changed (the entity's name and each pattern's), one
       step of the workspace */
    ptrdiff_t order = design_entity_pos(session_design(ss), "Order");
    t = now(), c = cpu_now();
    for (int i = 0; i < nedits && order >= 0; i++) {
        bool applied = false;
        if (session_edit_set(ss, EDIT_KEYS, (size_t)order, 0, i % 2 ? "Order" : "Order_línea", "rename",
                             &applied, &err) != KP_OK) {
            fprintf(stderr, "%s\n", err);
            return 2;
        }
    }
    double rsave = (now() - t) / nedits, rsave_cpu = (cpu_now() - c) / nedits;
    /* an attribute's and a decision's cell: the design copied with the edit (it may reach
       further), the text around the patterns' list written again */
    double osave[2], osave_cpu[2];
    static const struct {
        edit_table t;
        const char *col;
    } other[2] = {{EDIT_ATTRS, "distinct"}, {EDIT_DECISIONS, "title"}};
    for (int k = 0; k < 2; k++) {
        int ocol = edit_col_find(session_design(ss), other[k].t, other[k].col);
        t = now(), c = cpu_now();
        for (int i = 0; i < nedits; i++) {
            char *v = xasprintf("%d", 10 + i);
            bool applied = false;
            if (session_edit_set(ss, other[k].t, 0, (size_t)ocol, v, "edit", &applied, &err) != KP_OK) {
                fprintf(stderr, "%s\n", err);
                return 2;
            }
            free(v);
        }
        osave[k] = (now() - t) / nedits, osave_cpu[k] = (cpu_now() - c) / nedits;
    }
    t = now(), c = cpu_now();
    session_idle(ss); /* the workbench folds the saved lines into the whole text while idle */
    double fold = now() - t, fold_cpu = cpu_now() - c;
    /* a commit, then the first cell saved after it (a pair commits often) */
    double first = 0, first_cpu = 0, commit = 0;
    const int ncommits = 5;
    for (int i = 0; i < ncommits; i++) {
        double t0 = now();
        if (session_commit(ss, "bench", NULL, &err) != KP_OK) {
            fprintf(stderr, "%s\n", err);
            return 2;
        }
        commit += now() - t0;
        t = now(), c = cpu_now();
        char *v = xasprintf("%d", 300 + i);
        bool applied = false;
        if (session_edit_set(ss, EDIT_PATTERNS, (size_t)(i * 53), (size_t)col, v, "edit", &applied, &err) !=
            KP_OK) {
            fprintf(stderr, "%s\n", err);
            return 2;
        }
        free(v);
        first += now() - t, first_cpu += cpu_now() - c;
    }
    /* the same edit on a copy of the design, as every edit that may reach further than one
       pattern is saved (the rows' add, delete, move; a rename) */
    t = now(), c = cpu_now();
    for (int i = 0; i < nedits; i++) {
        kp_design *nd = design_clone(session_design(ss));
        char *v = xasprintf("%d", 200 + i);
        if (edit_set(nd, EDIT_PATTERNS, (size_t)(i * 37), (size_t)col, v, &err) != KP_OK) {
            fprintf(stderr, "%s\n", err);
            return 2;
        }
        free(v);
        if (session_apply(ss, nd, "edit", &err) != KP_OK) {
            fprintf(stderr, "%s\n", err);
            return 2;
        }
    }
    double copied = (now() - t) / nedits, copied_cpu = (cpu_now() - c) / nedits;
    /* what the session holds in memory for its undo after many edits of that kind */
    struct mallinfo2 m0 = mallinfo2();
    const int nmore = 100;
    for (int i = 0; i < nmore; i++) {
        kp_design *nd = design_clone(session_design(ss));
        char *v = xasprintf("%d", 300 + i);
        if (edit_set(nd, EDIT_PATTERNS, (size_t)(i * 41), (size_t)col, v, &err) != KP_OK ||
            session_apply(ss, nd, "edit", &err) != KP_OK) {
            fprintf(stderr, "%s\n", err);
            return 2;
        }
        free(v);
    }
    struct mallinfo2 m1 = mallinfo2();
    double held =
        ((double)m1.uordblks + (double)m1.hblkhd - (double)m0.uordblks - (double)m0.hblkhd) / 1048576.0;
    session_close(ss);
    printf("  save a cell at 10,000 patterns (edit + write)  %8.2f ms (CPU %.2f ms)\n", save * 1e3,
           save_cpu * 1e3);
    printf("  save an entity's count, 10,000 patterns        %8.2f ms (CPU %.2f ms)\n", esave * 1e3,
           esave_cpu * 1e3);
    printf("    its undo, 10,000 patterns                    %8.2f ms (CPU %.2f ms)\n", undo * 1e3,
           undo_cpu * 1e3);
    printf("  an entity renamed (Order), 10,000 patterns     %8.2f ms (CPU %.2f ms)\n", rsave * 1e3,
           rsave_cpu * 1e3);
    printf("  save an attribute's distinct, 10,000 patterns  %8.2f ms (CPU %.2f ms)\n", osave[0] * 1e3,
           osave_cpu[0] * 1e3);
    printf("  save a decision's title, 10,000 patterns       %8.2f ms (CPU %.2f ms)\n", osave[1] * 1e3,
           osave_cpu[1] * 1e3);
    printf("    the same on a copy of the design (apply)     %8.2f ms (CPU %.2f ms)\n", copied * 1e3,
           copied_cpu * 1e3);
    printf("  folding them into the text (idle, once)        %8.2f ms (CPU %.2f ms)\n", fold * 1e3,
           fold_cpu * 1e3);
    printf("  a cell saved first after a commit              %8.2f ms (CPU %.2f ms; the commit %.1f ms)\n",
           first / ncommits * 1e3, first_cpu / ncommits * 1e3, commit / ncommits * 1e3);
    printf("  undo entry per edit (bytes stored)             %8.0f bytes\n",
           (double)(hist1 - hist0) / nedits);
    printf("  memory the undo holds after %d more copies     %8.1f MB (heap in use, more than before them)\n",
           nmore, held);
    remove_ws(wsp);
    free(wsp);

    /* growth per version: 20 commits of CloudShop, one edit each */
    wsp = xasprintf("%s/grow.keyplan", dir);
    ws_t *ws = NULL;
    if (ws_open(wsp, WS_CREATE, &ws, &err) != KP_OK) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    ws_commit(ws, d, "bench", "first", 0, false, NULL, NULL);
    ws_close(ws);
    long before = file_size(wsp);
    ws_open(wsp, 0, &ws, NULL);
    int rcol = edit_col_find(d, EDIT_PATTERNS, "rate");
    const int nver = 20;
    for (int i = 0; i < nver; i++) {
        char *v = xasprintf("%d", 7 + i);
        edit_set(d, EDIT_PATTERNS, (size_t)i % d->npatterns, (size_t)rcol, v, NULL);
        free(v);
        if (ws_commit(ws, d, "bench", "one edit", WS_PARENT_LATEST, false, NULL, &err) != KP_OK) {
            fprintf(stderr, "%s\n", err);
            return 2;
        }
    }
    ws_close(ws);
    long after = file_size(wsp);
    printf("  growth per version (20 commits, one edit each) %8.1f KB (the design: %.1f KB)\n",
           (double)(after - before) / nver / 1024.0, design_len / 1024.0);

    /* keyplan commit as a command against the sqlite3 shell's same insert */
    if (bin) {
        const int ncmd = 20;
        char *cmd = xasprintf("%s commit %s %s -m bench >/dev/null 2>&1", bin, wsp, path);
        t = now();
        for (int i = 0; i < ncmd; i++)
            if (run(cmd) != 0) {
                fprintf(stderr, "failed: %s\n", cmd);
                return 2;
            }
        double kc = (now() - t) / ncmd;
        free(cmd);
        char *sq = xasprintf("%s/plain.db", dir);
        cmd = xasprintf("sqlite3 %s 'PRAGMA journal_mode=WAL; CREATE TABLE v(n INTEGER PRIMARY KEY, t TEXT)' "
                        ">/dev/null",
                        sq);
        run(cmd);
        free(cmd);
        cmd = xasprintf("sqlite3 %s 'PRAGMA synchronous=FULL; INSERT INTO v(t) VALUES (readfile(\"%s\"))' "
                        ">/dev/null",
                        sq, path);
        t = now();
        for (int i = 0; i < ncmd; i++)
            run(cmd);
        double sc = (now() - t) / ncmd;
        free(cmd);
        printf("  keyplan commit as a command                    %8.2f ms\n", kc * 1e3);
        printf("  sqlite3 shell, same insert (WAL, FULL)         %8.2f ms\n", sc * 1e3);
        remove_ws(sq);
        free(sq);
    }
    remove_ws(wsp);
    free(wsp);
    rmdir(dir);
    design_free(d);
    free(path);
    return 0;
}
