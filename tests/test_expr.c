/* test_expr.c - key conditions and filters as data (model/expr.h): DynamoDB's reserved words,
 * which names need a placeholder and which placeholder each gets, expressions built as data and
 * rendered, read back (through the placeholders), evaluated over an item with DynamoDB's
 * comparison rules, and key-condition matching. One row per case. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "expr.h"

#include <stdlib.h>
#include <string.h>

static void check_str(size_t i, const char *what, const char *have, const char *want)
{
    if ((have == NULL) != (want == NULL) || (have && strcmp(have, want) != 0))
        fail_msg("case %zu: %s is '%s', expected '%s'", i, what, have ? have : "(null)",
                 want ? want : "(null)");
}

/* ---- key conditions ------------------------------------------------------------------------ */

static const struct kc_case {
    const char *text;
    bool ok;
    const char *pk, *pkv, *sk, *v1, *v2;
    expr_sk_op op;
} kc_cases[] = {
    {"PK = :pk", true, "PK", ":pk", NULL, NULL, NULL, EXPR_SK_NONE},
    {"PK = :pk AND SK = :sk", true, "PK", ":pk", "SK", ":sk", NULL, EXPR_SK_EQ},
    {"PK = :pk AND begins_with(SK, :sk)", true, "PK", ":pk", "SK", ":sk", NULL, EXPR_SK_BEGINS},
    {"GSI1PK = :pk AND GSI1SK BETWEEN :sk1 AND :sk2", true, "GSI1PK", ":pk", "GSI1SK", ":sk1", ":sk2",
     EXPR_SK_BETWEEN},
    {"PK = :pk AND SK <= :sk", true, "PK", ":pk", "SK", ":sk", NULL, EXPR_SK_LE},
    {"PK = :pk AND SK > :sk", true, "PK", ":pk", "SK", ":sk", NULL, EXPR_SK_GT},
    {"customerId = :pk AND orderDate < :sk", true, "customerId", ":pk", "orderDate", ":sk", NULL, EXPR_SK_LT},
    {"línea = :pk", true, "línea", ":pk", NULL, NULL, NULL, EXPR_SK_NONE},
    {"", false, NULL, NULL, NULL, NULL, NULL, EXPR_SK_NONE},
    {"PK = pk", false, NULL, NULL, NULL, NULL, NULL, EXPR_SK_NONE},
    {"PK = :pk OR SK = :sk", false, NULL, NULL, NULL, NULL, NULL, EXPR_SK_NONE},
    {"PK = :pk AND begins_with(SK :sk)", false, NULL, NULL, NULL, NULL, NULL, EXPR_SK_NONE},
    {"PK = :pk AND SK BETWEEN :a", false, NULL, NULL, NULL, NULL, NULL, EXPR_SK_NONE},
    {"PK = :pk AND SK = :sk extra", false, NULL, NULL, NULL, NULL, NULL, EXPR_SK_NONE},
};

static void test_keycond_parse(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof kc_cases / sizeof *kc_cases; i++) {
        const struct kc_case *c = &kc_cases[i];
        expr_keycond kc;
        char *err = NULL;
        kp_status st = expr_keycond_parse(c->text, NULL, 0, &kc, &err);
        bool ok = st == KP_OK;
        if (ok != c->ok)
            fail_msg("case %zu '%s': parse gave %d, expected %d", i, c->text, ok, c->ok);
        if (!ok) {
            assert_int_equal(st, KP_INVALID);
            assert_non_null(err);
            assert_non_null(strstr(err, "cannot read the key condition"));
            free(err);
            continue;
        }
        check_str(i, "pk", kc.pk, c->pk);
        check_str(i, "pk value", kc.pk_value, c->pkv);
        check_str(i, "sk", kc.sk, c->sk);
        check_str(i, "sk value", kc.sk_value, c->v1);
        check_str(i, "sk value 2", kc.sk_value2, c->v2);
        assert_int_equal(kc.op, c->op);
        /* written back, it is the text the resolver wrote */
        char *back = expr_keycond_render(&kc, NULL);
        check_str(i, "rendered", back, c->text);
        free(back);
        expr_keycond_free(&kc);
    }
}

/* Sort-key matching: (condition, numeric, the item's value, v1, v2) -> match. */
static const struct sk_case {
    const char *kc;
    bool numeric;
    const char *have, *v1, *v2;
    bool want;
} sk_cases[] = {
    {"PK = :pk", false, NULL, NULL, NULL, true},
    {"PK = :pk AND SK = :sk", false, "A#1", "A#1", NULL, true},
    {"PK = :pk AND SK = :sk", false, NULL, "A#1", NULL, false},
    {"PK = :pk AND begins_with(SK, :sk)", false, "LINE#007", "LINE#", NULL, true},
    {"PK = :pk AND begins_with(SK, :sk)", false, "NOTE#1", "LINE#", NULL, false},
    {"PK = :pk AND SK BETWEEN :a AND :b", false, "2025-01-10#4471", "2025-01-01", "2025-01-10", false},
    {"PK = :pk AND SK BETWEEN :a AND :b", false, "2025-01-10#4471", "2025-01-01", "2025-01-10~", true},
    {"PK = :pk AND SK < :sk", true, "9", "10", NULL, true},   /* numbers by value */
    {"PK = :pk AND SK < :sk", false, "9", "10", NULL, false}, /* strings by bytes */
    {"PK = :pk AND SK >= :sk", true, "10", "10", NULL, true},
};

static void test_keycond_match(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof sk_cases / sizeof *sk_cases; i++) {
        const struct sk_case *c = &sk_cases[i];
        expr_keycond kc;
        char *err = NULL;
        assert_int_equal(expr_keycond_parse(c->kc, NULL, 0, &kc, &err), KP_OK);
        if (expr_keycond_sk_match(&kc, c->numeric, c->have, c->v1, c->v2) != c->want)
            fail_msg("case %zu: '%s' with %s: expected %d", i, c->kc, c->have ? c->have : "(none)", c->want);
        expr_keycond_free(&kc);
    }
}

/* ---- filters: read and written back ---------------------------------------------------------- */

static const struct render_case {
    const char *text, *want; /* want NULL: the text as it is */
    expr_kind kind;
    const char *values; /* the value names in order, space-separated */
} render_cases[] = {
    {"status = :status", NULL, EXPR_CMP, ":status"},
    {"total BETWEEN :total1 AND :total2", NULL, EXPR_BETWEEN, ":total1 :total2"},
    {"entityType IN (:type0, :type1)", NULL, EXPR_IN, ":type0 :type1"},
    {"attribute_exists(productId)", NULL, EXPR_EXISTS, ""},
    {"kind = :kind AND attribute_exists(score)", NULL, EXPR_AND, ":kind"},
    {"NOT (total > :ten) OR entityType = :e", NULL, EXPR_OR, ":ten :e"},
    {"a = :a  AND   b <> :b", "a = :a AND b <> :b", EXPR_AND, ":a :b"},
    {"begins_with(SK,:line)", "begins_with(SK, :line)", EXPR_BEGINS, ":line"},
    /* outside the grammar: kept as written */
    {"size = :s AND size(tags) > :n", NULL, EXPR_RAW, ":s :n"},
    {"#t > :ten", NULL, EXPR_RAW, ":ten"},
    {"total ~ :ten", NULL, EXPR_RAW, ":ten"},
};

static void collect(void *ctx, const char *value)
{
    sbuf *b = ctx;
    sbuf_printf(b, "%s%s", b->len ? " " : "", value);
}

static void test_render(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof render_cases / sizeof *render_cases; i++) {
        const struct render_case *c = &render_cases[i];
        kp_expr e;
        expr_parse(c->text, NULL, 0, &e);
        if (e.kind != c->kind)
            fail_msg("case %zu '%s': kind %d, expected %d", i, c->text, e.kind, c->kind);
        char *back = expr_render(&e, NULL);
        check_str(i, "rendered", back, c->want ? c->want : c->text);
        free(back);
        sbuf vals;
        sbuf_init(&vals);
        sbuf_add(&vals, "");
        expr_each_value(&e, collect, &vals);
        check_str(i, "values", vals.s, c->values);
        sbuf_free(&vals);
        expr_free(&e);
    }
}

/* A writer that puts every name in brackets and every value in braces: each goes through it. */
static void bracket(void *ctx, sbuf *out, const char *name) { sbuf_printf(out, "[%s]", name); }
static void brace(void *ctx, sbuf *out, const char *value) { sbuf_printf(out, "{%s}", value); }

static void test_writer(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"status = :s AND attribute_exists(tag)", "[status] = {:s} AND attribute_exists([tag])"},
        {"(a = :a OR b IN (:x, :y)) AND NOT c BETWEEN :lo AND :hi",
         "([a] = {:a} OR [b] IN ({:x}, {:y})) AND NOT [c] BETWEEN {:lo} AND {:hi}"},
        {"size(tags) > :n", "size([tags]) > {:n}"}, /* raw: names but not the keywords */
    };
    expr_writer w = {bracket, brace, NULL};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        kp_expr e;
        expr_parse(cases[i][0], NULL, 0, &e);
        char *out = expr_render(&e, &w);
        check_str(i, "written", out, cases[i][1]);
        free(out);
        expr_free(&e);
    }
    expr_keycond kc;
    char *err = NULL;
    assert_int_equal(expr_keycond_parse("PK = :pk AND begins_with(SK, :sk)", NULL, 0, &kc, &err), KP_OK);
    char *out = expr_keycond_render(&kc, &w);
    assert_string_equal(out, "[PK] = {:pk} AND begins_with([SK], {:sk})");
    free(out);
    expr_keycond_free(&kc);
}

/* ---- filters: evaluated ------------------------------------------------------------------------ */

static const struct filter_case {
    const char *expr;
    int want;
} filter_cases[] = {
    {"attribute_exists(productId)", 1},
    {"attribute_exists(noteNo)", 0},
    {"attribute_not_exists(noteNo)", 1},
    {"entityType = :e", 1},
    {"entityType = :other", 0},
    {"entityType IN (:other, :e)", 1},
    {"total > :ten", 1},
    {"total < :ten", 0},
    {"total BETWEEN :ten AND :hundred", 1},
    {"total = :ten", 0},
    {"total = :sten", 0},  /* a string never equals a number */
    {"total <> :sten", 1}, /* ... and is "not equal" */
    {"missing <> :ten", 1},
    {"begins_with(SK, :line)", 1},
    {"contains(SK, :one)", 1},
    {"contains(total, :sten)", 0}, /* contains takes strings */
    {"paid = :yes", 1},
    {"NOT (total > :ten) OR entityType = :e", 1},
    {"total > :ten AND (entityType = :other OR attribute_exists(productId))", 1},
    {"total > :missing", -1},
    {"#t > :ten", -1}, /* placeholders are the request's business, not the data's */
    {"total >", -1},
    {"total ~ :ten", -1},
};

static void test_filter_eval(void **state)
{
    (void)state;
    kp_item item = {0}, vals = {0};
    item_set(&item, "PK", KP_VAL_S, "ORDER#1");
    item_set(&item, "SK", KP_VAL_S, "LINE#001");
    item_set(&item, "entityType", KP_VAL_S, "OrderLine");
    item_set(&item, "productId", KP_VAL_S, "p-1");
    item_set(&item, "total", KP_VAL_N, "42");
    item_set(&item, "paid", KP_VAL_BOOL, "true");
    item_set(&vals, ":e", KP_VAL_S, "OrderLine");
    item_set(&vals, ":other", KP_VAL_S, "LineNote");
    item_set(&vals, ":ten", KP_VAL_N, "10");
    item_set(&vals, ":hundred", KP_VAL_N, "100");
    item_set(&vals, ":sten", KP_VAL_S, "42");
    item_set(&vals, ":line", KP_VAL_S, "LINE#");
    item_set(&vals, ":one", KP_VAL_S, "001");
    item_set(&vals, ":yes", KP_VAL_BOOL, "true");
    for (size_t i = 0; i < sizeof filter_cases / sizeof *filter_cases; i++) {
        kp_expr e;
        expr_parse(filter_cases[i].expr, NULL, 0, &e);
        int got = expr_eval(&e, &item, &vals);
        if (got != filter_cases[i].want)
            fail_msg("case %zu '%s': %d, expected %d", i, filter_cases[i].expr, got, filter_cases[i].want);
        expr_free(&e);
    }
    item_free(&item);
    item_free(&vals);
}

/* ---- attribute names ---------------------------------------------------------------------- */

/* The table is DynamoDB's 573 words, lowercase, strictly in byte order (the binary search needs
 * it), each found in any case; tests/reserved_words.py holds it against DynamoDB Local. */
static void test_reserved_table(void **state)
{
    (void)state;
    assert_int_equal(expr_reserved_count(), 573);
    assert_null(expr_reserved_word(573));
    for (size_t i = 0; i < expr_reserved_count(); i++) {
        const char *w = expr_reserved_word(i);
        assert_non_null(w);
        if (i > 0 && strcmp(expr_reserved_word(i - 1), w) >= 0)
            fail_msg("word %zu '%s' is not after '%s'", i, w, expr_reserved_word(i - 1));
        char up[32], mixed[32];
        size_t n = strlen(w);
        assert_true(n < sizeof up);
        for (size_t k = 0; k <= n; k++) {
            up[k] = (char)(w[k] >= 'a' && w[k] <= 'z' ? w[k] - 32 : w[k]);
            mixed[k] = k % 2 ? up[k] : w[k];
        }
        if (!expr_reserved(w) || !expr_reserved(up) || !expr_reserved(mixed))
            fail_msg("'%s' is not found in every case", w);
        assert_false(expr_name_plain(w));
    }
}

static const struct plain_case {
    const char *name;
    bool reserved, plain;
} plain_cases[] = {
    {"PK", false, true},
    {"customerId", false, true},
    {"GSI1SK", false, true},
    {"a_b", false, true},
    {"x1", false, true},
    {"size", false, true}, /* a function, not a word */
    {"begins_with", false, true},
    {"entityType", false, true},
    {"status", true, false},
    {"STATUS", true, false},
    {"In", true, false},
    {"between", true, false},
    {"AND", true, false},
    {"Or", true, false},
    {"NOT", true, false},
    {"name", true, false},
    {"data", true, false},
    {"date", true, false},
    {"total", true, false},
    {"State#Date", false, false},
    {"a b", false, false},
    {"a:b", false, false},
    {"1pk", false, false},
    {"_pad", false, false},
    {"a-b", false, false},
    {"a.b", false, false},
    {"a[0]", false, false},
    {"línea", false, false},
    {"DIRECCIÓN#casa", false, false},
    {"", false, false},
    {"statuses", false, true},
    {"instatus", false, true},
};

static void test_name_plain(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof plain_cases / sizeof *plain_cases; i++) {
        const struct plain_case *c = &plain_cases[i];
        if (expr_reserved(c->name) != c->reserved || expr_name_plain(c->name) != c->plain)
            fail_msg("case %zu '%s': reserved %d plain %d, expected %d %d", i, c->name,
                     expr_reserved(c->name), expr_name_plain(c->name), c->reserved, c->plain);
    }
    assert_false(expr_name_plain(NULL));
    assert_false(expr_reserved(NULL));
}

/* Names given in order to one set: each one's placeholder ("" when it needs none). */
static const struct alias_case {
    const char *name, *alias;
} alias_cases[] = {
    {"PK", "PK"},
    {"State#Date", "#State_Date"},
    {"State#Date", "#State_Date"},   /* the same name again: its placeholder */
    {"State Date", "#State_Date_2"}, /* another name with the same letters */
    {"a b", "#a_b"},
    {"a:b", "#a_b_2"},
    {"1pk", "#1pk"},
    {"In", "#In"},
    {"between", "#between"},
    {"status", "#status"},
    {"línea", "#l_nea"},
    {"DIRECCIÓN#casa", "#DIRECCI_N_casa"},
    {"a.b", "#a_b_3"},
    {"x[0]", "#x_0_"},
    {"#", "#n"},
    {"ñ", "#n_2"},
    {"KKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKK#1", "#KKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKK"},
    {"KKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKK#2", "#KKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKK_2"},
};

static void test_alias(void **state)
{
    (void)state;
    expr_names names = {0};
    size_t aliased = 0;
    for (size_t i = 0; i < sizeof alias_cases / sizeof *alias_cases; i++) {
        const char *got = expr_names_alias(&names, alias_cases[i].name);
        check_str(i, alias_cases[i].name, got, alias_cases[i].alias);
        if (got[0] == '#')
            check_str(i, "looked up", expr_names_lookup(names.v, names.n, got), alias_cases[i].name);
        aliased += got[0] == '#' && (i == 0 || strcmp(alias_cases[i - 1].name, alias_cases[i].name) != 0);
        /* a placeholder DynamoDB takes: '#' then [A-Za-z0-9_], at most 255 bytes */
        for (const char *q = got + 1; got[0] == '#' && *q; q++)
            assert_true((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') ||
                        *q == '_');
        assert_true(strlen(got) <= 255 || got[0] != '#');
    }
    assert_int_equal(names.n, aliased);
    assert_null(expr_names_lookup(names.v, names.n, "#nothing"));
    expr_names_free(&names);
}

/* Every awkward name, as the key and the filter of one request: built as data, rendered with
 * placeholders, read back through them, the same attributes. */
static void test_names_roundtrip(void **state)
{
    (void)state;
    static const char *const awkward[] = {"State#Date", "a b",  "a:b",   "1pk",  "In",    "between",
                                          "AND",        "Or",   "NOT",   "size", "línea", "DIRECCIÓN#casa",
                                          "a.b",        "x[0]", "status"};
    size_t n = sizeof awkward / sizeof *awkward;
    for (size_t i = 0; i < n; i++) {
        const char *pk = awkward[i], *sk = awkward[(i + 1) % n], *f = awkward[(i + 2) % n];
        expr_names names = {0};
        expr_writer w = expr_names_writer(&names);
        expr_keycond kc;
        expr_keycond_make(NULL, &kc, pk, ":pk", EXPR_SK_BETWEEN, sk, ":sk1", ":sk2");
        kp_expr terms[2], e;
        const char *v = ":v1";
        expr_term(NULL, &terms[0], EXPR_CMP, EXPR_EQ, f, &v, 1);
        expr_term(NULL, &terms[1], EXPR_EXISTS, EXPR_EQ, pk, NULL, 0);
        expr_and(NULL, &e, terms, 2);
        char *kt = expr_keycond_render(&kc, &w), *ft = expr_render(&e, &w);
        expr_keycond back;
        char *err = NULL;
        if (expr_keycond_parse(kt, names.v, names.n, &back, &err) != KP_OK)
            fail_msg("'%s' does not read back: %s", kt, err);
        check_str(i, "pk back", back.pk, pk);
        check_str(i, "sk back", back.sk, sk);
        kp_expr eb;
        expr_parse(ft, names.v, names.n, &eb);
        if (eb.kind != EXPR_AND || eb.nkids != 2)
            fail_msg("'%s' does not read back", ft);
        check_str(i, "filter back", eb.kids[0].attr, f);
        check_str(i, "exists back", eb.kids[1].attr, pk);
        /* without the names, a placeholder is text outside the grammar */
        kp_expr raw;
        expr_parse(ft, NULL, 0, &raw);
        if (!expr_name_plain(f))
            assert_int_equal(raw.kind, EXPR_RAW);
        expr_free(&raw);
        expr_free(&eb);
        expr_keycond_free(&back);
        free(kt);
        free(ft);
        expr_free(&e);
        expr_keycond_free(&kc);
        expr_names_free(&names);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reserved_table), cmocka_unit_test(test_name_plain),
        cmocka_unit_test(test_alias),          cmocka_unit_test(test_names_roundtrip),
        cmocka_unit_test(test_keycond_parse),  cmocka_unit_test(test_keycond_match),
        cmocka_unit_test(test_render),         cmocka_unit_test(test_writer),
        cmocka_unit_test(test_filter_eval),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
