/* planeval.h - what a plan's requests return over a set of items, by DynamoDB's rules, and what
 * they cost by the model's capacity rules. Verify runs the same requests against DynamoDB and
 * compares; nothing here talks to it.
 *
 * A Query or GetItem returns the items on its index whose partition key equals the key
 * condition's value and whose sort key meets its sort-key part, ordered by the index's sort key
 * (ScanIndexForward; ties by table key), cut at the Limit (items tied with the last one kept may
 * come back instead of each other); a filter then drops items, evaluated on the item as the
 * index projects it, after the capacity is counted. A Scan reads every item on its index. Read
 * capacity: 4 KB units of the bytes read (a Query's bytes summed then rounded), at the
 * pattern's consistency (strong on the table or an LSI, else eventual); write capacity: 1 KB
 * units, each index holding the item writing its projected entry. */
#ifndef KP_PLANEVAL_H
#define KP_PLANEVAL_H

#include "analysis.h"
#include "design.h"
#include "expr.h"
#include "item.h"

/* One item of the set with the entity it belongs to. `key` is its table key as text
 * ("PK=ORDER#1, SK=HEADER"), which tells items apart. */
typedef struct planeval_item {
    const kp_entity *e;
    const kp_item *item; /* borrowed */
    char *key;
} planeval_item;

/* The items a table holds (the ones verify loaded). Zero-initialised is empty. */
typedef struct planeval_set {
    planeval_item *v;
    size_t n, cap;
} planeval_set;

/* Adds `item` of entity `e` (borrowed: it must outlive the set). */
void planeval_set_add(planeval_set *s, const kp_design *d, const kp_entity *e, const kp_item *item);
void planeval_set_free(planeval_set *s);
/* The set's item whose key text is `key`, NULL when none. */
const planeval_item *planeval_set_find(const planeval_set *s, const char *key);

/* "PK=v, SK=w" (the table's key of `item`), "?" without a partition key. Caller frees. */
char *planeval_key_text(const kp_design *d, const kp_item *item);

/* The key attributes of index `index` (-1 or out of range: the table); sk may be NULL. */
const char *planeval_index_pk(const kp_design *d, ptrdiff_t index);
const char *planeval_index_sk(const kp_design *d, ptrdiff_t index);

/* true when index `index` holds the item (it has the index's key attributes). */
bool planeval_on_index(const kp_design *d, ptrdiff_t index, const kp_item *item);

/* The item as index `index` holds it (the whole item on the table or an ALL projection, else
 * the keys plus the projected attributes), written into *out (caller frees with item_free). */
void planeval_project(const kp_design *d, ptrdiff_t index, const kp_item *item, kp_item *out);

/* A Query or GetItem: the key condition with its rendered values. */
typedef struct planeval_query {
    ptrdiff_t index;
    const expr_keycond *kc;
    const char *pk_value, *sk_value, *sk_value2; /* sk values as the key condition needs them */
    bool forward;                                /* ScanIndexForward (GetItem: true) */
    double limit;                                /* NAN or < 1: none (GetItem: none) */
} planeval_query;

/* What a request returns: v[0..n) in DynamoDB's order; v[n..n+nopt) items tied on the sort key
 * with the last one at the Limit, any of which DynamoDB may return in their place. */
typedef struct planeval_result {
    const planeval_item **v; /* into the set */
    size_t n, nopt;
    size_t nall;  /* items the key condition matched, before the Limit */
    size_t nread; /* items read (and billed): v[0..nread) */
} planeval_result;

/* The items of `s` the query returns before any filter. Release with planeval_result_free. */
void planeval_query_run(const kp_design *d, const planeval_set *s, const planeval_query *q,
                        planeval_result *out);

/* Every item of `s` on index `index`, in the set's order: what a Scan reads. */
void planeval_scan(const kp_design *d, const planeval_set *s, ptrdiff_t index, planeval_result *out);

/* Keeps the items of r (returned and tied) that `filter` keeps on their view through index
 * `index`, with `values` the filter's values; r->v[0..nread) no longer holds what was read. When
 * the filter cannot be evaluated (expr_eval -1), an item is kept when `by` is given and the
 * item has pattern by's `by` values (compared as text; the unfixed ones from `binding`), else
 * dropped. */
void planeval_filter(const kp_design *d, ptrdiff_t index, const kp_expr *filter, const kp_item *values,
                     const kp_pattern *by, const kp_item *binding, planeval_result *r);

void planeval_result_free(planeval_result *r);

/* `order: attr [desc]` over every item of the partition, not only the returned ones: the items
 * query q matches without its Limit (kept by `filter` with `values` when filter is not NULL;
 * those of entity set p's entities only) sorted by attr (numbers by value, strings by bytes),
 * and the `returned` items of p's entities that carry attr, in the order DynamoDB gave them, must
 * be that sorted list's first ones (ties in any order). Returns the position among those
 * returned items of the first one that is not, with *got its value and *want the one expected
 * there (NULL when more came back than match; both borrowed from the items), or -1 when every
 * one is. */
ptrdiff_t planeval_order_break(const kp_design *d, const planeval_set *s, const planeval_query *q,
                               const kp_expr *filter, const kp_item *values, const kp_pattern *p,
                               const planeval_item *const *returned, size_t n, const kp_value **got,
                               const kp_value **want);

/* Bytes DynamoDB reads for `item` on index `index`: the size of its projected view. */
size_t planeval_read_bytes(const kp_design *d, ptrdiff_t index, const kp_item *item);

/* Read units per 4 KB for pattern p on index `index`: 1 strong (or transactional, sent as a
 * consistent read) on the table or an LSI, else 0.5. */
double planeval_read_factor(const kp_design *d, const kp_pattern *p, ptrdiff_t index);

/* 4 KB read units of `bytes` (at least 1). */
double planeval_read_units(double bytes);

/* Write units of putting `item`: 1 KB units of the item, plus each index holding it. */
double planeval_write_units(const kp_design *d, const kp_item *item);

/* Write units index `index` (not the table) consumes when an update turns item `before` into
 * `after`, by DynamoDB's rules: 0 when neither is on the index; the entry's units when it enters
 * or leaves; a delete and a put when its index key changes; the entry's units when only its
 * projected attributes change; 0 when its projected view is the same. */
double planeval_update_index_units(const kp_design *d, ptrdiff_t index, const kp_item *before,
                                   const kp_item *after);

/* The sample item of entity `items` that best exercises a read on index `index` for pattern p:
 * it carries the index's key attributes, matches the pattern's fixed `by` values, and lies in
 * the partition holding the most items. Borrowed from `items`, NULL when none qualifies. */
const kp_item *planeval_anchor(const kp_design *d, const kp_pattern *p, ptrdiff_t index,
                               const kp_item_list *items);

/* A range query's bounds: copies of `anchor` whose `range` attribute is a lower (a quarter in)
 * and an upper (three quarters in) value of the range values of e's items on the index in the
 * anchor's partition. Plain copies without range values. *lo and *hi: caller frees. */
void planeval_range_bounds(const kp_design *d, const planeval_set *s, const kp_pattern *p, const kp_entity *e,
                           ptrdiff_t index, const kp_item *anchor, kp_item *lo, kp_item *hi);

/* The attributes (up to 4) of step s's value templates that fan out: shard or enum placeholders
 * the caller's `by` does not give, or fixes to several values (planeval_fixed_values), each
 * value one request. None unless the step's count > 1. */
size_t planeval_fanout(const kp_design *d, const kp_pattern *p, const kp_step *s, const char *out[4]);

/* The values pattern p fixes attribute `attr` to when it fixes several (by: ["status=paid",
 * "status=shipped"]: one request per value, or a filter on any of them), at most max into out;
 * 0 when it fixes fewer than two. */
size_t planeval_fixed_values(const kp_pattern *p, const char *attr, const char **out, size_t max);

/* How many values attribute a takes in a fan-out (a shard's count, an enum's values). */
size_t planeval_value_count(const kp_attr *a);

/* Sets attribute a of `item` to its k-th fan-out value. */
void planeval_set_value(kp_item *item, const kp_attr *a, size_t k);

#endif
