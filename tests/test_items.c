/* test_items.c - sample items (model/item.h): deterministic, rendered from the templates, values
 * per attribute type (enum shares, ISO dates, formatted numbers, shards, ids), sparse keys,
 * sizes, partitions with several items, UTF-8 names, cross-entity collisions; and the
 * BatchWriteItem export and the DynamoDB JSON of an item (storage/exchange/requests.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "design_io.h"
#include "requests.h"
#include "support.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char *const shop_yaml =
    "keyplan: 1\n"
    "name: shop\n"
    "table: { name: Shop, pk: PK, sk: SK, billing: on-demand, streams: false, pitr: false }\n"
    "indexes:\n"
    "  - { name: GSI1, pk: GSI1PK, sk: GSI1SK, projection: keys }\n"
    "  - { name: ByShard, pk: SPK, sk: orderDate, projection: all }\n"
    "attributes:\n"
    "  customerId: { distinct: 1000 }\n"
    "  orderId: { distinct: 100000 }\n"
    "  orderDate: { type: date }\n"
    "  lineNo: { type: number, format: \"03\" }\n"
    "  total: { type: number }\n"
    "  shard: { type: shard, count: 4 }\n"
    "  status: { type: enum, values: { open: 0.1, paid: 0.2, shipped: 0.7 } }\n"
    "  tipo: { type: enum, values: { casa: 0.5, trabajo: 0.5 } }\n"
    "entities:\n"
    "  - name: Customer\n"
    "    count: 1000\n"
    "    size: 1500\n"
    "    attributes: [customerId, nombre]\n"
    "    keys: { PK: \"CLIENTE#{customerId}\", SK: \"PERFIL\" }\n"
    "  - name: Dirección\n"
    "    count: 2000\n"
    "    size: 300\n"
    "    attributes: [customerId, tipo]\n"
    "    keys: { PK: \"CLIENTE#{customerId}\", SK: \"DIRECCIÓN#{tipo}\" }\n"
    "  - name: Order\n"
    "    count: 100000\n"
    "    size: 900\n"
    "    attributes: [orderId, customerId, orderDate, status, total, shard]\n"
    "    keys: { PK: \"PEDIDO#{orderId}\", SK: \"CABECERA\", GSI1PK: \"ESTADO#{status}\",\n"
    "            GSI1SK: \"{orderDate}#{orderId}\", SPK: \"DAY#{orderDate}#{shard}\" }\n"
    "    sparse: { GSI1PK: \"status = open\" }\n"
    "  - name: Línea\n"
    "    count: 300000\n"
    "    size: 250\n"
    "    attributes: [orderId, lineNo, productId]\n"
    "    keys: { PK: \"PEDIDO#{orderId}\", SK: \"LINEA#{lineNo}\" }\n"
    "  - name: Tiny\n"
    "    count: 3\n"
    "    attributes: [tinyId]\n"
    "    keys: { PK: \"TINY#{tinyId}\", SK: \"T\" }\n"
    "patterns:\n"
    "  - { id: 1, name: Order, entity: Order, by: [orderId], rate: 1 }\n";

static kp_design *load(const char *yaml)
{
    kp_design *d = ts_load_text(yaml, "test.yaml");
    if (!d)
        fail_msg("the test design does not load");
    return d;
}

static const char *typed(const kp_item *item, const char *attr, kp_vtype type)
{
    const kp_value *v = item_get(item, attr);
    return v && v->type == type ? v->text : NULL;
}

static const char *S(const kp_item *item, const char *attr) { return typed(item, attr, KP_VAL_S); }

static const char *N(const kp_item *item, const char *attr) { return typed(item, attr, KP_VAL_N); }

static kp_item_list generate(const kp_design *d, const kp_entity *e, size_t n, unsigned seed)
{
    kp_item_list l = {0};
    item_generate(d, e, n, seed, &l);
    return l;
}

/* The sample list of entity `name`. */
static const kp_item_list *list_of(const kp_design *d, const item_sample *s, const char *name)
{
    ptrdiff_t i = design_entity_pos(d, name);
    assert_true(i >= 0);
    return &s->lists[i];
}

static void test_deterministic(void **state)
{
    (void)state;
    kp_design *d = load(shop_yaml);
    const kp_entity *e = design_entity(d, "Order");
    item_gen *x = item_gen_new(d), *y = item_gen_new(d);
    /* one context or two, the same items: the context only remembers answers */
    json_t *a = items_generate(x, e, 12, 7), *b = items_generate(y, e, 12, 7),
           *c = items_generate(x, e, 12, 8);
    item_gen_free(x);
    item_gen_free(y);
    kp_item_list l = generate(d, e, 12, 7);
    json_t *la = json_array();
    for (size_t i = 0; i < l.n; i++)
        json_array_append_new(la, items_json(&l.v[i]));
    assert_true(json_equal(la, a)); /* the JSON is the model's items written out */
    json_decref(la);
    item_list_free(&l);
    char *ta = json_dumps(a, JSON_SORT_KEYS), *tb = json_dumps(b, JSON_SORT_KEYS),
         *tc = json_dumps(c, JSON_SORT_KEYS);
    assert_string_equal(ta, tb);
    assert_true(strcmp(ta, tc) != 0); /* the seed moves the random parts */
    assert_int_equal(json_array_size(a), 12);
    free(ta);
    free(tb);
    free(tc);
    json_decref(a);
    json_decref(b);
    json_decref(c);
    design_free(d);
}

/* Every key attribute the item carries is its template rendered over the item's own values;
 * primary keys are unique. */
static void test_keys_render_and_unique(void **state)
{
    (void)state;
    kp_design *d = load(shop_yaml);
    for (size_t i = 0; i < d->nentities; i++) {
        const kp_entity *e = &d->entities[i];
        kp_item_list items = generate(d, e, item_default_count(d, e), ITEM_DEFAULT_SEED);
        assert_true(items.n > 0);
        for (size_t k = 0; k < items.n; k++) {
            const kp_item *it = &items.v[k];
            for (size_t t = 0; t < e->nkeys; t++) {
                const char *have = S(it, e->keys[t].attr.s);
                if (!have) {
                    assert_non_null(entity_sparse(e, e->keys[t].attr.s)); /* only sparse keys may be absent */
                    continue;
                }
                char *want = item_render(d, &e->keys[t].tpl, it);
                assert_non_null(want);
                assert_string_equal(have, want);
                assert_null(strchr(have, '{'));
                free(want);
            }
            for (size_t q = 0; q < k; q++) {
                const kp_item *o = &items.v[q];
                bool same = strcmp(S(o, "PK"), S(it, "PK")) == 0 && strcmp(S(o, "SK"), S(it, "SK")) == 0;
                if (same)
                    fail_msg("%s items %zu and %zu share a primary key", e->name, q, k);
            }
            assert_string_equal(S(it, "entityType"), e->name);
        }
        item_list_free(&items);
    }
    design_free(d);
}

/* Values per type, table-driven over (entity, attribute, check). */
enum vcheck { V_ISO_DATE, V_ENUM_ALL, V_SHARD, V_NUMBER, V_PADDED_IN_KEY };
static const struct value_case {
    const char *entity, *attr;
    enum vcheck check;
} value_cases[] = {
    {"Order", "orderDate", V_ISO_DATE},   {"Order", "status", V_ENUM_ALL},
    {"Order", "shard", V_SHARD},          {"Order", "total", V_NUMBER},
    {"Línea", "lineNo", V_PADDED_IN_KEY}, {"Dirección", "tipo", V_ENUM_ALL},
};

static bool iso_date(const char *s)
{
    if (!s || strlen(s) != 10 || s[4] != '-' || s[7] != '-')
        return false;
    for (int i = 0; i < 10; i++)
        if (i != 4 && i != 7 && !isdigit((unsigned char)s[i]))
            return false;
    int m = atoi(s + 5), dd = atoi(s + 8);
    return m >= 1 && m <= 12 && dd >= 1 && dd <= 31;
}

static void test_values_per_type(void **state)
{
    (void)state;
    kp_design *d = load(shop_yaml);
    for (size_t c = 0; c < sizeof value_cases / sizeof *value_cases; c++) {
        const struct value_case *vc = &value_cases[c];
        const kp_entity *e = design_entity(d, vc->entity);
        const kp_attr *a = design_attr(d, vc->attr);
        kp_item_list items = generate(d, e, item_default_count(d, e), ITEM_DEFAULT_SEED);
        size_t seen_mask = 0;
        for (size_t k = 0; k < items.n; k++) {
            const kp_item *it = &items.v[k];
            switch (vc->check) {
            case V_ISO_DATE:
                if (!iso_date(S(it, vc->attr)))
                    fail_msg("case %zu: '%s' is not an ISO 8601 date", c, S(it, vc->attr));
                break;
            case V_ENUM_ALL:
                for (size_t v = 0; v < a->nvalues; v++)
                    if (S(it, vc->attr) && strcmp(S(it, vc->attr), a->values[v].name) == 0)
                        seen_mask |= (size_t)1 << v;
                break;
            case V_SHARD: {
                const char *n = N(it, vc->attr);
                assert_non_null(n);
                int v = atoi(n);
                assert_true(v >= 0 && v < a->shard_count);
                seen_mask |= (size_t)1 << v;
                break;
            }
            case V_NUMBER:
                assert_non_null(N(it, vc->attr));
                assert_true(strtod(N(it, vc->attr), NULL) >= 1);
                break;
            case V_PADDED_IN_KEY: {
                const char *n = N(it, vc->attr);
                char want[64];
                snprintf(want, sizeof want, "LINEA#%03d", atoi(n));
                assert_string_equal(S(it, "SK"), want); /* the attribute's format pads it in keys */
                assert_true(n[0] != '0');               /* but the number itself is not padded */
                break;
            }
            }
        }
        if (vc->check == V_ENUM_ALL && seen_mask != ((size_t)1 << a->nvalues) - 1)
            fail_msg("case %zu: not every value of %s appears (mask %zx)", c, vc->attr, seen_mask);
        if (vc->check == V_SHARD && seen_mask != ((size_t)1 << a->shard_count) - 1)
            fail_msg("case %zu: not every shard appears (mask %zx)", c, seen_mask);
        item_list_free(&items);
    }
    design_free(d);
}

static void test_sparse_condition(void **state)
{
    (void)state;
    kp_design *d = load(shop_yaml);
    kp_item_list items = generate(d, design_entity(d, "Order"), 12, ITEM_DEFAULT_SEED);
    size_t carrying = 0;
    for (size_t k = 0; k < items.n; k++) {
        const kp_item *it = &items.v[k];
        bool open = strcmp(S(it, "status"), "open") == 0;
        assert_int_equal(open, item_get(it, "GSI1PK") != NULL);
        assert_non_null(item_get(it, "GSI1SK")); /* not sparse */
        carrying += open;
    }
    assert_true(carrying >= 1); /* the sparse index has data */
    item_list_free(&items);
    design_free(d);
}

/* Items are padded to the entity's size; an entity without one is not. */
static void test_sizes(void **state)
{
    (void)state;
    kp_design *d = load(shop_yaml);
    static const struct {
        const char *entity;
        size_t size;
    } cases[] = {{"Customer", 1500}, {"Order", 900}, {"Línea", 250}, {"Dirección", 300}};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        const kp_entity *e = design_entity(d, cases[c].entity);
        kp_item_list items = generate(d, e, 6, 1);
        for (size_t k = 0; k < items.n; k++) {
            kp_item *it = &items.v[k];
            assert_null(item_get(it, "_pad")); /* exports get no filler */
            item_pad(e, it);
            item_pad(e, it); /* twice: resized, not added to */
            size_t n = item_size(it);
            if (n != cases[c].size) /* exactly: DynamoDB's limit is a byte count */
                fail_msg("%s item of %zu bytes, entity size %zu", cases[c].entity, n, cases[c].size);
        }
        item_list_free(&items);
    }
    const kp_entity *tiny_e = design_entity(d, "Tiny");
    kp_item_list tiny = generate(d, tiny_e, 3, 1);
    item_pad(tiny_e, &tiny.v[0]);
    assert_null(item_get(&tiny.v[0], "_pad")); /* no size, no filler */
    item_list_free(&tiny);
    /* verify's sample is padded */
    item_sample sample;
    item_sample_make(d, 1, true, &sample);
    size_t n = item_size(&list_of(d, &sample, "Customer")->v[0]);
    assert_int_equal(n, 1500);
    item_sample_free(&sample);
    design_free(d);
    /* DynamoDB's limit: padded to 409,600 bytes exactly; any larger size to one byte over it */
    static const struct {
        double size;
        size_t want;
    } limits[] = {{409600, 409600}, {409601, 409601}, {1e12, 409601}};
    for (size_t c = 0; c < sizeof limits / sizeof *limits; c++) {
        kp_entity big = {.name = "Big", .size = limits[c].size};
        kp_item it = {0};
        item_set(&it, "PK", KP_VAL_S, "DOC#1");
        item_set(&it, "n", KP_VAL_N, "1000000");
        item_pad(&big, &it);
        assert_int_equal(item_size(&it), limits[c].want);
        item_free(&it);
    }
}

/* DynamoDB's item size rules for the scalars items hold, table-driven (items read from their
 * DynamoDB JSON). */
static void test_item_size_rules(void **state)
{
    (void)state;
    static const struct {
        const char *json;
        size_t size;
    } cases[] = {
        {"{\"PK\":{\"S\":\"abc\"}}", 5},
        {"{\"n\":{\"N\":\"12345\"}}", 1 + 4}, /* 5 digits: 3 bytes + 1 */
        {"{\"n\":{\"N\":\"7\"}}", 1 + 2},
        {"{\"b\":{\"BOOL\":true}}", 2},
        {"{\"ñ\":{\"S\":\"é\"}}", 4},       /* UTF-8 bytes */
        {"{\"n\":{\"N\":\"007\"}}", 1 + 2}, /* leading zeros do not count */
        {"{\"a\":{\"S\":\"x\"},\"bb\":{\"N\":\"10\"}}", 2 + 2 + 2},
        /* numbers as DynamoDB Local counts them against the item limit (measured): base-100
           digit pairs aligned on the decimal point, from the first to the last non-zero pair,
           plus one, plus one when negative; zero one byte */
        {"{\"n\":{\"N\":\"1000000\"}}", 1 + 2},
        {"{\"n\":{\"N\":\"100.5\"}}", 1 + 4},
        {"{\"n\":{\"N\":\"1.05\"}}", 1 + 3},
        {"{\"n\":{\"N\":\"10.5\"}}", 1 + 3},
        {"{\"n\":{\"N\":\"105\"}}", 1 + 3},
        {"{\"n\":{\"N\":\"1050\"}}", 1 + 3},
        {"{\"n\":{\"N\":\"0.05\"}}", 1 + 2},
        {"{\"n\":{\"N\":\"0.001\"}}", 1 + 2},
        {"{\"n\":{\"N\":\"-7\"}}", 1 + 3},
        {"{\"n\":{\"N\":\"-0.5\"}}", 1 + 3},
        {"{\"n\":{\"N\":\"-12345\"}}", 1 + 5},
        {"{\"n\":{\"N\":\"123456789012345678901234567890\"}}", 1 + 16},
        {"{\"n\":{\"N\":\"0\"}}", 1 + 1},
        {"{\"n\":{\"N\":\"1.5E3\"}}", 1 + 2},
        {"{\"n\":{\"N\":\"1.50\"}}", 1 + 3},
        /* an exponent far past DynamoDB's range (found by fuzzing: it overflowed a long) */
        {"{\"n\":{\"N\":\"1e30877777777777777777777777777\"}}", 1 + 2},
        {"{\"n\":{\"N\":\"-1e-30877777777777777777777777777\"}}", 1 + 3},
        {"{\"n\":{\"N\":\"101\"}}", 1 + 3},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        json_t *j = json_loads(cases[c].json, 0, NULL);
        assert_non_null(j);
        kp_item it;
        items_from_json(j, &it);
        if (item_size(&it) != cases[c].size)
            fail_msg("case %zu %s: %zu bytes, expected %zu", c, cases[c].json, item_size(&it), cases[c].size);
        /* and written back as it was read */
        json_t *back = items_json(&it);
        assert_true(json_equal(back, j));
        json_decref(back);
        item_free(&it);
        json_decref(j);
    }
}

/* Entities sharing a partition template land in the same partitions, several items each. */
static void test_partitions_have_data(void **state)
{
    (void)state;
    kp_design *d = load(shop_yaml);
    item_sample sample;
    item_sample_make(d, ITEM_DEFAULT_SEED, false, &sample);
    const kp_item_list *lines = list_of(d, &sample, "Línea");
    const kp_item_list *orders = list_of(d, &sample, "Order");
    size_t max_lines = 0, with_header = 0;
    for (size_t k = 0; k < lines->n; k++) {
        const kp_item *it = &lines->v[k];
        size_t same = 0;
        for (size_t q = 0; q < lines->n; q++)
            same += strcmp(S(&lines->v[q], "PK"), S(it, "PK")) == 0;
        if (same > max_lines)
            max_lines = same;
        for (size_t q = 0; q < orders->n; q++)
            if (strcmp(S(&orders->v[q], "PK"), S(it, "PK")) == 0)
                with_header++;
    }
    assert_true(max_lines >= 3);   /* an order with several lines */
    assert_true(with_header >= 3); /* lines live under real orders */
    const kp_item_list *addr = list_of(d, &sample, "Dirección");
    assert_true(addr->n >= 2);
    assert_true(strncmp(S(&addr->v[0], "SK"), "DIRECCIÓN#", strlen("DIRECCIÓN#")) == 0);
    size_t bad = 0;
    assert_true(util_utf8_valid(S(&addr->v[0], "SK"), strlen(S(&addr->v[0], "SK")), &bad));
    assert_int_equal(list_of(d, &sample, "Tiny")->n, 3); /* count: 3 caps it */
    item_sample_free(&sample);
    design_free(d);
}

static void test_collisions_reported(void **state)
{
    (void)state;
    static const char *yaml =
        "keyplan: 1\nname: c\n"
        "table: { name: Ctbl, pk: PK, sk: SK, billing: on-demand, streams: false, pitr: false }\n"
        "entities:\n"
        "  - { name: A, count: 10, attributes: [id], keys: { PK: \"X#{id}\", SK: \"META\" } }\n"
        "  - { name: B, count: 10, attributes: [id], keys: { PK: \"X#{id}\", SK: \"META\" } }\n"
        "  - { name: C, count: 10, attributes: [id], keys: { PK: \"X#{id}\", SK: \"OTHER\" } }\n";
    kp_design *d = load(yaml);
    item_sample sample;
    item_sample_make(d, 1, false, &sample);
    assert_true(sample.ncoll > 0);
    assert_string_equal(sample.coll[0].entity->name, "B");
    assert_string_equal(sample.coll[0].other->name, "A");
    assert_int_equal(list_of(d, &sample, "B")->n, 0);
    assert_true(list_of(d, &sample, "C")->n > 0);
    item_sample_free(&sample);
    design_free(d);
}

static void test_export_batches(void **state)
{
    (void)state;
    kp_design *d = load(shop_yaml);
    char *err = NULL;
    char *text = items_export(d, &err);
    assert_non_null(text);
    json_t *doc = json_loads(text, 0, NULL);
    assert_non_null(doc);
    size_t total = 0, k;
    json_t *b;
    json_array_foreach(json_object_get(doc, "batches"), k, b)
    {
        json_t *puts = json_object_get(json_object_get(b, "RequestItems"), "Shop");
        assert_true(json_array_size(puts) >= 1 && json_array_size(puts) <= 25);
        assert_non_null(json_object_get(json_object_get(json_array_get(puts, 0), "PutRequest"), "Item"));
        total += json_array_size(puts);
    }
    size_t want = 0;
    const char *name;
    json_t *n;
    json_object_foreach(json_object_get(doc, "items"), name, n) want += (size_t)json_integer_value(n);
    assert_int_equal(total, want);
    assert_true(total > 25); /* several batches */
    json_decref(doc);
    free(text);
    design_free(d);
}

/* (Num's PK is text: a bare number PK beside the others' text PKs is refused by validation, since
 * DynamoDB gives a key attribute one type.) */
static void test_key_types_and_domains(void **state)
{
    (void)state;
    static const char *yaml =
        "keyplan: 1\nname: k\n"
        "table: { name: Ktbl, pk: PK, sk: SK, billing: on-demand, streams: false, pitr: false }\n"
        "indexes:\n  - { name: ByScore, pk: GPK, sk: score }\n"
        "attributes:\n  score: { type: number }\n  n: { type: number }\n"
        "entities:\n"
        "  - { name: User, count: 10, attributes: [username, score], keys: { PK: \"U#{username}\", SK: P, GPK: X } }\n"
        "  - { name: Follow, count: 10, attributes: [followedUsername, followingUsername],\n"
        "      keys: { PK: \"U#{followedUsername}\", SK: \"F#{followingUsername}\" } }\n"
        "  - { name: Num, count: 10, attributes: [n], keys: { PK: \"N#{n}\", SK: \"N#{n}\" } }\n"
        "patterns:\n"
        "  - { id: 1, name: f, entities: [Follow, User], by: [followedUsername],\n"
        "      join: { username: followingUsername }, rate: 1 }\n";
    kp_design *d = load(yaml);
    assert_int_equal(item_key_type(d, "score"), KP_VAL_N);
    assert_int_equal(item_key_type(d, "SK"), KP_VAL_S);
    assert_int_equal(item_key_type(d, "GPK"), KP_VAL_S);
    item_sample sample;
    item_sample_make(d, 1, false, &sample);
    /* joined attributes share their values: every followingUsername is a username */
    const kp_item_list *users = list_of(d, &sample, "User"), *follows = list_of(d, &sample, "Follow");
    size_t hits = 0;
    for (size_t k = 0; k < follows->n; k++)
        for (size_t q = 0; q < users->n; q++)
            hits += strcmp(S(&users->v[q], "username"), S(&follows->v[k], "followingUsername")) == 0;
    assert_true(hits >= follows->n / 2);
    item_sample_free(&sample);
    design_free(d);
}

/* A partition keyed by an enum: the values patterns fix get data first, whatever their place. */
static void test_fixed_values_have_data(void **state)
{
    (void)state;
    static const char *yaml =
        "keyplan: 1\nname: f\n"
        "table: { name: Ftbl, pk: PK, sk: SK, billing: on-demand, streams: false, pitr: false }\n"
        "attributes:\n  status: { type: enum, values: { a: 0.25, b: 0.25, c: 0.25, zz: 0.25 } }\n"
        "  kind: { distinct: 5 }\n"
        "entities:\n"
        "  - { name: O, count: 1000, attributes: [id, status, kind], keys: { PK: \"S#{status}\", SK: \"{id}\" } }\n"
        "patterns:\n"
        "  - { id: 1, name: zz orders, entity: O, by: [\"status=zz\"], rate: 1 }\n"
        "  - { id: 2, name: special, entity: O, by: [status, \"kind=special\"], rate: 1 }\n";
    kp_design *d = load(yaml);
    kp_item_list items = generate(d, design_entity(d, "O"), 8, 1);
    size_t zz = 0, special = 0;
    for (size_t k = 0; k < items.n; k++) {
        zz += strcmp(S(&items.v[k], "PK"), "S#zz") == 0;
        special += strcmp(S(&items.v[k], "kind"), "special") == 0;
    }
    assert_true(zz >= 2);      /* the fixed value's partition holds several items */
    assert_true(special >= 1); /* a fixed string value appears too */
    item_list_free(&items);
    design_free(d);
}

/* The generation context (item_gen: the design's lookups built once, so that exporting many
 * entities stays linear) answers as the plain walks over the design do: the key types of every
 * name, and every entity's items generated one call at a time, also on a design of many
 * entities (exports of 10,000 entities used to take minutes: each entity's items walked every
 * entity and pattern again). */
static void test_context_matches_walks(void **state)
{
    (void)state;
    sbuf y;
    sbuf_init(&y);
    sbuf_add(&y, "keyplan: 1\nname: many\n"
                 "table: { name: Many, pk: PK, sk: SK, billing: on-demand, streams: false, pitr: false }\n"
                 "indexes:\n  - { name: GSI, pk: GPK, sk: GSK }\n"
                 "attributes:\n  n: { type: number }\n  status: { type: enum, values: { a: 0.5, b: 0.5 } }\n"
                 "entities:\n");
    for (int i = 0; i < 1500; i++)
        sbuf_printf(
            &y,
            "  - { name: E%d, attributes: [id%d, Id%d, n, status, ownerId%d], keys: { PK: \"E%d#{id%d}\","
            " SK: \"E%d#{n}\", GPK: \"%s\", GSK: \"{Id%d}\" } }\n",
            i, i, i, (i + 1) % 1500, i, i, i, i % 2 ? "S#{status}" : "N#{n}", i);
    sbuf_add(&y, "patterns:\n");
    for (int i = 0; i < 1500; i += 7)
        sbuf_printf(&y,
                    "  - { id: %d, name: p%d, entities: [E%d, E%d], by: [id%d, \"status=b\"],"
                    " join: { id%d: ownerId%d }, rate: 1 }\n",
                    i + 1, i, i, (i + 1) % 1500, i, (i + 1) % 1500, (i + 1) % 1500);
    const char *texts[] = {shop_yaml, y.s};
    for (size_t t = 0; t < 2; t++) {
        kp_design *d = load(texts[t]);
        item_gen *x = item_gen_new(d);
        for (size_t i = 0; i < d->nentities; i++) {
            const kp_entity *e = &d->entities[i];
            for (size_t k = 0; k < e->nkeys; k++)
                assert_int_equal(item_gen_key_type(x, e->keys[k].attr.s),
                                 item_key_type(d, e->keys[k].attr.s));
            for (size_t k = 0; k < e->nattrs; k++)
                assert_int_equal(item_gen_key_type(x, e->attrs[k].s), item_key_type(d, e->attrs[k].s));
            if (t == 1 && i % 50 != 0)
                continue; /* the plain path walks the design per entity: a sample of them */
            kp_item_list a = {0}, b = generate(d, e, 12, 9);
            item_gen_items(x, e, 12, 9, &a);
            assert_int_equal(a.n, b.n);
            json_t *ja = json_array(), *jb = json_array();
            for (size_t k = 0; k < a.n; k++) {
                json_array_append_new(ja, items_json(&a.v[k]));
                json_array_append_new(jb, items_json(&b.v[k]));
            }
            assert_true(json_equal(ja, jb));
            json_decref(ja);
            json_decref(jb);
            item_list_free(&a);
            item_list_free(&b);
        }
        assert_int_equal(item_gen_key_type(x, "nowhere"), KP_VAL_S);
        if (t == 1) /* a declared number used bare in an index key's template */
            assert_int_equal(item_gen_key_type(x, "GPK"), KP_VAL_S);
        item_gen_free(x);
        if (t == 1) {
            /* the whole sample: every entity has items, and the ids name their own entity */
            item_sample sample;
            item_sample_make(d, ITEM_DEFAULT_SEED, false, &sample);
            assert_int_equal(sample.n, 1500);
            for (size_t i = 0; i < sample.n; i++)
                assert_true(sample.lists[i].n > 0);
            assert_string_equal(S(&sample.lists[3].v[0], "PK"), "E3#id3-001");
            item_sample_free(&sample);
        }
        design_free(d);
    }
    sbuf_free(&y);
}

static void test_default_counts(void **state)
{
    (void)state;
    static const char *yaml =
        "keyplan: 1\nname: n\n"
        "table: { name: Ntbl, pk: PK, sk: SK, billing: on-demand, streams: false, pitr: false }\n"
        "attributes:\n  e8: { type: enum, values: { a: 0.125, b: 0.125, c: 0.125, d: 0.125, e: 0.125, f: 0.125,"
        " g: 0.125, h: 0.125 } }\n"
        "entities:\n"
        "  - { name: Unsized, attributes: [id], keys: { PK: \"U#{id}\", SK: X } }\n"
        "  - { name: Empty, count: 0, attributes: [id], keys: { PK: \"E#{id}\", SK: X } }\n"
        "  - { name: Few, count: 3, attributes: [id], keys: { PK: \"F#{id}\", SK: X } }\n"
        "  - { name: Many, count: 1000000, attributes: [id], keys: { PK: \"M#{id}\", SK: X } }\n"
        "  - { name: Enum8, count: 1000, attributes: [id, e8], keys: { PK: \"G#{id}\", SK: X } }\n";
    static const struct {
        const char *entity;
        size_t n;
    } cases[] = {{"Unsized", 12}, {"Empty", 12}, {"Few", 3}, {"Many", 12}, {"Enum8", 16}};
    kp_design *d = load(yaml);
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        size_t n = item_default_count(d, design_entity(d, cases[c].entity));
        if (n != cases[c].n)
            fail_msg("%s: %zu items, expected %zu", cases[c].entity, n, cases[c].n);
    }
    design_free(d);
}

/* A join's sample data meets: every post's authorId (in its sort key too) names a loaded user,
 * a number as the user's id is, the posts still unique by key; so verify's chain runs. */
static void test_linked_joins(void **state)
{
    (void)state;
    static const char *const yaml =
        "keyplan: 1\nname: j\ntable: { name: Joins, pk: PK, sk: SK, billing: on-demand, streams: false, pitr: false }\n"
        "attributes:\n  userId: { type: number, distinct: 1000 }\n  tag: { distinct: 10 }\n"
        "entities:\n"
        "  - { name: User, count: 1000, size: 300, attributes: [userId], keys: { PK: \"USER#{userId}\", SK: P } }\n"
        "  - { name: Post, count: 100000, size: 500, attributes: [tag, authorId, n],\n"
        "      keys: { PK: \"TAG#{tag}\", SK: \"POST#{n}#{authorId}\" } }\n"
        "patterns:\n"
        "  - { id: 1, name: p, entities: [Post, User], by: [tag], join: { userId: authorId } }\n";
    kp_design *d = load(yaml);
    item_sample sample;
    item_sample_make(d, ITEM_DEFAULT_SEED, true, &sample);
    const kp_item_list *users = list_of(d, &sample, "User"), *posts = list_of(d, &sample, "Post");
    assert_true(posts->n >= 4 && users->n >= 4);
    for (size_t i = 0; i < posts->n; i++) {
        const kp_value *a = item_get(&posts->v[i], "authorId");
        assert_non_null(a);
        assert_int_equal(a->type, KP_VAL_N);
        bool found = false;
        for (size_t k = 0; k < users->n && !found; k++)
            found = kp_value_cmp(item_get(&users->v[k], "userId"), a) == 0;
        if (!found)
            fail_msg("post %zu's authorId %s names no user", i, a->text);
        /* the key that holds it was rendered again */
        char *want = xasprintf("#%s", a->text);
        const char *sk = item_text(&posts->v[i], "SK");
        assert_non_null(strstr(sk, want));
        free(want);
        char *key = item_primary_key(d, &posts->v[i]);
        for (size_t k = 0; k < i; k++) {
            char *other = item_primary_key(d, &posts->v[k]);
            assert_string_not_equal(other, key);
            free(other);
        }
        free(key);
    }
    assert_int_equal(sample.ncoll, 0);
    item_sample_free(&sample);
    design_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_keys_render_and_unique),
        cmocka_unit_test(test_values_per_type),
        cmocka_unit_test(test_sparse_condition),
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_item_size_rules),
        cmocka_unit_test(test_linked_joins),
        cmocka_unit_test(test_partitions_have_data),
        cmocka_unit_test(test_collisions_reported),
        cmocka_unit_test(test_export_batches),
        cmocka_unit_test(test_key_types_and_domains),
        cmocka_unit_test(test_fixed_values_have_data),
        cmocka_unit_test(test_default_counts),
        cmocka_unit_test(test_context_matches_walks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
