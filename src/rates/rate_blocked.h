/* rate_blocked.h - false-positive rates of blocked Bloom filters (docs/model.md,
 * "Reference rates"): exact mixtures over the load of the block a lookup falls in, and
 * the approximations that libraries and papers use.
 *
 * A blocked filter splits its m bits into z = m/B blocks of B bits; a key picks one
 * block uniformly and sets all its bits there. A lookup's block holds L stored keys,
 * L ~ Binomial(n, 1/z), independent of which of the block's bits the lookup tests, so
 *   rate = sum_L P(L) inner(L)
 * with inner(L) the rate of one block holding L keys:
 *   blocked      k independent uniform positions in the block: inner(L) =
 *                exact(B, L, k) of rate.h, E[(X/B)^k] (Putze, Sanders, Singler, "Cache-,
 *                Hash- and Space-Efficient Bloom Filters", WEA 2007, with ideal hashes);
 *   split-block  the block is k words of w = B/k bits, one uniform bit per word:
 *                inner(L) = (1 - (1 - 1/w)^L)^k, exactly (the words fill independently).
 * The sums run outward from the mode of L and stop once the bound on what is left (a
 * geometric series, since P(L +- 1)/P(L) shrinks away from the mode, times the largest
 * inner rate on that side) is below RATE_BLOCKED_RTOL of the sum so far; binomial and
 * Poisson probabilities at the mode come from Loader's saddle-point expansions
 * (C. Loader, "Fast and Accurate Computation of Binomial Probabilities", 2000), which
 * keep full relative precision for any n. Pure; thread-safe.
 */
#ifndef BLOOMSIM_RATE_BLOCKED_H
#define BLOOMSIM_RATE_BLOCKED_H

#include <stdint.h>

/* Each side of a sum stops when what it leaves out is provably below this fraction of
 * the sum (so at most twice this in all). The inner rates themselves are as accurate as
 * rate_exact's (1e-9 relative by the moment form's own bound, rate.h). */
#define RATE_BLOCKED_RTOL 1e-15
/* At most this many terms (a load distribution wider than this is refused). */
#define RATE_BLOCKED_MAX_TERMS 10000000

/* Exact rate of `blocked`: m a multiple of B, 1 <= B <= 2^18 (exact by rate_exact), any
 * n, k >= 1. Writes *out and returns RATE_OK, else RATE_EDOM (or RATE_ENOMEM). */
int rate_blocked_exact(uint64_t m, uint64_t B, uint64_t n, unsigned k, double *out);

/* Exact rate of `split-block`: m a multiple of B, B a multiple of k, k >= 1, any n.
 * Writes *out and returns RATE_OK, else RATE_EDOM. */
int rate_split_block_exact(uint64_t m, uint64_t B, uint64_t n, unsigned k, double *out);

/* Putze et al.'s equation 3, as Kudu's block_bloom_filter.cc and the Parquet sizing
 * literature use it: the load Poisson with mean lambda = B/b (b bits per key, many
 * blocks) and the block's rate by the finite formula, (1 - (1 - 1/B)^{k i})^k for
 * blocked, (1 - (1 - 1/w)^i)^k for split-block (then exact given the load). NaN outside
 * B >= 1, b > 0, k >= 1 (split: B a multiple of k). */
double rate_blocked_poisson(uint64_t B, double b, unsigned k);
double rate_split_block_poisson(uint64_t B, double b, unsigned k);

/* RocksDB's BloomMath::CacheLocalFpRate (util/bloom_impl.h): with K = B/b keys per block
 * and s = sqrt(K), the mean of the standard formula (1 - e^{-k/c})^k at c = B/(K + s)
 * and c = B/(K - s), "one standard deviation above and below the mean bucket
 * occupancy". RocksDB says of it: validated only for warnings and user feedback. NaN
 * when K <= 1 (the lower occupancy would be empty) or k == 0; 1 when b <= 0, as RocksDB. */
double rate_cache_local(double b, unsigned k, uint64_t B);

/* The split-block sizing formula implementations use (Parquet, Arrow, older Impala and
 * Kudu), which ignores the uneven loads: bits per key c = -k / ln(1 - p^{1/k}) for a
 * target p, i.e. (1 - e^{-k/c})^k = p. NaN unless 0 < p < 1 and k >= 1. */
double rate_split_block_formula_bpk(double p, unsigned k);

#endif
