/* test_runner.c - the lookups estimator end to end, below the command line:
 *  - statistical: `independent` measured against the exact rate of rate.c, and
 *    `partitioned` against its own exact rate, within 5 standard errors at several
 *    points (fixed seed; the z-score of each is printed);
 *  - determinism: per-filter counts identical at 1 and 2 threads;
 *  - the cache lines of an absent lookup (run/lines.h), worked by hand.
 * The standard error is the estimator's own (between-filter spread), so the bound is
 * derived from the estimate, never hand-picked. */
#undef NDEBUG
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "estimate/estimator.h"
#include "experiment/experiment.h"
#include "rates/rate.h"
#include "run/lines.h"
#include "run/runner.h"
#include "libraries/registry.h"
#include "estimate/simulate.h"
#include "base/stats.h"
#include "test_util.h"
#include "experiment/plan.h"

static exp_row_t make_row(const char *scheme, uint64_t m, double b, uint64_t F, uint64_t L)
{
    exp_row_t row = {.est = &est_lookups, .bits_per_key = b, .filters = F,
                     .lookups_per_filter = L};
    row.scheme = scheme_find(scheme);
    row.n = (uint64_t)floor((double)m / b + 0.5);
    unsigned k = test_k(row.scheme, m, plan_k(K_OPTIMAL, 0, b));
    assert(row.scheme->geometry(m, k, 0, &row.geom) == SCHEME_OK);
    return row;
}

static uint64_t used;

/* The row's summary of F per-filter counts, as the runner makes it (sim_summarize). */
static void summarize(const exp_row_t *row, uint64_t *counts, uint64_t F, stats_summary_t *s)
{
    row_out_t out = {.counts = counts};
    assert(sim_summarize(row, F, &out, s) == 0);
}

static void test_against_exact(void)
{
    static const struct { const char *scheme; uint64_t m; double b; } pts[] = {
        {"independent", 1024, 4}, {"independent", 1024, 8}, {"independent", 4096, 12},
        {"independent", 1021, 6}, {"independent", 65536, 10},
        {"partitioned", 1024, 8}, {"partitioned", 4096, 6},
        {"blocked", 4096, 8}, {"blocked", 65536, 12}, {"split-block", 4096, 10},
        {"split-block", 65536, 16},
    };
    const uint64_t F = 2000, L = 2000;
    uint64_t *counts = malloc(F * sizeof *counts);
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        exp_row_t row = make_row(pts[i].scheme, pts[i].m, pts[i].b, F, L);
        assert(sim_row_into(&row, 20261130, i, 2, counts, NULL, &used) == 0);
        stats_summary_t s;
        summarize(&row, counts, F, &s);
        double want;
        if (row.scheme->exact == NULL || (want = row.scheme->exact(&row.geom, row.n)) < 0)
            abort();
        double z = (s.rate - want) / s.stderr_;
        printf("%-12s m=%-6llu b=%-3g k=%-2u rate %.6e exact %.6e se %.2e z %+.2f\n",
               row.scheme->name, (unsigned long long)row.geom.m, pts[i].b, row.geom.k,
               s.rate, want, s.stderr_, z);
        assert(s.stderr_ > 0 && fabs(z) < 5);
    }
    free(counts);
}

/* The check must be able to fail: double hashing at its floor is far from `exact`. */
static void test_detects_floor(void)
{
    const uint64_t F = 2000, L = 5000;
    uint64_t *counts = malloc(F * sizeof *counts);
    exp_row_t row = make_row("double", 1024, 24, F, L);
    assert(sim_row_into(&row, 1, 0, 2, counts, NULL, &used) == 0);
    stats_summary_t s;
    summarize(&row, counts, F, &s);
    double want;
    assert(rate_exact(row.geom.m, row.n, row.geom.k, &want) == RATE_OK);
    double z = (s.rate - want) / s.stderr_;
    printf("double at 1024 bits, b=24: rate %.3e exact %.3e z %+.1f (must be > 5)\n", s.rate,
           want, z);
    assert(z > 5);
    free(counts);
}

static void test_thread_independence(void)
{
    const uint64_t F = 301, L = 777;
    uint64_t *c1 = malloc(F * sizeof *c1), *c2 = malloc(F * sizeof *c2);
    for (size_t i = 0; i < scheme_count(); i++) {
        exp_row_t row = make_row(scheme_at(i)->name, 4096, 10, F, L);
        assert(sim_row_into(&row, 5, 3, 1, c1, NULL, &used) == 0);
        assert(sim_row_into(&row, 5, 3, 2, c2, NULL, &used) == 0);
        assert(memcmp(c1, c2, F * sizeof *c1) == 0);
        /* A different seed gives different counts: the comparison is not vacuous. */
        assert(sim_row_into(&row, 6, 3, 2, c2, NULL, &used) == 0);
        assert(memcmp(c1, c2, F * sizeof *c1) != 0);
    }
    printf("per-filter counts identical at 1 and 2 threads for every scheme\n");
    free(c1);
    free(c2);
}

/* Seed 001's stack (500 keys at 1%, growth 2, tightening 0.5) at 6,000 keys, from an
 * experiment file: its measured rate against 1 - prod(1 - exact_j), each layer's exact
 * rate from rate.c, within 5 standard errors, with both estimators. */
static void test_stack_exact(void)
{
    const char *path = "/tmp/bloomsim-test-stack.ini";
    FILE *f = fopen(path, "w");
    assert(f);
    fputs("[sweep]\ndesign_keys = 2000\ndesign_rate = 0.01\ninserted = 6000\n"
          "stack = 500/2/0.5\nschemes = independent\nestimator = lookups\n"
          "filters = 400\nlookups = 4000000\n", f);
    fclose(f);
    char err[EXP_ERR_LEN];
    experiment_t *e = malloc(sizeof *e);
    exp_row_t *rows;
    size_t n;
    assert(experiment_load(path, e, err, sizeof err) == 0);
    assert(plan_rows(e, 0, &rows, &n, err, sizeof err) == 0);
    assert(n == 1 && rows[0].structure == STRUCT_STACK && rows[0].nlayers == 4);
    double pass = 1;
    for (size_t j = 0; j < rows[0].nlayers; j++) {
        double x;
        const probe_geom_t *g = row_layer_geom(&rows[0], j);
        assert(rate_exact(g->m, row_layer_n(&rows[0], j), g->k, &x) == RATE_OK);
        pass *= 1 - x;
    }
    double want = 1 - pass;
    double *rates = malloc(400 * sizeof *rates);
    for (int est = 0; est < 2; est++) {
        rows[0].est = est ? &est_conditional : &est_lookups;
        stats_summary_t s;
        assert(sim_row_into(&rows[0], 11, 0, 2, NULL, rates, &used) == 0);
        assert(sim_summarize(&rows[0], used, &(row_out_t){.counts = NULL, .rates = rates}, &s) == 0);
        double z = (s.rate - want) / s.stderr_;
        printf("stack 500/2/0.5 at 6000 keys (%s): rate %.5e +- %.1e, exact %.5e, z %+.2f\n",
               est ? "conditional" : "lookups", s.rate, s.stderr_, want, z);
        assert(s.stderr_ > 0 && fabs(z) < 5);
    }
    free(rates);
    free(rows);
    free(e);
}

/* At 80 bits per key (4,096 bits, 51 keys, k = 55) every rate is near 1e-17: the
 * reference columns must be the rates themselves (rate.c), not 1 - (1 - x), which is 0
 * in double there; and the conditional estimate of independent probes must agree with
 * the exact rate within 5 standard errors. */
static void test_tiny_rates(void)
{
    const char *path = "/tmp/bloomsim-test-80.ini";
    FILE *f = fopen(path, "w");
    assert(f);
    fputs("[sweep]\nbits = 4096\nbits_per_key = 80\nschemes = independent partitioned\n"
          "estimator = conditional\nfilters = 400\n", f);
    fclose(f);
    char err[EXP_ERR_LEN];
    experiment_t *e = malloc(sizeof *e);
    assert(experiment_load(path, e, err, sizeof err) == 0);
    /* A directory of its own: a run claims its outputs (store.h), and another test run
     * on this machine must not find them claimed. */
    char dir[] = "/tmp/bloomsim-test-80-XXXXXX";
    assert(mkdtemp(dir));
    run_opts_t o = {.threads = 2, .outdir = dir};
    run_result_t res;
    assert(runner_run(e, &o, &res, err, sizeof err) == 0 && res.nrows == 2);
    for (size_t i = 0; i < 2; i++) {
        const csv_row_t *r = &res.rows[i];
        double exact, part = rate_partitioned_exact(r->m / r->k, r->n, r->k);
        assert(rate_exact(r->m, r->n, r->k, &exact) == RATE_OK);
        printf("b = 80, %s (m %llu, n %llu, k %u): rate %.4e formula %.4e exact %.4e "
               "scheme_exact %.4e z_exact %+.2f\n", r->scheme, (unsigned long long)r->m,
               (unsigned long long)r->n, (unsigned)r->k, r->rate, r->formula, r->exact, r->scheme_exact,
               r->z_exact);
        assert(r->k == 55 && r->formula == rate_formula(r->m, r->n, r->k));
        assert(r->formula_finite == rate_formula_finite(r->m, r->n, r->k));
        assert(r->exact == exact && r->exact > 0);
        double want = i == 0 ? exact : part;
        assert(r->scheme_exact == want && fabs(r->rate - want) < 5 * r->stderr_);
    }
    assert(remove(res.csv_path) == 0 && remove(res.meta_path) == 0);
    runner_free(&res);
    assert(rmdir(dir) == 0); /* nothing else was left: no lock, no partial */
    free(e);
}

/* The cache lines of an absent lookup (run/lines.h), worked by hand: RocksDB's 512-bit
 * lines, 1; 4 slices of 250 bits at fill 1/2, 1 + 1/2 + 1/4 + 1/8; one array of 1,024 bits
 * (2 lines), k = 3, fill 1/2: x = 1/2 (1 - 1/2) = 1/4, 1 + 1/4 + 1/16; blocks of 1,024
 * bits, wider than a line, and a fill outside [0, 1]: none. */
static void test_lines(void)
{
    probe_geom_t g;
    assert(scheme_find("rocksdb-fastlocal")->geometry(1 << 20, 6, 0, &g) == SCHEME_OK);
    assert(lines_absent_lookup(&g, 0.5) == 1);
    assert(scheme_find("partitioned")->geometry(1000, 4, 0, &g) == SCHEME_OK && g.w == 250);
    assert(fabs(lines_absent_lookup(&g, 0.5) - 1.875) < 1e-15);
    assert(scheme_find("independent")->geometry(1024, 3, 0, &g) == SCHEME_OK);
    assert(fabs(lines_absent_lookup(&g, 0.5) - 1.3125) < 1e-15);
    assert(isnan(lines_absent_lookup(&g, 1.5)));
    assert(scheme_find("blocked")->geometry(1 << 20, 7, 1024, &g) == SCHEME_OK);
    assert(isnan(lines_absent_lookup(&g, 0.5)));
    printf("lines: 1 (RocksDB's lines), 1.875 (4 slices), 1.3125 (2 lines, k = 3) at fill 1/2\n");
}

int main(void)
{
    test_lines();
    test_tiny_rates();
    test_stack_exact();
    test_against_exact();
    test_detects_floor();
    test_thread_independence();
    return 0;
}
