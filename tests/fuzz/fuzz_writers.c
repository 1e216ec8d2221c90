/* fuzz_writers.c - libFuzzer target: every writer on every design that loads. The decision record
 * (Markdown) is written; the JSON record, the NoSQL Workbench model and the requests are JSON that
 * parses back; CloudFormation is YAML that parses back; the CSV table reads back with as many
 * patterns. Whatever the figures (1e308, inf costs), nothing crashes and nothing is cut short. */
#include "fuzz_common.h"

#include "cfn.h"
#include "csvio.h"
#include "export_md.h"
#include "nosqlwb.h"
#include "requests.h"

#include <jansson.h>
#include <yaml.h>

static void must_json(const char *what, char *text, char *err)
{
    if (!text) {
        fprintf(stderr, "WRITER BUG: %s failed: %s\n", what, err ? err : "?");
        abort();
    }
    json_error_t e;
    json_t *j = json_loads(text, 0, &e);
    if (!j) {
        fprintf(stderr, "WRITER BUG: %s is not JSON (%d:%d %s)\n", what, e.line, e.column, e.text);
        abort();
    }
    json_decref(j);
    free(text);
}

static void must_yaml(const char *what, char *text, char *err)
{
    if (!text) {
        fprintf(stderr, "WRITER BUG: %s failed: %s\n", what, err ? err : "?");
        abort();
    }
    yaml_parser_t p;
    yaml_parser_initialize(&p);
    yaml_parser_set_input_string(&p, (const unsigned char *)text, strlen(text));
    yaml_document_t doc;
    if (!yaml_parser_load(&p, &doc)) {
        fprintf(stderr, "WRITER BUG: %s is not YAML: %s\n", what, p.problem ? p.problem : "?");
        abort();
    }
    yaml_document_delete(&doc);
    yaml_parser_delete(&p);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    kp_diags dg;
    diags_init(&dg, "fuzz.yaml");
    kp_design *d = designio_load_string((const char *)data, size, "fuzz.yaml", &dg);
    diags_free(&dg);
    if (!d)
        return 0;
    kp_analysis *a = analysis_run(d);
    export_record r = {.design = d, .analysis = a, .source = "fuzz.yaml"};
    char *err = NULL;
    char *md = export_md(&r, &err);
    if (!md) {
        fprintf(stderr, "WRITER BUG: export_md failed: %s\n", err ? err : "?");
        abort();
    }
    free(md);
    must_json("export_json", export_json(&r, &err), err);
    must_json("nosqlwb_export", nosqlwb_export(d, a, &err), err);
    must_json("requests_export", requests_export(d, a, &err), err);
    if (d->table.pk.s)
        must_yaml("cfn_export", cfn_export(d, a, &err), err);
    char *csv = csvio_export(d, &err);
    if (csv) {
        kp_pattern *pats = NULL;
        size_t n = 0;
        kp_diags cd;
        diags_init(&cd, "fuzz.csv");
        if (csvio_read_patterns(csv, strlen(csv), "fuzz.csv", &cd, &pats, &n) != KP_OK || n != d->npatterns) {
            diags_print(&cd, stderr);
            fprintf(stderr, "WRITER BUG: the CSV export does not read back (%zu of %zu patterns)\n%s\n", n,
                    d->npatterns, csv);
            abort();
        }
        for (size_t i = 0; i < n; i++)
            pattern_free(&pats[i]);
        free(pats);
        diags_free(&cd);
        free(csv);
    } else
        free(err);
    analysis_free(a);
    design_free(d);
    return 0;
}
