/* tour_figures.c - the named figures a tour step shows (tour.h lists them), each computed by
 * keyplan from the step's design and its analysis. A figure whose subject is absent prints
 * nothing (the loader has checked that the step's own design has it). */
#include "tour_int.h"

#include "display.h"
#include "humanfmt.h"
#include "i18n.h"
#include "report_words.h"
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

/* A figure for people, in the reader's locale (humanfmt); the buffer is the caller's. */
static const char *num(char *buf, size_t size, double v, humanfmt_style st)
{
    return humanfmt(buf, size, v, st);
}

/* A cost line's name ("index writes", as the model and --json give it) for people. */
static const char *cost_word(const char *name)
{
    const struct {
        const char *name, *word;
    } words[] = {
        {"reads", P_("cost line", "reads")},
        {"writes", P_("cost line", "writes")},
        {"index writes", P_("cost line", "index writes")},
        {"storage", P_("cost line", "storage")},
        {"streams", P_("cost line", "streams")},
        {"backups", P_("cost line", "backups")},
    };
    for (size_t i = 0; name && i < sizeof words / sizeof *words; i++)
        if (strcmp(name, words[i].name) == 0)
            return words[i].word;
    return name ? name : "";
}

/* The base table's name in a plan ("table") for people; an index keeps its name. */
static const char *index_word(const char *name)
{
    if (!name || strcmp(name, "table") == 0)
        /* TRANSLATORS: where a pattern's requests go: the base table (an index keeps its name) */
        return P_("plan", "table");
    return name;
}

/* "  ID  NAME " with the name in a cell of 51 columns (display cells: accents take one) and a
 * space: the name is always followed by two spaces, where the workbench finds its end to cut it. */
static void pattern_head(sbuf *b, const kp_pattern *p)
{
    sbuf_printf(b, "  %-3s ", p->id);
    disp_cell(b, p->name, 51, 0);
    sbuf_addc(b, ' ');
}

static void pattern_line(sbuf *b, const kp_pattern_result *r)
{
    const kp_pattern *p = r->pattern;
    pattern_head(b, p);
    sbuf_printf(b, " %s ", kp_plan_symbol(r->plan));
    const char *word = report_plan_word(r->plan);
    int ww = disp_width(word);
    disp_cell(b, word, ww > 8 ? ww : 8, 0);
    if (r->plan == KP_PLAN_OUTSIDE)
        /* TRANSLATORS: after a pattern's plan "> outside"; %s is where it is served (search-index) */
        sbuf_printf(b, _(" served by %s"), p->served_by ? p->served_by : "?");
    else if (r->plan == KP_PLAN_COVERED)
        /* TRANSLATORS: after a pattern's plan "covered"; %s is the id of the pattern whose result has it */
        sbuf_printf(b, _(" in pattern %s's result"), p->covered_by.s ? p->covered_by.s : "?");
    else if (p->kind == KP_READ) {
        char req[HUMANFMT_SIZE];
        num(req, sizeof req, r->requests, HF_G6_TOUR);
        const char *on = index_word(r->index_name);
        if (isfinite(r->latency_ms) && isfinite(p->latency)) {
            char est[32], tgt[32];
            humanfmt(est, sizeof est, r->latency_ms, HF_MS_TOUR);
            humanfmt(tgt, sizeof tgt, p->latency, HF_MS_TOUR);
            if (r->latency_ok)
                /* TRANSLATORS: requests a call on the table or an index ("1 req on GSI1"), then the
                   latency estimate against the target ("4.07 ms vs 1 s"); req and vs may be
                   shortened */
                sbuf_printf(b, _(" %1$s req on %2$s, %3$s vs %4$s"), req, on, est, tgt);
            else
                /* TRANSLATORS: as " %1$s req on %2$s, %3$s vs %4$s", the estimate over the target */
                sbuf_printf(b, _(" %1$s req on %2$s, %3$s vs %4$s MISSED"), req, on, est, tgt);
        } else
            /* TRANSLATORS: requests a call on the table or an index ("1 req on GSI1") */
            sbuf_printf(b, _(" %1$s req on %2$s"), req, on);
    }
    sbuf_addc(b, '\n');
}

static void cost_line(sbuf *b, const kp_cost *c)
{
    char v[HUMANFMT_SIZE];
    for (size_t i = 0; i < c->nlines; i++)
        sbuf_printf(b, "%s%s %s", i ? ", " : "", cost_word(c->lines[i].name),
                    num(v, sizeof v, c->lines[i].amount, HF_FIX0_TOUR));
    /* TRANSLATORS: the end of the cost line "reads 162, writes 205, ...; total 599 EUR" */
    sbuf_printf(b, _("; total %1$s %2$s"), num(v, sizeof v, c->total, HF_FIX0_TOUR),
                c->currency ? c->currency : "USD");
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
        pattern_head(c->b, p);
        sbuf_printf(c->b, " %8s %10s  %s %s\n", rate, lat, kp_plan_symbol(a->patterns[i].plan),
                    report_plan_word(a->patterns[i].plan));
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
    const char *status = kp_check_status_name(c->a->checklist[item - 1].status);
    if (c->f->label)
        /* TRANSLATORS: a checklist item's number, the tour's label for it, its status (pass, fail, n/a) */
        sbuf_printf(c->b, _("  checklist %1$d (%2$s): %3$s\n"), item, c->f->label, status);
    else
        /* TRANSLATORS: a checklist item's number and its status (pass, fail, n/a) */
        sbuf_printf(c->b, _("  checklist %1$d: %2$s\n"), item, status);
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
    char share[HUMANFMT_SIZE], units[HUMANFMT_SIZE], util[HUMANFMT_SIZE], limit[HUMANFMT_SIZE];
    num(share, sizeof share, h->write_hot_share * 100, HF_FIX0_TOUR);
    num(units, sizeof units, h->write_units, HF_FIX0_TOUR);
    num(util, sizeof util, h->write_util * 100, HF_FIX0_TOUR);
    num(limit, sizeof limit, 1000, HF_FIX0_TOUR);
    const char *where = h->template_src ? h->template_src : "?";
    if (h->hot)
        /* TRANSLATORS: %1$s a partition-key template (ESTADO#{status}), then its share of the
           writes, its write units/s, their share of the partition's limit of %5$s units/s */
        sbuf_printf(
            c->b,
            _("  hottest partition %1$s: %2$s %% of the writes, %3$s write units/s = %4$s %% of its %5$s (HOT)\n"),
            where, share, units, util, limit);
    else
        /* TRANSLATORS: as the line above, for a partition that is not hot */
        sbuf_printf(
            c->b,
            _("  hottest partition %1$s: %2$s %% of the writes, %3$s write units/s = %4$s %% of its %5$s\n"),
            where, share, units, util, limit);
    if (isfinite(total_w))
        sbuf_printf(c->b, _("  the whole table: %s write units/s at peak\n"),
                    num(units, sizeof units, total_w, HF_FIX0_TOUR));
}

static void fig_findings(const fig_ctx *c)
{
    const kp_analysis *a = c->a;
    /* TRANSLATORS: followed by the findings' codes (low-cardinality-pk, hot-partition), which stay */
    sbuf_add(c->b, _("  findings:"));
    if (a->nfindings == 0)
        sbuf_add(c->b, _(" none"));
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
        if (c->a->indexes[i].name && strcmp(c->a->indexes[i].name, c->f->arg) == 0) {
            char n[HUMANFMT_SIZE];
            /* TRANSLATORS: an index's name and how many items it holds */
            sbuf_printf(c->b, _("  %1$s holds %2$s items\n"), c->f->arg,
                        num(n, sizeof n, c->a->indexes[i].items, HF_FIX0_TOUR));
        }
}

static void fig_signals(const fig_ctx *c)
{
    const kp_decision *dec = decision_of(c->a->design, c->f->arg);
    for (size_t k = 0; dec && k < dec->nsignals; k++) {
        double v = NAN;
        bool known = analysis_metric(c->a, dec->signals[k].metric, &v);
        char now[HUMANFMT_SIZE];
        if (known)
            /* TRANSLATORS: a reopening signal as written in the design ("pattern.5.rate > 50") and the value of its metric now */
            sbuf_printf(c->b, _("  signal %1$s: now %2$s\n"), dec->signals[k].src,
                        num(now, sizeof now, v, HF_G6_TOUR));
        else
            /* TRANSLATORS: a reopening signal whose metric keyplan cannot compute */
            sbuf_printf(c->b, _("  signal %s: now unknown 0\n"), dec->signals[k].src);
    }
}

static void fig_refused(const fig_ctx *c)
{
    const kp_decision *dec = decision_of(c->a->design, c->f->arg);
    for (size_t k = 0; dec && k < dec->nalternatives; k++)
        /* TRANSLATORS: a decision's discarded alternative */
        sbuf_printf(c->b, _("  refused: %s\n"), dec->alternatives[k].option);
}

static void fig_ladder(const fig_ctx *c)
{
    const tour_step *s = &c->t->steps[c->step];
    const tour_play *p = &c->t->play[c->step];
    for (size_t r = 0; r < s->nrungs; r++) {
        kp_analysis *ra = analysis_run(p->rungs[r]);
        sbuf_printf(c->b, "  %zu. %s\n", r + 1, s->rungs[r].label);
        /* TRANSLATORS: the cost keyplan computes for a rung of the cost ladder; %s is the billing mode (on-demand, provisioned) */
        sbuf_printf(c->b, _("     keyplan (%s): "),
                    ra->cost->mode == KP_BILLING_PROVISIONED ? P_("billing", "provisioned")
                                                             : P_("billing", "on-demand"));
        cost_line(c->b, ra->cost);
        /* TRANSLATORS: the course's own figures for the rung, as the tour file gives them */
        sbuf_printf(c->b, _("\n     course: %s\n"), s->rungs[r].course);
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
    if (p) {
        char n[HUMANFMT_SIZE], w[HUMANFMT_SIZE], r[HUMANFMT_SIZE], ru[HUMANFMT_SIZE], wu[HUMANFMT_SIZE];
        num(n, sizeof n, p->distinct, HF_FIX0_TOUR);
        num(w, sizeof w, p->write_hot_share * 100, HF_FIX1_TOUR);
        num(r, sizeof r, p->read_hot_share * 100, HF_FIX1_TOUR);
        num(ru, sizeof ru, p->read_util * 100, HF_FIX2_TOUR);
        num(wu, sizeof wu, p->write_util * 100, HF_FIX2_TOUR);
        /* TRANSLATORS: %1$s a partition-key template (CLIENTE#{customerId}); the shares are percentages */
        sbuf_printf(
            c->b,
            _("  %1$s: %2$s distinct partition keys; the hottest takes %3$s %% of the writes and %4$s %% of the reads\n"),
            c->f->arg, n, w, r);
        sbuf_printf(c->b,
                    _("  its use of the partition limits: %1$s %% of the reads, %2$s %% of the writes\n"), ru,
                    wu);
    }
}

static void fig_hot_count(const fig_ctx *c)
{
    size_t hot = 0;
    for (size_t i = 0; i < c->a->npartitions; i++)
        hot += c->a->partitions[i].hot;
    sbuf_printf(c->b, _("  hot partitions: %zu\n"), hot);
}

static void fig_alerts(const fig_ctx *c)
{
    const kp_design *d = c->a->design;
    for (size_t i = 0; i < d->nalerts; i++)
        /* TRANSLATORS: an alert's name, then its metric and condition as the design gives them */
        sbuf_printf(c->b, _("  alert: %1$s (%2$s %3$s)\n"), d->alerts[i].name, d->alerts[i].metric,
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
        sbuf_printf(c->b, "  %-3s ", dec->id);
        disp_cell(c->b, dec->title, 60, 0);
        sbuf_printf(c->b, " %s, ", kp_decision_status_name(dec->status));
        sbuf_printf(c->b, ngettext("%zu alternative", "%zu alternatives", dec->nalternatives),
                    dec->nalternatives);
        sbuf_add(c->b, ", ");
        sbuf_printf(c->b, ngettext("%zu signal", "%zu signals", dec->nsignals), dec->nsignals);
        /* TRANSLATORS: after a decision whose signal fired; reopen is the status word and stays */
        sbuf_printf(c->b, "%s\n", fired ? _(" (FIRED: reopen)") : "");
    }
}

static void fig_cost(const fig_ctx *c)
{
    sbuf_add(c->b, _("  cost: "));
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
    size_t nscans = 1;
    for (const char *q = ids.s; (q = strchr(q, ',')) != NULL; q++)
        nscans++;
    sbuf money, rcu, share, alone;
    sbuf_init(&money);
    sbuf_init(&rcu);
    sbuf_init(&share);
    sbuf_init(&alone);
    sbuf_add(&money, "");
    sbuf_add(&rcu, "");
    sbuf_add(&share, "");
    sbuf_add(&alone, "");
    humanfmt_add_money(&money, a->cost->total, a->cost->currency, HF_MONEY_SCREEN);
    humanfmt_add(&rcu, worst->rcu_per_call, HF_SHORT_SCREEN);
    humanfmt_add(&share, 100 * scans / all, HF_PRINTF_F0);
    humanfmt_add(&alone, 100 * top / all, HF_PRINTF_F0);
    /* TRANSLATORS: the ids of the patterns that scan ("1, 2, 3") */
    char *which = xasprintf(NP_("scans", "pattern %s", "patterns %s", nscans), ids.s);
    sbuf b;
    sbuf_init(&b);
    /* TRANSLATORS: why a design costs so much: %1$s the monthly cost, %2$s "patterns 1, 2, 3",
       %3$s the read units of the worst scan, %4$s and %6$s percentages, %5$s a pattern's id */
    sbuf_printf(
        &b,
        _("Why %1$s a month: scans (%2$s) read the whole table, %3$s read units a call, and make %4$s%% "
          "of the read units the design asks for (pattern %5$s alone %6$s%%). A key that serves a "
          "pattern makes its scan a query."),
        money.s, which, rcu.s, share.s, worst->pattern->id ? worst->pattern->id : "?", alone.s);
    free(which);
    sbuf_free(&money);
    sbuf_free(&rcu);
    sbuf_free(&share);
    sbuf_free(&alone);
    sbuf_free(&ids);
    return sbuf_steal(&b);
}
