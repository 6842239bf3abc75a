/* test_util.h - shared by the unit tests that loop over every scheme. */
#ifndef BLOOMSIM_TEST_UTIL_H
#define BLOOMSIM_TEST_UTIL_H

#include "schemes/scheme.h"
#include "libraries/registry.h"

/* The k a test uses for scheme s at m bits: the k it wants, unless the scheme refuses
 * that k for what it is (split-block must split its block into power-of-two words; sbbf
 * and kudu-block fix k as their libraries do): then 8, the k all three take. Decided by
 * the scheme's own geometry, so a new scheme of that kind needs no entry here. */
static inline unsigned test_k(const scheme_t *s, uint64_t m, unsigned k)
{
    probe_geom_t g;
    int st = s->geometry(m, k, 0, &g);
    return st == SCHEME_ESPLIT || st == SCHEME_EKFIXED ? 8 : k;
}

#endif
