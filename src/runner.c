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

/* Probes a row costs: inserts plus (at most) k per lookup; for progress only. */
static double row_work(const exp_row_t *r)
{
    return (double)r->filters * ((double)r->n * r->geom.k + 2.0 * r->lookups_per_filter);
}

typedef struct progress_state {
    const run_opts_t *o;
    run_progress_t p;
    double start, last, total_work, done_work_rows;
    uint64_t lookups_rows; /* lookups of the rows already finished */
} progress_state_t;

static int simulate(const exp_row_t *row, uint64_t seed, uint64_t row_index, int threads,
                    uint64_t *counts, progress_state_t *ps)
{
    bits_t *arrays = calloc((size_t)threads, sizeof *arrays);
    int failed = arrays == NULL;
    for (int t = 0; t < threads && !failed; t++)
        failed = bits_alloc(&arrays[t], row->geom.m) != 0;
    uint64_t done = 0;
    const double per_filter = row_work(row) / (double)row->filters;
    if (!failed) {
#pragma omp parallel num_threads(threads)
        {
            bits_t *b = &arrays[omp_get_thread_num()];
#pragma omp for schedule(dynamic, 4)
            for (uint64_t f = 0; f < row->filters; f++) {
                pcg32_t r;
                pcg32_unit(&r, seed, row_index, f);
                bits_reset(b, row->geom.m);
                row->scheme->insert(b, &row->geom, &r, row->n);
                counts[f] = row->scheme->lookup(b, &row->geom, &r, row->lookups_per_filter);
#pragma omp atomic
                done++;
                if (ps && omp_get_thread_num() == 0) {
                    double t = now();
                    if (t - ps->last >= 0.5) {
                        uint64_t d;
#pragma omp atomic read
                        d = done;
                        ps->last = t;
                        ps->p.elapsed = t - ps->start;
                        ps->p.work_fraction = (ps->done_work_rows + d * per_filter) /
                                              ps->total_work;
                        ps->p.lookups_done = ps->lookups_rows + d * row->lookups_per_filter;
                        ps->o->progress(&ps->p, ps->o->progress_ctx);
                    }
                }
            }
        }
    }
    for (int t = 0; arrays && t < threads; t++)
        bits_free(&arrays[t]);
    free(arrays);
    return failed ? -1 : 0;
}

int runner_simulate_row(const exp_row_t *row, uint64_t seed, uint64_t row_index,
                        int threads, uint64_t *counts)
{
    return simulate(row, seed, row_index, threads, counts, NULL);
}

/* Fill the reference columns and the estimate of one finished row. */
static void fill_row(const experiment_t *e, const exp_row_t *row, const uint64_t *counts,
                     uint64_t seed, csv_row_t *out)
{
    const probe_geom_t *g = &row->geom;
    stats_summary_t s;
    stats_summarize(counts, row->filters, row->lookups_per_filter, &s);
    double exact = NAN;
    if (rate_exact(g->m, row->n, g->k, &exact) != RATE_OK)
        exact = NAN;
    double sx = row->scheme->exact ? row->scheme->exact(g, row->n) : NAN;
    if (sx < 0)
        sx = NAN;
    *out = (csv_row_t){
        .experiment = e->name, .scheme = row->scheme->name, .estimator = "lookups",
        .m = g->m, .n = row->n, .k = g->k, .bits_per_key = row->bits_per_key,
        .filters = s.filters, .lookups = s.lookups, .false_positives = s.false_positives,
        .rate = s.rate, .stderr_ = s.stderr_, .ci_low = s.ci_low, .ci_high = s.ci_high,
        .formula = rate_formula(g->m, row->n, g->k),
        .formula_finite = rate_formula_finite(g->m, row->n, g->k),
        .exact = exact, .scheme_exact = sx, .seed = seed,
    };
    out->ratio_formula = s.rate / out->formula;
    out->ratio_exact = s.rate / exact;
    out->z_exact = s.stderr_ > 0 ? (s.rate - exact) / s.stderr_ : NAN;
    out->rate_times_m = s.rate * (double)g->m;
}

/* FNV-1a of the experiment file: metadata records which definition made a result. */
static uint64_t file_hash(const char *path)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    int c;
    while ((c = fgetc(f)) != EOF)
        h = (h ^ (uint64_t)(unsigned char)c) * UINT64_C(0x100000001b3);
    fclose(f);
    return h;
}

static void iso_time(time_t t, char *buf, size_t len)
{
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static int write_meta(const char *path, const experiment_t *e, const run_opts_t *o,
                      uint64_t seed, size_t nrows, time_t t0, time_t t1, double seconds)
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
               "rows = %zu\nstart = %s\nend = %s\nseconds = %.1f\nhost = %s\n"
               "compiler = %s\n",
            e->name, e->title, e->path, (unsigned long long)file_hash(e->path),
            BLOOMSIM_VERSION, o->command ? o->command : "", (unsigned long long)seed,
            o->quick ? "quick" : "full", o->threads, nrows, start, end, seconds, host,
#ifdef __clang__
            "clang " __clang_version__
#else
            "gcc " __VERSION__
#endif
    );
    return fclose(f) == 0 ? 0 : -1;
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
    const sweep_t *sw = o->quick ? &e->quick : &e->full;
    uint64_t seed = o->seed_given ? o->seed : e->seed;

    /* Refuse a size past memory before any work: one array per thread, plus counts. */
    uint64_t avail = mem_available(), mmax = 0, fmax = 0;
    for (size_t i = 0; i < nrows; i++) {
        mmax = rows[i].geom.m > mmax ? rows[i].geom.m : mmax;
        fmax = rows[i].filters > fmax ? rows[i].filters : fmax;
    }
    double need = (double)o->threads * (double)((mmax + 63) / 64 * 8) + 8.0 * (double)fmax;
    if (avail && need > 0.9 * (double)avail) {
        snprintf(err, errlen, "%s:%u: bits = %llu needs %.1f GiB (%d threads), only %.1f "
                 "GiB available (got '%llu')", e->path, sw->line[F_BITS],
                 (unsigned long long)mmax, need / 1073741824.0, o->threads,
                 (double)avail / 1073741824.0, (unsigned long long)mmax);
        free(rows);
        return 2;
    }

    /* Output first, so an unwritable directory fails before any work. */
    const char *suffix = o->quick ? ".quick" : "";
    char partial[1200];
    snprintf(res->csv_path, sizeof res->csv_path, "%s/%s%s.csv", o->outdir, e->name, suffix);
    snprintf(res->meta_path, sizeof res->meta_path, "%s/%s%s.meta", o->outdir, e->name,
             suffix);
    snprintf(partial, sizeof partial, "%s.partial", res->csv_path);
    if (mkdir(o->outdir, 0777) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "%s: cannot create output directory: %s (got '%s')",
                 o->outdir, strerror(errno), o->outdir);
        free(rows);
        return 2;
    }
    FILE *csv = fopen(partial, "w");
    if (!csv) {
        snprintf(err, errlen, "%s: cannot write: %s (got '--out %s')", partial,
                 strerror(errno), o->outdir);
        free(rows);
        return 2;
    }
    res->rows = calloc(nrows ? nrows : 1, sizeof *res->rows);
    uint64_t *counts = malloc((size_t)fmax * sizeof *counts);
    if (!res->rows || !counts) {
        snprintf(err, errlen, "%s: out of memory for %llu filters", e->path,
                 (unsigned long long)fmax);
        rc = 1;
        goto out;
    }
    csv_write_header(csv);

    progress_state_t ps = {.o = o, .p = {.rows_total = nrows}};
    ps.start = ps.last = now();
    for (size_t i = 0; i < nrows; i++)
        ps.total_work += row_work(&rows[i]);
    time_t t0 = time(NULL);
    for (size_t i = 0; i < nrows; i++) {
        double rt = now();
        if (simulate(&rows[i], seed, i, o->threads, counts, o->progress ? &ps : NULL)) {
            snprintf(err, errlen, "%s: out of memory for %llu-bit filters", e->path,
                     (unsigned long long)rows[i].geom.m);
            rc = 1;
            goto out;
        }
        fill_row(e, &rows[i], counts, seed, &res->rows[i]);
        res->rows[i].seconds = now() - rt;
        if (csv_write_row(csv, &res->rows[i]) || fflush(csv)) {
            snprintf(err, errlen, "%s: write failed: %s", partial, strerror(errno));
            rc = 1;
            goto out;
        }
        res->nrows = i + 1;
        ps.done_work_rows += row_work(&rows[i]);
        ps.lookups_rows += res->rows[i].lookups;
        if (o->progress) {
            ps.p.rows_done = i + 1;
            ps.p.elapsed = now() - ps.start;
            ps.p.work_fraction = ps.done_work_rows / ps.total_work;
            ps.p.lookups_done = ps.lookups_rows;
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
    if (write_meta(meta_partial, e, o, seed, nrows, t0, time(NULL), res->seconds) ||
        rename(meta_partial, res->meta_path) || rename(partial, res->csv_path)) {
        snprintf(err, errlen, "%s: cannot write results: %s", res->csv_path, strerror(errno));
        rc = 1;
    }
out:
    if (csv)
        fclose(csv);
    free(counts);
    free(rows);
    return rc;
}

void runner_free(run_result_t *res)
{
    free(res->rows);
    res->rows = NULL;
    res->nrows = 0;
}
