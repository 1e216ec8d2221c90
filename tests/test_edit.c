/* test_edit.c - cells of a design set from text and read back; row operations. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "edit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A small design built in C: table PK/SK, GSI1 on GSI1PK/GSI1SK, one LSI-free byCustomer index on
 * a domain attribute, two entities, two patterns, one decision. */
static kp_design *fixture(void)
{
    kp_design *d = design_new();
    d->name = xstrdup("shop");
    d->table.name = xstrdup("Shop");
    d->table.pk.s = xstrdup("PK");
    d->table.sk.s = xstrdup("SK");
    size_t x = edit_add(d, EDIT_INDEXES, 0);
    char *err = NULL;
    assert_int_equal(edit_set(d, EDIT_INDEXES, x, 0, "GSI1", &err), KP_OK);
    x = edit_add(d, EDIT_INDEXES, 1);
    assert_int_equal(edit_set(d, EDIT_INDEXES, x, 0, "ByCustomer", &err), KP_OK);
    assert_int_equal(edit_set(d, EDIT_INDEXES, x, edit_col_find(d, EDIT_INDEXES, "pk"), "customerId", &err),
                     KP_OK);
    assert_int_equal(edit_set(d, EDIT_INDEXES, x, edit_col_find(d, EDIT_INDEXES, "sk"), "", &err), KP_OK);
    size_t e = edit_add(d, EDIT_ENTITIES, 0);
    assert_int_equal(edit_set(d, EDIT_ENTITIES, e, 0, "Order", &err), KP_OK);
    assert_int_equal(edit_set(d, EDIT_ENTITIES, e, edit_col_find(d, EDIT_ENTITIES, "attributes"),
                              "orderId, customerId", &err),
                     KP_OK);
    e = edit_add(d, EDIT_ENTITIES, 1);
    assert_int_equal(edit_set(d, EDIT_ENTITIES, e, 0, "Línea", &err), KP_OK);
    size_t p = edit_add(d, EDIT_PATTERNS, 0);
    assert_int_equal(edit_set(d, EDIT_PATTERNS, p, edit_col_find(d, EDIT_PATTERNS, "entity"), "Order", &err),
                     KP_OK);
    p = edit_add(d, EDIT_PATTERNS, 1);
    assert_int_equal(
        edit_set(d, EDIT_PATTERNS, p, edit_col_find(d, EDIT_PATTERNS, "entity"), "Order, Línea", &err),
        KP_OK);
    edit_decision_from_pattern(d, 1);
    assert_null(err);
    return d;
}

/* Table-driven: set text, expect success and the text read back (or failure and unchanged). */
typedef struct cell_case {
    edit_table table;
    const char *col;
    const char *in;
    bool ok;
    const char *out; /* expected read-back; NULL = same as in */
} cell_case;

static const cell_case cases[] = {
    {EDIT_PATTERNS, "name", "Get order by id", true, NULL},
    {EDIT_PATTERNS, "name", "  Pedidos de un cliente  ", true, "Pedidos de un cliente"},
    {EDIT_PATTERNS, "rate", "400", true, NULL},
    {EDIT_PATTERNS, "rate", "2.5", true, NULL},
    {EDIT_PATTERNS, "rate", "1234567.891", true, NULL}, /* shown exactly, not 1.23457e+06 */
    {EDIT_PATTERNS, "rate", "0.1", true, NULL},
    {EDIT_PATTERNS, "rate", "1_000", true, "1000"},
    {EDIT_PATTERNS, "rate", "", true, NULL},
    {EDIT_PATTERNS, "rate", "fast", false, NULL},
    {EDIT_PATTERNS, "rate", "-3", false, NULL},
    {EDIT_PATTERNS, "rate", "0x10", false, NULL}, /* decimal only */
    {EDIT_PATTERNS, "rate", "1e3", true, "1000"},
    {EDIT_PATTERNS, "limit", "20", true, NULL},
    {EDIT_PATTERNS, "limit", "1_000", true, "1000"},
    {EDIT_PATTERNS, "limit", "", true, NULL},
    {EDIT_PATTERNS, "limit", "2.5", false, NULL}, /* a whole number of items */
    {EDIT_PATTERNS, "limit", "0", false, NULL},   /* at least one */
    {EDIT_PATTERNS, "limit", "-5", false, NULL},
    {EDIT_PATTERNS, "latency", "20", true, NULL},
    /* a rate or a latency typed with its unit is kept in the field's unit */
    {EDIT_PATTERNS, "rate", "30/min", true, "0.5"},
    {EDIT_PATTERNS, "rate", "36 /hour", true, "0.01"},
    {EDIT_PATTERNS, "avg", "1 vez/día", true, "1.1574074074074073e-05"},
    {EDIT_PATTERNS, "rate", "5/week", false, NULL},
    {EDIT_PATTERNS, "latency", "5 min", true, "300000"},
    {EDIT_PATTERNS, "latency", "1,5 s", true, "1500"},
    {EDIT_PATTERNS, "limit", "20 items", false, NULL}, /* a count has no unit */
    {EDIT_PATTERNS, "kind", "write", true, NULL},
    {EDIT_PATTERNS, "kind", "wrte", false, NULL},
    {EDIT_PATTERNS, "consistency", "strong", true, NULL},
    {EDIT_PATTERNS, "consistency", "weak", false, NULL},
    {EDIT_PATTERNS, "by", "customerId,status=paid", true, "customerId, status=paid"},
    {EDIT_PATTERNS, "by", "[orderId]", true, "orderId"},
    {EDIT_PATTERNS, "by", "=x", false, NULL},
    {EDIT_PATTERNS, "order", "orderDate desc", true, NULL},
    {EDIT_PATTERNS, "order", "orderDate", true, "orderDate asc"},
    {EDIT_PATTERNS, "order", "orderDate sideways", false, NULL},
    {EDIT_PATTERNS, "order", "orderDate DESC", true, "orderDate desc"},
    {EDIT_PATTERNS, "order", "[orderDate  desc]", true, "orderDate desc"},
    {EDIT_PATTERNS, "join", "username=followingUsername", true, NULL},
    {EDIT_PATTERNS, "join", "username", false, NULL},
    {EDIT_PATTERNS, "needs", "search", true, NULL},
    {EDIT_PATTERNS, "needs", "", true, NULL},
    {EDIT_PATTERNS, "needs", "graph", false, NULL},
    {EDIT_PATTERNS, "op", "transact", true, NULL},
    {EDIT_PATTERNS, "id", "2", false, NULL}, /* duplicate of the other pattern */
    {EDIT_PATTERNS, "id", "a b", false, NULL},
    {EDIT_PATTERNS, "id", "", false, NULL},
    {EDIT_ENTITIES, "count", "30000000", true, NULL},
    {EDIT_ENTITIES, "count", "", false, NULL},
    {EDIT_ENTITIES, "size", "500000", false, NULL}, /* over 400 KB */
    {EDIT_ENTITIES, "size", "1200", true, NULL},
    {EDIT_ENTITIES, "name", "Línea", false, NULL}, /* duplicate */
    {EDIT_ENTITIES, "attributes", "orderId, dirección", true, NULL},
    {EDIT_INDEXES, "type", "lsi", true, NULL},
    {EDIT_INDEXES, "projection", "include", true, NULL},
    {EDIT_INDEXES, "projection", "some", false, NULL},
    {EDIT_INDEXES, "name", "table", false, NULL},
    {EDIT_INDEXES, "pk", "", false, NULL},
    {EDIT_INDEXES, "include", "total, orderDate", true, NULL},
    {EDIT_DECISIONS, "signals", "pattern.2.rate > 50; index.GSI1.items > 100000", true, NULL},
    {EDIT_DECISIONS, "signals", "pattern.2.rate is big", false, NULL},
    {EDIT_DECISIONS, "status", "reopened", true, NULL},
    {EDIT_DECISIONS, "alternatives", "shard => costs more; nothing => hot", true, NULL},
    {EDIT_KEYS, "PK", "ORDER#{orderId}", true, NULL},
    {EDIT_KEYS, "GSI1PK", "CLIENTE#{customerId}", true, NULL},
    {EDIT_KEYS, "PK", "ORDER#{orderId", false, NULL},
    {EDIT_KEYS, "SK", "DIRECCIÓN#{orderId:03}", true, NULL},
    {EDIT_KEYS, "SK", "DIRECCIÓN#{lineNo:03}", false, NULL}, /* lineNo is not an attribute of Order */
    {EDIT_KEYS, "PK", "ORDER#{ordrId}", false, NULL},
    {EDIT_KEYS, "SK", "", true, NULL},
    {EDIT_KEYS, "sparse", "GSI1PK: status = pending-shipment", true, NULL},
    {EDIT_KEYS, "sparse", "GSI1PK: 0.05", true, NULL},
    {EDIT_KEYS, "sparse", "GSI1PK: status in [paid, shipped]", true, NULL},
    {EDIT_KEYS, "sparse", "GSI1PK: status in paid, shipped", true, NULL},
    {EDIT_KEYS, "sparse", "GSI1PK: status ~ paid", false, NULL},
    {EDIT_KEYS, "sparse", "GSI1PK: 1.5", false, NULL},
    {EDIT_KEYS, "sparse", "status", false, NULL},
};

static void test_cells(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const cell_case *c = &cases[i];
        kp_design *d = fixture();
        int col = edit_col_find(d, c->table, c->col);
        assert_true(col >= 0);
        kp_design *before = design_clone(d);
        char *err = NULL;
        kp_status st = edit_set(d, c->table, 0, (size_t)col, c->in, &err);
        bool ok = st == KP_OK;
        if (ok != c->ok)
            fail_msg("case %zu (%s.%s = '%s'): expected %s, got %s (%s)", i, edit_table_name(c->table),
                     c->col, c->in, c->ok ? "success" : "failure", ok ? "success" : "failure",
                     err ? err : "");
        if (ok) {
            assert_null(err);
            char *back = edit_get(d, c->table, 0, (size_t)col);
            assert_string_equal(back, c->out ? c->out : c->in);
            /* set(get(x)) changes nothing */
            kp_design *mid = design_clone(d);
            assert_int_equal(edit_set(d, c->table, 0, (size_t)col, back, &err), KP_OK);
            assert_true(design_equal(mid, d));
            design_free(mid);
            free(back);
        } else {
            assert_int_equal(st, KP_INVALID);
            assert_non_null(err);
            assert_true(strlen(err) > 5);
            assert_true(design_equal(before, d));
            free(err);
        }
        design_free(before);
        design_free(d);
    }
}

static const struct {
    const char *setting, *in;
    bool ok;
    const char *out;
} setting_cases[] = {
    {"billing", "provisioned", true, NULL},
    {"billing", "free", false, NULL},
    {"streams", "true", true, NULL},
    {"streams", "", true, NULL},
    {"pitr", "yes", false, NULL},
    {"target_utilization", "0.5", true, NULL},
    {"target_utilization", "1.5", false, NULL},
    {"currency", "EUR", true, NULL},
    {"read_per_million", "0.50", true, "0.5"},
    {"read_per_million", "cheap", false, NULL},
    {"table", "Tienda", true, NULL},
    {"table", "", false, NULL},
    {"name", "Tienda de Ana", true, NULL},
    {"pk", "", false, NULL},
    {"sk", "", true, NULL},
};

static void test_settings(void **state)
{
    (void)state;
    assert_int_equal(edit_setting_find("billing") >= 0, 1);
    assert_int_equal(edit_setting_find("nonsense"), -1);
    for (size_t i = 0; i < sizeof setting_cases / sizeof *setting_cases; i++) {
        kp_design *d = fixture();
        kp_design *before = design_clone(d);
        int row = edit_setting_find(setting_cases[i].setting);
        assert_true(row >= 0);
        char *name = edit_get(d, EDIT_SETTINGS, (size_t)row, 0);
        assert_string_equal(name, setting_cases[i].setting);
        free(name);
        char *err = NULL;
        kp_status st = edit_set(d, EDIT_SETTINGS, (size_t)row, 1, setting_cases[i].in, &err);
        bool ok = st == KP_OK;
        if (ok != setting_cases[i].ok)
            fail_msg("setting %s = '%s': %s", setting_cases[i].setting, setting_cases[i].in,
                     err ? err : "accepted");
        if (ok) {
            char *v = edit_get(d, EDIT_SETTINGS, (size_t)row, 1);
            assert_string_equal(v, setting_cases[i].out ? setting_cases[i].out : setting_cases[i].in);
            free(v);
        } else {
            assert_int_equal(st, KP_INVALID);
            assert_true(design_equal(before, d));
            free(err);
        }
        /* the name column is fixed */
        assert_int_equal(edit_set(d, EDIT_SETTINGS, (size_t)row, 0, "x", &err), KP_INVALID);
        free(err);
        design_free(before);
        design_free(d);
    }
    kp_design *d = fixture();
    char *err = NULL;
    assert_int_equal(edit_set(d, EDIT_SETTINGS, (size_t)edit_setting_find("billing"), 1, "provisioned", &err),
                     KP_OK);
    assert_int_equal(d->table.billing, KP_BILLING_PROVISIONED);
    assert_int_equal(edit_add(d, EDIT_SETTINGS, 0), (size_t)-1);
    assert_false(edit_delete(d, EDIT_SETTINGS, 0));
    design_free(d);
}

static void test_key_attribute_rename_follows(void **state)
{
    (void)state;
    kp_design *d = fixture();
    char *err = NULL;
    assert_int_equal(edit_set(d, EDIT_KEYS, 0, 1, "ORDER#{orderId}", &err), KP_OK);
    assert_int_equal(edit_set(d, EDIT_KEYS, 0, 3, "CLIENTE#{customerId}", &err), KP_OK);
    assert_int_equal(edit_set(d, EDIT_KEYS, 0, 5, "GSI1PK: 0.1", &err), KP_OK);
    /* the table's pk renamed: the entity's template follows */
    assert_int_equal(edit_set(d, EDIT_SETTINGS, (size_t)edit_setting_find("pk"), 1, "pk", &err), KP_OK);
    assert_non_null(entity_key(&d->entities[0], "pk"));
    assert_null(entity_key(&d->entities[0], "PK"));
    /* an index's pk renamed: template and sparse rule follow */
    assert_int_equal(
        edit_set(d, EDIT_INDEXES, 0, (size_t)edit_col_find(d, EDIT_INDEXES, "pk"), "GSI1_PK", &err), KP_OK);
    assert_non_null(entity_key(&d->entities[0], "GSI1_PK"));
    assert_string_equal(d->entities[0].sparse[0].attr.s, "GSI1_PK");
    /* renaming onto a key another slot uses does not steal its templates */
    assert_int_equal(edit_set(d, EDIT_INDEXES, 0, (size_t)edit_col_find(d, EDIT_INDEXES, "sk"), "pk", &err),
                     KP_OK);
    assert_non_null(entity_key(&d->entities[0], "pk"));
    design_free(d);
}

static void test_rename_entity_updates_patterns(void **state)
{
    (void)state;
    kp_design *d = fixture();
    char *err = NULL;
    assert_int_equal(edit_set(d, EDIT_ENTITIES, 0, 0, "Pedido", &err), KP_OK);
    assert_string_equal(d->patterns[0].entities[0].s, "Pedido");
    assert_string_equal(d->patterns[1].entities[0].s, "Pedido");
    assert_string_equal(d->patterns[1].entities[1].s, "Línea");
    design_free(d);
}

static void test_rename_pattern_updates_refs(void **state)
{
    (void)state;
    kp_design *d = fixture();
    char *err = NULL;
    assert_string_equal(d->decisions[0].patterns[0].s, "2");
    assert_int_equal(edit_set(d, EDIT_PATTERNS, 0, 0, "5", &err), KP_OK);
    assert_int_equal(edit_set(d, EDIT_PATTERNS, 1, edit_col_find(d, EDIT_PATTERNS, "covered_by"), "5", &err),
                     KP_OK);
    assert_int_equal(edit_set(d, EDIT_PATTERNS, 0, 0, "7", &err), KP_OK);
    assert_string_equal(d->patterns[1].covered_by.s, "7");
    assert_int_equal(edit_set(d, EDIT_PATTERNS, 1, 0, "9", &err), KP_OK);
    assert_string_equal(d->decisions[0].patterns[0].s, "9");
    design_free(d);
}

static void test_rows(void **state)
{
    (void)state;
    kp_design *d = fixture();
    assert_int_equal(edit_nrows(d, EDIT_PATTERNS), 2);
    assert_string_equal(d->patterns[0].id, "1");
    assert_string_equal(d->patterns[1].id, "2");
    /* add gets a fresh id */
    size_t at = edit_add(d, EDIT_PATTERNS, 99);
    assert_int_equal(at, 2);
    assert_string_equal(d->patterns[2].id, "3");
    /* duplicate copies the fields and gets a fresh id */
    char *err = NULL;
    assert_int_equal(edit_set(d, EDIT_PATTERNS, 0, edit_col_find(d, EDIT_PATTERNS, "rate"), "400", &err),
                     KP_OK);
    at = edit_duplicate(d, EDIT_PATTERNS, 0);
    assert_int_equal(at, 1);
    assert_string_equal(d->patterns[1].id, "4");
    assert_true(d->patterns[1].rate == 400);
    assert_string_equal(d->patterns[1].entities[0].s, "Order");
    /* move */
    assert_true(edit_move(d, EDIT_PATTERNS, 0, 1));
    assert_string_equal(d->patterns[0].id, "4");
    assert_string_equal(d->patterns[1].id, "1");
    assert_false(edit_move(d, EDIT_PATTERNS, 0, -1));
    assert_false(edit_move(d, EDIT_PATTERNS, 3, 1));
    assert_true(edit_move(d, EDIT_PATTERNS, 3, -3));
    assert_string_equal(d->patterns[0].id, "3");
    /* delete */
    assert_true(edit_delete(d, EDIT_PATTERNS, 0));
    assert_int_equal(edit_nrows(d, EDIT_PATTERNS), 3);
    assert_false(edit_delete(d, EDIT_PATTERNS, 3));
    /* entity duplicate gets a suffixed name */
    at = edit_duplicate(d, EDIT_ENTITIES, 1);
    assert_string_equal(d->entities[at].name, "Línea_2");
    assert_int_equal(edit_add(d, EDIT_KEYS, 0), (size_t)-1);
    while (edit_nrows(d, EDIT_ENTITIES))
        assert_true(edit_delete(d, EDIT_ENTITIES, 0));
    assert_null(d->entities);
    design_free(d);
}

/* A step of each list made on a copy of the design it was made on (edit_rows_step_from): a row
 * duplicated (its copy inserted), moved and deleted: the copy is the design after
 * each, an inserted row with its own strings; a step that does not fit is refused. */
static void test_rows_step_from(void **state)
{
    (void)state;
    static const edit_table lists[] = {EDIT_PATTERNS, EDIT_ENTITIES, EDIT_INDEXES, EDIT_ATTRS,
                                       EDIT_DECISIONS};
    kp_design *d = fixture();
    for (size_t l = 0; l < sizeof lists / sizeof *lists; l++)
        while (edit_nrows(d, lists[l]) < 3)
            assert_true(edit_add(d, lists[l], 0) != (size_t)-1);
    kp_design *c = design_clone(d);
    for (size_t l = 0; l < sizeof lists / sizeof *lists; l++) {
        edit_table t = lists[l];
        size_t at = edit_duplicate(d, t, 1);
        assert_true(at != (size_t)-1);
        kp_rowop steps[] = {{KP_ROW_INSERT, at, 0}, {KP_ROW_MOVE, 0, 2}, {KP_ROW_REMOVE, 2, 0}};
        for (size_t k = 0; k < 3; k++) {
            if (k == 1)
                assert_true(edit_move(d, t, 0, 1) && edit_move(d, t, 1, 1));
            if (k == 2)
                assert_true(edit_delete(d, t, 2));
            if (k != 1) /* the inverse step does not fit */
                assert_false(edit_rows_step_from(c, d, t, kp_rowop_inverse(steps[k])));
            assert_true(edit_rows_step_from(c, d, t, steps[k]));
            assert_true(design_equal(c, d));
            if (k == 0) { /* the inserted row is c's own */
                assert_ptr_not_equal(edit_row_name(c, t, at), edit_row_name(d, t, at));
                assert_string_equal(edit_row_name(c, t, at), edit_row_name(d, t, at));
            }
        }
    }
    assert_false(edit_rows_step_from(c, d, EDIT_SETTINGS, (kp_rowop){KP_ROW_REMOVE, 0, 0}));
    design_free(c);
    design_free(d);
}

static void test_key_attrs(void **state)
{
    (void)state;
    kp_design *d = fixture();
    size_t n = 0;
    const char **k = edit_key_attrs(d, &n);
    /* customerId is a domain attribute (ByCustomer): not a template column */
    assert_int_equal(n, 4);
    assert_string_equal(k[0], "PK");
    assert_string_equal(k[1], "SK");
    assert_string_equal(k[2], "GSI1PK");
    assert_string_equal(k[3], "GSI1SK");
    free(k);
    assert_int_equal(edit_ncols(d, EDIT_KEYS), 6);
    assert_string_equal(edit_col_name(d, EDIT_KEYS, 0), "entity");
    assert_string_equal(edit_col_name(d, EDIT_KEYS, 5), "sparse");
    assert_null(edit_col_name(d, EDIT_KEYS, 6));
    char *err = NULL;
    assert_int_equal(edit_set(d, EDIT_KEYS, 1, 1, "PEDIDO#{orderId}", &err), KP_OK);
    assert_non_null(entity_key(&d->entities[1], "PK"));
    assert_null(entity_key(&d->entities[0], "PK"));
    assert_int_not_equal(edit_set(d, EDIT_KEYS, 1, 1, "{}", &err), KP_OK);
    assert_non_null(strstr(err, "template"));
    free(err);
    /* the old template survived the failed edit */
    char *v = edit_get(d, EDIT_KEYS, 1, 1);
    assert_string_equal(v, "PEDIDO#{orderId}");
    free(v);
    design_free(d);
}

static void test_bad_input(void **state)
{
    (void)state;
    kp_design *d = fixture();
    char *err = NULL;
    assert_int_equal(edit_set(d, EDIT_PATTERNS, 7, 0, "x", &err), KP_NOTFOUND);
    assert_string_equal(err, "no cell at row 8, column 1 of patterns");
    free(err);
    assert_int_equal(edit_set(d, EDIT_PATTERNS, 0, 99, "x", &err), KP_NOTFOUND);
    free(err);
    assert_int_equal(edit_set(d, EDIT_PATTERNS, 0, 1, "bad \xff utf8", &err), KP_ENCODING);
    assert_string_equal(err, "invalid UTF-8 at byte 5; expected UTF-8 text");
    free(err);
    /* the message is optional */
    assert_int_equal(edit_set(d, EDIT_PATTERNS, 0, 1, "bad \xff utf8", NULL), KP_ENCODING);
    char *s = edit_get(d, EDIT_PATTERNS, 42, 0);
    assert_string_equal(s, "");
    free(s);
    design_free(d);
}

/* Text that is not UTF-8 never gets into a design: every cell of every table refuses it, names
 * the bad byte and leaves the design as it was (so that saving the design cannot fail on it). */
static void test_invalid_utf8_refused(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "\xff",           /* never valid */
        "Pedido\xc3",     /* a truncated sequence */
        "\xc0\xaf",       /* an overlong '/' */
        "\xed\xa0\x80",   /* a surrogate */
        "ORDER#{id}\x80", /* a stray continuation byte after a template */
    };
    static const size_t at[] = {1, 7, 1, 1, 11};
    kp_design *d = fixture();
    kp_design *before = design_clone(d);
    for (int t = 0; t < EDIT__TABLES; t++) {
        size_t rows = edit_nrows(d, (edit_table)t), cols = edit_ncols(d, (edit_table)t);
        for (size_t r = 0; r < rows; r++)
            for (size_t c = 0; c < cols; c++)
                for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
                    char *err = NULL;
                    kp_status st = edit_set(d, (edit_table)t, r, c, bad[k], &err);
                    if (st != KP_ENCODING)
                        fail_msg("%s row %zu column %zu: bad text %zu gave %s (%s)",
                                 edit_table_name((edit_table)t), r, c, k, kp_status_name(st), err ? err : "");
                    char want[64];
                    snprintf(want, sizeof want, "invalid UTF-8 at byte %zu; expected UTF-8 text", at[k]);
                    assert_string_equal(err, want);
                    free(err);
                }
    }
    assert_true(design_equal(before, d));
    design_free(before);
    design_free(d);
}

/* The messages of a refused row id or name, exactly. */
static const struct {
    edit_table table;
    const char *in;
    const char *msg;
} label_cases[] = {
    {EDIT_PATTERNS, "2", "pattern id '2' is already used by pattern 2; expected a unique id"},
    {EDIT_PATTERNS, "a b",
     "'a b' is not a valid pattern id; expected one word without , ; { } [ ] = : or spaces"},
    {EDIT_PATTERNS, "  ", "the pattern id cannot be empty"},
    {EDIT_INDEXES, "table", "index name 'table' is already used; expected a unique name"},
    {EDIT_INDEXES, "ByCustomer", "index name 'ByCustomer' is already used; expected a unique name"},
    {EDIT_ENTITIES, "Línea", "entity 'Línea' already exists; expected a unique name"},
    {EDIT_ATTRS, "attr2", "attribute 'attr2' is already declared; expected a unique name"},
    {EDIT_ATTRS, "x,y",
     "'x,y' is not a valid attribute name; expected one word without , ; { } [ ] = : or spaces"},
    {EDIT_DECISIONS, "D2", "decision id 'D2' is already used; expected a unique id"},
};

static void test_label_errors(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof label_cases / sizeof *label_cases; i++) {
        kp_design *d = fixture();
        edit_add(d, EDIT_ATTRS, 0);
        edit_add(d, EDIT_ATTRS, 1);
        edit_add(d, EDIT_DECISIONS, d->ndecisions);
        kp_design *before = design_clone(d);
        char *err = NULL;
        assert_int_not_equal(edit_set(d, label_cases[i].table, 0, 0, label_cases[i].in, &err), KP_OK);
        assert_non_null(err);
        assert_string_equal(err, label_cases[i].msg);
        assert_true(design_equal(before, d));
        free(err);
        design_free(before);
        design_free(d);
    }
}

/* The refusals say what was meant: a placeholder names the closest attribute of the entity; a
 * negative number "must be >= 0"; a hexadecimal number is not read as one, and a rate or a
 * latency that is no figure says the units it takes. */
static void test_refusal_messages(void **state)
{
    (void)state;
    static const struct {
        edit_table t;
        const char *col, *in, *says;
    } said[] = {
        {EDIT_KEYS, "PK", "ORDER#{custmerId}", "did you mean 'customerId'?"},
        {EDIT_KEYS, "PK", "ORDER#{custmerId}", "expected one of its attributes: orderId, customerId"},
        {EDIT_PATTERNS, "rate", "-5", "-5 must be >= 0"},
        {EDIT_PATTERNS, "items", "0x10", "'0x10' is not a number; expected a decimal number >= 0"},
        /* a rate or a latency says the units it takes too */
        {EDIT_PATTERNS, "rate", "0x10",
         "'0x10' is not a rate; expected requests a second (2.5), or a figure per "
         "/min, /h or /day (30/min, 1/day)"},
        {EDIT_PATTERNS, "latency", "fast",
         "'fast' is not a latency; expected milliseconds (20), or a figure in s, "
         "min or h (5 min)"},
        {EDIT_PATTERNS, "latency", "-5 min", "-5 min"},
        {EDIT_PATTERNS, "limit", "2.5", "expected a whole number >= 1"},
        {EDIT_PATTERNS, "limit", "0", "expected a whole number >= 1"},
    };
    for (size_t i = 0; i < sizeof said / sizeof *said; i++) {
        kp_design *d = fixture();
        char *err = NULL;
        int col = edit_col_find(d, said[i].t, said[i].col);
        assert_true(col >= 0);
        assert_int_equal(edit_set(d, said[i].t, 0, (size_t)col, said[i].in, &err), KP_INVALID);
        if (!strstr(err, said[i].says))
            fail_msg("%s = '%s': '%s' does not say '%s'", said[i].col, said[i].in, err, said[i].says);
        free(err);
        design_free(d);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cells),
        cmocka_unit_test(test_rename_entity_updates_patterns),
        cmocka_unit_test(test_rename_pattern_updates_refs),
        cmocka_unit_test(test_rows),
        cmocka_unit_test(test_rows_step_from),
        cmocka_unit_test(test_settings),
        cmocka_unit_test(test_key_attribute_rename_follows),
        cmocka_unit_test(test_key_attrs),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_invalid_utf8_refused),
        cmocka_unit_test(test_label_errors),
        cmocka_unit_test(test_refusal_messages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
