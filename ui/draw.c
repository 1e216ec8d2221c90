/* draw.c - the drawing primitives. */
#include "draw.h"

#include "display.h"
#include "util.h"

#include <curses.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void draw_put(int y, int x, int w, const char *text, ui_role role)
{
    if (w <= 0 || y < 0 || x < 0 || y >= LINES || x >= COLS)
        return;
    if (x + w > COLS)
        w = COLS - x;
    int used = 0;
    const char *t = text ? text : "";
    /* control characters (C0, DEL, C1) would move the cursor or start a terminal sequence: shown
       as escapes ("\e", "\n"), never sent */
    char *clean = NULL;
    if (util_control_at(t, false) >= 0)
        t = clean = util_escape_controls(t);
    size_t n = disp_fit(t, w, &used);
    attrset(theme_attr(role));
    mvaddnstr(y, x, t, (int)n);
    for (int i = used; i < w; i++)
        addch(' ');
    attrset(A_NORMAL);
    free(clean);
}

void draw_putf(int y, int x, int w, ui_role role, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    draw_put(y, x, w, s, role);
    free(s);
}

/* The bytes of p that go on a line of `width` columns: as many as fit, cut back to the last
 * blank that fits when the text goes on (a word longer than the line is cut). */
static size_t line_fit(const char *p, int width)
{
    size_t n = disp_fit(p, width, NULL);
    if (p[n]) {
        size_t k = n;
        while (k > 0 && p[k] != ' ')
            k--;
        if (k > 0)
            n = k;
    }
    return n;
}

void draw_wrapped(int *y, int ymax, int x, int w, const char *text, ui_role role, const char *indent)
{
    const char *p = text ? text : "";
    bool first = true;
    while (*y < ymax) {
        int avail = w - (first ? 0 : (int)strlen(indent));
        if (avail < 4)
            avail = w;
        size_t n = line_fit(p, avail);
        char *line = xasprintf("%s%.*s", first ? "" : indent, (int)n, p);
        draw_put((*y)++, x, w, line, role);
        free(line);
        p += n;
        while (*p == ' ')
            p++;
        first = false;
        if (!*p)
            break;
    }
}

char **draw_wrap(const char *text, int width, size_t *n)
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
            size_t k = line_fit(q, width);
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

void draw_pad(sbuf *b, const char *text, int w)
{
    sbuf_add(b, text ? text : "");
    for (int k = disp_width(text ? text : ""); k < w; k++)
        sbuf_addc(b, ' ');
}
