/* sizing.c - see sizing.h. */
#include "sizing.h"

#include <math.h>
#include <string.h>

#include "rate.h"
#include "rate_blocked.h"

/* 2^64 as a double: counts at or past it do not fit. */
#define TWO_64 18446744073709551616.0

/* calculateparams and guava. */
static int design_unblocked(sizing_rule_t rule, uint64_t n, double p, uint64_t *m_computed,
                            uint64_t *m, unsigned *k)
{
    const double ln2 = log(2.0);
    double bits;
    if (rule == SIZING_GUAVA) {
        /* (long) (-n * Math.log(p) / (Math.log(2) * Math.log(2))) */
        bits = floor(-(double)n * log(p) / (ln2 * ln2));
    } else {
        /* mdivn := -math.Log(eps) / (ln2 * ln2); m = uint64(math.Ceil(float64(n) * mdivn)) */
        bits = ceil((double)n * (-log(p) / (ln2 * ln2)));
    }
    if (!(bits < TWO_64))
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

static int is_block_rule(sizing_rule_t rule)
{
    return rule == SIZING_SPLIT_BLOCK_FORMULA || rule == SIZING_SPLIT_BLOCK_EXACT ||
           rule == SIZING_BLOCKED_EXACT;
}

uint64_t sizing_rule_block_bits(sizing_rule_t rule)
{
    if (rule == SIZING_BLOCKED_EXACT)
        return SIZING_BLOCKED_BITS;
    return is_block_rule(rule) ? SIZING_SPLIT_BLOCK_BITS : 0;
}

/* The block size (0: the rule's default) if it and k fit the rule, else 0. k == 0 asks
 * for the default (split-block: SIZING_SPLIT_BLOCK_K; blocked: the best k). */
static uint64_t block_geometry(sizing_rule_t rule, uint64_t block, unsigned k)
{
    if (!is_block_rule(rule) || k > SIZING_MAX_K)
        return 0;
    uint64_t B = block ? block : sizing_rule_block_bits(rule);
    if (rule == SIZING_BLOCKED_EXACT)
        return B <= RATE_DP_M_MAX ? B : 0;
    unsigned kk = k ? k : SIZING_SPLIT_BLOCK_K;
    return B >= kk && B % kk == 0 ? B : 0;
}

/* The exact rate of the block rule's filter; SIZING_OK or SIZING_ERATE. */
static int block_rate(sizing_rule_t rule, uint64_t m, uint64_t B, uint64_t n, unsigned k,
                      double *out)
{
    int st = rule == SIZING_BLOCKED_EXACT ? rate_blocked_exact(m, B, n, k, out)
                                          : rate_split_block_exact(m, B, n, k, out);
    return st == RATE_OK ? SIZING_OK : SIZING_ERATE;
}

/* A size tried by the exact search: z blocks, the k used there (given, or the best) and
 * its exact rate. */
typedef struct trial {
    uint64_t z;
    unsigned k;
    double rate;
} trial_t;

/* The rate of z blocks at the given k, or, with k == 0 (blocked only), at the k in
 * [1, SIZING_BEST_K_MAX] that minimises it: walk from round((m/n) ln 2), clamped to
 * that range, down while the rate does not increase (a tie goes to fewer probes), else
 * up while it decreases. */
static int try_blocks(sizing_rule_t rule, uint64_t B, uint64_t n, unsigned k, uint64_t z,
                      trial_t *t)
{
    uint64_t m = z * B;
    t->z = z;
    if (k) {
        t->k = k;
        return block_rate(rule, m, B, n, k, &t->rate);
    }
    double k0 = floor((double)m / (double)n * log(2.0) + 0.5);
    unsigned kb = k0 < 1 ? 1u : k0 > SIZING_BEST_K_MAX ? SIZING_BEST_K_MAX : (unsigned)k0;
    double rb, r;
    int st = block_rate(rule, m, B, n, kb, &rb);
    if (st != SIZING_OK)
        return st;
    int down = 0;
    while (kb > 1) {
        if ((st = block_rate(rule, m, B, n, kb - 1, &r)) != SIZING_OK)
            return st;
        if (!(r <= rb))
            break;
        kb--, rb = r, down = 1;
    }
    while (!down && kb < SIZING_BEST_K_MAX) {
        if ((st = block_rate(rule, m, B, n, kb + 1, &r)) != SIZING_OK)
            return st;
        if (!(r < rb))
            break;
        kb++, rb = r;
    }
    t->k = kb;
    t->rate = rb;
    return SIZING_OK;
}

/* The exact rules: the fewest whole blocks whose rate is at most p (sizing.h). */
static int design_exact(sizing_rule_t rule, uint64_t n, double p, uint64_t B, unsigned k,
                        uint64_t *m, unsigned *k_out)
{
    const uint64_t zmax = UINT64_MAX / B;
    /* The formula's size in blocks as a start: (1 - e^{-k/c})^k = p at fixed k, the
     * optimum -log2(p) / ln 2 bits per key at the best k. */
    double c = k ? rate_split_block_formula_bpk(p, k) : -log(p) / (log(2.0) * log(2.0));
    double z0d = ceil((double)n * c / (double)B);
    uint64_t z0 = !(z0d >= 1) ? 1 : z0d >= (double)zmax ? zmax : (uint64_t)z0d;
    trial_t lo = {0}, hi, t; /* lo.z == 0: no size below hi is known to fail */
    int st = try_blocks(rule, B, n, k, z0, &t);
    if (st != SIZING_OK)
        return st;
    if (t.rate <= p) {
        hi = t;
        while (hi.z > 1) {
            if ((st = try_blocks(rule, B, n, k, hi.z / 2, &t)) != SIZING_OK)
                return st;
            if (!(t.rate <= p)) {
                lo = t;
                break;
            }
            hi = t;
        }
    } else {
        lo = t;
        for (;;) {
            if (lo.z == zmax)
                return SIZING_ETOOBIG;
            uint64_t z = lo.z > zmax / 2 ? zmax : 2 * lo.z;
            if ((st = try_blocks(rule, B, n, k, z, &t)) != SIZING_OK)
                return st;
            if (t.rate <= p) {
                hi = t;
                break;
            }
            lo = t;
        }
    }
    /* lo fails (or is 0), hi meets p: bisect until they are adjacent. */
    while (hi.z - lo.z > 1) {
        if ((st = try_blocks(rule, B, n, k, lo.z + (hi.z - lo.z) / 2, &t)) != SIZING_OK)
            return st;
        *(t.rate <= p ? &hi : &lo) = t;
    }
    *m = hi.z * B;
    *k_out = hi.k;
    return SIZING_OK;
}

int sizing_design_blocked(sizing_rule_t rule, uint64_t n, double p, uint64_t block,
                          unsigned k, uint64_t *m_computed, uint64_t *m, unsigned *k_out)
{
    if (!is_block_rule(rule)) {
        if (block || k)
            return SIZING_EBLOCK;
        if (n == 0 || !(p > 0 && p < 1))
            return SIZING_EDOM;
        return design_unblocked(rule, n, p, m_computed, m, k_out);
    }
    uint64_t B = block_geometry(rule, block, k);
    if (!B)
        return SIZING_EBLOCK;
    if (n == 0 || !(p > 0 && p < 1))
        return SIZING_EDOM;
    if (rule != SIZING_BLOCKED_EXACT && !k)
        k = SIZING_SPLIT_BLOCK_K;
    if (rule == SIZING_SPLIT_BLOCK_FORMULA) {
        int st = sizing_formula_blocks(n, p, B, k, m_computed, m);
        if (st == SIZING_OK)
            *k_out = k;
        return st;
    }
    uint64_t mm;
    unsigned kk;
    int st = design_exact(rule, n, p, B, k, &mm, &kk);
    if (st != SIZING_OK)
        return st;
    *m = *m_computed = mm;
    *k_out = kk;
    return SIZING_OK;
}

int sizing_formula_blocks(uint64_t n, double p, uint64_t B, unsigned k, uint64_t *m_computed,
                          uint64_t *m)
{
    if (B == 0 || k == 0 || k > SIZING_MAX_K)
        return SIZING_EBLOCK;
    if (n == 0 || !(p > 0 && p < 1))
        return SIZING_EDOM;
    double bits = ceil((double)n * rate_split_block_formula_bpk(p, k));
    /* Room to round up to a whole block: bits + B - 1 < 2^64. */
    if (!(bits < TWO_64 - (double)B))
        return SIZING_ETOOBIG;
    uint64_t mc = bits < 1 ? 1 : (uint64_t)bits;
    *m = (mc / B + (mc % B != 0)) * B;
    *m_computed = mc;
    return SIZING_OK;
}

int sizing_design_full(sizing_rule_t rule, uint64_t n, double p, uint64_t *m_computed,
                       uint64_t *m, unsigned *k)
{
    return sizing_design_blocked(rule, n, p, 0, 0, m_computed, m, k);
}

int sizing_design(sizing_rule_t rule, uint64_t n, double p, uint64_t *m, unsigned *k)
{
    uint64_t computed;
    return sizing_design_full(rule, n, p, &computed, m, k);
}

int sizing_rate_exact(sizing_rule_t rule, uint64_t m, uint64_t n, uint64_t block, unsigned k,
                      double *out)
{
    if (!is_block_rule(rule)) {
        if (block)
            return SIZING_EBLOCK;
        return rate_exact(m, n, k, out) == RATE_OK ? SIZING_OK : SIZING_ERATE;
    }
    uint64_t B = block_geometry(rule, block, k);
    if (!B || k == 0 || m == 0 || m % B != 0)
        return SIZING_EBLOCK;
    return block_rate(rule, m, B, n, k, out);
}

/* Indexed by sizing_rule_t. */
static const char *const rule_names[] = {
    [SIZING_CALCULATEPARAMS] = "calculateparams",
    [SIZING_GUAVA] = "guava",
    [SIZING_SPLIT_BLOCK_FORMULA] = "split-block-formula",
    [SIZING_SPLIT_BLOCK_EXACT] = "split-block-exact",
    [SIZING_BLOCKED_EXACT] = "blocked-exact",
};

const char *sizing_rule_name(sizing_rule_t rule)
{
    size_t i = (size_t)rule;
    return i < sizeof rule_names / sizeof rule_names[0] ? rule_names[i] : "calculateparams";
}

int sizing_rule_parse(const char *s, sizing_rule_t *rule)
{
    for (size_t i = 0; i < sizeof rule_names / sizeof rule_names[0]; i++)
        if (strcmp(s, rule_names[i]) == 0) {
            *rule = (sizing_rule_t)i;
            return 0;
        }
    return -1;
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
    case SIZING_EBLOCK: return "block bits and k fit only the block rules: split-block needs "
                               "k dividing the block bits, blocked at most 2^18 block bits, "
                               "and k at most 1000";
    case SIZING_ERATE: return "the exact rate could not be computed at a size tried";
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
