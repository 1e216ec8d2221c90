/* test_requests.c - DynamoDB request JSON from the plans: each operation's input (and the filter
 * it carries, as data), names that need placeholders, and the `requests` export of the
 * CloudShop sample. Names, placeholders, reading and evaluating the expressions: test_expr.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "design_io.h"
#include "requests.h"
#include "support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void check_str(size_t i, const char *what, const char *have, const char *want)
{
    if ((have == NULL) != (want == NULL) || (have && strcmp(have, want) != 0))
        fail_msg("case %zu: %s is '%s', expected '%s'", i, what, have ? have : "(null)",
                 want ? want : "(null)");
}

/* ---- request inputs from hand-made plans ---------------------------------------------------------- */

static const char *const yaml =
    "keyplan: 1\nname: r\n"
    "table: { name: Shop, pk: PK, sk: SK, billing: on-demand, streams: false, pitr: false }\n"
    "indexes:\n  - { name: GSI1, pk: GSI1PK, sk: GSI1SK, projection: keys }\n"
    "attributes:\n  lineNo: { type: number, format: \"03\" }\n  línea: { type: number }\n"
    "  status: { type: enum, values: { open: 0.5, paid: 0.5 } }\n"
    "entities:\n"
    "  - name: Order\n    count: 100\n    size: 500\n    attributes: [orderId, customerId, status, línea]\n"
    "    keys: { PK: \"ORDER#{orderId}\", SK: \"HEADER\", GSI1PK: \"STATUS#{status}\", GSI1SK: \"{orderId}\" }\n"
    "  - name: Line\n    count: 300\n    size: 200\n    attributes: [orderId, lineNo]\n"
    "    keys: { PK: \"ORDER#{orderId}\", SK: \"LINE#{lineNo}\" }\n"
    "patterns:\n"
    "  - { id: 1, name: get, entity: Order, by: [orderId], consistency: strong, why: test, rate: 1 }\n"
    "  - { id: 2, name: lines, entity: Line, by: [orderId], order: lineNo desc, limit: 5, rate: 1 }\n"
    "  - { id: 3, name: status, entity: Order, by: [status], consistency: strong, why: test, rate: 1 }\n"
    "  - { id: 4, name: upd, kind: write, op: update, entity: Order, by: [orderId], changes: [status, línea] }\n";

static kp_design *load(const char *text)
{
    kp_diags dg;
    diags_init(&dg, "r.yaml");
    kp_design *d = designio_load_string(text, strlen(text), "r.yaml", &dg);
    if (!d)
        fail_msg("the test design does not load: %s", dg.n ? dg.v[0].msg : "?");
    diags_free(&dg);
    return d;
}

/* The hand-made steps' key conditions and filters, as data (released by steps_free). */
static expr_keycond kcs[8];
static kp_expr filters[8];
static size_t nkcs, nfilters;

static kp_step step(kp_op op, ptrdiff_t index, const kp_entity *e, const char *kc, kp_keyval *vals,
                    size_t nvals)
{
    kp_step s;
    memset(&s, 0, sizeof s);
    s.op = op;
    s.index = index;
    s.entity = e;
    if (kc) {
        char *err = NULL;
        assert_true(nkcs < 8);
        if (expr_keycond_parse(kc, NULL, 0, &kcs[nkcs], &err) != KP_OK)
            fail_msg("%s", err);
        s.kc = &kcs[nkcs++];
        s.key_condition = (char *)kc;
    }
    s.values = vals;
    s.nvalues = nvals;
    s.forward = true;
    s.limit = NAN;
    s.count = 1;
    return s;
}

static void step_filter(kp_step *s, const char *text)
{
    assert_true(nfilters < 8);
    expr_parse(text, NULL, 0, &filters[nfilters]);
    s->fexpr = &filters[nfilters++];
    s->filter = (char *)text;
}

static void steps_free(void)
{
    for (size_t i = 0; i < nkcs; i++)
        expr_keycond_free(&kcs[i]);
    for (size_t i = 0; i < nfilters; i++)
        expr_free(&filters[i]);
    nkcs = nfilters = 0;
}

static const char *path_str(const json_t *j, const char *a, const char *b, const char *c)
{
    const json_t *x = json_object_get(j, a);
    if (b)
        x = json_object_get(x, b);
    if (c)
        x = json_object_get(x, c);
    return json_string_value(x);
}

static void test_step_inputs(void **state)
{
    (void)state;
    kp_design *d = load(yaml);
    const kp_entity *order = design_entity(d, "Order"), *line = design_entity(d, "Line");
    kp_item_list orders = {0}, lines = {0};
    item_generate(d, order, 4, 1, &orders);
    item_generate(d, line, 4, 1, &lines);
    const kp_item *o0 = &orders.v[0], *l0 = &lines.v[0];
    kp_pattern_result r;
    memset(&r, 0, sizeof r);
    char *err = NULL;

    /* GetItem: Key from the rendered values, strong read on the table */
    kp_keyval kv1[] = {{":pk", "ORDER#{orderId}"}, {":sk", "HEADER"}};
    kp_step s1 = step(KP_OP_GETITEM, -1, order, "PK = :pk AND SK = :sk", kv1, 2);
    r.pattern = design_pattern(d, "1");
    const kp_item *samples[2] = {o0, NULL};
    json_t *in = requests_step_input(d, &r, &s1, "Shop", NULL, samples, 1, true, NULL, &err);
    assert_non_null(in);
    assert_string_equal(path_str(in, "TableName", NULL, NULL), "Shop");
    assert_string_equal(path_str(in, "Key", "PK", "S"), item_text(o0, "PK"));
    assert_string_equal(path_str(in, "Key", "SK", "S"), "HEADER");
    assert_true(json_is_true(json_object_get(in, "ConsistentRead")));
    assert_string_equal(path_str(in, "ReturnConsumedCapacity", NULL, NULL), "TOTAL");
    json_decref(in);

    /* Query: plain names as they are, typed values, Limit, ScanIndexForward */
    kp_keyval kv2[] = {{":pk", "ORDER#{orderId}"}, {":sk", "LINE#"}};
    kp_step s2 = step(KP_OP_QUERY, -1, line, "PK = :pk AND begins_with(SK, :sk)", kv2, 2);
    s2.forward = false;
    s2.limit = 5;
    r.pattern = design_pattern(d, "2");
    samples[0] = l0;
    requests_filter filt;
    in = requests_step_input(d, &r, &s2, "Shop", NULL, samples, 1, true, &filt, &err);
    assert_non_null(in);
    assert_false(filt.present); /* no filter: none as data either */
    assert_string_equal(path_str(in, "KeyConditionExpression", NULL, NULL),
                        "PK = :pk AND begins_with(SK, :sk)");
    assert_null(json_object_get(in, "ExpressionAttributeNames"));
    assert_string_equal(path_str(in, "ExpressionAttributeValues", ":pk", "S"), item_text(l0, "PK"));
    assert_string_equal(path_str(in, "ExpressionAttributeValues", ":sk", "S"), "LINE#");
    assert_int_equal(json_integer_value(json_object_get(in, "Limit")), 5);
    assert_true(json_is_false(json_object_get(in, "ScanIndexForward")));
    assert_null(json_object_get(in, "ConsistentRead"));
    assert_null(json_object_get(in, "IndexName"));
    json_decref(in);

    /* Query on a GSI: IndexName, never ConsistentRead; a filter with a step value; given values
     * override the templates */
    kp_keyval kv3[] = {{":pk", "STATUS#{status}"}, {":type0", "Order"}};
    kp_step s3 = step(KP_OP_QUERY, 0, order, "GSI1PK = :pk", kv3, 2);
    step_filter(&s3, "entityType IN (:type0)");
    r.pattern = design_pattern(d, "3");
    samples[0] = o0;
    kp_item given = {0};
    item_set(&given, ":pk", KP_VAL_S, "STATUS#paid");
    in = requests_step_input(d, &r, &s3, "Shop", &given, samples, 1, true, &filt, &err);
    assert_non_null(in);
    assert_string_equal(path_str(in, "IndexName", NULL, NULL), "GSI1");
    assert_null(json_object_get(in, "ConsistentRead")); /* strong asked, but a GSI cannot */
    assert_string_equal(path_str(in, "ExpressionAttributeValues", ":pk", "S"), "STATUS#paid");
    assert_string_equal(path_str(in, "ExpressionAttributeValues", ":type0", "S"), "Order");
    assert_string_equal(path_str(in, "FilterExpression", NULL, NULL), "entityType IN (:type0)");
    /* the filter sent, as data: it keeps the sample's entity */
    assert_true(filt.present);
    assert_int_equal(filt.expr.kind, EXPR_IN);
    assert_int_equal(expr_eval(&filt.expr, o0, &filt.values), 1);
    requests_filter_free(&filt);
    json_decref(in);
    /* ... and without the filter when asked so */
    in = requests_step_input(d, &r, &s3, "Shop", &given, samples, 1, false, &filt, &err);
    assert_null(json_object_get(in, "FilterExpression"));
    assert_null(path_str(in, "ExpressionAttributeValues", ":type0", "S"));
    assert_false(filt.present);
    json_decref(in);
    item_free(&given);

    /* BatchGetItem: one key per sample */
    kp_step s4 = step(KP_OP_BATCHGET, -1, order, NULL, NULL, 0);
    samples[0] = o0;
    samples[1] = &orders.v[1];
    in = requests_step_input(d, &r, &s4, "Shop", NULL, samples, 2, true, NULL, &err);
    json_t *keys = json_object_get(json_object_get(json_object_get(in, "RequestItems"), "Shop"), "Keys");
    assert_int_equal(json_array_size(keys), 2);
    assert_int_equal(json_object_size(json_array_get(keys, 1)), 2); /* PK and SK only */
    json_decref(in);

    /* TransactWriteItems: one Put per sample */
    kp_step s5 = step(KP_OP_TRANSACTWRITE, -1, order, NULL, NULL, 0);
    samples[1] = l0;
    in = requests_step_input(d, &r, &s5, "Shop", NULL, samples, 2, true, NULL, &err);
    assert_int_equal(json_array_size(json_object_get(in, "TransactItems")), 2);
    assert_string_equal(
        path_str(json_array_get(json_object_get(in, "TransactItems"), 1), "Put", "TableName", NULL), "Shop");
    json_decref(in);

    /* UpdateItem: SET, a name that needs a placeholder through one (a reserved word, UTF-8) */
    kp_step s6 = step(KP_OP_UPDATEITEM, -1, order, NULL, NULL, 0);
    r.pattern = design_pattern(d, "4");
    samples[0] = o0;
    in = requests_step_input(d, &r, &s6, "Shop", NULL, samples, 1, true, NULL, &err);
    /* status fills GSI1PK = STATUS#{status}: the update rewrites that key attribute too */
    assert_string_equal(path_str(in, "UpdateExpression", NULL, NULL),
                        "SET #status = :c0, #l_nea = :c1, GSI1PK = :k0");
    assert_string_equal(path_str(in, "ExpressionAttributeNames", "#status", NULL), "status");
    assert_string_equal(path_str(in, "ExpressionAttributeNames", "#l_nea", NULL), "línea");
    assert_string_equal(path_str(in, "ExpressionAttributeValues", ":k0", "S"), item_text(o0, "GSI1PK"));
    assert_non_null(json_object_get(json_object_get(in, "ExpressionAttributeValues"), ":c1"));
    json_decref(in);

    /* a key update: TransactWriteItems of a Delete of the old key and a Put of the new item */
    kp_step s10 = step(KP_OP_TRANSACTWRITE, -1, order, NULL, NULL, 0);
    s10.key_move = true;
    samples[0] = o0;
    samples[1] = &orders.v[1];
    in = requests_step_input(d, &r, &s10, "Shop", NULL, samples, 2, true, NULL, &err);
    json_t *ti = json_object_get(in, "TransactItems");
    assert_int_equal(json_array_size(ti), 2);
    assert_string_equal(path_str(json_object_get(json_array_get(ti, 0), "Delete"), "Key", "PK", "S"),
                        item_text(o0, "PK"));
    assert_string_equal(path_str(json_object_get(json_array_get(ti, 1), "Put"), "Item", "PK", "S"),
                        item_text(&orders.v[1], "PK"));
    json_decref(in);

    /* a transactional read: TransactGetItems, one Get by table key per sample */
    kp_step s11 = step(KP_OP_TRANSACTGET, -1, order, NULL, NULL, 0);
    in = requests_step_input(d, &r, &s11, "Shop", NULL, samples, 2, true, NULL, &err);
    ti = json_object_get(in, "TransactItems");
    assert_int_equal(json_array_size(ti), 2);
    json_t *get = json_object_get(json_array_get(ti, 1), "Get");
    assert_string_equal(json_string_value(json_object_get(get, "TableName")), "Shop");
    assert_int_equal(json_object_size(json_object_get(get, "Key")), 2);
    json_decref(in);

    /* a filter on a name that needs a placeholder: the value comes from the sample, typed */
    kp_keyval kv7[] = {{":pk", "ORDER#{orderId}"}};
    kp_step s7 = step(KP_OP_QUERY, -1, order, "PK = :pk", kv7, 1);
    step_filter(&s7, "línea = :v1");
    r.pattern = design_pattern(d, "1");
    in = requests_step_input(d, &r, &s7, "Shop", NULL, samples, 1, true, &filt, &err);
    assert_non_null(in);
    assert_string_equal(path_str(in, "FilterExpression", NULL, NULL), "#l_nea = :v1");
    assert_string_equal(path_str(in, "ExpressionAttributeNames", "#l_nea", NULL), "línea");
    assert_string_equal(path_str(in, "ExpressionAttributeValues", ":v1", "N"), item_text(o0, "línea"));
    /* the data keeps the attribute's own name: the sample passes its own filter */
    assert_int_equal(expr_eval(&filt.expr, o0, &filt.values), 1);
    requests_filter_free(&filt);
    json_decref(in);

    /* a query without a key condition is an error, not a crash */
    kp_step s8 = step(KP_OP_QUERY, -1, order, NULL, kv1, 2);
    in = requests_step_input(d, &r, &s8, "Shop", NULL, samples, 1, true, NULL, &err);
    assert_null(in);
    assert_non_null(err);
    free(err);

    steps_free();
    item_list_free(&orders);
    item_list_free(&lines);
    design_free(d);
}

/* ---- the plan's texts are the requests' texts ------------------------------------------------ */

/* Key attributes and filters with names DynamoDB reads only through placeholders: every
 * request's expressions, names and value names are the plan's (rendered once). */
static const char *const awkward_yaml =
    "keyplan: 1\nname: awkward\n"
    "table: { name: Tbl, pk: \"State#Date\", sk: \"a b\", billing: on-demand, streams: false, pitr: false }\n"
    "indexes:\n  - { name: GSI, pk: \"1pk\", sk: \"In\" }\n"
    "attributes:\n  \"State#Date\": { distinct: 100 }\n  \"1pk\": { distinct: 10 }\n"
    "  línea: { type: number }\n  status: { type: enum, values: { open: 0.5, paid: 0.5 } }\n"
    "entities:\n"
    "  - { name: E, count: 1000, size: 300, attributes: [\"State#Date\", \"a b\", \"1pk\", \"In\", línea, "
    "status, \"a.b\"] }\n"
    "patterns:\n"
    "  - { id: 1, name: get, entity: E, by: [\"State#Date\", \"a b\"], rate: 1 }\n"
    "  - { id: 2, name: range, entity: E, by: [\"State#Date\"], range: \"a b\", filter: [línea, \"a.b\"], rate: 1 }\n"
    "  - { id: 3, name: gsi, entity: E, by: [\"1pk\", status], order: In desc, rate: 1 }\n"
    "  - { id: 4, name: scan, entity: E, by: [línea], rate: 1 }\n";

static void test_render_once(void **state)
{
    (void)state;
    kp_design *d = load(awkward_yaml);
    kp_analysis *a = analysis_run(d);
    item_sample sample;
    item_sample_make(d, ITEM_DEFAULT_SEED, false, &sample);
    size_t checked = 0, aliased = 0;
    for (size_t i = 0; i < a->npatterns; i++) {
        const kp_pattern_result *r = &a->patterns[i];
        for (size_t k = 0; k < r->nsteps; k++) {
            const kp_step *s = &r->steps[k];
            if (s->op != KP_OP_QUERY && s->op != KP_OP_SCAN)
                continue;
            const kp_item *samples[1] = {&sample.lists[0].v[0]};
            char *err = NULL;
            json_t *in = requests_step_input(d, r, s, "T", NULL, samples, 1, true, NULL, &err);
            if (!in)
                fail_msg("pattern %zu: %s", i + 1, err);
            check_str(i, "KeyConditionExpression", path_str(in, "KeyConditionExpression", NULL, NULL),
                      s->key_condition);
            check_str(i, "FilterExpression", path_str(in, "FilterExpression", NULL, NULL), s->filter);
            json_t *names = json_object_get(in, "ExpressionAttributeNames");
            assert_int_equal(json_object_size(names), s->nnames);
            for (size_t q = 0; q < s->nnames; q++)
                check_str(i, s->names[q].alias,
                          path_str(in, "ExpressionAttributeNames", s->names[q].alias, NULL),
                          s->names[q].name);
            json_t *vals = json_object_get(in, "ExpressionAttributeValues");
            for (size_t q = 0; q < s->nvalues; q++)
                if (!json_object_get(vals, s->values[q].name))
                    fail_msg("pattern %zu: value %s is not sent", i + 1, s->values[q].name);
            checked++;
            aliased += s->nnames;
            json_decref(in);
        }
    }
    assert_true(checked >= 3);
    assert_true(aliased >= 6);
    /* the text people read is the text DynamoDB gets */
    assert_string_equal(a->patterns[0].key_condition, "#State_Date = :pk AND #a_b = :sk");
    assert_string_equal(a->patterns[1].steps[0].filter, "#l_nea = :v1 AND #a_b_2 = :v2");
    assert_string_equal(a->patterns[2].key_condition, "#1pk = :pk");
    item_sample_free(&sample);
    analysis_free(a);
    design_free(d);
}

/* ---- the export of a real design ------------------------------------------------------------- */

static void test_export_cloudshop(void **state)
{
    (void)state;
    char *path = ts_source_path("samples/cloudshop/design.yaml");
    kp_diags dg;
    diags_init(&dg, NULL);
    kp_design *d = designio_load_file(path, &dg);
    free(path);
    assert_non_null(d);
    diags_free(&dg);
    kp_analysis *a = analysis_run(d);
    char *err = NULL;
    char *text = requests_export(d, a, &err);
    assert_non_null(text);
    json_t *doc = json_loads(text, 0, NULL);
    assert_non_null(doc);
    size_t dyn = 0;
    for (size_t i = 0; i < a->npatterns; i++) {
        kp_plan p = a->patterns[i].plan;
        dyn += p != KP_PLAN_OUTSIDE && p != KP_PLAN_COVERED && p != KP_PLAN_INVALID;
    }
    json_t *pats = json_object_get(doc, "patterns");
    assert_int_equal(json_array_size(pats), dyn);
    item_sample sample;
    item_sample_make(d, ITEM_DEFAULT_SEED, false, &sample);
    size_t k, queries = 0;
    json_t *pj;
    json_array_foreach(pats, k, pj)
    {
        size_t q;
        json_t *rq;
        json_array_foreach(json_object_get(pj, "requests"), q, rq)
        {
            assert_null(json_object_get(rq, "error"));
            json_t *in = json_object_get(rq, "input");
            const char *op = json_string_value(json_object_get(rq, "operation"));
            if (strcmp(op, "Query") != 0)
                continue;
            queries++;
            assert_string_equal(path_str(in, "TableName", NULL, NULL), "CloudShop");
            assert_non_null(path_str(in, "KeyConditionExpression", NULL, NULL));
            /* the example :pk is the partition of a sample item: the request finds data */
            const char *pk = path_str(in, "ExpressionAttributeValues", ":pk", "S");
            assert_non_null(pk);
            assert_null(strchr(pk, '{'));
            const char *ix = path_str(in, "IndexName", NULL, NULL);
            const char *pkname = ix ? design_index(d, ix)->pk.s : "PK";
            bool found = false;
            for (size_t en = 0; en < sample.n; en++)
                for (size_t t = 0; t < sample.lists[en].n; t++) {
                    const char *v = item_text(&sample.lists[en].v[t], pkname);
                    found = found || (v && strcmp(v, pk) == 0);
                }
            if (!found)
                fail_msg("pattern %s: example partition '%s' has no sample item",
                         json_string_value(json_object_get(pj, "id")), pk);
        }
    }
    assert_true(queries >= 3);
    item_sample_free(&sample);
    json_decref(doc);
    free(text);
    analysis_free(a);
    design_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_step_inputs),
        cmocka_unit_test(test_render_once),
        cmocka_unit_test(test_export_cloudshop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
