/* cassandra.c - Apache Cassandra's BloomFilter: its index arithmetic, its sizing from a
 * table of buckets per element, and its row.
 *
 * Sources: apache/cassandra src/java/org/apache/cassandra/utils/BloomFilter.java
 * @23fd75f2 (CASSANDRA-8413, first in Cassandra 3.0.0: indexes, setIndexes with base =
 * hash[1] and inc = hash[0], the order of sstable formats "la" on; the earlier 02c34893
 * had base = hash[0]), FilterFactory.java @02fb2189 (getFilter; its sizing lines are the
 * same at 23fd75f2), BloomCalculations.java @07cf56f2 (probs, computeBloomSpec);
 * scylladb/scylladb#31204.
 */
#include "hashes/hashes.h"
#include "libraries/library.h"
#include "libraries/registry.h"
#include "schemes/words.h"

/* ---- the index arithmetic (current hash order) ----
 * Two 64-bit words hash[0], hash[1] (MurmurHash3 x64-128, seed 0); base = hash[1], inc =
 * hash[0]; for i < k: position FBUtilities.abs(base % max) with base a Java long and
 * Java's signed remainder (sign of the dividend), then base += inc (i64 wraparound).
 * max = bitset.capacity() = m. So the position is |base rem m| where base is read as
 * signed: index 0 has two preimages per residue class, others one of each sign. The
 * older order (oldBfHashOrder, and Cassandra 1.x) swaps base and inc: the same
 * distribution with the words relabelled. */
#define cassandra_draw u64x2_draw
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

const scheme_t scheme_cassandra = {
    .name = "cassandra",
    .summary = "Cassandra BloomFilter: c = h[1]; |c rem m| (Java long %, abs), c += h[0] "
               "(u64)",
    WORDS_U64(2), .geometry = scheme_geom_plain, SCHEME_FNS(cassandra),
};

/* ---- sizing ---- */

/* Cassandra's BloomCalculations.probs (@07cf56f2): row i buckets per element, column j
 * hash functions; rows end at the first 0 (all the table's rates are positive). */
static const double cass_probs[21][16] = {
    {1.0},
    {1.0, 1.0},
    {1.0, 0.393, 0.400},
    {1.0, 0.283, 0.237, 0.253},
    {1.0, 0.221, 0.155, 0.147, 0.160},
    {1.0, 0.181, 0.109, 0.092, 0.092, 0.101},
    {1.0, 0.154, 0.0804, 0.0609, 0.0561, 0.0578, 0.0638},
    {1.0, 0.133, 0.0618, 0.0423, 0.0359, 0.0347, 0.0364},
    {1.0, 0.118, 0.0489, 0.0306, 0.024, 0.0217, 0.0216, 0.0229},
    {1.0, 0.105, 0.0397, 0.0228, 0.0166, 0.0141, 0.0133, 0.0135, 0.0145},
    {1.0, 0.0952, 0.0329, 0.0174, 0.0118, 0.00943, 0.00844, 0.00819, 0.00846},
    {1.0, 0.0869, 0.0276, 0.0136, 0.00864, 0.0065, 0.00552, 0.00513, 0.00509},
    {1.0, 0.08, 0.0236, 0.0108, 0.00646, 0.00459, 0.00371, 0.00329, 0.00314},
    {1.0, 0.074, 0.0203, 0.00875, 0.00492, 0.00332, 0.00255, 0.00217, 0.00199, 0.00194},
    {1.0, 0.0689, 0.0177, 0.00718, 0.00381, 0.00244, 0.00179, 0.00146, 0.00129, 0.00121,
     0.0012},
    {1.0, 0.0645, 0.0156, 0.00596, 0.003, 0.00183, 0.00128, 0.001, 0.000852, 0.000775,
     0.000744},
    {1.0, 0.0606, 0.0138, 0.005, 0.00239, 0.00139, 0.000935, 0.000702, 0.000574, 0.000505,
     0.00047, 0.000459},
    {1.0, 0.0571, 0.0123, 0.00423, 0.00193, 0.00107, 0.000692, 0.000499, 0.000394, 0.000335,
     0.000302, 0.000287, 0.000284},
    {1.0, 0.054, 0.0111, 0.00362, 0.00158, 0.000839, 0.000519, 0.00036, 0.000275, 0.000226,
     0.000198, 0.000183, 0.000176},
    {1.0, 0.0513, 0.00998, 0.00312, 0.0013, 0.000663, 0.000394, 0.000264, 0.000194, 0.000155,
     0.000132, 0.000118, 0.000111, 0.000109},
    {1.0, 0.0488, 0.00906, 0.0027, 0.00108, 0.00053, 0.000303, 0.000196, 0.00014, 0.000108,
     8.89e-05, 7.77e-05, 7.12e-05, 6.79e-05, 6.71e-05},
};

static int cass_len(int b)
{
    int j = 0;
    while (j < 16 && cass_probs[b][j] > 0)
        j++;
    return j;
}

/* optKPerBuckets[b]: the first j of the row's least rate, at least 1. */
static int cass_optk(int b)
{
    double min = 1.7976931348623157e308;
    int k = 1;
    for (int j = 0; j < cass_len(b); j++)
        if (cass_probs[b][j] < min) {
            min = cass_probs[b][j];
            k = j < 1 ? 1 : j;
        }
    return k;
}

/* FilterFactory.getFilter(n, p): buckets per element and K from
 * BloomCalculations.computeBloomSpec(maxBucketsPerElement(n), p): p >= probs[2][1] =
 * 0.393 gives BloomSpecification(2, optKPerBuckets[2]), whose constructor is (k,
 * buckets): K = 2 at 1 bucket per element (the swap of scylladb/scylladb#31204, kept);
 * p below probs[maxB][last] throws "Unable to satisfy"; else the fewest buckets whose
 * optimal K meets p, then K lowered while probs[b][K-1] <= p. numBits = n b + 20
 * (BITSET_EXCESS); the bit set allocates ceil(numBits / 64) words, more than
 * Integer.MAX_VALUE refused ("Bloom filter size is > 16GB"), and indexes 64 words.
 * Computed numBits; indexed its whole words. */
static int cassandra_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    (void)bpk;
    double v = (9223372036854775807.0 - 20) / (double)n;
    if (v < 1.0)
        return SIZING_EKEYS; /* "Cannot compute probabilities for n elements" */
    int maxb = v < 20 ? (int)v : 20;
    int b, kc;
    if (p >= cass_probs[2][1]) {
        b = cass_optk(2);
        kc = 2;
    } else {
        if (p < cass_probs[maxb][cass_len(maxb) - 1])
            return SIZING_ELIBRATE;
        b = 2;
        kc = cass_optk(2);
        while (cass_probs[b][kc] > p)
            kc = cass_optk(++b);
        while (cass_probs[b][kc - 1] <= p)
            kc--;
    }
    uint64_t mc = n * (uint64_t)b + 20;
    uint64_t words = mc / 64 + (mc % 64 != 0);
    if (words > 2147483647u)
        return SIZING_ECAP;
    out->m_computed = mc;
    out->m = words * 64;
    out->k = kc;
    return SIZING_OK;
}

const sizing_rule_t sizing_cassandra = {
    .name = "cassandra",
    .summary = "Cassandra: BloomCalculations' table of buckets per element (2 to 20), N "
               "buckets + 20 bits in 64-bit words; refuses P < 6.71e-5",
    .kind = SIZING_RULE_LIBRARY, .over = SIZING_OVER_UNIFORM, .design = cassandra_design,
};

/* ---- real keys: utils/BloomFilter.java @23fd75f2: key.filterHash(long[2]) is
 * MurmurHash.hash3_x64_128(key, position, remaining, 0, dest) of the partition key's
 * serialised bytes (a bigint: 8 bytes big-endian, LongType; text: UTF-8); the scheme
 * takes hash[0], hash[1] in that order (base = hash[1], above). ---- */
static void cassandra_words(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    LIBRARY_KEY_INPUT(key, LIBRARY_INT_BE8);
    hash_murmur3_cassandra(in, len, 0, out);
}
static const library_words_t words_cassandra = {
    .hash = "MurmurHash3_x64_128 (Cassandra, sign-extended tail)",
    .key_bytes = "integer: a bigint key, 8 bytes big-endian; string: a text key, its UTF-8",
    .kinds = LIBRARY_KEYS_INT_TEXT_BYTES, .nwords = 2, .word_bits = 64,
    .words = cassandra_words,
};

const library_t library_cassandra = {
    .name = "cassandra",
    .version = "Apache Cassandra 3.0 on (sstable formats la on): utils/BloomFilter.java "
               "@23fd75f2, FilterFactory.java @02fb2189, BloomCalculations.java @07cf56f2",
    .scheme = &scheme_cassandra, .sizing = &sizing_cassandra, .hash = "2 x 64-bit",
    .cause = "sizing: a table of whole buckets per element; fp_chance >= 0.393 gets 1 "
             "bucket and 2 probes (constructor arguments swapped)",
    .report = "scylladb/scylladb#31204: the swap, about 0.748 for any fp_chance in "
              "[0.393, 1)",
    .words = &words_cassandra,
};
