/* syntax.c - the parsers of the fields' text syntaxes (grammars in syntax.h). */
#include "syntax.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPACE(c) isspace((unsigned char)(c))

bool syn_number(const char *s, size_t len, unsigned flags, double *out)
{
    if (len == 0 || len > 60)
        return false;
    char buf[64];
    size_t k = 0;
    for (size_t i = 0; i < len; i++) {
        char ch = s[i];
        if (ch == '_' || (ch == ',' && (flags & SYN_NUM_COMMAS)))
            continue;
        if (!(isdigit((unsigned char)ch) || ch == '.' || ch == '-' || ch == '+' || ch == 'e' || ch == 'E'))
            return false;
        buf[k++] = ch;
    }
    buf[k] = '\0';
    if (!k)
        return false;
    char *end;
    double v = strtod(buf, &end);
    if (*end || end == buf || !isfinite(v))
        return false;
    *out = v;
    return true;
}

const char *syn_number_text(double v, char *buf, size_t n)
{
    if (v == floor(v) && fabs(v) < 1e15) {
        snprintf(buf, n, "%.0f", v);
        if (!strcmp(buf, "-0"))
            snprintf(buf, n, "0");
        return buf;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    return buf;
}

void syn_trim(const char *s, size_t len, size_t *a, size_t *z)
{
    size_t i = 0, j = len;
    while (i < j && SPACE(s[i]))
        i++;
    while (j > i && SPACE(s[j - 1]))
        j--;
    *a = i, *z = j;
}

size_t syn_split(const char *s, size_t len, const char *seps, syn_span **out)
{
    syn_span *v = NULL;
    size_t n = 0, cap = 0;
    size_t i = 0;
    for (;;) {
        size_t j = i;
        while (j < len && !strchr(seps, s[j]))
            j++;
        size_t a, z;
        syn_trim(s + i, j - i, &a, &z);
        if (z > a) {
            VEC_GROW(v, n, cap);
            v[n++] = (syn_span){i + a, z - a};
        }
        if (j >= len)
            break;
        i = j + 1;
    }
    *out = v;
    return n;
}

bool syn_by_parse(const char *s, size_t len, syn_by *out, const char **err)
{
    memset(out, 0, sizeof *out);
    const char *eq = memchr(s, '=', len);
    size_t alen = eq ? (size_t)(eq - s) : len;
    size_t a, z;
    syn_trim(s, alen, &a, &z);
    out->attr = (syn_span){a, z - a};
    if (z == a) {
        *err = "names no attribute";
        return false;
    }
    if (eq) {
        size_t v0 = alen + 1;
        syn_trim(s + v0, len - v0, &a, &z);
        out->has_value = true;
        out->value = (syn_span){v0 + a, z - a};
        if (z == a) {
            *err = "has no value after '='";
            return false;
        }
    }
    return true;
}

/* true when s[0..n) is `word` in any ASCII case */
static bool word_ci(const char *s, size_t n, const char *word)
{
    if (n != strlen(word))
        return false;
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)s[i]) != word[i])
            return false;
    return true;
}

bool syn_order_parse(const char *s, size_t len, syn_span *attr, bool *desc)
{
    size_t a0, a1;
    syn_trim(s, len, &a0, &a1);
    size_t sp = a0;
    while (sp < a1 && !SPACE(s[sp]))
        sp++;
    size_t d0, d1;
    syn_trim(s + sp, a1 - sp, &d0, &d1);
    const char *dir = s + sp + d0;
    size_t dl = d1 - d0;
    *attr = (syn_span){a0, sp - a0};
    *desc = false;
    if (sp == a0)
        return false;
    if (word_ci(dir, dl, "desc"))
        *desc = true;
    else if (dl && !word_ci(dir, dl, "asc"))
        return false;
    return true;
}

bool syn_join_parse(const char *s, size_t len, syn_span *to, syn_span *from)
{
    const char *eq = memchr(s, '=', len);
    if (!eq)
        return false;
    size_t tl = (size_t)(eq - s), a, z;
    syn_trim(s, tl, &a, &z);
    *to = (syn_span){a, z - a};
    syn_trim(s + tl + 1, len - tl - 1, &a, &z);
    *from = (syn_span){tl + 1 + a, z - a};
    return true;
}

void syn_cond_free(syn_cond *c)
{
    free(c->values);
    c->values = NULL;
    c->nvalues = 0;
}

static bool cond_fail(syn_cond *c, const char **err, size_t *err_at, const char *what, size_t at)
{
    syn_cond_free(c);
    *err = what;
    *err_at = at;
    return false;
}

static void cond_add(syn_cond *c, size_t *cap, size_t at, size_t len)
{
    VEC_GROW(c->values, c->nvalues, *cap);
    c->values[c->nvalues++] = (syn_span){at, len};
}

bool syn_condition_parse(const char *s, size_t len, syn_cond *out, const char **err, size_t *err_at)
{
    memset(out, 0, sizeof *out);
    size_t i = 0;
    while (i < len && SPACE(s[i]))
        i++;
    size_t a0 = i;
    while (i < len && (isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '-' || s[i] == '.' ||
                       (unsigned char)s[i] >= 0x80))
        i++;
    if (i == a0)
        return cond_fail(out, err, err_at, "expected an attribute name first", a0);
    size_t a1 = i;
    out->attr = (syn_span){a0, a1 - a0};
    while (i < len && SPACE(s[i]))
        i++;
    if (i + 1 < len && s[i] == '!' && s[i + 1] == '=')
        out->op = KP_COND_NE, i += 2;
    else if (i + 1 < len && s[i] == '=' && s[i + 1] == '=')
        out->op = KP_COND_EQ, i += 2;
    else if (i < len && s[i] == '=')
        out->op = KP_COND_EQ, i += 1;
    else if (i + 2 < len && s[i] == 'i' && s[i + 1] == 'n' && (SPACE(s[i + 2]) || s[i + 2] == '[') && i > a1)
        out->op = KP_COND_IN, i += 2;
    else
        return cond_fail(out, err, err_at, "expected '=', '!=' or 'in' after the attribute", i);
    size_t cap = 0;
    if (out->op != KP_COND_IN) {
        size_t v0, v1;
        syn_trim(s + i, len - i, &v0, &v1);
        if (v1 == v0)
            return cond_fail(out, err, err_at, "expected a value after the operator", i);
        cond_add(out, &cap, i + v0, v1 - v0);
        return true;
    }
    while (i < len && SPACE(s[i]))
        i++;
    size_t end = len;
    if (i < len && s[i] == '[') {
        if (s[len - 1] != ']')
            return cond_fail(out, err, err_at, "expected a list in brackets after 'in': status in [a, b]", i);
        i++;
        end = len - 1;
    } else if (i >= len) {
        return cond_fail(out, err, err_at, "expected a list in brackets after 'in': status in [a, b]", i);
    }
    while (i <= end) {
        size_t j = i;
        while (j < end && s[j] != ',')
            j++;
        size_t v0, v1;
        syn_trim(s + i, j - i, &v0, &v1);
        if (v1 == v0)
            return cond_fail(out, err, err_at, "expected a value between the commas of the list", i);
        cond_add(out, &cap, i + v0, v1 - v0);
        i = j + 1;
        if (j == end)
            break;
    }
    return true;
}

bool syn_signal_parse(const char *s, size_t len, syn_signal *out, const char **err, size_t *err_at)
{
    memset(out, 0, sizeof *out);
    size_t p = 0;
    while (p < len && SPACE(s[p]))
        p++;
    size_t m = p;
    while (p < len && (isalnum((unsigned char)s[p]) || s[p] == '.' || s[p] == '_' || s[p] == '-' ||
                       (unsigned char)s[p] >= 0x80))
        p++;
    if (p == m) {
        *err = "expected a metric such as pattern.5.rate, then an operator and a number";
        *err_at = m;
        return false;
    }
    out->metric = (syn_span){m, p - m};
    while (p < len && SPACE(s[p]))
        p++;
    char c0 = p < len ? s[p] : '\0', c1 = p + 1 < len ? s[p + 1] : '\0';
    if (c0 == '>' && c1 == '=')
        out->cmp = KP_CMP_GE, p += 2;
    else if (c0 == '<' && c1 == '=')
        out->cmp = KP_CMP_LE, p += 2;
    else if (c0 == '=' && c1 == '=')
        out->cmp = KP_CMP_EQ, p += 2;
    else if (c0 == '!' && c1 == '=')
        out->cmp = KP_CMP_NE, p += 2;
    else if (c0 == '>')
        out->cmp = KP_CMP_GT, p++;
    else if (c0 == '<')
        out->cmp = KP_CMP_LT, p++;
    else if (c0 == '=')
        out->cmp = KP_CMP_EQ, p++;
    else {
        *err = "expected an operator (>, >=, <, <=, ==, !=) after the metric";
        *err_at = p;
        return false;
    }
    while (p < len && SPACE(s[p]))
        p++;
    size_t n0 = p;
    while (p < len && (isdigit((unsigned char)s[p]) || strchr(".,_+-eE", s[p])))
        p++;
    size_t n1 = p;
    while (p < len && SPACE(s[p]))
        p++;
    if (n1 == n0 || p < len || !syn_number(s + n0, n1 - n0, SYN_NUM_COMMAS, &out->value)) {
        *err = "expected a number after the operator, and nothing after it";
        *err_at = n0;
        return false;
    }
    return true;
}
