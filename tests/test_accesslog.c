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
};

static void test_logs(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof logs / sizeof *logs; i++) {
        const struct log_case *c = &logs[i];
        char *text = xstrdup(c->log);
        accesslog h;
        accesslog_init(&h);
        size_t lineno = 0;
        char *err = NULL;
        kp_status st = accesslog_read(&h, text, strlen(text), NULL, NULL, &lineno, &err);
        bool ok = st == KP_OK;
        if (ok != c->ok)
            fail_msg("case %zu: read gave %d (%s), expected %d", i, ok, err ? err : "", c->ok);
        if (!ok) {
            assert_int_equal(st, KP_INVALID);
            if (lineno != c->lineno || !strstr(err, c->err))
                fail_msg("case %zu: line %zu '%s', expected line %zu '%s'", i, lineno, err, c->lineno,
                         c->err);
            free(err);
        } else {
            accesslog_sort(&h);
            if (h.requests != c->requests || h.units != c->units || h.read_units != c->read_units ||
                h.write_units != c->write_units || h.n != c->nkeys)
                fail_msg("case %zu: %g requests, %g units (%g read, %g write), %zu keys", i, h.requests,
                         h.units, h.read_units, h.write_units, h.n);
            assert_string_equal(h.v[0].key, c->hottest);
            assert_true(h.v[0].units == c->hottest_units);
        }
        accesslog_free(&h);
        free(text);
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
        accesslog h;
        accesslog_init(&h);
        accesslog_add(&h, "K", 1, cases[i].read, false);
        accesslog_add(&h, "K", 1, cases[i].write, true);
        if (accesslog_key_hot(&h.v[0], cases[i].seconds) != cases[i].hot ||
            accesslog_hot(&h, cases[i].seconds) != cases[i].hot)
            fail_msg("case %zu: expected hot=%d", i, cases[i].hot);
        accesslog_free(&h);
    }
}

/* Words for the kind of a request. */
static void test_words(void **state)
{
    (void)state;
    static const char *const writes[] = {
        "w", "write", "PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems", "BatchWriteItem"};
    static const char *const reads[] = {"r", "read", "GetItem", "Query", "Scan", "BatchGetItem"};
    for (size_t i = 0; i < sizeof writes / sizeof *writes; i++)
        assert_true(accesslog_is_write(writes[i]));
    for (size_t i = 0; i < sizeof reads / sizeof *reads; i++) {
        assert_true(accesslog_is_read(reads[i]));
        assert_false(accesslog_is_write(reads[i]));
    }
    assert_false(accesslog_is_read("sideways"));
    /* adding after sorting still finds the keys */
    accesslog h;
    accesslog_init(&h);
    accesslog_add(&h, "B", 1, 1, false);
    accesslog_add(&h, "A", 1, 5, false);
    accesslog_sort(&h);
    accesslog_add(&h, "B", 1, 1, false);
    assert_int_equal(h.n, 2);
    assert_true(h.v[1].units == 2);
    accesslog_free(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_logs),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
