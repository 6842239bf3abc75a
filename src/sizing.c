/* sizing.c - see sizing.h. */
#include "sizing.h"

#include <math.h>
#include <string.h>

#include "rate.h"
#include "rate_blocked.h"

/* 2^64 as a double: counts at or past it do not fit. */
#define TWO_64 18446744073709551616.0

/* calculateparams and guava. */
static int design_unblocked(sizing_rule_t rule, uint64_t n, double p, uint64_t *m_computed,
                            uint64_t *m, unsigned *k)
{
    const double ln2 = log(2.0);
    double bits;
    if (rule == SIZING_GUAVA) {
        /* (long) (-n * Math.log(p) / (Math.log(2) * Math.log(2))) */
        bits = floor(-(double)n * log(p) / (ln2 * ln2));
    } else {
        /* mdivn := -math.Log(eps) / (ln2 * ln2); m = uint64(math.Ceil(float64(n) * mdivn)) */
        bits = ceil((double)n * (-log(p) / (ln2 * ln2)));
    }
    if (!(bits < TWO_64))
        return SIZING_ETOOBIG;
    uint64_t mm = bits < 1 ? 1 : (uint64_t)bits;
    double kk;
    if (rule == SIZING_GUAVA) /* Math.max(1, (int) Math.round((double) m / n * Math.log(2))),
                               * m the computed numBits, before the array rounds it */
        kk = floor((double)mm / (double)n * ln2 + 0.5);
    else /* k = uint64(math.Ceil(mdivn * ln2)), mdivn as above */
        kk = ceil(-log(p) / (ln2 * ln2) * ln2);
    if (kk > SIZING_MAX_K)
        return SIZING_EPROBES;
    /* Guava: new long[ceil(bits / 64)], bitSize() = 64 * words. mm is at most the
     * largest double below 2^64, 2^64 - 2048, so the rounding cannot overflow. */
    *m = rule == SIZING_GUAVA ? (mm / 64 + (mm % 64 != 0)) * 64 : mm;
    *m_computed = mm;
    *k = kk < 1 ? 1u : (unsigned)kk;
    return SIZING_OK;
}

/* ---- Library rules (sizing.h). Each is the library's arithmetic as shared
 * LIBRARIES.md quotes it, with the library and version it names; n and p are already
 * checked (n >= 1, 0 < p < 1). Java's (long)/(int) casts of a double truncate and
 * saturate; Math.round(x) is floor(x + 0.5). ---- */

#define INT32_MAXD 2147483647.0

static int is_library_rule(sizing_rule_t rule)
{
    return rule >= SIZING_LEVELDB && rule <= SIZING_LAST_LIBRARY;
}

/* The ideal bits per key at p, -ln p / (ln 2)^2: how a rate becomes the bits per key
 * that LevelDB and RocksDB take. */
static double ideal_bpk(double p)
{
    return -log(p) / (log(2.0) * log(2.0));
}

/* RocksDB BloomLikeFilterPolicy (facebook/rocksdb filter_policy.cc, HEAD 1dfa7297):
 * bits_per_key < 0.5 builds no filter, below 1 is 1, 100 at most; millibits_per_key =
 * (int)(bits_per_key * 1000 + 0.500001). */
static int rocksdb_millibits(double bpk, uint64_t *mb)
{
    if (!(bpk >= 0.5))
        return SIZING_ENOFILTER;
    if (bpk < 1.0)
        bpk = 1.0;
    else if (!(bpk < 100.0))
        bpk = 100.0;
    *mb = (uint64_t)(int)(bpk * 1000.0 + 0.500001);
    return SIZING_OK;
}

/* FastLocalBloomImpl::ChooseNumProbes (util/bloom_impl.h, HEAD 1dfa7297). */
static unsigned rocksdb_fastlocal_k(uint64_t mb)
{
    static const struct { uint64_t upto; unsigned k; } t[] = {
        {2080, 1}, {3580, 2}, {5100, 3}, {6640, 4}, {8300, 5}, {10070, 6},
        {11720, 7}, {14001, 8}, {16050, 9}, {18300, 10}, {22001, 11}, {25501, 12},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (mb <= t[i].upto)
            return t[i].k;
    return mb > 50000 ? 24u : (unsigned)((mb - 1) / 2000 - 1);
}

/* Java's Math.max(1, (int) Math.round((double) m / n * Math.log(2))). */
static double java_k(uint64_t m, uint64_t n)
{
    double k = floor((double)m / (double)n * log(2.0) + 0.5);
    return k < 1 ? 1 : k;
}

/* (long) (-n * Math.log(p) / (Math.log(2) * Math.log(2))), Guava's optimalNumOfBits as
 * Spark, ORC and Redisson copy it; saturating at 2^63 - 1 like Java. */
static double java_optimal_bits(uint64_t n, double p)
{
    const double ln2 = log(2.0);
    double x = floor(-(double)n * log(p) / (ln2 * ln2));
    return x > 9223372036854775807.0 ? 9223372036854775807.0 : x;
}

/* Cassandra's BloomCalculations.probs (@07cf56f2): row i buckets per element, column j
 * hash functions; rows end at the first 0 (all the table's rates are positive). */
static const double cass_probs[21][16] = {
    {1.0},
    {1.0, 1.0},
    {1.0, 0.393, 0.400},
    {1.0, 0.283, 0.237, 0.253},
    {1.0, 0.221, 0.155, 0.147, 0.160},
    {1.0, 0.181, 0.109, 0.092, 0.092, 0.101},
    {1.0, 0.154, 0.0804, 0.0609, 0.0561, 0.0578, 0.0638},
    {1.0, 0.133, 0.0618, 0.0423, 0.0359, 0.0347, 0.0364},
    {1.0, 0.118, 0.0489, 0.0306, 0.024, 0.0217, 0.0216, 0.0229},
    {1.0, 0.105, 0.0397, 0.0228, 0.0166, 0.0141, 0.0133, 0.0135, 0.0145},
    {1.0, 0.0952, 0.0329, 0.0174, 0.0118, 0.00943, 0.00844, 0.00819, 0.00846},
    {1.0, 0.0869, 0.0276, 0.0136, 0.00864, 0.0065, 0.00552, 0.00513, 0.00509},
    {1.0, 0.08, 0.0236, 0.0108, 0.00646, 0.00459, 0.00371, 0.00329, 0.00314},
    {1.0, 0.074, 0.0203, 0.00875, 0.00492, 0.00332, 0.00255, 0.00217, 0.00199, 0.00194},
    {1.0, 0.0689, 0.0177, 0.00718, 0.00381, 0.00244, 0.00179, 0.00146, 0.00129, 0.00121,
     0.0012},
    {1.0, 0.0645, 0.0156, 0.00596, 0.003, 0.00183, 0.00128, 0.001, 0.000852, 0.000775,
     0.000744},
    {1.0, 0.0606, 0.0138, 0.005, 0.00239, 0.00139, 0.000935, 0.000702, 0.000574, 0.000505,
     0.00047, 0.000459},
    {1.0, 0.0571, 0.0123, 0.00423, 0.00193, 0.00107, 0.000692, 0.000499, 0.000394, 0.000335,
     0.000302, 0.000287, 0.000284},
    {1.0, 0.054, 0.0111, 0.00362, 0.00158, 0.000839, 0.000519, 0.00036, 0.000275, 0.000226,
     0.000198, 0.000183, 0.000176},
    {1.0, 0.0513, 0.00998, 0.00312, 0.0013, 0.000663, 0.000394, 0.000264, 0.000194, 0.000155,
     0.000132, 0.000118, 0.000111, 0.000109},
    {1.0, 0.0488, 0.00906, 0.0027, 0.00108, 0.00053, 0.000303, 0.000196, 0.00014, 0.000108,
     8.89e-05, 7.77e-05, 7.12e-05, 6.79e-05, 6.71e-05},
};

static int cass_len(int b)
{
    int j = 0;
    while (j < 16 && cass_probs[b][j] > 0)
        j++;
    return j;
}

/* optKPerBuckets[b]: the first j of the row's least rate, at least 1. */
static int cass_optk(int b)
{
    double min = 1.7976931348623157e308;
    int k = 1;
    for (int j = 0; j < cass_len(b); j++)
        if (cass_probs[b][j] < min) {
            min = cass_probs[b][j];
            k = j < 1 ? 1 : j;
        }
    return k;
}

/* bpk: the bits per key given to leveldb and rocksdb-*, or NaN to derive it from p. */
static int design_library(sizing_rule_t rule, uint64_t n, double p, double bpk,
                          uint64_t *m_computed, uint64_t *m, unsigned *k)
{
    const double ln2 = log(2.0);
    uint64_t mc, mm;
    double kk;
    switch (rule) {
    case SIZING_LEVELDB: {
        /* google/leveldb util/bloom.cc (HEAD 78a352f4), BloomFilterPolicy:
         * k = clamp((size_t)(bits_per_key * 0.69), 1, 30) ("We intentionally round
         * down"); CreateFilter: bits = n * bits_per_key, at least 64, rounded up to
         * whole bytes, and positions are h % bits. bits_per_key = ceil(-ln p / ln^2 2)
         * (sizing.h). Computed n * bits_per_key; indexed differs below 64 bits and when
         * it is not a multiple of 8. Indexes never reach 2^32 (h is 32 bits). */
        double b = isnan(bpk) ? ceil(ideal_bpk(p)) : bpk;
        if (!(b < INT32_MAXD))
            return SIZING_ETOOBIG; /* bits_per_key is an int */
        uint64_t wb = (uint64_t)b;
        if (wb && n > (UINT64_MAX - 7) / wb)
            return SIZING_ETOOBIG;
        mc = n * wb;
        mm = mc < 64 ? 64 : (mc + 7) / 8 * 8;
        kk = floor((double)(int)wb * 0.69);
        kk = kk < 1 ? 1 : kk > 30 ? 30 : kk;
        break;
    }
    case SIZING_ROCKSDB_FASTLOCAL: {
        /* facebook/rocksdb (HEAD 1dfa7297) FastLocalBloomBitsBuilder::CalculateSpace:
         * raw = (n * millibits + 7999) / 8000 bytes, capped at 0xffffffc0, rounded up
         * to whole 64-byte cache lines (+5 metadata bytes, not indexed); k =
         * ChooseNumProbes(millibits). Computed 8 raw bits; indexed the whole lines,
         * and the cap (about 2^35 bits) where raw passes it. */
        uint64_t mb;
        int st = rocksdb_millibits(isnan(bpk) ? ideal_bpk(p) : bpk, &mb);
        if (st != SIZING_OK)
            return st;
        if (n > (UINT64_MAX - 7999) / mb)
            return SIZING_ETOOBIG; /* RocksDB's uint64 product would wrap */
        uint64_t raw = (n * mb + 7999) / 8000;
        mc = raw * 8;
        if (raw >= UINT64_C(0xffffffc0))
            raw = UINT64_C(0xffffffc0);
        mm = (raw + 63) / 64 * 64 * 8;
        kk = rocksdb_fastlocal_k(mb);
        break;
    }
    case SIZING_ROCKSDB_LEGACY: {
        /* facebook/rocksdb (HEAD 1dfa7297) LegacyBloomBitsBuilder: whole bits per key
         * (millibits + 500) / 1000; total = min(n * bpk, 0xffff0000); lines =
         * ceil(total / 512), made odd; indexed lines * 512; k =
         * LegacyNoLocalityBloomImpl::ChooseNumProbes = clamp((int)(bpk * 0.69), 1, 30).
         * Computed n * bpk; indexed differs by the odd whole lines and the cap. */
        uint64_t mb;
        int st = rocksdb_millibits(isnan(bpk) ? ideal_bpk(p) : bpk, &mb);
        if (st != SIZING_OK)
            return st;
        uint64_t wb = (mb + 500) / 1000;
        if (n > UINT64_MAX / wb)
            return SIZING_ETOOBIG;
        mc = n * wb;
        uint64_t total = mc < UINT64_C(0xffff0000) ? mc : UINT64_C(0xffff0000);
        uint64_t lines = (total + 511) / 512;
        if (lines % 2 == 0)
            lines++;
        mm = lines * 512;
        kk = floor((double)(int)wb * 0.69);
        kk = kk < 1 ? 1 : kk > 30 ? 30 : kk;
        break;
    }
    case SIZING_SBBF: {
        /* Arrow C++ cpp/src/parquet/bloom_filter.h @04448714 OptimalNumOfBits, and
         * parquet-java BlockSplitBloomFilter (HEAD a3a1de15): bits = -8 n / ln(1 -
         * p^(1/8)), truncated, or 128 MiB of bits if above it; at least 32 bytes;
         * rounded up to a power of two; at most 128 MiB. k = 8 words of a 256-bit
         * block. Computed the truncated formula (saturated at 2^64 - 1); indexed the
         * power of two, clamped to [256, 2^30] bits. */
        const double maxb = 128.0 * 1024 * 1024 * 8;
        double x = -8.0 * (double)n / log(1 - pow(p, 1.0 / 8));
        mc = x < TWO_64 ? (uint64_t)x : UINT64_MAX;
        mm = x < 0 || x > maxb ? (uint64_t)maxb : (uint64_t)x;
        if (mm < 256)
            mm = 256;
        uint64_t pw = 256;
        while (pw < mm)
            pw *= 2;
        mm = pw > (uint64_t)maxb ? (uint64_t)maxb : pw;
        kk = 8;
        break;
    }
    case SIZING_KUDU_BLOCK: {
        /* apache/kudu src/kudu/util/block_bloom_filter.cc @1394746b (the older of the
         * two versions LIBRARIES.md §7 saw; the newer sizes by the Poisson sum):
         * MinLogSpace(ndv, fpp) = max(0, (int)ceil(log2(m / 8))), m = -8 ndv / ln(1 -
         * fpp^(1/8)); InitInternal: log_num_buckets = max(1, log_space_bytes - 5)
         * buckets of 32 bytes, more than 32 refused ("Bloom filter too large"). k = 8
         * words of a 256-bit bucket. Computed ceil(m); indexed the power of two of
         * buckets, at least 2 (512 bits). */
        double x = -8.0 * (double)n / log(1 - pow(p, 1.0 / 8));
        if (!(x < TWO_64))
            return SIZING_ECAP;
        mc = (uint64_t)ceil(x);
        double ls = ceil(log2(x / 8));
        int log_space = ls < 0 ? 0 : (int)ls;
        int log_buckets = log_space - 5 < 1 ? 1 : log_space - 5;
        if (log_buckets > 32)
            return SIZING_ECAP;
        mm = (UINT64_C(1) << log_buckets) * 256;
        kk = 8;
        break;
    }
    case SIZING_SPARK: {
        /* apache/spark common/sketch BloomFilter.java @013bfe4f optimalNumOfBits,
         * optimalNumOfHashFunctions(n, numBits); BitArray.java @3a88ce83 numWords:
         * numBits <= 0 throws "numBits must be positive", more than Integer.MAX_VALUE
         * words throws "Can't allocate enough space". Indexed 64 ceil(m_c / 64). */
        double x = java_optimal_bits(n, p);
        if (x == 0)
            return SIZING_EZERO;
        if (ceil(x / 64.0) > INT32_MAXD)
            return SIZING_ECAP;
        mc = (uint64_t)x;
        mm = (mc + 63) / 64 * 64;
        kk = java_k(mc, n);
        break;
    }
    case SIZING_ORC: {
        /* apache/orc java/core/.../util/BloomFilter.java @02293868: nb = (int)(-n ln p
         * / ln^2 2); numBits = nb + (64 - nb % 64) (a whole word more when nb is a
         * multiple of 64); k = max(1, round(numBits / n ln 2)), from the padded size.
         * numBits is an int: from nb >= 2^31 - 64 it overflows to a negative array
         * size (my reading: refused as a cap). */
        double x = java_optimal_bits(n, p);
        if (x >= INT32_MAXD + 1 - 64)
            return SIZING_ECAP;
        mc = (uint64_t)x;
        mm = mc + (64 - mc % 64);
        kk = java_k(mm, n);
        break;
    }
    case SIZING_REDISSON: {
        /* redisson/redisson RedissonBloomFilter.java @017b8306 tryInit: size =
         * optimalNumOfBits (Guava's); size == 0 throws "Bloom filter calculated size
         * is 0", size > getMaxSize() = 2 Integer.MAX_VALUE throws; k =
         * optimalNumOfHashFunctions(n, size). No rounding: m = m_c. */
        double x = java_optimal_bits(n, p);
        if (x == 0)
            return SIZING_EZERO;
        if (x > 2 * INT32_MAXD)
            return SIZING_ECAP;
        mc = mm = (uint64_t)x;
        kk = java_k(mc, n);
        break;
    }
    case SIZING_BITS_AND_BLOOMS: {
        /* bits-and-blooms/bloom bloom.go (HEAD 289c255a) EstimateParameters: m =
         * ceil(-n ln p / ln^2 2), k = ceil(ln 2 m / n), k from m (not from b as
         * calculateparams); New forces both >= 1; the bitset indexes m = m_c. */
        double x = ceil(-1 * (double)n * log(p) / (ln2 * ln2));
        if (!(x < TWO_64))
            return SIZING_ETOOBIG;
        mc = mm = x < 1 ? 1 : (uint64_t)x;
        kk = ceil(ln2 * (double)(x < 1 ? 0 : x) / (double)n);
        kk = kk < 1 ? 1 : kk;
        break;
    }
    case SIZING_CASSANDRA: {
        /* apache/cassandra FilterFactory.java @02fb2189 getFilter(n, p): buckets per
         * element and K from BloomCalculations.java @07cf56f2 computeBloomSpec(
         * maxBucketsPerElement(n), p): p >= probs[2][1] = 0.393 gives
         * BloomSpecification(2, optKPerBuckets[2]), whose constructor is (k, buckets):
         * K = 2 at 1 bucket per element (the swap LIBRARIES.md §6 describes, kept);
         * p below probs[maxB][last] throws "Unable to satisfy"; else the fewest
         * buckets whose optimal K meets p, then K lowered while probs[b][K-1] <= p.
         * numBits = n b + 20 (BITSET_EXCESS); the bit set allocates ceil(numBits / 64)
         * words, more than Integer.MAX_VALUE refused ("Bloom filter size is > 16GB"),
         * and indexes 64 words. Computed numBits; indexed its whole words. */
        double v = (9223372036854775807.0 - 20) / (double)n;
        if (v < 1.0)
            return SIZING_EKEYS; /* "Cannot compute probabilities for n elements" */
        int maxb = v < 20 ? (int)v : 20;
        int b, kc;
        if (p >= cass_probs[2][1]) {
            b = cass_optk(2);
            kc = 2;
        } else {
            if (p < cass_probs[maxb][cass_len(maxb) - 1])
                return SIZING_ELIBRATE;
            b = 2;
            kc = cass_optk(2);
            while (cass_probs[b][kc] > p)
                kc = cass_optk(++b);
            while (cass_probs[b][kc - 1] <= p)
                kc--;
        }
        mc = n * (uint64_t)b + 20;
        uint64_t words = mc / 64 + (mc % 64 != 0);
        if (words > 2147483647u)
            return SIZING_ECAP;
        mm = words * 64;
        kk = kc;
        break;
    }
    case SIZING_LIBBLOOM:
    case SIZING_LIBBLOOM1: {
        /* jvirkki/libbloom v2.0 (57b35ea2) bloom.c bloom_init2: entries >= 1000 (an
         * unsigned int), bpe = -log(error) / 0.480453013918201, bits = (unsigned
         * long)((long double) entries * bpe), hashes = (unsigned char)ceil(
         * 0.693147180559945 bpe) (constants as in the source); positions are
         * (a + i b) % bits: m = m_c (the bytes round up only the allocation). A k past
         * 255 does not fit hashes; 0 bits would take positions mod 0. */
        if (n < 1000 || n > 4294967295u)
            return SIZING_EKEYS;
        double bpe = -log(p) / 0.480453013918201;
        long double all = (long double)n * bpe;
        if (!(all < 18446744073709551616.0L))
            return SIZING_ETOOBIG;
        mc = mm = (uint64_t)all;
        if (mc == 0)
            return SIZING_EZERO;
        /* libbloom 1.x (up to v1.6): bits is an int, (int)(entries * bpe): past 2^31 - 1
         * it overflows (my reading, LIBRARIES.md §13: refused as a cap). */
        if (rule == SIZING_LIBBLOOM1 && mc > 2147483647u)
            return SIZING_ECAP;
        kk = ceil(0.693147180559945 * bpe);
        if (kk > 255)
            return SIZING_EKFIELD;
        break;
    }
    case SIZING_RUST_BLOOMFILTER: {
        /* jedisct1/rust-bloom-filter 3.0.1 (1eb22d7a) src/lib.rs: bitmap bytes =
         * ceil(n ln p / (-8 ln^2 2)), m = 8 bytes; k = max(1, round(m / n ln 2)).
         * It computes bytes, not bits: m_c = m. */
        double bytes = ceil((double)n * log(p) / (-8.0 * (ln2 * ln2)));
        if (!(bytes < TWO_64 / 8))
            return SIZING_ETOOBIG;
        mc = mm = 8 * (bytes < 1 ? 1 : (uint64_t)bytes);
        kk = round((double)mm / (double)n * ln2);
        kk = kk < 1 ? 1 : kk;
        break;
    }
    case SIZING_FASTBLOOM: {
        /* tomtomwombat/fastbloom 0.17.0 (5bbfc14f) optimal_size: bits = 8 ceil(n ln p
         * / (-8 ln^2 2)), at least 64; storage ceil(bits / 64) u64 words, num_bits =
         * 64 words; k = max(1, round(ln 2 num_bits / n)). Computed the 8-byte count;
         * indexed differs by the 64 minimum and the word rounding. */
        double bytes = ceil((double)n * log(p) / (-8.0 * (ln2 * ln2)));
        if (!(bytes < TWO_64 / 16))
            return SIZING_ETOOBIG;
        mc = 8 * (uint64_t)bytes;
        mm = mc < 64 ? 64 : (mc + 63) / 64 * 64;
        kk = round(ln2 * (double)mm / (double)n);
        kk = kk < 1 ? 1 : kk;
        break;
    }
    case SIZING_HADOOP: {
        /* apache/hadoop BloomMapFile.Writer (as LIBRARIES.md §12; the code read through
         * the code index): HASH_COUNT = 5, float errorRate = conf.getFloat(...),
         * vectorSize = (int)Math.ceil((double)(-HASH_COUNT * numKeys) / Math.log(1.0 -
         * Math.pow(errorRate, 1.0/HASH_COUNT))). p is rounded to a float first;
         * numKeys is an int and -5 numKeys is int arithmetic, so n past
         * Integer.MAX_VALUE / 5 is refused; (int) saturates at 2^31 - 1 bits. The
         * filter indexes vectorSize: m = m_c. */
        if (n > 429496729u)
            return SIZING_EKEYS;
        double pf = (double)(float)p;
        if (!(pf > 0 && pf < 1))
            return SIZING_EDOM; /* p rounds to 0 or 1 as a float */
        double x = ceil((double)(-5 * (int64_t)n) / log(1.0 - pow(pf, 1.0 / 5)));
        mc = mm = x > INT32_MAXD ? (uint64_t)INT32_MAXD : (uint64_t)x;
        if (mc == 0)
            return SIZING_EZERO;
        kk = 5;
        break;
    }
    case SIZING_HIVE_BLOOMK: {
        /* apache/hive storage-api .../common/util/BloomKFilter.java @046c998e: numBits =
         * optimalNumOfBits(n, fpp) (Guava's), k = optimalNumOfHashFunctions(n, numBits);
         * nLongs = ceil(numBits / 64), padded with 8 - nLongs % 8 longs (a whole 512-bit
         * block more when already aligned); m = 64 (nLongs + padLongs) is an int: past
         * 2^31 - 1 it overflows (my reading: refused as a cap). The constructor in the
         * version read fixes fpp at DEFAULT_FPP = 0.05; the rule applies the same
         * formula at the rate given. */
        double x = java_optimal_bits(n, p);
        double words = ceil(x / 64.0);
        double padded = words + (8 - fmod(words, 8.0));
        if (padded * 64.0 > INT32_MAXD)
            return SIZING_ECAP;
        mc = (uint64_t)x;
        mm = (uint64_t)padded * 64;
        kk = java_k(mc, n);
        break;
    }
    case SIZING_REDISBLOOM:
    case SIZING_REDISBLOOM_POW2: {
        /* RedisBloom/RedisBloom deps/bloom/bloom.c (HEAD b28c2945) bloom_init: bpe =
         * -log(error) / ln^2 2; hashes = (int)ceil(0.693147180559945 bpe).
         * redisbloom, the current default (BF.RESERVE and auto-created filters pass
         * BLOOM_OPT_NOROUND | BLOOM_OPT_FORCE64, rebloom.c; tag v2.2.0 on): bits =
         * (uint64_t)(entries bpe), at least 1, rounded up to whole 64-bit words; and
         * error is the user's rate times 0.5, ERROR_TIGHTENING_RATIO, which sb.c's
         * SB_NewChain applies to the first filter of every scaling filter (BF.RESERVE
         * without NONSCALING; RedisBloom#717): the filter is built for p/2.
         * redisbloom-pow2, before NOROUND (2017 to 2019-12): n2 = logb(entries bpe) + 1,
         * bits = 2^n2 (strictly above entries bpe, doubling an exact power of two), at
         * the user's rate: RedisBloom#28 (2018-02; 478,361,140 entries at 1e-6 got
         * 2^34 bits and k = 20) shows no halving then. n2 <= 63. */
        double e = rule == SIZING_REDISBLOOM ? p * 0.5 : p;
        double bpe = -log(e) / (ln2 * ln2);
        double all = (double)n * bpe;
        if (rule == SIZING_REDISBLOOM) {
            if (!(all < TWO_64 - 64))
                return SIZING_ETOOBIG;
            mc = all < 1 ? 1 : (uint64_t)all;
            mm = (mc + 63) / 64 * 64;
        } else {
            int n2 = (int)logb(all) + 1;
            if (n2 > 63)
                return SIZING_ETOOBIG;
            mc = all < 1 ? 1 : (uint64_t)all;
            mm = UINT64_C(1) << (n2 < 0 ? 0 : n2);
            if (mm < 64)
                mm = 64; /* bytes = 8: one whole word, as the rounding to words gives */
        }
        kk = ceil(0.693147180559945 * bpe);
        break;
    }
    case SIZING_COMMONS: {
        /* apache/commons-collections (HEAD cf36204c, 4.6.1-SNAPSHOT) bloomfilter/
         * Shape.java fromNP: m = ceil(n ln p / -ln^2 2), more than Integer.MAX_VALUE
         * throws ("Resulting filter has more than Integer.MAX_VALUE bits"); k =
         * Math.round(ln 2 m / n), 0 throws ("Filter too small"). */
        double x = ceil((double)n * log(p) / -(ln2 * ln2));
        if (x > INT32_MAXD)
            return SIZING_ECAP;
        mc = mm = (uint64_t)x;
        kk = floor(ln2 * x / (double)n + 0.5);
        if (kk < 1)
            return SIZING_ENOFILTER;
        break;
    }
    case SIZING_PYBLOOM_LIVE: {
        /* joseph-fox/python-bloomfilter 4.0.0 (da1a8b3d) pybloom.py BloomFilter.__init__:
         * num_slices = ceil(log2(1 / p)), bits_per_slice = ceil(n |ln p| / (num_slices
         * ln^2 2)), m = num_slices bits_per_slice (a partitioned filter). */
        double slices = ceil(log2(1.0 / p));
        double s = ceil((double)n * fabs(log(p)) / (slices * ln2 * ln2));
        if (!(s * slices < TWO_64))
            return SIZING_ETOOBIG;
        kk = slices < 1 ? 1 : slices;
        mc = mm = (uint64_t)kk * (uint64_t)s;
        break;
    }
    case SIZING_BLOOMFILTER_JS: {
        /* jasondavies/bloomfilter.js 0.0.21 (ad00141a) withTargetError(n, p): m =
         * ceil(-n log2(p) / ln 2), k = ceil(ln 2 m / n); the constructor allocates
         * ceil(m / 32) Int32 buckets and indexes m = 32 of them. Indexes past 2^31 go
         * wrong in JavaScript (LIBRARIES.md §16); the scheme refuses such m. */
        double x = ceil(-(double)n * log2(p) / ln2);
        if (!(x < TWO_64 - 32))
            return SIZING_ETOOBIG;
        mc = x < 1 ? 1 : (uint64_t)x;
        mm = (mc + 31) / 32 * 32;
        kk = ceil(ln2 * (double)mc / (double)n);
        kk = kk < 1 ? 1 : kk;
        break;
    }
    default:
        return SIZING_EDOM;
    }
    if (kk > SIZING_MAX_K)
        return SIZING_EPROBES;
    *m_computed = mc;
    *m = mm;
    *k = (unsigned)kk;
    return SIZING_OK;
}

static int is_block_rule(sizing_rule_t rule)
{
    return rule == SIZING_SPLIT_BLOCK_FORMULA || rule == SIZING_SPLIT_BLOCK_EXACT ||
           rule == SIZING_BLOCKED_EXACT;
}

int sizing_rule_is_library(sizing_rule_t rule)
{
    return is_library_rule(rule);
}

uint64_t sizing_rule_block_bits(sizing_rule_t rule)
{
    if (rule == SIZING_BLOCKED_EXACT)
        return SIZING_BLOCKED_BITS;
    return is_block_rule(rule) ? SIZING_SPLIT_BLOCK_BITS : 0;
}

/* The block size (0: the rule's default) if it and k fit the rule, else 0. k == 0 asks
 * for the default (split-block: SIZING_SPLIT_BLOCK_K; blocked: the best k). */
static uint64_t block_geometry(sizing_rule_t rule, uint64_t block, unsigned k)
{
    if (!is_block_rule(rule) || k > SIZING_MAX_K)
        return 0;
    uint64_t B = block ? block : sizing_rule_block_bits(rule);
    if (rule == SIZING_BLOCKED_EXACT)
        return B <= RATE_DP_M_MAX ? B : 0;
    unsigned kk = k ? k : SIZING_SPLIT_BLOCK_K;
    return B >= kk && B % kk == 0 ? B : 0;
}

/* The exact rate of the block rule's filter; SIZING_OK or SIZING_ERATE. */
static int block_rate(sizing_rule_t rule, uint64_t m, uint64_t B, uint64_t n, unsigned k,
                      double *out)
{
    int st = rule == SIZING_BLOCKED_EXACT ? rate_blocked_exact(m, B, n, k, out)
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
static int try_blocks(sizing_rule_t rule, uint64_t B, uint64_t n, unsigned k, uint64_t z,
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
static int design_exact(sizing_rule_t rule, uint64_t n, double p, uint64_t B, unsigned k,
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

int sizing_design_blocked(sizing_rule_t rule, uint64_t n, double p, uint64_t block,
                          unsigned k, uint64_t *m_computed, uint64_t *m, unsigned *k_out)
{
    if (!is_block_rule(rule)) {
        if (block || k)
            return SIZING_EBLOCK;
        if (n == 0 || !(p > 0 && p < 1))
            return SIZING_EDOM;
        if (is_library_rule(rule))
            return design_library(rule, n, p, NAN, m_computed, m, k_out);
        return design_unblocked(rule, n, p, m_computed, m, k_out);
    }
    uint64_t B = block_geometry(rule, block, k);
    if (!B)
        return SIZING_EBLOCK;
    if (n == 0 || !(p > 0 && p < 1))
        return SIZING_EDOM;
    if (rule != SIZING_BLOCKED_EXACT && !k)
        k = SIZING_SPLIT_BLOCK_K;
    if (rule == SIZING_SPLIT_BLOCK_FORMULA) {
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

int sizing_design_bpk(sizing_rule_t rule, uint64_t n, double bits_per_key,
                      uint64_t *m_computed, uint64_t *m, unsigned *k)
{
    if (rule != SIZING_LEVELDB && rule != SIZING_ROCKSDB_FASTLOCAL &&
        rule != SIZING_ROCKSDB_LEGACY)
        return SIZING_EBPK;
    if (isnan(bits_per_key) ||
        (rule == SIZING_LEVELDB && (bits_per_key < 0 || bits_per_key != floor(bits_per_key))))
        return SIZING_EBPK;
    if (n == 0)
        return SIZING_EDOM;
    return design_library(rule, n, 0.5, bits_per_key, m_computed, m, k);
}

int sizing_design_full(sizing_rule_t rule, uint64_t n, double p, uint64_t *m_computed,
                       uint64_t *m, unsigned *k)
{
    return sizing_design_blocked(rule, n, p, 0, 0, m_computed, m, k);
}

int sizing_design(sizing_rule_t rule, uint64_t n, double p, uint64_t *m, unsigned *k)
{
    uint64_t computed;
    return sizing_design_full(rule, n, p, &computed, m, k);
}

int sizing_rate_exact(sizing_rule_t rule, uint64_t m, uint64_t n, uint64_t block, unsigned k,
                      double *out)
{
    if (is_library_rule(rule)) {
        /* rocksdb-* and hive-bloomk: 512-bit lines, k positions in one; sbbf and
         * kudu-block: 256-bit blocks of 8 words; pybloom-live: k slices of m/k bits;
         * the others unblocked. */
        int rocks = rule == SIZING_ROCKSDB_FASTLOCAL || rule == SIZING_ROCKSDB_LEGACY ||
                    rule == SIZING_HIVE_BLOOMK;
        int split = rule == SIZING_SBBF || rule == SIZING_KUDU_BLOCK;
        int slices = rule == SIZING_PYBLOOM_LIVE;
        if (block || k == 0 || m == 0 || (rocks && m % 512) || (split && (m % 256 || k != 8)) ||
            (slices && m % k))
            return SIZING_EBLOCK;
        if (slices) {
            *out = rate_partitioned_exact(m / k, n, k);
            return SIZING_OK;
        }
        int st = rocks ? rate_blocked_exact(m, 512, n, k, out)
               : split ? rate_split_block_exact(m, 256, n, 8, out)
                                     : rate_exact(m, n, k, out);
        return st == RATE_OK ? SIZING_OK : SIZING_ERATE;
    }
    if (!is_block_rule(rule)) {
        if (block)
            return SIZING_EBLOCK;
        return rate_exact(m, n, k, out) == RATE_OK ? SIZING_OK : SIZING_ERATE;
    }
    uint64_t B = block_geometry(rule, block, k);
    if (!B || k == 0 || m == 0 || m % B != 0)
        return SIZING_EBLOCK;
    return block_rate(rule, m, B, n, k, out);
}

/* Indexed by sizing_rule_t. */
static const char *const rule_names[] = {
    [SIZING_CALCULATEPARAMS] = "calculateparams",
    [SIZING_GUAVA] = "guava",
    [SIZING_SPLIT_BLOCK_FORMULA] = "split-block-formula",
    [SIZING_SPLIT_BLOCK_EXACT] = "split-block-exact",
    [SIZING_BLOCKED_EXACT] = "blocked-exact",
    [SIZING_LEVELDB] = "leveldb",
    [SIZING_ROCKSDB_FASTLOCAL] = "rocksdb-fastlocal",
    [SIZING_ROCKSDB_LEGACY] = "rocksdb-legacy",
    [SIZING_SBBF] = "sbbf",
    [SIZING_KUDU_BLOCK] = "kudu-block",
    [SIZING_SPARK] = "spark",
    [SIZING_ORC] = "orc",
    [SIZING_REDISSON] = "redisson",
    [SIZING_BITS_AND_BLOOMS] = "bits-and-blooms",
    [SIZING_CASSANDRA] = "cassandra",
    [SIZING_LIBBLOOM] = "libbloom",
    [SIZING_RUST_BLOOMFILTER] = "rust-bloomfilter",
    [SIZING_FASTBLOOM] = "fastbloom",
    [SIZING_HADOOP] = "hadoop",
    [SIZING_HIVE_BLOOMK] = "hive-bloomk",
    [SIZING_REDISBLOOM] = "redisbloom",
    [SIZING_REDISBLOOM_POW2] = "redisbloom-pow2",
    [SIZING_COMMONS] = "commons",
    [SIZING_PYBLOOM_LIVE] = "pybloom-live",
    [SIZING_BLOOMFILTER_JS] = "bloomfilter-js",
    [SIZING_LIBBLOOM1] = "libbloom-1",
};

const char *sizing_rule_name(sizing_rule_t rule)
{
    size_t i = (size_t)rule;
    return i < sizeof rule_names / sizeof rule_names[0] ? rule_names[i] : "calculateparams";
}

int sizing_rule_parse(const char *s, sizing_rule_t *rule)
{
    for (size_t i = 0; i < sizeof rule_names / sizeof rule_names[0]; i++)
        if (strcmp(s, rule_names[i]) == 0) {
            *rule = (sizing_rule_t)i;
            return 0;
        }
    return -1;
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
    case SIZING_EKEYS: return "the library refuses this key count (libbloom: 1000 to 2^32 - 1; "
                              "hadoop: at most 429496729)";
    case SIZING_EZERO: return "the library computes 0 bits at this rate and refuses the filter";
    case SIZING_ENOFILTER: return "the library builds no filter at this rate (RocksDB: under 0.5 "
                                  "bits per key; Commons Collections: k rounds to 0)";
    case SIZING_ELIBRATE: return "the library refuses a target rate this low (Cassandra: below "
                                 "6.71e-05)";
    case SIZING_EBPK: return "bits per key apply only to leveldb (a whole number >= 0), "
                             "rocksdb-fastlocal and rocksdb-legacy";
    case SIZING_EKFIELD: return "the library's field for k cannot hold the k it computes";
    default: return "unknown sizing error";
    }
}

int sizing_stack(sizing_rule_t rule, uint64_t c0, double eps, double s, double r,
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
