/* est_conditional.c - the conditional estimator (docs/model.md, Estimators; cond.h):
 * for each built filter, its exact false-positive probability over the scheme's query
 * distribution (or exact over part of it and sampled over the rest). Schemes with a
 * conditional form only (cond_supported). */
#include <math.h>
#include <stdlib.h>

#include "estimate/cond.h"
#include "estimate/estimator.h"

/* SHIFT schemes: the repeated copy of the array (twice its size), the running AND (its
 * size) and the indices of its live words (half its size), and the keys' words and
 * strata (8 (SCHEME_MAX_WORDS + 1) bytes a key), besides the array itself (cond_work_alloc); the others read
 * the array alone. */
static double conditional_scratch_bytes(const exp_row_t *row, const probe_geom_t *g, uint64_t n)
{
    if (row->scheme->cond != SCHEME_COND_SHIFT)
        return 0;
    return 3.5 * (double)((g->m + 63) / 64 * 8) + 8.0 * (SCHEME_MAX_WORDS + 1) * (double)n;
}

/* The words ANDed over the strides evaluated (SHIFT schemes); nothing beyond the
 * inserts for the others. */
static double conditional_work(const exp_row_t *row, const probe_geom_t *g, uint64_t n)
{
    if (row->scheme->cond != SCHEME_COND_SHIFT)
        return 0;
    double strides = row->strides ? (double)row->strides + (double)n
                                  : (double)row->scheme->stride_count(g);
    return strides * ((double)g->m / 64.0) * fmin(g->k, 16) / 4.0;
}

static int conditional_plan_make(void **plan, const exp_row_t *row, const probe_geom_t *g,
                                 uint64_t n)
{
    cond_plan_t *p = malloc(sizeof *p);
    *plan = p;
    return p && cond_plan_make(p, row->scheme, g, n, row->strides) == COND_OK ? 0 : -1;
}

static void conditional_plan_free(void *plan)
{
    if (plan)
        cond_plan_free(plan);
    free(plan);
}

static int conditional_scratch_alloc(void **scratch, const void *plan)
{
    cond_work_t *w = malloc(sizeof *w);
    *scratch = w;
    return w && cond_work_alloc(w, plan) == COND_OK ? 0 : -1;
}

static void conditional_scratch_free(void *scratch)
{
    if (scratch)
        cond_work_free(scratch);
    free(scratch);
}

static double conditional_measure(const est_layer_t *l, pcg32_t *r, uint64_t *count,
                                  double *within)
{
    (void)count;
    cond_work_t *w = l->scratch;
    w->poll = l->poll;
    const pcg32_t r0 = *r; /* the inserts' draws, for an audit's check */
    double rate = cond_filter_rate(l->plan, l->b, w, r);
    est_check_layer(l, l->row->scheme, r0);
    *within = w->within;
    return rate;
}

const est_ops_t est_conditional = {
    .name = "conditional",
    .summary = "the exact rate of each built filter over the query space (sampled in part "
               "for large stride spaces)",
    .prefer = 1,    /* exact given the filter: far less variance than lookups */
    .counts = 0,
    .supports = cond_supported,
    .scratch_bytes = conditional_scratch_bytes,
    .work = conditional_work,
    .plan_make = conditional_plan_make,
    .plan_free = conditional_plan_free,
    .scratch_alloc = conditional_scratch_alloc,
    .scratch_free = conditional_scratch_free,
    .measure = conditional_measure,
};
