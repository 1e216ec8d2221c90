/* test_planeval.c - what a plan's request returns over a set of items (model/planeval.h): key
 * conditions, sort order both ways, Limit with ties, filters on the index's view, Scans, the
 * capacity rules, anchors and range bounds. One row per query. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "planeval.h"
#include "support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const yaml =
    "keyplan: 1\nname: p\n"
    "table: { name: Ptbl, pk: PK, sk: SK, billing: on-demand, streams: false, pitr: false }\n"
    "indexes:\n"
    "  - { name: ByStatus, pk: GPK, sk: GSK, projection: keys }\n"
    "  - { name: ByScore, pk: SPK, sk: score, projection: include, include: [entityType] }\n"
    "attributes:\n  score: { type: number }\n"
    "entities:\n"
    "  - { name: Order, count: 10, attributes: [c, o, status, score, entityType], keys: { PK: \"C#{c}\", SK: \"O#{o}\","
    " GPK: \"S#{status}\", GSK: \"{o}\", SPK: \"X\" } }\n"
    "  - { name: Note, count: 10, attributes: [c, n], keys: { PK: \"C#{c}\", SK: \"O#{n}#N\" } }\n"
    "patterns:\n"
    "  - { id: 1, name: orders, entity: Order, by: [c], rate: 1, consistency: strong, why: t }\n"
    "  - { id: 2, name: paid, entity: Order, by: [\"status=paid\"], range: o, rate: 1 }\n";

/* The items: Order o1..o5 and Note n2 of customer 1, Order o6 of customer 2. */
static const struct {
    const char *entity, *pk, *sk, *status, *score, *gsk;
} rows[] = {
    {"Order", "C#1", "O#1", "paid", "9", "1"},  {"Order", "C#1", "O#2", "open", "10", "2"},
    {"Order", "C#1", "O#3", "paid", "10", "3"}, {"Order", "C#1", "O#4", "paid", "2", "3"},
    {"Order", "C#1", "O#5", "paid", "30", "5"}, {"Note", "C#1", "O#2#N", NULL, NULL, NULL},
    {"Order", "C#2", "O#6", "paid", "1", "6"},
};
#define NROWS (sizeof rows / sizeof *rows)

typedef struct world {
    kp_design *d;
    kp_item items[NROWS];
    planeval_set set;
} world;

static void world_make(world *w)
{
    memset(w, 0, sizeof *w);
    w->d = ts_load_text(yaml, "p.yaml");
    assert_non_null(w->d);
    for (size_t i = 0; i < NROWS; i++) {
        kp_item *it = &w->items[i];
        item_set(it, "PK", KP_VAL_S, rows[i].pk);
        item_set(it, "SK", KP_VAL_S, rows[i].sk);
        item_set(it, "entityType", KP_VAL_S, rows[i].entity);
        if (rows[i].status) {
            char gpk[32];
            snprintf(gpk, sizeof gpk, "S#%s", rows[i].status);
            item_set(it, "status", KP_VAL_S, rows[i].status);
            item_set(it, "GPK", KP_VAL_S, gpk);
            item_set(it, "GSK", KP_VAL_S, rows[i].gsk);
            item_set(it, "SPK", KP_VAL_S, "X");
            item_set(it, "score", KP_VAL_N, rows[i].score);
            item_set(it, "o", KP_VAL_S, rows[i].sk + 2);
        }
        planeval_set_add(&w->set, w->d, design_entity(w->d, rows[i].entity), it);
    }
}

static void world_free(world *w)
{
    planeval_set_free(&w->set);
    for (size_t i = 0; i < NROWS; i++)
        item_free(&w->items[i]);
    design_free(w->d);
}

/* "SK SK ... | SK ...": the sort keys returned, then the ones tied at the Limit. */
static char *describe(const planeval_result *r)
{
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, "");
    for (size_t i = 0; i < r->n + r->nopt; i++)
        sbuf_printf(&b, "%s%s%s", i ? " " : "", i == r->n && r->nopt ? "| " : "",
                    item_text(r->v[i]->item, "SK"));
    return sbuf_steal(&b);
}

static const struct query_case {
    const char *kc;
    ptrdiff_t index;
    const char *pk, *v1, *v2;
    bool forward;
    double limit;
    const char *want;
    size_t nread;
} queries[] = {
    /* the whole partition, by sort key */
    {"PK = :pk", -1, "C#1", NULL, NULL, true, NAN, "O#1 O#2 O#2#N O#3 O#4 O#5", 6},
    {"PK = :pk", -1, "C#2", NULL, NULL, true, NAN, "O#6", 1},
    {"PK = :pk", -1, "C#9", NULL, NULL, true, NAN, "", 0},
    /* sort-key conditions */
    {"PK = :pk AND SK = :sk", -1, "C#1", "O#3", NULL, true, NAN, "O#3", 1},
    {"PK = :pk AND begins_with(SK, :sk)", -1, "C#1", "O#2", NULL, true, NAN, "O#2 O#2#N", 2},
    {"PK = :pk AND SK BETWEEN :a AND :b", -1, "C#1", "O#2", "O#3", true, NAN, "O#2 O#2#N O#3", 3},
    {"PK = :pk AND SK > :sk", -1, "C#1", "O#4", NULL, true, NAN, "O#5", 1},
    /* ScanIndexForward false and a Limit */
    {"PK = :pk", -1, "C#1", NULL, NULL, false, 2, "O#5 O#4", 2},
    /* a Limit that cuts between items tied on the index's sort key: any of them may come back */
    {"GPK = :pk", 0, "S#paid", NULL, NULL, true, 2, "O#1 | O#3 O#4", 2},
    {"GPK = :pk", 0, "S#paid", NULL, NULL, true, 3, "O#1 O#3 O#4", 3},
    /* a number sort key sorts by value: 2 < 9 < 10 < 10 < 30 (ties by table key) */
    {"SPK = :pk", 1, "X", NULL, NULL, true, NAN, "O#6 O#4 O#1 O#2 O#3 O#5", 6},
    {"SPK = :pk AND score < :s", 1, "X", "10", NULL, true, NAN, "O#6 O#4 O#1", 3},
};

static void test_queries(void **state)
{
    (void)state;
    world w;
    world_make(&w);
    for (size_t i = 0; i < sizeof queries / sizeof *queries; i++) {
        const struct query_case *c = &queries[i];
        expr_keycond kc;
        char *err = NULL;
        assert_int_equal(expr_keycond_parse(c->kc, NULL, 0, &kc, &err), KP_OK);
        planeval_query q = {c->index, &kc, c->pk, c->v1, c->v2, c->forward, c->limit};
        planeval_result r;
        planeval_query_run(w.d, &w.set, &q, &r);
        char *have = describe(&r);
        if (strcmp(have, c->want) != 0 || r.nread != c->nread)
            fail_msg("case %zu %s: '%s' (%zu read), expected '%s' (%zu read)", i, c->kc, have, r.nread,
                     c->want, c->nread);
        free(have);
        planeval_result_free(&r);
        expr_keycond_free(&kc);
    }
    world_free(&w);
}

/* Filters see the item as the index projects it; an unreadable filter falls back on `by`. */
static void test_filters_and_scans(void **state)
{
    (void)state;
    world w;
    world_make(&w);
    kp_item vals = {0};
    item_set(&vals, ":e", KP_VAL_S, "Order");
    item_set(&vals, ":paid", KP_VAL_S, "paid");
    static const struct {
        ptrdiff_t index;
        const char *filter;
        const char *want;
    } cases[] = {
        {-1, "entityType = :e", "O#1 O#2 O#3 O#4 O#5 O#6"},
        {-1, "status = :paid", "O#1 O#3 O#4 O#5 O#6"},
        {0, "entityType = :e", ""},                        /* a keys-only index does not project it */
        {1, "entityType = :e", "O#6 O#4 O#1 O#2 O#3 O#5"}, /* this one does */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        planeval_result r;
        planeval_scan(w.d, &w.set, cases[i].index, &r);
        if (cases[i].index == 1) { /* a scan reads in the set's order; sort by score for the row */
            expr_keycond kc;
            char *err = NULL;
            assert_int_equal(expr_keycond_parse("SPK = :pk", NULL, 0, &kc, &err), KP_OK);
            planeval_query q = {1, &kc, "X", NULL, NULL, true, NAN};
            planeval_result_free(&r);
            planeval_query_run(w.d, &w.set, &q, &r);
            expr_keycond_free(&kc);
        }
        assert_int_equal(r.nread, r.n);
        kp_expr e;
        expr_parse(cases[i].filter, NULL, 0, &e);
        planeval_filter(w.d, cases[i].index, &e, &vals, NULL, NULL, &r);
        char *have = describe(&r);
        if (strcmp(have, cases[i].want) != 0)
            fail_msg("case %zu '%s': '%s', expected '%s'", i, cases[i].filter, have, cases[i].want);
        free(have);
        expr_free(&e);
        planeval_result_free(&r);
    }
    /* a filter that cannot be evaluated: the pattern's fixed `by` values decide */
    planeval_result r;
    planeval_scan(w.d, &w.set, -1, &r);
    kp_expr raw;
    expr_parse("size(tags) > :n", NULL, 0, &raw);
    planeval_filter(w.d, -1, &raw, &vals, design_pattern(w.d, "2"), NULL, &r);
    char *have = describe(&r);
    assert_string_equal(have, "O#1 O#3 O#4 O#5 O#6");
    free(have);
    planeval_result_free(&r);
    /* ... and without a pattern nothing passes */
    planeval_scan(w.d, &w.set, -1, &r);
    planeval_filter(w.d, -1, &raw, &vals, NULL, NULL, &r);
    assert_int_equal(r.n, 0);
    planeval_result_free(&r);
    expr_free(&raw);
    item_free(&vals);
    world_free(&w);
}

static void test_capacity(void **state)
{
    (void)state;
    world w;
    world_make(&w);
    const kp_item *o1 = &w.items[0];
    /* the keys-only index reads fewer bytes than the table */
    size_t whole = planeval_read_bytes(w.d, -1, o1), keys = planeval_read_bytes(w.d, 0, o1);
    assert_int_equal(whole, item_size(o1));
    assert_true(keys < whole);
    kp_item view;
    planeval_project(w.d, 0, o1, &view);
    assert_non_null(item_get(&view, "GPK"));
    assert_non_null(item_get(&view, "PK"));
    assert_null(item_get(&view, "entityType"));
    item_free(&view);
    /* 4 KB units, at least one */
    assert_true(planeval_read_units(0) == 1);
    assert_true(planeval_read_units(4096) == 1);
    assert_true(planeval_read_units(4097) == 2);
    /* strong on the table, eventual on a GSI */
    const kp_pattern *p1 = design_pattern(w.d, "1"), *p2 = design_pattern(w.d, "2");
    assert_true(planeval_read_factor(w.d, p1, -1) == 1);
    assert_true(planeval_read_factor(w.d, p1, 0) == 0.5);
    assert_true(planeval_read_factor(w.d, p2, -1) == 0.5);
    /* a write: the item's unit plus one per index holding it; a note is on no index */
    assert_true(planeval_write_units(w.d, o1) == 3);
    assert_true(planeval_write_units(w.d, &w.items[5]) == 1);
    world_free(&w);
}

/* The anchor against its definition, counted the slow way: the first item (in the list's order)
 * that the pattern's fixed values allow, of the partition with the most items on the index. Random
 * lists with ties, items off the index and items the fixed value refuses, on the table and on a GSI. */
static void test_anchor_random(void **state)
{
    (void)state;
    world w;
    world_make(&w);
    static const char *const pks[] = {"S#paid", "S#open", "S#x", "S#y"};
    static const char *const statuses[] = {"paid", "open"};
    unsigned seed = 12345;
    for (int round = 0; round < 400; round++) {
        kp_item_list items = {0};
        size_t n = (size_t)(rand_r(&seed) % 12);
        for (size_t i = 0; i < n; i++) {
            kp_item *it = item_list_push(&items);
            memset(it, 0, sizeof *it);
            const char *pk = pks[rand_r(&seed) % 4];
            if (rand_r(&seed) % 8) { /* now and then off both: no partition key */
                item_set(it, "GPK", KP_VAL_S, pk);
                item_set(it, "PK", KP_VAL_S, pk);
            }
            if (rand_r(&seed) % 4) /* now and then off the GSI: no sort key there */
                item_set(it, "GSK", KP_VAL_S, "1");
            item_set(it, "SK", KP_VAL_S, "O#1");
            item_set(it, "status", KP_VAL_S, statuses[rand_r(&seed) % 2]);
        }
        for (int k = 0; k < 2; k++) {
            const kp_pattern *p = design_pattern(w.d, k ? "2" : "1"); /* 2 fixes status=paid */
            ptrdiff_t index = k ? 0 : -1;
            const char *pka = k ? "GPK" : "PK", *ska = k ? "GSK" : "SK";
            const kp_item *want = NULL;
            size_t want_n = 0;
            for (size_t i = 0; i < items.n; i++) {
                const kp_item *it = &items.v[i];
                const char *v = item_text(it, pka);
                if (!v || !item_get(it, ska) || (k && strcmp(item_text(it, "status"), "paid") != 0))
                    continue;
                size_t c = 0;
                for (size_t j = 0; j < items.n; j++)
                    c += item_text(&items.v[j], pka) && item_get(&items.v[j], ska) &&
                         strcmp(item_text(&items.v[j], pka), v) == 0;
                if (c > want_n) {
                    want = it;
                    want_n = c;
                }
            }
            assert_ptr_equal(planeval_anchor(w.d, p, index, &items), want);
        }
        item_list_free(&items);
    }
    world_free(&w);
}

static void test_anchor_and_ranges(void **state)
{
    (void)state;
    world w;
    world_make(&w);
    kp_item_list orders = {0};
    for (size_t i = 0; i < NROWS; i++)
        if (strcmp(rows[i].entity, "Order") == 0)
            item_copy(item_list_push(&orders), &w.items[i]);
    /* the partition with the most items, among the items the pattern's fixed values allow */
    const kp_item *a = planeval_anchor(w.d, design_pattern(w.d, "1"), -1, &orders);
    assert_string_equal(item_text(a, "PK"), "C#1");
    a = planeval_anchor(w.d, design_pattern(w.d, "2"), 0, &orders);
    assert_string_equal(item_text(a, "status"), "paid");
    /* range bounds: a quarter and three quarters in among the anchor's partition's values */
    kp_item lo, hi;
    planeval_range_bounds(w.d, &w.set, design_pattern(w.d, "2"), design_entity(w.d, "Order"), 0, a, &lo, &hi);
    assert_string_equal(item_text(a, "o"), "1");
    assert_string_equal(item_text(&lo, "o"), "3"); /* of 1 3 4 5 6 */
    assert_string_equal(item_text(&hi, "o"), "5");
    assert_string_equal(item_text(&lo, "PK"), item_text(a, "PK")); /* copies of the anchor */
    item_free(&lo);
    item_free(&hi);
    item_list_free(&orders);
    /* fan-out values */
    const kp_attr shard = {.name = "shard", .type = KP_ATTR_SHARD, .shard_count = 4};
    assert_int_equal(planeval_value_count(&shard), 4);
    kp_item it = {0};
    planeval_set_value(&it, &shard, 3);
    assert_string_equal(item_text(&it, "shard"), "3");
    assert_int_equal(item_get(&it, "shard")->type, KP_VAL_N);
    item_free(&it);
    world_free(&w);
}

/* Key texts tell items apart; the set finds them. */
static void test_keys(void **state)
{
    (void)state;
    world w;
    world_make(&w);
    char *k = planeval_key_text(w.d, &w.items[2]);
    assert_string_equal(k, "PK=C#1, SK=O#3");
    assert_ptr_equal(planeval_set_find(&w.set, k)->item, &w.items[2]);
    free(k);
    assert_null(planeval_set_find(&w.set, "PK=C#3, SK=O#1"));
    kp_item none = {0};
    k = planeval_key_text(w.d, &none);
    assert_string_equal(k, "?");
    free(k);
    assert_false(planeval_on_index(w.d, 0, &w.items[5])); /* the note has no GPK */
    assert_true(planeval_on_index(w.d, -1, &w.items[5]));
    world_free(&w);
}

/* `order:` over every item of the partition: the returned items must be the partition's first
 * by the order attribute, not merely in order among themselves. One row per request. */
static const struct order_case {
    const char *attr;
    bool desc;
    bool forward;
    double limit;
    ptrdiff_t want; /* the first returned item out of place, -1 none */
    const char *got, *expected;
} order_cases[] = {
    /* the sort key O#1..O#5 orders o: the first two by o are the first two returned */
    {"o", false, true, 2, -1, NULL, NULL},
    {"o", true, false, 3, -1, NULL, NULL},
    /* ... but not score: O#1 (9) and O#2 (10) come back in increasing score, yet the partition's
       lowest scores are 2 and 9; asked desc, 30 should have come first */
    {"score", false, true, 2, 0, "9", "2"},
    {"score", true, false, 1, -1, NULL, NULL}, /* O#5 has 30: right by chance for one item... */
    {"score", true, false, 2, 1, "2", "10"},   /* ...then O#4 (2) where 10 belongs */
};

static void test_order_over_partition(void **state)
{
    (void)state;
    world w;
    world_make(&w);
    expr_keycond kc;
    assert_int_equal(expr_keycond_parse("PK = :pk", NULL, 0, &kc, NULL), KP_OK);
    kp_str ents[1] = {{"Order", {0, 0}}};
    for (size_t i = 0; i < sizeof order_cases / sizeof *order_cases; i++) {
        const struct order_case *c = &order_cases[i];
        planeval_query q = {
            .index = -1, .kc = &kc, .pk_value = "C#1", .forward = c->forward, .limit = c->limit};
        planeval_result res;
        planeval_query_run(w.d, &w.set, &q, &res);
        kp_pattern p = {
            .entities = ents, .nentities = 1, .order = {(char *)c->attr, {0, 0}}, .order_desc = c->desc};
        const kp_value *got, *want;
        ptrdiff_t bad = planeval_order_break(w.d, &w.set, &q, NULL, NULL, &p, res.v, res.n, &got, &want);
        if (bad != c->want)
            fail_msg("case %zu: break at %td, expected %td", i, bad, c->want);
        if (bad >= 0) {
            assert_string_equal(got->text, c->got);
            assert_string_equal(want->text, c->expected);
        }
        planeval_result_free(&res);
    }
    /* a filter takes part: kept items only (status = paid drops O#2's 10) */
    kp_expr f;
    expr_parse("status = :s", NULL, 0, &f);
    kp_item vals = {0};
    item_set(&vals, ":s", KP_VAL_S, "paid");
    planeval_query q = {.index = -1, .kc = &kc, .pk_value = "C#1", .forward = false, .limit = NAN};
    planeval_result res;
    planeval_query_run(w.d, &w.set, &q, &res);
    planeval_filter(w.d, -1, &f, &vals, NULL, NULL, &res);
    kp_pattern p = {.entities = ents, .nentities = 1, .order = {"o", {0, 0}}, .order_desc = true};
    const kp_value *got, *want;
    assert_int_equal(planeval_order_break(w.d, &w.set, &q, &f, &vals, &p, res.v, res.n, &got, &want), -1);
    planeval_result_free(&res);
    item_free(&vals);
    expr_free(&f);
    expr_keycond_free(&kc);
    world_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_queries),
        cmocka_unit_test(test_filters_and_scans),
        cmocka_unit_test(test_capacity),
        cmocka_unit_test(test_anchor_and_ranges),
        cmocka_unit_test(test_anchor_random),
        cmocka_unit_test(test_keys),
        cmocka_unit_test(test_order_over_partition),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
