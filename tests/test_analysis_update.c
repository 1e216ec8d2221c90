/* test_analysis_update.c - the incremental analysis equals the full one. Random edit sequences,
 * the way the workbench edits (cells set from another row's text or a changed figure, rows
 * added, deleted, duplicated and moved), over the samples and a generated design of 1,000
 * patterns; after every edit that leaves the design valid, analysis_update's result and
 * analysis_run's are compared byte for byte: check --json (every figure at full precision), the
 * check report, and the why-not lines neither prints. The edits of one pattern cell tell
 * analysis_update their row, and the row operations (and a deleted pattern put back at its row,
 * as an undo does) tell analysis_update_rows their step, as the workbench does; the others tell
 * nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analysis.h"
#include "analysis_json.h"
#include "edit.h"
#include "fields.h"
#include "gen_design.h"
#include "report.h"
#include "salvage.h"
#include "support.h"
#include "validate.h"

#include <math.h>
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
    /* the analysis' own copy of the design is d (what it analysed, what later updates compare) */
    if (!design_equal(d, inc->design))
        fail_msg("%s, edit %zu (%s): the analysis' copy of the design is not the design", name, step, edit);
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

/* What an edit tells analysis_update: nothing (ANALYSIS_UNKNOWN), the pattern row a cell's edit
 * changed, or the structural step of the pattern list (analysis_update_rows). */
typedef struct told {
    size_t row;      /* the pattern row of a cell's edit, else ANALYSIS_UNKNOWN */
    size_t elem;     /* the row of a cell's edit that changes that element alone (an entity, an
                      attribute, an index: analysis_update_row), else ANALYSIS_UNKNOWN */
    edit_table etab; /* its list */
    size_t renamed;  /* the entity an edit renamed (analysis_update_entity_name), else
                        ANALYSIS_UNKNOWN */
    size_t pid;      /* the pattern whose id an edit changed (analysis_update_pattern_id), else
                        ANALYSIS_UNKNOWN */
    bool rows;       /* op is the step the edit made */
    kp_rowop op;
    bool keys; /* a key attribute renamed (analysis_update_keys): ktab's row krow */
    edit_table ktab;
    size_t krow;
} told;

/* The last pattern a delete took out, kept to be put back where it was (an undo's step). */
typedef struct gone {
    kp_pattern p;
    size_t row;
    bool have;
} gone;

static void gone_drop(gone *g)
{
    if (g->have)
        pattern_free(&g->p);
    g->have = false;
}

/* A structural step of d's patterns: moved, deleted, duplicated, added, or the last deleted
 * one put back at its row. */
static bool random_rows(kp_design *d, uint64_t *s, gone *g, char *what, size_t whatlen, told *t)
{
    size_t r = pick(s, d->npatterns);
    t->rows = true;
    switch (pick(s, 5)) {
    case 0: {
        int by = pick(s, 2) ? 1 : -1;
        snprintf(what, whatlen, "move pattern %zu by %d", r, by);
        t->op = (kp_rowop){KP_ROW_MOVE, r, (size_t)((ptrdiff_t)r + by)};
        return edit_move(d, EDIT_PATTERNS, r, by);
    }
    case 1:
        snprintf(what, whatlen, "delete pattern %zu", r);
        gone_drop(g);
        g->p = d->patterns[r];
        fields_clone(&kp_rec_pattern, &g->p, &d->patterns[r]);
        g->row = r;
        g->have = true;
        t->op = (kp_rowop){KP_ROW_REMOVE, r, 0};
        return edit_delete(d, EDIT_PATTERNS, r);
    case 2:
        snprintf(what, whatlen, "duplicate pattern %zu", r);
        t->op = (kp_rowop){KP_ROW_INSERT, r + 1, 0};
        return edit_duplicate(d, EDIT_PATTERNS, r) != (size_t)-1;
    case 3: {
        snprintf(what, whatlen, "add pattern at %zu", r);
        size_t at = edit_add(d, EDIT_PATTERNS, r);
        t->op = (kp_rowop){KP_ROW_INSERT, at, 0};
        return at != (size_t)-1;
    }
    default:
        if (!g->have || g->row > d->npatterns)
            return false;
        snprintf(what, whatlen, "put back pattern %s at %zu", g->p.id ? g->p.id : "?", g->row);
        d->patterns = xrealloc(d->patterns, (d->npatterns + 1) * sizeof *d->patterns);
        t->op = (kp_rowop){KP_ROW_INSERT, g->row, 0};
        kp_rowop_shift(d->patterns, d->npatterns, sizeof *d->patterns, t->op);
        d->patterns[g->row] = g->p; /* taken */
        d->npatterns++;
        g->have = false;
        return true;
    }
}

/* One random edit of d. *what says it; *t what analysis_update may be told. false when the edit
 * was refused (d unchanged). */
static bool random_edit(kp_design *d, uint64_t *s, gone *g, char *what, size_t whatlen, told *t)
{
    *t = (told){.row = ANALYSIS_UNKNOWN,
                .elem = ANALYSIS_UNKNOWN,
                .renamed = ANALYSIS_UNKNOWN,
                .pid = ANALYSIS_UNKNOWN};
    size_t dice = pick(s, 100);
    if (dice < 20 && d->npatterns > 1) /* a row operation on the patterns */
        return random_rows(d, s, g, what, whatlen, t);
    if (dice < 24 && d->nentities) { /* an entity renamed, in Spanish now and then */
        size_t r = pick(s, d->nentities);
        static const char *const suffix[] = {"x", "_línea", "Dirección"};
        char *text = xasprintf("%s%s", d->entities[r].name, suffix[pick(s, 3)]);
        snprintf(what, whatlen, "entity %zu renamed '%s'", r, text);
        edit_table tb = pick(s, 2) ? EDIT_KEYS : EDIT_ENTITIES;
        int col = tb == EDIT_KEYS ? 0 : edit_col_find(d, tb, "name");
        assert_true(col >= 0 && edit_renames_entity(tb, (size_t)col));
        bool ok = edit_set(d, tb, r, (size_t)col, text, NULL) == KP_OK;
        free(text);
        if (ok)
            t->renamed = r;
        return ok;
    }
    if (dice < 28 && d->npatterns) { /* a pattern's id changed; a decision or a covered_by may name it */
        size_t r = pick(s, d->npatterns);
        static const char *const suffix[] = {"b", "_ñ", "0"};
        char *text = xasprintf("%s%s", d->patterns[r].id ? d->patterns[r].id : "p", suffix[pick(s, 3)]);
        snprintf(what, whatlen, "pattern %zu's id '%s'", r, text);
        int col = edit_col_find(d, EDIT_PATTERNS, "id");
        assert_true(col >= 0 && edit_renames_pattern(EDIT_PATTERNS, (size_t)col));
        bool ok = edit_set(d, EDIT_PATTERNS, r, (size_t)col, text, NULL) == KP_OK;
        free(text);
        if (ok)
            t->pid = r;
        return ok;
    }
    if (dice < 31) { /* a key attribute renamed, an index's or the table's: told as keys */
        bool table = !d->nindexes || pick(s, 4) == 0;
        edit_table tb = table ? EDIT_SETTINGS : EDIT_INDEXES;
        int r = table ? edit_setting_find(pick(s, 3) ? "pk" : "sk") : (int)pick(s, d->nindexes);
        int c = table ? 1 : edit_col_find(d, EDIT_INDEXES, pick(s, 3) ? "pk" : "sk");
        assert_true(r >= 0 && c >= 0 && edit_changes_keys_only(tb, (size_t)r, (size_t)c));
        char *old = edit_get(d, tb, (size_t)r, (size_t)c);
        static const char *const suffix[] = {"2", "_línea", "_PK"};
        char *text = *old ? xasprintf("%s%s", old, suffix[pick(s, 3)]) : NULL; /* none: no sort key */
        free(old);
        if (!text)
            return false;
        snprintf(what, whatlen, "%s %d's key renamed '%s'", table ? "the table" : "index", r, text);
        bool ok = edit_set(d, tb, (size_t)r, (size_t)c, text, NULL) == KP_OK;
        free(text);
        if (ok) {
            t->keys = true;
            t->ktab = tb;
            t->krow = (size_t)r;
        }
        return ok;
    }
    /* mostly pattern cells (what a keystroke changes), sometimes anything else */
    static const edit_table others[] = {EDIT_ENTITIES, EDIT_INDEXES,  EDIT_ATTRS,    EDIT_DECISIONS,
                                        EDIT_KEYS,     EDIT_SETTINGS, EDIT_SETTINGS, EDIT_DECISIONS};
    edit_table tb = dice < 80 ? EDIT_PATTERNS : others[pick(s, sizeof others / sizeof *others)];
    size_t nr = edit_nrows(d, tb), nc = edit_ncols(d, tb);
    if (!nr || !nc)
        return false;
    size_t r = pick(s, nr), c = tb == EDIT_SETTINGS ? 1 : pick(s, nc);
    char *text = new_text(d, tb, c, s);
    snprintf(what, whatlen, "%s row %zu %s = '%.40s'", edit_table_name(tb), r, edit_col_name(d, tb, c), text);
    char *err = NULL;
    /* the Keys table's columns are the design's: asked before the edit */
    bool elem = edit_changes_row_only(d, tb, c) && tb != EDIT_DECISIONS;
    bool ok = edit_set(d, tb, r, c, text, &err) == KP_OK;
    free(err);
    free(text);
    if (ok && edit_changes_pattern_only(tb, c))
        t->row = r;
    if (ok && elem) {
        t->elem = r;
        t->etab = tb;
    }
    return ok;
}

/* Edits of the design's rest alone (told ANALYSIS_REST), of one element alone
 * (analysis_update_row) and of a key attribute (analysis_update_keys), compared so far. */
static size_t rest_compared, elem_compared, keys_compared;

/* n random edits of d (taken) from seed, the incremental result compared after each valid one. */
static void run_sequence(kp_design *d, const char *name, uint64_t seed, size_t n)
{
    uint64_t s = seed;
    kp_analysis *a = analysis_update(NULL, d, ANALYSIS_UNKNOWN);
    compare(d, a, name, 0, "first analysis");
    size_t valid = 0, nrest = 0;
    size_t pending = 0; /* edits not analysed since the last analysis (the design was invalid) */
    gone g = {0};
    for (size_t step = 1; step <= n; step++) {
        char what[160];
        told t;
        kp_design *before = design_clone(d);
        if (!random_edit(d, &s, &g, what, sizeof what, &t)) {
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
        /* an edit of the rest alone (a setting, a decision) is told as the workbench tells it */
        bool rest = !pending && !t.rows && t.row == ANALYSIS_UNKNOWN && t.pid == ANALYSIS_UNKNOWN &&
                    design_same_model(before, d);
        design_free(before);
        if (t.rows && !pending)
            a = analysis_update_rows(a, d, t.op);
        else if (t.renamed != ANALYSIS_UNKNOWN && !pending)
            a = analysis_update_entity_name(a, d, t.renamed);
        else if (t.pid != ANALYSIS_UNKNOWN && !pending)
            a = analysis_update_pattern_id(a, d, t.pid);
        else if (t.keys && !pending)
            a = analysis_update_keys(a, d, t.ktab, t.krow);
        else if (t.elem != ANALYSIS_UNKNOWN && !pending)
            a = analysis_update_row(a, d, t.etab, t.elem);
        else
            a = analysis_update(a, d, pending ? ANALYSIS_UNKNOWN : rest ? ANALYSIS_REST : t.row);
        nrest += rest;
        elem_compared += t.elem != ANALYSIS_UNKNOWN && !pending;
        keys_compared += t.keys && !pending;
        pending = 0;
        compare(d, a, name, step, what);
        valid++;
    }
    if (valid < n / 4) /* most edits were compared */
        fail_msg("%s: only %zu of %zu edits left the design valid", name, valid, n);
    rest_compared += nrest;
    gone_drop(&g);
    /* d changed or freed afterwards: the analysis holds its own copy */
    design_free(d);
    char *again = render(a);
    assert_non_null(again);
    free(again);
    analysis_free(a);
}

static const char *const samples[] = {"samples/cloudshop/design.yaml", "samples/iot/design.yaml",
                                      "samples/social/design.yaml"};
#define NSAMPLES (sizeof samples / sizeof *samples)

/* Sample i, or past them a generated design of n patterns (*name says which). */
static kp_design *sample_or_generated(size_t i, size_t n, const char **name)
{
    *name = i < NSAMPLES ? samples[i] : "generated";
    kp_design *d = i < NSAMPLES ? ts_load_file(samples[i]) : gen_design(n);
    assert_non_null(d);
    return d;
}

static void test_samples(void **state)
{
    (void)state;
    for (size_t i = 0; i < NSAMPLES; i++) {
        kp_design *d = ts_load_file(samples[i]);
        assert_non_null(d);
        run_sequence(d, samples[i], 0x9E3779B97F4A7C15ULL + i, 150);
    }
    /* edits of the rest alone were among them (told as such, then compared with the full run) */
    if (rest_compared < 10)
        fail_msg("only %zu edits of the design's rest alone were compared", rest_compared);
    if (elem_compared < 10)
        fail_msg("only %zu edits of one element alone were compared", elem_compared);
    if (keys_compared < 8)
        fail_msg("only %zu key attributes renamed were compared", keys_compared);
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

/* Each structural step told to analysis_update_rows, on the same result object: a row deleted,
 * put back (the delete undone), moved down and back up, a row added at the end; the result is
 * the full analysis after each, and an op that does not fit is a full analysis too. */
/* An edit of the rest alone, told: the decisions that accepted CloudShop's low-cardinality
 * indexes deleted (their findings become warnings: heat's partitions stand but the findings'
 * design-level answers read the decisions), then the billing mode changed (cost, quotas);
 * each compared with the full analysis. A change of the model is not the rest's. */
static void test_told_rest(void **state)
{
    (void)state;
    kp_design *d = ts_load_file("samples/cloudshop/design.yaml");
    assert_non_null(d);
    kp_analysis *a = analysis_update(NULL, d, ANALYSIS_UNKNOWN);
    char *before = render(a);
    kp_design *was = design_clone(d);
    while (d->ndecisions)
        assert_true(edit_delete(d, EDIT_DECISIONS, 0));
    assert_true(design_same_model(was, d));
    a = analysis_update(a, d, ANALYSIS_REST);
    compare(d, a, "cloudshop", 1, "decisions deleted");
    char *after = render(a);
    assert_non_null(strstr(before, "note    low-cardinality-pk, index GSI1"));
    assert_non_null(strstr(after, "warning low-cardinality-pk, index GSI1"));
    int billing = -1;
    for (size_t r = 0; r < edit_nrows(d, EDIT_SETTINGS); r++) {
        char *name = edit_get(d, EDIT_SETTINGS, r, 0);
        if (strcmp(name, "billing") == 0)
            billing = (int)r;
        free(name);
    }
    assert_true(billing >= 0);
    char *err = NULL;
    assert_int_equal(edit_set(d, EDIT_SETTINGS, (size_t)billing, 1, "provisioned", &err), KP_OK);
    assert_true(design_same_model(was, d));
    a = analysis_update(a, d, ANALYSIS_REST);
    compare(d, a, "cloudshop", 2, "billing provisioned");
    /* the model is not the rest */
    kp_design *e = design_clone(d);
    assert_int_equal(
        edit_set(e, EDIT_ENTITIES, 0, (size_t)edit_col_find(e, EDIT_ENTITIES, "count"), "7", &err), KP_OK);
    assert_false(design_same_model(d, e));
    free(e->table.pk.s);
    e->table.pk.s = xstrdup("OTHER");
    assert_false(design_same_model(d, e));
    design_free(e);
    free(before);
    free(after);
    design_free(was);
    analysis_free(a);
    design_free(d);
}

/* Edits of one element alone, told to analysis_update_row on each sample: an entity's figures,
 * the attributes it carries, its key templates and sparse rules; an attribute's type, distinct
 * values, skew, enum shares, format; an index's type, projection; with values of other rows and
 * figures scaled; each valid one compared with the full analysis, an invalid one undone. A row
 * past the list is analysed whole. */
/* Cell (r, c) of table tb of *d set to text (taken); true when the design is still valid, else
 * *d back as it was. */
static bool set_valid(kp_design **d, const char *name, edit_table tb, size_t r, size_t c, char *text)
{
    kp_design *before = design_clone(*d);
    bool ok = edit_set(*d, tb, r, c, text, NULL) == KP_OK;
    free(text);
    kp_diags dg;
    diags_init(&dg, name);
    ok = ok && validate_design(*d, &dg);
    diags_free(&dg);
    design_free(ok ? before : *d);
    if (!ok)
        *d = before;
    return ok;
}

static void test_told_elements(void **state)
{
    (void)state;
    size_t compared = 0, by_table[EDIT__TABLES] = {0}, nsamples = NSAMPLES;
    /* the samples, then a generated design (a collection shared by 67 entities, 20 GSIs, Scans:
       most edits stay under half the patterns, so they are patched in place) */
    for (size_t i = 0; i <= nsamples; i++) {
        const char *name;
        kp_design *d = sample_or_generated(i, 300, &name);
        uint64_t s = 0xC0FFEEULL + i;
        kp_analysis *a = analysis_update(NULL, d, ANALYSIS_UNKNOWN);
        for (size_t step = 1; step <= (i < nsamples ? 200u : 40u); step++) {
            static const edit_table tables[] = {EDIT_ENTITIES, EDIT_KEYS, EDIT_ATTRS, EDIT_INDEXES};
            edit_table tb = tables[pick(&s, 4)];
            size_t r = pick(&s, edit_nrows(d, tb)), c = pick(&s, edit_ncols(d, tb));
            if (!edit_nrows(d, tb) || !edit_changes_row_only(d, tb, c))
                continue;
            char *text = new_text(d, tb, c, &s), what[160];
            snprintf(what, sizeof what, "%s row %zu %s = '%.40s'", edit_table_name(tb), r,
                     edit_col_name(d, tb, c), text);
            if (!set_valid(&d, name, tb, r, c, text))
                continue;
            a = analysis_update_row(a, d, tb, r);
            compare(d, a, name, step, what);
            compared++;
            by_table[tb]++;
        }
        a = analysis_update_row(a, d, EDIT_ENTITIES, d->nentities + 3); /* no such row: analysed whole */
        compare(d, a, name, 999, "a row past the entities");
        analysis_free(a);
        design_free(d);
    }
    if (compared < 100 || by_table[EDIT_ATTRS] < 20 || by_table[EDIT_INDEXES] < 20 ||
        by_table[EDIT_KEYS] < 20)
        fail_msg("only %zu edits of one element alone were compared (attributes %zu, indexes %zu, keys %zu)",
                 compared, by_table[EDIT_ATTRS], by_table[EDIT_INDEXES], by_table[EDIT_KEYS]);
}

static void test_told_rows(void **state)
{
    (void)state;
    kp_design *d = ts_load_file("samples/cloudshop/design.yaml");
    assert_non_null(d);
    assert_true(d->npatterns > 3);
    kp_analysis *a = analysis_update(NULL, d, ANALYSIS_UNKNOWN);
    kp_pattern keep = d->patterns[2];
    fields_clone(&kp_rec_pattern, &keep, &d->patterns[2]);
    assert_true(edit_delete(d, EDIT_PATTERNS, 2));
    a = analysis_update_rows(a, d, (kp_rowop){KP_ROW_REMOVE, 2, 0});
    compare(d, a, "cloudshop", 1, "delete row 2");
    d->patterns = xrealloc(d->patterns, (d->npatterns + 1) * sizeof *d->patterns);
    kp_rowop back = {KP_ROW_INSERT, 2, 0};
    kp_rowop_shift(d->patterns, d->npatterns, sizeof *d->patterns, back);
    d->patterns[2] = keep;
    d->npatterns++;
    a = analysis_update_rows(a, d, back);
    assert_false(analysis_was_whole(a)); /* kept, not made again */
    compare(d, a, "cloudshop", 2, "row 2 put back");
    assert_true(edit_move(d, EDIT_PATTERNS, 0, +1));
    a = analysis_update_rows(a, d, (kp_rowop){KP_ROW_MOVE, 0, 1});
    compare(d, a, "cloudshop", 3, "row 0 moved down");
    assert_true(edit_move(d, EDIT_PATTERNS, 1, -1));
    a = analysis_update_rows(a, d, (kp_rowop){KP_ROW_MOVE, 1, 0});
    compare(d, a, "cloudshop", 4, "row 1 moved up");
    size_t at = edit_add(d, EDIT_PATTERNS, d->npatterns);
    a = analysis_update_rows(a, d, (kp_rowop){KP_ROW_INSERT, at, 0});
    compare(d, a, "cloudshop", 5, "row added at the end");
    /* a step that does not fit the patterns analysed: analysed whole */
    a = analysis_update_rows(a, d, (kp_rowop){KP_ROW_REMOVE, d->npatterns + 5, 0});
    compare(d, a, "cloudshop", 6, "a step that does not fit");
    analysis_free(a);
    design_free(d);
}

/* An edit of an entity's or an attribute's figures alone is patched in place (the resolver's
 * entries and sums, heat's rows): the cases the samples do not reach. User comes first in the row U#{userId}
 * whose placeholder has no declared distribution (its value classes read User's count: one in
 * `count` values), shares it with Session, and shares GSI1's partitions with Device; nothing
 * serves Session by day (a Scan: the table's totals); Device writes items of its own and comes
 * first in D#{deviceId} (undeclared: its count sets the row's classes), which Tag shares, though
 * Tag's queries (TAG#...) never read Device's items. Note's
 * patterns, untouched by these edits, keep them under half the design (past it the analysis is
 * made whole). */
static void test_figures_in_place(void **state)
{
    (void)state;
    static const char *const yaml =
        "keyplan: 1\n"
        "name: figures\n"
        "table: { name: Things, pk: PK, sk: SK }\n"
        "indexes:\n"
        "  - { name: GSI1, pk: GSI1PK, sk: GSI1SK, projection: all }\n"
        "  - { name: LSI1, type: lsi, pk: PK, sk: LSK, projection: keys }\n"
        "attributes:\n"
        "  day: { distinct: 30 }\n"
        "  userId: { distinct: 1000, skew: \"zipf:0.9\" }\n"
        "  sessionId: { distinct: 50000 }\n"
        "  kind: { type: enum, values: { a: 0.7, b: 0.3 } }\n"
        "entities:\n"
        "  - name: User\n"
        "    count: 1000\n"
        "    size: 400\n"
        "    attributes: [userId, day, kind]\n"
        "    keys: { PK: \"U#{userId}\", SK: \"PROFILE\", GSI1PK: \"K#{kind}\", GSI1SK: \"{day}\", LSK: \"{day}\" }\n"
        "  - name: Session\n"
        "    count: 50000\n"
        "    size: 200\n"
        "    attributes: [userId, sessionId, day]\n"
        "    keys: { PK: \"U#{userId}\", SK: \"S#{sessionId}\" }\n"
        "  - name: Device\n"
        "    count: 3000\n"
        "    size: 800\n"
        "    writes: 40\n"
        "    attributes: [deviceId, day, kind, model]\n"
        "    keys: { PK: \"D#{deviceId}\", SK: \"DEVICE\", GSI1PK: \"K#{kind}\", GSI1SK: \"{day}\" }\n"
        "  - name: Tag\n"
        "    count: 9000\n"
        "    size: 60\n"
        "    attributes: [deviceId, tagId]\n"
        "    keys: { PK: \"D#{deviceId}\", SK: \"TAG#{tagId}\" }\n"
        "  - name: Note\n"
        "    count: 100\n"
        "    size: 100\n"
        "    attributes: [noteId, text]\n"
        "    keys: { PK: \"N#{noteId}\", SK: \"NOTE\" }\n"
        "patterns:\n"
        "  - { id: 1, name: a user, entity: User, by: [userId], rate: 300, latency: 20 }\n"
        "  - { id: 2, name: sessions of a user, entity: Session, by: [userId], rate: 900, latency: 20 }\n"
        "  - { id: 3, name: devices of a kind by day, entity: Device, by: [kind], order: day desc, rate: 50, latency: 50 }\n"
        "  - { id: 4, name: a device, entity: Device, by: [deviceId], rate: 700, latency: 20 }\n"
        "  - { id: 5, name: sessions of a day, entity: Session, by: [day], rate: 0.01, latency: 5000 }\n"
        "  - { id: 6, name: new session, kind: write, entity: Session, rate: 90 }\n"
        "  - { id: 7, name: user day, kind: write, entity: User, op: update, changes: [day], rate: 20 }\n"
        "  - { id: 8, name: a user by day, entity: User, by: [userId], range: day, rate: 10, latency: 50 }\n"
        "  - { id: 18, name: tags of a device, entity: Tag, by: [deviceId], rate: 500, latency: 20 }\n"
        "  - { id: 19, name: a new tag, kind: write, entity: Tag, rate: 30 }\n"
        "  - { id: 9, name: a note, entity: Note, by: [noteId], rate: 1, latency: 20 }\n"
        "  - { id: 10, name: a note again, entity: Note, by: [noteId], rate: 2, latency: 20 }\n"
        "  - { id: 11, name: a note once more, entity: Note, by: [noteId], rate: 3, latency: 20 }\n"
        "  - { id: 12, name: a new note, kind: write, entity: Note, rate: 4 }\n"
        "  - { id: 13, name: a note's update, kind: write, entity: Note, op: update, by: [noteId], changes: [text], rate: 5 }\n"
        "  - { id: 14, name: a note's removal, kind: write, entity: Note, op: delete, by: [noteId], rate: 6 }\n"
        "  - { id: 15, name: a strong note read, entity: Note, by: [noteId], consistency: strong, rate: 7 }\n"
        "  - { id: 16, name: a seldom note read, entity: Note, by: [noteId], rate: 0.1, latency: 20 }\n"
        "  - { id: 17, name: a frequent note read, entity: Note, by: [noteId], rate: 900, latency: 20 }\n"
        "  - { id: 20, name: another note read, entity: Note, by: [noteId], rate: 90, latency: 20 }\n"
        "  - { id: 21, name: one more note read, entity: Note, by: [noteId], rate: 9, latency: 20 }\n";
    kp_design *d = ts_load_text(yaml, "figures.yaml");
    assert_non_null(d);
    kp_diags dg;
    diags_init(&dg, "figures.yaml");
    assert_true(validate_design(d, &dg));
    diags_free(&dg);
    kp_analysis *a = analysis_update(NULL, d, ANALYSIS_UNKNOWN);
    static const struct {
        size_t row;
        const char *col, *text;
    } edits[] = {{0, "count", "10"},    {0, "count", "3"},       {0, "size", "4000"},    {1, "count", "7"},
                 {2, "count", "90000"}, {2, "writes", "4000"},   {2, "size", "390"},     {0, "count", "1"},
                 {1, "size", "5000"},   {0, "description", "x"}, {2, "writes_avg", "10"}};
    /* then an attribute's figures: its distinct values, skew, size, enum shares (the entities
       carrying it refigured, the rows with its placeholder given new value classes) */
    static const struct {
        const char *attr, *col, *text;
    } aedits[] = {{"userId", "distinct", "10"},   {"userId", "skew", ""},
                  {"day", "distinct", "5"},       {"kind", "values", "a: 0.1, b: 0.9"},
                  {"userId", "skew", "zipf:1.3"}, {"sessionId", "distinct", "7"},
                  {"day", "write_hot", "1"},      {"userId", "size", "90"}};
    /* then an index's projection (GSI1 holds User and Device; LSI1 holds User) and its why: the
       entities on it refigured, what a whole item read on it misses found again (keys only misses
       Device's attributes, which the include list then brings) */
    static const struct {
        size_t row;
        const char *col, *text;
    } xedits[] = {{0, "projection", "keys"},
                  {1, "projection", "all"},
                  {0, "include", "deviceId, day, kind, model"},
                  {0, "projection", "include"},
                  {0, "include", ""},
                  {0, "projection", "all"},
                  {0, "why", "the devices of a kind"},
                  {1, "projection", "keys"}};
    size_t n = sizeof edits / sizeof *edits, na = sizeof aedits / sizeof *aedits,
           nx = sizeof xedits / sizeof *xedits;
    for (size_t i = 0; i < n + na + nx; i++) {
        edit_table tb = i < n ? EDIT_ENTITIES : i < n + na ? EDIT_ATTRS : EDIT_INDEXES;
        const char *col = i < n ? edits[i].col : i < n + na ? aedits[i - n].col : xedits[i - n - na].col;
        const char *text = i < n ? edits[i].text : i < n + na ? aedits[i - n].text : xedits[i - n - na].text;
        size_t row = i < n ? edits[i].row : i < n + na ? 0 : xedits[i - n - na].row;
        while (i >= n && i < n + na && strcmp(d->attrs[row].name, aedits[i - n].attr) != 0)
            row++;
        size_t c = 0;
        while (c < edit_ncols(d, tb) && strcmp(edit_col_name(d, tb, c), col) != 0)
            c++;
        assert_true(c < edit_ncols(d, tb));
        assert_int_equal(edit_set(d, tb, row, c, text, NULL), KP_OK);
        diags_init(&dg, "figures.yaml");
        bool valid = validate_design(d, &dg);
        diags_free(&dg);
        if (!valid && tb == EDIT_INDEXES && strcmp(col, "include") == 0)
            continue; /* an include list before its projection: analysed with the next edit, as the
                         workbench keeps the last good analysis meanwhile */
        if (!valid)
            fail_msg("%s %zu %s = %s: the design is not valid", edit_table_name(tb), row, col, text);
        a = analysis_update_row(a, d, tb, row);
        char what[80];
        snprintf(what, sizeof what, "%s %zu %s = %s", edit_table_name(tb), row, col, text);
        if (analysis_was_whole(a))
            fail_msg("%s: analysed whole, not patched in place", what);
        compare(d, a, "figures", i + 1, what);
    }
    analysis_free(a);
    design_free(d);
}

/* A key template changed the ways people change one: a separator put in, a placeholder renamed
 * or added, a byte taken out, another entity's template taken, the key cleared. Each edit that
 * leaves the design valid is told as the Keys screen tells it (the entity's row) and compared
 * with a full analysis: an edit that changes no placeholder's domain is patched (the entity's
 * patterns and its neighbours' resolved again), one that does is analysed whole. */
static char *mutate_template(const kp_design *d, const char *t, uint64_t *s)
{
    static const char seps[] = "#|:-_.~ ";
    size_t n = strlen(t), at = pick(s, n + 1);
    const char *attr = d->nattrs ? d->attrs[pick(s, d->nattrs)].name : "x";
    switch (pick(s, 6)) {
    case 0: /* a separator */
        return xasprintf("%.*s%c%s", (int)at, t, seps[pick(s, sizeof seps - 1)], t + at);
    case 1: { /* a placeholder renamed */
        const char *o = strchr(t, '{'), *c = o ? strchr(o, '}') : NULL;
        if (!c)
            return xasprintf("%s{%s}", t, attr);
        return xasprintf("%.*s{%s%s", (int)(o - t), t, attr, c);
    }
    case 2: /* a placeholder added */
        return xasprintf("%.*s#{%s}%s", (int)at, t, attr, t + at);
    case 3: /* a byte taken out */
        return n ? xasprintf("%.*s%s", (int)(at < n ? at : n - 1), t, t + (at < n ? at : n - 1) + 1)
                 : xstrdup(t);
    case 4: /* a literal's text */
        return xasprintf("%.*sX%s", (int)at, t, t + at);
    default: /* cleared */
        return xstrdup("");
    }
}

static void test_keys_in_place(void **state)
{
    (void)state;
    size_t nsamples = NSAMPLES, compared = 0, in_place = 0;
    for (size_t i = 0; i <= nsamples; i++) {
        const char *name;
        kp_design *d = sample_or_generated(i, 300, &name);
        uint64_t s = 0xBEEFULL + i;
        kp_analysis *a = analysis_update(NULL, d, ANALYSIS_UNKNOWN);
        for (size_t step = 1; step <= (i < nsamples ? 1000u : 150u); step++) {
            size_t r = pick(&s, d->nentities), nc = edit_ncols(d, EDIT_KEYS);
            size_t c = 1 + pick(&s, nc > 1 ? nc - 1 : 1);
            if (c >= nc)
                continue;
            char *old = edit_get(d, EDIT_KEYS, r, c);
            char *text = pick(&s, 5) ? mutate_template(d, old, &s) : new_text(d, EDIT_KEYS, c, &s), what[200];
            free(old);
            snprintf(what, sizeof what, "keys row %zu %s = '%.60s'", r, edit_col_name(d, EDIT_KEYS, c), text);
            if (!set_valid(&d, name, EDIT_KEYS, r, c, text))
                continue;
            a = analysis_update_row(a, d, EDIT_KEYS, r);
            in_place += !analysis_was_whole(a);
            compare(d, a, name, step, what);
            compared++;
        }
        analysis_free(a);
        design_free(d);
    }
    if (compared < 200 || in_place < compared / 5) /* on the samples most entities reach half */
        fail_msg("%zu key edits compared, %zu of them patched in place", compared, in_place);
}

/* An edit of one entity's key that changes what another's placeholders may hold: G's key gives
 * x a '-' after it, so E's "A#{x}" no longer meets F's "A#{y}-B" (x can no longer end in "-B")
 * and E's query of a whole partition no longer reads F's items, though neither E nor F meets G.
 * Then back, an edit that keeps every separator, and the first again. The Note patterns keep
 * each edit under half the design. */
static void test_keys_domains(void **state)
{
    (void)state;
    static const char *const yaml =
        "keyplan: 1\n"
        "name: domains\n"
        "table: { name: Things, pk: PK, sk: SK }\n"
        "attributes:\n"
        "  x: { distinct: 1000 }\n"
        "  y: { distinct: 1000 }\n"
        "  z: { distinct: 1000 }\n"
        "  w: { distinct: 1000 }\n"
        "entities:\n"
        "  - { name: E, count: 1000, size: 400, attributes: [x, w], keys: { PK: \"A#{x}\", SK: \"{w}\" } }\n"
        "  - { name: F, count: 90000, size: 4000, attributes: [y, w], keys: { PK: \"A#{y}-B\", SK: \"F#{w}\" } }\n"
        "  - { name: G, count: 10, size: 100, attributes: [x, z], keys: { PK: \"K#{z}\", SK: \"G\" } }\n"
        "  - { name: Note, count: 10, size: 100, attributes: [n], keys: { PK: \"N#{n}\", SK: \"N\" } }\n"
        "patterns:\n"
        "  - { id: 1, name: all of an x, entity: E, by: [x], rate: 300, latency: 20 }\n"
        "  - { id: 2, name: an F, entity: F, by: [y], rate: 30, latency: 20 }\n"
        "  - { id: 3, name: a G, entity: G, by: [z], rate: 3, latency: 20 }\n"
        "  - { id: 4, name: an F again, entity: F, by: [y], rate: 4, latency: 20 }\n"
        "  - { id: 5, name: an F once more, entity: F, by: [y], rate: 5, latency: 20 }\n"
        "  - { id: 6, name: a note, entity: Note, by: [n], rate: 1, latency: 20 }\n"
        "  - { id: 7, name: a note again, entity: Note, by: [n], rate: 2, latency: 20 }\n"
        "  - { id: 8, name: a note once more, entity: Note, by: [n], rate: 3, latency: 20 }\n"
        "  - { id: 9, name: a new note, kind: write, entity: Note, rate: 4 }\n"
        "  - { id: 10, name: a strong note read, entity: Note, by: [n], consistency: strong, rate: 5 }\n"
        "  - { id: 11, name: a seldom note read, entity: Note, by: [n], rate: 0.1, latency: 20 }\n";
    kp_design *d = ts_load_text(yaml, "domains.yaml");
    assert_non_null(d);
    kp_analysis *a = analysis_update(NULL, d, ANALYSIS_UNKNOWN);
    /* each in place: E (carrying x) and its neighbours before and after resolved again, then
       back, then one that keeps every separator ('#' was z's already), then the first again */
    static const char *const texts[] = {"K#{x}-Z", "K#{z}", "K#{z}#W", "K#{x}-Z"};
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        assert_int_equal(edit_set(d, EDIT_KEYS, 2, 1, texts[i], NULL), KP_OK);
        kp_diags dg;
        diags_init(&dg, "domains.yaml");
        assert_true(validate_design(d, &dg));
        diags_free(&dg);
        a = analysis_update_row(a, d, EDIT_KEYS, 2);
        if (analysis_was_whole(a))
            fail_msg("%s: analysed whole, not patched", texts[i]);
        compare(d, a, "domains", i + 1, texts[i]);
    }
    analysis_free(a);
    design_free(d);
}

/* An attribute's distinct values declared, then taken back, where a partition's figures do not
 * move: A#{a}#{b} holds no item yet (T's count is 0) and `a` is undeclared, so its distinct
 * values stay unknown and its hottest share 0 whatever b says, but its finding names the
 * placeholders without a distribution, b among them or not. Patched in place, the partitions
 * holding b have their findings made again. */
static void test_partition_attr(void **state)
{
    (void)state;
    static const char *const yaml =
        "keyplan: 1\n"
        "name: partition attr\n"
        "table: { name: Things, pk: PK, sk: SK }\n"
        "attributes:\n"
        "  b: { type: string }\n"
        "  c: { distinct: 50 }\n"
        "entities:\n"
        "  - { name: T, count: 0, size: 300, attributes: [a, b], keys: { PK: \"A#{a}#{b}\", SK: \"T\" } }\n"
        "  - { name: U, count: 50, size: 300, attributes: [c], keys: { PK: \"C#{c}\", SK: \"U\" } }\n"
        "patterns:\n"
        "  - { id: 1, name: a T, entity: T, by: [a, b], rate: 30, latency: 20 }\n"
        "  - { id: 2, name: a U, entity: U, by: [c], rate: 3, latency: 20 }\n"
        "  - { id: 3, name: a U again, entity: U, by: [c], rate: 4, latency: 20 }\n";
    kp_design *d = ts_load_text(yaml, "partition.yaml");
    assert_non_null(d);
    kp_analysis *a = analysis_update(NULL, d, ANALYSIS_UNKNOWN);
    size_t row = 0, c = 0;
    while (strcmp(d->attrs[row].name, "b") != 0)
        row++;
    while (strcmp(edit_col_name(d, EDIT_ATTRS, c), "distinct") != 0)
        c++;
    static const char *const texts[] = {"500", "", "7"};
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        assert_int_equal(edit_set(d, EDIT_ATTRS, row, c, texts[i], NULL), KP_OK);
        a = analysis_update_row(a, d, EDIT_ATTRS, row);
        if (analysis_was_whole(a))
            fail_msg("b distinct = '%s': analysed whole, not patched", texts[i]);
        compare(d, a, "partition attr", i + 1, texts[i]);
    }
    analysis_free(a);
    design_free(d);
}

/* Note and its five patterns (ids 4 to 8), which an edit elsewhere leaves alone: they keep the
 * edits of the designs below under half the patterns (past it the analysis is made whole). */
#define NOTE_ENTITY \
    "  - { name: Note, count: 100, size: 100, attributes: [noteId], keys: { PK: \"N#{noteId}\", SK: \"N\" } }\n"
#define NOTE_PATTERNS                                                                           \
    "  - { id: 4, name: a note, entity: Note, by: [noteId], rate: 1, latency: 20 }\n"           \
    "  - { id: 5, name: a note again, entity: Note, by: [noteId], rate: 2, latency: 20 }\n"     \
    "  - { id: 6, name: a note once more, entity: Note, by: [noteId], rate: 3, latency: 20 }\n" \
    "  - { id: 7, name: a new note, kind: write, entity: Note, rate: 4 }\n"                     \
    "  - { id: 8, name: a strong note read, entity: Note, by: [noteId], consistency: strong, rate: 7 }\n"

/* One edit of an attribute's cell: the attribute, the column, the new text. */
typedef struct attr_edit {
    const char *attr, *col, *text;
} attr_edit;

/* Cell (row, col) of list tb of d set to text, the design still valid, told to
 * analysis_update_row: it must be patched in place and equal the full analysis (edit `step`,
 * `what` in the messages). */
static kp_analysis *patched_edit(kp_analysis *a, kp_design *d, const char *name, size_t step, edit_table tb,
                                 size_t row, size_t col, const char *text, const char *what)
{
    assert_int_equal(edit_set(d, tb, row, col, text, NULL), KP_OK);
    kp_diags dg;
    diags_init(&dg, name);
    if (!validate_design(d, &dg))
        fail_msg("%s: the design is not valid", what);
    diags_free(&dg);
    a = analysis_update_row(a, d, tb, row);
    if (analysis_was_whole(a))
        fail_msg("%s: analysed whole, not patched", what);
    compare(d, a, name, step, what);
    return a;
}

/* The edits made on d (taken) one after the other, each leaving it valid (patched_edit). */
static void attr_edits(kp_design *d, const char *name, const attr_edit *edits, size_t n)
{
    kp_analysis *a = analysis_update(NULL, d, ANALYSIS_UNKNOWN);
    for (size_t i = 0; i < n; i++) {
        size_t row = 0, c = 0;
        while (strcmp(d->attrs[row].name, edits[i].attr) != 0)
            row++;
        while (strcmp(edit_col_name(d, EDIT_ATTRS, c), edits[i].col) != 0)
            c++;
        char what[120];
        snprintf(what, sizeof what, "%s %s = %s", edits[i].attr, edits[i].col, edits[i].text);
        a = patched_edit(a, d, name, i + 1, EDIT_ATTRS, row, c, edits[i].text, what);
    }
    analysis_free(a);
    design_free(d);
}

/* An attribute's figures edited where the carriers' patterns need not all be resolved again
 * (only those whose entries moved, the writes, those naming it): each read that depends on the
 * attribute without naming it is one of these, and each is compared with a full analysis.
 * - clientRef's distinct values: B's items per partition change, and A's query of a customer's
 *   partition reads B's items (its recorded reads), though A neither names nor carries clientRef;
 * - status's write shares: the share of Order's writes that land on sparse GSI1 changes, so
 *   'a new order' (a write naming no attribute) writes other units, though Order's entries keep
 *   their figures (its items' share on GSI1 is the same);
 * - orderId's skew: the hottest value of O#{orderId} holds another share, and 'new orders by
 *   day' lands its fetch of the total from the table there (GSI1 projects keys only), though it
 *   names only status, day and total, and Order's items per partition value are the same.
 * The Note patterns keep each edit under half the design (past it the analysis is made whole). */
static void test_attr_readers(void **state)
{
    (void)state;
    static const char *const yaml =
        "keyplan: 1\n"
        "name: attr readers\n"
        "table: { name: Things, pk: PK, sk: SK }\n"
        "indexes:\n"
        "  - { name: GSI1, pk: GSI1PK, sk: GSI1SK, projection: keys }\n"
        "attributes:\n"
        "  customerId: { distinct: 1000 }\n"
        "  clientRef: { distinct: 500 }\n"
        "  orderId: { distinct: 100000 }\n"
        "  status: { type: enum, values: { new: 0.2, done: 0.8 }, write_shares: { new: 0.7, done: 0.3 } }\n"
        "  day: { type: date, distinct: 30 }\n"
        "entities:\n"
        "  - { name: A, count: 5000, size: 300, attributes: [customerId, x], keys: { PK: \"C#{customerId}\", SK: "
        "\"A#{x}\" } }\n"
        "  - { name: B, count: 90000, size: 500, attributes: [clientRef, y], keys: { PK: \"C#{clientRef}\", SK: "
        "\"{y}\" } }\n"
        "  - name: Order\n"
        "    count: 100000\n"
        "    size: 800\n"
        "    attributes: [orderId, status, day, total]\n"
        "    keys: { PK: \"O#{orderId}\", SK: \"O\", GSI1PK: \"S#{status}\", GSI1SK: \"{day}\" }\n"
        "    sparse: { GSI1PK: \"status in [new]\" }\n" NOTE_ENTITY "patterns:\n"
        "  - { id: 1, name: a customer's A, entity: A, by: [customerId], rate: 300, latency: 20 }\n"
        "  - { id: 2, name: new orders by day, entity: Order, by: [\"status=new\"], order: day desc, returns: "
        "[total], rate: 50, latency: 50 }\n"
        "  - { id: 3, name: a new order, kind: write, entity: Order, rate: 90 }\n" NOTE_PATTERNS;
    kp_design *d = ts_load_text(yaml, "readers.yaml");
    assert_non_null(d);
    static const attr_edit edits[] = {{"clientRef", "distinct", "5"},
                                      {"status", "values", "new: 0.2/0.1, done: 0.8/0.9"},
                                      {"orderId", "skew", "zipf:1.2"},
                                      {"clientRef", "distinct", "50000"},
                                      {"orderId", "skew", ""}};
    attr_edits(d, "attr readers", edits, sizeof edits / sizeof *edits);
}

/* An attribute's type or values edited (more than its figures): the values its placeholder takes
 * change, so the carriers' templates meet others' differently; patched in place, each compared
 * with a full analysis.
 * - x's values a, b become 7a, b: E's partitions I#{x} now meet F's I#7{z}, and F's query (its
 *   sort key a bare placeholder: the whole partition) reads E's items, though F neither names
 *   nor carries x: F is E's neighbour after the edit;
 * - z a number: I#7{z} no longer meets I#7a, and E's query no longer reads F's items: E was the
 *   neighbour of z's carrier F before the edit; z a string again: after;
 * - x's values back to a, b: F was E's neighbour before;
 * - status gains a value: Order's share on the sparse GSI1 ("status != done") grows, and so do
 *   the index writes of 'a new order' (the capacity memo's row of a carrier forgotten).
 * The Note patterns keep each edit under half the design (past it the analysis is made whole). */
static void test_attr_domains(void **state)
{
    (void)state;
    static const char *const yaml =
        "keyplan: 1\n"
        "name: attr domains\n"
        "table: { name: Things, pk: PK, sk: SK }\n"
        "indexes:\n"
        "  - { name: GSI1, pk: GSI1PK, sk: GSI1SK, projection: keys }\n"
        "attributes:\n"
        "  x: { type: enum, values: { a: 0.5, b: 0.5 } }\n"
        "  z: { distinct: 1000 }\n"
        "  w: { distinct: 1000 }\n"
        "  status: { type: enum, values: { new: 0.2, done: 0.8 } }\n"
        "entities:\n"
        "  - { name: E, count: 90000, size: 4000, attributes: [x, w], keys: { PK: \"I#{x}\", SK: \"E#{w}\" } }\n"
        "  - { name: F, count: 1000, size: 300, attributes: [z, v], keys: { PK: \"I#7{z}\", SK: \"{v}\" } }\n"
        "  - name: Order\n"
        "    count: 100000\n"
        "    size: 800\n"
        "    attributes: [orderId, status, day]\n"
        "    keys: { PK: \"O#{orderId}\", SK: \"O\", GSI1PK: \"S#{status}\", GSI1SK: \"{day}\" }\n"
        "    sparse: { GSI1PK: \"status != done\" }\n" NOTE_ENTITY "patterns:\n"
        "  - { id: 1, name: an F, entity: F, by: [z], rate: 300, latency: 20 }\n"
        "  - { id: 2, name: an x's E, entity: E, by: [x], rate: 30, latency: 20 }\n"
        "  - { id: 3, name: a new order, kind: write, entity: Order, rate: 90 }\n" NOTE_PATTERNS;
    kp_design *d = ts_load_text(yaml, "domains.yaml");
    assert_non_null(d);
    static const attr_edit edits[] = {{"x", "values", "7a: 0.5, b: 0.5"},
                                      {"z", "type", "number"},
                                      {"z", "type", "string"},
                                      {"x", "values", "a: 0.5, b: 0.5"},
                                      {"status", "values", "new: 0.2, done: 0.5, lost: 0.3"}};
    attr_edits(d, "attr domains", edits, sizeof edits / sizeof *edits);
}

/* Partition-key templates edited where each entity has its rows alone, so heat's rows take the
 * new templates in place (stage_heat_rekey), else heat is made anew; each compared with a full
 * analysis.
 * - E's "A#{x}" made "B#{x}": a row of its own still, whose skeleton "B#{}" now is F's "B#{y}"'s:
 *   the two rows make one family (their hottest values add up on the table's figures);
 * - G's "C#{z}" made "B#{x}", E's new template: one row for both (heat anew), which only a map
 *   of the rows' templates made again after the first edit knows;
 * - G back to "C#{z}", E back to "A#{x}". */
static void test_keys_rekey(void **state)
{
    (void)state;
    static const char *const yaml =
        "keyplan: 1\n"
        "name: rekey\n"
        "table: { name: Things, pk: PK, sk: SK }\n"
        "attributes:\n"
        "  x: { distinct: 1000 }\n"
        "  y: { distinct: 40, skew: \"zipf:1.2\" }\n"
        "  z: { distinct: 5 }\n"
        "entities:\n"
        "  - { name: E, count: 50000, size: 400, attributes: [x], keys: { PK: \"A#{x}\", SK: \"E\" } }\n"
        "  - { name: F, count: 9000, size: 300, attributes: [y], keys: { PK: \"B#{y}\", SK: \"F\" } }\n"
        "  - { name: G, count: 70, size: 100, attributes: [z, x], keys: { PK: \"C#{z}\", SK: \"G\" } }\n" NOTE_ENTITY
        "patterns:\n"
        "  - { id: 1, name: an E, entity: E, by: [x], rate: 300, latency: 20 }\n"
        "  - { id: 2, name: an F, entity: F, by: [y], rate: 30, latency: 20 }\n"
        "  - { id: 3, name: a G, entity: G, by: [z], rate: 3, latency: 20 }\n" NOTE_PATTERNS;
    kp_design *d = ts_load_text(yaml, "rekey.yaml");
    assert_non_null(d);
    kp_analysis *a = analysis_update(NULL, d, ANALYSIS_UNKNOWN);
    static const struct {
        size_t entity;
        const char *pk;
    } edits[] = {{0, "B#{x}"}, {2, "B#{x}"}, {2, "C#{z}"}, {0, "A#{x}"}};
    for (size_t i = 0; i < sizeof edits / sizeof *edits; i++) {
        char what[80];
        snprintf(what, sizeof what, "%s PK = %s", d->entities[edits[i].entity].name, edits[i].pk);
        a = patched_edit(a, d, "rekey", i + 1, EDIT_KEYS, edits[i].entity, 1, edits[i].pk, what);
    }
    analysis_free(a);
    design_free(d);
}

/* After a step of the attributes' list at row `at`: edits that make the analysis look attributes
 * up again by name, each told as the workbench tells it and compared: the distinct values of the
 * first attribute past `at` that an entity carries (heat's value classes, the carriers' capacity
 * figures, the findings and the checklist read it again), then the count of that entity. */
static kp_analysis *read_attrs_again(kp_analysis *a, kp_design *d, const char *name, size_t *step, size_t at)
{
    for (size_t r = at; r < d->nattrs; r++)
        for (size_t e = 0; e < d->nentities; e++)
            for (size_t k = 0; k < d->entities[e].nattrs; k++) {
                kp_attr *x = &d->attrs[r];
                if (!d->entities[e].attrs[k].s || strcmp(d->entities[e].attrs[k].s, x->name) != 0)
                    continue;
                char what[120];
                x->distinct = isnan(x->distinct) ? 77 : x->distinct * 2 + 1;
                snprintf(what, sizeof what, "attribute %s's distinct values", x->name);
                a = analysis_update_row(a, d, EDIT_ATTRS, r);
                compare(d, a, name, ++*step, what);
                kp_entity *en = &d->entities[e];
                en->count = isnan(en->count) ? 1000 : en->count + 7;
                snprintf(what, sizeof what, "entity %s's count", en->name);
                a = analysis_update_row(a, d, EDIT_ENTITIES, e);
                compare(d, a, name, ++*step, what);
                return a;
            }
    return a;
}

/* Steps of the attributes' list told to analysis_update_attr_rows, on each sample and on the
 * generated design: a new attribute added (named by keyplan: read by nothing) after each row in
 * turn and deleted again, one duplicated (its copy read by nothing) and deleted, each patched in
 * place; then one that entities carry deleted (its placeholders lose their distribution) and put
 * back, and one moved: analysed whole. Each compared with the full analysis. */
/* Every entity renamed and renamed back, as the Keys screen does: each result equals a whole
 * analysis, and is patched where the patterns to resolve again are not most of the design. */
static void test_entity_rename(void **state)
{
    (void)state;
    size_t patched_steps = 0, steps = 0;
    for (size_t i = 0; i <= NSAMPLES; i++) {
        const char *name;
        kp_design *d = sample_or_generated(i, 300, &name);
        kp_analysis *a = analysis_update(NULL, d, ANALYSIS_UNKNOWN);
        size_t step = 0;
        for (size_t e = 0; e<d->nentities; e += d->nentities> 24 ? d->nentities / 12 : 1) {
            char *old = xstrdup(d->entities[e].name), *now = xasprintf("%s_línea", old);
            const char *to[2] = {now, old};
            for (int k = 0; k < 2; k++) {
                char what[160];
                snprintf(what, sizeof what, "entity %zu renamed '%s'", e, to[k]);
                assert_int_equal(edit_set(d, EDIT_KEYS, e, 0, to[k], NULL), KP_OK);
                a = analysis_update_entity_name(a, d, e);
                compare(d, a, name, ++step, what);
                patched_steps += !analysis_was_whole(a);
                steps++;
            }
            free(old);
            free(now);
        }
        /* told a rename where more changed: still the right analysis (compared) */
        if (d->nentities > 1) {
            d->entities[1].count += 7;
            a = analysis_update_entity_name(a, d, 1);
            assert_true(analysis_was_whole(a));
            compare(d, a, name, ++step, "a count told as a rename");
        }
        analysis_free(a);
        design_free(d);
    }
    /* the generated design's entities each have patterns of their own: those renames are patched */
    if (patched_steps * 2 < steps)
        fail_msg("%zu of %zu renames patched", patched_steps, steps);
}

/* Every pattern's id (of the samples, of a generated design) changed and changed back: the
 * analysis told so equals the full one each time, and is patched, not made whole; the patterns
 * a decision or a covered_by names among them. */
static void test_pattern_id_rename(void **state)
{
    (void)state;
    size_t steps = 0, patched_steps = 0, named = 0, covered = 0;
    for (size_t i = 0; i <= NSAMPLES; i++) {
        const char *name;
        kp_design *d = sample_or_generated(i, 300, &name);
        int col = edit_col_find(d, EDIT_PATTERNS, "id");
        assert_true(col >= 0);
        kp_analysis *a = analysis_update(NULL, d, ANALYSIS_UNKNOWN);
        size_t step = 0;
        for (size_t r = 0; r<d->npatterns; r += d->npatterns> 40 ? d->npatterns / 20 : 1) {
            char *old = xstrdup(d->patterns[r].id), *now = xasprintf("%s_línea", old);
            for (size_t j = 0; j < d->npatterns; j++)
                covered += d->patterns[j].covered_by.s && strcmp(d->patterns[j].covered_by.s, old) == 0;
            for (size_t k = 0; k < d->ndecisions; k++)
                for (size_t j = 0; j < d->decisions[k].npatterns; j++)
                    named += d->decisions[k].patterns[j].s && strcmp(d->decisions[k].patterns[j].s, old) == 0;
            const char *to[2] = {now, old};
            for (int k = 0; k < 2; k++) {
                char what[160];
                snprintf(what, sizeof what, "pattern %zu's id '%s'", r, to[k]);
                assert_int_equal(edit_set(d, EDIT_PATTERNS, r, (size_t)col, to[k], NULL), KP_OK);
                a = analysis_update_pattern_id(a, d, r);
                compare(d, a, name, ++step, what);
                patched_steps += !analysis_was_whole(a);
                steps++;
            }
            free(old);
            free(now);
        }
        analysis_free(a);
        design_free(d);
    }
    if (patched_steps < steps)
        fail_msg("%zu of %zu id changes patched", patched_steps, steps);
    if (!named || !covered)
        fail_msg("ids named by decisions: %zu, by covered_by: %zu; expected some of each", named, covered);
}

static void test_attr_rows(void **state)
{
    (void)state;
    size_t patched_steps = 0;
    for (size_t i = 0; i <= NSAMPLES; i++) {
        const char *name;
        kp_design *d = sample_or_generated(i, 300, &name);
        kp_analysis *a = analysis_update(NULL, d, ANALYSIS_UNKNOWN);
        size_t step = 0;
        char what[120];
        for (size_t r = 0; r <= d->nattrs; r += d->nattrs > 16 ? d->nattrs / 8 : 2) {
            size_t at = edit_add(d, EDIT_ATTRS, r);
            assert_true(at != (size_t)-1);
            snprintf(what, sizeof what, "attribute %s added at %zu", d->attrs[at].name, at);
            a = analysis_update_attr_rows(a, d, (kp_rowop){KP_ROW_INSERT, at, 0});
            if (analysis_was_whole(a))
                fail_msg("%s, %s: analysed whole, not patched", name, what);
            compare(d, a, name, ++step, what);
            a = read_attrs_again(a, d, name, &step, at + 1);
            snprintf(what, sizeof what, "attribute %s deleted", d->attrs[at].name);
            assert_true(edit_delete(d, EDIT_ATTRS, at));
            a = analysis_update_attr_rows(a, d, (kp_rowop){KP_ROW_REMOVE, at, 0});
            if (analysis_was_whole(a))
                fail_msg("%s, %s: analysed whole, not patched", name, what);
            compare(d, a, name, ++step, what);
            a = read_attrs_again(a, d, name, &step, at);
            patched_steps += 2;
        }
        size_t dup = edit_duplicate(d, EDIT_ATTRS, 0);
        assert_true(dup != (size_t)-1);
        snprintf(what, sizeof what, "attribute %s duplicated", d->attrs[0].name);
        a = analysis_update_attr_rows(a, d, (kp_rowop){KP_ROW_INSERT, dup, 0});
        assert_false(analysis_was_whole(a));
        compare(d, a, name, ++step, what);
        assert_true(edit_delete(d, EDIT_ATTRS, dup));
        a = analysis_update_attr_rows(a, d, (kp_rowop){KP_ROW_REMOVE, dup, 0});
        compare(d, a, name, ++step, "its copy deleted");
        /* one that is read: deleted and put back, whole */
        kp_attr keep = d->attrs[0];
        fields_clone(&kp_rec_attr, &keep, &d->attrs[0]);
        assert_true(edit_delete(d, EDIT_ATTRS, 0));
        kp_diags dg;
        diags_init(&dg, name);
        bool valid = validate_design(d, &dg);
        diags_free(&dg);
        if (valid) {
            a = analysis_update_attr_rows(a, d, (kp_rowop){KP_ROW_REMOVE, 0, 0});
            assert_true(analysis_was_whole(a));
            compare(d, a, name, ++step, "the first attribute deleted");
        }
        d->attrs = xrealloc(d->attrs, (d->nattrs + 1) * sizeof *d->attrs);
        kp_rowop back = {KP_ROW_INSERT, 0, 0};
        kp_rowop_shift(d->attrs, d->nattrs, sizeof *d->attrs, back);
        d->attrs[0] = keep;
        d->nattrs++;
        a = valid ? analysis_update_attr_rows(a, d, back) : analysis_update(a, d, ANALYSIS_UNKNOWN);
        compare(d, a, name, ++step, "the first attribute put back");
        assert_true(edit_move(d, EDIT_ATTRS, 0, +1));
        a = analysis_update_attr_rows(a, d, (kp_rowop){KP_ROW_MOVE, 0, 1});
        assert_true(analysis_was_whole(a));
        compare(d, a, name, ++step, "the first attribute moved down");
        analysis_free(a);
        design_free(d);
    }
    if (patched_steps < 20)
        fail_msg("only %zu steps patched in place", patched_steps);
}

/* d with op made on its indexes, as a copy (an index copied from its neighbour for an insertion),
 * and that design's valid rest (validate_salvage: the templates a deleted index leaves without a
 * key left out, the signals naming it); NULL when none. */
static kp_design *index_step_rest(const kp_design *d, kp_rowop op)
{
    kp_design *c = design_clone(d);
    kp_index x = {0}, out = {0};
    if (op.kind == KP_ROW_INSERT) {
        x = d->indexes[op.row ? op.row - 1 : 0];
        fields_clone(&kp_rec_index, &x, &x);
        free(x.name);
        x.name = xasprintf("GSI_copy%zu", op.row);
    }
    assert_true(edit_rows_step(c, EDIT_INDEXES, op, &x, &out));
    if (op.kind == KP_ROW_REMOVE)
        fields_free(&kp_rec_index, &out);
    salvage_drops s = {0};
    kp_design *rest = validate_salvage(c, &s);
    salvage_drops_free(&s);
    design_free(c);
    return rest;
}

/* Key attributes renamed (the templates keyed on them following) and renamed back, each told to
 * analysis_update_keys as the workbench does after such an edit in place: each index's and the
 * table's, on each sample and the generated design; each result equals the full analysis, and
 * most of an index's are patched in place. */
static void test_told_keys(void **state)
{
    (void)state;
    size_t steps = 0, patched_steps = 0;
    for (size_t i = 0; i <= NSAMPLES; i++) {
        const char *name;
        kp_design *d = sample_or_generated(i, 300, &name);
        kp_analysis *a = analysis_update(NULL, d, ANALYSIS_UNKNOWN);
        size_t step = 0;
        for (size_t r = 0; r <= d->nindexes; r += d->nindexes > 6 ? d->nindexes / 5 : 1) {
            bool table = r == d->nindexes;
            edit_table t = table ? EDIT_SETTINGS : EDIT_INDEXES;
            size_t row = table ? (size_t)edit_setting_find("pk") : r, col = table ? 1 : 0;
            if (!table)
                col = (size_t)edit_col_find(d, EDIT_INDEXES, r % 2 ? "sk" : "pk");
            char *old = edit_get(d, t, row, col), *now = xasprintf("%s_línea", old);
            if (!*old) { /* an index without a sort key */
                free(old);
                free(now);
                continue;
            }
            const char *to[2] = {now, old};
            for (int k = 0; k < 2; k++) {
                char what[160];
                snprintf(what, sizeof what, "%s %zu's key renamed '%s'", table ? "the table" : "index", r,
                         to[k]);
                assert_int_equal(edit_set(d, t, row, col, to[k], NULL), KP_OK);
                a = analysis_update_keys(a, d, t, row);
                compare(d, a, name, ++step, what);
                steps++;
                patched_steps += !analysis_was_whole(a);
            }
            free(old);
            free(now);
        }
        analysis_free(a);
        design_free(d);
    }
    /* an index's keys that few patterns read are patched in place (the table's are read by all) */
    if (steps < 20 || patched_steps * 2 < steps)
        fail_msg("%zu key renames told, %zu patched in place", steps, patched_steps);
}

static size_t templates(const kp_design *d)
{
    size_t n = 0;
    for (size_t e = 0; e < d->nentities; e++)
        n += d->entities[e].nkeys;
    return n;
}

/* Steps of the indexes' list told to analysis_update_index_rows, on each sample and on the
 * generated design: each index deleted (its valid rest: the templates on its keys and the signals
 * naming it left out) and put back, one copied in and deleted again, the first moved down and
 * back; each compared with the full analysis, the analysis' own copy taking the step. */
static void test_index_rows(void **state)
{
    (void)state;
    size_t steps = 0, dropped = 0;
    for (size_t i = 0; i <= NSAMPLES; i++) {
        const char *name;
        kp_design *d = sample_or_generated(i, 300, &name);
        kp_analysis *a = analysis_update(NULL, d, ANALYSIS_UNKNOWN);
        size_t step = 0, n = d->nindexes;
        char what[120];
        for (size_t r = 0; r<n; r += n> 6 ? n / 5 : 1) {
            kp_rowop del = {KP_ROW_REMOVE, r, 0};
            kp_design *rest = index_step_rest(d, del);
            if (!rest)
                continue;
            dropped += templates(rest) < templates(d);
            snprintf(what, sizeof what, "index %s deleted", d->indexes[r].name);
            a = analysis_update_index_rows(a, rest, del);
            compare(rest, a, name, ++step, what);
            a = analysis_update_index_rows(a, d, kp_rowop_inverse(del));
            compare(d, a, name, ++step, "and put back");
            design_free(rest);
            steps += 2;
        }
        kp_rowop ins = {KP_ROW_INSERT, n, 0}, mv = {KP_ROW_MOVE, 0, n > 1 ? 1 : 0};
        const kp_rowop ops[] = {mv, kp_rowop_inverse(mv), ins, kp_rowop_inverse(ins)};
        const char *const whats[] = {"the first moved down", "and back", "an index copied in", "and deleted"};
        kp_design *now = design_clone(d);
        for (size_t k = 0; k < (n < 20 ? 4 : 2) && n; k++) { /* DynamoDB's 20 GSIs at most */
            kp_design *next = index_step_rest(now, ops[k]);
            if (!next)
                fail_msg("%s: %s leaves no valid rest", name, whats[k]);
            a = analysis_update_index_rows(a, next, ops[k]);
            compare(next, a, name, ++step, whats[k]);
            design_free(now);
            now = next;
            steps++;
        }
        assert_true(design_equal(now, d));
        design_free(now);
        analysis_free(a);
        design_free(d);
    }
    if (steps < 20 || !dropped)
        fail_msg("%zu steps, %zu deletions leaving templates out", steps, dropped);
}

/* An attribute added before a shard suffix of the table's partition key: the checklist finds a
 * query that leaves the suffix out still binding the key (the application enumerates a shard's
 * values) only by looking `shard` up where it now is, after T's patterns are resolved again. */
static void test_attr_rows_shard(void **state)
{
    (void)state;
    static const char *const yaml =
        "keyplan: 1\n"
        "name: shards\n"
        "table: { name: Things, pk: PK, sk: SK }\n"
        "attributes:\n"
        "  tenant: { distinct: 300 }\n"
        "  shard: { type: shard, count: 4 }\n"
        "entities:\n"
        "  - { name: T, count: 9000, size: 300, attributes: [tenant, shard, t], keys: { PK: "
        "\"T#{tenant}#{shard}\", SK: \"{t}\" } }\n" NOTE_ENTITY "patterns:\n"
        "  - { id: 1, name: a tenant's T, entity: T, by: [tenant], rate: 30, latency: 50 }\n"
        "  - { id: 2, name: a T, entity: T, by: [tenant, shard, t], rate: 3, latency: 50 }\n"
        "  - { id: 3, name: a new T, kind: write, entity: T, rate: 9 }\n" NOTE_PATTERNS;
    kp_design *d = ts_load_text(yaml, "shards.yaml");
    assert_non_null(d);
    kp_analysis *a = analysis_update(NULL, d, ANALYSIS_UNKNOWN);
    size_t at = edit_add(d, EDIT_ATTRS, 0), step = 1;
    a = analysis_update_attr_rows(a, d, (kp_rowop){KP_ROW_INSERT, at, 0});
    assert_false(analysis_was_whole(a));
    compare(d, a, "shards", step, "an attribute added first");
    a = read_attrs_again(a, d, "shards", &step, at + 1);
    assert_true(step == 3); /* tenant's distinct values, T's count */
    analysis_free(a);
    design_free(d);
}

/* design_attr_step finds the step between two designs whose attributes' lists differ by one
 * attribute alone (an undo or a redo of such a step, as the workbench sees it), and nothing when
 * anything else differs too. */
static void test_attr_step_found(void **state)
{
    (void)state;
    kp_design *d = ts_load_file("samples/cloudshop/design.yaml");
    assert_non_null(d);
    kp_design *e = design_clone(d);
    kp_rowop op;
    assert_false(design_attr_step(d, e, &op)); /* the same lists */
    size_t at = edit_add(e, EDIT_ATTRS, 3);
    assert_true(design_attr_step(d, e, &op));
    assert_int_equal(op.kind, KP_ROW_INSERT);
    assert_int_equal(op.row, at);
    assert_true(design_attr_step(e, d, &op));
    assert_int_equal(op.kind, KP_ROW_REMOVE);
    assert_int_equal(op.row, at);
    size_t last = edit_add(e, EDIT_ATTRS, e->nattrs); /* two apart */
    assert_false(design_attr_step(d, e, &op));
    assert_true(edit_delete(e, EDIT_ATTRS, last));
    e->entities[0].count += 1; /* one apart, and an entity's count */
    assert_false(design_attr_step(d, e, &op));
    e->entities[0].count -= 1;
    e->attrs[0].distinct += 1; /* one apart, and another attribute's figure */
    assert_false(design_attr_step(d, e, &op));
    design_free(e);
    design_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_told_row),         cmocka_unit_test(test_told_rows),
        cmocka_unit_test(test_told_rest),        cmocka_unit_test(test_told_elements),
        cmocka_unit_test(test_samples),          cmocka_unit_test(test_generated),
        cmocka_unit_test(test_figures_in_place), cmocka_unit_test(test_keys_in_place),
        cmocka_unit_test(test_keys_domains),     cmocka_unit_test(test_partition_attr),
        cmocka_unit_test(test_attr_readers),     cmocka_unit_test(test_attr_domains),
        cmocka_unit_test(test_keys_rekey),       cmocka_unit_test(test_attr_rows),
        cmocka_unit_test(test_index_rows),       cmocka_unit_test(test_told_keys),
        cmocka_unit_test(test_entity_rename),    cmocka_unit_test(test_pattern_id_rename),
        cmocka_unit_test(test_attr_rows_shard),  cmocka_unit_test(test_attr_step_found),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
