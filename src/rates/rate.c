/* rate.c - reference false-positive rates of a Bloom filter (docs/model.md, "Reference rates").
 *
 * Model: m bits, n keys, k probes per key, each probe an independent uniform draw on
 * [0, m); a lookup of an absent key is a false positive when its k probes hit set bits.
 * t = n k is the number of throws that filled the array.
 *
 * References
 *  - B. H. Bloom, "Space/time trade-offs in hash coding with allowable errors",
 *    CACM 13(7), 1970: the rate (1 - e^{-kn/m})^k, which treats the k tested bits as
 *    independent with P(set) = 1 - (1 - 1/m)^{kn} ~ 1 - e^{-kn/m}.
 *  - P. Bose, H. Guo, E. Kranakis, A. Maheshwari, P. Morin, J. Morrison, M. Smid, Y. Tang,
 *    "On the false-positive rate of Bloom filters", Information Processing Letters
 *    108(4), 2008: the bits are not independent; the exact rate is E[(X/m)^k] with X the
 *    number of set bits, given by Stirling numbers of the second kind, and it is
 *    strictly above Bloom's formula.
 *  - L. H. Harper, "Stirling behavior is asymptotically normal", Ann. Math. Stat. 38,
 *    1967: sum_x S(t,x) y^x has real roots only, so x -> S(t,x) is log-concave; used
 *    below to argue that the distribution of X is unimodal.
 *  - Seed article 000, "The Shortcut Has a Floor", section "The formula holds" (see
 *    results/FINDINGS.md): at b = m/n = 20, k = 14 the exact rate is 2.7% above the
 *    formula at m = 1024, 0.7% at 4096, 0.04% at 65536.
 *    tests/test_rate.c prints our values for those points.
 *
 * Ordering, a theorem used as a test: exact >= formula_finite >= formula.
 *  - E[X/m] = 1 - (1 - 1/m)^t = p exactly (linearity), and y -> y^k is convex on [0,1],
 *    so E[(X/m)^k] >= p^k = formula_finite by Jensen (equality iff k = 1 or X constant).
 *  - (1 - 1/m)^t <= e^{-t/m}, so p >= 1 - e^{-t/m} and formula_finite >= formula.
 * And an upper bound: y^k has second derivative <= k(k-1) on [0,1], so by Taylor
 * E[(X/m)^k] <= p^k + k(k-1)/2 Var(X/m); two distinct bits are both empty with
 * probability (1 - 2/m)^t <= (1 - 1/m)^{2t}, so the bit indicators are negatively
 * correlated, Var(X) <= m p (1 - p), and
 *   exact - formula_finite <= k(k-1)/2 * p(1-p)/m.
 *
 * Everything here is pure and thread-safe: no globals, no printing, no exit. Only
 * rate_exact_dp allocates (3 (m + 2) doubles, freed before it returns).
 */
#include "rates/rate.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>

/* __float128 is a GNU extension; __extension__ keeps -Wpedantic quiet about it. */
__extension__ typedef __float128 quad;

/* libquadmath (link -lquadmath). Its header lives in GCC's private include directory,
 * which clang does not search; the prototypes below are the header's own. */
#if defined(__has_include)
#if __has_include(<quadmath.h>)
#include <quadmath.h>
#define RATE_HAVE_QUADMATH_H 1
#endif
#endif
#ifndef RATE_HAVE_QUADMATH_H
quad expq(quad);
quad log1pq(quad);
quad fabsq(quad);
quad ldexpq(quad, int);
#endif

/* (1 - (1 - 1/m)^t)^k, the fill-probability-to-the-k shared by the finite formula and
 * the partitioned rate. (1 - 1/m)^t = exp(t log1p(-1/m)) and 1 - exp(.) = -expm1(.)
 * keep full relative accuracy where 1/m is far below the double epsilon (m = 2^40):
 * a naive pow(1 - 1/m, t) would round 1 - 1/m first and lose 40 of 53 bits.
 * t is a double; rounding it (t > 2^53) perturbs the exponent by a relative 2^-53,
 * no more than the product t * log1p(.) does anyway. */
static double fill_pow(uint64_t m, double t, unsigned k)
{
    if (m == 0 || k == 0)
        return NAN;
    if (t == 0.0)
        return 0.0; /* nothing set; also avoids 0 * log1p(-1) = 0 * -inf for m == 1 */
    if (m == 1)
        return 1.0; /* one bit, set by the first throw */
    double p = -expm1(t * log1p(-1.0 / (double)m));
    return pow(p, (double)k);
}

/* Bloom (1970): (1 - e^{-kn/m})^k. The limit m -> infinity at fixed kn/m of the finite
 * form; models independent bits with P(set) = 1 - e^{-kn/m}. Domain m >= 1, k >= 1,
 * any n (0 gives 0); NaN for m == 0 or k == 0. Accuracy: expm1 and pow are within an
 * ulp, so a few ulps times k; tested against a direct evaluation and the seed's figures
 * (0.82% at b = 10, k = 7). Pure, thread-safe. */
double rate_formula(uint64_t m, uint64_t n, unsigned k)
{
    if (m == 0 || k == 0)
        return NAN;
    double lambda = (double)k * (double)n / (double)m;
    return pow(-expm1(-lambda), (double)k);
}

/* (1 - (1 - 1/m)^{kn})^k: Bloom's argument without the limit. Models k tested bits
 * that are independent, each set with its true marginal probability. Domain m >= 1,
 * k >= 1, any n; NaN for m == 0 or k == 0. Accuracy a few ulps times k (see
 * fill_pow); tested against __float128 at m = 2^40 and as the k = 1 exact rate.
 * Pure, thread-safe. */
double rate_formula_finite(uint64_t m, uint64_t n, unsigned k)
{
    return fill_pow(m, (double)k * (double)n, k);
}

/* Partitioned scheme: slice i has w bits and receives exactly one probe from each of
 * the n keys, so a slice's tested bit is set with probability 1 - (1 - 1/w)^n, and the
 * k slices are filled by disjoint, independent draws: the rate is exactly
 * (1 - (1 - 1/w)^n)^k, no approximation. Domain w >= 1, k >= 1, any n; NaN for
 * w == 0 or k == 0. Accuracy as rate_formula_finite; tested on hand-computed values.
 * Pure, thread-safe. */
double rate_partitioned_exact(uint64_t w, uint64_t n, unsigned k)
{
    return fill_pow(w, (double)n, k);
}

/* Exact E[(X/m)^k] by a dynamic program over X, the number of set bits.
 *
 * Recurrence: before any throw X = 0; a throw sets a new bit with probability
 * (m - x)/m, so after each throw
 *     P'(x) = P(x) x/m + P(x-1) (m - x + 1)/m,
 * and the rate is sum_x P(x) (x/m)^k after t = nk throws. Assumes only the model.
 *
 * Pruning. After each throw the window [lo, hi] of kept states is extended by one at
 * the top, and states with P < RATE_DP_EPS = 1e-300 are dropped from both ends and set
 * to zero. P(X = x) = S(t,x) (m)_x / m^t is log-concave in x (Harper 1967 for S(t,.),
 * (m)_x trivially), so it is unimodal and the small states are exactly the two tails.
 * The error is one-signed and bounded: write the update as a stochastic matrix T; kept
 * mass q obeys q' = T q - d with d >= 0 the dropped states, so P - q = sum_s T^{t-s} d_s
 * >= 0 and its total is the dropped mass D, which bounds the error of E[(X/m)^k] since
 * (x/m)^k <= 1. Each drop removes < EPS; lo only moves up (at most m drops) and hi moves
 * up at most one per throw, so D < (m + 1 + throws) EPS < 1e-290. Relative to the rate
 * this is negligible whenever rate >= p^k (Jensen) is above ~1e-280.
 * The window is ~75 standard deviations of X wide (Gaussian tail e^{-z^2/2} = 1e-300 at
 * z ~ 37); sd(X) <= sqrt(m/4), ~0.28 sqrt(m) at the optimal fill: 3200 states on
 * average over the throws at m = 65536, b = 20.
 *
 * Early exits. Throws only raise X, so the rate never decreases with t, and it can grow
 * by at most the mass below m, P(X < m). Every 64 throws, once state m is reachable,
 * that mass is summed; below 2^-70 the rate is within 2^-70 relative of its final value
 * (it is then above 1 - 2^-70) and the loop stops. This happens after about
 * m (48.5 + ln m) throws, so any n is accepted; nk past 2^64 is treated as 2^64 - 1.
 *
 * Rounding: each update is a sum of two nonnegative products with coefficients rounded
 * once, so every kept P(x) carries relative error <= 3u per throw (u = 2^-53), 3tu in
 * all. Most of it is common to all states (mass drifts by the same factor), and the
 * true total mass is 1 - D, so the result is divided by the computed total: that took
 * the disagreement with the moment form from ~2e-15 to ~1e-16. The absorbing state m
 * gathers increments P(m-1)/m that are tiny next to P(m) ~ 1 when the filter is nearly
 * full; plain addition rounds the same way millions of times (1.4e-13 at m = 4096,
 * kn/m = 40), so it is Kahan-summed. Final sums in long double. Bound: relative error
 * < 7 t 2^-53 + D/rate with t the throws simulated, e.g. 3e-11 at m = 65536, b = 20,
 * k = 14 (45878 throws); observed ~1e-16.
 * Validated against brute-force enumeration (m <= 5) to 1e-12 and against the moment
 * form to 1e-9 over the grid of tests/test_rate.c (observed agreement ~1e-16).
 *
 * Cost O(t w), w the window width (<= m + 1), measured at -O2 on one core: 0.07 s at
 * m = 65536, b = 20 (window ~3200 states); 0.85 s for a nearly full 65536-bit filter.
 * It grows like m^1.5 at a fixed fill, hence RATE_DP_M_MAX = 2^18: 0.6 s at the optimal
 * fill, 6 s when nearly full; 2^20 would take 5 s and 50 s. Memory 3 (m + 2) doubles.
 *
 * Domain 1 <= m <= RATE_DP_M_MAX, k >= 1, any n; RATE_EDOM otherwise or when out is
 * NULL; RATE_ENOMEM when the array cannot be allocated (out untouched in both cases).
 * Pure apart from malloc/free; thread-safe. */
int rate_exact_dp(uint64_t m, uint64_t n, unsigned k, double *out)
{
    if (out == NULL || m == 0 || m > RATE_DP_M_MAX || k == 0)
        return RATE_EDOM;
    if (n == 0) {
        *out = 0.0; /* X = 0 */
        return RATE_OK;
    }
    const uint64_t t = n > UINT64_MAX / k ? UINT64_MAX : n * k;
    const int mi = (int)m; /* m <= 2^18: int indices suffice */

    /* One allocation: P with a leading zero that serves as P(X = -1), so the update of
     * x = 0 needs no branch, and the coefficient tables stay[x] = x/m and
     * rise[x] = (m - x + 1)/m, each correctly rounded once; table loads vectorise where
     * per-element int -> double conversions and divisions are slower. */
    double *buf = calloc(3 * ((size_t)m + 2), sizeof *buf);
    if (buf == NULL)
        return RATE_ENOMEM;
    double *P = buf + 1;
    double *stay = buf + (m + 2);
    double *rise = buf + 2 * (m + 2);
    for (int x = 0; x <= mi; x++) {
        stay[x] = (double)x / (double)m;
        rise[x] = (double)(mi - x + 1) / (double)m;
    }

    int lo = 0, hi = 0;
    double comp = 0.0; /* Kahan compensation of P[m] */
    P[0] = 1.0;
    for (uint64_t s = 0; s < t; s++) {
        int top = hi < mi ? hi + 1 : hi; /* the state X = hi + 1 becomes reachable */
        int x = top;
        if (top == mi) { /* P(m) += P(m-1)/m, compensated */
            double y = P[mi - 1] * rise[mi] - comp;
            double sum = P[mi] + y;
            comp = (sum - P[mi]) - y;
            P[mi] = sum;
            x = mi - 1;
        }
        /* Downwards, so P[x - 1] is still the old value when P[x] is updated; P[lo - 1]
         * is 0 (the leading zero or a dropped state). */
        for (; x >= lo; x--)
            P[x] = P[x] * stay[x] + P[x - 1] * rise[x];
        hi = top;
        while (hi > lo && P[hi] < RATE_DP_EPS) {
            if (hi == mi)
                comp = 0.0;
            P[hi] = 0.0;
            hi--;
        }
        while (lo < hi && P[lo] < RATE_DP_EPS) {
            P[lo] = 0.0;
            lo++;
        }
        if (lo == mi)
            break; /* absorbed: every bit set, nothing changes any more */
        if (hi == mi && (s & 63) == 63) {
            double below = 0.0;
            for (int y = lo; y < mi; y++)
                below += P[y];
            if (below < 0x1p-70)
                break; /* the rate can still rise by < 2^-70 of itself; see above */
        }
    }

    /* (x/m)^k in long double: x/m rounded to double would be amplified k-fold. */
    long double sum = 0.0L, mass = 0.0L;
    for (int x = lo; x <= hi; x++) {
        long double px = x == mi ? (long double)P[x] - (long double)comp : (long double)P[x];
        sum += px * powl((long double)x / (long double)m, (long double)k);
        mass += px;
    }
    free(buf);
    *out = (double)(sum / mass);
    return RATE_OK;
}

/* Exact E[(X/m)^k] by the moment form (docs/model.md; Bose et al. 2008).
 *
 * Derivation. X = sum_b I_b, I_b = [bit b set]. Expand X^k over k-tuples of bits and
 * group the tuples by their set of distinct bits: S(k,j) (m)_j tuples use exactly j
 * distinct bits, and for each E[prod I] = P(j given bits all set), which by
 * inclusion-exclusion over the bits left empty is sum_i (-1)^i C(j,i) (1 - i/m)^t. So
 *   E[(X/m)^k] = sum_{j=1}^{min(k,m)} S(k,j) (m)_j / m^k
 *                                     * sum_{i=0}^{j} (-1)^i C(j,i) (1 - i/m)^t.
 * Computed in __float128 (113-bit significand, u = 2^-113):
 *   S(k,j)       by S(r,j) = j S(r-1,j) + S(r-1,j-1), positive terms only;
 *   (m)_j / m^k  = prod_{l<j} (1 - l/m) * m^{j-k}, no huge intermediate;
 *   (1 - i/m)^t  = expq(t log1pq(-i/m)), t = nk exact in quad (< 2^70);
 *   C(j,i)       by Pascal's rule, exact (C(48,24) < 2^46).
 *
 * Cancellation, and why RATE_MOMENT_K_MAX = 48. With q = (1 - 1/m)^t the inner sum is
 * ~(1 - q)^j while its terms add up in magnitude to ~(1 + q)^j: rounding is amplified by
 * ((1 + q)/(1 - q))^j, worst at j = k, where the weight (m)_k/m^k ~ 1 dominates for large
 * m. At the optimal fill q = 1/2 this is 3^k; with ~(k + |exponents|) roundings per term
 * the bound below is 3^k (k + c) 2^-113 with c ~ 50 (measured at m = 2^40 and 65536):
 * 7.5e-10 at k = 48, under RATE_MOMENT_RTOL = 1e-9, but 2.3e-9 at k = 49. So k = 48 is
 * the largest k the form can serve at the design point of a filter; the dynamic
 * program takes over above it. Fuller filters (q < 1/2) are better conditioned, emptier
 * ones worse ((1+q)/(1-q) ~ 2m/t when t << m: at kn/m = 0.05 the bound passes only up
 * to k = 14); hence besides the static cap the code carries a first-order bound on
 * its own rounding error,
 *   err <= sum_j w_j [ sum_i C(j,i) e_i (delta_i + (j+1)u) + |I_j| (6k + 6) u ],
 * delta_i = u (4 + |t log1p(-i/m)| (cond_i + 3)) the error of e_i = (1 - i/m)^t with
 * cond_i the condition number of log1p(-x) at x = i/m, and returns RATE_EDOM when
 * err > RATE_MOMENT_RTOL * result. If err bounds |R - exact| and err <= tol R, then
 * the relative error is <= tol/(1 - tol), however wrong R is: a result ruined by
 * cancellation cannot pass. This assumes libquadmath's expq and log1pq are accurate
 * to 2 ulps and neglects second-order terms; against the dynamic program the bound
 * was 10 to 50 times the observed error for k = 44..52, and k <= 22 (b <= 32) agrees
 * to the last bit of the double.
 *
 * Validated against brute-force enumeration (m <= 5) to 1e-12, the dynamic program to
 * 1e-9 on the grid of tests/test_rate.c, and at m = 2^40 against the second-order
 * expansion exact/finite - 1 ~ k(k-1)/2 Var(X)/(m p)^2.
 *
 * Domain 1 <= m <= RATE_MOMENT_M_MAX, 1 <= k <= RATE_MOMENT_K_MAX, any n, error bound
 * as above; RATE_EDOM otherwise or when out is NULL (out then untouched). Cost O(k^2)
 * quad operations and O(k) expq/log1pq: 20-80 us for k = 7..22. No allocation; pure,
 * thread-safe.
 */
int rate_exact_moment(uint64_t m, uint64_t n, unsigned k, double *out)
{
    if (out == NULL || m == 0 || m > RATE_MOMENT_M_MAX || k == 0 || k > RATE_MOMENT_K_MAX)
        return RATE_EDOM;
    if (n == 0) {
        *out = 0.0; /* X = 0; the alternating sums would cancel to exactly 0 */
        return RATE_OK;
    }
    const quad u = ldexpq(1, -113);
    const quad qm = (quad)m;
    const quad t = (quad)n * (quad)k; /* exact: n < 2^64, k < 2^6 */
    const unsigned jmax = m < k ? (unsigned)m : k;

    /* Row k of the Stirling numbers of the second kind, S[j] = S(k, j). */
    quad S[RATE_MOMENT_K_MAX + 1];
    S[0] = 1;
    for (unsigned j = 1; j <= k; j++)
        S[j] = 0;
    for (unsigned r = 1; r <= k; r++) {
        for (unsigned j = r; j >= 1; j--)
            S[j] = (quad)j * S[j] + S[j - 1];
        S[0] = 0;
    }

    /* e[i] = (1 - i/m)^t and its relative error bound de[i]. */
    quad e[RATE_MOMENT_K_MAX + 1], de[RATE_MOMENT_K_MAX + 1];
    e[0] = 1;
    de[0] = 0;
    for (unsigned i = 1; i <= jmax; i++) {
        if ((uint64_t)i == m) {
            e[i] = 0; /* every bit would have to stay empty: impossible once t >= 1 */
            de[i] = 0;
            continue;
        }
        quad x = (quad)i / qm;
        quad L = log1pq(-x);
        quad E = t * L;
        quad cond = x / ((1 - x) * -L); /* |x d/dx log1p(-x) / log1p(-x)| */
        e[i] = expq(E);
        de[i] = u * (4 + fabsq(E) * (cond + 3));
    }

    /* pw[d] = m^{-d}, for the factor m^{j-k} of the weights. */
    quad pw[RATE_MOMENT_K_MAX];
    pw[0] = 1;
    for (unsigned d = 1; d < k; d++)
        pw[d] = pw[d - 1] / qm;

    quad C[RATE_MOMENT_K_MAX + 1]; /* row j of Pascal's triangle */
    C[0] = 1;
    quad ff = 1; /* (m)_j / m^j = prod_{l<j} (1 - l/m) */
    quad R = 0, err = 0;
    for (unsigned j = 1; j <= jmax; j++) {
        C[j] = 0;
        for (unsigned i = j; i >= 1; i--)
            C[i] += C[i - 1];
        ff *= 1 - (quad)(j - 1) / qm;

        quad I = 0, B = 0; /* inner sum and its error bound */
        for (unsigned i = 0; i <= j; i++) {
            quad term = C[i] * e[i];
            I += (i & 1) ? -term : term;
            B += term * (de[i] + (quad)(j + 1) * u);
        }
        quad w = S[j] * ff * pw[k - j];
        R += w * I;
        err += w * (B + fabsq(I) * (quad)(6 * k + 6) * u);
    }

    if (!(R > 0) || err > (quad)RATE_MOMENT_RTOL * R)
        return RATE_EDOM; /* cancellation ate more than the tolerance allows */
    *out = (double)R;
    return RATE_OK;
}

/* The CSV's `exact` (docs/model.md): the moment form where it is in its domain (any m up to
 * 2^40, k <= 48 and well conditioned), else the dynamic program (m <= 2^18), else
 * RATE_EDOM; RATE_ENOMEM passes through from the dynamic program. Accuracy that of the
 * method used: 1e-9 relative or better. Pure, thread-safe. */
int rate_exact(uint64_t m, uint64_t n, unsigned k, double *out)
{
    if (rate_exact_moment(m, n, k, out) == RATE_OK)
        return RATE_OK;
    return rate_exact_dp(m, n, k, out);
}

/* ---- models (rate.h) ---- */

/* count positions, each hit with probability q: their share of sum_j q_j (1-(1-q_j)^t). */
static long double hit_share(long double count, long double q, long double t)
{
    return q > 0 ? count * q * -expm1l(t * log1pl(-q)) : 0;
}

double rate_model_mod(uint64_t range, uint64_t m, uint64_t n, unsigned k)
{
    if (range == 0 || m == 0 || k == 0)
        return NAN;
    long double t = (long double)n * k, R = (long double)range, hit;
    if (range <= m) {
        hit = hit_share(R, 1 / R, t); /* range positions at 1/range, the rest never */
    } else {
        uint64_t per = range / m, extra = range % m; /* extra positions get per + 1 */
        hit = hit_share((long double)extra, (long double)(per + 1) / R, t) +
              hit_share((long double)(m - extra), (long double)per / R, t);
    }
    return (double)powl(hit, k);
}

double rate_model_hash(unsigned hbits, uint64_t m, uint64_t n, unsigned k)
{
    if (hbits < 1 || hbits > 63 || m == 0 || k == 0)
        return NAN;
    long double H = ldexpl(1, (int)hbits);
    long double c = -expm1l((long double)n * log1pl(-1 / H)); /* D / H */
    uint64_t D = (uint64_t)(c * H + 0.5L);
    double rest;
    if (rate_exact(m, D, k, &rest) != RATE_OK)
        rest = rate_formula(m, D, k);
    return (double)(c + (1 - c) * rest);
}

double rate_between_var(uint64_t m, uint64_t n, unsigned k, double p)
{
    if (m < 2 || k == 0 || n == 0)
        return 0;
    const double M = (double)m, t = (double)n * (double)k;
    double la = t * log1p(-1 / M);                    /* ln a */
    double a = exp(la);
    /* b - a^2 = a^2 expm1(t ln((1 - 2/m) / (1 - 1/m)^2)), and (1 - 2/m) / (1 - 1/m)^2 =
     * 1 - 1/(m - 1)^2; a - b = -a expm1(t (ln(1 - 2/m) - ln(1 - 1/m))). */
    double b_minus_a2 = a * a * expm1(t * log1p(-1 / ((M - 1) * (M - 1))));
    double a_minus_b = -a * expm1(t * (log1p(-2 / M) - log1p(-1 / M)));
    double var_x = M * M * b_minus_a2 + M * a_minus_b;
    double f = -expm1(la); /* E[X]/m */
    if (!(var_x > 0) || !(f > 0))
        return 0;
    double d = (double)k * p / f;
    return d * d * var_x / (M * M);
}
