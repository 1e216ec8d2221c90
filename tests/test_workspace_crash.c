/* test_workspace_crash.c - a child process commits in a loop and reports every commit it saw
 * succeed on a pipe; the parent kills it with SIGKILL at random moments, many times, then proves
 * the file's integrity and that every commit reported as done is there, intact. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "design.h"
#include "design_io.h"
#include "workspace.h"
#include "support.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ROUNDS      40
#define MAX_SECONDS 25.0

static const char design_fmt[] =
    "keyplan: 1\n"
    "name: crash %d-%d\n"
    "table: { name: Shop, pk: PK, sk: SK, billing: on-demand, streams: false, pitr: false }\n"
    "entities:\n"
    "  - name: Order\n"
    "    count: %d\n"
    "    size: 500\n"
    "    attributes: [orderId]\n"
    "    keys: { PK: \"ORDER#{orderId}\", SK: \"HEADER\" }\n"
    "patterns:\n"
    "  - { id: 1, name: Get order, entity: Order, by: [orderId], rate: 10, latency: 20 }\n"
    "decisions:\n"
    "  - id: D1\n"
    "    title: by id\n"
    "    signals: [ \"pattern.1.rate > 100\" ]\n";

/* What the child reports per commit: the version number and the (round, k) in its name. */
typedef struct report {
    int32_t number, round, k;
} report;

static kp_design *make(int round, int k)
{
    char *text = xasprintf(design_fmt, round, k, 1000 + k);
    kp_diags dg;
    diags_init(&dg, "crash.yaml");
    kp_design *d = designio_load_string(text, strlen(text), "crash.yaml", &dg);
    diags_free(&dg);
    free(text);
    return d;
}

static void child(const char *path, int fd, int round)
{
    ws_t *ws = NULL;
    if (ws_open(path, WS_CREATE, &ws, NULL) != KP_OK)
        _exit(3);
    for (int k = 0;; k++) {
        kp_design *d = make(round, k);
        if (!d)
            _exit(4);
        int latest = 0, n = 0;
        if (ws_latest(ws, &latest, NULL) != KP_OK)
            _exit(5);
        char msg[64];
        snprintf(msg, sizeof msg, "round %d commit %d", round, k);
        if (ws_commit(ws, d, "crash", msg, latest, k % 3 == 0, &n, NULL) != KP_OK)
            _exit(6);
        design_free(d);
        report r = {n, round, k};
        if (write(fd, &r, sizeof r) != (ssize_t)sizeof r)
            _exit(7);
        if (k % 5 == 0)
            ws_working_set(ws, msg, n, true, "edit", NULL);
    }
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void test_sigkill_during_commits(void **state)
{
    (void)state;
    char *dir = ts_temp_dir();
    char *path = xasprintf("%s/crash.keyplan", dir);
    report *seen = NULL;
    size_t nseen = 0, cap = 0;
    unsigned seed = (unsigned)time(NULL) ^ (unsigned)getpid();
    srand(seed);
    printf("seed %u\n", seed);
    double start = now_s();
    int rounds = 0, early_exits = 0;
    for (int round = 0; round < ROUNDS && now_s() - start < MAX_SECONDS; round++) {
        int p[2];
        assert_int_equal(pipe(p), 0);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            close(p[0]);
            child(path, p[1], round);
            _exit(0);
        }
        close(p[1]);
        /* kill after 0-250 ms: sometimes during open/creation, mostly mid-commit */
        usleep((useconds_t)(rand() % 250000));
        kill(pid, SIGKILL);
        int status = 0;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
        if (!(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL))
            early_exits++;
        report r;
        ssize_t got;
        while ((got = read(p[0], &r, sizeof r)) == (ssize_t)sizeof r) {
            VEC_GROW(seen, nseen, cap);
            seen[nseen++] = r;
        }
        close(p[0]);
        rounds++;
    }
    printf("%d rounds, %zu commits reported, %d children ended before the kill\n", rounds, nseen,
           early_exits);
    assert_int_equal(early_exits, 0); /* a child that exits by itself hit an error */
    assert_true(rounds >= 10);
    assert_true(nseen > 0);

    ws_t *ws = NULL;
    char *err = NULL;
    kp_status st = ws_open(path, 0, &ws, &err);
    if (st != KP_OK)
        fail_msg("reopen: %s", err);
    st = ws_verify(ws, &err);
    if (st != KP_OK)
        fail_msg("verify: %s", err);
    /* every reported commit is there, with the design it reported */
    for (size_t i = 0; i < nseen; i++) {
        kp_design *d = NULL;
        st = ws_version_design(ws, seen[i].number, &d, &err);
        if (st != KP_OK)
            fail_msg("version %d reported but: %s", seen[i].number, err);
        char want[64];
        snprintf(want, sizeof want, "crash %d-%d", seen[i].round, seen[i].k);
        assert_string_equal(d->name, want);
        kp_design *orig = make(seen[i].round, seen[i].k);
        assert_true(design_equal(d, orig));
        design_free(orig);
        design_free(d);
    }
    /* numbers are dense and the log agrees */
    int latest = 0;
    assert_int_equal(ws_latest(ws, &latest, NULL), KP_OK);
    ws_version *v = NULL;
    size_t n = 0;
    assert_int_equal(ws_log(ws, &v, &n, NULL), KP_OK);
    assert_int_equal((int)n, latest);
    assert_true(latest >= seen[nseen - 1].number);
    ws_versions_free(v, n);
    /* the workspace still takes commits */
    kp_design *d = make(999, 0);
    int num = 0;
    assert_int_equal(ws_commit(ws, d, NULL, "after the storm", latest, false, &num, NULL), KP_OK);
    assert_int_equal(num, latest + 1);
    design_free(d);
    ws_close(ws);
    free(seen);
    free(path);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sigkill_during_commits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
