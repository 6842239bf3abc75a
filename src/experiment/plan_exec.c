/* plan_exec.c - the rows of an adapter's sweep (`exec = CMD`, docs/model.md, Experiment
 * files): one a point, keys inserted, then design_rate or bits_per_key, in file order.
 * Each is measured by the audit's engine through the adapter protocol (run/runner.h,
 * exec_row; audit/exec_row.c), so the row holds only what that engine is asked. */
#include "experiment/plan.h"

#include "estimate/estimator.h"

/* What the scheme column names for an adapter's row: no probe scheme of ours. */
static const scheme_t scheme_adapter = {.name = "adapter"};

size_t plan_exec_nrows(const sweep_t *s)
{
    return s->ninserted * (s->ndesign_rate ? s->ndesign_rate : s->nbpk);
}

void plan_exec_rows(const sweep_t *s, exp_row_t *r)
{
    const size_t nd = s->ndesign_rate ? s->ndesign_rate : s->nbpk;
    for (size_t a = 0, i = 0; a < s->ninserted; a++)
        for (size_t c = 0; c < nd; c++, i++) {
            exp_row_t *row = &r[i];
            row->structure = STRUCT_EXEC;
            row->n = row->design_keys = s->inserted[a];
            row->design_rate = s->ndesign_rate ? s->design_rate[c] : 0;
            row->bits_per_key = s->ndesign_rate ? 0 : s->bpk[c];
            row->scheme = &scheme_adapter;
            row->est = &est_lookups; /* what the estimator column says: lookups counted */
            row->filters = 2;        /* the engine's first batch */
            row->precision = s->precision;
            row->max_filters = s->max_filters;
            row->exec = s->exec;
        }
}
