/* squares.c - seed 003's incremental loop, as its Python writes it:
 *
 *     h2 |= 1; x = h1 % m
 *     for i in range(k): yield x; x = (x + h2 + i*i) % m
 *
 * so g_i = (h1 + i h2 + S(i)) mod m with S(i) = sum_{j=0}^{i-1} j^2 = (i-1)i(2i-1)/6, the
 * square pyramidal numbers 0, 0, 1, 5, 14, 30, ... The seed offers it as "the standard
 * incremental formulation" of enhanced double hashing, whose added term is
 * (i^3 - i)/6 = sum_{j=1}^{i-1} j(j+1)/2, the tetrahedral numbers 0, 0, 1, 4, 10, 20, ...:
 * the two agree for i < 3 and differ from the fourth probe on (S(i) - (i^3-i)/6 =
 * (i-2)(i-1)i/6, which is 0 only for i <= 2). tests/test_scheme.c checks the loop
 * against S(i) in 128-bit arithmetic. The stride is odd (the seed's h2 |= 1), so, as
 * double-odd, it wants m a power of two; h1 and h2 are ideal words on [0, m).
 *
 * Reference: seed article 003, "Deriving k Bloom Filter Probes from Two Hash Words";
 * P. C. Dillinger, P. Manolios, FMCAD 2004, for the enhanced form it departs from.
 */
#include "schemes/words.h"

/* The conditional estimator's stride space: the odd strides 2s + 1, s < m/2. */
static uint64_t squares_stride_count(const probe_geom_t *g) { return g->m / 2; }
static void squares_stride_at(const probe_geom_t *g, uint64_t s, uint64_t *h)
{
    (void)g;
    h[1] = 2 * s + 1;
}
static uint64_t squares_stride_index(const probe_geom_t *g, const uint64_t *h)
{
    (void)g;
    return h[1] >> 1;
}

static int squares_words(const probe_geom_t *g, const uint64_t *h)
{
    if (scheme_words2_below_m(g, h) != SCHEME_OK || (h[1] & 1) == 0)
        return SCHEME_EWORD;
    return SCHEME_OK;
}
SCHEME_HOT void squares_draw(const probe_geom_t *g, pcg32_t *r, uint64_t *h)
{
    h[0] = pcg32_below(r, g->m);
    h[1] = pcg32_below(r, g->m) | 1; /* stays < m: m is even */
}
/* x = h1, y = h2, z = i^2 mod m, kept incrementally: (i+1)^2 = i^2 + 2i + 1, and
 * 2i + 1 < 2m because k < m, so two subtractions reduce it. */
SCHEME_HOT void squares_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    (void)g;
    it->x = h[0];
    it->y = h[1];
    it->z = 0;
    it->i = 0;
}
SCHEME_HOT uint64_t squares_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)r;
    uint64_t p = it->x;
    it->x = add_mod(add_mod(it->x, it->y, g->m), it->z, g->m);
    uint64_t z = it->z + 2 * (uint64_t)it->i + 1;
    z = z >= g->m ? z - g->m : z;
    it->z = z >= g->m ? z - g->m : z;
    it->i++;
    return p;
}
SCHEME_LOOPS(squares)

const scheme_t scheme_squares = {
    .name = "squares",
    .summary = "seed 003's loop x += h2 + i*i (h2 odd, m a power of two): adds sum j^2, "
               "not enhanced's (i^3-i)/6",
    .nwords = 2, .geometry = scheme_geom_pow2, .check_words = squares_words,
    SCHEME_FNS(squares), .cond = SCHEME_COND_SHIFT, .stride_count = squares_stride_count,
    .stride_at = squares_stride_at, .stride_index = squares_stride_index,
};
