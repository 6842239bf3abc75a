/* test_stats.c - a row's standard error and interval (stats.h) against values worked by
 * hand, the plug-in quantile against a Monte Carlo of its own definition, and the model
 * of the between-filter variance (rate_between_var) against filters built by throws. */
#undef NDEBUG
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>

#include "base/pcg.h"
#include "rates/rate.h"
#include "base/stats.h"

static int close_to(double a, double b, double rel) { return fabs(a - b) <= rel * fabs(b); }

/* Student's t(0.975) at 3 degrees of freedom (any table). */
#define T3 3.182446305

static void hand_cases(void)
{
    stats_summary_t s;
    /* Counts 1,2,3,4 of L = 10: rates .1 .2 .3 .4, mean .25, spread s^2 = 0.0166667; the
     * binomial w^2 = .25 .75 / 10 = 0.01875 is larger, and with no between-filter variance
     * in the model and a spread that does not contradict it ((F-1) s^2 / w^2 = 2.67 below
     * chi^2_3's 0.999 point, 16.27) the row is binomial: se = sqrt(w^2 / 4) = 0.0684653,
     * and Wilson's interval of 10 out of 40 is [0.1418712, 0.4019396] (Python). */
    const uint64_t c[] = {1, 2, 3, 4};
    assert(stats_summarize(c, 4, 10, 0, &s) == 0);
    printf("rate %.6f se %.6f ci [%.7f, %.7f] kind %d\n", s.rate, s.stderr_, s.ci_low,
           s.ci_high, s.kind);
    assert(s.false_positives == 10 && s.lookups == 40 && s.filters == 4);
    assert(s.kind == STATS_BINOMIAL && close_to(s.rate, 0.25, 1e-15));
    assert(close_to(s.stderr_, 0.0684653197, 1e-8));
    assert(close_to(s.ci_low, 0.1418711864, 1e-8) && close_to(s.ci_high, 0.4019396142, 1e-8));

    /* The same with a model of between-filter variance past 1% of w^2: the spread counts,
     * at least w^2: se as above, and below 8 filters Student's t(3). */
    assert(stats_summarize(c, 4, 10, 0.001, &s) == 0 && s.kind == STATS_SPREAD);
    assert(close_to(s.stderr_, 0.0684653197, 1e-8));
    assert(close_to(s.ci_high, 0.25 + T3 * 0.0684653197, 1e-8));

    /* Equal counts 5,5,5 of 100: no spread, but the counts imply se = sqrt(.05 .95 / 300)
     * = 0.0125831: never a zero width while false positives were seen. */
    const uint64_t same[] = {5, 5, 5};
    assert(stats_summarize(same, 3, 100, 0, &s) == 0);
    assert(close_to(s.stderr_, 0.0125830574, 1e-8) && s.ci_low < s.rate && s.ci_high > s.rate);

    /* A spread far past binomial (rates 0, 1, 0, 1 of L = 100: (F-1) s^2 / w^2 = 400)
     * is a spread whatever the model says: se = sqrt((1/3) / 4) = 0.2886751. */
    const uint64_t wide[] = {0, 100, 0, 100};
    assert(stats_summarize(wide, 4, 100, 0, &s) == 0 && s.kind == STATS_SPREAD);
    assert(close_to(s.stderr_, 0.2886751346, 1e-8) && s.ci_low == 0);

    /* No false positive: interval [0, -ln(0.025) / (F L)] = [0, 3.68888 / 3000]. */
    const uint64_t none[] = {0, 0, 0};
    assert(stats_summarize(none, 3, 1000, 0, &s) == 0);
    assert(s.rate == 0 && s.ci_low == 0 && close_to(s.ci_high, 3.6888794541 / 3000, 1e-9));
    /* Every lookup a false positive: [1 - 3.68888 / 3000, 1], not [1, 1]. */
    const uint64_t all[] = {1000, 1000, 1000};
    assert(stats_summarize(all, 3, 1000, 0, &s) == 0 && s.rate == 1 && s.ci_high == 1);
    assert(close_to(s.ci_low, 1 - 3.6888794541 / 3000, 1e-9));
    /* ... and over 2 filters of 1 lookup (a key file of 2 queried lines) a rate's
     * interval, within [0, 1]: [0, 1] where -ln(0.025) / 2 would pass 1. */
    const uint64_t two0[] = {0, 0}, two1[] = {1, 1};
    assert(stats_summarize(two0, 2, 1, 0, &s) == 0 && s.ci_low == 0 && s.ci_high == 1);
    assert(stats_summarize(two1, 2, 1, 0, &s) == 0 && s.ci_low == 0 && s.ci_high == 1);

    /* Rates exact given the filter: the spread alone, t(3): se = 0.0645497. */
    const double x[] = {0.1, 0.2, 0.3, 0.4};
    assert(stats_summarize_rates(x, NULL, 4, 0, &s) == 0 && s.kind == STATS_EXACT);
    assert(close_to(s.stderr_, 0.0645497224, 1e-8));
    assert(close_to(s.ci_high, 0.25 + T3 * 0.0645497224, 1e-8));
    /* ... and where every filter gave the same rate, the model's variance: sqrt(1e-4/2). */
    const double eq[] = {0.2, 0.2};
    assert(stats_summarize_rates(eq, NULL, 2, 1e-4, &s) == 0);
    assert(close_to(s.stderr_, 0.0070710678, 1e-8) && s.ci_high > s.rate);
    /* Sampled rates whose sampling variance exceeds their spread: at least that. */
    const double within[] = {0.5, 0.5, 0.5, 0.5};
    assert(stats_summarize_rates(x, within, 4, 0, &s) == 0 && s.kind == STATS_BINOMIAL);
    assert(close_to(s.stderr_, sqrt(0.5 / 4), 1e-12));

    /* Error paths: one filter cannot estimate a spread; L must be >= 1. */
    assert(stats_summarize(c, 1, 10, 0, &s) == -1);
    assert(stats_summarize(c, 4, 0, 0, &s) == -1);
    assert(stats_summarize_rates(x, NULL, 1, 0, &s) == -1);
    printf("stats: hand-worked cases ok\n");
}

/* stats_quantile(c, nu) is defined by P(|Z| <= q sqrt(max(V, c))) = 0.95: check it by
 * drawing Z and V (V = chi^2_nu / nu as a sum of nu squared normals), within 4 standard
 * errors of the coverage; and its ends: Student's t at c = 0, below 1.96 at c = 1. */
static void quantile_cases(void)
{
    pcg32_t r;
    pcg32_seed(&r, 2026, 19);
    const double cs[] = {1.0, 0.3, 0.05};
    const unsigned nus[] = {1, 7, 20};
    for (size_t i = 0; i < 3; i++)
        for (size_t j = 0; j < 3; j++) {
            double q = stats_quantile(cs[i], nus[j]);
            const int N = 200000;
            int hit = 0;
            for (int t = 0; t < N; t++) {
                double z = gsl_cdf_ugaussian_Pinv((pcg32_next(&r) + 0.5) / 4294967296.0), v = 0;
                for (unsigned d = 0; d < nus[j]; d++) {
                    double g = gsl_cdf_ugaussian_Pinv((pcg32_next(&r) + 0.5) / 4294967296.0);
                    v += g * g;
                }
                v /= nus[j];
                hit += fabs(z) <= q * sqrt(fmax(v, cs[i]));
            }
            double cov = (double)hit / N, se = sqrt(0.95 * 0.05 / N);
            printf("quantile c=%-5g nu=%-2u q=%.4f coverage %.4f (z %+.1f)\n", cs[i], nus[j], q,
                   cov, (cov - 0.95) / se);
            assert(fabs(cov - 0.95) < 4 * se);
        }
    assert(close_to(stats_quantile(0, 3), T3, 1e-9));
    assert(stats_quantile(1, 1) < 1.96 && stats_quantile(1, 1000) < 1.96);
    assert(stats_quantile(0.3, 5) > stats_quantile(0.6, 5));
}

/* rate_between_var against the spread of (X/m)^k over 20000 filters of m = 4096 bits, n =
 * 409 keys, k = 7, X the bits set by n k uniform throws: within 6% (the spread's own
 * relative standard error is 1%; the delta method's bias a few %). */
static void between_case(void)
{
    const uint64_t m = 4096, n = 409;
    const unsigned k = 7;
    const int F = 20000;
    uint64_t *bits = malloc(m / 64 * sizeof *bits);
    assert(bits);
    pcg32_t r;
    pcg32_seed(&r, 2026, 20);
    long double sum = 0, sumsq = 0;
    for (int f = 0; f < F; f++) {
        for (uint64_t w = 0; w < m / 64; w++)
            bits[w] = 0;
        for (uint64_t t = 0; t < n * k; t++) {
            uint64_t pos = pcg32_below(&r, m);
            bits[pos / 64] |= UINT64_C(1) << (pos % 64);
        }
        uint64_t x = 0;
        for (uint64_t w = 0; w < m / 64; w++)
            x += (uint64_t)__builtin_popcountll(bits[w]);
        double p = pow((double)x / (double)m, k);
        sum += p;
        sumsq += p * p;
    }
    double mean = (double)(sum / F), var = (double)((sumsq - sum * sum / F) / (F - 1));
    double model = rate_between_var(m, n, k, mean);
    printf("between-filter variance: spread %.4e, model %.4e (ratio %.3f)\n", var, model,
           var / model);
    assert(fabs(var / model - 1) < 0.06);
    assert(rate_between_var(1, n, k, 0.1) == 0 && rate_between_var(m, 0, k, 0.1) == 0);
    free(bits);
}

/* Which intervals a precision target may rest on (stats_trusted): a binomial one from 2
 * filters, unless the filters are batches of queries to one filter (seq keys), which
 * need STATS_MIN_SPREAD_FILTERS batches however their counts look: two batches of 5,000
 * and 5,001 false positives in 10^6 lookups each pass the dispersion test on one degree
 * of freedom, as batches whose spread is 18 times the binomial one do 11% of the time
 * (bloomfilter.js 0.0.16's seq-str keys: results/FINDINGS.md). */
static void trusted_cases(void)
{
    stats_summary_t s;
    const uint64_t two[] = {5000, 5001};
    assert(stats_summarize(two, 2, 1000000, 0, &s) == 0 && s.kind == STATS_BINOMIAL);
    double target = 0.02 * s.rate;
    assert(s.stderr_ <= target);
    assert(stats_trusted(&s, target, 0) && !stats_trusted(&s, target, 1));
    uint64_t eight[8];
    for (int f = 0; f < 8; f++)
        eight[f] = 5000 + (uint64_t)f;
    assert(stats_summarize(eight, 8, 1000000, 0, &s) == 0 && s.kind == STATS_BINOMIAL);
    assert(stats_trusted(&s, 0.02 * s.rate, 0) && stats_trusted(&s, 0.02 * s.rate, 1));
    /* A spread from 2 filters whose upper bound misses the target: trusted by neither. */
    const uint64_t apart[] = {4000, 6000};
    assert(stats_summarize(apart, 2, 1000000, 0, &s) == 0 && s.kind == STATS_SPREAD);
    assert(!stats_trusted(&s, 0.2 * s.rate, 0) && !stats_trusted(&s, 0.2 * s.rate, 1));
    printf("trusted: a one-filter row's binomial interval from 2 batches is not; from 8 it is\n");
}

int main(void)
{
    gsl_set_error_handler_off();
    hand_cases();
    trusted_cases();
    quantile_cases();
    between_case();
    return 0;
}
