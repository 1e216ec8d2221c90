/* test_heat.c - partition heat: the distributions (uniform, zipf, enum, shard, the
 * product of placeholders, fixed values, write shares), the per-partition units and limits, the
 * index figures, and CloudShop's first design (keyed by status) melting under its writes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analysis.h"
#include "capacity.h"
#include "distrib.h"
#include "design_io.h"
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static kp_design *load(const char *yaml)
{
    kp_design *d = ts_load_text(yaml, "test.yaml");
    assert_non_null(d);
    return d;
}

static void assert_near(double got, double want, double rel, const char *what, size_t i)
{
    double tol = fmax(1e-9, fabs(want) * rel);
    if (!(fabs(got - want) <= tol))
        fail_msg("case %zu: %s = %.10g, expected %.10g", i, what, got, want);
}

/* ---- the harmonic numbers behind zipf ----------------------------------------------------- */
static void test_harmonic(void **state)
{
    (void)state;
    const double ns[] = {1, 2, 10, 63, 64, 65, 100, 1000, 41200, 2000000};
    const double ss[] = {0.5, 0.75, 1.0, 1.0 + 1e-9, 1.1, 2.0, 3.5};
    for (size_t i = 0; i < sizeof ns / sizeof *ns; i++)
        for (size_t k = 0; k < sizeof ss / sizeof *ss; k++) {
            double brute = 0;
            for (double j = ns[i]; j >= 1; j--) /* small terms first */
                brute += pow(j, -ss[k]);
            assert_near(distrib_harmonic(ns[i], ss[k]), brute, 1e-10, "H(n,s)", i * 100 + k);
        }
    /* known values */
    assert_near(distrib_harmonic(1000, 1), 7.485470860550345, 1e-12, "H(1000,1)", 0);
    assert_near(distrib_harmonic(1e7, 2), 1.6449339668482264, 1e-10, "H(1e7,2)", 0);
    assert_near(distrib_zipf_top(50, 0), 0.02, 1e-12, "uniform top", 0);
    assert_true(isnan(distrib_zipf_top(NAN, 1)));
    assert_true(distrib_harmonic(0, 1) == 0);
}

/* ---- per-template heat -------------------------------------------------------------------- */
/* One entity E (1,000,000 items of 1,000 B: 1 write unit, 0.5 read units per eventual get),
 * `writes` W/s, and one read pattern `by` at `rate` R/s. Expected figures by hand. */
static const struct heat_case {
    const char *attrs; /* YAML flow mapping body */
    const char *pk;    /* the PK template */
    const char *eattrs;
    double writes;
    const char *by;
    double rate;
    double distinct, hot_share, read_units, write_units;
    bool hot;
    int shards;
} heat_cases[] = {
    /* uniform: 1/100 of everything: 2000 x 0.5 x 0.01 = 10 */
    {"a: { distinct: 100 }", "A#{a}", "a, id", 1000, "a, id", 2000, 100, 0.01, 10, 10, false, 0},
    /* zipf:1 over 1000: the top value holds 1/H(1000,1) = 1/7.485470860550345 */
    {"a: { distinct: 1000, skew: \"zipf:1\" }", "A#{a}", "a, id", 1000, "a, id", 2000, 1000, 0.1335921305,
     133.5921305, 133.5921305, false, 0},
    /* enum shares */
    {"s: { type: enum, values: { x: 0.7, y: 0.2, z: 0.1 } }", "S#{s}", "s, id", 1000, "s, id", 2000, 3, 0.7,
     700, 700, false, 0},
    /* enum write shares differ from the items: 2000 writes x 0.9 = 1800 WCU: hot, 4 shards (< 500) */
    {"s: { type: enum, values: { x: 0.7, y: 0.3 }, write_shares: { x: 0.1, y: 0.9 } }", "S#{s}", "s, id",
     2000, "s, id", 2000, 2, 0.7, 700, 1800, true, 4},
    /* shard suffix not supplied: 10 queries per call, one on each shard: 2000 x 10 x 0.5 x 0.01 x 0.1 */
    {"a: { distinct: 100 }, sh: { type: shard, count: 10 }", "A#{a}#{sh}", "a, id, sh", 1000, "a, id", 2000,
     1000, 0.001, 10, 1, false, 0},
    /* product of placeholders: 100 x 2 values, hottest 0.01 x 0.5 */
    {"a: { distinct: 100 }, s: { type: enum, values: { x: 0.5, y: 0.5 } }", "A#{a}#{s}", "a, s, id", 1000,
     "a, s, id", 2000, 200, 0.005, 5, 5, false, 0},
    /* a fixed value lands entirely on it: all 2000 x 0.5 reads on y (which holds 10 % of the items) */
    {"s: { type: enum, values: { x: 0.9, y: 0.1 } }", "S#{s}", "s, id", 100, "\"s=y\", id", 2000, 2, 0.9,
     1000, 90, false, 0},
    /* reads over 3,000 units on one value: 8000 x 0.5 x 0.9 = 3600 -> hot, 3600/1500 -> 3 shards */
    {"s: { type: enum, values: { x: 0.9, y: 0.1 } }", "S#{s}", "s, id", 100, "s, id", 8000, 2, 0.9, 3600, 90,
     true, 3},
    /* a date written "today": every write on one value, 1000 WCU = 100 %: hot, 3 shards */
    {"d: { type: date, distinct: 730, write_hot: 1.0 }", "D#{d}", "d, id", 1000, "d, id", 10, 730, 1.0 / 730,
     10 * 0.5 / 730, 1000, true, 3},
    /* a constant key: one value holds everything */
    {"a: { distinct: 5 }", "ALL", "a, id", 600, "id", 1000, 1, 1, 500, 600, false, 0},
};

static kp_design *heat_design(const struct heat_case *c)
{
    char *yaml =
        xasprintf("keyplan: 1\nname: t\n"
                  "table: { name: Tbl, pk: PK, sk: SK, billing: on-demand, streams: false, pitr: false }\n"
                  "attributes: { %s }\n"
                  "entities:\n"
                  "  - { name: E, count: 1000000, size: 1000, writes: %g, attributes: [%s],\n"
                  "      keys: { PK: \"%s\", SK: \"X#{id}\" } }\n"
                  "patterns:\n"
                  "  - { id: 1, name: read it, entity: E, by: [%s], rate: %g, latency: 20 }\n",
                  c->attrs, c->writes, c->eattrs, c->pk, c->by, c->rate);
    kp_design *d = load(yaml);
    free(yaml);
    return d;
}

static void test_heat_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof heat_cases / sizeof *heat_cases; i++) {
        const struct heat_case *c = &heat_cases[i];
        kp_design *d = heat_design(c);
        kp_analysis *a = analysis_run(d);
        if (a->npartitions != 1)
            fail_msg("case %zu: %zu partitions, expected 1", i, a->npartitions);
        const kp_partition_result *p = &a->partitions[0];
        assert_int_equal(p->index, -1);
        assert_string_equal(p->index_name, "table");
        assert_string_equal(p->template_src, c->pk);
        assert_near(p->distinct, c->distinct, 1e-9, "distinct", i);
        assert_near(p->hot_share, c->hot_share, 1e-8, "hot_share", i);
        assert_near(p->read_units, c->read_units, 1e-8, "read_units", i);
        assert_near(p->write_units, c->write_units, 1e-8, "write_units", i);
        assert_near(p->read_util, c->read_units / 3000, 1e-8, "read_util", i);
        assert_near(p->write_util, c->write_units / 1000, 1e-8, "write_util", i);
        if (p->hot != c->hot)
            fail_msg("case %zu: hot = %d, expected %d", i, p->hot, c->hot);
        if (p->suggest_shards != c->shards)
            fail_msg("case %zu: suggest_shards = %d, expected %d", i, p->suggest_shards, c->shards);
        if (c->hot) { /* the suggestion really brings both under 50 % */
            assert_true(p->read_units / p->suggest_shards < 1500);
            assert_true(p->write_units / p->suggest_shards < 500);
        }
        assert_near(a->table_hot_share, c->hot_share, 1e-8, "table_hot_share", i);
        /* bytes of the hottest value: its items x (1000 + 100) */
        assert_near(p->bytes, 1e6 * c->hot_share * 1100, 1e-8, "bytes", i);
        analysis_free(a);
        design_free(d);
    }
}

/* ---- indexes, shared rows, sparse GSIs, LSIs ------------------------------------------------ */
static const char *index_yaml =
    "keyplan: 1\nname: idx\n"
    "table: { name: Tbl, pk: PK, sk: SK, billing: on-demand, streams: false, pitr: false }\n"
    "indexes:\n"
    "  - { name: GSI, pk: GPK, sk: GSK, projection: all }\n"
    "  - { name: LSI, type: lsi, pk: PK, sk: total, projection: all }\n"
    "attributes:\n"
    "  c: { distinct: 1000 }\n"
    "  total: { type: number }\n"
    "  status: { type: enum, values: { open: 0.1, closed: 0.9 }, write_shares: { open: 0.8, closed: 0.2 } }\n"
    "entities:\n"
    "  - { name: Customer, count: 1000, size: 900, writes: 10, attributes: [c],\n"
    "      keys: { PK: \"C#{c}\", SK: \"PROFILE\" } }\n"
    "  - { name: Order, count: 100000, size: 900, writes: 100, attributes: [c, o, status, total],\n"
    "      keys: { PK: \"C#{c}\", SK: \"O#{o}\", GPK: \"ST#{status}\", GSK: \"{o}\" },\n"
    "      sparse: { GPK: \"status = open\" } }\n"
    "patterns:\n"
    "  - { id: 1, name: open orders, entity: Order, by: [\"status=open\"], rate: 5, latency: 100 }\n"
    "  - { id: 2, name: customer, entity: Customer, by: [c], rate: 100, latency: 20 }\n";

static void test_indexes(void **state)
{
    (void)state;
    kp_design *d = load(index_yaml);
    kp_analysis *a = analysis_run(d);
    /* Customer and Order share the table's C#{c} row; the GSI has one; the LSI none */
    assert_int_equal(a->npartitions, 2);
    const kp_partition_result *t = NULL, *g = NULL;
    for (size_t i = 0; i < a->npartitions; i++) {
        if (a->partitions[i].index == -1)
            t = &a->partitions[i];
        else
            g = &a->partitions[i];
    }
    assert_non_null(t);
    assert_non_null(g);
    assert_string_equal(t->template_src, "C#{c}");
    assert_string_equal(g->template_src, "ST#{status}");
    assert_string_equal(g->index_name, "GSI");
    assert_near(t->distinct, 1000, 1e-12, "table distinct", 0);
    /* the sparse rule keeps one status value: one partition holding all 10,000 open orders */
    assert_near(g->distinct, 1, 1e-12, "gsi distinct", 0);
    assert_near(g->hot_share, 1, 1e-12, "gsi hot share", 0);
    /* table writes: 10 x 1 WCU + 100 x (1 + the LSI's write, on the table's capacity), uniform
     * over 1000 customers */
    double tw0 = 0;
    capacity_entity_write(d, &d->entities[1], KP_OP_PUT, NULL, 0, &tw0, (double[2]){0, 0});
    assert_true(tw0 >= 2);
    assert_near(t->write_units, (10 + 100 * tw0) / 1000, 1e-9, "table write units", 0);
    /* reads on the customer row: 100 gets x 0.5 / 1000 */
    assert_near(t->read_units, 100 * 0.5 / 1000, 1e-9, "table read units", 0);

    assert_int_equal(a->nindexes, 3);
    const kp_index_result *it = &a->indexes[0], *ig = &a->indexes[1], *il = &a->indexes[2];
    assert_string_equal(it->name, "table");
    assert_string_equal(ig->name, "GSI");
    assert_near(it->items, 101000, 1e-12, "table items", 0);
    assert_near(it->bytes, 101000 * 1000.0, 1e-12, "table bytes", 0);
    assert_near(ig->items, 10000, 1e-12, "gsi items", 0);
    assert_near(ig->bytes, 10000 * (capacity_projected_bytes(d, &d->entities[1], 0) + 100), 1e-12,
                "gsi bytes", 0);
    assert_near(il->items, 100000, 1e-12, "lsi items", 0);
    /* GSI writes: the model prices them (capacity), heat sums them */
    double iw[2] = {0, 0}, tw = 0;
    capacity_entity_write(d, &d->entities[1], KP_OP_PUT, NULL, 0, &tw, iw);
    assert_near(ig->wcu_per_s, 100 * iw[0], 1e-9, "gsi wcu", 0);
    assert_true(ig->wcu_per_s > 0);
    /* the GSI's writes all land on its single value */
    assert_near(g->write_units, ig->wcu_per_s, 1e-9, "gsi write units", 0);
    assert_near(ig->write_hot_share, 1, 1e-9, "gsi write hot share", 0);
    assert_near(ig->distinct, 1, 1e-12, "gsi index distinct", 0);
    /* the table's rows hold the LSI's entries too: per customer value 100 orders x (1000 + LSI) */
    double lsi_entry = capacity_projected_bytes(d, &d->entities[1], 1) + 100;
    assert_near(t->bytes, 1 * 1000 + 100 * (1000 + lsi_entry), 1e-9, "table row bytes with LSI", 0);
    assert_int_equal(ig->patterns_served, 1);
    assert_int_equal(it->patterns_served, 1);
    analysis_free(a);
    design_free(d);
}

/* Reads through an LSI land on the table's partitions (they share them). */
static void test_lsi_reads_land_on_table(void **state)
{
    (void)state;
    char *yaml =
        xasprintf("%s  - { id: 3, name: orders by total, entity: Order, by: [c], range: total, rate: 300,\n"
                  "      latency: 20 }\n",
                  index_yaml);
    kp_design *d = load(yaml);
    free(yaml);
    kp_analysis *a = analysis_run(d);
    const kp_pattern_result *p3 = &a->patterns[2];
    assert_int_equal(p3->nsteps, 1);
    assert_int_equal(p3->steps[0].index, 1); /* the LSI */
    const kp_partition_result *t = NULL;
    for (size_t i = 0; i < a->npartitions; i++) {
        assert_true(a->partitions[i].index != 1); /* no LSI rows */
        if (a->partitions[i].index == -1)
            t = &a->partitions[i];
    }
    assert_non_null(t);
    /* 100 customer gets x 0.5 plus 300 LSI queries, spread over 1000 customers */
    assert_near(t->read_units, (100 * 0.5 + 300 * p3->steps[0].rcu) / 1000, 1e-9, "table reads with LSI", 0);
    assert_near(a->indexes[2].rcu_per_s, 300 * p3->steps[0].rcu, 1e-9, "lsi rcu", 0);
    /* and the GSI query reading 10,000 entries 5 times a second melts its single partition */
    const kp_partition_result *g = NULL;
    for (size_t i = 0; i < a->npartitions; i++)
        if (a->partitions[i].index == 0)
            g = &a->partitions[i];
    assert_non_null(g);
    /* (a Query returns at most 1 MB per request: the 10,000 entries come in `count` pages,
       each a request with its own units) */
    const kp_step *gs = &a->patterns[0].steps[0];
    assert_near(g->read_units, 5 * gs->count * gs->rcu, 1e-9, "gsi reads", 0);
    assert_true(g->hot == (g->read_units >= 3000));
    analysis_free(a);
    design_free(d);
}

/* One item collection written with two attribute names: two rows, one set of values. */
static void test_template_families(void **state)
{
    (void)state;
    const char *yaml =
        "keyplan: 1\nname: fam\n"
        "table: { name: Tbl, pk: PK, sk: SK }\n"
        "attributes: { username: { distinct: 1000 }, followed: { distinct: 1000 },\n"
        "              other: { distinct: 10 } }\n"
        "entities:\n"
        "  - { name: User, count: 1000, size: 500, writes: 100, attributes: [username],\n"
        "      keys: { PK: \"USER#{username}\", SK: \"PROFILE\" } }\n"
        "  - { name: Follow, count: 50000, size: 200, writes: 300, attributes: [followed, x],\n"
        "      keys: { PK: \"USER#{followed}\", SK: \"F#{x}\" } }\n"
        "  - { name: Other, count: 10, size: 200, attributes: [other],\n"
        "      keys: { PK: \"O#{other}\", SK: \"X\" } }\n";
    kp_design *d = load(yaml);
    kp_analysis *a = analysis_run(d);
    assert_int_equal(a->npartitions, 3);
    /* USER#{} counts its 1000 values once; O#{} adds 10 */
    assert_near(a->indexes[0].distinct, 1010, 1e-12, "family distinct", 0);
    /* the hottest user value takes both entities' writes: (100 + 300) x 1 unit / 1000 of 400 */
    assert_near(a->indexes[0].write_hot_share, (0.1 + 0.3) / 400, 1e-9, "family write share", 0);
    /* and holds 1 profile + 50 follows of 51,010 items */
    assert_near(a->indexes[0].hot_share, 51.0 / 51010, 1e-9, "family item share", 0);
    analysis_free(a);
    design_free(d);
}

/* ---- CloudShop's first design: keyed by status ----------------------------------------------- */
static const char *first_design =
    "keyplan: 1\nname: first\n"
    "table: { name: CloudShop, pk: PK, sk: SK, billing: provisioned, streams: false, pitr: false }\n"
    "attributes:\n"
    "  orderId: { distinct: 30000000 }\n"
    "  orderDate: { type: date, distinct: 730 }\n"
    "  status:\n"
    "    type: enum\n"
    "    values: { pending-payment: 0.05, paid: 0.03, pending-shipment: 0.02, shipped: 0.10, delivered: 0.71,\n"
    "              cancelled: 0.09 }\n"
    "    write_shares: { pending-payment: 0.60, delivered: 0.34, paid: 0.02, pending-shipment: 0.02,\n"
    "                    shipped: 0.015, cancelled: 0.005 }\n"
    "entities:\n"
    "  - { name: Order, count: 30000000, size: 1200, writes: 900, attributes: [orderId, orderDate, status],\n"
    "      keys: { PK: \"ESTADO#{status}\", SK: \"{orderDate}#{orderId}\" } }\n"
    "patterns:\n"
    "  - { id: 5, name: pending shipment, entity: Order, by: [\"status=pending-shipment\"], rate: 2,\n"
    "      latency: 1000 }\n";

static void test_cloudshop_first_design(void **state)
{
    (void)state;
    kp_design *d = load(first_design);
    kp_analysis *a = analysis_run(d);
    assert_int_equal(a->npartitions, 1);
    const kp_partition_result *p = &a->partitions[0];
    assert_near(p->distinct, 6, 1e-12, "statuses", 0);
    assert_near(p->hot_share, 0.71, 1e-12, "delivered share", 0);
    /* 900 writes/s x 2 units (1,200 B) x 60 % on pending-payment = 1,080 units/s: past 100 % */
    assert_near(p->write_units, 1080, 1e-9, "hottest writes", 0);
    assert_true(p->write_util >= 1.0);
    assert_true(p->hot);
    assert_true(p->suggest_shards >= 3);
    /* two partitions take 94 % of the writes */
    assert_near(p->write_hot_share, 0.60, 1e-9, "write hot share", 0);
    /* while the table is mostly idle: 1,800 units/s of the table's 40,000 */
    assert_near(a->indexes[0].wcu_per_s, 1800, 1e-9, "table wcu", 0);
    assert_true(a->indexes[0].wcu_per_s / 40000 < 0.05);
    analysis_free(a);
    design_free(d);
}

/* ---- distributions of attributes and templates ------------------------------------------------ */
static void test_distrib_template(void **state)
{
    (void)state;
    kp_design *d = load(index_yaml);
    const kp_entity *o = &d->entities[1];
    bool known = false;
    kp_dist t = distrib_template(d, &entity_key(o, "GPK")->tpl, &known);
    assert_true(known);
    assert_int_equal(t.kind, KP_DIST_ENUM);
    assert_near(t.distinct, 2, 1e-12, "enum distinct", 0);
    assert_near(t.hot_share, 0.9, 1e-12, "enum hot", 0);
    assert_near(t.write_hot_share, 0.8, 1e-12, "enum write hot", 0);
    /* O#{o}: o is undeclared: unknown */
    t = distrib_template(d, &entity_key(o, "SK")->tpl, &known);
    assert_false(known);
    assert_int_equal(t.kind, KP_DIST_UNKNOWN);
    assert_true(isnan(t.distinct));
    assert_near(distrib_enum_share(design_attr(d, "status"), "open", true), 0.8, 1e-12, "write share", 0);
    assert_near(distrib_enum_share(design_attr(d, "status"), "open", false), 0.1, 1e-12, "item share", 0);
    assert_near(distrib_enum_share(design_attr(d, "status"), "nope", false), 0, 1e-12, "no value", 0);
    design_free(d);
}

/* ---- nothing to analyse, or half a design: no crash, sane zeros ------------------------------ */
static void test_degenerate_designs(void **state)
{
    (void)state;
    kp_design *d = design_new();
    kp_analysis *a = analysis_run(d);
    assert_int_equal(a->npartitions, 0);
    assert_int_equal(a->nindexes, 1);
    assert_true(a->cost != NULL);
    assert_true(a->cost->total == 0);
    assert_true(a->table_hot_share == 0);
    double v;
    assert_true(analysis_metric(a, "cost.total", &v) && v == 0);
    analysis_free(a);
    design_free(d);

    /* an entity without counts or sizes, keyed by an undeclared attribute, written by a pattern */
    const char *yaml = "keyplan: 1\nname: half\n"
                       "table: { name: Tbl, pk: PK }\n"
                       "entities:\n"
                       "  - { name: E, attributes: [x], keys: { PK: \"{x}\" } }\n"
                       "  - { name: Línea, count: 10, size: 100, attributes: [dirección],\n"
                       "      keys: { PK: \"DIRECCIÓN#{dirección}\" } }\n"
                       "patterns:\n"
                       "  - { id: w, name: write, kind: write, entity: E, rate: 5 }\n"
                       "  - { id: r, name: read, entity: Línea, by: [dirección], rate: 5 }\n";
    d = load(yaml);
    a = analysis_run(d);
    assert_int_equal(a->npartitions, 2);
    for (size_t i = 0; i < a->npartitions; i++) {
        const kp_partition_result *p = &a->partitions[i];
        assert_true(isnan(p->distinct)); /* unknown distributions */
        assert_false(isnan(p->read_units));
        assert_false(isnan(p->write_units));
        assert_false(p->hot);
    }
    assert_string_equal(a->partitions[1].template_src, "DIRECCIÓN#{dirección}");
    /* one unique value per item assumed: 10 items -> the hottest holds 1/10 */
    assert_near(a->partitions[1].hot_share, 0.1, 1e-12, "assumed unique key", 0);
    bool unknown = false;
    for (size_t i = 0; i < a->nfindings; i++)
        if (strcmp(a->findings[i].code, "unknown-distribution") == 0)
            unknown = true;
    assert_true(unknown);
    assert_true(isnan(a->indexes[0].distinct));
    assert_false(isnan(a->cost->total));
    analysis_free(a);
    design_free(d);
}

/* ---- keyplan heat LOG: the hottest keys of an access log --------------------------------------- */
static const struct cli_case {
    const char *args[6];
    const char *input;
    int status;
    const char *out_has[3]; /* in stdout (or stderr when status is 2) */
} cli_cases[] = {
    {{"heat", "-"}, "A\nA\nB\n", 0, {"3 requests", "2 partition keys", "hottest key A: 66.7 %"}},
    /* units and kinds; UTF-8 keys */
    {{"heat"},
     "DIRECCIÓN#casa\tSK\t3\twrite\nB\tX\t1\tread\n",
     0,
     {"DIRECCIÓN#casa: 75.0 % of the units", NULL}},
    /* DynamoDB JSON lines, the partition attribute chosen */
    {{"heat", "--json", "--pk", "userId"},
     "{\"Key\": {\"userId\": {\"S\": \"u1\"}, \"SK\": {\"S\": \"x\"}}, \"ConsumedCapacity\": {\"CapacityUnits\": 2}}\n"
     "{\"userId\": {\"S\": \"u2\"}, \"units\": 1, \"op\": \"PutItem\"}\n",
     0,
     {"\"distinct_keys\": 2", "\"key\": \"u1\"", "\"write_units\": 1.0"}},
    /* over a partition's limit within the time the log covers: exit 1 */
    {{"heat", "--seconds", "1"}, "K\t\t1200\twrite\nL\t\t10\twrite\n", 1, {"HOT", "120.0%", NULL}},
    {{"heat", "--seconds", "10"}, "K\t\t1200\twrite\n", 0, {"12.0%", NULL}},
    /* bad input: place and what was expected, exit 2 */
    {{"heat"},
     "A\nB\tSK\tlots\n",
     2,
     {"<stdin>:2: error: units 'lots': expected a number from 0 to 1e+09 (the units one request consumed)",
      NULL}},
    {{"heat"}, "{\"PK\": \n", 2, {"<stdin>:1: error: bad JSON", NULL}},
    {{"heat"}, "A\t\t1\tsideways\n", 2, {"kind 'sideways' is neither read nor write", NULL}},
    {{"heat", "--top", "-1"}, "A\n", 2, {"--top '-1': expected a whole number >= 0", NULL}},
    /* --top 0: every key (it used to be refused) */
    {{"heat", "--top", "0"}, "A\nB\nC\nD\nE\nF\nG\nH\nI\nJ\nK\nL\n", 0, {"  12  L ", NULL}},
    /* whole words; a terminal escape in a key refused at its line */
    {{"heat"},
     "A\t\t1\twhatever\n",
     2,
     {"<stdin>:1: error: kind 'whatever' is neither read nor write", NULL}},
    {{"heat"}, "A\nB\x1b]0;x\x07\n", 2, {"<stdin>:2: error: a control character in the key at byte 2", NULL}},
    /* --approx and --threads */
    {{"heat", "--approx", "16", "--threads", "2"},
     "A\nA\nB\n",
     0,
     {"approximate: at most 16 keys kept", NULL}},
    {{"heat", "--approx", "3"}, "A\n", 2, {"--approx '3': expected a whole number >= 16", NULL}},
    /* a table large enough for huge pages from the start (its first allocation copied nothing
       from nowhere: undefined behaviour the sanitizers caught) */
    {{"heat", "--approx", "1000000"}, "A\nA\nB\n", 0, {"approximate: at most 1000000 keys kept", NULL}},
    {{"heat", "--threads", "0"}, "A\n", 2, {"--threads '0'", NULL}},
    {{"heat", "a.log", "b.log"}, "", 2, {"one log at a time", NULL}},
    /* parts: PK<TAB>COUNT<TAB>UNITS, refused at their line when they are not */
    {{"heat", "--merge", "-"}, "A\t3\t4.5\nB\t1\t1\n", 0, {"4 requests, 5.5 units, 2 partition keys", NULL}},
    {{"heat", "--merge", "-"},
     "A\t3\t4.5\nB\tSK\n",
     2,
     {"<stdin>:2: error: expected PK<TAB>COUNT<TAB>UNITS", NULL}},
    {{"heat", "--merge", "-"},
     "A\tmany\t1\n",
     2,
     {"<stdin>:1: error: count 'many': expected a number", NULL}},
    /* CloudTrail events, one per line */
    {{"heat"},
     "{\"eventSource\": \"dynamodb.amazonaws.com\", \"eventName\": \"PutItem\", \"requestParameters\": "
     "{\"key\": {\"PK\": \"C#1\"}}}\n"
     "{\"eventSource\": \"dynamodb.amazonaws.com\", \"eventName\": \"BatchWriteItem\"}\n",
     2,
     {"<stdin>:2: error: eventName 'BatchWriteItem': expected a DynamoDB data event on one key", NULL}},
    {{"heat", "/nonexistent/access.log"}, "", 2, {"/nonexistent/access.log", NULL}},
};

static void test_heat_command(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cli_cases / sizeof *cli_cases; i++) {
        const struct cli_case *c = &cli_cases[i];
        char *out = NULL, *err = NULL;
        int st = ts_run_keyplan(c->args, c->input, &out, &err);
        if (st != c->status)
            fail_msg("case %zu: exit %d, expected %d\nstdout: %s\nstderr: %s", i, st, c->status, out, err);
        const char *where = c->status == 2 ? err : out;
        for (size_t k = 0; k < 3 && c->out_has[k]; k++)
            if (!where || !strstr(where, c->out_has[k]))
                fail_msg("case %zu: output lacks '%s':\n%s", i, c->out_has[k], where ? where : "(none)");
        free(out);
        free(err);
    }
}

/* A command that stops before reading its standard input (a refused option) while the test is
 * still writing 1 MiB into it, more than a pipe holds: the test learns the exit status and the
 * message, and is not killed by SIGPIPE (it was, now and then, when the child exited first). */
static void test_heat_command_early_exit(void **state)
{
    (void)state;
    size_t n = (size_t)1 << 20;
    char *input = xmalloc(n + 1);
    for (size_t i = 0; i < n; i += 2)
        memcpy(input + i, "A\n", 2);
    input[n] = '\0';
    const char *args[] = {"heat", "--top", "-1", NULL};
    char *out = NULL, *err = NULL;
    for (int run = 0; run < 3; run++) {
        int st = ts_run_keyplan(args, input, &out, &err);
        assert_int_equal(st, 2);
        assert_non_null(err);
        assert_non_null(strstr(err, "--top '-1': expected a whole number >= 0"));
        free(out);
        free(err);
    }
    free(input);
}

/* The display cell where `needle` ends within the line of `text` holding it (-1: absent). */
static int cells_to_end(const char *text, const char *needle)
{
    const char *at = strstr(text, needle);
    if (!at)
        return -1;
    const char *line = at;
    while (line > text && line[-1] != '\n')
        line--;
    int cells = 0;
    for (const char *p = line; p < at + strlen(needle); p++)
        cells += ((unsigned char)*p & 0xc0) != 0x80; /* one cell per character here */
    return cells;
}

/* heat in Spanish: the report's sentences and headers, the columns still aligned by display cells
 * (an accented header is longer in bytes), and an error keeping its <stdin>:LINE: error: prefix.
 * The catalog is the build's (po/es.po compiled into locale/). */
static void test_heat_spanish(void **state)
{
    (void)state;
    assert_int_equal(setenv("KEYPLAN_LOCALEDIR", KP_BUILD_DIR "/locale", 1), 0);
    const char *args[] = {"--lang", "es", "heat", "--seconds", "0.001", NULL};
    char *out = NULL, *err = NULL;
    int st = ts_run_keyplan(args, "DIRECCIÓN#casa\tSK\t3\twrite\nB\tX\t1\tread\n", &out, &err);
    assert_int_equal(st, 1);
    assert_non_null(strstr(out, "calor de <stdin>: 2 peticiones, 4,0 unidades, 2 claves de partición"));
    assert_non_null(strstr(out, "clave más caliente DIRECCIÓN#casa: 75,0 % de las unidades"));
    assert_non_null(strstr(out, "partición caliente: al menos una clave supera el límite"));
    assert_non_null(strstr(out, "CALIENTE\n"));
    /* the headers end where their columns' figures end */
    const char *header = strstr(out, "\npos.");
    assert_non_null(header);
    header++;
    assert_int_equal(cells_to_end(header, "pos."), 4);
    /* rank 4, key 32, requests 10, share 7, units 11, share 7, read/s 9, read % 7, write/s 9,
       write % 8, one space between columns (two after the rank) */
    assert_int_equal(cells_to_end(header, "peticiones"), 4 + 2 + 32 + 1 + 10);
    assert_int_equal(cells_to_end(header, "escr. %"), 114);
    assert_int_equal(cells_to_end(out, "%  CALIENTE"), 114 + 10); /* the row of DIRECCIÓN#casa */
    free(out);
    free(err);
    const char *bad[] = {"--lang", "es", "heat", NULL};
    st = ts_run_keyplan(bad, "A\n{\"PK\": \n", &out, &err);
    assert_int_equal(st, 2);
    assert_non_null(strstr(err, "<stdin>:2: error: JSON incorrecto en la columna"));
    free(out);
    free(err);
    unsetenv("KEYPLAN_LOCALEDIR");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_harmonic),          cmocka_unit_test(test_heat_table),
        cmocka_unit_test(test_indexes),           cmocka_unit_test(test_lsi_reads_land_on_table),
        cmocka_unit_test(test_template_families), cmocka_unit_test(test_cloudshop_first_design),
        cmocka_unit_test(test_distrib_template),  cmocka_unit_test(test_degenerate_designs),
        cmocka_unit_test(test_heat_command),      cmocka_unit_test(test_heat_command_early_exit),
        cmocka_unit_test(test_heat_spanish),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
