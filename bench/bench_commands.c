/* bench_commands.c - how long keyplan takes as a command, start to exit, beside sqlite3 doing
 * the same on this machine: `--version` (starting and nothing else), `check` of CloudShop, and
 * `commit` of CloudShop into a workspace (a durable transaction) beside the sqlite3 shell
 * inserting the same design text into a table of the same shape, WAL and synchronous=FULL. Each
 * figure is the median wall time of N runs (fork, exec, wait); the ratio is keyplan's over
 * sqlite3's. With a second keyplan binary (an older build) its figures are printed beside.
 * Prints figures; not a test.
 * Usage: bench_commands KEYPLAN SOURCE_DIR [N] [OTHER_KEYPLAN] */
#include "util.h"

#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double now_ms(void)
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

/* Runs argv once with its output to /dev/null: wall milliseconds, or -1 when it did not run or
 * did not exit 0. */
static double run_once(char *const *argv)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    double t0 = now_ms();
    pid_t pid;
    int st = -1;
    bool ran = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ) == 0 && waitpid(pid, &st, 0) == pid;
    double t = now_ms() - t0;
    posix_spawn_file_actions_destroy(&fa);
    return ran && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? t : -1;
}

/* The median of n runs of argv; -1 when a run failed (said on stderr). */
static double median_of(char *const *argv, size_t n)
{
    double *t = xcalloc(n, sizeof *t);
    for (size_t i = 0; i < n; i++) {
        t[i] = run_once(argv);
        if (t[i] < 0) {
            fprintf(stderr, "bench_commands: %s %s failed\n", argv[0], argv[1] ? argv[1] : "");
            free(t);
            return -1;
        }
    }
    qsort(t, n, sizeof *t, cmp_double);
    double m = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
    free(t);
    return m;
}

static void row(const char *what, double kp, double other, double sq)
{
    printf("%-34s %9.2f", what, kp);
    if (other >= 0)
        printf(" %9.2f %6.2fx", other, kp > 0 ? other / kp : 0);
    if (sq > 0)
        printf(" %9.2f %6.2fx\n", sq, kp / sq);
    else
        printf(" %9s %7s\n", "", "");
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
    char dir[] = "/tmp/keyplan-bench-commands-XXXXXX";
    if (!mkdtemp(dir))
        return 2;
    char *ws = xasprintf("%s/bench.keyplan", dir), *ws_other = xasprintf("%s/other.keyplan", dir);
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
    if (run_once(sq_create) < 0) {
        fprintf(stderr, "bench_commands: sqlite3 (the shell) is needed for the comparison\n");
        return 2;
    }
    char *msg = "bench commit";
    char *kp_version[] = {kp, "--version", NULL}, *kp_check[] = {kp, "check", design, NULL};
    char *kp_commit[] = {kp, "commit", ws, design, "-m", msg, NULL};
    char *ot_version[] = {other, "--version", NULL}, *ot_check[] = {other, "check", design, NULL};
    char *ot_commit[] = {other, "commit", ws_other, design, "-m", msg, NULL};
    char *sq_version[] = {"sqlite3", "--version", NULL}, *sq_insert[] = {"sqlite3", db, insert, NULL};
    printf("keyplan as a command: median wall ms of %zu runs (fork, exec, exit), CloudShop\n", n);
    printf("%-34s %9s", "", "keyplan");
    if (other)
        printf(" %9s %7s", "other", "speedup");
    printf(" %9s %7s\n", "sqlite3", "ratio");
    /* one unmeasured commit each: the workspaces exist before the runs timed */
    run_once(kp_commit);
    if (other)
        run_once(ot_commit);
    row("--version (start, nothing else)", median_of(kp_version, n), other ? median_of(ot_version, n) : -1,
        median_of(sq_version, n));
    row("check samples/cloudshop", median_of(kp_check, n), other ? median_of(ot_check, n) : -1, -1);
    row("commit (durable) / sqlite3 insert", median_of(kp_commit, n), other ? median_of(ot_commit, n) : -1,
        median_of(sq_insert, n));
    printf("ratio: keyplan / sqlite3; speedup: other / keyplan. goal: commit < 8 ms, durable\n");
    char *rm[] = {"rm", "-rf", dir, NULL};
    run_once(rm);
    free(design);
    free(ws);
    free(ws_other);
    free(db);
    free(create);
    free(insert);
    return 0;
}
