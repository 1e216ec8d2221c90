/* tour_figures.c - the named figures a tour step shows (tour.h lists them), each computed by
 * keyplan from the step's design and its analysis. A figure whose subject is absent prints
 * nothing (the loader has checked that the step's own design has it). */
#include "tour_int.h"

#include "humanfmt.h"
#include "signals.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const tour_fig_info tour_fig_catalogue[TOUR_FIG__COUNT] = {
#define TOUR_FIG_INFO(e, name, arg) [TOUR_FIG_##e] = {name, arg},
    TOUR_FIGURES(TOUR_FIG_INFO)
#undef TOUR_FIG_INFO
};

typedef struct fig_ctx {
    sbuf *b;
    const tour *t;
    size_t step;
    const tour_figure *f;
    const kp_analysis *a;
} fig_ctx;

static const kp_pattern_result *result_of(const kp_analysis *a, const char *id)
{
    for (size_t i = 0; i < a->npatterns; i++)
        if (a->patterns[i].pattern && a->patterns[i].pattern->id &&
            strcmp(a->patterns[i].pattern->id, id) == 0)
            return &a->patterns[i];
    return NULL;
}

static const kp_decision *decision_of(const kp_design *d, const char *id)
{
    const kp_decision *dec = NULL;
    for (size_t i = 0; i < d->ndecisions; i++)
        if (d->decisions[i].id && strcmp(d->decisions[i].id, id) == 0)
            dec = &d->decisions[i];
    return dec;
}

static void pattern_line(sbuf *b, const kp_pattern_result *r)
{
    const kp_pattern *p = r->pattern;
    sbuf_printf(b, "  %-3s %-52.52s %s %-8s", p->id, p->name ? p->name : "", kp_plan_symbol(r->plan),
                kp_plan_word(r->plan));
    if (r->plan == KP_PLAN_OUTSIDE)
        sbuf_printf(b, " served by %s", p->served_by ? p->served_by : "?");
    else if (r->plan == KP_PLAN_COVERED)
        sbuf_printf(b, " in pattern %s's result", p->covered_by.s ? p->covered_by.s : "?");
    else if (p->kind == KP_READ) {
        sbuf_printf(b, " %g req on %s", r->requests, r->index_name ? r->index_name : "table");
        if (isfinite(r->latency_ms) && isfinite(p->latency)) {
            char est[32], tgt[32];
            humanfmt(est, sizeof est, r->latency_ms, HF_MS_TOUR);
            humanfmt(tgt, sizeof tgt, p->latency, HF_MS_TOUR);
            sbuf_printf(b, ", %s vs %s%s", est, tgt, r->latency_ok ? "" : " MISSED");
        }
    }
    sbuf_addc(b, '\n');
}

static void cost_line(sbuf *b, const kp_cost *c)
{
    for (size_t i = 0; i < c->nlines; i++)
        sbuf_printf(b, "%s%s %.0f", i ? ", " : "", c->lines[i].name, c->lines[i].amount);
    sbuf_printf(b, "; total %.0f %s", c->total, c->currency ? c->currency : "USD");
}

/* ---- the figures ------------------------------------------------------------------------- */

static void fig_targets(const fig_ctx *c)
{
    const kp_analysis *a = c->a;
    for (size_t i = 0; i < a->npatterns; i++) {
        const kp_pattern *p = a->patterns[i].pattern;
        if (!p)
            continue;
        char rate[32], lat[48] = "-", ms[32];
        humanfmt(rate, sizeof rate, p->rate, HF_RATE_TOUR);
        humanfmt(ms, sizeof ms, p->latency, HF_MS_TOUR);
        if (isfinite(p->latency))
            snprintf(lat, sizeof lat, "< %s", ms);
        sbuf_printf(c->b, "  %-3s %-52.52s %8s %10s  %s %s\n", p->id, p->name ? p->name : "", rate, lat,
                    kp_plan_symbol(a->patterns[i].plan), kp_plan_word(a->patterns[i].plan));
    }
}

static void fig_plans(const fig_ctx *c)
{
    bool reads = strcmp(c->f->arg, "reads") == 0, needs = strcmp(c->f->arg, "needs") == 0;
    for (size_t i = 0; i < c->a->npatterns; i++) {
        const kp_pattern *p = c->a->patterns[i].pattern;
        if (!p || (reads && p->kind != KP_READ) || (needs && p->needs == KP_NEEDS_NONE))
            continue;
        pattern_line(c->b, &c->a->patterns[i]);
    }
}

static void fig_plan(const fig_ctx *c)
{
    const kp_pattern_result *r = result_of(c->a, c->f->arg);
    if (r)
        pattern_line(c->b, r);
}

static void fig_key_condition(const fig_ctx *c)
{
    const kp_pattern_result *r = result_of(c->a, c->f->arg);
    if (r && r->key_condition && *r->key_condition)
        sbuf_printf(c->b, "      %s\n", r->key_condition);
}

static void fig_checklist(const fig_ctx *c)
{
    int item = atoi(c->f->arg);
    if (item < 1 || item > KP_CHECKLIST_ITEMS)
        return;
    sbuf_printf(c->b, "  checklist %d", item);
    if (c->f->label)
        sbuf_printf(c->b, " (%s)", c->f->label);
    sbuf_printf(c->b, ": %s\n", kp_check_status_name(c->a->checklist[item - 1].status));
}

static void fig_hottest(const fig_ctx *c)
{
    const kp_analysis *a = c->a;
    const kp_partition_result *h = NULL;
    for (size_t i = 0; i < a->npartitions; i++)
        if (!h || a->partitions[i].write_util > h->write_util)
            h = &a->partitions[i];
    if (!h)
        return;
    double total_w = a->nindexes ? a->indexes[0].wcu_per_s : NAN;
    sbuf_printf(
        c->b, "  hottest partition %s: %.0f %% of the writes, %.0f write units/s = %.0f %% of its 1,000%s\n",
        h->template_src ? h->template_src : "?", h->write_hot_share * 100, h->write_units,
        h->write_util * 100, h->hot ? " (HOT)" : "");
    if (isfinite(total_w))
        sbuf_printf(c->b, "  the whole table: %.0f write units/s at peak\n", total_w);
}

static void fig_findings(const fig_ctx *c)
{
    const kp_analysis *a = c->a;
    sbuf_add(c->b, "  findings:");
    if (a->nfindings == 0)
        sbuf_add(c->b, " none");
    bool first = true;
    for (size_t i = 0; i < a->nfindings; i++) {
        bool seen = false;
        size_t count = 0;
        for (size_t k = 0; k < a->nfindings; k++) {
            if (strcmp(a->findings[k].code, a->findings[i].code) == 0) {
                seen |= k < i;
                count++;
            }
        }
        if (seen)
            continue;
        sbuf_printf(c->b, "%s %s", first ? "" : ",", a->findings[i].code);
        if (count > 1)
            sbuf_printf(c->b, " (x%zu)", count);
        first = false;
    }
    sbuf_addc(c->b, '\n');
}

static void fig_index_items(const fig_ctx *c)
{
    for (size_t i = 0; i < c->a->nindexes; i++)
        if (c->a->indexes[i].name && strcmp(c->a->indexes[i].name, c->f->arg) == 0)
            sbuf_printf(c->b, "  %s holds %.0f items\n", c->f->arg, c->a->indexes[i].items);
}

static void fig_signals(const fig_ctx *c)
{
    const kp_decision *dec = decision_of(c->a->design, c->f->arg);
    for (size_t k = 0; dec && k < dec->nsignals; k++) {
        double v = NAN;
        bool known = analysis_metric(c->a, dec->signals[k].metric, &v);
        sbuf_printf(c->b, "  signal %s: now %s%.6g\n", dec->signals[k].src, known ? "" : "unknown ",
                    known ? v : 0.0);
    }
}

static void fig_refused(const fig_ctx *c)
{
    const kp_decision *dec = decision_of(c->a->design, c->f->arg);
    for (size_t k = 0; dec && k < dec->nalternatives; k++)
        sbuf_printf(c->b, "  refused: %s\n", dec->alternatives[k].option);
}

static void fig_ladder(const fig_ctx *c)
{
    const tour_step *s = &c->t->steps[c->step];
    const tour_play *p = &c->t->play[c->step];
    for (size_t r = 0; r < s->nrungs; r++) {
        kp_analysis *ra = analysis_run(p->rungs[r]);
        sbuf_printf(c->b, "  %zu. %s\n     keyplan (%s): ", r + 1, s->rungs[r].label,
                    kp_billing_name(ra->cost->mode));
        cost_line(c->b, ra->cost);
        sbuf_printf(c->b, "\n     course: %s\n", s->rungs[r].course);
        analysis_free(ra);
    }
}

static void fig_partition(const fig_ctx *c)
{
    const kp_analysis *a = c->a;
    const kp_partition_result *p = NULL;
    for (size_t i = 0; i < a->npartitions && !p; i++)
        if (a->partitions[i].template_src && strcmp(a->partitions[i].template_src, c->f->arg) == 0)
            p = &a->partitions[i];
    if (p)
        sbuf_printf(
            c->b,
            "  %s: %.0f distinct partition keys; the hottest takes %.1f %% of the writes and %.1f %% of the reads\n"
            "  its use of the partition limits: %.2f %% of the reads, %.2f %% of the writes\n",
            c->f->arg, p->distinct, p->write_hot_share * 100, p->read_hot_share * 100, p->read_util * 100,
            p->write_util * 100);
}

static void fig_hot_count(const fig_ctx *c)
{
    size_t hot = 0;
    for (size_t i = 0; i < c->a->npartitions; i++)
        hot += c->a->partitions[i].hot;
    sbuf_printf(c->b, "  hot partitions: %zu\n", hot);
}

static void fig_alerts(const fig_ctx *c)
{
    const kp_design *d = c->a->design;
    for (size_t i = 0; i < d->nalerts; i++)
        sbuf_printf(c->b, "  alert: %s (%s %s)\n", d->alerts[i].name, d->alerts[i].metric,
                    d->alerts[i].when ? d->alerts[i].when : "");
}

static void fig_decisions(const fig_ctx *c)
{
    const kp_design *d = c->a->design;
    for (size_t i = 0; i < d->ndecisions; i++) {
        const kp_decision *dec = &d->decisions[i];
        size_t fired = 0;
        for (size_t k = 0; k < dec->nsignals; k++) {
            double v;
            const kp_signal *s = &dec->signals[k];
            if (analysis_metric(c->a, s->metric, &v) && isfinite(v))
                fired += sig_compare(v, s->cmp, s->value);
        }
        sbuf_printf(c->b, "  %-3s %-60.60s %s, %zu alternative%s, %zu signal%s%s\n", dec->id, dec->title,
                    kp_decision_status_name(dec->status), dec->nalternatives,
                    dec->nalternatives == 1 ? "" : "s", dec->nsignals, dec->nsignals == 1 ? "" : "s",
                    fired ? " (FIRED: reopen)" : "");
    }
}

static void fig_cost(const fig_ctx *c)
{
    sbuf_add(c->b, "  cost: ");
    cost_line(c->b, c->a->cost);
    sbuf_addc(c->b, '\n');
}

static void (*const fig_fn[TOUR_FIG__COUNT])(const fig_ctx *) = {
    [TOUR_FIG_TARGETS] = fig_targets,     [TOUR_FIG_PLANS] = fig_plans,
    [TOUR_FIG_PLAN] = fig_plan,           [TOUR_FIG_KEY_CONDITION] = fig_key_condition,
    [TOUR_FIG_CHECKLIST] = fig_checklist, [TOUR_FIG_HOTTEST] = fig_hottest,
    [TOUR_FIG_FINDINGS] = fig_findings,   [TOUR_FIG_INDEX_ITEMS] = fig_index_items,
    [TOUR_FIG_SIGNALS] = fig_signals,     [TOUR_FIG_REFUSED] = fig_refused,
    [TOUR_FIG_LADDER] = fig_ladder,       [TOUR_FIG_PARTITION] = fig_partition,
    [TOUR_FIG_HOT_COUNT] = fig_hot_count, [TOUR_FIG_ALERTS] = fig_alerts,
    [TOUR_FIG_DECISIONS] = fig_decisions, [TOUR_FIG_COST] = fig_cost,
};

void tour_figures_add(sbuf *b, const tour *t, size_t i, const kp_analysis *a)
{
    const tour_play *p = &t->play[i];
    for (size_t k = 0; k < p->nfigures; k++) {
        fig_ctx c = {b, t, i, &p->figures[k], a};
        fig_fn[p->figures[k].kind](&c);
    }
}

char *tour_cost_why(const kp_analysis *a)
{
    if (!a || !a->cost || !isfinite(a->cost->total))
        return NULL;
    double all = 0, scans = 0, top = 0;
    const kp_pattern_result *worst = NULL;
    sbuf ids;
    sbuf_init(&ids);
    sbuf_add(&ids, "");
    for (size_t i = 0; i < a->npatterns; i++) {
        const kp_pattern_result *r = &a->patterns[i];
        double u = isfinite(r->rcu_per_s) ? r->rcu_per_s : 0;
        all += u;
        if (r->plan != KP_PLAN_SCAN || !r->pattern)
            continue;
        scans += u;
        sbuf_printf(&ids, "%s%s", ids.len ? ", " : "", r->pattern->id ? r->pattern->id : "?");
        if (u > top || !worst) {
            top = u;
            worst = r;
        }
    }
    if (!worst || !(all > 0) || scans < 0.5 * all) {
        sbuf_free(&ids);
        return NULL;
    }
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, "Why ");
    humanfmt_add_money(&b, a->cost->total, a->cost->currency, HF_MONEY_SCREEN);
    sbuf_printf(&b, " a month: scans (pattern%s %s) read the whole table, ", strchr(ids.s, ',') ? "s" : "",
                ids.s);
    humanfmt_add(&b, worst->rcu_per_call, HF_SHORT_SCREEN);
    sbuf_printf(&b, " read units a call, and make ");
    humanfmt_add(&b, 100 * scans / all, HF_PRINTF_F0);
    sbuf_printf(&b, "%% of the read units the design asks for (pattern %s alone ",
                worst->pattern->id ? worst->pattern->id : "?");
    humanfmt_add(&b, 100 * top / all, HF_PRINTF_F0);
    sbuf_add(&b, "%). A key that serves a pattern makes its scan a query.");
    sbuf_free(&ids);
    return sbuf_steal(&b);
}
