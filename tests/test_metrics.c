/* test_metrics.c - the metrics signals read and the finding catalogue. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analysis.h"
#include "design_io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *yaml =
    "keyplan: 1\nname: metrics\n"
    "table: { name: Shop, pk: PK, sk: SK, billing: on-demand, streams: true, pitr: false }\n"
    "indexes:\n"
    "  - { name: GSI1, pk: GPK, sk: GSK, projection: keys }\n"
    "attributes:\n"
    "  c: { distinct: 1000 }\n"
    "  status: { type: enum, values: { open: 0.25, closed: 0.75 } }\n"
    "entities:\n"
    "  - { name: Línea, count: 5000, size: 900, writes: 7, attributes: [c, status],\n"
    "      keys: { PK: \"C#{c}\", SK: \"L\", GPK: \"ST#{status}\", GSK: \"{c}\" } }\n"
    "  - { name: Ticket, count: 10, size: 100, attributes: [c], keys: { PK: \"T#{c}\", SK: \"T\" } }\n"
    "patterns:\n"
    "  - { id: 1, name: get, entity: Línea, by: [c], rate: 100, latency: 20 }\n"
    "  - { id: a.b, name: dotted id, entity: Línea, by: [status], rate: 3, latency: 90 }\n"
    "  - { id: 3, name: tickets, kind: write, op: put, entity: Ticket, rate: 4, items: 2 }\n";

static void test_metric_values(void **state)
{
    (void)state;
    kp_diags dg;
    diags_init(&dg, "m.yaml");
    kp_design *d = designio_load_string(yaml, strlen(yaml), "m.yaml", &dg);
    if (!d)
        diags_print(&dg, stderr);
    diags_free(&dg);
    assert_non_null(d);
    kp_analysis *a = analysis_run(d);

    const struct {
        const char *metric;
        double want; /* NAN: compare with `from` */
        const double *from;
    } ok[] = {
        {"pattern.1.rate", 100, NULL},
        {"pattern.1.rcu", NAN, &a->patterns[0].rcu_per_s},
        {"pattern.1.requests", NAN, &a->patterns[0].requests},
        {"pattern.1.latency", NAN, &a->patterns[0].latency_ms},
        {"pattern.a.b.rate", 3, NULL},
        {"entity.Línea.count", 5000, NULL},
        {"entity.Línea.size", 900, NULL},
        {"entity.Línea.writes", 7, NULL},
        {"entity.Ticket.writes", 8, NULL}, /* from the write pattern: 4/s x 2 items */
        {"index.GSI1.items", 5000, NULL},
        {"index.GSI1.wcu", NAN, &a->indexes[1].wcu_per_s},
        {"index.GSI1.hot_share", 0.75, NULL},
        {"index.table.items", 5010, NULL},
        {"index.Shop.items", 5010, NULL},
        {"table.hot_share", NAN, &a->table_hot_share},
        {"cost.total", NAN, &a->cost->total},
        {"cost.reads", NAN, &a->cost->lines[0].amount},
        {"cost.index writes", NAN, &a->cost->lines[2].amount},
        {"cost.index_writes", NAN, &a->cost->lines[2].amount},
        {"cost.streams", NAN, &a->cost->lines[4].amount},
    };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        double v = -1;
        if (!analysis_metric(a, ok[i].metric, &v))
            fail_msg("%s: not known", ok[i].metric);
        double want = ok[i].from ? *ok[i].from : ok[i].want;
        if (!(fabs(v - want) <= 1e-9 * fmax(1, fabs(want))))
            fail_msg("%s = %g, expected %g", ok[i].metric, v, want);
    }
    assert_true(a->indexes[1].wcu_per_s > 0);
    assert_true(a->cost->lines[2].amount > 0);
    assert_true(a->cost->lines[4].amount > 0);

    const char *bad[] = {"pattern.99.rate",   "pattern.1.speed",
                         "entity.Nope.count", "index.GSI9.items",
                         "index.GSI1.bytes",  "table.items",
                         "cost.lunch",        "cost",
                         "nothing",           "",
                         "entity.Línea",      "weird.x.y"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        double v = 0;
        if (analysis_metric(a, bad[i], &v))
            fail_msg("'%s' should not be a metric (gave %g)", bad[i], v);
    }
    analysis_free(a);
    design_free(d);
}

static void test_catalogue(void **state)
{
    (void)state;
    size_t n = 0;
    const kp_finding_info *cat = analysis_finding_catalogue(&n);
    assert_true(n >= 14);
    const char *required[] = {
        "low-cardinality-pk", "time-bucket-pk", "scan-user-path",      "filter-narrowing",
        "unused-gsi",         "projection-all", "index-writes-exceed", "lsi",
        "item-too-large",     "item-over-4kb",  "date-not-iso-sk",     "strong-read-gsi",
        "many-requests-join", "hot-partition",  "counter-update",      "unknown-distribution"};
    for (size_t r = 0; r < sizeof required / sizeof *required; r++) {
        bool found = false;
        for (size_t i = 0; i < n; i++)
            if (strcmp(cat[i].code, required[r]) == 0)
                found = true;
        if (!found)
            fail_msg("code %s missing from the catalogue", required[r]);
    }
    for (size_t i = 0; i < n; i++) {
        /* kebab-case, unique, with a title and a fix */
        for (const char *s = cat[i].code; *s; s++)
            assert_true((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-');
        for (size_t j = i + 1; j < n; j++)
            assert_string_not_equal(cat[i].code, cat[j].code);
        assert_true(strlen(cat[i].title) > 5);
        assert_true(strlen(cat[i].fix) > 20);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_metric_values),
        cmocka_unit_test(test_catalogue),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
