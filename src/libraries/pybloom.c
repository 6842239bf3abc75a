/* pybloom.c - pybloom-live (Python): its partitioned filter's index arithmetic, its exact
 * model, its sizing and its row.
 *
 * Source: joseph-fox/python-bloomfilter pybloom_live/pybloom.py (make_hashfuncs,
 * BloomFilter.__init__, BloomFilter.add) at 4.0.0: 089f006 (2022-10-11, the last commit
 * before the PyPI release; the repository never tagged it) and unchanged in what is
 * modelled here at da1a8b3d (2025, the first commit to say VERSION = "4.0.0").
 */
#include <math.h>

#include "libraries/arith.h"
#include "libraries/chain.h"
#include "libraries/library.h"
#include "rates/rate.h"
#include "libraries/registry.h"
#include "schemes/words.h"

/* ---- the index arithmetic (make_hashfuncs, add) ----
 * Partitioned: k slices of s = floor(m/k) bits (m used = k s, as `partitioned`). Slice j
 * takes chunk j of the digest, an unsigned word of 16 bits if s < 2^15, 32 bits if
 * s < 2^31, else 64 bits, and sets bit j s + (w_j mod s). With an ideal digest the
 * chunks are k fresh uniform words of that width, drawn per probe (positions_drawn). */
SCHEME_HOT uint64_t pybloom_word(const probe_geom_t *g, pcg32_t *r)
{
    if (g->w < (UINT64_C(1) << 15))
        return pcg32_next(r) >> 16; /* 'H': 16 bits */
    if (g->w < (UINT64_C(1) << 31))
        return pcg32_next(r); /* 'I' */
    return pcg32_next64(r); /* 'Q' */
}
#define pybloom_live_draw nowords_draw
SCHEME_HOT void pybloom_live_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    (void)g, (void)h;
    it->x = 0; /* start of the current slice */
}
SCHEME_HOT uint64_t pybloom_live_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    uint64_t p = it->x + pybloom_word(g, r) % g->w;
    it->x += g->w;
    return p;
}
SCHEME_LOOPS(pybloom_live)

/* The chunk's range; 2^64 does not fit, so for 64-bit chunks the bound is 2^64 - 1. */
static uint64_t pybloom_live_draw_bound(const probe_geom_t *g, unsigned i)
{
    (void)i;
    if (g->w < (UINT64_C(1) << 15))
        return UINT64_C(1) << 16;
    if (g->w < (UINT64_C(1) << 31))
        return UINT64_C(1) << 32;
    return UINT64_MAX;
}
static void pybloom_live_positions_drawn(const probe_geom_t *g, const uint64_t *h,
                                         const uint64_t *d, uint64_t *pos)
{
    (void)h;
    for (unsigned i = 0; i < g->k; i++)
        pos[i] = i * g->w + d[i] % g->w;
}

/* Model, exact for its independent slices: slice j takes its own word mod s, the word 16,
 * 32 or 64 bits wide by s (u64 as range 2^63: the unevenness of 2^64 mod s is below
 * 2^-33 either way): (sum_j q_j (1 - (1 - q_j)^n))^k. */
static double pybloom_live_model(const probe_geom_t *g, uint64_t n)
{
    uint64_t range = g->w < (UINT64_C(1) << 15)   ? UINT64_C(1) << 16
                     : g->w < (UINT64_C(1) << 31) ? UINT64_C(1) << 32
                                                  : UINT64_C(1) << 63;
    return pow(rate_model_mod(range, g->w, n, 1), g->k);
}

const scheme_t scheme_pybloom_live = {
    .name = "pybloom-live",
    .summary = "pybloom-live: k slices of floor(m/k) bits, slice j at word_j mod s; words "
               "u16 (s < 2^15), u32 (s < 2^31), else u64",
    .geometry = scheme_geom_slices, SCHEME_LOOP_FNS(pybloom_live),
    .positions_drawn = pybloom_live_positions_drawn, .draw_bound = pybloom_live_draw_bound,
    .model = pybloom_live_model,
};

/* ---- sizing: BloomFilter.__init__ (pybloom.py:98-101 @089f006): num_slices =
 * int(math.ceil(math.log(1.0 / error_rate, 2))), bits_per_slice = int(math.ceil((capacity
 * * abs(math.log(error_rate))) / (num_slices * (math.log(2) ** 2)))); m = num_slices
 * bits_per_slice (a partitioned filter). Computed as CPython does: math.log(x, 2) is
 * log(x) / log(2), not log2(x), and overshoots an integer at a few powers of two (2^-29:
 * 29.000000000000004, so 30 slices); ln2 ** 2 is one rounded product, multiplied by the
 * slices after. ---- */
static int pybloom_live_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    (void)bpk;
    const double ln2 = log(2.0), ln2sq = ln2 * ln2;
    double slices = ceil(log(1.0 / p) / ln2);
    double s = ceil((double)n * fabs(log(p)) / (slices * ln2sq));
    if (!(s * slices < TWO_64))
        return SIZING_ETOOBIG;
    out->k = slices < 1 ? 1 : slices;
    out->m_computed = out->m = (uint64_t)out->k * (uint64_t)s;
    return SIZING_OK;
}

const sizing_rule_t sizing_pybloom_live = {
    .name = "pybloom-live",
    .summary = "pybloom-live: k = ceil(log2 1/P) slices of ceil(N |ln P| / (k ln^2 2)) bits",
    .kind = SIZING_RULE_LIBRARY, .over = SIZING_OVER_SLICES, .design = pybloom_live_design,
};

const library_t library_pybloom_live = {
    .name = "pybloom-live",
    .version = "pybloom-live 4.0.0 (joseph-fox/python-bloomfilter 089f006, 2022-10-11, the "
               "code released as 4.0.0; unchanged in sizing and positions to da1a8b3d) "
               "pybloom.py",
    .scheme = &scheme_pybloom_live, .sizing = &sizing_pybloom_live, .hash = "k x 16, 32 or 64-bit",
    .cause = "arithmetic: slices below 2^15 bits take 16-bit words mod s: uneven for "
             "slices of about 8K to 32K bits",
    .report = "",
    .words_skipped = "its digest chunks come from hashlib SHA-1/256/384/512 or xxh128 "
                     "of a salt and the key: not covered yet",
};

/* ---- the scaling filter: ScalableBloomFilter (pybloom.py:236-299 @089f006) ----
 * __init__ (:241-262): initial_capacity 100, error_rate 0.001, mode LARGE_SET_GROWTH 4
 * (SMALL_SET_GROWTH 2, :237-238), ratio 0.9 (_setup, :261); it refuses only a rate that
 * is 0 or negative (:259-260). add (:278-298) returns, adding nothing, when any link
 * reports the key present (`key in self`, :283: swallowed); makes the first link on the
 * first key, BloomFilter(initial_capacity, error_rate * 0.9) (:284-289); and when the
 * newest link's count has reached its capacity (:292) a new one of capacity * mode at
 * the newest link's error_rate * 0.9 (:293-295), then sets the key's bits there with
 * skip_check (:297), so every key that reaches a link is counted. BloomFilter refuses a
 * rate outside (0, 1) and a capacity that is not > 0 (:88-91). Link j is thus sized at
 * P 0.9^(j+1): the links' rates add up to 9 P, not P (the paper it follows, Almeida et
 * al. 2007, starts at P (1 - r) so that they add up to P). bloomsim takes mode as a whole
 * number >= 1 (Python would take any number; capacity * mode then stops being whole). */
static int pybloom_chain_check(const chain_params_t *p)
{
    return chain_check_whole(p, HUGE_VAL);
}

static int pybloom_chain_link(const chain_params_t *p, size_t j, const sizing_layer_t *prev,
                              sizing_layer_t *out)
{
    uint64_t cap = p->capacity;
    double rate = p->rate * 0.9;
    if (j > 0) {
        if ((double)prev->capacity * p->expansion >= 9.0e18)
            return SIZING_ETOOBIG;
        cap = prev->capacity * (uint64_t)p->expansion;
        rate = prev->rate * 0.9;
    }
    if (!(rate > 0))
        return CHAIN_EUNDERFLOW;
    sizing_out_t o;
    int st = pybloom_live_design(cap, rate, 0, &o);
    if (st != SIZING_OK)
        return st;
    if (o.k > SIZING_MAX_K)
        return SIZING_EPROBES;
    *out = (sizing_layer_t){.capacity = cap, .rate = rate, .m = o.m, .k = (unsigned)o.k};
    return SIZING_OK;
}

/* BloomFilter(n, P): pybloom-live's single filter. */
static int pybloom_chain_reserve(const chain_params_t *p, uint64_t n, uint64_t *m, unsigned *k)
{
    return sizing_design(&sizing_pybloom_live, n, p->rate, m, k);
}

static const char *pybloom_chain_refusal(int status)
{
    switch (status) {
    case CHAIN_ECAPACITY:
        return "pybloom-live refuses it: ValueError(\"Capacity must be > 0\")";
    case CHAIN_ERATE:
        return "pybloom-live refuses it: ValueError(\"Error_Rate must be between 0 and 1.\")";
    default:
        return NULL;
    }
}

const library_chain_t chain_pybloom_live = {
    .name = "pybloom-live-scalable",
    .version = "pybloom-live 4.0.0 (joseph-fox/python-bloomfilter 089f006) pybloom.py "
               "ScalableBloomFilter",
    .summary = "ScalableBloomFilter(C, P, mode E): link 0 of C keys at 0.9 P, link j of E "
               "times link j-1's capacity at 0.9 times its rate; full at its capacity of keys "
               "added; a key any link reports present is not added",
    .scheme = &scheme_pybloom_live,
    .defaults = {.capacity = 100, .rate = 0.001, .expansion = 4, .tightening = 0.9},
    .has_expansion = 1, .swallows = 1,
    .check = pybloom_chain_check, .link = pybloom_chain_link, .reserve = pybloom_chain_reserve,
    .refusal = pybloom_chain_refusal,
};
