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
#include "edit.h"

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

static void m_replicas(kp_design *d, const char *a, const char *b)
{
    d->table.replicas = xcalloc(2, sizeof *d->table.replicas);
    d->table.replicas[0] = str_make(a, (kp_loc){2, 50});
    d->table.replicas[1] = str_make(b, (kp_loc){2, 61});
    d->table.nreplicas = 2;
}
static void m_replicas_bad(kp_design *d) { m_replicas(d, "eu-west-1", "Europe"); }
static void m_replicas_twice(kp_design *d) { m_replicas(d, "eu-west-1", "eu-west-1"); }

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
    {"replica not a region", m_replicas_bad,
     "design.yaml:2:61: error: table: replica 'Europe' is not a region name; expected a region such as eu-west-1",
     1},
    {"replica twice", m_replicas_twice,
     "design.yaml:2:61: error: table: replica region 'eu-west-1' is listed twice; expected each region once",
     1},
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

/* Runs each case on the base design: a case with `first` must be refused with exactly that first
 * message and error count, one without must stay valid with nothing said. Returns the failures. */
static size_t run_cases(const struct vcase *v, size_t n)
{
    size_t failed = 0;
    for (size_t i = 0; i < n; i++) {
        const struct vcase *c = &v[i];
        kp_design *d = base();
        c->mutate(d);
        kp_diags dg;
        diags_init(&dg, "design.yaml");
        bool ok = validate_design(d, &dg);
        char *first = dg.n ? diags_format(&dg, 0) : NULL;
        bool good = c->first ? !ok && first && strcmp(first, c->first) == 0 && dg.errors == c->errors
                             : ok && dg.n == 0;
        if (!good) {
            failed++;
            print_error("case '%s':\n  expected: %s (%zu error(s))\n  got:      %s (%zu error(s))\n", c->name,
                        c->first ? c->first : "(valid)", c->errors, first ? first : "(none)", dg.errors);
            diags_print(&dg, stderr);
        }
        free(first);
        diags_free(&dg);
        /* loc-free pointer data: a null entity name must not break the look-ups */
        design_free(d);
    }
    return failed;
}

static void test_edits(void **state)
{
    (void)state;
    size_t failed = run_cases(cases, sizeof cases / sizeof *cases);
    if (failed)
        fail_msg("%zu validation case(s) failed", failed);
}

/* ---- DynamoDB's schema limits: each at the limit (valid) and one past it (refused) ---------- */

/* Appends `n` indexes of `kind` named PREFIXk (k from `from`), each on its own key attributes. */
static void add_indexes(kp_design *d, kp_index_kind kind, const char *prefix, int from, int n)
{
    d->indexes = xrealloc(d->indexes, (d->nindexes + (size_t)n) * sizeof *d->indexes);
    for (int k = from; k < from + n; k++) {
        kp_index *x = &d->indexes[d->nindexes++];
        index_init(x);
        x->kind = kind;
        x->name = xasprintf("%s%d", prefix, k);
        x->loc = (kp_loc){30 + k, 5};
        char *pk = kind == KP_LSI ? xstrdup("PK") : xasprintf("%s%dPK", prefix, k);
        char *sk = xasprintf("%s%dSK", prefix, k);
        x->pk = str_make(pk, x->loc);
        x->sk = str_make(sk, x->loc);
        x->projection = KP_PROJ_KEYS;
        free(pk);
        free(sk);
    }
}
static void m_gsis_20(kp_design *d) { add_indexes(d, KP_GSI, "GSI", 2, 19); }
static void m_gsis_21(kp_design *d) { add_indexes(d, KP_GSI, "GSI", 2, 20); }
static void m_lsis_5(kp_design *d) { add_indexes(d, KP_LSI, "LSI", 1, 5); }
static void m_lsis_6(kp_design *d) { add_indexes(d, KP_LSI, "LSI", 1, 6); }

static void set_name(char **slot, const char *fill, size_t n)
{
    free(*slot);
    *slot = xmalloc(n + 1);
    for (size_t i = 0; i < n; i++)
        (*slot)[i] = fill[i % strlen(fill)];
    (*slot)[n] = '\0';
}
static void m_table_name_3(kp_design *d) { set_name(&d->table.name, "Abc", 3); }
static void m_table_name_2(kp_design *d) { set_name(&d->table.name, "Ab", 2); }
static void m_table_name_255(kp_design *d) { set_name(&d->table.name, "Orders_v2.x-", 255); }
static void m_table_name_256(kp_design *d) { set_name(&d->table.name, "Orders_v2.x-", 256); }
static void m_table_name_space(kp_design *d) { set_name(&d->table.name, "My table", 8); }
static void m_index_name_2(kp_design *d) { set_name(&d->indexes[0].name, "G1", 2); }
static void m_index_name_colon(kp_design *d) { set_name(&d->indexes[0].name, "GSI:1", 5); }

/* GSI1 projects `n` attributes, the second index `m` (when m > 0), every one carried by Order. */
static void project(kp_design *d, int n, int m)
{
    kp_entity *e = &d->entities[0];
    int total = n + m;
    e->attrs = xrealloc(e->attrs, (e->nattrs + (size_t)total) * sizeof *e->attrs);
    for (int k = 0; k < total; k++) {
        char *a = xasprintf("a%d", k);
        e->attrs[e->nattrs++] = str_make(a, (kp_loc){10, 5});
        free(a);
    }
    if (m > 0)
        add_indexes(d, KP_GSI, "GSI", 2, 1);
    for (int x = 0; x < (m > 0 ? 2 : 1); x++) {
        kp_index *ix = &d->indexes[x];
        int cnt = x ? m : n, base = x ? n : 0;
        ix->projection = KP_PROJ_INCLUDE;
        ix->include = xcalloc((size_t)cnt, sizeof *ix->include);
        for (int k = 0; k < cnt; k++) {
            char *a = xasprintf("a%d", base + k);
            ix->include[k] = str_make(a, (kp_loc){4 + x, 60 + k});
            free(a);
        }
        ix->ninclude = (size_t)cnt;
    }
}
static void m_projected_100(kp_design *d) { project(d, 100, 0); }
static void m_projected_101(kp_design *d) { project(d, 101, 0); }
static void m_projected_50_50(kp_design *d) { project(d, 50, 50); }
static void m_projected_50_51(kp_design *d) { project(d, 50, 51); }

static void set_tpl(kp_design *d, size_t entity, const char *attr, const char *src)
{
    kp_entity *e = &d->entities[entity];
    kp_keytpl *k = (kp_keytpl *)entity_key(e, attr);
    if (!k) {
        e->keys = xrealloc(e->keys, (e->nkeys + 1) * sizeof *e->keys);
        k = &e->keys[e->nkeys++];
        memset(k, 0, sizeof *k);
        k->attr = str_make(attr, (kp_loc){16, 20});
        k->loc = (kp_loc){16, 30};
    } else {
        tpl_free(&k->tpl);
    }
    assert_int_equal(tpl_parse(src, &k->tpl, NULL, NULL), KP_OK);
}
/* "ORDER#" + n x's + {orderId} (a string of unknown length): the sure size is 6 + n bytes */
static void pk_of(kp_design *d, size_t n)
{
    char *x = xmalloc(n + 1);
    memset(x, 'x', n);
    x[n] = '\0';
    char *src = xasprintf("ORDER#%s{orderId}", x);
    set_tpl(d, 0, "PK", src);
    free(src);
    free(x);
}
static void m_pk_2048(kp_design *d) { pk_of(d, 2042); }
static void m_pk_2049(kp_design *d) { pk_of(d, 2043); }
/* GSI1SK of Order: a zero-padded number 999 wide, and an enum's longest value ("closed", 6) */
static void m_sk_1024(kp_design *d) { set_tpl(d, 0, "GSI1SK", "{status}#{n:999}#xxxxxxxxxxxxxxxxx"); }
static void m_sk_1025(kp_design *d) { set_tpl(d, 0, "GSI1SK", "{status}#{n:999}#xxxxxxxxxxxxxxxxxx"); }
static void m_key_types(kp_design *d)
{
    /* orderId a number: Order's GSI1SK "{orderId}" is a number key, OrderSummary's a string */
    d->attrs = xrealloc(d->attrs, (d->nattrs + 1) * sizeof *d->attrs);
    kp_attr *a = &d->attrs[d->nattrs++];
    attr_init(a);
    a->name = xstrdup("orderId");
    a->type = KP_ATTR_NUMBER;
    set_tpl(d, 1, "GSI1SK", "S#{orderDate}");
}
static void m_item_400kb(kp_design *d) { d->entities[0].size = 409600; }
static void m_item_over(kp_design *d) { d->entities[0].size = 409601; }
static const struct vcase limits[] = {
    {"20 GSIs", m_gsis_20, NULL, 0},
    {"21 GSIs", m_gsis_21,
     "design.yaml:51:5: error: index 'GSI21' is GSI number 21 of the table; DynamoDB allows 20 GSIs per table (a default "
     "quota AWS raises on request); expected at most 20, or one GSI overloaded by several entities",
     1},
    {"5 LSIs", m_lsis_5, NULL, 0},
    {"6 LSIs", m_lsis_6,
     "design.yaml:36:5: error: index 'LSI6' is LSI number 6 of the table; DynamoDB allows 5 LSIs per table; expected at "
     "most 5 (or a GSI)",
     1},
    {"table name of 3", m_table_name_3, NULL, 0},
    {"table name of 2", m_table_name_2,
     "design.yaml:2:8: error: table: table name 'Ab' is 2 characters long; DynamoDB takes table names of 3 to 255 "
     "characters",
     1},
    {"table name of 255", m_table_name_255, NULL, 0},
    {"table name of 256", m_table_name_256,
     "design.yaml:2:8: error: table: table name 'Orders_v2.x-Orders_v2.x-Orders_v2.x-Orde...' is 256 characters long; "
     "DynamoDB takes table names of 3 to 255 characters",
     1},
    {"table name with a space", m_table_name_space,
     "design.yaml:2:8: error: table: table name 'My table' has a character DynamoDB refuses at byte 3; expected only "
     "A-Z a-z 0-9 _ - . in table names",
     1},
    {"index name of 2", m_index_name_2,
     "design.yaml:4:5: error: index 'G1': index name 'G1' is 2 characters long; DynamoDB takes index names of 3 to 255 "
     "characters",
     1},
    {"index name with a colon", m_index_name_colon,
     "design.yaml:4:5: error: index 'GSI:1': index name 'GSI:1' has a character DynamoDB refuses at byte 4; expected "
     "only A-Z a-z 0-9 _ - . in index names",
     1},
    {"100 projected attributes", m_projected_100, NULL, 0},
    {"101 projected attributes", m_projected_101,
     "design.yaml:4:160: error: index 'GSI1': include 'a100' is projected attribute 101 of the table's indexes; "
     "DynamoDB allows 100 in total over every index (an attribute in two indexes counts twice); expected at most 100, "
     "or projection: all",
     1},
    {"50 + 50 projected attributes", m_projected_50_50, NULL, 0},
    {"50 + 51 projected attributes", m_projected_50_51,
     "design.yaml:5:110: error: index 'GSI2': include 'a100' is projected attribute 101 of the table's indexes; "
     "DynamoDB allows 100 in total over every index (an attribute in two indexes counts twice); expected at most 100, "
     "or projection: all",
     1},
    {"partition key of 2,048 bytes", m_pk_2048, NULL, 0},
    {"partition key of 2,049 bytes", m_pk_2049,
     "design.yaml:11:17: error: entity 'Order': PK values reach 2049 bytes (literals, the longest enum values, padded "
     "numbers); DynamoDB refuses partition key values over 2048 bytes; expected a shorter template",
     1},
    {"sort key of 1,024 bytes", m_sk_1024, NULL, 0},
    {"sort key of 1,025 bytes", m_sk_1025,
     "design.yaml:11:93: error: entity 'Order': GSI1SK values reach 1025 bytes (literals, the longest enum values, "
     "padded numbers); DynamoDB refuses sort key values over 1024 bytes; expected a shorter template",
     1},
    {"key attribute of two types", m_key_types,
     "design.yaml:16:30: error: entity 'OrderSummary': key attribute 'GSI1SK' is a string here but a number for entity "
     "'Order'; DynamoDB gives a key attribute one type for every item; expected the same type for both (a number "
     "inside a text template such as \"N#{n:05}\" is a string)",
     1},
    {"item of 400 KB", m_item_400kb, NULL, 0},
    {"item of 409,601 bytes", m_item_over,
     "design.yaml:9:5: error: entity 'Order': items of 409601 bytes are over DynamoDB's item limit of 400 KB (409600 "
     "bytes); expected size <= 409600 (keep a large payload in S3 and its reference in the item)",
     1},
};

static void test_limits(void **state)
{
    (void)state;
    /* each refusal names DynamoDB's rule */
    for (size_t i = 0; i < sizeof limits / sizeof *limits; i++)
        if (limits[i].first && !strstr(limits[i].first, "DynamoDB"))
            fail_msg("case '%s' does not name DynamoDB's rule", limits[i].name);
    size_t failed = run_cases(limits, sizeof limits / sizeof *limits);
    if (failed)
        fail_msg("%zu limit case(s) failed", failed);
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

/* The list of validate_pattern_edit is validate_design's, diagnostic by diagnostic. */
static void expect_same_list(const kp_diags *got, const kp_diags *want, int step)
{
    if (got->n != want->n || got->errors != want->errors)
        fail_msg("step %d: %zu diagnostics (%zu errors), the whole validation %zu (%zu)", step, got->n,
                 got->errors, want->n, want->errors);
    for (size_t i = 0; i < got->n; i++) {
        const kp_diag *a = &got->v[i], *b = &want->v[i];
        if (a->code != b->code || a->sev != b->sev || a->loc.line != b->loc.line ||
            a->loc.col != b->loc.col || strcmp(a->msg, b->msg) != 0)
            fail_msg("step %d, diagnostic %zu: \"%s\", the whole validation \"%s\"", step, i, a->msg, b->msg);
    }
}

/* A verdict and list of an incremental validation (ok, dg) against a whole validation of d, the
 * verdicts counted in *nerr and *nok. */
static void expect_whole(const kp_design *d, bool ok, const kp_diags *dg, int step, size_t *nerr, size_t *nok)
{
    kp_diags whole;
    diags_init(&whole, "design.yaml");
    assert_int_equal(ok, validate_design(d, &whole));
    expect_same_list(dg, &whole, step);
    diags_free(&whole);
    *nerr += !ok;
    *nok += ok;
}

/* The base design with 12 patterns (more to cover and to be covered), validated whole into *dg
 * and *m (the list the incremental validations start from). */
static kp_design *twelve(kp_diags *dg, validate_memo *m)
{
    kp_design *d = base();
    for (size_t i = 0; i < 9; i++)
        edit_duplicate(d, EDIT_PATTERNS, i % 3);
    diags_init(dg, "design.yaml");
    *m = (validate_memo){0};
    validate_design_memo(d, dg, m);
    return d;
}

/* Random edits of patterns' cells (figures, names, entities, attributes, covered_by, served_by,
 * kinds; values of other rows, names of the design, figures and nonsense), each validated again
 * for the edited pattern alone: the list and the verdict equal a whole validation's after every
 * edit. An edit of an id (which others refer to) takes the whole validation, as the workbench
 * does. */
static void test_pattern_edit_equals_whole(void **state)
{
    (void)state;
    kp_diags dg;
    validate_memo m;
    kp_design *d = twelve(&dg, &m);
    static const char *const words[] = {"1",
                                        "2",
                                        "3",
                                        "Order",
                                        "OrderSummary",
                                        "orderId",
                                        "customerId",
                                        "status",
                                        "orderDate",
                                        "read",
                                        "write",
                                        "-4",
                                        "12.5",
                                        "",
                                        "nosuch",
                                        "Order, OrderSummary",
                                        "línea",
                                        "a stream"};
    unsigned seed = 7;
    size_t ncols = edit_ncols(d, EDIT_PATTERNS), nerr = 0, nok = 0;
    for (int step = 0; step < 1500; step++) {
        seed = seed * 1103515245u + 12345u;
        unsigned r = seed >> 8;
        size_t row = r % d->npatterns, col = (r / 64) % ncols;
        char *text = (r / 4096) % 3 == 0 ? edit_get(d, EDIT_PATTERNS, (r / 16) % d->npatterns, col)
                                         : xstrdup(words[(r / 16384) % (sizeof words / sizeof *words)]);
        bool one = edit_changes_pattern_only(EDIT_PATTERNS, col);
        char *was = edit_get(d, EDIT_PATTERNS, row, col);
        kp_status st = edit_set(d, EDIT_PATTERNS, row, col, text, NULL);
        free(text);
        /* the edit, then (mostly, when it broke the design) its undoing: both verdicts come */
        for (int k = 0; k < 2 && st == KP_OK; k++) {
            bool ok = one ? validate_pattern_edit(d, row, &dg, &m) : validate_design_memo(d, &dg, &m);
            expect_whole(d, ok, &dg, step, &nerr, &nok);
            if (ok || r % 32 == 0 || k == 1)
                break;
            assert_int_equal(edit_set(d, EDIT_PATTERNS, row, col, was, NULL), KP_OK);
        }
        free(was);
    }
    /* both verdicts were reached, many times */
    assert_true(nerr > 50 && nok > 50);
    validate_memo_free(&m);
    diags_free(&dg);
    design_free(d);
}

/* A row step of d's patterns (a delete, the last deleted one put back at its row, a duplicate,
 * an add, a move up or down) into *op; false when it did not apply. */
static bool row_step(kp_design *d, unsigned r, kp_pattern *gone, size_t *gone_row, bool *have, kp_rowop *op)
{
    size_t row = (r / 8) % d->npatterns;
    switch (r % 6) {
    case 0:
        if (d->npatterns < 4)
            return false;
        if (*have)
            pattern_free(gone);
        *gone = d->patterns[row];
        *gone_row = row;
        *have = true;
        *op = (kp_rowop){KP_ROW_REMOVE, row, 0};
        kp_rowop_shift(d->patterns, d->npatterns, sizeof *d->patterns, *op);
        d->npatterns--;
        return true;
    case 1:
        if (!*have || *gone_row > d->npatterns)
            return false;
        *op = (kp_rowop){KP_ROW_INSERT, *gone_row, 0};
        d->patterns = xrealloc(d->patterns, (d->npatterns + 1) * sizeof *d->patterns);
        kp_rowop_shift(d->patterns, d->npatterns, sizeof *d->patterns, *op);
        d->patterns[*gone_row] = *gone; /* taken */
        d->npatterns++;
        *have = false;
        return true;
    case 2:
        *op = (kp_rowop){KP_ROW_INSERT, edit_duplicate(d, EDIT_PATTERNS, row), 0};
        return true;
    case 3: { /* a new pattern, given an entity (as the next keystrokes would) */
        size_t at = edit_add(d, EDIT_PATTERNS, row);
        int ecol = edit_col_find(d, EDIT_PATTERNS, "entity");
        if (ecol >= 0 && r % 4)
            edit_set(d, EDIT_PATTERNS, at, (size_t)ecol, "Order", NULL);
        *op = (kp_rowop){KP_ROW_INSERT, at, 0};
        return true;
    }
    default: {
        int by = r % 6 == 4 ? -1 : 1;
        *op = (kp_rowop){KP_ROW_MOVE, row, (size_t)((ptrdiff_t)row + by)};
        return edit_move(d, EDIT_PATTERNS, row, by);
    }
    }
}

/* Row steps (deleted, put back, duplicated, added, moved) among random edits of cells (ids and
 * covered_by among them, so that duplicates and references come and go), each step validated
 * by validate_rows_edit on the list before it, each id changed by validate_pattern_id_edit: the
 * list and the verdict equal a whole validation's after every step. */
static void test_rows_edit_equals_whole(void **state)
{
    (void)state;
    kp_diags dg;
    validate_memo m;
    kp_design *d = twelve(&dg, &m);
    static const char *const words[] = {"1",    "2",     "3",  "Order", "orderId", "nosuch",
                                        "read", "write", "-4", "",      "línea"};
    unsigned seed = 11;
    size_t ncols = edit_ncols(d, EDIT_PATTERNS), nsteps = 0, nerr = 0, nok = 0, nids = 0;
    int idcol = edit_col_find(d, EDIT_PATTERNS, "id"), cbcol = edit_col_find(d, EDIT_PATTERNS, "covered_by");
    assert_true(idcol >= 0 && cbcol >= 0);
    kp_pattern gone;
    size_t gone_row = 0;
    bool have = false;
    for (int step = 0; step < 1500; step++) {
        seed = seed * 1103515245u + 12345u;
        unsigned r = seed >> 8;
        bool ok;
        if (r % 2) {
            kp_rowop op;
            if (!row_step(d, r / 2, &gone, &gone_row, &have, &op))
                continue;
            ok = validate_rows_edit(d, op, &dg, &m);
            nsteps++;
        } else if (r % 16 == 2) { /* a fresh design again, validated whole */
            design_free(d);
            d = base();
            for (size_t i = 0; i < 9; i++)
                edit_duplicate(d, EDIT_PATTERNS, i % 3);
            ok = validate_design_memo(d, &dg, &m);
        } else { /* a cell: mostly an id or a covered_by */
            size_t row = (r / 2) % d->npatterns;
            size_t col = (r / 64) % 4 == 0   ? (r / 256) % ncols
                         : (r / 64) % 4 == 1 ? (size_t)idcol
                                             : (size_t)cbcol;
            char *text = (r / 4096) % 3 == 0
                             ? edit_get(d, EDIT_PATTERNS, (r / 16) % d->npatterns, (size_t)idcol)
                             : xstrdup(words[(r / 16384) % (sizeof words / sizeof *words)]);
            kp_status st = edit_set(d, EDIT_PATTERNS, row, col, text, NULL);
            free(text);
            if (st != KP_OK)
                continue;
            /* an id changed (the covered_by and decisions naming it follow): told so */
            bool pid = edit_renames_pattern(EDIT_PATTERNS, col);
            ok = pid ? validate_pattern_id_edit(d, row, &dg, &m) : validate_design_memo(d, &dg, &m);
            nids += pid;
        }
        expect_whole(d, ok, &dg, step, &nerr, &nok);
    }
    assert_true(nsteps > 300 && nerr > 50 && nok > 50 && nids > 50);
    if (have)
        pattern_free(&gone);
    validate_memo_free(&m);
    diags_free(&dg);
    design_free(d);
}

/* Random edits of the design's rest (settings, decisions: names, figures, pattern ids, nonsense)
 * among edits of patterns' cells, each rest edit validated by validate_rest_edit on the list
 * before it: the list and the verdict equal a whole validation's after every edit. */
static void test_rest_edit_equals_whole(void **state)
{
    (void)state;
    kp_diags dg;
    validate_memo m;
    kp_design *d = twelve(&dg, &m);
    static const char *const words[] = {"provisioned",
                                        "on-demand",
                                        "0.5",
                                        "2",
                                        "-1",
                                        "",
                                        "true",
                                        "false",
                                        "nosuch",
                                        "1",
                                        "línea",
                                        "accepted",
                                        "pattern.1.rate > 100",
                                        "GSI1",
                                        "x"};
    unsigned seed = 13;
    kp_design *memo_of = design_clone(d); /* the design the list and m are of */
    size_t nrest = 0, nerr = 0, nok = 0;
    for (int step = 0; step < 2000; step++) {
        seed = seed * 1103515245u + 12345u;
        unsigned r = seed >> 8;
        edit_table t = r % 5 == 0 ? EDIT_PATTERNS : r % 5 < 3 ? EDIT_SETTINGS : EDIT_DECISIONS;
        if (t == EDIT_DECISIONS && (r / 8) % 16 == 0) { /* a decision added or deleted */
            bool done = (r / 128) % 2 ? edit_add(d, EDIT_DECISIONS, 0) != (size_t)-1
                                      : edit_delete(d, EDIT_DECISIONS, 0);
            if (done) {
                bool rest = design_same_model(memo_of, d);
                bool ok = rest ? validate_rest_edit(d, &dg, &m) : validate_design_memo(d, &dg, &m);
                expect_whole(d, ok, &dg, step, &nerr, &nok);
                nrest += rest;
                design_free(memo_of);
                memo_of = design_clone(d);
            }
            continue;
        }
        size_t nr = edit_nrows(d, t), nc = edit_ncols(d, t);
        if (!nr || !nc)
            continue;
        size_t row = (r / 8) % nr, col = t == EDIT_SETTINGS ? 1 : (r / 256) % nc;
        char *text = (r / 4096) % 3 == 0 ? edit_get(d, t, (r / 16) % nr, col)
                                         : xstrdup(words[(r / 16384) % (sizeof words / sizeof *words)]);
        char *old = edit_get(d, t, row, col);
        kp_status st = edit_set(d, t, row, col, text, NULL);
        free(text);
        /* the edit, then (mostly, when it broke the design) its undoing: both verdicts come */
        for (int k = 0; k < 2 && st == KP_OK; k++) {
            bool rest = design_same_model(memo_of, d), ok;
            if (rest) {
                ok = validate_rest_edit(d, &dg, &m);
                nrest++;
            } else {
                ok = validate_design_memo(d, &dg, &m);
            }
            expect_whole(d, ok, &dg, step, &nerr, &nok);
            design_free(memo_of);
            memo_of = design_clone(d);
            if (ok || r % 8 == 0 || k == 1)
                break;
            assert_int_equal(edit_set(d, t, row, col, old, NULL), KP_OK);
        }
        free(old);
    }
    if (!(nrest > 500 && nerr > 50 && nok > 50))
        fail_msg("rest %zu, err %zu, ok %zu", nrest, nerr, nok);
    design_free(memo_of);
    validate_memo_free(&m);
    diags_free(&dg);
    design_free(d);
}

/* Random edits of entities' cells (figures, attributes, key templates, sparse rules),
 * attributes' (types, distinct values, enum values and shares) and indexes' (types, projections;
 * values of other rows, names of the design, nonsense) among edits of patterns' cells, each edit
 * of one element that keeps its name validated by validate_row_edit on the list before it: the
 * list and the verdict equal a whole validation's after every edit. */
static void test_row_edit_equals_whole(void **state)
{
    (void)state;
    kp_diags dg;
    validate_memo m;
    kp_design *d = twelve(&dg, &m);
    static const char *const words[] = {"1000",
                                        "-3",
                                        "",
                                        "500000",
                                        "orderId, status",
                                        "orderId",
                                        "nosuch",
                                        "CUSTOMER#{customerId}",
                                        "ORDER#{orderId}",
                                        "{nosuch}",
                                        "DIRECCIÓN#casa",
                                        "status = paid",
                                        "status",
                                        "GSI1PK+GSI1SK",
                                        "Order",
                                        "línea",
                                        "enum",
                                        "paid: 0.5, shipped: 0.5",
                                        "paid: 0.9",
                                        "status=open",
                                        "orderId, status=closed",
                                        "open: 0.6, closed: 0.4",
                                        "zipf:1.2",
                                        "keys",
                                        "include",
                                        "lsi",
                                        "03"};
    unsigned seed = 29;
    size_t nent = 0, nerr = 0, nok = 0, by_table[EDIT__TABLES] = {0}, nidx = 0;
    /* first, a pattern that fixes status=open, then the enum's values without it and with it:
       that pattern's check reads the attribute */
    int by = edit_col_find(d, EDIT_PATTERNS, "by"), values = edit_col_find(d, EDIT_ATTRS, "values");
    assert_true(by >= 0 && values >= 0);
    assert_int_equal(edit_set(d, EDIT_PATTERNS, 0, (size_t)by, "orderId, status=open", NULL), KP_OK);
    expect_whole(d, validate_design_memo(d, &dg, &m), &dg, -1, &nerr, &nok);
    static const char *const shares[] = {"paid: 0.9", "open: 0.5, closed: 0.5"};
    for (int k = 0; k < 2; k++) {
        assert_int_equal(edit_set(d, EDIT_ATTRS, 0, (size_t)values, shares[k], NULL), KP_OK);
        expect_whole(d, validate_row_edit(d, EDIT_ATTRS, 0, &dg, &m), &dg, -1, &nerr, &nok);
    }
    assert_int_equal(nerr, 1); /* paid alone: open is no value of the enum */
    /* then the enum renamed while that pattern fails it, and back: the pattern reads it by its old
       name (its error goes) and by its new one (it comes back) */
    int name = edit_col_find(d, EDIT_ATTRS, "name");
    assert_true(name >= 0);
    assert_int_equal(edit_set(d, EDIT_ATTRS, 0, (size_t)values, "paid: 0.5, shipped: 0.5", NULL), KP_OK);
    expect_whole(d, validate_row_edit(d, EDIT_ATTRS, 0, &dg, &m), &dg, -1, &nerr, &nok);
    static const char *const names[] = {"estado_línea", "status"};
    for (int k = 0; k < 2; k++) {
        assert_int_equal(edit_set(d, EDIT_ATTRS, 0, (size_t)name, names[k], NULL), KP_OK);
        assert_true(validate_row_edit(d, EDIT_ATTRS, 0, &dg, &m) == (k == 0));
        expect_whole(d, dg.errors == 0, &dg, -1, &nerr, &nok);
        if (k == 1)
            break;
        /* a pattern fixing the new name to a value it lacks: the rename back is told by that name */
        assert_int_equal(edit_set(d, EDIT_PATTERNS, 0, (size_t)by, "orderId, estado_línea=open", NULL),
                         KP_OK);
        expect_whole(d, validate_pattern_edit(d, 0, &dg, &m), &dg, -1, &nerr, &nok);
    }
    assert_int_equal(edit_set(d, EDIT_PATTERNS, 0, (size_t)by, "orderId, status=open", NULL), KP_OK);
    expect_whole(d, validate_pattern_edit(d, 0, &dg, &m), &dg, -1, &nerr, &nok);
    assert_int_equal(edit_set(d, EDIT_ATTRS, 0, (size_t)values, shares[1], NULL), KP_OK);
    expect_whole(d, validate_row_edit(d, EDIT_ATTRS, 0, &dg, &m), &dg, -1, &nerr, &nok);
    assert_int_equal(nerr, 5);
    for (int step = 0; step < 2500; step++) {
        seed = seed * 1103515245u + 12345u;
        unsigned r = seed >> 8;
        if (step % 24 == 23 && dg.errors) { /* broken for a while: the design starts again */
            validate_memo_free(&m);
            diags_free(&dg);
            design_free(d);
            d = twelve(&dg, &m);
        }
        if (r % 23 == 5) { /* a step of the indexes' list: the patterns' checks stand */
            size_t ni = edit_nrows(d, EDIT_INDEXES), at = ni ? (r / 8) % ni : 0;
            bool made = (r / 64) % 4 == 0   ? edit_add(d, EDIT_INDEXES, at) != (size_t)-1
                        : (r / 64) % 4 == 1 ? ni && edit_duplicate(d, EDIT_INDEXES, at) != (size_t)-1
                        : (r / 64) % 4 == 2 ? ni && edit_delete(d, EDIT_INDEXES, at)
                                            : ni > 1 && edit_move(d, EDIT_INDEXES, at, at ? -1 : 1);
            if (made) {
                expect_whole(d, validate_index_rows_edit(d, &dg, &m), &dg, step, &nerr, &nok);
                nidx++;
            }
            continue;
        }
        static const edit_table tables[] = {EDIT_PATTERNS, EDIT_ENTITIES, EDIT_ENTITIES, EDIT_KEYS,
                                            EDIT_KEYS,     EDIT_ATTRS,    EDIT_ATTRS,    EDIT_INDEXES};
        edit_table t = tables[r % 8];
        size_t nr = edit_nrows(d, t), nc = edit_ncols(d, t);
        if (!nr || !nc)
            continue;
        size_t row = (r / 8) % nr, col = (r / 256) % nc;
        char *text = (r / 4096) % 3 == 0 ? edit_get(d, t, (r / 16) % nr, col)
                                         : xstrdup(words[(r / 16384) % (sizeof words / sizeof *words)]);
        bool ent = edit_changes_row_only(d, t, col);
        char *old = edit_get(d, t, row, col);
        kp_status st = edit_set(d, t, row, col, text, NULL);
        free(text);
        /* the edit, then (mostly, when it broke the design) its undoing: both verdicts come */
        for (int k = 0; k < 2 && st == KP_OK; k++) {
            bool ok = ent ? validate_row_edit(d, t, row, &dg, &m) : validate_design_memo(d, &dg, &m);
            expect_whole(d, ok, &dg, step, &nerr, &nok);
            nent += ent;
            by_table[t] += ent;
            if (ok || r % 8 == 0 || k == 1)
                break;
            /* the Keys table's columns follow the entities' attributes: the old text may be
               another column's now */
            if (edit_set(d, t, row, col, old, NULL) != KP_OK)
                break;
        }
        free(old);
    }
    if (!(nent > 500 && nerr > 50 && nok > 50 && by_table[EDIT_ATTRS] > 100 && by_table[EDIT_INDEXES] > 50 &&
          nidx > 30))
        fail_msg("elements %zu (attributes %zu, indexes %zu), index rows %zu, err %zu, ok %zu", nent,
                 by_table[EDIT_ATTRS], by_table[EDIT_INDEXES], nidx, nerr, nok);
    validate_memo_free(&m);
    diags_free(&dg);
    design_free(d);
}

/* The errors of d, as a whole validation gives them, one text. */
static char *errors_of(const kp_design *d, bool after_only)
{
    kp_diags dg;
    diags_init(&dg, NULL);
    if (after_only)
        validate_after_patterns(d, &dg);
    else
        validate_design(d, &dg);
    sbuf b;
    sbuf_init(&b);
    for (size_t k = 0; k < dg.n; k++)
        if (dg.v[k].sev == KP_SEV_ERROR)
            sbuf_printf(&b, "%s\n", dg.v[k].msg);
    diags_free(&dg);
    return sbuf_steal(&b);
}

/* Decisions' cells set at random (ids, the patterns they name, signals: names, nonsense) on a
 * design whose rest validates: the checks after the patterns' alone give the errors a whole
 * validation gives, none of them elsewhere (what salvage relies on to put decisions back); and
 * the same checks made again on one context (validate_after) give its verdict and first error. */
static void test_after_patterns_alone(void **state)
{
    (void)state;
    kp_design *d = base();
    static const char *const words[] = {"D1", "D2", "1", "2, 3", "nosuch", "", "pattern.1.rate > 5",
                                        "pattern.nosuch.rate > 5", "index.GSI9.items > 1", "x >", "línea",
                                        /* a decision id past DynamoDB's 255 bytes for a name */
                                        "D%s"};
    char *longid = xasprintf("D%0300d", 1);
    unsigned seed = 17;
    size_t nbad = 0, ngood = 0;
    for (int step = 0; step < 400; step++) {
        seed = seed * 1103515245u + 12345u;
        unsigned r = seed >> 8;
        size_t nr = edit_nrows(d, EDIT_DECISIONS), nc = edit_ncols(d, EDIT_DECISIONS);
        if (r % 5 == 0) { /* afresh now and then: errors come and go */
            design_free(d);
            d = base();
        }
        if (!nr || r % 11 == 0) {
            edit_add(d, EDIT_DECISIONS, 0);
            continue;
        }
        const char *w = words[(r / 1024) % (sizeof words / sizeof *words)];
        edit_set(d, EDIT_DECISIONS, (r / 8) % nr, (r / 64) % nc, strcmp(w, "D%s") ? w : longid, NULL);
        char *whole = errors_of(d, false), *after = errors_of(d, true);
        assert_string_equal(after, whole);
        validate_after *t = validate_after_open(d);
        char *msg = NULL;
        assert_int_equal(validate_after_check(t, &msg), *whole == 0);
        if (*whole) /* the first line of the list is its first error */
            assert_true(strncmp(whole, msg, strlen(msg)) == 0 && whole[strlen(msg)] == '\n');
        free(msg);
        validate_after_close(t);
        nbad += *whole != 0;
        ngood += *whole == 0;
        free(whole);
        free(after);
    }
    if (nbad < 20 || ngood < 20)
        fail_msg("%zu edits with errors, %zu without; expected both, many times", nbad, ngood);
    free(longid);
    design_free(d);
}

/* The first error of validate_design(d), or "" when it validates. Caller frees. */
static char *first_error(const kp_design *d)
{
    kp_diags dg;
    diags_init(&dg, NULL);
    validate_design(d, &dg);
    char *m = NULL;
    for (size_t k = 0; k < dg.n && !m; k++)
        if (dg.v[k].sev == KP_SEV_ERROR)
            m = xstrdup(dg.v[k].msg);
    diags_free(&dg);
    return m ? m : xstrdup("");
}

/* Patterns broken at random (cells set to nonsense, ids taken, ids too long, covered_by this and
 * that), each tried alone (with the pattern it is covered by) on the model: validate_trial's
 * verdict and first error are validate_design's of the model with those patterns alone. */
static void test_trials_equal_whole(void **state)
{
    (void)state;
    kp_diags dg;
    validate_memo m;
    kp_design *d = twelve(&dg, &m);
    validate_memo_free(&m);
    diags_free(&dg);
    static const char *const words[] = {"1",     "2",  "Order", "orderId", "nosuch",       "read",
                                        "write", "-4", "",      "línea",   "status = paid"};
    char *longid = xcalloc(300, 1);
    memset(longid, 'x', 299);
    unsigned seed = 23;
    size_t ncols = edit_ncols(d, EDIT_PATTERNS), nbad = 0, ngood = 0;
    for (int step = 0; step < 600; step++) {
        seed = seed * 1103515245u + 12345u;
        unsigned r = seed >> 8;
        size_t row = (r / 2) % d->npatterns, col = (r / 64) % ncols;
        if (step % 150 == 149) { /* afresh now and then: patterns that pass come back */
            design_free(d);
            d = twelve(&dg, &m);
            validate_memo_free(&m);
            diags_free(&dg);
        }
        if (r % 41 == 0) { /* an id past DynamoDB's length for a name (set as a file may hold it) */
            free(d->patterns[row].id);
            d->patterns[row].id = xstrdup(longid);
        } else {
            edit_set(d, EDIT_PATTERNS, row, col, words[(r / 4096) % (sizeof words / sizeof *words)], NULL);
        }
        if (step % 20)
            continue;
        kp_design model = *d;
        model.patterns = NULL;
        model.npatterns = 0;
        model.decisions = NULL;
        model.ndecisions = 0;
        char *me = first_error(&model);
        assert_string_equal(me, ""); /* the model validates: what trials ask */
        free(me);
        validate_trials *t = validate_trials_open(d);
        for (size_t i = 0; i < d->npatterns; i++) {
            kp_pattern trial[2] = {d->patterns[i]};
            size_t nt = 1;
            for (size_t j = 0; j < d->npatterns && d->patterns[i].covered_by.s; j++)
                if (j != i && d->patterns[j].id &&
                    strcmp(d->patterns[j].id, d->patterns[i].covered_by.s) == 0) {
                    trial[nt++] = d->patterns[j];
                    break;
                }
            kp_design x = model;
            x.patterns = trial;
            x.npatterns = nt;
            char *want = first_error(&x), *got = NULL;
            bool ok = validate_trial(t, trial, nt, &got);
            assert_int_equal(ok, *want == 0);
            assert_string_equal(got ? got : "", want);
            nbad += !ok;
            ngood += ok;
            free(want);
            free(got);
        }
        validate_trials_close(t);
    }
    if (nbad < 30 || ngood < 30)
        fail_msg("%zu trials failed, %zu passed; expected both, many times", nbad, ngood);
    free(longid);
    design_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_base_is_valid),
        cmocka_unit_test(test_rest_edit_equals_whole),
        cmocka_unit_test(test_after_patterns_alone),
        cmocka_unit_test(test_trials_equal_whole),
        cmocka_unit_test(test_row_edit_equals_whole),
        cmocka_unit_test(test_edits),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_empty_design),
        cmocka_unit_test(test_appends),
        cmocka_unit_test(test_pattern_edit_equals_whole),
        cmocka_unit_test(test_rows_edit_equals_whole),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
