/* dcso.c - DCSO's bloom (Go), as Debian packages it (golang-github-dcso-bloom-dev
 * 0.2.4-3, github.com/DCSO/bloom 0.2.4): its index arithmetic, its real hash, its sizing
 * and its row. python3-flor 1.1.3 (DCSO's Flor) is the same filter in Python, bit for
 * bit (flor/filter.py: fingerprint, line 108; __init__, line 16); it also raises CapacityError once N keys
 * set a new bit.
 *
 * Source: bloom.go of 0.2.4: the constants m and g (lines 193, 198), Fingerprint (lines
 * 202-211), Add and CheckFingerprint (lines 214-231, 286-296: bit fingerprint % 64 of
 * word fingerprint / 64), Initialize (lines 300-310); bloom_test.go TestFingerprinting,
 * TestInitialization and TestAccessors, io_test.go's testdata/test.bloom (their values
 * are tests/test_library_words.c's and tests/test_sizing_libraries.c's).
 * tests/conformance/dcso_adapter.go and flor_adapter.py run both packages;
 * tests/conformance_go.sh finds them and this file alike, bit for bit.
 */
#include <math.h>

#include "hashes/hashes.h"
#include "libraries/arith.h"
#include "libraries/library.h"
#include "libraries/registry.h"
#include "schemes/words.h"

/* ---- the index arithmetic ----
 * One 64-bit word h (FNV-1 64 of the value). Fingerprint: hn = h % P; then for each
 * probe hn = (hn * g) % P, the product in uint64 (it wraps mod 2^64 before the % P), and
 * the probe is hn % m. P = 2^64 - 59 (the largest prime below 2^64) and g = 2^64 - 1469
 * are bloom.go's m and g. Since hn * g = 2^64 c - 1469 hn with c = ceil(1469 hn / 2^64)
 * (the % P folds only 59 values), probe i + 1 is (c R - 1469 p_i) mod m, R = 2^64 mod m:
 * one of at most 1469 successors of probe i, and of no more than m's odd part (R's
 * multiples mod m); at m = 2^j, R = 0 and every probe follows from the first. At the m
 * its rule computes the odd part is large and the successors many: no departure is
 * expected there. */
#define DCSO_P UINT64_C(18446744073709551557)
#define DCSO_G UINT64_C(18446744073709550147)
#define dcso_bloom_draw u64x1_draw
SCHEME_HOT void dcso_bloom_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    (void)g;
    it->x = h[0] % DCSO_P;
    it->i = 0;
}
SCHEME_HOT uint64_t dcso_bloom_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)r;
    it->x = it->x * DCSO_G % DCSO_P;
    return it->x % g->m;
}
SCHEME_LOOPS(dcso_bloom)

const scheme_t scheme_dcso_bloom = {
    .name = "dcso-bloom",
    .summary = "DCSO bloom 0.2.4 (Go): one u64 h; x = h mod P, then per probe x = (x*g mod "
               "2^64) mod P, x mod m (P = 2^64-59, g = 2^64-1469)",
    WORDS_U64(1), .geometry = scheme_geom_plain, SCHEME_FNS(dcso_bloom),
};

/* ---- real keys: Fingerprint hashes value ([]byte) with hash/fnv's New64, FNV-1 64
 * (multiply, then xor: not FNV-1a). The bloom tool (bloom/manage.go) inserts and checks
 * lines of text: an integer is its decimal string there. ---- */
static void dcso_bloom_words(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    LIBRARY_KEY_INPUT(key, LIBRARY_INT_DEC);
    uint64_t h = hash_fnv1_64(in, len);
    out[0] = h;
}
static const library_words_t words_dcso_bloom = {
    .hash = "FNV-1 64 (Go hash/fnv New64)",
    .key_bytes = "integer: its decimal string (a line of its bloom tool); string: its bytes",
    .kinds = LIBRARY_KEYS_INT_BYTES, .nwords = 1, .word_bits = 64, .words = dcso_bloom_words,
};

/* ---- sizing: Initialize(n, p): m = |ceil(n ln p / ln^2 2)|, the ceiling of a negative
 * number, so the formula's count truncated (958,505 bits for 10^5 keys at 1%); k =
 * ceil(ln 2 m / n); the filter indexes m bits in ceil(m / 64) uint64 words. A rate that
 * computes 0 bits makes a filter of 0 bits and 0 probes, which finds every key (refused
 * here); make() panics for more than 2^45 words (2^48 bytes, Go's maxAlloc on amd64):
 * past 2^51 bits. ---- */
static int dcso_bloom_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    (void)bpk;
    double m = fabs(ceil((double)n * log(p) / pow(log(2.0), 2.0)));
    if (m == 0)
        return SIZING_EZERO;
    if (!(m <= 2251799813685248.0)) /* 2^51 */
        return SIZING_ECAP;
    out->m_computed = out->m = (uint64_t)m;
    out->k = ceil(log(2.0) * m / (double)n);
    return SIZING_OK;
}

static const char *dcso_bloom_refusal(int status)
{
    switch (status) {
    case SIZING_EZERO:
        return "Initialize computes 0 bits and 0 probes: that filter finds every key";
    case SIZING_ECAP:
        return "Initialize panics past 2^51 bits (make of more than 2^45 uint64 words, Go's "
               "2^48-byte maxAlloc on amd64)";
    default:
        return NULL;
    }
}

const sizing_rule_t sizing_dcso_bloom = {
    .name = "dcso-bloom",
    .summary = "DCSO bloom: m = |ceil(N ln P / ln^2 2)| (truncated), k = ceil(m/N ln 2); at "
               "most 2^51 bits",
    .kind = SIZING_RULE_LIBRARY, .over = SIZING_OVER_UNIFORM, .design = dcso_bloom_design,
    .refusal = dcso_bloom_refusal,
};

const library_t library_dcso_bloom = {
    .name = "dcso-bloom",
    .version = "DCSO bloom (Go) 0.2.4 as Debian packages it (golang-github-dcso-bloom-dev "
               "0.2.4-3) bloom.go Fingerprint, Initialize; Flor 1.1.3 (python3-flor) the same",
    .scheme = &scheme_dcso_bloom, .sizing = &sizing_dcso_bloom, .hash = "1 x 64-bit",
    .cause = "none expected at its sizes: probe i + 1 is one of at most 1469 successors of "
             "probe i (x g wraps mod 2^64 before mod P), fewer when m's odd part is small "
             "(m = 2^j: every probe fixed by the first); sizing: m truncated, k = ceil",
    .report = "",
    .words = &words_dcso_bloom,
};
