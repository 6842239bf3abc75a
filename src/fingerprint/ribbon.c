/* ribbon.c - RocksDB 7.8.3's Standard128Ribbon filter, as NewRibbonFilterPolicy(
 * bloom_equivalent_bits_per_key) builds it into a block-based table: the family
 * `rocksdb-ribbon` (ideal 64-bit key hashes) and the library on real keys (real.h:
 * `bloomsim adapter rocksdb-ribbon`, RocksDB's design-bpk).
 * long: one family in one file (docs/extending.md): the policy's arithmetic, the sizing,
 * the banding, back-substitution and queries RocksDB's templates spread over four files,
 * the family on ideal hashes and the library on real keys.
 *
 * Source: facebook/rocksdb at v7.8.3 (bf2c3351), as Debian's librocksdb-dev 7.8.3 builds it.
 * table/block_based/filter_policy.cc:
 *   BloomLikeFilterPolicy (1327-1362): bits per key below 0.5 build no filter, below 1
 *   are 1, 100 at most (NaN too); millibits = (int)(bpk 1000 + 0.500001); the target
 *   desired_one_in_fp_rate = 1 / CacheLocalFpRate(bpk, ChooseNumProbes(millibits), 512)
 *   (util/bloom_impl.h:32-58, 156-195): the Ribbon filter is sized to the rate of the
 *   Bloom filter of the same setting. RibbonFilterPolicy::GetBuilderWithContext
 *   (1736-1771): a table of unknown level (SstFileWriter's) takes the Ribbon builder.
 *   XXPH3FilterBitsBuilder::AddKey (75-100): the key's GetSliceHash64 (XXPH3 64, seed 0),
 *   a hash equal to the one just added dropped. Standard128RibbonBitsBuilder (566-953):
 *   more than kMaxRibbonEntries = 950,000,000 keys fall back to the FastLocalBloom filter
 *   of the same millibits (617-624); CalculateSpaceAndSlots (768-797): num_slots =
 *   RoundUpNumSlots(GetNumSlots(n)) (927-930), bytes = GetBytesForOneInFpRate(num_slots,
 *   one_in, Upper32of64(first hash)) + 5, and below 1,024 slots the Bloom filter when its
 *   CalculateSpace is smaller; Finish (612-765): ResetAndFindSeedToSolve from ordinal seed
 *   Lower32of64(first hash) & 255 through all 256 (mask 255), the Bloom filter if none
 *   solves; back-substitution into the buffer; metadata -2, the seed, num_blocks in 24
 *   bits. optimize_filters_for_memory is off by default (include/rocksdb/table.h:437), so
 *   AllocateMaybeRounding (128-200) keeps the length. The reader (955-1000,
 *   GetRibbonBitsReader 1641-1661): num_blocks from the metadata, the seed, FilterQuery.
 *   FastLocalBloomBitsBuilder (304-460): CalculateSpace (409-424), k =
 *   ChooseNumProbes(millibits) (449-460), AddHash (util/bloom_impl.h:200-214).
 * util/ribbon_impl.h (Standard128RibbonRehasherTypesAndSettings: 128-bit coefficient
 *   rows, 32-bit result rows, kFirstCoeffAlwaysOne, no smash, 64-bit hashes, 32-bit
 *   seeds): StandardHasher (165-400): GetStart = FastRange64(h, num_starts), GetCoeffRow
 *   (a = h 0xc28f82822b650bed; (a << 64 ^ a ^ 0xc367844a6e52731d) | 1), GetResultRowFromHash
 *   (the low 32 bits of a's bytes reversed), SetOrdinalSeed (count 0xc78219a23eeadd03,
 *   then x ^= (x & 0xf0f0...) >> 4, its low 32 bits); StandardRehasherAdapter::HashFn
 *   (422-436): (hash ^ seed) 0x6193d459236a3a0d; StandardBanding (440-700: Reset,
 *   AddRange without backtracking, ResetAndFindSeedToSolve 655-676);
 *   SerializableInterleavedSolution (819-1110): ConfigureForNumBlocks, ExpectedFpRate
 *   (941-951), RoundUpNumSlots (965-971), InternalGetBytesForFpRate (1016-1070),
 *   InternalConfigure (1085-1103).
 * util/ribbon_alg.h: BandingAdd (548-596), BandingAddRange (611-700), BackSubstBlock
 *   (971-1003), InterleavedBackSubst (1007-1080), InterleavedPrepareQuery (1086-1123),
 *   InterleavedFilterQuery (1168-1218).
 * util/ribbon_config.cc: BandingConfigHelperData<kOneIn20, 128, false> (177-196, the
 *   known adds by power of two; 0.0038 a doubling past them, 34-44, 50-75), GetNumSlots
 *   (407-441).
 *
 * The layout: a filter of num_blocks = num_slots / 128 blocks of 128 slots; its solution
 * is a matrix of num_slots rows by r or r + 1 columns, stored block by block, each
 * block's columns as 128-bit segments (16 bytes, low 64 bits first, little-endian): the
 * first upper_start_block blocks have r columns, the others r + 1, which is how a whole
 * number of bits a slot realises the fractional log2(one_in). A key hashes to a start s
 * of num_slots - 127 and to 128 coefficients; it is present when, in every column, the
 * parity of the coefficients against the 128 solution bits from slot s equals that
 * column's bit of its 32-bit result row: a query reads its block's r or r + 1 segments,
 * and the next block's as many unless s is a block's first slot.
 *
 * The bits of the protocol (`bits`): the solution bytes without the 5 metadata bytes
 * (a Bloom fallback's bytes the same way), bit i the bit i mod 8 of byte i / 8; so M =
 * 8 (filter length - 5), segments of W = 128 bits. The length depends on the first key's
 * hash (the rounding bias), so `design`'s M is that of the filter of the N keys RocksDB's
 * adapter writes to find it (8-byte big-endian 0 .. N - 1), and a filter of other keys may
 * be one segment a block longer or shorter.
 */
#include "fingerprint/ribbon.h"
#include "fingerprint/real.h"
#include "fingerprint/registry.h"
#include "hashes/hashes.h"
#include "rates/rate.h"
#include "rates/rate_blocked.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef pcg_u128 u128;

enum { RB_META = 5, RB_COEFF = 128, RB_SEG = 16, RB_MAX_ENTRIES = 950000000 };

/* ---- the policy: BloomLikeFilterPolicy and util/bloom_impl.h ---- */

/* FastLocalBloomImpl::ChooseNumProbes (util/bloom_impl.h:156-195). */
static int rb_bloom_k(int mb)
{
    static const struct { int upto, k; } t[] = {
        {2080, 1}, {3580, 2}, {5100, 3}, {6640, 4}, {8300, 5}, {10070, 6},
        {11720, 7}, {14001, 8}, {16050, 9}, {18300, 10}, {22001, 11}, {25501, 12},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (mb <= t[i].upto)
            return t[i].k;
    return mb > 50000 ? 24 : (mb - 1) / 2000 - 1;
}

/* BloomMath::StandardFpRate and CacheLocalFpRate (util/bloom_impl.h:32-58). */
static double rb_standard_fp(double bpk, int k)
{
    return pow(1.0 - exp(-k / bpk), k);
}
static double rb_cache_local_fp(double bpk, int k)
{
    if (bpk <= 0.0)
        return 1.0;
    double per_line = 512 / bpk, sd = sqrt(per_line);
    return (rb_standard_fp(512 / (per_line + sd), k) + rb_standard_fp(512 / (per_line - sd), k)) / 2;
}

int rb_policy(double bpk, rb_policy_t *p)
{
    const char *clamp = NULL;
    if (bpk < 0.5)
        return -1;
    if (bpk < 1.0) {
        bpk = 1.0;
        clamp = "bits per key below 1 are 1 (BloomLikeFilterPolicy's minimum, filter_policy.cc:1333)";
    } else if (!(bpk < 100.0)) {
        bpk = 100.0;
        clamp = "bits per key of 100 or more are 100 (BloomLikeFilterPolicy's maximum, "
                "filter_policy.cc:1336)";
    }
    p->bpk = bpk;
    p->millibits = (int)(bpk * 1000.0 + 0.500001);
    p->one_in = 1.0 / rb_cache_local_fp(bpk, rb_bloom_k(p->millibits));
    p->clamp = clamp;
    return 0;
}

/* ---- the sizing: ribbon_config.cc, ribbon_impl.h, CalculateSpaceAndSlots ---- */

static const double rb_known[18] = {0, 0, 0, 0, 0, 0, 0, 0, 248.851, 499.532, 1001.26,
                                    2003.97, 4005.59, 8000.39, 15966.6, 31828.1, 63447.3,
                                    126506};

/* GetNumToAddForPow2: the keys 2^l slots take, by the table or past it by the formula. */
static double rb_to_add_pow2(uint32_t l2)
{
    if (l2 < 18)
        return rb_known[l2];
    double final_known = 1.0 * (UINT32_C(1) << 17) / rb_known[17];
    double base = final_known - 17 * 0.0038;
    return 1.0 * (double)(UINT64_C(1) << l2) / (base + 1.0 * l2 * 0.0038);
}

/* BandingConfigHelper1<kOneIn20, 128 bits, no smash>::GetNumSlots (ribbon_config.cc:
 * 407-441), then SerializableInterleavedSolution::RoundUpNumSlots (whole blocks, at
 * least 2). */
static uint32_t rb_num_slots(uint32_t n)
{
    uint32_t slots;
    double l2 = log((double)n) * 1.4426950409;
    uint32_t approx = (uint32_t)(l2 + 0.5);
    double lower = rb_to_add_pow2(approx), upper;
    if (approx == 0 || lower == 0) {
        slots = 2 * RB_COEFF;
    } else {
        if (n < lower) {
            upper = lower;
            --approx;
            lower = rb_to_add_pow2(approx);
        } else {
            upper = rb_to_add_pow2(approx + 1);
        }
        double portion = (n - lower) / (upper - lower);
        double lower_slots = 1.0 * (double)(UINT64_C(1) << approx);
        slots = (uint32_t)(portion * lower_slots + lower_slots + 0.999999999);
    }
    uint32_t c = (slots + RB_COEFF - 1) / RB_COEFF * RB_COEFF;
    return c == RB_COEFF ? c + RB_COEFF : c;
}

/* FastLocalBloomBitsBuilder::CalculateSpace without its metadata: whole 64-byte lines. */
static uint64_t rb_bloom_len(uint64_t n, int mb)
{
    uint64_t raw = (n * (uint64_t)mb + 7999) / 8000;
    if (raw >= UINT64_C(0xffffffc0))
        raw = UINT64_C(0xffffffc0);
    return (raw + 63) & ~UINT64_C(63);
}

/* A filter's shape: a Ribbon filter's blocks and columns, or the Bloom fallback. */
typedef struct rb_shape {
    int bloom;                 /* the FastLocalBloom filter instead */
    uint64_t len;              /* bytes without the metadata */
    uint32_t slots, blocks, starts;
    uint32_t upper, usb;       /* upper_num_columns_, upper_start_block_ */
    int k;                     /* the Bloom filter's probes */
} rb_shape_t;

/* InternalGetBytesForFpRate (ribbon_impl.h:1016-1070) for num_slots and one_in, the
 * rounding bias the first key's upper hash half. */
static uint64_t rb_bytes(uint32_t slots, double one_in, uint32_t bias32)
{
    double fp = 1.0 / one_in;
    if (!(one_in > 1.0 && fp < 1.0))
        return RB_SEG;
    if (!(one_in <= (double)UINT32_MAX))
        return (uint64_t)slots * 4;
    uint32_t rounded = (uint32_t)one_in;
    int lower = 31 - __builtin_clz(rounded);
    double lower_fp = pow(2.0, -lower), upper_fp = pow(2.0, -(lower + 1));
    double portion = (fp - upper_fp) / (lower_fp - upper_fp);
    double bias = (bias32 + 0.5) / 4294967296.0;
    uint32_t starts = slots - RB_COEFF + 1;
    uint32_t usb = (uint32_t)((portion * starts + bias) / RB_COEFF);
    uint32_t blocks = slots / RB_COEFF;
    uint32_t segments = blocks * (uint32_t)lower + (blocks - usb);
    return (uint64_t)segments * RB_SEG;
}

/* InternalConfigure (ribbon_impl.h:1085-1103) for a solution of len bytes. */
static void rb_configure(rb_shape_t *s, uint32_t blocks, uint64_t len)
{
    uint32_t segments = (uint32_t)(len / RB_SEG);
    s->bloom = 0;
    s->blocks = blocks, s->slots = blocks * RB_COEFF, s->starts = s->slots - RB_COEFF + 1;
    s->upper = (segments + blocks - 1) / blocks;
    s->usb = s->upper * blocks - segments;
    if (s->upper > 32)
        s->upper = 32, s->usb = 0, segments = blocks * 32;
    s->len = (uint64_t)segments * RB_SEG;
}

/* CalculateSpaceAndSlots (filter_policy.cc:768-797) for n entries, the first's hash
 * giving the rounding bias. */
static void rb_shape(const rb_policy_t *p, uint64_t n, uint32_t bias32, rb_shape_t *s)
{
    memset(s, 0, sizeof *s);
    if (n > RB_MAX_ENTRIES) {
        s->bloom = 1;
    } else {
        uint32_t slots = rb_num_slots((uint32_t)n);
        uint64_t len = rb_bytes(slots, p->one_in, bias32);
        rb_configure(s, slots / RB_COEFF, len);
        if (slots < 1024 && rb_bloom_len(n, p->millibits) + RB_META < len + RB_META)
            s->bloom = 1;
    }
    if (s->bloom) {
        s->len = rb_bloom_len(n, p->millibits);
        s->k = rb_bloom_k(p->millibits);
    }
}

/* ---- the hasher (StandardHasher with StandardRehasherAdapter) ---- */

static uint32_t rb_raw_seed(uint32_t ordinal)
{
    uint64_t t = (uint64_t)ordinal * UINT64_C(0xc78219a23eeadd03);
    t ^= (t & UINT64_C(0xf0f0f0f0f0f0f0f0)) >> 4;
    return (uint32_t)t;
}
static uint64_t rb_rehash(uint64_t h, uint32_t raw)
{
    return (h ^ raw) * UINT64_C(0x6193d459236a3a0d);
}
static uint32_t rb_start(uint64_t h, uint32_t starts)
{
    return (uint32_t)(((u128)h * starts) >> 64);
}
static u128 rb_coeff(uint64_t h)
{
    uint64_t a = h * UINT64_C(0xc28f82822b650bed);
    return (((u128)a << 64) ^ (a ^ UINT64_C(0xc367844a6e52731d))) | 1;
}
static uint32_t rb_result(uint64_t h)
{
    return (uint32_t)__builtin_bswap64(h * UINT64_C(0xc28f82822b650bed));
}
static int rb_parity(u128 v)
{
    return __builtin_parityll((uint64_t)v ^ (uint64_t)(v >> 64));
}
static int rb_ctz(u128 v)
{
    uint64_t lo = (uint64_t)v;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(v >> 64));
}

/* ---- banding, back-substitution, queries ---- */

/* The banding storage: coefficient and result rows, one a slot. */
typedef struct rb_band {
    u128 *coeff;
    uint32_t *result;
    uint32_t cap; /* slots allocated */
} rb_band_t;

static int rb_band_reserve(rb_band_t *b, uint32_t slots)
{
    if (slots <= b->cap)
        return 0;
    u128 *c = realloc(b->coeff, (size_t)slots * sizeof *c);
    if (c)
        b->coeff = c;
    uint32_t *r = realloc(b->result, (size_t)slots * sizeof *r);
    if (r)
        b->result = r;
    if (!c || !r)
        return -1;
    b->cap = slots;
    return 0;
}

/* BandingAddRange without backtracking for the hashes under raw seed: 1 when every
 * equation went in (or cancelled to 0 = 0). */
static int rb_band_add(rb_band_t *b, const rb_shape_t *s, const uint64_t *h, uint64_t n,
                       uint32_t raw)
{
    memset(b->coeff, 0, (size_t)s->slots * sizeof *b->coeff);
    memset(b->result, 0, (size_t)s->slots * sizeof *b->result);
    for (uint64_t j = 0; j < n; j++) {
        uint64_t x = rb_rehash(h[j], raw);
        uint32_t i = rb_start(x, s->starts), rr = rb_result(x);
        u128 cr = rb_coeff(x);
        for (;;) {
            if (b->coeff[i] == 0) {
                b->coeff[i] = cr, b->result[i] = rr;
                break;
            }
            cr ^= b->coeff[i];
            rr ^= b->result[i];
            if (cr == 0) {
                if (rr != 0)
                    return 0;
                break;
            }
            int tz = rb_ctz(cr);
            i += (uint32_t)tz;
            cr >>= tz;
        }
    }
    return 1;
}

static void rb_store128(uint8_t *p, u128 v)
{
    for (int i = 0; i < 16; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static u128 rb_load128(const uint8_t *p)
{
    u128 v = 0;
    for (int i = 15; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* InterleavedBackSubst into out (s->len bytes). */
static void rb_back_subst(const rb_band_t *b, const rb_shape_t *s, uint8_t *out)
{
    u128 state[32] = {0};
    uint32_t cols = s->upper, segment = (uint32_t)(s->len / RB_SEG), block = s->blocks;
    if (cols == 0)
        return;
    for (int lower = 0; lower < 2; lower++, cols--)
        while (block > (lower ? 0 : s->usb)) {
            --block;
            for (uint32_t i = block * RB_COEFF + RB_COEFF; i > block * RB_COEFF;) {
                --i;
                u128 cr = b->coeff[i];
                uint32_t rr = b->result[i];
                for (uint32_t j = 0; j < cols; j++) {
                    u128 t = state[j] << 1;
                    t |= (u128)(unsigned)(rb_parity(t & cr) ^ (int)((rr >> j) & 1));
                    state[j] = t;
                }
            }
            segment -= cols;
            for (uint32_t i = 0; i < cols; i++)
                rb_store128(out + (size_t)(segment + i) * RB_SEG, state[i]);
        }
}

/* InterleavedPrepareQuery and InterleavedFilterQuery on the solution sol. */
static int rb_query(const uint8_t *sol, const rb_shape_t *s, uint32_t raw, uint64_t key)
{
    uint64_t h = rb_rehash(key, raw);
    uint32_t start = rb_start(h, s->starts), sb = start / RB_COEFF, bit = start % RB_COEFF;
    uint32_t seg = sb * s->upper - (sb < s->usb ? sb : s->usb);
    uint32_t cols = s->upper - (sb < s->usb);
    u128 cr = rb_coeff(h);
    uint32_t want = rb_result(h);
    const uint8_t *p = sol + (size_t)seg * RB_SEG;
    if (bit == 0) {
        for (uint32_t i = 0; i < cols; i++)
            if (rb_parity(rb_load128(p + i * RB_SEG) & cr) != (int)((want >> i) & 1))
                return 0;
        return 1;
    }
    u128 left = cr << bit, right = cr >> (RB_COEFF - bit);
    for (uint32_t i = 0; i < cols; i++) {
        u128 d = (rb_load128(p + i * RB_SEG) & left) ^ (rb_load128(p + (cols + i) * RB_SEG) & right);
        if (rb_parity(d) != (int)((want >> i) & 1))
            return 0;
    }
    return 1;
}

/* FastLocalBloomImpl::AddHash and HashMayMatch on len bytes (whole 64-byte lines). */
static uint8_t *rb_bloom_line(const uint8_t *data, uint64_t len, uint64_t h)
{
    return (uint8_t *)data + (((uint64_t)(uint32_t)(len >> 6) * (uint32_t)h) >> 32 << 6);
}
static void rb_bloom_add(uint8_t *data, uint64_t len, int k, uint64_t h)
{
    uint8_t *line = rb_bloom_line(data, len, h);
    uint32_t x = (uint32_t)(h >> 32);
    for (int i = 0; i < k; i++, x *= UINT32_C(0x9e3779b9))
        line[x >> 26 /* bitpos >> 3 of 9 bits */] |= (uint8_t)(1u << ((x >> 23) & 7));
}
static int rb_bloom_has(const uint8_t *data, uint64_t len, int k, uint64_t h)
{
    const uint8_t *line = rb_bloom_line(data, len, h);
    uint32_t x = (uint32_t)(h >> 32);
    for (int i = 0; i < k; i++, x *= UINT32_C(0x9e3779b9))
        if (!(line[x >> 26] & (1u << ((x >> 23) & 7))))
            return 0;
    return 1;
}

/* The metadata of a filter of shape s into its last 5 bytes (f of s->len + 5 bytes). */
static void rb_meta(uint8_t *f, const rb_shape_t *s, uint32_t ordinal)
{
    uint8_t *m = f + s->len;
    if (s->bloom) {
        m[0] = 0xff, m[1] = 0, m[2] = (uint8_t)s->k, m[3] = 0, m[4] = 0;
    } else {
        m[0] = 0xfe, m[1] = (uint8_t)ordinal;
        m[2] = (uint8_t)s->blocks, m[3] = (uint8_t)(s->blocks >> 8);
        m[4] = (uint8_t)(s->blocks >> 16);
    }
}

/* Finish over the n entries h (adjacent repeats already dropped) into f (at least
 * the shape's len + 5 bytes, which it writes: the shape may become the Bloom fallback):
 * the seeds retried. */
static uint64_t rb_finish(const rb_policy_t *p, rb_band_t *b, const uint64_t *h, uint64_t n,
                          rb_shape_t *s, uint8_t *f)
{
    uint64_t retries = 0;
    if (!s->bloom) {
        uint32_t first = (uint32_t)h[0] & 255, seed = first;
        do {
            if (rb_band_add(b, s, h, n, rb_raw_seed(seed)))
                break;
            retries++;
            seed = (seed + 1) & 255;
        } while (seed != first);
        if (retries == 256) {
            s->bloom = 1, s->len = rb_bloom_len(n, p->millibits), s->k = rb_bloom_k(p->millibits);
        } else {
            memset(f, 0, s->len);
            rb_back_subst(b, s, f);
            rb_meta(f, s, seed);
            return retries;
        }
    }
    memset(f, 0, s->len);
    for (uint64_t j = 0; j < n; j++)
        rb_bloom_add(f, s->len, s->k, h[j]);
    rb_meta(f, s, 0);
    return retries;
}

/* Drops each hash equal to the one before it, in place: the entries AddKey keeps. */
static uint64_t rb_entries(uint64_t *h, uint64_t n)
{
    uint64_t e = 0;
    for (uint64_t j = 0; j < n; j++)
        if (e == 0 || h[j] != h[e - 1])
            h[e++] = h[j];
    return e;
}

int rb_filter_build(const rb_policy_t *p, const uint64_t *h, uint64_t n, uint8_t **out,
                    size_t *len, uint64_t *retries)
{
    uint64_t *e = malloc(n * sizeof *e);
    rb_band_t b = {0};
    rb_shape_t s;
    uint8_t *f = NULL;
    int rc = -1;
    if (!e)
        return -1;
    memcpy(e, h, n * sizeof *e);
    n = rb_entries(e, n);
    rb_shape(p, n, (uint32_t)(e[0] >> 32), &s);
    uint64_t most = s.len > rb_bloom_len(n, p->millibits) ? s.len : rb_bloom_len(n, p->millibits);
    if ((s.bloom || rb_band_reserve(&b, s.slots) == 0) && (f = malloc(most + RB_META))) {
        *retries = rb_finish(p, &b, e, n, &s, f);
        *out = f, *len = s.len + RB_META;
        rc = 0;
    }
    free(e), free(b.coeff), free(b.result);
    return rc;
}

/* The shape a filter's metadata says (GetBuiltinFilterBitsReader): 1 Ribbon (its
 * ordinal seed in *ordinal), 0 Bloom, -1 anything else (an always-true reader). */
static int rb_read_meta(const uint8_t *f, size_t len, rb_shape_t *s, uint32_t *ordinal)
{
    if (len <= RB_META)
        return -1;
    const uint8_t *m = f + len - RB_META;
    memset(s, 0, sizeof *s);
    if (m[0] == 0xfe) {
        uint32_t blocks = m[2] | (uint32_t)m[3] << 8 | (uint32_t)m[4] << 16;
        if (blocks < 2)
            return -1;
        rb_configure(s, blocks, len - RB_META);
        *ordinal = m[1];
        return 1;
    }
    if (m[0] == 0xff && m[1] == 0 && (m[2] >> 5) == 0 && (m[2] & 31) >= 1 && (m[2] & 31) <= 30 &&
        m[3] == 0 && m[4] == 0) {
        s->bloom = 1, s->len = len - RB_META, s->k = m[2] & 31;
        return 0;
    }
    return -1;
}

int rb_filter_query(const uint8_t *f, size_t len, uint64_t h)
{
    rb_shape_t s;
    uint32_t ordinal = 0;
    int kind = rb_read_meta(f, len, &s, &ordinal);
    if (kind < 0)
        return 1;
    return kind ? rb_query(f, &s, rb_raw_seed(ordinal), h) : rb_bloom_has(f, s.len, s.k, h);
}

/* ---- the family: ideal 64-bit key hashes ---- */

/* The design's shapes: the length depends on the first key's hash through the rounding
 * bias; shape[0] for the biases below the switch, shape[1] at and above it, weight the
 * share of hashes that give shape[1] (0 when one shape is all). */
typedef struct rb_shapes {
    rb_policy_t p;
    rb_shape_t shape[2];
    double weight;
} rb_shapes_t;

static int rb_same(const rb_shape_t *a, const rb_shape_t *b)
{
    return a->bloom == b->bloom && a->len == b->len;
}

static void rb_shapes(double bpk, uint64_t n, rb_shapes_t *x)
{
    rb_policy(bpk, &x->p);
    rb_shape(&x->p, n, 0, &x->shape[0]);
    rb_shape(&x->p, n, UINT32_MAX, &x->shape[1]);
    x->weight = 0;
    if (rb_same(&x->shape[0], &x->shape[1]))
        return;
    uint64_t lo = 0, hi = UINT32_MAX; /* the least bias that gives shape[1] */
    while (lo < hi) {
        uint64_t mid = (lo + hi) / 2;
        rb_shape_t s;
        rb_shape(&x->p, n, (uint32_t)mid, &s);
        if (rb_same(&s, &x->shape[1]))
            hi = mid;
        else
            lo = mid + 1;
    }
    x->weight = (4294967296.0 - (double)lo) / 4294967296.0;
}

/* The shape the design's space is counted by: the likelier. */
static const rb_shape_t *rb_main(const rb_shapes_t *x)
{
    return &x->shape[x->weight > 0.5];
}

/* The least bits per key, in RocksDB's millibits, whose target rate 1 / one_in is at
 * most p (the Bloom filter's rate at that setting): the setting a user who wants p of
 * RocksDB's Bloom filter gives the Ribbon filter. 0: none up to 100 bits. */
static double rb_bpk_for(double p)
{
    for (int mb = 1000; mb <= 100000; mb++) {
        rb_policy_t q;
        rb_policy(mb / 1000.0, &q);
        if (1.0 / q.one_in <= p)
            return mb / 1000.0;
    }
    return 0;
}

static int rb_design(const fp_filter_t *f, uint64_t n, double p, double threshold,
                     unsigned bits, fp_design_t *d)
{
    (void)f;
    if (bits)
        return FP_EBITS;
    double bpk = rb_bpk_for(p);
    if (bpk == 0)
        return FP_ERATE;
    (void)n; /* past 950,000,000 keys RocksDB builds its Bloom filter */
    *d = (fp_design_t){.threshold = threshold, .bpk = bpk};
    return FP_OK;
}

static int rb_run(fp_state_t *s)
{
    rb_shapes_t x;
    rb_shapes(s->d.bpk, s->keys, &x);
    s->width = rb_main(&x)->bloom ? 0 : rb_main(&x)->upper;
    s->stored = s->keys;
    return FP_OK;
}

static void rb_space(fp_state_t *s)
{
    rb_shapes_t x;
    rb_shapes(s->d.bpk, s->keys, &x);
    const rb_shape_t *m = rb_main(&x);
    s->slots = m->bloom ? 0 : m->slots;
    s->bits = (m->len + RB_META) * 8;
}

static unsigned rb_new_bits(const fp_state_t *s) { return s->width; }

/* A shape's rate: a Ribbon filter's starts in its first usb blocks meet r = upper - 1
 * result bits, the others r + 1 (ExpectedFpRate); a query hash equal to a stored one
 * (n 2^-64) matches too. The Bloom fallback: its 512-bit lines' exact rate. */
static double rb_shape_rate(const rb_shape_t *s, uint64_t n)
{
    if (s->bloom) {
        double r;
        return rate_blocked_exact(s->len * 8, 512, n, (unsigned)s->k, &r) == RATE_OK ? r : NAN;
    }
    double lower = s->usb * 1.0 * RB_COEFF / s->starts;
    double r = lower * ldexp(1, -(int)(s->upper - 1)) + (1 - lower) * ldexp(1, -(int)s->upper);
    double c = ldexp((double)n, -64);
    return r + c - r * c;
}

static double rb_exact(const fp_state_t *s)
{
    rb_shapes_t x;
    rb_shapes(s->d.bpk, s->keys, &x);
    return (1 - x.weight) * rb_shape_rate(&x.shape[0], s->keys) +
           (x.weight ? x.weight * rb_shape_rate(&x.shape[1], s->keys) : 0);
}

/* Cache lines of 64 bytes a query reads, on average over its starts, with the solution's
 * first byte at a line's start: its block's segments, and the next block's unless it
 * starts a block. The Bloom fallback: 1. */
static double rb_shape_lines(const rb_shape_t *s)
{
    if (s->bloom)
        return 1;
    double lines = 0;
    for (uint32_t b = 0; b < s->blocks; b++) {
        uint64_t seg = (uint64_t)b * s->upper - (b < s->usb ? b : s->usb);
        uint64_t cols = s->upper - (b < s->usb), off = seg * RB_SEG;
        uint64_t starts = b + 1 < s->blocks ? RB_COEFF : s->starts - (uint64_t)b * RB_COEFF;
        uint64_t one = (off + cols * RB_SEG - 1) / 64 - off / 64 + 1;
        uint64_t two = (off + 2 * cols * RB_SEG - 1) / 64 - off / 64 + 1;
        lines += (double)one + (double)(starts - 1) * (double)(b + 1 < s->blocks ? two : one);
    }
    return lines / s->starts;
}

static double rb_places(const fp_state_t *s)
{
    rb_shapes_t x;
    rb_shapes(s->d.bpk, s->keys, &x);
    return (1 - x.weight) * rb_shape_lines(&x.shape[0]) +
           (x.weight ? x.weight * rb_shape_lines(&x.shape[1]) : 0);
}

static double rb_between_var(const fp_state_t *s)
{
    (void)s;
    return 0;
}

static size_t rb_describe_shape(char *buf, size_t len, size_t at, const rb_shape_t *m,
                                uint64_t n)
{
    if (m->bloom)
        return fp_text(buf, len, at, "RocksDB's FastLocalBloom fallback: %llu bytes of 64-byte "
                       "lines, k = %d (Ribbon would take more space, or more than 950,000,000 "
                       "keys)\n", (unsigned long long)m->len, m->k);
    return fp_text(buf, len, at, "%u slots in %u blocks of 128 (%u starts): %u blocks of %u "
                   "result bits, %u of %u; %llu bytes of 16-byte segments (%.4g slots a key)\n",
                   m->slots, m->blocks, m->starts, m->usb, m->upper - 1, m->blocks - m->usb,
                   m->upper, (unsigned long long)m->len, (double)m->slots / (double)n);
}

static size_t rb_describe(const fp_state_t *s, char *buf, size_t len)
{
    rb_shapes_t x;
    rb_shapes(s->d.bpk, s->keys, &x);
    size_t at = fp_text(buf, len, 0, "NewRibbonFilterPolicy(%.3f): millibits %d, RocksDB's "
                        "target rate 1/%.6g (its Bloom filter's at %.3f bits per key)\n",
                        s->d.bpk, x.p.millibits, x.p.one_in, x.p.bpk);
    at = rb_describe_shape(buf, len, at, &x.shape[0], s->keys);
    if (x.weight)
        at = fp_text(buf, len, at, "  (a first key whose hash's upper half rounds up, share "
                     "%.6g of them:) ", x.weight),
        at = rb_describe_shape(buf, len, at, &x.shape[1], s->keys);
    at = fp_text(buf, len, at, "bits = %llu (%.4g bits per key with the 5 metadata bytes), "
                 "%llu bytes; built from exactly its keys, with the next of 256 seeds until "
                 "its banding solves\n", (unsigned long long)s->bits,
                 (double)s->bits / (double)s->keys, (unsigned long long)(s->bits / 8));
    at = fp_text(buf, len, at, "exact            %.17g (%s)\n", rb_exact(s),
                 rb_main(&x)->bloom ? "the Bloom fallback's 512-bit lines"
                                    : "2^-r for a query's r result bits, r and r + 1 mixed by "
                                      "the blocks");
    return fp_text(buf, len, at, "cache lines      %.4g a lookup (64 bytes, the solution "
                   "line-aligned)\n", rb_places(s));
}

/* A built filter of the family: its keys' hashes, the banding and the filter. */
typedef struct rb_table {
    rb_policy_t p;
    uint64_t n;
    uint64_t *h;
    rb_band_t band;
    uint8_t *f;
    rb_shape_t s;
    uint32_t raw;
} rb_table_t;

static double rb_bytes_of(const fp_state_t *s)
{
    rb_shapes_t x;
    rb_shapes(s->d.bpk, s->keys, &x);
    const rb_shape_t *m = rb_main(&x);
    return 8.0 * (double)s->keys + 20.0 * (double)m->slots + 2.0 * (double)(m->len + 64);
}

static void rb_table_free(void *tp)
{
    rb_table_t *t = tp;
    if (!t)
        return;
    free(t->h), free(t->band.coeff), free(t->band.result), free(t->f);
    free(t);
}

static int rb_alloc(void **tp, const fp_state_t *s)
{
    rb_table_t *t = calloc(1, sizeof *t);
    *tp = t;
    if (!t)
        return -1;
    rb_shapes_t x;
    rb_shapes(s->d.bpk, s->keys, &x);
    t->p = x.p, t->n = s->keys;
    uint32_t slots = x.shape[0].slots > x.shape[1].slots ? x.shape[0].slots : x.shape[1].slots;
    uint64_t most = rb_bloom_len(s->keys, x.p.millibits);
    for (int i = 0; i < 2; i++)
        most = x.shape[i].len > most ? x.shape[i].len : most;
    t->h = malloc((s->keys ? s->keys : 1) * sizeof *t->h);
    t->f = malloc(most + RB_META);
    if (!t->h || !t->f || (slots && rb_band_reserve(&t->band, slots)))
        return -1;
    return 0;
}

/* n fresh hashes, the filter RocksDB builds from them; refused: the seeds retried. */
static int rb_build(void *tp, const fp_state_t *s, pcg32_t *r, const scheme_poll_t *poll,
                    uint64_t *refused)
{
    rb_table_t *t = tp;
    (void)s;
    for (uint64_t j = 0; j < t->n; j++) {
        if (scheme_poll_says_stop(poll, j))
            return 1;
        t->h[j] = pcg32_next64(r);
    }
    uint64_t n = rb_entries(t->h, t->n);
    rb_shape(&t->p, n, (uint32_t)(t->h[0] >> 32), &t->s);
    *refused = rb_finish(&t->p, &t->band, t->h, n, &t->s, t->f);
    uint32_t ordinal = 0;
    rb_read_meta(t->f, t->s.len + RB_META, &t->s, &ordinal);
    t->raw = rb_raw_seed(ordinal);
    return 0;
}

static uint64_t rb_lookups(const void *tp, const fp_state_t *s, pcg32_t *r, uint64_t L,
                           const scheme_poll_t *poll)
{
    const rb_table_t *t = tp;
    (void)s;
    uint64_t fp = 0;
    for (uint64_t k = 0; k < L && !scheme_poll_says_stop(poll, k); k++) {
        uint64_t h = pcg32_next64(r);
        fp += (uint64_t)(t->s.bloom ? rb_bloom_has(t->f, t->s.len, t->s.k, h)
                                    : rb_query(t->f, &t->s, t->raw, h));
    }
    return fp;
}

static const fp_ops_t rb_ops = {
    .design = rb_design,
    .run = rb_run,
    .space = rb_space,
    .new_bits = rb_new_bits,
    .exact = rb_exact,
    .places = rb_places,
    .between_var = rb_between_var,
    .describe = rb_describe,
    .table_bytes = rb_bytes_of,
    .table_alloc = rb_alloc,
    .table_free = rb_table_free,
    .build = rb_build,
    .lookups = rb_lookups,
    .retries = 1,
};

/* ---- the library on real keys ---- */

/* A key's Slice: an integer's 8 bytes little-endian (as the adapter of RocksDB's own
 * code passes it), bytes as they are; buf holds 8. */
static const uint8_t *rb_slice(const rkey_t *k, uint8_t *buf, size_t *len)
{
    if (k->kind == KEY_INT) {
        for (int i = 0; i < 8; i++)
            buf[i] = (uint8_t)(k->u >> (8 * i));
        *len = 8;
        return buf;
    }
    *len = k->len;
    return k->bytes;
}

static uint64_t rb_key_hash(const rkey_t *k)
{
    uint8_t buf[8];
    size_t len;
    const uint8_t *in = rb_slice(k, buf, &len);
    return hash_xxph3_64(in, len, 0);
}

/* Bytewise order, as a table file holds its keys. */
static int rb_key_cmp(const void *a, const void *b)
{
    uint8_t ba[8], bb[8];
    size_t la, lb;
    const uint8_t *pa = rb_slice(a, ba, &la), *pb = rb_slice(b, bb, &lb);
    int c = memcmp(pa, pb, la < lb ? la : lb);
    return c ? c : (la > lb) - (la < lb);
}

typedef struct rb_real {
    rb_policy_t p;
    uint8_t *f;
    size_t len;
    uint64_t retries;
} rb_real_t;

static void rb_real_close(void *tp)
{
    rb_real_t *t = tp;
    if (t)
        free(t->f);
    free(t);
}

/* design-bpk N B: the policy (clamped as RocksDB clamps it, said), and M of the filter
 * of N keys 0 .. N - 1 as 8 bytes big-endian, whose first, eight zero bytes, gives the
 * rounding bias. */
static const char *rb_open(void **tp, uint64_t n, double bpk, uint64_t *m, const char **clamp)
{
    rb_policy_t p;
    *tp = NULL;
    *clamp = NULL;
    if (rb_policy(bpk, &p))
        return "bits per key below 0.5: BloomLikeFilterPolicy rounds them down to no filter";
    *clamp = p.clamp;
    rb_real_t *t = calloc(1, sizeof *t);
    if (!t)
        return "out of memory";
    t->p = p;
    static const uint8_t zero[8] = {0};
    rb_shape_t s;
    rb_shape(&p, n, (uint32_t)(hash_xxph3_64(zero, 8, 0) >> 32), &s);
    *m = s.len * 8;
    *tp = t;
    return NULL;
}

/* The table file's filter: the distinct keys in bytewise order, their hashes. */
static int rb_real_build(void *tp, const rkey_t *keys, uint64_t n, const char **why)
{
    rb_real_t *t = tp;
    if (n == 0) {
        *why = "rocksdb writes no filter for a table of no keys";
        return FP_REAL_THROWS;
    }
    rkey_t *sorted = malloc(n * sizeof *sorted);
    uint64_t *h = malloc(n * sizeof *h);
    if (!sorted || !h) {
        free(sorted), free(h);
        *why = "out of memory";
        return FP_REAL_THROWS;
    }
    memcpy(sorted, keys, n * sizeof *keys);
    qsort(sorted, n, sizeof *sorted, rb_key_cmp);
    uint64_t d = 0;
    for (uint64_t j = 0; j < n; j++)
        if (d == 0 || rb_key_cmp(&sorted[d - 1], &sorted[j]) != 0)
            sorted[d++] = sorted[j];
    for (uint64_t j = 0; j < d; j++)
        h[j] = rb_key_hash(&sorted[j]);
    free(sorted);
    free(t->f);
    t->f = NULL;
    int rc = rb_filter_build(&t->p, h, d, &t->f, &t->len, &t->retries);
    free(h);
    if (rc) {
        *why = "out of memory";
        return FP_REAL_THROWS;
    }
    return FP_REAL_STORED;
}

static int rb_real_query(const void *tp, const rkey_t *k, const char **why)
{
    (void)why;
    const rb_real_t *t = tp;
    return rb_filter_query(t->f, t->len, rb_key_hash(k));
}

static void rb_real_bits(const void *tp, uint8_t *out)
{
    const rb_real_t *t = tp;
    memcpy(out, t->f, t->len - RB_META);
}

static uint64_t rb_real_m(const void *tp)
{
    const rb_real_t *t = tp;
    return (uint64_t)(t->len - RB_META) * 8;
}

static uint64_t rb_real_retries(const void *tp) { return ((const rb_real_t *)tp)->retries; }

static const fp_real_t rb_real = {
    .version = "RocksDB 7.8.3 (facebook/rocksdb v7.8.3, Debian librocksdb-dev) "
               "NewRibbonFilterPolicy(bits_per_key) in a block-based table, format_version 5",
    .hash = "XXPH3 64 (RocksDB Hash64, seed 0), then its Ribbon rehash",
    .key_bytes = "integer: its 8 bytes little-endian; bytes: themselves",
    .kinds = KEY_INT | KEY_BYTES,
    .takes = FP_REAL_BPK,
    .at_once = 1,
    .open = rb_open,
    .build = rb_real_build,
    .query = rb_real_query,
    .bits = rb_real_bits,
    .built_m = rb_real_m,
    .retries = rb_real_retries,
    .close = rb_real_close,
};

static const scheme_t scheme = {.name = "rocksdb-ribbon"};

const fp_filter_t fp_filter_rocksdb_ribbon = {
    .name = "rocksdb-ribbon",
    .summary = "RocksDB 7.8.3 NewRibbonFilterPolicy(B): Standard128Ribbon, 128-bit "
               "coefficients, r or r + 1 result bits a slot for the Bloom rate at B "
               "(B from the rate: the Bloom filter's setting); 256 seeds; built at once",
    .ops = &rb_ops,
    .rebuilt = 1, /* built from exactly its keys */
    .scheme = &scheme,
    .real = &rb_real,
    .bits_refusal = "fingerprint bits outside what the filter takes (rocksdb-ribbon takes "
                    "bits per key, NewRibbonFilterPolicy(B), or a rate: none)",
    .rate_refusal = "a rate below RocksDB's target at 100 bits per key, the most "
                    "NewRibbonFilterPolicy takes (7.7e-14)",
};
