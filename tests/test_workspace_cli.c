/* test_workspace_cli.c - keyplan commit | log | show | diff | observe | signals | export on the
 * real binary: outputs, exit statuses (0, 1 fired, 2 unusable input), the stale-parent
 * refusal, damaged/foreign and read-only workspaces left untouched. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "util.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct run {
    int rc;
    char *out, *err;
} run;

static run kp(const char *const *args)
{
    run r = {0};
    r.rc = ts_run_keyplan(args, NULL, &r.out, &r.err);
    return r;
}

static void run_free(run *r)
{
    free(r->out);
    free(r->err);
}

#define KP(...) kp((const char *const[]){__VA_ARGS__, NULL})

static void expect(run *r, int rc, const char *in_out, const char *in_err)
{
    if (r->rc != rc || (in_out && !strstr(r->out, in_out)) || (in_err && !strstr(r->err, in_err)))
        fail_msg("rc %d (want %d)\nstdout:\n%s\nstderr:\n%s\nwanted out '%s' err '%s'", r->rc, rc, r->out,
                 r->err, in_out ? in_out : "", in_err ? in_err : "");
}

typedef struct fixture {
    char *dir, *ws, *first, *design;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->dir = ts_temp_dir();
    f->ws = xasprintf("%s/shop.keyplan", f->dir);
    f->first = ts_source_path("samples/cloudshop/first-design.yaml");
    f->design = ts_source_path("samples/cloudshop/design.yaml");
    setenv("KEYPLAN_AUTHOR", "ana", 1);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    free(f->dir);
    free(f->ws);
    free(f->first);
    free(f->design);
    free(f);
    return 0;
}

static void commit_two(fixture *f)
{
    run r = KP("commit", f->ws, f->first, "-m", "first design: keyed by status");
    expect(&r, 0, "version 1 committed", NULL);
    run_free(&r);
    r = KP("commit", f->ws, f->design, "-m", "the nine patterns, one table");
    expect(&r, 0, "version 2 committed", NULL);
    run_free(&r);
}

static void test_commit_log_show_diff(void **state)
{
    fixture *f = *state;
    commit_two(f);
    run r = KP("log", f->ws);
    expect(&r, 0, "ana  the nine patterns, one table", NULL);
    /* newest first */
    assert_true(strstr(r.out, "2  ") == r.out);
    assert_non_null(strstr(r.out, "\n1  "));
    run_free(&r);

    r = KP("show", f->ws, "1");
    expect(&r, 0, "# version 1 of", NULL);
    assert_non_null(strstr(r.out, "keyplan: 1\n"));
    assert_non_null(strstr(r.out, "ESTADO#{status}"));
    run_free(&r);
    r = KP("show", f->ws);
    expect(&r, 0, "# version 2 of", NULL);
    assert_non_null(strstr(r.out, "#   D3 [accepted]"));
    /* show's output is a design file again */
    char *path = xasprintf("%s/shown.yaml", f->dir);
    FILE *o = fopen(path, "w");
    fputs(r.out, o);
    fclose(o);
    run_free(&r);
    r = KP("commit", f->ws, path, "-m", "same again, from show");
    expect(&r, 0, "version 3 committed", NULL);
    run_free(&r);
    r = KP("diff", f->ws, "2", "3");
    expect(&r, 0, "no differences", NULL);
    run_free(&r);
    free(path);

    r = KP("diff", f->ws, "1", "2");
    expect(&r, 0, "Access patterns", NULL);
    assert_non_null(strstr(r.out, "~ pattern 1 (Get order by id)"));
    assert_non_null(strstr(r.out, "scan → get"));
    assert_non_null(strstr(r.out, "Cost per month"));
    assert_non_null(strstr(r.out, "+ index GSI1"));
    assert_non_null(strstr(r.out, "+ decision D3"));
    assert_non_null(strstr(r.out, "(HOT)"));
    run_free(&r);

    r = KP("diff", f->ws, "1", "9");
    expect(&r, 2, NULL, "no version 9; versions are 1 to 3");
    run_free(&r);
    r = KP("diff", f->ws, "1", "x");
    expect(&r, 2, NULL, "'x' is not a version");
    run_free(&r);
    r = KP("commit", f->ws, f->design);
    expect(&r, 2, NULL, "message is required");
    run_free(&r);
}

static void test_observe_and_signals(void **state)
{
    fixture *f = *state;
    commit_two(f);
    run r = KP("signals", f->ws);
    expect(&r, 0, "pattern.5.rate > 50         design 2  observed none  ok", NULL);
    assert_non_null(strstr(r.out, "\nD3  pattern.5.rate > 50"));
    run_free(&r);
    r = KP("observe", f->ws, "pattern.5.rate=60");
    expect(&r, 0, "observed pattern.5.rate = 60", NULL);
    assert_non_null(strstr(r.out, "decision D3 reopens"));
    run_free(&r);
    r = KP("signals", f->ws);
    expect(&r, 1, "pattern.5.rate > 50         design 2  observed 60", NULL);
    assert_non_null(strstr(r.out, "FIRED"));
    assert_non_null(strstr(r.out, "cli:ana"));
    assert_non_null(strstr(r.out, "to reopen: D3"));
    run_free(&r);
    r = KP("show", f->ws);
    expect(&r, 0, "#   D3 [reopen]", NULL);
    run_free(&r);
    r = KP("export", f->ws, "--format", "md");
    expect(&r, 0, "### D3 — Pending shipments share one sparse GSI1 partition — **REOPEN**", NULL);
    assert_non_null(strstr(r.out, "| 2 (this) |"));
    run_free(&r);
    /* a later observation below the threshold calms it */
    r = KP("observe", f->ws, "pattern.5.rate=20", "--source", "cloudwatch");
    expect(&r, 0, NULL, NULL);
    run_free(&r);
    r = KP("signals", f->ws);
    expect(&r, 0, "observed 20", NULL);
    assert_non_null(strstr(r.out, "cloudwatch"));
    run_free(&r);
    /* bad observations */
    r = KP("observe", f->ws, "pattern.5.speed=3");
    expect(&r, 2, NULL, "unknown metric 'pattern.5.speed'");
    run_free(&r);
    r = KP("observe", f->ws, "pattern.5.rate=lots");
    expect(&r, 2, NULL, "not a number");
    run_free(&r);
    r = KP("observe", f->ws, "pattern.5.rate=-60");
    expect(&r, 2, NULL, "-60 is below zero; expected a figure of 0 or more");
    run_free(&r);
    r = KP("observe", f->ws, "pattern.5.rate");
    expect(&r, 2, NULL, "METRIC=VALUE");
    run_free(&r);
}

static void test_stale_parent_cli(void **state)
{
    fixture *f = *state;
    commit_two(f);
    /* bea worked from version 1 meanwhile */
    setenv("KEYPLAN_AUTHOR", "bea", 1);
    run r = KP("commit", f->ws, f->first, "-m", "bea's change", "--parent", "1");
    expect(&r, 2, NULL, "version 2 was committed meanwhile by ana");
    assert_non_null(strstr(r.err, "the nine patterns, one table"));
    assert_non_null(strstr(r.err, "nothing was overwritten"));
    run_free(&r);
    r = KP("log", f->ws);
    assert_null(strstr(r.out, "bea"));
    run_free(&r);
    r = KP("commit", f->ws, f->first, "-m", "bea's change", "--parent", "2");
    expect(&r, 0, "version 3 committed", NULL);
    run_free(&r);
    setenv("KEYPLAN_AUTHOR", "ana", 1);
}

/* Two processes commit on the same parent at the same moment: exactly one wins. */
static void test_simultaneous_commits(void **state)
{
    fixture *f = *state;
    commit_two(f);
    for (int round = 0; round < 5; round++) {
        char parent[16];
        snprintf(parent, sizeof parent, "%d", 2 + round);
        pid_t pids[2];
        for (int i = 0; i < 2; i++) {
            pids[i] = fork();
            assert_true(pids[i] >= 0);
            if (pids[i] == 0) {
                const char *const args[] = {"commit",   f->ws,  f->design, "-m", i ? "from bea" : "from ana",
                                            "--parent", parent, NULL};
                char *o = NULL, *e = NULL;
                int rc = ts_run_keyplan(args, NULL, &o, &e);
                if (rc == 2 && !strstr(e, "meanwhile"))
                    rc = 99;
                _exit(rc);
            }
        }
        int wins = 0, refused = 0;
        for (int i = 0; i < 2; i++) {
            int st = 0;
            waitpid(pids[i], &st, 0);
            assert_true(WIFEXITED(st));
            wins += WEXITSTATUS(st) == 0;
            refused += WEXITSTATUS(st) == 2;
        }
        assert_int_equal(wins, 1);
        assert_int_equal(refused, 1);
    }
    run r = KP("log", f->ws);
    expect(&r, 0, "7  ", NULL);
    assert_null(strstr(r.out, "8  "));
    run_free(&r);
}

static void test_damaged_foreign_readonly(void **state)
{
    fixture *f = *state;
    /* a YAML file where a workspace is expected */
    run r = KP("log", f->design);
    expect(&r, 2, NULL, "not a keyplan workspace");
    run_free(&r);
    r = KP("commit", f->design, f->design, "-m", "oops");
    expect(&r, 2, NULL, "not a keyplan workspace");
    run_free(&r);
    /* garbage named like a workspace: untouched */
    char *junk = xasprintf("%s/junk.keyplan", f->dir);
    FILE *o = fopen(junk, "w");
    fputs("SQLite format 3 but not really\n", o);
    fclose(o);
    static const char *const cmds[][2] = {{"log", NULL}, {"signals", NULL}, {"show", NULL}, {"export", "md"}};
    for (size_t i = 0; i < 4; i++) {
        r = cmds[i][1] ? KP(cmds[i][0], junk, "--format", cmds[i][1]) : KP(cmds[i][0], junk);
        expect(&r, 2, NULL, "junk.keyplan");
        run_free(&r);
    }
    r = KP("commit", junk, f->design, "-m", "x");
    expect(&r, 2, NULL, "not a keyplan workspace");
    run_free(&r);
    char *text = ts_read_file(junk, NULL);
    assert_string_equal(text, "SQLite format 3 but not really\n");
    free(text);
    free(junk);
    /* a missing workspace for a read command is not created */
    char *missing = xasprintf("%s/none.keyplan", f->dir);
    r = KP("log", missing);
    expect(&r, 2, NULL, "no such workspace");
    run_free(&r);
    assert_int_not_equal(access(missing, F_OK), 0);
    free(missing);
    /* read-only: reading works, changing is refused clearly */
    commit_two(f);
    assert_int_equal(chmod(f->ws, 0444), 0);
    r = KP("log", f->ws);
    expect(&r, 0, "the nine patterns", NULL);
    run_free(&r);
    r = KP("commit", f->ws, f->design, "-m", "more");
    expect(&r, 2, NULL, "read-only");
    run_free(&r);
    r = KP("observe", f->ws, "cost.total=1");
    expect(&r, 2, NULL, "read-only");
    run_free(&r);
    chmod(f->ws, 0644);
    r = KP("log", f->ws);
    assert_null(strstr(r.out, "more"));
    run_free(&r);
    /* an invalid design is not committed */
    char *bad = xasprintf("%s/bad.yaml", f->dir);
    o = fopen(bad, "w");
    fputs("keyplan: 1\nname: broken\ntable: { name: Tbl }\n", o);
    fclose(o);
    r = KP("commit", f->ws, bad, "-m", "broken");
    expect(&r, 2, NULL, "bad.yaml");
    run_free(&r);
    free(bad);
}

/* A workspace in a folder the user cannot write: reading works from a snapshot, changing is
 * refused. Root ignores permissions, so as root the commands run as 'nobody' (runuser is part
 * of util-linux, on every Debian); as anyone else they run as that user. */
static void test_readonly_folder_other_user(void **state)
{
    fixture *f = *state;
    const char *as = "";
    if (geteuid() == 0) {
        as = "/usr/sbin/runuser -u nobody -- ";
        if (system("/usr/sbin/runuser -u nobody -- true >/dev/null 2>&1") != 0)
            fail_msg("running as root, and 'runuser -u nobody' does not work");
    }
    commit_two(f);
    assert_int_equal(chmod(f->dir, 0555), 0);
    char *out = xasprintf("%s.out", f->dir), *err = xasprintf("%s.err", f->dir);
    char *cmd = xasprintf("%s%s log %s >%s 2>%s", as, KP_BINARY, f->ws, out, err);
    int rc = system(cmd);
    free(cmd);
    char *o = ts_read_file(out, NULL), *e = ts_read_file(err, NULL);
    if (!WIFEXITED(rc) || WEXITSTATUS(rc) != 0 || !strstr(o, "the nine patterns"))
        fail_msg("log as nobody: rc %d\n%s\n%s", rc, o, e);
    free(o);
    free(e);
    cmd = xasprintf("%s%s commit %s %s -m x >%s 2>%s", as, KP_BINARY, f->ws, f->design, out, err);
    rc = system(cmd);
    free(cmd);
    e = ts_read_file(err, NULL);
    if (!WIFEXITED(rc) || WEXITSTATUS(rc) != 2 || !strstr(e, "read-only"))
        fail_msg("commit as nobody: rc %d: %s", rc, e);
    free(e);
    unlink(out);
    unlink(err);
    free(out);
    free(err);
    chmod(f->dir, 0700);
}

static void test_export_from_file_and_workspace(void **state)
{
    fixture *f = *state;
    char *out = xasprintf("%s/record.md", f->dir);
    run r = KP("export", f->design, "--format", "md", "-o", out);
    expect(&r, 0, NULL, NULL);
    run_free(&r);
    char *md = ts_read_file(out, NULL);
    assert_non_null(md);
    assert_non_null(strstr(md, "# Decision record: CloudShop orders"));
    assert_non_null(strstr(md, "Not from a workspace"));
    assert_null(strstr(md, "What changed from the previous version"));
    free(md);
    commit_two(f);
    r = KP("export", f->ws, "--format", "md");
    expect(&r, 0, "### What changed from the previous version", NULL);
    assert_non_null(strstr(r.out, "scan → get"));
    run_free(&r);
    r = KP("export", f->ws, "--format", "json");
    expect(&r, 0, "\"history\"", NULL);
    assert_non_null(strstr(r.out, "\"decisions\""));
    run_free(&r);
    r = KP("export", f->ws, "--format", "pdf");
    expect(&r, 2, NULL, "unknown format 'pdf'");
    run_free(&r);
    r = KP("export", f->ws);
    expect(&r, 2, NULL, "usage");
    run_free(&r);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_commit_log_show_diff, setup, teardown),
        cmocka_unit_test_setup_teardown(test_observe_and_signals, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stale_parent_cli, setup, teardown),
        cmocka_unit_test_setup_teardown(test_simultaneous_commits, setup, teardown),
        cmocka_unit_test_setup_teardown(test_damaged_foreign_readonly, setup, teardown),
        cmocka_unit_test_setup_teardown(test_readonly_folder_other_user, setup, teardown),
        cmocka_unit_test_setup_teardown(test_export_from_file_and_workspace, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
