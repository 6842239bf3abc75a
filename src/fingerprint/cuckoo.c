/* cuckoo.c - the cuckoo filter (Fan, Andersen, Kaminsky, Mitzenmacher, CoNEXT 2014) as
 * efficient/cuckoofilter codes it: buckets of 4 tags of f bits, two candidate buckets i
 * and i ^ h(tag), up to 500 kicks and one victim slot. Its family's ops (cuckoo.h) and
 * the filter `cuckoo`: sized for design_keys and filled past them, it refuses every key
 * once its victim slot is taken.
 *
 * It follows github.com/efficient/cuckoofilter at
 * 917583d6abef692dfa8e14453bd77d6e0b61eef3, src/cuckoofilter.h: 52-71 (index = the high
 * 32 bits of the hash mod the buckets, tag = the low f bits, 0 made 1), 73-79 (the other
 * bucket, index ^ tag * 0x5bd1e995), 89-98 (buckets for n keys), 139-162 (insert with
 * up to 500 kicks, then a victim slot), 166-185 (lookup); src/singletable.h 18-19, 49
 * (a bucket is ceil(4f / 8) bytes).
 *
 * A built filter is the table itself, filled as efficient/cuckoofilter fills it (the
 * kicked slot drawn from the filter's stream in place of rand()); a query (i, t) asks
 * buckets i and i ^ h(t). A stored tag t in bucket b answers yes to exactly the queries
 * (b, t) and (alt(b, t), t), wherever the kicks left it, so the built filter's rate is
 * the weight of the distinct such pairs: P(t)/z each. Its refusals depend on its keys
 * and are measured: the state stores every key (stored = keys, refused 0).
 */
#include "fingerprint/cuckoo.h"
#include "fingerprint/registry.h"
#include "fingerprint/sort.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- rates ---- */

/* The exact rate with n keys stored in z buckets of f-bit tags: 1 - sum_t P(t) (1 - P(t)
 * s_t / z)^n over the tags t (P(1) = 2^(1-f), else 2^-f: a zero tag becomes 1; s_t the
 * distinct buckets of a pair, 1 when z divides t, else 2). The tags fall in three
 * classes, t = 1 (twice as likely), the others that z does not divide (two buckets), and
 * the multiples of z (one). */
static double cuckoo_rate(double n, uint64_t z, unsigned f)
{
    double pt = ldexp(1.0, -(int)f), zz = (double)z;
    uint64_t others = (UINT64_C(1) << f) - 2;
    uint64_t mult = z >= 2 ? ((UINT64_C(1) << f) - 1) / z : 0;
    double s1 = z >= 2 ? 2 : 1;
    double r = 2 * pt * fp_one_minus_pow(2 * pt * s1 / zz, n);
    if (z == 1)
        return r + (double)others * pt * fp_one_minus_pow(pt, n);
    return r + (double)(others - mult) * pt * fp_one_minus_pow(2 * pt / zz, n) +
           (double)mult * pt * fp_one_minus_pow(pt / zz, n);
}

static double cuckoo_exact(const fp_state_t *s)
{
    return cuckoo_rate((double)s->keys, UINT64_C(1) << s->q, s->width);
}

static double cuckoo_places(const fp_state_t *s)
{
    (void)s;
    return 2;
}

static double cuckoo_between_var(const fp_state_t *s)
{
    double pt = ldexp(1.0, -(int)s->width), z = (double)((uint64_t)1 << s->q);
    double n = (double)s->keys, p4 = 16 * pow(pt, 4) + pow(2, s->width) * pow(pt, 4);
    return n * n / 2 * 8 / (z * z * z) * p4;
}

/* ---- the design, the state and the space ---- */

/* The power of two at least x (efficient/cuckoofilter's upperpower2), x >= 1. */
static uint64_t upper_power2(uint64_t x)
{
    uint64_t p = 1;
    while (p < x)
        p <<= 1;
    return p;
}

/* The buckets the constructor takes for n keys (the power of two at least n/4, doubled
 * when the load would pass 0.96) and the fewest tag bits meeting p. */
static int cuckoo_design(const fp_filter_t *f, uint64_t n, double p, double threshold,
                         unsigned bits, fp_design_t *d)
{
    (void)f;
    uint64_t z = upper_power2(n / FP_CUCKOO_SLOTS > 1 ? n / FP_CUCKOO_SLOTS : 1);
    if ((double)n / (double)z / FP_CUCKOO_SLOTS > 0.96)
        z <<= 1;
    unsigned q = 0;
    while ((UINT64_C(1) << q) < z)
        q++;
    if (q > FP_MAX_Q)
        return FP_EBIG;
    if (bits > FP_CUCKOO_MAX_BITS)
        return FP_EBITS;
    if (!bits)
        for (unsigned b = 1; b <= FP_CUCKOO_MAX_BITS && !bits; b++)
            if (cuckoo_rate((double)n, z, b) <= p)
                bits = b;
    if (!bits)
        return FP_ERATE;
    *d = (fp_design_t){.q = q, .bits = bits, .threshold = threshold};
    return FP_OK;
}

static int cuckoo_run(fp_state_t *s)
{
    s->q = s->d.q;
    s->width = s->d.bits;
    s->stored = s->keys;
    return FP_OK;
}

static void cuckoo_space(fp_state_t *s)
{
    uint64_t z = UINT64_C(1) << s->d.q;
    s->slots = FP_CUCKOO_SLOTS * z;
    s->bits = 8 * z * ((FP_CUCKOO_SLOTS * (uint64_t)s->d.bits + 7) / 8);
}

static unsigned cuckoo_new_bits(const fp_state_t *s) { return s->width; }

static size_t cuckoo_describe(const fp_state_t *s, char *buf, size_t len)
{
    uint64_t z = UINT64_C(1) << s->d.q;
    size_t at = fp_text(buf, len, 0, "%llu buckets of %d slots (%llu slots, load %.4g), two "
                        "candidate buckets a key\n", (unsigned long long)z, FP_CUCKOO_SLOTS,
                        (unsigned long long)s->slots, (double)s->keys / (double)s->slots);
    at = fp_text(buf, len, at, "f = %u tag bits: %llu bytes a bucket\n", s->d.bits,
                 (unsigned long long)((FP_CUCKOO_SLOTS * (uint64_t)s->d.bits + 7) / 8));
    at = fp_text(buf, len, at, "bits = %llu (%.4g bits per key), %llu bytes\n",
                 (unsigned long long)s->bits, (double)s->bits / (double)s->keys,
                 (unsigned long long)(s->bits / 8));
    return fp_text(buf, len, at, "exact            %.17g (every key stored; past about 95%% "
                   "of its slots inserts fail)\n", cuckoo_exact(s));
}

/* ---- one built filter ---- */

/* z buckets of 4 tags (0: empty), the victim slot, the pairs of a query space
 * (cuckoo_conditional). */
typedef struct cuckoo_table {
    uint64_t z;
    unsigned f;
    uint32_t *tag;
    int victim;
    uint64_t victim_index;
    uint32_t victim_tag;
    uint64_t *pairs;
} cuckoo_table_t;

static double cuckoo_bytes(const fp_state_t *s)
{
    double z = (double)(UINT64_C(1) << s->q);
    return 4.0 * FP_CUCKOO_SLOTS * z + 16.0 * (FP_CUCKOO_SLOTS * z + 1);
}

static int cuckoo_alloc(void **t, const fp_state_t *s)
{
    cuckoo_table_t *w = calloc(1, sizeof *w);
    *t = w;
    if (!w)
        return -1;
    w->z = UINT64_C(1) << s->q;
    w->f = s->width;
    w->tag = malloc(FP_CUCKOO_SLOTS * w->z * sizeof *w->tag);
    w->pairs = malloc((2 * FP_CUCKOO_SLOTS * w->z + 2) * sizeof *w->pairs);
    return w->tag && w->pairs ? 0 : -1;
}

static void cuckoo_free(void *t)
{
    cuckoo_table_t *w = t;
    if (!w)
        return;
    free(w->tag);
    free(w->pairs);
    free(w);
}

/* The bucket a tag's other candidate is: (index ^ tag * 0x5bd1e995) mod z. */
static uint64_t alt_index(const cuckoo_table_t *w, uint64_t i, uint32_t t)
{
    return ((uint32_t)i ^ (uint32_t)(t * UINT32_C(0x5bd1e995))) & (w->z - 1);
}

/* A key's bucket and tag from its 64 hash bits (GenerateIndexTagHash). */
static void index_tag(const cuckoo_table_t *w, uint64_t h, uint64_t *i, uint32_t *t)
{
    *i = (h >> 32) & (w->z - 1);
    *t = (uint32_t)h & (uint32_t)((UINT64_C(1) << w->f) - 1);
    *t += *t == 0;
}

/* AddImpl: the first empty slot of the bucket, else (after the first try) a random
 * slot's tag is kicked to its other bucket, at most 500 times; then the victim slot. */
static void cuckoo_add(cuckoo_table_t *w, uint64_t i, uint32_t t, pcg32_t *r)
{
    for (unsigned count = 0; count < FP_CUCKOO_KICKS; count++) {
        uint32_t *b = w->tag + FP_CUCKOO_SLOTS * i;
        for (unsigned j = 0; j < FP_CUCKOO_SLOTS; j++)
            if (b[j] == 0) {
                b[j] = t;
                return;
            }
        if (count > 0) {
            unsigned j = pcg32_below32(r, FP_CUCKOO_SLOTS);
            uint32_t old = b[j];
            b[j] = t;
            t = old;
        }
        i = alt_index(w, i, t);
    }
    w->victim = 1;
    w->victim_index = i;
    w->victim_tag = t;
}

static int cuckoo_build(void *t, const fp_state_t *s, pcg32_t *r, const scheme_poll_t *poll,
                        uint64_t *refused)
{
    cuckoo_table_t *w = t;
    memset(w->tag, 0, FP_CUCKOO_SLOTS * w->z * sizeof *w->tag);
    w->victim = 0;
    *refused = 0;
    for (uint64_t k = 0; k < s->keys; k++) {
        if (w->victim) { /* Add: NotEnoughSpace from now on */
            *refused = s->keys - k;
            return 0;
        }
        if (scheme_poll_says_stop(poll, k))
            return 1;
        uint64_t i;
        uint32_t tag;
        index_tag(w, pcg32_next64(r), &i, &tag);
        cuckoo_add(w, i, tag, r);
    }
    return 0;
}

static int in_bucket(const cuckoo_table_t *w, uint64_t i, uint32_t t)
{
    const uint32_t *b = w->tag + FP_CUCKOO_SLOTS * i;
    return b[0] == t || b[1] == t || b[2] == t || b[3] == t;
}

static uint64_t cuckoo_lookups(const void *t, const fp_state_t *s, pcg32_t *r, uint64_t L,
                               const scheme_poll_t *poll)
{
    const cuckoo_table_t *w = t;
    (void)s;
    uint64_t fp = 0;
    for (uint64_t k = 0; k < L && !scheme_poll_says_stop(poll, k); k++) {
        uint64_t i1, i2;
        uint32_t tag;
        index_tag(w, pcg32_next64(r), &i1, &tag);
        i2 = alt_index(w, i1, tag);
        fp += (w->victim && tag == w->victim_tag &&
               (i1 == w->victim_index || i2 == w->victim_index)) ||
              in_bucket(w, i1, tag) || in_bucket(w, i2, tag);
    }
    return fp;
}

FP_SORT_DEFINE(sort_u64, uint64_t)

/* The pairs (bucket, tag) of the queries a stored tag t in bucket b answers. */
static size_t add_pairs(const cuckoo_table_t *w, uint64_t *p, uint64_t b, uint32_t t)
{
    uint64_t a = alt_index(w, b, t);
    p[0] = b << 32 | t;
    if (a == b)
        return 1;
    p[1] = a << 32 | t;
    return 2;
}

static double cuckoo_conditional(void *t, const fp_state_t *s, const scheme_poll_t *poll)
{
    cuckoo_table_t *w = t;
    (void)s;
    size_t np = 0;
    for (uint64_t b = 0; b < w->z; b++) {
        if (scheme_poll_says_stop(poll, FP_CUCKOO_SLOTS * b))
            return 0;
        for (unsigned j = 0; j < FP_CUCKOO_SLOTS; j++)
            if (w->tag[FP_CUCKOO_SLOTS * b + j])
                np += add_pairs(w, w->pairs + np, b, w->tag[FP_CUCKOO_SLOTS * b + j]);
    }
    if (w->victim)
        np += add_pairs(w, w->pairs + np, w->victim_index, w->victim_tag);
    if (sort_u64(w->pairs, np, poll))
        return 0;
    long double one = ldexpl(1.0L, -(int)w->f), sum = 0;
    for (size_t i = 0; i < np; i++)
        if (i == 0 || w->pairs[i] != w->pairs[i - 1])
            sum += (uint32_t)w->pairs[i] == 1 ? 2 * one : one; /* tag 1 also stands for 0 */
    return (double)(sum / (long double)w->z);
}

const fp_ops_t fp_cuckoo_ops = {
    .design = cuckoo_design,
    .run = cuckoo_run,
    .space = cuckoo_space,
    .new_bits = cuckoo_new_bits,
    .exact = cuckoo_exact,
    .places = cuckoo_places,
    .between_var = cuckoo_between_var,
    .describe = cuckoo_describe,
    .table_bytes = cuckoo_bytes,
    .table_alloc = cuckoo_alloc,
    .table_free = cuckoo_free,
    .build = cuckoo_build,
    .lookups = cuckoo_lookups,
    .conditional = cuckoo_conditional,
};

static const scheme_t scheme = {.name = "cuckoo"};

const fp_filter_t fp_filter_cuckoo = {
    .name = "cuckoo",
    .summary = "cuckoo filter (CoNEXT 2014): buckets of 4 f-bit tags, two candidates, 500 "
               "kicks; sized for design_keys, refuses keys once full",
    .ops = &fp_cuckoo_ops,
    .scheme = &scheme,
};
