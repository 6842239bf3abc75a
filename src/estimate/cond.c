/* cond.c - the conditional estimator; see cond.h for what it computes and why it is
 * unbiased. */
#include "estimate/cond.h"

#include "rates/rate.h"
#include "base/sorted.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Limits past which the estimator declines (auto then uses lookups): the rotated copy
 * and the per-key stride list must stay small next to the filter itself. */
#define COND_M_MAX (UINT64_C(1) << 26)
#define COND_N_MAX (UINT64_C(1) << 22)
#define COND_SCAN_MAX (UINT64_C(1) << 20)
/* Inserted keys' strides join the enumerated stratum when a query repeating a key
 * exactly, probability n / (m S), is at least this fraction of the formula's rate;
 * below it they change the estimate too little to pay for their cost. */
#define COND_KEYS_SHARE 1e-3

int cond_supported(const scheme_t *s, const probe_geom_t *g, uint64_t n)
{
    switch (s->cond) {
    case SCHEME_COND_FILL:
    case SCHEME_COND_SLICES:
    case SCHEME_COND_BLOCKS:
    case SCHEME_COND_SPLIT:
        return 1;
    case SCHEME_COND_SHIFT:
        return g->m <= COND_M_MAX && n <= COND_N_MAX && s->stride_count(g) > 0;
    default:
        return 0;
    }
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Sort and drop repeats; returns the new length. */
static size_t sort_unique(uint64_t *v, size_t n)
{
    if (n == 0)
        return 0;
    qsort(v, n, sizeof *v, cmp_u64);
    return sorted_unique(v, n);
}

int cond_plan_make(cond_plan_t *p, const scheme_t *s, const probe_geom_t *g, uint64_t n,
                   uint64_t samples)
{
    memset(p, 0, sizeof *p);
    p->scheme = s;
    p->g = *g;
    p->n = n;
    p->samples = samples;
    if (!cond_supported(s, g, n))
        return COND_ENOTSUP;
    if (s->cond != SCHEME_COND_SHIFT)
        return COND_OK;
    p->strides = s->stride_count(g);
    /* Degenerate strides, part 1: where the stride space is small enough to scan, every
     * stride whose k offsets are not all distinct. Part 2, for any size: every valid
     * stride whose words are all multiples of q, the smallest divisor of m with
     * m/q <= 2k; its probes then stay in a coset of at most 2k positions, so they hit
     * few distinct bits and are false positives far more often (for triple hashing at
     * 4,096 bits and 32 bits per key such pairs carry about half the floor). */
    uint64_t scan = p->strides <= COND_SCAN_MAX ? p->strides : 0;
    uint64_t coset = 2 * (uint64_t)g->k < g->m ? 2 * (uint64_t)g->k : g->m;
    uint64_t q = (g->m + coset - 1) / coset;
    while (g->m % q != 0)
        q++;
    uint64_t per_word = g->m / q, ncand = 1;
    for (unsigned j = 1; j < s->nwords; j++)
        ncand *= per_word;
    p->degenerate = malloc((size_t)(scan + ncand) * sizeof *p->degenerate);
    uint64_t *off = malloc(g->k * sizeof *off);
    if (!p->degenerate || !off) {
        free(off);
        cond_plan_free(p);
        return COND_ENOMEM;
    }
    for (uint64_t st = 0; st < scan; st++) {
        uint64_t h[SCHEME_MAX_WORDS] = {0};
        s->stride_at(g, st, h);
        s->positions(g, h, off);
        if (sort_unique(off, g->k) < g->k)
            p->degenerate[p->ndegenerate++] = st;
    }
    for (uint64_t c = 0; c < ncand; c++) {
        uint64_t h[SCHEME_MAX_WORDS] = {0}, rest = c;
        for (unsigned j = 1; j < s->nwords; j++, rest /= per_word)
            h[j] = (rest % per_word) * q;
        if (s->check_words(g, h) == SCHEME_OK)
            p->degenerate[p->ndegenerate++] = s->stride_index(g, h);
    }
    p->ndegenerate = sort_unique(p->degenerate, p->ndegenerate);
    free(off);
    p->key_strata = (double)n / ((double)g->m * (double)p->strides) >=
                    COND_KEYS_SHARE * rate_formula(g->m, n, g->k);
    return COND_OK;
}

void cond_plan_free(cond_plan_t *p)
{
    free(p->degenerate);
    p->degenerate = NULL;
    p->ndegenerate = 0;
}

static uint64_t ext_words(uint64_t m) { return (m + 64 * ((m + 63) / 64)) / 64 + 2; }

int cond_work_alloc(cond_work_t *w, const cond_plan_t *p)
{
    memset(w, 0, sizeof *w);
    if (p->scheme->cond != SCHEME_COND_SHIFT)
        return COND_OK;
    uint64_t nw = (p->g.m + 63) / 64;
    w->ext = malloc(ext_words(p->g.m) * sizeof *w->ext);
    w->acc = malloc(nw * sizeof *w->acc);
    w->live = malloc(nw * sizeof *w->live);
    w->offsets = malloc(p->g.k * sizeof *w->offsets);
    w->words = malloc((size_t)(SCHEME_MAX_WORDS * (p->n + 1)) * sizeof *w->words);
    w->strata = malloc((size_t)(p->ndegenerate + p->n + 1) * sizeof *w->strata);
    if (!w->ext || !w->acc || !w->live || !w->offsets || !w->words || !w->strata) {
        cond_work_free(w);
        return COND_ENOMEM;
    }
    return COND_OK;
}

void cond_work_free(cond_work_t *w)
{
    free(w->ext);
    free(w->acc);
    free(w->live);
    free(w->offsets);
    free(w->words);
    free(w->strata);
    memset(w, 0, sizeof *w);
}

/* Whether w's poll says to abandon the filter, asked every COND_POLL_WORDS words of the
 * strides' ANDs (milliseconds); once it has, every later stride of the filter is
 * skipped (the filter's rate is then dropped by the caller). */
#define COND_POLL_WORDS (UINT64_C(1) << 20)
static int cond_stopped(cond_work_t *w, uint64_t nw)
{
    if (!w->poll)
        return 0;
    if (w->polled == UINT64_MAX)
        return 1;
    if ((w->polled += nw) < COND_POLL_WORDS)
        return 0;
    w->polled = w->poll->fn(w->poll->ctx) ? UINT64_MAX : 0;
    return w->polled == UINT64_MAX;
}

#define COND_LOAD_BITS (UINT64_C(1) << 16)

void cond_load_filter(const cond_plan_t *p, const bits_t *b, cond_work_t *w)
{
    uint64_t m = p->g.m, nwe = ext_words(m), nw = (m + 63) / 64;
    if (m % 64 == 0) {
        for (uint64_t q = 0; q < nwe; q++)
            w->ext[q] = b->word[q % nw];
        return;
    }
    /* m not a multiple of 64: copy bit by bit, t -> t mod m (O(m), once per filter),
     * asking w's poll between chunks of COND_LOAD_BITS (seconds at 10^10 bits). */
    memset(w->ext, 0, nwe * sizeof *w->ext);
    uint64_t src = 0;
    for (uint64_t t0 = 0; t0 < 64 * nwe; t0 += COND_LOAD_BITS) {
        if (t0 && cond_stopped(w, COND_LOAD_BITS / 64))
            return;
        uint64_t t1 = 64 * nwe - t0 < COND_LOAD_BITS ? 64 * nwe : t0 + COND_LOAD_BITS;
        for (uint64_t t = t0; t < t1; t++) {
            if (bits_test(b, src))
                w->ext[t >> 6] |= UINT64_C(1) << (t & 63);
            if (++src == m)
                src = 0;
        }
    }
}

/* 64 bits of ext starting at bit pos: bit j of the result is ext bit pos + j. */
static inline uint64_t ext_get(const uint64_t *ext, uint64_t pos)
{
    uint64_t q = pos >> 6;
    unsigned r = (unsigned)(pos & 63);
    return r ? (ext[q] >> r) | (ext[q + 1] << (64 - r)) : ext[q];
}

uint64_t cond_stride_hits(const cond_plan_t *p, const bits_t *b, cond_work_t *w, uint64_t s)
{
    (void)b;
    const probe_geom_t *g = &p->g;
    uint64_t nw = (g->m + 63) / 64;
    if (cond_stopped(w, nw))
        return 0;
    uint64_t h[SCHEME_MAX_WORDS] = {0};
    p->scheme->stride_at(g, s, h);
    p->scheme->positions(g, h, w->offsets); /* h1 = 0: the offsets f_i(s) themselves */
    unsigned tail = (unsigned)(g->m & 63);
    uint64_t last = tail ? (UINT64_C(1) << tail) - 1 : ~UINT64_C(0);
    /* acc word i covers starts 64i .. 64i+63; rot(B, o) restricted to them is ext from
     * bit 64i + o. Once a word of the AND is zero it stays zero, so after each probe
     * the indices of the nonzero words are compacted (branch-free) into live[] and
     * only those are visited again: at half fill, after ten probes about 6% remain. */
    uint64_t *acc = w->acc;
    uint32_t *live = w->live;
    uint32_t nlive = 0;
    for (uint64_t i = 0; i < nw; i++) {
        uint64_t v = ext_get(w->ext, 64 * i + w->offsets[0]);
        if (i == nw - 1)
            v &= last;
        acc[i] = v;
        live[nlive] = (uint32_t)i;
        nlive += v != 0;
    }
    for (unsigned j = 1; j < g->k && nlive > 0; j++) {
        uint64_t o = w->offsets[j];
        uint32_t kept = 0;
        for (uint32_t a = 0; a < nlive; a++) {
            uint32_t i = live[a];
            uint64_t v = acc[i] & ext_get(w->ext, 64 * (uint64_t)i + o);
            acc[i] = v;
            live[kept] = i;
            kept += v != 0;
        }
        nlive = kept;
    }
    uint64_t c = 0;
    for (uint32_t a = 0; a < nlive; a++)
        c += (uint64_t)__builtin_popcountll(acc[live[a]]);
    return c;
}

void cond_build(const cond_plan_t *p, bits_t *b, cond_work_t *w, pcg32_t *r)
{
    bits_reset(b, p->g.m);
    w->polled = 0;
    if (p->scheme->cond != SCHEME_COND_SHIFT) {
        p->scheme->insert(b, &p->g, r, p->n, NULL, w->poll);
        return;
    }
    p->scheme->insert(b, &p->g, r, p->n, w->words, w->poll);
    if (w->poll && w->poll->fn(w->poll->ctx)) { /* stopped: skip the copy and the strides */
        w->polled = UINT64_MAX;
        return;
    }
    cond_load_filter(p, b, w);
}

/* Blocked schemes: a lookup picks a uniform block, then k positions in it, independent
 * uniform ones (BLOCKS: P(FP | block) = (X/B)^k, X its set bits) or one uniform bit in
 * each of its k words of w bits (SPLIT: the product of the words' fill fractions). The
 * filter's rate is the mean over its blocks, summed in block order. */
static double blocks_rate(int kind, const probe_geom_t *g, const bits_t *b)
{
    long double sum = 0;
    for (uint64_t j = 0; j < g->blocks; j++) {
        uint64_t lo = j * g->block;
        double x = 1.0;
        if (kind == SCHEME_COND_BLOCKS)
            x = pow((double)bits_count_range(b, lo, lo + g->block) / (double)g->block, g->k);
        else
            for (unsigned i = 0; i < g->k && x > 0; i++)
                x *= (double)bits_count_range(b, lo + i * g->w, lo + (i + 1) * g->w) /
                     (double)g->w;
        sum += x;
    }
    return (double)(sum / (long double)g->blocks);
}

double cond_evaluate(const cond_plan_t *p, const bits_t *b, cond_work_t *w, pcg32_t *r)
{
    const probe_geom_t *g = &p->g;
    const scheme_t *s = p->scheme;
    w->within = 0;
    if (cond_stopped(w, 0)) /* the build was stopped: the caller drops the rate */
        return 0;
    if (s->cond == SCHEME_COND_FILL)
        return pow((double)bits_count(b) / (double)g->m, (double)g->k);
    if (s->cond == SCHEME_COND_SLICES) {
        double rate = 1.0;
        for (unsigned i = 0; i < g->k; i++)
            rate *= (double)bits_count_range(b, i * g->w, (i + 1) * g->w) / (double)g->w;
        return rate;
    }
    if (s->cond == SCHEME_COND_BLOCKS || s->cond == SCHEME_COND_SPLIT)
        return blocks_rate(s->cond, g, b);
    /* D for this filter: the geometry's degenerate strides and the keys' own strides. */
    size_t nd = p->ndegenerate;
    memcpy(w->strata, p->degenerate, nd * sizeof *w->strata);
    for (uint64_t j = 0; p->key_strata && j < p->n; j++)
        w->strata[nd++] = s->stride_index(g, w->words + SCHEME_MAX_WORDS * j);
    nd = sort_unique(w->strata, nd);
    uint64_t sum_d = 0;
    for (size_t i = 0; i < nd; i++)
        sum_d += cond_stride_hits(p, b, w, w->strata[i]);
    uint64_t rest = p->strides - nd;
    long double total;
    if (p->samples == 0 || p->samples >= rest) {
        uint64_t sum_r = 0;
        size_t next = 0;
        for (uint64_t st = 0; st < p->strides; st++) {
            if (next < nd && w->strata[next] == st) {
                next++;
                continue;
            }
            sum_r += cond_stride_hits(p, b, w, st);
        }
        total = (long double)sum_d + (long double)sum_r;
    } else {
        uint64_t sum_r = 0;
        long double sum_r2 = 0;
        for (uint64_t i = 0; i < p->samples; i++) {
            uint64_t st;
            do
                st = pcg32_below(r, p->strides);
            while (sorted_contains(w->strata, nd, st));
            uint64_t hits = cond_stride_hits(p, b, w, st);
            sum_r += hits;
            sum_r2 += (long double)hits * (long double)hits;
        }
        long double S = (long double)p->samples, mean = (long double)sum_r / S;
        total = (long double)sum_d + (long double)rest * mean;
        if (p->samples > 1) {
            long double var_c = (sum_r2 - S * mean * mean) / (S - 1), norm =
                (long double)rest / ((long double)g->m * (long double)p->strides);
            w->within = (double)(norm * norm * (var_c > 0 ? var_c : 0) / S);
        }
    }
    return (double)(total / ((long double)g->m * (long double)p->strides));
}

double cond_filter_rate(const cond_plan_t *p, bits_t *b, cond_work_t *w, pcg32_t *r)
{
    cond_build(p, b, w, r);
    return cond_evaluate(p, b, w, r);
}
