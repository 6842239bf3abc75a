/* bloom_filters_cuckoo.c - npm bloom-filters 3.0.4's CuckooFilter (Callidon/bloom-filters,
 * JavaScript): the family `bloom-filters-cuckoo` (ideal 32-bit hashes) and the library on
 * real keys (real.h: `bloomsim adapter bloom-filters-cuckoo`).
 *
 * Source: Callidon/bloom-filters at v3.0.4 (3ba8b3f5), src/:
 *   cuckoo/cuckoo-filter.ts  computeFingerpintLength: L = ceil(ceil(log2(1/p) +
 *                            log2(2 b)) / 8) (lines 39-42), in hex digits though its
 *                            comment says bytes; create(n, p, b = 4, kicks = 500):
 *                            ceil(n / b / 0.955) buckets (144-153); add (233-290): the
 *                            first bucket with room, then the second, else a random one of
 *                            the two (random() < 0.5) and up to 500 kicks of a random slot
 *                            (randomInt(0, length - 1)) whose fingerprint moves to
 *                            |index ^ hash(fp)| mod size; after 500, every move undone and
 *                            false; has (333-339); _locations (372-390): the fingerprint is
 *                            the first L characters of the hash's hex string, the first
 *                            bucket hash mod size, the second |hash ^ hash(fp)| mod size
 *   cuckoo/bucket.ts         add: the first null slot (lines 82-89); has: indexOf
 *   hashing/hashing.ts       serialize: Number(XXH.h64(e, seed).toNumber()) (line 149),
 *                            cuint's toNumber the low 32 bits (src/libraries/
 *                            bloom_filters.c); hashAsInt (223-228)
 *   utils.ts                 numberToHex: toString(16), zeros in front to a multiple of 4
 *                            digits (97-103); randomInt: floor(random() (max - min + 1))
 *                            + min (114-126); getDefaultSeed 0x1234567890 (179-181)
 *   base-filter.ts           _rng = seedrandom(`${seed}`) (lines 39-43): "78187493520"
 * with xxhashjs 0.2.2 (the seed's low 32 bits, 0x34567890) and seedrandom 3.0.5
 * (src/hashes/seedrandom.c).
 *
 * What the code makes of it:
 *   - the fingerprint has 4 L bits (L hex digits, where L was meant as bytes): 8 bits at
 *     every rate from 3.1% to 0.012% (f = 6 to 16 bits asked), so 0.1% is promised with
 *     the fingerprint of about 2.3%; 12 bits from 0.012% to 0.00005%;
 *   - the fingerprint, its buckets and everything else come from one 32-bit hash H: two
 *     keys with one H are one key to it (a floor of n / 2^32), and the fingerprint is H's
 *     top 4 L bits while the first bucket is H mod size: past 2^(32 - 4 L) buckets a
 *     fingerprint meets only some of them (the ideal-word model measures it);
 *   - a kick moves a fingerprint from bucket i to |i ^ hash(fp)| mod size, where its
 *     key's lookup asks |H ^ hash(fp)| mod size and H mod size: the xor is taken before
 *     the reduction in one and after it in the other, and a negative int32 is made
 *     positive, so the kicked fingerprint almost never lands in a bucket its key asks.
 *     Its key is lost (a false negative), even when the insert that kicked it succeeds;
 *   - a failed add (500 kicks) undoes its moves and returns false: the key is not stored.
 *   - from L = 5 digits (p below about 2^-29) add and has throw for a hash below 2^16,
 *     whose hex string has 4 digits; past 8 for every key.
 * Slots hold the fingerprint's value + 1 (0: null), so that "00" stays a fingerprint.
 */
#include "fingerprint/real.h"
#include "fingerprint/registry.h"
#include "fingerprint/sort.h"
#include "hashes/generators.h"
#include "hashes/hashes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BC_SLOTS 4
#define BC_KICKS 500
#define BC_SEED 0x34567890u        /* 0x1234567890's low 32 bits (xxhashjs's UINT64) */
#define BC_RNG_SEED "78187493520"  /* `${0x1234567890}` */
#define BC_MAX_DIGITS 8            /* numberToHex of 32 bits: at most 8 digits */

/* ---- the table, shared by the family and the real library ---- */

typedef struct bc_table {
    uint64_t size;         /* buckets */
    unsigned digits;       /* L */
    uint64_t *slot;        /* BC_SLOTS size slots: the fingerprint's value + 1, 0 null */
    uint32_t *alt;         /* hash(fp) for each of the 16^L fingerprints (L <= 4), or NULL */
    seedrandom_t rng;      /* the real library's generator */
    pcg32_t *pcg;          /* the family's stream, while it builds */
    uint64_t *log;         /* add's moves, to undo them: slot index and old value */
    uint64_t *pairs;       /* the conditional rate's work: (tag, bucket) of every slot */
} bc_table_t;

/* The first L digits of numberToHex(h) as a value, or -1 when the string is shorter. */
static int64_t bc_tag(uint32_t h, unsigned L)
{
    unsigned len = 1;
    while (len < 8 && h >> (4 * len))
        len++;
    len = (len + 3) / 4 * 4;
    return L > len ? -1 : (int64_t)(h >> (4 * (len - L)));
}

/* hashAsInt of the fingerprint string (its L lowercase hex digits). */
static uint32_t bc_hash_tag(uint32_t tag, unsigned L)
{
    char s[BC_MAX_DIGITS + 1];
    snprintf(s, sizeof s, "%0*x", (int)L, tag);
    return (uint32_t)hash_xxh64(s, L, BC_SEED);
}

static uint32_t bc_alt_hash(const bc_table_t *t, uint32_t tag)
{
    return t->alt ? t->alt[tag] : bc_hash_tag(tag, t->digits);
}

/* |index ^ h| mod size, with JavaScript's int32 xor. */
static uint64_t bc_move(const bc_table_t *t, uint32_t index, uint32_t h)
{
    int32_t x = (int32_t)(index ^ h);
    return (x < 0 ? -(int64_t)x : (int64_t)x) % (int64_t)t->size;
}

static int bc_table_init(bc_table_t *t, uint64_t size, unsigned L)
{
    memset(t, 0, sizeof *t);
    t->size = size, t->digits = L;
    t->slot = calloc(BC_SLOTS * size, sizeof *t->slot);
    t->log = malloc(2 * BC_KICKS * sizeof *t->log);
    if (L <= 4 && (t->alt = malloc(((size_t)1 << (4 * L)) * sizeof *t->alt)))
        for (uint32_t v = 0; v < (UINT32_C(1) << (4 * L)); v++)
            t->alt[v] = bc_hash_tag(v, L);
    return t->slot && t->log && (L > 4 || t->alt) ? 0 : -1;
}

static void bc_table_free(void *tp)
{
    bc_table_t *t = tp;
    if (!t)
        return;
    free(t->slot);
    free(t->alt);
    free(t->log);
    free(t->pairs);
    free(t);
}

/* random(): the real library's prng(), or the family's stream. */
static double bc_random(bc_table_t *t)
{
    return t->pcg ? ldexp((double)(pcg32_next64(t->pcg) >> 11), -53)
                  : seedrandom_double(&t->rng);
}

/* A key's first and second buckets and its fingerprint (_locations), from its hash. */
typedef struct bc_where {
    uint64_t i1, i2;
    uint32_t tag;
} bc_where_t;

static int bc_where(const bc_table_t *t, uint32_t h, bc_where_t *w)
{
    int64_t tag = bc_tag(h, t->digits);
    if (tag < 0)
        return -1;
    w->tag = (uint32_t)tag;
    w->i1 = h % t->size;
    w->i2 = bc_move(t, h, bc_alt_hash(t, w->tag));
    return 0;
}

/* Bucket.add: the first null slot; 0 when full. */
static int bc_put(bc_table_t *t, uint64_t i, uint32_t tag)
{
    uint64_t *b = t->slot + BC_SLOTS * i;
    for (unsigned j = 0; j < BC_SLOTS; j++)
        if (!b[j]) {
            b[j] = (uint64_t)tag + 1;
            return 1;
        }
    return 0;
}

/* add: 1 stored, 0 failed (every move undone). */
static int bc_add(bc_table_t *t, const bc_where_t *w)
{
    if (bc_put(t, w->i1, w->tag) || bc_put(t, w->i2, w->tag))
        return 1;
    uint64_t index = bc_random(t) < 0.5 ? w->i1 : w->i2, moved = (uint64_t)w->tag + 1;
    for (unsigned k = 0; k < BC_KICKS; k++) {
        unsigned j = (unsigned)floor(bc_random(t) * BC_SLOTS);
        uint64_t at = BC_SLOTS * index + j, old = t->slot[at];
        t->log[2 * k] = at, t->log[2 * k + 1] = old;
        t->slot[at] = moved;
        moved = old;
        index = bc_move(t, (uint32_t)index, bc_alt_hash(t, (uint32_t)(moved - 1)));
        if (bc_put(t, index, (uint32_t)(moved - 1)))
            return 1;
    }
    for (unsigned k = BC_KICKS; k-- > 0;)
        t->slot[t->log[2 * k]] = t->log[2 * k + 1];
    return 0;
}

static int bc_in(const bc_table_t *t, uint64_t i, uint32_t tag)
{
    const uint64_t *b = t->slot + BC_SLOTS * i, v = (uint64_t)tag + 1;
    return b[0] == v || b[1] == v || b[2] == v || b[3] == v;
}

static int bc_has(const bc_table_t *t, const bc_where_t *w)
{
    return bc_in(t, w->i1, w->tag) || bc_in(t, w->i2, w->tag);
}

/* ---- the design ---- */

/* create(n, p): its buckets and hex digits. */
static uint64_t bc_buckets(uint64_t n)
{
    return (uint64_t)ceil((double)n / BC_SLOTS / 0.955);
}

static unsigned bc_digits(double p)
{
    double f = ceil(log2(1 / p) + log2(2.0 * BC_SLOTS));
    return (unsigned)ceil(f / 8);
}

/* ---- the family: rates ---- */

/* P(tag = 0) and P(tag = v) for v > 0, L <= 4, over uniform 32-bit hashes: a hash at or
 * past 2^16 gives its top 4L bits, one below 2^16 the top 4L of its 16 (numberToHex's
 * four digits): 2^(32-4L) + 2^(16-4L) hashes a tag, less the 2^16 low ones for tag 0. */
static void bc_tag_odds(unsigned L, double *p0, double *pv)
{
    double hi = ldexp(1, 32 - 4 * (int)L), lo = ldexp(1, 16 - 4 * (int)L);
    *p0 = (hi - 65536 + lo) / 4294967296.0;
    *pv = (hi + lo) / 4294967296.0;
}

/* With n keys stored in independent buckets, independent of their tags: 1 - sum_v P(v) (1
 * - P(v) c / size)^n, c = 2 - 1/size the chance a stored slot is one of a query's two
 * buckets, times size. The library departs from it where its tag and first bucket share
 * the hash (past 2^(32 - 4L) buckets) and by its kicks: the lookups estimator and the
 * conditional rate measure both. */
static double bc_exact(const fp_state_t *s)
{
    double p0, pv, n = (double)s->keys, z = (double)s->d.size, c = (2 - 1 / z) / z;
    unsigned L = s->width / 4;
    bc_tag_odds(L, &p0, &pv);
    double tags = ldexp(1, 4 * (int)L);
    double miss = p0 * (1 - fp_one_minus_pow(p0 * c, n)) +
                  (tags - 1) * pv * (1 - fp_one_minus_pow(pv * c, n));
    return 1 - miss;
}

static double bc_places(const fp_state_t *s)
{
    (void)s;
    return 2;
}

static double bc_between_var(const fp_state_t *s)
{
    double p0, pv, n = (double)s->keys, z = (double)s->d.size;
    bc_tag_odds(s->width / 4, &p0, &pv);
    return n * n / 2 * ldexp(1, (int)s->width) * 8 * pow(pv, 4) / (z * z * z);
}

/* create(n, p) (bits 0), or its buckets with 4 L = bits given (4 to 16). */
static int bc_design(const fp_filter_t *f, uint64_t n, double p, double threshold,
                     unsigned bits, fp_design_t *d)
{
    (void)f;
    unsigned L = bits ? bits / 4 : bc_digits(p);
    if ((bits && bits % 4) || L < 1 || L > 4)
        return FP_EBITS;
    uint64_t z = bc_buckets(n);
    if (z > UINT64_C(1) << FP_MAX_Q)
        return FP_EBIG;
    *d = (fp_design_t){.bits = 4 * L, .threshold = threshold, .size = z};
    return FP_OK;
}

static int bc_run(fp_state_t *s)
{
    s->width = s->d.bits;
    s->stored = s->keys;
    return FP_OK;
}

/* Each slot a fingerprint of 4 L bits and one bit for null (a string or null). */
static void bc_space(fp_state_t *s)
{
    s->slots = BC_SLOTS * s->d.size;
    s->bits = s->slots * (s->d.bits + 1);
}

static unsigned bc_new_bits(const fp_state_t *s) { return s->width; }

static size_t bc_describe(const fp_state_t *s, char *buf, size_t len)
{
    size_t at = fp_text(buf, len, 0, "create: %llu buckets of 4 slots (%llu slots, load %.4g), "
                        "two candidate buckets a key\n", (unsigned long long)s->d.size,
                        (unsigned long long)s->slots, (double)s->keys / (double)s->slots);
    at = fp_text(buf, len, at, "fingerprint of %u hex digits = %u bits (the first digits of "
                 "a 32-bit hash), slot %u bits with its null\n", s->width / 4, s->width,
                 s->width + 1);
    at = fp_text(buf, len, at, "bits = %llu (%.4g bits per key), %llu bytes\n",
                 (unsigned long long)s->bits, (double)s->bits / (double)s->keys,
                 (unsigned long long)((s->bits + 7) / 8));
    return fp_text(buf, len, at, "exact            %.17g (every key stored, buckets "
                   "independent of tags; kicked keys are lost)\n", bc_exact(s));
}

/* ---- the family: one built filter ---- */

static double bc_bytes(const fp_state_t *s)
{
    return 16.0 * BC_SLOTS * (double)s->d.size + 4.0 * ldexp(1, (int)s->width);
}

static int bc_alloc(void **tp, const fp_state_t *s)
{
    bc_table_t *t = malloc(sizeof *t);
    *tp = t;
    if (!t || bc_table_init(t, s->d.size, s->width / 4))
        return -1;
    t->pairs = malloc(BC_SLOTS * s->d.size * sizeof *t->pairs);
    return t->pairs ? 0 : -1;
}

static int bc_build(void *tp, const fp_state_t *s, pcg32_t *r, const scheme_poll_t *poll,
                    uint64_t *refused)
{
    bc_table_t *t = tp;
    memset(t->slot, 0, BC_SLOTS * t->size * sizeof *t->slot);
    t->pcg = r;
    *refused = 0;
    for (uint64_t k = 0; k < s->keys; k++) {
        if (scheme_poll_says_stop(poll, k))
            return 1;
        bc_where_t w = {0};
        bc_where(t, pcg32_next(r), &w); /* L <= 4: never short */
        *refused += !bc_add(t, &w);
    }
    t->pcg = NULL;
    return 0;
}

static uint64_t bc_lookups(const void *tp, const fp_state_t *s, pcg32_t *r, uint64_t L,
                           const scheme_poll_t *poll)
{
    (void)s;
    uint64_t fp = 0;
    for (uint64_t k = 0; k < L && !scheme_poll_says_stop(poll, k); k++) {
        bc_where_t w = {0};
        bc_where(tp, pcg32_next(r), &w);
        fp += (uint64_t)bc_has(tp, &w);
    }
    return fp;
}

/* The built filter's exact rate over all 2^32 hashes (a query is its hash), tag by tag.
 * The hashes of tag v are aligned blocks (the top 4L bits of those past 2^16, the top 4L
 * of 16 of those below, less the hashes below 2^16 for v = 0); in a block, a hash h
 * answers yes when v is in bucket h mod size (A) or in g(h) = |int32(h ^ hash(v))| mod
 * size (C). A counts, for each bucket holding v, the block's hashes of its residue; the
 * xor maps an aligned block onto an aligned block, and |int32| that onto an interval, so
 * C counts residues in an interval the same way; the hashes in both (D) are enumerated
 * from A's. Cost: about (load x 4) 2^(32 - 4L) checks a filter. */
FP_SORT_DEFINE(bc_sort, uint64_t)

/* Hashes h in [0, x) with h mod size = b. */
static uint64_t bc_below(uint64_t x, uint64_t b, uint64_t size)
{
    return x > b ? (x - b - 1) / size + 1 : 0;
}

/* The hashes of the block [a, a + 2^k) that find tag v, held in buckets bs[0..nb). */
static uint64_t bc_block(const bc_table_t *t, uint64_t a, unsigned k, uint32_t v,
                         const uint64_t *bs, size_t nb)
{
    uint64_t len = UINT64_C(1) << k, alpha = bc_alt_hash(t, v), x = a ^ (alpha & ~(len - 1));
    uint64_t lo = x < (UINT64_C(1) << 31) ? x : (UINT64_C(1) << 32) - x - len + 1;
    uint64_t yes = 0, both = 0;
    for (size_t i = 0; i < nb; i++) {
        uint64_t b = bs[i] & ((UINT64_C(1) << 40) - 1);
        yes += bc_below(a + len, b, t->size) - bc_below(a, b, t->size);
        yes += bc_below(lo + len, b, t->size) - bc_below(lo, b, t->size);
        uint64_t h = a + (b + t->size - a % t->size) % t->size;
        for (; h < a + len; h += t->size)
            both += (uint64_t)bc_in(t, bc_move(t, (uint32_t)h, (uint32_t)alpha), v);
    }
    return yes - both;
}

static double bc_conditional(void *tp, const fp_state_t *s, const scheme_poll_t *poll)
{
    bc_table_t *t = tp;
    unsigned L = t->digits, w = 32 - 4 * L;
    (void)s;
    size_t np = 0;
    uint64_t *e = t->pairs;
    for (uint64_t i = 0; i < BC_SLOTS * t->size; i++) /* (tag, bucket), tag first */
        if (t->slot[i])
            e[np++] = (t->slot[i] - 1) << 40 | i / BC_SLOTS;
    if (bc_sort(e, np, poll))
        return 0;
    uint64_t yes = 0;
    for (size_t i = 0, j; i < np; i = j) {
        uint32_t v = (uint32_t)(e[i] >> 40);
        for (j = i + 1; j < np && e[j] >> 40 == v; j++)
            ;
        if (scheme_poll_says_stop(poll, i + 1))
            return 0;
        size_t nb = 0; /* the distinct buckets holding v, in e[i..i + nb) */
        for (size_t x = i; x < j; x++)
            if (x == i || e[x] != e[x - 1])
                e[i + nb++] = e[x];
        yes += bc_block(t, (uint64_t)v << (16 - 4 * L), 16 - 4 * L, v, e + i, nb);
        if (v)
            yes += bc_block(t, (uint64_t)v << w, w, v, e + i, nb);
        else
            for (unsigned k = 16; k < w; k++)
                yes += bc_block(t, UINT64_C(1) << k, k, v, e + i, nb);
    }
    return ldexp((double)yes, -32);
}

static const fp_ops_t bc_ops = {
    .design = bc_design,
    .run = bc_run,
    .space = bc_space,
    .new_bits = bc_new_bits,
    .exact = bc_exact,
    .places = bc_places,
    .between_var = bc_between_var,
    .describe = bc_describe,
    .table_bytes = bc_bytes,
    .table_alloc = bc_alloc,
    .table_free = bc_table_free,
    .build = bc_build,
    .lookups = bc_lookups,
    .conditional = bc_conditional,
};

/* ---- the library on real keys ---- */

/* serialize(key, seed): the low 32 bits of XXH64 of its bytes (an integer's decimal
 * string, a string's UTF-8). */
static uint32_t bc_key_hash(const rkey_t *k)
{
    char buf[24];
    const uint8_t *in = k->bytes;
    size_t len = k->len;
    if (k->kind == KEY_INT) {
        len = key_format_u64(k->u, buf);
        in = (const uint8_t *)buf;
    }
    return (uint32_t)hash_xxh64(in, len, BC_SEED);
}

static const char *bc_short = "The fingerprint length is higher than the hash length "
                              "(_locations: its hex string has 4 digits)";

/* design N P: create(N, P). Node holds at most 2^32 - 1 elements in an array. */
static const char *bc_open(void **tp, uint64_t n, double p, uint64_t *m,
                          const char **clamp)
{
    *tp = NULL;
    *clamp = NULL;
    uint64_t z = bc_buckets(n);
    unsigned L = bc_digits(p);
    if (z > UINT32_MAX)
        return "RangeError: Invalid array length (more than 2^32 - 1 buckets)";
    bc_table_t *t = malloc(sizeof *t);
    if (!t || bc_table_init(t, z, L > BC_MAX_DIGITS ? BC_MAX_DIGITS : L)) {
        bc_table_free(t);
        return "out of memory";
    }
    t->digits = L;
    seedrandom_init(&t->rng, BC_RNG_SEED, strlen(BC_RNG_SEED));
    *tp = t;
    *m = BC_SLOTS * z * (4 * (uint64_t)L + 1);
    return NULL;
}

static int bc_real_insert(void *tp, const rkey_t *k, const char **why)
{
    bc_where_t w;
    if (bc_where(tp, bc_key_hash(k), &w)) {
        *why = bc_short;
        return FP_REAL_THROWS;
    }
    return bc_add(tp, &w) ? FP_REAL_STORED : FP_REAL_FAILED;
}

static int bc_real_query(const void *tp, const rkey_t *k, const char **why)
{
    bc_where_t w;
    if (bc_where(tp, bc_key_hash(k), &w)) {
        *why = bc_short;
        return FP_REAL_THROWS;
    }
    return bc_has(tp, &w);
}

/* Slot s (bucket s / 4, slot s mod 4) at bits s W .. s W + W - 1, W = 4 L + 1, least
 * significant first: the fingerprint's value, then 1 where the slot holds one. */
static void bc_real_bits(const void *tp, uint8_t *out)
{
    const bc_table_t *t = tp;
    uint64_t W = 4 * (uint64_t)t->digits + 1, slots = BC_SLOTS * t->size;
    memset(out, 0, (slots * W + 7) / 8);
    for (uint64_t s = 0; s < slots; s++) {
        if (!t->slot[s])
            continue;
        uint64_t v = (t->slot[s] - 1) | UINT64_C(1) << (W - 1);
        for (uint64_t b = 0; b < W; b++)
            if (v >> b & 1)
                out[(s * W + b) / 8] |= (uint8_t)(1u << ((s * W + b) % 8));
    }
}

static const fp_real_t bc_real = {
    .version = "npm bloom-filters 3.0.4 (Callidon/bloom-filters 3ba8b3f5) CuckooFilter.create, "
               "add, has; seedrandom 3.0.5",
    .hash = "XXH64 (xxhashjs), seed 0x34567890, low 32 bits; fingerprints as hex digits",
    .key_bytes = "integer: its decimal string; string: its UTF-8",
    .kinds = KEY_INT | KEY_TEXT | KEY_BYTES,
    .takes = FP_REAL_RATE,
    .open = bc_open,
    .insert = bc_real_insert,
    .query = bc_real_query,
    .bits = bc_real_bits,
    .close = bc_table_free,
};

static const scheme_t scheme = {.name = "bloom-filters-cuckoo"};

const fp_filter_t fp_filter_bloom_filters_cuckoo = {
    .name = "bloom-filters-cuckoo",
    .summary = "npm bloom-filters 3.0.4 CuckooFilter.create(n, p): ceil(n/3.82) buckets of 4, "
               "fingerprints of 4 ceil(f/8) bits (hex digits), 500 kicks",
    .ops = &bc_ops,
    .scheme = &scheme,
    .real = &bc_real,
    .bits_refusal = "fingerprint bits outside what the filter takes (bloom-filters-cuckoo: 4, "
                    "8, 12 or 16, 1 to 4 hex digits of its 32-bit hash; from 5 its add throws "
                    "for some keys)",
};
