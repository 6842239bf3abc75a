/* library_words.c - each library's real hash of a key, as the words its scheme consumes
 * (library_words.h). Every entry cites where the library hashes and which words go where;
 * the scheme files (src/libraries/NAME.c) say what the scheme does with them.
 */
#include "libraries/library_words.h"

#include <stdlib.h>
#include <string.h>

#include "hashes/hashes.h"
#include "rates/sizing.h"

/* ---- a key's bytes ---- */

enum { INT_LE8, INT_BE8, INT_DEC }; /* how a library serialises an integer key */

/* The bytes a library hashes for key: a byte string as it is; an integer as 8 bytes
 * little-endian, big-endian, or its decimal digits (into buf, at least 20 bytes). */
static const uint8_t *input(const rkey_t *key, int form, uint8_t *buf, size_t *len)
{
    if (key->kind == KEY_BYTES) {
        *len = key->len;
        return key->bytes;
    }
    if (form == INT_DEC) {
        *len = key_format_u64(key->u, (char *)buf);
        return buf;
    }
    for (int i = 0; i < 8; i++)
        buf[i] = (uint8_t)(key->u >> (form == INT_LE8 ? 8 * i : 56 - 8 * i));
    *len = 8;
    return buf;
}

#define INPUT(key, form)                                                                  \
    uint8_t buf_[24];                                                                     \
    size_t len;                                                                           \
    const uint8_t *in = input(key, form, buf_, &len)

/* ---- Java ---- */

/* Guava: BloomFilterStrategies.java @0d6dbae8. MURMUR128_MITZ_32 takes
 * murmur3_128().hashObject(object, funnel).asLong(), the first 8 bytes of asBytes()
 * little-endian (h1): hash1 = (int) hash64, hash2 = (int) (hash64 >>> 32). MITZ_64
 * takes lowerEight(bytes) = h1 and upperEight(bytes) = h2. */
static void w_guava32(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    INPUT(key, INT_LE8);
    uint64_t h[2];
    hash_murmur3_x64_128(in, len, 0, h);
    out[0] = (uint32_t)h[0];
    out[1] = h[0] >> 32;
}
static void w_guava64(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    INPUT(key, INT_LE8);
    hash_murmur3_x64_128(in, len, 0, out);
}

/* Spark sketch: BloomFilterImplV2.java @013bfe4f (and BloomFilterImpl, V1):
 * putLong: h1 = Murmur3_x86_32.hashLong(item, seed), h2 = hashLong(item, h1);
 * putString: putBinary(Utils.getBytesFromUTF8String(item)): h1 =
 * hashUnsafeBytes(item, BYTE_ARRAY_OFFSET, length, seed), h2 = the same seeded with h1;
 * DEFAULT_SEED = 0. */
static void w_spark(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    uint32_t h1, h2;
    if (key->kind == KEY_INT) {
        h1 = hash_spark_long(key->u, 0);
        h2 = hash_spark_long(key->u, h1);
    } else {
        h1 = hash_spark_bytes(key->bytes, key->len, 0);
        h2 = hash_spark_bytes(key->bytes, key->len, h1);
    }
    out[0] = h1, out[1] = h2;
}

/* ORC util/BloomFilter.java @02293868: addLong(val) is addHash(getLongHash(val)),
 * Thomas Wang's hash; addBytes takes Murmur3.hash64(val, offset, length) (seed 104729);
 * addHash: hash1 = (int) hash64, hash2 = (int) (hash64 >>> 32). */
static void w_orc(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    uint64_t h = key->kind == KEY_INT ? hash_wang64(key->u)
                                      : hash_hive64(key->bytes, key->len, HASH_HIVE_SEED);
    out[0] = (uint32_t)h, out[1] = h >> 32;
}

/* Hive storage-api BloomKFilter.java @046c998e: addLong(val) is addHash(Murmur3.hash64(
 * val)), which is hash64 of the long's 8 bytes big-endian (TestMurmur3.test64 asserts
 * it); addBytes as ORC's; addHash splits as ORC's. */
static void w_hive_bloomk(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    INPUT(key, INT_BE8);
    uint64_t h = hash_hive64(in, len, HASH_HIVE_SEED);
    out[0] = (uint32_t)h, out[1] = h >> 32;
}

/* Cassandra utils/BloomFilter.java @23fd75f2: key.filterHash(long[2]) is
 * MurmurHash.hash3_x64_128(key, position, remaining, 0, dest) of the partition key's
 * serialised bytes (a bigint: 8 bytes big-endian, LongType; text: UTF-8); the scheme
 * takes hash[0], hash[1] in that order (cassandra.c: base = hash[1]). */
static void w_cassandra(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    INPUT(key, INT_BE8);
    hash_murmur3_cassandra(in, len, 0, out);
}

/* Hadoop util/bloom/HashFunction.java hash(Key): initval = 0; for each of the k probes
 * initval = hashFunction.hash(bytes, initval) (MurmurHash, the default hash type of
 * BloomMapFile's Hash.getHashType), the probe taking Math.abs(initval % maxValue). The
 * key's bytes are BloomMapFile.Writer.append's key.write(buf): a LongWritable is 8 bytes
 * big-endian; a Text is WritableUtils.writeVInt(length) then its UTF-8 bytes. */
static size_t hadoop_vint(uint64_t v, uint8_t *o)
{
    if (v <= 127) { /* writeVLong: -112 <= i <= 127 is one byte */
        o[0] = (uint8_t)v;
        return 1;
    }
    int n = 0;
    for (uint64_t t = v; t != 0; t >>= 8)
        n++;
    o[0] = (uint8_t)(-112 - n); /* a length byte: -113 for one byte of value, ... */
    for (int i = 0; i < n; i++)
        o[1 + i] = (uint8_t)(v >> (8 * (n - 1 - i)));
    return (size_t)n + 1;
}
static void w_hadoop(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    uint8_t stack[LIBRARY_WORDS_KEY_MAX + 16], *buf = stack;
    size_t len;
    if (key->kind == KEY_INT) {
        for (int i = 0; i < 8; i++)
            buf[i] = (uint8_t)(key->u >> (56 - 8 * i));
        len = 8;
    } else {
        if (key->len > LIBRARY_WORDS_KEY_MAX && !(buf = malloc(key->len + 16)))
            abort();
        len = hadoop_vint(key->len, buf);
        memcpy(buf + len, key->bytes, key->len);
        len += key->len;
    }
    uint32_t h = 0;
    for (unsigned i = 0; i < g->k; i++)
        out[i] = h = hash_murmur2_hadoop(buf, len, h);
    if (buf != stack)
        free(buf);
}

/* ---- C and C++ ---- */

/* RocksDB table/block_based/filter_policy.cc @v7.8.3: FastLocalBloom takes
 * GetSliceHash64(key) (Hash64, XXPH3 seed 0) and AddHash(Lower32of64(h),
 * Upper32of64(h)); the legacy filter takes BloomHash(key) = Hash(key, 0xbc9f1d34). A
 * key is a Slice of bytes; an integer is its 8 bytes as a C program stores it
 * (little-endian). */
static void w_rocksdb(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    INPUT(key, INT_LE8);
    uint64_t h = hash_xxph3_64(in, len, 0);
    out[0] = (uint32_t)h, out[1] = h >> 32;
}
static void w_rocksdb_legacy(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    INPUT(key, INT_LE8);
    out[0] = hash_rocksdb32(in, len, HASH_BLOOM_SEED);
}
/* LevelDB util/bloom.cc @1.23: BloomHash(key) = Hash(key, 0xbc9f1d34). */
static void w_leveldb(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    INPUT(key, INT_LE8);
    out[0] = hash_leveldb(in, len, HASH_BLOOM_SEED);
}

/* Parquet: the value's plain encoding through XXH64 seed 0 (parquet-format
 * BloomFilter.md; Arrow parquet/xxhasher.cc, parquet-java BlockSplitBloomFilter.hash):
 * an INT64 is its 8 bytes little-endian, a BYTE_ARRAY its bytes. One 64-bit word. */
static void w_parquet(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    INPUT(key, INT_LE8);
    out[0] = hash_xxh64(in, len, 0);
}

/* libbloom bloom.c bloom_check_add @v2.0 (57b35ea2) and @v1.6, lines 57-58: a =
 * murmurhash2(buffer, len, 0x9747b28c), b = murmurhash2(buffer, len, a). 2.0's scheme
 * takes (a, b); 1.x's is guava32u with h1 = a - b (libbloom.c). */
static void libbloom_ab(const rkey_t *key, uint32_t *a, uint32_t *b)
{
    INPUT(key, INT_LE8);
    *a = hash_murmur2(in, len, 0x9747b28cu);
    *b = hash_murmur2(in, len, *a);
}
static void w_libbloom(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    uint32_t a, b;
    libbloom_ab(key, &a, &b);
    out[0] = a, out[1] = b;
}
static void w_libbloom_1(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    uint32_t a, b;
    libbloom_ab(key, &a, &b);
    out[0] = (uint32_t)(a - b), out[1] = b;
}

/* RedisBloom deps/bloom/bloom.c @b28c2945, lines 64-76: bloom_calc_hash64: a =
 * MurmurHash64A_Bloom(buffer, len, 0xc6a4a7935bd1e995), b = the same seeded with a (the
 * generation of 2018-19 the same since 61f274c2, before its first release, v1.1.1);
 * bloom_calc_hash (rebloom 1.0-1.1, contrib/bloom.c:54-55 @57a032dd): a =
 * murmurhash2(buffer, len, 0x9747b28c), b = seeded with a. Redis hands BF.ADD its
 * argument as a string: an integer is its decimal digits. */
static void redis64(const rkey_t *key, uint64_t *a, uint64_t *b)
{
    INPUT(key, INT_DEC);
    *a = hash_murmur64a(in, len, UINT64_C(0xc6a4a7935bd1e995));
    *b = hash_murmur64a(in, len, *a);
}
static void w_redisbloom(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    redis64(key, &out[0], &out[1]);
}
/* redisbloom-2018 is scheme double on m = 2^n2, whose words lie in [0, m): (a + i b) mod
 * 2^64 mod 2^n2 is (a mod m + i (b mod m)) mod m. */
static void w_redisbloom_2018(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    redis64(key, &out[0], &out[1]);
    out[0] %= g->m, out[1] %= g->m;
}
static void w_redisbloom_2017(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    INPUT(key, INT_DEC);
    out[0] = hash_murmur2(in, len, 0x9747b28cu);
    out[1] = hash_murmur2(in, len, (uint32_t)out[0]);
}

/* bits-and-blooms/bloom bloom.go @289c255a: baseHashes(data) = sum256(data). Go has no
 * integer Add: the README writes binary.BigEndian.PutUint32; 8 bytes big-endian here. */
static void w_bits_and_blooms(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    INPUT(key, INT_BE8);
    hash_murmur3_sum256(in, len, out);
}

/* ---- JavaScript ---- */

/* bloomfilter.js: add(v) and test(v) hash the string v + "". 0.0.21 (and 1.1.0): a, b the
 * high and low halves of the 64-bit FNV-1a; 0.0.17: a = fnv_1a(v), b = fnv_1a(v,
 * 1576284489); 0.0.16: a = fnv_1a(v), b derived from a in the scheme. */
static void w_bloomfilter_js(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    INPUT(key, INT_DEC);
    uint64_t h = hash_fnv64_js(in, len);
    out[0] = h >> 32, out[1] = (uint32_t)h;
}
static void w_bloomfilter_js_17(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    INPUT(key, INT_DEC);
    out[0] = hash_fnv1a_js(in, len, 0);
    out[1] = hash_fnv1a_js(in, len, 1576284489u);
}
static void w_bloomfilter_js_16(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    INPUT(key, INT_DEC);
    out[0] = hash_fnv1a_js(in, len, 0);
}

/* npm bloom-filters 3.0.4 src/hashing/hashing.ts: hashTwice(value, seed) = {first:
 * serialize(value, seed + 1), second: serialize(value, seed + 2)}, serialize =
 * Number(XXH.h64(value, seed).toNumber()) with the default seed 0x1234567890
 * (utils.ts getDefaultSeed). xxhashjs 0.2.2 makes the seed UINT64(seed), whose
 * fromNumber keeps value & 0xffff and value >>> 16: the low 32 bits, 0x34567891 and
 * 0x34567892; it hashes a string's UTF-8 bytes (toUTF8Array); cuint's toNumber is the
 * low 32 bits of the hash. tests/conformance/bloom_filters.js `words KEY` prints them. */
static void w_bloom_filters(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    INPUT(key, INT_DEC);
    out[0] = (uint32_t)hash_xxh64(in, len, 0x34567891u);
    out[1] = (uint32_t)hash_xxh64(in, len, 0x34567892u);
}

/* ---- the table ---- */

#define INT_AND_BYTES (KEY_INT | KEY_BYTES)
/* Java libraries: a String (its UTF-8) and a byte[] (its bytes) hash the same bytes. */
#define INT_TEXT_BYTES (KEY_INT | KEY_TEXT | KEY_BYTES)
/* bloomfilter.js takes strings only (an integer is its decimal string). */
#define INT_AND_TEXT (KEY_INT | KEY_TEXT)
#define LE8_UTF8 "integer: 8 bytes little-endian; string: its bytes"
#define DEC_UTF8 "integer: its decimal string; string: its bytes"
#define JS_STR "the JavaScript string v + \"\": an integer's decimal digits, a string's " \
               "UTF-8 decoded to UTF-16 code units"

/* long: a table of data, one row per library covered. */
static const library_words_t TABLE[] = {
    {"guava-2012", "Murmur3_x64_128 (Guava), first 64 bits as two ints",
     "integer: 8 bytes little-endian (Funnels.longFunnel); string: UTF-8 "
     "(Funnels.stringFunnel(UTF_8))", INT_TEXT_BYTES, 2, 32, 0, w_guava32},
    {"guava", "Murmur3_x64_128 (Guava)",
     "integer: 8 bytes little-endian (Funnels.longFunnel); string: UTF-8 "
     "(Funnels.stringFunnel(UTF_8))", INT_TEXT_BYTES, 2, 64, 0, w_guava64},
    {"spark-v1", "Murmur3_x86_32 (Spark sketch), h2 seeded with h1",
     "integer: putLong (hashLong); string: putString, its UTF-8 (hashUnsafeBytes)",
     INT_TEXT_BYTES, 2, 32, 0, w_spark},
    {"spark-v2", "Murmur3_x86_32 (Spark sketch), h2 seeded with h1",
     "integer: putLong (hashLong); string: putString, its UTF-8 (hashUnsafeBytes)",
     INT_TEXT_BYTES, 2, 32, 0, w_spark},
    {"orc", "Murmur3.hash64 (ORC/Hive, seed 104729); Thomas Wang's getLongHash",
     "integer: addLong (getLongHash); string: addBytes of its bytes (Murmur3.hash64)",
     INT_AND_BYTES, 2, 32, 0, w_orc},
    {"hive-bloomk", "Murmur3.hash64 (Hive, seed 104729)",
     "integer: addLong, hash64 of 8 bytes big-endian; string: addBytes of its bytes",
     INT_AND_BYTES, 2, 32, 0, w_hive_bloomk},
    {"rocksdb", "XXPH3 64 (RocksDB Hash64, seed 0)", LE8_UTF8, INT_AND_BYTES, 2, 32, 0,
     w_rocksdb},
    {"rocksdb-9.2", "XXPH3 64 (RocksDB Hash64, seed 0)", LE8_UTF8, INT_AND_BYTES, 2, 32, 0,
     w_rocksdb},
    {"rocksdb-legacy", "Hash (RocksDB BloomHash, seed 0xbc9f1d34, signed tail)", LE8_UTF8,
     INT_AND_BYTES, 1, 32, 0, w_rocksdb_legacy},
    {"leveldb", "Hash (LevelDB BloomHash, seed 0xbc9f1d34)", LE8_UTF8, INT_AND_BYTES, 1, 32,
     0, w_leveldb},
    {"cassandra", "MurmurHash3_x64_128 (Cassandra, sign-extended tail)",
     "integer: a bigint key, 8 bytes big-endian; string: a text key, its UTF-8",
     INT_TEXT_BYTES, 2, 64, 0, w_cassandra},
    {"parquet", "XXH64 (seed 0)", "integer: INT64 plain, 8 bytes little-endian; string: "
     "BYTE_ARRAY, its bytes", INT_AND_BYTES, 1, 64, 0, w_parquet},
    {"parquet-java", "XXH64 (seed 0)", "integer: INT64 plain, 8 bytes little-endian; "
     "string: BYTE_ARRAY, its bytes", INT_AND_BYTES, 1, 64, 0, w_parquet},
    {"parquet-java-fixed", "XXH64 (seed 0)", "integer: INT64 plain, 8 bytes little-endian; "
     "string: BYTE_ARRAY, its bytes", INT_AND_BYTES, 1, 64, 0, w_parquet},
    {"redisbloom", "MurmurHash64A (RedisBloom), seeds 0xc6a4a7935bd1e995 and a", DEC_UTF8,
     INT_AND_BYTES, 2, 64, 0, w_redisbloom},
    {"redisbloom-2018", "MurmurHash64A (RedisBloom), seeds 0xc6a4a7935bd1e995 and a, mod m",
     DEC_UTF8, INT_AND_BYTES, 2, 0, 0, w_redisbloom_2018},
    {"redisbloom-2017", "MurmurHash2 (rebloom), seeds 0x9747b28c and a", DEC_UTF8,
     INT_AND_BYTES, 2, 32, 0, w_redisbloom_2017},
    {"bits-and-blooms", "Murmur3_x64_128 of data and of data + 0x01 (bits-and-blooms)",
     "integer: 8 bytes big-endian (encoding/binary); string: its bytes", INT_AND_BYTES, 4,
     64, 0, w_bits_and_blooms},
    {"hadoop", "MurmurHash (Hadoop), k chained from seed 0",
     "integer: a LongWritable, 8 bytes big-endian; string: a Text, vint length + UTF-8",
     INT_AND_BYTES, 0, 32, 1, w_hadoop},
    {"libbloom", "MurmurHash2 (libbloom), seeds 0x9747b28c and a", LE8_UTF8, INT_AND_BYTES,
     2, 32, 0, w_libbloom},
    {"libbloom-1", "MurmurHash2 (libbloom), seeds 0x9747b28c and a; h1 = a - b", LE8_UTF8,
     INT_AND_BYTES, 2, 32, 0, w_libbloom_1},
    {"bloomfilter-js", "FNV-1a 64 over UTF-16 units (bloomfilter.js 0.0.21, 1.1.0)", JS_STR,
     INT_AND_TEXT, 2, 32, 0, w_bloomfilter_js},
    {"bloomfilter-js-0.0.21", "FNV-1a 64 over UTF-16 units (bloomfilter.js 0.0.21, 1.1.0)",
     JS_STR, INT_AND_TEXT, 2, 32, 0, w_bloomfilter_js},
    {"bloomfilter-js-0.0.17", "fnv_1a and fnv_1a seeded 1576284489 (bloomfilter.js 0.0.17)",
     JS_STR, INT_AND_TEXT, 2, 32, 0, w_bloomfilter_js_17},
    {"bloomfilter-js-0.0.16", "fnv_1a (bloomfilter.js 0.0.16)", JS_STR, INT_AND_TEXT, 1,
     32, 0, w_bloomfilter_js_16},
    {"bloom-filters", "XXH64 (xxhashjs), seeds 0x34567891 and 0x34567892, low 32 bits",
     "integer: its decimal string; string: its UTF-8 (xxhashjs toUTF8Array)",
     INT_TEXT_BYTES, 2, 32, 0, w_bloom_filters},
};

static const struct {
    const char *library, *why;
} SKIPPED[] = {
    {"kudu", "the caller hashes: BlockBloomFilter::Insert takes a 32-bit hash the column "
             "code computes (Kudu's and Impala's own choices per type)"},
    {"kudu-1.12", "the caller hashes: BlockBloomFilter::Insert takes a 32-bit hash the "
                  "column code computes (Kudu's and Impala's own choices per type)"},
    {"redisson", "HighwayHash-128 over the bytes of Redisson's codec (Kryo or Jackson by "
                 "default), a serialisation not reproduced here"},
    {"commons-collections", "the user supplies the hash (a Hasher); the library has none"},
    {"rust-bloomfilter", "SipHash-1-3 keyed by a random per-filter seed (Bloom::new): no "
                         "fixed words to reproduce"},
    {"fastbloom", "SipHash-1-3 with random keys by default (DefaultHasher): no fixed words "
                  "to reproduce"},
    {"pybloom-live", "its digest chunks come from hashlib SHA-1/256/384/512 or xxh128 of a "
                     "salt and the key: not covered yet"},
    {"bendersky", "hash/maphash with seeds from maphash.MakeSeed(), random per filter"},
};

size_t library_words_count(void)
{
    return sizeof TABLE / sizeof TABLE[0];
}

const library_words_t *library_words_at(size_t i)
{
    return i < library_words_count() ? &TABLE[i] : NULL;
}

const library_words_t *library_words_find(const char *library)
{
    for (size_t i = 0; i < library_words_count(); i++)
        if (strcmp(TABLE[i].library, library) == 0)
            return &TABLE[i];
    return NULL;
}

const char *library_words_skipped(const char *library)
{
    for (size_t i = 0; i < sizeof SKIPPED / sizeof SKIPPED[0]; i++)
        if (strcmp(SKIPPED[i].library, library) == 0)
            return SKIPPED[i].why;
    return NULL;
}

void library_words_positions(const library_words_t *lw, const scheme_t *s,
                             const probe_geom_t *g, const rkey_t *key, uint64_t *pos)
{
    uint64_t w[SIZING_MAX_K > SCHEME_MAX_WORDS ? SIZING_MAX_K : SCHEME_MAX_WORDS];
    lw->words(key, g, w);
    if (lw->drawn)
        s->positions_drawn(g, NULL, w, pos);
    else
        s->positions(g, w, pos);
}
