/* go_rand.c - Go's math/rand source (generators.h), as Go 1.19 codes it (Debian
 * bookworm golang-1.19-src, /usr/share/go-1.19/src/math/rand): an additive lagged
 * Fibonacci generator of 607 64-bit words with tap 273 (rng.go: rngLen, rngTap, lines
 * 15-16; Uint64, lines 239-252), seeded by a 31-bit Lehmer generator (seedrand, lines
 * 186-199; Seed, lines 202-230) whose words are xored with rngCooked (lines 24-177).
 *
 * rngCooked is not copied here: it is computed as math/rand/gen_cooked.go says it was,
 * the generator's state after 7.8e12 steps from srand(1) (gen_cooked.go: srand, lines
 * 41-63, whose words are built with shifts 20 and 10 where Seed's are 40 and 20; vrand,
 * lines 65-77; main, lines 79-89). 7.8e12 steps are taken at once: the generator is the
 * recurrence y_n = y_{n-607} + y_{n-273} mod 2^64, so a state N steps on is a linear
 * function of the first, with coefficients x^N mod x^607 - x^334 - 1, computed by
 * repeated squaring. tests/test_hashes.c checks words of the result against rng.go's
 * table.
 */
#include "hashes/generators.h"

#include <string.h>
#include <threads.h>

#define MAX31 INT32_C(2147483647)

/* seedrand: x[n+1] = 48271 x[n] mod (2^31 - 1), by Schrage's method as Go writes it. */
static int32_t seedrand(int32_t x)
{
    const int32_t a = 48271, q = 44488, r = 3399;
    int32_t hi = x / q, lo = x % q;
    x = a * lo - r * hi;
    return x < 0 ? x + MAX31 : x;
}

/* The words of a seeding: for i < 0 the Lehmer generator only advances; word i is three
 * of its values shifted by s1, s2 and 0 and xored (gen_cooked.go's srand and Seed). */
static void fill(uint64_t vec[GO_RAND_LEN], int64_t seed, unsigned s1, unsigned s2)
{
    seed %= MAX31;
    if (seed < 0)
        seed += MAX31;
    if (seed == 0)
        seed = 89482311;
    int32_t x = (int32_t)seed;
    for (int i = -20; i < GO_RAND_LEN; i++) {
        x = seedrand(x);
        if (i >= 0) {
            uint64_t u = (uint64_t)(int64_t)x << s1;
            x = seedrand(x);
            u ^= (uint64_t)(int64_t)x << s2;
            x = seedrand(x);
            u ^= (uint64_t)(int64_t)x;
            vec[i] = u;
        }
    }
}

/* c = a b mod x^607 - x^334 - 1 (x^607 = x^334 + 1), coefficients mod 2^64. */
static void mulmod(const uint64_t *a, const uint64_t *b, uint64_t *c)
{
    uint64_t t[2 * GO_RAND_LEN - 1] = {0};
    for (int i = 0; i < GO_RAND_LEN; i++)
        if (a[i])
            for (int j = 0; j < GO_RAND_LEN; j++)
                t[i + j] += a[i] * b[j];
    for (int d = 2 * GO_RAND_LEN - 2; d >= GO_RAND_LEN; d--) {
        t[d - GO_RAND_LEN + GO_RAND_LEN - GO_RAND_TAP] += t[d];
        t[d - GO_RAND_LEN] += t[d];
    }
    memcpy(c, t, GO_RAND_LEN * sizeof *c);
}

/* Step n of the source writes slot (334 - n) mod 607 (feed starts at 607 - 273 and moves
 * down one a step), so slot s holds the latest y_j with j = 334 - s (mod 607); the first
 * state holds y_j for j = -606..0. */
static int slot_of(int64_t j)
{
    int64_t s = (GO_RAND_LEN - GO_RAND_TAP - j) % GO_RAND_LEN;
    return (int)(s < 0 ? s + GO_RAND_LEN : s);
}

static uint64_t cooked[GO_RAND_LEN];
static once_flag cooked_once = ONCE_FLAG_INIT;

static void cook(void)
{
    const uint64_t steps = UINT64_C(7800000000000);
    uint64_t vec[GO_RAND_LEN], y0[GO_RAND_LEN], r[GO_RAND_LEN] = {1}, b[GO_RAND_LEN] = {0, 1};
    fill(vec, 1, 20, 10);
    for (int i = 0; i < GO_RAND_LEN; i++) /* y0[i] = y_{i - 606}: x^i's coefficient */
        y0[i] = vec[slot_of(i - (GO_RAND_LEN - 1))];
    for (uint64_t e = steps; e; e >>= 1) { /* r = x^steps */
        if (e & 1)
            mulmod(r, b, r);
        mulmod(b, b, b);
    }
    /* y_j for j = steps - 606 .. steps: x^(j + 606), from x^steps one power at a time */
    for (uint64_t j = steps - (GO_RAND_LEN - 1); j <= steps; j++) {
        uint64_t y = 0;
        for (int i = 0; i < GO_RAND_LEN; i++)
            y += r[i] * y0[i];
        cooked[slot_of((int64_t)(j % GO_RAND_LEN))] = y;
        uint64_t top = r[GO_RAND_LEN - 1];
        memmove(r + 1, r, (GO_RAND_LEN - 1) * sizeof *r);
        r[0] = top;
        r[GO_RAND_LEN - GO_RAND_TAP] += top;
    }
}

const uint64_t *go_rand_cooked(void)
{
    call_once(&cooked_once, cook);
    return cooked;
}

void go_rand_seed(go_rand_t *r, int64_t seed)
{
    const uint64_t *c = go_rand_cooked();
    r->tap = 0;
    r->feed = GO_RAND_LEN - GO_RAND_TAP;
    fill(r->vec, seed, 40, 20);
    for (int i = 0; i < GO_RAND_LEN; i++)
        r->vec[i] ^= c[i];
}

uint64_t go_rand_uint64(go_rand_t *r)
{
    if (--r->tap < 0)
        r->tap += GO_RAND_LEN;
    if (--r->feed < 0)
        r->feed += GO_RAND_LEN;
    uint64_t x = r->vec[r->feed] + r->vec[r->tap];
    r->vec[r->feed] = x;
    return x;
}
