/* test_hostile.c - hostile input, hostile paths: one regression test per defect found by probing
 * keyplan as an attacker and a careless user would (run under ASan/UBSan by scripts/test.sh).
 * Writes never replace what is not a regular file; inputs are bounded; NUL and control
 * characters are refused at their place; a damaged version is never served; the workbench never
 * builds on one; outputs cannot be injected into. Device nodes are made in a temporary folder
 * (mknod, when running as root) — the system's own /dev is never a target. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "csvio.h"
#include "design_io.h"
#include "display.h"
#include "fileio.h"
#include "session.h"
#include "support.h"
#include "util.h"
#include "workspace.h"

#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

typedef struct run {
    int rc;
    char *out, *err;
} run;

static run kp_in(const char *input, const char *const *args)
{
    run r = {0};
    r.rc = ts_run_keyplan(args, input, &r.out, &r.err);
    return r;
}
#define KP(...)       kp_in(NULL, (const char *const[]){__VA_ARGS__, NULL})
#define KP_IN(s, ...) kp_in((s), (const char *const[]){__VA_ARGS__, NULL})

static void run_free(run *r)
{
    free(r->out);
    free(r->err);
}

static void expect(run *r, int rc, const char *in_out, const char *in_err)
{
    if (r->rc != rc || (in_out && !strstr(r->out, in_out)) || (in_err && !strstr(r->err, in_err)))
        fail_msg("rc %d (want %d)\nstdout:\n%.2000s\nstderr:\n%.2000s\nwanted out '%s' err '%s'", r->rc, rc,
                 r->out, r->err, in_out ? in_out : "", in_err ? in_err : "");
}

static char *in_dir(const char *dir, const char *name) { return xasprintf("%s/%s", dir, name); }

static void write_text(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    fclose(f);
}

static const char *design_path(void)
{
    static char p[4096];
    char *s = ts_source_path("samples/cloudshop/design.yaml");
    snprintf(p, sizeof p, "%s", s);
    free(s);
    return p;
}

/* ---- 1. a pattern listing one entity several times ---------------------------------------- */

static void test_entities_listed_twice(void **state)
{
    (void)state;
    kp_diags dg;
    diags_init(&dg, "t.yaml");
    const char *y = "keyplan: 1\nname: x\ntable: { name: Tbl, pk: PK, sk: SK }\n"
                    "entities:\n  - { name: E, attributes: [a], keys: { PK: \"E#{a}\", SK: X } }\n"
                    "patterns:\n  - { id: 1, name: p, entities: [E, E, E, E], by: [a] }\n";
    kp_design *d = designio_load_string(y, strlen(y), "t.yaml", &dg);
    assert_null(d);
    assert_int_equal(dg.errors, 3);
    assert_int_equal(dg.v[0].loc.line, 7);
    assert_non_null(strstr(dg.v[0].msg, "entity 'E' is listed twice"));
    diags_free(&dg);
}

/* ---- 2. -o never replaces what is not a regular file --------------------------------------- */

static void expect_refused(const char *path, const char *what)
{
    char *err = NULL;
    assert_int_equal(fileio_write_atomic(path, "x", 1, &err), KP_IO);
    if (!strstr(err, what))
        fail_msg("%s: '%s' does not say '%s'", path, err, what);
    free(err);
    assert_int_equal(fileio_check_target(path, NULL), KP_IO);
}

static void test_write_targets(void **state)
{
    (void)state;
    char *dir = ts_temp_dir();
    /* a FIFO, a folder, a socket */
    char *fifo = in_dir(dir, "fifo"), *sub = in_dir(dir, "sub"), *sock = in_dir(dir, "sock");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(mkdir(sub, 0700), 0);
    int sfd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", sock);
    assert_int_equal(bind(sfd, (struct sockaddr *)&sa, sizeof sa), 0);
    expect_refused(fifo, "FIFO");
    expect_refused(sub, "directory");
    expect_refused(sock, "socket");
    struct stat st;
    assert_int_equal(lstat(fifo, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    /* a character device: made here when we may (root); as anyone else the system's /dev/null
       cannot be replaced anyway, so it is safe to aim at */
    char *dev = in_dir(dir, "null");
    const char *target = dev;
    if (geteuid() == 0)
        assert_int_equal(mknod(dev, S_IFCHR | 0666, makedev(1, 3)), 0);
    else
        target = "/dev/null";
    expect_refused(target, "character device");
    assert_int_equal(stat(target, &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    /* a link to a device is refused; a link to a file writes the file, the link stays */
    char *ldev = in_dir(dir, "link-dev"), *lfile = in_dir(dir, "link.md"), *real = in_dir(dir, "real.md");
    assert_int_equal(symlink(target, ldev), 0);
    expect_refused(ldev, "character device");
    assert_int_equal(symlink("real.md", lfile), 0);
    assert_int_equal(fileio_write_atomic(lfile, "first\n", 6, NULL), KP_OK); /* a link to nothing yet */
    assert_int_equal(chmod(real, 0640), 0);
    assert_int_equal(fileio_write_atomic(lfile, "second\n", 7, NULL), KP_OK);
    assert_int_equal(lstat(lfile, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_int_equal(stat(real, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0640); /* the mode is kept */
    char *back = ts_read_file(real, NULL);
    assert_string_equal(back, "second\n");
    free(back);
    /* the command line refuses before it works */
    run r = KP("export", design_path(), "--format", "md", "-o", fifo);
    expect(&r, 2, NULL, "FIFO");
    run_free(&r);
    r = KP("import", design_path(), "-o", target);
    expect(&r, 2, NULL, "character device");
    run_free(&r);
    close(sfd);
    unlink(sock);
    free(fifo), free(sub), free(sock), free(dev), free(ldev), free(lfile), free(real), free(dir);
}

/* standard output that cannot be written (a full disk) is reported, not success */
static void test_stdout_full(void **state)
{
    (void)state;
    char *cmd = xasprintf("%s export %s --format md > /dev/full 2>/dev/null", KP_BINARY, design_path());
    int rc = system(cmd);
    free(cmd);
    assert_true(WIFEXITED(rc));
    assert_int_equal(WEXITSTATUS(rc), 2);
}

/* ---- 3. figures of any size ------------------------------------------------------------------ */

static void test_huge_figures(void **state)
{
    (void)state;
    char *src = ts_read_file(design_path(), NULL);
    sbuf b;
    sbuf_init(&b);
    /* every count 1e300 and every rate 1e300: infinite costs (a size over 400 KB is refused, and
       its message writes the figure short: 1e+308, not 309 digits) */
    for (const char *p = src; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p + 1) : strlen(p);
        if (!strncmp(p, "    count: ", 11))
            sbuf_add(&b, "    count: 1e300\n");
        else if (!strncmp(p, "    rate: ", 10))
            sbuf_add(&b, "    rate: 1e300\n");
        else
            sbuf_addn(&b, p, n);
        p += n;
    }
    char *path = ts_write_temp("huge.yaml", b.s);
    const char *formats[] = {"md", "json", "cfn", "csv", "nosqlwb", "requests", "items"};
    for (size_t i = 0; i < sizeof formats / sizeof *formats; i++) {
        run r = KP("export", path, "--format", formats[i]);
        expect(&r, 0, NULL, NULL);
        run_free(&r);
    }
    run r = KP("check", path);
    expect(&r, 0, "inf", NULL);
    run_free(&r);
    char *big = ts_write_temp("big.yaml", "keyplan: 1\ntable: { name: Tbl, pk: PK }\n"
                                          "entities:\n  - { name: E, size: 1e308, keys: { PK: X } }\n");
    r = KP("check", big);
    expect(&r, 2, NULL, "items of 1e+308 bytes are over DynamoDB's item limit");
    assert_true(strlen(r.err) < 400);
    run_free(&r);
    free(big);
    sbuf_free(&b);
    free(src);
    free(path);
}

/* ---- 4. long texts: linear, and bounded -------------------------------------------------------- */

static void test_long_values(void **state)
{
    (void)state;
    /* display width of a long text is linear (a quadratic one would not finish here) */
    size_t n = 8u << 20;
    char *big = xmalloc(n + 1);
    memset(big, 'N', n);
    big[n] = '\0';
    assert_int_equal(disp_width(big), (int)n);
    assert_int_equal(disp_fit(big, 100, NULL), 100);
    /* a value over 64 KiB is refused at its place */
    sbuf y;
    sbuf_init(&y);
    sbuf_add(&y, "keyplan: 1\nname: \"");
    sbuf_addn(&y, big, KP_MAX_VALUE + 1);
    sbuf_add(&y, "\"\ntable: { name: Tbl, pk: PK }\n");
    kp_diags dg;
    diags_init(&dg, "t.yaml");
    assert_null(designio_load_string(y.s, y.len, "t.yaml", &dg));
    assert_int_equal(dg.v[0].loc.line, 2);
    assert_non_null(strstr(dg.v[0].msg, "expected at most 65536 bytes"));
    diags_free(&dg);
    sbuf_free(&y);
    /* names and ids: at most 255 bytes, DynamoDB's limit for a key attribute's name */
    for (int len = 255; len <= 256; len++) {
        sbuf yn;
        sbuf_init(&yn);
        sbuf_printf(
            &yn,
            "keyplan: 1\nname: x\ntable: { name: Tbl, pk: PK }\nentities:\n  - { name: %.*s, keys: { PK: X } }\n",
            len, big);
        diags_init(&dg, "t.yaml");
        kp_design *d = designio_load_string(yn.s, yn.len, "t.yaml", &dg);
        if (len == 255)
            assert_non_null(d);
        else {
            assert_null(d);
            assert_non_null(strstr(dg.v[0].msg, "an entity name of 256 bytes; expected at most 255 bytes"));
        }
        design_free(d);
        diags_free(&dg);
        sbuf_free(&yn);
    }
    /* a heat key past DynamoDB's 2,048 bytes is refused, not echoed */
    big[4096] = '\n';
    big[4097] = '\0';
    run r = KP_IN(big, "heat", "-");
    expect(&r, 2, NULL, "at most 2048 bytes");
    assert_true(strlen(r.err) < 400);
    run_free(&r);
    free(big);
}

/* ---- 6. bounded reads ------------------------------------------------------------------------- */

static void test_bounded_reads(void **state)
{
    (void)state;
    char *dir = ts_temp_dir();
    char *p = in_dir(dir, "ten.txt");
    write_text(p, "0123456789", 10);
    char *err = NULL;
    size_t len = 0;
    char *t = fileio_read_max(p, 10, &len, &err);
    assert_non_null(t);
    assert_int_equal(len, 10);
    free(t);
    assert_null(fileio_read_max(p, 9, &len, &err));
    assert_non_null(strstr(err, "more than 9 bytes"));
    free(err);
    /* an endless input is refused at the bound instead of eating memory */
    run r = KP("check", "/dev/zero");
    expect(&r, 2, NULL, "more than 64 MiB");
    run_free(&r);
    /* a FIFO as workspace is refused at once (opening it would wait forever) */
    char *fifo = in_dir(dir, "ws.keyplan");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    r = KP("log", fifo);
    expect(&r, 2, NULL, "FIFO");
    run_free(&r);
    unlink(fifo);
    free(fifo);
    free(p);
    free(dir);
}

/* ---- 7. NUL and control characters are refused with their place --------------------------------- */

static void test_nul_and_controls(void **state)
{
    (void)state;
    static const struct {
        const char *yaml;
        int line, col;
        const char *msg;
    } rows[] = {
        {"keyplan: 1\ntable: { name: Tbl, pk: \"E#\\0{a}\" }\n", 2, 25, "NUL character"},
        {"keyplan: 1\nname: \"x\\e]0;pwned\\ay\"\n", 2, 7, "control character (0x1b)"},
        {"keyplan: 1\nname: \"\\x9b31m\"\n", 2, 7, "control character (U+009b)"},
        {"keyplan: 1\nname: \"a\\x7fb\"\n", 2, 7, "control character (0x7f)"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        kp_diags dg;
        diags_init(&dg, "t.yaml");
        assert_null(designio_load_string(rows[i].yaml, strlen(rows[i].yaml), "t.yaml", &dg));
        if (dg.v[0].loc.line != rows[i].line || dg.v[0].loc.col != rows[i].col ||
            !strstr(dg.v[0].msg, rows[i].msg))
            fail_msg("row %zu: %d:%d %s", i, dg.v[0].loc.line, dg.v[0].loc.col, dg.v[0].msg);
        diags_free(&dg);
    }
    /* tabs and newlines stay allowed in text */
    const char *ok = "keyplan: 1\nname: \"a\\tb\"\ndescription: \"line one\\nline two\"\n"
                     "table: { name: Tbl, pk: PK }\n";
    kp_diags dg;
    diags_init(&dg, "t.yaml");
    kp_design *d = designio_load_string(ok, strlen(ok), "t.yaml", &dg);
    assert_non_null(d);
    design_free(d);
    diags_free(&dg);
    /* CSV and access logs with a NUL byte */
    const char csv[] = "id,name,entity,by\n1,a\0b,E,x\n";
    kp_pattern *pats = NULL;
    size_t np = 0;
    diags_init(&dg, "t.csv");
    assert_int_equal(csvio_read_patterns(csv, sizeof csv - 1, "t.csv", &dg, &pats, &np), KP_ENCODING);
    assert_int_equal(dg.v[0].loc.line, 2);
    assert_int_equal(dg.v[0].loc.col, 4);
    diags_free(&dg);
    /* other control characters too, in any column, quoted or not (found by fuzzing: a form feed in
     * an id was imported and the saved design then refused to load); newlines and tabs are text */
    const char *const ctl_csv[] = {"id,name,entity\n2\f,Orders,Order\n",
                                   "id,name,entity\n2,\"Or\x1b[31m\",Order\n",
                                   "id,name,entity\n2,Orders,Ord\x7f\n"};
    const int ctl_col[] = {1, 3, 10};
    for (size_t i = 0; i < 3; i++) {
        diags_init(&dg, "t.csv");
        pats = NULL;
        np = 0;
        assert_int_not_equal(csvio_read_patterns(ctl_csv[i], strlen(ctl_csv[i]), "t.csv", &dg, &pats, &np),
                             KP_OK);
        assert_int_equal(dg.v[0].loc.line, 2);
        assert_int_equal(dg.v[0].loc.col, ctl_col[i]);
        assert_non_null(strstr(dg.v[0].msg, "control character"));
        diags_free(&dg);
    }
    const char tab_csv[] = "id,name,entity\n2,\"two\tlines\nof name\",Order\n";
    diags_init(&dg, "t.csv");
    assert_int_equal(csvio_read_patterns(tab_csv, strlen(tab_csv), "t.csv", &dg, &pats, &np), KP_OK);
    assert_int_equal(np, 1);
    assert_string_equal(pats[0].name, "two\tlines\nof name");
    for (size_t i = 0; i < np; i++)
        pattern_free(&pats[i]);
    free(pats);
    diags_free(&dg);
    char log[] = "PK\0X\nPK2\n";
    char *path = ts_temp_dir(), *lp = in_dir(path, "nul.log");
    write_text(lp, log, sizeof log - 1);
    run r = KP("heat", lp);
    expect(&r, 2, NULL, "NUL character");
    run_free(&r);
    free(lp);
    free(path);
}

/* `keyplan import in -o out` succeeds and out passes `keyplan check`. */
static void import_loads(const char *in, const char *out)
{
    run r = KP("import", in, "-o", out);
    expect(&r, 0, NULL, NULL);
    run_free(&r);
    r = KP("check", out);
    expect(&r, 0, NULL, NULL);
    run_free(&r);
}

/* A NoSQL Workbench model with a control character in any string is refused with the string's
 * place (found by fuzzing: a DEL in ModelName was imported, and the saved design never loaded
 * again), and so is a text longer than a design's value may be; a file whose name has controls
 * or is not UTF-8 imports under a printable name. */
static void test_import_controls(void **state)
{
    (void)state;
    static const struct {
        const char *json, *msg;
    } rows[] = {
        {"{\"ModelName\": \"Shop\x7f\", \"DataModel\": [{\"TableName\": \"Tbl\", \"KeyAttributes\": "
         "{\"PartitionKey\": {\"AttributeName\": \"PK\", \"AttributeType\": \"S\"}}}]}",
         "ModelName: a control character (0x7f) at byte 5"},
        {"{\"ModelName\": \"Shop\", \"DataModel\": [{\"TableName\": \"Tbl\", \"KeyAttributes\": "
         "{\"PartitionKey\": {\"AttributeName\": \"PK\", \"AttributeType\": \"S\"}}, \"TableFacets\": "
         "[{\"FacetName\": \"a\\u001b[31m\"}]}]}",
         "DataModel[0].TableFacets[0].FacetName: a control character (0x1b) at byte 2"},
        {"{\"ModelName\": \"Shop\", \"DataModel\": [{\"TableName\": \"Tbl\", \"KeyAttributes\": "
         "{\"PartitionKey\": {\"AttributeName\": \"PK\", \"AttributeType\": \"S\"}}, \"TableData\": "
         "[{\"PK\": {\"S\": \"x\\u009b\"}}]}]}",
         "DataModel[0].TableData[0].PK.S: a control character (U+009b) at byte 2"},
    };
    char *dir = ts_temp_dir(), *in = in_dir(dir, "m.json"), *out = in_dir(dir, "out.yaml");
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        write_text(in, rows[i].json, strlen(rows[i].json));
        run r = KP("import", in, "-o", out);
        expect(&r, 2, NULL, rows[i].msg);
        run_free(&r);
        assert_int_equal(access(out, F_OK), -1);
    }
    /* newlines and tabs are text */
    const char *tabs = "{\"ModelName\": \"Shop\\tone\\ntwo\", \"DataModel\": [{\"TableName\": \"Tbl\", "
                       "\"KeyAttributes\": {\"PartitionKey\": {\"AttributeName\": \"PK\", \"AttributeType\": "
                       "\"S\"}}}]}";
    write_text(in, tabs, strlen(tabs));
    run r = KP("import", in, "-o", out);
    expect(&r, 0, NULL, NULL);
    run_free(&r);
    unlink(out);
    /* odd file names: the design's name and description show them escaped, and it loads back */
    const char *csv = "id,name,entity,by\n1,see order,Order,id\n";
    const char *json = rows[0].json;
    const struct {
        const char *name, *text, *shown;
    } files[] = {{"c\x7fx.csv", csv, "c\\x7fx"},
                 {"c\xffx.csv", csv, "c\\xffx"},
                 {"l\xe9on.json", "", "l\\xe9on.json"},
                 {"m\x1b[2J.json", "", "m\\e[2J.json"}};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char *f = in_dir(dir, files[i].name);
        if (*files[i].text)
            write_text(f, files[i].text, strlen(files[i].text));
        else {
            /* the model above, its name made printable */
            char *fixed = xstrdup(json);
            *strchr(fixed, '\x7f') = 'p';
            write_text(f, fixed, strlen(fixed));
            free(fixed);
        }
        import_loads(f, out);
        char *saved = ts_read_file(out, NULL);
        if (!strstr(saved, files[i].shown))
            fail_msg("%s: '%s' not in the design:\n%s", files[i].shown, files[i].shown, saved);
        free(saved);
        unlink(out);
        unlink(f);
        free(f);
    }
    /* a text longer than a design's value may be is refused at its place, in a model or a CSV; a
       name just under it imports (the description quotes it cut short) and loads back */
    sbuf big;
    sbuf_init(&big);
    sbuf_add(&big, "{\"ModelName\": \"");
    for (int i = 0; i < 32700; i++)
        sbuf_add(&big, "\xc3\x91"); /* Ñ: 65,400 bytes */
    sbuf_add(&big, strchr(rows[0].json, '\x7f') + 1);
    write_text(in, big.s, big.len);
    import_loads(in, out);
    unlink(out);
    sbuf_free(&big);
    sbuf_init(&big);
    sbuf_add(&big, "{\"ModelName\": \"");
    for (int i = 0; i < 70000; i++)
        sbuf_addc(&big, 'N');
    sbuf_add(&big, strchr(rows[0].json, '\x7f') + 1);
    write_text(in, big.s, big.len);
    r = KP("import", in, "-o", out);
    expect(&r, 2, NULL, "ModelName: a text of 70000 bytes; expected at most 65536");
    run_free(&r);
    assert_int_equal(access(out, F_OK), -1);
    sbuf_free(&big);
    sbuf_init(&big);
    sbuf_add(&big, "id,name,entity,by\n1,");
    for (int i = 0; i < 70000; i++)
        sbuf_addc(&big, 'n');
    sbuf_add(&big, ",Order,id\n");
    char *csvf = in_dir(dir, "long.csv");
    write_text(csvf, big.s, big.len);
    r = KP("import", csvf, "-o", out);
    expect(&r, 2, NULL, "long.csv:2:3: error: a field of 70000 bytes; expected at most 65536");
    run_free(&r);
    assert_int_equal(access(out, F_OK), -1);
    free(csvf);
    sbuf_free(&big);
    free(out);
    free(in);
    free(dir);
}

/* ---- 8, 9, 12: damaged versions, the workbench, the first edit's undo ----------------------- */

static char *commit_two(const char *dir)
{
    char *ws = in_dir(dir, "shop.keyplan");
    char *first = ts_source_path("samples/cloudshop/first-design.yaml");
    run r = KP("commit", ws, first, "-m", "one");
    expect(&r, 0, NULL, NULL);
    run_free(&r);
    r = KP("commit", ws, design_path(), "-m", "two");
    expect(&r, 0, NULL, NULL);
    run_free(&r);
    free(first);
    return ws;
}

static void alter_version(const char *ws, int number)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open(ws, &db), SQLITE_OK);
    /* the design text is stored compressed under its digest: one byte of it changed */
    char *sql = xasprintf("UPDATE blobs SET data = substr(data, 1, 20) || x'5a' || substr(data, 22) "
                          "WHERE digest = (SELECT digest FROM versions WHERE number = %d)",
                          number);
    char *e = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &e) != SQLITE_OK)
        fail_msg("%s", e);
    free(sql);
    assert_int_equal(sqlite3_changes(db), 1);
    sqlite3_close(db);
}

static void test_damaged_version(void **state)
{
    (void)state;
    char *dir = ts_temp_dir();
    char *ws = commit_two(dir);
    run r = KP("fsck", ws);
    expect(&r, 0, "all intact", NULL);
    run_free(&r);
    alter_version(ws, 2);
    r = KP("show", ws);
    expect(&r, 2, NULL, "version 2 is damaged");
    run_free(&r);
    r = KP("export", ws, "--format", "md");
    expect(&r, 2, NULL, "version 2 is damaged");
    run_free(&r);
    r = KP("commit", ws, design_path(), "-m", "three");
    expect(&r, 2, NULL, "keyplan fsck");
    run_free(&r);
    r = KP("show", ws, "1");
    expect(&r, 0, "# version 1", NULL);
    run_free(&r);
    r = KP("fsck", ws);
    expect(&r, 1, "version 2    its stored design does not match its digest", NULL);
    assert_non_null(strstr(r.out, "keyplan show"));
    assert_non_null(strstr(r.out, " 1 > design.yaml"));
    run_free(&r);
    /* observe records, but says it could not check the signals (exit 2, not 0) */
    r = KP("observe", ws, "pattern.5.rate=3");
    expect(&r, 2, "observed", "was recorded");
    run_free(&r);
    /* the workbench opens the last intact version read-only and refuses every change */
    session *s = NULL;
    char *err = NULL;
    assert_int_equal(session_open(ws, &s, NULL, &err), KP_OK);
    assert_non_null(session_readonly(s));
    assert_non_null(strstr(session_readonly(s), "opened version 1 read-only"));
    assert_int_equal(session_base(s), 1);
    assert_int_equal(session_apply(s, design_clone(session_design(s)), "edit", &err), KP_READONLY);
    free(err);
    err = NULL;
    /* the edits made in place are refused too, the design left as it was: a pattern's cell, an
       entity's, an entity's name (its patterns follow it), a pattern's id (what names it
       follows), a setting */
    const kp_design *d = session_design(s);
    assert_true(d->nentities > 0 && d->npatterns > 0);
    kp_design *was = design_clone(d);
    static const struct {
        edit_table t;
        const char *col, *text;
    } cells[] = {{EDIT_PATTERNS, "rate", "12"},   {EDIT_ENTITIES, "count", "77"},
                 {EDIT_KEYS, NULL, "Renombrada"}, {EDIT_ENTITIES, "name", "Otra"},
                 {EDIT_PATTERNS, "id", "uno_ñ"},  {EDIT_SETTINGS, NULL, "otro nombre"}};
    for (size_t i = 0; i < sizeof cells / sizeof *cells; i++) {
        int col = cells[i].col ? edit_col_find(d, cells[i].t, cells[i].col) : cells[i].t == EDIT_SETTINGS;
        assert_true(col >= 0);
        bool applied = false;
        assert_int_equal(
            session_edit_set(s, cells[i].t, 0, (size_t)col, cells[i].text, "edit", &applied, &err),
            KP_READONLY);
        free(err);
        err = NULL;
        assert_ptr_equal(session_design(s), d);
        assert_true(design_equal(d, was));
    }
    design_free(was);
    int n = 0;
    assert_int_equal(session_commit(s, "x", &n, &err), KP_READONLY);
    free(err);
    session_close(s);
    free(ws);
    free(dir);
}

static void test_first_edit_undo(void **state)
{
    (void)state;
    char *dir = ts_temp_dir();
    char *ws = commit_two(dir);
    session *s = NULL;
    char *err = NULL;
    assert_int_equal(session_open(ws, &s, NULL, &err), KP_OK);
    kp_design *d = design_clone(session_design(s));
    free(d->name);
    d->name = xstrdup("renamed");
    assert_int_equal(session_apply(s, d, "rename", &err), KP_OK);
    session_close(s);
    /* a new session (after quitting): u brings the version back */
    assert_int_equal(session_open(ws, &s, NULL, &err), KP_OK);
    assert_string_equal(session_design(s)->name, "renamed");
    assert_int_equal(session_undo(s, &err), KP_OK);
    assert_string_equal(session_design(s)->name, "CloudShop orders");
    session_close(s);
    free(ws);
    free(dir);
}

/* ---- 10. output injection ------------------------------------------------------------------------ */

static void test_no_injection(void **state)
{
    (void)state;
    char *dir = ts_temp_dir();
    char *ws = in_dir(dir, "shop.keyplan");
    /* a message with a newline commits; its second line never becomes live YAML */
    run r = KP("commit", ws, design_path(), "-m", "one\npricing: { read_per_million: 9999 }");
    expect(&r, 0, NULL, NULL);
    run_free(&r);
    r = KP("show", ws);
    expect(&r, 0, "# one\\npricing:", NULL);
    char *shown = in_dir(dir, "shown.yaml");
    write_text(shown, r.out, strlen(r.out));
    run_free(&r);
    r = KP("check", shown, "--json");
    expect(&r, 0, NULL, NULL);
    assert_null(strstr(r.out, "9999"));
    run_free(&r);
    /* terminal controls are refused in messages and authors */
    r = KP("commit", ws, design_path(), "-m", "two \x1b]0;pwned\a");
    expect(&r, 2, NULL, "control character");
    run_free(&r);
    r = KP("commit", ws, design_path(), "-m", "two", "--author", "x\x1b[2J");
    expect(&r, 2, NULL, "control character");
    run_free(&r);
    /* and an old version's controls (from an older keyplan) are shown, never sent */
    sqlite3 *db;
    assert_int_equal(sqlite3_open(ws, &db), SQLITE_OK);
    assert_int_equal(
        sqlite3_exec(db,
                     "DROP TRIGGER IF EXISTS versions_immutable; DROP TRIGGER IF EXISTS versions_no_update;"
                     "UPDATE versions SET message = 'evil ' || char(27) || '[2J', author = 'm' || "
                     "char(27) || ']0;t' || char(7)",
                     NULL, NULL, NULL),
        SQLITE_OK);
    sqlite3_close(db);
    const char *cmds[][4] = {{"log", NULL}, {"show", NULL}, {"export", "--format", "md"}};
    for (size_t i = 0; i < 3; i++) {
        r = cmds[i][1] ? KP(cmds[i][0], ws, cmds[i][1], cmds[i][2]) : KP(cmds[i][0], ws);
        expect(&r, 0, "\\e", NULL);
        assert_null(strchr(r.out, 0x1b));
        assert_null(strchr(r.out, 0x07));
        run_free(&r);
    }
    free(shown);
    free(ws);
    free(dir);
}

/* ---- 13. read-only traps ----------------------------------------------------------------------- */

static void test_readonly_traps(void **state)
{
    (void)state;
    char *dir = ts_temp_dir();
    char *ws = commit_two(dir);
    /* reading a 0444 workspace leaves no -shm/-wal that would block writers later */
    assert_int_equal(chmod(ws, 0444), 0);
    run r = KP("log", ws);
    expect(&r, 0, "two", NULL);
    run_free(&r);
    char *shm = xasprintf("%s-shm", ws), *wal = xasprintf("%s-wal", ws);
    assert_int_not_equal(access(shm, F_OK), 0);
    assert_int_not_equal(access(wal, F_OK), 0);
    assert_int_equal(chmod(ws, 0644), 0);
    r = KP("commit", ws, design_path(), "-m", "three");
    expect(&r, 0, NULL, NULL);
    run_free(&r);
    /* heat: an empty log, and units too large to sum */
    r = KP_IN("", "heat", "-");
    expect(&r, 0, NULL, NULL);
    run_free(&r);
    r = KP_IN("PK\tSK\t1e308\tread\n", "heat", "-");
    expect(&r, 2, NULL, "expected a number from 0 to");
    assert_null(strstr(r.out, "inf"));
    run_free(&r);
    r = KP_IN("{\"Key\":{\"PK\":{\"S\":\"a\"}},\"ConsumedCapacity\":{\"CapacityUnits\":1e308}}\n", "heat",
              "-");
    expect(&r, 2, NULL, "expected a number from 0 to");
    run_free(&r);
    /* the course's own table has no entity column: said, and the skeleton still imports */
    char *es = in_dir(dir, "patrones.csv");
    const char *t = "Nº;Patrón;Se pide con;Veces/s;Latencia\n1;obtener pedido por id;id;400;< 20 ms\n";
    write_text(es, t, strlen(t));
    r = KP("import", es);
    expect(&r, 0, "entities:", "no entity column; expected 'entity' or 'entities' (entidad");
    run_free(&r);
    /* CSV numbers follow the design file's grammar: no hexadecimal */
    char *hex = in_dir(dir, "hex.csv");
    const char *h = "id,name,entity,by,rate\n1,a,E,x,0x10\n";
    write_text(hex, h, strlen(h));
    r = KP("import", hex);
    expect(&r, 0, NULL, "rate '0x10' is not a figure");
    assert_null(strstr(r.out, "rate: 16"));
    run_free(&r);
    free(hex);
    free(es);
    free(shm);
    free(wal);
    free(ws);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_entities_listed_twice), cmocka_unit_test(test_write_targets),
        cmocka_unit_test(test_stdout_full),           cmocka_unit_test(test_huge_figures),
        cmocka_unit_test(test_long_values),           cmocka_unit_test(test_bounded_reads),
        cmocka_unit_test(test_nul_and_controls),      cmocka_unit_test(test_import_controls),
        cmocka_unit_test(test_damaged_version),       cmocka_unit_test(test_first_edit_undo),
        cmocka_unit_test(test_no_injection),          cmocka_unit_test(test_readonly_traps),
    };
    setenv("KEYPLAN_AUTHOR", "ana", 1);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
