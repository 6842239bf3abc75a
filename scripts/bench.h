/* bench.h - what the benchmark programs of scripts/ share (bench_hashes.c, bench_big.c,
 * bench_derive.c, bench_plain.c): the thread's CPU clock and the median of repeated
 * timings. Never part of bloomsim itself. */
#ifndef BLOOMSIM_SCRIPTS_BENCH_H
#define BLOOMSIM_SCRIPTS_BENCH_H

#include <stdlib.h>
#include <time.h>

/* Seconds on the thread's CPU clock, not the wall clock: on a shared machine the wall
 * clock counts the time other processes hold the core. Only differences mean anything. */
static inline double bench_cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static inline int bench_by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of v[0..n), n >= 1 (the upper one of an even n); sorts v in place. */
static inline double bench_median(double *v, size_t n)
{
    qsort(v, n, sizeof v[0], bench_by_value);
    return v[n / 2];
}

#endif
