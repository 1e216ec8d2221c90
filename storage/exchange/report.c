/* report.c - the text reports: `keyplan check` (an analysis, within 100 columns) and
 * `keyplan heat` (an access log's hottest keys). See report.h. */
#include "report.h"

#include "analysis_json.h"
#include "display.h"
#include "humanfmt.h"
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

static void report_patterns(sbuf *b, const kp_analysis *a)
{
    section(b, "PATTERNS");
    /* id 4 | name 22 | plan 10 | index 6 | key condition 23 | RCU/call 7 | RCU/s 7 | latency:
     * 100 columns in all */
    cell(b, "id", 4, false);
    cell(b, "pattern", 22, false);
    cell(b, "plan", 10, false);
    cell(b, "index", 6, false);
    cell(b, "key condition", 23, false);
    cell(b, "RCU/cal", 7, true);
    cell(b, "RCU/s", 7, true);
    sbuf_add(b, "  latency/target");
    endline(b);
    for (size_t i = 0; i < a->npatterns; i++) {
        const kp_pattern_result *r = &a->patterns[i];
        const kp_pattern *p = r->pattern;
        char plan[32], num1[32], num2[32], lat[32], tgt[32], l[80];
        snprintf(plan, sizeof plan, "%s %s", kp_plan_symbol(r->plan), kp_plan_word(r->plan));
        cell(b, p ? p->id : "?", 3, false);
        sbuf_addc(b, ' ');
        cell(b, p ? p->name : "", 21, false);
        sbuf_addc(b, ' ');
        cell(b, plan, 9, false);
        sbuf_addc(b, ' ');
        bool shows_index = r->plan != KP_PLAN_OUTSIDE && r->plan != KP_PLAN_COVERED;
        cell(b, shows_index ? (r->index_name ? r->index_name : "table") : "", 5, false);
        sbuf_addc(b, ' ');
        const char *kc = r->key_condition && *r->key_condition ? r->key_condition : "";
        if (!*kc && r->plan == KP_PLAN_OUTSIDE && p && p->served_by)
            kc = p->served_by;
        if (!*kc && r->plan == KP_PLAN_COVERED && p && p->covered_by.s) {
            snprintf(l, sizeof l, "in pattern %s", p->covered_by.s);
            kc = l;
        }
        cell(b, kc, 22, false);
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
        cell(b, num1, 7, true);
        cell(b, num2, 7, true);
        sbuf_add(b, "  ");
        if (shows_index && p && p->kind == KP_READ) {
            humanfmt(lat, sizeof lat, r->latency_ms, HF_MS_REPORT);
            if (p && isfinite(p->latency)) {
                humanfmt(tgt, sizeof tgt, p->latency, HF_MS_REPORT);
                snprintf(l, sizeof l, "%s/%s %s", lat, tgt, r->latency_ok ? "ok" : "MISS");
            } else {
                snprintf(l, sizeof l, "%s", lat);
            }
            sbuf_add(b, l);
        }
        endline(b);
    }
    sbuf_add(b, "plans: = get (GetItem)  ~ query  + multi (several requests)  ! scan  > outside DynamoDB\n"
                "       ^ covered by another pattern  w write  t transaction   RCU: read units (4 KB)\n");

    /* Full key conditions with the values the caller supplies, then the warnings. */
    bool any = false;
    for (size_t i = 0; i < a->npatterns; i++) {
        const kp_pattern_result *r = &a->patterns[i];
        if (!r->key_condition || !*r->key_condition)
            continue;
        if (!any)
            section(b, "KEY CONDITIONS");
        any = true;
        sbuf_add(b, " ");
        cell(b, r->pattern ? r->pattern->id : "?", 3, false);
        char *kc = xasprintf("%s: %s%s", r->index_name ? r->index_name : "table", r->key_condition,
                             r->filter ? "  + filter" : "");
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
                section(b, "WARNINGS");
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
                section(b,
                        "WHY NOT (the indexes that nearly served a pattern; DynamoDB's rules behind a plan)");
            any = true;
            sbuf_add(b, " ");
            cell(b, r->pattern ? r->pattern->id : "?", 3, false);
            wrapped(b, 4, 4, r->why_not[k].text ? r->why_not[k].text : "");
        }
    }
}

static void report_partitions(sbuf *b, const kp_analysis *a)
{
    section(b, "PARTITIONS (hottest value of each partition-key template)");
    if (a->npartitions == 0) {
        sbuf_add(b, " (no partition figures)\n");
        return;
    }
    sbuf_add(b,
             "                                                      hottest value's share of   limit use\n");
    cell(b, "index", 7, false);
    cell(b, "template", 27, false);
    cell(b, "entity", 14, false);
    cell(b, "distinct", 11, true);
    cell(b, "items", 8, true);
    cell(b, "reads", 8, true);
    cell(b, "writes", 8, true);
    cell(b, "reads", 8, true);
    cell(b, "writes", 8, true);
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
        cell(b, r->index_name ? r->index_name : "table", 6, false);
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
        if (r->hot)
            sbuf_printf(b, "  HOT: shard x%d", r->suggest_shards);
        endline(b);
    }
    sbuf_add(b, "limit use: the hottest value's read and write units against a partition's 3,000 and\n"
                "1,000 units/s (100 % or more: a hot partition)\n");
    if (a->nindexes > 0) {
        char s1[32], s2[32], d1[32];
        const kp_index_result *t = &a->indexes[0];
        humanfmt(d1, sizeof d1, t->distinct, HF_NUM_REPORT);
        humanfmt(s1, sizeof s1, t->write_hot_share, HF_PCT_REPORT);
        humanfmt(s2, sizeof s2, t->read_hot_share, HF_PCT_REPORT);
        sbuf_printf(b, "table: %s distinct partition keys; hottest takes %s of the writes, %s of the reads\n",
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
    char title[96];
    snprintf(title, sizeof title, "COST per month (%s, 730 h)", cur);
    section(b, title);
    bool is_prov = d->table.billing == KP_BILLING_PROVISIONED;
    /* the names' column: 15, wider for a global table's "replicated writes" */
    int namew = 15;
    for (size_t i = 0; i < od->nlines; i++)
        if (od->lines[i].name && (int)strlen(od->lines[i].name) > namew)
            namew = (int)strlen(od->lines[i].name);
    cell(b, "", namew + 1, false);
    cell(b, "on-demand", 14, true);
    cell(b, "amount", 11, true);
    cell(b, "provisioned", 14, true);
    cell(b, "amount", 11, true);
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
            cell(b, name, namew, false);
            cell(b, lo ? u1 : "", 14, true);
            cell(b, lo ? a1 : "-", 11, true);
            cell(b, lp ? u2 : "", 14, true);
            cell(b, lp ? a2 : "-", 11, true);
            endline(b);
        }
    }
    char t1[32], t2[32];
    humanfmt(t1, sizeof t1, od->total, HF_MONEY_REPORT);
    humanfmt(t2, sizeof t2, pv->total, HF_MONEY_REPORT);
    sbuf_add(b, " ");
    cell(b, "total", namew, false);
    cell(b, "", 14, true);
    cell(b, t1, 11, true);
    cell(b, "", 14, true);
    cell(b, t2, 11, true);
    sbuf_printf(b, "   <- billing: %s", is_prov ? "provisioned" : "on-demand");
    endline(b);
}

static void report_checklist(sbuf *b, const kp_analysis *a)
{
    char title[64];
    snprintf(title, sizeof title, "CHECKLIST (%d of %d applicable items pass)", a->checklist_pass,
             a->checklist_applicable);
    section(b, title);
    for (size_t i = 0; i < KP_CHECKLIST_ITEMS; i++) {
        const kp_check_item *c = &a->checklist[i];
        const char *st = c->status == KP_CHECK_PASS ? "pass" : c->status == KP_CHECK_FAIL ? "FAIL" : "n/a";
        sbuf_printf(b, " %2d %-4s  ", c->item ? c->item : (int)i + 1, st);
        wrapped(b, 11, 11, c->title ? c->title : "");
        if (c->why && *c->why) {
            sbuf_add(b, "           ");
            wrapped(b, 11, 11, c->why);
        }
    }
}

static void report_findings(sbuf *b, const kp_analysis *a)
{
    char title[64];
    snprintf(title, sizeof title, "FINDINGS (%zu)", a->nfindings);
    section(b, title);
    if (a->nfindings == 0) {
        sbuf_add(b, " none\n");
        return;
    }
    for (size_t i = 0; i < a->nfindings; i++) {
        const kp_finding *f = &a->findings[i];
        char *head = xasprintf(" %-7s %s, %s: ", analysis_json_severity(f->sev), f->code ? f->code : "?",
                               f->where ? f->where : "");
        sbuf_add(b, head);
        wrapped(b, disp_width(head), 9, f->message);
        free(head);
        if (f->fix && *f->fix) {
            sbuf_add(b, "         fix: ");
            wrapped(b, 14, 14, f->fix);
        }
    }
}

static void report_signals(sbuf *b, const kp_design *d, const kp_analysis *a)
{
    bool any = false;
    for (size_t i = 0; i < d->ndecisions; i++) {
        const kp_decision *dec = &d->decisions[i];
        for (size_t k = 0; k < dec->nsignals; k++) {
            const kp_signal *s = &dec->signals[k];
            if (!any)
                section(b, "REOPENING SIGNALS (against the design's own figures)");
            any = true;
            double v = NAN;
            bool known = s->metric && analysis_metric(a, s->metric, &v) && isfinite(v);
            bool fired = known && sig_compare(v, s->cmp, s->value);
            char val[32];
            humanfmt(val, sizeof val, v, HF_NUM_REPORT);
            sbuf_printf(b, " %-4s %-32s now %-12s %s\n", dec->id ? dec->id : "?", s->src ? s->src : "",
                        known ? val : "unknown",
                        fired   ? "FIRED: reopen"
                        : known ? "quiet"
                                : "");
        }
    }
}

char *report_check_text(const char *path, const kp_design *d, const kp_analysis *a)
{
    sbuf b;
    sbuf_init(&b);
    sbuf_printf(&b, "%s  (%s)\n", d->name ? d->name : "(unnamed design)", path);
    sbuf_printf(&b, "table %s: %s%s%s, %s, %zu index%s, %zu entit%s, %zu pattern%s\n",
                d->table.name ? d->table.name : "?", d->table.pk.s ? d->table.pk.s : "?",
                d->table.sk.s ? " + " : "", d->table.sk.s ? d->table.sk.s : "",
                kp_billing_name(d->table.billing), d->nindexes, d->nindexes == 1 ? "" : "es", d->nentities,
                d->nentities == 1 ? "y" : "ies", d->npatterns, d->npatterns == 1 ? "" : "s");
    for (size_t i = 0; i < d->table.nreplicas; i++) /* a global table: where else it lives */
        sbuf_printf(&b, "%s%s%s", i ? ", " : "global table, replicated to ", d->table.replicas[i].s,
                    i + 1 == d->table.nreplicas ? "\n" : "");
    report_patterns(&b, a);
    report_partitions(&b, a);
    report_cost(&b, d, a);
    report_checklist(&b, a);
    report_findings(&b, a);
    report_signals(&b, d, a);
    return sbuf_steal(&b);
}
