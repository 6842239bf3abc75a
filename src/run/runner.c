/* runner.c - see runner.h. */
#include "run/runner.h"

#include <stdlib.h>
#include <string.h>

#include "base/memory.h"
#include "base/monotonic.h"
#include "dist/dist.h"
#include "experiment/plan.h"
#include "estimate/simulate.h"
#include "run/tabulate.h"

uint64_t runner_mem_limit(const char **what)
{
    return mem_available(what);
}

int runner_fits(double need, uint64_t avail)
{
    return mem_fits(need, avail);
}

/* Refuse a run past memory before any work: the largest row's bit arrays and estimator
 * scratch (one set per thread, or one in all for a row its estimator runs on all
 * threads), plus 32 bytes a filter for the per-filter results, times the ranks of a
 * distributed run on this machine (each rank checks its own). The message names the
 * line of the size or of the filter count, whichever dominates. Returns 0 or 2. */
static int check_memory(const experiment_t *e, int quick, const exp_row_t *rows, size_t nrows,
                        int threads, int ranks, char *err, size_t errlen)
{
    const char *what;
    uint64_t avail = runner_mem_limit(&what), fmax = 0;
    double arrays = 0;
    size_t at_arrays = 0, at_filters = 0;
    for (size_t i = 0; i < nrows; i++) {
        double t = sim_memory(&rows[i], threads);
        if (t > arrays)
            arrays = t, at_arrays = i;
        if (row_max_filters(&rows[i]) > fmax)
            fmax = row_max_filters(&rows[i]), at_filters = i;
    }
    double tallies = RUNNER_BYTES_PER_FILTER * (double)fmax * ranks;
    arrays *= ranks;
    if (runner_fits(arrays + tallies, avail))
        return 0;
    int by_filters = tallies > arrays;
    const exp_row_t *at = &rows[by_filters ? at_filters : at_arrays];
    const sweep_t *sw = quick ? &e->quick[at->sweep] : &e->full[at->sweep];
    unsigned line = by_filters ? (sw->line[F_MAX_FILTERS] ? sw->line[F_MAX_FILTERS]
                                                          : sw->line[F_FILTERS])
                               : sw->line[F_BITS] ? sw->line[F_BITS] : sw->line[F_DESIGN_KEYS];
    char how[64] = "one array shared by all threads";
    if (!sim_shared(&rows[at_arrays]))
        snprintf(how, sizeof how, "%d threads, an array each", threads);
    if (ranks > 1)
        snprintf(how + strlen(how), sizeof how - strlen(how), ", %d ranks here", ranks);
    snprintf(err, errlen, "%s:%u: %s needs %.1f GiB (%s), only %.1f GiB available%s "
             "(got '%llu')", e->path, line, by_filters ? "the number of filters" : "the filter size",
             (arrays + tallies) / 1073741824.0, how, (double)avail / 1073741824.0, what,
             (unsigned long long)(by_filters ? fmax : at->geom.m));
    return 2;
}

int runner_row(const char *name, const char *what, const row_run_t *run, csv_row_t *result,
               char *err, size_t errlen)
{
    const exp_row_t *row = run->row;
    progress_t *ps = run->ps;
    ps->row_start = monotonic_seconds();
    row_out_t ro = *run->out;
    if (!row_popcounts(row))
        ro.popcounts = NULL;
    row_run_t at = *run;
    at.out = &ro;
    sim_used_t used;
    int st = dist_row(&at, &used);
    if (st > 0)
        return RUN_INTERRUPTED;
    if (st < 0) {
        dist_error(err, errlen); /* another rank's failure, else our memory */
        if (!err[0])
            snprintf(err, errlen, "%s: out of memory for %llu-bit filters", what,
                     (unsigned long long)row->geom.m);
        return 1;
    }
    exp_row_t ran = *row; /* at the lookups it ran: a big row's may have grown */
    ran.lookups_per_filter = used.lookups_per_filter;
    *result = tabulate_row(name, &ran, used.filters, &ro, run->seed);
    if (row_real_keys(row)) /* the label of the row itself, which outlives the copy */
        result->library = row->label;
    result->seconds = monotonic_seconds() - ps->row_start;
    progress_row_done(ps, (size_t)run->index,
                      est_row_work(row) * (double)used.filters / (double)row->filters,
                      used.filters, result->lookups == CSV_ABSENT ? 0 : result->lookups);
    return 0;
}

double runner_row_memory(const exp_row_t *row, int threads)
{
    return sim_memory(row, threads) + RUNNER_BYTES_PER_FILTER * (double)row_max_filters(row);
}

/* A row of an adapter's sweep, through the hook (run_opts_t.exec_row), on this process
 * alone; as runner_row. */
static int exec_row(const experiment_t *e, const run_opts_t *o, const row_run_t *run,
                    csv_row_t *result, char *err, size_t errlen)
{
    if (!o->exec_row) {
        snprintf(err, errlen, "%s: row %llu: no adapter engine to run exec = %s", e->path,
                 (unsigned long long)run->index + 1, run->row->exec);
        return 1;
    }
    run->ps->row_start = monotonic_seconds();
    int rc = o->exec_row(o->exec_ctx, e, run, result, err, errlen);
    if (rc == 0)
        result->seconds = monotonic_seconds() - run->ps->row_start;
    if (rc == 0)
        progress_row_done(run->ps, (size_t)run->index, est_row_work(run->row),
                          result->filters, result->lookups == CSV_ABSENT ? 0 : result->lookups);
    return rc;
}

/* Simulate, tabulate and store rows[from..nrows) in turn. Returns 0, 1 (memory or a
 * write failed) or RUN_INTERRUPTED, with the message in err. */
static int run_rows(const experiment_t *e, const run_opts_t *o, uint64_t seed, store_t *st,
                    progress_t *ps, run_result_t *res, char *err, size_t errlen)
{
    uint64_t fmax = 1;
    for (size_t i = 0; i < res->nrows_planned; i++)
        if (row_max_filters(&res->plan[i]) > fmax)
            fmax = row_max_filters(&res->plan[i]);
    row_out_t out;
    int rc = 0;
    if (sim_out_alloc(&out, fmax)) {
        snprintf(err, errlen, "%s: out of memory for %llu filters", e->path,
                 (unsigned long long)fmax);
        rc = 1;
    }
    for (size_t i = res->nrows; i < res->nrows_planned && rc == 0; i++) {
        const row_run_t run = {.row = &res->plan[i], .seed = seed, .index = i,
                               .threads = o->threads, .out = &out, .ps = ps, .stop = o->stop};
        if (res->plan[i].structure == STRUCT_EXEC)
            rc = exec_row(e, o, &run, &res->rows[i], err, errlen);
        else
            rc = runner_row(e->name, e->path, &run, &res->rows[i], err, errlen);
        if (rc == RUN_INTERRUPTED)
            snprintf(err, errlen, "interrupted: %zu of %zu rows finished in %s; run it again "
                     "with --resume to finish", res->nrows, res->nrows_planned, st->partial);
        if (rc == 0 && (rc = store_append(st, &res->rows[i], err, errlen)) == 0)
            res->nrows = i + 1;
    }
    sim_out_free(&out);
    return rc;
}

int runner_prepare(const experiment_t *e, const run_opts_t *o, run_result_t *res, char *err,
                   size_t errlen)
{
    memset(res, 0, sizeof *res);
    int rc = plan_rows(e, o->quick, &res->plan, &res->nrows_planned, err, errlen);
    if (rc)
        return rc;
    res->seed = o->seed_given ? o->seed : e->seed;
    /* 1. Memory, before any work: in a distributed run (dist.h), every rank against its
     * own machine, rank 0 reporting the first that fails. */
    rc = dist_agree_threads(o->threads) ? 1 : 0;
    if (rc == 0)
        rc = check_memory(e, o->quick, res->plan, res->nrows_planned, o->threads,
                          dist_ranks_here(), err, errlen);
    if (rc == 0 && o->exec_check && dist_leader())
        rc = o->exec_check(o->exec_ctx, e, res->plan, res->nrows_planned, err, errlen);
    rc = dist_agree(rc, err, errlen);
    if (rc)
        return rc;
    res->rows = calloc(res->nrows_planned ? res->nrows_planned : 1, sizeof *res->rows);
    if (!res->rows) {
        snprintf(err, errlen, "%s: out of memory", e->path);
        rc = 1;
    }
    /* 2. The claim on the outputs, so that a run in progress, an unwritable directory or
     * a result we must not replace fails before any work; an interrupted run's finished
     * rows come back. The other ranks never touch the output directory. */
    if (rc == 0 && dist_leader()) {
        const store_run_t run = {.e = e, .rows = res->plan, .nrows = res->nrows_planned,
                                 .outdir = o->outdir, .quick = o->quick, .seed = res->seed,
                                 .resume = o->resume, .force = o->force};
        rc = store_claim(&res->store, &run, res->rows, err, errlen);
    }
    res->claimed = rc == 0 && dist_leader();
    return dist_agree(rc, err, errlen);
}

int runner_execute(const experiment_t *e, const run_opts_t *o, run_result_t *res, char *err,
                   size_t errlen)
{
    /* 3. The outputs: the partial table and its run marker (rank 0). */
    int rc = res->claimed ? store_open(&res->store, err, errlen) : 0;
    rc = dist_agree(rc, err, errlen);
    if (rc)
        return rc;
    if (!dist_leader()) /* a worker: simulate what rank 0 hands out until it ends */
        return dist_serve(res->plan, res->nrows_planned, res->seed, o->threads, o->stop);
    store_t *st = &res->store;
    snprintf(res->csv_path, sizeof res->csv_path, "%s", st->csv_path);
    snprintf(res->meta_path, sizeof res->meta_path, "%s", st->meta_path);
    res->nrows = st->resumed;
    /* 4. The rows. */
    progress_t ps;
    double total = 0, done = 0;
    for (size_t i = 0; o->progress && i < res->nrows_planned; i++) {
        double w = est_row_work(&res->plan[i]);
        total += w;
        done += i < st->resumed ? w : 0;
    }
    progress_start(&ps, o->progress, o->progress_ctx, res->nrows_planned, total, done);
    time_t t0 = time(NULL);
    rc = run_rows(e, o, res->seed, st, &ps, res, err, errlen);
    res->seconds = monotonic_seconds() - ps.start;
    /* 5. Publish the table and its metadata; the claim ends with runner_free. */
    if (rc == 0) {
        store_meta_t meta = {.e = e, .command = o->command, .seed = res->seed,
                             .quick = o->quick, .threads = dist_threads_total(),
                             .ranks = dist_size(), .rank_threads = dist_threads_list(),
                             .rows = res->nrows_planned, .start = t0, .end = time(NULL),
                             .seconds = res->seconds};
        rc = store_publish(st, &meta, err, errlen);
    }
    dist_end(rc, o->stop);
    /* 6. The finished rows are in res for the caller's summary table. */
    return rc;
}

int runner_run(const experiment_t *e, const run_opts_t *o, run_result_t *res, char *err,
               size_t errlen)
{
    int rc = runner_prepare(e, o, res, err, errlen);
    return rc ? rc : runner_execute(e, o, res, err, errlen);
}

void runner_free(run_result_t *res)
{
    if (res->claimed)
        store_close(&res->store);
    plan_rows_free(res->plan, res->nrows_planned);
    free(res->rows);
    memset(res, 0, sizeof *res);
}
