/* gen_design.c - the generated designs (gen_design.h). */
#include "gen_design.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NENT GEN_ENTITIES
#define NGSI GEN_GSIS

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

kp_design *gen_design(size_t npatterns)
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
