/* shared.c - see shared.h. */
#include "schemes/shared.h"

#include <math.h>

#include "rates/rate.h"
#include "rates/rate_blocked.h"

int scheme_geom_plain(uint64_t m, unsigned k, uint64_t block, probe_geom_t *g)
{
    (void)block;
    if (k >= m)
        return SCHEME_EKBIG;
    *g = (probe_geom_t){.m = m, .w = m, .k = k};
    return SCHEME_OK;
}

int scheme_geom_int_m(uint64_t m, unsigned k, uint64_t limit, probe_geom_t *g)
{
    if (m > limit)
        return SCHEME_EMBIG;
    return scheme_geom_plain(m, k, 0, g);
}

int scheme_geom_lines(uint64_t m, unsigned k, uint64_t bits, int odd, probe_geom_t *g)
{
    if (m < bits)
        return SCHEME_ESMALL;
    uint64_t lines = m / bits;
    if (odd && lines % 2 == 0)
        lines--; /* >= 1: an even count is >= 2 */
    if (k >= lines * bits)
        return SCHEME_EKBIG;
    *g = (probe_geom_t){.m = lines * bits, .w = lines * bits, .k = k, .blocks = lines};
    return SCHEME_OK;
}

int scheme_geom_slices(uint64_t m, unsigned k, uint64_t block, probe_geom_t *g)
{
    (void)block;
    if (k >= m)
        return SCHEME_EKBIG;
    uint64_t w = m / k;
    *g = (probe_geom_t){.m = w * k, .w = w, .k = k};
    return SCHEME_OK;
}

int scheme_geom_pow2(uint64_t m, unsigned k, uint64_t block, probe_geom_t *g)
{
    if (m < 2 || (m & (m - 1)) != 0)
        return SCHEME_ENOTPOW2;
    return scheme_geom_plain(m, k, block, g);
}

int scheme_words_any(const probe_geom_t *g, const uint64_t *h)
{
    (void)g, (void)h;
    return SCHEME_OK;
}

static int words_32bit(const uint64_t *h, unsigned nwords)
{
    for (unsigned j = 0; j < nwords; j++)
        if (h[j] > UINT32_MAX)
            return SCHEME_EWORD;
    return SCHEME_OK;
}
int scheme_words1_32(const probe_geom_t *g, const uint64_t *h)
{
    (void)g;
    return words_32bit(h, 1);
}
int scheme_words2_32(const probe_geom_t *g, const uint64_t *h)
{
    (void)g;
    return words_32bit(h, 2);
}

static int words_below_m(const probe_geom_t *g, const uint64_t *h, unsigned nwords)
{
    for (unsigned j = 0; j < nwords; j++)
        if (h[j] >= g->m)
            return SCHEME_EWORD;
    return SCHEME_OK;
}
int scheme_words2_below_m(const probe_geom_t *g, const uint64_t *h)
{
    return words_below_m(g, h, 2);
}
int scheme_words3_below_m(const probe_geom_t *g, const uint64_t *h)
{
    return words_below_m(g, h, 3);
}

uint64_t scheme_draw_below_m(const probe_geom_t *g, unsigned i)
{
    (void)i;
    return g->m;
}
uint64_t scheme_draw_below_w(const probe_geom_t *g, unsigned i)
{
    (void)i;
    return g->w;
}
uint64_t scheme_draw_below_2_32(const probe_geom_t *g, unsigned i)
{
    (void)g, (void)i;
    return UINT64_C(1) << 32;
}

double scheme_distinct32(uint64_t n)
{
    const double H = 4294967296.0;
    return H * -expm1((double)n * log1p(-1.0 / H));
}

double scheme_one_word_floor(double D, double inner)
{
    double c = D / 4294967296.0;
    return inner < 0 ? NAN : c + (1 - c) * inner;
}

double scheme_model_one_word(const probe_geom_t *g, uint64_t n)
{
    return rate_model_hash(32, g->m, n, g->k);
}

/* RocksDB's 64-bit hash makes its collision floor n/2^64, negligible; hive-bloomk's
 * strides that are 0 mod 512 are not in the model. */
double scheme_model_lines(const probe_geom_t *g, uint64_t n)
{
    double e;
    return rate_blocked_exact(g->m, 512, n, g->k, &e) == RATE_OK ? e : NAN;
}
