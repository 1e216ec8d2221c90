/* test_report.c - the text report of `keyplan check` (storage/exchange/report.h) built directly:
 * every sample's report fits 100 columns (a partition row's "HOT: shard xN" note aside) and has
 * its sections in order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "display.h"
#include "report.h"
#include "support.h"

#include <locale.h>
#include <stdlib.h>
#include <string.h>

static void test_samples(void **state)
{
    (void)state;
    static const char *const samples[] = {"samples/cloudshop/design.yaml",
                                          "samples/cloudshop/first-design.yaml", "samples/iot/design.yaml",
                                          "samples/social/design.yaml", "tests/data/verify/utf8.yaml"};
    static const char *const sections[] = {"\nPATTERNS\n",     "\nKEY CONDITIONS\n", "\nPARTITIONS",
                                           "\nCOST per month", "\nCHECKLIST (",      "\nFINDINGS ("};
    if (!setlocale(LC_CTYPE, "C.UTF-8"))
        setlocale(LC_CTYPE, "en_US.UTF-8");
    for (size_t i = 0; i < sizeof samples / sizeof *samples; i++) {
        kp_design *d = ts_load_file(samples[i]);
        assert_non_null(d);
        kp_analysis *a = analysis_run(d);
        char *text = report_check_text(samples[i], d, a);
        assert_true(strncmp(text, d->name, strlen(d->name)) == 0);
        const char *at = text;
        for (size_t s = 0; s < sizeof sections / sizeof *sections; s++) {
            const char *next = strstr(at, sections[s]);
            if (!next)
                fail_msg("%s: no section '%s' after the previous one", samples[i], sections[s] + 1);
            at = next;
        }
        size_t lineno = 0;
        for (char *line = text, *nl; *line; line = nl + 1) {
            nl = strchr(line, '\n');
            assert_non_null(nl); /* every line ends */
            *nl = '\0';
            lineno++;
            char *hot = strstr(line, "  HOT: shard x");
            if (hot)
                *hot = '\0';
            if (disp_width(line) > 100)
                fail_msg("%s line %zu is %d columns: %s", samples[i], lineno, disp_width(line), line);
            assert_true(nl == line || nl[-1] != ' '); /* no trailing spaces */
        }
        free(text);
        analysis_free(a);
        design_free(d);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_samples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
