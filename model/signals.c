/* signals.c - reopening signals evaluated against the design's numbers and observations. */
#include "signals.h"

#include "i18n.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void sig_observations_free(sig_observation *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(v[i].metric);
        free(v[i].time);
        free(v[i].source);
    }
    free(v);
}

bool sig_compare(double value, kp_cmp cmp, double threshold)
{
    if (isnan(value) || isnan(threshold))
        return false;
    switch (cmp) {
    case KP_CMP_GT:
        return value > threshold;
    case KP_CMP_GE:
        return value >= threshold;
    case KP_CMP_LT:
        return value < threshold;
    case KP_CMP_LE:
        return value <= threshold;
    case KP_CMP_EQ:
        return value == threshold;
    case KP_CMP_NE:
        return value != threshold;
    }
    return false;
}

static bool one_of(const char *s, size_t n, const char *const *words)
{
    for (; *words; words++)
        if (strlen(*words) == n && strncmp(s, *words, n) == 0)
            return true;
    return false;
}

/* NULL when `metric` has the shape of a signal metric, else what was expected (static, in the
 * reader's language). */
static const char *metric_problem(const char *metric)
{
    static const char *const pattern_f[] = {"rate", "rcu", "requests", "latency", NULL};
    static const char *const entity_f[] = {"count", "size", "writes", NULL};
    static const char *const index_f[] = {"items", "wcu", "hot_share", NULL};
    /* TRANSLATORS: the metric names stay as they are (the design file's words) */
    const char *expected =
        _("expected pattern.<id>.rate|rcu|requests|latency, entity.<name>.count|size|writes, "
          "index.<name>.items|wcu|hot_share, table.hot_share, cost.total or cost.<line>");
    if (!metric || !*metric)
        return expected;
    for (const char *p = metric; *p; p++)
        if ((unsigned char)*p <= ' ' && *p != ' ')
            return expected;
    if (strcmp(metric, "table.hot_share") == 0 || strcmp(metric, "cost.total") == 0)
        return NULL;
    if (strncmp(metric, "cost.", 5) == 0)
        return metric[5] != '\0' ? NULL : expected;
    const char *const *fields = NULL;
    size_t pre = 0;
    if (strncmp(metric, "pattern.", 8) == 0)
        fields = pattern_f, pre = 8;
    else if (strncmp(metric, "entity.", 7) == 0)
        fields = entity_f, pre = 7;
    else if (strncmp(metric, "index.", 6) == 0)
        fields = index_f, pre = 6;
    else
        return expected;
    const char *last = strrchr(metric, '.');
    if (last <= metric + pre) /* no name between the prefix and the field */
        return _("expected a name between the prefix and the field (pattern.5.rate)");
    return one_of(last + 1, strlen(last + 1), fields) ? NULL : expected;
}

kp_status sig_metric_check(const char *metric, char **err)
{
    const char *problem = metric_problem(metric);
    return problem ? kp_fail(err, KP_SIGNAL, "%s", problem) : KP_OK;
}

const sig_observation *sig_latest(const sig_observation *obs, size_t nobs, const char *metric)
{
    const sig_observation *best = NULL;
    for (size_t i = 0; i < nobs; i++)
        if (obs[i].metric && strcmp(obs[i].metric, metric) == 0 && (!best || obs[i].id >= best->id))
            best = &obs[i];
    return best;
}

void sig_evaluate(const kp_design *d, const kp_analysis *a, const sig_observation *obs, size_t nobs,
                  sig_report *out)
{
    memset(out, 0, sizeof *out);
    size_t cap = 0;
    for (size_t i = 0; i < d->ndecisions; i++) {
        const kp_decision *dec = &d->decisions[i];
        for (size_t k = 0; k < dec->nsignals; k++) {
            const kp_signal *sg = &dec->signals[k];
            VEC_GROW(out->v, out->n, cap);
            sig_result *r = &out->v[out->n++];
            memset(r, 0, sizeof *r);
            r->decision = dec;
            r->signal = sg;
            r->value = NAN;
            double v;
            if (a && sg->metric && analysis_metric(a, sg->metric, &v) && !isnan(v)) {
                r->known = true;
                r->value = v;
                r->fired_design = sig_compare(v, sg->cmp, sg->value);
            }
            r->observed = sg->metric ? sig_latest(obs, nobs, sg->metric) : NULL;
            if (r->observed)
                r->fired_observed = sig_compare(r->observed->value, sg->cmp, sg->value);
            r->fired = r->fired_design || r->fired_observed;
            if (r->fired)
                out->fired++;
        }
    }
}

void sig_report_free(sig_report *r)
{
    if (!r)
        return;
    free(r->v);
    memset(r, 0, sizeof *r);
}

bool sig_decision_fired(const sig_report *r, const kp_decision *dec)
{
    if (!r)
        return false;
    for (size_t i = 0; i < r->n; i++)
        if (r->v[i].decision == dec && r->v[i].fired)
            return true;
    return false;
}

const char *sig_decision_status(const sig_report *r, const kp_decision *dec)
{
    if (sig_decision_fired(r, dec))
        return "reopen";
    return kp_decision_status_name(dec->status);
}
