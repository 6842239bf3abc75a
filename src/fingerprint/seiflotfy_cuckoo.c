/* seiflotfy_cuckoo.c - seiflotfy/cuckoofilter (Go), as Debian packages it
 * (golang-github-seiflotfy-cuckoofilter-dev 0.0~git20201222.bc60055-2): a cuckoo filter
 * of buckets of 4 one-byte fingerprints, the family `seiflotfy-cuckoo` (ideal hash bits)
 * and the library on real keys (real.h: `bloomsim adapter seiflotfy-cuckoo`).
 *
 * Source, /usr/share/gocode/src/github.com/seiflotfy/cuckoofilter at bc60055:
 *   bucket.go     bucketSize 4, nullFp 0 (lines 7-10); insert: the first empty slot
 *                 (12-20); the bucket as [4]byte
 *   cuckoofilter.go  maxCuckooCount 500 (line 9); NewFilter(capacity): getNextPow2
 *                 (capacity) / 4 buckets, at least 1 (21-32); Lookup (35-42); randi:
 *                 rand.Intn(2) picks i1 or i2 (52-57); Insert: i1, then i2, then
 *                 reinsert from randi (60-70); reinsert: up to 500 times a slot
 *                 rand.Intn(4) of the bucket is swapped for the homeless fingerprint,
 *                 which moves to its other bucket (88-102); Encode: the buckets' bytes in
 *                 order (130-139)
 *   util.go       altHash[i] = metro.Hash64([]byte{i}, 1337) (lines 12-19); getAltIndex:
 *                 (i & mask) ^ (altHash[fp] & mask) (21-25); getFingerprint: hash % 255 + 1
 *                 (27-31); getIndexAndFingerprint: hash = metro.Hash64(data, 1337), i1 =
 *                 uint(hash >> 32) & mask (34-40); getNextPow2 (42-52)
 * and go-metro (src/hashes/metro.c), Go 1.19's math/rand (src/hashes/go_rand.c).
 *
 * What the code makes of it:
 *   - the design takes a capacity only: the fingerprint is one byte whatever the rate a
 *     user wants (a 1% user gets about 3% at full load), and the buckets are the power
 *     of two at least the capacity, over 4, so the load at capacity is between 1/2 and 1:
 *     at a capacity of 2^j exactly the filter is full at its capacity and inserts fail;
 *   - the fingerprint is hash % 255 + 1, 255 values (2^64 = 255 q + 1: the value 1 has one
 *     more hash than the others, a difference of 2^-64), and the bucket the hash's high
 *     32 bits: at most 2^32 buckets are anyone's first;
 *   - the other bucket is i ^ altHash[fp]: a fingerprint whose altHash has no bit below
 *     the mask has one bucket, not two;
 *   - a failed Insert (500 kicks) returns false having stored the new key and dropped the
 *     last fingerprint kicked out: an earlier key is lost, a false negative. No victim
 *     slot, no rollback.
 * The random choices are Go's top-level rand.Intn, whose source Go 1.19 seeds with 1;
 * tests/conformance/seiflotfy_adapter.go reseeds it with rand.Seed(1) at each design, and
 * the real filter here does the same, so that every filter of a session is a function of
 * its keys. The family draws them from the filter's own stream.
 */
#include "fingerprint/cuckoo.h"
#include "fingerprint/real.h"
#include "fingerprint/registry.h"
#include "fingerprint/sort.h"
#include "hashes/generators.h"
#include "hashes/hashes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SC_SLOTS 4
#define SC_KICKS 500
#define SC_SEED 1337
#define SC_TAGS 255

/* ---- the table, shared by the family and the real library ---- */

typedef struct sc_table {
    uint64_t z, mask;       /* buckets (a power of two), z - 1 */
    uint8_t *fp;            /* SC_SLOTS z fingerprints, 0 empty */
    uint64_t alt[256];      /* altHash */
    uint64_t *pairs;        /* the conditional rate's work (family), or NULL */
    go_rand_t go;           /* the real library's random source */
    pcg32_t *pcg;           /* the family's, while it builds */
} sc_table_t;

/* rand.Intn(n), n a power of two: Go's source, or the family's stream. */
static unsigned sc_draw(sc_table_t *t, unsigned n)
{
    return t->pcg ? pcg32_below32(t->pcg, n) : go_rand_intn_pow2(&t->go, n);
}

/* NewFilter's buckets: getNextPow2(capacity) / 4, at least 1. getNextPow2 wraps to 0
 * past 2^63 (n - 1, the bits smeared right, + 1). */
static uint64_t sc_buckets(uint64_t capacity)
{
    uint64_t n = capacity - 1;
    for (unsigned s = 1; s < 64; s <<= 1)
        n |= n >> s;
    n = (n + 1) / SC_SLOTS;
    return n ? n : 1;
}

static int sc_table_init(sc_table_t *t, uint64_t z, int pairs)
{
    memset(t, 0, sizeof *t);
    t->z = z, t->mask = z - 1;
    for (unsigned i = 0; i < 256; i++) {
        uint8_t b = (uint8_t)i;
        t->alt[i] = hash_metro64(&b, 1, SC_SEED);
    }
    t->fp = calloc(SC_SLOTS * z, 1);
    if (pairs)
        t->pairs = malloc((2 * SC_SLOTS * z) * sizeof *t->pairs);
    return t->fp && (!pairs || t->pairs) ? 0 : -1;
}

static uint64_t sc_alt(const sc_table_t *t, uint8_t fp, uint64_t i)
{
    return (i & t->mask) ^ (t->alt[fp] & t->mask);
}

/* getIndexAndFingerprint of a 64-bit hash. */
static uint64_t sc_index(const sc_table_t *t, uint64_t h, uint8_t *fp)
{
    *fp = (uint8_t)(h % SC_TAGS + 1);
    return (h >> 32) & t->mask;
}

/* bucket.insert: the first empty slot. */
static int sc_put(sc_table_t *t, uint8_t fp, uint64_t i)
{
    uint8_t *b = t->fp + SC_SLOTS * i;
    for (unsigned j = 0; j < SC_SLOTS; j++)
        if (!b[j]) {
            b[j] = fp;
            return 1;
        }
    return 0;
}

/* Filter.Insert on a key's hash: 1, or 0 when it failed (an earlier fingerprint lost). */
static int sc_insert(sc_table_t *t, uint64_t h)
{
    uint8_t fp;
    uint64_t i1 = sc_index(t, h, &fp), i2 = sc_alt(t, fp, i1);
    if (sc_put(t, fp, i1) || sc_put(t, fp, i2))
        return 1;
    uint64_t i = sc_draw(t, 2) == 0 ? i1 : i2;
    for (unsigned k = 0; k < SC_KICKS; k++) {
        unsigned j = sc_draw(t, SC_SLOTS);
        uint8_t old = fp;
        fp = t->fp[SC_SLOTS * i + j];
        t->fp[SC_SLOTS * i + j] = old;
        i = sc_alt(t, fp, i);
        if (sc_put(t, fp, i))
            return 1;
    }
    return 0;
}

static int sc_in(const sc_table_t *t, uint64_t i, uint8_t fp)
{
    const uint8_t *b = t->fp + SC_SLOTS * i;
    return b[0] == fp || b[1] == fp || b[2] == fp || b[3] == fp;
}

static int sc_lookup(const sc_table_t *t, uint64_t h)
{
    uint8_t fp;
    uint64_t i1 = sc_index(t, h, &fp);
    return sc_in(t, i1, fp) || sc_in(t, sc_alt(t, fp, i1), fp);
}

/* ---- the family: rates ---- */

/* P(fp = t) for t = 1..255: 1/255 each (value 1 has 2^-64 more, below a double's
 * resolution here). A query (i1, t) answers yes exactly when some stored fingerprint t
 * sits in bucket i1 or in alt(i1); a stored t in bucket b answers the queries (b, t)
 * and (alt(b), t), s_t of them: 1 when altHash[t] has no bit below the mask, else 2. */
static unsigned sc_span(const sc_table_t *t, unsigned tag)
{
    return (t->alt[tag] & t->mask) ? 2 : 1;
}

/* The exact rate with n keys stored independently: 1 - sum_t P(t) (1 - P(t) s_t / z)^n. */
static double sc_rate(double n, uint64_t z)
{
    sc_table_t t = {.z = z, .mask = z - 1};
    double pt = 1.0 / SC_TAGS, miss = 0;
    for (unsigned tag = 1; tag <= SC_TAGS; tag++) {
        uint8_t b = (uint8_t)tag;
        t.alt[tag] = hash_metro64(&b, 1, SC_SEED);
        miss += pt * (1 - fp_one_minus_pow(pt * sc_span(&t, tag) / (double)z, n));
    }
    return 1 - miss;
}

static double sc_exact(const fp_state_t *s)
{
    return sc_rate((double)s->keys, UINT64_C(1) << s->q);
}

static double sc_places(const fp_state_t *s)
{
    (void)s;
    return 2;
}

/* Coincidences of two keys on one (pair, fingerprint), about n^2/2 sum_t P(t)^2 s_t / z
 * of them, each taking s_t P(t) / z off the filter's rate: variance n^2/2 sum_t s_t^3
 * P(t)^4 / z^3, with s_t = 2 (rare fingerprints of one bucket change it little). */
static double sc_between_var(const fp_state_t *s)
{
    double z = (double)(UINT64_C(1) << s->q), n = (double)s->keys, pt = 1.0 / SC_TAGS;
    return n * n / 2 * SC_TAGS * 8 * pow(pt, 4) / (z * z * z);
}

/* ---- the family: design, schedule, space ---- */

/* NewFilter(n): its buckets; the fingerprint is one byte, whatever p (bits: 0 or 8). */
static int sc_design(const fp_filter_t *f, uint64_t n, double p, double threshold,
                     unsigned bits, fp_design_t *d)
{
    (void)f, (void)p;
    if (bits && bits != 8)
        return FP_EBITS;
    uint64_t z = sc_buckets(n);
    unsigned q = 0;
    while ((UINT64_C(1) << q) < z)
        q++;
    if (q > FP_MAX_Q)
        return FP_EBIG;
    *d = (fp_design_t){.q = q, .bits = 8, .threshold = threshold};
    return FP_OK;
}

static int sc_run(fp_state_t *s)
{
    s->q = s->d.q;
    s->width = 8;
    s->stored = s->keys;
    return FP_OK;
}

static void sc_space(fp_state_t *s)
{
    s->slots = SC_SLOTS * (UINT64_C(1) << s->q);
    s->bits = 8 * s->slots;
}

static unsigned sc_new_bits(const fp_state_t *s)
{
    (void)s;
    return 8;
}

static size_t sc_describe(const fp_state_t *s, char *buf, size_t len)
{
    uint64_t z = UINT64_C(1) << s->q;
    size_t at = fp_text(buf, len, 0, "NewFilter(%llu): %llu buckets of 4 one-byte fingerprints "
                        "(%llu slots, load %.4g), two candidate buckets a key\n",
                        (unsigned long long)s->keys, (unsigned long long)z,
                        (unsigned long long)s->slots, (double)s->keys / (double)s->slots);
    at = fp_text(buf, len, at, "fingerprint = hash %% 255 + 1 (255 values, log2 = 7.994 bits), "
                 "whatever the rate; other bucket i ^ altHash[fp]\n");
    at = fp_text(buf, len, at, "bits = %llu (%.4g bits per key), %llu bytes\n",
                 (unsigned long long)s->bits, (double)s->bits / (double)s->keys,
                 (unsigned long long)(s->bits / 8));
    return fp_text(buf, len, at, "exact            %.17g (every key stored; past about 95%% "
                   "of its slots inserts fail and each failure drops a stored key)\n",
                   sc_exact(s));
}

/* ---- the family: one built filter ---- */

static double sc_bytes(const fp_state_t *s)
{
    double z = (double)(UINT64_C(1) << s->q);
    return SC_SLOTS * z + 16.0 * SC_SLOTS * z;
}

static int sc_alloc(void **tp, const fp_state_t *s)
{
    sc_table_t *t = malloc(sizeof *t);
    *tp = t;
    if (!t)
        return -1;
    return sc_table_init(t, UINT64_C(1) << s->q, 1);
}

static void sc_free(void *tp)
{
    sc_table_t *t = tp;
    if (!t)
        return;
    free(t->fp);
    free(t->pairs);
    free(t);
}

/* Every key offered is inserted (Insert's false is counted, not retried). */
static int sc_build(void *tp, const fp_state_t *s, pcg32_t *r, const scheme_poll_t *poll,
                    uint64_t *refused)
{
    sc_table_t *t = tp;
    memset(t->fp, 0, SC_SLOTS * t->z);
    t->pcg = r;
    *refused = 0;
    for (uint64_t k = 0; k < s->keys; k++) {
        if (scheme_poll_says_stop(poll, k))
            return 1;
        *refused += !sc_insert(t, pcg32_next64(r));
    }
    t->pcg = NULL;
    return 0;
}

static uint64_t sc_lookups(const void *tp, const fp_state_t *s, pcg32_t *r, uint64_t L,
                           const scheme_poll_t *poll)
{
    (void)s;
    uint64_t fp = 0;
    for (uint64_t k = 0; k < L && !scheme_poll_says_stop(poll, k); k++)
        fp += (uint64_t)sc_lookup(tp, pcg32_next64(r));
    return fp;
}

FP_SORT_DEFINE(sc_sort, uint64_t)

/* The measure of the queries (i1, t) that find t: every distinct (bucket, fingerprint)
 * a stored t answers, 1/255 of 1/z each. */
static double sc_conditional(void *tp, const fp_state_t *s, const scheme_poll_t *poll)
{
    sc_table_t *t = tp;
    (void)s;
    size_t np = 0;
    for (uint64_t b = 0; b < t->z; b++) {
        if (scheme_poll_says_stop(poll, SC_SLOTS * b))
            return 0;
        for (unsigned j = 0; j < SC_SLOTS; j++) {
            uint8_t fp = t->fp[SC_SLOTS * b + j];
            if (!fp)
                continue;
            uint64_t a = sc_alt(t, fp, b);
            t->pairs[np++] = b << 8 | fp;
            if (a != b)
                t->pairs[np++] = a << 8 | fp;
        }
    }
    if (sc_sort(t->pairs, np, poll))
        return 0;
    uint64_t distinct = 0;
    for (size_t i = 0; i < np; i++)
        distinct += i == 0 || t->pairs[i] != t->pairs[i - 1];
    return (double)distinct / SC_TAGS / (double)t->z;
}

static const fp_ops_t sc_ops = {
    .design = sc_design,
    .run = sc_run,
    .space = sc_space,
    .new_bits = sc_new_bits,
    .exact = sc_exact,
    .places = sc_places,
    .between_var = sc_between_var,
    .describe = sc_describe,
    .table_bytes = sc_bytes,
    .table_alloc = sc_alloc,
    .table_free = sc_free,
    .build = sc_build,
    .lookups = sc_lookups,
    .conditional = sc_conditional,
};

/* ---- the library on real keys ---- */

/* An integer key: 8 bytes big-endian (encoding/binary, as Go programs write integers);
 * a string: its bytes (Insert and Lookup take []byte). */
static uint64_t sc_key_hash(const rkey_t *k)
{
    uint8_t buf[8];
    const uint8_t *in = k->bytes;
    size_t len = k->len;
    if (k->kind == KEY_INT) {
        for (int i = 0; i < 8; i++)
            buf[i] = (uint8_t)(k->u >> (56 - 8 * i));
        in = buf, len = 8;
    }
    return hash_metro64(in, len, SC_SEED);
}

/* design-fp N 8: NewFilter(N), Go's source reseeded with 1. make panics past 2^48 bytes
 * (Go's maxAlloc on amd64): 2^46 buckets. */
static const char *sc_open(void **tp, uint64_t n, double bits, uint64_t *m,
                          const char **clamp)
{
    *tp = NULL;
    *clamp = NULL;
    if (bits != 8)
        return "seiflotfy/cuckoofilter's fingerprints are one byte: design-fp N 8";
    uint64_t z = sc_buckets(n);
    if (z > UINT64_C(1) << 46)
        return "NewFilter panics past 2^46 buckets (make of more than 2^48 bytes, Go's "
               "maxAlloc on amd64)";
    sc_table_t *t = malloc(sizeof *t);
    if (!t || sc_table_init(t, z, 0)) {
        sc_free(t);
        return "out of memory";
    }
    go_rand_seed(&t->go, 1);
    *tp = t;
    *m = 8 * SC_SLOTS * z;
    return NULL;
}

static int sc_real_insert(void *tp, const rkey_t *k, const char **why)
{
    (void)why;
    return sc_insert(tp, sc_key_hash(k)) ? FP_REAL_STORED : FP_REAL_FAILED;
}

static int sc_real_query(const void *tp, const rkey_t *k, const char **why)
{
    (void)why;
    return sc_lookup(tp, sc_key_hash(k));
}

/* Encode(): byte 4 i + j is slot j of bucket i, already the protocol's layout (W = 8). */
static void sc_real_bits(const void *tp, uint8_t *out)
{
    const sc_table_t *t = tp;
    memcpy(out, t->fp, SC_SLOTS * t->z);
}

static const fp_real_t sc_real = {
    .version = "seiflotfy/cuckoofilter bc60055 (Debian golang-github-seiflotfy-cuckoofilter-dev "
               "0.0~git20201222.bc60055-2) NewFilter, Insert, Lookup; Go 1.19 math/rand",
    .hash = "MetroHash64 (go-metro), seed 1337",
    .key_bytes = "integer: 8 bytes big-endian; string: its bytes",
    .kinds = KEY_INT | KEY_BYTES,
    .takes = FP_REAL_BITS,
    .open = sc_open,
    .insert = sc_real_insert,
    .query = sc_real_query,
    .bits = sc_real_bits,
    .close = sc_free,
};

static const scheme_t scheme = {.name = "seiflotfy-cuckoo"};

const fp_filter_t fp_filter_seiflotfy_cuckoo = {
    .name = "seiflotfy-cuckoo",
    .summary = "seiflotfy/cuckoofilter (Go): NewFilter(n), buckets of 4 one-byte fingerprints "
               "(hash % 255 + 1), 500 kicks, no victim slot",
    .ops = &sc_ops,
    .scheme = &scheme,
    .real = &sc_real,
    .bits_refusal = "fingerprint bits outside what the filter takes (seiflotfy-cuckoo: 8, its "
                    "one byte)",
};
