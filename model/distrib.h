/* distrib.h - how the values of an attribute and of a key template are distributed (for
 * heat). Pure computation over the design; no allocation.
 *
 * An attribute's items follow:
 * - `type: enum`: the value shares (writes: `write_shares`, else the same shares);
 * - `type: shard`: `count` values, evenly;
 * - `type: bool`: 2 values evenly, unless `distinct` says otherwise;
 * - `distinct: N` with `skew: zipf:s`: value k holds k^-s / H(N,s) of the items, so the hottest
 *   holds 1/H(N,s); without a skew, uniform (1/N each);
 * - anything else (no `distinct`): unknown. Callers choose what to assume (heat assumes one value
 *   per item of the entity and a finding says so).
 * Writes follow the items unless `write_hot` gives the share of the writes on the hottest value
 * (a date written "today": 1.0) or enum `write_shares` give them per value.
 * A template's distribution is the product of its placeholders' (independent attributes):
 * distinct = product of the distinct counts, hottest share = product of the hottest shares; a
 * template without placeholders is one value holding everything. */
#ifndef KP_DISTRIB_H
#define KP_DISTRIB_H

#include "design.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum kp_dist_kind {
    KP_DIST_CONST, /* one fixed value (a literal template, a fixed `by`) */
    KP_DIST_UNIFORM,
    KP_DIST_ZIPF,
    KP_DIST_ENUM,
    KP_DIST_SHARD,
    KP_DIST_UNKNOWN, /* undeclared, or declared without `distinct` */
} kp_dist_kind;

typedef struct kp_dist {
    kp_dist_kind kind;
    double distinct;        /* number of values; NAN when unknown */
    double hot_share;       /* share of the items on the hottest value; NAN when unknown */
    double write_hot_share; /* share of the writes on the value writes hit most; NAN unknown */
} kp_dist;

/* Generalised harmonic number H(n, s) = sum_{k=1..n} k^-s for n >= 1 (n is floored), s >= 0.
 * Exact summation up to 64 terms, then the Euler-Maclaurin tail (relative error < 1e-12), so
 * n in the millions costs the same as n = 100. Returns 0 for n < 1. */
double distrib_harmonic(double n, double s);

/* Share of the items on the hottest value of a zipf(s) distribution over n values
 * (1 / H(n, s)); s = 0 is uniform (1/n). NAN when n is NAN or < 1. */
double distrib_zipf_top(double n, double s);

/* The distribution of attribute `a` (NULL = an undeclared attribute: unknown). */
kp_dist distrib_attr(const kp_attr *a);

/* Share of the items (writes = false) or of the writes (true) holding enum value `value` of
 * attribute `a`; 0 when `a` is not an enum or has no such value. */
double distrib_enum_share(const kp_attr *a, const char *value, bool writes);

/* The product distribution of template `t` over the design's attributes. `known` (may be NULL)
 * is set false when some placeholder's distribution is unknown (then distinct and the shares
 * are NAN). */
kp_dist distrib_template(const kp_design *d, const tpl *t, bool *known);

/* One class of values of a placeholder, as heat enumerates them: an enum value (value = its
 * name) or, for every other kind, "the hottest value" (value = NULL); share/write_share are the shares of the
 * items/writes on ONE value of the class. */
typedef struct kp_vclass {
    const char *value; /* points into the design; NULL = the hottest value of a non-enum */
    double share;
    double write_share;
} kp_vclass;

/* Fills up to `max` classes of attribute `a` (NULL = undeclared) into `out` and returns how
 * many there are (may exceed max: then only max were written). `assume_distinct` is used
 * when the distribution is unknown (heat passes the entity's item count). Never fails. */
size_t distrib_classes(const kp_attr *a, double assume_distinct, kp_vclass *out, size_t max);
/* The same from a distribution already computed with distrib_attr(a) (saves recomputing a
 * zipf harmonic number for every template using the attribute). */
size_t distrib_classes_of(const kp_attr *a, const kp_dist *di, double assume_distinct, kp_vclass *out,
                          size_t max);

#endif
