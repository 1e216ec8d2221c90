/* itemreads.h - what a pattern's request reads in the sample items, for people: the request
 * built as `export --format requests` builds it (requests_step_input) for the sample item that
 * best exercises the pattern (planeval_anchor), its key condition and filter with the values
 * bound ("PK = CLIENTE#customer-001 AND begins_with(SK, PEDIDO#)"), and the items it returns,
 * those tied at its Limit and those its filter drops, evaluated over the items by planeval.
 * The Items screen marks them; nothing here talks to DynamoDB. */
#ifndef KP_ITEMREADS_H
#define KP_ITEMREADS_H

#include "analysis.h"
#include "planeval.h"

/* Caller-allocated; release with itemreads_free. */
typedef struct itemreads {
    char *note;                 /* why nothing is marked (a write, no sample item...), else NULL */
    const kp_step *step;        /* the read step shown (the pattern's first) */
    ptrdiff_t index;            /* the index it reads (-1: the table) */
    char *keycond;              /* bound key condition (NULL for a Scan) */
    char *filter;               /* bound FilterExpression, NULL without one */
    bool forward;               /* ScanIndexForward */
    double limit;               /* NAN: none */
    planeval_result res;        /* what comes back (after the filter) */
    const planeval_item **read; /* what was read before the filter (into the set) */
    size_t nread;
} itemreads;

/* The first step of result r (a GetItem, Query or Scan; otherwise only out->note) over the
 * items of `s`, anchored on a sample item of the step's entity from `sample` (lists[i] of
 * d->entities[i], the items `s` was built from). Never fails: out->note says why nothing is
 * read. Release with itemreads_free. */
void itemreads_run(const kp_design *d, const item_sample *sample, const planeval_set *s,
                   const kp_pattern_result *r, itemreads *out);
void itemreads_free(itemreads *r);

/* One line: "Query GSI1  PK = CLIENTE#customer-001 AND begins_with(SK, PEDIDO#)  ScanIndexForward
 * false  Limit 20  filter status = paid" (the note when there is one). Caller frees. */
char *itemreads_text(const kp_design *d, const itemreads *r);
/* Its two parts: "Query GSI1" (the note when there is one) and the rest ("" with a note).
 * Caller frees. */
char *itemreads_op_text(const kp_design *d, const itemreads *r);
char *itemreads_cond_text(const itemreads *r);

#endif
