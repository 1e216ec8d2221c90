/* test_salvage.c - one broken place no longer freezes the model: the valid rest of a design is
 * analysed and what was left out is named by its cell. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis.h"
#include "fields.h"
#include "salvage.h"
#include "support.h"
#include "validate.h"

#include <stdlib.h>
#include <string.h>

static kp_design *cloudshop(void)
{
    kp_design *d = ts_load_file("samples/cloudshop/design.yaml");
    assert_non_null(d);
    return d;
}

static size_t row_of(const kp_design *d, edit_table t, const char *name)
{
    size_t r = ts_row_named(d, t, name);
    if (r == (size_t)-1)
        fail_msg("no row %s", name);
    return r;
}

static const kp_pattern_result *result_of(const kp_analysis *a, const char *id)
{
    for (size_t i = 0; i < a->npatterns; i++)
        if (a->patterns[i].pattern && strcmp(a->patterns[i].pattern->id, id) == 0)
            return &a->patterns[i];
    fail_msg("no pattern %s", id);
    return NULL;
}

static const salvage_drop *find_drop(const salvage_drops *s, edit_table t, size_t row, const char *col)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i].table == t && s->v[i].row == row &&
            (col ? s->v[i].col && strcmp(s->v[i].col, col) == 0 : !s->v[i].col))
            return &s->v[i];
    return NULL;
}

/* A valid design comes back whole. */
static void test_valid_whole(void **state)
{
    (void)state;
    kp_design *d = cloudshop();
    salvage_drops s = {0};
    kp_design *r = validate_salvage(d, &s);
    assert_non_null(r);
    assert_int_equal(s.n, 0);
    assert_true(design_equal(d, r));
    design_free(r);
    design_free(d);
}

/* "What if": deleting GSI1 leaves its templates on Order and D3's signal on it; the valid rest
 * drops both, and pattern 5 (served by GSI1) falls to a scan. */
static void test_index_removed_what_if(void **state)
{
    (void)state;
    kp_design *d = cloudshop();
    assert_true(edit_delete(d, EDIT_INDEXES, row_of(d, EDIT_INDEXES, "GSI1")));
    kp_diags dg;
    diags_init(&dg, NULL);
    assert_false(validate_design(d, &dg)); /* the working copy is broken */
    diags_free(&dg);
    salvage_drops s = {0};
    kp_design *r = validate_salvage(d, &s);
    assert_non_null(r);
    size_t order = row_of(d, EDIT_KEYS, "Order");
    assert_non_null(find_drop(&s, EDIT_KEYS, order, "GSI1PK"));
    assert_non_null(find_drop(&s, EDIT_KEYS, order, "GSI1SK"));
    const salvage_drop *sig = find_drop(&s, EDIT_DECISIONS, row_of(d, EDIT_DECISIONS, "D3"), "signals");
    assert_non_null(sig);
    assert_non_null(strstr(sig->msg, "GSI1"));
    /* D3 stays, with its other signal */
    assert_int_equal(r->ndecisions, d->ndecisions);
    kp_analysis *a = analysis_run(r);
    assert_int_equal(result_of(a, "5")->plan, KP_PLAN_SCAN);
    assert_int_equal(result_of(a, "2")->plan, KP_PLAN_QUERY); /* the rest as before */
    analysis_free(a);
    design_free(r);
    salvage_drops_free(&s);
    design_free(d);
}

/* A pattern that asks by an attribute no entity has is left out; the others are analysed. */
static void test_broken_pattern_left_out(void **state)
{
    (void)state;
    kp_design *d = cloudshop();
    size_t p = row_of(d, EDIT_PATTERNS, "3");
    char *err = NULL;
    assert_int_equal(
        edit_set(d, EDIT_PATTERNS, p, (size_t)edit_col_find(d, EDIT_PATTERNS, "by"), "nosuchAttr", &err),
        KP_OK);
    salvage_drops s = {0};
    kp_design *r = validate_salvage(d, &s);
    assert_non_null(r);
    assert_non_null(find_drop(&s, EDIT_PATTERNS, p, NULL));
    assert_int_equal(r->npatterns, d->npatterns - 1);
    kp_analysis *a = analysis_run(r);
    assert_int_equal(result_of(a, "1")->plan, KP_PLAN_GET);
    analysis_free(a);
    design_free(r);
    salvage_drops_free(&s);
    design_free(d);
}

/* A broken table leaves no valid rest. */
static void test_no_rest(void **state)
{
    (void)state;
    kp_design *d = cloudshop();
    free(d->table.pk.s);
    d->table.pk.s = NULL;
    salvage_drops s = {0};
    assert_null(validate_salvage(d, &s));
    salvage_drops_free(&s);
    design_free(d);
}

/* Past the patterns tried one by one, a design with a broken pattern has no valid rest and
 * nothing is left out: salvage_hopeless says so without trying, and validate_salvage agrees;
 * with a key template to leave out (an index deleted), or under the limit, it does not say so. */
static void test_hopeless_past_trials(void **state)
{
    (void)state;
    kp_design *d = cloudshop();
    while (d->npatterns <= 2000) /* copies of the last pattern (a write: no covered_by, fresh ids) */
        edit_duplicate(d, EDIT_PATTERNS, d->npatterns - 1);
    assert_int_equal(edit_add(d, EDIT_PATTERNS, 5), 5); /* names no entity: an error of its own */
    kp_diags dg;
    diags_init(&dg, NULL);
    assert_false(validate_design(d, &dg));
    diags_free(&dg);
    assert_true(salvage_hopeless(d));
    salvage_drops s = {0};
    assert_null(validate_salvage(d, &s));
    assert_int_equal(s.n, 0);
    salvage_drops_free(&s);
    /* an index deleted: its templates on the entities could be left out */
    kp_design *x = design_clone(d);
    assert_true(edit_delete(x, EDIT_INDEXES, row_of(x, EDIT_INDEXES, "GSI1")));
    assert_false(salvage_hopeless(x));
    design_free(x);
    /* few enough patterns to be tried: not known */
    kp_design *small = cloudshop();
    edit_add(small, EDIT_PATTERNS, 0);
    assert_false(salvage_hopeless(small));
    design_free(small);
    design_free(d);
}

/* An error of the model itself (a new entity without its keys' templates, two attributes of one
 * name, two indexes of one name), with or without a broken pattern beside it: no valid rest, as
 * salvage_model_broken says without trying; an index deleted leaves templates to drop, so it does
 * not say so. */
static void test_model_broken(void **state)
{
    (void)state;
    for (int kind = 0; kind < 3; kind++)
        for (int with_pattern = 0; with_pattern < 2; with_pattern++) {
            kp_design *d = cloudshop();
            if (kind == 0) {
                assert_true(edit_add(d, EDIT_ENTITIES, 2) == 2); /* no template for PK nor SK */
            } else if (kind == 1) {
                free(d->attrs[1].name); /* two attributes of one name */
                d->attrs[1].name = xstrdup(d->attrs[0].name);
            } else {
                free(d->indexes[1].name); /* two indexes of one name */
                d->indexes[1].name = xstrdup(d->indexes[0].name);
            }
            if (with_pattern)
                edit_add(d, EDIT_PATTERNS, 0);
            kp_diags dg;
            diags_init(&dg, NULL);
            validate_memo m = {0};
            if (validate_design_memo(d, &dg, &m))
                fail_msg("kind %d validates", kind);
            bool model = false;
            for (size_t k = 0; k < dg.n; k++)
                model = model || (dg.v[k].sev == KP_SEV_ERROR && k < m.at[0]);
            if (!model)
                fail_msg("kind %d: no error before the patterns'", kind);
            diags_free(&dg);
            validate_memo_free(&m);
            assert_true(salvage_model_broken(d));
            salvage_drops s = {0};
            assert_null(validate_salvage(d, &s));
            salvage_drops_free(&s);
            design_free(d);
        }
    kp_design *x = cloudshop();
    assert_true(edit_delete(x, EDIT_INDEXES, row_of(x, EDIT_INDEXES, "GSI1")));
    assert_false(salvage_model_broken(x));
    salvage_drops s = {0};
    kp_design *rest = validate_salvage(x, &s);
    assert_non_null(rest);
    design_free(rest);
    salvage_drops_free(&s);
    design_free(x);
}

/* The model alone (no pattern, no decision) does not validate when an index's name is one
 * DynamoDB refuses (a check after the patterns', which no pattern's removal changes): no valid
 * rest, and no pattern is tried for one, a broken pattern among them or not; a sample's model
 * alone validates (no check asks for a pattern). */
static void test_model_alone_broken(void **state)
{
    (void)state;
    for (int with_pattern = 0; with_pattern < 2; with_pattern++) {
        kp_design *d = cloudshop();
        free(d->indexes[0].name);
        d->indexes[0].name = xstrdup("GSI1é");
        if (with_pattern)
            edit_add(d, EDIT_PATTERNS, 0); /* names no entity */
        salvage_drops s = {0};
        assert_null(validate_salvage(d, &s));
        assert_int_equal(s.n, 0); /* nothing tried in vain */
        salvage_drops_free(&s);
        /* its name put back, the broken pattern is what is left out */
        free(d->indexes[0].name);
        d->indexes[0].name = xstrdup("GSI1");
        kp_design *rest = validate_salvage(d, &s);
        assert_non_null(rest);
        assert_int_equal(s.n, (size_t)with_pattern);
        assert_int_equal(rest->npatterns, d->npatterns - (size_t)with_pattern);
        design_free(rest);
        salvage_drops_free(&s);
        design_free(d);
    }
    kp_design *e = cloudshop();
    for (size_t i = 0; i < e->npatterns; i++)
        pattern_free(&e->patterns[i]);
    e->npatterns = 0;
    for (size_t i = 0; i < e->ndecisions; i++)
        fields_free(&kp_rec_decision, &e->decisions[i]);
    e->ndecisions = 0;
    kp_diags dg;
    diags_init(&dg, NULL);
    assert_true(validate_design(e, &dg));
    diags_free(&dg);
    design_free(e);
}

/* A broken pattern inserted anywhere into CloudShop (decisions, signals, a covered_by): what
 * salvage_inserted says is what validate_salvage finds, the rest being CloudShop itself; a new
 * pattern that validates on its own is not answered. */
static void test_inserted_as_whole(void **state)
{
    (void)state;
    kp_design *base = cloudshop();
    size_t n = base->npatterns;
    for (size_t row = 0; row <= n; row++) {
        for (int kind = 0; kind < 2; kind++) {
            kp_design *d = design_clone(base);
            assert_int_equal(edit_add(d, EDIT_PATTERNS, row), row);
            if (kind) { /* covered by pattern 2, and still naming no entity */
                d->patterns[row].covered_by = str_make("2", (kp_loc){0, 0});
            }
            salvage_drops fast = {0}, whole = {0};
            assert_true(salvage_inserted(d, row, &fast));
            kp_design *rest = validate_salvage(d, &whole);
            assert_non_null(rest);
            assert_true(design_equal(rest, base));
            assert_int_equal(fast.n, 1);
            assert_int_equal(whole.n, 1);
            assert_int_equal(fast.v[0].table, whole.v[0].table);
            assert_int_equal(fast.v[0].row, whole.v[0].row);
            assert_null(whole.v[0].col);
            assert_null(fast.v[0].col);
            assert_string_equal(fast.v[0].msg, whole.v[0].msg);
            salvage_drops_free(&fast);
            salvage_drops_free(&whole);
            design_free(rest);
            design_free(d);
        }
    }
    /* a copy of a valid pattern (fresh id) validates on its own: not answered */
    kp_design *d = design_clone(base);
    size_t at = edit_duplicate(d, EDIT_PATTERNS, 0);
    salvage_drops none = {0};
    assert_false(salvage_inserted(d, at, &none));
    assert_int_equal(none.n, 0);
    design_free(d);
    design_free(base);
}

/* How many drops of table t (col NULL: whole rows; else any column) s holds for row `row`. */
static size_t drops_of(const salvage_drops *s, edit_table t, size_t row, bool whole)
{
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++)
        n += s->v[i].table == t && s->v[i].row == row && (whole ? !s->v[i].col : s->v[i].col != NULL);
    return n;
}

static bool valid_whole(const kp_design *d)
{
    kp_diags dg;
    diags_init(&dg, NULL);
    bool ok = validate_design(d, &dg);
    diags_free(&dg);
    return ok;
}

/* The valid rest of designs broken at random (cells of every table set to other rows' values, to
 * names the design lacks and to nonsense, indexes and patterns deleted, on the three samples):
 * whenever one comes back it validates whole and is the design less what the drops name (the
 * patterns and decisions they name left out, the others in their order and unchanged but for
 * the decisions' signals named); a design that validates comes back whole with no drop; and a
 * decision left out fails a whole validation when put back alone on the rest (without signals). */
/* salvage_orphans_find of d beside validate_salvage's rest and drops: found exactly when that
 * rest left out templates and no pattern (then made on a copy of d, it is that rest, with those
 * drops in that order); *found counts them. */
static void orphans_as_whole(const kp_design *d, const kp_design *rest, const salvage_drops *s, size_t *found)
{
    bool keys = false, patterns = false;
    for (size_t i = 0; i < s->n; i++) {
        keys = keys || s->v[i].table == EDIT_KEYS;
        patterns = patterns || s->v[i].table == EDIT_PATTERNS;
    }
    salvage_orphans *o = salvage_orphans_find(d);
    assert_int_equal(o != NULL, rest && keys && !patterns);
    if (!o)
        return;
    (*found)++;
    kp_design *c = design_clone(d);
    salvage_drops mine = {0};
    salvage_orphans_make(o, c, &mine);
    assert_true(design_equal(c, rest));
    assert_int_equal(mine.n, s->n);
    for (size_t i = 0; i < s->n; i++) {
        assert_int_equal(mine.v[i].table, s->v[i].table);
        assert_int_equal(mine.v[i].row, s->v[i].row);
        assert_string_equal(mine.v[i].col ? mine.v[i].col : "-", s->v[i].col ? s->v[i].col : "-");
        assert_string_equal(mine.v[i].msg, s->v[i].msg);
    }
    salvage_drops_free(&mine);
    design_free(c);
}

static void test_rest_at_random(void **state)
{
    (void)state;
    static const char *const files[] = {"samples/cloudshop/design.yaml", "samples/iot/design.yaml",
                                        "samples/social/design.yaml"};
    static const char *const words[] = {
        "GSI9",           "nosuch",   "Order", "pattern.1.rate > 5", "index.GSI1.rcu > 10", "1", "-1", "",
        "DIRECCIÓN#casa", "{nosuch}", "línea", "orderId=open"};
    static const edit_table tables[] = {EDIT_PATTERNS, EDIT_PATTERNS, EDIT_DECISIONS, EDIT_DECISIONS,
                                        EDIT_INDEXES,  EDIT_KEYS,     EDIT_ENTITIES,  EDIT_ATTRS};
    unsigned seed = 41;
    size_t rests = 0, none = 0, whole = 0, dropped[EDIT__TABLES] = {0}, orphans = 0;
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        kp_design *d = ts_load_file(files[f]);
        assert_non_null(d);
        for (size_t i = 0; i < d->nindexes; i++) { /* each index deleted */
            kp_design *c = design_clone(d);
            edit_delete(c, EDIT_INDEXES, i);
            salvage_drops s = {0};
            kp_design *rest = validate_salvage(c, &s);
            orphans_as_whole(c, rest, &s, &orphans);
            salvage_drops_free(&s);
            design_free(rest);
            design_free(c);
        }
        for (int step = 0; step < 150; step++) {
            seed = seed * 1103515245u + 12345u;
            unsigned r = seed >> 8;
            edit_table t = tables[r % 8];
            size_t nr = edit_nrows(d, t), nc = edit_ncols(d, t);
            if (step % 30 == 29) { /* broken for long enough: the sample again */
                design_free(d);
                d = ts_load_file(files[f]);
            } else if (nr && r % 13 == 0 && t != EDIT_KEYS && t != EDIT_ATTRS) {
                edit_delete(d, t, (r / 8) % nr);
            } else if (nr && nc) {
                size_t row = (r / 8) % nr, col = (r / 256) % nc;
                char *text = (r / 4096) % 3 == 0
                                 ? edit_get(d, t, (r / 16) % nr, col)
                                 : xstrdup(words[(r / 16384) % (sizeof words / sizeof *words)]);
                edit_set(d, t, row, col, text, NULL);
                free(text);
            }
            salvage_drops s = {0};
            kp_design *rest = validate_salvage(d, &s);
            orphans_as_whole(d, rest, &s, &orphans);
            if (valid_whole(d)) {
                assert_non_null(rest);
                assert_int_equal(s.n, 0);
                assert_true(design_equal(rest, d));
                whole++;
            }
            if (!rest) {
                none++;
                salvage_drops_free(&s);
                continue;
            }
            rests++;
            if (!valid_whole(rest))
                fail_msg("%s, step %d: the rest does not validate", files[f], step);
            size_t k = 0;
            for (size_t i = 0; i < d->npatterns; i++) {
                if (drops_of(&s, EDIT_PATTERNS, i, true)) {
                    dropped[EDIT_PATTERNS]++;
                    continue;
                }
                assert_true(k < rest->npatterns);
                assert_true(fields_equal(&kp_rec_pattern, &d->patterns[i], &rest->patterns[k++]));
            }
            assert_int_equal(k, rest->npatterns);
            k = 0;
            for (size_t i = 0; i < d->ndecisions; i++) {
                const kp_decision *x = &d->decisions[i];
                if (drops_of(&s, EDIT_DECISIONS, i, true)) {
                    dropped[EDIT_DECISIONS]++;
                    kp_design *back = design_clone(rest);
                    kp_decision one = *x;
                    one.signals = NULL;
                    one.nsignals = 0;
                    back->decisions =
                        xrealloc(back->decisions, (back->ndecisions + 1) * sizeof *back->decisions);
                    back->decisions[back->ndecisions] = one;
                    fields_clone(&kp_rec_decision, &back->decisions[back->ndecisions++], &one);
                    if (valid_whole(back))
                        fail_msg("%s, step %d: decision %zu left out validates put back", files[f], step, i);
                    design_free(back);
                    continue;
                }
                assert_true(k < rest->ndecisions);
                const kp_decision *y = &rest->decisions[k++];
                assert_string_equal(x->id ? x->id : "", y->id ? y->id : "");
                assert_int_equal(y->nsignals + drops_of(&s, EDIT_DECISIONS, i, false), x->nsignals);
                dropped[EDIT_DECISIONS] += drops_of(&s, EDIT_DECISIONS, i, false);
            }
            assert_int_equal(k, rest->ndecisions);
            for (size_t i = 0; i < s.n; i++)
                dropped[EDIT_KEYS] += s.v[i].table == EDIT_KEYS;
            salvage_drops_free(&s);
            design_free(rest);
        }
        design_free(d);
    }
    if (rests < 100 || none < 10 || whole < 20 || !dropped[EDIT_PATTERNS] || !dropped[EDIT_DECISIONS] ||
        !dropped[EDIT_KEYS] || orphans < 8)
        fail_msg(
            "rests %zu, none %zu, whole %zu; dropped patterns %zu, decisions %zu, templates %zu; orphans' "
            "rests %zu",
            rests, none, whole, dropped[EDIT_PATTERNS], dropped[EDIT_DECISIONS], dropped[EDIT_KEYS], orphans);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_whole),
        cmocka_unit_test(test_hopeless_past_trials),
        cmocka_unit_test(test_model_broken),
        cmocka_unit_test(test_model_alone_broken),
        cmocka_unit_test(test_inserted_as_whole),
        cmocka_unit_test(test_index_removed_what_if),
        cmocka_unit_test(test_broken_pattern_left_out),
        cmocka_unit_test(test_no_rest),
        cmocka_unit_test(test_rest_at_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
