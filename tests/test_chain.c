/* test_chain.c - the libraries' scalable filters (libraries/chain.h, issue 41): each
 * chain's links, their sizes and rates worked by hand from the library's source, when a
 * link is full, the keys swallowed, and the refusals.
 *
 * RedisBloom's SBChain (src/sb.c and deps/bloom/bloom.c at 03077b46): link 0 of C
 * entries at P/2, link j of E times link j-1's entries at half its error; each link
 * bloom_init with NOROUND: bpe = |ln(error)| / 0.480453013918201, bits = (uint64_t)
 * (entries bpe) rounded up to 64, hashes = ceil(0.693147180559945 bpe). Worked in Python
 * (IEEE doubles, the same libm log):
 *   100 at 0.005:    bpe 11.027753418256411, 1102 bits -> 1152, k = ceil(7.6439) = 8
 *   200 at 0.0025:   bpe 12.470448459145377, 2494 -> 2496, k = 9
 *   400 at 0.00125:  bpe 13.91314350003434,  5565 -> 5568, k = 10
 *   100 at 0.0025 (EXPANSION 1, link 1): 1247 -> 1280, k = 9
 *   1000 at 0.0005 (BF.RESERVE 0.001 1000 EXPANSION 4): 15820 -> 15872, k = 11;
 *   4000 at 0.00025: 69051 -> 69056, k = 12; 16000 at 0.000125: 299290 -> 299328, k = 13
 * pybloom-live's ScalableBloomFilter (pybloom.py:236-299 @089f006): link 0 of C keys at
 * 0.9 P, link j of mode times the capacity at 0.9 times the rate, each BloomFilter's
 * k = ceil(log(1/p) / log 2) slices of ceil(n |ln p| / (k ln^2 2)) bits. Defaults 100,
 * 0.001, mode 4 (Python, as CPython computes it):
 *   100 at 0.0009000000000000001: 11 slices of 133 bits, m = 1463
 *   400 at 0.0008100000000000001: 11 x 539 = 5929; 1600 at 0.000729: 11 x 2187 = 24057
 * valkey-bloom (src/bloom/utils.rs @e627e871): filter 0 of C at P, filter j of E times
 * the capacity at P 0.5^j, each the bloomfilter crate's new_for_fp_rate (bytes =
 * ceil(n ln p / (-8 ln^2 2)), k = round(m / n ln 2)); a filter above 64 MiB refused.
 * Defaults 100, 0.01, 2:
 *   100 at 0.01: 120 bytes, m = 960, k = 7; 200 at 0.005: 2208, k = 8; 400 at 0.0025:
 *   4992, k = 9; filter 18 (26,214,400 keys at 0.01 2^-18) needs 75.6 MiB: refused,
 *   so the chain holds at most 100 (2^18 - 1) = 26,214,300 keys added
 * growable-bloom-filter 2.1.1 (src/lib.rs @0013c521): link j = Bloom::new(C E^j,
 * P T^j) (grow; T its tightening_ratio, 0.8515625), k = ceil(log2 1/p) slices of
 * ceil(n / ln 2) bits in whole bytes; full at its capacity of keys added; a key any link
 * contains is not added. The builder's defaults 1000, 0.01, growth 2 (its arithmetic run
 * alone under rustc):
 *   1000 at 0.01: 7 x 1443 = 10,101 bits, 1,263 bytes, m = 10,104; 2000 at 0.0085156:
 *   7 x 2886, m = 20,208; 4000 at 0.0072516: 8 x 5771 = 46,168
 * BoomFilters (tylertreat/BoomFilters @5b3723cc): filter j = NewPartitionedBloomFilter(
 * hint, fpRate r^j), every one for the same hint (r 0.8 by default); full when
 * 1 - e^{-count/s} >= 0.5; nothing swallowed. Defaults hint 10,000
 * (NewDefaultScalableBloomFilter), fpRate 0.01 (its README), r 0.8; the package under go
 * 1.19, 30,000 keys added:
 *   filter 0: OptimalM 95,851, k = 7, s = 13,693, Count() 9,492 when filter 1 starts;
 *   filter 1 (0.008): 100,496, 7, 14,357, 9,952; filter 2 (0.0064): 105,140, 8, 13,143,
 *   9,111; filter 3: 109,784, 8, 13,723, holding the last 1,445
 *   its first 1,024 filters take 10,181,920 keys (bloomsim's 1,024 links)
 * bloom-filters' ScalableBloomFilter (src/bloom/scalable-bloom-filter.ts:81-149 at
 * v3.0.4): link 0 create(C, P, r), link j create(C 2^(j+1) ln 2, P r^j, r), create's
 * size = ceil(n (-ln p) / (ln r ln(1 - r))), k = ceil(ln p / ln r), slices of s =
 * ceil(size / k); a link is full when its set bits over the size pass r, planned at the
 * smallest n with k s (1 - (1 - 1/s)^n) / size > r. Worked in Python (IEEE doubles):
 *   defaults 8, 0.01, 0.5: link 0, n = 8: size ceil(76.680) = 77, k = ceil(6.644) = 7,
 *   s = 11, m = 77; full past (10/11)^n < 0.5, n > 7.27: 8 keys. Link 1, n = 22.181 at
 *   0.005: size ceil(244.603) = 245, k = 8, s = 31, m = 248; (30/31)^n < 1 - 122.5/248,
 *   n > 20.77: 21. Link 2, n = 44.361 at 0.0025: 554, k = 9, s = 62, m = 558; 43 keys.
 *   Link 3, n = 88.723 at 0.00125: 1235, k = 10, s = 124, m = 1240; 86 keys.
 *   100, 0.001, ratio 0.8: link 0: size ceil(1923.439) = 1924, k = ceil(30.96) = 31,
 *   s = 63, m = 1953, 97 keys (n > 96.98); link 1, n = 277.259 at 0.0008: 5506, k = 32,
 *   s = 173, m = 5536, 274 keys (n > 273.93).
 *   Its reserved filter, PartitionedBloomFilter.create(1000, 0.01): size 9586, k = 7,
 *   s = 1370, m = 9590.
 * tests/adapters.sh runs the package itself against bloomsim adapter's real fill test.
 */
#undef NDEBUG
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "audit/adapter_chain.h"
#include "libraries/registry.h"

static sizing_layer_t links[CHAIN_MAX_LINKS];

static void expect_link(size_t j, uint64_t cap, double rate, uint64_t m, unsigned k)
{
    assert(links[j].capacity == cap);
    assert(fabs(links[j].rate - rate) <= 1e-15 * rate);
    assert(links[j].m == m);
    assert(links[j].k == k);
}

/* The same chain with no swallowing: a link holds its capacity exactly, the next key
 * starts the next link. */
static library_chain_t plain_of(const library_chain_t *c)
{
    library_chain_t p = *c;
    p.swallows = 0;
    return p;
}

static void redisbloom(void)
{
    const library_chain_t *c = chain_find("redisbloom-sbchain");
    assert(c && c->scheme == scheme_find("redisbloom"));
    /* BF.ADD's defaults (rebloom.c:27, :36-37). */
    assert(c->defaults.capacity == 100 && c->defaults.rate == 0.01 &&
           c->defaults.expansion == 2);
    const library_chain_t plain = plain_of(c);
    size_t nl;
    double sw;
    assert(chain_links(&plain, &c->defaults, 700, links, &nl, &sw) == SIZING_OK);
    assert(nl == 3 && sw == 0);
    expect_link(0, 100, 0.005, 1152, 8);
    expect_link(1, 200, 0.0025, 2496, 9);
    expect_link(2, 400, 0.00125, 5568, 10);
    assert(links[0].n == 100 && links[1].n == 200 && links[2].n == 400);
    /* Full at its entries: 300 keys fill two links, the 301st starts the third. */
    assert(chain_links(&plain, &c->defaults, 300, links, &nl, &sw) == SIZING_OK && nl == 2);
    assert(chain_links(&plain, &c->defaults, 301, links, &nl, &sw) == SIZING_OK && nl == 3);
    assert(links[2].n == 1);

    /* Swallowing: while link 0 fills, a key is swallowed with its rate at a keys, so
     * filling it takes the integral of 1 / (1 - r(a)) keys; the midpoint sum of the
     * textbook rate (1 - e^{-8 a / 1152})^8 over the 100 keys is worked independently
     * here and agrees within the half-key steps' error. */
    double want = 0;
    for (int a = 0; a < 100; a++) {
        double r = pow(1 - exp(-8.0 * (a + 0.5) / 1152), 8);
        want += r / (1 - r);
    }
    assert(chain_links(c, &c->defaults, 300, links, &nl, &sw) == SIZING_OK);
    assert(nl == 2 && links[0].n == 100 && links[1].n < 200);
    assert(chain_links(c, &c->defaults, 100, links, &nl, &sw) == SIZING_OK && nl == 1);
    double s100 = sw;
    assert(s100 > 0 && s100 < 100 * 0.005);
    /* At 100 + s keys link 0 is full: the swallowed keys delay the second link. */
    uint64_t full = 100 + (uint64_t)ceil(want) + 1;
    assert(chain_links(c, &c->defaults, full - 2, links, &nl, &sw) == SIZING_OK && nl == 1);
    (void)s100;
    /* The integral and the sum agree to a few percent. */
    assert(chain_links(c, &c->defaults, 100 + (uint64_t)floor(want), links, &nl, &sw) ==
           SIZING_OK);
    assert(nl == 1 && fabs(sw - want) < 0.05 * want + 0.01);

    /* EXPANSION 1 and 4. */
    chain_params_t one = {100, 0.01, 1, 0.5}, four = {1000, 0.001, 4, 0.5};
    assert(chain_links(&plain, &one, 150, links, &nl, &sw) == SIZING_OK && nl == 2);
    expect_link(1, 100, 0.0025, 1280, 9);
    assert(chain_links(&plain, &four, 20000, links, &nl, &sw) == SIZING_OK && nl == 3);
    expect_link(0, 1000, 0.0005, 15872, 11);
    expect_link(1, 4000, 0.00025, 69056, 12);
    expect_link(2, 16000, 0.000125, 299328, 13);

    /* Refusals: BF.RESERVE's (rebloom.c:139-172), and bloomsim's k limit: at EXPANSION 1
     * link j has k = ceil(0.693147180559945 (11.0277 + 1.4427 j)), past 1000 at j = 993
     * (the 994th link), before halving underflows (link 1067). */
    chain_params_t bad = {0, 0.01, 2, 0.5};
    assert(chain_links(c, &bad, 10, links, &nl, &sw) == CHAIN_ECAPACITY);
    bad = (chain_params_t){100, 1, 2, 0.5};
    assert(chain_links(c, &bad, 10, links, &nl, &sw) == CHAIN_ERATE);
    bad = (chain_params_t){100, 0.01, 0.5, 0.5};
    assert(chain_links(c, &bad, 10, links, &nl, &sw) == CHAIN_EEXPANSION);
    bad = (chain_params_t){100, 0.01, 2.5, 0.5};
    assert(chain_links(c, &bad, 10, links, &nl, &sw) == CHAIN_EWHOLE);
    /* Its tightening is ERROR_TIGHTENING_RATIO, a constant: another is refused. */
    bad = (chain_params_t){100, 0.01, 2, 0.25};
    assert(chain_links(c, &bad, 10, links, &nl, &sw) == CHAIN_ENOTIGHTENING);
    assert(chain_links(&plain, &one, 99300, links, &nl, &sw) == SIZING_OK && nl == 993);
    assert(links[992].k == 1000);
    assert(chain_links(&plain, &one, 99301, links, &nl, &sw) == SIZING_EPROBES);
    assert(chain_strerror(c, CHAIN_EEXPANSION)[0] == 'R'); /* RedisBloom's own words */
}

static void pybloom(void)
{
    const library_chain_t *c = chain_find("pybloom-live-scalable");
    assert(c && c->scheme == scheme_find("pybloom-live") && c->swallows);
    assert(c->defaults.capacity == 100 && c->defaults.rate == 0.001 &&
           c->defaults.expansion == 4 && c->defaults.tightening == 0.9 &&
           !c->has_tightening);
    const library_chain_t plain = plain_of(c);
    size_t nl;
    double sw;
    assert(chain_links(&plain, &c->defaults, 2100, links, &nl, &sw) == SIZING_OK && nl == 3);
    expect_link(0, 100, 0.001 * 0.9, 1463, 11);
    expect_link(1, 400, 0.001 * 0.9 * 0.9, 5929, 11);
    expect_link(2, 1600, 0.001 * 0.9 * 0.9 * 0.9, 24057, 11);
    /* Its reserved filter is BloomFilter(n, P): 1000 at 0.001, 10 slices of 1438 bits. */
    uint64_t m;
    unsigned k;
    assert(c->reserve(&c->defaults, 1000, &m, &k) == SIZING_OK && m == 14380 && k == 10);
    chain_params_t bad = {100, 0.001, 2.5, 0.9};
    assert(chain_links(c, &bad, 10, links, &nl, &sw) == CHAIN_EWHOLE);
    bad = (chain_params_t){0, 0.001, 4, 0.9};
    assert(chain_links(c, &bad, 10, links, &nl, &sw) == CHAIN_ECAPACITY);
}

static void valkey(void)
{
    const library_chain_t *c = chain_find("valkey-bloom");
    assert(c && c->scheme == scheme_find("rust-bloomfilter") && c->swallows);
    assert(c->defaults.capacity == 100 && c->defaults.rate == 0.01 &&
           c->defaults.expansion == 2 && c->defaults.tightening == 0.5 &&
           c->has_tightening);
    const library_chain_t plain = plain_of(c);
    size_t nl;
    double sw;
    assert(chain_links(&plain, &c->defaults, 700, links, &nl, &sw) == SIZING_OK && nl == 3);
    expect_link(0, 100, 0.01, 960, 7);
    expect_link(1, 200, 0.005, 2208, 8);
    expect_link(2, 400, 0.0025, 4992, 9);
    assert(chain_links(&plain, &c->defaults, 26214300, links, &nl, &sw) == SIZING_OK &&
           nl == 18);
    int st = chain_links(&plain, &c->defaults, 26214301, links, &nl, &sw);
    assert(st != SIZING_OK && strstr(chain_strerror(c, st), "exceeding size limit"));
    chain_params_t bad = {100, 0.01, 0, 0.5};
    assert(chain_links(c, &bad, 10, links, &nl, &sw) == CHAIN_EEXPANSION);
    /* Its tightening ratio (bloom-tightening-ratio, BF.INSERT's TIGHTENING) at 0.25:
     * filter 1 of 200 keys at 0.0025, ceil(200 * 5.991465 / (8 ln^2 2)) = 312 bytes,
     * m = 2496, k = round(2496 / 200 * ln 2) = round(8.65) = 9; filter 2 of 400 at
     * 0.000625: ceil(400 * 7.377759 / 3.843624) = 768 bytes, m = 6144, k = round(10.65)
     * = 11. Outside (0, 1) refused in its own words. */
    chain_params_t quarter = {100, 0.01, 2, 0.25};
    assert(chain_links(&plain, &quarter, 700, links, &nl, &sw) == SIZING_OK && nl == 3);
    expect_link(0, 100, 0.01, 960, 7);
    expect_link(1, 200, 0.0025, 2496, 9);
    expect_link(2, 400, 0.000625, 6144, 11);
    bad = (chain_params_t){100, 0.01, 2, 1};
    assert(chain_links(c, &bad, 10, links, &nl, &sw) == CHAIN_ETIGHTENING);
    assert(strstr(chain_strerror(c, CHAIN_ETIGHTENING), "tightening ratio range"));
    bad.tightening = 0;
    assert(chain_check(c, &bad) == CHAIN_ETIGHTENING);
}

static void growable(void)
{
    const library_chain_t *c = chain_find("growable-bloom-filter");
    assert(c && c->scheme == scheme_find("growable-bloom") && c->swallows);
    assert(c->defaults.capacity == 1000 && c->defaults.rate == 0.01 &&
           c->defaults.expansion == 2 && c->defaults.tightening == 0.8515625 &&
           c->has_tightening);
    const library_chain_t plain = plain_of(c);
    size_t nl;
    double sw;
    assert(chain_links(&plain, &c->defaults, 7000, links, &nl, &sw) == SIZING_OK && nl == 3);
    expect_link(0, 1000, 0.01, 10104, 7);
    expect_link(1, 2000, 0.01 * 0.8515625, 20208, 7);
    expect_link(2, 4000, 0.01 * 0.8515625 * 0.8515625, 46168, 8);
    /* Full at its capacity: 3,000 keys fill two links, the 3,001st starts the third. */
    assert(chain_links(&plain, &c->defaults, 3000, links, &nl, &sw) == SIZING_OK && nl == 2);
    assert(chain_links(&plain, &c->defaults, 3001, links, &nl, &sw) == SIZING_OK && nl == 3);
    assert(links[2].n == 1);
    /* Swallowing delays the second link: about 1.3 of the first 1,001 keys are
     * swallowed (the rate of link 0 summed as it fills), so 1,001 keys fill it. */
    assert(chain_links(c, &c->defaults, 1001, links, &nl, &sw) == SIZING_OK && nl == 1);
    assert(sw > 1 && sw < 2 && links[0].n == 1000);
    /* Its reserved filter: Bloom::new(10^4, 0.01), 7 x 14,427 = 100,989 bits in 12,624
     * bytes (integer division: the last 5 bits have no byte), m = 100,992. */
    uint64_t m;
    unsigned k;
    assert(c->reserve(&c->defaults, 10000, &m, &k) == SIZING_OK && m == 100992 && k == 7);
    /* Refusals: new_with_internals asserts growth_factor > 1 and 0 < P < 1; growth is a
     * usize; capacity 0 panics on the first insert. */
    chain_params_t bad = {1000, 0.01, 1, 0.8515625};
    assert(chain_links(c, &bad, 10, links, &nl, &sw) == CHAIN_EEXPANSION);
    assert(strstr(chain_strerror(c, CHAIN_EEXPANSION), "growth_factor > 1"));
    bad = (chain_params_t){1000, 0.01, 2.5, 0.8515625};
    assert(chain_links(c, &bad, 10, links, &nl, &sw) == CHAIN_EWHOLE);
    bad = (chain_params_t){0, 0.01, 2, 0.8515625};
    assert(chain_links(c, &bad, 10, links, &nl, &sw) == CHAIN_ECAPACITY);
    bad = (chain_params_t){1000, 1, 2, 0.8515625};
    assert(chain_links(c, &bad, 10, links, &nl, &sw) == CHAIN_ERATE);
    /* Its builder's tightening_ratio: the crate's issue 7 example, 3 insertions at 10^-5,
     * ratio 0.5, growth 2: 17 slices of ceil(3 / ln 2) = 5 bits, 85 in 11 bytes (88); 6 at
     * 5e-6, 18 of 9 = 162 in 21 bytes (168); 12 at 2.5e-6, 19 of 18 = 342 in 43 (344). A
     * ratio outside (0, 1) panics (its assert). */
    chain_params_t half = {3, 0.00001, 2, 0.5};
    assert(chain_links(&plain, &half, 21, links, &nl, &sw) == SIZING_OK && nl == 3);
    expect_link(0, 3, 0.00001, 88, 17);
    expect_link(1, 6, 0.000005, 168, 18);
    expect_link(2, 12, 0.0000025, 344, 19);
    bad = (chain_params_t){1000, 0.01, 2, 1};
    assert(chain_links(c, &bad, 10, links, &nl, &sw) == CHAIN_ETIGHTENING);
    assert(strstr(chain_strerror(c, CHAIN_ETIGHTENING), "ratio < 1.0"));
}

static void boomfilters(void)
{
    const library_chain_t *c = chain_find("boomfilters-scalable");
    assert(c && c->scheme == scheme_find("boomfilters-partitioned") && !c->swallows &&
           !c->has_expansion);
    assert(c->defaults.capacity == 10000 && c->defaults.rate == 0.01 &&
           c->defaults.expansion == 0 && c->defaults.tightening == 0.8 &&
           c->has_tightening);
    size_t nl;
    double sw;
    assert(chain_links(c, &c->defaults, 30000, links, &nl, &sw) == SIZING_OK && nl == 4);
    assert(sw == 0);
    expect_link(0, 9492, 0.01, 7 * 13693, 7);
    expect_link(1, 9952, 0.01 * 0.8, 7 * 14357, 7);
    expect_link(2, 9111, 0.01 * 0.8 * 0.8, 8 * 13143, 8);
    expect_link(3, 9513, 0.01 * 0.8 * 0.8 * 0.8, 8 * 13723, 8);
    assert(links[0].n == 9492 && links[1].n == 9952 && links[2].n == 9111 &&
           links[3].n == 1445);
    /* Full by its estimated fill, at the least count with 1 - e^{-count/s} >= 0.5:
     * 13,693 ln 2 = 9,491.36, so 9,492 keys; the next key starts filter 1. */
    assert(chain_links(c, &c->defaults, 9492, links, &nl, &sw) == SIZING_OK && nl == 1);
    assert(chain_links(c, &c->defaults, 9493, links, &nl, &sw) == SIZING_OK && nl == 2);
    /* bloomsim's 1,024 links: 10,181,920 keys. */
    assert(chain_links(c, &c->defaults, 10181920, links, &nl, &sw) == SIZING_OK &&
           nl == 1024);
    assert(chain_links(c, &c->defaults, 10181921, links, &nl, &sw) == CHAIN_ELINKS);
    /* Its reserved filter: NewPartitionedBloomFilter(10^5, 0.01): OptimalM 958,506, 7
     * partitions of 136,930 = 958,510 bits. */
    uint64_t m;
    unsigned k;
    assert(c->reserve(&c->defaults, 100000, &m, &k) == SIZING_OK && m == 958510 && k == 7);
    /* It takes no growth; a hint of 0 and a rate outside (0, 1) make no working filter. */
    chain_params_t bad = {10000, 0.01, 2, 0.8};
    assert(chain_links(c, &bad, 10, links, &nl, &sw) == CHAIN_ENOEXPANSION);
    bad = (chain_params_t){0, 0.01, 0, 0.8};
    assert(chain_links(c, &bad, 10, links, &nl, &sw) == CHAIN_ECAPACITY);
    bad = (chain_params_t){10000, 0, 0, 0.8};
    assert(chain_links(c, &bad, 10, links, &nl, &sw) == CHAIN_ERATE);
    assert(strstr(chain_strerror(c, CHAIN_ECAPACITY), "divide by zero"));
    /* NewScalableBloomFilter(10000, 0.01, 0.5): filter 1 at 0.005, OptimalM 110,278, k =
     * 8 partitions of 13,785, full at 9,556; filter 2 at 0.0025: 124,705, 9 of 13,857,
     * 9,605 (the package under go 1.19). r is not checked there; bloomsim takes (0, 1). */
    chain_params_t half = {10000, 0.01, 0, 0.5};
    assert(chain_links(c, &half, 20000, links, &nl, &sw) == SIZING_OK && nl == 3);
    expect_link(1, 9556, 0.005, 8 * 13785, 8);
    expect_link(2, 9605, 0.0025, 9 * 13857, 9);
    bad = (chain_params_t){10000, 0.01, 0, 1};
    assert(chain_links(c, &bad, 10, links, &nl, &sw) == CHAIN_ETIGHTENING);
}

static void bloom_filters(void)
{
    const library_chain_t *c = chain_find("bloom-filters-scalable");
    assert(c && c->scheme == scheme_find("bloom-filters-slices") && !c->swallows);
    assert(c->defaults.capacity == 8 && c->defaults.rate == 0.01 &&
           c->defaults.expansion == 2 && c->defaults.tightening == 0.5);
    assert(!c->has_expansion && c->has_tightening && c->full && c->words);
    size_t nl;
    double sw;
    /* 8 + 21 + 43 + 86 = 158 keys fill four links; the 159th starts the fifth. */
    assert(chain_links(c, &c->defaults, 158, links, &nl, &sw) == SIZING_OK && nl == 4);
    assert(sw == 0);
    expect_link(0, 8, 0.01, 77, 7);
    expect_link(1, 21, 0.005, 248, 8);
    expect_link(2, 43, 0.0025, 558, 9);
    expect_link(3, 86, 0.00125, 1240, 10);
    assert(links[3].n == 86);
    assert(chain_links(c, &c->defaults, 159, links, &nl, &sw) == SIZING_OK && nl == 5);
    chain_params_t p8 = {100, 0.001, 2, 0.8};
    assert(chain_links(c, &p8, 371, links, &nl, &sw) == SIZING_OK && nl == 2);
    expect_link(0, 97, 0.001, 1953, 31);
    expect_link(1, 274, 0.001 * 0.8, 5536, 32);
    /* The real test: link 0's set bits over its size 77, past 0.5 at 39 bits, not 38. */
    assert(!c->full(&c->defaults, 0, &links[0], 8, 38));
    assert(c->full(&c->defaults, 0, &links[0], 8, 39));
    uint64_t m;
    unsigned k;
    assert(c->reserve(&c->defaults, 1000, &m, &k) == SIZING_OK && m == 9590 && k == 7);
    /* Refusals: none of them the package's own (it checks nothing). */
    chain_params_t bad = {0, 0.01, 2, 0.5};
    assert(chain_links(c, &bad, 10, links, &nl, &sw) == CHAIN_ECAPACITY);
    bad = (chain_params_t){8, 1, 2, 0.5};
    assert(chain_links(c, &bad, 10, links, &nl, &sw) == CHAIN_ERATE);
    bad = (chain_params_t){8, 0.01, 4, 0.5};
    assert(chain_links(c, &bad, 10, links, &nl, &sw) == CHAIN_ENOEXPANSION);
    bad = (chain_params_t){8, 0.01, 2, 1};
    assert(chain_links(c, &bad, 10, links, &nl, &sw) == CHAIN_ETIGHTENING);
    assert(strstr(chain_strerror(c, CHAIN_ETIGHTENING), "load factor"));
}

/* The plan against the real fill test: bloomsim adapter's chain (the package's rules,
 * bit for bit in tests/adapters.sh) on 100 sets of 300 keys (splitmix64 of seed and
 * index: distinct keys). A link's count is a first passage of its set bits, whose mean
 * the plan's count (where the expected bits pass) meets within a key (measured: -0.17,
 * +0.30, -0.26 and -0.25 keys for links 0 to 3, 100 to 200 key sets). */
static uint64_t splitmix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15u;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static void bloom_filters_fill(void)
{
    const library_chain_t *c = chain_find("bloom-filters-scalable");
    size_t nl;
    double sw, sum[4] = {0};
    assert(chain_links(c, &c->defaults, 300, links, &nl, &sw) == SIZING_OK && nl == 5);
    adapter_chain_t a = {0};
    for (uint64_t r = 0; r < 100; r++) {
        assert(adapter_chain_design(&a, c, &c->defaults) == NULL);
        for (uint64_t i = 0; i < 300; i++) {
            rkey_t k = {.kind = KEY_INT, .u = splitmix(r << 32 | i)};
            assert(adapter_chain_add(&a, &k) == NULL);
        }
        assert(a.nlinks >= 5);
        for (size_t j = 0; j < 4; j++) {
            assert(a.link[j].g.m == links[j].m && a.link[j].g.k == links[j].k);
            sum[j] += (double)a.link[j].added;
        }
    }
    for (size_t j = 0; j < 4; j++) {
        double mean = sum[j] / 100;
        printf("bloom-filters-scalable link %zu: %.2f keys on average, planned %llu\n", j, mean,
               (unsigned long long)links[j].capacity);
        assert(fabs(mean - (double)links[j].capacity) < 1);
    }
    adapter_chain_free(&a);
}

/* Probes of an absent key: an empty link is asked one bit; a link of fill q and k probes
 * (1 - q^k) / (1 - q) bits, and says no, passing the key on, with probability 1 - q^k. */
static void probes(void)
{
    sizing_layer_t l[2] = {{.capacity = 10, .n = 0, .m = 64, .k = 4},
                           {.capacity = 10, .n = 0, .m = 64, .k = 4}};
    double asked;
    assert(chain_probes(l, 1, &asked) == 1 && asked == 1);
    l[1].n = 16; /* q = 1 - e^{-1} */
    double q = 1 - exp(-1.0), qk = pow(q, 4);
    double p = chain_probes(l, 2, &asked);
    assert(fabs(asked - (1 + (1 - qk))) < 1e-12);
    assert(fabs(p - ((1 - qk) / (1 - q) + (1 - qk))) < 1e-12);
}

int main(void)
{
    redisbloom();
    pybloom();
    valkey();
    growable();
    boomfilters();
    bloom_filters();
    bloom_filters_fill();
    probes();
    printf("test_chain: ok\n");
    return 0;
}
