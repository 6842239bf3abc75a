/* guava.c - Google Guava's BloomFilter: its index arithmetic, old (MURMUR128_MITZ_32) and
 * current (MURMUR128_MITZ_64), its sizing, and its two library rows.
 *
 * Source: google/guava guava/src/com/google/common/hash/BloomFilterStrategies.java
 * @0d6dbae8 (both strategies) and BloomFilter.java @769e1e9c (create, optimalNumOfBits,
 * optimalNumOfHashFunctions). Seed 000 ("A bug that only shows up in big filters") and
 * google/guava#1119 for the flaw of the first.
 */
#include <math.h>

#include "libraries/arith.h"
#include "library.h"
#include "rate.h"
#include "registry.h"
#include "schemes/words.h"

/* ---- the index arithmetic ----
 * hash1, hash2 are the two 32-bit halves of Murmur3 x64 128's first 64 bits (uniform
 * words here); probe i = 1..k is c = hash1 + i*hash2 in 32-bit wraparound. guava32
 * (MURMUR128_MITZ_32, flawed, kept as Guava kept it for old serialised filters): read c
 * as a signed int32 and flip its bits when negative (~c, not -c), so every index is
 * c mod m with c < 2^31: positions past 2^31 are never reached, and for m a little under
 * 2^31 the modulo is uneven. guava32u: the same in unsigned arithmetic without the flip
 * ("better but still not right"; also libbloom 1.x, libbloom.c). */
#define guava32_draw u32x2_draw
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

const scheme_t scheme_guava32 = {
    .name = "guava32",
    .summary = "Guava's MURMUR128_MITZ_32: int32 hash1 + i*hash2, i = 1..k, ~c if negative, "
               "mod m (flawed: indexes < 2^31)",
    WORDS_U32(2), .geometry = scheme_geom_plain, SCHEME_FNS(guava32), .model = guava32_model,
};

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

const scheme_t scheme_guava32u = {
    .name = "guava32u",
    .summary = "guava32 in unsigned 32-bit arithmetic, no flip (still uneven)",
    WORDS_U32(2), .geometry = scheme_geom_plain, SCHEME_FNS(guava32u), .model = guava32u_model,
};

/* guava64: Guava's fix, MURMUR128_MITZ_64. hash1, hash2 the two 64-bit halves of the
 * 128-bit hash; c = hash1; probe i = 0..k-1 is (c & (2^63 - 1)) mod m, then c += hash2
 * in 64-bit wraparound. */
#define guava64_draw u64x2_draw
#define guava64_start pair_start /* x = hash1, y = hash2 */
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

const scheme_t scheme_guava64 = {
    .name = "guava64",
    .summary = "Guava's fix MURMUR128_MITZ_64: (c & (2^63-1)) mod m, c = hash1 + i*hash2 in "
               "64 bits",
    WORDS_U64(2), .geometry = scheme_geom_plain, SCHEME_FNS(guava64), .model = guava64_model,
};

/* ---- sizing (sizing.h's table, rule guava) ----
 * optimalNumOfBits: (long) (-n * Math.log(p) / (Math.log(2) * Math.log(2))), the computed
 * count; optimalNumOfHashFunctions(n, numBits) = Math.max(1, (int) Math.round((double) m
 * / n * Math.log(2))) from the computed count, before the array rounds it; the filter
 * indexes the LockFreeBitArray's 64 ceil(m_c / 64) bits. */
static int guava_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    (void)bpk;
    const double ln2 = log(2.0);
    double bits = floor(-(double)n * log(p) / (ln2 * ln2));
    if (!(bits < TWO_64))
        return SIZING_ETOOBIG;
    uint64_t mm = bits < 1 ? 1 : (uint64_t)bits;
    /* mm is at most the largest double below 2^64, 2^64 - 2048, so the rounding to whole
     * words cannot overflow. */
    out->m_computed = mm;
    out->m = (mm / 64 + (mm % 64 != 0)) * 64;
    out->k = floor((double)mm / (double)n * ln2 + 0.5);
    return SIZING_OK;
}

const sizing_rule_t sizing_guava = {
    .name = "guava",
    .summary = "computed c = floor(-N ln P / ln^2 2), k = round(c/N ln 2), >= 1; the filter "
               "indexes m = 64 ceil(c/64) bits",
    .kind = SIZING_RULE_PLAIN, .over = SIZING_OVER_UNIFORM, .design = guava_design,
};

/* ---- the libraries ---- */

const library_t library_guava_2012 = {
    .name = "guava-2012",
    .version = "Guava MURMUR128_MITZ_32 (2012 to 12.0; still read from old serialised "
               "filters), BloomFilterStrategies.java @0d6dbae8, BloomFilter.java @769e1e9c",
    .scheme = &scheme_guava32, .sizing = &sizing_guava, .hash = "2 x 32-bit (one 64-bit)",
    .cause = "arithmetic: int32 sums flipped to [0, 2^31), then mod m: uneven once m > "
             "2^30, indexes below 2^31",
    .report = "google/guava#1119: 3e-6 measured for a 1e-6 design of 3*2^29 bits",
};

const library_t library_guava = {
    .name = "guava",
    .version = "Guava MURMUR128_MITZ_64 (the default since 13.0), "
               "BloomFilterStrategies.java @0d6dbae8, BloomFilter.java @769e1e9c",
    .scheme = &scheme_guava64, .sizing = &sizing_guava, .hash = "2 x 64-bit",
    .cause = "none expected (63-bit sums mod m)", .report = "",
};
