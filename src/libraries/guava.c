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
#include "hashes/hashes.h"
#include "libraries/library.h"
#include "rates/rate.h"
#include "libraries/registry.h"
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

/* ---- sizing (sizing.h's table, rule guava): Guava 18.0 on ----
 * optimalNumOfBits: (long) (-n * Math.log(p) / (Math.log(2) * Math.log(2))), the computed
 * count; optimalNumOfHashFunctions(n, numBits) = Math.max(1, (int) Math.round((double) m
 * / n * Math.log(2))) from the computed count, before the array rounds it (the (double)
 * came in 18.0, ce4db5dc); the filter indexes the LockFreeBitArray's 64 ceil(m_c / 64)
 * bits. Guava refuses, as IllegalArgumentException("Could not create BloomFilter of N
 * bits") from create (BloomFilter.java:436-441 @808e0799): a computed count of 0
 * (LockFreeBitArray's checkArgument(bits > 0), BloomFilterStrategies.java:168
 * @70d571b1), one of more than 2^31 - 1 words (Ints.checkedCast of ceil(bits / 64), :172:
 * the cap is 64 (2^31 - 1) = 137,438,953,408 bits), and k past 255 (the constructor's
 * checkArgument(numHashFunctions <= 255)). */
#define GUAVA_MAX_WORDS INT32_MAX
static int guava_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    (void)bpk;
    const double ln2 = log(2.0);
    double bits = floor(-(double)n * log(p) / (ln2 * ln2));
    if (!(bits < TWO_64))
        return SIZING_ETOOBIG;
    if (bits < 1)
        return SIZING_EZERO;
    uint64_t mm = (uint64_t)bits;
    /* mm is at most the largest double below 2^64, 2^64 - 2048, so the rounding to whole
     * words cannot overflow. */
    uint64_t words = mm / 64 + (mm % 64 != 0);
    if (words > GUAVA_MAX_WORDS)
        return SIZING_ECAP;
    out->m_computed = mm;
    out->m = words * 64;
    out->k = floor((double)mm / (double)n * ln2 + 0.5);
    return out->k > 255 ? SIZING_EKFIELD : SIZING_OK;
}

static const char *guava_refusal(int status)
{
    switch (status) {
    case SIZING_EZERO:
        return "Guava computes 0 bits and throws IllegalArgumentException (\"Could not create "
               "BloomFilter of 0 bits\")";
    case SIZING_ECAP:
        return "Guava throws IllegalArgumentException (\"Could not create BloomFilter of N "
               "bits\"): more than 64 (2^31 - 1) = 137438953408 bits do not fit its array of "
               "longs";
    case SIZING_EKFIELD:
        return "Guava refuses more than 255 hash functions (IllegalArgumentException)";
    default:
        return NULL;
    }
}

const sizing_rule_t sizing_guava = {
    .name = "guava",
    .summary = "computed c = floor(-N ln P / ln^2 2), k = round(c/N ln 2), >= 1; the filter "
               "indexes m = 64 ceil(c/64) bits (Guava 18.0 on)",
    .kind = SIZING_RULE_PLAIN, .over = SIZING_OVER_UNIFORM, .design = guava_design,
    .refusal = guava_refusal,
};

/* ---- sizing rule guava-12: Guava 11.0.2 to 13.0.1 ----
 * BloomFilter.java @72d28126 (v12.0): create takes int expectedInsertions > 0 (:206);
 * numBits = optimalNumOfBits(int n, double p) = (int) (-n * Math.log(p) / LN2_SQUARED)
 * (:281-282): Java's (int) of a double saturates, so past 2^31 - 1 bits the count is
 * 2^31 - 1, never an error; k = optimalNumOfHashFunctions(int n, int m) = Math.max(1,
 * (int) Math.round(m / n * LN2)) (:268-269), with m / n an int division. BitArray(int
 * bits) allocates ceil(bits / 64) longs (BloomFilterStrategies.java:81-82) and positions
 * are taken mod size() = 64 words, an int: at the saturated count, 2^25 words, size()
 * wraps to -2^31, and nextHash % -2^31 is nextHash, so the filter indexes all 2^31 bits
 * (m = 64 ceil(c/64) <= 2^31 always). A count of 0 bits is refused (data length is
 * zero, :87); k past 255 fails an assertion (:111). At 10^9 keys for 1% Guava 12 built
 * 2^31 bits with k = round(2 ln 2) = 1; at 1%, below saturation, k = round(9 ln 2) = 6
 * where 18.0 on gives 7. Guava 11.0 and 11.0.1 built power-of-two filters indexed by
 * slices of one hash, not this; 14.0 to 16.0.1 kept MITZ_32 as the default with long
 * sizing and an int size() that wraps (not modelled). */
static int guava_12_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    (void)bpk;
    if (n > INT32_MAX)
        return SIZING_EKEYS;
    const double ln2 = log(2.0);
    double bits = -(double)n * log(p) / (ln2 * ln2);
    int64_t c = bits >= INT32_MAX ? INT32_MAX : (int64_t)bits; /* (int): truncate, saturate */
    if (c < 1)
        return SIZING_EZERO;
    out->m_computed = (uint64_t)c;
    out->m = ((uint64_t)c / 64 + ((uint64_t)c % 64 != 0)) * 64;
    out->k = floor((double)(c / (int64_t)n) * ln2 + 0.5);
    return out->k > 255 ? SIZING_EKFIELD : SIZING_OK;
}

static const char *guava_12_refusal(int status)
{
    switch (status) {
    case SIZING_EKEYS:
        return "Guava 12 takes the expected insertions as an int: at most 2^31 - 1 keys";
    case SIZING_EZERO:
        return "Guava 12 computes 0 bits and throws IllegalArgumentException (\"data length is "
               "zero!\")";
    case SIZING_EKFIELD:
        return "Guava 12 fails an assertion past 255 hash functions";
    default:
        return NULL;
    }
}

const sizing_rule_t sizing_guava_12 = {
    .name = "guava-12",
    .summary = "Guava 11.0.2-13.0.1: c = (int)(-N ln P / ln^2 2), saturating at 2^31 - 1; "
               "k = round((c / N, an int division) ln 2); m = 64 ceil(c/64)",
    .kind = SIZING_RULE_LIBRARY, .over = SIZING_OVER_UNIFORM, .design = guava_12_design,
    .refusal = guava_12_refusal,
};

/* ---- real keys: BloomFilterStrategies.java @0d6dbae8. MURMUR128_MITZ_32 takes
 * murmur3_128().hashObject(object, funnel).asLong(), the first 8 bytes of asBytes()
 * little-endian (h1): hash1 = (int) hash64, hash2 = (int) (hash64 >>> 32). MITZ_64
 * takes lowerEight(bytes) = h1 and upperEight(bytes) = h2. ---- */
static void guava32_words(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    LIBRARY_KEY_INPUT(key, LIBRARY_INT_LE8);
    uint64_t h[2];
    hash_murmur3_x64_128(in, len, 0, h);
    out[0] = (uint32_t)h[0];
    out[1] = h[0] >> 32;
}
static void guava64_words(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    LIBRARY_KEY_INPUT(key, LIBRARY_INT_LE8);
    hash_murmur3_x64_128(in, len, 0, out);
}
#define GUAVA_KEYS "integer: 8 bytes little-endian (Funnels.longFunnel); string: UTF-8 " \
                   "(Funnels.stringFunnel(UTF_8))"
static const library_words_t words_guava32 = {
    .hash = "Murmur3_x64_128 (Guava), first 64 bits as two ints", .key_bytes = GUAVA_KEYS,
    .kinds = LIBRARY_KEYS_INT_TEXT_BYTES, .nwords = 2, .word_bits = 32, .words = guava32_words,
};
static const library_words_t words_guava64 = {
    .hash = "Murmur3_x64_128 (Guava)", .key_bytes = GUAVA_KEYS,
    .kinds = LIBRARY_KEYS_INT_TEXT_BYTES, .nwords = 2, .word_bits = 64, .words = guava64_words,
};

/* ---- the libraries ---- */

const library_t library_guava_2012 = {
    .name = "guava-2012",
    .version = "Guava 11.0.2 to 13.0.1: MURMUR128_MITZ_32 and int sizing, BloomFilter.java "
               "and BloomFilterStrategies.java @72d28126 (v12.0); MITZ_32 stayed the default "
               "to 16.0.1 and is still read from old serialised filters",
    .scheme = &scheme_guava32, .sizing = &sizing_guava_12, .hash = "2 x 32-bit (one 64-bit)",
    .cause = "arithmetic: int32 sums flipped to [0, 2^31), then mod m: uneven once m > "
             "2^30, indexes below 2^31; sizing: k from an int division (6 at 1%), the size "
             "saturates at 2^31 bits (k = 1 at 10^9 keys for 1%)",
    .report = "google/guava#1119: 3e-6 measured for a 1e-6 design of 3*2^29 bits",
    .words = &words_guava32,
};

const library_t library_guava = {
    .name = "guava",
    .version = "Guava 18.0 on: MURMUR128_MITZ_64 (the default since 17.0) and k from "
               "(double) m / n, BloomFilterStrategies.java @0d6dbae8, BloomFilter.java "
               "@769e1e9c",
    .scheme = &scheme_guava64, .sizing = &sizing_guava, .hash = "2 x 64-bit",
    .cause = "none expected (63-bit sums mod m)", .report = "",
    .words = &words_guava64,
};
