/* redisbloom_cuckoo.c - RedisBloom's cuckoo filter (CF.RESERVE, CF.ADD, CF.EXISTS): a chain
 * of cuckoo filters of one-byte fingerprints that adds a filter each time an insert finds
 * no room after its kicks, the family `redisbloom-cuckoo` (ideal 64-bit hashes) and the
 * library on real keys (real.h: `bloomsim adapter redisbloom-cuckoo`).
 * long: one family in one file (docs/extending.md): the chain as the library runs it, its
 * design and refusals, its exact and conditional rates, the library on real keys, and the
 * names that give CF.RESERVE's parameters (redisbloom-cuckoo/E/B/I).
 *
 * Source: RedisBloom/RedisBloom at 03077b46 (2025-07-10), files of its src/ folder:
 *   cuckoo.h         CF_DEFAULT_MAX_ITERATIONS 20, CF_DEFAULT_BUCKETSIZE 2,
 *                    CF_DEFAULT_EXPANSION 1, CF_MAX_EXPANSION 32768, CF_MAX_ITERATIONS
 *                    65535, CF_MAX_BUCKET_SIZE 255, CF_MAX_NUM_BUCKETS 2^56 - 1 (lines
 *                    27-33); slots are uint8_t, 0 empty (CUCKOO_NULLFP, 19-25); the hash
 *                    CUCKOO_GEN_HASH(s, n) = MurmurHash64A_Bloom(s, n, 0) (53)
 *   cuckoo.c         getNextN2 (28-38); CuckooFilter_Init: expansion = getNextN2(expansion)
 *                    (0 stays 0: no growth), numBuckets = getNextN2(capacity / bucketSize),
 *                    at least 1 (40-56); CuckooFilter_Grow: filter j has numBuckets *
 *                    expansion^j buckets, refused past 2^56 - 1 (68-105); getAltHash:
 *                    index ^ (fp * 0x5bd1e995) (113-115); getLookupParams: fp = hash % 255
 *                    + 1, h1 = hash, h2 = getAltHash(fp, h1) (117-122); SubCF_GetIndex:
 *                    (hash % numBuckets) * bucketSize as uint32_t (124-126); a lookup asks
 *                    every filter, oldest first, both buckets (137-176); an insert takes
 *                    the first empty slot of h1's bucket, then h2's, in each filter from
 *                    the newest to the oldest (223-255), else kicks in the newest filter
 *                    only: from bucket h1 % numBuckets, slot victimIx (0, then the next
 *                    each kick), the homeless fingerprint goes to getAltHash(fp, i) %
 *                    numBuckets, maxIterations times; on failure every swap is undone
 *                    (298-335), a filter added (expansion 0: "Filter is full") and the
 *                    insert retried, which the new, empty filter takes (257-275);
 *                    CuckooFilter_InsertUnique (CF.ADDNX): nothing when a lookup says
 *                    present (283-290)
 *   rebloom.c        CFDefaultInitCapacity 1024, CFMaxExpansions 32 (lines 38-39);
 *                    cfCreate refuses capacity < 2 bucketSize (107-125); CF.RESERVE's
 *                    refusals (522-593); cfInsertCommon: CF.ADD on a missing key creates
 *                    capacity 1024 with the defaults (604-617) and refuses every add once
 *                    the chain has 32 filters, "Maximum expansions reached" (622-627);
 *                    CF.ADD inserts (642), CF.ADDNX InsertUnique (640)
 *   docs/commands/cf.reserve.md  "The minimal false positive error rate is 2/255 ≈ 0.78%
 *                    when bucket size of 1 is used", linear in the bucket size, and
 *                    "additional sub-filters grow the error rate linearly"
 *                    (docs/docs/cuckoo-filter.md line 126: (buckets*2)/256; line 133:
 *                    "the compound error is a sum of all subfilters' errors"): the promise
 *                    here is 2 b / 255 a filter, summed over the filters.
 *
 * What the code makes of it:
 *   - the fingerprint is hash % 255 + 1 (255 values; the 2^-64 excess of value 1 is
 *     below a double's resolution here) and both buckets come from the same 64-bit hash
 *     (h1 = hash, not its high half): bucket and fingerprint are independent only because
 *     255 is odd and the buckets a power of two;
 *   - the other bucket differs from the first by (fp * 0x5bd1e995) mod numBuckets, which
 *     is 0 only when numBuckets divides fp (0x5bd1e995 is odd): from 256 buckets on every
 *     fingerprint has two buckets; below, some have one;
 *   - a filter takes numBuckets * bucketSize fingerprints at most and fills to where its
 *     kicks first fail (CF.RESERVE 1024: 760 of its 1,024 slots in the reference chain;
 *     CF.RESERVE 10240000: before 61% of its 2^24), then the next filter is made: with
 *     EXPANSION 1 (the default) each filter the size of the first, so the rate grows
 *     linearly with the keys, and after 32 filters (the module's CF_MAX_EXPANSIONS)
 *     CF.ADD refuses every key: the filter made by CF.ADD's defaults takes about 30,600
 *     keys, 30 times its capacity, and no more;
 *   - a key goes to any filter with a free slot in its buckets, the newest first, so the
 *     older filters keep filling as the chain grows;
 *   - SubCF_GetIndex returns the bucket's first slot as a uint32_t, so a lookup in a filter
 *     of 2^32 slots or more (4 GiB) asks the wrong bucket where the kicks use the right
 *     one: bloomsim makes no such filter (a refusal of the design, or of the insert that
 *     would add it);
 *   - CF.ADD stores a key's fingerprint even when it is already there (a duplicate or a
 *     false positive); CF.ADDNX does not (not modelled: bloomsim's keys are distinct).
 *     Deletes and their compaction are not modelled.
 * Exact rates (docs/model.md): a stored fingerprint t in filter j with z_j buckets answers
 * the queries (b, t) of its two buckets, s_t of the z_j of them (2, or 1 when z_j divides
 * t); a query's fingerprint and its buckets are independent, so with the keys' buckets
 * independent the rate is 1 - sum_t P(t) prod_j (1 - P(t) s_t / z_j)^(n_j), n_j the
 * fingerprints filter j holds: 1 - prod_j (1 - r_j) when every z_j >= 256. The n_j are
 * reference chains': the rate is the mean of that formula over 16 chains built from the
 * fixed streams pcg32_unit(0, i, 0) with as many keys (where the kicks fail is not a
 * formula); the first one's filters and n_j are fp_state's gen_n. A built chain's own rate (the conditional estimator) is
 * the measure of the queries (fingerprint, hash's low bits) some stored fingerprint
 * answers, exactly, over the union of the filters.
 */
#include "fingerprint/real.h"
#include "fingerprint/registry.h"
#include "fingerprint/sort.h"
#include "hashes/hashes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RC_TAGS 255
#define RC_ALT UINT64_C(0x5bd1e995)
#define RC_MAX_FILTERS 32 /* CFMaxExpansions, rebloom.c:39 */
#define RC_MAX_BUCKETS UINT64_C(0x00FFFFFFFFFFFFFF)
#define RC_DEFAULT_CAPACITY FP_REDISBLOOM_CF_CAPACITY
#define RC_DEFAULT_BUCKET 2
#define RC_DEFAULT_KICKS 20
#define RC_DEFAULT_EXPANSION 1

/* ---- the chain, shared by the family and the real library ---- */

typedef struct rc_sub {
    uint64_t z;    /* buckets */
    uint8_t *slot; /* z * b fingerprints, 0 empty */
} rc_sub_t;

typedef struct rc_chain {
    uint64_t z0;                    /* numBuckets: the first filter's */
    unsigned b, kicks, expansion;   /* bucketSize, maxIterations, getNextN2(EXPANSION) */
    unsigned nf;                    /* numFilters */
    rc_sub_t f[RC_MAX_FILTERS];
    uint64_t items;                 /* numItems */
    uint64_t *pairs;                /* the conditional rate's work (family), or NULL */
    size_t npairs;
} rc_chain_t;

/* getNextN2: the least power of two >= n; 0 for 0 and past 2^63. */
static uint64_t rc_next2(uint64_t n)
{
    n--;
    for (unsigned s = 1; s < 64; s <<= 1)
        n |= n >> s;
    return n + 1;
}

/* Filter j's buckets: z0 expansion^j, or 0 when past CF_MAX_NUM_BUCKETS (Grow fails). */
static uint64_t rc_sub_buckets(uint64_t z0, unsigned expansion, unsigned j)
{
    uint64_t z = z0;
    for (unsigned i = 0; i < j; i++) {
        if (expansion && z > RC_MAX_BUCKETS / expansion)
            return 0;
        z *= expansion;
    }
    return z;
}

/* CuckooFilter_Grow: -1 when the next filter's buckets pass 2^56 - 1 or memory is short,
 * and (bloomsim's limit) from 2^32 slots, where SubCF_GetIndex's uint32_t index wraps. */
static int rc_grow(rc_chain_t *c)
{
    if (c->nf >= RC_MAX_FILTERS)
        return -1;
    uint64_t z = rc_sub_buckets(c->z0, c->expansion, c->nf);
    if (!z || z > (UINT64_C(1) << 32) / c->b || (z * c->b) >> 32)
        return -1;
    uint8_t *s = calloc((size_t)(z * c->b), 1);
    if (!s)
        return -1;
    c->f[c->nf++] = (rc_sub_t){.z = z, .slot = s};
    return 0;
}

/* CuckooFilter_Init. */
static int rc_init(rc_chain_t *c, uint64_t capacity, unsigned b, unsigned kicks,
                   unsigned expansion)
{
    memset(c, 0, sizeof *c);
    c->expansion = (unsigned)rc_next2(expansion);
    c->b = b, c->kicks = kicks;
    c->z0 = rc_next2(capacity / b);
    if (!c->z0)
        c->z0 = 1;
    return rc_grow(c);
}

static void rc_clear(rc_chain_t *c)
{
    for (unsigned j = 0; j < c->nf; j++)
        free(c->f[j].slot);
    c->nf = 0, c->items = 0;
}

typedef struct rc_key {
    uint64_t h1, h2;
    uint8_t fp;
} rc_key_t;

/* getLookupParams. */
static rc_key_t rc_key(uint64_t hash)
{
    rc_key_t k = {.fp = (uint8_t)(hash % RC_TAGS + 1), .h1 = hash};
    k.h2 = hash ^ ((uint64_t)k.fp * RC_ALT);
    return k;
}

/* SubCF_GetIndex: the first slot of the bucket, as the uint32_t it returns. */
static uint32_t rc_index(const rc_sub_t *s, unsigned b, uint64_t h)
{
    return (uint32_t)((h % s->z) * b);
}

static int rc_in(const uint8_t *bucket, unsigned b, uint8_t fp)
{
    for (unsigned i = 0; i < b; i++)
        if (bucket[i] == fp)
            return 1;
    return 0;
}

static uint8_t *rc_free_slot(uint8_t *bucket, unsigned b)
{
    for (unsigned i = 0; i < b; i++)
        if (!bucket[i])
            return bucket + i;
    return NULL;
}

/* CuckooFilter_Check: every filter, oldest first. */
static int rc_check(const rc_chain_t *c, const rc_key_t *k)
{
    for (unsigned j = 0; j < c->nf; j++) {
        const rc_sub_t *s = &c->f[j];
        if (rc_in(s->slot + rc_index(s, c->b, k->h1), c->b, k->fp) ||
            rc_in(s->slot + rc_index(s, c->b, k->h2), c->b, k->fp))
            return 1;
    }
    return 0;
}

/* Filter_KOInsert in the newest filter: 1 stored, 0 every swap undone. */
static int rc_kick(rc_chain_t *c, const rc_key_t *k)
{
    rc_sub_t *s = &c->f[c->nf - 1];
    const uint64_t z = s->z;
    const unsigned b = c->b;
    uint8_t fp = k->fp;
    uint32_t victim = 0;
    uint64_t i = k->h1 % z;
    for (unsigned n = 0; n < c->kicks; n++) {
        uint8_t *slot = s->slot + i * b + victim, t = *slot;
        *slot = fp, fp = t;
        i = (i ^ ((uint64_t)fp * RC_ALT)) % z;
        uint8_t *empty = rc_free_slot(s->slot + i * b, b);
        if (empty) {
            *empty = fp;
            return 1;
        }
        victim = (victim + 1) % b;
    }
    for (unsigned n = 0; n < c->kicks; n++) {
        victim = (victim + b - 1) % b;
        i = (i ^ ((uint64_t)fp * RC_ALT)) % z;
        uint8_t *slot = s->slot + i * b + victim, t = *slot;
        *slot = fp, fp = t;
    }
    return 0;
}

enum { RC_STORED = 1, RC_FULL = 0, RC_MAXED = -1, RC_NOMEM = -2 };

/* CF.ADD of a key of this hash into an existing chain: RC_STORED; RC_MAXED when the
 * chain has its 32 filters ("Maximum expansions reached"); RC_FULL with expansion 0
 * ("Filter is full"); RC_NOMEM when the next filter cannot be made. */
static int rc_add(rc_chain_t *c, uint64_t hash)
{
    if (c->nf >= RC_MAX_FILTERS)
        return RC_MAXED;
    rc_key_t k = rc_key(hash);
    for (;;) {
        for (unsigned j = c->nf; j > 0; j--) {
            rc_sub_t *s = &c->f[j - 1];
            uint8_t *slot = rc_free_slot(s->slot + rc_index(s, c->b, k.h1), c->b);
            if (!slot)
                slot = rc_free_slot(s->slot + rc_index(s, c->b, k.h2), c->b);
            if (slot) {
                *slot = k.fp;
                c->items++;
                return RC_STORED;
            }
        }
        if (rc_kick(c, &k)) {
            c->items++;
            return RC_STORED;
        }
        if (!c->expansion)
            return RC_FULL;
        if (rc_grow(c))
            return RC_NOMEM;
    }
}

/* ---- the design ---- */

/* What fp_design_t holds for it: q = log2 of the first filter's buckets, bits 8, bucket,
 * kicks, expansion (as given: 0 to 32768; rounded up to a power of two by Init). */
const char *fp_redisbloom_cuckoo_refused(uint64_t capacity, int64_t bucket, int64_t kicks,
                                         int64_t expansion, int *which)
{
    int64_t b = bucket >= 0 ? bucket : RC_DEFAULT_BUCKET;
    int64_t i = kicks >= 0 ? kicks : RC_DEFAULT_KICKS;
    int64_t e = expansion >= 0 ? expansion : RC_DEFAULT_EXPANSION;
    if (i <= 0 || i > 65535)
        return *which = 2, "RedisBloom refuses it: \"MAXITERATIONS: value must be an integer "
                           "between 1 and 65535, inclusive.\"";
    if (b <= 0 || b > 255)
        return *which = 1, "RedisBloom refuses it: \"BUCKETSIZE: value must be an integer "
                           "between 1 and 255, inclusive.\"";
    if (e > 32768)
        return *which = 3, "RedisBloom refuses it: \"EXPANSION: value must be an integer "
                           "between 0 and 32768, inclusive.\"";
    if (capacity > INT64_MAX)
        return *which = 0, "RedisBloom refuses it: \"Bad capacity\" (past 2^63 - 1)";
    if (capacity < 2 * (uint64_t)b)
        return *which = 0, "RedisBloom refuses it: \"Capacity must be at least (BucketSize * "
                           "2)\"";
    return NULL;
}

static int rc_reserve(fp_design_t *d, uint64_t capacity, int64_t bucket, int64_t kicks,
                      int64_t expansion, const char **why)
{
    int64_t b = bucket >= 0 ? bucket : RC_DEFAULT_BUCKET;
    int64_t i = kicks >= 0 ? kicks : RC_DEFAULT_KICKS;
    int64_t e = expansion >= 0 ? expansion : RC_DEFAULT_EXPANSION;
    int which;
    if ((*why = fp_redisbloom_cuckoo_refused(capacity, bucket, kicks, expansion, &which)))
        return FP_ERESERVE;
    uint64_t z = rc_next2(capacity / (uint64_t)b);
    unsigned q = 0;
    while (q < 64 && (UINT64_C(1) << q) < z)
        q++;
    if (q > FP_MAX_Q || ((UINT64_C(1) << q) * (uint64_t)b) >> 32) {
        *why = "the first filter would hold 2^32 slots or more (SubCF_GetIndex's uint32_t "
               "index wraps there; bloomsim takes up to 2^32)";
        return FP_EBIG;
    }
    d->q = q, d->bits = 8, d->size = capacity;
    d->bucket = (unsigned)b, d->kicks = (unsigned)i, d->expansion = (unsigned)e;
    return FP_OK;
}

/* The parameters a filter's name gives (redisbloom-cuckoo/E/B/I), -1 each for the
 * default. */
typedef struct rc_rules {
    int64_t expansion, bucket, kicks;
} rc_rules_t;

static const rc_rules_t rc_defaults = {-1, -1, -1};

/* CF.RESERVE n with the filter's parameters (bits: 0 or 8; the rate is not asked: the
 * fingerprint is one byte). */
static int rc_design(const fp_filter_t *f, uint64_t n, double p, double threshold,
                     unsigned bits, fp_design_t *d)
{
    (void)p;
    if (bits && bits != 8)
        return FP_EBITS;
    const rc_rules_t *r = f->rules ? f->rules : &rc_defaults;
    const char *why;
    *d = (fp_design_t){.threshold = threshold};
    return rc_reserve(d, n, r->bucket, r->kicks, r->expansion, &why);
}

/* Reference chains: RC_REFERENCES chains of as many keys, built from the fixed streams
 * pcg32_unit(0, i, 0); the mean of their exact rates is the row's, the first one's
 * filters and occupancy its schedule. */
#define RC_REFERENCES 16

static double rc_exact_occupancy(const fp_state_t *s);

/* One reference chain: its filters and the keys each holds into s; its refusals. */
static int rc_reference_one(fp_state_t *s, uint64_t stream, uint64_t *refused)
{
    rc_chain_t c;
    pcg32_t r;
    pcg32_unit(&r, 0, stream, 0);
    if (rc_init(&c, s->d.size, s->d.bucket, s->d.kicks, s->d.expansion)) {
        rc_clear(&c);
        return FP_EBIG;
    }
    int st = FP_OK;
    *refused = 0;
    for (uint64_t k = 0; k < s->keys; k++) {
        int a = rc_add(&c, pcg32_next64(&r));
        if (a == RC_NOMEM) {
            st = FP_EBIG;
            break;
        }
        if (a == RC_MAXED) { /* every later key too */
            *refused += s->keys - k;
            break;
        }
        *refused += a != RC_STORED;
    }
    s->ngens = c.nf;
    for (unsigned j = 0; j < c.nf; j++) {
        uint64_t n = 0;
        for (uint64_t i = 0; i < c.f[j].z * c.b; i++)
            n += c.f[j].slot[i] != 0;
        s->gen_n[j] = n;
        s->gen_t[j] = 8;
    }
    rc_clear(&c);
    return st;
}

static int rc_reference(fp_state_t *s)
{
    double exact = 0, refused = 0;
    fp_state_t first = *s;
    for (uint64_t i = 0; i < RC_REFERENCES; i++) {
        fp_state_t one = *s;
        uint64_t r;
        int st = rc_reference_one(&one, i, &r);
        if (st != FP_OK)
            return st;
        exact += rc_exact_occupancy(&one);
        refused += (double)r;
        if (i == 0)
            first = one;
    }
    *s = first;
    s->ref_exact = exact / RC_REFERENCES;
    s->refused = (uint64_t)llround(refused / RC_REFERENCES);
    s->stored = s->keys - s->refused;
    s->expansions = s->ngens ? (unsigned)s->ngens - 1 : 0;
    return FP_OK;
}

/* The most a chain of n keys takes: its filters (a byte a slot) until their slots reach
 * four times n (a filter's first failed kicks come far above a quarter full: three
 * quarters at bucket size 2 and 1,024 slots, 61% at 2^24), or all 32; one at a time in
 * the reference chains. */
static double rc_run_bytes(const fp_design_t *d, uint64_t n)
{
    double slots = 0;
    for (unsigned j = 0; j < RC_MAX_FILTERS && slots < 4.0 * (double)n; j++) {
        uint64_t z = rc_sub_buckets(UINT64_C(1) << d->q, (unsigned)rc_next2(d->expansion), j);
        if (!z)
            break;
        slots += (double)z * d->bucket;
        if (!d->expansion)
            break;
    }
    return slots;
}

static int rc_run(fp_state_t *s)
{
    s->q = s->d.q;
    s->width = 8;
    return rc_reference(s);
}

static uint64_t rc_z(const fp_state_t *s, unsigned j)
{
    return rc_sub_buckets(UINT64_C(1) << s->d.q, (unsigned)rc_next2(s->d.expansion), j);
}

static void rc_space(fp_state_t *s)
{
    s->slots = 0;
    for (unsigned j = 0; j < s->ngens; j++)
        s->slots += rc_z(s, j) * s->d.bucket;
    s->bits = 8 * s->slots;
}

static unsigned rc_new_bits(const fp_state_t *s)
{
    (void)s;
    return 8;
}

/* ---- the family: rates ---- */

/* Queries of a fingerprint t that a stored t in a filter of z buckets answers: 2, or 1
 * when t (fp * 0x5bd1e995 mod z, 0x5bd1e995 odd) moves it nowhere. */
static unsigned rc_span(uint64_t z, unsigned t)
{
    return (((uint64_t)t * RC_ALT) & (z - 1)) ? 2 : 1;
}

/* 1 - sum_t P(t) prod_j (1 - P(t) s_t / z_j)^n_j over the filters of s. */
static double rc_exact_occupancy(const fp_state_t *s)
{
    const double pt = 1.0 / RC_TAGS;
    double miss = 0;
    for (unsigned t = 1; t <= RC_TAGS; t++) {
        double logp = 0;
        for (unsigned j = 0; j < s->ngens; j++) {
            double z = (double)rc_z(s, j);
            logp += (double)s->gen_n[j] * log1p(-pt * rc_span(rc_z(s, j), t) / z);
        }
        miss += pt * exp(logp);
    }
    return 1 - miss;
}

/* The mean over the reference chains. */
static double rc_exact(const fp_state_t *s) { return s->ref_exact; }

/* One filter's exact rate at its occupancy (the product's factor). */
static double rc_exact_one(const fp_state_t *s, unsigned j)
{
    double z = (double)rc_z(s, j), pt = 1.0 / RC_TAGS, miss = 0;
    for (unsigned t = 1; t <= RC_TAGS; t++)
        miss += pt * exp((double)s->gen_n[j] * log1p(-pt * rc_span(rc_z(s, j), t) / z));
    return 1 - miss;
}

/* Buckets a lookup of an absent key reads: two a filter, oldest first, until one says
 * yes. */
static double rc_places(const fp_state_t *s)
{
    double reach = 1, places = 0;
    for (unsigned j = 0; j < s->ngens; j++) {
        places += 2 * reach;
        reach *= 1 - rc_exact_one(s, j);
    }
    return places;
}

/* Coincidences of two keys of one filter on one (bucket pair, fingerprint), as
 * seiflotfy-cuckoo's: n_j^2 / 2 * 255 * 8 P(t)^4 / z_j^3 a filter. */
static double rc_between_var(const fp_state_t *s)
{
    double v = 0, pt = 1.0 / RC_TAGS;
    for (unsigned j = 0; j < s->ngens; j++) {
        double n = (double)s->gen_n[j], z = (double)rc_z(s, j);
        v += n * n / 2 * RC_TAGS * 8 * pow(pt, 4) / (z * z * z);
    }
    return v;
}

/* The promise: 2 b / 255 a filter (cf.reserve.md), summed over the filters. */
double fp_redisbloom_cuckoo_promise(const fp_state_t *s)
{
    return s->ngens * 2.0 * s->d.bucket / RC_TAGS;
}

static size_t rc_describe(const fp_state_t *s, char *buf, size_t len)
{
    unsigned e = (unsigned)rc_next2(s->d.expansion);
    size_t at = fp_text(buf, len, 0, "CF.RESERVE %llu BUCKETSIZE %u MAXITERATIONS %u "
                        "EXPANSION %u: filter j of %llu * %u^j buckets of %u one-byte "
                        "fingerprints\n", (unsigned long long)s->d.size, s->d.bucket,
                        s->d.kicks, s->d.expansion, (unsigned long long)(UINT64_C(1) << s->d.q),
                        e, s->d.bucket);
    at = fp_text(buf, len, at, "fingerprint = hash %% 255 + 1, buckets hash and hash ^ fp * "
                 "0x5bd1e995 mod the filter's; a filter added when %u kicks fail in the "
                 "newest%s; at most 32 filters (CF_MAX_EXPANSIONS)\n", s->d.kicks,
                 e ? "" : " (EXPANSION 0: the key refused instead)");
    at = fp_text(buf, len, at, "reference chains at %llu keys: %llu keys refused (mean of %d); "
                 "the first's %zu filters, keys a filter:", (unsigned long long)s->keys,
                 (unsigned long long)s->refused, RC_REFERENCES, s->ngens);
    for (unsigned j = 0; j < s->ngens && j < 8; j++)
        at = fp_text(buf, len, at, " %llu/%llu", (unsigned long long)s->gen_n[j],
                     (unsigned long long)(rc_z(s, j) * s->d.bucket));
    at = fp_text(buf, len, at, "%s\n", s->ngens > 8 ? " ..." : "");
    at = fp_text(buf, len, at, "bits = %llu (%.4g bits per key), %llu bytes\n",
                 (unsigned long long)s->bits, (double)s->bits / (double)s->keys,
                 (unsigned long long)(s->bits / 8));
    at = fp_text(buf, len, at, "promise          %.6g (2 x %u / 255 a filter, summed over "
                 "%zu filters: cf.reserve.md)\n", fp_redisbloom_cuckoo_promise(s),
                 s->d.bucket, s->ngens);
    return fp_text(buf, len, at, "exact            %.17g (the mean over %d reference chains' "
                   "occupancy, keys' buckets independent)\n", rc_exact(s), RC_REFERENCES);
}

/* ---- the family: one built chain ---- */

/* The reference chain's filters and one more (a chain built from other keys may add
 * one), and the conditional rate's pairs, 16 bytes a slot. */
static double rc_bytes(const fp_state_t *s)
{
    double slots = (double)s->slots + (double)rc_z(s, (unsigned)s->ngens) * s->d.bucket;
    return 17 * slots;
}

static int rc_alloc(void **tp, const fp_state_t *s)
{
    rc_chain_t *c = calloc(1, sizeof *c);
    *tp = c;
    return c ? 0 : -1;
    (void)s;
}

static void rc_free(void *tp)
{
    rc_chain_t *c = tp;
    if (!c)
        return;
    rc_clear(c);
    free(c->pairs);
    free(c);
}

/* Every key offered is CF.ADDed; a refused one (32 filters, EXPANSION 0's full filter)
 * is counted. Out of memory ends the build as a refusal of the rest. */
static int rc_build(void *tp, const fp_state_t *s, pcg32_t *r, const scheme_poll_t *poll,
                    uint64_t *refused)
{
    rc_chain_t *c = tp;
    rc_clear(c);
    free(c->pairs), c->pairs = NULL;
    *refused = 0;
    if (rc_init(c, s->d.size, s->d.bucket, s->d.kicks, s->d.expansion)) {
        *refused = s->keys;
        return 0;
    }
    for (uint64_t k = 0; k < s->keys; k++) {
        if (scheme_poll_says_stop(poll, k))
            return 1;
        *refused += rc_add(c, pcg32_next64(r)) != RC_STORED;
    }
    return 0;
}

static uint64_t rc_lookups(const void *tp, const fp_state_t *s, pcg32_t *r, uint64_t L,
                           const scheme_poll_t *poll)
{
    (void)s;
    uint64_t fp = 0;
    for (uint64_t k = 0; k < L && !scheme_poll_says_stop(poll, k); k++) {
        rc_key_t key = rc_key(pcg32_next64(r));
        fp += (uint64_t)rc_check(tp, &key);
    }
    return fp;
}

FP_SORT_DEFINE(rc_sort, uint64_t)

/* The measure of the queries some stored fingerprint answers. A query is its fingerprint
 * t (1/255 each) and its hash's low bits, independent of t; a stored t in bucket i of a
 * filter of 2^k buckets answers the hashes = i and = i ^ (t * 0x5bd1e995) mod 2^k: two
 * classes (k, residue) of measure 2^-k. The classes of one t are sorted by (k, residue); a
 * class is counted unless it repeats or a class of a smaller k holds it (the residue mod
 * 2^k'). */
static double rc_conditional(void *tp, const fp_state_t *s, const scheme_poll_t *poll)
{
    rc_chain_t *c = tp;
    (void)s;
    uint64_t slots = 0;
    for (unsigned j = 0; j < c->nf; j++)
        slots += c->f[j].z * c->b;
    if (!c->pairs && !(c->pairs = malloc(2 * slots * sizeof *c->pairs)))
        return NAN;
    size_t np = 0;
    for (unsigned j = 0; j < c->nf; j++) {
        const rc_sub_t *f = &c->f[j];
        unsigned k = 0;
        while ((UINT64_C(1) << k) < f->z)
            k++;
        for (uint64_t i = 0; i < f->z * c->b; i++) {
            uint8_t t = f->slot[i];
            if (!t)
                continue;
            uint64_t b = i / c->b, a = (b ^ ((uint64_t)t * RC_ALT)) & (f->z - 1);
            c->pairs[np++] = (uint64_t)t << 56 | (uint64_t)k << 48 | b;
            if (a != b)
                c->pairs[np++] = (uint64_t)t << 56 | (uint64_t)k << 48 | a;
        }
    }
    if (rc_sort(c->pairs, np, poll))
        return 0;
    const uint64_t low = (UINT64_C(1) << 48) - 1;
    double yes = 0;
    for (size_t i = 0, g; i < np; i = g) {
        uint64_t t = c->pairs[i] >> 56;
        for (g = i + 1; g < np && c->pairs[g] >> 56 == t; g++)
            ;
        if (scheme_poll_says_stop(poll, i + 1))
            return 0;
        unsigned ks[RC_MAX_FILTERS + 1], nk = 0; /* the k present for t, ascending */
        size_t from[RC_MAX_FILTERS + 1];          /* where each starts */
        for (size_t x = i; x < g; x++) {
            unsigned k = (unsigned)(c->pairs[x] >> 48 & 0xff);
            if (!nk || ks[nk - 1] != k)
                ks[nk] = k, from[nk++] = x;
        }
        from[nk] = g;
        for (unsigned a = 0; a < nk; a++)
            for (size_t x = from[a]; x < from[a + 1]; x++) {
                if (x > from[a] && c->pairs[x] == c->pairs[x - 1])
                    continue;
                uint64_t res = c->pairs[x] & low;
                int held = 0;
                for (unsigned a2 = 0; a2 < a && !held; a2++) {
                    uint64_t want = t << 56 | (uint64_t)ks[a2] << 48 |
                                    (res & ((UINT64_C(1) << ks[a2]) - 1));
                    size_t lo = from[a2], hi = from[a2 + 1];
                    while (lo < hi) {
                        size_t mid = lo + (hi - lo) / 2;
                        if (c->pairs[mid] < want)
                            lo = mid + 1;
                        else
                            hi = mid;
                    }
                    held = lo < from[a2 + 1] && c->pairs[lo] == want;
                }
                if (!held)
                    yes += ldexp(1, -(int)ks[a]);
            }
    }
    return yes / RC_TAGS;
}

static const fp_ops_t rc_ops = {
    .reserve = 1,
    .design = rc_design,
    .run = rc_run,
    .run_bytes = rc_run_bytes,
    .space = rc_space,
    .new_bits = rc_new_bits,
    .exact = rc_exact,
    .places = rc_places,
    .between_var = rc_between_var,
    .describe = rc_describe,
    .table_bytes = rc_bytes,
    .table_alloc = rc_alloc,
    .table_free = rc_free,
    .build = rc_build,
    .lookups = rc_lookups,
    .conditional = rc_conditional,
};

/* ---- the library on real keys ---- */

/* CUCKOO_GEN_HASH of the item's bytes: an integer key is its decimal string (what
 * redis-cli sends), a string its bytes. */
static uint64_t rc_key_hash(const rkey_t *k)
{
    char buf[24];
    const uint8_t *in = k->bytes;
    size_t len = k->len;
    if (k->kind == KEY_INT) {
        len = key_format_u64(k->u, buf);
        in = (const uint8_t *)buf;
    }
    return hash_murmur64a(in, len, 0);
}

uint64_t fp_redisbloom_cuckoo_hash(const void *data, size_t len)
{
    return hash_murmur64a(data, len, 0);
}

/* design-fp N 8: CF.RESERVE key N with the defaults (BUCKETSIZE 2, MAXITERATIONS 20,
 * EXPANSION 1). The table's bits grow with the chain: built_m. */
static const char *rc_open(void **tp, uint64_t n, double bits, uint64_t *m,
                          const char **clamp)
{
    *tp = NULL;
    *clamp = NULL;
    if (bits != 8)
        return "RedisBloom's cuckoo fingerprints are one byte: design-fp N 8";
    fp_design_t d = {0};
    const char *why;
    if (rc_reserve(&d, n, -1, -1, -1, &why) != FP_OK)
        return why;
    rc_chain_t *c = calloc(1, sizeof *c);
    if (!c || rc_init(c, n, d.bucket, d.kicks, d.expansion)) {
        rc_free(c);
        return "ERR Insufficient memory to create filter";
    }
    *tp = c;
    *m = 8 * c->z0 * c->b;
    return NULL;
}

static int rc_real_insert(void *tp, const rkey_t *k, const char **why)
{
    (void)why;
    return rc_add(tp, rc_key_hash(k)) == RC_STORED ? FP_REAL_STORED : FP_REAL_FAILED;
}

static int rc_real_query(const void *tp, const rkey_t *k, const char **why)
{
    (void)why;
    rc_key_t key = rc_key(rc_key_hash(k));
    return rc_check(tp, &key);
}

/* The filters' slots in order (filter 0's first), one byte each: W = 8. */
static void rc_real_bits(const void *tp, uint8_t *out)
{
    const rc_chain_t *c = tp;
    for (unsigned j = 0; j < c->nf; j++) {
        memcpy(out, c->f[j].slot, c->f[j].z * c->b);
        out += c->f[j].z * c->b;
    }
}

static uint64_t rc_real_built_m(const void *tp)
{
    const rc_chain_t *c = tp;
    uint64_t slots = 0;
    for (unsigned j = 0; j < c->nf; j++)
        slots += c->f[j].z * c->b;
    return 8 * slots;
}

static const fp_real_t rc_real = {
    .version = "RedisBloom 03077b46 (2025-07-10) cuckoo.c, rebloom.c: CF.RESERVE N, "
               "CF.ADD, CF.EXISTS",
    .hash = "MurmurHash64A_Bloom (deps/murmur2), seed 0",
    .key_bytes = "integer: its decimal string; string: its bytes",
    .kinds = KEY_INT | KEY_TEXT | KEY_BYTES,
    .takes = FP_REAL_BITS,
    .open = rc_open,
    .insert = rc_real_insert,
    .query = rc_real_query,
    .bits = rc_real_bits,
    .built_m = rc_real_built_m,
    .close = rc_free,
};

static const scheme_t scheme = {.name = "redisbloom-cuckoo"};

const fp_filter_t fp_filter_redisbloom_cuckoo = {
    .name = "redisbloom-cuckoo",
    .summary = "RedisBloom's cuckoo filter (CF.RESERVE C [BUCKETSIZE 2] [MAXITERATIONS 20] "
               "[EXPANSION 1]): a chain of cuckoo filters of one-byte fingerprints, one added "
               "when the kicks fail, at most 32",
    .ops = &rc_ops,
    .scheme = &scheme,
    .real = &rc_real,
    .bits_refusal = "fingerprint bits outside what the filter takes (redisbloom-cuckoo: 8, its "
                    "one byte)",
    .reserve_refusal = "RedisBloom refuses it: \"Capacity must be at least (BucketSize * 2)\" "
                       "(the capacity is design_keys)",
};

/* ---- variants: redisbloom-cuckoo/E[/B[/I]] ---- */

#define RC_VARIANTS 64
#define RC_NAME_MAX 64

typedef struct rc_variant {
    fp_filter_t f;
    scheme_t scheme;
    rc_rules_t rules;
    char name[RC_NAME_MAX];
    char why[256];
} rc_variant_t;

/* Made as names are parsed (an experiment's keys, audit's arguments: one thread), kept for
 * the process. */
static rc_variant_t rc_variant[RC_VARIANTS];
static size_t rc_nvariants;

const fp_filter_t *fp_redisbloom_cuckoo_variant(const char *name)
{
    static const char prefix[] = "redisbloom-cuckoo/";
    if (strncmp(name, prefix, sizeof prefix - 1) != 0 || strlen(name) >= RC_NAME_MAX)
        return NULL;
    for (size_t i = 0; i < rc_nvariants; i++)
        if (strcmp(rc_variant[i].name, name) == 0)
            return &rc_variant[i].f;
    int64_t v[3] = {-1, -1, -1};
    const char *c = name + sizeof prefix - 1;
    for (int i = 0; i < 3; i++) {
        if (*c < '0' || *c > '9')
            return NULL;
        int64_t x = 0;
        for (; *c >= '0' && *c <= '9'; c++)
            if ((x = 10 * x + (*c - '0')) > 1000000000)
                return NULL;
        v[i] = x;
        if (!*c)
            break;
        if (*c != '/' || i == 2)
            return NULL;
        c++;
    }
    if (rc_nvariants == RC_VARIANTS)
        return NULL;
    rc_variant_t *w = &rc_variant[rc_nvariants++];
    snprintf(w->name, sizeof w->name, "%s", name);
    w->rules = (rc_rules_t){.expansion = v[0], .bucket = v[1], .kicks = v[2]};
    w->scheme = (scheme_t){.name = w->name};
    w->f = fp_filter_redisbloom_cuckoo;
    w->f.name = w->name;
    w->f.scheme = &w->scheme;
    w->f.rules = &w->rules;
    w->f.real = NULL; /* bloomsim adapter serves CF.RESERVE N with the defaults alone */
    fp_design_t d;
    const char *why = NULL;
    if (rc_reserve(&d, INT64_MAX / 2, v[1], v[2], v[0], &why) == FP_ERESERVE)
        snprintf(w->why, sizeof w->why, "%s", why);
    else
        snprintf(w->why, sizeof w->why, "%s", fp_filter_redisbloom_cuckoo.reserve_refusal);
    w->f.reserve_refusal = w->why;
    return &w->f;
}

/* For tests: the chain on a key's hash (tests/test_redisbloom_cuckoo.c). */
void fp_redisbloom_cuckoo_where(uint64_t hash, uint64_t buckets, uint8_t *fp, uint64_t *i1,
                                uint64_t *i2)
{
    rc_key_t k = rc_key(hash);
    *fp = k.fp;
    *i1 = k.h1 % buckets;
    *i2 = k.h2 % buckets;
}
