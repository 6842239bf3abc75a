/* test_stats.c - the lookups estimator's summary against values worked by hand. */
#undef NDEBUG
#include <assert.h>
#include <math.h>
#include <stdio.h>

#include "stats.h"

static int close_to(double a, double b, double rel) { return fabs(a - b) <= rel * fabs(b); }

int main(void)
{
    /* Counts 1,2,3,4 of L = 10: rates .1,.2,.3,.4, mean .25, sample variance
     * ((.15^2 + .05^2) * 2) / 3 = 0.0166667, se = sqrt(0.0166667 / 4) = 0.0645497.
     * t(0.975, 3 df) = 3.182446 (any Student t table). */
    const uint64_t c[] = {1, 2, 3, 4};
    stats_summary_t s;
    assert(stats_summarize(c, 4, 10, &s) == 0);
    printf("rate %.6f se %.6f ci [%.6f, %.6f]\n", s.rate, s.stderr_, s.ci_low, s.ci_high);
    assert(s.false_positives == 10 && s.lookups == 40 && s.filters == 4);
    assert(close_to(s.rate, 0.25, 1e-15));
    assert(close_to(s.stderr_, 0.0645497224, 1e-8));
    assert(close_to(s.ci_high, 0.25 + 3.182446305 * 0.0645497224, 1e-8));
    assert(close_to(s.ci_low, 0.25 - 3.182446305 * 0.0645497224, 1e-8));

    /* Equal counts: no spread, se 0, interval collapses on the rate. */
    const uint64_t same[] = {5, 5, 5};
    assert(stats_summarize(same, 3, 100, &s) == 0);
    assert(s.stderr_ == 0 && s.ci_low == s.rate && s.ci_high == s.rate);

    /* No false positive: interval [0, -ln(0.025) / (F L)] = [0, 3.68888 / 3000]. */
    const uint64_t none[] = {0, 0, 0};
    assert(stats_summarize(none, 3, 1000, &s) == 0);
    assert(s.rate == 0 && s.ci_low == 0 && close_to(s.ci_high, 3.6888794541 / 3000, 1e-9));

    /* A low interval end never goes below zero. */
    const uint64_t skew[] = {0, 0, 0, 9};
    assert(stats_summarize(skew, 4, 10, &s) == 0 && s.ci_low == 0);

    /* Error paths: one filter cannot estimate a spread; L must be >= 1. */
    assert(stats_summarize(c, 1, 10, &s) == -1);
    assert(stats_summarize(c, 4, 0, &s) == -1);
    printf("stats: hand-worked cases ok\n");
    return 0;
}
