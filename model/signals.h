/* signals.h - reopening signals: each decision's "metric op number" checked against the
 * design's own numbers (analysis_metric) and against the latest observation of that metric
 * recorded in the workspace. A fired signal marks its decision "reopen" wherever decisions are
 * shown. Pure evaluation: no I/O. */
#ifndef KP_SIGNALS_H
#define KP_SIGNALS_H

#include "analysis.h"
#include "design.h"

#include <stdbool.h>
#include <stddef.h>

/* One observed number (`keyplan observe WS METRIC=VALUE`). Strings are owned by the element;
 * release arrays with sig_observations_free. */
typedef struct sig_observation {
    long long id; /* order of recording (larger = newer); 0 when not from a workspace */
    char *metric; /* "pattern.5.rate" */
    double value;
    char *time;   /* ISO 8601 UTC, "2026-11-29T21:40:12Z" */
    char *source; /* who or what recorded it ("cli:ana", "cloudwatch") */
} sig_observation;

void sig_observations_free(sig_observation *v, size_t n);

/* The evaluation of one signal of one decision. Pointers point into the design and the
 * observation list given to sig_evaluate: both must outlive the report. */
typedef struct sig_result {
    const kp_decision *decision;
    const kp_signal *signal;
    bool known;                      /* the design yields a value for the metric */
    double value;                    /* the design's own number (when known) */
    bool fired_design;               /* known && value meets the condition */
    const sig_observation *observed; /* latest observation of the metric, NULL when none */
    bool fired_observed;             /* observed && its value meets the condition */
    bool fired;                      /* fired_design || fired_observed */
} sig_result;

typedef struct sig_report {
    sig_result *v; /* every signal of every decision, in design order */
    size_t n;
    size_t fired; /* how many fired */
} sig_report;

/* true when `value cmp threshold` holds (">", ">=", "<", "<=", "==", "!="). */
bool sig_compare(double value, kp_cmp cmp, double threshold);

/* Evaluates every signal of every decision of `d`. `a` is d's analysis (may be NULL: then no
 * design values are known); `obs` may be NULL when nobs is 0, and for each metric the element
 * with the largest id (ties: the later one in the array) is its latest observation. Fills *out
 * (caller releases with sig_report_free). Never fails. */
void sig_evaluate(const kp_design *d, const kp_analysis *a, const sig_observation *obs, size_t nobs,
                  sig_report *out);
void sig_report_free(sig_report *r);

/* true when any signal of decision `dec` fired in the report (the decision reads "reopen"). */
bool sig_decision_fired(const sig_report *r, const kp_decision *dec);

/* The status a reader should see for decision `dec`: "reopen" when one of its signals fired,
 * else its own status word ("accepted", "proposed", ...). Static string. */
const char *sig_decision_status(const sig_report *r, const kp_decision *dec);

/* KP_OK when `metric` has the shape of a signal metric: pattern.<id>.rate|rcu|requests|
 * latency, entity.<name>.count|size|writes, index.<name>.items|wcu|hot_share, table.hot_share,
 * cost.total, cost.<line>. Else KP_SIGNAL with *err (caller frees; err may be NULL) saying what
 * was expected. Whether the named pattern, entity or index exists is not checked here. */
kp_status sig_metric_check(const char *metric, char **err);

/* The latest observation of `metric` in obs (see sig_evaluate), or NULL. */
const sig_observation *sig_latest(const sig_observation *obs, size_t nobs, const char *metric);

#endif
