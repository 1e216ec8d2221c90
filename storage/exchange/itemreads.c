/* itemreads.c - what a pattern's request reads in the sample items. */
#include "itemreads.h"

#include "i18n.h"
#include "requests.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A writer that writes a value name as its value in the item ctx (the name when absent). */
static void bound_value(void *ctx, sbuf *out, const char *name)
{
    const char *t = item_text(ctx, name);
    sbuf_add(out, t ? t : name);
}

static char *bound_keycond(const expr_keycond *kc, const kp_item *values)
{
    expr_writer w = {.value = bound_value, .ctx = (void *)values};
    return expr_keycond_render(kc, &w);
}

/* The request input for the step from one sample (values rendered from it); NULL with *err. */
static json_t *input(const kp_design *d, const kp_pattern_result *r, const kp_step *s, const kp_item *sample,
                     const kp_item *values, requests_filter *filt, char **err)
{
    const kp_item *samples[1] = {sample};
    return requests_step_input(d, r, s, d->table.name ? d->table.name : "table", values, samples, 1,
                               s->op != KP_OP_GETITEM, filt, err);
}

/* The values the request sends, by value name (":pk"), read back from its input into *out. */
static void sent_values(const kp_design *d, const kp_step *s, const json_t *in, kp_item *out)
{
    const json_t *eav = json_object_get(in, "ExpressionAttributeValues");
    if (eav)
        items_from_json(eav, out);
    const json_t *key = json_object_get(in, "Key");
    if (key && s->kc) { /* GetItem: the key by attribute, renamed to the key condition's values */
        kp_item k = {0};
        items_from_json(key, &k);
        const char *pv = item_text(&k, s->kc->pk), *sv = s->kc->sk ? item_text(&k, s->kc->sk) : NULL;
        if (pv)
            item_set(out, s->kc->pk_value, item_key_type(d, s->kc->pk), pv);
        if (sv && s->kc->sk_value)
            item_set(out, s->kc->sk_value, item_key_type(d, s->kc->sk), sv);
        item_free(&k);
    }
}

static const kp_item_list *entity_items(const kp_design *d, const item_sample *sample, const kp_entity *e)
{
    if (!e || e < d->entities || e >= d->entities + d->nentities)
        return NULL;
    size_t i = (size_t)(e - d->entities);
    return i < sample->n ? &sample->lists[i] : NULL;
}

void itemreads_run(const kp_design *d, const item_sample *sample, const planeval_set *s,
                   const kp_pattern_result *r, itemreads *out)
{
    memset(out, 0, sizeof *out);
    out->limit = NAN;
    out->index = -1;
    const kp_pattern *p = r ? r->pattern : NULL;
    const kp_step *st = r && r->nsteps ? &r->steps[0] : NULL;
    if (!p || !st) {
        out->note =
            xasprintf(_("%s: no DynamoDB request of its own"), p ? kp_plan_word(r->plan) : _("no plan yet"));
        return;
    }
    out->step = st;
    out->index = st->index;
    if (st->op != KP_OP_GETITEM && st->op != KP_OP_QUERY && st->op != KP_OP_SCAN) {
        out->note = xasprintf(_("a %s: the Items screen marks what a GetItem, Query or Scan reads"),
                              kp_op_name(st->op));
        return;
    }
    const kp_entity *e = st->entity;
    const kp_item_list *items = entity_items(d, sample, e);
    const kp_item *anchor =
        items ? planeval_anchor(d, p, st->op == KP_OP_SCAN ? -1 : st->index, items) : NULL;
    if (!anchor && items && items->n)
        anchor = &items->v[0];
    if (!anchor) {
        out->note = xasprintf(_("no sample %s item to read with"), e && e->name ? e->name : "");
        return;
    }
    char *err = NULL;
    requests_filter filt = {0};
    kp_item values = {0};
    json_t *in = NULL;
    if (st->op == KP_OP_QUERY && st->kc && st->kc->op == EXPR_SK_BETWEEN && p->range.s) {
        /* a range: the bounds a quarter and three quarters into the partition's values */
        kp_item lo = {0}, hi = {0};
        planeval_range_bounds(d, s, p, e, st->index, anchor, &lo, &hi);
        json_t *a = input(d, r, st, &lo, NULL, NULL, &err),
               *b = a ? input(d, r, st, &hi, NULL, NULL, &err) : NULL;
        if (a && b) {
            kp_item va = {0}, vb = {0};
            sent_values(d, st, a, &va);
            sent_values(d, st, b, &vb);
            item_copy(&values, &va);
            const kp_value *v2 = item_get(&vb, st->kc->sk_value2);
            if (v2)
                item_set_value(&values, st->kc->sk_value2, v2);
            item_free(&va);
            item_free(&vb);
            in = input(d, r, st, &lo, &values, &filt, &err);
        }
        json_decref(a);
        json_decref(b);
        item_free(&lo);
        item_free(&hi);
    } else {
        in = input(d, r, st, anchor, NULL, &filt, &err);
        if (in)
            sent_values(d, st, in, &values);
    }
    if (!in) {
        out->note = xasprintf(_("the request cannot be built: %s"), err ? err : "?");
        free(err);
        item_free(&values);
        requests_filter_free(&filt);
        return;
    }
    if (st->op == KP_OP_SCAN) {
        planeval_scan(d, s, st->index, &out->res);
    } else {
        const expr_keycond *kc = st->kc;
        bool get = st->op == KP_OP_GETITEM;
        out->forward = get ? true : st->forward;
        out->limit = get ? NAN : st->limit;
        planeval_query q = {.index = st->index,
                            .kc = kc,
                            .pk_value = item_text(&values, kc->pk_value),
                            .sk_value = kc->sk_value ? item_text(&values, kc->sk_value) : NULL,
                            .sk_value2 = kc->sk_value2 ? item_text(&values, kc->sk_value2) : NULL,
                            .forward = out->forward,
                            .limit = out->limit};
        if (q.pk_value && (!kc->sk_value || q.sk_value) && (!kc->sk_value2 || q.sk_value2))
            planeval_query_run(d, s, &q, &out->res);
        else
            out->res.v = xcalloc(1, sizeof *out->res.v);
        out->keycond = bound_keycond(kc, &values);
    }
    out->nread = out->res.nread;
    out->read = xcalloc(out->nread + 1, sizeof *out->read);
    memcpy(out->read, out->res.v, out->nread * sizeof *out->read);
    if (filt.present) {
        expr_writer w = {.value = bound_value, .ctx = &filt.values};
        out->filter = expr_render(&filt.expr, &w);
        planeval_filter(d, st->index, &filt.expr, &filt.values, p, anchor, &out->res);
    }
    json_decref(in);
    item_free(&values);
    requests_filter_free(&filt);
}

void itemreads_free(itemreads *r)
{
    free(r->note);
    free(r->keycond);
    free(r->filter);
    free(r->read);
    planeval_result_free(&r->res);
    memset(r, 0, sizeof *r);
}

char *itemreads_op_text(const kp_design *d, const itemreads *r)
{
    if (r->note || !r->step)
        return xstrdup(r->note ? r->note : "");
    return xasprintf("%s %s", kp_op_name(r->step->op),
                     r->index >= 0 && (size_t)r->index < d->nindexes ? d->indexes[r->index].name
                                                                     : _("table"));
}

char *itemreads_cond_text(const itemreads *r)
{
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, "");
    if (r->note || !r->step)
        return sbuf_steal(&b);
    if (r->keycond)
        sbuf_add(&b, r->keycond);
    if (r->step->op == KP_OP_QUERY)
        sbuf_printf(&b, "%sScanIndexForward %s", b.len ? "  " : "", r->forward ? "true" : "false");
    if (isfinite(r->limit) && r->limit >= 1)
        sbuf_printf(&b, "%sLimit %.0f", b.len ? "  " : "", r->limit);
    if (r->filter)
        sbuf_printf(&b, "%sfilter %s", b.len ? "  " : "", r->filter);
    return sbuf_steal(&b);
}

char *itemreads_text(const kp_design *d, const itemreads *r)
{
    char *op = itemreads_op_text(d, r), *cond = itemreads_cond_text(r);
    char *t = *cond ? xasprintf("%s  %s", op, cond) : xstrdup(op);
    free(op);
    free(cond);
    return t;
}
