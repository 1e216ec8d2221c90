/* status.c - the tabs, the status line and the "terminal too small" screen. */
#include "status.h"

#include "actions.h"
#include "display.h"
#include "draw.h"
#include "humanfmt.h"
#include "util.h"

#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A tab's title: the screen's title, or its first word when the titles do not fit in `width`. */
static int tab_title(int s, int width, char *buf, size_t size)
{
    int total = 1;
    for (int k = 0; k < UI_SCREEN__COUNT; k++)
        total += disp_width(ui_screen_title(k)) + 3;
    const char *t = ui_screen_title(s);
    int n = total < width ? (int)strlen(t) : (int)strcspn(t, " ");
    snprintf(buf, size, "%d %.*s ", s + 1, n, t);
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

void status_draw(ui_rect r, const status_view *v)
{
    const kp_analysis *a = v->an;
    sbuf b;
    sbuf_init(&b);
    if (v->base)
        sbuf_printf(&b, " v%d%s", v->base, v->dirty ? " modified" : " saved");
    else
        sbuf_add(&b, " not committed");
    if (a)
        sbuf_printf(&b, " | checklist %d/%d", a->checklist_pass, a->checklist_applicable);
    if (a && a->cost) {
        sbuf_add(&b, " | ");
        humanfmt_add_money(&b, a->cost->total, a->cost->currency, HF_MONEY_SCREEN);
        sbuf_printf(&b, "/mo %s", kp_billing_name(a->cost->mode));
    }
    sbuf_printf(&b, " | %zu patterns", v->npatterns);
    if (v->errors)
        sbuf_printf(&b, " | %zu error%s", v->errors, v->errors == 1 ? "" : "s");
    if (v->remote_change)
        sbuf_add(&b, " | NEW VERSION: R merges it in");
    draw_put(r.y, r.x, r.w, b.s, UI_ROLE_STATUS);
    /* the hot-partition alarm, right-aligned */
    const kp_partition_result *hot = NULL;
    for (size_t i = 0; a && i < a->npartitions; i++)
        if (a->partitions[i].hot && (!hot || fmax(a->partitions[i].read_util, a->partitions[i].write_util) >
                                                 fmax(hot->read_util, hot->write_util)))
            hot = &a->partitions[i];
    if (hot) {
        char pct[HUMANFMT_SIZE];
        humanfmt(pct, sizeof pct, fmax(hot->read_util, hot->write_util), HF_PCT_REPORT);
        char *t = xasprintf(" HOT %s %s %s ", hot->index_name ? hot->index_name : "",
                            hot->template_src ? hot->template_src : "", pct);
        int tw = disp_width(t);
        int bw = disp_width(b.s);
        if (tw > r.w - bw - 1)
            tw = r.w - bw - 1;
        if (tw > 4)
            draw_put(r.y, r.w - tw, tw, t, UI_ROLE_ALARM);
        free(t);
    }
    sbuf_free(&b);
}

void status_too_small_draw(int lines, int cols)
{
    erase();
    char need[64], have[64];
    snprintf(need, sizeof need, "need %dx%d", UI_MIN_COLS, UI_MIN_LINES);
    snprintf(have, sizeof have, "have %dx%d", cols, lines);
    const char *text[] = {COLS >= 18 ? "Terminal too small" : "Too small", need, have, "q quits"};
    for (int i = 0; i < 4 && i < LINES; i++)
        draw_put(i, 0, COLS, text[i], i == 0 ? UI_ROLE_BAD : UI_ROLE_NORMAL);
}
