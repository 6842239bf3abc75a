/* est_fingerprint.c - the two estimators of the fingerprint filters (fingerprint.h;
 * docs/model.md, "Fingerprint filters"), under the names of the registry's: `lookups`
 * builds a filter and counts the false positives among L fresh absent keys;
 * `conditional` builds it and takes its exact rate given what it stores (the measure of
 * the queries that match a stored key), with no sampling at all. They are not in the
 * registry: the planner gives a fingerprint row the one of the estimator its sweep names
 * (est_fingerprint), so that nothing else sees a row without probes. A row's plan is its
 * state (the schedule fp_run computed); a thread's scratch is a fp_work_t. */
#include "estimate/estimator.h"

static int fpe_supports(const scheme_t *s, const probe_geom_t *g, uint64_t n)
{
    (void)s, (void)g, (void)n;
    return 1;
}

static double fpe_scratch_bytes(const exp_row_t *row, const probe_geom_t *g, uint64_t n)
{
    (void)g, (void)n;
    return fp_work_bytes(&row->fp);
}

/* Drawing and sorting the keys; a lookup asks a few sorted groups (or two buckets). */
static double fpe_work_lookups(const exp_row_t *row, const probe_geom_t *g, uint64_t n)
{
    (void)g, (void)n;
    return 4.0 * (double)row->fp.stored + 4.0 * (double)row->lookups_per_filter;
}

static double fpe_work_conditional(const exp_row_t *row, const probe_geom_t *g, uint64_t n)
{
    (void)g, (void)n;
    return 8.0 * (double)row->fp.stored;
}

static int fpe_plan_make(void **plan, const exp_row_t *row, const probe_geom_t *g, uint64_t n)
{
    (void)g, (void)n;
    *plan = (void *)&row->fp; /* read-only, and lives as long as the row */
    return 0;
}

static int fpe_scratch_alloc(void **scratch, const void *plan)
{
    fp_work_t *w;
    int rc = fp_work_alloc(&w, plan);
    *scratch = w;
    return rc;
}

static void fpe_scratch_free(void *scratch) { fp_work_free(scratch); }

/* Both ask l->poll between chunks of the build (its keys, its sort) and of the lookups or
 * the rate, as the Bloom filters' loops do: a stop ends a filter of any size within
 * about a second, and the stopped filter's meaningless result is dropped with its row. */
static double fpe_measure_lookups(const est_layer_t *l, pcg32_t *r, uint64_t *count,
                                  double *within)
{
    *count = 0, *within = 0;
    if (fp_build(l->scratch, l->plan, r, l->poll))
        return 0;
    *count = fp_lookups(l->scratch, l->plan, r, l->row->lookups_per_filter, l->poll);
    double L = (double)l->row->lookups_per_filter, rate = (double)*count / L;
    *within = rate * (1 - rate) / L; /* binomial, given the filter */
    return rate;
}

static double fpe_measure_conditional(const est_layer_t *l, pcg32_t *r, uint64_t *count,
                                      double *within)
{
    (void)count;
    *within = 0; /* exact given the filter */
    if (fp_build(l->scratch, l->plan, r, l->poll))
        return 0;
    return fp_conditional(l->scratch, l->plan, l->poll);
}

static const est_ops_t est_fp_lookups = {
    .name = "lookups",
    .summary = "fingerprint filters: ask L fresh absent keys and count the false positives",
    .counts = 1,
    .supports = fpe_supports,
    .scratch_bytes = fpe_scratch_bytes,
    .work = fpe_work_lookups,
    .plan_make = fpe_plan_make,
    .scratch_alloc = fpe_scratch_alloc,
    .scratch_free = fpe_scratch_free,
    .measure = fpe_measure_lookups,
};

static const est_ops_t est_fp_conditional = {
    .name = "conditional",
    .summary = "fingerprint filters: the built filter's exact rate over every query",
    .prefer = 1,
    .supports = fpe_supports,
    .scratch_bytes = fpe_scratch_bytes,
    .work = fpe_work_conditional,
    .plan_make = fpe_plan_make,
    .scratch_alloc = fpe_scratch_alloc,
    .scratch_free = fpe_scratch_free,
    .measure = fpe_measure_conditional,
};

const est_ops_t *est_fingerprint(const est_ops_t *e)
{
    return e && e->counts ? &est_fp_lookups : &est_fp_conditional;
}

uint64_t est_fingerprint_refused(const void *scratch) { return fp_work_refused(scratch); }
