/* test_textf.c - textf writes what printf writes: every conversion it does itself, in the
 * sequential and the positional form, over ordinary and hostile values, and the ones it leaves
 * to printf. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "textf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* textf's text and printf's for the same format and arguments. */
#define SAME(...)                                                         \
    do {                                                                  \
        char *want_ = xasprintf(__VA_ARGS__), *got_ = textf(__VA_ARGS__); \
        assert_string_equal(got_, want_);                                 \
        free(want_);                                                      \
        free(got_);                                                       \
    } while (0)

static void test_sequential(void **state)
{
    (void)state;
    SAME("plain text, no conversion");
    SAME("%s and %s", "one", "");
    SAME("100 %% of %zu items", (size_t)0);
    SAME("%zu %zu %zu", (size_t)7, (size_t)1234567890123, SIZE_MAX);
    SAME("%d %d %d", 0, -42, 2147483647);
    static const double v[] = {0,   -0.0,  0.5,    1.5,      2.5, -2.5,     12.345,
                               1e6, 1e300, 1e-300, 4.9e-324, NAN, INFINITY, -INFINITY};
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        SAME("%.0f / %.1f / %g", v[i], v[i], v[i]);
        SAME("[%g]", v[i]);
    }
    SAME("%s: %.0f %% of %d (%zu)", "table", 42.4, 3000, (size_t)5);
}

static void test_positional(void **state)
{
    (void)state;
    SAME("%2$s de %1$s", "Order", "status");
    SAME("%3$.1f %1$s %2$zu %1$s", "x", (size_t)9, 2.25);
    SAME("%2$d %1$g %%", 0.125, -7);
    SAME("%1$.0f", 1e21);
}

/* Conversions textf does not write itself go to printf: the same text still. */
static void test_left_to_printf(void **state)
{
    (void)state;
    SAME("%5s|%-4d|%x|%.3f", "ab", 3, 255u, 3.14159);
    SAME("%s %e", "e:", 12345.678);
    SAME("%c%c", 'o', 'k');
    SAME("%.2f %% of %s", 99.999, "all");
}

/* A NULL %s writes "(null)", as glibc's printf; textf_add appends. */
static void test_null_and_append(void **state)
{
    (void)state;
    const char *volatile none = NULL; /* the compiler would refuse a visible NULL for %s */
    char *t = textf("<%s>", none);
    assert_string_equal(t, "<(null)>");
    free(t);
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, "a");
    textf_add(&b, "%s%zu", "b", (size_t)1);
    textf_add(&b, "%2$s%1$s", "d", "c");
    assert_string_equal(b.s, "ab1cd");
    sbuf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sequential),
        cmocka_unit_test(test_positional),
        cmocka_unit_test(test_left_to_printf),
        cmocka_unit_test(test_null_and_append),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
