/* analysis.c - runs the stages of the live model in order and releases the result. */
#include "analysis.h"

#include "edit.h"

#include "analysis_stages.h"
#include "fields.h"

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

/* The design indexes read pattern pr reads by a non-scan step (main or not), each once, into
 * x[] (room for nsteps); returns how many. */
static size_t pattern_reads(const kp_pattern_result *pr, size_t nx, ptrdiff_t *x)
{
    size_t n = 0;
    if (pr->pattern && pr->pattern->kind != KP_READ)
        return 0;
    for (size_t s = 0; s < pr->nsteps; s++) {
        ptrdiff_t k = pr->steps[s].index;
        if (k < 0 || (size_t)k >= nx || pr->steps[s].op == KP_OP_SCAN)
            continue;
        bool seen = false;
        for (size_t j = 0; j < n && !seen; j++)
            seen = x[j] == k;
        if (!seen)
            x[n++] = k;
    }
    return n;
}

static const size_t *incr_readers(const kp_analysis *a);

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
    const size_t *readers = incr_readers(a); /* analysis_update counts them as patterns change */
    if (readers)
        return x >= 0 && (size_t)x < a->design->nindexes && readers[x] > 0;
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

/* What analysis_update keeps with its result (a->incr). */
typedef struct incr {
    kp_design *base;   /* the design analysed: the analysis' own copy, patched pattern by pattern */
    rs_keep *resolver; /* the resolver's context on base (name ids, indexes, memo) */
    struct heat *heat; /* heat's rows and items on base */
    struct findings_keep *findings;   /* each pattern's findings, and the design's */
    struct checklist_keep *checklist; /* names and per-pattern answers */
    size_t *readers;                  /* per design index: read patterns reading it by a non-scan
                                         step (analysis_index_read) */
    size_t stale; /* patterns resolved again since the full run (their old strings stay in the
                          arena): past the design's size, the next change is a full run */
} incr;

/* The stages after the resolver, on a->patterns (on what analysis_update keeps, when given). */
static void run_after_resolve(kp_analysis *a, incr *in)
{
    if (in)
        stage_heat_run(in->heat, a);
    else
        stage_heat(a);
    stage_cost(a);
    if (in)
        stage_checklist_run(in->checklist, a);
    else
        stage_checklist(a);
    if (in)
        stage_findings_run(in->findings, a);
    else
        stage_findings(a);
}

static void free_after_resolve(kp_analysis *a)
{
    stage_findings_free(a);
    stage_checklist_free(a);
    stage_cost_free(a);
    stage_heat_free(a);
}

static const size_t *incr_readers(const kp_analysis *a)
{
    const incr *in = a->incr;
    return in ? in->readers : NULL;
}

/* Pattern i's reads counted in (by +1) or out (-1) of in->readers. */
static void count_readers(incr *in, const kp_analysis *a, size_t i, int by)
{
    const kp_pattern_result *pr = &a->patterns[i];
    ptrdiff_t inl[16];
    ptrdiff_t *x = pr->nsteps <= 16 ? inl : xmalloc(pr->nsteps * sizeof *x);
    size_t n = pattern_reads(pr, in->base->nindexes, x);
    for (size_t k = 0; k < n; k++)
        in->readers[x[k]] += (size_t)by; /* -1 wraps as it should: counted in before */
    if (x != inl)
        free(x);
}

static void incr_free(kp_analysis *a)
{
    incr *in = a->incr;
    if (!in)
        return;
    stage_resolve_close(in->resolver);
    stage_heat_close(in->heat);
    stage_findings_close(in->findings);
    stage_checklist_close(in->checklist);
    free(in->readers);
    design_free(in->base);
    free(in);
    a->incr = NULL;
}

/* Everything but the patterns is equal (then the design-level work stands). */
static bool same_but_patterns(const kp_design *x, const kp_design *y)
{
    kp_design a = *x, b = *y;
    a.patterns = b.patterns = NULL;
    a.npatterns = b.npatterns = 0;
    return design_equal(&a, &b);
}

/* Makes pattern i of in->base a copy of d's when they differ; true when it did. */
static bool patch_pattern(incr *in, const kp_design *d, size_t i)
{
    kp_pattern *mine = &in->base->patterns[i];
    const kp_pattern *theirs = &d->patterns[i];
    if (fields_equal(&kp_rec_pattern, mine, theirs))
        return false;
    pattern_free(mine);
    *mine = *theirs;
    fields_clone(&kp_rec_pattern, mine, theirs);
    return true;
}

static kp_analysis *analyse_whole(kp_design *base);

kp_analysis *analysis_update(kp_analysis *prev, const kp_design *d, size_t changed)
{
    incr *in = prev ? prev->incr : NULL;
    if (changed == ANALYSIS_REST && in && in->base->npatterns == d->npatterns) {
        /* the rest alone: the patterns' results, heat's rows and the checklist's answers stand
           (they read the model); the findings read the decisions in their partitions' */
        kp_analysis *a = prev;
        free_after_resolve(a);
        design_rest_copy(in->base, d);
        stage_findings_rest(in->findings);
        run_after_resolve(a, in);
        return a;
    }
    if (changed == ANALYSIS_REST)
        changed = ANALYSIS_UNKNOWN;
    /* told the row: nothing else changed (the caller says so), else the rest compared */
    if (in && in->base->npatterns == d->npatterns && in->stale <= d->npatterns &&
        (changed < d->npatterns || same_but_patterns(in->base, d))) {
        kp_analysis *a = prev;
        size_t from = changed < d->npatterns ? changed : 0,
               to = changed < d->npatterns ? changed + 1 : d->npatterns;
        size_t n = 0;
        for (size_t i = from; i < to; i++)
            if (patch_pattern(in, d, i)) {
                count_readers(in, a, i, -1);
                stage_resolve_pattern(in->resolver, a, i);
                count_readers(in, a, i, +1);
                stage_findings_dirty(in->findings, i);
                stage_heat_dirty(in->heat, i);
                stage_checklist_dirty(in->checklist, i);
                n++;
            }
        if (n == 0)
            return a; /* the same design: the same analysis */
        in->stale += n;
        free_after_resolve(a);
        run_after_resolve(a, in);
        return a;
    }
    analysis_free(prev);
    return analyse_whole(design_clone(d));
}

/* The whole analysis of base (taken: the analysis' own copy), with what analysis_update keeps. */
static kp_analysis *analyse_whole(kp_design *base)
{
    kp_analysis *a = xcalloc(1, sizeof *a);
    incr *in = xcalloc(1, sizeof *in);
    in->base = base;
    a->design = in->base;
    a->incr = in;
    in->resolver = stage_resolve_open(a);
    for (size_t i = 0; i < a->npatterns; i++)
        stage_resolve_pattern(in->resolver, a, i);
    in->readers = xcalloc(base->nindexes + 1, sizeof *in->readers);
    for (size_t i = 0; i < a->npatterns; i++)
        count_readers(in, a, i, +1);
    in->heat = stage_heat_open(a);
    in->findings = stage_findings_open(a);
    in->checklist = stage_checklist_open(a);
    run_after_resolve(a, in);
    return a;
}

kp_analysis *analysis_update_row(kp_analysis *prev, const kp_design *d, edit_table t, size_t row)
{
    incr *in = prev ? prev->incr : NULL;
    const kp_record *rec = NULL;
    void *mine = in ? edit_row(in->base, t, row, &rec) : NULL;
    const void *theirs = mine ? edit_row((kp_design *)d, t, row, &rec) : NULL;
    if (!theirs || in->base->npatterns != d->npatterns || edit_nrows(in->base, t) != edit_nrows(d, t) ||
        t == EDIT_PATTERNS || t == EDIT_DECISIONS)
        return analysis_update(prev, d, ANALYSIS_UNKNOWN);
    /* the analysis' copy of the design made d's by that element alone, no other copy made */
    kp_design *base = in->base;
    fields_copy(rec, mine, theirs);
    in->base = NULL;
    analysis_free(prev);
    return analyse_whole(base);
}

/* The results' pattern pointers made to point into in->base again (its list moved). */
static void repoint(kp_analysis *a, const incr *in)
{
    for (size_t i = 0; i < a->npatterns; i++)
        a->patterns[i].pattern = &in->base->patterns[i];
}

kp_analysis *analysis_update_rows(kp_analysis *prev, const kp_design *d, kp_rowop op)
{
    incr *in = prev ? prev->incr : NULL;
    size_t n = in ? in->base->npatterns : 0;
    /* an insertion or a removal leaves one pattern's strings in the arena, as a cell's edit does */
    if (!in || !kp_rowop_fits(op, n) || kp_rowop_count(op, n) != d->npatterns ||
        in->stale + (op.kind != KP_ROW_MOVE) > d->npatterns || prev->npatterns != n)
        return analysis_update(prev, d, ANALYSIS_UNKNOWN);
    kp_analysis *a = prev;
    kp_pattern p = {0}, gone = {0};
    if (op.kind == KP_ROW_REMOVE) {
        count_readers(in, a, op.row, -1);
    } else if (op.kind == KP_ROW_INSERT) {
        p = d->patterns[op.row];
        fields_clone(&kp_rec_pattern, &p, &d->patterns[op.row]);
        a->patterns = xrealloc(a->patterns, (n + 1) * sizeof *a->patterns);
    }
    design_patterns_step(in->base, op, &p, &gone);
    pattern_free(&gone); /* a removed one's: its result's strings stay in the arena */
    kp_rowop_shift(a->patterns, n, sizeof *a->patterns, op);
    a->npatterns = in->base->npatterns;
    stage_heat_rows(in->heat, op);
    stage_checklist_rows(in->checklist, op);
    stage_findings_rows(in->findings, op);
    repoint(a, in);
    if (op.kind == KP_ROW_INSERT) {
        stage_resolve_pattern(in->resolver, a, op.row);
        count_readers(in, a, op.row, +1);
    }
    in->stale += op.kind != KP_ROW_MOVE;
    free_after_resolve(a);
    run_after_resolve(a, in);
    return a;
}

kp_analysis *analysis_run(const kp_design *d)
{
    kp_analysis *a = xcalloc(1, sizeof *a);
    a->design = d;
    stage_resolve(a);
    run_after_resolve(a, NULL);
    return a;
}

void analysis_free(kp_analysis *a)
{
    if (!a)
        return;
    free_after_resolve(a);
    stage_resolve_free(a);
    incr_free(a); /* last: the stages' results point into its copy of the design */
    free(a);
}
