/* test_diff.c - the designer's diff: plans, units, heat, cost, keys, indexes, decisions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analysis.h"
#include "diff.h"
#include "signals.h"
#include "design_io.h"
#include "support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Before: keyed by status (the seed's costly mistake). */
static const char before_text[] =
    "keyplan: 1\n"
    "name: Shop\n"
    "table: { name: Tbl, pk: PK, sk: SK, billing: on-demand, streams: false, pitr: false }\n"
    "attributes:\n"
    "  status: { type: enum, values: { pending: 0.1, delivered: 0.9 } }\n"
    "entities:\n"
    "  - name: Order\n"
    "    count: 1000000\n"
    "    size: 800\n"
    "    writes: 900\n"
    "    attributes: [orderId, status, customerId]\n"
    "    keys: { PK: \"ESTADO#{status}\", SK: \"{orderId}\" }\n"
    "patterns:\n"
    "  - { id: 1, name: Get order by id, entity: Order, by: [orderId], rate: 400, latency: 20 }\n"
    "  - { id: 2, name: Orders by status, entity: Order, by: [status], rate: 2, latency: 1000 }\n"
    "decisions:\n"
    "  - id: D1\n"
    "    title: Key by status\n"
    "    decision: the panel asks by status\n"
    "    signals: [ \"pattern.2.rate > 50\" ]\n";

/* After: keyed by order id, a sparse-free GSI for the panel, a new decision. */
static const char after_text[] =
    "keyplan: 1\n"
    "name: Shop\n"
    "table: { name: Tbl, pk: PK, sk: SK, billing: on-demand, streams: false, pitr: false }\n"
    "indexes:\n"
    "  - { name: GSI1, pk: GSI1PK, sk: GSI1SK, projection: keys }\n"
    "attributes:\n"
    "  status: { type: enum, values: { pending: 0.1, delivered: 0.9 } }\n"
    "entities:\n"
    "  - name: Order\n"
    "    count: 1000000\n"
    "    size: 800\n"
    "    writes: 900\n"
    "    attributes: [orderId, status, customerId]\n"
    "    keys: { PK: \"PEDIDO#{orderId}\", SK: \"CABECERA\", GSI1PK: \"ESTADO#{status}\", GSI1SK: \"{orderId}\" }\n"
    "patterns:\n"
    "  - { id: 1, name: Get order by id, entity: Order, by: [orderId], rate: 400, latency: 20 }\n"
    "  - { id: 2, name: Orders by status, entity: Order, by: [status], rate: 3, latency: 1000 }\n"
    "  - { id: 3, name: Cancel an order, kind: write, op: update, entity: Order, by: [orderId], rate: 5 }\n"
    "decisions:\n"
    "  - id: D1\n"
    "    title: Key by order id\n"
    "    decision: pattern 1 is the most frequent\n"
    "    signals: [ \"pattern.2.rate > 50\" ]\n"
    "  - id: D2\n"
    "    title: Status panel on GSI1\n"
    "    signals: [ \"pattern.2.rate > 50\" ]\n";

static kp_design *load(const char *text)
{
    kp_design *d = ts_load_text(text, "diff.yaml");
    assert_non_null(d);
    return d;
}

static const diff_item *find(const kp_diff *d, diff_section sec, diff_change ch, const char *subject,
                             const char *what)
{
    for (size_t i = 0; i < d->n; i++) {
        const diff_item *it = &d->v[i];
        if (it->section == sec && it->change == ch && strstr(it->subject, subject) &&
            (!what || strcmp(it->what, what) == 0))
            return it;
    }
    return NULL;
}

static const diff_item *must(const kp_diff *d, diff_section sec, diff_change ch, const char *subject,
                             const char *what)
{
    const diff_item *it = find(d, sec, ch, subject, what);
    if (!it) {
        char *text = diff_render(d, "a", "b");
        fail_msg("no %s item '%s' / '%s' in:\n%s", diff_section_title(sec), subject, what ? what : "", text);
    }
    return it;
}

typedef struct fixture {
    kp_design *a, *b;
    kp_analysis *aa, *ab;
    sig_report sa, sb;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->a = load(before_text);
    f->b = load(after_text);
    f->aa = analysis_run(f->a);
    f->ab = analysis_run(f->b);
    sig_evaluate(f->a, f->aa, NULL, 0, &f->sa);
    /* an observation fires D1's signal after the change */
    static sig_observation o = {1, (char *)"pattern.2.rate", 80, (char *)"t", (char *)"test"};
    sig_evaluate(f->b, f->ab, &o, 1, &f->sb);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    sig_report_free(&f->sa);
    sig_report_free(&f->sb);
    analysis_free(f->aa);
    analysis_free(f->ab);
    design_free(f->a);
    design_free(f->b);
    free(f);
    return 0;
}

static void test_plans_and_units(void **state)
{
    fixture *f = *state;
    kp_diff d;
    diff_compute(f->a, f->aa, &f->sa, f->b, f->ab, &f->sb, &d);
    const diff_item *it = must(&d, DIFF_PATTERNS, DIFF_CHANGED, "pattern 1 ", "plan");
    /* status is an enum: one query per value before, one GetItem after */
    assert_string_equal(it->before, "multi");
    assert_string_equal(it->after, "get");
    it = must(&d, DIFF_PATTERNS, DIFF_CHANGED, "pattern 1 ", "read units/s");
    assert_true(it->num_before > it->num_after);
    it = must(&d, DIFF_PATTERNS, DIFF_CHANGED, "pattern 2 ", "requests/s at peak");
    assert_true(it->num_before == 2 && it->num_after == 3);
    it = must(&d, DIFF_PATTERNS, DIFF_CHANGED, "pattern 2 ", "served by");
    assert_string_equal(it->before, "table");
    assert_string_equal(it->after, "GSI1");
    must(&d, DIFF_PATTERNS, DIFF_ADDED, "pattern 3 ", NULL);
    /* nothing about pattern 1's rate: it did not change */
    assert_null(find(&d, DIFF_PATTERNS, DIFF_CHANGED, "pattern 1 ", "requests/s at peak"));
    diff_free(&d);
}

static void test_keys_indexes_cost_heat(void **state)
{
    fixture *f = *state;
    kp_diff d;
    diff_compute(f->a, f->aa, &f->sa, f->b, f->ab, &f->sb, &d);
    const diff_item *it = must(&d, DIFF_KEYS, DIFF_CHANGED, "entity Order", "PK");
    assert_string_equal(it->before, "ESTADO#{status}");
    assert_string_equal(it->after, "PEDIDO#{orderId}");
    it = must(&d, DIFF_INDEXES, DIFF_ADDED, "index GSI1", NULL);
    assert_non_null(strstr(it->after, "projection keys"));
    /* the GSI adds index writes: the on-demand total changes */
    must(&d, DIFF_COST, DIFF_CHANGED, "on-demand total", "amount");
    must(&d, DIFF_COST, DIFF_CHANGED, "provisioned total", "amount");
    /* the status partition of the table went away (it was hot under 900 writes/s on 'delivered') */
    it = must(&d, DIFF_HEAT, DIFF_REMOVED, "table ESTADO#{status}", NULL);
    assert_non_null(strstr(it->before, "HOT"));
    diff_free(&d);
}

static void test_decisions(void **state)
{
    fixture *f = *state;
    kp_diff d;
    diff_compute(f->a, f->aa, &f->sa, f->b, f->ab, &f->sb, &d);
    must(&d, DIFF_DECISIONS, DIFF_ADDED, "decision D2", NULL);
    const diff_item *it = must(&d, DIFF_DECISIONS, DIFF_CHANGED, "decision D1", "reopened");
    assert_string_equal(it->before, "accepted");
    assert_string_equal(it->after, "reopen");
    it = must(&d, DIFF_DECISIONS, DIFF_CHANGED, "decision D1", "title");
    assert_string_equal(it->after, "Key by order id");
    /* items are grouped by section, in section order */
    for (size_t i = 1; i < d.n; i++)
        assert_true(d.v[i - 1].section <= d.v[i].section);
    assert_true(diff_count(&d, DIFF_DECISIONS) >= 3);
    char *text = diff_render(&d, "version 1", "version 2");
    assert_non_null(strstr(text, "version 1 → version 2"));
    assert_non_null(strstr(text, "Decisions\n"));
    assert_non_null(strstr(text, "multi → get"));
    assert_non_null(strstr(text, "In short:\n"));
    assert_non_null(strstr(text, "changed plan: 1 multi → get"));
    assert_non_null(strstr(text, "monthly cost, on-demand total: "));
    assert_non_null(strstr(text, "decisions: 1 added, 1 reopened\n"));
    assert_non_null(strstr(text, "1 cooled down"));
    free(text);
    diff_free(&d);
}

static void test_identical_designs(void **state)
{
    fixture *f = *state;
    kp_diff d;
    diff_compute(f->b, f->ab, NULL, f->b, f->ab, NULL, &d);
    assert_int_equal(d.n, 0);
    char *text = diff_render(&d, "x", "y");
    assert_non_null(strstr(text, "no differences"));
    free(text);
    diff_free(&d);
    /* without analyses only the design's own fields are compared */
    diff_compute(f->a, NULL, NULL, f->b, NULL, NULL, &d);
    assert_null(find(&d, DIFF_COST, DIFF_CHANGED, "total", NULL));
    must(&d, DIFF_KEYS, DIFF_CHANGED, "entity Order", "PK");
    diff_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_plans_and_units, setup, teardown),
        cmocka_unit_test_setup_teardown(test_keys_indexes_cost_heat, setup, teardown),
        cmocka_unit_test_setup_teardown(test_decisions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_identical_designs, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
