/* redisson.c - Redisson's RBloomFilter: its index arithmetic, sizing and row.
 *
 * Source: redisson/redisson redisson/src/main/java/org/redisson/RedissonBloomFilter.java
 * at 017b8306 (hash, tryInit); redisson/redisson#2166.
 */
#include "libraries/arith.h"
#include "libraries/library.h"
#include "libraries/registry.h"
#include "schemes/words.h"

/* ---- the index arithmetic ----
 * hash1, hash2: the two 64-bit halves of HighwayHash-128, as Java longs. hash = hash1;
 * for i < k: index (hash & Long.MAX_VALUE) % size, then hash += hash2 when i is even,
 * hash1 when odd (i64 wraparound). So probes 2j and 2j+1 are hash1 + j(hash1 + hash2)
 * and (j + 1)(hash1 + hash2): two progressions of one stride, one anchored at 0. */
#define redisson_draw u64x2_draw
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

const scheme_t scheme_redisson = {
    .name = "redisson",
    .summary = "Redisson: (c & (2^63-1)) % m, c = h1, then c += h2 after even probes, h1 "
               "after odd (u64)",
    WORDS_U64(2), .geometry = scheme_geom_plain, SCHEME_FNS(redisson),
};

/* ---- sizing: tryInit: size = optimalNumOfBits (Guava's); size == 0 throws "Bloom filter
 * calculated size is 0", size > getMaxSize() = 2 Integer.MAX_VALUE throws; k =
 * optimalNumOfHashFunctions(n, size). No rounding: m = m_c. ---- */
static int redisson_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    (void)bpk;
    double x = java_optimal_bits(n, p);
    if (x == 0)
        return SIZING_EZERO;
    if (x > 2 * INT32_MAXD)
        return SIZING_ECAP;
    out->m_computed = out->m = (uint64_t)x;
    out->k = java_k(out->m_computed, n);
    return SIZING_OK;
}

const sizing_rule_t sizing_redisson = {
    .name = "redisson",
    .summary = "Redisson: Guava's formula, no rounding, at most 2^32 - 2 bits",
    .kind = SIZING_RULE_LIBRARY, .over = SIZING_OVER_UNIFORM, .design = redisson_design,
};

const library_t library_redisson = {
    .name = "redisson",
    .version = "Redisson RedissonBloomFilter.java @017b8306",
    .scheme = &scheme_redisson, .sizing = &sizing_redisson, .hash = "2 x 64-bit",
    .cause = "arithmetic: odd probes are multiples of h1 + h2 (two interleaved "
             "progressions, one anchored at 0)",
    .report = "redisson/redisson#2166: size cap 2 Integer.MAX_VALUE",
    .departs = 1,
    .words_skipped = "HighwayHash-128 over the bytes of Redisson's codec (Kryo or "
                     "Jackson by default), a serialisation not reproduced here",
};
