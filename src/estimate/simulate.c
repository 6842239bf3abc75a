/* simulate.c - see simulate.h. */
#include "estimate/simulate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <omp.h>

#include "rates/rate.h"

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

/* Build filter f (all its layers) from r on thread t, in that thread's arrays and scratch
 * of rr, and record what the row wants. A stack is
 * asked newest layer first, as seed 001's stack and a log-structured store are, and
 * answers yes at the first layer that does; each layer's probes are fresh draws, so
 * given the layers, P(yes) = 1 - prod(1 - p_j) and the expected layers consulted is the
 * sum over layers of the probability that all newer ones said no, with p_j each layer's
 * rate (an unbiased estimate of it, from either estimator, independent across layers).
 * Layers are built oldest first, as keys arrive. The estimator asks poll between chunks
 * of its work (a stopped filter's results are meaningless; the caller drops the row). */
static void run_filter(const row_run_t *run, const sim_res_t *rr, int t, uint64_t f,
                       pcg32_t *r, const scheme_poll_t *poll)
{
    const exp_row_t *row = run->row;
    const est_ops_t *est = row->est;
    const row_out_t *out = run->out;
    const size_t nl = row_layers(row), at = (size_t)t * nl; /* the thread's arrays */
    est_layer_t l[ROW_MAX_LAYERS];
    for (size_t j = 0; j < nl; j++)
        l[j] = (est_layer_t){.row = row, .g = row_layer_geom(row, j), .n = row_layer_n(row, j),
                             .plan = rr->plans[j],
                             .scratch = rr->scratch[at + j], .b = &rr->arrays[at + j],
                             .poll = poll};
    uint64_t count = 0;
    double within = 0;
    if (row->structure != STRUCT_STACK) {
        if (out->absent && row->structure != STRUCT_FINGERPRINT) {
            l[0].check = est_check_count(l[0].n, row->lookups_per_filter);
            l[0].absent = &out->absent[f];
        }
        double rate = est->measure(&l[0], r, &count, &within);
        if (sim_counts(row))
            out->counts[f] = count;
        else
            out->rates[f] = rate;
        if (out->within)
            out->within[f] = within;
        if (out->popcounts)
            out->popcounts[f] = bits_count(l[0].b);
        if (out->refused && row->structure == STRUCT_FINGERPRINT)
            out->refused[f] = est_fingerprint_refused(l[0].scratch);
        return;
    }
    double p[ROW_MAX_LAYERS], v[ROW_MAX_LAYERS];
    for (size_t j = 0; j < row->nlayers; j++)
        p[j] = est->measure(&l[j], r, &count, &v[j]);
    double pass = 1.0, consulted = 0.0;
    for (size_t j = row->nlayers; j-- > 0;) { /* newest first */
        consulted += pass;
        pass *= 1.0 - p[j];
    }
    /* The stack's rate 1 - prod(1 - p_j) varies with each layer's estimate by
     * prod_{i != j}(1 - p_i): its sampling variance, the layers being independent. */
    for (size_t j = 0; j < row->nlayers; j++) {
        double others = p[j] < 1 ? pass / (1 - p[j]) : 0;
        within += others * others * v[j];
    }
    out->rates[f] = 1.0 - pass;
    out->consulted[f] = consulted;
    if (out->within)
        out->within[f] = within;
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
 * thread from pcg32_unit(seed, row index, f) alone, into that thread's arrays. */
static void run_filters(const row_run_t *run, const sim_res_t *rr, uint64_t f0, uint64_t F,
                        uint64_t *done)
{
    const exp_row_t *row = run->row;
    progress_t *ps = run->ps;
    atomic_int *stop = run->stop;
    const double per_filter = est_row_work(row) / (double)row->filters;
    const uint64_t lookups_per = sim_counts(row) ? row->lookups_per_filter * row_layers(row) : 0;
    int running = 0; /* threads other than 0 still taking filters */
#pragma omp parallel num_threads(run->threads)
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
            pcg32_unit(&r, run->seed, run->index, f);
            run_filter(run, rr, t, f, &r, &poll);
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

/* The most lookups per filter a big row's precision target may grow to: 1000 times those
 * planned (as max_filters is 1000 times filters unless given), and 2^56 in all; a file of
 * keys, no more than its queried lines. */
static uint64_t lookups_cap(const exp_row_t *row, uint64_t F)
{
    double cap = fmin(1000.0 * (double)row->lookups_per_filter, 72057594037927936.0 / (double)F);
    if (row_real_keys(row) && keyset_queries_total(&row->keys) != UINT64_MAX)
        cap = fmin(cap, (double)(keyset_queries_total(&row->keys) / F)); /* each once */
    if (row_real_keys(row)) /* the key set's queries a filter (filter-bench's n) */
        cap = fmin(cap, (double)keyset_queries_max(&row->keys));
    return (uint64_t)cap;
}

int sim_one_filter(const exp_row_t *row)
{
    return row_real_keys(row) && !keyset_per_filter(&row->keys);
}

/* Adds to ps (where not NULL) the work of `filters` more filters of the row. */
static void work_grows(progress_t *ps, const exp_row_t *row, uint64_t filters)
{
    if (ps)
        ps->total_work += (double)filters * est_row_work(row) / (double)row->filters;
}

sim_used_t sim_first(const exp_row_t *row, progress_t *ps)
{
    sim_used_t first = {row->filters, row->lookups_per_filter};
    uint64_t most = row_max_filters(row);
    if (row->precision > 0 && sim_one_filter(row) && first.filters < STATS_MIN_SPREAD_FILTERS)
        first.filters = most < STATS_MIN_SPREAD_FILTERS ? most : STATS_MIN_SPREAD_FILTERS;
    if (first.filters > row->filters)
        work_grows(ps, row, first.filters - row->filters);
    return first;
}

int sim_grow(const exp_row_t *row, exp_row_t *cur, sim_used_t *now, uint64_t *f0,
             const row_out_t *out, progress_t *ps)
{
    sim_used_t next = sim_wanted(row, *now, out);
    if (next.filters == now->filters && next.lookups_per_filter == now->lookups_per_filter)
        return 0;
    *f0 = now->filters;
    if (next.lookups_per_filter != now->lookups_per_filter) /* every filter again */
        *f0 = 0, cur->lookups_per_filter = next.lookups_per_filter;
    work_grows(ps, row, next.filters - *f0);
    *now = next;
    return 1;
}

int sim_target_met(const exp_row_t *row, const stats_summary_t *s)
{
    double target = row->precision * s->rate;
    return row->precision > 0 && s->rate > 0 && s->stderr_ <= target &&
           stats_trusted(s, target, sim_one_filter(row));
}

/* Asks for 10% more than the standard error so far says the target needs: more lookups
 * on the same filters where they are shared (too big to build many) and the spread is
 * binomial (never for filter-bench, whose filters keep their counters), else more
 * filters, at least one more batch and at least STATS_MIN_SPREAD_FILTERS in all; nothing
 * more for a one-filter row (its stated range). */
sim_used_t sim_wanted(const exp_row_t *row, sim_used_t now, const row_out_t *out)
{
    /* A one-filter row queries a stated range, sim_first's batches, and no more: its rate
     * is that range's exact count, whatever the target (docs/model.md, Key sets and real
     * hashes). */
    if (row->precision <= 0 || sim_one_filter(row))
        return now;
    exp_row_t cur = *row;
    cur.lookups_per_filter = now.lookups_per_filter;
    stats_summary_t s;
    if (sim_summarize(&cur, now.filters, out, &s) != 0 || sim_target_met(row, &s))
        return now;
    double rse = s.rate > 0 ? s.stderr_ / s.rate : INFINITY;
    double grow = isfinite(rse) ? (rse / row->precision) * (rse / row->precision) * 1.1 : 10;
    sim_used_t next = now;
    /* filters of a key set with a bound on their queries (filter-bench's n): more
     * filters, never more lookups, so that each filter's queries stay the counters its
     * first run asked (the range a filter is measured over does not move with the
     * target) */
    int spent = row_real_keys(row) && keyset_queries_max(&row->keys) != UINT64_MAX;
    int few = sim_one_filter(row) && now.filters < STATS_MIN_SPREAD_FILTERS;
    if (sim_shared(row) && s.kind == STATS_BINOMIAL && !spent && !few) {
        uint64_t cap = lookups_cap(row, now.filters);
        double want = ceil((double)now.lookups_per_filter * fmax(grow, 1.1));
        next.lookups_per_filter = want < (double)cap ? (uint64_t)want : cap;
        return next;
    }
    if (now.filters >= row->max_filters)
        return now;
    uint64_t F = now.filters + row->filters;
    if (F < STATS_MIN_SPREAD_FILTERS)
        F = STATS_MIN_SPREAD_FILTERS;
    double want = (double)now.filters * grow;
    if (want > (double)F)
        F = want < (double)row->max_filters ? (uint64_t)ceil(want) : row->max_filters;
    next.filters = F < row->max_filters ? F : row->max_filters;
    return next;
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

int sim_filters(const row_run_t *run, sim_res_t *rr, uint64_t f0, uint64_t F, uint64_t *done)
{
    const est_ops_t *est = run->row->est;
    if (runs_row(est, run->row))
        return est->run_row(run, rr->arrays, f0, F, done);
    run_filters(run, rr, f0, F, done);
    return progress_stopped(run->stop);
}

int sim_row(const row_run_t *run, sim_used_t *used)
{
    const exp_row_t *row = run->row;
    sim_res_t rr;
    int failed = sim_res_alloc(row, run->threads, &rr);
    exp_row_t cur = *row; /* its lookups per filter may grow */
    row_run_t at = *run;
    at.row = &cur;
    sim_used_t now = sim_first(row, run->ps);
    uint64_t f0 = 0, done = 0;
    while (!failed) {
        sim_filters(&at, &rr, f0, now.filters, &done);
        if (progress_stopped(run->stop) || !sim_grow(row, &cur, &now, &f0, run->out, run->ps))
            break;
    }
    *used = now;
    sim_res_free(row, &rr);
    return failed ? -1 : progress_stopped(run->stop) ? 1 : 0;
}

int sim_row_into(const exp_row_t *row, uint64_t seed, uint64_t row_index, int threads,
                 uint64_t *counts, double *rates, uint64_t *filters_used)
{
    row_out_t out;
    if (sim_out_alloc(&out, row_max_filters(row)))
        return -1;
    sim_used_t used = {0, 0};
    const row_run_t run = {.row = row, .seed = seed, .index = row_index, .threads = threads,
                           .out = &out};
    int rc = sim_row(&run, &used);
    if (rc == 0) {
        if (sim_counts(row))
            memcpy(counts, out.counts, (size_t)used.filters * sizeof *counts);
        else
            memcpy(rates, out.rates, (size_t)used.filters * sizeof *rates);
    }
    *filters_used = used.filters;
    sim_out_free(&out);
    return rc;
}

double sim_between_var(const exp_row_t *row, double rate)
{
    if (row->structure == STRUCT_FINGERPRINT)
        return fp_between_var(&row->fp);
    if (row->structure != STRUCT_STACK)
        return rate_between_var(row->geom.m, row->n, row->geom.k, rate);
    double v = 0; /* each layer at its finite formula's rate */
    for (size_t j = 0; j < row->nlayers; j++) {
        const probe_geom_t *g = row_layer_geom(row, j);
        uint64_t n = row_layer_n(row, j);
        v += rate_between_var(g->m, n, g->k, rate_formula_finite(g->m, n, g->k));
    }
    return v;
}

int sim_summarize(const exp_row_t *row, uint64_t filters, const row_out_t *out,
                  stats_summary_t *s)
{
    if (sim_counts(row)) {
        if (filters < 2 || row->lookups_per_filter == 0)
            return -1;
        uint64_t sum = 0;
        for (uint64_t f = 0; f < filters; f++)
            sum += out->counts[f];
        double p = (double)sum / ((double)filters * (double)row->lookups_per_filter);
        return stats_summarize(out->counts, filters, row->lookups_per_filter,
                               sim_between_var(row, p), s);
    }
    if (filters < 2)
        return -1;
    long double sum = 0;
    for (uint64_t f = 0; f < filters; f++)
        sum += out->rates[f];
    return stats_summarize_rates(out->rates, out->within, filters,
                                 sim_between_var(row, (double)(sum / filters)), s);
}

int sim_out_alloc(row_out_t *out, uint64_t F)
{
    size_t n = F ? (size_t)F : 1;
    *out = (row_out_t){.counts = malloc(n * sizeof *out->counts),
                       .rates = malloc(n * sizeof *out->rates),
                       .within = malloc(n * sizeof *out->within),
                       .popcounts = malloc(n * sizeof *out->popcounts),
                       .consulted = malloc(n * sizeof *out->consulted),
                       .refused = malloc(n * sizeof *out->refused)};
    if (out->counts && out->rates && out->within && out->popcounts && out->consulted &&
        out->refused)
        return 0;
    sim_out_free(out);
    return -1;
}

void sim_out_free(row_out_t *out)
{
    free(out->counts);
    free(out->rates);
    free(out->within);
    free(out->popcounts);
    free(out->consulted);
    free(out->refused);
    memset(out, 0, sizeof *out);
}
