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
 * {h,cc} @1394746b (Rehash32to32, BucketInsert, MinLogSpace up to 1.12), as Impala up to
 * 4.0 vendors it, and @3a9f8c31 (release 1.18.1: FalsePositiveProb and MinLogSpace from
 * d1190c2b, first in 1.13.0, which Impala took in e36f2b55, first in 4.1.0; the same
 * index arithmetic).
 */
#include <math.h>

#include "libraries/arith.h"
#include "hashes/hashes.h"
#include "libraries/library.h"
#include "rates/rate.h"
#include "rates/rate_blocked.h"
#include "libraries/registry.h"
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

/* kudu-block: the older of the two sizings, Kudu up to 1.12 and Impala up to 4.0 (the
 * newer, kudu-block-1.13 below, sizes by the Poisson sum): MinLogSpace(ndv, fpp) =
 * max(0, (int)ceil(log2(m / 8))), m = -8 ndv / ln(1 - fpp^(1/8)); InitInternal:
 * log_num_buckets = max(1, log_space_bytes - 5) buckets of 32 bytes, more than 32
 * refused ("Bloom filter too large"). k = 8 words of a 256-bit bucket. Computed ceil(m);
 * indexed the power of two of buckets, at least 2 (512 bits). */
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
    .summary = "Kudu <= 1.12, Impala <= 4.0 (older MinLogSpace): the same formula, a power "
               "of two of 32-byte buckets, 2 to 2^32",
    .kind = SIZING_RULE_LIBRARY, .over = SIZING_OVER_SPLIT, .block_bits = SBBF_BLOCK,
    .design = kudu_block_design,
};

/* FalsePositiveProb(ndv, log_space_bytes), apache/kudu block_bloom_filter.cc:263-298
 * @3a9f8c31 (1.18.1; from d1190c2b, first in 1.13.0): Putze et al.'s equation 3, the
 * Poisson mixture over a bucket's load of 8 words' rates, summed as Kudu sums it (750
 * terms from i = 749 down, lgamma for log i!, in double with libm), and 1 where ndv /
 * bits > 2. bytes = 1L << log_space_bytes: negative at 63 on LP64, so rate 1 there. lgamma
 * sets signgam, to +1 for these arguments: the same value from any thread. */
static double kudu_fpp(uint64_t ndv, int log_space_bytes)
{
    const double word_bits = 32, buckets_words = 8;
    const double bytes = log_space_bytes >= 63 ? -9223372036854775808.0
                                               : (double)(UINT64_C(1) << log_space_bytes);
    if (ndv == 0)
        return 0.0;
    if (bytes <= 0)
        return 1.0;
    if ((double)ndv / (bytes * 8) > 2)
        return 1.0;
    const double lam = buckets_words * word_bits / ((bytes * 8) / (double)ndv);
    const double loglam = log(lam);
    double result = 0;
    for (uint64_t j = 0; j < 750; ++j) {
        const double i = (double)(750 - 1 - j);
        double logp = i * loglam - lam - lgamma(i + 1);
        const double logfinner = buckets_words * log(1.0 - pow(1.0 - 1.0 / word_bits, i));
        result += exp(logp + logfinner);
    }
    return result > 1.0 ? 1.0 : result;
}

/* MinLogSpace(ndv, fpp), block_bloom_filter.cc:333-345 @3a9f8c31: the binary search on
 * (0, 64] for the least log_space_bytes whose FalsePositiveProb is <= fpp; 0 is never
 * tried, so the answer is at least 1, and 64 where even 2^62 bytes miss fpp. */
static int kudu_min_log_space(uint64_t ndv, double fpp)
{
    int low = 0, high = 64;
    while (high > low + 1) {
        int mid = (high + low) / 2;
        if (kudu_fpp(ndv, mid) <= fpp)
            high = mid;
        else
            low = mid;
    }
    return high;
}

/* kudu-block-1.13: Kudu 1.13.0 to 1.18.1 (d1190c2b) and Impala from 4.1.0 (e36f2b55):
 * log_space_bytes = MinLogSpace(n, p) by the block rate above, which needs c' = 10.53
 * bits per key at 1% where the older formula took c = 9.68 (16.89 and 14.61 at 0.1%): an
 * n whose log2(n c / 8) lies less than log2(c' / c) below a whole number (0.12 at 1%,
 * 0.21 at 0.1%) gets twice the older size (10^6 keys at 0.1%: 4 MiB, where 1.12's 2 MiB
 * has a block rate of 1.03e-3, over its target), the others the same; then InitInternal
 * as kudu-block (block_bloom_filter.cc:101-107): max(1, L - 5) bucket bits, more than 32
 * refused. Computed: the 2^L bytes MinLogSpace asks for, in bits (below 512 bits only
 * where the two-bucket minimum lifts it); indexed: the buckets. k = 8. */
static int kudu_block_113_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    (void)bpk;
    int log_space = kudu_min_log_space(n, p);
    int log_buckets = log_space - 5 < 1 ? 1 : log_space - 5;
    if (log_buckets > 32)
        return SIZING_ECAP;
    out->m_computed = UINT64_C(1) << (log_space + 3);
    out->m = (UINT64_C(1) << log_buckets) * 256;
    out->k = SBBF_K;
    return SIZING_OK;
}

const sizing_rule_t sizing_kudu_block_113 = {
    .name = "kudu-block-1.13",
    .summary = "Kudu 1.13+, Impala 4.1+: the least power of two bytes whose Poisson block "
               "rate is <= P; 32-byte buckets, 2 to 2^32",
    .kind = SIZING_RULE_LIBRARY, .over = SIZING_OVER_SPLIT, .block_bits = SBBF_BLOCK,
    .design = kudu_block_113_design,
};

/* ---- real keys: the value's plain encoding through XXH64 seed 0 (parquet-format
 * BloomFilter.md; Arrow parquet/xxhasher.cc, parquet-java BlockSplitBloomFilter.hash): an
 * INT64 is its 8 bytes little-endian, a BYTE_ARRAY its bytes. One 64-bit word. Kudu's
 * caller hashes (BlockBloomFilter::Insert takes the hash): no words. ---- */
static void parquet_words(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    LIBRARY_KEY_INPUT(key, LIBRARY_INT_LE8);
    out[0] = hash_xxh64(in, len, 0);
}
static const library_words_t words_parquet = {
    .hash = "XXH64 (seed 0)",
    .key_bytes = "integer: INT64 plain, 8 bytes little-endian; string: BYTE_ARRAY, its bytes",
    .kinds = LIBRARY_KEYS_INT_BYTES, .nwords = 1, .word_bits = 64, .words = parquet_words,
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
    .words = &words_parquet,
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
    .words = &words_parquet,
};

const library_t library_parquet_java_fixed = {
    .name = "parquet-java-fixed",
    .version = "parquet-java writer without an NDV, adaptive filters off (the default), "
               "ColumnValueCollector.java @a3a1de15 (1.18.0): a 1 MiB filter",
    .scheme = &scheme_sbbf, .sizing = &sizing_parquet_java_fixed, .hash = "64-bit",
    .cause = "sizing: 8,388,608 bits whatever the key count; the fpp set (default 0.01) is "
             "not used on this path",
    .report = "",
    .words = &words_parquet,
};

const library_t library_kudu = {
    .name = "kudu",
    .version = "Apache Kudu 1.13.0 to 1.18.1 / Impala 4.1.0 on block filter, "
               "util/block_bloom_filter.cc @3a9f8c31 (MinLogSpace by the block rate, d1190c2b)",
    .scheme = &scheme_kudu_block, .sizing = &sizing_kudu_block_113, .hash = "32-bit",
    .cause = "hash width (one 32-bit word); blocking, which its sizing now accounts for; "
             "sizes a power of two",
    .report = "apache/kudu d1190c2b (1.13.0): filters about 10% larger and half the false "
              "positive probability at 1%, obscured by the power-of-two sizes",
    .words_skipped = "the caller hashes: BlockBloomFilter::Insert takes a 32-bit hash the "
                     "column code computes (Kudu's and Impala's own choices per type)",
};

const library_t library_kudu_112 = {
    .name = "kudu-1.12",
    .version = "Apache Kudu up to 1.12 / Impala up to 4.0 block filter, "
               "util/block_bloom_filter.cc @1394746b (older MinLogSpace sizing)",
    .scheme = &scheme_kudu_block, .sizing = &sizing_kudu_block, .hash = "32-bit",
    .cause = "hash width (one 32-bit word), sizing and blocking as parquet",
    .report = "lance-format/lance#4730: Impala's rate estimate low \"by a factor of 8 or "
              "more\"",
    .words_skipped = "the caller hashes: BlockBloomFilter::Insert takes a 32-bit hash the "
                     "column code computes (Kudu's and Impala's own choices per type)",
};
