/* test_report.c - the text report of `keyplan check` (storage/exchange/report.h) built directly:
 * every sample's report fits 100 columns (a partition row's "HOT: shard xN" note aside) and has
 * its sections in order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "display.h"
#include "i18n.h"
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

/* ---- the report in Spanish: its tables' columns where their headers are ------------------ */

/* The line of `text` after the one that equals `title` (NULL when there is none); *next receives
 * the start of the line after it. */
static char *line_after(const char *text, const char *title, const char **next)
{
    size_t n = strlen(title);
    for (const char *l = text; l && *l;) {
        const char *nl = strchr(l, '\n');
        if (nl && (size_t)(nl - l) == n && strncmp(l, title, n) == 0) {
            const char *h = nl + 1, *e = strchr(h, '\n');
            *next = e ? e + 1 : h + strlen(h);
            return xstrndup(h, e ? (size_t)(e - h) : strlen(h));
        }
        l = nl ? nl + 1 : NULL;
    }
    return NULL;
}

/* The display column where `label` starts in `line` (-1 when absent). */
static int col_of(const char *line, const char *label)
{
    const char *at = strstr(line, label);
    if (!at)
        return -1;
    char *pre = xstrndup(line, (size_t)(at - line));
    int c = disp_width(pre);
    free(pre);
    return c;
}

/* The text of `line` from display column `col` on ("" past its end). */
static const char *from_col(const char *line, int col)
{
    int used = 0;
    size_t n = disp_fit(line, col, &used);
    return used == col ? line + n : "";
}

/* The character at display column `col` (' ' past the end of the line). */
static char char_at(const char *line, int col)
{
    const char *s = from_col(line, col);
    return *s ? *s : ' ';
}

/* A left-aligned column: the cell starts where its header does, after a space. */
static void check_left(const char *what, const char *row, int col, const char *starts)
{
    if (char_at(row, col - 1) != ' ' || strncmp(from_col(row, col), starts, strlen(starts)) != 0)
        fail_msg("%s: column %d should start with '%s' after a space: %s", what, col, starts, row);
}

/* A right-aligned column: the cell ends where its header does. */
static void check_right(const char *what, const char *row, int end)
{
    if (char_at(row, end - 1) == ' ' || char_at(row, end) != ' ')
        fail_msg("%s: a figure should end at column %d: %s", what, end, row);
}

/* A right-aligned column that may be blank (the units of a line one mode lacks): when any of
 * columns [from, end) holds something, it ends at `end`. */
static void check_right_if_any(const char *what, const char *row, int from, int end)
{
    for (int c = from; c < end; c++)
        if (char_at(row, c) != ' ') {
            check_right(what, row, end);
            return;
        }
}

static void test_spanish_columns(void **state)
{
    (void)state;
    const char *err = NULL;
    if (!i18n_init("es", &err))
        fail_msg("no Spanish catalog: %s", err ? err : "?");
    if (strcmp(_("PATTERNS"), "PATTERNS") == 0)
        fail_msg("the build's catalog (po/es.po) does not translate the report");
    static const char *const samples[] = {"samples/cloudshop/design.yaml", "samples/iot/design.yaml",
                                          "samples/social/design.yaml", "tests/data/verify/utf8.yaml"};
    for (size_t i = 0; i < sizeof samples / sizeof *samples; i++) {
        kp_design *d = ts_load_file(samples[i]);
        assert_non_null(d);
        kp_analysis *a = analysis_run(d);
        char *text = report_check_text(samples[i], d, a);
        /* PATTERNS: one row per pattern under the header */
        const char *rows;
        char *h = line_after(text, _("PATTERNS"), &rows);
        assert_non_null(h);
        int c_name = col_of(h, _("pattern")), c_plan = col_of(h, _("plan")), c_index = col_of(h, _("index")),
            c_kc = col_of(h, _("key condition")), c_lat = col_of(h, _("latency/target"));
        int e_rcu = col_of(h, _("RCU/cal")) + disp_width(_("RCU/cal"));
        int e_rcus = col_of(h, _("RCU/s")) + disp_width(_("RCU/s"));
        assert_true(c_name > 0 && c_plan > c_name && c_index > c_plan && c_kc > c_index && e_rcu > c_kc &&
                    e_rcus > e_rcu && c_lat > e_rcus);
        for (size_t k = 0; k < a->npatterns; k++) {
            const kp_pattern_result *r = &a->patterns[k];
            const char *nl = strchr(rows, '\n');
            assert_non_null(nl);
            char *row = xstrndup(rows, (size_t)(nl - rows));
            rows = nl + 1;
            assert_true(strncmp(row, r->pattern->id, strlen(r->pattern->id)) == 0);
            check_left(samples[i], row, c_name, "");
            check_left(samples[i], row, c_plan, kp_plan_symbol(r->plan));
            bool shows = r->plan != KP_PLAN_OUTSIDE && r->plan != KP_PLAN_COVERED;
            if (shows)
                check_left(samples[i], row, c_index, r->index < 0 ? _("table") : "");
            if (r->key_condition && *r->key_condition) {
                char first[8];
                snprintf(first, sizeof first, "%.5s", r->key_condition);
                check_left(samples[i], row, c_kc, first);
            }
            check_right(samples[i], row, e_rcu);
            check_right(samples[i], row, e_rcus);
            if (shows && r->pattern->kind == KP_READ && char_at(row, c_lat) == ' ')
                fail_msg("%s: no latency at column %d: %s", samples[i], c_lat, row);
            if (disp_width(row) > 100)
                fail_msg("%s: %d columns: %s", samples[i], disp_width(row), row);
            free(row);
        }
        free(h);
        /* COST: the amounts end where their headers do, the names start after one space */
        char title[160];
        snprintf(title, sizeof title, _("COST per month (%s, 730 h)"),
                 a->on_demand.currency ? a->on_demand.currency : "USD");
        h = line_after(text, title, &rows);
        assert_non_null(h);
        int e_od = col_of(h, _("on-demand")) + disp_width(_("on-demand"));
        int e_amount = col_of(h, _("amount")) + disp_width(_("amount"));
        int e_pv = col_of(h, _("provisioned")) + disp_width(_("provisioned"));
        int e_amount2 = disp_width(h); /* the second amount ends the header */
        assert_true(e_od > 0 && e_amount > e_od && e_pv > e_amount && e_amount2 > e_pv);
        size_t nrows = 0;
        for (const char *l = rows; *l && *l != '\n'; nrows++) {
            const char *nl = strchr(l, '\n');
            char *row = xstrndup(l, nl ? (size_t)(nl - l) : strlen(l));
            l = nl ? nl + 1 : l + strlen(l);
            if (row[0] != ' ' || row[1] == ' ')
                fail_msg("%s: a cost line's name starts at column 1: %s", samples[i], row);
            check_right(samples[i], row, e_amount);
            check_right(samples[i], row, e_amount2);
            check_right_if_any(samples[i], row, col_of(h, _("on-demand")), e_od);
            check_right_if_any(samples[i], row, e_amount, e_pv);
            if (disp_width(row) > 100)
                fail_msg("%s: %d columns: %s", samples[i], disp_width(row), row);
            free(row);
        }
        assert_true(nrows >= 2);
        free(h);
        free(text);
        analysis_free(a);
        design_free(d);
    }
    assert_true(i18n_init("en", &err));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_samples),
        cmocka_unit_test(test_spanish_columns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
