/* display.c - UTF-8 display widths, cells and word wrapping. */
#include "display.h"
#include "i18n.h"

#include <stdlib.h>
#include <string.h>
#include <wchar.h>

/* One character of s: its length in bytes, and its columns in *width. Linear in the text: an
 * ASCII byte needs no conversion, and a UTF-8 character is at most 4 bytes (a NUL within them
 * ends it as invalid, so nothing past the text is read). */
static size_t next_char(const char *s, wchar_t *wc, int *width)
{
    if ((unsigned char)*s < 0x80) {
        *wc = (wchar_t)*s;
        *width = 1; /* printable ASCII is one column; a control shows as one too */
        return 1;
    }
    i18n_utf8(); /* the locale, loaded at the first character that needs it */
    mbstate_t st;
    memset(&st, 0, sizeof st);
    size_t n = mbrtowc(wc, s, 4, &st);
    if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
        *width = 1;
        return 1;
    }
    int w = wcwidth(*wc);
    *width = w < 0 ? 1 : w;
    return n;
}

int disp_width(const char *s)
{
    int total = 0;
    /* the ASCII fast path: one column a byte, no call */
    while (s && *s && (unsigned char)*s < 0x80) {
        s++;
        total++;
    }
    while (s && *s) {
        wchar_t wc;
        int w;
        s += next_char(s, &wc, &w);
        total += w;
    }
    return total;
}

size_t disp_fit(const char *s, int cols, int *used)
{
    size_t off = 0;
    int total = 0;
    while (s && s[off] && (unsigned char)s[off] < 0x80 && total < cols) { /* the ASCII fast path */
        off++;
        total++;
    }
    while (s && s[off]) {
        wchar_t wc;
        int w;
        size_t n = next_char(s + off, &wc, &w);
        if (total + w > cols)
            break;
        total += w;
        off += n;
    }
    if (used)
        *used = total;
    return off;
}

char *disp_short(const char *s, int cols)
{
    s = s ? s : "";
    size_t cut = disp_fit(s, cols, NULL);
    return xasprintf("%.*s%s", (int)cut, s, s[cut] ? "…" : "");
}

static void add_spaces(sbuf *b, int n)
{
    for (int i = 0; i < n; i++)
        sbuf_addc(b, ' ');
}

void disp_cell(sbuf *b, const char *s, int w, unsigned flags)
{
    if (!s)
        s = "";
    int width = disp_width(s);
    if (width > w) {
        bool mark = (flags & DISP_MARK_CUT) && w > 0;
        int used = 0;
        sbuf_addn(b, s, disp_fit(s, mark ? w - 1 : w, &used));
        if (mark) {
            sbuf_add(b, "\xe2\x80\xa6"); /* … */
            used++;
        }
        add_spaces(b, w - used);
        return;
    }
    if (flags & DISP_RIGHT)
        add_spaces(b, w - width);
    sbuf_add(b, s);
    if (!(flags & DISP_RIGHT))
        add_spaces(b, w - width);
}

void disp_wrap(sbuf *b, const char *text, size_t len, int col, int width, int hang)
{
    const char *w = text ? text : "", *end = w + (text ? len : 0);
    bool first_word = true;
    for (;;) {
        while (w < end && *w == ' ')
            w++;
        if (w == end)
            break;
        const char *e = w;
        while (e < end && *e != ' ')
            e++;
        char *word = xstrndup(w, (size_t)(e - w));
        int ww = disp_width(word);
        if (!first_word && col + 1 + ww > width) {
            sbuf_addc(b, '\n');
            add_spaces(b, hang);
            col = hang;
        } else if (!first_word) {
            sbuf_addc(b, ' ');
            col++;
        }
        sbuf_add(b, word);
        col += ww;
        free(word);
        first_word = false;
        w = e;
    }
}
