/* wb_salvage.c - one error no longer freezes the model: when the working copy does not
 * validate, the workbench analyses its valid rest (model/salvage.h) and marks each place left out
 * with ! in its cell, its reason in the pane. */
#include "wb_int.h"

#include "salvage.h"

#include <stdlib.h>

/* The screen and column that show cell (t, column `name`); the row's first column when no
 * column shows it (a template for a key attribute that no longer exists). false when no screen
 * lists the table. */
static bool cell_place(wb *w, const kp_design *d, edit_table t, const char *name, int *screen, size_t *col)
{
    int ecol = name ? edit_col_find(d, t, name) : -1;
    for (int i = 0; i < UI_SCREEN__COUNT; i++) {
        screen_env e = wb_env(w, i);
        if (!e.ops->is_table)
            continue;
        size_t n = 0;
        screen_col *c = screen_columns(&e, &n);
        bool found = false;
        *col = 0;
        for (size_t k = 0; k < n; k++)
            if (c[k].table == (int)t) {
                if (!found)
                    *col = k;
                found = true;
                if (ecol >= 0 && c[k].col == (size_t)ecol) {
                    *col = k;
                    break;
                }
            }
        free(c);
        if (found) {
            *screen = i;
            return true;
        }
    }
    return false;
}

/* Where w->diags' errors are, by the validation memo's segments of d's patterns: some among the
 * patterns' own (*any), some among the checks before them (*model: the table, the indexes, the
 * entities, the attributes), and all of them pattern `row`'s (the return). */
static bool errors_of_row(const wb *w, const kp_design *d, size_t row, bool *any, bool *model)
{
    const validate_memo *m = &w->vmemo;
    *any = *model = false;
    if (!m->at || m->npatterns != d->npatterns || m->n != w->diags.n)
        return false;
    bool all = row < d->npatterns;
    for (size_t k = 0; k < w->diags.n; k++) {
        if (w->diags.v[k].sev != KP_SEV_ERROR)
            continue;
        *any = *any || (k >= m->at[0] && k < m->at[d->npatterns]);
        *model = *model || k < m->at[0];
        all = all && k >= m->at[row] && k < m->at[row + 1];
    }
    return all;
}

/* The places left out marked in their cells (drafts_mark), their reasons with them. */
static void mark_drops(wb *w, const kp_design *d, const salvage_drops *s)
{
    for (size_t i = 0; i < s->n; i++) {
        int screen;
        size_t col;
        if (!cell_place(w, d, s->v[i].table, s->v[i].col, &screen, &col))
            continue;
        char *text = s->v[i].col && edit_col_find(d, s->v[i].table, s->v[i].col) >= 0
                         ? edit_get(d, s->v[i].table, s->v[i].row,
                                    (size_t)edit_col_find(d, s->v[i].table, s->v[i].col))
                         : edit_get(d, s->v[i].table, s->v[i].row, 0);
        drafts_mark(&w->drafts, screen, s->v[i].row, col, text, s->v[i].msg);
        free(text);
    }
}

void wb_salvage(wb *w, const kp_design *d, size_t without)
{
    bool any, model;
    size_t row = without;
    bool inserted = without < d->npatterns;
    bool alone = errors_of_row(w, d, inserted ? row : (size_t)-1, &any, &model);
    if ((any && salvage_hopeless(d)) || (model && salvage_model_broken(d)))
        return; /* no valid rest, nothing left out: known without trying (a broken row of 10,000,
                   an entity without its keys) */
    salvage_drops s = {0};
    /* good and an are of d without pattern `row` (inserted, then its cells edited), broken alone:
       the valid rest is that design (good and an stand), the row left out */
    if (inserted && alone && w->good && w->an && !w->opt.analyze && salvage_inserted(d, row, &s)) {
        sig_report_free(&w->sigs);
        sig_evaluate(w->good, w->an, w->obs, w->nobs, &w->sigs);
        w->partial = true;
        mark_drops(w, d, &s);
        salvage_drops_free(&s);
        return;
    }
    /* an index's step (deleted) leaving templates on its keys, good d before it: the rest is good
       with the same step, those templates left out (no copy of the design) */
    salvage_orphans *o = w->index_rows && !w->an_behind && w->an && !w->opt.analyze &&
                                 edit_rows_step_fits(w->good, d, EDIT_INDEXES, w->index_op)
                             ? salvage_orphans_find(d)
                             : NULL;
    if (o) {
        sig_report_free(&w->sigs);
        bool owns = w->an->design != w->good; /* else it points into good: freed first */
        if (!owns)
            wb_analysis_free(w, w->an);
        edit_rows_step_from(w->good, d, EDIT_INDEXES, w->index_op);
        salvage_orphans_make(o, w->good, &s);
        w->index_rest = true;
        w->index_rest_op = w->index_op;
        /* its own copy of the design takes the same step and drops */
        w->an = owns ? analysis_update_index_rows(w->an, w->good, w->index_op) : analysis_run(w->good);
        sig_evaluate(w->good, w->an, w->obs, w->nobs, &w->sigs);
        w->partial = true;
        mark_drops(w, d, &s);
        salvage_drops_free(&s);
        return;
    }
    kp_design *rest = validate_salvage(d, &s);
    if (rest) {
        sig_report_free(&w->sigs);
        wb_analysis_free(w, w->an);
        design_free(w->good);
        w->good = rest;
        w->an = w->opt.analyze ? w->opt.analyze(rest) : analysis_run(rest);
        sig_evaluate(w->good, w->an, w->obs, w->nobs, &w->sigs);
        w->partial = true;
        mark_drops(w, d, &s);
    }
    salvage_drops_free(&s);
}
