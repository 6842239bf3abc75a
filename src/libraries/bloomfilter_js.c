/* bloomfilter_js.c - Jason Davies' bloomfilter.js (npm `bloomfilter`): its index
 * arithmetic in four generations (1.1.0, npm's current; 0.0.21, the same positions in
 * an array it indexes with a signed shift; before 0.0.19, 0.0.17-0.0.18 and up to
 * 0.0.16), its sizing and its rows.
 *
 * Sources: bloomfilter.js of npm's bloomfilter-1.1.0.tgz (sha1 7aab64dc; the repository
 * ends at 0.0.21): MAX_BITS (line 1), the constructor (11-40), locations (43-89), add
 * and test (91-111), withTargetError (182-188), assertBitSize (198-202).
 * jasondavies/bloomfilter.js bloomfilter.js (locations, withTargetError, the
 * constructor) at 0.0.21 (ad00141a); (locations, fnv_1a, fnv_1a_b, fnv_multiply,
 * fnv_mix) at 0.0.17 (ea32aabe, 2018-04-19; unchanged in 0.0.18, 649e43e6, until 0.0.19
 * of 2024-12-18) and at 0.0.16 (27b1760b, 2015-06-04); jasondavies/bloomfilter.js#15
 * and #31.
 */
#include <math.h>

#include "hashes/hashes.h"
#include "libraries/arith.h"
#include "libraries/library.h"
#include "libraries/registry.h"
#include "schemes/words.h"

/* ---- bloomfilter-js: 1.1.0's locations (bloomfilter.js:43-89), as 0.0.21's ----
 * Two 32-bit words, the halves of its 64-bit FNV-1a variant, as signed 32-bit ints a, b
 * ((v3 << 16) | v2 is an int32 in JS); a = a % m, + m if negative (JS % takes the
 * dividend's sign), the same for b; r[0] = a; for i = 1..k-1: a = (a + b) % m, then
 * b = (b + i) % m, r[i] = a. That is enhanced double hashing, (h1 + i h2 + (i^3 - i)/6)
 * mod m, on h1 = a mod m, h2 = b mod m from signed 32-bit words; past m = 2^31 a word
 * reaches [m - 2^31, 2^31) from both signs. 1.1.0 keeps its bits in a Uint32Array
 * indexed with an unsigned shift (l >>> 5, :96 and :106) and its positions in a
 * Uint32Array (:27-28): every position below m <= 2^32 is stored. m <= 2^32 (MAX_BITS;
 * the constructor throws a RangeError past it), else SCHEME_EMBIG. */
static int bloomfilter_js_geometry(uint64_t m, unsigned k, uint64_t block, probe_geom_t *g)
{
    (void)block;
    return scheme_geom_int_m(m, k, UINT64_C(1) << 32, g);
}
/* Math mod of a 32-bit word read as a signed int: x % m, + m if negative. */
SCHEME_HOT uint64_t js_mod(uint64_t x, uint64_t m)
{
    int64_t v = (int64_t)(int32_t)(uint32_t)x % (int64_t)m;
    return (uint64_t)(v < 0 ? v + (int64_t)m : v);
}
#define bloomfilter_js_draw u32x2_draw
SCHEME_HOT void bloomfilter_js_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    it->x = js_mod(h[0], g->m);
    it->y = js_mod(h[1], g->m);
    it->i = 0;
}
#define bloomfilter_js_next enhanced_next /* emit a; a += b; i++; b += i (mod m) */
SCHEME_LOOPS(bloomfilter_js)

const scheme_t scheme_bloomfilter_js = {
    .name = "bloomfilter-js",
    .summary = "bloomfilter.js 1.1.0: enhanced double hashing on int32 a, b reduced mod m "
               "(JS %, + m if < 0); m <= 2^32",
    WORDS_U32(2), .geometry = bloomfilter_js_geometry, SCHEME_FNS(bloomfilter_js),
    .m_cap = "m <= 2^32",
};

/* ---- bloomfilter-js-0.0.21: the same positions; its bits in an Int32Array indexed
 * with a signed shift (buckets[l >> 5], bloomfilter.js at ad00141a) ----
 * A position p >= 2^31 gives a negative index: add's write is dropped and test reads
 * undefined, so every key with such a probe tests absent, a false negative. bloomsim
 * measures false positives only and does not build it: m > 2^31 is SCHEME_ELOSES. */
static int bloomfilter_js_21_geometry(uint64_t m, unsigned k, uint64_t block, probe_geom_t *g)
{
    (void)block;
    if (m > UINT64_C(1) << 31)
        return SCHEME_ELOSES;
    return scheme_geom_int_m(m, k, UINT64_C(1) << 31, g);
}
#define bloomfilter_js_21_draw u32x2_draw
#define bloomfilter_js_21_start bloomfilter_js_start
#define bloomfilter_js_21_next enhanced_next
SCHEME_LOOPS(bloomfilter_js_21)

const scheme_t scheme_bloomfilter_js_21 = {
    .name = "bloomfilter-js-0.0.21",
    .summary = "bloomfilter.js 0.0.21: as bloomfilter-js, m <= 2^31 (past it the library "
               "loses keys: false negatives)",
    WORDS_U32(2), .geometry = bloomfilter_js_21_geometry, SCHEME_FNS(bloomfilter_js_21),
    .m_cap = "m <= 2^31",
    .loses = "past 2^31 bits bloomfilter.js 0.0.21 loses inserted keys: it indexes its "
             "Int32Array with a signed shift, so every key with a probe at or past 2^31 "
             "tests absent (false negatives)",
};

/* ---- bloomfilter-js-0.0.17 and bloomfilter-js-0.0.16 ----
 * a = fnv_1a(v) and b are signed 32-bit ints (fnv_mix returns a & 0xffffffff, an int32
 * in JS); x = a % m; for i < k: r[i] = x < 0 ? x + m : x; x = (x + b) % m. JS % takes
 * the dividend's sign and the Number sums are exact, so r[i] = (a + i b) mod m with a, b
 * signed. r is a typed array sized for m (Uint8/16/32Array; Uint32Array past 2^32, as
 * kbytes is then 8), so past m = 2^32 the position is stored mod 2^32 and the bits above
 * are never reached. add and test index with Math.floor(l / 32), not a shift, so there
 * is no 2^31 limit as in 0.0.21; m <= 2^52 here (SCHEME_EMBIG beyond), where x + b is
 * still an exact Number. Engine limits on typed-array lengths are not modelled.
 * 0.0.17-0.0.18: b = fnv_1a(v, 1576284489), a second seeded hash: two independent words.
 * <= 0.0.16: b = fnv_1a_b(a) = fnv_mix(fnv_multiply(a)), a fixed function of a: one
 * 32-bit word per key (model: scheme_model_one_word). 0.0.16's fnv_mix shifts right
 * logically (>>>); 0.0.15 and before used >> (sign-propagating), a different mix not
 * modelled here. */
static int bloomfilter_js_17_geometry(uint64_t m, unsigned k, uint64_t block, probe_geom_t *g)
{
    (void)block;
    return scheme_geom_int_m(m, k, UINT64_C(1) << 52, g);
}
/* 0.0.16's fnv_1a_b on the bits of a: fnv_multiply is a * 16777619 mod 2^32 (a + (a << 1)
 * + (a << 4) + (a << 7) + (a << 8) + (a << 24)); fnv_mix's +=, ^= >>> and final & are all
 * mod 2^32 in JS, so u32 arithmetic gives the same bits. */
SCHEME_HOT uint32_t bloomfilter_js_fnv_1a_b(uint32_t a)
{
    return hash_fnv_js_mix(a * UINT32_C(16777619));
}
/* x = a % m (C's % truncates as JS's does), y = b, both from int32 bits. */
SCHEME_HOT void bloomfilter_js_loop_start(const probe_geom_t *g, uint32_t a, uint32_t b,
                                          probe_it_t *it)
{
    it->x = (uint64_t)((int64_t)(int32_t)a % (int64_t)g->m);
    it->y = (uint64_t)(int64_t)(int32_t)b;
}
SCHEME_HOT uint64_t bloomfilter_js_17_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)r;
    int64_t x = (int64_t)it->x, m = (int64_t)g->m;
    uint64_t p = (uint64_t)(x < 0 ? x + m : x);
    it->x = (uint64_t)((x + (int64_t)it->y) % m); /* |x + b| < m + 2^31: no overflow */
    return (uint32_t)p; /* the Uint32Array store; p < m, so a no-op up to m = 2^32 */
}
#define bloomfilter_js_17_draw u32x2_draw
SCHEME_HOT void bloomfilter_js_17_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    bloomfilter_js_loop_start(g, (uint32_t)h[0], (uint32_t)h[1], it);
}
SCHEME_LOOPS(bloomfilter_js_17)

const scheme_t scheme_bloomfilter_js_17 = {
    .name = "bloomfilter-js-0.0.17",
    .summary = "bloomfilter.js 0.0.17-0.0.18: int32 a, b; (a + i*b) mod m (JS %, + m if < 0), "
               "stored mod 2^32; i = 0..k-1",
    WORDS_U32(2), .geometry = bloomfilter_js_17_geometry, SCHEME_FNS(bloomfilter_js_17),
    .m_cap = "m <= 2^52", .m_cap_as = "bloomfilter-js-0.0.1x",
};

#define bloomfilter_js_16_draw u32x1_draw
SCHEME_HOT void bloomfilter_js_16_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    bloomfilter_js_loop_start(g, (uint32_t)h[0], bloomfilter_js_fnv_1a_b((uint32_t)h[0]), it);
}
#define bloomfilter_js_16_next bloomfilter_js_17_next
SCHEME_LOOPS(bloomfilter_js_16)

const scheme_t scheme_bloomfilter_js_16 = {
    .name = "bloomfilter-js-0.0.16",
    .summary = "bloomfilter.js <= 0.0.16: as bloomfilter-js-0.0.17 with b = fnv_1a_b(a): one "
               "32-bit word per key",
    WORDS_U32(1), .geometry = bloomfilter_js_17_geometry, SCHEME_FNS(bloomfilter_js_16),
    .model = scheme_model_one_word,
    .m_cap = "m <= 2^52", .m_cap_as = "bloomfilter-js-0.0.1x",
};

/* ---- sizing: 0.0.21's withTargetError(n, p): m = ceil(-n log2(p) / ln 2), k = ceil(ln 2
 * m / n); the constructor allocates ceil(m / 32) Int32 buckets and indexes m = 32 of
 * them. Indexes past 2^31 go wrong (the signed shift above); the scheme refuses such m.
 * The older generations are sized here by the same rule, and so is 1.1.0, which adds a
 * refusal (bloomfilter-js-1.1.0, below). ---- */
static int bloomfilter_js_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    (void)bpk;
    const double ln2 = log(2.0);
    double x = ceil(-(double)n * log2(p) / ln2);
    if (!(x < TWO_64 - 32))
        return SIZING_ETOOBIG;
    out->m_computed = x < 1 ? 1 : (uint64_t)x;
    out->m = (out->m_computed + 31) / 32 * 32;
    out->k = ceil(ln2 * (double)out->m_computed / (double)n);
    return SIZING_OK;
}

const sizing_rule_t sizing_bloomfilter_js = {
    .name = "bloomfilter-js",
    .summary = "bloomfilter.js <= 0.0.21: m = ceil(-N log2 P / ln 2) in 32-bit buckets, k = "
               "ceil(m/N ln 2)",
    .kind = SIZING_RULE_LIBRARY, .over = SIZING_OVER_UNIFORM, .design = bloomfilter_js_design,
};

/* bloomfilter-js-1.1.0: withTargetError (bloomfilter.js:182-188 of 1.1.0) computes m and
 * k as 0.0.21 does, and the constructor's assertBitSize (:18, :198-202) throws a
 * RangeError for m > MAX_BITS = 2^32 (:1): refused, SIZING_ECAP. It also refuses n and
 * error outside its domain (assertExpectedSize, assertTargetError), as bloomsim does. */
static int bloomfilter_js_110_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    if (ceil(-(double)n * log2(p) / log(2.0)) > 4294967296.0)
        return SIZING_ECAP;
    return bloomfilter_js_design(n, p, bpk, out);
}

static const char *bloomfilter_js_110_refusal(int status)
{
    return status == SIZING_ECAP ? "bloomfilter.js 1.1.0 throws RangeError past 2^32 bits "
                                   "(assertBitSize: \"m must be a positive finite number of "
                                   "bits no greater than 4294967296.\")"
                                 : NULL;
}

const sizing_rule_t sizing_bloomfilter_js_110 = {
    .name = "bloomfilter-js-1.1.0",
    .summary = "bloomfilter.js 1.1.0: as bloomfilter-js; m > 2^32 refused (its RangeError)",
    .kind = SIZING_RULE_LIBRARY, .over = SIZING_OVER_UNIFORM,
    .design = bloomfilter_js_110_design, .refusal = bloomfilter_js_110_refusal,
};

/* ---- real keys: add(v) and test(v) hash the string v + "". 0.0.21 (and 1.1.0): a, b
 * the high and low halves of the 64-bit FNV-1a; 0.0.17: a = fnv_1a(v), b = fnv_1a(v,
 * 1576284489); 0.0.16: a = fnv_1a(v), b derived from a in the scheme. Strings only: an
 * integer is its decimal string. ---- */
static void bloomfilter_js_words(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    LIBRARY_KEY_INPUT(key, LIBRARY_INT_DEC);
    uint64_t h = hash_fnv64_js(in, len);
    out[0] = h >> 32, out[1] = (uint32_t)h;
}
static void bloomfilter_js_17_words(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    LIBRARY_KEY_INPUT(key, LIBRARY_INT_DEC);
    out[0] = hash_fnv1a_js(in, len, 0);
    out[1] = hash_fnv1a_js(in, len, 1576284489u);
}
static void bloomfilter_js_16_words(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    LIBRARY_KEY_INPUT(key, LIBRARY_INT_DEC);
    out[0] = hash_fnv1a_js(in, len, 0);
}
#define JS_KEYS "the JavaScript string v + \"\": an integer's decimal digits, a string's " \
                "UTF-8 decoded to UTF-16 code units"
static const library_words_t words_bloomfilter_js = {
    .hash = "FNV-1a 64 over UTF-16 units (bloomfilter.js 0.0.21, 1.1.0)", .key_bytes = JS_KEYS,
    .kinds = KEY_INT | KEY_TEXT, .nwords = 2, .word_bits = 32, .words = bloomfilter_js_words,
};
static const library_words_t words_bloomfilter_js_17 = {
    .hash = "fnv_1a and fnv_1a seeded 1576284489 (bloomfilter.js 0.0.17)", .key_bytes = JS_KEYS,
    .kinds = KEY_INT | KEY_TEXT, .nwords = 2, .word_bits = 32, .words = bloomfilter_js_17_words,
};
static const library_words_t words_bloomfilter_js_16 = {
    .hash = "fnv_1a (bloomfilter.js 0.0.16)", .key_bytes = JS_KEYS, .kinds = KEY_INT | KEY_TEXT,
    .nwords = 1, .word_bits = 32, .words = bloomfilter_js_16_words,
};

/* ---- the libraries ---- */

const library_t library_bloomfilter_js = {
    .name = "bloomfilter-js",
    .version = "bloomfilter.js 1.1.0 (npm bloomfilter-1.1.0.tgz; the repository ends at "
               "0.0.21): 0.0.21's positions in a Uint32Array, MAX_BITS = 2^32",
    .scheme = &scheme_bloomfilter_js, .sizing = &sizing_bloomfilter_js_110,
    .hash = "2 x 32-bit",
    .cause = "arithmetic: int32 words mod m, uneven as m nears 2^31 and past it (a word "
             "reaches [m - 2^31, 2^31) from both signs); m at most 2^32 (RangeError past it)",
    .report = "",
    .words = &words_bloomfilter_js,
};

const library_t library_bloomfilter_js_21 = {
    .name = "bloomfilter-js-0.0.21",
    .version = "bloomfilter.js 0.0.21 (jasondavies/bloomfilter.js ad00141a): an Int32Array "
               "indexed with a signed shift",
    .scheme = &scheme_bloomfilter_js_21, .sizing = &sizing_bloomfilter_js, .hash = "2 x 32-bit",
    .cause = "arithmetic: int32 words mod m, uneven as m nears 2^31; past 2^31 bits it loses "
             "keys (false negatives), which bloomsim does not build",
    .report = "",
    .words = &words_bloomfilter_js,
};

const library_t library_bloomfilter_js_17 = {
    .name = "bloomfilter-js-0.0.17",
    .version = "bloomfilter.js 0.0.17 to 0.0.18 (2018-04 to 2024-12): double hashing of "
               "two independent 32-bit FNV words",
    .scheme = &scheme_bloomfilter_js_17, .sizing = &sizing_bloomfilter_js,
    .hash = "2 x 32-bit",
    .cause = "arithmetic: double hashing of 32-bit words; positions kept mod 2^32 above "
             "2^32 bits (sized here by 0.0.21's rule)",
    .report = "jasondavies/bloomfilter.js#31: 1024 bits, k = 16, 20 items, about 4 "
              "collisions in 500",
    .words = &words_bloomfilter_js_17,
};

const library_t library_bloomfilter_js_16 = {
    .name = "bloomfilter-js-0.0.16",
    .version = "bloomfilter.js up to 0.0.16 (2012 to 2018): the stride a function of the "
               "first 32-bit FNV word",
    .scheme = &scheme_bloomfilter_js_16, .sizing = &sizing_bloomfilter_js, .hash = "32-bit",
    .cause = "hash width: one 32-bit word for all probes (0.0.16's fnv_1a_b; sized here "
             "by 0.0.21's rule)",
    .report = "jasondavies/bloomfilter.js#15: about 3e-2 observed for a 5e-7 design "
              "(12M keys, 425M bits, k = 24)",
    .words = &words_bloomfilter_js_16,
};
