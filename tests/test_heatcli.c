/* test_heatcli.c - `keyplan heat` end to end on the benchmark's generated log at a small size
 * (bench/zipflog.h, 200,000 lines over 22,000 keys): its top 10 and totals are awk's; one thread
 * and two give byte-identical output; the log split in two and merged back (`--json --top 0`
 * parts, or the PK<TAB>COUNT<TAB>UNITS parts an Athena or Spark query writes) gives the figures of
 * the whole; parts listing only their hottest keys merge into bounds that hold. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../bench/zipflog.h"
#include "support.h"
#include "util.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#define LINES 200000
#define KEYS  22000

static char *dir, *logp, *part1, *part2;

static char *in_dir(const char *name) { return xasprintf("%s/%s", dir, name); }

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(fputs(text, f) >= 0, 1);
    assert_int_equal(fclose(f), 0);
}

/* keyplan's standard output for args (exit status 0 or 1 expected). Caller frees. */
static char *kp(const char *const *args)
{
    char *out = NULL, *err = NULL;
    int st = ts_run_keyplan(args, NULL, &out, &err);
    if (st != 0 && st != 1)
        fail_msg("keyplan exited %d: %s", st, err ? err : "");
    free(err);
    return out;
}

/* The text after the first ": " (the output without the log's name). Not inlined: gcc 12 at -O2
 * then warns of a dangling pointer that cannot be. */
static __attribute__((noinline)) const char *after_name(const char *text)
{
    const char *c = strstr(text, ": ");
    assert_non_null(c);
    return c + 2;
}

static int setup(void **state)
{
    (void)state;
    dir = ts_temp_dir();
    logp = in_dir("access.log");
    part1 = in_dir("part1.log");
    part2 = in_dir("part2.log");
    FILE *f = fopen(logp, "w");
    if (!f || zipflog_write(f, LINES, KEYS, 5) != 0 || fclose(f) != 0)
        return -1;
    /* the log in two parts: the first 80,000 lines and the rest */
    char *cmd = xasprintf("head -n 80000 '%s' >'%s' && tail -n +80001 '%s' >'%s'", logp, part1, logp, part2);
    int rc = system(cmd);
    free(cmd);
    return rc == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char *cmd = xasprintf("rm -rf '%s'", dir);
    int rc = system(cmd);
    free(cmd);
    free(dir);
    free(logp);
    free(part1);
    free(part2);
    return rc == 0 ? 0 : -1;
}

/* An endless stream of new keys (here 3,000,000 of them, 45 MB, from a pipe) in --approx mode:
 * memory stays bounded by the table, not by the keys (an exact tally of them needs about 400 MB).
 * Runs first: RUSAGE_CHILDREN is the largest child so far. */
static void test_approx_memory(void **state)
{
    (void)state;
    char *cmd = xasprintf(
        "awk 'BEGIN { for (i = 0; i < 3000000; i++) printf \"KEY#%%d\\tS\\t1\\n\", i }' | '%s' heat - "
        "--approx 4096 --top 3 >'%s/approx.out'",
        KP_BINARY, dir);
    assert_int_equal(system(cmd), 0);
    free(cmd);
    struct rusage ru;
    assert_int_equal(getrusage(RUSAGE_CHILDREN, &ru), 0);
    if (ru.ru_maxrss > 100 * 1024)
        fail_msg("heat --approx 4096 over 3,000,000 keys peaked at %ld KB", ru.ru_maxrss);
    char *outp = in_dir("approx.out");
    char *out = ts_read_file(outp, NULL);
    assert_non_null(out);
    assert_non_null(strstr(out, "3000000 requests, 3000000.0 units, 4096 partition keys"));
    assert_non_null(strstr(out, "approximate: at most 4096 keys kept"));
    free(out);
    free(outp);
}

/* heat's top 10 and totals are awk's. */
static void test_awk(void **state)
{
    (void)state;
    const char *args[] = {"heat", logp, "--top", "10", NULL};
    char *out = kp(args);
    char *mine = zipflog_heat(out), *ref = zipflog_awk(logp, 10);
    assert_non_null(mine);
    assert_non_null(ref);
    assert_string_equal(mine, ref);
    char first[64];
    snprintf(first, sizeof first, "%d ", LINES);
    assert_true(strncmp(ref, first, strlen(first)) == 0); /* the reference counted every line */
    free(out);
    free(mine);
    free(ref);
}

/* One thread and two (and standard input) give the same bytes, every key listed. */
static void test_threads(void **state)
{
    (void)state;
    const char *one[] = {"heat", logp, "--json", "--top", "0", "--seconds", "60", "--threads", "1", NULL};
    const char *two[] = {"heat", logp, "--json", "--top", "0", "--seconds", "60", "--threads", "2", NULL};
    char *a = kp(one), *b = kp(two);
    assert_string_equal(a, b);
    assert_non_null(strstr(a, "\"distinct_keys\": 22000"));
    free(a);
    free(b);
}

/* heat --json's text after its "source" line (the log's name); not inlined, as after_name. */
static __attribute__((noinline)) const char *past_source(const char *json)
{
    const char *c = strstr(json, "\"source\"");
    assert_non_null(c);
    c = strchr(c, '\n');
    assert_non_null(c);
    return c;
}

/* Standard input from a file (read from where it stands, its size known), from a pipe, and
 * the file named: the same figures; with its first two lines already read by another program,
 * the rest of it. */
static void test_stdin(void **state)
{
    (void)state;
    const char *named[] = {"heat", logp, "--json", "--top", "0", NULL};
    char *want = kp(named);
    char *outp = in_dir("stdin.json"), *restp = in_dir("rest.log");
    const char *const cmds[] = {"'%1$s' heat - --json --top 0 <'%2$s' >'%3$s'",
                                "cat '%2$s' | '%1$s' heat - --json --top 0 >'%3$s'"};
    for (size_t i = 0; i < 2; i++) {
        char *cmd = xasprintf(cmds[i], KP_BINARY, logp, outp);
        assert_int_equal(system(cmd), 0);
        free(cmd);
        char *got = ts_read_file(outp, NULL);
        assert_non_null(got);
        assert_string_equal(past_source(got), past_source(want));
        free(got);
    }
    /* two lines read by `read` (which leaves the offset after them), then heat: the rest */
    char *cmd =
        xasprintf("tail -n +3 '%1$s' >'%2$s' && { read -r a; read -r b; '%3$s' heat - --json --top 0; } "
                  "<'%1$s' >'%4$s'",
                  logp, restp, KP_BINARY, outp);
    assert_int_equal(system(cmd), 0);
    free(cmd);
    const char *rest_args[] = {"heat", restp, "--json", "--top", "0", NULL};
    char *rest = kp(rest_args), *got = ts_read_file(outp, NULL);
    assert_non_null(got);
    assert_string_equal(past_source(got), past_source(rest));
    assert_true(strcmp(past_source(rest), past_source(want)) != 0);
    free(got);
    free(rest);
    free(want);
    free(outp);
    free(restp);
}

/* The figures of the whole from parts: `heat --json --top 0` results and Athena/Spark part
 * files (PK<TAB>COUNT<TAB>UNITS), alone or mixed. */
static void test_merge(void **state)
{
    (void)state;
    const char *whole_args[] = {"heat", logp, "--top", "25", NULL};
    char *whole = kp(whole_args);
    char *j1 = in_dir("part1.json"), *j2 = in_dir("part2.json"), *t1 = in_dir("part1.tsv"),
         *t2 = in_dir("part2.tsv");
    const char *const parts[2] = {part1, part2};
    char *const jsons[2] = {j1, j2}, *const tsvs[2] = {t1, t2};
    for (int i = 0; i < 2; i++) {
        const char *args[] = {"heat", parts[i], "--json", "--top", "0", NULL};
        char *out = kp(args);
        write_file(jsons[i], out);
        free(out);
        /* what `SELECT pk, count(*), sum(units) ... GROUP BY pk` writes */
        char *cmd = xasprintf(
            "awk -F'\\t' '{ c[$1]++; s[$1] += $3 } END { for (k in c) printf \"%%s\\t%%d\\t%%.1f\\n\", "
            "k, c[k], s[k] }' '%s' >'%s'",
            parts[i], tsvs[i]);
        assert_int_equal(system(cmd), 0);
        free(cmd);
    }
    const char *merges[][6] = {
        {"heat", "--merge", j1, j2, "--top", "25"},
        {"heat", "--merge", t1, t2, "--top", "25"},
        {"heat", "--merge", j1, t2, "--top", "25"},
    };
    for (size_t m = 0; m < sizeof merges / sizeof *merges; m++) {
        const char *args[] = {merges[m][0], merges[m][1], merges[m][2], merges[m][3],
                              merges[m][4], merges[m][5], NULL};
        char *out = kp(args);
        if (strcmp(after_name(out), after_name(whole)) != 0)
            fail_msg("merge %zu differs from the whole log:\n%s\nwhole:\n%s", m, out, whole);
        free(out);
    }
    free(whole);
    free(j1);
    free(j2);
    free(t1);
    free(t2);
}

/* Parts that list only their 200 hottest keys: the merge says it is approximate, and each key's
 * units are within [units - error, units] of the truth. */
static void test_merge_partial(void **state)
{
    (void)state;
    const char *exact_args[] = {"heat", logp, "--json", "--top", "0", NULL};
    char *exact = kp(exact_args);
    json_t *ex = json_loads(exact, 0, NULL);
    assert_non_null(ex);
    char *j1 = in_dir("top1.json"), *j2 = in_dir("top2.json");
    const char *const parts[2] = {part1, part2};
    char *const outs[2] = {j1, j2};
    for (int i = 0; i < 2; i++) {
        const char *args[] = {"heat", parts[i], "--json", "--top", "200", NULL};
        char *out = kp(args);
        write_file(outs[i], out);
        free(out);
    }
    const char *args[] = {"heat", "--merge", j1, j2, "--json", "--top", "50", NULL};
    char *merged = kp(args);
    json_t *mg = json_loads(merged, 0, NULL);
    assert_non_null(mg);
    assert_true(json_is_true(json_object_get(mg, "approximate")));
    assert_true(json_real_value(json_object_get(mg, "units")) ==
                json_real_value(json_object_get(ex, "units")));
    json_t *keys = json_object_get(mg, "keys"), *exkeys = json_object_get(ex, "keys");
    assert_int_equal(json_array_size(keys), 50);
    for (size_t i = 0; i < json_array_size(keys); i++) {
        json_t *k = json_array_get(keys, i);
        const char *name = json_string_value(json_object_get(k, "key"));
        double units = json_real_value(json_object_get(k, "units")),
               error = json_real_value(json_object_get(k, "error"));
        double truth = -1;
        for (size_t e = 0; e < json_array_size(exkeys) && truth < 0; e++)
            if (strcmp(json_string_value(json_object_get(json_array_get(exkeys, e), "key")), name) == 0)
                truth = json_real_value(json_object_get(json_array_get(exkeys, e), "units"));
        if (!(truth >= units - error - 1e-9 && truth <= units + 1e-9))
            fail_msg("%s: true units %g outside [%g, %g]", name, truth, units - error, units);
    }
    /* the hottest key of the whole is the merge's hottest */
    assert_string_equal(json_string_value(json_object_get(json_array_get(keys, 0), "key")),
                        json_string_value(json_object_get(json_array_get(exkeys, 0), "key")));
    json_decref(mg);
    json_decref(ex);
    free(merged);
    free(exact);
    free(j1);
    free(j2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_approx_memory), cmocka_unit_test(test_awk),
        cmocka_unit_test(test_threads),       cmocka_unit_test(test_merge),
        cmocka_unit_test(test_merge_partial), cmocka_unit_test(test_stdin),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
