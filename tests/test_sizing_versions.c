/* test_sizing_versions.c - the sizing rules of the library versions users install today
 * (issue 23): parquet-java's writer beside Arrow's sizing, Kudu's MinLogSpace from 1.13
 * on beside 1.12's, RocksDB's optimize_filters_for_memory default from 9.2 on, and
 * bloomfilter.js 1.1.0's 2^32-bit limit. Each (m_c, m, k), cap and refusal is worked from
 * the library's own expression at the commit its rule cites, in the arithmetic the
 * library evaluates it in (Java's int and long, C++'s double and libm, JavaScript's
 * Numbers), by re-implementations of those expressions (Python, whose floats are IEEE
 * doubles and whose math functions are the same libm).
 */
#undef NDEBUG
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sizing_expect.h"

/* The design's status; nothing written on a refusal. */
static int status_of(const char *rule, uint64_t n, double p)
{
    uint64_t mc = 12345, m = 54321;
    unsigned k = 678;
    int st = sizing_design_full(RULE(rule), n, p, &mc, &m, &k);
    assert(st == SIZING_OK || (mc == 12345 && m == 54321 && k == 678));
    return st;
}

/* parquet-java: optimalNumOfBits (BlockSplitBloomFilter.java:284-302 @a3a1de15), bytes =
 * bits / 8, then the constructor's initBitset (:205-218) under the writer's default
 * maximum of 1 MiB (ParquetProperties.java:63); Arrow's sizing (sbbf, bloom_filter.h:
 * 236-277 @515410b2) beside it. The computed count is the truncated formula, as sbbf's. */
static void test_parquet_java(void)
{
    /* 10^4 at 1%: m = 96,815.3, (int) 96,815; + 255 = 97,070, bit 8 set: 96,814; / 8 =
     * 12,101 bytes -> 16 KiB, as Arrow. 10^4 at 0.1%: 146,076 -> 146,075 -> 18,259 bytes
     * -> 32 KiB, as Arrow. */
    expect(RULE("parquet-java"), 10000, 0.01, 96815, 131072, 8);
    expect(RULE("sbbf"), 10000, 0.01, 96815, 131072, 8);
    expect(RULE("parquet-java"), 10000, 0.001, 146076, 262144, 8);
    /* 10^6 at 1%: 9,681,526 -> 9,681,525 bits, 1,210,190 bytes -> 2 MiB, over the
     * writer's 1 MiB: 1 MiB = 8,388,608 bits, where Arrow gives 2 MiB. At 0.1%:
     * 14,607,697 -> 14,607,952 -> 2 MiB, capped at 1 MiB. At 10^9: (int) saturates, the
     * 2^30 cap, + 255: 2^27 + 31 bytes -> 2^28, cut to 1 MiB. */
    expect(RULE("parquet-java"), 1000000, 0.01, 9681526, 8388608, 8);
    expect(RULE("sbbf"), 1000000, 0.01, 9681526, 16777216, 8);
    expect(RULE("parquet-java"), 1000000, 0.001, 14607697, 8388608, 8);
    expect(RULE("parquet-java"), 1000000000, 0.01, UINT64_C(9681526738), 8388608, 8);
    /* Near 2^20 bits at 1%: n = 108,281 truncates to 2^20 - 251; + 255 = 2^20 + 4, bit 8
     * clear: 1,048,580 bits, 131,072 bytes (integer division), 128 KiB as Arrow. n =
     * 108,282 (2^20 - 241): + 255 = 2^20 + 14, 131,073 bytes -> 256 KiB, twice Arrow's
     * 128 KiB, and so through n = 108,306 (2^20 - 9). n = 108,307 (2^20 + 1): + 255 =
     * 2^20 + 256, bit 8 set, cleared: 2^20 bits, 128 KiB, half Arrow's 256 KiB and below
     * the formula's own count. n = 108,308 (2^20 + 10): 2^20 + 9 bits (bit 8 of 2^20 +
     * 265 set) -> 131,073 bytes -> 256 KiB, as Arrow. */
    expect(RULE("parquet-java"), 108281, 0.01, 1048325, 1048576, 8);
    expect(RULE("sbbf"), 108281, 0.01, 1048325, 1048576, 8);
    expect(RULE("parquet-java"), 108282, 0.01, 1048335, 2097152, 8);
    expect(RULE("sbbf"), 108282, 0.01, 1048335, 1048576, 8);
    expect(RULE("parquet-java"), 108306, 0.01, 1048567, 2097152, 8);
    expect(RULE("sbbf"), 108306, 0.01, 1048567, 1048576, 8);
    expect(RULE("parquet-java"), 108307, 0.01, 1048577, 1048576, 8);
    expect(RULE("sbbf"), 108307, 0.01, 1048577, 2097152, 8);
    expect(RULE("parquet-java"), 108308, 0.01, 1048586, 2097152, 8);
    for (uint64_t n = 108282; n <= 108306; n++) {
        uint64_t mc, m;
        unsigned k;
        assert(sizing_design_full(RULE("parquet-java"), n, 0.01, &mc, &m, &k) == SIZING_OK);
        assert(m == 2097152);
        assert(sizing_design_full(RULE("sbbf"), n, 0.01, &mc, &m, &k) == SIZING_OK);
        assert(m == 1048576);
    }
    /* n = 53 at 1%: 513 bits (2^9 + 1) -> 512, 64 bytes; Arrow rounds 513 up to 1,024
     * bits, 128 bytes. */
    expect(RULE("parquet-java"), 53, 0.01, 513, 512, 8);
    expect(RULE("sbbf"), 53, 0.01, 513, 1024, 8);
    /* Near 2^23 bits: n = 866,429 (2^23 - 253) -> 2^23 + 2 bits, 1 MiB. n = 866,430
     * (2^23 - 243) -> 2^23 + 12 bits, 1 MiB + 1 byte -> 2 MiB, cut to the 1 MiB cap (the
     * first n the cap cuts at 1%); Arrow rounds 2^23 - 243 up to 2^23, 1 MiB too. n =
     * 866,456 (2^23 + 8, the last of the half window): 2^23 + 7 bits, 1 MiB; Arrow 2 MiB. */
    expect(RULE("parquet-java"), 866429, 0.01, 8388355, 8388608, 8);
    expect(RULE("parquet-java"), 866430, 0.01, 8388365, 8388608, 8);
    expect(RULE("sbbf"), 866430, 0.01, 8388365, 8388608, 8);
    expect(RULE("parquet-java"), 866456, 0.01, 8388616, 8388608, 8);
    expect(RULE("sbbf"), 866456, 0.01, 8388616, 16777216, 8);
    /* Java's long product -8 * n: at n = 2^61 it is -2^64, 0 mod 2^64, so m = -0.0, (int) 0,
     * 0 + 255 = 255 (bit 8 clear), under the 256-bit minimum: 256 bits, 32 bytes. An NDV
     * past 2^63 - 1 is no Java long: refused. */
    expect(RULE("parquet-java"), UINT64_C(1) << 61, 0.01, 1, 256, 8);
    assert(status_of("parquet-java", (UINT64_C(1) << 63), 0.01) == SIZING_EKEYS);
    assert(strstr(sizing_refusal(RULE("parquet-java"), SIZING_EKEYS), "Java long"));
    assert(status_of("parquet-java", (UINT64_C(1) << 63) - 1, 0.01) == SIZING_OK);
    /* parquet-java-fixed (ColumnValueCollector.java:190-191): 1 MiB whatever n and p. */
    expect(RULE("parquet-java-fixed"), 10000, 0.01, 8388608, 8388608, 8);
    expect(RULE("parquet-java-fixed"), 1000000, 0.001, 8388608, 8388608, 8);
    expect(RULE("parquet-java-fixed"), 1000000000, 0.01, 8388608, 8388608, 8);
    expect(RULE("parquet-java-fixed"), 1, 0.5, 8388608, 8388608, 8);
    /* What 1 MiB delivers at 10^6 keys: 8.39 bits per key in split blocks, 2.73%, where
     * Arrow's 2 MiB gives 0.103%. */
    double x;
    assert(sizing_rate_exact(RULE("parquet-java"), 8388608, 1000000, 0, 8, &x) == SIZING_OK);
    printf("parquet-java 10^6 keys at 1%%: 1 MiB delivers %.6g\n", x);
    assert(x > 0.027 && x < 0.0275);
    printf("parquet-java: ok\n");
}

/* Kudu from 1.13.0 (d1190c2b; block_bloom_filter.cc @3a9f8c31, 1.18.1): MinLogSpace is
 * the least L whose FalsePositiveProb (Putze's Poisson sum, 750 terms, lgamma) is <= p;
 * 2^max(1, L - 5) buckets of 32 bytes; computed 2^L bytes in bits. Up to 1.12
 * (kudu-block): L = ceil(log2(n c / 8)), c = -8 / ln(1 - p^(1/8)). */
static void test_kudu(void)
{
    /* The requested points agree but one: (10^6, 0.1%) is L = 22, 4 MiB, under 1.13, L =
     * 21, 2 MiB, under 1.12. */
    expect(RULE("kudu-block-1.13"), 10000, 0.01, 131072, 131072, 8);
    expect(RULE("kudu-block-1.13"), 1000000, 0.01, 16777216, 16777216, 8);
    expect(RULE("kudu-block-1.13"), 100000000, 0.01, UINT64_C(1) << 30, UINT64_C(1) << 30, 8);
    expect(RULE("kudu-block-1.13"), 1000000000, 0.01, UINT64_C(1) << 34, UINT64_C(1) << 34, 8);
    expect(RULE("kudu-block-1.13"), 10000, 0.001, 262144, 262144, 8);
    expect(RULE("kudu-block-1.13"), 1000000, 0.001, UINT64_C(1) << 25, UINT64_C(1) << 25, 8);
    expect(RULE("kudu-block"), 1000000, 0.001, 14607698, UINT64_C(1) << 24, 8);
    expect(RULE("kudu-block-1.13"), 100000000, 0.001, UINT64_C(1) << 31, UINT64_C(1) << 31, 8);
    expect(RULE("kudu-block-1.13"), 1000000000, 0.001, UINT64_C(1) << 34, UINT64_C(1) << 34, 8);
    /* MaxNdv(20, p), the most keys a 1 MiB filter (L = 20) holds: 796,696 at 1% (10.529
     * bits per key), 496,666 at 0.1% (16.890); one key more takes 2 MiB. 1.12 keeps 1 MiB
     * up to 866,455 keys at 1%. */
    expect(RULE("kudu-block-1.13"), 796696, 0.01, 8388608, 8388608, 8);
    expect(RULE("kudu-block-1.13"), 796697, 0.01, 16777216, 16777216, 8);
    expect(RULE("kudu-block"), 796697, 0.01, 7713244, 8388608, 8);
    expect(RULE("kudu-block"), 866455, 0.01, 8388608, 8388608, 8);
    expect(RULE("kudu-block-1.13"), 496666, 0.001, 8388608, 8388608, 8);
    expect(RULE("kudu-block-1.13"), 496667, 0.001, 16777216, 16777216, 8);
    /* One key: the search never tries L = 0, so L = 1, 2 bytes computed (16 bits); the
     * two-bucket minimum gives 512 bits, as 1.12's L = 0 does. MinLogSpace(0, p) would
     * also be 1, but no design has 0 keys (SIZING_EDOM before the rule). */
    expect(RULE("kudu-block-1.13"), 1, 0.5, 16, 512, 8);
    expect(RULE("kudu-block-1.13"), 1, 0.01, 16, 512, 8);
    assert(status_of("kudu-block-1.13", 0, 0.01) == SIZING_EDOM);
    /* More than 2^32 buckets refused: 10^11 keys at 1% are L = 37, 2^32 buckets; 2^40
     * keys L = 41. */
    expect(RULE("kudu-block-1.13"), UINT64_C(100000000000), 0.01, UINT64_C(1) << 40, UINT64_C(1) << 40, 8);
    assert(status_of("kudu-block-1.13", UINT64_C(1) << 40, 0.01) == SIZING_ECAP);
    printf("kudu: ok\n");
}

/* A design at bits per key, as expect() at a rate. */
static void expect_bpk(const char *rule, uint64_t n, double bpk, uint64_t mc, uint64_t m,
                       unsigned k)
{
    uint64_t gmc, gm;
    unsigned gk;
    assert(sizing_design_bpk(RULE(rule), n, bpk, &gmc, &gm, &gk) == SIZING_OK);
    printf("%-21s n=%-8llu bpk=%-4g computed m=%llu indexed m=%llu k=%u\n", rule,
           (unsigned long long)n, bpk, (unsigned long long)gmc, (unsigned long long)gm, gk);
    assert(gmc == mc && gm == m && gk == k);
}

/* The n <= 100,000 at bpk bits per key where RocksDB 9.2's k (optimize_filters_for_memory
 * on) differs from the option off's, their count and the largest. */
static void k_moves(double bpk, uint64_t *count, uint64_t *largest)
{
    *count = *largest = 0;
    for (uint64_t n = 1; n <= 100000; n++) {
        uint64_t mc, m0, m1;
        unsigned k0, k1;
        assert(sizing_design_bpk(RULE("rocksdb-fastlocal"), n, bpk, &mc, &m0, &k0) == SIZING_OK);
        assert(sizing_design_bpk(RULE("rocksdb-fastlocal-9.2"), n, bpk, &mc, &m1, &k1) ==
               SIZING_OK);
        assert(m0 == m1);
        if (k0 != k1)
            (*count)++, *largest = n;
    }
}

/* RocksDB from 9.2.0 (optimize_filters_for_memory on, 45c10510): CalculateSpace as before
 * (filter_policy.cc:477-491 @1dfa7297), and k = ChooseNumProbes((len_with_metadata - 5) *
 * 8000 / n) (GetNumProbes, :520-531), with no allocator slack. */
static void test_rocksdb_92(void)
{
    /* 100 keys at 10 bits per key: raw (10^6 + 7999) / 8000 = 125 bytes, 2 lines = 128
     * bytes; 128 * 8000 / 100 = 10,240 millibits: k = 7 (<= 11720), where the configured
     * 10,000 give 6. */
    expect_bpk("rocksdb-fastlocal-9.2", 100, 10, 1000, 1024, 7);
    expect_bpk("rocksdb-fastlocal", 100, 10, 1000, 1024, 6);
    /* 10^4: 12,500 bytes, 196 lines = 12,544 bytes, 10,035 millibits: k = 6, as off.
     * 10^6: 1,250,000 bytes, 19,532 lines = 1,250,048 bytes, 10,000 millibits: 6. */
    expect_bpk("rocksdb-fastlocal-9.2", 10000, 10, 100000, 100352, 6);
    expect_bpk("rocksdb-fastlocal", 10000, 10, 100000, 100352, 6);
    expect_bpk("rocksdb-fastlocal-9.2", 1000000, 10, 10000000, 10000384, 6);
    expect_bpk("rocksdb-fastlocal", 1000000, 10, 10000000, 10000384, 6);
    /* 1 key: 2 bytes, one line of 64: 512,000 millibits, k = 24 (past 50,000). 7,117
     * keys: 8,897 bytes, 140 lines = 8,960 bytes, 10,071 millibits: k = 7; 7,118 keys:
     * 10,070: 6, the table's threshold. */
    expect_bpk("rocksdb-fastlocal-9.2", 1, 10, 16, 512, 24);
    expect_bpk("rocksdb-fastlocal-9.2", 7117, 10, 71176, 71680, 7);
    expect_bpk("rocksdb-fastlocal-9.2", 7118, 10, 71184, 71680, 6);
    /* From a rate: 1% is 9,585 millibits; 100 keys: 120 bytes, 128 with the line, 10,240
     * millibits, k = 7 (off: ChooseNumProbes(9585) = 6). */
    expect(RULE("rocksdb-fastlocal-9.2"), 100, 0.01, 960, 1024, 7);
    expect(RULE("rocksdb-fastlocal"), 100, 0.01, 960, 1024, 6);
    /* Over n = 1..100,000 at 10 bits per key, k moves for 3,591 n, the largest 7,117; the
     * largest at 8, 15 and 20 bits per key: 1,665, 478, 232. */
    uint64_t count, largest;
    k_moves(10, &count, &largest);
    printf("rocksdb 9.2 at 10 bits per key: k moves for %llu n <= 10^5, the largest %llu\n",
           (unsigned long long)count, (unsigned long long)largest);
    assert(count == 3591 && largest == 7117);
    k_moves(8, &count, &largest);
    assert(largest == 1665);
    k_moves(15, &count, &largest);
    assert(largest == 478);
    k_moves(20, &count, &largest);
    assert(largest == 232);
    /* The option changes nothing RocksDB refuses: under 0.5 bits per key, no filter. */
    assert(status_of("rocksdb-fastlocal-9.2", 10, 0.9) == SIZING_ENOFILTER);
    printf("rocksdb-9.2: ok\n");
}

/* bloomfilter.js 1.1.0 (npm's bloomfilter-1.1.0.tgz): withTargetError (bloomfilter.js:
 * 182-188) as 0.0.21's, m = ceil(-n log2(p) / LN2), k = ceil(LN2 m / n), m rounded up
 * to 32 bits by the constructor (:22-23); assertBitSize (:198-202) throws a RangeError
 * past MAX_BITS = 2^32 (:1). The bounds were found with the package's own
 * withTargetError in node. */
static void test_bloomfilter_js_110(void)
{
    /* 0.0.21's values: 1,000 keys at 1%, ceil(9,585.06) = 9,586, 300 buckets. */
    expect(RULE("bloomfilter-js-1.1.0"), 1000, 0.01, 9586, 9600, 7);
    expect(RULE("bloomfilter-js"), 1000, 0.01, 9586, 9600, 7);
    /* 3 * 10^8 keys at 1%: 2,875,517,514 bits, 2,875,517,536 in whole buckets, past
     * 0.0.21's 2^31, within 1.1.0's 2^32 (node: m = 2875517536, k = 7). */
    expect(RULE("bloomfilter-js-1.1.0"), 300000000, 0.01, UINT64_C(2875517514),
           UINT64_C(2875517536), 7);
    /* The largest n at 1%: 448,089,842 keys, 4,294,967,294 bits, rounded up to 2^32; one
     * key more computes 4,294,967,304 > 2^32: RangeError, where 0.0.21's withTargetError
     * builds it. At 0.1%: 298,726,561 keys (4,294,967,290 bits, k = 10). */
    expect(RULE("bloomfilter-js-1.1.0"), 448089842, 0.01, UINT64_C(4294967294),
           UINT64_C(1) << 32, 7);
    assert(status_of("bloomfilter-js-1.1.0", 448089843, 0.01) == SIZING_ECAP);
    expect(RULE("bloomfilter-js"), 448089843, 0.01, UINT64_C(4294967304),
           UINT64_C(4294967328), 7);
    expect(RULE("bloomfilter-js-1.1.0"), 298726561, 0.001, UINT64_C(4294967290),
           UINT64_C(1) << 32, 10);
    assert(status_of("bloomfilter-js-1.1.0", 298726562, 0.001) == SIZING_ECAP);
    /* 10^9 keys at 1%: 9,585,058,378 bits, refused, in the library's words. */
    assert(status_of("bloomfilter-js-1.1.0", 1000000000, 0.01) == SIZING_ECAP);
    assert(strstr(sizing_refusal(RULE("bloomfilter-js-1.1.0"), SIZING_ECAP),
                  "RangeError past 2^32 bits"));
    printf("bloomfilter-js 1.1.0: ok\n");
}

int main(void)
{
    test_parquet_java();
    test_kudu();
    test_rocksdb_92();
    test_bloomfilter_js_110();
    return 0;
}
