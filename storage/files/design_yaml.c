/* design_yaml.c - the design file: YAML load (libyaml events into a small node tree with
 * aliases kept as references), key/type checks, building the kp_design, semantic validation
 * (model/validate.c) and canonical save through the libyaml emitter. */
#include "i18n.h"
#include "design_io.h"

#include "validate.h"
#include "fields.h"
#include "fileio.h"
#include "syntax.h"
#include "yamlout.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

/* Deepest nesting accepted (block or flow); deeper input is refused, never recursed into. */
#define YN_MAX_DEPTH 200
/* Alias expansion budget: a walk of the whole document, following aliases, may visit at most
 * the real node count plus this many nodes. */
#define YN_ALIAS_BUDGET 100000

/* ==========================================================================================
 * The node tree
 * ========================================================================================== */

typedef enum yn_kind { YN_SCALAR, YN_SEQ, YN_MAP, YN_ALIAS } yn_kind;

typedef struct ynode {
    yn_kind kind;
    char *text; /* scalar value (NUL-terminated), alias name for YN_ALIAS */
    size_t len;
    yaml_scalar_style_t style;
    kp_loc loc;          /* start of the node (1-based) */
    struct ynode **kids; /* seq: items; map: key, value, key, value ... */
    size_t n, cap;
    const struct ynode *target; /* YN_ALIAS: the anchored node */
} ynode;

typedef struct yanchor {
    char *name;
    const ynode *node;
} yanchor;

typedef struct yctx {
    const char *text;
    size_t len;
    size_t *lines; /* byte offset of the start of each line */
    size_t nlines, caplines;
    kp_diags *diags;
    yaml_parser_t parser;
    ynode **all;
    size_t nall, capall;
    yanchor *anchors;
    size_t nanchors, capanchors;
    size_t visits, budget;
    bool failed;
} yctx;

static ynode *yn_new(yctx *c, yn_kind kind, yaml_mark_t m)
{
    ynode *n = xcalloc(1, sizeof *n);
    n->kind = kind;
    n->loc = (kp_loc){(int)m.line + 1, (int)m.column + 1};
    VEC_GROW(c->all, c->nall, c->capall);
    c->all[c->nall++] = n;
    return n;
}

static void yn_add(ynode *parent, ynode *kid)
{
    VEC_GROW(parent->kids, parent->n, parent->cap);
    parent->kids[parent->n++] = kid;
}

static void yctx_free(yctx *c)
{
    for (size_t i = 0; i < c->nall; i++) {
        free(c->all[i]->text);
        free(c->all[i]->kids);
        free(c->all[i]);
    }
    free(c->all);
    for (size_t i = 0; i < c->nanchors; i++)
        free(c->anchors[i].name);
    free(c->anchors);
    free(c->lines);
}

static void add_anchor(yctx *c, const yaml_char_t *name, const ynode *n)
{
    if (!name)
        return;
    VEC_GROW(c->anchors, c->nanchors, c->capanchors);
    c->anchors[c->nanchors++] = (yanchor){xstrdup((const char *)name), n};
}

static const ynode *find_anchor(const yctx *c, const char *name)
{
    for (size_t i = c->nanchors; i-- > 0;)
        if (strcmp(c->anchors[i].name, name) == 0)
            return c->anchors[i].node;
    return NULL;
}

/* Follows aliases to the node they name. */
static const ynode *R(const ynode *n)
{
    while (n && n->kind == YN_ALIAS)
        n = n->target;
    return n;
}

/* ---- positions ------------------------------------------------------------------------- */

static void index_lines(yctx *c)
{
    VEC_GROW(c->lines, c->nlines, c->caplines);
    c->lines[c->nlines++] = 0;
    for (size_t i = 0; i < c->len; i++)
        if (c->text[i] == '\n') {
            VEC_GROW(c->lines, c->nlines, c->caplines);
            c->lines[c->nlines++] = i + 1;
        }
}

static size_t utf8_width(unsigned char b)
{
    return b < 0x80 ? 1 : (b & 0xE0) == 0xC0 ? 2 : (b & 0xF0) == 0xE0 ? 3 : (b & 0xF8) == 0xF0 ? 4 : 1;
}

static size_t utf8_len_of(unsigned long cp) { return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4; }

/* Column of byte `off` of a scalar's value, counted in the source (quotes and escapes taken
 * into account). Falls back to start column + characters when the scalar spans lines. */
static kp_loc scalar_loc_at(const yctx *c, const ynode *n, size_t off)
{
    kp_loc l = n->loc;
    if (n->kind != YN_SCALAR)
        return l;
    size_t fallback_chars = 0;
    for (size_t i = 0; i < off && i < n->len; i++)
        if (((unsigned char)n->text[i] & 0xC0) != 0x80)
            fallback_chars++;
    bool quoted = n->style == YAML_SINGLE_QUOTED_SCALAR_STYLE || n->style == YAML_DOUBLE_QUOTED_SCALAR_STYLE;
    kp_loc fb = {l.line, l.col + (quoted ? 1 : 0) + (int)fallback_chars};
    if (n->style == YAML_LITERAL_SCALAR_STYLE || n->style == YAML_FOLDED_SCALAR_STYLE)
        return fb;
    if (l.line < 1 || (size_t)l.line > c->nlines)
        return fb;
    size_t p = c->lines[l.line - 1];
    for (int k = 1; k < l.col && p < c->len; k++)
        p += utf8_width((unsigned char)c->text[p]);
    int col = l.col;
    /* an anchor or a tag before the value: the node starts there, the text after it */
    while (p < c->len && (c->text[p] == '&' || c->text[p] == '!')) {
        while (p < c->len && !strchr(" \t\r\n", c->text[p]))
            p += utf8_width((unsigned char)c->text[p]), col++;
        while (p < c->len && (c->text[p] == ' ' || c->text[p] == '\t'))
            p++, col++;
    }
    if (quoted)
        p++, col++;
    size_t vi = 0;
    while (vi < off) {
        if (p >= c->len || c->text[p] == '\n' || c->text[p] == '\r')
            return fb;
        char ch = c->text[p];
        if (n->style == YAML_SINGLE_QUOTED_SCALAR_STYLE && ch == '\'') {
            p += 2, col += 2, vi += 1;
            continue;
        }
        if (n->style == YAML_DOUBLE_QUOTED_SCALAR_STYLE && ch == '\\' && p + 1 < c->len) {
            char e = c->text[p + 1];
            size_t hex = e == 'x' ? 2 : e == 'u' ? 4 : e == 'U' ? 8 : 0;
            size_t raw = 2 + hex, out = 1;
            if (hex) {
                char buf[9] = {0};
                memcpy(buf, c->text + p + 2, p + 2 + hex <= c->len ? hex : 0);
                out = utf8_len_of(strtoul(buf, NULL, 16));
            } else if (e == 'N' || e == '_') {
                out = 2;
            } else if (e == 'L' || e == 'P') {
                out = 3;
            } else if (e == '\n') {
                return fb;
            }
            p += raw, col += (int)raw, vi += out;
            continue;
        }
        size_t w = utf8_width((unsigned char)ch);
        p += w, vi += w, col++;
    }
    return (kp_loc){l.line, col};
}

/* ==========================================================================================
 * Parsing: events into nodes
 * ========================================================================================== */

static void syntax_error(yctx *c)
{
    yaml_parser_t *p = &c->parser;
    const char *problem = p->problem ? p->problem : _("unreadable input");
    yaml_mark_t m = p->problem_mark;
    kp_loc loc = {(int)m.line + 1, (int)m.column + 1};
    if (p->error == YAML_READER_ERROR) /* the reader gives a byte offset, not a mark */
        loc = util_loc_of(c->text, c->len, p->problem_offset);
    if (p->context)
        diags_add(c->diags, KP_SYNTAX, loc,
                  _("YAML syntax error: %s %s (started at line %d, column %d); expected well-formed YAML"),
                  problem, p->context, (int)p->context_mark.line + 1, (int)p->context_mark.column + 1);
    else
        diags_add(c->diags, KP_SYNTAX, loc, _("YAML syntax error: %s; expected well-formed YAML"), problem);
    c->failed = true;
}

static bool next_event(yctx *c, yaml_event_t *ev)
{
    if (!yaml_parser_parse(&c->parser, ev)) {
        syntax_error(c);
        return false;
    }
    return true;
}

/* Builds the node starting with event `ev` (consumed). NULL on error (diagnosed). */
static ynode *load_node(yctx *c, yaml_event_t *ev, int depth)
{
    if (depth > YN_MAX_DEPTH) {
        diags_add(c->diags, KP_SYNTAX, (kp_loc){(int)ev->start_mark.line + 1, (int)ev->start_mark.column + 1},
                  _("the document nests deeper than %d levels; expected a design file"), YN_MAX_DEPTH);
        yaml_event_delete(ev);
        c->failed = true;
        return NULL;
    }
    ynode *n = NULL;
    switch (ev->type) {
    case YAML_ALIAS_EVENT: {
        n = yn_new(c, YN_ALIAS, ev->start_mark);
        n->text = xstrdup((const char *)ev->data.alias.anchor);
        n->target = find_anchor(c, n->text);
        if (!n->target) {
            diags_add(c->diags, KP_SYNTAX, n->loc,
                      _("alias '*%s' names no anchor defined before it; expected '&%s' on an earlier node"),
                      n->text, n->text);
            c->failed = true;
            n = NULL;
        }
        yaml_event_delete(ev);
        return n;
    }
    case YAML_SCALAR_EVENT:
        n = yn_new(c, YN_SCALAR, ev->start_mark);
        n->len = ev->data.scalar.length;
        if (n->len > KP_MAX_VALUE) {
            /* a name or a text of megabytes is a pasting accident: refused before anything reads it */
            diags_add(c->diags, KP_RANGE, n->loc,
                      _("a value of %zu bytes; expected at most %d bytes (64 KiB)"), n->len, KP_MAX_VALUE);
            c->failed = true;
        } else if (memchr(ev->data.scalar.value, '\0', n->len)) {
            /* a "\0" escape: C text would silently end there ("E#\0{a}" would read "E#") */
            diags_add(c->diags, KP_ENCODING, n->loc,
                      _("a NUL character (\\0) inside a value; expected text without NUL characters"));
            c->failed = true;
        } else {
            ptrdiff_t ctl = util_control_at((const char *)ev->data.scalar.value, true);
            if (ctl >= 0) {
                /* an escape such as "\e" or "\x9b": printed later, it would drive the terminal */
                unsigned char ch = ev->data.scalar.value[ctl];
                diags_add(
                    c->diags, KP_ENCODING, n->loc,
                    _("a control character (%s%02x) inside a value; expected printable text (newlines and "
                      "tabs are the only controls allowed)"),
                    ch == 0xc2 ? "U+00" : "0x", ch == 0xc2 ? ev->data.scalar.value[ctl + 1] : ch);
                c->failed = true;
            }
        }
        n->text = xstrndup((const char *)ev->data.scalar.value, n->len);
        n->style = ev->data.scalar.style;
        add_anchor(c, ev->data.scalar.anchor, n);
        yaml_event_delete(ev);
        return n;
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT: {
        bool seq = ev->type == YAML_SEQUENCE_START_EVENT;
        n = yn_new(c, seq ? YN_SEQ : YN_MAP, ev->start_mark);
        yaml_char_t *anchor = seq ? ev->data.sequence_start.anchor : ev->data.mapping_start.anchor;
        char *aname = anchor ? xstrdup((const char *)anchor) : NULL;
        yaml_event_delete(ev);
        for (;;) {
            yaml_event_t e;
            if (!next_event(c, &e)) {
                free(aname);
                return NULL;
            }
            if (e.type == YAML_SEQUENCE_END_EVENT || e.type == YAML_MAPPING_END_EVENT) {
                yaml_event_delete(&e);
                break;
            }
            ynode *kid = load_node(c, &e, depth + 1);
            if (!kid) {
                free(aname);
                return NULL;
            }
            yn_add(n, kid);
        }
        add_anchor(c, (const yaml_char_t *)aname, n);
        free(aname);
        return n;
    }
    default:
        yaml_event_delete(ev);
        return NULL;
    }
}

/* Walks the document following aliases and counts the nodes visited; false (diagnosed) when
 * the count passes the budget (a "billion laughs" file). `via` is the outermost alias. */
static bool count_walk(yctx *c, const ynode *n, const ynode *via, int depth)
{
    if (++c->visits > c->budget || depth > 4 * YN_MAX_DEPTH) {
        kp_loc at = via ? via->loc : n->loc;
        diags_add(c->diags, KP_ALIAS, at,
                  _("YAML aliases expand to more than %zu nodes; expected a design without runaway aliases "
                    "(\"billion laughs\")"),
                  c->budget);
        return false;
    }
    if (n->kind == YN_ALIAS)
        return count_walk(c, n->target, via ? via : n, depth + 1);
    for (size_t i = 0; i < n->n; i++)
        if (!count_walk(c, n->kids[i], via, depth + 1))
            return false;
    return true;
}

/* Parses the text into a tree. NULL with diagnostics on error. An empty document gives NULL
 * with an EMPTY diagnostic. */
static const ynode *parse_tree(yctx *c)
{
    size_t bad;
    if (!util_utf8_valid(c->text, c->len, &bad)) {
        kp_loc l = util_loc_of(c->text, c->len, bad);
        diags_add(c->diags, KP_ENCODING, l, _("invalid UTF-8 (byte 0x%02X); expected UTF-8 text"),
                  (unsigned)(unsigned char)c->text[bad]);
        return NULL;
    }
    index_lines(c);
    if (!yaml_parser_initialize(&c->parser)) {
        diags_add(c->diags, KP_NOMEM, (kp_loc){0, 0}, _("cannot start the YAML parser (out of memory)"));
        return NULL;
    }
    yaml_parser_set_input_string(&c->parser, (const unsigned char *)c->text, c->len);
    ynode *root = NULL;
    bool done = false;
    int docs = 0;
    while (!done && !c->failed) {
        yaml_event_t ev;
        if (!next_event(c, &ev))
            break;
        switch (ev.type) {
        case YAML_STREAM_END_EVENT:
            done = true;
            yaml_event_delete(&ev);
            break;
        case YAML_DOCUMENT_START_EVENT:
            docs++;
            if (docs > 1) {
                diags_add(c->diags, KP_SYNTAX,
                          (kp_loc){(int)ev.start_mark.line + 1, (int)ev.start_mark.column + 1},
                          _("a second YAML document; expected one design per file"));
                c->failed = true;
            }
            yaml_event_delete(&ev);
            break;
        case YAML_SCALAR_EVENT:
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT:
        case YAML_ALIAS_EVENT: {
            ynode *n = load_node(c, &ev, 0);
            if (!n)
                c->failed = true;
            else if (docs <= 1)
                root = n;
            break;
        }
        default:
            yaml_event_delete(&ev);
            break;
        }
    }
    yaml_parser_delete(&c->parser);
    if (c->failed)
        return NULL;
    const ynode *r = R(root);
    if (!r || (r->kind == YN_SCALAR && r->style == YAML_PLAIN_SCALAR_STYLE &&
               (r->len == 0 || !strcmp(r->text, "~") || !strcmp(r->text, "null")))) {
        diags_add(c->diags, KP_EMPTY, (kp_loc){0, 0},
                  _("the file is empty; expected a design starting with 'keyplan: %d'"), KP_FORMAT_VERSION);
        return NULL;
    }
    c->budget = c->nall + YN_ALIAS_BUDGET;
    if (!count_walk(c, root, NULL, 0))
        return NULL;
    return root;
}

/* ==========================================================================================
 * Building the design
 * ========================================================================================== */

typedef struct bctx {
    yctx *y;
    kp_diags *d;
} bctx;

static kp_loc LOC(const ynode *n) { return n->loc; }

static bool is_null(const ynode *n)
{
    n = R(n);
    return n->kind == YN_SCALAR && n->style == YAML_PLAIN_SCALAR_STYLE &&
           (n->len == 0 || !strcmp(n->text, "~") || !strcmp(n->text, "null") || !strcmp(n->text, "Null") ||
            !strcmp(n->text, "NULL"));
}

static const char *kind_word(const ynode *n)
{
    n = R(n);
    if (n->kind == YN_SEQ)
        return _("a list");
    if (n->kind == YN_MAP)
        return _("a map");
    return is_null(n) ? _("nothing") : _("a single value");
}

static void type_error(bctx *b, const ynode *n, const char *where, const char *key, const char *expected)
{
    if (key)
        diags_add(b->d, KP_TYPE, LOC(n), _("%s: '%s' is %s; expected %s"), where, key, kind_word(n),
                  expected);
    else
        diags_add(b->d, KP_TYPE, LOC(n), _("%s is %s; expected %s"), where, kind_word(n), expected);
}

static void join_names(sbuf *s, const char *const *names, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (i)
            /* TRANSLATORS: joins the last two names of a list: "a, b or c" */
            sbuf_add(s, i + 1 == n ? _(" or ") : ", ");
        sbuf_add(s, names[i]);
    }
}

/* Checks a mapping's keys: scalars, known, each once. */
static void check_keys(bctx *b, const ynode *map, const char *where, const char *const *allowed,
                       size_t nallowed)
{
    for (size_t i = 0; i + 1 < map->n; i += 2) {
        const ynode *k = R(map->kids[i]);
        if (k->kind != YN_SCALAR) {
            diags_add(b->d, KP_TYPE, LOC(map->kids[i]), _("%s: a key is %s; expected a plain name"), where,
                      kind_word(k));
            continue;
        }
        bool known = false;
        for (size_t a = 0; a < nallowed; a++)
            if (!strcmp(allowed[a], k->text))
                known = true;
        if (!known) {
            sbuf s;
            sbuf_init(&s);
            join_names(&s, allowed, nallowed);
            const char *dym = util_did_you_mean(k->text, allowed, nallowed);
            if (dym)
                diags_add(b->d, KP_UNKNOWN_KEY, LOC(map->kids[i]),
                          _("%s: unknown key '%s' (did you mean '%s'?); expected %s"), where, k->text, dym,
                          s.s);
            else
                diags_add(b->d, KP_UNKNOWN_KEY, LOC(map->kids[i]), _("%s: unknown key '%s'; expected %s"),
                          where, k->text, s.s);
            sbuf_free(&s);
            continue;
        }
        for (size_t j = 0; j < i; j += 2) {
            const ynode *o = R(map->kids[j]);
            if (o->kind == YN_SCALAR && !strcmp(o->text, k->text)) {
                diags_add(b->d, KP_DUPLICATE, LOC(map->kids[i]),
                          _("%s: key '%s' given twice (first at line %d, column %d); expected each key once"),
                          where, k->text, LOC(map->kids[j]).line, LOC(map->kids[j]).col);
                break;
            }
        }
    }
}

/* Value of `key` in a mapping (first occurrence; NULL when absent or null). */
static const ynode *get(const ynode *map, const char *key)
{
    for (size_t i = 0; i + 1 < map->n; i += 2) {
        const ynode *k = R(map->kids[i]);
        if (k->kind == YN_SCALAR && !strcmp(k->text, key))
            return is_null(map->kids[i + 1]) ? NULL : map->kids[i + 1];
    }
    return NULL;
}

static const ynode *key_node(const ynode *map, const char *key)
{
    for (size_t i = 0; i + 1 < map->n; i += 2) {
        const ynode *k = R(map->kids[i]);
        if (k->kind == YN_SCALAR && !strcmp(k->text, key))
            return map->kids[i];
    }
    return NULL;
}

/* The scalar's text, or NULL (diagnosed) when it is a list or a map. */
static const char *scalar(bctx *b, const ynode *n, const char *where, const char *key)
{
    const ynode *r = R(n);
    if (r->kind != YN_SCALAR) {
        type_error(b, n, where, key, _("text"));
        return NULL;
    }
    return r->text;
}

static void get_text(bctx *b, const ynode *map, const char *key, const char *where, char **out)
{
    const ynode *v = get(map, key);
    if (!v)
        return;
    const char *s = scalar(b, v, where, key);
    if (s) {
        free(*out);
        *out = xstrdup(s);
    }
}

static bool get_ref(bctx *b, const ynode *map, const char *key, const char *where, kp_str *out)
{
    const ynode *v = get(map, key);
    if (!v)
        return false;
    const char *s = scalar(b, v, where, key);
    if (!s)
        return false;
    str_free(out);
    *out = str_make(s, LOC(v));
    return true;
}

/* Strict number: a plain scalar that reads fully as a finite number (underscores allowed). */
static bool parse_number_text(const char *text, double *out)
{
    return syn_number(text, strlen(text), 0, out);
}

static bool parse_number(const ynode *n, double *out)
{
    n = R(n);
    return n->kind == YN_SCALAR && n->style == YAML_PLAIN_SCALAR_STYLE && parse_number_text(n->text, out);
}

/* The number at v (a field's value; `unit` its kp_field_unit, for the message about a figure
 * written with its unit). false with the error added. */
static bool number_value(bctx *b, const ynode *v, const char *where, const char *key, kp_numrule rule,
                         char unit, double *out)
{
    double x;
    if (!parse_number(v, &x)) {
        const ynode *r = R(v);
        if (r->kind == YN_SCALAR && r->style != YAML_PLAIN_SCALAR_STYLE && parse_number_text(r->text, &x))
            diags_add(b->d, KP_TYPE, LOC(v),
                      _("%s: '%s' is the quoted text '%s'; expected a number without quotes"), where, key,
                      r->text);
        else if (r->kind == YN_SCALAR && unit == 'r' && syn_figure(r->text, 'r', &x))
            /* a rate with its unit ("1/day"): the file's rates are requests a second */
            diags_add(b->d, KP_TYPE, LOC(v),
                      _("%s: '%s' is '%s'; expected a number of requests a second ('%s' is %.3g a second)"),
                      where, key, r->text, r->text, x);
        else if (r->kind == YN_SCALAR && unit == 'l' && syn_figure(r->text, 'l', &x))
            diags_add(b->d, KP_TYPE, LOC(v),
                      _("%s: '%s' is '%s'; expected a number of milliseconds ('%s' is %.6g ms)"), where, key,
                      r->text, r->text, x);
        else if (r->kind == YN_SCALAR)
            diags_add(b->d, KP_TYPE, LOC(v), _("%s: '%s' is '%s'; expected a number"), where, key, r->text);
        else
            type_error(b, v, where, key, _("a number"));
        return false;
    }
    const char *want = NULL;
    if (rule == KP_NUM_NONNEG && x < 0)
        want = _("a number >= 0");
    else if ((rule == KP_NUM_SHARE || rule == KP_NUM_UTIL) && (x < 0 || x > 1))
        want = _("a share between 0 and 1");
    else if (rule == KP_NUM_GE1 && x < 1)
        want = _("a number >= 1");
    else if (rule == KP_NUM_INT_POS && (x < 1 || x != floor(x) || x > 1000000))
        want = _("a whole number >= 1");
    if (want) {
        diags_add(b->d, KP_RANGE, LOC(v), _("%s: '%s' is %s; expected %s"), where, key, R(v)->text, want);
        return false;
    }
    *out = x;
    return true;
}

static void get_num(bctx *b, const ynode *map, const kp_field *f, const char *where, double *out)
{
    const ynode *v = get(map, f->key);
    if (v)
        number_value(b, v, where, f->key, f->num, kp_field_unit(f), out);
}

static bool bool_text(const char *s, bool *out)
{
    static const char *const t[] = {"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"};
    static const char *const f[] = {"false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"};
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        if (!strcmp(s, t[i]))
            return *out = true, true;
        if (!strcmp(s, f[i]))
            return *out = false, true;
    }
    return false;
}

static void get_tristate(bctx *b, const ynode *map, const char *key, const char *where, kp_tristate *out)
{
    const ynode *v = get(map, key);
    if (!v)
        return;
    const ynode *r = R(v);
    bool x;
    if (r->kind != YN_SCALAR || r->style != YAML_PLAIN_SCALAR_STYLE || !bool_text(r->text, &x)) {
        if (r->kind == YN_SCALAR)
            diags_add(b->d, KP_TYPE, LOC(v), _("%s: '%s' is '%s'; expected true or false"), where, key,
                      r->text);
        else
            type_error(b, v, where, key, _("true or false"));
        return;
    }
    *out = x ? KP_TRUE : KP_FALSE;
}

/* A word of an enum; returns its value or -1 (diagnosed when present). */
static int get_enum(bctx *b, const ynode *map, const char *key, const char *where, const kp_words *words)
{
    const ynode *v = get(map, key);
    if (!v)
        return -1;
    const char *s = scalar(b, v, where, key);
    if (!s)
        return -1;
    int k = kp_word_find(words, s);
    if (k >= 0)
        return k;
    const char *names[KP_WORDS_MAX];
    size_t n = kp_words_all(words, names);
    sbuf e;
    sbuf_init(&e);
    /* TRANSLATORS: joins the last two names of a list: "a, b or c" */
    kp_words_join(words, &e, ", ", _(" or "));
    const char *dym = util_did_you_mean(s, names, n);
    if (dym)
        diags_add(b->d, KP_INVALID, LOC(v), _("%s: unknown %s '%s' (did you mean '%s'?); expected %s"), where,
                  key, s, dym, e.s);
    else
        diags_add(b->d, KP_INVALID, LOC(v), _("%s: unknown %s '%s'; expected %s"), where, key, s, e.s);
    sbuf_free(&e);
    return -1;
}

/* A list of names (kp_str). A missing key leaves the list empty. */
static void get_names(bctx *b, const ynode *map, const char *key, const char *where, kp_str **out,
                      size_t *nout)
{
    const ynode *v = get(map, key);
    if (!v)
        return;
    const ynode *r = R(v);
    if (r->kind != YN_SEQ) {
        type_error(b, v, where, key, _("a list of names such as [a, b]"));
        return;
    }
    size_t cap = 0;
    for (size_t i = 0; i < r->n; i++) {
        const char *s = scalar(b, r->kids[i], where, key);
        if (!s)
            continue;
        VEC_GROW(*out, *nout, cap);
        (*out)[(*nout)++] = str_make(s, LOC(r->kids[i]));
    }
}

static const ynode *get_map(bctx *b, const ynode *map, const char *key, const char *where,
                            const char *expected)
{
    const ynode *v = get(map, key);
    if (!v)
        return NULL;
    if (R(v)->kind != YN_MAP) {
        type_error(b, v, where, key, expected);
        return NULL;
    }
    return R(v);
}

static const ynode *get_seq(bctx *b, const ynode *map, const char *key, const char *where,
                            const char *expected)
{
    const ynode *v = get(map, key);
    if (!v)
        return NULL;
    if (R(v)->kind != YN_SEQ) {
        type_error(b, v, where, key, expected);
        return NULL;
    }
    return R(v);
}

/* ---- the records as the file writes them ------------------------------------------------- */

/* What the file says about a record besides its fields (model/fields.h): how messages name an
 * element (by position, then by its label field once read), what a wrong value is told to be,
 * how a list of them is described, and whether it is saved as a flow map. */
typedef struct yrec {
    const kp_record *rec;
    const char *pos_fmt;   /* "index %zu" (position from 1) */
    const char *named_fmt; /* "index '%s'" with the label, or NULL */
    const char *map_hint;  /* what a value that is not a map should have been */
    const char *list_hint; /* what a design-level value that is not a list should have been */
    void (*init)(void *);
    bool flow;
} yrec;

static void index_init_(void *x) { index_init(x); }
static void entity_init_(void *x) { entity_init(x); }
static void pattern_init_(void *x) { pattern_init(x); }
static void decision_init_(void *x) { decision_init(x); }

static const yrec Y_TABLE = {
    &kp_rec_table, N_("table"), NULL, N_("a map with name, pk, sk, billing, streams, pitr"),
    NULL,          NULL,        false};
static const yrec Y_INDEX = {&kp_rec_index,
                             N_("index %zu"),
                             N_("index '%s'"),
                             N_("a map with name, pk, sk, projection"),
                             N_("a list of indexes"),
                             index_init_,
                             false};
static const yrec Y_ATTR = {&kp_rec_attr, N_("attribute '%s'"),
                            NULL,         N_("a map such as { type: number, distinct: 1000 }"),
                            NULL,         NULL,
                            true};
static const yrec Y_ENTITY = {&kp_rec_entity,
                              N_("entity %zu"),
                              N_("entity '%s'"),
                              N_("a map with name, count, size, attributes, keys"),
                              N_("a list of entities"),
                              entity_init_,
                              false};
static const yrec Y_PATTERN = {&kp_rec_pattern,
                               N_("pattern #%zu"),
                               N_("pattern %s"),
                               N_("a map with id, name, entity, by, rate"),
                               N_("a list of access patterns"),
                               pattern_init_,
                               false};
static const yrec Y_ALERT = {
    &kp_rec_alert, N_("alert %zu"), NULL, N_("a map with name, metric, when"), N_("a list of alerts"), NULL,
    true};
static const yrec Y_PRICING = {&kp_rec_pricing,
                               N_("pricing"),
                               NULL,
                               N_("a map of prices such as read_per_million: 0.125"),
                               NULL,
                               NULL,
                               false};
static const yrec Y_ALTERNATIVE = {&kp_rec_alternative,
                                   N_("%s, alternative %zu"),
                                   NULL,
                                   N_("a map { option: ..., why_not: ... }"),
                                   N_("a list of { option: ..., why_not: ... }"),
                                   NULL,
                                   false};
static const yrec Y_DECISION = {&kp_rec_decision,
                                N_("decision #%zu"),
                                N_("decision %s"),
                                N_("a map with id, title, status, context, decision"),
                                N_("a list of decisions"),
                                decision_init_,
                                false};

static const yrec *const YRECS[] = {&Y_TABLE, &Y_INDEX,   &Y_ATTR,        &Y_ENTITY,  &Y_PATTERN,
                                    &Y_ALERT, &Y_PRICING, &Y_ALTERNATIVE, &Y_DECISION};

static const yrec *yrec_of(const kp_record *rec)
{
    for (size_t i = 0; i < sizeof YRECS / sizeof *YRECS; i++)
        if (YRECS[i]->rec == rec)
            return YRECS[i];
    return NULL;
}

/* true when the field has a key of its own in the file */
static bool keyed(const kp_field *f) { return !(f->flags & KP_F_HIDDEN) && f->kind != KF_FLAG; }

/* Checks a mapping's keys against the record's: scalars, known, each once. */
static void check_record_keys(bctx *b, const ynode *map, const char *where, const kp_record *rec)
{
    const char *keys[64];
    size_t n = 0;
    for (size_t i = 0; i < rec->n && n < 64; i++)
        if (keyed(&rec->f[i]))
            keys[n++] = rec->f[i].key;
    check_keys(b, map, where, keys, n);
}

static void build_record(bctx *b, const yrec *y, const ynode *v, char *w, void *r);

/* Reads a field of a plain kind. */
static void build_field(bctx *b, const ynode *m, const char *w, const kp_field *f, void *r)
{
    void *p = kp_fptr(r, f);
    switch (f->kind) {
    case KF_TEXT:
        get_text(b, m, f->key, w, p);
        break;
    case KF_REF:
        get_ref(b, m, f->key, w, p);
        break;
    case KF_NUM:
        get_num(b, m, f, w, p);
        break;
    case KF_INT: {
        double x = NAN;
        get_num(b, m, f, w, &x);
        if (!isnan(x))
            *(int *)p = (int)x;
        break;
    }
    case KF_ENUM: {
        int k = get_enum(b, m, f->key, w, f->words);
        if (k >= 0) {
            *(int *)p = k;
            if (f->flags & KP_F_GIVEN)
                *(bool *)kp_fptr(r, f + 1) = true;
        }
        break;
    }
    case KF_TRI:
        get_tristate(b, m, f->key, w, p);
        break;
    case KF_REFS:
        get_names(b, m, f->key, w, p, (size_t *)((char *)r + f->count_off));
        break;
    case KF_TEXTS: {
        const ynode *as = get_seq(b, m, f->key, w, _("a list of statements"));
        if (!as)
            break;
        char **v = as->n ? xcalloc(as->n, sizeof *v) : NULL;
        size_t *n = (size_t *)((char *)r + f->count_off);
        *(char ***)p = v;
        for (size_t i = 0; i < as->n; i++) {
            const char *s = scalar(b, as->kids[i], w, f->key);
            if (s)
                v[(*n)++] = xstrdup(s);
        }
        break;
    }
    case KF_RECS: {
        const yrec *y = yrec_of(f->sub);
        const ynode *l = get_seq(b, m, f->key, w, _(y->list_hint));
        if (!l)
            break;
        char *v = l->n ? xcalloc(l->n, f->sub->size) : NULL;
        size_t *n = (size_t *)((char *)r + f->count_off);
        *(char **)p = v;
        for (size_t i = 0; i < l->n; i++) {
            void *e = v + (*n)++ * f->sub->size;
            if (y->init)
                y->init(e);
            *kp_rloc(f->sub, e) = LOC(l->kids[i]);
            build_record(b, y, l->kids[i], xasprintf(_(y->pos_fmt), i + 1), e);
        }
        break;
    }
    default:
        break;
    }
}

/* ---- fields with a syntax of their own ----------------------------------------------------- */

static void build_skew(bctx *b, const ynode *m, const char *w, kp_attr *a)
{
    const ynode *sk = get(m, "skew");
    if (!sk)
        return;
    const char *s = scalar(b, sk, w, "skew");
    if (!s)
        return;
    double z;
    const char *zs = s + 5;
    while (!strncmp(s, "zipf:", 5) && isspace((unsigned char)*zs))
        zs++; /* "zipf: 1.1" */
    if (!strcmp(s, "uniform"))
        a->zipf = 0;
    else if (!strncmp(s, "zipf:", 5) && syn_number(zs, strlen(zs), 0, &z) && z >= 0)
        a->zipf = z;
    else
        diags_add(b->d, KP_INVALID, LOC(sk),
                  _("%s: skew '%s' is not understood; expected \"zipf:S\" with S >= 0 "
                    "(e.g. \"zipf:1.1\") or \"uniform\""),
                  w, s);
}

static void build_values(bctx *b, const ynode *m, const char *w, kp_attr *a)
{
    const ynode *vals = get_map(b, m, "values", w, _("a map of value: share"));
    if (!vals)
        return;
    a->values = vals->n ? xcalloc(vals->n / 2, sizeof *a->values) : NULL;
    for (size_t i = 0; i + 1 < vals->n; i += 2) {
        const char *name = scalar(b, vals->kids[i], w, "values");
        if (!name)
            continue;
        kp_enum_value *ev = &a->values[a->nvalues];
        ev->share = NAN;
        ev->write_share = NAN;
        char *key2 = xasprintf("values.%s", name);
        /* a bad share stays NAN (reported here; validation skips the sum then) */
        number_value(b, vals->kids[i + 1], w, key2, KP_NUM_SHARE, 0, &ev->share);
        ev->name = xstrdup(name);
        ev->loc = LOC(vals->kids[i]);
        a->nvalues++;
        free(key2);
    }
}

static void build_write_shares(bctx *b, const ynode *m, const char *w, kp_attr *a)
{
    const ynode *ws = get_map(b, m, "write_shares", w, _("a map of value: share of the writes"));
    if (!ws)
        return;
    for (size_t i = 0; i + 1 < ws->n; i += 2) {
        const char *name = scalar(b, ws->kids[i], w, "write_shares");
        if (!name)
            continue;
        kp_enum_value *ev = NULL;
        for (size_t k = 0; k < a->nvalues; k++)
            if (!strcmp(a->values[k].name, name))
                ev = &a->values[k];
        if (!ev) {
            const char **cands = xcalloc(a->nvalues + 1, sizeof *cands);
            for (size_t k = 0; k < a->nvalues; k++)
                cands[k] = a->values[k].name;
            const char *dym = util_did_you_mean(name, cands, a->nvalues);
            if (dym)
                diags_add(
                    b->d, KP_UNKNOWN_REF, LOC(ws->kids[i]),
                    _("%s: write_shares names '%s', which is not one of its values (did you mean '%s'?)"), w,
                    name, dym);
            else
                diags_add(b->d, KP_UNKNOWN_REF, LOC(ws->kids[i]),
                          _("%s: write_shares names '%s'; expected one of the values listed under 'values'"),
                          w, name);
            free(cands);
            continue;
        }
        char *key2 = xasprintf("write_shares.%s", name);
        number_value(b, ws->kids[i + 1], w, key2, KP_NUM_SHARE, 0, &ev->write_share);
        free(key2);
    }
}

static void build_format(bctx *b, const ynode *m, const char *w, kp_attr *a)
{
    const ynode *f = get(m, "format");
    if (!f)
        return;
    const char *s = scalar(b, f, w, "format");
    if (!s)
        return;
    bool ok = *s != '\0' && strlen(s) <= 3;
    for (const char *p = s; *p; p++)
        if (!isdigit((unsigned char)*p))
            ok = false;
    if (ok)
        a->format = xstrdup(s);
    else
        diags_add(b->d, KP_INVALID, LOC(f),
                  _("%s: format '%s' is not a width; expected one to three digits such as \"03\""), w, s);
}

static void build_keys(bctx *b, const ynode *m, const char *w, kp_entity *e)
{
    const ynode *keys = get_map(b, m, "keys", w, _("a map of key attribute: template"));
    if (!keys)
        return;
    e->keys = keys->n ? xcalloc(keys->n / 2, sizeof *e->keys) : NULL;
    for (size_t i = 0; i + 1 < keys->n; i += 2) {
        const char *ka = scalar(b, keys->kids[i], w, "keys");
        if (!ka)
            continue;
        const ynode *tv = keys->kids[i + 1];
        const ynode *tr = R(tv);
        char *kw = xasprintf(_("%s, key %s"), w, ka);
        char *err = NULL;
        size_t off = 0;
        kp_keytpl *kt = &e->keys[e->nkeys];
        bool text = tr->kind == YN_SCALAR && !is_null(tv);
        if (!text)
            type_error(b, tv, kw, NULL, _("a template such as \"ORDER#{orderId}\""));
        if (!text || tpl_parse(tr->text, &kt->tpl, &err, &off) != KP_OK) {
            kp_loc at = tv->kind == YN_ALIAS ? LOC(tv) : scalar_loc_at(b->y, tr, off);
            if (text)
                diags_add(b->d, KP_TEMPLATE, at, _("%s: broken template \"%s\": %s"), kw, tr->text, err);
            free(err);
            /* keep the key (empty template) so that validation does not also report it missing */
            memset(&kt->tpl, 0, sizeof kt->tpl);
        }
        kt->attr = str_make(ka, LOC(keys->kids[i]));
        kt->loc = LOC(tv);
        e->nkeys++;
        free(kw);
    }
}

/* "status = x", "status != x", "status in [a, b]" (syn_condition_parse) into sp, the places of
 * the attribute and the values taken from their offsets in the scalar. */
static bool parse_condition(bctx *b, const ynode *n, const char *s, kp_sparse *sp, char **err)
{
    syn_cond c;
    if (syn_condition_parse(s, strlen(s), &c, err, NULL) != KP_OK)
        return false;
    sp->kind = KP_SPARSE_COND;
    sp->op = c.op;
    char *an = syn_name(s, c.attr);
    sp->cond_attr = str_make(an, scalar_loc_at(b->y, n, c.attr.at));
    free(an);
    sp->values = xcalloc(c.nvalues, sizeof *sp->values);
    for (size_t i = 0; i < c.nvalues; i++) {
        char *val = xstrndup(s + c.values[i].at, c.values[i].len);
        sp->values[sp->nvalues++] = str_make(val, scalar_loc_at(b->y, n, c.values[i].at));
        free(val);
    }
    syn_cond_free(&c);
    return true;
}

static void build_sparse(bctx *b, const ynode *m, const char *w, kp_entity *e)
{
    const ynode *sp = get_map(b, m, "sparse", w, _("a map of key attribute: condition or share"));
    if (!sp)
        return;
    e->sparse = sp->n ? xcalloc(sp->n / 2, sizeof *e->sparse) : NULL;
    for (size_t i = 0; i + 1 < sp->n; i += 2) {
        const char *ka = scalar(b, sp->kids[i], w, "sparse");
        if (!ka)
            continue;
        const ynode *cv = sp->kids[i + 1];
        const ynode *cr = R(cv);
        char *kw = xasprintf(_("%s, sparse %s"), w, ka);
        kp_sparse *s = &e->sparse[e->nsparse];
        memset(s, 0, sizeof *s);
        double share;
        if (cr->kind == YN_SCALAR && parse_number(cv, &share)) {
            if (share < 0 || share > 1) {
                diags_add(b->d, KP_RANGE, LOC(cv),
                          _("%s: share %s is out of range; expected a share between 0 and 1"), kw, cr->text);
                free(kw);
                continue;
            }
            s->kind = KP_SPARSE_SHARE;
            s->share = share;
        } else if (cr->kind == YN_SCALAR && !is_null(cv)) {
            char *err = NULL;
            if (!parse_condition(b, cr, cr->text, s, &err)) {
                diags_add(
                    b->d, KP_INVALID, LOC(cv),
                    _("%s: condition \"%s\" is not understood: %s "
                      "(\"status = x\", \"status != x\", \"status in [a, b]\" or a share such as 0.05)"),
                    kw, cr->text, err);
                free(err);
                free(kw);
                continue;
            }
            s->share = NAN;
        } else {
            type_error(b, cv, kw, NULL, _("a condition such as \"status = x\" or a share such as 0.05"));
            free(kw);
            continue;
        }
        s->attr = str_make(ka, LOC(sp->kids[i]));
        s->src = xstrdup(cr->text);
        s->loc = LOC(cv);
        e->nsparse++;
        free(kw);
    }
}

static void build_entity_ref(bctx *b, const ynode *m, const char *w, kp_pattern *p)
{
    const ynode *ent = get(m, "entity"), *ents = get(m, "entities");
    if (ent && ents)
        diags_add(b->d, KP_INVALID, LOC(key_node(m, "entities")),
                  _("%s: both 'entity' and 'entities' are given; expected one of them"), w);
    if (ent) {
        const char *s = scalar(b, ent, w, "entity");
        if (s) {
            p->entities = xcalloc(1, sizeof *p->entities);
            p->entities[0] = str_make(s, LOC(ent));
            p->nentities = 1;
        }
    } else if (ents) {
        get_names(b, m, "entities", w, &p->entities, &p->nentities);
        p->multi_form = true;
    }
}

static void build_by(bctx *b, const ynode *m, const char *w, kp_pattern *p)
{
    const ynode *by =
        get_seq(b, m, "by", w, _("a list such as [customerId] or [\"status=pending-shipment\"]"));
    if (!by)
        return;
    p->by = by->n ? xcalloc(by->n, sizeof *p->by) : NULL;
    for (size_t i = 0; i < by->n; i++) {
        const char *s = scalar(b, by->kids[i], w, "by");
        if (!s)
            continue;
        syn_by sb;
        bool ok = syn_by_parse(s, strlen(s), &sb, NULL) == KP_OK;
        if (!ok && !sb.attr.len) {
            diags_add(b->d, KP_INVALID, LOC(by->kids[i]),
                      _("%s: 'by' element \"%s\" names no attribute; "
                        "expected an attribute such as customerId or status=pending-shipment"),
                      w, s);
            continue;
        }
        if (!ok) {
            diags_add(b->d, KP_INVALID, LOC(by->kids[i]),
                      _("%s: 'by' element \"%s\" has no value after '='; "
                        "expected attribute=value"),
                      w, s);
            continue;
        }
        kp_by *e = &p->by[p->nby];
        char *an = syn_name(s, sb.attr);
        kp_loc al = by->kids[i]->kind == YN_ALIAS ? LOC(by->kids[i])
                                                  : scalar_loc_at(b->y, R(by->kids[i]), sb.attr.at);
        if (sb.has_value)
            e->value = xstrndup(s + sb.value.at, sb.value.len);
        e->attr = str_make(an, al);
        free(an);
        p->nby++;
    }
}

static void build_order(bctx *b, const ynode *m, const char *w, kp_pattern *p)
{
    const ynode *ord = get(m, "order");
    if (!ord)
        return;
    const char *s = scalar(b, ord, w, "order");
    if (!s)
        return;
    syn_span at;
    if (syn_order_parse(s, strlen(s), &at, &p->order_desc, NULL) == KP_OK) {
        char *an = syn_name(s, at);
        p->order = str_make(an, ord->kind == YN_ALIAS ? LOC(ord) : scalar_loc_at(b->y, R(ord), at.at));
        free(an);
    } else {
        p->order_desc = false;
        diags_add(b->d, KP_INVALID, LOC(ord),
                  _("%s: order \"%s\" is not understood; expected an attribute "
                    "and asc or desc, such as \"orderDate desc\""),
                  w, s);
    }
}

static void build_join(bctx *b, const ynode *m, const char *w, kp_pattern *p)
{
    const ynode *jn = get_map(b, m, "join", w, _("a map such as { username: followingUsername }"));
    if (!jn)
        return;
    p->join = jn->n ? xcalloc(jn->n / 2, sizeof *p->join) : NULL;
    for (size_t i = 0; i + 1 < jn->n; i += 2) {
        const char *to = scalar(b, jn->kids[i], w, "join");
        const char *from = to ? scalar(b, jn->kids[i + 1], w, "join") : NULL;
        if (!to || !from)
            continue;
        p->join[p->njoin].to = str_make(to, LOC(jn->kids[i]));
        p->join[p->njoin].from = str_make(from, LOC(jn->kids[i + 1]));
        p->njoin++;
    }
}

static void build_alternatives(bctx *b, const ynode *m, const char *w, kp_decision *d)
{
    const ynode *alts = get_seq(b, m, "alternatives", w, _(Y_ALTERNATIVE.list_hint));
    if (!alts)
        return;
    d->alternatives = alts->n ? xcalloc(alts->n, sizeof *d->alternatives) : NULL;
    for (size_t i = 0; i < alts->n; i++) {
        /* an element that is not a map is reported and left out */
        if (R(alts->kids[i])->kind != YN_MAP) {
            char *aw = xasprintf(_(Y_ALTERNATIVE.pos_fmt), w, i + 1);
            type_error(b, alts->kids[i], aw, NULL, _(Y_ALTERNATIVE.map_hint));
            free(aw);
            continue;
        }
        kp_alternative *a = &d->alternatives[d->nalternatives++];
        a->loc = LOC(alts->kids[i]);
        build_record(b, &Y_ALTERNATIVE, alts->kids[i], xasprintf(_(Y_ALTERNATIVE.pos_fmt), w, i + 1), a);
    }
}

static void build_signals(bctx *b, const ynode *m, const char *w, kp_decision *d)
{
    const ynode *sg = get_seq(b, m, "signals", w, _("a list such as [\"pattern.5.rate > 50\"]"));
    if (!sg)
        return;
    d->signals = sg->n ? xcalloc(sg->n, sizeof *d->signals) : NULL;
    for (size_t i = 0; i < sg->n; i++) {
        const char *s = scalar(b, sg->kids[i], w, "signals");
        if (!s)
            continue;
        char *err = NULL;
        kp_signal *g = &d->signals[d->nsignals];
        if (signal_parse(s, g, &err) != KP_OK) {
            diags_add(b->d, KP_SIGNAL, LOC(sg->kids[i]), _("%s: bad signal \"%s\": %s"), w, s, err);
            free(err);
            continue;
        }
        g->loc = LOC(sg->kids[i]);
        d->nsignals++;
    }
}

/* Reads a KP_F_CUSTOM field. */
static void build_custom(bctx *b, const kp_record *rec, size_t id, const ynode *m, const char *w, void *r)
{
    if (rec == &kp_rec_attr) {
        switch (id) {
        case FA_SKEW:
            build_skew(b, m, w, r);
            return;
        case FA_VALUES:
            build_values(b, m, w, r);
            return;
        case FA_WRITE_SHARES:
            build_write_shares(b, m, w, r);
            return;
        case FA_FORMAT:
            build_format(b, m, w, r);
            return;
        }
    } else if (rec == &kp_rec_entity) {
        switch (id) {
        case FE_KEYS:
            build_keys(b, m, w, r);
            return;
        case FE_SPARSE:
            build_sparse(b, m, w, r);
            return;
        }
    } else if (rec == &kp_rec_pattern) {
        switch (id) {
        case FP_ENTITY:
            build_entity_ref(b, m, w, r);
            return;
        case FP_ENTITIES:
            return; /* read with entity */
        case FP_BY:
            build_by(b, m, w, r);
            return;
        case FP_ORDER:
            build_order(b, m, w, r);
            return;
        case FP_JOIN:
            build_join(b, m, w, r);
            return;
        }
    } else if (rec == &kp_rec_decision) {
        switch (id) {
        case FD_ALTERNATIVES:
            build_alternatives(b, m, w, r);
            return;
        case FD_SIGNALS:
            build_signals(b, m, w, r);
            return;
        }
    }
    /* a custom field without a reader here is left unread: tests/test_fields.c fails on it */
}

/* Reads the record at r (initialised, its place set) from v: its label first (naming it in the
 * messages from then on), its keys checked, then each field in table order. Frees w. */
static void build_record(bctx *b, const yrec *y, const ynode *v, char *w, void *r)
{
    const kp_record *rec = y->rec;
    const ynode *m = R(v);
    if (m->kind != YN_MAP) {
        type_error(b, v, w, NULL, _(y->map_hint));
        free(w);
        return;
    }
    size_t label = rec->n;
    for (size_t i = 0; i < rec->n; i++)
        if ((rec->f[i].flags & KP_F_LABEL) && keyed(&rec->f[i])) {
            label = i;
            build_field(b, m, w, &rec->f[i], r);
            char *name = *(char **)kp_fptr(r, &rec->f[i]);
            if (name && y->named_fmt) {
                free(w);
                w = xasprintf(_(y->named_fmt), name);
            }
        }
    check_record_keys(b, m, w, rec);
    for (size_t i = 0; i < rec->n; i++) {
        const kp_field *f = &rec->f[i];
        if (i == label || !keyed(f))
            continue;
        if (f->flags & KP_F_CUSTOM)
            build_custom(b, rec, i, m, w, r);
        else
            build_field(b, m, w, f, r);
    }
    free(w);
}

/* ---- the document ---------------------------------------------------------------------- */

static void build_attributes(bctx *b, const ynode *m, kp_design *d)
{
    const ynode *at =
        get_map(b, m, "attributes", _("design"), _("a map of attribute name: { type, distinct, ... }"));
    if (!at)
        return;
    d->attrs = at->n ? xcalloc(at->n / 2, sizeof *d->attrs) : NULL;
    for (size_t i = 0; i + 1 < at->n; i += 2) {
        const ynode *key = at->kids[i], *v = at->kids[i + 1];
        if (R(key)->kind != YN_SCALAR) {
            type_error(b, key, "attributes", NULL, _("an attribute name"));
            continue;
        }
        kp_attr *a = &d->attrs[d->nattrs++];
        attr_init(a);
        a->name = xstrdup(R(key)->text);
        a->loc = LOC(key);
        if (!is_null(v)) /* "attr:" alone is a string attribute with nothing known */
            build_record(b, &Y_ATTR, v, xasprintf(_(Y_ATTR.pos_fmt), a->name), a);
    }
}

static kp_design *build_design(bctx *b, const ynode *root)
{
    const ynode *m = R(root);
    if (m->kind != YN_MAP) {
        type_error(b, root, _("the design"), NULL, _("a map starting with 'keyplan: 1'"));
        return NULL;
    }
    const ynode *ver = get(m, "keyplan");
    if (!ver) {
        diags_add(b->d, KP_VERSION, LOC(root),
                  _("the format version 'keyplan:' is missing; expected 'keyplan: %d' "
                    "as the first key"),
                  KP_FORMAT_VERSION);
        return NULL;
    }
    const ynode *vr = R(ver);
    if (vr->kind != YN_SCALAR || strcmp(vr->text, "1") != 0) {
        if (vr->kind == YN_SCALAR)
            diags_add(b->d, KP_VERSION, LOC(ver),
                      _("unsupported format version '%s'; expected 'keyplan: %d'"), vr->text,
                      KP_FORMAT_VERSION);
        else
            diags_add(b->d, KP_VERSION, LOC(ver), _("the format version is %s; expected 'keyplan: %d'"),
                      kind_word(ver), KP_FORMAT_VERSION);
        return NULL;
    }
    kp_design *d = design_new();
    check_record_keys(b, m, _("design"), &kp_rec_design);
    for (size_t i = 0; i < kp_rec_design.n; i++) {
        const kp_field *f = &kp_rec_design.f[i];
        switch (i) {
        case FW_VERSION:
            break; /* checked above */
        case FW_TABLE: {
            const ynode *t = get(m, "table");
            d->table.loc = LOC(t ? t : root); /* without a table, validation's complaints land there */
            if (t)
                build_record(b, &Y_TABLE, t, xstrdup(_(Y_TABLE.pos_fmt)), &d->table);
            else
                diags_add(b->d, KP_MISSING_KEY, LOC(root),
                          _("design: 'table' is missing; expected a table with name and pk"));
            break;
        }
        case FW_ATTRIBUTES:
            build_attributes(b, m, d);
            break;
        case FW_PRICING: {
            const ynode *pr = get(m, "pricing");
            if (!pr)
                break;
            d->pricing.loc = LOC(pr);
            d->pricing.given = R(pr)->kind == YN_MAP;
            build_record(b, &Y_PRICING, pr, xstrdup(_(Y_PRICING.pos_fmt)), &d->pricing);
            break;
        }
        default:
            build_field(b, m, _("design"), f, d);
            break;
        }
    }
    return d;
}

/* Runs validation and appends its diagnostics, except errors at a place where the loader
 * already reported one (the same mistake seen twice: a wrong type, then a missing name). */
static void validate_merged(const kp_design *d, kp_diags *diags, size_t first)
{
    kp_diags v;
    diags_init(&v, NULL);
    validate_design(d, &v);
    size_t loader_n = diags->n;
    for (size_t i = 0; i < v.n; i++) {
        const kp_diag *g = &v.v[i];
        bool dup = false;
        for (size_t k = first; k < loader_n && g->loc.line > 0 && !dup; k++)
            dup = diags->v[k].sev == KP_SEV_ERROR && diags->v[k].loc.line == g->loc.line &&
                  diags->v[k].loc.col == g->loc.col;
        if (dup)
            continue;
        if (g->sev == KP_SEV_ERROR)
            diags_add(diags, g->code, g->loc, "%s", g->msg);
        else
            diags_warn(diags, g->code, g->loc, "%s", g->msg);
    }
    diags_free(&v);
    /* file order (stable; diagnostics without a place first) */
    for (size_t i = first + 1; i < diags->n; i++) {
        kp_diag g = diags->v[i];
        size_t k = i;
        while (k > first &&
               (diags->v[k - 1].loc.line > g.loc.line ||
                (diags->v[k - 1].loc.line == g.loc.line && diags->v[k - 1].loc.col > g.loc.col))) {
            diags->v[k] = diags->v[k - 1];
            k--;
        }
        diags->v[k] = g;
    }
}

kp_design *designio_load_string(const char *text, size_t len, const char *name, kp_diags *diags)
{
    if (!diags->file)
        diags->file = xstrdup(name ? name : "design.yaml");
    size_t before = diags->errors;
    size_t first = diags->n;
    yctx c;
    memset(&c, 0, sizeof c);
    c.text = text ? text : "";
    c.len = text ? len : 0;
    c.diags = diags;
    const ynode *root = parse_tree(&c);
    kp_design *d = NULL;
    if (root) {
        bctx b = {&c, diags};
        d = build_design(&b, root);
        if (d)
            validate_merged(d, diags, first);
    }
    yctx_free(&c);
    if (d && diags->errors > before) {
        design_free(d);
        d = NULL;
    }
    return d;
}

kp_design *designio_load_file(const char *path, kp_diags *diags)
{
    if (!diags->file)
        diags->file = xstrdup(path);
    char *err = NULL;
    size_t len = 0;
    char *text = fileio_read(path, &len, &err);
    if (!text) {
        const char *why = fileio_reason(path, err);
        if (strchr(why, ';')) /* the reason already says what was expected, in any language */
            diags_add(diags, KP_IO, (kp_loc){0, 0}, "%s", why);
        else
            /* TRANSLATORS: %s is why the file cannot be read ("design.yaml: no such file") */
            diags_add(diags, KP_IO, (kp_loc){0, 0}, _("%s; expected a readable design file"), why);
        free(err);
        return NULL;
    }
    kp_design *d = designio_load_string(text, len, path, diags);
    free(text);
    return d;
}

/* ==========================================================================================
 * Canonical save
 * ========================================================================================== */

typedef yamlout em;

/* true when a plain scalar with this text would read back as something other than text in
 * YAML 1.1/1.2 tools (null, a boolean, a number). */
static bool looks_typed(const char *s)
{
    /* every typed text starts with one of these (null, the booleans, inf and nan as strtod reads
       them) or with a character that is not a letter: most names and keys need no more look */
    unsigned char c = (unsigned char)*s;
    if (((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) && !strchr("nNtTfFyYoOiI", c))
        return false;
    if (!*s || !strcmp(s, "~") || !strcasecmp(s, "null"))
        return true;
    bool bv;
    if (bool_text(s, &bv) || !strcmp(s, "y") || !strcmp(s, "n") || !strcmp(s, "Y") || !strcmp(s, "N"))
        return true;
    char *end;
    (void)strtod(s, &end);
    if (end != s && *end == '\0')
        return true;
    const char *t = s;
    if (*t == '+' || *t == '-')
        t++;
    if (!strcasecmp(t, ".inf") || !strcasecmp(t, ".nan") || !strncmp(t, "0x", 2) || !strncmp(t, "0o", 2))
        return true;
    return false;
}

typedef enum sstyle { S_TEXT, S_ID, S_QUOTED, S_RAW } sstyle;

static void em_scalar(em *m, const char *s, sstyle st)
{
    if (!s)
        s = ""; /* a name missing in a design under construction */
    yaml_scalar_style_t ys = YAML_ANY_SCALAR_STYLE;
    if (st == S_QUOTED)
        ys = YAML_DOUBLE_QUOTED_SCALAR_STYLE;
    else if (st == S_TEXT && looks_typed(s))
        ys = YAML_DOUBLE_QUOTED_SCALAR_STYLE;
    else if (st == S_ID && (!*s || !strcmp(s, "~") || !strcasecmp(s, "null")))
        ys = YAML_DOUBLE_QUOTED_SCALAR_STYLE;
    else if (st == S_RAW)
        ys = YAML_PLAIN_SCALAR_STYLE;
    else if (strchr(s, '\n'))
        ys = YAML_LITERAL_SCALAR_STYLE;
    yamlout_scalar(m, s, ys);
}

static void em_map(em *m, bool flow) { yamlout_map(m, flow); }
static void em_map_end(em *m) { yamlout_map_end(m); }
static void em_seq(em *m, bool flow) { yamlout_seq(m, flow); }
static void em_seq_end(em *m) { yamlout_seq_end(m); }

static void em_key(em *m, const char *k) { em_scalar(m, k, S_TEXT); }

/* The shortest decimal text that reads back as exactly v. */
static void fmt_num(double v, char *buf, size_t n) { syn_number_text(v, buf, n); }

static void kv_text(em *m, const char *k, const char *v, sstyle st)
{
    if (!v)
        return;
    em_key(m, k);
    em_scalar(m, v, st);
}

static void kv_num(em *m, const char *k, double v)
{
    if (isnan(v))
        return;
    char buf[64];
    fmt_num(v, buf, sizeof buf);
    em_key(m, k);
    em_scalar(m, buf, S_RAW);
}

static void kv_bool(em *m, const char *k, bool v)
{
    em_key(m, k);
    em_scalar(m, v ? "true" : "false", S_RAW);
}

static void kv_strs(em *m, const char *k, const kp_str *v, size_t n, sstyle st)
{
    if (!n)
        return;
    em_key(m, k);
    em_seq(m, true);
    for (size_t i = 0; i < n; i++)
        em_scalar(m, v[i].s ? v[i].s : "", st);
    em_seq_end(m);
}

static void save_record(em *m, const yrec *y, const void *r);

/* The signal as written when it still reads as its fields, else regenerated. */
static char *signal_text(const kp_signal *g)
{
    if (g->src) {
        kp_signal t;
        if (signal_parse(g->src, &t, NULL) == KP_OK) {
            bool same = t.metric && g->metric && !strcmp(t.metric, g->metric) && t.cmp == g->cmp &&
                        t.value == g->value;
            free(t.src);
            free(t.metric);
            if (same)
                return xstrdup(g->src);
        }
    }
    char buf[64];
    fmt_num(g->value, buf, sizeof buf);
    return xasprintf("%s %s %s", g->metric ? g->metric : "", kp_cmp_name(g->cmp), buf);
}

static void save_skew(em *m, const kp_attr *a)
{
    if (a->zipf == 0 || isnan(a->zipf))
        return;
    char buf[64], s[80];
    fmt_num(a->zipf, buf, sizeof buf);
    snprintf(s, sizeof s, "zipf:%s", buf);
    kv_text(m, "skew", s, S_QUOTED);
}

/* values, and write_shares when any value has one: flow maps of value: share */
static void save_shares(em *m, const kp_attr *a, bool writes)
{
    bool any = false;
    for (size_t i = 0; i < a->nvalues; i++)
        any |= !writes || !isnan(a->values[i].write_share);
    if (!any)
        return;
    em_key(m, writes ? "write_shares" : "values");
    em_map(m, true);
    for (size_t i = 0; i < a->nvalues; i++)
        kv_num(m, a->values[i].name, writes ? a->values[i].write_share : a->values[i].share);
    em_map_end(m);
}

static void save_keys(em *m, const kp_entity *e)
{
    if (!e->nkeys)
        return;
    em_key(m, "keys");
    em_map(m, false);
    for (size_t i = 0; i < e->nkeys; i++) {
        char *src = e->keys[i].tpl.src ? xstrdup(e->keys[i].tpl.src) : tpl_format(&e->keys[i].tpl);
        kv_text(m, e->keys[i].attr.s, src, S_QUOTED);
        free(src);
    }
    em_map_end(m);
}

static void save_sparse(em *m, const kp_entity *e)
{
    if (!e->nsparse)
        return;
    em_key(m, "sparse");
    em_map(m, false);
    for (size_t i = 0; i < e->nsparse; i++) {
        const kp_sparse *s = &e->sparse[i];
        if (s->kind == KP_SPARSE_SHARE) {
            kv_num(m, s->attr.s, s->share);
        } else {
            sbuf t;
            sbuf_init(&t);
            syn_condition_text(&t, s);
            kv_text(m, s->attr.s, t.s, S_QUOTED);
            sbuf_free(&t);
        }
    }
    em_map_end(m);
}

static void save_entity_ref(em *m, const kp_pattern *p)
{
    if (p->multi_form) {
        /* even when empty: `entities: []` reads back as the multi-entity form */
        em_key(m, "entities");
        em_seq(m, true);
        for (size_t i = 0; i < p->nentities; i++)
            em_scalar(m, p->entities[i].s, S_TEXT);
        em_seq_end(m);
    } else if (p->nentities) {
        kv_text(m, "entity", p->entities[0].s, S_TEXT);
    }
}

static void save_by(em *m, const kp_pattern *p)
{
    if (!p->nby)
        return;
    em_key(m, "by");
    em_seq(m, true);
    for (size_t i = 0; i < p->nby; i++) {
        sbuf s;
        sbuf_init(&s);
        sbuf_add(&s, "");
        syn_by_text(&s, &p->by[i]);
        em_scalar(m, s.s, S_TEXT);
        sbuf_free(&s);
    }
    em_seq_end(m);
}

static void save_order(em *m, const kp_pattern *p)
{
    if (!p->order.s)
        return;
    /* "orderDate asc" reads the same as "orderDate"; the canonical form omits asc */
    sbuf ob;
    sbuf_init(&ob);
    syn_order_text(&ob, p->order.s, p->order_desc);
    kv_text(m, "order", ob.s, S_TEXT);
    sbuf_free(&ob);
}

static void save_join(em *m, const kp_pattern *p)
{
    if (!p->njoin)
        return;
    em_key(m, "join");
    em_map(m, true);
    for (size_t i = 0; i < p->njoin; i++)
        kv_text(m, p->join[i].to.s, p->join[i].from.s, S_TEXT);
    em_map_end(m);
}

static void save_signals(em *m, const kp_decision *d)
{
    if (!d->nsignals)
        return;
    em_key(m, "signals");
    em_seq(m, false);
    for (size_t i = 0; i < d->nsignals; i++) {
        char *s = signal_text(&d->signals[i]);
        em_scalar(m, s, S_QUOTED);
        free(s);
    }
    em_seq_end(m);
}

/* Writes a KP_F_CUSTOM field; false when the field is written as its kind says. */
static bool save_custom(em *m, const kp_record *rec, size_t id, const void *r)
{
    if (rec == &kp_rec_attr) {
        switch (id) {
        case FA_SKEW:
            save_skew(m, r);
            return true;
        case FA_VALUES:
            save_shares(m, r, false);
            return true;
        case FA_WRITE_SHARES:
            save_shares(m, r, true);
            return true;
        case FA_FORMAT:
            return false;
        }
    } else if (rec == &kp_rec_entity) {
        switch (id) {
        case FE_KEYS:
            save_keys(m, r);
            return true;
        case FE_SPARSE:
            save_sparse(m, r);
            return true;
        }
    } else if (rec == &kp_rec_pattern) {
        switch (id) {
        case FP_ENTITY:
            save_entity_ref(m, r);
            return true;
        case FP_ENTITIES:
            return true; /* written with entity */
        case FP_BY:
            save_by(m, r);
            return true;
        case FP_ORDER:
            save_order(m, r);
            return true;
        case FP_JOIN:
            save_join(m, r);
            return true;
        }
    } else if (rec == &kp_rec_decision) {
        switch (id) {
        case FD_ALTERNATIVES:
            return false;
        case FD_SIGNALS:
            save_signals(m, r);
            return true;
        }
    }
    return false;
}

/* Writes a field as its kind says (nothing when it is not given). */
static void save_field(em *m, const kp_field *f, const void *r)
{
    const void *p = kp_fcptr(r, f);
    sstyle st = (f->flags & KP_F_QUOTED) ? S_QUOTED : (f->flags & KP_F_ID) ? S_ID : S_TEXT;
    switch (f->kind) {
    case KF_TEXT:
        kv_text(m, f->key, *(char *const *)p, st);
        break;
    case KF_REF:
        kv_text(m, f->key, ((const kp_str *)p)->s, st);
        break;
    case KF_NUM:
        if (!((f->flags & KP_F_OMIT_ZERO) && *(const double *)p == 0))
            kv_num(m, f->key, *(const double *)p);
        break;
    case KF_INT:
        if (*(const int *)p >= 0)
            kv_num(m, f->key, *(const int *)p);
        break;
    case KF_ENUM: {
        int v = *(const int *)p;
        if ((f->flags & KP_F_OMIT_DEFAULT) && v == 0)
            break;
        if ((f->flags & KP_F_GIVEN) && !*(const bool *)kp_fcptr(r, f + 1))
            break;
        kv_text(m, f->key, kp_word(f->words, v), S_TEXT);
        break;
    }
    case KF_TRI:
        if (*(const int *)p != KP_UNSET)
            kv_bool(m, f->key, *(const int *)p == KP_TRUE);
        break;
    case KF_REFS:
        kv_strs(m, f->key, *(kp_str *const *)p, kp_fcount(r, f), st);
        break;
    case KF_TEXTS: {
        size_t n = kp_fcount(r, f);
        if (!n)
            break;
        char *const *v = *(char **const *)p;
        em_key(m, f->key);
        em_seq(m, false);
        for (size_t i = 0; i < n; i++)
            em_scalar(m, v[i] ? v[i] : "", S_TEXT);
        em_seq_end(m);
        break;
    }
    case KF_REC:
        em_key(m, f->key);
        save_record(m, yrec_of(f->sub), p);
        break;
    case KF_RECS: {
        size_t n = kp_fcount(r, f);
        if (!n)
            break;
        const char *v = *(char *const *)p;
        em_key(m, f->key);
        em_seq(m, false);
        for (size_t i = 0; i < n; i++)
            save_record(m, yrec_of(f->sub), v + i * f->sub->size);
        em_seq_end(m);
        break;
    }
    default:
        break;
    }
}

/* Writes the record as a map of its keyed fields, in table order. */
static void save_record(em *m, const yrec *y, const void *r)
{
    const kp_record *rec = y->rec;
    em_map(m, y->flow);
    for (size_t i = 0; i < rec->n; i++) {
        const kp_field *f = &rec->f[i];
        if (!keyed(f))
            continue;
        if (!(f->flags & KP_F_CUSTOM) || !save_custom(m, rec, i, r))
            save_field(m, f, r);
    }
    em_map_end(m);
}

/* The design's top-level fields [first, last) as designio_save writes them (a block mapping's
 * keys are written the same whatever comes before or after them): "" when none of them is
 * written. */
static char *save_fields(const kp_design *d, size_t first, size_t last, char **err)
{
    em m;
    yamlout_open(&m, 2, 100);
    em_map(&m, false);
    for (size_t i = first; i < last; i++) {
        const kp_field *f = &kp_rec_design.f[i];
        switch (i) {
        case FW_VERSION: {
            char ver[16];
            snprintf(ver, sizeof ver, "%d", d->version ? d->version : KP_FORMAT_VERSION);
            em_key(&m, f->key);
            em_scalar(&m, ver, S_RAW);
            break;
        }
        case FW_ATTRIBUTES:
            if (!d->nattrs)
                break;
            em_key(&m, f->key);
            em_map(&m, false);
            for (size_t k = 0; k < d->nattrs; k++) {
                const kp_attr *a = &d->attrs[k];
                em_key(&m, a->name);
                /* a flow map, unless it lists values */
                yrec y = Y_ATTR;
                y.flow = a->nvalues == 0;
                save_record(&m, &y, a);
            }
            em_map_end(&m);
            break;
        case FW_PRICING:
            if (d->pricing.given)
                save_field(&m, f, d);
            break;
        default:
            save_field(&m, f, d);
            break;
        }
    }
    em_map_end(&m);
    char *text = yamlout_finish(&m, err);
    if (text && strcmp(text, "{}\n") == 0) /* nothing written: an empty mapping */
        text[0] = '\0';
    return text;
}

char *designio_save(const kp_design *d, char **err) { return save_fields(d, 0, kp_rec_design.n, err); }

bool designio_save_around_patterns(const kp_design *d, char **head, char **tail, char **err)
{
    *tail = NULL;
    *head = save_fields(d, 0, FW_PATTERNS, err);
    if (*head)
        *tail = save_fields(d, FW_PATTERNS + 1, kp_rec_design.n, err);
    if (*tail)
        return true;
    free(*head);
    *head = NULL;
    return false;
}

/* One element of the design's list `field` (its record yr) exactly as designio_save writes it
 * there: the element alone in the list, the same context, the same bytes. */
/* One item of top-level list `field` as designio_save writes it there, `body` writing its value:
 * its lines from "- " on. */
static char *save_item_as(int field, void (*body)(em *, const yrec *, const void *), const yrec *yr,
                          const void *r, const char *what, char **err)
{
    const char *key = kp_rec_design.f[field].key;
    em m;
    yamlout_open(&m, 2, 100);
    em_map(&m, false);
    em_key(&m, key);
    em_seq(&m, false);
    body(&m, yr, r);
    em_seq_end(&m);
    em_map_end(&m);
    char *text = yamlout_finish(&m, err);
    if (!text)
        return NULL;
    size_t k = strlen(key);
    if (strncmp(text, key, k) != 0 || strncmp(text + k, ":\n- ", 4) != 0) {
        free(text); /* never seen: the emitter wrote the list another way */
        if (err)
            *err = xasprintf("the %s's YAML is not a block list item", what);
        return NULL;
    }
    memmove(text, text + k + 2, strlen(text + k + 2) + 1);
    return text;
}

static char *save_item(int field, const yrec *yr, const void *r, const char *what, char **err)
{
    return save_item_as(field, save_record, yr, r, what, err);
}

char *designio_save_pattern(const kp_pattern *p, char **err)
{
    return save_item(FW_PATTERNS, &Y_PATTERN, p, "pattern", err);
}

/* A pattern's map holding its entity field alone. */
static void save_entities_only(em *m, const yrec *yr, const void *p)
{
    em_map(m, yr->flow);
    save_entity_ref(m, p);
    em_map_end(m);
}

char *designio_save_pattern_entities(const kp_pattern *p)
{
    if (!p->multi_form && !p->nentities)
        return NULL; /* no field */
    return save_item_as(FW_PATTERNS, save_entities_only, &Y_PATTERN, p, "pattern", NULL);
}

char *designio_save_entity(const kp_entity *e, char **err)
{
    return save_item(FW_ENTITIES, &Y_ENTITY, e, "entity", err);
}

kp_status designio_save_file(const kp_design *d, const char *path, kp_diags *diags)
{
    char *err = NULL;
    char *text = designio_save(d, &err);
    kp_status st = !text ? KP_INVALID : fileio_write_atomic(path, text, strlen(text), &err);
    if (st != KP_OK) {
        if (!diags->file)
            diags->file = xstrdup(path);
        diags_add(diags, st, (kp_loc){0, 0}, _("%s; the file is untouched"), err);
        free(err);
    }
    free(text);
    return st;
}
