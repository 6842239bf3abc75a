/* test_redisbloom_cuckoo.c - RedisBloom's cuckoo filter chain (issue 41;
 * src/fingerprint/redisbloom_cuckoo.c, RedisBloom/RedisBloom at 03077b46):
 *  - hand-worked keys: MurmurHash64A_Bloom (deps/murmur2/MurmurHash2.c:80-125, seed 0,
 *    as CUCKOO_GEN_HASH) of a few keys, their fingerprint hash % 255 + 1 and their two
 *    buckets h and h ^ fp * 0x5bd1e995 mod 512 (CF.ADD's 1024 / 2 buckets); the values
 *    come from a separate transcription of those lines in Python, not from bloomsim;
 *  - a chain worked by hand: `bloomsim adapter redisbloom-cuckoo` (CF.RESERVE 4: two
 *    buckets of two slots) given the keys 1 .. 6, whose table, slot by slot, is derived
 *    below from each key's fingerprint and first bucket;
 *  - the designs, the names that give CF.RESERVE's parameters, and every refusal in
 *    RedisBloom's words; the 32-filter cap and EXPANSION 0's refusals;
 *  - statistical: the measured rate against the exact rate (fixed seeds, |z| < 5, z from
 *    the rows' standard errors and the reference chains' own spread), and each built
 *    chain's lookups against its own conditional rate (the binomial standard error of its
 *    lookups).
 */
#undef NDEBUG
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit/adapter_server.h"
#include "estimate/simulate.h"
#include "experiment/plan.h"
#include "fingerprint/real.h"
#include "fingerprint/registry.h"
#include "sweep_rows.h"

static const fp_filter_t *F(const char *name)
{
    const fp_filter_t *f = fp_filter_find(name);
    assert(f);
    return f;
}

/* CUCKOO_GEN_HASH and getLookupParams of five keys (the Python transcription's values):
 * "redisbloom-cuckoo" (17 bytes) takes two 8-byte blocks and a tail of one. */
static void test_keys(void)
{
    static const struct {
        const char *key;
        uint64_t hash;
        unsigned fp;
        uint64_t i1, i2; /* mod 512 */
    } want[] = {
        {"1", UINT64_C(0x0a5d08d6299c4888), 221, 136, 297},
        {"2", UINT64_C(0x085e449ca4d7dec1), 101, 193, 264},
        {"3", UINT64_C(0xd2aaca16aa05478e), 228, 398, 314},
        {"hello", UINT64_C(0x1e68d17c457bf117), 159, 279, 156},
        {"redisbloom-cuckoo", UINT64_C(0x32c67bfde9bafba0), 180, 416, 356},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        uint64_t h = fp_redisbloom_cuckoo_hash(want[i].key, strlen(want[i].key)), i1, i2;
        uint8_t fp;
        fp_redisbloom_cuckoo_where(h, 512, &fp, &i1, &i2);
        assert(h == want[i].hash && fp == want[i].fp && i1 == want[i].i1 && i2 == want[i].i2);
        /* the other bucket of the other bucket is the first (512 a power of two) */
        uint8_t fp2;
        uint64_t j1, j2;
        fp_redisbloom_cuckoo_where(h ^ ((uint64_t)fp * 0x5bd1e995), 512, &fp2, &j1, &j2);
        assert(j1 == i2 && ((i2 ^ (((uint64_t)fp * 0x5bd1e995) & 511)) == i1));
    }
    printf("keys: ok\n");
}

/* Serve session on bloomsim adapter NAME; its answers must be want's lines. */
static void session(const char *in, const char *want)
{
    char out[4096] = {0};
    FILE *fi = fmemopen((void *)in, strlen(in), "r"), *fo = fmemopen(out, sizeof out - 1, "w");
    assert(fi && fo);
    int rc = adapter_serve_fingerprint(F("redisbloom-cuckoo"), fi, fo, NULL);
    fclose(fi);
    fclose(fo);
    const char *body = strchr(out, '\n');
    if (rc != 0 || !body || strcmp(body + 1, want) != 0) {
        fprintf(stderr, "status %d, answered\n%s\nwanted\n%s", rc, out, want);
        assert(0);
    }
}

/* CF.RESERVE 4 (BUCKETSIZE 2: getNextN2(4 / 2) = 2 buckets, 32 bits) and CF.ADD 1 .. 6.
 * With two buckets the other bucket is the first xor the fingerprint's low bit (0x5bd1e995
 * odd): (fingerprint, h mod 2) = 1: (0xdd, 0), 2: (0x65, 1), 3: (0xe4, 0), 4: (0xe3, 0),
 * 5: (0xd4, 0), 6: (0x81, 0). Key 1 takes bucket 0 slot 0, 2 bucket 1 slot 0, 3 bucket 0
 * slot 1; 4 finds bucket 0 full and, its fingerprint odd, takes bucket 1 slot 1: the table
 * is full. Key 5's fingerprint is even, both its buckets 0: 20 kicks find no empty slot,
 * are undone (filter 0 unchanged), filter 1 is made (2 buckets) and 5 takes its bucket 0
 * slot 0, then 6 its slot 1: 64 bits, dd e4 65 e3 | d4 81 00 00. Key 7 (0x0a, bucket 0 in
 * both) is absent; 1 and 5 present. Then with strings: "hello" (0x9f, 1), "1", "2". A
 * design the library refuses is refused in its words. */
static void test_session(void)
{
    session("hello 1\ndesign-fp 4 8\ninsert u64 6\n1\n2\n3\n4\n5\n6\nbits\nfailures\n"
            "query u64 3\n1\n5\n7\ndesign-fp 4 8\ninsert str 3\nhello\n1\n2\nbits\n"
            "design-fp 3 8\ndesign 4 0.01\nquit\n",
            "design 32 ?\ninserted 6\nbits 64 dde465e3d4810000\nfailures 0 0\n110\n"
            "design 32 ?\ninserted 3\nbits 32 dd009f65\n"
            "error redisbloom-cuckoo cannot design 3 keys at 8 fingerprint bits: RedisBloom "
            "refuses it: \"Capacity must be at least (BucketSize * 2)\"\n"
            "error redisbloom-cuckoo takes fingerprint bits, not a rate\n");
    printf("hand-worked chain: ok\n");
}

static int design(const char *name, uint64_t n, unsigned bits, uint64_t keys, fp_state_t *s)
{
    fp_design_t d;
    int st = fp_design(F(name), n, 0.01, 0.8, bits, &d);
    return st == FP_OK ? fp_run(F(name), &d, keys, s) : st;
}

static void refused(const char *name, uint64_t n, const char *words)
{
    fp_state_t s;
    assert(design(name, n, 0, 1, &s) == FP_ERESERVE);
    assert(strstr(fp_refusal(F(name), FP_ERESERVE), words));
}

static void test_designs(void)
{
    fp_state_t s;
    /* CF.ADD's defaults: 1024 / 2 = 512 buckets of 2, 20 kicks, EXPANSION 1 */
    assert(design("redisbloom-cuckoo", 1024, 0, 1, &s) == FP_OK && s.q == 9);
    assert(s.d.bucket == 2 && s.d.kicks == 20 && s.d.expansion == 1 && s.ngens == 1);
    assert(s.slots == 1024 && s.bits == 8 * 1024 && fp_new_bits(&s) == 8);
    assert(fp_takes_reserve(F("redisbloom-cuckoo")) && !fp_takes_reserve(F("seiflotfy-cuckoo")));
    assert(design("redisbloom-cuckoo", 1025, 0, 1, &s) == FP_OK && s.q == 9);  /* 1025 / 2 = 512 */
    assert(design("redisbloom-cuckoo", 1026, 0, 1, &s) == FP_OK && s.q == 10); /* 513 -> 1024 */
    assert(design("redisbloom-cuckoo", 1024, 16, 1, &s) == FP_EBITS);
    /* names: /E, /E/B, /E/B/I; BUCKETSIZE 4: getNextN2(1024 / 4) = 256 buckets */
    assert(design("redisbloom-cuckoo/2", 1024, 0, 1, &s) == FP_OK && s.d.expansion == 2);
    assert(design("redisbloom-cuckoo/3/4/100", 1024, 0, 1, &s) == FP_OK && s.q == 8);
    assert(s.d.bucket == 4 && s.d.kicks == 100 && s.d.expansion == 3);
    assert(!fp_filter_find("redisbloom-cuckoo/") && !fp_filter_find("redisbloom-cuckoo/1/2/3/4"));
    assert(!fp_filter_find("redisbloom-cuckoo/x") && !fp_filter_find("redisbloom-cuckoo/1/"));
    assert(F("redisbloom-cuckoo/2") == F("redisbloom-cuckoo/2"));
    /* EXPANSION 3 rounds up to 4: a chain that grew has filters of 256 and 1024 buckets */
    assert(design("redisbloom-cuckoo/3/4/100", 1024, 0, 2000, &s) == FP_OK && s.ngens == 2);
    assert(s.slots == 4 * (256 + 1024));
    /* RedisBloom's refusals (rebloom.c:522-570), in its words */
    refused("redisbloom-cuckoo/1/0", 1024, "BUCKETSIZE: value must be an integer between 1 and 255");
    refused("redisbloom-cuckoo/1/256", 1024, "BUCKETSIZE");
    refused("redisbloom-cuckoo/1/2/0", 1024, "MAXITERATIONS: value must be an integer between 1 and 65535");
    refused("redisbloom-cuckoo/1/2/65536", 1024, "MAXITERATIONS");
    refused("redisbloom-cuckoo/32769", 1024, "EXPANSION: value must be an integer between 0 and 32768");
    refused("redisbloom-cuckoo", 3, "Capacity must be at least (BucketSize * 2)");
    refused("redisbloom-cuckoo/1/8", 15, "Capacity must be at least (BucketSize * 2)");
    assert(design("redisbloom-cuckoo/32768/255/65535", 510, 0, 1, &s) == FP_OK);
    /* the default chain stops at 32 filters (CF_MAX_EXPANSIONS): every later key refused */
    assert(design("redisbloom-cuckoo", 1024, 0, 102400, &s) == FP_OK && s.ngens == 32);
    assert(s.refused > 102400 - 32 * 1024 && s.stored + s.refused == 102400);
    assert(fabs(fp_redisbloom_cuckoo_promise(&s) - 32 * 4.0 / 255) < 1e-15);
    /* EXPANSION 0: one filter, and CF.ADD answers "Filter is full" */
    assert(design("redisbloom-cuckoo/0", 1024, 0, 2048, &s) == FP_OK && s.ngens == 1);
    assert(s.refused >= 1024 && s.gen_n[0] <= 1024 && s.stored + s.refused == 2048);
    /* EXPANSION 2 grows each filter: filters of 512, 1024, 2048 buckets */
    assert(design("redisbloom-cuckoo/2", 1024, 0, 5000, &s) == FP_OK && s.ngens == 3);
    assert(s.slots == 2 * (512 + 1024 + 2048) && s.refused == 0);
    printf("designs and refusals: ok\n");
}

/* The rows of a sweep against their exact rates: |z| < 5, z over the standard error of
 * the difference. The exact rate is the mean over 16 reference chains (their filters'
 * occupancy, where the kicks failed for their keys), so it is as uncertain as the mean of
 * 16 built chains: F / 16 times the row's variance, F its chains. */
static void exact_check(const exp_row_t *row, const stats_summary_t *st, const row_out_t *out,
                        uint64_t filters, void *ctx)
{
    (void)out;
    (void)ctx;
    double F = (double)filters, x = fp_exact(&row->fp);
    double z = (st->rate - x) / (st->stderr_ * sqrt(1 + F / 16));
    printf("  %-11s %-22s n %-6llu %2zu filters: rate %.5e exact %.5e z %+.2f\n",
           row->est->name, row->fingerprint->name, (unsigned long long)row->n,
           row->fp.ngens, st->rate, x, z);
    assert(st->stderr_ > 0 && fabs(z) < 5);
}

static void against_exact(const char *sweep, uint64_t seed)
{
    sweep_rows(sweep, seed, exact_check, NULL);
}

/* One built chain's lookups against its own conditional rate. */
static void lookups_against_conditional(const char *name, uint64_t n, uint64_t seed)
{
    fp_state_t s;
    assert(design(name, 1024, 0, n, &s) == FP_OK);
    fp_work_t *w;
    assert(fp_work_alloc(&w, &s) == 0);
    pcg32_t r;
    pcg32_unit(&r, seed, 1, 2);
    assert(fp_build(w, &s, &r, NULL) == 0);
    const uint64_t L = 2000000;
    double c = fp_conditional(w, &s, NULL), m = (double)fp_lookups(w, &s, &r, L, NULL) / L;
    double z = (m - c) / sqrt(c * (1 - c) / L);
    printf("  %-22s n %-6llu lookups %.5e conditional %.5e z %+.2f\n", name,
           (unsigned long long)n, m, c, z);
    assert(c > 0 && fabs(z) < 5);
    fp_work_free(w);
}

static void test_rates(void)
{
    against_exact("[sweep]\ndesign_keys = 1024\ndesign_rate = 0.01\n"
                  "inserted = 1024 10240 40000\n"
                  "fingerprint = redisbloom-cuckoo redisbloom-cuckoo/2 redisbloom-cuckoo/4/4\n"
                  "estimator = lookups\nfilters = 8\nlookups = 4e6\n", 41);
    against_exact("[sweep]\ndesign_keys = 1024\ndesign_rate = 0.01\ninserted = 10240\n"
                  "fingerprint = redisbloom-cuckoo redisbloom-cuckoo/2\n"
                  "estimator = conditional\nfilters = 8\n", 42);
    lookups_against_conditional("redisbloom-cuckoo", 10240, 7);
    lookups_against_conditional("redisbloom-cuckoo/2", 20000, 8);
    lookups_against_conditional("redisbloom-cuckoo/4/1/500", 5000, 9);
    printf("rates: ok\n");
}

int main(void)
{
    test_keys();
    test_session();
    test_designs();
    test_rates();
    return 0;
}
