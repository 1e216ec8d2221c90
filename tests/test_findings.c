/* test_findings.c - the named mistakes: a clean design trips none; each variant of it
 * trips its finding (table-driven). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analysis.h"
#include "design_io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The clean design; the cases below edit it: each %s is an insertion point (attributes,
 * indexes, entities, patterns), and `from`/`to` replace one piece of text. */
static const char *base_fmt =
    "keyplan: 1\nname: good\n"
    "table: { name: Shop, pk: PK, sk: SK, billing: on-demand, streams: true, pitr: true }\n"
    "indexes:\n"
    "  - { name: ByEmail, pk: email, projection: include, include: [customerId] }\n"
    "%s"
    "attributes:\n"
    "  customerId: { distinct: 100000 }\n"
    "  email: { distinct: 100000 }\n"
    "  orderId: { distinct: 5000000 }\n"
    "  orderDate: { type: date, distinct: 730 }\n"
    "%s"
    "entities:\n"
    "  - { name: Customer, count: 100000, size: 800, writes: 5, attributes: [customerId, email],\n"
    "      keys: { PK: \"C#{customerId}\", SK: \"PROFILE\" } }\n"
    "  - { name: Order, count: 5000000, size: 1000, writes: 20, attributes: [customerId, orderId, orderDate],\n"
    "      keys: { PK: \"C#{customerId}\", SK: \"O#{orderDate}#{orderId}\" } }\n"
    "%s"
    "patterns:\n"
    "  - { id: 1, name: customer, entity: Customer, by: [customerId], rate: 100, latency: 20,\n"
    "      consistency: strong, why: the profile must be fresh after an edit }\n"
    "  - { id: 2, name: orders newest first, entity: Order, by: [customerId], order: orderDate desc,\n"
    "      limit: 20, rate: 50, latency: 50 }\n"
    "  - { id: 3, name: orders between dates, entity: Order, by: [customerId], range: orderDate, rate: 10,\n"
    "      latency: 50 }\n"
    "  - { id: 4, name: customer by email, entity: Customer, by: [email], rate: 5, latency: 50 }\n"
    "  - { id: 5, name: customer screen, entities: [Customer, Order], by: [customerId], rate: 20, latency: 50 }\n"
    "  - { id: 6, name: search, needs: search, served_by: search-index, rate: 1, latency: 1000 }\n"
    "%s"
    "alerts:\n"
    "  - { name: throttled writes, metric: WriteThrottleEvents, when: \"> 0 for 1 minute\" }\n"
    "  - { name: hot keys, metric: ContributorInsights.MostAccessedKeys, when: \"> 0\" }\n"
    "decisions:\n"
    "  - { id: D1, title: Customers and orders in a single table, status: accepted, patterns: [5],\n"
    "      decision: \"single-table: the customer screen reads both in one query\" }\n";

static const struct fcase {
    const char *code; /* the finding expected */
    kp_severity sev;
    const char *where; /* expected `where`, NULL = any */
    const char *indexes, *attrs, *entities, *patterns;
    const char *from, *to;
} cases[] = {
    {"low-cardinality-pk", KP_SEV_WARNING, "table S#{status}", "",
     "  status: { type: enum, values: { a: 0.5, b: 0.5 } }\n",
     "  - { name: Task, count: 20000, size: 300, writes: 1, attributes: [status, taskId],\n"
     "      keys: { PK: \"S#{status}\", SK: \"{taskId}\" } }\n",
     "", NULL, NULL},
    {"time-bucket-pk", KP_SEV_WARNING, "table DAY#{day}", "",
     "  day: { type: date, distinct: 365, write_hot: 1.0 }\n",
     "  - { name: Event, count: 20000, size: 500, writes: 500, attributes: [day, eventId],\n"
     "      keys: { PK: \"DAY#{day}\", SK: \"{eventId}\" } }\n",
     "", NULL, NULL},
    {"hot-partition", KP_SEV_ERROR, "table DAY#{day}", "",
     "  day: { type: date, distinct: 365, write_hot: 1.0 }\n",
     "  - { name: Event, count: 20000, size: 500, writes: 1500, attributes: [day, eventId],\n"
     "      keys: { PK: \"DAY#{day}\", SK: \"{eventId}\" } }\n",
     "", NULL, NULL},
    {"scan-user-path", KP_SEV_ERROR, "pattern 7", "", "", "",
     "  - { id: 7, name: order by id, entity: Order, by: [orderId], rate: 10, latency: 20 }\n", NULL, NULL},
    {"filter-narrowing", KP_SEV_WARNING, "pattern 7", "", "", "",
     "  - { id: 7, name: orders above, entity: Order, by: [customerId], filter: [orderId], rate: 10, latency: 50 }\n",
     NULL, NULL},
    {"many-requests-join", KP_SEV_WARNING, "pattern 7", "", "",
     "  - { name: Ticket, count: 1000, size: 300, attributes: [customerId, ticketId],\n"
     "      keys: { PK: \"TK#{customerId}\", SK: \"{ticketId}\" } }\n"
     "  - { name: Invoice, count: 1000, size: 300, attributes: [customerId, invoiceId],\n"
     "      keys: { PK: \"IN#{customerId}\", SK: \"{invoiceId}\" } }\n",
     "  - { id: 7, name: account screen, entities: [Customer, Ticket, Invoice], by: [customerId], rate: 10,\n"
     "      latency: 50 }\n",
     NULL, NULL},
    {"unused-gsi", KP_SEV_WARNING, "index ByDate", "  - { name: ByDate, pk: orderDate, projection: keys }\n",
     "", "", "", NULL, NULL},
    {"projection-all", KP_SEV_NOTE, "index ByEmail", "", "", "", "",
     "projection: include, include: [customerId]", "projection: all"},
    {"index-writes-exceed", KP_SEV_WARNING, "indexes",
     "  - { name: ById, pk: orderId, projection: all }\n  - { name: ByDay, pk: orderDate, projection: all }\n",
     "", "", "", NULL, NULL},
    {"lsi", KP_SEV_WARNING, "index ByTotal", "  - { name: ByTotal, type: lsi, pk: PK, sk: orderDate }\n", "",
     "", "", NULL, NULL},
    /* 100,000,000 events over 100 zipf-skewed tenants: the hottest tenant's collection (items
     * and LSI entries) holds tens of GB */
    {"lsi", KP_SEV_ERROR, "index ByTotal", "  - { name: ByTotal, type: lsi, pk: PK, sk: orderDate }\n",
     "  tenant: { distinct: 100, skew: \"zipf:1.2\" }\n",
     "  - { name: Event, count: 100000000, size: 1000, attributes: [tenant, eventId, orderDate],\n"
     "      keys: { PK: \"TN#{tenant}\", SK: \"{eventId}\" } }\n",
     "", NULL, NULL},
    /* item-too-large: a design file with items over 400 KB is refused by validation now (DynamoDB
     * refuses such items; tests/test_validate.c); test_item_too_large runs the analysis on one */
    {"item-over-4kb", KP_SEV_WARNING, "entity Order", "", "", "", "", "size: 1000", "size: 6000"},
    {"date-not-iso-sk", KP_SEV_WARNING, "entity Note", "", "  noteId: { distinct: 10 }\n",
     "  - { name: Note, count: 1000, size: 300, attributes: [customerId, createdAt],\n"
     "      keys: { PK: \"N#{customerId}\", SK: \"{createdAt}\" } }\n",
     "", NULL, NULL},
    /* an unpadded epoch number inside a text sort key (a bare "{takenAt}" beside the other entities'
     * text SKs is refused: DynamoDB gives SK one type) */
    {"date-not-iso-sk", KP_SEV_WARNING, "entity Reading", "", "  takenAt: { type: number }\n",
     "  - { name: Reading, count: 1000, size: 300, attributes: [customerId, takenAt],\n"
     "      keys: { PK: \"R#{customerId}\", SK: \"R#{takenAt}\" } }\n",
     "", NULL, NULL},
    {"strong-read-gsi", KP_SEV_WARNING, "pattern 4", "", "", "", "", "by: [email], rate: 5, latency: 50 }",
     "by: [email], rate: 5, latency: 50, consistency: strong, why: x }"},
    {"counter-update", KP_SEV_WARNING, "pattern 7", "", "", "",
     "  - { id: 7, name: Increment the order count, kind: write, op: update, entity: Customer, by: [customerId],\n"
     "      rate: 5 }\n",
     NULL, NULL},
    /* DynamoDB's rules */
    {"number-sorts-as-text", KP_SEV_WARNING, "pattern 7", "", "  price: { type: number, distinct: 500 }\n",
     "  - { name: Product, count: 1000, size: 300, attributes: [customerId, price],\n"
     "      keys: { PK: \"P#{customerId}\", SK: \"PRICE#{price}\" } }\n",
     "  - { id: 7, name: cheapest, entity: Product, by: [customerId], order: price asc, limit: 5, rate: 5,\n"
     "      latency: 50 }\n",
     NULL, NULL},
    {"pad-too-narrow", KP_SEV_WARNING, "entity Slot", "",
     "  slot: { type: number, distinct: 5000, format: \"03\" }\n",
     "  - { name: Slot, count: 1000, size: 300, attributes: [customerId, slot],\n"
     "      keys: { PK: \"S#{customerId}\", SK: \"SLOT#{slot}\" } }\n",
     "", NULL, NULL},
    /* "customer by email" on ByEmail, which projects customerId and not the name it returns */
    {"index-fetch", KP_SEV_WARNING, "pattern 4", "", "", "", "", "attributes: [customerId, email]",
     "attributes: [customerId, email, name]"},
    {"projection-filter", KP_SEV_WARNING, "pattern 7", "", "", "",
     "  - { id: 7, name: by email and date, entity: Order, by: [email], filter: [orderDate], returns: [orderId],\n"
     "      rate: 1, latency: 5000 }\n",
     "attributes: [customerId, orderId, orderDate]", "attributes: [customerId, orderId, orderDate, email]"},
    {"key-update", KP_SEV_WARNING, "pattern 7", "", "", "",
     "  - { id: 7, name: redate, kind: write, op: update, entity: Order, by: [customerId, orderDate, orderId],\n"
     "      changes: [orderDate], rate: 1 }\n",
     NULL, NULL},
    {"transactional-read", KP_SEV_ERROR, "pattern 7", "", "", "",
     "  - { id: 7, name: orders together, entity: Order, by: [customerId], consistency: transactional,\n"
     "      why: x, rate: 1, latency: 50 }\n",
     NULL, NULL},
    {"unknown-distribution", KP_SEV_NOTE, "table M#{whatever}", "", "",
     "  - { name: Misc, count: 1000, size: 300, attributes: [whatever], keys: { PK: \"M#{whatever}\", SK: \"M\" } }\n",
     "", NULL, NULL},
    {"key-too-long", KP_SEV_WARNING, "entity Note", "", "  note: { size: 1100 }\n",
     "  - { name: Note, count: 1000, size: 3000, attributes: [customerId, note],\n"
     "      keys: { PK: \"N#{customerId}\", SK: \"N#{note}\" } }\n",
     "", NULL, NULL},
    {"table-quota", KP_SEV_WARNING, "table", "", "", "", "", "size: 1000, writes: 20",
     "size: 1000, writes: 50000"},
};

static char *replace_once(const char *s, const char *from, const char *to)
{
    const char *at = strstr(s, from);
    assert_non_null(at);
    return xasprintf("%.*s%s%s", (int)(at - s), s, to, at + strlen(from));
}

static kp_analysis *run(const char *yaml, kp_design **dout)
{
    kp_diags dg;
    diags_init(&dg, "f.yaml");
    kp_design *d = designio_load_string(yaml, strlen(yaml), "f.yaml", &dg);
    if (!d) {
        diags_print(&dg, stderr);
        fprintf(stderr, "%s", yaml);
    }
    diags_free(&dg);
    assert_non_null(d);
    *dout = d;
    return analysis_run(d);
}

static void test_clean_design(void **state)
{
    (void)state;
    char *yaml = xasprintf(base_fmt, "", "", "", "");
    kp_design *d;
    kp_analysis *a = run(yaml, &d);
    for (size_t i = 0; i < a->nfindings; i++)
        if (a->findings[i].sev != KP_SEV_NOTE)
            fail_msg("clean design: unexpected %s at %s: %s", a->findings[i].code, a->findings[i].where,
                     a->findings[i].message);
    for (int i = 0; i < KP_CHECKLIST_ITEMS; i++)
        if (a->checklist[i].status != KP_CHECK_PASS)
            fail_msg("clean design: item %d %s: %s", a->checklist[i].item,
                     kp_check_status_name(a->checklist[i].status), a->checklist[i].why);
    assert_int_equal(a->checklist_pass, 11);
    assert_int_equal(a->checklist_applicable, 11);
    analysis_free(a);
    design_free(d);
    free(yaml);
}

static void test_each_finding(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const struct fcase *c = &cases[i];
        char *yaml = xasprintf(base_fmt, c->indexes, c->attrs, c->entities, c->patterns);
        if (c->from) {
            char *y2 = replace_once(yaml, c->from, c->to);
            free(yaml);
            yaml = y2;
        }
        kp_design *d;
        kp_analysis *a = run(yaml, &d);
        const kp_finding *f = NULL;
        for (size_t k = 0; k < a->nfindings && !f; k++)
            if (strcmp(a->findings[k].code, c->code) == 0 &&
                (!c->where || strcmp(a->findings[k].where, c->where) == 0))
                f = &a->findings[k];
        if (!f) {
            for (size_t k = 0; k < a->nfindings; k++)
                fprintf(stderr, "  have %s at %s: %s\n", a->findings[k].code, a->findings[k].where,
                        a->findings[k].message);
            fail_msg("case %zu: no %s finding at %s", i, c->code, c->where ? c->where : "(any)");
        }
        if (f->sev != c->sev)
            fail_msg("case %zu %s: severity %d, expected %d", i, c->code, f->sev, c->sev);
        assert_true(f->message && strlen(f->message) > 10);
        assert_true(f->fix && strlen(f->fix) > 20);
        analysis_free(a);
        design_free(d);
        free(yaml);
    }
}

/* item-too-large on a design the analysis is handed without validation (an API caller's). */
static void test_item_too_large(void **state)
{
    (void)state;
    char *yaml = xasprintf(base_fmt, "", "", "", "");
    kp_design *d;
    kp_analysis *a = run(yaml, &d);
    analysis_free(a);
    ((kp_entity *)design_entity(d, "Order"))->size = 500000;
    a = analysis_run(d);
    bool found = false;
    for (size_t k = 0; k < a->nfindings; k++)
        found = found ||
                (strcmp(a->findings[k].code, "item-too-large") == 0 && a->findings[k].sev == KP_SEV_ERROR);
    assert_true(found);
    analysis_free(a);
    design_free(d);
    free(yaml);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clean_design),
        cmocka_unit_test(test_each_finding),
        cmocka_unit_test(test_item_too_large),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
