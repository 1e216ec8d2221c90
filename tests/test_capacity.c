/* test_capacity.c - table-driven tests of the unit arithmetic (model/capacity.h): read units per
 * operation and consistency, write units, size estimates, sparse shares and the units one
 * logical write of an entity costs on the table and on each index. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "capacity.h"
#include "design_io.h"
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NEAR(a, b) (fabs((a) - (b)) < 1e-6)

static void check_near(double got, double want, const char *what, size_t i)
{
    if (!NEAR(got, want))
        fail_msg("case %zu (%s): got %.6f, expected %.6f", i, what, got, want);
}

/* ---- read units ------------------------------------------------------------------------- */

typedef enum { R_GET, R_QUERY, R_BATCH, R_SCAN } rop;

static const struct read_case {
    const char *what;
    rop op;
    double items, bytes;
    kp_consistency c;
    double want;
} read_cases[] = {
    /* the developer guide: 1,500 items of 64 B in one Query = 96,000 B -> 24 units strong */
    {"guide query strong", R_QUERY, 1500, 64, KP_STRONG, 24},
    {"guide query eventual", R_QUERY, 1500, 64, KP_EVENTUAL, 12},
    {"guide query transactional", R_QUERY, 1500, 64, KP_TRANSACTIONAL, 48},
    /* a 20 KB item read by GetItem = 5 units strong */
    {"20 KB get strong", R_GET, 1, 20480, KP_STRONG, 5},
    {"20 KB get eventual", R_GET, 1, 20480, KP_EVENTUAL, 2.5},
    {"5 KB costs twice 4 KB", R_GET, 1, 5000, KP_STRONG, 2},
    {"exactly 4 KB", R_GET, 1, 4096, KP_STRONG, 1},
    {"4 KB + 1 B", R_GET, 1, 4097, KP_STRONG, 2},
    {"tiny get", R_GET, 1, 10, KP_EVENTUAL, 0.5},
    {"missing item still costs", R_GET, 1, 0, KP_STRONG, 1},
    {"empty query costs one unit", R_QUERY, 0, 100, KP_EVENTUAL, 0.5},
    /* Query sums then rounds once; BatchGetItem rounds each item */
    {"query 3 x 1 KB", R_QUERY, 3, 1024, KP_STRONG, 1},
    {"batch 3 x 1 KB", R_BATCH, 3, 1024, KP_STRONG, 3},
    {"batch 10 x 5 KB eventual", R_BATCH, 10, 5000, KP_EVENTUAL, 10},
    {"query 10 x 5 KB eventual", R_QUERY, 10, 5000, KP_EVENTUAL, 6.5},
    {"query fractional average", R_QUERY, 2.5, 800, KP_EVENTUAL, 0.5},
    /* Scan reads the whole table */
    {"scan 1 GB eventual", R_SCAN, 1, 1073741824.0, KP_EVENTUAL, 131072},
    {"scan 36 GB strong", R_SCAN, 1, 40000000.0 * 900, KP_STRONG, 8789063},
};

static void test_read_units(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof read_cases / sizeof *read_cases; i++) {
        const struct read_case *c = &read_cases[i];
        double got = 0;
        switch (c->op) {
        case R_GET:
            got = capacity_get_rcu(c->bytes, c->c);
            break;
        case R_QUERY:
            got = capacity_query_rcu(c->items, c->bytes, c->c);
            break;
        case R_BATCH:
            got = capacity_batchget_rcu(c->items, c->bytes, c->c);
            break;
        case R_SCAN:
            got = capacity_scan_rcu(c->bytes, c->c);
            break;
        }
        check_near(got, c->want, c->what, i);
    }
}

static const struct write_case {
    double bytes;
    bool tx;
    double want;
} write_cases[] = {
    {20480, false, 20}, /* the guide's 20 KB item: 20 write units */
    {20480, true, 40},  {1024, false, 1}, {1025, false, 2}, {1, false, 1},
    {0, false, 1},      {1200, false, 2}, {1200, true, 4},  {409600, false, 400},
};

static void test_write_units(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof write_cases / sizeof *write_cases; i++)
        check_near(capacity_write_units(write_cases[i].bytes, write_cases[i].tx), write_cases[i].want,
                   "write", i);
}

static void test_factors_and_pages(void **state)
{
    (void)state;
    check_near(capacity_read_factor(KP_EVENTUAL), 0.5, "eventual", 0);
    check_near(capacity_read_factor(KP_STRONG), 1, "strong", 1);
    check_near(capacity_read_factor(KP_TRANSACTIONAL), 2, "transactional", 2);
    check_near(capacity_pages(0), 1, "pages 0", 3);
    check_near(capacity_pages(1048576), 1, "pages 1 MB", 4);
    check_near(capacity_pages(1048577), 2, "pages 1 MB + 1", 5);
    check_near(capacity_pages(36e9), ceil(36e9 / 1048576), "pages 36 GB", 6);
    /* a Query's pages: items until 1 MB is reached, the crossing one in (DynamoDB Local's answers
       in tests/data/rules/reads-pages: four 300 KB items in one page, four of 390 KB in two) */
    static const struct {
        double items, bytes, pages;
    } qp[] = {
        {4, 4 * 300000.0, 1},     {4, 4 * 390000.0, 2}, {8, 8 * 300000.0, 2}, {0, 0, 1}, {1, 100, 1},
        {68493, 68493 * 63.0, 5}, /* CloudShop's daily close on GSI2 */
        {1e6, 1e6 * 1024, 977},   {NAN, 1, 1},          {1, INFINITY, 1},
    };
    for (size_t i = 0; i < sizeof qp / sizeof *qp; i++)
        check_near(capacity_query_pages(qp[i].items, qp[i].bytes), qp[i].pages, "query pages", 10 + i);
}

/* ---- designs ---------------------------------------------------------------------------- */

static const char *DESIGN =
    "keyplan: 1\n"
    "name: capacity test\n"
    "table: { name: Tbl, pk: PK, sk: SK, billing: on-demand, streams: false, pitr: false }\n"
    "indexes:\n"
    "  - { name: GSI1, pk: GSI1PK, sk: GSI1SK, projection: include, include: [orderId, total] }\n"
    "  - { name: GSI2, pk: GSI2PK, sk: GSI2SK, projection: keys }\n"
    "  - { name: ByCustomer, pk: customerId, sk: orderDate, projection: all }\n"
    "  - { name: ByTotal, type: lsi, pk: PK, sk: total, projection: all }\n"
    "  - { name: Escalated, pk: escalatedTo, projection: all }\n"
    "attributes:\n"
    "  orderId: { distinct: 1000000 }\n"
    "  customerId: { distinct: 1000 }\n"
    "  orderDate: { type: date }\n"
    "  lineNo: { type: number, format: \"03\" }\n"
    "  total: { type: number }\n"
    "  status: { type: enum, values: { open: 0.1, paid: 0.3, done: 0.6 } }\n"
    "  shard: { type: shard, count: 10 }\n"
    "entities:\n"
    "  - name: Order\n"
    "    count: 1000000\n"
    "    size: 1200\n"
    "    attributes: [orderId, customerId, orderDate, status, total]\n"
    "    keys: { PK: \"PEDIDO#{orderId}\", SK: \"CABECERA\", GSI1PK: \"ESTADO#{status}\",\n"
    "            GSI1SK: \"{orderDate}#{orderId}\", GSI2PK: \"FECHA#{orderDate}\", GSI2SK: \"{orderId}\" }\n"
    "  - name: OpenOrder\n"
    "    count: 1000000\n"
    "    size: 1200\n"
    "    attributes: [orderId, status, orderDate]\n"
    "    keys: { PK: \"OPEN#{orderId}\", SK: \"X\", GSI1PK: \"ESTADO#{status}\", GSI1SK: \"{orderDate}\" }\n"
    "    sparse: { GSI1PK: \"status = open\" }\n"
    "  - name: Ticket\n"
    "    count: 5000\n"
    "    size: 300\n"
    "    attributes: [ticketId, escalatedTo]\n"
    "    keys: { PK: \"T#{ticketId}\", SK: \"T\" }\n"
    "    sparse: { escalatedTo: 0.05 }\n"
    "  - name: Promo\n"
    "    count: 1000\n"
    "    size: 100\n"
    "    attributes: [promoId]\n"
    "    keys: { PK: \"PROMO#{promoId}\", SK: \"P\", GSI1PK: \"P#{promoId}\", GSI1SK: \"X\" }\n"
    "    sparse: { GSI1PK: 0.5, GSI1SK: 0.5 }\n"
    "  - name: Coupon\n"
    "    count: 1000\n"
    "    size: 100\n"
    "    attributes: [couponId]\n"
    "    keys: { PK: \"COUPON#{couponId}\", SK: \"C\", GSI1PK: \"C#{couponId}\", GSI1SK: \"X\" }\n"
    "    sparse: { GSI1PK: 0.5, GSI1SK: 0.5 }\n"
    "    together: [GSI1PK, GSI1SK]\n"
    "  - name: Flagged\n"
    "    count: 1000\n"
    "    size: 100\n"
    "    attributes: [flagId, status]\n"
    "    keys: { PK: \"FLAG#{flagId}\", SK: \"F\", GSI1PK: \"ESTADO#{status}\", GSI1SK: \"{flagId}\" }\n"
    "    sparse: { GSI1PK: \"status = open\", GSI1SK: \"status = open\" }\n"
    "  - name: Line\n"
    "    count: 100\n"
    "    size: 20480\n"
    "    attributes: [orderId, lineNo]\n"
    "    keys: { PK: \"PEDIDO#{orderId}\", SK: \"LINEA#{lineNo}\" }\n"
    "patterns:\n"
    "  - { id: 1, name: get, entity: Order, by: [orderId] }\n";

static kp_design *load(const char *text)
{
    kp_design *d = ts_load_text(text, "capacity.yaml");
    if (!d)
        fail_msg("the test design does not load");
    return d;
}

static int setup(void **state)
{
    *state = load(DESIGN);
    return 0;
}

static int teardown(void **state)
{
    design_free(*state);
    return 0;
}

static ptrdiff_t ix(const kp_design *d, const char *name) { return design_index_pos(d, name); }

static void test_value_and_key_bytes(void **state)
{
    const kp_design *d = *state;
    const kp_entity *order = design_entity(d, "Order"), *line = design_entity(d, "Line");
    /* values by type */
    check_near(capacity_value_bytes(d, "orderDate", NULL), 10, "date", 0);
    check_near(capacity_value_bytes(d, "lineNo", NULL), 3, "number with format 03", 1);
    check_near(capacity_value_bytes(d, "lineNo", "05"), 5, "inline format wins", 2);
    check_near(capacity_value_bytes(d, "total", NULL), 8, "number", 3);
    check_near(capacity_value_bytes(d, "status", NULL), (4 + 4 + 4) / 3.0, "enum average name", 4);
    check_near(capacity_value_bytes(d, "shard", NULL), 1, "shard digits", 5);
    check_near(capacity_value_bytes(d, "undeclared", NULL), CAP_DEFAULT_VALUE_BYTES, "string", 6);
    /* key attributes: name + literals + placeholder values */
    check_near(capacity_key_bytes(d, order, "PK"), 2 + 7 + 8, "PK PEDIDO#{orderId}", 7);
    check_near(capacity_key_bytes(d, order, "SK"), 2 + 8, "SK CABECERA", 8);
    check_near(capacity_key_bytes(d, line, "SK"), 2 + 6 + 3, "SK LINEA#{lineNo} (03)", 9);
    check_near(capacity_key_bytes(d, order, "customerId"), 10 + 8, "plain attribute", 10);
    check_near(capacity_key_bytes(d, order, "GSI2PK"), 6 + 6 + 10, "GSI2PK FECHA#{orderDate}", 11);
}

static void test_membership_and_share(void **state)
{
    const kp_design *d = *state;
    static const struct {
        const char *entity, *index;
        bool on;
        double share;
    } cases[] = {
        {"Order", NULL, true, 1},
        {"Order", "GSI1", true, 1},
        {"Order", "ByCustomer", true, 1},
        {"Order", "ByTotal", true, 1},
        {"Order", "Escalated", false, 0},
        {"OpenOrder", "GSI1", true, 0.1},
        {"OpenOrder", "GSI2", false, 0},
        {"OpenOrder", "ByCustomer", false, 0},
        {"Ticket", "Escalated", true, 0.05},
        {"Ticket", "GSI1", false, 0},
        {"Line", "ByTotal", false, 0},
        {"Line", "ByCustomer", false, 0},
        /* DynamoDB indexes an item when it has every key attribute of the index: sparse rules on
         * GSI1PK and GSI1SK set together (the default) are one membership, not a product */
        {"Promo", "GSI1", true, 0.5},
        {"Flagged", "GSI1", true, 0.1},
        /* `together: [GSI1PK, GSI1SK]`: two groups of one, each set on its own: independent */
        {"Coupon", "GSI1", true, 0.25},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const kp_entity *e = design_entity(d, cases[i].entity);
        ptrdiff_t x = cases[i].index ? ix(d, cases[i].index) : -1;
        if (capacity_on_index(d, e, x) != cases[i].on)
            fail_msg("case %zu: %s on %s: got %d", i, cases[i].entity,
                     cases[i].index ? cases[i].index : "table", !cases[i].on);
        check_near(capacity_index_share(d, e, x), cases[i].share, "share", i);
    }
}

static void test_projected_bytes(void **state)
{
    const kp_design *d = *state;
    const kp_entity *order = design_entity(d, "Order");
    double pk = 2 + 7 + 8, sk = 2 + 8;
    double g1pk = 6 + 7 + 4, g1sk = 6 + 10 + 1 + 8;
    double g2pk = 6 + 6 + 10, g2sk = 6 + 8;
    check_near(capacity_projected_bytes(d, order, -1), 1200, "table", 0);
    check_near(capacity_projected_bytes(d, order, ix(d, "ByCustomer")), 1200, "all", 1);
    check_near(capacity_projected_bytes(d, order, ix(d, "GSI2")), pk + sk + g2pk + g2sk, "keys", 2);
    /* include [orderId, total]: each name + value */
    check_near(capacity_projected_bytes(d, order, ix(d, "GSI1")), pk + sk + g1pk + g1sk + (7 + 8) + (5 + 8),
               "include", 3);
    /* never more than the item itself */
    const kp_entity *line = design_entity(d, "Line");
    assert_true(capacity_projected_bytes(d, line, -1) <= 20480);
}

static const struct ew_case {
    const char *entity;
    kp_write_op op;
    const char *changes[3];
    double table;
    /* GSI1, GSI2, ByCustomer, ByTotal (LSI: always 0 here), Escalated */
    double idx[5];
} ew_cases[] = {
    /* Order 1200 B: 2 WCU on the table; GSI1 include entry < 1 KB: 1; GSI2 keys: 1;
     * ByCustomer all: 2; LSI ByTotal all: 2 more on the TABLE's capacity */
    {"Order", KP_OP_PUT, {NULL}, 2 + 2, {1, 1, 2, 0, 0}},
    {"Order", KP_OP_DELETE, {NULL}, 2 + 2, {1, 1, 2, 0, 0}},
    /* a transaction doubles every write, the indexes' too: DynamoDB Local's ConsumedCapacity
     * (INDEXES) of a TransactWriteItems Put charges each index entry what it charges the table's
     * item */
    {"Order", KP_OP_TRANSACT, {NULL}, 4 + 4, {2, 2, 4, 0, 0}},
    /* status is a key placeholder of GSI1: delete + put there; GSI2 keys-only untouched */
    {"Order", KP_OP_UPDATE, {"status"}, 2 + 2, {2, 0, 2, 0, 0}},
    /* orderDate is in GSI1SK, GSI2PK and ByCustomer's sort key */
    {"Order", KP_OP_UPDATE, {"orderDate"}, 2 + 2, {2, 2, 4, 0, 0}},
    /* changes not said: keys-only GSI2 gets 0, include/all 1 write (projected attributes assumed
     * touched) */
    {"Order", KP_OP_UPDATE, {NULL}, 2 + 2, {1, 0, 2, 0, 0}},
    /* an index is written only when it changes (DynamoDB Local, UpdateItem with
     * ReturnConsumedCapacity INDEXES): total is in GSI1's include and is ByTotal's sort key (an LSI:
     * delete + put on the table's capacity); GSI2 keys-only untouched */
    {"Order", KP_OP_UPDATE, {"total"}, 2 + 4, {1, 0, 2, 0, 0}},
    /* customerId is neither projected by GSI1 nor in its key: GSI1 costs nothing */
    {"Order", KP_OP_UPDATE, {"customerId"}, 2 + 2, {0, 0, 4, 0, 0}},
    /* orderId is in the table's key: DynamoDB cannot update it; a Delete and a Put in one
     * transaction: table 2 x 4, the LSI and every index delete + put, doubled */
    {"Order", KP_OP_UPDATE, {"orderId"}, 8 + 8, {4, 4, 8, 0, 0}},
    /* sparse condition status = open (share 0.1): put lands on GSI1 for 10 % */
    {"OpenOrder", KP_OP_PUT, {NULL}, 2, {0.1, 0, 0, 0, 0}},
    /* changing the condition attribute: the item enters or leaves: min(1, 2 x 0.1) */
    {"OpenOrder", KP_OP_UPDATE, {"status"}, 2, {0.2, 0, 0, 0, 0}},
    /* sparse share 0.05 on Escalated */
    {"Ticket", KP_OP_PUT, {NULL}, 1, {0, 0, 0, 0, 0.05}},
    {"Ticket", KP_OP_UPDATE, {"escalatedTo"}, 1, {0, 0, 0, 0, 0.1}},
    /* one membership of the pair set together: half the puts reach GSI1, not a quarter */
    {"Promo", KP_OP_PUT, {NULL}, 1, {0.5, 0, 0, 0, 0}},
    {"Coupon", KP_OP_PUT, {NULL}, 1, {0.25, 0, 0, 0, 0}},
    /* the guide's 20 KB item: 20 write units, 40 transactional */
    {"Line", KP_OP_PUT, {NULL}, 20, {0, 0, 0, 0, 0}},
    {"Line", KP_OP_TRANSACT, {NULL}, 40, {0, 0, 0, 0, 0}},
};

static void test_entity_write(void **state)
{
    const kp_design *d = *state;
    assert_int_equal(d->nindexes, 5);
    for (size_t i = 0; i < sizeof ew_cases / sizeof *ew_cases; i++) {
        const struct ew_case *c = &ew_cases[i];
        kp_str ch[3];
        size_t n = 0;
        while (n < 3 && c->changes[n]) {
            ch[n].s = (char *)c->changes[n];
            ch[n].loc = (kp_loc){0, 0};
            n++;
        }
        double table = -1, idx[5] = {-1, -1, -1, -1, -1};
        capacity_entity_write(d, design_entity(d, c->entity), c->op, ch, n, &table, idx);
        char what[64];
        snprintf(what, sizeof what, "%s %s table", c->entity, kp_write_op_name(c->op));
        check_near(table, c->table, what, i);
        for (size_t k = 0; k < 5; k++) {
            snprintf(what, sizeof what, "%s %s %s", c->entity, kp_write_op_name(c->op), d->indexes[k].name);
            check_near(idx[k], c->idx[k], what, i);
        }
    }
}

static void test_changes_index_key(void **state)
{
    const kp_design *d = *state;
    const kp_entity *order = design_entity(d, "Order");
    assert_true(capacity_changes_index_key(d, order, ix(d, "GSI1"), "status"));
    assert_true(capacity_changes_index_key(d, order, ix(d, "GSI1"), "GSI1PK"));
    assert_false(capacity_changes_index_key(d, order, ix(d, "GSI1"), "total"));
    assert_true(capacity_changes_index_key(d, order, ix(d, "ByCustomer"), "customerId"));
    assert_true(capacity_changes_index_key(d, order, -1, "orderId"));
    assert_false(capacity_changes_index_key(d, order, -1, "status"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_units),
        cmocka_unit_test(test_write_units),
        cmocka_unit_test(test_factors_and_pages),
        cmocka_unit_test_setup_teardown(test_value_and_key_bytes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_membership_and_share, setup, teardown),
        cmocka_unit_test_setup_teardown(test_projected_bytes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_entity_write, setup, teardown),
        cmocka_unit_test_setup_teardown(test_changes_index_key, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
