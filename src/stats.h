/* stats.h - the `lookups` estimator's summary: rate, standard error and 95% interval
 * from per-filter false-positive counts (docs/model.md, Estimators).
 *
 * Lookups against one filter share its fill, so they are not independent; the filters
 * are. The standard error therefore comes from the spread of the F per-filter rates
 * c_f / L: se = s / sqrt(F), s^2 the sample variance of those rates. Inputs are
 * integer counts, so sums are exact and independent of thread scheduling.
 */
#ifndef BLOOMSIM_STATS_H
#define BLOOMSIM_STATS_H

#include <stdint.h>

typedef struct stats_summary {
    uint64_t filters;         /* F */
    uint64_t lookups;         /* F * L */
    uint64_t false_positives; /* sum of c_f */
    double rate;              /* sum c_f / (F L) */
    double stderr_;           /* s / sqrt(F); 0 when every c_f is equal */
    double ci_low, ci_high;   /* 95% interval, see stats_summarize */
} stats_summary_t;

/* Summarise F >= 2 per-filter counts c[0..F) of L >= 1 lookups each.
 * Interval: rate -/+ t(0.975, F-1) * se, clipped at 0 below. When no false positive was
 * seen (se = 0) the upper end is the one-sided 97.5% Poisson bound -ln(0.025)/(F L),
 * since a zero count says the rate is small, not zero. Pure; thread-safe.
 * Returns 0, or -1 when F < 2 or L == 0. */
int stats_summarize(const uint64_t *c, uint64_t F, uint64_t L, stats_summary_t *out);

/* Summarise F >= 2 per-filter rates x[0..F) (the conditional estimator): rate = mean,
 * se = s / sqrt(F), interval rate -/+ t(0.975, F-1) se clipped at 0. The sums run in
 * filter order in long double, so the result does not depend on threads. lookups and
 * false_positives are set to 0 (not counted). Returns 0, or -1 when F < 2. */
int stats_summarize_rates(const double *x, uint64_t F, stats_summary_t *out);

#endif
