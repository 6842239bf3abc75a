/* spark.c - Apache Spark's sketch BloomFilter: V1 (BloomFilterImpl, Guava's 2012 loop:
 * scheme guava32, guava.c) and V2 (BloomFilterImplV2), their sizing and rows.
 *
 * Sources: apache/spark common/sketch BloomFilterImpl.java at 0314963e,
 * BloomFilterImplV2.java at c06cb38c, BloomFilter.java @013bfe4f (optimalNumOfBits,
 * optimalNumOfHashFunctions), BitArray.java @3a88ce83; apache/spark PR #50933.
 */
#include <math.h>

#include "libraries/arith.h"
#include "hashes/hashes.h"
#include "libraries/library.h"
#include "libraries/registry.h"
#include "schemes/words.h"

/* ---- spark-v2: BloomFilterImplV2 (scatterHashAndSetAllBits, scatterHashAndGetAllBits),
 * the version built on BloomFilterBase and HiLoHash ----
 * Two 32-bit words h1, h2 (Murmur3_x86_32 of the item, then seeded with h1: with an ideal
 * hash, independent), read as Java ints. combinedHash = (long) h1 * Integer.MAX_VALUE
 * (exact in i64: |h1| <= 2^31); for i = 0..k-1: combinedHash += h2 (sign-extended), and
 * the position is combinedIndex % bitSize with combinedIndex = ~combinedHash if negative,
 * else combinedHash. The running value stays within 2^62 + k 2^31: no i64 overflow.
 * An earlier V2 (at 013bfe4f) wrote the flip back into combinedHash; with h2 < 0 the
 * probes then bounce between two values once the sum crosses 0. The version here is the
 * later one (its refactoring follows the BloomFilterBase of 0314963e, and it is the
 * arithmetic Comet ports as Spark 4.1's). */
#define spark_v2_draw u32x2_draw
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

const scheme_t scheme_spark_v2 = {
    .name = "spark-v2",
    .summary = "Spark sketch BloomFilterImplV2: c = i64(h1)*(2^31-1); c += int32 h2, "
               "(c < 0 ? ~c : c) % m; i = 0..k-1",
    WORDS_U32(2), .geometry = scheme_geom_plain, SCHEME_FNS(spark_v2),
};

/* ---- sizing: BloomFilter.java optimalNumOfBits, optimalNumOfHashFunctions(n, numBits);
 * BitArray.java numWords: numBits <= 0 throws "numBits must be positive", more than
 * Integer.MAX_VALUE words throws "Can't allocate enough space". Indexed 64 ceil(m_c / 64).
 * ---- */
static int spark_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    (void)bpk;
    double x = java_optimal_bits(n, p);
    if (x == 0)
        return SIZING_EZERO;
    if (ceil(x / 64.0) > INT32_MAXD)
        return SIZING_ECAP;
    out->m_computed = (uint64_t)x;
    out->m = (out->m_computed + 63) / 64 * 64;
    out->k = java_k(out->m_computed, n);
    return SIZING_OK;
}

const sizing_rule_t sizing_spark = {
    .name = "spark",
    .summary = "Spark: Guava's formula, whole 64-bit words, at most 2^31 - 1 words",
    .kind = SIZING_RULE_LIBRARY, .over = SIZING_OVER_UNIFORM, .design = spark_design,
};

/* ---- real keys: BloomFilterImplV2.java @013bfe4f (and BloomFilterImpl, V1): putLong:
 * h1 = Murmur3_x86_32.hashLong(item, seed), h2 = hashLong(item, h1); putString:
 * putBinary(Utils.getBytesFromUTF8String(item)): h1 = hashUnsafeBytes(item,
 * BYTE_ARRAY_OFFSET, length, seed), h2 = the same seeded with h1; DEFAULT_SEED = 0. ---- */
static void spark_words(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    uint32_t h1, h2;
    if (key->kind == KEY_INT) {
        h1 = hash_spark_long(key->u, 0);
        h2 = hash_spark_long(key->u, h1);
    } else {
        h1 = hash_spark_bytes(key->bytes, key->len, 0);
        h2 = hash_spark_bytes(key->bytes, key->len, h1);
    }
    out[0] = h1, out[1] = h2;
}
static const library_words_t words_spark = {
    .hash = "Murmur3_x86_32 (Spark sketch), h2 seeded with h1",
    .key_bytes = "integer: putLong (hashLong); string: putString, its UTF-8 (hashUnsafeBytes)",
    .kinds = LIBRARY_KEYS_INT_TEXT_BYTES, .nwords = 2, .word_bits = 32, .words = spark_words,
};

/* ---- the libraries ---- */

const library_t library_spark_v1 = {
    .name = "spark-v1",
    .version = "Apache Spark sketch BloomFilterImpl.java @0314963e (Guava's MITZ_32 loop: "
               "scheme guava32), BloomFilter.java @013bfe4f",
    .scheme = &scheme_guava32, .sizing = &sizing_spark, .hash = "2 x 32-bit",
    .cause = "arithmetic: as guava-2012, indexes below 2^31",
    .report = "apache/spark PR #50933: 76.0% measured at 10^9 keys designed for 1% "
              "(9,585,058,432 bits)",
    .words = &words_spark,
};

const library_t library_spark_v2 = {
    .name = "spark-v2",
    .version = "Apache Spark sketch BloomFilterImplV2.java @c06cb38c, BloomFilter.java "
               "@013bfe4f",
    .scheme = &scheme_spark_v2, .sizing = &sizing_spark, .hash = "2 x 32-bit",
    .cause = "none expected (h1 (2^31 - 1) + i h2 in 64 bits)", .report = "",
    .words = &words_spark,
};
