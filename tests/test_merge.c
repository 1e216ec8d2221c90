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
#include "fields.h"
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
    assert_non_null(strstr(err, "number"));
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

/* ---- the property: disjoint edits on both sides all reach the merge ---------------------- */

static uint64_t rng_state;

static uint32_t rnd(uint32_t n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state % n);
}

/* A cell the property edits: a column of a table and how its values are made. */
typedef struct pcol {
    edit_table t;
    const char *col; /* column name; for the settings, the setting's name */
    char kind;       /* 'n' a number, 't' a text, 'b' true/false */
} pcol;

static const pcol pcols[] = {
    {EDIT_PATTERNS, "name", 't'},
    {EDIT_PATTERNS, "rate", 'n'},
    {EDIT_PATTERNS, "latency", 'n'},
    {EDIT_PATTERNS, "limit", 'n'},
    {EDIT_PATTERNS, "why", 't'},
    {EDIT_ENTITIES, "count", 'n'},
    {EDIT_ENTITIES, "size", 'n'},
    {EDIT_ENTITIES, "description", 't'},
    {EDIT_ENTITIES, "writes", 'n'},
    {EDIT_INDEXES, "why", 't'},
    {EDIT_DECISIONS, "title", 't'},
    {EDIT_DECISIONS, "context", 't'},
    {EDIT_DECISIONS, "rollback", 't'},
    {EDIT_SETTINGS, "description", 't'},
    {EDIT_SETTINGS, "pitr", 'b'},
    {EDIT_SETTINGS, "streams", 'b'},
    {EDIT_SETTINGS, "read_per_million", 'n'},
    {EDIT_ATTRS, "size", 'n'},
};
#define NPCOLS (sizeof pcols / sizeof *pcols)

/* One cell of the base: a column and a record (its key: the row's first cell; settings: none). */
typedef struct pcell {
    size_t col; /* into pcols */
    char *key;  /* NULL for the settings */
    int side;   /* 0 untouched, 1 ours, 2 theirs */
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

static void test_property(void **state)
{
    (void)state;
    kp_design *base = load_edited("", "base.yaml");
    /* every cell of the base the property may edit */
    pcell *cells = NULL;
    size_t ncells = 0;
    for (size_t c = 0; c < NPCOLS; c++) {
        size_t nrows = pcols[c].t == EDIT_SETTINGS ? 1 : edit_nrows(base, pcols[c].t);
        for (size_t r = 0; r < nrows; r++) {
            cells = xrealloc(cells, (ncells + 1) * sizeof *cells);
            cells[ncells++] =
                (pcell){c, pcols[c].t == EDIT_SETTINGS ? NULL : edit_get(base, pcols[c].t, r, 0), 0};
        }
    }
    rng_state = 0x9e3779b97f4a7c15ull;
    for (int iter = 0; iter < 300; iter++) {
        kp_design *side[2] = {design_clone(base), design_clone(base)};
        for (size_t i = 0; i < ncells; i++)
            cells[i].side = (int)rnd(3); /* untouched, ours, theirs: never both */
        /* a random sequence of edits on each side, several on some cells */
        size_t nedits = 1 + rnd(40);
        for (size_t e = 0; e < nedits; e++) {
            pcell *c = &cells[rnd((uint32_t)ncells)];
            if (c->side)
                cell_set_random(side[c->side - 1], c);
        }
        /* rows added: ours adds patterns, theirs adds decisions */
        size_t added_p = rnd(3), added_d = rnd(3);
        for (size_t k = 0; k < added_p; k++)
            edit_add(side[0], EDIT_PATTERNS, rnd((uint32_t)side[0]->npatterns + 1));
        for (size_t k = 0; k < added_d; k++)
            edit_add(side[1], EDIT_DECISIONS, rnd((uint32_t)side[1]->ndecisions + 1));

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
            assert_non_null(got);
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
        assert_int_equal(d->npatterns, base->npatterns + added_p);
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
    for (size_t i = 0; i < ncells; i++)
        free(cells[i].key);
    free(cells);
    design_free(base);
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
        cmocka_unit_test(test_resolve_field),
        cmocka_unit_test(test_resolve_template),
        cmocka_unit_test(test_resolve_deleted),
        cmocka_unit_test(test_conflicts_text),
        cmocka_unit_test(test_markers),
        cmocka_unit_test(test_property),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
