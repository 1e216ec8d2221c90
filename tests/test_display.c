/* test_display.c - display widths and the layouts built on them (model/display.h): one row per
 * cell and per wrapped text, with the exact text; Spanish and wide characters included. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "display.h"

#include <locale.h>
#include <stdlib.h>
#include <string.h>

static int setup(void **state)
{
    (void)state;
    if (!setlocale(LC_CTYPE, "C.UTF-8"))
        setlocale(LC_CTYPE, "en_US.UTF-8");
    return 0;
}

static void test_width(void **state)
{
    (void)state;
    assert_int_equal(disp_width(NULL), 0);
    assert_int_equal(disp_width("línea"), 5);
    assert_int_equal(disp_width("日本"), 4);
    assert_int_equal(disp_width("a\xff"), 2); /* an invalid byte is one column */
    int used;
    assert_int_equal(disp_fit("dirección", 8, &used), 9); /* "direcció": 8 columns, 9 bytes */
    assert_int_equal(used, 8);
    assert_int_equal(disp_fit("日本", 3, &used), 3); /* the second one does not fit */
    assert_int_equal(used, 2);
    /* a quoted text cut short, the cut marked */
    static const struct {
        const char *s;
        int cols;
        const char *want;
    } shorts[] = {{NULL, 5, ""},
                  {"línea", 5, "línea"},
                  {"dirección", 8, "direcció…"},
                  {"日本語", 5, "日本…"},
                  {"DIRECCIÓN#casa", 0, "…"}};
    for (size_t i = 0; i < sizeof shorts / sizeof *shorts; i++) {
        char *got = disp_short(shorts[i].s, shorts[i].cols);
        assert_string_equal(got, shorts[i].want);
        free(got);
    }
}

static const struct cell_row {
    const char *s;
    int w;
    unsigned flags;
    const char *want;
} cells[] = {
    {"abc", 5, 0, "abc  "},
    {"abc", 5, DISP_RIGHT, "  abc"},
    {"abc", 3, DISP_RIGHT | DISP_MARK_CUT, "abc"},
    {NULL, 2, 0, "  "},
    {"línea", 6, DISP_RIGHT, " línea"},
    {"abcdef", 4, 0, "abcd"},
    {"abcdef", 4, DISP_MARK_CUT, "abc…"},
    {"abcdef", 4, DISP_RIGHT | DISP_MARK_CUT, "abc…"},
    {"dirección", 7, DISP_MARK_CUT, "direcc…"},
    {"日本語", 4, 0, "日本"},
    {"日本語", 5, 0, "日本 "}, /* the wide character that does not fit leaves a space */
    {"日本語", 4, DISP_MARK_CUT, "日… "},
    {"abc", 0, 0, ""},
    {"abc", -2, DISP_MARK_CUT, ""},
    {"", 0, DISP_RIGHT, ""},
};

static void test_cell(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cells / sizeof *cells; i++) {
        const struct cell_row *r = &cells[i];
        sbuf b;
        sbuf_init(&b);
        sbuf_add(&b, "");
        disp_cell(&b, r->s, r->w, r->flags);
        if (strcmp(b.s, r->want) != 0)
            fail_msg("cell %zu: '%s', expected '%s'", i, b.s, r->want);
        sbuf_free(&b);
    }
}

static const struct wrap_row {
    const char *text;
    int col, width, hang;
    const char *want;
} wraps[] = {
    {"", 0, 10, 0, ""},
    {"   ", 0, 10, 0, ""},
    {"one two three", 0, 20, 0, "one two three"},
    {"one two three", 0, 7, 0, "one two\nthree"},
    {"one two three", 0, 6, 2, "one\n  two\n  three"},
    {"  one   two  ", 0, 20, 0, "one two"},
    {"one two", 5, 8, 4, "one\n    two"},                    /* the first word stays after col, however far */
    {"extraordinary word", 0, 5, 1, "extraordinary\n word"}, /* a long word stands alone, uncut */
    {"línea dirección", 0, 15, 0, "línea dirección"},        /* 15 columns, 17 bytes */
    {"línea dirección", 0, 14, 0, "línea\ndirección"},
    {"a\nb c", 0, 3, 0, "a\nb\nc"}, /* only spaces separate words */
};

static void test_wrap(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof wraps / sizeof *wraps; i++) {
        const struct wrap_row *r = &wraps[i];
        sbuf b;
        sbuf_init(&b);
        sbuf_add(&b, "");
        disp_wrap(&b, r->text, strlen(r->text), r->col, r->width, r->hang);
        if (strcmp(b.s, r->want) != 0)
            fail_msg("wrap %zu: '%s', expected '%s'", i, b.s, r->want);
        sbuf_free(&b);
    }
    /* only text[0..len) is read */
    sbuf b;
    sbuf_init(&b);
    disp_wrap(&b, "one two|three", 7, 0, 80, 0);
    assert_string_equal(b.s, "one two");
    sbuf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_width),
        cmocka_unit_test(test_cell),
        cmocka_unit_test(test_wrap),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
