/* progress.h - how far a run is, for a progress line: rows done, lookups or keys per
 * second, the fraction of the work done by a rough cost model (its caller's: probes
 * inserted and looked up, or words ANDed by the conditional estimator, est_row_work).
 * Nothing here prints: the caller's callback does, from one thread, at most twice a
 * second and after each row. And whether a run was asked to stop (progress_stopped).
 */
#ifndef BLOOMSIM_PROGRESS_H
#define BLOOMSIM_PROGRESS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

typedef struct run_progress {
    size_t rows_done, rows_total;
    uint64_t lookups_done;
    double row_keys_per_s; /* while a shared row runs: its keys inserted per second
                            * (big filters spend their time in inserts); else 0 */
    uint64_t filters_done;
    double work_fraction; /* 0..1, by probes done */
    double elapsed;       /* seconds */
} run_progress_t;

typedef void (*progress_fn)(const run_progress_t *p, void *ctx);

typedef struct progress {
    progress_fn fn;        /* NULL: no progress wanted, every call below is cheap */
    void *ctx;
    run_progress_t p;
    double start, last, total_work, done_work_rows;
    uint64_t lookups_rows; /* lookups of the rows already finished */
    uint64_t filters_rows; /* filters of the rows already finished */
    double row_start;      /* when the row in progress started */
    /* Called at every progress_report, from the thread that started the run (thread 0
     * of each parallel region), whether or not progress is shown; NULL: none. A
     * distributed run answers its other ranks here (dist.h). */
    void (*tick)(void *tick_ctx);
    void *tick_ctx;
} progress_t;

/* Start a run of nrows rows, whose work in all is total_work (the caller's cost model),
 * of which done_work belongs to rows already done (resumed). */
void progress_start(progress_t *ps, progress_fn fn, void *ctx, size_t nrows, double total_work,
                    double done_work);

/* From inside a row: `filters` filters' worth of its work done (a fraction while a
 * shared filter is built), `whole` filters finished, `lookups` of its lookups made,
 * `keys` of its keys inserted (shared rows; else 0). per_filter is the row's work per
 * filter. Calls the callback at most twice a second, and the tick every time. Called
 * by thread 0 only. */
void progress_report(progress_t *ps, double per_filter, double filters, uint64_t whole,
                     uint64_t lookups, uint64_t keys);

/* Row row_index finished after `filters` filters, `work` of work and `lookups` lookups;
 * calls the callback. */
void progress_row_done(progress_t *ps, size_t row_index, double work, uint64_t filters,
                       uint64_t lookups);

/* Has the stop flag been set (by a signal handler, or a rank of a distributed run)?
 * NULL: never. */
static inline int progress_stopped(atomic_int *stop)
{
    return stop && atomic_load_explicit(stop, memory_order_relaxed);
}

#endif
