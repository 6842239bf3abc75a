/* hash32.c - every probe from one 32-bit hash (seed 000, "A 32-bit hash is a floor too").
 * The key is one uniform 32-bit word h; its k positions are independent draws U[0,m)
 * from a PCG stream seeded by h alone, so keys with equal h are indistinguishable: a
 * lookup is a false positive whenever its h equals a stored key's (about n/2^32). The
 * model is rate_model_hash (rate.h). */
#include "rates/rate.h"
#include "schemes/words.h"

#define HASH32_STREAM UINT64_C(0x2545f4914f6cdd1d) /* any fixed stream will do */
#define hash32_draw u32x1_draw
SCHEME_HOT void hash32_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    (void)g;
    pcg32_t k;
    pcg32_seed(&k, h[0], HASH32_STREAM);
    it->x = k.state;
    it->y = k.inc;
}
SCHEME_HOT uint64_t hash32_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)r;
    pcg32_t k = {it->x, it->y};
    uint64_t p = pcg32_below(&k, g->m);
    it->x = k.state;
    return p;
}
SCHEME_LOOPS(hash32)

static double hash32_model(const probe_geom_t *g, uint64_t n)
{
    return rate_model_hash(32, g->m, n, g->k);
}

const scheme_t scheme_hash32 = {
    .name = "hash32",
    .summary = "all k probes from one 32-bit hash (independent draws seeded by it)",
    WORDS_U32(1), .geometry = scheme_geom_plain, SCHEME_FNS(hash32), .model = hash32_model,
};
