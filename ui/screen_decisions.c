/* screen_decisions.c - Decisions: the decision record, each decision with its status read live
 * against its reopening signals (REOPEN when one fired) and the signals' current values. */
#include "screens.h"

#include "humanfmt.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

enum { COMP_LIVE, COMP_SIGNALS };

static screen_col *decisions_columns(const screen_env *e, size_t *n)
{
    size_t k;
    screen_col *t = screen_table_cols(e->design, EDIT_DECISIONS, &k);
    screen_col *v = xcalloc(k + 2, sizeof *v);
    v[0] = t[0];
    /* TRANSLATORS: column headers of Decisions (computed columns; the others are the design file's keys) */
    v[1] = (screen_col){-1, COMP_LIVE, _("live"), 24};
    v[2] = t[1]; /* title */
    v[3] = t[2]; /* status */
    v[4] = (screen_col){-1, COMP_SIGNALS, _("signals now"), 24};
    memcpy(v + 5, t + 3, (k - 3) * sizeof *v);
    free(t);
    *n = k + 2;
    return v;
}

static char *decisions_computed(const screen_env *e, size_t row, size_t code, int *role)
{
    const kp_design *d = e->design;
    *role = UI_ROLE_NORMAL;
    if ((code != COMP_LIVE && code != COMP_SIGNALS) || row >= d->ndecisions)
        return xstrdup("");
    const kp_decision *dec = &d->decisions[row];
    bool fired = false;
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, "");
    for (size_t i = 0; i < e->sigs->n; i++) {
        const sig_result *s = &e->sigs->v[i];
        if (!s->decision || !s->decision->id || !dec->id || strcmp(s->decision->id, dec->id) != 0)
            continue;
        fired |= s->fired;
        sbuf_add(&b, b.len ? "; " : "");
        /* TRANSLATORS: a reopening signal that fired: "FIRED pattern.P1.rate: 120" */
        sbuf_printf(&b, s->fired ? _("FIRED %s: ") : "%s: ", s->signal->metric);
        if (s->known)
            humanfmt_add(&b, s->value, HF_NUM_SCREEN);
        else
            sbuf_add(&b, "?");
        if (s->observed)
            sbuf_printf(&b, _(" (observed %g)"), s->observed->value);
    }
    if (code == COMP_SIGNALS) {
        if (fired)
            *role = UI_ROLE_BAD;
        return sbuf_steal(&b);
    }
    sbuf_free(&b);
    if (fired) {
        *role = UI_ROLE_ALARM;
        return xstrdup(_("REOPEN"));
    }
    *role = dec->status == KP_DEC_ACCEPTED ? UI_ROLE_GOOD : UI_ROLE_NORMAL;
    return xstrdup(kp_decision_status_name(dec->status));
}

const screen_ops screen_decisions = {
    .name = N_("Decisions"),
    .table = EDIT_DECISIONS,
    .is_table = true,
    .empty = N_("No decisions. On Patterns, D records one about the pattern under the cursor."),
    .columns = decisions_columns,
    .computed = decisions_computed,
};
