/* test_syntax.c - the fields' text syntaxes (model/syntax.h), table-driven: each row an input,
 * whether it parses, and the byte offsets of what was found (or of the problem). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "syntax.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void span_is(const char *s, syn_span sp, size_t at, const char *text)
{
    assert_int_equal(sp.at, at);
    assert_int_equal(sp.len, strlen(text));
    assert_memory_equal(s + sp.at, text, sp.len);
}

/* ---- numbers ------------------------------------------------------------------------------ */

static const struct {
    const char *in;
    unsigned flags;
    bool ok;
    double v;
} numbers[] = {
    {"0", 0, true, 0},        {"42", 0, true, 42},      {"-5", 0, true, -5},
    {"+2.5", 0, true, 2.5},   {"1e3", 0, true, 1000},   {"5.", 0, true, 5},
    {".5", 0, true, 0.5},     {"1_000", 0, true, 1000}, {"100,000", SYN_NUM_COMMAS, true, 100000},
    {"100,000", 0, false, 0}, {"", 0, false, 0},        {"_", 0, false, 0},
    {"1e", 0, false, 0},      {"1.2.3", 0, false, 0},   {"0x10", 0, false, 0},
    {"inf", 0, false, 0},     {"nan", 0, false, 0},     {" 5", 0, false, 0},
    {"5 ", 0, false, 0},      {"1e999", 0, false, 0},   {"many", 0, false, 0},
};

static void test_numbers(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof numbers / sizeof *numbers; i++) {
        double v = -1;
        bool ok = syn_number(numbers[i].in, strlen(numbers[i].in), numbers[i].flags, &v);
        if (ok != numbers[i].ok)
            fail_msg("'%s': expected %s", numbers[i].in, numbers[i].ok ? "a number" : "a refusal");
        if (ok)
            assert_true(v == numbers[i].v);
    }
}

/* ---- figures with units ------------------------------------------------------------------- */

static const struct {
    const char *in;
    char kind;
    bool ok;
    double v;
} figures[] = {
    {"400", 'r', true, 400},           {"1 vez/día", 'r', true, 1 / 86400.0},
    {"1/day", 'r', true, 1 / 86400.0}, {"30/min", 'r', true, 0.5},
    {"36 /hour", 'r', true, 0.01},     {"2,5/s", 'r', true, 2.5},
    {"~ 10 rps", 'r', true, 10},       {"1.16e-05", 'r', true, 1.16e-05},
    {"5/week", 'r', false, 0},         {"lots", 'r', false, 0},
    {"< 20 ms", 'l', true, 20},        {"5 min", 'l', true, 300000},
    {"1,5 s", 'l', true, 1500},        {"2 h", 'l', true, 7200000},
    {"3 days", 'l', false, 0},         {"12", 'n', true, 12},
    {"12 items", 'n', false, 0},       {"", 'n', false, 0},
    {"abc 5", 'r', false, 0},
};

static void test_figures(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof figures / sizeof *figures; i++) {
        double v = -1;
        bool ok = syn_figure(figures[i].in, figures[i].kind, &v);
        if (ok != figures[i].ok)
            fail_msg("'%s' (%c): expected %s", figures[i].in, figures[i].kind,
                     figures[i].ok ? "a figure" : "a refusal");
        if (ok && fabs(v - figures[i].v) > 1e-12 * fabs(figures[i].v))
            fail_msg("'%s' (%c): %.17g, expected %.17g", figures[i].in, figures[i].kind, v, figures[i].v);
    }
}

/* ---- by ----------------------------------------------------------------------------------- */

static const struct {
    const char *in;
    bool ok;
    size_t attr_at;
    const char *attr;
    const char *value; /* NULL when none */
    size_t value_at;
} bys[] = {
    {"customerId", true, 0, "customerId", NULL, 0},
    {"  customerId ", true, 2, "customerId", NULL, 0},
    {"status=paid", true, 0, "status", "paid", 7},
    {"status = pending-shipment", true, 0, "status", "pending-shipment", 9},
    {"a=b=c", true, 0, "a", "b=c", 2},
    {"=paid", false, 0, "", NULL, 0},
    {"  ", false, 2, "", NULL, 0},
    {"status=", false, 0, "status", "", 7},
    {"status=  ", false, 0, "status", "", 9},
    /* names in backticks: the span holds the backticks, syn_name the name */
    {"`a=b`=x", true, 0, "`a=b`", "x", 6},
    {" `State#Date` ", true, 1, "`State#Date`", NULL, 0},
    {"`a b` = y", true, 0, "`a b`", "y", 8},
};

static void test_by(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bys / sizeof *bys; i++) {
        syn_by b;
        char *err = NULL;
        kp_status st = syn_by_parse(bys[i].in, strlen(bys[i].in), &b, &err);
        bool ok = st == KP_OK;
        if (ok != bys[i].ok)
            fail_msg("by '%s': expected %s", bys[i].in, bys[i].ok ? "success" : "failure");
        span_is(bys[i].in, b.attr, bys[i].attr_at, bys[i].attr);
        assert_int_equal(b.has_value, bys[i].value != NULL);
        if (bys[i].value)
            span_is(bys[i].in, b.value, bys[i].value_at, bys[i].value);
        if (!ok) {
            assert_int_equal(st, KP_INVALID);
            assert_non_null(err);
            free(err);
        } else {
            assert_null(err);
        }
    }
}

/* ---- order -------------------------------------------------------------------------------- */

static const struct {
    const char *in;
    bool ok;
    size_t at;
    const char *attr;
    bool desc;
} orders[] = {
    {"orderDate", true, 0, "orderDate", false},
    {"orderDate desc", true, 0, "orderDate", true},
    {"orderDate asc", true, 0, "orderDate", false},
    {"  orderDate   desc  ", true, 2, "orderDate", true},
    {"orderDate\tdesc", true, 0, "orderDate", true},
    {"orderDate DESC", true, 0, "orderDate", true},
    {"orderDate Asc", true, 0, "orderDate", false},
    {"fecha", true, 0, "fecha", false},
    {"desc", true, 0, "desc", false},
    {"orderDate down", false, 0, "orderDate", false},
    {"orderDate desc extra", false, 0, "orderDate", false},
    {"a b", false, 0, "a", false},
    {"", false, 0, "", false},
    {"   ", false, 3, "", false},
    {"`a b` desc", true, 0, "`a b`", true},
    {"`a b`", true, 0, "`a b`", false},
    {" `x desc`  asc", true, 1, "`x desc`", false},
};

static void test_order(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof orders / sizeof *orders; i++) {
        syn_span at;
        bool desc = true;
        char *err = NULL;
        kp_status st = syn_order_parse(orders[i].in, strlen(orders[i].in), &at, &desc, &err);
        bool ok = st == KP_OK;
        if (ok != orders[i].ok)
            fail_msg("order '%s': expected %s", orders[i].in, orders[i].ok ? "success" : "failure");
        span_is(orders[i].in, at, orders[i].at, orders[i].attr);
        if (ok)
            assert_int_equal(desc, orders[i].desc);
        else {
            assert_int_equal(st, KP_INVALID);
            assert_non_null(err);
            free(err);
        }
    }
}

/* ---- join --------------------------------------------------------------------------------- */

static const struct {
    const char *in;
    bool ok;
    size_t to_at;
    const char *to;
    size_t from_at;
    const char *from;
} joins[] = {
    {"username=followingUsername", true, 0, "username", 9, "followingUsername"},
    {" a = b ", true, 1, "a", 5, "b"},
    {"a=", true, 0, "a", 2, ""},
    {"username", false, 0, "", 0, ""},
};

static void test_join(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof joins / sizeof *joins; i++) {
        syn_span to, from;
        char *err = NULL;
        kp_status st = syn_join_parse(joins[i].in, strlen(joins[i].in), &to, &from, &err);
        assert_int_equal(st, joins[i].ok ? KP_OK : KP_INVALID);
        if (st != KP_OK) {
            assert_non_null(err);
            free(err);
            continue;
        }
        span_is(joins[i].in, to, joins[i].to_at, joins[i].to);
        span_is(joins[i].in, from, joins[i].from_at, joins[i].from);
    }
}

/* ---- sparse conditions ---------------------------------------------------------------------- */

static const struct {
    const char *in;
    bool ok;
    kp_cond_op op;
    size_t attr_at;
    const char *attr;
    size_t nvalues;
    size_t at[3];
    const char *values[3];
    size_t err_at; /* on failure */
} conds[] = {
    {"status = pending-shipment", true, KP_COND_EQ, 0, "status", 1, {9}, {"pending-shipment"}, 0},
    {"status == x", true, KP_COND_EQ, 0, "status", 1, {10}, {"x"}, 0},
    {"status=x", true, KP_COND_EQ, 0, "status", 1, {7}, {"x"}, 0},
    {"status != delivered", true, KP_COND_NE, 0, "status", 1, {10}, {"delivered"}, 0},
    {"status = a, b", true, KP_COND_EQ, 0, "status", 1, {9}, {"a, b"}, 0},
    {"  estado = pagado", true, KP_COND_EQ, 2, "estado", 1, {11}, {"pagado"}, 0},
    {"status in [paid, pending-shipment]",
     true,
     KP_COND_IN,
     0,
     "status",
     2,
     {11, 17},
     {"paid", "pending-shipment"},
     0},
    {"status in[a]", true, KP_COND_IN, 0, "status", 1, {10}, {"a"}, 0},
    {"status in a, b", true, KP_COND_IN, 0, "status", 2, {10, 13}, {"a", "b"}, 0},
    {"status ~ open", false, KP_COND_EQ, 0, "", 0, {0}, {NULL}, 7},
    {"= x", false, KP_COND_EQ, 0, "", 0, {0}, {NULL}, 0},
    {"status =  ", false, KP_COND_EQ, 0, "", 0, {0}, {NULL}, 8},
    {"status in [a, , b]", false, KP_COND_EQ, 0, "", 0, {0}, {NULL}, 13},
    {"status in [a", false, KP_COND_EQ, 0, "", 0, {0}, {NULL}, 10},
    {"status in ", false, KP_COND_EQ, 0, "", 0, {0}, {NULL}, 10},
    {"statusin [a]", false, KP_COND_EQ, 0, "", 0, {0}, {NULL}, 9},
    {"`State#Date` = x", true, KP_COND_EQ, 0, "`State#Date`", 1, {15}, {"x"}, 0},
    {"`a b` in [p, q]", true, KP_COND_IN, 0, "`a b`", 2, {10, 13}, {"p", "q"}, 0},
    {"`a b = x", false, KP_COND_EQ, 0, "", 0, {0}, {NULL}, 0},
    {"a#b = x", false, KP_COND_EQ, 0, "", 0, {0}, {NULL}, 1},
};

static void test_condition(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof conds / sizeof *conds; i++) {
        syn_cond c;
        char *err = NULL;
        size_t at = 999;
        kp_status st = syn_condition_parse(conds[i].in, strlen(conds[i].in), &c, &err, &at);
        bool ok = st == KP_OK;
        if (ok != conds[i].ok)
            fail_msg("condition '%s': expected %s (%s)", conds[i].in, conds[i].ok ? "success" : "failure",
                     err ? err : "");
        if (!ok) {
            assert_int_equal(st, KP_INVALID);
            assert_non_null(err);
            free(err);
            if (at != conds[i].err_at)
                fail_msg("condition '%s': problem at %zu, expected %zu", conds[i].in, at, conds[i].err_at);
            continue;
        }
        assert_int_equal(c.op, conds[i].op);
        span_is(conds[i].in, c.attr, conds[i].attr_at, conds[i].attr);
        assert_int_equal(c.nvalues, conds[i].nvalues);
        for (size_t k = 0; k < c.nvalues; k++)
            span_is(conds[i].in, c.values[k], conds[i].at[k], conds[i].values[k]);
        syn_cond_free(&c);
    }
}

/* ---- signals ------------------------------------------------------------------------------ */

static const struct {
    const char *in;
    bool ok;
    size_t metric_at;
    const char *metric;
    kp_cmp cmp;
    double value;
    size_t err_at;
} signals_[] = {
    {"pattern.5.rate > 50", true, 0, "pattern.5.rate", KP_CMP_GT, 50, 0},
    {"  entity.Order.count >= 100,000", true, 2, "entity.Order.count", KP_CMP_GE, 100000, 0},
    {"index.GSI1.wcu<=1_000", true, 0, "index.GSI1.wcu", KP_CMP_LE, 1000, 0},
    {"pattern.1.latency < 20 ", true, 0, "pattern.1.latency", KP_CMP_LT, 20, 0},
    {"pattern.1.rate = 5", true, 0, "pattern.1.rate", KP_CMP_EQ, 5, 0},
    {"pattern.1.rate == 5", true, 0, "pattern.1.rate", KP_CMP_EQ, 5, 0},
    {"pattern.1.rate != -2.5", true, 0, "pattern.1.rate", KP_CMP_NE, -2.5, 0},
    {"> 5", false, 0, "", KP_CMP_GT, 0, 0},
    {"pattern.1.rate 5", false, 0, "", KP_CMP_GT, 0, 15},
    {"pattern.1.rate >> 5", false, 0, "", KP_CMP_GT, 0, 16},
    {"pattern.1.rate > 5 per s", false, 0, "", KP_CMP_GT, 0, 17},
    {"pattern.1.rate >", false, 0, "", KP_CMP_GT, 0, 16},
};

static void test_signal(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof signals_ / sizeof *signals_; i++) {
        syn_signal g;
        char *err = NULL;
        size_t at = 999;
        kp_status st = syn_signal_parse(signals_[i].in, strlen(signals_[i].in), &g, &err, &at);
        bool ok = st == KP_OK;
        if (ok != signals_[i].ok)
            fail_msg("signal '%s': expected %s", signals_[i].in, signals_[i].ok ? "success" : "failure");
        if (!ok) {
            assert_int_equal(st, KP_SIGNAL);
            assert_non_null(err);
            free(err);
            if (at != signals_[i].err_at)
                fail_msg("signal '%s': problem at %zu, expected %zu", signals_[i].in, at, signals_[i].err_at);
            continue;
        }
        span_is(signals_[i].in, g.metric, signals_[i].metric_at, signals_[i].metric);
        assert_int_equal(g.cmp, signals_[i].cmp);
        assert_true(g.value == signals_[i].value);
    }
}

/* ---- lists -------------------------------------------------------------------------------- */

static void test_split(void **state)
{
    (void)state;
    const char *s = " a, b ;; c+d ,";
    syn_span *v;
    size_t n = syn_split(s, strlen(s), ",;+", &v);
    assert_int_equal(n, 4);
    span_is(s, v[0], 1, "a");
    span_is(s, v[1], 4, "b");
    span_is(s, v[2], 9, "c");
    span_is(s, v[3], 11, "d");
    free(v);
    n = syn_split("  ", 2, ",", &v);
    assert_int_equal(n, 0);
    assert_null(v);
}

/* `together` groups: attributes joined by '+' */
static const struct {
    const char *text;
    size_t n;          /* attributes; 0: refused */
    size_t err_at;     /* where, when refused */
    const char *names; /* the attributes, space-separated */
} group_cases[] = {
    {"GSI1PK+GSI1SK", 2, 0, "GSI1PK GSI1SK"},
    {" GSI1PK + GSI1SK + email ", 3, 0, "GSI1PK GSI1SK email"},
    {"couponCode", 1, 0, "couponCode"},
    {"GSI1PK+", 0, 7, NULL},
    {"+GSI1SK", 0, 0, NULL},
    {"A++B", 0, 2, NULL},
    {"", 0, 0, NULL},
};

static void test_group(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof group_cases / sizeof *group_cases; i++) {
        const char *t = group_cases[i].text;
        syn_span *v = NULL;
        size_t n = 99, at = 99;
        char *err = NULL;
        kp_status st = syn_group_parse(t, strlen(t), &v, &n, &err, &at);
        if (!group_cases[i].n) {
            assert_int_equal(st, KP_INVALID);
            assert_non_null(err);
            assert_int_equal(at, group_cases[i].err_at);
            assert_null(v);
            free(err);
            continue;
        }
        assert_int_equal(st, KP_OK);
        assert_int_equal(n, group_cases[i].n);
        sbuf b;
        sbuf_init(&b);
        for (size_t k = 0; k < n; k++) {
            sbuf_addn(&b, t + v[k].at, v[k].len);
            if (k + 1 < n)
                sbuf_addc(&b, ' ');
        }
        assert_string_equal(b.s, group_cases[i].names);
        sbuf_free(&b);
        free(v);
    }
    assert_true(syn_group_has("GSI1PK+GSI1SK", "GSI1SK"));
    assert_true(syn_group_has(" GSI1PK + GSI1SK ", "GSI1PK"));
    assert_false(syn_group_has("GSI1PK+GSI1SK", "GSI1"));
    assert_false(syn_group_has("GSI1PK+GSI1SKX", "GSI1SK"));
    assert_true(syn_group_has("email", "email"));
    assert_false(syn_group_has(NULL, "email"));
}

/* ---- the texts the parsers read back ------------------------------------------------------ */

static const struct {
    double v;
    const char *text;
} number_texts[] = {
    {0, "0"},
    {-0.0, "0"},
    {42, "42"},
    {2.5, "2.5"},
    {0.1, "0.1"},
    {1234567.891, "1234567.891"},
    {0.0009, "0.0009"},
    {1e-05, "1e-05"},
    {1e15, "1e+15"},
    {-3.25, "-3.25"},
    {1.0 / 3, "0.3333333333333333"},
};

static void test_texts(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof number_texts / sizeof *number_texts; i++) {
        char buf[32];
        assert_string_equal(syn_number_text(number_texts[i].v, buf, sizeof buf), number_texts[i].text);
        double back;
        assert_true(syn_number(buf, strlen(buf), 0, &back));
        assert_true(back == number_texts[i].v);
    }
    kp_str vals[2] = {{"paid", {0, 0}}, {"pending-shipment", {0, 0}}};
    const struct {
        kp_cond_op op;
        size_t n;
        const char *text;
    } conds_[] = {
        {KP_COND_EQ, 1, "status = paid"},
        {KP_COND_NE, 1, "status != paid"},
        {KP_COND_IN, 2, "status in [paid, pending-shipment]"},
    };
    for (size_t i = 0; i < 3; i++) {
        kp_sparse sp = {
            .cond_attr = {"status", {0, 0}}, .op = conds_[i].op, .values = vals, .nvalues = conds_[i].n};
        sbuf b;
        sbuf_init(&b);
        syn_condition_text(&b, &sp);
        assert_string_equal(b.s, conds_[i].text);
        syn_cond c;
        assert_int_equal(syn_condition_parse(b.s, b.len, &c, NULL, NULL), KP_OK);
        assert_int_equal(c.op, conds_[i].op);
        assert_int_equal(c.nvalues, conds_[i].n);
        syn_cond_free(&c);
        sbuf_free(&b);
    }
    kp_by by[2] = {{{"customerId", {0, 0}}, NULL}, {{"status", {0, 0}}, "paid"}};
    kp_join join = {{"username", {0, 0}}, {"followingUsername", {0, 0}}};
    sbuf b;
    sbuf_init(&b);
    syn_by_text(&b, &by[0]);
    sbuf_add(&b, " ");
    syn_by_text(&b, &by[1]);
    sbuf_add(&b, " ");
    syn_join_text(&b, &join);
    assert_string_equal(b.s, "customerId status=paid username=followingUsername");
    sbuf_free(&b);
}

/* A syntax's text `b` (freed here) parsed `ok` with the name's span `sp`: the name `want` back. */
static void reads_back(const char *what, sbuf *b, bool ok, syn_span sp, const char *want)
{
    if (!ok)
        fail_msg("%s '%s' does not read back", what, b->s);
    char *back = syn_name(b->s, sp);
    if (strcmp(back, want))
        fail_msg("%s '%s' reads back '%s', expected '%s'", what, b->s, back, want);
    free(back);
    sbuf_free(b);
}

/* Every attribute name DynamoDB takes survives each syntax: written, read back, the same name. */
static void test_any_name(void **state)
{
    (void)state;
    static const char *const names[] = {
        "customerId", "State#Date",     "a b",  "a:b",  "a=b",  "1pk",  "In",
        "línea",      "DIRECCIÓN#casa", "a.b",  "x[0]", "`",    "a``b", " lead",
        "trail ",     "x desc",         "desc", "in",   "a, b", "[x]"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        const char *nm = names[i];
        kp_by by = {{(char *)nm, {0, 0}}, "v"};
        kp_str vals[1] = {{"v", {0, 0}}};
        kp_sparse sp = {.cond_attr = {(char *)nm, {0, 0}}, .op = KP_COND_EQ, .values = vals, .nvalues = 1};
        kp_join jn = {{(char *)nm, {0, 0}}, {(char *)nm, {0, 0}}};
        sbuf b;
        /* by */
        sbuf_init(&b);
        syn_by_text(&b, &by);
        syn_by sb;
        bool ok = syn_by_parse(b.s, b.len, &sb, NULL) == KP_OK && sb.has_value;
        reads_back("by", &b, ok, sb.attr, nm);
        /* order */
        sbuf_init(&b);
        syn_order_text(&b, nm, true);
        syn_span at;
        bool desc = false;
        ok = syn_order_parse(b.s, b.len, &at, &desc, NULL) == KP_OK && desc;
        reads_back("order", &b, ok, at, nm);
        /* sparse condition */
        sbuf_init(&b);
        syn_condition_text(&b, &sp);
        syn_cond c;
        ok = syn_condition_parse(b.s, b.len, &c, NULL, NULL) == KP_OK;
        reads_back("condition", &b, ok, c.attr, nm);
        if (ok)
            syn_cond_free(&c);
        /* join */
        sbuf_init(&b);
        syn_join_text(&b, &jn);
        syn_span to, from;
        if (syn_join_parse(b.s, b.len, &to, &from, NULL) != KP_OK)
            fail_msg("join '%s' does not read back", b.s);
        char *t = syn_name(b.s, to), *f = syn_name(b.s, from);
        if (strcmp(t, nm) || strcmp(f, nm))
            fail_msg("join '%s' reads back '%s'='%s', expected '%s'", b.s, t, f, nm);
        free(t);
        free(f);
        sbuf_free(&b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numbers), cmocka_unit_test(test_by),        cmocka_unit_test(test_order),
        cmocka_unit_test(test_join),    cmocka_unit_test(test_condition), cmocka_unit_test(test_signal),
        cmocka_unit_test(test_split),   cmocka_unit_test(test_texts),     cmocka_unit_test(test_any_name),
        cmocka_unit_test(test_group),   cmocka_unit_test(test_figures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
