/* export_md.c - the decision record, Markdown and JSON. */
#include "export_md.h"

#include "analysis_json.h"
#include "design_io.h"
#include "humanfmt.h"
#include "i18n.h"
#include "item.h"
#include "report_words.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- text helpers ------------------------------------------------------------------------ */

/* Text for a table cell: pipes escaped, line breaks as <br>. */
static void cell(sbuf *b, const char *s)
{
    if (!s || !*s) {
        sbuf_add(b, "—");
        return;
    }
    for (const char *p = s; *p; p++) {
        unsigned char ch = (unsigned char)*p;
        if (*p == '|')
            sbuf_add(b, "\\|");
        else if (*p == '\n') {
            if (p[1])
                sbuf_add(b, "<br>");
        } else if (*p == '\r')
            continue;
        else if (ch < 0x20 || ch == 0x7f ||
                 (ch == 0xc2 && (unsigned char)p[1] >= 0x80 && (unsigned char)p[1] <= 0x9f)) {
            /* a terminal control (an old version's message, an observation's source): shown, never sent */
            char one[3] = {*p, ch == 0xc2 ? p[1] : 0, 0};
            char *esc = util_escape_controls(one);
            sbuf_add(b, esc);
            free(esc);
            if (ch == 0xc2)
                p++;
        } else
            sbuf_addc(b, *p);
    }
}

/* `code` in a cell; backticks inside are doubled up by using a longer fence. */
static void code(sbuf *b, const char *s)
{
    if (!s || !*s) {
        sbuf_add(b, "—");
        return;
    }
    const char *fence = strchr(s, '`') ? "`` " : "`";
    const char *close = strchr(s, '`') ? " ``" : "`";
    sbuf_add(b, fence);
    for (const char *p = s; *p; p++) {
        if (*p == '|')
            sbuf_add(b, "\\|");
        else if (*p != '\n' && *p != '\r')
            sbuf_addc(b, *p);
        else
            sbuf_addc(b, ' ');
    }
    sbuf_add(b, close);
}

/* A paragraph of free text (kept as written, trailing newlines trimmed). */
static void para(sbuf *b, const char *label, const char *s)
{
    sbuf_printf(b, "**%s** ", label);
    if (!s || !*s) {
        sbuf_add(b, _("_not written._"));
        sbuf_add(b, "\n\n");
        return;
    }
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
        n--;
    sbuf_addn(b, s, n);
    sbuf_add(b, "\n\n");
}

/* The record's figures, in its styles (model/humanfmt.h). A rate is in requests/s; tiny rates
 * read better per hour or per day (the daily close: 1/day). */
static void num(sbuf *b, double v) { humanfmt_add(b, v, HF_NUM_DOC); }
static void rate(sbuf *b, double v) { humanfmt_add(b, v, HF_RATE_DOC); }
static void money(sbuf *b, double v, const char *cur) { humanfmt_add_money(b, v, cur, HF_MONEY_DOC); }
static void pct(sbuf *b, double v) { humanfmt_add(b, v, HF_PCT_DOC); }

static const char *or_dash(const char *s) { return s && *s ? s : "—"; }

/* ---- sections ---------------------------------------------------------------------------- */

static void heading(sbuf *b, const export_record *r)
{
    const kp_design *d = r->design;
    /* TRANSLATORS: the decision record's title; %s is the design's name. */
    sbuf_printf(b, _("# Decision record: %s\n\n"), or_dash(d->name));
    if (r->version > 0) {
        const ws_version *v = NULL;
        for (size_t i = 0; i < r->nhistory; i++)
            if (r->history[i].number == r->version)
                v = &r->history[i];
        if (v) {
            sbuf au, msg;
            sbuf_init(&au);
            sbuf_init(&msg);
            cell(&au, v->author);
            cell(&msg, v->message);
            /* TRANSLATORS: %1$s the workspace, %2$d the version, %3$s its date, %4$s its author,
             * %5$s its message. */
            sbuf_printf(
                b, _("Exported by keyplan from workspace `%1$s`, version %2$d (%3$s, by %4$s: “%5$s”).\n\n"),
                or_dash(r->source), r->version, v->time, au.s, msg.s);
            sbuf_free(&au);
            sbuf_free(&msg);
        } else {
            sbuf_printf(b, _("Exported by keyplan from workspace `%1$s`, version %2$d.\n\n"),
                        or_dash(r->source), r->version);
        }
    } else if (r->working) {
        if (r->working_base > 0)
            sbuf_printf(b,
                        _("Exported by keyplan from workspace `%1$s`: an uncommitted working copy (based on "
                          "version %2$d, with changes not recorded in any version).\n\n"),
                        or_dash(r->source), r->working_base);
        else
            sbuf_printf(b,
                        _("Exported by keyplan from workspace `%s`: an uncommitted working copy (no version "
                          "committed yet).\n\n"),
                        or_dash(r->source));
    } else if (r->source) {
        sbuf_printf(b, _("Exported by keyplan from the design file `%s`.\n\n"), r->source);
    }
    if (d->description && *d->description) {
        para(b, _("What this is."), d->description);
    }
    sbuf_add(
        b,
        _("How to read it: the access patterns come first, because in DynamoDB the model follows from them; "
          "then the keys that serve them, how each pattern is served and at what cost, where the load "
          "concentrates, the course checklist, and every decision with the alternatives discarded, the "
          "assumptions that would falsify it, how to see it fail, how to roll it back, and the signals that "
          "reopen it. Every figure is computed by keyplan from the design below; nothing here is tacit.\n\n"));
    const kp_analysis *a = r->analysis;
    size_t reopen = 0;
    for (size_t i = 0; i < d->ndecisions; i++)
        reopen += sig_decision_fired(r->signals, &d->decisions[i]);
    size_t scans = 0, hot = 0;
    for (size_t i = 0; i < a->npatterns; i++)
        scans += a->patterns[i].plan == KP_PLAN_SCAN;
    for (size_t i = 0; i < a->npartitions; i++)
        hot += a->partitions[i].hot;
    sbuf_add(b, _("| Summary | |\n|---|---|\n"));
    /* TRANSLATORS: a row of the summary table: how many patterns, how many of them a Scan serves. */
    sbuf_printf(b, _("| Access patterns | %1$zu (%2$zu served by a scan) |\n"), d->npatterns, scans);
    sbuf_printf(b, _("| Entities · indexes | %zu · %zu |\n"), d->nentities, d->nindexes);
    sbuf_printf(b, _("| Checklist | %1$d of %2$d applicable items pass |\n"), a->checklist_pass,
                a->checklist_applicable);
    /* TRANSLATORS: a row of the summary table: %s is the billing mode (on-demand, provisioned). */
    sbuf_printf(b, _("| Monthly cost (%s) | "),
                report_billing_name(a->cost ? a->cost->mode : KP_BILLING_ON_DEMAND));
    if (a->cost)
        money(b, a->cost->total, a->cost->currency);
    else
        sbuf_add(b, "—");
    sbuf_add(b, " |\n");
    sbuf_printf(b, _("| Hot partitions | %zu |\n"), hot);
    size_t errs = 0;
    for (size_t i = 0; i < a->nfindings; i++)
        errs += a->findings[i].sev == KP_SEV_ERROR;
    sbuf_printf(b, _("| Findings | %1$zu (%2$zu errors) |\n"), a->nfindings, errs);
    sbuf_printf(b, _("| Decisions | %1$zu (%2$zu to reopen) |\n\n"), d->ndecisions, reopen);
}

static bool blank(const char *s) { return !s || !*s; }

/* What the record does not say yet: the course's acceptance criteria ask for an alternative
 * discarded, a falsifiable assumption, a failure test, a rollback, a limitation and a condition
 * that would reopen each decision. */
static void gaps(sbuf *b, const export_record *r)
{
    const kp_design *d = r->design;
    sbuf g;
    sbuf_init(&g);
    for (size_t i = 0; i < d->ndecisions; i++) {
        const kp_decision *x = &d->decisions[i];
        const char *miss[7];
        size_t n = 0;
        if (blank(x->context))
            miss[n++] = _("context");
        if (!x->nalternatives)
            miss[n++] = _("an alternative discarded");
        if (!x->nassumptions)
            miss[n++] = _("a falsifiable assumption");
        if (blank(x->failure_test))
            miss[n++] = _("a failure test");
        if (blank(x->rollback))
            miss[n++] = _("a rollback");
        if (blank(x->limitations))
            miss[n++] = _("a limitation");
        if (!x->nsignals)
            miss[n++] = _("a reopening signal");
        if (!n)
            continue;
        sbuf list;
        sbuf_init(&list);
        /* TRANSLATORS: between the items of a list, and before its last item. */
        const char *comma = _(", "), *and = _(" and ");
        for (size_t k = 0; k < n; k++)
            sbuf_printf(&list, "%s%s", k ? (k + 1 == n ? and : comma) : "", miss[k]);
        /* TRANSLATORS: %1$s a decision's id, %2$s the list of what it lacks ("context, a rollback
         * and a limitation"). */
        sbuf_printf(&g, _("- decision %1$s lacks %2$s\n"), x->id, list.s);
        sbuf_free(&list);
    }
    for (size_t i = 0; i < d->nindexes; i++)
        if (blank(d->indexes[i].why))
            sbuf_printf(&g, _("- index %s does not say why it exists\n"), d->indexes[i].name);
    for (size_t i = 0; i < d->npatterns; i++) {
        const kp_pattern *p = &d->patterns[i];
        if (p->needs == KP_NEEDS_NONE && !p->served_by && (isnan(p->rate) || isnan(p->latency)))
            sbuf_printf(&g,
                        isnan(p->rate) && isnan(p->latency)
                            ? _("- pattern %s has no frequency nor latency target\n")
                        : isnan(p->rate) ? _("- pattern %s has no frequency\n")
                                         : _("- pattern %s has no latency target\n"),
                        p->id);
        if (p->kind == KP_READ && p->consistency == KP_STRONG && blank(p->why))
            sbuf_printf(&g, _("- pattern %s reads strongly consistent without saying why\n"), p->id);
    }
    if (!d->ndecisions)
        sbuf_add(&g, _("- no decision is recorded\n"));
    sbuf_add(b, _("### What this record does not say yet\n\n"));
    if (g.len)
        sbuf_add(b, g.s);
    else
        sbuf_add(
            b,
            _("Nothing: every decision has its context, an alternative discarded, a falsifiable assumption, a "
              "failure test, a rollback, a limitation and a reopening signal; every index says why it exists.\n"));
    sbuf_add(b, "\n");
    sbuf_free(&g);
}

static void entities_of_pattern(sbuf *b, const kp_pattern *p)
{
    if (!p->nentities) {
        sbuf_add(b, "—");
        return;
    }
    for (size_t i = 0; i < p->nentities; i++) {
        if (i)
            sbuf_add(b, ", ");
        cell(b, p->entities[i].s);
    }
}

static void patterns_section(sbuf *b, const kp_design *d)
{
    sbuf_add(b, _("## 1. Access patterns\n\n"));
    sbuf_add(b,
             _("Written before the model: what is asked, with what, how often, how fast and how fresh.\n\n"));
    sbuf_add(
        b,
        _("| # | Pattern | Kind | Entities | Asked with | Peak req/s | Avg req/s | Latency target | Consistency | "
          "Shape | Why |\n"));
    sbuf_add(b, "|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < d->npatterns; i++) {
        const kp_pattern *p = &d->patterns[i];
        sbuf_add(b, "| ");
        cell(b, p->id);
        sbuf_add(b, " | ");
        cell(b, p->name);
        sbuf_add(b, " | ");
        if (p->kind == KP_WRITE)
            /* TRANSLATORS: a write pattern's kind; %s is its operation (put, update, delete...). */
            sbuf_printf(b, _("write (%s)"), kp_write_op_name(p->op));
        else
            sbuf_add(b, P_("pattern kind", "read"));
        sbuf_add(b, " | ");
        entities_of_pattern(b, p);
        sbuf_add(b, " | ");
        if (!p->nby)
            sbuf_add(b, "—");
        for (size_t k = 0; k < p->nby; k++) {
            if (k)
                sbuf_add(b, ", ");
            char *t = p->by[k].value ? xasprintf("%s=%s", p->by[k].attr.s, p->by[k].value)
                                     : xstrdup(p->by[k].attr.s);
            code(b, t);
            free(t);
        }
        sbuf_add(b, " | ");
        rate(b, p->rate);
        sbuf_add(b, " | ");
        rate(b, isnan(p->avg) ? p->rate : p->avg);
        sbuf_add(b, " | ");
        if (isnan(p->latency))
            sbuf_add(b, _("**not written**"));
        else {
            num(b, p->latency);
            sbuf_add(b, " ms");
        }
        sbuf_add(b, " | ");
        sbuf_add(b, p->kind == KP_WRITE           ? "—"
                    : p->consistency == KP_STRONG ? P_("consistency", "strong")
                                                  : P_("consistency", "eventual"));
        sbuf_add(b, " | ");
        sbuf sh;
        sbuf_init(&sh);
        if (p->order.s)
            /* TRANSLATORS: a pattern's shape: the attribute its results are ordered by, then
             * "asc" or "desc" (translated below). */
            sbuf_printf(&sh, _("order %1$s %2$s; "), p->order.s, p->order_desc ? _("desc") : _("asc"));
        if (!isnan(p->limit))
            sbuf_printf(&sh, _("limit %.0f; "), p->limit);
        if (p->range.s)
            sbuf_printf(&sh, _("range on %s; "), p->range.s);
        for (size_t k = 0; k < p->nfilter; k++)
            /* TRANSLATORS: before the list of attributes a pattern filters on. */
            sbuf_printf(&sh, "%s%s%s", k ? ", " : _("filter "), p->filter[k].s,
                        k + 1 == p->nfilter ? "; " : "");
        for (size_t k = 0; k < p->njoin; k++)
            /* TRANSLATORS: a join the application does: %1$s is filled from %2$s. */
            sbuf_printf(&sh, _("join %1$s ← %2$s; "), p->join[k].to.s, p->join[k].from.s);
        if (p->covered_by.s)
            sbuf_printf(&sh, _("covered by pattern %s; "), p->covered_by.s);
        if (p->needs != KP_NEEDS_NONE)
            /* TRANSLATORS: %s is what the pattern needs (search, aggregate, ad-hoc: the design file's word). */
            sbuf_printf(&sh, _("needs %s; "), kp_needs_name(p->needs));
        if (p->served_by)
            sbuf_printf(&sh, _("served by %s; "), p->served_by);
        if (!isnan(p->items))
            sbuf_printf(&sh, _("%.0f items; "), p->items);
        for (size_t k = 0; k < p->nchanges; k++)
            /* TRANSLATORS: before the list of attributes a write pattern changes. */
            sbuf_printf(&sh, "%s%s%s", k ? ", " : _("changes "), p->changes[k].s,
                        k + 1 == p->nchanges ? "; " : "");
        if (sh.len >= 2)
            sh.s[sh.len -= 2] = '\0';
        cell(b, sh.s);
        sbuf_free(&sh);
        sbuf_add(b, " | ");
        cell(b, p->why);
        sbuf_add(b, " |\n");
    }
    sbuf_add(b, "\n");
}

/* The template of `attr` for entity e: its key template, or `{attr}` for a plain attribute. */
static char *template_of(const kp_entity *e, const char *attr)
{
    if (!attr)
        return NULL;
    const kp_keytpl *k = entity_key(e, attr);
    if (k)
        return xstrdup(k->tpl.src);
    if (entity_carries(e, attr))
        return tpl_placeholder(attr);
    return NULL;
}

static void key_table(sbuf *b, const kp_design *d, const char *pk, const char *sk)
{
    /* TRANSLATORS: a key table's header: the partition key's and the sort key's names, then the
     * columns entity and note. */
    sbuf_printf(b, _("| %1$s | %2$s | entity | note |\n|---|---|---|---|\n"), pk,
                sk ? sk : _("(no sort key)"));
    for (size_t i = 0; i < d->nentities; i++) {
        const kp_entity *e = &d->entities[i];
        char *p = template_of(e, pk);
        if (!p)
            continue;
        char *s = template_of(e, sk);
        sbuf_add(b, "| ");
        code(b, p);
        sbuf_add(b, " | ");
        code(b, s);
        sbuf_add(b, " | ");
        cell(b, e->name);
        sbuf_add(b, " | ");
        const kp_sparse *sp = entity_sparse(e, pk);
        if (!sp && sk)
            sp = entity_sparse(e, sk);
        if (sp) {
            sbuf_add(b, _("sparse: only items where "));
            cell(b, sp->src);
        } else {
            sbuf_add(b, "—");
        }
        sbuf_add(b, " |\n");
        free(p);
        free(s);
    }
    sbuf_add(b, "\n");
}

typedef struct example_row {
    char *pk, *sk;
    const char *entity;
} example_row;

static int example_cmp(const void *x, const void *y)
{
    const example_row *a = x, *b = y;
    int c = strcmp(a->pk, b->pk);
    return c ? c : strcmp(a->sk, b->sk);
}

/* The text of key attribute `attr` of a sample item: a string's or a number's text, "?" for any
 * other type; NULL when the item has no such attribute. */
static const char *key_text(const kp_item *it, const char *attr)
{
    const kp_value *v = attr ? item_get(it, attr) : NULL;
    if (!v)
        return NULL;
    return v->type == KP_VAL_S || v->type == KP_VAL_N ? v->text : "?";
}

/* A few generated items of every entity, sorted by key: the table as the seed draws it. */
static void example_items(sbuf *b, const kp_design *d)
{
    example_row *rows = NULL;
    size_t n = 0, cap = 0;
    item_gen *x = item_gen_new(d);
    for (size_t i = 0; i < d->nentities; i++) {
        const kp_entity *e = &d->entities[i];
        kp_item_list items = {0};
        item_gen_items(x, e, 2, 7, &items);
        for (size_t k = 0; k < items.n; k++) {
            const char *pk = key_text(&items.v[k], d->table.pk.s);
            const char *sk = key_text(&items.v[k], d->table.sk.s);
            if (!pk)
                continue;
            VEC_GROW(rows, n, cap);
            rows[n++] = (example_row){xstrdup(pk), xstrdup(sk ? sk : ""), e->name};
        }
        item_list_free(&items);
    }
    item_gen_free(x);
    if (n) {
        qsort(rows, n, sizeof *rows, example_cmp);
        sbuf_add(
            b,
            _("Example items, generated from the templates and the distributions and sorted as they sit in the "
              "table (one query on a partition returns its items in this order):\n\n"));
        /* TRANSLATORS: the example items' header: the partition key's and the sort key's names, then entity. */
        sbuf_printf(b, _("| %1$s | %2$s | entity |\n|---|---|---|\n"), d->table.pk.s,
                    d->table.sk.s ? d->table.sk.s : "");
        for (size_t i = 0; i < n; i++) {
            sbuf_add(b, "| ");
            code(b, rows[i].pk);
            sbuf_add(b, " | ");
            code(b, rows[i].sk);
            sbuf_add(b, " | ");
            cell(b, rows[i].entity);
            sbuf_add(b, " |\n");
        }
        sbuf_add(b, "\n");
    }
    for (size_t i = 0; i < n; i++) {
        free(rows[i].pk);
        free(rows[i].sk);
    }
    free(rows);
}

static void keys_section(sbuf *b, const kp_design *d)
{
    sbuf_add(b, _("## 2. Key design\n\n"));
    const kp_table *t = &d->table;
    sbuf_printf(b, _("### Table `%s`\n\n"), or_dash(t->name));
    char *sk = t->sk.s ? xasprintf("`%s`", t->sk.s) : xstrdup(P_("sort key", "none"));
    /* TRANSLATORS: whether the table's streams and continuous backups are on, off or not said. */
    const char *on = _("on"), *off = _("off"), *unsaid = _("**not said**");
    /* TRANSLATORS: %1$s the partition key, %2$s the sort key (or "none"), %3$s the billing mode,
     * %4$s streams and %5$s continuous backups (on, off, not said). */
    sbuf_printf(
        b, _("Partition key `%1$s`, sort key %2$s; billing %3$s; streams %4$s; continuous backups %5$s.\n\n"),
        or_dash(t->pk.s), sk, report_billing_name(t->billing),
        t->streams == KP_TRUE    ? on
        : t->streams == KP_FALSE ? off
                                 : unsaid,
        t->pitr == KP_TRUE    ? on
        : t->pitr == KP_FALSE ? off
                              : unsaid);
    free(sk);
    key_table(b, d, t->pk.s, t->sk.s);
    example_items(b, d);
    for (size_t i = 0; i < d->nindexes; i++) {
        const kp_index *x = &d->indexes[i];
        sbuf_printf(b,
                    x->kind == KP_LSI ? _("### Index `%s` (local secondary index)\n\n")
                                      : _("### Index `%s` (global secondary index)\n\n"),
                    x->name);
        key_table(b, d, x->pk.s, x->sk.s);
    }
    sbuf_add(
        b,
        _("### Entities\n\n| Entity | Items | Average size | Writes/s at peak | Attributes |\n|---|---|---|---|---|\n"));
    for (size_t i = 0; i < d->nentities; i++) {
        const kp_entity *e = &d->entities[i];
        sbuf_add(b, "| ");
        cell(b, e->name);
        sbuf_add(b, " | ");
        num(b, e->count);
        sbuf_add(b, " | ");
        num(b, e->size);
        sbuf_add(b, isnan(e->size) ? " | " : " B | ");
        num(b, e->writes);
        sbuf_add(b, " | ");
        if (!e->nattrs)
            sbuf_add(b, "—");
        for (size_t k = 0; k < e->nattrs; k++) {
            if (k)
                sbuf_add(b, ", ");
            cell(b, e->attrs[k].s);
        }
        sbuf_add(b, " |\n");
    }
    sbuf_add(b, "\n");
    if (d->nattrs) {
        sbuf_add(
            b,
            _("### Attributes and their distribution\n\n| Attribute | Type | Distinct values | Distribution |\n"
              "|---|---|---|---|\n"));
        for (size_t i = 0; i < d->nattrs; i++) {
            const kp_attr *a = &d->attrs[i];
            sbuf_add(b, "| ");
            code(b, a->name);
            sbuf_printf(b, " | %s | ", kp_attr_type_name(a->type));
            num(b, a->type == KP_ATTR_ENUM    ? (double)a->nvalues
                   : a->type == KP_ATTR_SHARD ? a->shard_count
                                              : a->distinct);
            sbuf_add(b, " | ");
            sbuf dist;
            sbuf_init(&dist);
            if (a->type == KP_ATTR_ENUM) {
                for (size_t k = 0; k < a->nvalues; k++)
                    sbuf_printf(&dist, "%s%s %.0f %%", k ? ", " : "", a->values[k].name,
                                a->values[k].share * 100);
            } else if (a->zipf > 0) {
                sbuf_printf(&dist, _("zipf s = %.2g (a few values take most items)"), a->zipf);
            } else if (a->type == KP_ATTR_SHARD) {
                sbuf_add(&dist, _("even over the suffixes"));
            } else if (!isnan(a->distinct)) {
                sbuf_add(&dist, _("uniform"));
            }
            if (!isnan(a->write_hot)) {
                sbuf_add(&dist, dist.len ? "; " : "");
                /* TRANSLATORS: %.0f is a percentage of the attribute's writes. */
                sbuf_printf(&dist, _("%.0f %% of writes on the newest value"), a->write_hot * 100);
            }
            cell(b, dist.s);
            sbuf_free(&dist);
            sbuf_add(b, " |\n");
        }
        sbuf_add(b, "\n");
    }
}

static void served_section(sbuf *b, const kp_design *d, const kp_analysis *a)
{
    sbuf_add(b, _("## 3. How each pattern is served\n\n"));
    /* TRANSLATORS: the plan words in backquotes are the ones the table below uses (context "plan"). */
    sbuf_add(
        b,
        _("Plans: `get` one GetItem; `query` one Query; `multi` several requests (fan-out or a chain); `scan` a "
          "full-table Scan; `covered` already in another pattern's result; `outside` served outside DynamoDB; "
          "`write`/`transact` for writes.\n\n"));
    sbuf_add(
        b,
        _("| # | Pattern | Plan | Index | Key condition | Requests/call | Items/call | RCU/call | RCU/s | WCU/s | "
          "Latency est. / target |\n|---|---|---|---|---|---|---|---|---|---|---|\n"));
    for (size_t i = 0; i < a->npatterns; i++) {
        const kp_pattern_result *p = &a->patterns[i];
        sbuf_add(b, "| ");
        cell(b, p->pattern->id);
        sbuf_add(b, " | ");
        cell(b, p->pattern->name);
        if (p->plan == KP_PLAN_SCAN)
            sbuf_printf(b, " | **%s** `%s` | ", report_plan_word(p->plan), kp_plan_symbol(p->plan));
        else
            sbuf_printf(b, " | %s `%s` | ", report_plan_word(p->plan), kp_plan_symbol(p->plan));
        cell(b, !p->index_name || (p->index < 0 && *p->index_name) ? _("table") : p->index_name);
        sbuf_add(b, " | ");
        if (p->key_condition && *p->key_condition) {
            code(b, p->key_condition);
            for (size_t k = 0; k < p->nnames; k++) { /* what its placeholders stand for */
                char *v = xasprintf("%s = \"%s\"", p->names[k].alias, p->names[k].name);
                sbuf_add(b, "<br>");
                code(b, v);
                free(v);
            }
            for (size_t k = 0; k < p->nvalues; k++) {
                char *v = xasprintf("%s = %s", p->values[k].name, p->values[k].value);
                sbuf_add(b, "<br>");
                code(b, v);
                free(v);
            }
            if (p->filter)
                sbuf_add(b, "<br>+ FilterExpression");
        } else {
            sbuf_add(b, "—");
        }
        sbuf_add(b, " | ");
        num(b, p->requests);
        sbuf_add(b, " | ");
        num(b, p->items_per_call);
        sbuf_add(b, " | ");
        num(b, p->rcu_per_call);
        sbuf_add(b, " | ");
        num(b, p->rcu_per_s);
        sbuf_add(b, " | ");
        num(b, p->wcu_per_s);
        sbuf_add(b, " | ");
        if (p->plan == KP_PLAN_OUTSIDE || p->plan == KP_PLAN_COVERED)
            num(b, NAN);
        else
            num(b, p->latency_ms);
        sbuf_add(b, " / ");
        num(b, p->pattern->latency);
        sbuf_add(b, p->latency_ok ? " ms" : _(" ms **over target**"));
        sbuf_add(b, " |\n");
    }
    sbuf_add(b, "\n");
    bool any = false;
    for (size_t i = 0; i < a->npatterns; i++) {
        const kp_pattern_result *p = &a->patterns[i];
        if (p->nsteps > 1) {
            if (!any)
                sbuf_add(b, _("Requests of the patterns that need more than one:\n\n"));
            any = true;
            sbuf_printf(b, _("- pattern %s:"), p->pattern->id);
            for (size_t k = 0; k < p->nsteps; k++) {
                const kp_step *s = &p->steps[k];
                sbuf_printf(b, "%s %s", k ? ";" : "", kp_op_name(s->op));
                if (s->count > 1)
                    sbuf_printf(b, " ×%.0f", s->count);
                /* TRANSLATORS: a request's target: the table or an index's name. */
                sbuf_printf(b, _(" on %s"), s->index < 0 ? _("table") : d->indexes[s->index].name);
                if (s->key_condition) {
                    sbuf_add(b, " ");
                    code(b, s->key_condition);
                }
            }
            sbuf_add(b, "\n");
        }
    }
    if (any)
        sbuf_add(b, "\n");
    any = false;
    for (size_t i = 0; i < a->npatterns; i++) {
        const kp_pattern_result *p = &a->patterns[i];
        for (size_t k = 0; k < p->nwarnings; k++) {
            if (!any)
                sbuf_add(b, _("Warnings:\n\n"));
            any = true;
            sbuf_printf(b, _("- pattern %1$s: %2$s\n"), p->pattern->id, p->warnings[k]);
        }
    }
    if (any)
        sbuf_add(b, "\n");
    any = false;
    for (size_t i = 0; i < a->npatterns; i++) {
        const kp_pattern_result *p = &a->patterns[i];
        for (size_t k = 0; k < p->nwhy_not; k++) {
            if (!any)
                sbuf_add(
                    b,
                    _("Why not (the indexes that nearly served a pattern; DynamoDB's rules behind a plan):\n\n"));
            any = true;
            sbuf_printf(b, _("- pattern %1$s: %2$s\n"), p->pattern->id, p->why_not[k].text);
        }
    }
    if (any)
        sbuf_add(b, "\n");
}

static void indexes_section(sbuf *b, const kp_design *d, const kp_analysis *a)
{
    sbuf_add(b, _("## 4. Indexes, and why each exists\n\n"));
    if (!d->nindexes) {
        sbuf_add(b, _("No secondary index: every pattern is served by the table's own key.\n\n"));
        return;
    }
    sbuf_add(
        b,
        _("Each global index has its own capacity and receives a write for every table write of an item it "
          "holds; if it throttles, the table's writes fail.\n\n"));
    sbuf_add(b, _("| Index | Type | Keys | Projection | Serves patterns | Items | WCU/s | Why it exists |\n"
                  "|---|---|---|---|---|---|---|---|\n"));
    for (size_t i = 0; i < d->nindexes; i++) {
        const kp_index *x = &d->indexes[i];
        const kp_index_result *ir = i + 1 < a->nindexes ? &a->indexes[i + 1] : NULL;
        sbuf_add(b, "| ");
        code(b, x->name);
        sbuf_printf(b, " | %s | ", kp_index_kind_name(x->kind));
        char *keys =
            xasprintf("%s%s%s", x->pk.s ? x->pk.s : "", x->sk.s ? " / " : "", x->sk.s ? x->sk.s : "");
        code(b, keys);
        free(keys);
        sbuf_printf(b, " | %s", kp_projection_name(x->projection));
        if (x->projection == KP_PROJ_INCLUDE) {
            sbuf_add(b, " (");
            for (size_t k = 0; k < x->ninclude; k++)
                sbuf_printf(b, "%s%s", k ? ", " : "", x->include[k].s);
            sbuf_add(b, ")");
        }
        sbuf_add(b, " | ");
        size_t served = 0;
        for (size_t k = 0; k < a->npatterns; k++)
            if (a->patterns[k].index == (ptrdiff_t)i) {
                sbuf_printf(b, "%s%s", served ? ", " : "", a->patterns[k].pattern->id);
                served++;
            }
        if (!served)
            sbuf_add(b, _("**none**"));
        sbuf_add(b, " | ");
        num(b, ir ? ir->items : NAN);
        sbuf_add(b, " | ");
        num(b, ir ? ir->wcu_per_s : NAN);
        sbuf_add(b, " | ");
        cell(b, x->why && *x->why ? x->why : _("**not written**"));
        sbuf_add(b, " |\n");
    }
    sbuf_add(b, "\n");
}

static void heat_section(sbuf *b, const kp_analysis *a)
{
    sbuf_add(b, _("## 5. Heat: where the load concentrates\n\n"));
    /* TRANSLATORS: %d is 100 (a partition's limit, in percent). */
    sbuf_printf(b,
                _("Each partition serves at most 3,000 read units/s and 1,000 write units/s; at %d %% it "
                  "throttles whatever the table's total capacity.\n\n"),
                100);
    if (!a->npartitions) {
        sbuf_add(b, _("No partition figures.\n\n"));
        return;
    }
    sbuf_add(
        b,
        _("| Index | Partition key | Entity | Distinct values | Hottest value's share | Read units/s | Read use | "
          "Write units/s | Write use | State |\n|---|---|---|---|---|---|---|---|---|---|\n"));
    for (size_t i = 0; i < a->npartitions; i++) {
        const kp_partition_result *p = &a->partitions[i];
        sbuf_add(b, "| ");
        cell(b, !p->index_name || (p->index < 0 && *p->index_name) ? _("table") : p->index_name);
        sbuf_add(b, " | ");
        code(b, p->template_src);
        sbuf_add(b, " | ");
        cell(b, p->entity ? p->entity->name : NULL);
        sbuf_add(b, " | ");
        num(b, p->distinct);
        sbuf_add(b, " | ");
        pct(b, p->hot_share);
        sbuf_add(b, " | ");
        num(b, p->read_units);
        sbuf_add(b, " | ");
        pct(b, p->read_util);
        sbuf_add(b, " | ");
        num(b, p->write_units);
        sbuf_add(b, " | ");
        pct(b, p->write_util);
        sbuf_add(b, " | ");
        if (p->hot)
            /* TRANSLATORS: a hot partition's state; %d is how many suffixes to shard its key over. */
            sbuf_printf(b, _("**HOT** — shard over %d suffixes"), p->suggest_shards);
        else
            sbuf_add(b, _("ok"));
        sbuf_add(b, " |\n");
    }
    sbuf_add(b, "\n");
}

static const kp_cost_line *cost_line(const kp_cost *c, const char *name)
{
    for (size_t i = 0; i < c->nlines; i++)
        if (c->lines[i].name && strcmp(c->lines[i].name, name) == 0)
            return &c->lines[i];
    return NULL;
}

static void cost_section(sbuf *b, const kp_design *d, const kp_analysis *a)
{
    sbuf_add(b, _("## 6. Cost per month (730 hours)\n\n"));
    sbuf_printf(b, _("The design is billed **%s**; both modes are shown so the choice can be checked.\n\n"),
                report_billing_name(d->table.billing));
    if (d->table.nreplicas) {
        sbuf regions;
        sbuf_init(&regions);
        for (size_t i = 0; i < d->table.nreplicas; i++)
            sbuf_printf(&regions, "%s`%s`",
                        i == 0                        ? ""
                        : i + 1 == d->table.nreplicas ? _(" and ")
                                                      : _(", "),
                        d->table.replicas[i].s);
        /* TRANSLATORS: %s is the list of replica regions; the words in asterisks are the cost
         * lines' names (context "cost line"). */
        sbuf_printf(
            b,
            _("**Global table**, replicated to %s: every write is written again in each replica region, "
              "with its index writes there (*replicated writes*), each region stores the whole table "
              "(*replica storage*) and receives the written bytes (*transfer*) — costs easily "
              "forgotten.\n\n"),
            regions.s);
        sbuf_free(&regions);
    }
    const kp_cost *od = &a->on_demand, *pv = &a->provisioned;
    sbuf_add(b, _("| Line | On-demand | Provisioned |\n|---|---|---|\n"));
    /* lines in on-demand order, then provisioned-only lines */
    for (int pass = 0; pass < 2; pass++) {
        const kp_cost *c = pass ? pv : od, *o = pass ? od : pv;
        for (size_t i = 0; i < c->nlines; i++) {
            const char *name = c->lines[i].name;
            if (pass && cost_line(o, name))
                continue;
            const kp_cost_line *l_od = pass ? NULL : &c->lines[i];
            const kp_cost_line *l_pv = pass ? &c->lines[i] : cost_line(o, name);
            sbuf_add(b, "| ");
            cell(b, report_cost_name(name));
            sbuf_add(b, " | ");
            if (l_od)
                money(b, l_od->amount, od->currency);
            else
                sbuf_add(b, "—");
            sbuf_add(b, " | ");
            if (l_pv)
                money(b, l_pv->amount, pv->currency);
            else
                sbuf_add(b, "—");
            sbuf_add(b, " |\n");
        }
    }
    sbuf_printf(b, "| **%s** | **", _("total"));
    money(b, od->total, od->currency);
    sbuf_add(b, "** | **");
    money(b, pv->total, pv->currency);
    sbuf_add(b, "** |\n\n");
}

static void checklist_section(sbuf *b, const kp_analysis *a)
{
    sbuf_printf(b, _("## 7. Checklist (%1$d of %2$d applicable items pass)\n\n"), a->checklist_pass,
                a->checklist_applicable);
    sbuf_add(b, _("| # | Item | Status | Why |\n|---|---|---|---|\n"));
    for (int i = 0; i < KP_CHECKLIST_ITEMS; i++) {
        const kp_check_item *c = &a->checklist[i];
        sbuf_printf(b, "| %d | ", c->item ? c->item : i + 1);
        cell(b, c->title ? _(c->title) : NULL);
        sbuf_printf(b, " | %s | ",
                    c->status == KP_CHECK_PASS   ? _("✅ pass")
                    : c->status == KP_CHECK_FAIL ? _("❌ **fail**")
                                                 : _("n/a"));
        cell(b, c->why);
        sbuf_add(b, " |\n");
    }
    sbuf_add(b, "\n");
    if (a->nfindings) {
        sbuf_add(b,
                 _("### Findings\n\n| Severity | Code | Where | Finding | Fix |\n|---|---|---|---|---|\n"));
        for (size_t i = 0; i < a->nfindings; i++) {
            const kp_finding *f = &a->findings[i];
            sbuf_printf(b, "| %s | `%s` | ", report_severity(f->sev), f->code);
            cell(b, f->where);
            sbuf_add(b, " | ");
            cell(b, f->message);
            sbuf_add(b, " | ");
            cell(b, f->fix ? _(f->fix) : NULL);
            sbuf_add(b, " |\n");
        }
        sbuf_add(b, "\n");
    }
}

static void decisions_section(sbuf *b, const export_record *r)
{
    const kp_design *d = r->design;
    sbuf_add(b, _("## 8. Decisions\n\n"));
    if (!d->ndecisions) {
        sbuf_add(
            b,
            _("**No decision is recorded.** Every choice above (the partition key, single-table use, each "
              "index) should be written down with its alternatives and the signal that would reopen it.\n\n"));
        return;
    }
    for (size_t i = 0; i < d->ndecisions; i++) {
        const kp_decision *dec = &d->decisions[i];
        bool fired = sig_decision_fired(r->signals, dec);
        /* TRANSLATORS: after a decision's title when one of its reopening signals fired. */
        sbuf_printf(b, "### %s — %s%s\n\n", dec->id, or_dash(dec->title), fired ? _(" — **REOPEN**") : "");
        /* TRANSLATORS: %s is the decision's status, the design file's word (accepted, proposed...). */
        sbuf_printf(b, _("- **Status:** %s"), kp_decision_status_name(dec->status));
        if (fired)
            sbuf_add(b, _(" → **reopen**: a reopening signal fired (below)"));
        sbuf_add(b, "\n");
        sbuf_add(b, _("- **Patterns:** "));
        if (!dec->npatterns)
            sbuf_add(b, "—");
        for (size_t k = 0; k < dec->npatterns; k++) {
            const kp_pattern *p = design_pattern(d, dec->patterns[k].s);
            sbuf_printf(b, "%s%s", k ? ", " : "", dec->patterns[k].s);
            if (p && p->name)
                sbuf_printf(b, " (%s)", p->name);
        }
        sbuf_add(b, "\n\n");
        para(b, _("Context."), dec->context);
        para(b, _("Decision."), dec->decision);
        sbuf_add(b, _("**Alternatives discarded**\n\n"));
        if (!dec->nalternatives)
            sbuf_add(b, _("_none written._\n\n"));
        else {
            sbuf_add(b, _("| Option | Why not |\n|---|---|\n"));
            for (size_t k = 0; k < dec->nalternatives; k++) {
                sbuf_add(b, "| ");
                cell(b, dec->alternatives[k].option);
                sbuf_add(b, " | ");
                cell(b, dec->alternatives[k].why_not);
                sbuf_add(b, " |\n");
            }
            sbuf_add(b, "\n");
        }
        sbuf_add(b, _("**Falsifiable assumptions**\n\n"));
        if (!dec->nassumptions)
            sbuf_add(b, _("_none written._\n"));
        for (size_t k = 0; k < dec->nassumptions; k++)
            sbuf_printf(b, "- %s\n", dec->assumptions[k]);
        sbuf_add(b, "\n");
        para(b, _("Failure test (how we would see it fail)."), dec->failure_test);
        para(b, _("Rollback."), dec->rollback);
        para(b, _("Limitations."), dec->limitations);
        sbuf_add(b, _("**Reopening signals**\n\n"));
        if (!dec->nsignals) {
            sbuf_add(b, _("_none: nothing would reopen this decision automatically._\n\n"));
            continue;
        }
        sbuf_add(b, _("| Signal | Value in this design | Latest observation | State |\n|---|---|---|---|\n"));
        for (size_t k = 0; k < dec->nsignals; k++) {
            const kp_signal *sg = &dec->signals[k];
            const sig_result *res = NULL;
            for (size_t j = 0; r->signals && j < r->signals->n; j++)
                if (r->signals->v[j].signal == sg)
                    res = &r->signals->v[j];
            sbuf_add(b, "| ");
            code(b, sg->src);
            sbuf_add(b, " | ");
            if (res && res->known)
                num(b, res->value);
            else
                sbuf_add(b, _("unknown"));
            sbuf_add(b, " | ");
            if (res && res->observed) {
                num(b, res->observed->value);
                {
                    sbuf_printf(b, " (%s, ", res->observed->time);
                    cell(b, res->observed->source);
                    sbuf_add(b, ")");
                }
            } else {
                sbuf_add(b, P_("observation", "none"));
            }
            sbuf_printf(b, " | %s |\n", res && res->fired ? _("**FIRED — reopen**") : _("ok"));
        }
        sbuf_add(b, "\n");
    }
}

static void alerts_section(sbuf *b, const kp_design *d)
{
    sbuf_add(b, _("## 9. Alerts operations watches\n\n"));
    if (!d->nalerts) {
        sbuf_add(
            b,
            _("**No alert is defined** (checklist items 7 and 9 want throttling and hot-key alerts).\n\n"));
        return;
    }
    sbuf_add(b, _("| Alert | Metric | When |\n|---|---|---|\n"));
    for (size_t i = 0; i < d->nalerts; i++) {
        sbuf_add(b, "| ");
        cell(b, d->alerts[i].name);
        sbuf_add(b, " | ");
        code(b, d->alerts[i].metric);
        sbuf_add(b, " | ");
        cell(b, d->alerts[i].when);
        sbuf_add(b, " |\n");
    }
    sbuf_add(b, "\n");
}

static void history_section(sbuf *b, const export_record *r)
{
    sbuf_add(b, _("## 10. Version history\n\n"));
    if (!r->nhistory) {
        sbuf_add(
            b,
            _("Not from a workspace: no version history. `keyplan commit WORKSPACE DESIGN.yaml -m MSG` records "
              "one.\n\n"));
    } else {
        sbuf_add(b, _("| Version | Date (UTC) | Author | Message |\n|---|---|---|---|\n"));
        for (size_t i = r->nhistory; i-- > 0;) {
            const ws_version *v = &r->history[i];
            /* TRANSLATORS: after the number of the version this record was exported from. */
            sbuf_printf(b, "| %d%s | %s | ", v->number, v->number == r->version ? _(" (this)") : "", v->time);
            cell(b, v->author);
            sbuf_add(b, " | ");
            cell(b, v->message);
            sbuf_add(b, " |\n");
        }
        sbuf_add(b, "\n");
    }
    if (r->changes && *r->changes) {
        sbuf_add(b, _("### What changed from the previous version\n\n"));
        /* diff_render's headline of an irreversible change, said before the details */
        const char *irr = strstr(r->changes, "\n  IRREVERSIBLE: ");
        if (irr) {
            irr += strlen("\n  IRREVERSIBLE: ");
            const char *eol = strchr(irr, '\n');
            sbuf_add(b, _("> **Irreversible:** "));
            sbuf_addn(b, irr, eol ? (size_t)(eol - irr) : strlen(irr));
            sbuf_add(b, ".\n\n");
        }
        sbuf_add(b, "```text\n");
        sbuf_add(b, r->changes);
        if (b->s[b->len - 1] != '\n')
            sbuf_addc(b, '\n');
        sbuf_add(b, "```\n\n");
    }
    if (r->nobs) {
        sbuf_add(
            b,
            _("### Observations recorded\n\n| Metric | Value | Date (UTC) | Source |\n|---|---|---|---|\n"));
        for (size_t i = 0; i < r->nobs; i++) {
            sbuf_add(b, "| ");
            code(b, r->obs[i].metric);
            sbuf_add(b, " | ");
            num(b, r->obs[i].value);
            sbuf_printf(b, " | %s | ", r->obs[i].time);
            cell(b, r->obs[i].source);
            sbuf_add(b, " |\n");
        }
        sbuf_add(b, "\n");
    }
}

/* The last section; `yaml` is the design's canonical YAML, for the appendix. */
static void repeat_section(sbuf *b, const export_record *r, const char *yaml)
{
    sbuf_add(b, _("## 11. How to repeat this reasoning\n\n"));
    sbuf_add(
        b,
        _("Every figure above comes from the design in the appendix and the rules of the course (a read unit is "
          "4 KB, eventual reads cost half, a partition takes 3,000 read and 1,000 write units/s, each index "
          "pays its own writes). To check or change it:\n\n"));
    sbuf_add(b, "```sh\n");
    /* TRANSLATORS: shell comments after the commands that repeat the reasoning. */
    const char *check_note = _("# plans, units, heat, cost, checklist, findings");
    if (r->version > 0) {
        sbuf_printf(b, "keyplan show %s %d > design.yaml   %s\n", or_dash(r->source), r->version,
                    _("# this version's design"));
        sbuf_printf(b, "keyplan check design.yaml   %s\n", check_note);
        sbuf_printf(b, "keyplan signals %s   %s\n", or_dash(r->source),
                    _("# reopening signals against the latest observations"));
        if (r->nhistory > 1)
            sbuf_printf(b, "keyplan diff %s %d %d   %s\n", or_dash(r->source),
                        r->history[r->nhistory - 2].number, r->history[r->nhistory - 1].number,
                        _("# what the last change did"));
    } else {
        sbuf_printf(b, "keyplan check %s   %s\n", or_dash(r->source), check_note);
        sbuf_printf(b, "keyplan commit design.keyplan %s -m \"...\"   %s\n", or_dash(r->source),
                    _("# start the version history"));
    }
    sbuf_add(b, "```\n\n");
    sbuf_add(b, _("### Appendix: the design\n\n"));
    /* TRANSLATORS: the summary of the folded appendix that holds the design's YAML. */
    sbuf_printf(b, "<details><summary>%s</summary>\n\n```yaml\n", _("design.yaml (canonical)"));
    sbuf_add(b, yaml);
    if (b->len && b->s[b->len - 1] != '\n')
        sbuf_addc(b, '\n');
    sbuf_add(b, "```\n\n</details>\n");
}

char *export_md(const export_record *r, char **err)
{
    char *yaml = designio_save(r->design, err);
    if (!yaml)
        return NULL;
    sbuf b;
    sbuf_init(&b);
    heading(&b, r);
    gaps(&b, r);
    patterns_section(&b, r->design);
    keys_section(&b, r->design);
    served_section(&b, r->design, r->analysis);
    indexes_section(&b, r->design, r->analysis);
    heat_section(&b, r->analysis);
    cost_section(&b, r->design, r->analysis);
    checklist_section(&b, r->analysis);
    decisions_section(&b, r);
    alerts_section(&b, r->design);
    history_section(&b, r);
    repeat_section(&b, r, yaml);
    free(yaml);
    return sbuf_steal(&b);
}

/* ---- JSON -------------------------------------------------------------------------------- */

static json_t *jstr(const char *s) { return s ? json_string(s) : json_null(); }
static json_t *jnum(double v) { return isfinite(v) ? json_real(v) : json_null(); }

static json_t *observation_json(const sig_observation *o)
{
    json_t *j = json_object();
    json_object_set_new(j, "metric", jstr(o->metric));
    json_object_set_new(j, "value", jnum(o->value));
    json_object_set_new(j, "time", jstr(o->time));
    json_object_set_new(j, "source", jstr(o->source));
    return j;
}

char *export_json(const export_record *r, char **err)
{
    json_t *root = analysis_json(r->design, r->analysis);
    json_object_set_new(root, "source", jstr(r->source));
    json_object_set_new(root, "version", r->version > 0 ? json_integer(r->version) : json_null());
    if (r->working) { /* not a recorded version: say so, and what it is based on */
        json_object_set_new(root, "working_copy", json_true());
        json_object_set_new(root, "base", r->working_base > 0 ? json_integer(r->working_base) : json_null());
    }
    json_t *decs = json_array(), *flat = json_array();
    for (size_t i = 0; i < r->design->ndecisions; i++) {
        const kp_decision *dec = &r->design->decisions[i];
        json_t *j = json_object();
        json_object_set_new(j, "id", jstr(dec->id));
        json_object_set_new(j, "title", jstr(dec->title));
        json_object_set_new(j, "status", jstr(kp_decision_status_name(dec->status)));
        json_object_set_new(j, "reopen", json_boolean(sig_decision_fired(r->signals, dec)));
        json_t *pats = json_array();
        for (size_t k = 0; k < dec->npatterns; k++)
            json_array_append_new(pats, jstr(dec->patterns[k].s));
        json_object_set_new(j, "patterns", pats);
        json_object_set_new(j, "context", jstr(dec->context));
        json_object_set_new(j, "decision", jstr(dec->decision));
        json_t *alts = json_array();
        for (size_t k = 0; k < dec->nalternatives; k++) {
            json_t *al = json_object();
            json_object_set_new(al, "option", jstr(dec->alternatives[k].option));
            json_object_set_new(al, "why_not", jstr(dec->alternatives[k].why_not));
            json_array_append_new(alts, al);
        }
        json_object_set_new(j, "alternatives", alts);
        json_t *as = json_array();
        for (size_t k = 0; k < dec->nassumptions; k++)
            json_array_append_new(as, jstr(dec->assumptions[k]));
        json_object_set_new(j, "assumptions", as);
        json_object_set_new(j, "failure_test", jstr(dec->failure_test));
        json_object_set_new(j, "rollback", jstr(dec->rollback));
        json_object_set_new(j, "limitations", jstr(dec->limitations));
        json_t *sigs = json_array();
        for (size_t k = 0; r->signals && k < r->signals->n; k++) {
            const sig_result *s = &r->signals->v[k];
            if (s->decision != dec)
                continue;
            json_t *sj = json_object();
            json_object_set_new(sj, "signal", jstr(s->signal->src));
            json_object_set_new(sj, "metric", jstr(s->signal->metric));
            json_object_set_new(sj, "op", jstr(kp_cmp_name(s->signal->cmp)));
            json_object_set_new(sj, "threshold", jnum(s->signal->value));
            json_object_set_new(sj, "value", s->known ? jnum(s->value) : json_null());
            json_object_set_new(sj, "observed", s->observed ? observation_json(s->observed) : json_null());
            json_object_set_new(sj, "fired", json_boolean(s->fired));
            json_t *fj = json_deep_copy(sj);
            json_object_set_new(fj, "decision", jstr(dec->id));
            json_array_append_new(flat, fj);
            json_array_append_new(sigs, sj);
        }
        json_object_set_new(j, "signals", sigs);
        json_array_append_new(decs, j);
    }
    json_object_set_new(root, "decisions", decs);
    /* the analysis' signals[] knows only the design's values: replace it with the full picture */
    json_object_set_new(root, "signals", flat);
    json_t *hist = json_array();
    for (size_t i = 0; i < r->nhistory; i++) {
        const ws_version *v = &r->history[i];
        json_t *j = json_object();
        json_object_set_new(j, "version", json_integer(v->number));
        json_object_set_new(j, "parent", v->parent ? json_integer(v->parent) : json_null());
        json_object_set_new(j, "time", jstr(v->time));
        json_object_set_new(j, "author", jstr(v->author));
        json_object_set_new(j, "message", jstr(v->message));
        json_array_append_new(hist, j);
    }
    json_object_set_new(root, "history", hist);
    json_t *obs = json_array();
    for (size_t i = 0; i < r->nobs; i++)
        json_array_append_new(obs, observation_json(&r->obs[i]));
    json_object_set_new(root, "observations", obs);
    json_object_set_new(root, "changes", jstr(r->changes));
    char *t = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(root);
    if (!t) {
        kp_fail(err, KP_INVALID, _("jansson cannot write the decision record as JSON"));
        return NULL;
    }
    char *out = xasprintf("%s\n", t);
    free(t);
    return out;
}
