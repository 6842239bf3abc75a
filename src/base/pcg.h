/* pcg.h - the PCG32 generator (XSH-RR output, 64-bit LCG state), unbiased bounded
 * draws, jump-ahead, and the per-unit state derivation every simulation uses.
 *
 * References:
 *   M. E. O'Neill, "PCG: A Family of Simple Fast Space-Efficient Statistically Good
 *     Algorithms for Random Number Generation", HMC-CS-2014-0905 (2014). The stepping,
 *     seeding and output function below are pcg32_random_r / pcg32_srandom_r of the
 *     reference library pcg-c; tests/test_pcg.c reproduces its published check output.
 *   D. Lemire, "Fast Random Integer Generation in an Interval", ACM TOMACS 29(1), 2019:
 *     the multiply-shift bounded draw with rejection.
 *   F. Brown, "Random Number Generation with Arbitrary Stride", Trans. Am. Nucl. Soc. 71
 *     (1994): the O(log n) jump-ahead of an LCG.
 *   G. Steele, D. Lea, C. Flood, "Fast Splittable Pseudorandom Number Generators",
 *     OOPSLA 2014: the splitmix64 finalizer used to mix (seed, unit) into a state.
 *
 * Everything here works on a caller-owned pcg32_t; there is no global state, so any
 * number of threads may each drive their own generator.
 */
#ifndef BLOOMSIM_PCG_H
#define BLOOMSIM_PCG_H

#include <stdint.h>

__extension__ typedef unsigned __int128 pcg_u128;

typedef struct pcg32 {
    uint64_t state; /* LCG state; the output is a permutation of the old state */
    uint64_t inc;   /* stream selector, always odd */
} pcg32_t;

#define PCG32_MULT UINT64_C(6364136223846793005)

/* The draws below are in every probe loop; gcc's inlining budget for a file as big as
 * the scheme files would otherwise leave some of them out of line (20% of lookup speed). */
#define PCG_HOT static inline __attribute__((always_inline))

/* One step: advance the LCG, return XSH-RR of the previous state (the reference
 * computes the output from the old state so the multiply and the permutation overlap). */
PCG_HOT uint32_t pcg32_next(pcg32_t *g)
{
    uint64_t old = g->state;
    g->state = old * PCG32_MULT + g->inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18) ^ old) >> 27);
    uint32_t rot = (uint32_t)(old >> 59);
    return (xorshifted >> rot) | (xorshifted << ((-rot) & 31));
}

/* Seed as pcg32_srandom_r does: stream from initseq, then mix initstate in between
 * two steps. pcg32_seed(g, 42, 54) gives 0xa15c02b7 first (pcg-c check-pcg32.out). */
static inline void pcg32_seed(pcg32_t *g, uint64_t initstate, uint64_t initseq)
{
    g->state = 0;
    g->inc = (initseq << 1) | 1;
    (void)pcg32_next(g);
    g->state += initstate;
    (void)pcg32_next(g);
}

/* 64 uniform bits from two consecutive outputs (first output in the high half). */
PCG_HOT uint64_t pcg32_next64(pcg32_t *g)
{
    uint64_t hi = pcg32_next(g);
    return (hi << 32) | pcg32_next(g);
}

/* Unbiased draw on [0, bound), 0 < bound <= 2^32, by Lemire's multiply-shift.
 * x * bound spans [0, 2^32 * bound); its high word is the result. Each result value
 * owns floor(2^32/bound) or that plus one of the 2^32 inputs; rejecting products whose
 * low word is below t = 2^32 mod bound leaves exactly floor(2^32/bound) per value.
 * 2^32 mod bound equals (2^32 - bound) mod bound, which is (-bound) % bound in 32-bit
 * unsigned arithmetic. The division runs only when low < bound, i.e. with probability
 * bound/2^32, so for the sizes here it is almost never paid. */
PCG_HOT uint32_t pcg32_below32(pcg32_t *g, uint32_t bound)
{
    uint64_t prod = (uint64_t)pcg32_next(g) * bound;
    uint32_t low = (uint32_t)prod;
    if (low < bound) {
        uint32_t t = (uint32_t)(-bound) % bound;
        while (low < t) {
            prod = (uint64_t)pcg32_next(g) * bound;
            low = (uint32_t)prod;
        }
    }
    return (uint32_t)(prod >> 32);
}

/* Unbiased draw on [0, bound) for any 0 < bound <= 2^64 - 1; the same argument in
 * 64x64->128-bit arithmetic past 2^32. The size test is perfectly predictable in a
 * loop over one filter. */
PCG_HOT uint64_t pcg32_below(pcg32_t *g, uint64_t bound)
{
    if (bound <= UINT64_C(0xffffffff))
        return pcg32_below32(g, (uint32_t)bound);
    if (bound == UINT64_C(0x100000000))
        return pcg32_next(g);
    pcg_u128 prod = (pcg_u128)pcg32_next64(g) * bound;
    uint64_t low = (uint64_t)prod;
    if (low < bound) {
        uint64_t t = (-bound) % bound;
        while (low < t) {
            prod = (pcg_u128)pcg32_next64(g) * bound;
            low = (uint64_t)prod;
        }
    }
    return (uint64_t)(prod >> 64);
}

/* splitmix64's finalizer: a bijection on 64-bit words with full avalanche. */
static inline uint64_t pcg_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* Jump the generator ahead by delta steps (delta = 2^64 - d goes back d steps). */
void pcg32_advance(pcg32_t *g, uint64_t delta);

/* The generator of unit (a, b) of a run with this seed: e.g. a = row, b = filter.
 * State and stream both come from chained mixes of (seed, a, b), so neighbouring units
 * get unrelated states and unrelated streams (never consecutive stream numbers of one
 * seed, whose outputs are known to correlate). Pure function of its arguments. */
void pcg32_unit(pcg32_t *g, uint64_t seed, uint64_t a, uint64_t b);

/* The generator of part c of a unit whose work is split (a big filter's chunks of keys
 * or lookups): derived from the unit's generator `parent` (untouched) and c alone, by
 * the same chained mixes. Pure function of its arguments. */
void pcg32_subunit(pcg32_t *g, const pcg32_t *parent, uint64_t c);

#endif
