/* test_heatlog.c - access-log JSON lines read into the tally, and the tally written as text and
 * JSON (storage/exchange/heatlog.h). One row per line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "heatlog.h"
#include "support.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const struct json_case {
    const char *line, *pk;
    bool ok;
    const char *key; /* or part of the error */
    double units;
    bool write;
} cases[] = {
    {"{\"Key\": {\"PK\": {\"S\": \"C#7\"}}, \"ConsumedCapacity\": {\"CapacityUnits\": 0.5}, \"Operation\": \"GetItem\"}",
     NULL, true, "C#7", 0.5, false},
    {"{\"Key\": {\"PK\": {\"S\": \"C#7\"}}, \"Operation\": \"PutItem\"}", NULL, true, "C#7", 1, true},
    {"{\"PK\": {\"S\": \"DIRECCIÓN#casa\"}, \"units\": 2, \"op\": \"write\"}", NULL, true, "DIRECCIÓN#casa",
     2, true},
    {"{\"key\": {\"id\": {\"N\": \"12\"}}}", NULL, true, "12", 1, false},       /* the first attribute */
    {"{\"TableName\": \"T\", \"userId\": \"u1\"}", NULL, true, "u1", 1, false}, /* not TableName */
    {"{\"Key\": {\"PK\": {\"S\": \"a\"}, \"userId\": {\"S\": \"u2\"}}}", "userId", true, "u2", 1, false},
    {"{\"PK\": 42}", NULL, true, "42", 1, false},
    {"{\"Key\": {\"PK\": {\"S\": \"a\"}}}", "userId", false, "no partition key 'userId'", 0, false},
    {"{\"PK\": {\"M\": {}}}", NULL, false, "no partition key", 0, false},
    {"{\"PK\": \"a\", \"units\": -1}", NULL, false,
     "units: expected a number from 0 to 1e+09 (the units one request consumed)", 0, false},
    {"{\"PK\": \"a\", \"units\": \"x\"}", NULL, false,
     "units: expected a number from 0 to 1e+09 (the units one request consumed)", 0, false},
    {"{\"PK\": ", NULL, false, "bad JSON at column", 0, false},
    /* the operation is a whole word: TransactGetItems reads, an unknown word is an error (both
       used to count by prefix, the first as a write, the second as a read) */
    {"{\"PK\": \"a\", \"Operation\": \"TransactGetItems\"}", NULL, true, "a", 1, false},
    {"{\"PK\": \"a\", \"Operation\": \"whatever\"}", NULL, false, "operation 'whatever' is neither", 0,
     false},
    {"{\"PK\": \"a\\u001b[31m\"}", NULL, false, "a control character in the key", 0, false},
    /* CloudTrail data events */
    {"{\"eventSource\": \"dynamodb.amazonaws.com\", \"eventName\": \"GetItem\", \"requestParameters\": "
     "{\"tableName\": \"T\", \"key\": {\"PK\": \"CLIENTE#7\", \"SK\": \"P#1\"}}}",
     NULL, true, "CLIENTE#7", 1, false},
    {"{\"eventSource\": \"dynamodb.amazonaws.com\", \"eventName\": \"UpdateItem\", \"requestParameters\": "
     "{\"key\": {\"userId\": {\"S\": \"u9\"}}}}",
     NULL, true, "u9", 1, true},
    {"{\"eventSource\": \"dynamodb.amazonaws.com\", \"eventName\": \"Query\", \"requestParameters\": "
     "{\"keyConditionExpression\": \"#p = :v AND begins_with(SK, :s)\", \"expressionAttributeNames\": "
     "{\"#p\": \"userId\"}, \"expressionAttributeValues\": {\":v\": {\"S\": \"u3\"}, \":s\": \"X\"}}}",
     "userId", true, "u3", 1, false},
    {"{\"Records\": [{\"eventSource\": \"dynamodb.amazonaws.com\", \"eventName\": \"DeleteItem\", "
     "\"requestParameters\": {\"key\": {\"PK\": \"z\"}}}]}",
     NULL, true, "z", 1, true},
    {"{\"Records\": [{\"eventSource\": \"dynamodb.amazonaws.com\", \"eventName\": \"DeleteItem\", "
     "\"requestParameters\": {\"key\": {\"PK\": \"z\"}}}, {\"eventSource\": \"s3.amazonaws.com\", "
     "\"eventName\": \"GetObject\"}]}",
     NULL, false, "record 2: an event of s3.amazonaws.com; expected DynamoDB data events", 0, false},
    {"{\"eventSource\": \"dynamodb.amazonaws.com\", \"eventName\": \"DescribeTable\", "
     "\"requestParameters\": {}}",
     NULL, false, "eventName 'DescribeTable': expected a DynamoDB data event on one key", 0, false},
    {"{\"eventSource\": \"dynamodb.amazonaws.com\", \"eventName\": \"Query\", \"requestParameters\": "
     "{\"keyConditionExpression\": \"PK = :v\"}}",
     NULL, false, "Query without its partition key's value", 0, false},
    {"{\"eventSource\": \"dynamodb.amazonaws.com\", \"eventName\": \"PutItem\", \"requestParameters\": "
     "{\"tableName\": \"T\"}}",
     NULL, false, "PutItem without requestParameters.key", 0, false},
};

/* Tallies text with the JSON decoder (partition attribute pk) into *r. */
static kp_status read_log(const char *text, const char *pk, unsigned threads, accesslog_result *r,
                          size_t *lineno, char **err)
{
    accesslog_opts o = {threads, 0, false, heatlog_json_line, (void *)pk, 1};
    accesslog *h = accesslog_new(&o);
    kp_status st = accesslog_read(h, text, strlen(text), lineno, err);
    if (st == KP_OK)
        accesslog_result_get(h, 0, NAN, r);
    accesslog_free(h);
    return st;
}

static void test_json_lines(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const struct json_case *c = &cases[i];
        accesslog_result h;
        size_t lineno = 0;
        char *err = NULL;
        kp_status st = read_log(c->line, c->pk, 1, &h, &lineno, &err);
        bool ok = st == KP_OK;
        if (ok != c->ok)
            fail_msg("case %zu: read gave %d (%s), expected %d", i, ok, err ? err : "", c->ok);
        if (!ok) {
            assert_int_equal(st, KP_INVALID);
            if (!strstr(err, c->key) || lineno != 1)
                fail_msg("case %zu: line %zu '%s', expected '%s'", i, lineno, err, c->key);
            free(err);
        } else {
            assert_int_equal(h.n, 1);
            assert_string_equal(h.v[0].key, c->key);
            assert_true(h.v[0].units == c->units);
            assert_true(h.v[0].write_units == (c->write ? c->units : 0));
            accesslog_result_free(&h);
        }
    }
}

/* The output: text within its columns, JSON with the same figures. */
static void test_outputs(void **state)
{
    (void)state;
    const char *text = "K\t\t1200\twrite\nL\t\t10\twrite\nL\nM\n";
    accesslog_result h, h2;
    size_t lineno;
    char *err = NULL;
    assert_int_equal(read_log(text, NULL, 2, &h, &lineno, &err), KP_OK);
    accesslog_opts plain = {1, 0, false, NULL, NULL, 0};
    accesslog *t2 = accesslog_new(&plain);
    assert_int_equal(accesslog_read(t2, text, strlen(text), &lineno, &err), KP_OK);
    accesslog_result_get(t2, 2, 1, &h2);
    accesslog_free(t2);
    char *t = heatlog_text(&h2, "access.log", 1);
    assert_non_null(strstr(t, "heat of access.log: 4 requests, 1212.0 units, 3 partition keys\n"));
    assert_non_null(strstr(t, "   1  K "));
    assert_non_null(strstr(t, "HOT"));
    assert_null(strstr(t, "   3  ")); /* --top 2 */
    assert_non_null(strstr(t, "hot: at least one key"));
    free(t);
    t = heatlog_text(&h, "access.log", NAN);
    assert_null(strstr(t, "read/s")); /* no time: no rates */
    assert_null(strstr(t, "HOT"));
    free(t);
    accesslog_result_free(&h);
    assert_int_equal(read_log(text, NULL, 1, &h, &lineno, &err), KP_OK);
    h.hot = true; /* as accesslog_result_get finds with 1 second */
    char *j = heatlog_json(&h, "access.log", 1);
    assert_non_null(j);
    json_t *o = json_loads(j, 0, NULL);
    assert_non_null(o);
    assert_true(json_is_true(json_object_get(o, "hot")));
    assert_int_equal(json_integer_value(json_object_get(o, "distinct_keys")), 3);
    json_t *k0 = json_array_get(json_object_get(o, "keys"), 0);
    assert_string_equal(json_string_value(json_object_get(k0, "key")), "K");
    assert_true(fabs(json_real_value(json_object_get(k0, "write_util")) - 1.2) < 1e-9);
    json_decref(o);
    free(j);
    accesslog_result_free(&h);
    accesslog_result_free(&h2);
}

/* A log of about 11 MB read from a file a chunk at a time (and a chunk read ahead): lines cut at
 * every chunk's end, one line longer than a chunk (a 5 MB sort key), CRLF endings and comments,
 * one thread and two, give exactly the figures of the same text tallied at once in memory; a bad
 * line past the first chunks is reported with the same number and message. */
/* Every key of the tally h as heat --json writes it; frees h. */
static char *tally_json(accesslog *h)
{
    accesslog_result r;
    accesslog_result_get(h, 0, NAN, &r);
    char *json = heatlog_json(&r, "log", NAN);
    accesslog_result_free(&r);
    accesslog_free(h);
    return json;
}

static char *stream_json(const char *path, unsigned threads, kp_status *st, size_t *lineno, char **err)
{
    accesslog_opts o = {threads, 0, false, NULL, NULL, 0};
    accesslog *h = accesslog_new(&o);
    *st = heatlog_stream(h, path, lineno, err);
    return tally_json(h);
}

/* The same through a pipe (a FIFO beside path, written by a child): no size known ahead. */
static char *fifo_json(const char *path, const char *text, size_t len, unsigned threads, kp_status *st,
                       size_t *lineno, char **err)
{
    char *fifo = xasprintf("%s.fifo", path);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int fd = open(fifo, O_WRONLY);
        for (size_t off = 0; fd >= 0 && off < len;) {
            ssize_t w = write(fd, text + off, len - off);
            if (w <= 0)
                _exit(1);
            off += (size_t)w;
        }
        _exit(fd < 0);
    }
    char *json = stream_json(fifo, threads, st, lineno, err);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_int_equal(unlink(fifo), 0);
    free(fifo);
    return json;
}

static char *memory_json(const char *text, size_t len, kp_status *st, size_t *lineno, char **err)
{
    accesslog *h = accesslog_new(NULL);
    *st = accesslog_read(h, text, len, lineno, err);
    return tally_json(h);
}

static void test_stream_chunks(void **state)
{
    (void)state;
    sbuf b;
    sbuf_init(&b);
    static const char *const units[] = {"1", "0.5", "2", "0.1", "3.25"};
    for (size_t i = 0; i < 300000; i++) {
        if (i == 150000) { /* a line longer than a chunk */
            sbuf_add(&b, "LONG#1\t");
            for (size_t k = 0; k < (5u << 20) / 8; k++)
                sbuf_add(&b, "SKSKSKSK");
            sbuf_add(&b, "\t7\twrite\n");
        }
        if (i % 1000 == 7)
            sbuf_add(&b, "# a comment\n");
        sbuf_printf(&b, "CLIENTE#%zu\tPEDIDO#%zu\t%s\t%s%s\n", (i * 7919) % 5003, i, units[i % 5],
                    i % 3 ? "read" : "write", i % 11 == 0 ? "\r" : "");
    }
    size_t good = b.len;
    char *text = sbuf_steal(&b);
    for (int bad = 0; bad < 2; bad++) {
        if (bad) { /* a bad line after the first chunks */
            text = xrealloc(text, good + 64);
            strcpy(text + good - 40, "X\tSK\tlots\n");
        }
        size_t len = strlen(text);
        char *path = ts_write_temp("access.log", text);
        assert_non_null(path);
        size_t want_line = 0;
        char *want_err = NULL;
        kp_status want_st;
        char *want = memory_json(text, len, &want_st, &want_line, &want_err);
        assert_int_equal(want_st, bad ? KP_INVALID : KP_OK);
        for (unsigned threads = 1; threads <= 2; threads++) {
            size_t line = 0;
            char *got_err = NULL;
            kp_status st;
            for (int piped = 0; piped < 2; piped++) { /* the file, then a pipe */
                char *got = piped ? fifo_json(path, text, len, threads, &st, &line, &got_err)
                                  : stream_json(path, threads, &st, &line, &got_err);
                assert_int_equal(st, want_st);
                if (bad) {
                    assert_int_equal(line, want_line);
                    assert_string_equal(got_err, want_err);
                } else {
                    assert_string_equal(got, want);
                }
                free(got);
                free(got_err);
                got_err = NULL;
            }
        }
        if (!bad)
            assert_non_null(strstr(want, "\"distinct_keys\": 5004"));
        free(want);
        free(want_err);
        assert_int_equal(unlink(path), 0);
        *strrchr(path, '/') = '\0';
        assert_int_equal(rmdir(path), 0);
        free(path);
    }
    free(text);
}

/* A JSON line's decoder that cuts the log file (ctx, its path) to one page while it is read. */
static kp_status shrink_log(accesslog_sink *s, const char *line, size_t len, void *ctx, char **err)
{
    (void)s, (void)line, (void)len, (void)err;
    assert_int_equal(truncate(ctx, 4096), 0);
    return KP_OK;
}

/* A log file that shrinks while it is read (it ends before the size it had when opened)
 * is reported as such, with one thread and two, and the process goes on. */
static void test_stream_shrinks(void **state)
{
    (void)state;
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, "{\"cut\": \"here\"}\n");
    for (size_t i = 0; i < 400000; i++)
        sbuf_printf(&b, "CLIENTE#%zu\tPEDIDO#%zu\t1\tread\n", i % 977, i);
    char *path = ts_write_temp("access.log", b.s);
    assert_non_null(path);
    for (unsigned threads = 1; threads <= 2; threads++) {
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        assert_int_equal(fwrite(b.s, 1, b.len, f), b.len);
        assert_int_equal(fclose(f), 0);
        accesslog_opts o = {threads, 0, false, shrink_log, path, 0};
        accesslog *h = accesslog_new(&o);
        size_t line = 0;
        char *err = NULL;
        assert_int_equal(heatlog_stream(h, path, &line, &err), KP_IO);
        assert_non_null(strstr(err, "shrank while it was read"));
        assert_non_null(strstr(err, path));
        free(err);
        accesslog_free(h);
    }
    sbuf_free(&b);
    assert_int_equal(unlink(path), 0);
    *strrchr(path, '/') = '\0';
    assert_int_equal(rmdir(path), 0);
    free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_lines),
        cmocka_unit_test(test_outputs),
        cmocka_unit_test(test_stream_chunks),
        cmocka_unit_test(test_stream_shrinks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
