/* hive.c - Apache ORC's and Hive's filters: ORC's (and Hive storage-api's) BloomFilter,
 * whose index arithmetic is Guava's 2012 loop (scheme guava32, guava.c), and Hive's
 * blocked BloomKFilter; their sizing and rows.
 *
 * Sources: apache/orc java/core/src/java/org/apache/orc/util/BloomFilter.java @02293868;
 * apache/hive storage-api .../hive/common/util/BloomFilter.java @0761f6be and
 * BloomKFilter.java @046c998e (also Druid's bloom extension, a copy).
 */
#include <math.h>

#include "libraries/arith.h"
#include "library.h"
#include "registry.h"
#include "schemes/words.h"

enum { BLOCK_BITS = 512 }; /* 8 longs */

/* ---- hive-bloomk: BloomKFilter.addHash ----
 * hash1, hash2: the low and high halves of one 64-bit Murmur3 word, as Java ints.
 * firstHash = hash1 + hash2 (i32), ~firstHash if negative; block = firstHash %
 * totalBlockCount (int %, both >= 0) of 512-bit blocks (8 longs); for i = 1..k:
 * c = hash1 + (i + 1) * hash2 (i32), ~c if negative; long (c & 7) of the block, bit
 * (c >>> 3) & 63 of it. So the 9 in-block bits are those of a double-hashing sequence mod
 * 512 (multipliers 2..k+1), whose stride is 0 mod 512 with probability 1/512. m is
 * rounded down to whole blocks (Hive pads to them). Model: uniform positions within
 * 512-bit blocks (scheme_model_lines), without the strides that are 0 mod 512. */
static int hive_bloomk_geometry(uint64_t m, unsigned k, uint64_t block, probe_geom_t *g)
{
    (void)block;
    return scheme_geom_lines(m, k, BLOCK_BITS, 0, g);
}
#define hive_bloomk_draw u32x2_draw
SCHEME_HOT void hive_bloomk_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    uint32_t first = (uint32_t)h[0] + (uint32_t)h[1];
    if (first >> 31) /* negative as an int32: flip all its bits */
        first = ~first;
    it->z = first % g->blocks * BLOCK_BITS;
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

const scheme_t scheme_hive_bloomk = {
    .name = "hive-bloomk",
    .summary = "Hive BloomKFilter: int32 f = h1+h2, c = h1+(i+1)*h2 (i = 1..k), ~ if < 0; "
               "512-bit block f % blocks; long c&7, bit (c>>>3)&63",
    WORDS_U32(2), .geometry = hive_bloomk_geometry, SCHEME_FNS(hive_bloomk),
    .model = scheme_model_lines,
};

/* ---- sizing ---- */

/* orc: ORC's BloomFilter: nb = (int)(-n ln p / ln^2 2); numBits = nb + (64 - nb % 64) (a
 * whole word more when nb is a multiple of 64); k = max(1, round(numBits / n ln 2)), from
 * the padded size. numBits is an int: from nb >= 2^31 - 64 it overflows to a negative
 * array size (my reading: refused as a cap). */
static int orc_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    (void)bpk;
    double x = java_optimal_bits(n, p);
    if (x >= INT32_MAXD + 1 - 64)
        return SIZING_ECAP;
    out->m_computed = (uint64_t)x;
    out->m = out->m_computed + (64 - out->m_computed % 64);
    out->k = java_k(out->m, n);
    return SIZING_OK;
}

const sizing_rule_t sizing_orc = {
    .name = "orc",
    .summary = "ORC: Guava's formula, 64-bit words, always one more; m below 2^31",
    .kind = SIZING_RULE_LIBRARY, .over = SIZING_OVER_UNIFORM, .design = orc_design,
};

/* hive-bloomk: numBits = optimalNumOfBits(n, fpp) (Guava's), k =
 * optimalNumOfHashFunctions(n, numBits); nLongs = ceil(numBits / 64), padded with 8 -
 * nLongs % 8 longs (a whole 512-bit block more when already aligned); m = 64 (nLongs +
 * padLongs) is an int: past 2^31 - 1 it overflows (my reading: refused as a cap). The
 * constructor in the version read fixes fpp at DEFAULT_FPP = 0.05; the rule applies the
 * same formula at the rate given. */
static int hive_bloomk_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    (void)bpk;
    double x = java_optimal_bits(n, p);
    double words = ceil(x / 64.0);
    double padded = words + (8 - fmod(words, 8.0));
    if (padded * 64.0 > INT32_MAXD)
        return SIZING_ECAP;
    out->m_computed = (uint64_t)x;
    out->m = (uint64_t)padded * 64;
    out->k = java_k(out->m_computed, n);
    return SIZING_OK;
}

const sizing_rule_t sizing_hive_bloomk = {
    .name = "hive-bloomk",
    .summary = "Hive BloomKFilter: Guava's formula, padded to whole 512-bit blocks",
    .kind = SIZING_RULE_LIBRARY, .over = SIZING_OVER_BLOCKED, .block_bits = BLOCK_BITS,
    .design = hive_bloomk_design,
};

/* ---- the libraries ---- */

const library_t library_orc = {
    .name = "orc",
    .version = "Apache ORC util/BloomFilter.java @02293868 and Hive storage-api "
               "BloomFilter.java @0761f6be (Guava's MITZ_32 loop; Hive's multipliers 2..k+1 "
               "are the same in distribution: scheme guava32)",
    .scheme = &scheme_guava32, .sizing = &sizing_orc, .hash = "2 x 32-bit (one 64-bit)",
    .cause = "arithmetic: as guava-2012, but m is an int (below 2^31): the unevenness "
             "only near 2^31",
    .report = "",
};

const library_t library_hive_bloomk = {
    .name = "hive-bloomk",
    .version = "Apache Hive storage-api BloomKFilter.java @046c998e",
    .scheme = &scheme_hive_bloomk, .sizing = &sizing_hive_bloomk,
    .hash = "2 x 32-bit (one 64-bit)",
    .cause = "blocking: 512-bit blocks sized by the unblocked formula; strides 0 mod 512 "
             "(1 in 512)",
    .report = "",
    .departs = 1,
};
