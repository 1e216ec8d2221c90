/* test_itemview.c - the Items screen's model: a table or an index as rows of sample items in
 * DynamoDB's order (model/itemview.h), and what a pattern's request reads there, its key
 * condition and filter with the values bound (storage/exchange/itemreads.h), on CloudShop and
 * on small designs made for one rule each. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analysis.h"
#include "itemreads.h"
#include "itemview.h"
#include "support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A design, its analysis, its sample items and the set over them. */
typedef struct fx {
    kp_design *d;
    kp_analysis *a;
    item_sample s;
    planeval_set set;
} fx;

static void fx_open(fx *f, kp_design *d, const item_sample_opts *o)
{
    assert_non_null(d);
    f->d = d;
    f->a = analysis_run(d);
    item_sample_opts def = {.seed = ITEM_DEFAULT_SEED};
    item_sample_make_opts(d, o ? o : &def, &f->s);
    memset(&f->set, 0, sizeof f->set);
    for (size_t i = 0; i < f->s.n; i++)
        for (size_t k = 0; k < f->s.lists[i].n; k++)
            planeval_set_add(&f->set, d, &d->entities[i], &f->s.lists[i].v[k]);
}

static void fx_close(fx *f)
{
    planeval_set_free(&f->set);
    item_sample_free(&f->s);
    analysis_free(f->a);
    design_free(f->d);
}

static const kp_pattern_result *result(const fx *f, const char *id)
{
    for (size_t i = 0; i < f->a->npatterns; i++)
        if (strcmp(f->a->patterns[i].pattern->id, id) == 0)
            return &f->a->patterns[i];
    fail_msg("no pattern %s", id);
    return NULL;
}

/* Every row is in DynamoDB's order: partitions together, sort keys ascending inside one (bytes
 * or numbers), partition numbers counting up; the index holds only items with its keys. */
static void assert_sorted(const kp_design *d, const itemview *v)
{
    bool pknum = item_key_type(d, v->pk_attr) == KP_VAL_N;
    bool sknum = v->sk_attr && item_key_type(d, v->sk_attr) == KP_VAL_N;
    for (size_t i = 0; i < v->n; i++) {
        const itemview_row *r = &v->v[i];
        assert_non_null(r->pk);
        if (v->sk_attr)
            assert_non_null(r->sk);
        if (i == 0) {
            assert_true(r->first);
            assert_int_equal(r->part, 0);
            continue;
        }
        const itemview_row *p = &v->v[i - 1];
        int c = expr_key_cmp(pknum, p->pk, r->pk);
        assert_true(c <= 0);
        assert_int_equal(r->first, c != 0);
        assert_int_equal(r->part, p->part + (c != 0));
        if (c == 0 && v->sk_attr)
            assert_true(expr_key_cmp(sknum, p->sk, r->sk) <= 0);
    }
    assert_int_equal(v->nparts, v->n ? v->v[v->n - 1].part + 1 : 0);
}

static void test_table_order(void **state)
{
    (void)state;
    fx f;
    fx_open(&f, ts_load_file("samples/cloudshop/design.yaml"), NULL);
    itemview v;
    itemview_build(f.d, &f.set, -1, &v);
    assert_int_equal(v.n, f.set.n); /* the table holds every item */
    assert_int_equal(v.nabsent, 0);
    assert_string_equal(v.cols[0], "PK");
    assert_string_equal(v.cols[1], "SK");
    assert_sorted(f.d, &v);
    /* a customer's partition: DIRECCION#, PEDIDO#..., PERFIL, in byte order */
    size_t i = 0;
    while (i < v.n && strncmp(v.v[i].pk, "CLIENTE#", 8) != 0)
        i++;
    assert_true(i < v.n);
    assert_true(v.v[i].first);
    const char *last = NULL;
    for (; i < v.n && !(v.v[i].first && last); i++) {
        if (last)
            assert_true(strcmp(last, v.v[i].sk) < 0);
        last = v.v[i].sk;
    }
    /* each item's row is found in O(1) */
    for (size_t k = 0; k < f.set.n; k++)
        assert_ptr_equal(v.v[itemview_row_of(&v, &f.set, &f.set.v[k])].pi, &f.set.v[k]);
    itemview_free(&v);
    fx_close(&f);
}

/* GSI1 is sparse (orders paid or pending shipment) and projects orderId, customerId, orderDate
 * and total: the other orders are absent, and the rows carry the keys and those only. */
static void test_gsi_sparse_projected(void **state)
{
    (void)state;
    fx f;
    fx_open(&f, ts_load_file("samples/cloudshop/design.yaml"), NULL);
    itemview v;
    itemview_build(f.d, &f.set, 0, &v);
    assert_string_equal(v.pk_attr, "GSI1PK");
    assert_true(v.n > 0);
    assert_true(v.nabsent > 0);
    assert_int_equal(v.n + v.nabsent, f.set.n);
    assert_sorted(f.d, &v);
    static const char *const allowed[] = {"GSI1PK",  "GSI1SK",     "PK",        "SK",
                                          "orderId", "customerId", "orderDate", "total"};
    for (size_t i = 0; i < v.n; i++) {
        const char *st = item_text(v.v[i].pi->item, "status");
        assert_true(strcmp(st, "paid") == 0 || strcmp(st, "pending-shipment") == 0);
        for (size_t a = 0; a < v.v[i].view.n; a++) {
            bool ok = false;
            for (size_t k = 0; k < sizeof allowed / sizeof *allowed; k++)
                ok = ok || strcmp(allowed[k], v.v[i].view.v[a].name) == 0;
            if (!ok)
                fail_msg("GSI1 shows %s, which it does not project", v.v[i].view.v[a].name);
        }
    }
    for (size_t k = 0; k < f.set.n; k++)
        if (!planeval_on_index(f.d, 0, f.set.v[k].item))
            assert_int_equal(itemview_row_of(&v, &f.set, &f.set.v[k]), (size_t)-1);
    itemview_free(&v);
    fx_close(&f);
}

/* Numbers sort by value, not by their text: 10 after 9. */
static void test_numbers_numeric(void **state)
{
    (void)state;
    fx f;
    item_sample_opts o = {.seed = 7, .per_partition = 12};
    fx_open(&f,
            ts_load_text(
                "keyplan: 1\nname: n\ntable: { name: Nums, pk: PK, sk: SK }\n"
                "attributes: { n: { type: number }, gId: { distinct: 10 } }\n"
                "entities:\n  - { name: E, attributes: [gId, n], keys: { PK: \"G#{gId}\", SK: \"{n}\" } }\n",
                "n.yaml"),
            &o);
    itemview v;
    itemview_build(f.d, &f.set, -1, &v);
    assert_true(v.n >= 12);
    assert_sorted(f.d, &v);
    bool crossed = false; /* a partition holds both a one-digit and a two-digit number */
    for (size_t i = 1; i < v.n; i++)
        if (!v.v[i].first && strlen(v.v[i - 1].sk) < strlen(v.v[i].sk))
            crossed = true;
    assert_true(crossed);
    itemview_free(&v);
    fx_close(&f);
}

/* Pattern 2: the key condition with its values bound, newest first, Limit 20; what comes back
 * is the anchor customer's order summaries and nothing else, in DynamoDB's order. */
static void test_reads_query_bound(void **state)
{
    (void)state;
    fx f;
    fx_open(&f, ts_load_file("samples/cloudshop/design.yaml"), NULL);
    itemreads r;
    itemreads_run(f.d, &f.s, &f.set, result(&f, "2"), &r);
    assert_null(r.note);
    assert_non_null(r.keycond);
    assert_true(strncmp(r.keycond, "PK = CLIENTE#customer-", 22) == 0);
    assert_non_null(strstr(r.keycond, " AND begins_with(SK, PEDIDO#)"));
    assert_false(r.forward);
    assert_true(r.limit == 20);
    assert_null(r.filter);
    assert_true(r.res.n > 0);
    char *pk = xstrndup(r.keycond + 5, strcspn(r.keycond + 5, " "));
    for (size_t i = 0; i < r.res.n; i++) {
        assert_string_equal(item_text(r.res.v[i]->item, "PK"), pk);
        assert_true(strncmp(item_text(r.res.v[i]->item, "SK"), "PEDIDO#", 7) == 0);
        if (i)
            assert_true(strcmp(item_text(r.res.v[i - 1]->item, "SK"), item_text(r.res.v[i]->item, "SK")) > 0);
    }
    char *t = itemreads_text(f.d, &r);
    assert_non_null(strstr(t, "Query table  PK = CLIENTE#"));
    assert_non_null(strstr(t, "ScanIndexForward false  Limit 20"));
    free(t);
    /* the view marks exactly those */
    itemview v;
    itemview_build(f.d, &f.set, -1, &v);
    assert_int_equal(itemview_mark_result(&v, &f.set, &r.res, r.read, r.nread), r.res.n);
    for (size_t i = 0; i < v.n; i++)
        assert_int_equal(v.v[i].mark == IV_RETURNED,
                         strcmp(v.v[i].pk, pk) == 0 && strncmp(v.v[i].sk, "PEDIDO#", 7) == 0);
    free(pk);
    itemview_free(&v);
    itemreads_free(&r);
    fx_close(&f);
}

/* Pattern 5 reads GSI1 (sparse): only orders pending shipment come back. A write shows a note. */
static void test_reads_gsi_and_write(void **state)
{
    (void)state;
    fx f;
    fx_open(&f, ts_load_file("samples/cloudshop/design.yaml"), NULL);
    itemreads r;
    itemreads_run(f.d, &f.s, &f.set, result(&f, "5"), &r);
    assert_null(r.note);
    assert_int_equal(r.index, 0);
    assert_string_equal(r.keycond, "GSI1PK = ESTADO#pending-shipment");
    assert_true(r.res.n > 0);
    for (size_t i = 0; i < r.res.n; i++)
        assert_string_equal(item_text(r.res.v[i]->item, "status"), "pending-shipment");
    itemreads_free(&r);
    itemreads_run(f.d, &f.s, &f.set, result(&f, "13"), &r);
    assert_non_null(r.note);
    assert_int_equal(r.res.n, 0);
    itemreads_free(&r);
    fx_close(&f);
}

/* A filter: what the key condition reads and the filter drops is told apart from what comes
 * back, and the filter shows its value bound. */
static void test_reads_filter_drops(void **state)
{
    (void)state;
    fx f;
    item_sample_opts o = {.seed = ITEM_DEFAULT_SEED, .per_partition = 12};
    fx_open(
        &f,
        ts_load_text("keyplan: 1\nname: f\ntable: { name: Filtered, pk: PK, sk: SK }\n"
                     "attributes:\n  status: { type: enum, values: { open: 0.5, paid: 0.5 } }\n"
                     "  orderDate: { type: date }\n"
                     "entities:\n  - { name: Order, attributes: [customerId, orderId, orderDate, status],\n"
                     "      keys: { PK: \"C#{customerId}\", SK: \"O#{orderDate}#{orderId}\" } }\n"
                     "patterns:\n  - { id: 1, name: paid orders of a customer, entity: Order,\n"
                     "      by: [customerId, \"status=paid\"], rate: 1 }\n",
                     "f.yaml"),
        &o);
    itemreads r;
    itemreads_run(f.d, &f.s, &f.set, result(&f, "1"), &r);
    assert_null(r.note);
    assert_non_null(r.filter);
    assert_non_null(strstr(r.filter, "paid"));
    assert_true(r.nread > r.res.n);
    assert_true(r.res.n > 0);
    for (size_t i = 0; i < r.res.n; i++)
        assert_string_equal(item_text(r.res.v[i]->item, "status"), "paid");
    itemview v;
    itemview_build(f.d, &f.set, -1, &v);
    itemview_mark_result(&v, &f.set, &r.res, r.read, r.nread);
    size_t dropped = 0, returned = 0;
    for (size_t i = 0; i < v.n; i++) {
        dropped += v.v[i].mark == IV_DROPPED;
        returned += v.v[i].mark == IV_RETURNED;
        if (v.v[i].mark == IV_DROPPED)
            assert_string_not_equal(item_text(v.v[i].pi->item, "status"), "paid");
    }
    assert_int_equal(returned, r.res.n);
    assert_int_equal(dropped, r.nread - r.res.n);
    itemview_free(&v);
    itemreads_free(&r);
    fx_close(&f);
}

/* Sizes: partitions and items per partition as asked, 10,000 items told apart by key. */
static void test_sample_sizes(void **state)
{
    (void)state;
    kp_design *d = ts_load_file("samples/cloudshop/design.yaml");
    item_sample s;
    item_sample_opts o = {.seed = 3, .partitions = 250, .per_partition = 8};
    item_sample_make_opts(d, &o, &s);
    size_t total = 0;
    for (size_t i = 0; i < s.n; i++)
        total += s.lists[i].n;
    assert_true(total > 5000);
    planeval_set set = {0};
    for (size_t i = 0; i < s.n; i++)
        for (size_t k = 0; k < s.lists[i].n; k++)
            planeval_set_add(&set, d, &d->entities[i], &s.lists[i].v[k]);
    itemview v;
    itemview_build(d, &set, -1, &v);
    assert_sorted(d, &v);
    for (size_t i = 1; i < v.n; i++) /* unique keys */
        assert_true(v.v[i].first || strcmp(v.v[i - 1].sk, v.v[i].sk) != 0);
    itemview_free(&v);
    planeval_set_free(&set);
    item_sample_free(&s);
    /* both sizes 0: exactly the exports' sample */
    item_sample a, b;
    item_sample_opts z = {.seed = ITEM_DEFAULT_SEED};
    item_sample_make_opts(d, &z, &a);
    item_sample_make(d, ITEM_DEFAULT_SEED, false, &b);
    for (size_t i = 0; i < a.n; i++) {
        assert_int_equal(a.lists[i].n, b.lists[i].n);
        for (size_t k = 0; k < a.lists[i].n; k++) {
            char *x = item_primary_key(d, &a.lists[i].v[k]), *y = item_primary_key(d, &b.lists[i].v[k]);
            assert_string_equal(x, y);
            free(x);
            free(y);
        }
    }
    item_sample_free(&a);
    item_sample_free(&b);
    design_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_order),         cmocka_unit_test(test_gsi_sparse_projected),
        cmocka_unit_test(test_numbers_numeric),     cmocka_unit_test(test_reads_query_bound),
        cmocka_unit_test(test_reads_gsi_and_write), cmocka_unit_test(test_reads_filter_drops),
        cmocka_unit_test(test_sample_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
