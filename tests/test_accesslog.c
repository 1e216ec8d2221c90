/* test_accesslog.c - an access log tallied per partition key (model/accesslog.h): lines in,
 * tallies out, the first bad line with its number, the hottest-first order and the partition
 * limits. One row per log. JSON lines: test_heatlog.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "accesslog.h"
#include "util.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const struct log_case {
    const char *log;
    bool ok;
    size_t lineno;   /* the bad line, when !ok */
    const char *err; /* part of the message, when !ok */
    double requests, units, read_units, write_units;
    size_t nkeys;
    const char *hottest; /* after sorting */
    double hottest_units;
} logs[] = {
    {"A\nA\nB\n", true, 0, NULL, 3, 3, 3, 0, 2, "A", 2},
    {"A\tSK1\nA\tSK2\n", true, 0, NULL, 2, 2, 2, 0, 1, "A", 2}, /* heat is per partition */
    {"A\tX\t2.5\nB\tY\t3\twrite\n", true, 0, NULL, 2, 5.5, 2.5, 3, 2, "B", 3},
    {"# comment\n\n   A\r\nB\t\t1\tget\nC\t\t1\tPutItem\n", true, 0, NULL, 3, 3, 2, 1, 3, "A", 1},
    {"DIRECCIÓN#casa\tSK\t3\tw\nB\n", true, 0, NULL, 2, 4, 1, 3, 2, "DIRECCIÓN#casa", 3},
    {"B\nA\n", true, 0, NULL, 2, 2, 2, 0, 2, "A", 1}, /* ties: by key */
    {"A\n\tX\n", false, 2, "empty partition key", 0, 0, 0, 0, 0, NULL, 0},
    {"A\tB\tlots\n", false, 1,
     "units 'lots': expected a number from 0 to 1e+09 (the units one request consumed)", 0, 0, 0, 0, 0, NULL,
     0},
    {"A\tB\t-1\n", false, 1, "units '-1'", 0, 0, 0, 0, 0, NULL, 0},
    {"A\tB\tinf\n", false, 1, "units 'inf'", 0, 0, 0, 0, 0, NULL, 0},
    {"A\n\nA\t\t1\tsideways\n", false, 3, "kind 'sideways' is neither read nor write", 0, 0, 0, 0, 0, NULL,
     0},
    {"A\tB\tC\tD\tE\n", false, 1, "too many fields", 0, 0, 0, 0, 0, NULL, 0},
    {"\xff\tB\n", false, 1, "invalid UTF-8 in the key at byte 1", 0, 0, 0, 0, 0, NULL, 0},
    {"A\n{\"PK\": \"x\"}\n", false, 2, "JSON lines", 0, 0, 0, 0, 0, NULL, 0}, /* no decoder given */
    /* whole words: TransactGetItems is a read (it used to count as a write: "transact..."), and
       "whatever" an error (it used to count as a write: "w...") */
    {"A\tx\t1\tTransactGetItems\n", true, 0, NULL, 1, 1, 1, 0, 1, "A", 1},
    {"A\tx\t1\twhatever\n", false, 1, "kind 'whatever' is neither read nor write", 0, 0, 0, 0, 0, NULL, 0},
    {"A\tx\t1\ttransact\n", false, 1, "kind 'transact'", 0, 0, 0, 0, 0, NULL, 0},
    /* a terminal escape in a key is refused (it used to be printed as it was) */
    {"A\nA\x1b[31m\tB\n", false, 2, "a control character in the key at byte 2", 0, 0, 0, 0, 0, NULL, 0},
    {"A\xc2\x9b\n", false, 1, "a control character in the key at byte 2", 0, 0, 0, 0, 0, NULL, 0},
    {"A\r\nB\tx\t0.1\nB\tx\t0.2", true, 0, NULL, 3, 1.3000000000000000444, 1.3000000000000000444, 0, 2, "A",
     1}, /* no final newline; 0.1 + 0.2 as strtod and + give it */
    {"A\tx\t1.5e0\tREAD\nA\tx\t 2\n", true, 0, NULL, 2, 3.5, 3.5, 0, 1, "A", 3.5}, /* strtod's forms */
};

/* Tallies `log` (threads, chunk step: 0 whole) into *r (top `top`); the status, with *lineno
 * and *err (caller frees) on failure. */
static kp_status tally(const char *log, unsigned threads, size_t step, size_t approx, size_t top,
                       accesslog_result *r, size_t *lineno, char **err)
{
    accesslog_opts o = {threads, approx, false, NULL, NULL, 1};
    accesslog *h = accesslog_new(&o);
    size_t len = strlen(log), start = 0, have = 0;
    kp_status st;
    if (!step) {
        st = accesslog_read(h, log, len, lineno, err);
    } else {
        for (;;) {
            have = have + step < len - start ? have + step : len - start;
            bool eof = start + have == len;
            size_t used;
            st = accesslog_feed(h, log + start, have, eof, &used, lineno, err);
            if (st != KP_OK || eof)
                break;
            start += used;
            have -= used;
        }
    }
    if (st == KP_OK)
        accesslog_result_get(h, top, NAN, r);
    accesslog_free(h);
    return st;
}

static void test_logs(void **state)
{
    (void)state;
    static const size_t steps[] = {0, 1, 2, 3, 7};
    for (size_t i = 0; i < sizeof logs / sizeof *logs; i++)
        for (unsigned threads = 1; threads <= 4; threads++) /* the log in parts, the bad line in any */
            for (size_t s = 0; s < sizeof steps / sizeof *steps; s++) {
                const struct log_case *c = &logs[i];
                accesslog_result r;
                size_t lineno = 0;
                char *err = NULL;
                kp_status st = tally(c->log, threads, steps[s], 0, 0, &r, &lineno, &err);
                bool ok = st == KP_OK;
                if (ok != c->ok)
                    fail_msg("case %zu (%u threads, step %zu): read gave %d (%s), expected %d", i, threads,
                             steps[s], ok, err ? err : "", c->ok);
                if (!ok) {
                    assert_int_equal(st, strstr(c->err, "NUL") ? KP_ENCODING : KP_INVALID);
                    if (lineno != c->lineno || !strstr(err, c->err))
                        fail_msg("case %zu: line %zu '%s', expected line %zu '%s'", i, lineno, err, c->lineno,
                                 c->err);
                    free(err);
                    continue;
                }
                if (r.requests != c->requests || r.units != c->units || r.read_units != c->read_units ||
                    r.write_units != c->write_units || r.distinct != c->nkeys)
                    fail_msg("case %zu: %g requests, %g units (%g read, %g write), %zu keys", i, r.requests,
                             r.units, r.read_units, r.write_units, r.distinct);
                assert_string_equal(r.v[0].key, c->hottest);
                assert_true(r.v[0].units == c->hottest_units);
                accesslog_result_free(&r);
            }
}

/* A partition's limits: 3,000 read and 1,000 write units per second. */
static void test_limits(void **state)
{
    (void)state;
    static const struct {
        double read, write, seconds;
        bool hot;
    } cases[] = {
        {2999, 0, 1, false},  {3000, 0, 1, true},   {0, 999, 1, false},     {0, 1000, 1, true},
        {0, 1200, 10, false}, {30000, 0, 10, true}, {1e9, 1e9, NAN, false}, /* no time: never hot */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        accesslog *h = accesslog_new(NULL);
        accesslog_key k = {"K", 1, 2, cases[i].read + cases[i].write, cases[i].read, cases[i].write, 0};
        accesslog_add(h, &k);
        accesslog_result r;
        accesslog_result_get(h, 10, cases[i].seconds, &r);
        if (accesslog_key_hot(&r.v[0], cases[i].seconds) != cases[i].hot || r.hot != cases[i].hot)
            fail_msg("case %zu: expected hot=%d", i, cases[i].hot);
        accesslog_result_free(&r);
        accesslog_free(h);
    }
}

/* Words for the kind of a request: whole words, any case. */
static void test_words(void **state)
{
    (void)state;
    static const struct {
        const char *word;
        int kind;
    } words[] = {
        {"w", 1},
        {"write", 1},
        {"WRITE", 1},
        {"PutItem", 1},
        {"put", 1},
        {"UpdateItem", 1},
        {"DeleteItem", 1},
        {"TransactWriteItems", 1},
        {"BatchWriteItem", 1},
        {"r", 0},
        {"read", 0},
        {"Read", 0},
        {"GetItem", 0},
        {"Query", 0},
        {"Scan", 0},
        {"BatchGetItem", 0},
        {"TransactGetItems", 0}, /* a read, though it starts like a transaction */
        {"whatever", -1},        /* an error, not a write because it starts with w */
        {"reading", -1},
        {"transact", -1},
        {"sideways", -1},
        {"", -1},
        {"Writes", -1},
    };
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (accesslog_kind(words[i].word, strlen(words[i].word)) != words[i].kind)
            fail_msg("'%s': expected %d", words[i].word, words[i].kind);
}

/* A log of `lines` requests over about `keys` keys, zipf-like, with units and kinds. */
static char *gen_log(size_t lines, size_t keys, unsigned seed)
{
    sbuf b;
    sbuf_init(&b);
    uint64_t x = seed * 2654435761u + 1;
    for (size_t i = 0; i < lines; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        double u = (double)(x >> 11) / 9007199254740992.0;
        size_t k = (size_t)((double)keys * u * u * u); /* skewed towards the small numbers */
        sbuf_printf(&b, "K#%zu\tS\t%.1f\t%s\n", k, (double)(x % 7) * 0.5 + 0.1, x % 5 ? "read" : "w");
    }
    return sbuf_steal(&b);
}

static void assert_same(const accesslog_result *a, const accesslog_result *b)
{
    assert_int_equal(a->distinct, b->distinct);
    assert_int_equal(a->n, b->n);
    assert_true(a->requests == b->requests && a->units == b->units && a->read_units == b->read_units &&
                a->write_units == b->write_units);
    for (size_t i = 0; i < a->n; i++) {
        assert_string_equal(a->v[i].key, b->v[i].key);
        assert_true(a->v[i].units == b->v[i].units && a->v[i].requests == b->v[i].requests &&
                    a->v[i].read_units == b->v[i].read_units && a->v[i].error == b->v[i].error);
    }
}

/* Two threads (and four) give exactly the figures of one, bit for bit (units like 0.1 are not
 * exact in binary: only the same order of additions gives the same sums), in chunks or whole. */
static void test_threads_identical(void **state)
{
    (void)state;
    char *log = gen_log(20000, 3000, 7);
    for (size_t approx = 0; approx <= 256; approx += 256) {
        accesslog_result one, r;
        size_t lineno;
        char *err = NULL;
        assert_int_equal(tally(log, 1, 0, approx, 0, &one, &lineno, &err), KP_OK);
        static const struct {
            unsigned threads;
            size_t step;
        } ways[] = {{2, 0}, {3, 0}, {4, 0}, {2, 4096}, {3, 4096}, {1, 333}, {2, 65537}};
        for (size_t w = 0; w < sizeof ways / sizeof *ways; w++) {
            assert_int_equal(tally(log, ways[w].threads, ways[w].step, approx, 0, &r, &lineno, &err), KP_OK);
            assert_same(&one, &r);
            accesslog_result_free(&r);
        }
        accesslog_result_free(&one);
    }
    free(log);
}

/* A log read at once is tallied in slices of whole lines (the threads' hand-over stays small):
 * a log of several slices, a line longer than a slice among them, gives one thread's figures;
 * a bad line after them is reported at its number. */
static void test_slices(void **state)
{
    (void)state;
    char *head = gen_log(90000, 5000, 3), *tail = gen_log(90000, 5000, 4);
    size_t big = (size_t)5 << 20;
    char *comment = xmalloc(big + 3);
    comment[0] = '#';
    memset(comment + 1, 'x', big);
    memcpy(comment + big + 1, "\n", 2);
    char *log = xasprintf("%s%s%s%s", head, comment, tail, head);
    size_t lines = 0;
    for (const char *p = log; *p; p++)
        lines += *p == '\n';
    accesslog_result one, r;
    size_t lineno;
    char *err = NULL;
    assert_int_equal(tally(log, 1, 0, 0, 0, &one, &lineno, &err), KP_OK);
    assert_true(strlen(log) > (size_t)9 << 20); /* three slices at least */
    for (unsigned threads = 2; threads <= 3; threads++) {
        assert_int_equal(tally(log, threads, 0, 0, 0, &r, &lineno, &err), KP_OK);
        assert_same(&one, &r);
        accesslog_result_free(&r);
    }
    accesslog_result_free(&one);
    char *bad = xasprintf("%sPK\tSK\tmany\n", log);
    for (unsigned threads = 1; threads <= 2; threads++) {
        assert_int_equal(tally(bad, threads, 0, 0, 0, &r, &lineno, &err), KP_INVALID);
        assert_int_equal(lineno, lines + 1);
        free(err);
        err = NULL;
    }
    free(bad);
    free(log);
    free(comment);
    free(tail);
    free(head);
}

/* --approx: every key whose true units exceed the bound is reported, with reported - error <=
 * true <= reported; the totals stay exact. */
static void test_approx_bound(void **state)
{
    (void)state;
    char *log = gen_log(50000, 20000, 3);
    accesslog_result exact, ap;
    size_t lineno;
    char *err = NULL;
    assert_int_equal(tally(log, 1, 0, 0, 0, &exact, &lineno, &err), KP_OK);
    assert_int_equal(tally(log, 2, 0, 512, 0, &ap, &lineno, &err), KP_OK);
    assert_true(ap.approx);
    assert_true(ap.distinct <= 512);
    assert_true(ap.bound > 0);
    assert_true(ap.units == exact.units && ap.requests == exact.requests);
    size_t above = 0;
    for (size_t i = 0; i < exact.n; i++) {
        const accesslog_key *t = &exact.v[i];
        const accesslog_key *got = NULL;
        for (size_t j = 0; j < ap.n && !got; j++)
            if (strcmp(ap.v[j].key, t->key) == 0)
                got = &ap.v[j];
        if (t->units > ap.bound) {
            above++;
            if (!got)
                fail_msg("key %s (%g units, above the bound %g) not reported", t->key, t->units, ap.bound);
        }
        if (got && !(got->units >= t->units - 1e-6 && got->units - got->error <= t->units + 1e-6))
            fail_msg("key %s: true %g, reported %g with error %g", t->key, t->units, got->units, got->error);
    }
    assert_true(above >= 10); /* the test means something: hot keys exist above the bound */
    /* the hottest ten are the exact run's */
    for (size_t i = 0; i < 10; i++)
        assert_string_equal(ap.v[i].key, exact.v[i].key);
    accesslog_result_free(&exact);
    accesslog_result_free(&ap);
    free(log);
}

/* Partial selection: --top N gives the first N of the full order. */
static void test_top(void **state)
{
    (void)state;
    char *log = gen_log(5000, 800, 11);
    accesslog_result all, top;
    size_t lineno;
    char *err = NULL;
    assert_int_equal(tally(log, 1, 0, 0, 0, &all, &lineno, &err), KP_OK);
    for (size_t n = 1; n <= 40; n += 13) {
        assert_int_equal(tally(log, 2, 0, 0, n, &top, &lineno, &err), KP_OK);
        assert_int_equal(top.n, n);
        assert_int_equal(top.distinct, all.distinct);
        for (size_t i = 0; i < n; i++)
            assert_string_equal(top.v[i].key, all.v[i].key);
        accesslog_result_free(&top);
    }
    for (size_t i = 1; i < all.n; i++)
        assert_true(all.v[i - 1].units >= all.v[i].units);
    accesslog_result_free(&all);
    free(log);
}

/* A line longer than ACCESSLOG_MAX_LINE without a newline is refused while streaming, with its
 * number, before the text is all read: an endless input cannot exhaust memory. */
static void test_endless_line(void **state)
{
    (void)state;
    size_t len = ACCESSLOG_MAX_LINE + 8;
    char *big = xmalloc(len);
    memset(big, 'k', len);
    memcpy(big, "A\nB\n", 4);
    accesslog *h = accesslog_new(NULL);
    size_t used, lineno = 0;
    char *err = NULL;
    assert_int_equal(accesslog_feed(h, big, 4, false, &used, &lineno, &err), KP_OK);
    assert_int_equal(used, 4);
    assert_int_equal(accesslog_feed(h, big + 4, len - 4, false, &used, &lineno, &err), KP_INVALID);
    assert_int_equal(lineno, 3);
    assert_non_null(strstr(err, "a line longer than 64 MiB"));
    free(err);
    accesslog_free(h);
    free(big);
    /* a NUL byte: KP_ENCODING at its line and column, in chunks and with threads as whole */
    static const char nul[] = "A\nB\0C\nD\n";
    for (unsigned threads = 1; threads <= 2; threads++) {
        accesslog_opts o = {threads, 0, false, NULL, NULL, 1};
        h = accesslog_new(&o);
        assert_int_equal(accesslog_feed(h, nul, 2, false, &used, &lineno, &err), KP_OK);
        assert_int_equal(accesslog_feed(h, nul + 2, sizeof nul - 3, true, &used, &lineno, &err), KP_ENCODING);
        assert_int_equal(lineno, 2);
        assert_non_null(strstr(err, "column 2: a NUL character"));
        free(err);
        accesslog_free(h);
    }
}

/* The same logs read the fast way: each case followed by lines enough that every line of it is
 * read with more than 32 bytes after it (the usual line's one-pass reading; short logs are read
 * the slow way). The padding adds requests of 0 units on one more key, nothing else. Then the
 * shapes the one-pass reading decides alone (keys of 8, 15, 16 and more bytes, three fields,
 * long units) and a NUL in each field of a line, with one thread and two (the line then read by
 * one thread and skipped by the other): the same line and column as the slow way. */
static void test_fast_lines(void **state)
{
    (void)state;
    enum { PAD = 8 };
    for (size_t i = 0; i < sizeof logs / sizeof *logs; i++)
        for (unsigned threads = 1; threads <= 2; threads++) {
            const struct log_case *c = &logs[i];
            size_t len = strlen(c->log);
            sbuf b;
            sbuf_init(&b);
            sbuf_add(&b, c->log);
            if (len && c->log[len - 1] != '\n')
                sbuf_addc(&b, '\n');
            for (int k = 0; k < PAD; k++)
                sbuf_add(&b, "PADDING#KEY\tSORT#KEY\t0\tread\n");
            accesslog_result r;
            size_t lineno = 0;
            char *err = NULL;
            kp_status st = tally(b.s, threads, 0, 0, 0, &r, &lineno, &err);
            sbuf_free(&b);
            if ((st == KP_OK) != c->ok)
                fail_msg("padded case %zu (%u threads): read gave %d (%s)", i, threads, st, err ? err : "");
            if (!c->ok) {
                if (lineno != c->lineno || !strstr(err, c->err))
                    fail_msg("padded case %zu: line %zu '%s', expected line %zu '%s'", i, lineno, err,
                             c->lineno, c->err);
                free(err);
                continue;
            }
            if (r.requests != c->requests + PAD || r.units != c->units || r.read_units != c->read_units ||
                r.write_units != c->write_units || r.distinct != c->nkeys + 1)
                fail_msg("padded case %zu: %g requests, %g units (%g read, %g write), %zu keys", i,
                         r.requests, r.units, r.read_units, r.write_units, r.distinct);
            assert_string_equal(r.v[0].key, c->hottest);
            assert_true(r.v[0].units == c->hottest_units);
            accesslog_result_free(&r);
        }
    /* shapes: the figures of 8 keys, read fast and slow (one line at a time, chunk step 1) */
    static const char shapes[] = "ABCDEFGH\tSK\t1\tread\n"
                                 "ABCDEFGHIJKLMNO\tSK\t2\twrite\n"
                                 "ABCDEFGHIJKLMNOP\tSK\t3\tread\n"
                                 "ABCDEFGHIJKLMNOPQRSTUVWXYZ#0123456789\tSK\t4\twrite\n"
                                 "ABCDEFGH\tSK\t5\n"
                                 "ABCDEFGH\tSK\t0.123456789012345\tread\n"
                                 "ABCDEFGH\tSK\t12345678.9\tread\n"
                                 "ABCDEFGH\tSK\t123456.123456789\tread\n"
                                 "ABCDEFGH\tSK\t0.5\tWrite\n"
                                 "A\tSK#LONGER#THAN#SIXTEEN#BYTES#AT#ALL\t0.25\twrite\n";
    for (unsigned threads = 1; threads <= 2; threads++) {
        sbuf b;
        sbuf_init(&b);
        for (int k = 0; k < 3; k++)
            sbuf_add(&b, shapes);
        accesslog_result fast, slow;
        size_t lineno = 0;
        char *err = NULL;
        assert_int_equal(tally(b.s, threads, 0, 0, 0, &fast, &lineno, &err), KP_OK);
        assert_int_equal(tally(b.s, threads, 1, 0, 0, &slow, &lineno, &err), KP_OK);
        sbuf_free(&b);
        assert_int_equal(fast.distinct, 5);
        assert_int_equal(fast.distinct, slow.distinct);
        assert_true(fast.requests == 30 && fast.units == slow.units && fast.read_units == slow.read_units &&
                    fast.write_units == slow.write_units);
        for (size_t k = 0; k < fast.n; k++) {
            assert_string_equal(fast.v[k].key, slow.v[k].key);
            assert_true(fast.v[k].units == slow.v[k].units && fast.v[k].write_units == slow.v[k].write_units);
        }
        accesslog_result_free(&fast);
        accesslog_result_free(&slow);
    }
    /* a NUL in the key, the sort key, the units, the kind: line 21, its column */
    static const struct {
        const char *line;
        size_t len, column;
    } nuls[] = {
        {"KEY\0#1\tSK\t1\tread\n", 17, 4},
        {"KEY#1\tS\0K\t1\tread\n", 17, 8},
        {"KEY#1\tSK\t1\0\tread\n", 17, 11},
        {"KEY#1\tSK\t1\tre\0ad\n", 17, 14},
    };
    for (size_t i = 0; i < sizeof nuls / sizeof *nuls; i++)
        for (unsigned threads = 1; threads <= 2; threads++) {
            sbuf b;
            sbuf_init(&b);
            for (int k = 0; k < 20; k++)
                sbuf_printf(&b, "KEY#%d\tSK\t1\tread\n", k);
            sbuf_addn(&b, nuls[i].line, nuls[i].len);
            for (int k = 0; k < 20; k++)
                sbuf_printf(&b, "KEY#%d\tSK\t1\tread\n", k);
            accesslog_opts o = {threads, 0, false, NULL, NULL, 1};
            accesslog *h = accesslog_new(&o);
            size_t lineno = 0;
            char *err = NULL;
            assert_int_equal(accesslog_read(h, b.s, b.len, &lineno, &err), KP_ENCODING);
            assert_int_equal(lineno, 21);
            char want[64];
            snprintf(want, sizeof want, "column %zu: a NUL character", nuls[i].column);
            if (!strstr(err, want))
                fail_msg("NUL case %zu (%u threads): '%s', expected '%s'", i, threads, err, want);
            free(err);
            accesslog_free(h);
            sbuf_free(&b);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_logs),       cmocka_unit_test(test_limits),
        cmocka_unit_test(test_words),      cmocka_unit_test(test_threads_identical),
        cmocka_unit_test(test_slices),     cmocka_unit_test(test_approx_bound),
        cmocka_unit_test(test_top),        cmocka_unit_test(test_endless_line),
        cmocka_unit_test(test_fast_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
