/* test_template.c - table-driven tests of the key template parser. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "template.h"

#include <stdlib.h>
#include <string.h>

/* parts: "L:text" for a literal, "A:name" or "A:name:fmt" for a placeholder */
static const struct parse_case {
    const char *src;
    const char *parts[6];
} ok_cases[] = {
    {"HEADER", {"L:HEADER"}},
    {"", {NULL}},
    {"CLIENTE#{customerId}", {"L:CLIENTE#", "A:customerId"}},
    {"PEDIDO#{orderDate}#{orderId}", {"L:PEDIDO#", "A:orderDate", "L:#", "A:orderId"}},
    {"{orderDate}#{orderId}", {"A:orderDate", "L:#", "A:orderId"}},
    {"LINEA#{lineNo:03}", {"L:LINEA#", "A:lineNo:03"}},
    {"{{literal}}", {"L:{literal}"}},
    {"A{{B}}{x}C", {"L:A{B}", "A:x", "L:C"}},
    {"DIRECCIÓN#{tipo}", {"L:DIRECCIÓN#", "A:tipo"}},
    {"{línea}", {"A:línea"}},
    {"{a}{b}", {"A:a", "A:b"}},
    {"ESTADO#{status}", {"L:ESTADO#", "A:status"}},
    {"x.y-z_{a.b}", {"L:x.y-z_", "A:a.b"}},
    /* any other attribute name in backticks, "``" for a backtick */
    {"{`State#Date`}", {"A:State#Date"}},
    {"X#{`a b`}#{`1pk`}", {"L:X#", "A:a b", "L:#", "A:1pk"}},
    {"{`a``b`}", {"A:a`b"}},
    {"{`{x}`}{`}`}", {"A:{x}", "A:}"}},
    {"{`n#o`:03}", {"A:n#o:03"}},
    {"{`In`}", {"A:In"}}, /* quoting a name that needs none is allowed */
    {"`{a}`", {"L:`", "A:a", "L:`"}},
};

static void test_parse_ok(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof ok_cases / sizeof *ok_cases; i++) {
        const struct parse_case *c = &ok_cases[i];
        tpl t;
        char *err = NULL;
        size_t off = 0;
        if (tpl_parse(c->src, &t, &err, &off) != KP_OK)
            fail_msg("case %zu '%s': unexpected error %s at %zu", i, c->src, err, off);
        size_t n = 0;
        while (n < 6 && c->parts[n])
            n++;
        if (t.n != n)
            fail_msg("case %zu '%s': %zu parts, expected %zu", i, c->src, t.n, n);
        for (size_t k = 0; k < n; k++) {
            const char *want = c->parts[k];
            tpl_part *p = &t.parts[k];
            if (want[0] == 'L') {
                assert_int_equal(p->kind, TPL_LIT);
                assert_string_equal(p->text, want + 2);
            } else {
                assert_int_equal(p->kind, TPL_ATTR);
                const char *name = want + 2, *colon = strchr(name, ':');
                if (colon) {
                    assert_int_equal(strlen(p->text), (size_t)(colon - name));
                    assert_memory_equal(p->text, name, (size_t)(colon - name));
                    assert_non_null(p->format);
                    assert_string_equal(p->format, colon + 1);
                } else {
                    assert_string_equal(p->text, name);
                    assert_null(p->format);
                }
            }
        }
        /* printing gives back an equal template */
        char *again = tpl_format(&t);
        tpl u;
        assert_int_equal(tpl_parse(again, &u, NULL, NULL), KP_OK);
        assert_int_equal(u.n, t.n);
        char *twice = tpl_format(&u);
        assert_string_equal(again, twice);
        free(again);
        free(twice);
        tpl_free(&u);
        tpl_free(&t);
    }
}

static const struct bad_case {
    const char *src;
    size_t offset;
    const char *msg_part;
} bad_cases[] = {
    {"CLIENTE#{customerId", 8, "unclosed"},
    {"{}", 0, "empty placeholder"},
    {"A}B", 1, "lone '}'"},
    {"A{ x}", 1, "attribute name"},
    {"{a b}", 2, "unexpected character"},
    {"{a:}", 3, "format"},
    {"{a:xy}", 3, "format"},
    {"{", 0, "attribute name"},
    {"ok{a}}", 5, "lone '}'"},
    {"{a#b}", 2, "{`State#Date`}"},
    {"{`abc}", 0, "unclosed quoted name"},
    {"x{`a``}", 1, "unclosed quoted name"},
    {"{``}", 0, "empty placeholder"},
    {"{`a`x}", 4, "expected '}'"},
    {"{`a`:x}", 5, "format"},
};

static void test_parse_errors(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bad_cases / sizeof *bad_cases; i++) {
        const struct bad_case *c = &bad_cases[i];
        tpl t;
        char *err = NULL;
        size_t off = 99;
        kp_status st = tpl_parse(c->src, &t, &err, &off);
        if (st != KP_TEMPLATE)
            fail_msg("case %zu '%s': status %s, expected TEMPLATE", i, c->src, kp_status_name(st));
        if (!strstr(err, c->msg_part))
            fail_msg("case %zu '%s': message '%s' lacks '%s'", i, c->src, err, c->msg_part);
        if (off != c->offset)
            fail_msg("case %zu '%s': offset %zu, expected %zu", i, c->src, off, c->offset);
        assert_int_equal(t.n, 0);
        free(err);
        /* the message and the offset are optional */
        assert_int_equal(tpl_parse(c->src, &t, NULL, NULL), KP_TEMPLATE);
    }
}

static const char *lookup(const char *name, void *ctx)
{
    (void)ctx;
    if (strcmp(name, "lineNo") == 0)
        return "7";
    if (strcmp(name, "orderId") == 0)
        return "4471";
    return NULL;
}

static void test_render_and_format(void **state)
{
    (void)state;
    tpl t;
    assert_int_equal(tpl_parse("PEDIDO#{orderId}/LINEA#{lineNo:03}/{other}", &t, NULL, NULL), KP_OK);
    char *r = tpl_render(&t, lookup, NULL);
    assert_string_equal(r, "PEDIDO#4471/LINEA#007/{other}");
    free(r);
    assert_true(tpl_has_attr(&t, "lineNo"));
    assert_false(tpl_has_attr(&t, "LINEA"));
    assert_int_equal(tpl_attr_count(&t), 3);
    assert_false(tpl_is_constant(&t));
    tpl_free(&t);

    char *f = tpl_apply_format("12", "03");
    assert_string_equal(f, "012");
    free(f);
    f = tpl_apply_format("1234", "03");
    assert_string_equal(f, "1234");
    free(f);
    f = tpl_apply_format("casa", "03");
    assert_string_equal(f, "casa");
    free(f);
    /* a format is one to three digits; anything else leaves the value alone (fuzzing found
     * "-1" and a 20-digit width overflowing the padding) */
    f = tpl_apply_format("-1", "-1");
    assert_string_equal(f, "-1");
    free(f);
    f = tpl_apply_format("7", "99999999999999999999");
    assert_string_equal(f, "7");
    free(f);
    f = tpl_apply_format("-7", "004");
    assert_string_equal(f, "-007");
    free(f);
}

/* The placeholder-name rule the parser, the expressions and the importers share. */
static const struct name_case {
    const char *s;
    bool valid;
} name_cases[] = {
    {"customerId", true}, {"a.b-c_d9", true}, {"línea", true},  {"dirección", true}, {"-", true},
    {NULL, false},        {"", false},        {"a b", false},   {"a#b", false},      {"{a}", false},
    {"a:03", false},      {"a/b", false},     {"tab\t", false},
};

static void test_names(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof name_cases / sizeof *name_cases; i++)
        if (tpl_name_valid(name_cases[i].s) != name_cases[i].valid)
            fail_msg("name '%s': expected %s", name_cases[i].s ? name_cases[i].s : "(null)",
                     name_cases[i].valid ? "valid" : "invalid");
    for (int c = 1; c < 256; c++) {
        bool want = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                    c == '-' || c == '.' || c >= 0x80;
        assert_int_equal(tpl_name_byte((unsigned char)c), want);
        char name[2] = {(char)c, 0};
        assert_int_equal(tpl_name_valid(name), want);
    }
}

/* Every attribute name DynamoDB takes survives a placeholder: written, read back the same. */
static void test_placeholder_any_name(void **state)
{
    (void)state;
    static const char *const names[] = {
        "customerId", "State#Date", "a b", "a:b",   "a:03", "1pk", "In",    "línea", "DIRECCIÓN#casa",
        "a.b",        "x[0]",       "`",   "``x``", "{",    "}}",  " lead", "tab\t", "a}b{c"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char *ph = tpl_placeholder(names[i]);
        tpl t;
        char *err = NULL;
        if (tpl_parse(ph, &t, &err, NULL) != KP_OK)
            fail_msg("'%s' as '%s': %s", names[i], ph, err);
        assert_int_equal(t.n, 1);
        assert_int_equal(t.parts[0].kind, TPL_ATTR);
        assert_string_equal(t.parts[0].text, names[i]);
        assert_null(t.parts[0].format);
        if (tpl_name_valid(names[i]) != (ph[1] != '`'))
            fail_msg("'%s' written as '%s'", names[i], ph);
        tpl_free(&t);
        free(ph);
    }
    /* with a format too */
    tpl_part p = {TPL_ATTR, "line No", "03", 0};
    sbuf b;
    sbuf_init(&b);
    tpl_add_placeholder(&b, &p);
    assert_string_equal(b.s, "{`line No`:03}");
    sbuf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_ok),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_render_and_format),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_placeholder_any_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
