/* blocked.c - the blocked filters production systems use, with ideal hash bits:
 * `blocked` (every probe in one block of B bits, a cache line at 512; Putze, Sanders and
 * Singler) and `split-block` (one bit in each of the k words of a block: Parquet's,
 * Arrow's, Impala's and Kudu's at B = 256, k = 8). Their exact rates and models are in
 * rate_blocked.h; their conditional forms in cond.h. The libraries' own split-block
 * arithmetic, salts and all, is sbbf and kudu-block (src/libraries/parquet.c). */
#include "rates/rate.h"
#include "rates/rate_blocked.h"
#include "schemes/words.h"

/* ---- blocked: a uniform block of B bits, then k independent uniform positions in it ----
 * Putze, Sanders, Singler, "Cache-, Hash- and Space-Efficient Bloom Filters", WEA 2007,
 * with ideal hash bits: one block (one cache line at B = 512) per key. m is rounded down
 * to whole blocks, as partitioned rounds to whole slices. */
enum { BLOCKED_DEFAULT = 512, SPLIT_BLOCK_DEFAULT = 256 }; /* a cache line; Parquet's */

static int block_size(uint64_t block, uint64_t dflt, uint64_t m, uint64_t *B)
{
    *B = block ? block : dflt;
    if (*B < SCHEME_BLOCK_MIN || *B > SCHEME_BLOCK_MAX || (*B & (*B - 1)) != 0 || *B > m)
        return SCHEME_EBLOCK;
    return SCHEME_OK;
}

static int blocked_geometry(uint64_t m, unsigned k, uint64_t block, probe_geom_t *g)
{
    uint64_t B;
    int st = block_size(block, BLOCKED_DEFAULT, m, &B);
    if (st != SCHEME_OK)
        return st;
    if (k >= B)
        return SCHEME_EKBIG;
    *g = (probe_geom_t){.m = m / B * B, .w = B, .k = k, .block = B, .blocks = m / B};
    return SCHEME_OK;
}
/* The block word, in [0, m/B). */
static int block_word(const probe_geom_t *g, const uint64_t *h)
{
    return h[0] < g->blocks ? SCHEME_OK : SCHEME_EWORD;
}
SCHEME_HOT void blocked_draw(const probe_geom_t *g, pcg32_t *r, uint64_t *h)
{
    h[0] = pcg32_below(r, g->blocks);
}
SCHEME_HOT void blocked_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    it->x = h[0] * g->block; /* the block's first bit */
}
SCHEME_HOT uint64_t blocked_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    return it->x + pcg32_below(r, g->w);
}
SCHEME_LOOPS(blocked)

static void blocked_positions_drawn(const probe_geom_t *g, const uint64_t *h,
                                    const uint64_t *d, uint64_t *pos)
{
    for (unsigned i = 0; i < g->k; i++)
        pos[i] = h[0] * g->block + d[i];
}
static double blocked_exact(const probe_geom_t *g, uint64_t n)
{
    double e;
    return rate_blocked_exact(g->m, g->block, n, g->k, &e) == RATE_OK ? e : -1.0;
}
/* Model: Putze et al.'s equation 3 (rate_blocked.h), Poisson loads and the finite
 * formula inside the block. */
static double blocked_model(const probe_geom_t *g, uint64_t n)
{
    return rate_blocked_poisson(g->block, (double)g->m / (double)n, g->k);
}

static double blocked_model_rocksdb(const probe_geom_t *g, uint64_t n)
{
    return rate_cache_local((double)g->m / (double)n, g->k, g->block);
}

/* ---- split-block: a uniform block of B bits in k words of w = B/k bits, one uniform
 * bit in each word ----
 * The Parquet, Arrow, Impala and Kudu filter at B = 256, k = 8 (w = 32), with ideal
 * hash bits in place of their salted multiplications. w must be a power of two. */
static int split_block_geometry(uint64_t m, unsigned k, uint64_t block, probe_geom_t *g)
{
    uint64_t B;
    int st = block_size(block, SPLIT_BLOCK_DEFAULT, m, &B);
    if (st != SCHEME_OK)
        return st;
    if (k == 0 || B % k != 0 || ((B / k) & (B / k - 1)) != 0)
        return SCHEME_ESPLIT;
    uint64_t w = B / k;
    *g = (probe_geom_t){.m = m / B * B, .w = w, .k = k, .block = B, .blocks = m / B};
    return SCHEME_OK;
}
#define split_block_draw blocked_draw
#define split_block_start blocked_start
SCHEME_HOT uint64_t split_block_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    uint64_t p = it->x + pcg32_below(r, g->w);
    it->x += g->w; /* the next word */
    return p;
}
SCHEME_LOOPS(split_block)

static void split_block_positions_drawn(const probe_geom_t *g, const uint64_t *h,
                                        const uint64_t *d, uint64_t *pos)
{
    for (unsigned i = 0; i < g->k; i++)
        pos[i] = h[0] * g->block + i * g->w + d[i];
}
static double split_block_exact(const probe_geom_t *g, uint64_t n)
{
    double e;
    return rate_split_block_exact(g->m, g->block, n, g->k, &e) == RATE_OK ? e : -1.0;
}
static double split_block_model(const probe_geom_t *g, uint64_t n)
{
    return rate_split_block_poisson(g->block, (double)g->m / (double)n, g->k);
}


const scheme_t scheme_blocked = {
    .name = "blocked",
    .summary = "a uniform block of B bits (default 512), k independent positions in it "
               "(Putze et al.)",
    .nwords = 1, .block_default = BLOCKED_DEFAULT, .geometry = blocked_geometry,
    .check_words = block_word, SCHEME_LOOP_FNS(blocked),
    .positions_drawn = blocked_positions_drawn, .draw_bound = scheme_draw_below_w,
    .exact = blocked_exact, .model = blocked_model, .model_rocksdb = blocked_model_rocksdb,
    .cond = SCHEME_COND_BLOCKS,
};

const scheme_t scheme_split_block = {
    .name = "split-block",
    .summary = "a uniform block of B bits (default 256) in k words, one position in each "
               "(Parquet, Arrow, Impala, Kudu at B = 256, k = 8)",
    .nwords = 1, .block_default = SPLIT_BLOCK_DEFAULT, .geometry = split_block_geometry,
    .check_words = block_word, SCHEME_LOOP_FNS(split_block),
    .positions_drawn = split_block_positions_drawn, .draw_bound = scheme_draw_below_w,
    .exact = split_block_exact, .model = split_block_model, .cond = SCHEME_COND_SPLIT,
};
