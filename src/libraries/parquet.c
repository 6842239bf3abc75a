/* parquet.c - the split-block Bloom filter of Parquet (Arrow C++, parquet-java) and of
 * Kudu and Impala, which share its blocks and salts: their index arithmetic, its models,
 * their sizing, and their rows.
 *
 * Sources: apache/parquet-format BloomFilter.md at 24102ed5; apache/arrow
 * cpp/src/parquet/bloom_filter.h at 515410b2 (OptimalNumOfBytes, OptimalNumOfBits, lines
 * 236-277); apache/parquet-java at a3a1de15 (the same code as release 1.18.0):
 * parquet-column's BlockSplitBloomFilter.java (optimalNumOfBits, the constructors,
 * initBitset), ColumnValueCollector.java (which filter the writer makes) and
 * ParquetProperties.java (its defaults); apache/kudu src/kudu/util/block_bloom_filter.
 * {h,cc} @1394746b (Rehash32to32, BucketInsert, MinLogSpace), as Impala vendors it.
 */
#include <math.h>

#include "libraries/arith.h"
#include "library.h"
#include "rate.h"
#include "rate_blocked.h"
#include "registry.h"
#include "schemes/words.h"

/* Split-block filters of 256-bit blocks, 8 words of 32 bits: word i of the block gets
 * bit (u32(x * SALT[i])) >> 27, from the same 8 salts in the Parquet specification and
 * in Kudu/Impala (kRehash). */
static const uint32_t SBBF_SALT[8] = {0x47b6137bu, 0x44974d91u, 0x8824ad5bu, 0xa2b7289du,
                                      0x705495c7u, 0x2df1424bu, 0x9efc4947u, 0x5c6bfb31u};
enum { SBBF_BLOCK = 256, SBBF_K = 8 };

/* ---- sbbf: the specification, parquet-java and Arrow alike ----
 * One 64-bit word h (XXH64); z = m/256 blocks; block = ((h >> 32) * z) >> 32 in u64;
 * word i = 0..7 gets bit (u32(u32(h) * SALT[i])) >> 27. k is 8. Parquet's sizing makes
 * z a power of two; the arithmetic does not need it, so any z is taken (m rounded down
 * to whole blocks). The block product is taken in 128 bits (exact past 2^32 blocks; the
 * libraries' z stays below 2^22). Model: uniform bits in the 8 words of a 256-bit block,
 * the exact split-block rate. */
static int sbbf_geometry(uint64_t m, unsigned k, uint64_t block, probe_geom_t *g)
{
    (void)block;
    if (k != SBBF_K)
        return SCHEME_EKFIXED;
    return scheme_geom_lines(m, k, SBBF_BLOCK, 0, g);
}
#define sbbf_draw u64x1_draw
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

static double sbbf_model(const probe_geom_t *g, uint64_t n)
{
    double e;
    return rate_split_block_exact(g->m, SBBF_BLOCK, n, SBBF_K, &e) == RATE_OK ? e : NAN;
}

const scheme_t scheme_sbbf = {
    .name = "sbbf",
    .summary = "Parquet/Arrow split-block: u64 h; block ((h>>32)*z)>>32, word i bit "
               "(u32(h)*salt[i])>>27; k = 8",
    WORDS_U64(1), .geometry = sbbf_geometry, SCHEME_FNS(sbbf), .model = sbbf_model,
};

/* ---- kudu-block: Kudu's and Impala's block filter ----
 * One 32-bit word h; bucket = Rehash32to32(h) & directory_mask, with Rehash32to32(h) =
 * (u64(h) * 0x7850f11ec6d14889 + 0x6773610597ca4c63) >> 32 (u64 wraparound), and the
 * 8 bits as sbbf's from the same h. The directory is a power of two of 256-bit buckets,
 * so m must be a power of two >= 256 (else SCHEME_ENOTPOW2 / SCHEME_ESMALL); k is 8. The
 * bucket index is below 2^32 (a u32 there), so past 2^32 buckets the rest go unused.
 * Model: one 32-bit word for the block and the bits: the floor of equal words over the
 * exact split-block rate at the distinct hashes. */
static int kudu_block_geometry(uint64_t m, unsigned k, uint64_t block, probe_geom_t *g)
{
    if (m < SBBF_BLOCK)
        return SCHEME_ESMALL;
    if ((m & (m - 1)) != 0)
        return SCHEME_ENOTPOW2;
    return sbbf_geometry(m, k, block, g);
}
#define kudu_block_draw u32x1_draw
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

static double kudu_block_model(const probe_geom_t *g, uint64_t n)
{
    double D = scheme_distinct32(n), inner;
    uint64_t nd = (uint64_t)floor(D + 0.5);
    return rate_split_block_exact(g->m, SBBF_BLOCK, nd, SBBF_K, &inner) == RATE_OK
               ? scheme_one_word_floor(D, inner) : NAN;
}

const scheme_t scheme_kudu_block = {
    .name = "kudu-block",
    .summary = "Kudu/Impala block filter: u32 h; bucket Rehash32to32(h) & mask (m a power "
               "of two), bits as sbbf; k = 8",
    WORDS_U32(1), .geometry = kudu_block_geometry, SCHEME_FNS(kudu_block),
    .model = kudu_block_model,
};

/* ---- sizing ---- */

/* sbbf: Arrow C++ OptimalNumOfBits (bloom_filter.h:249-277 @515410b2; OptimalNumOfBytes,
 * :236-240, takes its eighth): bits = -8 n / ln(1 - p^(1/8)), truncated, or 128 MiB of
 * bits if above it; at least 32 bytes; rounded up to a power of two; at most 128 MiB.
 * k = 8 words of a 256-bit block. Computed the truncated formula (saturated at
 * 2^64 - 1); indexed the power of two, clamped to [256, 2^30] bits. parquet-java sizes
 * differently (its rules below). */
static int sbbf_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    (void)bpk;
    const double maxb = 128.0 * 1024 * 1024 * 8;
    double x = -8.0 * (double)n / log(1 - pow(p, 1.0 / 8));
    out->m_computed = x < TWO_64 ? (uint64_t)x : UINT64_MAX;
    uint64_t mm = x < 0 || x > maxb ? (uint64_t)maxb : (uint64_t)x;
    if (mm < 256)
        mm = 256;
    uint64_t pw = 256;
    while (pw < mm)
        pw *= 2;
    out->m = pw > (uint64_t)maxb ? (uint64_t)maxb : pw;
    out->k = SBBF_K;
    return SIZING_OK;
}

const sizing_rule_t sizing_sbbf = {
    .name = "sbbf",
    .summary = "Parquet as Arrow C++ sizes it: -8N / ln(1 - P^(1/8)), power of two bytes "
               "in [32 bytes, 128 MiB]",
    .kind = SIZING_RULE_LIBRARY, .over = SIZING_OVER_SPLIT, .block_bits = SBBF_BLOCK,
    .design = sbbf_design,
};

/* ---- parquet-java: BlockSplitBloomFilter.java and the writer's choice of filter ----
 * Java's int and long arithmetic, as parquet-java evaluates it. */
enum {
    PJ_LOWER_BYTES = 32,              /* LOWER_BOUND_BYTES, BlockSplitBloomFilter.java:47 */
    PJ_UPPER_BYTES = 128 * 1024 * 1024, /* UPPER_BOUND_BYTES, :50 */
    PJ_MAX_BYTES = 1024 * 1024,       /* DEFAULT_MAX_BLOOM_FILTER_BYTES, ParquetProperties.java:63 */
};

/* Java's (int) of a double (JLS 5.1.3): toward zero, saturating, NaN to 0. */
static int32_t java_d2i(double x)
{
    if (x != x)
        return 0;
    return x >= 2147483647.0 ? INT32_MAX : x <= -2147483648.0 ? INT32_MIN : (int32_t)x;
}

/* optimalNumOfBits(n, p), BlockSplitBloomFilter.java:284-302 @a3a1de15. -8 * n is a
 * long product (it wraps from n = 2^60 on; n < 2^63 here), then divided by the double
 * log: *x is that double m. (int) m saturates; past UPPER_BOUND_BYTES << 3 = 2^30, or
 * m < 0, it is 2^30. Then line 295, `(numBits + BITS_PER_BLOCK - 1) & ~BITS_PER_BLOCK`:
 * the mask ~256 clears only bit 8 (not the low 8 bits), so the result is numBits + 255
 * or numBits - 1, neither a multiple of 256 nor a power of two. At least 256 bits. */
static int32_t parquet_java_bits(uint64_t n, double p, double *x)
{
    uint64_t w = UINT64_C(0) - UINT64_C(8) * n; /* -8 * n mod 2^64: Java's long bits */
    int64_t prod = w > INT64_MAX ? -(int64_t)(~w) - 1 : (int64_t)w;
    *x = (double)prod / log(1 - pow(p, 1.0 / 8));
    int32_t bits = java_d2i(*x);
    if (bits > PJ_UPPER_BYTES * 8 || *x < 0)
        bits = PJ_UPPER_BYTES * 8;
    bits = (bits + 256 - 1) & ~256; /* bits <= 2^30: no int overflow */
    return bits < PJ_LOWER_BYTES * 8 ? PJ_LOWER_BYTES * 8 : bits;
}

/* The filter's bytes, new BlockSplitBloomFilter(numBytes, maximumBytes) (:109-111, the
 * four-argument constructor :133-146) and initBitset (:205-218): at least 32 bytes
 * (LOWER_BOUND_BYTES); not a power of two, Integer.highestOneBit(numBytes) << 1, which
 * passes 2^31 - 1 for numBytes > 2^30 and turns negative; then over maximumBytes (or
 * negative) it is maximumBytes, which need not be a power of two. A maximumBytes outside
 * (32, 2^27) is ignored for UPPER_BOUND_BYTES (:142-143). */
static uint64_t parquet_java_bytes(int32_t bytes, int32_t max_bytes)
{
    if (!(max_bytes > PJ_LOWER_BYTES && max_bytes < PJ_UPPER_BYTES))
        max_bytes = PJ_UPPER_BYTES;
    int64_t b = bytes < PJ_LOWER_BYTES ? PJ_LOWER_BYTES : bytes;
    if ((b & (b - 1)) != 0) {
        int64_t top = 1;
        while (top * 2 <= b)
            top *= 2;
        b = top * 2 > INT32_MAX ? -1 : top * 2; /* the int shift's overflow, negative */
    }
    return (uint64_t)(b > max_bytes || b < 0 ? max_bytes : b);
}

/* parquet-java: the writer with an NDV (parquet.bloom.filter.expected.ndv, the column's
 * n; ColumnValueCollector.java:183-185 @a3a1de15): new BlockSplitBloomFilter(
 * optimalNumOfBits(n, p) / 8, maxBloomFilterBytes) at the defaults, max 1 MiB
 * (ParquetProperties.java:63) and fpp 0.01 (:65, the rate given here). So no filter
 * passes 2^23 bits (8,388,608): the cap bites from n = 866,430 at 1%. Line 295's step
 * doubles Arrow's size where the truncated count is 2^j - 247 .. 2^j and halves it where
 * it is 2^j + 1 .. 2^j + 8 (2^9 <= 2^j <= 2^29; n = 108,282 .. 108,306 and n = 108,307
 * at 1%, n = 53: 64 bytes, Arrow 128). k = 8. Computed: the truncated formula (*x, as
 * sbbf; at least 1, which a long product wrapped past 2^60 keys also gives), not
 * optimalNumOfBits' return, whose step and caps belong to the indexed size; indexed: the
 * filter's bytes times 8. An NDV past 2^63 - 1 is not a Java long (withBloomFilterNDV,
 * ParquetProperties.java:680-681, wants ndv > 0): refused. */
static int parquet_java_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    (void)bpk;
    if (n > INT64_MAX)
        return SIZING_EKEYS;
    double x;
    int32_t bits = parquet_java_bits(n, p, &x);
    out->m_computed = x < 1 ? 1 : x < TWO_64 ? (uint64_t)x : UINT64_MAX;
    out->m = parquet_java_bytes(bits / 8, PJ_MAX_BYTES) * 8;
    out->k = SBBF_K;
    return SIZING_OK;
}

static const char *parquet_java_refusal(int status)
{
    return status == SIZING_EKEYS ? "parquet-java takes the NDV as a Java long > 0 "
                                    "(withBloomFilterNDV): at most 2^63 - 1"
                                  : NULL;
}

const sizing_rule_t sizing_parquet_java = {
    .name = "parquet-java",
    .summary = "parquet-java writer with an NDV: optimalNumOfBits (its & ~256 step), /8, "
               "power of two bytes in [32 bytes, 1 MiB]",
    .kind = SIZING_RULE_LIBRARY, .over = SIZING_OVER_SPLIT, .block_bits = SBBF_BLOCK,
    .design = parquet_java_design, .refusal = parquet_java_refusal,
};

/* parquet-java-fixed: the writer with no NDV and adaptive filters off, the default path
 * (ColumnValueCollector.java:190-191 @a3a1de15): new BlockSplitBloomFilter(maxBytes,
 * maxBytes), 1 MiB = 8,388,608 bits whatever n; the rate given is the fpp it is
 * configured with (default 0.01), which this path ignores. Computed = indexed: the
 * library computes nothing from n and p. k = 8. */
static int parquet_java_fixed_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    (void)n, (void)p, (void)bpk;
    out->m_computed = out->m = parquet_java_bytes(PJ_MAX_BYTES, PJ_MAX_BYTES) * 8;
    out->k = SBBF_K;
    return SIZING_OK;
}

const sizing_rule_t sizing_parquet_java_fixed = {
    .name = "parquet-java-fixed",
    .summary = "parquet-java writer without an NDV (the default): 1 MiB whatever N and P",
    .kind = SIZING_RULE_LIBRARY, .over = SIZING_OVER_SPLIT, .block_bits = SBBF_BLOCK,
    .design = parquet_java_fixed_design,
};

/* kudu-block: the older of the two sizings (the newer sizes by the Poisson sum):
 * MinLogSpace(ndv, fpp) = max(0, (int)ceil(log2(m / 8))), m = -8 ndv / ln(1 -
 * fpp^(1/8)); InitInternal: log_num_buckets = max(1, log_space_bytes - 5) buckets of 32
 * bytes, more than 32 refused ("Bloom filter too large"). k = 8 words of a 256-bit
 * bucket. Computed ceil(m); indexed the power of two of buckets, at least 2 (512 bits). */
static int kudu_block_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    (void)bpk;
    double x = -8.0 * (double)n / log(1 - pow(p, 1.0 / 8));
    if (!(x < TWO_64))
        return SIZING_ECAP;
    out->m_computed = (uint64_t)ceil(x);
    double ls = ceil(log2(x / 8));
    int log_space = ls < 0 ? 0 : (int)ls;
    int log_buckets = log_space - 5 < 1 ? 1 : log_space - 5;
    if (log_buckets > 32)
        return SIZING_ECAP;
    out->m = (UINT64_C(1) << log_buckets) * 256;
    out->k = SBBF_K;
    return SIZING_OK;
}

const sizing_rule_t sizing_kudu_block = {
    .name = "kudu-block",
    .summary = "Kudu/Impala (older MinLogSpace): the same formula, a power of two of "
               "32-byte buckets, 2 to 2^32",
    .kind = SIZING_RULE_LIBRARY, .over = SIZING_OVER_SPLIT, .block_bits = SBBF_BLOCK,
    .design = kudu_block_design,
};

/* ---- the libraries ---- */

const library_t library_parquet = {
    .name = "parquet",
    .version = "Parquet split-block filter as Arrow C++ sizes it: cpp/src/parquet/"
               "bloom_filter.h @515410b2 (OptimalNumOfBits, lines 236-277)",
    .scheme = &scheme_sbbf, .sizing = &sizing_sbbf, .hash = "64-bit",
    .cause = "sizing and blocking: the formula ignores uneven block loads; sizes rounded "
             "up to a power of two bytes, at most 128 MiB",
    .report = "apache/parquet-format#547: the formula's sizes are below the "
              "specification's table",
};

const library_t library_parquet_java = {
    .name = "parquet-java",
    .version = "parquet-java writer with a column NDV (parquet.bloom.filter.expected.ndv), "
               "BlockSplitBloomFilter.java and ColumnValueCollector.java @a3a1de15 (1.18.0)",
    .scheme = &scheme_sbbf, .sizing = &sizing_parquet_java, .hash = "64-bit",
    .cause = "sizing: capped at the writer's default 1 MiB (8,388,608 bits; the cap bites "
             "from 866,430 keys at 1%); optimalNumOfBits' & ~256 doubles or halves Arrow's "
             "size near powers of two; blocking as parquet",
    .report = "",
};

const library_t library_parquet_java_fixed = {
    .name = "parquet-java-fixed",
    .version = "parquet-java writer without an NDV, adaptive filters off (the default), "
               "ColumnValueCollector.java @a3a1de15 (1.18.0): a 1 MiB filter",
    .scheme = &scheme_sbbf, .sizing = &sizing_parquet_java_fixed, .hash = "64-bit",
    .cause = "sizing: 8,388,608 bits whatever the key count; the fpp set (default 0.01) is "
             "not used on this path",
    .report = "",
};

const library_t library_kudu = {
    .name = "kudu",
    .version = "Apache Kudu / Impala block filter, util/block_bloom_filter.cc @1394746b "
               "(older MinLogSpace sizing)",
    .scheme = &scheme_kudu_block, .sizing = &sizing_kudu_block, .hash = "32-bit",
    .cause = "hash width (one 32-bit word), sizing and blocking as parquet",
    .report = "lance-format/lance#4730: Impala's rate estimate low \"by a factor of 8 or "
              "more\"",
};
