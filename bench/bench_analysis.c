/* bench_analysis.c - how long one full analysis_run takes, and how much memory it uses, on
 * generated designs of 100, 1,000 and 10,000 patterns over 200 entities and 20 GSIs.
 *
 * The designs are built in C (no YAML): a single-table layout where entity i is keyed
 * "T#{tenantId}" (every third entity: a tenant collection) or "E<i>#{id<i>}", sorted by
 * "E<i>#{createdAt}#{id<i>}", and indexed on GSI (i mod 20) by "E<i>#{status}" or
 * "{tenantId}#E<i>" with "{createdAt}" as sort key; the first 5 GSIs are sparse on status.
 * Patterns cycle through: get by id, newest-first query of a tenant's items, a range query, a
 * GSI query by status, a fixed-value GSI query, a filtered query, a put and a status update.
 *
 * Time: median of several runs of the thread's CPU time (CLOCK_THREAD_CPUTIME_ID: a machine
 * loaded by other work does not inflate it; wall time on an idle machine is the same), with the
 * per-stage split (resolve, heat, cost, checklist, findings) run the way analysis_run runs them. Memory: the heap bytes the finished
 * analysis holds (glibc mallinfo2 uordblks after minus before; scratch freed inside a stage is
 * not counted) and the process's peak RSS (VmHWM from /proc/self/status, monotonic over the
 * whole run, so read the growth between sizes).
 *
 * After the table, the analysis after an edit: one pattern's rate changed, then analysis_update
 * told that row (as the workbench after a cell edit) and told nothing (the design compared), and
 * an entity's count changed, told that entity (analysis_update_row: patched in place), once for
 * an entity with partitions of its own ("E<i>#{id<i>}": its patterns, the Scans and its GSI's
 * neighbours resolved again) and once for one of the 67 entities sharing the tenant collection
 * ("T#{tenantId}": a third of the patterns read it), an attribute's distinct values (the id
 * of an entity with partitions of its own) and such an id's type (a string made a number and
 * back: the values its placeholder takes, as an edit of its carrier's keys), a GSI's projection
 * (keys only and all, in turn), and
 * an entity's sort-key template (its literal "E<i>#" made "E<i>x#" and back, told as the Keys
 * screen tells it: the entity's patterns and its neighbours' resolved again, heat patched) and
 * its partition-key template the same way (heat's rows take the new templates in place), and
 * that entity renamed, a suffix put on and taken off (analysis_update_entity_name: the patterns
 * naming it follow), beside analysis_run of the same design, with the speed-ups.
 *
 * Usage: bench_analysis [RUNS] [SIZE...]   (default 21 runs of 100, 1000 and 10000 patterns): the tables
 *        bench_analysis --once SIZE            one analysis_run of one size and nothing else, for
 *                                              valgrind --tool=callgrind --toggle-collect=analysis_run
 *                                              (instruction counts are repeatable where times are not)
 *        bench_analysis --verify               checks, on the generated designs, that the fast paths
 *                                              answer as the plain functions do (capacity memo vs
 *                                              capacity_*, namemap vs design_attr/design_entity_pos);
 *                                              exit status 1 on any difference */
#include "util.h"
#include "analysis.h"
#include "analysis_stages.h"
#include "capacity.h"
#include "design.h"
#include "gen_design.h"
#include "namemap.h"

#include "benchtime.h"

#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NENT GEN_ENTITIES
#define NGSI GEN_GSIS

static kp_str S(const char *s) { return str_make(s, (kp_loc){0, 0}); }

static long vm_hwm_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return -1;
    char line[256];
    long kb = -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "VmHWM:", 6) == 0)
            kb = strtol(line + 6, NULL, 10);
    fclose(f);
    return kb;
}

#define NSTAGES 5
static const char *const stage_names[NSTAGES] = {"resolve", "heat", "cost", "checklist", "findings"};
static void (*const stages[NSTAGES])(kp_analysis *) = {stage_resolve, stage_heat, stage_cost, stage_checklist,
                                                       stage_findings};

/* --once SIZE: build the design, run the analysis once, print its shape. */
static int run_once(size_t n)
{
    kp_design *d = gen_design(n);
    kp_analysis *a = analysis_run(d);
    printf("%zu patterns: %zu partitions, %zu findings, peak RSS %ld KB\n", n, a->npartitions, a->nfindings,
           vm_hwm_kb());
    analysis_free(a);
    design_free(d);
    return 0;
}

static bool same(double x, double y) { return x == y || (isnan(x) && isnan(y)); }

/* --verify: the memo and the name map against the plain look-ups, every (entity, index) pair. */
static int run_verify(void)
{
    size_t bad = 0, checked = 0;
    kp_design *d = gen_design(200);
    capacity_memo *m = capacity_memo_new(d);
    const kp_write_op ops[] = {KP_OP_PUT, KP_OP_UPDATE, KP_OP_DELETE, KP_OP_TRANSACT};
    kp_str changes[2] = {S("status"), S("createdAt")};
    double *t1 = xcalloc(d->nindexes + 1, sizeof *t1), *t2 = xcalloc(d->nindexes + 1, sizeof *t2);
    for (int pass = 0; pass < 2; pass++) /* the second pass answers from the memo */
        for (size_t e = 0; e < d->nentities; e++) {
            const kp_entity *en = &d->entities[e];
            for (ptrdiff_t x = -1; x < (ptrdiff_t)d->nindexes; x++) {
                checked++;
                if (capacity_memo_on_index(m, en, x) != capacity_on_index(d, en, x) ||
                    !same(capacity_memo_index_share(m, en, x), capacity_index_share(d, en, x)) ||
                    !same(capacity_memo_projected_bytes(m, en, x), capacity_projected_bytes(d, en, x))) {
                    if (bad++ < 5)
                        fprintf(stderr, "verify: %s on index %td differs\n", en->name, x);
                }
            }
            for (size_t o = 0; o < sizeof ops / sizeof *ops; o++) {
                double a0, b0;
                capacity_entity_write(d, en, ops[o], changes, 2, &a0, t1);
                capacity_memo_entity_write(m, en, ops[o], changes, 2, &b0, t2);
                bool ok = same(a0, b0);
                for (size_t x = 0; x < d->nindexes; x++)
                    ok = ok && same(t1[x], t2[x]);
                checked++;
                if (!ok && bad++ < 5)
                    fprintf(stderr, "verify: %s write op %zu differs\n", en->name, o);
            }
        }
    namemap nm;
    namemap_init(&nm, d->nattrs);
    for (size_t i = 0; i < d->nattrs; i++)
        namemap_put(&nm, d->attrs[i].name, i);
    const char *probe[] = {"tenantId", "status", "id0", "id199", "id200", "", "Id0", "total", "createdAt"};
    for (size_t i = 0; i < sizeof probe / sizeof *probe; i++) {
        size_t pos;
        bool found = namemap_get(&nm, probe[i], &pos);
        const kp_attr *a = design_attr(d, probe[i]);
        checked++;
        if (found != (a != NULL) || (found && &d->attrs[pos] != a)) {
            if (bad++ < 5)
                fprintf(stderr, "verify: namemap '%s' differs from design_attr\n", probe[i]);
        }
    }
    namemap_free(&nm);
    str_free(&changes[0]);
    str_free(&changes[1]);
    free(t1);
    free(t2);
    capacity_memo_free(m);
    design_free(d);
    printf("verify: %zu checks, %zu differences\n", checked, bad);
    return bad ? 1 : 0;
}

/* After an edit: one pattern's rate changed (a different pattern each run, reads and writes
 * alike), then analysis_update told that row (as the workbench is after a cell edit), and told
 * nothing (every pattern compared); beside analysis_run of the same design. */
/* Key k of entity e made fmt (with e's number twice), then *a updated as the Keys screen tells
 * it: how long that took, ms. */
static double key_edit(kp_analysis **a, kp_design *d, size_t e, size_t k, const char *fmt)
{
    tpl_free(&d->entities[e].keys[k].tpl);
    char *src = xasprintf(fmt, e, e);
    if (tpl_parse(src, &d->entities[e].keys[k].tpl, NULL, NULL) != KP_OK)
        abort();
    free(src);
    double t0 = now_ms();
    *a = analysis_update_row(*a, d, EDIT_KEYS, e);
    return now_ms() - t0;
}

static void run_edits(const size_t *sizes, size_t nsizes, size_t runs)
{
    printf("\nafter an edit (analysis_update; one pattern's rate changed), median of %zu edits, ms:\n", runs);
    printf("%9s %10s %10s %10s %10s %10s %10s %10s %10s %10s %10s %10s %10s %10s\n", "patterns", "full",
           "row told", "speedup", "compared", "speedup", "entity", "shared", "attribute", "attr type",
           "index", "sort key", "part. key", "rename");
    double *tf = xcalloc(runs, sizeof *tf), *tt = xcalloc(runs, sizeof *tt), *tc = xcalloc(runs, sizeof *tc),
           *te = xcalloc(runs, sizeof *te), *ts = xcalloc(runs, sizeof *ts), *tx = xcalloc(runs, sizeof *tx),
           *ti = xcalloc(runs, sizeof *ti), *tk = xcalloc(runs, sizeof *tk), *tp = xcalloc(runs, sizeof *tp),
           *ty = xcalloc(runs, sizeof *ty), *tr = xcalloc(runs, sizeof *tr);
    for (size_t z = 0; z < nsizes; z++) {
        kp_design *d = gen_design(sizes[z]);
        kp_analysis *a = analysis_update(NULL, d, ANALYSIS_UNKNOWN);
        for (size_t r = 0; r < runs; r++) {
            size_t k = (r * 7919 + 13) % d->npatterns;
            for (int told = 1; told >= 0; told--) {
                d->patterns[k].rate = d->patterns[k].rate + 1;
                double t0 = now_ms();
                a = analysis_update(a, d, told ? k : ANALYSIS_UNKNOWN);
                (told ? tt : tc)[r] = now_ms() - t0;
            }
            /* an entity's count: told that entity (analysis_update_row, patched in place), one
               with partitions of its own (i mod 3 != 0), then one of the tenant collection's */
            for (int shared = 0; shared <= 1; shared++) {
                size_t e = (r * 31 + 5) % d->nentities;
                e = shared ? e - e % 3 : e % 3 ? e : e + 1;
                d->entities[e].count = d->entities[e].count + 1;
                double t0 = now_ms();
                a = analysis_update_row(a, d, EDIT_ENTITIES, e);
                (shared ? ts : te)[r] = now_ms() - t0;
            }
            /* an attribute's distinct values: id<i> of an entity with partitions of its own */
            size_t e = (r * 37 + 7) % d->nentities;
            kp_attr *at = &d->attrs[4 + (e % 3 ? e : e + 1)];
            at->distinct = at->distinct + 1;
            double t0 = now_ms();
            a = analysis_update_row(a, d, EDIT_ATTRS, (size_t)(at - d->attrs));
            tx[r] = now_ms() - t0;
            /* an id's type, a string made a number and back (the same one in runs 2j and
               2j + 1): the values its placeholder takes (its carrier's templates meet others
               differently: the carrier's neighbours before and after) */
            size_t ye = (r / 2 * 43 + 5) % d->nentities;
            kp_attr *ta = &d->attrs[4 + (ye % 3 ? ye : ye + 1)];
            ta->type = ta->type == KP_ATTR_NUMBER ? KP_ATTR_STRING : KP_ATTR_NUMBER;
            t0 = now_ms();
            a = analysis_update_row(a, d, EDIT_ATTRS, (size_t)(ta - d->attrs));
            ty[r] = now_ms() - t0;
            /* a GSI's projection: GSI1 (keys only) made all, then back */
            kp_index *gx = &d->indexes[1];
            gx->projection = gx->projection == KP_PROJ_KEYS ? KP_PROJ_ALL : KP_PROJ_KEYS;
            t0 = now_ms();
            a = analysis_update_row(a, d, EDIT_INDEXES, 1);
            ti[r] = now_ms() - t0;
            /* an entity's sort-key template: its literal prefix "E<i>#" made "E<i>x#" and back
               (the same entity in runs 2j and 2j + 1: every edit changes it), told as the Keys
               screen tells it (the entity's row) */
            size_t ke = (r / 2 * 41 + 11) % d->nentities;
            tk[r] = key_edit(&a, d, ke, 1, r % 2 ? "E%zu#{createdAt}#{id%zu}" : "E%zux#{createdAt}#{id%zu}");
            /* its partition-key template the same way ("E<i>#{id<i>}"; one with partitions of
               its own): heat's row for it made again */
            size_t pe = ke % 3 ? ke : ke + 1;
            tp[r] = key_edit(&a, d, pe, 0, r % 2 ? "E%zu#{id%zu}" : "E%zux#{id%zu}");
            /* that entity renamed (a suffix put on, then taken off), its patterns following */
            size_t nl = strlen(d->entities[pe].name);
            char *nm = r % 2 ? xasprintf("%.*s", (int)(nl - 1), d->entities[pe].name)
                             : xasprintf("%sx", d->entities[pe].name);
            if (edit_set(d, EDIT_KEYS, pe, 0, nm, NULL) != KP_OK)
                abort();
            free(nm);
            t0 = now_ms();
            a = analysis_update_entity_name(a, d, pe);
            tr[r] = now_ms() - t0;
            t0 = now_ms();
            kp_analysis *full = analysis_run(d);
            tf[r] = now_ms() - t0;
            analysis_free(full);
        }
        double f = median(tf, runs), t = median(tt, runs), c = median(tc, runs), en = median(te, runs),
               sh = median(ts, runs), x = median(tx, runs), ix = median(ti, runs), k = median(tk, runs),
               pk = median(tp, runs), typ = median(ty, runs), rn = median(tr, runs);
        printf(
            "%9zu %10.3f %10.3f %9.1fx %10.3f %9.1fx %10.3f %10.3f %10.3f %10.3f %10.3f %10.3f %10.3f %10.3f\n",
            sizes[z], f, t, f / t, c, f / c, en, sh, x, typ, ix, k, pk, rn);
        analysis_free(a);
        design_free(d);
    }
    printf("goal after an edit: 1,000 patterns under 0.5 ms, 10,000 under 5 ms\n");
    free(tf);
    free(tt);
    free(tc);
    free(te);
    free(tr);
    free(ts);
    free(tx);
    free(ti);
    free(tk);
    free(tp);
    free(ty);
}

int main(int argc, char **argv)
{
    util_keep_heap(); /* as keyplan's main */
    if (argc > 1 && strcmp(argv[1], "--verify") == 0)
        return run_verify();
    if (argc > 1 && strcmp(argv[1], "--once") == 0) {
        if (argc != 3 || strtoul(argv[2], NULL, 10) == 0) {
            fprintf(stderr, "usage: bench_analysis --once SIZE\n");
            return 2;
        }
        return run_once((size_t)strtoul(argv[2], NULL, 10));
    }
    size_t runs = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 21;
    if (runs < 1)
        runs = 1;
    size_t sizes[16] = {100, 1000, 10000}, nsizes = 3;
    if (argc > 2) {
        nsizes = 0;
        for (int i = 2; i < argc && nsizes < sizeof sizes / sizeof *sizes; i++) {
            size_t n = (size_t)strtoul(argv[i], NULL, 10);
            if (n == 0) {
                fprintf(stderr, "bench_analysis: size '%s': expected a positive number of patterns\n",
                        argv[i]);
                return 2;
            }
            sizes[nsizes++] = n;
        }
    }
    printf("analysis_run on generated designs: %d entities, %d GSIs; median of %zu runs (thread CPU time)\n",
           NENT, NGSI, runs);
    printf("memory: 'held' = heap bytes the finished analysis holds (mallinfo2 uordblks delta);\n"
           "        'peak RSS' = VmHWM of the process after that size (monotonic over the run)\n\n");
    printf("%9s %10s | %8s %8s %8s %8s %8s | %10s %10s %12s\n", "patterns", "total ms", "resolve", "heat",
           "cost", "checklst", "findings", "held KB", "B/pattern", "peak RSS KB");
    double *t = xcalloc(runs, sizeof *t);
    double *ts[NSTAGES];
    for (int s = 0; s < NSTAGES; s++)
        ts[s] = xcalloc(runs, sizeof *ts[s]);
    for (size_t z = 0; z < nsizes; z++) {
        kp_design *d = gen_design(sizes[z]);
        /* warm-up, and the memory the result holds */
        struct mallinfo2 before = mallinfo2();
        kp_analysis *a = analysis_run(d);
        struct mallinfo2 after = mallinfo2();
        double held = (double)after.uordblks - (double)before.uordblks;
        size_t hot = 0;
        for (size_t i = 0; i < a->npartitions; i++)
            hot += a->partitions[i].hot;
        size_t npart = a->npartitions, nfind = a->nfindings;
        analysis_free(a);
        for (size_t r = 0; r < runs; r++) {
            double t0 = now_ms();
            a = analysis_run(d);
            t[r] = now_ms() - t0;
            analysis_free(a);
            /* the same stages one by one, timed */
            a = xcalloc(1, sizeof *a);
            a->design = d;
            for (int s = 0; s < NSTAGES; s++) {
                double s0 = now_ms();
                stages[s](a);
                ts[s][r] = now_ms() - s0;
            }
            analysis_free(a);
        }
        printf("%9zu %10.3f |", sizes[z], median(t, runs));
        for (int s = 0; s < NSTAGES; s++)
            printf(" %8.3f", median(ts[s], runs));
        printf(" | %10.1f %10.0f %12ld\n", held / 1024, held / (double)sizes[z], vm_hwm_kb());
        printf("%9s (%zu partitions, %zu hot, %zu findings)\n", "", npart, hot, nfind);
        design_free(d);
    }
    printf("\ngoal: 1,000 patterns under 1 ms, 10,000 under 16 ms; stages: %s %s %s %s %s\n", stage_names[0],
           stage_names[1], stage_names[2], stage_names[3], stage_names[4]);
    run_edits(sizes, nsizes, runs);
    free(t);
    for (int s = 0; s < NSTAGES; s++)
        free(ts[s]);
    return 0;
}
