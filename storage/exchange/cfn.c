/* cfn.c - CloudFormation export through libyaml's emitter (no hand escaping): an
 * AWS::DynamoDB::Table, or an AWS::DynamoDB::GlobalTable when the design has replicas (see
 * cfn.h). */
#include "cfn.h"

#include "item.h"
#include "yamlout.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void cfn_capacity(const kp_design *d, const kp_analysis *a, ptrdiff_t index, long *rcu, long *wcu)
{
    double target = d->table.target_utilization;
    if (!(target > 0 && target <= 1))
        target = 0.7;
    double r = 0, w = 0;
    size_t slot = (size_t)(index + 1);
    if (a && slot < a->nindexes) {
        r = a->indexes[slot].rcu_per_s;
        w = a->indexes[slot].wcu_per_s;
    }
    r = isfinite(r) && r > 0 ? ceil(r / target - 1e-9) : 1;
    w = isfinite(w) && w > 0 ? ceil(w / target - 1e-9) : 1;
    *rcu = r < 1 ? 1 : (long)r;
    *wcu = w < 1 ? 1 : (long)w;
}

const char *cfn_key_type(const kp_design *d, const char *attr)
{
    /* the type the model sorts by and verify creates the table with (item_key_type): a number
     * only when every template filling the attribute is one unformatted number placeholder; a
     * number inside text, or text for another entity, makes it a string key that sorts as text */
    return kp_vtype_name(item_key_type(d, attr));
}

/* ---- emitter helpers ------------------------------------------------------------------------ */

typedef yamlout em;

static void scalar(em *m, const char *s) { yamlout_scalar(m, s, YAML_ANY_SCALAR_STYLE); }

/* A string that must stay a string for YAML readers ("2010-09-09", "true", "123"). */
static void qscalar(em *m, const char *s) { yamlout_scalar(m, s, YAML_DOUBLE_QUOTED_SCALAR_STYLE); }

static void number(em *m, long v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%ld", v);
    scalar(m, buf);
}

static void map_start(em *m) { yamlout_map(m, false); }
static void map_end(em *m) { yamlout_map_end(m); }
static void seq_start(em *m) { yamlout_seq(m, false); }
static void seq_end(em *m) { yamlout_seq_end(m); }

static void kv(em *m, const char *k, const char *v)
{
    scalar(m, k);
    scalar(m, v);
}

/* A key and a name of the design (attribute, index, table): any text, quoted when a YAML reader
 * would take it for a boolean, a number or null ("on", "1e3"). */
static void kv_name(em *m, const char *k, const char *name)
{
    scalar(m, k);
    yamlout_text(m, name);
}

/* ---- the template ---------------------------------------------------------------------------- */

static void key_schema(em *m, const char *pk, const char *sk)
{
    scalar(m, "KeySchema");
    seq_start(m);
    map_start(m);
    kv_name(m, "AttributeName", pk);
    kv(m, "KeyType", "HASH");
    map_end(m);
    if (sk) {
        map_start(m);
        kv_name(m, "AttributeName", sk);
        kv(m, "KeyType", "RANGE");
        map_end(m);
    }
    seq_end(m);
}

static void throughput(em *m, long r, long w)
{
    scalar(m, "ProvisionedThroughput");
    map_start(m);
    scalar(m, "ReadCapacityUnits");
    number(m, r);
    scalar(m, "WriteCapacityUnits");
    number(m, w);
    map_end(m);
}

/* A global table's capacity: auto scaling from 1 to the units the peak needs at the target
 * utilisation (CloudFormation requires auto scaling for a global table's writes). */
static void autoscaling(em *m, const char *key, const char *inner, long max, double target)
{
    scalar(m, key);
    map_start(m);
    scalar(m, inner);
    map_start(m);
    scalar(m, "MinCapacity");
    number(m, 1);
    scalar(m, "MaxCapacity");
    number(m, max);
    scalar(m, "TargetTrackingScalingPolicyConfiguration");
    map_start(m);
    scalar(m, "TargetValue");
    char buf[32];
    snprintf(buf, sizeof buf, "%g", round(target * 1000) / 10);
    scalar(m, buf);
    map_end(m);
    map_end(m);
    map_end(m);
}

static void pitr_on(em *m)
{
    scalar(m, "PointInTimeRecoverySpecification");
    map_start(m);
    scalar(m, "PointInTimeRecoveryEnabled");
    scalar(m, "true");
    map_end(m);
}

/* One replica of a global table: its region (the stack's own for the first), continuous backups
 * and, provisioned, read capacity for the table and each GSI there. */
static void replica(em *m, const kp_design *d, const kp_analysis *a, const char *region, double target)
{
    map_start(m);
    scalar(m, "Region");
    if (region) {
        scalar(m, region);
    } else {
        map_start(m);
        kv(m, "Ref", "AWS::Region");
        map_end(m);
    }
    if (d->table.pitr == KP_TRUE)
        pitr_on(m);
    if (d->table.billing == KP_BILLING_PROVISIONED) {
        long r, w;
        cfn_capacity(d, a, -1, &r, &w);
        autoscaling(m, "ReadProvisionedThroughputSettings", "ReadCapacityAutoScalingSettings", r, target);
        bool any = false;
        for (size_t i = 0; i < d->nindexes; i++) {
            if (d->indexes[i].kind != KP_GSI)
                continue;
            if (!any) {
                scalar(m, "GlobalSecondaryIndexes");
                seq_start(m);
                any = true;
            }
            map_start(m);
            kv(m, "IndexName", d->indexes[i].name);
            cfn_capacity(d, a, (ptrdiff_t)i, &r, &w);
            autoscaling(m, "ReadProvisionedThroughputSettings", "ReadCapacityAutoScalingSettings", r, target);
            map_end(m);
        }
        if (any)
            seq_end(m);
    }
    map_end(m);
}

static void projection(em *m, const kp_index *x)
{
    scalar(m, "Projection");
    map_start(m);
    kv(m, "ProjectionType",
       x->projection == KP_PROJ_KEYS      ? "KEYS_ONLY"
       : x->projection == KP_PROJ_INCLUDE ? "INCLUDE"
                                          : "ALL");
    if (x->projection == KP_PROJ_INCLUDE && x->ninclude) {
        scalar(m, "NonKeyAttributes");
        seq_start(m);
        for (size_t i = 0; i < x->ninclude; i++)
            yamlout_text(m, x->include[i].s);
        seq_end(m);
    }
    map_end(m);
}

/* CloudFormation logical ids are alphanumeric. */
static char *logical_id(const char *name)
{
    sbuf b;
    sbuf_init(&b);
    bool up = true;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        if (isalnum(*p) && *p < 0x80) {
            sbuf_addc(&b, up ? (char)toupper(*p) : (char)*p);
            up = false;
        } else
            up = true;
    }
    if (!b.len || isdigit((unsigned char)b.s[0])) {
        sbuf b2;
        sbuf_init(&b2);
        sbuf_add(&b2, "Table");
        if (b.len)
            sbuf_add(&b2, b.s);
        sbuf_free(&b);
        return sbuf_steal(&b2);
    }
    sbuf_add(&b, "Table");
    return sbuf_steal(&b);
}

static void add_def(const char ***defs, size_t *n, const char *a)
{
    if (!a)
        return;
    for (size_t i = 0; i < *n; i++)
        if (!strcmp((*defs)[i], a))
            return;
    *defs = xrealloc(*defs, (*n + 1) * sizeof **defs);
    (*defs)[(*n)++] = a;
}

char *cfn_export(const kp_design *d, const kp_analysis *a, char **err)
{
    if (!d->table.pk.s || !*d->table.pk.s) {
        *err = xstrdup("the design has no table partition key; CloudFormation needs one");
        return NULL;
    }
    const char *tname = d->table.name && *d->table.name ? d->table.name : (d->name ? d->name : "Table");
    bool prov = d->table.billing == KP_BILLING_PROVISIONED, global = d->table.nreplicas > 0;
    double target = d->table.target_utilization;
    if (!(target > 0 && target <= 1))
        target = 0.7;
    em m;
    yamlout_open(&m, 0, 100);
    map_start(&m);
    scalar(&m, "AWSTemplateFormatVersion");
    qscalar(&m, "2010-09-09");
    char *desc = xasprintf("DynamoDB %stable %s, generated by keyplan from the design '%s'",
                           global ? "global " : "", tname, d->name ? d->name : tname);
    kv(&m, "Description", desc);
    free(desc);
    scalar(&m, "Resources");
    map_start(&m);
    char *lid = logical_id(tname);
    scalar(&m, lid);
    map_start(&m);
    kv(&m, "Type", global ? "AWS::DynamoDB::GlobalTable" : "AWS::DynamoDB::Table");
    scalar(&m, "Properties");
    map_start(&m);
    kv_name(&m, "TableName", tname);
    kv(&m, "BillingMode", prov ? "PROVISIONED" : "PAY_PER_REQUEST");

    const char **defs = NULL;
    size_t ndefs = 0;
    add_def(&defs, &ndefs, d->table.pk.s);
    add_def(&defs, &ndefs, d->table.sk.s);
    for (size_t i = 0; i < d->nindexes; i++) {
        add_def(&defs, &ndefs, d->indexes[i].pk.s);
        add_def(&defs, &ndefs, d->indexes[i].sk.s);
    }
    scalar(&m, "AttributeDefinitions");
    seq_start(&m);
    for (size_t i = 0; i < ndefs; i++) {
        map_start(&m);
        kv_name(&m, "AttributeName", defs[i]);
        kv(&m, "AttributeType", cfn_key_type(d, defs[i]));
        map_end(&m);
    }
    seq_end(&m);
    free(defs);
    key_schema(&m, d->table.pk.s, d->table.sk.s);
    if (prov) {
        long r, w;
        cfn_capacity(d, a, -1, &r, &w);
        if (global) /* reads are set per replica */
            autoscaling(&m, "WriteProvisionedThroughputSettings", "WriteCapacityAutoScalingSettings", w,
                        target);
        else
            throughput(&m, r, w);
    }
    for (int pass = 0; pass < 2; pass++) {
        kp_index_kind kind = pass == 0 ? KP_GSI : KP_LSI;
        bool any = false;
        for (size_t i = 0; i < d->nindexes; i++)
            any = any || d->indexes[i].kind == kind;
        if (!any)
            continue;
        scalar(&m, kind == KP_GSI ? "GlobalSecondaryIndexes" : "LocalSecondaryIndexes");
        seq_start(&m);
        for (size_t i = 0; i < d->nindexes; i++) {
            const kp_index *x = &d->indexes[i];
            if (x->kind != kind)
                continue;
            map_start(&m);
            kv_name(&m, "IndexName", x->name);
            key_schema(&m, x->pk.s, x->sk.s);
            projection(&m, x);
            if (prov && kind == KP_GSI) {
                long r, w;
                cfn_capacity(d, a, (ptrdiff_t)i, &r, &w);
                if (global)
                    autoscaling(&m, "WriteProvisionedThroughputSettings", "WriteCapacityAutoScalingSettings",
                                w, target);
                else
                    throughput(&m, r, w);
            }
            map_end(&m);
        }
        seq_end(&m);
    }
    /* a global table replicates through its stream: CloudFormation requires one with replicas */
    if (d->table.streams == KP_TRUE || global) {
        scalar(&m, "StreamSpecification");
        map_start(&m);
        kv(&m, "StreamViewType", "NEW_AND_OLD_IMAGES");
        map_end(&m);
    }
    if (global) {
        scalar(&m, "Replicas");
        seq_start(&m);
        replica(&m, d, a, NULL, target);
        for (size_t i = 0; i < d->table.nreplicas; i++)
            replica(&m, d, a, d->table.replicas[i].s, target);
        seq_end(&m);
    } else if (d->table.pitr == KP_TRUE) {
        pitr_on(&m);
    }
    map_end(&m); /* Properties */
    map_end(&m); /* the table */
    map_end(&m); /* Resources */
    scalar(&m, "Outputs");
    map_start(&m);
    scalar(&m, "TableName");
    map_start(&m);
    scalar(&m, "Value");
    map_start(&m);
    kv(&m, "Ref", lid);
    map_end(&m);
    map_end(&m);
    if (d->table.streams == KP_TRUE) {
        scalar(&m, "StreamArn");
        map_start(&m);
        scalar(&m, "Value");
        map_start(&m);
        scalar(&m, "Fn::GetAtt");
        seq_start(&m);
        scalar(&m, lid);
        scalar(&m, "StreamArn");
        seq_end(&m);
        map_end(&m);
        map_end(&m);
    }
    map_end(&m); /* Outputs */
    free(lid);
    map_end(&m);
    return yamlout_finish(&m, err);
}
