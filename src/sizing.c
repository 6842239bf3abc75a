/* sizing.c - see sizing.h. */
#include "sizing.h"

#include <math.h>
#include <string.h>

int sizing_design_full(sizing_rule_t rule, uint64_t n, double p, uint64_t *m_computed,
                       uint64_t *m, unsigned *k)
{
    if (n == 0 || !(p > 0 && p < 1))
        return SIZING_EDOM;
    const double ln2 = log(2.0);
    double bits;
    if (rule == SIZING_GUAVA) {
        /* (long) (-n * Math.log(p) / (Math.log(2) * Math.log(2))) */
        bits = floor(-(double)n * log(p) / (ln2 * ln2));
    } else {
        /* mdivn := -math.Log(eps) / (ln2 * ln2); m = uint64(math.Ceil(float64(n) * mdivn)) */
        bits = ceil((double)n * (-log(p) / (ln2 * ln2)));
    }
    if (!(bits < 18446744073709551616.0)) /* 2^64 */
        return SIZING_ETOOBIG;
    uint64_t mm = bits < 1 ? 1 : (uint64_t)bits;
    double kk;
    if (rule == SIZING_GUAVA) /* Math.max(1, (int) Math.round((double) m / n * Math.log(2))),
                               * m the computed numBits, before the array rounds it */
        kk = floor((double)mm / (double)n * ln2 + 0.5);
    else /* k = uint64(math.Ceil(mdivn * ln2)), mdivn as above */
        kk = ceil(-log(p) / (ln2 * ln2) * ln2);
    if (kk > SIZING_MAX_K)
        return SIZING_EPROBES;
    /* Guava: new long[ceil(bits / 64)], bitSize() = 64 * words. mm is at most the
     * largest double below 2^64, 2^64 - 2048, so the rounding cannot overflow. */
    *m = rule == SIZING_GUAVA ? (mm / 64 + (mm % 64 != 0)) * 64 : mm;
    *m_computed = mm;
    *k = kk < 1 ? 1u : (unsigned)kk;
    return SIZING_OK;
}

int sizing_design(sizing_rule_t rule, uint64_t n, double p, uint64_t *m, unsigned *k)
{
    uint64_t computed;
    return sizing_design_full(rule, n, p, &computed, m, k);
}

const char *sizing_rule_name(sizing_rule_t rule)
{
    return rule == SIZING_GUAVA ? "guava" : "calculateparams";
}

int sizing_rule_parse(const char *s, sizing_rule_t *rule)
{
    if (strcmp(s, "calculateparams") == 0)
        *rule = SIZING_CALCULATEPARAMS;
    else if (strcmp(s, "guava") == 0)
        *rule = SIZING_GUAVA;
    else
        return -1;
    return 0;
}

const char *sizing_strerror(int status)
{
    switch (status) {
    case SIZING_OK: return "ok";
    case SIZING_EDOM: return "needs keys >= 1 and a rate strictly between 0 and 1";
    case SIZING_ETOOBIG: return "the filter would need 2^64 bits or more";
    case SIZING_EPROBES: return "the design would need more than 1000 probes";
    case SIZING_ELAYERS: return "a stack needs growth >= 1, tightening strictly between 0 "
                                "and 1, and at most 64 layers";
    default: return "unknown sizing error";
    }
}

int sizing_stack(sizing_rule_t rule, uint64_t c0, double eps, double s, double r,
                 uint64_t keys, sizing_layer_t *out, size_t *nlayers)
{
    if (!(s >= 1) || !(r > 0 && r < 1) || c0 == 0)
        return SIZING_ELAYERS;
    size_t j = 0;
    uint64_t left = keys;
    while (left > 0) {
        if (j == SIZING_MAX_LAYERS)
            return SIZING_ELAYERS;
        double cap = floor((double)c0 * pow(s, (double)j) + 0.5);
        double rate = eps * pow(r, (double)j);
        if (!(cap < 9.0e18))
            return SIZING_ETOOBIG;
        sizing_layer_t *l = &out[j];
        l->capacity = (uint64_t)cap;
        l->rate = rate;
        int st = sizing_design(rule, l->capacity, rate, &l->m, &l->k);
        if (st != SIZING_OK)
            return st;
        l->n = left < l->capacity ? left : l->capacity;
        left -= l->n;
        j++;
    }
    *nlayers = j;
    return SIZING_OK;
}
