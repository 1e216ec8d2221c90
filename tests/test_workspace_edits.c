/* test_workspace_edits.c - saving an edit in proportion to it: one pattern's YAML written as
 * designio_save writes it inside the design, the working copy's edit log (ws_working_splice:
 * the text, undo and redo, reopening, folding, a handle that does not know the text, a damaged
 * log), the session saving cell edits as lines and the workspace holding exactly the canonical
 * text, and the upgrade of a schema-3 workspace. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "design.h"
#include "design_io.h"
#include "edit.h"
#include "session.h"
#include "workspace.h"
#include "support.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static kp_design *load_ok(const char *rel)
{
    char *path = ts_source_path(rel);
    kp_diags dg;
    diags_init(&dg, path);
    kp_design *d = designio_load_file(path, &dg);
    if (!d)
        diags_print(&dg, stderr);
    assert_non_null(d);
    diags_free(&dg);
    free(path);
    return d;
}

static long long scalar(const char *path, const char *sql)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    sqlite3_stmt *s;
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    long long v = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    sqlite3_close(db);
    return v;
}

static void exec_ok(const char *path, const char *sql)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    char *e = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &e) != SQLITE_OK)
        fail_msg("%s: %s", sql, e);
    sqlite3_close(db);
}

static void expect_working(ws_t *ws, const char *want)
{
    char *t = NULL;
    assert_int_equal(ws_working_get(ws, &t, NULL, NULL), KP_OK);
    assert_string_equal(t, want);
    free(t);
}

/* The text with bytes [p, len - sfx) replaced by mid. Caller frees. */
static char *spliced(const char *t, size_t p, size_t sfx, const char *mid)
{
    size_t n = strlen(t);
    return xasprintf("%.*s%s%s", (int)p, t, mid, t + n - sfx);
}

/* ---- one pattern's lines ------------------------------------------------------------------- */

/* Each pattern's YAML, one after the other, is exactly the design's list of patterns, at the
 * place the list has in the whole text, up to the next top-level key. */
static void test_pattern_lines_are_the_designs(void **state)
{
    (void)state;
    static const char *const files[] = {
        "samples/cloudshop/design.yaml", "samples/cloudshop/first-design.yaml", "samples/iot/design.yaml",
        "samples/social/design.yaml",    "tests/data/fields/every-field.yaml",
    };
    for (size_t k = 0; k < sizeof files / sizeof *files; k++) {
        kp_design *d = load_ok(files[k]);
        assert_true(d->npatterns > 0);
        char *text = designio_save(d, NULL);
        assert_non_null(text);
        sbuf list;
        sbuf_init(&list);
        sbuf_add(&list, "\npatterns:\n");
        for (size_t i = 0; i < d->npatterns; i++) {
            char *err = NULL;
            char *one = designio_save_pattern(&d->patterns[i], &err);
            if (!one)
                fail_msg("%s: pattern %zu: %s", files[k], i + 1, err);
            assert_true(strncmp(one, "- ", 2) == 0);
            sbuf_add(&list, one);
            free(one);
        }
        const char *at = strstr(text, list.s);
        if (!at)
            fail_msg("%s: the patterns' lines are not the design's", files[k]);
        const char *after = at + list.len;
        assert_true(*after == '\0' || (*after != ' ' && *after != '-' && *after != '\n'));
        sbuf_free(&list);
        free(text);
        design_free(d);
    }
}

/* ---- the edit log -------------------------------------------------------------------------- */

static void test_splice_undo_redo_reopen(void **state)
{
    (void)state;
    char *p = ts_ws_file();
    ws_t *ws = ts_ws_open(p, WS_CREATE);
    const char *t0 = "alpha beta gamma\n";
    assert_int_equal(ws_working_set(ws, t0, 0, true, "start", NULL), KP_OK);
    /* beta -> BETA2 */
    assert_int_equal(ws_working_splice(ws, 6, 7, "beta", 4, "BETA2", 5, "edit 1", NULL), KP_OK);
    char *t1 = spliced(t0, 6, 7, "BETA2");
    expect_working(ws, t1);
    /* a second edit on that text: alpha -> a */
    assert_int_equal(ws_working_splice(ws, 0, strlen(t1) - 5, "alpha", 5, "a", 1, "edit 2", NULL), KP_OK);
    char *t2 = spliced(t1, 0, strlen(t1) - 5, "a");
    expect_working(ws, t2);
    assert_int_equal(scalar(p, "SELECT count(*) FROM edits"), 2);
    size_t nu = 0;
    assert_int_equal(ws_history_depth(ws, &nu, NULL, NULL), KP_OK);
    assert_int_equal(nu, 2);
    ws_close(ws);

    /* another process: the log is part of the working copy */
    ws = ts_ws_open(p, 0);
    expect_working(ws, t2);
    char *u = NULL;
    assert_int_equal(ws_undo(ws, &u, NULL, NULL), KP_OK);
    assert_string_equal(u, t1);
    free(u);
    assert_int_equal(ws_undo(ws, &u, NULL, NULL), KP_OK);
    assert_string_equal(u, t0);
    free(u);
    expect_working(ws, t0);
    assert_int_equal(scalar(p, "SELECT count(*) FROM edits"), 0); /* a whole save empties the log */
    assert_int_equal(ws_redo(ws, &u, NULL, NULL), KP_OK);
    assert_string_equal(u, t1);
    free(u);
    /* this handle saved nothing whole: it does not know the text, so it may not splice */
    assert_int_equal(ws_working_splice(ws, 0, 0, "", 0, "x", 1, NULL, NULL), KP_CONFLICT);
    expect_working(ws, t1);
    ws_close(ws);
    free(t1);
    free(t2);
    free(p);
}

static void test_splice_refused_when_changed_elsewhere(void **state)
{
    (void)state;
    char *p = ts_ws_file();
    ws_t *a = ts_ws_open(p, WS_CREATE), *b = ts_ws_open(p, 0);
    assert_int_equal(ws_set_author(a, "ana", NULL), KP_OK);
    assert_int_equal(ws_set_author(b, "ana", NULL), KP_OK);
    assert_int_equal(ws_working_set(a, "one two\n", 0, true, NULL, NULL), KP_OK);
    assert_int_equal(ws_working_set(b, "three four\n", 0, true, NULL, NULL), KP_OK);
    /* a's text is no longer the working copy: its edit would land on b's */
    char *err = NULL;
    assert_int_equal(ws_working_splice(a, 0, 4, "one", 3, "1", 1, NULL, &err), KP_CONFLICT);
    assert_non_null(strstr(err, "changed elsewhere"));
    free(err);
    expect_working(a, "three four\n");
    /* another author's copy is theirs: ben's splices do not touch ana's */
    assert_int_equal(ws_set_author(b, "ben", NULL), KP_OK);
    assert_int_equal(ws_working_set(b, "ben's\n", 0, true, NULL, NULL), KP_OK);
    assert_int_equal(ws_working_splice(b, 0, 3, "ben", 3, "BEN", 3, NULL, NULL), KP_OK);
    expect_working(b, "BEN's\n");
    expect_working(a, "three four\n");
    ws_close(a);
    ws_close(b);
    free(p);
}

static void test_log_folds(void **state)
{
    (void)state;
    char *p = ts_ws_file();
    ws_t *ws = ts_ws_open(p, WS_CREATE);
    assert_int_equal(ws_working_set(ws, "n=0\n", 0, true, NULL, NULL), KP_OK);
    char *t = xstrdup("n=0\n");
    for (int i = 1; i <= 200; i++) {
        char num[16];
        snprintf(num, sizeof num, "%d", i);
        size_t old = strlen(t) - 3; /* the digits between "n=" and "\n" */
        assert_int_equal(ws_working_splice(ws, 2, 1, t + 2, old, num, strlen(num), NULL, NULL), KP_OK);
        free(t);
        t = xasprintf("n=%s\n", num);
        assert_true(scalar(p, "SELECT count(*) FROM edits") < 64); /* the log stays short */
    }
    expect_working(ws, "n=200\n");
    assert_int_equal(ws_working_fold(ws, NULL), KP_OK);
    assert_int_equal(scalar(p, "SELECT count(*) FROM edits"), 0);
    expect_working(ws, "n=200\n");
    char *u = NULL;
    assert_int_equal(ws_undo(ws, &u, NULL, NULL), KP_OK);
    assert_string_equal(u, "n=199\n");
    free(u);
    ws_close(ws);
    free(t);
    free(p);
}

static void test_damaged_log_reported(void **state)
{
    (void)state;
    char *p = ts_ws_file();
    ws_t *ws = ts_ws_open(p, WS_CREATE);
    assert_int_equal(ws_working_set(ws, "short\n", 0, true, NULL, NULL), KP_OK);
    assert_int_equal(ws_working_splice(ws, 0, 1, "short", 5, "long", 4, NULL, NULL), KP_OK);
    ws_close(ws);
    exec_ok(p, "UPDATE edits SET prefix = 1000");
    ws = ts_ws_open(p, 0);
    char *t = NULL, *err = NULL;
    assert_int_equal(ws_working_get(ws, &t, NULL, &err), KP_DAMAGED);
    assert_null(t);
    assert_non_null(strstr(err, "do not fit"));
    free(err);
    ws_fsck_report r;
    assert_int_equal(ws_fsck(ws, &r, NULL), KP_OK);
    assert_non_null(r.working);
    assert_non_null(strstr(r.working, "do not fit"));
    ws_fsck_report_free(&r);
    ws_close(ws);
    free(p);
}

/* ---- the session saves a cell as lines ----------------------------------------------------- */

static void test_session_cell_edits_saved_as_lines(void **state)
{
    (void)state;
    char *p = ts_ws_file();
    session *s = NULL;
    assert_int_equal(session_open(p, &s, NULL, NULL), KP_OK);
    assert_int_equal(session_apply(s, load_ok("samples/cloudshop/design.yaml"), "open", NULL), KP_OK);
    const kp_design *d = session_design(s);
    int rate = edit_col_find(d, EDIT_PATTERNS, "rate"), name = edit_col_find(d, EDIT_PATTERNS, "name");
    assert_true(rate >= 0 && name >= 0);
    /* figures and names, a longer and a shorter line, the first and the last pattern, a name the
       emitter must quote */
    struct {
        size_t row;
        int col;
        const char *text;
    } steps[] = {
        {0, 0, "401"},
        {0, 1, "Get an order by its id, the longest name of them all so far"},
        {12, 0, "3.5"},
        {5, 1, "on"},
        {3, 1, "línea: DIRECCIÓN#casa"},
        {0, 1, "x"},
    };
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
        kp_design *nd = design_clone(session_design(s));
        assert_true(steps[i].row < nd->npatterns);
        char *err = NULL;
        if (edit_set(nd, EDIT_PATTERNS, steps[i].row, (size_t)(steps[i].col ? name : rate), steps[i].text,
                     &err) != KP_OK)
            fail_msg("step %zu: %s", i, err);
        assert_int_equal(session_apply(s, nd, "edit", NULL), KP_OK);
        char *want = designio_save(session_design(s), NULL), *got = NULL;
        assert_int_equal(ws_working_get(session_ws(s), &got, NULL, NULL), KP_OK);
        assert_string_equal(got, want); /* the canonical text, byte for byte */
        free(want);
        free(got);
    }
    assert_true(scalar(p, "SELECT count(*) FROM edits") > 0);
    /* every step was stored as the bytes it changed */
    assert_true(scalar(p, "SELECT max(length(CAST(design AS BLOB))) FROM edits") < 200);
    kp_design *last = design_clone(session_design(s));
    assert_int_equal(session_undo(s, NULL), KP_OK);
    kp_design *before = design_clone(session_design(s));
    session_idle(s);
    assert_int_equal(scalar(p, "SELECT count(*) FROM edits"), 0);
    session_close(s);

    /* reopened: the undone state, and the persisted history redoes the last edit */
    assert_int_equal(session_open(p, &s, NULL, NULL), KP_OK);
    assert_true(design_equal(session_design(s), before));
    assert_int_equal(session_redo(s, NULL), KP_OK);
    assert_true(design_equal(session_design(s), last));
    session_close(s);
    design_free(last);
    design_free(before);
    free(p);
}

/* ---- the upgrade from schema 3 -------------------------------------------------------------- */

static void test_migration_from_schema_3(void **state)
{
    (void)state;
    assert_int_equal(ws_schema_version(), 4);
    char *p = ts_ws_file();
    ws_t *ws = ts_ws_open(p, WS_CREATE);
    assert_int_equal(ws_working_set(ws, "first\n", 0, true, NULL, NULL), KP_OK);
    assert_int_equal(ws_working_set(ws, "second\n", 0, true, "edit", NULL), KP_OK);
    ws_close(ws);
    /* the file as schema 3 left it */
    exec_ok(p, "DROP TABLE edits; ALTER TABLE copies DROP COLUMN stamp; PRAGMA user_version = 3;");
    ws = ts_ws_open(p, 0);
    expect_working(ws, "second\n");
    assert_int_equal(scalar(p, "PRAGMA user_version"), 4);
    assert_int_equal(ws_working_set(ws, "third\n", 0, true, "edit", NULL), KP_OK);
    assert_int_equal(ws_working_splice(ws, 0, 1, "third", 5, "3rd", 3, "edit", NULL), KP_OK);
    expect_working(ws, "3rd\n");
    char *u = NULL;
    assert_int_equal(ws_undo(ws, &u, NULL, NULL), KP_OK);
    assert_string_equal(u, "third\n");
    free(u);
    assert_int_equal(ws_undo(ws, &u, NULL, NULL), KP_OK);
    assert_string_equal(u, "second\n");
    free(u);
    assert_int_equal(ws_undo(ws, &u, NULL, NULL), KP_OK);
    assert_string_equal(u, "first\n");
    free(u);
    ws_close(ws);
    free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pattern_lines_are_the_designs),
        cmocka_unit_test(test_splice_undo_redo_reopen),
        cmocka_unit_test(test_splice_refused_when_changed_elsewhere),
        cmocka_unit_test(test_log_folds),
        cmocka_unit_test(test_damaged_log_reported),
        cmocka_unit_test(test_session_cell_edits_saved_as_lines),
        cmocka_unit_test(test_migration_from_schema_3),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
