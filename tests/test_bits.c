/* test_bits.c - the bit array (bits.h) against a plain byte-per-bit reference:
 *  - allocation: small arrays from calloc, arrays of 2 MiB or more mapped on 2 MiB
 *    boundaries (bits.c's HUGE_PAGE), every word zeroed, the fields bits.h documents,
 *    an impossible size refused with -1;
 *  - bits_set / bits_test / bits_count at every position of sizes that are and are not
 *    multiples of 64;
 *  - bits_set_atomic from many threads at once, neighbouring positions (one word) on
 *    different threads: no set is lost, and the words equal those of plain sets;
 *  - bits_count_range against a naive count over every (lo, hi) of small sizes and
 *    many random and word-boundary (lo, hi) of larger ones;
 *  - bits_reset to a smaller and back to the full size.
 * Deterministic: positions come from PCG streams of fixed seeds. */
#undef NDEBUG
#include <assert.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bits.h"
#include "base/pcg.h"

#define HUGE_PAGE ((uint64_t)2 << 20) /* bits.c: arrays of this many bytes or more are mapped */

static int all_zero(const bits_t *b)
{
    for (uint64_t w = 0; w < b->nwords; w++)
        if (b->word[w])
            return 0;
    return 1;
}

/* Alloc m bits and check what bits.h promises of a new array. */
static void alloc_checked(bits_t *b, uint64_t m)
{
    assert(bits_alloc(b, m) == 0);
    assert(b->m == m && b->nwords == (m + 63) / 64 && b->word != NULL);
    assert(all_zero(b) && bits_count(b) == 0);
    uint64_t bytes = b->nwords * 8;
    if (bytes >= HUGE_PAGE) { /* mapped: whole huge pages, on a huge-page boundary */
        assert(b->maplen == (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE);
        assert((uintptr_t)b->word % HUGE_PAGE == 0);
    } else {
        assert(b->maplen == 0);
    }
}

static void free_checked(bits_t *b)
{
    bits_free(b);
    assert(b->word == NULL && b->m == 0 && b->nwords == 0 && b->maplen == 0);
}

/* Reference: one byte per bit. Random sets of about a fraction `density` of [0, m)
 * into both b (through bits_set) and ref; then every position and the count agree. */
static void fill_both(bits_t *b, unsigned char *ref, uint64_t m, double density, pcg32_t *g)
{
    uint64_t sets = (uint64_t)(density * (double)m) + 1;
    for (uint64_t j = 0; j < sets; j++) {
        uint64_t i = pcg32_below(g, m);
        bits_set(b, i);
        ref[i] = 1;
    }
    uint64_t c = 0;
    for (uint64_t i = 0; i < m; i++) {
        assert(bits_test(b, i) == ref[i]);
        c += ref[i];
    }
    assert(bits_count(b) == c);
}

static uint64_t naive_range(const unsigned char *ref, uint64_t lo, uint64_t hi)
{
    uint64_t c = 0;
    for (uint64_t i = lo; i < hi; i++)
        c += ref[i];
    return c;
}

static void check_alloc(void)
{
    const uint64_t small[] = {1, 2, 63, 64, 65, 127, 128, 1000, 4097};
    for (size_t s = 0; s < sizeof small / sizeof small[0]; s++) {
        bits_t b;
        alloc_checked(&b, small[s]);
        free_checked(&b);
    }
    printf("alloc: %zu small sizes from 1 to 4097 bits: zeroed, from calloc\n",
           sizeof small / sizeof small[0]);

    /* The mapping threshold: 2 MiB of words is 2^24 bits. One word less stays on calloc;
     * one bit more needs a second huge page. */
    const uint64_t big[] = {(UINT64_C(1) << 24) - 64, UINT64_C(1) << 24, (UINT64_C(1) << 24) + 1,
                            UINT64_C(100000007)};
    for (size_t s = 0; s < sizeof big / sizeof big[0]; s++) {
        bits_t b;
        uint64_t m = big[s];
        alloc_checked(&b, m);
        /* Every position, so every page of the mapping is written and read back; bits
         * beyond m in the last word stay clear, so the count is exactly m. */
        for (uint64_t i = 0; i < m; i++)
            bits_set(&b, i);
        assert(bits_count(&b) == m && bits_test(&b, 0) && bits_test(&b, m - 1));
        assert(bits_count_range(&b, 1, m - 1) == m - 2);
        printf("alloc: %llu bits: %zu bytes %s, all %llu bits set and counted\n",
               (unsigned long long)m, b.maplen ? b.maplen : (size_t)(b.nwords * 8),
               b.maplen ? "mapped on a 2 MiB boundary" : "from calloc", (unsigned long long)m);
        free_checked(&b);
    }

    /* 2^62 bits are 2^59 bytes, past any address space: refused, not crashed. */
    bits_t b;
    assert(bits_alloc(&b, UINT64_C(1) << 62) == -1 && b.word == NULL);
    printf("alloc: 2^62 bits refused with -1\n");
}

static void check_set_test_count(void)
{
    const uint64_t sizes[] = {1, 63, 64, 65, 1000, 10007, 65536};
    pcg32_t g;
    pcg32_seed(&g, 1, 1);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        uint64_t m = sizes[s];
        bits_t b;
        alloc_checked(&b, m);
        unsigned char *ref = calloc(m, 1);
        assert(ref);
        /* Sparse first, then dense on top: both regimes of every word. */
        fill_both(&b, ref, m, 0.05, &g);
        fill_both(&b, ref, m, 2.0, &g);
        /* Setting a set bit changes nothing. */
        uint64_t c = bits_count(&b);
        for (uint64_t i = 0; i < m; i++)
            if (ref[i])
                bits_set(&b, i);
        assert(bits_count(&b) == c);
        printf("set/test/count: %llu bits, %llu set, every position agrees\n",
               (unsigned long long)m, (unsigned long long)c);
        free(ref);
        free_checked(&b);
    }
}

static void check_atomic(void)
{
    /* Every position, thread t taking positions t, t + T, t + 2T, ...: each word is
     * written by all threads at once. A lost update would leave a bit clear. */
    const uint64_t m = 1000003;
    const int threads = 8;
    bits_t a, p;
    alloc_checked(&a, m);
    alloc_checked(&p, m);
    for (int round = 0; round < 4; round++) {
        bits_reset(&a, m);
#pragma omp parallel for num_threads(threads) schedule(static, 1)
        for (int64_t i = 0; i < (int64_t)m; i++)
            bits_set_atomic(&a, (uint64_t)i);
        assert(bits_count(&a) == m);
    }
    printf("atomic: %d threads interleaved over %llu bits, none lost (4 rounds)\n", threads,
           (unsigned long long)m);

    /* Random positions from per-thread streams: the words equal plain sets of the same
     * positions in any order. */
    bits_reset(&a, m);
    const int64_t per = 200000;
#pragma omp parallel for num_threads(threads) schedule(static, 1)
    for (int t = 0; t < threads; t++) {
        pcg32_t g;
        pcg32_unit(&g, 7, (uint64_t)t, 0);
        for (int64_t j = 0; j < per; j++)
            bits_set_atomic(&a, pcg32_below(&g, m));
    }
    for (int t = 0; t < threads; t++) {
        pcg32_t g;
        pcg32_unit(&g, 7, (uint64_t)t, 0);
        for (int64_t j = 0; j < per; j++)
            bits_set(&p, pcg32_below(&g, m));
    }
    assert(memcmp(a.word, p.word, a.nwords * 8) == 0);
    printf("atomic: %lld random sets on %d threads equal the same sets made in order "
           "(%llu bits set)\n", (long long)(per * threads), threads,
           (unsigned long long)bits_count(&a));
    free_checked(&a);
    free_checked(&p);
}

static void check_count_range(void)
{
    pcg32_t g;
    pcg32_seed(&g, 2, 3);
    /* Every (lo, hi) with lo <= hi of small sizes, sparse and dense. */
    const uint64_t small[] = {1, 2, 63, 64, 65, 129, 200};
    uint64_t pairs = 0;
    for (size_t s = 0; s < sizeof small / sizeof small[0]; s++) {
        for (int dense = 0; dense < 2; dense++) {
            uint64_t m = small[s];
            bits_t b;
            alloc_checked(&b, m);
            unsigned char *ref = calloc(m, 1);
            assert(ref);
            fill_both(&b, ref, m, dense ? 1.5 : 0.1, &g);
            for (uint64_t lo = 0; lo <= m; lo++)
                for (uint64_t hi = lo; hi <= m; hi++, pairs++)
                    assert(bits_count_range(&b, lo, hi) == naive_range(ref, lo, hi));
            free(ref);
            free_checked(&b);
        }
    }
    printf("count_range: all %llu (lo, hi) of sizes 1 to 200, sparse and dense\n",
           (unsigned long long)pairs);

    /* Larger sizes: every pair of word-boundary positions (0, 1, 63, 64, 65, ... around
     * each multiple of 64 up to 320, and m - 1, m), then random pairs. */
    const uint64_t sizes[] = {1000, 10007, 65536, 100001};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        uint64_t m = sizes[s];
        bits_t b;
        alloc_checked(&b, m);
        unsigned char *ref = calloc(m, 1);
        assert(ref);
        fill_both(&b, ref, m, 0.7, &g);
        uint64_t edge[32];
        size_t ne = 0;
        for (uint64_t w = 0; w <= 320; w += 64)
            for (int d = -1; d <= 1; d++)
                if (w + (uint64_t)d <= m && !(w == 0 && d < 0))
                    edge[ne++] = w + (uint64_t)d;
        edge[ne++] = m - 1;
        edge[ne++] = m;
        uint64_t n = 0;
        for (size_t x = 0; x < ne; x++)
            for (size_t y = 0; y < ne; y++)
                if (edge[x] <= edge[y]) {
                    assert(bits_count_range(&b, edge[x], edge[y]) ==
                           naive_range(ref, edge[x], edge[y]));
                    n++;
                }
        for (int j = 0; j < 3000; j++) {
            uint64_t lo = pcg32_below(&g, m + 1), hi = pcg32_below(&g, m + 1);
            if (lo > hi) {
                uint64_t t = lo;
                lo = hi;
                hi = t;
            }
            /* a third of the pairs short (within a word or two) */
            if (j % 3 == 0 && lo < m)
                hi = lo + pcg32_below(&g, (m - lo < 130 ? m - lo : 130) + 1);
            assert(bits_count_range(&b, lo, hi) == naive_range(ref, lo, hi));
            n++;
        }
        assert(bits_count_range(&b, 0, m) == bits_count(&b));
        printf("count_range: %llu bits: %llu (lo, hi) at word boundaries and at random\n",
               (unsigned long long)m, (unsigned long long)n);
        free(ref);
        free_checked(&b);
    }
}

static void check_reset(void)
{
    const uint64_t m = 1000;
    bits_t b;
    alloc_checked(&b, m);
    for (uint64_t i = 0; i < m; i++)
        bits_set(&b, i);
    /* To a smaller size: the words in use are cleared and m follows. */
    bits_reset(&b, 100);
    assert(b.m == 100 && bits_count(&b) == 0 && b.word[0] == 0 && b.word[1] == 0);
    for (uint64_t i = 0; i < 100; i++)
        assert(!bits_test(&b, i));
    bits_set(&b, 99);
    assert(bits_count(&b) == 1 && bits_count_range(&b, 0, 99) == 0);
    /* Back to the full size: every word cleared, including those the small size left. */
    bits_reset(&b, m);
    assert(b.m == m && all_zero(&b) && bits_count(&b) == 0);
    bits_set(&b, m - 1);
    assert(bits_count(&b) == 1 && bits_test(&b, m - 1));
    free_checked(&b);

    /* A mapped array resets the same way. */
    alloc_checked(&b, UINT64_C(1) << 25);
    for (uint64_t i = 0; i < b.m; i += 4097)
        bits_set(&b, i);
    assert(bits_count(&b) > 0);
    bits_reset(&b, b.m);
    assert(all_zero(&b));
    free_checked(&b);
    printf("reset: to 100 of 1000 bits and back, and a mapped 2^25-bit array: all clear\n");
}

int main(void)
{
    check_alloc();
    check_set_test_count();
    check_atomic();
    check_count_range();
    check_reset();
    return 0;
}
