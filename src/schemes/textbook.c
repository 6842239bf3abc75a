/* textbook.c - the textbook family of probe schemes (docs/model.md, "Probe schemes"):
 * independent probes (the model behind the formula and the exact rate), partitioned
 * slices, double hashing with its three strides (any, odd, below a prime), enhanced
 * double and triple hashing. Their hash words are drawn on the ranges the schemes take
 * them from ([0, m) and its parts), not in a hash format: they are ideal by definition.
 *
 * References: A. Kirsch, M. Mitzenmacher, "Less Hashing, Same Performance: Building a
 * Better Bloom Filter", ESA 2006 (double hashing); P. C. Dillinger, P. Manolios,
 * "Bloom Filters in Probabilistic Verification", FMCAD 2004 (enhanced double and triple
 * hashing); seed articles 000 and 003 (double-odd, the stride-zero floor).
 */
#include "rates/rate.h"
#include "schemes/words.h"

/* ---- stride spaces for the conditional estimator ----
 * Stride number s maps to the hash words after h1, uniformly distributed when s is. */
static uint64_t stride_all_m(const probe_geom_t *g) { return g->m; }
static void stride_at_plain(const probe_geom_t *g, uint64_t s, uint64_t *h)
{
    (void)g;
    h[1] = s;
}
static uint64_t stride_index_plain(const probe_geom_t *g, const uint64_t *h)
{
    (void)g;
    return h[1];
}
/* double-odd: the odd strides 2s + 1, s < m/2 */
static uint64_t stride_count_odd(const probe_geom_t *g) { return g->m / 2; }
static void stride_at_odd(const probe_geom_t *g, uint64_t s, uint64_t *h)
{
    (void)g;
    h[1] = 2 * s + 1;
}
static uint64_t stride_index_odd(const probe_geom_t *g, const uint64_t *h)
{
    (void)g;
    return h[1] >> 1;
}
/* double-prime: strides 1 .. m'-1 */
static uint64_t stride_count_nonzero(const probe_geom_t *g) { return g->m - 1; }
static void stride_at_nonzero(const probe_geom_t *g, uint64_t s, uint64_t *h)
{
    (void)g;
    h[1] = s + 1;
}
static uint64_t stride_index_nonzero(const probe_geom_t *g, const uint64_t *h)
{
    (void)g;
    return h[1] - 1;
}
/* triple: (h2, h3) in [0,m)^2, numbered h2 + m h3 */
static uint64_t stride_count_pairs(const probe_geom_t *g)
{
    return g->m <= (UINT64_C(1) << 32) ? g->m * g->m : 0; /* 0: too many to number */
}
static void stride_at_pairs(const probe_geom_t *g, uint64_t s, uint64_t *h)
{
    h[1] = s % g->m;
    h[2] = s / g->m;
}
static uint64_t stride_index_pairs(const probe_geom_t *g, const uint64_t *h)
{
    return h[1] + g->m * h[2];
}

/* ---- independent: k independent draws U[0,m); the model of formula and exact ---- */

#define independent_draw nowords_draw
#define independent_start nowords_start
SCHEME_HOT uint64_t independent_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)it;
    return pcg32_below(r, g->m);
}
SCHEME_LOOPS(independent)

static void independent_positions_drawn(const probe_geom_t *g, const uint64_t *h,
                                        const uint64_t *d, uint64_t *pos)
{
    (void)h;
    for (unsigned i = 0; i < g->k; i++)
        pos[i] = d[i];
}

static double independent_exact(const probe_geom_t *g, uint64_t n)
{
    double e;
    return rate_exact(g->m, n, g->k, &e) == RATE_OK ? e : -1.0;
}

const scheme_t scheme_independent = {
    .name = "independent",
    .summary = "k independent draws U[0,m): the model behind formula and exact",
    .geometry = scheme_geom_plain, SCHEME_LOOP_FNS(independent),
    .positions_drawn = independent_positions_drawn, .draw_bound = scheme_draw_below_m,
    .exact = independent_exact, .cond = SCHEME_COND_FILL,
};

/* ---- partitioned: slice w = floor(m/k); probe i is i*w + U[0,w); m used = k*w ---- */

#define partitioned_draw nowords_draw
SCHEME_HOT void partitioned_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    (void)g, (void)h;
    it->x = 0; /* start of the current slice */
}
SCHEME_HOT uint64_t partitioned_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    uint64_t p = it->x + pcg32_below(r, g->w);
    it->x += g->w;
    return p;
}
SCHEME_LOOPS(partitioned)

static void partitioned_positions_drawn(const probe_geom_t *g, const uint64_t *h,
                                        const uint64_t *d, uint64_t *pos)
{
    (void)h;
    for (unsigned i = 0; i < g->k; i++)
        pos[i] = i * g->w + d[i];
}

/* Slices are filled independently, one throw per key each, and a query's probes are
 * independent uniform positions in their slices: (1 - (1 - 1/w)^n)^k exactly. */
static double partitioned_exact(const probe_geom_t *g, uint64_t n)
{
    return rate_partitioned_exact(g->w, n, g->k);
}

const scheme_t scheme_partitioned = {
    .name = "partitioned",
    .summary = "k slices of floor(m/k) bits, one independent draw in each",
    .geometry = scheme_geom_slices, SCHEME_LOOP_FNS(partitioned),
    .positions_drawn = partitioned_positions_drawn, .draw_bound = scheme_draw_below_w,
    .exact = partitioned_exact, .cond = SCHEME_COND_SLICES,
};

/* ---- double: h1, h2 ~ U[0,m); (h1 + i h2) mod m; stride 0 allowed ---- */

SCHEME_HOT void double_draw(const probe_geom_t *g, pcg32_t *r, uint64_t *h)
{
    h[0] = pcg32_below(r, g->m);
    h[1] = pcg32_below(r, g->m);
}
#define double_start pair_start
SCHEME_HOT uint64_t double_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)r;
    uint64_t p = it->x;
    it->x = add_mod(it->x, it->y, g->m);
    return p;
}
SCHEME_LOOPS(double)

const scheme_t scheme_double = {
    .name = "double",
    .summary = "Kirsch-Mitzenmacher (h1 + i*h2) mod m, stride straight from the hash (0 "
               "allowed)",
    .nwords = 2, .geometry = scheme_geom_plain, .check_words = scheme_words2_below_m,
    SCHEME_FNS(double),
    .cond = SCHEME_COND_SHIFT, .stride_count = stride_all_m, .stride_at = stride_at_plain,
    .stride_index = stride_index_plain,
};

/* ---- double-odd: as double with the stride's low bit forced to 1; m a power of 2 ---- */

static int double_odd_words(const probe_geom_t *g, const uint64_t *h)
{
    if (scheme_words2_below_m(g, h) != SCHEME_OK || (h[1] & 1) == 0)
        return SCHEME_EWORD;
    return SCHEME_OK;
}
SCHEME_HOT void double_odd_draw(const probe_geom_t *g, pcg32_t *r, uint64_t *h)
{
    h[0] = pcg32_below(r, g->m);
    h[1] = pcg32_below(r, g->m) | 1; /* stays < m: m is even */
}
#define double_odd_start double_start
#define double_odd_next double_next
SCHEME_LOOPS(double_odd)

const scheme_t scheme_double_odd = {
    .name = "double-odd",
    .summary = "double hashing with the stride forced odd; m a power of two (seed 003)",
    .nwords = 2, .geometry = scheme_geom_pow2, .check_words = double_odd_words,
    SCHEME_FNS(double_odd), .cond = SCHEME_COND_SHIFT, .stride_count = stride_count_odd,
    .stride_at = stride_at_odd, .stride_index = stride_index_odd,
};

/* ---- double-prime: m' = largest prime <= m; h1 ~ U[0,m'), h2 ~ U[1,m') ---- */

static int double_prime_geometry(uint64_t m, unsigned k, uint64_t block, probe_geom_t *g)
{
    uint64_t p = scheme_prime_below(m);
    if (p < 2)
        return SCHEME_ESMALL;
    return scheme_geom_plain(p, k, block, g);
}
static int double_prime_words(const probe_geom_t *g, const uint64_t *h)
{
    if (scheme_words2_below_m(g, h) != SCHEME_OK || h[1] == 0)
        return SCHEME_EWORD;
    return SCHEME_OK;
}
SCHEME_HOT void double_prime_draw(const probe_geom_t *g, pcg32_t *r, uint64_t *h)
{
    h[0] = pcg32_below(r, g->m);
    h[1] = 1 + pcg32_below(r, g->m - 1);
}
#define double_prime_start double_start
#define double_prime_next double_next
SCHEME_LOOPS(double_prime)

const scheme_t scheme_double_prime = {
    .name = "double-prime",
    .summary = "double hashing mod the largest prime <= m, stride in [1,m')",
    .nwords = 2, .geometry = double_prime_geometry, .check_words = double_prime_words,
    SCHEME_FNS(double_prime), .cond = SCHEME_COND_SHIFT,
    .stride_count = stride_count_nonzero, .stride_at = stride_at_nonzero,
    .stride_index = stride_index_nonzero,
};

/* ---- enhanced: (h1 + i h2 + (i^3 - i)/6) mod m (Dillinger-Manolios) ----
 * Stepped incrementally by enhanced_next (loops.h): emit x; x += y; y += i + 1 (mod m).
 * tests/test_scheme.c checks it against the closed form in 128-bit arithmetic. Seed
 * 003's loop x += h2 + i*i is a different sequence: the scheme squares (squares.c). Needs k < m so that
 * y + i + 1 < 2m. */
SCHEME_HOT void enhanced_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    (void)g;
    it->x = h[0];
    it->y = h[1];
    it->i = 0;
}
#define enhanced_draw double_draw
SCHEME_LOOPS(enhanced)

const scheme_t scheme_enhanced = {
    .name = "enhanced",
    .summary = "enhanced double hashing (h1 + i*h2 + (i^3-i)/6) mod m (Dillinger-Manolios)",
    .nwords = 2, .geometry = scheme_geom_plain, .check_words = scheme_words2_below_m,
    SCHEME_FNS(enhanced),
    .cond = SCHEME_COND_SHIFT, .stride_count = stride_all_m, .stride_at = stride_at_plain,
    .stride_index = stride_index_plain,
};

/* ---- triple: (h1 + i h2 + (i(i-1)/2) h3) mod m (Dillinger-Manolios) ----
 * Second differences are constant h3: emit x; x += y; y += z. */
SCHEME_HOT void triple_draw(const probe_geom_t *g, pcg32_t *r, uint64_t *h)
{
    h[0] = pcg32_below(r, g->m);
    h[1] = pcg32_below(r, g->m);
    h[2] = pcg32_below(r, g->m);
}
SCHEME_HOT void triple_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    (void)g;
    it->x = h[0];
    it->y = h[1];
    it->z = h[2];
}
SCHEME_HOT uint64_t triple_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)r;
    uint64_t p = it->x;
    it->x = add_mod(it->x, it->y, g->m);
    it->y = add_mod(it->y, it->z, g->m);
    return p;
}
SCHEME_LOOPS(triple)

const scheme_t scheme_triple = {
    .name = "triple",
    .summary = "triple hashing (h1 + i*h2 + i(i-1)/2*h3) mod m (Dillinger-Manolios)",
    .nwords = 3, .geometry = scheme_geom_plain, .check_words = scheme_words3_below_m,
    SCHEME_FNS(triple),
    .cond = SCHEME_COND_SHIFT, .stride_count = stride_count_pairs,
    .stride_at = stride_at_pairs, .stride_index = stride_index_pairs,
};
