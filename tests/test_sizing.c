/* test_sizing.c - filter design rules and stack layers.
 * Known answers: seed 002 prints CalculateParams(1000000000, 0.01) = (9585058378 7);
 * seed 001 sizes 2,000 keys at 1% as 19,171 bits and 7 hash functions, at 0.1% as 28,756
 * bits (ten hash functions), and 8,000 keys at 1% as 76,681 bits. Guava at 10^6 keys and
 * 3%: optimalNumOfBits(1000000, 0.03) = 7,298,440 (asserted in jcog's
 * LongBitsetBloomFilterTest, a copy of Hive's BloomFilter, whose optimalNumOfBits is
 * Guava's expression), 5 probes (BloomFilter.create: "for 3%, we always get 5 hash
 * functions"), and the filter indexes 7,298,496 bits: Guava's BloomFilterTest.testBitSize
 * asserts bitSize() == 64 * ceil(optimalNumOfBits(n, fpp) / 64), and 7,298,440 / 64 =
 * 114,038.125. The other guava values and the edge cases are the formulas of sizing.h
 * evaluated in double, in the order Java and Go evaluate them (checked with Python's
 * floats).
 * Block rules. Parquet's BloomFilter.md (apache/parquet-format, "Sizing an SBBF") lists
 * the bits per key a split-block filter needs for 10%, 1%, 0.1%, 0.01% and 0.001%:
 * 6.0, 10.5, 16.9, 26.4 and 41; apache/parquet-format issue #547 shows that the formula
 * the implementations size with, c = -8 / ln(1 - p^{1/8}), gives 5.8, 9.7, 14.6, 21 and
 * 29.6 instead (Python: 9.681526738735679 at 1%). At 10^6 keys split-block-formula gives
 * the latter and split-block-exact the former, each within 0.1 bit per key (the table
 * is at the tenth, and the exact rate at 10^6 keys differs slightly from the limit of
 * many blocks). What the formula's size delivers, 1.463 p at 1% and 2.076 p at 0.1%,
 * and the blocked-exact designs are bloomsim's own numbers (rate_blocked.h's exact
 * rates, validated in test_rate_blocked.c), pinned here; the exact designs are also
 * checked for what defines them: the target met, one block fewer not. */
#undef NDEBUG
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rate_blocked.h"
#include "sizing.h"

/* The rule of that name (it must exist). */
static const sizing_rule_t *RULE(const char *name)
{
    const sizing_rule_t *r = sizing_find(name);
    assert(r);
    return r;
}

/* The design's computed bits mc, indexed bits m and probes k; sizing_design agrees. */
static void expect(const sizing_rule_t *rule, uint64_t n, double p, uint64_t mc, uint64_t m,
                   unsigned k)
{
    uint64_t gmc, gm, m2;
    unsigned gk, k2;
    assert(sizing_design_full(rule, n, p, &gmc, &gm, &gk) == SIZING_OK);
    printf("%-15s n=%-10llu p=%-8g computed m=%llu indexed m=%llu k=%u\n",
           rule->name, (unsigned long long)n, p, (unsigned long long)gmc,
           (unsigned long long)gm, gk);
    assert(gmc == mc && gm == m && gk == k);
    assert(sizing_design(rule, n, p, &m2, &k2) == SIZING_OK && m2 == m && k2 == k);
}

/* The exact rule's design of n keys at p in blocks of B (0: default) at k (0: default)
 * meets p, and one block fewer does not: at its k, or, for blocked-exact with k chosen,
 * at any k in 1..64, where the k chosen must also be the smallest k of the lowest rate.
 * Returns the design's m; writes its k. */
static uint64_t check_exact(const sizing_rule_t *rule, uint64_t n, double p, uint64_t block,
                            unsigned kreq, unsigned *k_out, int scan)
{
    uint64_t mc, m, B = block ? block : rule->block_bits;
    unsigned k;
    double x, fewer;
    assert(sizing_design_blocked(rule, n, p, block, kreq, &mc, &m, &k) == SIZING_OK);
    assert(mc == m && m % B == 0);
    assert(sizing_rate_exact(rule, m, n, block, k, &x) == SIZING_OK && x <= p);
    if (m > B) {
        assert(sizing_rate_exact(rule, m - B, n, block, k, &fewer) == SIZING_OK && fewer > p);
        if (scan) {
            double best = 2;
            unsigned kbest = 0;
            for (unsigned j = 1; j <= SIZING_BEST_K_MAX; j++) {
                assert(sizing_rate_exact(rule, m - B, n, block, j, &fewer) == SIZING_OK);
                assert(fewer > p);
                assert(sizing_rate_exact(rule, m, n, block, j, &x) == SIZING_OK);
                if (x < best)
                    best = x, kbest = j;
            }
            assert(kbest == k);
        }
    }
    printf("%-19s n=%-8llu p=%-6g B=%-4llu m=%llu (%.4f bits per key) k=%u\n",
           rule->name, (unsigned long long)n, p, (unsigned long long)B,
           (unsigned long long)m, (double)m / (double)n, k);
    *k_out = k;
    return m;
}

static void test_block_rules(void)
{
    /* Parquet's numbers at 10^6 keys (header comment). */
    const double p[] = {0.1, 0.01, 0.001, 1e-4, 1e-5};
    const double formula_bpk[] = {5.8, 9.7, 14.6, 21, 29.6};
    const double table_bpk[] = {6.0, 10.5, 16.9, 26.4, 41};
    const uint64_t n = 1000000;
    for (size_t i = 0; i < 5; i++) {
        uint64_t mc, m, m2;
        unsigned k, k2;
        double x;
        assert(sizing_design_full(RULE("split-block-formula"), n, p[i], &mc, &m, &k) == SIZING_OK);
        assert(mc == (uint64_t)ceil((double)n * rate_split_block_formula_bpk(p[i], 8)));
        assert(m % 256 == 0 && m >= mc && m - mc < 256 && k == 8);
        assert(fabs((double)m / (double)n - formula_bpk[i]) < 0.1);
        assert(sizing_rate_exact(RULE("split-block-formula"), m, n, 0, k, &x) == SIZING_OK);
        assert(x > p[i]); /* the formula's size never delivers its promise */
        printf("split-block-formula p=%-6g m=%llu (%.4f bits per key, Parquet issue 547: %g) "
               "delivers %.6g = %.4f p\n", p[i], (unsigned long long)m, (double)m / (double)n,
               formula_bpk[i], x, x / p[i]);
        if (i == 1) /* 1%: ratio 1.463 */
            assert(mc == 9681527 && fabs(x / p[i] - 1.463) < 0.001);
        if (i == 2) /* 0.1%: ratio 2.076 */
            assert(fabs(x / p[i] - 2.076) < 0.001);
        m2 = check_exact(RULE("split-block-exact"), n, p[i], 0, 0, &k2, 0);
        assert(k2 == 8 && fabs((double)m2 / (double)n - table_bpk[i]) < 0.1);
        assert(sizing_design(RULE("split-block-exact"), n, p[i], &m, &k) == SIZING_OK);
        assert(m == m2 && k == 8);
    }
    /* 10^6 keys at 1% in whole 512-bit blocks: 9,918,464 bits at k = 6, the k that
     * minimises the exact rate there (a full scan of k = 1..64 at that size and one block
     * fewer); round((m/n) ln 2) = 7 would need 9,929,728 bits. */
    unsigned k;
    assert(check_exact(RULE("blocked-exact"), n, 0.01, 0, 0, &k, 1) == 9918464 && k == 6);
    assert(check_exact(RULE("blocked-exact"), n, 0.01, 0, 7, &k, 0) == 9929728 && k == 7);
    /* Other geometries: split-block in 512-bit blocks of 16 words, blocked in 256-bit
     * blocks at a given k, a small n (one block suffices), and rates near 1. */
    check_exact(RULE("split-block-exact"), 100000, 0.01, 512, 16, &k, 0);
    assert(k == 16);
    check_exact(RULE("blocked-exact"), 100000, 0.01, 256, 8, &k, 0);
    check_exact(RULE("blocked-exact"), 20000, 1e-4, 0, 0, &k, 1);
    assert(check_exact(RULE("blocked-exact"), 1, 0.01, 0, 0, &k, 0) == 512);
    assert(check_exact(RULE("split-block-exact"), 1, 0.01, 0, 0, &k, 0) == 256);
    check_exact(RULE("split-block-exact"), 1000, 0.999999, 0, 0, &k, 0);
    check_exact(RULE("blocked-exact"), 1000, 0.9, 0, 0, &k, 0);
    /* A split-block-formula size of under one block still gets one. */
    uint64_t mc, m;
    assert(sizing_design_full(RULE("split-block-formula"), 1, 0.5, &mc, &m, &k) == SIZING_OK);
    assert(mc == 4 && m == 256); /* c(0.5, 8) = 3.16 */
    /* sizing_formula_blocks is the formula in any blocks: blocked at k = 6, 512 bits. */
    assert(sizing_formula_blocks(n, 0.01, 512, 6, &mc, &m) == SIZING_OK);
    assert(mc == (uint64_t)ceil((double)n * rate_split_block_formula_bpk(0.01, 6)));
    assert(m % 512 == 0 && m - mc < 512);

    /* Names. */
    for (size_t r = 0; r < sizing_rule_count(); r++)
        assert(sizing_find(sizing_rule_at(r)->name) == sizing_rule_at(r));
    assert(sizing_rule_at(sizing_rule_count()) == NULL);
    assert(sizing_find("split-block") == NULL);
    assert(RULE("guava")->kind == SIZING_RULE_PLAIN);
    assert(RULE("split-block-formula")->block_bits == 256);
    assert(RULE("blocked-exact")->block_bits == 512);

    /* Every error path. */
    double x;
    m = 12345, mc = 54321, k = 678; /* nothing written on error */
    assert(sizing_design_blocked(RULE("guava"), n, 0.01, 64, 0, &mc, &m, &k) == SIZING_EBLOCK);
    assert(sizing_design_blocked(RULE("calculateparams"), n, 0.01, 0, 3, &mc, &m, &k) ==
           SIZING_EBLOCK);
    assert(sizing_design_blocked(RULE("split-block-exact"), n, 0.01, 256, 7, &mc, &m, &k) ==
           SIZING_EBLOCK); /* 7 does not divide 256 */
    assert(sizing_design_blocked(RULE("split-block-formula"), n, 0.01, 4, 0, &mc, &m, &k) ==
           SIZING_EBLOCK); /* 8 words in 4 bits */
    assert(sizing_design_blocked(RULE("blocked-exact"), n, 0.01, (UINT64_C(1) << 18) + 1, 0, &mc,
                                 &m, &k) == SIZING_EBLOCK);
    assert(sizing_design_blocked(RULE("blocked-exact"), n, 0.01, 0, SIZING_MAX_K + 1, &mc, &m,
                                 &k) == SIZING_EBLOCK);
    assert(sizing_design_blocked(RULE("blocked-exact"), 0, 0.01, 0, 0, &mc, &m, &k) == SIZING_EDOM);
    assert(sizing_design_blocked(RULE("split-block-exact"), 10, 1, 0, 0, &mc, &m, &k) ==
           SIZING_EDOM);
    assert(sizing_design_blocked(RULE("split-block-formula"), 10, NAN, 0, 0, &mc, &m, &k) ==
           SIZING_EDOM);
    /* 2^63 keys at 1% need 9.7 * 2^63 bits; 10 keys at 1e-300 need more than 2^64 bits
     * in any blocks: a block holding one key at k = 8 (or up to 64) has a rate above
     * 2^-40 (2^-576), so the rate is at least about (10 / z) 2^-40. */
    assert(sizing_design_blocked(RULE("split-block-formula"), UINT64_C(1) << 63, 0.01, 0, 0, &mc,
                                 &m, &k) == SIZING_ETOOBIG);
    assert(sizing_design_blocked(RULE("split-block-exact"), 10, 1e-300, 0, 0, &mc, &m, &k) ==
           SIZING_ETOOBIG);
    assert(sizing_design_blocked(RULE("blocked-exact"), 10, 1e-300, 0, 0, &mc, &m, &k) ==
           SIZING_ETOOBIG);
    assert(m == 12345 && mc == 54321 && k == 678);
    assert(sizing_formula_blocks(n, 0.01, 0, 8, &mc, &m) == SIZING_EBLOCK);
    assert(sizing_formula_blocks(n, 0.01, 256, 0, &mc, &m) == SIZING_EBLOCK);
    assert(sizing_formula_blocks(0, 0.01, 256, 8, &mc, &m) == SIZING_EDOM);
    assert(sizing_rate_exact(RULE("guava"), 1024, 100, 64, 7, &x) == SIZING_EBLOCK);
    assert(sizing_rate_exact(RULE("split-block-exact"), 1000, 100, 0, 8, &x) == SIZING_EBLOCK);
    assert(sizing_rate_exact(RULE("blocked-exact"), 1024, 100, 0, 0, &x) == SIZING_EBLOCK);
    /* Two blocks and 10^15 keys: the load's spread needs more than RATE_BLOCKED_MAX_TERMS
     * terms, which rate_blocked.h refuses. */
    assert(sizing_rate_exact(RULE("split-block-exact"), 512, UINT64_C(1000000000000000), 0, 8,
                             &x) == SIZING_ERATE);
    assert(sizing_rate_exact(RULE("guava"), UINT64_C(1) << 41, 100, 0, 7, &x) == SIZING_ERATE);
    assert(strcmp(sizing_strerror(SIZING_EBLOCK), sizing_strerror(-1)) != 0);
    assert(strcmp(sizing_strerror(SIZING_ERATE), sizing_strerror(-1)) != 0);
    printf("block rules: Parquet's numbers, minimal sizes, names and errors: ok\n");

    /* A stack of split-block-exact layers: whole blocks, each meeting its rate. */
    sizing_layer_t L[SIZING_MAX_LAYERS];
    size_t nl;
    assert(sizing_stack(RULE("split-block-exact"), 500, 0.01, 2, 0.5, 8000, L, &nl) == SIZING_OK);
    assert(nl == 5);
    for (size_t j = 0; j < nl; j++) {
        assert(L[j].m % 256 == 0 && L[j].k == 8);
        assert(sizing_rate_exact(RULE("split-block-exact"), L[j].m, L[j].capacity, 0, 8, &x) ==
               SIZING_OK && x <= L[j].rate);
    }
}

/* Library rules (sizing.h, src/libraries/): each (m_c, m, k) hand-worked from the
 * library's expression in its source (the file each rule cites), in
 * double as the library evaluates it (checked with Python's floats). At p = 1%, the
 * ideal bits per key is 9.5851 (LevelDB takes 10, RocksDB 9585 millibits). */
static void test_library_rules(void)
{
    uint64_t mc, m;
    unsigned k;
    /* leveldb (util/bloom.cc): bits = n * 10, at least 64, whole bytes; k = (int)(10 *
     * 0.69) = 6. 3 keys: 30 bits become 64; 7 keys: 70 become 72. */
    expect(RULE("leveldb"), 1000, 0.01, 10000, 10000, 6);
    expect(RULE("leveldb"), 3, 0.01, 30, 64, 6);
    expect(RULE("leveldb"), 7, 0.01, 70, 72, 6);
    /* rocksdb-fastlocal (FastLocalBloomBitsBuilder::CalculateSpace): 10^6 * 9585 / 8000
     * = 1,198,125 bytes, 18,721 cache lines = 1,198,144 bytes; ChooseNumProbes(9585) = 6
     * (<= 10070). 10^10 keys: 1.198e10 bytes pass the cap 0xffffffc0. */
    expect(RULE("rocksdb-fastlocal"), 1000000, 0.01, 9585000, 9585152, 6);
    expect(RULE("rocksdb-fastlocal"), UINT64_C(10000000000), 0.01, UINT64_C(95850000000),
           UINT64_C(0xffffffc0) * 8, 6);
    /* rocksdb-legacy: 10 whole bits per key; 10,000 bits = 19.5 lines -> 20 -> odd 21
     * = 10,752 bits; 10,240 bits = exactly 20 lines, still 21; 10^10 bits capped at
     * 0xffff0000 = 8,388,480 lines -> 8,388,481. k = (int)(10 * 0.69) = 6. */
    expect(RULE("rocksdb-legacy"), 1000, 0.01, 10000, 10752, 6);
    expect(RULE("rocksdb-legacy"), 1024, 0.01, 10240, 10752, 6);
    expect(RULE("rocksdb-legacy"), 1000000000, 0.01, UINT64_C(10000000000),
           UINT64_C(8388481) * 512, 6);
    /* sbbf (Arrow OptimalNumOfBits): 10^6 keys at 1%: (int)9,681,526.7 -> 2^24; 10^9
     * keys: past 128 MiB, clamped to 2^30 bits; 1 key at 50%: 3 bits -> 32 bytes. */
    expect(RULE("sbbf"), 1000000, 0.01, 9681526, UINT64_C(1) << 24, 8);
    expect(RULE("sbbf"), 1000000000, 0.01, UINT64_C(9681526738), UINT64_C(1) << 30, 8);
    expect(RULE("sbbf"), 1, 0.5, 3, 256, 8);
    /* kudu-block (MinLogSpace, InitInternal): 10^6 keys at 1%: 1,210,190.8 bytes,
     * ceil(log2) = 21, 2^16 buckets = 2^24 bits; 1 key at 50%: log_space 0, still 2
     * buckets = 512 bits (sbbf gives 256). */
    expect(RULE("kudu-block"), 1000000, 0.01, 9681527, UINT64_C(1) << 24, 8);
    expect(RULE("kudu-block"), 1, 0.5, 4, 512, 8);
    /* spark (BloomFilter.java, BitArray.java): Guava's numbers at 10^6 and 3%; 1,000
     * keys at 1%: 9,585 bits -> 150 words = 9,600; k = round(9.585 ln 2) = 7. */
    expect(RULE("spark"), 1000000, 0.03, 7298440, 7298496, 5);
    expect(RULE("spark"), 1000, 0.01, 9585, 9600, 7);
    /* orc: 1,000 keys at 5%: nb = 6,235, + 64 - 27 = 6,272, k = round(6.272 ln 2) = 4. */
    expect(RULE("orc"), 1000, 0.05, 6235, 6272, 4);
    expect(RULE("orc"), 10000, 0.01, 95850, 95872, 7);
    /* redisson: Guava's count unrounded. */
    expect(RULE("redisson"), 1000000, 0.03, 7298440, 7298440, 5);
    /* bits-and-blooms: ceil(9585.06) = 9,586; k = ceil(ln 2 * 9.586) = ceil(6.64) = 7. */
    expect(RULE("bits-and-blooms"), 1000, 0.01, 9586, 9586, 7);
    /* cassandra (BloomCalculations.probs): at 1% the first row whose optimal K meets it
     * is 10 buckets (K = 7, 0.00819); K then falls to 5 (0.00844, 0.00943 <= 1%;
     * 0.0118 is not): 10 n + 20 = 10,020 bits, 157 words = 10,048. At 50% the swapped
     * trivial case: 1 bucket, K = 2: 1,020 bits, 16 words. At 6.71e-5, the table's
     * least: 20 buckets, K = 14. */
    expect(RULE("cassandra"), 1000, 0.01, 10020, 10048, 5);
    expect(RULE("cassandra"), 1000, 0.5, 1020, 1024, 2);
    expect(RULE("cassandra"), 1000, 6.71e-5, 20020, 20032, 14);
    /* libbloom: 10^4 * 4.60517 / 0.480453013918201 = 95,850.58 -> 95,850; k = 7. */
    expect(RULE("libbloom"), 10000, 0.01, 95850, 95850, 7);
    /* rust-bloomfilter: ceil(1,198.13) = 1,199 bytes = 9,592 bits; k = round(6.649) = 7. */
    expect(RULE("rust-bloomfilter"), 1000, 0.01, 9592, 9592, 7);
    /* fastbloom: 9,592 bits -> 150 words = 9,600; 1 key: 16 bits -> the 64 minimum,
     * k = round(64 ln 2) = 44. */
    expect(RULE("fastbloom"), 1000, 0.01, 9592, 9600, 7);
    expect(RULE("fastbloom"), 1, 0.01, 16, 64, 44);
    /* hadoop: BloomMapFile's defaults, 1024 * 1024 keys at 0.005f (0.00499999988824):
     * ceil(-5 n / ln(1 - p^(1/5))) = 12,321,010; k = 5. */
    expect(RULE("hadoop"), 1048576, 0.005, 12321010, 12321010, 5);
    /* hive-bloomk (BloomKFilter.java): 1,000 keys at 5% (its DEFAULT_FPP): Guava's 6,235
     * bits, 98 longs padded to 104 = 6,656 bits, k = round(6.235 ln 2) = 4; 10^4 at
     * 1%: 95,850 bits, 1,498 longs -> 1,504 = 96,256. */
    expect(RULE("hive-bloomk"), 1000, 0.05, 6235, 6656, 4);
    expect(RULE("hive-bloomk"), 10000, 0.01, 95850, 96256, 7);
    /* redisbloom (bloom_init, NOROUND, at p/2 = 0.005): bpe = 11.0278, 1,000 keys ->
     * 11,027 bits -> 173 words = 11,072; k = ceil(7.64) = 8. */
    expect(RULE("redisbloom"), 1000, 0.01, 11027, 11072, 8);
    /* redisbloom-pow2: RedisBloom#28's filter, 478,361,140 entries at 1e-6: bpe =
     * 28.755, 1.3755e10 bits -> 2^34, k = 20, as the report states. */
    expect(RULE("redisbloom-pow2"), 478361140, 1e-6, UINT64_C(13755358357),
           UINT64_C(1) << 34, 20);
    expect(RULE("redisbloom-pow2"), 1000, 0.01, 9585, 16384, 7);
    /* commons (Shape.fromNP): ceil(9,585.06) = 9,586, k = round(6.644) = 7; 10^6 at
     * 0.1%: 14,377,588, k = round(9.966) = 10. */
    expect(RULE("commons"), 1000, 0.01, 9586, 9586, 7);
    expect(RULE("commons"), 1000000, 0.001, 14377588, 14377588, 10);
    /* pybloom-live: 1% -> ceil(log2 100) = 7 slices of ceil(9,585.06 / 7) = 1,370 bits;
     * 0.1% at 10^4 keys: 10 slices of 14,378. */
    expect(RULE("pybloom-live"), 1000, 0.01, 9590, 9590, 7);
    expect(RULE("pybloom-live"), 10000, 0.001, 143780, 143780, 10);
    /* bloomfilter-js (withTargetError): ceil(9,585.06) = 9,586 -> 300 buckets = 9,600,
     * k = ceil(6.644) = 7. */
    expect(RULE("bloomfilter-js"), 1000, 0.01, 9586, 9600, 7);
    expect(RULE("bloomfilter-js"), 1000000, 0.001, 14377588, 14377600, 10);

    /* Bits per key given as the libraries take them: LevelDB's documented 10 is the 1%
     * design; RocksDB at 10 bits per key: 10^6 * 10000 / 8000 = 1,250,000 bytes =
     * 19,531.25 lines -> 19,532; ChooseNumProbes(10000) = 6 (<= 10070); legacy at 16:
     * 16,000 bits = 31.25 lines -> 32 -> odd 33, k = (int)(16 * 0.69) = 11. LevelDB at
     * 0: 64 bits, k = 1. */
    assert(sizing_design_bpk(RULE("leveldb"), 1000, 10, &mc, &m, &k) == SIZING_OK);
    assert(mc == 10000 && m == 10000 && k == 6);
    assert(sizing_design_bpk(RULE("leveldb"), 1000, 0, &mc, &m, &k) == SIZING_OK);
    assert(mc == 0 && m == 64 && k == 1);
    assert(sizing_design_bpk(RULE("rocksdb-fastlocal"), 1000000, 10, &mc, &m, &k) == SIZING_OK);
    assert(mc == 10000000 && m == UINT64_C(19532) * 512 && k == 6);
    assert(sizing_design_bpk(RULE("rocksdb-legacy"), 1000, 16, &mc, &m, &k) == SIZING_OK);
    assert(mc == 16000 && m == 33 * 512 && k == 11);
    assert(sizing_design_bpk(RULE("rocksdb-fastlocal"), 1000, 0.4, &mc, &m, &k) ==
           SIZING_ENOFILTER);
    assert(sizing_design_bpk(RULE("leveldb"), 1000, 9.5, &mc, &m, &k) == SIZING_EBPK);
    assert(sizing_design_bpk(RULE("sbbf"), 1000, 10, &mc, &m, &k) == SIZING_EBPK);
    assert(sizing_design_bpk(RULE("leveldb"), 0, 10, &mc, &m, &k) == SIZING_EDOM);

    /* What the libraries refuse. */
    m = 12345, mc = 54321, k = 678;
    assert(sizing_design_full(RULE("rocksdb-fastlocal"), 10, 0.9, &mc, &m, &k) == SIZING_ENOFILTER);
    assert(sizing_design_full(RULE("rocksdb-legacy"), 10, 0.9, &mc, &m, &k) == SIZING_ENOFILTER);
    assert(sizing_design_full(RULE("spark"), 1, 0.9, &mc, &m, &k) == SIZING_EZERO);
    assert(sizing_design_full(RULE("redisson"), 1, 0.9, &mc, &m, &k) == SIZING_EZERO);
    assert(sizing_design_full(RULE("redisson"), 1000000000, 1e-9, &mc, &m, &k) == SIZING_ECAP);
    assert(sizing_design_full(RULE("spark"), UINT64_C(1) << 40, 1e-9, &mc, &m, &k) == SIZING_ECAP);
    assert(sizing_design_full(RULE("orc"), 1000000000, 0.01, &mc, &m, &k) == SIZING_ECAP);
    assert(sizing_design_full(RULE("cassandra"), 1000, 6.7e-5, &mc, &m, &k) == SIZING_ELIBRATE);
    /* 2^33 keys at 20 buckets: 2^37.3 bits, past 2^31 - 1 words */
    assert(sizing_design_full(RULE("cassandra"), UINT64_C(1) << 33, 1e-4, &mc, &m, &k) ==
           SIZING_ECAP);
    /* 2^40 keys at 1%: 2^40 * 1.21 bytes, log_space 41, 36 > 32 bucket bits */
    assert(sizing_design_full(RULE("kudu-block"), UINT64_C(1) << 40, 0.01, &mc, &m, &k) ==
           SIZING_ECAP);
    assert(sizing_design_full(RULE("libbloom"), 999, 0.01, &mc, &m, &k) == SIZING_EKEYS);
    assert(sizing_design_full(RULE("libbloom"), UINT64_C(1) << 32, 0.01, &mc, &m, &k) ==
           SIZING_EKEYS);
    assert(sizing_design_full(RULE("libbloom"), 1000, 1e-80, &mc, &m, &k) == SIZING_EKFIELD);
    assert(sizing_design_full(RULE("hadoop"), 429496730, 0.01, &mc, &m, &k) == SIZING_EKEYS);
    assert(sizing_design_full(RULE("leveldb"), 0, 0.01, &mc, &m, &k) == SIZING_EDOM);
    /* Past an int's bits: hive-bloomk at 10^9 keys, commons at 10^9 keys. */
    assert(sizing_design_full(RULE("hive-bloomk"), 1000000000, 0.01, &mc, &m, &k) == SIZING_ECAP);
    assert(sizing_design_full(RULE("commons"), 1000000000, 0.01, &mc, &m, &k) == SIZING_ECAP);
    /* libbloom 1.x's int bits: 3 * 10^8 keys at 1% compute 2,875,517,613 > 2^31 - 1;
     * 2.0 builds it. */
    assert(sizing_design_full(RULE("libbloom-1"), 300000000, 0.01, &mc, &m, &k) == SIZING_ECAP);
    /* Commons: 10 keys at 75%: ceil(5.99) = 6 bits, k = round(0.416) = 0: "Filter too
     * small". */
    assert(sizing_design_full(RULE("commons"), 10, 0.75, &mc, &m, &k) == SIZING_ENOFILTER);
    assert(sizing_design_blocked(RULE("sbbf"), 100, 0.01, 256, 0, &mc, &m, &k) == SIZING_EBLOCK);
    assert(m == 12345 && mc == 54321 && k == 678);
    assert(sizing_design_full(RULE("libbloom"), 300000000, 0.01, &mc, &m, &k) == SIZING_OK);
    for (int s = SIZING_ECAP; s <= SIZING_EBPK; s++)
        assert(strcmp(sizing_strerror(s), sizing_strerror(-1)) != 0);
    /* Rates: the blocked libraries at their lines and blocks. */
    double x;
    assert(sizing_rate_exact(RULE("rocksdb-fastlocal"), 9585152, 1000000, 0, 6, &x) == SIZING_OK);
    printf("rocksdb-fastlocal 10^6 keys at 1%%: exact rate %.6g\n", x);
    assert(x > 0.01 && x < 0.012); /* 9.585 bits per key in 512-bit lines misses 1% */
    assert(sizing_rate_exact(RULE("rocksdb-legacy"), 10000, 1000, 0, 6, &x) == SIZING_EBLOCK);
    assert(sizing_rate_exact(RULE("sbbf"), UINT64_C(1) << 24, 1000000, 0, 8, &x) == SIZING_OK &&
           x < 0.01);
    /* pybloom-live's slices: the partitioned rate (1 - (1 - 1/1370)^1000)^7. */
    assert(sizing_rate_exact(RULE("pybloom-live"), 9590, 1000, 0, 7, &x) == SIZING_OK);
    assert(fabs(x / pow(1 - pow(1 - 1.0 / 1370, 1000), 7) - 1) < 1e-12);
    assert(sizing_rate_exact(RULE("pybloom-live"), 9591, 1000, 0, 7, &x) == SIZING_EBLOCK);
    /* Each library rule designs, and takes no block geometry. */
    for (size_t r = 0; r < sizing_rule_count(); r++) {
        const sizing_rule_t *rule = sizing_rule_at(r);
        if (rule->kind != SIZING_RULE_LIBRARY)
            continue;
        assert(rule->design && rule->summary && *rule->summary);
        assert(sizing_design_blocked(rule, 1000, 0.01, 0, 8, &mc, &m, &k) == SIZING_EBLOCK);
    }
    printf("library rules: hand-worked sizes, caps, refusals: ok\n");
}

int main(void)
{
    test_block_rules();
    test_library_rules();

    /* calculateparams: Bendersky's filter indexes the m it computes. */
    expect(RULE("calculateparams"), 1000000000, 0.01, UINT64_C(9585058378),
           UINT64_C(9585058378), 7);
    expect(RULE("calculateparams"), 2000, 0.01, 19171, 19171, 7);
    expect(RULE("calculateparams"), 2000, 0.001, 28756, 28756, 10);
    expect(RULE("calculateparams"), 8000, 0.01, 76681, 76681, 7);
    /* k from b = -ln p / ln^2 2, not from m/n (CalculateParams): at 1 key and 0.008,
     * b = 10.05, m = 11, k = ceil(6.966) = 7, where ceil((m/n) ln 2) = ceil(7.62) = 8. */
    expect(RULE("calculateparams"), 1, 0.008, 11, 11, 7);
    /* guava: the computed bits, rounded up to whole 64-bit words for the index. */
    expect(RULE("guava"), 1000000, 0.03, 7298440, 7298496, 5);
    /* floor(2000 * 9.58506) = 19170 -> 300 words = 19200; round(9.585 ln 2 = 6.644) = 7 */
    expect(RULE("guava"), 2000, 0.01, 19170, 19200, 7);
    /* k from the computed bits, as BloomFilter.create calls it: 41 keys at 1% compute
     * 392 bits (indexed 448), round(392/41 ln 2 = 6.63) = 7; 448 would give
     * round(7.57) = 8. */
    expect(RULE("guava"), 41, 0.01, 392, 448, 7);
    /* one in a million for 10^8 keys: floor(10^8 * 13.8155 / 0.480453) = 2875517513,
     * 44929962 words = 2875517568 bits; round(28.755 ln 2 = 19.93) = 20 */
    expect(RULE("guava"), 100000000, 1e-6, UINT64_C(2875517513), UINT64_C(2875517568), 20);
    /* the guava experiment's design (experiments/guava.ini): 56,011,230 keys at 1e-6
     * compute 3*2^29 - 8 bits and index 3*2^29; its quick scale, 875,175 keys, computes
     * 25,165,810 and indexes 3*2^23 */
    expect(RULE("guava"), 56011230, 1e-6, 3 * (UINT64_C(1) << 29) - 8, 3 * (UINT64_C(1) << 29),
           20);
    expect(RULE("guava"), 875175, 1e-6, 25165810, 3 * (UINT64_C(1) << 23), 20);
    /* n = 1 at 1%: ceil(9.585) = 10 bits, ceil(6.64) = 7 probes */
    expect(RULE("calculateparams"), 1, 0.01, 10, 10, 7);
    /* p near 1: a fraction of a bit per key rounds up to one bit and one probe */
    expect(RULE("calculateparams"), 1, 0.999999, 1, 1, 1);
    expect(RULE("guava"), 1, 0.999999, 1, 64, 1); /* floor gives 0; at least 1 bit, 1 word */
    /* p near 0: 1e-300 needs 1,437.76 bits per key and ceil(996.6) = 997 probes */
    expect(RULE("calculateparams"), 1000, 1e-300, 1437759, 1437759, 997);

    uint64_t m;
    unsigned k;
    assert(sizing_design(RULE("calculateparams"), 0, 0.01, &m, &k) == SIZING_EDOM);
    assert(sizing_design(RULE("calculateparams"), 10, 0, &m, &k) == SIZING_EDOM);
    assert(sizing_design(RULE("calculateparams"), 10, 1, &m, &k) == SIZING_EDOM);
    assert(sizing_design(RULE("calculateparams"), 10, NAN, &m, &k) == SIZING_EDOM);
    /* 2^63 keys at 1% need 9.6 * 2^63 bits: past 2^64, refused */
    assert(sizing_design(RULE("calculateparams"), UINT64_C(1) << 63, 0.01, &m, &k) ==
           SIZING_ETOOBIG);
    /* More than SIZING_MAX_K probes: refused, never clamped. 1e-301: -log2 p = 999.90,
     * k = 1000, the last rate allowed; 9.3e-302: 1000.005, k = 1001. The subnormal
     * 1e-310 (k = ceil(1029.8) = 1030, guava round(1485.684 ln 2) = 1030) is a valid
     * rate, refused for its probes; 2^63 keys at 1e-310 are refused for their bits. */
    expect(RULE("calculateparams"), 1000, 1e-301, 1442552, 1442552, 1000);
    assert(sizing_design(RULE("calculateparams"), 1000, 9.3e-302, &m, &k) == SIZING_EPROBES);
    assert(sizing_design(RULE("calculateparams"), 1, 1e-310, &m, &k) == SIZING_EPROBES);
    assert(sizing_design(RULE("guava"), 1000, 1e-310, &m, &k) == SIZING_EPROBES);
    assert(sizing_design(RULE("calculateparams"), UINT64_C(1) << 63, 1e-310, &m, &k) ==
           SIZING_ETOOBIG);
    m = 12345, k = 678; /* nothing written on error */
    assert(sizing_design(RULE("guava"), 1, 5e-324, &m, &k) == SIZING_EPROBES);
    assert(m == 12345 && k == 678);
    printf("domain, overflow and more than %d probes refused\n", SIZING_MAX_K);

    /* Seed 001's stack at 8,000 keys: capacities 500, 1000, 2000, 4000, 8000 at rates
     * 1%, 0.5%, ..., the fifth layer holding 8000 - 7500 = 500 keys. */
    sizing_layer_t L[SIZING_MAX_LAYERS];
    size_t nl;
    assert(sizing_stack(RULE("calculateparams"), 500, 0.01, 2, 0.5, 8000, L, &nl) == SIZING_OK);
    assert(nl == 5);
    const uint64_t cap[] = {500, 1000, 2000, 4000, 8000}, held[] = {500, 1000, 2000, 4000, 500};
    for (size_t j = 0; j < nl; j++) {
        uint64_t mj;
        unsigned kj;
        assert(L[j].capacity == cap[j] && L[j].n == held[j]);
        assert(fabs(L[j].rate - 0.01 / (double)(1u << j)) < 1e-18);
        assert(sizing_design(RULE("calculateparams"), cap[j], L[j].rate, &mj, &kj) == SIZING_OK);
        assert(L[j].m == mj && L[j].k == kj);
        printf("layer %zu: capacity %llu, rate %g, m %llu, k %u, holds %llu\n", j,
               (unsigned long long)L[j].capacity, L[j].rate, (unsigned long long)L[j].m, L[j].k,
               (unsigned long long)L[j].n);
    }
    assert(L[0].m == 4793); /* 500 keys at 1%: ceil(500 * 9.58506) */
    /* Exactly full layers: 7,500 keys fill four layers and start no fifth. */
    assert(sizing_stack(RULE("calculateparams"), 500, 0.01, 2, 0.5, 7500, L, &nl) == SIZING_OK);
    assert(nl == 4 && L[3].n == 4000);
    /* Growth 4: 500, 2000, 8000: three layers at 8,000 keys (seed 001). */
    assert(sizing_stack(RULE("calculateparams"), 500, 0.01, 4, 0.5, 8000, L, &nl) == SIZING_OK);
    assert(nl == 3 && L[2].n == 5500);
    /* Guava's rule sizes each layer as the filter Guava builds: 500 keys at 1% compute
     * floor(500 * 9.58506) = 4792 bits and index 75 words, 4800. */
    assert(sizing_stack(RULE("guava"), 500, 0.01, 2, 0.5, 1500, L, &nl) == SIZING_OK);
    assert(nl == 2 && L[0].m == 4800);
    for (size_t j = 0; j < nl; j++) {
        uint64_t mj;
        unsigned kj;
        assert(sizing_design(RULE("guava"), L[j].capacity, L[j].rate, &mj, &kj) == SIZING_OK);
        assert(L[j].m == mj && L[j].k == kj && mj % 64 == 0);
    }
    /* Bad parameters. */
    const sizing_rule_t *cp = RULE("calculateparams");
    assert(sizing_stack(cp, 500, 0.01, 2, 1.0, 8000, L, &nl) == SIZING_ELAYERS);
    assert(sizing_stack(cp, 500, 0.01, 2, 0.0, 8000, L, &nl) == SIZING_ELAYERS);
    assert(sizing_stack(cp, 500, 0.01, 0.5, 0.5, 8000, L, &nl) == SIZING_ELAYERS);
    assert(sizing_stack(RULE("calculateparams"), 0, 0.01, 2, 0.5, 8000, L, &nl) == SIZING_ELAYERS);
    assert(sizing_stack(RULE("calculateparams"), 500, 1.5, 2, 0.5, 8000, L, &nl) == SIZING_EDOM);
    /* growth 1 and capacity 1: more than 64 layers for 1,000 keys */
    assert(sizing_stack(RULE("calculateparams"), 1, 0.01, 1, 0.5, 1000, L, &nl) == SIZING_ELAYERS);
    printf("stack layers and bad parameters: ok\n");
    return 0;
}
