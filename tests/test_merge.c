/* test_merge.c - the three-way merge of designs: one table row per kind of change (every record
 * added, changed, deleted on one side or both, lists of names, reordering), each asserting the
 * merged design or the conflicts; resolving conflicts (ours, theirs, a typed value); the line
 * diff behind the conflict markers; and a property: edits of disjoint cells on both sides all
 * reach the merge. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "design_io.h"
#include "edit.h"
#include "merge.h"
#include "support.h"

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

#define P1    "{ id: 1, name: Get order, entity: Order, by: [orderId], rate: 10 }"
#define P4    "  - { id: 4, name: Customer by email, entity: Customer, by: [email], rate: 1 }\n"
#define P3    "  - { id: 3, name: Get customer, entity: Customer, by: [customerId], rate: 5 }\n"
#define P2    "  - { id: 2, name: Orders by status, entity: Order, by: [status], rate: 2 }\n"
#define P5    "  - { id: 5, name: Orders of a customer, entity: Order, by: [customerId], rate: 3 }\n"
#define P6    "  - { id: 6, name: Orders by date, entity: Order, by: [orderDate], rate: 1 }\n"
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
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
