/* library.c - see library.h. Each entry's version is the code the scheme and the sizing
 * rule follow (their comments in scheme.c and sizing.c quote the arithmetic); the
 * reports are the issues and pull requests shared LIBRARIES.md cites. */
#include "library.h"

#include <string.h>

static const library_t libraries[] = {
    {.name = "guava-2012",
     .version = "Guava MURMUR128_MITZ_32 (2012 to 12.0; still read from old serialised "
                "filters), BloomFilterStrategies.java @0d6dbae8, BloomFilter.java @769e1e9c",
     .scheme = "guava32", .sizing = SIZING_GUAVA, .hash = "2 x 32-bit (one 64-bit)",
     .cause = "arithmetic: int32 sums flipped to [0, 2^31), then mod m: uneven once m > "
              "2^30, indexes below 2^31",
     .report = "google/guava#1119: 3e-6 measured for a 1e-6 design of 3*2^29 bits"},
    {.name = "guava",
     .version = "Guava MURMUR128_MITZ_64 (the default since 13.0), "
                "BloomFilterStrategies.java @0d6dbae8, BloomFilter.java @769e1e9c",
     .scheme = "guava64", .sizing = SIZING_GUAVA, .hash = "2 x 64-bit",
     .cause = "none expected (63-bit sums mod m)", .report = ""},
    {.name = "spark-v1",
     .version = "Apache Spark sketch BloomFilterImpl.java @0314963e (Guava's MITZ_32 loop: "
                "scheme guava32), BloomFilter.java @013bfe4f",
     .scheme = "guava32", .sizing = SIZING_SPARK, .hash = "2 x 32-bit",
     .cause = "arithmetic: as guava-2012, indexes below 2^31",
     .report = "apache/spark PR #50933: 76.0% measured at 10^9 keys designed for 1% "
               "(9,585,058,432 bits)"},
    {.name = "spark-v2",
     .version = "Apache Spark sketch BloomFilterImplV2.java @c06cb38c, BloomFilter.java "
                "@013bfe4f",
     .scheme = "spark-v2", .sizing = SIZING_SPARK, .hash = "2 x 32-bit",
     .cause = "none expected (h1 (2^31 - 1) + i h2 in 64 bits)", .report = ""},
    {.name = "orc",
     .version = "Apache ORC util/BloomFilter.java @02293868 and Hive storage-api "
                "BloomFilter.java @0761f6be (Guava's MITZ_32 loop; Hive's multipliers 2..k+1 "
                "are the same in distribution: scheme guava32)",
     .scheme = "guava32", .sizing = SIZING_ORC, .hash = "2 x 32-bit (one 64-bit)",
     .cause = "arithmetic: as guava-2012, but m is an int (below 2^31): the unevenness "
              "only near 2^31",
     .report = ""},
    {.name = "hive-bloomk",
     .version = "Apache Hive storage-api BloomKFilter.java @046c998e",
     .scheme = "hive-bloomk", .sizing = SIZING_HIVE_BLOOMK, .hash = "2 x 32-bit (one 64-bit)",
     .cause = "blocking: 512-bit blocks sized by the unblocked formula; strides 0 mod 512 "
              "(1 in 512)",
     .report = ""},
    {.name = "rocksdb",
     .version = "RocksDB FastLocalBloom (format_version 5, the default since 7.0), "
                "util/bloom_impl.h and filter_policy.cc at 1dfa7297",
     .scheme = "rocksdb-fastlocal", .sizing = SIZING_ROCKSDB_FASTLOCAL, .hash = "64-bit",
     .cause = "blocking: 512-bit cache lines (RocksDB's own estimate includes it)",
     .report = "RocksDB bloom_impl.h: 0.957% at 10 bits per key and 6 probes"},
    {.name = "rocksdb-legacy",
     .version = "RocksDB legacy full filter (format_version <= 4), LegacyLocalityBloomImpl "
                "at 1dfa7297; also Pebble's table filter",
     .scheme = "rocksdb-legacy", .sizing = SIZING_ROCKSDB_LEGACY, .hash = "32-bit",
     .cause = "hash width: one 32-bit word for line and probes (floor about n/2^32); "
              "blocking; strides 0 mod 512",
     .report = "facebook/rocksdb PR #6317: at 15 bits per key 0.668% at 15M keys and 0.880% "
               "at 25M against 0.379% at 150K; at 10 bits per key 1.13x at 10M, 1.39x at 25M"},
    {.name = "leveldb",
     .version = "LevelDB util/bloom.cc at 78a352f4; also Pebble's block filter",
     .scheme = "leveldb", .sizing = SIZING_LEVELDB, .hash = "32-bit",
     .cause = "hash width: one 32-bit word for all probes (floor about n/2^32); filters "
              "cover 2 KB of data in practice",
     .report = "facebook/rocksdb#4120 (the same arithmetic)"},
    {.name = "cassandra",
     .version = "Apache Cassandra utils/BloomFilter.java @02c34893, FilterFactory.java "
                "@02fb2189, BloomCalculations.java @07cf56f2",
     .scheme = "cassandra", .sizing = SIZING_CASSANDRA, .hash = "2 x 64-bit",
     .cause = "sizing: a table of whole buckets per element; fp_chance >= 0.393 gets 1 "
              "bucket and 2 probes (constructor arguments swapped)",
     .report = "scylladb/scylladb#31204: the swap, about 0.748 for any fp_chance in "
               "[0.393, 1)"},
    {.name = "parquet",
     .version = "Parquet split-block filter: Arrow C++ parquet/bloom_filter.h @04448714, "
                "parquet-java BlockSplitBloomFilter at a3a1de15",
     .scheme = "sbbf", .sizing = SIZING_SBBF, .hash = "64-bit",
     .cause = "sizing and blocking: the formula ignores uneven block loads; sizes rounded "
              "up to a power of two bytes, at most 128 MiB",
     .report = "apache/parquet-format#547: the formula's sizes are below the "
               "specification's table"},
    {.name = "kudu",
     .version = "Apache Kudu / Impala block filter, util/block_bloom_filter.cc @1394746b "
                "(older MinLogSpace sizing)",
     .scheme = "kudu-block", .sizing = SIZING_KUDU_BLOCK, .hash = "32-bit",
     .cause = "hash width (one 32-bit word), sizing and blocking as parquet",
     .report = "lance-format/lance#4730: Impala's rate estimate low \"by a factor of 8 or "
               "more\""},
    {.name = "redisbloom",
     .version = "RedisBloom (BF.RESERVE, v2.2.0 on) deps/bloom/bloom.c and sb.c at b28c2945",
     .scheme = "redisbloom", .sizing = SIZING_REDISBLOOM, .hash = "2 x 64-bit",
     .cause = "none expected: builds its first filter for p/2 (over-delivers)",
     .report = "RedisBloom/RedisBloom#717: the error rate used is half the one asked"},
    {.name = "redisbloom-2018",
     .version = "RedisBloom 2018-02 (dc7d8095) to 2019-12 (PR #155): bloom_check_add64 on "
                "a power-of-two m, double hashing of two 64-bit words (scheme double)",
     .scheme = "double", .sizing = SIZING_REDISBLOOM_POW2, .hash = "2 x 64-bit",
     .cause = "sizing: m rounded up to a power of two (over-delivers); strides of any "
              "parity (floor about 1/m)",
     .report = ""},
    {.name = "redisbloom-2017",
     .version = "rebloom 1.0.0 to 1.1.0 (2017-09 to 2018-01), contrib/bloom.c at 57a032dd: "
                "bloom_check_add32, two 32-bit words summed in u32 before mod 2^n2",
     .scheme = "redisbloom-u32", .sizing = SIZING_REDISBLOOM_POW2, .hash = "2 x 32-bit",
     .cause = "arithmetic: indexes below 2^32 while m = 2^n2 can be larger",
     .report = "RedisBloom/RedisBloom#28: about 25% observed, 2^34 bits, k = 20, "
               "478,361,140 items, designed for 1e-6"},
    {.name = "redisson",
     .version = "Redisson RedissonBloomFilter.java @017b8306",
     .scheme = "redisson", .sizing = SIZING_REDISSON, .hash = "2 x 64-bit",
     .cause = "arithmetic: odd probes are multiples of h1 + h2 (two interleaved "
              "progressions, one anchored at 0)",
     .report = "redisson/redisson#2166: size cap 2 Integer.MAX_VALUE"},
    {.name = "bits-and-blooms",
     .version = "bits-and-blooms/bloom (Go) bloom.go at 289c255a",
     .scheme = "bits-and-blooms", .sizing = SIZING_BITS_AND_BLOOMS, .hash = "4 x 64-bit",
     .cause = "none expected", .report = ""},
    {.name = "commons-collections",
     .version = "Apache Commons Collections 4.5+ EnhancedDoubleHasher.java and Shape.java at "
                "cf36204c",
     .scheme = "commons-enhanced", .sizing = SIZING_COMMONS, .hash = "2 x 64-bit",
     .cause = "none expected below its 2^31 - 1 bit cap", .report = ""},
    {.name = "hadoop",
     .version = "Apache Hadoop util/bloom/BloomFilter.java @48817814, HashFunction.java "
                "@51ed1d7b; BloomMapFile's sizing",
     .scheme = "hadoop", .sizing = SIZING_HADOOP, .hash = "k x 32-bit",
     .cause = "arithmetic: Math.abs(int % m) on int32 words, m below 2^31; k fixed at 5",
     .report = ""},
    {.name = "libbloom",
     .version = "libbloom 2.0 (jvirkki/libbloom 57b35ea2) bloom.c",
     .scheme = "libbloom", .sizing = SIZING_LIBBLOOM, .hash = "2 x 32-bit",
     .cause = "arithmetic: a + i b of 32-bit words, exact in 64 bits: probe 0 below 2^32, "
              "probe i below (i + 1) 2^32",
     .report = "jvirkki/libbloom#20, #14: size types"},
    {.name = "libbloom-1",
     .version = "libbloom 1.x (up to v1.6): (a + i b) in u32, then mod m (m an int); "
                "scheme guava32u, whose h1 + i h2 from i = 1 is a + i b from i = 0 with "
                "a = h1 + h2",
     .scheme = "guava32u", .sizing = SIZING_LIBBLOOM1, .hash = "2 x 32-bit",
     .cause = "arithmetic: u32 sums mod m, uneven near 2^31 (m is an int)",
     .report = "jvirkki/libbloom#14: types limit size"},
    {.name = "rust-bloomfilter",
     .version = "Rust bloomfilter 3.0.1 (jedisct1/rust-bloom-filter 1eb22d7a) src/lib.rs",
     .scheme = "rust-bloomfilter", .sizing = SIZING_RUST_BLOOMFILTER, .hash = "2 x 64-bit",
     .cause = "none expected", .report = ""},
    {.name = "fastbloom",
     .version = "Rust fastbloom 0.17.0 (5bbfc14f)",
     .scheme = "fastbloom", .sizing = SIZING_FASTBLOOM, .hash = "64-bit",
     .cause = "none expected (floor about n/2^64)", .report = ""},
    {.name = "pybloom-live",
     .version = "pybloom-live 4.0.0 (joseph-fox/python-bloomfilter da1a8b3d) pybloom.py",
     .scheme = "pybloom-live", .sizing = SIZING_PYBLOOM_LIVE, .hash = "k x 16, 32 or 64-bit",
     .cause = "arithmetic: slices below 2^15 bits take 16-bit words mod s: uneven for "
              "slices of about 8K to 32K bits",
     .report = ""},
    {.name = "bloomfilter-js",
     .version = "bloomfilter.js 0.0.21 (jasondavies/bloomfilter.js ad00141a)",
     .scheme = "bloomfilter-js", .sizing = SIZING_BLOOMFILTER_JS, .hash = "2 x 32-bit",
     .cause = "arithmetic: int32 words mod m, uneven as m nears 2^31 (m at most 2^31)",
     .report = ""},
    {.name = "bloomfilter-js-0.0.17",
     .version = "bloomfilter.js 0.0.17 to 0.0.18 (2018-04 to 2024-12): double hashing of "
                "two independent 32-bit FNV words",
     .scheme = "bloomfilter-js-0.0.17", .sizing = SIZING_BLOOMFILTER_JS,
     .hash = "2 x 32-bit",
     .cause = "arithmetic: double hashing of 32-bit words; positions kept mod 2^32 above "
              "2^32 bits (sized here by 0.0.21's rule)",
     .report = "jasondavies/bloomfilter.js#31: 1024 bits, k = 16, 20 items, about 4 "
               "collisions in 500"},
    {.name = "bloomfilter-js-0.0.16",
     .version = "bloomfilter.js up to 0.0.16 (2012 to 2018): the stride a function of the "
                "first 32-bit FNV word",
     .scheme = "bloomfilter-js-0.0.16", .sizing = SIZING_BLOOMFILTER_JS, .hash = "32-bit",
     .cause = "hash width: one 32-bit word for all probes (0.0.16's fnv_1a_b; sized here "
              "by 0.0.21's rule)",
     .report = "jasondavies/bloomfilter.js#15: about 3e-2 observed for a 5e-7 design "
               "(12M keys, 425M bits, k = 24)"},
    {.name = "bendersky",
     .version = "Eli Bendersky's Go filter, eliben/code-for-blog 2025/bloom/bloom.go "
                "@ec2c2dd5 (seed 002): RedisBloom's arithmetic, CalculateParams",
     .scheme = "redisbloom", .sizing = SIZING_CALCULATEPARAMS, .hash = "2 x 64-bit",
     .cause = "none expected beyond the double-hashing floor (about 1/m)", .report = ""},
};

size_t library_count(void)
{
    return sizeof libraries / sizeof libraries[0];
}

const library_t *library_at(size_t i)
{
    return i < library_count() ? &libraries[i] : NULL;
}

const library_t *library_find(const char *name)
{
    for (size_t i = 0; i < library_count(); i++)
        if (strcmp(libraries[i].name, name) == 0)
            return &libraries[i];
    return NULL;
}

const scheme_t *library_scheme(const library_t *lib)
{
    return scheme_find(lib->scheme);
}
