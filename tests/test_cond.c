/* test_cond.c - the conditional estimator:
 *  - exactness: on tiny filters its rate equals brute-force enumeration of every query
 *    (all h1 and strides through scheme->positions; all k-tuples for independent and
 *    partitioned), for every scheme;
 *  - the stratified stride sampling is unbiased: for one fixed filter, the mean of many
 *    sampled evaluations is within 5 standard errors of the exact rate;
 *  - it measures what `lookups` measures: both estimators on the same points agree
 *    within 5 combined standard errors (fixed seed; z printed);
 *  - adaptive precision gives the same filters and rates at 1 and 2 threads. */
#undef NDEBUG
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "estimate/cond.h"
#include "estimate/estimator.h"
#include "experiment/experiment.h"
#include "run/runner.h"
#include "estimate/simulate.h"
#include "base/stats.h"
#include "test_util.h"
#include "experiment/plan.h"

/* Every query of the scheme's distribution, counted through its own positions(). */
static double brute_force(const scheme_t *s, const probe_geom_t *g, const bits_t *b,
                          const cond_plan_t *p)
{
    uint64_t pos[64], fp = 0, total = 0;
    if (s->cond == SCHEME_COND_SHIFT) {
        for (uint64_t st = 0; st < p->strides; st++)
            for (uint64_t h1 = 0; h1 < g->m; h1++) {
                uint64_t h[3] = {h1, 0, 0};
                s->stride_at(g, st, h);
                h[0] = h1;
                s->positions(g, h, pos);
                int all = 1;
                for (unsigned i = 0; i < g->k; i++)
                    all &= bits_test(b, pos[i]);
                fp += (uint64_t)all;
                total++;
            }
    } else {
        /* Every block word (the blocked schemes) and every k-tuple of draws, each below
         * its bound, placed by the scheme's own positions_drawn. */
        uint64_t words = s->nwords ? g->blocks : 1, tuples = 1, h[1], d[64];
        for (unsigned i = 0; i < g->k; i++)
            tuples *= s->draw_bound(g, i);
        for (h[0] = 0; h[0] < words; h[0]++)
            for (uint64_t t = 0; t < tuples; t++) {
                uint64_t x = t;
                for (unsigned i = 0; i < g->k; i++) {
                    d[i] = x % s->draw_bound(g, i);
                    x /= s->draw_bound(g, i);
                }
                s->positions_drawn(g, h, d, pos);
                int all = 1;
                for (unsigned i = 0; i < g->k; i++)
                    all &= bits_test(b, pos[i]);
                fp += (uint64_t)all;
                total++;
            }
    }
    return (double)fp / (double)total;
}

static void test_exact_tiny(void)
{
    static const struct { uint64_t m; unsigned k; uint64_t n; } cases[] = {
        {16, 3, 3}, {16, 4, 2}, {13, 3, 3}, {8, 3, 2}, {16, 5, 3}, {32, 5, 4}, {128, 2, 6},
        {192, 2, 5},
    };
    for (size_t si = 0; si < scheme_count(); si++) {
        const scheme_t *s = scheme_at(si);
        if (s->cond == SCHEME_COND_NONE) /* lookups only: nothing to check here */
            continue;
        int ran = 0;
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
            probe_geom_t g;
            /* Blocks of 64 bits for the blocked schemes (2 or 3 of them). */
            if (s->geometry(cases[c].m, cases[c].k, 64, &g) != SCHEME_OK)
                continue; /* double-odd at 13, blocked ones below 128 bits */
            if (s->cond == SCHEME_COND_SHIFT && g.m > 64)
                continue; /* m^2 queries: the small cases suffice */
            if (s->cond == SCHEME_COND_FILL && g.m > 16 && g.k > 4)
                continue; /* m^k queries (2^25 at 32 bits): 16 bits and k = 5 suffice */
            ran++;
            cond_plan_t p;
            cond_work_t w;
            assert(cond_plan_make(&p, s, &g, cases[c].n, 0) == COND_OK);
            assert(cond_work_alloc(&w, &p) == COND_OK);
            bits_t b;
            assert(bits_alloc(&b, g.m) == 0);
            for (uint64_t f = 0; f < 20; f++) {
                pcg32_t r;
                pcg32_unit(&r, 42, si * 100 + c, f);
                double got = cond_filter_rate(&p, &b, &w, &r);
                double want = brute_force(s, &g, &b, &p);
                if (fabs(got - want) > 1e-15 * want) {
                    fprintf(stderr, "%s m=%llu k=%u filter %llu: conditional %.17g, brute "
                            "force %.17g\n", s->name, (unsigned long long)g.m, g.k,
                            (unsigned long long)f, got, want);
                    exit(1);
                }
            }
            bits_free(&b);
            cond_work_free(&w);
            cond_plan_free(&p);
        }
        printf("%-12s conditional == brute force over all queries (%d tiny filters x 20)\n",
               s->name, ran);
        assert(ran >= 2);
    }
}

/* One fixed filter, many sampled evaluations: their mean is the exact rate. */
static void test_sampling_unbiased(void)
{
    static const char *names[] = {"double", "enhanced", "triple", "double-prime"};
    for (size_t i = 0; i < 4; i++) {
        const scheme_t *s = scheme_find(names[i]);
        probe_geom_t g;
        assert(s->geometry(64, 6, 0, &g) == SCHEME_OK);
        cond_plan_t exact_plan, sampled_plan;
        cond_work_t w;
        assert(cond_plan_make(&exact_plan, s, &g, 12, 0) == COND_OK);
        assert(cond_plan_make(&sampled_plan, s, &g, 12, 3) == COND_OK);
        assert(cond_work_alloc(&w, &exact_plan) == COND_OK);
        bits_t b;
        assert(bits_alloc(&b, g.m) == 0);
        pcg32_t r;
        pcg32_unit(&r, 7, i, 0);
        cond_build(&exact_plan, &b, &w, &r);
        double exact = cond_evaluate(&exact_plan, &b, &w, &r);
        const int N = 20000;
        long double sum = 0, sumsq = 0;
        for (int j = 0; j < N; j++) {
            double x = cond_evaluate(&sampled_plan, &b, &w, &r);
            sum += x;
            sumsq += (long double)x * x;
        }
        double mean = (double)(sum / N);
        double sd = sqrt((double)((sumsq - sum * sum / N) / (N - 1)));
        double z = (mean - exact) / (sd / sqrt(N));
        printf("%-12s m=64: exact %.6e, mean of %d sampled %.6e (z %+.2f)\n", names[i],
               exact, N, mean, z);
        assert(sd > 0 && fabs(z) < 5);
        bits_free(&b);
        cond_work_free(&w);
        cond_plan_free(&exact_plan);
        cond_plan_free(&sampled_plan);
    }
}

static exp_row_t make_row(const char *scheme, uint64_t m, double b, const est_ops_t *est)
{
    exp_row_t row = {.bits_per_key = b, .est = est,
                     .filters = 1000, .lookups_per_filter = 10000, .strides = 256};
    row.scheme = scheme_find(scheme);
    row.n = (uint64_t)floor((double)m / b + 0.5);
    unsigned k = test_k(row.scheme, m, plan_k(K_OPTIMAL, 0, b));
    assert(row.scheme->geometry(m, k, 0, &row.geom) == SCHEME_OK);
    return row;
}

static void test_agrees_with_lookups(void)
{
    static const struct { const char *scheme; uint64_t m; double b; } pts[] = {
        {"independent", 4096, 12}, {"partitioned", 1024, 8}, {"double", 1024, 20},
        {"double-odd", 4096, 24}, {"double-prime", 2048, 14}, {"enhanced", 1024, 16},
        {"triple", 1024, 12}, {"enhanced", 4096, 28}, {"blocked", 4096, 8},
        {"blocked", 65536, 16}, {"split-block", 8192, 10}, {"split-block", 65536, 20},
    };
    uint64_t *counts = malloc(1000 * sizeof *counts);
    double *rates = malloc(1000 * sizeof *rates);
    uint64_t used;
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        exp_row_t lk = make_row(pts[i].scheme, pts[i].m, pts[i].b, &est_lookups);
        exp_row_t cd = make_row(pts[i].scheme, pts[i].m, pts[i].b, &est_conditional);
        stats_summary_t a, c;
        assert(sim_row_into(&lk, 2026, 2 * i, 2, counts, NULL, &used) == 0);
        assert(sim_summarize(&lk, used, &(row_out_t){.counts = counts, .rates = NULL}, &a) == 0);
        assert(sim_row_into(&cd, 2026, 2 * i + 1, 2, NULL, rates, &used) == 0);
        assert(sim_summarize(&cd, used, &(row_out_t){.counts = NULL, .rates = rates}, &c) == 0);
        double z = (c.rate - a.rate) / sqrt(a.stderr_ * a.stderr_ + c.stderr_ * c.stderr_);
        printf("%-12s m=%-5llu b=%-3g lookups %.4e +- %.1e, conditional %.4e +- %.1e, z %+.2f\n",
               pts[i].scheme, (unsigned long long)cd.geom.m, pts[i].b, a.rate, a.stderr_,
               c.rate, c.stderr_, z);
        assert(a.stderr_ > 0 && c.stderr_ > 0 && fabs(z) < 5);
        /* Where the scheme has an exact rate, the conditional estimate must match it. */
        double want = cd.scheme->exact ? cd.scheme->exact(&cd.geom, cd.n) : -1;
        if (want >= 0) {
            double ze = (c.rate - want) / c.stderr_;
            printf("%-12s conditional against scheme_exact %.4e: z %+.2f\n", pts[i].scheme,
                   want, ze);
            assert(fabs(ze) < 5);
        }
    }
    free(counts);
    free(rates);
}

static void test_adaptive_threads(void)
{
    exp_row_t row = make_row("enhanced", 1024, 24, &est_conditional);
    row.filters = 20;
    row.precision = 0.01;
    row.max_filters = 100000;
    double *r1 = malloc(row.max_filters * sizeof *r1), *r2 = malloc(row.max_filters * sizeof *r2);
    uint64_t u1, u2;
    assert(sim_row_into(&row, 3, 9, 1, NULL, r1, &u1) == 0);
    assert(sim_row_into(&row, 3, 9, 2, NULL, r2, &u2) == 0);
    stats_summary_t s;
    sim_summarize(&row, u1, &(row_out_t){.counts = NULL, .rates = r1}, &s);
    printf("adaptive: %llu filters at 1 and 2 threads, relative se %.4f (target 0.01)\n",
           (unsigned long long)u1, s.stderr_ / s.rate);
    assert(u1 == u2 && u1 > row.filters);
    for (uint64_t f = 0; f < u1; f++)
        assert(r1[f] == r2[f]);
    assert(s.stderr_ / s.rate <= 0.01);
    free(r1);
    free(r2);
}

int main(void)
{
    test_exact_tiny();
    test_sampling_unbiased();
    test_agrees_with_lookups();
    test_adaptive_threads();
    return 0;
}
