/* scheme.c - the probe schemes of docs/model.md, one table entry each.
 *
 * Each scheme is three static inline functions, expanded into the table's loops by
 * SCHEME_LOOPS so the hot paths are specialised per scheme (no call per probe):
 *   NAME_draw(g, r, h)      draws the key's hash words h[] from its generator r;
 *   NAME_start(g, h, it)    sets the probe iterator from hash words;
 *   NAME_next(g, r, it)     returns the next position (independent draws use r here).
 * Lookups stop at a key's first clear bit; that is exact, since a key is a false positive
 * only if all k bits are set, and unused positions of a fresh key are never observed.
 *
 * References: A. Kirsch, M. Mitzenmacher, "Less Hashing, Same Performance: Building a
 * Better Bloom Filter", ESA 2006 (double hashing); P. C. Dillinger, P. Manolios,
 * "Bloom Filters in Probabilistic Verification", FMCAD 2004 (enhanced double and triple
 * hashing); seed articles 000 and 003 (double-odd, the stride-zero floor).
 */
#include "scheme.h"

#include <math.h>
#include <string.h>

#include "rate.h"
#include "rate_blocked.h"

/* The per-probe functions below are forced inline into every loop: left to its own
 * inlining budget, gcc kept some out of line in a file this size, and lookups lost 20%. */
#define SCHEME_HOT static inline __attribute__((always_inline))

/* Probe iterator: current position x, its increment y, the increment's increment z. */
typedef struct probe_it {
    uint64_t x, y, z;
    unsigned i;
} probe_it_t;

/* (a + b) mod m for a, b < m <= 2^63. */
SCHEME_HOT uint64_t add_mod(uint64_t a, uint64_t b, uint64_t m)
{
    uint64_t s = a + b;
    return s >= m ? s - m : s;
}

/* Lookups run in batches, breadth first: every key of a batch is tested at probe 0, the
 * survivors are compacted without a branch and tested at probe 1, and so on, so the
 * unpredictable "is this bit set?" never becomes a branch. Keys are drawn from LANES
 * generators seeded from the unit's generator and used in turn, so consecutive draws do
 * not wait on one another. Both are pure functions of the unit's generator: results do
 * not depend on the batch size seen by any one thread. */
enum { LANES = 4, BATCH = 256 }; /* LANES: the unrolled draw below assumes 4 */

SCHEME_HOT void lanes_seed(pcg32_t *lane, pcg32_t *r)
{
    for (int j = 0; j < LANES; j++) {
        uint64_t state = pcg32_next64(r);
        pcg32_seed(&lane[j], state, pcg32_next64(r));
    }
}

/* Draw key J of a batch from lane LANE and find its first probe p_. Without prefetch,
 * test it at once and keep the key if set; with prefetch, store it in pos[J] and ask
 * for its word, to be tested once the whole batch is drawn. Keys J >= nb of a last,
 * partial batch are drawn (so every lane advances alike) but never kept. */
#define FIRST_PROBE(id, LANE, J)                                                       \
    do {                                                                               \
        uint64_t h_[SCHEME_MAX_WORDS];                                                 \
        id##_draw(g, &LANE, h_);                                                       \
        id##_start(g, h_, &it[J]);                                                     \
        uint64_t p_ = id##_next(g, &LANE, &it[J]);                                     \
        if (prefetch) {                                                                \
            pos[J] = p_;                                                               \
            bits_prefetch(b, p_, 0);                                                   \
        } else {                                                                       \
            idx[alive] = J;                                                            \
            alive += (unsigned)bits_test(b, p_) & ((J) < nb);                          \
        }                                                                              \
    } while (0)

/* Inserts into an array shared by threads (shared = 1) run RING positions ahead of
 * their writes: each position is prefetched for writing when computed and set, with an
 * atomic OR, RING positions later, so a core keeps many cache misses in flight. */
enum { RING = 64 }; /* a power of two */

/* Each scheme gets insert and lookup, and their variants for big filters,
 * insert_shared and lookup_prefetch, from one body each: the variants consume the
 * generator identically and give identical results (tests/test_scheme.c checks). */
#define SCHEME_LOOPS_IT(id, itype)                                                               \
    SCHEME_HOT void id##_insert_body(bits_t *b, const probe_geom_t *g, pcg32_t *r,     \
                                     uint64_t n, uint64_t *words, const int shared)    \
    {                                                                                  \
        pcg32_t lane[LANES];                                                           \
        uint64_t ring[RING], queued = 0;                                               \
        lanes_seed(lane, r);                                                           \
        for (uint64_t key = 0; key < n; key++) {                                       \
            uint64_t h[SCHEME_MAX_WORDS] = {0};                                        \
            itype it;                                                             \
            pcg32_t *lr = &lane[key % LANES];                                          \
            id##_draw(g, lr, h);                                                       \
            if (words)                                                                 \
                memcpy(words + SCHEME_MAX_WORDS * key, h, sizeof h);                   \
            id##_start(g, h, &it);                                                     \
            for (unsigned i = 0; i < g->k; i++) {                                      \
                uint64_t p = id##_next(g, lr, &it);                                    \
                if (!shared) {                                                         \
                    bits_set(b, p);                                                    \
                    continue;                                                          \
                }                                                                      \
                bits_prefetch(b, p, 1);                                                \
                if (queued >= RING)                                                    \
                    bits_set_atomic(b, ring[queued % RING]);                           \
                ring[queued++ % RING] = p;                                             \
            }                                                                          \
        }                                                                              \
        for (uint64_t q = queued > RING ? queued - RING : 0; q < queued; q++)          \
            bits_set_atomic(b, ring[q % RING]);                                        \
    }                                                                                  \
    static void id##_insert(bits_t *b, const probe_geom_t *g, pcg32_t *r, uint64_t n,  \
                            uint64_t *words)                                           \
    {                                                                                  \
        id##_insert_body(b, g, r, n, words, 0);                                        \
    }                                                                                  \
    static void id##_insert_shared(bits_t *b, const probe_geom_t *g, pcg32_t *r,       \
                                   uint64_t n)                                         \
    {                                                                                  \
        id##_insert_body(b, g, r, n, NULL, 1);                                         \
    }                                                                                  \
    SCHEME_HOT uint64_t id##_lookup_body(const bits_t *b, const probe_geom_t *g,       \
                                         pcg32_t *r, uint64_t L, const int prefetch)   \
    {                                                                                  \
        pcg32_t lane[LANES];                                                           \
        itype it[BATCH];                                                          \
        unsigned idx[BATCH];                                                           \
        uint64_t pos[BATCH];                                                           \
        uint64_t fp = 0;                                                               \
        lanes_seed(lane, r);                                                           \
        for (uint64_t q = 0; q < L; q += BATCH) {                                      \
            unsigned nb = L - q < BATCH ? (unsigned)(L - q) : BATCH;                   \
            unsigned alive = 0;                                                        \
            for (unsigned j = 0; j < nb; j += LANES) {                                 \
                pcg32_t l0 = lane[0], l1 = lane[1], l2 = lane[2], l3 = lane[3];        \
                FIRST_PROBE(id, l0, j);                                                \
                FIRST_PROBE(id, l1, j + 1);                                            \
                FIRST_PROBE(id, l2, j + 2);                                            \
                FIRST_PROBE(id, l3, j + 3);                                            \
                lane[0] = l0, lane[1] = l1, lane[2] = l2, lane[3] = l3;                \
            }                                                                          \
            if (prefetch)                                                              \
                for (unsigned j = 0; j < nb; j++) {                                    \
                    idx[alive] = j;                                                    \
                    alive += (unsigned)bits_test(b, pos[j]);                           \
                }                                                                      \
            for (unsigned i = 1; i < g->k && alive > 0; i++) {                         \
                unsigned kept = 0;                                                     \
                if (prefetch)                                                          \
                    for (unsigned a = 0; a < alive; a++) {                             \
                        unsigned j = idx[a];                                           \
                        pos[j] = id##_next(g, &lane[j % LANES], &it[j]);               \
                        bits_prefetch(b, pos[j], 0);                                   \
                    }                                                                  \
                for (unsigned a = 0; a < alive; a++) {                                 \
                    unsigned j = idx[a];                                               \
                    uint64_t p = prefetch ? pos[j] : id##_next(g, &lane[j % LANES], &it[j]); \
                    idx[kept] = j;                                                     \
                    kept += (unsigned)bits_test(b, p);                                 \
                }                                                                      \
                alive = kept;                                                          \
            }                                                                          \
            fp += alive;                                                               \
        }                                                                              \
        return fp;                                                                     \
    }                                                                                  \
    static uint64_t id##_lookup(const bits_t *b, const probe_geom_t *g, pcg32_t *r,    \
                                uint64_t L)                                            \
    {                                                                                  \
        return id##_lookup_body(b, g, r, L, 0);                                        \
    }                                                                                  \
    static uint64_t id##_lookup_prefetch(const bits_t *b, const probe_geom_t *g,       \
                                         pcg32_t *r, uint64_t L)                       \
    {                                                                                  \
        return id##_lookup_body(b, g, r, L, 1);                                        \
    }                                                                                  \
    __attribute__((unused)) static void id##_positions(const probe_geom_t *g,          \
                                                       const uint64_t *h, uint64_t *pos) \
    {                                                                                  \
        itype it;                                                                 \
        id##_start(g, h, &it);                                                         \
        for (unsigned i = 0; i < g->k; i++)                                            \
            pos[i] = id##_next(g, NULL, &it);                                          \
    }

/* Most schemes keep their probe state in probe_it_t; one that needs more names its own
 * iterator type (bits-and-blooms: four words), so the others' batches stay small. */
#define SCHEME_LOOPS(id) SCHEME_LOOPS_IT(id, probe_it_t)

/* ---- geometry and word checks shared by several schemes ---- */

static int geom_plain(uint64_t m, unsigned k, uint64_t block, probe_geom_t *g)
{
    (void)block;
    if (k >= m)
        return SCHEME_EKBIG;
    *g = (probe_geom_t){.m = m, .w = m, .k = k};
    return SCHEME_OK;
}

/* Every word in [0, m). */
static int words_below_m(const probe_geom_t *g, const uint64_t *h, unsigned nwords)
{
    for (unsigned j = 0; j < nwords; j++)
        if (h[j] >= g->m)
            return SCHEME_EWORD;
    return SCHEME_OK;
}
static int words2_below_m(const probe_geom_t *g, const uint64_t *h) { return words_below_m(g, h, 2); }
static int words3_below_m(const probe_geom_t *g, const uint64_t *h) { return words_below_m(g, h, 3); }

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

SCHEME_HOT void independent_draw(const probe_geom_t *g, pcg32_t *r, uint64_t *h)
{
    (void)g, (void)r, (void)h;
}
SCHEME_HOT void independent_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    (void)g, (void)h;
    it->i = 0;
}
SCHEME_HOT uint64_t independent_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)it;
    return pcg32_below(r, g->m);
}
SCHEME_LOOPS(independent)

static uint64_t draw_below_m(const probe_geom_t *g, unsigned i)
{
    (void)i;
    return g->m;
}
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

/* ---- partitioned: slice w = floor(m/k); probe i is i*w + U[0,w); m used = k*w ---- */

static int partitioned_geometry(uint64_t m, unsigned k, uint64_t block, probe_geom_t *g)
{
    (void)block;
    if (k >= m)
        return SCHEME_EKBIG;
    uint64_t w = m / k;
    *g = (probe_geom_t){.m = w * k, .w = w, .k = k};
    return SCHEME_OK;
}
SCHEME_HOT void partitioned_draw(const probe_geom_t *g, pcg32_t *r, uint64_t *h)
{
    (void)g, (void)r, (void)h;
}
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

static uint64_t draw_below_w(const probe_geom_t *g, unsigned i)
{
    (void)i;
    return g->w;
}
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

/* ---- double: h1, h2 ~ U[0,m); (h1 + i h2) mod m; stride 0 allowed ---- */

SCHEME_HOT void double_draw(const probe_geom_t *g, pcg32_t *r, uint64_t *h)
{
    h[0] = pcg32_below(r, g->m);
    h[1] = pcg32_below(r, g->m);
}
SCHEME_HOT void double_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    (void)g;
    it->x = h[0];
    it->y = h[1];
}
SCHEME_HOT uint64_t double_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)r;
    uint64_t p = it->x;
    it->x = add_mod(it->x, it->y, g->m);
    return p;
}
SCHEME_LOOPS(double)

/* ---- double-odd: as double with the stride's low bit forced to 1; m a power of 2 ---- */

static int double_odd_geometry(uint64_t m, unsigned k, uint64_t block, probe_geom_t *g)
{
    if (m < 2 || (m & (m - 1)) != 0)
        return SCHEME_ENOTPOW2;
    return geom_plain(m, k, block, g);
}
static int double_odd_words(const probe_geom_t *g, const uint64_t *h)
{
    if (words_below_m(g, h, 2) != SCHEME_OK || (h[1] & 1) == 0)
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

/* ---- double-prime: m' = largest prime <= m; h1 ~ U[0,m'), h2 ~ U[1,m') ---- */

static int double_prime_geometry(uint64_t m, unsigned k, uint64_t block, probe_geom_t *g)
{
    uint64_t p = scheme_prime_below(m);
    if (p < 2)
        return SCHEME_ESMALL;
    return geom_plain(p, k, block, g);
}
static int double_prime_words(const probe_geom_t *g, const uint64_t *h)
{
    if (words_below_m(g, h, 2) != SCHEME_OK || h[1] == 0)
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

/* ---- enhanced: (h1 + i h2 + (i^3 - i)/6) mod m (Dillinger-Manolios) ----
 * Differences g(i+1) - g(i) = h2 + i(i+1)/2 grow by i+1 each step, so the incremental
 * form is: emit x; x += y; y += i + 1 (mod m). tests/test_scheme.c checks it against
 * the closed form in 128-bit arithmetic. Seed 003's loop x += h2 + i*i is a different
 * sequence and is not used. Needs k < m so that y + i + 1 < 2m. */
SCHEME_HOT void enhanced_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    (void)g;
    it->x = h[0];
    it->y = h[1];
    it->i = 0;
}
SCHEME_HOT uint64_t enhanced_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)r;
    uint64_t p = it->x;
    it->x = add_mod(it->x, it->y, g->m);
    it->i++;
    it->y = add_mod(it->y, it->i, g->m);
    return p;
}
#define enhanced_draw double_draw
SCHEME_LOOPS(enhanced)

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

/* ---- Guava's index arithmetic (seed 000, "A bug that only shows up in big filters") ----
 * hash1, hash2 are uniform 32-bit words; probe i = 1..k is c = hash1 + i*hash2 in
 * 32-bit wraparound. guava32 (MURMUR128_MITZ_32, flawed, kept as Guava kept it for old
 * serialised filters): read c as a signed int32 and flip its bits when negative (~c, not
 * -c), so every index is c mod m with c < 2^31: positions past 2^31 are never reached,
 * and for m a little under 2^31 the modulo is uneven. guava32u: the same in unsigned
 * arithmetic without the flip ("better but still not right"). */
static int words_32bit(const probe_geom_t *g, const uint64_t *h, unsigned nwords)
{
    (void)g;
    for (unsigned j = 0; j < nwords; j++)
        if (h[j] > UINT32_MAX)
            return SCHEME_EWORD;
    return SCHEME_OK;
}
static int words2_32bit(const probe_geom_t *g, const uint64_t *h) { return words_32bit(g, h, 2); }
static int words1_32bit(const probe_geom_t *g, const uint64_t *h) { return words_32bit(g, h, 1); }
static int words_any(const probe_geom_t *g, const uint64_t *h)
{
    (void)g, (void)h;
    return SCHEME_OK;
}

SCHEME_HOT void guava32_draw(const probe_geom_t *g, pcg32_t *r, uint64_t *h)
{
    (void)g;
    h[0] = pcg32_next(r);
    h[1] = pcg32_next(r);
}
SCHEME_HOT void guava32_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    (void)g;
    it->x = h[0];
    it->y = h[1];
    it->i = 1; /* Guava's loop starts at i = 1 */
}
/* hash1 + i*hash2 in 32-bit wraparound (Java's int arithmetic, as unsigned bits); i++. */
SCHEME_HOT uint32_t guava32_combined(probe_it_t *it)
{
    return (uint32_t)it->x + (uint32_t)it->i++ * (uint32_t)it->y;
}
SCHEME_HOT uint64_t guava32_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)r;
    uint32_t c = guava32_combined(it);
    if (c >> 31) /* negative as an int32: ~c is its bitwise complement, in [0, 2^31) */
        c = ~c;
    return c % g->m;
}
SCHEME_LOOPS(guava32)

/* Model (rate.h): c is uniform on [0, 2^31) (each value has two preimages, c and ~c),
 * and the index is c mod m. */
static double guava32_model(const probe_geom_t *g, uint64_t n)
{
    return rate_model_mod(UINT64_C(1) << 31, g->m, n, g->k);
}

#define guava32u_draw guava32_draw
#define guava32u_start guava32_start
SCHEME_HOT uint64_t guava32u_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)r;
    return guava32_combined(it) % g->m;
}
SCHEME_LOOPS(guava32u)

static double guava32u_model(const probe_geom_t *g, uint64_t n)
{
    return rate_model_mod(UINT64_C(1) << 32, g->m, n, g->k);
}

/* ---- guava64: Guava's fix, MURMUR128_MITZ_64 ----
 * hash1, hash2 uniform 64-bit; c = hash1; probe i = 0..k-1 is (c & (2^63 - 1)) mod m,
 * then c += hash2 in 64-bit wraparound. */
SCHEME_HOT void guava64_draw(const probe_geom_t *g, pcg32_t *r, uint64_t *h)
{
    (void)g;
    h[0] = pcg32_next64(r);
    h[1] = pcg32_next64(r);
}
#define guava64_start double_start /* x = hash1, y = hash2 */
SCHEME_HOT uint64_t guava64_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)r;
    uint64_t p = (it->x & INT64_MAX) % g->m;
    it->x += it->y;
    return p;
}
SCHEME_LOOPS(guava64)

static double guava64_model(const probe_geom_t *g, uint64_t n)
{
    return rate_model_mod(UINT64_C(1) << 63, g->m, n, g->k);
}

/* ---- hash32: every probe from one 32-bit hash ----
 * The key is one uniform 32-bit word h; its k positions are independent draws U[0,m)
 * from a PCG stream seeded by h alone, so keys with equal h are indistinguishable: a
 * lookup is a false positive whenever its h equals a stored key's (about n/2^32). */
#define HASH32_STREAM UINT64_C(0x2545f4914f6cdd1d) /* any fixed stream will do */
SCHEME_HOT void hash32_draw(const probe_geom_t *g, pcg32_t *r, uint64_t *h)
{
    (void)g;
    h[0] = pcg32_next(r);
}
SCHEME_HOT void hash32_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    (void)g;
    pcg32_t k;
    pcg32_seed(&k, h[0], HASH32_STREAM);
    it->x = k.state;
    it->y = k.inc;
}
SCHEME_HOT uint64_t hash32_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)r;
    pcg32_t k = {it->x, it->y};
    uint64_t p = pcg32_below(&k, g->m);
    it->x = k.state;
    return p;
}
SCHEME_LOOPS(hash32)

static double hash32_model(const probe_geom_t *g, uint64_t n)
{
    return rate_model_hash(32, g->m, n, g->k);
}

/* ---- blocked: a uniform block of B bits, then k independent uniform positions in it ----
 * Putze, Sanders, Singler, "Cache-, Hash- and Space-Efficient Bloom Filters", WEA 2007,
 * with ideal hash bits: one block (one cache line at B = 512) per key. m is rounded down
 * to whole blocks, as partitioned rounds to whole slices. */
enum { BLOCKED_DEFAULT = 512, SPLIT_BLOCK_DEFAULT = 256 }; /* a cache line; Parquet's */

static int block_size(uint64_t block, uint64_t dflt, uint64_t m, uint64_t *B)
{
    *B = block ? block : dflt;
    if (*B < SCHEME_BLOCK_MIN || *B > SCHEME_BLOCK_MAX || (*B & (*B - 1)) != 0 || *B > m)
        return SCHEME_EBLOCK;
    return SCHEME_OK;
}

static int blocked_geometry(uint64_t m, unsigned k, uint64_t block, probe_geom_t *g)
{
    uint64_t B;
    int st = block_size(block, BLOCKED_DEFAULT, m, &B);
    if (st != SCHEME_OK)
        return st;
    if (k >= B)
        return SCHEME_EKBIG;
    *g = (probe_geom_t){.m = m / B * B, .w = B, .k = k, .block = B, .blocks = m / B};
    return SCHEME_OK;
}
/* The block word, in [0, m/B). */
static int block_word(const probe_geom_t *g, const uint64_t *h)
{
    return h[0] < g->blocks ? SCHEME_OK : SCHEME_EWORD;
}
SCHEME_HOT void blocked_draw(const probe_geom_t *g, pcg32_t *r, uint64_t *h)
{
    h[0] = pcg32_below(r, g->blocks);
}
SCHEME_HOT void blocked_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    it->x = h[0] * g->block; /* the block's first bit */
}
SCHEME_HOT uint64_t blocked_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    return it->x + pcg32_below(r, g->w);
}
SCHEME_LOOPS(blocked)

static void blocked_positions_drawn(const probe_geom_t *g, const uint64_t *h,
                                    const uint64_t *d, uint64_t *pos)
{
    for (unsigned i = 0; i < g->k; i++)
        pos[i] = h[0] * g->block + d[i];
}
static double blocked_exact(const probe_geom_t *g, uint64_t n)
{
    double e;
    return rate_blocked_exact(g->m, g->block, n, g->k, &e) == RATE_OK ? e : -1.0;
}
/* Model: Putze et al.'s equation 3 (rate_blocked.h), Poisson loads and the finite
 * formula inside the block. */
static double blocked_model(const probe_geom_t *g, uint64_t n)
{
    return rate_blocked_poisson(g->block, (double)g->m / (double)n, g->k);
}

static double blocked_model_rocksdb(const probe_geom_t *g, uint64_t n)
{
    return rate_cache_local((double)g->m / (double)n, g->k, g->block);
}

/* ---- split-block: a uniform block of B bits in k words of w = B/k bits, one uniform
 * bit in each word ----
 * The Parquet, Arrow, Impala and Kudu filter at B = 256, k = 8 (w = 32), with ideal
 * hash bits in place of their salted multiplications. w must be a power of two. */
static int split_block_geometry(uint64_t m, unsigned k, uint64_t block, probe_geom_t *g)
{
    uint64_t B;
    int st = block_size(block, SPLIT_BLOCK_DEFAULT, m, &B);
    if (st != SCHEME_OK)
        return st;
    if (k == 0 || B % k != 0 || ((B / k) & (B / k - 1)) != 0)
        return SCHEME_ESPLIT;
    uint64_t w = B / k;
    *g = (probe_geom_t){.m = m / B * B, .w = w, .k = k, .block = B, .blocks = m / B};
    return SCHEME_OK;
}
#define split_block_draw blocked_draw
#define split_block_start blocked_start
SCHEME_HOT uint64_t split_block_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    uint64_t p = it->x + pcg32_below(r, g->w);
    it->x += g->w; /* the next word */
    return p;
}
SCHEME_LOOPS(split_block)

static void split_block_positions_drawn(const probe_geom_t *g, const uint64_t *h,
                                        const uint64_t *d, uint64_t *pos)
{
    for (unsigned i = 0; i < g->k; i++)
        pos[i] = h[0] * g->block + i * g->w + d[i];
}
static double split_block_exact(const probe_geom_t *g, uint64_t n)
{
    double e;
    return rate_split_block_exact(g->m, g->block, n, g->k, &e) == RATE_OK ? e : -1.0;
}
static double split_block_model(const probe_geom_t *g, uint64_t n)
{
    return rate_split_block_poisson(g->block, (double)g->m / (double)n, g->k);
}

/* ---- Models of the library schemes' departures (the CSV's model column; docs/model.md,
 * Reference rates). Each keeps the uniform model of its structure (independent
 * positions, or uniform positions within lines, blocks or slices) and adds the one
 * feature of the arithmetic that its library's survey names as the cause; what the
 * model leaves out (strides that repeat within a line, the correlation of one key's
 * probes) is where the measured rate may still depart from it. ---- */

/* A lookup whose one 32-bit hash equals a stored key's is a false positive for certain;
 * otherwise its positions are those of a fresh key against the D distinct hashes stored
 * (rate_model_hash's reading): c + (1 - c) inner, c = D / 2^32, inner the structure's
 * rate at D keys. D = 2^32 (1 - (1 - 2^-32)^n). */
static double distinct32(uint64_t n)
{
    const double H = 4294967296.0;
    return H * -expm1((double)n * log1p(-1.0 / H));
}
static double one_word_floor(double D, double inner)
{
    double c = D / 4294967296.0;
    return inner < 0 ? NAN : c + (1 - c) * inner;
}
/* leveldb and bloomfilter-js-0.0.16: every probe from one 32-bit word. */
static double one_word_model(const probe_geom_t *g, uint64_t n)
{
    return rate_model_hash(32, g->m, n, g->k);
}
/* rocksdb-legacy and kudu-block: one 32-bit word for the line or block and the bits;
 * the blocks' exact rate at the distinct hashes. */
static double one_word_lines_model(const probe_geom_t *g, uint64_t n)
{
    double D = distinct32(n), inner;
    uint64_t nd = (uint64_t)floor(D + 0.5);
    return rate_blocked_exact(g->m, 512, nd, g->k, &inner) == RATE_OK ? one_word_floor(D, inner)
                                                                     : NAN;
}
static double one_word_blocks_model(const probe_geom_t *g, uint64_t n)
{
    double D = distinct32(n), inner;
    uint64_t nd = (uint64_t)floor(D + 0.5);
    return rate_split_block_exact(g->m, 256, nd, 8, &inner) == RATE_OK
               ? one_word_floor(D, inner) : NAN;
}
/* rocksdb-fastlocal and hive-bloomk: uniform positions within 512-bit lines (RocksDB's
 * 64-bit hash makes its collision floor n/2^64, negligible; hive-bloomk's strides that
 * are 0 mod 512 are not in the model). */
static double lines_model(const probe_geom_t *g, uint64_t n)
{
    double e;
    return rate_blocked_exact(g->m, 512, n, g->k, &e) == RATE_OK ? e : NAN;
}
/* sbbf: uniform bits in the 8 words of a 256-bit block. */
static double blocks_model(const probe_geom_t *g, uint64_t n)
{
    double e;
    return rate_split_block_exact(g->m, 256, n, 8, &e) == RATE_OK ? e : NAN;
}
/* redisbloom-u32: indexes uniform on [0, 2^32) taken mod m (rate_model_mod): for m past
 * 2^32 the bits above 2^32 are never set. */
static double below_2_32_model(const probe_geom_t *g, uint64_t n)
{
    return rate_model_mod(UINT64_C(1) << 32, g->m, n, g->k);
}
/* hadoop: |x % m| of an int32 x: each half of the int32 range, folded by the absolute
 * value, is a uniform range of 2^31 values taken mod m (rate_model_mod's range 2^31;
 * the two halves differ by one value). */
static double int31_model(const probe_geom_t *g, uint64_t n)
{
    return rate_model_mod(UINT64_C(1) << 31, g->m, n, g->k);
}
/* pybloom-live: slice j takes its own word mod s, the word 16, 32 or 64 bits wide by s
 * (u64 as range 2^63: the unevenness of 2^64 mod s is below 2^-33 either way); the
 * slices are independent, so the rate is exact: (sum_j q_j (1 - (1 - q_j)^n))^k. */
static double pybloom_live_model(const probe_geom_t *g, uint64_t n)
{
    uint64_t range = g->w < (UINT64_C(1) << 15)   ? UINT64_C(1) << 16
                     : g->w < (UINT64_C(1) << 31) ? UINT64_C(1) << 32
                                                  : UINT64_C(1) << 63;
    return pow(rate_model_mod(range, g->w, n, 1), g->k);
}

/* ==== Real libraries' index arithmetic (issue 12) ====
 * Each scheme below is one library's computation of positions from its hash words,
 * exact to the source's integer semantics (word widths, signed or unsigned wraparound,
 * the language's %, flips and masks, where the loop starts), as quoted in the project's
 * library survey with the file and version named in each comment. The words are ideal:
 * uniform words of the library's hash width (pcg32_next for 32-bit words, pcg32_next64
 * for 64-bit ones), so these schemes measure the arithmetic, not the library's hash.
 * m is the m given (the libraries' own sizing and rounding are not applied here), except
 * where the arithmetic needs a shape: whole lines or blocks (m rounded down to them,
 * kept in g->blocks), an odd number of lines (rocksdb-legacy, rounded down), a
 * power-of-two directory or bit count (kudu-block, redisbloom-u32, else
 * SCHEME_ENOTPOW2), k = 8 (sbbf, kudu-block, else SCHEME_EKFIXED) or an m the library's
 * numbers hold (hadoop and commons-enhanced m < 2^31, bloomfilter-js m <= 2^31, the
 * older bloomfilter-js-0.0.1x m <= 2^52, else SCHEME_EMBIG); pybloom-live uses k slices
 * as `partitioned` does. Positions are
 * always < m. None has a conditional form. */

SCHEME_HOT uint32_t rotr32(uint32_t x, unsigned r) { return (x >> r) | (x << (32 - r)); }

/* ---- leveldb: google/leveldb util/bloom.cc (BloomFilterPolicy::CreateFilter,
 * KeyMayMatch) at 78a352f4 ----
 * One 32-bit word h (LevelDB's BloomHash); delta = rotr32(h, 17); for j < k:
 * bitpos = h % bits, then h += delta in u32 wraparound. The wrap happens before the
 * % bits, so the probes are an arithmetic progression mod 2^32, not mod m. bits is a
 * size_t, so for m >= 2^32 the position is h itself. Also RocksDB's legacy block-based
 * filter (LegacyNoLocalityBloomImpl) and Pebble's block filter. */
SCHEME_HOT void leveldb_draw(const probe_geom_t *g, pcg32_t *r, uint64_t *h)
{
    (void)g;
    h[0] = pcg32_next(r);
}
SCHEME_HOT void leveldb_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    (void)g;
    it->x = h[0];
    it->y = rotr32((uint32_t)h[0], 17); /* "Rotate right 17 bits" */
}
SCHEME_HOT uint64_t leveldb_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)r;
    uint64_t p = it->x % g->m;
    it->x = (uint32_t)(it->x + it->y); /* h += delta, u32 */
    return p;
}
SCHEME_LOOPS(leveldb)

/* Schemes of 512-bit lines: m >= one line, rounded down to whole lines. */
enum { LINE_BITS = 512 };
static int lines_geometry(uint64_t m, unsigned k, uint64_t bits, int odd, probe_geom_t *g)
{
    if (m < bits)
        return SCHEME_ESMALL;
    uint64_t lines = m / bits;
    if (odd && lines % 2 == 0)
        lines--; /* >= 1: an even count is >= 2 */
    if (k >= lines * bits)
        return SCHEME_EKBIG;
    *g = (probe_geom_t){.m = lines * bits, .w = lines * bits, .k = k, .blocks = lines};
    return SCHEME_OK;
}

/* ---- rocksdb-legacy: facebook/rocksdb util/bloom_impl.h, LegacyLocalityBloomImpl<false>
 * (AddHash, GetLine) at 1dfa7297; the format_version <= 4 full filter, also Pebble's
 * table filter ----
 * One 32-bit word h (BloomHash); num_lines odd (RocksDB's sizing makes it odd; here m is
 * rounded down to an odd number of 512-bit lines); line = h % num_lines; delta =
 * rotr32(h, 17); for i < k: bitpos = h & 511 in the line, then h += delta (u32). Marked
 * "DO NOT REUSE" in the source: the stride is 0 mod 512 with probability 1/512.
 * num_lines is a uint32_t there (its sizing caps it far below 2^32); it is 64-bit here. */
static int rocksdb_legacy_geometry(uint64_t m, unsigned k, uint64_t block, probe_geom_t *g)
{
    (void)block;
    return lines_geometry(m, k, LINE_BITS, 1, g);
}
#define rocksdb_legacy_draw leveldb_draw
SCHEME_HOT void rocksdb_legacy_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    it->x = h[0];
    it->y = rotr32((uint32_t)h[0], 17);
    it->z = h[0] % g->blocks * LINE_BITS; /* the line's first bit */
}
SCHEME_HOT uint64_t rocksdb_legacy_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)g, (void)r;
    uint64_t p = it->z + (it->x & (LINE_BITS - 1));
    it->x = (uint32_t)(it->x + it->y);
    return p;
}
SCHEME_LOOPS(rocksdb_legacy)

/* ---- rocksdb-fastlocal: facebook/rocksdb util/bloom_impl.h, FastLocalBloomImpl
 * (AddHash, AddHashPrepared, portable path) and util/fastrange.h at 1dfa7297; the
 * format_version >= 5 filter ----
 * The 64-bit XXH3 hash's halves as two 32-bit words: h1 (Lower32of64) picks the line by
 * FastRange32, (u64(h1) * lines) >> 32; h = h2 (Upper32of64); for i < k: bitpos =
 * h >> 23 (9 bits) in the line, then h *= 0x9e3779b9 (u32). Any k; probes may repeat.
 * FastRange32 takes a 32-bit line count (RocksDB's lines stay below 2^26); the product
 * is taken in 128 bits here so that it stays exact past 2^32 lines. */
static int rocksdb_fastlocal_geometry(uint64_t m, unsigned k, uint64_t block, probe_geom_t *g)
{
    (void)block;
    return lines_geometry(m, k, LINE_BITS, 0, g);
}
SCHEME_HOT void rocksdb_fastlocal_draw(const probe_geom_t *g, pcg32_t *r, uint64_t *h)
{
    (void)g;
    h[0] = pcg32_next(r);
    h[1] = pcg32_next(r);
}
SCHEME_HOT void rocksdb_fastlocal_start(const probe_geom_t *g, const uint64_t *h,
                                        probe_it_t *it)
{
    it->z = (uint64_t)(((pcg_u128)h[0] * g->blocks) >> 32) * LINE_BITS;
    it->x = h[1];
}
SCHEME_HOT uint64_t rocksdb_fastlocal_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)g, (void)r;
    uint64_t p = it->z + (it->x >> (32 - 9)); /* 9-bit address within the 512-bit line */
    it->x = (uint32_t)(it->x * UINT32_C(0x9e3779b9));
    return p;
}
SCHEME_LOOPS(rocksdb_fastlocal)

/* ---- sbbf and kudu-block: split-block filters of 256-bit blocks, 8 words of 32 bits ----
 * Word i of the block gets bit (u32(x * SALT[i])) >> 27, from the same 8 salts in the
 * Parquet specification and in Kudu/Impala (kRehash). */
static const uint32_t SBBF_SALT[8] = {0x47b6137bu, 0x44974d91u, 0x8824ad5bu, 0xa2b7289du,
                                      0x705495c7u, 0x2df1424bu, 0x9efc4947u, 0x5c6bfb31u};
enum { SBBF_BLOCK = 256, SBBF_K = 8 };

/* ---- sbbf: apache/parquet-format BloomFilter.md at 24102ed5 (as parquet-java
 * BlockSplitBloomFilter at a3a1de15 and Arrow's cpp/src/parquet/bloom_filter.h at
 * 04448714) ----
 * One 64-bit word h (XXH64); z = m/256 blocks; block = ((h >> 32) * z) >> 32 in u64;
 * word i = 0..7 gets bit (u32(u32(h) * SALT[i])) >> 27. k is 8. Parquet's sizing makes
 * z a power of two; the arithmetic does not need it, so any z is taken (m rounded down
 * to whole blocks). The block product is taken in 128 bits (exact past 2^32 blocks; the
 * libraries' z stays below 2^22). */
static int sbbf_geometry(uint64_t m, unsigned k, uint64_t block, probe_geom_t *g)
{
    (void)block;
    if (k != SBBF_K)
        return SCHEME_EKFIXED;
    return lines_geometry(m, k, SBBF_BLOCK, 0, g);
}
SCHEME_HOT void sbbf_draw(const probe_geom_t *g, pcg32_t *r, uint64_t *h)
{
    (void)g;
    h[0] = pcg32_next64(r);
}
SCHEME_HOT void sbbf_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    it->z = (uint64_t)(((pcg_u128)(h[0] >> 32) * g->blocks) >> 32) * SBBF_BLOCK;
    it->x = (uint32_t)h[0];
    it->i = 0;
}
/* Bit (x * SALT[i] mod 2^32) >> 27 of word i of the block at z; i++. */
SCHEME_HOT uint64_t sbbf_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)g, (void)r;
    unsigned i = it->i++ & (SBBF_K - 1);
    return it->z + 32 * i + ((uint32_t)((uint32_t)it->x * SBBF_SALT[i]) >> 27);
}
SCHEME_LOOPS(sbbf)

/* ---- kudu-block: apache/kudu src/kudu/util/block_bloom_filter.{h,cc}
 * (Rehash32to32, BucketInsert), as Impala vendors it ----
 * One 32-bit word h; bucket = Rehash32to32(h) & directory_mask, with Rehash32to32(h) =
 * (u64(h) * 0x7850f11ec6d14889 + 0x6773610597ca4c63) >> 32 (u64 wraparound), and the
 * 8 bits as sbbf's from the same h. The directory is a power of two of 256-bit buckets,
 * so m must be a power of two >= 256 (else SCHEME_ENOTPOW2 / SCHEME_ESMALL); k is 8. The
 * bucket index is below 2^32 (a u32 there), so past 2^32 buckets the rest go unused. */
static int kudu_block_geometry(uint64_t m, unsigned k, uint64_t block, probe_geom_t *g)
{
    if (m < SBBF_BLOCK)
        return SCHEME_ESMALL;
    if ((m & (m - 1)) != 0)
        return SCHEME_ENOTPOW2;
    return sbbf_geometry(m, k, block, g);
}
#define kudu_block_draw leveldb_draw
SCHEME_HOT void kudu_block_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    uint32_t rehash = (uint32_t)((h[0] * UINT64_C(0x7850f11ec6d14889) +
                                  UINT64_C(0x6773610597ca4c63)) >> 32);
    it->z = (rehash & (g->blocks - 1)) * SBBF_BLOCK;
    it->x = h[0];
    it->i = 0;
}
#define kudu_block_next sbbf_next
SCHEME_LOOPS(kudu_block)

/* ---- hive-bloomk: apache/hive storage-api .../hive/common/util/BloomKFilter.java
 * (addHash) at 046c998e; also Druid's bloom extension (a copy) ----
 * hash1, hash2: the low and high halves of one 64-bit Murmur3 word, as Java ints.
 * firstHash = hash1 + hash2 (i32), ~firstHash if negative; block = firstHash %
 * totalBlockCount (int %, both >= 0) of 512-bit blocks (8 longs); for i = 1..k:
 * c = hash1 + (i + 1) * hash2 (i32), ~c if negative; long (c & 7) of the block, bit
 * (c >>> 3) & 63 of it. So the 9 in-block bits are those of a double-hashing sequence mod
 * 512 (multipliers 2..k+1), whose stride is 0 mod 512 with probability 1/512. m is
 * rounded down to whole blocks (Hive pads to them). */
static int hive_bloomk_geometry(uint64_t m, unsigned k, uint64_t block, probe_geom_t *g)
{
    (void)block;
    return lines_geometry(m, k, LINE_BITS, 0, g);
}
#define hive_bloomk_draw rocksdb_fastlocal_draw /* two 32-bit words */
SCHEME_HOT void hive_bloomk_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    uint32_t first = (uint32_t)h[0] + (uint32_t)h[1];
    if (first >> 31) /* negative as an int32: flip all its bits */
        first = ~first;
    it->z = first % g->blocks * LINE_BITS;
    it->x = h[0];
    it->y = h[1];
    it->i = 1; /* Hive's loop starts at i = 1 */
}
SCHEME_HOT uint64_t hive_bloomk_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)g, (void)r;
    uint32_t c = (uint32_t)it->x + ((uint32_t)it->i + 1) * (uint32_t)it->y;
    it->i++;
    if (c >> 31)
        c = ~c;
    return it->z + 64 * (c & 7) + ((c >> 3) & 63);
}
SCHEME_LOOPS(hive_bloomk)

/* ---- redisson: redisson/redisson redisson/src/main/java/org/redisson/
 * RedissonBloomFilter.java at 017b8306 ----
 * hash1, hash2: the two 64-bit halves of HighwayHash-128, as Java longs. hash = hash1;
 * for i < k: index (hash & Long.MAX_VALUE) % size, then hash += hash2 when i is even,
 * hash1 when odd (i64 wraparound). So probes 2j and 2j+1 are hash1 + j(hash1 + hash2)
 * and (j + 1)(hash1 + hash2): two progressions of one stride, one anchored at 0. */
#define redisson_draw guava64_draw
SCHEME_HOT void redisson_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    (void)g;
    it->x = h[0];
    it->y = h[1]; /* added after even probes */
    it->z = h[0]; /* added after odd probes */
    it->i = 0;
}
SCHEME_HOT uint64_t redisson_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)r;
    uint64_t p = (it->x & INT64_MAX) % g->m;
    it->x += it->i++ % 2 == 0 ? it->y : it->z;
    return p;
}
SCHEME_LOOPS(redisson)

/* ---- fastbloom: the Rust crate fastbloom 0.17.0 (tomtomwombat/fastbloom at 5bbfc14,
 * src/lib.rs insert_hash / contains_hash / index, src/hasher.rs DoubleHasher) ----
 * One 64-bit word h (its source_hash, SipHash-1-3 by default). Probe 0 is index(m, h) =
 * (h * m) >> 64 in 128 bits (multiply-shift); then h2 = h * 0x517cc1b727220a95 (u64) and
 * each next probe is h = rotl64(h, 5) + h2 (u64), index(m, h). All k from one word. */
#define FASTBLOOM_MUL UINT64_C(0x517cc1b727220a95)
#define fastbloom_draw sbbf_draw /* one 64-bit word */
SCHEME_HOT void fastbloom_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    (void)g;
    it->x = h[0];
    it->y = h[0] * FASTBLOOM_MUL;
    it->i = 0;
}
SCHEME_HOT uint64_t fastbloom_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)r;
    if (it->i++ > 0) /* probe 0 uses the word itself */
        it->x = ((it->x << 5) | (it->x >> 59)) + it->y;
    return (uint64_t)(((pcg_u128)it->x * g->m) >> 64);
}
SCHEME_LOOPS(fastbloom)

/* ---- hadoop: apache/hadoop hadoop-common org/apache/hadoop/util/bloom/HashFunction.java
 * (hash(Key), read at 51ed1d7b of the collabH/hadoop mirror) with BloomFilter.java at
 * 48817814 ----
 * k 32-bit hashes, each seeded with the previous one's output: with an ideal hash, k
 * independent 32-bit words x_i, drawn fresh per probe (as `independent` draws). Probe i
 * is Math.abs(x_i % maxValue) with x_i a Java int and maxValue = m an int: the remainder
 * takes the dividend's sign, so the position is |x_i| mod m. m must fit an int (m <
 * 2^31, else SCHEME_EMBIG). No hash words: positions_drawn maps the k draws. */
static int hadoop_geometry(uint64_t m, unsigned k, uint64_t block, probe_geom_t *g)
{
    if (m > INT32_MAX)
        return SCHEME_EMBIG;
    return geom_plain(m, k, block, g);
}
/* Java's Math.abs((int)x % m) for a 32-bit word x and 0 < m < 2^31. */
SCHEME_HOT uint64_t hadoop_index(uint32_t x, uint64_t m)
{
    int64_t v = (int64_t)(int32_t)x % (int64_t)m; /* C's % also truncates toward zero */
    return (uint64_t)(v < 0 ? -v : v);
}
#define hadoop_draw independent_draw
#define hadoop_start independent_start
SCHEME_HOT uint64_t hadoop_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)it;
    return hadoop_index(pcg32_next(r), g->m);
}
SCHEME_LOOPS(hadoop)

static uint64_t draw_below_2_32(const probe_geom_t *g, unsigned i)
{
    (void)g, (void)i;
    return UINT64_C(1) << 32;
}
static void hadoop_positions_drawn(const probe_geom_t *g, const uint64_t *h, const uint64_t *d,
                                   uint64_t *pos)
{
    (void)h;
    for (unsigned i = 0; i < g->k; i++)
        pos[i] = hadoop_index((uint32_t)d[i], g->m);
}

/* ---- bits-and-blooms: bits-and-blooms/bloom (Go) bloom.go, location(), unchanged since
 * 2015-03 ----
 * Four 64-bit words h0..h3 (in the library, MurmurHash3 x64-128 of the data and of the
 * data with a byte 0x01 appended; here ideal words); probe i = 0..k-1 is
 * (h[i % 2] + i * h[2 + ((i + i % 2) % 4) / 2]) mod 2^64, then mod m: for i mod 4 = 0,
 * 1, 2, 3 the pairs (h0, h2), (h1, h3), (h0, h3), (h1, h2). Its own iterator holds the
 * four words. */
typedef struct probe_it4 {
    uint64_t h[4];
    unsigned i;
} probe_it4_t;

SCHEME_HOT void bits_and_blooms_draw(const probe_geom_t *g, pcg32_t *r, uint64_t *h)
{
    (void)g;
    for (int j = 0; j < 4; j++)
        h[j] = pcg32_next64(r);
}
SCHEME_HOT void bits_and_blooms_start(const probe_geom_t *g, const uint64_t *h, probe_it4_t *it)
{
    (void)g;
    memcpy(it->h, h, sizeof it->h);
    it->i = 0;
}
SCHEME_HOT uint64_t bits_and_blooms_next(const probe_geom_t *g, pcg32_t *r, probe_it4_t *it)
{
    (void)r;
    uint64_t i = it->i++;
    return (it->h[i % 2] + i * it->h[2 + ((i + i % 2) % 4) / 2]) % g->m;
}
SCHEME_LOOPS_IT(bits_and_blooms, probe_it4_t)

static int words_any4(const probe_geom_t *g, const uint64_t *h)
{
    (void)g, (void)h;
    return SCHEME_OK;
}

/* Schemes whose library holds m in a Java int (or, for bloomfilter-js, a signed 32-bit
 * shift): m up to limit, else SCHEME_EMBIG. */
static int geom_int_m(uint64_t m, unsigned k, uint64_t limit, probe_geom_t *g)
{
    if (m > limit)
        return SCHEME_EMBIG;
    return geom_plain(m, k, 0, g);
}

/* ---- spark-v2: apache/spark common/sketch BloomFilterImplV2.java
 * (scatterHashAndSetAllBits, scatterHashAndGetAllBits) at c06cb38c, the version built on
 * BloomFilterBase and HiLoHash ----
 * Two 32-bit words h1, h2 (Murmur3_x86_32 of the item, then seeded with h1: with an ideal
 * hash, independent), read as Java ints. combinedHash = (long) h1 * Integer.MAX_VALUE
 * (exact in i64: |h1| <= 2^31); for i = 0..k-1: combinedHash += h2 (sign-extended), and
 * the position is combinedIndex % bitSize with combinedIndex = ~combinedHash if negative,
 * else combinedHash. The running value stays within 2^62 + k 2^31: no i64 overflow.
 * An earlier V2 (at 013bfe4f, the one the project's survey quotes) wrote the flip back
 * into combinedHash; with h2 < 0 the probes then bounce between two values once the sum
 * crosses 0. The version here is the later one (its refactoring follows the
 * BloomFilterBase of 0314963e, and it is the arithmetic Comet ports as Spark 4.1's).
 * (Spark's V1, BloomFilterImpl.java at 0314963e, is Guava's MITZ_32 loop exactly: it is
 * guava32, not repeated here.) */
#define spark_v2_draw guava32_draw
SCHEME_HOT void spark_v2_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    (void)g;
    it->x = (uint64_t)((int64_t)(int32_t)(uint32_t)h[0] * INT32_MAX);
    it->y = (uint64_t)(int64_t)(int32_t)(uint32_t)h[1]; /* sign-extended */
}
SCHEME_HOT uint64_t spark_v2_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)r;
    it->x += it->y;
    int64_t c = (int64_t)it->x;
    return (uint64_t)(c < 0 ? ~c : c) % g->m; /* the flip is the index's only */
}
SCHEME_LOOPS(spark_v2)

/* ---- cassandra: apache/cassandra src/java/org/apache/cassandra/utils/BloomFilter.java
 * (indexes, setIndexes; current hash order) at 02c34893 ----
 * Two 64-bit words hash[0], hash[1] (MurmurHash3 x64-128, seed 0); base = hash[1], inc =
 * hash[0]; for i < k: position FBUtilities.abs(base % max) with base a Java long and
 * Java's signed remainder (sign of the dividend), then base += inc (i64 wraparound).
 * max = bitset.capacity() = m. So the position is |base rem m| where base is read as
 * signed: index 0 has two preimages per residue class, others one of each sign. The
 * older order (oldBfHashOrder, and Cassandra 1.x) swaps base and inc: the same
 * distribution with the words relabelled. */
#define cassandra_draw guava64_draw
SCHEME_HOT void cassandra_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    (void)g;
    it->x = h[1]; /* base = hash[1] */
    it->y = h[0]; /* inc = hash[0] */
}
SCHEME_HOT uint64_t cassandra_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)r;
    int64_t v = (int64_t)it->x % (int64_t)g->m; /* C's % truncates as Java's does; m < 2^63 */
    it->x += it->y;
    return (uint64_t)(v < 0 ? -v : v);
}
SCHEME_LOOPS(cassandra)

/* ---- commons-enhanced: apache/commons-collections src/main/java/org/apache/
 * commons/collections4/bloomfilter/EnhancedDoubleHasher.java (indices().processIndices)
 * and BitMaps.mod at cf36204c (4.6.1-SNAPSHOT) ----
 * Two 64-bit words initial, increment, read as unsigned (BitMaps.mod is
 * Long.remainderUnsigned): index = initial mod m, inc = increment mod m; emit index;
 * for i = 1..k-1: index -= inc (+ m if negative), emit it; inc -= i (+ m if negative).
 * So index_i = (h1 - i h2 + (i^3 - i)/6) mod m: enhanced double hashing stepping
 * backwards. The k < bits branch only (k < m here). m is a Java int: m <= 2^31 - 1. */
static int commons_enhanced_geometry(uint64_t m, unsigned k, uint64_t block, probe_geom_t *g)
{
    (void)block;
    return geom_int_m(m, k, INT32_MAX, g);
}
#define commons_enhanced_draw guava64_draw
SCHEME_HOT void commons_enhanced_start(const probe_geom_t *g, const uint64_t *h,
                                       probe_it_t *it)
{
    it->x = h[0] % g->m;
    it->y = h[1] % g->m;
    it->i = 0;
}
SCHEME_HOT uint64_t commons_enhanced_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)r;
    if (it->i > 0) {
        it->x = it->x >= it->y ? it->x - it->y : it->x + g->m - it->y;
        it->y = it->y >= it->i ? it->y - it->i : it->y + g->m - it->i;
    }
    it->i++;
    return it->x;
}
SCHEME_LOOPS(commons_enhanced)

/* ---- libbloom: jvirkki/libbloom bloom.c (bloom_check_add) at v2.0 (57b35ea2) ----
 * Two 32-bit words a = murmurhash2(buf, len, 0x9747b28c), b = murmurhash2(buf, len, a)
 * (unsigned int; with an ideal hash, independent); x = (a + b*i) % bits with i an
 * unsigned long, so the sum is exact in 64 bits (no wrap) for i = 0..k-1. For m > 2^32
 * probe 0 stays below 2^32. (v1.x computed it in unsigned int: (a + i*b) mod 2^32 mod
 * m, i = 0..k-1, which is guava32u with h1 relabelled as h1 + h2: not repeated here.) */
#define libbloom_draw guava32_draw
#define libbloom_start double_start /* x = a, y = b */
SCHEME_HOT uint64_t libbloom_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)r;
    uint64_t p = it->x % g->m;
    it->x += it->y; /* a + i*b < (k + 1) 2^32: exact */
    return p;
}
SCHEME_LOOPS(libbloom)

/* ---- rust-bloomfilter: the Rust crate bloomfilter 3.0.1 (jedisct1/rust-bloom-filter at
 * 1eb22d7a) src/lib.rs bloom_hash ----
 * Two 64-bit words h0, h1 (two keyed SipHash-1-3); probe 0 is h0 % m, probe 1 is h1 % m,
 * probe i >= 2 is ((h0 + i*h1) mod 2^64 % 0xFFFFFFFFFFFFFFC5) % m (the largest prime
 * below 2^64: values from it to 2^64 - 1 fold onto 0..58). */
#define RUST_BLOOM_PRIME UINT64_C(0xFFFFFFFFFFFFFFC5)
#define rust_bloomfilter_draw guava64_draw
SCHEME_HOT void rust_bloomfilter_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    (void)g;
    it->x = h[0];
    it->y = h[1];
    it->z = h[0] + 2 * h[1]; /* h0 + i*h1 for i = 2, u64 */
    it->i = 0;
}
SCHEME_HOT uint64_t rust_bloomfilter_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)r;
    unsigned i = it->i++;
    if (i < 2)
        return (i == 0 ? it->x : it->y) % g->m;
    uint64_t p = it->z % RUST_BLOOM_PRIME % g->m;
    it->z += it->y;
    return p;
}
SCHEME_LOOPS(rust_bloomfilter)

/* ---- pybloom-live: joseph-fox/python-bloomfilter pybloom_live/pybloom.py
 * (make_hashfuncs, BloomFilter.add) at 4.0.0 (da1a8b3d) ----
 * Partitioned: k slices of s = floor(m/k) bits (m used = k s, as `partitioned`). Slice j
 * takes chunk j of the digest, an unsigned word of 16 bits if s < 2^15, 32 bits if
 * s < 2^31, else 64 bits, and sets bit j s + (w_j mod s). With an ideal digest the
 * chunks are k fresh uniform words of that width, drawn per probe (positions_drawn). */
SCHEME_HOT uint64_t pybloom_word(const probe_geom_t *g, pcg32_t *r)
{
    if (g->w < (UINT64_C(1) << 15))
        return pcg32_next(r) >> 16; /* 'H': 16 bits */
    if (g->w < (UINT64_C(1) << 31))
        return pcg32_next(r); /* 'I' */
    return pcg32_next64(r); /* 'Q' */
}
#define pybloom_live_draw partitioned_draw
#define pybloom_live_start partitioned_start
SCHEME_HOT uint64_t pybloom_live_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    uint64_t p = it->x + pybloom_word(g, r) % g->w;
    it->x += g->w;
    return p;
}
SCHEME_LOOPS(pybloom_live)

/* The chunk's range; 2^64 does not fit, so for 64-bit chunks the bound is 2^64 - 1. */
static uint64_t pybloom_live_draw_bound(const probe_geom_t *g, unsigned i)
{
    (void)i;
    if (g->w < (UINT64_C(1) << 15))
        return UINT64_C(1) << 16;
    if (g->w < (UINT64_C(1) << 31))
        return UINT64_C(1) << 32;
    return UINT64_MAX;
}
static void pybloom_live_positions_drawn(const probe_geom_t *g, const uint64_t *h,
                                         const uint64_t *d, uint64_t *pos)
{
    (void)h;
    for (unsigned i = 0; i < g->k; i++)
        pos[i] = i * g->w + d[i] % g->w;
}

/* ---- bloomfilter-js: jasondavies/bloomfilter.js bloomfilter.js (locations) at 0.0.21
 * (ad00141a) ----
 * Two 32-bit words, the halves of its 64-bit FNV-1a variant, as signed 32-bit ints a, b
 * ((v3 << 16) | v2 is an int32 in JS); a = a % m, + m if negative (JS % takes the
 * dividend's sign), the same for b; r[0] = a; for i = 1..k-1: a = (a + b) % m, then
 * b = (b + i) % m, r[i] = a. That is enhanced double hashing, (h1 + i h2 + (i^3 - i)/6)
 * mod m, on h1 = a mod m, h2 = b mod m from signed 32-bit words. The library indexes its
 * Int32Array with a signed shift (l >> 5), so positions past 2^31 are not stored: m <=
 * 2^31 here, else SCHEME_EMBIG. */
static int bloomfilter_js_geometry(uint64_t m, unsigned k, uint64_t block, probe_geom_t *g)
{
    (void)block;
    return geom_int_m(m, k, UINT64_C(1) << 31, g);
}
/* Math mod of a 32-bit word read as a signed int: x % m, + m if negative. */
SCHEME_HOT uint64_t js_mod(uint64_t x, uint64_t m)
{
    int64_t v = (int64_t)(int32_t)(uint32_t)x % (int64_t)m;
    return (uint64_t)(v < 0 ? v + (int64_t)m : v);
}
#define bloomfilter_js_draw guava32_draw
SCHEME_HOT void bloomfilter_js_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    it->x = js_mod(h[0], g->m);
    it->y = js_mod(h[1], g->m);
    it->i = 0;
}
#define bloomfilter_js_next enhanced_next /* emit a; a += b; i++; b += i (mod m) */
SCHEME_LOOPS(bloomfilter_js)

/* ---- redisbloom: RedisBloom/RedisBloom deps/bloom/bloom.c (bloom_check_add64, the
 * CHECK_ADD_FUNC(uint64_t, ...) loop) and src/rebloom.c at b28c2945; the generation
 * since PR #155 (2019-12, BLOOM_OPT_FORCE64 | BLOOM_OPT_NOROUND) ----
 * Two 64-bit words a = MurmurHash64A(item, 0xc6a4a7935bd1e995), b = MurmurHash64A(item,
 * a) (with an ideal hash, independent); x_i = ((a + i*b) mod 2^64) mod bits, i =
 * 0..k-1. Also Bendersky's Go filter (eliben/code-for-blog 2025/bloom/bloom.go at
 * ec2c2dd5: (h1 + i*h2) % m in uint64, i = 0..k-1), which is this arithmetic exactly.
 * The 2018-2019 generation (bits = 2^n2, (a + i b) mod 2^n2 in u64) is this scheme at a
 * power-of-two m; the one before 2018-02 (u32 a, b, i: (a + i b) mod 2^32 mod 2^n2) is
 * redisbloom-u32 below. */
#define redisbloom_draw guava64_draw
#define redisbloom_start double_start /* x = a, y = b */
SCHEME_HOT uint64_t redisbloom_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)r;
    uint64_t p = it->x % g->m;
    it->x += it->y; /* u64 wraparound */
    return p;
}
SCHEME_LOOPS(redisbloom)

/* ---- redisbloom-u32: RedisBloom/RedisBloom contrib/bloom.c (CHECK_ADD_FUNC,
 * bloom_check_add32, bloom_check_add64) and contrib/bloom.h (bloom_hashval) at v1.1.0
 * (57a032dd, 2018-01-29); the same in v1.0.0 (9983a5db, 2017-09-14), until dc7d8095
 * (2018-02-14, "Use 64 bit functions for rebloom by default", first released in v1.1.1)
 * ----
 * Two 32-bit words a = murmurhash2(item, 0x9747b28c), b = murmurhash2(item, a) (the
 * fields of bloom_hashval are unsigned int; with an ideal hash, independent) and an
 * unsigned int i, so a + i*b wraps mod 2^32 before the % (1 << n2) (uint32_t, n2 <= 31)
 * or % (1LLU << n2) (uint64_t, n2 > 31): position ((a + i b) mod 2^32) mod 2^n2, i =
 * 0..k-1. For m > 2^32 every position is below 2^32 (test_bit_set_bit took the position
 * as an unsigned int as well). rebloom rounded bits up to 2^n2, so m must be a power of
 * two (else SCHEME_ENOTPOW2). Relabelling h1 = a - b makes this guava32u's sequence
 * (i = 1..k) at a power-of-two m. */
static int redisbloom_u32_geometry(uint64_t m, unsigned k, uint64_t block, probe_geom_t *g)
{
    return double_odd_geometry(m, k, block, g); /* m a power of two, k < m */
}
#define redisbloom_u32_draw guava32_draw       /* two 32-bit words */
#define redisbloom_u32_start double_start      /* x = a, y = b */
SCHEME_HOT uint64_t redisbloom_u32_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)r;
    uint64_t p = it->x & (g->m - 1); /* mod 2^n2; x < 2^32, so past 2^32 it is x itself */
    it->x = (uint32_t)(it->x + it->y); /* a + i*b in unsigned int */
    return p;
}
SCHEME_LOOPS(redisbloom_u32)

/* ---- bloomfilter-js-0.0.17 and bloomfilter-js-0.0.16: jasondavies/bloomfilter.js
 * bloomfilter.js (locations, fnv_1a, fnv_1a_b, fnv_multiply, fnv_mix) at 0.0.17
 * (ea32aabe, 2018-04-19; unchanged in 0.0.18, 649e43e6, until 0.0.19 of 2024-12-18) and
 * at 0.0.16 (27b1760b, 2015-06-04) ----
 * a = fnv_1a(v) and b are signed 32-bit ints (fnv_mix returns a & 0xffffffff, an int32
 * in JS); x = a % m; for i < k: r[i] = x < 0 ? x + m : x; x = (x + b) % m. JS % takes
 * the dividend's sign and the Number sums are exact, so r[i] = (a + i b) mod m with a, b
 * signed. r is a typed array sized for m (Uint8/16/32Array; Uint32Array past 2^32, as
 * kbytes is then 8), so past m = 2^32 the position is stored mod 2^32 and the bits above
 * are never reached. add and test index with Math.floor(l / 32), not a shift, so there
 * is no 2^31 limit as in 0.0.21; m <= 2^52 here (SCHEME_EMBIG beyond), where x + b is
 * still an exact Number. Engine limits on typed-array lengths are not modelled.
 * 0.0.17-0.0.18: b = fnv_1a(v, 1576284489), a second seeded hash: two independent words.
 * <= 0.0.16: b = fnv_1a_b(a) = fnv_mix(fnv_multiply(a)), a fixed function of a: one
 * 32-bit word per key. 0.0.16's fnv_mix shifts right logically (>>>); 0.0.15 and before
 * used >> (sign-propagating), a different mix not modelled here. */
static int bloomfilter_js_17_geometry(uint64_t m, unsigned k, uint64_t block, probe_geom_t *g)
{
    (void)block;
    return geom_int_m(m, k, UINT64_C(1) << 52, g);
}
/* 0.0.16's fnv_1a_b on the bits of a: fnv_multiply is a * 16777619 mod 2^32 (a + (a << 1)
 * + (a << 4) + (a << 7) + (a << 8) + (a << 24)); fnv_mix's +=, ^= >>> and final & are all
 * mod 2^32 in JS, so u32 arithmetic gives the same bits. */
SCHEME_HOT uint32_t bloomfilter_js_fnv_1a_b(uint32_t a)
{
    a *= UINT32_C(16777619);
    a += a << 13;
    a ^= a >> 7;
    a += a << 3;
    a ^= a >> 17;
    a += a << 5;
    return a;
}
/* x = a % m (C's % truncates as JS's does), y = b, both from int32 bits. */
SCHEME_HOT void bloomfilter_js_loop_start(const probe_geom_t *g, uint32_t a, uint32_t b,
                                          probe_it_t *it)
{
    it->x = (uint64_t)((int64_t)(int32_t)a % (int64_t)g->m);
    it->y = (uint64_t)(int64_t)(int32_t)b;
}
SCHEME_HOT uint64_t bloomfilter_js_17_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)r;
    int64_t x = (int64_t)it->x, m = (int64_t)g->m;
    uint64_t p = (uint64_t)(x < 0 ? x + m : x);
    it->x = (uint64_t)((x + (int64_t)it->y) % m); /* |x + b| < m + 2^31: no overflow */
    return (uint32_t)p; /* the Uint32Array store; p < m, so a no-op up to m = 2^32 */
}
#define bloomfilter_js_17_draw guava32_draw /* two 32-bit words */
SCHEME_HOT void bloomfilter_js_17_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    bloomfilter_js_loop_start(g, (uint32_t)h[0], (uint32_t)h[1], it);
}
SCHEME_LOOPS(bloomfilter_js_17)

#define bloomfilter_js_16_draw leveldb_draw /* one 32-bit word */
SCHEME_HOT void bloomfilter_js_16_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    bloomfilter_js_loop_start(g, (uint32_t)h[0], bloomfilter_js_fnv_1a_b((uint32_t)h[0]), it);
}
#define bloomfilter_js_16_next bloomfilter_js_17_next
SCHEME_LOOPS(bloomfilter_js_16)

/* ---- the table: adding a scheme is one entry here (plus its functions and tests) ---- */

/* The functions SCHEME_LOOPS(id) generated: the loops alone, for schemes without hash
 * words, or with the positions function too. */
#define SCHEME_LOOP_FNS(id)                                                            \
    .insert = id##_insert, .lookup = id##_lookup, .insert_shared = id##_insert_shared, \
    .lookup_prefetch = id##_lookup_prefetch
#define SCHEME_FNS(id) .positions = id##_positions, SCHEME_LOOP_FNS(id)

static const scheme_t schemes[] = {
    {.name = "independent",
     .summary = "k independent draws U[0,m): the model behind formula and exact",
     .geometry = geom_plain, SCHEME_LOOP_FNS(independent),
     .positions_drawn = independent_positions_drawn, .draw_bound = draw_below_m,
     .exact = independent_exact, .cond = SCHEME_COND_FILL},
    {.name = "partitioned",
     .summary = "k slices of floor(m/k) bits, one independent draw in each",
     .geometry = partitioned_geometry, SCHEME_LOOP_FNS(partitioned),
     .positions_drawn = partitioned_positions_drawn, .draw_bound = draw_below_w,
     .exact = partitioned_exact, .cond = SCHEME_COND_SLICES},
    {.name = "double",
     .summary = "Kirsch-Mitzenmacher (h1 + i*h2) mod m, stride straight from the hash (0 allowed)",
     .nwords = 2, .geometry = geom_plain, .check_words = words2_below_m, SCHEME_FNS(double),
     .cond = SCHEME_COND_SHIFT, .stride_count = stride_all_m, .stride_at = stride_at_plain,
     .stride_index = stride_index_plain},
    {.name = "double-odd",
     .summary = "double hashing with the stride forced odd; m a power of two (seed 003)",
     .nwords = 2, .geometry = double_odd_geometry, .check_words = double_odd_words,
     SCHEME_FNS(double_odd), .cond = SCHEME_COND_SHIFT, .stride_count = stride_count_odd,
     .stride_at = stride_at_odd, .stride_index = stride_index_odd},
    {.name = "double-prime",
     .summary = "double hashing mod the largest prime <= m, stride in [1,m')",
     .nwords = 2, .geometry = double_prime_geometry, .check_words = double_prime_words,
     SCHEME_FNS(double_prime), .cond = SCHEME_COND_SHIFT,
     .stride_count = stride_count_nonzero, .stride_at = stride_at_nonzero,
     .stride_index = stride_index_nonzero},
    {.name = "enhanced",
     .summary = "enhanced double hashing (h1 + i*h2 + (i^3-i)/6) mod m (Dillinger-Manolios)",
     .nwords = 2, .geometry = geom_plain, .check_words = words2_below_m, SCHEME_FNS(enhanced),
     .cond = SCHEME_COND_SHIFT, .stride_count = stride_all_m, .stride_at = stride_at_plain,
     .stride_index = stride_index_plain},
    {.name = "triple",
     .summary = "triple hashing (h1 + i*h2 + i(i-1)/2*h3) mod m (Dillinger-Manolios)",
     .nwords = 3, .geometry = geom_plain, .check_words = words3_below_m, SCHEME_FNS(triple),
     .cond = SCHEME_COND_SHIFT, .stride_count = stride_count_pairs,
     .stride_at = stride_at_pairs, .stride_index = stride_index_pairs},
    {.name = "guava32",
     .summary = "Guava's MURMUR128_MITZ_32: int32 hash1 + i*hash2, i = 1..k, ~c if negative, "
                "mod m (flawed: indexes < 2^31)",
     .nwords = 2, .geometry = geom_plain, .check_words = words2_32bit, SCHEME_FNS(guava32),
     .model = guava32_model},
    {.name = "guava32u",
     .summary = "guava32 in unsigned 32-bit arithmetic, no flip (still uneven)",
     .nwords = 2, .geometry = geom_plain, .check_words = words2_32bit, SCHEME_FNS(guava32u),
     .model = guava32u_model},
    {.name = "guava64",
     .summary = "Guava's fix MURMUR128_MITZ_64: (c & (2^63-1)) mod m, c = hash1 + i*hash2 in "
                "64 bits",
     .nwords = 2, .geometry = geom_plain, .check_words = words_any, SCHEME_FNS(guava64),
     .model = guava64_model},
    {.name = "hash32",
     .summary = "all k probes from one 32-bit hash (independent draws seeded by it)",
     .nwords = 1, .geometry = geom_plain, .check_words = words1_32bit, SCHEME_FNS(hash32),
     .model = hash32_model},
    {.name = "blocked",
     .summary = "a uniform block of B bits (default 512), k independent positions in it "
                "(Putze et al.)",
     .nwords = 1, .block_default = BLOCKED_DEFAULT, .geometry = blocked_geometry, .check_words = block_word,
     SCHEME_LOOP_FNS(blocked), .positions_drawn = blocked_positions_drawn,
     .draw_bound = draw_below_w, .exact = blocked_exact, .model = blocked_model,
     .model_rocksdb = blocked_model_rocksdb,
     .cond = SCHEME_COND_BLOCKS},
    {.name = "split-block",
     .summary = "a uniform block of B bits (default 256) in k words, one position in each "
                "(Parquet, Arrow, Impala, Kudu at B = 256, k = 8)",
     .nwords = 1, .block_default = SPLIT_BLOCK_DEFAULT, .geometry = split_block_geometry, .check_words = block_word,
     SCHEME_LOOP_FNS(split_block), .positions_drawn = split_block_positions_drawn,
     .draw_bound = draw_below_w, .exact = split_block_exact, .model = split_block_model,
     .cond = SCHEME_COND_SPLIT},
    {.name = "leveldb",
     .summary = "LevelDB: one u32 h; h % m, then h += rotr32(h,17) in u32 (also Pebble's "
                "block filter)",
     .nwords = 1, .geometry = geom_plain, .check_words = words1_32bit, SCHEME_FNS(leveldb),
     .model = one_word_model},
    {.name = "rocksdb-legacy",
     .summary = "RocksDB legacy full filter: one u32 h; odd count of 512-bit lines, line "
                "h % lines, bits h & 511, h += rotr32(h,17)",
     .nwords = 1, .geometry = rocksdb_legacy_geometry, .check_words = words1_32bit,
     SCHEME_FNS(rocksdb_legacy), .model = one_word_lines_model},
    {.name = "rocksdb-fastlocal",
     .summary = "RocksDB FastLocalBloom: 512-bit line by fastrange of u32 h1; bits h >> 23, "
                "h = h2 * 0x9e3779b9^i (u32)",
     .nwords = 2, .geometry = rocksdb_fastlocal_geometry, .check_words = words2_32bit,
     SCHEME_FNS(rocksdb_fastlocal), .model = lines_model},
    {.name = "sbbf",
     .summary = "Parquet/Arrow split-block: u64 h; block ((h>>32)*z)>>32, word i bit "
                "(u32(h)*salt[i])>>27; k = 8",
     .nwords = 1, .geometry = sbbf_geometry, .check_words = words_any, SCHEME_FNS(sbbf),
     .model = blocks_model},
    {.name = "kudu-block",
     .summary = "Kudu/Impala block filter: u32 h; bucket Rehash32to32(h) & mask (m a power "
                "of two), bits as sbbf; k = 8",
     .nwords = 1, .geometry = kudu_block_geometry, .check_words = words1_32bit,
     SCHEME_FNS(kudu_block), .model = one_word_blocks_model},
    {.name = "hive-bloomk",
     .summary = "Hive BloomKFilter: int32 f = h1+h2, c = h1+(i+1)*h2 (i = 1..k), ~ if < 0; "
                "512-bit block f % blocks; long c&7, bit (c>>>3)&63",
     .nwords = 2, .geometry = hive_bloomk_geometry, .check_words = words2_32bit,
     SCHEME_FNS(hive_bloomk), .model = lines_model},
    {.name = "redisson",
     .summary = "Redisson: (c & (2^63-1)) % m, c = h1, then c += h2 after even probes, h1 "
                "after odd (u64)",
     .nwords = 2, .geometry = geom_plain, .check_words = words_any, SCHEME_FNS(redisson)},
    {.name = "fastbloom",
     .summary = "Rust fastbloom 0.17: one u64 h; (h*m)>>64, then h = rotl64(h,5) + "
                "h0*0x517cc1b727220a95 (u64)",
     .nwords = 1, .geometry = geom_plain, .check_words = words_any, SCHEME_FNS(fastbloom)},
    {.name = "hadoop",
     .summary = "Hadoop util.bloom: k independent int32 words, Math.abs(x % m); m < 2^31",
     .geometry = hadoop_geometry, SCHEME_LOOP_FNS(hadoop),
     .positions_drawn = hadoop_positions_drawn, .draw_bound = draw_below_2_32,
     .model = int31_model},
    {.name = "bits-and-blooms",
     .summary = "bits-and-blooms/bloom (Go): (h[i%2] + i*h[2+((i+i%2)%4)/2]) mod 2^64 mod m, "
                "four 64-bit words",
     .nwords = 4, .geometry = geom_plain, .check_words = words_any4,
     SCHEME_FNS(bits_and_blooms)},
    {.name = "spark-v2",
     .summary = "Spark sketch BloomFilterImplV2: c = i64(h1)*(2^31-1); c += int32 h2, "
                "(c < 0 ? ~c : c) % m; i = 0..k-1",
     .nwords = 2, .geometry = geom_plain, .check_words = words2_32bit, SCHEME_FNS(spark_v2)},
    {.name = "cassandra",
     .summary = "Cassandra BloomFilter: c = h[1]; |c rem m| (Java long %, abs), c += h[0] "
                "(u64)",
     .nwords = 2, .geometry = geom_plain, .check_words = words_any, SCHEME_FNS(cassandra)},
    {.name = "commons-enhanced",
     .summary = "Commons Collections EnhancedDoubleHasher: (h1 - i*h2 + (i^3-i)/6) mod m from "
                "unsigned u64 h1 mod m, h2 mod m; m < 2^31",
     .nwords = 2, .geometry = commons_enhanced_geometry, .check_words = words_any,
     SCHEME_FNS(commons_enhanced)},
    {.name = "libbloom",
     .summary = "libbloom 2.0: u32 a, b; (a + i*b) mod m, the sum exact in 64 bits, i = "
                "0..k-1",
     .nwords = 2, .geometry = geom_plain, .check_words = words2_32bit, SCHEME_FNS(libbloom)},
    {.name = "rust-bloomfilter",
     .summary = "Rust bloomfilter 3.0.1: h0 % m, h1 % m, then (h0 + i*h1) mod 2^64 mod "
                "(2^64-59) mod m",
     .nwords = 2, .geometry = geom_plain, .check_words = words_any,
     SCHEME_FNS(rust_bloomfilter)},
    {.name = "pybloom-live",
     .summary = "pybloom-live: k slices of floor(m/k) bits, slice j at word_j mod s; words "
                "u16 (s < 2^15), u32 (s < 2^31), else u64",
     .geometry = partitioned_geometry, SCHEME_LOOP_FNS(pybloom_live),
     .positions_drawn = pybloom_live_positions_drawn, .draw_bound = pybloom_live_draw_bound,
     .model = pybloom_live_model},
    {.name = "bloomfilter-js",
     .summary = "bloomfilter.js 0.0.21: enhanced double hashing on int32 a, b reduced mod m "
                "(JS %, + m if < 0); m <= 2^31",
     .nwords = 2, .geometry = bloomfilter_js_geometry, .check_words = words2_32bit,
     SCHEME_FNS(bloomfilter_js)},
    {.name = "redisbloom",
     .summary = "RedisBloom (64-bit, since 2019-12): ((a + i*b) mod 2^64) mod m, u64 a, b, "
                "i = 0..k-1 (also Bendersky's Go filter)",
     .nwords = 2, .geometry = geom_plain, .check_words = words_any, SCHEME_FNS(redisbloom)},
    {.name = "redisbloom-u32",
     .summary = "RedisBloom before 2018-02 (v1.0-1.1.0): u32 a, b, i; ((a + i*b) mod 2^32) mod "
                "m, m a power of two; i = 0..k-1",
     .nwords = 2, .geometry = redisbloom_u32_geometry, .check_words = words2_32bit,
     SCHEME_FNS(redisbloom_u32), .model = below_2_32_model},
    {.name = "bloomfilter-js-0.0.17",
     .summary = "bloomfilter.js 0.0.17-0.0.18: int32 a, b; (a + i*b) mod m (JS %, + m if < 0), "
                "stored mod 2^32; i = 0..k-1",
     .nwords = 2, .geometry = bloomfilter_js_17_geometry, .check_words = words2_32bit,
     SCHEME_FNS(bloomfilter_js_17)},
    {.name = "bloomfilter-js-0.0.16",
     .summary = "bloomfilter.js <= 0.0.16: as bloomfilter-js-0.0.17 with b = fnv_1a_b(a): one "
                "32-bit word per key",
     .nwords = 1, .geometry = bloomfilter_js_17_geometry, .check_words = words1_32bit,
     SCHEME_FNS(bloomfilter_js_16), .model = one_word_model},
};

_Static_assert(SCHEME_COND_NONE == 0, "a scheme without .cond must be lookups-only");

size_t scheme_count(void) { return sizeof schemes / sizeof schemes[0]; }

const scheme_t *scheme_at(size_t i) { return i < scheme_count() ? &schemes[i] : NULL; }

const scheme_t *scheme_find(const char *name)
{
    for (size_t i = 0; i < scheme_count(); i++)
        if (strcmp(schemes[i].name, name) == 0)
            return &schemes[i];
    return NULL;
}

const char *scheme_strerror(int status)
{
    switch (status) {
    case SCHEME_OK: return "ok";
    case SCHEME_EKBIG: return "more probes than bits (k must be < m)";
    case SCHEME_ENOTPOW2: return "the scheme needs a power-of-two number of bits";
    case SCHEME_ESMALL: return "too few bits for the scheme";
    case SCHEME_EWORD: return "hash word outside the range the scheme draws it from";
    case SCHEME_EBLOCK: return "block size must be a power of two from 64 to 4096 bits, "
                               "and at most the filter's bits";
    case SCHEME_ESPLIT: return "k must split the block into words of a power-of-two number "
                               "of bits";
    case SCHEME_EKFIXED: return "the library this scheme follows fixes k (k must be 8)";
    case SCHEME_EMBIG: return "more bits than the library this scheme follows can address "
                              "(hadoop, commons-enhanced: m < 2^31; bloomfilter-js: m <= 2^31; "
                              "bloomfilter-js-0.0.1x: m <= 2^52)";
    default: return "unknown scheme error";
    }
}

/* ---- primes ---- */

static uint64_t mulmod(uint64_t a, uint64_t b, uint64_t m)
{
    return (uint64_t)((pcg_u128)a * b % m);
}

static uint64_t powmod(uint64_t a, uint64_t e, uint64_t m)
{
    uint64_t r = 1;
    a %= m;
    while (e) {
        if (e & 1)
            r = mulmod(r, a, m);
        a = mulmod(a, a, m);
        e >>= 1;
    }
    return r;
}

/* Miller-Rabin with the first twelve primes as bases is deterministic for every
 * n < 3.3e24 (Sorenson and Webster, Math. Comp. 86 (2017)), so for all 64-bit n. */
static int is_prime(uint64_t n)
{
    static const uint64_t bases[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37};
    if (n < 2)
        return 0;
    for (size_t i = 0; i < 12; i++) {
        if (n == bases[i])
            return 1;
        if (n % bases[i] == 0)
            return 0;
    }
    uint64_t d = n - 1;
    unsigned s = 0;
    while ((d & 1) == 0) {
        d >>= 1;
        s++;
    }
    for (size_t i = 0; i < 12; i++) {
        uint64_t x = powmod(bases[i], d, n);
        if (x == 1 || x == n - 1)
            continue;
        unsigned j = 1;
        for (; j < s; j++) {
            x = mulmod(x, x, n);
            if (x == n - 1)
                break;
        }
        if (j == s)
            return 0;
    }
    return 1;
}

uint64_t scheme_prime_below(uint64_t m)
{
    for (uint64_t p = m; p >= 2; p--)
        if (is_prime(p))
            return p;
    return 0;
}
