/* retabulate.c - a committed table's standard errors and intervals made again by the
 * current rule (docs/model.md, "Standard errors and intervals"), from the table's own
 * columns where that is exact; built as build/retabulate (issue 19).
 *
 * usage: retabulate TABLE.csv EXPERIMENT.ini > NEW.csv
 *
 * The table's rows are matched to the experiment's full-scale plan (plan.h), row by row.
 * For a counting row (lookups, one filter per row), the old stderr is s/sqrt(F), so the
 * spread s^2 = stderr^2 F, and with `false_positives`, `filters` and `lookups` the new
 * summary is exact (stats_from_counts); stderr, ci_low, ci_high and z_exact are replaced,
 * and the columns the table lacks (interval, rse_target, target_met; and any added since
 * it was made) are filled as a run fills them. Rows of exact rates (the conditional
 * estimator with every stride) keep their numbers: the rule did not change for them.
 * Rows whose within-filter variance is not in the table (sampled strides, stacks) cannot
 * be re-tabulated exactly: they are written as they were, and listed on stderr as
 * "rerun"; so are rows the new precision rule would not have stopped (their target not
 * met, or met on a spread of fewer than 8 filters). Every other column is written back
 * unchanged (numbers are read and printed at the precision that round-trips them).
 * Exit status 0, 1 when some row needs a rerun, 2 for bad input.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>

#include "base/csv.h"
#include "estimate/estimator.h"
#include "experiment/experiment.h"
#include "experiment/plan.h"
#include "estimate/simulate.h"
#include "base/stats.h"
#include "run/tabulate.h"

/* Whether the row's per-filter rates are exact given the filter (no within part). */
static int exact_rates(const exp_row_t *row)
{
    if (row->structure == STRUCT_FINGERPRINT) /* its conditional form: exact given it */
        return !row->est->counts;
    if (row->est != &est_conditional || row->structure == STRUCT_STACK)
        return 0;
    if (row->scheme->cond != SCHEME_COND_SHIFT || row->strides == 0)
        return 1;
    uint64_t S = row->scheme->stride_count(&row->geom);
    return S > 0 && row->strides >= S; /* every stride enumerated */
}

/* Recompute row r (planned as row) in place; returns 1 when it needs a rerun. */
static int retabulate(csv_row_t *r, const exp_row_t *row, size_t i)
{
    stats_summary_t s = {.filters = r->filters, .rate = r->rate, .stderr_ = r->stderr_,
                         .ci_low = r->ci_low, .ci_high = r->ci_high};
    int rerun = 0;
    if (sim_counts(row) && r->lookups != CSV_ABSENT) {
        uint64_t F = r->filters, L = r->lookups / r->filters;
        if (stats_from_counts(F, L, r->false_positives, r->stderr_,
                              sim_between_var(row, r->rate), &s) != 0)
            return 1;
        r->stderr_ = s.stderr_, r->ci_low = s.ci_low, r->ci_high = s.ci_high;
        r->z_exact = s.stderr_ > 0 ? (r->rate - r->exact) / s.stderr_ : NAN;
    } else if (exact_rates(row)) {
        s.kind = STATS_EXACT;
        if (!(r->stderr_ > 0) && r->rate > 0) { /* every filter the same rate */
            s.stderr_ = sqrt(sim_between_var(row, r->rate) / (double)r->filters);
            double q = gsl_cdf_tdist_Pinv(0.975, (double)(r->filters - 1));
            r->stderr_ = s.stderr_;
            r->ci_low = fmax(0.0, r->rate - q * s.stderr_);
            r->ci_high = r->rate + q * s.stderr_;
            r->z_exact = (r->rate - r->exact) / s.stderr_;
        }
    } else {
        fprintf(stderr, "rerun: row %zu (%s): its within-filter variance is not in the "
                "table\n", i + 1, r->scheme);
        return 1;
    }
    r->interval = s.kind == STATS_BINOMIAL ? "binomial" : s.kind == STATS_SPREAD ? "spread"
                                                                                 : "exact";
    if (row->precision > 0) {
        r->rse_target = row->precision;
        r->target_met = (uint64_t)sim_target_met(row, &s);
        if (!r->target_met) {
            fprintf(stderr, "rerun: row %zu (%s, %s): target %g not met by the new rule "
                    "(%.4g from %llu filters, %s)\n", i + 1, r->scheme,
                    r->library ? r->library : "-", row->precision, s.stderr_ / s.rate,
                    (unsigned long long)s.filters, r->interval);
            rerun = 1;
        }
    }
    return rerun;
}

/* The fields of one record of the table, by the current columns' order: a column the
 * table lacks is empty. Returns 0, or -1 when the record has another width. */
static int by_name(char **in, size_t nin, const int *where, char **out)
{
    static char empty[] = "";
    for (size_t c = 0; c < CSV_NCOLS; c++)
        out[c] = where[c] < 0 ? empty : (size_t)where[c] < nin ? in[where[c]] : NULL;
    for (size_t c = 0; c < CSV_NCOLS; c++)
        if (!out[c])
            return -1;
    return 0;
}

int main(int argc, char **argv)
{
    gsl_set_error_handler_off();
    if (argc != 3) {
        fprintf(stderr, "usage: retabulate TABLE.csv EXPERIMENT.ini > NEW.csv\n");
        return 2;
    }
    static experiment_t e;
    char err[EXP_ERR_LEN];
    exp_row_t *plan;
    size_t nplan;
    if (experiment_load(argv[2], &e, err, sizeof err) ||
        plan_rows(&e, 0, &plan, &nplan, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    static char buf[1 << 16];
    char *in[128], *fields[CSV_NCOLS];
    size_t nin;
    int where[CSV_NCOLS];
    if (!f || csv_read_record(f, buf, sizeof buf, in, 128, &nin) != 1) {
        fprintf(stderr, "%s: not a table\n", argv[1]);
        return 2;
    }
    for (size_t c = 0; c < CSV_NCOLS; c++) {
        where[c] = -1;
        for (size_t j = 0; j < nin; j++)
            if (strcmp(in[j], csv_column(c)->name) == 0)
                where[c] = (int)j;
    }
    csv_write_header(stdout);
    int rerun = 0;
    size_t i = 0;
    for (; csv_read_record(f, buf, sizeof buf, in, 128, &nin) == 1; i++) {
        csv_row_t r = csv_row_empty();
        if (i >= nplan || by_name(in, nin, where, fields) || csv_parse_row(fields, CSV_NCOLS, &r) ||
            strcmp(fields[csv_column_find("scheme")], plan[i].scheme->name) != 0) {
            fprintf(stderr, "%s: row %zu is not the plan's\n", argv[1], i + 1);
            return 2;
        }
        const exp_row_t *row = &plan[i];
        r.experiment = e.name;
        r.scheme = row->scheme->name;
        r.estimator = row->est->name;
        if (row->structure != STRUCT_PLAIN)
            r.sizing = row->sizing->name;
        if (row->library)
            r.library = row->library->name;
        r.structure = tabulate_structure(row);
        rerun |= retabulate(&r, row, i);
        csv_write_row(stdout, &r);
    }
    if (i != nplan) {
        fprintf(stderr, "%s: %zu rows, the plan %zu\n", argv[1], i, nplan);
        return 2;
    }
    fclose(f);
    free(plan);
    return rerun;
}
