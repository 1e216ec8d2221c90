/* test_export_md.c - the decision record (Markdown and JSON) on the CloudShop sample and on
 * designs with awkward text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analysis.h"
#include "signals.h"
#include "design_io.h"
#include "diff.h"
#include "exchange.h"
#include "export_md.h"
#include "i18n.h"
#include "support.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

typedef struct fixture {
    kp_design *d;
    kp_analysis *a;
    sig_report sig;
    sig_observation obs[1];
    ws_version hist[2];
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    char *path = ts_source_path("samples/cloudshop/design.yaml");
    kp_diags dg;
    diags_init(&dg, path);
    f->d = designio_load_file(path, &dg);
    if (!f->d)
        diags_print(&dg, stderr);
    diags_free(&dg);
    free(path);
    if (!f->d)
        return -1;
    f->a = analysis_run(f->d);
    f->obs[0] = (sig_observation){1, (char *)"pattern.5.rate", 60, (char *)"2026-03-14T10:00:00Z",
                                  (char *)"cloudwatch"};
    sig_evaluate(f->d, f->a, f->obs, 1, &f->sig);
    f->hist[0] =
        (ws_version){1, 0, (char *)"2026-03-01T09:00:00Z", (char *)"ana", (char *)"first design", (char *)""};
    f->hist[1] = (ws_version){
        2, 1, (char *)"2026-03-02T09:00:00Z", (char *)"bea", (char *)"the nine patterns", (char *)""};
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    sig_report_free(&f->sig);
    analysis_free(f->a);
    design_free(f->d);
    free(f);
    return 0;
}

static export_record record(fixture *f)
{
    return (export_record){.design = f->d,
                           .analysis = f->a,
                           .signals = &f->sig,
                           .source = "cloudshop.keyplan",
                           .version = 2,
                           .history = f->hist,
                           .nhistory = 2,
                           .obs = f->obs,
                           .nobs = 1};
}

/* The text of the section whose heading starts with `heading`, up to the next "## ". */
static char *section(const char *md, const char *heading)
{
    const char *s = strstr(md, heading);
    if (!s)
        fail_msg("no section '%s'", heading);
    const char *e = strstr(s + 3, "\n## ");
    return e ? xstrndup(s, (size_t)(e - s)) : xstrdup(s);
}

static size_t unescaped_pipes(const char *line, size_t n)
{
    size_t k = 0;
    bool in_code = false;
    for (size_t i = 0; i < n; i++) {
        if (line[i] == '`')
            in_code = !in_code;
        if (line[i] == '|' && (i == 0 || line[i - 1] != '\\'))
            k++;
    }
    return k;
}

/* Every row of every table has as many cells as its header. */
static void check_tables(const char *md)
{
    const char *p = md;
    size_t want = 0;
    int lineno = 1;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n && p[0] == '|') {
            size_t k = unescaped_pipes(p, n);
            if (!want)
                want = k;
            else if (k != want)
                fail_msg("line %d has %zu cells separators, its table %zu: %.*s", lineno, k, want, (int)n, p);
        } else {
            want = 0;
        }
        lineno++;
        p += n + (e ? 1 : 0);
    }
}

static void test_cloudshop_record(void **state)
{
    fixture *f = *state;
    export_record r = record(f);
    char *md = export_md(&r, NULL);
    assert_non_null(md);
    static const char *const headings[] = {
        "# Decision record: CloudShop orders",
        "## 1. Access patterns",
        "## 2. Key design",
        "## 3. How each pattern",
        "## 4. Indexes",
        "## 5. Heat",
        "## 6. Cost per month",
        "## 7. Checklist",
        "## 8. Decisions",
        "## 9. Alerts",
        "## 10. Version history",
        "## 11. How to repeat",
    };
    const char *last = md;
    for (size_t i = 0; i < sizeof headings / sizeof *headings; i++) {
        const char *h = strstr(md, headings[i]);
        if (!h || h < last)
            fail_msg("heading '%s' missing or out of order", headings[i]);
        last = h;
    }
    check_tables(md);

    /* every pattern has its row with frequency and latency, and its plan */
    char *pats = section(md, "## 1. Access patterns");
    char *served = section(md, "## 3. How each pattern");
    for (size_t i = 0; i < f->d->npatterns; i++) {
        char *row = xasprintf("| %s | %s |", f->d->patterns[i].id, f->d->patterns[i].name);
        if (!strstr(pats, row) || !strstr(served, row))
            fail_msg("pattern row '%s' missing", row);
        free(row);
    }
    assert_non_null(strstr(pats, "| 1 | Get order by id | read | Order | `orderId` | 400 |"));
    assert_non_null(strstr(pats, "20 ms | eventual |"));
    assert_non_null(strstr(served, "`:pk = PEDIDO#{orderId}`"));
    assert_non_null(strstr(served, "| 1 | Get order by id | get `=` | table |"));
    free(pats);
    free(served);

    /* the key design as the seed prints it: PK | SK | entity */
    char *keys = section(md, "## 2. Key design");
    assert_non_null(strstr(keys, "| PK | SK | entity |"));
    assert_non_null(strstr(keys, "| `CLIENTE#{customerId}` | `PERFIL` | Customer |"));
    assert_non_null(strstr(keys, "| `PEDIDO#{orderId}` | `CABECERA` | Order |"));
    assert_non_null(strstr(keys, "### Index `GSI1`"));
    assert_non_null(strstr(keys, "sparse: only items where status in [paid, pending-shipment]"));
    free(keys);

    char *idx = section(md, "## 4. Indexes");
    assert_non_null(strstr(idx, "include (orderId, customerId, orderDate, total)"));
    assert_non_null(strstr(idx, "pattern 5, the warehouse panel"));
    free(idx);

    char *cost = section(md, "## 6. Cost");
    assert_non_null(strstr(cost, "| Line | On-demand | Provisioned |"));
    assert_non_null(strstr(cost, "| index writes |"));
    assert_non_null(strstr(cost, "| **total** |"));
    assert_non_null(strstr(cost, "EUR"));
    free(cost);

    char *check = section(md, "## 7. Checklist");
    for (int i = 1; i <= 11; i++) {
        char *row = xasprintf("\n| %d | ", i);
        assert_non_null(strstr(check, row));
        free(row);
    }
    free(check);

    /* decisions: every part the course asks for, and the fired one marked reopen */
    char *dec = section(md, "## 8. Decisions");
    for (size_t i = 0; i < f->d->ndecisions; i++) {
        char *h = xasprintf("### %s — %s", f->d->decisions[i].id, f->d->decisions[i].title);
        assert_non_null(strstr(dec, h));
        free(h);
    }
    assert_non_null(strstr(dec, "### D3 — Pending shipments share one sparse GSI1 partition — **REOPEN**"));
    assert_null(strstr(dec, "### D1 — One table for customers and their orders — **REOPEN**"));
    assert_non_null(strstr(
        dec, "| `pattern.5.rate > 50` | 2 | 60 (2026-03-14T10:00:00Z, cloudwatch) | **FIRED — reopen** |"));
    assert_non_null(strstr(dec, "| `index.GSI1.items > 100000` |"));
    assert_non_null(
        strstr(dec, "| shard ESTADO# over 10 suffixes | 2 queries/s do not pay for 10 reads and a merge |"));
    assert_non_null(strstr(dec, "- the warehouse panel stays under 50 queries/s"));
    assert_non_null(strstr(dec, "**Failure test (how we would see it fail).** throttled reads on GSI1"));
    assert_non_null(strstr(dec, "**Rollback.** shard the GSI1 key"));
    assert_non_null(strstr(dec, "**Limitations.** one partition holds every pending order"));
    free(dec);

    char *hist = section(md, "## 10. Version history");
    assert_non_null(strstr(hist, "| 2 (this) | 2026-03-02T09:00:00Z | bea | the nine patterns |"));
    assert_non_null(strstr(hist, "| 1 | 2026-03-01T09:00:00Z | ana | first design |"));
    assert_non_null(strstr(hist, "| `pattern.5.rate` | 60 |"));
    free(hist);

    /* the appendix holds the design itself: the record stands alone */
    const char *y = strstr(md, "```yaml\n");
    assert_non_null(y);
    y += 8;
    const char *ye = strstr(y, "```\n\n</details>");
    assert_non_null(ye);
    kp_diags dg;
    diags_init(&dg, "appendix");
    kp_design *back = designio_load_string(y, (size_t)(ye - y), "appendix", &dg);
    diags_free(&dg);
    assert_non_null(back);
    assert_true(design_equal(back, f->d));
    design_free(back);
    free(md);
}

static void test_no_reopen_without_observation(void **state)
{
    fixture *f = *state;
    sig_report none;
    sig_evaluate(f->d, f->a, NULL, 0, &none);
    export_record r = record(f);
    r.signals = &none;
    r.obs = NULL;
    r.nobs = 0;
    char *md = export_md(&r, NULL);
    assert_non_null(md);
    if (none.fired == 0)
        assert_null(strstr(md, "REOPEN"));
    assert_null(strstr(md, "### Observations recorded"));
    free(md);
    sig_report_free(&none);
}

static const char awkward[] =
    "keyplan: 1\n"
    "name: \"Tienda | línea\"\n"
    "table: { name: Tbl, pk: PK, sk: SK, streams: false, pitr: false }\n"
    "entities:\n"
    "  - name: Línea\n"
    "    count: 10\n"
    "    size: 100\n"
    "    attributes: [dirección]\n"
    "    keys: { PK: \"DIRECCIÓN#{dirección}\", SK: \"LÍNEA|1\" }\n"
    "patterns:\n"
    "  - { id: a1, name: \"Dirección | casa\", entity: Línea, by: [dirección], rate: 5, latency: 10,\n"
    "      why: \"multi\\nline\" }\n"
    "decisions:\n"
    "  - id: D|1\n"
    "    title: \"pipes | everywhere\"\n"
    "    context: \"two\\nlines\"\n";

static void test_awkward_text(void **state)
{
    (void)state;
    kp_diags dg;
    diags_init(&dg, "awkward.yaml");
    kp_design *d = designio_load_string(awkward, strlen(awkward), "awkward.yaml", &dg);
    if (!d)
        diags_print(&dg, stderr);
    diags_free(&dg);
    assert_non_null(d);
    kp_analysis *a = analysis_run(d);
    export_record r = {.design = d, .analysis = a, .source = "awkward.yaml"};
    char *md = export_md(&r, NULL);
    assert_non_null(md);
    check_tables(md);
    assert_non_null(strstr(md, "| a1 | Dirección \\| casa |"));
    assert_non_null(strstr(md, "`DIRECCIÓN#{dirección}`"));
    assert_non_null(strstr(md, "multi<br>line"));
    assert_non_null(strstr(md, "design file `awkward.yaml`"));
    assert_non_null(strstr(md, "Not from a workspace"));
    assert_non_null(
        strstr(md, "- decision D|1 lacks an alternative discarded, a falsifiable assumption, a failure test, "
                   "a rollback, a limitation and a reopening signal\n"));
    free(md);
    char *js = export_json(&r, NULL);
    assert_non_null(js);
    json_error_t je;
    json_t *root = json_loads(js, 0, &je);
    assert_non_null(root);
    assert_string_equal(
        json_string_value(json_object_get(json_array_get(json_object_get(root, "decisions"), 0), "id")),
        "D|1");
    json_decref(root);
    free(js);
    analysis_free(a);
    design_free(d);
}

static void test_json_record(void **state)
{
    fixture *f = *state;
    export_record r = record(f);
    char *js = export_json(&r, NULL);
    assert_non_null(js);
    json_error_t je;
    json_t *root = json_loads(js, 0, &je);
    if (!root)
        fail_msg("invalid JSON: %s at line %d", je.text, je.line);
    json_t *decs = json_object_get(root, "decisions");
    assert_int_equal(json_array_size(decs), f->d->ndecisions);
    size_t reopen = 0;
    for (size_t i = 0; i < json_array_size(decs); i++) {
        json_t *dj = json_array_get(decs, i);
        if (json_is_true(json_object_get(dj, "reopen"))) {
            reopen++;
            assert_string_equal(json_string_value(json_object_get(dj, "id")), "D3");
            json_t *s0 = json_array_get(json_object_get(dj, "signals"), 0);
            assert_true(json_is_true(json_object_get(s0, "fired")));
            assert_true(json_real_value(json_object_get(json_object_get(s0, "observed"), "value")) == 60);
        }
        assert_true(json_is_array(json_object_get(dj, "alternatives")));
    }
    assert_int_equal(reopen, 1);
    assert_int_equal(json_array_size(json_object_get(root, "history")), 2);
    assert_int_equal(json_integer_value(json_object_get(root, "version")), 2);
    assert_int_equal(json_array_size(json_object_get(root, "patterns")), f->d->npatterns);
    assert_non_null(json_object_get(root, "checklist"));
    json_decref(root);
    free(js);
}

/* The record says which version it is, or that it is an uncommitted working copy and of which
 * version (the workbench's :export); the JSON says so too. */
static void test_record_says_its_version(void **state)
{
    fixture *f = *state;
    export_record r = record(f);
    char *md = export_md(&r, NULL);
    assert_non_null(strstr(md, "Exported by keyplan from workspace `cloudshop.keyplan`, version 2"));
    assert_null(strstr(md, "uncommitted"));
    free(md);
    r.version = 0;
    r.working = true;
    r.working_base = 2;
    md = export_md(&r, NULL);
    assert_non_null(strstr(md,
                           "Exported by keyplan from workspace `cloudshop.keyplan`: an uncommitted working "
                           "copy (based on version 2, with changes not recorded in any version)."));
    free(md);
    r.working_base = 0;
    md = export_md(&r, NULL);
    assert_non_null(strstr(md, "an uncommitted working copy (no version committed yet)."));
    free(md);
    r.working_base = 2;
    char *js = export_json(&r, NULL);
    json_t *root = json_loads(js, 0, NULL);
    assert_non_null(root);
    assert_true(json_is_null(json_object_get(root, "version")));
    assert_true(json_is_true(json_object_get(root, "working_copy")));
    assert_int_equal(json_integer_value(json_object_get(root, "base")), 2);
    json_decref(root);
    free(js);
}

/* A global table: the record says where it is replicated, costs the replicas in both modes and
 * the checklist's item 10 names them. */
static void test_global_table_record(void **state)
{
    fixture *f = *state;
    f->d->table.replicas = xcalloc(2, sizeof *f->d->table.replicas);
    f->d->table.replicas[0] = str_make("eu-west-1", (kp_loc){0, 0});
    f->d->table.replicas[1] = str_make("sa-east-1", (kp_loc){0, 0});
    f->d->table.nreplicas = 2;
    analysis_free(f->a);
    f->a = analysis_run(f->d);
    export_record r = {.design = f->d, .analysis = f->a, .source = "design.yaml"};
    char *md = export_md(&r, NULL);
    assert_non_null(md);
    check_tables(md);
    assert_non_null(strstr(md, "**Global table**, replicated to `eu-west-1` and `sa-east-1`: every write is "
                               "written again in each replica region"));
    const char *rows[] = {"| replicated writes | ", "| replica storage | ", "| transfer | "};
    for (size_t i = 0; i < 3; i++)
        assert_non_null(strstr(md, rows[i]));
    assert_non_null(strstr(md, "replicas in eu-west-1, sa-east-1 costed (replicated writes, replica storage, "
                               "transfer)"));
    free(md);
}

/* The record in Spanish (the build's catalog, po/es.po): its headings and sentences in the course's
 * words, a global table's cost lines by their Spanish names, every table still whole; the record
 * in English again afterwards. */
static void test_spanish_record(void **state)
{
    fixture *f = *state;
    const char *err = NULL;
    if (!i18n_init("es", &err))
        fail_msg("no Spanish catalog: %s", err ? err : "?");
    f->d->table.replicas = xcalloc(1, sizeof *f->d->table.replicas);
    f->d->table.replicas[0] = str_make("eu-west-1", (kp_loc){0, 0});
    f->d->table.nreplicas = 1;
    analysis_free(f->a);
    f->a = analysis_run(f->d);
    export_record r = record(f);
    char *md = export_md(&r, NULL);
    assert_non_null(md);
    check_tables(md);
    static const char *const spanish[] = {
        "# Registro de decisiones: CloudShop orders",
        "## 1. Patrones de acceso",
        "| # | Patrón | Tipo | Entidades |",
        "## 2. Diseño de claves",
        "Clave de partición `PK`, clave de ordenación `SK`",
        "índice disperso: solo los elementos donde ",
        "## 3. Cómo se sirve cada patrón",
        "| consulta `~` | tabla | ",
        "## 4. Índices, y por qué existe cada uno",
        "## 5. Calor: dónde se concentra la carga",
        "## 6. Coste mensual (730 horas)",
        "| escrituras en índices | ",
        "| escrituras replicadas | ",
        "| almacén de réplicas | ",
        "## 7. Lista de comprobación (se cumplen ",
        "## 8. Decisiones",
        "**Alternativas descartadas**",
        "**Supuestos falsables**",
        "**Prueba de fallo (cómo veríamos que falla).**",
        "**Vuelta atrás.**",
        "**Señales de reapertura**",
        "## 10. Historial de versiones",
        "## 11. Cómo repetir este razonamiento",
    };
    for (size_t i = 0; i < sizeof spanish / sizeof *spanish; i++)
        if (!strstr(md, spanish[i]))
            fail_msg("the Spanish record has no '%s'", spanish[i]);
    static const char *const english[] = {
        "## 1. Access patterns", "**Alternatives discarded**", "Rollback.",
        "| index writes | ",     "Reopening signals",          "How to read it"};
    for (size_t i = 0; i < sizeof english / sizeof *english; i++)
        if (strstr(md, english[i]))
            fail_msg("the Spanish record still says '%s'", english[i]);
    free(md);
    assert_true(i18n_init("en", &err));
    md = export_md(&r, NULL);
    assert_non_null(strstr(md, "## 1. Access patterns"));
    free(md);
}

/* A version that changes what DynamoDB cannot change in place: the record says so before the diff,
 * with the migration's cost. */
static void test_irreversible_record(void **state)
{
    fixture *f = *state;
    kp_design *next = design_clone(f->d);
    next->indexes = xrealloc(next->indexes, (next->nindexes + 1) * sizeof *next->indexes);
    kp_index *x = &next->indexes[next->nindexes++];
    index_init(x);
    x->name = xstrdup("ByTotal");
    x->kind = KP_LSI;
    x->pk = str_make("PK", (kp_loc){0, 0});
    x->sk = str_make("total", (kp_loc){0, 0});
    x->projection = KP_PROJ_KEYS;
    kp_analysis *an = analysis_run(next);
    kp_diff df;
    diff_compute(f->d, f->a, NULL, next, an, NULL, &df);
    char *changes = diff_render(&df, "version 1", "version 2");
    diff_free(&df);
    export_record r = record(f);
    r.design = next;
    r.analysis = an;
    r.signals = NULL; /* the fixture's signals are of the other design */
    r.changes = changes;
    char *md = export_md(&r, NULL);
    assert_non_null(md);
    const char *callout =
        strstr(md, "> **Irreversible:** 1 change DynamoDB cannot make to the table in place; "
                   "the way there is a new table and a data migration (≈ ");
    assert_non_null(callout);
    /* before the diff itself, which lists the change and the migration */
    const char *block = strstr(md, "```text\nversion 1 → version 2");
    assert_non_null(block);
    assert_true(callout < block);
    assert_non_null(strstr(block, "  ! LSI ByTotal added: "));
    assert_non_null(strstr(block, "  $ migration to a new table: scan the old table, "));
    free(md);
    free(changes);
    analysis_free(an);
    design_free(next);
}

/* A design whose text is not UTF-8 (poked in by hand: nothing that builds a design lets it in)
 * cannot be saved: the record, the CloudFormation export and the import round trip say so. */
static void test_unsavable_design(void **state)
{
    fixture *f = *state;
    free(f->d->name);
    f->d->name = xstrdup("Tienda \xff");
    export_record r = record(f);
    char *err = NULL;
    assert_null(export_md(&r, &err));
    assert_string_equal(err, "YAML emitter: a scalar that is not UTF-8 text");
    free(err);
    err = NULL;
    assert_null(exchange_export(f->d, f->a, "cfn", &err));
    assert_non_null(strstr(err, "YAML emitter"));
    free(err);
    kp_diags dg;
    diags_init(&dg, NULL);
    assert_int_equal(exchange_import_roundtrip(f->d, &dg), EXCHANGE_NO_LOAD);
    assert_int_equal(dg.errors, 1);
    assert_string_equal(
        dg.v[0].msg,
        "the imported design cannot be saved as YAML: YAML emitter: a scalar that is not UTF-8 text");
    diags_free(&dg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_cloudshop_record, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_reopen_without_observation, setup, teardown),
        cmocka_unit_test(test_awkward_text),
        cmocka_unit_test_setup_teardown(test_json_record, setup, teardown),
        cmocka_unit_test_setup_teardown(test_record_says_its_version, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unsavable_design, setup, teardown),
        cmocka_unit_test_setup_teardown(test_global_table_record, setup, teardown),
        cmocka_unit_test_setup_teardown(test_irreversible_record, setup, teardown),
        cmocka_unit_test_setup_teardown(test_spanish_record, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
