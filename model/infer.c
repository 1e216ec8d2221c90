/* infer.c - entities, key templates and attribute estimates inferred from sample items (see
 * infer.h). */
#include "infer.h"

#include "i18n.h"
#include "template.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const kp_loc NOLOC = {0, 0};

/* ==== small helpers ========================================================================= */

#define PUSH(arr, n) \
    (arr = xrealloc(arr, ((n) + 1) * sizeof *(arr)), memset(&(arr)[n], 0, sizeof *(arr)), &(arr)[(n)++])

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

static bool value_like(const char *s) { return has_digit(s) || s[0] == '<' || strchr(s, '@') != NULL; }

/* A placeholder name: [A-Za-z0-9_.-] and non-ASCII bytes; others become '_'. */
static char *sanitize_name(const char *s)
{
    sbuf b;
    sbuf_init(&b);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (tpl_name_byte(*p))
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

/* ==== items and groups ===================================================================== */

/* A placeholder found in one entity's key values. */
typedef struct ph {
    char **vals; /* per row of the group, NULL where the key is absent */
    char *name;
    char *alias;      /* name the facet's alias gives this position */
    char *before;     /* literal token before it */
    const char *attr; /* key attribute it is part of */
    bool date;
} ph;

typedef struct tpart {
    bool lit;
    char *text; /* literal */
    size_t ph;  /* placeholder index */
} tpart;

typedef struct ktpl {
    const char *attr;
    bool table;
    tpart *parts;
    size_t nparts;
    size_t present;
    bool domain; /* an index key that is the whole value of a plain attribute */
} ktpl;

void infer_row_set(infer_row *r, const char *name, const char *text)
{
    VEC_GROW(r->v, r->n, r->cap);
    r->v[r->n++] = (infer_attr){xstrdup(name), xstrdup(text)};
}

const char *infer_row_get(const infer_row *r, const char *name)
{
    for (size_t i = 0; i < r->n; i++)
        if (streq(r->v[i].name, name))
            return r->v[i].text;
    return NULL;
}

void infer_row_free(infer_row *r)
{
    for (size_t i = 0; i < r->n; i++) {
        free(r->v[i].name);
        free(r->v[i].text);
    }
    free(r->v);
    memset(r, 0, sizeof *r);
}

infer_row *infer_add_row(infer_group *g)
{
    VEC_GROW(g->rows, g->nrows, g->caprows);
    infer_row *r = &g->rows[g->nrows++];
    memset(r, 0, sizeof *r);
    return r;
}

/* Appends a copy of the struct *r (taking what it holds) to g's rows. */
static void group_take_row(infer_group *g, infer_row *r)
{
    *infer_add_row(g) = *r;
    memset(r, 0, sizeof *r);
}

infer_group *infer_add_group(infer *m, const char *name)
{
    infer_group *g = PUSH(m->groups, m->ngroups);
    g->name = xstrdup(name);
    return g;
}

static void group_free(infer_group *g)
{
    free(g->name);
    for (size_t i = 0; i < g->nrows; i++)
        infer_row_free(&g->rows[i]);
    free(g->rows);
    for (size_t i = 0; i < g->nnonkey; i++)
        free(g->nonkey[i]);
    free(g->nonkey);
    free(g->alias[0]);
    free(g->alias[1]);
    free(g->sig);
}

static void add_keyattr(infer *m, const char *a)
{
    if (!a || !*a)
        return;
    for (size_t i = 0; i < m->nkeyattrs; i++)
        if (streq(m->keyattrs[i], a))
            return;
    *PUSH(m->keyattrs, m->nkeyattrs) = xstrdup(a);
}

void infer_init(infer *m, kp_design *d, kp_diags *diags)
{
    memset(m, 0, sizeof *m);
    m->d = d;
    m->diags = diags;
    add_keyattr(m, d->table.pk.s);
    add_keyattr(m, d->table.sk.s);
    m->ntablekeys = m->nkeyattrs;
    for (size_t i = 0; i < d->nindexes; i++) {
        add_keyattr(m, d->indexes[i].pk.s);
        add_keyattr(m, d->indexes[i].sk.s);
    }
}

void infer_free(infer *m)
{
    for (size_t i = 0; i < m->ngroups; i++)
        group_free(&m->groups[i]);
    free(m->groups);
    for (size_t i = 0; i < m->nkeyattrs; i++)
        free(m->keyattrs[i]);
    free(m->keyattrs);
    memset(m, 0, sizeof *m);
}

/* A warning about a guess, with no place in the source. */
#define warn(m, ...) diags_warn((m)->diags, KP_INVALID, NOLOC, __VA_ARGS__)

static char *row_key(const infer_row *row, const char *attr) { return xstrdup(infer_row_get(row, attr)); }

static const char *const TYPE_ATTRS[] = {"EntityType", "entityType", "entity_type", "Entity",     "entity",
                                         "Type",       "type",       "_type",       "__typename", "_et"};

/* Rows grouped by an entity-type attribute every row has; false when there is none. */
static bool group_by_type(infer *m, infer_row *rows, size_t n)
{
    for (size_t t = 0; t < sizeof TYPE_ATTRS / sizeof *TYPE_ATTRS; t++) {
        bool all = true;
        for (size_t i = 0; i < n && all; i++) {
            const char *v = infer_row_get(&rows[i], TYPE_ATTRS[t]);
            all = v && *v;
        }
        if (!all)
            continue;
        for (size_t i = 0; i < n; i++) {
            const char *v = infer_row_get(&rows[i], TYPE_ATTRS[t]);
            infer_group *g = NULL;
            for (size_t k = 0; k < m->ngroups; k++)
                if (streq(m->groups[k].name, v))
                    g = &m->groups[k];
            if (!g)
                g = infer_add_group(m, v);
            group_take_row(g, &rows[i]);
        }
        return true;
    }
    return false;
}

/* true when `tok` is the value of one of the row's non-key attributes (State = NORMAL in
 * "NORMAL#2020-04-24"): then it is data, not a type marker. */
static bool row_has_value(const infer *m, const infer_row *row, const char *tok)
{
    for (size_t a = 0; a < row->n; a++) {
        bool key = false;
        for (size_t i = 0; i < m->nkeyattrs && !key; i++)
            key = streq(m->keyattrs[i], row->v[a].name);
        if (!key && streq(row->v[a].text, tok))
            return true;
    }
    return false;
}

/* Wildcarded shape of a row's table keys: seps kept, dates "\1D", values "\1V", words kept;
 * `wild` also wildcards words (except the partition key's first) as "\1A". */
static char *row_shape(const infer *m, const infer_row *row, bool wild, const bool *var, size_t nvar)
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
static char *shape_word(const infer *m, const infer_row *row, const bool *var, size_t nvar, size_t which)
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
static void group_by_shape(infer *m, infer_row *rows, size_t n)
{
    char **wild = xcalloc(n ? n : 1, sizeof *wild);
    for (size_t i = 0; i < n; i++)
        wild[i] = row_shape(m, &rows[i], true, NULL, 0);
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
            const infer_row *row = &rows[cls[c]];
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
            infer_row *row = &rows[cls[c]];
            char *sig = row_shape(m, row, false, var, npos);
            infer_group *g = NULL;
            for (size_t k = 0; k < m->ngroups; k++)
                if (streq(m->groups[k].sig, sig))
                    g = &m->groups[k];
            if (!g) {
                char *w = shape_word(m, row, var, npos, 0);
                char *name = w ? camel(w) : xstrdup(m->d->table.name);
                g = infer_add_group(m, name);
                g->sig = sig;
                free(name);
                free(w);
                /* the same name for another shape: add the next word */
                for (size_t k = 0; k + 1 < m->ngroups; k++)
                    if (streq(m->groups[k].name, g->name)) {
                        char *w2 = shape_word(m, row, var, npos, 1);
                        char *c2 = w2 ? camel(w2) : NULL;
                        char *nn =
                            c2 ? xasprintf("%s%s", g->name, c2) : xasprintf("%s%zu", g->name, m->ngroups);
                        free(w2);
                        free(c2);
                        free(g->name);
                        g->name = nn;
                        break;
                    }
            } else
                free(sig);
            group_take_row(g, row);
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

void infer_group_rows(infer *m, infer_row *rows, size_t n)
{
    if (n && !group_by_type(m, rows, n))
        group_by_shape(m, rows, n);
    for (size_t i = 0; i < n; i++)
        infer_row_free(&rows[i]);
    free(rows);
}

/* ==== template inference ==================================================================== =========================================================== */

typedef struct gctx {
    infer *m;
    infer_group *g;
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
    if (tpl_parse(alias, &t, NULL, NULL) != KP_OK)
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
    infer_group *g = c->g;
    char **vals = xcalloc(g->nrows ? g->nrows : 1, sizeof *vals);
    for (size_t r = 0; r < g->nrows; r++)
        if ((vals[r] = row_key(&g->rows[r], k->attr)))
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
        warn(c->m,
             _("entity '%s': the sample values of %s disagree in shape (%s%s); guessed the "
               "template from their common prefix '%.*s': check it"),
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

static bool is_table_key(const infer *m, const char *name)
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
    if (!tpl_name_valid(name) || templated_key(c, name))
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
        for (size_t a = 0; a < c->g->rows[r].n; a++) {
            const char *k = c->g->rows[r].v[a].name;
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
        if (is_table_key(c->m, k) || keyish_name(k) || !tpl_name_valid(k))
            continue;
        size_t hits = 0;
        bool bad = false;
        for (size_t r = 0; r < c->g->nrows && !bad; r++) {
            if (!vals[r])
                continue;
            const char *t = infer_row_get(&c->g->rows[r], k);
            if (t && streq(t, vals[r]))
                hits++;
            else if (t)
                bad = true;
        }
        if (!bad && hits && hits * 2 >= present)
            res = xstrdup(k);
    }
    free(names);
    return res;
}

/* The entity a short prefix abbreviates: c -> customer (prefix), pmn -> payment (letters in
 * order, only when `loose`). The `skip`-th candidate, shortest names first. */
static const char *entity_for_prefix(const infer *m, const char *w, bool loose, size_t skip)
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
        {"u", "user"},           {"usr", "user"},         {"c", "customer"},  {"cust", "customer"},
        {"o", "order"},          {"ord", "order"},        {"p", "product"},   {"prod", "product"},
        {"d", "device"},         {"dev", "device"},       {"a", "account"},   {"acc", "account"},
        {"acct", "account"},     {"s", "session"},        {"t", "tenant"},    {"g", "group"},
        {"m", "message"},        {"msg", "message"},      {"inv", "invoice"}, {"emp", "employee"},
        {"org", "organization"}, {"sub", "subscription"}, {"rec", "receipt"}, {"cli", "cliente"},
        {"ped", "pedido"},       {"prd", "producto"},
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
        if (same_attr == 1 && is_table_key(c->m, x->attr) && !keyish_name(x->attr) && tpl_name_valid(x->attr))
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
                else if (*n && !fallback && tpl_name_valid(n))
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

static void build_entity(infer *m, infer_group *g, size_t totalrows, attrinfo **ai, size_t *nai)
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
    e->count = g->nrows ? round(INFER_NOMINAL_ITEMS * (double)g->nrows / (double)totalrows) : 1000;
    if (e->count < 1)
        e->count = 1;
    double size = 0;
    for (size_t r = 0; r < g->nrows; r++)
        size += g->rows[r].size;
    e->size = g->nrows ? ceil(size / (double)g->nrows) : 1000;
    if (e->size < 1)
        e->size = 1;
    e->description = xasprintf(ngettext("from %zu sample row", "from %zu sample rows", g->nrows), g->nrows);
    if (g->nrows == 1)
        warn(m,
             _("entity '%s': one sample row; its key templates guess which parts vary (digits, dates, "
               "the facet's alias): check them"),
             g->name);

    for (size_t i = 0; i < c.nkeys; i++) {
        ktpl *k = &c.keys[i];
        if (k->table && !k->present) {
            /* no sample values at all: the facet's alias when it is a template, else a
             * placeholder named after the entity (partition) or the entity's name (sort) */
            const char *alias = i < 2 ? g->alias[i] : NULL;
            kp_keytpl *kt = PUSH(e->keys, e->nkeys);
            kt->attr = str_make(k->attr, NOLOC);
            if (!(alias && strchr(alias, '{') && tpl_parse(alias, &kt->tpl, NULL, NULL) == KP_OK &&
                  tpl_attr_count(&kt->tpl) > 0)) {
                if (kt->tpl.src)
                    tpl_free(&kt->tpl);
                char *lf = lower_first(g->name);
                char *nm = sanitize_name(lf);
                char *src = i == 0 ? xasprintf("{%sId}", nm) : sanitize_name(g->name);
                if (tpl_parse(src, &kt->tpl, NULL, NULL) != KP_OK)
                    tpl_parse("{id}", &kt->tpl, NULL, NULL);
                free(lf);
                free(nm);
                free(src);
            }
            warn(m, _("entity '%s': no sample value of %s; the template '%s' is a guess"), g->name, k->attr,
                 kt->tpl.src);
            continue;
        }
        if (!k->present)
            continue;
        if (k->domain) {
            push_str(&e->attrs, &e->nattrs, k->attr);
            char **vals = xcalloc(g->nrows ? g->nrows : 1, sizeof *vals);
            for (size_t r = 0; r < g->nrows; r++)
                vals[r] = row_key(&g->rows[r], k->attr);
            attrinfo_note(attrinfo_get(ai, nai, k->attr), vals, g->nrows, e->count);
            for (size_t r = 0; r < g->nrows; r++)
                free(vals[r]);
            free(vals);
        } else {
            char *src = ktpl_source(&c, k);
            kp_keytpl *kt = PUSH(e->keys, e->nkeys);
            kt->attr = str_make(k->attr, NOLOC);
            char *err = NULL;
            if (tpl_parse(src, &kt->tpl, &err, NULL) != KP_OK) {
                /* cannot happen with escaped literals and valid names; keep the design sane */
                tpl_parse("{value}", &kt->tpl, NULL, NULL);
                warn(m, _("entity '%s': template '%s' for %s is broken (%s)"), g->name, src, k->attr, err);
                free(err);
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
            for (size_t a = 0; a < g->rows[r].n; a++) {
                const char *k = g->rows[r].v[a].name;
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

void infer_build(infer *m)
{
    size_t totalrows = 0;
    for (size_t i = 0; i < m->ngroups; i++)
        totalrows += m->groups[i].nrows;
    attrinfo *ai = NULL;
    size_t nai = 0;
    for (size_t i = 0; i < m->ngroups; i++)
        build_entity(m, &m->groups[i], totalrows, &ai, &nai);
    for (size_t i = 0; i < nai; i++) {
        if (ai[i].used) {
            kp_attr *a = PUSH(m->d->attrs, m->d->nattrs);
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
    const kp_design *d = m->d;
    for (size_t x = 0; x < d->nindexes; x++)
        for (size_t k = 0; k < d->indexes[x].ninclude; k++) {
            const char *n = d->indexes[x].include[k].s;
            bool known = design_attr(d, n) || streq(n, d->table.pk.s) || streq(n, d->table.sk.s);
            for (size_t e = 0; e < d->nentities && !known; e++)
                known = entity_knows(&d->entities[e], n) || entity_key(&d->entities[e], n);
            for (size_t q = 0; q < d->nindexes && !known; q++)
                known = streq(d->indexes[q].pk.s, n) || streq(d->indexes[q].sk.s, n);
            if (known)
                continue;
            kp_attr *a = PUSH(m->d->attrs, m->d->nattrs);
            attr_init(a);
            a->name = xstrdup(n);
            warn(m, _("index '%s' projects '%s', which no sample row carries; declared as an attribute"),
                 d->indexes[x].name, n);
        }
}
