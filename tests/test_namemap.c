/* test_namemap.c - the model's one hash map: look-ups, tags, first-wins, replacing, numbering,
 * growth from a zeroed map, keys that are not copied, and a check against a linear search. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "namemap.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One step of a table: op 'p' put (first wins), 'i' insert with a tag, 's' set (replace),
 * 'g' get; want: the value found (or for 'p'/'i' whether it was added: 1/0), -1 absent. */
static const struct step {
    char op;
    const char *name;
    ptrdiff_t tag;
    size_t val;
    long want;
} steps[] = {
    {'g', "status", 0, 0, -1}, /* an empty (zeroed) map */
    {'p', "status", 0, 3, 1},  {'g', "status", 0, 0, 3},
    {'p', "status", 0, 9, 0},                             /* first wins */
    {'g', "status", 0, 0, 3},  {'g', "Status", 0, 0, -1}, /* byte for byte, as strcmp */
    {'g', "statu", 0, 0, -1},  {'i', "status", 7, 5, 1},  /* the same name with another tag is another key */
    {'g', "status", 0, 0, 3},  {'i', "status", 7, 6, 0},
    {'s', "status", 7, 8, 8},                            /* replacing through the slot */
    {'i', "status", -1, 2, 1},                           /* negative tags (the base table) */
    {'p', "", 0, 11, 1},                                 /* the empty name is a name */
    {'g', "", 0, 0, 11},       {'p', "línea", 0, 12, 1}, /* UTF-8 */
    {'g', "línea", 0, 0, 12},  {'g', "linea", 0, 0, -1},
    {'p', NULL, 0, 1, 0}, /* NULL names are ignored */
    {'g', NULL, 0, 0, -1},
};

static void test_table(void **state)
{
    (void)state;
    namemap m = {0};
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
        const struct step *s = &steps[i];
        long got = -1;
        size_t v;
        bool added;
        switch (s->op) {
        case 'p':
            got = namemap_put(&m, s->name, s->val);
            break;
        case 'i':
            namemap_insert(&m, s->name, s->tag, s->val, &added);
            got = added;
            break;
        case 's':
            *namemap_insert(&m, s->name, s->tag, s->val, NULL) = s->val;
            got = namemap_find(&m, s->name, s->tag, &v) ? (long)v : -1;
            break;
        case 'g':
            got = (s->tag ? namemap_find(&m, s->name, s->tag, &v) : namemap_get(&m, s->name, &v)) ? (long)v
                                                                                                  : -1;
            break;
        }
        if (got != s->want)
            fail_msg("step %zu (%c '%s' tag %td): %ld, expected %ld", i, s->op, s->name ? s->name : "(null)",
                     s->tag, got, s->want);
    }
    assert_null(namemap_insert(&m, NULL, 0, 1, NULL));
    namemap_free(&m);
    assert_int_equal(m.n, 0);
    size_t v;
    assert_false(namemap_get(&m, "status", &v)); /* freed: empty again */
}

static void test_number(void **state)
{
    (void)state;
    const char *names[] = {"PK", "SK", "GSI1PK", "SK", "PK", "GSI2PK", NULL, "GSI1PK"};
    const size_t want[] = {0, 1, 2, 1, 0, 3, SIZE_MAX, 2};
    namemap m;
    namemap_init(&m, 2);
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        assert_int_equal(namemap_number(&m, names[i]), want[i]);
    assert_int_equal(m.n, 4);
    namemap_free(&m);
}

/* Thousands of keys from a zeroed map (it grows many times), tags on half of them, checked
 * against a linear search; the keys live in the caller's buffer (not copied). */
static void test_growth_against_linear(void **state)
{
    (void)state;
    enum { N = 5000 };
    char(*keys)[16] = malloc(N * sizeof *keys);
    namemap m = {0};
    for (size_t i = 0; i < N; i++) {
        snprintf(keys[i], sizeof keys[i], "attr%zu", i % (N / 2)); /* each name twice */
        ptrdiff_t tag = i < N / 2 ? 0 : (ptrdiff_t)(i % 7) - 3;
        bool added;
        size_t *slot = namemap_insert(&m, keys[i], tag, i, &added);
        assert_non_null(slot);
        /* linear search: added exactly when no earlier (name, tag) */
        bool earlier = false;
        for (size_t k = 0; k < i && !earlier; k++) {
            ptrdiff_t tk = k < N / 2 ? 0 : (ptrdiff_t)(k % 7) - 3;
            earlier = tk == tag && strcmp(keys[k], keys[i]) == 0;
        }
        assert_int_equal(added, !earlier);
    }
    assert_true(m.cap >= 2 * m.n);
    for (size_t i = 0; i < N; i++) {
        ptrdiff_t tag = i < N / 2 ? 0 : (ptrdiff_t)(i % 7) - 3;
        size_t v;
        assert_true(namemap_find(&m, keys[i], tag, &v));
        size_t first = SIZE_MAX;
        for (size_t k = 0; k < N && first == SIZE_MAX; k++) {
            ptrdiff_t tk = k < N / 2 ? 0 : (ptrdiff_t)(k % 7) - 3;
            if (tk == tag && strcmp(keys[k], keys[i]) == 0)
                first = k;
        }
        assert_int_equal(v, first);
    }
    size_t v;
    assert_false(namemap_find(&m, "attr1", 99, &v));
    assert_false(namemap_get(&m, "attr", &v));
    namemap_free(&m);
    free(keys);
}

/* A map sized in advance does not grow while it holds no more than it was sized for. */
static void test_init_sizes(void **state)
{
    (void)state;
    namemap m;
    namemap_init(&m, 100);
    size_t cap = m.cap;
    char keys[100][8];
    for (size_t i = 0; i < 100; i++) {
        snprintf(keys[i], sizeof keys[i], "k%zu", i);
        assert_true(namemap_put(&m, keys[i], i));
    }
    assert_int_equal(m.cap, cap);
    assert_int_equal(m.n, 100);
    namemap_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_number),
        cmocka_unit_test(test_growth_against_linear),
        cmocka_unit_test(test_init_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
