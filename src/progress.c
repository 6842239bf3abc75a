/* progress.c - see progress.h. */
#include "progress.h"

#include <time.h>

#include "estimator.h"
#include "experiment.h"
#include "simulate.h"

double progress_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double progress_row_work(const exp_row_t *row)
{
    const est_ops_t *est = sim_estimator(row);
    double per_filter = 0;
    for (size_t j = 0; j < sim_layers(row); j++) {
        const probe_geom_t *g = sim_layer_geom(row, j);
        uint64_t n = sim_layer_n(row, j);
        per_filter += (double)n * g->k + est->work(row, g, n);
    }
    return (double)row->filters * per_filter;
}

void progress_start(progress_t *ps, progress_fn fn, void *ctx, const exp_row_t *rows,
                    size_t nrows, size_t resumed)
{
    *ps = (progress_t){.fn = fn, .ctx = ctx, .p = {.rows_total = nrows}};
    ps->start = ps->last = progress_now();
    for (size_t i = 0; fn && i < nrows; i++) {
        double w = progress_row_work(&rows[i]);
        ps->total_work += w;
        if (i < resumed)
            ps->done_work_rows += w;
    }
}

void progress_report(progress_t *ps, double per_filter, double filters, uint64_t whole,
                     uint64_t lookups, uint64_t keys)
{
    if (!ps)
        return;
    if (ps->tick)
        ps->tick(ps->tick_ctx);
    if (!ps->fn)
        return;
    double now_s = progress_now();
    if (now_s - ps->last < 0.5)
        return;
    ps->last = now_s;
    ps->p.elapsed = now_s - ps->start;
    ps->p.work_fraction = (ps->done_work_rows + filters * per_filter) / ps->total_work;
    ps->p.lookups_done = ps->lookups_rows + lookups;
    ps->p.row_keys_per_s = keys > 0 ? (double)keys / (now_s - ps->row_start) : 0;
    ps->p.filters_done = ps->filters_rows + whole;
    ps->fn(&ps->p, ps->ctx);
}

void progress_row_done(progress_t *ps, size_t row_index, const exp_row_t *row,
                       uint64_t filters, uint64_t lookups)
{
    if (!ps->fn)
        return;
    ps->done_work_rows += progress_row_work(row) * (double)filters / (double)row->filters;
    ps->lookups_rows += lookups;
    ps->filters_rows += filters;
    ps->p.rows_done = row_index + 1;
    ps->p.elapsed = progress_now() - ps->start;
    ps->p.work_fraction = ps->done_work_rows / ps->total_work;
    ps->p.lookups_done = ps->lookups_rows;
    ps->p.row_keys_per_s = 0;
    ps->p.filters_done = ps->filters_rows;
    ps->fn(&ps->p, ps->ctx);
}
