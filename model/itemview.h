/* itemview.h - a table or one of its indexes as rows of items, the way DynamoDB stores them, and
 * marks for what a request reads there (the Items screen draws this; no curses here).
 *
 * The rows are the items the index holds (an item without the index's key attributes is not
 * there: sparse), each as the index projects it (the keys plus the projected attributes; the
 * whole item on the table or an ALL projection), grouped by partition key and, inside a
 * partition, sorted by the index's sort key as DynamoDB keeps them: strings by their UTF-8 bytes,
 * numbers by value; items tied on an index's sort key by their table key. DynamoDB spreads
 * partitions by a hash and keeps no order among them: the view lists them by their key's
 * order, so that a partition is easy to find. */
#ifndef KP_ITEMVIEW_H
#define KP_ITEMVIEW_H

#include "planeval.h"

/* What a request does with a row. */
typedef enum itemview_mark {
    IV_NONE,     /* not read */
    IV_RETURNED, /* read and returned */
    IV_TIED,     /* tied on the sort key with the last one the Limit keeps: may come back instead */
    IV_DROPPED,  /* read (and billed), then dropped by the filter */
} itemview_mark;

typedef struct itemview_row {
    const planeval_item *pi; /* the item, its entity and table key (borrowed from the set) */
    kp_item view;            /* the item as the index holds it */
    const char *pk, *sk;     /* its index key values (into view; sk NULL without a sort key) */
    size_t part;             /* its partition's number, from 0 in the view's order */
    bool first;              /* the first row of its partition */
    itemview_mark mark;
} itemview_row;

/* Caller-allocated; release with itemview_free. */
typedef struct itemview {
    ptrdiff_t index;               /* -1: the table, else the design's index */
    const char *pk_attr, *sk_attr; /* the index's key attributes (sk_attr may be NULL) */
    itemview_row *v;
    size_t n;
    size_t nparts;
    size_t nabsent;    /* items of the set the index does not hold */
    const char **cols; /* attribute names in column order: the keys, then as first met (borrowed) */
    size_t ncols;
    size_t *row_of; /* per item of the set (by its position), its row, or (size_t)-1 */
    size_t nset;
} itemview;

/* The rows of index `index` (-1: the table) over the items of `s` (which must outlive the
 * view), sorted as above; an index out of range is the table. Release with itemview_free. */
void itemview_build(const kp_design *d, const planeval_set *s, ptrdiff_t index, itemview *out);
void itemview_free(itemview *v);

/* The row of item `pi` of the view's set, or (size_t)-1 when the index does not hold it. O(1). */
size_t itemview_row_of(const itemview *v, const planeval_set *s, const planeval_item *pi);

/* Every row back to IV_NONE. */
void itemview_clear_marks(itemview *v);
/* Marks the rows of the items r returns (IV_RETURNED), of those tied at its Limit (IV_TIED), and
 * of `read` that are no longer in r (read, then dropped by a filter: IV_DROPPED); items the
 * view does not hold are skipped. `read` may be NULL (no filter). Returns the rows marked. */
size_t itemview_mark_result(itemview *v, const planeval_set *s, const planeval_result *r,
                            const planeval_item *const *read, size_t nread);

#endif
