/* verify.h - runs a design against a real DynamoDB endpoint (DynamoDB Local or AWS) and checks
 * that every DynamoDB pattern returns exactly what the model predicts.
 *
 * What verify_run does, in order:
 *  1. creates the table under a fresh name ("<table>-verify-<time>-<pid>") from the design: key
 *     attributes, every GSI and LSI with its projection, PAY_PER_REQUEST; waits until ACTIVE;
 *  2. loads the sample items (item_sample_make, seed ITEM_DEFAULT_SEED) with BatchWriteItem;
 *  3. for every read pattern with a DynamoDB plan, builds each step's request from the plan
 *     (requests_step_input) with values taken from a sample item, sends it, and compares what
 *     comes back with what the model predicts: the plan's request evaluated over the
 *     loaded items (same items, same order, same count, Limit and ScanIndexForward honoured),
 *     and only items of the pattern's entities unless the model predicted a filter (the
 *     mixed-collection check), in the asked order when the model says the key serves it;
 *  4. compares the ConsumedCapacity DynamoDB reports with the units the model's capacity rules
 *     give for the items read (4 KB units, a Query's bytes summed then rounded, GetItem and
 *     BatchGetItem rounded per item, eventual x0.5). Tolerance: one read unit at the pattern's
 *     consistency per request (0.5 eventual, 1 strong), which absorbs the rounding of the
 *     estimated number sizes; anything further is a failure;
 *  5. runs write patterns (PutItem, UpdateItem, DeleteItem, TransactWriteItems) last and
 *     checks that DynamoDB accepts them;
 *  6. prints one PASS/FAIL/SKIP line per pattern and a summary, and deletes the table, also
 *     after a failure.
 * What DynamoDB should return is the plan evaluated over the loaded items (model/planeval.h);
 * FilterExpressions are evaluated by verify on those items (the capacity is the same: DynamoDB
 * bills the items read before a filter), so the check does not depend on attributes an index
 * projection leaves out. The requests go through the client of ddb.h with the credentials of
 * creds.h. */
#ifndef KP_VERIFY_H
#define KP_VERIFY_H

#include "analysis.h"
#include "design.h"

#include <signal.h>
#include <stdio.h>

typedef struct verify_opts {
    const char *endpoint;        /* "http://127.0.0.1:8000" or "https://dynamodb.eu-west-1.amazonaws.com" */
    const char *region;          /* NULL: from the environment / profile, else us-east-1 */
    FILE *out;                   /* the PASS/FAIL lines and the summary */
    FILE *err;                   /* problems that stop the run */
    volatile sig_atomic_t *stop; /* may be NULL; when it turns non-zero (a signal handler of the
                                    caller) the run stops after the current request, deletes
                                    the table and fails with KP_NETWORK, "interrupted" */
} verify_opts;

/* What a run found: one count per PASS, FAIL and SKIP line (a primary key that two entities'
 * sample items share is a FAIL line of its own). */
typedef struct verify_summary {
    size_t passed, failed, skipped;
} verify_summary;

/* Runs the verification. KP_OK when it ran to the end: *sum says what it found (every pattern
 * passed when sum->failed is 0). Otherwise it could not run, with *err set (caller frees):
 * KP_INVALID for an endpoint that is not an http(s) URL or a design without a table,
 * KP_NOTFOUND when there are no credentials, KP_NETWORK when the run against the endpoint
 * could not go on (unreachable, an HTTP or API error outside the patterns' checks, stopped by
 * o->stop). The table is deleted in every case once it was created. */
kp_status verify_run(const kp_design *d, const kp_analysis *a, const verify_opts *o, verify_summary *sum,
                     char **err);

#endif
