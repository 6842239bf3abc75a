/* est_lookups.c - the lookups estimator (docs/model.md, Estimators): build a filter
 * from n fresh keys, ask L = lookups_per_filter fresh absent keys, count the false
 * positives. Any scheme. Filters of EST_SHARED_BITS and more are built and queried
 * by all threads together (lookups_run_row), as are rows of real keys (est_keys.c). */
#include <string.h>

#include <omp.h>

#include "estimate/estimator.h"

static int lookups_supports(const scheme_t *s, const probe_geom_t *g, uint64_t n)
{
    (void)s, (void)g, (void)n;
    return 1;
}

static double lookups_scratch_bytes(const exp_row_t *row, const probe_geom_t *g, uint64_t n)
{
    (void)row, (void)g, (void)n;
    return 0;
}

/* A lookup costs about two probes on average (it stops at the first clear bit). */
static double lookups_work(const exp_row_t *row, const probe_geom_t *g, uint64_t n)
{
    (void)g, (void)n;
    return 2.0 * (double)row->lookups_per_filter;
}

static double lookups_measure(const est_layer_t *l, pcg32_t *r, uint64_t *count, double *within)
{
    const exp_row_t *row = l->row;
    bits_reset(l->b, l->g->m);
    const pcg32_t r0 = *r; /* the inserts' draws, for an audit's check */
    row->scheme->insert(l->b, l->g, r, l->n, NULL, l->poll);
    *count = row->scheme->lookup(l->b, l->g, r, row->lookups_per_filter, l->poll);
    est_check_layer(l, row->scheme, r0);
    double L = (double)row->lookups_per_filter, rate = (double)*count / L;
    *within = rate * (1 - rate) / L; /* binomial, given the filter */
    return rate;
}

static int lookups_runs_row(const exp_row_t *row)
{
    return row->structure != STRUCT_STACK &&
           (row->geom.m >= EST_SHARED_BITS || row_real_keys(row));
}

/* Length of chunk c of a total split into EST_CHUNK pieces. */
static uint64_t chunk_len(uint64_t total, uint64_t c)
{
    uint64_t first = c * EST_CHUNK;
    return total - first < EST_CHUNK ? total - first : EST_CHUNK;
}

/* Count one more finished chunk; returns the count, read atomically. */
static uint64_t chunk_finished(uint64_t *count)
{
    uint64_t d;
#pragma omp atomic capture
    d = ++*count;
    return d;
}

/* Clear the array (all threads, in blocks of words). Called inside a parallel region. */
static void shared_clear(bits_t *b, uint64_t block, uint64_t nblocks)
{
#pragma omp for schedule(static)
    for (uint64_t c = 0; c < nblocks; c++) {
        uint64_t w0 = c * block, w1 = w0 + block < b->nwords ? w0 + block : b->nwords;
        memset(b->word + w0, 0, (size_t)(w1 - w0) * sizeof *b->word);
    }
}

/* The set bits among the array's m bits, counted by `threads` threads in blocks. */
static uint64_t shared_count(const bits_t *b, uint64_t m, uint64_t block, uint64_t nblocks,
                             int threads)
{
    uint64_t pop = 0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : pop)
    for (uint64_t c = 0; c < nblocks; c++)
        pop += bits_count_range(b, c * block * 64,
                                (c + 1) * block * 64 < m ? (c + 1) * block * 64 : m);
    return pop;
}

/* An audit's check of shared filter f just built from r (row_out_t.absent): the first
 * `check` of its inserted keys, each chunk's replayed from that chunk's generator, on
 * `threads` threads; returns how many were reported absent. */
static uint64_t shared_check(const exp_row_t *row, const bits_t *b, const pcg32_t *r,
                             uint64_t check, int threads, atomic_int *stop)
{
    const uint64_t nchk = (check + EST_CHUNK - 1) / EST_CHUNK;
    uint64_t yes = 0;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) reduction(+ : yes)
    for (uint64_t c = 0; c < nchk; c++) {
        if (progress_stopped(stop))
            continue;
        pcg32_t cr;
        pcg32_subunit(&cr, r, 2 * c);
        yes += row->scheme->present(b, &row->geom, &cr, chunk_len(check, c), NULL);
    }
    return check - yes;
}

/* Filters f0..F-1 of a shared row, one after another, each built and queried by all
 * threads: its keys and its lookups split into chunks of EST_CHUNK, chunk c of
 * filter f drawing from pcg32_subunit(unit (row, f), 2c) for keys and 2c + 1 for
 * lookups. Inserts are atomic ORs, so the array, and the false-positive count summed
 * over chunks, are the same whichever thread runs which chunk. Returns 1 when stopped. */
static int lookups_run_row(const row_run_t *run, bits_t *b, uint64_t f0, uint64_t F,
                           uint64_t *done)
{
    const exp_row_t *row = run->row;
    if (row_real_keys(row))
        return est_keys_run_row(run, b, f0, F, done);
    const uint64_t seed = run->seed, row_index = run->index;
    const int threads = run->threads;
    const row_out_t *out = run->out;
    progress_t *ps = run->ps;
    atomic_int *stop = run->stop;
    const probe_geom_t *g = &row->geom;
    const uint64_t n = row->n, L = row->lookups_per_filter;
    const uint64_t nins = (n + EST_CHUNK - 1) / EST_CHUNK;
    const uint64_t nlook = (L + EST_CHUNK - 1) / EST_CHUNK;
    const uint64_t block = UINT64_C(1) << 16; /* words a thread clears or counts at once */
    const uint64_t nblocks = (b->nwords + block - 1) / block;
    const double per_filter = est_row_work(row) / (double)row->filters;
    /* Share of a filter's work in one chunk of keys and in one chunk of lookups. */
    const double ins_w = (double)n * g->k / ((double)n * g->k + 2.0 * (double)L) / (double)nins;
    const double look_w = (1 - ins_w * (double)nins) / (double)nlook;
    b->m = g->m;
    for (uint64_t f = f0; f < F && !progress_stopped(stop); f++) {
        pcg32_t r;
        pcg32_unit(&r, seed, row_index, f);
        uint64_t fp = 0, ins_done = 0, look_done = 0;
#pragma omp parallel num_threads(threads)
        {
            const int t = omp_get_thread_num();
            shared_clear(b, block, nblocks);
#pragma omp for schedule(dynamic, 1)
            for (uint64_t c = 0; c < nins; c++) {
                if (progress_stopped(stop))
                    continue;
                pcg32_t cr;
                pcg32_subunit(&cr, &r, 2 * c);
                row->scheme->insert_shared(b, g, &cr, chunk_len(n, c));
                uint64_t d = chunk_finished(&ins_done);
                if (t == 0)
                    progress_report(ps, per_filter, (double)*done + ins_w * (double)d, *done,
                                    *done * L, *done * n + d * EST_CHUNK);
            }
#pragma omp for schedule(dynamic, 1) reduction(+ : fp)
            for (uint64_t c = 0; c < nlook; c++) {
                if (progress_stopped(stop))
                    continue;
                pcg32_t cr;
                pcg32_subunit(&cr, &r, 2 * c + 1);
                fp += row->scheme->lookup_prefetch(b, g, &cr, chunk_len(L, c));
                uint64_t d = chunk_finished(&look_done);
                if (t == 0)
                    progress_report(ps, per_filter,
                                    (double)*done + ins_w * (double)nins + look_w * (double)d,
                                    *done, *done * L + d * EST_CHUNK, (*done + 1) * n);
            }
        }
        if (progress_stopped(stop))
            break;
        out->counts[f] = fp;
        if (out->absent)
            out->absent[f] = shared_check(row, b, &r, est_check_count(n, L), threads, stop);
        if (out->popcounts)
            out->popcounts[f] = shared_count(b, g->m, block, nblocks, threads);
        ++*done;
    }
    return progress_stopped(stop);
}

const est_ops_t est_lookups = {
    .name = "lookups",
    .summary = "ask L fresh absent keys of each filter and count the false positives",
    .counts = 1,
    .supports = lookups_supports,
    .scratch_bytes = lookups_scratch_bytes,
    .work = lookups_work,
    .measure = lookups_measure,
    .runs_row = lookups_runs_row,
    .run_row = lookups_run_row,
};
