/* bloom_filters_xor.c - npm bloom-filters 3.0.4's XorFilter (Callidon/bloom-filters,
 * JavaScript, after FastFilter's Xor8): the family `bloom-filters-xor` (ideal 64-bit keys)
 * and the library on real keys (real.h: `bloomsim adapter bloom-filters-xor`).
 *
 * Source: Callidon/bloom-filters at v3.0.4 (3ba8b3f5), src/bloom/xor-filter.ts:
 *   ALLOWED_FINGERPRINT_SIZES [8, 16], HASHES 3, OFFSET 32, FACTOR_TIMES_100 123 (lines
 *   63-66); the constructor (101-131): bits 8 unless a truthy bits_per_fingerprint, which
 *   must be 8 or 16 (else it throws); _getOptimalFilterSize (238-246): s = floor(123 n /
 *   100) + 32 in Long, less s mod 3, toInt; blockLength = length / 3; has (138-158); add
 *   (172-180): exactly n elements; _fingerprint (276-278): the hash's low bits;
 *   _hashable_to_long (288-290): XXH.h64(element, seed) as a Long; _hash64 (299-309):
 *   MurmurHash3's fmix64 of element + seed; _reduce (317-324): ((hash & 0xffffffff) x
 *   blockLength) >>> 32; _getHash (332-338): the reduction of rotl(hash, 21 index) in block
 *   index; _create (349-449): a new seed this.seed = nextInt32() (whose setter reseeds the
 *   generator with the seed's decimal string: base-filter.ts, lines 55-58), the keys
 *   hashed with it, counted into their three slots (a slot past 120 keys throws), peeled
 *   from the stacks of slots holding one key (block 0's first), again with a new seed
 *   until every key peels; then the slots assigned in reverse peeling order, each the
 *   fingerprint xor the other two slots (read as signed bytes, written as the low bytes of
 *   an int32).
 * with xxhashjs 0.2.2 (a seed's low 32 bits), long 5.3.2 and seedrandom 3.0.5
 * (src/hashes/seedrandom.c; its first generator is seedrandom("78187493520")).
 *
 * What the code makes of it: a query compares one F-bit fingerprint with the xor of three
 * slots, 2^-F whatever the table when the fingerprint is independent of the slots; here
 * the fingerprint is the hash's low F bits and the second slot's reduction reads the
 * hash's bits 0-10 (rotl 21 puts them at the top of its 32), so a second slot fixes 11
 * fingerprint bits once the block has 2^11 slots: the lookups estimator measures what
 * that makes of the rate (no conditional form: the rate given a table is a sum over 2^64
 * hashes). It stores every key or never finishes: repeated keys make _create retry
 * forever (refused here as a throw, as the adapter of its own code refuses them), and a
 * design takes exactly its n keys. Its table is floor(1.23 n) + 32 slots of F bits, at
 * most 2^31 - 1 (toInt); each slot is a Buffer, so the library's memory is far more.
 */
#include "fingerprint/real.h"
#include "fingerprint/registry.h"
#include "hashes/generators.h"
#include "hashes/hashes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BX_RNG_SEED "78187493520"
#define BX_MAX_COUNT 120

/* ---- the table and its build, shared by the family and the real library ---- */

typedef struct bx_table {
    uint64_t n, length, block; /* keys, slots (3 blocks), slots a block */
    unsigned bits;             /* F: 8 or 16 */
    uint16_t *slot;
    int32_t seed;              /* this.seed */
    uint64_t retries;          /* builds that did not peel every key */
    seedrandom_t rng;          /* this._rng */
    /* the build's work */
    uint64_t *key, *t2, *order;
    uint8_t *count, *found;
    uint32_t *alone;           /* three stacks of block slots */
} bx_table_t;

static uint64_t bx_rotl(uint64_t x, unsigned r) { return r ? x << r | x >> (64 - r) : x; }

/* _hash64: fmix64 of element + seed (the seed a signed int32). */
static uint64_t bx_hash64(uint64_t k, int32_t seed)
{
    uint64_t h = k + (uint64_t)(int64_t)seed;
    h = (h ^ h >> 33) * UINT64_C(0xff51afd7ed558ccd);
    h = (h ^ h >> 33) * UINT64_C(0xc4ceb9fe1a85ec53);
    return h ^ h >> 33;
}

/* _getHash(k, seed, index) of the hash h = _hash64(k, seed). */
static uint64_t bx_slot_of(const bx_table_t *t, uint64_t h, unsigned index)
{
    uint64_t r = bx_rotl(h, 21 * index) & UINT32_MAX;
    return (r * t->block >> 32) + index * t->block;
}

static int bx_has(const bx_table_t *t, uint64_t k)
{
    uint64_t h = bx_hash64(k, t->seed);
    unsigned x = (unsigned)h ^ t->slot[bx_slot_of(t, h, 0)] ^ t->slot[bx_slot_of(t, h, 1)] ^
                 t->slot[bx_slot_of(t, h, 2)];
    return (x & ((1u << t->bits) - 1)) == 0;
}

/* _getOptimalFilterSize: the slots for n keys, 0 past toInt's 2^31 - 1. */
static uint64_t bx_length(uint64_t n)
{
    uint64_t s = 123 * n / 100 + 32;
    s -= s % 3;
    return s <= INT32_MAX ? s : 0;
}

static void bx_free(void *tp)
{
    bx_table_t *t = tp;
    if (!t)
        return;
    free(t->slot), free(t->key), free(t->t2), free(t->order);
    free(t->count), free(t->found), free(t->alone);
    free(t);
}

static bx_table_t *bx_new(uint64_t n, unsigned bits)
{
    bx_table_t *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->n = n, t->bits = bits, t->length = bx_length(n), t->block = t->length / 3;
    t->slot = calloc(t->length, sizeof *t->slot);
    t->key = malloc(n * sizeof *t->key), t->order = malloc(n * sizeof *t->order);
    t->found = malloc(n), t->count = malloc(t->length);
    t->t2 = malloc(t->length * sizeof *t->t2), t->alone = malloc(t->length * sizeof *t->alone);
    seedrandom_init(&t->rng, BX_RNG_SEED, strlen(BX_RNG_SEED));
    if (t->slot && t->key && t->order && t->found && t->count && t->t2 && t->alone)
        return t;
    bx_free(t);
    return NULL;
}

/* this.seed = this.nextInt32(): the seed, then the generator of its decimal string. */
static void bx_next_seed(bx_table_t *t)
{
    char s[16];
    t->seed = seedrandom_int32(&t->rng);
    int len = snprintf(s, sizeof s, "%d", (int)t->seed);
    seedrandom_init(&t->rng, s, (size_t)len);
}

/* One try of _create over the keys in t->key (hashed with t->seed): the peeling order in
 * t->order and t->found; returns the keys peeled, or -1 when a slot passes 120 keys. */
static int64_t bx_peel(bx_table_t *t)
{
    uint64_t B = t->block, pos = 0, apos[3] = {0, 0, 0};
    memset(t->count, 0, t->length);
    memset(t->t2, 0, t->length * sizeof *t->t2);
    for (uint64_t j = 0; j < t->n; j++)
        for (unsigned hi = 0; hi < 3; hi++) {
            uint64_t h = bx_slot_of(t, bx_hash64(t->key[j], t->seed), hi);
            t->t2[h] ^= t->key[j];
            if (t->count[h] > BX_MAX_COUNT)
                return -1;
            t->count[h]++;
        }
    for (unsigned hi = 0; hi < 3; hi++) /* alone[hi]: t->alone[hi B ..] */
        for (uint64_t i = 0; i < B; i++)
            if (t->count[hi * B + i] == 1)
                t->alone[hi * B + apos[hi]++] = (uint32_t)(hi * B + i);
    for (;;) {
        unsigned found = 3;
        for (unsigned hi = 0; hi < 3 && found == 3; hi++)
            if (apos[hi] > 0)
                found = hi;
        if (found == 3)
            break;
        uint64_t i = t->alone[found * B + --apos[found]];
        if (t->count[i] == 0)
            continue;
        uint64_t k = t->t2[i], h = bx_hash64(k, t->seed);
        t->count[i]--;
        for (unsigned hi = 0; hi < 3; hi++)
            if (hi != found) {
                uint64_t s = bx_slot_of(t, h, hi);
                if (--t->count[s] == 1)
                    t->alone[hi * B + apos[hi]++] = (uint32_t)s;
                t->t2[s] ^= k;
            }
        t->order[pos] = k, t->found[pos] = (uint8_t)found;
        pos++;
    }
    return (int64_t)pos;
}

/* The assignment, in reverse peeling order: slot = fingerprint ^ the other two. */
static void bx_assign(bx_table_t *t)
{
    for (uint64_t i = t->n; i-- > 0;) {
        uint64_t h = bx_hash64(t->order[i], t->seed), change = 0;
        unsigned x = (unsigned)h & ((1u << t->bits) - 1);
        for (unsigned hi = 0; hi < 3; hi++) {
            uint64_t s = bx_slot_of(t, h, hi);
            if (hi == t->found[i])
                change = s;
            else
                x ^= t->slot[s];
        }
        t->slot[change] = (uint16_t)(x & ((1u << t->bits) - 1));
    }
}

/* ---- the family ---- */

/* bits given: 8 or 16 (0: the fewest of them whose 2^-F meets p). */
static int bx_design(const fp_filter_t *f, uint64_t n, double p, double threshold,
                     unsigned bits, fp_design_t *d)
{
    (void)f;
    if (!bits)
        bits = p >= 1.0 / 256 ? 8 : p >= 1.0 / 65536 ? 16 : 0;
    else if (bits != 8 && bits != 16)
        return FP_EBITS;
    if (!bits)
        return FP_ERATE;
    if (!bx_length(n))
        return FP_EBIG;
    *d = (fp_design_t){.bits = bits, .threshold = threshold, .size = bx_length(n)};
    return FP_OK;
}

static int bx_run(fp_state_t *s)
{
    s->width = s->d.bits;
    s->stored = s->keys;
    return FP_OK;
}

static void bx_space(fp_state_t *s)
{
    s->slots = bx_length(s->keys);
    s->bits = s->slots * s->d.bits;
}

static unsigned bx_new_bits(const fp_state_t *s) { return s->width; }
static double bx_exact(const fp_state_t *s) { return ldexp(1, -(int)s->width); }

static double bx_places(const fp_state_t *s)
{
    (void)s;
    return 3;
}

static double bx_between_var(const fp_state_t *s)
{
    (void)s;
    return 0;
}

static size_t bx_describe(const fp_state_t *s, char *buf, size_t len)
{
    size_t at = fp_text(buf, len, 0, "new XorFilter(%llu, %u): %llu slots (floor(1.23 n) + 32, "
                        "a multiple of 3) in 3 blocks of %llu; a query reads one slot a "
                        "block\n", (unsigned long long)s->keys, s->width,
                        (unsigned long long)s->slots, (unsigned long long)(s->slots / 3));
    at = fp_text(buf, len, at, "bits = %llu (%.4g bits per key), %llu bytes; built from "
                 "exactly its %llu keys, retried with a new seed until they peel\n",
                 (unsigned long long)s->bits, (double)s->bits / (double)s->keys,
                 (unsigned long long)(s->bits / 8), (unsigned long long)s->keys);
    return fp_text(buf, len, at, "exact            %.17g (2^-%u: one fingerprint compared)\n",
                   bx_exact(s), s->width);
}

static double bx_bytes(const fp_state_t *s)
{
    return 15.0 * (double)s->slots + 17.0 * (double)s->keys;
}

static int bx_alloc(void **tp, const fp_state_t *s)
{
    *tp = bx_new(s->keys, s->width);
    return *tp ? 0 : -1;
}

/* The family's keys are ideal 64-bit values, fresh for every try (a new seed hashes the
 * keys anew); refused counts the tries that did not peel. */
static int bx_build(void *tp, const fp_state_t *s, pcg32_t *r, const scheme_poll_t *poll,
                    uint64_t *refused)
{
    bx_table_t *t = tp;
    (void)s;
    memset(t->slot, 0, t->length * sizeof *t->slot);
    *refused = 0;
    for (;;) {
        for (uint64_t j = 0; j < t->n; j++) {
            if (scheme_poll_says_stop(poll, j))
                return 1;
            t->key[j] = pcg32_next64(r);
        }
        if (bx_peel(t) == (int64_t)t->n)
            break;
        ++*refused;
    }
    bx_assign(t);
    return 0;
}

static uint64_t bx_lookups(const void *tp, const fp_state_t *s, pcg32_t *r, uint64_t L,
                           const scheme_poll_t *poll)
{
    (void)s;
    uint64_t fp = 0;
    for (uint64_t k = 0; k < L && !scheme_poll_says_stop(poll, k); k++)
        fp += (uint64_t)bx_has(tp, pcg32_next64(r));
    return fp;
}

static const fp_ops_t bx_ops = {
    .design = bx_design,
    .run = bx_run,
    .space = bx_space,
    .new_bits = bx_new_bits,
    .exact = bx_exact,
    .places = bx_places,
    .between_var = bx_between_var,
    .describe = bx_describe,
    .table_bytes = bx_bytes,
    .table_alloc = bx_alloc,
    .table_free = bx_free,
    .build = bx_build,
    .lookups = bx_lookups,
    .retries = 1,
};

/* ---- the library on real keys ---- */

/* A key's bytes: an integer's decimal string, a string's UTF-8 (into buf, 24 bytes). */
static const uint8_t *bx_bytes_of(const rkey_t *k, char *buf, size_t *len)
{
    if (k->kind == KEY_INT) {
        *len = key_format_u64(k->u, buf);
        return (const uint8_t *)buf;
    }
    *len = k->len;
    return k->bytes;
}

/* _hashable_to_long(element, seed): XXH64 with the seed's low 32 bits. */
static uint64_t bx_key_long(const rkey_t *k, int32_t seed)
{
    char buf[24];
    size_t len;
    const uint8_t *in = bx_bytes_of(k, buf, &len);
    return hash_xxh64(in, len, (uint32_t)seed);
}

/* design-fp N F: new XorFilter(N, F): F 0 is its default 8. */
static const char *bx_open(void **tp, uint64_t n, double bits, uint64_t *m,
                          const char **clamp)
{
    static char why[96];
    *tp = NULL;
    *clamp = NULL;
    if (bits == 0) {
        bits = 8;
        *clamp = "fingerprint bits 0 is new XorFilter's default, 8 (a falsy bits_per_fingerprint)";
    }
    if (bits != 8 && bits != 16) {
        snprintf(why, sizeof why, "bits_per_fingerprint parameter must be one of: [8,16], "
                                  "got: %.0f", bits);
        return why;
    }
    if (!bx_length(n))
        return "RangeError: Invalid array length (toInt of more than 2^31 - 1 slots)";
    bx_table_t *t = bx_new(n, (unsigned)bits);
    if (!t)
        return "out of memory";
    *tp = t;
    *m = t->length * t->bits;
    return NULL;
}

static int bx_key_cmp(const void *a, const void *b)
{
    const rkey_t *x = a, *y = b;
    char bx[24], by[24];
    size_t lx, ly;
    const uint8_t *px = bx_bytes_of(x, bx, &lx), *py = bx_bytes_of(y, by, &ly);
    int c = memcmp(px, py, lx < ly ? lx : ly);
    return c ? c : (lx > ly) - (lx < ly);
}

/* add(keys): exactly n of them, none repeated; tries until every key peels. */
static int bx_real_build(void *tp, const rkey_t *keys, uint64_t n, const char **why)
{
    static char msg[96];
    bx_table_t *t = tp;
    if (n != t->n) {
        snprintf(msg, sizeof msg, "This filter has been created for exactly %llu elements",
                 (unsigned long long)t->n);
        *why = msg;
        return FP_REAL_THROWS;
    }
    rkey_t *sorted = malloc((n ? n : 1) * sizeof *sorted);
    if (!sorted) {
        *why = "out of memory";
        return FP_REAL_THROWS;
    }
    memcpy(sorted, keys, n * sizeof *keys);
    qsort(sorted, n, sizeof *sorted, bx_key_cmp);
    for (uint64_t j = 1; j < n; j++)
        if (bx_key_cmp(&sorted[j - 1], &sorted[j]) == 0) {
            free(sorted);
            *why = "a repeated key: XorFilter's _create would retry forever";
            return FP_REAL_THROWS;
        }
    free(sorted);
    int64_t peeled;
    for (t->retries = 0;; t->retries++) {
        bx_next_seed(t);
        for (uint64_t j = 0; j < n; j++)
            t->key[j] = bx_key_long(&keys[j], t->seed);
        if ((peeled = bx_peel(t)) < 0) {
            *why = "Probably something wrong with the hash function (a slot of 121 keys)";
            return FP_REAL_THROWS;
        }
        if ((uint64_t)peeled == n)
            break;
    }
    bx_assign(t);
    return FP_REAL_STORED;
}

static int bx_real_query(const void *tp, const rkey_t *k, const char **why)
{
    (void)why;
    const bx_table_t *t = tp;
    return bx_has(t, bx_key_long(k, t->seed));
}

/* ._filter's Buffers in order: slot i's F / 8 bytes little-endian. */
static void bx_real_bits(const void *tp, uint8_t *out)
{
    const bx_table_t *t = tp;
    for (uint64_t i = 0; i < t->length; i++) {
        out[i * t->bits / 8] = (uint8_t)t->slot[i];
        if (t->bits == 16)
            out[2 * i + 1] = (uint8_t)(t->slot[i] >> 8);
    }
}

static uint64_t bx_real_retries(const void *tp) { return ((const bx_table_t *)tp)->retries; }

static const fp_real_t bx_real = {
    .version = "npm bloom-filters 3.0.4 (Callidon/bloom-filters 3ba8b3f5) new XorFilter(n, "
               "bits), add, has; seedrandom 3.0.5",
    .hash = "XXH64 (xxhashjs) with the build's seed, then fmix64",
    .key_bytes = "integer: its decimal string; string: its UTF-8",
    .kinds = KEY_INT | KEY_TEXT | KEY_BYTES,
    .takes = FP_REAL_BITS,
    .at_once = 1,
    .open = bx_open,
    .build = bx_real_build,
    .query = bx_real_query,
    .bits = bx_real_bits,
    .retries = bx_real_retries,
    .close = bx_free,
};

static const scheme_t scheme = {.name = "bloom-filters-xor"};

const fp_filter_t fp_filter_bloom_filters_xor = {
    .name = "bloom-filters-xor",
    .summary = "npm bloom-filters 3.0.4 XorFilter(n, 8 | 16): floor(1.23 n) + 32 slots of 8 or "
               "16 bits, 3 a query; built at once, retried until it peels",
    .ops = &bx_ops,
    .rebuilt = 1, /* built from exactly its keys */
    .scheme = &scheme,
    .real = &bx_real,
    .bits_refusal = "fingerprint bits outside what the filter takes (bloom-filters-xor: 8 or "
                    "16)",
};
