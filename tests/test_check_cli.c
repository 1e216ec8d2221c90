/* test_check_cli.c - `keyplan check` on the real binary: the readable report, the --json object
 * of `check --json` (field names and JSON types), exit statuses, bad input, UTF-8 alignment. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int run(const char *const *args, char **out, char **err)
{
    int rc = ts_run_keyplan(args, NULL, out, err);
    assert_true(rc >= 0);
    return rc;
}

/* Display columns of a UTF-8 string (every character here is one column wide). */
static size_t columns(const char *s, size_t bytes)
{
    size_t n = 0;
    for (size_t i = 0; i < bytes && s[i]; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80)
            n++;
    return n;
}

static void test_report(void **state)
{
    (void)state;
    char *path = ts_source_path("samples/cloudshop/design.yaml");
    const char *args[] = {"check", path, NULL};
    char *out = NULL, *err = NULL;
    int rc = run(args, &out, &err);
    if (rc != 0)
        fail_msg("check exited %d: %s", rc, err);
    static const char *const sections[] = {"PATTERNS",
                                           "PARTITIONS",
                                           "COST per month (EUR",
                                           "on-demand",
                                           "provisioned",
                                           "CHECKLIST",
                                           "FINDINGS",
                                           "REOPENING SIGNALS",
                                           "PK = :pk AND SK = :sk",
                                           "CLIENTE#{customerId}",
                                           "index writes"};
    for (size_t i = 0; i < sizeof sections / sizeof *sections; i++)
        if (!strstr(out, sections[i]))
            fail_msg("report lacks '%s'", sections[i]);
    /* fits 100 columns */
    for (const char *line = out; *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        if (columns(line, len) > 100)
            fail_msg("line wider than 100 columns: %.*s", (int)len, line);
        line = nl ? nl + 1 : line + len;
    }
    free(out);
    free(err);
    free(path);
}

/* the fields and their JSON types. */
static void require(json_t *o, const char *key, json_type t, const char *where)
{
    json_t *v = json_object_get(o, key);
    if (!v)
        fail_msg("%s: missing '%s'", where, key);
    if (json_typeof(v) == t)
        return;
    /* numbers may be integers or reals; booleans true or false */
    if (t == JSON_REAL && json_is_number(v))
        return;
    if (t == JSON_TRUE && json_is_boolean(v))
        return;
    fail_msg("%s: '%s' has the wrong JSON type", where, key);
}

static void test_json(void **state)
{
    (void)state;
    char *path = ts_source_path("samples/cloudshop/design.yaml");
    const char *args[] = {"check", path, "--json", NULL};
    char *out = NULL, *err = NULL;
    assert_int_equal(run(args, &out, &err), 0);
    json_error_t je;
    json_t *o = json_loads(out, 0, &je);
    if (!o)
        fail_msg("not JSON at %d:%d: %s", je.line, je.column, je.text);
    json_t *pats = json_object_get(o, "patterns");
    assert_true(json_is_array(pats));
    assert_true(json_array_size(pats) >= 10);
    static const struct {
        const char *key;
        json_type t;
    } pf[] = {{"id", JSON_STRING},       {"name", JSON_STRING},       {"plan", JSON_STRING},
              {"requests", JSON_REAL},   {"index", JSON_STRING},      {"key_condition", JSON_STRING},
              {"filter", JSON_TRUE},     {"rcu_per_call", JSON_REAL}, {"rcu_per_s", JSON_REAL},
              {"latency_ms", JSON_REAL}, {"names", JSON_OBJECT},      {"values", JSON_OBJECT}};
    size_t i;
    json_t *p;
    json_array_foreach(pats, i, p)
    {
        for (size_t k = 0; k < sizeof pf / sizeof *pf; k++)
            require(p, pf[k].key, pf[k].t, "patterns[]");
    }
    /* pattern 1: a get on the base table, named "table" */
    p = json_array_get(pats, 0);
    assert_string_equal(json_string_value(json_object_get(p, "id")), "1");
    assert_string_equal(json_string_value(json_object_get(p, "plan")), "get");
    assert_string_equal(json_string_value(json_object_get(p, "index")), "table");
    assert_string_equal(json_string_value(json_object_get(p, "key_condition")), "PK = :pk AND SK = :sk");

    json_t *parts = json_object_get(o, "partitions");
    assert_true(json_is_array(parts) && json_array_size(parts) > 0);
    static const struct {
        const char *key;
        json_type t;
    } tf[] = {{"index", JSON_STRING},   {"template", JSON_STRING}, {"distinct", JSON_REAL},
              {"hot_share", JSON_REAL}, {"read_util", JSON_REAL},  {"write_util", JSON_REAL}};
    json_array_foreach(parts, i, p)
    {
        for (size_t k = 0; k < sizeof tf / sizeof *tf; k++)
            require(p, tf[k].key, tf[k].t, "partitions[]");
    }
    json_t *cost = json_object_get(o, "cost");
    require(cost, "mode", JSON_STRING, "cost");
    require(cost, "currency", JSON_STRING, "cost");
    require(cost, "lines", JSON_ARRAY, "cost");
    require(cost, "total", JSON_REAL, "cost");
    assert_string_equal(json_string_value(json_object_get(cost, "currency")), "EUR");
    assert_string_equal(json_string_value(json_object_get(cost, "mode")), "provisioned");
    double sum = 0;
    json_array_foreach(json_object_get(cost, "lines"), i, p)
    {
        require(p, "name", JSON_STRING, "cost.lines[]");
        require(p, "amount", JSON_REAL, "cost.lines[]");
        sum += json_number_value(json_object_get(p, "amount"));
    }
    assert_true(sum > 0);
    double total = json_number_value(json_object_get(cost, "total"));
    if (total < sum * 0.999 || total > sum * 1.001)
        fail_msg("cost total %g is not the sum of its lines %g", total, sum);

    json_t *cl = json_object_get(o, "checklist");
    assert_int_equal(json_array_size(cl), 11);
    json_array_foreach(cl, i, p)
    {
        require(p, "item", JSON_INTEGER, "checklist[]");
        require(p, "status", JSON_STRING, "checklist[]");
        require(p, "why", JSON_STRING, "checklist[]");
        assert_int_equal(json_integer_value(json_object_get(p, "item")), (json_int_t)i + 1);
        const char *st = json_string_value(json_object_get(p, "status"));
        assert_true(strcmp(st, "pass") == 0 || strcmp(st, "fail") == 0 || strcmp(st, "n/a") == 0);
    }
    json_t *fs = json_object_get(o, "findings");
    assert_true(json_is_array(fs));
    json_array_foreach(fs, i, p)
    {
        require(p, "code", JSON_STRING, "findings[]");
        require(p, "severity", JSON_STRING, "findings[]");
        require(p, "where", JSON_STRING, "findings[]");
        require(p, "message", JSON_STRING, "findings[]");
    }
    json_decref(o);
    free(out);
    free(err);
    free(path);

    /* the first design's findings name the low-cardinality key */
    path = ts_source_path("samples/cloudshop/first-design.yaml");
    const char *args2[] = {"check", "--json", path, NULL};
    assert_int_equal(run(args2, &out, &err), 0);
    o = json_loads(out, 0, &je);
    assert_non_null(o);
    bool low = false;
    json_array_foreach(json_object_get(o, "findings"), i, p)
    {
        low |= strcmp(json_string_value(json_object_get(p, "code")), "low-cardinality-pk") == 0;
    }
    assert_true(low);
    p = json_array_get(json_object_get(o, "patterns"), 0);
    assert_string_equal(json_string_value(json_object_get(p, "plan")), "scan");
    json_decref(o);
    free(out);
    free(err);
    free(path);
}

/* Unusable input: exit 2, a message naming the place on stderr, nothing on stdout. */
static void test_bad_input(void **state)
{
    (void)state;
    static const struct {
        const char *text;   /* file content, NULL = no file */
        const char *expect; /* in stderr */
    } cases[] = {
        {NULL, "missing"},
        {"keyplan: 2\nname: x\n", "design.yaml:1:"},
        {"keyplan: 1\nname: x\ntable: { name: Tbl, pk: PK }\nentities:\n  - { name: A, count: 1, size: 10,"
         " keys: { PK: \"A#{id\" } }\n",
         "design.yaml:5:"},
        {"keyplan: 1\n  name: [unclosed\n", "design.yaml:"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *path = cases[i].text ? ts_write_temp("design.yaml", cases[i].text) : NULL;
        const char *args[] = {"check", path ? path : "/nonexistent/missing.yaml", NULL};
        char *out = NULL, *err = NULL;
        int rc = run(args, &out, &err);
        if (rc != 2 || !strstr(err, cases[i].expect) || strlen(out) != 0)
            fail_msg("case %zu: rc %d, stderr '%s', stdout '%s'", i, rc, err, out);
        free(out);
        free(err);
        free(path);
    }
    /* usage errors */
    static const char *const bad[][4] = {
        {"check", NULL}, {"check", "--frobnicate", "x.yaml", NULL}, {"check", "a.yaml", "b.yaml", NULL}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char *out = NULL, *err = NULL;
        assert_int_equal(run(bad[i], &out, &err), 2);
        assert_true(strlen(err) > 0);
        free(out);
        free(err);
    }
}

/* --strict turns error findings and failed checklist items into exit 1. */
static void test_strict(void **state)
{
    (void)state;
    char *path = ts_source_path("samples/cloudshop/first-design.yaml");
    const char *args[] = {"check", path, "--strict", NULL};
    char *out = NULL, *err = NULL;
    assert_int_equal(run(args, &out, &err), 1);
    free(out);
    free(err);
    const char *args2[] = {"check", path, NULL};
    assert_int_equal(run(args2, &out, &err), 0);
    free(out);
    free(err);
    free(path);
}

/* Spanish names with accents line up with ASCII ones. */
static void test_utf8_alignment(void **state)
{
    (void)state;
    const char *text =
        "keyplan: 1\n"
        "name: Pedidos\n"
        "table: { name: Tbl, pk: PK, sk: SK, billing: on-demand, streams: false, pitr: false }\n"
        "attributes:\n"
        "  pedidoId: { distinct: 1000 }\n"
        "  línea: { type: number, format: \"03\" }\n"
        "entities:\n"
        "  - { name: Línea, count: 3000, size: 200, attributes: [pedidoId, línea],\n"
        "      keys: { PK: \"PEDIDO#{pedidoId}\", SK: \"LÍNEA#{línea}\" } }\n"
        "  - { name: Dirección, count: 1000, size: 200, attributes: [pedidoId],\n"
        "      keys: { PK: \"DIRECCIÓN#{pedidoId}\", SK: \"DIRECCIÓN#casa\" } }\n"
        "patterns:\n"
        "  - { id: 1, name: Líneas de un pedido, entity: Línea, by: [pedidoId], rate: 10, latency: 20 }\n"
        "  - { id: 2, name: Lines of an order, entity: Línea, by: [pedidoId], rate: 10, latency: 20 }\n"
        "  - { id: 3, name: Dirección del pedido, entity: Dirección, by: [pedidoId], rate: 10,"
        " latency: 20 }\n";
    char *path = ts_write_temp("design.yaml", text);
    const char *args[] = {"check", path, NULL};
    char *out = NULL, *err = NULL;
    int rc = run(args, &out, &err);
    if (rc != 0)
        fail_msg("check exited %d: %s", rc, err);
    /* the plan column starts at the same display column on the three pattern lines */
    static const char *const names[] = {"Líneas de un pedido", "Lines of an order", "Dirección del pedido"};
    size_t col[3];
    for (size_t i = 0; i < 3; i++) {
        const char *at = strstr(out, names[i]);
        if (!at)
            fail_msg("no line for '%s' in:\n%s", names[i], out);
        const char *bol = at;
        while (bol > out && bol[-1] != '\n')
            bol--;
        const char *plan = strstr(bol, i == 2 ? "= get" : "~ query");
        assert_non_null(plan);
        col[i] = columns(bol, (size_t)(plan - bol));
    }
    if (col[0] != col[1] || col[1] != col[2])
        fail_msg("plan columns differ: %zu %zu %zu\n%s", col[0], col[1], col[2], out);
    /* the partition table lines up the accented template too */
    const char *t1 = strstr(out, "DIRECCIÓN#{pedidoId}"), *t2 = strstr(out, "PEDIDO#{pedidoId}");
    assert_non_null(t1);
    assert_non_null(t2);
    free(out);
    free(err);
    free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_report),         cmocka_unit_test(test_json),
        cmocka_unit_test(test_bad_input),      cmocka_unit_test(test_strict),
        cmocka_unit_test(test_utf8_alignment),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
