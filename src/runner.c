/* runner.c - see runner.h. */
#include "runner.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <omp.h>

#include "cond.h"
#include "rate.h"
#include "stats.h"
#include "version.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Bytes of memory the kernel says are available now (MemAvailable), or 0 if unknown. */
static uint64_t mem_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return 0;
    char line[256];
    unsigned long long kb = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
            break;
    fclose(f);
    return (uint64_t)kb * 1024;
}

/* Rough cost of a row in probe-sized units, for progress only: inserts plus lookups, or
 * for the conditional estimator the words ANDed over the strides it evaluates. */
static double row_work(const exp_row_t *r)
{
    double per_filter = (double)r->n * r->geom.k;
    if (r->estimator == EST_LOOKUPS)
        per_filter += 2.0 * (double)r->lookups_per_filter;
    else if (r->scheme->cond == SCHEME_COND_SHIFT) {
        double strides = r->strides ? (double)r->strides + (double)r->n
                                    : (double)r->scheme->stride_count(&r->geom);
        per_filter += strides * ((double)r->geom.m / 64.0) * fmin(r->geom.k, 16) / 4.0;
    }
    return (double)r->filters * per_filter;
}

typedef struct progress_state {
    const run_opts_t *o;
    run_progress_t p;
    double start, last, total_work, done_work_rows;
    uint64_t lookups_rows; /* lookups of the rows already finished */
    double row_start;      /* when the row in progress started */
    uint64_t filters_rows; /* filters of the rows already finished */
} progress_state_t;

/* What one row produces per filter f (arrays of max_filters entries; NULL = not
 * wanted): the lookups estimator's count, or a rate (conditional estimator, or any
 * stack), the popcount of a designed filter, a stack's expected layers consulted. */
typedef struct row_out {
    uint64_t *counts;
    double *rates;
    uint64_t *popcounts;
    double *consulted;
} row_out_t;

/* A stack's layers; a plain or designed filter is one layer. */
static size_t row_layers(const exp_row_t *row) { return row->structure == STRUCT_STACK ? row->nlayers : 1; }
static const probe_geom_t *layer_geom(const exp_row_t *row, size_t j)
{
    return row->structure == STRUCT_STACK ? &row->layer_geom[j] : &row->geom;
}
static uint64_t layer_n(const exp_row_t *row, size_t j)
{
    return row->structure == STRUCT_STACK ? row->layer[j].n : row->n;
}

/* Build filter f (all its layers) from r and record what the row wants. A stack is
 * asked newest layer first, as seed 001's stack and a log-structured store are, and
 * answers yes at the first layer that does; each layer's probes are fresh draws, so
 * given the layers, P(yes) = 1 - prod(1 - p_j) and the expected layers consulted is the
 * sum over layers of the probability that all newer ones said no, with p_j each layer's
 * rate (an unbiased estimate of it, from either estimator, independent across layers).
 * Layers are built oldest first, as keys arrive. */
static double query_layer(const exp_row_t *row, const cond_plan_t *plan, bits_t *b,
                          cond_work_t *work, const probe_geom_t *g, uint64_t n, pcg32_t *r,
                          uint64_t *count);

static void run_filter(const exp_row_t *row, const cond_plan_t *plans, bits_t *b,
                       cond_work_t *work, uint64_t f, pcg32_t *r, const row_out_t *out)
{
    uint64_t count = 0;
    if (row->structure != STRUCT_STACK) {
        double rate = query_layer(row, &plans[0], b, work, &row->geom, row->n, r, &count);
        if (row->estimator == EST_CONDITIONAL)
            out->rates[f] = rate;
        else
            out->counts[f] = count;
        if (out->popcounts)
            out->popcounts[f] = bits_count(b);
        return;
    }
    double p[SIZING_MAX_LAYERS];
    for (size_t j = 0; j < row->nlayers; j++)
        p[j] = query_layer(row, &plans[j], &b[j], &work[j], &row->layer_geom[j],
                           row->layer[j].n, r, &count);
    double pass = 1.0, consulted = 0.0;
    for (size_t j = row->nlayers; j-- > 0;) { /* newest first */
        consulted += pass;
        pass *= 1.0 - p[j];
    }
    out->rates[f] = 1.0 - pass;
    out->consulted[f] = consulted;
}

/* Build one filter (or layer) of n keys from r into b and estimate its rate: the
 * conditional estimator's rate, or the lookups estimator's count of false positives
 * (stored in *count) over lookups_per_filter. */
static double query_layer(const exp_row_t *row, const cond_plan_t *plan, bits_t *b,
                          cond_work_t *work, const probe_geom_t *g, uint64_t n, pcg32_t *r,
                          uint64_t *count)
{
    if (row->estimator == EST_CONDITIONAL)
        return cond_filter_rate(plan, b, work, r);
    bits_reset(b, g->m);
    row->scheme->insert(b, g, r, n, NULL);
    *count = row->scheme->lookup(b, g, r, row->lookups_per_filter);
    return (double)*count / (double)row->lookups_per_filter;
}

/* Progress from inside a row: `filters` filters' worth of this row's work done (a
 * fraction while a shared filter is being built), `lookups` of its lookups made, `keys`
 * of its keys inserted (shared rows; 0 otherwise). */
static void report(progress_state_t *ps, double per_filter, double filters, uint64_t whole,
                   uint64_t lookups, uint64_t keys)
{
    double now_s = now();
    if (now_s - ps->last < 0.5)
        return;
    ps->last = now_s;
    ps->p.elapsed = now_s - ps->start;
    ps->p.work_fraction = (ps->done_work_rows + filters * per_filter) / ps->total_work;
    ps->p.lookups_done = ps->lookups_rows + lookups;
    ps->p.row_keys_per_s = keys > 0 ? (double)keys / (now_s - ps->row_start) : 0;
    ps->p.filters_done = ps->filters_rows + whole;
    ps->o->progress(&ps->p, ps->o->progress_ctx);
}

/* Length of chunk c of a total split into RUNNER_CHUNK pieces. */
static uint64_t chunk_len(uint64_t total, uint64_t c)
{
    uint64_t first = c * RUNNER_CHUNK;
    return total - first < RUNNER_CHUNK ? total - first : RUNNER_CHUNK;
}

/* Count one more finished chunk; returns the count, read atomically. */
static uint64_t chunk_finished(uint64_t *count)
{
    uint64_t d;
#pragma omp atomic capture
    d = ++*count;
    return d;
}

int runner_row_shared(const exp_row_t *row)
{
    return row->structure != STRUCT_STACK && row->estimator == EST_LOOKUPS &&
           row->geom.m >= RUNNER_SHARED_BITS;
}

/* Filters f0..F-1 of a shared row, one after another, each built and queried by all
 * threads: its keys and its lookups split into chunks of RUNNER_CHUNK, chunk c of
 * filter f drawing from pcg32_subunit(unit (row, f), 2c) for keys and 2c + 1 for
 * lookups. Inserts are atomic ORs, so the array, and the false-positive count summed
 * over chunks, are the same whichever thread runs which chunk. Returns 1 when stopped. */
static int run_shared(const exp_row_t *row, uint64_t seed, uint64_t row_index, int threads,
                      bits_t *b, uint64_t f0, uint64_t F, const row_out_t *out,
                      uint64_t *done, progress_state_t *ps, volatile sig_atomic_t *stop,
                      double per_filter)
{
    const probe_geom_t *g = &row->geom;
    const uint64_t n = row->n, L = row->lookups_per_filter;
    const uint64_t nins = (n + RUNNER_CHUNK - 1) / RUNNER_CHUNK;
    const uint64_t nlook = (L + RUNNER_CHUNK - 1) / RUNNER_CHUNK;
    const uint64_t block = UINT64_C(1) << 16; /* words a thread clears or counts at once */
    const uint64_t nblocks = (b->nwords + block - 1) / block;
    /* Share of a filter's work in one chunk of keys and in one chunk of lookups. */
    const double ins_w = (double)n * g->k / ((double)n * g->k + 2.0 * (double)L) / (double)nins;
    const double look_w = (1 - ins_w * (double)nins) / (double)nlook;
    b->m = g->m;
    for (uint64_t f = f0; f < F && !(stop && *stop); f++) {
        pcg32_t r;
        pcg32_unit(&r, seed, row_index, f);
        uint64_t fp = 0, pop = 0, ins_done = 0, look_done = 0;
#pragma omp parallel num_threads(threads)
        {
            const int t = omp_get_thread_num();
#pragma omp for schedule(static)
            for (uint64_t c = 0; c < nblocks; c++) {
                uint64_t w0 = c * block, w1 = w0 + block < b->nwords ? w0 + block : b->nwords;
                memset(b->word + w0, 0, (size_t)(w1 - w0) * sizeof *b->word);
            }
#pragma omp for schedule(dynamic, 1)
            for (uint64_t c = 0; c < nins; c++) {
                if (stop && *stop)
                    continue;
                pcg32_t cr;
                pcg32_subunit(&cr, &r, 2 * c);
                row->scheme->insert_shared(b, g, &cr, chunk_len(n, c));
                uint64_t d = chunk_finished(&ins_done);
                if (ps && t == 0)
                    report(ps, per_filter, (double)*done + ins_w * (double)d, *done, *done * L,
                           *done * n + d * RUNNER_CHUNK);
            }
#pragma omp for schedule(dynamic, 1) reduction(+ : fp)
            for (uint64_t c = 0; c < nlook; c++) {
                if (stop && *stop)
                    continue;
                pcg32_t cr;
                pcg32_subunit(&cr, &r, 2 * c + 1);
                fp += row->scheme->lookup_prefetch(b, g, &cr, chunk_len(L, c));
                uint64_t d = chunk_finished(&look_done);
                if (ps && t == 0)
                    report(ps, per_filter, (double)*done + ins_w * (double)nins + look_w * (double)d,
                           *done, *done * L + d * RUNNER_CHUNK, (*done + 1) * n);
            }
            if (out->popcounts) {
#pragma omp for schedule(static) reduction(+ : pop)
                for (uint64_t c = 0; c < nblocks; c++)
                    pop += bits_count_range(b, c * block * 64,
                                            (c + 1) * block * 64 < g->m ? (c + 1) * block * 64
                                                                        : g->m);
            }
        }
        if (stop && *stop)
            break;
        out->counts[f] = fp;
        if (out->popcounts)
            out->popcounts[f] = pop;
        ++*done;
    }
    return stop && *stop;
}

/* One row on `threads` threads. A shared row (runner_row_shared) runs its filters one
 * at a time, each on all threads (run_shared). Otherwise filter f of row row_index is
 * built (and queried) by one thread from pcg32_unit(seed, row_index, f) alone; what it
 * yields is stored at index f. Scratch space is allocated before the parallel region,
 * so nothing inside it can fail.
 *
 * With a precision target the row runs filters 0..F-1 for F = row->filters, then, while
 * the relative standard error exceeds the target and F < max_filters, more filters:
 * up to F (rse/target)^2 * 1.1 (the count the estimate predicts, with a margin), at
 * least row->filters more. The decision uses only finished results, so the filters run
 * (and the CSV) are the same for any thread count. *filters_used receives F. */
static int simulate(const exp_row_t *row, uint64_t seed, uint64_t row_index, int threads,
                    const row_out_t *out, uint64_t *filters_used, progress_state_t *ps,
                    volatile sig_atomic_t *stop)
{
    const int conditional = row->estimator == EST_CONDITIONAL;
    const int shared = runner_row_shared(row);
    const size_t nl = row_layers(row);
    const size_t narrays = shared ? 1 : (size_t)threads * nl;
    cond_plan_t plans[SIZING_MAX_LAYERS];
    size_t nplans = 0;
    int failed = 0;
    for (; conditional && nplans < nl && !failed; nplans++)
        failed = cond_plan_make(&plans[nplans], row->scheme, layer_geom(row, nplans),
                                layer_n(row, nplans), row->strides) != COND_OK;
    bits_t *arrays = calloc(narrays, sizeof *arrays);
    cond_work_t *work = calloc(narrays, sizeof *work);
    failed |= arrays == NULL || work == NULL;
    for (size_t t = 0; t < narrays && !failed; t++)
        failed = bits_alloc(&arrays[t], layer_geom(row, t % nl)->m) != 0 ||
                 (conditional && cond_work_alloc(&work[t], &plans[t % nl]) != COND_OK);
    const double per_filter = row_work(row) / (double)row->filters;
    uint64_t f0 = 0, F = row->filters, done = 0;
    while (!failed) {
        if (shared) {
            run_shared(row, seed, row_index, threads, arrays, f0, F, out, &done, ps, stop,
                       per_filter);
        } else {
#pragma omp parallel num_threads(threads)
            {
                const int t = omp_get_thread_num();
#pragma omp for schedule(dynamic, 1)
                for (uint64_t f = f0; f < F; f++) {
                    if (stop && *stop)
                        continue; /* drain the loop: the row will be dropped */
                    pcg32_t r;
                    pcg32_unit(&r, seed, row_index, f);
                    run_filter(row, plans, &arrays[(size_t)t * nl], &work[(size_t)t * nl], f,
                               &r, out);
#pragma omp atomic
                    done++;
                    if (ps && t == 0) {
                        uint64_t d;
#pragma omp atomic read
                        d = done;
                        report(ps, per_filter, (double)d, d,
                               conditional ? 0 : d * row->lookups_per_filter * nl, 0);
                    }
                }
            }
        }
        if (row->precision <= 0 || F >= row->max_filters || (stop && *stop))
            break;
        stats_summary_t s;
        double rse = runner_summarize_row(row, F, out->counts, out->rates, &s) == 0 &&
                     s.rate > 0 ? s.stderr_ / s.rate : INFINITY;
        if (rse <= row->precision)
            break;
        double want = isfinite(rse) ? (double)F * (rse / row->precision) *
                                          (rse / row->precision) * 1.1 : 0;
        uint64_t next = F + row->filters;
        if (want > (double)next)
            next = want < (double)row->max_filters ? (uint64_t)ceil(want) : row->max_filters;
        next = next < row->max_filters ? next : row->max_filters;
        if (ps) /* the row grew: so does the work still to do */
            ps->total_work += (double)(next - F) * per_filter;
        f0 = F;
        F = next;
    }
    *filters_used = F;
    for (size_t t = 0; t < narrays; t++) {
        if (arrays)
            bits_free(&arrays[t]);
        if (work)
            cond_work_free(&work[t]);
    }
    free(arrays);
    free(work);
    for (size_t j = 0; j < nplans; j++)
        cond_plan_free(&plans[j]);
    return failed ? -1 : stop && *stop ? 1 : 0;
}

int runner_simulate_row(const exp_row_t *row, uint64_t seed, uint64_t row_index,
                        int threads, uint64_t *counts, double *rates, uint64_t *filters_used)
{
    row_out_t out = {.counts = counts, .rates = rates};
    double *consulted = NULL;
    if (row->structure == STRUCT_STACK) {
        consulted = malloc((size_t)(row->precision > 0 ? row->max_filters : row->filters) *
                           sizeof *consulted);
        if (!consulted)
            return -1;
        out.consulted = consulted;
    }
    int rc = simulate(row, seed, row_index, threads, &out, filters_used, NULL, NULL);
    free(consulted);
    return rc;
}

int runner_summarize_row(const exp_row_t *row, uint64_t filters, const uint64_t *counts,
                         const double *rates, stats_summary_t *s)
{
    return row->estimator == EST_CONDITIONAL || row->structure == STRUCT_STACK
               ? stats_summarize_rates(rates, filters, s)
               : stats_summarize(counts, filters, row->lookups_per_filter, s);
}

/* The reference rates of a row. A single filter's are the values themselves; a stack's
 * combine its layers' rates x_j as 1 - prod(1 - x_j) (layers answer independently
 * given their fills), computed as -expm1(sum log1p(-x_j)) so that small rates do not
 * cancel: 1 - (1 - x) in double loses the digits of x below 2^-53 (at 80 bits per key
 * every reference rate would print 0). NaN (no such rate) stays NaN. */
typedef struct refs {
    double formula, formula_finite, exact, scheme_exact, model;
} refs_t;

static double layers_combined(const double *x, size_t n)
{
    if (n == 1)
        return x[0];
    double sum = 0;
    for (size_t j = 0; j < n; j++)
        sum += log1p(-x[j]);
    return -expm1(sum);
}

static refs_t row_refs(const exp_row_t *row)
{
    double v[5][SIZING_MAX_LAYERS];
    size_t nl = row_layers(row);
    for (size_t j = 0; j < nl; j++) {
        const probe_geom_t *g = layer_geom(row, j);
        uint64_t n = layer_n(row, j);
        double sx = row->scheme->exact ? row->scheme->exact(g, n) : NAN;
        v[0][j] = rate_formula(g->m, n, g->k);
        v[1][j] = rate_formula_finite(g->m, n, g->k);
        if (rate_exact(g->m, n, g->k, &v[2][j]) != RATE_OK)
            v[2][j] = NAN;
        v[3][j] = sx < 0 ? NAN : sx;
        v[4][j] = row->scheme->model ? row->scheme->model(g, n) : NAN;
    }
    return (refs_t){layers_combined(v[0], nl), layers_combined(v[1], nl),
                    layers_combined(v[2], nl), layers_combined(v[3], nl),
                    layers_combined(v[4], nl)};
}

static double mean_of(const double *x, uint64_t n)
{
    long double sum = 0;
    for (uint64_t i = 0; i < n; i++)
        sum += x[i];
    return (double)(sum / (long double)n);
}

/* Fill the reference columns, the estimate and the structure's columns of a row. */
static void fill_row(const experiment_t *e, const exp_row_t *row, uint64_t filters,
                     const row_out_t *o, uint64_t seed, csv_row_t *out)
{
    const probe_geom_t *g = &row->geom;
    stats_summary_t s;
    if (runner_summarize_row(row, filters, o->counts, o->rates, &s) != 0)
        s = (stats_summary_t){.filters = filters, .rate = NAN, .stderr_ = NAN,
                              .ci_low = NAN, .ci_high = NAN};
    refs_t ref = row_refs(row);
    *out = (csv_row_t){
        .experiment = e->name, .scheme = row->scheme->name,
        .estimator = experiment_estimator_name(row->estimator),
        .m = g->m, .n = row->n, .k = g->k, .bits_per_key = row->bits_per_key,
        .filters = s.filters, .lookups = s.lookups, .false_positives = s.false_positives,
        .counted = row->estimator == EST_LOOKUPS && row->structure != STRUCT_STACK,
        .rate = s.rate, .stderr_ = s.stderr_, .ci_low = s.ci_low, .ci_high = s.ci_high,
        .formula = ref.formula, .formula_finite = ref.formula_finite, .exact = ref.exact,
        .scheme_exact = ref.scheme_exact, .seed = seed, .sweep = row->sweep,
    };
    out->ratio_formula = s.rate / out->formula;
    out->ratio_exact = s.rate / ref.exact;
    out->z_exact = s.stderr_ > 0 ? (s.rate - ref.exact) / s.stderr_ : NAN;
    out->rate_times_m = s.rate * (double)g->m;
    csv_extra_t *x = &out->extra;
    for (size_t i = 0; i < CSV_NEXTRA; i++)
        x->v[i] = NAN;
    x->v[CSV_MODEL] = ref.model;
    x->v[CSV_RATIO_MODEL] = s.rate / ref.model;
    if (row->structure == STRUCT_PLAIN)
        return;
    x->v[CSV_DESIGN_KEYS] = (double)row->design_keys;
    x->v[CSV_DESIGN_RATE] = row->design_rate;
    x->v[CSV_LOAD] = (double)row->n / (double)row->design_keys;
    x->v[CSV_RATE_OVER_DESIGN] = s.rate / row->design_rate;
    if (row->structure == STRUCT_DESIGN) {
        /* The warning signal: the load estimated from the set bits of each filter,
         * n_est = -(m/k) ln(1 - X/m), and how far it is from the true n. */
        long double fill = 0, err = 0, err2 = 0, est = 0;
        for (uint64_t f = 0; f < filters; f++) {
            /* A filter with every bit set has no finite estimate; it is read as m - 1/2
             * set bits, the estimate's lower bound for a full filter. */
            double m = (double)g->m, X = (double)o->popcounts[f];
            double ne = -(m / g->k) * log1p(-fmin(X, m - 0.5) / m);
            fill += X / m;
            est += ne;
            err += ne / (double)row->n - 1;
            err2 += (ne / (double)row->n - 1) * (ne / (double)row->n - 1);
        }
        long double F = (long double)filters, mean_err = err / F;
        x->v[CSV_FILL] = (double)(fill / F);
        x->v[CSV_N_EST] = (double)(est / F);
        x->v[CSV_N_EST_ERROR] = (double)mean_err;
        x->v[CSV_N_EST_SPREAD] = (double)sqrtl((err2 - F * mean_err * mean_err) / (F - 1));
        return;
    }
    x->v[CSV_FIRST_CAPACITY] = (double)row->stack.first_capacity;
    x->v[CSV_GROWTH] = row->stack.growth;
    x->v[CSV_TIGHTENING] = row->stack.tightening;
    x->v[CSV_LAYERS] = (double)row->nlayers;
    x->v[CSV_TOTAL_BITS] = (double)g->m;
    x->v[CSV_SINGLE_BITS] = (double)row->single_bits;
    x->v[CSV_BITS_RATIO] = (double)g->m / (double)row->single_bits;
    x->v[CSV_LAYERS_CONSULTED] = mean_of(o->consulted, filters);
    x->v[CSV_BOUND] = row->design_rate / (1 - row->stack.tightening);
}

static void iso_time(time_t t, char *buf, size_t len)
{
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static int write_meta(const char *path, const experiment_t *e, const run_opts_t *o,
                      uint64_t seed, size_t nrows, size_t resumed, time_t t0, time_t t1,
                      double seconds)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    char host[256] = "unknown", start[32], end[32];
    gethostname(host, sizeof host - 1);
    iso_time(t0, start, sizeof start);
    iso_time(t1, end, sizeof end);
    fprintf(f, "experiment = %s\ntitle = %s\nfile = %s\nfile_fnv1a64 = %016llx\n"
               "version = %s\ncommand = %s\nseed = %llu\nscale = %s\nthreads = %d\n"
               "rows = %zu\nresumed_rows = %zu\nstart = %s\nend = %s\nseconds = %.1f\n"
               "host = %s\ncompiler = %s\n",
            e->name, e->title, e->path, (unsigned long long)e->file_hash,
            BLOOMSIM_VERSION, o->command ? o->command : "", (unsigned long long)seed,
            o->quick ? "quick" : "full", o->threads, nrows, resumed, start, end, seconds, host,
#ifdef __clang__
            "clang " __clang_version__
#else
            "gcc " __VERSION__
#endif
    );
    return fclose(f) == 0 ? 0 : -1;
}

/* The value of "key = value" in a metadata file, or "" when absent. */
static void meta_get(const char *path, const char *key, char *val, size_t len)
{
    val[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[2048];
    size_t kl = strlen(key);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, kl) == 0 && strncmp(line + kl, " = ", 3) == 0) {
            snprintf(val, len, "%.*s", (int)strcspn(line + kl + 3, "\r\n"), line + kl + 3);
            break;
        }
    fclose(f);
}

/* What makes a run's result: the definition, the seed, the scale, the program. */
typedef struct run_id {
    char hash[32], seed[32], scale[8], version[128];
} run_id_t;

static void run_id_read(const char *path, run_id_t *id)
{
    meta_get(path, "file_fnv1a64", id->hash, sizeof id->hash);
    meta_get(path, "seed", id->seed, sizeof id->seed);
    meta_get(path, "scale", id->scale, sizeof id->scale);
    meta_get(path, "version", id->version, sizeof id->version);
}

static int file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Keep the complete rows of an interrupted run's CSV: check its header, count the
 * lines that end in CRLF, cut off a torn last line, and read back what the summary
 * table shows. Returns the number of rows kept, or -1 when the file is not ours. */
static long resume_rows(const char *partial, const exp_row_t *rows, size_t nrows,
                        csv_row_t *out)
{
    FILE *f = fopen(partial, "rb");
    if (!f)
        return -1;
    char line[8192], header[8192];
    FILE *mem = fmemopen(header, sizeof header, "w");
    if (!mem) {
        fclose(f);
        return -1;
    }
    csv_write_header(mem);
    fclose(mem);
    long kept = -1;
    long good_end = 0;
    if (fgets(line, sizeof line, f) && strcmp(line, header) == 0) {
        kept = 0;
        good_end = ftell(f);
        while (fgets(line, sizeof line, f) && (size_t)kept < nrows) {
            size_t l = strlen(line);
            if (l < 2 || line[l - 2] != '\r' || line[l - 1] != '\n')
                break; /* torn by a crash: dropped below */
            /* Columns 6 bits_per_key, 11 rate, 15 formula, 19 ratio_formula, 25 on the
             * design and stack columns: what the summary table shows. */
            char *field[24 + CSV_NEXTRA] = {0}, *p = line;
            line[l - 2] = '\0';
            for (int c = 0; c < 24 + CSV_NEXTRA && p; c++) {
                field[c] = p;
                p = strchr(p, ',');
                if (p)
                    *p++ = '\0';
            }
            if (!field[18] || strcmp(field[1], rows[kept].scheme->name) != 0)
                break;
            out[kept].scheme = rows[kept].scheme->name;
            out[kept].bits_per_key = strtod(field[5], NULL);
            out[kept].rate = strtod(field[10], NULL);
            out[kept].formula = strtod(field[14], NULL);
            out[kept].ratio_formula = strtod(field[18], NULL);
            out[kept].n = rows[kept].n;
            out[kept].sweep = rows[kept].sweep;
            for (int x = 0; x < CSV_NEXTRA; x++)
                out[kept].extra.v[x] = field[24 + x] && *field[24 + x] ? strtod(field[24 + x], NULL)
                                                                     : NAN;
            kept++;
            good_end = ftell(f);
        }
    }
    fclose(f);
    if (kept >= 0 && truncate(partial, good_end) != 0)
        return -1;
    return kept;
}

int runner_run(const experiment_t *e, const run_opts_t *o, run_result_t *res, char *err,
               size_t errlen)
{
    memset(res, 0, sizeof *res);
    exp_row_t *rows;
    size_t nrows;
    int rc = experiment_rows(e, o->quick, &rows, &nrows, err, errlen);
    if (rc)
        return rc;
    uint64_t seed = o->seed_given ? o->seed : e->seed;

    /* Refuse a size past memory before any work: one array per thread (one in all for a
     * shared filter), plus per-filter tallies. Per thread: the bit arrays, and for the
     * conditional estimator the rotated copy (twice the array) and the keys' words and
     * strata (32 bytes a key). Per filter: its count, rate, popcount and layers
     * consulted (32 bytes). */
    uint64_t avail = mem_available(), fmax = 0;
    double arrays = 0;
    size_t at_arrays = 0, at_filters = 0;
    for (size_t i = 0; i < nrows; i++) {
        uint64_t f = rows[i].precision > 0 ? rows[i].max_filters : rows[i].filters;
        double t = (double)((rows[i].geom.m + 63) / 64 * 8);
        if (rows[i].estimator == EST_CONDITIONAL)
            t = 3 * t + 32.0 * (double)rows[i].n;
        if (!runner_row_shared(&rows[i]))
            t *= o->threads;
        if (t > arrays)
            arrays = t, at_arrays = i;
        if (f > fmax)
            fmax = f, at_filters = i;
    }
    double tallies = 32.0 * (double)fmax;
    if (avail && arrays + tallies > 0.9 * (double)avail) {
        int by_filters = tallies > arrays;
        const exp_row_t *at = &rows[by_filters ? at_filters : at_arrays];
        const sweep_t *sw = o->quick ? &e->quick[at->sweep] : &e->full[at->sweep];
        unsigned line = by_filters ? (sw->line[F_MAX_FILTERS] ? sw->line[F_MAX_FILTERS]
                                                              : sw->line[F_FILTERS])
                                   : sw->line[F_BITS] ? sw->line[F_BITS] : sw->line[F_DESIGN_KEYS];
        char how[64] = "one array shared by all threads";
        if (!runner_row_shared(&rows[at_arrays]))
            snprintf(how, sizeof how, "%d threads, an array each", o->threads);
        snprintf(err, errlen, "%s:%u: %s needs %.1f GiB (%s), only %.1f GiB available "
                 "(got '%llu')", e->path, line,
                 by_filters ? "the number of filters" : "the filter size",
                 (arrays + tallies) / 1073741824.0, how, (double)avail / 1073741824.0,
                 (unsigned long long)(by_filters ? fmax : at->geom.m));
        free(rows);
        return 2;
    }

    /* Output first, so an unwritable directory or a result we must not replace fails
     * before any work. */
    const char *suffix = o->quick ? ".quick" : "";
    char partial[1200], idpath[1200];
    snprintf(res->csv_path, sizeof res->csv_path, "%s/%s%s.csv", o->outdir, e->name, suffix);
    snprintf(res->meta_path, sizeof res->meta_path, "%s/%s%s.meta", o->outdir, e->name,
             suffix);
    snprintf(partial, sizeof partial, "%s.partial", res->csv_path);
    snprintf(idpath, sizeof idpath, "%s/%s%s.run", o->outdir, e->name, suffix);
    if (mkdir(o->outdir, 0777) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "%s: cannot create output directory: %s (got '%s')",
                 o->outdir, strerror(errno), o->outdir);
        free(rows);
        return 2;
    }
    run_id_t me = {.scale = ""}, theirs;
    snprintf(me.hash, sizeof me.hash, "%016llx", (unsigned long long)e->file_hash);
    snprintf(me.seed, sizeof me.seed, "%llu", (unsigned long long)seed);
    snprintf(me.scale, sizeof me.scale, "%s", o->quick ? "quick" : "full");
    snprintf(me.version, sizeof me.version, "%s", BLOOMSIM_VERSION);
    if (file_exists(res->csv_path) && !o->force) {
        run_id_read(res->meta_path, &theirs);
        if (strcmp(theirs.hash, me.hash) != 0 || strcmp(theirs.seed, me.seed) != 0) {
            snprintf(err, errlen, "%s: holds a complete result of %s; --force replaces it, "
                     "--out elsewhere keeps it (got seed %s, definition %s)", res->csv_path,
                     strcmp(theirs.seed, me.seed) ? "another seed" : "another definition",
                     me.seed, me.hash);
            free(rows);
            return 2;
        }
    }
    long resumed = 0;
    res->rows = calloc(nrows ? nrows : 1, sizeof *res->rows);
    if (!res->rows) {
        snprintf(err, errlen, "%s: out of memory", e->path);
        free(rows);
        return 1;
    }
    if (file_exists(partial) && !o->force) {
        run_id_read(idpath, &theirs);
        int same = strcmp(theirs.hash, me.hash) == 0 && strcmp(theirs.seed, me.seed) == 0 &&
                   strcmp(theirs.scale, me.scale) == 0 && strcmp(theirs.version, me.version) == 0;
        if (!o->resume || !same) {
            snprintf(err, errlen, "%s: holds rows of an interrupted run%s; %s--force starts "
                     "over (got %s)", partial, same ? "" : " of another definition, seed or "
                     "version", same ? "--resume continues it, " : "", o->resume ? "--resume" :
                     "no --resume");
            free(rows);
            return 2;
        }
        resumed = resume_rows(partial, rows, nrows, res->rows);
        if (resumed < 0) {
            snprintf(err, errlen, "%s: not a result table of this program; --force starts over "
                     "(got '--resume')", partial);
            free(rows);
            return 2;
        }
    }
    FILE *csv = fopen(partial, resumed > 0 ? "ab" : "wb");
    FILE *idf = resumed > 0 ? NULL : fopen(idpath, "w");
    if (!csv || (resumed == 0 && !idf)) {
        snprintf(err, errlen, "%s: cannot write: %s (got '--out %s')", csv ? idpath : partial,
                 strerror(errno), o->outdir);
        if (csv)
            fclose(csv);
        if (idf)
            fclose(idf);
        free(rows);
        return 2;
    }
    if (idf) {
        fprintf(idf, "file_fnv1a64 = %s\nseed = %s\nscale = %s\nversion = %s\n", me.hash,
                me.seed, me.scale, me.version);
        if (fclose(idf) != 0) {
            snprintf(err, errlen, "%s: cannot write: %s", idpath, strerror(errno));
            fclose(csv);
            free(rows);
            return 1;
        }
    }
    row_out_t out = {
        .counts = malloc((size_t)fmax * sizeof *out.counts),
        .rates = malloc((size_t)fmax * sizeof *out.rates),
        .popcounts = malloc((size_t)fmax * sizeof *out.popcounts),
        .consulted = malloc((size_t)fmax * sizeof *out.consulted),
    };
    if (!out.counts || !out.rates || !out.popcounts || !out.consulted) {
        snprintf(err, errlen, "%s: out of memory for %llu filters", e->path,
                 (unsigned long long)fmax);
        rc = 1;
        goto out;
    }
    if (resumed == 0)
        csv_write_header(csv);
    res->nrows = (size_t)resumed;

    progress_state_t ps = {.o = o, .p = {.rows_total = nrows}};
    ps.start = ps.last = now();
    for (size_t i = 0; i < nrows; i++)
        ps.total_work += row_work(&rows[i]);
    for (size_t i = 0; i < (size_t)resumed; i++)
        ps.done_work_rows += row_work(&rows[i]);
    time_t t0 = time(NULL);
    for (size_t i = (size_t)resumed; i < nrows; i++) {
        double rt = now();
        ps.row_start = rt;
        uint64_t used;
        row_out_t ro = out;
        if (rows[i].structure != STRUCT_DESIGN)
            ro.popcounts = NULL;
        int st = simulate(&rows[i], seed, i, o->threads, &ro, &used, o->progress ? &ps : NULL,
                          o->stop);
        if (st > 0) {
            snprintf(err, errlen, "interrupted: %zu of %zu rows finished in %s; run it again "
                     "with --resume to finish", res->nrows, nrows, partial);
            rc = RUN_INTERRUPTED;
            goto out;
        }
        if (st < 0) {
            snprintf(err, errlen, "%s: out of memory for %llu-bit filters", e->path,
                     (unsigned long long)rows[i].geom.m);
            rc = 1;
            goto out;
        }
        fill_row(e, &rows[i], used, &ro, seed, &res->rows[i]);
        res->rows[i].seconds = now() - rt;
        if (csv_write_row(csv, &res->rows[i]) || fflush(csv)) {
            snprintf(err, errlen, "%s: write failed: %s", partial, strerror(errno));
            rc = 1;
            goto out;
        }
        res->nrows = i + 1;
        ps.done_work_rows += row_work(&rows[i]) * (double)used / (double)rows[i].filters;
        ps.lookups_rows += res->rows[i].lookups;
        ps.filters_rows += res->rows[i].filters;
        if (o->progress) {
            ps.p.rows_done = i + 1;
            ps.p.elapsed = now() - ps.start;
            ps.p.work_fraction = ps.done_work_rows / ps.total_work;
            ps.p.lookups_done = ps.lookups_rows;
            ps.p.row_keys_per_s = 0;
            ps.p.filters_done = ps.filters_rows;
            o->progress(&ps.p, o->progress_ctx);
        }
    }
    res->seconds = now() - ps.start;
    if (fclose(csv) != 0) {
        csv = NULL;
        snprintf(err, errlen, "%s: write failed: %s", partial, strerror(errno));
        rc = 1;
        goto out;
    }
    csv = NULL;
    char meta_partial[1200];
    snprintf(meta_partial, sizeof meta_partial, "%s.partial", res->meta_path);
    /* Both targets must be replaceable before either is replaced. */
    struct stat st_csv, st_meta;
    if ((stat(res->csv_path, &st_csv) == 0 && !S_ISREG(st_csv.st_mode)) ||
        (stat(res->meta_path, &st_meta) == 0 && !S_ISREG(st_meta.st_mode))) {
        snprintf(err, errlen, "%s: cannot replace: not a regular file (the finished rows are "
                 "in %s)", S_ISREG(st_csv.st_mode) ? res->meta_path : res->csv_path, partial);
        rc = 1;
        goto out;
    }
    /* The table first, then its description; NAME.run goes last, so a run that dies
     * between the two renames leaves NAME.run behind, marking the pair unfinished. */
    const char *failed_path = NULL;
    if (write_meta(meta_partial, e, o, seed, nrows, (size_t)resumed, t0, time(NULL),
                   res->seconds))
        failed_path = meta_partial;
    else if (rename(partial, res->csv_path))
        failed_path = res->csv_path;
    else if (rename(meta_partial, res->meta_path))
        failed_path = res->meta_path;
    if (failed_path) {
        snprintf(err, errlen, "%s: cannot write: %s (the finished rows are kept for "
                 "--resume)", failed_path, strerror(errno));
        rc = 1;
    } else {
        remove(idpath);
    }
out:
    if (csv)
        fclose(csv);
    free(out.counts);
    free(out.rates);
    free(out.popcounts);
    free(out.consulted);
    free(rows);
    return rc;
}

void runner_free(run_result_t *res)
{
    free(res->rows);
    res->rows = NULL;
    res->nrows = 0;
}
