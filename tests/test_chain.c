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
 */
#undef NDEBUG
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

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
    probes();
    printf("test_chain: ok\n");
    return 0;
}
