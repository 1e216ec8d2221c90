/* test_diff.c - the designer's diff: plans, units, heat, cost, keys, indexes, decisions; the
 * irreversible changes and the one-off cost of a change (backfill, migration). */
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

/* ---- irreversible changes and what the change costs ------------------------------------ */

/* One entity of 1,000,000 items of 2,000 B (2 write units each), on-demand at the built-in prices.
 * A Scan of the table reads 1e6 x 2,000 / 4,096 x 0.5 = 244,140.625 read units (0.0305 USD). */
static const char *change_fmt =
    "keyplan: 1\nname: change\n"
    "table: { name: Tbl, pk: PK, sk: %s, billing: %s, streams: false, pitr: false }\n"
    "%s"
    "attributes: { c: { distinct: 1000000 }, g: { distinct: 100 } }\n"
    "entities:\n"
    "  - { name: E, count: 1000000, size: 2000, attributes: [c, g, d],\n"
    "      keys: { PK: \"C#{c}\", %s: E%s%s } }\n"
    "patterns:\n  - { id: 1, name: get, entity: E, by: [c], rate: 10, latency: 20 }\n";

#define SCAN_RU 244140.625

/* The change design with sort key `sk` and `indexes` (the entity fills the keys they use). */
static char *change_design(const char *sk, const char *billing, const char *indexes)
{
    return xasprintf(change_fmt, sk, billing, indexes, sk, strstr(indexes, "GPK") ? ", GPK: \"G#{g}\"" : "",
                     strstr(indexes, "LSK") ? ", LSK: \"{d}\"" : "");
}

static const struct change_case {
    const char *name;
    const char *sk_a, *indexes_a, *sk_b, *indexes_b, *billing;
    size_t irreversible;
    const char *first; /* subject of the first IRREVERSIBLE item (NULL: none) */
    const char *cost;  /* subject of the CHANGE_COST item (NULL: none) */
    const char *text;  /* in its text */
    double money;      /* its cost */
} changes[] = {
    /* a new GSI projecting all: 1e6 entries of 2 units; 0.0305 + 2 x 0.625 USD */
    {"GSI added", "SK", "", "SK", "indexes:\n  - { name: ByG, pk: GPK, projection: all }\n", "on-demand", 0,
     NULL, "backfill of GSI ByG",
     "scan the table, 244,141 read units; write 1,000,000 entries, 2,000,000 index write units",
     SCAN_RU / 1e6 * 0.125 + 2 * 0.625},
    /* its projection changed: DynamoDB deletes and creates it again */
    {"GSI projection changed", "SK", "indexes:\n  - { name: ByG, pk: GPK, projection: keys }\n", "SK",
     "indexes:\n  - { name: ByG, pk: GPK, projection: all }\n", "on-demand", 0, NULL, "rebuild of GSI ByG",
     "write 1,000,000 entries, 2,000,000 index write units", SCAN_RU / 1e6 * 0.125 + 2 * 0.625},
    /* provisioned: the unit-hours that absorb the units */
    {"GSI added, provisioned", "SK", "", "SK", "indexes:\n  - { name: ByG, pk: GPK, projection: all }\n",
     "provisioned", 0, NULL, "backfill of GSI ByG", "2,000,000 index write units",
     (SCAN_RU * 0.00013 + 2e6 * 0.00065) / 3600},
    /* an LSI added: a new table; every item (2 units) and its LSI entry (all: 2 units) written again */
    {"LSI added", "SK", "", "SK",
     "indexes:\n  - { name: ByD, type: lsi, pk: PK, sk: LSK, projection: all }\n", "on-demand", 1, "LSI ByD",
     "migration to a new table",
     "write its 1,000,000 items to the new one, 4,000,000 write units and 0 index write units",
     SCAN_RU / 1e6 * 0.125 + 4 * 0.625},
    {"LSI removed", "SK", "indexes:\n  - { name: ByD, type: lsi, pk: PK, sk: LSK, projection: all }\n", "SK",
     "", "on-demand", 1, "LSI ByD", "migration to a new table", "2,000,000 write units",
     SCAN_RU / 1e6 * 0.125 + 2 * 0.625},
    /* the table's sort key renamed, with a GSI that fills as the items arrive in the new table */
    {"sort key changed", "SK", "indexes:\n  - { name: ByG, pk: GPK, projection: all }\n", "RK",
     "indexes:\n  - { name: ByG, pk: GPK, projection: all }\n", "on-demand", 1, "table",
     "migration to a new table", "2,000,000 write units and 2,000,000 index write units",
     SCAN_RU / 1e6 * 0.125 + 4 * 0.625},
    /* a GSI removed costs nothing once */
    {"GSI removed", "SK", "indexes:\n  - { name: ByG, pk: GPK, projection: all }\n", "SK", "", "on-demand", 0,
     NULL, NULL, NULL, 0},
};

static void test_change_cost(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof changes / sizeof *changes; i++) {
        const struct change_case *c = &changes[i];
        char *ta = change_design(c->sk_a, c->billing, c->indexes_a);
        char *tb = change_design(c->sk_b, c->billing, c->indexes_b);
        kp_design *a = load(ta), *b = load(tb);
        kp_analysis *aa = analysis_run(a), *ab = analysis_run(b);
        kp_diff d;
        diff_compute(a, aa, NULL, b, ab, NULL, &d);
        char *text = diff_render(&d, "1", "2");
        if (diff_count(&d, DIFF_IRREVERSIBLE) != c->irreversible ||
            diff_irreversible(a, b, NULL) != c->irreversible)
            fail_msg("%s: %zu irreversible, expected %zu:\n%s", c->name, diff_count(&d, DIFF_IRREVERSIBLE),
                     c->irreversible, text);
        if (c->first) {
            const diff_item *it = &d.v[0];
            assert_int_equal(it->section, DIFF_IRREVERSIBLE);
            assert_string_equal(it->subject, c->first);
            assert_non_null(it->why);
            assert_non_null(
                strstr(text, "\n  IRREVERSIBLE: 1 change DynamoDB cannot make to the table in place"));
            assert_non_null(strstr(text, "\n  ! "));
        }
        if (c->cost) {
            const diff_item *it = must(&d, DIFF_CHANGE_COST, DIFF_ADDED, c->cost, NULL);
            if (!strstr(it->after, c->text))
                fail_msg("%s: '%s' lacks '%s'", c->name, it->after, c->text);
            if (!(fabs(it->num_after - c->money) <= 1e-9 * fmax(1, c->money)))
                fail_msg("%s: costs %.10g, expected %.10g", c->name, it->num_after, c->money);
            assert_non_null(strstr(text, "\n  $ "));
        } else {
            assert_int_equal(diff_count(&d, DIFF_CHANGE_COST), 0);
        }
        free(text);
        diff_free(&d);
        analysis_free(aa);
        analysis_free(ab);
        design_free(a);
        design_free(b);
        free(ta);
        free(tb);
    }
}

/* diff_irreversible names each change, without analyses. */
static void test_irreversible_text(void **state)
{
    (void)state;
    char *ta = change_design("SK", "on-demand", "");
    char *tb = change_design("RK", "on-demand",
                             "indexes:\n  - { name: ByD, type: lsi, pk: PK, sk: LSK, projection: keys }\n");
    kp_design *a = load(ta), *b = load(tb);
    char *what = NULL;
    assert_int_equal(diff_irreversible(a, b, &what), 2);
    assert_string_equal(what, "table sort key SK → RK; LSI ByD added");
    free(what);
    assert_int_equal(diff_irreversible(a, a, &what), 0);
    assert_string_equal(what, "");
    free(what);
    design_free(a);
    design_free(b);
    free(ta);
    free(tb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_plans_and_units, setup, teardown),
        cmocka_unit_test_setup_teardown(test_keys_indexes_cost_heat, setup, teardown),
        cmocka_unit_test_setup_teardown(test_decisions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_identical_designs, setup, teardown),
        cmocka_unit_test(test_change_cost),
        cmocka_unit_test(test_irreversible_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
