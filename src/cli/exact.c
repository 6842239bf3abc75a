/* exact.c - `bloomsim exact`: the reference rates of docs/model.md for m bits, n keys and
 * k probes, and with --block-bits the blocked filters' exact rates and approximations. */
#include <math.h>
#include <stdio.h>

#include "cli/cli.h"
#include "cli/json_out.h"
#include "experiment/plan.h"
#include "libraries/registry.h"
#include "rates/rate.h"
#include "schemes/scheme.h"

static const char usage[] =
    "usage: bloomsim exact --bits M --keys N [--k K] [--block-bits B] [--json]\n\n"
    "Prints the reference rates of docs/model.md for m bits, n keys, k probes (default\n"
    "k = round(m/n ln 2)): the formula (1-e^{-kn/m})^k, its finite form\n"
    "(1-(1-1/m)^{kn})^k, the exact rate of independent probes by the moment form\n"
    "and by the dynamic program (where m is small enough), and the exact rate of\n"
    "partitioned slices. With --block-bits, the blocked filters of B-bit blocks too\n"
    "(m rounded down to whole blocks): the exact rates of blocked and split-block,\n"
    "and beside them the approximations in use, Putze's Poisson mixture, RocksDB's\n"
    "CacheLocalFpRate and the split-block sizing formula, each over the exact rate.\n"
    "--json prints the same numbers as one JSON object (docs/json.md).\n";

/* exact --block-bits: what each blocked scheme prints, computed before anything is
 * printed, so that a refusal comes alone. */
typedef struct blocked_rates {
    const scheme_t *scheme;
    probe_geom_t g;
    uint64_t block;        /* bits per block, as asked */
    int no_split;          /* split-block: k does not split the block */
    double exact, poisson; /* its exact rate and Putze's mixture */
    double other;          /* RocksDB's CacheLocalFpRate (blocked), or the sizing formula */
} blocked_rates_t;

/* The blocked schemes' rates at (m, n, k) in blocks of `block` bits into br[0..2).
 * Returns 0, or the exit status after the one-line message (2: a block size the schemes
 * cannot take; 1: no exact rate). */
static int blocked_rates(uint64_t m, uint64_t n, unsigned k, uint64_t block,
                         blocked_rates_t br[2])
{
    const char *names[2] = {"blocked", "split-block"};
    for (int j = 0; j < 2; j++) {
        blocked_rates_t *b = &br[j];
        *b = (blocked_rates_t){.scheme = scheme_find(names[j]), .block = block};
        int st = b->scheme->geometry(m, k, block, &b->g);
        if (st == SCHEME_ESPLIT && j == 1) {
            b->no_split = 1;
            continue;
        }
        if (st != SCHEME_OK)
            return cli_die(2, "exact: %s with --block-bits %llu: %s (got '%llu')",
                           b->scheme->name, (unsigned long long)block, scheme_strerror(st),
                           (unsigned long long)block);
        b->exact = b->scheme->exact(&b->g, n);
        if (b->exact < 0)
            return cli_die(1, "exact: %s: no exact rate for %llu keys in %llu blocks (the load "
                              "distribution is too wide to sum)", b->scheme->name,
                           (unsigned long long)n, (unsigned long long)b->g.blocks);
        b->poisson = b->scheme->model(&b->g, n);
        b->other = b->scheme->model_rocksdb ? b->scheme->model_rocksdb(&b->g, n)
                                            : rate_formula(b->g.m, n, k); /* (1 - e^{-k/b})^k */
    }
    return 0;
}

/* exact --block-bits: the blocked schemes' exact rates and the approximations beside
 * them, each over its exact rate. */
static void print_blocked_rates(const blocked_rates_t br[2], unsigned k)
{
    for (int j = 0; j < 2; j++) {
        const blocked_rates_t *b = &br[j];
        if (b->no_split) {
            printf("split-block      (k = %u does not split %llu bits into power-of-two "
                   "words)\n", k, (unsigned long long)b->block);
            continue;
        }
        printf("%-16s %.17g   (%llu blocks of %llu bits, m used %llu)\n", b->scheme->name,
               b->exact, (unsigned long long)b->g.blocks, (unsigned long long)b->g.block,
               (unsigned long long)b->g.m);
        printf("  Poisson mixture  %.6g   (Putze et al. eq. 3; %.4f of exact)\n", b->poisson,
               b->poisson / b->exact);
        if (b->scheme->model_rocksdb)
            printf("  CacheLocalFpRate %.6g   (RocksDB; %.4f of exact)\n", b->other,
                   b->other / b->exact);
        else
            printf("  sizing formula   %.6g   ((1 - e^{-k/b})^k, Parquet's; %.4f of exact)\n",
                   b->other, b->other / b->exact);
    }
}

/* exact --json: what the text shows, as docs/json.md's "exact" section. */
static int exact_json(uint64_t m, uint64_t n, unsigned k, const blocked_rates_t *br)
{
    json_object *o = json_out_new("exact");
    double x;
    json_out_count(o, "m", m);
    json_out_count(o, "n", n);
    json_out_count(o, "k", k);
    json_out_num(o, "bits_per_key", (double)m / (double)n);
    json_out_num(o, "formula", rate_formula(m, n, k));
    json_out_num(o, "formula_finite", rate_formula_finite(m, n, k));
    json_out_num(o, "exact_moments", rate_exact_moment(m, n, k, &x) == RATE_OK ? x : NAN);
    json_out_num(o, "exact_dp", rate_exact_dp(m, n, k, &x) == RATE_OK ? x : NAN);
    if (k < m) {
        json_object *p = json_out_obj(o, "partitioned");
        json_out_num(p, "rate", rate_partitioned_exact(m / k, n, k));
        json_out_count(p, "slice_bits", m / k);
        json_out_count(p, "m_used", m / k * k);
    }
    for (int j = 0; br && j < 2; j++) {
        const blocked_rates_t *b = &br[j];
        if (b->no_split) {
            json_out_text(o, "split_block", NULL);
            continue;
        }
        json_object *q = json_out_obj(o, j ? "split_block" : "blocked");
        json_out_num(q, "rate", b->exact);
        json_out_count(q, "blocks", b->g.blocks);
        json_out_count(q, "block_bits", b->g.block);
        json_out_count(q, "m_used", b->g.m);
        json_out_num(q, "poisson", b->poisson);
        json_out_num(q, "poisson_over_exact", b->poisson / b->exact);
        json_out_num(q, b->scheme->model_rocksdb ? "cache_local" : "sizing_formula", b->other);
        json_out_num(q, b->scheme->model_rocksdb ? "cache_local_over_exact"
                                                 : "sizing_formula_over_exact",
                     b->other / b->exact);
    }
    return json_out_print(o, "exact");
}

int cli_exact(int argc, char **argv)
{
    uint64_t m = 0, n = 0, k = 0, block = 0;
    int json = 0;
#define EXACT_COUNT(nm, p) \
    {.name = nm, .kind = CLI_COUNT, .dst = p, .min = 1, .max = UINT64_MAX, \
     .must = "a whole number >= 1"}
    const cli_opt_t opts[] = {EXACT_COUNT("--bits", &m), EXACT_COUNT("--keys", &n),
                              EXACT_COUNT("--k", &k), EXACT_COUNT("--block-bits", &block),
                              {.name = "--json", .kind = CLI_FLAG, .dst = &json}};
#undef EXACT_COUNT
    cli_spec_t spec = {.command = "exact", .usage = usage, .unknown = "argument", .opts = opts,
                       .nopts = sizeof opts / sizeof opts[0]};
    int rc = cli_parse(&spec, argc, argv);
    if (rc >= 0)
        return rc;
    if (!m || !n)
        return cli_die(2, "exact: --bits and --keys are required (got %s)",
                       !m ? "no --bits" : "no --keys");
    if (m > (UINT64_C(1) << 40))
        return cli_die(2, "exact: --bits must be at most 2^40 (got '%llu')",
                       (unsigned long long)m);
    if (!k)
        k = plan_k(K_OPTIMAL, 0, (double)m / (double)n);
    if (k > 1000)
        return cli_die(2, "exact: --k must be at most 1000 (got '%llu')", (unsigned long long)k);
    blocked_rates_t br[2];
    if (block && (rc = blocked_rates(m, n, (unsigned)k, block, br)) != 0)
        return rc; /* refused before anything is printed */
    if (json)
        return exact_json(m, n, (unsigned)k, block ? br : NULL);
    double x;
    printf("m = %llu, n = %llu, k = %llu, bits per key = %.6g\n", (unsigned long long)m,
           (unsigned long long)n, (unsigned long long)k, (double)m / (double)n);
    printf("formula          %.17g\n", rate_formula(m, n, (unsigned)k));
    printf("formula_finite   %.17g\n", rate_formula_finite(m, n, (unsigned)k));
    if (rate_exact_moment(m, n, (unsigned)k, &x) == RATE_OK)
        printf("exact (moments)  %.17g\n", x);
    else
        printf("exact (moments)  (outside the moment form's domain or too ill-conditioned)\n");
    if (rate_exact_dp(m, n, (unsigned)k, &x) == RATE_OK)
        printf("exact (DP)       %.17g\n", x);
    else
        printf("exact (DP)       (m too large for the dynamic program)\n");
    if (k < m)
        printf("partitioned      %.17g   (slices of %llu bits, m used %llu)\n",
               rate_partitioned_exact(m / k, n, (unsigned)k), (unsigned long long)(m / k),
               (unsigned long long)(m / k * k));
    if (block)
        print_blocked_rates(br, (unsigned)k);
    return 0;
}
