/* test_fields.c - every field of every record (model/fields.h) survives each consumer: the
 * fixture sets each one, and they all come back through YAML save and load, the editor's cells,
 * the CSV pattern table and clone; equality notices a change in any of them. A field added to a
 * table but missing from a consumer fails here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "csvio.h"
#include "design_io.h"
#include "edit.h"
#include "fields.h"
#include "support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static kp_design *fixture(void)
{
    kp_design *d = ts_load_file("tests/data/fields/every-field.yaml");
    assert_non_null(d);
    return d;
}

/* ---- walking the records of a design ---------------------------------------------------- */

typedef bool (*visit_fn)(const kp_record *rec, void *elem, void *ctx);

/* Calls fn on every record instance under (rec, r), the record first; stops when fn returns
 * true and returns true then. */
static bool walk(const kp_record *rec, void *r, visit_fn fn, void *ctx)
{
    if (fn(rec, r, ctx))
        return true;
    for (size_t i = 0; i < rec->n; i++) {
        const kp_field *f = &rec->f[i];
        if (f->kind == KF_REC && walk(f->sub, kp_fptr(r, f), fn, ctx))
            return true;
        if (f->kind == KF_RECS) {
            char *v = *(char **)kp_fptr(r, f);
            for (size_t k = 0; k < kp_fcount(r, f); k++)
                if (walk(f->sub, v + k * f->sub->size, fn, ctx))
                    return true;
        }
    }
    return false;
}

/* true when the field holds something other than its default. */
static bool is_set(const kp_field *f, const void *r)
{
    const void *p = kp_fcptr(r, f);
    switch (f->kind) {
    case KF_TEXT:
        return *(char *const *)p != NULL;
    case KF_REF:
        return ((const kp_str *)p)->s != NULL;
    case KF_NUM:
        return !isnan(*(const double *)p) && *(const double *)p != 0;
    case KF_INT:
        return *(const int *)p > 0;
    case KF_ENUM:
        return *(const int *)p != 0;
    case KF_TRI:
        return *(const int *)p != KP_UNSET;
    case KF_FLAG:
        return *(const bool *)p;
    case KF_REFS:
    case KF_TEXTS:
    case KF_RECS:
        return kp_fcount(r, f) > 0;
    case KF_TPL:
        return ((const tpl *)p)->src != NULL;
    case KF_REC:
        return true;
    case KF_VIRTUAL:
        return true;
    }
    return false;
}

typedef struct coverage {
    const kp_record *rec;
    bool seen[64];
    bool any;
} coverage;

static bool cover(const kp_record *rec, void *r, void *ctx)
{
    coverage *c = ctx;
    if (rec != c->rec)
        return false;
    c->any = true;
    for (size_t i = 0; i < rec->n; i++)
        c->seen[i] |= is_set(&rec->f[i], r);
    return false;
}

/* The fixture gives every field of every record a value other than its default. */
static void test_fixture_sets_every_field(void **state)
{
    (void)state;
    kp_design *d = fixture();
    for (size_t k = 0; k < kp_nrecords; k++) {
        coverage c = {.rec = kp_records[k]};
        assert_true(c.rec->n <= 64);
        walk(&kp_rec_design, d, cover, &c);
        if (!c.any)
            fail_msg("no %s in the fixture", c.rec->name);
        for (size_t i = 0; i < c.rec->n; i++)
            if (!c.seen[i])
                fail_msg("the fixture never sets %s.%s (or the loader does not read it)", c.rec->name,
                         c.rec->f[i].key);
    }
    design_free(d);
}

/* ---- equality notices every field --------------------------------------------------------- */

typedef struct finder {
    const kp_record *rec;
    size_t field;
    void *found;
} finder;

static bool find_set(const kp_record *rec, void *r, void *ctx)
{
    finder *f = ctx;
    if (rec != f->rec || !is_set(&rec->f[f->field], r))
        return false;
    f->found = r;
    return true;
}

/* Changes the field in place (it is set: lists lose their last element). */
static void mutate(const kp_field *f, void *r)
{
    void *p = kp_fptr(r, f);
    switch (f->kind) {
    case KF_TEXT:
        free(*(char **)p);
        *(char **)p = xstrdup("changed");
        break;
    case KF_REF:
        free(((kp_str *)p)->s);
        ((kp_str *)p)->s = xstrdup("changed");
        break;
    case KF_NUM:
        *(double *)p += 1;
        break;
    case KF_INT:
        *(int *)p += 1;
        break;
    case KF_ENUM:
        *(int *)p = *(int *)p ? 0 : 1;
        break;
    case KF_TRI:
        *(int *)p = KP_UNSET;
        break;
    case KF_FLAG:
        *(bool *)p = false;
        break;
    case KF_TPL:
        free(((tpl *)p)->src);
        ((tpl *)p)->src = xstrdup("changed");
        break;
    case KF_REFS:
    case KF_TEXTS:
    case KF_RECS: {
        size_t *n = (size_t *)((char *)r + f->count_off);
        char *v = *(char **)p;
        (*n)--;
        if (f->kind == KF_REFS)
            free(((kp_str *)v)[*n].s);
        else if (f->kind == KF_TEXTS)
            free(((char **)v)[*n]);
        else
            fields_free(f->sub, v + *n * f->sub->size);
        break;
    }
    default:
        break;
    }
}

static void test_clone_and_equal_cover_every_field(void **state)
{
    (void)state;
    kp_design *d = fixture();
    kp_design *c = design_clone(d);
    assert_true(design_equal(d, c));
    design_free(c);
    for (size_t k = 0; k < kp_nrecords; k++) {
        const kp_record *rec = kp_records[k];
        for (size_t i = 0; i < rec->n; i++) {
            const kp_field *f = &rec->f[i];
            if (f->kind == KF_REC || f->kind == KF_VIRTUAL)
                continue;
            c = design_clone(d);
            finder fd = {rec, i, NULL};
            walk(&kp_rec_design, c, find_set, &fd);
            assert_non_null(fd.found);
            mutate(f, fd.found);
            if ((f->flags & KP_F_NOEQ) ? !design_equal(d, c) : design_equal(d, c))
                fail_msg("design_equal %s a change of %s.%s", (f->flags & KP_F_NOEQ) ? "notices" : "misses",
                         rec->name, f->key);
            design_free(c);
        }
    }
    design_free(d);
}

/* ---- YAML --------------------------------------------------------------------------------- */

static void test_yaml_round_trip(void **state)
{
    (void)state;
    kp_design *d = fixture();
    char *text = designio_save(d, NULL);
    kp_design *e = ts_load_text(text, "saved.yaml");
    assert_non_null(e);
    assert_true(design_equal(d, e));
    char *again = designio_save(e, NULL);
    assert_string_equal(text, again);
    free(text);
    free(again);
    design_free(e);
    design_free(d);
}

/* ---- cells -------------------------------------------------------------------------------- */

static const struct {
    edit_table table;
    const kp_record *rec;
} cell_tables[] = {
    {EDIT_PATTERNS, &kp_rec_pattern}, {EDIT_ENTITIES, &kp_rec_entity},    {EDIT_INDEXES, &kp_rec_index},
    {EDIT_ATTRS, &kp_rec_attr},       {EDIT_DECISIONS, &kp_rec_decision},
};

/* The editor's columns are the fields with a cell, named by their keys, in cell order; the
 * settings rows are those of the design, the table and the pricing. */
static void test_cells_are_the_fields(void **state)
{
    (void)state;
    for (size_t t = 0; t < sizeof cell_tables / sizeof *cell_tables; t++) {
        const kp_record *rec = cell_tables[t].rec;
        size_t shown = 0;
        for (size_t i = 0; i < rec->n; i++) {
            if (rec->f[i].cell < 0)
                continue;
            shown++;
            assert_string_equal(edit_col_name(NULL, cell_tables[t].table, (size_t)rec->f[i].cell),
                                rec->f[i].key);
            assert_string_equal(edit_col_hint(NULL, cell_tables[t].table, (size_t)rec->f[i].cell),
                                rec->f[i].hint);
        }
        assert_int_equal(shown, edit_ncols(NULL, cell_tables[t].table));
    }
    const kp_record *settings[] = {&kp_rec_design, &kp_rec_table, &kp_rec_pricing};
    for (size_t r = 0; r < 3; r++)
        for (size_t i = 0; i < settings[r]->n; i++) {
            const kp_field *f = &settings[r]->f[i];
            if (f->cell < 0)
                continue;
            const char *row = settings[r] == &kp_rec_table && i == FT_NAME ? "table" : f->key;
            assert_int_equal(edit_setting_find(row), f->cell);
        }
}

/* Sets every cell to what it reads; each reads the same text afterwards. */
static void set_every_cell(kp_design *d)
{
    for (int t = 0; t < EDIT__TABLES; t++) {
        size_t rows = edit_nrows(d, (edit_table)t), cols = edit_ncols(d, (edit_table)t);
        for (size_t r = 0; r < rows; r++)
            for (size_t c = 0; c < cols; c++) {
                char *text = edit_get(d, (edit_table)t, r, c);
                char *err = NULL;
                bool ok = edit_set(d, (edit_table)t, r, c, text, &err) == KP_OK;
                if (t == EDIT_SETTINGS && c == 0) {
                    assert_false(ok);
                    free(err);
                } else if (!ok) {
                    fail_msg("%s row %zu column %s: '%s' is refused (%s)", edit_table_name((edit_table)t), r,
                             edit_col_name(d, (edit_table)t, c), text, err);
                }
                char *back = edit_get(d, (edit_table)t, r, c);
                if (strcmp(text, back))
                    fail_msg("%s row %zu column %s: '%s' reads back as '%s'", edit_table_name((edit_table)t),
                             r, edit_col_name(d, (edit_table)t, c), text, back);
                free(back);
                free(text);
            }
    }
}

/* Setting every cell to what it reads keeps its text, and once the values the editor derives
 * have settled (an enum's distinct count, a pattern's consistency said explicitly), it changes
 * nothing at all. */
static void test_cells_round_trip(void **state)
{
    (void)state;
    kp_design *d = fixture();
    set_every_cell(d);
    kp_design *settled = design_clone(d);
    set_every_cell(d);
    assert_true(design_equal(settled, d));
    design_free(settled);
    design_free(d);
}

/* ---- CSV ---------------------------------------------------------------------------------- */

static void test_csv_round_trip(void **state)
{
    (void)state;
    kp_design *d = fixture();
    char *err = NULL;
    char *csv = csvio_export(d, &err);
    assert_non_null(csv);
    kp_diags dg;
    diags_init(&dg, "patterns.csv");
    kp_pattern *p = NULL;
    size_t n = 0;
    assert_int_equal(csvio_read_patterns(csv, strlen(csv), "patterns.csv", &dg, &p, &n), KP_OK);
    assert_int_equal(n, d->npatterns);
    for (size_t i = 0; i < n; i++) {
        if (!fields_equal(&kp_rec_pattern, &d->patterns[i], &p[i]))
            fail_msg("pattern %s does not come back from CSV:\n%s", d->patterns[i].id, csv);
        pattern_free(&p[i]);
    }
    free(p);
    diags_free(&dg);
    free(csv);
    design_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture_sets_every_field),
        cmocka_unit_test(test_clone_and_equal_cover_every_field),
        cmocka_unit_test(test_yaml_round_trip),
        cmocka_unit_test(test_cells_are_the_fields),
        cmocka_unit_test(test_cells_round_trip),
        cmocka_unit_test(test_csv_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
