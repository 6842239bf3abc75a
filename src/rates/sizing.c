/* sizing.c - see sizing.h: the generic rules (calculateparams and the block rules), the
 * designs of any rule, the exact rate of what a rule delivers, and stacks. The library
 * rules are in src/libraries/, one file per library. */
#include "rates/sizing.h"

#include <math.h>
#include <string.h>

#include "rates/rate.h"
#include "rates/rate_blocked.h"

/* 2^64 as a double: counts at or past it do not fit. */
#define TWO_64 18446744073709551616.0

/* calculateparams: seed 002's CalculateParams (Bendersky's Go filter), as it computes:
 * mdivn := -math.Log(eps) / (ln2 * ln2); m = uint64(math.Ceil(float64(n) * mdivn));
 * k = uint64(math.Ceil(mdivn * ln2)). */
static int calculateparams_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    (void)bpk;
    const double ln2 = log(2.0);
    double bits = ceil((double)n * (-log(p) / (ln2 * ln2)));
    if (!(bits < TWO_64))
        return SIZING_ETOOBIG;
    out->m_computed = out->m = bits < 1 ? 1 : (uint64_t)bits;
    out->k = ceil(-log(p) / (ln2 * ln2) * ln2);
    return SIZING_OK;
}

const sizing_rule_t sizing_calculateparams = {
    .name = "calculateparams",
    .summary = "m = ceil(N b), b = -ln P / ln^2 2, k = ceil(b ln 2) (seed 002, Bendersky's "
               "CalculateParams)",
    .kind = SIZING_RULE_PLAIN, .over = SIZING_OVER_UNIFORM, .design = calculateparams_design,
};
const sizing_rule_t sizing_split_block_formula = {
    .name = "split-block-formula",
    .summary = "computed ceil(N c), c = -k / ln(1 - P^(1/k)) bits per key (Parquet's formula), "
               "rounded up to whole blocks",
    .kind = SIZING_RULE_BLOCK, .over = SIZING_OVER_SPLIT, .block_bits = SIZING_SPLIT_BLOCK_BITS,
};
const sizing_rule_t sizing_split_block_exact = {
    .name = "split-block-exact",
    .summary = "the fewest whole split blocks whose exact rate is <= P",
    .kind = SIZING_RULE_BLOCK, .over = SIZING_OVER_SPLIT, .block_bits = SIZING_SPLIT_BLOCK_BITS,
};
const sizing_rule_t sizing_blocked_exact = {
    .name = "blocked-exact",
    .summary = "the fewest whole blocks whose exact rate is <= P, at the k that minimises it",
    .kind = SIZING_RULE_BLOCK, .over = SIZING_OVER_BLOCKED, .block_bits = SIZING_BLOCKED_BITS,
};

const char *sizing_structure_label(const sizing_rule_t *rule)
{
    switch (rule->over) {
    case SIZING_OVER_BLOCKED:
        return "blocked, k positions in one 512-bit cache line";
    case SIZING_OVER_SPLIT:
        return "split-block, 256-bit blocks of 8 words";
    case SIZING_OVER_SLICES:
        return "partitioned, k slices of m/k bits";
    default:
        return "independent probes over m bits";
    }
}

/* A plain or library rule's design, checked: k past SIZING_MAX_K refused, under 1 made
 * 1; nothing written on error. */
static int design_rule(const sizing_rule_t *rule, uint64_t n, double p, double bpk,
                       uint64_t *m_computed, uint64_t *m, unsigned *k)
{
    sizing_out_t o;
    int st = rule->design(n, p, bpk, &o);
    if (st != SIZING_OK)
        return st;
    if (o.k > SIZING_MAX_K)
        return SIZING_EPROBES;
    *m_computed = o.m_computed;
    *m = o.m;
    *k = o.k < 1 ? 1u : (unsigned)o.k;
    return SIZING_OK;
}

/* The block size (0: the rule's default) if it and k fit the rule, else 0. k == 0 asks
 * for the default (split-block: SIZING_SPLIT_BLOCK_K; blocked: the best k). */
static uint64_t block_geometry(const sizing_rule_t *rule, uint64_t block, unsigned k)
{
    if (rule->kind != SIZING_RULE_BLOCK || k > SIZING_MAX_K)
        return 0;
    uint64_t B = block ? block : rule->block_bits;
    if (rule->over == SIZING_OVER_BLOCKED)
        return B <= RATE_DP_M_MAX ? B : 0;
    unsigned kk = k ? k : SIZING_SPLIT_BLOCK_K;
    return B >= kk && B % kk == 0 ? B : 0;
}

/* The exact rate of the block rule's filter; SIZING_OK or SIZING_ERATE. */
static int block_rate(const sizing_rule_t *rule, uint64_t m, uint64_t B, uint64_t n, unsigned k,
                      double *out)
{
    int st = rule->over == SIZING_OVER_BLOCKED ? rate_blocked_exact(m, B, n, k, out)
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
static int try_blocks(const sizing_rule_t *rule, uint64_t B, uint64_t n, unsigned k, uint64_t z,
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
static int design_exact(const sizing_rule_t *rule, uint64_t n, double p, uint64_t B, unsigned k,
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

int sizing_design_blocked(const sizing_rule_t *rule, uint64_t n, double p, uint64_t block,
                          unsigned k, uint64_t *m_computed, uint64_t *m, unsigned *k_out)
{
    if (rule->kind != SIZING_RULE_BLOCK) {
        if (block || k)
            return SIZING_EBLOCK;
        if (n == 0 || !(p > 0 && p < 1))
            return SIZING_EDOM;
        return design_rule(rule, n, p, NAN, m_computed, m, k_out);
    }
    uint64_t B = block_geometry(rule, block, k);
    if (!B)
        return SIZING_EBLOCK;
    if (n == 0 || !(p > 0 && p < 1))
        return SIZING_EDOM;
    if (rule->over != SIZING_OVER_BLOCKED && !k)
        k = SIZING_SPLIT_BLOCK_K;
    if (rule == &sizing_split_block_formula) {
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

int sizing_design_bpk(const sizing_rule_t *rule, uint64_t n, double bits_per_key,
                      uint64_t *m_computed, uint64_t *m, unsigned *k)
{
    if (!rule->bpk_from_rate || isnan(bits_per_key))
        return SIZING_EBPK;
    if (n == 0)
        return SIZING_EDOM;
    return design_rule(rule, n, 0.5, bits_per_key, m_computed, m, k);
}

int sizing_design_full(const sizing_rule_t *rule, uint64_t n, double p, uint64_t *m_computed,
                       uint64_t *m, unsigned *k)
{
    return sizing_design_blocked(rule, n, p, 0, 0, m_computed, m, k);
}

int sizing_design(const sizing_rule_t *rule, uint64_t n, double p, uint64_t *m, unsigned *k)
{
    uint64_t computed;
    return sizing_design_full(rule, n, p, &computed, m, k);
}

int sizing_rate_exact(const sizing_rule_t *rule, uint64_t m, uint64_t n, uint64_t block,
                      unsigned k, double *out)
{
    if (rule->kind == SIZING_RULE_BLOCK) {
        uint64_t B = block_geometry(rule, block, k);
        if (!B || k == 0 || m == 0 || m % B != 0)
            return SIZING_EBLOCK;
        return block_rate(rule, m, B, n, k, out);
    }
    /* Plain and library rules: the rule's own structure, no geometry given. */
    uint64_t B = rule->block_bits;
    int blocks = rule->over == SIZING_OVER_BLOCKED || rule->over == SIZING_OVER_SPLIT;
    if (block || (rule->kind == SIZING_RULE_LIBRARY && (k == 0 || m == 0)) ||
        (blocks && m % B) || (rule->over == SIZING_OVER_SPLIT && k != SIZING_SPLIT_BLOCK_K) ||
        (rule->over == SIZING_OVER_SLICES && m % k))
        return SIZING_EBLOCK;
    int st;
    switch (rule->over) {
    case SIZING_OVER_SLICES:
        *out = rate_partitioned_exact(m / k, n, k);
        return SIZING_OK;
    case SIZING_OVER_BLOCKED:
        st = rate_blocked_exact(m, B, n, k, out);
        break;
    case SIZING_OVER_SPLIT:
        st = rate_split_block_exact(m, B, n, k, out);
        break;
    default:
        st = rate_exact(m, n, k, out);
    }
    return st == RATE_OK ? SIZING_OK : SIZING_ERATE;
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
    case SIZING_ECAP: return "the library refuses a filter this large (past its size cap)";
    case SIZING_EKEYS: return "the library refuses this key count";
    case SIZING_EZERO: return "the library computes 0 bits at this rate and refuses the filter";
    case SIZING_ENOFILTER: return "the library builds no filter at this rate (RocksDB: under 0.5 "
                                  "bits per key; Commons Collections: k rounds to 0)";
    case SIZING_ELIBRATE: return "the library refuses a target rate this low (Cassandra: below "
                                 "6.71e-05)";
    case SIZING_EBPK: return "bits per key apply only to leveldb (a whole number >= 0), "
                             "rocksdb-fastlocal, rocksdb-fastlocal-9.2 and rocksdb-legacy";
    case SIZING_EKFIELD: return "the library's field for k cannot hold the k it computes";
    default: return "unknown sizing error";
    }
}

const char *sizing_refusal(const sizing_rule_t *rule, int status)
{
    const char *own = rule && rule->refusal ? rule->refusal(status) : NULL;
    return own ? own : sizing_strerror(status);
}

int sizing_stack(const sizing_rule_t *rule, uint64_t c0, double eps, double s, double r,
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
