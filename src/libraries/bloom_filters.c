/* bloom_filters.c - npm's `bloom-filters` (Callidon/bloom-filters, JavaScript): its
 * BloomFilter's index arithmetic, its sizing, and its row.
 *
 * Source: Callidon/bloom-filters at v3.0.4 (3ba8b3f5): src/hashing/hashing.ts
 * (doubleHashing, line 55; getIndexes, lines 118-133; serialize, line 149; hashTwice,
 * lines 160-167), src/formulas.ts (optimalFilterSize, line 39; optimalHashes, line 50),
 * src/bloom/bloom-filter.ts (the constructor, lines 79-89; create, lines 97-101),
 * src/bloom/bit-set.ts (lines 44-57), src/utils.ts (getDefaultSeed, line 180); and the
 * xxhashjs 0.2.2 and cuint 0.2.2 it hashes with (cuint's UINT64.prototype.toNumber).
 */
#include <math.h>

#include "libraries/arith.h"
#include "hashes/hashes.h"
#include "libraries/library.h"
#include "libraries/registry.h"
#include "schemes/words.h"

/* ---- the index arithmetic ----
 * add and has take getIndexes(element, size, k, seed): hashTwice gives first =
 * serialize(element, seed + 1) and second = serialize(element, seed + 2), each
 * Number(XXH.h64(element, seed).toNumber()); cuint's toNumber is (_a16 * 65536) + _a00,
 * the low 32 bits of the 64-bit hash only. So the words are two 32-bit values a, b (the
 * low halves of two seeded XXH64 hashes; with an ideal hash, independent). Index i =
 * 0..k-1 is doubleHashing(i, a, b, size) = Math.abs((a + i*b + Math.floor((i^3 - i)/6))
 * % size): enhanced double hashing with no reduction of a, b or the sum before the %. In
 * Numbers every term is exact (a + i b < 2^32 (k + 1), the cubic term below 2^28 at
 * k <= 1000), and none is negative, so the index is (a + i b + (i^3 - i)/6) mod m, exact
 * in 64 bits here: for m past 2^32 probe 0 stays below 2^32, as libbloom's does. */
#define bloom_filters_draw u32x2_draw
SCHEME_HOT void bloom_filters_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    (void)g;
    it->x = h[0];  /* a + i b + (i^3 - i)/6 at i = 0 */
    it->y = h[1];  /* its first difference, b + i(i+1)/2 at i = 0 */
    it->i = 0;
}
SCHEME_HOT uint64_t bloom_filters_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)r;
    uint64_t p = it->x % g->m;
    it->i++;
    it->x += it->y;  /* exact: x < 2^32 (k + 1) + 2^28 */
    it->y += it->i;
    return p;
}
SCHEME_LOOPS(bloom_filters)

const scheme_t scheme_bloom_filters = {
    .name = "bloom-filters",
    .summary = "npm bloom-filters 3.0.4: u32 a, b (the low halves of two XXH64s); (a + i*b + "
               "(i^3-i)/6) mod m, exact; i = 0..k-1",
    WORDS_U32(2), .geometry = scheme_geom_plain, SCHEME_FNS(bloom_filters),
};

/* ---- sizing: create(n, p): size = optimalFilterSize(n, p) = Math.ceil(-((n *
 * Math.log(p)) / Math.pow(Math.log(2), 2))), k = optimalHashes(size, n) = Math.ceil((size
 * / n) * Math.log(2)); the filter indexes size bits (its BitSet rounds only the
 * allocation up to whole bytes). The BitSet is a Uint8Array of ceil(size / 8) bytes,
 * which Node 20 holds up to 2^32 bytes: a larger size throws a RangeError (refused here
 * as a cap). ---- */
static int bloom_filters_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    (void)bpk;
    double size = ceil(-(((double)n * log(p)) / pow(log(2.0), 2)));
    if (!(size <= 34359738368.0)) /* 2^35 bits: 2^32 bytes */
        return SIZING_ECAP;
    out->m_computed = out->m = (uint64_t)size;
    out->k = ceil((size / (double)n) * log(2.0));
    return SIZING_OK;
}

const sizing_rule_t sizing_bloom_filters = {
    .name = "bloom-filters",
    .summary = "npm bloom-filters: m = ceil(-N ln P / ln^2 2), k = ceil(m/N ln 2); at most "
               "2^35 bits (Node's typed arrays)",
    .kind = SIZING_RULE_LIBRARY, .over = SIZING_OVER_UNIFORM, .design = bloom_filters_design,
};

/* ---- real keys: src/hashing/hashing.ts: hashTwice(value, seed) = {first:
 * serialize(value, seed + 1), second: serialize(value, seed + 2)}, serialize =
 * Number(XXH.h64(value, seed).toNumber()) with the default seed 0x1234567890 (utils.ts
 * getDefaultSeed). xxhashjs 0.2.2 makes the seed UINT64(seed), whose fromNumber keeps
 * value & 0xffff and value >>> 16: the low 32 bits, 0x34567891 and 0x34567892; it hashes
 * a string's UTF-8 bytes (toUTF8Array); cuint's toNumber is the low 32 bits of the hash.
 * tests/conformance/bloom_filters.js `words KEY` prints them. ---- */
static void bloom_filters_words(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    LIBRARY_KEY_INPUT(key, LIBRARY_INT_DEC);
    out[0] = (uint32_t)hash_xxh64(in, len, 0x34567891u);
    out[1] = (uint32_t)hash_xxh64(in, len, 0x34567892u);
}
/* Shared with its PartitionedBloomFilter (bloom_filters_slices.c): the same getIndexes. */
const library_words_t words_bloom_filters = {
    .hash = "XXH64 (xxhashjs), seeds 0x34567891 and 0x34567892, low 32 bits",
    .key_bytes = "integer: its decimal string; string: its UTF-8 (xxhashjs toUTF8Array)",
    .kinds = LIBRARY_KEYS_INT_TEXT_BYTES, .nwords = 2, .word_bits = 32,
    .words = bloom_filters_words,
};

const library_t library_bloom_filters = {
    .name = "bloom-filters",
    .version = "npm bloom-filters 3.0.4 (Callidon/bloom-filters 3ba8b3f5) BloomFilter.create, "
               "Hashing.getIndexes",
    .scheme = &scheme_bloom_filters, .sizing = &sizing_bloom_filters,
    .hash = "2 x 32-bit (the low halves of two 64-bit)",
    .cause = "arithmetic: a + i b + (i^3 - i)/6 of 32-bit words, exact: probe 0 below 2^32; "
             "the hash keeps 32 of its 64 bits (floor about n/2^64 for the pair)",
    .report = "",
    .words = &words_bloom_filters,
};
