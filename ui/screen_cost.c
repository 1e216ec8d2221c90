/* screen_cost.c - Cost & heat: the settings in a line, the monthly cost in both billing modes
 * side by side, the partitions' heat, the checklist, the findings and every setting; a report
 * whose rows scroll it. Its state: the report's lines, rebuilt from the model when asked. */
#include "screens.h"

#include "display.h"
#include "draw.h"
#include "pane.h"
#include "humanfmt.h"
#include "report_words.h"
#include "util.h"

#include <stdlib.h>

typedef struct rline {
    char *text;
    ui_role role;
} rline;

typedef struct cost_state {
    rline *v;
    size_t n, cap;
} cost_state;

static void add_line(cost_state *st, ui_role role, char *text)
{
    VEC_GROW(st->v, st->n, st->cap);
    st->v[st->n++] = (rline){text, role};
}

static void lines_clear(cost_state *st)
{
    for (size_t i = 0; i < st->n; i++)
        free(st->v[i].text);
    st->n = 0;
}

static void *cost_open(void) { return xcalloc(1, sizeof(cost_state)); }

static void cost_close(void *state)
{
    cost_state *st = state;
    if (!st)
        return;
    lines_clear(st);
    free(st->v);
    free(st);
}

/* A money column: the amount (when `has`) right-aligned in 16 display columns (UTF-8 aware: "€"
 * is one column). Caller frees. */
static char *money_col(bool has, double amount, const char *currency)
{
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, "");
    if (has)
        humanfmt_add_money(&b, amount, currency, HF_MONEY_SCREEN);
    int pad = 16 - disp_width(b.s);
    char *r = xasprintf("%*s%s", pad > 0 ? pad : 0, "", b.s);
    sbuf_free(&b);
    return r;
}

/* A cost line's name for people ("reads": the analysis' own word, also the JSON's). */
static const char *line_name(const char *name)
{
    /* TRANSLATORS: the lines of the monthly cost (the Cost & heat screen's first column) */
    static const char *const words[] = {
        N_("reads"),   N_("writes"),  N_("index writes"),      N_("storage"),
        N_("streams"), N_("backups"), N_("replicated writes"), N_("replica storage"),
        N_("transfer")};
    for (size_t i = 0; name && i < sizeof words / sizeof *words; i++)
        if (strcmp(name, words[i]) == 0)
            return _(words[i]);
    return name ? name : "";
}

/* A checklist item's status for people (cost_build makes its column as wide as the widest). */
static const char *check_word(kp_check_status s)
{
    /* TRANSLATORS: a checklist item's status in Cost & heat: pass, fail, not applicable */
    return s == KP_CHECK_PASS   ? P_("checklist", "pass")
           : s == KP_CHECK_FAIL ? P_("checklist", "fail")
                                : P_("checklist", "n/a");
}

/* Right-aligns `text` in w display columns (printf's "%*s" by cells). Caller frees. */
static char *right(const char *text, int w)
{
    int pad = w - disp_width(text);
    return xasprintf("%*s%s", pad > 0 ? pad : 0, "", text);
}

/* A checklist item's line: its number, status (in cw columns), title and why. Caller frees. */
static char *check_line(const kp_check_item *c, int cw)
{
    sbuf b;
    sbuf_init(&b);
    sbuf_printf(&b, "%2d ", c->item);
    draw_pad(&b, check_word(c->status), cw);
    sbuf_printf(&b, " %s: %s", c->title, c->why ? c->why : "");
    return sbuf_steal(&b);
}

/* Rebuilds the report's lines from the working copy and its analysis. */
static void cost_build(const screen_env *e)
{
    cost_state *st = e->state;
    lines_clear(st);
    const kp_analysis *a = e->an;
    if (!a || !a->cost) {
        add_line(st, UI_ROLE_DIM, xstrdup(_("no analysis yet: the design needs a valid table")));
        return;
    }
    const char *cur = a->cost->currency;
    const kp_design *d = e->design;
    char *sv = edit_get(d, EDIT_SETTINGS, (size_t)edit_setting_find("streams"), 1);
    char *pt = edit_get(d, EDIT_SETTINGS, (size_t)edit_setting_find("pitr"), 1);
    add_line(
        st, UI_ROLE_DIM,
        /* TRANSLATORS: the table's settings: its name, billing mode (a design file word), streams, pitr */
        xasprintf(_("table %s  billing %s  streams %s  pitr %s   (:set NAME VALUE; all settings at the end)"),
                  d->table.name ? d->table.name : "?", kp_billing_name(d->table.billing),
                  *sv ? sv : _("unset"), *pt ? pt : _("unset")));
    free(sv);
    free(pt);
    add_line(st, UI_ROLE_TITLE,
             xasprintf(_("Monthly cost (730 h)   design billing: %s"), report_billing_name(a->cost->mode)));
    size_t nl = a->on_demand.nlines > a->provisioned.nlines ? a->on_demand.nlines : a->provisioned.nlines;
    int w = 16; /* wider for a global table's "replicated writes" */
    for (size_t i = 0; i < a->on_demand.nlines; i++)
        if (disp_width(line_name(a->on_demand.lines[i].name)) > w)
            w = disp_width(line_name(a->on_demand.lines[i].name));
    /* TRANSLATORS: the cost table's headers: the line (16 columns or more), then each billing mode's
       amount (16 columns each) */
    const char *hl = _("line"), *hod = _("on-demand"), *hpv = _("provisioned");
    if (disp_width(hl) > w)
        w = disp_width(hl);
    sbuf hb;
    sbuf_init(&hb);
    draw_pad(&hb, hl, w);
    char *rod = right(hod, 16), *rpv = right(hpv, 16);
    sbuf_printf(&hb, " %s %s", rod, rpv);
    free(rod);
    free(rpv);
    add_line(st, UI_ROLE_HEADER, sbuf_steal(&hb));
    for (size_t i = 0; i < nl; i++) {
        const kp_cost_line *o = i < a->on_demand.nlines ? &a->on_demand.lines[i] : NULL;
        const kp_cost_line *p = i < a->provisioned.nlines ? &a->provisioned.lines[i] : NULL;
        char *ro = money_col(o, o ? o->amount : 0, cur), *rp = money_col(p, p ? p->amount : 0, cur);
        sbuf lb;
        sbuf_init(&lb);
        draw_pad(&lb, line_name(o ? o->name : p ? p->name : ""), w);
        sbuf_printf(&lb, " %s %s", ro, rp);
        add_line(st, UI_ROLE_NORMAL, sbuf_steal(&lb));
        free(ro);
        free(rp);
    }
    char *rto = money_col(true, a->on_demand.total, cur), *rtp = money_col(true, a->provisioned.total, cur);
    sbuf tb;
    sbuf_init(&tb);
    draw_pad(&tb, _("total"), w);
    sbuf_printf(&tb, " %s %s", rto, rtp);
    add_line(st, UI_ROLE_HEADER, sbuf_steal(&tb));
    free(rto);
    free(rtp);
    add_line(st, UI_ROLE_NORMAL, xstrdup(""));
    add_line(st, UI_ROLE_TITLE, xstrdup(_("Partitions: hottest value per key template")));
    {
        /* TRANSLATORS: the partitions' headers: index (8 columns), key template (24), distinct values
           (10), the hottest value's share of the items (6), of the read and write units per partition (7
           each) */
        sbuf pb;
        sbuf_init(&pb);
        draw_pad(&pb, _("index"), 8);
        sbuf_add(&pb, " ");
        draw_pad(&pb, _("template"), 24);
        const char *ph[] = {_("distinct"), _("hot%"), _("read%"), _("write%")};
        const int pw[] = {10, 6, 7, 7};
        for (int k = 0; k < 4; k++) {
            char *t = right(ph[k], pw[k]);
            sbuf_printf(&pb, " %s", t);
            free(t);
        }
        sbuf_add(&pb, "  ");
        add_line(st, UI_ROLE_HEADER, sbuf_steal(&pb));
    }
    for (size_t i = 0; i < a->npartitions; i++) {
        const kp_partition_result *p = &a->partitions[i];
        char dn[HUMANFMT_SIZE];
        humanfmt(dn, sizeof dn, p->distinct, HF_NUM_SCREEN);
        sbuf l;
        sbuf_init(&l);
        draw_pad(&l, pane_index_label(p->index_name), 8);
        sbuf_add(&l, " ");
        disp_cell(&l, p->template_src, 24, 0);
        char hs[HUMANFMT_SIZE], ru[HUMANFMT_SIZE], wu[HUMANFMT_SIZE];
        humanfmt(hs, sizeof hs, p->hot_share, HF_PCT_REPORT);
        humanfmt(ru, sizeof ru, p->read_util, HF_PCT_REPORT);
        humanfmt(wu, sizeof wu, p->write_util, HF_PCT_REPORT);
        sbuf_printf(&l, " %10s %6s %7s %7s  ", dn, hs, ru, wu);
        if (p->hot && p->suggest_shards > 0)
            /* TRANSLATORS: a hot partition, and the shards that cool it */
            sbuf_printf(&l, _("HOT: shard x%d"), p->suggest_shards);
        else if (p->hot)
            sbuf_add(&l, _("HOT"));
        add_line(st,
                 p->hot                                        ? UI_ROLE_BAD
                 : p->read_util >= 0.5 || p->write_util >= 0.5 ? UI_ROLE_WARN
                                                               : UI_ROLE_NORMAL,
                 sbuf_steal(&l));
    }
    add_line(st, UI_ROLE_NORMAL, xstrdup(""));
    add_line(st, UI_ROLE_TITLE,
             xasprintf(_("Checklist: %d of %d applicable items pass"), a->checklist_pass,
                       a->checklist_applicable));
    int cw = 4; /* the status column: as wide as its widest word */
    for (int s = KP_CHECK_PASS; s <= KP_CHECK_NA; s++)
        if (disp_width(check_word((kp_check_status)s)) > cw)
            cw = disp_width(check_word((kp_check_status)s));
    for (int i = 0; i < KP_CHECKLIST_ITEMS; i++) {
        const kp_check_item *c = &a->checklist[i];
        if (!c->title)
            continue;
        add_line(st,
                 c->status == KP_CHECK_FAIL   ? UI_ROLE_BAD
                 : c->status == KP_CHECK_PASS ? UI_ROLE_GOOD
                                              : UI_ROLE_DIM,
                 check_line(c, cw));
    }
    add_line(st, UI_ROLE_NORMAL, xstrdup(""));
    add_line(st, UI_ROLE_TITLE, xasprintf(_("Findings: %zu"), a->nfindings));
    for (size_t i = 0; i < a->nfindings; i++) {
        const kp_finding *f = &a->findings[i];
        add_line(st,
                 f->sev == KP_SEV_ERROR     ? UI_ROLE_BAD
                 : f->sev == KP_SEV_WARNING ? UI_ROLE_WARN
                                            : UI_ROLE_NORMAL,
                 xasprintf("%s [%s] %s: %s%s%s",
                           /* TRANSLATORS: a finding's severity in one letter: error, warning, note */
                           f->sev == KP_SEV_ERROR     ? P_("severity", "E")
                           : f->sev == KP_SEV_WARNING ? P_("severity", "W")
                                                      : P_("severity", "i"),
                           f->code, f->where ? f->where : "", f->message ? f->message : "",
                           f->fix ? " -> " : "", f->fix ? f->fix : ""));
    }
    add_line(st, UI_ROLE_NORMAL, xstrdup(""));
    add_line(st, UI_ROLE_TITLE, xstrdup(_("Settings (:set NAME VALUE changes one; u undoes)")));
    for (size_t i = 0; i < edit_nrows(d, EDIT_SETTINGS); i++) {
        char *k = edit_get(d, EDIT_SETTINGS, i, 0), *val = edit_get(d, EDIT_SETTINGS, i, 1);
        add_line(st, *val ? UI_ROLE_NORMAL : UI_ROLE_DIM,
                 xasprintf("  %-24s %s", k, *val ? val : _("(default)")));
        free(k);
        free(val);
    }
}

static size_t cost_rows(const screen_env *e)
{
    cost_build(e);
    return ((const cost_state *)e->state)->n;
}

static void cost_draw(const screen_env *e, ui_rect r, int *cy, int *cx)
{
    (void)cy, (void)cx;
    cost_build(e);
    const cost_state *st = e->state;
    ui_cursor *c = e->cur;
    /* the cursor's line is highlighted and kept in view (Enter or v opens it whole) */
    size_t h = r.h > 0 ? (size_t)r.h : 1;
    if (c->row < c->top)
        c->top = c->row;
    if (c->row >= c->top + h)
        c->top = c->row - h + 1;
    for (int i = 0; i < r.h && c->top + (size_t)i < st->n; i++) {
        size_t k = c->top + (size_t)i;
        draw_put(r.y + i, r.x, r.w, st->v[k].text, k == c->row ? UI_ROLE_CURSOR_ROW : st->v[k].role);
    }
}

/* Enter or v: the cursor's line whole (a finding with its fix, a checklist item with its why). */
static char **cost_detail(const screen_env *e, char **title, size_t *n)
{
    cost_build(e);
    const cost_state *st = e->state;
    if (e->cur->row >= st->n || !*st->v[e->cur->row].text)
        return NULL;
    char **v = xcalloc(1, sizeof *v);
    v[0] = xstrdup(st->v[e->cur->row].text);
    *title = xasprintf(_("Cost & heat, line %zu"), e->cur->row + 1);
    *n = 1;
    return v;
}

static screen_col *cost_columns(const screen_env *e, size_t *n)
{
    (void)e;
    *n = 1;
    screen_col *v = xcalloc(1, sizeof *v);
    v[0] = (screen_col){-1, 0, _("line"), 24};
    return v;
}

const screen_ops screen_cost = {
    .name = N_("Cost & heat"),
    .table = EDIT_PATTERNS,
    .is_table = false,
    .open = cost_open,
    .close = cost_close,
    .columns = cost_columns,
    .rows = cost_rows,
    .draw = cost_draw,
    .detail = cost_detail,
};
