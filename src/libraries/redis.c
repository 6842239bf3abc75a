/* redis.c - RedisBloom (rebloom) in three generations: its index arithmetic (the 64-bit
 * loop since 2019-12, plain double hashing on a power-of-two m in 2018-19, and rebloom
 * 1.0-1.1's 32-bit sums), its model, its sizing and its rows.
 *
 * Sources: RedisBloom/RedisBloom deps/bloom/bloom.c (bloom_init, bloom_check_add64, the
 * CHECK_ADD_FUNC(uint64_t, ...) loop), src/rebloom.c and src/sb.c (SB_NewChain) at
 * b28c2945; contrib/bloom.c (CHECK_ADD_FUNC, bloom_check_add32, bloom_check_add64) and
 * contrib/bloom.h (bloom_hashval) at v1.1.0 (57a032dd, 2018-01-29), the same in v1.0.0
 * (9983a5db, 2017-09-14), until dc7d8095 (2018-02-14, "Use 64 bit functions for rebloom
 * by default", first released in v1.1.1); RedisBloom/RedisBloom#28 and #717.
 */
#include <math.h>

#include "libraries/arith.h"
#include "libraries/chain.h"
#include "hashes/hashes.h"
#include "libraries/library.h"
#include "rates/rate.h"
#include "libraries/registry.h"
#include "schemes/words.h"

/* ---- redisbloom: the generation since PR #155 (2019-12, BLOOM_OPT_FORCE64 |
 * BLOOM_OPT_NOROUND) ----
 * Two 64-bit words a = MurmurHash64A(item, 0xc6a4a7935bd1e995), b = MurmurHash64A(item,
 * a) (with an ideal hash, independent); x_i = ((a + i*b) mod 2^64) mod bits, i =
 * 0..k-1. Also Bendersky's Go filter (bendersky.c), which is this arithmetic exactly.
 * The 2018-2019 generation (bits = 2^n2, (a + i b) mod 2^n2 in u64) is this scheme at a
 * power-of-two m, which is plain double hashing (scheme double); the one before 2018-02
 * (u32 a, b, i: (a + i b) mod 2^32 mod 2^n2) is redisbloom-u32 below. */
#define redisbloom_draw u64x2_draw
#define redisbloom_start pair_start /* x = a, y = b */
SCHEME_HOT uint64_t redisbloom_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)r;
    uint64_t p = it->x % g->m;
    it->x += it->y; /* u64 wraparound */
    return p;
}
SCHEME_LOOPS(redisbloom)

const scheme_t scheme_redisbloom = {
    .name = "redisbloom",
    .summary = "RedisBloom (64-bit, since 2019-12): ((a + i*b) mod 2^64) mod m, u64 a, b, "
               "i = 0..k-1 (also Bendersky's Go filter)",
    WORDS_U64(2), .geometry = scheme_geom_plain, SCHEME_FNS(redisbloom),
};

/* ---- redisbloom-u32: rebloom 1.0.0 to 1.1.0 ----
 * Two 32-bit words a = murmurhash2(item, 0x9747b28c), b = murmurhash2(item, a) (the
 * fields of bloom_hashval are unsigned int; with an ideal hash, independent) and an
 * unsigned int i, so a + i*b wraps mod 2^32 before the % (1 << n2) (uint32_t, n2 <= 31)
 * or % (1LLU << n2) (uint64_t, n2 > 31): position ((a + i b) mod 2^32) mod 2^n2, i =
 * 0..k-1. For m > 2^32 every position is below 2^32 (test_bit_set_bit took the position
 * as an unsigned int as well). rebloom rounded bits up to 2^n2, so m must be a power of
 * two (else SCHEME_ENOTPOW2). Relabelling h1 = a - b makes this guava32u's sequence
 * (i = 1..k) at a power-of-two m. */
#define redisbloom_u32_draw u32x2_draw
#define redisbloom_u32_start pair_start /* x = a, y = b */
SCHEME_HOT uint64_t redisbloom_u32_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)r;
    uint64_t p = it->x & (g->m - 1); /* mod 2^n2; x < 2^32, so past 2^32 it is x itself */
    it->x = (uint32_t)(it->x + it->y); /* a + i*b in unsigned int */
    return p;
}
SCHEME_LOOPS(redisbloom_u32)

/* Model: indexes uniform on [0, 2^32) taken mod m (rate_model_mod): for m past 2^32 the
 * bits above 2^32 are never set. */
static double redisbloom_u32_model(const probe_geom_t *g, uint64_t n)
{
    return rate_model_mod(UINT64_C(1) << 32, g->m, n, g->k);
}

const scheme_t scheme_redisbloom_u32 = {
    .name = "redisbloom-u32",
    .summary = "RedisBloom before 2018-02 (v1.0-1.1.0): u32 a, b, i; ((a + i*b) mod 2^32) mod "
               "m, m a power of two; i = 0..k-1",
    WORDS_U32(2), .geometry = scheme_geom_pow2, SCHEME_FNS(redisbloom_u32),
    .model = redisbloom_u32_model,
};

/* ---- sizing: bloom_init (deps/bloom/bloom.c @b28c2945): bpe = -(log(error) / denom)
 * with denom the literal 0.480453013918201 (:119-128) and hashes = (int)ceil(LN2 bpe)
 * with LN2 the literal 0.693147180559945 (:47, :193), in every version. Both literals are
 * a little below ln^2 2 and ln 2, and together they put LN2 bpe just above j at p = 2^-j:
 * k = j + 1 there (4 at 1/8), where exact constants give j.
 * redisbloom, the current default (BF.RESERVE and auto-created filters pass
 * BLOOM_OPT_NOROUND | BLOOM_OPT_FORCE64, rebloom.c:105): bits = (uint64_t)(entries bpe),
 * at least 1, rounded up to whole 64-bit words (:156-190); and error is the user's rate
 * times 0.5, ERROR_TIGHTENING_RATIO, which sb.c:131-132 applies to the first filter of
 * every scaling filter (BF.RESERVE without NONSCALING; RedisBloom#717): the filter is
 * built for p/2. From v8.0 (PR #825: eab5689a, first in v7.99.2 and v8.0.0) BF.RESERVE
 * first replaces a rate above 0.25 by 0.25 (BF_ERROR_RATE_CAP, rebloom.c:148-155) and
 * refuses a capacity outside [1, 2^30] (:157-164). Before v8.0 (2.2.5 to 2.8.x) the same
 * rule without those limits; 2.2.0 to 2.2.4 rounded to whole bytes, not words.
 * redisbloom-pow2, before NOROUND (2017 to 2019-12; contrib/bloom.c:140-163 @9983a5db,
 * v1.0.0): n2 = logb(entries bpe) + 1, bits = 2^n2 (strictly above entries bpe, doubling
 * an exact power of two), at the user's rate: RedisBloom#28 (2018-02; 478,361,140
 * entries at 1e-6 got 2^34 bits and k = 20) shows no halving then. Positions are taken
 * mod 2^n2 itself, with no minimum: 1, 2 and 3 keys at 1% get 16, 32 and 32 bits. Where
 * entries bpe < 1, n2 <= 0: bits is left 0 and the first check divides by it (or n2 is
 * negative in a uint8_t), refused; n2 <= 63 (:141). ---- */
#define REDISBLOOM_LN2SQ 0.480453013918201
#define REDISBLOOM_LN2 0.693147180559945
#define REDISBLOOM_RATE_CAP 0.25
#define REDISBLOOM_MAX_CAPACITY (UINT64_C(1) << 30)
/* bloom_init with BLOOM_OPT_NOROUND (bloom.c:128-193 @03077b46): `entries` at `error`
 * as given, no cap: each link of a scaling filter is made by this. */
static int redisbloom_init(uint64_t entries, double error, sizing_out_t *out)
{
    double bpe = fabs(log(error) / REDISBLOOM_LN2SQ);
    double all = (double)entries * bpe;
    if (!(all < TWO_64 - 64))
        return SIZING_ETOOBIG;
    out->m_computed = all < 1 ? 1 : (uint64_t)all;
    out->m = (out->m_computed + 63) / 64 * 64;
    out->k = ceil(REDISBLOOM_LN2 * bpe);
    return SIZING_OK;
}

static int redisbloom_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    (void)bpk;
    if (n > REDISBLOOM_MAX_CAPACITY)
        return SIZING_EKEYS;
    return redisbloom_init(n, fmin(p, REDISBLOOM_RATE_CAP) * 0.5, out);
}

static const char *redisbloom_refusal(int status)
{
    return status == SIZING_EKEYS ? "RedisBloom (v8.0 on) refuses it: \"ERR capacity must be "
                                    "in the range [1, 1073741824]\""
                                  : NULL;
}

const sizing_rule_t sizing_redisbloom = {
    .name = "redisbloom",
    .summary = "RedisBloom BF.RESERVE (v8.0 on): its formula at min(P, 0.25)/2 (the first layer "
               "of a scaling filter), whole 64-bit words, N at most 2^30",
    .kind = SIZING_RULE_LIBRARY, .over = SIZING_OVER_UNIFORM, .design = redisbloom_design,
    .refusal = redisbloom_refusal,
};

static int redisbloom_pow2_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    (void)bpk;
    double bpe = -(log(p) / REDISBLOOM_LN2SQ);
    double all = (double)n * bpe;
    if (all < 1)
        return SIZING_EZERO;
    int n2 = (int)logb(all) + 1;
    if (n2 > 63)
        return SIZING_ETOOBIG;
    out->m_computed = (uint64_t)all;
    out->m = UINT64_C(1) << n2;
    out->k = ceil(REDISBLOOM_LN2 * bpe);
    return SIZING_OK;
}

static const char *redisbloom_pow2_refusal(int status)
{
    return status == SIZING_EZERO ? "RedisBloom 2017-19 computes fewer than 1 bit: n2 = 0 leaves "
                                    "its bit count 0, and the first check divides by it"
                                  : NULL;
}

const sizing_rule_t sizing_redisbloom_pow2 = {
    .name = "redisbloom-pow2",
    .summary = "RedisBloom 2017-19: the next power of two above N b, at P",
    .kind = SIZING_RULE_LIBRARY, .over = SIZING_OVER_UNIFORM, .design = redisbloom_pow2_design,
    .refusal = redisbloom_pow2_refusal,
};

/* ---- real keys: deps/bloom/bloom.c @b28c2945, lines 64-76: bloom_calc_hash64: a =
 * MurmurHash64A_Bloom(buffer, len, 0xc6a4a7935bd1e995), b = the same seeded with a (the
 * generation of 2018-19 the same since 61f274c2, before its first release, v1.1.1);
 * bloom_calc_hash (rebloom 1.0-1.1, contrib/bloom.c:54-55 @57a032dd): a =
 * murmurhash2(buffer, len, 0x9747b28c), b = seeded with a. Redis hands BF.ADD its
 * argument as a string: an integer is its decimal digits. ---- */
static void redis64(const rkey_t *key, uint64_t *a, uint64_t *b)
{
    LIBRARY_KEY_INPUT(key, LIBRARY_INT_DEC);
    *a = hash_murmur64a(in, len, UINT64_C(0xc6a4a7935bd1e995));
    *b = hash_murmur64a(in, len, *a);
}
static void redisbloom_words(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    redis64(key, &out[0], &out[1]);
}
/* redisbloom-2018 is scheme double on m = 2^n2, whose words lie in [0, m): (a + i b) mod
 * 2^64 mod 2^n2 is (a mod m + i (b mod m)) mod m. */
static void redisbloom_2018_words(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    redis64(key, &out[0], &out[1]);
    out[0] %= g->m, out[1] %= g->m;
}
static void redisbloom_2017_words(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    LIBRARY_KEY_INPUT(key, LIBRARY_INT_DEC);
    out[0] = hash_murmur2(in, len, 0x9747b28cu);
    out[1] = hash_murmur2(in, len, (uint32_t)out[0]);
}
#define REDIS_KEYS "integer: its decimal string; string: its bytes"
static const library_words_t words_redisbloom = {
    .hash = "MurmurHash64A (RedisBloom), seeds 0xc6a4a7935bd1e995 and a",
    .key_bytes = REDIS_KEYS, .kinds = LIBRARY_KEYS_INT_BYTES, .nwords = 2, .word_bits = 64,
    .words = redisbloom_words,
};
static const library_words_t words_redisbloom_2018 = {
    .hash = "MurmurHash64A (RedisBloom), seeds 0xc6a4a7935bd1e995 and a, mod m",
    .key_bytes = REDIS_KEYS, .kinds = LIBRARY_KEYS_INT_BYTES, .nwords = 2, .word_bits = 0,
    .words = redisbloom_2018_words,
};
static const library_words_t words_redisbloom_2017 = {
    .hash = "MurmurHash2 (rebloom), seeds 0x9747b28c and a", .key_bytes = REDIS_KEYS,
    .kinds = LIBRARY_KEYS_INT_BYTES, .nwords = 2, .word_bits = 32,
    .words = redisbloom_2017_words,
};

/* ---- the libraries ---- */

const library_t library_redisbloom = {
    .name = "redisbloom",
    .version = "RedisBloom (BF.RESERVE, v8.0 on; 2.2.5-2.8.x without its rate cap and "
               "capacity limit) deps/bloom/bloom.c, sb.c and rebloom.c at b28c2945",
    .scheme = &scheme_redisbloom, .sizing = &sizing_redisbloom, .hash = "2 x 64-bit",
    .cause = "none expected: builds its first filter for p/2 (over-delivers)",
    .report = "RedisBloom/RedisBloom#717: the error rate used is half the one asked",
    .words = &words_redisbloom,
};

const library_t library_redisbloom_2018 = {
    .name = "redisbloom-2018",
    .version = "RedisBloom 2018-02 (dc7d8095) to 2019-12 (PR #155): bloom_check_add64 on "
               "a power-of-two m, double hashing of two 64-bit words (scheme double)",
    .scheme = &scheme_double, .sizing = &sizing_redisbloom_pow2, .hash = "2 x 64-bit",
    .cause = "sizing: m rounded up to a power of two (over-delivers); strides of any "
             "parity (floor about 1/m)",
    .report = "",
    .words = &words_redisbloom_2018,
};

const library_t library_redisbloom_2017 = {
    .name = "redisbloom-2017",
    .version = "rebloom 1.0.0 to 1.1.0 (2017-09 to 2018-01), contrib/bloom.c at 57a032dd: "
               "bloom_check_add32, two 32-bit words summed in u32 before mod 2^n2",
    .scheme = &scheme_redisbloom_u32, .sizing = &sizing_redisbloom_pow2, .hash = "2 x 32-bit",
    .cause = "arithmetic: indexes below 2^32 while m = 2^n2 can be larger",
    .report = "RedisBloom/RedisBloom#28: about 25% observed, 2^34 bits, k = 20, "
              "478,361,140 items, designed for 1e-6",
    .words = &words_redisbloom_2017,
};

/* ---- the scaling filter: SBChain (src/sb.c @03077b46, 2025-07-10) ----
 * SB_NewChain (sb.c:109-122) makes the first link for the capacity at error_rate times
 * ERROR_TIGHTENING_RATIO 0.5 (sb.c:25, :116-117; NONSCALING: times 1, and no second
 * link). SBChain_Add (sb.c:70-97) hashes the key once, asks every link newest first
 * and returns 0, adding nothing, when one says present (:73-77: the key is swallowed);
 * otherwise, if the newest link's count of keys added has reached its entries (:81), it
 * adds a link of entries * growth (size_t) at the newest link's error * 0.5 (:85-86) and
 * sets the key's bits there, counting it (:52-60, :92-95). Each link is bloom_init with
 * BLOOM_OPT_NOROUND | BLOOM_OPT_FORCE64 (rebloom.c:97-100): redisbloom_init above, the
 * `redisbloom` rule's arithmetic without BF.RESERVE's limits, and the `redisbloom`
 * scheme on the same two 64-bit words in every link. bloom_init refuses an error <= 0
 * (bloom.c:129), so the chain stops when halving underflows: BF.ADD then answers an error.
 * Defaults (rebloom.c:27, :36-37): BF.ADD on a missing key creates capacity 100, error
 * 0.01, expansion 2 (BF_DEFAULT_EXPANSION). BF.RESERVE (rebloom.c:127-185) refuses an
 * error outside (0, 1) ("ERR (0 < error rate range < 1) "), a capacity <= 0 ("ERR
 * (capacity should be larger than 0)"), an EXPANSION below 1 ("ERR expansion should be
 * greater or equal to 1") or not an integer ("ERR bad expansion"), and EXPANSION with
 * NONSCALING ("Nonscaling filters cannot expand"). A NONSCALING filter answers BF.ADD on
 * a full link with an error (SBChain_Add returns -2, :82-84): it is not a chain, and
 * bloomsim's `redisbloom` row is its first link. From v8.0 (b28c2945) BF.RESERVE also
 * caps the error at 0.25 and refuses a capacity above 2^30 (the `redisbloom` rule's
 * limits); the links are made as here. ---- */
static int sbchain_check(const chain_params_t *p)
{
    return chain_check_whole(p, 4294967295.0); /* StringToLongLong: "ERR bad expansion" */
}

static int sbchain_link(const chain_params_t *p, size_t j, const sizing_layer_t *prev,
                        sizing_layer_t *out)
{
    uint64_t entries = p->capacity;
    double error = p->rate * 0.5;
    if (j > 0) {
        if ((double)prev->capacity * p->expansion >= 18446744073709551615.0)
            return SIZING_ETOOBIG;
        entries = prev->capacity * (uint64_t)p->expansion;
        error = prev->rate * 0.5;
    }
    if (!(error > 0))
        return CHAIN_EUNDERFLOW;
    sizing_out_t o;
    int st = redisbloom_init(entries, error, &o);
    if (st != SIZING_OK)
        return st;
    if (o.k > SIZING_MAX_K)
        return SIZING_EPROBES;
    *out = (sizing_layer_t){.capacity = entries, .rate = error, .m = o.m, .k = (unsigned)o.k};
    return SIZING_OK;
}

/* BF.RESERVE key P N: the first link of N entries at P / 2. */
static int sbchain_reserve(const chain_params_t *p, uint64_t n, uint64_t *m, unsigned *k)
{
    sizing_out_t o;
    int st = redisbloom_init(n, p->rate * 0.5, &o);
    if (st != SIZING_OK)
        return st;
    if (o.k > SIZING_MAX_K)
        return SIZING_EPROBES;
    *m = o.m, *k = (unsigned)o.k;
    return SIZING_OK;
}

static const char *sbchain_refusal(int status)
{
    switch (status) {
    case CHAIN_EEXPANSION:
        return "RedisBloom refuses it: \"ERR expansion should be greater or equal to 1\"";
    case CHAIN_EWHOLE:
        return "RedisBloom refuses it: \"ERR bad expansion\" (a whole number)";
    case CHAIN_ECAPACITY:
        return "RedisBloom refuses it: \"ERR (capacity should be larger than 0)\"";
    case CHAIN_ERATE:
        return "RedisBloom refuses it: \"ERR (0 < error rate range < 1) \"";
    case CHAIN_EUNDERFLOW:
        return "RedisBloom cannot add the next link: its error, halved at each link, "
               "underflows to 0 and bloom_init refuses it (BF.ADD answers an error)";
    default:
        return NULL;
    }
}

const library_chain_t chain_redisbloom = {
    .name = "redisbloom-sbchain",
    .version = "RedisBloom src/sb.c, src/rebloom.c and deps/bloom/bloom.c at 03077b46 "
               "(2025-07-10)",
    .summary = "BF.ADD / BF.RESERVE P C [EXPANSION E]: link 0 of C entries at P/2, link j "
               "of E times link j-1's entries at half its error; full at its entries of keys "
               "added; a key any link reports present is not added",
    .scheme = &scheme_redisbloom,
    .defaults = {.capacity = 100, .rate = 0.01, .expansion = 2, .tightening = 0.5},
    .has_expansion = 1, .swallows = 1,
    .check = sbchain_check, .link = sbchain_link, .reserve = sbchain_reserve,
    .refusal = sbchain_refusal,
};
