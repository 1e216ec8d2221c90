/* test_yaml_quoting.c - the canonical text quotes a text that a YAML reader would take for
 * something else (null, a boolean, a number), and only those: one row per text, its expected
 * style in the saved design, and the design read back equal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "design.h"
#include "design_io.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char design_fmt[] =
    "keyplan: 1\n"
    "name: Shop\n"
    "description: %s\n"
    "table: { name: Shop, pk: PK, sk: SK }\n"
    "entities:\n"
    "  - name: Order\n"
    "    count: 1000\n"
    "    size: 500\n"
    "    attributes: [orderId]\n"
    "    keys: { PK: \"ORDER#{orderId}\", SK: \"HEADER\" }\n"
    "patterns:\n"
    "  - { id: 1, name: Get order, entity: Order, by: [orderId], rate: 10, latency: 20 }\n";

static const struct {
    const char *text; /* the description, as text */
    bool quoted;      /* saved between double quotes */
} rows[] = {
    {"null", true},     {"Null", true},         {"~", true},      {"true", true},    {"False", true},
    {"yes", true},      {"No", true},           {"on", true},     {"OFF", true},     {"y", true},
    {"N", true},        {"12", true},           {"-3.5", true},   {"1e3", true},     {"inf", true},
    {"Infinity", true}, {"nan", true},          {"NaN", true},    {".inf", true},    {"-.Inf", true},
    {"0x1F", true},     {"0o17", true},         {"+7", true},     {"orders", false}, {"Yes please", false},
    {"nothing", false}, {"information", false}, {"total", false}, {"flag", false},   {"yesterday", false},
    {"Ofertas", false}, {"Get order", false},   {"línea", false}, {"z9", false},     {"ok", false},
};

static void test_typed_texts_are_quoted(void **state)
{
    (void)state;
    for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
        char *text = xasprintf(design_fmt, "\"placeholder\"");
        kp_design *d = ts_load_text(text, "quoting.yaml");
        assert_non_null(d);
        free(d->description);
        d->description = xstrdup(rows[r].text);
        char *err = NULL;
        char *yaml = designio_save(d, &err);
        assert_non_null(yaml);
        char *plain = xasprintf("\ndescription: %s\n", rows[r].text);
        char *quoted = xasprintf("\ndescription: \"%s\"\n", rows[r].text);
        bool is_quoted = strstr(yaml, quoted) != NULL, is_plain = strstr(yaml, plain) != NULL;
        if (rows[r].quoted ? !is_quoted : !is_plain)
            fail_msg("'%s': expected %s, saved:\n%s", rows[r].text, rows[r].quoted ? "quoted" : "plain",
                     yaml);
        kp_design *back = ts_load_text(yaml, "saved.yaml");
        if (!back || !design_equal(back, d))
            fail_msg("'%s': the saved design does not read back equal", rows[r].text);
        design_free(back);
        design_free(d);
        free(plain);
        free(quoted);
        free(yaml);
        free(text);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_typed_texts_are_quoted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
