/* rate.h - reference false-positive rates of a Bloom filter (docs/model.md, "Reference rates").
 *
 * The model: m bits, n keys, k probes per key, every probe an independent uniform draw
 * on [0, m) (the `independent` scheme). A lookup of an absent key is a false positive
 * when its k probes all hit set bits.
 *
 *   rate_formula          (1 - e^{-kn/m})^k               Bloom (1970), the textbook rate
 *   rate_formula_finite   (1 - (1 - 1/m)^{kn})^k          the same argument without the limit
 *   rate_exact*           E[(X/m)^k], X = set bits after kn throws   (Bose et al. 2008)
 *   rate_partitioned_exact (1 - (1 - 1/w)^n)^k            k slices of w bits, one probe each
 *
 * Always exact >= formula_finite >= formula (Jensen; see rate.c). All functions are pure
 * and thread-safe; none prints, exits or keeps state. The header needs no quadmath.
 */
#ifndef BLOOMSIM_RATE_H
#define BLOOMSIM_RATE_H

#include <stdint.h>

enum {
    RATE_OK = 0,
    RATE_EDOM = 1,  /* arguments outside the function's domain */
    RATE_ENOMEM = 2 /* rate_exact_dp / rate_exact only: the O(m) work array was not allocated */
};

/* Largest m the moment form accepts (docs/model.md: any m up to 2^40). */
#define RATE_MOMENT_M_MAX (UINT64_C(1) << 40)
/* Largest k the moment form accepts: at the optimal fill (kn/m = ln 2) its alternating
 * sums amplify rounding by about 3^k, and the error bound 3^k (k + 50) 2^-113 is
 * 7.5e-10 < RATE_MOMENT_RTOL at k = 48 but 2.3e-9 at k = 49. Derivation in rate.c. */
#define RATE_MOMENT_K_MAX 48u
/* The moment form returns RATE_EDOM unless its computed rounding-error bound is at most
 * this fraction of the result. */
#define RATE_MOMENT_RTOL 1e-9
/* Largest m the dynamic program accepts: its cost grows like m^1.5, about 0.6 s per call
 * at 2^18 and the optimal fill, 6 s for a nearly full filter (see rate.c). */
#define RATE_DP_M_MAX (UINT64_C(1) << 18)
/* The dynamic program drops states whose probability falls below this (see rate.c). */
#define RATE_DP_EPS 1e-300

/* Textbook rate (1 - e^{-kn/m})^k. Any m >= 1, n >= 0, k >= 1; NaN when m == 0 or k == 0.
 * A few ulps times k. */
double rate_formula(uint64_t m, uint64_t n, unsigned k);

/* (1 - (1 - 1/m)^{kn})^k via log1p/expm1, accurate for m up to 2^40 and beyond.
 * Any m >= 1, n >= 0, k >= 1; NaN when m == 0 or k == 0. */
double rate_formula_finite(uint64_t m, uint64_t n, unsigned k);

/* Exact E[(X/m)^k] by a dynamic program over X with pruned tails.
 * Domain 1 <= m <= RATE_DP_M_MAX, k >= 1, any n. Writes *out and returns RATE_OK;
 * RATE_EDOM outside the domain or when out is NULL; RATE_ENOMEM when short of memory
 * (out untouched). Relative error below 7 n k 2^-53 (3e-11 at m = 65536, b = 20; ~1e-16
 * observed) plus the pruned mass, < 1e-290 absolute. */
int rate_exact_dp(uint64_t m, uint64_t n, unsigned k, double *out);

/* Exact E[(X/m)^k] by the moment form of docs/model.md in __float128.
 * Domain 1 <= m <= RATE_MOMENT_M_MAX, 1 <= k <= RATE_MOMENT_K_MAX, any n, and the
 * computed rounding-error bound at most RATE_MOMENT_RTOL relative. Writes *out and
 * returns RATE_OK, else RATE_EDOM (out untouched). Tens of microseconds per call. */
int rate_exact_moment(uint64_t m, uint64_t n, unsigned k, double *out);

/* The CSV's `exact`: the moment form where it is in its domain (m <= 2^40, k <= 48, well
 * conditioned), else the dynamic program (m <= 2^18), else RATE_EDOM (or RATE_ENOMEM
 * from the dynamic program). */
int rate_exact(uint64_t m, uint64_t n, unsigned k, double *out);

/* ---- models of schemes that are not the uniform model (the CSV's `model` column) ----
 * Each predicts a scheme's rate from one feature of its index arithmetic, keeping the
 * rest of the uniform model; the measured rate is what counts, and where it departs
 * from the model the assumption named here is why. */

/* Positions c mod m, with c uniform on [0, range): position j is hit with probability
 * q_j = #{c < range : c mod m = j} / range, which takes two values (j < range mod m gets
 * one more c; when range < m, positions >= range are never hit). Assumes the kn probes
 * of the stored keys and the k probes of a lookup are independent draws from q, so a
 * bit is set with probability 1 - (1 - q_j)^{kn} and
 *   rate = ( sum_j q_j (1 - (1 - q_j)^{kn}) )^k.
 * Guava's arithmetic (seed 000): range 2^31 for guava32 (its ~c flip folds the 32-bit
 * value onto [0, 2^31)), 2^32 for guava32u, 2^63 for guava64. The probes of one key are
 * in fact hash1 + i hash2, not independent; the model ignores that. Any range >= 1,
 * m >= 1, k >= 1; NaN otherwise. */
double rate_model_mod(uint64_t range, uint64_t m, uint64_t n, unsigned k);

/* A design whose k positions all come from one hash of `hbits` bits (1..63): two keys
 * with equal hashes set and test the same bits. With H = 2^hbits, the stored keys take
 * D = H (1 - (1 - 1/H)^n) distinct hash values on average; a lookup's hash is one of
 * them with probability c = D / H, and is then a false positive for certain; otherwise
 * its probes are independent of the filter's, which holds the bits of D distinct keys:
 *   rate = c + (1 - c) exact(m, round(D), k)
 * (exact by rate_exact, the formula where that has no answer). Assumes D is at its mean
 * (its standard deviation is close to n/sqrt(2H): about 1,050 at n = 10^8, H = 2^32;
 * negligible) and the positions of distinct hashes independent and uniform, as
 * hash32's are. Any m >= 1, k >= 1; NaN otherwise. */
double rate_model_hash(unsigned hbits, uint64_t m, uint64_t n, unsigned k);

/* The variance between filters of the rate of a filter of independent probes, at m bits
 * and t = n k throws, for a filter whose rate is about p: the delta method on p_f =
 * (X/m)^k, Var(p_f) = (k p / f)^2 Var(X) / m^2, f = E[X]/m, with the exact occupancy
 * moments E[X] = m (1 - a), Var(X) = m (m - 1) b + m a - m^2 a^2, a = (1 - 1/m)^t,
 * b = (1 - 2/m)^t (computed without cancellation). About 0.31 k^2 p^2 / m at the
 * optimal fill. stats.h uses it as the model of a row's between-filter variance, for
 * every scheme: a filter's rate varies at least with its fill. m >= 2, k >= 1; 0 else. */
double rate_between_var(uint64_t m, uint64_t n, unsigned k, double p);

/* Partitioned scheme's exact rate: k slices of w bits, one probe per key per slice,
 * (1 - (1 - 1/w)^n)^k. Any w >= 1, n >= 0, k >= 1; NaN when w == 0 or k == 0. */
double rate_partitioned_exact(uint64_t w, uint64_t n, unsigned k);

#endif
