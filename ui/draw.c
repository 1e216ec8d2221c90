/* draw.c - the frame: tabs, the current screen, the live model pane, the tour narration, the
 * status line, the message/prompt line, the help overlay and the "terminal too small" screen.
 * Only called from the main loop (or a test) through wb_draw. */
#include "wb.h"

#include "display.h"

#include <curses.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers -------------------------------------------------------------------------------- */

void wb_put(int y, int x, int w, const char *text, ui_role role)
{
    if (w <= 0 || y < 0 || x < 0 || y >= LINES || x >= COLS)
        return;
    if (x + w > COLS)
        w = COLS - x;
    int used = 0;
    const char *t = text ? text : "";
    /* control characters would move the cursor: show them as spaces */
    char *clean = NULL;
    for (const char *p = t; *p; p++)
        if ((unsigned char)*p < 32) {
            clean = xstrdup(t);
            for (char *q = clean; *q; q++)
                if ((unsigned char)*q < 32)
                    *q = ' ';
            t = clean;
            break;
        }
    size_t n = disp_fit(t, w, &used);
    attrset(theme_attr(role));
    mvaddnstr(y, x, t, (int)n);
    for (int i = used; i < w; i++)
        addch(' ');
    attrset(A_NORMAL);
    free(clean);
}

void wb_putf(int y, int x, int w, ui_role role, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    wb_put(y, x, w, s, role);
    free(s);
}

static char *group_digits(const char *digits)
{
    size_t n = strlen(digits);
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, "");
    for (size_t i = 0; i < n; i++) {
        if (i && (n - i) % 3 == 0)
            sbuf_addc(&b, ',');
        sbuf_addc(&b, digits[i]);
    }
    return sbuf_steal(&b);
}

static void strip_zeros(char *s)
{
    if (!strchr(s, '.'))
        return;
    size_t n = strlen(s);
    while (n && s[n - 1] == '0')
        s[--n] = '\0';
    if (n && s[n - 1] == '.')
        s[n - 1] = '\0';
}

char *wb_fmt_num(double v)
{
    if (isnan(v))
        return xstrdup("-");
    if (isinf(v))
        return xstrdup("inf");
    bool neg = v < 0;
    double a = fabs(v);
    char buf[64];
    if (a >= 1000) {
        snprintf(buf, sizeof buf, "%.0f", a);
        char *g = group_digits(buf);
        char *r = xasprintf("%s%s", neg ? "-" : "", g);
        free(g);
        return r;
    }
    snprintf(buf, sizeof buf, a >= 10 ? "%.1f" : a >= 0.01 || a == 0 ? "%.2f" : "%.4f", a);
    strip_zeros(buf);
    return xasprintf("%s%s", neg ? "-" : "", buf);
}

char *wb_fmt_short(double v)
{
    if (isnan(v))
        return xstrdup("-");
    double a = fabs(v);
    const char *sign = v < 0 ? "-" : "";
    if (a >= 1e12)
        return xasprintf("%s%.3gT", sign, a / 1e12);
    if (a >= 1e9)
        return xasprintf("%s%.3gG", sign, a / 1e9);
    if (a >= 1e6)
        return xasprintf("%s%.3gM", sign, a / 1e6);
    if (a >= 1e5)
        return xasprintf("%s%.3gk", sign, a / 1e3);
    return wb_fmt_num(v);
}

static char *fmt_ms(double ms)
{
    if (isnan(ms))
        return xstrdup("-");
    if (ms >= 10000)
        return xasprintf("%.0fs", ms / 1000);
    return xasprintf("%.0f", ms);
}

char *wb_fmt_money(double v, const char *currency)
{
    if (isnan(v))
        return xstrdup("-");
    const char *sym = !currency || strcmp(currency, "USD") == 0 ? "$" : strcmp(currency, "EUR") == 0 ? "€" : NULL;
    char buf[64];
    snprintf(buf, sizeof buf, "%.2f", fabs(v));
    char *dot = strchr(buf, '.');
    char *ip = xstrndup(buf, (size_t)(dot - buf));
    char *g = group_digits(ip);
    char *r = sym ? xasprintf("%s%s%s%s", v < 0 ? "-" : "", sym, g, dot)
                  : xasprintf("%s%s%s %s", v < 0 ? "-" : "", g, dot, currency);
    free(ip);
    free(g);
    return r;
}

/* ---- the live model pane -------------------------------------------------------------------- */

static const kp_pattern_result *prev_result(wb *w, const char *id)
{
    if (!w->tour_prev_an || !id)
        return NULL;
    for (size_t i = 0; i < w->tour_prev_an->npatterns; i++) {
        const kp_pattern *p = w->tour_prev_an->patterns[i].pattern;
        if (p && p->id && strcmp(p->id, id) == 0)
            return &w->tour_prev_an->patterns[i];
    }
    return NULL;
}

static bool num_changed(double a, double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) != isnan(b);
    return fabs(a - b) > 1e-9 * (fabs(a) + fabs(b) + 1);
}

static ui_role plan_role(kp_plan p)
{
    switch (p) {
    case KP_PLAN_GET:
    case KP_PLAN_COVERED: return UI_ROLE_GOOD;
    case KP_PLAN_SCAN:
    case KP_PLAN_INVALID: return UI_ROLE_BAD;
    case KP_PLAN_MULTI: return UI_ROLE_WARN;
    default: return UI_ROLE_NORMAL;
    }
}

/* Draws text wrapped over lines starting at *y (up to ymax); returns nothing, moves *y. */
static void put_wrapped(int *y, int ymax, int x, int w, const char *text, ui_role role, const char *indent)
{
    const char *p = text ? text : "";
    bool first = true;
    while (*y < ymax) {
        int avail = w - (first ? 0 : (int)strlen(indent));
        if (avail < 4)
            avail = w;
        int used;
        size_t n = disp_fit(p, avail, &used);
        if (p[n]) {
            /* break at the last blank that fits */
            size_t k = n;
            while (k > 0 && p[k] != ' ')
                k--;
            if (k > 0)
                n = k;
        }
        char *line = xasprintf("%s%.*s", first ? "" : indent, (int)n, p);
        wb_put((*y)++, x, w, line, role);
        free(line);
        p += n;
        while (*p == ' ')
            p++;
        first = false;
        if (!*p)
            break;
    }
}

/* The current design's row of pattern `id`, or -1. */
static int pattern_row(const kp_design *d, const char *id)
{
    for (size_t i = 0; id && i < d->npatterns; i++)
        if (d->patterns[i].id && strcmp(d->patterns[i].id, id) == 0)
            return (int)i;
    return -1;
}

void wb_draw_pane(wb *w, ui_rect r)
{
    const kp_design *d = session_design(w->ss);
    const kp_analysis *a = w->an;
    int y = r.y, ymax = r.y + r.h;
    for (int i = r.y; i < ymax && i < w->npane_hit; i++)
        w->pane_hit[i] = -1;
    int x = r.x + (w->lay.side ? 1 : 0), pw = r.w - (w->lay.side ? 1 : 0);
    if (w->lay.side)
        for (int i = 0; i < r.h; i++)
            wb_put(r.y + i, r.x, 1, "│", UI_ROLE_BORDER);
    /* title */
    char *cost = a && a->cost ? wb_fmt_money(a->cost->total, a->cost->currency) : xstrdup("-");
    bool cost_changed = w->tour_prev_an && a && w->tour_prev_an->cost && a->cost &&
                        num_changed(w->tour_prev_an->cost->total, a->cost->total);
    wb_putf(y++, x, pw, cost_changed ? UI_ROLE_CHANGED : UI_ROLE_TITLE, "Live model  %s/month%s%s", cost,
            w->diags.errors ? "  (last good state: fix the error below)" : "",
            cost_changed ? "  (changed)" : "");
    free(cost);
    if (!a) {
        wb_put(y++, x, pw, "no analysis yet", UI_ROLE_DIM);
    }
    /* pattern table */
    /* id 3, plan 10, index 8, key condition (the rest), RCU/call 9, RCU/s 8, ms/target 9 */
    int kcw = pw - (3 + 10 + 8 + 9 + 8 + 1 + 9);
    size_t npat = a ? a->npatterns : 0;
    /* a narrow pane with lines to spare puts the key condition on a line of its own */
    bool two = kcw < 24 && (ymax - y) >= (int)(2 * npat) + 8;
    if (two)
        kcw = 0;
    else if (kcw < 6)
        kcw = 6;
    if (y < ymax)
        wb_putf(y++, x, pw, UI_ROLE_HEADER, "%-3s%-10s%-8s%-*.*s%9s%8s %-9s", "#", "plan", "index", kcw,
                kcw > 0 ? kcw - 1 : 0, "key condition", "RCU/call", "RCU/s", "ms/target");
    const kp_pattern *sel = NULL;
    if (w->screen == UI_SCREEN_PATTERNS && w->cur[UI_SCREEN_PATTERNS].row < d->npatterns)
        sel = &d->patterns[w->cur[UI_SCREEN_PATTERNS].row];
    size_t np = npat;
    /* leave room for the details of the selected pattern (as many lines as they take, up to 6) */
    int need = 0;
    for (size_t i = 0; sel && sel->id && i < np; i++) {
        const kp_pattern_result *pr = &a->patterns[i];
        if (!pr->pattern || !pr->pattern->id || strcmp(pr->pattern->id, sel->id) != 0)
            continue;
        need = 1 + (int)pr->nwarnings;
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
    if (sel && np > rows_fit) {
        for (size_t i = 0; i < np; i++)
            if (a->patterns[i].pattern && sel->id && a->patterns[i].pattern->id &&
                strcmp(a->patterns[i].pattern->id, sel->id) == 0 && i >= rows_fit)
                first = i - rows_fit + 1;
    }
    const kp_pattern_result *selr = NULL;
    for (size_t i = 0; i < np; i++) {
        const kp_pattern_result *pr = &a->patterns[i];
        const char *id = pr->pattern && pr->pattern->id ? pr->pattern->id : "?";
        bool is_sel = sel && sel->id && strcmp(sel->id, id) == 0;
        if (is_sel)
            selr = pr;
        if (i < first || y + (two ? 2 : 1) > r.y + 2 + room || y >= ymax)
            continue;
        const kp_pattern_result *pv = prev_result(w, id);
        bool changed = w->tour_prev_an && (!pv || pv->plan != pr->plan || num_changed(pv->rcu_per_s, pr->rcu_per_s) ||
                                           num_changed(pv->requests, pr->requests));
        char plan[32];
        snprintf(plan, sizeof plan, "%s %s", kp_plan_symbol(pr->plan), kp_plan_word(pr->plan));
        if (pr->plan == KP_PLAN_MULTI && pr->requests > 1 && pr->requests < 100)
            snprintf(plan, sizeof plan, "+ multi%.0f", pr->requests);
        char *rc = wb_fmt_short(pr->pattern && pr->pattern->kind == KP_WRITE ? pr->wcu_per_call : pr->rcu_per_call);
        char *rs = wb_fmt_short(pr->pattern && pr->pattern->kind == KP_WRITE ? pr->wcu_per_s : pr->rcu_per_s);
        char lat[48];
        char *ms = fmt_ms(pr->latency_ms);
        if (pr->pattern && !isnan(pr->pattern->latency)) {
            char *tg = fmt_ms(pr->pattern->latency);
            snprintf(lat, sizeof lat, "%s/%s", ms, tg);
            free(tg);
        } else {
            snprintf(lat, sizeof lat, "%s", ms);
        }
        free(ms);
        const char *kc = pr->key_condition ? pr->key_condition : "";
        char *kct = xstrdup(two ? "" : kc);
        size_t fit = disp_fit(kct, kcw > 0 ? kcw - 1 : 0, NULL);
        kct[fit] = '\0';
        int pad = kcw - disp_width(kct);
        changed = changed || wb_tour_marked(w, "pattern", id);
        ui_role base = is_sel ? UI_ROLE_CURSOR_ROW : changed ? UI_ROLE_CHANGED : UI_ROLE_NORMAL;
        char *idt = xstrdup(id);
        idt[disp_fit(idt, 2, NULL)] = '\0';
        if (y < w->npane_hit)
            w->pane_hit[y] = pattern_row(d, id);
        wb_putf(y, x, pw, base, "%-3s%-10s%-8.7s%s%*s%9s%8s %-9s", idt, "", pr->index_name ? pr->index_name : "",
                kct, pad > 0 ? pad : 0, "", rc, rs, lat);
        /* the plan word in its colour, the latency in red when over target */
        wb_put(y, x + 3, 9, plan, is_sel ? UI_ROLE_CURSOR_ROW : changed ? UI_ROLE_CHANGED : plan_role(pr->plan));
        if (!pr->latency_ok && !is_sel)
            wb_put(y, x + pw - 9, 9, lat, UI_ROLE_BAD);
        free(idt);
        free(kct);
        free(rc);
        free(rs);
        y++;
        if (two && y < ymax) {
            if (y < w->npane_hit)
                w->pane_hit[y] = pattern_row(d, id);
            char *l2 = xasprintf("   %s%s", *kc ? kc : pr->nsteps && pr->steps[0].op != KP_OP_NONE ? kp_op_name(pr->steps[0].op) : "",
                                 pr->filter ? "  +filter" : "");
            wb_put(y++, x, pw, l2, is_sel ? UI_ROLE_CURSOR_ROW : UI_ROLE_DIM);
            free(l2);
        }
    }
    if (np == 0 && a && y < ymax)
        wb_put(y++, x, pw, d->npatterns ? "the model has no results for these patterns yet"
                                        : "type an access pattern (Patterns screen, a) to see its plan",
               UI_ROLE_DIM);
    /* details of the selected pattern */
    if (y < ymax && w->diags.errors) {
        char *m = diags_format(&w->diags, 0);
        put_wrapped(&y, ymax, x, pw, m, UI_ROLE_BAD, "  ");
        free(m);
    }
    /* cells whose text did not parse: the model keeps their last good value */
    for (size_t i = 0; i < w->ndrafts && y < ymax; i++) {
        const wb_draft *dr = &w->drafts[i];
        char *m = xasprintf("%s row %zu: %s", ui_screen_title(dr->screen), dr->row + 1, dr->err ? dr->err : "");
        put_wrapped(&y, ymax, x, pw, m, UI_ROLE_BAD, "  ");
        free(m);
    }
    if (selr && y < ymax) {
        const kp_pattern *p = selr->pattern;
        wb_putf(y++, x, pw, UI_ROLE_TITLE, "-- pattern %s: %s", p->id ? p->id : "", p->name ? p->name : "");
        for (size_t s = 0; s < selr->nsteps && y < ymax; s++) {
            const kp_step *st = &selr->steps[s];
            char *cnt = st->count > 1 ? xasprintf("%.0f x ", st->count) : xstrdup("");
            const char *ix = st->index < 0 ? "table" : (size_t)st->index < d->nindexes ? d->indexes[st->index].name : "?";
            char *line = xasprintf("%s%s %s%s%s%s", cnt, kp_op_name(st->op), st->op == KP_OP_SCAN ? "" : ix,
                                   st->key_condition ? "  " : "", st->key_condition ? st->key_condition : "",
                                   st->filter ? "  FILTER" : "");
            put_wrapped(&y, ymax, x, pw, line, plan_role(selr->plan), "    ");
            free(line);
            free(cnt);
            for (size_t k = 0; k < st->nvalues && y < ymax; k++)
                wb_putf(y++, x, pw, UI_ROLE_DIM, "    %s = %s", st->values[k].name, st->values[k].value);
        }
        for (size_t k = 0; k < selr->nwarnings && y < ymax; k++) {
            char *wl = xasprintf("! %s", selr->warnings[k]);
            put_wrapped(&y, ymax, x, pw, wl, UI_ROLE_WARN, "  ");
            free(wl);
        }
    }
    /* findings, as room allows */
    if (a && a->nfindings && y + 1 < ymax) {
        wb_putf(y++, x, pw, UI_ROLE_TITLE, "-- findings (%zu, all on Cost & heat)", a->nfindings);
        for (size_t i = 0; i < a->nfindings && y < ymax; i++) {
            const kp_finding *f = &a->findings[i];
            wb_putf(y++, x, pw, f->sev == KP_SEV_ERROR ? UI_ROLE_BAD : f->sev == KP_SEV_WARNING ? UI_ROLE_WARN : UI_ROLE_NORMAL,
                    "%s %s: %s", f->code, f->where ? f->where : "", f->message ? f->message : "");
        }
    }
    while (y < ymax)
        wb_put(y++, x, pw, "", UI_ROLE_NORMAL);
}

/* ---- frame ------------------------------------------------------------------------------------ */

static void draw_tabs(wb *w)
{
    ui_rect r = w->lay.tabs;
    wb_put(r.y, r.x, r.w, "", UI_ROLE_TAB);
    int x = 1;
    for (int s = 0; s < UI_SCREEN__COUNT && x < r.w; s++) {
        char *t = xasprintf("%d %s ", s + 1, ui_screen_title(s));
        int tw = disp_width(t);
        wb_put(r.y, x, tw < r.w - x ? tw : r.w - x, t, s == w->screen ? UI_ROLE_TAB_ACTIVE : UI_ROLE_TAB);
        x += tw;
        free(t);
    }
    const char *path = session_path(w->ss);
    int pw = disp_width(path);
    if (x + pw + 2 < r.w)
        wb_put(r.y, r.w - pw - 1, pw, path, UI_ROLE_DIM);
}

static void draw_status(wb *w)
{
    ui_rect r = w->lay.status;
    const kp_analysis *a = w->an;
    sbuf b;
    sbuf_init(&b);
    int base = session_base(w->ss);
    bool dirty = session_dirty(w->ss);
    if (base)
        sbuf_printf(&b, " v%d%s", base, dirty ? " modified" : " saved");
    else
        sbuf_add(&b, " not committed");
    if (a)
        sbuf_printf(&b, " | checklist %d/%d", a->checklist_pass, a->checklist_applicable);
    if (a && a->cost) {
        char *m = wb_fmt_money(a->cost->total, a->cost->currency);
        sbuf_printf(&b, " | %s/mo %s", m, kp_billing_name(a->cost->mode));
        free(m);
    }
    sbuf_printf(&b, " | %zu patterns", session_design(w->ss)->npatterns);
    if (w->diags.errors)
        sbuf_printf(&b, " | %zu error%s", w->diags.errors, w->diags.errors == 1 ? "" : "s");
    if (w->remote_change)
        sbuf_add(&b, " | NEW VERSION: R reloads");
    wb_put(r.y, r.x, r.w, b.s, UI_ROLE_STATUS);
    /* the hot-partition alarm, right-aligned */
    const kp_partition_result *hot = NULL;
    for (size_t i = 0; a && i < a->npartitions; i++)
        if (a->partitions[i].hot && (!hot || fmax(a->partitions[i].read_util, a->partitions[i].write_util) >
                                                 fmax(hot->read_util, hot->write_util)))
            hot = &a->partitions[i];
    if (hot) {
        char *t = xasprintf(" HOT %s %s %.0f%% ", hot->index_name ? hot->index_name : "",
                            hot->template_src ? hot->template_src : "",
                            fmax(hot->read_util, hot->write_util) * 100);
        int tw = disp_width(t);
        int bw = disp_width(b.s);
        if (tw > r.w - bw - 1)
            tw = r.w - bw - 1;
        if (tw > 4)
            wb_put(r.y, r.w - tw, tw, t, UI_ROLE_ALARM);
        free(t);
    }
    sbuf_free(&b);
}

static void draw_msg(wb *w, int *cy, int *cx)
{
    ui_rect r = w->lay.msg;
    if (w->prompt != WB_PROMPT_NONE) {
        const char *lead = w->prompt == WB_PROMPT_COMMAND ? ":" : w->prompt == WB_PROMPT_SEARCH ? "/" : "Commit message: ";
        int lw = disp_width(lead);
        wb_put(r.y, r.x, lw, lead, UI_ROLE_TITLE);
        size_t start;
        int ccol;
        le_view(&w->pl, r.w - lw, &start, &ccol);
        wb_put(r.y, r.x + lw, r.w - lw, w->pl.buf + start, UI_ROLE_NORMAL);
        *cy = r.y;
        *cx = r.x + lw + ccol;
        return;
    }
    wb_put(r.y, r.x, r.w, w->msg ? w->msg : "", w->msg ? w->msg_role : UI_ROLE_NORMAL);
}

/* Wraps text (paragraphs separated by newlines) to `width` columns; caller frees the lines. */
static char **wrap_text(const char *text, int width, size_t *n)
{
    char **v = NULL;
    size_t cnt = 0, cap = 0;
    const char *p = text ? text : "";
    if (width < 8)
        width = 8;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t plen = e ? (size_t)(e - p) : strlen(p);
        char *para = xstrndup(p, plen);
        const char *q = para;
        if (!*q) {
            VEC_GROW(v, cnt, cap);
            v[cnt++] = xstrdup("");
        }
        while (*q) {
            int used;
            size_t k = disp_fit(q, width, &used);
            if (q[k]) {
                size_t b = k;
                while (b > 0 && q[b] != ' ')
                    b--;
                if (b > 0)
                    k = b;
            }
            VEC_GROW(v, cnt, cap);
            v[cnt++] = xstrndup(q, k);
            q += k;
            while (*q == ' ')
                q++;
        }
        free(para);
        if (!e)
            break;
        p = e + 1;
    }
    *n = cnt;
    return v;
}

static void draw_narration(wb *w)
{
    ui_rect r = w->lay.narration;
    if (r.h <= 0)
        return;
    int y = r.y;
    if (!w->tour_on || !w->opt.ntour) {
        for (int i = 0; i < r.h; i++)
            wb_put(r.y + i, r.x, r.w, "", UI_ROLE_NORMAL);
        return;
    }
    const wb_tour_step *st = &w->opt.tour[w->tour_step];
    char *all = xasprintf("%s%s%s", st->narration ? st->narration : "", st->figures ? "\n\nFigures keyplan computes for this step:\n" : "",
                          st->figures ? st->figures : "");
    size_t n;
    char **lines = wrap_text(all, r.w - 2, &n);
    free(all);
    if (w->narr_top + (size_t)(r.h - 1) > n)
        w->narr_top = n > (size_t)(r.h - 1) ? n - (size_t)(r.h - 1) : 0;
    bool more = w->narr_top + (size_t)(r.h - 1) < n;
    wb_putf(y++, r.x, r.w, UI_ROLE_TAB_ACTIVE, " Tour %zu/%zu: %s   ] next  [ previous%s", w->tour_step + 1, w->opt.ntour,
            st->title ? st->title : "", more || w->narr_top ? "  } { scroll" : "");
    for (size_t i = w->narr_top; i < n && y < r.y + r.h; i++)
        wb_put(y++, r.x + 1, r.w - 1, lines[i], UI_ROLE_NORMAL);
    while (y < r.y + r.h)
        wb_put(y++, r.x, r.w, "", UI_ROLE_NORMAL);
    for (size_t i = 0; i < n; i++)
        free(lines[i]);
    free(lines);
}

static void draw_help(wb *w)
{
    ui_rect r = {w->lay.editor.y, 0, w->lay.status.y - w->lay.editor.y, w->lay.cols};
    size_t n;
    char **lines = wb_help_lines(&n);
    /* wrap each entry's help text under its own column (keys and name take 33 columns) */
    char **shown = NULL;
    size_t ns = 0, cap = 0;
    for (size_t i = 0; i < n; i++) {
        size_t head = disp_fit(lines[i], 33, NULL);
        size_t nw;
        char **wrapped = wrap_text(lines[i] + head, r.w - 34 > 20 ? r.w - 34 : 20, &nw);
        for (size_t k = 0; k < nw; k++) {
            VEC_GROW(shown, ns, cap);
            /* the first line carries the keys and the name; the others are indented */
            shown[ns++] = k ? xasprintf("%33s%s", "", wrapped[k]) : xasprintf("%.*s%s", (int)head, lines[i], wrapped[k]);
            free(wrapped[k]);
        }
        free(wrapped);
        free(lines[i]);
    }
    free(lines);
    wb_put(r.y, r.x, r.w, " Help: every action and its keys (from the action table). Any other key closes; j/k scroll.",
           UI_ROLE_TAB_ACTIVE);
    if (w->help_top + 1 > ns)
        w->help_top = ns ? ns - 1 : 0;
    for (int i = 1; i < r.h; i++) {
        size_t k = w->help_top + (size_t)(i - 1);
        wb_put(r.y + i, r.x, r.w, k < ns ? shown[k] : "", UI_ROLE_NORMAL);
    }
    for (size_t i = 0; i < ns; i++)
        free(shown[i]);
    free(shown);
}

static void draw_too_small(wb *w)
{
    erase();
    char need[64], have[64];
    snprintf(need, sizeof need, "need %dx%d", UI_MIN_COLS, UI_MIN_LINES);
    snprintf(have, sizeof have, "have %dx%d", w->lay.cols, w->lay.lines);
    const char *lines[] = {COLS >= 18 ? "Terminal too small" : "Too small", need, have, "q quits"};
    for (int i = 0; i < 4 && i < LINES; i++)
        wb_put(i, 0, COLS, lines[i], i == 0 ? UI_ROLE_BAD : UI_ROLE_NORMAL);
}

void wb_draw(wb *w)
{
    if (w->lay.lines != LINES || w->lay.cols != COLS)
        wb_resize(w, LINES, COLS);
    if (w->lay.too_small) {
        curs_set(0);
        draw_too_small(w);
        return;
    }
    int cy = -1, cx = -1;
    draw_tabs(w);
    if (w->help) {
        draw_help(w);
    } else {
        wb_draw_screen(w, w->lay.editor, &cy, &cx);
        wb_draw_pane(w, w->lay.pane);
    }
    draw_narration(w);
    draw_status(w);
    draw_msg(w, &cy, &cx);
    if (cy >= 0) {
        curs_set(1);
        move(cy, cx);
    } else {
        curs_set(0);
    }
}
