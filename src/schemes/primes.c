/* primes.c - the largest prime below m (scheme_prime_below), for double-prime. */
#include "schemes/scheme.h"

#include "base/pcg.h"

static uint64_t mulmod(uint64_t a, uint64_t b, uint64_t m)
{
    return (uint64_t)((pcg_u128)a * b % m);
}

static uint64_t powmod(uint64_t a, uint64_t e, uint64_t m)
{
    uint64_t r = 1;
    a %= m;
    while (e) {
        if (e & 1)
            r = mulmod(r, a, m);
        a = mulmod(a, a, m);
        e >>= 1;
    }
    return r;
}

/* Miller-Rabin with the first twelve primes as bases is deterministic for every
 * n < 3.3e24 (Sorenson and Webster, Math. Comp. 86 (2017)), so for all 64-bit n. */
static int is_prime(uint64_t n)
{
    static const uint64_t bases[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37};
    if (n < 2)
        return 0;
    for (size_t i = 0; i < 12; i++) {
        if (n == bases[i])
            return 1;
        if (n % bases[i] == 0)
            return 0;
    }
    uint64_t d = n - 1;
    unsigned s = 0;
    while ((d & 1) == 0) {
        d >>= 1;
        s++;
    }
    for (size_t i = 0; i < 12; i++) {
        uint64_t x = powmod(bases[i], d, n);
        if (x == 1 || x == n - 1)
            continue;
        unsigned j = 1;
        for (; j < s; j++) {
            x = mulmod(x, x, n);
            if (x == n - 1)
                break;
        }
        if (j == s)
            return 0;
    }
    return 1;
}

uint64_t scheme_prime_below(uint64_t m)
{
    for (uint64_t p = m; p >= 2; p--)
        if (is_prime(p))
            return p;
    return 0;
}
