/* test_heatlog.c - access-log JSON lines read into the tally, and the tally written as text and
 * JSON (storage/exchange/heatlog.h). One row per line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "heatlog.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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
};

static void test_json_lines(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const struct json_case *c = &cases[i];
        char *text = xstrdup(c->line);
        accesslog h;
        accesslog_init(&h);
        size_t lineno = 0;
        char *err = NULL;
        kp_status st = heatlog_read(&h, text, strlen(text), c->pk, &lineno, &err);
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
        }
        accesslog_free(&h);
        free(text);
    }
}

/* The output: text within its columns, JSON with the same figures. */
static void test_outputs(void **state)
{
    (void)state;
    char *text = xstrdup("K\t\t1200\twrite\nL\t\t10\twrite\nL\nM\n");
    accesslog h;
    accesslog_init(&h);
    size_t lineno;
    char *err = NULL;
    assert_int_equal(heatlog_read(&h, text, strlen(text), NULL, &lineno, &err), KP_OK);
    accesslog_sort(&h);
    char *t = heatlog_text(&h, "access.log", 2, 1);
    assert_non_null(strstr(t, "heat of access.log: 4 requests, 1212.0 units, 3 partition keys\n"));
    assert_non_null(strstr(t, "   1  K "));
    assert_non_null(strstr(t, "HOT"));
    assert_null(strstr(t, "   3  ")); /* --top 2 */
    assert_non_null(strstr(t, "hot: at least one key"));
    free(t);
    t = heatlog_text(&h, "access.log", 10, NAN);
    assert_null(strstr(t, "read/s")); /* no time: no rates */
    assert_null(strstr(t, "HOT"));
    free(t);
    char *j = heatlog_json(&h, "access.log", 10, 1, NULL);
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
    accesslog_free(&h);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_lines),
        cmocka_unit_test(test_outputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
