/* humanfmt.c - numbers for people (see humanfmt.h). Every style appends to an sbuf; the
 * buffer calls start that sbuf in the caller's buffer, so the common figures cost no malloc. */
#include "humanfmt.h"
#include "i18n.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- pieces ------------------------------------------------------------------------------- */

/* printf into b; one conversion of a double with few decimals always fits the stack buffer. */
static void addf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void addf(sbuf *b, const char *fmt, ...)
{
    char tmp[400];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < sizeof tmp) {
        sbuf_addn(b, tmp, (size_t)n);
        return;
    }
    va_start(ap, fmt);
    char *t = xvasprintf(fmt, ap);
    va_end(ap);
    sbuf_add(b, t);
    free(t);
}

/* digits[0..n) with a ',' before every group of three from the right. */
static void add_grouped(sbuf *b, const char *digits, size_t n)
{
    size_t first = n % 3 ? n % 3 : 3;
    if (first > n)
        first = n;
    sbuf_addn(b, digits, first);
    for (size_t i = first; i < n; i += 3) {
        sbuf_addc(b, ',');
        sbuf_addn(b, digits + i, 3);
    }
}

/* The whole part of %.Nf of a (>= 0, or inf) grouped, then its decimals as they are. */
static void add_grouped_fixed(sbuf *b, double a, int decimals)
{
    char raw[400];
    snprintf(raw, sizeof raw, "%.*f", decimals, a);
    char *dot = strchr(raw, '.');
    size_t n = dot ? (size_t)(dot - raw) : strlen(raw);
    add_grouped(b, raw, n);
    sbuf_add(b, raw + n);
}

/* Writes the decimal digits of u (and a '-' first when neg) into out; returns the length. */
static size_t put_int(char *out, unsigned long long u, bool neg)
{
    char tmp[24];
    size_t k = 0, j = 0;
    do {
        tmp[k++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (neg)
        out[j++] = '-';
    while (k)
        out[j++] = tmp[--k];
    out[j] = '\0';
    return j;
}

/* ---- printf-exact ------------------------------------------------------------------------- */

/* %.0f: integers below 1e15 without printf. */
static void add_f0(sbuf *b, double v)
{
    double r = nearbyint(v);
    if (!isfinite(v) || !(fabs(r) < 1e15) || (r == 0 && signbit(v))) {
        addf(b, "%.0f", v);
        return;
    }
    long long n = (long long)r;
    char out[32];
    size_t len = put_int(out, n < 0 ? (unsigned long long)(-n) : (unsigned long long)n, n < 0);
    sbuf_addn(b, out, len);
}

/* %.1f: v x 10 is rounded to an integer unless it lies near a half (where the product's own
 * rounding could matter): those, negatives (-0 included) and large values go to printf. */
static void add_f1(sbuf *b, double v)
{
    double t = v * 10, fl = floor(t);
    if (!isfinite(v) || !(fabs(t) < 1e9) || fabs(t - fl - 0.5) < 1e-6 || signbit(v)) {
        addf(b, "%.1f", v);
        return;
    }
    double r = nearbyint(t), whole = floor(r / 10);
    char out[32];
    size_t len = put_int(out, (unsigned long long)whole, false);
    out[len++] = '.';
    out[len++] = (char)('0' + (int)(r - 10 * whole));
    sbuf_addn(b, out, len);
}

/* %g: integers below 1e6 without printf. */
static void add_g(sbuf *b, double v)
{
    if (v == floor(v) && fabs(v) < 1e6 && !(v == 0 && signbit(v))) {
        long long n = (long long)v;
        char out[32];
        size_t len = put_int(out, n < 0 ? (unsigned long long)(-n) : (unsigned long long)n, n < 0);
        sbuf_addn(b, out, len);
        return;
    }
    addf(b, "%g", v);
}

/* ---- plain figures ------------------------------------------------------------------------ */

static void num_screen(sbuf *b, double v)
{
    if (isnan(v)) {
        sbuf_add(b, "-");
        return;
    }
    if (isinf(v)) {
        sbuf_add(b, "inf");
        return;
    }
    double a = fabs(v);
    if (v < 0)
        sbuf_addc(b, '-');
    if (a >= 1000) {
        add_grouped_fixed(b, a, 0);
        return;
    }
    char buf[64];
    snprintf(buf, sizeof buf, a >= 10 ? "%.1f" : a >= 0.01 || a == 0 ? "%.2f" : "%.4f", a);
    size_t n = strlen(buf); /* trailing zeros cut, and then a trailing '.' */
    while (n && buf[n - 1] == '0')
        n--;
    if (n && buf[n - 1] == '.')
        n--;
    sbuf_addn(b, buf, n);
}

static void num_report(sbuf *b, double x)
{
    if (!isfinite(x)) {
        sbuf_add(b, "-");
        return;
    }
    double ax = fabs(x);
    int dec = ax >= 100 ? 0 : ax >= 10 ? 1 : ax >= 1 ? 2 : ax == 0 ? 0 : 3;
    if (x < 0 && ax >= 0.0005)
        sbuf_addc(b, '-');
    add_grouped_fixed(b, ax, dec);
}

/* HF_NUM_DOC and HF_NUM_DIFF once the value is finite. */
static void num_doc_finite(sbuf *b, double v)
{
    double a = fabs(v);
    if (a >= 1000) {
        if (v < 0)
            sbuf_addc(b, '-');
        add_grouped_fixed(b, a, 0);
    } else if (a == floor(a)) {
        addf(b, "%.0f", v);
    } else if (a >= 10) {
        addf(b, "%.1f", v);
    } else if (a >= 0.01) {
        addf(b, "%.2f", v);
    } else {
        addf(b, "%.3g", v);
    }
}

static void num_doc(sbuf *b, double v)
{
    if (isnan(v))
        sbuf_add(b, "—");
    else if (isinf(v))
        sbuf_add(b, "∞");
    else
        num_doc_finite(b, v);
}

static void num_diff(sbuf *b, double v)
{
    if (isnan(v))
        sbuf_add(b, "not given");
    else if (isinf(v))
        sbuf_add(b, v > 0 ? "inf" : "-inf");
    else
        num_doc_finite(b, v);
}

static void num_observed(sbuf *b, double v)
{
    if (isnan(v))
        sbuf_add(b, "?");
    else if (v == floor(v) && fabs(v) < 1e15)
        addf(b, "%.0f", v);
    else
        addf(b, "%.4g", v);
}

/* ---- compact figures ---------------------------------------------------------------------- */

static void short_screen(sbuf *b, double v)
{
    if (isnan(v)) {
        sbuf_add(b, "-");
        return;
    }
    static const struct {
        double from;
        const char *unit;
    } scale[] = {{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e5, "k"}};
    double a = fabs(v);
    for (size_t i = 0; i < sizeof scale / sizeof *scale; i++)
        if (a >= scale[i].from) {
            addf(b, "%s%.3g%s", v < 0 ? "-" : "", a / (scale[i].unit[0] == 'k' ? 1e3 : scale[i].from),
                 scale[i].unit);
            return;
        }
    num_screen(b, v);
}

static void short_report(sbuf *b, double x)
{
    if (!isfinite(x)) {
        sbuf_add(b, "-");
        return;
    }
    static const struct {
        double from, div;
        const char *unit;
    } scale[] = {{1e15, 1e15, "P"}, {1e12, 1e12, "T"}, {1e9, 1e9, "G"}, {1e6, 1e6, "M"}, {1e4, 1e3, "k"}};
    double ax = fabs(x);
    if (ax >= 1e18) {
        addf(b, "%.2e", x);
        return;
    }
    for (size_t i = 0; i < sizeof scale / sizeof *scale; i++)
        if (ax >= scale[i].from) {
            addf(b, "%.3g%s", x / scale[i].div, scale[i].unit);
            return;
        }
    num_report(b, x);
}

/* ---- money -------------------------------------------------------------------------------- */

static void money_screen(sbuf *b, double v, const char *currency)
{
    if (isnan(v)) {
        sbuf_add(b, "-");
        return;
    }
    const char *sym = !currency || strcmp(currency, "USD") == 0 ? "$"
                      : strcmp(currency, "EUR") == 0            ? "€"
                                                                : NULL;
    bool after = i18n_numbers()->symbol_after;
    if (v < 0)
        sbuf_addc(b, '-');
    if (sym && !after)
        sbuf_add(b, sym);
    add_grouped_fixed(b, fabs(v), 2);
    if (sym && after) {
        sbuf_addc(b, ' ');
        sbuf_add(b, sym);
    } else if (!sym) {
        sbuf_addc(b, ' ');
        sbuf_add(b, currency);
    }
}

static void money_report(sbuf *b, double x)
{
    if (isfinite(x) && fabs(x) >= 1e7)
        short_report(b, x);
    else if (isfinite(x) && fabs(x) >= 1e4)
        num_report(b, x);
    else
        addf(b, "%.2f", x);
}

static void money_doc(sbuf *b, double v, const char *currency)
{
    if (isnan(v)) {
        sbuf_add(b, "—");
        return;
    }
    if (v < 0)
        sbuf_addc(b, '-');
    add_grouped_fixed(b, fabs(v), 2);
    sbuf_addc(b, ' ');
    sbuf_add(b, currency ? currency : "USD");
}

/* ---- shares, durations, rates ------------------------------------------------------------- */

static void pct_report(sbuf *b, double x)
{
    if (!isfinite(x))
        sbuf_add(b, "-");
    else if (x * 100 < 10 && x > 0)
        addf(b, "%.1f %%", x * 100);
    else
        addf(b, "%.0f %%", x * 100);
}

static void pct_doc(sbuf *b, double v)
{
    if (isnan(v))
        sbuf_add(b, "—");
    else if (v * 100 < 0.1 && v > 0)
        addf(b, "%.2g %%", v * 100);
    else
        addf(b, "%.1f %%", v * 100);
}

/* A figure in the unit of the first rung it reaches (v >= from): printf's `fmt` of v / div. The
 * last rung's `from` is -INFINITY: every value but NaN reaches one. */
typedef struct rung {
    double from, div;
    const char *fmt;
} rung;

static void add_rung(sbuf *b, double v, const rung *r)
{
    while (!(v >= r->from))
        r++;
    addf(b, r->fmt, v / r->div);
}

static const rung ms_screen_rungs[] = {{599500, 60000, "%.0f min"}, {59950, 60000, "%.1f min"},
                                       {9950, 1000, "%.0f s"},      {999.5, 1000, "%.1f s"},
                                       {0.95, 1, "%.0f ms"},        {-INFINITY, 1, "%.1f ms"}};
static const rung ms_report_rungs[] = {
    {60000, 60000, "%.1fmin"}, {1000, 1000, "%.1fs"}, {10, 1, "%.0fms"}, {-INFINITY, 1, "%.1fms"}};
static const rung ms_tour_rungs[] = {
    {60000, 60000, "%.3g min"}, {1000, 1000, "%.3g s"}, {-INFINITY, 1, "%.3g ms"}};

static void ms_screen(sbuf *b, double ms)
{
    if (isnan(ms))
        sbuf_add(b, "-");
    else if (ms == 0 && !signbit(ms))
        sbuf_add(b, "0 ms");
    else
        add_rung(b, ms, ms_screen_rungs);
}

/* ms_report and ms_tour: "-" for what is not finite. */
static void ms_finite(sbuf *b, double ms, const rung *rungs)
{
    if (!isfinite(ms))
        sbuf_add(b, "-");
    else
        add_rung(b, ms, rungs);
}

static void rate_doc(sbuf *b, double v)
{
    if (!isnan(v) && v > 0 && v < 0.01) {
        bool hourly = v * 3600 >= 1;
        double x = v * (hourly ? 3600 : 86400);
        if (fabs(x - round(x)) < 0.005 * x)
            x = round(x);
        num_doc(b, x);
        /* TRANSLATORS: after a rate's figure: requests an hour, a day */
        sbuf_add(b, hourly ? P_("rate", "/hour") : P_("rate", "/day"));
        return;
    }
    num_doc(b, v);
}

static void rate_tour(sbuf *b, double r)
{
    if (!isfinite(r))
        sbuf_add(b, "-");
    else if (r > 0 && r < 0.01) {
        addf(b, "%.3g", r * 86400);
        sbuf_add(b, P_("rate", "/day"));
    } else
        addf(b, "%g/s", r);
}

/* ---- the tour's figures ------------------------------------------------------------------ */

/* %.Nf with the whole part grouped; non-finite values as printf writes them. */
static void fix_tour(sbuf *b, double v, int decimals)
{
    if (!isfinite(v)) {
        addf(b, "%.*f", decimals, v);
        return;
    }
    if (signbit(v)) {
        sbuf_addc(b, '-');
        v = -v;
    }
    add_grouped_fixed(b, v, decimals);
}

/* %.6g with the whole part grouped when printf writes no exponent. */
static void g6_tour(sbuf *b, double v)
{
    char raw[64];
    snprintf(raw, sizeof raw, "%.6g", v);
    const char *s = raw;
    if (!isfinite(v) || strchr(raw, 'e')) {
        sbuf_add(b, raw);
        return;
    }
    if (*s == '-')
        sbuf_addc(b, *s++);
    const char *dot = strchr(s, '.');
    size_t n = dot ? (size_t)(dot - s) : strlen(s);
    add_grouped(b, s, n);
    sbuf_add(b, s + n);
}

/* ---- the calls ---------------------------------------------------------------------------- */

/* b's text from `from` on in the reader's figures: a '.' or ',' between two digits becomes the
 * locale's decimal mark or thousands separator. */
static void localize(sbuf *b, size_t from)
{
    const i18n_numfmt *f = i18n_numbers();
    if (strcmp(f->decimal, ".") == 0 && strcmp(f->thousands, ",") == 0)
        return;
    size_t n = b->len - from;
    if (!n || !strpbrk(b->s + from, ".,"))
        return; /* nothing to change: the common figure under 1,000 */
    char small[HUMANFMT_SIZE];
    char *text = n < sizeof small ? small : xmalloc(n + 1); /* no malloc per figure on a redraw */
    memcpy(text, b->s + from, n);
    text[n] = '\0';
    b->len = from;
    b->s[from] = '\0';
    for (size_t i = 0; i < n; i++) {
        char c = text[i];
        bool between = (c == '.' || c == ',') && i > 0 && i + 1 < n && text[i - 1] >= '0' &&
                       text[i - 1] <= '9' && text[i + 1] >= '0' && text[i + 1] <= '9';
        if (between)
            sbuf_add(b, c == '.' ? f->decimal : f->thousands);
        else
            sbuf_addc(b, c);
    }
    if (text != small)
        free(text);
}

static void format_c(sbuf *b, double v, const char *currency, humanfmt_style st);

/* The printf-exact styles are the model's own texts' figures and stay as printf writes them. */
static void format(sbuf *b, double v, const char *currency, humanfmt_style st)
{
    size_t from = b->len;
    format_c(b, v, currency, st);
    if (st != HF_PRINTF_F0 && st != HF_PRINTF_F1 && st != HF_PRINTF_G)
        localize(b, from);
}

static void format_c(sbuf *b, double v, const char *currency, humanfmt_style st)
{
    switch (st) {
    case HF_NUM_SCREEN:
        num_screen(b, v);
        break;
    case HF_NUM_REPORT:
        num_report(b, v);
        break;
    case HF_NUM_DOC:
        num_doc(b, v);
        break;
    case HF_NUM_DIFF:
        num_diff(b, v);
        break;
    case HF_NUM_OBSERVED:
        num_observed(b, v);
        break;
    case HF_SHORT_SCREEN:
        short_screen(b, v);
        break;
    case HF_SHORT_REPORT:
        short_report(b, v);
        break;
    case HF_MONEY_SCREEN:
        money_screen(b, v, currency);
        break;
    case HF_MONEY_REPORT:
        money_report(b, v);
        break;
    case HF_MONEY_DOC:
        money_doc(b, v, currency);
        break;
    case HF_PCT_REPORT:
        pct_report(b, v);
        break;
    case HF_PCT_DOC:
        pct_doc(b, v);
        break;
    case HF_MS_SCREEN:
        ms_screen(b, v);
        break;
    case HF_MS_REPORT:
        ms_finite(b, v, ms_report_rungs);
        break;
    case HF_MS_TOUR:
        ms_finite(b, v, ms_tour_rungs);
        break;
    case HF_RATE_DOC:
        rate_doc(b, v);
        break;
    case HF_RATE_TOUR:
        rate_tour(b, v);
        break;
    case HF_FIX0_TOUR:
        fix_tour(b, v, 0);
        break;
    case HF_FIX1_TOUR:
        fix_tour(b, v, 1);
        break;
    case HF_FIX2_TOUR:
        fix_tour(b, v, 2);
        break;
    case HF_G6_TOUR:
        g6_tour(b, v);
        break;
    case HF_PRINTF_F0:
        add_f0(b, v);
        break;
    case HF_PRINTF_F1:
        add_f1(b, v);
        break;
    case HF_PRINTF_G:
        add_g(b, v);
        break;
    case HF_STYLE__COUNT:
        break;
    }
}

void humanfmt_add_money(sbuf *b, double v, const char *currency, humanfmt_style st)
{
    format(b, v, currency, st);
}

void humanfmt_add(sbuf *b, double v, humanfmt_style st) { format(b, v, NULL, st); }

const char *humanfmt_money(char *buf, size_t size, double v, const char *currency, humanfmt_style st)
{
    sbuf b;
    sbuf_init_in(&b, buf, size);
    format(&b, v, currency, st);
    if (b.s != buf) { /* outgrew buf: cut to fit */
        size_t n = b.len < size - 1 ? b.len : size - 1;
        memcpy(buf, b.s, n);
        buf[n] = '\0';
        sbuf_free(&b);
    }
    return buf;
}

const char *humanfmt(char *buf, size_t size, double v, humanfmt_style st)
{
    return humanfmt_money(buf, size, v, NULL, st);
}
