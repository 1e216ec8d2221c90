/* textf.c - printf's text for the analysis' sentences, the common conversions without printf. */
#include "textf.h"

#include "humanfmt.h"
#include "i18n.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TF_MAXARGS = 16 };

typedef enum tf_kind { TF_NONE, TF_S, TF_D, TF_ZU, TF_F0, TF_F1, TF_G } tf_kind;

/* The conversion at f (just after '%'): its kind, its argument's position (0-based; -1 when not
 * positional) and its length after the '%'. TF_NONE when it is not one of ours. */
static tf_kind tf_conv(const char *f, int *pos, size_t *len)
{
    const char *s = f;
    *pos = -1;
    if (*s >= '1' && *s <= '9') {
        int n = 0;
        while (*s >= '0' && *s <= '9' && n < 1000)
            n = n * 10 + (*s++ - '0');
        if (*s != '$' || n > TF_MAXARGS)
            return TF_NONE;
        *pos = n - 1;
        s++;
    }
    tf_kind k = TF_NONE;
    if (*s == 's')
        k = TF_S, s++;
    else if (*s == 'd')
        k = TF_D, s++;
    else if (*s == 'g')
        k = TF_G, s++;
    else if (s[0] == 'z' && s[1] == 'u')
        k = TF_ZU, s += 2;
    else if (strncmp(s, ".0f", 3) == 0)
        k = TF_F0, s += 3;
    else if (strncmp(s, ".1f", 3) == 0)
        k = TF_F1, s += 3;
    *len = (size_t)(s - f);
    return k;
}

typedef union tf_val {
    const char *s;
    int d;
    size_t z;
    double f;
} tf_val;

static void add_zu(sbuf *b, size_t v)
{
    char t[24];
    size_t i = sizeof t;
    do
        t[--i] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    sbuf_addn(b, t + i, sizeof t - i);
}

/* The reader's figures differ from C's (English writes printf's figures untouched). */
static const i18n_numfmt *reader_figures(void)
{
    const i18n_numfmt *nf = i18n_numbers();
    return strcmp(nf->decimal, ".") == 0 && strcmp(nf->thousands, ",") == 0 ? NULL : nf;
}

/* The figure in b from `at` on (as printf wrote it) rewritten with the reader's decimal mark
 * and, from four digits, thousands separator; words (nan, inf) and exponents keep their digits. */
static void localise(sbuf *b, size_t at, const i18n_numfmt *nf)
{
    char fig[HUMANFMT_SIZE];
    size_t n = b->len - at;
    if (n >= sizeof fig || strpbrk(b->s + at, "eEnN"))
        return; /* an exponent or not a figure: only its mark would change, and seldom */
    memcpy(fig, b->s + at, n + 1);
    b->len = at;
    b->s[at] = '\0';
    const char *p = fig;
    if (*p == '-' || *p == '+')
        sbuf_addc(b, *p++);
    size_t digits = strspn(p, "0123456789");
    for (size_t i = 0; i < digits; i++) {
        if (i && digits >= 4 && (digits - i) % 3 == 0)
            sbuf_add(b, nf->thousands);
        sbuf_addc(b, p[i]);
    }
    p += digits;
    if (*p == '.') {
        sbuf_add(b, nf->decimal);
        p++;
    }
    sbuf_add(b, p);
}

/* Appends v in style st (one of the HF_PRINTF styles), in the reader's figures. */
static void add_figure(sbuf *b, double v, humanfmt_style st, const i18n_numfmt *nf)
{
    size_t at = b->len;
    humanfmt_add(b, v, st);
    if (nf)
        localise(b, at, nf);
}

const char *textf_figure(char *buf, size_t size, double v, humanfmt_style st)
{
    humanfmt(buf, size, v, st);
    const i18n_numfmt *nf = reader_figures();
    if (nf && size > 1) {
        sbuf b;
        sbuf_init(&b);
        sbuf_add(&b, buf);
        localise(&b, 0, nf);
        snprintf(buf, size, "%s", b.s);
        sbuf_free(&b);
    }
    return buf;
}

/* Writes with vsnprintf (a conversion that is not ours). */
static void tf_slow(sbuf *b, const char *fmt, va_list ap)
{
    char *t = xvasprintf(fmt, ap);
    sbuf_add(b, t);
    free(t);
}

void textf_addv(sbuf *b, const char *fmt, va_list ap)
{
    tf_kind kinds[TF_MAXARGS] = {TF_NONE};
    int nargs = 0, next = 0;
    bool positional = false, ok = true;
    /* the arguments' kinds, in their order */
    for (const char *f = strchr(fmt, '%'); f && ok; f = strchr(f, '%')) {
        if (f[1] == '%') {
            f += 2;
            continue;
        }
        int pos;
        size_t len;
        tf_kind k = tf_conv(f + 1, &pos, &len);
        if (k == TF_NONE || (next > 0 && (pos >= 0) != positional)) {
            ok = false; /* not ours, or positional and sequential mixed */
            break;
        }
        positional = pos >= 0;
        int at = positional ? pos : next;
        if (at >= TF_MAXARGS || (kinds[at] != TF_NONE && kinds[at] != k)) {
            ok = false;
            break;
        }
        kinds[at] = k;
        next++;
        if (at + 1 > nargs)
            nargs = at + 1;
        f += 1 + len;
    }
    for (int i = 0; ok && i < nargs; i++)
        if (kinds[i] == TF_NONE)
            ok = false; /* an argument no conversion names: its type is not known */
    if (!ok) {
        tf_slow(b, fmt, ap);
        return;
    }
    tf_val v[TF_MAXARGS];
    for (int i = 0; i < nargs; i++) {
        switch (kinds[i]) {
        case TF_S:
            v[i].s = va_arg(ap, const char *);
            break;
        case TF_D:
            v[i].d = va_arg(ap, int);
            break;
        case TF_ZU:
            v[i].z = va_arg(ap, size_t);
            break;
        default:
            v[i].f = va_arg(ap, double);
            break;
        }
    }
    const i18n_numfmt *nf = reader_figures();
    next = 0;
    for (const char *f = fmt; *f;) {
        const char *pc = strchr(f, '%');
        if (!pc) {
            sbuf_add(b, f);
            break;
        }
        sbuf_addn(b, f, (size_t)(pc - f));
        if (pc[1] == '%') {
            sbuf_addc(b, '%');
            f = pc + 2;
            continue;
        }
        int pos;
        size_t len;
        tf_kind k = tf_conv(pc + 1, &pos, &len);
        const tf_val *a = &v[pos >= 0 ? pos : next];
        next++;
        switch (k) {
        case TF_S:
            sbuf_add(b, a->s ? a->s : "(null)");
            break;
        case TF_D: /* an int is exact as a double: %.0f of it is its %d */
            add_figure(b, (double)a->d, HF_PRINTF_F0, nf);
            break;
        case TF_ZU: {
            size_t at = b->len;
            add_zu(b, a->z);
            if (nf)
                localise(b, at, nf);
            break;
        }
        case TF_F0:
            add_figure(b, a->f, HF_PRINTF_F0, nf);
            break;
        case TF_F1:
            add_figure(b, a->f, HF_PRINTF_F1, nf);
            break;
        default:
            add_figure(b, a->f, HF_PRINTF_G, nf);
            break;
        }
        f = pc + 1 + len;
    }
}

void textf_add(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    textf_addv(b, fmt, ap);
    va_end(ap);
}

/* The text in an inline buffer, then on the heap (a == NULL) or in arena a. */
static char *textf_into(arena *a, const char *fmt, va_list ap)
{
    char inl[320];
    sbuf b;
    sbuf_init_in(&b, inl, sizeof inl);
    textf_addv(&b, fmt, ap);
    return a ? sbuf_to_arena(&b, a) : sbuf_steal(&b);
}

char *textf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *t = textf_into(NULL, fmt, ap);
    va_end(ap);
    return t;
}

char *textf_arena(arena *a, const char *fmt, va_list ap) { return textf_into(a, fmt, ap); }
