/* test_merge.c - the three-way merge of designs: one table row per kind of change (every record
 * added, changed, deleted on one side or both, lists of names, reordering), each asserting the
 * merged design or the conflicts; resolving conflicts (ours, theirs, a typed value); the line
 * diff behind the conflict markers; a property: edits of disjoint cells on both sides all reach
 * the merge. And on the real binary: keyplan merge-file (clean: exit 0; conflicts: exit 1 with
 * readable markers; unusable input: exit 2 with FILE:LINE) and keyplan merge (the working copy
 * onto the latest version with one undo step; on conflicts nothing changed). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "design_io.h"
#include "edit.h"
#include "fields.h"
#include "merge.h"
#include "support.h"
#include "workspace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The base of every case: tests/data/merge/base.yaml. */
static char *base_text;

/* base_text with the edits applied: "FROM >> TO" pairs separated by " ;; ", each replacing the
 * first occurrence of FROM (which must exist). Caller frees. */
static char *edited(const char *edits)
{
    char *text = xstrdup(base_text);
    const char *p = edits ? edits : "";
    while (*p) {
        const char *end = strstr(p, " ;; ");
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *sep = strstr(p, " >> ");
        assert_non_null(sep);
        assert_true(sep < p + len);
        char *from = xstrndup(p, (size_t)(sep - p));
        char *to = xstrndup(sep + 4, (size_t)(p + len - sep - 4));
        char *at = strstr(text, from);
        if (!at)
            fail_msg("edit: '%s' is not in the design", from);
        sbuf s;
        sbuf_init(&s);
        sbuf_addn(&s, text, (size_t)(at - text));
        sbuf_add(&s, to);
        sbuf_add(&s, at + strlen(from));
        free(text);
        text = sbuf_steal(&s);
        free(from);
        free(to);
        p += len;
        if (end)
            p += 4;
    }
    return text;
}

static kp_design *load_edited(const char *edits, const char *what)
{
    char *text = edited(edits);
    kp_design *d = ts_load_text(text, what);
    if (!d)
        fail_msg("%s does not load:\n%s", what, text);
    free(text);
    return d;
}

static const char *kind_word(merge_conflict_kind k)
{
    return k == MERGE_BOTH_CHANGED      ? "changed"
           : k == MERGE_DELETED_CHANGED ? "deleted-changed"
           : k == MERGE_CHANGED_DELETED ? "changed-deleted"
                                        : "added-twice";
}

/* The conflicts, one a line: "changed pattern 1 rate: 10 | 20 | 30" ("-" for a side without the
 * record), with " (editable)" when a typed value is accepted. */
static char *conflict_list(const merge_result *m)
{
    sbuf s;
    sbuf_init(&s);
    for (size_t i = 0; i < merge_nconflicts(m); i++) {
        const merge_conflict *c = merge_conflict_at(m, i);
        sbuf_printf(&s, "%s %s", kind_word(c->kind), c->record);
        if (*c->key)
            sbuf_printf(&s, " %s", c->key);
        if (c->field)
            sbuf_printf(&s, " %s", c->field);
        sbuf_printf(&s, ": %s | %s | %s%s\n", c->base ? c->base : "-", c->ours ? c->ours : "-",
                    c->theirs ? c->theirs : "-", c->editable ? " (editable)" : "");
    }
    return sbuf_steal(&s);
}

static void assert_same_design(const kp_design *got, const kp_design *want, const char *name)
{
    if (design_equal(got, want))
        return;
    char *a = designio_save(got, NULL), *b = designio_save(want, NULL);
    char *d = merge_markers(a, b, "merged", "expected");
    fprintf(stderr, "%s", d);
    fail_msg("%s: the merged design is not the expected one (above)", name);
}

typedef struct mcase {
    const char *name;
    const char *ours;      /* edits of base */
    const char *theirs;    /* edits of base */
    const char *expect;    /* edits of base giving the merge (conflicts taking theirs) */
    const char *conflicts; /* conflict_list, "" for none */
} mcase;

#define P1 "{ id: 1, name: Get order, entity: Order, by: [orderId], rate: 10 }"
#define P4 "  - { id: 4, name: Customer by email, entity: Customer, by: [email], rate: 1 }\n"
#define P3 "  - { id: 3, name: Get customer, entity: Customer, by: [customerId], rate: 5 }\n"
#define P2 "  - { id: 2, name: Orders by status, entity: Order, by: [status], rate: 2 }\n"
#define P5 "  - { id: 5, name: Orders of a customer, entity: Order, by: [customerId], rate: 3 }\n"
#define P6 "  - { id: 6, name: Orders by date, entity: Order, by: [orderDate], rate: 1 }\n"
#define CUSTOMER                                                                                               \
    "  - name: Customer\n    count: 100\n    size: 300\n    attributes: [customerId, email]\n    keys: { PK: " \
    "\"CUST#{customerId}\", SK: \"A\", GSI2PK: \"{email}\" }\n"
#define ALERT "  - { name: throttled writes, metric: WriteThrottleEvents, when: \"> 0 for 1 minute\" }\n"

/* clang-format off */
static const mcase cases[] = {
    {"nothing changed", "", "", "", ""},
    {"ours changes a pattern's rate", "rate: 10 >> rate: 20", "", "rate: 10 >> rate: 20", ""},
    {"theirs changes a pattern's rate", "", "rate: 10 >> rate: 30", "rate: 10 >> rate: 30", ""},
    {"both change a rate the same way", "rate: 10 >> rate: 20", "rate: 10 >> rate: 20", "rate: 10 >> rate: 20", ""},
    {"two fields of one pattern", "rate: 10 >> rate: 20", "name: Get order, >> name: Order by id,",
     "rate: 10 >> rate: 20 ;; name: Get order, >> name: Order by id,", ""},
    {"one field changed two ways", "rate: 10 >> rate: 20", "rate: 10 >> rate: 30", "rate: 10 >> rate: 30",
     "changed pattern 1 rate: 10 | 20 | 30 (editable)\n"},
    {"a pattern added on each side", P4 " >> " P4 P5, P4 " >> " P4 P6, P4 " >> " P4 P5 P6, ""},
    {"the same pattern added on both sides", P4 " >> " P4 P5, P4 " >> " P4 P5, P4 " >> " P4 P5, ""},
    {"two patterns added with one id", P4 " >> " P4 P5, P4 " >> " P4 "  - { id: 5, name: Other, entity: Order, by: [customerId], rate: 3 }\n",
     P4 " >> " P4 "  - { id: 5, name: Other, entity: Order, by: [customerId], rate: 3 }\n",
     "added-twice pattern 5: - | name: Orders of a customer | name: Other\n"},
    {"ours deletes a pattern", P4 " >> ", "", P4 " >> ", ""},
    {"theirs deletes a pattern", "", P4 " >> ", P4 " >> ", ""},
    {"both delete a pattern", P4 " >> ", P4 " >> ", P4 " >> ", ""},
    {"deleted by ours, changed by theirs", P4 " >> ", "rate: 1 } >> rate: 9 }", "rate: 1 } >> rate: 9 }",
     "deleted-changed pattern 4: rate: 1 | - | rate: 9\n"},
    {"changed by ours, deleted by theirs", "rate: 1 } >> rate: 9 }", P4 " >> ", P4 " >> ",
     "changed-deleted pattern 4: rate: 1 | rate: 9 | -\n"},
    {"a deletion and a change of another pattern", "rate: 1 } >> rate: 9 }", P3 " >> ", "rate: 1 } >> rate: 9 } ;; " P3 " >> ", ""},
    {"two entities changed", "count: 1000 >> count: 2000", "size: 300 >> size: 350",
     "count: 1000 >> count: 2000 ;; size: 300 >> size: 350", ""},
    {"names added to an entity's attributes on both sides", "[customerId, email] >> [customerId, email, phone]",
     "[customerId, email] >> [customerId, email, name]", "[customerId, email] >> [customerId, email, phone, name]", ""},
    {"a name removed on one side, added on the other", "[customerId, email] >> [customerId]",
     "[customerId, email] >> [customerId, email, name]", "[customerId, email] >> [customerId, name]", ""},
    {"a name replaced while the other side changed the list", "[customerId, email] >> [customerId, mail]",
     "[customerId, email] >> [customerId, email, name]", "[customerId, email] >> [customerId, email, name]",
     "changed entity Customer attributes: customerId, email | customerId, mail | customerId, email, name (editable)\n"},
    {"names reordered on one side, added on the other", "[customerId, email] >> [email, customerId]",
     "[customerId, email] >> [customerId, email, name]", "[customerId, email] >> [customerId, email, name]",
     "changed entity Customer attributes: customerId, email | email, customerId | customerId, email, name (editable)\n"},
    {"two key templates of one entity", "PK: \"ORDER#{orderId}\" >> PK: \"O#{orderId}\"", "GSI1PK: \"S#{status}\" >> GSI1PK: \"ST#{status}\"",
     "PK: \"ORDER#{orderId}\" >> PK: \"O#{orderId}\" ;; GSI1PK: \"S#{status}\" >> GSI1PK: \"ST#{status}\"", ""},
    {"one key template changed two ways", "PK: \"ORDER#{orderId}\" >> PK: \"O#{orderId}\"", "PK: \"ORDER#{orderId}\" >> PK: \"ORD#{orderId}\"",
     "PK: \"ORDER#{orderId}\" >> PK: \"ORD#{orderId}\"",
     "changed entity Order keys[PK].template: ORDER#{orderId} | O#{orderId} | ORD#{orderId} (editable)\n"},
    {"two fields of an index", "projection: keys, >> projection: all,", "why: orders by status >> why: the status panel",
     "projection: keys, >> projection: all, ;; why: orders by status >> why: the status panel", ""},
    {"an index added by theirs, another changed by ours", "GSI2PK, projection: all >> GSI2PK, projection: keys",
     "  - { name: GSI2, >>   - { name: GSI3, pk: GSI3PK }\n  - { name: GSI2,",
     "GSI2PK, projection: all >> GSI2PK, projection: keys ;; "
     "  - { name: GSI2, >>   - { name: GSI3, pk: GSI3PK }\n  - { name: GSI2,", ""},
    {"an index deleted by ours, changed by theirs", "  - { name: GSI2, pk: GSI2PK, projection: all }\n >>  ;; , GSI2PK: \"{email}\" >> ",
     "GSI2PK, projection: all >> GSI2PK, projection: keys", "GSI2PK, projection: all >> GSI2PK, projection: keys ;; , GSI2PK: \"{email}\" >> ",
     "deleted-changed index GSI2: projection: all | - | projection: keys\n"},
    {"an attribute added on each side", "  orderDate: { type: date }\n >>   orderDate: { type: date }\n  email: { size: 30 }\n",
     "  orderDate: { type: date }\n >>   orderDate: { type: date }\n  total: { type: number }\n",
     "  orderDate: { type: date }\n >>   orderDate: { type: date }\n  email: { size: 30 }\n  total: { type: number }\n", ""},
    {"an enum value's share changed two ways", "{ pending: 0.1, delivered: 0.9 } >> { pending: 0.2, delivered: 0.8 }",
     "{ pending: 0.1, delivered: 0.9 } >> { pending: 0.3, delivered: 0.7 }", "{ pending: 0.1, delivered: 0.9 } >> { pending: 0.3, delivered: 0.7 }",
     "changed attribute status values[pending].share: 0.1 | 0.2 | 0.3\n"
     "changed attribute status values[delivered].share: 0.9 | 0.8 | 0.7\n"},
    {"two table settings", "billing: on-demand >> billing: provisioned", "streams: false >> streams: true",
     "billing: on-demand >> billing: provisioned ;; streams: false >> streams: true", ""},
    {"the table's name changed two ways", "name: Tbl >> name: Orders", "name: Tbl >> name: Shop", "name: Tbl >> name: Shop",
     "changed table name: Tbl | Orders | Shop (editable)\n"},
    {"the design's name and description", "name: Shop\n >> name: Store\n", "description: orders and customers >> description: the shop",
     "name: Shop\n >> name: Store\n ;; description: orders and customers >> description: the shop", ""},
    {"pricing currency changed two ways", "currency: EUR >> currency: USD", "currency: EUR >> currency: GBP", "currency: EUR >> currency: GBP",
     "changed pricing currency: EUR | USD | GBP (editable)\n"},
    {"two prices set", "currency: EUR >> currency: EUR, read_per_million: 0.3", "currency: EUR >> currency: EUR, write_per_million: 1.4",
     "currency: EUR >> currency: EUR, read_per_million: 0.3, write_per_million: 1.4", ""},
    {"a decision's title and a signal added", "title: Key by order >> title: Key by order id",
     "[ \"pattern.2.rate > 50\" ] >> [ \"pattern.2.rate > 50\", \"pattern.1.rate > 500\" ]",
     "title: Key by order >> title: Key by order id ;; [ \"pattern.2.rate > 50\" ] >> [ \"pattern.2.rate > 50\", \"pattern.1.rate > 500\" ]", ""},
    {"a signal changed two ways", "pattern.2.rate > 50 >> pattern.2.rate > 60", "pattern.2.rate > 50 >> pattern.2.rate > 70",
     "pattern.2.rate > 50 >> pattern.2.rate > 70",
     "changed decision D1 signals[pattern.2.rate]: pattern.2.rate > 50 | pattern.2.rate > 60 | pattern.2.rate > 70\n"},
    {"assumptions added on both sides", "[ \"orders are read by id\" ] >> [ \"orders are read by id\", \"few customers\" ]",
     "[ \"orders are read by id\" ] >> [ \"orders are read by id\", \"statuses are few\" ]",
     "[ \"orders are read by id\" ] >> [ \"orders are read by id\", \"few customers\", \"statuses are few\" ]", ""},
    {"an alternative changed and another added", "two queries per screen >> three queries per screen",
     "why_not: \"two queries per screen\" } >> why_not: \"two queries per screen\" }\n      - { option: scan, why_not: slow }",
     "two queries per screen >> three queries per screen ;; "
     "why_not: \"three queries per screen\" } >> why_not: \"three queries per screen\" }\n      - { option: scan, why_not: slow }", ""},
    {"an alert changed and another added", "> 0 for 1 minute >> > 0 for 5 minutes",
     ALERT " >> " ALERT "  - { name: throttled reads, metric: ReadThrottleEvents, when: \"> 0\" }\n",
     "> 0 for 1 minute >> > 0 for 5 minutes ;; "
     "  - { name: throttled writes, metric: WriteThrottleEvents, when: \"> 0 for 5 minutes\" }\n >> "
     "  - { name: throttled writes, metric: WriteThrottleEvents, when: \"> 0 for 5 minutes\" }\n"
     "  - { name: throttled reads, metric: ReadThrottleEvents, when: \"> 0\" }\n", ""},
    {"theirs reorders, ours edits", "rate: 10 >> rate: 20", P3 P4 " >> " P4 P3, "rate: 10 >> rate: 20 ;; " P3 P4 " >> " P4 P3, ""},
    {"ours reorders, theirs adds after a moved pattern", P3 P4 " >> " P4 P3, P4 " >> " P4 P5, P3 P4 " >> " P4 P5 P3, ""},
    {"both reorder: ours' order", P3 P4 " >> " P4 P3, "  - " P1 "\n" P2 " >> " P2 "  - " P1 "\n", P3 P4 " >> " P4 P3, ""},
    {"a decision deleted by theirs, one added by ours",
     "decisions:\n >> decisions:\n  - { id: D2, title: Index by status, patterns: [2] }\n",
     "decisions:\n  - id: D1\n >> decisions:\n  - id: D0\n",
     "decisions:\n  - id: D1\n >> decisions:\n  - { id: D2, title: Index by status, patterns: [2] }\n  - id: D0\n", ""},
    {"consistency on one side, latency on the other", "by: [status], rate: 2 } >> by: [status], rate: 2, consistency: strong, why: fresh }",
     "by: [status], rate: 2 } >> by: [status], rate: 2, latency: 50 }",
     "by: [status], rate: 2 } >> by: [status], rate: 2, latency: 50, consistency: strong, why: fresh }", ""},
};
/* clang-format on */

static void test_cases(void **state)
{
    (void)state;
    assert_true(sizeof cases / sizeof *cases >= 30);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const mcase *c = &cases[i];
        kp_design *b = load_edited("", "base.yaml"), *o = load_edited(c->ours, "ours.yaml"),
                  *t = load_edited(c->theirs, "theirs.yaml"), *want = load_edited(c->expect, "expected.yaml");
        merge_result *m = merge_designs(b, o, t);
        char *got = conflict_list(m);
        if (strcmp(got, c->conflicts) != 0)
            fail_msg("%s: conflicts\n%s\nexpected\n%s", c->name, got, c->conflicts);
        kp_design *d = merge_take(m, MERGE_THEIRS);
        assert_same_design(d, want, c->name);
        char *err = NULL;
        kp_design *fin = merge_finish(m, &err);
        if (*c->conflicts) {
            assert_null(fin);
            assert_non_null(strstr(err, "unresolved"));
        } else {
            assert_non_null(fin);
            assert_same_design(fin, want, c->name);
        }
        design_free(fin);
        free(err);
        free(got);
        design_free(d);
        merge_free(m);
        design_free(b);
        design_free(o);
        design_free(t);
        design_free(want);
    }
}

/* One side's changes alone, however many (every record added, deleted, reordered): the merge is
 * that side, with no conflict, both ways round, between every two sample designs. */
static void test_one_side_samples(void **state)
{
    (void)state;
    static const char *const samples[] = {"samples/cloudshop/first-design.yaml",
                                          "samples/cloudshop/design.yaml", "samples/iot/design.yaml",
                                          "samples/social/design.yaml", "tests/data/merge/base.yaml"};
    enum { N = sizeof samples / sizeof *samples };
    kp_design *d[N];
    for (size_t i = 0; i < N; i++)
        assert_non_null(d[i] = ts_load_file(samples[i]));
    for (size_t i = 0; i < N; i++)
        for (size_t j = 0; j < N; j++) {
            merge_result *m[2] = {merge_designs(d[i], d[i], d[j]), merge_designs(d[i], d[j], d[i])};
            for (int k = 0; k < 2; k++) {
                assert_int_equal(merge_nconflicts(m[k]), 0);
                kp_design *got = merge_finish(m[k], NULL);
                assert_same_design(got, d[j], samples[j]);
                design_free(got);
                merge_free(m[k]);
            }
        }
    for (size_t i = 0; i < N; i++)
        design_free(d[i]);
}

/* A merge of base with ours and theirs given as edits (the caller frees the three designs' merge). */
typedef struct trio {
    kp_design *b, *o, *t;
    merge_result *m;
} trio;

static trio merge_edits(const char *ours, const char *theirs)
{
    trio x = {load_edited("", "base.yaml"), load_edited(ours, "ours.yaml"),
              load_edited(theirs, "theirs.yaml"), NULL};
    x.m = merge_designs(x.b, x.o, x.t);
    return x;
}

static void trio_free(trio *x)
{
    merge_free(x->m);
    design_free(x->b);
    design_free(x->o);
    design_free(x->t);
}

static char *pattern_cell(const kp_design *d, const char *id, const char *col)
{
    ptrdiff_t row = design_pattern_pos(d, id);
    if (row < 0)
        return NULL;
    return edit_get(d, EDIT_PATTERNS, (size_t)row, (size_t)edit_col_find(d, EDIT_PATTERNS, col));
}

static void assert_finish_rate(const merge_result *m, const char *want)
{
    char *err = NULL;
    kp_design *d = merge_finish(m, &err);
    assert_non_null(d);
    assert_null(err);
    char *rate = pattern_cell(d, "1", "rate");
    assert_string_equal(rate, want);
    free(rate);
    design_free(d);
}

/* A field changed two ways: ours, theirs or a value typed in; a refused value changes nothing. */
static void test_resolve_field(void **state)
{
    (void)state;
    trio x = merge_edits("rate: 10 >> rate: 20 ;; name: Shop\n >> name: Store\n", "rate: 10 >> rate: 30");
    assert_int_equal(merge_nconflicts(x.m), 1);
    assert_int_equal(merge_unresolved(x.m), 1);
    char *err = NULL;
    assert_null(merge_finish(x.m, &err));
    assert_string_equal(err, "1 conflict unresolved, the first: pattern 1 rate");
    free(err);
    err = NULL;

    assert_int_equal(merge_resolve(x.m, 0, MERGE_THEIRS, NULL, &err), KP_OK);
    assert_int_equal(merge_unresolved(x.m), 0);
    assert_finish_rate(x.m, "30");
    assert_int_equal(merge_resolve(x.m, 0, MERGE_OURS, NULL, &err), KP_OK);
    assert_finish_rate(x.m, "20");
    assert_int_equal(merge_resolve(x.m, 0, MERGE_TEXT, "25", &err), KP_OK);
    assert_finish_rate(x.m, "25");
    assert_int_equal(merge_conflict_at(x.m, 0)->resolved, MERGE_TEXT);

    /* the cell's own rule refuses the text: the earlier resolution stays */
    assert_int_equal(merge_resolve(x.m, 0, MERGE_TEXT, "fast", &err), KP_INVALID);
    assert_non_null(err);
    assert_non_null(strstr(err, "not a rate"));
    free(err);
    err = NULL;
    assert_finish_rate(x.m, "25");

    /* the other side's change stays merged whatever the resolution */
    kp_design *d = merge_finish(x.m, NULL);
    assert_string_equal(d->name, "Store");
    design_free(d);

    assert_int_equal(merge_resolve(x.m, 1, MERGE_OURS, NULL, &err), KP_NOTFOUND);
    assert_string_equal(err, "no conflict 2 (there are 1)");
    free(err);
    assert_null(merge_conflict_at(x.m, 1));
    trio_free(&x);
}

/* A key template typed in goes to the keys table's cell. */
static void test_resolve_template(void **state)
{
    (void)state;
    trio x = merge_edits("PK: \"ORDER#{orderId}\" >> PK: \"O#{orderId}\"",
                         "PK: \"ORDER#{orderId}\" >> PK: \"ORD#{orderId}\"");
    assert_int_equal(merge_nconflicts(x.m), 1);
    assert_true(merge_conflict_at(x.m, 0)->editable);
    assert_int_equal(merge_resolve(x.m, 0, MERGE_TEXT, "PEDIDO#{orderId}", NULL), KP_OK);
    kp_design *d = merge_finish(x.m, NULL);
    assert_non_null(d);
    assert_string_equal(entity_key(design_entity(d, "Order"), "PK")->tpl.src, "PEDIDO#{orderId}");
    design_free(d);
    char *err = NULL;
    assert_int_equal(merge_resolve(x.m, 0, MERGE_TEXT, "PEDIDO#{orderId", &err), KP_INVALID);
    assert_non_null(err);
    free(err);
    trio_free(&x);
}

/* A setting's conflict: typed with the setting's own rules; messages name it "table name". */
static void test_resolve_setting(void **state)
{
    (void)state;
    trio x = merge_edits("name: Tbl >> name: Orders ;; billing: on-demand >> billing: provisioned",
                         "name: Tbl >> name: Shop ;; billing: on-demand >> billing: provisioned");
    assert_int_equal(merge_nconflicts(x.m), 1);
    char *err = NULL;
    assert_null(merge_finish(x.m, &err));
    assert_string_equal(err, "1 conflict unresolved, the first: table name");
    free(err);
    err = NULL;
    assert_int_equal(merge_resolve(x.m, 0, MERGE_TEXT, "Pedidos", &err), KP_OK);
    kp_design *d = merge_finish(x.m, &err);
    assert_non_null(d);
    assert_string_equal(d->table.name, "Pedidos");
    assert_int_equal(d->table.billing, KP_BILLING_PROVISIONED);
    design_free(d);
    assert_int_equal(merge_resolve(x.m, 0, MERGE_TEXT, "", &err), KP_INVALID);
    assert_non_null(strstr(err, "table name: "));
    free(err);
    trio_free(&x);
}

/* A record deleted on one side and changed on the other: keep it (theirs) or delete it (ours);
 * a typed value is refused. */
static void test_resolve_deleted(void **state)
{
    (void)state;
    trio x = merge_edits(P4 " >> ", "rate: 1 } >> rate: 9 }");
    assert_int_equal(merge_nconflicts(x.m), 1);
    const merge_conflict *c = merge_conflict_at(x.m, 0);
    assert_int_equal(c->kind, MERGE_DELETED_CHANGED);
    assert_false(c->editable);
    char *err = NULL;
    assert_int_equal(merge_resolve(x.m, 0, MERGE_TEXT, "9", &err), KP_INVALID);
    assert_string_equal(err, "pattern 4: choose ours or theirs; this conflict takes no typed value");
    free(err);
    merge_resolve(x.m, 0, MERGE_THEIRS, NULL, NULL);
    kp_design *d = merge_finish(x.m, NULL);
    char *rate = pattern_cell(d, "4", "rate");
    assert_string_equal(rate, "9");
    free(rate);
    design_free(d);
    merge_resolve(x.m, 0, MERGE_OURS, NULL, NULL);
    d = merge_finish(x.m, NULL);
    assert_null(design_pattern(d, "4"));
    design_free(d);
    trio_free(&x);
}

/* The conflicts as people read them. */
static void test_conflicts_text(void **state)
{
    (void)state;
    trio x =
        merge_edits("rate: 10 >> rate: 20 ;; " P4 " >> ", "rate: 10 >> rate: 30 ;; rate: 1 } >> rate: 9 }");
    char *text = merge_conflicts_text(x.m);
    assert_string_equal(text, "pattern 1 rate: changed two ways: base 10; ours 20; theirs 30\n"
                              "pattern 4: deleted by ours, changed by theirs: rate: 9\n");
    free(text);
    text = merge_conflict_text(x.m, 1);
    assert_string_equal(text, "pattern 4: deleted by ours, changed by theirs: rate: 9");
    free(text);
    assert_null(merge_conflict_text(x.m, 2));
    trio_free(&x);
    /* empty values say so */
    x = merge_edits("why: orders by status >> why: a", ", why: orders by status >> ");
    text = merge_conflicts_text(x.m);
    assert_string_equal(text,
                        "index GSI1 why: changed two ways: base orders by status; ours a; theirs (empty)\n");
    free(text);
    trio_free(&x);
}

typedef struct mkcase {
    const char *ours, *theirs, *want;
} mkcase;

/* The line diff behind the markers: common lines once, each difference between markers. */
static void test_markers(void **state)
{
    (void)state;
    static const mkcase mk[] = {
        {"", "", ""},
        {"a\nb\n", "a\nb\n", "a\nb\n"},
        {"a\nb\nc\n", "a\nx\nc\n", "a\n<<<<<<< ours\nb\n=======\nx\n>>>>>>> theirs\nc\n"},
        {"a\nb\nc\nd\ne\n", "a\nB\nc\nd\nE\n",
         "a\n<<<<<<< ours\nb\n=======\nB\n>>>>>>> theirs\nc\nd\n<<<<<<< ours\ne\n=======\nE\n>>>>>>> theirs\n"},
        {"a\nc\n", "a\nb\nc\n", "a\n<<<<<<< ours\n=======\nb\n>>>>>>> theirs\nc\n"},
        {"a\nb\nc\n", "a\nc\n", "a\n<<<<<<< ours\nb\n=======\n>>>>>>> theirs\nc\n"},
        {"a\nb", "a\nc", "a\n<<<<<<< ours\nb\n=======\nc\n>>>>>>> theirs\n"},
        {"x\n", "", "<<<<<<< ours\nx\n=======\n>>>>>>> theirs\n"},
        {"k: 1\nv: 2\nk: 1\n", "k: 1\nv: 3\nk: 1\n",
         "k: 1\n<<<<<<< ours\nv: 2\n=======\nv: 3\n>>>>>>> theirs\nk: 1\n"},
    };
    for (size_t i = 0; i < sizeof mk / sizeof *mk; i++) {
        char *got = merge_markers(mk[i].ours, mk[i].theirs, NULL, NULL);
        assert_string_equal(got, mk[i].want);
        free(got);
    }
    char *got = merge_markers("a\n", "b\n", "HEAD", "feature");
    assert_string_equal(got, "<<<<<<< HEAD\na\n=======\nb\n>>>>>>> feature\n");
    free(got);
}

/* Splits a text with markers back into its two sides. */
static void unmark(const char *text, sbuf *ours, sbuf *theirs)
{
    int in = 0; /* 0 common, 1 ours, 2 theirs */
    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) + 1 : strlen(p);
        if (!strncmp(p, "<<<<<<< ", 8))
            in = 1;
        else if (!strncmp(p, "=======\n", 8) && in == 1)
            in = 2;
        else if (!strncmp(p, ">>>>>>> ", 8) && in == 2)
            in = 0;
        else {
            if (in != 2)
                sbuf_addn(ours, p, len);
            if (in != 1)
                sbuf_addn(theirs, p, len);
        }
        p += len;
    }
}

static uint64_t rng_state;

static uint32_t rnd(uint32_t n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state % n);
}

static char *random_lines(size_t n, uint32_t alphabet)
{
    sbuf s;
    sbuf_init(&s);
    for (size_t i = 0; i < n; i++)
        sbuf_printf(&s, "line %u\n", rnd(alphabet));
    return sbuf_steal(&s);
}

/* Whatever the two texts, the markers hold both: taking one side of each difference gives it
 * back. Also past the diff's bound (two long unrelated texts: one difference). */
static void test_markers_property(void **state)
{
    (void)state;
    rng_state = 0x2545f4914f6cdd1dull;
    for (int iter = 0; iter < 500; iter++) {
        size_t n = iter < 490 ? rnd(30) : 3000 + rnd(100);
        char *a = random_lines(n, iter < 490 ? 1 + rnd(6) : 1000000),
             *b = random_lines(n + rnd(5), 1 + rnd(6));
        if (iter < 490 && rnd(2)) { /* b as an edit of a */
            free(b);
            b = xstrdup(a);
            size_t at = *b ? rnd((uint32_t)strlen(b)) : 0;
            if (*b && b[at] != '\n') /* every line keeps its newline: markers end each line */
                b[at] = 'X';
        }
        char *m = merge_markers(a, b, NULL, NULL);
        sbuf o, t;
        sbuf_init(&o);
        sbuf_init(&t);
        unmark(m, &o, &t);
        assert_string_equal(o.s ? o.s : "", a);
        assert_string_equal(t.s ? t.s : "", b);
        sbuf_free(&o);
        sbuf_free(&t);
        free(m);
        free(a);
        free(b);
    }
}

/* ---- the property: disjoint edits on both sides all reach the merge ---------------------- */

/* A cell the property edits: a column of a table and how its values are made. */
typedef struct pcol {
    edit_table t;
    const char *col; /* column name (the field's key); for the settings, the setting's name */
    char kind;       /* 'n' a number, 't' a text, 'b' true/false */
    const char *rec; /* the record a conflict names */
} pcol;

static const pcol pcols[] = {
    {EDIT_PATTERNS, "name", 't', "pattern"},
    {EDIT_PATTERNS, "rate", 'n', "pattern"},
    {EDIT_PATTERNS, "latency", 'n', "pattern"},
    {EDIT_PATTERNS, "limit", 'n', "pattern"},
    {EDIT_PATTERNS, "why", 't', "pattern"},
    {EDIT_ENTITIES, "count", 'n', "entity"},
    {EDIT_ENTITIES, "size", 'n', "entity"},
    {EDIT_ENTITIES, "description", 't', "entity"},
    {EDIT_ENTITIES, "writes", 'n', "entity"},
    {EDIT_INDEXES, "why", 't', "index"},
    {EDIT_DECISIONS, "title", 't', "decision"},
    {EDIT_DECISIONS, "context", 't', "decision"},
    {EDIT_DECISIONS, "rollback", 't', "decision"},
    {EDIT_SETTINGS, "description", 't', "design"},
    {EDIT_SETTINGS, "pitr", 'b', "table"},
    {EDIT_SETTINGS, "streams", 'b', "table"},
    {EDIT_SETTINGS, "read_per_million", 'n', "pricing"},
    {EDIT_ATTRS, "size", 'n', "attribute"},
};
#define NPCOLS (sizeof pcols / sizeof *pcols)

/* One cell of the base: a column and a record (its key: the row's first cell; settings: none). */
typedef struct pcell {
    size_t col; /* into pcols */
    char *key;  /* NULL for the settings */
    int side;   /* 0 untouched, 1 ours, 2 theirs, 3 both */
} pcell;

static size_t col_of(const kp_design *d, const pcol *c)
{
    if (c->t == EDIT_SETTINGS)
        return 1;
    int col = edit_col_find(d, c->t, c->col);
    assert_true(col >= 0);
    return (size_t)col;
}

/* The row of the cell's record in d, or -1 when d has none. */
static ptrdiff_t row_in(const kp_design *d, const pcell *c)
{
    const pcol *p = &pcols[c->col];
    if (p->t == EDIT_SETTINGS)
        return edit_setting_find(p->col);
    for (size_t r = 0; r < edit_nrows(d, p->t); r++) {
        char *k = edit_get(d, p->t, r, 0);
        bool eq = strcmp(k, c->key) == 0;
        free(k);
        if (eq)
            return (ptrdiff_t)r;
    }
    return -1;
}

static char *cell_get(const kp_design *d, const pcell *c)
{
    ptrdiff_t row = row_in(d, c);
    return row < 0 ? NULL : edit_get(d, pcols[c->col].t, (size_t)row, col_of(d, &pcols[c->col]));
}

static void cell_set_random(kp_design *d, const pcell *c)
{
    char v[64];
    switch (pcols[c->col].kind) {
    case 'n':
        snprintf(v, sizeof v, "%u", 1 + rnd(100000));
        break;
    case 'b':
        snprintf(v, sizeof v, "%s", rnd(2) ? "true" : "false");
        break;
    default:
        snprintf(v, sizeof v, "línea %u", rnd(1000000));
        break;
    }
    ptrdiff_t row = row_in(d, c);
    assert_true(row >= 0);
    char *err = NULL;
    if (edit_set(d, pcols[c->col].t, (size_t)row, col_of(d, &pcols[c->col]), v, &err) != KP_OK)
        fail_msg("set %s %s = %s: %s", c->key ? c->key : "", pcols[c->col].col, v, err);
}

/* Every cell of the base the properties may edit, in *n; caller frees with cells_free. */
static pcell *cells_of(const kp_design *base, size_t *n)
{
    pcell *cells = NULL;
    *n = 0;
    for (size_t c = 0; c < NPCOLS; c++) {
        size_t nrows = pcols[c].t == EDIT_SETTINGS ? 1 : edit_nrows(base, pcols[c].t);
        for (size_t r = 0; r < nrows; r++) {
            cells = xrealloc(cells, (*n + 1) * sizeof *cells);
            cells[(*n)++] =
                (pcell){c, pcols[c].t == EDIT_SETTINGS ? NULL : edit_get(base, pcols[c].t, r, 0), 0};
        }
    }
    return cells;
}

static void cells_free(pcell *cells, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(cells[i].key);
    free(cells);
}

/* A random sequence of edits: each on a random cell, on the sides the cell belongs to (each side
 * its own value); several on some cells. */
static void edit_sides(kp_design *side[2], const pcell *cells, size_t ncells)
{
    size_t nedits = 1 + rnd(40);
    for (size_t e = 0; e < nedits; e++) {
        const pcell *c = &cells[rnd((uint32_t)ncells)];
        for (int k = 0; k < 2; k++)
            if (c->side & (1 << k))
                cell_set_random(side[k], c);
    }
}

static void test_property(void **state)
{
    (void)state;
    kp_design *base = load_edited("", "base.yaml");
    size_t ncells;
    pcell *cells = cells_of(base, &ncells);
    rng_state = 0x9e3779b97f4a7c15ull;
    for (int iter = 0; iter < 300; iter++) {
        kp_design *side[2] = {design_clone(base), design_clone(base)};
        for (size_t i = 0; i < ncells; i++)
            cells[i].side = (int)rnd(3); /* untouched, ours, theirs: never both */
        edit_sides(side, cells, ncells);
        /* rows added: ours adds patterns, theirs adds decisions */
        size_t added_p = rnd(3), added_d = rnd(3);
        for (size_t k = 0; k < added_p; k++)
            edit_add(side[0], EDIT_PATTERNS, rnd((uint32_t)side[0]->npatterns + 1));
        for (size_t k = 0; k < added_d; k++)
            edit_add(side[1], EDIT_DECISIONS, rnd((uint32_t)side[1]->ndecisions + 1));

        /* ours deletes a pattern of the base whose cells theirs left alone (some of them edited
         * first; after the additions, so that no new row takes its id) */
        const char *gone = NULL;
        if (rnd(2)) {
            const char *id = base->patterns[rnd((uint32_t)base->npatterns)].id;
            bool theirs_touched = false;
            for (size_t i = 0; i < ncells; i++)
                if (pcols[cells[i].col].t == EDIT_PATTERNS && !strcmp(cells[i].key, id) && cells[i].side == 2)
                    theirs_touched = true;
            if (!theirs_touched) {
                gone = id;
                assert_true(edit_delete(side[0], EDIT_PATTERNS, (size_t)design_pattern_pos(side[0], id)));
            }
        }
        merge_result *m = merge_designs(base, side[0], side[1]);
        if (merge_nconflicts(m)) {
            char *t = merge_conflicts_text(m);
            fail_msg("iteration %d: disjoint edits conflict:\n%s", iter, t);
        }
        kp_design *d = merge_finish(m, NULL);
        assert_non_null(d);
        for (size_t i = 0; i < ncells; i++) {
            const pcell *c = &cells[i];
            char *want = cell_get(c->side ? side[c->side - 1] : base, c), *got = cell_get(d, c);
            if (gone && pcols[c->col].t == EDIT_PATTERNS && !strcmp(c->key, gone)) {
                assert_null(got);
                free(want);
                continue;
            }
            if (!got)
                fail_msg("iteration %d: %s %s %s is missing", iter, edit_table_name(pcols[c->col].t),
                         c->key ? c->key : "", pcols[c->col].col);
            if (strcmp(want, got) != 0)
                fail_msg("iteration %d: %s %s %s: merged '%s', expected '%s' (%s)", iter,
                         edit_table_name(pcols[c->col].t), c->key ? c->key : "", pcols[c->col].col, got, want,
                         c->side == 1   ? "ours"
                         : c->side == 2 ? "theirs"
                                        : "untouched");
            free(want);
            free(got);
        }
        /* every row either side added is there */
        assert_int_equal(d->npatterns, base->npatterns + added_p - (gone != NULL));
        assert_int_equal(d->ndecisions, base->ndecisions + added_d);
        for (size_t k = 0; k < side[0]->npatterns; k++)
            if (!design_pattern(base, side[0]->patterns[k].id))
                assert_true(fields_equal(&kp_rec_pattern, design_pattern(d, side[0]->patterns[k].id),
                                         &side[0]->patterns[k]));
        design_free(d);
        merge_free(m);
        design_free(side[0]);
        design_free(side[1]);
    }
    cells_free(cells, ncells);
    design_free(base);
}

/* "record key field" of a conflict or a cell. */
static char *conflict_name(const char *record, const char *key, const char *field)
{
    sbuf s;
    sbuf_init(&s);
    sbuf_printf(&s, "%s %s %s", record, key ? key : "", field ? field : "");
    return sbuf_steal(&s);
}

/* Overlapping edits: a conflict exactly for each cell both sides changed to different values;
 * resolved all theirs or all ours, every other change of both sides is still there. Nothing is
 * lost without a conflict naming it. */
static void test_property_overlap(void **state)
{
    (void)state;
    kp_design *base = load_edited("", "base.yaml");
    size_t ncells;
    pcell *cells = cells_of(base, &ncells);
    rng_state = 0xd1b54a32d192ed03ull;
    for (int iter = 0; iter < 300; iter++) {
        kp_design *side[2] = {design_clone(base), design_clone(base)};
        for (size_t i = 0; i < ncells; i++)
            cells[i].side = (int)rnd(4);
        edit_sides(side, cells, ncells);
        merge_result *m = merge_designs(base, side[0], side[1]);
        /* the conflicts expected: cells changed on both sides, to different values */
        size_t nwant = 0;
        for (size_t i = 0; i < ncells; i++) {
            char *b = cell_get(base, &cells[i]), *o = cell_get(side[0], &cells[i]),
                 *t = cell_get(side[1], &cells[i]);
            bool clash = strcmp(o, b) && strcmp(t, b) && strcmp(o, t);
            if (clash) {
                nwant++;
                char *name = conflict_name(pcols[cells[i].col].rec, cells[i].key, pcols[cells[i].col].col);
                bool found = false;
                for (size_t k = 0; k < merge_nconflicts(m) && !found; k++) {
                    const merge_conflict *c = merge_conflict_at(m, k);
                    char *got = conflict_name(c->record, c->key, c->field);
                    found = !strcmp(got, name) && !strcmp(c->base, b) && !strcmp(c->ours, o) &&
                            !strcmp(c->theirs, t);
                    free(got);
                }
                if (!found)
                    fail_msg("iteration %d: no conflict for %s (%s | %s | %s)", iter, name, b, o, t);
                free(name);
            }
            free(b);
            free(o);
            free(t);
        }
        if (merge_nconflicts(m) != nwant) {
            char *t = merge_conflicts_text(m);
            fail_msg("iteration %d: %zu conflicts, expected %zu:\n%s", iter, merge_nconflicts(m), nwant, t);
        }
        for (int pick = MERGE_OURS; pick <= MERGE_THEIRS; pick++) {
            for (size_t k = 0; k < merge_nconflicts(m); k++)
                assert_int_equal(merge_resolve(m, k, (merge_side)pick, NULL, NULL), KP_OK);
            kp_design *d = merge_finish(m, NULL);
            assert_non_null(d);
            for (size_t i = 0; i < ncells; i++) {
                const pcell *c = &cells[i];
                char *b = cell_get(base, c), *o = cell_get(side[0], c), *t = cell_get(side[1], c),
                     *got = cell_get(d, c);
                /* one side's change wins over no change; a clash goes to the side picked */
                const char *want = !strcmp(o, b) ? t : !strcmp(t, b) ? o : pick == MERGE_OURS ? o : t;
                if (strcmp(got, want) != 0)
                    fail_msg("iteration %d: %s %s %s: merged '%s', expected '%s'", iter, pcols[c->col].rec,
                             c->key ? c->key : "", pcols[c->col].col, got, want);
                free(b);
                free(o);
                free(t);
                free(got);
            }
            design_free(d);
        }
        merge_free(m);
        design_free(side[0]);
        design_free(side[1]);
    }
    cells_free(cells, ncells);
    design_free(base);
}

/* ---- on the command line: keyplan merge-file and keyplan merge ---------------------------- */

/* Writes text to a file named `name` in dir; caller frees the path. */
static char *put(const char *dir, const char *name, const char *text)
{
    sbuf p;
    sbuf_init(&p);
    sbuf_printf(&p, "%s/%s", dir, name);
    FILE *f = fopen(p.s, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return sbuf_steal(&p);
}

typedef struct run {
    int rc;
    char *out, *err;
} run;

#define KP(...) kp((const char *const[]){__VA_ARGS__, NULL})
static run kp(const char *const *args)
{
    run r = {0};
    r.rc = ts_run_keyplan(args, NULL, &r.out, &r.err);
    return r;
}

static void run_free(run *r)
{
    free(r->out);
    free(r->err);
}

static void test_merge_file(void **state)
{
    (void)state;
    char *dir = ts_temp_dir();
    char *ours_t = edited("rate: 10 } >> rate: 20 }");
    char *theirs_t = edited("rate: 5 } >> rate: 7 }");
    char *clash_t = edited("rate: 10 } >> rate: 30 }");
    char *base = put(dir, "base.yaml", base_text), *ours = put(dir, "ours.yaml", ours_t),
         *theirs = put(dir, "theirs.yaml", theirs_t), *clash = put(dir, "clash.yaml", clash_t),
         *bad = put(dir, "bad.yaml", "keyplan: 1\nname: Shop\ntable: 5\n"),
         *empty = put(dir, "empty.yaml", "");
    sbuf o;
    sbuf_init(&o);
    sbuf_printf(&o, "%s/out.yaml", dir);

    /* clean: both changes in the canonical YAML */
    run r = KP("merge-file", base, ours, theirs, "-o", o.s);
    assert_int_equal(r.rc, 0);
    char *merged = ts_read_file(o.s, NULL);
    assert_non_null(merged);
    kp_design *d = ts_load_text(merged, "out.yaml");
    free(merged);
    assert_non_null(d);
    assert_true(design_pattern(d, "1")->rate == 20);
    assert_true(design_pattern(d, "3")->rate == 7);
    design_free(d);
    run_free(&r);

    /* the same to standard output */
    r = KP("merge-file", base, ours, theirs);
    assert_int_equal(r.rc, 0);
    assert_non_null(strstr(r.out, "  rate: 20\n"));
    assert_non_null(strstr(r.out, "  rate: 7\n"));
    run_free(&r);

    /* the same field two ways: exit 1, markers around the field's line, the conflict on stderr */
    r = KP("merge-file", base, ours, clash, "-o", o.s);
    assert_int_equal(r.rc, 1);
    assert_non_null(strstr(r.err, "pattern 1 rate: changed two ways: base 10; ours 20; theirs 30"));
    char *text = ts_read_file(o.s, NULL);
    assert_non_null(strstr(
        text, "  by: [orderId]\n<<<<<<< ours\n  rate: 20\n=======\n  rate: 30\n>>>>>>> theirs\n- id: 2\n"));
    free(text);
    run_free(&r);

    /* clean field by field, but theirs deleted the entity a new pattern of ours reads: written,
     * exit 1, the problem at its place in the output */
    char *o2_t = edited(
        P4 " >> " P4 "  - { id: 5, name: Customer by name, entity: Customer, by: [customerId], rate: 1 }\n");
    char *t2_t = edited(CUSTOMER " >>  ;; " P3 P4 " >> ");
    char *o2 = put(dir, "o2.yaml", o2_t), *t2 = put(dir, "t2.yaml", t2_t);
    r = KP("merge-file", base, o2, t2, "-o", o.s);
    assert_int_equal(r.rc, 1);
    assert_non_null(strstr(r.err, "the changes merge without conflicts, but the result does not validate"));
    assert_non_null(strstr(r.err, "out.yaml:48:11: error: pattern 5: unknown entity 'Customer'"));
    run_free(&r);
    free(o2);
    free(t2);
    free(o2_t);
    free(t2_t);

    /* unusable input: exit 2 with its place, nothing written */
    remove(o.s);
    r = KP("merge-file", base, bad, theirs, "-o", o.s);
    assert_int_equal(r.rc, 2);
    assert_non_null(strstr(r.err, "bad.yaml:3:"));
    assert_null(ts_read_file(o.s, NULL));
    run_free(&r);
    r = KP("merge-file", base, ours);
    assert_int_equal(r.rc, 2);
    assert_non_null(strstr(r.err, "usage: keyplan merge-file BASE OURS THEIRS [-o OUT]"));
    run_free(&r);

    /* an empty base (a file both branches added): the same design on both sides merges */
    r = KP("merge-file", empty, ours, ours, "-o", o.s);
    assert_int_equal(r.rc, 0);
    run_free(&r);

    free(base);
    free(ours);
    free(theirs);
    free(clash);
    free(bad);
    free(empty);
    free(ours_t);
    free(theirs_t);
    free(clash_t);
    sbuf_free(&o);
    free(dir);
}

/* A workspace with version 1 = base, a working copy on version 1 changed by the edits `mine`, and
 * version 2 = base changed by the edits `theirs_edits` committed meanwhile. Returns the workspace's path (caller frees). */
static char *stale_workspace(const char *mine, const char *theirs_edits)
{
    char *dir = ts_temp_dir();
    sbuf p;
    sbuf_init(&p);
    sbuf_printf(&p, "%s/design.keyplan", dir);
    free(dir);
    ws_t *ws = NULL;
    assert_int_equal(ws_open(p.s, WS_CREATE, &ws, NULL), KP_OK);
    kp_design *b = ts_load_text(base_text, "base.yaml");
    char *t = edited(theirs_edits), *m = edited(mine);
    kp_design *theirs = ts_load_text(t, "theirs.yaml");
    assert_int_equal(ws_commit(ws, b, "ana", "base", 0, false, NULL, NULL), KP_OK);
    assert_int_equal(ws_working_set(ws, m, 1, true, "edit", NULL), KP_OK);
    assert_int_equal(ws_commit(ws, theirs, "bo", "theirs", 1, false, NULL, NULL), KP_OK);
    ws_close(ws);
    design_free(b);
    design_free(theirs);
    free(t);
    free(m);
    return sbuf_steal(&p);
}

static void test_merge_workspace(void **state)
{
    (void)state;
    char *wsp = stale_workspace("rate: 10 } >> rate: 20 }", "rate: 5 } >> rate: 7 }");
    run r = KP("merge", wsp);
    assert_int_equal(r.rc, 0);
    assert_string_equal(
        r.out, "merged version 2 into the working copy (based on version 1); it is now based on version 2\n");
    run_free(&r);
    ws_t *ws = NULL;
    assert_int_equal(ws_open(wsp, 0, &ws, NULL), KP_OK);
    char *yaml = NULL;
    int parent = 0;
    assert_int_equal(ws_working_get(ws, &yaml, &parent, NULL), KP_OK);
    assert_int_equal(parent, 2);
    kp_design *d = ts_load_text(yaml, "working copy");
    assert_true(design_pattern(d, "1")->rate == 20); /* mine */
    assert_true(design_pattern(d, "3")->rate == 7);  /* theirs */
    design_free(d);
    free(yaml);
    /* one undo step back to the working copy before the merge */
    int base = 0;
    assert_int_equal(ws_undo(ws, &yaml, &base, NULL), KP_OK);
    assert_non_null(strstr(yaml, "rate: 20"));
    assert_non_null(strstr(yaml, "rate: 5"));
    assert_int_equal(base, 1); /* undoing the merge brings its old base back with it */
    free(yaml);
    assert_int_equal(ws_redo(ws, NULL, &base, NULL), KP_OK);
    assert_int_equal(base, 2);
    ws_close(ws);

    /* now on the latest: nothing to merge */
    r = KP("merge", wsp);
    assert_int_equal(r.rc, 0);
    assert_string_equal(r.out, "the working copy is based on the latest version (2): nothing to merge\n");
    run_free(&r);
    free(wsp);
}

static void test_merge_workspace_conflict(void **state)
{
    (void)state;
    char *wsp = stale_workspace("rate: 10 } >> rate: 20 }", "rate: 10 } >> rate: 30 }");
    ws_t *ws = NULL;
    assert_int_equal(ws_open(wsp, 0, &ws, NULL), KP_OK);
    char *before = NULL;
    size_t nundo_before = 0, nundo = 0;
    assert_int_equal(ws_working_get(ws, &before, NULL, NULL), KP_OK);
    assert_int_equal(ws_history_depth(ws, &nundo_before, NULL, NULL), KP_OK);
    ws_close(ws);

    run r = KP("merge", wsp);
    assert_int_equal(r.rc, 1);
    assert_string_equal(
        r.out, "1 conflict between the working copy (based on version 1) and version 2:\n"
               "pattern 1 rate: changed two ways: base 10; ours 20; theirs 30\n"
               "nothing changed; resolve them in the workbench (R), or edit the working copy and merge "
               "again\n");
    run_free(&r);

    assert_int_equal(ws_open(wsp, 0, &ws, NULL), KP_OK);
    char *after = NULL;
    int parent = 0;
    assert_int_equal(ws_working_get(ws, &after, &parent, NULL), KP_OK);
    assert_string_equal(after, before);
    assert_int_equal(parent, 1);
    assert_int_equal(ws_history_depth(ws, &nundo, NULL, NULL), KP_OK);
    assert_int_equal(nundo, nundo_before);
    ws_close(ws);
    free(before);
    free(after);

    r = KP("merge");
    assert_int_equal(r.rc, 2);
    run_free(&r);
    free(wsp);
}

static int setup(void **state)
{
    (void)state;
    char *p = ts_source_path("tests/data/merge/base.yaml");
    base_text = ts_read_file(p, NULL);
    free(p);
    return base_text ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    free(base_text);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cases),
        cmocka_unit_test(test_one_side_samples),
        cmocka_unit_test(test_resolve_field),
        cmocka_unit_test(test_resolve_template),
        cmocka_unit_test(test_resolve_setting),
        cmocka_unit_test(test_resolve_deleted),
        cmocka_unit_test(test_conflicts_text),
        cmocka_unit_test(test_markers),
        cmocka_unit_test(test_markers_property),
        cmocka_unit_test(test_property),
        cmocka_unit_test(test_property_overlap),
        cmocka_unit_test(test_merge_file),
        cmocka_unit_test(test_merge_workspace),
        cmocka_unit_test(test_merge_workspace_conflict),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
