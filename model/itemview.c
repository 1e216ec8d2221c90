/* itemview.c - a table or an index as rows of items. */
#include "itemview.h"

#include <stdlib.h>
#include <string.h>

/* Sorting context: the key attributes' kinds. */
typedef struct order {
    bool pknum, sknum;
} order;

static int row_cmp(const order *o, const itemview_row *a, const itemview_row *b)
{
    int c = expr_key_cmp(o->pknum, a->pk, b->pk);
    if (c)
        return c;
    if (a->sk || b->sk) {
        if (!a->sk || !b->sk)
            return a->sk ? 1 : -1;
        c = expr_key_cmp(o->sknum, a->sk, b->sk);
        if (c)
            return c;
    }
    return strcmp(a->pi->key, b->pi->key);
}

/* A stable merge sort of v[0..n) with tmp as scratch (qsort has no context in C11). */
static void sort_rows(const order *o, itemview_row *v, itemview_row *tmp, size_t n)
{
    if (n < 2)
        return;
    size_t h = n / 2;
    sort_rows(o, v, tmp, h);
    sort_rows(o, v + h, tmp, n - h);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = row_cmp(o, &v[j], &v[i]) < 0 ? v[j++] : v[i++];
    while (i < h)
        tmp[k++] = v[i++];
    while (j < n)
        tmp[k++] = v[j++];
    memcpy(v, tmp, n * sizeof *v);
}

static bool has_col(const itemview *v, const char *name)
{
    for (size_t i = 0; i < v->ncols; i++)
        if (strcmp(v->cols[i], name) == 0)
            return true;
    return false;
}

void itemview_build(const kp_design *d, const planeval_set *s, ptrdiff_t index, itemview *out)
{
    memset(out, 0, sizeof *out);
    if (index < -1 || (index >= 0 && (size_t)index >= d->nindexes))
        index = -1;
    out->index = index;
    out->pk_attr = planeval_index_pk(d, index);
    out->sk_attr = planeval_index_sk(d, index);
    out->v = xcalloc(s->n ? s->n : 1, sizeof *out->v);
    out->nset = s->n;
    out->row_of = xcalloc(s->n ? s->n : 1, sizeof *out->row_of);
    for (size_t i = 0; i < s->n; i++) {
        const kp_item *it = s->v[i].item;
        if (!out->pk_attr || !planeval_on_index(d, index, it)) {
            out->nabsent++;
            continue;
        }
        itemview_row *r = &out->v[out->n++];
        r->pi = &s->v[i];
        planeval_project(d, index, it, &r->view);
        r->pk = item_text(&r->view, out->pk_attr);
        r->sk = out->sk_attr ? item_text(&r->view, out->sk_attr) : NULL;
    }
    order o = {item_key_type(d, out->pk_attr) == KP_VAL_N,
               out->sk_attr && item_key_type(d, out->sk_attr) == KP_VAL_N};
    itemview_row *tmp = xcalloc(out->n ? out->n : 1, sizeof *tmp);
    sort_rows(&o, out->v, tmp, out->n);
    free(tmp);
    for (size_t i = 0; i < s->n; i++)
        out->row_of[i] = (size_t)-1;
    size_t cap = 0;
    if (out->pk_attr) {
        VEC_GROW(out->cols, out->ncols, cap);
        out->cols[out->ncols++] = out->pk_attr;
    }
    if (out->sk_attr) {
        VEC_GROW(out->cols, out->ncols, cap);
        out->cols[out->ncols++] = out->sk_attr;
    }
    for (size_t i = 0; i < out->n; i++) {
        itemview_row *r = &out->v[i];
        r->first = i == 0 || expr_key_cmp(o.pknum, out->v[i - 1].pk, r->pk) != 0;
        if (r->first && i > 0)
            out->nparts++;
        r->part = out->nparts;
        out->row_of[r->pi - s->v] = i;
        for (size_t a = 0; a < r->view.n; a++)
            if (!has_col(out, r->view.v[a].name)) {
                VEC_GROW(out->cols, out->ncols, cap);
                out->cols[out->ncols++] = r->view.v[a].name;
            }
    }
    if (out->n)
        out->nparts++;
}

void itemview_free(itemview *v)
{
    for (size_t i = 0; i < v->n; i++)
        item_free(&v->v[i].view);
    free(v->v);
    free(v->cols);
    free(v->row_of);
    memset(v, 0, sizeof *v);
}

size_t itemview_row_of(const itemview *v, const planeval_set *s, const planeval_item *pi)
{
    if (!pi || pi < s->v || pi >= s->v + s->n || (size_t)(pi - s->v) >= v->nset)
        return (size_t)-1;
    return v->row_of[pi - s->v];
}

void itemview_clear_marks(itemview *v)
{
    for (size_t i = 0; i < v->n; i++)
        v->v[i].mark = IV_NONE;
}

static void mark(itemview *v, const planeval_set *s, const planeval_item *pi, itemview_mark m)
{
    size_t r = itemview_row_of(v, s, pi);
    if (r != (size_t)-1)
        v->v[r].mark = m;
}

size_t itemview_mark_result(itemview *v, const planeval_set *s, const planeval_result *r,
                            const planeval_item *const *read, size_t nread)
{
    /* what was read first: what the filter kept is marked again below */
    for (size_t i = 0; read && i < nread; i++)
        mark(v, s, read[i], IV_DROPPED);
    for (size_t i = 0; i < r->n; i++)
        mark(v, s, r->v[i], IV_RETURNED);
    for (size_t i = 0; i < r->nopt; i++)
        mark(v, s, r->v[r->n + i], IV_TIED);
    size_t n = 0;
    for (size_t i = 0; i < v->n; i++)
        n += v->v[i].mark != IV_NONE;
    return n;
}
