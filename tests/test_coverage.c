/* test_coverage.c - the 95% intervals cover the true rate 95% of the time, row by row, and
 * a precision target is met in truth, not only on paper (docs/model.md, Estimators):
 *  - coverage: the same row run with S seeds (300 here; scripts/coverage runs thousands
 *    and commits the table) for independent probes at 65,536 bits and 1% (lookups, at
 *    two lookup counts: a negligible and a real between-filter variance), independent at
 *    4,096 bits and 10% (lookups and conditional), and double hashing at 4,096 bits and
 *    1% (lookups and conditional; the between-filter variance dominates), each at F = 2,
 *    3 and 8 filters. The true rate is the exact one (rate_exact) for independent
 *    probes, and for double hashing the mean of its exact per-filter rates over 4,000
 *    other filters (the conditional estimator with every stride enumerated; its own
 *    standard error is printed and is a small fraction of the rows'). Coverage must lie
 *    within 3 binomial standard errors of 95%, except for rows whose interval is the
 *    conservative one (a spread estimated from fewer than 8 filters, whose coverage is
 *    at least 95% whatever the between-filter variance is: stats.h), which must not lie
 *    below;
 *  - precision: double hashing at 4,096 bits and 1% by lookups, from 2 filters to a 3%
 *    target, 200 times: the realised relative error (the root mean square of rate/true -
 *    1) is at most 3% plus its own sampling error (3 x 3% / sqrt(2 x 200)).
 * Fixed seeds; every figure is printed, and is the same for any thread count (the seeds
 * are shared among OpenMP threads, each row run on one). Usage: test_coverage [SEEDS]
 * (the table only, for scripts/coverage, when SEEDS is given). */
#undef NDEBUG
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <omp.h>

#include "estimate/estimator.h"
#include "experiment/plan.h"
#include "libraries/registry.h"
#include "rates/rate.h"
#include "estimate/simulate.h"
#include "base/stats.h"

typedef struct cov_case {
    const char *scheme;
    uint64_t m;
    double b;      /* bits per key */
    int cond;      /* conditional estimator (every stride) rather than lookups */
    uint64_t L;    /* lookups per filter */
} cov_case_t;

static exp_row_t make_row(const cov_case_t *c, uint64_t F)
{
    exp_row_t row = {.est = c->cond ? &est_conditional : &est_lookups, .bits_per_key = c->b,
                     .filters = F, .lookups_per_filter = c->L, .strides = 0};
    row.scheme = scheme_find(c->scheme);
    row.n = (uint64_t)floor((double)c->m / c->b + 0.5);
    unsigned k = plan_k(K_OPTIMAL, 0, c->b);
    assert(row.scheme && row.scheme->geometry(c->m, k, 0, &row.geom) == SCHEME_OK);
    return row;
}

/* Run row with seed into out; its summary into s. */
static void run(const exp_row_t *row, uint64_t seed, row_out_t *out, stats_summary_t *s)
{
    sim_used_t used;
    assert(sim_row(&(row_run_t){.row = row, .seed = seed, .threads = 1, .out = out}, &used) == 0);
    exp_row_t ran = *row;
    ran.lookups_per_filter = used.lookups_per_filter;
    assert(sim_summarize(&ran, used.filters, out, s) == 0);
}

/* The true rate of the case's scheme and geometry; the last one computed by 4,000
 * filters is kept, as the double-hashing cases share it. */
static double truth(const cov_case_t *c, row_out_t *out, double *se)
{
    static cov_case_t last;
    static double last_rate = NAN, last_se;
    if (!isnan(last_rate) && strcmp(last.scheme, c->scheme) == 0 && last.m == c->m &&
        last.b == c->b) {
        *se = last_se;
        return last_rate;
    }
    exp_row_t row = make_row(c, 2);
    if (strcmp(c->scheme, "independent") == 0) {
        double e;
        assert(rate_exact(row.geom.m, row.n, row.geom.k, &e) == RATE_OK);
        *se = 0;
        return e;
    }
    cov_case_t exact = *c;
    exact.cond = 1;
    row = make_row(&exact, 4000);
    stats_summary_t s;
    run(&row, 777, out, &s);
    last = *c, last_rate = s.rate, last_se = s.stderr_;
    *se = s.stderr_;
    return s.rate;
}

static const char *kind_name(stats_kind_t k)
{
    return k == STATS_BINOMIAL ? "binomial" : k == STATS_SPREAD ? "spread" : "exact";
}

/* Coverage of every case at F = 2, 3, 8 over `seeds` seeds; asserts when `check`. */
static void coverage(unsigned seeds, int check, row_out_t *out)
{
    static const cov_case_t cases[] = {
        {"independent", 65536, 9.5851, 0, 2000},   {"independent", 65536, 9.5851, 0, 200000},
        {"independent", 4096, 4.8, 0, 20000},     {"independent", 4096, 4.8, 1, 0},
        {"double", 4096, 9.5851, 0, 20000},       {"double", 4096, 9.5851, 1, 0},
    };
    printf("%-12s %6s %-11s %7s  %2s  %8s  %-8s  %s\n", "scheme", "m", "estimator", "L", "F",
           "coverage", "interval", "truth");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const cov_case_t *c = &cases[i];
        double se_truth, p = truth(c, out, &se_truth);
        const uint64_t Fs[] = {2, 3, 8};
        for (size_t j = 0; j < 3; j++) {
            exp_row_t row = make_row(c, Fs[j]);
            unsigned hit = 0, conservative = 0, kinds[3] = {0, 0, 0};
#pragma omp parallel reduction(+ : hit, conservative)
            {
                row_out_t mine; /* each thread's own filters' outputs */
                assert(sim_out_alloc(&mine, 64) == 0);
                unsigned k0 = 0, k1 = 0, k2 = 0;
#pragma omp for schedule(dynamic)
                for (unsigned t = 0; t < seeds; t++) {
                    stats_summary_t s;
                    run(&row, 1000 + 7919 * (uint64_t)t, &mine, &s);
                    hit += s.ci_low <= p && p <= s.ci_high;
                    conservative += s.kind == STATS_SPREAD && Fs[j] < STATS_MIN_SPREAD_FILTERS;
                    k0 += s.kind == STATS_BINOMIAL, k1 += s.kind == STATS_SPREAD, k2 += s.kind == STATS_EXACT;
                }
#pragma omp critical
                kinds[0] += k0, kinds[1] += k1, kinds[2] += k2;
                sim_out_free(&mine);
            }
            /* the interval most of the seeds made */
            unsigned most = kinds[1] > kinds[0] ? (kinds[2] > kinds[1] ? 2 : 1)
                                                : (kinds[2] > kinds[0] ? 2 : 0);
            stats_kind_t kind = (stats_kind_t)(STATS_BINOMIAL + most);
            double cov = (double)hit / seeds, se = sqrt(0.95 * 0.05 / seeds);
            printf("%-12s %6llu %-11s %7llu  %2llu  %8.4f  %-8s  %.6g (+- %.2g)%s\n",
                   c->scheme, (unsigned long long)c->m, c->cond ? "conditional" : "lookups",
                   (unsigned long long)c->L, (unsigned long long)Fs[j], cov, kind_name(kind),
                   p, se_truth, conservative > seeds / 2 ? "  conservative" : "");
            if (!check)
                continue;
            assert(cov >= 0.95 - 3 * se);
            if (conservative <= seeds / 2)
                assert(cov <= 0.95 + 3 * se);
        }
    }
}

/* The precision rule reaches its target in truth: double hashing at 4,096 bits, 1%. */
static void precision(row_out_t *out)
{
    const cov_case_t c = {"double", 4096, 9.5851, 0, 20000};
    double se_truth, p = truth(&c, out, &se_truth);
    exp_row_t row = make_row(&c, 2);
    row.precision = 0.03;
    row.max_filters = 100000;
    const unsigned runs = 200;
    double ss = 0, filters = 0;
    unsigned met = 0;
    for (unsigned t = 0; t < runs; t++) {
        stats_summary_t s;
        run(&row, 5000 + 104729 * (uint64_t)t, out, &s);
        ss += (s.rate / p - 1) * (s.rate / p - 1);
        filters += (double)s.filters;
        met += sim_target_met(&row, &s);
    }
    double rms = sqrt(ss / runs), bound = 0.03 * (1 + 3 / sqrt(2.0 * runs));
    printf("precision 3%%: realised relative error %.4f over %u rows (at most %.4f), %.1f "
           "filters on average, target met in %u\n", rms, runs, bound, filters / runs, met);
    assert(rms <= bound && met == runs);
}

int main(int argc, char **argv)
{
    gsl_set_error_handler_off();
    row_out_t out;
    assert(sim_out_alloc(&out, 100000) == 0);
    if (argc > 1) {
        coverage((unsigned)strtoul(argv[1], NULL, 10), 0, &out);
    } else {
        coverage(300, 1, &out);
        precision(&out);
    }
    sim_out_free(&out);
    return 0;
}
