/* parity.c - double-even: double hashing with every stride even, in a power-of-two m,
 * the case seed 003 warns of ("if h2 is even and m is even, every g_i shares the parity
 * of h1, so the probes occupy only half the array"; "if gcd(h2, m) = d > 1, the probes
 * visit a coset of size m/d ... which raises the error rate accordingly"). Every key's
 * probes lie in the parity class of its h1, so the filter is two independent filters of
 * m/2 bits, each holding the keys of its class: (h1 + i h2) mod m with h2 = 2t is
 * (h1 mod 2) + 2((h1 div 2 + i t) mod m/2), plain double hashing on m/2 bits. It shows
 * what the coset costs in the aggregate rate (experiments/strides.ini).
 *
 * Reference: seed article 003, "Deriving k Bloom Filter Probes from Two Hash Words".
 */
#include "schemes/words.h"

/* The conditional estimator's stride space: the even strides 2s, s < m/2. */
static uint64_t even_stride_count(const probe_geom_t *g) { return g->m / 2; }
static void even_stride_at(const probe_geom_t *g, uint64_t s, uint64_t *h)
{
    (void)g;
    h[1] = 2 * s;
}
static uint64_t even_stride_index(const probe_geom_t *g, const uint64_t *h)
{
    (void)g;
    return h[1] >> 1;
}

static int double_even_words(const probe_geom_t *g, const uint64_t *h)
{
    if (scheme_words2_below_m(g, h) != SCHEME_OK || (h[1] & 1) != 0)
        return SCHEME_EWORD;
    return SCHEME_OK;
}
SCHEME_HOT void double_even_draw(const probe_geom_t *g, pcg32_t *r, uint64_t *h)
{
    h[0] = pcg32_below(r, g->m);
    h[1] = pcg32_below(r, g->m) & ~(uint64_t)1;
}
#define double_even_start pair_start
SCHEME_HOT uint64_t double_even_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)r;
    uint64_t p = it->x;
    it->x = add_mod(it->x, it->y, g->m);
    return p;
}
SCHEME_LOOPS(double_even)

const scheme_t scheme_double_even = {
    .name = "double-even",
    .summary = "double hashing with the stride forced even; m a power of two (seed 003's "
               "parity case)",
    .nwords = 2, .geometry = scheme_geom_pow2, .check_words = double_even_words,
    SCHEME_FNS(double_even), .cond = SCHEME_COND_SHIFT, .stride_count = even_stride_count,
    .stride_at = even_stride_at, .stride_index = even_stride_index,
};
