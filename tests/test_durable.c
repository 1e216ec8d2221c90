/* test_durable.c - a commit is on disk when ws_commit returns. SQLite runs under a VFS shim that
 * forwards every call to the default VFS and notes, per file, whether a write has not been
 * synced since: when ws_commit returns, the WAL holds nothing unsynced (FULL's guarantee, which
 * the commit keeps with synchronous=NORMAL and its own checkpoint), with the workspace alone,
 * beside an idle connection (a workbench) and beside a reader holding an older snapshot (the
 * checkpoint cannot copy the new frames into the file; the WAL itself must then be synced). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "design.h"
#include "support.h"
#include "workspace.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the shim: a file is "dirty" from a write or truncation until its next sync ---------- */

typedef struct {
    sqlite3_file base;
    sqlite3_file *real; /* the default VFS's file, allocated right after this struct */
    int kind;           /* SQLITE_OPEN_MAIN_DB, SQLITE_OPEN_WAL, ... */
} shim_file;

static struct {
    sqlite3_vfs *real;
    int wal_dirty, db_dirty; /* files of the kind with unsynced writes (any connection) */
    int wal_syncs, db_syncs;
} shim;

static void mark(const shim_file *f, int delta_dirty, bool sync)
{
    if (f->kind == SQLITE_OPEN_WAL) {
        shim.wal_dirty = delta_dirty > 0 ? 1 : sync ? 0 : shim.wal_dirty;
        shim.wal_syncs += sync;
    } else if (f->kind == SQLITE_OPEN_MAIN_DB) {
        shim.db_dirty = delta_dirty > 0 ? 1 : sync ? 0 : shim.db_dirty;
        shim.db_syncs += sync;
    }
}

#define REAL(f) (((shim_file *)(f))->real)

static int f_close(sqlite3_file *f) { return REAL(f)->pMethods->xClose(REAL(f)); }
static int f_read(sqlite3_file *f, void *b, int n, sqlite3_int64 o)
{
    return REAL(f)->pMethods->xRead(REAL(f), b, n, o);
}
static int f_write(sqlite3_file *f, const void *b, int n, sqlite3_int64 o)
{
    int rc = REAL(f)->pMethods->xWrite(REAL(f), b, n, o);
    mark((shim_file *)f, 1, false);
    return rc;
}
static int f_truncate(sqlite3_file *f, sqlite3_int64 size)
{
    int rc = REAL(f)->pMethods->xTruncate(REAL(f), size);
    mark((shim_file *)f, 1, false);
    return rc;
}
static int f_sync(sqlite3_file *f, int flags)
{
    int rc = REAL(f)->pMethods->xSync(REAL(f), flags);
    if (rc == SQLITE_OK)
        mark((shim_file *)f, 0, true);
    return rc;
}
static int f_size(sqlite3_file *f, sqlite3_int64 *size)
{
    return REAL(f)->pMethods->xFileSize(REAL(f), size);
}
static int f_lock(sqlite3_file *f, int l) { return REAL(f)->pMethods->xLock(REAL(f), l); }
static int f_unlock(sqlite3_file *f, int l) { return REAL(f)->pMethods->xUnlock(REAL(f), l); }
static int f_reserved(sqlite3_file *f, int *out)
{
    return REAL(f)->pMethods->xCheckReservedLock(REAL(f), out);
}
static int f_control(sqlite3_file *f, int op, void *arg)
{
    return REAL(f)->pMethods->xFileControl(REAL(f), op, arg);
}
static int f_sector(sqlite3_file *f) { return REAL(f)->pMethods->xSectorSize(REAL(f)); }
static int f_caps(sqlite3_file *f) { return REAL(f)->pMethods->xDeviceCharacteristics(REAL(f)); }
static int f_shm_map(sqlite3_file *f, int pg, int sz, int ext, void volatile **p)
{
    return REAL(f)->pMethods->xShmMap(REAL(f), pg, sz, ext, p);
}
static int f_shm_lock(sqlite3_file *f, int off, int n, int flags)
{
    return REAL(f)->pMethods->xShmLock(REAL(f), off, n, flags);
}
static void f_shm_barrier(sqlite3_file *f) { REAL(f)->pMethods->xShmBarrier(REAL(f)); }
static int f_shm_unmap(sqlite3_file *f, int del) { return REAL(f)->pMethods->xShmUnmap(REAL(f), del); }
static int f_fetch(sqlite3_file *f, sqlite3_int64 o, int n, void **p)
{
    return REAL(f)->pMethods->xFetch(REAL(f), o, n, p);
}
static int f_unfetch(sqlite3_file *f, sqlite3_int64 o, void *p)
{
    return REAL(f)->pMethods->xUnfetch(REAL(f), o, p);
}

static const sqlite3_io_methods shim_methods = {
    .iVersion = 3,
    .xClose = f_close,
    .xRead = f_read,
    .xWrite = f_write,
    .xTruncate = f_truncate,
    .xSync = f_sync,
    .xFileSize = f_size,
    .xLock = f_lock,
    .xUnlock = f_unlock,
    .xCheckReservedLock = f_reserved,
    .xFileControl = f_control,
    .xSectorSize = f_sector,
    .xDeviceCharacteristics = f_caps,
    .xShmMap = f_shm_map,
    .xShmLock = f_shm_lock,
    .xShmBarrier = f_shm_barrier,
    .xShmUnmap = f_shm_unmap,
    .xFetch = f_fetch,
    .xUnfetch = f_unfetch,
};

static int v_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *out)
{
    shim_file *f = (shim_file *)file;
    f->real = (sqlite3_file *)(f + 1);
    f->kind =
        flags & (SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_WAL | SQLITE_OPEN_MAIN_JOURNAL | SQLITE_OPEN_TEMP_DB |
                 SQLITE_OPEN_TEMP_JOURNAL | SQLITE_OPEN_SUBJOURNAL | SQLITE_OPEN_SUPER_JOURNAL);
    int rc = shim.real->xOpen(shim.real, name, f->real, flags, out);
    f->base.pMethods = rc == SQLITE_OK && f->real->pMethods ? &shim_methods : NULL;
    (void)vfs;
    return rc;
}
static int v_delete(sqlite3_vfs *v, const char *n, int sync)
{
    return shim.real->xDelete(shim.real, n, sync);
}
static int v_access(sqlite3_vfs *v, const char *n, int fl, int *out)
{
    return shim.real->xAccess(shim.real, n, fl, out);
}
static int v_full(sqlite3_vfs *v, const char *n, int sz, char *out)
{
    return shim.real->xFullPathname(shim.real, n, sz, out);
}
static void *v_dlopen(sqlite3_vfs *v, const char *n) { return shim.real->xDlOpen(shim.real, n); }
static void v_dlerror(sqlite3_vfs *v, int n, char *m) { shim.real->xDlError(shim.real, n, m); }
static void (*v_dlsym(sqlite3_vfs *v, void *h, const char *s))(void)
{
    return shim.real->xDlSym(shim.real, h, s);
}
static void v_dlclose(sqlite3_vfs *v, void *h) { shim.real->xDlClose(shim.real, h); }
static int v_random(sqlite3_vfs *v, int n, char *out) { return shim.real->xRandomness(shim.real, n, out); }
static int v_sleep(sqlite3_vfs *v, int us) { return shim.real->xSleep(shim.real, us); }
static int v_time(sqlite3_vfs *v, double *t) { return shim.real->xCurrentTime(shim.real, t); }
static int v_lasterr(sqlite3_vfs *v, int n, char *m) { return shim.real->xGetLastError(shim.real, n, m); }
static int v_time64(sqlite3_vfs *v, sqlite3_int64 *t) { return shim.real->xCurrentTimeInt64(shim.real, t); }

static sqlite3_vfs shim_vfs = {
    .iVersion = 2,
    .zName = "keyplan-test-shim",
    .xOpen = v_open,
    .xDelete = v_delete,
    .xAccess = v_access,
    .xFullPathname = v_full,
    .xDlOpen = v_dlopen,
    .xDlError = v_dlerror,
    .xDlSym = v_dlsym,
    .xDlClose = v_dlclose,
    .xRandomness = v_random,
    .xSleep = v_sleep,
    .xCurrentTime = v_time,
    .xGetLastError = v_lasterr,
    .xCurrentTimeInt64 = v_time64,
};

static int setup(void **state)
{
    (void)state;
    if (!shim.real) {
        shim.real = sqlite3_vfs_find(NULL);
        assert_non_null(shim.real);
        shim_vfs.szOsFile = (int)sizeof(shim_file) + shim.real->szOsFile;
        shim_vfs.mxPathname = shim.real->mxPathname;
        assert_int_equal(sqlite3_vfs_register(&shim_vfs, 1), SQLITE_OK); /* the default from now on */
    }
    return 0;
}

/* ---- the cases --------------------------------------------------------------------------- */

typedef enum { ALONE, IDLE_READER, OLD_SNAPSHOT } company;

static const struct {
    const char *what;
    company with;
    bool file_holds_it; /* the checkpoint copies the version into the file (and syncs it) */
} rows[] = {
    {"the workspace alone (a command)", ALONE, true},
    {"beside an idle connection (a workbench)", IDLE_READER, true},
    {"beside a reader on an older snapshot", OLD_SNAPSHOT, false},
};

static void test_commit_is_synced_when_it_returns(void **state)
{
    (void)state;
    kp_design *d = ts_load_file("samples/cloudshop/design.yaml"),
              *d2 = ts_load_file("samples/iot/design.yaml");
    assert_non_null(d);
    assert_non_null(d2);
    for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
        char *p = ts_ws_file();
        ws_t *ws = ts_ws_open(p, WS_CREATE);
        char *err = NULL;
        int n = 0;
        assert_int_equal(ws_commit(ws, d, "ana", "first", WS_PARENT_LATEST, false, &n, &err), KP_OK);
        sqlite3 *other = NULL;
        if (rows[r].with != ALONE) {
            assert_int_equal(sqlite3_open_v2(p, &other, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
            if (rows[r].with == OLD_SNAPSHOT) {
                assert_int_equal(
                    sqlite3_exec(other, "BEGIN; SELECT count(*) FROM versions", NULL, NULL, NULL), SQLITE_OK);
            }
        }
        shim.wal_dirty = shim.db_dirty = 0;
        shim.wal_syncs = shim.db_syncs = 0;
        /* a text the workspace does not hold yet: a new blob too */
        assert_int_equal(ws_commit(ws, d2, "ana", "second", WS_PARENT_LATEST, false, &n, &err), KP_OK);
        assert_int_equal(n, 2);
        if (shim.wal_dirty)
            fail_msg("%s: the WAL holds writes not yet synced when ws_commit returns", rows[r].what);
        assert_true(shim.wal_syncs > 0);
        if (rows[r].file_holds_it) {
            if (shim.db_dirty || shim.db_syncs == 0)
                fail_msg("%s: the checkpoint left the file unsynced", rows[r].what);
        }
        /* the version is there for the other connection too */
        if (other) {
            sqlite3_exec(other, "COMMIT", NULL, NULL, NULL);
            sqlite3_stmt *s = NULL;
            assert_int_equal(sqlite3_prepare_v2(other, "SELECT max(number) FROM versions", -1, &s, NULL),
                             SQLITE_OK);
            assert_int_equal(sqlite3_step(s), SQLITE_ROW);
            assert_int_equal(sqlite3_column_int(s, 0), 2);
            sqlite3_finalize(s);
            sqlite3_close(other);
        }
        ws_close(ws);
        free(err);
        free(p);
    }
    design_free(d);
    design_free(d2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_commit_is_synced_when_it_returns, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
