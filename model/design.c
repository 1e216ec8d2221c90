/* design.c - construction, release, copy, comparison and look-ups of a design. */
#include "design.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- init / free --------------------------------------------------------------------- */

void table_init(kp_table *t)
{
    memset(t, 0, sizeof *t);
    t->billing = KP_BILLING_ON_DEMAND;
    t->streams = KP_UNSET;
    t->pitr = KP_UNSET;
    t->target_utilization = NAN;
}

void index_init(kp_index *x)
{
    memset(x, 0, sizeof *x);
    x->kind = KP_GSI;
    x->projection = KP_PROJ_ALL;
}

void attr_init(kp_attr *a)
{
    memset(a, 0, sizeof *a);
    a->type = KP_ATTR_STRING;
    a->distinct = NAN;
    a->shard_count = -1;
    a->write_hot = NAN;
    a->size = NAN;
}

void entity_init(kp_entity *e)
{
    memset(e, 0, sizeof *e);
    e->writes = NAN;
    e->writes_avg = NAN;
}

void pattern_init(kp_pattern *p)
{
    memset(p, 0, sizeof *p);
    p->rate = NAN;
    p->avg = NAN;
    p->latency = NAN;
    p->limit = NAN;
    p->items = NAN;
}

void pricing_init(kp_pricing *p)
{
    memset(p, 0, sizeof *p);
    p->read_per_million = NAN;
    p->write_per_million = NAN;
    p->index_write_per_million = NAN;
    p->rcu_hour = NAN;
    p->wcu_hour = NAN;
    p->storage_gb_month = NAN;
    p->backup_gb_month = NAN;
    p->stream_read_per_100k = NAN;
}

void decision_init(kp_decision *d)
{
    memset(d, 0, sizeof *d);
    d->status = KP_DEC_ACCEPTED;
}

kp_str str_make(const char *s, kp_loc loc) { return (kp_str){xstrdup(s), loc}; }

void str_free(kp_str *s)
{
    free(s->s);
    s->s = NULL;
}

static void strs_free(kp_str *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i].s);
    free(v);
}

kp_design *design_new(void)
{
    kp_design *d = xcalloc(1, sizeof *d);
    d->version = KP_FORMAT_VERSION;
    table_init(&d->table);
    pricing_init(&d->pricing);
    return d;
}

void index_free(kp_index *x)
{
    free(x->name);
    str_free(&x->pk);
    str_free(&x->sk);
    strs_free(x->include, x->ninclude);
    free(x->why);
}

void attr_free(kp_attr *a)
{
    free(a->name);
    for (size_t i = 0; i < a->nvalues; i++)
        free(a->values[i].name);
    free(a->values);
    free(a->format);
}

void entity_free(kp_entity *e)
{
    free(e->name);
    strs_free(e->attrs, e->nattrs);
    for (size_t i = 0; i < e->nkeys; i++) {
        str_free(&e->keys[i].attr);
        tpl_free(&e->keys[i].tpl);
    }
    free(e->keys);
    for (size_t i = 0; i < e->nsparse; i++) {
        kp_sparse *s = &e->sparse[i];
        str_free(&s->attr);
        str_free(&s->cond_attr);
        strs_free(s->values, s->nvalues);
        free(s->src);
    }
    free(e->sparse);
    free(e->description);
}

void pattern_free(kp_pattern *p)
{
    free(p->id);
    free(p->name);
    strs_free(p->entities, p->nentities);
    for (size_t i = 0; i < p->nby; i++) {
        str_free(&p->by[i].attr);
        free(p->by[i].value);
    }
    free(p->by);
    free(p->why);
    str_free(&p->order);
    str_free(&p->range);
    strs_free(p->filter, p->nfilter);
    for (size_t i = 0; i < p->njoin; i++) {
        str_free(&p->join[i].to);
        str_free(&p->join[i].from);
    }
    free(p->join);
    str_free(&p->covered_by);
    free(p->served_by);
    strs_free(p->changes, p->nchanges);
}

void alert_free(kp_alert *a)
{
    free(a->name);
    free(a->metric);
    free(a->when);
}

void decision_free(kp_decision *d)
{
    free(d->id);
    free(d->title);
    strs_free(d->patterns, d->npatterns);
    free(d->context);
    free(d->decision);
    for (size_t i = 0; i < d->nalternatives; i++) {
        free(d->alternatives[i].option);
        free(d->alternatives[i].why_not);
    }
    free(d->alternatives);
    for (size_t i = 0; i < d->nassumptions; i++)
        free(d->assumptions[i]);
    free(d->assumptions);
    free(d->failure_test);
    free(d->rollback);
    free(d->limitations);
    for (size_t i = 0; i < d->nsignals; i++) {
        free(d->signals[i].src);
        free(d->signals[i].metric);
    }
    free(d->signals);
}

void design_free(kp_design *d)
{
    if (!d)
        return;
    free(d->name);
    free(d->description);
    free(d->table.name);
    str_free(&d->table.pk);
    str_free(&d->table.sk);
    for (size_t i = 0; i < d->nindexes; i++)
        index_free(&d->indexes[i]);
    free(d->indexes);
    for (size_t i = 0; i < d->nattrs; i++)
        attr_free(&d->attrs[i]);
    free(d->attrs);
    for (size_t i = 0; i < d->nentities; i++)
        entity_free(&d->entities[i]);
    free(d->entities);
    for (size_t i = 0; i < d->npatterns; i++)
        pattern_free(&d->patterns[i]);
    free(d->patterns);
    for (size_t i = 0; i < d->nalerts; i++)
        alert_free(&d->alerts[i]);
    free(d->alerts);
    free(d->pricing.base);
    free(d->pricing.currency);
    for (size_t i = 0; i < d->ndecisions; i++)
        decision_free(&d->decisions[i]);
    free(d->decisions);
    free(d);
}

/* ---- clone --------------------------------------------------------------------------- */

static kp_str str_clone(kp_str s) { return (kp_str){xstrdup(s.s), s.loc}; }

static kp_str *strs_clone(const kp_str *v, size_t n)
{
    if (!n)
        return NULL;
    kp_str *o = xcalloc(n, sizeof *o);
    for (size_t i = 0; i < n; i++)
        o[i] = str_clone(v[i]);
    return o;
}

#define ARR_CLONE(dst, src, n) \
    ((n) ? memcpy(xmalloc((n) * sizeof *(src)), (src), (n) * sizeof *(src)) : NULL)

kp_design *design_clone(const kp_design *s)
{
    kp_design *d = xcalloc(1, sizeof *d);
    *d = *s;
    d->name = xstrdup(s->name);
    d->description = xstrdup(s->description);
    d->table.name = xstrdup(s->table.name);
    d->table.pk = str_clone(s->table.pk);
    d->table.sk = str_clone(s->table.sk);

    d->indexes = ARR_CLONE(d->indexes, s->indexes, s->nindexes);
    for (size_t i = 0; i < s->nindexes; i++) {
        kp_index *x = &d->indexes[i];
        const kp_index *y = &s->indexes[i];
        x->name = xstrdup(y->name);
        x->pk = str_clone(y->pk);
        x->sk = str_clone(y->sk);
        x->include = strs_clone(y->include, y->ninclude);
        x->why = xstrdup(y->why);
    }
    d->attrs = ARR_CLONE(d->attrs, s->attrs, s->nattrs);
    for (size_t i = 0; i < s->nattrs; i++) {
        kp_attr *a = &d->attrs[i];
        const kp_attr *b = &s->attrs[i];
        a->name = xstrdup(b->name);
        a->format = xstrdup(b->format);
        a->values = ARR_CLONE(a->values, b->values, b->nvalues);
        for (size_t k = 0; k < b->nvalues; k++)
            a->values[k].name = xstrdup(b->values[k].name);
    }
    d->entities = ARR_CLONE(d->entities, s->entities, s->nentities);
    for (size_t i = 0; i < s->nentities; i++) {
        kp_entity *e = &d->entities[i];
        const kp_entity *f = &s->entities[i];
        e->name = xstrdup(f->name);
        e->description = xstrdup(f->description);
        e->attrs = strs_clone(f->attrs, f->nattrs);
        e->keys = ARR_CLONE(e->keys, f->keys, f->nkeys);
        for (size_t k = 0; k < f->nkeys; k++) {
            e->keys[k].attr = str_clone(f->keys[k].attr);
            tpl_copy(&e->keys[k].tpl, &f->keys[k].tpl);
        }
        e->sparse = ARR_CLONE(e->sparse, f->sparse, f->nsparse);
        for (size_t k = 0; k < f->nsparse; k++) {
            kp_sparse *p = &e->sparse[k];
            const kp_sparse *q = &f->sparse[k];
            p->attr = str_clone(q->attr);
            p->cond_attr = str_clone(q->cond_attr);
            p->values = strs_clone(q->values, q->nvalues);
            p->src = xstrdup(q->src);
        }
    }
    d->patterns = ARR_CLONE(d->patterns, s->patterns, s->npatterns);
    for (size_t i = 0; i < s->npatterns; i++) {
        kp_pattern *p = &d->patterns[i];
        const kp_pattern *q = &s->patterns[i];
        p->id = xstrdup(q->id);
        p->name = xstrdup(q->name);
        p->entities = strs_clone(q->entities, q->nentities);
        p->by = ARR_CLONE(p->by, q->by, q->nby);
        for (size_t k = 0; k < q->nby; k++) {
            p->by[k].attr = str_clone(q->by[k].attr);
            p->by[k].value = xstrdup(q->by[k].value);
        }
        p->why = xstrdup(q->why);
        p->order = str_clone(q->order);
        p->range = str_clone(q->range);
        p->filter = strs_clone(q->filter, q->nfilter);
        p->join = ARR_CLONE(p->join, q->join, q->njoin);
        for (size_t k = 0; k < q->njoin; k++) {
            p->join[k].to = str_clone(q->join[k].to);
            p->join[k].from = str_clone(q->join[k].from);
        }
        p->covered_by = str_clone(q->covered_by);
        p->served_by = xstrdup(q->served_by);
        p->changes = strs_clone(q->changes, q->nchanges);
    }
    d->alerts = ARR_CLONE(d->alerts, s->alerts, s->nalerts);
    for (size_t i = 0; i < s->nalerts; i++) {
        d->alerts[i].name = xstrdup(s->alerts[i].name);
        d->alerts[i].metric = xstrdup(s->alerts[i].metric);
        d->alerts[i].when = xstrdup(s->alerts[i].when);
    }
    d->pricing.base = xstrdup(s->pricing.base);
    d->pricing.currency = xstrdup(s->pricing.currency);
    d->decisions = ARR_CLONE(d->decisions, s->decisions, s->ndecisions);
    for (size_t i = 0; i < s->ndecisions; i++) {
        kp_decision *x = &d->decisions[i];
        const kp_decision *y = &s->decisions[i];
        x->id = xstrdup(y->id);
        x->title = xstrdup(y->title);
        x->patterns = strs_clone(y->patterns, y->npatterns);
        x->context = xstrdup(y->context);
        x->decision = xstrdup(y->decision);
        x->alternatives = ARR_CLONE(x->alternatives, y->alternatives, y->nalternatives);
        for (size_t k = 0; k < y->nalternatives; k++) {
            x->alternatives[k].option = xstrdup(y->alternatives[k].option);
            x->alternatives[k].why_not = xstrdup(y->alternatives[k].why_not);
        }
        x->assumptions = y->nassumptions ? xcalloc(y->nassumptions, sizeof(char *)) : NULL;
        for (size_t k = 0; k < y->nassumptions; k++)
            x->assumptions[k] = xstrdup(y->assumptions[k]);
        x->failure_test = xstrdup(y->failure_test);
        x->rollback = xstrdup(y->rollback);
        x->limitations = xstrdup(y->limitations);
        x->signals = ARR_CLONE(x->signals, y->signals, y->nsignals);
        for (size_t k = 0; k < y->nsignals; k++) {
            x->signals[k].src = xstrdup(y->signals[k].src);
            x->signals[k].metric = xstrdup(y->signals[k].metric);
        }
    }
    return d;
}

/* ---- equality ------------------------------------------------------------------------ */

static bool s_eq(const char *a, const char *b)
{
    if (!a || !b)
        return a == b;
    return strcmp(a, b) == 0;
}

static bool n_eq(double a, double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    return a == b;
}

static bool strs_eq(const kp_str *a, size_t na, const kp_str *b, size_t nb)
{
    if (na != nb)
        return false;
    for (size_t i = 0; i < na; i++)
        if (!s_eq(a[i].s, b[i].s))
            return false;
    return true;
}

static bool tpl_eq(const tpl *a, const tpl *b)
{
    if (a->n != b->n || !s_eq(a->src, b->src))
        return false;
    for (size_t i = 0; i < a->n; i++)
        if (a->parts[i].kind != b->parts[i].kind || !s_eq(a->parts[i].text, b->parts[i].text) ||
            !s_eq(a->parts[i].format, b->parts[i].format))
            return false;
    return true;
}

bool design_equal(const kp_design *a, const kp_design *b)
{
    if (a->version != b->version || !s_eq(a->name, b->name) || !s_eq(a->description, b->description))
        return false;
    const kp_table *t = &a->table, *u = &b->table;
    if (!s_eq(t->name, u->name) || !s_eq(t->pk.s, u->pk.s) || !s_eq(t->sk.s, u->sk.s) ||
        t->billing != u->billing || t->streams != u->streams || t->pitr != u->pitr ||
        !n_eq(t->target_utilization, u->target_utilization))
        return false;
    if (a->nindexes != b->nindexes || a->nattrs != b->nattrs || a->nentities != b->nentities ||
        a->npatterns != b->npatterns || a->nalerts != b->nalerts || a->ndecisions != b->ndecisions)
        return false;
    for (size_t i = 0; i < a->nindexes; i++) {
        const kp_index *x = &a->indexes[i], *y = &b->indexes[i];
        if (!s_eq(x->name, y->name) || x->kind != y->kind || !s_eq(x->pk.s, y->pk.s) ||
            !s_eq(x->sk.s, y->sk.s) || x->projection != y->projection ||
            !strs_eq(x->include, x->ninclude, y->include, y->ninclude) || !s_eq(x->why, y->why))
            return false;
    }
    for (size_t i = 0; i < a->nattrs; i++) {
        const kp_attr *x = &a->attrs[i], *y = &b->attrs[i];
        if (!s_eq(x->name, y->name) || x->type != y->type || !n_eq(x->distinct, y->distinct) ||
            !n_eq(x->zipf, y->zipf) || x->nvalues != y->nvalues || !s_eq(x->format, y->format) ||
            x->shard_count != y->shard_count || !n_eq(x->write_hot, y->write_hot) ||
            !n_eq(x->size, y->size))
            return false;
        for (size_t k = 0; k < x->nvalues; k++)
            if (!s_eq(x->values[k].name, y->values[k].name) ||
                !n_eq(x->values[k].share, y->values[k].share) ||
                !n_eq(x->values[k].write_share, y->values[k].write_share))
                return false;
    }
    for (size_t i = 0; i < a->nentities; i++) {
        const kp_entity *x = &a->entities[i], *y = &b->entities[i];
        if (!s_eq(x->name, y->name) || !n_eq(x->count, y->count) || !n_eq(x->size, y->size) ||
            !n_eq(x->writes, y->writes) || !n_eq(x->writes_avg, y->writes_avg) ||
            !strs_eq(x->attrs, x->nattrs, y->attrs, y->nattrs) || x->nkeys != y->nkeys ||
            x->nsparse != y->nsparse || !s_eq(x->description, y->description))
            return false;
        for (size_t k = 0; k < x->nkeys; k++)
            if (!s_eq(x->keys[k].attr.s, y->keys[k].attr.s) || !tpl_eq(&x->keys[k].tpl, &y->keys[k].tpl))
                return false;
        for (size_t k = 0; k < x->nsparse; k++) {
            const kp_sparse *p = &x->sparse[k], *q = &y->sparse[k];
            if (!s_eq(p->attr.s, q->attr.s) || p->kind != q->kind || !s_eq(p->cond_attr.s, q->cond_attr.s) ||
                p->op != q->op || !strs_eq(p->values, p->nvalues, q->values, q->nvalues) ||
                !n_eq(p->share, q->share))
                return false;
        }
    }
    for (size_t i = 0; i < a->npatterns; i++) {
        const kp_pattern *p = &a->patterns[i], *q = &b->patterns[i];
        if (!s_eq(p->id, q->id) || !s_eq(p->name, q->name) || p->kind != q->kind ||
            !strs_eq(p->entities, p->nentities, q->entities, q->nentities) ||
            p->multi_form != q->multi_form || p->nby != q->nby || !n_eq(p->rate, q->rate) ||
            !n_eq(p->avg, q->avg) || !n_eq(p->latency, q->latency) ||
            p->consistency != q->consistency || p->consistency_given != q->consistency_given ||
            !s_eq(p->why, q->why) || !s_eq(p->order.s, q->order.s) || p->order_desc != q->order_desc ||
            !n_eq(p->limit, q->limit) || !s_eq(p->range.s, q->range.s) ||
            !strs_eq(p->filter, p->nfilter, q->filter, q->nfilter) || p->njoin != q->njoin ||
            !s_eq(p->covered_by.s, q->covered_by.s) || p->needs != q->needs ||
            !s_eq(p->served_by, q->served_by) || p->op != q->op || !n_eq(p->items, q->items) ||
            !strs_eq(p->changes, p->nchanges, q->changes, q->nchanges))
            return false;
        for (size_t k = 0; k < p->nby; k++)
            if (!s_eq(p->by[k].attr.s, q->by[k].attr.s) || !s_eq(p->by[k].value, q->by[k].value))
                return false;
        for (size_t k = 0; k < p->njoin; k++)
            if (!s_eq(p->join[k].to.s, q->join[k].to.s) || !s_eq(p->join[k].from.s, q->join[k].from.s))
                return false;
    }
    for (size_t i = 0; i < a->nalerts; i++)
        if (!s_eq(a->alerts[i].name, b->alerts[i].name) || !s_eq(a->alerts[i].metric, b->alerts[i].metric) ||
            !s_eq(a->alerts[i].when, b->alerts[i].when))
            return false;
    const kp_pricing *p = &a->pricing, *q = &b->pricing;
    if (p->given != q->given || !s_eq(p->base, q->base) || !s_eq(p->currency, q->currency) ||
        !n_eq(p->read_per_million, q->read_per_million) || !n_eq(p->write_per_million, q->write_per_million) ||
        !n_eq(p->index_write_per_million, q->index_write_per_million) || !n_eq(p->rcu_hour, q->rcu_hour) ||
        !n_eq(p->wcu_hour, q->wcu_hour) || !n_eq(p->storage_gb_month, q->storage_gb_month) ||
        !n_eq(p->backup_gb_month, q->backup_gb_month) || !n_eq(p->stream_read_per_100k, q->stream_read_per_100k))
        return false;
    for (size_t i = 0; i < a->ndecisions; i++) {
        const kp_decision *x = &a->decisions[i], *y = &b->decisions[i];
        if (!s_eq(x->id, y->id) || !s_eq(x->title, y->title) || x->status != y->status ||
            !strs_eq(x->patterns, x->npatterns, y->patterns, y->npatterns) || !s_eq(x->context, y->context) ||
            !s_eq(x->decision, y->decision) || x->nalternatives != y->nalternatives ||
            x->nassumptions != y->nassumptions || !s_eq(x->failure_test, y->failure_test) ||
            !s_eq(x->rollback, y->rollback) || !s_eq(x->limitations, y->limitations) ||
            x->nsignals != y->nsignals)
            return false;
        for (size_t k = 0; k < x->nalternatives; k++)
            if (!s_eq(x->alternatives[k].option, y->alternatives[k].option) ||
                !s_eq(x->alternatives[k].why_not, y->alternatives[k].why_not))
                return false;
        for (size_t k = 0; k < x->nassumptions; k++)
            if (!s_eq(x->assumptions[k], y->assumptions[k]))
                return false;
        for (size_t k = 0; k < x->nsignals; k++)
            if (!s_eq(x->signals[k].metric, y->signals[k].metric) || x->signals[k].cmp != y->signals[k].cmp ||
                !n_eq(x->signals[k].value, y->signals[k].value))
                return false;
    }
    return true;
}

/* ---- look-ups ------------------------------------------------------------------------ */

/* strcmp(s, name) == 0, with the first byte compared inline: the look-ups below run over every
 * attribute or entity of a design, mostly for names that differ at once. */
static inline bool same_name(const char *s, const char *name) { return s[0] == name[0] && strcmp(s, name) == 0; }

ptrdiff_t design_entity_pos(const kp_design *d, const char *name)
{
    for (size_t i = 0; name && i < d->nentities; i++)
        if (same_name(d->entities[i].name, name))
            return (ptrdiff_t)i;
    return -1;
}

ptrdiff_t design_pattern_pos(const kp_design *d, const char *id)
{
    for (size_t i = 0; id && i < d->npatterns; i++)
        if (d->patterns[i].id && same_name(d->patterns[i].id, id))
            return (ptrdiff_t)i;
    return -1;
}

ptrdiff_t design_index_pos(const kp_design *d, const char *name)
{
    for (size_t i = 0; name && i < d->nindexes; i++)
        if (same_name(d->indexes[i].name, name))
            return (ptrdiff_t)i;
    return -1;
}

const kp_attr *design_attr(const kp_design *d, const char *name)
{
    for (size_t i = 0; name && i < d->nattrs; i++)
        if (same_name(d->attrs[i].name, name))
            return &d->attrs[i];
    return NULL;
}

const kp_entity *design_entity(const kp_design *d, const char *name)
{
    ptrdiff_t i = design_entity_pos(d, name);
    return i < 0 ? NULL : &d->entities[i];
}

const kp_pattern *design_pattern(const kp_design *d, const char *id)
{
    ptrdiff_t i = design_pattern_pos(d, id);
    return i < 0 ? NULL : &d->patterns[i];
}

const kp_index *design_index(const kp_design *d, const char *name)
{
    ptrdiff_t i = design_index_pos(d, name);
    return i < 0 ? NULL : &d->indexes[i];
}

const kp_keytpl *entity_key(const kp_entity *e, const char *attr)
{
    for (size_t i = 0; attr && i < e->nkeys; i++)
        if (same_name(e->keys[i].attr.s, attr))
            return &e->keys[i];
    return NULL;
}

bool entity_carries(const kp_entity *e, const char *attr)
{
    if (!attr)
        return false;
    if (entity_key(e, attr))
        return true;
    for (size_t i = 0; i < e->nattrs; i++)
        if (same_name(e->attrs[i].s, attr))
            return true;
    return false;
}

bool entity_knows(const kp_entity *e, const char *attr)
{
    if (entity_carries(e, attr))
        return true;
    for (size_t i = 0; i < e->nkeys; i++)
        if (tpl_has_attr(&e->keys[i].tpl, attr))
            return true;
    return false;
}

const kp_sparse *entity_sparse(const kp_entity *e, const char *attr)
{
    for (size_t i = 0; attr && i < e->nsparse; i++)
        if (same_name(e->sparse[i].attr.s, attr))
            return &e->sparse[i];
    return NULL;
}

/* ---- names --------------------------------------------------------------------------- */

const char *kp_billing_name(kp_billing b) { return b == KP_BILLING_PROVISIONED ? "provisioned" : "on-demand"; }
const char *kp_index_kind_name(kp_index_kind k) { return k == KP_LSI ? "lsi" : "gsi"; }

const char *kp_projection_name(kp_projection p)
{
    return p == KP_PROJ_KEYS ? "keys" : p == KP_PROJ_INCLUDE ? "include" : "all";
}

const char *kp_attr_type_name(kp_attr_type t)
{
    static const char *const names[] = {"string", "number", "date", "enum", "shard", "bool"};
    return (unsigned)t < sizeof names / sizeof *names ? names[t] : "string";
}

const char *kp_consistency_name(kp_consistency c)
{
    return c == KP_STRONG ? "strong" : c == KP_TRANSACTIONAL ? "transactional" : "eventual";
}

const char *kp_write_op_name(kp_write_op o)
{
    static const char *const names[] = {"put", "update", "delete", "transact"};
    return (unsigned)o < 4 ? names[o] : "put";
}

const char *kp_needs_name(kp_needs n)
{
    return n == KP_NEEDS_SEARCH ? "search" : n == KP_NEEDS_AGGREGATE ? "aggregate" : n == KP_NEEDS_ADHOC ? "adhoc" : NULL;
}

const char *kp_decision_status_name(kp_decision_status s)
{
    static const char *const names[] = {"proposed", "accepted", "reopened", "superseded"};
    return (unsigned)s < 4 ? names[s] : "accepted";
}

const char *kp_cmp_name(kp_cmp c)
{
    static const char *const names[] = {">", ">=", "<", "<=", "==", "!="};
    return (unsigned)c < 6 ? names[c] : "?";
}

bool signal_parse(const char *src, kp_signal *out, const char **err)
{
    memset(out, 0, sizeof *out);
    const char *p = src;
    while (isspace((unsigned char)*p))
        p++;
    const char *m = p;
    while (*p && (isalnum((unsigned char)*p) || *p == '.' || *p == '_' || *p == '-' || (unsigned char)*p >= 0x80))
        p++;
    if (p == m) {
        *err = "expected a metric such as pattern.5.rate, then an operator and a number";
        return false;
    }
    const char *mend = p;
    while (isspace((unsigned char)*p))
        p++;
    kp_cmp cmp;
    if (p[0] == '>' && p[1] == '=')
        cmp = KP_CMP_GE, p += 2;
    else if (p[0] == '<' && p[1] == '=')
        cmp = KP_CMP_LE, p += 2;
    else if (p[0] == '=' && p[1] == '=')
        cmp = KP_CMP_EQ, p += 2;
    else if (p[0] == '!' && p[1] == '=')
        cmp = KP_CMP_NE, p += 2;
    else if (p[0] == '>')
        cmp = KP_CMP_GT, p++;
    else if (p[0] == '<')
        cmp = KP_CMP_LT, p++;
    else if (p[0] == '=')
        cmp = KP_CMP_EQ, p++;
    else {
        *err = "expected an operator (>, >=, <, <=, ==, !=) after the metric";
        return false;
    }
    while (isspace((unsigned char)*p))
        p++;
    /* numbers may carry thousands separators: 100,000 or 100_000 */
    char num[64];
    size_t k = 0;
    while (*p && k + 1 < sizeof num && (isdigit((unsigned char)*p) || *p == '.' || *p == ',' ||
                                         *p == '_' || *p == '-' || *p == '+' || *p == 'e' || *p == 'E')) {
        if (*p != ',' && *p != '_')
            num[k++] = *p;
        p++;
    }
    num[k] = '\0';
    while (isspace((unsigned char)*p))
        p++;
    char *end = NULL;
    double v = k ? strtod(num, &end) : 0;
    if (!k || !end || *end || *p || isnan(v) || isinf(v)) {
        *err = "expected a number after the operator, and nothing after it";
        return false;
    }
    out->src = xstrdup(src);
    out->metric = xstrndup(m, (size_t)(mend - m));
    out->cmp = cmp;
    out->value = v;
    return true;
}
