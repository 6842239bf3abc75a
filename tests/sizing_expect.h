/* sizing_expect.h - the checks the sizing tests share: a rule by name, and a design's
 * computed bits, indexed bits and probes against hand-worked values (printed). */
#ifndef BLOOMSIM_TEST_SIZING_EXPECT_H
#define BLOOMSIM_TEST_SIZING_EXPECT_H

#undef NDEBUG
#include <assert.h>
#include <stdio.h>

#include "rates/sizing.h"
#include "libraries/registry.h"

/* The rule of that name (it must exist). */
static inline const sizing_rule_t *RULE(const char *name)
{
    const sizing_rule_t *r = sizing_find(name);
    assert(r);
    return r;
}

/* The design's computed bits mc, indexed bits m and probes k; sizing_design agrees. */
static inline void expect(const sizing_rule_t *rule, uint64_t n, double p, uint64_t mc, uint64_t m,
                   unsigned k)
{
    uint64_t gmc, gm, m2;
    unsigned gk, k2;
    assert(sizing_design_full(rule, n, p, &gmc, &gm, &gk) == SIZING_OK);
    printf("%-15s n=%-10llu p=%-8g computed m=%llu indexed m=%llu k=%u\n",
           rule->name, (unsigned long long)n, p, (unsigned long long)gmc,
           (unsigned long long)gm, gk);
    assert(gmc == mc && gm == m && gk == k);
    assert(sizing_design(rule, n, p, &m2, &k2) == SIZING_OK && m2 == m && k2 == k);
}

#endif
