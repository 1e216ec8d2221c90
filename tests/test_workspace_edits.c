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
#include "validate.h"
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

/* The text the workspace holds is designio_save's of the session's design. */
static void expect_saved(session *s)
{
    char *want = designio_save(session_design(s), NULL), *got = NULL;
    assert_int_equal(ws_working_get(session_ws(s), &got, NULL, NULL), KP_OK);
    assert_string_equal(got, want);
    free(want);
    free(got);
}

/* Each pattern's YAML, one after the other, is exactly the design's list of patterns, at the
 * place the list has in the whole text, up to the next top-level key; each entity's the same. */
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
        for (int e = 0; e < 2; e++) { /* the patterns, then the entities */
            sbuf list;
            sbuf_init(&list);
            sbuf_add(&list, e ? "\nentities:\n" : "\npatterns:\n");
            for (size_t i = 0; i < (e ? d->nentities : d->npatterns); i++) {
                char *err = NULL;
                char *one = e ? designio_save_entity(&d->entities[i], &err)
                              : designio_save_pattern(&d->patterns[i], &err);
                if (!one)
                    fail_msg("%s: %s %zu: %s", files[k], e ? "entity" : "pattern", i + 1, err);
                assert_true(strncmp(one, "- ", 2) == 0);
                sbuf_add(&list, one);
                free(one);
            }
            const char *at = strstr(text, list.s);
            if (!at)
                fail_msg("%s: the %s' lines are not the design's", files[k], e ? "entities" : "patterns");
            const char *after = at + list.len;
            assert_true(*after == '\0' || (*after != ' ' && *after != '-' && *after != '\n'));
            sbuf_free(&list);
        }
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
    char *u = NULL, *v = NULL;
    assert_int_equal(ws_undo(ws, &u, NULL, NULL), KP_OK);
    assert_string_equal(u, t1);
    free(u);
    assert_int_equal(ws_undo(ws, &u, NULL, NULL), KP_OK);
    assert_string_equal(u, t0);
    free(u);
    expect_working(ws, t0);
    /* each undo is a row of the log too (the bytes it changes), not the whole text written again */
    assert_int_equal(scalar(p, "SELECT count(*) FROM edits"), 4);
    assert_int_equal(ws_redo(ws, &u, NULL, NULL), KP_OK);
    assert_string_equal(u, t1);
    free(u);
    /* the handle handed the text back: it knows it, and may splice on it */
    assert_int_equal(ws_working_splice(ws, 0, strlen(t1), "", 0, "x", 1, "edit 3", NULL), KP_OK);
    char *t3 = spliced(t1, 0, strlen(t1), "x");
    expect_working(ws, t3);
    /* undone and redone by a caller that holds the text: the same texts, the log not read */
    assert_int_equal(ws_step_text(ws, true, t3, &u, NULL, NULL), KP_OK);
    assert_string_equal(u, t1);
    assert_int_equal(ws_step_text(ws, false, u, &v, NULL, NULL), KP_OK);
    assert_string_equal(v, t3);
    free(u);
    free(v);
    expect_working(ws, t3);
    /* a step whose text the caller did not take: the handle does not know it, so it may not
       splice */
    assert_int_equal(ws_undo(ws, NULL, NULL, NULL), KP_OK);
    assert_int_equal(ws_working_splice(ws, 0, 0, "", 0, "x", 1, NULL, NULL), KP_CONFLICT);
    expect_working(ws, t1);
    ws_close(ws);
    /* reopened: the same text, its log read */
    ws = ts_ws_open(p, 0);
    expect_working(ws, t1);
    assert_int_equal(ws_redo(ws, &u, NULL, NULL), KP_OK);
    assert_string_equal(u, t3);
    free(u);
    ws_close(ws);
    free(t3);
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

/* A fold with the text the caller holds stores that text (the log not read) while the handle knows
 * the working copy; when another handle saved it meanwhile, the log is folded as it is and the
 * caller's text is not stored. */
static void test_fold_with_text(void **state)
{
    (void)state;
    char *p = ts_ws_file();
    ws_t *a = ts_ws_open(p, WS_CREATE), *b = ts_ws_open(p, 0);
    assert_int_equal(ws_working_set(a, "one two\n", 0, true, NULL, NULL), KP_OK);
    assert_int_equal(ws_working_splice(a, 0, 4, "one", 3, "1", 1, NULL, NULL), KP_OK);
    assert_int_equal(scalar(p, "SELECT count(*) FROM edits"), 1);
    assert_int_equal(ws_working_fold_text(a, "1 two\n", NULL), KP_OK);
    assert_int_equal(scalar(p, "SELECT count(*) FROM edits"), 0);
    expect_working(b, "1 two\n");
    /* nothing to fold: nothing stored */
    assert_int_equal(ws_working_fold_text(a, "not the text\n", NULL), KP_OK);
    expect_working(b, "1 two\n");
    /* b saves meanwhile: a's text is not the working copy any more */
    assert_int_equal(ws_working_splice(b, 0, 5, "1", 1, "uno", 3, NULL, NULL), KP_OK);
    assert_int_equal(ws_working_fold_text(a, "1 two\n", NULL), KP_OK);
    assert_int_equal(scalar(p, "SELECT count(*) FROM edits"), 0);
    expect_working(a, "uno two\n");
    ws_close(a);
    ws_close(b);
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

/* A session on the workspace at p (created) whose working copy is CloudShop. */
static session *cloudshop_session(const char *p)
{
    session *s = NULL;
    assert_int_equal(session_open(p, &s, NULL, NULL), KP_OK);
    assert_int_equal(session_apply(s, load_ok("samples/cloudshop/design.yaml"), "open", NULL), KP_OK);
    return s;
}

/* ---- the session saves a cell as lines ----------------------------------------------------- */

static void test_session_cell_edits_saved_as_lines(void **state)
{
    (void)state;
    char *p = ts_ws_file();
    session *s = cloudshop_session(p);
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

/* The row steps made in place (session_pattern_rows) are saved as the lines they move: a
 * deleted pattern's cut, an added or duplicated one's written, a moved one's put at its place;
 * the workspace holds designio_save's text after each, each step is stored as those bytes, and
 * undo, redo and reopening bring back the designs of the whole path. */
static void test_session_row_steps_saved_as_lines(void **state)
{
    (void)state;
    char *p = ts_ws_file();
    session *s = cloudshop_session(p);
    size_t n0 = session_design(s)->npatterns;
    struct {
        session_rowcmd cmd;
        size_t row;
        kp_rowop_kind kind;
        size_t at; /* op.row, or where a move went */
    } steps[] = {
        {SESSION_ROW_DELETE, 3, KP_ROW_REMOVE, 3},
        {SESSION_ROW_DUPLICATE, 0, KP_ROW_INSERT, 1},
        {SESSION_ROW_DOWN, 1, KP_ROW_MOVE, 2},
        {SESSION_ROW_UP, 5, KP_ROW_MOVE, 4},
        {SESSION_ROW_ADD, 99, KP_ROW_INSERT, n0},
        {SESSION_ROW_DELETE, 0, KP_ROW_REMOVE, 0},
        {SESSION_ROW_DELETE, n0 - 1, KP_ROW_REMOVE, n0 - 1}, /* the last one */
    };
    kp_design *seen[8];
    seen[0] = design_clone(session_design(s));
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
        kp_design *want = design_clone(session_design(s));
        const kp_design *before = session_design(s);
        if (steps[i].cmd == SESSION_ROW_DELETE)
            edit_delete(want, EDIT_PATTERNS, steps[i].row);
        else if (steps[i].cmd == SESSION_ROW_DUPLICATE)
            edit_duplicate(want, EDIT_PATTERNS, steps[i].row);
        else if (steps[i].cmd == SESSION_ROW_ADD)
            edit_add(want, EDIT_PATTERNS, steps[i].row);
        else
            edit_move(want, EDIT_PATTERNS, steps[i].row, steps[i].cmd == SESSION_ROW_UP ? -1 : 1);
        kp_rowop op;
        char *err = NULL;
        assert_int_equal(session_pattern_rows(s, steps[i].cmd, steps[i].row, "rows", &op, &err), KP_OK);
        assert_null(err);
        assert_ptr_equal(session_design(s), before); /* in place */
        assert_int_equal(op.kind, steps[i].kind);
        assert_int_equal(op.kind == KP_ROW_MOVE ? op.to : op.row, steps[i].at);
        assert_true(design_equal(session_design(s), want));
        char *text = designio_save(want, NULL), *got = NULL;
        assert_int_equal(ws_working_get(session_ws(s), &got, NULL, NULL), KP_OK);
        assert_string_equal(got, text);
        free(text);
        free(got);
        seen[i + 1] = want;
    }
    /* each step stored as the lines it moved, not the design (a few kilobytes) */
    assert_true(scalar(p, "SELECT count(*) FROM edits") >= 6);
    assert_true(scalar(p, "SELECT max(length(CAST(design AS BLOB))) FROM edits") < 1200);
    /* a step that does not apply changes nothing */
    kp_rowop op;
    size_t depth = session_undo_depth(s);
    assert_int_equal(session_pattern_rows(s, SESSION_ROW_UP, 0, "rows", &op, NULL), KP_NOTFOUND);
    assert_int_equal(session_pattern_rows(s, SESSION_ROW_DELETE, 999, "rows", &op, NULL), KP_NOTFOUND);
    assert_int_equal(session_undo_depth(s), depth);
    /* a move past an equal pattern changes nothing: no step, here or in the workspace */
    kp_design *twin = design_clone(session_design(s));
    assert_int_equal(edit_duplicate(twin, EDIT_PATTERNS, 0), 1);
    free(twin->patterns[1].id);
    twin->patterns[1].id = xstrdup(twin->patterns[0].id);
    assert_int_equal(session_apply(s, twin, "twin", NULL), KP_OK);
    depth = session_undo_depth(s);
    kp_design *same = design_clone(session_design(s));
    assert_int_equal(session_pattern_rows(s, SESSION_ROW_DOWN, 0, "rows", &op, NULL), KP_OK);
    assert_int_equal(op.kind, KP_ROW_MOVE);
    assert_int_equal(session_undo_depth(s), depth);
    assert_true(design_equal(session_design(s), same));
    design_free(same);
    assert_int_equal(session_undo(s, NULL), KP_OK); /* the twin taken back */
    /* undone one by one: each earlier design, told as the inverse step; then all redone */
    size_t nsteps = sizeof steps / sizeof *steps;
    for (size_t i = nsteps; i-- > 0;) {
        assert_int_equal(session_undo(s, NULL), KP_OK);
        assert_true(design_equal(session_design(s), seen[i]));
        assert_true(session_last_step_rows(s, &op));
        assert_int_equal(op.kind, steps[i].kind == KP_ROW_INSERT   ? KP_ROW_REMOVE
                                  : steps[i].kind == KP_ROW_REMOVE ? KP_ROW_INSERT
                                                                   : KP_ROW_MOVE);
    }
    for (size_t i = 0; i < nsteps; i++) {
        assert_int_equal(session_redo(s, NULL), KP_OK);
        assert_true(design_equal(session_design(s), seen[i + 1]));
        assert_true(session_last_step_rows(s, &op));
        assert_int_equal(op.kind, steps[i].kind);
    }
    size_t row = 0;
    assert_false(session_last_step_row(s, &row));
    char *text = designio_save(session_design(s), NULL), *got = NULL;
    assert_int_equal(ws_working_get(session_ws(s), &got, NULL, NULL), KP_OK);
    assert_string_equal(got, text);
    free(text);
    free(got);
    /* back to CloudShop (valid: it loads again), a step after those undos (the text written whole
       then), and reopening: the persisted history */
    for (size_t i = 0; i < nsteps; i++)
        assert_int_equal(session_undo(s, NULL), KP_OK);
    assert_true(design_equal(session_design(s), seen[0]));
    assert_int_equal(session_pattern_rows(s, SESSION_ROW_DUPLICATE, n0 - 1, "rows", &op, NULL), KP_OK);
    kp_design *last = design_clone(session_design(s));
    session_close(s);
    assert_int_equal(session_open(p, &s, NULL, NULL), KP_OK);
    assert_null(session_note(s));
    assert_true(design_equal(session_design(s), last));
    assert_int_equal(session_undo(s, NULL), KP_OK);
    assert_true(design_equal(session_design(s), seen[0]));
    assert_false(session_last_step_rows(s, &op)); /* a step of an earlier session: a whole design */
    session_close(s);
    design_free(last);
    for (size_t i = 0; i <= nsteps; i++)
        design_free(seen[i]);
    free(p);
}

/* A change that changes nothing (a figure typed as it was, "100" for 100.0) is no step: the
 * workspace stores none, so the session must not either, else its undo takes back a step the
 * workspace's undo does not (the working copy and the screen then differ, and reopening loses
 * an edit). */
static void test_no_change_is_no_step(void **state)
{
    (void)state;
    char *p = ts_ws_file();
    session *s = cloudshop_session(p);
    int rate = edit_col_find(session_design(s), EDIT_PATTERNS, "rate");
    bool applied = false;
    assert_int_equal(session_edit_set(s, EDIT_PATTERNS, 0, (size_t)rate, "123", "edit", &applied, NULL),
                     KP_OK);
    assert_true(applied);
    kp_design *edited = design_clone(session_design(s));
    size_t depth = session_undo_depth(s);
    /* the same value again, in place and as a whole design */
    assert_int_equal(session_edit_set(s, EDIT_PATTERNS, 0, (size_t)rate, "123.0", "edit", &applied, NULL),
                     KP_OK);
    assert_true(applied);
    assert_int_equal(session_apply(s, design_clone(edited), "again", NULL), KP_OK);
    assert_int_equal(session_undo_depth(s), depth);
    /* undo takes back the edit, on screen and in the workspace alike */
    assert_int_equal(session_undo(s, NULL), KP_OK);
    assert_false(design_equal(session_design(s), edited));
    char *want = designio_save(session_design(s), NULL);
    ws_t *other = ts_ws_open(p, 0);
    expect_working(other, want);
    ws_close(other);
    free(want);
    session_close(s);
    design_free(edited);
    free(p);
}

/* ---- random edits: in place equals a whole save -------------------------------------------- */

/* A small deterministic generator (the seed is printed with a failure). */
static unsigned next_rand(unsigned *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    return (*seed >> 16) & 0x7fff;
}

/* The text a cell is set to: another row's value of that column (mostly valid), a number, a word,
 * nothing, or text no column takes; a key attribute's cell (an index's, the table's) is given a
 * new name one time in three (a rename, which the templates keyed on it follow). Caller frees. */
static char *random_text(const kp_design *d, edit_table t, size_t row, size_t col, unsigned *seed)
{
    if (edit_changes_keys_only(t, row, col) && next_rand(seed) % 3 == 0)
        return xasprintf(next_rand(seed) % 2 ? "CLAVE_%u" : "línea_%u", next_rand(seed) % 50);
    unsigned k = next_rand(seed) % 10, nr = (unsigned)edit_nrows(d, t);
    if (k < 6 && nr)
        return edit_get(d, t, next_rand(seed) % nr, col);
    if (k < 8)
        return xasprintf("%u", next_rand(seed) % 5000);
    if (k == 8)
        return xstrdup(next_rand(seed) % 2 ? "línea" : "");
    return xstrdup("-1, [bad");
}

/* The design a step of ref_hist brings back: history of whole designs, as the session had before
 * it edited a pattern in place. */
typedef struct ref_hist {
    kp_design **v;
    size_t n, cap, at; /* v[at] is the current design; v[at+1..n) can be redone */
} ref_hist;

static void ref_push(ref_hist *h, kp_design *d)
{
    for (size_t i = h->at + 1; i < h->n; i++)
        design_free(h->v[i]);
    h->n = h->n ? h->at + 1 : 0;
    VEC_GROW(h->v, h->n, h->cap);
    h->v[h->n++] = d;
    h->at = h->n - 1;
}

/* A random sequence of cell edits (a pattern's in place; an entity's on a copy), row changes (as
 * whole designs or in place: session_pattern_rows), undo, redo, folds and reopening: after each step the session's design equals the one the
 * whole-design path reaches, and the workspace holds exactly designio_save's text of it. */
static void test_random_edits_equal_whole_saves(void **state)
{
    (void)state;
    unsigned seed = 20261202u;
    char *p = ts_ws_file();
    session *s = NULL;
    assert_int_equal(session_open(p, &s, NULL, NULL), KP_OK);
    kp_design *d0 = load_ok("samples/cloudshop/design.yaml");
    ref_hist h = {0};
    ref_push(&h, design_clone(d0));
    assert_int_equal(session_apply(s, d0, "open", NULL), KP_OK);
    bool reopened = false; /* the history before the last reopening is the workspace's only */
    size_t in_place = 0, undone = 0, rows_in_place = 0, ents_in_place = 0, elems_in_place = 0,
           keys_in_place = 0;
    for (int stepno = 0; stepno < 600; stepno++) {
        const kp_design *ref = h.v[h.at];
        unsigned op = next_rand(&seed) % 100;
        if (op < 68) {
            /* mostly patterns; then an entity's cells, and the other tables (their edits leave the
               patterns as they were, or rename what they name) */
            static const edit_table others[] = {EDIT_ENTITIES, EDIT_KEYS,    EDIT_ENTITIES, EDIT_KEYS,
                                                EDIT_ATTRS,    EDIT_INDEXES, EDIT_SETTINGS, EDIT_DECISIONS};
            edit_table t = (op >= 56 && ref->nentities) || !ref->npatterns ? others[op % 8] : EDIT_PATTERNS;
            if (op >= 66 && ref->nentities) /* a key attribute's cell: an index's or the table's */
                t = ref->nindexes && next_rand(&seed) % 3 ? EDIT_INDEXES : EDIT_SETTINGS;
            size_t nr = edit_nrows(ref, t), nc = edit_ncols(ref, t);
            if (!nr)
                continue;
            size_t row = next_rand(&seed) % nr, col = next_rand(&seed) % nc;
            for (size_t k = 0; op >= 66 && k < nr * nc && !edit_changes_keys_only(t, row, col); k++)
                if (++col == nc) { /* the next cell, row after row */
                    col = 0;
                    row = (row + 1) % nr;
                }
            char *text = random_text(ref, t, row, col, &seed);
            kp_design *want = design_clone(ref);
            char *werr = NULL, *gerr = NULL;
            kp_status ws = edit_set(want, t, row, col, text, &werr);
            bool applied = false,
                 ent = (t == EDIT_ENTITIES || t == EDIT_KEYS) && edit_changes_row_only(ref, t, col);
            kp_status gs = session_edit_set(s, t, row, col, text, "edit", &applied, &gerr);
            if (applied != (ws == KP_OK) || (!applied && gs != ws) || (applied && gs != KP_OK))
                fail_msg("step %d (seed %u): %s row %zu col %zu \"%s\": edit_set %d, session %d (%s)", stepno,
                         seed, edit_table_name(t), row, col, text, ws, gs, gerr ? gerr : "");
            if (!applied)
                assert_string_equal(gerr, werr);
            free(werr);
            free(gerr);
            free(text);
            if (applied && !design_equal(want, ref)) { /* a change that changes nothing is no step */
                ref_push(&h, want);
                in_place += edit_changes_pattern_only(t, col);
                ents_in_place += ent;
                keys_in_place += edit_changes_keys_only(t, row, col);
            } else {
                design_free(want);
            }
        } else if (op < 79) {
            /* a row step, mostly of the patterns, else of another list: as a whole design
               (session_apply) or in place (session_rows) */
            static const edit_table lists[] = {EDIT_ENTITIES, EDIT_INDEXES, EDIT_ATTRS, EDIT_DECISIONS,
                                               EDIT_KEYS};
            edit_table t = next_rand(&seed) % 3 ? EDIT_PATTERNS : lists[next_rand(&seed) % 5];
            kp_design *nd = design_clone(ref);
            size_t nr = edit_nrows(nd, t), row = nr ? next_rand(&seed) % nr : 0;
            session_rowcmd cmd = SESSION_ROW_ADD;
            bool made = true;
            switch (next_rand(&seed) % 4) {
            case 0:
                made = edit_add(nd, t, row) != (size_t)-1; /* none on the Keys table */
                break;
            case 1:
                cmd = SESSION_ROW_DELETE;
                if (nr > 1)
                    edit_delete(nd, t, row);
                break;
            case 2:
                cmd = SESSION_ROW_DUPLICATE;
                made = nr && edit_duplicate(nd, t, row) != (size_t)-1;
                break;
            default:
                cmd = row ? SESSION_ROW_UP : SESSION_ROW_DOWN;
                made = nr > 1 && edit_move(nd, t, row, row ? -1 : 1);
            }
            if (!made) { /* the session refuses it too, nothing changed */
                design_free(nd);
                kp_rowop rop;
                assert_int_equal(session_rows(s, t, cmd, row, "rows", &rop, NULL), KP_NOTFOUND);
                goto compare;
            }
            bool changes = !design_equal(nd, ref);
            if (changes)
                ref_push(&h, design_clone(nd));
            if (next_rand(&seed) % 2 || (cmd == SESSION_ROW_DELETE && nr <= 1) || !changes) {
                assert_int_equal(session_apply(s, nd, "rows", NULL), KP_OK);
            } else {
                design_free(nd);
                kp_rowop rop;
                assert_int_equal(session_rows(s, t, cmd, row, "rows", &rop, NULL), KP_OK);
                assert_int_equal(rop.kind, cmd == SESSION_ROW_DELETE ? KP_ROW_REMOVE
                                           : cmd == SESSION_ROW_UP || cmd == SESSION_ROW_DOWN
                                               ? KP_ROW_MOVE
                                               : KP_ROW_INSERT);
                rows_in_place += t == EDIT_PATTERNS;
                elems_in_place += t != EDIT_PATTERNS;
            }
        } else if (op < 86) {
            if (h.at == 0)
                continue;
            assert_int_equal(session_undo(s, NULL), KP_OK);
            h.at--;
            undone++;
        } else if (op < 94) {
            if (h.at + 1 >= h.n)
                continue;
            assert_int_equal(session_redo(s, NULL), KP_OK);
            h.at++;
        } else if (op < 97) {
            session_idle(s);
        } else {
            kp_diags dg;
            diags_init(&dg, NULL);
            bool valid = validate_design(ref, &dg);
            diags_free(&dg);
            if (!valid) {
                /* a working copy that does not validate opens as the version instead: another
                   handle reads the text (the edit log applied) */
                ws_t *other = ts_ws_open(p, 0);
                char *want = designio_save(ref, NULL);
                expect_working(other, want);
                free(want);
                ws_close(other);
                reopened = true;
                continue;
            }
            session_close(s);
            assert_int_equal(session_open(p, &s, NULL, NULL), KP_OK);
            if (session_note(s))
                fail_msg("step %d: reopened: %s", stepno, session_note(s));
            /* the steps before stay in the workspace; this test follows the ones after */
            kp_design *cur = design_clone(h.v[h.at]);
            for (size_t i = 0; i < h.n; i++)
                design_free(h.v[i]);
            h.n = h.at = 0;
            ref_push(&h, cur);
            reopened = true;
        }
    compare:
        ref = h.v[h.at];
        if (!design_equal(session_design(s), ref))
            fail_msg("step %d (op %u): the session's design is not the whole path's", stepno, op);
        char *want = designio_save(ref, NULL), *got = NULL;
        assert_int_equal(ws_working_get(session_ws(s), &got, NULL, NULL), KP_OK);
        if (strcmp(got, want) != 0)
            fail_msg("step %d (op %u): the saved text is not designio_save's", stepno, op);
        free(want);
        free(got);
    }
    assert_true(reopened);
    if (!(in_place >= 50 && undone >= 10 && rows_in_place >= 10 && ents_in_place >= 10 &&
          elems_in_place >= 5 && keys_in_place >= 6))
        fail_msg(
            "in place %zu, undone %zu, rows in place %zu, entities in place %zu, other rows in place %zu, "
            "key attributes renamed %zu",
            in_place, undone, rows_in_place, ents_in_place, elems_in_place, keys_in_place);
    session_close(s);
    for (size_t i = 0; i < h.n; i++)
        design_free(h.v[i]);
    free(h.v);
    free(p);
}

/* Rows of the other lists (entities, indexes, attributes, decisions) added, duplicated, moved and
 * deleted in place (session_rows): the design's pointer stays, each step gives what the edit on a
 * copy gives and is saved as designio_save's text; undone and redone, every step brings back the
 * design before and after it, saved the same; the workspace holds the last; and one not to make (a move
 * past an end, a row out of range, a row added on the Keys table, the settings) makes none. */
static void test_session_element_rows(void **state)
{
    (void)state;
    char *p = ts_ws_file();
    session *s = cloudshop_session(p);
    static const edit_table lists[] = {EDIT_ENTITIES, EDIT_INDEXES, EDIT_ATTRS, EDIT_DECISIONS, EDIT_KEYS};
    static const session_rowcmd cmds[] = {SESSION_ROW_DUPLICATE, SESSION_ROW_DOWN, SESSION_ROW_ADD,
                                          SESSION_ROW_UP, SESSION_ROW_DELETE};
    enum { NSTEPS = 5 * 5 };
    kp_design *seen[NSTEPS + 1];
    size_t n = 0;
    seen[n++] = design_clone(session_design(s));
    const kp_design *same = session_design(s);
    for (size_t l = 0; l < sizeof lists / sizeof *lists; l++)
        for (size_t c = 0; c < sizeof cmds / sizeof *cmds; c++) {
            edit_table t = lists[l];
            session_rowcmd cmd = cmds[c];
            kp_design *want = design_clone(session_design(s));
            size_t row = 1, at = (size_t)-1;
            switch (cmd) {
            case SESSION_ROW_ADD:
                at = edit_add(want, t, row);
                break;
            case SESSION_ROW_DUPLICATE:
                at = edit_duplicate(want, t, row);
                break;
            case SESSION_ROW_DELETE:
                at = edit_delete(want, t, row) ? row : (size_t)-1;
                break;
            default:
                at = edit_move(want, t, row, cmd == SESSION_ROW_UP ? -1 : 1) ? row : (size_t)-1;
            }
            kp_rowop op;
            char *err = NULL;
            kp_status st = session_rows(s, t, cmd, row, "rows", &op, &err);
            assert_null(err);
            assert_ptr_equal(session_design(s), same);
            if (at == (size_t)-1) { /* a row added on the Keys table: none */
                assert_int_equal(st, KP_NOTFOUND);
                assert_true(t == EDIT_KEYS && cmd == SESSION_ROW_ADD);
                design_free(want);
                continue;
            }
            assert_int_equal(st, KP_OK);
            assert_int_equal(op.kind, cmd == SESSION_ROW_DELETE                          ? KP_ROW_REMOVE
                                      : cmd == SESSION_ROW_UP || cmd == SESSION_ROW_DOWN ? KP_ROW_MOVE
                                                                                         : KP_ROW_INSERT);
            assert_true(design_equal(session_design(s), want));
            expect_saved(s);
            seen[n++] = want;
        }
    kp_rowop op;
    assert_int_equal(session_rows(s, EDIT_INDEXES, SESSION_ROW_UP, 0, "rows", &op, NULL), KP_NOTFOUND);
    assert_int_equal(session_rows(s, EDIT_ATTRS, SESSION_ROW_DELETE, 999, "rows", &op, NULL), KP_NOTFOUND);
    assert_int_equal(session_rows(s, EDIT_SETTINGS, SESSION_ROW_DELETE, 0, "rows", &op, NULL), KP_NOTFOUND);
    assert_true(design_equal(session_design(s), seen[n - 1]));
    for (size_t i = n - 1; i-- > 0;) {
        assert_int_equal(session_undo(s, NULL), KP_OK);
        assert_false(session_last_step_rows(s, &op)); /* the pattern list's steps alone */
        assert_true(design_equal(session_design(s), seen[i]));
        expect_saved(s);
    }
    for (size_t i = 1; i < n; i++) {
        assert_int_equal(session_redo(s, NULL), KP_OK);
        assert_true(design_equal(session_design(s), seen[i]));
        expect_saved(s);
    }
    session_close(s);
    /* another handle reads the working copy (it does not validate: a session would open the
       version and keep this text aside) */
    ws_t *other = ts_ws_open(p, 0);
    char *want = designio_save(seen[n - 1], NULL);
    expect_working(other, want);
    free(want);
    ws_close(other);
    for (size_t i = 0; i < n; i++)
        design_free(seen[i]);
    free(p);
}

/* ---- the upgrade from schema 3 -------------------------------------------------------------- */

/* Memory keeps at most 32 whole designs when a workspace keeps the history: undoing further reads
 * the steps back from the workspace, in order, and redo comes all the way back. */
static void test_undo_in_memory_capped(void **state)
{
    (void)state;
    char *p = ts_ws_file();
    session *s = cloudshop_session(p);
    char *original = xstrdup(session_design(s)->entities[0].description);
    enum { STEPS = 45 };
    char name[32];
    for (int i = 1; i <= STEPS; i++) {
        kp_design *d = design_clone(session_design(s)); /* a change of the model: a whole design */
        free(d->entities[0].description);
        snprintf(name, sizeof name, "step %d", i);
        d->entities[0].description = xstrdup(name);
        assert_int_equal(session_apply(s, d, "describe", NULL), KP_OK);
    }
    assert_int_equal(session_undo_depth(s), 32);
    size_t nundo = 0;
    assert_int_equal(ws_history_depth(session_ws(s), &nundo, NULL, NULL), KP_OK);
    assert_int_equal(nundo,
                     STEPS); /* the state before each step (a new workspace stores none before "open") */
    for (int i = STEPS - 1; i >= 0; i--) {
        assert_int_equal(session_undo(s, NULL), KP_OK);
        snprintf(name, sizeof name, "step %d", i);
        assert_string_equal(session_design(s)->entities[0].description, i ? name : original);
    }
    /* the redo stack is capped in turn, and brings every step back */
    for (int i = 1; i <= STEPS; i++) {
        assert_int_equal(session_redo(s, NULL), KP_OK);
        snprintf(name, sizeof name, "step %d", i);
        assert_string_equal(session_design(s)->entities[0].description, name);
        assert_true(session_undo_depth(s) <= 32);
    }
    assert_int_equal(session_redo(s, NULL), KP_NOTFOUND);
    /* :compact keeps as many in memory as in the workspace */
    long long freed = 0;
    assert_int_equal(session_compact(s, 3, &freed, NULL), KP_OK);
    assert_int_equal(session_undo_depth(s), 3);
    for (int i = STEPS - 1; i >= STEPS - 3; i--) {
        assert_int_equal(session_undo(s, NULL), KP_OK);
        snprintf(name, sizeof name, "step %d", i);
        assert_string_equal(session_design(s)->entities[0].description, name);
    }
    char *err = NULL;
    assert_int_equal(session_undo(s, &err), KP_NOTFOUND);
    free(err);
    session_close(s);
    free(original);
    free(p);
}

/* A change of the design's rest alone (its name, a setting) is an undo step holding the other
 * rest, not a copy of the design: memory keeps every such step (no whole design among them),
 * undo and redo bring the names back in order, the workspace holds each state, and reopened its
 * history undoes them too. */
static void test_undo_rest_steps(void **state)
{
    (void)state;
    char *p = ts_ws_file();
    session *s = cloudshop_session(p);
    char *original = xstrdup(session_design(s)->name);
    kp_design *model = design_clone(session_design(s));
    enum { STEPS = 40 };
    char name[32];
    for (int i = 1; i <= STEPS; i++) {
        kp_design *d = design_clone(session_design(s));
        free(d->name);
        snprintf(name, sizeof name, "step %d", i);
        d->name = xstrdup(name);
        d->table.billing = i % 2 ? KP_BILLING_PROVISIONED : KP_BILLING_ON_DEMAND;
        const kp_design *before = session_design(s);
        assert_int_equal(session_apply(s, d, "rename", NULL), KP_OK);
        assert_ptr_equal(session_design(s), before); /* changed in place */
        expect_saved(s);
    }
    assert_int_equal(session_undo_depth(s), STEPS + 1); /* past 32: none is a whole design */
    for (int i = STEPS - 1; i >= 0; i--) {
        assert_int_equal(session_undo(s, NULL), KP_OK);
        snprintf(name, sizeof name, "step %d", i);
        assert_string_equal(session_design(s)->name, i ? name : original);
        assert_true(design_same_model(session_design(s), model));
    }
    for (int i = 1; i <= STEPS / 2; i++)
        assert_int_equal(session_redo(s, NULL), KP_OK);
    snprintf(name, sizeof name, "step %d", STEPS / 2);
    assert_string_equal(session_design(s)->name, name);
    kp_design *now = design_clone(session_design(s));
    session_close(s);
    /* reopened: the same design, and the persisted history takes it back one step */
    assert_int_equal(session_open(p, &s, NULL, NULL), KP_OK);
    assert_true(design_equal(session_design(s), now));
    assert_int_equal(session_undo(s, NULL), KP_OK);
    snprintf(name, sizeof name, "step %d", STEPS / 2 - 1);
    assert_string_equal(session_design(s)->name, name);
    session_close(s);
    design_free(now);
    design_free(model);
    free(original);
    free(p);
}

/* Whether the last undo or redo exchanged one entity's value alone, *row its row. */
static bool last_step_entity(const session *s, size_t *row)
{
    edit_table t = EDIT_SETTINGS;
    size_t r = 0;
    bool ent = session_last_step_element(s, &t, &r) && (t == EDIT_ENTITIES || t == EDIT_KEYS);
    if (ent)
        *row = r;
    return ent;
}

/* A cell of one entity (its count, a key template) is edited in place: the design is the same
 * object, the undo step holds that entity alone (40 of them, past the 32 whole designs memory
 * keeps, all stay), undo and redo say which entity they exchanged, the working copy is saved
 * whole each time, and a reopened session's history takes the last one back. */
static void test_entity_steps_in_place(void **state)
{
    (void)state;
    char *p = ts_ws_file();
    session *s = cloudshop_session(p);
    const kp_design *d = session_design(s);
    int count = edit_col_find(d, EDIT_ENTITIES, "count");
    assert_true(count >= 0 && d->nentities > 1);
    assert_true(edit_changes_row_only(d, EDIT_ENTITIES, (size_t)count));
    assert_false(edit_changes_row_only(d, EDIT_ENTITIES, (size_t)edit_col_find(d, EDIT_ENTITIES, "name")));
    assert_false(edit_changes_row_only(d, EDIT_KEYS, 0));
    assert_true(edit_changes_row_only(d, EDIT_KEYS, 1));
    assert_false(edit_changes_row_only(d, EDIT_KEYS, edit_ncols(d, EDIT_KEYS)));
    double was = d->entities[1].count;
    enum { STEPS = 40 };
    char text[32];
    for (int i = 1; i <= STEPS; i++) {
        bool applied = false;
        snprintf(text, sizeof text, "%d", 1000 + i);
        assert_int_equal(session_edit_set(s, EDIT_ENTITIES, 1, (size_t)count, text, "count", &applied, NULL),
                         KP_OK);
        assert_true(applied);
        assert_ptr_equal(session_design(s), d); /* in place */
        assert_true(d->entities[1].count == 1000 + i);
        char *want = designio_save(d, NULL), *got = NULL;
        assert_int_equal(ws_working_get(session_ws(s), &got, NULL, NULL), KP_OK);
        assert_string_equal(got, want);
        free(want);
        free(got);
    }
    assert_int_equal(session_undo_depth(s), STEPS + 1); /* none is a whole design */
    /* a key template of the same entity: the Keys table's cell */
    bool applied = false;
    assert_int_equal(session_edit_set(s, EDIT_KEYS, 1, 1, "NEW#{x}", "key", &applied, NULL), KP_INVALID);
    assert_false(applied); /* x is no attribute of the entity: refused, nothing changed */
    size_t row = 99;
    assert_int_equal(session_undo(s, NULL), KP_OK);
    assert_true(last_step_entity(s, &row));
    assert_int_equal(row, 1);
    assert_false(session_last_step_row(s, &row));
    assert_true(d->entities[1].count == 1000 + STEPS - 1);
    assert_int_equal(session_redo(s, NULL), KP_OK);
    assert_true(last_step_entity(s, &row) && row == 1);
    assert_true(d->entities[1].count == 1000 + STEPS);
    for (int i = 0; i < STEPS; i++)
        assert_int_equal(session_undo(s, NULL), KP_OK);
    assert_true(session_design(s)->entities[1].count == was);
    /* the step before them was the whole design opened: not an entity's */
    assert_int_equal(session_undo(s, NULL), KP_OK);
    assert_false(last_step_entity(s, &row));
    for (int i = 0; i <= STEPS; i++)
        assert_int_equal(session_redo(s, NULL), KP_OK);
    /* after an undo the session holds the text the step left: the next edit is saved as the
       bytes it changed (a row of the log), not the whole text (which empties the log) */
    assert_int_equal(session_undo(s, NULL), KP_OK);
    assert_int_equal(session_redo(s, NULL), KP_OK);
    assert_int_equal(session_edit_set(s, EDIT_ENTITIES, 1, (size_t)count, "77", "count", &applied, NULL),
                     KP_OK);
    assert_true(scalar(p, "SELECT count(*) FROM edits") > 0);
    expect_saved(s);
    assert_int_equal(session_undo(s, NULL), KP_OK);
    session_close(s);
    assert_int_equal(session_open(p, &s, NULL, NULL), KP_OK);
    assert_true(session_design(s)->entities[1].count == 1000 + STEPS);
    assert_int_equal(session_undo(s, NULL), KP_OK); /* the workspace's history */
    assert_true(session_design(s)->entities[1].count == 1000 + STEPS - 1);
    session_close(s);
    free(p);
}

/* Edits that leave every pattern as it was (a decision's cell, an attribute's, an index's, an
 * entity's, an index's key attribute renamed with the templates keyed on it, the table's, all
 * made in place; the description, through a copy) are saved as the text before or after the
 * patterns' list written again and spliced in: after each, the workspace holds designio_save's
 * text; undone and redone (each says which element, or the keys, it exchanged), and reopened, the
 * same. */
static void test_saved_around_patterns(void **state)
{
    (void)state;
    char *p = ts_ws_file();
    session *s = cloudshop_session(p);
    static const struct {
        edit_table t;
        const char *col, *text;
    } edits[] = {
        {EDIT_DECISIONS, "status", "reopened"}, /* after the patterns */
        {EDIT_ATTRS, "distinct", "12"},         /* before them */
        {EDIT_DECISIONS, "title", "otra decisión, más larga que la de antes"},
        {EDIT_INDEXES, "why", "para los pedidos por estado"},
        {EDIT_ENTITIES, "description", "línea"},
        {EDIT_DECISIONS, "title", "x"},
        {EDIT_INDEXES, "pk", "GSI1_PK"}, /* a key attribute: the templates keyed on it follow */
    };
    size_t n = sizeof edits / sizeof *edits;
    kp_design **after = xcalloc(n + 1, sizeof *after);
    after[0] = design_clone(session_design(s));
    for (size_t i = 0; i < n; i++) {
        const kp_design *d = session_design(s);
        int col = edit_col_find(d, edits[i].t, edits[i].col);
        assert_true(col >= 0);
        bool applied = false;
        char *err = NULL;
        if (session_edit_set(s, edits[i].t, 0, (size_t)col, edits[i].text, "edit", &applied, &err) != KP_OK)
            fail_msg("edit %zu: %s", i, err ? err : "?");
        assert_true(applied);
        assert_ptr_equal(session_design(s), d); /* in place */
        after[i + 1] = design_clone(session_design(s));
        assert_false(design_equal(after[i], after[i + 1]));
        char *want = designio_save(session_design(s), NULL), *got = NULL;
        assert_int_equal(ws_working_get(session_ws(s), &got, NULL, NULL), KP_OK);
        if (strcmp(got, want) != 0)
            fail_msg("edit %zu: the workspace's text is not designio_save's", i);
        free(want);
        free(got);
    }
    /* a description through session_apply (the rest alone) */
    kp_design *nd = design_clone(session_design(s));
    free(nd->description);
    nd->description = xstrdup("otra descripción");
    assert_int_equal(session_apply(s, nd, "set description", NULL), KP_OK);
    expect_saved(s);
    /* settings: in place, the rest alone but the table's keys (they rename the templates: the
       keys alone) */
    static const struct {
        const char *setting, *text;
        bool in_place;
    } sets[] = {{"billing", "on-demand", true}, {"name", "otro nombre", true}, {"pk", "PK2", false}};
    for (size_t i = 0; i < sizeof sets / sizeof *sets; i++) {
        const kp_design *d = session_design(s);
        int row = edit_setting_find(sets[i].setting);
        assert_true(row >= 0);
        assert_int_equal(edit_changes_rest_only(EDIT_SETTINGS, (size_t)row, 1), sets[i].in_place);
        bool applied = false;
        assert_int_equal(
            session_edit_set(s, EDIT_SETTINGS, (size_t)row, 1, sets[i].text, "set", &applied, NULL), KP_OK);
        assert_true(applied);
        assert_ptr_equal(session_design(s), d);
        char *text = edit_get(session_design(s), EDIT_SETTINGS, (size_t)row, 1);
        assert_string_equal(text, sets[i].text);
        free(text);
        expect_saved(s);
    }
    for (size_t i = sizeof sets / sizeof *sets; i-- > 0;) {
        assert_int_equal(session_undo(s, NULL), KP_OK);
        assert_int_equal(session_last_step_rest(s), sets[i].in_place); /* the rest alone exchanged */
        edit_table kt = EDIT_PATTERNS;
        size_t krow = 0;
        assert_int_equal(session_last_step_keys(s, &kt, &krow), !sets[i].in_place); /* or the keys */
    }
    assert_int_equal(session_undo(s, NULL), KP_OK);
    for (size_t i = n; i-- > 0;) {
        assert_int_equal(session_undo(s, NULL), KP_OK);
        assert_true(design_equal(session_design(s), after[i]));
        edit_table tab = EDIT_SETTINGS;
        size_t row = 9;
        bool keys = strcmp(edits[i].col, "pk") == 0; /* the keys exchanged, not one element */
        assert_int_equal(session_last_step_element(s, &tab, &row), !keys);
        assert_int_equal(session_last_step_keys(s, &tab, &row), keys);
        assert_int_equal(tab, edits[i].t);
        assert_int_equal(row, 0);
    }
    for (size_t i = 1; i <= n; i++) {
        assert_int_equal(session_redo(s, NULL), KP_OK);
        assert_true(design_equal(session_design(s), after[i]));
    }
    session_close(s);
    assert_int_equal(session_open(p, &s, NULL, NULL), KP_OK);
    assert_true(design_equal(session_design(s), after[n]));
    assert_int_equal(session_undo(s, NULL), KP_OK);
    assert_true(design_equal(session_design(s), after[n - 1]));
    session_close(s);
    for (size_t i = 0; i <= n; i++)
        design_free(after[i]);
    free(after);
    free(p);
}

/* Cell (t, row, col) of s's design set to text: applied in place (the design the same object),
 * the design then `after`, one more undo step, the working copy saved as it is. */
static void set_in_place(session *s, edit_table t, size_t row, size_t col, const char *text,
                         const kp_design *after)
{
    const kp_design *d = session_design(s);
    size_t depth = session_undo_depth(s);
    bool applied = false;
    assert_int_equal(session_edit_set(s, t, row, col, text, "edit", &applied, NULL), KP_OK);
    assert_true(applied);
    assert_ptr_equal(session_design(s), d);
    assert_true(design_equal(d, after));
    assert_int_equal(session_undo_depth(s), depth + 1);
    expect_saved(s);
}

/* An entity renamed is renamed in place with the patterns naming it: the undo step holds those
 * values alone, and takes back exactly what the rename changed (a pattern that already named the
 * new name, an unknown entity before, keeps it). */
static void test_entity_rename_in_place(void **state)
{
    (void)state;
    char *p = ts_ws_file();
    session *s = cloudshop_session(p);
    const kp_design *d = session_design(s);
    ptrdiff_t order = design_entity_pos(d, "Order");
    assert_true(order >= 0);
    int ent = edit_col_find(d, EDIT_PATTERNS, "entity"), name = edit_col_find(d, EDIT_ENTITIES, "name");
    assert_true(ent >= 0 && name >= 0);
    assert_true(edit_renames_entity(EDIT_KEYS, 0) && edit_renames_entity(EDIT_ENTITIES, (size_t)name));
    assert_false(edit_renames_entity(EDIT_KEYS, 1) || edit_renames_entity(EDIT_PATTERNS, 0));
    /* the last pattern names "Pedido", which no entity is yet */
    size_t last = d->npatterns - 1;
    bool applied = false;
    assert_int_equal(
        session_edit_set(s, EDIT_PATTERNS, last, (size_t)ent, "Pedido", "entity", &applied, NULL), KP_OK);
    kp_design *before = design_clone(d), *after = design_clone(d);
    assert_int_equal(edit_set(after, EDIT_KEYS, (size_t)order, 0, "Pedido", NULL), KP_OK);
    size_t named = 0;
    for (size_t i = 0; i < d->npatterns; i++)
        named += edit_names_entity(&d->patterns[i], "Order");
    assert_true(named > 1);
    size_t depth = session_undo_depth(s);
    set_in_place(s, EDIT_KEYS, (size_t)order, 0, "Pedido", after);
    /* saved as the ranges it changed, one step: the entity's name and each pattern's, a few bytes
       each (not the text between them) */
    expect_saved(s);
    assert_int_equal(scalar(p, "SELECT length(hunks) - length(replace(hunks, char(10), '')) FROM edits "
                               "ORDER BY seq DESC LIMIT 1"),
                     named + 1);
    assert_true(scalar(p, "SELECT length(design) FROM edits ORDER BY seq DESC LIMIT 1") <=
                6 * ((long long)named + 1));
    size_t row = 99;
    assert_int_equal(session_undo(s, NULL), KP_OK);
    expect_saved(s);
    assert_true(design_equal(d, before)); /* the last pattern still names Pedido */
    assert_true(session_last_step_rename(s, &row));
    assert_int_equal(row, (size_t)order);
    assert_false(last_step_entity(s, &row)); /* not an element alone: its patterns changed too */
    assert_int_equal(session_redo(s, NULL), KP_OK);
    assert_true(design_equal(d, after));
    assert_true(session_last_step_rename(s, &row));
    /* through the Entities table, in Spanish, then a name taken: refused, nothing changed */
    assert_int_equal(session_edit_set(s, EDIT_ENTITIES, (size_t)order, (size_t)name, "Línea_pedido", "rename",
                                      &applied, NULL),
                     KP_OK);
    assert_int_equal(edit_names_entity(&d->patterns[last], "Línea_pedido"), true);
    kp_design *third = design_clone(d);
    expect_saved(s);
    char *err = NULL;
    assert_int_equal(session_edit_set(s, EDIT_KEYS, (size_t)order, 0, d->entities[order == 0].name, "rename",
                                      &applied, &err),
                     KP_INVALID);
    assert_false(applied);
    free(err);
    assert_true(design_equal(d, third));
    assert_int_equal(
        session_edit_set(s, EDIT_KEYS, (size_t)order, 0, "Línea_pedido", "rename", &applied, NULL), KP_OK);
    assert_int_equal(session_undo_depth(s), depth + 2); /* the same name: no step */
    session_close(s);
    assert_int_equal(session_open(p, &s, NULL, NULL), KP_OK);
    assert_true(design_equal(session_design(s), third));
    assert_int_equal(session_undo(s, NULL), KP_OK);
    assert_true(design_equal(session_design(s), after)); /* (before names an unknown entity: it does
                                                              not load as a state of the history) */
    session_close(s);
    design_free(before);
    design_free(after);
    design_free(third);
    free(p);
}

/* A pattern's id changed is changed in place with the covered_by and the decisions naming it:
 * the undo step takes back exactly that, undo and redo say which pattern they exchanged, the
 * working copy is saved (as the pattern's lines when nothing names it), and a reopened session's
 * history takes the last change back. An id taken is refused, the same id makes no step. */
static void test_pattern_id_in_place(void **state)
{
    (void)state;
    char *p = ts_ws_file();
    session *s = cloudshop_session(p);
    const kp_design *d = session_design(s);
    int idc = edit_col_find(d, EDIT_PATTERNS, "id");
    assert_true(idc >= 0 && edit_renames_pattern(EDIT_PATTERNS, (size_t)idc));
    assert_false(edit_renames_pattern(EDIT_PATTERNS, (size_t)idc + 1) || edit_renames_pattern(EDIT_KEYS, 0));
    /* pattern 2: pattern 6 is covered_by it, decisions name it */
    size_t two = 0;
    while (two < d->npatterns && strcmp(d->patterns[two].id, "2") != 0)
        two++;
    assert_true(two < d->npatterns);
    kp_design *before = design_clone(d), *after = design_clone(d);
    assert_int_equal(edit_set(after, EDIT_PATTERNS, two, (size_t)idc, "2_línea", NULL), KP_OK);
    size_t covered = 0, named = 0;
    for (size_t i = 0; i < after->npatterns; i++)
        covered += after->patterns[i].covered_by.s && strcmp(after->patterns[i].covered_by.s, "2_línea") == 0;
    for (size_t i = 0; i < after->ndecisions; i++)
        for (size_t j = 0; j < after->decisions[i].npatterns; j++)
            named += strcmp(after->decisions[i].patterns[j].s, "2_línea") == 0;
    assert_true(covered == 1 && named > 1);
    size_t depth = session_undo_depth(s);
    set_in_place(s, EDIT_PATTERNS, two, (size_t)idc, "2_línea", after);
    bool applied = false;
    size_t row = 99;
    assert_int_equal(session_undo(s, NULL), KP_OK);
    assert_true(design_equal(d, before));
    assert_true(session_last_step_pattern_id(s, &row));
    assert_int_equal(row, two);
    assert_false(session_last_step_row(s, &row) || session_last_step_rest(s)); /* more than one row */
    expect_saved(s);
    assert_int_equal(session_redo(s, NULL), KP_OK);
    assert_true(design_equal(d, after));
    assert_true(session_last_step_pattern_id(s, &row));
    /* an id taken: refused, nothing changed; the same id: no step */
    char *err = NULL;
    assert_int_equal(session_edit_set(s, EDIT_PATTERNS, two, (size_t)idc, "3", "id", &applied, &err),
                     KP_INVALID);
    assert_false(applied);
    assert_non_null(err);
    free(err);
    assert_true(design_equal(d, after));
    assert_int_equal(session_edit_set(s, EDIT_PATTERNS, two, (size_t)idc, "2_línea", "id", &applied, NULL),
                     KP_OK);
    assert_int_equal(session_undo_depth(s), depth + 1);
    /* a new pattern's id, which nothing names: its lines alone are written */
    kp_rowop op;
    assert_int_equal(session_pattern_rows(s, SESSION_ROW_ADD, 0, "add", &op, NULL), KP_OK);
    int ent = edit_col_find(d, EDIT_PATTERNS, "entity");
    assert_true(ent >= 0); /* valid again: a working copy that does not validate does not reopen */
    assert_int_equal(
        session_edit_set(s, EDIT_PATTERNS, op.row, (size_t)ent, "Order", "entity", &applied, NULL), KP_OK);
    kp_design *mid = design_clone(d);
    assert_int_equal(session_edit_set(s, EDIT_PATTERNS, op.row, (size_t)idc, "nuevo_ñ", "id", &applied, NULL),
                     KP_OK);
    assert_true(applied);
    assert_string_equal(d->patterns[op.row].id, "nuevo_ñ");
    expect_saved(s);
    kp_design *last = design_clone(d);
    assert_int_equal(session_undo(s, NULL), KP_OK);
    assert_true(session_last_step_pattern_id(s, &row));
    assert_int_equal(row, op.row);
    assert_true(design_equal(d, mid));
    expect_saved(s);
    assert_int_equal(session_redo(s, NULL), KP_OK);
    expect_saved(s);
    session_close(s);
    assert_int_equal(session_open(p, &s, NULL, NULL), KP_OK);
    assert_true(design_equal(session_design(s), last));
    assert_int_equal(session_undo(s, NULL), KP_OK); /* the persisted history takes it back */
    assert_true(design_equal(session_design(s), mid));
    session_close(s);
    design_free(before);
    design_free(after);
    design_free(mid);
    design_free(last);
    free(p);
}

/* A session with no workspace keeps its 1,000 newest steps, designs too (nothing to read back). */
static void test_undo_in_memory_steps_capped(void **state)
{
    (void)state;
    session *s = session_new_memory(load_ok("samples/cloudshop/design.yaml"));
    int rate = edit_col_find(session_design(s), EDIT_PATTERNS, "rate");
    assert_true(rate >= 0);
    char text[32];
    for (int i = 1; i <= 1010; i++) {
        bool applied = false;
        snprintf(text, sizeof text, "%d", i);
        assert_int_equal(session_edit_set(s, EDIT_PATTERNS, 0, (size_t)rate, text, "rate", &applied, NULL),
                         KP_OK);
        assert_true(applied);
        if (i % 100 == 0) { /* a whole design now and then */
            kp_design *d = design_clone(session_design(s));
            free(d->name);
            d->name = xstrdup(text);
            assert_int_equal(session_apply(s, d, "rename", NULL), KP_OK);
        }
    }
    assert_int_equal(session_undo_depth(s), 1000);
    for (int i = 0; i < 1000; i++)
        assert_int_equal(session_undo(s, NULL), KP_OK);
    char *err = NULL;
    assert_int_equal(session_undo(s, &err), KP_NOTFOUND);
    free(err);
    session_close(s);
}

static void test_migration_from_schema_3(void **state)
{
    (void)state;
    assert_int_equal(ws_schema_version(), 5);
    char *p = ts_ws_file();
    ws_t *ws = ts_ws_open(p, WS_CREATE);
    assert_int_equal(ws_working_set(ws, "first\n", 0, true, NULL, NULL), KP_OK);
    assert_int_equal(ws_working_set(ws, "second\n", 0, true, "edit", NULL), KP_OK);
    ws_close(ws);
    /* the file as schema 3 left it */
    exec_ok(p,
            "DROP TABLE edits; ALTER TABLE copies DROP COLUMN stamp; ALTER TABLE history DROP COLUMN hunks; "
            "PRAGMA user_version = 3;");
    ws = ts_ws_open(p, 0);
    expect_working(ws, "second\n");
    assert_int_equal(scalar(p, "PRAGMA user_version"), 5);
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

/* An entity renamed is saved as the lines it changed even where they are unusual: a pattern
 * whose entity is its first field (no id, no name), a list of entities long enough to wrap over
 * several lines, the new name in Spanish and longer; the saved text is designio_save's after the
 * rename, its undo and its redo, each one step of hunks. */
static void test_entity_rename_saved_as_ranges(void **state)
{
    (void)state;
    char *p = ts_ws_file();
    session *s = NULL;
    assert_int_equal(session_open(p, &s, NULL, NULL), KP_OK);
    kp_design *d = load_ok("samples/cloudshop/design.yaml");
    size_t at = edit_add(d, EDIT_PATTERNS, d->npatterns);
    kp_pattern *bare = &d->patterns[at];
    free(bare->id);
    free(bare->name);
    bare->id = bare->name = NULL;
    bare->entities = xcalloc(1, sizeof *bare->entities);
    bare->entities[0].s = xstrdup("Order");
    bare->nentities = 1;
    at = edit_add(d, EDIT_PATTERNS, d->npatterns);
    kp_pattern *many = &d->patterns[at];
    many->multi_form = true;
    many->nentities = 14;
    many->entities = xcalloc(many->nentities, sizeof *many->entities);
    for (size_t i = 0; i < many->nentities; i++)
        many->entities[i].s = xstrdup(i % 3 == 1 ? "Order" : i % 3 ? "OrderSummary" : "Customer");
    assert_int_equal(session_apply(s, d, "open", NULL), KP_OK);
    d = (kp_design *)session_design(s);
    char *lines = designio_save_pattern(&d->patterns[d->npatterns - 1], NULL);
    assert_non_null(strstr(strchr(lines, '\n') + 1, "Order")); /* the list wraps */
    free(lines);
    ptrdiff_t order = design_entity_pos(d, "Order");
    assert_true(order >= 0);
    bool applied = false;
    /* a cell first, so that the text is the session's own */
    int rate = edit_col_find(d, EDIT_PATTERNS, "rate");
    assert_int_equal(session_edit_set(s, EDIT_PATTERNS, 0, (size_t)rate, "7", "rate", &applied, NULL), KP_OK);
    assert_int_equal(
        session_edit_set(s, EDIT_KEYS, (size_t)order, 0, "Pedido_de_la_línea", "rename", &applied, NULL),
        KP_OK);
    assert_true(applied);
    assert_true(edit_names_entity(&d->patterns[d->npatterns - 2], "Pedido_de_la_línea"));
    expect_saved(s);
    assert_int_equal(scalar(p, "SELECT hunks IS NOT NULL FROM edits ORDER BY seq DESC LIMIT 1"), 1);
    for (int k = 0; k < 2; k++) {
        assert_int_equal(k ? session_redo(s, NULL) : session_undo(s, NULL), KP_OK);
        expect_saved(s);
        assert_int_equal(scalar(p, "SELECT hunks IS NOT NULL FROM edits ORDER BY seq DESC LIMIT 1"), 1);
    }
    session_close(s);
    free(p);
}

/* After a commit the session knows the text it wrote: the first cell saved then is one row of the
 * edits log, the bytes it changed, not the design written whole again; the text is designio_save's
 * and reopening reads it. */
static void test_cell_after_commit_saved_as_lines(void **state)
{
    (void)state;
    char *p = ts_ws_file();
    session *s = cloudshop_session(p);
    int rate = edit_col_find(session_design(s), EDIT_PATTERNS, "rate");
    bool applied = false;
    for (int k = 0; k < 2; k++) {
        int n = 0;
        assert_int_equal(session_commit(s, "v", &n, NULL), KP_OK);
        assert_int_equal(n, k + 1);
        assert_int_equal(scalar(p, "SELECT count(*) FROM edits"), 0);
        assert_int_equal(
            session_edit_set(s, EDIT_PATTERNS, 1, (size_t)rate, k ? "41" : "40", "rate", &applied, NULL),
            KP_OK);
        assert_int_equal(scalar(p, "SELECT count(*) FROM edits"), 1);
        assert_true(scalar(p, "SELECT length(design) FROM edits") <= 2);
        expect_saved(s);
    }
    kp_design *want = design_clone(session_design(s));
    session_close(s);
    assert_int_equal(session_open(p, &s, NULL, NULL), KP_OK);
    assert_true(design_equal(session_design(s), want));
    design_free(want);
    session_close(s);
    free(p);
}

/* A change of several ranges at once (ws_working_splices, schema 5): one undo step and one edit,
 * each holding the ranges; undone and redone by a handle that knows the text and by one that
 * reads it, folded, compacted, committed over (the step stored whole then) and reopened, the text
 * is each time the one the ranges make; ranges out of order, overlapping or past the end are
 * refused with nothing changed; and a damaged hunk list is named, not applied. */
static void test_splices_several_ranges(void **state)
{
    (void)state;
    char *p = ts_ws_file();
    ws_t *ws = ts_ws_open(p, WS_CREATE);
    const char *t0 = "entity: Order\n- a: Order\n- b: Item\n- c: Order\n";
    const char *t1 = "entity: Pedido\n- a: Pedido\n- b: Item\n- c: Pedido\n";
    assert_int_equal(ws_working_set(ws, t0, 0, true, "open", NULL), KP_OK);
    ws_range r[] = {
        {8, "Order", 5, "Pedido", 6}, {19, "Order", 5, "Pedido", 6}, {40, "Order", 5, "Pedido", 6}};
    assert_int_equal(memcmp(t0 + 40, "Order", 5), 0);
    ws_range bad[] = {{19, "Order", 5, "x", 1}, {8, "Order", 5, "y", 1}};
    char *err = NULL;
    assert_int_equal(ws_working_splices(ws, strlen(t0), bad, 2, "rename", &err),
                     KP_INVALID); /* out of order */
    assert_non_null(err);
    free(err);
    err = NULL;
    ws_range past[] = {{42, "der\n", 6, "", 0}};
    assert_int_equal(ws_working_splices(ws, strlen(t0), past, 1, "rename", &err), KP_INVALID);
    free(err);
    expect_working(ws, t0);
    size_t nundo = 0;
    assert_int_equal(ws_history_depth(ws, &nundo, NULL, NULL), KP_OK);
    assert_int_equal(nundo, 0); /* a new workspace stores no state before its first */
    assert_int_equal(ws_working_splices(ws, strlen(t0), r, 3, "rename", NULL), KP_OK);
    expect_working(ws, t1);
    /* the step and the edit hold the ranges' bytes, not the span between them */
    assert_int_equal(scalar(p, "SELECT length(design) FROM edits ORDER BY seq DESC LIMIT 1"), 18);
    assert_int_equal(scalar(p, "SELECT length(design) FROM history ORDER BY seq DESC LIMIT 1"), 15);
    assert_int_equal(ws_history_depth(ws, &nundo, NULL, NULL), KP_OK);
    assert_int_equal(nundo, 1);
    /* undo and redo, the text known (ws_step_text) and read (ws_undo), twice over */
    char *u = NULL;
    for (int k = 0; k < 2; k++) {
        assert_int_equal(k ? ws_undo(ws, &u, NULL, NULL) : ws_step_text(ws, true, t1, &u, NULL, NULL), KP_OK);
        assert_string_equal(u, t0);
        free(u);
        expect_working(ws, t0);
        assert_int_equal(k ? ws_redo(ws, &u, NULL, NULL) : ws_step_text(ws, false, t0, &u, NULL, NULL),
                         KP_OK);
        assert_string_equal(u, t1);
        free(u);
        expect_working(ws, t1);
    }
    /* another handle reads the log's hunks; a fold keeps the text */
    ws_t *other = ts_ws_open(p, 0);
    expect_working(other, t1);
    ws_close(other);
    assert_int_equal(ws_working_fold(ws, NULL), KP_OK);
    assert_int_equal(scalar(p, "SELECT count(*) FROM edits"), 0);
    expect_working(ws, t1);
    /* compacted (the steps kept as they are), then undone: the hunks still apply */
    assert_int_equal(ws_compact(ws, 10, NULL, NULL), KP_OK);
    assert_int_equal(ws_undo(ws, &u, NULL, NULL), KP_OK);
    assert_string_equal(u, t0);
    free(u);
    assert_int_equal(ws_redo(ws, &u, NULL, NULL), KP_OK);
    free(u);
    /* a commit replaces the copy outside the history: the step on top is stored whole */
    assert_int_equal(ws_working_set(ws, "other\n", 0, false, NULL, NULL), KP_OK);
    assert_int_equal(ws_undo(ws, &u, NULL, NULL), KP_OK);
    assert_string_equal(u, t0);
    free(u);
    ws_close(ws);
    /* reopened: the step again, then its hunks damaged: named, nothing applied */
    ws = ts_ws_open(p, 0);
    expect_working(ws, t0);
    assert_int_equal(ws_working_get(ws, &u, NULL, NULL), KP_OK);
    free(u);
    assert_int_equal(ws_working_splices(ws, strlen(t0), r, 3, "rename", NULL), KP_OK);
    ws_close(ws);
    exec_ok(p, "UPDATE history SET hunks = '8 5 6\n999 5 6\n' WHERE seq = (SELECT max(seq) FROM history)");
    ws = ts_ws_open(p, 0);
    expect_working(ws, t1);
    err = NULL;
    assert_int_equal(ws_undo(ws, &u, NULL, &err), KP_DAMAGED);
    assert_non_null(strstr(err, "damaged"));
    free(err);
    expect_working(ws, t1);
    ws_close(ws);
    /* the log's hunks damaged (past the text): the copy is said not to be readable, not misread */
    exec_ok(p,
            "UPDATE edits SET hunks = '8 5 6\n19 500 6\n40 5 6\n' WHERE seq = (SELECT max(seq) FROM edits)");
    ws = ts_ws_open(p, 0);
    err = NULL;
    assert_int_equal(ws_working_get(ws, &u, NULL, &err), KP_DAMAGED);
    assert_non_null(strstr(err, "do not fit"));
    free(err);
    ws_close(ws);
    free(p);
}

/* A workspace of schema 4 (no hunks) upgrades to 5: its steps and log read as before, and a change
 * of several ranges is stored and undone on it. */
static void test_migration_from_schema_4(void **state)
{
    (void)state;
    char *p = ts_ws_file();
    ws_t *ws = ts_ws_open(p, WS_CREATE);
    assert_int_equal(ws_working_set(ws, "a b c\n", 0, true, NULL, NULL), KP_OK);
    char *t = NULL;
    assert_int_equal(ws_working_get(ws, &t, NULL, NULL), KP_OK);
    free(t);
    ws_close(ws);
    exec_ok(
        p,
        "ALTER TABLE history DROP COLUMN hunks; ALTER TABLE edits DROP COLUMN hunks; PRAGMA user_version = 4;");
    ws = ts_ws_open(p, 0);
    assert_int_equal(scalar(p, "PRAGMA user_version"), 5);
    assert_int_equal(ws_working_get(ws, &t, NULL, NULL), KP_OK);
    assert_string_equal(t, "a b c\n");
    free(t);
    ws_range r[] = {{0, "a", 1, "á", 2}, {4, "c", 1, "ç", 2}};
    assert_int_equal(ws_working_splices(ws, 6, r, 2, "accents", NULL), KP_OK);
    expect_working(ws, "á b ç\n");
    assert_int_equal(ws_undo(ws, &t, NULL, NULL), KP_OK);
    assert_string_equal(t, "a b c\n");
    free(t);
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
        cmocka_unit_test(test_session_row_steps_saved_as_lines),
        cmocka_unit_test(test_session_element_rows),
        cmocka_unit_test(test_fold_with_text),
        cmocka_unit_test(test_no_change_is_no_step),
        cmocka_unit_test(test_random_edits_equal_whole_saves),
        cmocka_unit_test(test_migration_from_schema_3),
        cmocka_unit_test(test_migration_from_schema_4),
        cmocka_unit_test(test_splices_several_ranges),
        cmocka_unit_test(test_cell_after_commit_saved_as_lines),
        cmocka_unit_test(test_entity_rename_saved_as_ranges),
        cmocka_unit_test(test_undo_in_memory_capped),
        cmocka_unit_test(test_undo_rest_steps),
        cmocka_unit_test(test_entity_steps_in_place),
        cmocka_unit_test(test_entity_rename_in_place),
        cmocka_unit_test(test_pattern_id_in_place),
        cmocka_unit_test(test_saved_around_patterns),
        cmocka_unit_test(test_undo_in_memory_steps_capped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
