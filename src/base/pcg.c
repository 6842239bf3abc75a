/* pcg.c - the out-of-line parts of the PCG32 generator: jump-ahead and the per-unit
 * state derivation. See pcg.h for references. */
#include "base/pcg.h"

/* Brown's algorithm: an LCG step is x -> a x + c; applying it delta times is
 * x -> A x + C with A = a^delta and C = c (a^delta - 1)/(a - 1), both built by repeated
 * squaring of the step over the bits of delta. All arithmetic is mod 2^64, which is the
 * LCG's own modulus, so no division is needed. O(log delta). */
void pcg32_advance(pcg32_t *g, uint64_t delta)
{
    uint64_t cur_mult = PCG32_MULT, cur_plus = g->inc;
    uint64_t acc_mult = 1, acc_plus = 0;
    while (delta > 0) {
        if (delta & 1) {
            acc_mult *= cur_mult;
            acc_plus = acc_plus * cur_mult + cur_plus;
        }
        cur_plus = (cur_mult + 1) * cur_plus;
        cur_mult *= cur_mult;
        delta >>= 1;
    }
    g->state = acc_mult * g->state + acc_plus;
}

void pcg32_unit(pcg32_t *g, uint64_t seed, uint64_t a, uint64_t b)
{
    /* Distinct odd constants keep (seed, a, b) from colliding with permutations of it. */
    uint64_t h = pcg_mix64(seed ^ UINT64_C(0x6a09e667f3bcc909));
    h = pcg_mix64(h ^ (a + UINT64_C(0xbb67ae8584caa73b)));
    h = pcg_mix64(h ^ (b + UINT64_C(0x3c6ef372fe94f82b)));
    pcg32_seed(g, h, pcg_mix64(h ^ UINT64_C(0xa54ff53a5f1d36f1)));
}

void pcg32_subunit(pcg32_t *g, const pcg32_t *parent, uint64_t c)
{
    uint64_t h = pcg_mix64(parent->state ^ UINT64_C(0x510e527fade682d1));
    h = pcg_mix64(h ^ (parent->inc + UINT64_C(0x9b05688c2b3e6c1f)));
    h = pcg_mix64(h ^ (c + UINT64_C(0x1f83d9abfb41bd6b)));
    pcg32_seed(g, h, pcg_mix64(h ^ UINT64_C(0x5be0cd19137e2179)));
}
