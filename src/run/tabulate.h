/* tabulate.h - a simulated row as a row of the result table: the estimate (simulate.h),
 * the reference rates of docs/model.md ("Reference rates") and the columns of designs
 * and stacks. Pure; thread-safe.
 */
#ifndef BLOOMSIM_TABULATE_H
#define BLOOMSIM_TABULATE_H

#include <stdint.h>

#include "base/csv.h"
#include "experiment/experiment.h"
#include "estimate/simulate.h"

/* The reference rates of a row. A single filter's are the values themselves (rate.h,
 * the scheme's exact and model functions; NaN where there is none); a stack's combine
 * its layers' x_j as 1 - prod(1 - x_j) (layers answer independently given their fills),
 * computed without cancellation. */
typedef struct tab_refs {
    double formula, formula_finite, exact, scheme_exact, model;
} tab_refs_t;

tab_refs_t tabulate_refs(const exp_row_t *row);

/* 1 - prod(1 - x[j]) for j < n, as -expm1(sum log1p(-x_j)): no cancellation for small
 * rates (1 - (1 - x) in double loses the digits of x below 2^-53); x[0] itself when
 * n == 1. NaN in, NaN out. */
double tabulate_layers_combined(const double *x, size_t n);

/* The `structure` column of a row: `single`, `rebuilt`, `stack` or the fingerprint
 * filter's name in a sweep that compares structures (row->compares), else NULL. */
const char *tabulate_structure(const exp_row_t *row);

/* The table row of experiment `name`'s row, simulated over `filters` filters into out,
 * with the run's seed; the seconds column is left NaN. */
csv_row_t tabulate_row(const char *name, const exp_row_t *row, uint64_t filters,
                       const row_out_t *out, uint64_t seed);

#endif
