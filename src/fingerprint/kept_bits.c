/* kept_bits.c - see kept_bits.h.
 *
 * What decides a lookup is each stored key's T kept bits, so a filter is kept as the
 * keys' low T bits, a sorted group per distinct T; a query x is a false positive when x
 * mod 2^T is in some group. Where the key sits (its slot now, a run, a secondary table,
 * Aleph's copies) only places it: the reference's lookups compare exactly these bits
 * (quotient_family.c cites them). The built filter's own rate is the measure of the union
 * of {x : x = v mod 2^T}: two such sets are nested or disjoint, so it is the sum of 2^-T
 * over the distinct kept values that no shorter one covers.
 */
#include "fingerprint/kept_bits.h"
#include "base/sorted.h"
#include "fingerprint/sort.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A group per distinct T, ascending; group j's values are v[at[j] .. at[j + 1]),
 * sorted; generation g's keys go to group of_gen[g]. */
typedef struct kept {
    size_t ngroups;
    unsigned group_t[FP_MAX_GENS];
    uint64_t at[FP_MAX_GENS + 1];
    size_t of_gen[FP_MAX_GENS];
    pcg_u128 *v;
} kept_t;

double fp_kept_bytes(const fp_state_t *s) { return 16.0 * (double)s->stored; }

/* The groups: the generations' T, sorted and merged. */
static void plan_groups(kept_t *w, const fp_state_t *s)
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

int fp_kept_alloc(void **t, const fp_state_t *s)
{
    kept_t *w = calloc(1, sizeof *w);
    *t = w;
    if (!w)
        return -1;
    plan_groups(w, s);
    w->v = malloc((s->stored ? s->stored : 1) * sizeof *w->v);
    return w->v ? 0 : -1;
}

void fp_kept_free(void *t)
{
    kept_t *w = t;
    if (!w)
        return;
    free(w->v);
    free(w);
}

/* Whether x is among the sorted v[0..n). */
SORTED_DEFINE_CONTAINS(found, pcg_u128)
FP_SORT_DEFINE(sort_u128, pcg_u128)

/* The stored keys, generation by generation (the order they arrive), each as its low
 * T bits in its group; the refused ones are not drawn. Asks poll between chunks of keys
 * drawn and while sorting. */
int fp_kept_build(void *t, const fp_state_t *s, pcg32_t *r, const scheme_poll_t *poll,
                  uint64_t *refused)
{
    kept_t *w = t;
    uint64_t fill[FP_MAX_GENS], drawn = 0;
    for (size_t j = 0; j < w->ngroups; j++)
        fill[j] = w->at[j];
    for (size_t g = 0; g < s->ngens; g++) {
        size_t j = w->of_gen[g];
        for (uint64_t k = 0; k < s->gen_n[g]; k++, drawn++) {
            if (scheme_poll_says_stop(poll, drawn))
                return 1;
            w->v[fill[j]++] = fp_low_bits(fp_draw128(r), s->gen_t[g]);
        }
    }
    for (size_t j = 0; j < w->ngroups; j++)
        if (sort_u128(w->v + w->at[j], (size_t)(w->at[j + 1] - w->at[j]), poll))
            return 1;
    *refused = s->refused;
    return 0;
}

uint64_t fp_kept_lookups(const void *t, const fp_state_t *s, pcg32_t *r, uint64_t L,
                         const scheme_poll_t *poll)
{
    const kept_t *w = t;
    (void)s;
    uint64_t fp = 0;
    for (uint64_t i = 0; i < L && !scheme_poll_says_stop(poll, i); i++) {
        pcg_u128 x = fp_draw128(r);
        for (size_t j = 0; j < w->ngroups; j++)
            if (found(w->v + w->at[j], w->at[j + 1] - w->at[j], fp_low_bits(x, w->group_t[j]))) {
                fp++;
                break;
            }
    }
    return fp;
}

double fp_kept_conditional(void *t, const fp_state_t *s, const scheme_poll_t *poll)
{
    const kept_t *w = t;
    (void)s;
    long double sum = 0;
    for (size_t h = 0; h < w->ngroups; h++) {
        uint64_t distinct = 0;
        for (uint64_t i = w->at[h]; i < w->at[h + 1]; i++) {
            if (scheme_poll_says_stop(poll, i))
                return 0;
            if (i > w->at[h] && w->v[i] == w->v[i - 1])
                continue;
            int covered = 0;
            for (size_t g = 0; g < h && !covered; g++)
                covered = found(w->v + w->at[g], w->at[g + 1] - w->at[g],
                                fp_low_bits(w->v[i], w->group_t[g]));
            distinct += !covered;
        }
        sum += (long double)distinct * ldexpl(1.0L, -(int)w->group_t[h]);
    }
    return (double)sum;
}
