/* test_cfn.c - the CloudFormation export, parsed back with libyaml: the table, only key
 * attributes defined, key schema, GSIs/LSIs with their projections, billing mode and provisioned
 * units from the analysis, streams and PITR; a global table (replicas) in both billing modes; and
 * the exchange dispatcher's refusals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analysis.h"
#include "cfn.h"
#include "design_io.h"
#include "exchange.h"
#include "support.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

static void print_diags(const kp_diags *dg)
{
    for (size_t i = 0; i < dg->n; i++) {
        char *s = diags_format(dg, i);
        print_error("%s\n", s);
        free(s);
    }
}

static kp_design *load_text(const char *text)
{
    kp_diags dg;
    diags_init(&dg, "design.yaml");
    kp_design *d = designio_load_string(text, strlen(text), "design.yaml", &dg);
    if (!d)
        print_diags(&dg);
    assert_non_null(d);
    diags_free(&dg);
    return d;
}

/* ---- a tiny view over a libyaml document -------------------------------------------------- */

typedef struct ydoc {
    yaml_document_t doc;
} ydoc;

static void ydoc_load(ydoc *y, const char *text)
{
    yaml_parser_t p;
    assert_true(yaml_parser_initialize(&p));
    yaml_parser_set_input_string(&p, (const unsigned char *)text, strlen(text));
    int ok = yaml_parser_load(&p, &y->doc);
    if (!ok)
        print_error("YAML: %s at %zu:%zu\n%s\n", p.problem, p.problem_mark.line + 1,
                    p.problem_mark.column + 1, text);
    assert_true(ok);
    assert_non_null(yaml_document_get_root_node(&y->doc));
    yaml_parser_delete(&p);
}

static const char *sval(const yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static yaml_node_t *get(ydoc *y, yaml_node_t *map, const char *key)
{
    if (!map || map->type != YAML_MAPPING_NODE)
        return NULL;
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        const char *k = sval(yaml_document_get_node(&y->doc, p->key));
        if (k && !strcmp(k, key))
            return yaml_document_get_node(&y->doc, p->value);
    }
    return NULL;
}

static size_t count(const yaml_node_t *n)
{
    if (!n)
        return 0;
    if (n->type == YAML_SEQUENCE_NODE)
        return (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
    if (n->type == YAML_MAPPING_NODE)
        return (size_t)(n->data.mapping.pairs.top - n->data.mapping.pairs.start);
    return 0;
}

static yaml_node_t *item(ydoc *y, yaml_node_t *seq, size_t i)
{
    assert_true(i < count(seq));
    return yaml_document_get_node(&y->doc, seq->data.sequence.items.start[i]);
}

/* The single resource's Properties; the resource is of `type`. */
static yaml_node_t *resource_props(ydoc *y, const char *type)
{
    yaml_node_t *root = yaml_document_get_root_node(&y->doc);
    assert_string_equal(sval(get(y, root, "AWSTemplateFormatVersion")), "2010-09-09");
    yaml_node_t *res = get(y, root, "Resources");
    assert_int_equal(count(res), 1);
    yaml_node_t *t = yaml_document_get_node(&y->doc, res->data.mapping.pairs.start[0].value);
    assert_string_equal(sval(get(y, t, "Type")), type);
    return get(y, t, "Properties");
}

static yaml_node_t *table_props(ydoc *y) { return resource_props(y, "AWS::DynamoDB::Table"); }

static void check_key_schema(ydoc *y, yaml_node_t *ks, const char *pk, const char *sk)
{
    assert_int_equal(count(ks), sk ? 2 : 1);
    assert_string_equal(sval(get(y, item(y, ks, 0), "AttributeName")), pk);
    assert_string_equal(sval(get(y, item(y, ks, 0), "KeyType")), "HASH");
    if (sk) {
        assert_string_equal(sval(get(y, item(y, ks, 1), "AttributeName")), sk);
        assert_string_equal(sval(get(y, item(y, ks, 1), "KeyType")), "RANGE");
    }
}

static long units(double per_s, double target)
{
    double u = ceil(per_s / target - 1e-9);
    return u < 1 || !isfinite(u) ? 1 : (long)u;
}

static yaml_node_t *find_index(ydoc *y, yaml_node_t *seq, const char *name)
{
    for (size_t i = 0; i < count(seq); i++)
        if (!strcmp(sval(get(y, item(y, seq, i), "IndexName")), name))
            return item(y, seq, i);
    fail_msg("no index %s", name);
    return NULL;
}

/* ---- CloudShop: provisioned, two GSIs, streams and PITR ----------------------------------- */

static void test_cloudshop(void **state)
{
    (void)state;
    char *src = ts_source_path("samples/cloudshop/design.yaml");
    kp_diags dg;
    diags_init(&dg, src);
    kp_design *d = designio_load_file(src, &dg);
    if (!d)
        print_diags(&dg);
    assert_non_null(d);
    diags_free(&dg);
    kp_analysis *a = analysis_run(d);
    char *err = NULL;
    char *text = exchange_export(d, a, "cfn", &err);
    assert_non_null(text);

    ydoc y;
    ydoc_load(&y, text);
    yaml_node_t *p = table_props(&y);
    assert_string_equal(sval(get(&y, p, "TableName")), "CloudShop");
    assert_string_equal(sval(get(&y, p, "BillingMode")), "PROVISIONED");

    /* only the key attributes of the table and the indexes are defined */
    const char *keys[] = {"PK", "SK", "GSI1PK", "GSI1SK", "GSI2PK", "GSI2SK"};
    yaml_node_t *defs = get(&y, p, "AttributeDefinitions");
    assert_int_equal(count(defs), 6);
    for (size_t i = 0; i < 6; i++) {
        assert_string_equal(sval(get(&y, item(&y, defs, i), "AttributeName")), keys[i]);
        assert_string_equal(sval(get(&y, item(&y, defs, i), "AttributeType")), "S");
    }
    check_key_schema(&y, get(&y, p, "KeySchema"), "PK", "SK");

    /* capacity: peak units / target utilisation */
    double target = isnan(d->table.target_utilization) ? 0.7 : d->table.target_utilization;
    yaml_node_t *pt = get(&y, p, "ProvisionedThroughput");
    assert_non_null(pt);
    assert_int_equal(atol(sval(get(&y, pt, "ReadCapacityUnits"))), units(a->indexes[0].rcu_per_s, target));
    assert_int_equal(atol(sval(get(&y, pt, "WriteCapacityUnits"))), units(a->indexes[0].wcu_per_s, target));

    yaml_node_t *gsis = get(&y, p, "GlobalSecondaryIndexes");
    assert_int_equal(count(gsis), 2);
    yaml_node_t *g1 = find_index(&y, gsis, "GSI1");
    check_key_schema(&y, get(&y, g1, "KeySchema"), "GSI1PK", "GSI1SK");
    yaml_node_t *pr = get(&y, g1, "Projection");
    assert_string_equal(sval(get(&y, pr, "ProjectionType")), "INCLUDE");
    yaml_node_t *nk = get(&y, pr, "NonKeyAttributes");
    const kp_index *x1 = design_index(d, "GSI1");
    assert_int_equal(count(nk), x1->ninclude);
    for (size_t i = 0; i < x1->ninclude; i++)
        assert_string_equal(sval(item(&y, nk, i)), x1->include[i].s);
    yaml_node_t *gpt = get(&y, g1, "ProvisionedThroughput");
    assert_int_equal(atol(sval(get(&y, gpt, "WriteCapacityUnits"))), units(a->indexes[1].wcu_per_s, target));
    yaml_node_t *g2 = find_index(&y, gsis, "GSI2");
    assert_string_equal(sval(get(&y, get(&y, g2, "Projection"), "ProjectionType")), "KEYS_ONLY");
    assert_null(get(&y, get(&y, g2, "Projection"), "NonKeyAttributes"));
    assert_null(get(&y, p, "LocalSecondaryIndexes"));

    assert_non_null(sval(get(&y, get(&y, p, "StreamSpecification"), "StreamViewType")));
    assert_string_equal(
        sval(get(&y, get(&y, p, "PointInTimeRecoverySpecification"), "PointInTimeRecoveryEnabled")), "true");

    yaml_document_delete(&y.doc);
    free(text);
    analysis_free(a);
    design_free(d);
    free(src);
}

/* ---- on demand, an LSI on a number, UTF-8 names, nothing optional ------------------------- */

static const char *TIENDA =
    "keyplan: 1\n"
    "name: Tienda\n"
    "table: { name: Tienda, pk: PK, sk: SK, billing: on-demand, streams: false, pitr: false }\n"
    "indexes:\n"
    "  - { name: PorTotal, type: lsi, pk: PK, sk: total, projection: include, include: [dirección] }\n"
    "  - { name: PorCliente, pk: clienteId, projection: keys }\n"
    "attributes:\n"
    "  total: { type: number }\n"
    "entities:\n"
    "  - name: Línea\n"
    "    count: 1000\n"
    "    size: 200\n"
    "    attributes: [clienteId, total, dirección]\n"
    "    keys: { PK: \"PEDIDO#{pedidoId}\", SK: \"LÍNEA#{n}\" }\n"
    "patterns:\n"
    "  - { id: 1, name: Líneas de un pedido, entity: Línea, by: [pedidoId], rate: 10, latency: 20 }\n";

static void test_on_demand_lsi_utf8(void **state)
{
    (void)state;
    kp_design *d = load_text(TIENDA);
    char *err = NULL;
    char *text = cfn_export(d, NULL, &err);
    assert_non_null(text);
    ydoc y;
    ydoc_load(&y, text);
    yaml_node_t *p = table_props(&y);
    assert_string_equal(sval(get(&y, p, "BillingMode")), "PAY_PER_REQUEST");
    assert_null(get(&y, p, "ProvisionedThroughput"));
    assert_null(get(&y, p, "StreamSpecification"));
    assert_null(get(&y, p, "PointInTimeRecoverySpecification"));
    yaml_node_t *defs = get(&y, p, "AttributeDefinitions");
    assert_int_equal(count(defs), 4); /* PK, SK, total, clienteId */
    assert_string_equal(sval(get(&y, item(&y, defs, 2), "AttributeName")), "total");
    assert_string_equal(sval(get(&y, item(&y, defs, 2), "AttributeType")), "N");
    assert_string_equal(sval(get(&y, item(&y, defs, 3), "AttributeType")), "S");
    yaml_node_t *lsis = get(&y, p, "LocalSecondaryIndexes");
    assert_int_equal(count(lsis), 1);
    yaml_node_t *l = item(&y, lsis, 0);
    check_key_schema(&y, get(&y, l, "KeySchema"), "PK", "total");
    assert_null(get(&y, l, "ProvisionedThroughput"));
    assert_string_equal(sval(item(&y, get(&y, get(&y, l, "Projection"), "NonKeyAttributes"), 0)),
                        "dirección");
    yaml_node_t *gsis = get(&y, p, "GlobalSecondaryIndexes");
    assert_int_equal(count(gsis), 1);
    check_key_schema(&y, get(&y, item(&y, gsis, 0), "KeySchema"), "clienteId", NULL);
    assert_null(get(&y, item(&y, gsis, 0), "ProvisionedThroughput"));
    yaml_document_delete(&y.doc);
    free(text);
    design_free(d);
}

/* ---- a global table: CloudShop replicated to two more regions ---------------------------- */

static kp_design *cloudshop_replicated(kp_billing billing)
{
    kp_design *d = ts_load_file("samples/cloudshop/design.yaml");
    assert_non_null(d);
    d->table.billing = billing;
    d->table.replicas = xcalloc(2, sizeof *d->table.replicas);
    d->table.replicas[0] = str_make("eu-west-1", (kp_loc){0, 0});
    d->table.replicas[1] = str_make("ap-southeast-2", (kp_loc){0, 0});
    d->table.nreplicas = 2;
    return d;
}

/* {MinCapacity 1, MaxCapacity max, TargetTrackingScalingPolicyConfiguration {TargetValue}} under
 * settings[inner]. */
static void check_autoscaling(ydoc *y, yaml_node_t *settings, const char *inner, long max, const char *target)
{
    yaml_node_t *as = get(y, settings, inner);
    assert_non_null(as);
    assert_int_equal(atol(sval(get(y, as, "MinCapacity"))), 1);
    assert_int_equal(atol(sval(get(y, as, "MaxCapacity"))), max);
    assert_string_equal(sval(get(y, get(y, as, "TargetTrackingScalingPolicyConfiguration"), "TargetValue")),
                        target);
}

static void test_global_table(void **state)
{
    (void)state;
    for (int mode = 0; mode < 2; mode++) {
        kp_design *d = cloudshop_replicated(mode ? KP_BILLING_PROVISIONED : KP_BILLING_ON_DEMAND);
        d->table.streams = KP_FALSE; /* the stream is there anyway: replication needs it */
        kp_analysis *a = analysis_run(d);
        char *err = NULL;
        char *text = cfn_export(d, a, &err);
        assert_non_null(text);
        ydoc y;
        ydoc_load(&y, text);
        yaml_node_t *p = resource_props(&y, "AWS::DynamoDB::GlobalTable");
        assert_string_equal(sval(get(&y, p, "TableName")), "CloudShop");
        assert_string_equal(sval(get(&y, p, "BillingMode")), mode ? "PROVISIONED" : "PAY_PER_REQUEST");
        check_key_schema(&y, get(&y, p, "KeySchema"), "PK", "SK");
        assert_int_equal(count(get(&y, p, "AttributeDefinitions")), 6);
        assert_string_equal(sval(get(&y, get(&y, p, "StreamSpecification"), "StreamViewType")),
                            "NEW_AND_OLD_IMAGES");
        /* a GlobalTable has no table-level throughput or PITR: they are per replica */
        assert_null(get(&y, p, "ProvisionedThroughput"));
        assert_null(get(&y, p, "PointInTimeRecoverySpecification"));
        yaml_node_t *reps = get(&y, p, "Replicas");
        assert_int_equal(count(reps), 3);
        /* the stack's own region first, then the design's replicas */
        assert_string_equal(sval(get(&y, get(&y, item(&y, reps, 0), "Region"), "Ref")), "AWS::Region");
        assert_string_equal(sval(get(&y, item(&y, reps, 1), "Region")), "eu-west-1");
        assert_string_equal(sval(get(&y, item(&y, reps, 2), "Region")), "ap-southeast-2");
        double target = isnan(d->table.target_utilization) ? 0.7 : d->table.target_utilization;
        char tv[16];
        snprintf(tv, sizeof tv, "%g", round(target * 1000) / 10);
        yaml_node_t *gsis = get(&y, p, "GlobalSecondaryIndexes");
        assert_int_equal(count(gsis), 2);
        for (size_t r = 0; r < 3; r++) {
            yaml_node_t *rep = item(&y, reps, r);
            assert_string_equal(
                sval(get(&y, get(&y, rep, "PointInTimeRecoverySpecification"), "PointInTimeRecoveryEnabled")),
                "true");
            if (!mode) {
                assert_null(get(&y, rep, "ReadProvisionedThroughputSettings"));
                continue;
            }
            check_autoscaling(&y, get(&y, rep, "ReadProvisionedThroughputSettings"),
                              "ReadCapacityAutoScalingSettings", units(a->indexes[0].rcu_per_s, target), tv);
            yaml_node_t *rg = get(&y, rep, "GlobalSecondaryIndexes");
            assert_int_equal(count(rg), 2);
            for (size_t g = 0; g < 2; g++) {
                ptrdiff_t x = design_index_pos(d, sval(get(&y, item(&y, rg, g), "IndexName")));
                assert_true(x >= 0);
                check_autoscaling(&y, get(&y, item(&y, rg, g), "ReadProvisionedThroughputSettings"),
                                  "ReadCapacityAutoScalingSettings",
                                  units(a->indexes[x + 1].rcu_per_s, target), tv);
            }
        }
        if (mode) {
            check_autoscaling(&y, get(&y, p, "WriteProvisionedThroughputSettings"),
                              "WriteCapacityAutoScalingSettings", units(a->indexes[0].wcu_per_s, target), tv);
            yaml_node_t *g1 = find_index(&y, gsis, "GSI1");
            assert_null(get(&y, g1, "ProvisionedThroughput"));
            check_autoscaling(&y, get(&y, g1, "WriteProvisionedThroughputSettings"),
                              "WriteCapacityAutoScalingSettings", units(a->indexes[1].wcu_per_s, target), tv);
        } else {
            assert_null(get(&y, p, "WriteProvisionedThroughputSettings"));
        }
        yaml_document_delete(&y.doc);
        free(text);
        analysis_free(a);
        design_free(d);
    }
}

/* ---- the dispatcher ------------------------------------------------------------------------ */

static void test_formats(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        bool known;
    } F[] = {{"cfn", true},   {"nosqlwb", true}, {"csv", true},  {"requests", true},
             {"items", true}, {"md", false},     {"CFN", false}, {"", false}};
    for (size_t i = 0; i < sizeof F / sizeof *F; i++)
        assert_int_equal(exchange_has_format(F[i].name), F[i].known);
    kp_design *d = load_text(TIENDA);
    char *err = NULL;
    assert_null(exchange_export(d, NULL, "xml", &err));
    assert_non_null(err);
    assert_non_null(strstr(err, "unknown export format 'xml'"));
    free(err);
    err = NULL;
    char *csv = exchange_export(d, NULL, "csv", &err);
    assert_non_null(csv);
    assert_non_null(strstr(csv, "Líneas de un pedido"));
    free(csv);
    design_free(d);

    /* requests and items go to storage/requests.c: JSON out */
    char *src = ts_source_path("samples/cloudshop/design.yaml");
    kp_diags dg;
    diags_init(&dg, src);
    d = designio_load_file(src, &dg);
    assert_non_null(d);
    diags_free(&dg);
    kp_analysis *a = analysis_run(d);
    const char *json_formats[] = {"requests", "items", "nosqlwb"};
    for (size_t i = 0; i < 3; i++) {
        err = NULL;
        char *out = exchange_export(d, a, json_formats[i], &err);
        if (!out)
            print_error("%s: %s\n", json_formats[i], err ? err : "?");
        assert_non_null(out);
        json_error_t je;
        json_t *j = json_loads(out, 0, &je);
        assert_non_null(j);
        json_decref(j);
        free(out);
    }
    analysis_free(a);
    design_free(d);
    free(src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cloudshop),
        cmocka_unit_test(test_on_demand_lsi_utf8),
        cmocka_unit_test(test_global_table),
        cmocka_unit_test(test_formats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
