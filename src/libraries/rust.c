/* rust.c - the two Rust crates bloomsim audits, `bloomfilter` and `fastbloom`: their
 * index arithmetic, sizing and rows.
 *
 * Sources: the crate bloomfilter 3.0.1 (jedisct1/rust-bloom-filter at 1eb22d7a),
 * src/lib.rs (bloom_hash, compute_bitmap_size, optimal_k_num); the crate fastbloom 0.17.0
 * (tomtomwombat/fastbloom at 5bbfc14f), src/lib.rs (insert_hash, contains_hash, index,
 * optimal_size) and src/hasher.rs (DoubleHasher).
 */
#include <math.h>

#include "libraries/arith.h"
#include "libraries/library.h"
#include "libraries/registry.h"
#include "schemes/words.h"

/* ---- rust-bloomfilter: bloom_hash ----
 * Two 64-bit words h0, h1 (two keyed SipHash-1-3); probe 0 is h0 % m, probe 1 is h1 % m,
 * probe i >= 2 is ((h0 + i*h1) mod 2^64 % 0xFFFFFFFFFFFFFFC5) % m (the largest prime
 * below 2^64: values from it to 2^64 - 1 fold onto 0..58). */
#define RUST_BLOOM_PRIME UINT64_C(0xFFFFFFFFFFFFFFC5)
#define rust_bloomfilter_draw u64x2_draw
SCHEME_HOT void rust_bloomfilter_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    (void)g;
    it->x = h[0];
    it->y = h[1];
    it->z = h[0] + 2 * h[1]; /* h0 + i*h1 for i = 2, u64 */
    it->i = 0;
}
SCHEME_HOT uint64_t rust_bloomfilter_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)r;
    unsigned i = it->i++;
    if (i < 2)
        return (i == 0 ? it->x : it->y) % g->m;
    uint64_t p = it->z % RUST_BLOOM_PRIME % g->m;
    it->z += it->y;
    return p;
}
SCHEME_LOOPS(rust_bloomfilter)

const scheme_t scheme_rust_bloomfilter = {
    .name = "rust-bloomfilter",
    .summary = "Rust bloomfilter 3.0.1: h0 % m, h1 % m, then (h0 + i*h1) mod 2^64 mod "
               "(2^64-59) mod m",
    WORDS_U64(2), .geometry = scheme_geom_plain, SCHEME_FNS(rust_bloomfilter),
};

/* ---- fastbloom: insert_hash / contains_hash / index, DoubleHasher ----
 * One 64-bit word h (its source_hash, SipHash-1-3 by default). Probe 0 is index(m, h) =
 * (h * m) >> 64 in 128 bits (multiply-shift); then h2 = h * 0x517cc1b727220a95 (u64) and
 * each next probe is h = rotl64(h, 5) + h2 (u64), index(m, h). All k from one word. */
#define FASTBLOOM_MUL UINT64_C(0x517cc1b727220a95)
#define fastbloom_draw u64x1_draw
SCHEME_HOT void fastbloom_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    (void)g;
    it->x = h[0];
    it->y = h[0] * FASTBLOOM_MUL;
    it->i = 0;
}
SCHEME_HOT uint64_t fastbloom_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)r;
    if (it->i++ > 0) /* probe 0 uses the word itself */
        it->x = ((it->x << 5) | (it->x >> 59)) + it->y;
    return (uint64_t)(((pcg_u128)it->x * g->m) >> 64);
}
SCHEME_LOOPS(fastbloom)

const scheme_t scheme_fastbloom = {
    .name = "fastbloom",
    .summary = "Rust fastbloom 0.17: one u64 h; (h*m)>>64, then h = rotl64(h,5) + "
               "h0*0x517cc1b727220a95 (u64)",
    WORDS_U64(1), .geometry = scheme_geom_plain, SCHEME_FNS(fastbloom),
};

/* ---- sizing ---- */

/* rust-bloomfilter: bitmap bytes = ceil(n ln p / (-8 ln^2 2)), m = 8 bytes; k = max(1,
 * round(m / n ln 2)). It computes bytes, not bits: m_c = m. */
static int rust_bloomfilter_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    (void)bpk;
    const double ln2 = log(2.0);
    double bytes = ceil((double)n * log(p) / (-8.0 * (ln2 * ln2)));
    if (!(bytes < TWO_64 / 8))
        return SIZING_ETOOBIG;
    out->m_computed = out->m = 8 * (bytes < 1 ? 1 : (uint64_t)bytes);
    out->k = round((double)out->m / (double)n * ln2);
    return SIZING_OK;
}

const sizing_rule_t sizing_rust_bloomfilter = {
    .name = "rust-bloomfilter",
    .summary = "Rust bloomfilter: whole bytes ceil(-N ln P / 8 ln^2 2), k = round(m/N ln 2)",
    .kind = SIZING_RULE_LIBRARY, .over = SIZING_OVER_UNIFORM, .design = rust_bloomfilter_design,
};

/* fastbloom: optimal_size: bits = 8 ceil(n ln p / (-8 ln^2 2)), at least 64; storage
 * ceil(bits / 64) u64 words, num_bits = 64 words; k = max(1, round(ln 2 num_bits / n)).
 * Computed the 8-byte count; indexed differs by the 64 minimum and the word rounding. */
static int fastbloom_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    (void)bpk;
    const double ln2 = log(2.0);
    double bytes = ceil((double)n * log(p) / (-8.0 * (ln2 * ln2)));
    if (!(bytes < TWO_64 / 16))
        return SIZING_ETOOBIG;
    out->m_computed = 8 * (uint64_t)bytes;
    out->m = out->m_computed < 64 ? 64 : (out->m_computed + 63) / 64 * 64;
    out->k = round(ln2 * (double)out->m / (double)n);
    return SIZING_OK;
}

const sizing_rule_t sizing_fastbloom = {
    .name = "fastbloom",
    .summary = "Rust fastbloom: whole bytes as rust-bloomfilter, at least 64 bits, whole "
               "64-bit words",
    .kind = SIZING_RULE_LIBRARY, .over = SIZING_OVER_UNIFORM, .design = fastbloom_design,
};

/* ---- the libraries ---- */

const library_t library_rust_bloomfilter = {
    .name = "rust-bloomfilter",
    .version = "Rust bloomfilter 3.0.1 (jedisct1/rust-bloom-filter 1eb22d7a) src/lib.rs",
    .scheme = &scheme_rust_bloomfilter, .sizing = &sizing_rust_bloomfilter,
    .hash = "2 x 64-bit", .cause = "none expected", .report = "",
    .words_skipped = "SipHash-1-3 keyed by a random per-filter seed (Bloom::new): "
                     "no fixed words to reproduce",
};

const library_t library_fastbloom = {
    .name = "fastbloom",
    .version = "Rust fastbloom 0.17.0 (5bbfc14f)",
    .scheme = &scheme_fastbloom, .sizing = &sizing_fastbloom, .hash = "64-bit",
    .cause = "none expected (floor about n/2^64)", .report = "",
    .words_skipped = "SipHash-1-3 with random keys by default (DefaultHasher): no "
                     "fixed words to reproduce",
};
