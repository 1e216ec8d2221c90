/* wbfmt.c - the workbench's figure formatters. */
#include "wbfmt.h"

#include "util.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *group_digits(const char *digits)
{
    size_t n = strlen(digits);
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, "");
    for (size_t i = 0; i < n; i++) {
        if (i && (n - i) % 3 == 0)
            sbuf_addc(&b, ',');
        sbuf_addc(&b, digits[i]);
    }
    return sbuf_steal(&b);
}

static void strip_zeros(char *s)
{
    if (!strchr(s, '.'))
        return;
    size_t n = strlen(s);
    while (n && s[n - 1] == '0')
        s[--n] = '\0';
    if (n && s[n - 1] == '.')
        s[n - 1] = '\0';
}

char *wb_fmt_num(double v)
{
    if (isnan(v))
        return xstrdup("-");
    if (isinf(v))
        return xstrdup("inf");
    bool neg = v < 0;
    double a = fabs(v);
    char buf[64];
    if (a >= 1000) {
        snprintf(buf, sizeof buf, "%.0f", a);
        char *g = group_digits(buf);
        char *r = xasprintf("%s%s", neg ? "-" : "", g);
        free(g);
        return r;
    }
    snprintf(buf, sizeof buf, a >= 10 ? "%.1f" : a >= 0.01 || a == 0 ? "%.2f" : "%.4f", a);
    strip_zeros(buf);
    return xasprintf("%s%s", neg ? "-" : "", buf);
}

char *wb_fmt_short(double v)
{
    if (isnan(v))
        return xstrdup("-");
    double a = fabs(v);
    const char *sign = v < 0 ? "-" : "";
    if (a >= 1e12)
        return xasprintf("%s%.3gT", sign, a / 1e12);
    if (a >= 1e9)
        return xasprintf("%s%.3gG", sign, a / 1e9);
    if (a >= 1e6)
        return xasprintf("%s%.3gM", sign, a / 1e6);
    if (a >= 1e5)
        return xasprintf("%s%.3gk", sign, a / 1e3);
    return wb_fmt_num(v);
}

char *wb_fmt_ms(double ms)
{
    if (isnan(ms))
        return xstrdup("-");
    if (ms >= 10000)
        return xasprintf("%.0fs", ms / 1000);
    return xasprintf("%.0f", ms);
}

char *wb_fmt_money(double v, const char *currency)
{
    if (isnan(v))
        return xstrdup("-");
    const char *sym = !currency || strcmp(currency, "USD") == 0 ? "$" : strcmp(currency, "EUR") == 0 ? "€" : NULL;
    char buf[64];
    snprintf(buf, sizeof buf, "%.2f", fabs(v));
    char *dot = strchr(buf, '.');
    char *ip = xstrndup(buf, (size_t)(dot - buf));
    char *g = group_digits(ip);
    char *r = sym ? xasprintf("%s%s%s%s", v < 0 ? "-" : "", sym, g, dot)
                  : xasprintf("%s%s%s %s", v < 0 ? "-" : "", g, dot, currency);
    free(ip);
    free(g);
    return r;
}
