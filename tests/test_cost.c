/* test_cost.c - the monthly cost: a worked example computed by hand, in both billing
 * modes, with the built-in prices and with `pricing:` overrides, streams and backups on and off,
 * the line names and their order; a global table's replica lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analysis.h"
#include "design_io.h"
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static kp_design *load(const char *yaml)
{
    kp_design *d = ts_load_text(yaml, "cost.yaml");
    assert_non_null(d);
    return d;
}

/* The worked example. One entity E: 1,000,000 items of 900 B (1 write unit; storage 900 + 100 B
 * = 1 GB on the table and 1 GB more on GSI, which projects all), 10 writes/s (peak and average).
 * Reads: pattern 1 a GetItem (0.5 unit eventual) at 100/s peak, 40/s average; pattern 2 one query
 * of one item on GSI (0.5) at 1/s. A month is 730 h = 2,628,000 s.
 *   reads: (40 x 0.5 + 1 x 0.5) x 2,628,000 = 53,874,000 units
 *   writes: 10 x 2,628,000 = 26,280,000 units; index writes: the same on GSI
 *   storage: 2 GB; streams: 26,280,000 stream read units; backups: the table's 1 GB
 * Provisioned: reads (50 + 0.5) / target, writes 10 / target, index writes 10 / target units, x 730 h. */
static const char *design_fmt =
    "keyplan: 1\nname: cost\n"
    "table: { name: Tbl, pk: PK, sk: SK, billing: %s, streams: %s, pitr: %s%s }\n"
    "indexes:\n"
    "  - { name: GSI, pk: GPK, sk: GSK, projection: all }\n"
    "attributes:\n"
    "  c: { distinct: 1000000 }\n"
    "  g: { distinct: 1000 }\n"
    "entities:\n"
    "  - { name: E, count: 1000000, size: 900, writes: 10, writes_avg: 10, attributes: [c, g],\n"
    "      keys: { PK: \"C#{c}\", SK: \"E\", GPK: \"G#{g}\", GSK: \"{c}\" } }\n"
    "patterns:\n"
    "  - { id: 1, name: get, entity: E, by: [c], rate: 100, avg: 40, latency: 20 }\n"
    "  - { id: 2, name: by g, entity: E, by: [g], rate: 1, avg: 1, latency: 50, items: 1 }\n"
    "%s";

#define MONTH 2628000.0

static const char *const line_names[] = {"reads", "writes", "index writes", "storage", "streams", "backups"};

static const struct cost_case {
    const char *billing, *streams, *pitr, *table_extra, *pricing;
    const char *currency;
    double od[6]; /* on-demand amounts, in line order */
    double pv[6]; /* provisioned */
    double od_units[6];
} cases[] = {
    /* built-in aws-us-east-1 prices */
    {"on-demand",
     "true",
     "true",
     "",
     "",
     "USD",
     {53.874 * 0.125, 26.28 * 0.625, 26.28 * 0.625, 2 * 0.25, 262.8 * 0.02, 1 * 0.20},
     {50.5 / 0.7 * 730 * 0.00013, 10 / 0.7 * 730 * 0.00065, 10 / 0.7 * 730 * 0.00065, 0.5, 262.8 * 0.02,
      0.20},
     {53874000, 26280000, 26280000, 2, 26280000, 1}},
    /* streams and backups off: lines of 0 with units NAN */
    {"provisioned",
     "false",
     "false",
     ", target_utilization: 0.5",
     "",
     "USD",
     {53.874 * 0.125, 26.28 * 0.625, 26.28 * 0.625, 0.5, 0, 0},
     {50.5 / 0.5 * 730 * 0.00013, 10 / 0.5 * 730 * 0.00065, 10 / 0.5 * 730 * 0.00065, 0.5, 0, 0},
     {53874000, 26280000, 26280000, 2, NAN, NAN}},
    /* the course's euro prices; index writes default to the write price */
    {"on-demand",
     "true",
     "false",
     "",
     "pricing: { currency: EUR, read_per_million: 0.50, write_per_million: 5.00, storage_gb_month: 0.25,\n"
     "           stream_read_per_100k: 0.044 }\n",
     "EUR",
     {53.874 * 0.5, 26.28 * 5, 26.28 * 5, 0.5, 262.8 * 0.044, 0},
     {50.5 / 0.7 * 730 * 0.00013, 10 / 0.7 * 730 * 0.00065, 10 / 0.7 * 730 * 0.00065, 0.5, 262.8 * 0.044, 0},
     {53874000, 26280000, 26280000, 2, 26280000, NAN}},
    /* every figure overridden */
    {"on-demand",
     "true",
     "true",
     "",
     "pricing: { read_per_million: 1, write_per_million: 2, index_write_per_million: 3, rcu_hour: 0.001,\n"
     "           wcu_hour: 0.002, storage_gb_month: 4, backup_gb_month: 5, stream_read_per_100k: 0.1 }\n",
     "USD",
     {53.874, 26.28 * 2, 26.28 * 3, 8, 262.8 * 0.1, 5},
     {50.5 / 0.7 * 730 * 0.001, 10 / 0.7 * 730 * 0.002, 10 / 0.7 * 730 * 0.002, 8, 262.8 * 0.1, 5},
     {53874000, 26280000, 26280000, 2, 26280000, 1}},
};

static void check_cost(const kp_cost *c, const double *want, const double *units, size_t ci, const char *mode)
{
    assert_int_equal(c->nlines, 6);
    double sum = 0;
    for (size_t i = 0; i < 6; i++) {
        assert_string_equal(c->lines[i].name, line_names[i]);
        double tol = fmax(1e-9, fabs(want[i]) * 1e-9);
        if (!(fabs(c->lines[i].amount - want[i]) <= tol))
            fail_msg("case %zu %s line %s: %.10g, expected %.10g", ci, mode, line_names[i],
                     c->lines[i].amount, want[i]);
        if (units) {
            if (isnan(units[i])) {
                if (!isnan(c->lines[i].units))
                    fail_msg("case %zu %s line %s: units %g, expected NAN", ci, mode, line_names[i],
                             c->lines[i].units);
            } else if (!(fabs(c->lines[i].units - units[i]) <= fmax(1e-6, units[i] * 1e-9)))
                fail_msg("case %zu %s line %s: units %.10g, expected %.10g", ci, mode, line_names[i],
                         c->lines[i].units, units[i]);
        }
        sum += want[i];
    }
    if (!(fabs(c->total - sum) <= 1e-9 * fmax(1, sum)))
        fail_msg("case %zu %s: total %.10g, expected %.10g", ci, mode, c->total, sum);
}

static void test_cost_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const struct cost_case *c = &cases[i];
        char *yaml = xasprintf(design_fmt, c->billing, c->streams, c->pitr, c->table_extra, c->pricing);
        kp_design *d = load(yaml);
        free(yaml);
        kp_analysis *a = analysis_run(d);
        assert_int_equal(a->on_demand.mode, KP_BILLING_ON_DEMAND);
        assert_int_equal(a->provisioned.mode, KP_BILLING_PROVISIONED);
        assert_string_equal(a->on_demand.currency, c->currency);
        assert_string_equal(a->provisioned.currency, c->currency);
        check_cost(&a->on_demand, c->od, c->od_units, i, "on-demand");
        check_cost(&a->provisioned, c->pv, NULL, i, "provisioned");
        /* the design's mode */
        if (strcmp(c->billing, "provisioned") == 0)
            assert_ptr_equal(a->cost, &a->provisioned);
        else
            assert_ptr_equal(a->cost, &a->on_demand);
        analysis_free(a);
        design_free(d);
    }
}

/* More GSIs cost more index writes; removing the index removes its line's amount. */
static void test_index_writes_follow_indexes(void **state)
{
    (void)state;
    const char *no_index =
        "keyplan: 1\nname: cost\n"
        "table: { name: Tbl, pk: PK, sk: SK, billing: on-demand, streams: false, pitr: false }\n"
        "attributes: { c: { distinct: 1000000 } }\n"
        "entities:\n"
        "  - { name: E, count: 1000000, size: 900, writes: 10, attributes: [c], keys: { PK: \"C#{c}\", SK: \"E\" } }\n"
        "patterns:\n"
        "  - { id: 1, name: get, entity: E, by: [c], rate: 100, latency: 20 }\n";
    kp_design *d = load(no_index);
    kp_analysis *a = analysis_run(d);
    assert_string_equal(a->on_demand.lines[2].name, "index writes");
    assert_true(a->on_demand.lines[2].amount == 0);
    /* average = peak when avg is not given: 100 x 0.5 units/s */
    assert_true(fabs(a->on_demand.lines[0].units - 50 * MONTH) < 1e-3);
    /* storage: 1e6 x 1000 B = 1 GB (10^9 bytes) */
    assert_true(fabs(a->on_demand.lines[3].units - 1.0) < 1e-12);
    analysis_free(a);
    design_free(d);
}

/* A global table: the worked example replicated to 2 more regions (N = 2). Every table write unit
 * is written again in each replica region, with the index writes there:
 *   replicated writes: 2 x (26,280,000 + 26,280,000) units; on-demand 2 x (26.28 x 0.625 + 26.28 x
 *   0.625) = 65.70 USD; provisioned 2 x 730 h x (10 / 0.7 WCU x 0.00065 + 10 / 0.7 x 0.00065)
 *   replica storage: 2 x 2 GB x 0.25; transfer: 26,280,000 units x 1 KB x 2 = 53.82 GB x 0.02;
 *   backups (pitr): the table's 1 GB in each of the 3 regions x 0.20.
 * Then the same with the three prices overridden. */
static void test_global_table(void **state)
{
    (void)state;
    static const char *const names[] = {"replicated writes", "replica storage", "transfer"};
    static const struct {
        const char *pricing;
        double repl_pm, repl_wcu_hour, transfer_gb;
    } P[] = {
        {"", 0.625, 0.00065, 0.02},
        {"pricing: { replicated_write_per_million: 1.5, replicated_wcu_hour: 0.001, transfer_gb: 0.09 }\n",
         1.5, 0.001, 0.09},
    };
    double xfer = 26280000.0 * 1024 / 1e9 * 2;
    for (size_t k = 0; k < sizeof P / sizeof *P; k++) {
        char *yaml = xasprintf(design_fmt, "on-demand", "false", "true", ", replicas: [eu-west-1, us-west-2]",
                               P[k].pricing);
        kp_design *d = load(yaml);
        free(yaml);
        kp_analysis *a = analysis_run(d);
        double od[3] = {2 * (26.28 * P[k].repl_pm + 26.28 * 0.625), 4 * 0.25, xfer * P[k].transfer_gb};
        double pv[3] = {2 * 730 * (10 / 0.7 * P[k].repl_wcu_hour + 10 / 0.7 * 0.00065), 4 * 0.25,
                        xfer * P[k].transfer_gb};
        double od_units[3] = {2 * 2 * 26280000.0, 4, xfer};
        for (int m = 0; m < 2; m++) {
            const kp_cost *c = m ? &a->provisioned : &a->on_demand;
            assert_int_equal(c->nlines, 9);
            /* backups: in every region */
            assert_true(fabs(c->lines[5].amount - 3 * 0.20) < 1e-9);
            assert_true(fabs(c->lines[5].units - 3) < 1e-9);
            double sum = 0;
            for (size_t i = 0; i < 9; i++)
                sum += c->lines[i].amount;
            assert_true(fabs(c->total - sum) < 1e-9 * sum);
            for (size_t i = 0; i < 3; i++) {
                const kp_cost_line *l = &c->lines[6 + i];
                assert_string_equal(l->name, names[i]);
                double want = m ? pv[i] : od[i];
                if (!(fabs(l->amount - want) <= 1e-9 * fmax(1, want)))
                    fail_msg("prices %zu %s %s: %.10g, expected %.10g", k, m ? "provisioned" : "on-demand",
                             names[i], l->amount, want);
                if (!m && !(fabs(l->units - od_units[i]) <= 1e-6 * fmax(1, od_units[i])))
                    fail_msg("prices %zu %s: units %.10g, expected %.10g", k, names[i], l->units,
                             od_units[i]);
            }
        }
        /* the lines are metrics too */
        double v;
        assert_true(analysis_metric(a, "cost.replicated_writes", &v));
        assert_true(fabs(v - od[0]) < 1e-9 * od[0]);
        analysis_free(a);
        design_free(d);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cost_cases),
        cmocka_unit_test(test_index_writes_follow_indexes),
        cmocka_unit_test(test_global_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
