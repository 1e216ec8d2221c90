/* pane.c - the live model pane. */
#include "pane.h"

#include "actions.h"
#include "display.h"
#include "draw.h"
#include "humanfmt.h"
#include "i18n.h"
#include "report_words.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const kp_pattern_result *pane_result(const kp_analysis *a, const char *id) { return analysis_pattern(a, id); }

const kp_pattern_result *pane_result_at(const kp_analysis *a, size_t row, const char *id)
{
    if (a && id && row < a->npatterns) {
        const kp_pattern *p = a->patterns[row].pattern;
        if (p && p->id && strcmp(p->id, id) == 0)
            return &a->patterns[row];
    }
    return pane_result(a, id);
}

static bool num_changed(double a, double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) != isnan(b);
    return fabs(a - b) > 1e-9 * (fabs(a) + fabs(b) + 1);
}

const char *pane_index_label(const char *name)
{
    if (!name)
        return "";
    return strcmp(name, "table") == 0 ? P_("index", "table") : name;
}

ui_role pane_plan_role(kp_plan p)
{
    switch (p) {
    case KP_PLAN_GET:
    case KP_PLAN_COVERED:
        return UI_ROLE_GOOD;
    case KP_PLAN_SCAN:
    case KP_PLAN_INVALID:
        return UI_ROLE_BAD;
    case KP_PLAN_MULTI:
        return UI_ROLE_WARN;
    default:
        return UI_ROLE_NORMAL;
    }
}

/* The current design's row of pattern `id` (looked for at `hint` first: O(1) while the analysis
 * is of the same patterns), or -1. */
static int pattern_row(const kp_design *d, size_t hint, const char *id)
{
    if (id && hint < d->npatterns && d->patterns[hint].id && strcmp(d->patterns[hint].id, id) == 0)
        return (int)hint;
    for (size_t i = 0; id && i < d->npatterns; i++)
        if (d->patterns[i].id && strcmp(d->patterns[i].id, id) == 0)
            return (int)i;
    return -1;
}

/* The same decision in two copies of the design (by id). */
static bool same_decision(const kp_decision *a, const kp_decision *b)
{
    return a == b || (a && b && a->id && b->id && strcmp(a->id, b->id) == 0);
}

void pane_draw(const pane_view *v, ui_rect r, int *hit, int nhit)
{
    const kp_design *d = v->design;
    const kp_analysis *a = v->an;
    int y = r.y, ymax = r.y + r.h;
    for (int i = r.y; i < ymax && i < nhit; i++)
        hit[i] = -1;
    int x = r.x + (v->side ? 1 : 0), pw = r.w - (v->side ? 1 : 0);
    if (v->side)
        for (int i = 0; i < r.h; i++)
            draw_put(r.y + i, r.x, 1, "│", UI_ROLE_BORDER);
    /* title */
    sbuf cost;
    sbuf_init(&cost);
    if (a && a->cost)
        humanfmt_add_money(&cost, a->cost->total, a->cost->currency, HF_MONEY_SCREEN);
    else
        sbuf_add(&cost, "-");
    bool cost_changed =
        v->prev && a && v->prev->cost && a->cost && num_changed(v->prev->cost->total, a->cost->total);
    /* TRANSLATORS: the model pane's title: the monthly cost, then what the pane shows */
    char *title = xasprintf(_("Live model  %s/month"), cost.s);
    draw_putf(y++, x, pw, cost_changed ? UI_ROLE_CHANGED : UI_ROLE_TITLE, "%s%s%s", title,
              !v->diags->errors ? ""
              : v->partial      ? _("  (the valid rest: what is marked ! is left out)")
                                : _("  (last good state: fix the error below)"),
              cost_changed ? _("  (changed)") : "");
    free(title);
    sbuf_free(&cost);
    if (!a) {
        draw_put(y++, x, pw, _("no analysis yet"), UI_ROLE_DIM);
    }
    /* pattern table */
    /* id 3, plan 10, index 8, key condition (the rest), RCU/call 9, RCU/s 8, ms/target 9 */
    enum { LATW = 16 }; /* "718 ms / 5 min" */
    /* the plan column: 10, or as wide as the widest plan word shown (in the reader's language)
       and a space */
    int planw = 10;
    for (size_t i = 0; a && i < a->npatterns; i++) {
        int w = 3 + disp_width(report_plan_word(a->patterns[i].plan)); /* "~ " and a space after */
        planw = w > planw ? w : planw;
    }
    int kcw = pw - (3 + planw + 8 + 9 + 8 + 1 + LATW);
    size_t npat = a ? a->npatterns : 0;
    /* a narrow pane with lines to spare puts the key condition on a line of its own */
    bool two = kcw < 24 && (ymax - y) >= (int)(2 * npat) + 8;
    if (two)
        kcw = 0;
    else if (kcw < 6)
        kcw = 6;
    if (y < ymax) {
        /* the header, padded by display cells: "índice" lines up as "index" does */
        sbuf hb;
        sbuf_init(&hb);
        draw_pad(&hb, "#", 3);
        /* TRANSLATORS: the model pane's headers: plan (10 columns), index (8), key condition (the
           rest), read units a call (9, right-aligned), a second (8), latency / its target (16) */
        draw_pad(&hb, _("plan"), planw);
        draw_pad(&hb, _("index"), 8);
        if (kcw > 0) {
            disp_cell(&hb, _("key condition"), kcw - 1, 0);
            sbuf_addc(&hb, ' ');
        }
        const char *rc = _("RCU/call"), *rs = _("RCU/s");
        sbuf_printf(&hb, "%*s%s%*s%s ", 9 - disp_width(rc) > 0 ? 9 - disp_width(rc) : 0, "", rc,
                    8 - disp_width(rs) > 0 ? 8 - disp_width(rs) : 0, "", rs);
        draw_pad(&hb, _("latency/target"), LATW);
        draw_put(y++, x, pw, hb.s, UI_ROLE_HEADER);
        sbuf_free(&hb);
    }
    /* where the latency column starts (drawn again in red when over target) */
    int latx = 3 + planw + 8 + kcw + 9 + 8 + 1;
    const kp_pattern *sel = v->sel;
    size_t np = npat;
    /* the selected pattern's result, found once (at its own row first) */
    const kp_pattern_result *selr =
        sel && sel->id && a ? pane_result_at(a,
                                             sel >= d->patterns && sel < d->patterns + d->npatterns
                                                 ? (size_t)(sel - d->patterns)
                                                 : (size_t)-1,
                                             sel->id)
                            : NULL;
    size_t sel_i = selr ? (size_t)(selr - a->patterns) : (size_t)-1;
    /* leave room for the details of the selected pattern (as many lines as they take, up to 6) */
    int need = 0;
    if (selr) {
        const kp_pattern_result *pr = selr;
        need = 1 + (int)pr->nwarnings + (int)pr->nwhy_not;
        for (size_t k = 0; k < pr->nsteps; k++)
            need += 1 + (int)pr->steps[k].nvalues;
    }
    if (need > 6)
        need = 6;
    int room = ymax - y - need;
    if (room < 3)
        room = ymax - y;
    size_t first = 0;
    size_t rows_fit = (size_t)room / (two ? 2 : 1);
    if (selr && np > rows_fit && sel_i >= rows_fit)
        first = sel_i - rows_fit + 1;
    /* only the rows shown are formatted */
    for (size_t i = first; i < np; i++) {
        const kp_pattern_result *pr = &a->patterns[i];
        const char *id = pr->pattern && pr->pattern->id ? pr->pattern->id : "?";
        bool is_sel = i == sel_i;
        if (y + (two ? 2 : 1) > r.y + 2 + room || y >= ymax)
            break;
        const kp_pattern_result *pv = pane_result(v->prev, id);
        bool changed = v->prev && (!pv || pv->plan != pr->plan || num_changed(pv->rcu_per_s, pr->rcu_per_s) ||
                                   num_changed(pv->requests, pr->requests));
        char plan[32];
        snprintf(plan, sizeof plan, "%s %s", kp_plan_symbol(pr->plan), report_plan_word(pr->plan));
        if (pr->plan == KP_PLAN_MULTI && pr->requests > 1 && pr->requests < 100)
            snprintf(plan, sizeof plan, "+ %s%.0f", report_plan_word(pr->plan), pr->requests);
        bool writes = pr->pattern && pr->pattern->kind == KP_WRITE;
        char rc[HUMANFMT_SIZE], rs[HUMANFMT_SIZE], lat[64];
        humanfmt(rc, sizeof rc, writes ? pr->wcu_per_call : pr->rcu_per_call, HF_SHORT_SCREEN);
        humanfmt(rs, sizeof rs, writes ? pr->wcu_per_s : pr->rcu_per_s, HF_SHORT_SCREEN);
        sbuf l; /* "estimate/target", cut to lat */
        sbuf_init(&l);
        humanfmt_add(&l, pr->latency_ms, HF_MS_SCREEN);
        if (pr->pattern && !isnan(pr->pattern->latency)) {
            sbuf_add(&l, " / ");
            humanfmt_add(&l, pr->pattern->latency, HF_MS_SCREEN);
        }
        snprintf(lat, sizeof lat, "%s", l.s);
        sbuf_free(&l);
        /* a scan has no key condition: the column says which index nearly served it and why */
        char *near = pr->plan == KP_PLAN_SCAN && pr->nwhy_not && pr->why_not[0].text &&
                             !(pr->key_condition && *pr->key_condition)
                         ? xasprintf(_("why not: %s"), pr->why_not[0].text)
                         : NULL;
        const char *kc = near ? near : pr->key_condition ? pr->key_condition : "";
        sbuf kct; /* the key condition's column, its last column blank */
        sbuf_init(&kct);
        sbuf_add(&kct, "");
        disp_cell(&kct, two ? "" : kc, kcw > 0 ? kcw - 1 : 0, 0);
        if (kcw > 0)
            sbuf_addc(&kct, ' ');
        changed = changed || narration_marked(v->step, "pattern", id);
        ui_role base = is_sel ? UI_ROLE_CURSOR_ROW : changed ? UI_ROLE_CHANGED : UI_ROLE_NORMAL;
        char *idt = xstrdup(id);
        idt[disp_fit(idt, 2, NULL)] = '\0';
        if (y < nhit)
            hit[y] = pattern_row(d, i, id);
        draw_putf(y, x, pw, base, "%-3s%-*s%-8.7s%s%9s%8s %-*s", idt, planw, "",
                  pane_index_label(pr->index_name), kct.s, rc, rs, LATW, lat);
        /* the plan word in its colour, the latency in red when over target (in its own column:
           drawn once) */
        draw_put(y, x + 3, planw - 1, plan,
                 is_sel    ? UI_ROLE_CURSOR_ROW
                 : changed ? UI_ROLE_CHANGED
                           : pane_plan_role(pr->plan));
        if (!pr->latency_ok && !is_sel && latx < pw)
            draw_put(y, x + latx, pw - latx < LATW ? pw - latx : LATW, lat, UI_ROLE_BAD);
        free(idt);
        sbuf_free(&kct);
        y++;
        if (two && y < ymax) {
            if (y < nhit)
                hit[y] = pattern_row(d, i, id);
            const char *op = pr->nsteps && pr->steps[0].op != KP_OP_NONE ? kp_op_name(pr->steps[0].op) : "";
            char *l2 = xasprintf("   %s%s%s%s", near ? op : "", near ? "  " : "", *kc ? kc : op,
                                 pr->filter ? _("  +filter") : "");
            draw_put(y++, x, pw, l2, is_sel ? UI_ROLE_CURSOR_ROW : UI_ROLE_DIM);
            free(l2);
        }
        free(near);
    }
    if (np == 0 && a && y < ymax)
        draw_put(y++, x, pw,
                 d->npatterns ? _("the model has no results for these patterns yet")
                              : _("type an access pattern (Patterns screen, a) to see its plan"),
                 UI_ROLE_DIM);
    /* details of the selected pattern */
    if (y < ymax && v->diags->errors) {
        char *m = diags_format(v->diags, 0);
        draw_wrapped(&y, ymax, x, pw, m, UI_ROLE_BAD, "  ");
        free(m);
    }
    /* cells whose text did not parse: the model keeps their last good value */
    for (size_t i = 0; i < v->drafts->n && y < ymax; i++) {
        const ui_draft *dr = &v->drafts->v[i];
        char *m =
            /* TRANSLATORS: a cell whose text did not parse: "Patterns row 2: why" */
            xasprintf(_("%s row %zu: %s"), ui_screen_title(dr->screen), dr->row + 1, dr->err ? dr->err : "");
        draw_wrapped(&y, ymax, x, pw, m, UI_ROLE_BAD, "  ");
        free(m);
    }
    if (selr && y < ymax) {
        const kp_pattern *p = selr->pattern;
        draw_putf(y++, x, pw, UI_ROLE_TITLE, _("-- pattern %s: %s"), p->id ? p->id : "",
                  p->name ? p->name : "");
        for (size_t s = 0; s < selr->nsteps && y < ymax; s++) {
            const kp_step *st = &selr->steps[s];
            char *cnt = st->count > 1 ? xasprintf("%.0f x ", st->count) : xstrdup("");
            const char *ix = st->index < 0                     ? P_("index", "table")
                             : (size_t)st->index < d->nindexes ? d->indexes[st->index].name
                                                               : "?";
            char *line = xasprintf("%s%s %s%s%s%s", cnt, kp_op_name(st->op), st->op == KP_OP_SCAN ? "" : ix,
                                   st->key_condition ? "  " : "", st->key_condition ? st->key_condition : "",
                                   st->filter ? _("  FILTER") : "");
            draw_wrapped(&y, ymax, x, pw, line, pane_plan_role(selr->plan), "    ");
            free(line);
            free(cnt);
            for (size_t k = 0; k < st->nnames && y < ymax; k++) /* what the placeholders stand for */
                draw_putf(y++, x, pw, UI_ROLE_DIM, "    %s = \"%s\"", st->names[k].alias, st->names[k].name);
            for (size_t k = 0; k < st->nvalues && y < ymax; k++)
                draw_putf(y++, x, pw, UI_ROLE_DIM, "    %s = %s", st->values[k].name, st->values[k].value);
        }
        for (size_t k = 0; k < selr->nwarnings && y < ymax; k++) {
            char *wl = xasprintf("! %s", selr->warnings[k]);
            draw_wrapped(&y, ymax, x, pw, wl, UI_ROLE_WARN, "  ");
            free(wl);
        }
        for (size_t k = 0; k < selr->nwhy_not && y < ymax; k++) {
            char *wl = xasprintf(_("why not: %s"), selr->why_not[k].text ? selr->why_not[k].text : "");
            draw_wrapped(&y, ymax, x, pw, wl, UI_ROLE_DIM, "  ");
            free(wl);
        }
    }
    /* the selected decision: what was decided, and each signal against its threshold */
    if (v->dec && y < ymax) {
        const kp_decision *dc = v->dec;
        /* the signals are of the last good design: its decision is matched by id */
        bool fired = false;
        for (size_t i = 0; v->sigs && i < v->sigs->n; i++)
            fired |= v->sigs->v[i].fired && same_decision(v->sigs->v[i].decision, dc);
        draw_putf(y++, x, pw, fired ? UI_ROLE_ALARM : UI_ROLE_TITLE, _("-- decision %s [%s]: %s"),
                  dc->id ? dc->id : "", fired ? _("REOPEN") : kp_decision_status_name(dc->status),
                  dc->title ? dc->title : "");
        if (dc->decision && *dc->decision && y < ymax)
            draw_wrapped(&y, ymax, x, pw, dc->decision, UI_ROLE_NORMAL, "  ");
        if (!dc->nsignals && y < ymax)
            draw_put(y++, x, pw, _("no reopening signals: nothing would tell that it no longer holds"),
                     UI_ROLE_WARN);
        for (size_t i = 0; v->sigs && i < v->sigs->n && y < ymax; i++) {
            const sig_result *s = &v->sigs->v[i];
            if (!same_decision(s->decision, dc))
                continue;
            sbuf b;
            sbuf_init(&b);
            sbuf_add(&b, "");
            /* TRANSLATORS: a reopening signal that fired, and what the design gives its metric */
            draw_pad(&b, s->fired ? _("FIRED") : "", disp_width(_("FIRED")));
            sbuf_printf(&b, _(" signal %s: the design gives "),
                        s->signal->src ? s->signal->src : s->signal->metric);
            if (s->known)
                humanfmt_add(&b, s->value, HF_NUM_SCREEN);
            else
                sbuf_add(&b, _("nothing (unknown metric value)"));
            if (s->observed) {
                sbuf_add(&b, _(", observed "));
                humanfmt_add(&b, s->observed->value, HF_NUM_SCREEN);
            }
            draw_wrapped(&y, ymax, x, pw, b.s, s->fired ? UI_ROLE_BAD : UI_ROLE_NORMAL, "      ");
            sbuf_free(&b);
        }
    }
    /* findings, as room allows */
    if (a && a->nfindings && y + 1 < ymax) {
        draw_putf(y++, x, pw, UI_ROLE_TITLE, _("-- findings (%zu, all on Cost & heat)"), a->nfindings);
        for (size_t i = 0; i < a->nfindings && y < ymax; i++) {
            const kp_finding *f = &a->findings[i];
            draw_putf(y++, x, pw,
                      f->sev == KP_SEV_ERROR     ? UI_ROLE_BAD
                      : f->sev == KP_SEV_WARNING ? UI_ROLE_WARN
                                                 : UI_ROLE_NORMAL,
                      "%s %s: %s", f->code, f->where ? f->where : "", f->message ? f->message : "");
        }
    }
    while (y < ymax)
        draw_put(y++, x, pw, "", UI_ROLE_NORMAL);
}
