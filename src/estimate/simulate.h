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

#include "estimate/estimator.h"
#include "base/progress.h"
#include "estimate/row.h"
#include "base/stats.h"

/* Does the row yield counts (a counting estimator on a single filter) or rates? */
int sim_counts(const exp_row_t *row);

/* Is the row run by its estimator on all threads at once (one set of arrays in all),
 * rather than one filter per thread? */
int sim_shared(const exp_row_t *row);

/* Bytes the row needs on `threads` threads: its bit arrays and estimator scratch. */
double sim_memory(const exp_row_t *row, int threads);

/* What a row ran: its filters and the lookups of each (a big row's precision target may
 * ask for more lookups than planned; the counts are then of that many). */
typedef struct sim_used {
    uint64_t filters, lookups_per_filter;
} sim_used_t;

/* Simulate run->row (row run->index of its run) on run->threads threads into run->out;
 * *used receives what it ran. The stop flag is polled between filters and, within a
 * filter, between chunks of its keys (scheme_poll_t) or strides, and once set the row is
 * abandoned. The progress's tick is called from thread 0 between those chunks too, and
 * while it waits for the other threads. Returns 0, -1 when memory is short, 1 when
 * stopped. */
int sim_row(const row_run_t *run, sim_used_t *used);

/* A row's resources on one process: each layer's plan and, per thread (or once in all,
 * when the estimator runs the row itself: sim_shared), each layer's bit array and
 * estimator scratch. */
typedef struct sim_res {
    void *plans[ROW_MAX_LAYERS];
    size_t nplans, narrays;
    bits_t *arrays;
    void **scratch;
} sim_res_t;

/* Allocate rr for the row on `threads` threads. Returns 0, or -1 when memory is short
 * (rr is then freed by sim_res_free all the same). */
int sim_res_alloc(const exp_row_t *row, int threads, sim_res_t *rr);
void sim_res_free(const exp_row_t *row, sim_res_t *rr);

/* Filters f0..F-1 of run->row on this process's run->threads threads with rr (allocated
 * for that row), into run->out[f0..F); *done counts finished filters (atomically: it may
 * be read by thread 0's progress calls). A distributed run hands ranges of filters to
 * each rank (dist.h). Returns 0, or 1 when stopped. */
int sim_filters(const row_run_t *run, sim_res_t *rr, uint64_t f0, uint64_t F, uint64_t *done);

/* Are the row's filters one filter asked disjoint batches of keys (real keys that are the
 * same in every filter: seq, seq-str, file)? */
int sim_one_filter(const exp_row_t *row);

/* What a row runs first: its filters and lookups, but at least STATS_MIN_SPREAD_FILTERS
 * batches (row_max_filters allowing) for a one-filter row with a precision target, so
 * that its spread across successive query ranges can be shown; those batches are all a
 * one-filter row asks (its stated range: sim_wanted adds none); the work of the batches
 * it adds goes into ps's total (ps may be NULL). */
sim_used_t sim_first(const exp_row_t *row, progress_t *ps);

/* With a precision target (docs/model.md, "Precision targets"): what to run after the
 * row ran `now` (its first now.filters filters, now.lookups_per_filter lookups each,
 * results in out): more filters, or, for a row of shared filters whose spread is
 * binomial (not filter-bench's, whose filters keep their counters), more lookups on
 * every filter it has; `now` itself when the target is met, the row's limits are
 * reached, or the row is one filter over a stated range (sim_one_filter: its exact
 * count does not move with the target). Looks only at out[0..now.filters). */
sim_used_t sim_wanted(const exp_row_t *row, sim_used_t now, const row_out_t *out);

/* After a row ran *now (its filters from *f0 into out): whether it goes on (sim_wanted).
 * If it does, *now becomes what to run, *f0 the first filter to run (0 where every
 * filter is asked more lookups, cur's lookups per filter grown to them) and ps's total
 * work grows by the filters to run (ps may be NULL); sim_row's loop and the MPI lead's. */
int sim_grow(const exp_row_t *row, exp_row_t *cur, sim_used_t *now, uint64_t *f0,
             const row_out_t *out, progress_t *ps);

/* Whether the summary s of a row meets the row's precision target: its relative
 * standard error at most the target, on an interval the target can rest on
 * (stats_trusted). 0 for rows without a target. */
int sim_target_met(const exp_row_t *row, const stats_summary_t *s);

/* The per-filter results of rows of up to F filters (every array of row_out_t).
 * Returns 0, or -1 when memory is short (*out is then freed). */
int sim_out_alloc(row_out_t *out, uint64_t F);
void sim_out_free(row_out_t *out);

/* sim_row without progress or stop, into the counts or rates arrays alone (the one the
 * row yields: sim_counts), allocating the rest itself. For tests and benchmarks.
 * Returns 0 or -1 (memory). */
int sim_row_into(const exp_row_t *row, uint64_t seed, uint64_t row_index, int threads,
                 uint64_t *counts, double *rates, uint64_t *filters_used);

/* The model's between-filter variance of the row's per-filter rate around `rate`
 * (rate_between_var at its geometry; a stack's layers' summed), for stats.h. */
double sim_between_var(const exp_row_t *row, double rate);

/* The row's estimate over its first `filters` filters (stats.h). Returns 0 or -1. */
int sim_summarize(const exp_row_t *row, uint64_t filters, const row_out_t *out,
                  stats_summary_t *s);

#endif
