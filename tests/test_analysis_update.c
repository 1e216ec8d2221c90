/* test_analysis_update.c - the incremental analysis equals the full one. Random edit sequences,
 * the way the workbench edits (cells set from another row's text or a changed figure, rows
 * added, deleted, duplicated and moved), over the samples and a generated design of 1,000
 * patterns; after every edit that leaves the design valid, analysis_update's result and
 * analysis_run's are compared byte for byte: check --json (every figure at full precision), the
 * check report, and the why-not lines neither prints. The edits of one pattern cell tell
 * analysis_update their row, as the workbench does; the others do not. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analysis.h"
#include "analysis_json.h"
#include "edit.h"
#include "gen_design.h"
#include "report.h"
#include "support.h"
#include "validate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* xorshift64*: the same sequence on every run and machine */
static uint64_t next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1DULL;
}

static size_t pick(uint64_t *s, size_t n) { return n ? (size_t)(next(s) % n) : 0; }

/* Everything people and programs read of an analysis, as one text. Caller frees. */
static char *render(const kp_analysis *a)
{
    sbuf b;
    sbuf_init(&b);
    char *json = analysis_json_string(a->design, a, NULL);
    char *text = report_check_text("design.yaml", a->design, a);
    sbuf_add(&b, json ? json : "(no json)");
    sbuf_add(&b, text);
    for (size_t i = 0; i < a->npatterns; i++)
        for (size_t w = 0; w < a->patterns[i].nwhy_not; w++)
            sbuf_printf(&b, "why-not %zu %s: %s\n", i,
                        a->patterns[i].why_not[w].rule ? a->patterns[i].why_not[w].rule : "",
                        a->patterns[i].why_not[w].text);
    free(json);
    free(text);
    return sbuf_steal(&b);
}

/* Fails with the first line that differs. */
static void compare(const kp_design *d, const kp_analysis *inc, const char *name, size_t step,
                    const char *edit)
{
    kp_analysis *full = analysis_run(d);
    char *x = render(full), *y = render(inc);
    if (strcmp(x, y) != 0) {
        const char *p = x, *q = y;
        size_t line = 1;
        while (*p && *p == *q) {
            line += *p == '\n';
            p++, q++;
        }
        while (p > x && p[-1] != '\n')
            p--, q--;
        int np = (int)strcspn(p, "\n"), nq = (int)strcspn(q, "\n");
        fail_msg("%s, edit %zu (%s): line %zu differs\n  full: %.*s\n  incr: %.*s", name, step, edit, line,
                 np, p, nq, q);
    }
    free(x);
    free(y);
    analysis_free(full);
}

/* A new text for a cell: another row's text for the same column, or a number changed. */
static char *new_text(const kp_design *d, edit_table t, size_t col, uint64_t *s)
{
    size_t nr = edit_nrows(d, t);
    char *text = edit_get(d, t, pick(s, nr), col);
    char *end = NULL;
    double v = strtod(text, &end);
    if (*text && end && !*end && pick(s, 2)) {
        free(text);
        static const double factors[] = {0.5, 2, 10, 0.01, 3};
        return xasprintf("%g", v * factors[pick(s, 5)] + (double)pick(s, 3));
    }
    return text;
}

/* One random edit of d. *what says it; *row is the pattern row when the edit changed one
 * pattern only, else ANALYSIS_UNKNOWN. false when the edit was refused (d unchanged). */
static bool random_edit(kp_design *d, uint64_t *s, char *what, size_t whatlen, size_t *row)
{
    *row = ANALYSIS_UNKNOWN;
    size_t dice = pick(s, 100);
    if (dice < 6 && d->npatterns > 1) { /* a row operation on the patterns */
        size_t r = pick(s, d->npatterns);
        switch (pick(s, 4)) {
        case 0:
            snprintf(what, whatlen, "move pattern %zu", r);
            return edit_move(d, EDIT_PATTERNS, r, pick(s, 2) ? 1 : -1);
        case 1:
            snprintf(what, whatlen, "delete pattern %zu", r);
            return edit_delete(d, EDIT_PATTERNS, r);
        case 2:
            snprintf(what, whatlen, "duplicate pattern %zu", r);
            return edit_duplicate(d, EDIT_PATTERNS, r) != (size_t)-1;
        default:
            snprintf(what, whatlen, "add pattern at %zu", r);
            return edit_add(d, EDIT_PATTERNS, r) != (size_t)-1;
        }
    }
    /* mostly pattern cells (what a keystroke changes), sometimes anything else */
    static const edit_table others[] = {EDIT_ENTITIES,  EDIT_INDEXES, EDIT_ATTRS,
                                        EDIT_DECISIONS, EDIT_KEYS,    EDIT_SETTINGS};
    edit_table t = dice < 80 ? EDIT_PATTERNS : others[pick(s, sizeof others / sizeof *others)];
    size_t nr = edit_nrows(d, t), nc = edit_ncols(d, t);
    if (!nr || !nc)
        return false;
    size_t r = pick(s, nr), c = t == EDIT_SETTINGS ? 1 : pick(s, nc);
    char *text = new_text(d, t, c, s);
    snprintf(what, whatlen, "%s row %zu %s = '%.40s'", edit_table_name(t), r, edit_col_name(d, t, c), text);
    char *err = NULL;
    bool ok = edit_set(d, t, r, c, text, &err) == KP_OK;
    free(err);
    free(text);
    if (ok && edit_changes_pattern_only(t, c))
        *row = r;
    return ok;
}

/* n random edits of d (taken) from seed, the incremental result compared after each valid one. */
static void run_sequence(kp_design *d, const char *name, uint64_t seed, size_t n)
{
    uint64_t s = seed;
    kp_analysis *a = analysis_update(NULL, d, ANALYSIS_UNKNOWN);
    compare(d, a, name, 0, "first analysis");
    size_t valid = 0;
    size_t pending = 0; /* edits not analysed since the last analysis (the design was invalid) */
    for (size_t step = 1; step <= n; step++) {
        char what[160];
        size_t row;
        kp_design *before = design_clone(d);
        if (!random_edit(d, &s, what, sizeof what, &row)) {
            design_free(before);
            continue;
        }
        kp_diags dg;
        diags_init(&dg, name);
        bool ok = validate_design(d, &dg);
        diags_free(&dg);
        if (!ok) {
            /* mostly undone; else kept for a few edits, as in the workbench, which keeps the last
               good analysis until the design is valid again (the row told then would not be the
               only one); then back to the design last analysed */
            if (pick(&s, 4) && pending < 3) {
                design_free(d);
                d = before;
            } else if (pending < 3) {
                design_free(before);
                pending++;
            } else {
                design_free(before);
                design_free(d);
                d = design_clone(a->design);
                pending = 0; /* d is the design analysed again */
            }
            continue;
        }
        design_free(before);
        a = analysis_update(a, d, pending ? ANALYSIS_UNKNOWN : row);
        pending = 0;
        compare(d, a, name, step, what);
        valid++;
    }
    if (valid < n / 4) /* most edits were compared */
        fail_msg("%s: only %zu of %zu edits left the design valid", name, valid, n);
    /* d changed or freed afterwards: the analysis holds its own copy */
    design_free(d);
    char *again = render(a);
    assert_non_null(again);
    free(again);
    analysis_free(a);
}

static void test_samples(void **state)
{
    (void)state;
    static const char *const samples[] = {"samples/cloudshop/design.yaml", "samples/iot/design.yaml",
                                          "samples/social/design.yaml"};
    for (size_t i = 0; i < sizeof samples / sizeof *samples; i++) {
        kp_design *d = ts_load_file(samples[i]);
        assert_non_null(d);
        run_sequence(d, samples[i], 0x9E3779B97F4A7C15ULL + i, 150);
    }
}

static void test_generated(void **state)
{
    (void)state;
    run_sequence(gen_design(1000), "generated 1000", 42, 25);
}

/* A pattern cell's edit told with its row, and the same design given twice: the result is the
 * full analysis each time (the second is the same object, nothing to do). */
static void test_told_row(void **state)
{
    (void)state;
    kp_design *d = ts_load_file("samples/cloudshop/design.yaml");
    assert_non_null(d);
    kp_analysis *a = analysis_update(NULL, d, ANALYSIS_UNKNOWN);
    int rate = edit_col_find(d, EDIT_PATTERNS, "rate");
    assert_true(rate >= 0);
    assert_true(edit_changes_pattern_only(EDIT_PATTERNS, (size_t)rate));
    assert_false(edit_changes_pattern_only(EDIT_PATTERNS, (size_t)edit_col_find(d, EDIT_PATTERNS, "id")));
    assert_false(edit_changes_pattern_only(EDIT_ENTITIES, 1));
    char *err = NULL;
    assert_int_equal(edit_set(d, EDIT_PATTERNS, 0, (size_t)rate, "12345", &err), KP_OK);
    kp_analysis *b = analysis_update(a, d, 0);
    compare(d, b, "cloudshop", 1, "rate of pattern 0");
    kp_analysis *c = analysis_update(b, d, ANALYSIS_UNKNOWN);
    assert_ptr_equal(b, c);
    compare(d, c, "cloudshop", 2, "nothing");
    analysis_free(c);
    design_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_told_row),
        cmocka_unit_test(test_samples),
        cmocka_unit_test(test_generated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
