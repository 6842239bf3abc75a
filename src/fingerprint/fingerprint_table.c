/* fingerprint_table.c - one built fingerprint filter (fingerprint.h): its stored keys,
 * its lookups and its exact rate given what it stores.
 *
 * Quotient family: what decides a lookup is each stored key's T kept bits, so a filter is
 * kept as the keys' low T bits, a sorted group per distinct T; a query x is a false
 * positive when x mod 2^T is in some group. Where the key sits (its slot now, a run, a
 * secondary table, Aleph's copies) only places it: the reference's lookups compare
 * exactly these bits (fingerprint.c cites them). The built filter's own rate is the
 * measure of the union of {x : x = v mod 2^T}: two such sets are nested or disjoint, so
 * it is the sum of 2^-T over the distinct kept values that no shorter one covers.
 *
 * Cuckoo: the table itself, filled as efficient/cuckoofilter fills it (the kicked slot
 * drawn from the filter's stream in place of rand()); a query (i, t) asks buckets i and
 * i ^ h(t). A stored tag t in bucket b answers yes to exactly the queries (b, t) and
 * (alt(b, t), t), wherever the kicks left it, so the built filter's rate is the weight of
 * the distinct such pairs: P(t)/z each.
 */
#include "fingerprint/fingerprint.h"
#include "base/sorted.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct fp_work {
    uint64_t refused;
    /* quotient family: a group per distinct T, ascending; group j's values are
     * v[at[j] .. at[j + 1]), sorted; generation g's keys go to group of_gen[g] */
    size_t ngroups;
    unsigned group_t[FP_MAX_GENS];
    uint64_t at[FP_MAX_GENS + 1];
    size_t of_gen[FP_MAX_GENS];
    pcg_u128 *v;
    /* cuckoo: z buckets of 4 tags (0: empty), the victim slot, the pairs of a query
     * space (fp_conditional) */
    uint64_t z;
    unsigned f;
    uint32_t *tag;
    int victim;
    uint64_t victim_index;
    uint32_t victim_tag;
    uint64_t *pairs;
};

static pcg_u128 low_bits(pcg_u128 h, unsigned t)
{
    return t >= FP_HASH_BITS ? h : h & ((((pcg_u128)1) << t) - 1);
}

static pcg_u128 draw128(pcg32_t *r)
{
    pcg_u128 hi = pcg32_next64(r);
    return hi << 64 | pcg32_next64(r);
}

double fp_work_bytes(const fp_state_t *s)
{
    if (s->filter->family == FP_FAMILY_CUCKOO) {
        double z = (double)(UINT64_C(1) << s->q);
        return 4.0 * FP_CUCKOO_SLOTS * z + 16.0 * (FP_CUCKOO_SLOTS * z + 1);
    }
    return 16.0 * (double)s->stored;
}

/* The groups of a quotient-family filter: its generations' T, sorted and merged. */
static void plan_groups(fp_work_t *w, const fp_state_t *s)
{
    for (size_t g = 0; g < s->ngens; g++) {
        size_t j = 0;
        while (j < w->ngroups && w->group_t[j] < s->gen_t[g])
            j++;
        if (j == w->ngroups || w->group_t[j] != s->gen_t[g]) {
            memmove(&w->group_t[j + 1], &w->group_t[j], (w->ngroups - j) * sizeof w->group_t[0]);
            memmove(&w->at[j + 1], &w->at[j], (w->ngroups - j) * sizeof w->at[0]);
            w->group_t[j] = s->gen_t[g];
            w->at[j] = 0;
            w->ngroups++;
        }
        w->at[j] += s->gen_n[g]; /* counts for now */
    }
    uint64_t sum = 0;
    for (size_t j = 0; j <= w->ngroups; j++) { /* counts into offsets */
        uint64_t c = j < w->ngroups ? w->at[j] : 0;
        w->at[j] = sum;
        sum += c;
    }
    for (size_t g = 0; g < s->ngens; g++)
        for (size_t j = 0; j < w->ngroups; j++)
            if (w->group_t[j] == s->gen_t[g])
                w->of_gen[g] = j;
}

int fp_work_alloc(fp_work_t **wp, const fp_state_t *s)
{
    fp_work_t *w = calloc(1, sizeof *w);
    *wp = w;
    if (!w)
        return -1;
    if (s->filter->family == FP_FAMILY_CUCKOO) {
        w->z = UINT64_C(1) << s->q;
        w->f = s->width;
        w->tag = malloc(FP_CUCKOO_SLOTS * w->z * sizeof *w->tag);
        w->pairs = malloc((2 * FP_CUCKOO_SLOTS * w->z + 2) * sizeof *w->pairs);
        return w->tag && w->pairs ? 0 : -1;
    }
    plan_groups(w, s);
    w->v = malloc((s->stored ? s->stored : 1) * sizeof *w->v);
    return w->v ? 0 : -1;
}

void fp_work_free(fp_work_t *w)
{
    if (!w)
        return;
    free(w->v);
    free(w->tag);
    free(w->pairs);
    free(w);
}

uint64_t fp_work_refused(const fp_work_t *w) { return w->refused; }

/* ---- the quotient family ---- */

static int cmp_u128(const void *a, const void *b)
{
    pcg_u128 x = *(const pcg_u128 *)a, y = *(const pcg_u128 *)b;
    return (x > y) - (x < y);
}

/* Whether x is among the sorted v[0..n). */
SORTED_DEFINE_CONTAINS(found, pcg_u128)

/* The stored keys, generation by generation (the order they arrive), each as its low
 * T bits in its group; the refused ones are not drawn. */
static void quotient_build(fp_work_t *w, const fp_state_t *s, pcg32_t *r)
{
    uint64_t fill[FP_MAX_GENS];
    for (size_t j = 0; j < w->ngroups; j++)
        fill[j] = w->at[j];
    for (size_t g = 0; g < s->ngens; g++) {
        size_t j = w->of_gen[g];
        for (uint64_t k = 0; k < s->gen_n[g]; k++)
            w->v[fill[j]++] = low_bits(draw128(r), s->gen_t[g]);
    }
    for (size_t j = 0; j < w->ngroups; j++)
        qsort(w->v + w->at[j], (size_t)(w->at[j + 1] - w->at[j]), sizeof *w->v, cmp_u128);
    w->refused = s->refused;
}

static uint64_t quotient_lookups(const fp_work_t *w, pcg32_t *r, uint64_t L)
{
    uint64_t fp = 0;
    for (uint64_t i = 0; i < L; i++) {
        pcg_u128 x = draw128(r);
        for (size_t j = 0; j < w->ngroups; j++)
            if (found(w->v + w->at[j], w->at[j + 1] - w->at[j], low_bits(x, w->group_t[j]))) {
                fp++;
                break;
            }
    }
    return fp;
}

static double quotient_conditional(const fp_work_t *w)
{
    long double sum = 0;
    for (size_t h = 0; h < w->ngroups; h++) {
        uint64_t distinct = 0;
        for (uint64_t i = w->at[h]; i < w->at[h + 1]; i++) {
            if (i > w->at[h] && w->v[i] == w->v[i - 1])
                continue;
            int covered = 0;
            for (size_t g = 0; g < h && !covered; g++)
                covered = found(w->v + w->at[g], w->at[g + 1] - w->at[g],
                                low_bits(w->v[i], w->group_t[g]));
            distinct += !covered;
        }
        sum += (long double)distinct * ldexpl(1.0L, -(int)w->group_t[h]);
    }
    return (double)sum;
}

/* ---- cuckoo ---- */

/* The bucket a tag's other candidate is: (index ^ tag * 0x5bd1e995) mod z. */
static uint64_t alt_index(const fp_work_t *w, uint64_t i, uint32_t t)
{
    return ((uint32_t)i ^ (uint32_t)(t * UINT32_C(0x5bd1e995))) & (w->z - 1);
}

/* A key's bucket and tag from its 64 hash bits (GenerateIndexTagHash). */
static void index_tag(const fp_work_t *w, uint64_t h, uint64_t *i, uint32_t *t)
{
    *i = (h >> 32) & (w->z - 1);
    *t = (uint32_t)h & (uint32_t)((UINT64_C(1) << w->f) - 1);
    *t += *t == 0;
}

/* AddImpl: the first empty slot of the bucket, else (after the first try) a random
 * slot's tag is kicked to its other bucket, at most 500 times; then the victim slot. */
static void cuckoo_add(fp_work_t *w, uint64_t i, uint32_t t, pcg32_t *r)
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

static void cuckoo_build(fp_work_t *w, const fp_state_t *s, pcg32_t *r)
{
    memset(w->tag, 0, FP_CUCKOO_SLOTS * w->z * sizeof *w->tag);
    w->victim = 0;
    w->refused = 0;
    for (uint64_t k = 0; k < s->keys; k++) {
        if (w->victim) { /* Add: NotEnoughSpace from now on */
            w->refused = s->keys - k;
            return;
        }
        uint64_t i;
        uint32_t t;
        index_tag(w, pcg32_next64(r), &i, &t);
        cuckoo_add(w, i, t, r);
    }
}

static int in_bucket(const fp_work_t *w, uint64_t i, uint32_t t)
{
    const uint32_t *b = w->tag + FP_CUCKOO_SLOTS * i;
    return b[0] == t || b[1] == t || b[2] == t || b[3] == t;
}

static uint64_t cuckoo_lookups(const fp_work_t *w, pcg32_t *r, uint64_t L)
{
    uint64_t fp = 0;
    for (uint64_t k = 0; k < L; k++) {
        uint64_t i1, i2;
        uint32_t t;
        index_tag(w, pcg32_next64(r), &i1, &t);
        i2 = alt_index(w, i1, t);
        fp += (w->victim && t == w->victim_tag &&
               (i1 == w->victim_index || i2 == w->victim_index)) ||
              in_bucket(w, i1, t) || in_bucket(w, i2, t);
    }
    return fp;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The pairs (bucket, tag) of the queries a stored tag t in bucket b answers. */
static size_t add_pairs(const fp_work_t *w, uint64_t *p, uint64_t b, uint32_t t)
{
    uint64_t a = alt_index(w, b, t);
    p[0] = b << 32 | t;
    if (a == b)
        return 1;
    p[1] = a << 32 | t;
    return 2;
}

static double cuckoo_conditional(fp_work_t *w)
{
    size_t np = 0;
    for (uint64_t b = 0; b < w->z; b++)
        for (unsigned j = 0; j < FP_CUCKOO_SLOTS; j++)
            if (w->tag[FP_CUCKOO_SLOTS * b + j])
                np += add_pairs(w, w->pairs + np, b, w->tag[FP_CUCKOO_SLOTS * b + j]);
    if (w->victim)
        np += add_pairs(w, w->pairs + np, w->victim_index, w->victim_tag);
    qsort(w->pairs, np, sizeof *w->pairs, cmp_u64);
    long double one = ldexpl(1.0L, -(int)w->f), sum = 0;
    for (size_t i = 0; i < np; i++)
        if (i == 0 || w->pairs[i] != w->pairs[i - 1])
            sum += (uint32_t)w->pairs[i] == 1 ? 2 * one : one; /* tag 1 also stands for 0 */
    return (double)(sum / (long double)w->z);
}

/* ---- the interface ---- */

void fp_build(fp_work_t *w, const fp_state_t *s, pcg32_t *r)
{
    if (s->filter->family == FP_FAMILY_CUCKOO)
        cuckoo_build(w, s, r);
    else
        quotient_build(w, s, r);
}

uint64_t fp_lookups(const fp_work_t *w, const fp_state_t *s, pcg32_t *r, uint64_t L)
{
    return s->filter->family == FP_FAMILY_CUCKOO ? cuckoo_lookups(w, r, L)
                                                 : quotient_lookups(w, r, L);
}

double fp_conditional(fp_work_t *w, const fp_state_t *s)
{
    return s->filter->family == FP_FAMILY_CUCKOO ? cuckoo_conditional(w)
                                                 : quotient_conditional(w);
}
