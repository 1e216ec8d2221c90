/* wb_pair.c - pairing on one workspace: :set author (whose working copy), :compact (the undo
 * history's size), and who else has the workspace open: this workbench beats about once a second
 * (its author, screen and row, ws_presence_beat) and shows the others at the right of the tab
 * line; someone who quits leaves at once, someone killed fades out after a few seconds. */
#include "wb_int.h"

#include "draw.h"
#include "display.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static double mono_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static bool same_others(const ws_presence *a, size_t na, const ws_presence *b, size_t nb)
{
    if (na != nb)
        return false;
    for (size_t i = 0; i < na; i++)
        if (strcmp(a[i].author, b[i].author) != 0 || strcmp(a[i].screen, b[i].screen) != 0 ||
            a[i].row != b[i].row)
            return false;
    return true;
}

int wb_presence_tick(wb *w)
{
    ws_t *ws = session_ws(w->ss);
    if (!ws || ws_readonly(ws))
        return UI_IGNORED;
    double t = mono_now();
    if (w->presence_beat > 0 && t - w->presence_beat < 1.0)
        return UI_IGNORED;
    w->presence_beat = t;
    /* stored in English (N_): each workbench shows it in its own reader's language */
    const char *screen = session_merge(w->ss, NULL) ? N_("Merge") : ui_screen_name(w->screen);
    ws_presence_beat(ws, screen, (int)w->cur[w->screen].row + 1, NULL);
    ws_presence *o = NULL;
    size_t n = 0;
    if (ws_presence_others(ws, &o, &n, NULL) != KP_OK)
        return UI_IGNORED;
    bool same = same_others(o, n, w->others, w->nothers);
    ws_presence_free(w->others, w->nothers);
    w->others = o;
    w->nothers = n;
    return same ? UI_IGNORED : UI_REDRAW;
}

void wb_presence_draw(const wb *w, ui_rect r)
{
    if (!w->nothers || r.h < 1)
        return;
    sbuf b;
    sbuf_init(&b);
    for (size_t i = 0; i < w->nothers; i++) {
        sbuf_add(&b, i ? "  " : " * ");
        /* TRANSLATORS: another author's place: "bea: Patterns row 3" (author, screen, row) */
        sbuf_printf(&b, _("%s: %s row %d"), w->others[i].author, _(w->others[i].screen), w->others[i].row);
    }
    sbuf_add(&b, " ");
    /* in the room the tabs leave (over the workspace's path) */
    int tabs = 1;
    for (int s = 0; s < UI_SCREEN__COUNT; s++)
        tabs += disp_width(ui_screen_title(s)) + 3;
    int width = disp_width(b.s);
    if (width > r.w - tabs)
        width = r.w - tabs;
    if (width > 0)
        draw_put(r.y, r.x + r.w - width, width, b.s, UI_ROLE_CHANGED);
    sbuf_free(&b);
}

int wb_set_author(wb *w, const char *name)
{
    char *err = NULL;
    bool had = false;
    ws_t *ws = session_ws(w->ss);
    if (ws && strcmp(name, ws_author(ws)) != 0) {
        /* does NAME have a working copy of their own? then it replaces the one on screen */
        ws_copy *c = NULL;
        size_t n = 0;
        if (ws_copies(ws, &c, &n, NULL) == KP_OK)
            for (size_t i = 0; i < n; i++)
                had = had || strcmp(c[i].author, name) == 0;
        ws_copies_free(c, n);
    }
    if (session_set_author(w->ss, name, &err) != KP_OK) {
        wb_message(w, UI_ROLE_BAD, _("author: %s"), err ? err : _("refused"));
        free(err);
        return UI_REDRAW;
    }
    wb_after_merge(w);
    w->presence_beat = 0;
    if (had)
        wb_message(w, UI_ROLE_GOOD,
                   session_dirty(w->ss)
                       ? _("author = %s: their working copy (version %d plus uncommitted edits)")
                       : _("author = %s: their working copy (version %d)"),
                   session_author(w->ss), session_base(w->ss));
    else
        wb_message(w, UI_ROLE_GOOD, _("author = %s: the working copy on screen is theirs now"),
                   session_author(w->ss));
    return UI_REDRAW | wb_presence_tick(w);
}

int wb_cmd_compact(wb *w, const wb_cmd *c, const wb_cmd_args *a)
{
    (void)c;
    ws_t *ws = session_ws(w->ss);
    long keep = 100;
    if (a->argc >= 2) {
        char *end = NULL;
        keep = strtol(a->argv[1], &end, 10);
        if (*end || keep < 0 || keep > 1000000) {
            wb_message(w, UI_ROLE_WARN,
                       _("usage: :compact [KEEP] (how many undo steps to keep, e.g. :compact 50)"));
            return UI_REDRAW;
        }
    }
    if (!ws) {
        wb_message(w, UI_ROLE_WARN, _("no workspace to compact"));
        return UI_REDRAW;
    }
    char *err = NULL;
    long long freed = 0;
    if (session_compact(w->ss, (size_t)keep, &freed, &err) != KP_OK) {
        wb_message(w, UI_ROLE_BAD, _("compact: %s"), err ? err : _("failed"));
        free(err);
        return UI_REDRAW;
    }
    size_t nundo = 0;
    ws_history_depth(ws, &nundo, NULL, NULL);
    wb_message(w, UI_ROLE_GOOD,
               ngettext("compacted: %zu undo step kept in the workspace, the file %.1f KB smaller",
                        "compacted: %zu undo steps kept in the workspace, the file %.1f KB smaller", nundo),
               nundo, (double)freed / 1024.0);
    return UI_REDRAW;
}
