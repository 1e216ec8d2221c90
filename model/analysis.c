/* analysis.c - runs the stages of the live model in order and releases the result. */
#include "analysis.h"

#include "analysis_stages.h"

#include <stdlib.h>

static const char *const plan_words[] = {
#define KP_PLAN_WORD(name, word, sym) word,
    KP_PLANS(KP_PLAN_WORD)
#undef KP_PLAN_WORD
};
static const char *const plan_symbols[] = {
#define KP_PLAN_SYM(name, word, sym) sym,
    KP_PLANS(KP_PLAN_SYM)
#undef KP_PLAN_SYM
};

const char *kp_plan_word(kp_plan p) { return (unsigned)p < KP_PLAN__COUNT ? plan_words[p] : "?"; }
const char *kp_plan_symbol(kp_plan p) { return (unsigned)p < KP_PLAN__COUNT ? plan_symbols[p] : "?"; }

const char *kp_op_name(kp_op o)
{
    static const char *const names[] = {"GetItem",    "Query",      "Scan",           "BatchGetItem", "PutItem",
                                        "UpdateItem", "DeleteItem", "TransactWriteItems", ""};
    return (unsigned)o <= KP_OP_NONE ? names[o] : "";
}

const char *kp_check_status_name(kp_check_status s)
{
    return s == KP_CHECK_PASS ? "pass" : s == KP_CHECK_FAIL ? "fail" : "n/a";
}

kp_analysis *analysis_run(const kp_design *d)
{
    kp_analysis *a = xcalloc(1, sizeof *a);
    a->design = d;
    stage_resolve(a);
    stage_heat(a);
    stage_cost(a);
    stage_checklist(a);
    stage_findings(a);
    return a;
}

void analysis_free(kp_analysis *a)
{
    if (!a)
        return;
    stage_findings_free(a);
    stage_checklist_free(a);
    stage_cost_free(a);
    stage_heat_free(a);
    stage_resolve_free(a);
    free(a);
}
