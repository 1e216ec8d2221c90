/* test_humanfmt.c - numbers for people: one row per (style, value) with the exact text (the
 * styles reproduce the formatters they replace; these rows were checked against them), then
 * every style against the doubles that are not ordinary figures, cut to small buffers, and
 * through the sbuf calls. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "humanfmt.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct row {
    humanfmt_style st;
    double v;
    const char *currency; /* money styles only */
    const char *want;
} rows[] = {
    {HF_NUM_SCREEN, NAN, NULL, "-"},
    {HF_NUM_SCREEN, INFINITY, NULL, "inf"},
    {HF_NUM_SCREEN, -INFINITY, NULL, "inf"},
    {HF_NUM_SCREEN, -0.0, NULL, "0"},
    {HF_NUM_SCREEN, -0.0004, NULL, "-0.0004"},
    {HF_NUM_SCREEN, 0.0123, NULL, "0.01"},
    {HF_NUM_SCREEN, 2.5, NULL, "2.5"},
    {HF_NUM_SCREEN, 12.35, NULL, "12.3"},
    {HF_NUM_SCREEN, -98765.4321, NULL, "-98,765"},
    {HF_NUM_SCREEN, 17.6e6, NULL, "17,600,000"},
    {HF_NUM_SCREEN, 3e18, NULL, "3,000,000,000,000,000,000"},
    {HF_NUM_REPORT, NAN, NULL, "-"},
    {HF_NUM_REPORT, INFINITY, NULL, "-"},
    {HF_NUM_REPORT, -INFINITY, NULL, "-"},
    {HF_NUM_REPORT, -0.0, NULL, "0"},
    {HF_NUM_REPORT, -0.0004, NULL, "0.000"},
    {HF_NUM_REPORT, 0.0123, NULL, "0.012"},
    {HF_NUM_REPORT, 2.5, NULL, "2.50"},
    {HF_NUM_REPORT, 12.35, NULL, "12.3"},
    {HF_NUM_REPORT, -98765.4321, NULL, "-98,765"},
    {HF_NUM_REPORT, 17.6e6, NULL, "17,600,000"},
    {HF_NUM_REPORT, 3e18, NULL, "3,000,000,000,000,000,000"},
    {HF_NUM_DOC, NAN, NULL, "—"},
    {HF_NUM_DOC, INFINITY, NULL, "∞"},
    {HF_NUM_DOC, -INFINITY, NULL, "∞"},
    {HF_NUM_DOC, -0.0, NULL, "-0"},
    {HF_NUM_DOC, -0.0004, NULL, "-0.0004"},
    {HF_NUM_DOC, 0.0123, NULL, "0.01"},
    {HF_NUM_DOC, 2.5, NULL, "2.50"},
    {HF_NUM_DOC, 12.35, NULL, "12.3"},
    {HF_NUM_DOC, -98765.4321, NULL, "-98,765"},
    {HF_NUM_DOC, 17.6e6, NULL, "17,600,000"},
    {HF_NUM_DOC, 3e18, NULL, "3,000,000,000,000,000,000"},
    {HF_NUM_DIFF, NAN, NULL, "not given"},
    {HF_NUM_DIFF, INFINITY, NULL, "inf"},
    {HF_NUM_DIFF, -INFINITY, NULL, "-inf"},
    {HF_NUM_DIFF, -0.0, NULL, "-0"},
    {HF_NUM_DIFF, -0.0004, NULL, "-0.0004"},
    {HF_NUM_DIFF, 0.0123, NULL, "0.01"},
    {HF_NUM_DIFF, 2.5, NULL, "2.50"},
    {HF_NUM_DIFF, 12.35, NULL, "12.3"},
    {HF_NUM_DIFF, -98765.4321, NULL, "-98,765"},
    {HF_NUM_DIFF, 17.6e6, NULL, "17,600,000"},
    {HF_NUM_DIFF, 3e18, NULL, "3,000,000,000,000,000,000"},
    {HF_NUM_OBSERVED, NAN, NULL, "?"},
    {HF_NUM_OBSERVED, INFINITY, NULL, "inf"},
    {HF_NUM_OBSERVED, -INFINITY, NULL, "-inf"},
    {HF_NUM_OBSERVED, -0.0, NULL, "-0"},
    {HF_NUM_OBSERVED, -0.0004, NULL, "-0.0004"},
    {HF_NUM_OBSERVED, 0.0123, NULL, "0.0123"},
    {HF_NUM_OBSERVED, 2.5, NULL, "2.5"},
    {HF_NUM_OBSERVED, 12.35, NULL, "12.35"},
    {HF_NUM_OBSERVED, -98765.4321, NULL, "-9.877e+04"},
    {HF_NUM_OBSERVED, 17.6e6, NULL, "17600000"},
    {HF_NUM_OBSERVED, 3e18, NULL, "3e+18"},
    {HF_SHORT_SCREEN, NAN, NULL, "-"},
    {HF_SHORT_SCREEN, INFINITY, NULL, "infT"},
    {HF_SHORT_SCREEN, -INFINITY, NULL, "-infT"},
    {HF_SHORT_SCREEN, -0.0, NULL, "0"},
    {HF_SHORT_SCREEN, -0.0004, NULL, "-0.0004"},
    {HF_SHORT_SCREEN, 0.0123, NULL, "0.01"},
    {HF_SHORT_SCREEN, 2.5, NULL, "2.5"},
    {HF_SHORT_SCREEN, 12.35, NULL, "12.3"},
    {HF_SHORT_SCREEN, -98765.4321, NULL, "-98,765"},
    {HF_SHORT_SCREEN, 17.6e6, NULL, "17.6M"},
    {HF_SHORT_SCREEN, 3e18, NULL, "3e+06T"},
    {HF_SHORT_REPORT, NAN, NULL, "-"},
    {HF_SHORT_REPORT, INFINITY, NULL, "-"},
    {HF_SHORT_REPORT, -INFINITY, NULL, "-"},
    {HF_SHORT_REPORT, -0.0, NULL, "0"},
    {HF_SHORT_REPORT, -0.0004, NULL, "0.000"},
    {HF_SHORT_REPORT, 0.0123, NULL, "0.012"},
    {HF_SHORT_REPORT, 2.5, NULL, "2.50"},
    {HF_SHORT_REPORT, 12.35, NULL, "12.3"},
    {HF_SHORT_REPORT, -98765.4321, NULL, "-98.8k"},
    {HF_SHORT_REPORT, 17.6e6, NULL, "17.6M"},
    {HF_SHORT_REPORT, 3e18, NULL, "3.00e+18"},
    {HF_MONEY_SCREEN, NAN, NULL, "-"},
    {HF_MONEY_SCREEN, INFINITY, NULL, "$inf"},
    {HF_MONEY_SCREEN, -INFINITY, NULL, "-$inf"},
    {HF_MONEY_SCREEN, -0.0, NULL, "$0.00"},
    {HF_MONEY_SCREEN, -0.0004, NULL, "-$0.00"},
    {HF_MONEY_SCREEN, 0.0123, NULL, "$0.01"},
    {HF_MONEY_SCREEN, 2.5, NULL, "$2.50"},
    {HF_MONEY_SCREEN, 12.35, NULL, "$12.35"},
    {HF_MONEY_SCREEN, -98765.4321, NULL, "-$98,765.43"},
    {HF_MONEY_SCREEN, 17.6e6, NULL, "$17,600,000.00"},
    {HF_MONEY_SCREEN, 3e18, NULL, "$3,000,000,000,000,000,000.00"},
    {HF_MONEY_REPORT, NAN, NULL, "nan"},
    {HF_MONEY_REPORT, INFINITY, NULL, "inf"},
    {HF_MONEY_REPORT, -INFINITY, NULL, "-inf"},
    {HF_MONEY_REPORT, -0.0, NULL, "-0.00"},
    {HF_MONEY_REPORT, -0.0004, NULL, "-0.00"},
    {HF_MONEY_REPORT, 0.0123, NULL, "0.01"},
    {HF_MONEY_REPORT, 2.5, NULL, "2.50"},
    {HF_MONEY_REPORT, 12.35, NULL, "12.35"},
    {HF_MONEY_REPORT, -98765.4321, NULL, "-98,765"},
    {HF_MONEY_REPORT, 17.6e6, NULL, "17.6M"},
    {HF_MONEY_REPORT, 3e18, NULL, "3.00e+18"},
    {HF_MONEY_DOC, NAN, NULL, "—"},
    {HF_MONEY_DOC, INFINITY, NULL, "inf USD"},
    {HF_MONEY_DOC, -INFINITY, NULL, "-inf USD"},
    {HF_MONEY_DOC, -0.0, NULL, "0.00 USD"},
    {HF_MONEY_DOC, -0.0004, NULL, "-0.00 USD"},
    {HF_MONEY_DOC, 0.0123, NULL, "0.01 USD"},
    {HF_MONEY_DOC, 2.5, NULL, "2.50 USD"},
    {HF_MONEY_DOC, 12.35, NULL, "12.35 USD"},
    {HF_MONEY_DOC, -98765.4321, NULL, "-98,765.43 USD"},
    {HF_MONEY_DOC, 17.6e6, NULL, "17,600,000.00 USD"},
    {HF_MONEY_DOC, 3e18, NULL, "3,000,000,000,000,000,000.00 USD"},
    {HF_PCT_REPORT, NAN, NULL, "-"},
    {HF_PCT_REPORT, INFINITY, NULL, "-"},
    {HF_PCT_REPORT, -INFINITY, NULL, "-"},
    {HF_PCT_REPORT, -0.0, NULL, "-0 %"},
    {HF_PCT_REPORT, -0.0004, NULL, "-0 %"},
    {HF_PCT_REPORT, 0.0123, NULL, "1.2 %"},
    {HF_PCT_REPORT, 2.5, NULL, "250 %"},
    {HF_PCT_REPORT, 12.35, NULL, "1235 %"},
    {HF_PCT_REPORT, -98765.4321, NULL, "-9876543 %"},
    {HF_PCT_REPORT, 17.6e6, NULL, "1760000000 %"},
    {HF_PCT_REPORT, 3e18, NULL, "300000000000000000000 %"},
    {HF_PCT_DOC, NAN, NULL, "—"},
    {HF_PCT_DOC, INFINITY, NULL, "inf %"},
    {HF_PCT_DOC, -INFINITY, NULL, "-inf %"},
    {HF_PCT_DOC, -0.0, NULL, "-0.0 %"},
    {HF_PCT_DOC, -0.0004, NULL, "-0.0 %"},
    {HF_PCT_DOC, 0.0123, NULL, "1.2 %"},
    {HF_PCT_DOC, 2.5, NULL, "250.0 %"},
    {HF_PCT_DOC, 12.35, NULL, "1235.0 %"},
    {HF_PCT_DOC, -98765.4321, NULL, "-9876543.2 %"},
    {HF_PCT_DOC, 17.6e6, NULL, "1760000000.0 %"},
    {HF_PCT_DOC, 3e18, NULL, "300000000000000000000.0 %"},
    {HF_MS_SCREEN, NAN, NULL, "-"},
    {HF_MS_SCREEN, INFINITY, NULL, "inf min"},
    {HF_MS_SCREEN, -INFINITY, NULL, "-inf ms"},
    {HF_MS_SCREEN, -0.0, NULL, "-0.0 ms"},
    {HF_MS_SCREEN, -0.0004, NULL, "-0.0 ms"},
    {HF_MS_SCREEN, 0.0123, NULL, "0.0 ms"},
    {HF_MS_SCREEN, 2.5, NULL, "2 ms"},
    {HF_MS_SCREEN, 12.35, NULL, "12 ms"},
    {HF_MS_SCREEN, -98765.4321, NULL, "-98765.4 ms"},
    {HF_MS_SCREEN, 17.6e6, NULL, "293 min"},
    {HF_MS_SCREEN, 300000, NULL, "5.0 min"},
    {HF_MS_SCREEN, 0, NULL, "0 ms"},
    {HF_MS_SCREEN, 3e18, NULL, "50000000000000 min"},
    {HF_MS_REPORT, NAN, NULL, "-"},
    {HF_MS_REPORT, INFINITY, NULL, "-"},
    {HF_MS_REPORT, -INFINITY, NULL, "-"},
    {HF_MS_REPORT, -0.0, NULL, "-0.0ms"},
    {HF_MS_REPORT, -0.0004, NULL, "-0.0ms"},
    {HF_MS_REPORT, 0.0123, NULL, "0.0ms"},
    {HF_MS_REPORT, 2.5, NULL, "2.5ms"},
    {HF_MS_REPORT, 12.35, NULL, "12ms"},
    {HF_MS_REPORT, -98765.4321, NULL, "-98765.4ms"},
    {HF_MS_REPORT, 17.6e6, NULL, "293.3min"},
    {HF_MS_REPORT, 3e18, NULL, "50000000000000.0min"},
    {HF_MS_TOUR, NAN, NULL, "-"},
    {HF_MS_TOUR, INFINITY, NULL, "-"},
    {HF_MS_TOUR, -INFINITY, NULL, "-"},
    {HF_MS_TOUR, -0.0, NULL, "-0 ms"},
    {HF_MS_TOUR, -0.0004, NULL, "-0.0004 ms"},
    {HF_MS_TOUR, 0.0123, NULL, "0.0123 ms"},
    {HF_MS_TOUR, 2.5, NULL, "2.5 ms"},
    {HF_MS_TOUR, 12.35, NULL, "12.3 ms"},
    {HF_MS_TOUR, -98765.4321, NULL, "-9.88e+04 ms"},
    {HF_MS_TOUR, 17.6e6, NULL, "293 min"},
    {HF_MS_TOUR, 3e18, NULL, "5e+13 min"},
    {HF_RATE_DOC, NAN, NULL, "—"},
    {HF_RATE_DOC, INFINITY, NULL, "∞"},
    {HF_RATE_DOC, -INFINITY, NULL, "∞"},
    {HF_RATE_DOC, -0.0, NULL, "-0"},
    {HF_RATE_DOC, -0.0004, NULL, "-0.0004"},
    {HF_RATE_DOC, 0.0123, NULL, "0.01"},
    {HF_RATE_DOC, 2.5, NULL, "2.50"},
    {HF_RATE_DOC, 12.35, NULL, "12.3"},
    {HF_RATE_DOC, -98765.4321, NULL, "-98,765"},
    {HF_RATE_DOC, 17.6e6, NULL, "17,600,000"},
    {HF_RATE_DOC, 3e18, NULL, "3,000,000,000,000,000,000"},
    {HF_RATE_TOUR, NAN, NULL, "-"},
    {HF_RATE_TOUR, INFINITY, NULL, "-"},
    {HF_RATE_TOUR, -INFINITY, NULL, "-"},
    {HF_RATE_TOUR, -0.0, NULL, "-0/s"},
    {HF_RATE_TOUR, -0.0004, NULL, "-0.0004/s"},
    {HF_RATE_TOUR, 0.0123, NULL, "0.0123/s"},
    {HF_RATE_TOUR, 2.5, NULL, "2.5/s"},
    {HF_RATE_TOUR, 12.35, NULL, "12.35/s"},
    {HF_RATE_TOUR, -98765.4321, NULL, "-98765.4/s"},
    {HF_RATE_TOUR, 17.6e6, NULL, "1.76e+07/s"},
    {HF_RATE_TOUR, 3e18, NULL, "3e+18/s"},
    {HF_PRINTF_F0, NAN, NULL, "nan"},
    {HF_PRINTF_F0, INFINITY, NULL, "inf"},
    {HF_PRINTF_F0, -INFINITY, NULL, "-inf"},
    {HF_PRINTF_F0, -0.0, NULL, "-0"},
    {HF_PRINTF_F0, -0.0004, NULL, "-0"},
    {HF_PRINTF_F0, 0.0123, NULL, "0"},
    {HF_PRINTF_F0, 2.5, NULL, "2"},
    {HF_PRINTF_F0, 12.35, NULL, "12"},
    {HF_PRINTF_F0, -98765.4321, NULL, "-98765"},
    {HF_PRINTF_F0, 17.6e6, NULL, "17600000"},
    {HF_PRINTF_F0, 3e18, NULL, "3000000000000000000"},
    {HF_PRINTF_F1, NAN, NULL, "nan"},
    {HF_PRINTF_F1, INFINITY, NULL, "inf"},
    {HF_PRINTF_F1, -INFINITY, NULL, "-inf"},
    {HF_PRINTF_F1, -0.0, NULL, "-0.0"},
    {HF_PRINTF_F1, -0.0004, NULL, "-0.0"},
    {HF_PRINTF_F1, 0.0123, NULL, "0.0"},
    {HF_PRINTF_F1, 2.5, NULL, "2.5"},
    {HF_PRINTF_F1, 12.35, NULL, "12.3"},
    {HF_PRINTF_F1, -98765.4321, NULL, "-98765.4"},
    {HF_PRINTF_F1, 17.6e6, NULL, "17600000.0"},
    {HF_PRINTF_F1, 3e18, NULL, "3000000000000000000.0"},
    {HF_PRINTF_G, NAN, NULL, "nan"},
    {HF_PRINTF_G, INFINITY, NULL, "inf"},
    {HF_PRINTF_G, -INFINITY, NULL, "-inf"},
    {HF_PRINTF_G, -0.0, NULL, "-0"},
    {HF_PRINTF_G, -0.0004, NULL, "-0.0004"},
    {HF_PRINTF_G, 0.0123, NULL, "0.0123"},
    {HF_PRINTF_G, 2.5, NULL, "2.5"},
    {HF_PRINTF_G, 12.35, NULL, "12.35"},
    {HF_PRINTF_G, -98765.4321, NULL, "-98765.4"},
    {HF_PRINTF_G, 17.6e6, NULL, "1.76e+07"},
    {HF_PRINTF_G, 3e18, NULL, "3e+18"},
    {HF_SHORT_SCREEN, 99999, NULL, "99,999"},
    {HF_SHORT_SCREEN, 100000, NULL, "100k"},
    {HF_SHORT_REPORT, 9999, NULL, "9,999"},
    {HF_SHORT_REPORT, 10000, NULL, "10k"},
    {HF_SHORT_REPORT, 1.5e15, NULL, "1.5P"},
    {HF_PCT_REPORT, 0.042, NULL, "4.2 %"},
    {HF_PCT_REPORT, 0.42, NULL, "42 %"},
    {HF_PCT_DOC, 0.00012, NULL, "0.012 %"},
    {HF_MS_SCREEN, 9999, NULL, "10 s"},
    {HF_MS_SCREEN, 12000, NULL, "12 s"},
    {HF_MS_SCREEN, 51000, NULL, "51 s"},
    {HF_MS_SCREEN, 20, NULL, "20 ms"},
    {HF_MS_SCREEN, 1500, NULL, "1.5 s"},
    {HF_MS_SCREEN, 999.6, NULL, "1.0 s"},
    {HF_MS_SCREEN, 0.4, NULL, "0.4 ms"},
    {HF_MS_REPORT, 4, NULL, "4.0ms"},
    {HF_MS_REPORT, 1000, NULL, "1.0s"},
    {HF_MS_REPORT, 960000, NULL, "16.0min"},
    {HF_MS_TOUR, 1500, NULL, "1.5 s"},
    {HF_MS_TOUR, 960000, NULL, "16 min"},
    {HF_RATE_DOC, 1.0 / 86400, NULL, "1/day"},
    {HF_RATE_DOC, 2.0 / 3600, NULL, "2/hour"},
    {HF_RATE_DOC, 400, NULL, "400"},
    {HF_RATE_TOUR, 1.0 / 86400, NULL, "1/day"},
    {HF_RATE_TOUR, 400, NULL, "400/s"},
    {HF_MONEY_REPORT, 12345.678, NULL, "12,346"},
    {HF_MONEY_REPORT, 2.5e7, NULL, "25M"},
    {HF_NUM_OBSERVED, 0.253149, NULL, "0.2531"},
    {HF_PRINTF_G, 1e6, NULL, "1e+06"},
    {HF_PRINTF_F0, 2.5, NULL, "2"},
    {HF_PRINTF_F0, 3.5, NULL, "4"},
    {HF_MONEY_SCREEN, 1234.5, NULL, "$1,234.50"},
    {HF_MONEY_SCREEN, 1234.5, "EUR", "€1,234.50"},
    {HF_MONEY_SCREEN, 1234.5, "GBP", "1,234.50 GBP"},
    {HF_MONEY_DOC, 1234.5, NULL, "1,234.50 USD"},
    {HF_MONEY_DOC, 1234.5, "EUR", "1,234.50 EUR"},
    {HF_MONEY_DOC, 1234.5, "GBP", "1,234.50 GBP"},
    {HF_FIX0_TOUR, 1244.4, NULL, "1,244"},
    {HF_FIX0_TOUR, 90000, NULL, "90,000"},
    {HF_FIX0_TOUR, 2.5, NULL, "2"},
    {HF_FIX0_TOUR, -0.0, NULL, "-0"},
    {HF_FIX0_TOUR, -1234567.8, NULL, "-1,234,568"},
    {HF_FIX0_TOUR, NAN, NULL, "nan"},
    {HF_FIX0_TOUR, -INFINITY, NULL, "-inf"},
    {HF_FIX1_TOUR, 2.08, NULL, "2.1"},
    {HF_FIX1_TOUR, 41200, NULL, "41,200.0"},
    {HF_FIX2_TOUR, 0.93, NULL, "0.93"},
    {HF_FIX2_TOUR, 1234.5, NULL, "1,234.50"},
    {HF_G6_TOUR, 90000, NULL, "90,000"},
    {HF_G6_TOUR, 599.3724, NULL, "599.372"},
    {HF_G6_TOUR, -123456, NULL, "-123,456"},
    {HF_G6_TOUR, 1e6, NULL, "1e+06"},
    {HF_G6_TOUR, 0.00001, NULL, "1e-05"},
    {HF_G6_TOUR, NAN, NULL, "nan"},
};

static void test_rows(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        const struct row *r = &rows[i];
        char buf[HUMANFMT_SIZE];
        const char *got = humanfmt_money(buf, sizeof buf, r->v, r->currency, r->st);
        if (strcmp(got, r->want) != 0)
            fail_msg("row %zu (style %d, %.17g): '%s', expected '%s'", i, (int)r->st, r->v, got, r->want);
        if (!r->currency) { /* humanfmt is humanfmt_money without a currency */
            assert_string_equal(humanfmt(buf, sizeof buf, r->v, r->st), r->want);
        }
    }
}

/* Every style survives every double that is not an ordinary figure: the text fits
 * HUMANFMT_SIZE, the sbuf call writes the same, and a small buffer gets a cut of it. */
static void test_any_double(void **state)
{
    (void)state;
    const double odd[] = {NAN,    -NAN,    INFINITY, -INFINITY,   0.0,     -0.0,
                          1e308,  -1e308,  DBL_MAX,  -DBL_MAX,    DBL_MIN, -DBL_MIN,
                          5e-324, -5e-324, 1e-300,   9.999999e59, 1e15,    -1e15,
                          1e18,   0.0005,  -0.0005,  0.5,         -0.5,    4503599627370495.5};
    const char *currencies[] = {NULL, "EUR", "GBP"};
    for (int st = 0; st < HF_STYLE__COUNT; st++)
        for (size_t i = 0; i < sizeof odd / sizeof *odd; i++)
            for (size_t c = 0; c < sizeof currencies / sizeof *currencies; c++) {
                char buf[HUMANFMT_SIZE];
                const char *full = humanfmt_money(buf, sizeof buf, odd[i], currencies[c], (humanfmt_style)st);
                size_t len = strlen(full);
                if (len >= HUMANFMT_SIZE - 1)
                    fail_msg("style %d, %.17g: %zu bytes do not fit", st, odd[i], len);
                sbuf b;
                sbuf_init(&b);
                humanfmt_add_money(&b, odd[i], currencies[c], (humanfmt_style)st);
                assert_string_equal(b.s ? b.s : "", full);
                sbuf_free(&b);
                for (size_t size = 1; size <= 5; size += 2) {
                    char small[5];
                    memset(small, 'x', sizeof small);
                    humanfmt_money(small, size, odd[i], currencies[c], (humanfmt_style)st);
                    size_t n = len < size - 1 ? len : size - 1;
                    assert_int_equal(strlen(small), n);
                    assert_memory_equal(small, full, n);
                }
            }
}

/* The figure as a whole is written, however large (1e308 has 309 digits and 102 commas). */
static void test_large_whole(void **state)
{
    (void)state;
    char buf[HUMANFMT_SIZE];
    const char *s = humanfmt(buf, sizeof buf, 1e308, HF_NUM_DOC);
    assert_int_equal(strlen(s), 309 + 102);
    assert_memory_equal(s, "100,000,000,000,000,001,097", 27);
    assert_int_equal(strlen(humanfmt(buf, sizeof buf, -1e308, HF_PRINTF_F1)), 1 + 309 + 2);
    assert_string_equal(humanfmt(buf, sizeof buf, 1e40, HF_PRINTF_F0),
                        "10000000000000000303786028427003666890752");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows),
        cmocka_unit_test(test_any_double),
        cmocka_unit_test(test_large_whole),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
