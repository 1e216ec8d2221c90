/* display.c - UTF-8 display widths. */
#include "display.h"

#include <stdlib.h>
#include <string.h>
#include <wchar.h>

static size_t next_char(const char *s, wchar_t *wc, int *width)
{
    mbstate_t st;
    memset(&st, 0, sizeof st);
    size_t n = mbrtowc(wc, s, strlen(s), &st);
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
