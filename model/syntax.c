/* syntax.c - the parsers of the fields' text syntaxes (grammars in syntax.h). */
#include "syntax.h"

#include "i18n.h"
#include "fields.h"
#include "template.h"

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

/* ---- attribute names ------------------------------------------------------------------------ */

/* The end of the backticked name starting at s[i] (a '`'): past its closing '`', "``" standing
 * for a backtick inside; 0 when it is not closed. */
static size_t quoted_end(const char *s, size_t len, size_t i)
{
    for (size_t j = i + 1; j < len; j++) {
        if (s[j] != '`')
            continue;
        if (j + 1 < len && s[j + 1] == '`')
            j++;
        else
            return j + 1;
    }
    return 0;
}

char *syn_name(const char *s, syn_span sp)
{
    if (sp.len < 2 || s[sp.at] != '`' || s[sp.at + sp.len - 1] != '`')
        return xstrndup(s + sp.at, sp.len);
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, "");
    for (size_t i = sp.at + 1; i + 1 < sp.at + sp.len; i++) {
        sbuf_addc(&b, s[i]);
        if (s[i] == '`')
            i++; /* "``" */
    }
    return sbuf_steal(&b);
}

void syn_name_text(sbuf *b, const char *name, const char *special)
{
    size_t n = strlen(name);
    bool quote = n == 0 || name[0] == '`' || SPACE(name[0]) || SPACE(name[n - 1]);
    for (const char *q = name; *q && !quote; q++)
        quote = strchr(special, *q) != NULL || (!*special && !tpl_name_byte((unsigned char)*q));
    if (quote)
        tpl_add_quoted(b, name);
    else
        sbuf_add(b, name);
}

/* The characters each syntax cannot hold in an unquoted name ("": any but a template's). */
#define BY_SPECIAL    "="
#define ORDER_SPECIAL " \t\n\r\v\f"
#define COND_SPECIAL  ""

void syn_by_text(sbuf *b, const kp_by *by)
{
    syn_name_text(b, by->attr.s ? by->attr.s : "", BY_SPECIAL);
    if (by->value)
        sbuf_printf(b, "=%s", by->value);
}

void syn_join_text(sbuf *b, const kp_join *j)
{
    syn_name_text(b, j->to.s ? j->to.s : "", BY_SPECIAL);
    sbuf_addc(b, '=');
    syn_name_text(b, j->from.s ? j->from.s : "", BY_SPECIAL);
}

void syn_order_text(sbuf *b, const char *attr, bool desc)
{
    syn_name_text(b, attr ? attr : "", ORDER_SPECIAL);
    if (desc)
        sbuf_add(b, " desc");
}

void syn_condition_text(sbuf *b, const kp_sparse *s)
{
    syn_name_text(b, s->cond_attr.s ? s->cond_attr.s : "", COND_SPECIAL);
    sbuf_printf(b, " %s %s", kp_word(&kp_words_cond_op, (int)s->op), s->op == KP_COND_IN ? "[" : "");
    for (size_t i = 0; i < s->nvalues; i++)
        sbuf_printf(b, "%s%s", i ? ", " : "", s->values[i].s ? s->values[i].s : "");
    if (s->op == KP_COND_IN)
        sbuf_add(b, "]");
}

bool syn_figure(const char *s, char kind, double *out)
{
    const char *p = s;
    while (*p && !isdigit((unsigned char)*p) && *p != '.')
        p++;
    if (!*p)
        return false;
    /* "1.244" Spanish thousands or "12,5" decimals: accept '.' and ',' as the C locale would
     * only for the decimal point */
    /* the number is the run of digits, '.', ',' and '_' (the grammar of the design file's numbers:
       no hexadecimal, no exponent); what follows is the unit */
    size_t run = 0;
    while (isdigit((unsigned char)p[run]) || p[run] == ',' || p[run] == '.' || p[run] == '_')
        run++;
    /* an exponent, as the export writes tiny rates (1.16e-05) */
    size_t ex = run;
    if (run && (p[ex] == 'e' || p[ex] == 'E')) {
        ex++;
        if (p[ex] == '+' || p[ex] == '-')
            ex++;
        if (isdigit((unsigned char)p[ex])) {
            while (isdigit((unsigned char)p[ex]))
                ex++;
            run = ex;
        }
    }
    char *copy = xstrndup(p, run);
    for (char *c = copy; *c; c++)
        if (*c == ',')
            *c = '.';
    double v;
    bool ok = syn_number(copy, run, 0, &v);
    free(copy);
    if (!ok)
        return false;
    const char *rest = p + run;
    /* everything before the number may only be blanks, '<', '~', '≈' or '≤' */
    for (const char *q = s; q < p; q++)
        if (!strchr(" \t<>~=", *q) && ((unsigned char)*q < 0x80) && *q != '\0')
            return false;
    char unit[32] = {0};
    size_t u = 0;
    for (const char *q = rest; *q && u + 1 < sizeof unit; q++)
        if (!isspace((unsigned char)*q))
            unit[u++] = (char)tolower((unsigned char)*q);
    if (kind == 'l') {
        if (!*unit || !strcmp(unit, "ms"))
            *out = v;
        else if (!strcmp(unit, "s") || !strcmp(unit, "seg") || !strcmp(unit, "sec"))
            *out = v * 1000;
        else if (!strcmp(unit, "min"))
            *out = v * 60000;
        else if (!strcmp(unit, "h"))
            *out = v * 3600000;
        else
            return false;
        return true;
    }
    if (kind == 'r') {
        const char *slash = strchr(unit, '/');
        const char *per = slash ? slash + 1 : unit;
        if (!*unit || !strcmp(per, "s") || !strcmp(per, "seg") || !strcmp(per, "sec") || !strcmp(unit, "rps"))
            *out = v;
        else if (!strcmp(per, "min"))
            *out = v / 60;
        else if (!strcmp(per, "h") || !strcmp(per, "hora") || !strcmp(per, "hour"))
            *out = v / 3600;
        else if (!strcmp(per, "día") || !strcmp(per, "dia") || !strcmp(per, "day") || !strcmp(per, "d"))
            *out = v / 86400;
        else
            return false;
        return true;
    }
    if (*unit)
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

/* A parser's failure: `status` with `what` at offset `at`. */
static kp_status syn_fail(kp_status status, const char *what, size_t at, char **err, size_t *err_at)
{
    if (err_at)
        *err_at = at;
    return kp_fail(err, status, "%s", what);
}

/* A name that starts at the first non-space byte of s[0..len) in backticks: its span (the
 * backticks included) in *name and the offset past it in *end. 0 when the name is not quoted, 1
 * when it is, -1 when its quote is not closed. */
static int quoted_name(const char *s, size_t len, syn_span *name, size_t *end)
{
    size_t a = 0;
    while (a < len && SPACE(s[a]))
        a++;
    if (a >= len || s[a] != '`')
        return 0;
    size_t z = quoted_end(s, len, a);
    if (!z)
        return -1;
    *name = (syn_span){a, z - a};
    *end = z;
    return 1;
}

/* The value of a `by` element after its '=' at s[eq]. */
static kp_status by_value(const char *s, size_t len, size_t eq, syn_by *out, char **err)
{
    size_t v0 = eq + 1, a, z;
    syn_trim(s + v0, len - v0, &a, &z);
    out->has_value = true;
    out->value = (syn_span){v0 + a, z - a};
    if (z == a)
        return syn_fail(KP_INVALID, "has no value after '='", 0, err, NULL);
    return KP_OK;
}

kp_status syn_by_parse(const char *s, size_t len, syn_by *out, char **err)
{
    memset(out, 0, sizeof *out);
    syn_span qn;
    size_t qe;
    int q = quoted_name(s, len, &qn, &qe);
    if (q < 0)
        return syn_fail(KP_INVALID, "has an unclosed '`' (a quoted name is `name`)", 0, err, NULL);
    if (q > 0) {
        size_t i = qe;
        while (i < len && SPACE(s[i]))
            i++;
        out->attr = qn;
        if (i < len && s[i] != '=')
            return syn_fail(KP_INVALID, "expected '=' or nothing after the quoted name", 0, err, NULL);
        return i < len ? by_value(s, len, i, out, err) : KP_OK;
    }
    const char *eq = memchr(s, '=', len);
    size_t alen = eq ? (size_t)(eq - s) : len;
    size_t a, z;
    syn_trim(s, alen, &a, &z);
    out->attr = (syn_span){a, z - a};
    if (z == a)
        return syn_fail(KP_INVALID, "names no attribute", 0, err, NULL);
    return eq ? by_value(s, len, alen, out, err) : KP_OK;
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

kp_status syn_order_parse(const char *s, size_t len, syn_span *attr, bool *desc, char **err)
{
    size_t a0, a1;
    syn_trim(s, len, &a0, &a1);
    size_t sp = a0;
    syn_span qn;
    int q = quoted_name(s, len, &qn, &sp);
    if (q < 0)
        return syn_fail(KP_INVALID, "has an unclosed '`' (a quoted name is `name`)", 0, err, NULL);
    if (q == 0)
        sp = a0;
    while (q == 0 && sp < a1 && !SPACE(s[sp]))
        sp++;
    size_t d0, d1;
    syn_trim(s + sp, a1 - sp, &d0, &d1);
    const char *dir = s + sp + d0;
    size_t dl = d1 - d0;
    *attr = (syn_span){a0, sp - a0};
    *desc = false;
    if (sp == a0)
        return syn_fail(KP_INVALID, "names no attribute", 0, err, NULL);
    if (word_ci(dir, dl, "desc"))
        *desc = true;
    else if (dl && !word_ci(dir, dl, "asc"))
        return syn_fail(KP_INVALID, "expected asc or desc after the attribute", 0, err, NULL);
    return KP_OK;
}

kp_status syn_join_parse(const char *s, size_t len, syn_span *to, syn_span *from, char **err)
{
    syn_span qn;
    size_t qe = 0;
    int q = quoted_name(s, len, &qn, &qe);
    if (q < 0)
        return syn_fail(KP_INVALID, "has an unclosed '`' (a quoted name is `name`)", 0, err, NULL);
    const char *eq = memchr(s + qe, '=', len - qe);
    if (!eq)
        return syn_fail(KP_INVALID, "expected to=from", 0, err, NULL);
    size_t tl = (size_t)(eq - s), a, z;
    syn_trim(s, tl, &a, &z);
    *to = (syn_span){a, z - a};
    size_t f0 = tl + 1;
    syn_span fq;
    size_t fe;
    int qf = quoted_name(s + f0, len - f0, &fq, &fe);
    if (qf < 0)
        return syn_fail(KP_INVALID, "has an unclosed '`' (a quoted name is `name`)", 0, err, NULL);
    syn_trim(s + f0, len - f0, &a, &z);
    *from = (syn_span){f0 + a, z - a};
    return KP_OK;
}

/* The end of the name starting at s[i]: [A-Za-z0-9_.-] and non-ASCII bytes. */
static size_t scan_name(const char *s, size_t len, size_t i)
{
    while (i < len && tpl_name_byte((unsigned char)s[i]))
        i++;
    return i;
}

static size_t skip_space(const char *s, size_t len, size_t i)
{
    while (i < len && SPACE(s[i]))
        i++;
    return i;
}

/* An operator: the longest first where one is the start of another. */
typedef struct op_word {
    const char *text;
    int value;
} op_word;

static const op_word COND_OPS[] = {{"!=", KP_COND_NE}, {"==", KP_COND_EQ}, {"=", KP_COND_EQ}};
static const op_word SIGNAL_OPS[] = {{">=", KP_CMP_GE}, {"<=", KP_CMP_LE}, {"==", KP_CMP_EQ},
                                     {"!=", KP_CMP_NE}, {">", KP_CMP_GT},  {"<", KP_CMP_LT},
                                     {"=", KP_CMP_EQ}};

/* The operator at s[*i] (advancing *i past it), or -1. */
static int scan_op(const char *s, size_t len, size_t *i, const op_word *ops, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        size_t l = strlen(ops[k].text);
        if (*i + l <= len && !memcmp(s + *i, ops[k].text, l)) {
            *i += l;
            return ops[k].value;
        }
    }
    return -1;
}

void syn_cond_free(syn_cond *c)
{
    free(c->values);
    c->values = NULL;
    c->nvalues = 0;
}

static kp_status cond_fail(syn_cond *c, char **err, size_t *err_at, const char *what, size_t at)
{
    syn_cond_free(c);
    return syn_fail(KP_INVALID, what, at, err, err_at);
}

static void cond_add(syn_cond *c, size_t *cap, size_t at, size_t len)
{
    VEC_GROW(c->values, c->nvalues, *cap);
    c->values[c->nvalues++] = (syn_span){at, len};
}

kp_status syn_condition_parse(const char *s, size_t len, syn_cond *out, char **err, size_t *err_at)
{
    memset(out, 0, sizeof *out);
    size_t a0 = skip_space(s, len, 0);
    size_t i = a0 < len && s[a0] == '`' ? quoted_end(s, len, a0) : scan_name(s, len, a0);
    if (a0 < len && s[a0] == '`' && !i)
        return cond_fail(out, err, err_at, _("unclosed '`' (a quoted name is `name`)"), a0);
    if (i == a0)
        return cond_fail(out, err, err_at,
                         _("expected an attribute name first (any other name in backticks: `a b`)"), a0);
    size_t a1 = i;
    out->attr = (syn_span){a0, a1 - a0};
    i = skip_space(s, len, i);
    int op = scan_op(s, len, &i, COND_OPS, sizeof COND_OPS / sizeof *COND_OPS);
    if (op >= 0)
        out->op = (kp_cond_op)op;
    else if (i + 2 < len && s[i] == 'i' && s[i + 1] == 'n' && (SPACE(s[i + 2]) || s[i + 2] == '[') && i > a1)
        out->op = KP_COND_IN, i += 2;
    else
        return cond_fail(out, err, err_at, _("expected '=', '!=' or 'in' after the attribute"), i);
    size_t cap = 0;
    if (out->op != KP_COND_IN) {
        size_t v0, v1;
        syn_trim(s + i, len - i, &v0, &v1);
        if (v1 == v0)
            return cond_fail(out, err, err_at, _("expected a value after the operator"), i);
        cond_add(out, &cap, i + v0, v1 - v0);
        return KP_OK;
    }
    i = skip_space(s, len, i);
    size_t end = len;
    if (i < len && s[i] == '[') {
        if (s[len - 1] != ']')
            return cond_fail(out, err, err_at, _("expected a list in brackets after 'in': status in [a, b]"),
                             i);
        i++;
        end = len - 1;
    } else if (i >= len) {
        return cond_fail(out, err, err_at, _("expected a list in brackets after 'in': status in [a, b]"), i);
    }
    while (i <= end) {
        size_t j = i;
        while (j < end && s[j] != ',')
            j++;
        size_t v0, v1;
        syn_trim(s + i, j - i, &v0, &v1);
        if (v1 == v0)
            return cond_fail(out, err, err_at, _("expected a value between the commas of the list"), i);
        cond_add(out, &cap, i + v0, v1 - v0);
        i = j + 1;
        if (j == end)
            break;
    }
    return KP_OK;
}

kp_status syn_signal_parse(const char *s, size_t len, syn_signal *out, char **err, size_t *err_at)
{
    memset(out, 0, sizeof *out);
    size_t m = skip_space(s, len, 0);
    size_t p = scan_name(s, len, m);
    if (p == m)
        return syn_fail(KP_SIGNAL,
                        _("expected a metric such as pattern.5.rate, then an operator and a number"), m, err,
                        err_at);
    out->metric = (syn_span){m, p - m};
    p = skip_space(s, len, p);
    int cmp = scan_op(s, len, &p, SIGNAL_OPS, sizeof SIGNAL_OPS / sizeof *SIGNAL_OPS);
    if (cmp < 0)
        return syn_fail(KP_SIGNAL, _("expected an operator (>, >=, <, <=, ==, !=) after the metric"), p, err,
                        err_at);
    out->cmp = (kp_cmp)cmp;
    size_t n0 = p = skip_space(s, len, p);
    while (p < len && (isdigit((unsigned char)s[p]) || strchr(".,_+-eE", s[p])))
        p++;
    size_t n1 = p;
    p = skip_space(s, len, p);
    if (n1 == n0 || p < len || !syn_number(s + n0, n1 - n0, SYN_NUM_COMMAS, &out->value))
        return syn_fail(KP_SIGNAL, _("expected a number after the operator, and nothing after it"), n0, err,
                        err_at);
    return KP_OK;
}

kp_status syn_group_parse(const char *s, size_t len, syn_span **out, size_t *n, char **err, size_t *err_at)
{
    *out = NULL;
    *n = 0;
    size_t i = 0, cap = 0;
    for (;;) {
        size_t j = i;
        while (j < len && s[j] != '+')
            j++;
        size_t a, z;
        syn_trim(s + i, j - i, &a, &z);
        if (z <= a) {
            free(*out);
            *out = NULL;
            *n = 0;
            if (err)
                *err = xstrdup(_("an empty attribute in a group; expected attributes joined by '+', e.g. "
                                 "GSI1PK+GSI1SK"));
            if (err_at)
                *err_at = i;
            return KP_INVALID;
        }
        VEC_GROW(*out, *n, cap);
        (*out)[(*n)++] = (syn_span){i + a, z - a};
        if (j >= len)
            break;
        i = j + 1;
    }
    return KP_OK;
}

bool syn_group_has(const char *group, const char *name)
{
    if (!group || !name)
        return false;
    size_t nl = strlen(name);
    const char *p = group;
    for (;;) {
        const char *e = strchr(p, '+');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        size_t a, z;
        syn_trim(p, l, &a, &z);
        if (z - a == nl && memcmp(p + a, name, nl) == 0)
            return true;
        if (!e)
            return false;
        p = e + 1;
    }
}
