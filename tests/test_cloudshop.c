/* test_cloudshop.c - the samples against the course ("Ejemplo trabajado"):
 * samples/cloudshop/design.yaml (the final single-table model), first-design.yaml (keyed by
 * status) and the other samples load, validate and analyse as the course tells. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support.h"

#include "analysis.h"
#include "design_io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static kp_design *load_sample(const char *rel)
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
    fail_msg("no pattern %s", id);
    return NULL;
}

static bool has_finding(const kp_analysis *a, const char *code)
{
    for (size_t i = 0; i < a->nfindings; i++)
        if (strcmp(a->findings[i].code, code) == 0)
            return true;
    return false;
}

static const kp_decision *decision_of(const kp_design *d, const char *id)
{
    for (size_t i = 0; i < d->ndecisions; i++)
        if (strcmp(d->decisions[i].id, id) == 0)
            return &d->decisions[i];
    fail_msg("no decision %s", id);
    return NULL;
}

/* ---- the final model ------------------------------------------------------------------- */

/* The course's patterns: rate (per second) and latency target (ms). */
static const struct {
    const char *id;
    double rate, latency;
    kp_plan plan;
    const char *index;
    double requests;
} course[] = {
    {"1", 400, 20, KP_PLAN_GET, "table", 1},
    {"2", 180, 50, KP_PLAN_QUERY, "table", 1},
    {"3", 20, 50, KP_PLAN_QUERY, "table", 1},
    {"4", 400, 20, KP_PLAN_QUERY, "table", 1},
    {"5", 2, 1000, KP_PLAN_QUERY, "GSI1", 1},
    {"6", 400, 20, KP_PLAN_COVERED, NULL, 0},
    /* the close reads GSI2, keys only, and returns whole orders: D4's "the close fetches the order
     * headers it needs by key". Two rules make its requests:
     * - a Query returns at most 1 MB per request: the day's 68,493 keys-only GSI2 entries are
     *   4.1 MB, so the Query takes 5 requests, one per page (the course counts the query, not its
     *   pages);
     * - a GSI returns only what it projects: the Query is followed by BatchGetItem of the day's
     *   orders from the table, 100 a request (685).
     * 5 + 685 requests, several of them: a multi plan */
    {"7", 1.0 / 86400, 300000, KP_PLAN_MULTI, "GSI2", 5 + 685},
    {"8", 15, 1000, KP_PLAN_OUTSIDE, NULL, 0},
    {"9", NAN, NAN, KP_PLAN_OUTSIDE, NULL, 0},
    {"10", NAN, NAN, KP_PLAN_QUERY, "table", 1}, /* the customer screen: one query */
};

static void test_final_patterns(void **state)
{
    (void)state;
    kp_design *d = load_sample("samples/cloudshop/design.yaml");
    kp_analysis *a = analysis_run(d);
    for (size_t i = 0; i < sizeof course / sizeof *course; i++) {
        const kp_pattern *p = design_pattern(d, course[i].id);
        assert_non_null(p);
        if (!isnan(course[i].rate) && fabs(p->rate - course[i].rate) > course[i].rate * 0.01)
            fail_msg("pattern %s: rate %g, the course says %g", p->id, p->rate, course[i].rate);
        if (!isnan(course[i].latency))
            assert_true(fabs(p->latency - course[i].latency) < 1e-9);
        const kp_pattern_result *r = result_of(a, course[i].id);
        if (r->plan != course[i].plan || fabs(r->requests - course[i].requests) > 1e-9 ||
            (course[i].index && strcmp(r->index_name, course[i].index) != 0))
            fail_msg("pattern %s: %s x%g on %s, expected %s on %s", p->id, kp_plan_word(r->plan), r->requests,
                     r->index_name ? r->index_name : "-", kp_plan_word(course[i].plan),
                     course[i].index ? course[i].index : "-");
        if (r->plan == KP_PLAN_GET || r->plan == KP_PLAN_QUERY)
            assert_true(r->latency_ok);
    }
    /* the screen asks for three kinds of item and gets them from one partition */
    const kp_pattern *screen = design_pattern(d, "10");
    assert_int_equal(screen->nentities, 3);
    /* the course's key literals */
    static const struct {
        const char *entity, *attr, *tpl;
    } keys[] = {
        {"Customer", "PK", "CLIENTE#{customerId}"}, {"Customer", "SK", "PERFIL"},
        {"Address", "SK", "DIRECCION#{tipo}"},      {"OrderSummary", "SK", "PEDIDO#{orderDate}#{orderId}"},
        {"Order", "PK", "PEDIDO#{orderId}"},        {"Order", "SK", "CABECERA"},
        {"Order", "GSI1PK", "ESTADO#{status}"},     {"Order", "GSI2PK", "FECHA#{orderDate}"},
        {"OrderLine", "SK", "LINEA#{lineNo}"},
    };
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        const kp_entity *e = design_entity(d, keys[i].entity);
        assert_non_null(e);
        const kp_keytpl *k = entity_key(e, keys[i].attr);
        assert_non_null(k);
        assert_string_equal(k->tpl.src, keys[i].tpl);
    }
    assert_string_equal(design_attr(d, "lineNo")->format, "03");
    analysis_free(a);
    design_free(d);
}

static void test_final_distributions(void **state)
{
    (void)state;
    kp_design *d = load_sample("samples/cloudshop/design.yaml");
    const kp_attr *st = design_attr(d, "status");
    assert_int_equal(st->type, KP_ATTR_ENUM);
    assert_int_equal(st->nvalues, 6);
    double sum = 0, delivered = 0, pp_write = 0;
    for (size_t i = 0; i < st->nvalues; i++) {
        sum += st->values[i].share;
        if (strcmp(st->values[i].name, "delivered") == 0)
            delivered = st->values[i].share;
        if (strcmp(st->values[i].name, "pending-payment") == 0)
            pp_write = st->values[i].write_share;
    }
    assert_true(fabs(sum - 1) < 1e-9);
    assert_true(fabs(delivered - 0.71) < 1e-9);
    /* every new order enters pending payment: it takes the largest share of the writes */
    for (size_t i = 0; i < st->nvalues; i++)
        assert_true(st->values[i].write_share <= pp_write);
    kp_analysis *a = analysis_run(d);
    /* GSI-1 is sparse and small: its reopening signal is quiet, and near */
    double items = NAN;
    assert_true(analysis_metric(a, "index.GSI1.items", &items));
    assert_true(items > 10000 && items <= 100000);
    assert_false(a->partitions[0].hot);
    for (size_t i = 0; i < a->npartitions; i++)
        assert_false(a->partitions[i].hot);
    analysis_free(a);
    design_free(d);
}

static void test_final_decisions(void **state)
{
    (void)state;
    kp_design *d = load_sample("samples/cloudshop/design.yaml");
    /* GSI-1 sparse with its two reopening signals */
    const kp_decision *d3 = decision_of(d, "D3");
    assert_int_equal(d3->nsignals, 2);
    assert_string_equal(d3->signals[0].metric, "pattern.5.rate");
    assert_true(d3->signals[0].cmp == KP_CMP_GT && fabs(d3->signals[0].value - 50) < 1e-9);
    assert_string_equal(d3->signals[1].metric, "index.GSI1.items");
    assert_true(fabs(d3->signals[1].value - 100000) < 1e-9);
    /* the four refused indexes are discarded alternatives */
    assert_int_equal(decision_of(d, "D4")->nalternatives, 4);
    assert_true(d->table.streams == KP_TRUE && d->table.pitr == KP_TRUE);
    assert_true(d->pricing.given);
    assert_string_equal(d->pricing.currency, "EUR");
    assert_true(fabs(d->pricing.read_per_million - 0.50) < 1e-9);
    assert_true(fabs(d->pricing.write_per_million - 5.00) < 1e-9);
    const kp_entity *o = design_entity(d, "Order");
    const kp_sparse *sp = entity_sparse(o, "GSI1PK");
    assert_non_null(sp);
    assert_int_equal(sp->kind, KP_SPARSE_COND);
    const kp_index *g2 = design_index(d, "GSI2");
    assert_int_equal(g2->projection, KP_PROJ_KEYS);
    /* alerts: throttling for 1 minute and hot key */
    bool throttle = false, hot = false;
    for (size_t i = 0; i < d->nalerts; i++) {
        throttle |= strstr(d->alerts[i].metric, "Throttle") && strstr(d->alerts[i].when, "1 minute");
        hot |= strstr(d->alerts[i].name, "hot") != NULL;
    }
    assert_true(throttle && hot);
    kp_analysis *a = analysis_run(d);
    /* no signal fires on the design's own figures */
    for (size_t i = 0; i < d->ndecisions; i++)
        for (size_t k = 0; k < d->decisions[i].nsignals; k++) {
            const kp_signal *s = &d->decisions[i].signals[k];
            double v = NAN;
            if (analysis_metric(a, s->metric, &v) && s->cmp == KP_CMP_GT && v > s->value)
                fail_msg("signal %s fired: %g", s->src, v);
        }
    /* the checklist items the course's final model must pass */
    static const int must_pass[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    for (size_t i = 0; i < sizeof must_pass / sizeof *must_pass; i++) {
        const kp_check_item *c = &a->checklist[must_pass[i] - 1];
        if (c->status != KP_CHECK_PASS)
            fail_msg("checklist %d: %s (%s)", c->item, kp_check_status_name(c->status), c->why ? c->why : "");
    }
    /* GSI-1's single pending key is accepted by D3 (a note at most); the table itself spreads */
    for (size_t i = 0; i < a->nfindings; i++) {
        const kp_finding *f = &a->findings[i];
        if (f->sev == KP_SEV_ERROR || strcmp(f->code, "hot-partition") == 0 ||
            (strcmp(f->code, "low-cardinality-pk") == 0 && strstr(f->where, "table")))
            fail_msg("final design: %s on %s: %s", f->code, f->where, f->message);
    }
    analysis_free(a);
    design_free(d);
}

/* ---- the first design -------------------------------------------------------------------- */

static void test_first_design(void **state)
{
    (void)state;
    kp_design *d = load_sample("samples/cloudshop/first-design.yaml");
    kp_analysis *a = analysis_run(d);
    /* pattern 1, the most frequent, becomes a scan far over its 20 ms */
    const kp_pattern_result *r = result_of(a, "1");
    assert_int_equal(r->plan, KP_PLAN_SCAN);
    assert_false(r->latency_ok);
    assert_true(r->latency_ms > 20 * 10);
    /* the warehouse panel is served: it is why the key was chosen */
    assert_int_equal(result_of(a, "5")->plan, KP_PLAN_QUERY);
    /* two status partitions take almost all the writes; the hottest passes its limit */
    const kp_partition_result *hot = NULL;
    for (size_t i = 0; i < a->npartitions; i++)
        if (strcmp(a->partitions[i].template_src, "ESTADO#{status}") == 0)
            hot = &a->partitions[i];
    assert_non_null(hot);
    assert_true(hot->hot);
    /* The course: throughput errors at about 900 writes/s (540 new orders and 360 status changes
     * a second). The status is in the table's partition key (ESTADO#{status}) and DynamoDB cannot
     * update a key attribute: each status change is a Delete of the old item and a Put of the new
     * one, in a transaction (2 x 2 units of a 1,200 B item, twice a plain update's, doubled by the
     * transaction). The hottest partition takes 60 % of 3,960 units/s: about 2.4 times its limit
     * where a plain update would have given 1.1 */
    assert_true(hot->write_util >= 2.0 && hot->write_util < 3.0);
    const kp_attr *st = design_attr(d, "status");
    double w[6] = {0};
    for (size_t i = 0; i < st->nvalues && i < 6; i++)
        w[i] = st->values[i].write_share;
    for (size_t i = 0; i < 6; i++) /* sort descending */
        for (size_t k = i + 1; k < 6; k++)
            if (w[k] > w[i]) {
                double t = w[i];
                w[i] = w[k], w[k] = t;
            }
    assert_true(fabs(w[0] + w[1] - 0.94) < 0.005);
    /* peak writes of the table near 900/s, the table mostly idle */
    double writes = 0;
    for (size_t i = 0; i < d->npatterns; i++)
        if (d->patterns[i].kind == KP_WRITE)
            writes += d->patterns[i].rate;
    assert_true(fabs(writes - 900) < 1);
    assert_true(has_finding(a, "low-cardinality-pk"));
    assert_true(has_finding(a, "hot-partition"));
    analysis_free(a);
    design_free(d);
}

/* ---- every sample -------------------------------------------------------------------------- */

static void test_all_samples(void **state)
{
    (void)state;
    static const char *const samples[] = {"samples/cloudshop/design.yaml",
                                          "samples/cloudshop/first-design.yaml", "samples/social/design.yaml",
                                          "samples/iot/design.yaml"};
    for (size_t i = 0; i < sizeof samples / sizeof *samples; i++) {
        kp_design *d = load_sample(samples[i]);
        kp_analysis *a = analysis_run(d);
        assert_int_equal(a->npatterns, d->npatterns);
        for (size_t k = 0; k < a->npatterns; k++)
            if (a->patterns[k].plan == KP_PLAN_INVALID)
                fail_msg("%s: pattern %s is invalid", samples[i], a->patterns[k].pattern->id);
        assert_true(isfinite(a->cost->total) && a->cost->total > 0);
        analysis_free(a);
        design_free(d);
    }
}

static void test_social_and_iot(void **state)
{
    (void)state;
    kp_design *d = load_sample("samples/social/design.yaml");
    kp_analysis *a = analysis_run(d);
    bool join = false;
    for (size_t i = 0; i < d->npatterns; i++)
        if (d->patterns[i].njoin > 0) {
            join = true;
            /* a chain: the follows, then the profiles */
            assert_int_equal(a->patterns[i].plan, KP_PLAN_MULTI);
            assert_true(a->patterns[i].requests >= 2);
        }
    assert_true(join);
    analysis_free(a);
    design_free(d);

    d = load_sample("samples/iot/design.yaml");
    a = analysis_run(d);
    bool sharded = false;
    for (size_t i = 0; i < d->nattrs; i++)
        if (d->attrs[i].type == KP_ATTR_SHARD)
            sharded = true;
    assert_true(sharded);
    bool fanout = false, hot = false;
    for (size_t i = 0; i < a->npatterns; i++)
        if (a->patterns[i].plan == KP_PLAN_MULTI && a->patterns[i].requests >= 2)
            fanout = true;
    for (size_t i = 0; i < a->npartitions; i++)
        hot |= a->partitions[i].hot;
    assert_true(fanout); /* reading a sharded day fans out over the shards */
    assert_false(hot);   /* and the writes stay under the partition limit */
    analysis_free(a);
    design_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_final_patterns),  cmocka_unit_test(test_final_distributions),
        cmocka_unit_test(test_final_decisions), cmocka_unit_test(test_first_design),
        cmocka_unit_test(test_all_samples),     cmocka_unit_test(test_social_and_iot),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
