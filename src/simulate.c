/* simulate.c - see simulate.h. */
#include "simulate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <omp.h>

int sim_counts(const exp_row_t *row)
{
    return row->est->counts && row->structure != STRUCT_STACK;
}

static int runs_row(const est_ops_t *est, const exp_row_t *row)
{
    return est->runs_row && est->runs_row(row);
}

int sim_shared(const exp_row_t *row) { return runs_row(row->est, row); }

double sim_memory(const exp_row_t *row, int threads)
{
    const est_ops_t *est = row->est;
    double bytes = 0;
    for (size_t j = 0; j < row_layers(row); j++) {
        const probe_geom_t *g = row_layer_geom(row, j);
        bytes += (double)((g->m + 63) / 64 * 8) + est->scratch_bytes(row, g, row_layer_n(row, j));
    }
    return runs_row(est, row) ? bytes : bytes * threads;
}

/* Build filter f (all its layers) from r and record what the row wants. A stack is
 * asked newest layer first, as seed 001's stack and a log-structured store are, and
 * answers yes at the first layer that does; each layer's probes are fresh draws, so
 * given the layers, P(yes) = 1 - prod(1 - p_j) and the expected layers consulted is the
 * sum over layers of the probability that all newer ones said no, with p_j each layer's
 * rate (an unbiased estimate of it, from either estimator, independent across layers).
 * Layers are built oldest first, as keys arrive. The estimator asks poll between chunks
 * of its work (a stopped filter's results are meaningless; the caller drops the row). */
static void run_filter(const exp_row_t *row, const est_ops_t *est, void *const *plans,
                       bits_t *b, void *const *scratch, uint64_t f, pcg32_t *r,
                       const row_out_t *out, const scheme_poll_t *poll)
{
    uint64_t count = 0;
    if (row->structure != STRUCT_STACK) {
        double rate = est->measure(row, plans[0], scratch[0], b, &row->geom, row->n, r, &count,
                                   poll);
        if (sim_counts(row))
            out->counts[f] = count;
        else
            out->rates[f] = rate;
        if (out->popcounts)
            out->popcounts[f] = bits_count(b);
        return;
    }
    double p[SIZING_MAX_LAYERS];
    for (size_t j = 0; j < row->nlayers; j++)
        p[j] = est->measure(row, plans[j], scratch[j], &b[j], &row->layer_geom[j],
                            row->layer[j].n, r, &count, poll);
    double pass = 1.0, consulted = 0.0;
    for (size_t j = row->nlayers; j-- > 0;) { /* newest first */
        consulted += pass;
        pass *= 1.0 - p[j];
    }
    out->rates[f] = 1.0 - pass;
    out->consulted[f] = consulted;
}

/* What a filter's loops ask between chunks of their work (scheme_poll_t): whether to
 * stop, and, on thread 0 (the thread that may talk to the other ranks of a distributed
 * run), the progress tick, so that a long filter neither delays a stop nor leaves the
 * other ranks unanswered (dist.h). */
typedef struct sim_poll {
    atomic_int *stop;
    progress_t *ps; /* thread 0's; NULL on the others */
} sim_poll_t;

static int sim_poll(void *ctx)
{
    const sim_poll_t *p = ctx;
    if (p->ps && p->ps->tick)
        p->ps->tick(p->ps->tick_ctx);
    return progress_stopped(p->stop);
}

/* Thread 0, its own filters done: keep ticking while the other threads finish theirs
 * (*running of them), for a distributed run's messages; nothing to do without a tick. */
static void tick_while_running(progress_t *ps, const int *running)
{
    for (;;) {
        int r;
#pragma omp atomic read
        r = *running;
        if (r == 0 || !ps || !ps->tick)
            return;
        ps->tick(ps->tick_ctx);
        struct timespec ts = {0, 200000};
        nanosleep(&ts, NULL);
    }
}

/* Filters f0..F-1, one per thread at a time: filter f is built and measured by one
 * thread from pcg32_unit(seed, row_index, f) alone, into that thread's arrays. */
static void run_filters(const exp_row_t *row, const est_ops_t *est, void *const *plans,
                        bits_t *arrays, void *const *scratch, uint64_t seed,
                        uint64_t row_index, int threads, uint64_t f0, uint64_t F,
                        const row_out_t *out, uint64_t *done, progress_t *ps,
                        atomic_int *stop, double per_filter)
{
    const size_t nl = row_layers(row);
    const uint64_t lookups_per = sim_counts(row) ? row->lookups_per_filter * nl : 0;
    int running = 0; /* threads other than 0 still taking filters */
#pragma omp parallel num_threads(threads)
    {
        const int t = omp_get_thread_num();
        const sim_poll_t pc = {.stop = stop, .ps = t == 0 ? ps : NULL};
        const scheme_poll_t poll = {.fn = sim_poll, .ctx = (void *)&pc};
#pragma omp single
        running = omp_get_num_threads() - 1;
#pragma omp for schedule(dynamic, 1) nowait
        for (uint64_t f = f0; f < F; f++) {
            if (progress_stopped(stop))
                continue; /* drain the loop: the row will be dropped */
            pcg32_t r;
            pcg32_unit(&r, seed, row_index, f);
            run_filter(row, est, plans, &arrays[(size_t)t * nl], &scratch[(size_t)t * nl], f,
                       &r, out, &poll);
            uint64_t d;
#pragma omp atomic capture
            d = ++*done;
            if (t == 0)
                progress_report(ps, per_filter, (double)d, d, d * lookups_per, 0);
        }
        if (t == 0) {
            tick_while_running(ps, &running);
        } else {
#pragma omp atomic
            running--;
        }
    }
}

/* Asks for 10% more than the spread so far says the target needs, and at least one
 * more batch. */
uint64_t sim_filters_wanted(const exp_row_t *row, uint64_t F, const row_out_t *out)
{
    if (row->precision <= 0 || F >= row->max_filters)
        return F;
    stats_summary_t s;
    double rse = sim_summarize(row, F, out, &s) == 0 && s.rate > 0 ? s.stderr_ / s.rate
                                                                     : INFINITY;
    if (rse <= row->precision)
        return F;
    double want = isfinite(rse) ? (double)F * (rse / row->precision) *
                                      (rse / row->precision) * 1.1 : 0;
    uint64_t next = F + row->filters;
    if (want > (double)next)
        next = want < (double)row->max_filters ? (uint64_t)ceil(want) : row->max_filters;
    return next < row->max_filters ? next : row->max_filters;
}

static void res_free(const est_ops_t *est, sim_res_t *rr)
{
    for (size_t t = 0; t < rr->narrays; t++) {
        if (rr->arrays)
            bits_free(&rr->arrays[t]);
        if (rr->scratch && est->scratch_free)
            est->scratch_free(rr->scratch[t]);
    }
    free(rr->arrays);
    free(rr->scratch);
    for (size_t j = 0; j < rr->nplans; j++)
        if (est->plan_free)
            est->plan_free(rr->plans[j]);
    memset(rr, 0, sizeof *rr);
}

void sim_res_free(const exp_row_t *row, sim_res_t *rr) { res_free(row->est, rr); }

int sim_res_alloc(const exp_row_t *row, int threads, sim_res_t *rr)
{
    const est_ops_t *est = row->est;
    const size_t nl = row_layers(row);
    *rr = (sim_res_t){.narrays = runs_row(est, row) ? 1 : (size_t)threads * nl};
    int failed = 0;
    for (; est->plan_make && rr->nplans < nl && !failed; rr->nplans++)
        failed = est->plan_make(&rr->plans[rr->nplans], row, row_layer_geom(row, rr->nplans),
                                row_layer_n(row, rr->nplans)) != 0;
    rr->arrays = calloc(rr->narrays, sizeof *rr->arrays);
    rr->scratch = calloc(rr->narrays, sizeof *rr->scratch);
    failed |= rr->arrays == NULL || rr->scratch == NULL;
    for (size_t t = 0; t < rr->narrays && !failed; t++)
        failed = bits_alloc(&rr->arrays[t], row_layer_geom(row, t % nl)->m) != 0 ||
                 (est->scratch_alloc &&
                  est->scratch_alloc(&rr->scratch[t], rr->plans[t % nl]) != 0);
    return failed ? -1 : 0;
}

int sim_filters(const exp_row_t *row, sim_res_t *rr, uint64_t seed, uint64_t row_index,
                int threads, uint64_t f0, uint64_t F, const row_out_t *out, uint64_t *done,
                progress_t *ps, atomic_int *stop)
{
    const est_ops_t *est = row->est;
    if (runs_row(est, row))
        return est->run_row(row, seed, row_index, threads, rr->arrays, f0, F, out, done, ps,
                            stop);
    run_filters(row, est, rr->plans, rr->arrays, rr->scratch, seed, row_index, threads, f0, F,
                out, done, ps, stop, est_row_work(row) / (double)row->filters);
    return progress_stopped(stop);
}

int sim_row(const exp_row_t *row, uint64_t seed, uint64_t row_index, int threads,
            const row_out_t *out, uint64_t *filters_used, progress_t *ps, atomic_int *stop)
{
    sim_res_t rr;
    int failed = sim_res_alloc(row, threads, &rr);
    const double per_filter = est_row_work(row) / (double)row->filters;
    uint64_t f0 = 0, F = row->filters, done = 0;
    while (!failed) {
        sim_filters(row, &rr, seed, row_index, threads, f0, F, out, &done, ps, stop);
        uint64_t next = progress_stopped(stop) ? F : sim_filters_wanted(row, F, out);
        if (next == F)
            break;
        if (ps) /* the row grew: so does the work still to do */
            ps->total_work += (double)(next - F) * per_filter;
        f0 = F;
        F = next;
    }
    *filters_used = F;
    sim_res_free(row, &rr);
    return failed ? -1 : progress_stopped(stop) ? 1 : 0;
}

int sim_row_into(const exp_row_t *row, uint64_t seed, uint64_t row_index, int threads,
                 uint64_t *counts, double *rates, uint64_t *filters_used)
{
    row_out_t out = {.counts = counts, .rates = rates};
    double *consulted = NULL;
    if (row->structure == STRUCT_STACK) {
        consulted = malloc((size_t)row_max_filters(row) * sizeof *consulted);
        if (!consulted)
            return -1;
        out.consulted = consulted;
    }
    int rc = sim_row(row, seed, row_index, threads, &out, filters_used, NULL, NULL);
    free(consulted);
    return rc;
}

int sim_summarize(const exp_row_t *row, uint64_t filters, const row_out_t *out,
                  stats_summary_t *s)
{
    return sim_counts(row) ? stats_summarize(out->counts, filters, row->lookups_per_filter, s)
                           : stats_summarize_rates(out->rates, filters, s);
}

int sim_out_alloc(row_out_t *out, uint64_t F)
{
    size_t n = F ? (size_t)F : 1;
    *out = (row_out_t){.counts = malloc(n * sizeof *out->counts),
                       .rates = malloc(n * sizeof *out->rates),
                       .popcounts = malloc(n * sizeof *out->popcounts),
                       .consulted = malloc(n * sizeof *out->consulted)};
    if (out->counts && out->rates && out->popcounts && out->consulted)
        return 0;
    sim_out_free(out);
    return -1;
}

void sim_out_free(row_out_t *out)
{
    free(out->counts);
    free(out->rates);
    free(out->popcounts);
    free(out->consulted);
    memset(out, 0, sizeof *out);
}
