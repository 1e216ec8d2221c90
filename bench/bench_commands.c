/* bench_commands.c - how long keyplan takes as a command, start to exit, beside sqlite3 doing
 * the same on this machine: `--version` (starting and nothing else), `check` of CloudShop,
 * `commit` of CloudShop into a workspace (a durable transaction; the same text each run, so the
 * workspace holds it already) beside the sqlite3 shell inserting the same design text into a
 * table of the same shape, WAL and synchronous=FULL, and `commit` of a design changed before
 * each run (a new text: canonical YAML, compression, a new blob). Each figure is the median of
 * N runs (fork, exec, wait) of wall time and of CPU time (the child's user + system); the
 * programs compared take turns run by run, so a machine loaded by other work weighs on them
 * alike. The ratio is keyplan's over sqlite3's. With a second keyplan binary (an older build)
 * its figures are printed beside. Prints figures; not a test.
 * Usage: bench_commands KEYPLAN SOURCE_DIR [N] [OTHER_KEYPLAN] */
#include "util.h"

#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double tv_ms(struct timeval tv) { return (double)tv.tv_sec * 1e3 + (double)tv.tv_usec / 1e3; }

/* Runs argv once with its output to /dev/null. Returns false when it did not run or did not
 * exit 0; else *wall and *cpu (user + system of the child) in milliseconds. */
static bool run_once(char *const *argv, double *wall, double *cpu)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    double t0 = wall_ms();
    pid_t pid;
    int st = -1;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    bool ran = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ) == 0 && wait4(pid, &st, 0, &ru) == pid;
    *wall = wall_ms() - t0;
    *cpu = tv_ms(ru.ru_utime) + tv_ms(ru.ru_stime);
    posix_spawn_file_actions_destroy(&fa);
    return ran && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* One program of a comparison: its command line, and its wall and CPU times run by run. */
typedef struct {
    char **argv;      /* NULL: not compared */
    const char *file; /* when set, rewritten before each run (changed) */
    double *wall, *cpu;
    bool failed;
} contender;

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Writes `text` with its `name:` line changed to one of run `i`: a design that differs from the
 * one before. */
static bool write_changed(const char *path, const char *text, size_t i)
{
    const char *at = strstr(text, "\nname: ");
    const char *eol = at ? strchr(at + 1, '\n') : NULL;
    FILE *f = eol ? fopen(path, "w") : NULL;
    if (!f)
        return false;
    fwrite(text, 1, (size_t)(eol - text), f);
    fprintf(f, " r%zu", i);
    fputs(eol, f);
    return fclose(f) == 0;
}

/* Runs the contenders n times each, taking turns; false when a run failed (said on stderr). */
static bool race(contender *c, size_t nc, size_t n, const char *text)
{
    for (size_t k = 0; k < nc; k++) {
        c[k].wall = xcalloc(n, sizeof(double));
        c[k].cpu = xcalloc(n, sizeof(double));
    }
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < nc; k++) {
            if (!c[k].argv || c[k].failed)
                continue;
            if (c[k].file && !write_changed(c[k].file, text, i)) {
                fprintf(stderr, "bench_commands: cannot write %s\n", c[k].file);
                c[k].failed = true;
            } else if (!run_once(c[k].argv, &c[k].wall[i], &c[k].cpu[i])) {
                fprintf(stderr, "bench_commands: %s %s failed\n", c[k].argv[0], c[k].argv[1]);
                c[k].failed = true;
            }
        }
    bool ok = true;
    for (size_t k = 0; k < nc; k++)
        ok = ok && !(c[k].argv && c[k].failed);
    return ok;
}

/* Prints one row: keyplan, the other build and sqlite3 (each wall / CPU), and frees the runs. */
static void row(const char *what, contender *c, size_t n)
{
    double m[3][2];
    for (size_t k = 0; k < 3; k++) {
        m[k][0] = c[k].argv && !c[k].failed ? median(c[k].wall, n) : -1;
        m[k][1] = c[k].argv && !c[k].failed ? median(c[k].cpu, n) : -1;
        free(c[k].wall);
        free(c[k].cpu);
    }
    printf("%-34s %6.2f %6.2f", what, m[0][0], m[0][1]);
    if (c[1].argv)
        printf("  %6.2f %6.2f %6.2fx", m[1][0], m[1][1], m[0][0] > 0 ? m[1][0] / m[0][0] : 0);
    if (c[2].argv)
        printf("  %6.2f %6.2f %6.2fx", m[2][0], m[2][1], m[2][0] > 0 ? m[0][0] / m[2][0] : 0);
    printf("\n");
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    sbuf b;
    sbuf_init(&b);
    char buf[8192];
    size_t r;
    while ((r = fread(buf, 1, sizeof buf, f)) > 0)
        sbuf_addn(&b, buf, r);
    fclose(f);
    return sbuf_steal(&b);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_commands KEYPLAN SOURCE_DIR [N] [OTHER_KEYPLAN]\n");
        return 2;
    }
    char *kp = argv[1], *other = argc > 4 ? argv[4] : NULL;
    size_t n = argc > 3 ? (size_t)strtoul(argv[3], NULL, 10) : 31;
    if (n < 1)
        n = 1;
    char *design = xasprintf("%s/samples/cloudshop/design.yaml", argv[2]);
    char *text = slurp(design);
    if (!text) {
        fprintf(stderr, "bench_commands: cannot read %s\n", design);
        return 2;
    }
    char dir[] = "/tmp/keyplan-bench-commands-XXXXXX";
    if (!mkdtemp(dir))
        return 2;
    char *ws = xasprintf("%s/bench.keyplan", dir), *ws_other = xasprintf("%s/other.keyplan", dir);
    char *wsn = xasprintf("%s/new.keyplan", dir), *wsn_other = xasprintf("%s/other-new.keyplan", dir);
    char *changed = xasprintf("%s/changed.yaml", dir),
         *changed_other = xasprintf("%s/other-changed.yaml", dir);
    char *db = xasprintf("%s/bench.sqlite", dir);
    /* a table of the workspace's versions' shape, in WAL mode (the mode stays with the file) */
    char *create = xstrdup("PRAGMA journal_mode=WAL; CREATE TABLE versions(number INTEGER PRIMARY KEY, "
                           "parent INTEGER, time TEXT NOT NULL, author TEXT NOT NULL, message TEXT NOT NULL, "
                           "name TEXT NOT NULL DEFAULT '', design TEXT NOT NULL, digest TEXT);");
    char *insert =
        xasprintf("PRAGMA synchronous=FULL; INSERT INTO versions(parent, time, author, message, design) "
                  "VALUES((SELECT max(number) FROM versions), datetime('now'), 'bench', 'bench commit', "
                  "readfile('%s'));",
                  design);
    char *sq_create[] = {"sqlite3", db, create, NULL};
    double w, c;
    if (!run_once(sq_create, &w, &c)) {
        fprintf(stderr, "bench_commands: sqlite3 (the shell) is needed for the comparison\n");
        return 2;
    }
    char *msg = "bench commit";
    char *kp_version[] = {kp, "--version", NULL}, *kp_check[] = {kp, "check", design, NULL};
    char *kp_commit[] = {kp, "commit", ws, design, "-m", msg, NULL};
    char *kp_new[] = {kp, "commit", wsn, changed, "-m", msg, NULL};
    char *ot_version[] = {other, "--version", NULL}, *ot_check[] = {other, "check", design, NULL};
    char *ot_commit[] = {other, "commit", ws_other, design, "-m", msg, NULL};
    char *ot_new[] = {other, "commit", wsn_other, changed_other, "-m", msg, NULL};
    char *sq_version[] = {"sqlite3", "--version", NULL}, *sq_insert[] = {"sqlite3", db, insert, NULL};
    printf("keyplan as a command: medians of %zu runs (fork, exec, exit) taking turns, CloudShop; "
           "wall and CPU (user+sys) ms\n",
           n);
    printf("%-34s %6s %6s", "", "wall", "cpu");
    if (other)
        printf("  %6s %6s %7s", "other", "cpu", "speedup");
    printf("  %6s %6s %7s\n", "sqlite3", "cpu", "ratio");
    /* one unmeasured commit each: the workspaces exist before the runs timed */
    run_once(kp_commit, &w, &c);
    if (other)
        run_once(ot_commit, &w, &c);
    bool ok = true;
    contender version[] = {{.argv = kp_version}, {.argv = other ? ot_version : NULL}, {.argv = sq_version}};
    ok = race(version, 3, n, text) && ok;
    row("--version (start, nothing else)", version, n);
    contender check[] = {{.argv = kp_check}, {.argv = other ? ot_check : NULL}, {.argv = NULL}};
    ok = race(check, 3, n, text) && ok;
    row("check samples/cloudshop", check, n);
    contender commit[] = {{.argv = kp_commit}, {.argv = other ? ot_commit : NULL}, {.argv = sq_insert}};
    ok = race(commit, 3, n, text) && ok;
    row("commit (durable) / sqlite3 insert", commit, n);
    contender fresh[] = {{.argv = kp_new, .file = changed},
                         {.argv = other ? ot_new : NULL, .file = changed_other},
                         {.argv = NULL}};
    ok = race(fresh, 3, n, text) && ok;
    row("commit of a changed design", fresh, n);
    printf(
        "ratio: keyplan / sqlite3 (wall); speedup: other / keyplan (wall). goal: commit < 8 ms, durable\n");
    char *rm[] = {"rm", "-rf", dir, NULL};
    run_once(rm, &w, &c);
    free(design);
    free(text);
    free(ws);
    free(ws_other);
    free(wsn);
    free(wsn_other);
    free(changed);
    free(changed_other);
    free(db);
    free(create);
    free(insert);
    return ok ? 0 : 1;
}
