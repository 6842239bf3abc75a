/* rate_blocked.c - see rate_blocked.h. */
#include "rates/rate_blocked.h"

#include <math.h>
#include <stddef.h>

#include "rates/rate.h"

#define TWO_PI 6.28318530717958647692528676655900577

/* ---- probabilities at the mode (Loader 2000) ---- */

/* stirlerr(x) = ln x! - ln(sqrt(2 pi x) (x/e)^x), the error of Stirling's formula, for
 * whole x >= 1: directly in long double for small x (no cancellation worth the name
 * there), by its asymptotic series beyond 15, where five terms are exact to double. */
static double stirlerr(double x)
{
    if (x <= 15) {
        long double lx = x;
        return (double)(lgammal(lx + 1) - (lx + 0.5L) * logl(lx) + lx -
                        0.5L * logl((long double)TWO_PI));
    }
    const double s0 = 1.0 / 12, s1 = 1.0 / 360, s2 = 1.0 / 1260, s3 = 1.0 / 1680,
                 s4 = 1.0 / 1188;
    double xx = x * x;
    return (s0 - (s1 - (s2 - (s3 - s4 / xx) / xx) / xx) / xx) / x;
}

/* bd0(x, np) = x ln(x/np) + np - x, the deviance term, without cancellation when x is
 * near np (a series in v = (x - np)/(x + np)). */
static double bd0(double x, double np)
{
    if (fabs(x - np) < 0.1 * (x + np)) {
        double v = (x - np) / (x + np), s = (x - np) * v, ej = 2 * x * v;
        for (int j = 1; j < 1000; j++) {
            ej *= v * v;
            double s1 = s + ej / (2 * j + 1);
            if (s1 == s)
                return s;
            s = s1;
        }
        return s;
    }
    return x * log(x / np) + np - x;
}

/* P(L = x) for L ~ Binomial(n, p), 0 < p < 1. */
static double binom_pmf(double x, double n, double p)
{
    double q = 1 - p;
    if (x == 0)
        return exp(n * log1p(-p));
    if (x == n)
        return exp(n * log(p));
    double lc = stirlerr(n) - stirlerr(x) - stirlerr(n - x) - bd0(x, n * p) - bd0(n - x, n * q);
    return exp(lc) * sqrt(n / (TWO_PI * x * (n - x)));
}

/* P(L = x) for L ~ Poisson(lambda), lambda > 0. */
static double pois_pmf(double x, double lambda)
{
    if (x == 0)
        return exp(-lambda);
    return exp(-stirlerr(x) - bd0(x, lambda)) / sqrt(TWO_PI * x);
}

/* ---- the mixture ---- */

/* The load distribution: Binomial(n, p) (poisson = 0) or Poisson(lambda). */
typedef struct load {
    int poisson;
    double n, p, lambda;
} load_t;

/* P(L + 1) / P(L) and P(L - 1) / P(L). */
static double ratio_up(const load_t *d, double L)
{
    return d->poisson ? d->lambda / (L + 1) : (d->n - L) / (L + 1) * (d->p / (1 - d->p));
}
static double ratio_down(const load_t *d, double L)
{
    return d->poisson ? L / d->lambda : L / (d->n - L + 1) * ((1 - d->p) / d->p);
}

/* inner(L): the rate of one block holding L keys; increasing in L, at most 1. Returns
 * RATE_OK or an error. */
typedef int (*inner_fn)(uint64_t L, const void *ctx, double *out);

/* sum_L P(L) inner(L), walking out from the mode. Upward, what is left is at most
 * P(L) r / (1 - r) (r = P(L+1)/P(L) < 1, shrinking further out) times 1; downward, at
 * most P(L) r / (1 - r) times inner(L). Each side stops when that is below
 * RATE_BLOCKED_RTOL of the sum so far (or below 1e-300). */
static int mixture(const load_t *d, inner_fn inner, const void *ctx, double *out)
{
    double mode = d->poisson ? floor(d->lambda) : floor((d->n + 1) * d->p);
    if (!d->poisson && mode > d->n)
        mode = d->n;
    double p0 = d->poisson ? pois_pmf(mode, d->lambda) : binom_pmf(mode, d->n, d->p);
    double x, sum = 0;
    long terms = 0;
    int st = inner((uint64_t)mode, ctx, &x);
    if (st != RATE_OK)
        return st;
    sum = p0 * x;
    /* Upward. */
    double P = p0;
    for (double L = mode; d->poisson || L < d->n; L++) {
        double r = ratio_up(d, L);
        P *= r;
        if ((st = inner((uint64_t)(L + 1), ctx, &x)) != RATE_OK)
            return st;
        sum += P * x;
        double r2 = ratio_up(d, L + 1);
        double left = r2 < 1 ? P * r2 / (1 - r2) : INFINITY;
        if (left <= RATE_BLOCKED_RTOL * sum || left < 1e-300)
            break;
        if (++terms > RATE_BLOCKED_MAX_TERMS)
            return RATE_EDOM;
    }
    /* Downward. */
    P = p0;
    for (double L = mode; L > 0; L--) {
        P *= ratio_down(d, L);
        if ((st = inner((uint64_t)(L - 1), ctx, &x)) != RATE_OK)
            return st;
        sum += P * x;
        double r2 = ratio_down(d, L - 1);
        double left = r2 < 1 ? P * r2 / (1 - r2) * x : INFINITY;
        if (left <= RATE_BLOCKED_RTOL * sum || left < 1e-300 || x == 0)
            break;
        if (++terms > RATE_BLOCKED_MAX_TERMS)
            return RATE_EDOM;
    }
    *out = sum;
    return RATE_OK;
}

typedef struct block_ctx {
    uint64_t B, w;
    unsigned k;
    int finite_formula; /* blocked inner by the finite formula (Putze), not exactly */
} block_ctx_t;

static int inner_blocked(uint64_t L, const void *ctx, double *out)
{
    const block_ctx_t *c = ctx;
    if (c->finite_formula) {
        *out = rate_formula_finite(c->B, L, c->k);
        return RATE_OK;
    }
    return rate_exact(c->B, L, c->k, out);
}

static int inner_split(uint64_t L, const void *ctx, double *out)
{
    const block_ctx_t *c = ctx;
    *out = rate_partitioned_exact(c->w, L, c->k);
    return RATE_OK;
}

/* The load of a lookup's block in m bits of blocks of B: Binomial(n, B/m); with a
 * single block, every key is there. */
static int block_load(uint64_t m, uint64_t B, uint64_t n, load_t *d)
{
    if (B == 0 || m < B || m % B != 0)
        return RATE_EDOM;
    *d = (load_t){.n = (double)n, .p = (double)B / (double)m};
    return RATE_OK;
}

int rate_blocked_exact(uint64_t m, uint64_t B, uint64_t n, unsigned k, double *out)
{
    load_t d;
    if (k == 0 || B > RATE_DP_M_MAX || block_load(m, B, n, &d) != RATE_OK)
        return RATE_EDOM;
    block_ctx_t c = {.B = B, .k = k};
    if (m == B || n == 0)
        return inner_blocked(n, &c, out);
    return mixture(&d, inner_blocked, &c, out);
}

int rate_split_block_exact(uint64_t m, uint64_t B, uint64_t n, unsigned k, double *out)
{
    load_t d;
    if (k == 0 || B % k != 0 || block_load(m, B, n, &d) != RATE_OK)
        return RATE_EDOM;
    block_ctx_t c = {.B = B, .w = B / k, .k = k};
    if (m == B || n == 0)
        return inner_split(n, &c, out);
    return mixture(&d, inner_split, &c, out);
}

static double poisson_mixture(uint64_t B, double b, unsigned k, int split)
{
    if (B == 0 || !(b > 0) || k == 0 || (split && B % k != 0))
        return NAN;
    load_t d = {.poisson = 1, .lambda = (double)B / b};
    block_ctx_t c = {.B = B, .w = B / k, .k = k, .finite_formula = 1};
    double x;
    return mixture(&d, split ? inner_split : inner_blocked, &c, &x) == RATE_OK ? x : NAN;
}

double rate_blocked_poisson(uint64_t B, double b, unsigned k)
{
    return poisson_mixture(B, b, k, 0);
}

double rate_split_block_poisson(uint64_t B, double b, unsigned k)
{
    return poisson_mixture(B, b, k, 1);
}

/* RocksDB's StandardFpRate(c, k) = (1 - e^{-k/c})^k. */
static double standard_fp(double c, unsigned k)
{
    return pow(-expm1(-(double)k / c), (double)k);
}

double rate_cache_local(double b, unsigned k, uint64_t B)
{
    if (k == 0)
        return NAN;
    if (b <= 0)
        return 1.0;
    double K = (double)B / b, s = sqrt(K);
    if (K <= 1)
        return NAN;
    return (standard_fp((double)B / (K + s), k) + standard_fp((double)B / (K - s), k)) / 2;
}

double rate_split_block_formula_bpk(double p, unsigned k)
{
    if (!(p > 0 && p < 1) || k == 0)
        return NAN;
    return -(double)k / log1p(-pow(p, 1.0 / k));
}
