/* test_tour.c - the CloudShop walkthrough, played from its data (samples/cloudshop/tour/):
 * the tour loads, every step's design validates and passes the step's own exercise checks,
 * and every step's design goes through the same analysis as `check --json` and is compared with
 * the course's figures: the plan of every pattern, the hot status partition of the first
 * design, the cost ladder, the distribution check. Steps are named by their id. Also: the
 * files built into keyplan are the sample files, the check language (table-driven), a
 * malformed tour file gives a located error (table-driven), and `keyplan tour --print` shows
 * the nine steps. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support.h"

#include "analysis.h"
#include "design_io.h"
#include "edit.h"
#include "tour.h"
#include "tour_int.h"
#include "validate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOUR_FILE "samples/cloudshop/tour/tour.yaml"

static tour *open_tour(void)
{
    char *err = NULL;
    tour *t = tour_open(NULL, &err);
    if (!t)
        fail_msg("the tour does not load: %s", err);
    return t;
}

/* The position of step `id`; fails the test when the tour has no such step. */
static size_t step_of(const tour *t, const char *id)
{
    ptrdiff_t i = tour_find(t, id);
    if (i < 0)
        fail_msg("the tour has no step '%s'", id);
    return (size_t)i;
}

static kp_design *step_design(const char *id)
{
    tour *t = open_tour();
    kp_design *d = tour_design(t, step_of(t, id));
    tour_close(t);
    assert_non_null(d);
    return d;
}

/* The design of rung r of the cost ladder. */
static kp_design *rung_design(size_t r)
{
    tour *t = open_tour();
    kp_design *d = tour_rung_design(t, step_of(t, "cost-ladder"), r);
    tour_close(t);
    if (!d)
        fail_msg("the cost ladder has no rung %zu", r + 1);
    return d;
}

static kp_design *load_file(const char *rel)
{
    kp_design *d = ts_load_file(rel);
    if (!d)
        fail_msg("%s does not load", rel);
    return d;
}

static const kp_pattern_result *result_of(const kp_analysis *a, const char *id)
{
    for (size_t i = 0; i < a->npatterns; i++)
        if (strcmp(a->patterns[i].pattern->id, id) == 0)
            return &a->patterns[i];
    return NULL;
}

static const kp_cost_line *line_of(const kp_cost *c, const char *name)
{
    for (size_t i = 0; i < c->nlines; i++)
        if (strcmp(c->lines[i].name, name) == 0)
            return &c->lines[i];
    fail_msg("no cost line '%s'", name);
    return NULL;
}

/* The step ids in order: the walkthrough's outline. */
static const char *const step_ids[] = {"patterns", "outside",     "status-key",   "one-table", "gsi1",
                                       "gsi2",     "cost-ladder", "distribution", "decisions"};
#define NSTEPS (sizeof step_ids / sizeof *step_ids)

static void test_steps_shape(void **state)
{
    (void)state;
    tour *t = open_tour();
    assert_int_equal(tour_nsteps(t), NSTEPS);
    assert_string_equal(tour_name(t), "cloudshop");
    assert_string_equal(tour_title(t),
                        "CloudShop: designing DynamoDB from the access patterns (keyplan tour)");
    for (size_t i = 0; i < NSTEPS; i++) {
        const tour_step *s = tour_step_at(t, step_of(t, step_ids[i]));
        assert_int_equal(s->number, (int)i + 1);
        assert_string_equal(s->id, step_ids[i]);
        assert_true(strlen(s->title) > 5);
        assert_true(strlen(s->narration) > 100);
        assert_true(s->nmarks > 0);
        assert_true(s->nchecks > 0);
        assert_int_equal(s->nrungs, strcmp(s->id, "cost-ladder") == 0 ? 4 : 0);
    }
    assert_true(tour_exists(NULL));
    assert_true(tour_exists("cloudshop"));
    assert_false(tour_exists("nosuch"));
    assert_false(tour_exists("../cloudshop"));
    assert_int_equal(tour_find(t, "nosuch"), -1);
    assert_null(tour_step_at(t, NSTEPS));
    assert_null(tour_design(t, NSTEPS));
    char *yerr = NULL;
    assert_null(tour_yaml(t, NSTEPS, &yerr));
    assert_non_null(yerr);
    free(yerr);
    assert_null(tour_rung_design(t, step_of(t, "gsi1"), 0));
    char *fig = tour_figures(t, NSTEPS, NULL);
    assert_string_equal(fig, "");
    free(fig);
    tour_close(t);
    char *err = NULL;
    assert_null(tour_open("nosuch", &err));
    assert_string_equal(err, "unknown tour 'nosuch'; expected 'cloudshop'");
    free(err);
}

/* The files built into keyplan are the sample files byte for byte (the build embeds them). */
static void test_embedded_are_the_files(void **state)
{
    (void)state;
    static const char *const want[] = {"samples/cloudshop/design.yaml", "samples/cloudshop/first-design.yaml",
                                       TOUR_FILE};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        const tour_file *f = tour_file_find(want[i]);
        if (!f)
            fail_msg("%s is not built into keyplan", want[i]);
        char *path = ts_source_path(want[i]);
        size_t len = 0;
        char *text = ts_read_file(path, &len);
        assert_non_null(text);
        assert_int_equal(f->len, len);
        assert_memory_equal(f->text, text, len);
        assert_int_equal(f->text[len], '\0');
        free(text);
        free(path);
    }
    assert_null(tour_file_find("samples/cloudshop/nosuch.yaml"));
}

/* The steps that name a sample file are that file; every step's YAML loads back to its design;
 * every design of the tour (steps and rungs) validates. */
static void test_designs(void **state)
{
    (void)state;
    kp_design *first = load_file("samples/cloudshop/first-design.yaml");
    kp_design *final = load_file("samples/cloudshop/design.yaml");
    kp_design *s1 = step_design("patterns"), *s9 = step_design("decisions");
    assert_true(design_equal(first, s1));
    assert_true(design_equal(final, s9));
    design_free(first);
    design_free(final);
    design_free(s1);
    design_free(s9);
    tour *t = open_tour();
    for (size_t i = 0; i < tour_nsteps(t); i++) {
        const tour_step *s = tour_step_at(t, i);
        char *y = tour_yaml(t, i, NULL);
        assert_non_null(y);
        kp_diags dg;
        diags_init(&dg, "step.yaml");
        kp_design *back = designio_load_string(y, strlen(y), "step.yaml", &dg);
        if (!back) {
            diags_print(&dg, stderr);
            fail_msg("step %s: its YAML does not load", s->id);
        }
        kp_design *d = tour_design(t, i);
        assert_true(design_equal(d, back));
        design_free(back);
        diags_free(&dg);
        free(y);
        for (size_t r = 0; r <= s->nrungs; r++) {
            kp_design *v = r == 0 ? design_clone(d) : tour_rung_design(t, i, r - 1);
            diags_init(&dg, "step.yaml");
            if (!validate_design(v, &dg)) {
                diags_print(&dg, stderr);
                fail_msg("step %s%s: the design does not validate", s->id, r ? ", a rung" : "");
            }
            diags_free(&dg);
            design_free(v);
        }
        design_free(d);
    }
    tour_close(t);
}

/* Every step's exercise checks hold on the step's own design. */
static void test_exercises_pass(void **state)
{
    (void)state;
    tour *t = open_tour();
    for (size_t i = 0; i < tour_nsteps(t); i++) {
        kp_design *d = tour_design(t, i);
        kp_analysis *a = analysis_run(d);
        char *failed = tour_exercise(t, i, a);
        if (failed)
            fail_msg("step %s: %s", tour_step_at(t, i)->id, failed);
        analysis_free(a);
        design_free(d);
    }
    /* and they are the step's own: the first design fails the final model's */
    kp_design *d = step_design("patterns");
    kp_analysis *a = analysis_run(d);
    char *failed = tour_exercise(t, step_of(t, "one-table"), a);
    assert_non_null(failed);
    assert_non_null(strstr(failed, "pattern.1.plan == get: pattern.1.plan is scan\n"));
    free(failed);
    analysis_free(a);
    design_free(d);
    tour_close(t);
}

/* The check language, on the final design (and on it billed on demand, where D6 reopens). */
static const struct {
    const char *check;
    bool well_formed;
    bool holds;
    const char *why; /* when it does not hold */
} check_cases[] = {
    {"pattern.5.plan == query", true, true, NULL},
    {"  pattern.5.plan==query  ", true, true, NULL},
    {"pattern.5.plan != query", true, false, "pattern.5.plan is query"},
    {"pattern.1.plan == scan", true, false, "pattern.1.plan is get"},
    {"pattern.5.index == GSI1", true, true, NULL},
    {"pattern.1.index == table", true, true, NULL},
    {"pattern.1.latency_ok == true", true, true, NULL},
    {"pattern.8.plan == outside", true, true, NULL},
    {"partition.CLIENTE#{customerId}.hot == false", true, true, NULL},
    {"partition.CLIENTE#{customerId}.distinct >= 41200", true, true, NULL},
    {"partition.ESTADO#{status}.hot == false", true, true, NULL},
    {"partition.ESTADO#{status}.hot == true", true, false, "partition.ESTADO#{status}.hot is false"},
    {"finding.low-cardinality-pk.count == 2", true, true, NULL}, /* GSI1 by status, GSI2 by date */
    {"finding.hot-partition.count > 0", true, false, "finding.hot-partition.count is 0"},
    {"checklist.11.status == pass", true, true, NULL},
    {"decision.D3.status == accepted", true, true, NULL},
    {"decision.D6.status == reopen", true, false, "decision.D6.status is accepted"},
    {"index.GSI1.items < 100000", true, true, NULL},
    /* 609.463 before two rules: a screen reads each entity at its own size (the customer
     * screen's 25 items are 1 profile, 2 addresses, 22 summaries: screen_overcount below) takes
     * 10.89 EUR of provisioned reads off; pattern 7 fetching the day's orders from the table (GSI2
     * projects keys only: BatchGetItem) adds 0.12. The close's 1 MB pages add requests, not
     * units. Over 650 (D6's signal, see below) it is not */
    {"cost.total > 650", true, false, "cost.total is 598.695"},
    {"cost.index_writes < 100", true, true, NULL},
    {"pattern.42.plan == get", true, false, "pattern.42.plan names nothing of the design"},
    {"checklist.12.status == pass", true, false, "checklist.12.status names nothing of the design"},
    {"decision.D9.status == accepted", true, false, "decision.D9.status names nothing of the design"},
    {"partition.NOPE#{x}.hot == true", true, false, "partition.NOPE#{x}.hot names nothing of the design"},
    {"pattern.5.plan > query", false, false, "this subject is a word; expected == or !="},
    {"pattern.5.rate == fast", false, false,
     "this subject is a number; expected a number after the operator"},
    {"pattern.1.latency_ok == maybe", false, false,
     "this subject is true or false; expected true or false after the operator"},
    {"pattern.5", false, false,
     "expected SUBJECT OP VALUE, e.g. pattern.5.plan == query or index.GSI1.items < 100000"},
    {"== query", false, false,
     "expected SUBJECT OP VALUE, e.g. pattern.5.plan == query or index.GSI1.items < 100000"},
    {"pattern.5.plan == a b", false, false,
     "expected SUBJECT OP VALUE, e.g. pattern.5.plan == query or index.GSI1.items < 100000"},
};

static void test_check_language(void **state)
{
    (void)state;
    kp_design *d = load_file("samples/cloudshop/design.yaml");
    kp_analysis *a = analysis_run(d);
    for (size_t i = 0; i < sizeof check_cases / sizeof *check_cases; i++) {
        char *why = NULL;
        bool holds = tour_check(check_cases[i].check, a, &why);
        if (holds != check_cases[i].holds)
            fail_msg("'%s': %s, expected %s (%s)", check_cases[i].check, holds ? "holds" : "fails",
                     check_cases[i].holds ? "to hold" : "to fail", why ? why : "");
        if (!holds && strcmp(why, check_cases[i].why) != 0)
            fail_msg("'%s': why '%s', expected '%s'", check_cases[i].check, why, check_cases[i].why);
        char *vwhy = NULL;
        kp_status vst = tour_check_validate(check_cases[i].check, &vwhy);
        if ((vst == KP_OK) != check_cases[i].well_formed)
            fail_msg("'%s': tour_check_validate says %s", check_cases[i].check, vwhy ? vwhy : "well-formed");
        if (!check_cases[i].well_formed) {
            assert_int_equal(vst, KP_INVALID);
            assert_string_equal(vwhy, check_cases[i].why);
        } else {
            assert_null(vwhy);
        }
        free(vwhy);
        free(why);
    }
    analysis_free(a);
    /* billed on demand the final design costs 678 EUR, over D6's 650: its signal fires (the
       signal was 700 when the customer screen was counted at 8 profiles a call; it is 650 since
       the screen reads each entity at its own size, under on demand's 678, over provisioned's
       599 and the course's 620) */
    char *err = NULL;
    assert_int_equal(edit_set(d, EDIT_SETTINGS, (size_t)edit_setting_find("billing"), 1, "on-demand", &err),
                     KP_OK);
    a = analysis_run(d);
    assert_true(tour_check("decision.D6.status == reopen", a, NULL));
    assert_false(tour_check("cost.total < 650", a, NULL));
    analysis_free(a);
    design_free(d);
}

/* The plan of every pattern at every step, as the course tells it: one letter per pattern 1..10
 * (g get, q query, m multi, s scan, o outside, c covered, w write, '-' not in the step's design),
 * and whether the patterns are on their final indexes yet (final_index). */
static const struct {
    const char *step;
    const char *plans;
    bool final_index;
} plan_table[] = {
    {"patterns", "ssssqgmss-", false},   {"outside", "ssssqgmoo-", false},
    {"status-key", "ssssqgmoo-", false}, {"one-table", "gqqqscsooq", false},
    {"gsi1", "gqqqqcsooq", false},       {"gsi2", "gqqqqcmooq", true},
    {"cost-ladder", "gqqqqcmooq", true}, {"distribution", "gqqqqcmooq", true},
    {"decisions", "gqqqqcmooq", true},
};
/* Pattern 7 from gsi2 on: the course's query on the keys-only GSI-2 "fetches the order headers it
 * needs by key" (D4); a GSI returns only what it projects, so keyplan plans that fetch as a second
 * step (BatchGetItem): multi. */
/* The final index of each pattern (NULL: no index: covered, outside). */
static const char *const final_index[] = {"table", "table", "table", "table", "GSI1",
                                          NULL,    "GSI2",  NULL,    NULL,    "table"};

static char plan_letter(kp_plan p)
{
    switch (p) {
    case KP_PLAN_GET:
        return 'g';
    case KP_PLAN_QUERY:
        return 'q';
    case KP_PLAN_MULTI:
        return 'm';
    case KP_PLAN_SCAN:
        return 's';
    case KP_PLAN_OUTSIDE:
        return 'o';
    case KP_PLAN_COVERED:
        return 'c';
    case KP_PLAN_WRITE:
    case KP_PLAN_TRANSACT:
        return 'w';
    default:
        return '?';
    }
}

static void test_plans(void **state)
{
    (void)state;
    for (size_t s = 0; s < sizeof plan_table / sizeof *plan_table; s++) {
        const char *step = plan_table[s].step;
        kp_design *d = step_design(step);
        kp_analysis *a = analysis_run(d);
        for (size_t i = 0; i < 10; i++) {
            char id[8], want = plan_table[s].plans[i];
            snprintf(id, sizeof id, "%zu", i + 1);
            const kp_pattern_result *r = result_of(a, id);
            if (want == '-') {
                assert_null(r);
                continue;
            }
            if (!r)
                fail_msg("step %s: no pattern %s", step, id);
            if (plan_letter(r->plan) != want)
                fail_msg("step %s, pattern %s: plan %s, expected '%c'", step, id, kp_plan_word(r->plan),
                         want);
            if (plan_table[s].final_index && final_index[i] && strcmp(r->index_name, final_index[i]) != 0)
                fail_msg("step %s, pattern %s: on %s, expected %s", step, id, r->index_name, final_index[i]);
        }
        /* from the one-table step on, the customer screen is one query instead of three */
        if (plan_table[s].plans[9] != '-')
            assert_true(fabs(result_of(a, "10")->requests - 1) < 1e-9);
        analysis_free(a);
        design_free(d);
    }
}

/* The first design (status-key): pattern 1 is a scan far over 20 ms; the hottest status partition passes its limit
 * near 900 writes/s while the table is mostly idle; the low-cardinality finding fires. */
static void test_first_design_hot(void **state)
{
    (void)state;
    kp_design *d = step_design("status-key");
    kp_analysis *a = analysis_run(d);
    const kp_pattern_result *r = result_of(a, "1");
    assert_int_equal(r->plan, KP_PLAN_SCAN);
    assert_false(r->latency_ok);
    assert_true(r->latency_ms > 200);
    const kp_partition_result *hot = NULL;
    for (size_t i = 0; i < a->npartitions; i++)
        if (strcmp(a->partitions[i].template_src, "ESTADO#{status}") == 0)
            hot = &a->partitions[i];
    assert_non_null(hot);
    assert_true(hot->hot);
    /* The course: just past its limit, at about 900 writes/s. The status is in the table's
     * partition key, and DynamoDB cannot update a key attribute: each status change is a Delete
     * and a Put in a transaction (4 units per 1 KB where an update costs 1), so keyplan puts the
     * hottest partition at about 2.4 times its limit (1.1 with plain updates) */
    if (hot->write_util < 2.0 || hot->write_util > 3.0)
        fail_msg("hottest status partition at %.0f %% of its write limit; the course: just past it",
                 hot->write_util * 100);
    /* mostly idle: the table's writes are a small share of the 20,000 it was provisioned for
     * (3,960 units/s with the status changes as Delete + Put transactions; the course's panel
     * showed 5 %) */
    assert_true(a->indexes[0].wcu_per_s / 20000 < 0.20);
    bool low = false;
    for (size_t i = 0; i < a->nfindings; i++)
        low |= strcmp(a->findings[i].code, "low-cardinality-pk") == 0;
    assert_true(low);
    analysis_free(a);
    design_free(d);
}

/* gsi1: GSI-1 sparse, with the decision's two signals quiet but near. */
static void test_gsi1(void **state)
{
    (void)state;
    kp_design *d = step_design("gsi1");
    kp_analysis *a = analysis_run(d);
    double items = NAN, rate = NAN;
    assert_true(analysis_metric(a, "index.GSI1.items", &items));
    assert_true(analysis_metric(a, "pattern.5.rate", &rate));
    assert_true(items < 100000 && items > 10000);
    assert_true(rate < 50);
    assert_non_null(entity_sparse(design_entity(d, "Order"), "GSI1PK"));
    analysis_free(a);
    design_free(d);
}

/* cost-ladder: the cost ladder, rung by rung, against the course's table (EUR). */
static const struct {
    double reads, writes, storage, index_writes, streams, backups, total;
} course_ladder[] = {
    {490, 205, 53, 410, 18, 68, 1244},
    {490, 205, 53, 95, 18, 68, 929},
    {268, 205, 53, 95, 18, 68, 707},
    {171, 205, 53, 95, 18, 68, 620},
};

static void near5(double got, double want, const char *what, size_t rung)
{
    if (fabs(got - want) > want * 0.05)
        fail_msg("rung %zu, %s: keyplan %.1f, the course %.0f (more than 5 %% apart)", rung + 1, what, got,
                 want);
}

#define SECONDS_PER_MONTH (730.0 * 3600.0)

static double avg_of(const kp_pattern *p) { return isnan(p->avg) ? p->rate : p->avg; }

/* The index writes DynamoDB's rules give for a ladder rung's design, computed here from the
 * design's own figures, independently of model/: every new order (pattern 11, one Order item
 * per call) puts one GSI-2 entry and, when it lands in GSI-1, one GSI-1 entry; every status
 * change (pattern 13) costs GSI-1 a delete + put when GSI-1 is on every order, and, when GSI-1
 * is sparse, one write for each order entering or leaving it (entries and exits balance):
 * 2 x the share of the WRITES landing on its statuses (status write_shares). The keys-only
 * GSI-2 is untouched by a status change. Order headers and GSI-1 entries are under 1 KB: 1
 * unit each (asserted). EUR/month. */
static double aws_index_writes(const kp_design *d)
{
    const kp_pattern *create = design_pattern(d, "11"), *advance = design_pattern(d, "13");
    const kp_entity *order = design_entity(d, "Order");
    assert_non_null(create);
    assert_non_null(advance);
    assert_non_null(order);
    assert_true(order->size <= 1024);
    double per_call = (isnan(create->items) ? 1 : create->items) / (double)create->nentities;
    double c = avg_of(create) * (per_call < 1 ? 1 : per_call), u = avg_of(advance);
    const kp_sparse *sp = entity_sparse(order, "GSI1PK");
    double w = 1; /* share of the order writes landing where GSI1PK exists */
    if (sp) {
        assert_int_equal(sp->kind, KP_SPARSE_COND);
        const kp_attr *st = design_attr(d, sp->cond_attr.s);
        assert_non_null(st);
        w = 0;
        for (size_t k = 0; k < sp->nvalues; k++)
            for (size_t i = 0; i < st->nvalues; i++)
                if (strcmp(st->values[i].name, sp->values[k].s) == 0)
                    w += isnan(st->values[i].write_share) ? st->values[i].share : st->values[i].write_share;
    }
    double units = c * (1 + w) + u * 2 * w;
    double price = isnan(d->pricing.index_write_per_million) ? d->pricing.write_per_million
                                                             : d->pricing.index_write_per_million;
    return units * SECONDS_PER_MONTH / 1e6 * price;
}

/* The customer screen (pattern 10: `items: 25` over Customer, Address and OrderSummary) reads
 * each entity at its own size: a customer has 1 profile and 2 addresses, so the 25 items are 1
 * profile, 2 addresses and 22 order summaries (6.6 KB, 2 strong read units, a Query summing the
 * sizes of what it reads), not 25/3 of each (8 profiles, 17 KB, 5 units), which is what the
 * course's read line counts. What the course's figure holds too much, in EUR/month, by
 * DynamoDB's rules from the design's own figures, independently of model/: on demand at the
 * average rate, provisioned at the peak over the target utilisation. */
static double screen_overcount(const kp_design *d)
{
    const kp_pattern *p = design_pattern(d, "10");
    assert_non_null(p);
    assert_int_equal(p->nentities, 3);
    double customers = design_attr(d, "customerId")->distinct, left = p->items, even = 0, own = 0;
    double coll[3], size[3];
    for (size_t i = 0; i < 3; i++) {
        const kp_entity *e = design_entity(d, p->entities[i].s);
        coll[i] = e->count / customers;
        size[i] = e->size;
        even += p->items / 3 * e->size;
    }
    for (size_t i = 0; i < 3; i++) { /* entities listed from the smallest collection up */
        double share = left / (double)(3 - i), take = coll[i] < share ? coll[i] : share;
        own += take * size[i];
        left -= take;
    }
    double units = ceil(even / 4096) - ceil(own / 4096); /* strong: 1 per 4 KB */
    if (d->table.billing == KP_BILLING_PROVISIONED)
        return units * p->rate / (isnan(d->table.target_utilization) ? 0.7 : d->table.target_utilization) *
               730 * d->pricing.rcu_hour;
    return units * avg_of(p) * SECONDS_PER_MONTH / 1e6 * d->pricing.read_per_million;
}

/* Every line the course's figures allow is within 5 % of the course at every rung: reads,
 * writes, storage, streams and backups. Index writes: the first month's are what DynamoDB's
 * rules give for the design (above the table's writes, as the course says; the course's 410,
 * twice the table's, would need the order's summary and lines to cost no write — see
 * samples/cloudshop/design.yaml's header); after the sparse GSI-1 they lie between GSI-2's
 * one entry per new order and the course's 95. The totals match the course's once its
 * index-writes line is set aside. */
static void test_cost_ladder(void **state)
{
    (void)state;
    double prev_total = INFINITY, index_first = NAN, index_sparse = NAN;
    for (size_t r = 0; r < 4; r++) {
        kp_design *d = rung_design(r);
        kp_analysis *a = analysis_run(d);
        const kp_cost *c = a->cost;
        assert_int_equal(c->mode, r == 3 ? KP_BILLING_PROVISIONED : KP_BILLING_ON_DEMAND);
        assert_string_equal(c->currency, "EUR");
        /* the course's reads less what it counts too much for the customer screen (above) */
        double over = screen_overcount(d);
        assert_true(over > 0);
        near5(line_of(c, "reads")->amount, course_ladder[r].reads - over, "reads", r);
        near5(line_of(c, "writes")->amount, course_ladder[r].writes, "writes", r);
        near5(line_of(c, "storage")->amount, course_ladder[r].storage, "storage", r);
        near5(line_of(c, "streams")->amount, course_ladder[r].streams, "streams", r);
        near5(line_of(c, "backups")->amount, course_ladder[r].backups, "backups", r);
        double iw = line_of(c, "index writes")->amount, tw = line_of(c, "writes")->amount;
        /* the total is the sum of the lines, and the lines other than index writes add up to
         * the course's (its total less its index writes) within 5 % */
        double sum = 0;
        for (size_t i = 0; i < c->nlines; i++)
            sum += c->lines[i].amount;
        assert_true(fabs(sum - c->total) < 1e-6 * c->total);
        near5(c->total - iw, course_ladder[r].total - course_ladder[r].index_writes - over,
              "total less index writes", r);
        const kp_pattern *create = design_pattern(d, "11");
        double gsi2 = avg_of(create) * SECONDS_PER_MONTH / 1e6 * d->pricing.write_per_million;
        if (r == 0) {
            /* the first month: GSI-1 on every order; index writes above the table's own */
            assert_null(entity_sparse(design_entity(d, "Order"), "GSI1PK"));
            if (!(iw > tw))
                fail_msg("first month: index writes %.0f not above table writes %.0f", iw, tw);
            double want = aws_index_writes(d);
            if (fabs(iw - want) > want * 0.01)
                fail_msg("first month: index writes %.1f, DynamoDB's rules give %.1f", iw, want);
            index_first = iw;
        } else {
            /* sparse GSI-1: at least GSI-2's entry per new order, at most the course's 95 (+5 %),
             * well under the first month's; the same at every later rung (provisioned: peak/avg
             * of the index writes as the table's) */
            assert_non_null(entity_sparse(design_entity(d, "Order"), "GSI1PK"));
            if (iw < gsi2 * 0.99 || iw > course_ladder[r].index_writes * 1.05 || iw > index_first * 0.5)
                fail_msg("rung %zu: index writes %.1f, expected between %.1f (GSI-2) and %.0f", r + 1, iw,
                         gsi2, course_ladder[r].index_writes * 1.05);
            if (r == 1)
                index_sparse = iw;
            else if (fabs(iw - index_sparse) > index_sparse * 0.05)
                fail_msg("rung %zu: index writes %.1f, rung 2 %.1f", r + 1, iw, index_sparse);
            /* the design's write_shares put DynamoDB's own figure at the course's 95 */
            near5(aws_index_writes(d), course_ladder[r].index_writes, "index writes by DynamoDB's rules", r);
        }
        /* every adjustment lowers the bill */
        assert_true(c->total < prev_total);
        prev_total = c->total;
        if (r == 1) {
            /* about 92 % of the read units belong to patterns that need no strong read (they
             * become eventual in the next rung) */
            kp_design *next = rung_design(2);
            double all = 0, moved = 0;
            for (size_t i = 0; i < a->npatterns; i++) {
                const kp_pattern *p = a->patterns[i].pattern;
                all += a->patterns[i].rcu_per_s_avg;
                const kp_pattern *q = design_pattern(next, p->id);
                if (p->consistency == KP_STRONG && q && q->consistency == KP_EVENTUAL)
                    moved += a->patterns[i].rcu_per_s_avg;
            }
            if (all <= 0 || moved / all < 0.87 || moved / all > 0.97)
                fail_msg("%.0f %% of the read units move to eventual; the course: 92 %%", 100 * moved / all);
            design_free(next);
        }
        analysis_free(a);
        design_free(d);
    }
}

/* The model costs a sparse index's writes where the writes land (status write_shares, as
 * DynamoDB charges them): the sparse rungs match the course within 5 %, index writes and totals,
 * and the sparse rung's index writes equal DynamoDB's rules computed independently. */
static void test_cost_ladder_sparse_by_writes(void **state)
{
    (void)state;
    kp_design *d = rung_design(1);
    kp_analysis *a = analysis_run(d);
    double iw = line_of(a->cost, "index writes")->amount, want = aws_index_writes(d);
    analysis_free(a);
    design_free(d);
    if (fabs(iw - want) > want * 0.05)
        fail_msg("sparse GSI-1: keyplan %.0f EUR of index writes, DynamoDB's rules %.0f", iw, want);
    for (size_t r = 1; r < 4; r++) {
        d = rung_design(r);
        a = analysis_run(d);
        near5(line_of(a->cost, "index writes")->amount, course_ladder[r].index_writes, "index writes", r);
        near5(a->cost->total, course_ladder[r].total, "total", r);
        analysis_free(a);
        design_free(d);
    }
}

/* distribution: about 41,200 distinct partition keys, hottest write share near 0.8 %, read share
 * near 2.1 %, from the design's distributions. */
static void test_distribution(void **state)
{
    (void)state;
    kp_design *d = step_design("distribution");
    kp_analysis *a = analysis_run(d);
    const kp_partition_result *p = NULL;
    for (size_t i = 0; i < a->npartitions; i++)
        if (strcmp(a->partitions[i].template_src, "CLIENTE#{customerId}") == 0)
            p = &a->partitions[i];
    assert_non_null(p);
    if (fabs(p->distinct - 41200) > 41200 * 0.05)
        fail_msg("distinct %.0f, the course about 41,200", p->distinct);
    if (fabs(p->write_hot_share - 0.008) > 0.002)
        fail_msg("write share %.2f %%, the course 0.8 %%", p->write_hot_share * 100);
    if (fabs(p->read_hot_share - 0.021) > 0.003)
        fail_msg("read share %.2f %%, the course 2.1 %%", p->read_hot_share * 100);
    assert_false(p->hot);
    analysis_free(a);
    design_free(d);
}

/* A malformed tour file: the first error names the tour file, its line and column, what is
 * wrong and what was expected. Every row is the base (one valid step, 6 lines) plus lines. */
#define BASE                    \
    "title: T\n"                \
    "steps:\n"                  \
    "  - id: one\n"             \
    "    title: One\n"          \
    "    narration: [First.]\n" \
    "    design: ../first-design.yaml\n"
#define STEP2 "  - id: two\n    title: Two\n    narration: [Second.]\n"

static const struct {
    const char *name;
    const char *text;
    const char *first;
} bad_tours[] = {
    {"empty", "", "FILE: error: the file is empty; expected a tour with title: and steps:"},
    {"syntax", "title: T\nsteps: [\n",
     "FILE:3:1: error: YAML syntax error: did not find expected node content while parsing a flow node (started at line 3, column 1); expected well-formed YAML"},
    {"root_list", "- title: T\n",
     "FILE:1:1: error: the tour is a list; expected a map with title: and steps:"},
    {"second_document", BASE "---\ntitle: U\n",
     "FILE:8:1: error: a second YAML document; expected one tour per file"},
    {"unknown_top_key", BASE "titel: U\n",
     "FILE:7:1: error: tour: unknown key 'titel' (did you mean 'title'?); expected title or steps"},
    {"no_steps", "title: T\n", "FILE:1:1: error: tour: 'steps' is missing; expected a list of steps"},
    {"steps_empty", "title: T\nsteps: []\n",
     "FILE:2:8: error: tour: 'steps' is empty; expected at least one step"},
    {"step_unknown_key", BASE "    figure: [findings]\n",
     "FILE:7:5: error: step 1 (one): unknown key 'figure' (did you mean 'figures'?); expected id, title, narration, design, ladder, marks, figures, checks or try"},
    {"step_no_design", "title: T\nsteps:\n  - id: one\n    title: One\n    narration: [First.]\n",
     "FILE:3:5: error: step 1 (one): 'design' is missing; expected a design file, an earlier step's id or { from: ..., edits: [...] }"},
    {"step_bad_id", BASE "  - id: two words\n    title: Two\n    narration: [Second.]\n    design: one\n",
     "FILE:7:9: error: step 2: id 'two words'; expected a short name of letters, digits and '-'"},
    {"step_duplicate_id", BASE "  - id: one\n    title: Two\n    narration: [Second.]\n    design: one\n",
     "FILE:7:9: error: step 2: id 'one' is step 1's already; expected a unique id"},
    {"narration_text",
     "title: T\nsteps:\n  - id: one\n    title: One\n    narration: First.\n    design: ../first-design.yaml\n",
     "FILE:5:16: error: step 1 (one): 'narration' is text; expected a list of paragraphs"},
    {"design_later_step",
     "title: T\nsteps:\n  - id: one\n    title: One\n    narration: [First.]\n    design: two\n" STEP2
     "    design: ../first-design.yaml\n",
     "FILE:6:13: error: step 1 (one): 'two' is no earlier step and no design file; expected an earlier step's id or a path ending in .yaml"},
    {"design_typo", BASE STEP2 "    design: oen\n",
     "FILE:10:13: error: step 2 (two): 'oen' is no earlier step and no design file; expected an earlier step's id or a path ending in .yaml"},
    {"design_no_file", BASE STEP2 "    design: ../nosuch.yaml\n",
     "FILE:10:13: error: step 2 (two): no design file '../nosuch.yaml' in the tour's sample; expected a path relative to the tour's folder (../design.yaml) or the id of an earlier step"},
    {"design_outside", BASE STEP2 "    design: ../../../x.yaml\n",
     "FILE:10:13: error: step 2 (two): no design file '../../../x.yaml' in the tour's sample; expected a path relative to the tour's folder (../design.yaml) or the id of an earlier step"},
    {"design_unknown_key", BASE STEP2 "    design: { from: one, edit: [] }\n",
     "FILE:10:26: error: step 2 (two): unknown key 'edit' (did you mean 'edits'?); expected from or edits"},
    {"edit_no_op", BASE STEP2 "    design: { from: one, edits: [ { to: x } ] }\n",
     "FILE:10:35: error: step 2 (two): an edit says no operation; expected one of set, delete or copy"},
    {"edit_two_ops",
     BASE STEP2 "    design: { from: one, edits: [ { set: patterns 1 rate, delete: patterns 1 } ] }\n",
     "FILE:10:35: error: step 2 (two): an edit says several operations; expected one of set, delete or copy"},
    {"edit_unknown_table", BASE STEP2 "    design: { from: one, edits: [ { delete: pattern 1 } ] }\n",
     "FILE:10:45: error: step 2 (two): delete 'pattern 1'; expected TABLE ROW with TABLE one of patterns, entities, indexes, attributes, decisions, keys or settings"},
    {"edit_no_row", BASE STEP2 "    design: { from: one, edits: [ { delete: indexes GSI1 } ] }\n",
     "FILE:10:45: error: step 2 (two): delete 'indexes GSI1': the design has no indexes row 'GSI1'; expected an existing id or name"},
    {"edit_no_column",
     BASE STEP2 "    design: { from: one, edits: [ { set: patterns 1 speed, to: \"3\" } ] }\n",
     "FILE:10:42: error: step 2 (two): set 'patterns 1 speed': patterns has no column 'speed'; expected id, name, kind, entity, by, rate, avg, latency, consistency, order, limit, range, filter, join, covered_by, needs, served_by, op, items, changes, why or returns"},
    {"edit_bad_value",
     BASE STEP2 "    design: { from: one, edits: [ { set: patterns 1 rate, to: fast } ] }\n",
     "FILE:10:63: error: step 2 (two): set 'patterns 1 rate': 'fast' is not a rate; expected requests a second (2.5), or a figure per /min, /h or /day (30/min, 1/day)"},
    {"edit_set_without_to", BASE STEP2 "    design: { from: one, edits: [ { set: patterns 1 rate } ] }\n",
     "FILE:10:35: error: step 2 (two): 'to' is missing; expected the cell's new text"},
    {"edit_copy_twice",
     BASE STEP2
     "    design: { from: ../design.yaml, edits: [ { copy: decisions D2, from: ../design.yaml } ] }\n",
     "FILE:10:54: error: step 2 (two): copy 'decisions D2': the design already has it; expected a row it lacks"},
    {"edit_copy_absent",
     BASE STEP2 "    design: { from: one, edits: [ { copy: decisions D9, from: ../design.yaml } ] }\n",
     "FILE:10:43: error: step 2 (two): copy 'decisions D9': ../design.yaml has no such row; expected one of its decisions"},
    {"edit_copy_pattern",
     BASE STEP2 "    design: { from: one, edits: [ { copy: patterns 10, from: ../design.yaml } ] }\n",
     "FILE:10:43: error: step 2 (two): copy 'patterns 10'; expected decisions or indexes"},
    {"edit_delete_setting", BASE STEP2 "    design: { from: one, edits: [ { delete: settings billing } ] }\n",
     "FILE:10:45: error: step 2 (two): delete 'settings billing': settings rows cannot be deleted; expected patterns, entities, indexes, attributes or decisions"},
    {"edit_invalid_design", BASE STEP2 "    design: { from: one, edits: [ { delete: entities Order } ] }\n",
     "FILE:10:13: error: step 2 (two): the design does not validate: pattern 1: unknown entity 'Order'; expected one of: Customer"},
    {"mark_unknown_kind", BASE "    marks: { patern: [1] }\n",
     "FILE:7:14: error: step 1 (one): unknown key 'patern' (did you mean 'pattern'?); expected pattern, entity, index, partition, finding, decision, cost or checklist"},
    {"mark_names_nothing", BASE "    marks: { pattern: [1, 42] }\n",
     "FILE:7:27: error: step 1 (one): mark pattern '42' names nothing; expected the id of a pattern of the step's design"},
    {"mark_unknown_finding", BASE "    marks: { finding: [hot-partitions] }\n",
     "FILE:7:24: error: step 1 (one): mark finding 'hot-partitions' names nothing; expected a finding code (keyplan check lists them)"},
    {"figure_unknown", BASE "    figures: [finding]\n",
     "FILE:7:15: error: step 1 (one): unknown figure 'finding' (did you mean 'findings'?); expected targets, plans, plan, key condition, checklist, hottest partition, findings, index items, signals, refused, cost ladder, partition, hot partitions, alerts, decisions or cost"},
    {"figure_no_arg", BASE "    figures: [plan]\n",
     "FILE:7:15: error: step 1 (one): figure 'plan' needs an argument; expected { plan: ARGUMENT }, ARGUMENT the id of a pattern of the step's design"},
    {"figure_extra_arg", BASE "    figures: [ { findings: all } ]\n",
     "FILE:7:28: error: step 1 (one): figure 'findings' takes no argument; expected just its name"},
    {"figure_names_nothing", BASE "    figures: [ { plan: 42 } ]\n",
     "FILE:7:24: error: step 1 (one): figure 'plan': '42' names nothing; expected the id of a pattern of the step's design"},
    {"figure_bad_selection", BASE "    figures: [ { plans: writes } ]\n",
     "FILE:7:25: error: step 1 (one): figure 'plans': 'writes' names nothing; expected all, reads or needs"},
    {"figure_label_elsewhere", BASE "    figures: [ { plan: 1, label: x } ]\n",
     "FILE:7:34: error: step 1 (one): figure 'plan' takes no label; expected a label (text) on checklist figures only"},
    {"figure_ladder_without_ladder", BASE "    figures: [cost ladder]\n",
     "FILE:7:14: error: step 1 (one): the figure 'cost ladder' needs the step's ladder; expected 'ladder:' in the step"},
    {"ladder_rung_no_design", BASE "    ladder: [ { label: a, course: b, course_total: 1 } ]\n",
     "FILE:7:15: error: step 1 (one), rung 1: 'design' is missing; expected the rung's design"},
    {"ladder_rung_total", BASE "    ladder: [ { label: a, course: b, course_total: lots, design: one } ]\n",
     "FILE:7:52: error: step 1 (one), rung 1: course_total 'lots'; expected a number"},
    {"check_malformed", BASE "    checks: [ \"pattern.1.plan > get\" ]\n",
     "FILE:7:15: error: step 1 (one): check 'pattern.1.plan > get': this subject is a word; expected == or !="},
    {"check_unknown_subject", BASE "    checks: [ \"pattern.1.colour == red\" ]\n",
     "FILE:7:15: error: step 1 (one): check 'pattern.1.colour == red': unknown subject; expected pattern.ID.plan|index|latency_ok, partition.TEMPLATE.distinct|read_hot_share|write_hot_share|read_util|write_util|hot, finding.CODE.count, checklist.N.status, decision.ID.status or a signal metric (pattern.ID.rate, cost.total, ...)"},
    {"try_already_done", BASE "    try: { task: t, checks: [pattern.5.plan == query], solution: [] }\n",
     "FILE:7:29: error: step 1 (one): try: the step's own design already meets every check; expected an exercise that asks for a change"},
    {"try_solution_wrong",
     BASE
     "    try: { task: t, checks: [pattern.8.plan == outside], solution: [ { set: patterns 8 rate, to: \"30\" } ] }\n",
     "FILE:7:68: error: step 1 (one): try: the solution leaves 'pattern.8.plan == outside' false: pattern.8.plan is scan"},
    {"try_no_solution", BASE "    try: { task: t, checks: [pattern.8.plan == outside] }\n",
     "FILE:7:10: error: step 1 (one): try: 'solution' is missing; expected a list of edits that solve it"},
    {"try_bad_check", BASE "    try: { task: t, checks: [pattern.8.plan > outside], solution: [] }\n",
     "FILE:7:30: error: step 1 (one): try: check 'pattern.8.plan > outside': this subject is a word; expected == or !="},
};

static void test_malformed_tours(void **state)
{
    (void)state;
    int wrong = 0;
    for (size_t i = 0; i < sizeof bad_tours / sizeof *bad_tours; i++) {
        kp_diags dg;
        diags_init(&dg, NULL);
        tour *t = tour_load(bad_tours[i].text, strlen(bad_tours[i].text), TOUR_FILE, &dg);
        if (t) {
            tour_close(t);
            fail_msg("%s: the tour loads", bad_tours[i].name);
        }
        assert_true(dg.errors > 0);
        char *first = diags_format(&dg, 0);
        /* the expectation names the tour file FILE */
        char *want = NULL;
        const char *w = bad_tours[i].first;
        if (strncmp(w, "FILE", 4) == 0)
            want = xasprintf("%s%s", TOUR_FILE, w + 4);
        if (!want || strcmp(first, want) != 0) {
            printf("%s:\n  got  %s\n  want %s\n", bad_tours[i].name, first, want ? want : w);
            wrong++;
        }
        free(want);
        free(first);
        diags_free(&dg);
    }
    assert_int_equal(wrong, 0);
    /* the base itself loads */
    kp_diags dg;
    diags_init(&dg, NULL);
    tour *t = tour_load(BASE, strlen(BASE), TOUR_FILE, &dg);
    assert_non_null(t);
    assert_int_equal(tour_nsteps(t), 1);
    assert_string_equal(tour_name(t), "cloudshop");
    tour_close(t);
    diags_free(&dg);
}

/* The handout: "Step 1" to "Step 9", in order, with figures; bad arguments exit 2. */
static void test_print(void **state)
{
    (void)state;
    const char *args[] = {"tour", "--print", NULL};
    char *out = NULL, *err = NULL;
    int rc = ts_run_keyplan(args, NULL, &out, &err);
    if (rc != 0)
        fail_msg("tour --print exited %d: %s", rc, err);
    const char *at = out;
    for (int i = 1; i <= 9; i++) {
        char want[16];
        snprintf(want, sizeof want, "Step %d.", i);
        const char *next = strstr(at, want);
        if (!next)
            fail_msg("no '%s' after step %d", want, i - 1);
        at = next + 1;
    }
    assert_non_null(strstr(out, "Figures (computed by keyplan"));
    assert_non_null(strstr(out, "ESTADO#{status}"));
    assert_non_null(strstr(out, "course: reads 490"));
    free(out);
    free(err);

    const char *args2[] = {"tour", "--print", "--step", "3", NULL};
    assert_int_equal(ts_run_keyplan(args2, NULL, &out, &err), 0);
    assert_non_null(strstr(out, "Step 3."));
    assert_null(strstr(out, "Step 4."));
    free(out);
    free(err);

    const char *args3[] = {"tour", "--step", "4", "--yaml", NULL};
    assert_int_equal(ts_run_keyplan(args3, NULL, &out, &err), 0);
    kp_diags dg;
    diags_init(&dg, "step4.yaml");
    kp_design *d = designio_load_string(out, strlen(out), "step4.yaml", &dg);
    assert_non_null(d);
    assert_int_equal(d->nindexes, 0);
    design_free(d);
    diags_free(&dg);
    free(out);
    free(err);

    static const char *const bad[][5] = {{"tour", "--print", "--step", "10", NULL},
                                         {"tour", "--step", "x", NULL},
                                         {"tour", "--frob", NULL},
                                         {"tour", "--yaml", NULL},
                                         {"tour", "nosuch", "--print", NULL}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(ts_run_keyplan(bad[i], NULL, &out, &err), 2);
        assert_true(strlen(err) > 0);
        free(out);
        free(err);
    }
}

/* Every step of the CloudShop tour has a "try it" exercise (its solution was proved when the tour
 * loaded: it turns the checks green, the step's own design does not). */
static void test_every_step_has_an_exercise(void **state)
{
    (void)state;
    char *err = NULL;
    tour *t = tour_open(NULL, &err);
    assert_non_null(t);
    for (size_t i = 0; i < tour_nsteps(t); i++) {
        const tour_step *s = tour_step_at(t, i);
        if (!s->try_task || !s->ntry)
            fail_msg("step %zu (%s) has no exercise", i + 1, s->id);
        kp_design *d = tour_design(t, i);
        kp_analysis *a = analysis_run(d);
        bool all = true;
        for (size_t k = 0; k < s->ntry; k++)
            all &= tour_check(s->try_checks[k], a, NULL);
        assert_false(all);
        analysis_free(a);
        design_free(d);
    }
    tour_close(t);
}

/* A huge cost says why: on the first design (keyed by status) scans make most of the read units;
 * on the final design none does, and nothing is said. */
static void test_cost_why(void **state)
{
    (void)state;
    char *err = NULL;
    tour *t = tour_open(NULL, &err);
    assert_non_null(t);
    kp_design *d = tour_design(t, 0);
    kp_analysis *a = analysis_run(d);
    char *why = tour_cost_why(a);
    assert_non_null(why);
    assert_non_null(
        strstr(why, "scans (patterns 1, 2, 3, 4, 8, 9) read the whole table, 17.6M read units a call"));
    assert_non_null(strstr(why, "A key that serves a pattern makes its scan a query."));
    free(why);
    analysis_free(a);
    design_free(d);
    d = tour_design(t, tour_nsteps(t) - 1);
    a = analysis_run(d);
    assert_null(tour_cost_why(a));
    analysis_free(a);
    design_free(d);
    tour_close(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_steps_shape),
        cmocka_unit_test(test_embedded_are_the_files),
        cmocka_unit_test(test_designs),
        cmocka_unit_test(test_exercises_pass),
        cmocka_unit_test(test_check_language),
        cmocka_unit_test(test_malformed_tours),
        cmocka_unit_test(test_plans),
        cmocka_unit_test(test_first_design_hot),
        cmocka_unit_test(test_gsi1),
        cmocka_unit_test(test_cost_ladder),
        cmocka_unit_test(test_cost_ladder_sparse_by_writes),
        cmocka_unit_test(test_distribution),
        cmocka_unit_test(test_print),
        cmocka_unit_test(test_every_step_has_an_exercise),
        cmocka_unit_test(test_cost_why),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
