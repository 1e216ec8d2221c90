/* tour.c - the CloudShop walkthrough (see tour.h). The two samples are embedded below (copies
 * of samples/cloudshop/design.yaml and first-design.yaml, checked against the files by
 * tests/test_tour.c); every step's design is one of them edited in C:
 *   1  first-design.yaml
 *   2  + patterns 8 and 9 served outside (search index, analytics store), streams on, D2
 *   3  = 2 (the first design's consequences: scan, hot status partition, finding)
 *   4  design.yaml without GSI-1 and GSI-2, strong reads, on-demand; decisions D1, D2
 *   5  + GSI-1 sparse and D3
 *   6  + GSI-2 keys-only and D4                  (= the ladder's rung "sparse GSI-1")
 *   7  design.yaml (the ladder's last rung); ladder: first month (GSI-1 on every status),
 *      sparse GSI-1, eventual reads (+D5), provisioned (+D6)
 *   8  design.yaml (the distribution check)
 *   9  design.yaml (the decision record) */
#include "tour.h"

#include "design_io.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the embedded samples ------------------------------------------------------------------
 * Verbatim copies of the files, one C string per line. When a sample changes, copy it here
 * again (each line quoted, ending in \n); tests/test_tour.c fails until copy and file match. */
static const char final_yaml[] =
    "# CloudShop orders: the final single-table model of the course's worked example\n"
    "# (\"Ejemplo trabajado\"). The nine access patterns were written first, with their\n"
    "# rates and latency targets; patterns 8 and 9 left DynamoDB before any modelling; customers and\n"
    "# their orders share one table; GSI-1 is sparse (only the orders the warehouse still has to\n"
    "# handle, paid or pending shipment, carry its key) and GSI-2 is keys-only for the daily close.\n"
    "# This is the design after the course's three cost adjustments: sparse GSI-1, eventual reads\n"
    "# (all but the customer screen), provisioned capacity.\n"
    "#\n"
    "# Calibration. keyplan's own cost model, with the course's euro unit prices (pricing:),\n"
    "# reproduces the course's monthly table line by line where DynamoDB's rules allow it: average\n"
    "# rates (avg:) drive the on-demand cost, peak rates (rate:) the provisioned capacity and the heat\n"
    "# (peak/avg is about 2.5 for every write, so provisioned writes stay at the on-demand 205 EUR).\n"
    "# - writes 41 M/month = 15.6 units/s: per new order (1.8/s) the header, its summary and 2.5\n"
    "#   lines, each under 1 KB (1 unit), plus 4.2 status changes of the header (7.5/s);\n"
    "# - reads 980 M/month, 92 % of them on patterns that need no strong read; storage 210 GB\n"
    "#   (50 M orders and summaries, 125 M lines, GSI-2's 50 M entries); streams = one stream read\n"
    "#   per table write; backups = the table's storage at the course's implied 0.342 EUR/GB;\n"
    "#   the provisioned prices (rcu_hour, wcu_hour) are the ones the third adjustment implies;\n"
    "# - status: items mostly end delivered (71 %); the writes (status write_shares) follow an\n"
    "#   order's life: two creates in pending-payment (header, summary), then paid, pending shipment,\n"
    "#   shipped, delivered, and some cancelled. The paid and pending-shipment orders (GSI-1's\n"
    "#   entries) are the last ~14 hours of orders: 0.18 % of the items, 90,000 entries.\n"
    "# Two lines of the course's table cannot come out of DynamoDB's write rules:\n"
    "# - first month, index writes 82 M (410 EUR), twice the table's 41 M. An order write costs 2\n"
    "#   index units (a create: GSI-1 + GSI-2; a status change: GSI-1's delete + put; the keys-only\n"
    "#   GSI-2 is untouched), but a summary or an order line costs 1 table unit and no index unit, so\n"
    "#   index writes reach 2x table writes only if summaries and lines are under 10 % of the\n"
    "#   order writes (18 status changes per order). keyplan gives 18.6 units/s = 244 EUR, above\n"
    "#   the table's 205 as the course says.\n"
    "# - sparse GSI-1, 19 M (95 EUR): DynamoDB charges an index write where the WRITES land (an\n"
    "#   order entering paid: 1; paid -> pending shipment: 2; shipped: 1), not where the items rest\n"
    "#   (0.18 % of them). keyplan costs it from the status write_shares: 32 % of the writes land on\n"
    "#   paid or pending shipment, 2 x 0.32 index units per status change, about 94 EUR.\n"
    "keyplan: 1\n"
    "name: CloudShop orders\n"
    "description: >-\n"
    "  The course's order store (CloudShop): customers, their addresses, order summaries under the\n"
    "  customer, order headers and lines under the order. One table, two GSIs, two patterns served\n"
    "  outside DynamoDB by the change stream.\n"
    "table:\n"
    "  name: CloudShop\n"
    "  pk: PK\n"
    "  sk: SK\n"
    "  billing: provisioned\n"
    "  streams: true          # feeds the search index (pattern 8) and the analytics store (pattern 9)\n"
    "  pitr: true\n"
    "  target_utilization: 0.7\n"
    "indexes:\n"
    "  - name: GSI1\n"
    "    pk: GSI1PK\n"
    "    sk: GSI1SK\n"
    "    projection: include\n"
    "    include: [orderId, customerId, orderDate, total]\n"
    "    why: pattern 5, the warehouse panel of orders pending shipment (sparse, paid or pending shipment)\n"
    "  - name: GSI2\n"
    "    pk: GSI2PK\n"
    "    sk: GSI2SK\n"
    "    projection: keys\n"
    "    why: pattern 7, the daily accounting close\n"
    "attributes:\n"
    "  customerId: { distinct: 41200, skew: \"zipf:0.765\", write_hot: 0.008 }\n"
    "  orderId:    { distinct: 50000000 }\n"
    "  orderDate:  { type: date, distinct: 730, write_hot: 1.0 }\n"
    "  lineNo:     { type: number, format: \"03\" }\n"
    "  tipo:       { type: enum, values: { casa: 0.6, trabajo: 0.4 } }\n"
    "  total:      { type: number }\n"
    "  status:\n"
    "    type: enum\n"
    "    values:       { pending-payment: 0.025, paid: 0.0009, pending-shipment: 0.0009,\n"
    "                    shipped: 0.0932, delivered: 0.71, cancelled: 0.17 }\n"
    "    write_shares: { pending-payment: 0.33, paid: 0.16, pending-shipment: 0.16,\n"
    "                    shipped: 0.155, delivered: 0.15, cancelled: 0.045 }\n"
    "entities:\n"
    "  - name: Customer\n"
    "    description: the customer's profile (PERFIL)\n"
    "    count: 41200\n"
    "    size: 1500\n"
    "    attributes: [customerId, customerName, email]\n"
    "    keys: { PK: \"CLIENTE#{customerId}\", SK: \"PERFIL\" }\n"
    "  - name: Address\n"
    "    description: a delivery address of the customer (DIRECCION#casa, DIRECCION#trabajo)\n"
    "    count: 82400\n"
    "    size: 350\n"
    "    attributes: [customerId, tipo]\n"
    "    keys: { PK: \"CLIENTE#{customerId}\", SK: \"DIRECCION#{tipo}\" }\n"
    "  - name: OrderSummary\n"
    "    description: the order as the customer's list shows it, with what pattern 6 needs\n"
    "    count: 50000000\n"
    "    size: 200\n"
    "    attributes: [customerId, customerName, orderId, orderDate, status, total]\n"
    "    keys: { PK: \"CLIENTE#{customerId}\", SK: \"PEDIDO#{orderDate}#{orderId}\" }\n"
    "  - name: Order\n"
    "    description: the order header (CABECERA)\n"
    "    count: 50000000\n"
    "    size: 1000\n"
    "    attributes: [orderId, customerId, orderDate, status, total]\n"
    "    keys:\n"
    "      PK: \"PEDIDO#{orderId}\"\n"
    "      SK: \"CABECERA\"\n"
    "      GSI1PK: \"ESTADO#{status}\"\n"
    "      GSI1SK: \"{orderDate}#{orderId}\"\n"
    "      GSI2PK: \"FECHA#{orderDate}\"\n"
    "      GSI2SK: \"{orderId}\"\n"
    "    sparse:\n"
    "      GSI1PK: \"status in [paid, pending-shipment]\"   # the key is removed when the order ships\n"
    "  - name: OrderLine\n"
    "    description: one line of an order (LINEA#001, LINEA#002, ...)\n"
    "    count: 125000000\n"
    "    size: 925\n"
    "    attributes: [orderId, lineNo, productId, quantity, price]\n"
    "    keys: { PK: \"PEDIDO#{orderId}\", SK: \"LINEA#{lineNo}\" }\n"
    "patterns:\n"
    "  - id: 1\n"
    "    name: Get order by id\n"
    "    entity: Order\n"
    "    by: [orderId]\n"
    "    rate: 400\n"
    "    avg: 128\n"
    "    latency: 20\n"
    "  - id: 2\n"
    "    name: Orders of a customer, newest first, paginated\n"
    "    entity: OrderSummary\n"
    "    by: [customerId]\n"
    "    order: orderDate desc\n"
    "    limit: 20\n"
    "    rate: 180\n"
    "    avg: 65\n"
    "    latency: 50\n"
    "  - id: 3\n"
    "    name: Orders of a customer between two dates\n"
    "    entity: OrderSummary\n"
    "    by: [customerId]\n"
    "    range: orderDate\n"
    "    items: 30\n"
    "    rate: 20\n"
    "    avg: 8\n"
    "    latency: 50\n"
    "  - id: 4\n"
    "    name: Lines of an order\n"
    "    entity: OrderLine\n"
    "    by: [orderId]\n"
    "    rate: 400\n"
    "    avg: 130\n"
    "    latency: 20\n"
    "  - id: 5\n"
    "    name: Orders pending shipment, for the warehouse panel\n"
    "    entity: Order\n"
    "    by: [\"status=pending-shipment\"]\n"
    "    order: orderDate asc\n"
    "    limit: 50\n"
    "    rate: 2\n"
    "    avg: 1\n"
    "    latency: 1000\n"
    "  - id: 6\n"
    "    name: Customer data of an order\n"
    "    entity: OrderSummary\n"
    "    by: [customerId]\n"
    "    covered_by: 2\n"
    "    rate: 400\n"
    "    latency: 20\n"
    "  - id: 7\n"
    "    name: Orders of a day, for the accounting close\n"
    "    entity: Order\n"
    "    by: [orderDate]\n"
    "    rate: 0.0000116          # once a day\n"
    "    latency: 300000          # under 5 minutes\n"
    "  - id: 8\n"
    "    name: Free-text search of orders (customer service)\n"
    "    needs: search\n"
    "    served_by: search-index\n"
    "    rate: 15\n"
    "    latency: 1000\n"
    "  - id: 9\n"
    "    name: Sales by category and week (reports)\n"
    "    needs: aggregate\n"
    "    served_by: analytics-store\n"
    "  - id: 10\n"
    "    name: Customer screen (profile, addresses, latest orders)\n"
    "    entities: [Customer, Address, OrderSummary]\n"
    "    by: [customerId]\n"
    "    items: 25\n"
    "    rate: 12\n"
    "    avg: 6.6\n"
    "    latency: 50\n"
    "    consistency: strong\n"
    "    why: shown right after the customer edits the profile or an address; the edit must show\n"
    "  - id: 11\n"
    "    name: Create order with its summary\n"
    "    kind: write\n"
    "    op: put\n"
    "    entities: [Order, OrderSummary]\n"
    "    items: 2\n"
    "    rate: 4.5\n"
    "    avg: 1.8\n"
    "    latency: 50\n"
    "  - id: 12\n"
    "    name: Write the lines of a new order\n"
    "    kind: write\n"
    "    op: put\n"
    "    entity: OrderLine\n"
    "    items: 2.5               # BatchWriteItem of the order's lines (2.5 on average)\n"
    "    rate: 4.5\n"
    "    avg: 1.8\n"
    "    latency: 50\n"
    "  - id: 13\n"
    "    name: Advance the status of an order\n"
    "    kind: write\n"
    "    op: update\n"
    "    entity: Order\n"
    "    by: [orderId]\n"
    "    changes: [status]\n"
    "    rate: 19\n"
    "    avg: 7.5\n"
    "    latency: 50\n"
    "alerts:\n"
    "  - { name: throttled writes, metric: WriteThrottleEvents, when: \"> 0 for 1 minute\" }\n"
    "  - { name: throttled reads, metric: ReadThrottleEvents, when: \"> 0 for 1 minute\" }\n"
    "  - { name: GSI1 throttled writes, metric: \"WriteThrottleEvents (GlobalSecondaryIndexName=GSI1)\",\n"
    "      when: \"> 0 for 1 minute\" }\n"
    "  - { name: hot key, metric: \"ContributorInsights MostThrottledKeys\", when: \"any key > 0 for 1 minute\" }\n"
    "pricing:\n"
    "  currency: EUR\n"
    "  read_per_million: 0.50\n"
    "  write_per_million: 5.00\n"
    "  index_write_per_million: 5.00\n"
    "  storage_gb_month: 0.25\n"
    "  backup_gb_month: 0.342\n"
    "  stream_read_per_100k: 0.044\n"
    "  rcu_hour: 0.00029\n"
    "  wcu_hour: 0.005\n"
    "decisions:\n"
    "  - id: D1\n"
    "    title: One table for customers and their orders\n"
    "    status: accepted\n"
    "    patterns: [2, 3, 6, 10]\n"
    "    context: >-\n"
    "      Patterns 2, 3 and 6 and the customer screen need the customer and the orders together,\n"
    "      at 400 requests/s; with separate tables the screen took 3 queries and a join in code.\n"
    "    decision: >-\n"
    "      Customer, addresses and order summaries share the partition CLIENTE#{customerId}; order\n"
    "      headers and lines share PEDIDO#{orderId}. The catalogue's product lines keep their own\n"
    "      table: they are never read with the above.\n"
    "    alternatives:\n"
    "      - { option: \"separate tables for customers, addresses and orders\",\n"
    "          why_not: \"the customer screen needs 3 queries and a join in code\" }\n"
    "    assumptions: [ \"the customer screen stays one query (profile, addresses, latest orders)\" ]\n"
    "    failure_test: the customer screen needs more than one request (pattern.10.requests > 1)\n"
    "    rollback: split the entities into tables with their own keys; copy by the change stream\n"
    "    limitations: generic PK/SK are harder to read; every new pattern must be thought again\n"
    "    signals: [ \"pattern.10.requests > 1\" ]\n"
    "  - id: D2\n"
    "    title: Free-text search and sales reports leave DynamoDB\n"
    "    status: accepted\n"
    "    patterns: [8, 9]\n"
    "    context: Search by free text and aggregations by category and week do not fit a key.\n"
    "    decision: >-\n"
    "      Pattern 8 goes to a search index and pattern 9 to an analytics store, both fed by the\n"
    "      change stream; DynamoDB keeps the operational path.\n"
    "    alternatives:\n"
    "      - { option: \"scan with filters for search\", why_not: \"a scan on a user-facing path, slow and growing\" }\n"
    "      - { option: \"counters maintained on write for the reports\", why_not: \"every new report needs new counters\" }\n"
    "    assumptions: [ \"a few seconds of stream lag is acceptable for search and reports\" ]\n"
    "    failure_test: customer service finds an order minutes after it was created, not seconds\n"
    "    rollback: none needed; the stream can be replayed into a new index\n"
    "    limitations: search results are eventually consistent\n"
    "    signals: [ \"pattern.8.rate > 200\" ]\n"
    "  - id: D3\n"
    "    title: Pending shipments share one sparse GSI1 partition\n"
    "    status: accepted\n"
    "    patterns: [5]\n"
    "    context: >-\n"
    "      The warehouse panel lists orders pending shipment, 2 queries/s. All of them land on one\n"
    "      GSI1 key (ESTADO#pending-shipment): a concentration accepted because the rate is low and\n"
    "      the items are few.\n"
    "    decision: >-\n"
    "      GSI1 holds only the orders the warehouse still has to handle, paid or pending shipment\n"
    "      (the key is removed when the order is handed to the carrier), and projects only id,\n"
    "      customer, date and total.\n"
    "    alternatives:\n"
    "      - { option: \"shard ESTADO# over 10 suffixes\", why_not: \"2 queries/s do not pay for 10 reads and a merge\" }\n"
    "      - { option: \"index every status (GSI1PK on all orders)\",\n"
    "          why_not: \"every order write reached GSI1: index writes cost more than table writes\" }\n"
    "      - { option: \"project ALL\", why_not: \"doubles storage and write cost for 2 queries/s\" }\n"
    "    assumptions: [ \"the warehouse panel stays under 50 queries/s\",\n"
    "                   \"fewer than 100,000 orders wait in the warehouse (paid or pending shipment)\" ]\n"
    "    failure_test: throttled reads on GSI1 or a panel page slower than 1 s\n"
    "    rollback: shard the GSI1 key (ESTADO#pending-shipment#0..9) and read the shards in parallel\n"
    "    limitations: one partition holds every pending order\n"
    "    signals: [ \"pattern.5.rate > 50\", \"index.GSI1.items > 100000\" ]\n"
    "  - id: D4\n"
    "    title: GSI2 keys-only for the daily close; no other index\n"
    "    status: accepted\n"
    "    patterns: [7]\n"
    "    context: >-\n"
    "      The accounting close reads the orders of one day, once a day, off peak. Four more indexes\n"
    "      were proposed for the internal panel.\n"
    "    decision: GSI2 (FECHA#{orderDate}, orderId) projects keys only; no other index is created.\n"
    "    alternatives:\n"
    "      - { option: \"GSI by customer email for the internal panel\", why_not: \"served by the analytics store; more index writes\" }\n"
    "      - { option: \"GSI by product for the internal panel\", why_not: \"served by the analytics store; more index writes\" }\n"
    "      - { option: \"GSI by payment method for finance\", why_not: \"served by the analytics store; more index writes\" }\n"
    "      - { option: \"GSI by carrier for logistics\", why_not: \"served by the analytics store; the four together would triple the write cost\" }\n"
    "    assumptions: [ \"the close runs once a day, off peak\" ]\n"
    "    failure_test: the close takes longer than 5 minutes\n"
    "    rollback: read the day from the analytics store instead\n"
    "    limitations: the close fetches the order headers it needs by key\n"
    "    signals: [ \"pattern.7.latency > 300000\" ]\n"
    "  - id: D5\n"
    "    title: Eventual reads everywhere but the customer screen\n"
    "    status: accepted\n"
    "    patterns: [1, 2, 3, 4, 10]\n"
    "    context: 92 % of the reads did not need the latest write; strong reads cost twice as much.\n"
    "    decision: every read is eventual except the customer screen, shown right after an edit\n"
    "    alternatives:\n"
    "      - { option: \"strong reads everywhere\", why_not: \"twice the read cost for data that did not need it\" }\n"
    "    assumptions: [ \"a read a few hundred ms old is fine for order pages\" ]\n"
    "    failure_test: a customer sees an order page without a change they just made\n"
    "    rollback: set consistency strong on the pattern that needs it\n"
    "    limitations: read-your-writes only on the customer screen\n"
    "  - id: D6\n"
    "    title: Provisioned capacity with autoscaling\n"
    "    status: accepted\n"
    "    patterns: []\n"
    "    context: After two months of data the traffic was stable and high.\n"
    "    decision: provisioned capacity, autoscaling at 70 % utilisation, reads and writes\n"
    "    alternatives:\n"
    "      - { option: \"stay on demand\", why_not: \"dearer per unit with stable, high traffic\" }\n"
    "    assumptions: [ \"no peak grows 10x within minutes (autoscaling takes minutes)\" ]\n"
    "    failure_test: throttling during a campaign peak\n"
    "    rollback: switch back to on-demand (allowed once a day)\n"
    "    limitations: sudden peaks are not covered\n"
    "    signals: [ \"cost.total > 700\" ]\n";

static const char first_yaml[] =
    "# CloudShop's first design, as the course tells it (\"El error de clave\"):\n"
    "# made before the access patterns were written, keyed by order status because \"the warehouse\n"
    "# panel queries by status, and it is the query we were asked for first\".\n"
    "#\n"
    "# What happened in production, and what keyplan shows from this file:\n"
    "# - 6 statuses, 71 % of the orders end \"delivered\", every new order enters \"pending payment\":\n"
    "#   two status partitions take 94 % of the writes (status write_shares below) and the hottest\n"
    "#   passes its 1,000 write units/s near 900 writes/s, with the table mostly idle;\n"
    "# - pattern 1, the most frequent, needs the status to find an order by id: a full scan,\n"
    "#   340 ms in production against a 20 ms target.\n"
    "# Reads were strongly consistent (nobody had asked whether they needed to be).\n"
    "keyplan: 1\n"
    "name: CloudShop orders (first design, keyed by status)\n"
    "description: >-\n"
    "  The first design of the course's worked example: the partition key is the order status and\n"
    "  the sort key date#id. It cost a six-week migration.\n"
    "table:\n"
    "  name: CloudShopOrders\n"
    "  pk: PK\n"
    "  sk: SK\n"
    "  billing: provisioned\n"
    "  streams: false\n"
    "  pitr: false\n"
    "attributes:\n"
    "  customerId: { distinct: 41200, skew: \"zipf:0.765\", write_hot: 0.008 }\n"
    "  orderId:    { distinct: 40000000 }\n"
    "  orderDate:  { type: date, distinct: 730, write_hot: 1.0 }\n"
    "  total:      { type: number }\n"
    "  status:\n"
    "    type: enum\n"
    "    values:       { pending-payment: 0.025, paid: 0.013, pending-shipment: 0.002,\n"
    "                    shipped: 0.08, delivered: 0.71, cancelled: 0.17 }\n"
    "    write_shares: { pending-payment: 0.60, delivered: 0.34, paid: 0.02,\n"
    "                    pending-shipment: 0.02, shipped: 0.015, cancelled: 0.005 }\n"
    "entities:\n"
    "  - name: Order\n"
    "    description: the whole order, lines included, under its status\n"
    "    count: 40000000\n"
    "    size: 1800\n"
    "    attributes: [orderId, customerId, orderDate, status, total]\n"
    "    keys: { PK: \"ESTADO#{status}\", SK: \"{orderDate}#{orderId}\" }\n"
    "  - name: Customer\n"
    "    count: 41200\n"
    "    size: 1500\n"
    "    attributes: [customerId, customerName, email]\n"
    "    keys: { PK: \"CLIENTE#{customerId}\", SK: \"PERFIL\" }\n"
    "patterns:\n"
    "  - { id: 1, name: Get order by id, entity: Order, by: [orderId], rate: 400, latency: 20,\n"
    "      consistency: strong, why: nobody asked }\n"
    "  - { id: 2, name: \"Orders of a customer, newest first, paginated\", entity: Order,\n"
    "      by: [customerId], order: orderDate desc, limit: 20, rate: 180, latency: 50,\n"
    "      consistency: strong, why: nobody asked }\n"
    "  - { id: 3, name: Orders of a customer between two dates, entity: Order, by: [customerId],\n"
    "      range: orderDate, rate: 20, latency: 50, consistency: strong, why: nobody asked }\n"
    "  - { id: 4, name: Lines of an order, entity: Order, by: [orderId], rate: 400, latency: 20,\n"
    "      consistency: strong, why: nobody asked }\n"
    "  - { id: 5, name: \"Orders pending shipment, for the warehouse panel\", entity: Order,\n"
    "      by: [\"status=pending-shipment\"], order: orderDate asc, limit: 50, rate: 2, latency: 1000 }\n"
    "  - { id: 6, name: Customer data of an order, entity: Customer, by: [customerId], rate: 400,\n"
    "      latency: 20, consistency: strong, why: nobody asked }\n"
    "  - { id: 7, name: \"Orders of a day, for the accounting close\", entity: Order, by: [orderDate],\n"
    "      rate: 0.0000116, latency: 300000 }\n"
    "  - { id: 8, name: Free-text search of orders (customer service), needs: search, rate: 15,\n"
    "      latency: 1000 }\n"
    "  - { id: 9, name: Sales by category and week (reports), needs: aggregate }\n"
    "  - { id: 11, name: Create order, kind: write, op: put, entity: Order, rate: 540 }\n"
    "  - { id: 12, name: Advance the status of an order, kind: write, op: update, entity: Order,\n"
    "      by: [orderId], changes: [status], rate: 360 }\n"
    "alerts: []\n"
    "pricing:                 # the course's unit prices (EUR), as in design.yaml\n"
    "  currency: EUR\n"
    "  read_per_million: 0.50\n"
    "  write_per_million: 5.00\n"
    "  index_write_per_million: 5.00\n"
    "  storage_gb_month: 0.25\n"
    "  backup_gb_month: 0.342\n"
    "  stream_read_per_100k: 0.044\n"
    "  rcu_hour: 0.00029\n"
    "  wcu_hour: 0.005\n";

/* ---- steps --------------------------------------------------------------------------------- */

static const tour_mark marks1[] = {{"pattern", "1"}, {"pattern", "2"}, {"pattern", "3"}, {"pattern", "4"},
                                   {"pattern", "5"}, {"pattern", "6"}, {"pattern", "7"}, {"pattern", "8"},
                                   {"pattern", "9"}};
static const tour_mark marks2[] = {{"pattern", "8"}, {"pattern", "9"}, {"decision", "D2"}, {"checklist", "11"}};
static const tour_mark marks3[] = {{"pattern", "1"}, {"partition", "ESTADO#{status}"},
                                   {"finding", "low-cardinality-pk"}, {"finding", "hot-partition"}};
static const tour_mark marks4[] = {{"entity", "Customer"}, {"entity", "Address"}, {"entity", "OrderSummary"},
                                   {"entity", "Order"},    {"entity", "OrderLine"}, {"pattern", "1"},
                                   {"pattern", "2"},       {"pattern", "3"},       {"pattern", "4"},
                                   {"pattern", "6"},       {"pattern", "10"},      {"decision", "D1"}};
static const tour_mark marks5[] = {{"index", "GSI1"}, {"pattern", "5"}, {"decision", "D3"}};
static const tour_mark marks6[] = {{"index", "GSI2"}, {"pattern", "7"}, {"decision", "D4"}};
static const tour_mark marks7[] = {{"cost", "index writes"}, {"cost", "reads"}, {"cost", "total"},
                                   {"decision", "D5"}, {"decision", "D6"}};
static const tour_mark marks8[] = {{"partition", "CLIENTE#{customerId}"}, {"checklist", "3"}, {"checklist", "9"}};
static const tour_mark marks9[] = {{"decision", "D1"}, {"decision", "D2"}, {"decision", "D3"},
                                   {"decision", "D4"}, {"decision", "D5"}, {"decision", "D6"}};

static const tour_rung ladder[] = {
    {"first month: on demand, strong reads, GSI-1 on every order",
     "reads 490, writes 205, storage 53, index writes 410, streams 18, backups 68: 1,244 EUR", 1244},
    {"GSI-1 sparse (only orders paid or pending shipment)", "index writes 82 M -> 19 M, 410 -> 95 EUR", 929},
    {"eventual reads (all but the customer screen)", "reads 490 -> 268 EUR", 707},
    {"provisioned capacity with autoscaling", "reads 268 -> 171 EUR; total 620 EUR", 620},
};

#define N(a) (sizeof(a) / sizeof *(a))

static const tour_step cloudshop[] = {
    {1, "Nine access patterns, before anything else",
     "CloudShop designs its order store. Before choosing any key, the team writes the document "
     "the course asks for: every access pattern, what it is asked with, how many times per "
     "second, and how fast it must answer. Nine patterns, plus the customer screen and the "
     "writes that create orders and move them from status to status.\n\n"
     "DynamoDB only does two things fast: get one item by its full key, and get a range of "
     "items sharing a partition key, sorted by the sort key. Everything else is a scan of the "
     "whole table: expensive, slow, and worse as the table grows.\n\n"
     "The table in the model pane is the one CloudShop had already sketched, keyed by order "
     "status (step 3 looks at it). Read the plan column against the patterns: the key decides "
     "which of them DynamoDB can serve.",
     marks1, N(marks1), NULL, 0},
    {2, "Patterns 8 and 9 leave DynamoDB",
     "The first decision is taken before any modelling: free-text search (8) and sales by "
     "category and week (9) do not go to DynamoDB. Search goes to a search index and the "
     "aggregations to an analytics store, both fed by the change stream (streams: true). "
     "Forcing them into the key design would have wrecked it.\n\n"
     "It is recorded as decision D2; the model pane shows both patterns served outside (>), "
     "and checklist item 11 passes.",
     marks2, N(marks2), NULL, 0},
    {3, "The first design, keyed by status",
     "The first design was made before the patterns were written: partition key "
     "ESTADO#{status}, sort key {orderDate}#{orderId}, because \"the warehouse panel queries "
     "by status, and it is the query we were asked for first\".\n\n"
     "In production: 6 statuses, 71 % of the orders end delivered, and every new order enters "
     "pending payment (the status attribute's write_shares say where the writes land, apart "
     "from where the items end). Two status partitions took almost all the writes: throughput "
     "errors at about 900 writes/s with the table provisioned for 20,000 and the usage panel "
     "at 5 %. And pattern 1, the most frequent, could not be served: to get an order by id you "
     "had to know its status, so it became a full scan (340 ms in production, against 20 ms).\n\n"
     "keyplan shows the same from the design: pattern 1 is a scan far over its target, the "
     "hottest ESTADO# partition passes its 1,000 write units/s while the table is mostly idle, "
     "and the low-cardinality partition key finding fires. The correction took six weeks of "
     "two people; writing the nine patterns first would have taken three hours.",
     marks3, N(marks3), NULL, 0},
    {4, "The final model: one table",
     "Customers and orders share one table with generic keys. Under CLIENTE#{customerId}: the "
     "profile (PERFIL), the addresses (DIRECCION#{tipo}) and one summary per order "
     "(PEDIDO#{orderDate}#{orderId}). Under PEDIDO#{orderId}: the header (CABECERA) and the "
     "lines (LINEA#{lineNo}: LINEA#001, LINEA#002).\n\n"
     "Patterns 1 to 4 are one operation each: GetItem of PEDIDO#4471 / CABECERA; a query of "
     "CLIENTE#123 with prefix PEDIDO#, descending, limit 20; the same between two dates; a "
     "query of PEDIDO#4471 with prefix LINEA#. Pattern 6 costs nothing: the summary under "
     "CLIENTE# already carries what it needs. The customer screen reads CLIENTE#123 without a "
     "prefix: profile, addresses and latest orders in one query instead of three and a join.\n\n"
     "Why one table, written down (D1): patterns 2, 3 and 6 need the customer and the orders "
     "together, at 400 requests/s. The catalogue's product lines keep their own table. "
     "Patterns 5 and 7 have no key yet: they are still scans.",
     marks4, N(marks4), NULL, 0},
    {5, "GSI-1, sparse, for the warehouse panel",
     "Pattern 5 lists the orders pending shipment, 2 queries/s. GSI-1 is keyed on "
     "GSI1PK = ESTADO#{status} and GSI1SK = {orderDate}#{orderId}, and only the orders the "
     "warehouse still has to handle (the active statuses: paid, pending shipment) carry GSI1PK "
     "(sparse: the key is removed when the order is handed to the carrier). It projects only "
     "id, customer, date and total: 2 queries/s do not justify projecting everything.\n\n"
     "Here there IS concentration: every pending order under one key. Acceptable at 2 "
     "queries/s and few items, and recorded as decision D3 with the signals that would reopen "
     "it: the panel above 50 queries/s (pattern.5.rate > 50) or more than 100,000 pending "
     "items (index.GSI1.items > 100000).",
     marks5, N(marks5), NULL, 0},
    {6, "GSI-2, keys only, for the daily close",
     "Pattern 7, the orders of a day for the accounting close, runs once a day, off peak, and "
     "may take up to 5 minutes. GSI-2 is keyed on GSI2PK = FECHA#{orderDate} and "
     "GSI2SK = {orderId}, and projects keys only.\n\n"
     "No other index was created. Four more were proposed for the internal panel: they were "
     "resolved in the analytics store, and would have tripled the write cost. They stay in "
     "decision D4 as discarded alternatives, each with its reason.",
     marks6, N(marks6), NULL, 0},
    {7, "The cost ladder",
     "The first month, on demand, at the course's unit prices (the pricing: block): reads, "
     "table writes, storage, index writes, the change stream and continuous backups. The "
     "indexes cost more than the table's own writes: GSI-1 received every order write and "
     "projected four attributes.\n\n"
     "Three adjustments followed. GSI-1 became sparse: only orders in the active statuses "
     "(paid, pending shipment) are indexed, the key is removed when the order leaves the "
     "warehouse. 92 % of the reads did not need strong "
     "consistency and became eventual, at half the price (D5). After two months of stable, high "
     "traffic, provisioned capacity with autoscaling (D6). The course went from 1,244 EUR to "
     "620 EUR a month.\n\n"
     "Each rung below is computed by keyplan's cost model from the design at that rung, with "
     "the course's own figure beside it. One figure differs, and DynamoDB's write rules say "
     "why: the first month's index writes. A new order or a status change costs 2 index units "
     "for 1 table unit, but the order's summary and lines cost table units and no index unit, "
     "so index writes stay under twice the table's (keyplan: above the table's, as the course "
     "says, not double). The sparse GSI-1 is charged where the writes land, not where the "
     "items rest: an order entering paid costs 1, moving to pending shipment 2 (delete + put), "
     "leaving 1; the status write_shares put 32 % of the writes on the indexed statuses, near "
     "the course's 95 EUR.",
     marks7, N(marks7), ladder, N(ladder)},
    {8, "The distribution check",
     "Before going live CloudShop simulated a campaign day: about 41,200 distinct partition "
     "keys, the hottest taking 0.8 % of the writes and 2.1 % of the reads (a business customer "
     "with many orders), far below a partition's limit.\n\n"
     "keyplan computes the same from the design's distributions: customerId is skewed over "
     "41,200 customers (skew: zipf) and its writes follow write_hot. The alert that stayed: "
     "throughput errors > 0 for 1 minute, which tells throttling from an application error.",
     marks8, N(marks8), NULL, 0},
    {9, "The decision record",
     "Every decision is in the design: its context, the alternatives discarded and why, the "
     "assumptions that can be proven false, the failure test, the rollback, the limitations, "
     "and the machine-checked signals that would reopen it.\n\n"
     "`keyplan export samples/cloudshop/design.yaml --format md` writes the record as Markdown "
     "for the review (in the workbench, :export md FILE). The result, as the course tells it: "
     "pattern 1 from 340 ms to 11 ms, the customer screen from 3 operations to 1, no more "
     "throttling at 5 % use, 1,244 EUR to 620 EUR a month, 6 indexes to 2, and 2 patterns "
     "served outside DynamoDB.",
     marks9, N(marks9), NULL, 0},
};

bool tour_exists(const char *name) { return !name || strcmp(name, TOUR_DEFAULT) == 0; }

const tour_step *tour_steps(const char *name, size_t *n)
{
    if (!tour_exists(name)) {
        *n = 0;
        return NULL;
    }
    *n = N(cloudshop);
    return cloudshop;
}

/* ---- editing a design ---------------------------------------------------------------------- */

static kp_design *load_embedded(const char *text, const char *name, char **err)
{
    kp_diags dg;
    diags_init(&dg, name);
    kp_design *d = designio_load_string(text, strlen(text), name, &dg);
    if (!d) {
        char *first = dg.n ? diags_format(&dg, 0) : xstrdup("cannot load");
        *err = xasprintf("tour: the embedded design does not load: %s", first);
        free(first);
    }
    diags_free(&dg);
    return d;
}

static kp_entity *entity_mut(kp_design *d, const char *name)
{
    ptrdiff_t i = design_entity_pos(d, name);
    return i < 0 ? NULL : &d->entities[i];
}

static void remove_key(kp_entity *e, const char *attr)
{
    for (size_t i = 0; i < e->nkeys; i++) {
        if (e->keys[i].attr.s && strcmp(e->keys[i].attr.s, attr) == 0) {
            str_free(&e->keys[i].attr);
            tpl_free(&e->keys[i].tpl);
            memmove(&e->keys[i], &e->keys[i + 1], (e->nkeys - i - 1) * sizeof *e->keys);
            e->nkeys--;
            return;
        }
    }
}

static void remove_sparse(kp_entity *e, const char *attr)
{
    for (size_t i = 0; i < e->nsparse; i++) {
        kp_sparse *s = &e->sparse[i];
        if (s->attr.s && strcmp(s->attr.s, attr) == 0) {
            str_free(&s->attr);
            str_free(&s->cond_attr);
            for (size_t k = 0; k < s->nvalues; k++)
                str_free(&s->values[k]);
            free(s->values);
            free(s->src);
            memmove(s, s + 1, (e->nsparse - i - 1) * sizeof *e->sparse);
            e->nsparse--;
            return;
        }
    }
}

static void remove_index(kp_design *d, const char *name)
{
    ptrdiff_t i = design_index_pos(d, name);
    if (i < 0)
        return;
    kp_index *x = &d->indexes[i];
    for (size_t e = 0; e < d->nentities; e++) {
        if (x->pk.s)
            remove_key(&d->entities[e], x->pk.s), remove_sparse(&d->entities[e], x->pk.s);
        if (x->sk.s)
            remove_key(&d->entities[e], x->sk.s), remove_sparse(&d->entities[e], x->sk.s);
    }
    index_free(x);
    memmove(x, x + 1, (d->nindexes - (size_t)i - 1) * sizeof *d->indexes);
    d->nindexes--;
}

/* Takes decision `id` out of d (the caller owns the returned copy); false when absent. */
static bool take_decision(kp_design *d, const char *id, kp_decision *out)
{
    for (size_t i = 0; i < d->ndecisions; i++) {
        if (d->decisions[i].id && strcmp(d->decisions[i].id, id) == 0) {
            *out = d->decisions[i];
            memmove(&d->decisions[i], &d->decisions[i + 1], (d->ndecisions - i - 1) * sizeof *d->decisions);
            d->ndecisions--;
            return true;
        }
    }
    return false;
}

static void remove_decision(kp_design *d, const char *id)
{
    kp_decision x;
    if (take_decision(d, id, &x))
        decision_free(&x);
}

static void add_decision(kp_design *d, kp_decision *x)
{
    d->decisions = xrealloc(d->decisions, (d->ndecisions + 1) * sizeof *d->decisions);
    d->decisions[d->ndecisions++] = *x;
}

static void set_strong(kp_design *d, const char *const *ids, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        ptrdiff_t k = design_pattern_pos(d, ids[i]);
        if (k >= 0) {
            d->patterns[k].consistency = KP_STRONG;
            d->patterns[k].consistency_given = true;
        }
    }
}

static void serve_outside(kp_design *d, const char *id, const char *by)
{
    ptrdiff_t k = design_pattern_pos(d, id);
    if (k >= 0 && !d->patterns[k].served_by)
        d->patterns[k].served_by = xstrdup(by);
}

/* The final design at a ladder rung: 0 first month, 1 sparse GSI-1, 2 eventual, 3 provisioned. */
static kp_design *final_at_rung(size_t rung, char **err)
{
    kp_design *d = load_embedded(final_yaml, "samples/cloudshop/design.yaml", err);
    if (!d || rung >= 3)
        return d;
    static const char *const strong[] = {"1", "2", "3", "4"};
    d->table.billing = KP_BILLING_ON_DEMAND;
    remove_decision(d, "D6");
    if (rung <= 1) {
        set_strong(d, strong, N(strong));
        remove_decision(d, "D5");
    }
    if (rung == 0) {
        kp_entity *o = entity_mut(d, "Order");
        if (o)
            remove_sparse(o, "GSI1PK");
    }
    return d;
}

static kp_design *build(size_t step, char **err)
{
    switch (step) {
    case 0:
        return load_embedded(first_yaml, "samples/cloudshop/first-design.yaml", err);
    case 1:
    case 2: {
        kp_design *d = load_embedded(first_yaml, "samples/cloudshop/first-design.yaml", err);
        kp_design *f = d ? load_embedded(final_yaml, "samples/cloudshop/design.yaml", err) : NULL;
        if (!f) {
            design_free(d);
            return NULL;
        }
        serve_outside(d, "8", "search-index");
        serve_outside(d, "9", "analytics-store");
        d->table.streams = KP_TRUE;
        kp_decision x;
        if (take_decision(f, "D2", &x))
            add_decision(d, &x);
        design_free(f);
        return d;
    }
    case 3:
    case 4:
    case 5: {
        kp_design *d = final_at_rung(1, err);
        if (!d)
            return NULL;
        if (step <= 4) {
            remove_index(d, "GSI2");
            remove_decision(d, "D4");
        }
        if (step == 3) {
            remove_index(d, "GSI1");
            remove_decision(d, "D3");
        }
        return d;
    }
    default:
        return load_embedded(final_yaml, "samples/cloudshop/design.yaml", err);
    }
}

kp_design *tour_design(const char *name, size_t i, char **err)
{
    size_t n;
    if (!tour_steps(name, &n)) {
        *err = xasprintf("unknown tour '%s'; expected '%s'", name ? name : "", TOUR_DEFAULT);
        return NULL;
    }
    if (i >= n) {
        *err = xasprintf("tour '%s' has steps 1 to %zu", name ? name : TOUR_DEFAULT, n);
        return NULL;
    }
    return build(i, err);
}

kp_design *tour_rung_design(const char *name, size_t i, size_t r, char **err)
{
    size_t n;
    const tour_step *s = tour_steps(name, &n);
    if (!s || i >= n || r >= s[i].nrungs) {
        *err = xasprintf("tour '%s' has no such rung", name ? name : TOUR_DEFAULT);
        return NULL;
    }
    return final_at_rung(r, err);
}

char *tour_yaml(const char *name, size_t i, char **err)
{
    kp_design *d = tour_design(name, i, err);
    if (!d)
        return NULL;
    char *y = designio_save_string(d);
    design_free(d);
    return y;
}

/* ---- figures ------------------------------------------------------------------------------- */

static const kp_pattern_result *result_of(const kp_analysis *a, const char *id)
{
    for (size_t i = 0; i < a->npatterns; i++)
        if (a->patterns[i].pattern && a->patterns[i].pattern->id && strcmp(a->patterns[i].pattern->id, id) == 0)
            return &a->patterns[i];
    return NULL;
}

/* "20 ms", "1.5 s", "16 min" */
static void human_ms(char *out, size_t n, double ms)
{
    if (!isfinite(ms))
        snprintf(out, n, "-");
    else if (ms >= 60000)
        snprintf(out, n, "%.3g min", ms / 60000);
    else if (ms >= 1000)
        snprintf(out, n, "%.3g s", ms / 1000);
    else
        snprintf(out, n, "%.3g ms", ms);
}

/* "400/s", "1/day" */
static void human_rate(char *out, size_t n, double r)
{
    if (!isfinite(r))
        snprintf(out, n, "-");
    else if (r > 0 && r < 0.01)
        snprintf(out, n, "%.3g/day", r * 86400);
    else
        snprintf(out, n, "%g/s", r);
}

static void fig_pattern(sbuf *b, const kp_pattern_result *r)
{
    const kp_pattern *p = r->pattern;
    sbuf_printf(b, "  %-3s %-52.52s %s %-8s", p->id, p->name ? p->name : "", kp_plan_symbol(r->plan),
                kp_plan_word(r->plan));
    if (r->plan == KP_PLAN_OUTSIDE)
        sbuf_printf(b, " served by %s", p->served_by ? p->served_by : "?");
    else if (r->plan == KP_PLAN_COVERED)
        sbuf_printf(b, " in pattern %s's result", p->covered_by.s ? p->covered_by.s : "?");
    else if (p->kind == KP_READ) {
        sbuf_printf(b, " %g req on %s", r->requests, r->index_name ? r->index_name : "table");
        if (isfinite(r->latency_ms) && isfinite(p->latency)) {
            char est[32], tgt[32];
            human_ms(est, sizeof est, r->latency_ms);
            human_ms(tgt, sizeof tgt, p->latency);
            sbuf_printf(b, ", %s vs %s%s", est, tgt, r->latency_ok ? "" : " MISSED");
        }
    }
    sbuf_addc(b, '\n');
}

static const kp_partition_result *hottest_write(const kp_analysis *a)
{
    const kp_partition_result *best = NULL;
    for (size_t i = 0; i < a->npartitions; i++)
        if (!best || a->partitions[i].write_util > best->write_util)
            best = &a->partitions[i];
    return best;
}

static const kp_partition_result *partition_of(const kp_analysis *a, const char *tpl_src)
{
    for (size_t i = 0; i < a->npartitions; i++)
        if (a->partitions[i].template_src && strcmp(a->partitions[i].template_src, tpl_src) == 0)
            return &a->partitions[i];
    return NULL;
}

static void fig_cost(sbuf *b, const kp_cost *c)
{
    for (size_t i = 0; i < c->nlines; i++)
        sbuf_printf(b, "%s%s %.0f", i ? ", " : "", c->lines[i].name, c->lines[i].amount);
    sbuf_printf(b, "; total %.0f %s", c->total, c->currency ? c->currency : "USD");
}

static void fig_findings(sbuf *b, const kp_analysis *a)
{
    sbuf_add(b, "  findings:");
    if (a->nfindings == 0)
        sbuf_add(b, " none");
    bool first = true;
    for (size_t i = 0; i < a->nfindings; i++) {
        bool seen = false;
        size_t count = 0;
        for (size_t k = 0; k < a->nfindings; k++) {
            if (strcmp(a->findings[k].code, a->findings[i].code) == 0) {
                seen |= k < i;
                count++;
            }
        }
        if (seen)
            continue;
        sbuf_printf(b, "%s %s", first ? "" : ",", a->findings[i].code);
        if (count > 1)
            sbuf_printf(b, " (x%zu)", count);
        first = false;
    }
    sbuf_addc(b, '\n');
}

char *tour_figures(const char *name, size_t step, const kp_analysis *a)
{
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, "");
    const kp_design *d = a->design;
    switch (step) {
    case 0:
    case 1:
        for (size_t i = 0; i < a->npatterns; i++) {
            const kp_pattern *p = a->patterns[i].pattern;
            if (step == 1 && p && p->needs == KP_NEEDS_NONE)
                continue;
            if (step == 0 && p) {
                char rate[32], lat[48] = "-", ms[32];
                human_rate(rate, sizeof rate, p->rate);
                human_ms(ms, sizeof ms, p->latency);
                if (isfinite(p->latency))
                    snprintf(lat, sizeof lat, "< %s", ms);
                sbuf_printf(&b, "  %-3s %-52.52s %8s %10s  %s %s\n", p->id, p->name ? p->name : "", rate, lat,
                            kp_plan_symbol(a->patterns[i].plan), kp_plan_word(a->patterns[i].plan));
            } else if (p) {
                fig_pattern(&b, &a->patterns[i]);
            }
        }
        if (step == 1)
            sbuf_printf(&b, "  checklist 11 (what does not fit is served elsewhere): %s\n",
                        kp_check_status_name(a->checklist[10].status));
        break;
    case 2: {
        const kp_pattern_result *r = result_of(a, "1");
        if (r)
            fig_pattern(&b, r);
        const kp_partition_result *h = hottest_write(a);
        if (h) {
            double total_w = a->nindexes ? a->indexes[0].wcu_per_s : NAN;
            sbuf_printf(&b,
                        "  hottest partition %s: %.0f %% of the writes, %.0f write units/s = %.0f %% of "
                        "its 1,000%s\n",
                        h->template_src ? h->template_src : "?", h->write_hot_share * 100, h->write_units,
                        h->write_util * 100, h->hot ? " (HOT)" : "");
            if (isfinite(total_w))
                sbuf_printf(&b, "  the whole table: %.0f write units/s at peak\n", total_w);
        }
        fig_findings(&b, a);
        break;
    }
    case 3:
        for (size_t i = 0; i < a->npatterns; i++)
            if (a->patterns[i].pattern && a->patterns[i].pattern->kind == KP_READ)
                fig_pattern(&b, &a->patterns[i]);
        break;
    case 4:
    case 5: {
        const kp_pattern_result *r = result_of(a, step == 4 ? "5" : "7");
        if (r) {
            fig_pattern(&b, r);
            if (r->key_condition && *r->key_condition)
                sbuf_printf(&b, "      %s\n", r->key_condition);
        }
        const char *ix = step == 4 ? "GSI1" : "GSI2";
        for (size_t i = 0; i < a->nindexes; i++)
            if (a->indexes[i].name && strcmp(a->indexes[i].name, ix) == 0)
                sbuf_printf(&b, "  %s holds %.0f items\n", ix, a->indexes[i].items);
        const kp_decision *dec = NULL;
        for (size_t i = 0; i < d->ndecisions; i++)
            if (d->decisions[i].id && strcmp(d->decisions[i].id, step == 4 ? "D3" : "D4") == 0)
                dec = &d->decisions[i];
        if (dec) {
            for (size_t k = 0; k < dec->nsignals; k++) {
                double v = NAN;
                bool known = analysis_metric(a, dec->signals[k].metric, &v);
                sbuf_printf(&b, "  signal %s: now %s%.6g\n", dec->signals[k].src, known ? "" : "unknown ",
                            known ? v : 0.0);
            }
            if (step == 5)
                for (size_t k = 0; k < dec->nalternatives; k++)
                    sbuf_printf(&b, "  refused: %s\n", dec->alternatives[k].option);
        }
        break;
    }
    case 6: {
        const tour_step *s = &cloudshop[6];
        for (size_t r = 0; r < s->nrungs; r++) {
            char *err = NULL;
            kp_design *rd = tour_rung_design(name, step, r, &err);
            if (!rd) {
                sbuf_printf(&b, "  %s: %s\n", s->rungs[r].label, err);
                free(err);
                continue;
            }
            kp_analysis *ra = analysis_run(rd);
            sbuf_printf(&b, "  %zu. %s\n     keyplan (%s): ", r + 1, s->rungs[r].label,
                        kp_billing_name(ra->cost->mode));
            fig_cost(&b, ra->cost);
            sbuf_printf(&b, "\n     course: %s\n", s->rungs[r].course);
            analysis_free(ra);
            design_free(rd);
        }
        break;
    }
    case 7: {
        const kp_partition_result *p = partition_of(a, "CLIENTE#{customerId}");
        if (p)
            sbuf_printf(&b,
                        "  CLIENTE#{customerId}: %.0f distinct partition keys; the hottest takes %.1f %% "
                        "of the writes and %.1f %% of the reads\n"
                        "  its use of the partition limits: %.2f %% of the reads, %.2f %% of the writes\n",
                        p->distinct, p->write_hot_share * 100, p->read_hot_share * 100, p->read_util * 100,
                        p->write_util * 100);
        size_t hot = 0;
        for (size_t i = 0; i < a->npartitions; i++)
            hot += a->partitions[i].hot;
        sbuf_printf(&b, "  hot partitions: %zu\n", hot);
        for (size_t i = 0; i < d->nalerts; i++)
            sbuf_printf(&b, "  alert: %s (%s %s)\n", d->alerts[i].name, d->alerts[i].metric,
                        d->alerts[i].when ? d->alerts[i].when : "");
        break;
    }
    default:
        for (size_t i = 0; i < d->ndecisions; i++) {
            const kp_decision *dec = &d->decisions[i];
            size_t fired = 0;
            for (size_t k = 0; k < dec->nsignals; k++) {
                double v;
                const kp_signal *s = &dec->signals[k];
                if (analysis_metric(a, s->metric, &v) && isfinite(v)) {
                    bool f = s->cmp == KP_CMP_GT ? v > s->value : s->cmp == KP_CMP_GE ? v >= s->value
                             : s->cmp == KP_CMP_LT ? v < s->value : s->cmp == KP_CMP_LE ? v <= s->value
                             : s->cmp == KP_CMP_EQ ? v == s->value : v != s->value;
                    fired += f;
                }
            }
            sbuf_printf(&b, "  %-3s %-60.60s %s, %zu alternative%s, %zu signal%s%s\n", dec->id, dec->title,
                        kp_decision_status_name(dec->status), dec->nalternatives,
                        dec->nalternatives == 1 ? "" : "s", dec->nsignals, dec->nsignals == 1 ? "" : "s",
                        fired ? " (FIRED: reopen)" : "");
        }
        sbuf_printf(&b, "  cost: ");
        fig_cost(&b, a->cost);
        sbuf_addc(&b, '\n');
        break;
    }
    return sbuf_steal(&b);
}

/* ---- the handout ----------------------------------------------------------------------------- */

static void wrap(sbuf *b, const char *text, int width)
{
    const char *p = text;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t plen = eol ? (size_t)(eol - p) : strlen(p);
        /* one paragraph line: wrap at spaces (byte count ~ columns; narration is ASCII) */
        size_t col = 0;
        const char *w = p, *end = p + plen;
        while (w < end) {
            const char *sp = w;
            while (sp < end && *sp != ' ')
                sp++;
            size_t wl = (size_t)(sp - w);
            if (col > 0 && col + 1 + wl > (size_t)width) {
                sbuf_addc(b, '\n');
                col = 0;
            }
            if (col > 0) {
                sbuf_addc(b, ' ');
                col++;
            }
            sbuf_addn(b, w, wl);
            col += wl;
            w = sp;
            while (w < end && *w == ' ')
                w++;
        }
        sbuf_addc(b, '\n');
        if (!eol)
            break;
        p = eol + 1;
    }
}

char *tour_print(const char *name, int width, char **err)
{
    size_t n;
    const tour_step *steps = tour_steps(name, &n);
    if (!steps) {
        *err = xasprintf("unknown tour '%s'; expected '%s'", name ? name : "", TOUR_DEFAULT);
        return NULL;
    }
    if (width <= 0)
        width = 96;
    if (width < 60)
        width = 60;
    if (width > 200)
        width = 200;
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, "CloudShop: designing DynamoDB from the access patterns (keyplan tour)\n");
    for (size_t i = 0; i < n; i++) {
        kp_design *d = tour_design(name, i, err);
        if (!d) {
            sbuf_free(&b);
            return NULL;
        }
        kp_analysis *a = analysis_run(d);
        sbuf_printf(&b, "\nStep %d. %s\n", steps[i].number, steps[i].title);
        for (size_t k = 0; k < strlen(steps[i].title) + 8 + (steps[i].number >= 10); k++)
            sbuf_addc(&b, '-');
        sbuf_add(&b, "\n");
        wrap(&b, steps[i].narration, width);
        char *fig = tour_figures(name, i, a);
        if (*fig)
            sbuf_printf(&b, "\nFigures (computed by keyplan from this step's design):\n%s", fig);
        free(fig);
        analysis_free(a);
        design_free(d);
    }
    return sbuf_steal(&b);
}
