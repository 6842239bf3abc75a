/* audit_fp.c - `bloomsim audit FILTER`, FILTER a fingerprint filter of a real library
 * (fingerprint/real.h): the family's row at the library's design, measured by lookups to
 * the precision asked, printed beside its promise, its exact rate, its bits per key (every
 * metadata bit counted), the places (RocksDB's Ribbon filter: 64-byte cache lines) a
 * lookup reads and the builds it retried with another seed. RocksDB's Ribbon filter takes
 * --bits-per-key B as NewRibbonFilterPolicy(B) (clamped as RocksDB clamps it, said), its
 * promise the rate RocksDB sizes it for, its Bloom filter's at B; --rate P designs it at
 * the least bits per key whose promise is at most P. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "estimate/simulate.h"
#include "experiment/plan.h"
#include "fingerprint/real.h"
#include "fingerprint/ribbon.h"

/* The row of f for n keys at p, as an experiment of one point plans it. */
static int fp_audit_row(const cli_audit_fp_t *a, double p, exp_row_t *row, char *err,
                        size_t errlen)
{
    double need = 1.0 / (a->precision * a->precision * p);
    const double most = (double)(UINT64_C(1) << 36);
    if (need > (double)a->max_filters * most) {
        snprintf(err, errlen, "audit: a relative standard error of %g at a rate near %g needs "
                 "about %.2g lookups, more than %llu filters of at most 2^36 lookups each can "
                 "make (got '--precision %g')", a->precision, p, need,
                 (unsigned long long)a->max_filters, a->precision);
        return 2;
    }
    uint64_t F = a->max_filters < 8 ? a->max_filters : 8, L = (uint64_t)ceil(need / (double)F);
    if (L < 10000)
        L = 10000;
    if (L > (UINT64_C(1) << 36))
        L = UINT64_C(1) << 36;
    char text[1024];
    const int cf = fp_takes_reserve(a->filter);
    uint64_t design_keys = cf ? (a->cf[0] != UINT64_MAX ? a->cf[0] : FP_REDISBLOOM_CF_CAPACITY)
                              : a->n;
    snprintf(text, sizeof text,
             "[sweep]\ndesign_keys = %llu\ndesign_rate = %.17g\ninserted = %llu\n"
             "fingerprint = %s\nestimator = lookups\nfilters = %llu\nlookups = %llu\n"
             "precision = %.17g\nmax_filters = %llu\n",
             (unsigned long long)design_keys, p, (unsigned long long)a->n, a->filter->name,
             (unsigned long long)F, (unsigned long long)(F * L), a->precision,
             (unsigned long long)a->max_filters);
    experiment_t *e = calloc(1, sizeof *e);
    exp_row_t *rows = NULL;
    size_t nrows = 0;
    char why[EXP_ERR_LEN];
    if (!e) {
        snprintf(err, errlen, "audit: out of memory");
        return 2;
    }
    int rc = experiment_load_text("audit", text, strlen(text), e, why, sizeof why);
    if (rc == 0)
        rc = plan_rows(e, 0, &rows, &nrows, why, sizeof why);
    free(e);
    if (rc != 0 || nrows != 1) {
        snprintf(err, errlen, "audit: %s at %llu keys and %g: %.3000s", a->filter->name,
                 (unsigned long long)a->n, p, rc ? why : "not one row");
        free(rows);
        return 2;
    }
    *row = rows[0];
    free(rows);
    return 0;
}

int cli_audit_cf_refused(const fp_filter_t *f, const uint64_t cf[4])
{
    static const char *const flag[4] = {"--capacity", "--bucket-size", "--max-iterations",
                                        "--expansion"};
    int64_t given[4];
    for (size_t i = 0; i < 4; i++)
        given[i] = cf[i] == UINT64_MAX ? -1 : (int64_t)(cf[i] & INT64_MAX);
    int w;
    const char *why = fp_redisbloom_cuckoo_refused(
        given[0] < 0 ? FP_REDISBLOOM_CF_CAPACITY : cf[0], given[1], given[2], given[3], &w);
    if (!why)
        return 0;
    if (given[w] < 0) /* not given: only CF.ADD's capacity against a bucket size given */
        w = 1;
    return cli_die(2, "audit: %s: %s (got '%s %llu')", f->name, why, flag[w],
                   (unsigned long long)cf[w]);
}

static void fp_audit_print(const cli_audit_fp_t *a, const exp_row_t *rowp, const rb_policy_t *pol,
                           double p, const stats_summary_t *stp, uint64_t filters, uint64_t retried);

int cli_audit_fingerprint(const cli_audit_fp_t *a)
{
    const fp_filter_t *f = a->filter;
    const int bpk = a->bits_per_key >= 0;
    rb_policy_t pol = {0};
    double p = a->rate;
    if (fp_takes_reserve(f) && p < 0) /* one filter's promise, 2 b / 255, for the plan */
        p = fmin(2.0 * (a->cf[1] != UINT64_MAX && a->cf[1] >= 1 && a->cf[1] <= 255
                            ? (double)a->cf[1] : 2.0) / 255,
                 0.5); /* from bucket size 128 it is 1 or more: the plan takes a rate below 1 */
    if (bpk) {
        if (!(f->real && f->real->takes == FP_REAL_BPK))
            return cli_die(2, "audit: %s takes a rate (--rate), not bits per key (got "
                              "'--bits-per-key %g')", f->name, a->bits_per_key);
        if (rb_policy(a->bits_per_key, &pol))
            return cli_die(2, "audit: %s builds no filter below 0.5 bits per key "
                              "(BloomLikeFilterPolicy rounds them down to none; got "
                              "'--bits-per-key %g')", f->name, a->bits_per_key);
        if (pol.clamp)
            fprintf(stderr, "bloomsim: audit: %s: %s (got '--bits-per-key %g')\n", f->name,
                    pol.clamp, a->bits_per_key);
        p = 1.0 / pol.one_in;
    }
    /* CF.RESERVE's refusals were made by audit.c (cf_reserve_args), naming the flag. */
    exp_row_t row;
    char err[EXP_ERR_LEN];
    if (fp_audit_row(a, p, &row, err, sizeof err))
        return cli_die(2, "%s", err);
    if (bpk) { /* the design at B itself, not at the least bits meeting its promise */
        fp_design_t d = row.fp.d;
        d.bpk = pol.bpk;
        if (fp_run(f, &d, a->n, &row.fp) != FP_OK)
            return cli_die(2, "audit: %s cannot design %llu keys at %g bits per key", f->name,
                           (unsigned long long)a->n, a->bits_per_key);
        row.geom.m = row.geom.w = row.fp.bits;
        row.bits_per_key = (double)row.fp.bits / (double)a->n;
    }
    row_out_t out;
    sim_used_t used;
    stats_summary_t st;
    if (sim_out_alloc(&out, row_max_filters(&row)))
        return cli_die(2, "audit: out of memory");
    int rc = sim_row(&(row_run_t){.row = &row, .seed = a->seed, .index = 0,
                                  .threads = (int)a->threads, .out = &out}, &used);
    if (rc == 0)
        rc = sim_summarize(&row, used.filters, &out, &st);
    if (rc != 0) {
        sim_out_free(&out);
        return cli_die(2, "audit: %s: the measurement failed", f->name);
    }
    uint64_t retried = 0;
    for (uint64_t i = 0; out.refused && i < used.filters; i++)
        retried += out.refused[i];
    sim_out_free(&out);
    fp_audit_print(a, &row, &pol, p, &st, used.filters, retried);
    return 0;
}

/* What the row measured, its design beside it. */
static void fp_audit_print(const cli_audit_fp_t *a, const exp_row_t *rowp, const rb_policy_t *pol,
                           double p, const stats_summary_t *stp, uint64_t filters, uint64_t retried)
{
    const fp_filter_t *f = a->filter;
    const int bpk = a->bits_per_key >= 0;
    exp_row_t row = *rowp;
    stats_summary_t st = *stp;
    const uint64_t n = a->n;
    double exact = fp_exact(&row.fp);
    printf("audit %s: %llu keys at ", f->name, (unsigned long long)n);
    if (fp_takes_reserve(f))
        printf("CF.RESERVE %llu BUCKETSIZE %u MAXITERATIONS %u EXPANSION %u\n",
               (unsigned long long)row.fp.d.size, row.fp.d.bucket, row.fp.d.kicks,
               row.fp.d.expansion);
    else if (bpk)
        printf("%g bits per key (NewRibbonFilterPolicy(%.3f))\n", a->bits_per_key, pol->bpk);
    else if (f->real && f->real->takes == FP_REAL_BPK)
        printf("rate %g (bits per key %.3f: the least whose promise meets it)\n", p, row.fp.d.bpk);
    else
        printf("rate %g\n", p);
    if (fp_takes_reserve(f))
        printf("  promise    %.6g (2 x %u / 255 a filter, summed over the first reference "
               "chain's %zu filters: cf.reserve.md)\n", fp_redisbloom_cuckoo_promise(&row.fp),
               row.fp.d.bucket, row.fp.ngens);
    else
    printf("  promise    %.6g%s\n", p, bpk ? " (RocksDB's target: its Bloom filter's rate "
                                             "at those bits per key)" : "");
    printf("  measured   %.6g     95%% interval %.4g to %.4g; standard error %.2g (%.2f%% "
           "relative), %llu filters of %llu lookups\n", st.rate, st.ci_low, st.ci_high,
           st.stderr_, st.rate > 0 ? 100 * st.stderr_ / st.rate : 0.0,
           (unsigned long long)filters,
           (unsigned long long)(filters ? st.lookups / filters : 0));
    printf("  exact      %.6g     measured / exact %.4f\n", exact, st.rate / exact);
    printf("  bits       %.4f a key, every metadata bit counted (%llu bits)\n",
           row.bits_per_key, (unsigned long long)row.fp.bits);
    if (bpk)
        printf("             %.1f%% of the %.3f bits a key of RocksDB's Bloom filter at "
               "that setting\n", 100 * row.bits_per_key / pol->bpk, pol->bpk);
    printf("  lookup     %.4g %s\n", fp_places(&row.fp),
           f->real && f->real->takes == FP_REAL_BPK ? "cache lines of 64 bytes (the solution "
                                           "line-aligned)" : "places");
    if (fp_takes_reserve(f))
        printf("  filters    %zu in the first reference chain, %.4g asked a lookup of an absent "
               "key\n  refused    %.6g keys a chain on average (CF.ADD's errors: \"Maximum "
               "expansions reached\" at 32 filters; \"Filter is full\" with EXPANSION 0), "
               "over %llu chains\n", row.fp.ngens, fp_places(&row.fp) / 2,
               filters ? (double)retried / (double)filters : 0.0, (unsigned long long)filters);
    else
    printf("  retried    %llu builds retried with another seed, over %llu filters\n",
           (unsigned long long)retried, (unsigned long long)filters);
    size_t len = fp_describe(&row.fp, NULL, 0) + 1;
    char *text = malloc(len);
    if (text) {
        fp_describe(&row.fp, text, len);
        printf("  design:\n");
        for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
            printf("    %s\n", line);
        free(text);
    }
}
