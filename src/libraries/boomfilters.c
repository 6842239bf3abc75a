/* boomfilters.c - Go's BoomFilters (github.com/tylertreat/BoomFilters): its
 * PartitionedBloomFilter's index arithmetic, model, sizing and real hash, and its
 * ScalableBloomFilter, a chain of them.
 *
 * Source: tylertreat/BoomFilters at 5b3723cc (2025-10-01; the repository has no tags
 * and no go.mod, so a commit is its version): boom.go (fillRatio 0.5 :44, OptimalM
 * :64-67, OptimalK :71-73, hashKernel :77-84), partitioned.go (NewPartitionedBloomFilter
 * :48-67, EstimatedFillRatio :85-87, Test :107-118, Add :122-132), buckets.go (NewBuckets
 * :20-27, Set's uint32 offset :62), scalable.go (NewScalableBloomFilter :54-65,
 * NewDefaultScalableBloomFilter :69-71, Test :102-111, Add :115-126, addFilter
 * :146-153). Debian does not package it (no golang-github-tylertreat-boomfilters-dev):
 * no conformance adapter; the tests' cases were worked from this source.
 */
#include <math.h>

#include "hashes/hashes.h"
#include "libraries/arith.h"
#include "libraries/chain.h"
#include "libraries/library.h"
#include "libraries/registry.h"
#include "schemes/shared.h"
#include "schemes/words.h"

/* ---- the index arithmetic: PartitionedBloomFilter.Add / Test ----
 * hashKernel: the FNV-1 64 sum of the data split into lower = its low 32 bits and upper =
 * its high 32 bits; partition i (k of them, each s buckets of one bit) takes bit
 * (uint(lower) + uint(upper) * i) % s, in Go's 64-bit uint: exact, no wrap. In one array
 * of k s bits, probe i is i s + that: `partitioned`'s geometry (slices of w = s bits).
 * Buckets.Set takes the bucket as a uint32 (buckets.go:62) while Get takes a uint: a
 * partition past 2^32 bits sets other bits than it tests, and loses keys. */
#define BOOMFILTERS_SLICE_MAX (UINT64_C(1) << 32)
#define boomfilters_partitioned_draw u32x2_draw
SCHEME_HOT void boomfilters_partitioned_start(const probe_geom_t *g, const uint64_t *h,
                                              probe_it_t *it)
{
    (void)g;
    it->x = h[0]; /* lower + upper * i at i = 0 */
    it->y = h[1];
    it->z = 0; /* start of partition i */
}
SCHEME_HOT uint64_t boomfilters_partitioned_next(const probe_geom_t *g, pcg32_t *r,
                                                 probe_it_t *it)
{
    (void)r;
    uint64_t p = it->z + it->x % g->w;
    it->x += it->y; /* exact: below 2^32 (k + 1) */
    it->z += g->w;
    return p;
}
SCHEME_LOOPS(boomfilters_partitioned)

static int boomfilters_partitioned_geometry(uint64_t m, unsigned k, uint64_t block,
                                            probe_geom_t *g)
{
    int st = scheme_geom_slices(m, k, block, g);
    if (st == SCHEME_OK && g->w > BOOMFILTERS_SLICE_MAX)
        return SCHEME_ELOSES;
    return st;
}

/* Model: bloom-filters-slices' (bloom_filters_slices.c). Its positions are (a + i b +
 * (i^3 - i)/6) mod s on two uniform 32-bit words, exact; these are (a + i b) mod s: the
 * same but for a constant shift of each slice, which relabels the slice's bits and
 * changes no rate. A stored key whose (a, b) mod s equal the query's meets it in every
 * partition: about n / s^2 of floor in each link, the same in every link of a chain
 * whose links all take the same hint. */
static double boomfilters_partitioned_model(const probe_geom_t *g, uint64_t n)
{
    return scheme_bloom_filters_slices.model(g, n);
}

const scheme_t scheme_boomfilters_partitioned = {
    .name = "boomfilters-partitioned",
    .summary = "Go BoomFilters PartitionedBloomFilter: k partitions of s bits; u32 lower, "
               "upper (FNV-1 64 halves); partition i at (lower + upper*i) mod s",
    .m_cap = "a partition <= 2^32 bits",
    .loses = "a partition past 2^32 bits loses keys: Buckets.Set takes the bucket as a "
             "uint32, Get as a uint",
    WORDS_U32(2), .geometry = boomfilters_partitioned_geometry,
    SCHEME_FNS(boomfilters_partitioned), .model = boomfilters_partitioned_model,
};

/* ---- sizing: NewPartitionedBloomFilter(n, fpRate) ----
 * m = OptimalM(n, fpRate) = uint(Ceil(n / ((Log(0.5) * Log(1 - 0.5)) / Abs(Log(fpRate))))),
 * k = OptimalK(fpRate) = uint(Ceil(Log2(1 / fpRate))), s = uint(Ceil(m / k)) buckets a
 * partition: k s bits (each partition its own ceil(s / 8) bytes). Go's Log2 is
 * Log(frac) (1/Ln2) + exp over Frexp (exact at powers of two), done so here. A rate of
 * 1 or more gives k = 0 partitions (a filter that says yes to everything), and of 0 or
 * less an unbounded k (a panic): no filter. */
static double go_log2(double x)
{
    int e;
    double frac = frexp(x, &e);
    if (frac == 0.5)
        return (double)(e - 1);
    return log(frac) * 1.4426950408889634074 + (double)e; /* Go's constant 1/Ln2 */
}

static int boomfilters_partitioned_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    (void)bpk;
    const double ln_half = log(0.5);
    double m = ceil((double)n / ((ln_half * ln_half) / fabs(log(p))));
    double k = ceil(go_log2(1 / p));
    if (!(k >= 1) || !(m >= 1))
        return SIZING_EDOM;
    if (!(m < TWO_64 / 2))
        return SIZING_ETOOBIG;
    double s = ceil(m / k);
    if (!(k * s < TWO_64 / 2))
        return SIZING_ETOOBIG;
    out->k = k;
    out->m_computed = (uint64_t)m;
    out->m = (uint64_t)k * (uint64_t)s;
    return SIZING_OK;
}

const sizing_rule_t sizing_boomfilters_partitioned = {
    .name = "boomfilters-partitioned",
    .summary = "Go BoomFilters PartitionedBloomFilter: M = ceil(N |ln P| / ln^2 2), k = "
               "ceil(log2 1/P) partitions of ceil(M / k) bits",
    .kind = SIZING_RULE_LIBRARY, .over = SIZING_OVER_SLICES,
    .design = boomfilters_partitioned_design,
};

/* ---- real keys: hashKernel's fnv.New64 (FNV-1 64: multiply, then xor each byte) over
 * the []byte the user passes; an integer as its 8 bytes big-endian (encoding/binary, as
 * blobloom.c takes them). ---- */
static void boomfilters_partitioned_key_words(const rkey_t *key, const probe_geom_t *g,
                                              uint64_t *out)
{
    (void)g;
    LIBRARY_KEY_INPUT(key, LIBRARY_INT_BE8);
    uint64_t h = hash_fnv1_64(in, len);
    out[0] = (uint32_t)h;
    out[1] = h >> 32;
}

static const library_words_t words_boomfilters_partitioned = {
    .hash = "FNV-1 64 (Go hash/fnv New64), split in u32 halves (lower, upper)",
    .key_bytes = "integer: 8 bytes big-endian (encoding/binary); string: its bytes",
    .kinds = LIBRARY_KEYS_INT_BYTES, .nwords = 2, .word_bits = 32,
    .words = boomfilters_partitioned_key_words,
};

const library_t library_boomfilters_partitioned = {
    .name = "boomfilters-partitioned",
    .version = "Go BoomFilters (tylertreat/BoomFilters 5b3723cc) partitioned.go, boom.go "
               "NewPartitionedBloomFilter",
    .scheme = &scheme_boomfilters_partitioned, .sizing = &sizing_boomfilters_partitioned,
    .hash = "2 x 32-bit (the halves of one 64-bit)",
    .cause = "arithmetic: one progression lower + i upper reduced mod the partition s: a "
             "query whose (lower, upper) mod s meets a stored key's meets it in every "
             "partition, a floor of about n/s^2 (bloom-filters-slices' model)",
    .report = "",
    .words = &words_boomfilters_partitioned,
};

/* ---- the scaling filter: ScalableBloomFilter (scalable.go) ----
 * NewScalableBloomFilter(hint, fpRate, r) makes its first filter at once; addFilter makes
 * filter j = len(filters) as NewPartitionedBloomFilter(hint, fpRate * Pow(r, j)): every
 * filter for the same hint (no growth: a chain of n keys has about n / hint links), the
 * first at fpRate itself, their target rates adding up to fpRate / (1 - r) = 5 fpRate at
 * the default r = 0.8 (NewDefaultScalableBloomFilter(fpRate): hint 10000, r 0.8; its
 * README creates one at 0.01; r is bloomsim's --tightening, a stack's NAME//T). Add does
 * not Test first: every key is added, none swallowed. Add starts a new filter when the
 * newest one's EstimatedFillRatio, 1 - Exp(-count / s) from its count of keys added and
 * its partition size s (not its bits), is at least p = 0.5: a filter takes keys while
 * count < s ln 2, so its capacity here is the least count c with 1 - e^{-c/s} >= 0.5,
 * found as Go computes the test (about 9,492 keys, not 10,000, for the default filter at
 * 0.01: s = 13,693). Nothing is refused: a hint of 0 makes 0-bucket partitions (the first
 * Add divides by 0: a panic), a rate of 0 or less an unbounded k (a panic), of 1 or more a
 * filter of no partitions that says yes to every key; refused here. Go's math.Pow for a
 * whole exponent (repeated squaring of Frexp's mantissa, the exponent kept apart) is done
 * as it does it. At the defaults filter 3161's rate, 0.01 * 0.8^3161, is below 2^-1024:
 * 1/fpRate is +Inf, OptimalK unbounded, and NewPartitionedBloomFilter panics (makeslice:
 * len out of range, as the package does under go 1.19); bloomsim's k <= 1000 stops the
 * chain first, at filter 3086, and its 1024 links before that, at 10,181,920 keys. */
#define BOOMFILTERS_TIGHTENING 0.8
#define BOOMFILTERS_FILL 0.5

static double go_pow_int(double x, unsigned long long yi)
{
    if (yi == 0 || x == 1)
        return 1;
    if (yi == 1)
        return x;
    double a1 = 1;
    int ae = 0, xe;
    double x1 = frexp(x, &xe);
    for (unsigned long long i = yi; i != 0; i >>= 1) {
        if (xe < -(1 << 12) || (1 << 12) < xe) {
            ae += xe;
            break;
        }
        if (i & 1) {
            a1 *= x1;
            ae += xe;
        }
        x1 *= x1;
        xe *= 2; /* Go's xe <<= 1, defined there for a negative xe; not in C */
        if (x1 < .5) {
            x1 += x1;
            xe--;
        }
    }
    return ldexp(a1, ae);
}

/* The keys a partitioned filter of partition size s takes before Add moves on: the
 * least c with 1 - exp(-c / s) >= 0.5. */
static uint64_t boomfilters_full_at(uint64_t s)
{
    double c = ceil((double)s * log(2.0));
    while (c > 0 && 1 - exp(-(c - 1) / (double)s) >= BOOMFILTERS_FILL)
        c--;
    while (!(1 - exp(-c / (double)s) >= BOOMFILTERS_FILL))
        c++;
    return (uint64_t)c;
}

static int boomfilters_link(const chain_params_t *p, size_t j, const sizing_layer_t *prev,
                            sizing_layer_t *out)
{
    (void)prev;
    double rate = p->rate * go_pow_int(p->tightening, j);
    if (!(1 / rate < HUGE_VAL))
        return CHAIN_EUNDERFLOW;
    sizing_out_t o;
    int st = boomfilters_partitioned_design(p->capacity, rate, 0, &o);
    if (st != SIZING_OK)
        return st;
    if (o.k > SIZING_MAX_K)
        return SIZING_EPROBES;
    uint64_t s = o.m / (uint64_t)o.k;
    if (s > BOOMFILTERS_SLICE_MAX)
        return SIZING_ECAP;
    *out = (sizing_layer_t){.capacity = boomfilters_full_at(s), .rate = rate, .m = o.m,
                            .k = (unsigned)o.k};
    return SIZING_OK;
}

/* NewPartitionedBloomFilter(n, fpRate): its single filter. */
static int boomfilters_reserve(const chain_params_t *p, uint64_t n, uint64_t *m, unsigned *k)
{
    return sizing_design(&sizing_boomfilters_partitioned, n, p->rate, m, k);
}

static const char *boomfilters_refusal(int status)
{
    switch (status) {
    case CHAIN_ECAPACITY:
        return "BoomFilters takes it, but its first Add panics: a hint of 0 makes partitions "
               "of 0 buckets (integer divide by zero)";
    case CHAIN_ERATE:
        return "BoomFilters takes it, but makes no filter of it: at 0 or less k is unbounded "
               "(a panic), at 1 or more it has no partitions and says yes to every key";
    case CHAIN_ETIGHTENING:
        return "bloomsim takes r in (0, 1) only; BoomFilters does not check it: at 0 or less "
               "its second filter panics (unbounded k), at 1 its filters all keep fpRate, "
               "past 1 their rates rise until a filter of no partitions says yes to every key";
    case CHAIN_ENOEXPANSION:
        return "BoomFilters' ScalableBloomFilter takes no growth: every filter is made for "
               "the same hint";
    case CHAIN_EUNDERFLOW:
        return "the next filter's rate fpRate * r^j is below 2^-1024: OptimalK is unbounded "
               "and BoomFilters panics (makeslice: len out of range)";
    case SIZING_ECAP:
        return "the next filter's partitions pass 2^32 buckets: Buckets.Set takes a uint32 "
               "and the filter loses keys";
    default:
        return NULL;
    }
}

const library_chain_t chain_boomfilters_scalable = {
    .name = "boomfilters-scalable",
    .version = "Go BoomFilters (tylertreat/BoomFilters 5b3723cc) scalable.go "
               "ScalableBloomFilter, partitioned.go",
    .summary = "NewScalableBloomFilter(hint C, fpRate P, r 0.8): filter j for C keys at P "
               "r^j (no growth); full when 1 - e^{-count/s} >= 0.5 (about C keys); every "
               "key added",
    .scheme = &scheme_boomfilters_partitioned,
    .defaults = {.capacity = 10000, .rate = 0.01, .expansion = 0,
                 .tightening = BOOMFILTERS_TIGHTENING},
    .has_expansion = 0, .has_tightening = 1, .swallows = 0,
    .link = boomfilters_link, .reserve = boomfilters_reserve,
    .refusal = boomfilters_refusal,
};
