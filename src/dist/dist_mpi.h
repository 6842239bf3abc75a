/* dist_mpi.h - inside dist.h's MPI implementation (dist_mpi.c: starting, agreeing, rank
 * 0's handing out of units; dist_mpi_worker.c: the workers; dist_mpi_share.c: the
 * experiment files sent to them): the protocol's tags and
 * constants, the process's place in the run, and what both sides share. Not for other
 * modules: dist.h is the interface. The protocol is described in dist_mpi.c.
 */
#ifndef BLOOMSIM_DIST_MPI_H
#define BLOOMSIM_DIST_MPI_H

#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

#include "dist/dist.h"

enum { TAG_ASK = 1, TAG_UNIT, TAG_STOP, TAG_TEXT, TAG_BEAT };
enum { ASK_READY, ASK_DONE, ASK_STOPPED, ASK_NOMEM };
enum { UNIT_WORK, UNIT_END };
enum { RANK_UNHEARD, RANK_WAITING, RANK_BUSY }; /* rank 0's view of a worker */
#define HDR 5                       /* header words of every message */
#define UNIT_MAX (UINT64_C(1) << 16) /* filters in a unit at most: a message <= 1.5 MiB */
#define STOP_GRACE 10.0             /* seconds a stopped run waits for busy ranks */
#define BEAT_EVERY 0.5              /* seconds between a working worker's heartbeats */

/* The process's place in the run; one per process (MPI's world is one per process). */
typedef struct dist_world {
    int on, rank, size, here, threads_total, broken;
    double rank_timeout; /* rank 0: seconds a busy worker may be silent (dist.h) */
    char threads_list[256];
    char host[MPI_MAX_PROCESSOR_NAME];
    char (*hosts)[MPI_MAX_PROCESSOR_NAME]; /* rank 0: every rank's, for messages */
    char why[512]; /* dist_error's message */
} dist_world_t;
extern dist_world_t dist_world;

/* A 50 us sleep between polls. */
void dist_nap(void);
/* Record a failed MPI call with rank `peer`; returns -1. */
int dist_mpi_failed(int code, int peer, const char *what);

#define TRY(call, peer, what)                                                                \
    do {                                                                                     \
        int code_ = (call);                                                                  \
        if (code_ != MPI_SUCCESS)                                                            \
            return dist_mpi_failed(code_, (peer), (what));                                   \
    } while (0)

/* Per-filter words a unit of the row sends: its counts or rates, a design's popcounts,
 * a stack's layers consulted (the arrays runner.c passes for it); a unit's results into
 * words and back. */
size_t dist_words_per_filter(const exp_row_t *row);
void dist_pack(const exp_row_t *row, const row_out_t *out, uint64_t f0, uint64_t f1,
               uint64_t *p);
void dist_unpack(const exp_row_t *row, const row_out_t *out, uint64_t f0, uint64_t f1,
                 const uint64_t *p);

#endif
