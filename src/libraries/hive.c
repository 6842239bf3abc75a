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
#include "hashes/hashes.h"
#include "libraries/library.h"
#include "libraries/registry.h"
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

/* orc: ORC's BloomFilter(expectedEntries, fpp) (util/BloomFilter.java @02293868): nb =
 * optimalNumOfBits = (int)(-n ln p / ln^2 2), which saturates at 2^31 - 1; numBits = nb +
 * (64 - nb % 64) (a whole word more when nb is a multiple of 64); k = max(1, round(numBits
 * / n ln 2)), from the padded size. numBits is an int: from nb >= 2^31 - 64 the sum is
 * 2^31, which wraps to -2^31, and new BitSet(numBits) throws NegativeArraySizeException:
 * refused (SIZING_ECAP). */
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

static const char *orc_refusal(int status)
{
    return status == SIZING_ECAP ? "ORC's int bit count, nb + (64 - nb % 64), reaches 2^31 and "
                                   "wraps negative: new BitSet throws "
                                   "NegativeArraySizeException"
                                 : NULL;
}

const sizing_rule_t sizing_orc = {
    .name = "orc",
    .summary = "ORC: Guava's formula, 64-bit words, always one more; m below 2^31",
    .kind = SIZING_RULE_LIBRARY, .over = SIZING_OVER_UNIFORM, .design = orc_design,
    .refusal = orc_refusal,
};

/* hive-bloomk: BloomKFilter(long maxNumEntries) (BloomKFilter.java:58-69 @046c998e) takes
 * no rate: it designs for DEFAULT_FPP = 0.05f (:39), a float (0.05000000074505806 as
 * the double Math.log sees), so the rule designs only for a rate that is 0.05 as a float
 * and refuses any other. numBits = optimalNumOfBits(n, fpp) (Guava's, a long), k =
 * optimalNumOfHashFunctions(n, numBits) from it (4 at 0.05f); nLongs = (int)
 * ceil(numBits / 64.0) (saturating, never below 2.2 * 10^10 keys), padded with 8 -
 * nLongs % 8 longs (a whole 512-bit block more when already aligned); m = (nLongs +
 * padLongs) * Long.SIZE is int arithmetic (:65) and wraps: T = 64 (nLongs + padLongs)
 * taken mod 2^32 as signed. Negative (T in [2^31, 2^32), [3 2^31, 2^33), ...): new
 * long[negative] throws NegativeArraySizeException, refused; 0 (T a multiple of 2^32):
 * a zero-length array, and the first add or test divides by totalBlockCount = 0,
 * refused; otherwise the filter has T mod 2^32 bits, silently far fewer than designed
 * when T >= 2^32: 344,411,525 to 688,823,141 keys throw, 688,823,142 to 1,033,234,758
 * build a tiny filter (69,689,856 bits at 7 * 10^8 keys), 1,033,234,759 to
 * 1,377,646,375 throw, and so on. */
static int hive_bloomk_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    (void)bpk;
    const float fpp = 0.05f;
    if ((float)p != fpp)
        return SIZING_ELIBRATE;
    double x = java_optimal_bits(n, (double)fpp);
    double w = ceil(x / 64.0);
    int64_t words = w > INT32_MAXD ? INT32_MAX : (int64_t)w; /* (int): saturates */
    int32_t padded = (int32_t)(uint32_t)(uint64_t)(words + (8 - words % 8)); /* int sum */
    int32_t m = (int32_t)((uint32_t)padded * 64u); /* * Long.SIZE, int wraparound */
    if (m < 0)
        return SIZING_ECAP;
    if (m == 0)
        return SIZING_EZERO;
    out->m_computed = (uint64_t)x;
    out->m = (uint64_t)m;
    out->k = java_k(out->m_computed, n);
    return SIZING_OK;
}

static const char *hive_bloomk_refusal(int status)
{
    switch (status) {
    case SIZING_ELIBRATE:
        return "Hive's BloomKFilter takes no rate: it always designs for DEFAULT_FPP = 0.05f "
               "(audit it at --rate 0.05)";
    case SIZING_ECAP:
        return "Hive's int bit count, 64 * (nLongs + padLongs), wraps negative and BloomKFilter "
               "throws NegativeArraySizeException";
    case SIZING_EZERO:
        return "Hive's int bit count wraps to exactly 0: BloomKFilter builds an empty array "
               "and its first add or test throws ArithmeticException (/ by zero)";
    default:
        return NULL;
    }
}

const sizing_rule_t sizing_hive_bloomk = {
    .name = "hive-bloomk",
    .summary = "Hive BloomKFilter: Guava's formula at its fixed 0.05f, padded to whole 512-bit "
               "blocks, the bit count an int that wraps",
    .kind = SIZING_RULE_LIBRARY, .over = SIZING_OVER_BLOCKED, .block_bits = BLOCK_BITS,
    .design = hive_bloomk_design, .refusal = hive_bloomk_refusal,
};

/* ---- real keys ----
 * ORC util/BloomFilter.java @02293868: addLong(val) is addHash(getLongHash(val)), Thomas
 * Wang's hash; addBytes takes Murmur3.hash64(val, offset, length) (seed 104729); addHash:
 * hash1 = (int) hash64, hash2 = (int) (hash64 >>> 32). Hive storage-api
 * BloomKFilter.java @046c998e: addLong(val) is addHash(Murmur3.hash64(val)), which is
 * hash64 of the long's 8 bytes big-endian (TestMurmur3.test64 asserts it); addBytes as
 * ORC's; addHash splits as ORC's. */
static void orc_words(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    uint64_t h = key->kind == KEY_INT ? hash_wang64(key->u)
                                      : hash_hive64(key->bytes, key->len, HASH_HIVE_SEED);
    out[0] = (uint32_t)h, out[1] = h >> 32;
}
static void hive_bloomk_words(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    LIBRARY_KEY_INPUT(key, LIBRARY_INT_BE8);
    uint64_t h = hash_hive64(in, len, HASH_HIVE_SEED);
    out[0] = (uint32_t)h, out[1] = h >> 32;
}
static const library_words_t words_orc = {
    .hash = "Murmur3.hash64 (ORC/Hive, seed 104729); Thomas Wang's getLongHash",
    .key_bytes = "integer: addLong (getLongHash); string: addBytes of its bytes "
                 "(Murmur3.hash64)",
    .kinds = LIBRARY_KEYS_INT_BYTES, .nwords = 2, .word_bits = 32, .words = orc_words,
};
static const library_words_t words_hive_bloomk = {
    .hash = "Murmur3.hash64 (Hive, seed 104729)",
    .key_bytes = "integer: addLong, hash64 of 8 bytes big-endian; string: addBytes of its "
                 "bytes",
    .kinds = LIBRARY_KEYS_INT_BYTES, .nwords = 2, .word_bits = 32, .words = hive_bloomk_words,
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
    .words = &words_orc,
};

const library_t library_hive_bloomk = {
    .name = "hive-bloomk",
    .version = "Apache Hive storage-api BloomKFilter.java @046c998e",
    .scheme = &scheme_hive_bloomk, .sizing = &sizing_hive_bloomk,
    .hash = "2 x 32-bit (one 64-bit)",
    .cause = "blocking: 512-bit blocks sized by the unblocked formula; strides 0 mod 512 "
             "(1 in 512); sizing: the int bit count wraps from 344411525 keys (thrown, or "
             "silently tiny)",
    .report = "",
    .departs = 1,
    .words = &words_hive_bloomk,
};
