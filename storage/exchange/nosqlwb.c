/* nosqlwb.c - NoSQL Workbench models: import (with key-template inference) and export. */
#include "nosqlwb.h"

#include "cfn.h"
#include "requests.h"

#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const kp_loc NOLOC = {0, 0};

/* ==== small helpers ========================================================================= */

#define PUSH(arr, n) (arr = xrealloc(arr, ((n) + 1) * sizeof *(arr)), memset(&(arr)[n], 0, sizeof *(arr)), &(arr)[(n)++])

static bool streq(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

static bool is_sep_char(char c) { return c == '#' || c == '|' || c == ':'; }

static bool has_digit(const char *s)
{
    for (; *s; s++)
        if (isdigit((unsigned char)*s))
            return true;
    return false;
}

/* ISO 8601 date at the start: dddd-dd-dd */
static bool date_like(const char *s)
{
    for (int i = 0; i < 10; i++) {
        if (!s[i])
            return false;
        if (i == 4 || i == 7) {
            if (s[i] != '-')
                return false;
        } else if (!isdigit((unsigned char)s[i]))
            return false;
    }
    return true;
}

static bool value_like(const char *s)
{
    return has_digit(s) || s[0] == '<' || strchr(s, '@') != NULL;
}

/* A placeholder name: [A-Za-z0-9_.-] and non-ASCII bytes; others become '_'. */
static char *sanitize_name(const char *s)
{
    sbuf b;
    sbuf_init(&b);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (isalnum(*p) || *p == '_' || *p == '.' || *p == '-' || *p >= 0x80)
            sbuf_addc(&b, (char)*p);
        else if (b.len && b.s[b.len - 1] != '_')
            sbuf_addc(&b, '_');
    }
    while (b.len && b.s[b.len - 1] == '_')
        b.s[--b.len] = '\0';
    if (!b.len)
        sbuf_add(&b, "value");
    return sbuf_steal(&b);
}

static bool valid_name(const char *s)
{
    if (!s || !*s)
        return false;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (!(isalnum(*p) || *p == '_' || *p == '.' || *p == '-' || *p >= 0x80))
            return false;
    return true;
}

/* "PK", "SK", "GSI1-PK", "gsi1sk": names that say nothing about the value */
static bool keyish_name(const char *s)
{
    size_t n = strlen(s);
    if (n < 2)
        return true;
    char a = (char)toupper((unsigned char)s[n - 2]), b = (char)toupper((unsigned char)s[n - 1]);
    return (a == 'P' || a == 'S') && b == 'K';
}

static char *lower_first(const char *s)
{
    /* "DeviceID" -> "deviceId", "Room" -> "room" */
    char *o = xstrdup(s);
    size_t n = strlen(o);
    if (n > 2 && strcmp(o + n - 2, "ID") == 0)
        o[n - 1] = 'd';
    o[0] = (char)tolower((unsigned char)o[0]);
    return o;
}

/* Lower case for ASCII and the Latin-1 letters of UTF-8 (Í -> í, Ñ -> ñ). In place. */
static void utf8_lower(char *s)
{
    unsigned char *p = (unsigned char *)s;
    for (; *p; p++) {
        if (*p < 0x80)
            *p = (unsigned char)tolower(*p);
        else if (*p == 0xC3 && p[1] >= 0x80 && p[1] <= 0x9E && p[1] != 0x97) {
            p[1] = (unsigned char)(p[1] + 0x20);
            p++;
        }
    }
}

/* "ITEMS" -> "item", "Room" -> "room", "LÍNEA" -> "línea" */
static char *word_stem(const char *w)
{
    char *o = xstrdup(w);
    utf8_lower(o);
    size_t n = strlen(o);
    if (n > 3 && o[n - 1] == 's' && o[n - 2] != 's')
        o[n - 1] = '\0';
    return o;
}

/* The scalar text of an attribute value: typed {"S": ...}, {"N": ...}, {"B": ...}, or raw
 * JSON string/number/bool. NULL for maps, lists, sets and absent values. Caller frees. */
static char *av_text(json_t *v)
{
    if (!v)
        return NULL;
    if (json_is_string(v))
        return xstrdup(json_string_value(v));
    if (json_is_integer(v))
        return xasprintf("%lld", (long long)json_integer_value(v));
    if (json_is_real(v))
        return xasprintf("%.15g", json_real_value(v));
    if (json_is_object(v) && json_object_size(v) == 1) {
        json_t *x;
        if ((x = json_object_get(v, "S")) || (x = json_object_get(v, "N")) || (x = json_object_get(v, "B")))
            return av_text(x);
    }
    return NULL;
}

static bool typed_value(json_t *v)
{
    static const char *const types[] = {"S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS"};
    if (!json_is_object(v) || json_object_size(v) != 1)
        return false;
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (json_object_get(v, types[i]))
            return true;
    return false;
}

/* Approximate DynamoDB storage bytes of a value (AWS developer guide, item sizes). Raw JSON
 * (not a typed value) counts as its compact text. */
static double av_size(json_t *v)
{
    if (!typed_value(v)) {
        char *t = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
        double n = t ? (double)strlen(t) : 1;
        free(t);
        return n;
    }
    const char *type = json_object_iter_key(json_object_iter(v));
    json_t *x = json_object_iter_value(json_object_iter(v));
    if (!strcmp(type, "S") || !strcmp(type, "B"))
        return json_is_string(x) ? (double)strlen(json_string_value(x)) : 1;
    if (!strcmp(type, "N")) {
        char *t = av_text(x);
        double n = t ? ceil(strlen(t) / 2.0) + 1 : 1;
        free(t);
        return n;
    }
    if (!strcmp(type, "BOOL") || !strcmp(type, "NULL"))
        return 1;
    double n = 3;
    if (!strcmp(type, "M") && json_is_object(x)) {
        const char *k;
        json_t *y;
        json_object_foreach(x, k, y) n += (double)strlen(k) + av_size(y);
    } else if (json_is_array(x)) {
        size_t i;
        json_t *y;
        json_array_foreach(x, i, y) n += 1 + (json_is_string(y) ? (double)strlen(json_string_value(y)) : av_size(y));
    } else
        n += av_size(x);
    return n;
}

static double item_size(json_t *row)
{
    double n = 0;
    const char *k;
    json_t *v;
    json_object_foreach(row, k, v) n += (double)strlen(k) + av_size(v);
    return n;
}

/* ==== tokens: a key value split at separators ============================================== */

typedef struct toks {
    char **v;
    size_t n;
} toks;

static void toks_free(toks *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->v[i]);
    free(t->v);
    t->v = NULL;
    t->n = 0;
}

/* "c#12345" -> "c" "#" "12345"; separators '#', '|', and ':' outside dates/times. */
static bool sep_at(const char *s, const char *p)
{
    if (*p == ':' && p > s && isdigit((unsigned char)p[-1]) && isdigit((unsigned char)p[1]))
        return false; /* a time: 14:15:39 */
    return is_sep_char(*p);
}

static void tokenize(const char *s, toks *out)
{
    out->v = NULL;
    out->n = 0;
    const char *p = s;
    while (*p) {
        if (sep_at(s, p)) {
            *PUSH(out->v, out->n) = xstrndup(p, 1);
            p++;
            continue;
        }
        const char *q = p;
        if (date_like(p)) {
            while (*q && *q != '#' && *q != '|')
                q++;
        } else {
            while (*q && !sep_at(s, q))
                q++;
        }
        *PUSH(out->v, out->n) = xstrndup(p, (size_t)(q - p));
        p = q;
    }
}

static bool tok_is_sep(const char *t) { return t[0] && !t[1] && is_sep_char(t[0]); }

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Distinct non-NULL strings among v[0..n) (sorts a copy of the pointers). */
static size_t count_distinct(char *const *v, size_t n)
{
    const char **c = xcalloc(n ? n : 1, sizeof *c);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i])
            c[m++] = v[i];
    qsort(c, m, sizeof *c, cmp_str);
    size_t d = 0;
    for (size_t i = 0; i < m; i++)
        d += i == 0 || strcmp(c[i], c[i - 1]) != 0;
    free(c);
    return d;
}

/* ==== import: groups of rows (entities) ==================================================== */

typedef struct group {
    char *name;
    json_t **rows;
    size_t nrows;
    char **nonkey; /* a facet's declared non-key attributes */
    size_t nnonkey;
    bool declared;
    const char *alias[2]; /* facet KeyAttributeAlias: partition, sort */
    char *sig;            /* grouping signature (no facets) */
} group;

/* A placeholder found in one entity's key values. */
typedef struct ph {
    char **vals;    /* per row of the group, NULL where the key is absent */
    char *name;
    char *alias;    /* name the facet's alias gives this position */
    char *before;   /* literal token before it */
    const char *attr; /* key attribute it is part of */
    bool date;
} ph;

typedef struct tpart {
    bool lit;
    char *text;  /* literal */
    size_t ph;   /* placeholder index */
} tpart;

typedef struct ktpl {
    const char *attr;
    bool table;
    tpart *parts;
    size_t nparts;
    size_t present;
    bool domain;  /* an index key that is the whole value of a plain attribute */
} ktpl;

typedef struct imp {
    kp_diags *diags;
    kp_design *d;
    group *groups;
    size_t ngroups;
    char **keyattrs; /* table pk, sk, then index keys not already listed */
    size_t nkeyattrs;
    size_t ntablekeys;
    size_t totalrows;
} imp;

static void group_free(group *g)
{
    free(g->name);
    free(g->rows);
    for (size_t i = 0; i < g->nnonkey; i++)
        free(g->nonkey[i]);
    free(g->nonkey);
    free(g->sig);
}

static void warn(imp *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(imp *m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    diags_warn(m->diags, KP_INVALID, NOLOC, "%s", s);
    free(s);
}

static char *row_key(json_t *row, const char *attr) { return av_text(json_object_get(row, attr)); }

static const char *const TYPE_ATTRS[] = {"EntityType", "entityType", "entity_type", "Entity", "entity",
                                         "Type", "type", "_type", "__typename", "_et"};

/* Rows grouped by an entity-type attribute every row has; false when there is none. */
static bool group_by_type(imp *m, json_t *rows)
{
    for (size_t t = 0; t < sizeof TYPE_ATTRS / sizeof *TYPE_ATTRS; t++) {
        size_t i;
        json_t *row;
        bool all = true;
        json_array_foreach(rows, i, row) {
            char *v = row_key(row, TYPE_ATTRS[t]);
            if (!v || !*v)
                all = false;
            free(v);
            if (!all)
                break;
        }
        if (!all)
            continue;
        json_array_foreach(rows, i, row) {
            char *v = row_key(row, TYPE_ATTRS[t]);
            group *g = NULL;
            for (size_t k = 0; k < m->ngroups; k++)
                if (streq(m->groups[k].name, v))
                    g = &m->groups[k];
            if (!g) {
                g = PUSH(m->groups, m->ngroups);
                g->name = xstrdup(v);
            }
            free(v);
            *PUSH(g->rows, g->nrows) = row;
        }
        return true;
    }
    return false;
}

/* true when `tok` is the value of one of the row's non-key attributes (State = NORMAL in
 * "NORMAL#2020-04-24"): then it is data, not a type marker. */
static bool row_has_value(const imp *m, json_t *row, const char *tok)
{
    const char *k;
    json_t *v;
    json_object_foreach(row, k, v) {
        bool key = false;
        for (size_t i = 0; i < m->nkeyattrs && !key; i++)
            key = streq(m->keyattrs[i], k);
        if (key)
            continue;
        char *t = av_text(v);
        bool eq = t && streq(t, tok);
        free(t);
        if (eq)
            return true;
    }
    return false;
}

/* Wildcarded shape of a row's table keys: seps kept, dates "\1D", values "\1V", words kept;
 * `wild` also wildcards words (except the partition key's first) as "\1A". */
static char *row_shape(imp *m, json_t *row, bool wild, const bool *var, size_t nvar)
{
    sbuf b;
    sbuf_init(&b);
    size_t pos = 0;
    for (size_t k = 0; k < m->ntablekeys; k++) {
        char *v = row_key(row, m->keyattrs[k]);
        toks t;
        tokenize(v ? v : "", &t);
        for (size_t i = 0; i < t.n; i++, pos++) {
            const char *x = t.v[i];
            if (tok_is_sep(x))
                sbuf_add(&b, x);
            else if (date_like(x))
                sbuf_add(&b, "\1D");
            else if (value_like(x) || row_has_value(m, row, x))
                sbuf_add(&b, "\1V");
            else if ((wild && !(k == 0 && i == 0)) || (var && pos < nvar && var[pos]))
                sbuf_add(&b, "\1A");
            else
                sbuf_add(&b, x);
            sbuf_addc(&b, '\2');
        }
        toks_free(&t);
        free(v);
        sbuf_add(&b, "\3");
    }
    return sbuf_steal(&b);
}

/* First word of >= 2 letters among a row's literal key tokens, for naming a group. */
static char *shape_word(imp *m, json_t *row, const bool *var, size_t nvar, size_t which)
{
    size_t pos = 0, found = 0;
    char *res = NULL;
    for (size_t k = 0; k < m->ntablekeys && !res; k++) {
        char *v = row_key(row, m->keyattrs[k]);
        toks t;
        tokenize(v ? v : "", &t);
        for (size_t i = 0; i < t.n; i++, pos++) {
            const char *x = t.v[i];
            if (res || tok_is_sep(x) || value_like(x) || date_like(x) || (var && pos < nvar && var[pos]) ||
                row_has_value(m, row, x))
                continue;
            size_t letters = 0;
            for (const char *p = x; *p; p++)
                letters += isalpha((unsigned char)*p) != 0;
            if (letters >= 2 && found++ == which)
                res = sanitize_name(x);
        }
        toks_free(&t);
        free(v);
    }
    return res;
}

static char *camel(const char *s)
{
    char *o = xstrdup(s);
    if (o[0])
        o[0] = (char)toupper((unsigned char)o[0]);
    return o;
}

/* Rows grouped by the shape of their table keys (no facets and no type attribute). A word
 * position where many different words occur (User:UserA, User:UserB, ...) is a value. */
static void group_by_shape(imp *m, json_t *rows)
{
    size_t n = json_array_size(rows);
    char **wild = xcalloc(n ? n : 1, sizeof *wild);
    for (size_t i = 0; i < n; i++)
        wild[i] = row_shape(m, json_array_get(rows, i), true, NULL, 0);
    bool *done = xcalloc(n ? n : 1, sizeof *done);
    for (size_t i = 0; i < n; i++) {
        if (done[i])
            continue;
        /* the class of rows sharing the wildcarded shape */
        size_t *cls = NULL, ncls = 0;
        for (size_t j = i; j < n; j++)
            if (!done[j] && streq(wild[i], wild[j])) {
                *PUSH(cls, ncls) = j;
                done[j] = true;
            }
        /* word positions: variable when many distinct words */
        size_t npos = 0;
        toks *all = xcalloc(ncls, sizeof *all);
        for (size_t c = 0; c < ncls; c++) {
            sbuf b;
            sbuf_init(&b);
            json_t *row = json_array_get(rows, cls[c]);
            for (size_t k = 0; k < m->ntablekeys; k++) {
                char *v = row_key(row, m->keyattrs[k]);
                sbuf_add(&b, v ? v : "");
                sbuf_addc(&b, '\x1f');
                free(v);
            }
            /* tokens of all keys concatenated, '\x1f' between keys */
            toks t;
            char *s = sbuf_steal(&b);
            all[c].v = NULL;
            all[c].n = 0;
            for (char *p = s, *q; (q = strchr(p, '\x1f')); p = q + 1) {
                *q = '\0';
                tokenize(p, &t);
                for (size_t x = 0; x < t.n; x++)
                    *PUSH(all[c].v, all[c].n) = t.v[x];
                free(t.v);
            }
            free(s);
            if (c == 0)
                npos = all[c].n;
        }
        bool *var = xcalloc(npos ? npos : 1, sizeof *var);
        for (size_t p = 1; p < npos; p++) {
            char **at = xcalloc(ncls, sizeof *at);
            for (size_t c = 0; c < ncls; c++)
                at[c] = p < all[c].n ? all[c].v[p] : NULL;
            size_t distinct = count_distinct(at, ncls);
            free(at);
            /* a word after a short prefix ("c#ABC", "Room:Music") is an identifier */
            bool after_prefix = p >= 2;
            for (size_t c = 0; c < ncls && after_prefix; c++) {
                const char *sep = p - 1 < all[c].n ? all[c].v[p - 1] : "";
                const char *pre = p - 2 < all[c].n ? all[c].v[p - 2] : "";
                size_t plen = strlen(pre);
                bool alpha = plen >= 1 && plen <= 4;
                for (size_t q = 0; q < plen && alpha; q++)
                    alpha = isalpha((unsigned char)pre[q]) != 0;
                after_prefix = tok_is_sep(sep) && alpha;
            }
            var[p] = (distinct >= 3 && distinct * 2 >= ncls) || after_prefix;
        }
        for (size_t c = 0; c < ncls; c++) {
            json_t *row = json_array_get(rows, cls[c]);
            char *sig = row_shape(m, row, false, var, npos);
            group *g = NULL;
            for (size_t k = 0; k < m->ngroups; k++)
                if (streq(m->groups[k].sig, sig))
                    g = &m->groups[k];
            if (!g) {
                g = PUSH(m->groups, m->ngroups);
                g->sig = sig;
                char *w = shape_word(m, row, var, npos, 0);
                g->name = w ? camel(w) : xstrdup(m->d->table.name);
                free(w);
                /* the same name for another shape: add the next word */
                for (size_t k = 0; k + 1 < m->ngroups; k++)
                    if (streq(m->groups[k].name, g->name)) {
                        char *w2 = shape_word(m, row, var, npos, 1);
                        char *c2 = w2 ? camel(w2) : NULL;
                        char *nn = c2 ? xasprintf("%s%s", g->name, c2)
                                      : xasprintf("%s%zu", g->name, m->ngroups);
                        free(w2);
                        free(c2);
                        free(g->name);
                        g->name = nn;
                        break;
                    }
            } else
                free(sig);
            *PUSH(g->rows, g->nrows) = row;
        }
        for (size_t c = 0; c < ncls; c++)
            toks_free(&all[c]);
        free(all);
        free(var);
        free(cls);
    }
    for (size_t i = 0; i < n; i++)
        free(wild[i]);
    free(wild);
    free(done);
    /* names must be unique */
    for (size_t i = 0; i < m->ngroups; i++)
        for (size_t j = 0; j < i; j++)
            if (streq(m->groups[i].name, m->groups[j].name)) {
                char *nn = xasprintf("%s%zu", m->groups[i].name, i + 1);
                free(m->groups[i].name);
                m->groups[i].name = nn;
                j = (size_t)-1;
            }
}

/* ==== import: template inference =========================================================== */

typedef struct gctx {
    imp *m;
    group *g;
    ph *phs;
    size_t nphs;
    ktpl *keys;
    size_t nkeys;
} gctx;

static size_t new_ph(gctx *c, char **vals, const char *attr, const char *alias, const char *before)
{
    ph *p = PUSH(c->phs, c->nphs);
    p->vals = vals;
    p->attr = attr;
    p->alias = alias ? xstrdup(alias) : NULL;
    p->before = before ? xstrdup(before) : NULL;
    p->date = true;
    size_t present = 0;
    for (size_t r = 0; r < c->g->nrows; r++)
        if (vals[r]) {
            present++;
            if (!date_like(vals[r]))
                p->date = false;
        }
    if (!present)
        p->date = false;
    return c->nphs - 1;
}

static void add_lit(ktpl *k, const char *text, size_t n)
{
    if (!n)
        return;
    if (k->nparts && k->parts[k->nparts - 1].lit) {
        tpart *l = &k->parts[k->nparts - 1];
        size_t old = strlen(l->text);
        l->text = xrealloc(l->text, old + n + 1);
        memcpy(l->text + old, text, n);
        l->text[old + n] = '\0';
        return;
    }
    tpart *p = PUSH(k->parts, k->nparts);
    p->lit = true;
    p->text = xstrndup(text, n);
}

static void add_ph(ktpl *k, size_t idx)
{
    tpart *p = PUSH(k->parts, k->nparts);
    p->lit = false;
    p->ph = idx;
}

/* Matches `s` against a parsed template (non-greedy placeholders, the last takes the rest);
 * on success fills caps[i] for each placeholder part (caller frees). */
static bool tpl_match(const tpl *t, const char *s, char **caps)
{
    const char *p = s;
    for (size_t i = 0; i < t->n; i++) {
        const tpl_part *x = &t->parts[i];
        if (x->kind == TPL_LIT) {
            size_t n = strlen(x->text);
            if (strncmp(p, x->text, n) != 0)
                return false;
            p += n;
            continue;
        }
        const char *end;
        if (i + 1 == t->n)
            end = p + strlen(p);
        else if (t->parts[i + 1].kind != TPL_LIT)
            return false; /* "{a}{b}": where one ends is anyone's guess */
        else {
            end = strstr(p, t->parts[i + 1].text);
            if (!end)
                return false;
        }
        if (end == p)
            return false;
        caps[i] = xstrndup(p, (size_t)(end - p));
        p = end;
    }
    return *p == '\0';
}

/* A facet alias written as a template ("ORDER#{orderId}") that every sample matches. */
static bool infer_from_alias(gctx *c, ktpl *k, char **vals, const char *alias)
{
    if (!alias || !strchr(alias, '{'))
        return false;
    tpl t;
    const char *err;
    size_t off;
    if (!tpl_parse(alias, &t, &err, &off))
        return false;
    bool ok = tpl_attr_count(&t) > 0;
    size_t nr = c->g->nrows;
    char ***caps = xcalloc(t.n, sizeof *caps);
    for (size_t i = 0; i < t.n; i++)
        caps[i] = xcalloc(nr, sizeof **caps);
    for (size_t r = 0; r < nr && ok; r++) {
        if (!vals[r])
            continue;
        char **one = xcalloc(t.n, sizeof *one);
        ok = tpl_match(&t, vals[r], one);
        for (size_t i = 0; i < t.n; i++) {
            if (ok)
                caps[i][r] = one[i];
            else
                free(one[i]);
        }
        free(one);
    }
    for (size_t i = 0; i < t.n; i++) {
        if (ok && t.parts[i].kind == TPL_ATTR) {
            size_t id = new_ph(c, caps[i], k->attr, t.parts[i].text, NULL);
            free(c->phs[id].name);
            c->phs[id].name = xstrdup(t.parts[i].text);
            add_ph(k, id);
            continue;
        }
        if (ok)
            add_lit(k, t.parts[i].text, strlen(t.parts[i].text));
        for (size_t r = 0; r < nr; r++)
            free(caps[i][r]);
        free(caps[i]);
    }
    free(caps);
    tpl_free(&t);
    return ok;
}

static char *attr_match(const gctx *c, char **vals);

static void infer_key(gctx *c, ktpl *k, const char *alias)
{
    group *g = c->g;
    char **vals = xcalloc(g->nrows ? g->nrows : 1, sizeof *vals);
    for (size_t r = 0; r < g->nrows; r++)
        if ((vals[r] = row_key(g->rows[r], k->attr)))
            k->present++;
    if (!k->present || infer_from_alias(c, k, vals, alias)) {
        for (size_t r = 0; r < g->nrows; r++)
            free(vals[r]);
        free(vals);
        return;
    }
    /* the whole value is a plain attribute's (complaint_id, RoomID) */
    char *whole = attr_match(c, vals);
    if (whole) {
        size_t id = new_ph(c, vals, k->attr, NULL, NULL);
        c->phs[id].name = whole;
        add_ph(k, id);
        return;
    }
    toks *t = xcalloc(g->nrows, sizeof *t);
    size_t first = (size_t)-1;
    bool same = true;
    for (size_t r = 0; r < g->nrows; r++) {
        if (!vals[r])
            continue;
        tokenize(vals[r], &t[r]);
        if (first == (size_t)-1)
            first = r;
        else if (t[r].n != t[first].n)
            same = false;
        else
            for (size_t i = 0; i < t[r].n && same; i++)
                if (tok_is_sep(t[r].v[i]) != tok_is_sep(t[first].v[i]) ||
                    (tok_is_sep(t[r].v[i]) && strcmp(t[r].v[i], t[first].v[i])))
                    same = false;
    }
    /* the alias, when it has the values' shape, says which words are names */
    toks at = {0};
    if (alias && !streq(alias, k->attr))
        tokenize(alias, &at);
    bool alias_fits = same && at.n == t[first].n;
    for (size_t i = 0; alias_fits && i < at.n; i++)
        if (tok_is_sep(at.v[i]) != tok_is_sep(t[first].v[i]))
            alias_fits = false;

    if (same) {
        const char *before = NULL;
        for (size_t i = 0; i < t[first].n; i++) {
            const char *x0 = t[first].v[i];
            if (tok_is_sep(x0)) {
                add_lit(k, x0, 1);
                continue;
            }
            bool allsame = true;
            for (size_t r = 0; r < g->nrows; r++)
                if (vals[r] && strcmp(t[r].v[i], x0))
                    allsame = false;
            const char *al = alias_fits ? at.v[i] : NULL;
            bool alias_var = al && util_edit_distance(al, x0, 2) > 2 && !value_like(al);
            char *same_attr = NULL;
            if (allsame && i > 0) {
                /* a fixed word that is an attribute's value (ESTADO#pending-shipment with
                 * status = pending-shipment on every row: a sparse index's key) */
                char **tv = xcalloc(g->nrows, sizeof *tv);
                for (size_t r = 0; r < g->nrows; r++)
                    tv[r] = vals[r] ? t[r].v[i] : NULL;
                same_attr = attr_match(c, tv);
                free(tv);
            }
            if (allsame && !value_like(x0) && !alias_var && !date_like(x0) && !same_attr) {
                add_lit(k, x0, strlen(x0));
                before = x0;
                continue;
            }
            free(same_attr);
            /* common word prefix followed by digits in every sample: Complaint123 */
            size_t pre = 0;
            char **tv = xcalloc(g->nrows, sizeof *tv);
            for (size_t r = 0; r < g->nrows; r++)
                tv[r] = vals[r] ? t[r].v[i] : NULL;
            char *tok_attr = attr_match(c, tv);
            free(tv);
            if (!allsame && !tok_attr) {
                pre = strlen(x0);
                for (size_t r = 0; r < g->nrows; r++)
                    if (vals[r]) {
                        size_t q = 0;
                        while (q < pre && t[r].v[i][q] == x0[q])
                            q++;
                        pre = q;
                    }
                while (pre > 0 && !isalpha((unsigned char)x0[pre - 1]))
                    pre--;
                for (size_t r = 0; r < g->nrows && pre; r++)
                    if (vals[r]) {
                        const char *rest = t[r].v[i] + pre;
                        if (!*rest)
                            pre = 0;
                        for (; *rest && pre; rest++)
                            if (!isdigit((unsigned char)*rest))
                                pre = 0;
                    }
                if (pre < 2)
                    pre = 0;
            }
            char **pv = xcalloc(g->nrows, sizeof *pv);
            for (size_t r = 0; r < g->nrows; r++)
                if (vals[r])
                    pv[r] = xstrdup(t[r].v[i] + pre);
            char *word = pre ? xstrndup(x0, pre) : NULL;
            if (pre)
                add_lit(k, x0, pre);
            size_t id = new_ph(c, pv, k->attr, al && !value_like(al) ? al : NULL, word ? word : before);
            c->phs[id].name = tok_attr;
            add_ph(k, id);
            free(word);
            before = NULL;
        }
    } else {
        /* shapes disagree: the common prefix up to a separator, then one placeholder */
        size_t pre = strlen(vals[first]);
        for (size_t r = 0; r < g->nrows; r++)
            if (vals[r]) {
                size_t q = 0;
                while (q < pre && vals[r][q] == vals[first][q])
                    q++;
                pre = q;
            }
        while (pre > 0 && !is_sep_char(vals[first][pre - 1]))
            pre--;
        sbuf ex;
        sbuf_init(&ex);
        size_t shown = 0;
        for (size_t r = 0; r < g->nrows && shown < 3; r++)
            if (vals[r])
                sbuf_printf(&ex, "%s'%s'", shown++ ? ", " : "", vals[r]);
        char **pv = xcalloc(g->nrows, sizeof *pv);
        for (size_t r = 0; r < g->nrows; r++)
            if (vals[r])
                pv[r] = xstrdup(vals[r] + pre);
        add_lit(k, vals[first], pre);
        char *before = NULL;
        if (pre > 1) {
            size_t s = pre - 1;
            while (s > 0 && !is_sep_char(vals[first][s - 1]))
                s--;
            before = xstrndup(vals[first] + s, pre - 1 - s);
        }
        const char *al = at.n ? at.v[at.n - 1] : NULL;
        add_ph(k, new_ph(c, pv, k->attr, al && !tok_is_sep(al) ? al : NULL, before));
        free(before);
        warn(c->m, "entity '%s': the sample values of %s disagree in shape (%s%s); guessed the "
                   "template from their common prefix '%.*s': check it",
             g->name, k->attr, ex.s, k->present > shown ? ", ..." : "", (int)pre, vals[first]);
        sbuf_free(&ex);
    }
    toks_free(&at);
    for (size_t r = 0; r < g->nrows; r++) {
        toks_free(&t[r]);
        free(vals[r]);
    }
    free(t);
    free(vals);
}

/* ---- naming ------------------------------------------------------------------------------ */

static bool same_vals(const gctx *c, const ph *a, const ph *b)
{
    size_t common = 0;
    for (size_t r = 0; r < c->g->nrows; r++) {
        if (!a->vals[r] || !b->vals[r])
            continue;
        if (strcmp(a->vals[r], b->vals[r]))
            return false;
        common++;
    }
    return common > 0;
}

static bool same_before(const ph *a, const ph *b)
{
    if (!a->before || !b->before)
        return !a->before && !b->before;
    return strcasecmp(a->before, b->before) == 0;
}

static bool is_table_key(const imp *m, const char *name)
{
    for (size_t i = 0; i < m->ntablekeys; i++)
        if (streq(m->keyattrs[i], name))
            return true;
    return false;
}

static bool templated_key(const gctx *c, const char *name)
{
    for (size_t i = 0; i < c->nkeys; i++)
        if (!c->keys[i].domain && c->keys[i].present && streq(c->keys[i].attr, name))
            return true;
    return is_table_key(c->m, name);
}

/* true when `name` is free for placeholder p: no other placeholder with other values uses it,
 * and it is not a templated key attribute. */
static bool name_free(const gctx *c, size_t p, const char *name)
{
    if (!valid_name(name) || templated_key(c, name))
        return false;
    for (size_t i = 0; i < c->nphs; i++)
        if (i != p && streq(c->phs[i].name, name) && !same_vals(c, &c->phs[i], &c->phs[p]))
            return false;
    return true;
}

/* A non-key attribute of the rows holding the same values as `vals` (on at least half the
 * rows that have a value, and never a different one). Caller frees. */
static char *attr_match(const gctx *c, char **vals)
{
    size_t present = 0;
    for (size_t r = 0; r < c->g->nrows; r++)
        present += vals[r] != NULL;
    /* candidates: every attribute the rows have, once each, in first-seen order */
    const char **names = NULL;
    size_t nnames = 0;
    for (size_t r = 0; r < c->g->nrows; r++) {
        if (!vals[r])
            continue;
        const char *k;
        json_t *v;
        json_object_foreach(c->g->rows[r], k, v) {
            bool seen = false;
            for (size_t i = 0; i < nnames && !seen; i++)
                seen = !strcmp(names[i], k);
            if (!seen)
                *PUSH(names, nnames) = k;
        }
    }
    char *res = NULL;
    for (size_t i = 0; i < nnames && !res; i++) {
        const char *k = names[i];
        if (is_table_key(c->m, k) || keyish_name(k) || !valid_name(k))
            continue;
        size_t hits = 0;
        bool bad = false;
        for (size_t r = 0; r < c->g->nrows && !bad; r++) {
            if (!vals[r])
                continue;
            char *t = row_key(c->g->rows[r], k);
            if (t && streq(t, vals[r]))
                hits++;
            else if (t)
                bad = true;
            free(t);
        }
        if (!bad && hits && hits * 2 >= present)
            res = xstrdup(k);
    }
    free(names);
    return res;
}

/* The entity a short prefix abbreviates: c -> customer (prefix), pmn -> payment (letters in
 * order, only when `loose`). The `skip`-th candidate, shortest names first. */
static const char *entity_for_prefix(const imp *m, const char *w, bool loose, size_t skip)
{
    for (int pass = 0; pass < (loose ? 2 : 1); pass++) {
        /* candidates of this pass, by length */
        for (size_t len = 1; len <= 256; len++)
            for (size_t i = 0; i < m->ngroups; i++) {
                const char *n = m->groups[i].name;
                if (strlen(n) != len)
                    continue;
                bool hit;
                if (pass == 0)
                    hit = strncasecmp(n, w, strlen(w)) == 0;
                else {
                    hit = strncasecmp(n, w, strlen(w)) != 0 &&
                          tolower((unsigned char)*w) == tolower((unsigned char)*n);
                    const char *q = n;
                    for (const char *p = w; *p && hit; p++) {
                        while (*q && tolower((unsigned char)*q) != tolower((unsigned char)*p))
                            q++;
                        if (!*q)
                            hit = false;
                        else
                            q++;
                    }
                }
                if (hit && skip-- == 0)
                    return n;
            }
    }
    return NULL;
}

/* Usual abbreviations of key prefixes, when no entity's name says more. */
static const char *abbreviation(const char *w)
{
    static const char *const tab[][2] = {
        {"u", "user"},      {"usr", "user"},       {"c", "customer"}, {"cust", "customer"},
        {"o", "order"},     {"ord", "order"},      {"p", "product"},  {"prod", "product"},
        {"d", "device"},    {"dev", "device"},     {"a", "account"},  {"acc", "account"},
        {"acct", "account"}, {"s", "session"},     {"t", "tenant"},   {"g", "group"},
        {"m", "message"},   {"msg", "message"},    {"inv", "invoice"}, {"emp", "employee"},
        {"org", "organization"}, {"sub", "subscription"}, {"rec", "receipt"}, {"cli", "cliente"},
        {"ped", "pedido"},  {"prd", "producto"},
    };
    for (size_t i = 0; i < sizeof tab / sizeof *tab; i++)
        if (!strcasecmp(w, tab[i][0]))
            return tab[i][1];
    return NULL;
}

/* Name candidates for placeholder p, in order of preference; `k` walks through them, NULL
 * when there are no more. `strict`: the first sweep, only confident names. */
static char *name_candidate(const gctx *c, size_t p, size_t k, bool strict)
{
    const ph *x = &c->phs[p];
    const char *suffix = x->date ? "Date" : "Id";
    size_t step = 0;
    /* 0: another placeholder of the entity with the same values after the same literal */
    for (size_t i = 0; i < c->nphs; i++)
        if (i != p && c->phs[i].name && same_before(&c->phs[i], x) && same_vals(c, &c->phs[i], x))
            if (step++ == k)
                return xstrdup(c->phs[i].name);
    /* 1: a non-key attribute with the same values */
    if (step++ == k) {
        char *r = attr_match(c, x->vals);
        return r ? r : xstrdup("");
    }
    /* 2: the facet's alias */
    if (step++ == k) {
        if (!x->alias || keyish_name(x->alias))
            return xstrdup("");
        const char *a = x->alias;
        size_t n = strlen(a);
        if (a[0] == '{' && n > 2 && a[n - 1] == '}') {
            char *inner = xstrndup(a + 1, n - 2);
            char *r = sanitize_name(inner);
            free(inner);
            return r;
        }
        return sanitize_name(a);
    }
    /* 3: a table key named for its value ("DeviceID" -> deviceId), when it is the only
     * placeholder of its template */
    if (step++ == k) {
        size_t same_attr = 0;
        for (size_t i = 0; i < c->nphs; i++)
            same_attr += c->phs[i].attr == x->attr;
        if (same_attr == 1 && is_table_key(c->m, x->attr) && !keyish_name(x->attr) && valid_name(x->attr))
            return lower_first(x->attr);
        return xstrdup("");
    }
    /* 4: the entity a short literal before it abbreviates */
    char *w = x->before ? sanitize_name(x->before) : NULL;
    size_t letters = 0;
    for (const char *q = w ? w : ""; *q; q++)
        letters += isalpha((unsigned char)*q) != 0;
    if (w && strlen(w) <= 4)
        for (size_t skip = 0;; skip++) {
            const char *ent = entity_for_prefix(c->m, w, !strict, skip);
            if (!ent)
                break;
            if (step++ == k) {
                char *lf = lower_first(ent);
                char *sn = sanitize_name(lf);
                char *res = xasprintf("%s%s", sn, suffix);
                free(lf);
                free(sn);
                free(w);
                return res;
            }
        }
    if (strict) {
        free(w);
        return NULL;
    }
    /* 5: the literal word itself, or the abbreviation it stands for */
    if (step++ == k) {
        char *res = xstrdup("");
        const char *ab = w ? abbreviation(w) : NULL;
        if (ab) {
            free(res);
            res = xasprintf("%s%s", ab, suffix);
        } else if (w && letters >= 2) {
            char *st = word_stem(w);
            if (strcmp(st, "id")) {
                free(res);
                res = xasprintf("%s%s", st, suffix);
            }
            free(st);
        }
        free(w);
        return res;
    }
    free(w);
    /* 6: the entity's name */
    if (step++ == k) {
        if (x->date)
            return xstrdup("date");
        char *lf = lower_first(c->g->name);
        char *sn = sanitize_name(lf);
        char *res = xasprintf("%s%s", sn, suffix);
        free(lf);
        free(sn);
        return res;
    }
    return NULL;
}

static void name_phs(gctx *c)
{
    for (size_t p = 0; p < c->nphs; p++)
        if (c->phs[p].name && !name_free(c, p, c->phs[p].name)) {
            free(c->phs[p].name);
            c->phs[p].name = NULL;
        }
    for (int sweep = 0; sweep < 2; sweep++)
        for (size_t p = 0; p < c->nphs; p++) {
            ph *x = &c->phs[p];
            if (x->name)
                continue;
            char *fallback = NULL;
            for (size_t k = 0; !x->name; k++) {
                char *n = name_candidate(c, p, k, sweep == 0);
                if (!n)
                    break;
                if (*n && name_free(c, p, n))
                    x->name = n;
                else if (*n && !fallback && valid_name(n))
                    fallback = n;
                else
                    free(n);
            }
            if (!x->name && sweep == 1) {
                const char *base = fallback ? fallback : "value";
                for (int i = 2; !x->name; i++) {
                    char *n = xasprintf("%s%d", base, i);
                    if (name_free(c, p, n))
                        x->name = n;
                    else
                        free(n);
                }
            }
            free(fallback);
        }
}

/* ---- building the design ------------------------------------------------------------------ */

static char *ktpl_source(const gctx *c, const ktpl *k)
{
    sbuf b;
    sbuf_init(&b);
    for (size_t i = 0; i < k->nparts; i++) {
        const tpart *p = &k->parts[i];
        if (!p->lit) {
            sbuf_printf(&b, "{%s}", c->phs[p->ph].name);
            continue;
        }
        for (const char *q = p->text; *q; q++) {
            if (*q == '{' || *q == '}')
                sbuf_addc(&b, *q);
            sbuf_addc(&b, *q);
        }
    }
    return sbuf_steal(&b);
}

typedef struct attrinfo {
    char *name;
    double distinct;
    bool date, notdate, used;
} attrinfo;

static attrinfo *attrinfo_get(attrinfo **v, size_t *n, const char *name)
{
    for (size_t i = 0; i < *n; i++)
        if (streq((*v)[i].name, name))
            return &(*v)[i];
    attrinfo *a = PUSH(*v, *n);
    a->name = xstrdup(name);
    return a;
}

static void attrinfo_note(attrinfo *a, char **vals, size_t nrows, double count)
{
    size_t present = 0, distinct = count_distinct(vals, nrows);
    for (size_t r = 0; r < nrows; r++) {
        if (!vals[r])
            continue;
        present++;
        if (date_like(vals[r]))
            a->date = true;
        else
            a->notdate = true;
    }
    if (!present)
        return;
    double est = ceil(count * (double)distinct / (double)present);
    if (est < 1)
        est = 1;
    if (!(a->distinct >= est))
        a->distinct = est;
    a->used = true;
}

static void push_str(kp_str **v, size_t *n, const char *s)
{
    for (size_t i = 0; i < *n; i++)
        if (streq((*v)[i].s, s))
            return;
    *PUSH(*v, *n) = str_make(s, NOLOC);
}

static void build_entity(imp *m, group *g, attrinfo **ai, size_t *nai)
{
    gctx c = {.m = m, .g = g};
    c.keys = xcalloc(m->nkeyattrs, sizeof *c.keys);
    c.nkeys = m->nkeyattrs;
    for (size_t i = 0; i < m->nkeyattrs; i++) {
        c.keys[i].attr = m->keyattrs[i];
        c.keys[i].table = i < m->ntablekeys;
        infer_key(&c, &c.keys[i], i < 2 && c.keys[i].table ? g->alias[i] : NULL);
        /* an index key that is a plain attribute (RoomID, escalated_to); GSI1PK-like names hold
         * templates */
        if (!c.keys[i].table && c.keys[i].present && !keyish_name(c.keys[i].attr))
            c.keys[i].domain = true;
    }
    name_phs(&c);

    kp_entity *e = PUSH(m->d->entities, m->d->nentities);
    entity_init(e);
    e->name = xstrdup(g->name);
    e->count = g->nrows ? round(NOSQLWB_NOMINAL_ITEMS * (double)g->nrows / (double)m->totalrows) : 1000;
    if (e->count < 1)
        e->count = 1;
    double size = 0;
    for (size_t r = 0; r < g->nrows; r++)
        size += item_size(g->rows[r]);
    e->size = g->nrows ? ceil(size / (double)g->nrows) : 1000;
    if (e->size < 1)
        e->size = 1;
    e->description = xasprintf("from %zu sample row%s", g->nrows, g->nrows == 1 ? "" : "s");
    if (g->nrows == 1)
        warn(m, "entity '%s': one sample row; its key templates guess which parts vary (digits, dates, "
                "the facet's alias): check them", g->name);

    for (size_t i = 0; i < c.nkeys; i++) {
        ktpl *k = &c.keys[i];
        if (k->table && !k->present) {
            /* no sample values at all: the facet's alias when it is a template, else a
             * placeholder named after the entity (partition) or the entity's name (sort) */
            const char *alias = i < 2 ? g->alias[i] : NULL;
            kp_keytpl *kt = PUSH(e->keys, e->nkeys);
            kt->attr = str_make(k->attr, NOLOC);
            const char *err;
            size_t off;
            if (!(alias && strchr(alias, '{') && tpl_parse(alias, &kt->tpl, &err, &off) &&
                  tpl_attr_count(&kt->tpl) > 0)) {
                if (kt->tpl.src)
                    tpl_free(&kt->tpl);
                char *lf = lower_first(g->name);
                char *nm = sanitize_name(lf);
                char *src = i == 0 ? xasprintf("{%sId}", nm) : sanitize_name(g->name);
                if (!tpl_parse(src, &kt->tpl, &err, &off))
                    tpl_parse("{id}", &kt->tpl, &err, &off);
                free(lf);
                free(nm);
                free(src);
            }
            warn(m, "entity '%s': no sample value of %s; the template '%s' is a guess", g->name, k->attr,
                 kt->tpl.src);
            continue;
        }
        if (!k->present)
            continue;
        if (k->domain) {
            push_str(&e->attrs, &e->nattrs, k->attr);
            char **vals = xcalloc(g->nrows ? g->nrows : 1, sizeof *vals);
            for (size_t r = 0; r < g->nrows; r++)
                vals[r] = row_key(g->rows[r], k->attr);
            attrinfo_note(attrinfo_get(ai, nai, k->attr), vals, g->nrows, e->count);
            for (size_t r = 0; r < g->nrows; r++)
                free(vals[r]);
            free(vals);
        } else {
            char *src = ktpl_source(&c, k);
            kp_keytpl *kt = PUSH(e->keys, e->nkeys);
            kt->attr = str_make(k->attr, NOLOC);
            const char *err;
            size_t off;
            if (!tpl_parse(src, &kt->tpl, &err, &off)) {
                /* cannot happen with escaped literals and valid names; keep the design sane */
                tpl_parse("{value}", &kt->tpl, &err, &off);
                warn(m, "entity '%s': template '%s' for %s is broken (%s)", g->name, src, k->attr, err);
            }
            free(src);
        }
        if (!k->table && k->present < g->nrows) {
            kp_sparse *s = PUSH(e->sparse, e->nsparse);
            s->attr = str_make(k->attr, NOLOC);
            s->kind = KP_SPARSE_SHARE;
            s->share = round(100.0 * (double)k->present / (double)g->nrows) / 100.0;
            if (s->share <= 0)
                s->share = 0.01;
            s->src = xasprintf("%g", s->share);
        }
    }
    for (size_t p = 0; p < c.nphs; p++) {
        bool dead = false;
        for (size_t i = 0; i < c.nkeys; i++)
            dead = dead || (c.keys[i].domain && c.keys[i].attr == c.phs[p].attr);
        if (!dead)
            attrinfo_note(attrinfo_get(ai, nai, c.phs[p].name), c.phs[p].vals, g->nrows, e->count);
    }

    /* domain attributes: the facet's declared list, else the rows' attributes */
    if (g->declared) {
        for (size_t i = 0; i < g->nnonkey; i++) {
            bool key = false;
            for (size_t k = 0; k < m->nkeyattrs; k++)
                key = key || streq(m->keyattrs[k], g->nonkey[i]);
            if (!key)
                push_str(&e->attrs, &e->nattrs, g->nonkey[i]);
        }
    } else {
        for (size_t r = 0; r < g->nrows; r++) {
            const char *k;
            json_t *v;
            json_object_foreach(g->rows[r], k, v) {
                bool key = false;
                for (size_t q = 0; q < m->nkeyattrs; q++)
                    key = key || streq(m->keyattrs[q], k);
                if (!key)
                    push_str(&e->attrs, &e->nattrs, k);
            }
        }
    }

    for (size_t i = 0; i < c.nkeys; i++) {
        for (size_t p = 0; p < c.keys[i].nparts; p++)
            free(c.keys[i].parts[p].text);
        free(c.keys[i].parts);
    }
    free(c.keys);
    for (size_t p = 0; p < c.nphs; p++) {
        for (size_t r = 0; r < g->nrows; r++)
            free(c.phs[p].vals[r]);
        free(c.phs[p].vals);
        free(c.phs[p].name);
        free(c.phs[p].alias);
        free(c.phs[p].before);
    }
    free(c.phs);
}

/* ---- the JSON shape ----------------------------------------------------------------------- */

static bool shape_err(imp *m, const char *path, const char *what)
{
    diags_add(m->diags, KP_TYPE, NOLOC, "%s: expected %s", path, what);
    return false;
}

static const char *get_string(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

/* KeyAttributes -> pk (required), sk (optional) */
static bool read_keys(imp *m, json_t *ka, const char *path, const char **pk, const char **sk)
{
    char *p = xasprintf("%s.KeyAttributes", path);
    bool ok = true;
    if (!json_is_object(ka))
        ok = shape_err(m, p, "an object with PartitionKey and SortKey");
    else {
        *pk = get_string(json_object_get(ka, "PartitionKey"), "AttributeName");
        json_t *s = json_object_get(ka, "SortKey");
        *sk = s ? get_string(s, "AttributeName") : NULL;
        if (!*pk || !**pk)
            ok = shape_err(m, p, "PartitionKey.AttributeName: the partition key's attribute name");
        else if (s && !json_is_null(s) && (!*sk || !**sk) && json_object_size(s))
            ok = shape_err(m, p, "SortKey.AttributeName: the sort key's attribute name");
    }
    free(p);
    return ok;
}

static void add_keyattr(imp *m, const char *a)
{
    if (!a)
        return;
    for (size_t i = 0; i < m->nkeyattrs; i++)
        if (streq(m->keyattrs[i], a))
            return;
    *PUSH(m->keyattrs, m->nkeyattrs) = xstrdup(a);
}

static bool read_indexes(imp *m, json_t *t, const char *tpath, const char *field, kp_index_kind kind)
{
    json_t *arr = json_object_get(t, field);
    if (!arr || json_is_null(arr))
        return true;
    char *path = xasprintf("%s.%s", tpath, field);
    bool ok = true;
    if (!json_is_array(arr)) {
        ok = shape_err(m, path, "a list of indexes");
        free(path);
        return ok;
    }
    size_t i;
    json_t *g;
    json_array_foreach(arr, i, g) {
        char *ip = xasprintf("%s[%zu]", path, i);
        const char *name = get_string(g, "IndexName");
        const char *pk = NULL, *sk = NULL;
        if (!json_is_object(g) || !name || !*name) {
            ok = shape_err(m, ip, "an index with IndexName and KeyAttributes");
            free(ip);
            continue;
        }
        if (!read_keys(m, json_object_get(g, "KeyAttributes"), ip, &pk, &sk)) {
            ok = false;
            free(ip);
            continue;
        }
        kp_index *x = PUSH(m->d->indexes, m->d->nindexes);
        index_init(x);
        x->name = xstrdup(name);
        x->kind = kind;
        x->pk = str_make(pk, NOLOC);
        x->sk = sk && *sk ? str_make(sk, NOLOC) : (kp_str){0};
        json_t *pr = json_object_get(g, "Projection");
        const char *pt = pr ? get_string(pr, "ProjectionType") : NULL;
        if (!pt || !strcmp(pt, "ALL"))
            x->projection = KP_PROJ_ALL;
        else if (!strcmp(pt, "KEYS_ONLY"))
            x->projection = KP_PROJ_KEYS;
        else if (!strcmp(pt, "INCLUDE")) {
            x->projection = KP_PROJ_INCLUDE;
            json_t *nk = json_object_get(pr, "NonKeyAttributes");
            size_t q;
            json_t *a;
            json_array_foreach(nk, q, a) if (json_is_string(a)) push_str(&x->include, &x->ninclude, json_string_value(a));
        } else {
            char *pp = xasprintf("%s.Projection.ProjectionType", ip);
            ok = shape_err(m, pp, "ALL, KEYS_ONLY or INCLUDE");
            free(pp);
        }
        add_keyattr(m, pk);
        add_keyattr(m, sk && *sk ? sk : NULL);
        free(ip);
    }
    free(path);
    return ok;
}

static bool read_rows(imp *m, json_t *arr, const char *path, json_t ***rows, size_t *n)
{
    if (!arr || json_is_null(arr))
        return true;
    if (!json_is_array(arr))
        return shape_err(m, path, "a list of items");
    size_t i;
    json_t *row;
    bool ok = true;
    json_array_foreach(arr, i, row) {
        if (!json_is_object(row)) {
            char *p = xasprintf("%s[%zu]", path, i);
            ok = shape_err(m, p, "an item (an object of attribute values)");
            free(p);
            continue;
        }
        char *pk = row_key(row, m->keyattrs[0]);
        if (!pk) {
            warn(m, "%s[%zu]: no value for the partition key %s; the row is ignored", path, i, m->keyattrs[0]);
            continue;
        }
        free(pk);
        *PUSH(*rows, *n) = row;
    }
    return ok;
}

kp_design *nosqlwb_import(const char *text, size_t len, const char *name, kp_diags *diags)
{
    return nosqlwb_import_table(text, len, name, NULL, diags);
}

kp_design *nosqlwb_import_table(const char *text, size_t len, const char *name, const char *table,
                                kp_diags *diags)
{
    json_error_t je;
    json_t *root = json_loadb(text, len, 0, &je);
    if (!root) {
        diags_add(diags, KP_SYNTAX, (kp_loc){je.line, je.column},
                  "invalid JSON: %s; expected a NoSQL Workbench model", je.text);
        return NULL;
    }
    imp m = {.diags = diags, .d = design_new()};
    bool ok = true;
    json_t *dm = json_is_object(root) ? json_object_get(root, "DataModel") : NULL;
    size_t ti = 0;
    if (table && json_is_array(dm)) {
        for (ti = 0; ti < json_array_size(dm); ti++)
            if (streq(get_string(json_array_get(dm, ti), "TableName"), table))
                break;
    } else if (table && !streq(get_string(dm, "TableName"), table))
        ti = 1;
    if (table && ti >= (json_is_array(dm) ? json_array_size(dm) : 1)) {
        sbuf b;
        sbuf_init(&b);
        sbuf_add(&b, "");
        size_t n = json_is_array(dm) ? json_array_size(dm) : json_is_object(dm) ? 1 : 0;
        for (size_t i = 0; i < n; i++) {
            const char *tn = get_string(json_is_array(dm) ? json_array_get(dm, i) : dm, "TableName");
            sbuf_printf(&b, "%s'%s'", i ? ", " : "", tn ? tn : "?");
        }
        diags_add(diags, KP_NOTFOUND, NOLOC, "DataModel: no table '%s'; expected one of %s", table,
                  n ? b.s : "(none: the model has no tables)");
        sbuf_free(&b);
        ok = false;
        goto out;
    }
    json_t *t = json_is_array(dm) ? json_array_get(dm, ti) : dm;
    if (!json_is_object(t)) {
        ok = shape_err(&m, json_is_object(root) ? "DataModel" : "the top level",
                       json_is_object(root) ? "a list with at least one table"
                                            : "an object with ModelName and DataModel (a NoSQL Workbench model)");
        goto out;
    }
    if (!table && json_is_array(dm) && json_array_size(dm) > 1) {
        sbuf b;
        sbuf_init(&b);
        for (size_t i = 1; i < json_array_size(dm); i++) {
            const char *tn = get_string(json_array_get(dm, i), "TableName");
            sbuf_printf(&b, "%s'%s'", i > 1 ? ", " : "", tn ? tn : "?");
        }
        warn(&m, "the model has %zu tables; imported the first ('%s'), not %s (choose one with "
                 "--table NAME)", json_array_size(dm),
             get_string(t, "TableName") ? get_string(t, "TableName") : "?", b.s);
        sbuf_free(&b);
    }
    char tpath[48];
    if (json_is_array(dm))
        snprintf(tpath, sizeof tpath, "DataModel[%zu]", ti);
    else
        snprintf(tpath, sizeof tpath, "DataModel");
    const char *tname = get_string(t, "TableName");
    const char *pk = NULL, *sk = NULL;
    if (!tname || !*tname) {
        char *p = xasprintf("%s.TableName", tpath);
        ok = shape_err(&m, p, "the table's name");
        free(p);
        goto out;
    }
    if (!read_keys(&m, json_object_get(t, "KeyAttributes"), tpath, &pk, &sk)) {
        ok = false;
        goto out;
    }
    const char *model = get_string(root, "ModelName");
    m.d->name = xstrdup(model && *model ? model : tname);
    m.d->table.name = xstrdup(tname);
    m.d->table.pk = str_make(pk, NOLOC);
    if (sk && *sk)
        m.d->table.sk = str_make(sk, NOLOC);
    add_keyattr(&m, pk);
    add_keyattr(&m, sk && *sk ? sk : NULL);
    m.ntablekeys = m.nkeyattrs;
    const char *bm = get_string(t, "BillingMode");
    if (bm && !strcmp(bm, "PROVISIONED")) {
        m.d->table.billing = KP_BILLING_PROVISIONED;
        json_t *tv = json_object_get(json_object_get(json_object_get(json_object_get(
                                         t, "ProvisionedCapacitySettings"), "AutoScalingRead"),
                                                     "ScalingPolicyConfiguration"),
                                     "TargetValue");
        if (json_is_number(tv) && json_number_value(tv) > 0 && json_number_value(tv) <= 100 &&
            json_number_value(tv) != 70)
            m.d->table.target_utilization = json_number_value(tv) / 100.0;
    }
    ok = read_indexes(&m, t, tpath, "GlobalSecondaryIndexes", KP_GSI) && ok;
    ok = read_indexes(&m, t, tpath, "LocalSecondaryIndexes", KP_LSI) && ok;
    if (!ok)
        goto out;

    json_t *facets = json_object_get(t, "TableFacets");
    if (facets && !json_is_array(facets)) {
        char *p = xasprintf("%s.TableFacets", tpath);
        ok = shape_err(&m, p, "a list of facets");
        free(p);
        goto out;
    }
    if (json_array_size(facets)) {
        size_t i;
        json_t *f;
        json_array_foreach(facets, i, f) {
            char *fp = xasprintf("%s.TableFacets[%zu]", tpath, i);
            const char *fname = get_string(f, "FacetName");
            if (!json_is_object(f) || !fname || !*fname) {
                ok = shape_err(&m, fp, "a facet with FacetName");
                free(fp);
                continue;
            }
            group *g = PUSH(m.groups, m.ngroups);
            g->name = xstrdup(fname);
            for (size_t q = 0; q + 1 < m.ngroups; q++)
                if (streq(m.groups[q].name, fname)) {
                    free(g->name);
                    g->name = xasprintf("%s%zu", fname, m.ngroups);
                    warn(&m, "%s: facet name '%s' repeats; imported as '%s'", fp, fname, g->name);
                    break;
                }
            json_t *al = json_object_get(f, "KeyAttributeAlias");
            g->alias[0] = get_string(al, "PartitionKeyAlias");
            g->alias[1] = get_string(al, "SortKeyAlias");
            json_t *nk = json_object_get(f, "NonKeyAttributes");
            if (json_is_array(nk)) {
                g->declared = true;
                size_t q;
                json_t *a;
                json_array_foreach(nk, q, a) {
                    const char *s = json_is_string(a) ? json_string_value(a) : get_string(a, "AttributeName");
                    if (s)
                        *PUSH(g->nonkey, g->nnonkey) = xstrdup(s);
                }
            }
            char *rp = xasprintf("%s.TableData", fp);
            ok = read_rows(&m, json_object_get(f, "TableData"), rp, &g->rows, &g->nrows) && ok;
            m.totalrows += g->nrows;
            free(rp);
            free(fp);
        }
    } else {
        json_t **rows = NULL;
        size_t nrows = 0;
        char *rp = xasprintf("%s.TableData", tpath);
        ok = read_rows(&m, json_object_get(t, "TableData"), rp, &rows, &nrows) && ok;
        free(rp);
        json_t *arr = json_array();
        for (size_t i = 0; i < nrows; i++)
            json_array_append(arr, rows[i]);
        free(rows);
        m.totalrows = nrows;
        if (nrows && !group_by_type(&m, arr))
            group_by_shape(&m, arr);
        json_decref(arr); /* rows stay alive: root holds them */
        if (!nrows)
            warn(&m, "the model has no facets and no sample data: no entities imported; add them "
                     "with their key templates");
    }
    if (!ok)
        goto out;

    attrinfo *ai = NULL;
    size_t nai = 0;
    for (size_t i = 0; i < m.ngroups; i++)
        build_entity(&m, &m.groups[i], &ai, &nai);
    for (size_t i = 0; i < nai; i++) {
        if (ai[i].used) {
            kp_attr *a = PUSH(m.d->attrs, m.d->nattrs);
            attr_init(a);
            a->name = xstrdup(ai[i].name);
            a->distinct = ai[i].distinct > 0 ? ai[i].distinct : NAN;
            if (ai[i].date && !ai[i].notdate)
                a->type = KP_ATTR_DATE;
        }
        free(ai[i].name);
    }
    free(ai);
    /* attributes an index projects that no sample row shows: declared, so the index stays */
    for (size_t x = 0; x < m.d->nindexes; x++)
        for (size_t k = 0; k < m.d->indexes[x].ninclude; k++) {
            const char *n = m.d->indexes[x].include[k].s;
            bool known = design_attr(m.d, n) || streq(n, m.d->table.pk.s) || streq(n, m.d->table.sk.s);
            for (size_t e = 0; e < m.d->nentities && !known; e++)
                known = entity_knows(&m.d->entities[e], n) || entity_key(&m.d->entities[e], n);
            for (size_t q = 0; q < m.d->nindexes && !known; q++)
                known = streq(m.d->indexes[q].pk.s, n) || streq(m.d->indexes[q].sk.s, n);
            if (known)
                continue;
            kp_attr *a = PUSH(m.d->attrs, m.d->nattrs);
            attr_init(a);
            a->name = xstrdup(n);
            warn(&m, "index '%s' projects '%s', which no sample row carries; declared as an attribute",
                 m.d->indexes[x].name, n);
        }
    m.d->description = xasprintf(
        "Imported from the NoSQL Workbench model '%s' (%s). Key templates are inferred from the "
        "sample data; counts assume %.0f items split as the sample rows are, sizes are the "
        "sample rows' average, distinct values scale the samples': all of it is a starting "
        "point. Add the access patterns, and say whether streams and PITR are on.",
        m.d->name, name ? name : "model", NOSQLWB_NOMINAL_ITEMS);

out:
    for (size_t i = 0; i < m.ngroups; i++)
        group_free(&m.groups[i]);
    free(m.groups);
    for (size_t i = 0; i < m.nkeyattrs; i++)
        free(m.keyattrs[i]);
    free(m.keyattrs);
    json_decref(root);
    if (!ok) {
        design_free(m.d);
        return NULL;
    }
    return m.d;
}

/* ==== export ================================================================================= */


static json_t *key_attr_json(const kp_design *d, const char *name)
{
    return json_pack("{s:s, s:s}", "AttributeName", name, "AttributeType", cfn_key_type(d, name));
}

static json_t *key_attrs_json(const kp_design *d, const char *pk, const char *sk)
{
    json_t *o = json_object();
    json_object_set_new(o, "PartitionKey", key_attr_json(d, pk));
    if (sk)
        json_object_set_new(o, "SortKey", key_attr_json(d, sk));
    return o;
}

/* Sample rows when items_generate gives none: every placeholder rendered as <name>-<n>. */
static json_t *fallback_rows(const kp_design *d, const kp_entity *e, size_t n)
{
    json_t *arr = json_array();
    for (size_t i = 0; i < n; i++) {
        json_t *row = json_object();
        for (size_t k = 0; k < e->nkeys; k++) {
            sbuf b;
            sbuf_init(&b);
            const tpl *t = &e->keys[k].tpl;
            for (size_t p = 0; p < t->n; p++) {
                if (t->parts[p].kind == TPL_LIT)
                    sbuf_add(&b, t->parts[p].text);
                else
                    sbuf_printf(&b, "%s-%zu", t->parts[p].text, i + 1);
            }
            json_object_set_new(row, e->keys[k].attr.s, json_pack("{s:s}", "S", b.s ? b.s : ""));
            sbuf_free(&b);
        }
        for (size_t a = 0; a < e->nattrs; a++) {
            if (json_object_get(row, e->attrs[a].s))
                continue;
            const kp_attr *da = design_attr(d, e->attrs[a].s);
            char *v = da && da->type == KP_ATTR_NUMBER ? xasprintf("%zu", i + 1)
                                                       : xasprintf("%s-%zu", e->attrs[a].s, i + 1);
            json_object_set_new(row, e->attrs[a].s,
                                json_pack("{s:s}", da && da->type == KP_ATTR_NUMBER ? "N" : "S", v));
            free(v);
        }
        json_array_append_new(arr, row);
    }
    return arr;
}

static void add_name(json_t *arr, const char *name)
{
    size_t i;
    json_t *v;
    json_array_foreach(arr, i, v) if (streq(json_string_value(v), name)) return;
    json_array_append_new(arr, json_string(name));
}

static bool is_key_of(const kp_design *d, const char *a)
{
    return streq(d->table.pk.s, a) || streq(d->table.sk.s, a);
}

char *nosqlwb_export(const kp_design *d, const kp_analysis *a, char **err)
{
    if (!d->table.pk.s || !*d->table.pk.s) {
        *err = xstrdup("the design has no table partition key; a NoSQL Workbench model needs one");
        return NULL;
    }
    const char *tname = d->table.name && *d->table.name ? d->table.name : (d->name ? d->name : "Table");
    char when[64];
    /* SOURCE_DATE_EPOCH, when set, makes the output reproducible */
    const char *sde = getenv("SOURCE_DATE_EPOCH");
    char *end = NULL;
    long long epoch = sde ? strtoll(sde, &end, 10) : 0;
    time_t now = sde && end && *end == '\0' && epoch >= 0 ? (time_t)epoch : time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(when, sizeof when, "%b %d, %Y, %I:%M %p", &tm);

    json_t *root = json_object();
    json_object_set_new(root, "ModelName", json_string(d->name ? d->name : tname));
    json_object_set_new(root, "ModelMetadata",
                        json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "Author", "keyplan", "DateCreated",
                                  when, "DateLastModified", when, "Description",
                                  d->description ? d->description : "", "AWSService",
                                  "Amazon DynamoDB", "Version", "3.0"));
    json_t *t = json_object();
    json_object_set_new(t, "TableName", json_string(tname));
    json_object_set_new(t, "KeyAttributes", key_attrs_json(d, d->table.pk.s, d->table.sk.s));

    /* every non-key attribute any entity carries: index keys first, then domain attributes */
    json_t *names = json_array();
    for (size_t i = 0; i < d->nindexes; i++) {
        if (!is_key_of(d, d->indexes[i].pk.s))
            add_name(names, d->indexes[i].pk.s);
        if (d->indexes[i].sk.s && !is_key_of(d, d->indexes[i].sk.s))
            add_name(names, d->indexes[i].sk.s);
    }
    for (size_t e = 0; e < d->nentities; e++) {
        for (size_t k = 0; k < d->entities[e].nkeys; k++)
            if (!is_key_of(d, d->entities[e].keys[k].attr.s))
                add_name(names, d->entities[e].keys[k].attr.s);
        for (size_t k = 0; k < d->entities[e].nattrs; k++)
            if (!is_key_of(d, d->entities[e].attrs[k].s))
                add_name(names, d->entities[e].attrs[k].s);
    }
    json_t *nka = json_array();
    size_t i;
    json_t *nv;
    json_array_foreach(names, i, nv) {
        const char *n = json_string_value(nv);
        const kp_attr *da = design_attr(d, n);
        bool is_index_key = false;
        for (size_t x = 0; x < d->nindexes; x++)
            is_index_key = is_index_key || streq(d->indexes[x].pk.s, n) || streq(d->indexes[x].sk.s, n);
        const char *type = is_index_key ? cfn_key_type(d, n) : da && da->type == KP_ATTR_NUMBER ? "N"
                                                             : da && da->type == KP_ATTR_BOOL   ? "BOOL"
                                                                                                : "S";
        json_array_append_new(nka, json_pack("{s:s, s:s}", "AttributeName", n, "AttributeType", type));
    }
    json_object_set_new(t, "NonKeyAttributes", nka);

    json_t *facets = json_array();
    for (size_t e = 0; e < d->nentities; e++) {
        const kp_entity *en = &d->entities[e];
        json_t *f = json_object();
        json_object_set_new(f, "FacetName", json_string(en->name));
        const kp_keytpl *pk = entity_key(en, d->table.pk.s);
        const kp_keytpl *sk = d->table.sk.s ? entity_key(en, d->table.sk.s) : NULL;
        json_t *alias = json_object();
        json_object_set_new(alias, "PartitionKeyAlias", json_string(pk ? pk->tpl.src : d->table.pk.s));
        if (d->table.sk.s)
            json_object_set_new(alias, "SortKeyAlias", json_string(sk ? sk->tpl.src : d->table.sk.s));
        json_object_set_new(f, "KeyAttributeAlias", alias);
        json_t *rows = items_generate(d, en, 3, (unsigned)(e + 1));
        if (!json_is_array(rows)) {
            json_decref(rows);
            rows = fallback_rows(d, en, 3);
        }
        json_object_set_new(f, "TableData", rows);
        json_t *fn = json_array();
        for (size_t k = 0; k < en->nkeys; k++)
            if (!is_key_of(d, en->keys[k].attr.s))
                add_name(fn, en->keys[k].attr.s);
        for (size_t k = 0; k < en->nattrs; k++)
            if (!is_key_of(d, en->attrs[k].s))
                add_name(fn, en->attrs[k].s);
        json_object_set_new(f, "NonKeyAttributes", fn);
        json_object_set_new(f, "DataAccess", json_pack("{s:{}}", "MySql"));
        json_array_append_new(facets, f);
    }
    json_object_set_new(t, "TableFacets", facets);

    bool prov = d->table.billing == KP_BILLING_PROVISIONED;
    for (int pass = 0; pass < 2; pass++) {
        kp_index_kind kind = pass == 0 ? KP_GSI : KP_LSI;
        json_t *arr = json_array();
        for (size_t x = 0; x < d->nindexes; x++) {
            const kp_index *ix = &d->indexes[x];
            if (ix->kind != kind)
                continue;
            json_t *g = json_object();
            json_object_set_new(g, "IndexName", json_string(ix->name));
            json_object_set_new(g, "KeyAttributes", key_attrs_json(d, ix->pk.s, ix->sk.s));
            json_t *pr = json_object();
            json_object_set_new(pr, "ProjectionType",
                                json_string(ix->projection == KP_PROJ_KEYS      ? "KEYS_ONLY"
                                            : ix->projection == KP_PROJ_INCLUDE ? "INCLUDE"
                                                                                : "ALL"));
            if (ix->projection == KP_PROJ_INCLUDE) {
                json_t *inc = json_array();
                for (size_t q = 0; q < ix->ninclude; q++)
                    json_array_append_new(inc, json_string(ix->include[q].s));
                json_object_set_new(pr, "NonKeyAttributes", inc);
            }
            json_object_set_new(g, "Projection", pr);
            if (prov && kind == KP_GSI) {
                long r, w;
                cfn_capacity(d, a, (ptrdiff_t)x, &r, &w);
                json_object_set_new(g, "ProvisionedThroughput",
                                    json_pack("{s:I, s:I}", "ReadCapacityUnits", (json_int_t)r,
                                              "WriteCapacityUnits", (json_int_t)w));
            }
            json_array_append_new(arr, g);
        }
        if (json_array_size(arr))
            json_object_set_new(t, kind == KP_GSI ? "GlobalSecondaryIndexes" : "LocalSecondaryIndexes", arr);
        else
            json_decref(arr);
    }
    json_object_set_new(t, "TableData", json_array());
    json_object_set_new(t, "DataAccess", json_pack("{s:{}}", "MySql"));
    json_object_set_new(t, "BillingMode", json_string(prov ? "PROVISIONED" : "PAY_PER_REQUEST"));
    if (prov) {
        long r, w;
        cfn_capacity(d, a, -1, &r, &w);
        double target = d->table.target_utilization > 0 ? d->table.target_utilization : 0.7;
        json_t *scale = json_pack("{s:{s:I, s:I, s:s}, s:{s:f}}", "ScalableTargetRequest", "MinCapacity",
                                  (json_int_t)1, "MaxCapacity", (json_int_t)(r > 10 ? r * 2 : 10),
                                  "ServiceRole", "AWSServiceRoleForApplicationAutoScaling_DynamoDBTable",
                                  "ScalingPolicyConfiguration", "TargetValue", round(target * 100));
        json_t *scalew = json_pack("{s:{s:I, s:I, s:s}, s:{s:f}}", "ScalableTargetRequest", "MinCapacity",
                                   (json_int_t)1, "MaxCapacity", (json_int_t)(w > 10 ? w * 2 : 10),
                                   "ServiceRole", "AWSServiceRoleForApplicationAutoScaling_DynamoDBTable",
                                   "ScalingPolicyConfiguration", "TargetValue", round(target * 100));
        json_object_set_new(t, "ProvisionedCapacitySettings",
                            json_pack("{s:{s:I, s:I}, s:o, s:o}", "ProvisionedThroughput",
                                      "ReadCapacityUnits", (json_int_t)r, "WriteCapacityUnits",
                                      (json_int_t)w, "AutoScalingRead", scale, "AutoScalingWrite", scalew));
    }
    json_object_set_new(root, "DataModel", json_pack("[o]", t));
    json_decref(names);
    char *out = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(root);
    if (!out) {
        *err = xstrdup("cannot encode the model as JSON");
        return NULL;
    }
    char *res = xasprintf("%s\n", out);
    free(out);
    return res;
}
