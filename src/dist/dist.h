/* dist.h - one run over several processes (ranks) with MPI, its result identical to a
 * single process's (docs/cluster.md).
 *
 * Rank 0 ("the leader") does everything a single process does: it checks the input,
 * claims and writes the outputs, plans the rows and makes every precision decision.
 * The other ranks ("workers") only simulate: they ask rank 0 for a unit of work (a
 * range of filters of a row), run it on their own threads and send back its per-filter
 * results; rank 0 runs units of its own between answering them, from the tick of its
 * progress (progress.h), after every filter. Units are handed out as ranks ask, in
 * shrinking sizes (guided self-scheduling), so a slow node holds nobody back.
 *
 * Determinism: filter f of row r draws only from pcg32_unit(seed, r, f) whichever rank
 * runs it, and its results land at index f of rank 0's arrays (integers, or one double
 * per filter computed entirely on one rank), which are reduced in filter order as in
 * one process. So the CSV is the same for any number of ranks and threads.
 *
 * Built with MPI (meson option mpi, config.h BLOOMSIM_MPI) this is dist_mpi.c, and MPI
 * starts only when a launcher (mpirun, srun) started the process; otherwise, and in a
 * build without MPI (dist_none.c), there is one rank and every call below is trivial.
 * Only the thread that called dist_init calls MPI (MPI_THREAD_FUNNELED). Nothing here
 * prints or exits.
 */
#ifndef BLOOMSIM_DIST_H
#define BLOOMSIM_DIST_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "experiment/experiment.h"
#include "base/progress.h"
#include "estimate/simulate.h"

/* Start MPI when a launcher started this process. Returns 0, or -1 (message in err). */
int dist_init(int *argc, char ***argv, char *err, size_t errlen);
/* End MPI (after every rank's last dist_ call); `rc` is this process's exit status. */
void dist_finalize(int rc);

int dist_rank(void); /* 0 in one process */
int dist_size(void); /* 1 in one process */
static inline int dist_leader(void) { return dist_rank() == 0; }
/* Ranks on this machine (for the memory check), this one included. */
int dist_ranks_here(void);
/* Threads of all ranks together, and the threads of each ("2,1,1") for the metadata;
 * valid after dist_agree_threads. */
int dist_threads_total(void);
const char *dist_threads_list(void);

/* Collective: every rank's thread count, gathered by rank 0. Returns 0 or -1. */
int dist_agree_threads(int threads);

/* Collective: agree on a status. Each rank gives its own (0 or an exit status) and its
 * message; all return the status of the lowest failing rank, and rank 0's err receives
 * that rank's message (a worker's prefixed with "rank N (HOST): "). */
int dist_agree(int rc, char *err, size_t errlen);

/* Collective: rank 0 sends e (its file text, as it loaded it) and the workers load it
 * into e. Returns 0, or 2 with the message in err (on the rank that failed). */
int dist_share_experiment(experiment_t *e, char *err, size_t errlen);

/* Rank 0: sim_row over all ranks (same arguments, same results). Returns 0, -1 when
 * memory is short on some rank, -2 when the ranks could not talk (dist_error says
 * which), 1 when stopped by a signal on any rank. */
int dist_row(const row_run_t *run, sim_used_t *used);

/* Rank 0: why the last dist_row failed, into err ("" when it was this rank's memory). */
void dist_error(char *err, size_t errlen);

/* Rank 0: a worker that holds a unit and sends nothing (neither its results nor its
 * heartbeat, which it sends every half second while it works) for this many seconds
 * is given up (stopped, hung, or its machine lost without MPI noticing): dist_row
 * returns -2 and dist_error names it. DIST_RANK_TIMEOUT unless set (docs/cluster.md:
 * BLOOMSIM_RANK_TIMEOUT). */
#define DIST_RANK_TIMEOUT 60.0
void dist_set_rank_timeout(double seconds);

/* Rank 0: the run of one experiment is over with exit status rc; every worker's
 * dist_serve returns it. *stop (the signal that stopped the run, or 0) goes with it. */
void dist_end(int rc, atomic_int *stop);

/* A worker: run the units rank 0 hands out of rows[0..nrows) until it ends the
 * experiment; returns rank 0's status (and sets *stop to its signal). A signal here
 * stops the unit in progress and tells rank 0. */
int dist_serve(const exp_row_t *rows, size_t nrows, uint64_t seed, int threads,
               atomic_int *stop);

#endif
