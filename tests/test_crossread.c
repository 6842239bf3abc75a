/* test_crossread.c - a filter written by one scheme and read by another
 * (estimate/crossread.h; `bloomsim crossread`; docs/model.md, "Cross-reading"):
 *  - the words each scheme takes from a digest, worked by hand: Guava's MITZ_32 halves
 *    (hash1 = (int) hash64, hash2 = (int) (hash64 >>> 32), BloomFilterStrategies.java
 *    @0d6dbae8, as libraries/guava.c takes them from Murmur3), MITZ_64's two words, words
 *    on [0, m) reduced mod m, with seed 003's h2 |= 1 where the scheme refuses the stride;
 *    schemes that cannot take part refused;
 *  - controls: every scheme that can take part, read by itself, reads every held key and
 *    has the writer's own false positives, count for count; the same counts on 1 and 2
 *    threads;
 *  - where probes agree, by arithmetic: plain and enhanced double hashing from the same
 *    words differ at probe i by (i^3 - i)/6 mod m, whatever the key, so at m = 20 and
 *    k = 6 (0, 0, 1, 4, 10, 20 mod 20) probes 0, 1 and 5 agree for every key and 2, 3, 4
 *    for none; enhanced and seed 003's loop (squares) share probes 0 to 2 for the keys
 *    whose stride is odd already, about half;
 *  - statistics (fixed seeds, tolerances of 5 standard errors): a plain reader of an
 *    enhanced filter at k = 3 tests one wrong bit a key, set with the chance that other
 *    keys set a given bit, so the share absent is (1 - 3/m)^(n-1) to within 2/m; a reader
 *    whose positions are unrelated to the writer's (Guava's two strategies) finds a held
 *    key as often as a never-inserted one: 1 - absent is its own false-positive rate. */
#undef NDEBUG
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "estimate/crossread.h"
#include "libraries/registry.h"
#include "test_util.h"

static const scheme_t *find(const char *name)
{
    const scheme_t *s = scheme_find(name);
    assert(s);
    return s;
}

static void words(const char *name, uint64_t m, uint64_t d0, uint64_t d1, uint64_t h0,
                  uint64_t h1)
{
    const scheme_t *s = find(name);
    probe_geom_t g;
    assert(s->geometry(m, 3, 0, &g) == SCHEME_OK);
    uint64_t d[CROSSREAD_DIGEST_WORDS] = {d0, d1, 0, 0}, h[SCHEME_MAX_WORDS];
    assert(crossread_words(s, &g, d, h) == SCHEME_OK);
    if (h[0] != h0 || h[1] != h1) {
        fprintf(stderr, "%s m = %llu: words %llx %llx, want %llx %llx\n", name,
                (unsigned long long)m, (unsigned long long)h[0], (unsigned long long)h[1],
                (unsigned long long)h0, (unsigned long long)h1);
        assert(0);
    }
}

static void test_words(void)
{
    words("guava32", 1000, UINT64_C(0x1122334455667788), 7, 0x55667788, 0x11223344);
    words("guava64", 1000, UINT64_C(0x1122334455667788), 7, UINT64_C(0x1122334455667788), 7);
    words("double", 16, 35, 26, 3, 10);        /* 35 mod 16, 26 mod 16 */
    words("double", 16, 35, 32, 3, 0);         /* stride 0: double takes it */
    words("double-odd", 16, 35, 26, 3, 11);    /* 10, even: | 1 */
    words("double-odd", 16, 35, 29, 3, 13);    /* 13, odd already */
    words("squares", 16, 35, 26, 3, 11);
    words("double-prime", 16, 35, 26, 9, 1);   /* m' = 13: 26 mod 13 = 0, | 1 */
    words("double-prime", 16, 35, 28, 9, 2);   /* an even stride is a prime's */
    words("enhanced", 20, 45, 47, 5, 7);
    const char *no[] = {"double-even", "independent", "partitioned", "blocked"};
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
        const scheme_t *s = find(no[i]);
        probe_geom_t g;
        const char *why = NULL;
        assert(s->geometry(4096, 4, 0, &g) == SCHEME_OK);
        assert(crossread_usable(s, &g, &why) == -1 && why);
    }
}

/* Measure writer w -> reader r with x's sizes and counts (seed 7); asserts it ran. */
static void measure(const char *w, const char *r, crossread_t x, crossread_out_t *o)
{
    x.writer = find(w), x.reader = find(r), x.seed = 7;
    *o = (crossread_out_t){0};
    assert(x.writer->geometry(x.m, x.k, 0, &o->gw) == SCHEME_OK);
    assert(x.reader->geometry(x.m, x.k, 0, &o->gr) == SCHEME_OK);
    assert(crossread_measure(&x, o) == CROSSREAD_OK);
    assert(o->writer_absent == 0);
}

/* x's sizes and counts: m bits, n keys, k probes, F filters, L queries, T threads. */
#define XR(m_, n_, k_, F_, L_, T_) \
    ((crossread_t){.m = (m_), .n = (n_), .k = (k_), .filters = (F_), .queries = (L_), \
                   .threads = (T_)})

static void test_controls(void)
{
    int ran = 0;
    for (size_t i = 0; i < scheme_count(); i++) {
        const scheme_t *s = scheme_at(i);
        const uint64_t m = 4096;
        const unsigned k = test_k(s, m, 5);
        probe_geom_t g;
        const char *why;
        if (s->geometry(m, k, 0, &g) != SCHEME_OK || crossread_usable(s, &g, &why))
            continue;
        crossread_out_t o;
        measure(s->name, s->name, XR(m, 300, k, 2, 2000, 1), &o);
        assert(o.absent.false_positives == 0);
        assert(o.reader_fp.false_positives == o.writer_fp.false_positives);
        for (unsigned j = 0; j < k; j++)
            assert(o.agree[j] == 600);
        crossread_out_free(&o);
        ran++;
    }
    assert(ran >= 20); /* the textbook double family and the libraries' own */
    /* Threads pick filters, never what a filter draws. */
    crossread_out_t a, b;
    measure("double-odd", "double-prime", XR(4096, 400, 6, 9, 3000, 1), &a);
    measure("double-odd", "double-prime", XR(4096, 400, 6, 9, 3000, 2), &b);
    assert(a.absent.false_positives == b.absent.false_positives &&
           a.reader_fp.false_positives == b.reader_fp.false_positives &&
           a.writer_fp.false_positives == b.writer_fp.false_positives &&
           memcmp(a.agree, b.agree, 6 * sizeof *a.agree) == 0 && a.fill == b.fill);
    crossread_out_free(&a);
    crossread_out_free(&b);
}

static void test_agree(void)
{
    crossread_out_t o;
    measure("double", "enhanced", XR(20, 100, 6, 2, 1, 1), &o);
    const uint64_t want[6] = {200, 200, 0, 0, 0, 200};
    for (unsigned i = 0; i < 6; i++)
        assert(o.agree[i] == want[i]);
    crossread_out_free(&o);
    measure("enhanced", "double", XR(65536, 100, 7, 10, 1, 1), &o);
    for (unsigned i = 0; i < 7; i++)
        assert(o.agree[i] == (i < 2 ? 1000u : 0u));
    crossread_out_free(&o);
    /* Enhanced's stride is squares' where it is odd already (squares sets its low bit). */
    measure("enhanced", "squares", XR(16, 2000, 6, 2, 1, 1), &o);
    const double half = (double)o.agree[1] / 4000;
    assert(o.agree[0] == 4000 && o.agree[1] == o.agree[2]);
    assert(fabs(half - 0.5) < 5 * sqrt(0.25 / 4000));
    for (unsigned i = 3; i < 6; i++)
        assert(o.agree[i] == 0); /* (i-2)(i-1)i/6 = 1, 4, 10 mod 16 for odd strides */
    crossread_out_free(&o);
}

static void test_rates(void)
{
    const uint64_t m = 65536, n = 6553;
    crossread_out_t o;
    measure("enhanced", "double", XR(m, n, 3, 20, 1000, 2), &o);
    const double want = pow(1 - 3.0 / (double)m, (double)(n - 1));
    const double dev = fabs(o.absent.rate - want);
    if (!(dev < 5 * o.absent.stderr_ + 2.0 / (double)m)) {
        fprintf(stderr, "enhanced read as double at k = 3: absent %.6f, want %.6f (se %.2g)\n",
                o.absent.rate, want, o.absent.stderr_);
        assert(0);
    }
    crossread_out_free(&o);
    measure("guava32", "guava64", XR(m, n, 7, 20, 100000, 2), &o);
    const double held = 1 - o.absent.rate;
    const double se = sqrt(o.absent.stderr_ * o.absent.stderr_ +
                           o.reader_fp.stderr_ * o.reader_fp.stderr_);
    if (!(fabs(held - o.reader_fp.rate) < 5 * se) || !(o.absent.rate > 0.98)) {
        fprintf(stderr, "guava32 read as guava64: held keys found %.6f, strangers %.6f (se "
                "%.2g)\n", held, o.reader_fp.rate, se);
        assert(0);
    }
    crossread_out_free(&o);
}

int main(void)
{
    test_words();
    test_controls();
    test_agree();
    test_rates();
    printf("test_crossread: ok\n");
    return 0;
}
