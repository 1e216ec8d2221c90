/* test_validate.c - semantic validation on a design in memory, as the TUI runs it after an edit:
 * a valid design is changed one way per row and validate_design must name exactly that problem
 * at the element's place. Also designs built in code with missing names (no crash). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "validate.h"
#include "design_io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char BASE[] =
    "keyplan: 1\n"
    "table: { name: Shop, pk: PK, sk: SK }\n"
    "indexes:\n"
    "  - { name: GSI1, pk: GSI1PK, sk: GSI1SK, projection: keys }\n"
    "attributes:\n"
    "  status: { type: enum, values: { open: 0.5, closed: 0.5 }, write_shares: { open: 0.9, closed: 0.1 } }\n"
    "  shard: { type: shard, count: 4 }\n"
    "entities:\n"
    "  - name: Order\n"
    "    attributes: [orderId, customerId, status, total]\n"
    "    keys: { PK: \"ORDER#{orderId}\", SK: \"HEADER\", GSI1PK: \"STATUS#{status}#{shard}\", GSI1SK: \"{orderId}\" }\n"
    "    sparse: { GSI1PK: \"status = open\" }\n"
    "  - name: OrderSummary\n"
    "    attributes: [customerId, orderId, orderDate]\n"
    "    keys: { PK: \"CUSTOMER#{customerId}\", SK: \"ORDER#{orderDate}\" }\n"
    "patterns:\n"
    "  - { id: 1, name: Get order, entity: Order, by: [orderId] }\n"
    "  - { id: 2, name: Orders of a customer, entity: OrderSummary, by: [customerId], order: orderDate desc }\n"
    "  - { id: 3, name: Customer of an order, entity: Order, by: [customerId], covered_by: 2 }\n"
    "decisions:\n"
    "  - { id: D1, title: One table, patterns: [1, 2], signals: [\"pattern.1.rate > 5\"] }\n";

static kp_design *base(void)
{
    kp_diags dg;
    diags_init(&dg, "design.yaml");
    kp_design *d = designio_load_string(BASE, strlen(BASE), "design.yaml", &dg);
    if (!d)
        diags_print(&dg, stderr);
    assert_non_null(d);
    diags_free(&dg);
    return d;
}

static kp_pattern *pat(kp_design *d, const char *id) { return &d->patterns[design_pattern_pos(d, id)]; }

static void m_negative_rate(kp_design *d) { pat(d, "1")->rate = -1; }
static void m_rename_entity(kp_design *d)
{
    free(d->entities[0].name);
    d->entities[0].name = xstrdup("Orders");
}
static void m_shares(kp_design *d) { d->attrs[0].values[0].share = 0.4; }
static void m_write_shares(kp_design *d) { d->attrs[0].values[1].write_share = 0.2; }
static void m_lsi(kp_design *d) { d->indexes[0].kind = KP_LSI; }
static void m_covered_self(kp_design *d)
{
    str_free(&pat(d, "3")->covered_by);
    pat(d, "3")->covered_by = str_make("3", (kp_loc){19, 87});
}
static void m_covered_cannot_hold(kp_design *d)
{
    /* OrderSummary carries customerId but not status */
    kp_pattern *p = pat(d, "3");
    p->by = xrealloc(p->by, 2 * sizeof *p->by);
    p->by[1] = (kp_by){str_make("status", (kp_loc){19, 70}), NULL};
    p->nby = 2;
}
static void m_duplicate_id(kp_design *d)
{
    free(pat(d, "3")->id);
    d->patterns[2].id = xstrdup("1");
}
static void m_target(kp_design *d) { d->table.target_utilization = 1.5; }
static void m_shard_type(kp_design *d) { d->attrs[1].type = KP_ATTR_NUMBER; }
static void m_sparse_share(kp_design *d)
{
    kp_sparse *s = &d->entities[0].sparse[0];
    s->kind = KP_SPARSE_SHARE;
    s->share = 2;
}
static void m_index_key_renamed(kp_design *d)
{
    str_free(&d->indexes[0].sk);
    d->indexes[0].sk = str_make("GSI1RK", (kp_loc){4, 36});
}
static void m_include_all(kp_design *d)
{
    kp_index *x = &d->indexes[0];
    x->projection = KP_PROJ_ALL;
    x->include = xcalloc(1, sizeof *x->include);
    x->include[0] = str_make("total", (kp_loc){4, 60});
    x->ninclude = 1;
}
static void m_update_on_read(kp_design *d) { pat(d, "1")->op = KP_OP_UPDATE; }
static void m_signal_entity(kp_design *d)
{
    kp_signal *g = &d->decisions[0].signals[0];
    free(g->metric);
    free(g->src);
    g->metric = xstrdup("entity.Ordr.count");
    g->src = xstrdup("entity.Ordr.count > 5");
}
static void m_decision_pattern(kp_design *d)
{
    free(d->decisions[0].patterns[1].s);
    d->decisions[0].patterns[1].s = xstrdup("22");
}
static void m_sparse_value(kp_design *d)
{
    kp_sparse *s = &d->entities[0].sparse[0];
    free(s->values[0].s);
    s->values[0].s = xstrdup("opn");
}
static void m_by_attr(kp_design *d)
{
    kp_by *b = &pat(d, "2")->by[0];
    free(b->attr.s);
    b->attr.s = xstrdup("customer");
}
static void m_no_entity_name(kp_design *d)
{
    free(d->entities[1].name);
    d->entities[1].name = NULL;
}

static const struct vcase {
    const char *name;
    void (*mutate)(kp_design *d);
    const char *first;
    size_t errors;
} cases[] = {
    {"negative rate", m_negative_rate,
     "design.yaml:17:5: error: pattern 1: 'rate' is -1; expected a number >= 0", 1},
    {"renamed entity", m_rename_entity,
     "design.yaml:17:39: error: pattern 1: unknown entity 'Order' (did you mean 'Orders'?)", 2},
    {"enum shares", m_shares,
     "design.yaml:6:3: error: attribute 'status': the value shares sum to 0.9; expected 1 (within 0.001)", 1},
    {"write shares", m_write_shares,
     "design.yaml:6:3: error: attribute 'status': the write_shares sum to 1.1; expected 1 (within 0.001)", 1},
    {"lsi partition", m_lsi,
     "design.yaml:4:23: error: index 'GSI1': an LSI's partition attribute 'GSI1PK' differs from the table's 'PK'; expected pk: PK",
     1},
    {"covered by itself", m_covered_self,
     "design.yaml:19:87: error: pattern 3: covered_by names the pattern itself; expected another read pattern",
     1},
    {"covered by cannot hold", m_covered_cannot_hold,
     "design.yaml:19:87: error: pattern 3: covered_by 2, whose result cannot hold this pattern's data; expected a pattern "
     "whose entities include Order or carry every 'by' attribute",
     1},
    {"duplicate pattern id", m_duplicate_id,
     "design.yaml:19:5: error: pattern 1: id 1 is used twice (first at line 17); expected unique pattern ids",
     1},
    {"target utilization", m_target,
     "design.yaml:2:8: error: table: 'target_utilization' is 1.5; expected a number between 0.01 and 1", 1},
    {"count without shard", m_shard_type,
     "design.yaml:7:3: error: attribute 'shard': 'count' is given but the type is number; expected type: shard",
     1},
    {"sparse share", m_sparse_share,
     "design.yaml:12:23: error: entity 'Order': 'GSI1PK' is 2; expected a number between 0 and 1", 1},
    {"key of no index", m_index_key_renamed,
     "design.yaml:11:85: error: entity 'Order': key template for 'GSI1SK', which is neither the table's nor any index's key "
     "attribute (did you mean 'GSI1PK'?)",
     1},
    {"include without projection include", m_include_all,
     "design.yaml:4:60: error: index 'GSI1': 'include' is given but the projection is all; expected projection: include",
     1},
    {"update on a read", m_update_on_read,
     "design.yaml:17:5: error: pattern 1: op update on a read pattern; expected kind: write", 1},
    {"signal entity", m_signal_entity,
     "design.yaml:21:61: error: decision D1: signal \"entity.Ordr.count > 5\" names unknown entity 'Ordr' (did you mean 'Order'?)",
     1},
    {"decision pattern", m_decision_pattern,
     "design.yaml:21:47: error: decision D1: unknown pattern '22'; expected one of: 1, 2, 3", 1},
    {"sparse value", m_sparse_value,
     "design.yaml:12:33: error: entity 'Order': sparse condition value 'opn' is not a value of enum 'status' (did you mean 'open'?)",
     1},
    {"by attribute", m_by_attr,
     "design.yaml:18:69: error: pattern 2: 'by' names 'customer', which no entity of the pattern (OrderSummary) carries "
     "(did you mean 'customerId'?)",
     1},
    {"entity without name", m_no_entity_name,
     "design.yaml:13:5: error: entity #2: 'name' is missing; expected the entity's name", 3},
};

static void test_base_is_valid(void **state)
{
    (void)state;
    kp_design *d = base();
    kp_diags dg;
    diags_init(&dg, "design.yaml");
    assert_true(validate_design(d, &dg));
    assert_int_equal(dg.n, 0);
    diags_free(&dg);
    design_free(d);
}

static void test_edits(void **state)
{
    (void)state;
    size_t failed = 0;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const struct vcase *c = &cases[i];
        kp_design *d = base();
        c->mutate(d);
        kp_diags dg;
        diags_init(&dg, "design.yaml");
        bool ok = validate_design(d, &dg);
        char *first = dg.n ? diags_format(&dg, 0) : NULL;
        if (ok || !first || strcmp(first, c->first) != 0 || dg.errors != c->errors) {
            failed++;
            print_error("case '%s':\n  expected: %s (%zu error(s))\n  got:      %s (%zu error(s))\n", c->name,
                        c->first, c->errors, first ? first : "(none)", dg.errors);
            diags_print(&dg, stderr);
        }
        free(first);
        diags_free(&dg);
        /* loc-free pointer data: a null entity name must not break the look-ups */
        design_free(d);
    }
    if (failed)
        fail_msg("%zu validation case(s) failed", failed);
}

/* A design built in code, nothing filled in: every missing name reported, no crash. */
static void test_empty_design(void **state)
{
    (void)state;
    kp_design *d = design_new();
    d->entities = xcalloc(1, sizeof *d->entities);
    entity_init(&d->entities[0]);
    d->nentities = 1;
    d->patterns = xcalloc(1, sizeof *d->patterns);
    pattern_init(&d->patterns[0]);
    d->npatterns = 1;
    d->indexes = xcalloc(1, sizeof *d->indexes);
    index_init(&d->indexes[0]);
    d->nindexes = 1;
    d->decisions = xcalloc(1, sizeof *d->decisions);
    decision_init(&d->decisions[0]);
    d->ndecisions = 1;
    kp_diags dg;
    diags_init(&dg, "new design");
    assert_false(validate_design(d, &dg));
    static const char *const want[] = {
        "new design: error: table: 'name' is missing; expected the table's name",
        "new design: error: table: 'pk' is missing; expected the partition key attribute name",
        "new design: error: index #1: 'name' is missing; expected the index's name",
        "new design: error: index #1: 'pk' is missing; expected the item attribute the index is partitioned on",
        "new design: error: entity #1: 'name' is missing; expected the entity's name",
        "new design: error: pattern #1: 'id' is missing; expected a unique id (a number or a short name)",
        "new design: error: pattern #1: 'name' is missing; expected a short description of the pattern",
        "new design: error: pattern #1 names no entity; expected entity: X or entities: [X, Y] (or served_by: for what "
        "DynamoDB cannot serve)",
        "new design: error: decision #1: 'id' is missing; expected a unique id such as D1",
    };
    assert_int_equal(dg.n, sizeof want / sizeof *want);
    for (size_t i = 0; i < dg.n; i++) {
        char *s = diags_format(&dg, i);
        assert_string_equal(s, want[i]);
        free(s);
    }
    diags_free(&dg);
    design_free(d);
}

/* validate_design appends: diagnostics already in the list stay, and the result only speaks of
 * the new ones. */
static void test_appends(void **state)
{
    (void)state;
    kp_design *d = base();
    kp_diags dg;
    diags_init(&dg, "design.yaml");
    diags_add(&dg, KP_INVALID, (kp_loc){1, 1}, "earlier problem");
    assert_true(validate_design(d, &dg));
    assert_int_equal(dg.n, 1);
    pat(d, "2")->limit = -3;
    assert_false(validate_design(d, &dg));
    assert_int_equal(dg.n, 2);
    assert_int_equal(dg.v[1].code, KP_RANGE);
    diags_free(&dg);
    design_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_base_is_valid),
        cmocka_unit_test(test_edits),
        cmocka_unit_test(test_empty_design),
        cmocka_unit_test(test_appends),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
