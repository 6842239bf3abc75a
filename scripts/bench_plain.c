/* bench_plain.c - seed 002's filter at its billion items: nanoseconds per lookup of the
 * plain, unbatched loop its Go code runs, beside batched and prefetched lookups (a
 * benchmark, never a test). scripts/bench runs it (`scripts/bench --plain` writes
 * results/plain-lookup.tsv).
 *
 * The filter is seed 002's design for 10^9 items at 1% (CalculateParams: m = 9585058378
 * bits, 1.2 GB, k = 7) holding N keys, the 8-byte integers 0 .. N-1. Its code, as
 * eliben/code-for-blog 2025/bloom/bloom.go @ec2c2dd5 has it: two hash evaluations
 * (maphash.Bytes with two seeds), then loc = (h1 + i*h2) % m for i = 0..k-1 in uint64,
 * a lookup stopping at its first clear bit. Go's maphash is not in C: XXH3_64bits_withSeed
 * (Debian's libxxhash) with two seeds stands in, the same two evaluations a key.
 *
 * Rows (ns per lookup, median of REPS timings of LOOKUPS lookups on the thread's CPU
 * clock; absent keys are N + 2^40 + j, present keys 0 .. LOOKUPS-1):
 *   positions-only  both hashes and all k positions of a key, no bit read;
 *   dependent-reads one read of a random word of the array a row, each read's word
 *               choosing the next: the memory's latency, for scale (no keys);
 *   plain       the loop above, one key at a time;
 *   batched     the same hashes and arithmetic, 256 keys at a time breadth first: each
 *               probe's word prefetched for the whole batch before any is tested;
 *   bloomsim    bloomsim's own engine on the same array: scheme redisbloom (this
 *               arithmetic exactly), its ideal words drawn from PCG, not hashed keys, in
 *               plain batches and in prefetched batches (absent keys only);
 * on the array as allocated (2 MiB pages offered: transparent huge pages) and on a copy
 * with huge pages refused. Every row but bloomsim's counts its hash evaluations and
 * bits tested a lookup; every row counts the lookups answered present. The insert row
 * is the one timing of the plain loop's N inserts. Output: a TSV on stdout (pages,
 * implementation, keys, lookups, ns_median, ns_min, ns_max, hash_evals, bits_tested,
 * positive), after a comment line with the filter's fill.
 *
 * Usage: bench-plain [M [N [K [LOOKUPS [REPS]]]]]  (defaults 9585058378 1e9 7 1e7 5)
 * Built by meson beside bloomsim, never installed.
 */
#define _DEFAULT_SOURCE /* MADV_NOHUGEPAGE */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <xxhash.h>

#include "base/bits.h"
#include "base/pcg.h"
#include "libraries/registry.h"
#include "schemes/scheme.h"
#include "bench.h"

enum { BATCH = 256, MAX_REPS = 16 };
/* The two seeds (maphash.MakeSeed() draws its own per filter; any two will do). */
#define SEED1 UINT64_C(0x9e3779b97f4a7c15)
#define SEED2 UINT64_C(0xd1b54a32d192ed03)
#define ABSENT_BASE (UINT64_C(1) << 40)

typedef struct {
    uint64_t evals, tested, yes;
} counts_t;

static volatile uint64_t sink; /* keeps the arithmetic from being optimised away */

typedef struct {
    const bits_t *b;
    unsigned k;
    uint64_t first, lookups; /* keys first .. first + lookups - 1 */
} job_t;

/* One evaluation. The loops count evaluations and bits in locals (the counters would
 * alias the filter's words), adding them to counts_t at the end. */
static uint64_t hash(uint64_t key, uint64_t seed)
{
    return XXH3_64bits_withSeed(&key, sizeof key, seed); /* the key's 8 bytes, little-endian */
}

/* bloom.go's Insert. */
static void plain_insert(bits_t *b, unsigned k, uint64_t key)
{
    uint64_t h1 = hash(key, SEED1), h2 = hash(key, SEED2);
    for (uint64_t i = 0; i < k; i++)
        bits_set(b, (h1 + i * h2) % b->m);
}

/* bloom.go's Test, over the job's keys. */
static void plain(const job_t *j, counts_t *c)
{
    uint64_t evals = 0, tested = 0, yes = 0;
    for (uint64_t key = j->first; key < j->first + j->lookups; key++) {
        uint64_t h1 = hash(key, SEED1), h2 = hash(key, SEED2), i = 0;
        evals += 2;
        for (; i < j->k; i++) {
            tested++;
            if (!bits_test(j->b, (h1 + i * h2) % j->b->m))
                break;
        }
        yes += i == j->k;
    }
    c->evals += evals, c->tested += tested, c->yes += yes;
}

/* The loop's arithmetic alone: both hashes and all k positions of each key, no memory
 * touched (what a lookup costs before its bits are read). */
static void positions(const job_t *j, counts_t *c)
{
    uint64_t acc = 0;
    for (uint64_t key = j->first; key < j->first + j->lookups; key++) {
        uint64_t h1 = hash(key, SEED1), h2 = hash(key, SEED2);
        for (uint64_t i = 0; i < j->k; i++)
            acc ^= (h1 + i * h2) % j->b->m;
    }
    c->evals += 2 * j->lookups, sink += acc;
}

/* The memory's own latency, for scale: dependent reads of random words of the array,
 * each read's word choosing the next (a multiply and a fastrange: a few ns of the
 * figure), so that no two reads overlap. */
static void dependent(const job_t *j, counts_t *c)
{
    uint64_t x = 0, nw = j->b->nwords;
    for (uint64_t i = 0; i < j->lookups; i++) {
        uint64_t w = (j->b->word[x] + i) * UINT64_C(0x9e3779b97f4a7c15);
        x = (uint64_t)(((pcg_u128)w * nw) >> 64);
    }
    c->tested += j->lookups, sink += x;
}

/* The same positions, BATCH keys breadth first: probe i of every surviving key is
 * computed and its word prefetched before any of them is tested. */
static void batched(const job_t *j, counts_t *c)
{
    uint64_t h1[BATCH], h2[BATCH], pos[BATCH], m = j->b->m, evals = 0, tested = 0, yes = 0;
    unsigned idx[BATCH];
    for (uint64_t q = 0; q < j->lookups; q += BATCH) {
        unsigned nb = j->lookups - q < BATCH ? (unsigned)(j->lookups - q) : BATCH, alive = nb;
        for (unsigned a = 0; a < nb; a++) {
            uint64_t key = j->first + q + a;
            h1[a] = hash(key, SEED1), h2[a] = hash(key, SEED2);
            evals += 2;
            pos[a] = h1[a] % m;
            idx[a] = a;
            __builtin_prefetch(&j->b->word[pos[a] >> 6], 0, 0);
        }
        for (uint64_t i = 0; i < j->k && alive > 0; i++) {
            unsigned kept = 0;
            for (unsigned a = 0; a < alive; a++) { /* test without a branch, keep the set */
                unsigned x = idx[a];
                idx[kept] = x;
                kept += (unsigned)bits_test(j->b, pos[x]);
            }
            tested += alive;
            alive = kept;
            for (unsigned a = 0; i + 1 < j->k && a < alive; a++) {
                unsigned x = idx[a];
                pos[x] = (h1[x] + (i + 1) * h2[x]) % m;
                __builtin_prefetch(&j->b->word[pos[x] >> 6], 0, 0);
            }
        }
        yes += alive;
    }
    c->evals += evals, c->tested += tested, c->yes += yes;
}

typedef enum { POSITIONS, DEPENDENT, PLAIN, BATCHED, ENGINE, ENGINE_PREFETCH } impl_t;
static const char *const IMPL_NAMES[] = {"positions-only", "dependent-reads", "plain", "batched",
                                         "bloomsim-batches", "bloomsim-prefetched"};

/* One timing of the job's lookups; counts into c. */
static double time_once(impl_t impl, const job_t *j, int rep, counts_t *c)
{
    const scheme_t *s = scheme_find("redisbloom");
    probe_geom_t g;
    pcg32_t r;
    if (impl >= ENGINE) {
        s->geometry(j->b->m, j->k, 0, &g);
        pcg32_unit(&r, 2, 39, (uint64_t)rep);
    }
    double t0 = bench_cpu_seconds();
    if (impl == POSITIONS)
        positions(j, c);
    else if (impl == DEPENDENT)
        dependent(j, c);
    else if (impl == PLAIN)
        plain(j, c);
    else if (impl == BATCHED)
        batched(j, c);
    else if (impl == ENGINE)
        c->yes += s->lookup(j->b, &g, &r, j->lookups, NULL);
    else
        c->yes += s->lookup_prefetch(j->b, &g, &r, j->lookups);
    return (bench_cpu_seconds() - t0) / (double)j->lookups * 1e9;
}

/* Prints one row: REPS timings, their median, least and most, and the counts a lookup. */
static void row(impl_t impl, const char *pages, const job_t *j, int reps)
{
    double t[MAX_REPS];
    counts_t c = {0, 0, 0};
    for (int r = 0; r < reps; r++)
        t[r] = time_once(impl, j, r, &c);
    double per = (double)j->lookups * reps, med = bench_median(t, (size_t)reps); /* sorts t */
    printf("%s\t%s\t%s\t%llu\t%.1f\t%.1f\t%.1f\t", pages, IMPL_NAMES[impl],
           j->first >= ABSENT_BASE ? "absent" : "present", (unsigned long long)j->lookups,
           med, t[0], t[reps - 1]);
    if (impl >= ENGINE)
        printf("-\t-\t%.5f\n", (double)c.yes / per);
    else if (impl <= DEPENDENT)
        printf("%.3f\t%.3f\t-\n", (double)c.evals / per, (double)c.tested / per);
    else
        printf("%.3f\t%.3f\t%.5f\n", (double)c.evals / per, (double)c.tested / per,
               (double)c.yes / per);
    fflush(stdout);
}

static void rows(const bits_t *b, const char *pages, unsigned k, uint64_t n, uint64_t L,
                 int reps)
{
    job_t absent = {b, k, n + ABSENT_BASE, L}, present = {b, k, 0, L < n ? L : n};
    row(POSITIONS, pages, &absent, reps);
    row(DEPENDENT, pages, &absent, reps);
    row(PLAIN, pages, &absent, reps);
    row(PLAIN, pages, &present, reps);
    row(BATCHED, pages, &absent, reps);
    row(BATCHED, pages, &present, reps);
    row(ENGINE, pages, &absent, reps);
    row(ENGINE_PREFETCH, pages, &absent, reps);
}

int main(int argc, char **argv)
{
    uint64_t m = argc > 1 ? strtoull(argv[1], NULL, 10) : UINT64_C(9585058378);
    uint64_t n = argc > 2 ? (uint64_t)strtod(argv[2], NULL) : UINT64_C(1000000000);
    unsigned k = argc > 3 ? (unsigned)atoi(argv[3]) : 7;
    uint64_t L = argc > 4 ? (uint64_t)strtod(argv[4], NULL) : UINT64_C(10000000);
    int reps = argc > 5 ? atoi(argv[5]) : 5;
    if (m < 64 || n < 1 || k < 1 || k > 64 || L < 1 || reps < 1 || reps > MAX_REPS) {
        fprintf(stderr, "usage: bench-plain [M [N [K [LOOKUPS [REPS (1 to 16)]]]]]\n");
        return 2;
    }
    bits_t huge, small;
    if (bits_alloc(&huge, m) || bits_alloc(&small, m)) {
        fprintf(stderr, "bench-plain: no memory for two arrays of %llu bits\n",
                (unsigned long long)m);
        return 1;
    }
#ifdef MADV_NOHUGEPAGE
    if (small.maplen)
        madvise(small.word, small.maplen, MADV_NOHUGEPAGE);
#endif
    double t0 = bench_cpu_seconds();
    for (uint64_t key = 0; key < n; key++)
        plain_insert(&huge, k, key);
    double ins = (bench_cpu_seconds() - t0) / (double)n * 1e9;
    memcpy(small.word, huge.word, huge.nwords * sizeof(uint64_t));
    printf("# m = %llu bits (%.3f GB), k = %u, %llu keys inserted, fill %.6f\n",
           (unsigned long long)m, (double)m / 8e9, k, (unsigned long long)n,
           (double)bits_count(&huge) / (double)m);
    printf("pages\timplementation\tkeys\tlookups\tns_median\tns_min\tns_max\t"
           "hash_evals\tbits_tested\tpositive\n");
    printf("huge\tplain-insert\tinserted\t%llu\t%.1f\t%.1f\t%.1f\t2\t%u\t-\n",
           (unsigned long long)n, ins, ins, ins, k);
    rows(&huge, "huge", k, n, L, reps);
    rows(&small, "small", k, n, L, reps);
    bits_free(&huge), bits_free(&small);
    return 0;
}
