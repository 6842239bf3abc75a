/* runner.h - run an experiment: check memory, claim the outputs, simulate and tabulate
 * every row in turn (simulate.h, tabulate.h), store each as it finishes and publish
 * the table with its metadata (store.h). Nothing here prints; progress goes to a
 * callback (progress.h).
 */
#ifndef BLOOMSIM_RUNNER_H
#define BLOOMSIM_RUNNER_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "base/csv.h"
#include "experiment/experiment.h"
#include "base/progress.h"
#include "run/store.h"

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
     * the row in progress is dropped, runner_run returns RUN_INTERRUPTED. May be NULL.
     * A lock-free C11 atomic, so a handler may set it and worker threads read it. */
    atomic_int *stop;
    /* Called from one thread about twice a second and after each row; may be NULL. */
    progress_fn progress;
    void *progress_ctx;
    /* A row of an adapter's sweep (STRUCT_EXEC, row.h) is measured by the audit's engine,
     * a later stage, through this (audit/exec_row.h's audit_exec_row, as the command line
     * sets it; NULL: such a row fails with a message): run as runner_row's, its table row
     * into *result. Returns 0, 1 or 2 (message in err) or RUN_INTERRUPTED. */
    int (*exec_row)(void *ctx, const experiment_t *e, const row_run_t *run,
                    csv_row_t *result, char *err, size_t errlen);
    /* ... and before any work (runner_prepare), the check of an adapter's rows:
     * exec_check(ctx, e, rows, nrows) asks each row's design of its adapter, so that a
     * command that does not start or a design it refuses is bad input (2, message in
     * err) with nothing written. NULL: not checked. */
    int (*exec_check)(void *ctx, const experiment_t *e, const exp_row_t *rows, size_t nrows,
                      char *err, size_t errlen);
    void *exec_ctx;
} run_opts_t;

typedef struct run_result {
    exp_row_t *plan;       /* the rows of the run, nrows_planned of them */
    size_t nrows_planned;
    csv_row_t *rows;       /* the finished ones, in CSV order */
    size_t nrows;
    char csv_path[STORE_PATH_MAX];
    char meta_path[STORE_PATH_MAX];
    double seconds;
    uint64_t seed;
    store_t store;         /* rank 0: the claim on the outputs, from runner_prepare */
    int claimed;           /* ... held until runner_free */
} run_result_t;

enum { RUN_INTERRUPTED = 3 };

/* A run in two steps, so that `run A B` checks every experiment before running any.
 * runner_prepare does everything that can refuse a run before any work: it plans the
 * rows, checks memory (every rank of a distributed run) and claims the outputs (rank 0,
 * store_claim: a run in progress on them, an unwritable directory, a result or
 * interrupted run of another definition or seed without force, an interrupted run found
 * without resume or force), writing nothing but the claim's lock. runner_execute then
 * starts the outputs (store_open), runs the rows and publishes the table. Both are
 * collective under MPI. They return 0; 2 for bad input (message in err); 1 for a failure
 * while running (write error, memory); RUN_INTERRUPTED when *stop was set. res->nrows
 * counts the finished rows. The caller frees res with runner_free whatever the return,
 * which gives up the claim (a directory the claim made is removed if left empty).
 * runner_run is both steps. */
int runner_prepare(const experiment_t *e, const run_opts_t *o, run_result_t *res, char *err,
                   size_t errlen);
int runner_execute(const experiment_t *e, const run_opts_t *o, run_result_t *res, char *err,
                   size_t errlen);
int runner_run(const experiment_t *e, const run_opts_t *o, run_result_t *res, char *err,
               size_t errlen);
void runner_free(run_result_t *res);

/* One planned row of experiment `name`, run->row (row run->index of its run), simulated
 * (over the ranks of a distributed run, dist.h) and tabulated as runner_run does, into
 * *result: with run's seed, threads and stop flag, run->ps for progress (not NULL:
 * progress_start'ed by the caller), and run->out holding the per-filter results of up to
 * row_max_filters(row) filters (sim_out_alloc). `what` names the row in a message. The
 * caller checks memory first (runner_row_memory). Returns 0, 1 (memory: message in err)
 * or RUN_INTERRUPTED. `bloomsim audit` runs its row so. */
int runner_row(const char *name, const char *what, const row_run_t *run, csv_row_t *result,
               char *err, size_t errlen);

/* Bytes this process may still use, or 0 if unknown: what the memory check before any
 * work compares a run's needs with. The least of what the kernel says is available
 * (MemAvailable), the room left under the memory limits of the process's cgroup and its
 * ancestors (v2 memory.max, v1 memory.limit_in_bytes, less their usage), and the room
 * left under its address-space limit (RLIMIT_AS, `ulimit -v`, less its VmSize). *what
 * names the limit that binds, for messages: " (the cgroup's memory limit)", or "" for
 * MemAvailable. */
uint64_t runner_mem_limit(const char **what);

/* The memory check's rule: bytes a row's per-filter results take, per filter, and
 * whether `need` bytes fit in `avail` (at most 90% of it; anything fits when avail is
 * 0, unknown). runner_run and `bloomsim audit` both refuse by it. */
#define RUNNER_BYTES_PER_FILTER 32.0
int runner_fits(double need, uint64_t avail);
/* What one row needs by that rule: its arrays and scratch on `threads` threads, and its
 * per-filter results. */
double runner_row_memory(const exp_row_t *row, int threads);

#endif
