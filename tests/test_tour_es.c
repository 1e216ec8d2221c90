/* test_tour_es.c - the CloudShop sample and tour in Spanish (samples/cloudshop/es/): the
 * Spanish design files name everything as the course does, and their figures are the English
 * samples' figure by figure (`keyplan check --json` of both: every pattern's plan, index, read
 * and write units and latency; every partition's heat; the cost lines and totals; the checklist;
 * the findings and signals). The Spanish tour has the English tour's steps, and each step's
 * figures (its design's analysis, its rungs, the numbers of its figures) are the English step's;
 * every Spanish step plays (its checks hold on its design); the language chooses the tour. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support.h"

#include "analysis.h"
#include "i18n.h"
#include "tour.h"
#include "tour_int.h"

#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOUR_EN "samples/cloudshop/tour/tour.yaml"
#define TOUR_ES "samples/cloudshop/es/tour/tour.yaml"

/* ---- check --json of both samples --------------------------------------------------------- */

static json_t *check_json(const char *rel)
{
    char *path = ts_source_path(rel);
    const char *args[] = {"check", "--json", path, NULL};
    char *out = NULL, *err = NULL;
    int rc = ts_run_keyplan(args, NULL, &out, &err);
    /* the first design has findings: check exits 0 unless --strict */
    if (rc != 0)
        fail_msg("check --json %s exited %d: %s", rel, rc, err);
    json_error_t je;
    json_t *j = json_loads(out, 0, &je);
    if (!j)
        fail_msg("check --json %s is not JSON: %s", rel, je.text);
    free(out);
    free(err);
    free(path);
    return j;
}

/* Fails when the member `key` of a and b differ (numbers, strings, booleans: as JSON). */
static void same_member(const json_t *a, const json_t *b, const char *key, const char *what)
{
    json_t *x = json_object_get(a, key), *y = json_object_get(b, key);
    if (!json_equal(x, y)) {
        char *sx = x ? json_dumps(x, JSON_ENCODE_ANY) : NULL, *sy = y ? json_dumps(y, JSON_ENCODE_ANY) : NULL;
        fail_msg("%s: %s is %s in English and %s in Spanish", what, key, sx ? sx : "absent",
                 sy ? sy : "absent");
    }
}

/* Fails when the arrays `key` of a and b differ in length or in any of the members `fields` of
 * their elements (`what` names the sample and the kind of element in messages). */
static void same_array(const json_t *a, const json_t *b, const char *key, const char *const *fields,
                       size_t nfields, const char *sample, const char *kind)
{
    json_t *x = json_object_get(a, key), *y = json_object_get(b, key);
    if (!json_is_array(x) || json_array_size(x) != json_array_size(y))
        fail_msg("%s: %s: %zu in English, %zu in Spanish", sample, key, json_array_size(x),
                 json_array_size(y));
    for (size_t i = 0; i < json_array_size(x); i++) {
        char what[160];
        snprintf(what, sizeof what, "%s, %s %zu", sample, kind, i + 1);
        for (size_t k = 0; k < nfields; k++)
            same_member(json_array_get(x, i), json_array_get(y, i), fields[k], what);
    }
}

#define SAME_ARRAY(a, b, key, kind, ...)                                            \
    do {                                                                            \
        static const char *const fields_[] = {__VA_ARGS__};                         \
        same_array(a, b, key, fields_, sizeof fields_ / sizeof *fields_, es, kind); \
    } while (0)

static void same_sample(const char *en, const char *es)
{
    json_t *a = check_json(en), *b = check_json(es);
    assert_true(json_array_size(json_object_get(a, "patterns")) > 0);
    SAME_ARRAY(a, b, "patterns", "pattern", "id", "plan", "index", "requests", "rcu_per_s", "rcu_per_s_avg",
               "wcu_per_s", "index_wcu_per_call", "latency_ms", "latency_ok");
    SAME_ARRAY(a, b, "partitions", "partition", "index", "distinct", "hot_share", "read_hot_share",
               "write_hot_share", "read_units", "write_units", "read_util", "write_util", "bytes", "hot",
               "suggest_shards");
    SAME_ARRAY(a, b, "indexes", "index", "name", "items", "bytes", "rcu_per_s", "wcu_per_s", "wcu_per_s_avg");
    SAME_ARRAY(a, b, "checklist", "checklist item", "item", "status");
    SAME_ARRAY(a, b, "findings", "finding", "code", "severity");
    SAME_ARRAY(a, b, "signals", "signal", "decision", "signal", "value", "fired");
    /* the costs: every line (name, units, amount) and the totals of both billing modes */
    static const char *const totals[] = {"cost", "costs", "checklist_pass", "checklist_applicable",
                                         "table_hot_share"};
    for (size_t k = 0; k < sizeof totals / sizeof *totals; k++)
        same_member(a, b, totals[k], es);
    json_decref(a);
    json_decref(b);
}

static void test_samples_same_figures(void **state)
{
    (void)state;
    same_sample("samples/cloudshop/design.yaml", "samples/cloudshop/es/design.yaml");
    same_sample("samples/cloudshop/first-design.yaml", "samples/cloudshop/es/first-design.yaml");
}

/* ---- the tours ------------------------------------------------------------------------------ */

static tour *load_embedded(const char *path)
{
    const tour_file *f = tour_file_find(path);
    if (!f)
        fail_msg("%s is not built into keyplan", path);
    kp_diags dg;
    diags_init(&dg, path);
    tour *t = tour_load(f->text, f->len, path, &dg);
    if (!t) {
        char *msg = diags_format(&dg, 0);
        fail_msg("%s does not load: %s", path, msg);
    }
    diags_free(&dg);
    return t;
}

static bool same_number(double x, double y) { return (isnan(x) && isnan(y)) || x == y; }

#define SAME(x, y, what, ...)                                                                         \
    do {                                                                                              \
        if (!same_number((x), (y)))                                                                   \
            fail_msg("%s: " what " is %g in English and %g in Spanish", at, __VA_ARGS__, (double)(x), \
                     (double)(y));                                                                    \
    } while (0)

/* Fails on any difference of the figures of two analyses (`at` names the step). */
static void same_analysis(const kp_analysis *a, const kp_analysis *b, const char *at)
{
    assert_int_equal(a->npatterns, b->npatterns);
    for (size_t i = 0; i < a->npatterns; i++) {
        const kp_pattern_result *p = &a->patterns[i], *q = &b->patterns[i];
        if (strcmp(p->pattern->id, q->pattern->id) != 0 || p->plan != q->plan ||
            strcmp(p->index_name, q->index_name) != 0 || p->latency_ok != q->latency_ok)
            fail_msg("%s: pattern %s: plan, index or latency differ", at, p->pattern->id);
        SAME(p->requests, q->requests, "pattern %s's requests", p->pattern->id);
        SAME(p->rcu_per_s, q->rcu_per_s, "pattern %s's RCU", p->pattern->id);
        SAME(p->wcu_per_s, q->wcu_per_s, "pattern %s's WCU", p->pattern->id);
        SAME(p->latency_ms, q->latency_ms, "pattern %s's latency", p->pattern->id);
    }
    assert_int_equal(a->npartitions, b->npartitions);
    for (size_t i = 0; i < a->npartitions; i++) {
        const kp_partition_result *p = &a->partitions[i], *q = &b->partitions[i];
        SAME(p->distinct, q->distinct, "partition %zu's distinct values", i + 1);
        SAME(p->read_hot_share, q->read_hot_share, "partition %zu's read share", i + 1);
        SAME(p->write_hot_share, q->write_hot_share, "partition %zu's write share", i + 1);
        SAME(p->read_util, q->read_util, "partition %zu's read use", i + 1);
        SAME(p->write_util, q->write_util, "partition %zu's write use", i + 1);
        SAME(p->bytes, q->bytes, "partition %zu's bytes", i + 1);
        if (p->hot != q->hot)
            fail_msg("%s: partition %zu is hot in one language only", at, i + 1);
    }
    SAME(a->on_demand.total, b->on_demand.total, "the on-demand total%s", "");
    SAME(a->provisioned.total, b->provisioned.total, "the provisioned total%s", "");
    SAME(a->cost->total, b->cost->total, "the cost total%s", "");
    SAME((double)a->checklist_pass, (double)b->checklist_pass, "the checklist's passes%s", "");
    SAME((double)a->nfindings, (double)b->nfindings, "the findings%s", "");
}

/* The numbers of a figure text, in order ("1,244.00" gives 1 244 00). */
static char *digits_of(const char *text)
{
    size_t n = strlen(text);
    char *out = calloc(n + 2, 1);
    size_t k = 0;
    for (const char *p = text; *p; p++)
        if (isdigit((unsigned char)*p))
            out[k++] = *p;
        else if (k && out[k - 1] != ' ')
            out[k++] = ' ';
    return out;
}

static void test_steps_same_figures(void **state)
{
    (void)state;
    tour *en = load_embedded(TOUR_EN), *es = load_embedded(TOUR_ES);
    assert_string_equal(tour_name(es), "cloudshop");
    assert_int_equal(tour_nsteps(en), tour_nsteps(es));
    for (size_t i = 0; i < tour_nsteps(en); i++) {
        const tour_step *s = tour_step_at(en, i), *t = tour_step_at(es, i);
        assert_string_equal(s->id, t->id);
        assert_int_equal(s->nchecks, t->nchecks);
        assert_int_equal(s->ntry, t->ntry);
        assert_int_equal(s->nrungs, t->nrungs);
        assert_int_equal(s->nmarks, t->nmarks);
        kp_design *da = tour_design(en, i), *db = tour_design(es, i);
        kp_analysis *a = analysis_run(da), *b = analysis_run(db);
        same_analysis(a, b, s->id);
        for (size_t r = 0; r < s->nrungs; r++) {
            kp_design *ra = tour_rung_design(en, i, r), *rb = tour_rung_design(es, i, r);
            kp_analysis *x = analysis_run(ra), *y = analysis_run(rb);
            char at[64];
            snprintf(at, sizeof at, "%s, rung %zu", s->id, r + 1);
            same_analysis(x, y, at);
            SAME(s->rungs[r].course_total, t->rungs[r].course_total, "rung %zu's course total", r + 1);
            analysis_free(x);
            analysis_free(y);
            design_free(ra);
            design_free(rb);
        }
        char *fa = tour_figures(en, i, a), *fb = tour_figures(es, i, b);
        char *na = digits_of(fa), *nb = digits_of(fb);
        if (strcmp(na, nb) != 0)
            fail_msg("step %s: the figures' numbers differ:\n%s\n%s\nEnglish:\n%s\nSpanish:\n%s", s->id, na,
                     nb, fa, fb);
        free(na);
        free(nb);
        free(fa);
        free(fb);
        analysis_free(a);
        analysis_free(b);
        design_free(da);
        design_free(db);
    }
    tour_close(en);
    tour_close(es);
}

/* Every Spanish step plays: its own checks hold on its design; its exercise is not done yet. */
static void test_every_step_plays(void **state)
{
    (void)state;
    tour *es = load_embedded(TOUR_ES);
    for (size_t i = 0; i < tour_nsteps(es); i++) {
        const tour_step *s = tour_step_at(es, i);
        kp_design *d = tour_design(es, i);
        kp_analysis *a = analysis_run(d);
        char *bad = tour_exercise(es, i, a);
        if (bad)
            fail_msg("step %s: %s", s->id, bad);
        assert_non_null(s->try_task);
        bool done = true;
        for (size_t k = 0; k < s->ntry; k++)
            done = done && tour_check(s->try_checks[k], a, NULL);
        assert_false(done);
        analysis_free(a);
        design_free(d);
    }
    char *print = tour_print(es, 80);
    assert_non_null(strstr(print, "Nueve patrones de acceso, antes de nada"));
    assert_non_null(strstr(print, "El registro de decisiones"));
    free(print);
    tour_close(es);
}

/* The reader's language chooses the tour: Spanish with `es`, English with `en`; the name is the
 * same. */
static void test_language_chooses(void **state)
{
    (void)state;
    const char *err = NULL;
    static const struct {
        const char *lang, *title;
    } rows[] = {
        {"es", "CloudShop: diseñar DynamoDB desde los patrones de acceso (recorrido de keyplan)"},
        {"en", "CloudShop: designing DynamoDB from the access patterns (keyplan tour)"},
    };
    for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
        if (!i18n_init(rows[r].lang, &err))
            fail_msg("i18n_init(%s): %s", rows[r].lang, err);
        char *msg = NULL;
        tour *t = tour_open(NULL, &msg);
        if (!t)
            fail_msg("%s: %s", rows[r].lang, msg);
        assert_string_equal(tour_title(t), rows[r].title);
        assert_string_equal(tour_name(t), "cloudshop");
        assert_true(tour_exists(NULL));
        tour_close(t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_samples_same_figures),
        cmocka_unit_test(test_steps_same_figures),
        cmocka_unit_test(test_every_step_plays),
        cmocka_unit_test(test_language_chooses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
