/* test_infer.c - entities and key templates inferred from sample items, without any file format:
 * sample values in, templates, placeholder names, groups, sparse shares and distinct estimates
 * out (model/infer.h). One row per case. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "infer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXROWS  6
#define MAXATTRS 8
#define MAXWANT  6

/* A row: name, value, name, value, ...; a value NULL stands for a non-scalar (a map). */
typedef struct row_spec {
    const char *kv[MAXATTRS * 2 + 1];
} row_spec;

static const struct infer_case {
    const char *what;
    const char *pk, *sk, *gpk; /* the table's key attributes; gpk: an index's partition key or NULL */
    const char *facet;         /* the rows are this facet's; NULL: rows to group */
    const char *alias[2];      /* the facet's aliases for pk and sk */
    row_spec rows[MAXROWS];
    /* what must come out, one claim each:
     *   "tpl ENTITY ATTR TEMPLATE"   the entity's template for a key attribute
     *   "entities N"                 how many entities
     *   "sparse ENTITY ATTR SHARE"   a sparse share
     *   "distinct ATTR N"            an attribute's distinct estimate
     *   "carries ENTITY ATTR"        a domain attribute of the entity
     *   "date ATTR"                  an attribute typed date
     *   "warn TEXT"                  a warning containing TEXT */
    const char *want[MAXWANT];
} cases[] = {
    {"digits vary: a placeholder named after the entity the prefix abbreviates",
     "PK",
     "SK",
     NULL,
     "customer",
     {"PK", "SK"},
     {{{"PK", "c#12345", "SK", "c#12345"}}, {{"PK", "c#67890", "SK", "c#67890"}}},
     {"tpl customer PK c#{customerId}", "tpl customer SK c#{customerId}", "entities 1"}},
    {"a non-key attribute with the same values names the placeholder",
     "PK",
     "SK",
     NULL,
     "Order",
     {"PK", "SK"},
     {{{"PK", "ORDER#o-1", "SK", "HEADER", "orderId", "o-1"}},
      {{"PK", "ORDER#o-2", "SK", "HEADER", "orderId", "o-2"}}},
     {"tpl Order PK ORDER#{orderId}", "tpl Order SK HEADER", "distinct orderId 1000000"}},
    {"an alias written as a template is taken as written",
     "PK",
     "SK",
     NULL,
     "Order",
     {"ORDER#{orderNo}", "LINE#{lineNo}"},
     {{{"PK", "ORDER#1", "SK", "LINE#a"}}, {{"PK", "ORDER#2", "SK", "LINE#b"}}},
     {"tpl Order PK ORDER#{orderNo}", "tpl Order SK LINE#{lineNo}"}},
    {"dates become a date placeholder; the attribute is typed date",
     "PK",
     "SK",
     NULL,
     "Reading",
     {"PK", "SK"},
     {{{"PK", "DEVICE#d-1", "SK", "2024-01-02"}},
      {{"PK", "DEVICE#d-2", "SK", "2024-03-04"}},
      {{"PK", "DEVICE#d-2", "SK", "2024-05-06"}}},
     {"tpl Reading PK DEVICE#{deviceId}", "tpl Reading SK {date}", "date date"}},
    {"a common word prefix followed by digits stays literal",
     "PK",
     "SK",
     NULL,
     "Complaint",
     {"PK", "SK"},
     {{{"PK", "Complaint123", "SK", "metadata"}}, {{"PK", "Complaint456", "SK", "metadata"}}},
     {"tpl Complaint PK Complaint{complaintId}", "tpl Complaint SK metadata"}},
    {"samples that disagree in shape: the common prefix and a warning",
     "PK",
     "SK",
     NULL,
     "Address",
     {"PK", "SK"},
     {{{"PK", "CLIENT#7", "SK", "ADDR#home"}}, {{"PK", "CLIENT#8", "SK", "OTHER"}}},
     {"tpl Address SK {addressId}", "warn disagree in shape"}},
    {"an index key on some rows only: a sparse share",
     "PK",
     "SK",
     "GSI1PK",
     "Line",
     {"PK", "SK"},
     {{{"PK", "ORDER#1", "SK", "LINE#001", "GSI1PK", "STATUS#open"}}, {{"PK", "ORDER#2", "SK", "LINE#002"}}},
     {"tpl Line GSI1PK STATUS#open", "sparse Line GSI1PK 0.5", "tpl Line SK LINE#{lineId}"}},
    {"an index key that is a plain value is a domain attribute",
     "PK",
     "SK",
     "RoomID",
     "Message",
     {"PK", "SK"},
     {{{"PK", "Room:music", "SK", "MSG#1", "RoomID", "music"}},
      {{"PK", "Room:chess", "SK", "MSG#2", "RoomID", "chess"}}},
     {"carries Message RoomID", "tpl Message PK Room:{RoomID}"}},
    {"rows without facets: grouped by their entity-type attribute",
     "PK",
     "SK",
     NULL,
     NULL,
     {NULL, NULL},
     {{{"PK", "u#1", "SK", "PROFILE", "Type", "User"}},
      {{"PK", "u#2", "SK", "PROFILE", "Type", "User"}},
      {{"PK", "u#1", "SK", "POST#p1", "Type", "Post"}},
      {{"PK", "u#2", "SK", "POST#p2", "Type", "Post"}}},
     {"entities 2", "tpl User PK u#{userId}", "tpl Post SK POST#{postId}", "distinct userId 500000"}},
    {"rows without facets or a type: grouped by the shape of their keys",
     "PK",
     "SK",
     NULL,
     NULL,
     {NULL, NULL},
     {{{"PK", "Team:red", "SK", "Info"}},
      {{"PK", "Team:blue", "SK", "Info"}},
      {{"PK", "Team:red", "SK", "Player:ann"}},
      {{"PK", "Team:blue", "SK", "Player:bob"}},
      {{"PK", "Team:red", "SK", "Player:cy"}}},
     {"entities 2", "tpl Team PK Team:{teamId}", "tpl TeamPlayer SK Player:{playerId}",
      "tpl TeamPlayer PK Team:{teamId}"}},
    {"one sample row: a warning that the template is a guess",
     "PK",
     NULL,
     NULL,
     "Solo",
     {"PK", NULL},
     {{{"PK", "S#1", "n", NULL}}},
     {"tpl Solo PK S#{soloId}", "warn one sample row"}},
};

static const kp_entity *entity(const kp_design *d, const char *name)
{
    const kp_entity *e = design_entity(d, name);
    if (!e)
        fail_msg("no entity '%s'", name);
    return e;
}

static void check_claim(size_t c, const char *claim, const kp_design *d, const kp_diags *dg)
{
    char kind[16], a[64], b[64], v[128];
    int n = sscanf(claim, "%15s %63s %63s %127s", kind, a, b, v);
    if (!strcmp(kind, "tpl") && n == 4) {
        const kp_keytpl *k = entity_key(entity(d, a), b);
        if (!k || strcmp(k->tpl.src, v) != 0)
            fail_msg("case %zu: %s's %s is '%s', expected '%s'", c, a, b, k ? k->tpl.src : "(none)", v);
    } else if (!strcmp(kind, "entities") && n == 2) {
        if (d->nentities != (size_t)atoi(a))
            fail_msg("case %zu: %zu entities, expected %s", c, d->nentities, a);
    } else if (!strcmp(kind, "sparse") && n == 4) {
        const kp_sparse *s = entity_sparse(entity(d, a), b);
        if (!s || s->kind != KP_SPARSE_SHARE || fabs(s->share - atof(v)) > 1e-9)
            fail_msg("case %zu: %s's %s is not sparse with share %s", c, a, b, v);
    } else if (!strcmp(kind, "distinct") && n == 3) {
        const kp_attr *at = design_attr(d, a);
        if (!at || fabs(at->distinct - atof(b)) > 0.5)
            fail_msg("case %zu: %s has %g distinct values, expected %s", c, a, at ? at->distinct : NAN, b);
    } else if (!strcmp(kind, "carries") && n == 3) {
        if (!entity_carries(entity(d, a), b) || entity_key(entity(d, a), b))
            fail_msg("case %zu: %s does not carry %s as a plain attribute", c, a, b);
    } else if (!strcmp(kind, "date") && n == 2) {
        const kp_attr *at = design_attr(d, a);
        if (!at || at->type != KP_ATTR_DATE)
            fail_msg("case %zu: %s is not typed date", c, a);
    } else if (!strcmp(kind, "warn")) {
        const char *text = claim + 5;
        bool found = false;
        for (size_t i = 0; i < dg->n && !found; i++)
            found = dg->v[i].sev == KP_SEV_WARNING && strstr(dg->v[i].msg, text);
        if (!found)
            fail_msg("case %zu: no warning saying '%s'", c, text);
    } else {
        fail_msg("case %zu: bad claim '%s'", c, claim);
    }
}

static void test_cases(void **state)
{
    (void)state;
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        const struct infer_case *x = &cases[c];
        kp_design *d = design_new();
        d->name = xstrdup("T");
        d->table.name = xstrdup("T");
        d->table.pk = str_make(x->pk, (kp_loc){0, 0});
        if (x->sk)
            d->table.sk = str_make(x->sk, (kp_loc){0, 0});
        if (x->gpk) {
            d->indexes = xcalloc(1, sizeof *d->indexes);
            index_init(&d->indexes[0]);
            d->indexes[0].name = xstrdup("GSI1");
            d->indexes[0].pk = str_make(x->gpk, (kp_loc){0, 0});
            d->nindexes = 1;
        }
        kp_diags dg;
        diags_init(&dg, "sample");
        infer m;
        infer_init(&m, d, &dg);
        size_t nrows = 0;
        while (nrows < MAXROWS && x->rows[nrows].kv[0])
            nrows++;
        infer_row *rows = xcalloc(MAXROWS, sizeof *rows);
        for (size_t r = 0; r < nrows; r++) {
            for (size_t k = 0; x->rows[r].kv[k]; k += 2)
                infer_row_set(&rows[r], x->rows[r].kv[k], x->rows[r].kv[k + 1]);
            rows[r].size = 100;
        }
        if (x->facet) {
            infer_group *g = infer_add_group(&m, x->facet);
            g->alias[0] = xstrdup(x->alias[0]);
            g->alias[1] = xstrdup(x->alias[1]);
            for (size_t r = 0; r < nrows; r++) {
                *infer_add_row(g) = rows[r];
                memset(&rows[r], 0, sizeof rows[r]);
            }
            free(rows);
        } else {
            infer_group_rows(&m, rows, nrows);
        }
        infer_build(&m);
        infer_free(&m);
        print_message("case %zu: %s\n", c, x->what);
        for (size_t e = 0; e < d->nentities; e++) {
            assert_true(d->entities[e].size == 100); /* the items' average size */
            for (size_t k = 0; k < d->entities[e].nkeys; k++)
                print_message("  %s %s: %s\n", d->entities[e].name, d->entities[e].keys[k].attr.s,
                              d->entities[e].keys[k].tpl.src);
        }
        for (size_t w = 0; w < MAXWANT && x->want[w]; w++)
            check_claim(c, x->want[w], d, &dg);
        assert_int_equal(dg.errors, 0);
        diags_free(&dg);
        design_free(d);
    }
}

/* Item attributes: lookup by name, non-scalars absent. */
static void test_rows(void **state)
{
    (void)state;
    infer_row r = {0};
    infer_row_set(&r, "PK", "A#1");
    infer_row_set(&r, "map", NULL);
    assert_string_equal(infer_row_get(&r, "PK"), "A#1");
    assert_null(infer_row_get(&r, "map"));
    assert_null(infer_row_get(&r, "absent"));
    infer_row_free(&r);
    assert_int_equal(r.n, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cases),
        cmocka_unit_test(test_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
