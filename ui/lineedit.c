/* lineedit.c - the inline cell editor. */
#include "lineedit.h"

#include "util.h"
#include "display.h"

#include <stdlib.h>
#include <string.h>

static bool is_cont(unsigned char c) { return (c & 0xC0) == 0x80; }

static size_t prev_char(const lineedit *e, size_t at)
{
    if (at == 0)
        return 0;
    at--;
    while (at > 0 && is_cont((unsigned char)e->buf[at]))
        at--;
    return at;
}

static size_t next_char(const lineedit *e, size_t at)
{
    if (at >= e->len)
        return e->len;
    at++;
    while (at < e->len && is_cont((unsigned char)e->buf[at]))
        at++;
    return at;
}

static void reserve(lineedit *e, size_t need)
{
    if (need + 1 > e->cap) {
        size_t c = e->cap ? e->cap : 32;
        while (c < need + 1)
            c *= 2;
        e->buf = xrealloc(e->buf, c);
        e->cap = c;
    }
}

void le_init(lineedit *e, const char *text)
{
    memset(e, 0, sizeof *e);
    le_set(e, text);
}

void le_free(lineedit *e)
{
    free(e->buf);
    memset(e, 0, sizeof *e);
}

void le_set(lineedit *e, const char *text)
{
    size_t n = text ? strlen(text) : 0;
    reserve(e, n);
    if (n)
        memcpy(e->buf, text, n);
    e->buf[n] = '\0';
    e->len = e->cur = n;
}

static void remove_range(lineedit *e, size_t from, size_t to)
{
    if (to <= from)
        return;
    memmove(e->buf + from, e->buf + to, e->len - to + 1);
    e->len -= to - from;
    if (e->cur > to)
        e->cur -= to - from;
    else if (e->cur > from)
        e->cur = from;
}

void le_insert_text(lineedit *e, const char *s)
{
    size_t n = strlen(s);
    reserve(e, e->len + n);
    memmove(e->buf + e->cur + n, e->buf + e->cur, e->len - e->cur + 1);
    memcpy(e->buf + e->cur, s, n);
    e->len += n;
    e->cur += n;
}

bool le_insert(lineedit *e, unsigned cp)
{
    char u[5] = {0};
    if (cp < 0x20 || cp == 0x7f || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return false;
    if (cp < 0x80) {
        u[0] = (char)cp;
    } else if (cp < 0x800) {
        u[0] = (char)(0xC0 | (cp >> 6));
        u[1] = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        u[0] = (char)(0xE0 | (cp >> 12));
        u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[2] = (char)(0x80 | (cp & 0x3F));
    } else {
        u[0] = (char)(0xF0 | (cp >> 18));
        u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[3] = (char)(0x80 | (cp & 0x3F));
    }
    le_insert_text(e, u);
    return true;
}

static bool is_word(char c) { return c != ' ' && c != ',' && c != '#' && c != ';' && c != '{' && c != '}'; }

static size_t word_left(const lineedit *e, size_t at)
{
    while (at > 0 && !is_word(e->buf[at - 1]))
        at--;
    while (at > 0 && is_word(e->buf[at - 1]))
        at--;
    return at;
}

static size_t word_right(const lineedit *e, size_t at)
{
    while (at < e->len && !is_word(e->buf[at]))
        at++;
    while (at < e->len && is_word(e->buf[at]))
        at++;
    return at;
}

bool le_key_apply(lineedit *e, le_key k)
{
    size_t before = e->cur, blen = e->len;
    switch (k) {
    case LE_LEFT:
        e->cur = prev_char(e, e->cur);
        break;
    case LE_RIGHT:
        e->cur = next_char(e, e->cur);
        break;
    case LE_HOME:
        e->cur = 0;
        break;
    case LE_END:
        e->cur = e->len;
        break;
    case LE_WORD_LEFT:
        e->cur = word_left(e, e->cur);
        break;
    case LE_WORD_RIGHT:
        e->cur = word_right(e, e->cur);
        break;
    case LE_BACKSPACE:
        remove_range(e, prev_char(e, e->cur), e->cur);
        break;
    case LE_DELETE:
        remove_range(e, e->cur, next_char(e, e->cur));
        break;
    case LE_WORD_BACK:
        remove_range(e, word_left(e, e->cur), e->cur);
        break;
    case LE_KILL_START:
        remove_range(e, 0, e->cur);
        break;
    case LE_KILL_END:
        remove_range(e, e->cur, e->len);
        break;
    }
    return e->cur != before || e->len != blen;
}

void le_view(const lineedit *e, int width, size_t *start, int *cursor_col)
{
    if (width < 1)
        width = 1;
    /* columns from the start to the cursor */
    char *head = xstrndup(e->buf, e->cur);
    int w = disp_width(head);
    free(head);
    size_t s = 0;
    /* drop characters from the left until the cursor fits (keeping one column for it) */
    while (w > width - 1 && s < e->cur) {
        size_t n = s + 1;
        while (n < e->cur && is_cont((unsigned char)e->buf[n]))
            n++;
        char *c = xstrndup(e->buf + s, n - s);
        w -= disp_width(c);
        free(c);
        s = n;
    }
    *start = s;
    *cursor_col = w;
}
