/* test_design_yaml.c - the design file: load, canonical save and round trips (every sample under
 * samples/, a rich inline design using every feature, UTF-8 names), plus the refusals that are
 * not simple line/column cases (billion laughs, invalid UTF-8, empty files, missing files). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "design_io.h"
#include "support.h"

#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Loads text that must be valid; fails the test with every diagnostic otherwise. */
static kp_design *load_ok(const char *text, const char *name)
{
    kp_diags dg;
    diags_init(&dg, name);
    kp_design *d = designio_load_string(text, strlen(text), name, &dg);
    if (!d || dg.errors) {
        for (size_t i = 0; i < dg.n; i++) {
            char *s = diags_format(&dg, i);
            print_error("%s\n", s);
            free(s);
        }
        diags_free(&dg);
        design_free(d);
        fail_msg("%s did not load", name);
    }
    diags_free(&dg);
    return d;
}

/* load(save(x)) equals x and save(load(save(x))) is byte-identical to save(x). */
static void check_round_trip(const kp_design *x, const char *name)
{
    char *s1 = designio_save(x, NULL);
    kp_design *y = load_ok(s1, name);
    if (!design_equal(x, y)) {
        print_error("saved text of %s:\n%s\n", name, s1);
        fail_msg("%s: load(save(x)) differs from x", name);
    }
    char *s2 = designio_save(y, NULL);
    if (strcmp(s1, s2) != 0) {
        print_error("first save:\n%s\nsecond save:\n%s\n", s1, s2);
        fail_msg("%s: save(load(save(x))) is not byte-identical", name);
    }
    free(s1);
    free(s2);
    design_free(y);
}

/* The first error of loading `text`, formatted ("design.yaml:L:C: error: ..."); the load must
 * fail. Caller frees. */
static char *load_error(const char *text, size_t len, kp_status *code)
{
    kp_diags dg;
    diags_init(&dg, "design.yaml");
    kp_design *d = designio_load_string(text, len, "design.yaml", &dg);
    assert_null(d);
    assert_true(dg.errors > 0);
    char *s = NULL;
    for (size_t i = 0; i < dg.n && !s; i++)
        if (dg.v[i].sev == KP_SEV_ERROR) {
            s = diags_format(&dg, i);
            if (code)
                *code = dg.v[i].code;
        }
    diags_free(&dg);
    return s;
}

/* ---- samples --------------------------------------------------------------------------- */

static void test_samples_round_trip(void **state)
{
    (void)state;
    const char *pats[] = {KP_SOURCE_DIR "/samples/*/*.yaml", KP_SOURCE_DIR "/samples/*/*/*.yaml"};
    size_t total = 0;
    for (size_t k = 0; k < 2; k++) {
        glob_t g;
        memset(&g, 0, sizeof g);
        if (glob(pats[k], 0, NULL, &g) != 0) {
            globfree(&g);
            continue;
        }
        for (size_t i = 0; i < g.gl_pathc; i++) {
            const char *path = g.gl_pathv[i];
            const char *base = strrchr(path, '/');
            if (base && strcmp(base, "/tour.yaml") == 0)
                continue; /* a tour (storage/files/tour.h), not a design */
            kp_diags dg;
            diags_init(&dg, NULL);
            kp_design *x = designio_load_file(path, &dg);
            if (!x) {
                diags_print(&dg, stderr);
                fail_msg("sample %s does not load", path);
            }
            assert_int_equal(dg.errors, 0);
            check_round_trip(x, path);
            design_free(x);
            diags_free(&dg);
            total++;
        }
        globfree(&g);
    }
    /* the course's worked example must be among them */
    assert_true(total >= 1);
    char *cs = ts_source_path("samples/cloudshop/design.yaml");
    assert_int_equal(access(cs, R_OK), 0);
    free(cs);
}

/* ---- a rich design using every feature ------------------------------------------------- */

static const char RICH[] =
    "# every feature of the format\n"
    "keyplan: 1\n"
    "name: Rich shop\n"
    "description: |\n"
    "  Two lines\n"
    "  of description.\n"
    "table:\n"
    "  name: Rich\n"
    "  pk: PK\n"
    "  sk: SK\n"
    "  billing: provisioned\n"
    "  streams: false\n"
    "  pitr: true\n"
    "  target_utilization: 0.65\n"
    "indexes:\n"
    "  - name: GSI1\n"
    "    pk: GSI1PK\n"
    "    sk: GSI1SK\n"
    "    projection: include\n"
    "    include: [customerId, total]\n"
    "    why: pattern 5, the warehouse\n"
    "  - { name: ByTotal, type: lsi, pk: PK, sk: total, projection: keys }\n"
    "  - { name: ByCustomer, pk: customerId, sk: orderDate }\n"
    "attributes:\n"
    "  customerId: { distinct: 41200, skew: \"zipf:1.1\", size: 12 }\n"
    "  orderId:    { distinct: 30_000_000 }\n"
    "  orderDate:  { type: date, distinct: 730, write_hot: 1.0 }\n"
    "  lineNo:     { type: number, format: \"03\" }\n"
    "  total:      { type: number, size: 0.30000000000000004 }\n"
    "  gift:       { type: bool }\n"
    "  status:\n"
    "    type: enum\n"
    "    values: { pending: 0.1, paid: 0.2, shipped: 0.7 }\n"
    "    write_shares: { pending: 0.5, paid: 0.25, shipped: 0.25 }\n"
    "  shard: { type: shard, count: 10 }\n"
    "  note: {}\n"
    "entities:\n"
    "  - name: Order\n"
    "    description: the order header\n"
    "    count: 4.5e7\n"
    "    size: 1200\n"
    "    writes: 50\n"
    "    writes_avg: 12.5\n"
    "    attributes: [orderId, customerId, orderDate, status, total, gift]\n"
    "    keys:\n"
    "      PK: \"ORDER#{orderId}\"\n"
    "      SK: HEADER\n"
    "      GSI1PK: 'STATUS#{status}#{shard}'\n"
    "      GSI1SK: \"{orderDate}#{orderId}\"\n"
    "    sparse:\n"
    "      GSI1PK: \"status in [pending, paid]\"\n"
    "  - name: OrderLine\n"
    "    count: 100000000\n"
    "    size: 800\n"
    "    attributes: [orderId, lineNo]\n"
    "    keys: { PK: \"ORDER#{orderId}\", SK: \"LINE#{lineNo:04}{{x}}\" }\n"
    "  - name: Customer\n"
    "    count: 41200\n"
    "    size: 1500\n"
    "    attributes: [customerId, orderDate]\n"
    "    keys: { PK: \"CUSTOMER#{customerId}\", SK: PROFILE }\n"
    "    sparse: { customerId: 0.05 }\n"
    "  - name: Ticket\n"
    "    count: 10\n"
    "    size: 100\n"
    "    attributes: [customerId, status]\n"
    "    keys: { PK: \"T#{customerId}\", SK: \"T\", GSI1PK: \"S#{status}\", GSI1SK: \"x\" }\n"
    "    sparse: { GSI1PK: \"status != shipped\", GSI1SK: \"status = pending\" }\n"
    "patterns:\n"
    "  - id: 1\n"
    "    name: Get order by id\n"
    "    entity: Order\n"
    "    by: [orderId]\n"
    "    rate: 400\n"
    "    avg: 128\n"
    "    latency: 20\n"
    "    consistency: strong\n"
    "    why: read after the payment\n"
    "  - id: 2\n"
    "    name: Orders of a customer, newest first\n"
    "    entity: Order\n"
    "    by: [customerId]\n"
    "    order: orderDate desc\n"
    "    limit: 20\n"
    "    filter: [total, gift]\n"
    "    rate: 0.0000116\n"
    "  - { id: 3, name: Between dates, entity: Order, by: [customerId], range: orderDate, order: orderDate asc,\n"
    "      items: 30, consistency: eventual }\n"
    "  - { id: 5, name: Pending, entity: Order, by: [\"status=pending\", \"shard = 3\"] }\n"
    "  - { id: 6, name: Customer of an order, entity: Customer, by: [customerId], covered_by: 2 }\n"
    "  - { id: P-8, name: Free-text search, needs: search, served_by: search-index }\n"
    "  - { id: 9, name: Totals, needs: aggregate }\n"
    "  - { id: 10, name: Create order, kind: write, op: transact, entities: [Order, OrderLine], items: 4 }\n"
    "  - { id: 11, name: Customer with orders, entities: [Customer, Order], by: [customerId],\n"
    "      join: { orderId: customerId } }\n"
    "  - { id: 12, name: Ship, kind: write, op: update, entity: Order, by: [orderId], changes: [status] }\n"
    "  - { id: 13, name: Drop, kind: write, op: delete, entity: OrderLine, by: [orderId, lineNo] }\n"
    "  - { id: 14, name: Screen, entities: [Customer], by: [customerId], consistency: transactional }\n"
    "  - { id: 15, name: New ticket, kind: write, entity: Ticket }\n"
    "alerts:\n"
    "  - { name: throttled writes, metric: WriteThrottleEvents, when: \"> 0 for 1 minute\" }\n"
    "  - name: hot key\n"
    "    metric: ContributorInsights\n"
    "pricing:\n"
    "  base: aws-us-east-1\n"
    "  currency: EUR\n"
    "  read_per_million: 0.5\n"
    "  write_per_million: 5\n"
    "  index_write_per_million: 5.0\n"
    "  rcu_hour: 0.00013\n"
    "  wcu_hour: 0.00065\n"
    "  storage_gb_month: 0.25\n"
    "  backup_gb_month: 0.2\n"
    "  stream_read_per_100k: 0.02\n"
    "decisions:\n"
    "  - id: D3\n"
    "    title: \"Pending orders: one GSI1 partition\"\n"
    "    status: reopened\n"
    "    patterns: [5, P-8]\n"
    "    context: >-\n"
    "      The warehouse panel\n"
    "      lists pending orders.\n"
    "    decision: one partition\n"
    "    alternatives:\n"
    "      - { option: \"shard ESTADO# over 10 suffixes\", why_not: \"2 queries/s do not pay\" }\n"
    "      - { option: 'null' }\n"
    "    assumptions: [ \"the panel stays under 50 queries/s\", \"true\" ]\n"
    "    failure_test: throttled reads\n"
    "    rollback: shard it\n"
    "    limitations: one partition\n"
    "    signals: [ \"pattern.5.rate > 50\", \"index.GSI1.items >= 100,000\", \"cost.total<700\",\n"
    "               \"entity.Order.count != 1e9\", \"table.hot_share >= 0.5\", \"index.table.wcu > 1\" ]\n"
    "  - { id: D4, title: Proposal, status: proposed }\n"
    "  - { id: 7, title: Superseded one, status: superseded, patterns: [] }\n";

static void test_rich_design(void **state)
{
    (void)state;
    kp_design *d = load_ok(RICH, "rich.yaml");
    assert_string_equal(d->name, "Rich shop");
    assert_string_equal(d->description, "Two lines\nof description.\n");
    assert_int_equal(d->table.billing, KP_BILLING_PROVISIONED);
    assert_int_equal(d->table.streams, KP_FALSE);
    assert_int_equal(d->table.pitr, KP_TRUE);
    assert_true(d->table.target_utilization == 0.65);
    assert_int_equal(d->nindexes, 3);
    assert_int_equal(d->indexes[0].projection, KP_PROJ_INCLUDE);
    assert_int_equal(d->indexes[0].ninclude, 2);
    assert_string_equal(d->indexes[0].why, "pattern 5, the warehouse");
    assert_int_equal(d->indexes[1].kind, KP_LSI);
    assert_int_equal(d->indexes[1].projection, KP_PROJ_KEYS);
    assert_int_equal(d->indexes[2].kind, KP_GSI);
    assert_int_equal(d->indexes[2].projection, KP_PROJ_ALL);

    const kp_attr *a = design_attr(d, "customerId");
    assert_non_null(a);
    assert_true(a->zipf == 1.1);
    assert_true(a->distinct == 41200);
    assert_true(a->size == 12);
    assert_true(design_attr(d, "orderId")->distinct == 30000000);
    assert_true(design_attr(d, "orderDate")->write_hot == 1.0);
    assert_int_equal(design_attr(d, "orderDate")->type, KP_ATTR_DATE);
    assert_string_equal(design_attr(d, "lineNo")->format, "03");
    assert_true(design_attr(d, "total")->size == 0.30000000000000004);
    assert_int_equal(design_attr(d, "gift")->type, KP_ATTR_BOOL);
    a = design_attr(d, "status");
    assert_int_equal(a->type, KP_ATTR_ENUM);
    assert_int_equal(a->nvalues, 3);
    assert_string_equal(a->values[1].name, "paid");
    assert_true(a->values[1].share == 0.2);
    assert_true(a->values[1].write_share == 0.25);
    assert_int_equal(design_attr(d, "shard")->shard_count, 10);
    assert_int_equal(design_attr(d, "note")->type, KP_ATTR_STRING);
    assert_true(isnan(design_attr(d, "note")->distinct));

    const kp_entity *e = design_entity(d, "Order");
    assert_non_null(e);
    assert_string_equal(e->description, "the order header");
    assert_true(e->count == 4.5e7);
    assert_true(e->writes_avg == 12.5);
    assert_int_equal(e->nkeys, 4);
    assert_string_equal(entity_key(e, "SK")->tpl.src, "HEADER");
    assert_int_equal(entity_key(e, "GSI1PK")->tpl.n, 4);
    assert_int_equal(e->nsparse, 1);
    assert_int_equal(e->sparse[0].kind, KP_SPARSE_COND);
    assert_int_equal(e->sparse[0].op, KP_COND_IN);
    assert_string_equal(e->sparse[0].cond_attr.s, "status");
    assert_int_equal(e->sparse[0].nvalues, 2);
    assert_string_equal(e->sparse[0].values[1].s, "paid");
    /* places: the sparse condition's attribute and values point inside the quoted scalar */
    assert_int_equal(e->sparse[0].cond_attr.loc.line, 51);
    assert_int_equal(e->sparse[0].cond_attr.loc.col, 16);
    assert_int_equal(e->sparse[0].values[1].loc.col, 36);
    const kp_keytpl *lt = entity_key(design_entity(d, "OrderLine"), "SK");
    assert_string_equal(lt->tpl.parts[1].format, "04");
    assert_string_equal(lt->tpl.parts[2].text, "{x}");
    e = design_entity(d, "Customer");
    assert_int_equal(e->sparse[0].kind, KP_SPARSE_SHARE);
    assert_true(e->sparse[0].share == 0.05);
    e = design_entity(d, "Ticket");
    assert_int_equal(e->sparse[0].op, KP_COND_NE);
    assert_int_equal(e->sparse[1].op, KP_COND_EQ);
    assert_string_equal(e->sparse[1].values[0].s, "pending");

    const kp_pattern *p = design_pattern(d, "1");
    assert_non_null(p);
    assert_false(p->multi_form);
    assert_int_equal(p->consistency, KP_STRONG);
    assert_true(p->consistency_given);
    assert_true(p->avg == 128);
    assert_int_equal(p->entities[0].loc.line, 72);
    assert_int_equal(p->entities[0].loc.col, 13);
    p = design_pattern(d, "2");
    assert_string_equal(p->order.s, "orderDate");
    assert_true(p->order_desc);
    assert_true(p->limit == 20);
    assert_int_equal(p->nfilter, 2);
    assert_true(p->rate == 0.0000116);
    assert_false(p->consistency_given);
    p = design_pattern(d, "3");
    assert_false(p->order_desc);
    assert_string_equal(p->range.s, "orderDate");
    assert_true(p->items == 30);
    assert_true(p->consistency_given);
    p = design_pattern(d, "5");
    assert_int_equal(p->nby, 2);
    assert_string_equal(p->by[0].attr.s, "status");
    assert_string_equal(p->by[0].value, "pending");
    assert_string_equal(p->by[1].attr.s, "shard");
    assert_string_equal(p->by[1].value, "3");
    assert_string_equal(design_pattern(d, "6")->covered_by.s, "2");
    p = design_pattern(d, "P-8");
    assert_int_equal(p->needs, KP_NEEDS_SEARCH);
    assert_string_equal(p->served_by, "search-index");
    p = design_pattern(d, "10");
    assert_int_equal(p->kind, KP_WRITE);
    assert_int_equal(p->op, KP_OP_TRANSACT);
    assert_true(p->multi_form);
    assert_int_equal(p->nentities, 2);
    p = design_pattern(d, "11");
    assert_int_equal(p->njoin, 1);
    assert_string_equal(p->join[0].to.s, "orderId");
    assert_string_equal(p->join[0].from.s, "customerId");
    assert_int_equal(design_pattern(d, "12")->nchanges, 1);
    assert_int_equal(design_pattern(d, "13")->op, KP_OP_DELETE);
    assert_int_equal(design_pattern(d, "14")->consistency, KP_TRANSACTIONAL);
    assert_true(design_pattern(d, "14")->multi_form);

    assert_int_equal(d->nalerts, 2);
    assert_string_equal(d->alerts[0].when, "> 0 for 1 minute");
    assert_null(d->alerts[1].when);
    assert_true(d->pricing.given);
    assert_string_equal(d->pricing.base, "aws-us-east-1");
    assert_true(d->pricing.index_write_per_million == 5);
    assert_true(d->pricing.stream_read_per_100k == 0.02);

    assert_int_equal(d->ndecisions, 3);
    const kp_decision *x = &d->decisions[0];
    assert_int_equal(x->status, KP_DEC_REOPENED);
    assert_int_equal(x->npatterns, 2);
    assert_string_equal(x->patterns[1].s, "P-8");
    assert_string_equal(x->context, "The warehouse panel lists pending orders.");
    assert_int_equal(x->nalternatives, 2);
    assert_string_equal(x->alternatives[1].option, "null");
    assert_null(x->alternatives[1].why_not);
    assert_string_equal(x->assumptions[1], "true");
    assert_int_equal(x->nsignals, 6);
    assert_string_equal(x->signals[1].metric, "index.GSI1.items");
    assert_int_equal(x->signals[1].cmp, KP_CMP_GE);
    assert_true(x->signals[1].value == 100000);
    assert_int_equal(x->signals[2].cmp, KP_CMP_LT);
    assert_int_equal(d->decisions[1].status, KP_DEC_PROPOSED);
    assert_string_equal(d->decisions[2].id, "7");

    check_round_trip(d, "rich.yaml");
    /* a clone saves the same text */
    kp_design *c = design_clone(d);
    char *s1 = designio_save(d, NULL), *s2 = designio_save(c, NULL);
    assert_string_equal(s1, s2);
    free(s1);
    free(s2);
    design_free(c);
    design_free(d);
}

/* ---- canonical form -------------------------------------------------------------------- */

static void test_canonical_text(void **state)
{
    (void)state;
    /* keys out of order, extra spaces, comments, quoted numbers-as-ids: all normalised */
    static const char in[] = "patterns:\n"
                             "  - { entity: Order, name: Get, id: 1, by: [orderId], rate: 400.0 }\n"
                             "entities:\n"
                             "  - keys: { SK: HEADER, PK: \"O#{orderId}\" }   # keys stay in file order\n"
                             "    name: Order\n"
                             "    size: 1e3\n"
                             "    count: 0.5e2\n"
                             "table: { pk: PK, sk: SK, name: Tbl, streams: yes }\n"
                             "name: \"123\"\n"
                             "keyplan: 1\n";
    static const char want[] = "keyplan: 1\n"
                               "name: \"123\"\n"
                               "table:\n"
                               "  name: Tbl\n"
                               "  pk: PK\n"
                               "  sk: SK\n"
                               "  billing: on-demand\n"
                               "  streams: true\n"
                               "entities:\n"
                               "- name: Order\n"
                               "  count: 50\n"
                               "  size: 1000\n"
                               "  keys:\n"
                               "    SK: \"HEADER\"\n"
                               "    PK: \"O#{orderId}\"\n"
                               "patterns:\n"
                               "- id: 1\n"
                               "  name: Get\n"
                               "  entity: Order\n"
                               "  by: [orderId]\n"
                               "  rate: 400\n";
    kp_design *d = load_ok(in, "in.yaml");
    char *s = designio_save(d, NULL);
    assert_string_equal(s, want);
    free(s);
    check_round_trip(d, "in.yaml");
    design_free(d);
}

/* Numbers come back exactly, in their shortest form. */
static void test_numbers_shortest(void **state)
{
    (void)state;
    static const double vals[] = {
        0.1, 0.30000000000000004, 1e-7, 123456789012345.0, 4.5e15, 1e300, 2.5, 1.0 / 3, 0, 7e-5};
    static const char *const want[] = {"0.1",     "0.30000000000000004",
                                       "1e-07",   "123456789012345",
                                       "4.5e+15", "1e+300",
                                       "2.5",     "0.3333333333333333",
                                       "0",       "7e-05"};
    for (size_t i = 0; i < sizeof vals / sizeof *vals; i++) {
        kp_design *d = design_new();
        d->table.name = xstrdup("Tbl");
        d->table.pk = str_make("PK", (kp_loc){0, 0});
        d->table.target_utilization = NAN;
        d->pricing.given = true;
        d->pricing.read_per_million = vals[i];
        char *s = designio_save(d, NULL);
        char *line = xasprintf("  read_per_million: %s\n", want[i]);
        if (!strstr(s, line))
            fail_msg("value %.17g saved as:\n%s", vals[i], s);
        free(line);
        check_round_trip(d, "numbers");
        free(s);
        design_free(d);
    }
}

/* ---- UTF-8 names ----------------------------------------------------------------------- */

static const char UTF8_DESIGN[] =
    "keyplan: 1\n"
    "name: Pedidos de línea\n"
    "table: { name: Tienda, pk: PK, sk: SK }\n"
    "attributes:\n"
    "  línea: { type: number, format: \"03\" }\n"
    "  tipo: { type: enum, values: { casa: 0.6, trabajo: 0.4 } }\n"
    "entities:\n"
    "  - name: Dirección\n"
    "    attributes: [clienteId, tipo]\n"
    "    keys: { PK: \"CLIENTE#{clienteId}\", SK: \"DIRECCIÓN#{tipo}\" }\n"
    "  - name: Línea\n"
    "    attributes: [pedidoId, línea]\n"
    "    keys: { PK: \"PEDIDO#{pedidoId}\", SK: \"LÍNEA#{línea}\" }\n"
    "patterns:\n"
    "  - { id: 1, name: Dirección de casa, entity: Dirección, by: [clienteId, \"tipo=casa\"] }\n"
    "  - { id: 2, name: Líneas, entity: Línea, by: [pedidoId], order: línea desc }\n"
    "decisions:\n"
    "  - { id: D1, title: Señales, signals: [\"entity.Línea.count > 10\"] }\n";

static void test_utf8_names(void **state)
{
    (void)state;
    kp_design *d = load_ok(UTF8_DESIGN, "utf8.yaml");
    const kp_entity *e = design_entity(d, "Dirección");
    assert_non_null(e);
    assert_string_equal(entity_key(e, "SK")->tpl.src, "DIRECCIÓN#{tipo}");
    assert_string_equal(entity_key(design_entity(d, "Línea"), "SK")->tpl.parts[1].text, "línea");
    assert_string_equal(design_pattern(d, "2")->order.s, "línea");
    check_round_trip(d, "utf8.yaml");
    char *s = designio_save(d, NULL);
    /* written as UTF-8, not escaped */
    assert_non_null(strstr(s, "DIRECCIÓN#{tipo}"));
    assert_non_null(strstr(s, "línea:"));
    free(s);
    design_free(d);

    /* columns count characters: the unknown entity is reported at its first character */
    static const char bad[] = "keyplan: 1\n"
                              "table: { name: Tienda, pk: PK }\n"
                              "entities:\n"
                              "  - { name: Dirección, attributes: [tipo], keys: { PK: \"D#{tipo}\" } }\n"
                              "patterns:\n"
                              "  - { id: 1, name: Ñandú, entity: Direccion, by: [tipo] }\n";
    char *msg = load_error(bad, strlen(bad), NULL);
    assert_string_equal(
        msg, "design.yaml:6:35: error: pattern 1: unknown entity 'Direccion' (did you mean 'Dirección'?)");
    free(msg);
}

/* ---- refusals -------------------------------------------------------------------------- */

static void test_billion_laughs(void **state)
{
    (void)state;
    static const char bomb[] =
        "keyplan: 1\n"
        "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
        "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
        "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
        "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
        "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
        "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"
        "g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n"
        "h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\n"
        "i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]\n"
        "patterns: [*i, *i, *i, *i, *i, *i, *i, *i, *i, *i]\n";
    kp_status code = KP_OK;
    char *msg = load_error(bomb, strlen(bomb), &code);
    assert_int_equal(code, KP_ALIAS);
    assert_non_null(strstr(msg, "error: YAML aliases expand to more than"));
    assert_non_null(strstr(msg, "expected a design without runaway aliases"));
    free(msg);

    /* a modest alias is fine: anchors are references, not copies */
    static const char ok[] = "keyplan: 1\n"
                             "table: { name: Tbl, pk: PK }\n"
                             "entities:\n"
                             "  - { name: A, attributes: &at [x, y], keys: { PK: \"A#{x}\" } }\n"
                             "  - { name: B, attributes: *at, keys: { PK: \"B#{y}\" } }\n";
    kp_design *d = load_ok(ok, "alias.yaml");
    assert_int_equal(d->entities[1].nattrs, 2);
    assert_string_equal(d->entities[1].attrs[1].s, "y");
    design_free(d);
}

static void test_invalid_utf8(void **state)
{
    (void)state;
    static const char text[] = "keyplan: 1\nname: caf\xc3\n  x\n";
    kp_status code = KP_OK;
    char *msg = load_error(text, sizeof text - 1, &code);
    assert_int_equal(code, KP_ENCODING);
    assert_string_equal(msg, "design.yaml:2:10: error: invalid UTF-8 (byte 0xC3); expected UTF-8 text");
    free(msg);
    static const char text2[] = "keyplan: 1\n# ñ ok\nname: \"\xe2\x82\"\n";
    msg = load_error(text2, sizeof text2 - 1, NULL);
    assert_string_equal(msg, "design.yaml:3:8: error: invalid UTF-8 (byte 0xE2); expected UTF-8 text");
    free(msg);
}

static void test_empty_file(void **state)
{
    (void)state;
    static const char *const empties[] = {"", "\n\n", "# only a comment\n", "---\n", "~\n"};
    for (size_t i = 0; i < sizeof empties / sizeof *empties; i++) {
        kp_status code = KP_OK;
        char *msg = load_error(empties[i], strlen(empties[i]), &code);
        assert_int_equal(code, KP_EMPTY);
        assert_string_equal(
            msg, "design.yaml: error: the file is empty; expected a design starting with 'keyplan: 1'");
        free(msg);
    }
    /* NULL text is an empty file too */
    kp_diags dg;
    diags_init(&dg, NULL);
    assert_null(designio_load_string(NULL, 0, "x.yaml", &dg));
    assert_int_equal(dg.v[0].code, KP_EMPTY);
    assert_string_equal(dg.file, "x.yaml");
    diags_free(&dg);
}

static void test_files(void **state)
{
    (void)state;
    char *path = ts_write_temp("design.yaml", UTF8_DESIGN);
    assert_non_null(path);
    kp_diags dg;
    diags_init(&dg, NULL);
    kp_design *d = designio_load_file(path, &dg);
    assert_non_null(d);
    assert_string_equal(dg.file, path);
    diags_free(&dg);

    char *out = xasprintf("%s.saved", path);
    diags_init(&dg, NULL);
    assert_int_equal(designio_save_file(d, out, &dg), KP_OK);
    assert_int_equal(dg.n, 0);
    char *text = ts_read_file(out, NULL);
    char *want = designio_save(d, NULL);
    assert_string_equal(text, want);
    free(text);
    free(want);
    kp_design *e = designio_load_file(out, &dg);
    assert_non_null(e);
    assert_true(design_equal(d, e));
    design_free(e);
    diags_free(&dg);

    /* a folder that does not exist: false, a message, nothing written */
    char *nowhere = xasprintf("%s.missing/dir/design.yaml", path);
    diags_init(&dg, NULL);
    assert_int_equal(designio_save_file(d, nowhere, &dg), KP_IO);
    assert_int_equal(dg.errors, 1);
    assert_int_equal(dg.v[0].code, KP_IO);
    assert_int_not_equal(access(nowhere, F_OK), 0);
    diags_free(&dg);

    /* loading a missing file */
    diags_init(&dg, NULL);
    assert_null(designio_load_file(nowhere, &dg));
    assert_int_equal(dg.v[0].code, KP_IO);
    char *msg = diags_format(&dg, 0);
    assert_non_null(strstr(msg, "cannot open"));
    free(msg);
    diags_free(&dg);

    unlink(out);
    unlink(path);
    char *dir = xstrdup(path);
    *strrchr(dir, '/') = '\0';
    rmdir(dir);
    free(dir);
    free(nowhere);
    free(out);
    free(path);
    design_free(d);
}

/* A design built in code (as the TUI or an importer would) saves and reloads equal. */
static void test_built_design(void **state)
{
    (void)state;
    kp_design *d = design_new();
    d->name = xstrdup("null");
    d->table.name = xstrdup("true");
    d->table.pk = str_make("PK", (kp_loc){0, 0});
    d->nentities = 1;
    d->entities = xcalloc(1, sizeof *d->entities);
    kp_entity *e = &d->entities[0];
    entity_init(e);
    e->name = xstrdup("Item: with colon");
    e->count = 10;
    e->nkeys = 1;
    e->keys = xcalloc(1, sizeof *e->keys);
    e->keys[0].attr = str_make("PK", (kp_loc){0, 0});
    assert_int_equal(tpl_parse("ITEM#{id}", &e->keys[0].tpl, NULL, NULL), KP_OK);
    e->nattrs = 1;
    e->attrs = xcalloc(1, sizeof *e->attrs);
    e->attrs[0] = str_make("id", (kp_loc){0, 0});
    d->npatterns = 1;
    d->patterns = xcalloc(1, sizeof *d->patterns);
    kp_pattern *p = &d->patterns[0];
    pattern_init(p);
    p->id = xstrdup("007");
    p->name = xstrdup("- starts with a dash\nand has two lines");
    p->entities = xcalloc(1, sizeof *p->entities);
    p->entities[0] = str_make("Item: with colon", (kp_loc){0, 0});
    p->nentities = 1;
    p->by = xcalloc(1, sizeof *p->by);
    p->by[0].attr = str_make("id", (kp_loc){0, 0});
    p->nby = 1;
    d->ndecisions = 1;
    d->decisions = xcalloc(1, sizeof *d->decisions);
    decision_init(&d->decisions[0]);
    d->decisions[0].id = xstrdup("D1");
    d->decisions[0].signals = xcalloc(1, sizeof(kp_signal));
    d->decisions[0].nsignals = 1;
    /* no src: the saver writes the signal from its fields */
    d->decisions[0].signals[0].metric = xstrdup("pattern.007.rate");
    d->decisions[0].signals[0].cmp = KP_CMP_LE;
    d->decisions[0].signals[0].value = 2.5;
    check_round_trip(d, "built");
    char *s = designio_save(d, NULL);
    assert_non_null(strstr(s, "name: \"null\"\n"));
    assert_non_null(strstr(s, "  name: \"true\"\n"));
    assert_non_null(strstr(s, "- id: 007\n"));
    assert_non_null(strstr(s, "pattern.007.rate <= 2.5"));
    free(s);
    design_free(d);
}

/* Text that is not UTF-8 cannot get into a design by the loader, the editor or the importers;
 * poked in by hand, saving it is an error the caller gets back, not a crash or an abort. */
static void test_save_refused(void **state)
{
    (void)state;
    kp_design *d = load_ok(UTF8_DESIGN, "utf8.yaml");
    free(d->name);
    d->name = xstrdup("Tienda \xff");
    char *err = NULL;
    assert_null(designio_save(d, &err));
    assert_string_equal(err, "YAML emitter: a scalar that is not UTF-8 text");
    free(err);
    assert_null(designio_save(d, NULL));

    char *dir = ts_temp_dir();
    char *out = xasprintf("%s/design.yaml", dir);
    kp_diags dg;
    diags_init(&dg, NULL);
    assert_int_equal(designio_save_file(d, out, &dg), KP_INVALID);
    assert_int_equal(dg.errors, 1);
    assert_int_equal(dg.v[0].code, KP_INVALID);
    char *msg = diags_format(&dg, 0);
    char *want =
        xasprintf("%s: error: YAML emitter: a scalar that is not UTF-8 text; the file is untouched", out);
    assert_string_equal(msg, want);
    free(want);
    free(msg);
    assert_int_not_equal(access(out, F_OK), 0); /* nothing written */
    diags_free(&dg);
    rmdir(dir);
    free(out);
    free(dir);
    design_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_samples_round_trip),
        cmocka_unit_test(test_rich_design),
        cmocka_unit_test(test_canonical_text),
        cmocka_unit_test(test_numbers_shortest),
        cmocka_unit_test(test_utf8_names),
        cmocka_unit_test(test_billion_laughs),
        cmocka_unit_test(test_invalid_utf8),
        cmocka_unit_test(test_empty_file),
        cmocka_unit_test(test_files),
        cmocka_unit_test(test_save_refused),
        cmocka_unit_test(test_built_design),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
