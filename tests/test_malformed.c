/* test_malformed.c - every refusal of the design loader, one row each: the YAML text, the exact
 * first diagnostic ("design.yaml:LINE:COL: error: what is wrong; what was expected") and how many
 * errors the file yields (1 unless a row says otherwise: no cascades of follow-up errors). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "design_io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A valid design of 13 lines (entities last); rows append entities from line 14. */
#define BASE_E                                                                                                    \
    "keyplan: 1\n"                                                                                                \
    "table: { name: Shop, pk: PK, sk: SK }\n"                                                                     \
    "indexes:\n"                                                                                                  \
    "  - { name: GSI1, pk: GSI1PK, sk: GSI1SK, projection: keys }\n"                                              \
    "attributes:\n"                                                                                               \
    "  status: { type: enum, values: { open: 0.5, closed: 0.5 } }\n"                                              \
    "entities:\n"                                                                                                 \
    "  - name: Order\n"                                                                                           \
    "    attributes: [orderId, customerId, status, total]\n"                                                      \
    "    keys: { PK: \"ORDER#{orderId}\", SK: \"HEADER\", GSI1PK: \"STATUS#{status}\", GSI1SK: \"{orderId}\" }\n" \
    "  - name: OrderSummary\n"                                                                                    \
    "    attributes: [customerId, orderId, orderDate]\n"                                                          \
    "    keys: { PK: \"CUSTOMER#{customerId}\", SK: \"ORDER#{orderDate}\" }\n"
/* The same plus two patterns (16 lines); rows append patterns (or decisions:) from line 17. */
#define BASE                                                         \
    BASE_E                                                           \
    "patterns:\n"                                                    \
    "  - { id: 1, name: Get order, entity: Order, by: [orderId] }\n" \
    "  - { id: 2, name: Orders of a customer, entity: OrderSummary, by: [customerId], order: orderDate desc }\n"

static const struct bad_case {
    const char *name;
    const char *text;
    const char *first; /* the first error, formatted */
    size_t errors;
} cases[] = {
    {"empty_file", "", "design.yaml: error: the file is empty; expected a design starting with 'keyplan: 1'",
     1},
    {"invalid_utf8",
     "keyplan: 1\n"
     "name: x\x80y\n",
     "design.yaml:2:8: error: invalid UTF-8 (byte 0x80); expected UTF-8 text", 1},
    {"syntax_indent",
     "keyplan: 1\n"
     "table:\n"
     "  name: T\n"
     " pk: PK\n",
     "design.yaml:4:2: error: YAML syntax error: did not find expected key while parsing a block "
     "mapping (started at line 1, column 1); expected well-formed YAML",
     1},
    {"syntax_unclosed_flow",
     "keyplan: 1\n"
     "table: { name: Tbl, pk: PK\n",
     "design.yaml:3:1: error: YAML syntax error: did not find expected ',' or '}' while parsing a "
     "flow mapping (started at line 2, column 8); expected well-formed YAML",
     1},
    {"missing_version",
     "name: x\n"
     "table: { name: Tbl, pk: PK }\n",
     "design.yaml:1:1: error: the format version 'keyplan:' is missing; expected 'keyplan: 1' as the "
     "first key",
     1},
    {"wrong_version",
     "keyplan: 2\n"
     "table: { name: Tbl, pk: PK }\n",
     "design.yaml:1:10: error: unsupported format version '2'; expected 'keyplan: 1'", 1},
    {"version_list", "keyplan: [1]\n",
     "design.yaml:1:10: error: the format version is a list; expected 'keyplan: 1'", 1},
    {"root_list", "- keyplan: 1\n",
     "design.yaml:1:1: error: the design is a list; expected a map starting with 'keyplan: 1'", 1},
    {"second_document",
     "keyplan: 1\n"
     "table: { name: Tbl, pk: PK }\n"
     "---\n"
     "keyplan: 1\n",
     "design.yaml:3:1: error: a second YAML document; expected one design per file", 1},
    {"undefined_alias",
     "keyplan: 1\n"
     "table: { name: Tbl, pk: *tbl }\n",
     "design.yaml:2:25: error: alias '*tbl' names no anchor defined before it; expected '&tbl' on an "
     "earlier node",
     1},
    {"unknown_top_key", BASE "entites: []\n",
     "design.yaml:17:1: error: design: unknown key 'entites' (did you mean 'entities'?); expected "
     "keyplan, name, description, table, indexes, attributes, entities, patterns, alerts, pricing or "
     "decisions",
     1},
    {"unknown_pattern_key", BASE "  - { id: 3, name: X, entity: Order, by: [orderId], rat: 5 }\n",
     "design.yaml:17:53: error: pattern 3: unknown key 'rat' (did you mean 'rate'?); expected id, "
     "name, kind, op, entity, entities, by, rate, avg, latency, consistency, why, order, limit, "
     "range, filter, join, changes, returns, items, covered_by, needs or served_by",
     1},
    {"unknown_table_key",
     "keyplan: 1\n"
     "table: { name: Tbl, pk: PK, colour: red }\n",
     "design.yaml:2:29: error: table: unknown key 'colour'; expected name, pk, sk, billing, streams, "
     "pitr, target_utilization or replicas",
     1},
    {"duplicate_key", BASE "  - { id: 3, name: X, name: Y, entity: Order, by: [orderId] }\n",
     "design.yaml:17:23: error: pattern 3: key 'name' given twice (first at line 17, column 14); "
     "expected each key once",
     1},
    {"unknown_entity", BASE "  - { id: 3, name: X, entity: OrderSumary, by: [customerId] }\n",
     "design.yaml:17:31: error: pattern 3: unknown entity 'OrderSumary' (did you mean 'OrderSummary'?)", 1},
    {"by_unknown_attr", BASE "  - { id: 3, name: X, entity: Order, by: [customerID] }\n",
     "design.yaml:17:43: error: pattern 3: 'by' names 'customerID', which no entity of the pattern "
     "(Order) carries (did you mean 'customerId'?)",
     1},
    {"by_fixed_unknown_attr", BASE "  - { id: 3, name: X, entity: Order, by: [\"stat=open\"] }\n",
     "design.yaml:17:44: error: pattern 3: 'by' names 'stat', which no entity of the pattern (Order) "
     "carries (did you mean 'status'?)",
     1},
    {"range_unknown_attr",
     BASE "  - { id: 3, name: X, entity: OrderSummary, by: [customerId], range: ordrDate }\n",
     "design.yaml:17:70: error: pattern 3: 'range' names 'ordrDate', which no entity of the pattern "
     "(OrderSummary) carries (did you mean 'orderDate'?)",
     1},
    {"order_unknown_attr",
     BASE "  - { id: 3, name: X, entity: OrderSummary, by: [customerId], order: \"orderdate desc\" }\n",
     "design.yaml:17:71: error: pattern 3: 'order' names 'orderdate', which no entity of the pattern "
     "(OrderSummary) carries (did you mean 'orderDate'?)",
     1},
    {"order_bad_direction",
     BASE "  - { id: 3, name: X, entity: OrderSummary, by: [customerId], order: orderDate down }\n",
     "design.yaml:17:70: error: pattern 3: order \"orderDate down\" is not understood; expected an "
     "attribute and asc or desc, such as \"orderDate desc\"",
     1},
    {"filter_unknown_attr", BASE "  - { id: 3, name: X, entity: Order, by: [orderId], filter: [totl] }\n",
     "design.yaml:17:62: error: pattern 3: 'filter' names 'totl', which no entity of the pattern "
     "(Order) carries (did you mean 'total'?)",
     1},
    {"join_unknown_attr",
     BASE
     "  - { id: 3, name: X, entities: [OrderSummary, Order], by: [customerId], join: { orderID: orderId } }\n",
     "design.yaml:17:82: error: pattern 3: 'join' names 'orderID', which no entity of the pattern "
     "(OrderSummary, Order) carries (did you mean 'orderId'?)",
     1},
    {"changes_unknown_attr",
     BASE "  - { id: 3, name: X, kind: write, op: update, entity: Order, by: [orderId], changes: [stat] }\n",
     "design.yaml:17:88: error: pattern 3: 'changes' names 'stat', which no entity of the pattern "
     "(Order) carries (did you mean 'status'?)",
     1},
    {"include_unknown_attr",
     "keyplan: 1\n"
     "table: { name: Tbl, pk: PK }\n"
     "indexes:\n"
     "  - { name: Gsi, pk: GPK, projection: include, include: [totl] }\n"
     "entities:\n"
     "  - { name: E, attributes: [total], keys: { PK: \"E#{total}\", GPK: \"x\" } }\n",
     "design.yaml:4:58: error: index 'Gsi': include names unknown attribute 'totl' (did you mean 'total'?)",
     1},
    {"sparse_not_carried",
     BASE_E
     "  - { name: Ticket, attributes: [status], keys: { PK: \"T\", SK: \"T\" }, sparse: { GSI1PK: \"status = open\" } }\n",
     "design.yaml:14:81: error: entity 'Ticket': sparse rule for 'GSI1PK', which the entity's items "
     "do not carry; expected one of: PK, SK",
     1},
    {"sparse_unknown_cond_attr",
     BASE_E "  - name: Ticket\n"
            "    attributes: [status]\n"
            "    keys: { PK: \"T\", SK: \"T\", GSI1PK: \"S\", GSI1SK: \"S\" }\n"
            "    sparse: { GSI1PK: \"stauts = open\" }\n",
     "design.yaml:17:24: error: entity 'Ticket': sparse condition on 'stauts', which the entity does "
     "not carry (did you mean 'status'?)",
     1},
    {"sparse_unknown_enum_value",
     BASE_E "  - name: Ticket\n"
            "    attributes: [status]\n"
            "    keys: { PK: \"T\", SK: \"T\", GSI1PK: \"S\", GSI1SK: \"S\" }\n"
            "    sparse: { GSI1PK: \"status in [open, clsed]\" }\n",
     "design.yaml:17:41: error: entity 'Ticket': sparse condition value 'clsed' is not a value of "
     "enum 'status' (did you mean 'closed'?)",
     1},
    {"sparse_bad_condition",
     BASE_E "  - name: Ticket\n"
            "    attributes: [status]\n"
            "    keys: { PK: \"T\", SK: \"T\", GSI1PK: \"S\", GSI1SK: \"S\" }\n"
            "    sparse: { GSI1PK: \"status ~ open\" }\n",
     "design.yaml:17:23: error: entity 'Ticket', sparse GSI1PK: condition \"status ~ open\" is not "
     "understood: expected '=', '!=' or 'in' after the attribute (\"status = x\", \"status != x\", "
     "\"status in [a, b]\" or a share such as 0.05)",
     1},
    {"sparse_share_range",
     BASE_E "  - name: Ticket\n"
            "    attributes: [status]\n"
            "    keys: { PK: \"T\", SK: \"T\", GSI1PK: \"S\", GSI1SK: \"S\" }\n"
            "    sparse: { GSI1PK: 1.5 }\n",
     "design.yaml:17:23: error: entity 'Ticket', sparse GSI1PK: share 1.5 is out of range; expected "
     "a share between 0 and 1",
     1},
    {"together_not_carried",
     BASE_E "  - name: Ticket\n"
            "    attributes: [status]\n"
            "    keys: { PK: \"T\", SK: \"T\", GSI1PK: \"S\", GSI1SK: \"S\" }\n"
            "    together: [GSI1PK+GSI1SX]\n",
     "design.yaml:17:23: error: entity 'Ticket': together names 'GSI1SX', which the entity's items do "
     "not carry (did you mean 'GSI1SK'?)",
     1},
    {"together_empty_attribute",
     BASE_E "  - name: Ticket\n"
            "    attributes: [status]\n"
            "    keys: { PK: \"T\", SK: \"T\", GSI1PK: \"S\", GSI1SK: \"S\" }\n"
            "    together: [GSI1PK+]\n",
     "design.yaml:17:23: error: entity 'Ticket': together 'GSI1PK+': an empty attribute in a group; "
     "expected attributes joined by '+', e.g. GSI1PK+GSI1SK",
     1},
    {"returns_unknown_attr", BASE "  - { id: 3, name: X, entity: Order, by: [orderId], returns: [totl] }\n",
     "design.yaml:17:63: error: pattern 3: 'returns' names 'totl', which no entity of the pattern "
     "(Order) carries (did you mean 'total'?)",
     1},
    {"returns_on_write", BASE "  - { id: 3, name: X, kind: write, entity: Order, returns: [total] }\n",
     "design.yaml:17:61: error: pattern 3: 'returns' on a write pattern; expected kind: read", 1},
    {"decision_unknown_pattern",
     BASE "decisions:\n"
          "  - { id: D1, title: T, patterns: [1, 9] }\n",
     "design.yaml:18:39: error: decision D1: unknown pattern '9'; expected one of: 1, 2", 1},
    {"covered_by_unknown", BASE "  - { id: 3, name: X, entity: Order, by: [customerId], covered_by: 7 }\n",
     "design.yaml:17:68: error: pattern 3: covered_by names unknown pattern '7'; expected one of: 1, 2, 3",
     1},
    {"covered_by_cannot_hold",
     BASE "  - { id: 3, name: X, entity: Order, by: [orderId, status], covered_by: 2 }\n",
     "design.yaml:17:73: error: pattern 3: covered_by 2, whose result cannot hold this pattern's "
     "data; expected a pattern whose entities include Order or carry every 'by' attribute",
     1},
    {"covered_by_write",
     BASE "  - { id: 3, name: W, kind: write, entity: Order }\n"
          "  - { id: 4, name: X, entity: Order, by: [orderId], covered_by: 3 }\n",
     "design.yaml:18:65: error: pattern 4: covered_by 3, which is a write; expected a read pattern "
     "served by DynamoDB",
     1},
    {"covered_by_itself", BASE "  - { id: 3, name: X, entity: Order, by: [orderId], covered_by: 3 }\n",
     "design.yaml:17:65: error: pattern 3: covered_by names the pattern itself; expected another read pattern",
     1},
    {"duplicate_entity",
     BASE_E "  - name: Order\n"
            "    attributes: [orderId]\n"
            "    keys: { PK: \"O#{orderId}\", SK: \"X\" }\n",
     "design.yaml:14:5: error: entity 'Order' is defined twice (first at line 8); expected unique "
     "entity names",
     1},
    {"duplicate_pattern_id", BASE "  - { id: 2, name: Again, entity: Order, by: [orderId] }\n",
     "design.yaml:17:5: error: pattern 2: id 2 is used twice (first at line 16); expected unique pattern ids",
     1},
    {"duplicate_index",
     "keyplan: 1\n"
     "table: { name: Tbl, pk: PK }\n"
     "indexes:\n"
     "  - { name: GSI1, pk: A }\n"
     "  - { name: GSI1, pk: B }\n",
     "design.yaml:5:5: error: index 'GSI1' is defined twice (first at line 4); expected unique index names",
     1},
    {"duplicate_attribute",
     "keyplan: 1\n"
     "table: { name: Tbl, pk: PK }\n"
     "attributes:\n"
     "  total: { type: number }\n"
     "  total: { distinct: 5 }\n",
     "design.yaml:5:3: error: attribute 'total' is declared twice (first at line 4); expected unique "
     "attribute names",
     1},
    {"template_unclosed",
     BASE_E "  - { name: Line, attributes: [orderId], keys: { PK: \"PEDIDO#{orderId\", SK: LINE } }\n",
     "design.yaml:14:62: error: entity 'Line', key PK: broken template \"PEDIDO#{orderId\": unclosed "
     "placeholder: expected '}'",
     1},
    {"template_lone_brace",
     BASE_E "  - name: Line\n"
            "    attributes: [orderId]\n"
            "    keys:\n"
            "      PK: \"P#{orderId}\"\n"
            "      SK: LÍNEA}x\n",
     "design.yaml:18:16: error: entity 'Line', key SK: broken template \"LÍNEA}x\": a lone '}' "
     "(write '}}' for a literal brace)",
     1},
    {"template_empty_placeholder",
     BASE_E "  - name: Line\n"
            "    attributes: [orderId]\n"
            "    keys:\n"
            "      PK: 'it''s #{}'\n"
            "      SK: L\n",
     "design.yaml:17:19: error: entity 'Line', key PK: broken template \"it's #{}\": an empty "
     "placeholder '{}' (expected an attribute name)",
     1},
    {"template_not_text", BASE_E "  - { name: Line, attributes: [orderId], keys: { PK: [a], SK: L } }\n",
     "design.yaml:14:54: error: entity 'Line', key PK is a list; expected a template such as "
     "\"ORDER#{orderId}\"",
     1},
    {"negative_rate", BASE "  - { id: 3, name: X, entity: Order, by: [orderId], rate: -5 }\n",
     "design.yaml:17:59: error: pattern 3: 'rate' is -5; expected a number >= 0", 1},
    /* a figure with its unit, as the Patterns screen and the decision record write small rates:
       the message says what it is in the file's unit */
    {"rate_per_day", BASE "  - { id: 3, name: X, entity: Order, by: [orderId], rate: 1/day }\n",
     "design.yaml:17:59: error: pattern 3: 'rate' is '1/day'; expected a number of requests a second "
     "('1/day' is 1.16e-05 a second)",
     1},
    {"avg_per_hour", BASE "  - { id: 3, name: X, entity: Order, by: [orderId], avg: 30/h }\n",
     "design.yaml:17:58: error: pattern 3: 'avg' is '30/h'; expected a number of requests a second "
     "('30/h' is 0.00833 a second)",
     1},
    {"latency_in_min", BASE "  - { id: 3, name: X, entity: Order, by: [orderId], latency: 5 min }\n",
     "design.yaml:17:62: error: pattern 3: 'latency' is '5 min'; expected a number of milliseconds "
     "('5 min' is 300000 ms)",
     1},
    {"non_numeric_count",
     BASE_E "  - { name: Line, count: many, attributes: [orderId], keys: { PK: \"L#{orderId}\", SK: L } }\n",
     "design.yaml:14:26: error: entity 'Line': 'count' is 'many'; expected a number", 1},
    {"quoted_number",
     BASE_E
     "  - { name: Line, size: \"800\", attributes: [orderId], keys: { PK: \"L#{orderId}\", SK: L } }\n",
     "design.yaml:14:25: error: entity 'Line': 'size' is the quoted text '800'; expected a number "
     "without quotes",
     1},
    {"shares_not_one",
     "keyplan: 1\n"
     "table: { name: Tbl, pk: PK }\n"
     "attributes:\n"
     "  status: { type: enum, values: { open: 0.5, closed: 0.4 } }\n",
     "design.yaml:4:3: error: attribute 'status': the value shares sum to 0.9; expected 1 (within 0.001)", 1},
    {"share_out_of_range",
     "keyplan: 1\n"
     "table: { name: Tbl, pk: PK }\n"
     "attributes:\n"
     "  status: { type: enum, values: { open: 1.5, closed: -0.5 } }\n",
     "design.yaml:4:41: error: attribute 'status': 'values.open' is 1.5; expected a share between 0 and 1",
     2},
    {"write_shares_unknown_value",
     "keyplan: 1\n"
     "table: { name: Tbl, pk: PK }\n"
     "attributes:\n"
     "  status: { type: enum, values: { open: 0.5, closed: 0.5 }, write_shares: { opne: 1 } }\n",
     "design.yaml:4:77: error: attribute 'status': write_shares names 'opne', which is not one of "
     "its values (did you mean 'open'?)",
     1},
    {"values_without_enum",
     "keyplan: 1\n"
     "table: { name: Tbl, pk: PK }\n"
     "attributes:\n"
     "  status: { values: { open: 0.5, closed: 0.5 } }\n",
     "design.yaml:4:3: error: attribute 'status': 'values' are given but the type is string; "
     "expected type: enum",
     1},
    {"lsi_partition_differs",
     "keyplan: 1\n"
     "table: { name: Tbl, pk: PK, sk: SK }\n"
     "indexes:\n"
     "  - { name: ByTotal, type: lsi, pk: customerId, sk: total }\n",
     "design.yaml:4:37: error: index 'ByTotal': an LSI's partition attribute 'customerId' differs "
     "from the table's 'PK'; expected pk: PK",
     1},
    {"lsi_without_table_sk",
     "keyplan: 1\n"
     "table: { name: Tbl, pk: PK }\n"
     "indexes:\n"
     "  - { name: ByTotal, type: lsi, pk: PK, sk: total }\n",
     "design.yaml:4:5: error: index 'ByTotal': an LSI on a table without a sort key; expected a "
     "table with 'sk' (or type: gsi)",
     1},
    {"bad_projection",
     "keyplan: 1\n"
     "table: { name: Tbl, pk: PK }\n"
     "indexes:\n"
     "  - { name: Gsi, pk: A, projection: some }\n",
     "design.yaml:4:37: error: index 'Gsi': unknown projection 'some'; expected all, keys or include", 1},
    {"include_without_projection",
     "keyplan: 1\n"
     "table: { name: Tbl, pk: PK }\n"
     "indexes:\n"
     "  - { name: Gsi, pk: A, include: [x] }\n"
     "entities:\n"
     "  - { name: E, attributes: [x], keys: { PK: \"E\" } }\n",
     "design.yaml:4:35: error: index 'Gsi': 'include' is given but the projection is all; expected "
     "projection: include",
     1},
    {"map_where_list", BASE "  - { id: 3, name: X, entity: Order, by: { orderId: 1 } }\n",
     "design.yaml:17:42: error: pattern 3: 'by' is a map; expected a list such as [customerId] or "
     "[\"status=pending-shipment\"]",
     1},
    {"list_where_text",
     "keyplan: 1\n"
     "name: [a, b]\n"
     "table: { name: Tbl, pk: PK }\n",
     "design.yaml:2:7: error: design: 'name' is a list; expected text", 1},
    {"list_where_map",
     "keyplan: 1\n"
     "table: [T, PK]\n",
     "design.yaml:2:8: error: table is a list; expected a map with name, pk, sk, billing, streams, pitr", 1},
    {"scalar_where_list",
     "keyplan: 1\n"
     "table: { name: Tbl, pk: PK }\n"
     "patterns: all of them\n",
     "design.yaml:3:11: error: design: 'patterns' is a single value; expected a list of access patterns", 1},
    {"bad_signal",
     BASE "decisions:\n"
          "  - { id: D1, signals: [\"pattern.1.rate >> 5\"] }\n",
     "design.yaml:18:25: error: decision D1: bad signal \"pattern.1.rate >> 5\": expected a number "
     "after the operator, and nothing after it",
     1},
    {"signal_unknown_metric",
     BASE "decisions:\n"
          "  - { id: D1, signals: [\"pattern.1.speed > 5\"] }\n",
     "design.yaml:18:25: error: decision D1: signal \"pattern.1.speed > 5\" names no known metric "
     "'pattern.1.speed'; expected pattern.<id>.rate|rcu|requests|latency, "
     "entity.<name>.count|size|writes, index.<name>.items|wcu|hot_share, table.hot_share, cost.total "
     "or cost.<line>",
     1},
    {"signal_unknown_pattern",
     BASE "decisions:\n"
          "  - { id: D1, signals: [\"pattern.9.rate > 5\"] }\n",
     "design.yaml:18:25: error: decision D1: signal \"pattern.9.rate > 5\" names unknown pattern "
     "'9'; expected one of: 1, 2",
     1},
    {"signal_unknown_index",
     BASE "decisions:\n"
          "  - { id: D1, signals: [\"index.GSI2.items > 5\"] }\n",
     "design.yaml:18:25: error: decision D1: signal \"index.GSI2.items > 5\" names unknown index "
     "'GSI2' (did you mean 'GSI1'?)",
     1},
    {"key_not_a_key_attribute",
     BASE_E "  - { name: Line, attributes: [orderId], keys: { PK: \"L\", SK: \"L\", GSI2PK: \"x\" } }\n",
     "design.yaml:14:68: error: entity 'Line': key template for 'GSI2PK', which is neither the "
     "table's nor any index's key attribute (did you mean 'GSI1PK'?)",
     1},
    {"entity_and_entities", BASE "  - { id: 3, name: X, entity: Order, entities: [Order], by: [orderId] }\n",
     "design.yaml:17:38: error: pattern 3: both 'entity' and 'entities' are given; expected one of them", 1},
    {"bad_consistency", BASE "  - { id: 3, name: X, entity: Order, by: [orderId], consistency: strog }\n",
     "design.yaml:17:66: error: pattern 3: unknown consistency 'strog' (did you mean 'strong'?); "
     "expected eventual, strong or transactional",
     1},
    {"bad_boolean",
     "keyplan: 1\n"
     "table: { name: Tbl, pk: PK, streams: maybe }\n",
     "design.yaml:2:38: error: table: 'streams' is 'maybe'; expected true or false", 1},
    {"bad_skew",
     "keyplan: 1\n"
     "table: { name: Tbl, pk: PK }\n"
     "attributes:\n"
     "  customerId: { skew: \"zipf:x\" }\n",
     "design.yaml:4:23: error: attribute 'customerId': skew 'zipf:x' is not understood; expected "
     "\"zipf:S\" with S >= 0 (e.g. \"zipf:1.1\") or \"uniform\"",
     1},
    {"format_too_wide",
     "keyplan: 1\n"
     "table: { name: Tbl, pk: PK }\n"
     "attributes:\n"
     "  lineNo: { type: number, format: \"99999999999999999999\" }\n",
     "design.yaml:4:35: error: attribute 'lineNo': format '99999999999999999999' is not a width; "
     "expected one to three digits such as \"03\"",
     1},
    {"entity_without_name", BASE_E "  - { attributes: [x], keys: { PK: \"x\", SK: y } }\n",
     "design.yaml:14:5: error: entity #3: 'name' is missing; expected the entity's name", 1},
    {"pattern_without_entity", BASE "  - { id: 3, name: X, by: [orderId] }\n",
     "design.yaml:17:5: error: pattern 3 names no entity; expected entity: X or entities: [X, Y] (or "
     "served_by: for what DynamoDB cannot serve)",
     1},
    {"pattern_without_id", BASE "  - { name: X, entity: Order, by: [orderId] }\n",
     "design.yaml:17:5: error: pattern #3: 'id' is missing; expected a unique id (a number or a short name)",
     1},
    {"missing_table_pk",
     "keyplan: 1\n"
     "table: { name: Tbl }\n",
     "design.yaml:2:8: error: table: 'pk' is missing; expected the partition key attribute name", 1},
    {"missing_table",
     "keyplan: 1\n"
     "name: x\n",
     "design.yaml:1:1: error: design: 'table' is missing; expected a table with name and pk", 1},
    {"entity_without_table_key", BASE_E "  - { name: Line, attributes: [orderId], keys: { SK: \"L\" } }\n",
     "design.yaml:14:5: error: entity 'Line': no template for the table's partition key 'PK'; "
     "expected keys: { PK: \"...\" }",
     1},
    {"shard_without_count",
     "keyplan: 1\n"
     "table: { name: Tbl, pk: PK }\n"
     "attributes:\n"
     "  shard: { type: shard }\n",
     "design.yaml:4:3: error: attribute 'shard': type shard without 'count'; expected count: N "
     "(suffixes 0..N-1)",
     1},
    {"read_with_changes", BASE "  - { id: 3, name: X, entity: Order, by: [orderId], changes: [status] }\n",
     "design.yaml:17:63: error: pattern 3: 'changes' on a read pattern; expected kind: write", 1},
    {"control_character",
     "keyplan: 1\n"
     "name: a\x01"
     "b\n",
     "design.yaml:2:8: error: YAML syntax error: control characters are not allowed; expected "
     "well-formed YAML",
     1},
    {"template_after_anchor",
     "keyplan: 1\n"
     "table: {name: Tbl, pk: PK}\n"
     "entities:\n"
     "  - {name: E, keys: {PK: &x \"a{\"}}\n"
     "  - {name: F, keys: {PK: *x}}\n",
     "design.yaml:4:31: error: entity 'E', key PK: broken template \"a{\": '{' must be followed by an attribute name "
     "(write '{{' for a literal brace)",
     2},
    {"unknown_key_after_bom",
     "\xef\xbb\xbfkeyplan: 1\n"
     "table: {name: Tbl, pk: PK, colour: x}\n",
     "design.yaml:2:28: error: table: unknown key 'colour'; expected name, pk, sk, billing, streams, pitr, "
     "target_utilization or replicas",
     1},
    {"distinct_zero",
     "keyplan: 1\n"
     "table: {name: Tbl, pk: PK}\n"
     "attributes:\n"
     "  x: { distinct: 0 }\n",
     "design.yaml:4:18: error: attribute 'x': 'distinct' is 0; expected a number >= 1", 1},
    {"by_fixed_value_not_in_enum", BASE "  - { id: 3, name: X, entity: Order, by: [\"status=opne\"] }\n",
     "design.yaml:17:44: error: pattern 3: 'by' fixes status to 'opne', which is not a value of enum 'status' (did you mean "
     "'open'?)",
     1},
    /* DynamoDB's schema limits (tests/test_validate.c takes each to its limit and one past it) */
    {"table_name_too_short", "keyplan: 1\ntable: { name: ab, pk: PK }\n",
     "design.yaml:2:8: error: table: table name 'ab' is 2 characters long; DynamoDB takes table names of 3 to 255 "
     "characters",
     1},
    {"index_name_bad_character",
     "keyplan: 1\ntable: { name: Shop, pk: PK }\nindexes:\n  - { name: \"By email\", pk: email }\n",
     "design.yaml:4:5: error: index 'By email': index name 'By email' has a character DynamoDB refuses at byte 3; "
     "expected only A-Z a-z 0-9 _ - . in index names",
     1},
    {"six_lsis",
     "keyplan: 1\ntable: { name: Shop, pk: PK, sk: SK }\nindexes:\n"
     "  - { name: LSI1, type: lsi, pk: PK, sk: A1 }\n  - { name: LSI2, type: lsi, pk: PK, sk: A2 }\n"
     "  - { name: LSI3, type: lsi, pk: PK, sk: A3 }\n  - { name: LSI4, type: lsi, pk: PK, sk: A4 }\n"
     "  - { name: LSI5, type: lsi, pk: PK, sk: A5 }\n  - { name: LSI6, type: lsi, pk: PK, sk: A6 }\n",
     "design.yaml:9:5: error: index 'LSI6' is LSI number 6 of the table; DynamoDB allows 5 LSIs per table; expected "
     "at most 5 (or a GSI)",
     1},
    {"key_attribute_two_types",
     "keyplan: 1\ntable: { name: Shop, pk: PK, sk: SK }\nattributes:\n  score: { type: number }\nentities:\n"
     "  - { name: Rank, attributes: [score], keys: { PK: R, SK: \"{score}\" } }\n"
     "  - { name: Note, keys: { PK: N, SK: NOTE } }\n",
     "design.yaml:7:38: error: entity 'Note': key attribute 'SK' is a string here but a number for entity 'Rank'; "
     "DynamoDB gives a key attribute one type for every item; expected the same type for both (a number inside a text "
     "template such as \"N#{n:05}\" is a string)",
     1},
    {"item_over_400kb", BASE_E "  - { name: Blob, size: 409601, keys: { PK: B, SK: B } }\n",
     "design.yaml:14:5: error: entity 'Blob': items of 409601 bytes are over DynamoDB's item limit of 400 KB (409600 "
     "bytes); expected size <= 409600 (keep a large payload in S3 and its reference in the item)",
     1},
    {"replicas_single_value", "keyplan: 1\ntable: { name: Shop, pk: PK, replicas: eu-west-1 }\n",
     "design.yaml:2:40: error: table: 'replicas' is a single value; expected a list of names such as [a, b]",
     1},
    {"replica_not_a_region", "keyplan: 1\ntable: { name: Shop, pk: PK, replicas: [eu-west-1, EU] }\n",
     "design.yaml:2:52: error: table: replica 'EU' is not a region name; expected a region such as eu-west-1",
     1},
};

static void test_bases_are_valid(void **state)
{
    (void)state;
    static const char *const bases[] = {BASE_E, BASE};
    for (size_t i = 0; i < 2; i++) {
        kp_diags dg;
        diags_init(&dg, "design.yaml");
        kp_design *d = designio_load_string(bases[i], strlen(bases[i]), "design.yaml", &dg);
        if (!d)
            diags_print(&dg, stderr);
        assert_non_null(d);
        assert_int_equal(dg.n, 0);
        design_free(d);
        diags_free(&dg);
    }
}

static void test_malformed_designs(void **state)
{
    (void)state;
    size_t failed = 0;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const struct bad_case *c = &cases[i];
        kp_diags dg;
        diags_init(&dg, "design.yaml");
        kp_design *d = designio_load_string(c->text, strlen(c->text), "design.yaml", &dg);
        char *first = NULL;
        for (size_t k = 0; k < dg.n && !first; k++)
            if (dg.v[k].sev == KP_SEV_ERROR)
                first = diags_format(&dg, k);
        bool ok = !d && first && strcmp(first, c->first) == 0 && dg.errors == c->errors;
        if (!ok) {
            failed++;
            print_error("case %s:%s\n  expected: %s (%zu error(s))\n  got:      %s (%zu error(s))\n", c->name,
                        d ? " the design LOADED" : "", c->first, c->errors, first ? first : "(none)",
                        dg.errors);
            diags_print(&dg, stderr);
        }
        free(first);
        design_free(d);
        diags_free(&dg);
    }
    if (failed)
        fail_msg("%zu of %zu malformed designs were not refused as expected", failed,
                 sizeof cases / sizeof *cases);
    assert_true(sizeof cases / sizeof *cases >= 30);
}

/* Deep nesting is refused with a message, without deep recursion. */
static void test_deep_nesting(void **state)
{
    (void)state;
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, "keyplan: 1\nx: ");
    for (int i = 0; i < 100000; i++)
        sbuf_addc(&b, '[');
    kp_diags dg;
    diags_init(&dg, "design.yaml");
    kp_design *d = designio_load_string(b.s, b.len, "design.yaml", &dg);
    assert_null(d);
    assert_int_equal(dg.errors, 1);
    char *msg = diags_format(&dg, 0);
    assert_string_equal(
        msg, "design.yaml:2:204: error: the document nests deeper than 200 levels; expected a design file");
    free(msg);
    diags_free(&dg);
    sbuf_free(&b);
}

/* Every error is collected: three independent mistakes give three messages, in file order. */
static void test_collects_all(void **state)
{
    (void)state;
    static const char text[] = BASE "  - { id: 3, name: X, entity: Ordr, by: [orderId] }\n"
                                    "  - { id: 4, name: Y, entity: Order, by: [orderId], rate: lots }\n"
                                    "decisions:\n"
                                    "  - { id: D1, title: T, patterns: [5] }\n";
    static const char *const want[] = {
        "design.yaml:17:31: error: pattern 3: unknown entity 'Ordr' (did you mean 'Order'?)",
        "design.yaml:18:59: error: pattern 4: 'rate' is 'lots'; expected a number",
        "design.yaml:20:36: error: decision D1: unknown pattern '5'; expected one of: 1, 2, 3, 4",
    };
    kp_diags dg;
    diags_init(&dg, "design.yaml");
    assert_null(designio_load_string(text, strlen(text), "design.yaml", &dg));
    assert_int_equal(dg.errors, 3);
    for (size_t i = 0; i < 3; i++) {
        char *s = diags_format(&dg, i);
        assert_string_equal(s, want[i]);
        free(s);
    }
    diags_free(&dg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bases_are_valid),
        cmocka_unit_test(test_malformed_designs),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_collects_all),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
