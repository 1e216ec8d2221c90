/* distrib.c - attribute and template value distributions (see distrib.h). */
#include "distrib.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define EXACT_TERMS 64

double distrib_harmonic(double n, double s)
{
    if (isnan(n) || n < 1)
        return 0;
    n = floor(n);
    if (s <= 0)
        return n;
    double h = 0;
    double k_end = n < EXACT_TERMS ? n : EXACT_TERMS - 1;
    for (double k = 1; k <= k_end; k++)
        h += pow(k, -s);
    if (n < EXACT_TERMS)
        return h;
    /* Euler-Maclaurin for sum_{k=K..n} f(k), f(x) = x^-s:
     * integral + (f(K)+f(n))/2 + (f'(n)-f'(K))/12 - (f'''(n)-f'''(K))/720 */
    double K = EXACT_TERMS;
    /* integral of x^-s from K to n; expm1 keeps s near 1 precise */
    double t = 1 - s, ln = log(n / K);
    double integral = fabs(t) < 1e-15 ? ln : pow(K, t) * expm1(t * ln) / t;
    double fK = pow(K, -s), fn = pow(n, -s);
    double d1K = -s * pow(K, -s - 1), d1n = -s * pow(n, -s - 1);
    double d3K = -s * (s + 1) * (s + 2) * pow(K, -s - 3), d3n = -s * (s + 1) * (s + 2) * pow(n, -s - 3);
    return h + integral + (fK + fn) / 2 + (d1n - d1K) / 12 - (d3n - d3K) / 720;
}

double distrib_zipf_top(double n, double s)
{
    if (isnan(n) || n < 1)
        return NAN;
    if (s <= 0)
        return 1.0 / floor(n);
    return 1.0 / distrib_harmonic(n, s);
}

static kp_dist unknown_dist(void) { return (kp_dist){KP_DIST_UNKNOWN, NAN, NAN, NAN}; }

kp_dist distrib_attr(const kp_attr *a)
{
    if (!a)
        return unknown_dist();
    kp_dist r = unknown_dist();
    switch (a->type) {
    case KP_ATTR_ENUM: {
        if (a->nvalues == 0)
            return r;
        r.kind = KP_DIST_ENUM;
        r.distinct = (double)a->nvalues;
        r.hot_share = 0;
        r.write_hot_share = 0;
        for (size_t i = 0; i < a->nvalues; i++) {
            double s = a->values[i].share;
            double w = isnan(a->values[i].write_share) ? s : a->values[i].write_share;
            if (s > r.hot_share)
                r.hot_share = s;
            if (w > r.write_hot_share)
                r.write_hot_share = w;
        }
        if (!isnan(a->write_hot))
            r.write_hot_share = a->write_hot;
        return r;
    }
    case KP_ATTR_SHARD: {
        double n = a->shard_count > 0 ? a->shard_count : a->distinct;
        if (isnan(n) || n < 1)
            return r;
        r.kind = KP_DIST_SHARD;
        r.distinct = floor(n);
        r.hot_share = 1.0 / r.distinct;
        r.write_hot_share = r.hot_share;
        return r;
    }
    default:
        break;
    }
    double n = a->distinct;
    if (isnan(n) && a->type == KP_ATTR_BOOL)
        n = 2;
    if (isnan(n) || n < 1)
        return r;
    r.distinct = floor(n);
    r.kind = a->zipf > 0 ? KP_DIST_ZIPF : KP_DIST_UNIFORM;
    r.hot_share = distrib_zipf_top(r.distinct, a->zipf);
    r.write_hot_share = isnan(a->write_hot) ? r.hot_share : a->write_hot;
    return r;
}

double distrib_enum_share(const kp_attr *a, const char *value, bool writes)
{
    if (!a || a->type != KP_ATTR_ENUM || !value)
        return 0;
    for (size_t i = 0; i < a->nvalues; i++)
        if (strcmp(a->values[i].name, value) == 0) {
            const kp_enum_value *v = &a->values[i];
            return writes && !isnan(v->write_share) ? v->write_share : v->share;
        }
    return 0;
}

kp_dist distrib_template(const kp_design *d, const tpl *t, bool *known)
{
    kp_dist r = {KP_DIST_CONST, 1, 1, 1};
    bool ok = true;
    size_t nattr = 0;
    for (size_t i = 0; i < t->n; i++) {
        if (t->parts[i].kind != TPL_ATTR)
            continue;
        nattr++;
        kp_dist a = distrib_attr(design_attr(d, t->parts[i].text));
        if (a.kind == KP_DIST_UNKNOWN) {
            ok = false;
            continue;
        }
        r.distinct *= a.distinct;
        r.hot_share *= a.hot_share;
        r.write_hot_share *= a.write_hot_share;
        if (nattr == 1)
            r.kind = a.kind;
        else if (r.kind != a.kind)
            r.kind = KP_DIST_UNIFORM; /* a mix: only the figures matter */
    }
    if (!ok)
        r = unknown_dist();
    if (known)
        *known = ok;
    return r;
}

size_t distrib_classes_of(const kp_attr *a, const kp_dist *given, double assume_distinct, kp_vclass *out,
                          size_t max)
{
    if (a && a->type == KP_ATTR_ENUM && a->nvalues > 0) {
        for (size_t i = 0; i < a->nvalues && i < max; i++) {
            const kp_enum_value *v = &a->values[i];
            out[i] = (kp_vclass){v->name, v->share, isnan(v->write_share) ? v->share : v->write_share};
        }
        return a->nvalues;
    }
    kp_dist di = given ? *given : distrib_attr(a);
    if (di.kind == KP_DIST_UNKNOWN) {
        double n = isnan(assume_distinct) || assume_distinct < 1 ? 1 : floor(assume_distinct);
        di.hot_share = 1.0 / n;
        di.write_hot_share = a && !isnan(a->write_hot) ? a->write_hot : di.hot_share;
    }
    if (max > 0)
        out[0] = (kp_vclass){NULL, di.hot_share, di.write_hot_share};
    return 1;
}

size_t distrib_classes(const kp_attr *a, double assume_distinct, kp_vclass *out, size_t max)
{
    return distrib_classes_of(a, NULL, assume_distinct, out, max);
}
