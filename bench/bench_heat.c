/* bench_heat.c - `keyplan heat` against `sort | uniq -c` and `wc -l` on the same generated access
 * log (bench/zipflog.h: 10M lines PK<TAB>SK<TAB>UNITS<TAB>kind over 1.1M keys, Zipf), side by
 * side: the median wall and CPU time of several runs, the peak RSS of each command (wait4's rusage,
 * the largest process of a pipeline), and the ratios; then the check that heat's top 10 and
 * totals equal awk's on that log (exit status 1 when they differ).
 *
 * Usage: bench_heat [--keyplan PATH] [--old PATH] [--lines N] [--keys K] [--runs R] [--log FILE]
 *          --keyplan  the binary to measure (default ./keyplan: run it from a Release build folder)
 *          --old      another keyplan binary to measure beside it (the figures before a change)
 *          --log      an existing log instead of generating one (kept; a generated one is deleted)
 *        bench_heat gen LINES KEYS [SEED]   the generated log on standard output
 *
 * The commands run through sh -c with their output to /dev/null, by turns (one run of each, then
 * the next round, which starts one command further), the log read once before so that every
 * command finds it in the page cache. Two peers: `sort LOG | uniq -c`, the command as the goal
 * names it (the lines sorted whole, in the locale as set: what the goal's figure measured), and
 * `cut -f1 LOG | sort | uniq -c` (the keys counted, as heat counts them) under LC_ALL=C, GNU
 * sort's fastest comparison. */
#include "zipflog.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct measure {
    double seconds; /* median wall time */
    double cpu;     /* median CPU time, user + system, of the command and its children */
    double rss_mb;  /* the largest peak RSS over the runs */
    int status;
    double t[64], c[64]; /* each run's wall and CPU */
    int runs;
} measure;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double tv(struct timeval v) { return (double)v.tv_sec + (double)v.tv_usec / 1e6; }

/* Runs `cmd` (sh -c) once, output to /dev/null, into m. */
static void run(const char *cmd, measure *m)
{
    if (m->runs >= 64)
        return;
    fflush(stdout);
    double t0 = now();
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout))
            _exit(127);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    int st = 0;
    struct rusage ru;
    if (pid < 0 || wait4(pid, &st, 0, &ru) < 0) {
        m->status = -1;
        return;
    }
    m->t[m->runs] = now() - t0;
    m->c[m->runs++] = tv(ru.ru_utime) + tv(ru.ru_stime);
    if (ru.ru_maxrss / 1024.0 > m->rss_mb)
        m->rss_mb = ru.ru_maxrss / 1024.0;
    if (!WIFEXITED(st) || (WEXITSTATUS(st) != 0 && WEXITSTATUS(st) != 1))
        m->status = st ? st : -1;
}

/* The medians of m's runs. */
static void settle(measure *m)
{
    if (!m->runs)
        return;
    qsort(m->t, (size_t)m->runs, sizeof *m->t, cmp_double);
    qsort(m->c, (size_t)m->runs, sizeof *m->c, cmp_double);
    m->seconds = m->t[m->runs / 2];
    m->cpu = m->c[m->runs / 2];
}

/* The standard output of `cmd`; NULL on failure. Caller frees. */
static char *capture(const char *cmd)
{
    FILE *p = popen(cmd, "r");
    if (!p)
        return NULL;
    size_t cap = 1 << 16, len = 0, r;
    char *out = malloc(cap);
    while (out && (r = fread(out + len, 1, cap - len - 1, p)) > 0) {
        len += r;
        if (len + 1 == cap && !(out = realloc(out, cap *= 2)))
            break;
    }
    int st = pclose(p);
    if (!out || !WIFEXITED(st) || WEXITSTATUS(st) > 1) {
        free(out);
        return NULL;
    }
    out[len] = '\0';
    return out;
}

int main(int argc, char **argv)
{
    if (argc >= 4 && strcmp(argv[1], "gen") == 0) {
        uint64_t seed = argc > 4 ? strtoull(argv[4], NULL, 10) : 1;
        return zipflog_write(stdout, strtoul(argv[2], NULL, 10), strtoul(argv[3], NULL, 10), seed) == 0 ? 0
                                                                                                        : 1;
    }
    const char *kp = "./keyplan", *old = NULL, *log = NULL;
    size_t lines = 10000000, keys = 1100000;
    int runs = 3;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) {
            fprintf(stderr, "bench_heat: %s needs a value (see the header of bench/bench_heat.c)\n", a);
            return 2;
        }
        if (strcmp(a, "--keyplan") == 0)
            kp = v;
        else if (strcmp(a, "--old") == 0)
            old = v;
        else if (strcmp(a, "--log") == 0)
            log = v;
        else if (strcmp(a, "--lines") == 0)
            lines = strtoul(v, NULL, 10);
        else if (strcmp(a, "--keys") == 0)
            keys = strtoul(v, NULL, 10);
        else if (strcmp(a, "--runs") == 0)
            runs = atoi(v);
        else {
            fprintf(stderr, "bench_heat: unknown option %s\n", a);
            return 2;
        }
        i++;
    }
    if (runs < 1)
        runs = 1;
    char path[4096] = "";
    bool generated = !log;
    if (generated) {
        const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
        snprintf(path, sizeof path, "%s/bench_heat-XXXXXX", tmp);
        int fd = mkstemp(path);
        FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
        double t0 = now();
        if (!f || zipflog_write(f, lines, keys, 1) != 0 || fclose(f) != 0) {
            fprintf(stderr, "bench_heat: cannot write the log %s\n", path);
            return 2;
        }
        printf("log: %zu lines over %zu keys (Zipf, exponent 1), generated in %.1f s: %s\n", lines, keys,
               now() - t0, path);
        log = path;
    }
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "cat '%s' >/dev/null", log);
    measure warm = {0};
    run(cmd, &warm);

    struct {
        const char *name;
        char cmd[8192];
        measure m;
    } rows[8];
    size_t n = 0;
    snprintf(rows[n].cmd, sizeof rows[n].cmd, "'%s' heat '%s'", kp, log);
    rows[n++].name = "keyplan heat";
    snprintf(rows[n].cmd, sizeof rows[n].cmd, "'%s' heat '%s' --threads 1", kp, log);
    rows[n++].name = "keyplan heat --threads 1";
    snprintf(rows[n].cmd, sizeof rows[n].cmd, "'%s' heat '%s' --approx 100000", kp, log);
    rows[n++].name = "keyplan heat --approx 100000";
    snprintf(rows[n].cmd, sizeof rows[n].cmd, "cat '%s' | '%s' heat -", log, kp);
    rows[n++].name = "cat | keyplan heat - (a pipe)";
    if (old) {
        snprintf(rows[n].cmd, sizeof rows[n].cmd, "'%s' heat '%s'", old, log);
        rows[n++].name = "keyplan heat (--old)";
    }
    snprintf(rows[n].cmd, sizeof rows[n].cmd, "sort '%s' | uniq -c", log);
    rows[n++].name = "sort | uniq -c (whole lines)";
    snprintf(rows[n].cmd, sizeof rows[n].cmd, "cut -f1 '%s' | LC_ALL=C sort | uniq -c", log);
    rows[n++].name = "cut -f1 | sort | uniq -c";
    snprintf(rows[n].cmd, sizeof rows[n].cmd, "wc -l '%s'", log);
    rows[n++].name = "wc -l";
    if (runs > 64)
        runs = 64;
    for (size_t i = 0; i < n; i++)
        rows[i].m = (measure){0};
    /* by turns, a change of the machine's load falling on every row; each round starts one row
       further, so no row always follows the same one (a heat right after the sort of the round
       before ran 10-20 % slower, its huge pages harder to find) */
    for (int r = 0; r < runs; r++)
        for (size_t i = 0; i < n; i++) {
            size_t k = (i + (size_t)r) % n;
            run(rows[k].cmd, &rows[k].m);
        }
    for (size_t i = 0; i < n; i++)
        settle(&rows[i].m);
    double heat = rows[0].m.seconds;
    printf("\n%-30s %10s %10s %10s %14s\n", "command", "seconds", "CPU s", "RSS MB", "x heat's time");
    for (size_t i = 0; i < n; i++)
        printf("%-30s %10.2f %10.2f %10.1f %14.2f%s\n", rows[i].name, rows[i].m.seconds, rows[i].m.cpu,
               rows[i].m.rss_mb, heat > 0 ? rows[i].m.seconds / heat : 0,
               rows[i].m.status ? "  (failed)" : "");
    const char *coll = getenv("LC_ALL") && *getenv("LC_ALL")           ? getenv("LC_ALL")
                       : getenv("LC_COLLATE") && *getenv("LC_COLLATE") ? getenv("LC_COLLATE")
                       : getenv("LANG") && *getenv("LANG")             ? getenv("LANG")
                                                                       : "POSIX";
    printf("(median of %d runs taken by turns; CPU: user + system of the command and its children; RSS: the\n"
           "largest process of the command; `sort | uniq -c (whole lines)` is the command as the goal names\n"
           "it, the lines sorted whole in the locale as set (collation: %s); `cut -f1 | sort | uniq -c`\n"
           "counts the keys alone, as heat does, in the C locale's byte order, sort's fastest)\n",
           runs, coll);

    /* the check: heat's top 10 and totals are awk's */
    snprintf(cmd, sizeof cmd, "'%s' heat '%s' --top 10", kp, log);
    char *text = capture(cmd), *mine = text ? zipflog_heat(text) : NULL, *ref = zipflog_awk(log, 10);
    int rc = 0;
    if (!mine || !ref || strcmp(mine, ref) != 0) {
        printf("\ncheck FAILED: heat's top 10 and totals differ from awk's\nheat:\n%s\nawk:\n%s",
               mine ? mine : "?", ref ? ref : "?");
        rc = 1;
    } else {
        printf("\ncheck: heat's top 10 and totals equal awk's (%s)\n", strtok(ref, "\n"));
    }
    free(text);
    free(mine);
    free(ref);
    for (size_t i = 0; i < n; i++)
        if (rows[i].m.status)
            rc = 1;
    if (generated)
        unlink(path);
    return rc;
}
