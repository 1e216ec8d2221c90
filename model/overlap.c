/* overlap.c - template overlap on the placeholders' domains (see overlap.h). */
#include "overlap.h"

#include "namemap.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ---- byte sets --------------------------------------------------------------------------- */

static void bytes_add(ov_bytes *s, unsigned c) { s->w[c >> 6] |= (uint64_t)1 << (c & 63); }
static void bytes_range(ov_bytes *s, unsigned lo, unsigned hi)
{
    for (unsigned w = lo >> 6; w <= hi >> 6 && w < 4; w++) { /* word by word */
        unsigned a = w == lo >> 6 ? lo & 63 : 0, b = w == hi >> 6 ? hi & 63 : 63;
        uint64_t top = b == 63 ? ~(uint64_t)0 : (((uint64_t)1 << (b + 1)) - 1);
        s->w[w] |= top & ~(((uint64_t)1 << a) - 1);
    }
}
static void bytes_text(ov_bytes *s, const char *t)
{
    for (; *t; t++)
        bytes_add(s, (unsigned char)*t);
}
static bool bytes_meet(const ov_bytes *a, const ov_bytes *b)
{
    return (a->w[0] & b->w[0]) | (a->w[1] & b->w[1]) | (a->w[2] & b->w[2]) | (a->w[3] & b->w[3]);
}

/* ---- domains ----------------------------------------------------------------------------- */

typedef enum dkind { DK_STRING, DK_NUMBER, DK_DATE, DK_VALUES, DK_DIGITS } dkind;

/* The values one placeholder takes. */
typedef struct dom {
    dkind kind;
    ov_bytes chars;            /* DK_STRING: the bytes a value may hold */
    int width;                 /* DK_NUMBER: at least this many digits */
    int maxdigits;             /* DK_DIGITS: at most this many (0: no bound) */
    const char *const *values; /* DK_VALUES, with nvalues; or from `attr` (enum) */
    const kp_attr *attr;       /* the declaration, NULL when none */
    size_t nvalues;
} dom;

/* A placeholder name of the design: its declaration and the separators around it. */
typedef struct dname {
    const char *name;
    const kp_attr *attr;
    ov_bytes seps;
    const char *next; /* the first literal after it that starts with a separator */
    size_t id;        /* its domain's number without an inline format */
} dname;

struct ov_domains {
    const kp_design *d;
    namemap attrs; /* the design's attributes by name (design_attr without its linear search) */
    namemap names; /* name -> position in v */
    dname *v;
    size_t n, cap;
    namemap ids; /* domain text -> number; (name, inline format) -> number through byname */
    namemap byname;
    arena *ar;
};

static const char *const bool_values[] = {"true", "false"};

static bool separator_byte(unsigned char c) { return c < 0x80 && (ispunct(c) || c == ' '); }

static const kp_attr *attr_of(const ov_domains *dm, const char *name)
{
    size_t at;
    return namemap_get(&dm->attrs, name, &at) ? &dm->d->attrs[at] : NULL;
}

static dname *name_of(ov_domains *dm, const char *name)
{
    size_t at;
    if (namemap_get(&dm->names, name, &at))
        return &dm->v[at];
    VEC_GROW(dm->v, dm->n, dm->cap);
    dname *x = &dm->v[dm->n];
    memset(x, 0, sizeof *x);
    x->name = name;
    x->attr = attr_of(dm, name);
    namemap_put(&dm->names, name, dm->n++);
    return x;
}

static const dname *name_find(const ov_domains *dm, const char *name)
{
    size_t at;
    return namemap_get(&dm->names, name, &at) ? &dm->v[at] : NULL;
}

/* A number format as tpl_apply_format reads it: a zero-padded width of up to three digits. */
static int format_width(const char *f)
{
    if (!f || !*f || strlen(f) > 3)
        return 0;
    for (const char *c = f; *c; c++)
        if (!isdigit((unsigned char)*c))
            return 0;
    return atoi(f);
}

/* A date format made of ISO 8601 fields only (YYYY-MM-DDThh:mm:ss and the like). */
static bool iso_format(const char *f)
{
    for (; f && *f; f++)
        if (isalpha((unsigned char)*f) && !strchr("YyMDdHhmsSTZ", *f))
            return false;
    return !f || !strchr(f, '%');
}

static void dom_of(const ov_domains *dm, const char *name, const char *inline_format, dom *out)
{
    memset(out, 0, sizeof *out);
    const dname *x = name ? name_find(dm, name) : NULL;
    const kp_attr *a = x ? x->attr : (name ? attr_of(dm, name) : NULL);
    out->attr = a;
    kp_attr_type t = a ? a->type : KP_ATTR_STRING;
    if (t == KP_ATTR_ENUM && a->nvalues > 0) {
        out->kind = DK_VALUES;
        out->nvalues = a->nvalues;
        return;
    }
    if (t == KP_ATTR_BOOL) {
        out->kind = DK_VALUES;
        out->values = bool_values;
        out->nvalues = 2;
        return;
    }
    if (t == KP_ATTR_SHARD) {
        out->kind = DK_DIGITS;
        int n = 0; /* the digits of count - 1; no bound when the count is unknown */
        if (a->shard_count > 0) {
            n = 1;
            for (long k = a->shard_count - 1; k >= 10; k /= 10)
                n++;
        }
        out->maxdigits = n;
        return;
    }
    if (t == KP_ATTR_NUMBER) {
        out->kind = DK_NUMBER;
        out->width = format_width(inline_format ? inline_format : a->format);
        return;
    }
    if (t == KP_ATTR_DATE && iso_format(a->format)) {
        out->kind = DK_DATE;
        return;
    }
    out->kind = DK_STRING;
    bytes_range(&out->chars, 1, 255);
    if (x && !(a && a->chars == KP_CHARS_ANY))
        for (int w = 0; w < 4; w++)
            out->chars.w[w] &= ~x->seps.w[w];
}

static const char *dom_value(const dom *d, size_t i)
{
    return d->values ? d->values[i] : d->attr->values[i].name;
}

/* The domain as text: two placeholders whose texts are equal take the same values. */
static void dom_text(const dom *d, sbuf *b)
{
    switch (d->kind) {
    case DK_STRING: /* the bytes it may not hold (a few separators) */
        sbuf_addc(b, 's');
        for (int w = 0; w < 4; w++)
            for (uint64_t out = ~d->chars.w[w]; out; out &= out - 1) {
                unsigned c = (unsigned)(w * 64 + __builtin_ctzll(out));
                char hex[3] = {"0123456789abcdef"[c >> 4], "0123456789abcdef"[c & 15], '\0'};
                sbuf_add(b, hex);
            }
        break;
    case DK_NUMBER:
        sbuf_printf(b, "n%d", d->width);
        break;
    case DK_DATE:
        sbuf_add(b, "d");
        break;
    case DK_DIGITS:
        sbuf_printf(b, "h%d", d->maxdigits);
        break;
    case DK_VALUES:
        sbuf_add(b, "e");
        for (size_t i = 0; i < d->nvalues; i++) {
            sbuf_add(b, dom_value(d, i));
            sbuf_addc(b, '\x1f');
        }
        break;
    }
}

/* The key of (name, inline format) in byname: the name, or "name\x1fformat" (in the arena). */
static const char *byname_key(arena *ar, const char *name, const char *format, char *buf, size_t n)
{
    if (!format)
        return name;
    size_t ln = strlen(name), lf = strlen(format);
    char *k = ln + lf + 2 <= n ? buf : (ar ? arena_alloc(ar, ln + lf + 2) : NULL);
    if (!k)
        return NULL;
    memcpy(k, name, ln);
    k[ln] = '\x1f';
    memcpy(k + ln + 1, format, lf + 1);
    return k;
}

/* The number of the domain of (name, inline format): equal domains, equal numbers. */
static size_t domain_number(ov_domains *dm, sbuf *b, const char *name, const char *format)
{
    dom dd;
    dom_of(dm, name, format, &dd);
    b->len = 0;
    dom_text(&dd, b);
    const char *text = b->s ? b->s : "";
    size_t id;
    if (namemap_get(&dm->ids, text, &id))
        return id;
    return namemap_number(&dm->ids, arena_strdup(dm->ar, text));
}

/* The separators template t puts right next to its placeholder j, added to *seps; true when
 * the literal after it starts with one. */
static bool part_separators(const tpl *t, size_t j, ov_bytes *seps)
{
    if (j > 0 && t->parts[j - 1].kind == TPL_LIT && t->parts[j - 1].text[0]) {
        const char *lit = t->parts[j - 1].text;
        unsigned char c = (unsigned char)lit[strlen(lit) - 1];
        if (separator_byte(c))
            bytes_add(seps, c);
    }
    if (j + 1 < t->n && t->parts[j + 1].kind == TPL_LIT) {
        unsigned char c = (unsigned char)t->parts[j + 1].text[0];
        if (c && separator_byte(c)) {
            bytes_add(seps, c);
            return true;
        }
    }
    return false;
}

ov_domains *ov_domains_new(const kp_design *d)
{
    ov_domains *dm = xcalloc(1, sizeof *dm);
    dm->d = d;
    dm->ar = arena_new();
    for (size_t i = 0; d && i < d->nattrs; i++)
        namemap_put(&dm->attrs, d->attrs[i].name, i);
    /* the separators around every placeholder of every template */
    for (size_t i = 0; d && i < d->nentities; i++) {
        const kp_entity *e = &d->entities[i];
        for (size_t k = 0; k < e->nkeys; k++) {
            const tpl *t = &e->keys[k].tpl;
            for (size_t j = 0; j < t->n; j++) {
                if (t->parts[j].kind != TPL_ATTR)
                    continue;
                dname *x = name_of(dm, t->parts[j].text);
                if (part_separators(t, j, &x->seps) && !x->next)
                    x->next = t->parts[j + 1].text;
            }
        }
    }
    for (size_t i = 0; d && i < d->nattrs; i++)
        if (d->attrs[i].name)
            name_of(dm, d->attrs[i].name);
    /* every name a template uses, and every (name, inline format), numbered by its domain */
    sbuf b;
    sbuf_init(&b);
    for (size_t i = 0; i < dm->n; i++)
        dm->v[i].id = domain_number(dm, &b, dm->v[i].name, NULL);
    for (size_t i = 0; d && i < d->nentities; i++) {
        const kp_entity *e = &d->entities[i];
        for (size_t k = 0; k < e->nkeys; k++) {
            const tpl *t = &e->keys[k].tpl;
            for (size_t j = 0; j < t->n; j++) {
                const tpl_part *p = &t->parts[j];
                size_t id;
                if (p->kind != TPL_ATTR || !p->format)
                    continue;
                const char *key = byname_key(dm->ar, p->text, p->format, NULL, 0);
                if (!namemap_get(&dm->byname, key, &id))
                    namemap_put(&dm->byname, key, domain_number(dm, &b, p->text, p->format));
            }
        }
    }
    sbuf_free(&b);
    return dm;
}

void ov_domains_free(ov_domains *dm)
{
    if (!dm)
        return;
    namemap_free(&dm->attrs);
    namemap_free(&dm->names);
    namemap_free(&dm->ids);
    namemap_free(&dm->byname);
    free(dm->v);
    arena_free(dm->ar);
    free(dm);
}

/* The separators e's templates put next to placeholder `name`, added to *seps; true when one
 * of them has it. */
static bool entity_separators(const kp_entity *e, const char *name, ov_bytes *seps)
{
    bool has = false;
    for (size_t k = 0; k < e->nkeys; k++) {
        const tpl *t = &e->keys[k].tpl;
        for (size_t j = 0; j < t->n; j++)
            if (t->parts[j].kind == TPL_ATTR && strcmp(t->parts[j].text, name) == 0) {
                part_separators(t, j, seps);
                has = true;
            }
    }
    return has;
}

/* Does placeholder `name` have the same separators in d as in d with entity epos made e? Only
 * when epos's own separators next to it change are the others' read. */
static bool name_same_separators(const kp_design *d, size_t epos, const kp_entity *e, const char *name)
{
    ov_bytes others = {{0}}, was = {{0}}, now = {{0}};
    entity_separators(&d->entities[epos], name, &was);
    entity_separators(e, name, &now);
    if (memcmp(&was, &now, sizeof was) == 0)
        return true;
    bool used = false;
    for (size_t i = 0; i < d->nentities; i++)
        if (i != epos)
            used |= entity_separators(&d->entities[i], name, &others);
    if (!used && !design_attr(d, name))
        return true; /* an undeclared name of epos's templates alone: theirs only */
    for (int w = 0; w < 4; w++)
        if ((others.w[w] | was.w[w]) != (others.w[w] | now.w[w]))
            return false;
    return true;
}

size_t ov_separators_changed(const kp_design *d, size_t epos, const kp_entity *e, const char ***out)
{
    const kp_entity *both[2] = {&d->entities[epos], e};
    size_t n = 0, cap = 0;
    const char **v = NULL;
    for (int s = 0; s < 2; s++)
        for (size_t k = 0; k < both[s]->nkeys; k++) {
            const tpl *t = &both[s]->keys[k].tpl;
            for (size_t j = 0; j < t->n; j++) {
                const char *name = t->parts[j].text;
                size_t i = 0;
                while (i < n && strcmp(v[i], name) != 0)
                    i++;
                if (t->parts[j].kind != TPL_ATTR || i < n || name_same_separators(d, epos, e, name))
                    continue; /* the same, or listed already */
                if (!out)     /* the first one answers */
                    return 1;
                VEC_GROW(v, n, cap);
                v[n++] = name;
            }
        }
    if (out)
        *out = v;
    return n;
}

bool ov_same_separators(const kp_design *d, size_t epos, const kp_entity *e)
{
    return ov_separators_changed(d, epos, e, NULL) == 0;
}

size_t ov_part_domain(const ov_domains *dm, const tpl_part *p)
{
    if (!p->format) {
        const dname *x = name_find(dm, p->text);
        return x ? x->id : SIZE_MAX;
    }
    char buf[128];
    const char *key = byname_key(NULL, p->text, p->format, buf, sizeof buf);
    size_t id;
    if (!key || !namemap_get(&dm->byname, key, &id))
        return SIZE_MAX;
    return id;
}

static void dom_first(const dom *d, ov_bytes *out)
{
    memset(out, 0, sizeof *out);
    switch (d->kind) {
    case DK_STRING:
        *out = d->chars;
        break;
    case DK_NUMBER:
        bytes_add(out, '-');
        bytes_range(out, '0', '9');
        break;
    case DK_DATE:
    case DK_DIGITS:
        bytes_range(out, '0', '9');
        break;
    case DK_VALUES:
        for (size_t i = 0; i < d->nvalues; i++)
            if (dom_value(d, i)[0])
                bytes_add(out, (unsigned char)dom_value(d, i)[0]);
        break;
    }
}

void ov_separators(const ov_domains *dm, const char *name, ov_bytes *out)
{
    const dname *x = name ? name_find(dm, name) : NULL;
    memset(out, 0, sizeof *out);
    if (x && !(x->attr && x->attr->chars == KP_CHARS_ANY))
        *out = x->seps;
}

bool ov_chars_any(const ov_domains *dm, const char *name)
{
    const kp_attr *a = name ? attr_of(dm, name) : NULL;
    return a && a->chars == KP_CHARS_ANY;
}

const char *ov_continuation(const ov_domains *dm, const char *name)
{
    const dname *x = name ? name_find(dm, name) : NULL;
    return x ? x->next : NULL;
}

void ov_first_bytes(const ov_domains *dm, const char *name, ov_bytes *out)
{
    dom d;
    dom_of(dm, name, NULL, &d);
    dom_first(&d, out);
}

/* ---- automata ---------------------------------------------------------------------------- */

enum { OV_EDGE_EPS, OV_EDGE_BYTE, OV_EDGE_SET };

void ov_lang_init(ov_lang *l)
{
    memset(l, 0, sizeof *l);
    l->nstates = 1; /* state 0 starts */
}

void ov_lang_free(ov_lang *l)
{
    free(l->e);
    free(l->from);
    free(l->sets);
    free(l->first);
    memset(l, 0, sizeof *l);
}

static uint32_t state_new(ov_lang *l) { return l->nstates++; }

static void edge_add(ov_lang *l, uint32_t from, uint32_t to, uint8_t kind, uint8_t byte, uint32_t set)
{
    if (l->ne >= l->cape) {
        l->cape = l->cape ? 2 * l->cape : 16;
        l->e = xrealloc(l->e, l->cape * sizeof *l->e);
        l->from = xrealloc(l->from, l->cape * sizeof *l->from);
    }
    l->e[l->ne] = (ov_edge){to, set, byte, kind};
    l->from[l->ne++] = from;
}

static uint32_t set_add(ov_lang *l, const ov_bytes *s)
{
    for (size_t i = 0; i < l->nsets; i++)
        if (!memcmp(&l->sets[i], s, sizeof *s))
            return (uint32_t)i;
    VEC_GROW(l->sets, l->nsets, l->capsets);
    l->sets[l->nsets] = *s;
    return (uint32_t)l->nsets++;
}

static void lit_byte(ov_lang *l, unsigned char c)
{
    if (!l->nstates)
        l->nstates = 1; /* zero-initialised */
    uint32_t t = state_new(l);
    edge_add(l, l->cur, t, OV_EDGE_BYTE, c, 0);
    l->cur = t;
}

void ov_lang_literal(ov_lang *l, const char *text)
{
    for (const char *c = text; c && *c; c++)
        lit_byte(l, (unsigned char)*c);
}

void ov_lang_bytes(ov_lang *l, const ov_bytes *set)
{
    if (!l->nstates)
        l->nstates = 1;
    uint32_t s = set_add(l, set), t = state_new(l);
    edge_add(l, l->cur, t, OV_EDGE_SET, 0, s);
    l->cur = t;
}

/* Appends `min` bytes of set s and then, when loop, any number more. */
static void class_add(ov_lang *l, uint32_t s, int min, bool loop)
{
    for (int i = 0; i < min; i++) {
        uint32_t t = state_new(l);
        edge_add(l, l->cur, t, OV_EDGE_SET, 0, s);
        l->cur = t;
    }
    if (!loop)
        return;
    if (min == 0) { /* a fresh state for the loop, so that it does not loop on what came before */
        uint32_t t = state_new(l);
        edge_add(l, l->cur, t, OV_EDGE_EPS, 0, 0);
        l->cur = t;
    }
    edge_add(l, l->cur, l->cur, OV_EDGE_SET, 0, s);
}

/* Appends one of the texts v[0..n) (a fresh end state joins them). */
static void alt_add(ov_lang *l, const dom *d)
{
    uint32_t s = l->cur, j = state_new(l);
    for (size_t i = 0; i < d->nvalues; i++) {
        const char *v = dom_value(d, i);
        uint32_t p = s;
        size_t n = strlen(v);
        if (!n)
            edge_add(l, s, j, OV_EDGE_EPS, 0, 0);
        for (size_t k = 0; k < n; k++) {
            uint32_t t = k + 1 == n ? j : state_new(l);
            edge_add(l, p, t, OV_EDGE_BYTE, (uint8_t)v[k], 0);
            p = t;
        }
    }
    l->cur = j;
}

static void dom_add(ov_lang *l, const dom *d)
{
    if (!l->nstates)
        l->nstates = 1;
    ov_bytes digits = {{0}};
    bytes_range(&digits, '0', '9');
    switch (d->kind) {
    case DK_STRING:
        class_add(l, set_add(l, &d->chars), 1, true);
        break;
    case DK_NUMBER: {
        uint32_t dg = set_add(l, &digits), s = l->cur, t = state_new(l);
        edge_add(l, s, t, OV_EDGE_BYTE, '-', 0); /* an optional sign */
        edge_add(l, s, t, OV_EDGE_EPS, 0, 0);
        l->cur = t;
        class_add(l, dg, d->width > 1 ? d->width : 1, true);
        s = l->cur; /* an optional fraction */
        uint32_t dot = state_new(l), frac = state_new(l), end = state_new(l);
        edge_add(l, s, dot, OV_EDGE_BYTE, '.', 0);
        edge_add(l, dot, frac, OV_EDGE_SET, 0, dg);
        edge_add(l, frac, frac, OV_EDGE_SET, 0, dg);
        edge_add(l, frac, end, OV_EDGE_EPS, 0, 0);
        edge_add(l, s, end, OV_EDGE_EPS, 0, 0);
        l->cur = end;
        break;
    }
    case DK_DATE: {
        ov_bytes iso = digits;
        bytes_text(&iso, "-:T.Z+/ ");
        class_add(l, set_add(l, &digits), 1, false);
        class_add(l, set_add(l, &iso), 0, true);
        break;
    }
    case DK_DIGITS: {
        uint32_t dg = set_add(l, &digits);
        if (d->maxdigits <= 0) {
            class_add(l, dg, 1, true);
            break;
        }
        uint32_t end = state_new(l);
        for (int i = 0; i < d->maxdigits; i++) {
            uint32_t t = state_new(l);
            edge_add(l, l->cur, t, OV_EDGE_SET, 0, dg);
            edge_add(l, t, end, OV_EDGE_EPS, 0, 0);
            l->cur = t;
        }
        l->cur = end;
        break;
    }
    case DK_VALUES:
        alt_add(l, d);
        break;
    }
}

void ov_lang_parts(ov_lang *l, const ov_domains *dm, const tpl_part *parts, size_t n, const ov_fixed *fx,
                   size_t nfx)
{
    for (size_t i = 0; i < n; i++) {
        const tpl_part *p = &parts[i];
        if (p->kind == TPL_LIT) {
            ov_lang_literal(l, p->text);
            continue;
        }
        const char *value = NULL;
        for (size_t k = 0; k < nfx && !value; k++)
            if (fx[k].name && fx[k].value && strcmp(fx[k].name, p->text) == 0)
                value = fx[k].value;
        if (value) {
            const kp_attr *a = attr_of(dm, p->text);
            char *v = tpl_apply_format(value, p->format ? p->format : a ? a->format : NULL);
            ov_lang_literal(l, v);
            free(v);
            continue;
        }
        dom d;
        dom_of(dm, p->text, p->format, &d);
        dom_add(l, &d);
    }
}

void ov_lang_end(ov_lang *l)
{
    if (!l->nstates)
        l->nstates = 1;
    /* the edges by state (counting sort), kept in their order */
    uint32_t *first = xcalloc(l->nstates + 1, sizeof *first);
    for (size_t i = 0; i < l->ne; i++)
        first[l->from[i] + 1]++;
    for (uint32_t s = 0; s < l->nstates; s++)
        first[s + 1] += first[s];
    ov_edge *e = xmalloc((l->ne ? l->ne : 1) * sizeof *e);
    uint32_t *at = xmalloc((l->nstates + 1) * sizeof *at);
    memcpy(at, first, (l->nstates + 1) * sizeof *at);
    for (size_t i = 0; i < l->ne; i++)
        e[at[l->from[i]]++] = l->e[i];
    free(at);
    free(l->e);
    free(l->from);
    l->e = e;
    l->from = NULL;
    l->cape = l->ne;
    l->first = first;
    l->ended = true;
}

static bool edges_meet(const ov_lang *a, const ov_edge *x, const ov_lang *b, const ov_edge *y)
{
    if (x->kind == OV_EDGE_BYTE && y->kind == OV_EDGE_BYTE)
        return x->byte == y->byte;
    if (x->kind == OV_EDGE_BYTE)
        return ov_bytes_has(&b->sets[y->set], x->byte);
    if (y->kind == OV_EDGE_BYTE)
        return ov_bytes_has(&a->sets[x->set], y->byte);
    return bytes_meet(&a->sets[x->set], &b->sets[y->set]);
}

/* The pairs of states the product search has still to look at (a few, so they start inside). */
typedef struct pairs {
    uint32_t *v;
    size_t n, cap;
    uint32_t inl[256];
} pairs;

static void pairs_push(pairs *s, uint32_t x, uint32_t y)
{
    VEC_GROW_INL(s->v, s->n, s->cap, s->inl);
    s->v[s->n++] = x;
    VEC_GROW_INL(s->v, s->n, s->cap, s->inl);
    s->v[s->n++] = y;
}

bool ov_meet(const ov_lang *a, const ov_lang *b, ov_how how)
{
    if (!a->ended || !b->ended)
        return true; /* nothing to decide on: assume they meet */
    size_t na = a->nstates, nb = b->nstates, cells = na * nb;
    uint64_t seen_in[64];
    uint64_t *seen = cells <= 64 * 64 ? seen_in : xcalloc((cells + 63) / 64, sizeof *seen);
    if (seen == seen_in)
        memset(seen_in, 0, sizeof seen_in);
    pairs todo;
    todo.v = NULL;
    todo.n = todo.cap = 0;
    bool met = false;
#define VISIT(x, y)                                    \
    do {                                               \
        size_t c_ = (size_t)(x)*nb + (y);              \
        if (!((seen[c_ >> 6] >> (c_ & 63)) & 1)) {     \
            seen[c_ >> 6] |= (uint64_t)1 << (c_ & 63); \
            pairs_push(&todo, (x), (y));               \
        }                                              \
    } while (0)
    VISIT(0u, 0u);
    while (todo.n > 0 && !met) {
        uint32_t y = todo.v[--todo.n], x = todo.v[--todo.n];
        if (x == a->cur && (how == OV_PREFIX || y == b->cur)) {
            met = true;
            break;
        }
        for (uint32_t i = a->first[x]; i < a->first[x + 1]; i++)
            if (a->e[i].kind == OV_EDGE_EPS)
                VISIT(a->e[i].to, y);
        for (uint32_t j = b->first[y]; j < b->first[y + 1]; j++)
            if (b->e[j].kind == OV_EDGE_EPS)
                VISIT(x, b->e[j].to);
        for (uint32_t i = a->first[x]; i < a->first[x + 1]; i++) {
            if (a->e[i].kind == OV_EDGE_EPS)
                continue;
            for (uint32_t j = b->first[y]; j < b->first[y + 1]; j++)
                if (b->e[j].kind != OV_EDGE_EPS && edges_meet(a, &a->e[i], b, &b->e[j]))
                    VISIT(a->e[i].to, b->e[j].to);
        }
    }
#undef VISIT
    if (seen != seen_in)
        free(seen);
    if (todo.v != todo.inl)
        free(todo.v);
    return met;
}

bool ov_templates_meet(const ov_domains *dm, const tpl *a, const ov_fixed *fx, size_t nfx, const tpl *b,
                       ov_how how)
{
    ov_lang la, lb;
    ov_lang_init(&la);
    ov_lang_init(&lb);
    ov_lang_parts(&la, dm, a->parts, a->n, fx, nfx);
    ov_lang_parts(&lb, dm, b->parts, b->n, NULL, 0);
    ov_lang_end(&la);
    ov_lang_end(&lb);
    bool met = ov_meet(&la, &lb, how);
    ov_lang_free(&la);
    ov_lang_free(&lb);
    return met;
}
