/* detail.c - the detail view. */
#include "detail.h"

#include "actions.h"
#include "draw.h"
#include "util.h"

#include <curses.h>
#include <stdlib.h>
#include <string.h>

void detail_close(detail_view *dv)
{
    for (size_t i = 0; i < dv->n; i++)
        free(dv->lines[i]);
    free(dv->lines);
    free(dv->title);
    *dv = (detail_view){0};
}

void detail_show(detail_view *dv, const char *title, const char *const *lines, size_t n)
{
    detail_close(dv);
    dv->title = xstrdup(title ? title : "");
    dv->lines = xcalloc(n ? n : 1, sizeof *dv->lines);
    for (size_t i = 0; i < n; i++)
        dv->lines[i] = xstrdup(lines[i] ? lines[i] : "");
    dv->n = n;
}

void detail_show_text(detail_view *dv, const char *title, const char *text)
{
    const char *one = text ? text : "";
    detail_show(dv, title, &one, 1);
}

bool detail_is_open(const detail_view *dv) { return dv->title != NULL; }

bool detail_key(detail_view *dv, int key, int page)
{
    size_t pg = page > 1 ? (size_t)page : 1;
    if (key == UI_KEY_ESC || key == 'q' || key == UI_KEY_ENTER || key == 'v') {
        detail_close(dv);
        return true;
    }
    if (key == UI_FKEY(KEY_DOWN) || key == 'j')
        dv->top++;
    else if ((key == UI_FKEY(KEY_UP) || key == 'k') && dv->top)
        dv->top--;
    else if (key == UI_FKEY(KEY_NPAGE) || key == ' ' || key == UI_CTRL('f'))
        dv->top += pg;
    else if (key == UI_FKEY(KEY_PPAGE) || key == UI_CTRL('b'))
        dv->top = dv->top > pg ? dv->top - pg : 0;
    else if (key == 'g' || key == UI_FKEY(KEY_HOME))
        dv->top = 0;
    else if (key == 'G' || key == UI_FKEY(KEY_END))
        dv->top = (size_t)-1 / 2; /* clamped by drawing */
    else
        return false;
    return true;
}

char **detail_wrapped(const detail_view *dv, int width, size_t *n)
{
    char **v = NULL;
    size_t cnt = 0, cap = 0;
    for (size_t i = 0; i < dv->n; i++) {
        size_t nw;
        char **w = draw_wrap(dv->lines[i], width, &nw);
        if (!nw) {
            VEC_GROW(v, cnt, cap);
            v[cnt++] = xstrdup("");
        }
        for (size_t k = 0; k < nw; k++) {
            VEC_GROW(v, cnt, cap);
            v[cnt++] = w[k];
        }
        free(w);
    }
    *n = cnt;
    return v;
}

void detail_draw(detail_view *dv, ui_rect r)
{
    if (r.h <= 0 || r.w <= 0)
        return;
    size_t n;
    char **v = detail_wrapped(dv, r.w - 2, &n);
    size_t body = r.h > 1 ? (size_t)(r.h - 1) : 0;
    size_t maxtop = n > body ? n - body : 0;
    if (dv->top > maxtop)
        dv->top = maxtop;
    char *bar = n > body ? xasprintf(_(" %s  (lines %zu-%zu of %zu; j/k PgDn/PgUp scroll, Esc closes)"),
                                     dv->title, dv->top + 1, dv->top + body, n)
                         : xasprintf(_(" %s  (Esc closes)"), dv->title);
    draw_put(r.y, r.x, r.w, bar, UI_ROLE_TAB_ACTIVE);
    free(bar);
    for (size_t i = 0; i < body; i++) {
        size_t k = dv->top + i;
        draw_put(r.y + 1 + (int)i, r.x, 1, "", UI_ROLE_NORMAL);
        draw_put(r.y + 1 + (int)i, r.x + 1, r.w - 1, k < n ? v[k] : "", UI_ROLE_NORMAL);
    }
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}
