/* dist_mpi_worker.c - a worker rank of a distributed run (dist.h, dist_serve): it asks
 * rank 0 for units of filters, runs each on its threads, and sends back their
 * per-filter results, until rank 0 ends the experiment (the protocol: dist_mpi.c).
 */
#include "dist/dist_mpi.h"

#include <stdlib.h>
#include <string.h>

#include "base/monotonic.h"

typedef struct work_tick {
    atomic_int *halt, *stop;
    double last, beat;
} work_tick_t;

/* A worker's progress tick (thread 0, between filters and between chunks of a filter's
 * keys, simulate.c): a heartbeat to rank 0 every BEAT_EVERY seconds, and stop the unit
 * when rank 0 says so or a signal came. */
static void work_tick(void *ctx)
{
    work_tick_t *w = ctx;
    double t = monotonic_seconds();
    if (t - w->last < 1e-3)
        return;
    w->last = t;
    int flag = 0;
    if (t - w->beat >= BEAT_EVERY) {
        w->beat = t;
        flag = MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_BEAT, MPI_COMM_WORLD) != MPI_SUCCESS;
    }
    if (flag || progress_stopped(w->stop))
        flag = 1;
    else if (MPI_Iprobe(0, TAG_STOP, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS &&
             flag)
        MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_STOP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (flag)
        atomic_store_explicit(w->halt, 1, memory_order_relaxed);
}

static int ask(const uint64_t *msg, int words)
{
    TRY(MPI_Send(msg, words, MPI_UINT64_T, 0, TAG_ASK, MPI_COMM_WORLD), 0, "asking for work");
    return 0;
}

/* A worker's state across units: the rows, the resources of the row in hand (cur), the
 * per-filter results and the message buffer, its stop flags. */
typedef struct worker {
    const exp_row_t *rows;
    size_t nrows;
    uint64_t seed, cur;
    int threads, oom, told;
    sim_res_t rr;
    row_out_t out;
    uint64_t *buf;
    atomic_int *stop, halt;
    progress_t ps;
} worker_t;

/* Run unit msg (filters f0..f1-1 of row r) and answer rank 0 with its results, or with
 * why it could not (memory, a stop). Returns 0, or 1 when the answer failed. */
static int serve_unit(worker_t *w, const uint64_t *msg)
{
    uint64_t r = msg[1], f0 = msg[2], f1 = msg[3];
    exp_row_t cur = w->rows[r < w->nrows ? r : 0]; /* at the lookups rank 0 asks */
    if (msg[4])
        cur.lookups_per_filter = msg[4];
    const exp_row_t *row = &cur;
    uint64_t reply[HDR] = {ASK_DONE, r, f0, f1, 0};
    if (r != w->cur) {
        if (w->cur != UINT64_MAX)
            sim_res_free(&w->rows[w->cur], &w->rr);
        w->cur = r;
        if (w->oom || r >= w->nrows || sim_res_alloc(row, w->threads, &w->rr)) {
            sim_res_free(row, &w->rr);
            w->cur = UINT64_MAX;
            reply[0] = ASK_NOMEM;
        }
    }
    if (reply[0] == ASK_DONE && progress_stopped(w->stop)) {
        reply[0] = ASK_STOPPED;
        w->told = 1;
    }
    if (reply[0] == ASK_DONE) {
        uint64_t done = 0;
        atomic_store(&w->halt, 0);
        const row_run_t run = {.row = row, .seed = w->seed, .index = r, .threads = w->threads,
                               .out = &w->out, .ps = &w->ps, .stop = &w->halt};
        sim_filters(&run, &w->rr, f0, f1, &done);
        if (progress_stopped(&w->halt))
            reply[0] = ASK_STOPPED, w->told |= progress_stopped(w->stop);
    }
    reply[4] = reply[0] == ASK_STOPPED ? (uint64_t)atomic_load(w->stop) : 0;
    size_t words = HDR;
    uint64_t small[HDR], *m = w->buf ? w->buf : small;
    memcpy(m, reply, sizeof reply);
    if (reply[0] == ASK_DONE) {
        dist_pack(row, &w->out, f0, f1, m + HDR);
        words += dist_words_per_filter(row) * (size_t)(f1 - f0);
    }
    return ask(m, (int)words) ? 1 : 0;
}

int dist_serve(const exp_row_t *rows, size_t nrows, uint64_t seed, int threads,
               atomic_int *stop)
{
    uint64_t fmax = 1;
    for (size_t i = 0; i < nrows; i++)
        if (row_max_filters(&rows[i]) > fmax)
            fmax = row_max_filters(&rows[i]);
    worker_t w = {.rows = rows, .nrows = nrows, .seed = seed, .cur = UINT64_MAX,
                  .threads = threads, .stop = stop};
    work_tick_t wt = {.halt = &w.halt, .stop = stop};
    w.ps = (progress_t){.tick = work_tick, .tick_ctx = &wt};
    w.oom = sim_out_alloc(&w.out, fmax) != 0;
    w.buf = malloc((HDR + 3 * UNIT_MAX) * sizeof *w.buf);
    w.oom |= !w.buf;
    uint64_t hello[HDR] = {w.oom ? ASK_NOMEM : ASK_READY, 0, 0, 0, (uint64_t)threads};
    int rc = ask(hello, HDR) ? 1 : -1;
    while (rc < 0) {
        uint64_t msg[HDR];
        MPI_Status st;
        int flag = 0;
        if (MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st) != MPI_SUCCESS) {
            rc = 1;
        } else if (!flag) { /* a signal while idle: tell rank 0, once */
            if (progress_stopped(stop) && !w.told) {
                uint64_t m[HDR] = {ASK_STOPPED, 0, 0, 0, (uint64_t)atomic_load(stop)};
                w.told = 1;
                if (ask(m, HDR))
                    rc = 1;
            } else {
                dist_nap();
            }
        } else if (st.MPI_TAG == TAG_STOP) { /* for a unit already finished */
            MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_STOP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (MPI_Recv(msg, HDR, MPI_UINT64_T, 0, TAG_UNIT, MPI_COMM_WORLD,
                            MPI_STATUS_IGNORE) != MPI_SUCCESS) {
            rc = 1;
        } else if (msg[0] == UNIT_END) {
            if (msg[2] && !progress_stopped(stop))
                atomic_store(stop, (int)msg[2]);
            rc = (int)msg[1];
        } else if (serve_unit(&w, msg)) {
            rc = 1;
        }
    }
    if (w.cur != UINT64_MAX)
        sim_res_free(&rows[w.cur], &w.rr);
    sim_out_free(&w.out);
    free(w.buf);
    return rc;
}
