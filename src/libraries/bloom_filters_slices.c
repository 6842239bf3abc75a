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
#include <limits.h>
#include <math.h>

#include "libraries/arith.h"
#include "libraries/chain.h"
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

/* ---- sizing: create(n, p, loadFactor = 0.5) (lines 136-141): its size (the variable
 * `capacity`) = computeOptimalNumberOfCells = Math.ceil((n * -Math.log(p)) /
 * (Math.log(lf) * Math.log(1 - lf))), k = computeOptimalNumberOfhashes =
 * Math.ceil(Math.log(p) / Math.log(lf)) (lines 67-82); the constructor's slices of s =
 * Math.ceil(size / k) bits, k s bits in all (at least the size), and _size the size
 * (lines 116-128). n may be any Number (ScalableBloomFilter's links are not whole). Each
 * slice is its own BitSet, a Uint8Array of ceil(s / 8) bytes, which Node 20 holds up to
 * 2^32 bytes: a slice past 2^35 bits throws a RangeError (refused here as a cap). ---- */
static int bf_create(double n, double p, double lf, double *size, unsigned *k, uint64_t *s)
{
    double sz = ceil((n * -log(p)) / (log(lf) * log(1 - lf)));
    double kk = ceil(log(p) / log(lf));
    double ss = ceil(sz / kk);
    if (!(ss <= 34359738368.0)) /* 2^35 bits: 2^32 bytes */
        return SIZING_ECAP;
    if (!(kk * ss < TWO_64))
        return SIZING_ETOOBIG;
    *size = sz, *k = kk < 4294967295.0 ? (unsigned)kk : UINT_MAX, *s = (uint64_t)ss;
    return SIZING_OK;
}

static int bloom_filters_slices_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    (void)bpk;
    double size;
    unsigned k;
    uint64_t s;
    int st = bf_create((double)n, p, 0.5, &size, &k, &s);
    if (st != SIZING_OK)
        return st;
    out->k = k;
    out->m_computed = (uint64_t)size;
    out->m = (uint64_t)k * s;
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

/* ---- the scaling filter: ScalableBloomFilter (src/bloom/scalable-bloom-filter.ts at
 * v3.0.4, 3ba8b3f5; dist/bloom/scalable-bloom-filter.js as npm ships it) ----
 * The constructor (lines 81-101): _initial_size 8, _error_rate 0.01, _ratio 0.5, and link
 * 0 = PartitionedBloomFilter.create(_initial_size, _error_rate, _ratio), made at once.
 * _ratio is create's third argument, each link's loadFactor: it sets k = ceil(ln P / ln
 * r) and the size ceil(n (-ln P) / (ln r ln(1 - r))) (bf_create above) as well as the
 * tightening. add (lines 131-149): when the newest link's _currentload()
 * (partitioned-bloom-filter.ts:305-311: its slices' set bits over _size, the size before
 * the slices round it up, not over k s) is > its _loadFactor, a new link create(
 * _initial_size * Math.pow(_s, L + 1) * Math.LN2, _error_rate * Math.pow(_ratio, L),
 * _ratio), L the links so far and _s = 2 a static (line 48): a size that is not a whole
 * number, computed in that order; then the key goes to the newest link, whether a link
 * already reports it or not (nothing is swallowed). has (lines 157-159): some link has
 * it. Every link takes the chain's seed (lines 100, 145), so every link hashes a key to
 * the same words a, b (getIndexes' two XXH64s), each reducing them mod its own slice:
 * the links are not independent. Their targets P, P r, P r^2, ... add up to P / (1 - r)
 * (2 P at the defaults); the library promises _error_rate, P.
 *
 * A link is full by a fill test on its real bits, so the keys it holds are a random
 * count. chain_links plans each link with the keys at which the test passes on average
 * (bf_fill_keys): the smallest n whose expected set bits k s (1 - (1 - 1/s)^n) (one bit a
 * key in each slice) over the size exceed r. `bloomsim adapter bloom-filters-scalable`
 * applies the real test to its real bits (bf_chain_full), as the package does. The
 * simulation asks each link with fresh words (chain.h), as if the links were
 * independent: on the real hash the shared words change nothing measurable (the share
 * of 10^6 sequential keys some link answers yes to is within 0.5 standard errors of the
 * links' own shares combined as independent; docs/model.md, Chains).
 *
 * The package checks none of its parameters: a first size of 0 makes a link of no bits
 * whose load 0/0 never passes the test; a rate or ratio outside (0, 1) makes k 0,
 * negative or NaN. bloomsim refuses them, and takes no growth (_s is fixed at 2). ---- */
#define BF_GROWTH 2.0               /* ScalableBloomFilter._s */
#define BF_LN2 0.6931471805599453   /* Math.LN2 */
enum { BF_ESLICE = 300 };

/* Link j's design, as add computes it: its size, k, s and target rate. */
static int bf_link_design(const chain_params_t *p, size_t j, double *size, unsigned *k,
                          uint64_t *s, double *rate)
{
    double n = (double)p->capacity, r = p->rate;
    if (j > 0) {
        n = (double)p->capacity * pow(BF_GROWTH, (double)(j + 1)) * BF_LN2;
        r = p->rate * pow(p->tightening, (double)j);
    }
    if (!(r > 0))
        return CHAIN_EUNDERFLOW;
    int st = bf_create(n, r, p->tightening, size, k, s);
    if (st != SIZING_OK)
        return st;
    if (*k > SIZING_MAX_K)
        return SIZING_EPROBES;
    if (*s < 2)
        return BF_ESLICE;
    *rate = r;
    return SIZING_OK;
}

/* The keys at which the fill test passes on average: the smallest n with k s (1 - (1 -
 * 1/s)^n) / size > lf (s >= 2, size <= k s, 0 < lf < 1: such an n exists). */
static uint64_t bf_fill_keys(double size, unsigned k, uint64_t s, double lf)
{
    double ks = (double)k * (double)s, l1 = log1p(-1.0 / (double)s);
#define BF_LOAD(n) (ks * -expm1((double)(n) * l1) / size)
    double guess = floor(log1p(-lf * size / ks) / l1);
    uint64_t n = guess > 1 ? (uint64_t)guess : 1;
    while (n > 1 && BF_LOAD(n - 1) > lf)
        n--;
    while (!(BF_LOAD(n) > lf))
        n++;
#undef BF_LOAD
    return n;
}

static int bf_chain_link(const chain_params_t *p, size_t j, const sizing_layer_t *prev,
                         sizing_layer_t *out)
{
    (void)prev;
    double size, rate;
    unsigned k;
    uint64_t s;
    int st = bf_link_design(p, j, &size, &k, &s, &rate);
    if (st != SIZING_OK)
        return st;
    *out = (sizing_layer_t){.capacity = bf_fill_keys(size, k, s, p->tightening),
                            .rate = rate, .m = (uint64_t)k * s, .k = k};
    return SIZING_OK;
}

/* The real test (add, line 134): the set bits over the size, > the load factor. */
static int bf_chain_full(const chain_params_t *p, size_t j, const sizing_layer_t *l,
                         uint64_t added, uint64_t set)
{
    (void)l, (void)added;
    double size, rate;
    unsigned k;
    uint64_t s;
    if (bf_link_design(p, j, &size, &k, &s, &rate) != SIZING_OK)
        return 1;
    return (double)set / size > p->tightening;
}

/* PartitionedBloomFilter.create(n, P): the package's one filter for n keys. */
static int bf_chain_reserve(const chain_params_t *p, uint64_t n, uint64_t *m, unsigned *k)
{
    return sizing_design(&sizing_bloom_filters_slices, n, p->rate, m, k);
}

static const char *bf_chain_refusal(int status)
{
    switch (status) {
    case CHAIN_ECAPACITY:
        return "bloom-filters does not check it, but a first link of 0 keys has no bits and "
               "its load (0/0) never fills it: refused";
    case CHAIN_ERATE:
        return "bloom-filters does not check it, but ln P >= 0 (or NaN) makes its k 0 or "
               "less: refused";
    case CHAIN_ETIGHTENING:
        return "bloom-filters does not check it, but the ratio is each link's load factor: "
               "outside (0, 1) its k and size are not positive numbers: refused";
    case CHAIN_ENOEXPANSION:
        return "bloom-filters' ScalableBloomFilter takes no growth (its _s is 2)";
    case SIZING_ECAP:
        return "the next link's slices pass 2^35 bits: its BitSet's Uint8Array of more than "
               "2^32 bytes throws a RangeError in Node";
    case CHAIN_EUNDERFLOW:
        return "the next link's rate, P r^j, underflows to 0 (its k would be infinite)";
    case BF_ESLICE:
        return "a link of slices of 1 bit (bloomsim's schemes need k < m)";
    default:
        return NULL;
    }
}

const library_chain_t chain_bloom_filters_scalable = {
    .name = "bloom-filters-scalable",
    .version = "npm bloom-filters 3.0.4 (Callidon/bloom-filters 3ba8b3f5) ScalableBloomFilter, "
               "PartitionedBloomFilter.create",
    .summary = "new ScalableBloomFilter(C, P, r): link 0 create(C, P, r), link j create(C "
               "2^(j+1) ln 2, P r^j, r), r also each link's load factor; full when its set "
               "bits over its size pass r; nothing swallowed; every link hashes a key to the "
               "same words; targets add up to P/(1 - r)",
    .scheme = &scheme_bloom_filters_slices,
    .defaults = {.capacity = 8, .rate = 0.01, .expansion = BF_GROWTH, .tightening = 0.5},
    .has_tightening = 1,
    .link = bf_chain_link, .reserve = bf_chain_reserve,
    .refusal = bf_chain_refusal, .full = bf_chain_full, .words = &words_bloom_filters,
};
