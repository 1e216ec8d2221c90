/* status.c - the tabs, the status line and the "terminal too small" screen. */
#include "status.h"

#include "actions.h"
#include "display.h"
#include "draw.h"
#include "pane.h"
#include "humanfmt.h"
#include "util.h"

#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A tab's short title, for a terminal too narrow for the titles ("Cost"). */
static const char *short_title(int s)
{
    /* TRANSLATORS: the tabs' short titles, used when the titles do not fit: together they must fit
       in 55 columns ("1 Patterns 2 Keys ... 8 Items" in 80 columns) */
    const char *const shorts[UI_SCREEN__COUNT] = {
        P_("tab", "Patterns"),  P_("tab", "Keys"),    P_("tab", "Indexes"), P_("tab", "Attributes"),
        P_("tab", "Decisions"), P_("tab", "History"), P_("tab", "Cost"),    P_("tab", "Items"),
    };
    return (unsigned)s < UI_SCREEN__COUNT ? shorts[s] : "?";
}

/* A tab's title: the screen's title, or its short title when the titles do not fit in `width`. */
static int tab_title(int s, int width, char *buf, size_t size)
{
    int total = 1;
    for (int k = 0; k < UI_SCREEN__COUNT; k++)
        total += disp_width(ui_screen_title(k)) + 3;
    snprintf(buf, size, "%d %s ", s + 1, total < width ? ui_screen_title(s) : short_title(s));
    return disp_width(buf);
}

void status_tabs_draw(ui_rect r, int current, const char *path)
{
    draw_put(r.y, r.x, r.w, "", UI_ROLE_TAB);
    int x = 1;
    for (int s = 0; s < UI_SCREEN__COUNT && x < r.w; s++) {
        char t[64];
        int tw = tab_title(s, r.w, t, sizeof t);
        draw_put(r.y, x, tw < r.w - x ? tw : r.w - x, t, s == current ? UI_ROLE_TAB_ACTIVE : UI_ROLE_TAB);
        x += tw;
    }
    int pw = disp_width(path);
    if (x + pw + 2 < r.w)
        draw_put(r.y, r.w - pw - 1, pw, path, UI_ROLE_DIM);
}

int status_tab_at(int x, int width)
{
    /* from column 1, each title takes its width plus 3 columns ("1 Title ") */
    int col = 1;
    for (int s = 0; s < UI_SCREEN__COUNT; s++) {
        char t[64];
        int tw = tab_title(s, width, t, sizeof t);
        if (x >= col && x < col + tw)
            return s;
        col += tw;
    }
    return -1;
}

/* The status line's text at `level`: 0 says everything; each level up leaves out what matters
 * least in a narrow terminal (the pattern count, then the billing mode; then the new version's
 * notice says only its key; then the checklist), so the version, the errors, the cost and a
 * teammate's new version stay in 80 columns. */
static char *status_text(const status_view *v, int level)
{
    const kp_analysis *a = v->an;
    sbuf b;
    sbuf_init(&b);
    if (v->base)
        /* TRANSLATORS: the status line's first field: the version, and whether the working copy differs */
        sbuf_printf(&b, v->dirty ? _(" v%d modified") : _(" v%d saved"), v->base);
    else
        sbuf_add(&b, _(" not committed"));
    if (a && level < 4)
        /* TRANSLATORS: the status line: the checklist's score (the status line is short: 80 columns) */
        sbuf_printf(&b, _(" | checklist %d/%d"), a->checklist_pass, a->checklist_applicable);
    if (a && a->cost) {
        sbuf_add(&b, " | ");
        humanfmt_add_money(&b, a->cost->total, a->cost->currency, HF_MONEY_SCREEN);
        /* TRANSLATORS: the billing mode after the monthly cost, in the short status line */
        const char *mode = a->cost->mode == KP_BILLING_PROVISIONED ? P_("status billing", "provisioned")
                                                                   : P_("status billing", "on-demand");
        if (level < 2)
            /* TRANSLATORS: after the monthly cost: "a month", then the billing mode */
            sbuf_printf(&b, _("/mo %s"), mode);
        else
            /* TRANSLATORS: after the monthly cost when the status line is short of room: "a month" */
            sbuf_add(&b, _("/mo"));
    }
    if (level < 1)
        sbuf_printf(&b, ngettext(" | %zu pattern", " | %zu patterns", v->npatterns), v->npatterns);
    if (v->errors)
        sbuf_printf(&b, ngettext(" | %zu error", " | %zu errors", v->errors), v->errors);
    if (v->remote_change)
        sbuf_add(&b, level < 3 ? _(" | NEW VERSION: R merges it in")
                               /* TRANSLATORS: " | NEW VERSION: R merges it in" when short of room */
                               : _(" | NEW VERSION: R"));
    return sbuf_steal(&b);
}

void status_draw(ui_rect r, const status_view *v)
{
    const kp_analysis *a = v->an;
    /* the hot-partition alarm, right-aligned */
    const kp_partition_result *hot = NULL;
    for (size_t i = 0; a && i < a->npartitions; i++)
        if (a->partitions[i].hot && (!hot || fmax(a->partitions[i].read_util, a->partitions[i].write_util) >
                                                 fmax(hot->read_util, hot->write_util)))
            hot = &a->partitions[i];
    /* the alarm whole, or without the key template when the line is short of room */
    char *full = NULL, *brief = NULL;
    if (hot) {
        char pct[HUMANFMT_SIZE];
        humanfmt(pct, sizeof pct, fmax(hot->read_util, hot->write_util), HF_PCT_REPORT);
        /* TRANSLATORS: the hot-partition alarm: the index, the key template, its utilisation */
        full = xasprintf(_(" HOT %s %s %s "), pane_index_label(hot->index_name),
                         hot->template_src ? hot->template_src : "", pct);
        /* TRANSLATORS: the hot-partition alarm short of room: the index, its utilisation */
        brief = xasprintf(_(" HOT %s %s "), pane_index_label(hot->index_name), pct);
    }
    /* the first that fits: the line with less and less, the alarm whole while the line leaves out
       its least (the pattern count, the billing mode), then brief */
    static const struct {
        int level;
        bool brief;
    } tries[] = {{0, false}, {1, false}, {2, false}, {2, true}, {3, true}, {4, true}};
    char *s = NULL, *t = NULL;
    for (size_t i = 0; i < sizeof tries / sizeof *tries; i++) {
        free(s);
        s = status_text(v, tries[i].level);
        t = tries[i].brief ? brief : full;
        if (disp_width(s) + (t ? disp_width(t) + 1 : 0) <= r.w)
            break;
    }
    int tw = t ? disp_width(t) : 0;
    draw_put(r.y, r.x, r.w, s, UI_ROLE_STATUS);
    if (t) {
        int bw = disp_width(s);
        if (tw > r.w - bw - 1)
            tw = r.w - bw - 1;
        if (tw > 4)
            draw_put(r.y, r.w - tw, tw, t, UI_ROLE_ALARM);
    }
    free(full);
    free(brief);
    free(s);
}

void status_too_small_draw(int lines, int cols)
{
    erase();
    char need[64], have[64];
    /* TRANSLATORS: the "terminal too small" screen (at most 18 columns wide at the smallest) */
    snprintf(need, sizeof need, _("need %dx%d"), UI_MIN_COLS, UI_MIN_LINES);
    snprintf(have, sizeof have, _("have %dx%d"), cols, lines);
    const char *text[] = {COLS >= 18 ? _("Terminal too small") : _("Too small"), need, have, _("q quits")};
    for (int i = 0; i < 4 && i < LINES; i++)
        draw_put(i, 0, COLS, text[i], i == 0 ? UI_ROLE_BAD : UI_ROLE_NORMAL);
}
