/* test_pair.c - two people pairing on one workspace: a working copy and an undo history per
 * author, reload as a three-way merge (nothing of a teammate's is ever reverted silently: R then
 * u then commit is refused), conflicts resolved before the commit, presence, undo entries that
 * grow with the edit, versions stored once, schema 2 upgraded with its working copy and undo. */
#include "design_io.h"
#include "edit.h"
#include "session.h"
#include "support.h"
#include "workspace.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *ws_path_new(void)
{
    char *dir = ts_temp_dir();
    char *p = xasprintf("%s/pair.keyplan", dir);
    free(dir);
    return p;
}

/* A workspace whose version 1 is CloudShop. */
static char *cloudshop_ws(void)
{
    char *p = ws_path_new();
    ws_t *ws = NULL;
    assert_int_equal(ws_open(p, WS_CREATE, &ws, NULL), KP_OK);
    kp_design *d = ts_load_file("samples/cloudshop/design.yaml");
    assert_non_null(d);
    assert_int_equal(ws_commit(ws, d, "ana", "first", 0, false, NULL, NULL), KP_OK);
    design_free(d);
    ws_close(ws);
    return p;
}

static session *open_as(const char *path, const char *author)
{
    session *s = NULL;
    char *err = NULL;
    if (session_open_as(path, author, &s, NULL, &err) != KP_OK)
        fail_msg("%s", err);
    return s;
}

static char *cell(const kp_design *d, edit_table t, size_t row, const char *col)
{
    int c = edit_col_find(d, t, col);
    assert_true(c >= 0);
    return edit_get(d, t, row, (size_t)c);
}

/* Sets a cell of a copy of the session's design and applies it. */
static void set_cell(session *s, edit_table t, size_t row, const char *col, const char *text)
{
    kp_design *d = design_clone(session_design(s));
    int c = edit_col_find(d, t, col);
    assert_true(c >= 0);
    char *err = NULL;
    if (edit_set(d, t, row, (size_t)c, text, &err) != KP_OK)
        fail_msg("%s", err);
    assert_int_equal(session_apply(s, d, "edit", NULL), KP_OK);
}

static void expect_cell(const kp_design *d, size_t row, const char *col, const char *want)
{
    char *got = cell(d, EDIT_PATTERNS, row, col);
    if (strcmp(got, want) != 0)
        fail_msg("pattern row %zu %s: '%s', expected '%s'", row + 1, col, got, want);
    free(got);
}

static kp_design *version(const char *path, int number)
{
    ws_t *ws = NULL;
    assert_int_equal(ws_open(path, WS_READONLY, &ws, NULL), KP_OK);
    kp_design *d = NULL;
    assert_int_equal(ws_version_design(ws, number, &d, NULL), KP_OK);
    ws_close(ws);
    return d;
}

/* A commits version 2; B's commit on version 1 is refused; B presses R (the merge), then u: the
 * working copy is B's again and based on version 1, so a commit is refused, not a silent revert
 * of A's change; redo and commit: version 3 holds both changes. */
static void test_reload_then_undo_never_reverts(void **state)
{
    (void)state;
    char *p = cloudshop_ws();
    session *a = open_as(p, "ana"), *b = open_as(p, "bea");
    set_cell(a, EDIT_PATTERNS, 0, "rate", "111");
    int n = 0;
    char *err = NULL;
    assert_int_equal(session_commit(a, "A: rate of pattern 1", &n, &err), KP_OK);
    assert_int_equal(n, 2);
    set_cell(b, EDIT_PATTERNS, 1, "rate", "222");
    assert_int_equal(session_commit(b, "B", &n, &err), KP_CONFLICT);
    assert_non_null(strstr(err, "version 2 was committed meanwhile by ana"));
    free(err);
    err = NULL;
    size_t nc = 9;
    assert_int_equal(session_reload(b, &nc, &err), KP_OK);
    assert_int_equal(nc, 0);
    assert_int_equal(session_base(b), 2);
    expect_cell(session_design(b), 0, "rate", "111");
    expect_cell(session_design(b), 1, "rate", "222");
    /* u: B's working copy and its base come back together */
    assert_int_equal(session_undo(b, NULL), KP_OK);
    assert_int_equal(session_base(b), 1);
    expect_cell(session_design(b), 0, "rate", "400"); /* version 1's */
    assert_int_equal(session_commit(b, "B reverting A?", &n, &err), KP_CONFLICT);
    free(err);
    err = NULL;
    assert_int_equal(session_redo(b, NULL), KP_OK);
    assert_int_equal(session_base(b), 2);
    assert_int_equal(session_commit(b, "B: rate of pattern 2", &n, &err), KP_OK);
    assert_int_equal(n, 3);
    kp_design *v3 = version(p, 3);
    expect_cell(v3, 0, "rate", "111");
    expect_cell(v3, 1, "rate", "222");
    design_free(v3);
    session_close(a);
    session_close(b);
    /* the same after a restart: the persisted undo step brings the old base back too */
    b = open_as(p, "bea");
    set_cell(b, EDIT_PATTERNS, 1, "rate", "223");
    a = open_as(p, "ana");
    assert_int_equal(session_reload(a, &nc, NULL), KP_OK); /* ana's copy was clean: it follows */
    set_cell(a, EDIT_PATTERNS, 0, "rate", "112");
    assert_int_equal(session_commit(a, "A again", &n, NULL), KP_OK);
    session_close(b);
    b = open_as(p, "bea");
    assert_int_equal(session_reload(b, &nc, NULL), KP_OK);
    assert_int_equal(session_base(b), 4);
    session_close(b);
    b = open_as(p, "bea");
    assert_int_equal(session_undo(b, NULL), KP_OK); /* from the workspace's history */
    assert_int_equal(session_base(b), 3);
    assert_int_equal(session_commit(b, "stale", &n, &err), KP_CONFLICT);
    free(err);
    session_close(a);
    session_close(b);
    free(p);
}

/* Both change the same field: the merge stops on the conflict, the commit is refused until it
 * is resolved; a typed value resolves it (checked by the cell's rules), then the commit goes on
 * top of the latest version. */
static void test_conflict_resolved_before_commit(void **state)
{
    (void)state;
    char *p = cloudshop_ws();
    session *a = open_as(p, "ana"), *b = open_as(p, "bea");
    set_cell(a, EDIT_PATTERNS, 0, "rate", "111");
    int n = 0;
    assert_int_equal(session_commit(a, "A", &n, NULL), KP_OK);
    set_cell(b, EDIT_PATTERNS, 0, "rate", "333");
    set_cell(b, EDIT_PATTERNS, 2, "rate", "444");
    size_t nc = 0;
    char *err = NULL;
    assert_int_equal(session_reload(b, &nc, &err), KP_OK);
    assert_int_equal(nc, 1);
    int into = 0;
    merge_result *m = session_merge(b, &into);
    assert_non_null(m);
    assert_int_equal(into, 2);
    const merge_conflict *c = merge_conflict_at(m, 0);
    assert_string_equal(c->record, "pattern");
    assert_string_equal(c->field, "rate");
    assert_string_equal(c->base, "400");
    assert_string_equal(c->ours, "333");
    assert_string_equal(c->theirs, "111");
    assert_int_equal(session_commit(b, "too early", &n, &err), KP_CONFLICT);
    assert_non_null(strstr(err, "conflict"));
    free(err);
    err = NULL;
    assert_int_equal(session_undo(b, NULL), KP_CONFLICT); /* the merge first */
    assert_int_equal(session_merge_finish(b, &err), KP_CONFLICT);
    free(err);
    err = NULL;
    assert_int_equal(merge_resolve(m, 0, MERGE_TEXT, "not a number", &err), KP_INVALID);
    free(err);
    err = NULL;
    assert_int_equal(merge_resolve(m, 0, MERGE_TEXT, "555", NULL), KP_OK);
    assert_int_equal(session_merge_finish(b, &err), KP_OK);
    assert_null(session_merge(b, NULL));
    assert_int_equal(session_base(b), 2);
    expect_cell(session_design(b), 0, "rate", "555");
    expect_cell(session_design(b), 2, "rate", "444");
    assert_int_equal(session_commit(b, "B", &n, &err), KP_OK);
    assert_int_equal(n, 3);
    /* dropping a merge leaves the working copy as it was, and the commit refused */
    set_cell(a, EDIT_PATTERNS, 0, "rate", "666");
    assert_int_equal(session_reload(a, &nc, NULL), KP_OK);
    assert_int_equal(nc, 1);
    session_merge_abort(a);
    expect_cell(session_design(a), 0, "rate", "666");
    assert_int_equal(session_base(a), 2);
    assert_int_equal(session_commit(a, "stale", &n, &err), KP_CONFLICT);
    free(err);
    session_close(a);
    session_close(b);
    free(p);
}

/* Each author reopens their own working copy and undo history; ws_copies says who has
 * uncommitted work; :set author switches. */
static void test_working_copy_per_author(void **state)
{
    (void)state;
    char *p = cloudshop_ws();
    session *a = open_as(p, "ana"), *b = open_as(p, "bea");
    set_cell(a, EDIT_PATTERNS, 0, "rate", "1");
    set_cell(b, EDIT_PATTERNS, 0, "rate", "2");
    set_cell(b, EDIT_PATTERNS, 0, "rate", "3");
    session_close(a);
    session_close(b);
    a = open_as(p, "ana");
    b = open_as(p, "bea");
    expect_cell(session_design(a), 0, "rate", "1");
    expect_cell(session_design(b), 0, "rate", "3");
    assert_int_equal(session_undo(b, NULL), KP_OK);
    expect_cell(session_design(b), 0, "rate", "2");
    assert_int_equal(session_undo(a, NULL), KP_OK);
    expect_cell(session_design(a), 0, "rate", "400");
    assert_int_equal(session_undo(a, NULL), KP_NOTFOUND);
    ws_copy *c = NULL;
    size_t n = 0;
    assert_int_equal(ws_copies(session_ws(a), &c, &n, NULL), KP_OK);
    assert_int_equal(n, 2);
    assert_string_equal(c[0].author, "ana");
    assert_false(c[0].dirty); /* undone back to version 1 */
    assert_string_equal(c[1].author, "bea");
    assert_true(c[1].dirty);
    assert_int_equal(c[1].base, 1);
    ws_copies_free(c, n);
    /* switching author: bea's copy shows; a new author takes what is on screen */
    assert_int_equal(session_set_author(a, "bea", NULL), KP_OK);
    assert_string_equal(session_author(a), "bea");
    expect_cell(session_design(a), 0, "rate", "2");
    assert_int_equal(session_set_author(a, "carla", NULL), KP_OK);
    expect_cell(session_design(a), 0, "rate", "2");
    char *err = NULL;
    assert_int_equal(session_set_author(a, "bad\x1b[2J", &err), KP_INVALID);
    free(err);
    assert_string_equal(session_author(a), "carla");
    session_close(a);
    session_close(b);
    /* fsck looks at every author's working copy, not only its caller's */
    sqlite3 *db;
    assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
    assert_int_equal(
        sqlite3_exec(db, "UPDATE copies SET design = 'keyplan: [' WHERE author = 'bea'", NULL, NULL, NULL),
        SQLITE_OK);
    sqlite3_close(db);
    ws_t *ws = NULL;
    assert_int_equal(ws_open(p, WS_READONLY, &ws, NULL), KP_OK);
    ws_fsck_report r;
    assert_int_equal(ws_fsck(ws, &r, NULL), KP_OK);
    assert_non_null(r.working);
    assert_non_null(strstr(r.working, "working copy of bea"));
    assert_int_equal(r.problems, 1);
    ws_fsck_report_free(&r);
    ws_close(ws);
    free(p);
}

static void test_presence(void **state)
{
    (void)state;
    char *p = cloudshop_ws();
    ws_t *a = NULL, *b = NULL;
    assert_int_equal(ws_open(p, 0, &a, NULL), KP_OK);
    assert_int_equal(ws_open(p, 0, &b, NULL), KP_OK);
    assert_int_equal(ws_set_author(a, "ana", NULL), KP_OK);
    assert_int_equal(ws_set_author(b, "bea", NULL), KP_OK);
    assert_int_equal(ws_presence_beat(a, "Patterns", 3, NULL), KP_OK);
    assert_int_equal(ws_presence_beat(b, "History", 1, NULL), KP_OK);
    assert_false(ws_changed_elsewhere(b)); /* a heartbeat is not a change to reload for */
    /* a commit is, even when this handle beats after it and before it looks */
    kp_design *d = NULL;
    assert_int_equal(ws_version_design(a, 1, &d, NULL), KP_OK);
    assert_int_equal(ws_commit(a, d, NULL, "ana's", 1, false, NULL, NULL), KP_OK);
    design_free(d);
    assert_int_equal(ws_presence_beat(b, "History", 1, NULL), KP_OK);
    assert_true(ws_changed_elsewhere(b));
    assert_int_equal(ws_presence_beat(a, "Patterns", 3, NULL), KP_OK);
    assert_false(ws_changed_elsewhere(b));
    ws_presence *o = NULL;
    size_t n = 0;
    assert_int_equal(ws_presence_others(b, &o, &n, NULL), KP_OK);
    assert_int_equal(n, 1);
    assert_string_equal(o[0].author, "ana");
    assert_string_equal(o[0].screen, "Patterns");
    assert_int_equal(o[0].row, 3);
    ws_presence_free(o, n);
    /* ana quits: gone at once */
    ws_close(a);
    assert_int_equal(ws_presence_others(b, &o, &n, NULL), KP_OK);
    assert_int_equal(n, 0);
    ws_presence_free(o, n);
    /* killed: its last beat grows old and it is left out */
    assert_int_equal(ws_open(p, 0, &a, NULL), KP_OK);
    assert_int_equal(ws_set_author(a, "ana", NULL), KP_OK);
    assert_int_equal(ws_presence_beat(a, "Patterns", 3, NULL), KP_OK);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
    assert_int_equal(
        sqlite3_exec(db, "UPDATE presence SET beat = beat - 10 WHERE author = 'ana'", NULL, NULL, NULL),
        SQLITE_OK);
    sqlite3_close(db);
    assert_int_equal(ws_presence_others(b, &o, &n, NULL), KP_OK);
    assert_int_equal(n, 0);
    ws_presence_free(o, n);
    ws_close(a);
    ws_close(b);
    free(p);
}

static long long scalar(const char *path, const char *sql)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
        fail_msg("%s: %s", sql, sqlite3_errmsg(db));
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    long long v = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    sqlite3_close(db);
    return v;
}

/* An undo entry holds the edit, not the design: one cell of a design of 300 patterns costs a
 * few bytes; the cap and ws_compact bound the history. */
static void test_undo_entry_follows_the_edit(void **state)
{
    (void)state;
    char *p = cloudshop_ws();
    session *s = open_as(p, "ana");
    kp_design *big = design_clone(session_design(s));
    while (big->npatterns < 300)
        edit_duplicate(big, EDIT_PATTERNS, 0);
    assert_int_equal(session_apply(s, big, "grow", NULL), KP_OK);
    long long before = scalar(p, "SELECT sum(length(CAST(design AS BLOB))) FROM history");
    for (int i = 0; i < 10; i++) {
        char *v = xasprintf("%d", 300 + i);
        set_cell(s, EDIT_PATTERNS, (size_t)(i * 29), "rate", v);
        free(v);
    }
    long long after = scalar(p, "SELECT sum(length(CAST(design AS BLOB))) FROM history");
    assert_true(after - before < 10 * 64);
    session_close(s);
    /* undo walks the deltas back across a restart */
    s = open_as(p, "ana");
    for (int i = 9; i >= 0; i--) {
        char *v = xasprintf("%d", 300 + i);
        expect_cell(session_design(s), (size_t)(i * 29), "rate", v);
        free(v);
        assert_int_equal(session_undo(s, NULL), KP_OK);
    }
    assert_int_equal(session_design(s)->npatterns, 300);
    assert_int_equal(session_undo(s, NULL), KP_OK);
    assert_true(session_design(s)->npatterns < 300);
    assert_int_equal(session_redo(s, NULL), KP_OK);
    assert_int_equal(session_redo(s, NULL), KP_OK);
    expect_cell(session_design(s), 0, "rate", "300");
    /* compact keeps the newest steps */
    size_t nu = 0;
    long long freed = 0;
    assert_int_equal(ws_compact(session_ws(s), 1, &freed, NULL), KP_OK);
    assert_int_equal(ws_history_depth(session_ws(s), &nu, NULL, NULL), KP_OK);
    assert_int_equal(nu, 1);
    session_close(s);
    free(p);
}

/* A version stores its design once (compressed, by digest) and its decisions only when they
 * change. */
static void test_versions_stored_once(void **state)
{
    (void)state;
    char *p = cloudshop_ws();
    ws_t *ws = NULL;
    assert_int_equal(ws_open(p, 0, &ws, NULL), KP_OK);
    kp_design *d = NULL;
    assert_int_equal(ws_version_design(ws, 1, &d, NULL), KP_OK);
    assert_int_equal(ws_commit(ws, d, "ana", "same again", 1, false, NULL, NULL), KP_OK);
    /* a renamed pattern: another text, the same decisions and signals */
    free(d->patterns[0].name);
    d->patterns[0].name = xstrdup("línea renombrada");
    assert_int_equal(ws_commit(ws, d, "ana", "renamed", 2, false, NULL, NULL), KP_OK);
    ws_close(ws);
    assert_int_equal(scalar(p, "SELECT count(*) FROM blobs"), 2);
    assert_int_equal(scalar(p, "SELECT count(DISTINCT version) FROM decisions"), 1);
    assert_int_equal(scalar(p, "SELECT decisions_of FROM versions WHERE number = 3"), 1);
    assert_true(scalar(p, "SELECT max(length(data)) FROM blobs") <
                scalar(p, "SELECT max(size) FROM blobs") / 2);
    kp_design *v3 = version(p, 3);
    assert_true(design_equal(v3, d));
    design_free(v3);
    design_free(d);
    ws_t *r = NULL;
    assert_int_equal(ws_open(p, WS_READONLY, &r, NULL), KP_OK);
    assert_int_equal(ws_verify(r, NULL), KP_OK);
    ws_close(r);
    free(p);
}

/* A workspace of schema 2: its versions stay, its one working copy and its undo history (whole
 * states) go to the first author who opens it, as deltas that still undo right. */
static void test_upgrade_from_schema_2(void **state)
{
    (void)state;
    char *p = ws_path_new();
    kp_design *d = ts_load_file("samples/cloudshop/design.yaml");
    char *v1 = designio_save(d, NULL);
    design_free(d);
    char *s1 = xasprintf("%s# one\n", v1), *s2 = xasprintf("%s# one\n# two\n", v1);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
    /* schema 2 as keyplan wrote it */
    const char *schema2 =
        "PRAGMA application_id = 1263553614; PRAGMA journal_mode = WAL;"
        "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
        "CREATE TABLE versions(number INTEGER PRIMARY KEY, parent INTEGER REFERENCES versions(number),"
        "  time TEXT NOT NULL, author TEXT NOT NULL, message TEXT NOT NULL, name TEXT NOT NULL DEFAULT '',"
        "  design TEXT NOT NULL, digest TEXT);"
        "CREATE TABLE decisions(version INTEGER NOT NULL REFERENCES versions(number), id TEXT NOT NULL,"
        "  title TEXT, status TEXT NOT NULL, patterns TEXT, context TEXT, decision TEXT,"
        "  alternatives TEXT, assumptions TEXT, failure_test TEXT, rollback TEXT, limitations TEXT,"
        "  PRIMARY KEY(version, id));"
        "CREATE TABLE signals(version INTEGER NOT NULL, decision TEXT NOT NULL, seq INTEGER NOT NULL,"
        "  signal TEXT NOT NULL, metric TEXT NOT NULL, op TEXT NOT NULL, threshold REAL NOT NULL,"
        "  design_value REAL, PRIMARY KEY(version, decision, seq),"
        "  FOREIGN KEY(version, decision) REFERENCES decisions(version, id));"
        "CREATE TABLE observations(id INTEGER PRIMARY KEY, metric TEXT NOT NULL, value REAL NOT NULL,"
        "  time TEXT NOT NULL, source TEXT NOT NULL);"
        "CREATE TABLE working(id INTEGER PRIMARY KEY CHECK (id = 1),"
        "  base INTEGER REFERENCES versions(number), design TEXT NOT NULL, time TEXT NOT NULL);"
        "CREATE TABLE history(seq INTEGER PRIMARY KEY,"
        "  stack TEXT NOT NULL CHECK (stack IN ('undo', 'redo')),"
        "  design TEXT NOT NULL, label TEXT, time TEXT NOT NULL);"
        "CREATE INDEX history_stack ON history(stack, seq);"
        "CREATE INDEX observations_metric ON observations(metric, id);"
        "CREATE INDEX signals_metric ON signals(metric);"
        "PRAGMA user_version = 2;";
    char *e = NULL;
    if (sqlite3_exec(db, schema2, NULL, NULL, &e) != SQLITE_OK)
        fail_msg("%s", e);
    char *dg = xasprintf("%016llx", (unsigned long long)util_hash_str(UTIL_HASH_SEED, v1));
    sqlite3_stmt *st;
    assert_int_equal(
        sqlite3_prepare_v2(db,
                           "INSERT INTO versions(number, parent, time, author, message, name, design, "
                           "digest) VALUES (1, NULL, '2026-01-01T00:00:00Z', 'ana', 'first', "
                           "'CloudShop', ?1, ?2)",
                           -1, &st, NULL),
        SQLITE_OK);
    sqlite3_bind_text(st, 1, v1, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, dg, -1, SQLITE_STATIC);
    assert_int_equal(sqlite3_step(st), SQLITE_DONE);
    sqlite3_finalize(st);
    free(dg);
    assert_int_equal(sqlite3_prepare_v2(db,
                                        "INSERT INTO working(id, base, design, time) VALUES (1, 1, ?1, 'x');"
                                        "",
                                        -1, &st, NULL),
                     SQLITE_OK);
    sqlite3_bind_text(st, 1, s2, -1, SQLITE_STATIC);
    assert_int_equal(sqlite3_step(st), SQLITE_DONE);
    sqlite3_finalize(st);
    const char *texts[] = {v1, s1};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(
            sqlite3_prepare_v2(db,
                               "INSERT INTO history(stack, design, label, time) VALUES ('undo', ?1, "
                               "'edit', 'x')",
                               -1, &st, NULL),
            SQLITE_OK);
        sqlite3_bind_text(st, 1, texts[i], -1, SQLITE_STATIC);
        assert_int_equal(sqlite3_step(st), SQLITE_DONE);
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    session *s = open_as(p, "ana");
    assert_non_null(session_note(s));
    assert_non_null(strstr(session_note(s), "ana now has the working copy"));
    assert_int_equal(session_base(s), 1);
    assert_true(session_dirty(s) == false); /* comments only: the same design */
    ws_t *ws = session_ws(s);
    char *t = NULL;
    assert_int_equal(ws_working_get(ws, &t, NULL, NULL), KP_OK);
    assert_string_equal(t, s2);
    free(t);
    assert_int_equal(scalar(p, "SELECT count(*) FROM history WHERE prefix IS NULL"), 0);
    assert_int_equal(ws_undo(ws, &t, NULL, NULL), KP_OK);
    assert_string_equal(t, s1);
    free(t);
    assert_int_equal(ws_undo(ws, &t, NULL, NULL), KP_OK);
    assert_string_equal(t, v1);
    free(t);
    assert_int_equal(ws_redo(ws, &t, NULL, NULL), KP_OK);
    assert_string_equal(t, s1);
    free(t);
    session_close(s);
    /* another author finds none of it */
    s = open_as(p, "bea");
    assert_null(session_note(s));
    assert_int_equal(session_undo(s, NULL), KP_NOTFOUND);
    session_close(s);
    assert_int_equal(scalar(p, "PRAGMA user_version"), ws_schema_version());
    free(s1);
    free(s2);
    free(v1);
    free(p);
}

int main(void)
{
    setenv("KEYPLAN_AUTHOR", "tester", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reload_then_undo_never_reverts),
        cmocka_unit_test(test_conflict_resolved_before_commit),
        cmocka_unit_test(test_working_copy_per_author),
        cmocka_unit_test(test_presence),
        cmocka_unit_test(test_undo_entry_follows_the_edit),
        cmocka_unit_test(test_versions_stored_once),
        cmocka_unit_test(test_upgrade_from_schema_2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
