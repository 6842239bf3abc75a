/* growable.c - the Rust crate growable-bloom-filter: its partitioned filter (the private
 * `Bloom` each link is), that filter's index arithmetic, model, sizing and real hash, and
 * its scalable filter, `GrowableBloom`, as a chain.
 *
 * Source: growable-bloom-filter 2.1.1 (dpbriggs/growable-bloom-filters at 0013c521,
 * 2024-10-06, "Bump version number to 2.1.1"): src/lib.rs (Bloom::new :38-61,
 * index_iterator :79-100, double_hashing_hashes :173-186, the defaults :192-193,
 * GrowableBloom::new_with_internals :318-335, insert :381-396, grow :493-510,
 * GrowableBloomBuilder::new :545-552 and tightening_ratio :606-612) and
 * src/stable_hasher.rs (StableHasher: xxh3-64 of xxhash-rust 0.8, default seed and
 * secret, :9-21, integers written little-endian :45-65). Cargo.toml: xxhash-rust 0.8.2
 * with feature xxh3.
 */
#include <math.h>
#define XXH_STATIC_LINKING_ONLY /* XXH3_state_t on the stack */
#include <xxhash.h>

#include "libraries/arith.h"
#include "libraries/chain.h"
#include "libraries/library.h"
#include "libraries/registry.h"
#include "rates/rate.h"
#include "schemes/shared.h"
#include "schemes/words.h"

/* ---- the index arithmetic: index_iterator (lib.rs:79-100) ----
 * k slices of s = buffer.len() * 8 / k bits (the byte buffer's bits, so a filter of
 * k < 8 slices may take a few bits more a slice than Bloom::new computed: `partitioned`'s
 * geometry on the buffer's 8 * bytes bits). Two u64 words h1, h2 (h2 >= 1); slice i
 * sets bit i s + h1 % s, then h1 = h1 + h2 and h2 = h2 + i, both wrapping (enhanced
 * double hashing in u64): slice i at (h1 + i h2 + (i^3 - 3i^2 + 2i)/6) mod 2^64 mod s. */
SCHEME_HOT void growable_bloom_draw(const probe_geom_t *g, pcg32_t *r, uint64_t *h)
{
    (void)g;
    h[0] = pcg32_next64(r);
    uint64_t h2 = pcg32_next64(r);
    h[1] = h2 ? h2 : 1; /* hasher.finish().max(1) */
}
SCHEME_HOT void growable_bloom_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    (void)g;
    it->x = h[0];
    it->y = h[1];
    it->z = 0; /* start of slice i */
    it->i = 0;
}
SCHEME_HOT uint64_t growable_bloom_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)r;
    uint64_t p = it->z + it->x % g->w;
    it->x += it->y;
    it->y += it->i++;
    it->z += g->w;
    return p;
}
SCHEME_LOOPS(growable_bloom)

/* h2 is never 0 (double_hashing_hashes takes max(1)). */
static int growable_bloom_words(const probe_geom_t *g, const uint64_t *h)
{
    (void)g;
    return h[1] ? SCHEME_OK : SCHEME_EWORD;
}

/* Model: independent slices of s bits, each position h mod s of a uniform u64 (its
 * unevenness, below s / 2^64, ignored): (1 - (1 - 1/s)^n)^k. The slices are not
 * independent for a given key: a stored key whose h1 and h1 + h2 agree with the query's
 * mod s meets it in slice i >= 2 only when the wraps past 2^64 of h1 + i h2 agree too
 * (about 1/2, 3/8, ... of the time), so the full matches stay far below the n / s^2 of
 * exact arithmetic (bloom-filters-slices), except where s divides 2^64 (s a power of two,
 * which ceil(n / ln 2) seldom is): not modelled. */
static double growable_bloom_model(const probe_geom_t *g, uint64_t n)
{
    return rate_partitioned_exact(g->w, n, g->k);
}

const scheme_t scheme_growable_bloom = {
    .name = "growable-bloom",
    .summary = "Rust growable-bloom-filter 2.1.1 Bloom: k slices of s bits; u64 h1, h2 >= 1; "
               "slice i at h1 % s, then h1 += h2, h2 += i (wrapping)",
    .nwords = 2, .word_bits = 64, .check_words = growable_bloom_words,
    .geometry = scheme_geom_slices, SCHEME_FNS(growable_bloom),
    .model = growable_bloom_model,
};

/* ---- sizing: Bloom::new(capacity, error_ratio) (lib.rs:38-61) ----
 * num_slices = ceil(log2(1 / error_ratio)) (f64::log2), slice_len_bits = ceil(capacity /
 * ln 2), total_bits = num_slices slice_len_bits, a buffer of ceil(total_bits / 8) bytes;
 * index_iterator then takes the buffer's bits over k a slice (above). m_computed is
 * total_bits, m the buffer's bits. Bloom::new only debug_asserts its arguments; a
 * capacity of 0 makes 0-bit slices, and the first insert panics (NonZeroU64::new(0)
 * .unwrap() in index_iterator): refused here as no filter. */
static int growable_bloom_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    (void)bpk;
    double k = ceil(log2(1.0 / p));
    double s = ceil((double)n / log(2.0));
    if (!(k >= 1) || !(s >= 1))
        return SIZING_EDOM;
    if (!(k * s < TWO_64 / 2))
        return SIZING_ETOOBIG;
    uint64_t total = (uint64_t)k * (uint64_t)s;
    out->k = k;
    out->m_computed = total;
    out->m = (total + 7) / 8 * 8;
    return SIZING_OK;
}

const sizing_rule_t sizing_growable_bloom = {
    .name = "growable-bloom",
    .summary = "Rust growable-bloom-filter Bloom: k = ceil(log2 1/P) slices of ceil(N / ln 2) "
               "bits, in whole bytes",
    .kind = SIZING_RULE_LIBRARY, .over = SIZING_OVER_SLICES, .design = growable_bloom_design,
};

/* ---- real keys: double_hashing_hashes (lib.rs:173-186) ----
 * item.hash(StableHasher): h1 = the xxh3-64 (seed 0) of what Rust's Hash writes; then
 * 0u8.hash appends one byte 0 and h2 = max(the xxh3-64 of it all, 1). What Hash writes:
 * for an integer (u64) its 8 bytes little-endian (write_u64, stable_hasher.rs:50-52); for
 * a &str or String its bytes then the byte 0xff (Hasher::write_str's default, which
 * StableHasher keeps). A &[u8] writes its length first (not modelled: keys are strings). */
static void growable_bloom_key_words(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    XXH3_state_t st;
    XXH3_64bits_reset(&st);
    if (key->kind == KEY_INT) {
        uint8_t le[8];
        for (int i = 0; i < 8; i++)
            le[i] = (uint8_t)(key->u >> 8 * i);
        XXH3_64bits_update(&st, le, 8);
    } else {
        const uint8_t end = 0xff;
        XXH3_64bits_update(&st, key->bytes, key->len);
        XXH3_64bits_update(&st, &end, 1);
    }
    out[0] = XXH3_64bits_digest(&st);
    const uint8_t zero = 0;
    XXH3_64bits_update(&st, &zero, 1);
    uint64_t h2 = XXH3_64bits_digest(&st);
    out[1] = h2 ? h2 : 1;
}

static const library_words_t words_growable_bloom = {
    .hash = "xxh3-64 (xxhash-rust 0.8, seed 0) of the key's Hash, and of it with a byte 0 "
            "appended (h2 at least 1)",
    .key_bytes = "integer (u64): 8 bytes little-endian; string (&str): its bytes and 0xff",
    .kinds = KEY_INT | KEY_TEXT, .nwords = 2, .word_bits = 64,
    .words = growable_bloom_key_words,
};

const library_t library_growable_bloom = {
    .name = "growable-bloom",
    .version = "Rust growable-bloom-filter 2.1.1 (dpbriggs/growable-bloom-filters 0013c521) "
               "src/lib.rs Bloom (each link of a GrowableBloom)",
    .scheme = &scheme_growable_bloom, .sizing = &sizing_growable_bloom,
    .hash = "2 x 64-bit",
    .cause = "none expected: slices of about n / ln 2 bits, k = ceil(log2 1/P) (the rate a "
             "little under P)",
    .report = "",
    .words = &words_growable_bloom,
};

/* ---- the scaling filter: GrowableBloom (lib.rs:250-510) ----
 * new(desired_error_prob, est_insertions) (:309-316) takes growth factor 2 and tightening
 * ratio 0.8515625 (:192-193); the builder (:545-552) defaults to 1000 insertions at
 * 0.01, growth 2, ratio 0.8515625, each its own setting (growth_factor, tightening_ratio:
 * bloomsim's --expansion and --tightening, a stack's NAME/E/T). new_with_internals
 * asserts 0 < P < 1 and growth_factor > 1 (:324-325: a panic); the builder's
 * tightening_ratio asserts 0 < r < 1 (:607).
 * insert (:381-396) returns false, adding nothing, when any link contains the key (the
 * key is swallowed); grows when inserts >= capacity, inserts counting the keys added and
 * capacity the sum of the links' capacities (so a link is full at its own capacity of
 * keys added); grow (:493-510) makes link j = blooms.len() as Bloom::new(est_insertions *
 * growth_factor^j, P * r.powi(j)): the first link at P itself, the links' target rates
 * adding up to P / (1 - r) = 6.74 P at the default r. The first link is made on the
 * first insert.
 * usize::pow wraps past 2^64 in a release build (a debug build panics): refused here
 * there. f64::powi is compiler-rt's __powidf2 (repeated squaring), done as it does it. */
#define GROWABLE_TIGHTENING 0.8515625

enum { GROWABLE_EOVERFLOW = 300 };

static double powidf2(double a, int b)
{
    int recip = b < 0;
    double r = 1;
    for (;;) {
        if (b & 1)
            r *= a;
        b /= 2;
        if (b == 0)
            break;
        a *= a;
    }
    return recip ? 1 / r : r;
}

static int growable_check(const chain_params_t *p)
{
    if (!(p->expansion >= 2))
        return CHAIN_EEXPANSION;
    if (p->expansion != floor(p->expansion) || !(p->expansion < TWO_64))
        return CHAIN_EWHOLE;
    return SIZING_OK;
}

static int growable_link(const chain_params_t *p, size_t j, const sizing_layer_t *prev,
                         sizing_layer_t *out)
{
    uint64_t cap = p->capacity;
    if (j > 0) {
        if ((double)prev->capacity * p->expansion >= TWO_64)
            return GROWABLE_EOVERFLOW;
        cap = prev->capacity * (uint64_t)p->expansion;
    }
    double rate = p->rate * powidf2(p->tightening, (int)j);
    if (!(rate > 0))
        return CHAIN_EUNDERFLOW;
    sizing_out_t o;
    int st = growable_bloom_design(cap, rate, 0, &o);
    if (st != SIZING_OK)
        return st;
    if (o.k > SIZING_MAX_K)
        return SIZING_EPROBES;
    *out = (sizing_layer_t){.capacity = cap, .rate = rate, .m = o.m, .k = (unsigned)o.k};
    return SIZING_OK;
}

/* GrowableBloom::new(P, n) filled with n keys: one link, Bloom::new(n, P). */
static int growable_reserve(const chain_params_t *p, uint64_t n, uint64_t *m, unsigned *k)
{
    return sizing_design(&sizing_growable_bloom, n, p->rate, m, k);
}

static const char *growable_refusal(int status)
{
    switch (status) {
    case CHAIN_ECAPACITY:
        return "growable-bloom-filter panics on the first insert: 0-bit slices "
               "(NonZeroU64::new(0).unwrap() in index_iterator)";
    case CHAIN_ERATE:
        return "growable-bloom-filter panics: assert!(0.0 < desired_error_prob && "
               "desired_error_prob < 1.0)";
    case CHAIN_EEXPANSION:
        return "growable-bloom-filter panics: assert!(growth_factor > 1)";
    case CHAIN_EWHOLE:
        return "growable-bloom-filter takes the growth factor as a usize (a whole number)";
    case CHAIN_ETIGHTENING:
        return "growable-bloom-filter panics: assert!(0.0 < ratio && ratio < 1.0) "
               "(GrowableBloomBuilder::tightening_ratio)";
    case GROWABLE_EOVERFLOW:
        return "the next link's capacity est_insertions * growth_factor^j passes 2^64: "
               "usize::pow panics in a debug build and wraps in a release build";
    case CHAIN_EUNDERFLOW:
        return "the next link's rate P * r^j is 0: Bloom::new would make no slices, and "
               "NonZeroU64::new(0).unwrap() panics";
    default:
        return NULL;
    }
}

const library_chain_t chain_growable_bloom_filter = {
    .name = "growable-bloom-filter",
    .version = "Rust growable-bloom-filter 2.1.1 (dpbriggs/growable-bloom-filters 0013c521) "
               "src/lib.rs GrowableBloom",
    .summary = "GrowableBloom (builder: C, P, growth_factor E, tightening_ratio T 0.8515625): "
               "link j of C E^j keys at P T^j; full at its capacity of keys added; a key any "
               "link reports present is not added",
    .scheme = &scheme_growable_bloom,
    .defaults = {.capacity = 1000, .rate = 0.01, .expansion = 2,
                 .tightening = GROWABLE_TIGHTENING},
    .has_expansion = 1, .has_tightening = 1, .swallows = 1,
    .check = growable_check, .link = growable_link, .reserve = growable_reserve,
    .refusal = growable_refusal,
};
