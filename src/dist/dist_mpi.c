/* dist_mpi.c - dist.h with MPI (docs/cluster.md has the protocol's costs): starting MPI,
 * agreeing, and rank 0's handing out of units; the workers are in dist_mpi_worker.c, the
 * sending of experiment files in dist_mpi_share.c, what they share in dist_mpi.h.
 *
 * Messages, all on MPI_COMM_WORLD, all between rank 0 and one worker:
 *   TAG_ASK   worker -> 0   {status, row, f0, f1, threads or signal} and, for ASK_DONE,
 *                           the per-filter results of filters f0..f1-1 (1 to 3 words a
 *                           filter: the count, or the rate and its sampling variance; a
 *                           design's popcount; a stack's layers consulted; a fingerprint
 *                           filter's keys refused). Every ask asks for the next unit.
 *   TAG_UNIT  0 -> worker   {UNIT_WORK, row, f0, f1, lookups per filter} or {UNIT_END, status,
 *                           signal}:
 *                           one answer per ask, while the worker waits.
 *   TAG_STOP  0 -> worker   abandon the unit in progress (the run stops).
 *   TAG_BEAT  worker -> 0   empty: alive, every BEAT_EVERY seconds while it works; a
 *                           busy worker silent for the rank timeout is given up.
 *   TAG_TEXT  0 -> all      an experiment file's text (dist_share_experiment).
 * Results travel as 64-bit words: doubles bit for bit (the ranks are assumed to share
 * one binary and one byte order, as a cluster's nodes do).
 *
 * Waiting is a poll (MPI_Iprobe, then a 50 us sleep) rather than a blocking receive,
 * which Open MPI would spin in, taking a core from the ranks that compute; the poll also
 * watches the stop flag. Errors return (MPI_ERRORS_RETURN): a failed call marks the run
 * broken, dist_row returns -2 naming the rank, and dist_finalize aborts the job.
 */
#include "dist/dist_mpi.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/monotonic.h"

dist_world_t dist_world = {.size = 1, .here = 1, .threads_total = 1, .threads_list = "1",
                           .rank_timeout = DIST_RANK_TIMEOUT};
static dist_world_t *const W = &dist_world;

/* Rank 0's state for one experiment: each worker's state, threads and unit, the units
 * still to hand out (filters next..F-1 of the row in progress) and where results go. */
typedef struct lead {
    int *state, *threads;
    double *heard; /* when each worker was last heard from (or given a unit) */
    uint64_t (*unit)[2];
    uint64_t *buf; /* one ask: HDR + 3 UNIT_MAX words */
    const exp_row_t *row;
    uint64_t row_index, next, F;
    const row_out_t *out;
    uint64_t *done;
    atomic_int *stop;
    int stopped, nomem, lost; /* a worker was stopped; ran short of memory (rank); lost */
    double last_poll;
} lead_t;

static lead_t *lead;

void dist_nap(void)
{
    struct timespec ts = {0, 50000};
    nanosleep(&ts, NULL);
}

int dist_mpi_failed(int code, int peer, const char *what)
{
    char msg[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    MPI_Error_string(code, msg, &len);
    if (!W->broken)
        snprintf(W->why, sizeof W->why, "rank %d: %s with rank %d failed: %s; the finished rows "
                 "are kept for --resume", W->rank, what, peer, msg);
    W->broken = 1;
    return -1;
}

int dist_init(int *argc, char ***argv, char *err, size_t errlen)
{
    /* Started by a launcher: Open MPI's mpirun, or PMI/PMIx (srun, hydra). */
    const char *vars[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"};
    int launched = 0;
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        launched |= getenv(vars[i]) != NULL;
    if (!launched)
        return 0;
    int provided = 0;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        snprintf(err, errlen, "MPI_Init_thread failed");
        return -1;
    }
    W->on = 1;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &W->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &W->size);
    int len = 0;
    MPI_Get_processor_name(W->host, &len);
    MPI_Comm local;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local) ==
        MPI_SUCCESS) {
        MPI_Comm_size(local, &W->here);
        MPI_Comm_free(&local);
    }
    if (W->rank == 0 && !(W->hosts = calloc((size_t)W->size, sizeof *W->hosts))) {
        snprintf(err, errlen, "out of memory for %d ranks", W->size);
        return -1;
    }
    if (provided < MPI_THREAD_FUNNELED) {
        snprintf(err, errlen, "MPI gives no MPI_THREAD_FUNNELED (got level %d)", provided);
        return -1;
    }
    return 0;
}

void dist_finalize(int rc)
{
    if (!W->on)
        return;
    if (W->broken)
        MPI_Abort(MPI_COMM_WORLD, rc ? rc : 1);
    else
        MPI_Finalize();
}

void dist_set_rank_timeout(double seconds) { W->rank_timeout = seconds; }

int dist_rank(void) { return W->rank; }
int dist_size(void) { return W->size; }
int dist_ranks_here(void) { return W->here; }
int dist_threads_total(void) { return W->threads_total; }
const char *dist_threads_list(void) { return W->threads_list; }

int dist_agree_threads(int threads)
{
    W->threads_total = threads;
    snprintf(W->threads_list, sizeof W->threads_list, "%d", threads);
    if (W->size == 1)
        return 0;
    int *all = W->rank == 0 ? calloc((size_t)W->size, sizeof *all) : NULL;
    if (W->rank == 0 && !all)
        return -1;
    int code = MPI_Gather(&threads, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (code != MPI_SUCCESS) {
        free(all);
        return dist_mpi_failed(code, 0, "gathering thread counts");
    }
    code = MPI_Gather(W->host, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, W->hosts ? W->hosts[0] : NULL,
                      MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, MPI_COMM_WORLD); /* for messages */
    if (code != MPI_SUCCESS) {
        free(all);
        return dist_mpi_failed(code, 0, "gathering host names");
    }
    if (W->rank == 0) {
        W->threads_total = 0;
        size_t at = 0;
        for (int r = 0; r < W->size; r++) {
            W->threads_total += all[r];
            if (at < sizeof W->threads_list)
                at += (size_t)snprintf(W->threads_list + at, sizeof W->threads_list - at, "%s%d",
                                       r ? "," : "", all[r]);
        }
    }
    free(all);
    return 0;
}

int dist_agree(int rc, char *err, size_t errlen)
{
    if (W->size == 1)
        return rc;
    int mine = rc ? W->rank : W->size, first = W->size;
    if (MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD) != MPI_SUCCESS ||
        first == W->size)
        return W->broken ? (snprintf(err, errlen, "%s", W->why), 1) : 0;
    int status = rc;
    if (MPI_Bcast(&status, 1, MPI_INT, first, MPI_COMM_WORLD) != MPI_SUCCESS)
        status = 1;
    if (first != 0) { /* the failing worker's message goes to rank 0 */
        char msg[1024];
        if (W->rank == first) {
            snprintf(msg, sizeof msg, "rank %d (%s): %s", W->rank, W->host, err);
            MPI_Send(msg, (int)strlen(msg) + 1, MPI_CHAR, 0, TAG_TEXT, MPI_COMM_WORLD);
        } else if (W->rank == 0 && MPI_Recv(msg, sizeof msg, MPI_CHAR, first, TAG_TEXT,
                                           MPI_COMM_WORLD, MPI_STATUS_IGNORE) == MPI_SUCCESS) {
            msg[sizeof msg - 1] = '\0';
            snprintf(err, errlen, "%s", msg);
        }
    }
    return status;
}

/* ---- rank 0 ---- */

size_t dist_words_per_filter(const exp_row_t *row)
{
    return 1 + !sim_counts(row) + row_popcounts(row) +
           (row->structure == STRUCT_STACK) + (row->structure == STRUCT_FINGERPRINT);
}

void dist_pack(const exp_row_t *row, const row_out_t *out, uint64_t f0, uint64_t f1,
               uint64_t *p)
{
    size_t n = (size_t)(f1 - f0);
    memcpy(p, sim_counts(row) ? (void *)(out->counts + f0) : (void *)(out->rates + f0), 8 * n);
    p += n;
    if (!sim_counts(row))
        memcpy(p, out->within + f0, 8 * n), p += n;
    if (row_popcounts(row))
        memcpy(p, out->popcounts + f0, 8 * n), p += n;
    if (row->structure == STRUCT_STACK)
        memcpy(p, out->consulted + f0, 8 * n);
    if (row->structure == STRUCT_FINGERPRINT)
        memcpy(p, out->refused + f0, 8 * n);
}

void dist_unpack(const exp_row_t *row, const row_out_t *out, uint64_t f0, uint64_t f1,
                 const uint64_t *p)
{
    size_t n = (size_t)(f1 - f0);
    memcpy(sim_counts(row) ? (void *)(out->counts + f0) : (void *)(out->rates + f0), p, 8 * n);
    p += n;
    if (!sim_counts(row))
        memcpy(out->within + f0, p, 8 * n), p += n;
    if (row_popcounts(row) && out->popcounts)
        memcpy(out->popcounts + f0, p, 8 * n), p += n;
    if (row->structure == STRUCT_STACK)
        memcpy(out->consulted + f0, p, 8 * n);
    if (row->structure == STRUCT_FINGERPRINT)
        memcpy(out->refused + f0, p, 8 * n);
}

static void lead_free(void)
{
    if (!lead)
        return;
    free(lead->state);
    free(lead->threads);
    free(lead->heard);
    free(lead->unit);
    free(lead->buf);
    free(lead);
    lead = NULL;
}

static int lead_alloc(void)
{
    if (lead)
        return 0;
    lead = calloc(1, sizeof *lead);
    if (!lead)
        return -1;
    lead->state = calloc((size_t)W->size, sizeof *lead->state);
    lead->threads = calloc((size_t)W->size, sizeof *lead->threads);
    lead->heard = calloc((size_t)W->size, sizeof *lead->heard);
    lead->unit = calloc((size_t)W->size, sizeof *lead->unit);
    lead->buf = malloc((HDR + 3 * UNIT_MAX) * sizeof *lead->buf);
    if (!lead->state || !lead->threads || !lead->heard || !lead->unit || !lead->buf) {
        lead_free();
        return -1;
    }
    return 0;
}

static int halted(const lead_t *L)
{
    return progress_stopped(L->stop) || L->stopped || L->nomem || L->lost;
}

/* The next unit for a rank of `threads` threads: a share of what is left in proportion
 * to its threads, halved (guided self-scheduling: big units first, small ones at the
 * end so the ranks finish together), at least a filter per thread (one for a shared
 * row, which all threads build together), at most UNIT_MAX. */
static uint64_t unit_size(const lead_t *L, int threads)
{
    uint64_t left = L->F - L->next;
    double share = ceil((double)left * threads / (2.0 * W->threads_total));
    uint64_t size = (uint64_t)share, least = sim_shared(L->row) ? 1 : (uint64_t)threads;
    if (size < least)
        size = least;
    if (size > UNIT_MAX)
        size = UNIT_MAX;
    return size < left ? size : left;
}

/* Give waiting worker r the next unit, if there is one. */
static int assign(lead_t *L, int r)
{
    if (L->state[r] != RANK_WAITING || !L->row || L->next >= L->F || halted(L))
        return 0;
    uint64_t size = unit_size(L, L->threads[r] > 0 ? L->threads[r] : 1);
    uint64_t msg[HDR] = {UNIT_WORK, L->row_index, L->next, L->next + size,
                         L->row->lookups_per_filter};
    TRY(MPI_Send(msg, HDR, MPI_UINT64_T, r, TAG_UNIT, MPI_COMM_WORLD), r, "sending a unit");
    L->unit[r][0] = L->next;
    L->unit[r][1] = L->next + size;
    L->next += size;
    L->state[r] = RANK_BUSY;
    L->heard[r] = monotonic_seconds();
    return 0;
}

/* Receive the heartbeats that have arrived: each says its worker is alive. */
static int take_beats(lead_t *L)
{
    for (;;) {
        int flag = 0;
        MPI_Status st;
        TRY(MPI_Iprobe(MPI_ANY_SOURCE, TAG_BEAT, MPI_COMM_WORLD, &flag, &st), -1, "polling");
        if (!flag)
            return 0;
        TRY(MPI_Recv(NULL, 0, MPI_BYTE, st.MPI_SOURCE, TAG_BEAT, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE), st.MPI_SOURCE, "receiving a heartbeat");
        if (L)
            L->heard[st.MPI_SOURCE] = monotonic_seconds();
    }
}

/* After the messages that arrived are taken: a busy worker silent for longer than the
 * rank timeout (stopped, hung) is lost, and the run ends naming it. 1 when one is. */
static int silent(lead_t *L)
{
    double now = monotonic_seconds();
    for (int r = 1; r < W->size && !L->lost; r++) {
        if (L->state[r] != RANK_BUSY || now - L->heard[r] <= W->rank_timeout)
            continue;
        snprintf(W->why, sizeof W->why, "rank %d (%s) sent nothing for %.0f s while running "
                 "filters %llu..%llu of row %llu (stopped or hung?); the finished rows are "
                 "kept for --resume (BLOOMSIM_RANK_TIMEOUT sets the limit, %g s)", r,
                 W->hosts ? W->hosts[r] : "?", now - L->heard[r],
                 (unsigned long long)L->unit[r][0], (unsigned long long)L->unit[r][1] - 1,
                 (unsigned long long)L->row_index + 1, W->rank_timeout);
        W->broken = 1;
        L->lost = r;
    }
    return L->lost != 0;
}

/* Receive one ask from worker r: store the results it carries, note what it says. */
static int take_ask(lead_t *L, int r)
{
    MPI_Status st;
    int count = 0;
    TRY(MPI_Recv(L->buf, (int)(HDR + 3 * UNIT_MAX), MPI_UINT64_T, r, TAG_ASK, MPI_COMM_WORLD,
                 &st), r, "receiving results");
    MPI_Get_count(&st, MPI_UINT64_T, &count);
    const uint64_t *h = L->buf;
    L->heard[r] = monotonic_seconds();
    if (h[0] == ASK_READY) {
        L->threads[r] = (int)h[4];
    } else if (h[0] == ASK_DONE) {
        if (L->state[r] == RANK_BUSY && L->row && h[1] == L->row_index &&
            h[2] == L->unit[r][0] && h[3] == L->unit[r][1] &&
            (uint64_t)count == HDR + dist_words_per_filter(L->row) * (h[3] - h[2])) {
            dist_unpack(L->row, L->out, h[2], h[3], L->buf + HDR);
#pragma omp atomic
            *L->done += h[3] - h[2];
        } else if (!L->lost) { /* cannot happen: a result nobody asked for */
            snprintf(W->why, sizeof W->why, "rank %d sent results of filters %llu..%llu of row "
                     "%llu, which it was not given", r, (unsigned long long)h[2],
                     (unsigned long long)h[3], (unsigned long long)h[1]);
            L->lost = r;
        }
    } else if (h[0] == ASK_STOPPED) {
        L->stopped = 1;
        if (h[4] && L->stop && !progress_stopped(L->stop)) /* a worker's signal stops us all */
            atomic_store_explicit(L->stop, (int)h[4], memory_order_relaxed);
    } else if (h[0] == ASK_NOMEM && !L->nomem) {
        L->nomem = r;
        if (L->row)
            snprintf(W->why, sizeof W->why, "rank %d: out of memory for %llu-bit filters", r,
                     (unsigned long long)L->row->geom.m);
        else
            snprintf(W->why, sizeof W->why, "rank %d: out of memory", r);
    }
    L->state[r] = RANK_WAITING;
    return 0;
}

/* Answer every ask that has arrived; give out units to the waiting; take the
 * heartbeats and give up a silent worker. */
static int poll(lead_t *L)
{
    for (;;) {
        int flag = 0;
        MPI_Status st;
        TRY(MPI_Iprobe(MPI_ANY_SOURCE, TAG_ASK, MPI_COMM_WORLD, &flag, &st), -1, "polling");
        if (!flag)
            break;
        if (take_ask(L, st.MPI_SOURCE) || assign(L, st.MPI_SOURCE)) {
            L->lost = st.MPI_SOURCE ? st.MPI_SOURCE : 1;
            return -1;
        }
    }
    if (take_beats(L)) {
        L->lost = 1;
        return -1;
    }
    return silent(L) ? -1 : 0;
}

/* Rank 0's progress tick: answer the workers every 100 us at most. */
static void lead_tick(void *ctx)
{
    lead_t *L = ctx;
    double t = monotonic_seconds();
    if (t - L->last_poll < 1e-4)
        return;
    L->last_poll = t;
    poll(L);
}

/* Wait until no worker holds a unit. Once the run is halted, busy workers are told to
 * stop, and given STOP_GRACE seconds. */
static void wait_busy(lead_t *L)
{
    int told = 0;
    double since = 0;
    for (;;) {
        int busy = -1;
        for (int r = 1; r < W->size && busy < 0; r++)
            if (L->state[r] == RANK_BUSY)
                busy = r;
        if (busy < 0 || L->lost)
            return;
        if (take_beats(L) || silent(L)) {
            L->lost = L->lost ? L->lost : busy;
            return;
        }
        if (halted(L) && !told) {
            for (int r = 1; r < W->size; r++)
                if (L->state[r] == RANK_BUSY)
                    MPI_Send(NULL, 0, MPI_BYTE, r, TAG_STOP, MPI_COMM_WORLD);
            told = 1;
            since = monotonic_seconds();
        }
        if (told && monotonic_seconds() - since > STOP_GRACE) {
            snprintf(W->why, sizeof W->why, "rank %d did not answer within %.0f s of the run "
                     "stopping; the finished rows are kept for --resume", busy, STOP_GRACE);
            W->broken = 1;
            L->lost = busy;
            return;
        }
        int flag = 0;
        MPI_Status st;
        if (MPI_Iprobe(MPI_ANY_SOURCE, TAG_ASK, MPI_COMM_WORLD, &flag, &st) != MPI_SUCCESS) {
            L->lost = busy;
            return;
        }
        if (flag) {
            if (take_ask(L, st.MPI_SOURCE) || assign(L, st.MPI_SOURCE))
                L->lost = st.MPI_SOURCE;
        } else {
            dist_nap();
        }
    }
}

int dist_row(const row_run_t *run, sim_used_t *used)
{
    W->why[0] = '\0';
    if (W->size == 1)
        return sim_row(run, used);
    if (lead_alloc())
        return -1;
    lead_t *L = lead;
    const exp_row_t *row = run->row;
    const row_out_t *out = run->out;
    const int threads = run->threads;
    atomic_int *stop = run->stop;
    progress_t quiet = {0}, *ps = run->ps ? run->ps : &quiet;
    void (*tick)(void *) = ps->tick;
    void *tick_ctx = ps->tick_ctx;
    ps->tick = lead_tick;
    ps->tick_ctx = L;
    sim_res_t rr;
    int failed = sim_res_alloc(row, threads, &rr);
    exp_row_t cur = *row; /* its lookups per filter may grow (sim_grow) */
    const row_run_t ours = {.row = &cur, .seed = run->seed, .index = run->index,
                            .threads = threads, .out = out, .ps = ps, .stop = stop};
    sim_used_t now = sim_first(row, ps);
    uint64_t f0 = 0, done = 0;
    L->row = &cur, L->row_index = run->index, L->out = out, L->done = &done, L->stop = stop;
    L->stopped = L->nomem = L->lost = 0;
    while (!failed) {
        L->next = f0, L->F = now.filters;
        for (int r = 1; r < W->size; r++)
            assign(L, r);
        poll(L);
        while (L->next < now.filters && !halted(L)) { /* a unit of our own, answering */
            uint64_t a = L->next, size = unit_size(L, threads);
            L->next += size;
            sim_filters(&ours, &rr, a, a + size, &done);
            poll(L);
        }
        wait_busy(L);
        if (halted(L) || !sim_grow(row, &cur, &now, &f0, out, ps))
            break;
    }
    *used = now;
    L->row = NULL;
    ps->tick = tick;
    ps->tick_ctx = tick_ctx;
    sim_res_free(row, &rr);
    if (failed)
        return -1;
    return L->lost ? -2 : L->nomem ? -1 : halted(L) ? 1 : 0;
}

void dist_error(char *err, size_t errlen) { snprintf(err, errlen, "%s", W->why); }

void dist_end(int rc, atomic_int *stop)
{
    if (W->size == 1 || W->broken)
        return;
    if (lead_alloc()) {
        W->broken = 1;
        return;
    }
    lead->stop = stop;
    /* Every worker's last ask must be in before it is answered with the end. */
    for (int r = 1; r < W->size; r++)
        while (lead->state[r] != RANK_WAITING && !W->broken) {
            int flag = 0;
            if (MPI_Iprobe(r, TAG_ASK, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS)
                W->broken = 1;
            else if (flag)
                take_ask(lead, r);
            else
                dist_nap();
        }
    if (take_beats(lead)) /* the last heartbeats, sent before the last asks */
        W->broken = 1;
    uint64_t msg[HDR] = {UNIT_END, (uint64_t)rc,
                         (uint64_t)atomic_load_explicit(stop, memory_order_relaxed), 0, 0};
    for (int r = 1; r < W->size && !W->broken; r++)
        if (MPI_Send(msg, HDR, MPI_UINT64_T, r, TAG_UNIT, MPI_COMM_WORLD) != MPI_SUCCESS)
            W->broken = 1;
    lead_free();
}
