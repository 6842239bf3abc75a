/* simulate.h - simulate one row of a run: build its filters (or stacks of filters) on
 * all threads, have its estimator measure each, and keep what each filter yields, by
 * filter index; with a precision target, add filters until the target is met.
 *
 * Determinism: filter f of row r draws all its randomness from pcg32_unit(seed, r, f)
 * (a shared filter's chunks from sub-units of it: est_lookups.c); threads only pick
 * which filters they run, and per-filter results are stored by filter index, so the
 * results are the same for any thread count. Nothing here prints.
 */
#ifndef BLOOMSIM_SIMULATE_H
#define BLOOMSIM_SIMULATE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "estimator.h"
#include "experiment.h"
#include "progress.h"
#include "stats.h"

/* What a row yields per filter f (arrays of at least as many entries as the row may
 * use: max_filters with a precision target, else filters; NULL = not wanted): a
 * counting estimator's false positives, or a rate (other estimators, and any stack),
 * the popcount of a designed filter, a stack's expected layers consulted. */
typedef struct sim_out {
    uint64_t *counts;
    double *rates;
    uint64_t *popcounts;
    double *consulted;
} sim_out_t;

/* The row's estimator. */
const est_ops_t *sim_estimator(const exp_row_t *row);
/* Does the row yield counts (a counting estimator on a single filter) or rates? */
int sim_counts(const exp_row_t *row);

/* Is the row run by its estimator on all threads at once (one set of arrays in all),
 * rather than one filter per thread? */
int sim_shared(const exp_row_t *row);

/* A stack's layers; a plain or designed filter is one layer. */
size_t sim_layers(const exp_row_t *row);
const probe_geom_t *sim_layer_geom(const exp_row_t *row, size_t j);
uint64_t sim_layer_n(const exp_row_t *row, size_t j);

/* Most filters the row may run. */
uint64_t sim_max_filters(const exp_row_t *row);

/* Bytes the row needs on `threads` threads: its bit arrays and estimator scratch. */
double sim_memory(const exp_row_t *row, int threads);

/* Simulate row row_index on `threads` threads into out; *filters_used receives the
 * number of filters run. ps may be NULL; stop may be NULL, else it is polled between
 * filters (and chunks of a shared filter), and once set the row is abandoned.
 * Returns 0, -1 when memory is short, 1 when stopped. */
int sim_row(const exp_row_t *row, uint64_t seed, uint64_t row_index, int threads,
            const sim_out_t *out, uint64_t *filters_used, progress_t *ps, atomic_int *stop);

/* A row's resources on one process: each layer's plan and, per thread (or once in all,
 * when the estimator runs the row itself: sim_shared), each layer's bit array and
 * estimator scratch. */
typedef struct sim_res {
    void *plans[SIZING_MAX_LAYERS];
    size_t nplans, narrays;
    bits_t *arrays;
    void **scratch;
} sim_res_t;

/* Allocate rr for the row on `threads` threads. Returns 0, or -1 when memory is short
 * (rr is then freed by sim_res_free all the same). */
int sim_res_alloc(const exp_row_t *row, int threads, sim_res_t *rr);
void sim_res_free(const exp_row_t *row, sim_res_t *rr);

/* Filters f0..F-1 of row row_index on this process's `threads` threads with rr, into
 * out[f0..F); *done counts finished filters (atomically: it may be read by thread 0's
 * progress calls). A distributed run hands ranges of filters to each rank (dist.h).
 * Returns 0, or 1 when stopped. */
int sim_filters(const exp_row_t *row, sim_res_t *rr, uint64_t seed, uint64_t row_index,
                int threads, uint64_t f0, uint64_t F, const sim_out_t *out, uint64_t *done,
                progress_t *ps, atomic_int *stop);

/* With a precision target: the number of filters to have after the first F, or F when
 * the target is met (or the cap reached). Looks only at out[0..F). */
uint64_t sim_filters_wanted(const exp_row_t *row, uint64_t F, const sim_out_t *out);

/* sim_row without progress or stop, into the counts or rates arrays alone (the one the
 * row yields: sim_counts), allocating what a stack needs besides. For tests and
 * benchmarks. Returns 0 or -1 (memory). */
int sim_row_into(const exp_row_t *row, uint64_t seed, uint64_t row_index, int threads,
                 uint64_t *counts, double *rates, uint64_t *filters_used);

/* The row's estimate over its first `filters` filters. Returns 0 or -1. */
int sim_summarize(const exp_row_t *row, uint64_t filters, const sim_out_t *out,
                  stats_summary_t *s);

/* Has the stop flag been set? (NULL: never.) */
static inline int sim_stopped(atomic_int *stop)
{
    return stop && atomic_load_explicit(stop, memory_order_relaxed);
}

#endif
