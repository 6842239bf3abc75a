/* test_present.c - the audit's check of inserted keys (scheme_t.present; estimator.h's
 * est_check_count; row.h's row_out_t.absent), for every table entry:
 *  - present replays insert's draws: from insert's generator state, every one of the n
 *    keys inserted is found (a count, not a rate: exactly n), and the generator ends
 *    where insert left it, for counts that are no multiple of the lanes or batches;
 *  - it can fail: on an empty array it finds none, and on a filter that holds only the
 *    first half of the keys (a filter that "loses keys past a size") it misses at least
 *    one of the second half, at most the whole second half;
 *  - est_check_count: all n where n is at most max(L, 10^5), else max(L, 10^5). */
#undef NDEBUG
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "estimate/estimator.h"
#include "schemes/scheme.h"
#include "test_util.h"

static void test_replay(void)
{
    const uint64_t n = 1001; /* not a multiple of 4 lanes or 256 keys a batch */
    for (size_t i = 0; i < scheme_count(); i++) {
        const scheme_t *s = scheme_at(i);
        probe_geom_t g;
        assert(s->geometry(UINT64_C(1) << 15, test_k(s, UINT64_C(1) << 15, 7), 0, &g) ==
               SCHEME_OK);
        bits_t b;
        assert(bits_alloc(&b, g.m) == 0);
        pcg32_t r, r0, r1;
        pcg32_seed(&r, 37, i);
        r0 = r1 = r;
        assert(s->present(&b, &g, &r1, n, NULL) == 0); /* nothing inserted: all absent */
        s->insert(&b, &g, &r, n, NULL, NULL);
        r1 = r0;
        uint64_t found = s->present(&b, &g, &r1, n, NULL);
        assert(found == n && r1.state == r.state);
        /* A filter that keeps only the first half: the second half's keys are found only
         * as false positives (at this fill, well under all of them). */
        bits_reset(&b, g.m);
        r1 = r0;
        s->insert(&b, &g, &r1, n / 2, NULL, NULL);
        r1 = r0;
        uint64_t half = s->present(&b, &g, &r1, n, NULL);
        assert(half >= n / 2 && half < n);
        printf("%-24s %llu of %llu inserted keys found on replay; %llu when only the first "
               "%llu are kept\n", s->name, (unsigned long long)found, (unsigned long long)n,
               (unsigned long long)half, (unsigned long long)(n / 2));
        bits_free(&b);
    }
}

static void test_check_count(void)
{
    assert(est_check_count(1000, 50) == 1000);
    assert(est_check_count(100000, 50) == 100000);
    assert(est_check_count(100001, 50) == EST_CHECK_MIN);
    assert(est_check_count(UINT64_C(10000000), 500000) == 500000);
    assert(est_check_count(400000, 500000) == 400000);
    printf("est_check_count: all n up to max(L, 10^5), else max(L, 10^5)\n");
}

int main(void)
{
    test_replay();
    test_check_count();
    return 0;
}
