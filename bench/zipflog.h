/* zipflog.h - the generated access log of heat's benchmark and of its check in the suite: `lines`
 * requests PK<TAB>SK<TAB>UNITS<TAB>kind over `keys` partition keys CLIENTE#<n>. Every key appears
 * at least once (one line in lines/keys introduces the next key, until all are in), the other
 * lines draw their key from a Zipf distribution (exponent 1: the hottest key takes about 1/ln
 * of the keys' share, 7 % of them for 1.1M keys), the ranks scattered over the key numbers.
 * Units are 0.5, 1, 2 or 4 (sums exact in binary, so awk and keyplan agree to the bit); one
 * request in five is a write. Deterministic for a seed. Header-only: bench/bench_heat.c and
 * tests/test_heatbench.c include it. */
#ifndef KP_BENCH_ZIPFLOG_H
#define KP_BENCH_ZIPFLOG_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t zipflog_next(uint64_t *x)
{
    /* xorshift64* */
    *x ^= *x >> 12;
    *x ^= *x << 25;
    *x ^= *x >> 27;
    return *x * 2685821657736338717ULL;
}

/* Writes the log to `out`; 0, or -1 when memory or the write fails. */
static int zipflog_write(FILE *out, size_t lines, size_t keys, uint64_t seed)
{
    if (!keys)
        return -1;
    double *cdf = malloc(keys * sizeof *cdf);
    if (!cdf)
        return -1;
    double sum = 0;
    for (size_t i = 0; i < keys; i++)
        cdf[i] = sum += 1.0 / (double)(i + 1);
    uint64_t x = seed * 0x9e3779b97f4a7c15ULL + 1;
    size_t stride = keys < lines ? lines / keys : 1, introduced = 0;
    static const char *const units[] = {"0.5", "1", "1", "1", "2", "4", "1", "0.5"};
    int rc = 0;
    for (size_t i = 0; i < lines && rc == 0; i++) {
        uint64_t r = zipflog_next(&x);
        size_t rank;
        if (i % stride == 0 && introduced < keys) {
            rank = introduced++;
        } else {
            double u = (double)(r >> 11) / 9007199254740992.0 * sum;
            size_t lo = 0, hi = keys - 1;
            while (lo < hi) {
                size_t mid = (lo + hi) / 2;
                if (cdf[mid] < u)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            rank = lo;
        }
        /* ranks scattered over the key numbers (a bijection: the multiplier is odd and prime to
           any key count's factors but the rare 1000003 multiple) */
        size_t id = (size_t)(((uint64_t)rank * 1000003ULL) % keys);
        if (fprintf(out, "CLIENTE#%zu\tPEDIDO#%u\t%s\t%s\n", id, (unsigned)(r >> 40) % 100000, units[r & 7],
                    (r >> 8) % 5 == 0 ? "write" : "read") < 0)
            rc = -1;
    }
    free(cdf);
    return rc;
}

/* The reference figures of a log, from awk (the shell's own tool, nothing of keyplan's): the
 * totals and the `top` hottest keys (by units, then requests, then key, as heat ranks them) as
 * text "REQUESTS UNITS DISTINCT" then "KEY REQUESTS UNITS" lines, units with one decimal. NULL
 * when awk cannot run. Caller frees. */
static char *zipflog_awk(const char *log, size_t top)
{
    char cmd[4096];
    snprintf(
        cmd, sizeof cmd,
        "awk -F'\\t' '{ u = ($3 == \"\" ? 1 : $3); if (!($1 in r)) n++; r[$1]++; s[$1] += u; R++; U += u }"
        " END { printf \"%%d %%.1f %%d\\n\", R, U, n > \"/dev/stderr\";"
        " for (k in r) printf \"%%s\\t%%d\\t%%.1f\\n\", k, r[k], s[k] }' '%s' 2>&1 >/dev/null"
        " ; awk -F'\\t' '{ u = ($3 == \"\" ? 1 : $3); r[$1]++; s[$1] += u }"
        " END { for (k in r) printf \"%%s\\t%%d\\t%%.1f\\n\", k, r[k], s[k] }' '%s'"
        " | LC_ALL=C sort -t'\t' -k3,3gr -k2,2gr -k1,1 | head -n %zu | tr '\\t' ' '",
        log, log, top);
    FILE *p = popen(cmd, "r");
    if (!p)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *out = malloc(cap);
    size_t r;
    while (out && (r = fread(out + len, 1, cap - len - 1, p)) > 0) {
        len += r;
        if (len + 1 == cap && !(out = realloc(out, cap *= 2)))
            break;
    }
    if (pclose(p) != 0 || !out) {
        free(out);
        return NULL;
    }
    out[len] = '\0';
    return out;
}

/* The same figures from `keyplan heat`'s text (totals line and table), NULL when the text is not
 * heat's. Caller frees. */
static char *zipflog_heat(const char *text)
{
    double req, units;
    size_t distinct;
    const char *colon = strstr(text, ": ");
    if (!colon ||
        sscanf(colon + 2, "%lf requests, %lf units, %zu partition keys", &req, &units, &distinct) != 3)
        return NULL;
    size_t cap = strlen(text) + 64, len = 0;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    len += (size_t)snprintf(out, cap, "%.0f %.1f %zu\n", req, units, distinct);
    const char *line = strstr(text, "\nrank ");
    for (line = line ? strchr(line + 1, '\n') : NULL; line && line[1]; line = strchr(line + 1, '\n')) {
        size_t rank;
        char key[2100];
        double r, u;
        if (sscanf(line + 1, "%zu %2099s %lf %*s %lf", &rank, key, &r, &u) != 4)
            break;
        len += (size_t)snprintf(out + len, cap - len, "%s %.0f %.1f\n", key, r, u);
    }
    return out;
}

#endif
