/* test_signals.c - reopening signals: comparison, metric shapes, evaluation against the design's
 * own numbers and the latest observation of each metric. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analysis.h"
#include "signals.h"
#include "design_io.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void test_compare_table(void **state)
{
    (void)state;
    static const struct {
        double v;
        kp_cmp cmp;
        double t;
        bool want;
    } rows[] = {
        {51, KP_CMP_GT, 50, true},    {50, KP_CMP_GT, 50, false}, {50, KP_CMP_GE, 50, true},
        {49.9, KP_CMP_GE, 50, false}, {49, KP_CMP_LT, 50, true},  {50, KP_CMP_LT, 50, false},
        {50, KP_CMP_LE, 50, true},    {51, KP_CMP_LE, 50, false}, {7, KP_CMP_EQ, 7, true},
        {7, KP_CMP_EQ, 8, false},     {7, KP_CMP_NE, 8, true},    {7, KP_CMP_NE, 7, false},
        {NAN, KP_CMP_GT, 0, false},   {NAN, KP_CMP_NE, 0, false}, {-1, KP_CMP_LT, 0, true},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
        if (sig_compare(rows[i].v, rows[i].cmp, rows[i].t) != rows[i].want)
            fail_msg("row %zu: %g %s %g should be %s", i, rows[i].v, kp_cmp_name(rows[i].cmp), rows[i].t,
                     rows[i].want ? "true" : "false");
}

static void test_metric_shapes(void **state)
{
    (void)state;
    static const struct {
        const char *metric;
        bool ok;
    } rows[] = {
        {"pattern.5.rate", true},
        {"pattern.5.rcu", true},
        {"pattern.abc.requests", true},
        {"pattern.5.latency", true},
        {"pattern.5.speed", false},
        {"pattern..rate", false},
        {"pattern.rate", false},
        {"entity.Order.count", true},
        {"entity.Línea.size", true},
        {"entity.Order.writes", true},
        {"entity.Order.rate", false},
        {"index.GSI1.items", true},
        {"index.GSI.v2.wcu", true},
        {"index.GSI1.hot_share", true},
        {"index.GSI1.count", false},
        {"table.hot_share", true},
        {"table.items", false},
        {"cost.total", true},
        {"cost.index writes", true},
        {"cost.", false},
        {"", false},
        {"throughput", false},
        {"pattern.5.rate\n", false},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        char *why = NULL;
        kp_status st = sig_metric_check(rows[i].metric, &why);
        if ((st == KP_OK) != rows[i].ok)
            fail_msg("'%s' should be %s", rows[i].metric, rows[i].ok ? "valid" : "invalid");
        if (st != KP_OK) {
            assert_int_equal(st, KP_SIGNAL);
            assert_non_null(why);
            free(why);
        } else {
            assert_null(why);
        }
    }
}

static const char design_text[] =
    "keyplan: 1\n"
    "name: Signals\n"
    "table: { name: Tbl, pk: PK, sk: SK, billing: on-demand, streams: false, pitr: false }\n"
    "entities:\n"
    "  - name: Order\n"
    "    count: 30000\n"
    "    size: 500\n"
    "    attributes: [orderId]\n"
    "    keys: { PK: \"ORDER#{orderId}\", SK: \"HEADER\" }\n"
    "patterns:\n"
    "  - { id: 5, name: Get order, entity: Order, by: [orderId], rate: 2, latency: 20 }\n"
    "decisions:\n"
    "  - id: D1\n"
    "    title: low rate\n"
    "    signals: [ \"pattern.5.rate > 50\" ]\n"
    "  - id: D2\n"
    "    title: few orders\n"
    "    status: proposed\n"
    "    signals: [ \"entity.Order.count > 10000\", \"pattern.5.rate < 1\" ]\n"
    "  - id: D3\n"
    "    title: nothing to watch\n";

static kp_design *load(void)
{
    kp_diags dg;
    diags_init(&dg, "signals.yaml");
    kp_design *d = designio_load_string(design_text, strlen(design_text), "signals.yaml", &dg);
    if (!d)
        diags_print(&dg, stderr);
    diags_free(&dg);
    assert_non_null(d);
    return d;
}

static sig_observation obs(long long id, const char *metric, double v)
{
    return (sig_observation){id, (char *)metric, v, (char *)"2026-01-01T00:00:00Z", (char *)"test"};
}

static void test_design_values(void **state)
{
    (void)state;
    kp_design *d = load();
    kp_analysis *a = analysis_run(d);
    sig_report r;
    sig_evaluate(d, a, NULL, 0, &r);
    assert_int_equal(r.n, 3);
    /* D1: rate 2 > 50 is false */
    assert_true(r.v[0].known);
    assert_true(r.v[0].value == 2);
    assert_false(r.v[0].fired);
    assert_null(r.v[0].observed);
    /* D2: the design's own count 30000 > 10000 fires */
    assert_string_equal(r.v[1].decision->id, "D2");
    assert_true(r.v[1].value == 30000);
    assert_true(r.v[1].fired_design);
    assert_true(r.v[1].fired);
    assert_false(r.v[2].fired);
    assert_int_equal(r.fired, 1);
    assert_false(sig_decision_fired(&r, &d->decisions[0]));
    assert_true(sig_decision_fired(&r, &d->decisions[1]));
    assert_string_equal(sig_decision_status(&r, &d->decisions[0]), "accepted");
    assert_string_equal(sig_decision_status(&r, &d->decisions[1]), "reopen");
    assert_string_equal(sig_decision_status(&r, &d->decisions[2]), "accepted");
    sig_report_free(&r);
    /* without an analysis nothing is known and nothing fires */
    sig_evaluate(d, NULL, NULL, 0, &r);
    assert_int_equal(r.fired, 0);
    assert_false(r.v[1].known);
    sig_report_free(&r);
    analysis_free(a);
    design_free(d);
}

static void test_latest_observation_wins(void **state)
{
    (void)state;
    kp_design *d = load();
    kp_analysis *a = analysis_run(d);
    /* out of order on purpose: the largest id is the latest */
    sig_observation o[] = {
        obs(3, "pattern.5.rate", 60),
        obs(1, "pattern.5.rate", 10),
        obs(2, "index.GSI1.items", 5),
    };
    assert_ptr_equal(sig_latest(o, 3, "pattern.5.rate"), &o[0]);
    assert_null(sig_latest(o, 3, "cost.total"));
    sig_report r;
    sig_evaluate(d, a, o, 3, &r);
    assert_ptr_equal(r.v[0].observed, &o[0]);
    assert_true(r.v[0].fired_observed);
    assert_false(r.v[0].fired_design);
    assert_true(r.v[0].fired);
    assert_string_equal(sig_decision_status(&r, &d->decisions[0]), "reopen");
    /* pattern.5.rate < 1: the observation 60 does not fire it */
    assert_false(r.v[2].fired);
    assert_int_equal(r.fired, 2);
    sig_report_free(&r);

    /* a later, lower observation calms D1 down again */
    sig_observation o2[] = {obs(3, "pattern.5.rate", 60), obs(4, "pattern.5.rate", 20)};
    sig_evaluate(d, a, o2, 2, &r);
    assert_false(r.v[0].fired);
    assert_true(r.v[0].observed->value == 20);
    sig_report_free(&r);
    analysis_free(a);
    design_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compare_table),
        cmocka_unit_test(test_metric_shapes),
        cmocka_unit_test(test_design_values),
        cmocka_unit_test(test_latest_observation_wins),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
