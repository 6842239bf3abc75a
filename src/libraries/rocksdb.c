/* rocksdb.c - RocksDB's filters and LevelDB's, from which RocksDB's legacy ones descend:
 * their index arithmetic (LevelDB's util/bloom.cc; RocksDB's legacy full filter and its
 * current FastLocalBloom), the models of their departures, their sizing from bits per
 * key, and their rows. Pebble's block and table filters are LevelDB's and RocksDB's
 * legacy arithmetic.
 *
 * Sources: google/leveldb util/bloom.cc at 78a352f4; facebook/rocksdb util/bloom_impl.h,
 * util/fastrange.h, table/block_based/filter_policy.cc, include/rocksdb/table.h and
 * HISTORY.md at 1dfa7297 (format_version 5 the default from 6.19.0, 0028e339, HISTORY.md:
 * 1895; optimize_filters_for_memory on by default from 9.2.0, 45c10510, HISTORY.md:625).
 */
#include <math.h>

#include "libraries/arith.h"
#include "hashes/hashes.h"
#include "libraries/library.h"
#include "rates/rate.h"
#include "rates/rate_blocked.h"
#include "libraries/registry.h"
#include "schemes/words.h"

enum { LINE_BITS = 512 }; /* RocksDB's cache-local lines */

/* ---- leveldb: util/bloom.cc (BloomFilterPolicy::CreateFilter, KeyMayMatch) ----
 * One 32-bit word h (LevelDB's BloomHash); delta = rotr32(h, 17); for j < k:
 * bitpos = h % bits, then h += delta in u32 wraparound. The wrap happens before the
 * % bits, so the probes are an arithmetic progression mod 2^32, not mod m. bits is a
 * size_t, so for m >= 2^32 the position is h itself. Also RocksDB's legacy block-based
 * filter (LegacyNoLocalityBloomImpl) and Pebble's block filter. Model: every probe from
 * one 32-bit word (scheme_model_one_word). */
#define leveldb_draw u32x1_draw
SCHEME_HOT void leveldb_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    (void)g;
    it->x = h[0];
    it->y = rotr32((uint32_t)h[0], 17); /* "Rotate right 17 bits" */
}
SCHEME_HOT uint64_t leveldb_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)r;
    uint64_t p = it->x % g->m;
    it->x = (uint32_t)(it->x + it->y); /* h += delta, u32 */
    return p;
}
SCHEME_LOOPS(leveldb)

const scheme_t scheme_leveldb = {
    .name = "leveldb",
    .summary = "LevelDB: one u32 h; h % m, then h += rotr32(h,17) in u32 (also Pebble's "
               "block filter)",
    WORDS_U32(1), .geometry = scheme_geom_plain, SCHEME_FNS(leveldb),
    .model = scheme_model_one_word,
};

/* ---- rocksdb-legacy: util/bloom_impl.h, LegacyLocalityBloomImpl<false> (AddHash,
 * GetLine); the format_version <= 4 full filter, also Pebble's table filter ----
 * One 32-bit word h (BloomHash); num_lines odd (RocksDB's sizing makes it odd; here m is
 * rounded down to an odd number of 512-bit lines); line = h % num_lines; delta =
 * rotr32(h, 17); for i < k: bitpos = h & 511 in the line, then h += delta (u32). Marked
 * "DO NOT REUSE" in the source: the stride is 0 mod 512 with probability 1/512.
 * num_lines is a uint32_t there (its sizing caps it far below 2^32); it is 64-bit here. */
static int rocksdb_legacy_geometry(uint64_t m, unsigned k, uint64_t block, probe_geom_t *g)
{
    (void)block;
    return scheme_geom_lines(m, k, LINE_BITS, 1, g);
}
#define rocksdb_legacy_draw u32x1_draw
SCHEME_HOT void rocksdb_legacy_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    it->x = h[0];
    it->y = rotr32((uint32_t)h[0], 17);
    it->z = h[0] % g->blocks * LINE_BITS; /* the line's first bit */
}
SCHEME_HOT uint64_t rocksdb_legacy_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)g, (void)r;
    uint64_t p = it->z + (it->x & (LINE_BITS - 1));
    it->x = (uint32_t)(it->x + it->y);
    return p;
}
SCHEME_LOOPS(rocksdb_legacy)

/* Model: one 32-bit word for the line and the bits: the floor of equal words over the
 * exact rate of 512-bit lines at the distinct hashes (scheme_one_word_floor). The
 * strides that are 0 mod 512 are not in it. */
static double rocksdb_legacy_model(const probe_geom_t *g, uint64_t n)
{
    double D = scheme_distinct32(n), inner;
    uint64_t nd = (uint64_t)floor(D + 0.5);
    return rate_blocked_exact(g->m, LINE_BITS, nd, g->k, &inner) == RATE_OK
               ? scheme_one_word_floor(D, inner) : NAN;
}

const scheme_t scheme_rocksdb_legacy = {
    .name = "rocksdb-legacy",
    .summary = "RocksDB legacy full filter: one u32 h; odd count of 512-bit lines, line "
               "h % lines, bits h & 511, h += rotr32(h,17)",
    WORDS_U32(1), .geometry = rocksdb_legacy_geometry, SCHEME_FNS(rocksdb_legacy),
    .model = rocksdb_legacy_model,
};

/* ---- rocksdb-fastlocal: util/bloom_impl.h, FastLocalBloomImpl (AddHash,
 * AddHashPrepared, portable path) and util/fastrange.h; the format_version >= 5 filter ----
 * The 64-bit XXH3 hash's halves as two 32-bit words: h1 (Lower32of64) picks the line by
 * FastRange32, (u64(h1) * lines) >> 32; h = h2 (Upper32of64); for i < k: bitpos =
 * h >> 23 (9 bits) in the line, then h *= 0x9e3779b9 (u32). Any k; probes may repeat.
 * FastRange32 takes a 32-bit line count (RocksDB's lines stay below 2^26); the product
 * is taken in 128 bits here so that it stays exact past 2^32 lines. Model: uniform
 * positions within 512-bit lines (scheme_model_lines). */
static int rocksdb_fastlocal_geometry(uint64_t m, unsigned k, uint64_t block, probe_geom_t *g)
{
    (void)block;
    return scheme_geom_lines(m, k, LINE_BITS, 0, g);
}
#define rocksdb_fastlocal_draw u32x2_draw
SCHEME_HOT void rocksdb_fastlocal_start(const probe_geom_t *g, const uint64_t *h,
                                        probe_it_t *it)
{
    it->z = (uint64_t)(((pcg_u128)h[0] * g->blocks) >> 32) * LINE_BITS;
    it->x = h[1];
}
SCHEME_HOT uint64_t rocksdb_fastlocal_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)g, (void)r;
    uint64_t p = it->z + (it->x >> (32 - 9)); /* 9-bit address within the 512-bit line */
    it->x = (uint32_t)(it->x * UINT32_C(0x9e3779b9));
    return p;
}
SCHEME_LOOPS(rocksdb_fastlocal)

const scheme_t scheme_rocksdb_fastlocal = {
    .name = "rocksdb-fastlocal",
    .summary = "RocksDB FastLocalBloom: 512-bit line by fastrange of u32 h1; bits h >> 23, "
               "h = h2 * 0x9e3779b9^i (u32)",
    WORDS_U32(2), .geometry = rocksdb_fastlocal_geometry, SCHEME_FNS(rocksdb_fastlocal),
    .model = scheme_model_lines,
};

/* ---- sizing: both take bits per key, not a rate ----
 * A rate p becomes b = -ln p / (ln 2)^2, the bits per key of an ideal filter at p
 * (LevelDB takes ceil(b), its bits_per_key being a whole number; RocksDB takes b as its
 * double bits_per_key). */
static double ideal_bpk(double p)
{
    return -log(p) / (log(2.0) * log(2.0));
}

/* leveldb: util/bloom.cc, BloomFilterPolicy: k = clamp((size_t)(bits_per_key * 0.69), 1,
 * 30) ("We intentionally round down"); CreateFilter: bits = n * bits_per_key, at least
 * 64, rounded up to whole bytes, and positions are h % bits. Computed n * bits_per_key;
 * indexed differs below 64 bits and when it is not a multiple of 8. Indexes never reach
 * 2^32 (h is 32 bits). bits_per_key is an int: a whole number >= 0. */
static int leveldb_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    if (!isnan(bpk) && (bpk < 0 || bpk != floor(bpk)))
        return SIZING_EBPK;
    double b = isnan(bpk) ? ceil(ideal_bpk(p)) : bpk;
    if (!(b < INT32_MAXD))
        return SIZING_ETOOBIG; /* bits_per_key is an int */
    uint64_t wb = (uint64_t)b;
    if (wb && n > (UINT64_MAX - 7) / wb)
        return SIZING_ETOOBIG;
    out->m_computed = n * wb;
    out->m = out->m_computed < 64 ? 64 : (out->m_computed + 7) / 8 * 8;
    double kk = floor((double)(int)wb * 0.69);
    out->k = kk < 1 ? 1 : kk > 30 ? 30 : kk;
    return SIZING_OK;
}

const sizing_rule_t sizing_leveldb = {
    .name = "leveldb",
    .summary = "LevelDB: whole bits per key b (P becomes ceil(-ln P / ln^2 2)), N b bits, at "
               "least 64, whole bytes; k = (int)(0.69 b)",
    .kind = SIZING_RULE_LIBRARY, .over = SIZING_OVER_UNIFORM, .design = leveldb_design,
    .bpk_from_rate = "rounded up to LevelDB's whole bits_per_key",
};

/* BloomLikeFilterPolicy (filter_policy.cc): bits_per_key < 0.5 builds no filter, below 1
 * is 1, 100 at most; millibits_per_key = (int)(bits_per_key * 1000 + 0.500001). */
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

/* FastLocalBloomImpl::ChooseNumProbes (util/bloom_impl.h). */
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

/* rocksdb-fastlocal: FastLocalBloomBitsBuilder::CalculateSpace: raw = (n * millibits +
 * 7999) / 8000 bytes, capped at 0xffffffc0, rounded up to whole 64-byte cache lines (+5
 * metadata bytes, not indexed); k = ChooseNumProbes(millibits), the configured millibits
 * (optimize_filters_for_memory off: GetNumProbes, filter_policy.cc:526-528; on, from
 * 9.2's default: rocksdb-fastlocal-9.2). Computed 8 raw bits; indexed the whole lines,
 * and the cap (about 2^35 bits) where raw passes it. */
static int rocksdb_fastlocal_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    uint64_t mb;
    int st = rocksdb_millibits(isnan(bpk) ? ideal_bpk(p) : bpk, &mb);
    if (st != SIZING_OK)
        return st;
    if (n > (UINT64_MAX - 7999) / mb)
        return SIZING_ETOOBIG; /* RocksDB's uint64 product would wrap */
    uint64_t raw = (n * mb + 7999) / 8000;
    out->m_computed = raw * 8;
    if (raw >= UINT64_C(0xffffffc0))
        raw = UINT64_C(0xffffffc0);
    out->m = (raw + 63) / 64 * 64 * 8;
    out->k = rocksdb_fastlocal_k(mb);
    return SIZING_OK;
}

const sizing_rule_t sizing_rocksdb_fastlocal = {
    .name = "rocksdb-fastlocal",
    .summary = "RocksDB format 5, optimize_filters_for_memory off: bits per key as "
               "millibits (P becomes -ln P / ln^2 2), whole 64-byte lines; k by its table",
    .kind = SIZING_RULE_LIBRARY, .over = SIZING_OVER_BLOCKED, .block_bits = LINE_BITS,
    .design = rocksdb_fastlocal_design, .bpk_from_rate = "as millibits",
};

/* rocksdb-fastlocal-9.2: the same filter with optimize_filters_for_memory on, its default
 * from RocksDB 9.2.0 (45c10510, HISTORY.md:625 @1dfa7297; include/rocksdb/table.h:574).
 * FastLocalBloomBitsBuilder::Finish (filter_policy.cc:401-422) then sizes as above, and
 * GetNumProbes (:520-531) takes k = ChooseNumProbes of the length's actual millibits per
 * key, (len_with_metadata - 5) * 8000 / max(n, 1) in integers (at most 512,000: an int),
 * instead of the configured millibits (what it does with the option off, rocksdb-
 * fastlocal). So the whole-line rounding alone moves k where it crosses a threshold of
 * the table: 100 keys at 10 bits per key are 128 bytes, 10,240 millibits, k = 7 (6 off);
 * 1 key, 64 bytes, k = 24. This is the deterministic case: a filter whose allocation
 * leaves no whole 64-byte line of slack, as glibc's heap chunks (at most 15 bytes), or a
 * build without malloc_usable_size (ROCKSDB_MALLOC_USABLE_SIZE). Otherwise
 * AllocateMaybeRounding (:177-271) gives the first filter of a policy the allocator's
 * slack (jemalloc's size classes, up to 25%; glibc's mmapped chunks, whole pages): more
 * lines, and k from them, possibly one more; and while the policy's
 * aggregate_rounding_balance_ is in surplus, later filters of that policy are cut to 3/4
 * .. 15/16 of the target. Their m and k then depend on the allocator, the process's
 * allocation history and the order of the filters: not modelled here. */
static int rocksdb_fastlocal_92_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    int st = rocksdb_fastlocal_design(n, p, bpk, out);
    if (st != SIZING_OK)
        return st;
    uint64_t actual = out->m / 8 * 8000 / (n > 1 ? n : 1); /* bytes without metadata */
    out->k = rocksdb_fastlocal_k(actual);
    return SIZING_OK;
}

const sizing_rule_t sizing_rocksdb_fastlocal_92 = {
    .name = "rocksdb-fastlocal-9.2",
    .summary = "RocksDB 9.2+ (optimize_filters_for_memory): as rocksdb-fastlocal, k by its "
               "table from the actual millibits of whole lines",
    .kind = SIZING_RULE_LIBRARY, .over = SIZING_OVER_BLOCKED, .block_bits = LINE_BITS,
    .design = rocksdb_fastlocal_92_design, .bpk_from_rate = "as millibits",
};

/* rocksdb-legacy: LegacyBloomBitsBuilder: whole bits per key (millibits + 500) / 1000;
 * total = min(n * bpk, 0xffff0000); lines = ceil(total / 512), made odd; indexed lines *
 * 512; k = LegacyNoLocalityBloomImpl::ChooseNumProbes = clamp((int)(bpk * 0.69), 1, 30).
 * Computed n * bpk; indexed differs by the odd whole lines and the cap. */
static int rocksdb_legacy_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    uint64_t mb;
    int st = rocksdb_millibits(isnan(bpk) ? ideal_bpk(p) : bpk, &mb);
    if (st != SIZING_OK)
        return st;
    uint64_t wb = (mb + 500) / 1000;
    if (n > UINT64_MAX / wb)
        return SIZING_ETOOBIG;
    out->m_computed = n * wb;
    uint64_t total = out->m_computed < UINT64_C(0xffff0000) ? out->m_computed
                                                             : UINT64_C(0xffff0000);
    uint64_t lines = (total + 511) / 512;
    if (lines % 2 == 0)
        lines++;
    out->m = lines * 512;
    double kk = floor((double)(int)wb * 0.69);
    out->k = kk < 1 ? 1 : kk > 30 ? 30 : kk;
    return SIZING_OK;
}

const sizing_rule_t sizing_rocksdb_legacy = {
    .name = "rocksdb-legacy",
    .summary = "RocksDB format <= 4: whole bits per key from millibits, an odd number of "
               "512-bit lines; k = (int)(0.69 b)",
    .kind = SIZING_RULE_LIBRARY, .over = SIZING_OVER_BLOCKED, .block_bits = LINE_BITS,
    .design = rocksdb_legacy_design, .bpk_from_rate = "as millibits, then whole bits",
};

/* ---- real keys: table/block_based/filter_policy.cc @v7.8.3: FastLocalBloom takes
 * GetSliceHash64(key) (Hash64, XXPH3 seed 0) and AddHash(Lower32of64(h),
 * Upper32of64(h)); the legacy filter takes BloomHash(key) = Hash(key, 0xbc9f1d34).
 * LevelDB util/bloom.cc @1.23: BloomHash(key) = Hash(key, 0xbc9f1d34). A key is a Slice
 * of bytes; an integer is its 8 bytes as a C program stores it (little-endian). ---- */
static void rocksdb_words(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    LIBRARY_KEY_INPUT(key, LIBRARY_INT_LE8);
    uint64_t h = hash_xxph3_64(in, len, 0);
    out[0] = (uint32_t)h, out[1] = h >> 32;
}
static void rocksdb_legacy_words(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    LIBRARY_KEY_INPUT(key, LIBRARY_INT_LE8);
    out[0] = hash_rocksdb32(in, len, HASH_BLOOM_SEED);
}
static void leveldb_words(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    LIBRARY_KEY_INPUT(key, LIBRARY_INT_LE8);
    out[0] = hash_leveldb(in, len, HASH_BLOOM_SEED);
}
static const library_words_t words_rocksdb = {
    .hash = "XXPH3 64 (RocksDB Hash64, seed 0)", .key_bytes = LIBRARY_KEYS_LE8,
    .kinds = LIBRARY_KEYS_INT_BYTES, .nwords = 2, .word_bits = 32, .words = rocksdb_words,
};
static const library_words_t words_rocksdb_legacy = {
    .hash = "Hash (RocksDB BloomHash, seed 0xbc9f1d34, signed tail)",
    .key_bytes = LIBRARY_KEYS_LE8, .kinds = LIBRARY_KEYS_INT_BYTES, .nwords = 1,
    .word_bits = 32, .words = rocksdb_legacy_words,
};
static const library_words_t words_leveldb = {
    .hash = "Hash (LevelDB BloomHash, seed 0xbc9f1d34)", .key_bytes = LIBRARY_KEYS_LE8,
    .kinds = LIBRARY_KEYS_INT_BYTES, .nwords = 1, .word_bits = 32, .words = leveldb_words,
};

/* ---- the libraries ---- */

const library_t library_rocksdb = {
    .name = "rocksdb",
    .version = "RocksDB FastLocalBloom (format_version 5, the default from 6.19.0) with "
               "optimize_filters_for_memory off (its default up to 9.1; Debian's 7.8.3), "
               "util/bloom_impl.h and filter_policy.cc at 1dfa7297",
    .scheme = &scheme_rocksdb_fastlocal, .sizing = &sizing_rocksdb_fastlocal, .hash = "64-bit",
    .cause = "blocking: 512-bit cache lines (RocksDB's own estimate includes it)",
    .report = "RocksDB bloom_impl.h: 0.957% at 10 bits per key and 6 probes",
    .words = &words_rocksdb,
};

const library_t library_rocksdb_92 = {
    .name = "rocksdb-9.2",
    .version = "RocksDB 9.2.0 on: FastLocalBloom with optimize_filters_for_memory on by "
               "default (45c10510), filter_policy.cc at 1dfa7297, no allocator slack",
    .scheme = &scheme_rocksdb_fastlocal, .sizing = &sizing_rocksdb_fastlocal_92,
    .hash = "64-bit",
    .cause = "blocking as rocksdb; k from the whole lines' bits per key (small filters get "
             "more probes); with jemalloc or mmapped chunks m and k follow the allocator, "
             "not modelled",
    .report = "",
    .words = &words_rocksdb,
};

const library_t library_rocksdb_legacy = {
    .name = "rocksdb-legacy",
    .version = "RocksDB legacy full filter (format_version <= 4), LegacyLocalityBloomImpl "
               "at 1dfa7297; also Pebble's table filter",
    .scheme = &scheme_rocksdb_legacy, .sizing = &sizing_rocksdb_legacy, .hash = "32-bit",
    .cause = "hash width: one 32-bit word for line and probes (floor about n/2^32); "
             "blocking; strides 0 mod 512",
    .report = "facebook/rocksdb PR #6317: at 15 bits per key 0.668% at 15M keys and 0.880% "
              "at 25M against 0.379% at 150K; at 10 bits per key 1.13x at 10M, 1.39x at 25M",
    .departs = 1,
    .words = &words_rocksdb_legacy,
};

const library_t library_leveldb = {
    .name = "leveldb",
    .version = "LevelDB util/bloom.cc at 78a352f4; also Pebble's block filter",
    .scheme = &scheme_leveldb, .sizing = &sizing_leveldb, .hash = "32-bit",
    .cause = "hash width: one 32-bit word for all probes (floor about n/2^32); filters "
             "cover 2 KB of data in practice",
    .report = "facebook/rocksdb#4120 (the same arithmetic)",
    .departs = 1,
    .words = &words_leveldb,
};
