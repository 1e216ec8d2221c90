/* test_resolve.c - table-driven tests of the resolver and the per-pattern capacity
 *: one design holding an example of every rule, one row per pattern with the plan,
 * index, key condition, values, filter, order and request count it must give; then CloudShop's
 * final and first designs from samples/. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analysis_stages.h"
#include "capacity.h"
#include "design_io.h"
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *DESIGN =
    "keyplan: 1\n"
    "name: resolver test\n"
    "table: { name: Tbl, pk: PK, sk: SK, billing: on-demand, streams: false, pitr: false }\n"
    "indexes:\n"
    "  - { name: GSI1, pk: GSI1PK, sk: GSI1SK, projection: include, include: [orderId, total] }\n"
    "  - { name: GSI2, pk: GSI2PK, sk: GSI2SK, projection: keys }\n"
    "  - { name: ByCustomer, pk: customerId, sk: orderDate }\n"
    "  - { name: ByTotal, type: lsi, pk: PK, sk: total }\n"
    "attributes:\n"
    "  customerId: { distinct: 1000 }\n"
    "  orderId:    { distinct: 1000000 }\n"
    "  orderDate:  { type: date, distinct: 365 }\n"
    "  lineNo:     { type: number, format: \"03\" }\n"
    "  total:      { type: number }\n"
    "  tipo:       { type: enum, values: { casa: 0.5, trabajo: 0.5 } }\n"
    "  status:     { type: enum, values: { pending-shipment: 0.1, shipped: 0.3, delivered: 0.6 } }\n"
    "  priority:   { type: enum, values: { low: 0.5, mid: 0.3, high: 0.2 } }\n"
    "  shard:      { type: shard, count: 10 }\n"
    "  day:        { type: date, distinct: 30 }\n"
    "  username:   { distinct: 10000 }\n"
    "  followedUsername: { distinct: 10000 }\n"
    "  followingUsername: { distinct: 10000 }\n"
    "  ticketId:   { distinct: 50000 }\n"
    "  category:   { distinct: 100 }\n"
    "  price:      { type: number, distinct: 500 }\n"
    "  rank:       { type: number, distinct: 10000 }\n"
    "  slot:       { type: number, distinct: 5000, format: \"03\" }\n"
    "  aisle:      { distinct: 10 }\n"
    "  promoCode:  { distinct: 30000 }\n"
    "  player:     { distinct: 100 }\n"
    "  points:     { type: number, distinct: 2000 }\n"
    "  promoId:    { distinct: 100000 }\n"
    "entities:\n"
    "  - name: Customer\n"
    "    count: 1000\n"
    "    size: 1500\n"
    "    attributes: [customerId, email]\n"
    "    keys: { PK: \"CLIENTE#{customerId}\", SK: \"PERFIL\" }\n"
    "  - name: Address\n"
    "    count: 2000\n"
    "    size: 300\n"
    "    attributes: [customerId, tipo]\n"
    "    keys: { PK: \"CLIENTE#{customerId}\", SK: \"DIRECCI\xc3\x93N#{tipo}\" }\n"
    "  - name: OrderSummary\n"
    "    count: 1000000\n"
    "    size: 200\n"
    "    attributes: [customerId, orderId, orderDate, status, total, note]\n"
    "    keys: { PK: \"CLIENTE#{customerId}\", SK: \"PEDIDO#{orderDate}#{orderId}\" }\n"
    "  - name: Order\n"
    "    count: 1000000\n"
    "    size: 1000\n"
    "    attributes: [orderId, customerId, orderDate, status, total, carrier]\n"
    "    keys: { PK: \"PEDIDO#{orderId}\", SK: \"CABECERA\", GSI1PK: \"ESTADO#{status}\",\n"
    "            GSI1SK: \"{orderDate}#{orderId}\", GSI2PK: \"FECHA#{orderDate}\", GSI2SK: \"{orderId}\" }\n"
    "    sparse: { GSI1PK: \"status = pending-shipment\" }\n"
    "  - name: OrderLine\n"
    "    count: 3000000\n"
    "    size: 400\n"
    "    attributes: [orderId, l\xc3\xadnea]\n"
    "    keys: { PK: \"PEDIDO#{orderId}\", SK: \"LINEA#{l\xc3\xadnea:03}\" }\n"
    "  - name: Event\n"
    "    count: 300000\n"
    "    size: 100\n"
    "    attributes: [day, shard, eventId]\n"
    "    keys: { PK: \"EVT#{day}#{shard}\", SK: \"{eventId}\" }\n"
    "  - name: Ticket\n"
    "    count: 50000\n"
    "    size: 500\n"
    "    attributes: [ticketId, priority]\n"
    "    keys: { PK: \"Q#{priority}\", SK: \"{ticketId}\" }\n"
    "  - name: Config\n"
    "    count: 50\n"
    "    size: 100\n"
    "    attributes: [name]\n"
    "    keys: { PK: \"CONFIG\", SK: \"{name}\" }\n"
    "  - name: Follow\n"
    "    count: 500000\n"
    "    size: 100\n"
    "    attributes: [followedUsername, followingUsername]\n"
    "    keys: { PK: \"FOLLOWED#{followedUsername}\", SK: \"FOLLOWING#{followingUsername}\" }\n"
    "  - name: Note\n"
    "    count: 5000\n"
    "    size: 100\n"
    "    attributes: [noteOwner, noteId]\n"
    "    keys: { PK: \"NOTE#{noteOwner}\", SK: \"{noteId}\" }\n"
    "  - name: User\n"
    "    count: 10000\n"
    "    size: 800\n"
    "    attributes: [username]\n"
    "    keys: { PK: \"USER#{username}\", SK: \"PROFILE\" }\n"
    /* numbers inside string keys: price unpadded, rank padded wide enough, slot padded too narrow */
    "  - name: Product\n"
    "    count: 10000\n"
    "    size: 300\n"
    "    attributes: [category, price, rank, slot]\n"
    "    keys: { PK: \"CAT#{category}\", SK: \"P#{price}\", GSI2PK: \"RANK#{category}\", GSI2SK: \"R#{rank:05}\" }\n"
    "  - name: Shelf\n"
    "    count: 10000\n"
    "    size: 300\n"
    "    attributes: [aisle, slot]\n"
    "    keys: { PK: \"AISLE#{aisle}\", SK: \"S#{slot}\" }\n"
    /* a GSI1 partition template but no GSI1SK: not in GSI1 */
    "  - name: Draft\n"
    "    count: 1000\n"
    "    size: 300\n"
    "    attributes: [draftId, status]\n"
    "    keys: { PK: \"DRAFT#{draftId}\", SK: \"D\", GSI1PK: \"ESTADO#{status}\" }\n"
    /* sparse rules on both GSI2 key attributes, set together (the default): one membership */
    "  - name: Promo\n"
    "    count: 100000\n"
    "    size: 300\n"
    "    attributes: [promoId, promoCode]\n"
    "    keys: { PK: \"PROMO#{promoId}\", SK: \"P\", GSI2PK: \"CODE#{promoCode}\", GSI2SK: \"{promoId}\" }\n"
    "    sparse: { GSI2PK: 0.3, GSI2SK: 0.3 }\n"
    "patterns:\n"
    /* 1 get */
    "  - { id: get, name: order by id, entity: Order, by: [orderId], rate: 100, avg: 50, latency: 20 }\n"
    /* 2 newest first, limit pushed */
    "  - { id: desc, name: orders newest first, entity: OrderSummary, by: [customerId],\n"
    "      order: orderDate desc, limit: 20, rate: 10 }\n"
    /* 3 between dates */
    "  - { id: between, name: orders between dates, entity: OrderSummary, by: [customerId], range: orderDate }\n"
    /* 4 begins_with LINEA#, UTF-8 placeholder with an inline format */
    "  - { id: lines, name: lines, entity: OrderLine, by: [orderId] }\n"
    /* 5 sparse GSI matched by a fixed value */
    "  - { id: pending, name: pending, entity: Order, by: [\"status=pending-shipment\"], order: orderDate asc,\n"
    "      limit: 50, returns: [orderId, orderDate, status, total] }\n"
    /* 6 sparse GSI does not hold delivered orders: nothing serves it */
    "  - { id: delivered, name: delivered, entity: Order, by: [\"status=delivered\"] }\n"
    /* 7 order not served: app sort, limit not pushed */
    "  - { id: appsort, name: by total, entity: OrderSummary, by: [customerId], order: status desc, limit: 5 }\n"
    /* 8 filter on a non-key attribute */
    "  - { id: filter, name: filtered, entity: OrderSummary, by: [customerId], filter: [note] }\n"
    /* 9 mixed collection on ByCustomer: OrderSummary items share Order's partitions */
    "  - { id: mixed, name: mixed, entity: Order, by: [customerId], range: orderDate }\n"
    /* 10 the same, asking for both entities: no filter */
    "  - { id: both, name: both, entities: [Order, OrderSummary], by: [customerId] }\n"
    /* 11 screen in one query on the base table */
    "  - { id: screen, name: screen, entities: [Customer, Address, OrderSummary], by: [customerId] }\n"
    /* 12 entities in different partitions: one request each */
    "  - { id: apart, name: apart, entities: [Customer, OrderLine], by: [customerId, orderId] }\n"
    /* 13 strong read refused on a GSI */
    "  - { id: strong, name: strong, entity: Order, by: [\"status=pending-shipment\"], consistency: strong,\n"
    "      why: test }\n"
    /* 14 strong read on an LSI is fine */
    "  - { id: lsi, name: lsi, entity: OrderSummary, by: [customerId], range: total, consistency: strong,\n"
    "      why: test }\n"
    /* 15 shard fan-out */
    "  - { id: shards, name: events of a day, entity: Event, by: [day] }\n"
    /* 16 enum fan-out */
    "  - { id: enumfan, name: ticket by id, entity: Ticket, by: [ticketId] }\n"
    /* 17 chain */
    "  - { id: chain, name: followers, entities: [Follow, User], by: [followedUsername],\n"
    "      join: { username: followingUsername } }\n"
    /* 18 scan */
    "  - { id: scan, name: by carrier, entity: Order, by: [carrier], latency: 20 }\n"
    /* 19 constant partition */
    "  - { id: const, name: all config, entity: Config }\n"
    /* 20 covered, 21 outside */
    "  - { id: covered, name: covered, entity: OrderSummary, by: [customerId], covered_by: desc }\n"
    "  - { id: outside, name: search, needs: search, served_by: search-index }\n"
    /* 22 GSI exact key: still a query */
    "  - { id: gsiexact, name: gsi exact, entity: Order, by: [orderDate, orderId], returns: [orderId] }\n"
    /* 23 day close on GSI2 */
    "  - { id: day, name: day, entity: Order, by: [orderDate], returns: [orderId, orderDate] }\n"
    /* 24 unknown distribution of the partition placeholder */
    "  - { id: unknown, name: notes, entity: Note, by: [noteOwner] }\n"
    /* 25 a by attribute the key does not use: FilterExpression with the fixed value */
    "  - { id: byfilter, name: shipped of a customer, entity: OrderSummary, by: [customerId, \"status=shipped\"] }\n"
    /* DynamoDB's rules: projections (a fetch; a filter the index does not project) */
    "  - { id: fetch, name: pending (whole items), entity: Order, by: [\"status=pending-shipment\"], limit: 50 }\n"
    "  - { id: dayfetch, name: day (whole items), entity: Order, by: [orderDate] }\n"
    "  - { id: projfilter, name: pending by carrier, entity: Order, by: [\"status=pending-shipment\"],\n"
    "      filter: [carrier], returns: [orderId] }\n"
    /* numbers inside string keys sort as text */
    "  - { id: textorder, name: cheapest, entity: Product, by: [category], order: price asc, limit: 10 }\n"
    "  - { id: textrange, name: price band, entity: Product, by: [category], range: price }\n"
    "  - { id: padded, name: top ranked, entity: Product, by: [category], order: rank asc, limit: 10,\n"
    "      returns: [rank, category] }\n"
    "  - { id: narrow, name: shelf slots, entity: Shelf, by: [aisle], order: slot asc, limit: 10 }\n"
    /* not on an index; sparse pair set together */
    "  - { id: draft, name: drafts of a status, entity: Draft, by: [\"status=shipped\"] }\n"
    "  - { id: promo, name: promo by code, entity: Promo, by: [promoCode], returns: [promoId, promoCode] }\n"
    /* transactional reads: TransactGetItems of Gets, else refused */
    "  - { id: txget, name: order by id, entity: Order, by: [orderId], consistency: transactional, why: test }\n"
    "  - { id: txquery, name: orders of a customer, entity: OrderSummary, by: [customerId],\n"
    "      consistency: transactional, why: test }\n"
    "  - { id: txscreen, name: customer and order, entities: [Customer, Order], by: [customerId, orderId],\n"
    "      consistency: transactional, why: test }\n"
    /* writes */
    "  - { id: put, name: put, kind: write, entity: Order, rate: 10 }\n"
    "  - { id: upd, name: upd, kind: write, op: update, entity: Order, by: [orderId], changes: [status], rate: 10 }\n"
    "  - { id: updfind, name: updfind, kind: write, op: update, entity: Order, by: [\"status=pending-shipment\"],\n"
    "      changes: [status] }\n"
    "  - { id: tx, name: tx, kind: write, op: transact, entities: [Order, OrderLine], items: 4, rate: 2 }\n"
    "  - { id: delete, name: delete, kind: write, op: delete, entity: OrderLine, by: [orderId, l\xc3\xadnea] }\n"
    /* the update changes orderDate, in OrderSummary's sort key: Delete + Put in a transaction */
    "  - { id: keymove, name: redate, kind: write, op: update, entity: OrderSummary,\n"
    "      by: [customerId, orderDate, orderId], changes: [orderDate], rate: 1 }\n";

/* expected values: ":pk=CLIENTE#{customerId}" each */
typedef struct rcase {
    const char *id;
    kp_plan plan;
    double requests;
    const char *index; /* NULL: don't check */
    const char *cond;  /* NULL: don't check */
    const char *values[4];
    int filter;       /* -1 don't check */
    int app_sort;     /* -1 don't check */
    const char *warn; /* substring of some warning, or NULL */
} rcase;

static const rcase cases[] = {
    {"get",
     KP_PLAN_GET,
     1,
     "table",
     "PK = :pk AND SK = :sk",
     {":pk=PEDIDO#{orderId}", ":sk=CABECERA"},
     0,
     0,
     NULL},
    {"desc",
     KP_PLAN_QUERY,
     1,
     "table",
     "PK = :pk AND begins_with(SK, :sk)",
     {":pk=CLIENTE#{customerId}", ":sk=PEDIDO#"},
     0,
     0,
     NULL},
    {"between",
     KP_PLAN_QUERY,
     1,
     "table",
     "PK = :pk AND SK BETWEEN :sk1 AND :sk2",
     {":pk=CLIENTE#{customerId}", ":sk1=PEDIDO#{orderDate}", ":sk2=PEDIDO#{orderDate}~"},
     0,
     0,
     NULL},
    {"lines",
     KP_PLAN_QUERY,
     1,
     "table",
     "PK = :pk AND begins_with(SK, :sk)",
     {":pk=PEDIDO#{orderId}", ":sk=LINEA#"},
     0,
     0,
     NULL},
    {"pending", KP_PLAN_QUERY, 1, "GSI1", "GSI1PK = :pk", {":pk=ESTADO#pending-shipment"}, 0, 0, NULL},
    {"delivered", KP_PLAN_SCAN, -1, "table", "", {NULL}, 1, -1, "Scan"},
    {"appsort",
     KP_PLAN_QUERY,
     1,
     "table",
     "PK = :pk AND begins_with(SK, :sk)",
     {":pk=CLIENTE#{customerId}", ":sk=PEDIDO#"},
     -1,
     1,
     "the app sorts"},
    {"filter", KP_PLAN_QUERY, 1, "table", NULL, {NULL}, 1, 0, "FilterExpression on note"},
    /* a customer's 1,000 orders and 1,000 summaries read 1.1 MB: a Query returns at most 1 MB,
       so the read is 2 requests (pages) */
    {"mixed",
     KP_PLAN_QUERY,
     2,
     "ByCustomer",
     "customerId = :pk AND orderDate BETWEEN :sk1 AND :sk2",
     {":pk={customerId}", ":sk1={orderDate}"},
     1,
     0,
     "OrderSummary"},
    /* 1,000 orders and 1,000 summaries, 1.1 MB: two 1 MB pages, two requests */
    {"both", KP_PLAN_QUERY, 2, "ByCustomer", "customerId = :pk", {":pk={customerId}"}, 0, -1, NULL},
    {"screen", KP_PLAN_QUERY, 1, "table", "PK = :pk", {":pk=CLIENTE#{customerId}"}, 0, -1, NULL},
    {"apart", KP_PLAN_MULTI, 2, "table", NULL, {NULL}, 0, -1, "2 requests"},
    {"strong", KP_PLAN_SCAN, -1, "table", "", {NULL}, -1, -1, "strong read refused"},
    {"lsi",
     KP_PLAN_QUERY,
     1,
     "ByTotal",
     /* `total` is one of DynamoDB's reserved words: the key condition names it through a
        placeholder, as DynamoDB must receive it */
     "PK = :pk AND #total BETWEEN :sk1 AND :sk2",
     {":pk=CLIENTE#{customerId}", ":sk1={total}"},
     0,
     0,
     NULL},
    {"shards", KP_PLAN_MULTI, 10, "table", "PK = :pk", {":pk=EVT#{day}#{shard}"}, 0, 0, "fan-out"},
    {"enumfan",
     KP_PLAN_MULTI,
     3,
     "table",
     "PK = :pk AND SK = :sk",
     {":pk=Q#{priority}", ":sk={ticketId}"},
     0,
     0,
     "fan-out"},
    {"chain",
     KP_PLAN_MULTI,
     2,
     "table",
     "PK = :pk AND begins_with(SK, :sk)",
     {":pk=FOLLOWED#{followedUsername}", ":sk=FOLLOWING#"},
     0,
     -1,
     NULL},
    {"scan", KP_PLAN_SCAN, -1, "table", "", {NULL}, 1, -1, "Scan"},
    {"const", KP_PLAN_QUERY, 1, "table", "PK = :pk", {":pk=CONFIG"}, 0, 0, "hot key"},
    {"covered", KP_PLAN_COVERED, 0, NULL, "", {NULL}, 0, 0, NULL},
    {"outside", KP_PLAN_OUTSIDE, 0, NULL, "", {NULL}, 0, 0, NULL},
    {"gsiexact",
     KP_PLAN_QUERY,
     1,
     "GSI2",
     "GSI2PK = :pk AND GSI2SK = :sk",
     {":pk=FECHA#{orderDate}", ":sk={orderId}"},
     0,
     0,
     NULL},
    {"day", KP_PLAN_QUERY, 1, "GSI2", "GSI2PK = :pk", {":pk=FECHA#{orderDate}"}, 0, 0, NULL},
    {"unknown",
     KP_PLAN_QUERY,
     1,
     "table",
     "PK = :pk",
     {":pk=NOTE#{noteOwner}"},
     0,
     0,
     "unknown distribution of noteOwner"},
    {"byfilter",
     KP_PLAN_QUERY,
     1,
     "table",
     "PK = :pk AND begins_with(SK, :sk)",
     {":pk=CLIENTE#{customerId}"},
     1,
     0,
     "FilterExpression on status"},
    {"put", KP_PLAN_WRITE, 1, "table", "", {NULL}, 0, 0, NULL},
    {"upd", KP_PLAN_WRITE, 1, "table", "", {NULL}, 0, 0, NULL},
    {"updfind",
     KP_PLAN_MULTI,
     -1,
     "GSI1",
     "GSI1PK = :pk",
     {":pk=ESTADO#pending-shipment"},
     -1,
     -1,
     "find, then write"},
    {"tx", KP_PLAN_TRANSACT, 1, "table", "", {NULL}, 0, 0, NULL},
    {"fetch", KP_PLAN_MULTI, 2, "GSI1", "GSI1PK = :pk", {":pk=ESTADO#pending-shipment"}, 0, 0, "fetched"},
    {"dayfetch", KP_PLAN_MULTI, -1, "GSI2", "GSI2PK = :pk", {":pk=FECHA#{orderDate}"}, 0, 0, "fetched"},
    {"projfilter", KP_PLAN_SCAN, -1, "table", "", {NULL}, 1, -1, "Scan"},
    {"textorder",
     KP_PLAN_QUERY,
     1,
     "table",
     "PK = :pk AND begins_with(SK, :sk)",
     {":pk=CAT#{category}"},
     0,
     1,
     "the app sorts"},
    {"textrange", KP_PLAN_QUERY, 1, "table", "PK = :pk AND begins_with(SK, :sk)", {":sk=P#"}, 1, 0, NULL},
    {"padded", KP_PLAN_QUERY, 1, "GSI2", "GSI2PK = :pk AND begins_with(GSI2SK, :sk)", {":sk=R#"}, 0, 0, NULL},
    {"narrow",
     KP_PLAN_QUERY,
     1,
     "table",
     "PK = :pk AND begins_with(SK, :sk)",
     {":sk=S#"},
     0,
     1,
     "the app sorts"},
    {"draft", KP_PLAN_SCAN, -1, "table", "", {NULL}, 1, -1, "Scan"},
    {"promo", KP_PLAN_QUERY, 1, "GSI2", "GSI2PK = :pk", {":pk=CODE#{promoCode}"}, 0, 0, NULL},
    {"txget", KP_PLAN_GET, 1, "table", "PK = :pk AND SK = :sk", {":pk=PEDIDO#{orderId}"}, 0, 0, NULL},
    {"txquery",
     KP_PLAN_QUERY,
     1,
     "table",
     "PK = :pk AND begins_with(SK, :sk)",
     {NULL},
     0,
     0,
     "transactional read refused"},
    {"txscreen", KP_PLAN_GET, 1, "table", "PK = :pk AND SK = :sk", {NULL}, -1, -1, NULL},
    {"keymove", KP_PLAN_TRANSACT, 1, "table", "", {NULL}, 0, 0, "Delete + Put"},
    {"delete", KP_PLAN_WRITE, 1, "table", "", {NULL}, 0, 0, NULL},
};

static kp_design *load_text(const char *text, const char *name)
{
    kp_design *d = ts_load_text(text, name);
    if (!d)
        fail_msg("design %s does not load", name);
    return d;
}

static kp_design *load_sample(const char *rel)
{
    char *path = ts_source_path(rel);
    char *text = ts_read_file(path, NULL);
    if (!text)
        fail_msg("cannot read %s", path);
    kp_design *d = load_text(text, rel);
    free(text);
    free(path);
    return d;
}

typedef struct fixture {
    kp_design *d;
    kp_analysis a;
} fixture;

static fixture *resolve(kp_design *d)
{
    fixture *f = calloc(1, sizeof *f);
    f->d = d;
    f->a.design = d;
    stage_resolve(&f->a);
    return f;
}

static void fixture_free(fixture *f)
{
    stage_resolve_free(&f->a);
    design_free(f->d);
    free(f);
}

static const kp_pattern_result *result_of(const fixture *f, const char *id)
{
    for (size_t i = 0; i < f->a.npatterns; i++)
        if (strcmp(f->a.patterns[i].pattern->id, id) == 0)
            return &f->a.patterns[i];
    fail_msg("no pattern %s", id);
    return NULL;
}

static bool has_warning(const kp_pattern_result *r, const char *sub)
{
    for (size_t i = 0; i < r->nwarnings; i++)
        if (strstr(r->warnings[i], sub))
            return true;
    return false;
}

static void dump(const kp_pattern_result *r)
{
    print_message("  plan %s requests %g index %s cond '%s' filter %d app_sort %d rcu %g items %g\n",
                  kp_plan_word(r->plan), r->requests, r->index_name, r->key_condition, r->filter, r->app_sort,
                  r->rcu_per_call, r->items_per_call);
    for (size_t i = 0; i < r->nvalues; i++)
        print_message("  value %s = %s\n", r->values[i].name, r->values[i].value);
    for (size_t i = 0; i < r->nwarnings; i++)
        print_message("  warning: %s\n", r->warnings[i]);
}

static int setup(void **state)
{
    *state = resolve(load_text(DESIGN, "resolve.yaml"));
    return 0;
}

static int teardown(void **state)
{
    fixture_free(*state);
    return 0;
}

static void test_rules(void **state)
{
    const fixture *f = *state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const rcase *c = &cases[i];
        const kp_pattern_result *r = result_of(f, c->id);
        bool ok = r->plan == c->plan && (c->requests < 0 || fabs(r->requests - c->requests) < 1e-9) &&
                  (!c->index || strcmp(r->index_name, c->index) == 0) &&
                  (!c->cond || strcmp(r->key_condition, c->cond) == 0) &&
                  (c->filter < 0 || r->filter == (c->filter == 1)) &&
                  (c->app_sort < 0 || r->app_sort == (c->app_sort == 1)) &&
                  (!c->warn || has_warning(r, c->warn));
        for (size_t k = 0; ok && k < 4 && c->values[k]; k++) {
            const char *eq = strchr(c->values[k], '=');
            size_t nl = (size_t)(eq - c->values[k]);
            bool found = false;
            for (size_t v = 0; v < r->nvalues; v++)
                if (strlen(r->values[v].name) == nl && strncmp(r->values[v].name, c->values[k], nl) == 0)
                    found = strcmp(r->values[v].value, eq + 1) == 0;
            ok = found;
        }
        if (!ok) {
            dump(r);
            fail_msg("pattern %s: expected plan %s, requests %g, index %s, condition '%s'", c->id,
                     kp_plan_word(c->plan), c->requests, c->index ? c->index : "-", c->cond ? c->cond : "-");
        }
    }
}

static void test_steps(void **state)
{
    const fixture *f = *state;
    /* a GetItem step carries the full key */
    const kp_pattern_result *r = result_of(f, "get");
    assert_int_equal(r->nsteps, 1);
    assert_int_equal(r->steps[0].op, KP_OP_GETITEM);
    assert_int_equal(r->steps[0].nvalues, 2);
    /* newest first: ScanIndexForward false, limit pushed */
    r = result_of(f, "desc");
    assert_int_equal(r->steps[0].op, KP_OP_QUERY);
    assert_false(r->steps[0].forward);
    assert_true(r->limit_pushed);
    assert_true(fabs(r->steps[0].limit - 20) < 1e-9);
    assert_true(fabs(r->items_per_call - 20) < 1e-9);
    /* ascending order on the sparse GSI */
    r = result_of(f, "pending");
    assert_true(r->steps[0].forward);
    assert_true(fabs(r->steps[0].limit - 50) < 1e-9);
    /* app sort: limit not pushed, the whole collection (1,000,000 / 1,000) read */
    r = result_of(f, "appsort");
    assert_false(r->limit_pushed);
    assert_true(isnan(r->steps[0].limit));
    assert_true(fabs(r->items_per_call - 1000) < 1e-6);
    assert_true(has_warning(r, "limit 5 not pushed"));
    /* a Query's filter step has its FilterExpression and values */
    r = result_of(f, "filter");
    assert_non_null(r->steps[0].filter);
    assert_non_null(strstr(r->steps[0].filter, "note = :note"));
    /* a Scan filters on by */
    r = result_of(f, "scan");
    assert_int_equal(r->steps[0].op, KP_OP_SCAN);
    assert_non_null(r->steps[0].filter);
    assert_non_null(strstr(r->steps[0].filter, "carrier = :carrier"));
    assert_string_equal(r->key_condition, "");
    assert_true(r->requests >= 1);
    /* the chain: Query then BatchGetItem */
    r = result_of(f, "chain");
    assert_int_equal(r->nsteps, 2);
    assert_int_equal(r->steps[0].op, KP_OP_QUERY);
    assert_int_equal(r->steps[1].op, KP_OP_BATCHGET);
    /* 500,000 follows / 10,000 users = 50 followers -> one batch of 50 */
    assert_true(fabs(r->steps[1].items - 50) < 1e-6);
    /* unknown distinct: the documented default collection */
    r = result_of(f, "unknown");
    assert_true(fabs(r->items_per_call - 10) < 1e-9);
    /* the filter on a fixed by value carries it */
    r = result_of(f, "byfilter");
    assert_non_null(r->steps[0].filter);
    assert_string_equal(r->steps[0].filter, "#status = :status"); /* status is a reserved word */
    assert_int_equal(r->steps[0].nnames, 1);
    assert_string_equal(r->steps[0].names[0].alias, "#status");
    assert_string_equal(r->steps[0].names[0].name, "status");
    bool fixed = false;
    for (size_t i = 0; i < r->steps[0].nvalues; i++)
        if (strcmp(r->steps[0].values[i].name, ":status") == 0)
            fixed = strcmp(r->steps[0].values[i].value, "shipped") == 0;
    assert_true(fixed);
    /* a scan is one request per 1 MB page of the whole table */
    r = result_of(f, "scan");
    double bytes = 0, items = 0;
    for (size_t i = 0; i < f->d->nentities; i++) {
        bytes += f->d->entities[i].count * f->d->entities[i].size;
        items += f->d->entities[i].count;
    }
    assert_true(fabs(r->requests - ceil(bytes / 1048576.0)) < 1e-9);
    assert_true(fabs(r->items_per_call - items) < 1e-6);
    assert_true(fabs(r->rcu_per_call - ceil(bytes / 4096.0) * 0.5) < 1e-6);
    /* the fan-out step counts its requests */
    r = result_of(f, "shards");
    assert_true(fabs(r->steps[0].count - 10) < 1e-9);
    /* writes: update with the full key = UpdateItem with key values; find-then-write = Query + update */
    r = result_of(f, "upd");
    assert_int_equal(r->steps[0].op, KP_OP_UPDATEITEM);
    assert_int_equal(r->steps[0].nvalues, 2);
    r = result_of(f, "updfind");
    assert_int_equal(r->steps[0].op, KP_OP_QUERY);
    assert_int_equal(r->steps[r->nsteps - 1].op, KP_OP_UPDATEITEM);
    r = result_of(f, "tx");
    assert_int_equal(r->steps[0].op, KP_OP_TRANSACTWRITE);
    /* UTF-8 placeholder with a format kept in the delete key */
    r = result_of(f, "delete");
    assert_int_equal(r->steps[0].op, KP_OP_DELETEITEM);
    assert_string_equal(r->steps[0].values[1].value, "LINEA#{l\xc3\xadnea:03}");
}

static void test_capacity_per_pattern(void **state)
{
    const fixture *f = *state;
    /* GetItem of a 1,000 B item, eventual: 0.5; at 100/s peak, 50/s average */
    const kp_pattern_result *r = result_of(f, "get");
    assert_true(fabs(r->rcu_per_call - 0.5) < 1e-9);
    assert_true(fabs(r->rcu_per_s - 50) < 1e-9);
    assert_true(fabs(r->rcu_per_s_avg - 25) < 1e-9);
    assert_true(r->latency_ok);
    /* 20 summaries of 200 B = 4,000 B: one unit, 0.5 eventual */
    r = result_of(f, "desc");
    assert_true(fabs(r->rcu_per_call - 0.5) < 1e-9);
    /* lines: 3,000,000 / 1,000,000 orders = 3 lines of 400 B */
    r = result_of(f, "lines");
    assert_true(fabs(r->items_per_call - 3) < 1e-6);
    /* strong on the LSI costs twice eventual: 1,000 summaries x 200 B = 200,000 B -> 49 units */
    r = result_of(f, "lsi");
    assert_true(fabs(r->rcu_per_call - 49) < 1e-9);
    /* filter read amplification never lowers the items read */
    const kp_pattern_result *plain = result_of(f, "between"), *filtered = result_of(f, "filter");
    assert_true(filtered->items_per_call >= plain->items_per_call - 1e-9);
    /* the mixed collection reads the other entity's items too */
    r = result_of(f, "mixed");
    const kp_pattern_result *both = result_of(f, "both");
    assert_true(r->items_per_call > 1000 - 1e-6);
    assert_true(fabs(both->items_per_call - r->items_per_call) < 1e-6);
    /* scan: the whole table, far above a 20 ms target */
    r = result_of(f, "scan");
    assert_false(r->latency_ok);
    assert_true(r->latency_ms > 1000);
    /* writes: Order 1,000 B = 1 WCU on the table (no LSI: Order has total -> ByTotal holds it: +1) */
    r = result_of(f, "put");
    double table = 0, idx[4];
    capacity_entity_write(f->d, design_entity(f->d, "Order"), KP_OP_PUT, NULL, 0, &table, idx);
    assert_true(fabs(r->wcu_per_call - table) < 1e-9);
    assert_true(fabs(r->index_wcu_per_call - (idx[0] + idx[1] + idx[2] + idx[3])) < 1e-9);
    assert_true(fabs(r->wcu_per_s - table * 10) < 1e-9);
    /* transaction of 4 items over 2 entities: writes doubled */
    r = result_of(f, "tx");
    double t1, t2;
    capacity_entity_write(f->d, design_entity(f->d, "Order"), KP_OP_TRANSACT, NULL, 0, &t1, idx);
    capacity_entity_write(f->d, design_entity(f->d, "OrderLine"), KP_OP_TRANSACT, NULL, 0, &t2, idx);
    assert_true(fabs(r->wcu_per_call - 2 * (t1 + t2)) < 1e-9);
}

/* The pattern's why-not line holding `sub`, with rule `rule` (NULL: none). */
static bool has_why(const kp_pattern_result *r, const char *rule, const char *sub)
{
    for (size_t i = 0; i < r->nwhy_not; i++)
        if (strstr(r->why_not[i].text, sub) &&
            (rule ? r->why_not[i].rule && strcmp(r->why_not[i].rule, rule) == 0 : !r->why_not[i].rule))
            return true;
    return false;
}

/* DynamoDB's rules: projections, text sort, sparse pairs, key updates, transactional reads. */
static void test_dynamodb_rules(void **state)
{
    const fixture *f = *state;
    /* a GSI returns only what it projects: Query, then BatchGetItem of the 50 results */
    const kp_pattern_result *r = result_of(f, "fetch");
    assert_int_equal(r->nsteps, 2);
    assert_int_equal(r->steps[1].op, KP_OP_BATCHGET);
    assert_true(r->steps[1].fetch);
    assert_int_equal(r->steps[1].index, -1);
    assert_true(fabs(r->steps[1].items - 50) < 1e-9);
    /* each 1,000 B order rounded to 4 KB, eventual: 50 x 0.5 */
    assert_true(fabs(r->steps[1].rcu - 25) < 1e-9);
    assert_true(has_why(r, "index-fetch", "GSI1 does not project `customerId`"));
    /* the same index, asked only what it projects: no fetch, no line */
    r = result_of(f, "pending");
    assert_int_equal(r->nsteps, 1);
    assert_int_equal(r->nwhy_not, 0);
    /* 2,740 orders a day: 28 batches of 100 */
    r = result_of(f, "dayfetch");
    assert_true(fabs(r->steps[1].count - 28) < 1e-9);
    assert_true(fabs(r->requests - 29) < 1e-9);
    /* a filter the index does not project refuses the index: a scan, and why */
    r = result_of(f, "projfilter");
    assert_true(has_why(r, "projection-filter", "GSI1 does not project `carrier`"));
    /* numbers inside string keys */
    r = result_of(f, "textorder");
    assert_true(has_why(r, "number-sorts-as-text", "`price` sorts as text in the table's SK = P#{price}"));
    assert_false(r->limit_pushed);
    r = result_of(f, "textrange");
    assert_non_null(strstr(r->steps[0].filter, "price BETWEEN"));
    assert_true(has_why(r, "number-sorts-as-text", "`price`"));
    r = result_of(f, "padded");
    assert_true(r->limit_pushed);
    assert_int_equal(r->nwhy_not, 0);
    /* (a key attribute that is a number for one entity and a string for another is refused by
       validation, as DynamoDB refuses the item: test_validate) */
    r = result_of(f, "narrow");
    assert_true(
        has_why(r, "number-sorts-as-text", "its pad '03' is narrower than its 5,000 distinct values"));
    /* an entity missing one key attribute of an index */
    r = result_of(f, "draft");
    assert_true(has_why(r, NULL, "Draft has no GSI1SK template, so Draft items are not in GSI1"));
    r = result_of(f, "delivered");
    assert_true(has_why(r, NULL, "GSI1 holds only the Order items where status = pending-shipment"));
    /* sparse rules on both GSI2 key attributes, set together: 100,000 x 0.3 / 30,000 codes */
    r = result_of(f, "promo");
    assert_true(fabs(r->items_per_call - 1) < 1e-9);
    /* transactional reads */
    r = result_of(f, "txget");
    assert_int_equal(r->steps[0].op, KP_OP_TRANSACTGET);
    assert_true(fabs(r->rcu_per_call - 2) < 1e-9); /* 1,000 B: one 4 KB unit, x2 transactional */
    r = result_of(f, "txscreen");
    assert_int_equal(r->nsteps, 1);
    assert_int_equal(r->steps[0].op, KP_OP_TRANSACTGET);
    assert_true(fabs(r->steps[0].items - 2) < 1e-9);
    r = result_of(f, "txquery");
    assert_true(has_why(r, "transactional-read", "TransactGetItems of Gets by the table's full key"));
    /* a key update: Delete + Put in a transaction, 200 B: 2 x 2 on the table, the LSI's entry the same */
    r = result_of(f, "keymove");
    assert_int_equal(r->steps[0].op, KP_OP_TRANSACTWRITE);
    assert_true(r->steps[0].key_move);
    assert_true(fabs(r->steps[0].items - 2) < 1e-9);
    assert_true(fabs(r->wcu_per_call - (4 + 4)) < 1e-9);
    assert_true(has_why(r, "key-update", "DynamoDB cannot update a key attribute"));
    /* the pattern's index units are the cost's: capacity_entity_write's, by the writes' shares */
    r = result_of(f, "upd");
    double table = 0, idx[4] = {0};
    kp_str ch = {.s = "status"};
    capacity_entity_write(f->d, design_entity(f->d, "Order"), KP_OP_UPDATE, &ch, 1, &table, idx);
    assert_true(fabs(r->index_wcu_per_call - (idx[0] + idx[1] + idx[2] + idx[3])) < 1e-9);
}

/* ---- CloudShop ------------------------------------------------------------------------------ */

static void test_cloudshop(void **state)
{
    (void)state;
    fixture *f = resolve(load_sample("samples/cloudshop/design.yaml"));
    static const struct {
        const char *id;
        kp_plan plan;
        double requests;
        const char *index;
        const char *cond;
    } cs[] = {
        {"1", KP_PLAN_GET, 1, "table", "PK = :pk AND SK = :sk"},
        {"2", KP_PLAN_QUERY, 1, "table", "PK = :pk AND begins_with(SK, :sk)"},
        {"3", KP_PLAN_QUERY, 1, "table", "PK = :pk AND SK BETWEEN :sk1 AND :sk2"},
        {"4", KP_PLAN_QUERY, 1, "table", "PK = :pk AND begins_with(SK, :sk)"},
        {"5", KP_PLAN_QUERY, 1, "GSI1", "GSI1PK = :pk"},
        {"6", KP_PLAN_COVERED, 0, NULL, ""},
        /* GSI2 projects keys only and the close returns whole orders (D4: "the close fetches
         * the order headers it needs by key"). Two rules make its requests: the day's 68,493
         * keys-only entries are 4.1 MB and a Query returns at most 1 MB per request (5 pages, 5
         * requests); then BatchGetItem of the day's orders from the table, 100 a request (685) */
        {"7", KP_PLAN_MULTI, 5 + 685, "GSI2", "GSI2PK = :pk"},
        {"8", KP_PLAN_OUTSIDE, 0, NULL, ""},
        {"9", KP_PLAN_OUTSIDE, 0, NULL, ""},
        {"10", KP_PLAN_QUERY, 1, "table", "PK = :pk"},
    };
    for (size_t i = 0; i < sizeof cs / sizeof *cs; i++) {
        const kp_pattern_result *r = result_of(f, cs[i].id);
        if (r->plan != cs[i].plan || fabs(r->requests - cs[i].requests) > 1e-9 ||
            (cs[i].index && strcmp(r->index_name, cs[i].index) != 0) ||
            strcmp(r->key_condition, cs[i].cond) != 0) {
            dump(r);
            fail_msg("CloudShop pattern %s: expected %s on %s, '%s'", cs[i].id, kp_plan_word(cs[i].plan),
                     cs[i].index ? cs[i].index : "-", cs[i].cond);
        }
        if (r->plan == KP_PLAN_GET || r->plan == KP_PLAN_QUERY) {
            if (!r->latency_ok) {
                dump(r);
                fail_msg("CloudShop pattern %s misses its latency target", cs[i].id);
            }
            assert_false(r->filter);
            assert_false(r->app_sort);
        }
    }
    const kp_pattern_result *r = result_of(f, "2");
    assert_false(r->steps[0].forward);
    assert_true(fabs(r->steps[0].limit - 20) < 1e-9);
    r = result_of(f, "4");
    assert_string_equal(r->values[1].value, "LINEA#");
    r = result_of(f, "5");
    assert_string_equal(r->values[0].value, "ESTADO#pending-shipment");
    r = result_of(f, "3");
    assert_string_equal(r->values[1].value, "PEDIDO#{orderDate}");
    assert_true(fabs(r->items_per_call - 30) < 1e-9); /* items: 30 */
    r = result_of(f, "12");
    assert_int_equal(r->plan, KP_PLAN_WRITE);
    r = result_of(f, "11");
    assert_int_equal(r->plan, KP_PLAN_WRITE);
    /* the customer screen (items: 25) reads each entity at its own size: a customer has 1
       profile (1,500 B) and 2 addresses (350 B), the rest are 22 summaries (200 B): 6,600 B, 2
       strong units (25/3 of each were 17,083 B, 5 units) */
    r = result_of(f, "10");
    assert_true(fabs(r->items_per_call - 25) < 1e-9);
    assert_true(fabs(r->rcu_per_call - 2) < 1e-9);
    fixture_free(f);
}

/* A sort-key placeholder with several values: one query per value or one query with a filter,
 * the cheaper; the range's upper bound closes on each fan-out (tests/data/rules, proven there on
 * DynamoDB Local). */
static void test_value_fanouts(void **state)
{
    (void)state;
    fixture *f = resolve(load_sample("tests/data/rules/reads-fixed-values.yaml"));
    const kp_pattern_result *r = result_of(f, "1");
    assert_int_equal(r->plan, KP_PLAN_MULTI);
    assert_true(fabs(r->requests - 2) < 1e-9);
    assert_false(r->filter);
    assert_string_equal(r->values[1].value, "STATUS#{status}#");
    assert_true(has_warning(r, "one query per value, the cheaper"));
    r = result_of(f, "2");
    assert_int_equal(r->plan, KP_PLAN_QUERY);
    assert_true(r->filter);
    /* `level` is one of DynamoDB's reserved words: the filter names it through #level */
    assert_string_equal(r->steps[0].filter, "#level IN (:level0, :level1)");
    assert_true(has_warning(r, "the filter, the cheaper"));
    fixture_free(f);
    f = resolve(load_sample("tests/data/rules/reads-range-fanout.yaml"));
    for (int i = 0; i < 2; i++) {
        r = result_of(f, i ? "2" : "1");
        assert_int_equal(r->plan, KP_PLAN_MULTI);
        assert_true(fabs(r->requests - 4) < 1e-9);
        assert_false(r->filter);
        assert_string_equal(r->values[2].value, i ? "{status}-{day}~" : "{day}~");
    }
    fixture_free(f);
}

/* Screens: order and limit over the whole item collection, each entity at its own size. */
static const char *SCREENS =
    "keyplan: 1\n"
    "name: screens\n"
    "table: { name: Blog, pk: PK, sk: SK, billing: on-demand, streams: false, pitr: false }\n"
    "attributes:\n"
    "  siteId: { distinct: 100 }\n"
    "  postId: { type: number, format: \"06\", distinct: 100000 }\n"
    "  tagId: { distinct: 1000 }\n"
    "entities:\n"
    "  - { name: Site, count: 100, size: 9000, attributes: [siteId, siteName], keys: { PK: \"SITE#{siteId}\", "
    "SK: SITE } }\n"
    "  - { name: Post, count: 100000, size: 800, attributes: [siteId, postId], keys: { PK: \"SITE#{siteId}\", "
    "SK: \"POST#{postId}\" } }\n"
    "  - { name: Tag, count: 2000, size: 100, attributes: [siteId, tagId], keys: { PK: \"SITE#{siteId}\", SK: "
    "\"TAG#{tagId}\" } }\n"
    "patterns:\n"
    /* backwards: the site (SITE > POST#) first, inside the Limit; the tags (TAG# > SITE) before it */
    "  - { id: newest, name: n, entities: [Site, Post], by: [siteId], order: postId desc, limit: 11 }\n"
    /* forwards: the site after the posts, outside the Limit: not pushed */
    "  - { id: oldest, name: o, entities: [Site, Post], by: [siteId], order: postId asc, limit: 11 }\n"
    /* no limit: backwards over everything */
    "  - { id: all, name: a, entities: [Site, Post], by: [siteId], order: postId desc }\n"
    /* an order no sort key serves: the app sorts */
    "  - { id: byname, name: b, entities: [Site, Post], by: [siteId], order: siteName asc, limit: 5 }\n"
    /* items: 12 spread by collections: the one site, then 5.5 tags and 5.5 posts */
    "  - { id: items, name: i, entities: [Site, Tag, Post], by: [siteId], items: 12 }\n";

static void test_screens(void **state)
{
    (void)state;
    fixture *f = resolve(load_text(SCREENS, "screens.yaml"));
    const kp_pattern_result *r = result_of(f, "newest");
    /* read backwards: 20 tags (TAG# sorts after SITE) and the site, then 11 - 21 < 0 posts: the
       Limit cuts before any post, so the site is inside but the posts are not: not pushed */
    assert_int_equal(r->plan, KP_PLAN_QUERY);
    assert_false(r->steps[0].forward);
    assert_false(r->app_sort);
    assert_true(r->filter); /* the tags are read too */
    assert_false(r->limit_pushed);
    assert_true(
        has_warning(r, "limit 11 not pushed down: read backwards, the Limit ends before Site's items"));
    r = result_of(f, "oldest");
    assert_true(r->steps[0].forward);
    assert_false(r->limit_pushed);
    assert_true(
        has_warning(r, "limit 11 not pushed down: read forwards, the Limit ends before Site's items"));
    r = result_of(f, "all");
    assert_false(r->steps[0].forward);
    assert_true(isnan(r->steps[0].limit));
    assert_true(fabs(r->items_per_call - 1021) < 1e-6); /* 1 site, 1,000 posts, 20 tags */
    r = result_of(f, "byname");
    assert_true(r->app_sort);
    assert_false(r->limit_pushed);
    assert_true(has_warning(r, "order by siteName is not served"));
    r = result_of(f, "items");
    assert_true(fabs(r->items_per_call - 12) < 1e-9);
    /* a site has one item: 1 x 9,000 + 5.5 x 100 + 5.5 x 800 = 13,950 B, 2 eventual units, where
       4 of each would count 4 sites, 36,000 B, 4.5 units */
    assert_true(fabs(r->rcu_per_call - 2) < 1e-9);
    fixture_free(f);
}

/* Where the rules of reading (pages, several values, screens) meet those of projections, sparse
 * indexes and numbers sorting as text: each holds with the other. */
static const char *MERGED =
    "keyplan: 1\n"
    "name: merged rules\n"
    "table: { name: Merged, pk: PK, sk: SK, billing: on-demand, streams: false, pitr: false }\n"
    "indexes:\n"
    "  - { name: ByFolder, pk: GSI1PK, sk: GSI1SK, projection: include, include: [body] }\n"
    "  - { name: ByCampaign, pk: GSI2PK, sk: GSI2SK, projection: all }\n"
    "attributes:\n"
    "  folderId: { distinct: 1000 }\n"
    "  docId: { distinct: 4000 }\n"
    "  body: { size: 380000 }\n"
    "  campaign: { distinct: 50 }\n"
    "  dealId: { distinct: 100000 }\n"
    "  status: { type: enum, values: { live: 0.2, draft: 0.8 } }\n"
    "  siteId: { distinct: 100 }\n"
    "  postId: { type: number, distinct: 100000 }\n"
    "entities:\n"
    "  - { name: Doc, count: 4000, size: 390000, attributes: [folderId, docId, title, body],\n"
    "      keys: { PK: \"DOC#{docId}\", SK: DOC, GSI1PK: \"F#{folderId}\", GSI1SK: \"{docId}\" } }\n"
    "  - { name: Deal, count: 100000, size: 400, attributes: [dealId, campaign, status],\n"
    "      keys: { PK: \"DEAL#{dealId}\", SK: DEAL, GSI2PK: \"CAMPAIGN#{campaign}\", GSI2SK: \"D#{dealId}\" },\n"
    "      sparse: { GSI2PK: \"status = live\" } }\n"
    "  - { name: Site, count: 100, size: 900, attributes: [siteId], keys: { PK: \"SITE#{siteId}\", SK: SITE } }\n"
    "  - { name: Post, count: 100000, size: 800, attributes: [siteId, postId],\n"
    "      keys: { PK: \"SITE#{siteId}\", SK: \"POST#{postId}\" } }\n"
    "patterns:\n"
    /* four 380 KB entries of ByFolder (1.5 MB, 2 pages), the titles fetched: 2 + 1 requests */
    "  - { id: docs, name: d, entity: Doc, by: [folderId] }\n"
    /* what ByFolder projects: its 2 pages, one query */
    "  - { id: bodies, name: b, entity: Doc, by: [folderId], returns: [docId, body] }\n"
    /* ByCampaign holds the live deals only: it serves live, not live or draft */
    "  - { id: live, name: l, entity: Deal, by: [campaign, \"status=live\"] }\n"
    "  - { id: any, name: a, entity: Deal, by: [campaign, \"status=live\", \"status=draft\"] }\n"
    /* postId is an unpadded number in a string key: no order served over the screen */
    "  - { id: newest, name: n, entities: [Site, Post], by: [siteId], order: postId desc, limit: 11 }\n";

static void test_merged_rules(void **state)
{
    (void)state;
    fixture *f = resolve(load_text(MERGED, "merged.yaml"));
    /* a read's requests are its pages x fan-out, plus its fetch's BatchGetItems; the pages keep
       a query plan, the fetch makes it several requests */
    const kp_pattern_result *r = result_of(f, "docs");
    assert_int_equal(r->plan, KP_PLAN_MULTI);
    assert_true(fabs(r->requests - 3) < 1e-9);
    assert_int_equal(r->nsteps, 2);
    assert_true(fabs(r->steps[0].count - 2) < 1e-9);
    assert_int_equal(r->steps[1].op, KP_OP_BATCHGET);
    assert_true(fabs(r->steps[1].count - 1) < 1e-9);
    assert_true(has_why(r, "index-fetch", "ByFolder does not project `title`"));
    r = result_of(f, "bodies");
    assert_int_equal(r->plan, KP_PLAN_QUERY);
    assert_true(fabs(r->requests - 2) < 1e-9);
    /* every value a pattern fixes must be on a sparse index; with draft asked too the index is
       refused (and says why), and the Scan's filter asks for either value */
    r = result_of(f, "live");
    assert_int_equal(r->plan, KP_PLAN_QUERY);
    assert_string_equal(r->index_name, "ByCampaign");
    r = result_of(f, "any");
    assert_int_equal(r->plan, KP_PLAN_SCAN);
    assert_true(has_why(r, NULL, "ByCampaign holds only the Deal items where status = live"));
    assert_non_null(r->steps[0].filter);
    assert_non_null(strstr(r->steps[0].filter, "#status IN (:status0, :status1)"));
    /* a screen's order is not served by a number that sorts as text (POST#1, POST#10, POST#4) */
    r = result_of(f, "newest");
    assert_true(r->app_sort);
    assert_false(r->limit_pushed);
    assert_true(has_warning(r, "order by postId is not served"));
    fixture_free(f);
}

static void test_cloudshop_first_design(void **state)
{
    (void)state;
    fixture *f = resolve(load_sample("samples/cloudshop/first-design.yaml"));
    const kp_pattern_result *r = result_of(f, "1");
    if (r->plan != KP_PLAN_SCAN || r->latency_ok || r->latency_ms < 20 * 100) {
        dump(r);
        fail_msg("first design, pattern 1: expected a scan far over 20 ms, got %s at %.0f ms",
                 kp_plan_word(r->plan), r->latency_ms);
    }
    /* the status-keyed table does serve the warehouse panel */
    r = result_of(f, "5");
    assert_int_equal(r->plan, KP_PLAN_QUERY);
    assert_string_equal(r->values[0].value, "ESTADO#pending-shipment");
    /* the update by id must find the order first */
    r = result_of(f, "12");
    assert_int_equal(r->plan, KP_PLAN_MULTI);
    fixture_free(f);
}

/* Changing one thing flips the plan: the tests above can fail. */
static void test_mutations(void **state)
{
    (void)state;
    /* drop the sparse condition's fixed value: GSI1 no longer serves */
    static const struct {
        const char *from, *to, *id;
        kp_plan plan;
    } muts[] = {
        {"by: [\"status=pending-shipment\"], order: orderDate asc",
         "by: [\"status=shipped\"], order: orderDate asc", "pending", KP_PLAN_SCAN},
        {"SK: \"CABECERA\"", "SK: \"CABECERA#{customerId}\"", "get", KP_PLAN_QUERY},
        {"shard:      { type: shard, count: 10 }", "shard:      { type: shard, count: 4 }", "shards",
         KP_PLAN_MULTI},
    };
    for (size_t i = 0; i < sizeof muts / sizeof *muts; i++) {
        const char *at = strstr(DESIGN, muts[i].from);
        assert_non_null(at);
        size_t pre = (size_t)(at - DESIGN);
        char *text = malloc(strlen(DESIGN) + strlen(muts[i].to) + 1);
        memcpy(text, DESIGN, pre);
        strcpy(text + pre, muts[i].to);
        strcat(text, at + strlen(muts[i].from));
        fixture *f = resolve(load_text(text, "mutated.yaml"));
        const kp_pattern_result *r = result_of(f, muts[i].id);
        if (r->plan != muts[i].plan) {
            dump(r);
            fail_msg("mutation %zu: pattern %s expected %s", i, muts[i].id, kp_plan_word(muts[i].plan));
        }
        if (i == 2)
            assert_true(fabs(r->requests - 4) < 1e-9);
        fixture_free(f);
        free(text);
    }
}

/* Designs the loader would refuse (the TUI may resolve half-typed ones): no crash, a clear plan. */
static void test_incomplete_designs(void **state)
{
    (void)state;
    kp_design *d = design_new();
    d->table.pk = str_make("PK", (kp_loc){0, 0});
    d->entities = calloc(2, sizeof *d->entities);
    d->nentities = 2;
    entity_init(&d->entities[0]);
    d->entities[0].name = strdup("Keyless"); /* no keys, no count, no size */
    d->entities[0].count = NAN;
    d->entities[0].size = NAN;
    entity_init(&d->entities[1]);
    d->entities[1].name = strdup("Thing");
    d->entities[1].count = 10;
    d->entities[1].size = 100;
    d->entities[1].keys = calloc(1, sizeof *d->entities[1].keys);
    d->entities[1].nkeys = 1;
    d->entities[1].keys[0].attr = str_make("PK", (kp_loc){0, 0});
    assert_int_equal(tpl_parse("T#{id}", &d->entities[1].keys[0].tpl, NULL, NULL), KP_OK);
    static const struct {
        const char *entity;
        const char *by;
        kp_pattern_kind kind;
        kp_write_op op;
        kp_plan want;
    } ps[] = {
        {"Nope", NULL, KP_READ, KP_OP_PUT, KP_PLAN_INVALID},
        {"Keyless", "id", KP_READ, KP_OP_PUT, KP_PLAN_SCAN},
        {"Thing", "id", KP_READ, KP_OP_PUT, KP_PLAN_GET}, /* table without a sort key */
        {"Thing", NULL, KP_READ, KP_OP_PUT, KP_PLAN_SCAN},
        {NULL, NULL, KP_READ, KP_OP_PUT, KP_PLAN_SCAN}, /* no entity at all */
        {"Keyless", "id", KP_WRITE, KP_OP_DELETE, KP_PLAN_MULTI},
        {"Nope", NULL, KP_WRITE, KP_OP_PUT, KP_PLAN_INVALID},
        {"Thing", "id", KP_WRITE, KP_OP_UPDATE, KP_PLAN_WRITE},
    };
    size_t n = sizeof ps / sizeof *ps;
    d->patterns = calloc(n, sizeof *d->patterns);
    d->npatterns = n;
    for (size_t i = 0; i < n; i++) {
        kp_pattern *p = &d->patterns[i];
        pattern_init(p);
        char id[8];
        snprintf(id, sizeof id, "%zu", i);
        p->id = strdup(id);
        p->name = strdup(id);
        p->kind = ps[i].kind;
        p->op = ps[i].op;
        if (ps[i].entity) {
            p->entities = calloc(1, sizeof *p->entities);
            p->entities[0] = str_make(ps[i].entity, (kp_loc){0, 0});
            p->nentities = 1;
        }
        if (ps[i].by) {
            p->by = calloc(1, sizeof *p->by);
            p->by[0].attr = str_make(ps[i].by, (kp_loc){0, 0});
            p->nby = 1;
        }
    }
    fixture *f = resolve(d);
    for (size_t i = 0; i < n; i++) {
        const kp_pattern_result *r = &f->a.patterns[i];
        if (r->plan != ps[i].want) {
            dump(r);
            fail_msg("incomplete design, pattern %zu: expected %s", i, kp_plan_word(ps[i].want));
        }
        assert_non_null(r->key_condition);
        assert_non_null(r->index_name);
        assert_false(isnan(r->rcu_per_call));
        assert_false(isnan(r->latency_ms));
    }
    assert_true(has_warning(&f->a.patterns[0], "unknown entity"));
    fixture_free(f);
}

/* A chain's BatchGetItem holds 100 keys and returns 16 MB at most: 50 followers of 300 B take
 * one request, 50 of 400,000 B take two (20 MB), 250 small ones three (100 keys each). */
static void test_batch_chunks(void **state)
{
    (void)state;
    static const struct {
        double follows, user_size, requests, items;
    } chunks[] = {{500000, 300, 1, 50}, {500000, 400000, 2, 25}, {2500000, 300, 3, 250.0 / 3}};
    for (size_t i = 0; i < sizeof chunks / sizeof *chunks; i++) {
        char *yaml = xasprintf(
            "keyplan: 1\nname: b\ntable: { name: Tab, pk: PK, sk: SK, billing: on-demand, streams: false, "
            "pitr: false }\nattributes:\n  followedUsername: { distinct: 10000 }\n"
            "entities:\n"
            "  - { name: Follow, count: %.0f, size: 100, attributes: [followedUsername, followingUsername],\n"
            "      keys: { PK: \"F#{followedUsername}\", SK: \"{followingUsername}\" } }\n"
            "  - { name: User, count: 10000, size: %.0f, attributes: [username],\n"
            "      keys: { PK: \"U#{username}\", SK: P } }\n"
            "patterns:\n"
            "  - { id: 1, name: f, entities: [Follow, User], by: [followedUsername], join: { username: "
            "followingUsername } }\n",
            chunks[i].follows, chunks[i].user_size);
        kp_design *d = ts_load_text(yaml, "b.yaml");
        assert_non_null(d);
        kp_analysis *a = analysis_run(d);
        const kp_step *st = &a->patterns[0].steps[1];
        assert_int_equal(st->op, KP_OP_BATCHGET);
        if (fabs(st->count - chunks[i].requests) > 1e-9 || fabs(st->items - chunks[i].items) > 1e-9)
            fail_msg("case %zu: %g requests of %g items, expected %g of %g", i, st->count, st->items,
                     chunks[i].requests, chunks[i].items);
        analysis_free(a);
        design_free(d);
        free(yaml);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_batch_chunks),
        cmocka_unit_test_setup_teardown(test_rules, setup, teardown),
        cmocka_unit_test_setup_teardown(test_steps, setup, teardown),
        cmocka_unit_test_setup_teardown(test_capacity_per_pattern, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dynamodb_rules, setup, teardown),
        cmocka_unit_test(test_cloudshop),
        cmocka_unit_test(test_cloudshop_first_design),
        cmocka_unit_test(test_screens),
        cmocka_unit_test(test_value_fanouts),
        cmocka_unit_test(test_merged_rules),
        cmocka_unit_test(test_mutations),
        cmocka_unit_test(test_incomplete_designs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
