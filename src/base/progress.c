/* progress.c - see progress.h. */
#include "base/progress.h"

#include "base/monotonic.h"

void progress_start(progress_t *ps, progress_fn fn, void *ctx, size_t nrows, double total_work,
                    double done_work)
{
    *ps = (progress_t){.fn = fn, .ctx = ctx, .p = {.rows_total = nrows}};
    ps->start = ps->last = monotonic_seconds();
    ps->total_work = total_work;
    ps->done_work_rows = done_work;
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
    double now_s = monotonic_seconds();
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

void progress_row_done(progress_t *ps, size_t row_index, double work, uint64_t filters,
                       uint64_t lookups)
{
    if (!ps->fn)
        return;
    ps->done_work_rows += work;
    ps->lookups_rows += lookups;
    ps->filters_rows += filters;
    ps->p.rows_done = row_index + 1;
    ps->p.elapsed = monotonic_seconds() - ps->start;
    ps->p.work_fraction = ps->done_work_rows / ps->total_work;
    ps->p.lookups_done = ps->lookups_rows;
    ps->p.row_keys_per_s = 0;
    ps->p.filters_done = ps->filters_rows;
    ps->fn(&ps->p, ps->ctx);
}
