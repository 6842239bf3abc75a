/* stats.h - a row's estimate, standard error and 95% interval from what its filters
 * yielded (docs/model.md, "Standard errors and intervals", has the derivation).
 *
 * A row's F filters are independent; the rate of filter f, r_f, varies for two reasons:
 * its fill (the between-filter variance, sigma_b^2) and, where r_f is itself sampled
 * (L lookups, or sampled strides), the sampling given the filter (the within-filter
 * variance, sigma_w^2). Var(mean) = (sigma_b^2 + sigma_w^2) / F, and the within part is
 * known from the counts (for lookups, Var(r_f) >= p(1 - p)/L exactly), while the between
 * part can only be estimated from the spread s^2 of the F rates, with F - 1 degrees of
 * freedom. So:
 *   - the standard error is never below what the counts imply: se^2 = max(s^2, w^2) / F,
 *     w^2 the within-filter variance (p(1 - p)/L for lookups);
 *   - where the between-filter variance is negligible for the row's kind (a model of it,
 *     v_model, the fill's variance under independent probes, is at most 1% of w^2) and
 *     the spread does not contradict that (a chi-square test of s^2 / w^2 at 0.1%), the
 *     row is BINOMIAL: se^2 = w^2 / F, and the interval is the Wilson score interval of
 *     the pooled counts (for rates, the normal interval);
 *   - otherwise it is SPREAD: se^2 = max(s^2, w^2) / F, and the interval is
 *     rate -/+ q se with q chosen for 95% coverage given that the spread has F - 1
 *     degrees of freedom: from 8 filters, the quantile of Z / sqrt(max(V, c)), V ~
 *     chi^2_{F-1}/(F-1) (stats_quantile), at c = w^2 / tau^2, the within share of the
 *     variance, estimated with tau^2 at its upper 75% confidence bound from s^2 (so that
 *     a spread that came out small does not also shrink q); below 8 filters, where c
 *     cannot be estimated, Student's t(F - 1), which covers at least 95% whatever c is;
 *   - rates known exactly given the filter (the conditional estimator's FILL, SLICES,
 *     BLOCKS and SPLIT kinds; strides all enumerated) have no within part: EXACT,
 *     se = s / sqrt(F) and t(F - 1); when every filter gave the same rate, the model's
 *     between-filter variance stands in for the spread, so no interval has zero width
 *     while the rate is positive.
 * With no false positive at all (lookups), the interval is [0, -ln(0.025)/(F L)]: a zero
 * count says the rate is small, not zero.
 * Sums over filters run in filter order (integer counts exactly, rates in long double),
 * so the results do not depend on threads. Pure; thread-safe.
 */
#ifndef BLOOMSIM_STATS_H
#define BLOOMSIM_STATS_H

#include <stdint.h>

/* How a row's standard error and interval were made (above). */
typedef enum { STATS_BINOMIAL = 1, STATS_SPREAD, STATS_EXACT } stats_kind_t;

typedef struct stats_summary {
    uint64_t filters;         /* F */
    uint64_t lookups;         /* F * L (lookups); 0 for rates */
    uint64_t false_positives; /* sum of c_f (lookups); 0 for rates */
    double rate;              /* sum c_f / (F L), or the mean of the rates */
    double stderr_;           /* see above; 0 only when the rate is 0 */
    double ci_low, ci_high;   /* 95% interval, low end clipped at 0 */
    double stderr_spread;     /* s / sqrt(F), the spread's part alone */
    double stderr_within;     /* sqrt(w^2 / F), the counts' part alone (0: exact rates) */
    stats_kind_t kind;
} stats_summary_t;

/* The largest share of the within-filter variance the model's between-filter variance
 * may be for a row to count as BINOMIAL. */
#define STATS_NEGLIGIBLE 0.01
/* Filters a spread needs before it is trusted for a precision target, or for the plug-in
 * quantile. */
#define STATS_MIN_SPREAD_FILTERS 8

/* The standard error s's row would have at the 95% upper confidence bound of its spread
 * (s^2 (F - 1) / chi^2_{0.05}(F - 1), at least the counts' w^2): what a precision target
 * met on a spread of fewer than STATS_MIN_SPREAD_FILTERS filters must also meet. */
double stats_stderr_upper(const stats_summary_t *s);

/* Whether s's precision target (target, the standard error it may have) can rest on its
 * interval: a binomial one, one from at least STATS_MIN_SPREAD_FILTERS filters, or, from
 * fewer, one whose spread at its upper bound (stats_stderr_upper) still meets the target.
 * one_filter: the "filters" are batches of queries to one filter (real keys that are the
 * same in every filter: seq, seq-str, file), whose spread no model bounds (neighbouring
 * keys can share a hash's structure): STATS_MIN_SPREAD_FILTERS batches, always, so that
 * a binomial interval has passed the dispersion test on 7 degrees of freedom at least. */
int stats_trusted(const stats_summary_t *s, double target, int one_filter);

/* Summarise F >= 2 per-filter counts c[0..F) of L >= 1 lookups each; v_model is the
 * model's between-filter variance of a filter's rate (rate_between_var), 0 for none.
 * Returns 0, or -1 when F < 2 or L == 0. */
int stats_summarize(const uint64_t *c, uint64_t F, uint64_t L, double v_model,
                    stats_summary_t *out);

/* The same from the counts' moments: fp false positives in all, and se_s = s / sqrt(F),
 * s^2 the sample variance of the F per-filter rates (what the stderr column held before
 * the floor: for re-tabulating a table from its columns). Returns 0, or -1 when F < 2 or
 * L == 0. */
int stats_from_counts(uint64_t F, uint64_t L, uint64_t fp, double se_s, double v_model,
                      stats_summary_t *out);

/* Summarise F >= 2 per-filter rates x[0..F), each with its within-filter (sampling)
 * variance within[f] (NULL, or all 0: the rates are exact given the filters); v_model as
 * above. lookups and false_positives are 0. Returns 0, or -1 when F < 2. */
int stats_summarize_rates(const double *x, const double *within, uint64_t F, double v_model,
                          stats_summary_t *out);

/* The q with P(|Z| <= q sqrt(max(V, c))) = 0.975 * 2 - 1, Z standard normal and V ~
 * chi^2_nu / nu independent: the 95% quantile of a mean over its standard error
 * max(s, sigma_w)/sqrt(F) when sigma_w^2 / (sigma_b^2 + sigma_w^2) = c and nu = F - 1.
 * c in [0, 1], nu >= 1; c = 0 gives Student's t, c = 1 less than 1.96. */
double stats_quantile(double c, double nu);

#endif
