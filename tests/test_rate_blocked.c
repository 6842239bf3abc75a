/* test_rate_blocked.c - the exact rates of blocked and split-block filters
 * (rate_blocked.h), and the approximations beside them:
 *  - brute force: every assignment of every key's block and positions in tiny filters,
 *    every query, counted; the mixtures must agree to rounding;
 *  - the walk from the mode against the plain sum over every load (GSL's binomial pmf);
 *  - known answers, each with its source: RocksDB's "0.9535%" for CacheLocalFpRate,
 *    the Parquet specification's example and sizing table for split-block filters. */
#undef NDEBUG
#include <assert.h>
#include <math.h>
#include <stdio.h>

#include <gsl/gsl_randist.h>

#include "rates/rate.h"
#include "rates/rate_blocked.h"

/* All (block, positions) choices of n keys and of one query in z blocks of B bits with
 * k probes; split: probe i in word i of w = B/k bits. Returns the exact rate as a
 * fraction of counts. Keys are coded as integers in [0, z * P), P = positions per key. */
static double brute(uint64_t z, uint64_t B, unsigned k, unsigned n, int split)
{
    uint64_t w = split ? B / k : B, P = 1;
    for (unsigned i = 0; i < k; i++)
        P *= w;
    uint64_t per_key = z * P, filters = 1;
    for (unsigned j = 0; j < n; j++)
        filters *= per_key;
    uint64_t hits = 0;
    for (uint64_t f = 0; f < filters; f++) {
        uint64_t bits[64] = {0}; /* z * B <= 64 */
        uint64_t code = f;
        for (unsigned j = 0; j < n; j++, code /= per_key) {
            uint64_t key = code % per_key, blk = key / P, pos = key % P;
            for (unsigned i = 0; i < k; i++, pos /= w)
                bits[blk * B + (split ? i * w : 0) + pos % w] = 1;
        }
        for (uint64_t q = 0; q < per_key; q++) {
            uint64_t blk = q / P, pos = q % P, all = 1;
            for (unsigned i = 0; i < k; i++, pos /= w)
                all &= bits[blk * B + (split ? i * w : 0) + pos % w];
            hits += all;
        }
    }
    return (double)hits / ((double)filters * (double)per_key);
}

static void test_brute_force(void)
{
    static const struct { uint64_t z, B; unsigned k, n; } c[] = {
        {2, 4, 2, 3}, {3, 4, 2, 2}, {2, 6, 2, 2}, {4, 2, 1, 3}, {2, 4, 2, 1}, {1, 8, 2, 2},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        double want = brute(c[i].z, c[i].B, c[i].k, c[i].n, 0), got;
        assert(rate_blocked_exact(c[i].z * c[i].B, c[i].B, c[i].n, c[i].k, &got) == RATE_OK);
        double wants = brute(c[i].z, c[i].B, c[i].k, c[i].n, 1), gots;
        assert(rate_split_block_exact(c[i].z * c[i].B, c[i].B, c[i].n, c[i].k, &gots) == RATE_OK);
        printf("z=%llu B=%llu k=%u n=%u: blocked %.12f (brute %.12f), split %.12f (brute %.12f)\n",
               (unsigned long long)c[i].z, (unsigned long long)c[i].B, c[i].k, c[i].n, got, want,
               gots, wants);
        assert(fabs(got - want) <= 1e-12 * want + 1e-300);
        assert(fabs(gots - wants) <= 1e-12 * wants + 1e-300);
    }
}

/* The walk out from the mode, stopped by its tail bound, against the sum over every
 * load 0..n of gsl_ran_binomial_pdf times the same inner rate. */
static void test_walk_against_full_sum(void)
{
    static const struct { uint64_t z, B; unsigned k; uint64_t n; } c[] = {
        {64, 512, 8, 3277}, {1000, 64, 4, 2000}, {8, 4096, 16, 1500}, {300, 256, 8, 7680},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        long double full = 0, fulls = 0;
        for (uint64_t L = 0; L <= c[i].n; L++) {
            double p = gsl_ran_binomial_pdf((unsigned)L, 1.0 / (double)c[i].z, (unsigned)c[i].n);
            double x;
            assert(rate_exact(c[i].B, L, c[i].k, &x) == RATE_OK);
            full += (long double)p * x;
            fulls += (long double)p * rate_partitioned_exact(c[i].B / c[i].k, L, c[i].k);
        }
        double got, gots;
        assert(rate_blocked_exact(c[i].z * c[i].B, c[i].B, c[i].n, c[i].k, &got) == RATE_OK);
        assert(rate_split_block_exact(c[i].z * c[i].B, c[i].B, c[i].n, c[i].k, &gots) == RATE_OK);
        printf("z=%-5llu B=%-4llu k=%-2u n=%-5llu blocked %.15g (full sum %.15g), split %.15g "
               "(%.15g)\n", (unsigned long long)c[i].z, (unsigned long long)c[i].B, c[i].k,
               (unsigned long long)c[i].n, got, (double)full, gots, (double)fulls);
        /* GSL's pmf is good to about 1e-13 relative here; the walk's own bound is 1e-15. */
        assert(fabs(got - (double)full) <= 1e-11 * (double)full);
        assert(fabs(gots - (double)fulls) <= 1e-11 * (double)fulls);
    }
}

/* Known answers. */
static void test_known(void)
{
    /* RocksDB's CacheLocalFpRate at 512-bit blocks, (bits per key, k) from 6,4 to 24,12,
     * as computed independently of this code (a direct transcription of RocksDB's
     * BloomMath, made when the library rates were first surveyed), printed to four significant
     * digits, three from 16,9 on: each must agree to half a unit of its last digit.
     * (RocksDB's own comment calls 10,6 "0.9535%"; its function gives 0.95327%.)
     * Putze's Poisson mixture against Kudu's own way of summing it (block_bloom_filter.cc
     * FalsePositiveProb: terms i = 0..749 from exp(i ln lambda - lambda - lgamma(i + 1)),
     * transcribed here), to 1e-12. */
    static const struct { double b; unsigned k; double cl; int digits; } rk[] = {
        {6, 4, 0.05739, 4},   {8, 5, 0.02305, 4},   {10, 6, 0.009533, 4}, {12, 7, 0.004058, 4},
        {16, 9, 0.000797, 3}, {20, 11, 1.71e-4, 3}, {24, 12, 4.08e-5, 3},
    };
    for (size_t i = 0; i < sizeof rk / sizeof rk[0]; i++) {
        double cl = rate_cache_local(rk[i].b, rk[i].k, 512);
        double po = rate_blocked_poisson(512, rk[i].b, rk[i].k), kudu = 0, lam = 512 / rk[i].b;
        for (int j = 0; j < 750; j++)
            kudu += exp(j * log(lam) - lam - lgamma(j + 1) +
                        rk[i].k * log(1 - pow(1 - 1.0 / 512, (double)rk[i].k * j)));
        printf("b = %-2g k = %-2u CacheLocalFpRate %.4g (%.4g), Poisson mixture %.6g (Kudu's "
               "sum %.6g)\n", rk[i].b, rk[i].k, cl, rk[i].cl, po, kudu);
        double unit = pow(10, floor(log10(rk[i].cl)) - (rk[i].digits - 1));
        assert(fabs(cl - rk[i].cl) <= unit / 2);
        assert(fabs(po - kudu) <= 1e-12 * kudu);
    }
    /* Parquet specification (parquet-format BloomFilter.md): 1,024 blocks of 256 bits
     * holding 26,214 keys (10 bits per key) have "approximately 1.26%". */
    double x;
    assert(rate_split_block_exact(1024 * 256, 256, 26214, 8, &x) == RATE_OK);
    printf("split-block 1024 blocks, 26214 keys: %.4f%% (Parquet: 1.26%%)\n", 100 * x);
    assert(fabs(100 * x - 1.26) < 0.005);
    /* The same document's sizing table, bits per key for a rate: 6.0 -> 10%, 10.5 -> 1%,
     * 16.9 -> 0.1%, 26.4 -> 0.01%, 41 -> 0.001%, given to the tenth. The bits per key at
     * which the Poisson mixture (many blocks) reaches each rate, found by bisection, must
     * be within one unit of the table's last digit. */
    static const double bpk[] = {6.0, 10.5, 16.9, 26.4, 41}, p[] = {0.1, 1e-2, 1e-3, 1e-4, 1e-5};
    for (int i = 0; i < 5; i++) {
        double lo = 1, hi = 100;
        for (int it = 0; it < 60; it++) {
            double mid = (lo + hi) / 2;
            *(rate_split_block_poisson(256, mid, 8) > p[i] ? &lo : &hi) = mid;
        }
        printf("Parquet table: %g needs %.1f bits per key; the mixture says %.3f\n", p[i],
               bpk[i], hi);
        assert(fabs(hi - bpk[i]) < 0.1);
    }
    /* The split-block formula inverts its own rate: (1 - e^{-8/c})^8 = p. */
    for (double q = 0.1; q > 1e-7; q /= 10) {
        double c = rate_split_block_formula_bpk(q, 8);
        assert(fabs(pow(-expm1(-8 / c), 8) - q) < 1e-12 * q);
    }
}

/* Many blocks: the binomial mixture approaches the Poisson one with the exact inner
 * rate; with the finite-formula inner (Putze) it is lower by Jensen's gap, and a single
 * block is plain exact(). Orderings that must hold. */
static void test_limits(void)
{
    double ex, one, fx;
    uint64_t B = 512, z = UINT64_C(1) << 31;
    assert(rate_blocked_exact(z * B, B, z * B / 10, 6, &ex) == RATE_OK);
    double poisson = rate_blocked_poisson(B, 10, 6);
    printf("2^31 blocks of 512 at b = 10, k = 6: exact %.6e, Poisson with finite-formula "
           "inner %.6e\n", ex, poisson);
    assert(poisson < ex);
    assert(rate_blocked_exact(B, B, 51, 6, &one) == RATE_OK && rate_exact(B, 51, 6, &fx) == RATE_OK);
    assert(one == fx);
    assert(rate_blocked_exact(1000, 512, 10, 6, &ex) == RATE_EDOM);   /* m not a multiple */
    assert(rate_split_block_exact(1024, 256, 10, 7, &ex) == RATE_EDOM); /* k does not divide B */
    assert(isnan(rate_cache_local(600, 6, 512)));                       /* under one key a block */
}

int main(void)
{
    test_brute_force();
    test_walk_against_full_sum();
    test_known();
    test_limits();
    return 0;
}
