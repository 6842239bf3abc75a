/* test_pcg.c - the generator against the reference library's published output, the
 * jump-ahead both ways, bounded draws, and the unit derivation.
 *
 * Known answers: tests/data/check-pcg32.out is test-high/expected/check-pcg32.out of
 * the PCG reference library pcg-c (M. E. O'Neill), the output of its check program for
 * pcg32 seeded with (42, 54). We regenerate that text with our generator and compare it
 * byte for byte. Its coins, dice and cards use pcg-c's modulo-with-rejection bounded
 * draw, re-derived below for the test only (the program itself uses Lemire's method). */
#undef NDEBUG
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/pcg.h"

/* pcg-c's pcg32_boundedrand_r: reject r < 2^32 mod bound, then r % bound. */
static uint32_t reference_bounded(pcg32_t *g, uint32_t bound)
{
    uint32_t threshold = -bound % bound;
    for (;;) {
        uint32_t r = pcg32_next(g);
        if (r >= threshold)
            return r % bound;
    }
}

static size_t render_check(char *out, size_t cap)
{
    static const char number[] = "A23456789TJQK", suit[] = "hcds";
    size_t n = 0;
#define PUT(...) (n += (size_t)snprintf(out + n, cap - n, __VA_ARGS__))
    pcg32_t g;
    pcg32_seed(&g, 42u, 54u);
    PUT("pcg32_random_r:\n      -  result:      32-bit unsigned int (uint32_t)\n"
        "      -  period:      2^64   (* 2^63 streams)\n"
        "      -  state type:  pcg32_random_t (%zu bytes)\n"
        "      -  output func: XSH-RR\n\n", sizeof(pcg32_t));
    for (int round = 1; round <= 5; round++) {
        PUT("Round %d:\n  32bit:", round);
        for (int i = 0; i < 6; i++)
            PUT(" 0x%08x", pcg32_next(&g));
        PUT("\n  Again:");
        pcg32_advance(&g, (uint64_t)-6); /* back six steps */
        for (int i = 0; i < 6; i++)
            PUT(" 0x%08x", pcg32_next(&g));
        PUT("\n  Coins: ");
        for (int i = 0; i < 65; i++)
            PUT("%c", reference_bounded(&g, 2) ? 'H' : 'T');
        PUT("\n  Rolls:");
        for (int i = 0; i < 33; i++)
            PUT(" %d", (int)reference_bounded(&g, 6) + 1);
        PUT("\n");
        char cards[52];
        for (int i = 0; i < 52; i++)
            cards[i] = (char)i;
        for (int i = 52; i > 1; i--) {
            int chosen = (int)reference_bounded(&g, (uint32_t)i);
            char c = cards[chosen];
            cards[chosen] = cards[i - 1];
            cards[i - 1] = c;
        }
        PUT("  Cards:");
        for (int i = 0; i < 52; i++) {
            PUT(" %c%c", number[cards[i] / 4], suit[cards[i] % 4]);
            if ((i + 1) % 22 == 0)
                PUT("\n\t");
        }
        PUT("\n\n");
    }
#undef PUT
    return n;
}

static void test_reference_output(void)
{
    static char got[8192], want[8192];
    size_t n = render_check(got, sizeof got);
    FILE *f = fopen("tests/data/check-pcg32.out", "rb");
    assert(f && "run from the source root");
    size_t w = fread(want, 1, sizeof want, f);
    fclose(f);
    if (n != w || memcmp(got, want, n) != 0) {
        fprintf(stderr, "pcg32 check output differs from pcg-c's:\n%s", got);
        exit(1);
    }
    printf("pcg32 (42, 54): reproduces pcg-c check-pcg32.out (%zu bytes)\n", n);
}

static void test_advance(void)
{
    pcg32_t a, b;
    pcg32_seed(&a, 123, 456);
    b = a;
    for (int i = 0; i < 1000; i++)
        (void)pcg32_next(&a);
    pcg32_advance(&b, 1000);
    assert(a.state == b.state);
    pcg32_advance(&b, (uint64_t)-1000);
    pcg32_seed(&a, 123, 456);
    assert(a.state == b.state);
    pcg32_advance(&b, 0);
    assert(a.state == b.state);
    printf("advance: +1000 equals 1000 steps, -1000 returns\n");
}

/* Lemire's draw against a size where the plain modulo is visibly biased: bound =
 * 3*2^30 makes x % bound hit [0, 2^30) twice as often. Three equal bins, chi-square with
 * 2 degrees of freedom; its 1e-6 upper quantile is -2 ln(1e-6) = 27.63. */
static void test_below_uniform(void)
{
    pcg32_t g;
    pcg32_seed(&g, 2026, 11);
    const uint32_t bound = 3u << 30;
    const int draws = 300000;
    long bins[3] = {0, 0, 0}, mod_bins[3] = {0, 0, 0};
    for (int i = 0; i < draws; i++) {
        uint32_t x = pcg32_below32(&g, bound);
        assert(x < bound);
        bins[x / (1u << 30)]++;
        mod_bins[(pcg32_next(&g) % bound) / (1u << 30)]++;
    }
    double e = draws / 3.0, chi = 0, chi_mod = 0;
    for (int i = 0; i < 3; i++) {
        chi += (bins[i] - e) * (bins[i] - e) / e;
        chi_mod += (mod_bins[i] - e) * (mod_bins[i] - e) / e;
    }
    double limit = -2 * log(1e-6);
    printf("below(3*2^30): chi2 = %.2f (limit %.2f); plain modulo gives %.0f\n", chi, limit,
           chi_mod);
    assert(chi < limit);
    assert(chi_mod > limit); /* the test can tell a biased draw */

    /* Range over widths past 32 bits. */
    const uint64_t bounds[] = {1, 2, 3, 1021, UINT64_C(0xffffffff), UINT64_C(0x100000000),
                               UINT64_C(0x100000001), UINT64_C(3) << 40, UINT64_MAX};
    for (size_t j = 0; j < sizeof bounds / sizeof bounds[0]; j++)
        for (int i = 0; i < 10000; i++)
            assert(pcg32_below(&g, bounds[j]) < bounds[j]);
    /* Past 2^32 the high bits must be used: a 2^40-wide draw reaches its top half. */
    int top = 0;
    for (int i = 0; i < 1000; i++)
        top += pcg32_below(&g, UINT64_C(1) << 40) >= (UINT64_C(1) << 39);
    printf("below(2^40): %d of 1000 in the top half\n", top);
    assert(top > 400 && top < 600); /* binomial(1000, 1/2): 6.3 sigma either side */
}

static void test_unit(void)
{
    pcg32_t a, b, c;
    pcg32_unit(&a, 1, 2, 3);
    pcg32_unit(&b, 1, 2, 3);
    assert(a.state == b.state && a.inc == b.inc);
    pcg32_unit(&c, 1, 3, 2);
    assert(c.state != a.state && c.inc != a.inc);
    pcg32_unit(&c, 2, 2, 3);
    assert(c.state != a.state);
    assert(a.inc & 1);
    /* Sub-units: pure functions of the parent and the part, the parent untouched. */
    pcg32_t s0, s0b, s1, parent = a;
    pcg32_subunit(&s0, &a, 0);
    pcg32_subunit(&s0b, &a, 0);
    pcg32_subunit(&s1, &a, 1);
    assert(a.state == parent.state && a.inc == parent.inc);
    assert(s0.state == s0b.state && s0.inc == s0b.inc && (s0.inc & 1));
    assert(s1.state != s0.state && s1.inc != s0.inc && s0.state != a.state);
    pcg32_subunit(&s1, &b, 0); /* same parent state: same sub-unit */
    assert(s1.state == s0.state);
    pcg32_subunit(&s1, &c, 0);
    assert(s1.state != s0.state);
    printf("unit derivation: pure, order-sensitive, odd stream; sub-units likewise\n");
}

int main(void)
{
    test_reference_output();
    test_advance();
    test_below_uniform();
    test_unit();
    return 0;
}
