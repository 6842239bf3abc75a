/* bench_big.c - insert and lookup speed on one big filter (a benchmark, never a test);
 * scripts/bench runs it. Usage: bench-big [BITS [THREADS]] (default 3e9 bits, all
 * threads).
 *
 * Prints positions per second (bits set by inserts, bits tested by lookups) for the
 * plain loops and for the big-filter variants (prefetched, atomic), on small pages and
 * on transparent huge pages, with 1 thread and with THREADS sharing the one array. Each
 * figure is the median of 3 timings. Inserts go into an empty array (speed does not
 * depend on the fill); lookups run against the array filled to 10 bits per key, k = 7,
 * so about half the first probes end a lookup, as in seed 000's rows. The scheme is
 * guava64: its index arithmetic is a few instructions, so the figures are the memory
 * system's; `independent` (a 64-bit unbiased draw per probe) is shown for contrast. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <omp.h>

#include "base/bits.h"
#include "base/monotonic.h"
#include "base/pcg.h"
#include "libraries/registry.h"
#include "schemes/scheme.h"
#include "bench.h"

enum { K = 7, REPS = 3 };
#define CHUNK (UINT64_C(1) << 18)

/* Keys (or lookups) in chunks over `threads` threads; returns seconds. Plain inserts
 * (not atomic) only ever run on one thread. */
typedef enum { INSERT, INSERT_SHARED, LOOKUP, LOOKUP_PREFETCH } op_t;

static double run(const scheme_t *s, bits_t *b, const probe_geom_t *g, op_t op, uint64_t count,
                  int threads, uint64_t salt, uint64_t *positions)
{
    uint64_t nchunks = (count + CHUNK - 1) / CHUNK, tested = 0;
    double t0 = monotonic_seconds();
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) reduction(+ : tested)
    for (uint64_t c = 0; c < nchunks; c++) {
        pcg32_t r;
        pcg32_unit(&r, salt, op, c);
        uint64_t n = count - c * CHUNK < CHUNK ? count - c * CHUNK : CHUNK;
        switch (op) {
        case INSERT: s->insert(b, g, &r, n, NULL, NULL); break;
        case INSERT_SHARED: s->insert_shared(b, g, &r, n); break;
        case LOOKUP: s->lookup(b, g, &r, n, NULL); break;
        case LOOKUP_PREFETCH: s->lookup_prefetch(b, g, &r, n); break;
        }
        tested += n;
    }
    *positions = tested; /* keys or lookups; the caller converts to positions */
    return monotonic_seconds() - t0;
}

static double median_rate(const scheme_t *s, bits_t *b, const probe_geom_t *g, op_t op,
                          uint64_t count, int threads, double per)
{
    double v[REPS];
    for (int i = 0; i < REPS; i++) {
        uint64_t done;
        double t = run(s, b, g, op, count, threads, (uint64_t)i + 1, &done);
        v[i] = (double)done * per / t;
    }
    return bench_median(v, REPS);
}

int main(int argc, char **argv)
{
    uint64_t m = argc > 1 ? strtoull(argv[1], NULL, 10) : UINT64_C(3000000000);
    int T = argc > 2 ? atoi(argv[2]) : omp_get_max_threads();
    if (m < 64 || T < 1) {
        fprintf(stderr, "usage: bench-big [BITS [THREADS]]\n");
        return 2;
    }
    const scheme_t *s = scheme_find("guava64"), *ind = scheme_find("independent");
    probe_geom_t g;
    s->geometry(m, K, 0, &g);
    uint64_t keys = m / 10, ins = keys / 6, looks = keys / 6;
    printf("one %.2f GB filter of %llu bits; %llu keys per insert timing, %llu lookups per "
           "lookup timing; median of %d; M positions per second\n\n", (double)m / 8e9,
           (unsigned long long)m, (unsigned long long)ins, (unsigned long long)looks, REPS);
    printf("%-40s %12s %12s\n", "", "small pages", "huge pages");
    bits_t b[2];
    for (int h = 0; h < 2; h++) {
        if (bits_alloc(&b[h], m)) {
            fprintf(stderr, "bench-big: no memory for %llu bits\n", (unsigned long long)m);
            return 2;
        }
#ifdef MADV_NOHUGEPAGE
        if (h == 0 && b[h].maplen)
            madvise(b[h].word, b[h].maplen, MADV_NOHUGEPAGE);
#endif
        memset(b[h].word, 0, b[h].nwords * sizeof(uint64_t)); /* fault every page in */
    }
    struct { const char *what; const scheme_t *s; op_t op; int threads; } ins_rows[] = {
        {"insert, plain loop, 1 thread", s, INSERT, 1},
        {"insert, prefetched atomic, 1 thread", s, INSERT_SHARED, 1},
        {"insert, prefetched atomic, all threads", s, INSERT_SHARED, T},
        {"  independent, prefetched, 1 thread", ind, INSERT_SHARED, 1},
        {"  independent, prefetched, all threads", ind, INSERT_SHARED, T},
    };
    double r[2];
    for (size_t i = 0; i < sizeof ins_rows / sizeof ins_rows[0]; i++) {
        for (int h = 0; h < 2; h++)
            r[h] = median_rate(ins_rows[i].s, &b[h], &g, ins_rows[i].op, ins, ins_rows[i].threads,
                               K) / 1e6;
        printf("%-40s %12.1f %12.1f", ins_rows[i].what, r[0], r[1]);
        if (ins_rows[i].threads > 1)
            printf("   (%d threads: %.1f and %.1f per thread)", T, r[0] / T, r[1] / T);
        printf("\n");
    }
    /* Fill both arrays to 10 bits per key. */
    for (int h = 0; h < 2; h++) {
        memset(b[h].word, 0, b[h].nwords * sizeof(uint64_t));
        uint64_t done;
        run(s, &b[h], &g, INSERT_SHARED, keys, T, 99, &done);
    }
    double fill = (double)bits_count(&b[1]) / (double)m, per = 0, pk = 1;
    for (int i = 0; i < K; i++, pk *= fill) /* expected probes tested per lookup */
        per += pk;
    struct { const char *what; op_t op; int threads; } look_rows[] = {
        {"lookup, plain batches, 1 thread", LOOKUP, 1},
        {"lookup, prefetched batches, 1 thread", LOOKUP_PREFETCH, 1},
        {"lookup, prefetched batches, all threads", LOOKUP_PREFETCH, T},
    };
    for (size_t i = 0; i < sizeof look_rows / sizeof look_rows[0]; i++) {
        for (int h = 0; h < 2; h++)
            r[h] = median_rate(s, &b[h], &g, look_rows[i].op, looks, look_rows[i].threads,
                               per) / 1e6;
        printf("%-40s %12.1f %12.1f", look_rows[i].what, r[0], r[1]);
        if (look_rows[i].threads > 1)
            printf("   (%d threads: %.1f and %.1f per thread)", T, r[0] / T, r[1] / T);
        printf("\n");
    }
    printf("\nlookups at fill %.3f test %.2f positions each on average\n", fill, per);

    /* Blocked filters keep a key's probes in one block (one cache line at 512 bits):
     * lookups per second on the huge-page array, each scheme on a filter it filled
     * itself to 10 bits per key (k = 7; split-block k = 8, its 256-bit block's words). */
    static const char *const cmp[] = {"independent", "blocked", "split-block"};
    double base = 0;
    printf("\nlookups per second on the same %.2f GB array, each scheme filling it to 10 bits "
           "per key (huge pages; M lookups/s)\n%-40s %12s %12s\n", (double)m / 8e9, "",
           "1 thread", "all threads");
    for (size_t i = 0; i < sizeof cmp / sizeof cmp[0]; i++) {
        const scheme_t *cs = scheme_find(cmp[i]);
        probe_geom_t cg;
        cs->geometry(m, strcmp(cmp[i], "split-block") ? K : 8, 0, &cg);
        memset(b[1].word, 0, b[1].nwords * sizeof(uint64_t));
        uint64_t done;
        run(cs, &b[1], &cg, INSERT_SHARED, cg.m / 10, T, 99, &done);
        double one = median_rate(cs, &b[1], &cg, LOOKUP_PREFETCH, looks, 1, 1) / 1e6;
        double all = median_rate(cs, &b[1], &cg, LOOKUP_PREFETCH, looks, T, 1) / 1e6;
        if (i == 0)
            base = one;
        printf("%-40s %12.1f %12.1f   (1 thread: %.2fx independent)\n", cmp[i], one, all,
               one / base);
    }
    bits_free(&b[0]);
    bits_free(&b[1]);
    return 0;
}
