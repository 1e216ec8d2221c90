/* workspace.c - the SQLite workspace.
 *
 * Schema (PRAGMA application_id = 0x4B504C4E "KPLN"; PRAGMA user_version = schema version, 5):
 *
 *   meta(key TEXT PRIMARY KEY, value TEXT)           created_at, created_by ("keyplan VERSION")
 *   versions(number INTEGER PRIMARY KEY,             1, 2, ... in commit order; immutable
 *            parent INTEGER REFERENCES versions,     NULL for the first version
 *            time TEXT, author TEXT, message TEXT,   time is ISO 8601 UTC
 *            name TEXT,                              the design's name at that version
 *            design TEXT,                            canonical YAML before schema 3; '' after
 *            digest TEXT,                            FNV-1a 64 of the design text, hex (schema 2)
 *            decisions_of INTEGER,                   the version whose decisions rows are this
 *                                                    one's (schema 3; NULL: its own)
 *            decisions_digest TEXT)                  digest of those rows (schema 3)
 *   blobs(digest TEXT PRIMARY KEY, size, data)       each design text once, zlib-compressed
 *                                                    (schema 3; versions find theirs by digest)
 *   decisions(version REFERENCES versions, id,       one row per decision of each version
 *             title, status, patterns JSON, context, decision, alternatives JSON
 *             [{option, why_not}], assumptions JSON, failure_test, rollback, limitations)
 *   signals(version, decision, seq,                  one row per signal; FK to decisions
 *           signal, metric, op, threshold REAL,      "pattern.5.rate > 50" split up
 *           design_value REAL)                       the version's own value (NULL unknown)
 *   observations(id INTEGER PRIMARY KEY, metric, value REAL, time, source)
 *   copies(author TEXT PRIMARY KEY,                  one working copy per author (schema 3;
 *          base REFERENCES versions, design, time,   schema 2's one copy becomes author '');
 *          stamp INTEGER)                            stamp counts its changes (schema 4)
 *   edits(seq INTEGER PRIMARY KEY, author,           a working copy's latest saves (schema 4):
 *         prefix, suffix, design, hunks)             its text is copies.design with each edit
 *                                                    applied in seq order (bytes `prefix` to
 *                                                    length - `suffix` replaced by design; or,
 *                                                    hunks not NULL, schema 5, each "at len
 *                                                    nowlen" line's range replaced by the next
 *                                                    nowlen bytes of design);
 *                                                    folded into copies.design at WS_EDITS_CAP
 *                                                    edits, by ws_working_fold and any whole save
 *   history(seq INTEGER PRIMARY KEY, author,         undo/redo per author (schema 2; author,
 *           stack 'undo'|'redo', design, label,      base, prefix, suffix schema 3; hunks
 *           time, base, prefix, suffix, hunks)       schema 5): an entry with prefix NULL
 *                                                    holds a whole state; else the state is the
 *                                                    one above it (the working copy for the
 *                                                    top) with the bytes between `prefix` and
 *                                                    `suffix` replaced by design, or with its
 *                                                    hunks made as an edit's
 *   presence(id TEXT PRIMARY KEY, author, screen,    who has the workspace open in a workbench,
 *            row, beat REAL)                         with a heartbeat (unix time; schema 3)
 *
 * Triggers refuse UPDATE and DELETE on versions (schema 2). Migrations are the steps of
 * `migrations[]`, run in order from the file's user_version inside one transaction. */
#include "workspace.h"

#include "analysis.h"
#include "design_io.h"
#include "i18n.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#define WS_APP_ID 0x4B504C4E
/* Undo steps kept per author (the oldest go first); ws_compact keeps fewer on demand. */
#define WS_UNDO_CAP 1000
/* Edits kept in a working copy's log before they are folded into its text (a save then writes
 * the whole text once). */
#define WS_EDITS_CAP 64
/* A presence row older than this (seconds) is someone who quit without saying so. */
#define WS_PRESENCE_STALE 4.0

struct ws {
    sqlite3 *db;
    char *path;
    char *author;   /* whose working copy, undo history and presence */
    char *presence; /* this handle's presence row id, NULL before the first beat */
    bool ro;
    long long data_version;
    long long stamp;    /* the versions and observations seen by ws_changed_elsewhere */
    long long schema;   /* the file's schema (below ours only when opened for salvage) */
    char *quick;        /* WS_SALVAGE: the first problem PRAGMA quick_check found, NULL when none */
    long long wc_stamp; /* the author's working copy's stamp as this handle last saved it whole or
                           spliced it (ws_working_splice's precondition), -1 when not known */
};

/* ---- errors ------------------------------------------------------------------------------ */

static kp_status status_of(int rc)
{
    switch (rc & 0xff) {
    case SQLITE_READONLY:
        return KP_READONLY;
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
        return KP_DAMAGED;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return KP_CONFLICT;
    case SQLITE_NOMEM:
        return KP_NOMEM;
    default:
        return KP_IO;
    }
}

static kp_status db_fail(sqlite3 *db, const char *path, char **err, const char *what)
{
    int rc = sqlite3_extended_errcode(db);
    kp_status st = status_of(rc);
    const char *hint = "";
    if (st == KP_READONLY)
        hint = _(" (the workspace is read-only)");
    else if (st == KP_DAMAGED)
        hint = _(" (the workspace file is damaged)");
    else if (st == KP_CONFLICT)
        hint = _(" (another keyplan is writing to this workspace; try again)");
    /* TRANSLATORS: %1$s the workspace file; %2$s what could not be done, a verb phrase ("read the
     * versions"); %3$s SQLite's own message; %4$s a hint in parentheses, or nothing. */
    return kp_fail(err, st, _("%1$s: cannot %2$s: %3$s%4$s"), path, what, sqlite3_errmsg(db), hint);
}

static kp_status ws_fail(ws_t *ws, char **err, const char *what)
{
    return db_fail(ws->db, ws->path, err, what);
}

/* ---- small helpers ----------------------------------------------------------------------- */

static char *now_iso(void)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    char buf[32];
    strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return xstrdup(buf);
}

static char *digest_of(const char *s)
{
    return xasprintf("%016llx", (unsigned long long)util_hash_str(UTIL_HASH_SEED, s));
}

static char *col_text(sqlite3_stmt *st, int i)
{
    const unsigned char *t = sqlite3_column_text(st, i);
    return xstrdup(t ? (const char *)t : "");
}

/* The user.name of a git config file (the last one it sets), or NULL. Caller frees. */
static char *git_user_name(const char *file)
{
    FILE *f = fopen(file, "r");
    if (!f)
        return NULL;
    char line[1024];
    bool in_user = false;
    char *name = NULL;
    while (fgets(line, sizeof line, f)) {
        char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '[') {
            in_user = strncasecmp(p, "[user]", 6) == 0;
            continue;
        }
        if (!in_user || strncasecmp(p, "name", 4) != 0)
            continue;
        p += 4;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p != '=')
            continue;
        p++;
        while (*p == ' ' || *p == '\t')
            p++;
        size_t n = strcspn(p, "\r\n");
        while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
            n--;
        if (n >= 2 && p[0] == '"' && p[n - 1] == '"') {
            p++;
            n -= 2;
        }
        free(name);
        name = n ? xstrndup(p, n) : NULL;
    }
    fclose(f);
    return name;
}

/* git's user.name from the global config ($GIT_CONFIG_GLOBAL, else ~/.gitconfig over
 * $XDG_CONFIG_HOME/git/config), or NULL. Caller frees. */
static char *git_author(void)
{
    const char *g = getenv("GIT_CONFIG_GLOBAL");
    if (g && *g)
        return git_user_name(g);
    const char *home = getenv("HOME");
    char *name = NULL;
    if (home && *home) {
        char *f = xasprintf("%s/.gitconfig", home);
        name = git_user_name(f);
        free(f);
    }
    if (!name) {
        const char *xdg = getenv("XDG_CONFIG_HOME");
        char *f = xdg && *xdg     ? xasprintf("%s/git/config", xdg)
                  : home && *home ? xasprintf("%s/.config/git/config", home)
                                  : NULL;
        if (f)
            name = git_user_name(f);
        free(f);
    }
    return name;
}

char *ws_default_author(void)
{
    const char *a = getenv("KEYPLAN_AUTHOR");
    char *git = NULL;
    if (!a || !*a)
        a = git = git_author();
    if (!a || !*a)
        a = getenv("USER");
    if (!a || !*a)
        a = "unknown";
    /* the environment is outside input: a control character in it must not reach a terminal */
    char *r = util_control_at(a, false) >= 0 ? util_escape_controls(a) : xstrdup(a);
    free(git);
    return r;
}

int ws_schema_version(void);

/* The columns vtext reads, from versions joined with their blob (a file of schema 2 opened for
 * salvage, never migrated, has no blobs). */
static const char *vtext_cols(long long schema)
{
    return schema >= 3 ? "v.design, v.digest, b.data, b.size FROM versions v "
                         "LEFT JOIN blobs b ON v.design = '' AND b.digest = v.digest"
                       : "v.design, v.digest, NULL, NULL FROM versions v";
}

/* The design text of a version row (columns design, digest, blob data, blob size from column i),
 * or NULL when it is damaged: missing, not inflating to its size, or not matching its digest.
 * Caller frees. */
static char *vtext(sqlite3_stmt *s, int i)
{
    const char *inl = (const char *)sqlite3_column_text(s, i);
    const char *stored = (const char *)sqlite3_column_text(s, i + 1);
    char *text = NULL;
    if (inl && *inl) {
        text = xstrdup(inl);
    } else if (sqlite3_column_type(s, i + 2) == SQLITE_BLOB) {
        long long size = sqlite3_column_int64(s, i + 3);
        const void *data = sqlite3_column_blob(s, i + 2);
        uLongf n = (uLongf)size;
        if (size >= 0 && size < (1LL << 31)) {
            text = xmalloc((size_t)size + 1);
            if (uncompress((Bytef *)text, &n, data, (uLong)sqlite3_column_bytes(s, i + 2)) != Z_OK ||
                n != (uLongf)size || memchr(text, '\0', (size_t)size)) {
                free(text);
                text = NULL;
            } else {
                text[size] = '\0';
            }
        }
    }
    if (!text)
        return NULL;
    char *mine = digest_of(text);
    bool intact = stored && strcmp(stored, mine) == 0;
    free(mine);
    if (!intact) {
        free(text);
        return NULL;
    }
    return text;
}

static long long content_stamp(ws_t *ws);

static bool exec(sqlite3 *db, const char *sql)
{
    return sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK;
}

static void configure(sqlite3 *db)
{
    sqlite3_extended_result_codes(db, 1);
    sqlite3_busy_timeout(db, 5000);
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)NULL);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, (int *)NULL);
#ifdef SQLITE_DBCONFIG_TRUSTED_SCHEMA
    sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int *)NULL);
#endif
    exec(db, "PRAGMA foreign_keys=ON");
}

static bool pragma_int(sqlite3 *db, const char *sql, long long *out)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        return false;
    bool ok = sqlite3_step(st) == SQLITE_ROW;
    if (ok)
        *out = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return ok;
}

/* ---- undo deltas ------------------------------------------------------------------------- */

/* ---- hunks: a change of several ranges of a text (schema 5) ------------------------------- */

/* Bytes [at, at + len) of a text replaced by now[0..nowlen); a list of them is in ascending order
 * of `at`, none overlapping. Stored as a text of one line "at len nowlen" per hunk (the `hunks`
 * column) beside the replacements, one after the other (the `design` column). */
typedef struct hunk {
    size_t at, len;
    const char *now;
    size_t nowlen;
} hunk;

/* The hunks of column text `spec` over the replacements bytes[0..nbytes) (pointed into), on a
 * text of blen bytes; NULL (nothing to free) when they do not fit it: out of order, overlapping,
 * past its end, or not using the bytes exactly. *n receives their number. Caller frees. */
static hunk *hunks_parse(const char *spec, const char *bytes, size_t nbytes, size_t blen, size_t *n)
{
    size_t cap = 0, used = 0, end = 0;
    hunk *h = NULL;
    *n = 0;
    for (const char *p = spec; *p;) {
        unsigned long long v[3];
        for (int k = 0; k < 3; k++) { /* digits, then a space, the last a newline (not sscanf: it
                                          measures the rest of the text each time) */
            char *e = NULL;
            v[k] = *p >= '0' && *p <= '9' ? strtoull(p, &e, 10) : 0;
            if (!e || *e != (k < 2 ? ' ' : '\n')) {
                free(h);
                return NULL;
            }
            p = e + 1;
        }
        unsigned long long at = v[0], len = v[1], nl = v[2];
        if (at < end || len > blen || at > blen - len || nl > nbytes - used) {
            free(h);
            return NULL;
        }
        VEC_GROW(h, *n, cap);
        h[(*n)++] = (hunk){(size_t)at, (size_t)len, bytes + used, (size_t)nl};
        used += (size_t)nl;
        end = (size_t)(at + len);
    }
    if (used != nbytes || !*n) {
        free(h);
        return NULL;
    }
    return h;
}

/* base[0..blen) with the hunks made; *outlen its length. Caller frees. */
static char *hunks_apply(const char *base, size_t blen, const hunk *h, size_t n, size_t *outlen)
{
    size_t len = blen;
    for (size_t i = 0; i < n; i++)
        len = len - h[i].len + h[i].nowlen;
    char *r = xmalloc(len + 1), *o = r;
    size_t from = 0;
    for (size_t i = 0; i < n; i++) {
        memcpy(o, base + from, h[i].at - from);
        o += h[i].at - from;
        memcpy(o, h[i].now, h[i].nowlen);
        o += h[i].nowlen;
        from = h[i].at + h[i].len;
    }
    memcpy(o, base + from, blen - from);
    r[len] = '\0';
    *outlen = len;
    return r;
}

/* The hunks that take the text made by h (on base) back to base: each at its place in the new
 * text, its replacement base's old bytes (pointed into). inv has room for n. */
static void hunks_inverse(const char *base, const hunk *h, size_t n, hunk *inv)
{
    long long shift = 0;
    for (size_t i = 0; i < n; i++) {
        inv[i] = (hunk){(size_t)((long long)h[i].at + shift), h[i].nowlen, base + h[i].at, h[i].len};
        shift += (long long)h[i].nowlen - (long long)h[i].len;
    }
}

/* The column text of hunks h and their replacements, one after the other (*bytes, *nbytes).
 * Caller frees both. */
static char *hunks_spec(const hunk *h, size_t n, char **bytes, size_t *nbytes)
{
    sbuf spec, b;
    sbuf_init(&spec);
    sbuf_init(&b);
    for (size_t i = 0; i < n; i++) {
        sbuf_printf(&spec, "%zu %zu %zu\n", h[i].at, h[i].len, h[i].nowlen);
        sbuf_addn(&b, h[i].now, h[i].nowlen);
    }
    *nbytes = b.len;
    *bytes = b.s ? sbuf_steal(&b) : xstrdup("");
    return sbuf_steal(&spec);
}

/* One history entry as read: a whole state (prefix < 0), a delta on the state above it (the
 * bytes between prefix and suffix), or hunks on it (hunks not NULL, schema 5). */
typedef struct hentry {
    long long seq;
    char *text;
    size_t len;
    long long prefix, suffix;
    int base; /* -1: not recorded (schema 2) */
    char *label;
    char *hunks;
} hentry;

static void hentry_free(hentry *e)
{
    free(e->text);
    free(e->label);
    free(e->hunks);
    memset(e, 0, sizeof *e);
}

/* The state entry `e` stands for, given the state above it (`above`, its length `alen`); NULL
 * when the delta does not fit (a damaged entry). Caller frees. */
static char *hentry_apply(const hentry *e, const char *above, size_t alen)
{
    if (e->hunks) {
        size_t n, len;
        hunk *h = hunks_parse(e->hunks, e->text, e->len, alen, &n);
        char *r = h ? hunks_apply(above, alen, h, n, &len) : NULL;
        free(h);
        return r;
    }
    if (e->prefix < 0)
        return xstrndup(e->text, e->len);
    if ((unsigned long long)e->prefix + (unsigned long long)e->suffix > alen)
        return NULL;
    size_t p = (size_t)e->prefix, sfx = (size_t)e->suffix;
    char *r = xmalloc(p + e->len + sfx + 1);
    memcpy(r, above, p);
    memcpy(r + p, e->text, e->len);
    memcpy(r + p + e->len, above + alen - sfx, sfx);
    r[p + e->len + sfx] = '\0';
    return r;
}

/* The delta that turns `to` (the state above) back into `from`: the bytes of `from` between
 * their common prefix and suffix. */
static void delta_of(const char *from, const char *to, size_t *prefix, size_t *suffix, const char **mid,
                     size_t *midlen)
{
    size_t fl = strlen(from), tl = strlen(to), p = 0, sfx = 0;
    while (p < fl && p < tl && from[p] == to[p])
        p++;
    while (sfx < fl - p && sfx < tl - p && from[fl - 1 - sfx] == to[tl - 1 - sfx])
        sfx++;
    *prefix = p;
    *suffix = sfx;
    *mid = from + p;
    *midlen = fl - p - sfx;
}

static bool hentry_read(sqlite3_stmt *s, hentry *e)
{
    e->seq = sqlite3_column_int64(s, 0);
    const void *t = sqlite3_column_blob(s, 1);
    e->len = (size_t)sqlite3_column_bytes(s, 1);
    e->text = xmalloc(e->len + 1);
    if (e->len)
        memcpy(e->text, t, e->len);
    e->text[e->len] = '\0';
    e->label =
        sqlite3_column_type(s, 2) == SQLITE_NULL ? NULL : xstrdup((const char *)sqlite3_column_text(s, 2));
    e->base = sqlite3_column_type(s, 3) == SQLITE_NULL ? -1 : sqlite3_column_int(s, 3);
    e->prefix = sqlite3_column_type(s, 4) == SQLITE_NULL ? -1 : sqlite3_column_int64(s, 4);
    e->suffix = sqlite3_column_int64(s, 5);
    e->hunks =
        sqlite3_column_type(s, 6) == SQLITE_NULL ? NULL : xstrdup((const char *)sqlite3_column_text(s, 6));
    return true;
}

#define HENTRY_COLS "seq, design, label, base, prefix, suffix, hunks"
/* before schema 5, which added the hunks */
#define HENTRY_COLS_V3 "seq, design, label, base, prefix, suffix, NULL"

/* `author`'s working copy text: `stored` (its copies.design) with the author's edit log applied
 * in order (schema 4 on), or NULL when an edit does not fit the text (a damaged log) or the log
 * cannot be read. Caller frees. */
static char *with_edits(sqlite3 *db, long long schema, const char *author, const char *stored)
{
    size_t len = strlen(stored), cap = len + 1;
    char *t = xmalloc(cap);
    memcpy(t, stored, len + 1);
    if (schema < 4)
        return t;
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(
            db,
            schema >= 5 ? "SELECT prefix, suffix, design, hunks FROM edits WHERE author = ?1 ORDER BY seq"
                        : "SELECT prefix, suffix, design, NULL FROM edits WHERE author = ?1 ORDER BY seq",
            -1, &s, NULL) != SQLITE_OK) {
        free(t);
        return NULL;
    }
    sqlite3_bind_text(s, 1, author, -1, SQLITE_STATIC);
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        long long p = sqlite3_column_int64(s, 0), sfx = sqlite3_column_int64(s, 1);
        const char *mid = (const char *)sqlite3_column_blob(s, 2);
        size_t ml = (size_t)sqlite3_column_bytes(s, 2);
        if (sqlite3_column_type(s, 3) != SQLITE_NULL) { /* several ranges at once */
            size_t n, nlen;
            hunk *h = ml && memchr(mid, '\0', ml)
                          ? NULL
                          : hunks_parse((const char *)sqlite3_column_text(s, 3), mid, ml, len, &n);
            char *next = h ? hunks_apply(t, len, h, n, &nlen) : NULL;
            free(h);
            if (!next) {
                rc = SQLITE_CORRUPT;
                break;
            }
            free(t);
            t = next;
            len = nlen;
            cap = nlen + 1;
            continue;
        }
        if (p < 0 || sfx < 0 || (unsigned long long)p + (unsigned long long)sfx > len ||
            (ml && memchr(mid, '\0', ml))) {
            rc = SQLITE_CORRUPT;
            break;
        }
        size_t nlen = (size_t)p + ml + (size_t)sfx;
        if (nlen + 1 > cap) {
            cap = nlen + 1 + nlen / 2;
            t = xrealloc(t, cap);
        }
        memmove(t + p + ml, t + len - (size_t)sfx, (size_t)sfx + 1);
        if (ml)
            memcpy(t + p, mid, ml);
        len = nlen;
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE) {
        free(t);
        return NULL;
    }
    return t;
}

/* Folds `author`'s edit log (every author's when NULL) into copies.design: the same text, stored
 * whole. false on a SQLite failure or a damaged log (nothing is folded then). */
static bool fold_edits(sqlite3 *db, const char *author)
{
    sqlite3_stmt *s, *upd;
    if (sqlite3_prepare_v2(
            db,
            "SELECT author, design FROM copies WHERE (?1 IS NULL OR author = ?1) AND author IN "
            "(SELECT author FROM edits)",
            -1, &s, NULL) != SQLITE_OK)
        return false;
    if (sqlite3_prepare_v2(db, "UPDATE copies SET design = ?2 WHERE author = ?1", -1, &upd, NULL) !=
        SQLITE_OK) {
        sqlite3_finalize(s);
        return false;
    }
    if (author)
        sqlite3_bind_text(s, 1, author, -1, SQLITE_STATIC);
    bool ok = true;
    int rc;
    while (ok && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        const char *a = (const char *)sqlite3_column_text(s, 0);
        const char *stored = (const char *)sqlite3_column_text(s, 1);
        char *who = xstrdup(a ? a : "");
        char *text = with_edits(db, 5, who, stored ? stored : "");
        ok = text != NULL;
        if (ok) {
            sqlite3_bind_text(upd, 1, who, -1, SQLITE_STATIC);
            sqlite3_bind_text(upd, 2, text, -1, SQLITE_STATIC);
            ok = sqlite3_step(upd) == SQLITE_DONE;
            sqlite3_reset(upd);
        }
        free(text);
        free(who);
    }
    sqlite3_finalize(s);
    sqlite3_finalize(upd);
    if (!ok)
        return false;
    if (sqlite3_prepare_v2(db, "DELETE FROM edits WHERE ?1 IS NULL OR author = ?1", -1, &s, NULL) !=
        SQLITE_OK)
        return false;
    if (author)
        sqlite3_bind_text(s, 1, author, -1, SQLITE_STATIC);
    ok = sqlite3_step(s) == SQLITE_DONE;
    sqlite3_finalize(s);
    return ok;
}

/* Rewrites every whole-state entry of `author`'s stack as a delta on the state above it
 * (starting from the working copy `top`). false on a SQLite failure. */
static bool compact_stack(sqlite3 *db, const char *author, const char *stack, const char *top, bool hunks)
{
    sqlite3_stmt *sel, *upd;
    if (sqlite3_prepare_v2(db,
                           hunks ? "SELECT " HENTRY_COLS " FROM history WHERE author = ?1 AND stack = ?2 "
                                   "ORDER BY seq DESC"
                                 : "SELECT " HENTRY_COLS_V3 " FROM history WHERE author = ?1 AND stack = ?2 "
                                   "ORDER BY seq DESC",
                           -1, &sel, NULL) != SQLITE_OK)
        return false;
    if (sqlite3_prepare_v2(db, "UPDATE history SET design = ?2, prefix = ?3, suffix = ?4 WHERE seq = ?1", -1,
                           &upd, NULL) != SQLITE_OK) {
        sqlite3_finalize(sel);
        return false;
    }
    sqlite3_bind_text(sel, 1, author, -1, SQLITE_STATIC);
    sqlite3_bind_text(sel, 2, stack, -1, SQLITE_STATIC);
    char *above = xstrdup(top);
    bool ok = true;
    int rc;
    while (ok && (rc = sqlite3_step(sel)) == SQLITE_ROW) {
        hentry e;
        hentry_read(sel, &e);
        char *state = hentry_apply(&e, above, strlen(above));
        if (!state) { /* a damaged delta: the stack below it cannot be rebuilt */
            hentry_free(&e);
            break;
        }
        if (e.prefix < 0) {
            size_t p, sfx, ml;
            const char *mid;
            delta_of(state, above, &p, &sfx, &mid, &ml);
            sqlite3_bind_int64(upd, 1, e.seq);
            sqlite3_bind_text(upd, 2, mid, (int)ml, SQLITE_TRANSIENT);
            sqlite3_bind_int64(upd, 3, (long long)p);
            sqlite3_bind_int64(upd, 4, (long long)sfx);
            ok = sqlite3_step(upd) == SQLITE_DONE;
            sqlite3_reset(upd);
        }
        free(above);
        above = state;
        hentry_free(&e);
    }
    free(above);
    sqlite3_finalize(sel);
    sqlite3_finalize(upd);
    return ok;
}

/* Every author's stacks as deltas (schema 3's migration step and ws_compact). */
static bool compact_all(sqlite3 *db, bool hunks)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, "SELECT author, design FROM copies", -1, &s, NULL) != SQLITE_OK)
        return false;
    bool ok = true;
    while (ok && sqlite3_step(s) == SQLITE_ROW) {
        const char *author = (const char *)sqlite3_column_text(s, 0);
        const char *top = (const char *)sqlite3_column_text(s, 1);
        char *a = xstrdup(author ? author : ""), *t = xstrdup(top ? top : "");
        ok = compact_stack(db, a, "undo", t, hunks) && compact_stack(db, a, "redo", t, hunks);
        free(a);
        free(t);
    }
    sqlite3_finalize(s);
    return ok;
}

/* ---- migrations -------------------------------------------------------------------------- */

static const char schema_v1[] =
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);\n"
    "CREATE TABLE versions(\n"
    "  number INTEGER PRIMARY KEY,\n"
    "  parent INTEGER REFERENCES versions(number),\n"
    "  time TEXT NOT NULL,\n"
    "  author TEXT NOT NULL,\n"
    "  message TEXT NOT NULL,\n"
    "  name TEXT NOT NULL DEFAULT '',\n"
    "  design TEXT NOT NULL);\n"
    "CREATE TABLE decisions(\n"
    "  version INTEGER NOT NULL REFERENCES versions(number),\n"
    "  id TEXT NOT NULL,\n"
    "  title TEXT, status TEXT NOT NULL, patterns TEXT, context TEXT, decision TEXT,\n"
    "  alternatives TEXT, assumptions TEXT, failure_test TEXT, rollback TEXT, limitations TEXT,\n"
    "  PRIMARY KEY(version, id));\n"
    "CREATE TABLE signals(\n"
    "  version INTEGER NOT NULL, decision TEXT NOT NULL, seq INTEGER NOT NULL,\n"
    "  signal TEXT NOT NULL, metric TEXT NOT NULL, op TEXT NOT NULL, threshold REAL NOT NULL,\n"
    "  design_value REAL,\n"
    "  PRIMARY KEY(version, decision, seq),\n"
    "  FOREIGN KEY(version, decision) REFERENCES decisions(version, id));\n"
    "CREATE TABLE observations(id INTEGER PRIMARY KEY, metric TEXT NOT NULL, value REAL NOT NULL,\n"
    "  time TEXT NOT NULL, source TEXT NOT NULL);\n"
    "CREATE TABLE working(id INTEGER PRIMARY KEY CHECK (id = 1),\n"
    "  base INTEGER REFERENCES versions(number), design TEXT NOT NULL, time TEXT NOT NULL);\n";

static const char schema_v2[] =
    "ALTER TABLE versions ADD COLUMN digest TEXT;\n"
    "CREATE TABLE history(seq INTEGER PRIMARY KEY,\n"
    "  stack TEXT NOT NULL CHECK (stack IN ('undo', 'redo')),\n"
    "  design TEXT NOT NULL, label TEXT, time TEXT NOT NULL);\n"
    "CREATE INDEX history_stack ON history(stack, seq);\n"
    "CREATE INDEX observations_metric ON observations(metric, id);\n"
    "CREATE INDEX signals_metric ON signals(metric);\n"
    "CREATE TRIGGER versions_no_update BEFORE UPDATE ON versions WHEN OLD.digest IS NOT NULL\n"
    "  BEGIN SELECT RAISE(ABORT, 'versions are immutable'); END;\n"
    "CREATE TRIGGER versions_no_delete BEFORE DELETE ON versions\n"
    "  BEGIN SELECT RAISE(ABORT, 'versions are immutable'); END;\n";

/* Schema 2: fill the digest of versions committed under schema 1. */
static bool backfill_digest(sqlite3 *db)
{
    sqlite3_stmt *sel, *upd;
    if (sqlite3_prepare_v2(db, "SELECT number, design FROM versions WHERE digest IS NULL", -1, &sel, NULL) !=
        SQLITE_OK)
        return false;
    if (sqlite3_prepare_v2(db, "UPDATE versions SET digest = ?2 WHERE number = ?1", -1, &upd, NULL) !=
        SQLITE_OK) {
        sqlite3_finalize(sel);
        return false;
    }
    bool ok = true;
    int rc;
    while ((rc = sqlite3_step(sel)) == SQLITE_ROW) {
        const char *design = (const char *)sqlite3_column_text(sel, 1);
        char *dg = digest_of(design ? design : "");
        sqlite3_bind_int64(upd, 1, sqlite3_column_int64(sel, 0));
        sqlite3_bind_text(upd, 2, dg, -1, SQLITE_TRANSIENT);
        free(dg);
        if (sqlite3_step(upd) != SQLITE_DONE)
            ok = false;
        sqlite3_reset(upd);
        if (!ok)
            break;
    }
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        ok = false;
    sqlite3_finalize(sel);
    sqlite3_finalize(upd);
    return ok;
}

static const char schema_v3[] =
    "CREATE TABLE blobs(digest TEXT PRIMARY KEY, size INTEGER NOT NULL, data BLOB NOT NULL);\n"
    "ALTER TABLE versions ADD COLUMN decisions_of INTEGER REFERENCES versions(number);\n"
    "ALTER TABLE versions ADD COLUMN decisions_digest TEXT;\n"
    "CREATE TABLE copies(author TEXT PRIMARY KEY,\n"
    "  base INTEGER REFERENCES versions(number), design TEXT NOT NULL, time TEXT NOT NULL);\n"
    "INSERT INTO copies(author, base, design, time) SELECT '', base, design, time FROM working;\n"
    "DROP TABLE working;\n"
    "ALTER TABLE history ADD COLUMN author TEXT NOT NULL DEFAULT '';\n"
    "ALTER TABLE history ADD COLUMN base INTEGER;\n"
    "ALTER TABLE history ADD COLUMN prefix INTEGER;\n"
    "ALTER TABLE history ADD COLUMN suffix INTEGER;\n"
    "DROP INDEX history_stack;\n"
    "CREATE INDEX history_author ON history(author, stack, seq);\n"
    "CREATE TABLE presence(id TEXT PRIMARY KEY, author TEXT NOT NULL, screen TEXT NOT NULL,\n"
    "  row INTEGER NOT NULL, beat REAL NOT NULL);\n";

static const char schema_v4[] = "CREATE TABLE edits(seq INTEGER PRIMARY KEY, author TEXT NOT NULL,\n"
                                "  prefix INTEGER NOT NULL, suffix INTEGER NOT NULL, design TEXT NOT NULL);\n"
                                "CREATE INDEX edits_author ON edits(author, seq);\n"
                                "ALTER TABLE copies ADD COLUMN stamp INTEGER NOT NULL DEFAULT 0;\n";

/* A change of several ranges at once (an entity renamed, which the patterns naming it follow) is
   one edit and one undo step: their hunks ("at len nowlen" lines), the replacements in design. */
static const char schema_v5[] = "ALTER TABLE history ADD COLUMN hunks TEXT;\n"
                                "ALTER TABLE edits ADD COLUMN hunks TEXT;\n";

static bool compact_all(sqlite3 *db, bool hunks);
/* schema 3's step, before the hunks */
static bool compact_all_v3(sqlite3 *db) { return compact_all(db, false); }

static const struct migration {
    const char *sql;
    bool (*after)(sqlite3 *db);
} migrations[] = {
    {schema_v1, NULL}, {schema_v2, backfill_digest}, {schema_v3, compact_all_v3}, {schema_v4, NULL},
    {schema_v5, NULL},
};
#define NMIGRATIONS ((int)(sizeof migrations / sizeof *migrations))

int ws_schema_version(void) { return NMIGRATIONS; }

/* Runs the steps after `from` up to the current schema; the caller holds a write transaction. */
static bool migrate(sqlite3 *db, int from)
{
    for (int v = from; v < NMIGRATIONS; v++) {
        if (!exec(db, migrations[v].sql))
            return false;
        if (migrations[v].after && !migrations[v].after(db))
            return false;
    }
    char *sql = xasprintf("PRAGMA user_version = %d", NMIGRATIONS);
    bool ok = exec(db, sql);
    free(sql);
    return ok;
}

/* ---- open / close ------------------------------------------------------------------------ */

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return xstrdup(".");
    if (slash == path)
        return xstrdup("/");
    return xstrndup(path, (size_t)(slash - path));
}

/* Creates a fresh workspace beside `path` and links it into place; EEXIST (someone else created
 * it meanwhile) is not an error: the caller then opens theirs. */
static kp_status create_file(const char *path, char **err)
{
    char *tmp = xasprintf("%s.new-XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        kp_status st = errno == EACCES || errno == EROFS || errno == EPERM ? KP_READONLY : KP_IO;
        kp_fail(err, st, _("%s: cannot create the workspace: %s"), path, strerror(errno));
        free(tmp);
        return st;
    }
    mode_t um = umask(0);
    umask(um);
    fchmod(fd, 0666 & ~um);
    close(fd);
    sqlite3 *db = NULL;
    kp_status st = KP_OK;
    if (sqlite3_open_v2(tmp, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
        st = db_fail(db, path, err, _("create the workspace"));
        goto out;
    }
    configure(db);
    char *init = xasprintf("PRAGMA application_id = %d; PRAGMA journal_mode = WAL;", WS_APP_ID);
    bool ok = exec(db, init) && exec(db, "BEGIN IMMEDIATE") && migrate(db, 0);
    free(init);
    if (ok) {
        sqlite3_stmt *s;
        ok =
            sqlite3_prepare_v2(
                db,
                "INSERT INTO meta(key, value) VALUES ('created_at', ?1), ('created_by', 'keyplan " KEYPLAN_VERSION
                "')",
                -1, &s, NULL) == SQLITE_OK;
        if (ok) {
            char *now = now_iso();
            sqlite3_bind_text(s, 1, now, -1, SQLITE_TRANSIENT);
            free(now);
            ok = sqlite3_step(s) == SQLITE_DONE;
            sqlite3_finalize(s);
        }
    }
    if (!ok || !exec(db, "COMMIT")) {
        st = db_fail(db, path, err, _("create the workspace"));
        goto out;
    }
out:
    sqlite3_close(db);
    if (st == KP_OK) {
        if (link(tmp, path) != 0 && errno != EEXIST) {
            if (errno == EPERM || errno == ENOTSUP || errno == EOPNOTSUPP) {
                struct stat sb;
                if (stat(path, &sb) != 0 && rename(tmp, path) != 0)
                    st = kp_fail(err, KP_IO, _("%s: cannot create the workspace: %s"), path, strerror(errno));
            } else {
                st = kp_fail(err, KP_IO, _("%s: cannot create the workspace: %s"), path, strerror(errno));
            }
        }
    }
    unlink(tmp);
    char *side = xasprintf("%s-wal", tmp);
    unlink(side);
    free(side);
    side = xasprintf("%s-shm", tmp);
    unlink(side);
    free(side);
    free(tmp);
    return st;
}

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/* Looks at the header bytes without SQLite: a keyplan workspace is a SQLite file whose
 * application_id is ours. */
static kp_status check_header(const char *path, const struct stat *sb, char **err)
{
    if (S_ISDIR(sb->st_mode))
        return kp_fail(err, KP_IO, _("%s: is a directory; expected a keyplan workspace file"), path);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return kp_fail(err, KP_IO, _("%s: cannot open: %s"), path, strerror(errno));
    unsigned char h[100];
    ssize_t r = read(fd, h, sizeof h);
    close(fd);
    if (r < (ssize_t)sizeof h || memcmp(h, "SQLite format 3", 16) != 0)
        return kp_fail(err, KP_DAMAGED,
                       _("%s: not a keyplan workspace (%s); expected a workspace made by 'keyplan commit'. "
                         "The file was left untouched"),
                       path, r <= 0 ? _("the file is empty") : _("not a SQLite database"));
    uint32_t app = be32(h + 68), uv = be32(h + 60);
    if (app != WS_APP_ID)
        return kp_fail(
            err, KP_DAMAGED,
            _("%s: a SQLite database of another application (application_id 0x%08x), not a keyplan "
              "workspace. The file was left untouched"),
            path, (unsigned)app);
    if (uv > (uint32_t)NMIGRATIONS)
        return kp_fail(
            err, KP_VERSION,
            _("%s: made by a newer keyplan (schema %u; this keyplan knows up to %d). Upgrade keyplan; the "
              "file was left untouched"),
            path, (unsigned)uv, NMIGRATIONS);
    return KP_OK;
}

static char *uri_of(const char *path, const char *query)
{
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, "file:");
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            strchr("/-_.~", *p))
            sbuf_addc(&b, (char)*p);
        else
            sbuf_printf(&b, "%%%02X", *p);
    }
    sbuf_printf(&b, "?%s", query);
    return sbuf_steal(&b);
}

/* Opens a connection for the check: read-write when the file can be written (so that closing it
 * cleans up SQLite's -wal/-shm files), else read-only; a WAL file in a folder we cannot write is
 * read as an immutable snapshot (SQLite cannot create its shared-memory file there). The
 * connection starts with query_only on: nothing is written until the checks pass. */
static int open_conn(const char *path, sqlite3 **db, bool rw, bool immutable)
{
    *db = NULL;
    int rc;
    if (immutable) {
        char *uri = uri_of(path, "immutable=1");
        rc = sqlite3_open_v2(uri, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
        free(uri);
    } else {
        rc = sqlite3_open_v2(path, db, rw ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY, NULL);
    }
    if (rc == SQLITE_OK) {
        configure(*db);
        exec(*db, "PRAGMA query_only = ON");
    }
    return rc;
}

/* Checks the file the way SQLite sees it. On success *dbout is the (query-only) connection and
 * *schema its user_version. `frozen`: nobody may write the file (no write permission bit at all),
 * so it is read as an immutable snapshot: SQLite then creates no -wal/-shm beside it, which would
 * carry the file's read-only mode and block every later writer once the file is made writable. */
static kp_status check_db(const char *path, bool rw, bool frozen, char **salvage, sqlite3 **dbout,
                          long long *schema, char **err)
{
    sqlite3 *db = NULL;
    kp_status st = KP_OK;
    sqlite3_stmt *s = NULL;
    if (open_conn(path, &db, rw, frozen) != SQLITE_OK) {
        st = db_fail(db, path, err, _("open the workspace"));
        goto bad;
    }
    int rc = sqlite3_prepare_v2(db, "PRAGMA quick_check", -1, &s, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(s);
    int code = sqlite3_extended_errcode(db) & 0xff;
    if (rc != SQLITE_ROW && !rw && (code == SQLITE_CANTOPEN || code == SQLITE_READONLY)) {
        /* a WAL file in a folder we cannot write: SQLite cannot set up its shared memory */
        sqlite3_finalize(s);
        s = NULL;
        sqlite3_close(db);
        if (open_conn(path, &db, false, true) != SQLITE_OK) {
            st = db_fail(db, path, err, _("open the workspace"));
            goto bad;
        }
        rc = sqlite3_prepare_v2(db, "PRAGMA quick_check", -1, &s, NULL);
        if (rc == SQLITE_OK)
            rc = sqlite3_step(s);
    }
    const char *res = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(s, 0) : NULL;
    if (salvage && res && strcmp(res, "ok") != 0) {
        /* damaged pages: fsck still reads what it can */
        *salvage = xstrdup(res);
        res = "ok";
    }
    if (!res || strcmp(res, "ok") != 0) {
        code = sqlite3_extended_errcode(db) & 0xff;
        if (!res && (code == SQLITE_BUSY || code == SQLITE_LOCKED))
            st = kp_fail(err, KP_CONFLICT, _("%s: the workspace is locked by another program; try again"),
                         path);
        else if (!res && (code == SQLITE_READONLY || code == SQLITE_CANTOPEN || code == SQLITE_PERM))
            st = kp_fail(err, KP_READONLY, _("%s: the workspace cannot be opened here: %s"), path,
                         sqlite3_errmsg(db));
        else if (!res && code != SQLITE_CORRUPT && code != SQLITE_NOTADB)
            st = kp_fail(err, KP_IO, _("%s: cannot read the workspace: %s"), path, sqlite3_errmsg(db));
        else
            st = kp_fail(err, KP_DAMAGED,
                         _("%s: the workspace file is damaged (%s). The file was left untouched"), path,
                         res ? res : sqlite3_errmsg(db));
        sqlite3_finalize(s);
        goto bad;
    }
    sqlite3_finalize(s);
    long long uv = 0, has = 0;
    if (!pragma_int(db, "PRAGMA user_version", &uv) ||
        !pragma_int(db, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'versions'",
                    &has)) {
        st = kp_fail(err, KP_DAMAGED, _("%s: the workspace cannot be read: %s. The file was left untouched"),
                     path, sqlite3_errmsg(db));
        goto bad;
    }
    if (uv > NMIGRATIONS) {
        st = kp_fail(
            err, KP_VERSION,
            _("%s: made by a newer keyplan (schema %lld; this keyplan knows up to %d). Upgrade keyplan; "
              "the file was left untouched"),
            path, uv, NMIGRATIONS);
        goto bad;
    }
    if (uv < 1 || !has) {
        st = kp_fail(
            err, KP_DAMAGED,
            _("%s: a keyplan workspace without its tables (schema %lld). The file was left untouched"), path,
            uv);
        goto bad;
    }
    *schema = uv;
    *dbout = db;
    return KP_OK;
bad:
    sqlite3_close(db);
    return st;
}

static bool writable(const char *path, const struct stat *sb, char **why)
{
    if (access(path, W_OK) != 0 || (sb->st_mode & 0222) == 0) {
        *why = xasprintf(_("%s: the workspace is read-only (no write permission on the file); "
                           "it can be read (log, show, diff, export) but not changed"),
                         path);
        return false;
    }
    char *dir = dir_of(path);
    struct stat ds;
    bool ok = access(dir, W_OK) == 0 && stat(dir, &ds) == 0 && (ds.st_mode & 0222) != 0;
    if (!ok)
        /* TRANSLATORS: %1$s the workspace file, %2$s its folder. */
        *why =
            xasprintf(_("%1$s: the workspace is read-only (the folder %2$s is not writable, and SQLite needs "
                        "to write its journal beside the file); it can be read but not changed"),
                      path, dir);
    free(dir);
    return ok;
}

kp_status ws_open(const char *path, unsigned flags, ws_t **out, char **err)
{
    *out = NULL;
    if (!path || !*path)
        return kp_fail(err, KP_INVALID, _("no workspace named; expected a file such as %s"), WS_DEFAULT_PATH);
    struct stat sb;
    if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode))
        return kp_fail(err, KP_IO, _("%s: is %s; expected a keyplan workspace file. Nothing was touched"),
                       path,
                       S_ISDIR(sb.st_mode)    ? _("a directory")
                       : S_ISFIFO(sb.st_mode) ? _("a FIFO (named pipe)")
                       : S_ISSOCK(sb.st_mode) ? _("a socket")
                                              : _("a device"));
    if (stat(path, &sb) != 0) {
        if (errno != ENOENT)
            return kp_fail(err, KP_IO, _("%s: cannot open: %s"), path, strerror(errno));
        if (!(flags & WS_CREATE) || (flags & WS_READONLY))
            return kp_fail(err, KP_NOTFOUND,
                           _("%s: no such workspace; 'keyplan commit %s DESIGN.yaml -m MSG' creates it"),
                           path, path);
        kp_status st = create_file(path, err);
        if (st != KP_OK)
            return st;
        if (stat(path, &sb) != 0)
            return kp_fail(err, KP_IO, _("%s: cannot open: %s"), path, strerror(errno));
    }
    kp_status st = check_header(path, &sb, err);
    if (st != KP_OK)
        return st;
    char *why = NULL;
    bool can_write = writable(path, &sb, &why);
    sqlite3 *db = NULL;
    long long schema = 0;
    char *quick = NULL;
    bool salvage = (flags & WS_SALVAGE) && (flags & WS_READONLY);
    st = check_db(path, can_write && !salvage, (!can_write && (sb.st_mode & 0222) == 0) || salvage,
                  salvage ? &quick : NULL, &db, &schema, err);
    if (st != KP_OK) {
        free(why);
        free(quick); /* damaged pages seen before the failure (found by fuzzing: it leaked) */
        return st;
    }
    if (!can_write && (!(flags & WS_READONLY) || schema < NMIGRATIONS)) {
        free(quick);
        sqlite3_close(db);
        if (schema < NMIGRATIONS)
            st = kp_fail(err, KP_READONLY, _("%s; besides, it needs upgrading from schema %lld to %d first"),
                         why, schema, NMIGRATIONS);
        else
            st = kp_fail(err, KP_READONLY, "%s", why);
        free(why);
        return st;
    }
    free(why);
    if (can_write && !salvage && schema < NMIGRATIONS && (flags & WS_AS_IS)) {
        free(quick);
        sqlite3_close(db); /* nothing was written: the connection is still query-only */
        return KP_VERSION;
    }
    ws_t *ws = xcalloc(1, sizeof *ws);
    ws->path = xstrdup(path);
    ws->db = db;
    ws->ro = (flags & WS_READONLY) != 0;
    ws->quick = quick;
    ws->schema = schema;
    ws->wc_stamp = -1;
    ws->author = ws_default_author();
    if (can_write && !salvage) {
        exec(db, "PRAGMA query_only = OFF");
        exec(db, "PRAGMA synchronous = FULL");
        if (!exec(db, "PRAGMA journal_mode = WAL")) {
            st = ws_fail(ws, err, _("switch the workspace to WAL mode"));
            ws_close(ws);
            return st;
        }
        if (schema < NMIGRATIONS) {
            if (!exec(db, "BEGIN IMMEDIATE")) {
                st = ws_fail(ws, err, _("upgrade the workspace"));
                ws_close(ws);
                return st;
            }
            long long now = 0;
            pragma_int(db, "PRAGMA user_version", &now);
            if (now < NMIGRATIONS && !migrate(db, (int)now)) {
                st = kp_fail(
                    err, KP_DAMAGED,
                    _("%s: cannot upgrade the workspace from schema %lld to %d: %s; nothing was changed"),
                    path, now, NMIGRATIONS, sqlite3_errmsg(db));
                exec(db, "ROLLBACK");
                ws_close(ws);
                return st;
            }
            if (!exec(db, "COMMIT")) {
                st = ws_fail(ws, err, _("upgrade the workspace"));
                exec(db, "ROLLBACK");
                ws_close(ws);
                return st;
            }
            ws->schema = NMIGRATIONS;
        }
        if (ws->ro)
            exec(db, "PRAGMA query_only = ON");
    }
    pragma_int(db, "PRAGMA data_version", &ws->data_version);
    ws->stamp = content_stamp(ws);
    *out = ws;
    return KP_OK;
}

void ws_close(ws_t *ws)
{
    if (!ws)
        return;
    if (ws->presence && !ws->ro)
        ws_presence_leave(ws, NULL);
    sqlite3_close(ws->db);
    free(ws->path);
    free(ws->author);
    free(ws->presence);
    free(ws->quick);
    free(ws);
}

const char *ws_path(const ws_t *ws) { return ws->path; }
bool ws_readonly(const ws_t *ws) { return ws->ro; }

static kp_status need_rw(ws_t *ws, char **err)
{
    if (ws->ro)
        return kp_fail(err, KP_READONLY, _("%s: opened read-only; nothing can be changed"), ws->path);
    return KP_OK;
}

static kp_status begin(ws_t *ws, char **err)
{
    kp_status st = need_rw(ws, err);
    if (st != KP_OK)
        return st;
    if (!exec(ws->db, "BEGIN IMMEDIATE"))
        return ws_fail(ws, err, _("start a transaction"));
    return KP_OK;
}

static kp_status abort_tx(ws_t *ws, char **err, const char *what)
{
    kp_status st = ws_fail(ws, err, what);
    exec(ws->db, "ROLLBACK");
    return st;
}

static kp_status finish(ws_t *ws, char **err, const char *what)
{
    return exec(ws->db, "COMMIT") ? KP_OK : abort_tx(ws, err, what);
}

/* A version's transaction runs with synchronous=NORMAL: SQLite writes its frames to the WAL
 * without syncing them at COMMIT (the WAL's new header is still synced first, as SQLite does in
 * NORMAL, so it stays safe against power loss). finish_durable then makes it durable before it
 * returns, as FULL would: a checkpoint syncs the WAL, copies the pages into the file and syncs
 * the file; when another connection's reader keeps it from copying every frame, the WAL is
 * synced directly. Four syncs instead of FULL's five (the commit's own sync and the closing
 * checkpoint's sync of the same WAL were one too many), and the file holds the version, not
 * only its WAL. */
static void relax_sync(ws_t *ws) { exec(ws->db, "PRAGMA synchronous = NORMAL"); }

static void full_sync(ws_t *ws) { exec(ws->db, "PRAGMA synchronous = FULL"); }

/* Commits the transaction begun after relax_sync and returns once it is on disk (see
 * relax_sync). KP_IO when the disk refuses the sync, as FULL's COMMIT would fail: the change is
 * then in the WAL but may not survive a power loss, so it is reported as not recorded. */
static kp_status finish_durable(ws_t *ws, char **err, const char *what)
{
    kp_status st = finish(ws, err, what);
    if (st != KP_OK)
        return st;
    int frames = -1, copied = -1;
    int rc = sqlite3_wal_checkpoint_v2(ws->db, "main", SQLITE_CHECKPOINT_PASSIVE, &frames, &copied);
    if (rc == SQLITE_OK && frames >= 0 && copied >= frames)
        return KP_OK;
    /* not every frame reached the file: the WAL itself must be on disk */
    sqlite3_file *wal = NULL;
    rc = sqlite3_file_control(ws->db, "main", SQLITE_FCNTL_JOURNAL_POINTER, &wal);
    if (rc == SQLITE_OK && wal && wal->pMethods)
        rc = wal->pMethods->xSync(wal, SQLITE_SYNC_NORMAL);
    else if (rc == SQLITE_OK)
        rc = SQLITE_IOERR;
    if (rc == SQLITE_OK)
        return KP_OK;
    return kp_fail(err, KP_IO, _("%1$s: cannot %2$s: %3$s%4$s"), ws->path, what, sqlite3_errstr(rc), "");
}

/* ---- versions ---------------------------------------------------------------------------- */

void ws_version_free(ws_version *v)
{
    if (!v)
        return;
    free(v->time);
    free(v->author);
    free(v->message);
    free(v->name);
    memset(v, 0, sizeof *v);
}

void ws_versions_free(ws_version *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        ws_version_free(&v[i]);
    free(v);
}

static void read_version(sqlite3_stmt *s, ws_version *v)
{
    v->number = sqlite3_column_int(s, 0);
    v->parent = sqlite3_column_type(s, 1) == SQLITE_NULL ? 0 : sqlite3_column_int(s, 1);
    v->time = col_text(s, 2);
    v->author = col_text(s, 3);
    v->message = col_text(s, 4);
    v->name = col_text(s, 5);
}

kp_status ws_latest(ws_t *ws, int *number, char **err)
{
    long long n = 0;
    if (!pragma_int(ws->db, "SELECT coalesce(max(number), 0) FROM versions", &n))
        return ws_fail(ws, err, _("read the versions"));
    *number = (int)n;
    return KP_OK;
}

kp_status ws_log(ws_t *ws, ws_version **out, size_t *n, char **err)
{
    *out = NULL;
    *n = 0;
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(ws->db,
                           "SELECT number, parent, time, author, message, name FROM versions ORDER BY number",
                           -1, &s, NULL) != SQLITE_OK)
        return ws_fail(ws, err, _("read the versions"));
    size_t cap = 0;
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        VEC_GROW(*out, *n, cap);
        read_version(s, &(*out)[(*n)++]);
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE) {
        ws_versions_free(*out, *n);
        *out = NULL;
        *n = 0;
        return ws_fail(ws, err, _("read the versions"));
    }
    return KP_OK;
}

kp_status ws_version_get(ws_t *ws, int number, ws_version *info, char **yaml, char **err)
{
    if (info)
        memset(info, 0, sizeof *info);
    if (yaml)
        *yaml = NULL;
    sqlite3_stmt *s;
    char *sql = xasprintf("SELECT number, parent, time, author, message, name, %s %s", vtext_cols(ws->schema),
                          number > 0 ? "WHERE number = ?1" : "ORDER BY number DESC LIMIT 1");
    int prc = sqlite3_prepare_v2(ws->db, sql, -1, &s, NULL);
    free(sql);
    if (prc != SQLITE_OK)
        return ws_fail(ws, err, _("read the version"));
    if (number > 0)
        sqlite3_bind_int(s, 1, number);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        /* a version is served only as it was committed: its text must match its digest */
        char *text = vtext(s, 6);
        if (!text) {
            int num = sqlite3_column_int(s, 0);
            sqlite3_finalize(s);
            return kp_fail(
                err, KP_DAMAGED,
                _("%s: version %d is damaged: its stored design does not match its digest (the file "
                  "was changed outside keyplan). Nothing was changed; 'keyplan fsck %s' lists the "
                  "intact versions"),
                ws->path, num, ws->path);
        }
        if (info)
            read_version(s, info);
        if (yaml)
            *yaml = text;
        else
            free(text);
        sqlite3_finalize(s);
        return KP_OK;
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE)
        return ws_fail(ws, err, _("read the version"));
    int latest = 0;
    ws_latest(ws, &latest, NULL);
    if (latest == 0)
        return kp_fail(err, KP_NOTFOUND,
                       _("%s: no versions yet; 'keyplan commit %s DESIGN.yaml -m MSG' records the first"),
                       ws->path, ws->path);
    return kp_fail(err, KP_NOTFOUND, _("%s: no version %d; versions are 1 to %d"), ws->path, number, latest);
}

kp_status ws_version_design(ws_t *ws, int number, kp_design **out, char **err)
{
    *out = NULL;
    char *yaml = NULL;
    ws_version info;
    kp_status st = ws_version_get(ws, number, &info, &yaml, err);
    if (st != KP_OK)
        return st;
    char *name = xasprintf("%s:version %d", ws->path, info.number);
    kp_diags dg;
    diags_init(&dg, name);
    kp_design *d = designio_load_string(yaml, strlen(yaml), name, &dg);
    if (!d) {
        char *first = dg.n ? diags_format(&dg, 0) : xstrdup(_("unknown error"));
        st = kp_fail(err, KP_DAMAGED, _("%s: the stored design no longer loads: %s"), ws->path, first);
        free(first);
    }
    diags_free(&dg);
    free(name);
    free(yaml);
    ws_version_free(&info);
    *out = d;
    return d ? KP_OK : st;
}

/* The compact JSON text of `a` (released), or NULL when jansson cannot write it. Caller frees. */
static char *json_text(json_t *a)
{
    char *t = json_dumps(a, JSON_COMPACT);
    json_decref(a);
    char *r = xstrdup(t);
    free(t);
    return r;
}

static char *json_pattern_ids(const kp_decision *dec)
{
    json_t *a = json_array();
    for (size_t i = 0; i < dec->npatterns; i++)
        json_array_append_new(a, json_string(dec->patterns[i].s ? dec->patterns[i].s : ""));
    return json_text(a);
}

static char *json_assumptions(const kp_decision *dec)
{
    json_t *a = json_array();
    for (size_t i = 0; i < dec->nassumptions; i++)
        json_array_append_new(a, json_string(dec->assumptions[i] ? dec->assumptions[i] : ""));
    return json_text(a);
}

static char *json_alternatives(const kp_decision *dec)
{
    json_t *a = json_array();
    for (size_t i = 0; i < dec->nalternatives; i++) {
        const kp_alternative *al = &dec->alternatives[i];
        json_array_append_new(a, json_pack("{s:s, s:s}", "option", al->option ? al->option : "", "why_not",
                                           al->why_not ? al->why_not : ""));
    }
    return json_text(a);
}

static void bind_opt(sqlite3_stmt *s, int i, const char *t)
{
    if (t)
        sqlite3_bind_text(s, i, t, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(s, i);
}

/* Records the decisions and signals of version `number`. KP_OK, or the failure with *err: of
 * SQLite, or KP_INVALID when a decision's lists cannot be written as JSON. */
static kp_status insert_decisions(ws_t *ws, int number, const kp_design *d, const kp_analysis *a, char **err)
{
    sqlite3 *db = ws->db;
    sqlite3_stmt *ds = NULL, *ss = NULL;
    bool ok =
        sqlite3_prepare_v2(db,
                           "INSERT INTO decisions(version, id, title, status, patterns, context, decision, "
                           "alternatives, assumptions, failure_test, rollback, limitations) "
                           "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
                           -1, &ds, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(
            db,
            "INSERT INTO signals(version, decision, seq, signal, metric, op, threshold, design_value) "
            "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            -1, &ss, NULL) == SQLITE_OK;
    for (size_t i = 0; ok && i < d->ndecisions; i++) {
        const kp_decision *dec = &d->decisions[i];
        char *pats = json_pattern_ids(dec);
        char *alts = json_alternatives(dec);
        char *asm_ = json_assumptions(dec);
        if (!pats || !alts || !asm_) {
            free(pats);
            free(alts);
            free(asm_);
            sqlite3_finalize(ds);
            sqlite3_finalize(ss);
            return kp_fail(err, KP_INVALID,
                           _("decision %s: its patterns, alternatives or assumptions cannot be written "
                             "as JSON"),
                           dec->id ? dec->id : "");
        }
        sqlite3_bind_int(ds, 1, number);
        bind_opt(ds, 2, dec->id ? dec->id : "");
        bind_opt(ds, 3, dec->title);
        bind_opt(ds, 4, kp_decision_status_name(dec->status));
        bind_opt(ds, 5, pats);
        bind_opt(ds, 6, dec->context);
        bind_opt(ds, 7, dec->decision);
        bind_opt(ds, 8, alts);
        bind_opt(ds, 9, asm_);
        bind_opt(ds, 10, dec->failure_test);
        bind_opt(ds, 11, dec->rollback);
        bind_opt(ds, 12, dec->limitations);
        ok = sqlite3_step(ds) == SQLITE_DONE;
        sqlite3_reset(ds);
        free(pats);
        free(alts);
        free(asm_);
        for (size_t k = 0; ok && k < dec->nsignals; k++) {
            const kp_signal *sg = &dec->signals[k];
            sqlite3_bind_int(ss, 1, number);
            bind_opt(ss, 2, dec->id ? dec->id : "");
            sqlite3_bind_int(ss, 3, (int)k + 1);
            bind_opt(ss, 4, sg->src ? sg->src : "");
            bind_opt(ss, 5, sg->metric ? sg->metric : "");
            bind_opt(ss, 6, kp_cmp_name(sg->cmp));
            sqlite3_bind_double(ss, 7, sg->value);
            double v;
            if (a && sg->metric && analysis_metric(a, sg->metric, &v) && isfinite(v))
                sqlite3_bind_double(ss, 8, v);
            else
                sqlite3_bind_null(ss, 8);
            ok = sqlite3_step(ss) == SQLITE_DONE;
            sqlite3_reset(ss);
        }
    }
    kp_status st = ok ? KP_OK : ws_fail(ws, err, _("record the version"));
    sqlite3_finalize(ds);
    sqlite3_finalize(ss);
    return st;
}

/* The digest of everything insert_decisions would record for `d`: equal digests, equal rows. */
static char *decisions_digest(const kp_design *d, const kp_analysis *a)
{
    sbuf b;
    sbuf_init(&b);
    for (size_t i = 0; i < d->ndecisions; i++) {
        const kp_decision *dec = &d->decisions[i];
        char *pats = json_pattern_ids(dec), *alts = json_alternatives(dec), *asm_ = json_assumptions(dec);
        const char *f[] = {dec->id,
                           dec->title,
                           kp_decision_status_name(dec->status),
                           pats,
                           dec->context,
                           dec->decision,
                           alts,
                           asm_,
                           dec->failure_test,
                           dec->rollback,
                           dec->limitations};
        for (size_t k = 0; k < sizeof f / sizeof *f; k++)
            sbuf_printf(&b, "%s%c", f[k] ? f[k] : "\x1e", 0x1f);
        free(pats);
        free(alts);
        free(asm_);
        for (size_t k = 0; k < dec->nsignals; k++) {
            const kp_signal *sg = &dec->signals[k];
            double v;
            bool known = a && sg->metric && analysis_metric(a, sg->metric, &v) && isfinite(v);
            sbuf_printf(&b, "%s\x1f%s\x1f%s\x1f%.17g\x1f", sg->src ? sg->src : "",
                        sg->metric ? sg->metric : "", kp_cmp_name(sg->cmp), sg->value);
            if (known)
                sbuf_printf(&b, "%.17g", v);
            sbuf_addc(&b, 0x1d);
        }
        sbuf_addc(&b, 0x1c);
    }
    char *dg = digest_of(b.s ? b.s : "");
    sbuf_free(&b);
    return dg;
}

/* Stores the design text once under its digest, compressed (nothing when it is there already:
 * looked up first, so that a text committed before costs no compression). */
static bool blob_put(ws_t *ws, const char *digest, const char *yaml)
{
    size_t len = strlen(yaml);
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(ws->db, "SELECT 1 FROM blobs WHERE digest = ?1", -1, &q, NULL) != SQLITE_OK)
        return false;
    sqlite3_bind_text(q, 1, digest, -1, SQLITE_STATIC);
    int qrc = sqlite3_step(q);
    sqlite3_finalize(q);
    if (qrc == SQLITE_ROW)
        return true;
    if (qrc != SQLITE_DONE)
        return false;
    uLongf n = compressBound((uLong)len);
    Bytef *z = xmalloc(n);
    if (compress2(z, &n, (const Bytef *)yaml, (uLong)len, 6) != Z_OK) {
        free(z);
        return false;
    }
    sqlite3_stmt *s;
    bool ok =
        sqlite3_prepare_v2(ws->db, "INSERT OR IGNORE INTO blobs(digest, size, data) VALUES (?1, ?2, ?3)", -1,
                           &s, NULL) == SQLITE_OK;
    if (ok) {
        sqlite3_bind_text(s, 1, digest, -1, SQLITE_STATIC);
        sqlite3_bind_int64(s, 2, (long long)len);
        sqlite3_bind_blob(s, 3, z, (int)n, SQLITE_STATIC);
        ok = sqlite3_step(s) == SQLITE_DONE;
        sqlite3_finalize(s);
    }
    free(z);
    return ok;
}

static bool replace_working(ws_t *ws, const char *yaml, int base);

static char *conflict_message(ws_t *ws, int expected, int latest)
{
    sbuf b;
    sbuf_init(&b);
    sbuf_printf(&b, "%s: ", ws->path);
    if (expected > latest) {
        sbuf_printf(
            &b,
            _("your design is based on version %1$d, which does not exist (the latest is %2$d); nothing was "
              "committed"),
            expected, latest);
        return sbuf_steal(&b);
    }
    sqlite3_stmt *s;
    size_t k = 0;
    if (sqlite3_prepare_v2(
            ws->db,
            "SELECT number, parent, time, author, message, name FROM versions WHERE number > ?1 ORDER BY number",
            -1, &s, NULL) == SQLITE_OK) {
        sqlite3_bind_int(s, 1, expected);
        while (sqlite3_step(s) == SQLITE_ROW) {
            ws_version v;
            read_version(s, &v);
            sbuf_add(&b, k++ ? "; " : "");
            /* TRANSLATORS: %1$d a version, %2$s its author, %3$s its date, %4$s its message. */
            sbuf_printf(&b, _("version %1$d was committed meanwhile by %2$s at %3$s (\"%4$s\")"), v.number,
                        v.author, v.time, v.message);
            ws_version_free(&v);
        }
        sqlite3_finalize(s);
    }
    sbuf_printf(
        &b,
        _("; your design is based on version %1$d: reload version %2$d, merge your changes and commit again "
          "(nothing was overwritten)"),
        expected, latest);
    return sbuf_steal(&b);
}

struct ws_commit_prep {
    char *yaml;             /* the canonical text */
    char *digest;           /* its digest */
    kp_analysis *analysis;  /* the signals' design values */
    char *decisions_digest; /* of the decisions rows the version records */
};

ws_commit_prep *ws_commit_prepare(const kp_design *d, char **err)
{
    char *why = NULL;
    char *yaml = designio_save(d, &why);
    if (!yaml) {
        kp_fail(err, KP_INVALID, _("not committed: the design cannot be saved (%s)"), why);
        free(why);
        return NULL;
    }
    ws_commit_prep *p = xcalloc(1, sizeof *p);
    p->yaml = yaml;
    p->digest = digest_of(yaml);
    p->analysis = analysis_run(d);
    p->decisions_digest = decisions_digest(d, p->analysis);
    return p;
}

void ws_commit_prep_free(ws_commit_prep *p)
{
    if (!p)
        return;
    free(p->yaml);
    free(p->digest);
    analysis_free(p->analysis);
    free(p->decisions_digest);
    free(p);
}

/* What a commit refuses before it computes anything: a missing message, control characters in
 * the message or the author, a read-only handle. */
static kp_status commit_checks(ws_t *ws, const char *author, const char *message, char **err)
{
    if (!message || !*message)
        return kp_fail(err, KP_INVALID, _("a commit needs a message saying what changed and why (-m MSG)"));
    ptrdiff_t ctl = util_control_at(message, true);
    if (ctl >= 0)
        return kp_fail(err, KP_INVALID,
                       _("the message holds a control character at byte %td; expected printable text (lines "
                         "and tabs are fine)"),
                       ctl + 1);
    if (author && *author && util_control_at(author, false) >= 0)
        return kp_fail(err, KP_INVALID,
                       _("the author's name holds a control character; expected one line of text"));
    return need_rw(ws, err);
}

kp_status ws_commit(ws_t *ws, const kp_design *d, const char *author, const char *message,
                    int expected_parent, bool update_working, int *number, char **err)
{
    if (number)
        *number = 0;
    kp_status st = commit_checks(ws, author, message, err);
    if (st != KP_OK)
        return st;
    ws_commit_prep *p = ws_commit_prepare(d, err);
    if (!p)
        return KP_INVALID;
    st = ws_commit_prepared(ws, d, p, author, message, expected_parent, update_working, number, err);
    ws_commit_prep_free(p);
    return st;
}

kp_status ws_commit_prepared(ws_t *ws, const kp_design *d, const ws_commit_prep *p, const char *author,
                             const char *message, int expected_parent, bool update_working, int *number,
                             char **err)
{
    if (number)
        *number = 0;
    kp_status st = commit_checks(ws, author, message, err);
    if (st != KP_OK)
        return st;
    const char *yaml = p->yaml, *dg = p->digest, *ddg = p->decisions_digest;
    const kp_analysis *a = p->analysis;
    char *who = xstrdup(author && *author ? author : ws->author);
    char *now = now_iso();
    int latest = 0, n = 0;
    relax_sync(ws);
    st = begin(ws, err);
    if (st != KP_OK)
        goto out;
    if ((st = ws_latest(ws, &latest, err)) != KP_OK) {
        exec(ws->db, "ROLLBACK");
        goto out;
    }
    if (latest > 0 && (st = ws_version_get(ws, latest, NULL, NULL, err)) != KP_OK) {
        exec(ws->db, "ROLLBACK"); /* a damaged latest version: nothing goes on top of it unnoticed */
        goto out;
    }
    if (expected_parent != WS_PARENT_LATEST && expected_parent != latest) {
        exec(ws->db, "ROLLBACK");
        char *m = conflict_message(ws, expected_parent, latest);
        st = kp_fail(err, KP_CONFLICT, "%s", m);
        free(m);
        goto out;
    }
    n = latest + 1;
    /* the decisions are recorded again only when they differ from the latest version's */
    int decisions_of = n;
    long long prev_of = 0;
    {
        sqlite3_stmt *q;
        if (latest > 0 && sqlite3_prepare_v2(ws->db,
                                             "SELECT coalesce(decisions_of, number) FROM versions "
                                             "WHERE number = ?1 AND decisions_digest = ?2",
                                             -1, &q, NULL) == SQLITE_OK) {
            sqlite3_bind_int(q, 1, latest);
            sqlite3_bind_text(q, 2, ddg, -1, SQLITE_STATIC);
            if (sqlite3_step(q) == SQLITE_ROW)
                prev_of = sqlite3_column_int64(q, 0);
            sqlite3_finalize(q);
        }
        if (prev_of > 0)
            decisions_of = (int)prev_of;
    }
    if (!blob_put(ws, dg, yaml)) {
        st = abort_tx(ws, err, _("record the version"));
        goto out;
    }
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(
            ws->db,
            "INSERT INTO versions(number, parent, time, author, message, name, design, digest, "
            "decisions_of, decisions_digest) VALUES (?1, ?2, ?3, ?4, ?5, ?6, '', ?8, ?9, ?10)",
            -1, &s, NULL) != SQLITE_OK) {
        st = abort_tx(ws, err, _("record the version"));
        goto out;
    }
    sqlite3_bind_int(s, 1, n);
    if (latest)
        sqlite3_bind_int(s, 2, latest);
    else
        sqlite3_bind_null(s, 2);
    bind_opt(s, 3, now);
    bind_opt(s, 4, who);
    bind_opt(s, 5, message);
    bind_opt(s, 6, d->name ? d->name : "");
    bind_opt(s, 8, dg);
    sqlite3_bind_int(s, 9, decisions_of);
    bind_opt(s, 10, ddg);
    bool ok = sqlite3_step(s) == SQLITE_DONE;
    sqlite3_finalize(s);
    if (!ok) {
        st = abort_tx(ws, err, _("record the version"));
        goto out;
    }
    if (decisions_of == n && (st = insert_decisions(ws, n, d, a, err)) != KP_OK) {
        exec(ws->db, "ROLLBACK");
        goto out;
    }
    if (update_working && !replace_working(ws, yaml, n)) {
        st = abort_tx(ws, err, _("update the working copy"));
        goto out;
    }
    st = finish_durable(ws, err, _("record the version"));
    if (st == KP_OK && number)
        *number = n;
out:
    full_sync(ws);
    free(now);
    free(who);
    return st;
}

kp_status ws_verify(ws_t *ws, char **err)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(ws->db, "PRAGMA integrity_check", -1, &s, NULL) != SQLITE_OK)
        return kp_fail(err, KP_DAMAGED, _("%s: integrity check failed: %s"), ws->path,
                       sqlite3_errmsg(ws->db));
    kp_status st = KP_OK;
    if (sqlite3_step(s) != SQLITE_ROW || strcmp((const char *)sqlite3_column_text(s, 0), "ok") != 0)
        st = kp_fail(err, KP_DAMAGED, _("%s: integrity check failed: %s"), ws->path,
                     sqlite3_column_text(s, 0) ? (const char *)sqlite3_column_text(s, 0)
                                               : sqlite3_errmsg(ws->db));
    sqlite3_finalize(s);
    if (st != KP_OK)
        return st;
    if (sqlite3_prepare_v2(ws->db, "PRAGMA foreign_key_check", -1, &s, NULL) != SQLITE_OK)
        return kp_fail(err, KP_DAMAGED, _("%s: foreign key check failed: %s"), ws->path,
                       sqlite3_errmsg(ws->db));
    if (sqlite3_step(s) == SQLITE_ROW)
        st = kp_fail(err, KP_DAMAGED, _("%s: a row of table %s refers to something missing"), ws->path,
                     (const char *)sqlite3_column_text(s, 0));
    sqlite3_finalize(s);
    if (st != KP_OK)
        return st;
    char *sql = xasprintf("SELECT number, parent, %s ORDER BY number", vtext_cols(ws->schema));
    int prc = sqlite3_prepare_v2(ws->db, sql, -1, &s, NULL);
    free(sql);
    if (prc != SQLITE_OK)
        return ws_fail(ws, err, _("read the versions"));
    int expect = 1;
    while (st == KP_OK && sqlite3_step(s) == SQLITE_ROW) {
        int num = sqlite3_column_int(s, 0);
        int parent = sqlite3_column_type(s, 1) == SQLITE_NULL ? 0 : sqlite3_column_int(s, 1);
        char *text = vtext(s, 2);
        if (num != expect)
            st = kp_fail(err, KP_DAMAGED, _("%s: version %d is missing"), ws->path, expect);
        else if (parent != num - 1)
            st = kp_fail(err, KP_DAMAGED, _("%s: version %d has parent %d; expected %d"), ws->path, num,
                         parent, num - 1);
        else if (!text)
            st = kp_fail(err, KP_DAMAGED, _("%s: version %d: its design does not match its digest"), ws->path,
                         num);
        free(text);
        expect++;
    }
    sqlite3_finalize(s);
    return st;
}

void ws_fsck_report_free(ws_fsck_report *r)
{
    free(r->integrity);
    free(r->foreign_keys);
    for (size_t i = 0; i < r->nversions; i++)
        free(r->versions[i].problem);
    free(r->versions);
    free(r->working);
    memset(r, 0, sizeof *r);
}

/* The first problem a check pragma reports, NULL when it says ok (or reports nothing). */
static char *pragma_problem(ws_t *ws, const char *sql, bool ok_row)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(ws->db, sql, -1, &s, NULL) != SQLITE_OK)
        return xasprintf(_("cannot run the check: %s"), sqlite3_errmsg(ws->db));
    char *problem = NULL;
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(s, 0);
        if (!ok_row)
            problem = xasprintf(_("a row of table %s refers to something missing"), t ? t : "?");
        else if (!t || strcmp(t, "ok") != 0)
            problem = xstrdup(t ? t : _("unknown problem"));
    } else if (rc != SQLITE_DONE)
        problem = xstrdup(sqlite3_errmsg(ws->db));
    sqlite3_finalize(s);
    return problem;
}

/* Why the design text does not load as a design, NULL when it does. */
static char *load_problem(const char *yaml, const char *name)
{
    kp_diags dg;
    diags_init(&dg, name);
    kp_design *d = designio_load_string(yaml, strlen(yaml), name, &dg);
    char *why = d ? NULL : (dg.n ? diags_format(&dg, 0) : xstrdup(_("it does not load")));
    design_free(d);
    diags_free(&dg);
    return why;
}

kp_status ws_fsck(ws_t *ws, ws_fsck_report *r, char **err)
{
    memset(r, 0, sizeof *r);
    r->integrity = ws->quick ? xstrdup(ws->quick) : pragma_problem(ws, "PRAGMA integrity_check", true);
    r->foreign_keys = pragma_problem(ws, "PRAGMA foreign_key_check", false);
    r->problems = (r->integrity != NULL) + (r->foreign_keys != NULL);
    sqlite3_stmt *s;
    char *sql = xasprintf("SELECT number, %s ORDER BY number", vtext_cols(ws->schema));
    int prc = sqlite3_prepare_v2(ws->db, sql, -1, &s, NULL);
    free(sql);
    if (prc != SQLITE_OK) {
        kp_status st = ws_fail(ws, err, _("read the versions"));
        ws_fsck_report_free(r);
        return st;
    }
    size_t cap = 0;
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        VEC_GROW(r->versions, r->nversions, cap);
        ws_fsck_version *v = &r->versions[r->nversions++];
        v->number = sqlite3_column_int(s, 0);
        char *design = vtext(s, 1);
        if (!design)
            v->problem = xstrdup(_("its stored design does not match its digest"));
        else {
            /* TRANSLATORS: names a stored version in fsck's findings ("version 3:2:5: error: ..."). */
            char *name = xasprintf(_("version %d"), v->number);
            v->problem = load_problem(design, name);
            free(name);
        }
        free(design);
        if (v->problem)
            r->problems++;
        else
            r->last_intact = v->number;
    }
    if (rc != SQLITE_DONE) {
        r->problems++;
        free(r->integrity);
        r->integrity = xasprintf(_("reading the versions stopped: %s"), sqlite3_errmsg(ws->db));
    }
    sqlite3_finalize(s);
    /* every author's working copy: the first that does not load, by author */
    if (ws->schema >= 3 && sqlite3_prepare_v2(ws->db, "SELECT author, design FROM copies ORDER BY author", -1,
                                              &s, NULL) == SQLITE_OK) {
        while (sqlite3_step(s) == SQLITE_ROW) {
            const char *author = (const char *)sqlite3_column_text(s, 0);
            const char *stored = (const char *)sqlite3_column_text(s, 1);
            /* TRANSLATORS: names an author's working copy in fsck's findings. */
            char *name =
                xasprintf(_("working copy of %s"), author && *author ? author : _("(before authors)"));
            char *yaml = with_edits(ws->db, ws->schema, author ? author : "", stored ? stored : "");
            char *why = yaml ? load_problem(yaml, name) : xstrdup(_("its saved edits do not fit its text"));
            free(yaml);
            if (why) {
                r->problems++;
                if (!r->working)
                    r->working = xasprintf("%s: %s", name, why);
            }
            free(why);
            free(name);
        }
        sqlite3_finalize(s);
    }
    return KP_OK;
}

/* ---- working copies and undo, per author -------------------------------------------------- */

kp_status ws_set_author(ws_t *ws, const char *author, char **err)
{
    if (!author || !*author)
        return kp_fail(err, KP_INVALID, _("the author's name is empty; expected a name such as ana"));
    if (util_control_at(author, false) >= 0)
        return kp_fail(err, KP_INVALID,
                       _("the author's name holds a control character; expected one line of text"));
    if (strlen(author) > 255)
        return kp_fail(err, KP_RANGE, _("the author's name is %zu bytes long; expected at most 255"),
                       strlen(author));
    if (ws->presence && !ws->ro)
        ws_presence_leave(ws, NULL);
    free(ws->author);
    ws->author = xstrdup(author);
    ws->wc_stamp = -1;
    return KP_OK;
}

const char *ws_author(const ws_t *ws) { return ws->author; }

kp_status ws_working_get(ws_t *ws, char **yaml, int *base, char **err)
{
    if (yaml)
        *yaml = NULL;
    if (base)
        *base = 0;
    sqlite3_stmt *s;
    if (ws->schema < 3)
        return kp_fail(err, KP_NOTFOUND, _("%s: no working copy read from a workspace of schema %lld"),
                       ws->path, ws->schema);
    const char *sql = ws->schema >= 4 ? "SELECT design, base, stamp FROM copies WHERE author = ?1"
                                      : "SELECT design, base, -1 FROM copies WHERE author = ?1";
    if (sqlite3_prepare_v2(ws->db, sql, -1, &s, NULL) != SQLITE_OK)
        return ws_fail(ws, err, _("read the working copy"));
    sqlite3_bind_text(s, 1, ws->author, -1, SQLITE_STATIC);
    int rc = sqlite3_step(s);
    bool fits = true;
    if (rc == SQLITE_ROW) {
        if (yaml) {
            /* the log is read in the same snapshot as the text: the statement above is still open */
            const char *stored = (const char *)sqlite3_column_text(s, 0);
            *yaml = with_edits(ws->db, ws->schema, ws->author, stored ? stored : "");
            fits = *yaml != NULL;
            if (fits)
                ws->wc_stamp = sqlite3_column_int64(s, 2); /* the caller holds the text as it is */
        }
        if (base)
            *base = sqlite3_column_type(s, 1) == SQLITE_NULL ? 0 : sqlite3_column_int(s, 1);
    }
    sqlite3_finalize(s);
    if (!fits)
        return kp_fail(err, KP_DAMAGED,
                       /* TRANSLATORS: %1$s and %3$s are the workspace file, %2$s an author's name */
                       _("%1$s: the working copy of %2$s cannot be read: its saved edits do not fit its text "
                         "(the file was changed outside keyplan); 'keyplan fsck %3$s' says what is intact"),
                       ws->path, ws->author, ws->path);
    if (rc == SQLITE_ROW)
        return KP_OK;
    if (rc == SQLITE_DONE)
        return kp_fail(err, KP_NOTFOUND, _("%s: no working copy of %s yet"), ws->path, ws->author);
    return ws_fail(ws, err, _("read the working copy"));
}

kp_status ws_working_adopt(ws_t *ws, bool *adopted, char **err)
{
    *adopted = false;
    long long mine = 0, legacy = 0;
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(ws->db,
                           "SELECT (SELECT count(*) FROM copies WHERE author = ?1), "
                           "(SELECT count(*) FROM copies WHERE author = '')",
                           -1, &s, NULL) != SQLITE_OK)
        return ws_fail(ws, err, _("read the working copies"));
    sqlite3_bind_text(s, 1, ws->author, -1, SQLITE_STATIC);
    if (sqlite3_step(s) == SQLITE_ROW) {
        mine = sqlite3_column_int64(s, 0);
        legacy = sqlite3_column_int64(s, 1);
    }
    sqlite3_finalize(s);
    if (mine || !legacy || ws->ro)
        return KP_OK;
    kp_status st = begin(ws, err);
    if (st != KP_OK)
        return st;
    bool ok = true;
    static const char take_copy[] = "UPDATE copies SET author = ?1 WHERE author = '' AND NOT EXISTS "
                                    "(SELECT 1 FROM copies WHERE author = ?1)";
    const char *sql[] = {take_copy, "UPDATE history SET author = ?1 WHERE author = ''",
                         "UPDATE edits SET author = ?1 WHERE author = ''"};
    for (size_t i = 0; ok && i < 3; i++) {
        ok = sqlite3_prepare_v2(ws->db, sql[i], -1, &s, NULL) == SQLITE_OK;
        if (ok) {
            sqlite3_bind_text(s, 1, ws->author, -1, SQLITE_STATIC);
            ok = sqlite3_step(s) == SQLITE_DONE;
            if (i == 0 && ok && sqlite3_changes(ws->db) == 0)
                i = 3; /* someone else took it meanwhile */
            else if (i == 0)
                *adopted = true;
            sqlite3_finalize(s);
        }
    }
    if (!ok) {
        *adopted = false;
        return abort_tx(ws, err, _("take over the working copy"));
    }
    return finish(ws, err, _("take over the working copy"));
}

/* The author's working copy's stamp (and its base in *base, may be NULL), -1 when there is none. */
static long long copy_stamp(ws_t *ws, int *base)
{
    sqlite3_stmt *s;
    long long stamp = -1;
    if (sqlite3_prepare_v2(ws->db, "SELECT stamp, base FROM copies WHERE author = ?1", -1, &s, NULL) !=
        SQLITE_OK)
        return -1;
    sqlite3_bind_text(s, 1, ws->author, -1, SQLITE_STATIC);
    if (sqlite3_step(s) == SQLITE_ROW) {
        stamp = sqlite3_column_int64(s, 0);
        if (base)
            *base = sqlite3_column_type(s, 1) == SQLITE_NULL ? 0 : sqlite3_column_int(s, 1);
    }
    sqlite3_finalize(s);
    return stamp;
}

/* Stores `yaml` whole as the author's working copy (its edit log emptied, its stamp counted on).
 * ws->wc_stamp becomes unknown: ws_working_set reads it back. */
static bool put_working(ws_t *ws, const char *yaml, int base, bool keep_base)
{
    sqlite3_stmt *s;
    ws->wc_stamp = -1;
    const char *sql =
        keep_base ? "UPDATE copies SET design = ?2, time = ?3, stamp = stamp + 1 WHERE author = ?4"
                  : "INSERT OR REPLACE INTO copies(author, base, design, time, stamp) VALUES (?4, ?1, "
                    "?2, ?3, coalesce((SELECT stamp FROM copies WHERE author = ?4), 0) + 1)";
    if (sqlite3_prepare_v2(ws->db, sql, -1, &s, NULL) != SQLITE_OK)
        return false;
    if (!keep_base) {
        if (base > 0)
            sqlite3_bind_int(s, 1, base);
        else
            sqlite3_bind_null(s, 1);
    }
    char *now = now_iso();
    sqlite3_bind_text(s, 2, yaml, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 3, now, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 4, ws->author, -1, SQLITE_STATIC);
    free(now);
    bool ok = sqlite3_step(s) == SQLITE_DONE;
    sqlite3_finalize(s);
    if (ok && sqlite3_prepare_v2(ws->db, "DELETE FROM edits WHERE author = ?1", -1, &s, NULL) == SQLITE_OK) {
        sqlite3_bind_text(s, 1, ws->author, -1, SQLITE_STATIC);
        ok = sqlite3_step(s) == SQLITE_DONE;
        sqlite3_finalize(s);
    } else {
        ok = false;
    }
    return ok;
}

/* Pushes on `stack` a state based on `base` as a delta on the working copy about to replace it:
 * that text's bytes `p` to length - `sfx` replaced by mid (ml bytes). */
static bool push_delta(ws_t *ws, const char *stack, const char *mid, size_t ml, size_t p, size_t sfx,
                       int base, const char *label, const char *hunks)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(
            ws->db,
            "INSERT INTO history(author, stack, design, label, time, base, prefix, suffix, hunks) "
            "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            -1, &s, NULL) != SQLITE_OK)
        return false;
    bind_opt(s, 9, hunks);
    char *now = now_iso();
    sqlite3_bind_text(s, 1, ws->author, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 2, stack, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 3, mid, (int)ml, SQLITE_STATIC);
    bind_opt(s, 4, label);
    sqlite3_bind_text(s, 5, now, -1, SQLITE_TRANSIENT);
    if (base > 0)
        sqlite3_bind_int(s, 6, base);
    else
        sqlite3_bind_null(s, 6);
    sqlite3_bind_int64(s, 7, (long long)p);
    sqlite3_bind_int64(s, 8, (long long)sfx);
    free(now);
    bool ok = sqlite3_step(s) == SQLITE_DONE;
    sqlite3_finalize(s);
    return ok;
}

/* The author's working copy changed through its log: its time and stamp moved on. */
static bool touch_copy(ws_t *ws)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(ws->db, "UPDATE copies SET time = ?2, stamp = stamp + 1 WHERE author = ?1", -1, &s,
                           NULL) != SQLITE_OK)
        return false;
    char *now = now_iso();
    sqlite3_bind_text(s, 1, ws->author, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 2, now, -1, SQLITE_TRANSIENT);
    free(now);
    bool ok = sqlite3_step(s) == SQLITE_DONE;
    sqlite3_finalize(s);
    return ok;
}

/* The author's edits log folded into the copy's text when it holds WS_EDITS_CAP rows: the log
 * stays short, so reading the copy stays cheap. */
static bool fold_if_full(ws_t *ws)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(ws->db, "SELECT count(*) >= ?2 FROM edits WHERE author = ?1", -1, &s, NULL) !=
        SQLITE_OK)
        return false;
    sqlite3_bind_text(s, 1, ws->author, -1, SQLITE_STATIC);
    sqlite3_bind_int(s, 2, WS_EDITS_CAP);
    bool ok = sqlite3_step(s) == SQLITE_ROW;
    bool full = ok && sqlite3_column_int(s, 0);
    sqlite3_finalize(s);
    return ok && (!full || fold_edits(ws->db, ws->author));
}

/* One row of the author's edits log: the working copy's bytes `p` to length - `sfx` replaced by
 * mid (ml bytes), its time and stamp moved on, the log folded when full. */
static bool log_edit(ws_t *ws, size_t p, size_t sfx, const char *mid, size_t ml, const char *hunks)
{
    sqlite3_stmt *s;
    bool ok =
        sqlite3_prepare_v2(
            ws->db, "INSERT INTO edits(author, prefix, suffix, design, hunks) VALUES (?1, ?2, ?3, ?4, ?5)",
            -1, &s, NULL) == SQLITE_OK;
    if (ok) {
        bind_opt(s, 5, hunks);
        sqlite3_bind_text(s, 1, ws->author, -1, SQLITE_STATIC);
        sqlite3_bind_int64(s, 2, (long long)p);
        sqlite3_bind_int64(s, 3, (long long)sfx);
        sqlite3_bind_text(s, 4, mid ? mid : "", (int)ml, SQLITE_STATIC);
        ok = sqlite3_step(s) == SQLITE_DONE;
        sqlite3_finalize(s);
    }
    return ok && touch_copy(ws) && fold_if_full(ws);
}

/* Pushes on `stack` the state `state` (based on `base`) as a delta on `above`, the working copy
 * about to replace it. */
static bool push_history(ws_t *ws, const char *stack, const char *state, int base, const char *above,
                         const char *label)
{
    size_t p, sfx, ml;
    const char *mid;
    delta_of(state, above, &p, &sfx, &mid, &ml);
    return push_delta(ws, stack, mid, ml, p, sfx, base, label, NULL);
}

/* The top entry of the author's `stack`: KP_OK, KP_NOTFOUND when empty, KP_IO on failure. */
static kp_status top_entry(ws_t *ws, const char *stack, hentry *e)
{
    memset(e, 0, sizeof *e);
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(ws->db,
                           "SELECT " HENTRY_COLS " FROM history WHERE author = ?1 AND stack = ?2 "
                           "ORDER BY seq DESC LIMIT 1",
                           -1, &s, NULL) != SQLITE_OK)
        return KP_IO;
    sqlite3_bind_text(s, 1, ws->author, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 2, stack, -1, SQLITE_STATIC);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW)
        hentry_read(s, e);
    sqlite3_finalize(s);
    return rc == SQLITE_ROW ? KP_OK : rc == SQLITE_DONE ? KP_NOTFOUND : KP_IO;
}

/* Before the working copy is replaced outside the history (a commit, a save that is not
 * undoable): the top of each stack, a delta on the old text, is stored whole. */
static bool materialize_tops(ws_t *ws, const char *cur)
{
    const char *stacks[] = {"undo", "redo"};
    for (size_t i = 0; i < 2; i++) {
        hentry e;
        kp_status st = top_entry(ws, stacks[i], &e);
        if (st == KP_NOTFOUND)
            continue;
        if (st != KP_OK)
            return false;
        bool ok = true;
        if (e.prefix >= 0 || e.hunks) {
            char *state = hentry_apply(&e, cur, strlen(cur));
            sqlite3_stmt *s;
            ok = state &&
                 sqlite3_prepare_v2(
                     ws->db, "UPDATE history SET design = ?2, prefix = NULL, hunks = NULL WHERE seq = ?1", -1,
                     &s, NULL) == SQLITE_OK;
            if (ok) {
                sqlite3_bind_int64(s, 1, e.seq);
                sqlite3_bind_text(s, 2, state, -1, SQLITE_STATIC);
                ok = sqlite3_step(s) == SQLITE_DONE;
                sqlite3_finalize(s);
            }
            free(state);
        }
        hentry_free(&e);
        if (!ok)
            return false;
    }
    return true;
}

/* Replaces the working copy outside the history, keeping the stacks' deltas right. */
static bool replace_working(ws_t *ws, const char *yaml, int base)
{
    char *cur = NULL;
    bool ok = true;
    if (ws_working_get(ws, &cur, NULL, NULL) == KP_OK && strcmp(cur, yaml) != 0)
        ok = materialize_tops(ws, cur);
    free(cur);
    return ok && put_working(ws, yaml, base, false);
}

/* Drops the author's oldest undo steps beyond `keep`. */
static bool cap_undo(ws_t *ws, long long keep)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(ws->db,
                           "DELETE FROM history WHERE author = ?1 AND stack = 'undo' AND seq <= "
                           "(SELECT seq FROM history WHERE author = ?1 AND stack = 'undo' "
                           "ORDER BY seq DESC LIMIT 1 OFFSET ?2)",
                           -1, &s, NULL) != SQLITE_OK)
        return false;
    sqlite3_bind_text(s, 1, ws->author, -1, SQLITE_STATIC);
    sqlite3_bind_int64(s, 2, keep);
    bool ok = sqlite3_step(s) == SQLITE_DONE;
    sqlite3_finalize(s);
    return ok;
}

static bool clear_redo(ws_t *ws)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(ws->db, "DELETE FROM history WHERE author = ?1 AND stack = 'redo'", -1, &s,
                           NULL) != SQLITE_OK)
        return false;
    sqlite3_bind_text(s, 1, ws->author, -1, SQLITE_STATIC);
    bool ok = sqlite3_step(s) == SQLITE_DONE;
    sqlite3_finalize(s);
    return ok;
}

kp_status ws_working_set(ws_t *ws, const char *yaml, int base, bool undoable, const char *label, char **err)
{
    if (!yaml)
        return kp_fail(err, KP_INVALID, _("no working copy text given"));
    kp_status st = begin(ws, err);
    if (st != KP_OK)
        return st;
    char *cur = NULL;
    int curbase = 0;
    kp_status gst = ws_working_get(ws, &cur, &curbase, NULL);
    bool ok = true;
    if (undoable && gst == KP_NOTFOUND && base > 0) {
        /* no working copy yet (the version was committed from the command line): the state before
           this first edit is the version itself, and undo must bring it back */
        ws_version_get(ws, base, NULL, &cur, NULL);
        gst = cur ? KP_OK : KP_NOTFOUND;
        curbase = base;
    }
    if (undoable && gst == KP_OK && (strcmp(cur, yaml) != 0 || curbase != base)) {
        ok = push_history(ws, "undo", cur, curbase, yaml, label) && clear_redo(ws) &&
             cap_undo(ws, WS_UNDO_CAP) && put_working(ws, yaml, base, false);
    } else if (gst == KP_OK && strcmp(cur, yaml) != 0) {
        ok = materialize_tops(ws, cur) && put_working(ws, yaml, base, false);
    } else {
        ok = put_working(ws, yaml, base, false);
    }
    free(cur);
    if (!ok)
        return abort_tx(ws, err, _("save the working copy"));
    long long stamp = copy_stamp(ws, NULL);
    st = finish(ws, err, _("save the working copy"));
    if (st == KP_OK)
        ws->wc_stamp = stamp;
    return st;
}

kp_status ws_working_splice(ws_t *ws, size_t prefix, size_t suffix, const char *was, size_t waslen,
                            const char *text, size_t len, const char *label, char **err)
{
    if (ws->schema < 4 || ws->wc_stamp < 0)
        return kp_fail(err, KP_CONFLICT,
                       "%s: the working copy of %s is not known to this handle; save it whole", ws->path,
                       ws->author);
    if ((was && memchr(was, '\0', waslen)) || (text && memchr(text, '\0', len)))
        return kp_fail(err, KP_INVALID, "a working copy's text holds no NUL byte");
    kp_status st = begin(ws, err);
    if (st != KP_OK)
        return st;
    int base = 0;
    if (copy_stamp(ws, &base) != ws->wc_stamp) {
        exec(ws->db, "ROLLBACK");
        ws->wc_stamp = -1;
        return kp_fail(err, KP_CONFLICT, "%s: the working copy of %s changed elsewhere; save it whole",
                       ws->path, ws->author);
    }
    bool ok = push_delta(ws, "undo", was ? was : "", waslen, prefix, suffix, base, label, NULL) &&
              clear_redo(ws) && cap_undo(ws, WS_UNDO_CAP) && log_edit(ws, prefix, suffix, text, len, NULL);
    if (!ok) {
        ws->wc_stamp = -1;
        return abort_tx(ws, err, _("save the working copy"));
    }
    st = finish(ws, err, _("save the working copy"));
    ws->wc_stamp = st == KP_OK ? ws->wc_stamp + 1 : -1;
    return st;
}

kp_status ws_working_splices(ws_t *ws, size_t tlen, const ws_range *r, size_t n, const char *label,
                             char **err)
{
    if (ws->schema < 5 || ws->wc_stamp < 0)
        return kp_fail(err, KP_CONFLICT,
                       "%s: the working copy of %s is not known to this handle; save it whole", ws->path,
                       ws->author);
    size_t end = 0;
    for (size_t i = 0; i < n; i++) {
        if (r[i].at < end || r[i].waslen > tlen || r[i].at > tlen - r[i].waslen)
            return kp_fail(err, KP_INVALID,
                           "range %zu of %zu does not fit a text of %zu bytes after byte %zu", i + 1, n, tlen,
                           end);
        if ((r[i].was && memchr(r[i].was, '\0', r[i].waslen)) ||
            (r[i].text && memchr(r[i].text, '\0', r[i].len)))
            return kp_fail(err, KP_INVALID, "a working copy's text holds no NUL byte");
        end = r[i].at + r[i].waslen;
    }
    if (!n)
        return KP_OK;
    /* the edit: each range made on the text; the undo step: each back, at its place in the new one */
    hunk *h = xcalloc(n, sizeof *h), *inv = xcalloc(n, sizeof *inv);
    long long shift = 0;
    for (size_t i = 0; i < n; i++) {
        h[i] = (hunk){r[i].at, r[i].waslen, r[i].text ? r[i].text : "", r[i].len};
        inv[i] =
            (hunk){(size_t)((long long)r[i].at + shift), r[i].len, r[i].was ? r[i].was : "", r[i].waslen};
        shift += (long long)r[i].len - (long long)r[i].waslen;
    }
    char *now, *was;
    size_t nnow, nwas;
    char *spec = hunks_spec(h, n, &now, &nnow), *back = hunks_spec(inv, n, &was, &nwas);
    free(h);
    free(inv);
    kp_status st = begin(ws, err);
    if (st == KP_OK) {
        int base = 0;
        if (copy_stamp(ws, &base) != ws->wc_stamp) {
            exec(ws->db, "ROLLBACK");
            ws->wc_stamp = -1;
            st = kp_fail(err, KP_CONFLICT, "%s: the working copy of %s changed elsewhere; save it whole",
                         ws->path, ws->author);
        } else if (!(push_delta(ws, "undo", was, nwas, 0, 0, base, label, back) && clear_redo(ws) &&
                     cap_undo(ws, WS_UNDO_CAP) && log_edit(ws, 0, 0, now, nnow, spec))) {
            ws->wc_stamp = -1;
            st = abort_tx(ws, err, _("save the working copy"));
        } else {
            st = finish(ws, err, _("save the working copy"));
            ws->wc_stamp = st == KP_OK ? ws->wc_stamp + 1 : -1;
        }
    }
    free(spec);
    free(back);
    free(now);
    free(was);
    return st;
}

kp_status ws_working_fold(ws_t *ws, char **err)
{
    if (ws->schema < 4 || ws->ro)
        return KP_OK;
    long long n = 0;
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(ws->db, "SELECT count(*) FROM edits WHERE author = ?1", -1, &s, NULL) != SQLITE_OK)
        return ws_fail(ws, err, _("read the working copy"));
    sqlite3_bind_text(s, 1, ws->author, -1, SQLITE_STATIC);
    if (sqlite3_step(s) == SQLITE_ROW)
        n = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    if (!n)
        return KP_OK;
    kp_status st = begin(ws, err);
    if (st != KP_OK)
        return st;
    if (!fold_edits(ws->db, ws->author))
        return abort_tx(ws, err, _("fold the working copy's edits"));
    return finish(ws, err, _("fold the working copy's edits"));
}

kp_status ws_working_fold_text(ws_t *ws, const char *text, char **err)
{
    if (ws->schema < 4 || ws->ro)
        return KP_OK;
    if (!text || ws->wc_stamp < 0)
        return ws_working_fold(ws, err);
    kp_status st = begin(ws, err);
    if (st != KP_OK)
        return st;
    sqlite3_stmt *s;
    if (copy_stamp(ws, NULL) != ws->wc_stamp) { /* changed elsewhere: the log is read */
        exec(ws->db, "ROLLBACK");
        return ws_working_fold(ws, err);
    }
    bool ok = sqlite3_prepare_v2(ws->db, "DELETE FROM edits WHERE author = ?1", -1, &s, NULL) == SQLITE_OK;
    if (ok) {
        sqlite3_bind_text(s, 1, ws->author, -1, SQLITE_STATIC);
        ok = sqlite3_step(s) == SQLITE_DONE;
        sqlite3_finalize(s);
    }
    if (ok && sqlite3_changes(ws->db) == 0) { /* nothing to fold */
        exec(ws->db, "ROLLBACK");
        return KP_OK;
    }
    if (ok && (ok = sqlite3_prepare_v2(ws->db, "UPDATE copies SET design = ?2 WHERE author = ?1", -1, &s,
                                       NULL) == SQLITE_OK)) {
        sqlite3_bind_text(s, 1, ws->author, -1, SQLITE_STATIC);
        sqlite3_bind_text(s, 2, text, -1, SQLITE_STATIC);
        ok = sqlite3_step(s) == SQLITE_DONE;
        sqlite3_finalize(s);
    }
    if (!ok)
        return abort_tx(ws, err, _("fold the working copy's edits"));
    return finish(ws, err, _("fold the working copy's edits"));
}

/* Moves the top of `from` into the working copy, pushing the current state on `to`. */
static kp_status step_history(ws_t *ws, const char *from, const char *to, const char *known, char **yaml,
                              int *base, char **err)
{
    if (yaml)
        *yaml = NULL;
    kp_status st = begin(ws, err);
    if (st != KP_OK)
        return st;
    hentry e;
    st = top_entry(ws, from, &e);
    if (st != KP_OK) {
        if (st != KP_NOTFOUND)
            return abort_tx(ws, err, _("read the undo history"));
        exec(ws->db, "ROLLBACK");
        return kp_fail(err, KP_NOTFOUND, "%s",
                       strcmp(from, "undo") == 0 ? _("nothing to undo") : _("nothing to redo"));
    }
    char *read = NULL; /* the copy read, when the caller's text is not it */
    const char *cur = NULL;
    int curbase = 0;
    bool ok;
    if (known && ws->schema >= 4 && ws->wc_stamp >= 0 && copy_stamp(ws, &curbase) == ws->wc_stamp) {
        cur = known; /* the caller's text is the copy as it is: the log is not read */
        ok = true;
    } else {
        ok = ws_working_get(ws, &read, &curbase, NULL) == KP_OK;
        cur = read;
    }
    char *text = ok ? hentry_apply(&e, cur, strlen(cur)) : NULL;
    if (ok && !text) {
        free(read);
        hentry_free(&e);
        exec(ws->db, "ROLLBACK");
        return kp_fail(err, KP_DAMAGED,
                       strcmp(from, "undo") == 0
                           ? _("%s: the undo step does not fit the working copy (the history is damaged)")
                           : _("%s: the redo step does not fit the working copy (the history is damaged)"),
                       ws->path);
    }
    int nbase = e.base >= 0 ? e.base : curbase;
    /* the same base: the step is one row of the edits log, the bytes that differ (the whole text
       is not written again) */
    bool logged = ws->schema >= 4 && nbase == curbase;
    if (ok && e.hunks) {
        /* hunks: those that take the text back to the current copy are the step's other side,
           and the entry's own the edit logged (several ranges, not the span between them) */
        size_t n, nbytes; /* the entry fits (it was applied) */
        hunk *h = hunks_parse(e.hunks, e.text, e.len, strlen(cur), &n), *inv = xcalloc(n + 1, sizeof *inv);
        hunks_inverse(cur, h, n, inv);
        char *bytes, *spec = hunks_spec(inv, n, &bytes, &nbytes);
        char *del = xasprintf("DELETE FROM history WHERE seq = %lld", e.seq);
        ok = push_delta(ws, to, bytes, nbytes, 0, 0, curbase, e.label, spec) && exec(ws->db, del) &&
             (logged ? log_edit(ws, 0, 0, e.text, e.len, e.hunks) : put_working(ws, text, nbase, false));
        free(del);
        free(spec);
        free(bytes);
        free(inv);
        free(h);
    } else if (ok) {
        /* the current copy as a delta on the text: the step that takes this one back */
        size_t p, sfx, ml;
        const char *mid;
        delta_of(cur, text, &p, &sfx, &mid, &ml);
        char *del = xasprintf("DELETE FROM history WHERE seq = %lld", e.seq);
        ok = push_delta(ws, to, mid, ml, p, sfx, curbase, e.label, NULL) && exec(ws->db, del) &&
             (logged ? log_edit(ws, p, sfx, text + p, strlen(text) - p - sfx, NULL)
                     : put_working(ws, text, nbase, false));
        free(del);
    }
    /* the text handed back is the copy as it now is: the handle knows it (as after a whole save) */
    long long stamp = ok && yaml && ws->schema >= 4 ? copy_stamp(ws, NULL) : -1;
    free(read);
    hentry_free(&e);
    if (!ok) {
        free(text);
        return abort_tx(ws, err, strcmp(from, "undo") == 0 ? _("undo") : _("redo"));
    }
    st = finish(ws, err, _("undo"));
    ws->wc_stamp = st == KP_OK ? stamp : -1;
    if (st == KP_OK && base)
        *base = nbase;
    if (st == KP_OK && yaml)
        *yaml = text;
    else
        free(text);
    return st;
}

kp_status ws_undo(ws_t *ws, char **yaml, int *base, char **err)
{
    return step_history(ws, "undo", "redo", NULL, yaml, base, err);
}

kp_status ws_redo(ws_t *ws, char **yaml, int *base, char **err)
{
    return step_history(ws, "redo", "undo", NULL, yaml, base, err);
}

kp_status ws_step_text(ws_t *ws, bool undo, const char *text, char **yaml, int *base, char **err)
{
    return undo ? step_history(ws, "undo", "redo", text, yaml, base, err)
                : step_history(ws, "redo", "undo", text, yaml, base, err);
}

kp_status ws_history_depth(ws_t *ws, size_t *nundo, size_t *nredo, char **err)
{
    long long u = 0, r = 0;
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(ws->db,
                           "SELECT (SELECT count(*) FROM history WHERE author = ?1 AND stack = 'undo'), "
                           "(SELECT count(*) FROM history WHERE author = ?1 AND stack = 'redo')",
                           -1, &s, NULL) != SQLITE_OK)
        return ws_fail(ws, err, _("read the undo history"));
    sqlite3_bind_text(s, 1, ws->author, -1, SQLITE_STATIC);
    bool ok = sqlite3_step(s) == SQLITE_ROW;
    if (ok) {
        u = sqlite3_column_int64(s, 0);
        r = sqlite3_column_int64(s, 1);
    }
    sqlite3_finalize(s);
    if (!ok)
        return ws_fail(ws, err, _("read the undo history"));
    if (nundo)
        *nundo = (size_t)u;
    if (nredo)
        *nredo = (size_t)r;
    return KP_OK;
}

kp_status ws_compact(ws_t *ws, size_t keep, long long *freed, char **err)
{
    if (freed)
        *freed = 0;
    long long before = 0, after = 0;
    pragma_int(ws->db, "SELECT page_count * page_size FROM pragma_page_count, pragma_page_size", &before);
    kp_status st = begin(ws, err);
    if (st != KP_OK)
        return st;
    if (!cap_undo(ws, (long long)keep) || (ws->schema >= 4 && !fold_edits(ws->db, NULL)) ||
        !compact_all(ws->db, true))
        return abort_tx(ws, err, _("compact the undo history"));
    if ((st = finish(ws, err, _("compact the undo history"))) != KP_OK)
        return st;
    if (!exec(ws->db, "VACUUM") || !exec(ws->db, "PRAGMA wal_checkpoint(TRUNCATE)"))
        return ws_fail(ws, err, _("compact the workspace"));
    pragma_int(ws->db, "SELECT page_count * page_size FROM pragma_page_count, pragma_page_size", &after);
    if (freed)
        *freed = before - after;
    return KP_OK;
}

void ws_copies_free(ws_copy *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(c[i].author);
        free(c[i].time);
    }
    free(c);
}

kp_status ws_copies(ws_t *ws, ws_copy **out, size_t *n, char **err)
{
    *out = NULL;
    *n = 0;
    if (ws->schema < 3)
        return KP_OK;
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(ws->db, "SELECT author, base, design, time FROM copies ORDER BY author", -1, &s,
                           NULL) != SQLITE_OK)
        return ws_fail(ws, err, _("read the working copies"));
    size_t cap = 0;
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        VEC_GROW(*out, *n, cap);
        ws_copy *c = &(*out)[(*n)++];
        c->author = col_text(s, 0);
        c->base = sqlite3_column_type(s, 1) == SQLITE_NULL ? 0 : sqlite3_column_int(s, 1);
        c->time = col_text(s, 3);
        char *v = NULL;
        const char *stored = (const char *)sqlite3_column_text(s, 2);
        char *text = stored ? with_edits(ws->db, ws->schema, c->author, stored) : NULL;
        c->dirty = c->base == 0 || ws_version_get(ws, c->base, NULL, &v, NULL) != KP_OK || !text ||
                   strcmp(v, text) != 0;
        free(text);
        free(v);
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE) {
        ws_copies_free(*out, *n);
        *out = NULL;
        *n = 0;
        return ws_fail(ws, err, _("read the working copies"));
    }
    return KP_OK;
}

/* ---- presence ---------------------------------------------------------------------------- */

static double unix_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

kp_status ws_presence_beat(ws_t *ws, const char *screen, int row, char **err)
{
    kp_status st = need_rw(ws, err);
    if (st != KP_OK)
        return st;
    if (ws->schema < 3)
        return KP_OK;
    if (!ws->presence) {
        char host[256] = "";
        gethostname(host, sizeof host - 1);
        ws->presence = xasprintf("%s:%ld:%p", host, (long)getpid(), (void *)ws);
    }
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(
            ws->db,
            "INSERT OR REPLACE INTO presence(id, author, screen, row, beat) VALUES (?1, ?2, ?3, ?4, ?5)", -1,
            &s, NULL) != SQLITE_OK)
        return ws_fail(ws, err, _("record the presence"));
    sqlite3_bind_text(s, 1, ws->presence, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 2, ws->author, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 3, screen ? screen : "", -1, SQLITE_STATIC);
    sqlite3_bind_int(s, 4, row);
    double t = unix_now();
    sqlite3_bind_double(s, 5, t);
    bool ok = sqlite3_step(s) == SQLITE_DONE;
    sqlite3_finalize(s);
    if (ok && sqlite3_prepare_v2(ws->db, "DELETE FROM presence WHERE beat < ?1", -1, &s, NULL) == SQLITE_OK) {
        sqlite3_bind_double(s, 1, t - 60 * WS_PRESENCE_STALE); /* long gone: tidied away */
        ok = sqlite3_step(s) == SQLITE_DONE;
        sqlite3_finalize(s);
    }
    return ok ? KP_OK : ws_fail(ws, err, _("record the presence"));
}

kp_status ws_presence_leave(ws_t *ws, char **err)
{
    if (!ws->presence || ws->ro)
        return KP_OK;
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(ws->db, "DELETE FROM presence WHERE id = ?1", -1, &s, NULL) != SQLITE_OK)
        return ws_fail(ws, err, _("clear the presence"));
    sqlite3_bind_text(s, 1, ws->presence, -1, SQLITE_STATIC);
    bool ok = sqlite3_step(s) == SQLITE_DONE;
    sqlite3_finalize(s);
    free(ws->presence);
    ws->presence = NULL;
    return ok ? KP_OK : ws_fail(ws, err, _("clear the presence"));
}

void ws_presence_free(ws_presence *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(p[i].author);
        free(p[i].screen);
    }
    free(p);
}

kp_status ws_presence_others(ws_t *ws, ws_presence **out, size_t *n, char **err)
{
    *out = NULL;
    *n = 0;
    if (ws->schema < 3)
        return KP_OK;
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(ws->db,
                           "SELECT author, screen, row, beat FROM presence WHERE beat >= ?1 AND id IS NOT ?2 "
                           "ORDER BY author, id",
                           -1, &s, NULL) != SQLITE_OK)
        return ws_fail(ws, err, _("read the presence"));
    double t = unix_now();
    sqlite3_bind_double(s, 1, t - WS_PRESENCE_STALE);
    if (ws->presence)
        sqlite3_bind_text(s, 2, ws->presence, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(s, 2);
    size_t cap = 0;
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        VEC_GROW(*out, *n, cap);
        ws_presence *p = &(*out)[(*n)++];
        p->author = col_text(s, 0);
        p->screen = col_text(s, 1);
        p->row = sqlite3_column_int(s, 2);
        p->age = t - sqlite3_column_double(s, 3);
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE) {
        ws_presence_free(*out, *n);
        *out = NULL;
        *n = 0;
        return ws_fail(ws, err, _("read the presence"));
    }
    return KP_OK;
}

/* ---- observations ------------------------------------------------------------------------ */

kp_status ws_observe(ws_t *ws, const char *metric, double value, const char *source, char **err)
{
    char *why = NULL;
    if (!metric || sig_metric_check(metric, &why) != KP_OK) {
        kp_status st =
            kp_fail(err, KP_SIGNAL, _("metric '%s': %s"), metric ? metric : "", why ? why : _("missing"));
        free(why);
        return st;
    }
    if (!isfinite(value))
        return kp_fail(err, KP_RANGE, _("metric '%s': the value must be a finite number"), metric);
    if (value < 0) /* every metric is a rate, a count, a size, a latency, a share or a cost */
        return kp_fail(err, KP_RANGE, _("metric '%s': %g is below zero; expected a figure of 0 or more"),
                       metric, value);
    if (source && util_control_at(source, false) >= 0)
        return kp_fail(err, KP_INVALID, _("the source holds a control character; expected one line of text"));
    kp_status st = begin(ws, err);
    if (st != KP_OK)
        return st;
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(ws->db,
                           "INSERT INTO observations(metric, value, time, source) VALUES (?1, ?2, ?3, ?4)",
                           -1, &s, NULL) != SQLITE_OK)
        return abort_tx(ws, err, _("record the observation"));
    char *now = now_iso();
    char *src = NULL;
    if (!source || !*source) {
        char *who = ws_default_author();
        src = xasprintf("cli:%s", who);
        free(who);
    } else {
        src = xstrdup(source);
    }
    sqlite3_bind_text(s, 1, metric, -1, SQLITE_TRANSIENT);
    sqlite3_bind_double(s, 2, value);
    sqlite3_bind_text(s, 3, now, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 4, src, -1, SQLITE_TRANSIENT);
    free(now);
    free(src);
    bool ok = sqlite3_step(s) == SQLITE_DONE;
    sqlite3_finalize(s);
    if (!ok)
        return abort_tx(ws, err, _("record the observation"));
    return finish(ws, err, _("record the observation"));
}

static kp_status read_observations(ws_t *ws, const char *sql, sig_observation **out, size_t *n, char **err)
{
    *out = NULL;
    *n = 0;
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(ws->db, sql, -1, &s, NULL) != SQLITE_OK)
        return ws_fail(ws, err, _("read the observations"));
    size_t cap = 0;
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        VEC_GROW(*out, *n, cap);
        sig_observation *o = &(*out)[(*n)++];
        o->id = sqlite3_column_int64(s, 0);
        o->metric = col_text(s, 1);
        o->value = sqlite3_column_double(s, 2);
        o->time = col_text(s, 3);
        o->source = col_text(s, 4);
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE) {
        sig_observations_free(*out, *n);
        *out = NULL;
        *n = 0;
        return ws_fail(ws, err, _("read the observations"));
    }
    return KP_OK;
}

kp_status ws_observations(ws_t *ws, sig_observation **out, size_t *n, char **err)
{
    return read_observations(ws, "SELECT id, metric, value, time, source FROM observations ORDER BY id", out,
                             n, err);
}

kp_status ws_observations_latest(ws_t *ws, sig_observation **out, size_t *n, char **err)
{
    return read_observations(
        ws,
        "SELECT o.id, o.metric, o.value, o.time, o.source FROM observations o "
        "WHERE o.id = (SELECT max(id) FROM observations WHERE metric = o.metric) ORDER BY o.metric",
        out, n, err);
}

/* What a reload is for: the newest version and observation. */
static long long content_stamp(ws_t *ws)
{
    long long v = 0;
    pragma_int(ws->db,
               "SELECT (SELECT coalesce(max(number), 0) FROM versions) * 4294967296 + "
               "(SELECT coalesce(max(id), 0) FROM observations)",
               &v);
    return v;
}

bool ws_changed_elsewhere(ws_t *ws)
{
    long long v = 0;
    if (!pragma_int(ws->db, "PRAGMA data_version", &v))
        return false;
    if (v == ws->data_version)
        return false;
    ws->data_version = v;
    /* another author's edits and heartbeats change the file too: only versions and
       observations matter here */
    long long st = content_stamp(ws);
    bool changed = st != ws->stamp;
    ws->stamp = st;
    return changed;
}

/* ---- meta -------------------------------------------------------------------------------- */

kp_status ws_meta_get(ws_t *ws, const char *key, char **value, char **err)
{
    *value = NULL;
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(ws->db, "SELECT value FROM meta WHERE key = ?1", -1, &s, NULL) != SQLITE_OK)
        return ws_fail(ws, err, _("read a setting"));
    sqlite3_bind_text(s, 1, key, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW)
        *value = col_text(s, 0);
    sqlite3_finalize(s);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? KP_OK : ws_fail(ws, err, _("read a setting"));
}

kp_status ws_meta_set(ws_t *ws, const char *key, const char *value, char **err)
{
    if (strcmp(key, "created_at") == 0 || strcmp(key, "created_by") == 0)
        return kp_fail(err, KP_INVALID, _("meta key '%s' is keyplan's own; expected another key"), key);
    kp_status st = begin(ws, err);
    if (st != KP_OK)
        return st;
    sqlite3_stmt *s;
    const char *sql =
        value ? "INSERT OR REPLACE INTO meta(key, value) VALUES (?1, ?2)" : "DELETE FROM meta WHERE key = ?1";
    if (sqlite3_prepare_v2(ws->db, sql, -1, &s, NULL) != SQLITE_OK)
        return abort_tx(ws, err, _("store a setting"));
    sqlite3_bind_text(s, 1, key, -1, SQLITE_TRANSIENT);
    if (value)
        sqlite3_bind_text(s, 2, value, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(s);
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE)
        return abort_tx(ws, err, _("store a setting"));
    return finish(ws, err, _("store a setting"));
}
