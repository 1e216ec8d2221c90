/* design.c - construction, release, copy, comparison and look-ups of a design. */
#include "design.h"

#include "fields.h"
#include "syntax.h"

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
    p->replicated_write_per_million = NAN;
    p->replicated_wcu_hour = NAN;
    p->transfer_gb = NAN;
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

kp_str *strs_clone(const kp_str *v, size_t n)
{
    kp_str *c = n ? xmalloc(n * sizeof *c) : NULL;
    for (size_t i = 0; i < n; i++)
        c[i] = (kp_str){v[i].s ? xstrdup(v[i].s) : NULL, v[i].loc};
    return c;
}

void strs_free(kp_str *v, size_t n)
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

void index_free(kp_index *x) { fields_free(&kp_rec_index, x); }
void attr_free(kp_attr *a) { fields_free(&kp_rec_attr, a); }
void entity_free(kp_entity *e) { fields_free(&kp_rec_entity, e); }
void pattern_free(kp_pattern *p) { fields_free(&kp_rec_pattern, p); }
void alert_free(kp_alert *a) { fields_free(&kp_rec_alert, a); }
void decision_free(kp_decision *d) { fields_free(&kp_rec_decision, d); }

void design_free(kp_design *d)
{
    if (!d)
        return;
    fields_free(&kp_rec_design, d);
    free(d);
}

/* ---- clone, equality: loops over the field tables ------------------------------------- */

kp_design *design_clone(const kp_design *s)
{
    kp_design *d = xmalloc(sizeof *d);
    *d = *s;
    fields_clone(&kp_rec_design, d, s);
    return d;
}

bool design_equal(const kp_design *a, const kp_design *b) { return fields_equal(&kp_rec_design, a, b); }

bool design_attr_step(const kp_design *from, const kp_design *to, kp_rowop *op)
{
    if (!from || !to || (from->nattrs + 1 != to->nattrs && to->nattrs + 1 != from->nattrs))
        return false;
    bool insert = to->nattrs > from->nattrs;
    const kp_design *shorter = insert ? from : to, *longer = insert ? to : from;
    size_t at = 0; /* the first attribute that differs: the one inserted or removed */
    while (at < shorter->nattrs && fields_equal(&kp_rec_attr, &shorter->attrs[at], &longer->attrs[at]))
        at++;
    for (size_t k = at; k < shorter->nattrs; k++)
        if (!fields_equal(&kp_rec_attr, &shorter->attrs[k], &longer->attrs[k + 1]))
            return false;
    kp_design x = *from, y = *to; /* the rest */
    x.attrs = y.attrs = NULL;
    x.nattrs = y.nattrs = 0;
    if (!design_equal(&x, &y))
        return false;
    *op = (kp_rowop){insert ? KP_ROW_INSERT : KP_ROW_REMOVE, at, 0};
    return true;
}

/* ---- the model and the rest ------------------------------------------------------------ */

/* to's rest made from's, shallow (the pointers shared); to keeps its table keys. */
static void rest_take(kp_design *to, const kp_design *from)
{
    kp_str pk = to->table.pk, sk = to->table.sk;
    to->version = from->version;
    to->name = from->name;
    to->description = from->description;
    to->table = from->table;
    to->table.pk = pk;
    to->table.sk = sk;
    to->alerts = from->alerts;
    to->nalerts = from->nalerts;
    to->pricing = from->pricing;
    to->decisions = from->decisions;
    to->ndecisions = from->ndecisions;
}

bool design_same_model(const kp_design *a, const kp_design *b)
{
    kp_design m = *b; /* b's model with a's rest: equal to a when the models are */
    rest_take(&m, a);
    return design_equal(a, &m);
}

void design_rest_copy(kp_design *to, const kp_design *from)
{
    kp_design old = {0}, theirs = {0}, none = {0};
    rest_take(&old, to); /* to's rest alone (no keys): released below */
    rest_take(&theirs, from);
    kp_design *copy = design_clone(&theirs); /* from's rest alone, deep */
    rest_take(to, copy);
    rest_take(copy, &none); /* the copy's rest is to's now: its shell goes */
    design_free(copy);
    fields_free(&kp_rec_design, &old);
}

void design_rest_swap(kp_design *a, kp_design *b)
{
    kp_design t = {0};
    rest_take(&t, a);
    rest_take(a, b);
    rest_take(b, &t);
}

kp_design *design_rest_take(kp_design *d)
{
    kp_design *r = xcalloc(1, sizeof *r), none = {0};
    rest_take(r, d);
    rest_take(d, &none);
    return r;
}

/* d's keys, as design_keys_swap names them, moved into `to` (its own ones overwritten). */
static void keys_take(kp_design *to, const kp_design *from)
{
    to->table.pk = from->table.pk;
    to->table.sk = from->table.sk;
    to->indexes = from->indexes;
    to->nindexes = from->nindexes;
    to->entities = from->entities;
    to->nentities = from->nentities;
}

void design_keys_swap(kp_design *a, kp_design *b)
{
    kp_design t = {0};
    keys_take(&t, a);
    keys_take(a, b);
    keys_take(b, &t);
}

kp_design *design_keys_copy(const kp_design *d)
{
    kp_design v = {0};
    keys_take(&v, d);
    return design_clone(&v);
}

void design_keys_copy_to(kp_design *to, const kp_design *from)
{
    kp_design *keys = design_keys_copy(from);
    design_keys_swap(to, keys);
    design_free(keys); /* to's own keys, now */
}

/* ---- structural steps of a list ------------------------------------------------------ */

bool kp_rowop_fits(kp_rowop op, size_t n)
{
    switch (op.kind) {
    case KP_ROW_INSERT:
        return op.row <= n;
    case KP_ROW_REMOVE:
        return op.row < n;
    case KP_ROW_MOVE:
        return op.row < n && op.to < n;
    }
    return false;
}

size_t kp_rowop_count(kp_rowop op, size_t n)
{
    return op.kind == KP_ROW_INSERT ? n + 1 : op.kind == KP_ROW_REMOVE ? n - 1 : n;
}

kp_rowop kp_rowop_inverse(kp_rowop op)
{
    if (op.kind == KP_ROW_INSERT)
        return (kp_rowop){KP_ROW_REMOVE, op.row, 0};
    if (op.kind == KP_ROW_REMOVE)
        return (kp_rowop){KP_ROW_INSERT, op.row, 0};
    return (kp_rowop){KP_ROW_MOVE, op.to, op.row};
}

void kp_rowop_apply(void **v, size_t *n, size_t size, kp_rowop op, const void *in, void *out)
{
    size_t was = *n;
    if (op.kind == KP_ROW_INSERT)
        *v = xrealloc(*v, (was + 1) * size);
    else if (op.kind == KP_ROW_REMOVE)
        memcpy(out, (char *)*v + op.row * size, size);
    kp_rowop_shift(*v, was, size, op);
    if (op.kind == KP_ROW_INSERT)
        memcpy((char *)*v + op.row * size, in, size);
    *n = kp_rowop_count(op, was);
    if (!*n) {
        free(*v);
        *v = NULL;
    }
}

void design_patterns_step(kp_design *d, kp_rowop op, const kp_pattern *in, kp_pattern *out)
{
    kp_rowop_apply((void **)&d->patterns, &d->npatterns, sizeof *d->patterns, op, in, out);
}

void kp_rowop_shift(void *v, size_t n, size_t size, kp_rowop op)
{
    char *b = v;
    size_t r = op.row;
    if (op.kind == KP_ROW_INSERT) {
        if (r < n)
            memmove(b + (r + 1) * size, b + r * size, (n - r) * size);
        return;
    }
    if (op.kind == KP_ROW_REMOVE) {
        if (r + 1 < n)
            memmove(b + r * size, b + (r + 1) * size, (n - r - 1) * size);
        return;
    }
    if (op.to == r)
        return;
    unsigned char inl[256];
    unsigned char *tmp = size <= sizeof inl ? inl : xmalloc(size);
    memcpy(tmp, b + r * size, size);
    if (op.to < r)
        memmove(b + (op.to + 1) * size, b + op.to * size, (r - op.to) * size);
    else
        memmove(b + r * size, b + (r + 1) * size, (op.to - r) * size);
    memcpy(b + op.to * size, tmp, size);
    if (tmp != inl)
        free(tmp);
}

/* ---- look-ups ------------------------------------------------------------------------ */

/* strcmp(s, name) == 0, with the first byte compared inline: the look-ups below run over every
 * attribute or entity of a design, mostly for names that differ at once. */
static inline bool same_name(const char *s, const char *name)
{
    return s[0] == name[0] && strcmp(s, name) == 0;
}

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

/* The word of v, or that of `dflt` for a value out of range. */
static const char *word_or(const kp_words *w, int v, int dflt)
{
    const char *s = kp_word(w, v);
    return s ? s : kp_word(w, dflt);
}

const char *kp_billing_name(kp_billing b) { return word_or(&kp_words_billing, (int)b, KP_BILLING_ON_DEMAND); }
const char *kp_index_kind_name(kp_index_kind k) { return word_or(&kp_words_index_kind, (int)k, KP_GSI); }
const char *kp_projection_name(kp_projection p) { return word_or(&kp_words_projection, (int)p, KP_PROJ_ALL); }
const char *kp_attr_type_name(kp_attr_type t) { return word_or(&kp_words_attr_type, (int)t, KP_ATTR_STRING); }
const char *kp_consistency_name(kp_consistency c)
{
    return word_or(&kp_words_consistency, (int)c, KP_EVENTUAL);
}
const char *kp_write_op_name(kp_write_op o) { return word_or(&kp_words_write_op, (int)o, KP_OP_PUT); }
const char *kp_needs_name(kp_needs n) { return kp_word(&kp_words_needs, (int)n); }
const char *kp_decision_status_name(kp_decision_status s)
{
    return word_or(&kp_words_decision_status, (int)s, KP_DEC_ACCEPTED);
}
const char *kp_cmp_name(kp_cmp c)
{
    const char *s = kp_word(&kp_words_cmp, (int)c);
    return s ? s : "?";
}

kp_status signal_parse(const char *src, kp_signal *out, char **err)
{
    syn_signal g;
    memset(out, 0, sizeof *out);
    kp_status st = syn_signal_parse(src, strlen(src), &g, err, NULL);
    if (st != KP_OK)
        return st;
    out->src = xstrdup(src);
    out->metric = xstrndup(src + g.metric.at, g.metric.len);
    out->cmp = g.cmp;
    out->value = g.value;
    return KP_OK;
}
