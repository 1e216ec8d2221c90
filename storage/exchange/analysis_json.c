/* analysis_json.c - the `check --json` object (see analysis_json.h for its shape). */
#include "analysis_json.h"

#include "signals.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *analysis_json_severity(kp_severity s)
{
    return s == KP_SEV_ERROR ? "error" : s == KP_SEV_WARNING ? "warning" : "note";
}

/* A number, or null when it is not finite (jansson refuses NaN and infinities). */
static json_t *num(double x) { return isfinite(x) ? json_real(x) : json_null(); }

static json_t *str_or_null(const char *s) { return s ? json_string(s) : json_null(); }

static void set(json_t *o, const char *key, json_t *v) { json_object_set_new(o, key, v ? v : json_null()); }

static const char *index_name(const kp_design *d, ptrdiff_t index)
{
    if (index < 0 || (size_t)index >= d->nindexes)
        return "table";
    return d->indexes[index].name;
}

static json_t *values_json(const kp_keyval *v, size_t n)
{
    json_t *o = json_object();
    for (size_t i = 0; i < n; i++)
        if (v[i].name)
            set(o, v[i].name, str_or_null(v[i].value));
    return o;
}

/* ExpressionAttributeNames: {"#State_Date": "State#Date"}, {} when no name needs one. */
static json_t *names_json(const expr_name *v, size_t n)
{
    json_t *o = json_object();
    for (size_t i = 0; i < n; i++)
        set(o, v[i].alias, json_string(v[i].name));
    return o;
}

static json_t *pattern_json(const kp_design *d, const kp_pattern_result *r)
{
    const kp_pattern *p = r->pattern;
    json_t *o = json_object();
    set(o, "id", str_or_null(p ? p->id : NULL));
    set(o, "name", str_or_null(p ? p->name : NULL));
    set(o, "kind", json_string(p && p->kind == KP_WRITE ? "write" : "read"));
    set(o, "plan", json_string(kp_plan_word(r->plan)));
    set(o, "symbol", json_string(kp_plan_symbol(r->plan)));
    set(o, "requests", num(r->requests));
    set(o, "index", json_string(r->index_name ? r->index_name : index_name(d, r->index)));
    set(o, "key_condition", json_string(r->key_condition ? r->key_condition : ""));
    set(o, "values", values_json(r->values, r->nvalues));
    set(o, "names", names_json(r->names, r->nnames));
    set(o, "filter", json_boolean(r->filter));
    set(o, "app_sort", json_boolean(r->app_sort));
    set(o, "limit_pushed", json_boolean(r->limit_pushed));
    set(o, "items_per_call", num(r->items_per_call));
    set(o, "rcu_per_call", num(r->rcu_per_call));
    set(o, "rcu_per_s", num(r->rcu_per_s));
    set(o, "rcu_per_s_avg", num(r->rcu_per_s_avg));
    set(o, "wcu_per_call", num(r->wcu_per_call));
    set(o, "wcu_per_s", num(r->wcu_per_s));
    set(o, "index_wcu_per_call", num(r->index_wcu_per_call));
    set(o, "latency_ms", num(r->latency_ms));
    set(o, "latency_target_ms", num(p ? p->latency : NAN));
    set(o, "latency_ok", json_boolean(r->latency_ok));
    json_t *w = json_array();
    for (size_t i = 0; i < r->nwarnings; i++)
        json_array_append_new(w, json_string(r->warnings[i] ? r->warnings[i] : ""));
    set(o, "warnings", w);
    json_t *why = json_array();
    for (size_t i = 0; i < r->nwhy_not; i++)
        json_array_append_new(why, json_string(r->why_not[i].text ? r->why_not[i].text : ""));
    set(o, "why_not", why);
    json_t *steps = json_array();
    for (size_t i = 0; i < r->nsteps; i++) {
        const kp_step *s = &r->steps[i];
        json_t *so = json_object();
        set(so, "op", json_string(kp_op_name(s->op)));
        set(so, "index", json_string(index_name(d, s->index)));
        set(so, "entity", str_or_null(s->entity ? s->entity->name : NULL));
        set(so, "key_condition", str_or_null(s->key_condition));
        set(so, "values", values_json(s->values, s->nvalues));
        set(so, "names", names_json(s->names, s->nnames));
        set(so, "filter", str_or_null(s->filter));
        set(so, "forward", json_boolean(s->forward));
        set(so, "limit", num(s->limit));
        set(so, "count", num(s->count));
        set(so, "items", num(s->items));
        set(so, "rcu", num(s->rcu));
        set(so, "wcu", num(s->wcu));
        set(so, "fetch", json_boolean(s->fetch));
        set(so, "key_move", json_boolean(s->key_move));
        json_array_append_new(steps, so);
    }
    set(o, "steps", steps);
    return o;
}

static json_t *partition_json(const kp_design *d, const kp_partition_result *r)
{
    json_t *o = json_object();
    set(o, "index", json_string(r->index_name ? r->index_name : index_name(d, r->index)));
    set(o, "template", str_or_null(r->template_src));
    set(o, "entity", str_or_null(r->entity ? r->entity->name : NULL));
    set(o, "distinct", num(r->distinct));
    set(o, "hot_share", num(r->hot_share));
    set(o, "read_hot_share", num(r->read_hot_share));
    set(o, "write_hot_share", num(r->write_hot_share));
    set(o, "read_units", num(r->read_units));
    set(o, "write_units", num(r->write_units));
    set(o, "read_util", num(r->read_util));
    set(o, "write_util", num(r->write_util));
    set(o, "bytes", num(r->bytes));
    set(o, "hot", json_boolean(r->hot));
    set(o, "suggest_shards", json_integer(r->suggest_shards));
    return o;
}

static json_t *index_json(const kp_design *d, const kp_index_result *r)
{
    json_t *o = json_object();
    set(o, "name", json_string(r->name ? r->name : index_name(d, r->index)));
    set(o, "items", num(r->items));
    set(o, "bytes", num(r->bytes));
    set(o, "rcu_per_s", num(r->rcu_per_s));
    set(o, "wcu_per_s", num(r->wcu_per_s));
    set(o, "wcu_per_s_avg", num(r->wcu_per_s_avg));
    set(o, "distinct", num(r->distinct));
    set(o, "hot_share", num(r->hot_share));
    set(o, "read_hot_share", num(r->read_hot_share));
    set(o, "write_hot_share", num(r->write_hot_share));
    set(o, "patterns_served", json_integer(r->patterns_served));
    return o;
}

static json_t *cost_json(const kp_cost *c)
{
    json_t *o = json_object();
    set(o, "mode", json_string(kp_billing_name(c->mode)));
    set(o, "currency", json_string(c->currency ? c->currency : "USD"));
    json_t *lines = json_array();
    for (size_t i = 0; i < c->nlines; i++) {
        json_t *l = json_object();
        set(l, "name", str_or_null(c->lines[i].name));
        set(l, "units", num(c->lines[i].units));
        set(l, "amount", num(c->lines[i].amount));
        json_array_append_new(lines, l);
    }
    set(o, "lines", lines);
    set(o, "total", num(c->total));
    return o;
}

json_t *analysis_json(const kp_design *d, const kp_analysis *a)
{
    json_t *o = json_object();
    set(o, "keyplan", json_integer(d->version));
    set(o, "design", str_or_null(d->name));
    json_t *t = json_object();
    set(t, "name", str_or_null(d->table.name));
    set(t, "pk", str_or_null(d->table.pk.s));
    set(t, "sk", str_or_null(d->table.sk.s));
    set(t, "billing", json_string(kp_billing_name(d->table.billing)));
    set(t, "streams", d->table.streams == KP_UNSET ? json_null() : json_boolean(d->table.streams == KP_TRUE));
    set(t, "pitr", d->table.pitr == KP_UNSET ? json_null() : json_boolean(d->table.pitr == KP_TRUE));
    set(o, "table", t);

    json_t *v = json_array();
    for (size_t i = 0; i < a->npatterns; i++)
        json_array_append_new(v, pattern_json(d, &a->patterns[i]));
    set(o, "patterns", v);

    v = json_array();
    for (size_t i = 0; i < a->npartitions; i++)
        json_array_append_new(v, partition_json(d, &a->partitions[i]));
    set(o, "partitions", v);

    v = json_array();
    for (size_t i = 0; i < a->nindexes; i++)
        json_array_append_new(v, index_json(d, &a->indexes[i]));
    set(o, "indexes", v);
    set(o, "table_hot_share", num(a->table_hot_share));

    const kp_cost *mine =
        a->cost ? a->cost : (d->table.billing == KP_BILLING_PROVISIONED ? &a->provisioned : &a->on_demand);
    set(o, "cost", cost_json(mine));
    json_t *costs = json_object();
    set(costs, "on-demand", cost_json(&a->on_demand));
    set(costs, "provisioned", cost_json(&a->provisioned));
    set(o, "costs", costs);

    v = json_array();
    for (size_t i = 0; i < KP_CHECKLIST_ITEMS; i++) {
        const kp_check_item *c = &a->checklist[i];
        json_t *ci = json_object();
        set(ci, "item", json_integer(c->item ? c->item : (json_int_t)i + 1));
        set(ci, "title", str_or_null(c->title));
        set(ci, "status", json_string(kp_check_status_name(c->status)));
        set(ci, "why", json_string(c->why ? c->why : ""));
        json_array_append_new(v, ci);
    }
    set(o, "checklist", v);
    set(o, "checklist_pass", json_integer(a->checklist_pass));
    set(o, "checklist_applicable", json_integer(a->checklist_applicable));

    v = json_array();
    for (size_t i = 0; i < a->nfindings; i++) {
        const kp_finding *f = &a->findings[i];
        json_t *fo = json_object();
        set(fo, "code", str_or_null(f->code));
        set(fo, "severity", json_string(analysis_json_severity(f->sev)));
        set(fo, "where", str_or_null(f->where));
        set(fo, "message", str_or_null(f->message));
        set(fo, "fix", str_or_null(f->fix));
        json_array_append_new(v, fo);
    }
    set(o, "findings", v);

    v = json_array();
    for (size_t i = 0; i < d->ndecisions; i++) {
        const kp_decision *dec = &d->decisions[i];
        for (size_t k = 0; k < dec->nsignals; k++) {
            const kp_signal *s = &dec->signals[k];
            double val = NAN;
            bool known = s->metric && analysis_metric(a, s->metric, &val) && isfinite(val);
            json_t *so = json_object();
            set(so, "decision", str_or_null(dec->id));
            set(so, "signal", str_or_null(s->src));
            set(so, "metric", str_or_null(s->metric));
            set(so, "value", known ? json_real(val) : json_null());
            set(so, "fired", json_boolean(known && sig_compare(val, s->cmp, s->value)));
            json_array_append_new(v, so);
        }
    }
    set(o, "signals", v);
    return o;
}

char *analysis_json_string(const kp_design *d, const kp_analysis *a, char **err)
{
    json_t *o = analysis_json(d, a);
    char *s = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    json_decref(o);
    if (!s) {
        kp_fail(err, KP_INVALID, "jansson cannot write the analysis as JSON");
        return NULL;
    }
    /* jansson allocates with malloc; hand back our own allocation with a final newline. */
    char *out = xasprintf("%s\n", s);
    free(s);
    return out;
}
