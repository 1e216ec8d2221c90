/* item.c - items as data and sample items generated from the templates and the attributes'
 * distributions (see item.h). */
#include "item.h"

#include "capacity.h"
#include "namemap.h"
#include "overlap.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- values and items ---------------------------------------------------------------------- */

const char *kp_vtype_name(kp_vtype t) { return t == KP_VAL_N ? "N" : t == KP_VAL_BOOL ? "BOOL" : "S"; }

int kp_value_cmp(const kp_value *a, const kp_value *b)
{
    if (!a || !b || !a->text || !b->text || a->type != b->type)
        return -2;
    if (a->type == KP_VAL_N) {
        double x = strtod(a->text, NULL), y = strtod(b->text, NULL);
        return x < y ? -1 : x > y;
    }
    int c = strcmp(a->text, b->text);
    return c < 0 ? -1 : c > 0;
}

void item_free(kp_item *it)
{
    for (size_t i = 0; i < it->n; i++) {
        free(it->v[i].name);
        free(it->v[i].v.text);
    }
    free(it->v);
    memset(it, 0, sizeof *it);
}

void item_copy(kp_item *dst, const kp_item *src)
{
    memset(dst, 0, sizeof *dst);
    for (size_t i = 0; i < src->n; i++)
        item_set_value(dst, src->v[i].name, &src->v[i].v);
}

/* The first byte compared in place: most of an item's names differ there (a call to strcmp for
 * every name was most of what a query over thousands of items cost). */
static ptrdiff_t item_find(const kp_item *it, const char *name)
{
    if (!name)
        return -1;
    for (size_t i = 0; i < it->n; i++)
        if (it->v[i].name[0] == name[0] && strcmp(it->v[i].name, name) == 0)
            return (ptrdiff_t)i;
    return -1;
}

const kp_value *item_get(const kp_item *it, const char *name)
{
    ptrdiff_t i = item_find(it, name);
    return i < 0 ? NULL : &it->v[i].v;
}

const char *item_text(const kp_item *it, const char *name)
{
    const kp_value *v = item_get(it, name);
    return v ? v->text : NULL;
}

void item_set(kp_item *it, const char *name, kp_vtype type, const char *text)
{
    ptrdiff_t i = item_find(it, name);
    if (i >= 0) {
        free(it->v[i].v.text);
        it->v[i].v = (kp_value){type, xstrdup(text)};
        return;
    }
    VEC_GROW(it->v, it->n, it->cap);
    it->v[it->n++] = (kp_item_attr){xstrdup(name), {type, xstrdup(text)}};
}

void item_set_value(kp_item *it, const char *name, const kp_value *v)
{
    item_set(it, name, v->type, v->text);
}

bool item_del(kp_item *it, const char *name)
{
    ptrdiff_t i = item_find(it, name);
    if (i < 0)
        return false;
    free(it->v[i].name);
    free(it->v[i].v.text);
    VEC_DEL(it->v, it->n, (size_t)i);
    return true;
}

/* Bytes DynamoDB stores for a number: its digits in base 100 from the first to the last
 * non-zero pair (the pairs aligned on the decimal point), one byte each, plus one, plus one for a
 * negative number; zero is one byte ("7" 2, "1000000" 2, "100.5" 4, "-42" 3, as DynamoDB counts
 * them against the item limit). */
static size_t number_size(const char *n)
{
    bool neg = *n == '-';
    const char *c = n + (*n == '-' || *n == '+');
    long point = 0, exp = 0; /* digits before the decimal point; the exponent */
    char digits[64];
    size_t nd = 0;
    bool seen_point = false;
    for (; *c && *c != 'e' && *c != 'E'; c++) {
        if (*c == '.') {
            seen_point = true;
        } else if (isdigit((unsigned char)*c)) {
            if (nd == 0 && *c == '0') { /* a leading zero: only moves the point */
                if (seen_point)
                    point--;
                continue;
            }
            if (nd < sizeof digits)
                digits[nd++] = *c;
            if (!seen_point)
                point++;
        }
    }
    if (*c == 'e' || *c == 'E')
        exp = strtol(c + 1, NULL, 10);
    /* DynamoDB's numbers stay within 10^-130..10^126; far outside, the size no longer matters
     * (DynamoDB refuses the number) but the arithmetic below must not overflow */
    if (exp > 100000)
        exp = 100000;
    if (exp < -100000)
        exp = -100000;
    while (nd > 0 && digits[nd - 1] == '0')
        nd--;
    if (nd == 0)
        return 1;
    point += exp;
    /* the first digit's place is point-1 (10^(point-1)); pairs are aligned on even places */
    long first = point - 1, last = point - (long)nd;
    long pf = first >= 0 ? first / 2 : -((-first + 1) / 2), pl = last >= 0 ? last / 2 : -((-last + 1) / 2);
    return (size_t)(pf - pl + 1) + 1 + (neg ? 1 : 0);
}

size_t item_size(const kp_item *it)
{
    size_t n = 0;
    for (size_t i = 0; i < it->n; i++) {
        const kp_value *v = &it->v[i].v;
        n += strlen(it->v[i].name);
        n += v->type == KP_VAL_S ? strlen(v->text) : v->type == KP_VAL_N ? number_size(v->text) : 1;
    }
    return n;
}

kp_item *item_list_push(kp_item_list *l)
{
    VEC_GROW(l->v, l->n, l->cap);
    kp_item *it = &l->v[l->n++];
    memset(it, 0, sizeof *it);
    return it;
}

void item_list_free(kp_item_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        item_free(&l->v[i]);
    free(l->v);
    memset(l, 0, sizeof *l);
}

/* ---- deterministic PRNG (splitmix64) ------------------------------------------------------ */

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double rng_unit(uint64_t *s) { return (double)(rng_next(s) >> 11) / 9007199254740992.0; }

/* ---- attribute values -------------------------------------------------------------------- */

static bool is_numeric_type(const kp_attr *a)
{
    return a && (a->type == KP_ATTR_NUMBER || a->type == KP_ATTR_SHARD);
}

/* ---- the design's lookups, built once ------------------------------------------------------ */

/* A list of texts (the fixed values patterns ask of one attribute). */
typedef struct text_list {
    const char **v;
    size_t n, cap;
} text_list;

/* What sample generation asks of the design for every value of every item, as hash lookups
 * built once (linear in the design): generating every entity's items then stays linear in the
 * design's size. Every key points into the design or into `ar`. */
struct item_gen {
    const kp_design *d;
    ov_domains *dm;
    arena *ar;
    namemap attrs;   /* declared attribute -> position in d->attrs (design_attr) */
    namemap keytype; /* key attribute -> the kp_vtype of its values (item_key_type) */
    namemap joins;   /* a join's `from` -> position in join_to (the first join naming it) */
    const char **join_to;
    size_t njoin, capjoin;
    namemap folded;        /* an entity attribute's name in ASCII lowercase -> position in folded_v */
    const char **folded_v; /* the first attribute of the design with that lowercase name */
    size_t nfolded, capfolded;
    namemap domains; /* value_domain's answers -> position in domain_v */
    const char **domain_v;
    size_t ndomain, capdomain;
    namemap fixed; /* attribute -> position in fixed_v: the values patterns fix, in order */
    text_list *fixed_v;
    size_t nfixed, capfixed;
};

static const kp_attr *attr_in(const item_gen *x, const kp_design *d, const char *name)
{
    size_t at;
    if (!x)
        return design_attr(d, name);
    return namemap_get(&x->attrs, name, &at) ? &d->attrs[at] : NULL;
}

static char *ascii_lower(arena *ar, const char *s)
{
    char *o = arena_strdup(ar, s);
    for (char *c = o; *c; c++)
        if (*c >= 'A' && *c <= 'Z')
            *c = (char)(*c - 'A' + 'a');
    return o;
}

/* A key attribute's values are numbers when every template filling it is one number
 * placeholder without a format; strings otherwise. */
static bool numeric_template(const item_gen *x, const kp_design *d, const kp_keytpl *k)
{
    return k->tpl.n == 1 && k->tpl.parts[0].kind == TPL_ATTR && !k->tpl.parts[0].format &&
           is_numeric_type(attr_in(x, d, k->tpl.parts[0].text));
}

item_gen *item_gen_new(const kp_design *d)
{
    item_gen *x = xcalloc(1, sizeof *x);
    x->d = d;
    x->dm = ov_domains_new(d);
    x->ar = arena_new();
    for (size_t i = 0; i < d->nattrs; i++)
        namemap_put(&x->attrs, d->attrs[i].name, i);
    for (size_t i = 0; i < d->nentities; i++) {
        const kp_entity *e = &d->entities[i];
        for (size_t k = 0; k < e->nkeys; k++) {
            const kp_keytpl *kt = &e->keys[k];
            if (!kt->attr.s || entity_key(e, kt->attr.s) != kt)
                continue; /* item_key_type reads an entity's first template of an attribute */
            kp_vtype t = numeric_template(x, d, kt) ? KP_VAL_N : KP_VAL_S;
            bool added;
            size_t *slot = namemap_insert(&x->keytype, kt->attr.s, 0, (size_t)t, &added);
            if (!added && t == KP_VAL_S)
                *slot = (size_t)KP_VAL_S;
        }
        for (size_t k = 0; k < e->nattrs; k++) {
            const char *o = e->attrs[k].s;
            if (!o || strlen(o) < 3)
                continue;
            if (namemap_put(&x->folded, ascii_lower(x->ar, o), x->nfolded)) {
                VEC_GROW(x->folded_v, x->nfolded, x->capfolded);
                x->folded_v[x->nfolded++] = o;
            }
        }
    }
    for (size_t i = 0; i < d->npatterns; i++) {
        const kp_pattern *p = &d->patterns[i];
        for (size_t j = 0; j < p->njoin; j++) {
            const kp_join *jn = &p->join[j];
            if (jn->from.s && jn->to.s && namemap_put(&x->joins, jn->from.s, x->njoin)) {
                VEC_GROW(x->join_to, x->njoin, x->capjoin);
                x->join_to[x->njoin++] = jn->to.s;
            }
        }
        for (size_t j = 0; j < p->nby; j++) {
            const kp_by *b = &p->by[j];
            if (!b->value || !b->attr.s)
                continue;
            size_t at;
            if (!namemap_get(&x->fixed, b->attr.s, &at)) {
                VEC_GROW(x->fixed_v, x->nfixed, x->capfixed);
                memset(&x->fixed_v[x->nfixed], 0, sizeof x->fixed_v[0]);
                at = x->nfixed++;
                namemap_put(&x->fixed, b->attr.s, at);
            }
            text_list *l = &x->fixed_v[at];
            VEC_GROW(l->v, l->n, l->cap);
            l->v[l->n++] = b->value;
        }
    }
    return x;
}

void item_gen_free(item_gen *x)
{
    if (!x)
        return;
    ov_domains_free(x->dm);
    namemap_free(&x->attrs);
    namemap_free(&x->keytype);
    namemap_free(&x->joins);
    namemap_free(&x->folded);
    namemap_free(&x->domains);
    namemap_free(&x->fixed);
    free(x->join_to);
    free(x->folded_v);
    free(x->domain_v);
    for (size_t i = 0; i < x->nfixed; i++)
        free(x->fixed_v[i].v);
    free(x->fixed_v);
    arena_free(x->ar);
    free(x);
}

static kp_vtype key_type(const item_gen *x, const kp_design *d, const char *attr)
{
    size_t t;
    if (x) {
        if (namemap_get(&x->keytype, attr, &t))
            return (kp_vtype)t;
        return is_numeric_type(attr_in(x, d, attr)) ? KP_VAL_N : KP_VAL_S;
    }
    bool any = false;
    for (size_t i = 0; i < d->nentities; i++) {
        const kp_keytpl *k = entity_key(&d->entities[i], attr);
        if (!k)
            continue;
        any = true;
        if (!numeric_template(NULL, d, k))
            return KP_VAL_S;
    }
    if (any)
        return KP_VAL_N;
    return is_numeric_type(design_attr(d, attr)) ? KP_VAL_N : KP_VAL_S;
}

kp_vtype item_key_type(const kp_design *d, const char *attr) { return key_type(NULL, d, attr); }

kp_vtype item_gen_key_type(const item_gen *x, const char *attr) { return key_type(x, x->d, attr); }

static char *value_text(const item_gen *x, const kp_design *d, const kp_item *item, const char *name)
{
    const kp_value *v = item_get(item, name);
    if (!v)
        return NULL;
    const kp_attr *a = attr_in(x, d, name);
    if (v->type == KP_VAL_N && a && a->format)
        return tpl_apply_format(v->text, a->format);
    return xstrdup(v->text);
}

char *item_value_text(const kp_design *d, const kp_item *item, const char *name)
{
    return value_text(NULL, d, item, name);
}

typedef struct render_ctx {
    const item_gen *x; /* may be NULL */
    const kp_design *d;
    const kp_item *item;
    char **held; /* values handed to tpl_render, freed afterwards */
    size_t nheld, capheld;
    bool missing;
} render_ctx;

static const char *render_lookup(const char *name, void *vctx)
{
    render_ctx *c = vctx;
    char *v = value_text(c->x, c->d, c->item, name);
    if (!v) {
        c->missing = true;
        return NULL;
    }
    VEC_GROW(c->held, c->nheld, c->capheld);
    c->held[c->nheld++] = v;
    return v;
}

static char *render(const item_gen *x, const kp_design *d, const tpl *t, const kp_item *item)
{
    render_ctx c = {.x = x, .d = d, .item = item};
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

char *item_render(const kp_design *d, const tpl *t, const kp_item *item) { return render(NULL, d, t, item); }

char *item_primary_key(const kp_design *d, const kp_item *item)
{
    const char *pk = item_text(item, d->table.pk.s);
    if (!pk)
        return NULL;
    if (!d->table.sk.s)
        return xstrdup(pk);
    const char *sk = item_text(item, d->table.sk.s);
    if (!sk)
        return NULL;
    return xasprintf("%s\x1f%s", pk, sk);
}

/* ---- sample item generation ------------------------------------------------------------- */

enum role { ROLE_OTHER, ROLE_PART, ROLE_SORT };

typedef struct gen {
    const item_gen *x;
    const kp_design *d;
    const kp_entity *e;
    size_t n;     /* items asked */
    size_t group; /* items per base-table partition */
    uint64_t rng;
    ov_domains *dm; /* the placeholders' domains: sample ids stay inside them */
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
 * (followedUsername -> username, ASCII case aside, at least 3 bytes), else itself. Joined values
 * then meet. Answers are remembered in x. */
static const char *value_domain(item_gen *x, const char *name)
{
    size_t at;
    if (namemap_get(&x->domains, name, &at))
        return x->domain_v[at];
    const char *best = name;
    if (namemap_get(&x->joins, name, &at)) {
        best = x->join_to[at];
    } else {
        size_t n = strlen(name);
        char *low = ascii_lower(x->ar, name);
        for (size_t m = n - (n > 0); m >= 3 && m < n; m--)
            if (namemap_get(&x->folded, low + n - m, &at)) {
                best = x->folded_v[at];
                break;
            }
    }
    VEC_GROW(x->domain_v, x->ndomain, x->capdomain);
    x->domain_v[x->ndomain] = best;
    namemap_put(&x->domains, arena_strdup(x->ar, name), x->ndomain++);
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
static const char *fixed_by_value(const item_gen *x, const char *name, size_t k)
{
    size_t at;
    if (!namemap_get(&x->fixed, name, &at) || k >= x->fixed_v[at].n)
        return NULL;
    return x->fixed_v[at].v[k];
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
static const char *enum_part_value(const item_gen *x, const kp_attr *a, size_t k)
{
    if (a->nvalues == 0)
        return "value";
    size_t nfixed = 0;
    const char *order[64];
    for (size_t f = 0; nfixed < 64; f++) {
        const char *v = fixed_by_value(x, a->name, f);
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

/* The k-th sample id of string attribute `name`: its value domain's stem and number
 * ("customer-001"), joined by a character no template puts next to either name ("-", else "_",
 * else "."; the stem loses those characters too), so that the ids stay inside the domain the
 * resolver decides overlaps on (overlap.h). A `chars: any` id may hold the separators, and the
 * first one does: it is the second id followed by what a template puts after the placeholder
 * ("user-002#FRIENDS" when a template reads USER#{userId}#FRIENDS), the value that makes one
 * template's key another's, so that verify shows what the overlap costs. Caller frees. */
static char *domain_id(const gen *g, const char *name, size_t k)
{
    const char *dom = value_domain((item_gen *)g->x, name);
    ov_bytes seps, more;
    ov_separators(g->dm, name, &seps);
    ov_separators(g->dm, dom, &more);
    for (int w = 0; w < 4; w++)
        seps.w[w] |= more.w[w];
    const char *next = ov_chars_any(g->dm, name) ? ov_continuation(g->dm, name) : NULL;
    if (next && k == 0) {
        char *base = domain_id(g, name, 1);
        char *s = xasprintf("%s%s", base, next);
        free(base);
        return s;
    }
    const char *joiner = !ov_bytes_has(&seps, '-')   ? "-"
                         : !ov_bytes_has(&seps, '_') ? "_"
                         : !ov_bytes_has(&seps, '.') ? "."
                                                     : "";
    char *stem = value_stem(dom);
    size_t o = 0;
    for (size_t i = 0; stem[i]; i++)
        if (!ov_bytes_has(&seps, (unsigned char)stem[i]))
            stem[o++] = stem[i];
    stem[o] = '\0';
    char *s = xasprintf("%s%s%03zu", o ? stem : "id", joiner, k + 1);
    free(stem);
    return s;
}

/* Sets attribute `name` of item i in `item`. */
static void gen_value(gen *g, kp_item *item, const char *name, size_t i)
{
    const kp_attr *a = attr_in(g->x, g->d, name);
    enum role role = attr_role(g->d, g->e, name);
    kp_attr_type type = a ? a->type : KP_ATTR_STRING;
    size_t k; /* the value's number in the attribute's pool */
    if (role == ROLE_PART)
        k = i / g->group;
    else if (role == ROLE_SORT)
        k = i;
    else
        k = (size_t)(rng_next(&g->rng) % pool_size(a, g->n));
    const char *fixed = role != ROLE_PART ? fixed_by_value(g->x, name, i) : NULL;

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
        item_set(item, name, KP_VAL_N, s);
        free(s);
        break;
    }
    case KP_ATTR_SHARD: {
        int count = a && a->shard_count > 0 ? a->shard_count : 10;
        char *s = xasprintf("%zu", (role == ROLE_OTHER ? i : k) % (size_t)count);
        item_set(item, name, KP_VAL_N, s);
        free(s);
        break;
    }
    case KP_ATTR_BOOL:
        item_set(item, name, KP_VAL_BOOL, i % 2 == 0 ? "true" : "false");
        break;
    case KP_ATTR_ENUM: {
        const char *v = role == ROLE_PART ? enum_part_value(g->x, a, k) : enum_pick(a, i, &g->rng);
        item_set(item, name, KP_VAL_S, v);
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
        item_set(item, name, KP_VAL_S, s);
        free(s);
        break;
    }
    case KP_ATTR_STRING:
    default: {
        char *s;
        if (fixed) {
            s = xstrdup(fixed);
        } else {
            s = domain_id(g, name, k);
        }
        item_set(item, name, KP_VAL_S, s);
        free(s);
        break;
    }
    }
}

bool item_set_together(const kp_design *d, const kp_entity *e, const char *a, const char *b)
{
    if (!a || !b)
        return false;
    for (size_t x = 0; x < d->nindexes; x++) {
        const char *pk = d->indexes[x].pk.s, *sk = d->indexes[x].sk.s;
        if (pk && sk &&
            ((strcmp(pk, a) == 0 && strcmp(sk, b) == 0) || (strcmp(pk, b) == 0 && strcmp(sk, a) == 0)))
            return capacity_set_together(e, a, b);
    }
    return capacity_grouped(e, a, b);
}

static bool sparse_holds(const item_gen *x, const kp_design *d, const kp_sparse *sp, const kp_item *item,
                         uint64_t *rng, size_t i)
{
    if (sp->kind == KP_SPARSE_SHARE)
        return i == 0 || rng_unit(rng) < sp->share;
    char *v = value_text(x, d, item, sp->cond_attr.s);
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
#define ADD_NAME(s)                        \
    do {                                   \
        bool dup_ = false;                 \
        for (size_t q_ = 0; q_ < *n; q_++) \
            if (strcmp(v[q_], (s)) == 0)   \
                dup_ = true;               \
        if (!dup_) {                       \
            VEC_GROW(v, *n, cap);          \
            v[(*n)++] = (s);               \
        }                                  \
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

static void gen_item(gen *g, size_t i, const char **names, size_t nnames, kp_item *item)
{
    const kp_design *d = g->d;
    const kp_entity *e = g->e;
    for (size_t k = 0; k < nnames; k++)
        gen_value(g, item, names[k], i);
    /* key attributes, rendered from the templates (sparse ones only where they hold; attributes
     * set together share one decision) */
    signed char held_inl[16];
    signed char *held = e->nkeys <= 16 ? held_inl : xmalloc(e->nkeys);
    for (size_t k = 0; k < e->nkeys; k++) {
        const kp_keytpl *kt = &e->keys[k];
        const kp_sparse *sp = entity_sparse(e, kt->attr.s);
        held[k] = -1;
        if (!sp)
            continue;
        for (size_t j = 0; j < k && held[k] < 0; j++)
            if (held[j] >= 0 && item_set_together(d, e, e->keys[j].attr.s, kt->attr.s))
                held[k] = held[j];
        if (held[k] < 0)
            held[k] = sparse_holds(g->x, d, sp, item, &g->rng, i) ? 1 : 0;
    }
    for (size_t k = 0; k < e->nkeys; k++) {
        const kp_keytpl *kt = &e->keys[k];
        if (held[k] == 0)
            continue;
        char *v = render(g->x, d, &kt->tpl, item);
        if (!v)
            continue;
        item_set(item, kt->attr.s, key_type(g->x, d, kt->attr.s), v);
        free(v);
    }
    if (held != held_inl)
        free(held);
    /* sparse plain attributes used as index keys */
    for (size_t k = 0; k < e->nsparse; k++) {
        const kp_sparse *sp = &e->sparse[k];
        if (!entity_key(e, sp->attr.s) && item_get(item, sp->attr.s) &&
            !sparse_holds(g->x, d, sp, item, &g->rng, i))
            item_del(item, sp->attr.s);
    }
    /* the type tag single-table designs filter on (the resolver's "entityType = :entityType") */
    if (!entity_knows(e, ITEM_TYPE_ATTR))
        item_set(item, ITEM_TYPE_ATTR, KP_VAL_S, e->name);
}

void item_pad(const kp_entity *e, kp_item *item)
{
    if (!(isfinite(e->size) && e->size > 0))
        return;
    item_del(item, ITEM_PAD_ATTR);
    /* beyond DynamoDB's limit, one byte over it: enough for DynamoDB to refuse the item */
    double cap = ITEM_MAX_BYTES + 1;
    size_t have = item_size(item), want = (size_t)(e->size < cap ? e->size : cap),
           over = strlen(ITEM_PAD_ATTR);
    if (want > have + over) {
        size_t n = want - have - over;
        char *pad = xmalloc(n + 1);
        memset(pad, 'x', n);
        pad[n] = '\0';
        item_set(item, ITEM_PAD_ATTR, KP_VAL_S, pad);
        free(pad);
    }
}

static size_t default_count(const item_gen *x, const kp_design *d, const kp_entity *e)
{
    size_t n = 12;
    for (size_t i = 0; i < e->nattrs; i++) {
        const kp_attr *a = attr_in(x, d, e->attrs[i].s);
        if (a && a->type == KP_ATTR_ENUM && a->nvalues * 2 > n)
            n = a->nvalues * 2;
    }
    if (isfinite(e->count) && e->count >= 1 && e->count < (double)n)
        n = (size_t)e->count;
    return n;
}

size_t item_default_count(const kp_design *d, const kp_entity *e) { return default_count(NULL, d, e); }

/* Whether an entity's items share partitions: its table sort key varies. */
static bool entity_sorted(const kp_design *d, const kp_entity *e)
{
    const kp_keytpl *sk = d->table.sk.s ? entity_key(e, d->table.sk.s) : NULL;
    return d->table.sk.s && (!sk || !tpl_is_constant(&sk->tpl));
}

/* item_gen_items with `group` items per partition (0: 4) when the entity's sort key varies. */
static void gen_items(item_gen *x, const kp_entity *e, size_t n, size_t group, unsigned seed,
                      kp_item_list *out)
{
    const kp_design *d = x->d;
    if (!e || !d->table.pk.s)
        return;
    bool sorted = entity_sorted(d, e);
    gen g = {.x = x,
             .d = d,
             .e = e,
             .n = n,
             .group = sorted ? (group ? group : 4) : 1,
             .rng = ((uint64_t)seed << 32) ^ util_hash_str(UTIL_HASH_SEED, e->name ? e->name : ""),
             .dm = x->dm};
    const char **names;
    size_t nnames;
    known_attrs(e, &names, &nnames);
    char **keys = NULL;
    size_t nkeys = 0, capkeys = 0, made = 0;
    namemap seen = {0}; /* the primary keys made so far */
    for (size_t i = 0; made < n && i < n * 3 + 8; i++) {
        kp_item item = {0};
        gen_item(&g, i, names, nnames, &item);
        char *key = item_primary_key(d, &item);
        size_t at;
        if (!key || namemap_get(&seen, key, &at)) {
            free(key);
            item_free(&item);
            continue;
        }
        VEC_GROW(keys, nkeys, capkeys);
        keys[nkeys] = key;
        namemap_put(&seen, key, nkeys++);
        *item_list_push(out) = item;
        made++;
    }
    namemap_free(&seen);
    for (size_t k = 0; k < nkeys; k++)
        free(keys[k]);
    free(keys);
    free(names);
}

void item_gen_items(item_gen *x, const kp_entity *e, size_t n, unsigned seed, kp_item_list *out)
{
    gen_items(x, e, n, 0, seed, out);
}

void item_generate(const kp_design *d, const kp_entity *e, size_t n, unsigned seed, kp_item_list *out)
{
    if (!d || !e || !d->table.pk.s)
        return;
    item_gen *x = item_gen_new(d);
    item_gen_items(x, e, n, seed, out);
    item_gen_free(x);
}

/* ---- linked sample data: joins meet ---------------------------------------------------------- */

static bool has_value_text(const item_gen *x, const kp_item_list *l, const char *attr, const char *text)
{
    for (size_t i = 0; i < l->n; i++) {
        char *v = value_text(x, x->d, &l->v[i], attr);
        bool same = v && strcmp(v, text) == 0;
        free(v);
        if (same)
            return true;
    }
    return false;
}

/* Re-renders the key attributes of entity e's item whose templates use attribute `name`. */
static void rerender_keys(const item_gen *x, const kp_entity *e, kp_item *item, const char *name)
{
    for (size_t k = 0; k < e->nkeys; k++) {
        const kp_keytpl *kt = &e->keys[k];
        if (!tpl_has_attr(&kt->tpl, name) || !item_get(item, kt->attr.s))
            continue;
        char *v = render(x, x->d, &kt->tpl, item);
        if (v)
            item_set(item, kt->attr.s, key_type(x, x->d, kt->attr.s), v);
        free(v);
    }
}

static bool key_taken(const kp_design *d, const kp_item_list *l, size_t skip, const char *key)
{
    for (size_t i = 0; key && i < l->n; i++) {
        if (i == skip)
            continue;
        char *k = item_primary_key(d, &l->v[i]);
        bool same = k && strcmp(k, key) == 0;
        free(k);
        if (same)
            return true;
    }
    return false;
}

/* One join step, `from` of the items of `l1` naming `to` of the items of `l2`: every `from` value
 * that names no item of l2 takes the value of one that exists (its keys re-rendered), the items
 * of l1 staying unique by primary key. */
static void link_join(const item_gen *x, const kp_entity *e1, kp_item_list *l1, const char *from,
                      const kp_item_list *l2, const char *to)
{
    size_t n2 = 0;
    for (size_t j = 0; j < l2->n; j++)
        n2 += item_get(&l2->v[j], to) != NULL;
    if (!n2)
        return;
    for (size_t i = 0; i < l1->n; i++) {
        kp_item *it = &l1->v[i];
        char *have = value_text(x, x->d, it, from);
        bool meets = have && has_value_text(x, l2, to, have);
        free(have);
        if (meets || !item_get(it, from))
            continue;
        for (size_t t = 0; t < l2->n; t++) {
            const kp_value *tv = item_get(&l2->v[(i + t) % l2->n], to);
            if (!tv)
                continue;
            kp_item cand;
            item_copy(&cand, it);
            item_set_value(&cand, from, tv);
            rerender_keys(x, e1, &cand, from);
            char *key = item_primary_key(x->d, &cand);
            bool ok = key && !key_taken(x->d, l1, i, key);
            free(key);
            if (ok) {
                item_free(it);
                *it = cand;
                break;
            }
            item_free(&cand);
        }
    }
}

/* Makes the sample data of every join meet: for each pattern with `join`, each step's `from`
 * values name items of the next entity (the chain's second request then finds its items). */
static void link_joins(const item_gen *x, kp_item_list *lists)
{
    const kp_design *d = x->d;
    for (size_t p = 0; p < d->npatterns; p++) {
        const kp_pattern *pt = &d->patterns[p];
        for (size_t q = 1; pt->njoin && q < pt->nentities; q++) {
            ptrdiff_t a = design_entity_pos(d, pt->entities[q - 1].s),
                      b = design_entity_pos(d, pt->entities[q].s);
            if (a < 0 || b < 0 || a == b)
                continue;
            for (size_t j = 0; j < pt->njoin; j++) {
                const kp_join *jn = &pt->join[j];
                if (jn->from.s && jn->to.s && entity_knows(&d->entities[a], jn->from.s) &&
                    entity_knows(&d->entities[b], jn->to.s))
                    link_join(x, &d->entities[a], &lists[a], jn->from.s, &lists[b], jn->to.s);
            }
        }
    }
}

void item_sample_make(const kp_design *d, unsigned seed, bool pad, item_sample *out)
{
    item_sample_opts o = {.seed = seed, .pad = pad};
    item_sample_make_opts(d, &o, out);
}

void item_sample_make_opts(const kp_design *d, const item_sample_opts *opt, item_sample *out)
{
    unsigned seed = opt->seed;
    bool pad = opt->pad;
    memset(out, 0, sizeof *out);
    out->n = d->nentities;
    out->lists = xcalloc(d->nentities ? d->nentities : 1, sizeof *out->lists);
    kp_item_list *raw = xcalloc(d->nentities ? d->nentities : 1, sizeof *raw);
    item_gen *x = item_gen_new(d);
    for (size_t i = 0; i < d->nentities; i++) {
        const kp_entity *e = &d->entities[i];
        size_t n = default_count(x, d, e);
        if (entity_sorted(d, e) && (opt->partitions || opt->per_partition))
            n = (opt->partitions ? opt->partitions : (n + 3) / 4) *
                (opt->per_partition ? opt->per_partition : 4);
        else if (opt->partitions) /* one item a partition */
            n = opt->partitions;
        gen_items(x, e, n, opt->per_partition, seed, &raw[i]);
    }
    link_joins(x, raw);
    item_gen_free(x);
    /* primary key text -> the entity that produced it */
    char **keys = NULL;
    const kp_entity **owners = NULL;
    size_t nkeys = 0, capkeys = 0, capowners = 0, capcoll = 0;
    namemap owner_of = {0}; /* key -> position in keys/owners */
    for (size_t i = 0; i < d->nentities; i++) {
        const kp_entity *e = &d->entities[i];
        kp_item_list items = raw[i];
        for (size_t k = 0; k < items.n; k++) {
            kp_item *it = &items.v[k];
            char *key = item_primary_key(d, it);
            size_t at;
            if (key && namemap_get(&owner_of, key, &at)) {
                VEC_GROW(out->coll, out->ncoll, capcoll);
                out->coll[out->ncoll++] = (item_collision){e, owners[at], key};
                item_free(it);
                continue;
            }
            if (key) {
                VEC_GROW(keys, nkeys, capkeys);
                VEC_GROW(owners, nkeys, capowners);
                keys[nkeys] = key;
                owners[nkeys] = e;
                namemap_put(&owner_of, key, nkeys++);
            }
            if (pad)
                item_pad(e, it);
            *item_list_push(&out->lists[i]) = *it;
        }
        free(items.v);
    }
    namemap_free(&owner_of);
    for (size_t q = 0; q < nkeys; q++)
        free(keys[q]);
    free(keys);
    free(owners);
    free(raw);
}

void item_sample_free(item_sample *s)
{
    for (size_t i = 0; i < s->n; i++)
        item_list_free(&s->lists[i]);
    free(s->lists);
    for (size_t i = 0; i < s->ncoll; i++)
        free(s->coll[i].key);
    free(s->coll);
    memset(s, 0, sizeof *s);
}

/* A value of attribute `name` other than `cur`: another sample item's, else one made from cur. */
static void other_value(const kp_item_list *others, const char *name, const kp_value *cur, kp_value *out)
{
    for (size_t i = 0; others && i < others->n; i++) {
        const kp_value *v = item_get(&others->v[i], name);
        if (v && (!cur || kp_value_cmp(v, cur) != 0)) {
            out->type = v->type;
            out->text = xstrdup(v->text);
            return;
        }
    }
    if (!cur) {
        out->type = KP_VAL_S;
        out->text = xstrdup("changed");
    } else if (cur->type == KP_VAL_N) {
        out->type = KP_VAL_N;
        out->text = xasprintf("%.15g", strtod(cur->text, NULL) + 1);
    } else if (cur->type == KP_VAL_BOOL) {
        out->type = KP_VAL_BOOL;
        out->text = xstrdup(strcmp(cur->text, "true") == 0 ? "false" : "true");
    } else {
        out->type = KP_VAL_S;
        out->text = xasprintf("%s-2", cur->text);
    }
}

void item_apply_changes(const kp_design *d, const kp_entity *e, const kp_str *changes, size_t nchanges,
                        const kp_item_list *others, const kp_item *item, kp_item *out)
{
    item_copy(out, item);
    for (size_t c = 0; c < nchanges; c++) {
        const char *name = changes[c].s;
        if (!name || (e && entity_key(e, name)))
            continue; /* a key attribute follows its template below */
        kp_value v;
        other_value(others, name, item_get(item, name), &v);
        item_set_value(out, name, &v);
        free(v.text);
    }
    for (size_t k = 0; e && k < e->nkeys; k++) {
        const kp_keytpl *kt = &e->keys[k];
        bool touched = false;
        for (size_t c = 0; c < nchanges && !touched; c++)
            touched = changes[c].s &&
                      (strcmp(changes[c].s, kt->attr.s) == 0 || tpl_has_attr(&kt->tpl, changes[c].s));
        if (!touched)
            continue;
        const kp_sparse *sp = entity_sparse(e, kt->attr.s);
        bool holds = sp ? (sp->kind == KP_SPARSE_SHARE ? item_get(item, kt->attr.s) != NULL
                                                       : sparse_holds(NULL, d, sp, out, NULL, 1))
                        : true;
        char *v = holds ? item_render(d, &kt->tpl, out) : NULL;
        if (v)
            item_set(out, kt->attr.s, item_key_type(d, kt->attr.s), v);
        else
            item_del(out, kt->attr.s);
        free(v);
    }
}
