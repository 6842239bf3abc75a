/* crossread.c - a filter written by one scheme and read by another (crossread.h). */
#include "estimate/crossread.h"

#include <math.h>
#include <stdlib.h>

#include <omp.h>

#include "base/bits.h"
#include "base/pcg.h"

int crossread_words(const scheme_t *s, const probe_geom_t *g, const uint64_t *d, uint64_t *h)
{
    for (unsigned j = 0; j < s->nwords; j++)
        h[j] = s->word_bits == 64   ? d[j]
               : s->word_bits == 32 ? (uint32_t)(d[j / 2] >> (32 * (j % 2)))
                                    : d[j] % g->m;
    if (s->check_words(g, h) == SCHEME_OK)
        return SCHEME_OK;
    if (s->word_bits || s->nwords < 2)
        return SCHEME_EWORD;
    h[1] |= 1; /* seed 003's h2 |= 1 */
    return s->check_words(g, h);
}

int crossread_usable(const scheme_t *s, const probe_geom_t *g, const char **why)
{
    if (!s->nwords || !s->positions || s->positions_drawn) {
        *why = "draws its positions afresh for each key, so no other scheme can be given "
               "the same key";
        return -1;
    }
    /* Strides 0 and 1 (even and odd): a scheme that refuses one of them after the seed's
     * h2 |= 1 (double-even refuses every odd one) takes no word rule of a digest. */
    for (uint64_t t = 0; t < 2; t++) {
        uint64_t d[CROSSREAD_DIGEST_WORDS] = {0, t, 0, 0}, h[SCHEME_MAX_WORDS];
        if (crossread_words(s, g, d, h) != SCHEME_OK) {
            *why = "refuses the words a digest gives it (reduced mod m, h2 |= 1)";
            return -1;
        }
    }
    return 0;
}

/* One filter's counts. */
typedef struct xr_counts {
    uint64_t absent, writer_absent, reader_fp, writer_fp, set;
} xr_counts_t;

/* A thread's scratch: the array and both schemes' words and positions. */
typedef struct xr_scratch {
    bits_t b;
    uint64_t *pw, *pr, *agree; /* k positions each; agree: k counts of this filter */
} xr_scratch_t;

static void digest(pcg32_t *r, uint64_t *d)
{
    for (int j = 0; j < CROSSREAD_DIGEST_WORDS; j++)
        d[j] = pcg32_next64(r);
}

static int all_set(const bits_t *b, const uint64_t *pos, unsigned k)
{
    for (unsigned i = 0; i < k; i++)
        if (!bits_test(b, pos[i]))
            return 0;
    return 1;
}

/* Key d's positions by the writer into pw and by the reader into pr. */
static int both_positions(const crossread_t *x, const crossread_out_t *o, const uint64_t *d,
                          xr_scratch_t *s)
{
    uint64_t hw[SCHEME_MAX_WORDS], hr[SCHEME_MAX_WORDS];
    if (crossread_words(x->writer, &o->gw, d, hw) != SCHEME_OK ||
        crossread_words(x->reader, &o->gr, d, hr) != SCHEME_OK)
        return CROSSREAD_EWORDS;
    x->writer->positions(&o->gw, hw, s->pw);
    x->reader->positions(&o->gr, hr, s->pr);
    return CROSSREAD_OK;
}

/* Filter f: insert, ask the held keys again, ask the strangers. */
static int one_filter(const crossread_t *x, const crossread_out_t *o, uint64_t f,
                      xr_scratch_t *s, xr_counts_t *c)
{
    const unsigned k = x->k;
    pcg32_t ins, held, q;
    uint64_t d[CROSSREAD_DIGEST_WORDS];
    pcg32_unit(&ins, x->seed, 0, f);
    held = ins;
    bits_reset(&s->b, o->array_bits);
    for (unsigned i = 0; i < k; i++)
        s->agree[i] = 0;
    for (uint64_t j = 0; j < x->n; j++) {
        digest(&ins, d);
        if (both_positions(x, o, d, s) != CROSSREAD_OK)
            return CROSSREAD_EWORDS;
        for (unsigned i = 0; i < k; i++)
            bits_set(&s->b, s->pw[i]);
    }
    c->set = bits_count_range(&s->b, 0, o->gw.m);
    for (uint64_t j = 0; j < x->n; j++) {
        digest(&held, d);
        both_positions(x, o, d, s); /* accepted when inserted */
        c->writer_absent += !all_set(&s->b, s->pw, k);
        c->absent += !all_set(&s->b, s->pr, k);
        for (unsigned i = 0; i < k; i++)
            s->agree[i] += s->pw[i] == s->pr[i];
    }
    pcg32_unit(&q, x->seed, 1, f);
    for (uint64_t j = 0; j < x->queries; j++) {
        digest(&q, d);
        if (both_positions(x, o, d, s) != CROSSREAD_OK)
            return CROSSREAD_EWORDS;
        c->writer_fp += all_set(&s->b, s->pw, k);
        c->reader_fp += all_set(&s->b, s->pr, k);
    }
    return CROSSREAD_OK;
}

static int scratch_alloc(xr_scratch_t *s, uint64_t bits, unsigned k)
{
    s->pw = malloc(3 * (size_t)k * sizeof *s->pw);
    s->pr = s->pw ? s->pw + k : NULL;
    s->agree = s->pw ? s->pw + 2 * (size_t)k : NULL;
    if (!s->pw || bits_alloc(&s->b, bits) != 0) {
        free(s->pw);
        s->pw = NULL;
        return -1;
    }
    return 0;
}

static void scratch_free(xr_scratch_t *s)
{
    if (s->pw)
        bits_free(&s->b);
    free(s->pw);
}

/* Run every filter on x->threads threads into c[f]; o->agree summed. */
static int run_filters(const crossread_t *x, crossread_out_t *o, xr_counts_t *c)
{
    int failed = CROSSREAD_OK;
#pragma omp parallel num_threads(x->threads)
    {
        xr_scratch_t s = {0};
        int mine = scratch_alloc(&s, o->array_bits, x->k) ? CROSSREAD_ENOMEM : CROSSREAD_OK;
        if (mine) {
#pragma omp atomic write
            failed = mine;
        }
#pragma omp for schedule(dynamic, 1)
        for (uint64_t f = 0; f < x->filters; f++) {
            int stop;
#pragma omp atomic read
            stop = failed;
            if (stop || mine || (x->stop && atomic_load(x->stop)))
                continue;
            int st = one_filter(x, o, f, &s, &c[f]);
            if (st) {
#pragma omp atomic write
                failed = st;
                continue;
            }
            for (unsigned i = 0; i < x->k; i++) {
#pragma omp atomic
                o->agree[i] += s.agree[i];
            }
        }
        scratch_free(&s);
    }
    if (!failed && x->stop && atomic_load(x->stop))
        failed = CROSSREAD_ESTOPPED;
    return failed;
}

int crossread_measure(const crossread_t *x, crossread_out_t *o)
{
    o->array_bits = o->gw.m > o->gr.m ? o->gw.m : o->gr.m;
    o->agree = calloc(x->k, sizeof *o->agree);
    xr_counts_t *c = calloc(x->filters, sizeof *c);
    uint64_t *v = calloc(4 * x->filters, sizeof *v);
    int st = !o->agree || !c || !v ? CROSSREAD_ENOMEM : run_filters(x, o, c);
    if (st == CROSSREAD_OK) {
        const uint64_t F = x->filters;
        uint64_t *ab = v, *rf = v + F, *wf = v + 2 * F;
        long double set = 0;
        o->writer_absent = 0;
        for (uint64_t f = 0; f < F; f++) {
            ab[f] = c[f].absent, rf[f] = c[f].reader_fp, wf[f] = c[f].writer_fp;
            o->writer_absent += c[f].writer_absent;
            set += c[f].set;
        }
        o->fill = (double)(set / ((long double)F * o->gw.m));
        /* No model bounds a cross-read's between-filter variance: every interval is the
         * spread's (stats.h), never a binomial one that assumes it away. */
        stats_summarize(ab, F, x->n, INFINITY, &o->absent);
        stats_summarize(rf, F, x->queries, INFINITY, &o->reader_fp);
        stats_summarize(wf, F, x->queries, INFINITY, &o->writer_fp);
        o->absent.ci_high = fmin(o->absent.ci_high, 1.0); /* a share */
    }
    free(c);
    free(v);
    return st;
}

void crossread_out_free(crossread_out_t *o)
{
    free(o->agree);
    o->agree = NULL;
}
