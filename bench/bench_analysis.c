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
 * Usage: bench_analysis [RUNS] [SIZE...]   (default 21 runs of 100, 1000 and 10000 patterns): the table
 *        bench_analysis --once SIZE            one analysis_run of one size and nothing else, for
 *                                              valgrind --tool=callgrind --toggle-collect=analysis_run
 *                                              (instruction counts are repeatable where times are not)
 *        bench_analysis --verify               checks, on the generated designs, that the fast paths
 *                                              answer as the plain functions do (capacity memo vs
 *                                              capacity_*, namemap vs design_attr/design_entity_pos);
 *                                              exit status 1 on any difference */
#include "analysis.h"
#include "analysis_stages.h"
#include "capacity.h"
#include "design.h"
#include "namemap.h"

#include "benchtime.h"

#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NENT 200
#define NGSI 20

static kp_str S(const char *s) { return str_make(s, (kp_loc){0, 0}); }

static void set_tpl(kp_keytpl *k, const char *attr, const char *src)
{
    char *err = NULL;
    k->attr = S(attr);
    if (tpl_parse(src, &k->tpl, &err, NULL) != KP_OK) {
        fprintf(stderr, "bench: bad template %s: %s\n", src, err);
        abort();
    }
}

static kp_design *make_design(size_t npatterns)
{
    kp_design *d = design_new();
    d->name = xstrdup("bench");
    d->table.name = xstrdup("Bench");
    d->table.pk = S("PK");
    d->table.sk = S("SK");
    d->table.streams = KP_TRUE;
    d->table.pitr = KP_TRUE;

    d->nindexes = NGSI;
    d->indexes = xcalloc(NGSI, sizeof *d->indexes);
    for (size_t g = 0; g < NGSI; g++) {
        kp_index *x = &d->indexes[g];
        index_init(x);
        x->name = xasprintf("GSI%zu", g + 1);
        char *pk = xasprintf("GSI%zuPK", g + 1), *sk = xasprintf("GSI%zuSK", g + 1);
        x->pk = S(pk);
        x->sk = S(sk);
        free(pk);
        free(sk);
        x->projection = g % 3 == 0 ? KP_PROJ_ALL : g % 3 == 1 ? KP_PROJ_KEYS : KP_PROJ_INCLUDE;
        if (x->projection == KP_PROJ_INCLUDE) {
            x->ninclude = 1;
            x->include = xcalloc(1, sizeof *x->include);
            x->include[0] = S("total");
        }
    }

    /* attributes: tenantId, status, createdAt, total, and one id per entity */
    d->nattrs = 4 + NENT;
    d->attrs = xcalloc(d->nattrs, sizeof *d->attrs);
    for (size_t i = 0; i < d->nattrs; i++)
        attr_init(&d->attrs[i]);
    d->attrs[0].name = xstrdup("tenantId");
    d->attrs[0].distinct = 20000;
    d->attrs[0].zipf = 1.1;
    d->attrs[1].name = xstrdup("status");
    d->attrs[1].type = KP_ATTR_ENUM;
    {
        const char *names[] = {"new", "paid", "shipped", "delivered", "cancelled"};
        const double shares[] = {0.05, 0.05, 0.1, 0.7, 0.1}, writes[] = {0.5, 0.2, 0.2, 0.05, 0.05};
        d->attrs[1].nvalues = 5;
        d->attrs[1].values = xcalloc(5, sizeof *d->attrs[1].values);
        for (size_t v = 0; v < 5; v++)
            d->attrs[1].values[v] = (kp_enum_value){xstrdup(names[v]), shares[v], writes[v], {0, 0}};
        d->attrs[1].distinct = 5;
    }
    d->attrs[2].name = xstrdup("createdAt");
    d->attrs[2].type = KP_ATTR_DATE;
    d->attrs[2].distinct = 730;
    d->attrs[2].write_hot = 1.0;
    d->attrs[3].name = xstrdup("total");
    d->attrs[3].type = KP_ATTR_NUMBER;
    for (size_t i = 0; i < NENT; i++) {
        d->attrs[4 + i].name = xasprintf("id%zu", i);
        d->attrs[4 + i].distinct = 1e6 + (double)i * 1000;
    }

    d->nentities = NENT;
    d->entities = xcalloc(NENT, sizeof *d->entities);
    for (size_t i = 0; i < NENT; i++) {
        kp_entity *e = &d->entities[i];
        entity_init(e);
        e->name = xasprintf("Entity%zu", i);
        e->count = 100000 + (double)(i % 17) * 50000;
        e->size = 300 + (double)(i % 9) * 400;
        if (i % 4 == 0)
            e->writes = 5 + (double)(i % 7);
        char *id = xasprintf("id%zu", i);
        e->nattrs = 5;
        e->attrs = xcalloc(5, sizeof *e->attrs);
        e->attrs[0] = S(id);
        e->attrs[1] = S("tenantId");
        e->attrs[2] = S("status");
        e->attrs[3] = S("createdAt");
        e->attrs[4] = S("total");
        size_t g = i % NGSI;
        e->nkeys = 4;
        e->keys = xcalloc(4, sizeof *e->keys);
        char *pk = i % 3 == 0 ? xstrdup("T#{tenantId}") : xasprintf("E%zu#{%s}", i, id);
        char *sk = xasprintf("E%zu#{createdAt}#{%s}", i, id);
        char *gpk_attr = xasprintf("GSI%zuPK", g + 1), *gsk_attr = xasprintf("GSI%zuSK", g + 1);
        char *gpk = i % 2 == 0 ? xasprintf("E%zu#{status}", i) : xasprintf("{tenantId}#E%zu", i);
        set_tpl(&e->keys[0], "PK", pk);
        set_tpl(&e->keys[1], "SK", sk);
        set_tpl(&e->keys[2], gpk_attr, gpk);
        set_tpl(&e->keys[3], gsk_attr, "{createdAt}");
        if (g < 5 && i % 2 == 0) {
            e->nsparse = 1;
            e->sparse = xcalloc(1, sizeof *e->sparse);
            kp_sparse *sp = &e->sparse[0];
            sp->attr = S(gpk_attr);
            sp->kind = KP_SPARSE_COND;
            sp->cond_attr = S("status");
            sp->op = KP_COND_EQ;
            sp->nvalues = 1;
            sp->values = xcalloc(1, sizeof *sp->values);
            sp->values[0] = S("new");
            sp->share = NAN;
            sp->src = xstrdup("status = new");
        }
        free(pk);
        free(sk);
        free(gpk_attr);
        free(gsk_attr);
        free(gpk);
        free(id);
    }

    d->npatterns = npatterns;
    d->patterns = xcalloc(npatterns, sizeof *d->patterns);
    for (size_t k = 0; k < npatterns; k++) {
        kp_pattern *p = &d->patterns[k];
        pattern_init(p);
        size_t i = (k * 7) % NENT, kind = k % 8;
        const kp_entity *e = &d->entities[i];
        p->id = xasprintf("%zu", k + 1);
        p->name = xasprintf("pattern %zu on %s", k + 1, e->name);
        p->nentities = 1;
        p->entities = xcalloc(1, sizeof *p->entities);
        p->entities[0] = S(e->name);
        p->rate = 1 + (double)(k % 50);
        p->avg = p->rate / 2;
        p->latency = 50;
        char *id = xasprintf("id%zu", i);
        bool tenant = i % 3 == 0;
        const char *by = NULL;
        switch (kind) {
        case 0: /* get by id (or the tenant's items with this id) */
            by = tenant ? "tenantId" : id;
            break;
        case 1: /* newest first */
            by = tenant ? "tenantId" : id;
            p->order = S("createdAt");
            p->order_desc = true;
            p->limit = 20;
            break;
        case 2: /* a date range */
            by = tenant ? "tenantId" : id;
            p->range = S("createdAt");
            break;
        case 3: /* GSI by status or tenant */
            by = i % 2 == 0 ? "status" : "tenantId";
            break;
        case 4: /* a fixed value on the GSI */
            by = i % 2 == 0 ? "status=new" : "tenantId";
            break;
        case 5: /* filtered */
            by = tenant ? "tenantId" : id;
            p->nfilter = 1;
            p->filter = xcalloc(1, sizeof *p->filter);
            p->filter[0] = S("total");
            break;
        case 6: /* put */
            p->kind = KP_WRITE;
            p->op = KP_OP_PUT;
            break;
        default: /* update the status */
            p->kind = KP_WRITE;
            p->op = KP_OP_UPDATE;
            by = id;
            p->nchanges = 1;
            p->changes = xcalloc(1, sizeof *p->changes);
            p->changes[0] = S("status");
            break;
        }
        if (by) {
            const char *eq = strchr(by, '=');
            p->nby = 1;
            p->by = xcalloc(1, sizeof *p->by);
            if (eq) {
                char *name = xstrndup(by, (size_t)(eq - by));
                p->by[0].attr = S(name);
                p->by[0].value = xstrdup(eq + 1);
                free(name);
            } else {
                p->by[0].attr = S(by);
            }
        }
        free(id);
    }
    return d;
}

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
    kp_design *d = make_design(n);
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
    kp_design *d = make_design(200);
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

int main(int argc, char **argv)
{
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
        kp_design *d = make_design(sizes[z]);
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
    free(t);
    for (int s = 0; s < NSTAGES; s++)
        free(ts[s]);
    return 0;
}
