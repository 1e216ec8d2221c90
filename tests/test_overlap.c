/* test_overlap.c - model/overlap.h: which key values two templates can share, decided on the
 * placeholders' domains. One table of template pairs with the overlap each must give, over one
 * design that declares the domains (enum, number with and without format, date, shard, bool,
 * strings with and without `chars: any`, undeclared ids); then the domain numbers the resolver
 * groups templates by, and whether one entity's key changed changes any (ov_same_separators). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "overlap.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The templates of the table, all of them in the design so that their separators count. */
static const char *DESIGN =
    "keyplan: 1\n"
    "name: overlap\n"
    "table: { name: Overlap, pk: PK, sk: SK, billing: on-demand, streams: false, pitr: false }\n"
    "attributes:\n"
    "  stage:   { type: enum, values: { draft: 0.5, live: 0.5 } }\n"
    "  year:    { type: number }\n"
    "  quarter: { type: number }\n"
    "  lineNo:  { type: number, format: \"03\" }\n"
    "  day:     { type: date }\n"
    "  shard:   { type: shard, count: 10 }\n"
    "  flag:    { type: bool }\n"
    "  anyId:   { chars: any }\n"
    "entities:\n"
    "  - { name: Profile, attributes: [userId], keys: { PK: \"USER#{userId}\", SK: PROFILE } }\n"
    "  - { name: Friend, attributes: [userId, friendId], keys: { PK: \"USER#{userId}#FRIENDS\", SK: "
    "\"{friendId}\" } }\n"
    "  - { name: Post, attributes: [authorId, stage, title], keys: { PK: \"AUTHOR#{authorId}\", SK: "
    "\"{stage}-{title}\" } }\n"
    "  - { name: Store, attributes: [storeId], keys: { PK: \"STORE#{storeId}\", SK: \"STORE#{storeId}\" } }\n"
    "  - { name: Report, attributes: [year, quarter], keys: { PK: \"REPORT\", SK: \"{year}-Q{quarter}\" } }\n"
    "  - { name: Item, attributes: [itemId], keys: { PK: \"ITEM#{itemId}\", SK: \"ITEM#{itemId}\" } }\n"
    "  - { name: Line, attributes: [orderId, lineNo], keys: { PK: \"O#{orderId}\", SK: \"L#{lineNo}\" } }\n"
    "  - { name: Event, attributes: [day, shard, eventId], keys: { PK: \"EVT#{shard}\", SK: \"{day}#{eventId}\" "
    "} }\n"
    "  - { name: Flagged, attributes: [flag, thing], keys: { PK: \"F#{flag}\", SK: \"{thing}\" } }\n"
    "  - { name: Any, attributes: [anyId], keys: { PK: \"USER#{anyId}\", SK: \"ANY\" } }\n"
    "  - { name: Piped, attributes: [a, b], keys: { PK: \"{a}|{b}\", SK: \"P\" } }\n";

typedef struct row {
    const char *a;     /* the query's template */
    const char *fixed; /* "name=value" fixed in a, or NULL */
    const char *b;     /* the other entity's template */
    ov_how how;
    bool meet;
    const char *why;
} row;

static const row rows[] = {
    /* separators: an id does not hold the character its template puts next to it */
    {"USER#{userId}", NULL, "USER#{userId}#FRIENDS", OV_EQUAL, false, "'#' never inside userId"},
    {"USER#{userId}#FRIENDS", NULL, "USER#{userId}", OV_EQUAL, false, "the same, the other way"},
    {"USER#{userId}", NULL, "USER#{userId}", OV_EQUAL, true, "the same template"},
    {"USER#{anyId}", NULL, "USER#{userId}#FRIENDS", OV_EQUAL, true, "chars: any: anyId may be 7#FRIENDS"},
    {"USER#{userId}", NULL, "USER#{anyId}", OV_EQUAL, true, "anyId may be any userId"},
    {"{a}|{b}", NULL, "{a}|{b}", OV_EQUAL, true, "same shape"},
    {"USER#{userId}", NULL, "{a}|{b}", OV_EQUAL, true, "only '#' is next to userId: it may hold '|'"},
    {"USER#{userId}", NULL, "{a}|USER", OV_EQUAL, true, "userId = x|USER, a = USER#x: a may hold '#'"},
    {"USER#", NULL, "USER#{userId}", OV_PREFIX, true, "a prefix of every profile"},
    {"USER#{userId}#", NULL, "USER#{userId}#FRIENDS", OV_PREFIX, true, "prefix through a placeholder"},
    /* enums: their values only */
    {"{stage}-{title}", NULL, "STORE#{storeId}", OV_EQUAL, false, "draft-/live- never STORE#"},
    {"{stage}-", NULL, "STORE#{storeId}", OV_PREFIX, false, "not as a prefix either"},
    {"{stage}-", NULL, "PROFILE", OV_PREFIX, false, "nor the constant"},
    {"{stage}-{title}", NULL, "{stage}-{title}", OV_EQUAL, true, "the same template"},
    {"{stage}-", "stage=live", "{stage}-{title}", OV_PREFIX, true, "live- begins live items"},
    {"{stage}-", "stage=live", "draft-{title}", OV_PREFIX, false, "a fixed value binds the placeholder"},
    {"{stage}", "stage=live", "PROFILE", OV_PREFIX, false, "live is not a prefix of PROFILE"},
    {"", NULL, "PROFILE", OV_PREFIX, true, "an empty prefix begins everything"},
    /* numbers and dates: digits and their format */
    {"{year}-Q{quarter}", NULL, "ITEM#{itemId}", OV_EQUAL, false, "a year starts with a digit"},
    {"{year}-Q", NULL, "{year}-Q{quarter}", OV_PREFIX, true, "its own prefix"},
    {"{year}-Q{quarter}", NULL, "{day}#{eventId}", OV_EQUAL, false, "a date never holds Q"},
    {"{day}", NULL, "2025-03-14", OV_EQUAL, true, "ISO date text"},
    {"{day}", NULL, "March 14", OV_EQUAL, false, "a date starts with a digit"},
    {"L#{lineNo}", NULL, "L#7", OV_EQUAL, false, "format 03: at least three digits"},
    {"L#{lineNo}", NULL, "L#007", OV_EQUAL, true, "padded"},
    {"L#{lineNo}", NULL, "L#1234", OV_EQUAL, true, "wider numbers print whole"},
    {"L#{lineNo}", NULL, "L#00x", OV_EQUAL, false, "digits only"},
    {"EVT#{shard}", NULL, "EVT#9", OV_EQUAL, true, "shard 9 of 10"},
    {"EVT#{shard}", NULL, "EVT#10", OV_EQUAL, false, "shards are 0..9"},
    {"F#{flag}", NULL, "F#true", OV_EQUAL, true, "a bool"},
    {"F#{flag}", NULL, "F#maybe", OV_EQUAL, false, "true or false only"},
    /* constants */
    {"PROFILE", NULL, "PROFILE", OV_EQUAL, true, "equal constants"},
    {"PROFILE", NULL, "PROFILES", OV_EQUAL, false, "different constants"},
    {"PROFILE", NULL, "PROFILES", OV_PREFIX, true, "a constant prefix"},
    {"REPORT", NULL, "STORE#{storeId}", OV_EQUAL, false, "different literals"},
};

static kp_design *design(void)
{
    kp_design *d = ts_load_text(DESIGN, "overlap.yaml");
    assert_non_null(d);
    return d;
}

static void test_overlap_table(void **state)
{
    (void)state;
    kp_design *d = design();
    ov_domains *dm = ov_domains_new(d);
    int bad = 0;
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        const row *r = &rows[i];
        tpl a, b;
        assert_int_equal(tpl_parse(r->a, &a, NULL, NULL), KP_OK);
        assert_int_equal(tpl_parse(r->b, &b, NULL, NULL), KP_OK);
        ov_fixed fx = {NULL, NULL};
        char name[32] = "";
        if (r->fixed) {
            const char *eq = strchr(r->fixed, '=');
            snprintf(name, sizeof name, "%.*s", (int)(eq - r->fixed), r->fixed);
            fx = (ov_fixed){name, eq + 1};
        }
        bool met = ov_templates_meet(dm, &a, &fx, r->fixed ? 1 : 0, &b, r->how);
        if (met != r->meet) {
            fprintf(stderr, "row %zu: %s%s%s %s %s: %s, expected %s (%s)\n", i + 1, r->a,
                    r->fixed ? " with " : "", r->fixed ? r->fixed : "", r->how == OV_EQUAL ? "=" : "begins",
                    r->b, met ? "meet" : "apart", r->meet ? "meet" : "apart", r->why);
            bad++;
        }
        tpl_free(&a);
        tpl_free(&b);
    }
    assert_int_equal(bad, 0);
    ov_domains_free(dm);
    design_free(d);
}

/* Placeholders with the same domain number take the same values: the resolver groups the
 * templates that differ only in their names. */
static void test_domain_numbers(void **state)
{
    (void)state;
    kp_design *d = design();
    ov_domains *dm = ov_domains_new(d);
    tpl_part user = {TPL_ATTR, "userId", NULL, 0}, author = {TPL_ATTR, "authorId", NULL, 0},
             anyid = {TPL_ATTR, "anyId", NULL, 0}, stage = {TPL_ATTR, "stage", NULL, 0},
             line = {TPL_ATTR, "lineNo", NULL, 0}, year = {TPL_ATTR, "year", NULL, 0},
             quarter = {TPL_ATTR, "quarter", NULL, 0}, nope = {TPL_ATTR, "nowhere", NULL, 0};
    /* userId and authorId: strings next to '#' only */
    assert_int_equal(ov_part_domain(dm, &user), ov_part_domain(dm, &author));
    assert_int_not_equal(ov_part_domain(dm, &user), ov_part_domain(dm, &anyid));
    assert_int_not_equal(ov_part_domain(dm, &user), ov_part_domain(dm, &stage));
    assert_int_equal(ov_part_domain(dm, &year), ov_part_domain(dm, &quarter));
    assert_int_not_equal(ov_part_domain(dm, &year), ov_part_domain(dm, &line));
    assert_true(ov_part_domain(dm, &nope) == SIZE_MAX);
    /* the first bytes a BETWEEN on a date or an enum can go on with */
    ov_bytes f;
    ov_first_bytes(dm, "day", &f);
    assert_true((f.w[0] >> '0') & 1);
    assert_false((f.w[1] >> ('A' - 64)) & 1);
    ov_first_bytes(dm, "stage", &f);
    assert_true((f.w[1] >> ('d' - 64)) & 1);
    assert_true((f.w[1] >> ('l' - 64)) & 1);
    assert_false((f.w[1] >> ('e' - 64)) & 1);
    ov_domains_free(dm);
    design_free(d);
}

/* ov_same_separators: the design with one entity's key changed, against the design as it was;
 * and the same asked of the domains of both designs (the separators they hold). */
static char changed[200]; /* same_after's names whose separators change */

static bool same_after(kp_design *d, const char *entity, const char *key, const char *src)
{
    size_t epos = 0;
    while (epos < d->nentities && strcmp(d->entities[epos].name, entity) != 0)
        epos++;
    assert_true(epos < d->nentities);
    kp_entity *e = &d->entities[epos], theirs = *e;
    theirs.keys = xcalloc(e->nkeys, sizeof *theirs.keys);
    memcpy(theirs.keys, e->keys, e->nkeys * sizeof *e->keys);
    size_t k = 0;
    while (k < e->nkeys && strcmp(e->keys[k].attr.s, key) != 0)
        k++;
    assert_true(k < e->nkeys);
    assert_int_equal(tpl_parse(src, &theirs.keys[k].tpl, NULL, NULL), KP_OK);
    bool same = ov_same_separators(d, epos, &theirs);
    /* the names that changed, each once, joined by ',' into changed[] */
    const char **names = NULL;
    size_t nn = ov_separators_changed(d, epos, &theirs, &names);
    assert_true((nn == 0) == same);
    changed[0] = '\0';
    for (size_t i = 0; i < nn; i++)
        snprintf(changed + strlen(changed), 200 - strlen(changed), "%s%s", i ? "," : "", names[i]);
    free(names);
    /* the domains of both designs: every name both know has the same separators */
    ov_domains *before = ov_domains_new(d);
    kp_entity was = *e;
    d->entities[epos] = theirs;
    ov_domains *after = ov_domains_new(d);
    d->entities[epos] = was;
    for (size_t i = 0; i < d->nattrs; i++) {
        ov_bytes x, y;
        ov_separators(before, d->attrs[i].name, &x);
        ov_separators(after, d->attrs[i].name, &y);
        if (memcmp(&x, &y, sizeof x) != 0)
            assert_false(same);
    }
    ov_domains_free(before);
    ov_domains_free(after);
    tpl_free(&theirs.keys[k].tpl);
    free(theirs.keys);
    return same;
}

static void test_domains_same(void **state)
{
    (void)state;
    kp_design *d = design();
    /* the same separators next to every name another entity uses or the design declares */
    assert_true(same_after(d, "Profile", "SK", "PROFILE#V2"));
    assert_true(same_after(d, "Profile", "PK", "USER#{userId}#FRIENDS")); /* '#' was userId's */
    assert_true(same_after(d, "Line", "SK", "L#{lineNo}#{newId}"));       /* a name of its own */
    assert_true(same_after(d, "Item", "SK", "ITEM#{itemId}#X"));
    assert_true(same_after(d, "Piped", "PK", "{a}#{b}"));         /* a, b: undeclared, its own */
    assert_true(same_after(d, "Store", "SK", "STORE:{storeId}")); /* storeId: undeclared, its own */
    /* a separator gained or lost by a name another entity uses, or a declared one */
    assert_false(same_after(d, "Profile", "PK", "USER-{userId}"));      /* userId gains '-' */
    assert_false(same_after(d, "Friend", "SK", "{userId}-{friendId}")); /* userId gains '-' */
    assert_string_equal(changed, "userId");                             /* friendId: undeclared, its own */
    assert_false(same_after(d, "Report", "SK", "{year}/Q{quarter}"));   /* declared: year gains '/' */
    assert_string_equal(changed, "year"); /* "Q" before quarter is no separator */
    assert_false(same_after(d, "Report", "SK", "{year}/{quarter}/{year}"));
    assert_string_equal(changed, "year,quarter");             /* each once, in the templates' order */
    assert_false(same_after(d, "Line", "SK", "L#{lineNo}.")); /* declared: lineNo gains '.' */
    design_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_overlap_table),
        cmocka_unit_test(test_domain_numbers),
        cmocka_unit_test(test_domains_same),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
