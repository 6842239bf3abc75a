/* blobloom.c - greatroar/blobloom (Go blocked Bloom filters), as Debian packages it
 * (golang-github-greatroar-blobloom-dev 0.7.1-1, github.com/greatroar/blobloom 0.7.1):
 * its index arithmetic, its sizing, its real hash and its row.
 *
 * Source (0.7.1, /usr/share/gocode/src/github.com/greatroar/blobloom): bloomfilter.go
 * BlockBits = 512 and MaxBits = 512 << 32 (:47, :50), New (:66-86: nbits rounded up to
 * whole blocks, nhashes at least 2, a panic past MaxBits), Add and Has (:89-97,
 * :167-178), doublehash (:183-187), getblock and reducerange (:237-246), getbit and
 * setbit (:249-259); optimize.go Optimize (:57-120), correctC (:127-131), fpRate and its
 * terms (:143-201); example_test.go Example_fnv (:29-66: keys hashed with hash/fnv's
 * New64). tests/conformance/blobloom_adapter.go runs it; tests/conformance_go.sh finds
 * it and this file alike, bit for bit.
 */
#include <math.h>

#include "hashes/hashes.h"
#include "libraries/arith.h"
#include "libraries/library.h"
#include "libraries/registry.h"
#include "schemes/shared.h"
#include "schemes/words.h"

#define BLOBLOOM_BLOCK 512
#define BLOBLOOM_MAXBITS (UINT64_C(512) << 32)

/* ---- the index arithmetic ----
 * One 64-bit hash h as two 32-bit words: h[0] = uint32(h) picks the block by
 * reducerange, (u64(h[0]) * uint32(blocks)) >> 32, and starts the step h2; h[1] = h >> 32
 * is h1. For i = 1 .. nhashes - 1: h1 += h2, h2 += i (u32), bit h1 mod 512 of the block
 * (getbit: word (h1 / 32) mod 16, bit h1 mod 32). So nhashes counts the block's choice:
 * a key sets k = nhashes - 1 bits, bloomsim's k. uint32(len(f.b)) is 0 at MaxBits' 2^32
 * blocks: every key then lands in block 0 (transcribed as it is). Model: uniform
 * positions within 512-bit lines (scheme_model_lines), which it departs from at every
 * size: the steps h2 + i(i-1)/2 mod 512, a power of two, revisit bits where h2 is even
 * (tests/test_library.c measures 6.50e-3 against the model's 6.22e-3 at 10^4 keys for
 * 1%). */
static int blobloom_geometry(uint64_t m, unsigned k, uint64_t block, probe_geom_t *g)
{
    (void)block;
    return scheme_geom_lines(m, k, BLOBLOOM_BLOCK, 0, g);
}
#define blobloom_draw u32x2_draw
SCHEME_HOT void blobloom_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    it->z = (((uint64_t)(uint32_t)h[0] * (uint32_t)g->blocks) >> 32) * BLOBLOOM_BLOCK;
    it->x = (uint32_t)h[1];
    it->y = (uint32_t)h[0];
    it->i = 1;
}
SCHEME_HOT uint64_t blobloom_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)g, (void)r;
    it->x = (uint32_t)(it->x + it->y);
    it->y = (uint32_t)(it->y + it->i++);
    return it->z + (it->x % BLOBLOOM_BLOCK);
}
SCHEME_LOOPS(blobloom)

const scheme_t scheme_blobloom = {
    .name = "blobloom",
    .summary = "blobloom 0.7.1 (Go): 512-bit block by reducerange of u32 h0; h1 += h2, h2 += i "
               "(u32), bit h1 mod 512",
    WORDS_U32(2), .geometry = blobloom_geometry, SCHEME_FNS(blobloom),
    .model = scheme_model_lines,
};

/* ---- sizing: Optimize(Config{Capacity: n, FPRate: p}), then New ----
 * c = ceil(-log2(p) / ln 2), Go's Log2 (frexp, then log(frac) * (1/ln 2) + exp: its
 * math/log10.go); c = correctC[c] below 35, else 3c; nbits = uint64(c n) rounded up to
 * whole 512-bit blocks, clamped to MaxBits (2^41 bits; printed as the computed m beside
 * the m built). k = (nbits / n) ln 2; under 1: nhashes 1; whole: k; else the one of
 * floor(k), ceil(k) whose fpRate (Putze et al.'s equation 3) is the higher. Optimize
 * names them the other way round (ceilK, floorK := Floor(k), Ceil(k), :106), so it
 * keeps the worse of the two. New raises nhashes to 2; k = nhashes - 1 bits a key.
 * fpRate uses lgamma, which sets signgam to +1 for its arguments here (the same value
 * from any thread, as kudu_fpp's in parquet.c). */
static const unsigned char blobloom_correct_c[] = {
    1,  1,  2,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 16, 17, 18, 20,
    21, 23, 25, 26, 28, 30, 32, 35, 38, 40, 44, 48, 51, 58, 64, 74, 90,
};
static const double go_ln2 = 0.693147180559945309417232121458176568;
static const double go_log2e = 1.44269504088896340735992468100189214; /* 1/Ln2 */

static double go_log2(double x)
{
    int e;
    double frac = frexp(x, &e);
    if (frac == 0.5)
        return (double)(e - 1);
    return log(frac) * go_log2e + (double)e;
}

static double blobloom_log_term(double mean, double j, double k)
{
    double c = BLOBLOOM_BLOCK / j;
    return j * log(mean) - mean - lgamma(j + 1) + k * log1p(-exp(-k / c));
}

/* fpRate(c, k), optimize.go:143-184: the Poisson mixture from its mean outwards, each
 * side until a term adds less than 1e-9 of the sum. */
static double blobloom_fp_rate(double c, double k)
{
    const double eps = 1e-9, mean = BLOBLOOM_BLOCK / c;
    double i = ceil(mean);
    double p = exp(blobloom_log_term(mean, i, k));
    for (double j = i - 1; j > 0; j--) {
        double add = exp(blobloom_log_term(mean, j, k));
        p += add;
        if (add / p < eps)
            break;
    }
    for (double j = i + 1;; j++) {
        double add = exp(blobloom_log_term(mean, j, k));
        p += add;
        if (add / p < eps)
            break;
    }
    return p;
}

static int blobloom_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    (void)bpk;
    const double nf = (double)n;
    double c = ceil(-go_log2(p) / go_ln2);
    c = c < (double)sizeof blobloom_correct_c ? blobloom_correct_c[(int)c] : 3 * c;
    uint64_t nbits = c * nf < (double)BLOBLOOM_MAXBITS ? (uint64_t)(c * nf) : BLOBLOOM_MAXBITS;
    if (nbits % BLOBLOOM_BLOCK != 0)
        nbits += BLOBLOOM_BLOCK - nbits % BLOBLOOM_BLOCK;
    out->m_computed = nbits;
    if (nbits > BLOBLOOM_MAXBITS)
        nbits = BLOBLOOM_MAXBITS;
    double k = (double)nbits / nf * go_ln2, nhashes;
    if (k < 1)
        nhashes = 1;
    else if (floor(k) == ceil(k))
        nhashes = k;
    else {
        double cb = (double)nbits / nf;
        nhashes = blobloom_fp_rate(cb, floor(k)) < blobloom_fp_rate(cb, ceil(k)) ? ceil(k)
                                                                                  : floor(k);
    }
    out->m = nbits < 1 ? BLOBLOOM_BLOCK : nbits;
    out->k = (nhashes < 2 ? 2 : nhashes) - 1;
    return SIZING_OK;
}

const sizing_rule_t sizing_blobloom = {
    .name = "blobloom",
    .summary = "blobloom: m = correctC[ceil(-log2 P / ln 2)] N in 512-bit blocks, at most 2^41; "
               "k = the worse of floor, ceil((m/N) ln 2) - 1",
    .kind = SIZING_RULE_LIBRARY, .over = SIZING_OVER_BLOCKED, .block_bits = BLOBLOOM_BLOCK,
    .design = blobloom_design,
};

/* ---- real keys: the library takes a 64-bit hash from its user; Example_fnv hashes
 * with hash/fnv's New64 (FNV-1 64). An integer as its 8 bytes big-endian
 * (encoding/binary, as bits-and-blooms' README writes them). ---- */
static void blobloom_words(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    LIBRARY_KEY_INPUT(key, LIBRARY_INT_BE8);
    uint64_t h = hash_fnv1_64(in, len);
    out[0] = (uint32_t)h;
    out[1] = h >> 32;
}
static const library_words_t words_blobloom = {
    .hash = "FNV-1 64 (Go hash/fnv New64, its Example_fnv), split in u32 halves",
    .key_bytes = "integer: 8 bytes big-endian (encoding/binary); string: its bytes",
    .kinds = LIBRARY_KEYS_INT_BYTES, .nwords = 2, .word_bits = 32, .words = blobloom_words,
};

const library_t library_blobloom = {
    .name = "blobloom",
    .version = "greatroar/blobloom (Go) 0.7.1 as Debian packages it "
               "(golang-github-greatroar-blobloom-dev 0.7.1-1) bloomfilter.go, optimize.go",
    .scheme = &scheme_blobloom, .sizing = &sizing_blobloom, .hash = "2 x 32-bit",
    .cause = "blocking (512-bit blocks, the correctC table's extra bits meant to pay for it); "
             "in the block, enhanced double hashing mod 512, a power of two: an even step "
             "revisits bits (1.04 times the lines model at 10^4 keys for 1%); Optimize keeps "
             "the worse of floor and ceil k; at MaxBits (2^32 blocks) every key in block 0",
    .report = "",
    .departs = 1,
    .words = &words_blobloom,
};
