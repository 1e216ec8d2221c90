/* test_analysis_es.c - the analysis speaks the reader's language: with the Spanish catalog, the
 * checklist's titles and reasons, the findings (place, message, fix) and the resolver's warnings
 * come out in Spanish, in the course's own words; back in English they are English again.
 *
 * The catalog is compiled here from po/es.po and the catalog parts under po/ (msgcat, msgfmt),
 * into a temporary KEYPLAN_LOCALEDIR, so the test reads the translations of the sources it tests. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analysis.h"
#include "diff.h"
#include "i18n.h"
#include "support.h"
#include "textf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Two entities on a table keyed by the order's status (few values), a GSI a strong read is
 * refused on, and an update that changes a key attribute. */
static const char *design_yaml =
    "keyplan: 1\nname: es\n"
    "table: { name: Shop, pk: PK, sk: SK, billing: on-demand, streams: true }\n"
    "indexes:\n"
    "  - { name: ByEmail, pk: email, projection: include, include: [customerId] }\n"
    "attributes:\n"
    "  customerId: { distinct: 100000 }\n"
    "  email: { distinct: 100000 }\n"
    "  orderId: { distinct: 5000000 }\n"
    "  status: { type: enum, values: { pending: 0.2, paid: 0.1, shipped: 0.7 } }\n"
    "entities:\n"
    "  - { name: Customer, count: 100000, size: 800, writes: 5, attributes: [customerId, email],\n"
    "      keys: { PK: \"C#{customerId}\", SK: \"PROFILE\" } }\n"
    "  - { name: Order, count: 5000000, size: 1000, writes: 20, attributes: [orderId, status],\n"
    "      keys: { PK: \"S#{status}\", SK: \"O#{orderId}\" } }\n"
    "patterns:\n"
    "  - { id: 1, name: customer, entity: Customer, by: [customerId], rate: 100, latency: 20 }\n"
    "  - { id: 2, name: customer by email, entity: Customer, by: [email], rate: 5, latency: 50,\n"
    "      consistency: strong, why: x }\n"
    "  - { id: 3, name: ship, kind: write, op: update, entity: Order, by: [orderId, status],\n"
    "      changes: [status], rate: 2 }\n";

/* The Spanish catalog the build compiled from po/es.po. */
static int setup(void **state)
{
    (void)state;
    setenv("KEYPLAN_LOCALEDIR", KP_BUILD_DIR "/locale", 1);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    const char *err = NULL;
    i18n_init("en", &err);
    return 0;
}

static const kp_finding *finding(const kp_analysis *a, const char *code)
{
    for (size_t i = 0; i < a->nfindings; i++)
        if (strcmp(a->findings[i].code, code) == 0)
            return &a->findings[i];
    return NULL;
}

static bool has_warning(const kp_analysis *a, const char *text)
{
    for (size_t i = 0; i < a->npatterns; i++)
        for (size_t w = 0; w < a->patterns[i].nwarnings; w++)
            if (strcmp(a->patterns[i].warnings[w], text) == 0)
                return true;
    return false;
}

static kp_analysis *run_in(const char *lang, kp_design **d)
{
    const char *err = NULL;
    assert_true(i18n_init(lang, &err));
    assert_string_equal(i18n_lang(), lang);
    *d = ts_load_text(design_yaml, "es.yaml");
    assert_non_null(*d);
    return analysis_run(*d);
}

/* The checklist in the course's words: titles, and a reason with its figures and names. */
static void test_checklist_spanish(void **state)
{
    (void)state;
    kp_design *d;
    kp_analysis *a = run_in("es", &d);
    static const struct {
        int item;
        const char *title;
    } titles[] = {
        {1, "Los patrones de acceso están escritos, con frecuencia y latencia"},
        {2, "La clave de partición está en casi todas las consultas"},
        {3, "La clave de partición reparte: muchos valores y tráfico distribuido"},
        {7, "Se sabe que un índice saturado hace fallar las escrituras"},
        {9, "Hay alerta de estrangulamiento y de clave caliente"},
        {10, "El coste incluye índices, flujos y copias"},
        {11, "Lo que no encaja se replica a otro almacén, no se fuerza"},
    };
    for (size_t i = 0; i < sizeof titles / sizeof *titles; i++)
        assert_string_equal(a->checklist[titles[i].item - 1].title, titles[i].title);
    assert_string_equal(a->checklist[0].why,
                        "los 3 patrones de DynamoDB tienen frecuencia y latencia exigida");
    assert_string_equal(a->checklist[9].why,
                        "indica pitr de forma explícita (true o false) para que el coste "
                        "sea completo");
    assert_string_equal(a->checklist[8].why,
                        "no hay alertas de limitación (throttling) ni de clave caliente");
    analysis_free(a);
    design_free(d);
}

/* A named mistake: its place, its message with the figures, and the course's correction. */
static void test_findings_spanish(void **state)
{
    (void)state;
    kp_design *d;
    kp_analysis *a = run_in("es", &d);
    const kp_finding *f = finding(a, "low-cardinality-pk");
    assert_non_null(f);
    assert_string_equal(f->where, "tabla S#{status}");
    assert_non_null(strstr(f->message,
                           "la clave de partición S#{status} depende solo de status; el valor más "
                           "caliente guarda el "));
    assert_string_equal(f->fix,
                        "Elige una clave con muchos valores y tráfico repartido; si ya es tarde, reparte "
                        "con sufijo, cachea o agrega antes de escribir.");
    /* the strong read a GSI refused is found in any language (it was found by its English words) */
    f = finding(a, "strong-read-gsi");
    assert_non_null(f);
    assert_string_equal(f->where, "patrón 2");
    assert_string_equal(f->message,
                        "'customer by email': lectura fuerte rechazada en un GSI para Customer: los GSI "
                        "son eventualmente consistentes");
    assert_string_equal(f->fix,
                        "Un índice global es eventualmente consistente, siempre: lee la tabla principal "
                        "donde se necesite el dato más reciente, o acepta lecturas eventuales.");
    /* a translation that reorders its arguments (%2$s ... %1$s) */
    assert_true(has_warning(a,
                            "cambio de clave: status de Order está en su clave de tabla: Delete + Put en una "
                            "transacción"));
    analysis_free(a);
    design_free(d);
}

/* The figures of the sentences in the reader's locale; printf's in English and in machine output. */
static void test_figures(void **state)
{
    (void)state;
    const char *err = NULL;
    assert_true(i18n_init("es", &err));
    char *t = textf("%.1f %% de %zu, %.0f, %g, %d", 99.84, (size_t)50041200, 1244.0, 0.5, -1234);
    assert_string_equal(t, "99,8 % de 50.041.200, 1.244, 0,5, -1.234");
    free(t);
    char nb[HUMANFMT_SIZE];
    assert_string_equal(textf_figure(nb, sizeof nb, 4.125, HF_PRINTF_G), "4,125");
    assert_string_equal(textf_figure(nb, sizeof nb, NAN, HF_PRINTF_G), "nan");
    i18n_machine_figures(); /* a machine format in Spanish */
    t = textf("%.1f %% de %zu", 99.84, (size_t)50041200);
    assert_string_equal(t, "99.8 % de 50041200");
    free(t);
    assert_true(i18n_init("en", &err));
    t = textf("%.1f %% de %zu, %.0f, %g, %d", 99.84, (size_t)50041200, 1244.0, 0.5, -1234);
    assert_string_equal(t, "99.8 % de 50041200, 1244, 0.5, -1234");
    free(t);
}

/* The designer's diff in Spanish: headline, section titles, labels (padded by display cells), and
 * the IRREVERSIBLE headline the decision record finds by that word. */
static void test_diff_spanish(void **state)
{
    (void)state;
    kp_design *a, *b;
    kp_analysis *aa = run_in("es", &a);
    char *after = xstrdup(design_yaml);
    char *at = strstr(after, "name: Shop,");
    assert_non_null(at);
    memcpy(at, "name: Shoq,", 11); /* the table's name: irreversible */
    b = ts_load_text(after, "es2.yaml");
    assert_non_null(b);
    kp_analysis *ab = analysis_run(b);
    kp_diff d;
    diff_compute(a, aa, NULL, b, ab, NULL, &d);
    char *text = diff_render(&d, "v1", "v2");
    assert_non_null(strstr(text, "\nEn resumen:\n"));
    assert_non_null(strstr(text,
                           "\n  IRREVERSIBLE: 1 cambio que DynamoDB no puede hacer en la tabla existente; el "
                           "camino es una tabla nueva y una migración de datos ("));
    assert_non_null(strstr(text, "\nIrreversible: DynamoDB no puede cambiar esta tabla sin recrearla\n"));
    assert_non_null(strstr(text, "una tabla no se renombra nunca"));
    free(text);
    diff_free(&d);
    analysis_free(ab);
    analysis_free(aa);
    design_free(b);
    design_free(a);
    free(after);
}

/* Back to English (the workbench's :set lang en): the same texts as without a catalog. */
static void test_english_again(void **state)
{
    (void)state;
    kp_design *d;
    kp_analysis *a = run_in("en", &d);
    assert_string_equal(a->checklist[1].title, "The partition key is in nearly every query");
    const kp_finding *f = finding(a, "strong-read-gsi");
    assert_non_null(f);
    assert_string_equal(f->where, "pattern 2");
    assert_string_equal(f->message,
                        "'customer by email': strong read refused on a GSI for Customer: GSIs are eventually "
                        "consistent");
    assert_true(
        has_warning(a, "key change: Order's status is in its table key: Delete + Put in a transaction"));
    analysis_free(a);
    design_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_checklist_spanish), cmocka_unit_test(test_findings_spanish),
        cmocka_unit_test(test_figures),           cmocka_unit_test(test_diff_spanish),
        cmocka_unit_test(test_english_again),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
