/* commons.c - Apache Commons Collections' bloomfilter package (4.5 and later): its
 * EnhancedDoubleHasher, its Shape sizing and its row.
 *
 * Source: apache/commons-collections src/main/java/org/apache/commons/collections4/
 * bloomfilter/EnhancedDoubleHasher.java (indices().processIndices), BitMaps.java (mod)
 * and Shape.java (fromNP) at cf36204c (4.6.1-SNAPSHOT).
 */
#include <math.h>

#include "libraries/arith.h"
#include "libraries/library.h"
#include "libraries/registry.h"
#include "schemes/words.h"

/* ---- the index arithmetic ----
 * Two 64-bit words initial, increment, read as unsigned (BitMaps.mod is
 * Long.remainderUnsigned): index = initial mod m, inc = increment mod m; emit index;
 * for i = 1..k-1: index -= inc (+ m if negative), emit it; inc -= i (+ m if negative).
 * So index_i = (h1 - i h2 + (i^3 - i)/6) mod m: enhanced double hashing stepping
 * backwards. The k < bits branch only (k < m here). m is a Java int: m <= 2^31 - 1. */
static int commons_enhanced_geometry(uint64_t m, unsigned k, uint64_t block, probe_geom_t *g)
{
    (void)block;
    return scheme_geom_int_m(m, k, INT32_MAX, g);
}
#define commons_enhanced_draw u64x2_draw
SCHEME_HOT void commons_enhanced_start(const probe_geom_t *g, const uint64_t *h,
                                       probe_it_t *it)
{
    it->x = h[0] % g->m;
    it->y = h[1] % g->m;
    it->i = 0;
}
SCHEME_HOT uint64_t commons_enhanced_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)r;
    if (it->i > 0) {
        it->x = it->x >= it->y ? it->x - it->y : it->x + g->m - it->y;
        it->y = it->y >= it->i ? it->y - it->i : it->y + g->m - it->i;
    }
    it->i++;
    return it->x;
}
SCHEME_LOOPS(commons_enhanced)

const scheme_t scheme_commons_enhanced = {
    .name = "commons-enhanced",
    .summary = "Commons Collections EnhancedDoubleHasher: (h1 - i*h2 + (i^3-i)/6) mod m from "
               "unsigned u64 h1 mod m, h2 mod m; m < 2^31",
    WORDS_U64(2), .geometry = commons_enhanced_geometry, SCHEME_FNS(commons_enhanced),
    .m_cap = "m < 2^31",
};

/* ---- sizing: Shape.fromNP: m = ceil(n ln p / -ln^2 2), more than Integer.MAX_VALUE
 * throws ("Resulting filter has more than Integer.MAX_VALUE bits"); k = Math.round(ln 2
 * m / n), 0 throws ("Filter too small"). ---- */
static int commons_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    (void)bpk;
    const double ln2 = log(2.0);
    double x = ceil((double)n * log(p) / -(ln2 * ln2));
    if (x > INT32_MAXD)
        return SIZING_ECAP;
    out->m_computed = out->m = (uint64_t)x;
    out->k = floor(ln2 * x / (double)n + 0.5);
    return out->k < 1 ? SIZING_ENOFILTER : SIZING_OK;
}

const sizing_rule_t sizing_commons = {
    .name = "commons",
    .summary = "Commons Collections Shape.fromNP: m = ceil(-N ln P / ln^2 2) below 2^31, k = "
               "round(m/N ln 2), refused at 0",
    .kind = SIZING_RULE_LIBRARY, .over = SIZING_OVER_UNIFORM, .design = commons_design,
};

const library_t library_commons_collections = {
    .name = "commons-collections",
    .version = "Apache Commons Collections 4.5+ EnhancedDoubleHasher.java and Shape.java at "
               "cf36204c",
    .scheme = &scheme_commons_enhanced, .sizing = &sizing_commons, .hash = "2 x 64-bit",
    .cause = "none expected below its 2^31 - 1 bit cap", .report = "",
    .words_skipped = "the user supplies the hash (a Hasher); the library has none",
};
