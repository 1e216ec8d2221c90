/* expr.c - key conditions and filters as data: built, rendered, read back, evaluated (see
 * expr.h); the reserved words are in expr_reserved.c. */
#include "expr.h"

#include "i18n.h"
#include "template.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- tokens ---------------------------------------------------------------------------------- */

typedef enum tok_kind { TK_END, TK_NAME, TK_VALUE, TK_PUNCT, TK_BAD } tok_kind;

typedef struct tok {
    tok_kind kind;
    const char *s;
    size_t n;
} tok;

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
        while (tpl_name_byte((unsigned char)*e))
            e++;
        t.kind = *s == ':' ? TK_VALUE : TK_NAME;
        t.n = (size_t)(e - s);
    } else if (tpl_name_byte((unsigned char)*s)) {
        const char *e = s;
        while (tpl_name_byte((unsigned char)*e))
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
    static const char *const funcs[] = {"begins_with",          "contains",       "attribute_exists",
                                        "attribute_not_exists", "attribute_type", "size"};
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

/* ---- attribute names ------------------------------------------------------------------------ */

static bool ascii_alpha(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

static bool ident_byte(unsigned char c) { return ascii_alpha(c) || (c >= '0' && c <= '9') || c == '_'; }

bool expr_name_plain(const char *name)
{
    if (!name || !ascii_alpha((unsigned char)name[0]))
        return false;
    for (const char *p = name; *p; p++)
        if (!ident_byte((unsigned char)*p))
            return false;
    return !expr_reserved(name);
}

/* Placeholders are at most this long (DynamoDB takes up to 255 bytes; short ones read better). */
#define ALIAS_MAX 32

static char *names_strdup(const expr_names *names, const char *s)
{
    return names->ar ? arena_strdup(names->ar, s) : xstrdup(s);
}

const char *expr_names_lookup(const expr_name *v, size_t n, const char *alias)
{
    for (size_t i = 0; alias && i < n; i++)
        if (strcmp(v[i].alias, alias) == 0)
            return v[i].name;
    return NULL;
}

const char *expr_names_alias(expr_names *names, const char *name)
{
    if (expr_name_plain(name))
        return name;
    for (size_t i = 0; i < names->n; i++)
        if (strcmp(names->v[i].name, name) == 0)
            return names->v[i].alias;
    char base[ALIAS_MAX + 2];
    size_t o = 0;
    base[o++] = '#';
    for (const char *p = name; *p && o < ALIAS_MAX + 1; p++) {
        if (ident_byte((unsigned char)*p))
            base[o++] = *p;
        else if (base[o - 1] != '_')
            base[o++] = '_';
    }
    if (o == 1 || (o == 2 && base[1] == '_'))
        o = 1, base[o++] = 'n';
    base[o] = '\0';
    char alias[ALIAS_MAX + 16];
    memcpy(alias, base, o + 1);
    for (unsigned k = 2; expr_names_lookup(names->v, names->n, alias); k++)
        snprintf(alias, sizeof alias, "%s_%u", base, k);
    if (names->n == names->cap) {
        size_t cap = names->cap ? names->cap * 2 : 4;
        expr_name *v = names->ar ? arena_alloc(names->ar, cap * sizeof *v) : xcalloc(cap, sizeof *v);
        if (names->n)
            memcpy(v, names->v, names->n * sizeof *v);
        if (!names->ar)
            free(names->v);
        names->v = v;
        names->cap = cap;
    }
    expr_name *e = &names->v[names->n++];
    e->alias = names_strdup(names, alias);
    e->name = names->ar && names->borrow ? (char *)name : names_strdup(names, name);
    return e->alias;
}

void expr_names_free(expr_names *names)
{
    if (!names->ar) {
        for (size_t i = 0; i < names->n; i++) {
            free(names->v[i].alias);
            free(names->v[i].name);
        }
        free(names->v);
    }
    names->v = NULL;
    names->n = names->cap = 0;
}

static void alias_name(void *ctx, sbuf *out, const char *name) { sbuf_add(out, expr_names_alias(ctx, name)); }

expr_writer expr_names_writer(expr_names *names) { return (expr_writer){.name = alias_name, .ctx = names}; }

/* ---- filters: building ------------------------------------------------------------------------ */

static void *ar_alloc(arena *ar, size_t n) { return ar ? arena_alloc(ar, n ? n : 1) : xcalloc(n ? n : 1, 1); }

static char *ar_strdup(arena *ar, const char *s)
{
    return s ? (ar ? arena_strdup(ar, s) : xstrdup(s)) : NULL;
}

void expr_term(arena *ar, kp_expr *out, expr_kind kind, expr_op op, const char *attr,
               const char *const *values, size_t nvalues)
{
    memset(out, 0, sizeof *out);
    out->kind = kind;
    out->op = op;
    out->attr = ar_strdup(ar, attr);
    if (nvalues) {
        out->values = ar_alloc(ar, nvalues * sizeof *out->values);
        for (size_t i = 0; i < nvalues; i++)
            out->values[i] = ar_strdup(ar, values[i]);
        out->nvalues = nvalues;
    }
}

void expr_and(arena *ar, kp_expr *out, kp_expr *terms, size_t n)
{
    memset(out, 0, sizeof *out);
    if (n == 1) {
        *out = terms[0];
    } else if (n > 1) {
        out->kind = EXPR_AND;
        out->kids = ar_alloc(ar, n * sizeof *out->kids);
        memcpy(out->kids, terms, n * sizeof *terms);
        out->nkids = n;
    }
    if (n)
        memset(terms, 0, n * sizeof *terms);
}

void expr_copy(kp_expr *dst, const kp_expr *src)
{
    *dst = *src;
    dst->attr = src->attr ? xstrdup(src->attr) : NULL;
    dst->text = src->text ? xstrdup(src->text) : NULL;
    dst->values = NULL;
    dst->kids = NULL;
    if (src->nvalues) {
        dst->values = xcalloc(src->nvalues, sizeof *dst->values);
        for (size_t i = 0; i < src->nvalues; i++)
            dst->values[i] = xstrdup(src->values[i]);
    }
    if (src->nkids) {
        dst->kids = xcalloc(src->nkids, sizeof *dst->kids);
        for (size_t i = 0; i < src->nkids; i++)
            expr_copy(&dst->kids[i], &src->kids[i]);
    }
}

/* ---- filters: parsing ------------------------------------------------------------------------- */

typedef struct parser {
    const char *p;
    const expr_name *names;
    size_t nnames;
    bool bad;
} parser;

/* The attribute a NAME token names: an alias through the names, else the token itself; NULL
 * for an alias the names lack. Caller frees. */
static char *token_name(const tok *t, const expr_name *names, size_t nnames)
{
    if (t->s[0] != '#')
        return xstrndup(t->s, t->n);
    for (size_t i = 0; i < nnames; i++)
        if (strlen(names[i].alias) == t->n && strncmp(names[i].alias, t->s, t->n) == 0)
            return xstrdup(names[i].name);
    return NULL;
}

static tok peek(parser *f)
{
    const char *q = f->p;
    return next_tok(&q);
}

static tok next(parser *f) { return next_tok(&f->p); }

static void add_value(kp_expr *e, const tok *t)
{
    e->values = xrealloc(e->values, (e->nvalues + 1) * sizeof *e->values);
    e->values[e->nvalues++] = xstrndup(t->s, t->n);
}

/* Moves *kid into e's children. */
static void add_kid(kp_expr *e, kp_expr *kid)
{
    e->kids = xrealloc(e->kids, (e->nkids + 1) * sizeof *e->kids);
    e->kids[e->nkids++] = *kid;
    memset(kid, 0, sizeof *kid);
}

static void parse_or(parser *f, kp_expr *out);

/* An attribute operand: a name, or an alias of the names. */
static bool attr_tok(parser *f, const tok *t, kp_expr *e)
{
    char *name = t->kind == TK_NAME ? token_name(t, f->names, f->nnames) : NULL;
    if (!name) {
        f->bad = true;
        return false;
    }
    e->attr = name;
    return true;
}

static void parse_primary(parser *f, kp_expr *e)
{
    tok t = next(f);
    if (t.kind == TK_PUNCT && tok_is(&t, "(")) {
        parse_or(f, e);
        tok c = next(f);
        if (!tok_is(&c, ")"))
            f->bad = true;
        e->paren++;
        return;
    }
    if (t.kind != TK_NAME) {
        f->bad = true;
        return;
    }
    if (tok_is(&t, "attribute_exists") || tok_is(&t, "attribute_not_exists") || tok_is(&t, "begins_with") ||
        tok_is(&t, "contains")) {
        e->kind = tok_is(&t, "attribute_exists")       ? EXPR_EXISTS
                  : tok_is(&t, "attribute_not_exists") ? EXPR_NOT_EXISTS
                  : tok_is(&t, "begins_with")          ? EXPR_BEGINS
                                                       : EXPR_CONTAINS;
        tok o = next(f), a = next(f);
        if (!tok_is(&o, "(") || !attr_tok(f, &a, e)) {
            f->bad = true;
            return;
        }
        if (e->kind == EXPR_BEGINS || e->kind == EXPR_CONTAINS) {
            tok comma = next(f), vt = next(f);
            if (!tok_is(&comma, ",") || vt.kind != TK_VALUE) {
                f->bad = true;
                return;
            }
            add_value(e, &vt);
        }
        tok c = next(f);
        if (!tok_is(&c, ")"))
            f->bad = true;
        return;
    }
    if (!attr_tok(f, &t, e))
        return;
    tok op = next(f);
    if (tok_is(&op, "BETWEEN")) {
        e->kind = EXPR_BETWEEN;
        tok lo = next(f), andt = next(f), hi = next(f);
        if (lo.kind != TK_VALUE || !tok_is(&andt, "AND") || hi.kind != TK_VALUE) {
            f->bad = true;
            return;
        }
        add_value(e, &lo);
        add_value(e, &hi);
        return;
    }
    if (tok_is(&op, "IN")) {
        e->kind = EXPR_IN;
        tok o = next(f);
        if (!tok_is(&o, "(")) {
            f->bad = true;
            return;
        }
        for (;;) {
            tok vt = next(f);
            if (vt.kind != TK_VALUE) {
                f->bad = true;
                return;
            }
            add_value(e, &vt);
            tok sep = next(f);
            if (tok_is(&sep, ")"))
                return;
            if (!tok_is(&sep, ",")) {
                f->bad = true;
                return;
            }
        }
    }
    tok vt = next(f);
    e->kind = EXPR_CMP;
    if (op.kind != TK_PUNCT || vt.kind != TK_VALUE) {
        f->bad = true;
        return;
    }
    static const struct {
        const char *text;
        expr_op op;
    } ops[] = {{"=", EXPR_EQ},  {"<>", EXPR_NE}, {"<", EXPR_LT},
               {"<=", EXPR_LE}, {">", EXPR_GT},  {">=", EXPR_GE}};
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        if (tok_is(&op, ops[i].text)) {
            e->op = ops[i].op;
            add_value(e, &vt);
            return;
        }
    f->bad = true;
}

static void parse_not(parser *f, kp_expr *e)
{
    tok t = peek(f);
    if (t.kind == TK_NAME && tok_is(&t, "NOT")) {
        next(f);
        kp_expr kid = {0};
        parse_not(f, &kid);
        e->kind = EXPR_NOT;
        add_kid(e, &kid);
        return;
    }
    parse_primary(f, e);
}

/* kind AND (parsing `one`) or OR (parsing and-terms): one term, or a node of two or more. */
static void parse_list(parser *f, kp_expr *e, expr_kind kind, void (*one)(parser *, kp_expr *))
{
    const char *word = kind == EXPR_AND ? "AND" : "OR";
    kp_expr first = {0};
    one(f, &first);
    tok t = peek(f);
    if (f->bad || !(t.kind == TK_NAME && tok_is(&t, word))) {
        *e = first;
        return;
    }
    e->kind = kind;
    add_kid(e, &first);
    while (!f->bad && (t = peek(f)).kind == TK_NAME && tok_is(&t, word)) {
        next(f);
        kp_expr kid = {0};
        one(f, &kid);
        add_kid(e, &kid);
    }
}

static void parse_and(parser *f, kp_expr *e) { parse_list(f, e, EXPR_AND, parse_not); }

static void parse_or(parser *f, kp_expr *e) { parse_list(f, e, EXPR_OR, parse_and); }

void expr_free(kp_expr *e)
{
    if (!e)
        return;
    for (size_t i = 0; i < e->nkids; i++)
        expr_free(&e->kids[i]);
    free(e->kids);
    for (size_t i = 0; i < e->nvalues; i++)
        free(e->values[i]);
    free(e->values);
    free(e->attr);
    free(e->text);
    memset(e, 0, sizeof *e);
}

void expr_parse(const char *text, const expr_name *names, size_t nnames, kp_expr *out)
{
    memset(out, 0, sizeof *out);
    parser f = {.p = text ? text : "", .names = names, .nnames = nnames};
    parse_or(&f, out);
    if (!f.bad && next(&f).kind != TK_END)
        f.bad = true;
    if (f.bad) {
        expr_free(out);
        out->kind = EXPR_RAW;
        out->text = xstrdup(text ? text : "");
    }
}

/* ---- rendering ------------------------------------------------------------------------------ */

static void put_name(const expr_writer *w, sbuf *b, const char *name)
{
    if (w && w->name)
        w->name(w->ctx, b, name);
    else
        sbuf_add(b, name);
}

static void put_value(const expr_writer *w, sbuf *b, const char *value)
{
    if (w && w->value)
        w->value(w->ctx, b, value);
    else
        sbuf_add(b, value);
}

/* The text as written, its names and values substituted (keywords stay). */
static void render_raw(const char *text, const expr_writer *w, sbuf *b)
{
    const char *p = text;
    for (;;) {
        const char *before = p;
        tok t = next_tok(&p);
        sbuf_addn(b, before, (size_t)(t.s - before));
        if (t.kind == TK_END)
            break;
        char *s = xstrndup(t.s, t.n);
        if (t.kind == TK_NAME && !is_keyword(&t))
            put_name(w, b, s);
        else if (t.kind == TK_VALUE)
            put_value(w, b, s);
        else
            sbuf_add(b, s);
        free(s);
    }
}

static void render(const kp_expr *e, const expr_writer *w, sbuf *b)
{
    static const char *const ops[] = {"=", "<>", "<", "<=", ">", ">="};
    for (unsigned i = 0; i < e->paren; i++)
        sbuf_addc(b, '(');
    switch (e->kind) {
    case EXPR_AND:
    case EXPR_OR:
        for (size_t i = 0; i < e->nkids; i++) {
            if (i)
                sbuf_add(b, e->kind == EXPR_AND ? " AND " : " OR ");
            render(&e->kids[i], w, b);
        }
        break;
    case EXPR_NOT:
        sbuf_add(b, "NOT ");
        render(&e->kids[0], w, b);
        break;
    case EXPR_CMP:
        put_name(w, b, e->attr);
        sbuf_addc(b, ' ');
        sbuf_add(b, ops[e->op]);
        sbuf_addc(b, ' ');
        put_value(w, b, e->values[0]);
        break;
    case EXPR_BETWEEN:
        put_name(w, b, e->attr);
        sbuf_add(b, " BETWEEN ");
        put_value(w, b, e->values[0]);
        sbuf_add(b, " AND ");
        put_value(w, b, e->values[1]);
        break;
    case EXPR_IN:
        put_name(w, b, e->attr);
        sbuf_add(b, " IN (");
        for (size_t i = 0; i < e->nvalues; i++) {
            if (i)
                sbuf_add(b, ", ");
            put_value(w, b, e->values[i]);
        }
        sbuf_addc(b, ')');
        break;
    case EXPR_BEGINS:
    case EXPR_CONTAINS:
        sbuf_add(b, e->kind == EXPR_BEGINS ? "begins_with(" : "contains(");
        put_name(w, b, e->attr);
        sbuf_add(b, ", ");
        put_value(w, b, e->values[0]);
        sbuf_addc(b, ')');
        break;
    case EXPR_EXISTS:
    case EXPR_NOT_EXISTS:
        sbuf_add(b, e->kind == EXPR_EXISTS ? "attribute_exists(" : "attribute_not_exists(");
        put_name(w, b, e->attr);
        sbuf_addc(b, ')');
        break;
    case EXPR_RAW:
        render_raw(e->text, w, b);
        break;
    }
    for (unsigned i = 0; i < e->paren; i++)
        sbuf_addc(b, ')');
}

void expr_render_into(sbuf *b, const kp_expr *e, const expr_writer *w) { render(e, w, b); }

char *expr_render(const kp_expr *e, const expr_writer *w)
{
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, "");
    render(e, w, &b);
    return sbuf_steal(&b);
}

typedef struct each_ctx {
    void (*fn)(void *ctx, const char *value);
    void *ctx;
} each_ctx;

static void each_value_cb(void *vctx, sbuf *out, const char *value)
{
    each_ctx *c = vctx;
    c->fn(c->ctx, value);
    sbuf_add(out, value);
}

void expr_each_value(const kp_expr *e, void (*fn)(void *ctx, const char *value), void *ctx)
{
    each_ctx c = {fn, ctx};
    expr_writer w = {.value = each_value_cb, .ctx = &c};
    free(expr_render(e, &w));
}

void expr_each_name(const kp_expr *e, void (*fn)(void *ctx, const char *name), void *ctx)
{
    if (e->kind == EXPR_RAW)
        return;
    if (e->attr)
        fn(ctx, e->attr);
    for (size_t i = 0; i < e->nkids; i++)
        expr_each_name(&e->kids[i], fn, ctx);
}

/* ---- evaluation ------------------------------------------------------------------------------ */

typedef struct have_ctx {
    const kp_item *values;
    bool missing;
} have_ctx;

static void have_value(void *vctx, const char *value)
{
    have_ctx *c = vctx;
    if (!item_get(c->values, value))
        c->missing = true;
}

static bool eval(const kp_expr *e, const kp_item *item, const kp_item *values)
{
    const kp_value *av = e->attr ? item_get(item, e->attr) : NULL;
    const kp_value *v0 = e->nvalues ? item_get(values, e->values[0]) : NULL;
    switch (e->kind) {
    case EXPR_AND:
        for (size_t i = 0; i < e->nkids; i++)
            if (!eval(&e->kids[i], item, values))
                return false;
        return true;
    case EXPR_OR:
        for (size_t i = 0; i < e->nkids; i++)
            if (eval(&e->kids[i], item, values))
                return true;
        return false;
    case EXPR_NOT:
        return !eval(&e->kids[0], item, values);
    case EXPR_EXISTS:
        return av != NULL;
    case EXPR_NOT_EXISTS:
        return av == NULL;
    case EXPR_BEGINS:
    case EXPR_CONTAINS:
        if (!av || !v0 || av->type != KP_VAL_S || v0->type != KP_VAL_S)
            return false;
        return e->kind == EXPR_BEGINS ? strncmp(av->text, v0->text, strlen(v0->text)) == 0
                                      : strstr(av->text, v0->text) != NULL;
    case EXPR_BETWEEN: {
        int a = kp_value_cmp(av, v0), b = kp_value_cmp(av, item_get(values, e->values[1]));
        return a != -2 && b != -2 && a >= 0 && b <= 0;
    }
    case EXPR_IN:
        for (size_t i = 0; i < e->nvalues; i++)
            if (kp_value_cmp(av, item_get(values, e->values[i])) == 0)
                return true;
        return false;
    case EXPR_CMP: {
        int c = kp_value_cmp(av, v0);
        if (e->op == EXPR_NE)
            return c != 0; /* a missing attribute or another type is "not equal" */
        if (c == -2)
            return false;
        switch (e->op) {
        case EXPR_EQ:
            return c == 0;
        case EXPR_LT:
            return c < 0;
        case EXPR_LE:
            return c <= 0;
        case EXPR_GT:
            return c > 0;
        case EXPR_GE:
            return c >= 0;
        default:
            return false;
        }
    }
    case EXPR_RAW:
        return false;
    }
    return false;
}

static bool has_raw(const kp_expr *e)
{
    if (e->kind == EXPR_RAW)
        return true;
    for (size_t i = 0; i < e->nkids; i++)
        if (has_raw(&e->kids[i]))
            return true;
    return false;
}

int expr_eval(const kp_expr *e, const kp_item *item, const kp_item *values)
{
    if (has_raw(e))
        return -1;
    have_ctx c = {values, false};
    expr_each_value(e, have_value, &c);
    if (c.missing)
        return -1;
    return eval(e, item, values) ? 1 : 0;
}

/* ---- key conditions ------------------------------------------------------------------------- */

void expr_keycond_free(expr_keycond *kc)
{
    free(kc->pk);
    free(kc->pk_value);
    free(kc->sk);
    free(kc->sk_value);
    free(kc->sk_value2);
    memset(kc, 0, sizeof *kc);
}

void expr_keycond_make(arena *ar, expr_keycond *out, const char *pk, const char *pk_value, expr_sk_op op,
                       const char *sk, const char *sk_value, const char *sk_value2)
{
    out->pk = ar_strdup(ar, pk);
    out->pk_value = ar_strdup(ar, pk_value);
    out->op = op;
    bool has_sk = op != EXPR_SK_NONE;
    out->sk = has_sk ? ar_strdup(ar, sk) : NULL;
    out->sk_value = has_sk ? ar_strdup(ar, sk_value) : NULL;
    out->sk_value2 = op == EXPR_SK_BETWEEN ? ar_strdup(ar, sk_value2) : NULL;
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

/* A NAME token: the attribute it names (through the aliases) into *out. */
static bool expect_name(const char **p, const expr_name *names, size_t nnames, char **out)
{
    tok t = next_tok(p);
    if (t.kind != TK_NAME)
        return false;
    *out = token_name(&t, names, nnames);
    return *out != NULL;
}

kp_status expr_keycond_parse(const char *text, const expr_name *names, size_t nnames, expr_keycond *out,
                             char **err)
{
    memset(out, 0, sizeof *out);
    const char *p = text ? text : "";
    bool ok = expect_name(&p, names, nnames, &out->pk) && expect(&p, TK_PUNCT, "=", NULL) &&
              expect(&p, TK_VALUE, NULL, &out->pk_value);
    if (ok) {
        tok t = next_tok(&p);
        if (t.kind == TK_END) {
            out->op = EXPR_SK_NONE;
        } else if (!tok_is(&t, "AND")) {
            ok = false;
        } else {
            t = next_tok(&p);
            if (tok_is(&t, "begins_with")) {
                out->op = EXPR_SK_BEGINS;
                ok = expect(&p, TK_PUNCT, "(", NULL) && expect_name(&p, names, nnames, &out->sk) &&
                     expect(&p, TK_PUNCT, ",", NULL) && expect(&p, TK_VALUE, NULL, &out->sk_value) &&
                     expect(&p, TK_PUNCT, ")", NULL);
            } else if (t.kind == TK_NAME && (out->sk = token_name(&t, names, nnames)) != NULL) {
                tok op = next_tok(&p);
                if (tok_is(&op, "BETWEEN")) {
                    out->op = EXPR_SK_BETWEEN;
                    ok = expect(&p, TK_VALUE, NULL, &out->sk_value) && expect(&p, TK_NAME, "AND", NULL) &&
                         expect(&p, TK_VALUE, NULL, &out->sk_value2);
                } else {
                    out->op = tok_is(&op, "=")    ? EXPR_SK_EQ
                              : tok_is(&op, "<")  ? EXPR_SK_LT
                              : tok_is(&op, "<=") ? EXPR_SK_LE
                              : tok_is(&op, ">")  ? EXPR_SK_GT
                              : tok_is(&op, ">=") ? EXPR_SK_GE
                                                  : EXPR_SK_NONE;
                    ok = out->op != EXPR_SK_NONE && expect(&p, TK_VALUE, NULL, &out->sk_value);
                }
            } else {
                ok = false;
            }
        }
        if (ok && next_tok(&p).kind != TK_END)
            ok = false;
    }
    if (!ok) {
        expr_keycond_free(out);
        return kp_fail(
            err, KP_INVALID,
            /* TRANSLATORS: %s the key condition; the expected forms are DynamoDB's syntax */
            _("cannot read the key condition '%s'; expected 'PK = :pk' optionally followed by "
              "'AND SK = :sk', '<', '<=', '>', '>=', 'begins_with(SK, :sk)' or 'SK BETWEEN :a AND :b'"),
            text ? text : "");
    }
    return KP_OK;
}

char *expr_keycond_render(const expr_keycond *kc, const expr_writer *w)
{
    sbuf b;
    sbuf_init(&b);
    expr_keycond_render_into(&b, kc, w);
    return sbuf_steal(&b);
}

void expr_keycond_render_into(sbuf *out, const expr_keycond *kc, const expr_writer *w)
{
    static const char *const ops[] = {"", "=", "<", "<=", ">", ">="};
    put_name(w, out, kc->pk);
    sbuf_add(out, " = ");
    put_value(w, out, kc->pk_value);
    switch (kc->op) {
    case EXPR_SK_NONE:
        break;
    case EXPR_SK_BEGINS:
        sbuf_add(out, " AND begins_with(");
        put_name(w, out, kc->sk);
        sbuf_add(out, ", ");
        put_value(w, out, kc->sk_value);
        sbuf_addc(out, ')');
        break;
    case EXPR_SK_BETWEEN:
        sbuf_add(out, " AND ");
        put_name(w, out, kc->sk);
        sbuf_add(out, " BETWEEN ");
        put_value(w, out, kc->sk_value);
        sbuf_add(out, " AND ");
        put_value(w, out, kc->sk_value2);
        break;
    default:
        sbuf_add(out, " AND ");
        put_name(w, out, kc->sk);
        sbuf_addc(out, ' ');
        sbuf_add(out, ops[kc->op]);
        sbuf_addc(out, ' ');
        put_value(w, out, kc->sk_value);
        break;
    }
}

int expr_key_cmp(bool numeric, const char *a, const char *b)
{
    if (numeric) {
        double x = strtod(a, NULL), y = strtod(b, NULL);
        return x < y ? -1 : x > y;
    }
    return strcmp(a, b); /* UTF-8 byte order, as DynamoDB compares strings */
}

bool expr_keycond_sk_match(const expr_keycond *kc, bool numeric, const char *have, const char *v1,
                           const char *v2)
{
    if (kc->op == EXPR_SK_NONE)
        return true;
    if (!have)
        return false;
    if (kc->op == EXPR_SK_BEGINS)
        return strncmp(have, v1, strlen(v1)) == 0;
    int c = expr_key_cmp(numeric, have, v1);
    switch (kc->op) {
    case EXPR_SK_EQ:
        return c == 0;
    case EXPR_SK_LT:
        return c < 0;
    case EXPR_SK_LE:
        return c <= 0;
    case EXPR_SK_GT:
        return c > 0;
    case EXPR_SK_GE:
        return c >= 0;
    case EXPR_SK_BETWEEN:
        return c >= 0 && expr_key_cmp(numeric, have, v2) <= 0;
    default:
        return false;
    }
}
