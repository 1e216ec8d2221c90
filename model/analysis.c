/* analysis.c - runs the stages of the live model in order and releases the result. */
#include "analysis.h"

#include "edit.h"

#include "analysis_stages.h"
#include "capacity.h"
#include "fields.h"
#include "overlap.h"

#include <stdlib.h>
#include <string.h>

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
    if (ents)
        analysis_entity_map(d, ents);
}

void analysis_entity_map(const kp_design *d, namemap *ents)
{
    namemap_init(ents, d->nentities); /* from the last, as the attributes' */
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
                          arena): past stale_max, the next change is a full run */
    struct gone {
        const kp_record *rec;
        void *v;
    } * gone; /* elements as they were before an edit in place: results not made again may still
                point at their strings (released with the rest) */
    size_t ngone, capgone;
    bool whole; /* the last run was a whole analysis (analysis_was_whole) */
} incr;

void analysis_forget_ids(kp_analysis *a)
{
    if (a && a->ids)
        namemap_free(a->ids);
    if (a) {
        free(a->ids);
        a->ids = NULL;
    }
}

/* a (patched in place by analysis_update*), said so; its map of ids dropped (the patterns' ids
 * and places may have changed). */
static kp_analysis *patched(kp_analysis *a)
{
    ((incr *)a->incr)->whole = false;
    analysis_forget_ids(a);
    return a;
}

const kp_pattern_result *analysis_pattern(const kp_analysis *a, const char *id)
{
    if (!a || !id)
        return NULL;
    kp_analysis *m = (kp_analysis *)a; /* the map is a cache of what a holds, made on demand */
    if (!m->ids) {
        namemap *ids = xcalloc(1, sizeof *ids);
        namemap_init(ids, a->npatterns);
        for (size_t i = 0; i < a->npatterns; i++) /* the first of an id wins (namemap_put) */
            if (a->patterns[i].pattern && a->patterns[i].pattern->id)
                namemap_put(ids, a->patterns[i].pattern->id, i);
        m->ids = ids;
    }
    size_t i;
    return namemap_get(m->ids, id, &i) ? &a->patterns[i] : NULL;
}

/* How many patterns may be resolved again before a full run releases their old strings (about
 * a third of a kilobyte each): four times the design's size, at least 1,024. An edit of an entity
 * in a collection shared by many resolves many patterns again (a third of them on
 * bench_analysis' generated design): four such edits in a row stay in place. */
static size_t stale_max(size_t npatterns) { return npatterns < 256 ? 1024 : 4 * npatterns; }

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

/* Pattern i resolved again, its reads counted anew, the stages' records of it to be made again
 * (heat's: dirty_heat, else the caller's to say). */
static void resolve_again(kp_analysis *a, incr *in, size_t i, bool dirty_heat)
{
    count_readers(in, a, i, -1);
    stage_resolve_pattern(in->resolver, a, i);
    count_readers(in, a, i, +1);
    stage_findings_dirty(in->findings, i);
    stage_checklist_dirty(in->checklist, i);
    if (dirty_heat)
        stage_heat_dirty(in->heat, i);
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
    for (size_t i = 0; i < in->ngone; i++) {
        fields_free(in->gone[i].rec, in->gone[i].v);
        free(in->gone[i].v);
    }
    free(in->gone);
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
        return patched(a);
    }
    if (changed == ANALYSIS_REST)
        changed = ANALYSIS_UNKNOWN;
    /* told the row: nothing else changed (the caller says so), else the rest compared */
    if (in && in->base->npatterns == d->npatterns && in->stale <= stale_max(d->npatterns) &&
        (changed < d->npatterns || same_but_patterns(in->base, d))) {
        kp_analysis *a = prev;
        size_t from = changed < d->npatterns ? changed : 0,
               to = changed < d->npatterns ? changed + 1 : d->npatterns;
        size_t n = 0;
        for (size_t i = from; i < to; i++)
            if (patch_pattern(in, d, i)) {
                resolve_again(a, in, i, true);
                n++;
            }
        if (n == 0)
            return patched(a); /* the same design: the same analysis */
        in->stale += n;
        free_after_resolve(a);
        run_after_resolve(a, in);
        return patched(a);
    }
    analysis_free(prev);
    return analyse_whole(design_clone(d));
}

kp_analysis *analysis_update_pattern_id(kp_analysis *prev, const kp_design *d, size_t row)
{
    incr *in = prev ? prev->incr : NULL;
    size_t n = d->npatterns;
    if (!in || in->base->npatterns != n || row >= n || in->stale > stale_max(n))
        return analysis_update(prev, d, ANALYSIS_UNKNOWN);
    kp_analysis *a = prev;
    char *old = in->base->patterns[row].id ? xstrdup(in->base->patterns[row].id) : NULL;
    const char *now = d->patterns[row].id;
    /* the pattern, and those covered_by it by either id (the rename moved theirs) */
    size_t again = 0;
    for (size_t i = 0; i < n; i++) {
        const char *cb = d->patterns[i].covered_by.s;
        bool reads = i == row || (cb && ((old && strcmp(cb, old) == 0) || (now && strcmp(cb, now) == 0)));
        if (reads && patch_pattern(in, d, i)) {
            resolve_again(a, in, i, true);
            again++;
        }
    }
    free(old);
    in->stale += again;
    /* the decisions that named it follow it: the rest, as after an edit of the rest */
    free_after_resolve(a);
    design_rest_copy(in->base, d);
    stage_findings_rest(in->findings);
    run_after_resolve(a, in);
    return patched(a);
}

/* The whole analysis of base (taken: the analysis' own copy), with what analysis_update keeps. */
static kp_analysis *analyse_whole(kp_design *base)
{
    kp_analysis *a = xcalloc(1, sizeof *a);
    incr *in = xcalloc(1, sizeof *in);
    in->base = base;
    in->whole = true;
    a->design = in->base;
    a->incr = in;
    in->resolver = stage_resolve_open(a, true);
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

/* Both NULL, or the same text. */
static bool same_str(const char *x, const char *y) { return x == y || (x && y && strcmp(x, y) == 0); }

static bool keys_equal(const kp_entity *x, const kp_entity *y)
{
    if (x->nkeys != y->nkeys)
        return false;
    for (size_t k = 0; k < x->nkeys; k++)
        if (!fields_equal(&kp_rec_keytpl, &x->keys[k], &y->keys[k]))
            return false;
    return true;
}

/* x and y differ at most in their figures: count, size, writes, writes_avg, description. */
static bool figures_only(const kp_entity *x, const kp_entity *y)
{
    kp_entity z = *y;
    z.count = x->count;
    z.size = x->size;
    z.writes = x->writes;
    z.writes_avg = x->writes_avg;
    z.description = x->description;
    return fields_equal(&kp_rec_entity, x, &z);
}

/* Does pattern i name attribute `name` (by, filter, order, range, join, changes, returns)? */
static bool names_attr(const kp_pattern *p, const char *name)
{
    for (size_t k = 0; k < p->nby; k++)
        if (p->by[k].attr.s && strcmp(p->by[k].attr.s, name) == 0)
            return true;
    const kp_str *lists[3] = {p->filter, p->changes, p->returns};
    size_t nlists[3] = {p->nfilter, p->nchanges, p->nreturns};
    for (int l = 0; l < 3; l++)
        for (size_t k = 0; k < nlists[l]; k++)
            if (lists[l][k].s && strcmp(lists[l][k].s, name) == 0)
                return true;
    for (size_t k = 0; k < p->njoin; k++)
        if ((p->join[k].to.s && strcmp(p->join[k].to.s, name) == 0) ||
            (p->join[k].from.s && strcmp(p->join[k].from.s, name) == 0))
            return true;
    return (p->order.s && strcmp(p->order.s, name) == 0) || (p->range.s && strcmp(p->range.s, name) == 0);
}

/* Does pattern i need resolving again after an edit of the entities touch[] marks (wtouch[]
 * for a write, when not NULL), or of attribute attr (when not NULL)? When it names one of them
 * (a read, a write, a step of a join) or the attribute, or its plan reads the whole table (a
 * Scan: the table's totals). */
static bool reads_touched(const kp_analysis *a, const namemap *ents, const bool *touch, const bool *wtouch,
                          const char *attr, size_t i)
{
    const kp_pattern_result *pr = &a->patterns[i];
    const kp_pattern *p = &a->design->patterns[i];
    if (wtouch && p->kind == KP_WRITE)
        touch = wtouch;
    if (pr->plan == KP_PLAN_SCAN || pr->plan == KP_PLAN_INVALID)
        return true;
    for (size_t s = 0; s < pr->nsteps; s++)
        if (pr->steps[s].op == KP_OP_SCAN)
            return true;
    size_t ep;
    for (size_t k = 0; k < p->nentities; k++)
        if (!namemap_get(ents, p->entities[k].s, &ep) || touch[ep])
            return true;
    return attr && names_attr(p, attr);
}

/* Element `mine` (of record rec) of in->base kept with the analysis, its strings with it (results
 * not made again may point at them); its place in the list is the caller's to fill or drop. */
static void keep_gone(incr *in, const kp_record *rec, const void *mine)
{
    VEC_GROW(in->gone, in->ngone, in->capgone);
    void *old = xmalloc(rec->size);
    memcpy(old, mine, rec->size);
    in->gone[in->ngone++] = (struct gone){rec, old};
}

/* Element `mine` (of record rec) of in->base made `theirs` in place; the old one kept. */
static void swap_in(incr *in, const kp_record *rec, void *mine, const void *theirs)
{
    keep_gone(in, rec, mine);
    memcpy(mine, theirs, rec->size);
    fields_clone(rec, mine, theirs);
}

/* Did pattern i's result read the items of an entity readof[] marks, beside those it names? */
static bool reads_of(const incr *in, size_t i, const bool *readof)
{
    size_t n;
    const size_t *v = stage_resolve_read(in->resolver, i, &n);
    for (size_t k = 0; k < n; k++)
        if (readof[v[k]])
            return true;
    return false;
}

/* The patterns that name the entities touch[] marks (the writes: wtouch[], when not NULL; or
 * attribute attr), or Scan, or (readof not NULL) read the items of those readof[] marks: redo[]
 * (allocated) and how many, or (size_t)-1 (redo NULL) when they are more than half the design: a
 * whole analysis is then as quick, and releases the arena's old strings. */
static size_t touched_patterns(const kp_analysis *a, const incr *in, const bool *touch, const bool *wtouch,
                               const bool *readof, const char *attr, bool **redo)
{
    const kp_design *d = a->design;
    size_t n = a->npatterns, again = 0;
    namemap ents;
    analysis_entity_map(d, &ents);
    *redo = xcalloc(n ? n : 1, sizeof **redo);
    for (size_t i = 0; i < n; i++)
        again += (*redo)[i] =
            reads_touched(a, &ents, touch, wtouch, attr, i) || (readof && reads_of(in, i, readof));
    namemap_free(&ents);
    if (again > n / 2) {
        free(*redo);
        *redo = NULL;
        return (size_t)-1;
    }
    return again;
}

/* After an element's edit in place (the resolver's context patched): the patterns redo[] marks
 * (again of them; taken) resolved again; heat patched for the entities refig[] marks (in place
 * when heat_in_place, else made anew with the other patterns' loads kept); the design's findings
 * made again; then the stages run. */
static void redo_touched(kp_analysis *a, incr *in, bool *redo, size_t again, const bool *refig,
                         const char *attr, bool heat_in_place)
{
    size_t ne = in->base->nentities, n = a->npatterns;
    for (size_t i = 0; i < n; i++)
        if (redo[i])
            resolve_again(a, in, i, false); /* heat's below */
    in->stale += again + 1;
    /* heat's rows, members, items and the entities' writes made again; the loads of the patterns
       not resolved again replayed */
    if (!heat_in_place || !stage_heat_refigure(in->heat, refig, attr, redo)) {
        struct heat *h = stage_heat_open(a);
        stage_heat_take(h, in->heat, redo);
        stage_heat_close(in->heat);
        in->heat = h;
    }
    free(redo);
    stage_findings_element(in->findings, a, attr, refig);
    for (size_t e = 0; e < ne; e++)
        if (refig[e])
            stage_checklist_entity(in->checklist, e);
    run_after_resolve(a, in);
}

/* Is `attr` the partition key of the table or of an index? */
static bool partition_key(const kp_design *d, const char *attr)
{
    if (same_str(d->table.pk.s, attr))
        return true;
    for (size_t x = 0; x < d->nindexes; x++)
        if (same_str(d->indexes[x].pk.s, attr))
            return true;
    return false;
}

/* x and y differ at most in the templates of their keys (the same key attributes, the rest
 * equal): the entity is on the same indexes, with the same members' figures. */
static bool templates_only(const kp_entity *x, const kp_entity *y)
{
    if (x->nkeys != y->nkeys)
        return false;
    for (size_t k = 0; k < x->nkeys; k++)
        if (!same_str(x->keys[k].attr.s, y->keys[k].attr.s))
            return false;
    kp_entity z = *y;
    z.keys = x->keys;
    return fields_equal(&kp_rec_entity, x, &z);
}

/* x and y differ at most in the templates of their sort keys (templates_only, and the same
 * partition keys' templates): heat's rows, which are partition keys' templates, and its members,
 * stay; their entries' sizes are figured again. */
static bool sort_keys_only(const kp_design *d, const kp_entity *x, const kp_entity *y)
{
    if (!templates_only(x, y))
        return false;
    for (size_t k = 0; k < x->nkeys; k++)
        if (partition_key(d, x->keys[k].attr.s) && !fields_equal(&kp_rec_keytpl, &x->keys[k], &y->keys[k]))
            return false;
    return true;
}

/* Does entity e carry attribute `name` (a domain attribute, a template's placeholder, a key
 * attribute, a sparse condition's)? */
static bool carries_attr(const kp_entity *e, const char *name)
{
    for (size_t k = 0; k < e->nattrs; k++)
        if (e->attrs[k].s && strcmp(e->attrs[k].s, name) == 0)
            return true;
    for (size_t k = 0; k < e->nkeys; k++) {
        if (e->keys[k].attr.s && strcmp(e->keys[k].attr.s, name) == 0)
            return true;
        const tpl *t = &e->keys[k].tpl;
        for (size_t j = 0; j < t->n; j++)
            if (t->parts[j].kind == TPL_ATTR && strcmp(t->parts[j].text, name) == 0)
                return true;
    }
    for (size_t k = 0; k < e->nsparse; k++)
        if (e->sparse[k].cond_attr.s && strcmp(e->sparse[k].cond_attr.s, name) == 0)
            return true;
    return false;
}

/* Entity epos of in->base made d's in place, and only what it can change analysed again: the
 * patterns that read it or its neighbours (entities sharing its partitions on some index) or the
 * whole table, heat's rows, the design's own findings. A change of its keys that gives a
 * placeholder other separators (ov_separators_changed) reaches the other entities carrying it:
 * the separators bound the values of every template holding it, so a '-' after {x} in its key
 * keeps x from ending in "-B" in another's, which may then no longer meet a third's; their
 * neighbours' patterns are resolved again too. False (the caller analyses whole) when
 * redo_touched finds most of the design to redo. (The sort keys' types need no such look:
 * validation holds every entity filling a key attribute to one type.) */
static bool update_entity(kp_analysis *a, incr *in, size_t epos, const kp_entity *theirs)
{
    kp_design *base = in->base;
    kp_entity *mine = &base->entities[epos];
    if (!mine->name || !same_str(mine->name, theirs->name))
        return false;
    size_t ne = base->nentities, again = 0;
    bool *touch = xcalloc(ne ? ne : 1, sizeof *touch), *refig = xcalloc(ne ? ne : 1, sizeof *refig),
         *reach = xcalloc(ne ? ne : 1, sizeof *reach), *redo = NULL;
    bool figures = figures_only(mine, theirs), rows_stay = figures || sort_keys_only(base, mine, theirs),
         rekey = !rows_stay && templates_only(mine, theirs);
    refig[epos] = touch[epos] = true;
    if (!keys_equal(mine, theirs)) {
        /* the entities carrying a placeholder whose separators change: their templates (and plain
           key attributes) take other values, so they meet others differently */
        const char **names = NULL;
        size_t nn = ov_separators_changed(base, epos, theirs, &names);
        for (size_t e = 0; e < ne; e++)
            for (size_t k = 0; k < nn && !reach[e]; k++)
                reach[e] = carries_attr(&base->entities[e], names[k]);
        free(names);
    }
    reach[epos] = true; /* the entities whose neighbours' patterns may read differently */
    if (figures) {
        /* its figures: its patterns, those whose results read its items, those whose loads share
           a row whose value classes read its count; known before any change */
        stage_heat_rowmates(in->heat, refig, touch);
        again = touched_patterns(a, in, touch, NULL, refig, NULL, &redo);
    } else {
        for (size_t e = 0; e < ne; e++) /* before the edit */
            if (reach[e])
                stage_resolve_neighbours(in->resolver, e, touch);
    }
    if (!figures || redo) {
        swap_in(in, &kp_rec_entity, mine, theirs);
        free_after_resolve(a); /* the last run's partitions point at heat's rows */
    }
    if (rekey) /* partition keys' templates: rows of its own take the new ones in place */
        rows_stay = stage_heat_rekey(in->heat, epos);
    if (figures && redo) {
        stage_resolve_refigure(in->resolver, epos);
    } else if (!figures) {
        /* its entries may change: every entity whose partitions meet its own, before and after */
        stage_resolve_reopen(in->resolver, a, refig); /* its row of the memo alone */
        for (size_t e = 0; e < ne; e++)
            if (reach[e])
                stage_resolve_neighbours(in->resolver, e, touch);
        again = touched_patterns(a, in, touch, NULL, NULL, NULL, &redo);
    }
    if (redo)
        redo_touched(a, in, redo, again, refig, NULL, rows_stay);
    free(refig);
    free(touch);
    free(reach);
    return redo != NULL;
}

/* x and y differ at most in their figures: distinct values, skew, write_hot, size, and the
 * shares of the same enum values. */
static bool attr_figures_only(const kp_attr *x, const kp_attr *y)
{
    if (x->nvalues != y->nvalues || !x->name || !same_str(x->name, y->name))
        return false;
    for (size_t k = 0; k < x->nvalues; k++)
        if (!same_str(x->values[k].name, y->values[k].name))
            return false;
    kp_attr z = *y;
    z.distinct = x->distinct;
    z.zipf = x->zipf;
    z.write_hot = x->write_hot;
    z.size = x->size;
    z.values = x->values;
    return fields_equal(&kp_rec_attr, x, &z);
}

/* Attribute `row` of in->base made d's in place when its name stays and more than its figures
 * changed (its type, format, enum values, shard count, chars): the values its placeholder takes,
 * so how the templates of the entities carrying it meet others', as an edit of every carrier's
 * keys would (update_entity): the resolver's context made again (the carriers' rows of the
 * capacity memo forgotten: a sparse condition's share reads the values), and resolved again the
 * patterns naming it and those of its carriers and of their neighbours before and after. Heat's
 * rows and members stay (the same templates on the same indexes): the value classes of the rows
 * holding its placeholder and the loads on them made again in place, or heat made anew when their
 * number of value combinations changes. False (the caller analyses whole) when those are
 * more than half the design: known before anything changes when the carriers and their
 * neighbours before are, else after the swap. */
static bool update_attr_values(kp_analysis *a, incr *in, size_t row, const kp_attr *theirs)
{
    kp_design *base = in->base;
    kp_attr *mine = &base->attrs[row];
    if (!mine->name || !same_str(mine->name, theirs->name))
        return false;
    size_t ne = base->nentities;
    bool *carry = xcalloc(ne ? ne : 1, sizeof *carry), *touch = xcalloc(ne ? ne : 1, sizeof *touch), *redo;
    for (size_t e = 0; e < ne; e++)
        if ((carry[e] = carries_attr(&base->entities[e], mine->name)))
            stage_resolve_neighbours(in->resolver, e, touch); /* before the edit */
    size_t again = touched_patterns(a, in, touch, NULL, NULL, mine->name, &redo);
    free(redo);
    if (again != (size_t)-1) {
        swap_in(in, &kp_rec_attr, mine, theirs);
        free_after_resolve(a); /* the last run's partitions point at heat's rows */
        stage_resolve_reopen(in->resolver, a, carry);
        for (size_t e = 0; e < ne; e++)
            if (carry[e])
                stage_resolve_neighbours(in->resolver, e, touch); /* after */
        again = touched_patterns(a, in, touch, NULL, NULL, mine->name, &redo);
        if (redo)
            redo_touched(a, in, redo, again, carry, mine->name, true);
    }
    free(carry);
    free(touch);
    return again != (size_t)-1;
}

/* Attribute `row` of in->base made d's in place. When only its figures changed (its distinct
 * values, skew, write_hot, size, its enum values' shares) the entities carrying it are
 * refigured, and resolved again are the patterns naming it, the writes of its carriers, and the
 * reads naming or reading a carrier whose entries moved; any other change but its name reaches
 * the templates' domains (update_attr_values). False (the caller analyses whole) for a new name,
 * or when the patterns to resolve again are most of the design. */
static bool update_attr(kp_analysis *a, incr *in, size_t row, const kp_attr *theirs)
{
    kp_design *base = in->base;
    kp_attr *mine = &base->attrs[row];
    if (!attr_figures_only(mine, theirs))
        return update_attr_values(a, in, row, theirs);
    size_t ne = base->nentities, nf = 4 * (1 + base->nindexes);
    bool *carry = xcalloc(ne ? ne : 1, sizeof *carry), *moved = xcalloc(ne ? ne : 1, sizeof *moved), *redo;
    double *was = xcalloc(nf, sizeof *was), *now = xcalloc(nf, sizeof *now);
    for (size_t e = 0; e < ne; e++)
        carry[e] = carries_attr(&base->entities[e], mine->name);
    swap_in(in, &kp_rec_attr, mine, theirs);
    free_after_resolve(a);
    /* its carriers refigured: a read reads them as before where their entries kept their figures
       (their share, bytes, items per partition value), and reads the attribute's figures itself
       only where it names it (a bound placeholder's selectivity, a range, an order, a filter); a
       write reads the carrier's write shares, so every write of a carrier is resolved again.
       Heat makes the loads on the rows holding its placeholder again (stage_heat_refigure). */
    for (size_t e = 0; e < ne; e++)
        if (carry[e]) {
            stage_resolve_entry_figures(in->resolver, e, was);
            stage_resolve_refigure(in->resolver, e);
            stage_resolve_entry_figures(in->resolver, e, now);
            moved[e] = memcmp(was, now, nf * sizeof *was) != 0;
        }
    size_t again = touched_patterns(a, in, moved, carry, moved, mine->name, &redo);
    if (redo)
        redo_touched(a, in, redo, again, carry, mine->name, true);
    free(was);
    free(now);
    free(carry);
    free(moved);
    return redo != NULL;
}

/* Index `row` of in->base made d's in place when its name and key attributes stay, and the
 * patterns of the entities on it resolved again. Their neighbours' need not be: another entity's
 * query counts an entity's entries on this index only when it has entries here too. Its
 * projection (include list, why) patches the resolver and heat as those entities' figures would;
 * its type makes the resolver's context and heat anew. */
static bool update_index(kp_analysis *a, incr *in, size_t row, const kp_index *theirs)
{
    kp_design *base = in->base;
    kp_index *mine = &base->indexes[row];
    if (!same_str(mine->name, theirs->name) || !same_str(mine->pk.s, theirs->pk.s) ||
        !same_str(mine->sk.s, theirs->sk.s))
        return false;
    size_t ne = base->nentities;
    bool *on = xcalloc(ne ? ne : 1, sizeof *on), *redo = NULL;
    bool projection = mine->kind == theirs->kind; /* the same entries, other sizes */
    size_t again = 0;
    for (size_t e = 0; e < ne; e++)
        on[e] = stage_resolve_on(in->resolver, e, (ptrdiff_t)row);
    if (projection && (again = touched_patterns(a, in, on, NULL, NULL, NULL, &redo)) == (size_t)-1) {
        free(on);
        return false;
    }
    swap_in(in, &kp_rec_index, mine, theirs);
    free_after_resolve(a);
    if (projection) {
        /* as an edit of the figures of the entities on it: heat patched in place too */
        stage_resolve_reproject(in->resolver, (ptrdiff_t)row);
    } else {
        stage_resolve_reopen(in->resolver, a, NULL);
        for (size_t e = 0; e < ne; e++)
            on[e] = on[e] || stage_resolve_on(in->resolver, e, (ptrdiff_t)row);
        again = touched_patterns(a, in, on, NULL, NULL, NULL, &redo);
    }
    if (redo)
        redo_touched(a, in, redo, again, on, NULL, projection);
    free(on);
    return redo != NULL;
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
    if ((t == EDIT_ENTITIES || t == EDIT_KEYS) && in->stale < stale_max(d->npatterns) &&
        update_entity(prev, in, row, theirs))
        return patched(prev);
    if (t == EDIT_ATTRS && in->stale < stale_max(d->npatterns) && update_attr(prev, in, row, theirs))
        return patched(prev);
    if (t == EDIT_INDEXES && in->stale < stale_max(d->npatterns) && update_index(prev, in, row, theirs))
        return patched(prev);
    /* the analysis' copy of the design made d's by that element alone, no other copy made */
    kp_design *base = in->base;
    fields_copy(rec, mine, theirs);
    in->base = NULL;
    analysis_free(prev);
    return analyse_whole(base);
}

/* The whole analysis of d on prev's own copy of the design (in->base, d's but for its keys and,
 * when `rest`, its rest), which takes d's keys (design_keys_swap) and rest: no copy of the whole
 * design is made. prev is taken. */
static kp_analysis *whole_on_keys(kp_analysis *prev, incr *in, const kp_design *d, bool rest)
{
    kp_design *base = in->base;
    design_keys_copy_to(base, d);
    if (rest)
        design_rest_copy(base, d);
    in->base = NULL;
    analysis_free(prev);
    return analyse_whole(base);
}

kp_analysis *analysis_update_index_rows(kp_analysis *prev, const kp_design *d, kp_rowop op)
{
    incr *in = prev ? prev->incr : NULL;
    kp_design *base = in ? in->base : NULL;
    /* every pattern may read the index (a plan, a why-not): analysed whole, on the analysis'
       copy taking d's keys (the step, the templates it left out or put back) and rest */
    if (!base || base->npatterns != d->npatterns || !edit_rows_step_fits(base, d, EDIT_INDEXES, op))
        return analysis_update(prev, d, ANALYSIS_UNKNOWN);
    return whole_on_keys(prev, in, d, true);
}

/* Has entity e a template or a sparse rule for key attribute `attr`? */
static bool keyed_on(const kp_entity *e, const char *attr)
{
    if (!attr)
        return false;
    for (size_t k = 0; k < e->nkeys; k++)
        if (same_str(e->keys[k].attr.s, attr))
            return true;
    for (size_t k = 0; k < e->nsparse; k++)
        if (same_str(e->sparse[k].attr.s, attr))
            return true;
    return false;
}

/* After index `row`'s key attributes were renamed (the templates and sparse rules keyed on them
 * following, or not): d is in->base with that index and those entities changed. Patched in place
 * when the patterns to resolve again are not most of the design: those that name an entity on the
 * index before, or keyed on either name before or after (their plans, key conditions and why-nots
 * name the index's keys), and the Scans; the resolver's context made again, heat made anew with
 * the others' loads. false, nothing changed, when something else of the index changed or too many
 * patterns read it. */
static bool update_index_keys(kp_analysis *a, incr *in, const kp_design *d, size_t row)
{
    kp_design *base = in->base;
    kp_index *mine = &base->indexes[row];
    const kp_index *theirs = &d->indexes[row];
    kp_index same = *theirs; /* theirs with mine's keys: the rest of the index unchanged */
    same.pk = mine->pk;
    same.sk = mine->sk;
    size_t ne = base->nentities;
    if (!fields_equal(&kp_rec_index, mine, &same) || ne != d->nentities)
        return false;
    const char *names[4] = {mine->pk.s, mine->sk.s, theirs->pk.s, theirs->sk.s};
    bool *on = xcalloc(ne ? ne : 1, sizeof *on), *redo = NULL;
    for (size_t e = 0; e < ne; e++) {
        on[e] = stage_resolve_on(in->resolver, e, (ptrdiff_t)row);
        for (int k = 0; k < 4 && !on[e]; k++)
            on[e] = keyed_on(&base->entities[e], names[k]) || keyed_on(&d->entities[e], names[k]);
    }
    size_t again = touched_patterns(a, in, on, NULL, NULL, NULL, &redo);
    if (again == (size_t)-1) {
        free(on);
        return false;
    }
    swap_in(in, &kp_rec_index, mine, theirs);
    for (size_t e = 0; e < ne; e++)
        if (!fields_equal(&kp_rec_entity, &base->entities[e], &d->entities[e]))
            swap_in(in, &kp_rec_entity, &base->entities[e], &d->entities[e]);
    free_after_resolve(a);
    stage_resolve_reopen(in->resolver, a, NULL);
    redo_touched(a, in, redo, again, on, NULL, false);
    free(on);
    return true;
}

kp_analysis *analysis_update_keys(kp_analysis *prev, const kp_design *d, edit_table t, size_t row)
{
    incr *in = prev ? prev->incr : NULL;
    kp_design *base = in ? in->base : NULL;
    if (!base || base->npatterns != d->npatterns)
        return analysis_update(prev, d, ANALYSIS_UNKNOWN);
    if (t == EDIT_INDEXES && row < d->nindexes && base->nindexes == d->nindexes &&
        in->stale < stale_max(d->npatterns) && update_index_keys(prev, in, d, row))
        return patched(prev);
    return whole_on_keys(prev, in, d, false);
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
        in->stale + (op.kind != KP_ROW_MOVE) > stale_max(d->npatterns) || prev->npatterns != n)
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
    stage_resolve_rows(in->resolver, op);
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
    return patched(a);
}

/* Does anything of d read attribute `name`: an entity carrying it, a pattern naming it, a key of
 * the table or of an index being it? */
static bool attr_read(const kp_design *d, const char *name)
{
    if (!name || same_str(d->table.pk.s, name) || same_str(d->table.sk.s, name))
        return true;
    for (size_t x = 0; x < d->nindexes; x++)
        if (same_str(d->indexes[x].pk.s, name) || same_str(d->indexes[x].sk.s, name))
            return true;
    for (size_t e = 0; e < d->nentities; e++)
        if (carries_attr(&d->entities[e], name))
            return true;
    for (size_t i = 0; i < d->npatterns; i++)
        if (names_attr(&d->patterns[i], name))
            return true;
    return false;
}

kp_analysis *analysis_update_attr_rows(kp_analysis *prev, const kp_design *d, kp_rowop op)
{
    incr *in = prev ? prev->incr : NULL;
    kp_design *base = in ? in->base : NULL;
    size_t n = base ? base->nattrs : 0;
    if (!in || op.kind == KP_ROW_MOVE || !kp_rowop_fits(op, n) || kp_rowop_count(op, n) != d->nattrs ||
        base->npatterns != d->npatterns || base->nentities != d->nentities ||
        in->stale >= stale_max(d->npatterns) ||
        attr_read(base, op.kind == KP_ROW_INSERT ? d->attrs[op.row].name : base->attrs[op.row].name))
        return analysis_update(prev, d, ANALYSIS_UNKNOWN);
    kp_analysis *a = prev;
    free_after_resolve(a);
    if (op.kind == KP_ROW_INSERT) {
        base->attrs = xrealloc(base->attrs, (n + 1) * sizeof *base->attrs);
        kp_rowop_shift(base->attrs, n, sizeof *base->attrs, op);
        base->attrs[op.row] = d->attrs[op.row];
        fields_clone(&kp_rec_attr, &base->attrs[op.row], &d->attrs[op.row]);
    } else { /* the removed one kept with the analysis, as an edited element is */
        keep_gone(in, &kp_rec_attr, &base->attrs[op.row]);
        kp_rowop_shift(base->attrs, n, sizeof *base->attrs, op);
    }
    base->nattrs = kp_rowop_count(op, n);
    /* what is kept by the attributes' positions, or points into their list, made again */
    size_t ne = base->nentities, np = a->npatterns;
    bool *none = xcalloc(ne + np + 1, sizeof *none); /* no entity forgotten, no pattern redone */
    capacity_memo_attrs_moved(a->capacity_memo);
    stage_resolve_reopen(in->resolver, a, none);
    struct heat *h = stage_heat_open(a);
    stage_heat_take(h, in->heat, none);
    stage_heat_close(in->heat);
    in->heat = h;
    stage_findings_attrs_moved(in->findings, a);
    stage_checklist_attrs_moved(in->checklist, a);
    free(none);
    in->stale++;
    run_after_resolve(a, in);
    return patched(a);
}

/* x and y differ at most in their names. */
static bool name_only(const kp_entity *x, const kp_entity *y)
{
    kp_entity z = *y;
    z.name = x->name;
    return fields_equal(&kp_rec_entity, x, &z);
}

kp_analysis *analysis_update_entity_name(kp_analysis *prev, const kp_design *d, size_t epos)
{
    incr *in = prev ? prev->incr : NULL;
    kp_design *base = in ? in->base : NULL;
    if (!in || epos >= base->nentities || base->nentities != d->nentities ||
        base->npatterns != d->npatterns || prev->npatterns != d->npatterns ||
        in->stale >= stale_max(d->npatterns) || !name_only(&base->entities[epos], &d->entities[epos]))
        return analysis_update(prev, d, ANALYSIS_UNKNOWN);
    kp_analysis *a = prev;
    kp_entity *mine = &base->entities[epos];
    const kp_entity *theirs = &d->entities[epos];
    if (same_str(mine->name, theirs->name))
        return analysis_update(prev, d, ANALYSIS_UNKNOWN); /* compared: the same names */
    free_after_resolve(a);        /* the last run's partitions point at heat's rows */
    const char *old = mine->name; /* kept with the analysis by swap_in */
    swap_in(in, &kp_rec_entity, mine, theirs);
    size_t ne = base->nentities, np = a->npatterns;
    bool *touch = xcalloc(ne, sizeof *touch), *none = xcalloc(ne + np + 1, sizeof *none), *redo;
    touch[epos] = true;
    /* the patterns that named it name it by the new name, as the rename made d's (their results
       are made again below: none points at the names let go) */
    for (size_t i = 0; i < np; i++)
        edit_rename_entity_refs(&base->patterns[i], old, theirs->name);
    /* the context's name ids made again, the memo's rows kept (they are by position, and a name is
       no figure) */
    stage_resolve_reopen(in->resolver, a, none);
    free(none);
    size_t again = touched_patterns(a, in, touch, NULL, touch, NULL, &redo);
    if (!redo) { /* most of the design: whole, on the copy now d's */
        free(touch);
        in->base = NULL;
        analysis_free(a);
        return analyse_whole(base);
    }
    /* heat's rows, members and loads stand: they know entities by position and name none; the
       loads of the patterns resolved again are computed again from their results */
    for (size_t i = 0; i < np; i++)
        if (redo[i])
            resolve_again(a, in, i, true);
    in->stale += again + 1;
    free(redo);
    stage_findings_element(in->findings, a, NULL, touch);
    stage_checklist_entities_renamed(in->checklist, a);
    stage_heat_entities_renamed(in->heat);
    stage_checklist_entity(in->checklist, epos);
    run_after_resolve(a, in);
    free(touch);
    return patched(a);
}

bool analysis_was_whole(const kp_analysis *a) { return !a->incr || ((const incr *)a->incr)->whole; }

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
    analysis_forget_ids(a);
    free_after_resolve(a);
    stage_resolve_free(a);
    incr_free(a); /* last: the stages' results point into its copy of the design */
    free(a);
}
