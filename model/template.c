/* template.c - parsing, printing and rendering of key templates. */
#include "template.h"

#include "i18n.h"
#include "util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

bool tpl_name_byte(unsigned char c) { return isalnum(c) || c == '_' || c == '-' || c == '.' || c >= 0x80; }

bool tpl_name_valid(const char *s)
{
    if (!s || !*s)
        return false;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (!tpl_name_byte(*p))
            return false;
    return true;
}

static void push_part(tpl *t, size_t *cap, tpl_part_kind kind, char *text, char *format, size_t offset)
{
    /* merge adjacent literals */
    if (kind == TPL_LIT && t->n > 0 && t->parts[t->n - 1].kind == TPL_LIT) {
        tpl_part *p = &t->parts[t->n - 1];
        size_t a = strlen(p->text), b = strlen(text);
        p->text = xrealloc(p->text, a + b + 1);
        memcpy(p->text + a, text, b + 1);
        free(text);
        return;
    }
    VEC_GROW(t->parts, t->n, *cap);
    t->parts[t->n++] = (tpl_part){kind, text, format, offset};
}

/* The failure of tpl_parse: msg at byte `at`. */
static kp_status parse_fail(const char *msg, size_t at, char **err, size_t *err_offset)
{
    if (err_offset)
        *err_offset = at;
    return kp_fail(err, KP_TEMPLATE, "%s", msg);
}

kp_status tpl_parse(const char *src, tpl *out, char **err, size_t *err_offset)
{
    memset(out, 0, sizeof *out);
    if (!src)
        return parse_fail(_("the template is missing"), 0, err, err_offset);
    size_t cap = 0, i = 0, len = strlen(src);
    tpl t = {xstrdup(src), NULL, 0};
    const char *problem;
    size_t at;
    while (i < len) {
        char c = src[i];
        if (c == '{' && src[i + 1] == '{') {
            push_part(&t, &cap, TPL_LIT, xstrdup("{"), NULL, i);
            i += 2;
        } else if (c == '}' && src[i + 1] == '}') {
            push_part(&t, &cap, TPL_LIT, xstrdup("}"), NULL, i);
            i += 2;
        } else if (c == '}') {
            problem = _("a lone '}' (write '}}' for a literal brace)");
            at = i;
            goto fail;
        } else if (c == '{' && src[i + 1] == '`') {
            /* a quoted name: anything up to the closing backtick, "``" for a backtick */
            sbuf nm;
            sbuf_init(&nm);
            size_t j = i + 2;
            for (;;) {
                if (j >= len) {
                    sbuf_free(&nm);
                    problem = _("unclosed quoted name: expected '`' then '}' ({`State#Date`})");
                    at = i;
                    goto fail;
                }
                if (src[j] == '`' && src[j + 1] == '`') {
                    sbuf_addc(&nm, '`');
                    j += 2;
                } else if (src[j] == '`') {
                    j++;
                    break;
                } else {
                    sbuf_addc(&nm, src[j++]);
                }
            }
            if (!nm.len) {
                problem = _("an empty placeholder '{``}' (expected an attribute name)");
                at = i;
                goto fail;
            }
            char *format = NULL;
            if (j < len && src[j] == ':') {
                size_t fs = ++j;
                while (j < len && isdigit((unsigned char)src[j]))
                    j++;
                if (j == fs || j - fs > 3) {
                    sbuf_free(&nm);
                    problem = _("a placeholder format must be digits such as '03' ({lineNo:03})");
                    at = fs;
                    goto fail;
                }
                format = xstrndup(src + fs, j - fs);
            }
            if (j >= len || src[j] != '}') {
                sbuf_free(&nm);
                free(format);
                problem = _("expected '}' after the quoted name");
                at = j >= len ? i : j;
                goto fail;
            }
            push_part(&t, &cap, TPL_ATTR, sbuf_steal(&nm), format, i);
            i = j + 1;
        } else if (c == '{') {
            size_t start = i + 1, j = start;
            while (j < len && tpl_name_byte((unsigned char)src[j]))
                j++;
            if (j == start) {
                problem =
                    j < len && src[j] == '}'
                        ? _("an empty placeholder '{}' (expected an attribute name)")
                        : _("'{' must be followed by an attribute name (write '{{' for a literal brace)");
                at = i;
                goto fail;
            }
            char *format = NULL;
            size_t name_end = j;
            if (j < len && src[j] == ':') {
                size_t fs = ++j;
                while (j < len && isdigit((unsigned char)src[j]))
                    j++;
                if (j == fs || j - fs > 3) {
                    problem = _("a placeholder format must be digits such as '03' ({lineNo:03})");
                    at = fs;
                    goto fail;
                }
                format = xstrndup(src + fs, j - fs);
            }
            if (j >= len || src[j] != '}') {
                free(format);
                problem =
                    j >= len
                        ? _("unclosed placeholder: expected '}'")
                        : _("unexpected character in a placeholder name (expected letters, digits, '_', '-' or '.', "
                            "then '}'; any other name goes in backticks: {`State#Date`})");
                at = j >= len ? i : j;
                goto fail;
            }
            push_part(&t, &cap, TPL_ATTR, xstrndup(src + start, name_end - start), format, i);
            i = j + 1;
        } else {
            size_t j = i;
            while (j < len && src[j] != '{' && src[j] != '}')
                j++;
            push_part(&t, &cap, TPL_LIT, xstrndup(src + i, j - i), NULL, i);
            i = j;
        }
    }
    *out = t;
    return KP_OK;
fail:
    tpl_free(&t);
    return parse_fail(problem, at, err, err_offset);
}

void tpl_free(tpl *t)
{
    for (size_t i = 0; i < t->n; i++) {
        free(t->parts[i].text);
        free(t->parts[i].format);
    }
    free(t->parts);
    free(t->src);
    memset(t, 0, sizeof *t);
}

void tpl_copy(tpl *dst, const tpl *src)
{
    memset(dst, 0, sizeof *dst);
    dst->src = xstrdup(src->src);
    dst->n = src->n;
    dst->parts = xcalloc(src->n ? src->n : 1, sizeof *dst->parts);
    for (size_t i = 0; i < src->n; i++) {
        dst->parts[i] = src->parts[i];
        dst->parts[i].text = xstrdup(src->parts[i].text);
        dst->parts[i].format = xstrdup(src->parts[i].format);
    }
}

bool tpl_is_constant(const tpl *t) { return tpl_attr_count(t) == 0; }

bool tpl_has_attr(const tpl *t, const char *name)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->parts[i].kind == TPL_ATTR && strcmp(t->parts[i].text, name) == 0)
            return true;
    return false;
}

size_t tpl_attr_count(const tpl *t)
{
    size_t k = 0;
    for (size_t i = 0; i < t->n; i++)
        k += t->parts[i].kind == TPL_ATTR;
    return k;
}

void tpl_add_literal(sbuf *b, const char *text)
{
    while (*text) {
        size_t run = strcspn(text, "{}");
        sbuf_addn(b, text, run);
        text += run;
        if (*text) { /* a brace: doubled */
            sbuf_addn(b, text, 1);
            sbuf_addn(b, text, 1);
            text++;
        }
    }
}

void tpl_add_quoted(sbuf *b, const char *name)
{
    sbuf_addc(b, '`');
    for (const char *q = name; *q; q++) {
        if (*q == '`')
            sbuf_addc(b, '`');
        sbuf_addc(b, *q);
    }
    sbuf_addc(b, '`');
}

/* The name as a placeholder holds it: as it is, or in backticks (doubled inside). */
static void add_name(sbuf *b, const char *name)
{
    if (tpl_name_valid(name))
        sbuf_add(b, name);
    else
        tpl_add_quoted(b, name);
}

char *tpl_placeholder(const char *name)
{
    sbuf b;
    sbuf_init(&b);
    sbuf_addc(&b, '{');
    add_name(&b, name ? name : "");
    sbuf_addc(&b, '}');
    return sbuf_steal(&b);
}

void tpl_add_placeholder(sbuf *b, const tpl_part *p)
{
    sbuf_addc(b, '{');
    add_name(b, p->text);
    if (p->format) {
        sbuf_addc(b, ':');
        sbuf_add(b, p->format);
    }
    sbuf_addc(b, '}');
}

char *tpl_format(const tpl *t)
{
    sbuf b;
    sbuf_init(&b);
    for (size_t i = 0; i < t->n; i++) {
        if (t->parts[i].kind == TPL_ATTR)
            tpl_add_placeholder(&b, &t->parts[i]);
        else
            tpl_add_literal(&b, t->parts[i].text);
    }
    return sbuf_steal(&b);
}

char *tpl_apply_format(const char *value, const char *format)
{
    if (!value)
        return NULL;
    if (!format || !*format)
        return xstrdup(value);
    /* a format is a zero-padded width of at most three digits ("03"); anything else is ignored */
    size_t flen = strlen(format);
    if (flen > 3)
        return xstrdup(value);
    for (const char *f = format; *f; f++)
        if (!isdigit((unsigned char)*f))
            return xstrdup(value);
    const char *v = value;
    int neg = 0;
    if (*v == '-')
        neg = 1, v++;
    if (!*v)
        return xstrdup(value);
    for (const char *c = v; *c; c++)
        if (!isdigit((unsigned char)*c))
            return xstrdup(value);
    size_t width = (size_t)strtoul(format, NULL, 10);
    size_t len = strlen(v);
    if (len + (size_t)neg >= width)
        return xstrdup(value);
    size_t pad = width - len - (size_t)neg;
    char *out = xmalloc(width + 1);
    size_t o = 0;
    if (neg)
        out[o++] = '-';
    memset(out + o, '0', pad);
    memcpy(out + o + pad, v, len + 1);
    return out;
}

char *tpl_render(const tpl *t, const char *(*lookup)(const char *name, void *ctx), void *ctx)
{
    sbuf b;
    sbuf_init(&b);
    for (size_t i = 0; i < t->n; i++) {
        const tpl_part *p = &t->parts[i];
        if (p->kind == TPL_LIT) {
            sbuf_add(&b, p->text);
            continue;
        }
        const char *v = lookup ? lookup(p->text, ctx) : NULL;
        if (!v) {
            char *ph = tpl_placeholder(p->text);
            sbuf_add(&b, ph);
            free(ph);
            continue;
        }
        if (p->format) {
            char *f = tpl_apply_format(v, p->format);
            sbuf_add(&b, f);
            free(f);
        } else {
            sbuf_add(&b, v);
        }
    }
    return sbuf_steal(&b);
}
