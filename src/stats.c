/* stats.c - see stats.h. */
#include "stats.h"

#include <math.h>

#include <gsl/gsl_cdf.h>

__extension__ typedef unsigned __int128 u128;

int stats_summarize(const uint64_t *c, uint64_t F, uint64_t L, stats_summary_t *out)
{
    if (F < 2 || L == 0)
        return -1;
    u128 sum = 0, sumsq = 0;
    for (uint64_t f = 0; f < F; f++) {
        sum += c[f];
        sumsq += (u128)c[f] * c[f];
    }
    /* Sample variance of the counts, (sum c^2 - (sum c)^2 / F) / (F - 1), in long double
     * from exact integer sums; F * sumsq - sum^2 is computed exactly in 128 bits first
     * where it fits, which it does for every run this program can make in a day. */
    u128 fs = (u128)F * sumsq, s2 = sum * sum;
    long double var_c = (long double)(fs - s2) / ((long double)F * (long double)(F - 1));
    long double FL = (long double)F * (long double)L;
    out->filters = F;
    out->lookups = F * L;
    out->false_positives = (uint64_t)sum;
    out->rate = (double)((long double)sum / FL);
    out->stderr_ = (double)(sqrtl(var_c / (long double)F) / (long double)L);
    if (sum == 0) {
        out->ci_low = 0.0;
        out->ci_high = (double)(-logl(0.025L) / FL);
    } else {
        double t = gsl_cdf_tdist_Pinv(0.975, (double)(F - 1));
        out->ci_low = fmax(0.0, out->rate - t * out->stderr_);
        out->ci_high = out->rate + t * out->stderr_;
    }
    return 0;
}

int stats_summarize_rates(const double *x, uint64_t F, stats_summary_t *out)
{
    if (F < 2)
        return -1;
    long double sum = 0, mean, ss = 0;
    for (uint64_t f = 0; f < F; f++)
        sum += x[f];
    mean = sum / (long double)F;
    for (uint64_t f = 0; f < F; f++)
        ss += (x[f] - mean) * (x[f] - mean); /* two passes: no cancellation */
    out->filters = F;
    out->lookups = 0;
    out->false_positives = 0;
    out->rate = (double)mean;
    out->stderr_ = (double)sqrtl(ss / (long double)(F - 1) / (long double)F);
    double t = gsl_cdf_tdist_Pinv(0.975, (double)(F - 1));
    out->ci_low = fmax(0.0, out->rate - t * out->stderr_);
    out->ci_high = out->rate + t * out->stderr_;
    return 0;
}
