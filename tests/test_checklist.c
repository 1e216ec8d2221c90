/* test_checklist.c - the course's checklist: the clean design passes all eleven items;
 * each variant fails (or makes n/a) the item it targets, with a reason naming the culprit. */
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

static const struct ccase {
    int item;
    kp_check_status status;
    const char *why_has; /* text the reason must contain */
    const char *indexes, *attrs, *entities, *patterns;
    const char *from, *to;
} cases[] = {
    {1, KP_CHECK_FAIL, "(7)", "", "", "",
     "  - { id: 7, name: no target, entity: Order, by: [customerId], rate: 3 }\n", NULL, NULL},
    {2, KP_CHECK_FAIL, "4, 7, 8", "", "", "",
     "  - { id: 7, name: by email again, entity: Customer, by: [email], rate: 500, latency: 50 }\n"
     "  - { id: 8, name: and again, entity: Customer, by: [email], rate: 500, latency: 50 }\n",
     NULL, NULL},
    /* few patterns miss it, but they carry most of the traffic: still fails */
    {2, KP_CHECK_FAIL, "4 of 5 read patterns (80 %), 15.0 % of the read requests", "", "", "", "",
     "by: [email], rate: 5, latency: 50 }", "by: [email], rate: 1020, latency: 50 }"},
    /* more patterns miss it, but carry 1 % of the requests: passes on traffic */
    {2, KP_CHECK_PASS, "57 %), 97.2 % of the read requests", "", "", "",
     "  - { id: 7, name: by email again, entity: Customer, by: [email], rate: 0.1, latency: 50 }\n"
     "  - { id: 8, name: and again, entity: Customer, by: [email], rate: 0.1, latency: 50 }\n",
     NULL, NULL},
    /* rates near the largest double, on both sides: their sums do not overflow into "nan %" */
    {2, KP_CHECK_PASS, "6 of 8 read patterns (75 %), 100.0 % of the read requests", "", "", "",
     "  - { id: 7, name: customer again, entity: Customer, by: [customerId], rate: 1e308, latency: 50 }\n"
     "  - { id: 8, name: and again, entity: Customer, by: [customerId], rate: 1.7976931348623157e308, latency: "
     "50 }\n"
     "  - { id: 9, name: by email again, entity: Customer, by: [email], rate: 1, latency: 50 }\n",
     NULL, NULL},
    {3, KP_CHECK_FAIL, "DAY#{day}", "", "  day: { type: date, distinct: 365, write_hot: 1.0 }\n",
     "  - { name: Event, count: 20000, size: 500, writes: 1500, attributes: [day, eventId],\n"
     "      keys: { PK: \"DAY#{day}\", SK: \"{eventId}\" } }\n",
     "", NULL, NULL},
    /* an undeclared placeholder: the table's distinct values are not known (never "nan") */
    {3, KP_CHECK_PASS, "distinct values not known", "", "",
     "  - { name: Tag, count: 10, size: 100, attributes: [tagId], keys: { PK: \"T#{tagId}\", SK: \"TAG\" } }\n",
     "", NULL, NULL},
    {4, KP_CHECK_FAIL, "(7)", "", "", "",
     "  - { id: 7, name: orders by id, entity: Order, by: [customerId], order: orderId desc, rate: 3, latency: 50 }\n",
     NULL, NULL},
    {5, KP_CHECK_FAIL, "2 entities", "", "", "", "",
     "in a single table, status: accepted, patterns: [5],\n      decision: \"single-table: the customer screen reads both in one query\"",
     "together, status: accepted, patterns: [5],\n      decision: \"keep them\""},
    {6, KP_CHECK_FAIL, "ByDate", "  - { name: ByDate, pk: orderDate, projection: keys }\n", "", "", "", NULL,
     NULL},
    {6, KP_CHECK_FAIL, "ALL", "", "", "", "", "projection: include, include: [customerId]",
     "projection: all"},
    {6, KP_CHECK_NA, "no secondary", "", "", "", "",
     "  - { name: ByEmail, pk: email, projection: include, include: [customerId] }\n", "  []\n"},
    {7, KP_CHECK_FAIL, "throttl", "", "", "", "", "{ name: throttled writes, metric: WriteThrottleEvents,",
     "{ name: errors, metric: SystemErrors,"},
    {8, KP_CHECK_FAIL, "(1)", "", "", "", "", ", why: the profile must be fresh after an edit", ""},
    {9, KP_CHECK_FAIL, "hot keys", "", "", "", "",
     "{ name: hot keys, metric: ContributorInsights.MostAccessedKeys,",
     "{ name: errors, metric: SystemErrors,"},
    {10, KP_CHECK_FAIL, "streams", "", "", "", "", "streams: true, ", ""},
    {10, KP_CHECK_FAIL, "pitr", "", "", "", "", ", pitr: true", ""},
    {11, KP_CHECK_FAIL, "(6)", "", "", "", "", "served_by: search-index, ", ""},
    {11, KP_CHECK_NA, "no search", "", "", "", "",
     "  - { id: 6, name: search, needs: search, served_by: search-index, rate: 1, latency: 1000 }\n", ""},
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

static void test_clean_passes(void **state)
{
    (void)state;
    char *yaml = xasprintf(base_fmt, "", "", "", "");
    kp_design *d;
    kp_analysis *a = run(yaml, &d);
    for (int i = 0; i < KP_CHECKLIST_ITEMS; i++) {
        assert_int_equal(a->checklist[i].item, i + 1);
        assert_non_null(a->checklist[i].title);
        assert_non_null(a->checklist[i].why);
        if (a->checklist[i].status != KP_CHECK_PASS)
            fail_msg("item %d %s: %s", i + 1, kp_check_status_name(a->checklist[i].status),
                     a->checklist[i].why);
    }
    assert_int_equal(a->checklist_pass, 11);
    analysis_free(a);
    design_free(d);
    free(yaml);
}

static void test_each_item(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const struct ccase *c = &cases[i];
        char *yaml = xasprintf(base_fmt, c->indexes, c->attrs, c->entities, c->patterns);
        if (c->from) {
            char *y2 = replace_once(yaml, c->from, c->to);
            free(yaml);
            yaml = y2;
        }
        kp_design *d;
        kp_analysis *a = run(yaml, &d);
        const kp_check_item *it = &a->checklist[c->item - 1];
        if (it->status != c->status)
            fail_msg("case %zu item %d: %s (%s), expected %s", i, c->item, kp_check_status_name(it->status),
                     it->why, kp_check_status_name(c->status));
        if (!strstr(it->why, c->why_has))
            fail_msg("case %zu item %d: why '%s' does not mention '%s'", i, c->item, it->why, c->why_has);
        int pass = 0, appl = 0;
        for (int k = 0; k < KP_CHECKLIST_ITEMS; k++) {
            pass += a->checklist[k].status == KP_CHECK_PASS;
            appl += a->checklist[k].status != KP_CHECK_NA;
        }
        assert_int_equal(a->checklist_pass, pass);
        assert_int_equal(a->checklist_applicable, appl);
        if (c->status != KP_CHECK_PASS)
            assert_true(pass < 11);
        analysis_free(a);
        design_free(d);
        free(yaml);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clean_passes),
        cmocka_unit_test(test_each_item),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
