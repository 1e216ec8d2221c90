/* screen_indexes.c - Indexes: the table's GSIs and LSIs, with the patterns each serves, its
 * items and its hottest partition's share, as the model computes them. */
#include "screens.h"

#include "humanfmt.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { COMP_SERVES, COMP_ITEMS, COMP_HOT };

static screen_col *indexes_columns(const screen_env *e, size_t *n)
{
    size_t k;
    screen_col *t = screen_table_cols(e->design, EDIT_INDEXES, &k);
    screen_col *v = xcalloc(k + 3, sizeof *v);
    v[0] = t[0];
    /* TRANSLATORS: column headers of Indexes (computed: how many patterns it serves, its items, its
       hottest partition's share); the others are the design file's keys */
    v[1] = (screen_col){-1, COMP_SERVES, _("serves"), 24};
    v[2] = (screen_col){-1, COMP_ITEMS, _("items"), 24};
    v[3] = (screen_col){-1, COMP_HOT, _("hot"), 24};
    memcpy(v + 4, t + 1, (k - 1) * sizeof *v);
    free(t);
    *n = k + 3;
    return v;
}

static const kp_index_result *index_result(const kp_analysis *a, const char *name)
{
    if (!a || !name)
        return NULL;
    for (size_t i = 0; i < a->nindexes; i++)
        if (a->indexes[i].name && strcmp(a->indexes[i].name, name) == 0)
            return &a->indexes[i];
    return NULL;
}

static char *indexes_computed(const screen_env *e, size_t row, size_t code, int *role)
{
    const kp_design *d = e->design;
    *role = UI_ROLE_NORMAL;
    const kp_index_result *x = row < d->nindexes ? index_result(e->an, d->indexes[row].name) : NULL;
    if (!x)
        return xstrdup("");
    switch (code) {
    case COMP_SERVES:
        if (x->patterns_served == 0)
            *role = UI_ROLE_WARN;
        return xasprintf("%d", x->patterns_served);
    case COMP_HOT:
        if (x->hot_share >= 0.5)
            *role = UI_ROLE_WARN;
        if (isnan(x->hot_share))
            return xstrdup("");
        char pct[HUMANFMT_SIZE];
        return xstrdup(humanfmt(pct, sizeof pct, x->hot_share, HF_PCT_REPORT));
    case COMP_ITEMS: {
        char buf[HUMANFMT_SIZE];
        return xstrdup(humanfmt(buf, sizeof buf, x->items, HF_NUM_SCREEN));
    }
    default:
        return xstrdup("");
    }
}

const screen_ops screen_indexes = {
    .name = N_("Indexes"),
    .table = EDIT_INDEXES,
    .is_table = true,
    .empty = N_("No indexes. Press a to add a GSI (only when a pattern needs it)."),
    .columns = indexes_columns,
    .computed = indexes_computed,
};
