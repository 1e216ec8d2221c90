/* screen_patterns.c - Patterns: the access-pattern table, every field editable, with the model's
 * plan next to each pattern's id. */
#include "screens.h"

#include "humanfmt.h"
#include "pane.h"
#include "report_words.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { COMP_PLAN };

static screen_col *patterns_columns(const screen_env *e, size_t *n)
{
    size_t k;
    screen_col *t = screen_table_cols(e->design, EDIT_PATTERNS, &k);
    screen_col *v = xcalloc(k + 1, sizeof *v);
    v[0] = t[0]; /* id (frozen) */
    /* TRANSLATORS: column header of Patterns: the model's plan (the other headers are the design file's keys) */
    v[1] = (screen_col){-1, COMP_PLAN, _("plan"), 24}; /* the model's verdict next to the id */
    memcpy(v + 2, t + 1, (k - 1) * sizeof *v);
    free(t);
    for (size_t i = 0; i < k + 1; i++)
        if (strcmp(v[i].title, "name") == 0)
            v[i].cap = 30;
    *n = k + 1;
    return v;
}

static char *patterns_computed(const screen_env *e, size_t row, size_t code, int *role)
{
    const kp_design *d = e->design;
    *role = UI_ROLE_NORMAL;
    if (code != COMP_PLAN)
        return xstrdup("");
    /* matched by id: the analysis is of the last good design */
    const kp_pattern_result *r = row < d->npatterns ? pane_result_at(e->an, row, d->patterns[row].id) : NULL;
    if (!r)
        return xstrdup("");
    *role = pane_plan_role(r->plan);
    return xasprintf("%s %s", kp_plan_symbol(r->plan), report_plan_word(r->plan));
}

/* The latency target with its unit, as the pane writes it ("20 ms", "5.0 min"), and a rate under
 * 0.01/s per hour or per day as the decision record writes it ("1/day" for 0.0000116); the cell
 * editor keeps the number (milliseconds, requests a second). */
static char *patterns_shown(const screen_env *e, size_t row, const screen_col *c, char *text)
{
    const kp_design *d = e->design;
    if (row >= d->npatterns || !text || !*text || *text == '!')
        return text;
    const kp_pattern *p = &d->patterns[row];
    bool latency = strcmp(c->title, "latency") == 0, rate = strcmp(c->title, "rate") == 0,
         avg = strcmp(c->title, "avg") == 0;
    double v = latency ? p->latency : rate ? p->rate : avg ? p->avg : NAN;
    if (isnan(v) || ((rate || avg) && !(v > 0 && v < 0.01)))
        return text;
    sbuf b;
    sbuf_init(&b);
    humanfmt_add(&b, v, latency ? HF_MS_SCREEN : HF_RATE_DOC);
    free(text);
    return sbuf_steal(&b);
}

const screen_ops screen_patterns = {
    .name = N_("Patterns"),
    .table = EDIT_PATTERNS,
    .is_table = true,
    .empty = N_("No access patterns yet. Press a to add one, then Enter to edit its cells."),
    .columns = patterns_columns,
    .computed = patterns_computed,
    .shown = patterns_shown,
};
