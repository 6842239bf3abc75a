/* runner.h - run an experiment: simulate every row on all threads, attach the
 * reference rates, write the CSV row by row and the metadata sidecar.
 *
 * Determinism: unit (row r, filter f) draws all its randomness from
 * pcg32_unit(seed, r, f) (a shared filter's chunks from sub-units of it, see
 * RUNNER_SHARED_BITS); threads only pick which units they run, per-filter counts are
 * integers stored by filter index, so the CSV is byte-identical for any thread count
 * (the `seconds` column aside). Nothing here prints; progress goes to a callback.
 */
#ifndef BLOOMSIM_RUNNER_H
#define BLOOMSIM_RUNNER_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "csv.h"
#include "experiment.h"
#include "stats.h"

typedef struct run_progress {
    size_t rows_done, rows_total;
    uint64_t lookups_done;
    double row_keys_per_s; /* while a shared row runs: its keys inserted per second
                            * (big filters spend their time in inserts); else 0 */
    uint64_t filters_done;
    double work_fraction; /* 0..1, by probes done */
    double elapsed;       /* seconds */
} run_progress_t;

typedef struct run_opts {
    int quick;
    int threads;           /* >= 1 */
    uint64_t seed;
    int seed_given;        /* otherwise the experiment's seed */
    const char *outdir;
    const char *command;   /* the command line, for the metadata */
    int resume;            /* continue NAME.csv.partial of an interrupted identical run */
    int force;             /* replace a result or partial run of another definition or seed */
    /* Set (by a signal handler) to stop: finished rows are kept in NAME.csv.partial,
     * the row in progress is dropped, runner_run returns RUN_INTERRUPTED. May be NULL. */
    volatile sig_atomic_t *stop;
    /* Called from one thread about twice a second and after each row; may be NULL. */
    void (*progress)(const run_progress_t *p, void *ctx);
    void *progress_ctx;
} run_opts_t;

typedef struct run_result {
    csv_row_t *rows;       /* one per row, in CSV order; caller frees with runner_free */
    size_t nrows;
    char csv_path[1100];
    char meta_path[1100];
    double seconds;
} run_result_t;

enum { RUN_INTERRUPTED = 3 };

/* Returns 0; 2 for bad input (message in err: a size past memory, an unwritable output,
 * a result or interrupted run of another definition or seed without force, an
 * interrupted run found without resume or force); 1 for a failure while running (write
 * error); RUN_INTERRUPTED when *stop was set. No complete result is ever overwritten
 * partway: rows go to NAME.csv.partial as they finish, beside NAME.run (what made
 * them), and are renamed into place at the end. res->nrows counts the finished rows. */
int runner_run(const experiment_t *e, const run_opts_t *o, run_result_t *res, char *err,
               size_t errlen);
void runner_free(run_result_t *res);

/* Filters of at least this many bits (2 MiB, past the per-core caches) are each built
 * and queried by all threads together (a "shared" row), their keys and lookups split
 * into chunks of RUNNER_CHUNK; smaller ones are built one per thread. Applies to the
 * lookups estimator and single filters (not stacks). The mode is a function of the row
 * alone, never of the thread count. */
#define RUNNER_SHARED_BITS (UINT64_C(1) << 24)
#define RUNNER_CHUNK (UINT64_C(1) << 18)
int runner_row_shared(const exp_row_t *row);

/* Simulate one row on up to `threads` threads: per-filter false-positive counts into
 * counts[] (lookups estimator) or per-filter rates into rates[] (conditional), the
 * other array untouched and possibly NULL; both must hold max_filters entries when the
 * row has a precision target, else filters. *filters_used receives the number run.
 * Exposed for tests. Returns 0 or -1 (out of memory). */
int runner_simulate_row(const exp_row_t *row, uint64_t seed, uint64_t row_index,
                        int threads, uint64_t *counts, double *rates,
                        uint64_t *filters_used);

/* The row's estimate over its first `filters` filters. Returns 0 or -1. */
int runner_summarize_row(const exp_row_t *row, uint64_t filters, const uint64_t *counts,
                         const double *rates, stats_summary_t *s);

#endif
