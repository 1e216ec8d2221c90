/* humanfmt.h - numbers for people: every way keyplan writes a figure, in one place.
 *
 * Each way is a named style. Where two places write the same kind of figure differently today
 * both styles are here, side by side, so that the outputs stay as they are until someone
 * chooses one; the differences are said at each style. Every style takes any double (NaN,
 * +-inf, +-0, 1e308, denormals) and says what it writes for the ones that are not figures.
 *
 * Examples are what the style writes for the value shown. */
#ifndef KP_HUMANFMT_H
#define KP_HUMANFMT_H

#include "util.h"

#include <stddef.h>

typedef enum humanfmt_style {
    /* -- plain figures: thousands separated by ',', fewer decimals as they grow -- */
    HF_NUM_SCREEN,   /* the workbench: 1,234  12.5  0.25  0.0012 (decimals 1 from 10, 2 from
                        0.01, else 4; trailing zeros cut); NaN "-", +-inf "inf" */
    HF_NUM_REPORT,   /* check's text report: 1,234  12.5  2.50  0.250 (decimals 0 from 100, 1 from
                        10, 2 from 1, else 3; 0 for 0; zeros kept; no "-" on what rounds to 0);
                        non-finite "-" */
    HF_NUM_DOC,      /* the Markdown record: 1,234  12  12.5  2.50  0.00123 (whole numbers without
                        decimals, 1 from 10, 2 from 0.01, else 3 significant); NaN "—", +-inf "∞" */
    HF_NUM_DIFF,     /* the diff: HF_NUM_DOC's figures; NaN "not given", inf "inf" and "-inf" */
    HF_NUM_OBSERVED, /* observations listed: whole numbers under 1e15 as %.0f, else %.4g; NaN "?" */
    /* -- compact figures for narrow columns (k M G T...), else the plain style -- */
    HF_SHORT_SCREEN, /* 123k from 100,000 (%.3g of the scaled value), 17.6M 2.4G 1.5T, else
                        HF_NUM_SCREEN; NaN "-" */
    HF_SHORT_REPORT, /* 12.3k from 10,000, 9.28M 2.4G 1.5T 1.2P, 1.00e+18 from 1e18, else
                        HF_NUM_REPORT; non-finite "-" */
    /* -- money (humanfmt_money gives the currency; other calls take USD) -- */
    HF_MONEY_SCREEN, /* $1,234.56  €12.00 (USD, EUR), else 1,234.56 GBP; NaN "-" */
    HF_MONEY_REPORT, /* 12.34; HF_NUM_REPORT from 10,000, HF_SHORT_REPORT from 1e7; no currency;
                        non-finite as printf's %.2f ("nan", "inf") */
    HF_MONEY_DOC,    /* 1,234.56 USD; NaN "—" */
    /* -- shares (0..1) as percentages -- */
    HF_PCT_REPORT, /* 42 %, 4.2 % under 10 %; non-finite "-" */
    HF_PCT_DOC,    /* 42.0 %, 0.012 % under 0.1 % (2 significant); NaN "—" */
    /* -- durations in milliseconds -- */
    HF_MS_SCREEN, /* the workbench, with its unit: 0 ms, 0.4 ms, 20 ms, 1.5 s, 51 s, 5.0 min,
                     12 min (whole numbers from 1 ms, 10 s and 10 min); NaN "-", +-inf "inf min" */
    HF_MS_REPORT, /* 4.0ms 20ms 1.0s 16.0min; non-finite "-" */
    HF_MS_TOUR,   /* 20 ms, 1.5 s, 16 min (3 significant); non-finite "-" */
    /* -- rates in requests per second -- */
    HF_RATE_DOC,  /* HF_NUM_DOC, and under 0.01/s per hour or per day: 2/hour 1/day */
    HF_RATE_TOUR, /* 400/s (%g), under 0.01/s per day: 1/day (3 significant); non-finite "-" */
    /* -- the tour's figures: printf's decimals, the whole part's thousands grouped -- */
    HF_FIX0_TOUR, /* %.0f grouped: 1,244  90,000  -0; non-finite as printf ("nan", "inf") */
    HF_FIX1_TOUR, /* %.1f grouped: 2.1  41,200.0 */
    HF_FIX2_TOUR, /* %.2f grouped: 0.93  1,234.50 */
    HF_G6_TOUR,   /* %.6g, the whole part grouped: 90,000  599.372  1e+06 (exponents as printf) */
    /* -- exactly printf's, without printf for the common values: the texts of the model's
          warnings and findings, rebuilt on every keystroke -- */
    HF_PRINTF_F0, /* %.0f (round half to even): 12  -0  nan */
    HF_PRINTF_F1, /* %.1f: 12.5 */
    HF_PRINTF_G,  /* %g: 0.5  1e+06 */
    HF_STYLE__COUNT
} humanfmt_style;

/* Room that every style but money needs for any double (money needs the currency's length more). */
#define HUMANFMT_SIZE 512

/* Writes v in style st into buf (size bytes, >= 1), cut to fit as snprintf would, and returns
 * buf. Never fails. */
const char *humanfmt(char *buf, size_t size, double v, humanfmt_style st);
/* The same for the money styles, with the currency (NULL: USD). */
const char *humanfmt_money(char *buf, size_t size, double v, const char *currency, humanfmt_style st);
/* Appends v in style st to b (never cut). */
void humanfmt_add(sbuf *b, double v, humanfmt_style st);
void humanfmt_add_money(sbuf *b, double v, const char *currency, humanfmt_style st);

#endif
