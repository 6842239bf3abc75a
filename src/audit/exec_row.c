/* exec_row.c - a row of an adapter's sweep through audit --exec's engine (exec_row.h). */
#include "audit/exec_row.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "audit/audit.h"
#include "audit/exec.h"
#include "rates/rate.h"
#include "run/runner.h"

/* The table row of a finished measurement: the columns a designed library's row fills,
 * from what the adapter answered and the engine counted. */
static csv_row_t exec_columns(const audit_exec_run_t *r, const stats_summary_t *s, int met,
                              const char *name)
{
    const audit_exec_t *x = r->x;
    csv_row_t c = csv_row_empty();
    c.experiment = name;
    c.scheme = "adapter";
    c.estimator = "lookups";
    c.n = x->n;
    uint64_t bits = r->m ? r->m : r->table_bits;
    c.bits_per_key = x->bits_per_key > 0 ? x->bits_per_key
                     : bits ? (double)bits / (double)x->n : NAN;
    c.filters = s->filters, c.lookups = s->lookups, c.false_positives = s->false_positives;
    c.rate = s->rate, c.stderr_ = s->stderr_, c.ci_low = s->ci_low, c.ci_high = s->ci_high;
    c.interval = s->kind == STATS_BINOMIAL ? "binomial" : "spread";
    c.rse_target = x->precision;
    c.target_met = (uint64_t)met;
    if (r->m) { /* the references at the m and k the adapter answered */
        c.m = r->m, c.k = r->k;
        c.formula = rate_formula(r->m, x->n, r->k);
        c.formula_finite = rate_formula_finite(r->m, x->n, r->k);
        if (rate_exact(r->m, x->n, r->k, &c.exact) != RATE_OK)
            c.exact = NAN;
        c.ratio_formula = s->rate / c.formula;
        c.ratio_exact = s->rate / c.exact;
        c.z_exact = s->stderr_ > 0 ? (s->rate - c.exact) / s->stderr_ : NAN;
        c.rate_times_m = s->rate * (double)r->m;
    }
    c.seed = x->seed;
    c.design_keys = (double)x->n;
    c.load = 1;
    if (!audit_exec_bits_rate(x)) /* bits per key promise no rate */
        c.design_rate = x->p, c.rate_over_design = s->rate / x->p;
    c.library = x->cmd;
    c.refused = r->check.filters ? (double)r->check.absent / (double)r->check.filters : NAN;
    return c;
}

/* The message of a row that failed, naming the file, line and command. */
static void exec_error(const experiment_t *e, const exp_row_t *row, uint64_t index,
                       const char *why, char *err, size_t errlen)
{
    char at[64];
    if (row->bits_per_key > 0)
        snprintf(at, sizeof at, "%g bits per key", row->bits_per_key);
    else
        snprintf(at, sizeof at, "%g", row->design_rate);
    snprintf(err, errlen, "%s:%u: row %llu, %llu keys at %s: exec '%s': %s", e->path,
             e->full[row->sweep].line[F_EXEC], (unsigned long long)index + 1,
             (unsigned long long)row->n, at, row->exec, why);
}

int audit_exec_row(void *ctx, const experiment_t *e, const row_run_t *run, csv_row_t *result,
                   char *err, size_t errlen)
{
    (void)ctx;
    const exp_row_t *row = run->row;
    const audit_exec_t x = {
        .cmd = row->exec, .n = row->n, .seed = run->seed,
        .max_filters = row->max_filters ? row->max_filters : AUDIT_MAX_FILTERS,
        .p = row->design_rate, .bits_per_key = row->bits_per_key,
        .precision = row->precision > 0 ? row->precision : AUDIT_PRECISION,
        .timeout = AUDIT_EXEC_ROW_TIMEOUT};
    audit_exec_run_t r;
    if (audit_exec_plan(&r, &x, run->stop) != 0) {
        audit_exec_free(&r);
        exec_error(e, row, run->index, "out of memory for the filters' counts", err, errlen);
        return 1;
    }
    stats_summary_t s;
    int met = 0;
    int st = adapter_start(&r.ad, x.cmd, run->stop, x.timeout, r.err, sizeof r.err);
    if (st == ADAPTER_OK)
        st = audit_exec_measure(&r, &s, &met);
    int status = 0;
    adapter_stop(&r.ad, st != ADAPTER_OK, &status);
    int rc = 0;
    if (st == ADAPTER_STOPPED || (run->stop && atomic_load(run->stop)))
        rc = RUN_INTERRUPTED;
    else if (st != ADAPTER_OK)
        exec_error(e, row, run->index, r.err, err, errlen), rc = 2;
    else if (status != 0) {
        char why[64];
        snprintf(why, sizeof why, "the adapter ended with status %d after quit", status);
        exec_error(e, row, run->index, why, err, errlen), rc = 2;
    } else
        *result = exec_columns(&r, &s, met, e->name);
    audit_exec_free(&r);
    return rc;
}

int audit_exec_rows_check(void *ctx, const experiment_t *e, const exp_row_t *rows,
                          size_t nrows, char *err, size_t errlen)
{
    (void)ctx;
    for (size_t i = 0; i < nrows; i++) {
        if (rows[i].structure != STRUCT_EXEC)
            continue;
        adapter_t ad;
        char why[512];
        int st = adapter_start(&ad, rows[i].exec, NULL, AUDIT_EXEC_ROW_TIMEOUT, why,
                               sizeof why);
        size_t j = i;
        for (; st == ADAPTER_OK && j < nrows && rows[j].structure == STRUCT_EXEC &&
               strcmp(rows[j].exec, rows[i].exec) == 0; j++) {
            uint64_t m;
            unsigned k;
            st = adapter_design(&ad, rows[j].n, rows[j].design_rate, rows[j].bits_per_key,
                                &m, &k, why, sizeof why);
        }
        int status = 0;
        adapter_stop(&ad, st != ADAPTER_OK, &status);
        if (st != ADAPTER_OK) {
            exec_error(e, &rows[j > i ? j - 1 : i], j > i ? j - 1 : i, why, err, errlen);
            return 2;
        }
        i = j - 1;
    }
    return 0;
}
