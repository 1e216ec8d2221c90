/* tour_check.c - the check language of a tour's exercises (tour.h): "SUBJECT OP VALUE" over a
 * step's analysis. The subjects are the signal metrics (model/signals.h, read through
 * analysis_metric) plus the fields below, which say what the course's figures say in words. */
#include "tour_int.h"

#include "i18n.h"

#include "signals.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef enum value_type { V_NUM, V_WORD, V_BOOL } value_type;

/* The subjects beyond the signal metrics: KIND.NAME.FIELD. */
static const struct subject_info {
    const char *kind;
    const char *field;
    value_type type;
} subjects[] = {
    {"pattern", "plan", V_WORD},
    {"pattern", "index", V_WORD},
    {"pattern", "latency_ok", V_BOOL},
    {"partition", "distinct", V_NUM},
    {"partition", "read_hot_share", V_NUM},
    {"partition", "write_hot_share", V_NUM},
    {"partition", "read_util", V_NUM},
    {"partition", "write_util", V_NUM},
    {"partition", "hot", V_BOOL},
    {"finding", "count", V_NUM},
    {"checklist", "status", V_WORD},
    {"decision", "status", V_WORD},
};

/* A parsed check; the strings point into `buf` (one allocation). */
typedef struct cond {
    char *buf;
    const char *subject, *kind, *name, *field; /* kind/name/field split at the first and last dot */
    const struct subject_info *info;           /* NULL for a signal metric */
    value_type type;
    kp_cmp cmp;
    const char *word; /* V_WORD, V_BOOL */
    double num;       /* V_NUM */
} cond;

static bool parse_op(const char **p, kp_cmp *cmp)
{
    static const struct {
        const char *text;
        kp_cmp cmp;
    } ops[] = {{"==", KP_CMP_EQ}, {"!=", KP_CMP_NE}, {">=", KP_CMP_GE},
               {"<=", KP_CMP_LE}, {">", KP_CMP_GT},  {"<", KP_CMP_LT}};
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
        size_t n = strlen(ops[i].text);
        if (strncmp(*p, ops[i].text, n) == 0) {
            *cmp = ops[i].cmp;
            *p += n;
            return true;
        }
    }
    return false;
}

/* A copy of s[0..n) into *w, advancing it. */
static const char *put(char **w, const char *s, size_t n)
{
    char *at = *w;
    memcpy(at, s, n);
    at[n] = '\0';
    *w += n + 1;
    return at;
}

/* Parses `src` into *c (release with free(c->buf)); false with *why (static) when malformed. */
static bool cond_parse(const char *src, cond *c, const char **why)
{
    memset(c, 0, sizeof *c);
    size_t len = strlen(src);
    char *w = c->buf = xmalloc(2 * len + 8); /* subject, kind, name, field, value */
    const char *p = src;
    while (isspace((unsigned char)*p))
        p++;
    const char *s = p;
    while (*p && !isspace((unsigned char)*p) && !strchr("=!<>", *p))
        p++;
    size_t slen = (size_t)(p - s);
    while (isspace((unsigned char)*p))
        p++;
    /* TRANSLATORS: SUBJECT OP VALUE and the examples are the check language: they stay */
    *why = _("expected SUBJECT OP VALUE, e.g. pattern.5.plan == query or index.GSI1.items < 100000");
    if (!slen || !parse_op(&p, &c->cmp))
        goto bad;
    while (isspace((unsigned char)*p))
        p++;
    const char *v = p;
    size_t vlen = strlen(v);
    while (vlen && isspace((unsigned char)v[vlen - 1]))
        vlen--;
    if (!vlen || memchr(v, ' ', vlen))
        goto bad;

    /* KIND.NAME.FIELD: the kind before the first dot, the field after the last */
    const char *dot = memchr(s, '.', slen), *last = dot;
    for (const char *q = dot; q && q < s + slen; q++)
        if (*q == '.')
            last = q;
    c->subject = put(&w, s, slen);
    c->kind = put(&w, s, dot ? (size_t)(dot - s) : slen);
    c->name = put(&w, dot ? dot + 1 : s, last > dot ? (size_t)(last - dot - 1) : 0);
    c->field = put(&w, last ? last + 1 : s + slen, last ? (size_t)(s + slen - last - 1) : 0);
    const char *value = put(&w, v, vlen);

    for (size_t i = 0; i < sizeof subjects / sizeof *subjects && *c->name; i++)
        if (strcmp(subjects[i].kind, c->kind) == 0 && strcmp(subjects[i].field, c->field) == 0)
            c->info = &subjects[i];
    if (!c->info && sig_metric_check(c->subject, NULL) != KP_OK) {
        /* TRANSLATORS: the subjects are the check language: they stay */
        *why =
            _("unknown subject; expected pattern.ID.plan|index|latency_ok, partition.TEMPLATE.distinct|"
              "read_hot_share|write_hot_share|read_util|write_util|hot, finding.CODE.count, "
              "checklist.N.status, decision.ID.status or a signal metric (pattern.ID.rate, cost.total, ...)");
        goto bad;
    }
    c->type = c->info ? c->info->type : V_NUM;
    if (c->type == V_NUM) {
        char *end = NULL;
        c->num = strtod(value, &end);
        if (!end || *end || isnan(c->num) || isinf(c->num)) {
            *why = _("this subject is a number; expected a number after the operator");
            goto bad;
        }
        return true;
    }
    if (c->cmp != KP_CMP_EQ && c->cmp != KP_CMP_NE) {
        *why = _("this subject is a word; expected == or !=");
        goto bad;
    }
    if (c->type == V_BOOL && strcmp(value, "true") != 0 && strcmp(value, "false") != 0) {
        /* TRANSLATORS: true and false are the check language's words: they stay */
        *why = _("this subject is true or false; expected true or false after the operator");
        goto bad;
    }
    c->word = value;
    return true;
bad:
    free(c->buf);
    c->buf = NULL;
    return false;
}

kp_status tour_check_validate(const char *check, char **err)
{
    cond c;
    const char *why = _("expected text");
    if (!check || !cond_parse(check, &c, &why))
        return kp_fail(err, KP_INVALID, "%s", why);
    free(c.buf);
    return KP_OK;
}

static const kp_partition_result *partition_of(const kp_analysis *a, const char *tpl_src)
{
    for (size_t i = 0; i < a->npartitions; i++)
        if (a->partitions[i].template_src && strcmp(a->partitions[i].template_src, tpl_src) == 0)
            return &a->partitions[i];
    return NULL;
}

/* The subject's value on `a`: a number (*num) or a word (*word, static or pointing into the
 * design). false when the subject names nothing of the design. */
static bool subject_value(const cond *c, const kp_analysis *a, double *num, const char **word)
{
    if (!c->info)
        return analysis_metric(a, c->subject, num);
    const char *kind = c->kind, *field = c->field;
    if (strcmp(kind, "pattern") == 0) {
        for (size_t i = 0; i < a->npatterns; i++) {
            const kp_pattern_result *r = &a->patterns[i];
            if (!r->pattern || !r->pattern->id || strcmp(r->pattern->id, c->name) != 0)
                continue;
            *word = strcmp(field, "plan") == 0    ? kp_plan_word(r->plan)
                    : strcmp(field, "index") == 0 ? (r->index_name ? r->index_name : "table")
                    : r->latency_ok               ? "true"
                                                  : "false";
            return true;
        }
        return false;
    }
    if (strcmp(kind, "partition") == 0) {
        const kp_partition_result *p = partition_of(a, c->name);
        if (!p)
            return false;
        if (strcmp(field, "hot") == 0)
            *word = p->hot ? "true" : "false";
        else
            *num = strcmp(field, "distinct") == 0          ? p->distinct
                   : strcmp(field, "read_hot_share") == 0  ? p->read_hot_share
                   : strcmp(field, "write_hot_share") == 0 ? p->write_hot_share
                   : strcmp(field, "read_util") == 0       ? p->read_util
                                                           : p->write_util;
        return true;
    }
    if (strcmp(kind, "finding") == 0) {
        size_t n = 0;
        for (size_t i = 0; i < a->nfindings; i++)
            n += strcmp(a->findings[i].code, c->name) == 0;
        *num = (double)n;
        return true;
    }
    if (strcmp(kind, "checklist") == 0) {
        char *end = NULL;
        long item = strtol(c->name, &end, 10);
        if (!*c->name || *end || item < 1 || item > KP_CHECKLIST_ITEMS)
            return false;
        *word = kp_check_status_name(a->checklist[item - 1].status);
        return true;
    }
    /* decision.ID.status: the status a reader sees, "reopen" when a signal fires */
    const kp_design *d = a->design;
    for (size_t i = 0; i < d->ndecisions; i++) {
        if (!d->decisions[i].id || strcmp(d->decisions[i].id, c->name) != 0)
            continue;
        sig_report rep;
        sig_evaluate(d, a, NULL, 0, &rep);
        *word = sig_decision_status(&rep, &d->decisions[i]);
        sig_report_free(&rep);
        return true;
    }
    return false;
}

bool tour_check(const char *check, const kp_analysis *a, char **why)
{
    cond c;
    const char *perr = NULL;
    if (!check || !cond_parse(check, &c, &perr)) {
        if (why)
            *why = xstrdup(perr ? perr : _("no check"));
        return false;
    }
    double num = NAN;
    const char *word = NULL;
    bool ok;
    if (!subject_value(&c, a, &num, &word)) {
        if (why)
            /* TRANSLATORS: %s a check's subject (partition.CLIENTE#{customerId}.hot) */
            *why = xasprintf(_("%s names nothing of the design"), c.subject);
        ok = false;
    } else if (c.type == V_NUM) {
        ok = sig_compare(num, c.cmp, c.num);
        if (!ok && why)
            /* TRANSLATORS: an exercise's check not met yet: its subject and its value now */
            *why = xasprintf(_("%1$s is %2$g"), c.subject, num);
    } else {
        ok = (strcmp(word, c.word) == 0) == (c.cmp == KP_CMP_EQ);
        if (!ok && why)
            /* TRANSLATORS: an exercise's check not met yet: its subject and its value now (a word) */
            *why = xasprintf(_("%1$s is %2$s"), c.subject, word);
    }
    free(c.buf);
    return ok;
}

char *tour_exercise(const tour *t, size_t i, const kp_analysis *a)
{
    if (!t || i >= t->nsteps)
        return NULL;
    const tour_step *s = &t->steps[i];
    sbuf b;
    sbuf_init(&b);
    for (size_t k = 0; k < s->nchecks; k++) {
        char *why = NULL;
        if (!tour_check(s->checks[k], a, &why))
            sbuf_printf(&b, "%s: %s\n", s->checks[k], why);
        free(why);
    }
    if (!b.len) {
        sbuf_free(&b);
        return NULL;
    }
    return sbuf_steal(&b);
}
