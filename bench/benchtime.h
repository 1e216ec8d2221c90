/* benchtime.h - what the benchmark programs time with: the thread's CPU time (a machine loaded
 * by other work does not inflate it) and the median of runs. Header-only: each bench/bench_*.c
 * is its own program. */
#ifndef KP_BENCHTIME_H
#define KP_BENCHTIME_H

#include <stdlib.h>
#include <time.h>

/* The calling thread's CPU time in milliseconds. */
static inline double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of v[0..n) (sorts v; n > 0). */
static inline double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, bench_cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#endif
