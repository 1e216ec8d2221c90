/* requests.c - sample items (deterministic, from the templates and the attributes'
 * distributions) and the DynamoDB API requests of every pattern, as JSON (jansson). */
#include "requests.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- deterministic PRNG (splitmix64) ------------------------------------------------------ */

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double rng_unit(uint64_t *s) { return (double)(rng_next(s) >> 11) / 9007199254740992.0; }

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; s && *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* ---- index key names --------------------------------------------------------------------- */

const char *requests_index_pk(const kp_design *d, ptrdiff_t index)
{
    if (index < 0 || (size_t)index >= d->nindexes)
        return d->table.pk.s;
    return d->indexes[index].pk.s;
}

const char *requests_index_sk(const kp_design *d, ptrdiff_t index)
{
    if (index < 0 || (size_t)index >= d->nindexes)
        return d->table.sk.s;
    return d->indexes[index].sk.s;
}

/* ---- attribute values -------------------------------------------------------------------- */

static bool is_numeric_type(const kp_attr *a) { return a && (a->type == KP_ATTR_NUMBER || a->type == KP_ATTR_SHARD); }

const char *items_key_type(const kp_design *d, const char *attr)
{
    bool any = false;
    for (size_t i = 0; i < d->nentities; i++) {
        const kp_keytpl *k = entity_key(&d->entities[i], attr);
        if (!k)
            continue;
        any = true;
        if (k->tpl.n != 1 || k->tpl.parts[0].kind != TPL_ATTR || k->tpl.parts[0].format)
            return "S";
        if (!is_numeric_type(design_attr(d, k->tpl.parts[0].text)))
            return "S";
    }
    if (any)
        return "N";
    return is_numeric_type(design_attr(d, attr)) ? "N" : "S";
}

/* The scalar of a DynamoDB JSON value as text ("S", "N" or "BOOL"); NULL otherwise. */
static const char *scalar_text(const json_t *v, const char **type)
{
    const char *key;
    json_t *x;
    if (!json_is_object(v))
        return NULL;
    json_object_foreach((json_t *)v, key, x)
    {
        if (type)
            *type = key;
        if (json_is_string(x))
            return json_string_value(x);
        if (json_is_true(x))
            return "true";
        if (json_is_false(x))
            return "false";
        return NULL;
    }
    return NULL;
}

char *items_value_text(const kp_design *d, const json_t *item, const char *name)
{
    const char *type = NULL;
    const char *t = scalar_text(json_object_get(item, name), &type);
    if (!t)
        return NULL;
    const kp_attr *a = design_attr(d, name);
    if (type && strcmp(type, "N") == 0 && a && a->format)
        return tpl_apply_format(t, a->format);
    return xstrdup(t);
}

typedef struct render_ctx {
    const kp_design *d;
    const json_t *item;
    char **held; /* values handed to tpl_render, freed afterwards */
    size_t nheld, capheld;
    bool missing;
} render_ctx;

static const char *render_lookup(const char *name, void *vctx)
{
    render_ctx *c = vctx;
    char *v = items_value_text(c->d, c->item, name);
    if (!v) {
        c->missing = true;
        return NULL;
    }
    VEC_GROW(c->held, c->nheld, c->capheld);
    c->held[c->nheld++] = v;
    return v;
}

char *items_render(const kp_design *d, const tpl *t, const json_t *item)
{
    render_ctx c = {.d = d, .item = item};
    char *out = tpl_render(t, render_lookup, &c);
    for (size_t i = 0; i < c.nheld; i++)
        free(c.held[i]);
    free(c.held);
    if (c.missing) {
        free(out);
        return NULL;
    }
    return out;
}

/* ---- item size ------------------------------------------------------------------------- */

static size_t number_size(const char *n)
{
    size_t digits = 0;
    bool lead = true;
    for (const char *c = n; *c; c++) {
        if (!isdigit((unsigned char)*c))
            continue;
        if (lead && *c == '0')
            continue;
        lead = false;
        digits++;
    }
    return (digits + 1) / 2 + 1;
}

static size_t value_size(const json_t *v)
{
    const char *key;
    json_t *x;
    size_t n = 0;
    json_object_foreach((json_t *)v, key, x)
    {
        if (strcmp(key, "S") == 0 || strcmp(key, "B") == 0)
            n += json_string_length(x);
        else if (strcmp(key, "N") == 0)
            n += number_size(json_string_value(x));
        else if (strcmp(key, "BOOL") == 0 || strcmp(key, "NULL") == 0)
            n += 1;
        else if (strcmp(key, "L") == 0) {
            n += 3;
            size_t i;
            json_t *e;
            json_array_foreach(x, i, e) n += 1 + value_size(e);
        } else if (strcmp(key, "M") == 0) {
            n += 3 + items_size(x);
        } else if (json_is_array(x)) { /* SS, NS */
            size_t i;
            json_t *e;
            json_array_foreach(x, i, e) n += json_string_length(e);
        }
    }
    return n;
}

size_t items_size(const json_t *item)
{
    const char *key;
    json_t *v;
    size_t n = 0;
    json_object_foreach((json_t *)item, key, v) n += strlen(key) + value_size(v);
    return n;
}

/* ---- sample item generation ------------------------------------------------------------- */

enum role { ROLE_OTHER, ROLE_PART, ROLE_SORT };

typedef struct gen {
    const kp_design *d;
    const kp_entity *e;
    size_t n;      /* items asked */
    size_t group;  /* items per base-table partition */
    uint64_t rng;
} gen;

static enum role attr_role(const kp_design *d, const kp_entity *e, const char *name)
{
    const kp_keytpl *pk = entity_key(e, d->table.pk.s);
    const kp_keytpl *sk = d->table.sk.s ? entity_key(e, d->table.sk.s) : NULL;
    if (pk ? tpl_has_attr(&pk->tpl, name) : (d->table.pk.s && strcmp(name, d->table.pk.s) == 0))
        return ROLE_PART;
    if (sk ? tpl_has_attr(&sk->tpl, name) : (d->table.sk.s && strcmp(name, d->table.sk.s) == 0))
        return ROLE_SORT;
    return ROLE_OTHER;
}

/* The attribute whose values `name` takes: the `to` side of a join naming it as `from`
 * ({ username: followingUsername }), else the longest other attribute its name ends with
 * (followedUsername -> username, case aside), else itself. Joined values then meet. */
static const char *value_domain(const kp_design *d, const char *name)
{
    for (size_t i = 0; i < d->npatterns; i++)
        for (size_t j = 0; j < d->patterns[i].njoin; j++) {
            const kp_join *jn = &d->patterns[i].join[j];
            if (jn->from.s && jn->to.s && strcmp(jn->from.s, name) == 0)
                return jn->to.s;
        }
    const char *best = name;
    size_t n = strlen(name), bestlen = 0;
    for (size_t i = 0; i < d->nentities; i++)
        for (size_t k = 0; k < d->entities[i].nattrs; k++) {
            const char *o = d->entities[i].attrs[k].s;
            size_t m = o ? strlen(o) : 0;
            if (m >= 3 && m < n && m > bestlen && strcasecmp(name + n - m, o) == 0) {
                best = o;
                bestlen = m;
            }
        }
    return best;
}

/* "customerId" -> "customer", "línea" -> "línea": the stem of string sample values. */
static char *value_stem(const char *name)
{
    size_t n = strlen(name);
    if (n > 2 && (strcmp(name + n - 2, "Id") == 0 || strcmp(name + n - 2, "ID") == 0))
        n -= 2;
    else if (n > 3 && strcmp(name + n - 3, "_id") == 0)
        n -= 3;
    return xstrndup(name, n);
}

/* The fixed value a pattern asks for attribute `name` (by: [status=paid]) number `k`, or NULL. */
static const char *fixed_by_value(const kp_design *d, const char *name, size_t k)
{
    size_t seen = 0;
    for (size_t i = 0; i < d->npatterns; i++)
        for (size_t j = 0; j < d->patterns[i].nby; j++) {
            const kp_by *b = &d->patterns[i].by[j];
            if (b->value && strcmp(b->attr.s, name) == 0 && seen++ == k)
                return b->value;
        }
    return NULL;
}

static size_t pool_size(const kp_attr *a, size_t n)
{
    size_t p = n / 4 < 2 ? 2 : n / 4;
    if (a && isfinite(a->distinct) && a->distinct >= 1 && a->distinct < (double)p)
        p = (size_t)a->distinct;
    return p;
}

static const char *enum_pick(const kp_attr *a, size_t i, uint64_t *rng)
{
    if (a->nvalues == 0)
        return "value";
    if (i < a->nvalues)
        return a->values[i].name; /* every value appears at least once */
    double u = rng_unit(rng), acc = 0, total = 0;
    for (size_t k = 0; k < a->nvalues; k++)
        total += a->values[k].share > 0 ? a->values[k].share : 0;
    if (total <= 0)
        return a->values[i % a->nvalues].name;
    for (size_t k = 0; k < a->nvalues; k++) {
        acc += (a->values[k].share > 0 ? a->values[k].share : 0) / total;
        if (u < acc)
            return a->values[k].name;
    }
    return a->values[a->nvalues - 1].name;
}

/* The k-th partition's value of an enum in a partition key: the values patterns fix
 * (by: [status=paid]) first, so that their partitions have data, then the others in order. */
static const char *enum_part_value(const kp_design *d, const kp_attr *a, size_t k)
{
    if (a->nvalues == 0)
        return "value";
    size_t nfixed = 0;
    const char *order[64];
    for (size_t f = 0; nfixed < 64; f++) {
        const char *v = fixed_by_value(d, a->name, f);
        if (!v)
            break;
        bool dup = false, known = false;
        for (size_t q = 0; q < nfixed; q++)
            dup = dup || strcmp(order[q], v) == 0;
        for (size_t q = 0; q < a->nvalues; q++)
            known = known || strcmp(a->values[q].name, v) == 0;
        if (!dup && known)
            order[nfixed++] = v;
    }
    size_t n = nfixed;
    for (size_t q = 0; q < a->nvalues && n < 64; q++) {
        bool dup = false;
        for (size_t r = 0; r < nfixed; r++)
            dup = dup || strcmp(order[r], a->values[q].name) == 0;
        if (!dup)
            order[n++] = a->values[q].name;
    }
    return order[k % n];
}

static char *iso_date(long day)
{
    /* days after 2025-01-01 (civil from days, Howard Hinnant's algorithm) */
    long z = day + 20089 + 719468; /* 2025-01-01 is day 20089 of the Unix epoch */
    long era = (z >= 0 ? z : z - 146096) / 146097;
    long doe = z - era * 146097;
    long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    long y = yoe + era * 400;
    long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    long mp = (5 * doy + 2) / 153;
    long dd = doy - (153 * mp + 2) / 5 + 1;
    long mm = mp < 10 ? mp + 3 : mp - 9;
    if (mm <= 2)
        y++;
    return xasprintf("%04ld-%02ld-%02ld", y, mm, dd);
}

/* Sets attribute `name` of item i in `item`. */
static void gen_value(gen *g, json_t *item, const char *name, size_t i)
{
    const kp_attr *a = design_attr(g->d, name);
    enum role role = attr_role(g->d, g->e, name);
    kp_attr_type type = a ? a->type : KP_ATTR_STRING;
    size_t k; /* the value's number in the attribute's pool */
    if (role == ROLE_PART)
        k = i / g->group;
    else if (role == ROLE_SORT)
        k = i;
    else
        k = (size_t)(rng_next(&g->rng) % pool_size(a, g->n));
    const char *fixed = role != ROLE_PART ? fixed_by_value(g->d, name, i) : NULL;

    switch (type) {
    case KP_ATTR_NUMBER: {
        long v;
        if (fixed)
            v = strtol(fixed, NULL, 10);
        else if (role == ROLE_OTHER && !(a && a->format))
            v = 1 + (long)(rng_next(&g->rng) % 999);
        else if (role == ROLE_SORT)
            v = (long)(i % g->group) * 3 + 1; /* 1, 4, 7, 10: one partition crosses a digit
                                                  boundary, so unpadded numbers show */
        else
            v = (long)k + 1;
        char *s = xasprintf("%ld", v);
        json_object_set_new(item, name, json_pack("{s:s}", "N", s));
        free(s);
        break;
    }
    case KP_ATTR_SHARD: {
        int count = a && a->shard_count > 0 ? a->shard_count : 10;
        char *s = xasprintf("%zu", (role == ROLE_OTHER ? i : k) % (size_t)count);
        json_object_set_new(item, name, json_pack("{s:s}", "N", s));
        free(s);
        break;
    }
    case KP_ATTR_BOOL:
        json_object_set_new(item, name, json_pack("{s:b}", "BOOL", (int)(i % 2 == 0)));
        break;
    case KP_ATTR_ENUM: {
        const char *v = role == ROLE_PART ? enum_part_value(g->d, a, k) : enum_pick(a, i, &g->rng);
        json_object_set_new(item, name, json_pack("{s:s}", "S", v));
        break;
    }
    case KP_ATTR_DATE: {
        char *s;
        if (fixed)
            s = xstrdup(fixed);
        else if (role == ROLE_SORT)
            s = iso_date((long)(i * 3 + rng_next(&g->rng) % 3));
        else
            s = iso_date((long)k * 7);
        json_object_set_new(item, name, json_pack("{s:s}", "S", s));
        free(s);
        break;
    }
    case KP_ATTR_STRING:
    default: {
        char *s;
        if (fixed) {
            s = xstrdup(fixed);
        } else {
            char *stem = value_stem(value_domain(g->d, name));
            s = xasprintf("%s-%03zu", stem, k + 1);
            free(stem);
        }
        json_object_set_new(item, name, json_pack("{s:s}", "S", s));
        free(s);
        break;
    }
    }
}

static bool sparse_holds(const kp_design *d, const kp_sparse *sp, const json_t *item, uint64_t *rng, size_t i)
{
    if (sp->kind == KP_SPARSE_SHARE)
        return i == 0 || rng_unit(rng) < sp->share;
    char *v = items_value_text(d, item, sp->cond_attr.s);
    bool any = false;
    for (size_t k = 0; v && k < sp->nvalues; k++)
        if (sp->values[k].s && strcmp(sp->values[k].s, v) == 0)
            any = true;
    free(v);
    return sp->op == KP_COND_NE ? !any : any;
}

/* The attributes the entity knows, each once: its `attributes`, then template placeholders. */
static void known_attrs(const kp_entity *e, const char ***out, size_t *n)
{
    const char **v = NULL;
    size_t cap = 0;
    *n = 0;
#define ADD_NAME(s)                                                                                \
    do {                                                                                           \
        bool dup_ = false;                                                                         \
        for (size_t q_ = 0; q_ < *n; q_++)                                                         \
            if (strcmp(v[q_], (s)) == 0)                                                           \
                dup_ = true;                                                                       \
        if (!dup_) {                                                                               \
            VEC_GROW(v, *n, cap);                                                                  \
            v[(*n)++] = (s);                                                                       \
        }                                                                                          \
    } while (0)
    for (size_t i = 0; i < e->nattrs; i++)
        ADD_NAME(e->attrs[i].s);
    for (size_t i = 0; i < e->nkeys; i++)
        for (size_t p = 0; p < e->keys[i].tpl.n; p++)
            if (e->keys[i].tpl.parts[p].kind == TPL_ATTR)
                ADD_NAME(e->keys[i].tpl.parts[p].text);
#undef ADD_NAME
    *out = v;
}

/* The item's table key as one text ("PK\x1fSK"), NULL when it lacks the table's key. */
static char *primary_key_text(const kp_design *d, const json_t *item)
{
    const char *pk = scalar_text(json_object_get(item, d->table.pk.s), NULL);
    if (!pk)
        return NULL;
    if (!d->table.sk.s)
        return xstrdup(pk);
    const char *sk = scalar_text(json_object_get(item, d->table.sk.s), NULL);
    if (!sk)
        return NULL;
    return xasprintf("%s\x1f%s", pk, sk);
}

static json_t *gen_item(gen *g, size_t i, const char **names, size_t nnames)
{
    const kp_design *d = g->d;
    const kp_entity *e = g->e;
    json_t *item = json_object();
    for (size_t k = 0; k < nnames; k++)
        gen_value(g, item, names[k], i);
    /* key attributes, rendered from the templates (sparse ones only where they hold) */
    for (size_t k = 0; k < e->nkeys; k++) {
        const kp_keytpl *kt = &e->keys[k];
        const kp_sparse *sp = entity_sparse(e, kt->attr.s);
        if (sp && !sparse_holds(d, sp, item, &g->rng, i))
            continue;
        char *v = items_render(d, &kt->tpl, item);
        if (!v)
            continue;
        json_object_set_new(item, kt->attr.s, json_pack("{s:s}", items_key_type(d, kt->attr.s), v));
        free(v);
    }
    /* sparse plain attributes used as index keys */
    for (size_t k = 0; k < e->nsparse; k++) {
        const kp_sparse *sp = &e->sparse[k];
        if (!entity_key(e, sp->attr.s) && json_object_get(item, sp->attr.s) &&
            !sparse_holds(d, sp, item, &g->rng, i))
            json_object_del(item, sp->attr.s);
    }
    /* the type tag single-table designs filter on (the resolver's "entityType = :entityType") */
    if (!entity_knows(e, "entityType"))
        json_object_set_new(item, "entityType", json_pack("{s:s}", "S", e->name));
    return item;
}

void items_pad(const kp_entity *e, json_t *item)
{
    if (!(isfinite(e->size) && e->size > 0))
        return;
    json_object_del(item, "_pad");
    size_t have = items_size(item), want = (size_t)e->size, over = strlen("_pad");
    if (want > have + over && want <= 400000) {
        size_t n = want - have - over;
        char *pad = xmalloc(n + 1);
        memset(pad, 'x', n);
        pad[n] = '\0';
        json_object_set_new(item, "_pad", json_pack("{s:s}", "S", pad));
        free(pad);
    }
}

size_t items_default_count(const kp_design *d, const kp_entity *e)
{
    size_t n = 12;
    for (size_t i = 0; i < e->nattrs; i++) {
        const kp_attr *a = design_attr(d, e->attrs[i].s);
        if (a && a->type == KP_ATTR_ENUM && a->nvalues * 2 > n)
            n = a->nvalues * 2;
    }
    if (isfinite(e->count) && e->count >= 1 && e->count < (double)n)
        n = (size_t)e->count;
    return n;
}

json_t *items_generate(const kp_design *d, const kp_entity *e, size_t n, unsigned seed)
{
    json_t *out = json_array();
    if (!d || !e || !d->table.pk.s)
        return out;
    const kp_keytpl *sk = d->table.sk.s ? entity_key(e, d->table.sk.s) : NULL;
    bool sorted = d->table.sk.s && (!sk || !tpl_is_constant(&sk->tpl));
    gen g = {.d = d, .e = e, .n = n, .group = sorted ? 4 : 1,
             .rng = ((uint64_t)seed << 32) ^ hash_str(e->name)};
    const char **names;
    size_t nnames;
    known_attrs(e, &names, &nnames);
    char **keys = NULL;
    size_t nkeys = 0, capkeys = 0;
    for (size_t i = 0; json_array_size(out) < n && i < n * 3 + 8; i++) {
        json_t *item = gen_item(&g, i, names, nnames);
        char *key = primary_key_text(d, item);
        bool dup = !key;
        for (size_t k = 0; key && k < nkeys; k++)
            if (strcmp(keys[k], key) == 0)
                dup = true;
        if (dup) {
            free(key);
            json_decref(item);
            continue;
        }
        VEC_GROW(keys, nkeys, capkeys);
        keys[nkeys++] = key;
        json_array_append_new(out, item);
    }
    for (size_t k = 0; k < nkeys; k++)
        free(keys[k]);
    free(keys);
    free(names);
    return out;
}

json_t *items_sample(const kp_design *d, unsigned seed, bool pad, json_t **collisions)
{
    json_t *all = json_object();
    json_t *coll = json_array();
    json_t *owner = json_object(); /* primary key text -> entity name */
    for (size_t i = 0; i < d->nentities; i++) {
        const kp_entity *e = &d->entities[i];
        json_t *items = items_generate(d, e, items_default_count(d, e), seed);
        json_t *kept = json_array();
        size_t k;
        json_t *it;
        json_array_foreach(items, k, it)
        {
            char *key = primary_key_text(d, it);
            json_t *o = key ? json_object_get(owner, key) : NULL;
            if (o) {
                json_array_append_new(coll, json_pack("{s:s,s:s,s:s}", "entity", e->name, "other",
                                                      json_string_value(o), "key", key));
            } else {
                if (key)
                    json_object_set_new(owner, key, json_string(e->name));
                if (pad)
                    items_pad(e, it);
                json_array_append(kept, it);
            }
            free(key);
        }
        json_decref(items);
        json_object_set_new(all, e->name, kept);
    }
    json_decref(owner);
    if (collisions)
        *collisions = coll;
    else
        json_decref(coll);
    return all;
}

char *items_export(const kp_design *d, char **err)
{
    if (!d->table.name || !d->table.pk.s) {
        *err = xstrdup("the design has no table name or partition key");
        return NULL;
    }
    json_t *sample = items_sample(d, ITEMS_DEFAULT_SEED, false, NULL);
    json_t *counts = json_object();
    json_t *batches = json_array();
    json_t *puts = NULL;
    for (size_t i = 0; i < d->nentities; i++) {
        json_t *items = json_object_get(sample, d->entities[i].name);
        json_object_set_new(counts, d->entities[i].name, json_integer((json_int_t)json_array_size(items)));
        size_t k;
        json_t *it;
        json_array_foreach(items, k, it)
        {
            if (!puts || json_array_size(puts) == 25) {
                puts = json_array();
                json_array_append_new(batches, json_pack("{s:{s:o}}", "RequestItems", d->table.name, puts));
            }
            json_array_append_new(puts, json_pack("{s:{s:O}}", "PutRequest", "Item", it));
        }
    }
    json_t *doc = json_pack("{s:s,s:s,s:i,s:o,s:o}", "table", d->table.name, "usage",
                            "each element of batches is one BatchWriteItem request (25 puts at most): "
                            "aws dynamodb batch-write-item --cli-input-json \"$(jq -c '.batches[N]' FILE)\"",
                            "seed", (int)ITEMS_DEFAULT_SEED, "items", counts, "batches", batches);
    char *text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(doc);
    json_decref(sample);
    char *out = xstrdup(text);
    free(text);
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, out);
    sbuf_addc(&b, '\n');
    free(out);
    return sbuf_steal(&b);
}

/* ---- expressions ---------------------------------------------------------------------------- */

typedef enum tok_kind { TK_END, TK_NAME, TK_VALUE, TK_PUNCT, TK_BAD } tok_kind;

typedef struct tok {
    tok_kind kind;
    const char *s;
    size_t n;
} tok;

static bool name_byte(unsigned char c) { return isalnum(c) || c == '_' || c == '-' || c == '.' || c >= 0x80; }

static tok next_tok(const char **p)
{
    const char *s = *p;
    while (*s == ' ' || *s == '\t' || *s == '\n')
        s++;
    tok t = {TK_END, s, 0};
    if (!*s) {
        *p = s;
        return t;
    }
    if (*s == ':' || *s == '#') {
        const char *e = s + 1;
        while (name_byte((unsigned char)*e))
            e++;
        t.kind = *s == ':' ? TK_VALUE : TK_NAME;
        t.n = (size_t)(e - s);
    } else if (name_byte((unsigned char)*s)) {
        const char *e = s;
        while (name_byte((unsigned char)*e))
            e++;
        t.kind = TK_NAME;
        t.n = (size_t)(e - s);
    } else if ((s[0] == '<' || s[0] == '>') && s[1] == '=') {
        t.kind = TK_PUNCT, t.n = 2;
    } else if (s[0] == '<' && s[1] == '>') {
        t.kind = TK_PUNCT, t.n = 2;
    } else if (strchr("=<>(),", *s)) {
        t.kind = TK_PUNCT, t.n = 1;
    } else {
        t.kind = TK_BAD, t.n = 1;
    }
    *p = s + t.n;
    return t;
}

static bool tok_is(const tok *t, const char *word)
{
    return strlen(word) == t->n && strncasecmp(t->s, word, t->n) == 0;
}

/* Operators always; function names only when a '(' follows (an attribute may be called "size"). */
static bool is_keyword(const tok *t)
{
    static const char *const ops[] = {"AND", "OR", "NOT", "BETWEEN", "IN"};
    static const char *const funcs[] = {"begins_with", "contains", "attribute_exists", "attribute_not_exists",
                                        "attribute_type", "size"};
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        if (tok_is(t, ops[i]))
            return true;
    const char *after = t->s + t->n;
    while (*after == ' ' || *after == '\t')
        after++;
    for (size_t i = 0; *after == '(' && i < sizeof funcs / sizeof *funcs; i++)
        if (tok_is(t, funcs[i]))
            return true;
    return false;
}

char *requests_expr_names(const char *expr, json_t *names)
{
    sbuf b;
    sbuf_init(&b);
    const char *p = expr;
    for (;;) {
        const char *before = p;
        tok t = next_tok(&p);
        sbuf_addn(&b, before, (size_t)(t.s - before));
        if (t.kind == TK_END)
            break;
        if (t.kind == TK_NAME && t.s[0] != '#' && !is_keyword(&t) && !isdigit((unsigned char)t.s[0])) {
            char *name = xstrndup(t.s, t.n);
            const char *key = NULL, *k;
            json_t *v;
            json_object_foreach(names, k, v) if (strcmp(json_string_value(v), name) == 0) key = k;
            char *ph = key ? xstrdup(key) : xasprintf("#n%zu", json_object_size(names));
            if (!key)
                json_object_set_new(names, ph, json_string(name));
            sbuf_add(&b, ph);
            free(ph);
            free(name);
        } else {
            sbuf_addn(&b, t.s, t.n);
        }
    }
    return sbuf_steal(&b);
}

void requests_keycond_free(requests_keycond *kc)
{
    free(kc->pk);
    free(kc->pk_value);
    free(kc->sk);
    free(kc->sk_value);
    free(kc->sk_value2);
    memset(kc, 0, sizeof *kc);
}

static bool expect(const char **p, tok_kind kind, const char *word, char **out)
{
    tok t = next_tok(p);
    if (t.kind != kind || (word && !tok_is(&t, word)))
        return false;
    if (out)
        *out = xstrndup(t.s, t.n);
    return true;
}

bool requests_keycond_parse(const char *text, requests_keycond *out, char **err)
{
    memset(out, 0, sizeof *out);
    const char *p = text ? text : "";
    bool ok = expect(&p, TK_NAME, NULL, &out->pk) && expect(&p, TK_PUNCT, "=", NULL) &&
              expect(&p, TK_VALUE, NULL, &out->pk_value);
    if (ok) {
        const char *save = p;
        tok t = next_tok(&p);
        if (t.kind == TK_END) {
            out->op = RQ_SK_NONE;
        } else if (!tok_is(&t, "AND")) {
            ok = false;
        } else {
            save = p;
            t = next_tok(&p);
            if (tok_is(&t, "begins_with")) {
                out->op = RQ_SK_BEGINS;
                ok = expect(&p, TK_PUNCT, "(", NULL) && expect(&p, TK_NAME, NULL, &out->sk) &&
                     expect(&p, TK_PUNCT, ",", NULL) && expect(&p, TK_VALUE, NULL, &out->sk_value) &&
                     expect(&p, TK_PUNCT, ")", NULL);
            } else if (t.kind == TK_NAME) {
                out->sk = xstrndup(t.s, t.n);
                tok op = next_tok(&p);
                if (tok_is(&op, "BETWEEN")) {
                    out->op = RQ_SK_BETWEEN;
                    ok = expect(&p, TK_VALUE, NULL, &out->sk_value) && expect(&p, TK_NAME, "AND", NULL) &&
                         expect(&p, TK_VALUE, NULL, &out->sk_value2);
                } else {
                    out->op = tok_is(&op, "=")    ? RQ_SK_EQ
                              : tok_is(&op, "<")  ? RQ_SK_LT
                              : tok_is(&op, "<=") ? RQ_SK_LE
                              : tok_is(&op, ">")  ? RQ_SK_GT
                              : tok_is(&op, ">=") ? RQ_SK_GE
                                                  : RQ_SK_NONE;
                    ok = out->op != RQ_SK_NONE && expect(&p, TK_VALUE, NULL, &out->sk_value);
                }
            } else {
                ok = false;
            }
            (void)save;
        }
        if (ok && next_tok(&p).kind != TK_END)
            ok = false;
    }
    if (!ok) {
        *err = xasprintf("cannot read the key condition '%s'; expected 'PK = :pk' optionally followed by "
                         "'AND SK = :sk', '<', '<=', '>', '>=', 'begins_with(SK, :sk)' or 'SK BETWEEN :a AND :b'",
                         text ? text : "");
        requests_keycond_free(out);
        return false;
    }
    return true;
}

/* ---- request inputs ---------------------------------------------------------------------- */

static int typed_cmp(const json_t *a, const json_t *b);

static const char *keyval_template(const kp_step *s, const char *name)
{
    for (size_t i = 0; i < s->nvalues; i++)
        if (s->values[i].name && strcmp(s->values[i].name, name) == 0)
            return s->values[i].value;
    return NULL;
}

/* The rendered text of value `name`: from `values`, else the step's template over samples[0]. */
static char *value_text(const kp_design *d, const kp_step *s, const json_t *values, const json_t *sample,
                        const char *name, char **err)
{
    const json_t *v = values ? json_object_get(values, name) : NULL;
    if (json_is_string(v))
        return xstrdup(json_string_value(v));
    const char *src = keyval_template(s, name);
    if (!src) {
        *err = xasprintf("the plan gives no value for %s", name);
        return NULL;
    }
    tpl t;
    const char *perr;
    size_t off;
    if (!tpl_parse(src, &t, &perr, &off)) {
        *err = xasprintf("value %s: cannot read template '%s': %s", name, src, perr);
        return NULL;
    }
    char *out = sample ? items_render(d, &t, sample) : NULL;
    if (!out)
        out = tpl_render(&t, NULL, NULL); /* no sample: keep the placeholders visible */
    tpl_free(&t);
    return out;
}

static json_t *typed(const char *type, const char *text) { return json_pack("{s:s}", type, text); }

/* The table key of a sample item: {"PK": {...}, "SK": {...}}. */
static json_t *item_key(const kp_design *d, const json_t *item)
{
    json_t *k = json_object();
    json_t *pk = json_object_get(item, d->table.pk.s);
    if (pk)
        json_object_set(k, d->table.pk.s, pk);
    if (d->table.sk.s) {
        json_t *sk = json_object_get(item, d->table.sk.s);
        if (sk)
            json_object_set(k, d->table.sk.s, sk);
    }
    return k;
}

static void add_value_from_sample(const kp_design *d, json_t *values, const char *vname, const char *attr,
                                  const json_t *sample)
{
    json_t *v = sample ? json_object_get(sample, attr) : NULL;
    if (v)
        json_object_set(values, vname, v);
    else
        json_object_set_new(values, vname, typed(items_key_type(d, attr), "example"));
}

/* Query: the key condition with #names and typed values. */
static bool add_key_condition(const kp_design *d, const kp_step *s, json_t *in, json_t *names, json_t *vals,
                              const json_t *values, const json_t *sample, char **err)
{
    requests_keycond kc;
    if (!requests_keycond_parse(s->key_condition, &kc, err))
        return false;
    char *pv = value_text(d, s, values, sample, kc.pk_value, err);
    if (!pv) {
        requests_keycond_free(&kc);
        return false;
    }
    json_object_set_new(vals, kc.pk_value, typed(items_key_type(d, kc.pk), pv));
    free(pv);
    for (int w = 0; kc.op != RQ_SK_NONE && w < 2; w++) {
        const char *vn = w == 0 ? kc.sk_value : kc.sk_value2;
        if (!vn)
            continue;
        char *sv = value_text(d, s, values, sample, vn, err);
        if (!sv) {
            requests_keycond_free(&kc);
            return false;
        }
        json_object_set_new(vals, vn, typed(items_key_type(d, kc.sk), sv));
        free(sv);
    }
    char *expr = requests_expr_names(s->key_condition, names);
    json_object_set_new(in, "KeyConditionExpression", json_string(expr));
    free(expr);
    requests_keycond_free(&kc);
    return true;
}

/* "N" when a value template is one number or shard placeholder, else "S". */
static const char *template_type(const kp_design *d, const char *src)
{
    tpl t;
    const char *e;
    size_t off;
    if (!src || !tpl_parse(src, &t, &e, &off))
        return "S";
    bool num = t.n == 1 && t.parts[0].kind == TPL_ATTR && is_numeric_type(design_attr(d, t.parts[0].text));
    tpl_free(&t);
    return num ? "N" : "S";
}

/* FilterExpression: the step's text with #names; each value from `values`, else the step's
 * template rendered over the sample, else (a value named after an attribute, ":total") the
 * sample's value of that attribute. */
static void add_filter(const kp_design *d, const kp_step *s, const json_t *values, const char *filter, json_t *in,
                       json_t *names, json_t *vals, const json_t *sample)
{
    char *expr = requests_expr_names(filter, names);
    const char *p = filter;
    for (;;) {
        tok t = next_tok(&p);
        if (t.kind == TK_END)
            break;
        if (t.kind != TK_VALUE)
            continue;
        char *vn = xstrndup(t.s, t.n);
        const char *src = keyval_template(s, vn);
        const json_t *given = values ? json_object_get(values, vn) : NULL;
        if (json_object_get(vals, vn)) {
            /* already set */
        } else if (json_is_string(given) || src) {
            char *err = NULL;
            char *text = value_text(d, s, values, sample, vn, &err);
            json_object_set_new(vals, vn, typed(template_type(d, src), text ? text : ""));
            free(text);
            free(err);
        } else {
            char *attr = xstrdup(vn + 1);
            size_t n = strlen(attr);
            while (n > 0 && isdigit((unsigned char)attr[n - 1]))
                attr[--n] = '\0';
            add_value_from_sample(d, vals, vn, attr, sample);
            free(attr);
        }
        free(vn);
    }
    json_object_set_new(in, "FilterExpression", json_string(expr));
    free(expr);
}

/* DynamoDB wants value names of [A-Za-z0-9_]: ":línea" becomes ":v0" in every expression. */
static void safe_value_names(json_t *in, json_t *vals)
{
    json_t *map = json_object();
    const char *k;
    json_t *v;
    size_t n = 0;
    json_object_foreach(vals, k, v)
    {
        bool ok = k[0] == ':' && k[1];
        for (const char *c = k + 1; *c && ok; c++)
            ok = isalnum((unsigned char)*c) || *c == '_';
        if (!ok) {
            char *nn;
            do
                nn = xasprintf(":v%zu", n++);
            while (json_object_get(vals, nn) && (free(nn), 1));
            json_object_set_new(map, k, json_string(nn));
            free(nn);
        }
    }
    if (!json_object_size(map)) {
        json_decref(map);
        return;
    }
    static const char *const exprs[] = {"KeyConditionExpression", "FilterExpression", "UpdateExpression"};
    for (size_t i = 0; i < 3; i++) {
        const char *e = json_string_value(json_object_get(in, exprs[i]));
        if (!e)
            continue;
        sbuf b;
        sbuf_init(&b);
        const char *p = e;
        for (;;) {
            const char *before = p;
            tok t = next_tok(&p);
            sbuf_addn(&b, before, (size_t)(t.s - before));
            if (t.kind == TK_END)
                break;
            char *tn = xstrndup(t.s, t.n);
            const char *r = t.kind == TK_VALUE ? json_string_value(json_object_get(map, tn)) : NULL;
            sbuf_add(&b, r ? r : tn);
            free(tn);
        }
        json_object_set_new(in, exprs[i], json_string(b.s ? b.s : ""));
        sbuf_free(&b);
    }
    json_object_foreach(map, k, v)
    {
        json_t *val = json_incref(json_object_get(vals, k));
        json_object_del(vals, k);
        json_object_set_new(vals, json_string_value(v), val);
    }
    json_decref(map);
}

/* Scan: a filter on the pattern's `by` attributes with the sample's values. */
static void add_by_filter(const kp_design *d, const kp_pattern *p, json_t *in, json_t *names, json_t *vals,
                          const json_t *sample)
{
    sbuf f;
    sbuf_init(&f);
    for (size_t i = 0; i < p->nby; i++) {
        char *vn = xasprintf(":by%zu", i);
        sbuf_printf(&f, "%s%s = %s", i ? " AND " : "", p->by[i].attr.s, vn);
        if (p->by[i].value) {
            const kp_attr *a = design_attr(d, p->by[i].attr.s);
            json_object_set_new(vals, vn, typed(is_numeric_type(a) ? "N" : "S", p->by[i].value));
        } else {
            add_value_from_sample(d, vals, vn, p->by[i].attr.s, sample);
        }
        free(vn);
    }
    if (f.len) {
        char *expr = requests_expr_names(f.s, names);
        json_object_set_new(in, "FilterExpression", json_string(expr));
        free(expr);
    }
    sbuf_free(&f);
}

json_t *requests_step_input(const kp_design *d, const kp_pattern_result *r, const kp_step *s,
                            const char *table, const json_t *values, const json_t *const *samples,
                            size_t nsamples, bool with_filter, char **err)
{
    const kp_pattern *p = r->pattern;
    const json_t *sample = nsamples ? samples[0] : NULL;
    *err = NULL;
    bool strong = p && (p->consistency == KP_STRONG || p->consistency == KP_TRANSACTIONAL) &&
                  (s->index < 0 || d->indexes[s->index].kind == KP_LSI);
    json_t *in = json_object();
    json_t *names = json_object(), *vals = json_object();
    bool ok = true;
    switch (s->op) {
    case KP_OP_GETITEM: {
        requests_keycond kc;
        if (!requests_keycond_parse(s->key_condition, &kc, err)) {
            ok = false;
            break;
        }
        json_t *key = json_object();
        char *pv = value_text(d, s, values, sample, kc.pk_value, err);
        char *sv = pv && kc.op == RQ_SK_EQ ? value_text(d, s, values, sample, kc.sk_value, err) : NULL;
        if (!pv || (kc.op == RQ_SK_EQ && !sv)) {
            ok = false;
        } else {
            json_object_set_new(key, kc.pk, typed(items_key_type(d, kc.pk), pv));
            if (sv)
                json_object_set_new(key, kc.sk, typed(items_key_type(d, kc.sk), sv));
        }
        free(pv);
        free(sv);
        requests_keycond_free(&kc);
        json_object_set_new(in, "TableName", json_string(table));
        json_object_set_new(in, "Key", key);
        if (strong)
            json_object_set_new(in, "ConsistentRead", json_true());
        break;
    }
    case KP_OP_QUERY:
        json_object_set_new(in, "TableName", json_string(table));
        if (s->index >= 0)
            json_object_set_new(in, "IndexName", json_string(d->indexes[s->index].name));
        ok = add_key_condition(d, s, in, names, vals, values, sample, err);
        if (ok && with_filter && s->filter && *s->filter)
            add_filter(d, s, values, s->filter, in, names, vals, sample);
        json_object_set_new(in, "ScanIndexForward", json_boolean(s->forward));
        if (isfinite(s->limit) && s->limit >= 1)
            json_object_set_new(in, "Limit", json_integer((json_int_t)s->limit));
        if (strong)
            json_object_set_new(in, "ConsistentRead", json_true());
        break;
    case KP_OP_SCAN:
        json_object_set_new(in, "TableName", json_string(table));
        if (s->index >= 0)
            json_object_set_new(in, "IndexName", json_string(d->indexes[s->index].name));
        if (with_filter && s->filter && *s->filter)
            add_filter(d, s, values, s->filter, in, names, vals, sample);
        else if (with_filter && p)
            add_by_filter(d, p, in, names, vals, sample);
        if (isfinite(s->limit) && s->limit >= 1)
            json_object_set_new(in, "Limit", json_integer((json_int_t)s->limit));
        if (strong)
            json_object_set_new(in, "ConsistentRead", json_true());
        break;
    case KP_OP_BATCHGET: {
        json_t *keys = json_array();
        for (size_t i = 0; i < nsamples && i < 100; i++)
            json_array_append_new(keys, item_key(d, samples[i]));
        json_t *ri = json_object();
        json_t *t = json_pack("{s:o}", "Keys", keys);
        if (strong)
            json_object_set_new(t, "ConsistentRead", json_true());
        json_object_set_new(ri, table, t);
        json_object_set_new(in, "RequestItems", ri);
        break;
    }
    case KP_OP_PUTITEM:
        json_object_set_new(in, "TableName", json_string(table));
        json_object_set(in, "Item", sample ? (json_t *)sample : json_object());
        break;
    case KP_OP_DELETEITEM:
        json_object_set_new(in, "TableName", json_string(table));
        json_object_set_new(in, "Key", sample ? item_key(d, sample) : json_object());
        break;
    case KP_OP_UPDATEITEM: {
        json_object_set_new(in, "TableName", json_string(table));
        json_object_set_new(in, "Key", sample ? item_key(d, sample) : json_object());
        sbuf u;
        sbuf_init(&u);
        if (p)
            for (size_t i = 0; i < p->nchanges; i++) {
                char *vn = xasprintf(":c%zu", i), *nn = xasprintf("#c%zu", i);
                sbuf_printf(&u, "%s%s = %s", i ? ", " : "SET ", nn, vn);
                json_object_set_new(names, nn, json_string(p->changes[i].s));
                add_value_from_sample(d, vals, vn, p->changes[i].s, sample);
                free(vn);
                free(nn);
            }
        if (!u.len && sample) {
            /* no changes listed: touch one non-key attribute so the request is complete */
            const char *k;
            json_t *v;
            json_object_foreach((json_t *)sample, k, v)
            {
                if (strcmp(k, d->table.pk.s) == 0 || (d->table.sk.s && strcmp(k, d->table.sk.s) == 0))
                    continue;
                sbuf_add(&u, "SET #c0 = :c0");
                json_object_set_new(names, "#c0", json_string(k));
                json_object_set(vals, ":c0", v);
                break;
            }
        }
        if (u.len)
            json_object_set_new(in, "UpdateExpression", json_string(u.s));
        sbuf_free(&u);
        break;
    }
    case KP_OP_TRANSACTWRITE: {
        json_t *ti = json_array();
        for (size_t i = 0; i < nsamples && i < 100; i++)
            json_array_append_new(ti, json_pack("{s:{s:s,s:O}}", "Put", "TableName", table, "Item", samples[i]));
        json_object_set_new(in, "TransactItems", ti);
        break;
    }
    case KP_OP_NONE:
    default:
        *err = xstrdup("the step has no DynamoDB operation");
        ok = false;
        break;
    }
    if (ok && json_object_size(names))
        json_object_set(in, "ExpressionAttributeNames", names);
    if (ok && json_object_size(vals)) {
        safe_value_names(in, vals);
        json_object_set(in, "ExpressionAttributeValues", vals);
    }
    if (ok)
        json_object_set_new(in, "ReturnConsumedCapacity", json_string("TOTAL"));
    json_decref(names);
    json_decref(vals);
    if (!ok) {
        json_decref(in);
        if (!*err)
            *err = xstrdup("cannot build the request");
        return NULL;
    }
    return in;
}

/* ---- anchors --------------------------------------------------------------------------------- */

static bool matches_fixed_by(const kp_design *d, const kp_pattern *p, const json_t *item)
{
    for (size_t i = 0; p && i < p->nby; i++) {
        if (!p->by[i].value)
            continue;
        char *v = items_value_text(d, item, p->by[i].attr.s);
        bool ok = v && strcmp(v, p->by[i].value) == 0;
        free(v);
        if (!ok)
            return false;
    }
    return true;
}

const json_t *requests_anchor(const kp_design *d, const kp_pattern *p, const kp_entity *e, ptrdiff_t index,
                              const json_t *items)
{
    (void)e;
    const char *pk = requests_index_pk(d, index), *sk = requests_index_sk(d, index);
    const json_t *best = NULL;
    size_t best_n = 0;
    size_t i;
    json_t *it;
    json_array_foreach(items, i, it)
    {
        if (!json_object_get(it, pk) || (sk && !json_object_get(it, sk)) || !matches_fixed_by(d, p, it))
            continue;
        const char *v = scalar_text(json_object_get(it, pk), NULL);
        size_t n = 0, j;
        json_t *o;
        json_array_foreach(items, j, o)
        {
            const char *w = scalar_text(json_object_get(o, pk), NULL);
            if (w && v && strcmp(v, w) == 0 && (!sk || json_object_get(o, sk)))
                n++;
        }
        if (n > best_n) {
            best = it;
            best_n = n;
        }
    }
    return best;
}

/* ---- requests export ---------------------------------------------------------------------- */

static bool dynamodb_plan(kp_plan p)
{
    return p == KP_PLAN_GET || p == KP_PLAN_QUERY || p == KP_PLAN_MULTI || p == KP_PLAN_SCAN ||
           p == KP_PLAN_WRITE || p == KP_PLAN_TRANSACT;
}

static const json_t *entity_items(const json_t *sample, const kp_entity *e)
{
    return e ? json_object_get(sample, e->name) : NULL;
}

/* For a BETWEEN key condition on the pattern's range attribute: the bounds rendered from the
 * lowest and the highest value of the items in the anchor's partition, so that the example
 * request returns several items. NULL otherwise (caller json_decref). */
static json_t *range_values(const kp_design *d, const kp_pattern *p, const kp_step *s, const json_t *items,
                            const json_t *anchor)
{
    requests_keycond kc;
    char *err = NULL;
    if (s->op != KP_OP_QUERY || !p->range.s || !requests_keycond_parse(s->key_condition, &kc, &err)) {
        free(err);
        return NULL;
    }
    json_t *out = NULL;
    const char *pv = scalar_text(json_object_get(anchor, kc.pk), NULL);
    const json_t *lo = NULL, *hi = NULL;
    size_t i;
    json_t *it;
    json_array_foreach((json_t *)items, i, it)
    {
        const char *v = scalar_text(json_object_get(it, kc.pk), NULL);
        const json_t *rv = json_object_get(it, p->range.s);
        if (!v || !pv || strcmp(v, pv) != 0 || !rv)
            continue;
        if (!lo || typed_cmp(rv, lo) < 0)
            lo = rv;
        if (!hi || typed_cmp(rv, hi) > 0)
            hi = rv;
    }
    if (kc.op == RQ_SK_BETWEEN && lo && hi) {
        out = json_object();
        const char *names[2] = {kc.sk_value, kc.sk_value2};
        const json_t *bounds[2] = {lo, hi};
        for (int b = 0; b < 2; b++) {
            json_t *copy = json_deep_copy(anchor);
            json_object_set(copy, p->range.s, (json_t *)bounds[b]);
            const char *src = keyval_template(s, names[b]);
            tpl t;
            const char *perr;
            size_t off;
            if (src && tpl_parse(src, &t, &perr, &off)) {
                char *text = items_render(d, &t, copy);
                if (text)
                    json_object_set_new(out, names[b], json_string(text));
                free(text);
                tpl_free(&t);
            }
            json_decref(copy);
        }
    }
    requests_keycond_free(&kc);
    return out;
}

char *requests_export(const kp_design *d, const kp_analysis *a, char **err)
{
    if (!d->table.name || !d->table.pk.s) {
        *err = xstrdup("the design has no table name or partition key");
        return NULL;
    }
    json_t *sample = items_sample(d, ITEMS_DEFAULT_SEED, false, NULL);
    json_t *pats = json_array();
    for (size_t i = 0; a && i < a->npatterns; i++) {
        const kp_pattern_result *r = &a->patterns[i];
        if (!r->pattern || !dynamodb_plan(r->plan))
            continue;
        json_t *reqs = json_array();
        for (size_t k = 0; k < r->nsteps; k++) {
            const kp_step *s = &r->steps[k];
            if (s->op == KP_OP_NONE)
                continue;
            const kp_entity *e = s->entity;
            if (!e && r->pattern->nentities)
                e = design_entity(d, r->pattern->entities[0].s);
            const json_t *items = entity_items(sample, e);
            const json_t *samples[100];
            size_t ns = 0;
            if (s->op == KP_OP_TRANSACTWRITE) {
                for (size_t q = 0; q < r->pattern->nentities && ns < 100; q++) {
                    const json_t *its = entity_items(sample, design_entity(d, r->pattern->entities[q].s));
                    if (json_array_size(its))
                        samples[ns++] = json_array_get(its, 0);
                }
            } else if (s->op == KP_OP_BATCHGET) {
                size_t want = isfinite(s->items) && s->items >= 1 ? (size_t)s->items : 3;
                for (size_t q = 0; q < json_array_size(items) && ns < want && ns < 100; q++)
                    samples[ns++] = json_array_get(items, q);
            } else {
                const json_t *anchor = s->op == KP_OP_PUTITEM || s->op == KP_OP_UPDATEITEM ||
                                               s->op == KP_OP_DELETEITEM
                                           ? json_array_get(items, 0)
                                           : requests_anchor(d, r->pattern, e, s->index, items);
                if (!anchor)
                    anchor = json_array_get(items, 0);
                if (anchor)
                    samples[ns++] = anchor;
            }
            char *e2 = NULL;
            json_t *given = ns ? range_values(d, r->pattern, s, items, samples[0]) : NULL;
            json_t *in = requests_step_input(d, r, s, d->table.name, given, samples, ns, true, &e2);
            json_decref(given);
            if (!in) {
                json_array_append_new(reqs, json_pack("{s:s,s:s}", "operation", kp_op_name(s->op), "error", e2));
                free(e2);
                continue;
            }
            json_t *rq = json_pack("{s:s,s:s}", "operation", kp_op_name(s->op), "cli",
                                   s->op == KP_OP_GETITEM     ? "get-item"
                                   : s->op == KP_OP_QUERY     ? "query"
                                   : s->op == KP_OP_SCAN      ? "scan"
                                   : s->op == KP_OP_BATCHGET  ? "batch-get-item"
                                   : s->op == KP_OP_PUTITEM   ? "put-item"
                                   : s->op == KP_OP_UPDATEITEM ? "update-item"
                                   : s->op == KP_OP_DELETEITEM ? "delete-item"
                                                               : "transact-write-items");
            if (isfinite(s->count) && s->count > 1)
                json_object_set_new(rq, "count", json_real(s->count));
            json_object_set_new(rq, "input", in);
            json_array_append_new(reqs, rq);
        }
        json_t *pj = json_pack("{s:s,s:s,s:s,s:o}", "id", r->pattern->id ? r->pattern->id : "",
                               "name", r->pattern->name ? r->pattern->name : "", "plan", kp_plan_word(r->plan),
                               "requests", reqs);
        json_array_append_new(pats, pj);
    }
    json_t *doc = json_pack("{s:s,s:s,s:o}", "table", d->table.name, "usage",
                            "aws dynamodb <cli> --cli-input-json \"$(jq -c '.patterns[P].requests[R].input' FILE)\"; "
                            "example values come from the sample items of --format items",
                            "patterns", pats);
    char *text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(doc);
    json_decref(sample);
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, text);
    sbuf_addc(&b, '\n');
    free(text);
    return sbuf_steal(&b);
}

/* ---- FilterExpression evaluation ------------------------------------------------------------ */

typedef struct fparse {
    const char *p;
    const json_t *item, *values, *names;
    bool bad;
} fparse;

static tok fpeek(fparse *f)
{
    const char *q = f->p;
    return next_tok(&q);
}

static tok fnext(fparse *f) { return next_tok(&f->p); }

static const json_t *fvalue(fparse *f, const tok *t)
{
    char *n = xstrndup(t->s, t->n);
    const json_t *v = json_object_get(f->values, n);
    free(n);
    if (!v)
        f->bad = true;
    return v;
}

static const json_t *fattr(fparse *f, const tok *t)
{
    char *n = xstrndup(t->s, t->n);
    const char *real = n;
    if (n[0] == '#') {
        real = json_string_value(json_object_get(f->names, n));
        if (!real) {
            f->bad = true;
            real = n;
        }
    }
    const json_t *v = json_object_get(f->item, real);
    free(n);
    return v;
}

/* -2 when the types differ or are not scalars, else <0, 0, >0. */
static int typed_cmp(const json_t *a, const json_t *b)
{
    const char *ta = NULL, *tb = NULL;
    const char *sa = scalar_text(a, &ta), *sb = scalar_text(b, &tb);
    if (!sa || !sb || !ta || !tb || strcmp(ta, tb) != 0)
        return -2;
    if (strcmp(ta, "N") == 0) {
        double x = strtod(sa, NULL), y = strtod(sb, NULL);
        return x < y ? -1 : x > y;
    }
    int c = strcmp(sa, sb);
    return c < 0 ? -1 : c > 0;
}

static bool f_or(fparse *f);

static bool f_primary(fparse *f)
{
    tok t = fnext(f);
    if (t.kind == TK_PUNCT && tok_is(&t, "(")) {
        bool v = f_or(f);
        tok c = fnext(f);
        if (!tok_is(&c, ")"))
            f->bad = true;
        return v;
    }
    if (t.kind != TK_NAME) {
        f->bad = true;
        return false;
    }
    if (tok_is(&t, "attribute_exists") || tok_is(&t, "attribute_not_exists") || tok_is(&t, "begins_with") ||
        tok_is(&t, "contains")) {
        bool exists = tok_is(&t, "attribute_exists"), not_exists = tok_is(&t, "attribute_not_exists");
        bool begins = tok_is(&t, "begins_with");
        tok o = fnext(f), a = fnext(f);
        if (!tok_is(&o, "(") || a.kind != TK_NAME) {
            f->bad = true;
            return false;
        }
        const json_t *av = fattr(f, &a);
        bool r;
        if (exists || not_exists) {
            r = exists ? av != NULL : av == NULL;
        } else {
            tok comma = fnext(f), vt = fnext(f);
            if (!tok_is(&comma, ",") || vt.kind != TK_VALUE) {
                f->bad = true;
                return false;
            }
            const json_t *vv = fvalue(f, &vt);
            const char *ta = NULL, *tv = NULL;
            const char *sa = scalar_text(av, &ta), *sv = scalar_text(vv, &tv);
            r = sa && sv && ta && tv && strcmp(ta, "S") == 0 && strcmp(tv, "S") == 0 &&
                (begins ? strncmp(sa, sv, strlen(sv)) == 0 : strstr(sa, sv) != NULL);
        }
        tok c = fnext(f);
        if (!tok_is(&c, ")"))
            f->bad = true;
        return r;
    }
    const json_t *av = fattr(f, &t);
    tok op = fnext(f);
    if (tok_is(&op, "BETWEEN")) {
        tok lo = fnext(f), andt = fnext(f), hi = fnext(f);
        if (lo.kind != TK_VALUE || !tok_is(&andt, "AND") || hi.kind != TK_VALUE) {
            f->bad = true;
            return false;
        }
        int a = typed_cmp(av, fvalue(f, &lo)), b = typed_cmp(av, fvalue(f, &hi));
        return a != -2 && b != -2 && a >= 0 && b <= 0;
    }
    if (tok_is(&op, "IN")) {
        tok o = fnext(f);
        if (!tok_is(&o, "(")) {
            f->bad = true;
            return false;
        }
        bool any = false;
        for (;;) {
            tok vt = fnext(f);
            if (vt.kind != TK_VALUE) {
                f->bad = true;
                return false;
            }
            if (typed_cmp(av, fvalue(f, &vt)) == 0)
                any = true;
            tok sep = fnext(f);
            if (tok_is(&sep, ")"))
                break;
            if (!tok_is(&sep, ",")) {
                f->bad = true;
                return false;
            }
        }
        return any;
    }
    tok vt = fnext(f);
    if (op.kind != TK_PUNCT || vt.kind != TK_VALUE) {
        f->bad = true;
        return false;
    }
    int c = typed_cmp(av, fvalue(f, &vt));
    if (tok_is(&op, "<>"))
        return c != 0; /* a missing attribute or another type is "not equal" */
    if (c == -2)
        return false;
    if (tok_is(&op, "="))
        return c == 0;
    if (tok_is(&op, "<"))
        return c < 0;
    if (tok_is(&op, "<="))
        return c <= 0;
    if (tok_is(&op, ">"))
        return c > 0;
    if (tok_is(&op, ">="))
        return c >= 0;
    f->bad = true;
    return false;
}

static bool f_not(fparse *f)
{
    tok t = fpeek(f);
    if (t.kind == TK_NAME && tok_is(&t, "NOT")) {
        fnext(f);
        return !f_not(f);
    }
    return f_primary(f);
}

static bool f_and(fparse *f)
{
    bool v = f_not(f);
    for (;;) {
        tok t = fpeek(f);
        if (!(t.kind == TK_NAME && tok_is(&t, "AND")) || f->bad)
            return v;
        fnext(f);
        bool w = f_not(f);
        v = v && w;
    }
}

static bool f_or(fparse *f)
{
    bool v = f_and(f);
    for (;;) {
        tok t = fpeek(f);
        if (!(t.kind == TK_NAME && tok_is(&t, "OR")) || f->bad)
            return v;
        fnext(f);
        bool w = f_and(f);
        v = v || w;
    }
}

int requests_filter_eval(const char *expr, const json_t *item, const json_t *values, const json_t *names)
{
    fparse f = {.p = expr ? expr : "", .item = item, .values = values, .names = names};
    bool v = f_or(&f);
    if (!f.bad && fnext(&f).kind != TK_END)
        f.bad = true;
    return f.bad ? -1 : v ? 1 : 0;
}
