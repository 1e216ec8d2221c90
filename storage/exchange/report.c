/* report.c - the text reports: `keyplan check` (an analysis, within 100 columns) and
 * `keyplan heat` (an access log's hottest keys). See report.h. */
#include "report.h"
#include "report_words.h"

#include "analysis_json.h"
#include "display.h"
#include "humanfmt.h"
#include "i18n.h"
#include "signals.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- cells ------------------------------------------------------------------------------ */

/* Appends `s` in a cell of `w` columns: cut with "…" when too wide, padded with spaces. Right
 * aligned when `right`. */
static void cell(sbuf *b, const char *s, int w, bool right)
{
    disp_cell(b, s, w, DISP_MARK_CUT | (right ? DISP_RIGHT : 0));
}

/* Appends `s` padded with spaces to `w` columns (never cut: printf's "%-*s" in display cells). */
static void pad(sbuf *b, const char *s, int w)
{
    sbuf_add(b, s);
    for (int n = disp_width(s); n < w; n++)
        sbuf_addc(b, ' ');
}

/* Removes trailing spaces and ends the line. */
static void endline(sbuf *b)
{
    while (b->len > 0 && b->s[b->len - 1] == ' ')
        b->s[--b->len] = '\0';
    sbuf_addc(b, '\n');
}

/* Appends `text` wrapped at 100 columns: the first line continues after `col` columns already
 * on the line, the following ones are indented by `hang` spaces. Ends the line. */
static void wrapped(sbuf *b, int col, int hang, const char *text)
{
    disp_wrap(b, text, text ? strlen(text) : 0, col, 100, hang);
    endline(b);
}

/* Units per month for a cost line: "980 M", "210 GB", "817" (provisioned units). */
static void fmt_units(char *out, size_t n, const char *line, double u)
{
    char v[24];
    if (!isfinite(u)) {
        snprintf(out, n, " ");
        return;
    }
    if (line && (strstr(line, "storage") || strstr(line, "backup") || strstr(line, "transfer"))) {
        humanfmt(v, sizeof v, u, HF_SHORT_REPORT);
        snprintf(out, n, "%s GB", v);
    } else if (u >= 1e6 && u < 1e12) {
        humanfmt(v, sizeof v, u / 1e6, HF_NUM_REPORT);
        snprintf(out, n, "%s M", v);
    } else {
        humanfmt(out, n, u, HF_SHORT_REPORT);
    }
}

/* ---- sections --------------------------------------------------------------------------- */

static void section(sbuf *b, const char *title) { sbuf_printf(b, "\n%s\n", title); }

/* A column's width: `w`, or wider when its (translated) header needs it, with a space after. */
static int colw(int w, const char *header)
{
    int n = disp_width(header) + 1;
    return n > w ? n : w;
}

/* The name of the index a result reads (`index` -1: the base table, "table" in the reader's
 * language). */
static const char *index_or_table(ptrdiff_t index, const char *index_name)
{
    return !index_name || (index < 0 && *index_name) ? _("table") : index_name;
}

static void report_patterns(sbuf *b, const kp_analysis *a)
{
    section(b, _("PATTERNS"));
    /* id 4 | name 22 | plan 10 | index 6 | key condition 23 | RCU/call 7 | RCU/s 7 | latency:
     * 100 columns in all. A column whose translated header (or plan word) is wider grows, and the
     * name's column gives up as much, so the table keeps its width in every language. */
    /* TRANSLATORS: the PATTERNS table's headers: id, pattern, plan, index and key condition are
     * columns of 4, 22, 10, 6 and 23 cells (a wider word widens its column and narrows the
     * pattern's); the RCU columns are 7 cells, right aligned. */
    const char *h_id = _("id"), *h_name = _("pattern"), *h_plan = _("plan"), *h_index = _("index"),
               *h_kc = _("key condition"), *h_rcu = _("RCU/cal"), *h_rcus = _("RCU/s");
    int w_plan = colw(10, h_plan);
    for (kp_plan p = 0; p < KP_PLAN__COUNT; p++) {
        if (strcmp(report_plan_word(p), kp_plan_word(p)) == 0)
            continue; /* the English words keep the table's layout (a long one is cut) */
        char plan[48];
        snprintf(plan, sizeof plan, "%s %s", kp_plan_symbol(p), report_plan_word(p));
        w_plan = colw(w_plan, plan);
    }
    int w_id = colw(4, h_id), w_index = colw(colw(6, h_index), _("table")), w_kc = colw(23, h_kc);
    /* the first RCU column follows the key condition's space; the second needs one of its own */
    int w_rcu = disp_width(h_rcu) > 7 ? disp_width(h_rcu) : 7, w_rcus = colw(7, h_rcus);
    int grown = (w_id - 4) + (w_plan - 10) + (w_index - 6) + (w_kc - 23) + (w_rcu - 7) + (w_rcus - 7);
    int w_name = 22 - grown < 12 ? 12 : 22 - grown;
    cell(b, h_id, w_id, false);
    cell(b, h_name, w_name, false);
    cell(b, h_plan, w_plan, false);
    cell(b, h_index, w_index, false);
    cell(b, h_kc, w_kc, false);
    cell(b, h_rcu, w_rcu, true);
    cell(b, h_rcus, w_rcus, true);
    sbuf_add(b, "  ");
    sbuf_add(b, _("latency/target"));
    endline(b);
    for (size_t i = 0; i < a->npatterns; i++) {
        const kp_pattern_result *r = &a->patterns[i];
        const kp_pattern *p = r->pattern;
        char plan[48], num1[32], num2[32], lat[32], tgt[32], l[96];
        snprintf(plan, sizeof plan, "%s %s", kp_plan_symbol(r->plan), report_plan_word(r->plan));
        cell(b, p ? p->id : "?", w_id - 1, false);
        sbuf_addc(b, ' ');
        cell(b, p ? p->name : "", w_name - 1, false);
        sbuf_addc(b, ' ');
        cell(b, plan, w_plan - 1, false);
        sbuf_addc(b, ' ');
        bool shows_index = r->plan != KP_PLAN_OUTSIDE && r->plan != KP_PLAN_COVERED;
        cell(b, shows_index ? index_or_table(r->index, r->index_name) : "", w_index - 1, false);
        sbuf_addc(b, ' ');
        const char *kc = r->key_condition && *r->key_condition ? r->key_condition : "";
        if (!*kc && r->plan == KP_PLAN_OUTSIDE && p && p->served_by)
            kc = p->served_by;
        if (!*kc && r->plan == KP_PLAN_COVERED && p && p->covered_by.s) {
            /* TRANSLATORS: in the PATTERNS table, where a covered pattern's key condition would
             * be; %s is the id of the pattern whose result covers it. */
            snprintf(l, sizeof l, _("in pattern %s"), p->covered_by.s);
            kc = l;
        }
        cell(b, kc, w_kc - 1, false);
        sbuf_addc(b, ' ');
        bool reads = p && p->kind == KP_READ && shows_index;
        if (reads) {
            humanfmt(num1, sizeof num1, r->rcu_per_call, HF_SHORT_REPORT);
            humanfmt(num2, sizeof num2, r->rcu_per_s, HF_SHORT_REPORT);
        } else if (p && p->kind == KP_WRITE) {
            /* writes: show write units in the same columns, marked */
            char t1[24], t2[24];
            double wcu = r->wcu_per_call + (isfinite(r->index_wcu_per_call) ? r->index_wcu_per_call : 0);
            humanfmt(t1, sizeof t1, wcu, HF_SHORT_REPORT);
            humanfmt(t2, sizeof t2, r->wcu_per_s, HF_SHORT_REPORT);
            snprintf(num1, sizeof num1, "%sw", t1);
            snprintf(num2, sizeof num2, "%sw", t2);
        } else {
            snprintf(num1, sizeof num1, "0");
            snprintf(num2, sizeof num2, "0");
        }
        cell(b, num1, w_rcu, true);
        cell(b, num2, w_rcus, true);
        sbuf_add(b, "  ");
        if (shows_index && p && p->kind == KP_READ) {
            humanfmt(lat, sizeof lat, r->latency_ms, HF_MS_REPORT);
            if (p && isfinite(p->latency)) {
                humanfmt(tgt, sizeof tgt, p->latency, HF_MS_REPORT);
                /* TRANSLATORS: the latency against its target is within it ("ok") or misses it. */
                snprintf(l, sizeof l, "%s/%s %s", lat, tgt, r->latency_ok ? _("ok") : _("MISS"));
            } else {
                snprintf(l, sizeof l, "%s", lat);
            }
            sbuf_add(b, l);
        }
        endline(b);
    }
    /* TRANSLATORS: the legend under the PATTERNS table, two lines of at most 100 cells; the
     * symbols (= ~ + ! > ^ w t) stay, each followed by the plan word used in the table. */
    sbuf_add(b, _("plans: = get (GetItem)  ~ query  + multi (several requests)  ! scan  > outside DynamoDB\n"
                  "       ^ covered by another pattern  w write  t transaction   RCU: read units (4 KB)\n"));

    /* Full key conditions with the values the caller supplies, then the warnings. */
    bool any = false;
    for (size_t i = 0; i < a->npatterns; i++) {
        const kp_pattern_result *r = &a->patterns[i];
        if (!r->key_condition || !*r->key_condition)
            continue;
        if (!any)
            section(b, _("KEY CONDITIONS"));
        any = true;
        sbuf_add(b, " ");
        cell(b, r->pattern ? r->pattern->id : "?", 3, false);
        /* TRANSLATORS: after a key condition: the query also has a FilterExpression. */
        char *kc = xasprintf("%s: %s%s", index_or_table(r->index, r->index_name), r->key_condition,
                             r->filter ? _("  + filter") : "");
        wrapped(b, 5, 8, kc);
        free(kc);
        if (r->nnames > 0) { /* the ExpressionAttributeNames the texts use */
            sbuf t;
            sbuf_init(&t);
            for (size_t k = 0; k < r->nnames; k++)
                sbuf_printf(&t, "%s%s = \"%s\"", k ? ", " : "", r->names[k].alias, r->names[k].name);
            sbuf_add(b, "        ");
            wrapped(b, 8, 8, t.s);
            sbuf_free(&t);
        }
        if (r->nvalues > 0) {
            sbuf t;
            sbuf_init(&t);
            for (size_t k = 0; k < r->nvalues; k++)
                sbuf_printf(&t, "%s%s = %s", k ? ", " : "", r->values[k].name ? r->values[k].name : "?",
                            r->values[k].value ? r->values[k].value : "");
            sbuf_add(b, "        ");
            wrapped(b, 8, 8, t.s);
            sbuf_free(&t);
        }
    }
    any = false;
    for (size_t i = 0; i < a->npatterns; i++) {
        const kp_pattern_result *r = &a->patterns[i];
        for (size_t k = 0; k < r->nwarnings; k++) {
            if (!any)
                section(b, _("WARNINGS"));
            any = true;
            sbuf_add(b, " ");
            cell(b, r->pattern ? r->pattern->id : "?", 3, false);
            wrapped(b, 4, 4, r->warnings[k]);
        }
    }
    any = false;
    for (size_t i = 0; i < a->npatterns; i++) {
        const kp_pattern_result *r = &a->patterns[i];
        for (size_t k = 0; k < r->nwhy_not; k++) {
            if (!any)
                section(
                    b,
                    _("WHY NOT (the indexes that nearly served a pattern; DynamoDB's rules behind a plan)"));
            any = true;
            sbuf_add(b, " ");
            cell(b, r->pattern ? r->pattern->id : "?", 3, false);
            wrapped(b, 4, 4, r->why_not[k].text ? r->why_not[k].text : "");
        }
    }
}

static void report_partitions(sbuf *b, const kp_analysis *a)
{
    section(b, _("PARTITIONS (hottest value of each partition-key template)"));
    if (a->npartitions == 0) {
        sbuf_add(b, " ");
        sbuf_add(b, _("(no partition figures)"));
        sbuf_add(b, "\n");
        return;
    }
    /* TRANSLATORS: over the PARTITIONS table, this heads its columns items, reads and writes
     * (it ends over the writes column, 78 cells from the left)... */
    const char *over1 = _("hottest value's share of");
    /* TRANSLATORS: ...and this one the last reads and writes columns (it starts 81 cells from
     * the left; the line stays within 100 cells). */
    const char *over2 = _("limit use");
    for (int pad = 78 - disp_width(over1); pad > 0; pad--)
        sbuf_addc(b, ' ');
    sbuf_printf(b, "%s   %s", over1, over2);
    endline(b);
    /* TRANSLATORS: the PARTITIONS table's headers: index 7 cells, template 27, entity 14, then
     * right-aligned columns of 11 (distinct) and 8 (items, reads, writes): at most 7 cells there
     * (abbreviate) so that a space stays between the columns. */
    cell(b, _("index"), 7, false);
    cell(b, _("template"), 27, false);
    cell(b, _("entity"), 14, false);
    cell(b, _("distinct"), 11, true);
    cell(b, P_("partition column", "items"), 8, true);
    cell(b, P_("partition column", "reads"), 8, true);
    cell(b, P_("partition column", "writes"), 8, true);
    cell(b, P_("partition column", "reads"), 8, true);
    cell(b, P_("partition column", "writes"), 8, true);
    endline(b);
    for (size_t i = 0; i < a->npartitions; i++) {
        const kp_partition_result *r = &a->partitions[i];
        char d1[32], s1[32], s2[32], s3[32], u1[32], u2[32];
        if (isfinite(r->distinct) && r->distinct < 1e4)
            snprintf(d1, sizeof d1, "%.0f", r->distinct);
        else
            humanfmt(d1, sizeof d1, r->distinct, HF_SHORT_REPORT);
        humanfmt(s1, sizeof s1, r->hot_share, HF_PCT_REPORT);
        humanfmt(s2, sizeof s2, r->read_hot_share, HF_PCT_REPORT);
        humanfmt(s3, sizeof s3, r->write_hot_share, HF_PCT_REPORT);
        humanfmt(u1, sizeof u1, r->read_util, HF_PCT_REPORT);
        humanfmt(u2, sizeof u2, r->write_util, HF_PCT_REPORT);
        cell(b, index_or_table(r->index, r->index_name), 6, false);
        sbuf_addc(b, ' ');
        cell(b, r->template_src, 26, false);
        sbuf_addc(b, ' ');
        cell(b, r->entity ? r->entity->name : "", 13, false);
        sbuf_addc(b, ' ');
        cell(b, d1, 10, true);
        cell(b, s1, 8, true);
        cell(b, s2, 8, true);
        cell(b, s3, 8, true);
        cell(b, u1, 8, true);
        cell(b, u2, 8, true);
        if (r->hot) {
            sbuf_add(b, "  ");
            /* TRANSLATORS: after a hot partition's row; %d is how many suffixes to shard its key over. */
            sbuf_printf(b, _("HOT: shard x%d"), r->suggest_shards);
        }
        endline(b);
    }
    /* TRANSLATORS: the legend under the PARTITIONS table, lines of at most 100 cells. */
    /* xgettext:no-c-format */
    sbuf_add(b, _("limit use: the hottest value's read and write units against a partition's 3,000 and\n"
                  "1,000 units/s (100 % or more: a hot partition)\n"));
    if (a->nindexes > 0) {
        char s1[32], s2[32], d1[32];
        const kp_index_result *t = &a->indexes[0];
        humanfmt(d1, sizeof d1, t->distinct, HF_NUM_REPORT);
        humanfmt(s1, sizeof s1, t->write_hot_share, HF_PCT_REPORT);
        humanfmt(s2, sizeof s2, t->read_hot_share, HF_PCT_REPORT);
        /* TRANSLATORS: %1$s distinct partition keys of the table; its hottest key's share of the
         * writes (%2$s) and of the reads (%3$s), as "0.1 %". */
        sbuf_printf(
            b,
            _("table: %1$s distinct partition keys; hottest takes %2$s of the writes, %3$s of the reads\n"),
            d1, s1, s2);
    }
}

static const kp_cost_line *find_line(const kp_cost *c, const char *name)
{
    for (size_t i = 0; i < c->nlines; i++)
        if (c->lines[i].name && name && strcmp(c->lines[i].name, name) == 0)
            return &c->lines[i];
    return NULL;
}

static void report_cost(sbuf *b, const kp_design *d, const kp_analysis *a)
{
    const kp_cost *od = &a->on_demand, *pv = &a->provisioned;
    const char *cur = od->currency ? od->currency : pv->currency ? pv->currency : "USD";
    char title[160];
    /* TRANSLATORS: the COST section's title; %s is the currency (EUR, USD). */
    snprintf(title, sizeof title, _("COST per month (%s, 730 h)"), cur);
    section(b, title);
    /* the names' column: 15, wider for a global table's "replicated writes" (or a longer word) */
    const char *total = _("total");
    int namew = 15;
    for (int pass = 0; pass < 2; pass++) {
        const kp_cost *c = pass ? pv : od;
        for (size_t i = 0; i < c->nlines; i++)
            if (disp_width(report_cost_name(c->lines[i].name)) > namew)
                namew = disp_width(report_cost_name(c->lines[i].name));
    }
    if (disp_width(total) > namew)
        namew = disp_width(total);
    /* TRANSLATORS: the COST table's headers, right aligned in columns of 14 (billing modes) and
     * 11 (amounts) cells: at most 13 and 10. */
    const char *h_od = _("on-demand"), *h_pv = _("provisioned"), *h_amount = _("amount");
    int w_units = colw(colw(14, h_od), h_pv), w_amount = colw(11, h_amount);
    cell(b, "", namew + 1, false);
    cell(b, h_od, w_units, true);
    cell(b, h_amount, w_amount, true);
    cell(b, h_pv, w_units, true);
    cell(b, h_amount, w_amount, true);
    endline(b);
    /* Lines in on-demand order, then any provisioned-only line. */
    const kp_cost *order[2] = {od, pv};
    for (int pass = 0; pass < 2; pass++) {
        const kp_cost *c = order[pass];
        for (size_t i = 0; i < c->nlines; i++) {
            const char *name = c->lines[i].name;
            if (pass == 1 && find_line(od, name))
                continue;
            const kp_cost_line *lo = find_line(od, name), *lp = find_line(pv, name);
            char u1[32], a1[32], u2[32], a2[32];
            fmt_units(u1, sizeof u1, name, lo ? lo->units : NAN);
            humanfmt(a1, sizeof a1, lo ? lo->amount : 0, HF_MONEY_REPORT);
            fmt_units(u2, sizeof u2, name, lp ? lp->units : NAN);
            /* provisioned reads and writes are capacity units, not requests */
            if (lp && isfinite(lp->units) && lp->units < 1e6 && name &&
                (strcmp(name, "reads") == 0 || strstr(name, "writes"))) {
                char v[24];
                humanfmt(v, sizeof v, lp->units, HF_SHORT_REPORT);
                snprintf(u2, sizeof u2, "%s %s", v, strcmp(name, "reads") == 0 ? "RCU" : "WCU");
            }
            humanfmt(a2, sizeof a2, lp ? lp->amount : 0, HF_MONEY_REPORT);
            sbuf_add(b, " ");
            cell(b, report_cost_name(name), namew, false);
            cell(b, lo ? u1 : "", w_units, true);
            cell(b, lo ? a1 : "-", w_amount, true);
            cell(b, lp ? u2 : "", w_units, true);
            cell(b, lp ? a2 : "-", w_amount, true);
            endline(b);
        }
    }
    char t1[32], t2[32];
    humanfmt(t1, sizeof t1, od->total, HF_MONEY_REPORT);
    humanfmt(t2, sizeof t2, pv->total, HF_MONEY_REPORT);
    sbuf_add(b, " ");
    cell(b, total, namew, false);
    cell(b, "", w_units, true);
    cell(b, t1, w_amount, true);
    cell(b, "", w_units, true);
    cell(b, t2, w_amount, true);
    sbuf_add(b, "   ");
    /* TRANSLATORS: after the totals; %s is the header of the billed mode's column (on-demand,
     * provisioned). The line holds 1 + 21 + 50 cells before it: keep it within 100. */
    sbuf_printf(b, _("<- billing: %s"), d->table.billing == KP_BILLING_PROVISIONED ? h_pv : h_od);
    endline(b);
}

static void report_checklist(sbuf *b, const kp_analysis *a)
{
    char title[160];
    /* TRANSLATORS: the CHECKLIST section's title: %1$d of the %2$d checklist items that apply pass. */
    snprintf(title, sizeof title, _("CHECKLIST (%1$d of %2$d applicable items pass)"), a->checklist_pass,
             a->checklist_applicable);
    section(b, title);
    /* TRANSLATORS: a checklist item's state: it passes, it fails, it does not apply. */
    const char *st_pass = _("pass"), *st_fail = _("FAIL"), *st_na = _("n/a");
    int stw = 4;
    const char *states[] = {st_pass, st_fail, st_na};
    for (size_t k = 0; k < 3; k++)
        if (disp_width(states[k]) > stw)
            stw = disp_width(states[k]);
    int col = stw + 7; /* the wrapped text's column after " %2d %-4s  " (as it always was) */
    for (size_t i = 0; i < KP_CHECKLIST_ITEMS; i++) {
        const kp_check_item *c = &a->checklist[i];
        const char *st = c->status == KP_CHECK_PASS ? st_pass : c->status == KP_CHECK_FAIL ? st_fail : st_na;
        sbuf_printf(b, " %2d ", c->item ? c->item : (int)i + 1);
        pad(b, st, stw);
        sbuf_add(b, "  ");
        wrapped(b, col, col, c->title ? _(c->title) : "");
        if (c->why && *c->why) {
            for (int k = 0; k < col; k++)
                sbuf_addc(b, ' ');
            wrapped(b, col, col, c->why);
        }
    }
}

static void report_findings(sbuf *b, const kp_analysis *a)
{
    char title[96];
    /* TRANSLATORS: the FINDINGS section's title; %zu is how many. */
    snprintf(title, sizeof title, _("FINDINGS (%zu)"), a->nfindings);
    section(b, title);
    if (a->nfindings == 0) {
        sbuf_add(b, " ");
        /* TRANSLATORS: under FINDINGS when there is none. */
        sbuf_add(b, P_("findings", "none"));
        sbuf_add(b, "\n");
        return;
    }
    int sevw = 7;
    for (kp_severity s = KP_SEV_ERROR; s <= KP_SEV_NOTE; s++)
        if (disp_width(report_severity(s)) > sevw)
            sevw = disp_width(report_severity(s));
    /* TRANSLATORS: before a finding's fix (indented under the finding). */
    const char *fix = _("fix:");
    for (size_t i = 0; i < a->nfindings; i++) {
        const kp_finding *f = &a->findings[i];
        sbuf head;
        sbuf_init(&head);
        sbuf_addc(&head, ' ');
        pad(&head, report_severity(f->sev), sevw);
        sbuf_printf(&head, " %s, %s: ", f->code ? f->code : "?", f->where ? f->where : "");
        sbuf_add(b, head.s);
        wrapped(b, disp_width(head.s), sevw + 2, f->message);
        sbuf_free(&head);
        if (f->fix && *f->fix) {
            for (int k = 0; k < sevw + 2; k++)
                sbuf_addc(b, ' ');
            sbuf_printf(b, "%s ", fix);
            int col = sevw + 3 + disp_width(fix);
            wrapped(b, col, col, _(f->fix));
        }
    }
}

static void report_signals(sbuf *b, const kp_design *d, const kp_analysis *a)
{
    bool any = false;
    /* TRANSLATORS: a reopening signal's value is not known; in a column of 12 cells. */
    const char *unknown = _("unknown");
    /* TRANSLATORS: a reopening signal's state: it fired (the decision must be reopened) or not. */
    const char *fired_s = _("FIRED: reopen"), *quiet = _("quiet");
    /* TRANSLATORS: before a reopening signal's current value ("now 1.00"). */
    const char *now = _("now");
    for (size_t i = 0; i < d->ndecisions; i++) {
        const kp_decision *dec = &d->decisions[i];
        for (size_t k = 0; k < dec->nsignals; k++) {
            const kp_signal *s = &dec->signals[k];
            if (!any)
                section(b, _("REOPENING SIGNALS (against the design's own figures)"));
            any = true;
            double v = NAN;
            bool known = s->metric && analysis_metric(a, s->metric, &v) && isfinite(v);
            bool fired = known && sig_compare(v, s->cmp, s->value);
            char val[32];
            humanfmt(val, sizeof val, v, HF_NUM_REPORT);
            sbuf_addc(b, ' ');
            pad(b, dec->id ? dec->id : "?", 4);
            sbuf_addc(b, ' ');
            pad(b, s->src ? s->src : "", 32);
            sbuf_printf(b, " %s ", now);
            pad(b, known ? val : unknown, 12);
            sbuf_printf(b, " %s", fired ? fired_s : known ? quiet : "");
            endline(b);
        }
    }
}

char *report_check_text(const char *path, const kp_design *d, const kp_analysis *a)
{
    sbuf b;
    sbuf_init(&b);
    sbuf_printf(&b, "%s  (%s)\n", d->name ? d->name : _("(unnamed design)"), path);
    char *ni = xasprintf(ngettext("%zu index", "%zu indexes", d->nindexes), d->nindexes);
    char *ne = xasprintf(ngettext("%zu entity", "%zu entities", d->nentities), d->nentities);
    char *np = xasprintf(ngettext("%zu pattern", "%zu patterns", d->npatterns), d->npatterns);
    char *keys = xasprintf("%s%s%s", d->table.pk.s ? d->table.pk.s : "?", d->table.sk.s ? " + " : "",
                           d->table.sk.s ? d->table.sk.s : "");
    /* TRANSLATORS: the report's second line: table %1$s, its key (%2$s, "PK + SK"), its billing
     * mode, then "2 indexes", "5 entities", "13 patterns". */
    sbuf_printf(&b, _("table %1$s: %2$s, %3$s, %4$s, %5$s, %6$s\n"), d->table.name ? d->table.name : "?",
                keys, report_billing_name(d->table.billing), ni, ne, np);
    free(ni);
    free(ne);
    free(np);
    free(keys);
    if (d->table.nreplicas > 0) { /* a global table: where else it lives */
        sbuf regions;
        sbuf_init(&regions);
        for (size_t i = 0; i < d->table.nreplicas; i++)
            sbuf_printf(&regions, "%s%s", i ? ", " : "", d->table.replicas[i].s);
        /* TRANSLATORS: %s is the list of regions the table is replicated to. */
        sbuf_printf(&b, _("global table, replicated to %s\n"), regions.s);
        sbuf_free(&regions);
    }
    report_patterns(&b, a);
    report_partitions(&b, a);
    report_cost(&b, d, a);
    report_checklist(&b, a);
    report_findings(&b, a);
    report_signals(&b, d, a);
    return sbuf_steal(&b);
}
