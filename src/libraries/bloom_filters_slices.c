/* bloom_filters_slices.c - npm's `bloom-filters` (Callidon/bloom-filters, JavaScript):
 * its PartitionedBloomFilter's index arithmetic, its model, its sizing and its row.
 *
 * Source: bloom-filters 3.0.4 as npm ships it (tests/conformance/package-lock.json), its
 * compiled dist/bloom/partitioned-bloom-filter.js (src/bloom/partitioned-bloom-filter.ts
 * at Callidon/bloom-filters v3.0.4, 3ba8b3f5): computeOptimalNumberOfhashes (lines
 * 67-70), computeOptimalNumberOfCells (lines 79-82), the constructor (lines 116-128),
 * create (lines 136-141), add and has (lines 200-226); dist/hashing/hashing.js
 * (doubleHashing, lines 48-50; getIndexes, lines 104-114; hashTwice, lines 139-147), the
 * hashing bloom_filters.c transcribes for the BloomFilter, whose words this row shares.
 * tests/conformance/bloom_filters_slices_adapter.js runs the package; tests/adapters.sh
 * finds it and this file alike, bit for bit.
 */
#include <math.h>

#include "libraries/arith.h"
#include "libraries/library.h"
#include "libraries/registry.h"
#include "rates/rate.h"
#include "schemes/words.h"

/* ---- the index arithmetic ----
 * The constructor makes k = _nbHashes slices, each a BitSet of s = _m = ceil(size / k)
 * bits. add(element) takes indexes = getIndexes(element, s, k, seed), the BloomFilter's
 * own (bloom_filters.c): the low 32 bits a, b of two seeded XXH64s, index i =
 * (a + i b + (i^3 - i)/6) mod s, exact in Numbers; and sets bit indexes[i] of slice i.
 * In one array of k s bits (the protocol's layout, slice after slice) probe i is
 * i s + index i: `partitioned`'s geometry (slices of w = s bits) with the BloomFilter's
 * progression reduced mod the slice. A query and a stored key whose (a mod s, b mod s)
 * agree agree in every slice: with n keys a floor of about n / s^2 (the model below). */
#define bloom_filters_slices_draw u32x2_draw
SCHEME_HOT void bloom_filters_slices_start(const probe_geom_t *g, const uint64_t *h,
                                           probe_it_t *it)
{
    (void)g;
    it->x = h[0]; /* a + i b + (i^3 - i)/6 at i = 0 */
    it->y = h[1]; /* its first difference, b + i(i+1)/2 at i = 0 */
    it->z = 0;    /* start of slice i */
    it->i = 0;
}
SCHEME_HOT uint64_t bloom_filters_slices_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)r;
    uint64_t p = it->z + it->x % g->w;
    it->i++;
    it->x += it->y; /* exact: x < 2^32 (k + 1) + 2^28 */
    it->y += it->i;
    it->z += g->w;
    return p;
}
SCHEME_LOOPS(bloom_filters_slices)

/* Model: a, b uniform mod s (32-bit words; their unevenness mod s is below s / 2^32).
 * A stored key with (a', b') meets a query (a, b) in slice i when (a - a') + i (b - b')
 * = 0 mod s: in every slice when both differences are 0 (probability u = 1/s^2), else,
 * for s prime, in at most one slice, slice i with probability v = (s - 1)/s^2 (for s
 * composite, a stored key whose b - b' shares a large factor with s may meet it in a few
 * slices: not modelled). Keys independent: the k slices are all met with probability
 * sum_j (-1)^j C(k, j) (1 - u [j > 0] - j v)^n (inclusion and exclusion over the slices
 * left unmet), in long double with log1p; past k = 30 the sum cancels too much and the
 * model is 1 - (1 - u)^n plus the rest times the slices met independently,
 * (1 - (1 - v)^n)^k. Without the full matches this is `partitioned`'s exact rate up to
 * the slices' exclusion; the full matches add about n / s^2: 0.53 times the promise at
 * 10^4 keys for 0.01% (s = 13,693, k = 14). */
static double bloom_filters_slices_model(const probe_geom_t *g, uint64_t n)
{
    long double s = (long double)g->w, u = 1 / (s * s), v = (s - 1) / (s * s);
    long double N = (long double)n;
    if (g->k > 30) {
        long double q = -expm1l(N * log1pl(-u));
        long double met = powl(-expm1l(N * log1pl(-v)), g->k);
        return (double)(q + (1 - q) * met);
    }
    long double sum = 1, c = 1;
    for (unsigned j = 1; j <= g->k; j++) {
        c = c * (g->k - j + 1) / j;
        long double t = c * expl(N * log1pl(-u - j * v));
        sum += (j % 2) ? -t : t;
    }
    return (double)(sum < 0 ? 0 : sum);
}

const scheme_t scheme_bloom_filters_slices = {
    .name = "bloom-filters-slices",
    .summary = "npm bloom-filters 3.0.4 PartitionedBloomFilter: k slices of s bits; u32 a, b "
               "(as bloom-filters); slice i at (a + i*b + (i^3-i)/6) mod s",
    WORDS_U32(2), .geometry = scheme_geom_slices, SCHEME_FNS(bloom_filters_slices),
    .model = bloom_filters_slices_model,
};

/* ---- sizing: create(n, p) with its default loadFactor 0.5: capacity (the size) =
 * computeOptimalNumberOfCells = Math.ceil((n * -Math.log(p)) / (Math.log(0.5) *
 * Math.log(1 - 0.5))), k = computeOptimalNumberOfhashes = Math.ceil(Math.log(p) /
 * Math.log(0.5)); the constructor's slices of s = Math.ceil(size / k) bits, k s bits in
 * all (at least the size). Each slice is its own BitSet, a Uint8Array of ceil(s / 8)
 * bytes, which Node 20 holds up to 2^32 bytes: a slice past 2^35 bits throws a
 * RangeError (refused here as a cap). ---- */
static int bloom_filters_slices_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    (void)bpk;
    double size = ceil(((double)n * -log(p)) / (log(0.5) * log(1 - 0.5)));
    double k = ceil(log(p) / log(0.5));
    double s = ceil(size / k);
    if (!(s <= 34359738368.0)) /* 2^35 bits: 2^32 bytes */
        return SIZING_ECAP;
    if (!(k * s < TWO_64))
        return SIZING_ETOOBIG;
    out->k = k;
    out->m_computed = (uint64_t)size;
    out->m = (uint64_t)k * (uint64_t)s;
    return SIZING_OK;
}

static const char *bloom_filters_slices_refusal(int status)
{
    return status == SIZING_ECAP ? "a slice past 2^35 bits: its BitSet's Uint8Array of more "
                                   "than 2^32 bytes throws a RangeError in Node"
                                 : NULL;
}

const sizing_rule_t sizing_bloom_filters_slices = {
    .name = "bloom-filters-slices",
    .summary = "npm bloom-filters PartitionedBloomFilter: size = ceil(-N ln P / ln^2 2), k = "
               "ceil(ln P / ln 0.5) slices of ceil(size / k) bits; a slice at most 2^35 bits",
    .kind = SIZING_RULE_LIBRARY, .over = SIZING_OVER_SLICES,
    .design = bloom_filters_slices_design, .refusal = bloom_filters_slices_refusal,
};

const library_t library_bloom_filters_slices = {
    .name = "bloom-filters-slices",
    .version = "npm bloom-filters 3.0.4 (Callidon/bloom-filters 3ba8b3f5) "
               "PartitionedBloomFilter.create, Hashing.getIndexes",
    .scheme = &scheme_bloom_filters_slices, .sizing = &sizing_bloom_filters_slices,
    .hash = "2 x 32-bit (the low halves of two 64-bit)",
    .cause = "arithmetic: one progression a + i b + (i^3 - i)/6 reduced mod the slice s: a "
             "query whose (a, b) mod s meets a stored key's meets it in every slice, a "
             "floor of about n/s^2 (0.53 times the promise at 10^4 keys for 0.01%)",
    .report = "",
    .words = &words_bloom_filters,
};
