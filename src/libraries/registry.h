/* registry.h - the catalogues users choose from: probe schemes, sizing rules and the
 * libraries bloomsim audits, one line an entry, in the order `bloomsim list`, `size
 * --help` and `audit --list` show them (and tables and golden digests are kept in).
 *
 * Each entry names a descriptor defined in its own file: a generic scheme in
 * src/schemes/, a generic rule in sizing.c, and everything of a library (its schemes,
 * rules and rows) in its file under src/libraries/. An entry X(id) stands for
 * scheme_id, sizing_id or library_id; registry.c builds the tables from these lists,
 * the declarations below let one library's file name another's scheme (Spark's V1
 * is Guava's loop), and the accessors at the end are how every caller reads the
 * catalogues (by index or by name). Adding a library is its file and its lines here: one
 * line in REGISTRY_LIBRARY_FILES where its file defines one scheme, one rule and one row
 * of its name.
 */
#ifndef BLOOMSIM_REGISTRY_H
#define BLOOMSIM_REGISTRY_H

#include "libraries/chain.h"
#include "libraries/library.h"
#include "schemes/scheme.h"
#include "rates/sizing.h"

#define REGISTRY_SCHEMES(X)   \
    X(independent)            \
    X(partitioned)            \
    X(double)                 \
    X(double_odd)             \
    X(double_even)            \
    X(double_prime)           \
    X(enhanced)               \
    X(squares)                \
    X(triple)                 \
    X(guava32)                \
    X(guava32u)               \
    X(guava64)                \
    X(hash32)                 \
    X(blocked)                \
    X(split_block)            \
    X(leveldb)                \
    X(rocksdb_legacy)         \
    X(rocksdb_fastlocal)      \
    X(sbbf)                   \
    X(kudu_block)             \
    X(hive_bloomk)            \
    X(redisson)               \
    X(fastbloom)              \
    X(hadoop)                 \
    X(bits_and_blooms)        \
    X(spark_v2)               \
    X(cassandra)              \
    X(commons_enhanced)       \
    X(libbloom)               \
    X(rust_bloomfilter)       \
    X(pybloom_live)           \
    X(bloomfilter_js)         \
    X(bloomfilter_js_21)      \
    X(redisbloom)             \
    X(redisbloom_u32)         \
    X(bloomfilter_js_17)      \
    X(bloomfilter_js_16)      \
    X(bloom_filters)

#define REGISTRY_SIZING_RULES(X) \
    X(calculateparams)           \
    X(guava)                     \
    X(split_block_formula)       \
    X(split_block_exact)         \
    X(blocked_exact)             \
    X(leveldb)                   \
    X(rocksdb_fastlocal)         \
    X(rocksdb_fastlocal_92)      \
    X(rocksdb_legacy)            \
    X(sbbf)                      \
    X(parquet_java)              \
    X(parquet_java_fixed)        \
    X(kudu_block)                \
    X(kudu_block_113)            \
    X(spark)                     \
    X(orc)                       \
    X(redisson)                  \
    X(bits_and_blooms)           \
    X(cassandra)                 \
    X(libbloom)                  \
    X(rust_bloomfilter)          \
    X(fastbloom)                 \
    X(hadoop)                    \
    X(hive_bloomk)               \
    X(redisbloom)                \
    X(redisbloom_pow2)           \
    X(commons)                   \
    X(pybloom_live)              \
    X(bloomfilter_js)            \
    X(bloomfilter_js_110)        \
    X(libbloom_1)                \
    X(bloom_filters)             \
    X(guava_12)

#define REGISTRY_LIBRARIES(X) \
    X(guava_2012)             \
    X(guava)                  \
    X(spark_v1)               \
    X(spark_v2)               \
    X(orc)                    \
    X(hive_bloomk)            \
    X(rocksdb)                \
    X(rocksdb_92)             \
    X(rocksdb_legacy)         \
    X(leveldb)                \
    X(cassandra)              \
    X(parquet)                \
    X(parquet_java)           \
    X(parquet_java_fixed)     \
    X(kudu)                   \
    X(kudu_112)               \
    X(redisbloom)             \
    X(redisbloom_2018)        \
    X(redisbloom_2017)        \
    X(redisson)               \
    X(bits_and_blooms)        \
    X(commons_collections)    \
    X(hadoop)                 \
    X(libbloom)               \
    X(libbloom_1)             \
    X(rust_bloomfilter)       \
    X(fastbloom)              \
    X(pybloom_live)           \
    X(bloomfilter_js)         \
    X(bloomfilter_js_21)      \
    X(bloomfilter_js_17)      \
    X(bloomfilter_js_16)      \
    X(bendersky)              \
    X(bloom_filters)

/* The libraries' scalable filters (libraries/chain.h): X(id) stands for chain_id. */
#define REGISTRY_CHAINS(X)   \
    X(redisbloom)            \
    X(pybloom_live)          \
    X(valkey_bloom)          \
    X(growable_bloom_filter) \
    X(boomfilters_scalable)  \
    X(bloom_filters_scalable)

/* The words for a status scheme s's geometry returned: for SCHEME_EMBIG, the caps of
 * every scheme that has one (its m_cap, under its m_cap_as or name), for SCHEME_ELOSES
 * s's own loses where it has one, else scheme_strerror(status). The text may lie in a
 * buffer of the calling thread's, valid until its next call. */
const char *scheme_refusal(const scheme_t *s, int status);

/* Libraries whose file defines one scheme, one sizing rule and one row, each named id
 * (scheme_id, sizing_id, library_id): one line here lists all three, after the entries
 * of the lists above. */
#define REGISTRY_LIBRARY_FILES(X) \
    X(dcso_bloom)                 \
    X(blobloom)                   \
    X(bloom_filters_slices)       \
    X(growable_bloom)             \
    X(boomfilters_partitioned)    \
    /* each library's line, X(id) and a backslash, goes above this one */

#define REGISTRY_EXTERN_SCHEME(id) extern const scheme_t scheme_##id;
#define REGISTRY_EXTERN_SIZING(id) extern const sizing_rule_t sizing_##id;
#define REGISTRY_EXTERN_LIBRARY(id) extern const library_t library_##id;
#define REGISTRY_EXTERN_CHAIN(id) extern const library_chain_t chain_##id;
#define REGISTRY_EXTERN_FILE(id) \
    REGISTRY_EXTERN_SCHEME(id) REGISTRY_EXTERN_SIZING(id) REGISTRY_EXTERN_LIBRARY(id)
REGISTRY_SCHEMES(REGISTRY_EXTERN_SCHEME)
REGISTRY_SIZING_RULES(REGISTRY_EXTERN_SIZING)
REGISTRY_LIBRARIES(REGISTRY_EXTERN_LIBRARY)
REGISTRY_LIBRARY_FILES(REGISTRY_EXTERN_FILE)
/* Real hashes one library's rows share between files: bloom-filters' getIndexes words
 * (bloom_filters.c), its BloomFilter's and its PartitionedBloomFilter's. */
extern const library_words_t words_bloom_filters;
REGISTRY_CHAINS(REGISTRY_EXTERN_CHAIN)

/* The catalogues, read (registry.c). Thread-safe: the tables are constant. */

/* The schemes, in REGISTRY_SCHEMES's order; scheme_count() entries. */
const scheme_t *scheme_at(size_t i);
size_t scheme_count(void);
/* The scheme of that name, or NULL. */
const scheme_t *scheme_find(const char *name);

/* The rules, in the order `bloomsim size --help` and messages list them:
 * sizing_rule_count() entries. */
size_t sizing_rule_count(void);
const sizing_rule_t *sizing_rule_at(size_t i);
/* The rule of that name, or NULL. */
const sizing_rule_t *sizing_find(const char *name);

/* The libraries, in the order `audit --list` and the report show them. */
size_t library_count(void);
const library_t *library_at(size_t i);
/* By name; NULL when there is none. */
const library_t *library_find(const char *name);

/* The scalable filters, in REGISTRY_CHAINS's order. */
size_t chain_count(void);
const library_chain_t *chain_at(size_t i);
/* By name; NULL when there is none. */
const library_chain_t *chain_find(const char *name);

#endif
