/* stats.c - see stats.h. */
#include "base/stats.h"

#include <math.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_randist.h>

__extension__ typedef unsigned __int128 u128;

/* The normal quantile of a two-sided 95% interval. */
#define Z95 1.959963984540054

/* ---- the quantile of a mean over max(s, sigma_w)/sqrt(F) ---- */

typedef struct qarg {
    double q, nu;
} qarg_t;

/* (2 Phi(q sqrt(v)) - 1) times the density of V = chi^2_nu / nu at v. */
static double cover_density(double v, void *p)
{
    const qarg_t *a = p;
    return (2 * gsl_cdf_ugaussian_P(a->q * sqrt(v)) - 1) * gsl_ran_chisq_pdf(v * a->nu, a->nu) *
           a->nu;
}

/* P(|Z| <= q sqrt(max(V, c))): for V <= c the probability is that of |Z| <= q sqrt(c),
 * times P(V <= c) in closed form; above c an integral over V's density. */
static double coverage(double q, double c, double nu, gsl_integration_workspace *w)
{
    qarg_t a = {q, nu};
    gsl_function f = {cover_density, &a};
    double above = 0, err;
    gsl_integration_qagiu(&f, c, 1e-12, 1e-10, 200, w, &above, &err);
    double below = c > 0 ? (2 * gsl_cdf_ugaussian_P(q * sqrt(c)) - 1) * gsl_cdf_chisq_P(c * nu, nu)
                         : 0;
    return below + above;
}

double stats_quantile(double c, double nu)
{
    double t = gsl_cdf_tdist_Pinv(0.975, nu);
    if (!(c > 0))
        return t;
    if (c > 1)
        c = 1;
    gsl_integration_workspace *w = gsl_integration_workspace_alloc(200);
    if (!w)
        return t; /* out of memory: the larger, conservative quantile */
    double lo = 0, hi = t; /* coverage grows with q; at q = t it is at least 95% */
    for (int i = 0; i < 50; i++) {
        double mid = 0.5 * (lo + hi);
        if (coverage(mid, c, nu, w) < 0.95)
            lo = mid;
        else
            hi = mid;
    }
    gsl_integration_workspace_free(w);
    return hi;
}

/* ---- the summary ---- */

/* Fill se, the interval and the kind from the mean, the standard error of the spread
 * alone, se_s = s / sqrt(F) (computed by the caller in long double, as it always was),
 * the within-filter variance w2 (0: exact rates) and the model's between-filter
 * variance (stats.h). */
static void interval(stats_summary_t *out, double se_s, double w2, uint64_t F, double v_model)
{
    const double mean = out->rate, nu = (double)(F - 1), s2 = se_s * se_s * (double)F;
    out->stderr_spread = se_s;
    out->stderr_within = sqrt(w2 / (double)F);
    if (!(w2 > 0)) { /* exact rates: the spread is all there is */
        out->kind = STATS_EXACT;
        out->stderr_ = se_s > 0 || !(mean > 0) ? se_s : sqrt(v_model / (double)F);
        double q = gsl_cdf_tdist_Pinv(0.975, nu);
        out->ci_low = fmax(0.0, mean - q * out->stderr_);
        out->ci_high = mean + q * out->stderr_;
        return;
    }
    double se_w = sqrt(w2 / (double)F);
    if (v_model <= STATS_NEGLIGIBLE * w2 && nu * s2 / w2 <= gsl_cdf_chisq_Pinv(0.999, nu)) {
        out->kind = STATS_BINOMIAL;
        out->stderr_ = se_w;
        out->ci_low = fmax(0.0, mean - Z95 * out->stderr_);
        out->ci_high = mean + Z95 * out->stderr_;
        return;
    }
    out->kind = STATS_SPREAD;
    out->stderr_ = fmax(se_s, se_w);
    /* c = w2 / tau^2 estimated from an upper 75% confidence bound of tau^2 = E s^2, so
     * that a spread that came out small does not also shrink the quantile. */
    double q = gsl_cdf_tdist_Pinv(0.975, nu);
    if (F >= STATS_MIN_SPREAD_FILTERS)
        q = stats_quantile(fmin(1, w2 * gsl_cdf_chisq_Pinv(0.25, nu) / (nu * s2)), nu);
    out->ci_low = fmax(0.0, mean - q * out->stderr_);
    out->ci_high = mean + q * out->stderr_;
}

int stats_trusted(const stats_summary_t *s, double target, int one_filter)
{
    if (s->filters >= STATS_MIN_SPREAD_FILTERS)
        return 1;
    return !one_filter && (s->kind == STATS_BINOMIAL || stats_stderr_upper(s) <= target);
}

int stats_summarize(const uint64_t *c, uint64_t F, uint64_t L, double v_model,
                    stats_summary_t *out)
{
    if (F < 2 || L == 0)
        return -1;
    u128 sum = 0, sumsq = 0;
    for (uint64_t f = 0; f < F; f++) {
        sum += c[f];
        sumsq += (u128)c[f] * c[f];
    }
    /* Sample variance of the rates c_f / L, from exact integer sums: (F sum c^2 -
     * (sum c)^2) / (F (F - 1) L^2), computed in 128 bits first where it fits, which it
     * does for every run this program can make in a day. */
    u128 fs = (u128)F * sumsq, s2c = sum * sum;
    long double var_c = (long double)(fs - s2c) / ((long double)F * (long double)(F - 1));
    double se_s = (double)(sqrtl(var_c / (long double)F) / (long double)L);
    return stats_from_counts(F, L, (uint64_t)sum, se_s, v_model, out);
}

int stats_from_counts(uint64_t F, uint64_t L, uint64_t fp, double se_s, double v_model,
                      stats_summary_t *out)
{
    if (F < 2 || L == 0)
        return -1;
    long double FL = (long double)F * (long double)L;
    *out = (stats_summary_t){.filters = F, .lookups = F * L, .false_positives = fp,
                             .rate = (double)((long double)fp / FL)};
    if (fp == 0) { /* none: the rate is small, not 0 */
        out->kind = STATS_BINOMIAL;
        out->ci_high = (double)fminl(-logl(0.025L) / FL, 1); /* below 4 lookups: 1 */
        return 0;
    }
    if ((long double)fp == FL) { /* all: the rate is near 1, not 1 (a saturated filter) */
        out->kind = STATS_BINOMIAL;
        out->ci_low = (double)fmaxl(1 + logl(0.025L) / FL, 0);
        out->ci_high = 1;
        return 0;
    }
    double p = out->rate, w2 = p * (1 - p) / (double)L;
    interval(out, se_s, w2, F, v_model);
    if (out->kind == STATS_BINOMIAL) { /* Wilson's score interval of fp out of F L */
        double N = (double)FL, x = (double)fp, z2 = Z95 * Z95;
        double centre = (x + z2 / 2) / (N + z2);
        double half = Z95 / (N + z2) * sqrt(x * (N - x) / N + z2 / 4);
        out->ci_low = fmax(0.0, centre - half);
        out->ci_high = centre + half;
    }
    return 0;
}

int stats_summarize_rates(const double *x, const double *within, uint64_t F, double v_model,
                          stats_summary_t *out)
{
    if (F < 2)
        return -1;
    long double sum = 0, mean, ss = 0, win = 0;
    for (uint64_t f = 0; f < F; f++) {
        sum += x[f];
        win += within ? within[f] : 0;
    }
    mean = sum / (long double)F;
    for (uint64_t f = 0; f < F; f++)
        ss += (x[f] - mean) * (x[f] - mean); /* two passes: no cancellation */
    *out = (stats_summary_t){.filters = F, .rate = (double)mean};
    interval(out, (double)sqrtl(ss / (long double)(F - 1) / (long double)F),
             (double)(win / (long double)F), F, v_model);
    return 0;
}

double stats_stderr_upper(const stats_summary_t *s)
{
    double nu = (double)(s->filters - 1);
    double spread = s->stderr_spread * sqrt(nu / gsl_cdf_chisq_Pinv(0.05, nu));
    return fmax(spread, s->stderr_within);
}
