/* test_commit_cli.c - `keyplan commit` opens the workspace while it loads the design (on a second
 * thread): a design that does not load still leaves the workspace as it was (a missing one not
 * created, one of an older schema not upgraded, a damaged one unread past its check), and a
 * design that loads is committed into a workspace created, upgraded or opened as before. One
 * row per case: the workspace's state, the design, the exit status, the messages, and what the
 * file holds after. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support.h"
#include "util.h"
#include "workspace.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef enum { MISSING, CURRENT, SCHEMA_3, GARBAGE } ws_state;

/* The workspace at `path` in the given state (MISSING: no file). */
static void make_ws(const char *path, ws_state state)
{
    if (state == MISSING)
        return;
    if (state == GARBAGE) {
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fputs("not a workspace\n", f);
        fclose(f);
        return;
    }
    char *out = NULL, *err = NULL;
    char *design = ts_source_path("samples/cloudshop/first-design.yaml");
    int rc =
        ts_run_keyplan((const char *const[]){"commit", path, design, "-m", "first", NULL}, NULL, &out, &err);
    if (rc != 0)
        fail_msg("the first commit failed: %s", err);
    free(out);
    free(err);
    free(design);
    if (state == SCHEMA_3) { /* as a keyplan of schema 3 left it: no edits, no copies.stamp, no hunks */
        sqlite3 *db = NULL;
        assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
        assert_int_equal(sqlite3_exec(db,
                                      "DROP TABLE edits; ALTER TABLE copies DROP COLUMN stamp; "
                                      "ALTER TABLE history DROP COLUMN hunks; PRAGMA user_version = 3",
                                      NULL, NULL, NULL),
                         SQLITE_OK);
        sqlite3_close(db);
    }
}

/* The workspace's schema and latest version (-1 each when it cannot be read). */
static void ws_facts(const char *path, int *schema, int *latest)
{
    *schema = *latest = -1;
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
        sqlite3_stmt *s = NULL;
        if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &s, NULL) == SQLITE_OK &&
            sqlite3_step(s) == SQLITE_ROW)
            *schema = sqlite3_column_int(s, 0);
        sqlite3_finalize(s);
        s = NULL;
        if (sqlite3_prepare_v2(db, "SELECT max(number) FROM versions", -1, &s, NULL) == SQLITE_OK &&
            sqlite3_step(s) == SQLITE_ROW)
            *latest = sqlite3_column_int(s, 0);
        sqlite3_finalize(s);
    }
    sqlite3_close(db);
}

static const struct {
    const char *what;
    ws_state state;
    bool good_design;
    int rc;
    const char *in_err; /* a part of stderr; NULL: stderr is empty */
    bool exists_after;  /* the workspace file exists after the run */
    bool same_bytes;    /* the file's bytes are what they were */
    int schema, latest; /* after (checked when exists_after and not GARBAGE); schema 0: ours */
} rows[] = {
    {"missing, a design that loads: created", MISSING, true, 0, NULL, true, false, 0, 1},
    {"missing, a design that does not load: not created", MISSING, false, 2, "the workspace was not touched",
     false, false, 0, 0},
    {"current, a design that loads: committed", CURRENT, true, 0, NULL, true, false, 0, 2},
    {"current, a design that does not load: untouched", CURRENT, false, 2, "the workspace was not touched",
     true, true, 0, 1},
    {"schema 3, a design that loads: upgraded and committed", SCHEMA_3, true, 0, NULL, true, false, 0, 2},
    {"schema 3, a design that does not load: not upgraded", SCHEMA_3, false, 2,
     "the workspace was not touched", true, true, 3, 1},
    {"damaged, a design that loads: refused, untouched", GARBAGE, true, 2, "not a keyplan workspace", true,
     true, 0, 0},
    {"damaged, a design that does not load: the design's error first", GARBAGE, false, 2,
     "the workspace was not touched", true, true, 0, 0},
};

static void test_commit_opens_ahead_untouched(void **state)
{
    (void)state;
    setenv("KEYPLAN_AUTHOR", "ana", 1);
    char *good = ts_source_path("samples/cloudshop/design.yaml");
    char *bad = ts_write_temp("bad.yaml", "keyplan: 1\nname: [\n");
    for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
        char *dir = ts_temp_dir();
        char *ws = xasprintf("%s/shop.keyplan", dir);
        make_ws(ws, rows[r].state);
        size_t len0 = 0;
        char *before = ts_read_file(ws, &len0);
        char *out = NULL, *err = NULL;
        int rc = ts_run_keyplan(
            (const char *const[]){"commit", ws, rows[r].good_design ? good : bad, "-m", "second", NULL}, NULL,
            &out, &err);
        if (rc != rows[r].rc || (rows[r].in_err ? !strstr(err, rows[r].in_err) : *err != '\0'))
            fail_msg("%s: exit %d (want %d)\nstdout:\n%s\nstderr:\n%s", rows[r].what, rc, rows[r].rc, out,
                     err);
        struct stat sb;
        bool exists = stat(ws, &sb) == 0;
        if (exists != rows[r].exists_after)
            fail_msg("%s: the workspace %s", rows[r].what, exists ? "exists" : "does not exist");
        /* nothing is left beside it (before this test's own read-only look, which leaves a WAL) */
        char *side = xasprintf("%s-wal", ws);
        if (stat(side, &sb) == 0)
            fail_msg("%s: %s was left behind", rows[r].what, side);
        free(side);
        if (rows[r].same_bytes) {
            size_t len1 = 0;
            char *after = ts_read_file(ws, &len1);
            if (!before || !after || len0 != len1 || memcmp(before, after, len0) != 0)
                fail_msg("%s: the workspace's bytes changed", rows[r].what);
            free(after);
        }
        if (exists && rows[r].state != GARBAGE) {
            int schema, latest;
            ws_facts(ws, &schema, &latest);
            int want = rows[r].schema ? rows[r].schema : ws_schema_version();
            if (schema != want || latest != rows[r].latest)
                fail_msg("%s: schema %d, latest version %d (want %d, %d)", rows[r].what, schema, latest, want,
                         rows[r].latest);
        }
        free(before);
        free(out);
        free(err);
        free(ws);
        free(dir);
    }
    free(good);
    free(bad);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_commit_opens_ahead_untouched),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
