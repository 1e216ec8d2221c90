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
    static const char *const names[] = {"GetItem",
                                        "Query",
                                        "Scan",
                                        "BatchGetItem",
                                        "PutItem",
                                        "UpdateItem",
                                        "DeleteItem",
                                        "TransactWriteItems",
                                        "TransactGetItems",
                                        ""};
    return (unsigned)o <= KP_OP_NONE ? names[o] : "";
}

const char *kp_check_status_name(kp_check_status s)
{
    return s == KP_CHECK_PASS ? "pass" : s == KP_CHECK_FAIL ? "fail" : "n/a";
}

/* Per design index: some read pattern has a non-scan step (main or not) on it; one pass over
 * the patterns. Caller frees. */
static bool *indexes_read(const kp_analysis *a, size_t nx)
{
    bool *read = xcalloc(nx ? nx : 1, sizeof *read);
    for (size_t i = 0; i < a->npatterns; i++) {
        const kp_pattern_result *pr = &a->patterns[i];
        if (pr->pattern && pr->pattern->kind != KP_READ)
            continue;
        for (size_t s = 0; s < pr->nsteps; s++)
            if (pr->steps[s].index >= 0 && (size_t)pr->steps[s].index < nx && pr->steps[s].op != KP_OP_SCAN)
                read[pr->steps[s].index] = true;
    }
    return read;
}

bool analysis_index_read(const kp_analysis *a, ptrdiff_t x, bool **read)
{
    if (x + 1 < (ptrdiff_t)a->nindexes && x >= 0 && a->indexes[x + 1].patterns_served > 0)
        return true;
    if (!*read)
        *read = indexes_read(a, a->design->nindexes);
    return (*read)[x];
}

void analysis_name_maps(const kp_design *d, namemap *attrs, namemap *ents)
{
    /* filled from the last element to the first: a namemap keeps the first position put */
    namemap_init(attrs, d->nattrs);
    for (size_t i = d->nattrs; i-- > 0;)
        namemap_put(attrs, d->attrs[i].name, i);
    if (!ents)
        return;
    namemap_init(ents, d->nentities);
    for (size_t i = d->nentities; i-- > 0;)
        namemap_put(ents, d->entities[i].name, i);
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
