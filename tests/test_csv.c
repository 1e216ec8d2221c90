/* test_csv.c - the CSV access-pattern table: export of the CloudShop patterns re-imports to the
 * same patterns; the reader's cases (BOM, CRLF, quotes, embedded newlines, UTF-8, ';' and tab,
 * Spanish headers with units); refusals with their line:col; the skeleton design around an
 * imported table validates and analyses; `keyplan import` of a CSV. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analysis.h"
#include "validate.h"
#include "csvio.h"
#include "design_io.h"
#include "exchange.h"
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_diags(const kp_diags *dg)
{
    for (size_t i = 0; i < dg->n; i++) {
        char *s = diags_format(dg, i);
        print_error("%s\n", s);
        free(s);
    }
}

static kp_design *load_sample(void)
{
    char *src = ts_source_path("samples/cloudshop/design.yaml");
    kp_diags dg;
    diags_init(&dg, src);
    kp_design *d = designio_load_file(src, &dg);
    if (!d)
        print_diags(&dg);
    assert_non_null(d);
    diags_free(&dg);
    free(src);
    return d;
}

static void free_patterns(kp_pattern *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        pattern_free(&v[i]);
    free(v);
}

static kp_pattern *read_ok(const char *csv, size_t *n)
{
    kp_diags dg;
    diags_init(&dg, "patterns.csv");
    kp_pattern *v = NULL;
    kp_status st = csvio_read_patterns(csv, strlen(csv), "patterns.csv", &dg, &v, n);
    if (st != KP_OK)
        print_diags(&dg);
    assert_int_equal(st, KP_OK);
    diags_free(&dg);
    return v;
}

/* ---- round trip ---------------------------------------------------------------------------- */

static void test_cloudshop_round_trip(void **state)
{
    (void)state;
    kp_design *d = load_sample();
    assert_true(d->npatterns >= 10);
    char *err = NULL;
    char *csv = exchange_export(d, NULL, "csv", &err);
    assert_non_null(csv);
    /* a header row and one row per pattern (CRLF, RFC 4180) */
    size_t lines = 0;
    for (const char *p = csv; (p = strstr(p, "\r\n")); p += 2)
        lines++;
    assert_true(lines >= d->npatterns + 1); /* quoted newlines may add more */
    assert_int_equal(strncmp(csv, "id,name,kind,entity,entities,by,rate", 36), 0);

    size_t n;
    kp_pattern *v = read_ok(csv, &n);
    assert_int_equal(n, d->npatterns);
    /* the design with its patterns replaced by the imported ones equals the original */
    kp_design *c = design_clone(d);
    free_patterns(c->patterns, c->npatterns);
    c->patterns = v;
    c->npatterns = n;
    if (!design_equal(d, c))
        print_error("%s\n", csv);
    assert_true(design_equal(d, c));
    design_free(c);
    free(csv);
    design_free(d);
}

/* ---- reader cases -------------------------------------------------------------------------- */

static void test_reader_cases(void **state)
{
    (void)state;
    /* BOM, CRLF, quoted fields with "" and an embedded newline, UTF-8 names, a multi-entity
     * pattern, fixed values, a join, every enum field */
    const char *csv =
        "\xEF\xBB\xBFid,name,kind,entity,entities,by,rate,latency,consistency,why,order,limit,range,filter,"
        "join,covered_by,needs,served_by,op,items,changes\r\n"
        "1,\"Líneas de un pedido, en orden\",read,OrderLine,,pedidoId,400,20,,,lineNo desc,20,,,,,,,,,\r\n"
        "2,\"Dirección \"\"casa\"\"\nde un cliente\",,,\"Customer, Address\",\"customerId, tipo=casa\",12,50,"
        "strong,\"the edit must show\",,,,,,,,,,,\r\n"
        "3,Followers,,,\"Follow, User\",followedUsername,5,,,,,,,,username=followingUsername,,,,,,\r\n"
        "4,Search,,,,,15,1000,,,,,,,,,search,search-index,,,\r\n"
        "5,Ship,write,Order,,orderId,19,50,,,,,,,,,,,update,1,status\r\n"
        "\r\n"
        "6,Covered,,Customer,,customerId,,,,,,,orderDate,\"total; status\",,2,,,,,\n";
    size_t n;
    kp_pattern *v = read_ok(csv, &n);
    assert_int_equal(n, 6);
    assert_string_equal(v[0].name, "Líneas de un pedido, en orden");
    assert_string_equal(v[0].order.s, "lineNo");
    assert_true(v[0].order_desc);
    assert_true(v[0].limit == 20);
    assert_false(v[0].multi_form);
    assert_string_equal(v[1].name, "Dirección \"casa\"\nde un cliente");
    assert_true(v[1].multi_form);
    assert_int_equal(v[1].nentities, 2);
    assert_string_equal(v[1].entities[1].s, "Address");
    assert_int_equal(v[1].nby, 2);
    assert_string_equal(v[1].by[1].attr.s, "tipo");
    assert_string_equal(v[1].by[1].value, "casa");
    assert_int_equal(v[1].consistency, KP_STRONG);
    assert_true(v[1].consistency_given);
    /* the quoted newline in row 2 (lines 3-4) moved the next row to line 5 */
    assert_int_equal(v[2].loc.line, 5);
    assert_int_equal(v[2].njoin, 1);
    assert_string_equal(v[2].join[0].to.s, "username");
    assert_string_equal(v[2].join[0].from.s, "followingUsername");
    assert_int_equal(v[3].needs, KP_NEEDS_SEARCH);
    assert_string_equal(v[3].served_by, "search-index");
    assert_int_equal(v[4].kind, KP_WRITE);
    assert_int_equal(v[4].op, KP_OP_UPDATE);
    assert_string_equal(v[4].changes[0].s, "status");
    assert_string_equal(v[5].id, "6");
    assert_string_equal(v[5].covered_by.s, "2");
    assert_int_equal(v[5].nfilter, 2);
    assert_string_equal(v[5].filter[1].s, "status");
    assert_string_equal(v[5].range.s, "orderDate");
    free_patterns(v, n);
}

/* The course's table as a spreadsheet keeps it: Spanish headers, ';', figures with units. */
static const struct figure {
    const char *rate, *latency;
    double want_rate, want_latency; /* NAN: left unset */
} FIGURES[] = {
    {"400", "< 20 ms", 400, 20},
    {"2/min", "< 1 s", 2.0 / 60, 1000},
    {"1 vez/día", "< 5 min", 1.0 / 86400, 300000},
    {"alta", "—", NAN, NAN},
    {"12,5", "0.5 s", 12.5, 500},
};

static void test_spanish_table_with_units(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof FIGURES / sizeof *FIGURES; i++) {
        char csv[512];
        snprintf(csv, sizeof csv,
                 "Nº;Patrón;Entidad;Se pide con;Veces/s;Latencia\n"
                 "7;pedidos de un día para el cierre contable;Pedido;fecha;%s;%s\n",
                 FIGURES[i].rate, FIGURES[i].latency);
        size_t n;
        kp_pattern *v = read_ok(csv, &n);
        assert_int_equal(n, 1);
        assert_string_equal(v[0].id, "7");
        assert_string_equal(v[0].entities[0].s, "Pedido");
        assert_string_equal(v[0].by[0].attr.s, "fecha");
        if (isnan(FIGURES[i].want_rate))
            assert_true(isnan(v[0].rate));
        else
            assert_true(fabs(v[0].rate - FIGURES[i].want_rate) < 1e-9);
        if (isnan(FIGURES[i].want_latency))
            assert_true(isnan(v[0].latency));
        else
            assert_true(fabs(v[0].latency - FIGURES[i].want_latency) < 1e-9);
        free_patterns(v, n);
    }
    /* tab separated, "cliente+fecha" splits */
    size_t n;
    kp_pattern *v = read_ok("name\tby\nrango\tcliente+fecha\n", &n);
    assert_int_equal(n, 1);
    assert_int_equal(v[0].nby, 2);
    assert_string_equal(v[0].by[1].attr.s, "fecha");
    assert_string_equal(v[0].id, "1");
    free_patterns(v, n);
}

/* ---- refusals ------------------------------------------------------------------------------ */

static const struct bad {
    const char *csv;
    const char *want; /* substring of the first error, formatted */
} BAD[] = {
    {"id,name\n1,\"never closed\n2,x\n", "patterns.csv:2:3: error: quoted field never closed"},
    {"id,name\n1,\"ok\"x\n", "patterns.csv:2:7: error: text after a closing quote"},
    {"id,name,kind\n1,a,read\n2,b,lectur\n", "patterns.csv:3:5: error: kind 'lectur'"},
    {"id,title\n1,a\n", "patterns.csv:1:1: error: the header row has no 'name' column"},
    {"id,name,limit\n1,a,twenty\n", "patterns.csv:2:5: error: limit 'twenty'; expected a number"},
    {"id,name,join\n1,a,username\n", "expected to=from pairs"},
    {"name,name\na,b\n", "patterns.csv:1:6: error: column 'name' repeats"},
    {"id,name\n1,a,extra\n", "patterns.csv:2:5: error: more fields than the header"},
    {"\n\n", "no header row"},
    {"id,name\n1,ca\xf1"
     "a\n",
     "patterns.csv:2:5: error: invalid UTF-8"},
};

static void test_refusals(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof BAD / sizeof *BAD; i++) {
        kp_diags dg;
        diags_init(&dg, "patterns.csv");
        kp_pattern *v = NULL;
        size_t n = 0;
        kp_status st = csvio_read_patterns(BAD[i].csv, strlen(BAD[i].csv), "patterns.csv", &dg, &v, &n);
        assert_int_not_equal(st, KP_OK);
        assert_null(v);
        assert_int_equal(n, 0);
        size_t first = 0;
        while (first < dg.n && dg.v[first].sev != KP_SEV_ERROR)
            first++;
        assert_true(first < dg.n);
        assert_int_equal(st, dg.v[first].code); /* the status is the first error's code */
        char *s = diags_format(&dg, first);
        if (!strstr(s, BAD[i].want))
            print_error("case %zu: got '%s', want '%s'\n", i, s, BAD[i].want);
        assert_non_null(strstr(s, BAD[i].want));
        free(s);
        diags_free(&dg);
    }
}

/* ---- the skeleton design, and the command line -------------------------------------------- */

static void test_skeleton_validates_and_analyses(void **state)
{
    (void)state;
    kp_design *d = load_sample();
    char *err = NULL;
    char *csv = exchange_export(d, NULL, "csv", &err);
    char *path = ts_write_temp("cloudshop patterns.csv", csv);
    kp_diags dg;
    diags_init(&dg, path);
    kp_design *s = exchange_import_file(path, &dg);
    if (!s)
        print_diags(&dg);
    assert_non_null(s);
    assert_true(dg.n >= 1); /* the skeleton is announced */
    diags_free(&dg);
    assert_int_equal(s->npatterns, d->npatterns);
    assert_non_null(design_entity(s, "OrderSummary"));
    assert_string_equal(s->name, "cloudshop patterns");
    assert_string_equal(s->table.name, "cloudshop-patterns"); /* a DynamoDB table name */
    kp_diags vd;
    diags_init(&vd, path);
    bool ok = validate_design(s, &vd);
    if (!ok) {
        print_diags(&vd);
        char *y = designio_save(s, NULL);
        print_error("%s\n", y);
        free(y);
    }
    assert_true(ok);
    diags_free(&vd);
    kp_analysis *a = analysis_run(s);
    assert_int_equal(a->npatterns, s->npatterns);
    analysis_free(a);

    const char *args[] = {"import", path, NULL};
    char *out = NULL, *errs = NULL;
    int rc = ts_run_keyplan(args, NULL, &out, &errs);
    if (rc != 0)
        print_error("%s\n", errs);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "Orders of a customer, newest first, paginated"));
    free(out);
    free(errs);

    char *bad = ts_write_temp("bad.csv", "id,name,kind\n1,a,sometimes\n");
    const char *args2[] = {"import", bad, NULL};
    rc = ts_run_keyplan(args2, NULL, &out, &errs);
    assert_int_equal(rc, 2);
    assert_non_null(strstr(errs, "bad.csv:2:5:"));
    free(out);
    free(errs);
    free(bad);
    /* the skeleton's entities and attributes keep their places in the CSV, and a name pasted
       whole is quoted cut in the messages about its entity */
    sbuf big;
    sbuf_init(&big);
    sbuf_add(&big, "id,name,entity,by\n1,see,");
    for (int i = 0; i < 3000; i++)
        sbuf_addc(&big, 'O');
    sbuf_add(&big, ",");
    for (int i = 0; i < 300; i++)
        sbuf_addc(&big, 'a');
    sbuf_add(&big, "\n");
    bad = ts_write_temp("long.csv", big.s);
    const char *args3[] = {"import", bad, NULL};
    rc = ts_run_keyplan(args3, NULL, &out, &errs);
    assert_int_equal(rc, 2);
    if (!strstr(errs, "long.csv:2:7: error: an entity name of 3000 bytes") ||
        !strstr(errs, "long.csv:2:3008: error: an attribute name of 300 bytes") ||
        !strstr(errs, "OOOO…': PK values reach") || strlen(errs) > 2000)
        fail_msg("the places and the cut names, in:\n%.3000s", errs);
    free(out);
    free(errs);
    free(bad);
    sbuf_free(&big);
    design_free(s);
    free(path);
    free(csv);
    design_free(d);
}

/* --into: the table's patterns into an existing design; only -o writes */
static void test_cli_into(void **state)
{
    (void)state;
    kp_design *d = load_sample();
    char *err = NULL;
    char *csv = exchange_export(d, NULL, "csv", &err);
    /* the spreadsheet raised pattern 1's rate */
    char *row = strstr(csv, "\r\n1,");
    assert_non_null(row);
    char *rate = strstr(row, ",400,");
    assert_non_null(rate);
    memcpy(rate, ",500,", 5);
    char *path = ts_write_temp("patterns.csv", csv);
    char *dir = ts_temp_dir();
    char *dst = malloc(strlen(dir) + 16);
    sprintf(dst, "%s/merged.yaml", dir);
    char *src = ts_source_path("samples/cloudshop/design.yaml");
    const char *args[] = {"import", path, "--into", src, "-o", dst, NULL};
    char *out = NULL, *errs = NULL;
    int rc = ts_run_keyplan(args, NULL, &out, &errs);
    if (rc != 0)
        print_error("%s\n", errs);
    assert_int_equal(rc, 0);
    free(out);
    free(errs);
    kp_diags dg;
    diags_init(&dg, dst);
    kp_design *m = designio_load_file(dst, &dg);
    assert_non_null(m);
    diags_free(&dg);
    assert_true(design_pattern(m, "1")->rate == 500);
    assert_int_equal(m->ndecisions, d->ndecisions);
    /* everything else is the design's */
    kp_design *c = design_clone(m);
    ((kp_pattern *)design_pattern(c, "1"))->rate = 400;
    assert_true(design_equal(c, d));
    design_free(c);
    design_free(m);

    /* a table without the patterns the decisions name: refused, the decision's place is in the
     * design file, nothing written */
    char *small = ts_write_temp("small.csv", "id,name,entity,by\n1,Get order,Order,orderId\n");
    char *dst2 = malloc(strlen(dir) + 16);
    sprintf(dst2, "%s/never.yaml", dir);
    const char *args2[] = {"import", small, "--into", src, "-o", dst2, NULL};
    rc = ts_run_keyplan(args2, NULL, &out, &errs);
    assert_int_equal(rc, 2);
    assert_non_null(strstr(errs, "design.yaml:"));
    assert_non_null(strstr(errs, "decision D1"));
    assert_null(ts_read_file(dst2, NULL));
    free(out);
    free(errs);
    free(small);
    free(dst2);
    free(src);
    free(dst);
    free(dir);
    free(path);
    free(csv);
    design_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cloudshop_round_trip),
        cmocka_unit_test(test_reader_cases),
        cmocka_unit_test(test_spanish_table_with_units),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_skeleton_validates_and_analyses),
        cmocka_unit_test(test_cli_into),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
