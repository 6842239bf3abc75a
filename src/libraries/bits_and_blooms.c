/* bits_and_blooms.c - bits-and-blooms/bloom (Go): its index arithmetic, sizing and row.
 *
 * Source: bits-and-blooms/bloom bloom.go at 289c255a (location(), unchanged since
 * 2015-03; EstimateParameters, New). Debian's golang-github-willf-bloom-dev 3.3.1-1
 * (bits-and-blooms/bloom 3.3.1) has the same code: bloom.go location :120-128,
 * EstimateParameters :133-138, New :92-94 (m and k at least 1), baseHashes :111-117;
 * tests/conformance/bits_and_blooms_adapter.go runs it, and tests/conformance_go.sh finds
 * it and this file alike, bit for bit.
 */
#include <math.h>

#include "libraries/arith.h"
#include "hashes/hashes.h"
#include "libraries/library.h"
#include "libraries/registry.h"
#include "schemes/words.h"

/* ---- the index arithmetic ----
 * Four 64-bit words h0..h3 (in the library, MurmurHash3 x64-128 of the data and of the
 * data with a byte 0x01 appended); probe i = 0..k-1 is
 * (h[i % 2] + i * h[2 + ((i + i % 2) % 4) / 2]) mod 2^64, then mod m: for i mod 4 = 0,
 * 1, 2, 3 the pairs (h0, h2), (h1, h3), (h0, h3), (h1, h2). Its own iterator holds the
 * four words. */
typedef struct probe_it4 {
    uint64_t h[4];
    unsigned i;
} probe_it4_t;

#define bits_and_blooms_draw u64x4_draw
SCHEME_HOT void bits_and_blooms_start(const probe_geom_t *g, const uint64_t *h, probe_it4_t *it)
{
    (void)g;
    memcpy(it->h, h, sizeof it->h);
    it->i = 0;
}
SCHEME_HOT uint64_t bits_and_blooms_next(const probe_geom_t *g, pcg32_t *r, probe_it4_t *it)
{
    (void)r;
    uint64_t i = it->i++;
    return (it->h[i % 2] + i * it->h[2 + ((i + i % 2) % 4) / 2]) % g->m;
}
SCHEME_LOOPS_IT(bits_and_blooms, probe_it4_t)

const scheme_t scheme_bits_and_blooms = {
    .name = "bits-and-blooms",
    .summary = "bits-and-blooms/bloom (Go): (h[i%2] + i*h[2+((i+i%2)%4)/2]) mod 2^64 mod m, "
               "four 64-bit words",
    WORDS_U64(4), .geometry = scheme_geom_plain, SCHEME_FNS(bits_and_blooms),
};

/* ---- sizing: EstimateParameters: m = ceil(-n ln p / ln^2 2), k = ceil(ln 2 m / n), k
 * from m (not from b as calculateparams); New forces both >= 1; the bitset indexes
 * m = m_c. ---- */
static int bits_and_blooms_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    (void)bpk;
    const double ln2 = log(2.0);
    double x = ceil(-1 * (double)n * log(p) / (ln2 * ln2));
    if (!(x < TWO_64))
        return SIZING_ETOOBIG;
    out->m_computed = out->m = x < 1 ? 1 : (uint64_t)x;
    out->k = ceil(ln2 * (double)(x < 1 ? 0 : x) / (double)n);
    return SIZING_OK;
}

const sizing_rule_t sizing_bits_and_blooms = {
    .name = "bits-and-blooms",
    .summary = "bits-and-blooms: m = ceil(-N ln P / ln^2 2), k = ceil(m/N ln 2)",
    .kind = SIZING_RULE_LIBRARY, .over = SIZING_OVER_UNIFORM, .design = bits_and_blooms_design,
};

/* ---- real keys: bloom.go @289c255a: baseHashes(data) = sum256(data). Go has no
 * integer Add: the README writes binary.BigEndian.PutUint32; 8 bytes big-endian here. */
static void bits_and_blooms_words(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    LIBRARY_KEY_INPUT(key, LIBRARY_INT_BE8);
    hash_murmur3_sum256(in, len, out);
}
static const library_words_t words_bits_and_blooms = {
    .hash = "Murmur3_x64_128 of data and of data + 0x01 (bits-and-blooms)",
    .key_bytes = "integer: 8 bytes big-endian (encoding/binary); string: its bytes",
    .kinds = LIBRARY_KEYS_INT_BYTES, .nwords = 4, .word_bits = 64,
    .words = bits_and_blooms_words,
};

const library_t library_bits_and_blooms = {
    .name = "bits-and-blooms",
    .version = "bits-and-blooms/bloom (Go) bloom.go at 289c255a",
    .scheme = &scheme_bits_and_blooms, .sizing = &sizing_bits_and_blooms, .hash = "4 x 64-bit",
    .cause = "none expected", .report = "",
    .words = &words_bits_and_blooms,
};
