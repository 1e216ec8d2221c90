/* merge_lines.c - the conflict markers of merge.h: a line diff (Myers) of ours against theirs,
 * each difference between markers, the common lines once. */
#include "merge.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The most line edits the diff looks for (its memory grows with their square); beyond, the text
 * between the common first and last lines is one difference. */
#define MARKERS_MAX_EDITS 2000

typedef struct lines {
    const char **s;
    size_t *len;
    size_t n;
} lines;

static void split_lines(const char *text, lines *l)
{
    size_t cap = 16;
    l->s = xmalloc(cap * sizeof *l->s);
    l->len = xmalloc(cap * sizeof *l->len);
    l->n = 0;
    const char *p = text ? text : "";
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) + 1 : strlen(p);
        if (l->n == cap) {
            cap *= 2;
            l->s = xrealloc(l->s, cap * sizeof *l->s);
            l->len = xrealloc(l->len, cap * sizeof *l->len);
        }
        l->s[l->n] = p;
        l->len[l->n++] = len;
        p += len;
    }
}

static bool line_eq(const lines *a, size_t i, const lines *b, size_t j)
{
    return a->len[i] == b->len[j] && memcmp(a->s[i], b->s[j], a->len[i]) == 0;
}

static void add_line(sbuf *s, const char *p, size_t len)
{
    sbuf_addn(s, p, len);
    if (!len || p[len - 1] != '\n')
        sbuf_addc(s, '\n');
}

/* Marks the lines of a and b (from line `pre` on, n and m of them) that the shortest edit script
 * keeps (Myers: v holds the furthest x on each diagonal k after d edits, trace each d's v for the
 * walk back). More than MARKERS_MAX_EDITS edits: nothing is marked (one difference). */
static void common_lines(const lines *a, const lines *b, size_t pre, size_t n, size_t m, bool *ca, bool *cb)
{
    size_t max = n + m, dmax = max < MARKERS_MAX_EDITS ? max : MARKERS_MAX_EDITS;
    ptrdiff_t off = (ptrdiff_t)max + 1;
    ptrdiff_t **trace = xcalloc(dmax + 1, sizeof *trace);
    ptrdiff_t *v = xcalloc(2 * max + 3, sizeof *v);
    ptrdiff_t dend = -1; /* the edits of the script found, -1 while none */
    for (size_t d = 0; d <= dmax && dend < 0; d++) {
        for (ptrdiff_t k = -(ptrdiff_t)d; k <= (ptrdiff_t)d; k += 2) {
            ptrdiff_t x;
            if (k == -(ptrdiff_t)d || (k != (ptrdiff_t)d && v[off + k - 1] < v[off + k + 1]))
                x = v[off + k + 1];
            else
                x = v[off + k - 1] + 1;
            ptrdiff_t y = x - k;
            while (x < (ptrdiff_t)n && y < (ptrdiff_t)m && line_eq(a, pre + (size_t)x, b, pre + (size_t)y))
                x++, y++;
            v[off + k] = x;
            if (x >= (ptrdiff_t)n && y >= (ptrdiff_t)m)
                dend = (ptrdiff_t)d;
        }
        trace[d] = xmalloc((2 * d + 1) * sizeof *v); /* v[-d..d] */
        memcpy(trace[d], v + off - (ptrdiff_t)d, (2 * d + 1) * sizeof *v);
    }
    ptrdiff_t x = (ptrdiff_t)n, y = (ptrdiff_t)m;
    for (ptrdiff_t d = dend; d > 0; d--) {
        ptrdiff_t k = x - y;
        const ptrdiff_t *pv = trace[d - 1] + (d - 1); /* pv[k] for k in -(d-1)..d-1 */
        ptrdiff_t pk = k == -d || (k != d && pv[k - 1] < pv[k + 1]) ? k + 1 : k - 1;
        ptrdiff_t px = pv[pk], py = px - pk;
        while (x > px && y > py)
            ca[--x] = true, cb[--y] = true;
        x = px;
        y = py;
    }
    if (dend >= 0) /* the snake of edit 0 */
        while (x > 0 && y > 0)
            ca[--x] = true, cb[--y] = true;
    for (size_t d = 0; d <= dmax; d++)
        free(trace[d]);
    free(trace);
    free(v);
}

char *merge_markers(const char *ours, const char *theirs, const char *ours_label, const char *theirs_label)
{
    lines a, b;
    split_lines(ours, &a);
    split_lines(theirs, &b);
    /* common first and last lines, then the diff of what is left */
    size_t pre = 0;
    while (pre < a.n && pre < b.n && line_eq(&a, pre, &b, pre))
        pre++;
    size_t suf = 0;
    while (suf < a.n - pre && suf < b.n - pre && line_eq(&a, a.n - 1 - suf, &b, b.n - 1 - suf))
        suf++;
    size_t n = a.n - pre - suf, m = b.n - pre - suf;
    bool *ca = xcalloc(n + 1, sizeof *ca), *cb = xcalloc(m + 1, sizeof *cb);
    common_lines(&a, &b, pre, n, m, ca, cb);
    sbuf s;
    sbuf_init(&s);
    for (size_t i = 0; i < pre; i++)
        sbuf_addn(&s, a.s[i], a.len[i]);
    size_t i = 0, j = 0;
    while (i < n || j < m) {
        if (i < n && j < m && ca[i] && cb[j]) {
            sbuf_addn(&s, a.s[pre + i], a.len[pre + i]);
            i++, j++;
            continue;
        }
        sbuf_printf(&s, "<<<<<<< %s\n", ours_label ? ours_label : "ours");
        while (i < n && !ca[i])
            add_line(&s, a.s[pre + i], a.len[pre + i]), i++;
        sbuf_add(&s, "=======\n");
        while (j < m && !cb[j])
            add_line(&s, b.s[pre + j], b.len[pre + j]), j++;
        sbuf_printf(&s, ">>>>>>> %s\n", theirs_label ? theirs_label : "theirs");
    }
    for (size_t k = a.n - suf; k < a.n; k++)
        sbuf_addn(&s, a.s[k], a.len[k]);
    free(ca);
    free(cb);
    free(a.s);
    free(a.len);
    free(b.s);
    free(b.len);
    return sbuf_steal(&s);
}
