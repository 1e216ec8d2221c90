/* test_util.c - the basic blocks of model/util.h: the hash (whose values the workspace stores
 * on disk), the arena and the string builder (on the heap, in a caller's buffer, into an
 * arena). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "util.h"

#include <stdlib.h>
#include <string.h>

/* FNV-1a 64 from the seed keyplan has always used: these are version digests as workspaces
 * store them (hex), so they must never change. */
static const struct hash_case {
    const char *text;
    uint64_t want;
} hash_cases[] = {
    {"", 0x14650fb0739d0383ULL},      {"a", 0x44bd8ad473cd9906ULL},  {"version: 1\n", 0x8caf7ebf3bfd2860ULL},
    {"línea", 0x93c722e9e5f11f17ULL}, {"ab", 0x9bac4b00c65ba4ecULL},
};

static void test_hash(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof hash_cases / sizeof *hash_cases; i++) {
        const struct hash_case *c = &hash_cases[i];
        uint64_t h = util_hash_str(UTIL_HASH_SEED, c->text);
        if (h != c->want)
            fail_msg("'%s': %016llx, expected %016llx", c->text, (unsigned long long)h,
                     (unsigned long long)c->want);
        assert_true(util_hash_bytes(UTIL_HASH_SEED, c->text, strlen(c->text)) == c->want);
    }
    /* continuing a hash over the next part is hashing the concatenation */
    assert_true(util_hash_str(util_hash_str(UTIL_HASH_SEED, "a"), "b") ==
                util_hash_str(UTIL_HASH_SEED, "ab"));
    assert_true(util_hash_bytes(util_hash_bytes(UTIL_HASH_SEED, "a\0", 2), "b", 1) !=
                util_hash_str(UTIL_HASH_SEED, "ab")); /* bytes include what strings stop at */
}

static void test_arena(void **state)
{
    (void)state;
    arena *a = arena_new();
    char *prev = NULL;
    for (size_t i = 0; i < 10000; i++) { /* many blocks */
        size_t n = 1 + i % 61;
        char *p = arena_alloc(a, n);
        assert_true((uintptr_t)p % _Alignof(max_align_t) == 0);
        memset(p, 'x', n);
        if (prev)
            assert_int_equal(prev[0], 'x'); /* earlier pieces stay */
        prev = p;
    }
    double *z = arena_zalloc(a, 100 * sizeof *z);
    for (size_t i = 0; i < 100; i++)
        assert_true(z[i] == 0);
    char *big = arena_alloc(a, 200000); /* larger than a block */
    memset(big, 1, 200000);
    assert_string_equal(arena_strdup(a, "línea"), "línea");
    assert_string_equal(arena_strndup(a, "abcdef", 3), "abc");
    assert_string_equal(arena_printf(a, "%s=%d", "n", 42), "n=42");
    char longtext[600];
    memset(longtext, 'y', sizeof longtext - 1);
    longtext[sizeof longtext - 1] = '\0';
    assert_string_equal(arena_printf(a, "%s", longtext), longtext); /* past the stack buffer */
    arena_free(a);
    arena_free(NULL);
}

static void test_sbuf_heap(void **state)
{
    (void)state;
    sbuf b;
    sbuf_init(&b);
    assert_null(b.s);
    char *empty = sbuf_steal(&b);
    assert_string_equal(empty, "");
    free(empty);
    sbuf_add(&b, "PK = :pk");
    sbuf_addc(&b, ' ');
    sbuf_addn(&b, "ANDxyz", 3);
    sbuf_printf(&b, " %s %d", "sk", 2);
    assert_string_equal(b.s, "PK = :pk AND sk 2");
    assert_int_equal(b.len, strlen(b.s));
    char *s = sbuf_steal(&b);
    assert_null(b.s);
    assert_string_equal(s, "PK = :pk AND sk 2");
    free(s);
    sbuf_free(&b);
}

/* In a caller's buffer until it outgrows it: then on the heap, the buffer no longer used. */
static void test_sbuf_in_buffer(void **state)
{
    (void)state;
    char buf[8];
    sbuf b;
    sbuf_init_in(&b, buf, sizeof buf);
    assert_ptr_equal(b.s, buf);
    assert_string_equal(b.s, "");
    sbuf_add(&b, "1234567");
    assert_ptr_equal(b.s, buf); /* 7 bytes and the NUL fit */
    char *s = sbuf_steal(&b);   /* a heap copy */
    assert_true(s != buf);
    assert_string_equal(s, "1234567");
    free(s);

    sbuf_init_in(&b, buf, sizeof buf);
    sbuf_add(&b, "12345678");
    assert_true(b.s != buf);
    sbuf_add(&b, "9");
    assert_string_equal(b.s, "123456789");
    sbuf_free(&b); /* frees the heap text */

    sbuf_init_in(&b, buf, sizeof buf);
    sbuf_add(&b, "abc");
    sbuf_free(&b); /* nothing to free: in buf */
    assert_null(b.s);
}

static void test_sbuf_to_arena(void **state)
{
    (void)state;
    arena *a = arena_new();
    char buf[4];
    sbuf b;
    sbuf_init_in(&b, buf, sizeof buf);
    sbuf_add(&b, "ab");
    char *t1 = sbuf_to_arena(&b, a);
    assert_string_equal(t1, "ab");
    sbuf_init_in(&b, buf, sizeof buf);
    sbuf_add(&b, "abcdefgh");
    char *t2 = sbuf_to_arena(&b, a);
    assert_string_equal(t2, "abcdefgh");
    sbuf_init(&b);
    char *t3 = sbuf_to_arena(&b, a); /* nothing appended: "" */
    assert_string_equal(t3, "");
    assert_null(b.s);
    arena_free(a);
}

static void test_vec_del(void **state)
{
    (void)state;
    int v[] = {1, 2, 3, 4};
    size_t n = 4;
    VEC_DEL(v, n, 1);
    assert_int_equal(n, 3);
    assert_int_equal(v[0], 1);
    assert_int_equal(v[1], 3);
    assert_int_equal(v[2], 4);
    VEC_DEL(v, n, 2); /* the last */
    VEC_DEL(v, n, 0); /* the first */
    assert_int_equal(n, 1);
    assert_int_equal(v[0], 3);
}

static void test_loc_of(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        size_t off;
        int line, col;
    } rows[] = {
        {"", 0, 1, 1},       {"abc", 0, 1, 1},    {"abc", 2, 1, 3},
        {"ab\ncd", 3, 2, 1}, {"ab\ncd", 4, 2, 2}, {"línea\n\nx", 6, 1, 6}, /* í is one column */
        {"a\n\nb", 3, 3, 1}, {"abc", 99, 1, 4},                            /* past the end: the end */
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        kp_loc l = util_loc_of(rows[i].text, strlen(rows[i].text), rows[i].off);
        if (l.line != rows[i].line || l.col != rows[i].col)
            fail_msg("row %zu: %d:%d, expected %d:%d", i, l.line, l.col, rows[i].line, rows[i].col);
    }
}

/* kp_fail: the status back, the message only when the caller wants it. */
static void test_fail(void **state)
{
    (void)state;
    char *err = NULL;
    assert_int_equal(kp_fail(&err, KP_IO, "%s: cannot write: %s", "x.yaml", "No space left on device"),
                     KP_IO);
    assert_string_equal(err, "x.yaml: cannot write: No space left on device");
    free(err);
    assert_int_equal(kp_fail(NULL, KP_NOTFOUND, "no step %d", 3), KP_NOTFOUND);
    assert_string_equal(kp_status_name(KP_NOTFOUND), "NOTFOUND");
    assert_string_equal(kp_status_text(KP_ENCODING), "invalid UTF-8");
}

/* text from outside made printable: controls escaped, UTF-8 kept, stray bytes as "\xNN" */
static void test_escape_controls(void **state)
{
    (void)state;
    static const char *const rows[][2] = {
        {"plain", "plain"},
        {"l\xc3\xadnea DIRECCI\xc3\x93N#casa", "l\xc3\xadnea DIRECCI\xc3\x93N#casa"},
        {"a\tb\nc\x1b[2J\x7f", "a\\tb\\nc\\e[2J\\x7f"},
        {"\xc2\x9b"
         "31m",
         "\\u009b31m"},
        {"l\xe9on", "l\\xe9on"},                                      /* Latin-1 */
        {"\xe2\x82", "\\xe2\\x82"},                                   /* cut short at the end */
        {"\xe2\x82x\xf0\x9f\x94\x91", "\\xe2\\x82x\xf0\x9f\x94\x91"}, /* cut short, then a key */
        {"\xed\xa0\x80", "\\xed\\xa0\\x80"},                          /* a surrogate */
        {"\xff\xfe", "\\xff\\xfe"},
        {"", ""},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        char *e = util_escape_controls(rows[i][0]);
        assert_string_equal(e, rows[i][1]);
        size_t bad;
        assert_true(util_utf8_valid(e, strlen(e), &bad));
        assert_int_equal(util_control_at(e, false), -1);
        free(e);
    }
    char *e = util_escape_controls(NULL);
    assert_string_equal(e, "");
    free(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hash),
        cmocka_unit_test(test_arena),
        cmocka_unit_test(test_sbuf_heap),
        cmocka_unit_test(test_sbuf_in_buffer),
        cmocka_unit_test(test_sbuf_to_arena),
        cmocka_unit_test(test_vec_del),
        cmocka_unit_test(test_loc_of),
        cmocka_unit_test(test_fail),
        cmocka_unit_test(test_escape_controls),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
