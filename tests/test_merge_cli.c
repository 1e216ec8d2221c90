/* test_merge_cli.c - keyplan merge-file and keyplan merge on the real binary: a clean merge
 * (exit 0, the merged design), conflicts (exit 1, readable markers; the workspace untouched),
 * unusable input (exit 2, FILE:LINE), and the working copy moved onto the latest version with
 * its undo step. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "design_io.h"
#include "support.h"
#include "workspace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *base_text;

#define P3 "  - { id: 3, name: Get customer, entity: Customer, by: [customerId], rate: 5 }\n"
#define P4 "  - { id: 4, name: Customer by email, entity: Customer, by: [email], rate: 1 }\n"
#define CUSTOMER                                                                                               \
    "  - name: Customer\n    count: 100\n    size: 300\n    attributes: [customerId, email]\n    keys: { PK: " \
    "\"CUST#{customerId}\", SK: \"A\", GSI2PK: \"{email}\" }\n"

/* base_text with `from` replaced by `to` (once each; up to two pairs). Caller frees. */
static char *variant(const char *from, const char *to, const char *from2, const char *to2)
{
    char *t = xstrdup(base_text);
    const char *pairs[2][2] = {{from, to}, {from2, to2}};
    for (int i = 0; i < 2; i++) {
        if (!pairs[i][0])
            continue;
        char *at = strstr(t, pairs[i][0]);
        assert_non_null(at);
        sbuf s;
        sbuf_init(&s);
        sbuf_addn(&s, t, (size_t)(at - t));
        sbuf_add(&s, pairs[i][1]);
        sbuf_add(&s, at + strlen(pairs[i][0]));
        free(t);
        t = sbuf_steal(&s);
    }
    return t;
}

/* Writes text to a file named `name` in dir; caller frees the path. */
static char *put(const char *dir, const char *name, const char *text)
{
    sbuf p;
    sbuf_init(&p);
    sbuf_printf(&p, "%s/%s", dir, name);
    FILE *f = fopen(p.s, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return sbuf_steal(&p);
}

typedef struct run {
    int rc;
    char *out, *err;
} run;

#define KP(...) kp((const char *const[]){__VA_ARGS__, NULL})
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

static void test_merge_file(void **state)
{
    (void)state;
    char *dir = ts_temp_dir();
    char *ours_t = variant("rate: 10 }", "rate: 20 }", NULL, NULL);
    char *theirs_t = variant("rate: 5 }", "rate: 7 }", NULL, NULL);
    char *clash_t = variant("rate: 10 }", "rate: 30 }", NULL, NULL);
    char *base = put(dir, "base.yaml", base_text), *ours = put(dir, "ours.yaml", ours_t),
         *theirs = put(dir, "theirs.yaml", theirs_t), *clash = put(dir, "clash.yaml", clash_t),
         *bad = put(dir, "bad.yaml", "keyplan: 1\nname: Shop\ntable: 5\n"),
         *empty = put(dir, "empty.yaml", "");
    sbuf o;
    sbuf_init(&o);
    sbuf_printf(&o, "%s/out.yaml", dir);

    /* clean: both changes in the canonical YAML */
    run r = KP("merge-file", base, ours, theirs, "-o", o.s);
    assert_int_equal(r.rc, 0);
    char *merged = ts_read_file(o.s, NULL);
    assert_non_null(merged);
    kp_design *d = ts_load_text(merged, "out.yaml");
    free(merged);
    assert_non_null(d);
    assert_true(design_pattern(d, "1")->rate == 20);
    assert_true(design_pattern(d, "3")->rate == 7);
    design_free(d);
    run_free(&r);

    /* the same to standard output */
    r = KP("merge-file", base, ours, theirs);
    assert_int_equal(r.rc, 0);
    assert_non_null(strstr(r.out, "  rate: 20\n"));
    assert_non_null(strstr(r.out, "  rate: 7\n"));
    run_free(&r);

    /* the same field two ways: exit 1, markers around the field's line, the conflict on stderr */
    r = KP("merge-file", base, ours, clash, "-o", o.s);
    assert_int_equal(r.rc, 1);
    assert_non_null(strstr(r.err, "pattern 1 rate: changed two ways: base 10; ours 20; theirs 30"));
    char *text = ts_read_file(o.s, NULL);
    assert_non_null(strstr(
        text, "  by: [orderId]\n<<<<<<< ours\n  rate: 20\n=======\n  rate: 30\n>>>>>>> theirs\n- id: 2\n"));
    free(text);
    run_free(&r);

    /* clean field by field, but theirs deleted the entity a new pattern of ours reads: written,
     * exit 1, the problem at its place in the output */
    char *o2_t =
        variant(P4, P4 "  - { id: 5, name: Customer by name, entity: Customer, by: [customerId], rate: 1 }\n",
                NULL, NULL);
    char *t2_t = variant(CUSTOMER, "", P3 P4, "");
    char *o2 = put(dir, "o2.yaml", o2_t), *t2 = put(dir, "t2.yaml", t2_t);
    r = KP("merge-file", base, o2, t2, "-o", o.s);
    assert_int_equal(r.rc, 1);
    assert_non_null(strstr(r.err, "the changes merge without conflicts, but the result does not validate"));
    assert_non_null(strstr(r.err, "out.yaml:48:11: error: pattern 5: unknown entity 'Customer'"));
    run_free(&r);
    free(o2);
    free(t2);
    free(o2_t);
    free(t2_t);

    /* unusable input: exit 2 with its place, nothing written */
    remove(o.s);
    r = KP("merge-file", base, bad, theirs, "-o", o.s);
    assert_int_equal(r.rc, 2);
    assert_non_null(strstr(r.err, "bad.yaml:3:"));
    assert_null(ts_read_file(o.s, NULL));
    run_free(&r);
    r = KP("merge-file", base, ours);
    assert_int_equal(r.rc, 2);
    assert_non_null(strstr(r.err, "usage: keyplan merge-file BASE OURS THEIRS [-o OUT]"));
    run_free(&r);

    /* an empty base (a file both branches added): the same design on both sides merges */
    r = KP("merge-file", empty, ours, ours, "-o", o.s);
    assert_int_equal(r.rc, 0);
    run_free(&r);

    free(base);
    free(ours);
    free(theirs);
    free(clash);
    free(bad);
    free(empty);
    free(ours_t);
    free(theirs_t);
    free(clash_t);
    sbuf_free(&o);
    free(dir);
}

/* A workspace with version 1 = base, a working copy on version 1 changed by `mine`, and version
 * 2 = base changed by `theirs` committed meanwhile. Returns the workspace's path (caller frees). */
static char *stale_workspace(const char *mine_from, const char *mine_to, const char *theirs_from,
                             const char *theirs_to)
{
    char *dir = ts_temp_dir();
    sbuf p;
    sbuf_init(&p);
    sbuf_printf(&p, "%s/design.keyplan", dir);
    free(dir);
    ws_t *ws = NULL;
    assert_int_equal(ws_open(p.s, WS_CREATE, &ws, NULL), KP_OK);
    kp_design *b = ts_load_text(base_text, "base.yaml");
    char *t = variant(theirs_from, theirs_to, NULL, NULL), *m = variant(mine_from, mine_to, NULL, NULL);
    kp_design *theirs = ts_load_text(t, "theirs.yaml");
    assert_int_equal(ws_commit(ws, b, "ana", "base", 0, false, NULL, NULL), KP_OK);
    assert_int_equal(ws_working_set(ws, m, 1, true, "edit", NULL), KP_OK);
    assert_int_equal(ws_commit(ws, theirs, "bo", "theirs", 1, false, NULL, NULL), KP_OK);
    ws_close(ws);
    design_free(b);
    design_free(theirs);
    free(t);
    free(m);
    return sbuf_steal(&p);
}

static void test_merge_workspace(void **state)
{
    (void)state;
    char *wsp = stale_workspace("rate: 10 }", "rate: 20 }", "rate: 5 }", "rate: 7 }");
    run r = KP("merge", wsp);
    assert_int_equal(r.rc, 0);
    assert_string_equal(
        r.out, "merged version 2 into the working copy (based on version 1); it is now based on version 2\n");
    run_free(&r);
    ws_t *ws = NULL;
    assert_int_equal(ws_open(wsp, 0, &ws, NULL), KP_OK);
    char *yaml = NULL;
    int parent = 0;
    assert_int_equal(ws_working_get(ws, &yaml, &parent, NULL), KP_OK);
    assert_int_equal(parent, 2);
    kp_design *d = ts_load_text(yaml, "working copy");
    assert_true(design_pattern(d, "1")->rate == 20); /* mine */
    assert_true(design_pattern(d, "3")->rate == 7);  /* theirs */
    design_free(d);
    free(yaml);
    /* one undo step back to the working copy before the merge */
    assert_int_equal(ws_undo(ws, &yaml, NULL), KP_OK);
    assert_non_null(strstr(yaml, "rate: 20"));
    assert_non_null(strstr(yaml, "rate: 5"));
    free(yaml);
    assert_int_equal(ws_redo(ws, NULL, NULL), KP_OK);
    ws_close(ws);

    /* now on the latest: nothing to merge */
    r = KP("merge", wsp);
    assert_int_equal(r.rc, 0);
    assert_string_equal(r.out, "the working copy is based on the latest version (2): nothing to merge\n");
    run_free(&r);
    free(wsp);
}

static void test_merge_workspace_conflict(void **state)
{
    (void)state;
    char *wsp = stale_workspace("rate: 10 }", "rate: 20 }", "rate: 10 }", "rate: 30 }");
    ws_t *ws = NULL;
    assert_int_equal(ws_open(wsp, 0, &ws, NULL), KP_OK);
    char *before = NULL;
    size_t nundo_before = 0, nundo = 0;
    assert_int_equal(ws_working_get(ws, &before, NULL, NULL), KP_OK);
    assert_int_equal(ws_history_depth(ws, &nundo_before, NULL, NULL), KP_OK);
    ws_close(ws);

    run r = KP("merge", wsp);
    assert_int_equal(r.rc, 1);
    assert_string_equal(
        r.out, "1 conflict between the working copy (based on version 1) and version 2:\n"
               "pattern 1 rate: changed two ways: base 10; ours 20; theirs 30\n"
               "nothing changed; resolve them in the workbench (R), or edit the working copy and merge "
               "again\n");
    run_free(&r);

    assert_int_equal(ws_open(wsp, 0, &ws, NULL), KP_OK);
    char *after = NULL;
    int parent = 0;
    assert_int_equal(ws_working_get(ws, &after, &parent, NULL), KP_OK);
    assert_string_equal(after, before);
    assert_int_equal(parent, 1);
    assert_int_equal(ws_history_depth(ws, &nundo, NULL, NULL), KP_OK);
    assert_int_equal(nundo, nundo_before);
    ws_close(ws);
    free(before);
    free(after);

    r = KP("merge");
    assert_int_equal(r.rc, 2);
    run_free(&r);
    free(wsp);
}

static int setup(void **state)
{
    (void)state;
    char *p = ts_source_path("tests/data/merge/base.yaml");
    base_text = ts_read_file(p, NULL);
    free(p);
    return base_text ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    free(base_text);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_merge_file),
        cmocka_unit_test(test_merge_workspace),
        cmocka_unit_test(test_merge_workspace_conflict),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
