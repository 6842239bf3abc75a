/* sweep_rows.h - shared by the unit tests that measure every row of a one-sweep
 * experiment text: load it, plan its rows, run each (threads 2, the seed given, the row's
 * index its stream) and hand the row, its summary and its per-filter output to a check. */
#ifndef BLOOMSIM_SWEEP_ROWS_H
#define BLOOMSIM_SWEEP_ROWS_H

#undef NDEBUG
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "estimate/simulate.h"
#include "experiment/plan.h"

typedef void (*sweep_check_fn)(const exp_row_t *row, const stats_summary_t *st,
                               const row_out_t *out, uint64_t filters, void *ctx);

static inline void sweep_rows(const char *sweep, uint64_t seed, sweep_check_fn check, void *ctx)
{
    char err[EXP_ERR_LEN];
    experiment_t *e = malloc(sizeof *e);
    exp_row_t *rows;
    size_t nrows;
    assert(e);
    assert(experiment_load_text("t.ini", sweep, strlen(sweep), e, err, sizeof err) == 0);
    assert(plan_rows(e, 0, &rows, &nrows, err, sizeof err) == 0);
    for (size_t i = 0; i < nrows; i++) {
        exp_row_t *row = &rows[i];
        row_out_t out;
        sim_used_t used;
        stats_summary_t st;
        assert(sim_out_alloc(&out, row_max_filters(row)) == 0);
        assert(sim_row(&(row_run_t){.row = row, .seed = seed, .index = i, .threads = 2,
                                    .out = &out}, &used) == 0);
        assert(sim_summarize(row, used.filters, &out, &st) == 0);
        check(row, &st, &out, used.filters, ctx);
        sim_out_free(&out);
    }
    free(rows);
    free(e);
}

#endif
