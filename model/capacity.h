/* capacity.h - DynamoDB unit arithmetic (AWS Developer Guide): read and write
 * units for an item size and a consistency, the size of an entity's entry on an index, the share
 * of an entity's items an index holds (sparse indexes), and what one logical write of an entity
 * costs on the table and on each secondary index. Pure functions, no allocation, no I/O (except
 * the memo at the end, which allocates).
 *
 * Units:
 * - Read unit = 4 KB (4096 B). Strong 1, eventual 0.5, transactional 2 per unit. GetItem rounds
 *   the item up to 4 KB; Query sums the bytes of every item read and rounds once; BatchGetItem
 *   rounds each item; Scan sums the whole table's bytes (1 MB pages) and rounds once. A read
 *   that finds nothing still costs one unit (0.5 eventual).
 * - Write unit = 1 KB (1024 B) per item, rounded up; transactional x2.
 * Item counts are averages (doubles): an average of 2.5 items is 2.5 x size bytes for a Query,
 * and 2.5 x round(size) for BatchGetItem.
 *
 * Size estimates (used for index entries and key attributes; documented here once):
 * - A domain attribute's value: its `size:` when given; else by type: number = the width of its
 *   `format` or 8, date = 10 ("2025-03-14"), enum = the average length of its value names,
 *   shard = the digits of count-1, bool = 1, string = 8. Plus the attribute name's bytes.
 * - A key attribute filled by a template: its name + the template's literal bytes + the values
 *   of its placeholders (as above; an inline format's width wins for numbers).
 * - A plain domain attribute used as an index key: name + value estimate.
 * - Index entry (projected item) on index X: `all` = the entity's whole item (`size`); `keys` =
 *   the table's key attributes + X's key attributes; `include` = keys + every included attribute
 *   the entity carries. keys/include never exceed the entity's size. The 100 B per-entry storage
 *   overhead is NOT included (CAP_ITEM_OVERHEAD_BYTES; the heat/cost stages add it). */
#ifndef KP_CAPACITY_H
#define KP_CAPACITY_H

#include "design.h"

#include <stdbool.h>
#include <stddef.h>

#define CAP_READ_UNIT_BYTES     4096.0
#define CAP_WRITE_UNIT_BYTES    1024.0
#define CAP_PAGE_BYTES          1048576.0 /* Query/Scan page, before the filter (the crossing item in) */
#define CAP_ITEM_OVERHEAD_BYTES 100.0     /* storage overhead per item and per index entry */
#define CAP_ITEM_MAX_BYTES      409600.0  /* 400 KB */
#define CAP_PARTITION_RCU       3000.0    /* per partition per second */
#define CAP_PARTITION_WCU       1000.0
#define CAP_PARTITION_BYTES     10737418240.0 /* 10 GB (LSI item collection limit) */
#define CAP_BATCHGET_MAX_ITEMS  100.0
#define CAP_BATCHGET_MAX_BYTES  16777216.0 /* BatchGetItem returns at most 16 MB a request */
#define CAP_TRANSACT_MAX_ITEMS  100.0      /* TransactGetItems / TransactWriteItems actions */
#define CAP_DEFAULT_VALUE_BYTES 8.0        /* unknown string value */

/* Units per 4 KB read: 0.5 eventual, 1 strong, 2 transactional. */
double capacity_read_factor(kp_consistency c);

/* Read units of one GetItem of an item of `item_bytes` (rounded up to 4 KB; at least 1 unit). */
double capacity_get_rcu(double item_bytes, kp_consistency c);
/* Read units of one Query reading `items` items of `item_bytes` each: bytes summed, rounded up
 * once to 4 KB; at least 1 unit even when nothing is read. 1,500 x 64 B strong = 24. */
double capacity_query_rcu(double items, double item_bytes, kp_consistency c);
/* Read units of one BatchGetItem of `items` items: each rounded up separately, then summed
 * (a request for 0 items costs 0). */
double capacity_batchget_rcu(double items, double item_bytes, kp_consistency c);
/* Read units of a full Scan over `table_bytes` bytes (summed, rounded once; at least 1 unit). */
double capacity_scan_rcu(double table_bytes, kp_consistency c);
/* Number of 1 MB pages a read of `bytes` needs (at least 1). */
double capacity_pages(double bytes);
/* Number of requests a Query reading `items` items of `bytes` in all needs: a page holds items
 * until their size reaches 1 MB, the item that crosses it included (DynamoDB Local returns four
 * 300 KB items in one page, three of 390 KB), so pages = ceil(items / ceil(1 MB / item size)),
 * about ceil(bytes / 1 MB) for small items. At least 1; 1 for nothing read. */
double capacity_query_pages(double items, double bytes);

/* Write units of one item of `item_bytes` (rounded up to 1 KB, at least 1); x2 transactional. */
double capacity_write_units(double item_bytes, bool transactional);

/* Estimated bytes of one value of domain attribute `name` (see the estimates above; undeclared
 * attributes are strings of CAP_DEFAULT_VALUE_BYTES). `inline_format` (may be NULL) is a
 * template's inline format, which wins over the attribute's own for numbers. */
double capacity_value_bytes(const kp_design *d, const char *name, const char *inline_format);
/* The same for an attribute already found (NULL: undeclared, a string). */
double capacity_attr_value_bytes(const kp_attr *a, const char *inline_format);
/* Estimated bytes (name + value) of key attribute `attr` on an item of entity `e`: from its
 * template when the entity has one, else as a plain domain attribute. 0 when attr is NULL. */
double capacity_key_bytes(const kp_design *d, const kp_entity *e, const char *attr);

/* true when entity `e`'s items can be on index `index` (-1 = base table: always): they carry the
 * index's partition attribute and, when it has one, its sort attribute. */
bool capacity_on_index(const kp_design *d, const kp_entity *e, ptrdiff_t index);
/* Share (0..1) of entity `e`'s items present on index `index` (-1 base table: 1): 0 when the
 * entity is not on it; otherwise the product of the sparse rules deciding its membership
 * (capacity_index_rules). A rule's share is its `share`, or for a condition the enum share of
 * its value(s) (`!=` is the complement, `in` the sum); a condition on a non-enum attribute counts
 * as 0.5 (documented default: unknown distribution). */
double capacity_index_share(const kp_design *d, const kp_entity *e, ptrdiff_t index);
/* DynamoDB indexes an item exactly when it has every key attribute of the index. For an index's
 * key pair a, b: true when the entity sets them on the same items: by default, unless one of its
 * `together` groups names one of them without the other (which sets it on its own). */
bool capacity_set_together(const kp_entity *e, const char *a, const char *b);
/* true when one of the entity's `together` groups names both a and b. */
bool capacity_grouped(const kp_entity *e, const char *a, const char *b);
/* The sparse rules deciding whether an item of `e` is on index `index` (up to 2, into out):
 * the rule of the index's partition attribute, else of its sort attribute, when the two are set
 * together (capacity_set_together); both when they are set independently. Returns how many. */
size_t capacity_index_rules(const kp_design *d, const kp_entity *e, ptrdiff_t index, const kp_sparse *out[2]);
/* Bytes of one entry of entity `e` on index `index` (-1: the item itself = e->size), without
 * the 100 B overhead. See the projection rules above. */
double capacity_projected_bytes(const kp_design *d, const kp_entity *e, ptrdiff_t index);
/* true when `attr` is one of the key attributes of index `index` for entity `e`: the index's
 * pk/sk attribute names themselves, or a placeholder of the entity's templates for them. */
bool capacity_changes_index_key(const kp_design *d, const kp_entity *e, ptrdiff_t index, const char *attr);

/* true when update `op` with `changes` changes an attribute of the table's key (the table's pk/sk
 * or a placeholder of the entity's templates for them): DynamoDB cannot update a key attribute,
 * so the write is a Delete of the old item and a Put of the new one, in a transaction. */
bool capacity_update_moves_key(const kp_design *d, const kp_entity *e, kp_write_op op, const kp_str *changes,
                               size_t nchanges);

/* Units one logical write of entity `e` costs (per item written; multiply by items).
 * op: put (new item), update, delete; transact counts as a put, every write doubled.
 * changes[]: the attributes an update changes (ignored for other ops).
 * *table_wcu: the base-table write, PLUS the writes of every LSI holding the item (LSIs consume
 *   the table's capacity; their slot in the index array is 0).
 * index_wcu_per_index[i] (an array of d->nindexes, may be NULL when nindexes is 0): GSI i's
 *   expected units per logical write, `share` being the share of the entity's WRITES landing
 *   on the index (its sparse rules over the enum's write_shares):
 *     put/delete: share x write_units(projected); transact: x2 (DynamoDB Local charges an index
 *       entry written in a transaction what it charges the table's item: twice);
 *     update changing an attribute of the table's key: a Delete and a Put in a transaction:
 *       table 2 x 2 x units, every index 2 x 2 x share x units;
 *     update changing a placeholder/key of the GSI: 2 x share x units (delete + put), except
 *       when the changed attribute is the condition of a rule deciding membership (the item
 *       enters or leaves the index): min(1, 2 x share) x units;
 *     update changing no key of the GSI: share x units when it changes an attribute the index
 *       projects (ALL: any; INCLUDE: the listed ones), else 0 (keys-only: always 0); an update
 *       without `changes` is assumed to touch the projected attributes.
 * Either output may be NULL. Never fails. */
void capacity_entity_write(const kp_design *d, const kp_entity *e, kp_write_op op, const kp_str *changes,
                           size_t nchanges, double *table_wcu, double *index_wcu_per_index);

/* The units one logical write of entity `e` costs on secondary index `index` alone (the
 * per-index term of capacity_entity_write, which see), given the share of the entity's items on
 * the index and the bytes of its entry there (capacity_index_share, capacity_projected_bytes:
 * callers that precomputed them pass them in). 0 when the index does not exist or share <= 0.
 * For an LSI this is what the table's capacity pays. */
double capacity_index_write(const kp_design *d, const kp_entity *e, ptrdiff_t index, kp_write_op op,
                            const kp_str *changes, size_t nchanges, double share, double proj_bytes);

/* ---- the memo: the same figures, computed once per (entity, index) ----------------------
 * The analysis asks the same questions of every (entity, index) pair many times (per pattern,
 * per write); a memo answers each once, finding attributes through a hash map instead of
 * design_attr's linear search. Every answer equals the plain function's (same arithmetic).
 * The memo points into the design, which must not change while it is in use; it allocates (one
 * byte and two doubles per pair) and is not thread-safe. Entities that are not the design's, or
 * indexes out of range, are answered by the plain functions. */
typedef struct capacity_memo capacity_memo;

/* A memo over design d (may be NULL: every answer as the plain functions give for NULL). Never
 * NULL; release with capacity_memo_free. */
capacity_memo *capacity_memo_new(const kp_design *d);
void capacity_memo_free(capacity_memo *m);
/* Entity epos changed: its figures are computed again when next asked. */
void capacity_memo_forget(capacity_memo *m, size_t epos);
/* The design's attributes moved in their list (one added or removed that no entity carries):
 * the map of their names made again, the entities' figures kept. */
void capacity_memo_attrs_moved(capacity_memo *m);
/* capacity_on_index, capacity_index_share, capacity_projected_bytes, capacity_entity_write over
 * the memo's design. */
bool capacity_memo_on_index(capacity_memo *m, const kp_entity *e, ptrdiff_t index);
double capacity_memo_index_share(capacity_memo *m, const kp_entity *e, ptrdiff_t index);
double capacity_memo_projected_bytes(capacity_memo *m, const kp_entity *e, ptrdiff_t index);
void capacity_memo_entity_write(capacity_memo *m, const kp_entity *e, kp_write_op op, const kp_str *changes,
                                size_t nchanges, double *table_wcu, double *index_wcu_per_index);

#endif
