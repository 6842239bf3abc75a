/* test_hashes.c - every real hash function of src/hashes/ against published vectors:
 * the reference implementation's or the library's own tests, each cited where it is
 * used. (tests/test_library_words.c checks the words each library takes, against the
 * libraries' own unit tests.)
 *
 * Cross-checks run while this was written, not repeated here because they need the
 * libraries installed: 200,000 inputs (every length 0-4096, then random ones) gave the
 * same XXPH3 64 (seeded and not) and the same 32-bit Hash as Debian's librocksdb 7.8.3
 * (rocksdb::Hash64, rocksdb::Hash) and the same MurmurHash2 as Debian's libbloom 1.6
 * (murmurhash2); 3,000 inputs the same Cassandra h1 as python3-cassandra's cmurmur3 and
 * the same x64_128 as Guava 31.1 (libguava-java); 20,000 the same as the Java of ORC's
 * getLongHash, Hadoop's MurmurHash and Spark's hashUnsafeBytes. docs/model.md, Key sets and
 * real hashes.
 */
#undef NDEBUG
#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "hashes/generators.h"
#include "hashes/hashes.h"
#include "libraries/library.h"
#include "libraries/registry.h"

static int failures;

#define EQ(got, want, what)                                                                  \
    do {                                                                                     \
        uint64_t g_ = (uint64_t)(got), w_ = (uint64_t)(want);                                \
        if (g_ != w_) {                                                                      \
            fprintf(stderr, "FAIL %s: got 0x%016" PRIx64 ", want 0x%016" PRIx64 "\n", what, \
                    g_, w_);                                                                 \
            failures++;                                                                      \
        }                                                                                    \
    } while (0)

/* ---- SMHasher's verification values ----
 * aappleby/smhasher@0ff96f78 src/KeysetTest.cpp:13-47 VerificationTest: hash the keys
 * {}, {0}, {0,1}, ..., {0..254} with seeds 256, 255, ..., 1 into an array of results
 * (each result in its native little-endian bytes), hash that array with seed 0, and read
 * the first four bytes little-endian. The values: src/main.cpp:71 (MurmurHash2,
 * 0x27864C1E), :73 (MurmurHash64A, 0x1F0D3804), :78 (MurmurHash3_x86_32, 0xB0F57EE3),
 * :80 (MurmurHash3_x64_128, 0x6384BA69; also Guava's Murmur3Hash128Test.testParanoid). */
typedef void (*smhasher_fn)(const uint8_t *key, size_t len, uint32_t seed, uint8_t *out);

static void put_le(uint8_t *o, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        o[i] = (uint8_t)(v >> (8 * i));
}
static void sm_m3_32(const uint8_t *k, size_t n, uint32_t s, uint8_t *o)
{
    put_le(o, hash_murmur3_x86_32(k, n, s), 4);
}
static void sm_m3_128(const uint8_t *k, size_t n, uint32_t s, uint8_t *o)
{
    uint64_t h[2];
    hash_murmur3_x64_128(k, n, s, h);
    put_le(o, h[0], 8), put_le(o + 8, h[1], 8);
}
static void sm_m2(const uint8_t *k, size_t n, uint32_t s, uint8_t *o)
{
    put_le(o, hash_murmur2(k, n, s), 4);
}
static void sm_m64a(const uint8_t *k, size_t n, uint32_t s, uint8_t *o)
{
    put_le(o, hash_murmur64a(k, n, s), 8);
}

static uint32_t smhasher_verification(smhasher_fn f, int bytes)
{
    uint8_t key[256], all[256 * 16], fin[16];
    for (int i = 0; i < 256; i++) {
        key[i] = (uint8_t)i;
        f(key, (size_t)i, (uint32_t)(256 - i), all + i * bytes);
    }
    f(all, (size_t)(256 * bytes), 0, fin);
    return (uint32_t)fin[0] | (uint32_t)fin[1] << 8 | (uint32_t)fin[2] << 16 |
           (uint32_t)fin[3] << 24;
}

static void test_smhasher(void)
{
    EQ(smhasher_verification(sm_m3_32, 4), 0xB0F57EE3u, "MurmurHash3_x86_32 verification");
    EQ(smhasher_verification(sm_m3_128, 16), 0x6384BA69u, "MurmurHash3_x64_128 verification");
    EQ(smhasher_verification(sm_m2, 4), 0x27864C1Eu, "MurmurHash2 verification");
    EQ(smhasher_verification(sm_m64a, 8), 0x1F0D3804u, "MurmurHash64A verification");
    printf("SMHasher verification values: MurmurHash3 x86_32, x64_128, MurmurHash2, 64A\n");
}

/* ---- MurmurHash3 x64_128: Guava, Cassandra, bits-and-blooms ---- */

/* google/guava@0c5eab22 guava-tests/test/com/google/common/hash/Murmur3Hash128Test.java
 * :34-43 testKnownValues: assertHash(seed, h1, h2, ascii input), h1 and h2 being the
 * two longs of asBytes() little-endian. */
static void test_guava(void)
{
    static const struct { uint32_t seed; uint64_t h1, h2; const char *s; } v[] = {
        {0, 0x629942693e10f867u, 0x92db0b82baeb5347u, "hell"},
        {1, 0xa78ddff5adae8d10u, 0x128900ef20900135u, "hello"},
        {2, 0x8a486b23f422e826u, 0xf962a2c58947765fu, "hello "},
        {3, 0x2ea59f466f6bed8cu, 0xc610990acc428a17u, "hello w"},
        {4, 0x79f6305a386c572cu, 0x46305aed3483b94eu, "hello wo"},
        {5, 0xc2219d213ec1f1b5u, 0xa1d8e2e0a52785bdu, "hello wor"},
        {0, 0xe34bbc7bbc071b6cu, 0x7a433ca9c49a9347u,
         "The quick brown fox jumps over the lazy dog"},
        {0, 0x658ca970ff85269au, 0x43fee3eaa68e5c3eu,
         "The quick brown fox jumps over the lazy cog"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        uint64_t h[2];
        hash_murmur3_x64_128(v[i].s, strlen(v[i].s), v[i].seed, h);
        EQ(h[0], v[i].h1, v[i].s);
        EQ(h[1], v[i].h2, v[i].s);
    }
    printf("Murmur3_x64_128: Guava's Murmur3Hash128Test known values\n");
}

/* Cassandra: apache/cassandra@13fc57b0 test/unit/org/apache/cassandra/utils/
 * MurmurHashPropertyTest.java, knownTestVectors: MurmurHash.hash3_x64_128 of {}, {0x00},
 * "Hello" (seeds 0 and 42). Those are ASCII, where Cassandra and the reference agree;
 * for its sign-extended tail, tokens (h1) computed by an independent implementation
 * that must equal Cassandra's: Debian's python3-cassandra 3.25 (the DataStax driver),
 * cassandra.cmurmur3.murmur3, which reads the tail through a signed char. The reference
 * differs on them. */
static void test_cassandra(void)
{
    static const struct { const char *s; size_t n; uint64_t seed; int64_t h1, h2; } v[] = {
        {"", 0, 0, 0, 0},
        {"\0", 1, 0, 5048724184180415669, 5864299874987029891},
        {"Hello", 5, 0, 3871253994707141660, -6917270852172884668},
        {"Hello", 5, 42, 2550721319707356219, -6862742243595569438},
    };
    uint64_t h[2], r[2];
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        hash_murmur3_cassandra(v[i].s, v[i].n, v[i].seed, h);
        EQ(h[0], v[i].h1, "Cassandra hash3_x64_128 h1");
        EQ(h[1], v[i].h2, "Cassandra hash3_x64_128 h2");
    }
    /* differs: whether the reference gives another h1 (a byte shifted by 56 loses its
     * sign bits: the bigint 200's last byte changes nothing) */
    static const struct { const char *s; size_t n; int64_t token; int differs; } t[] = {
        {"\x80\x81\xff", 3, 1861117558159284645, 1},
        {"\0\0\0\0\0\0\x80\0", 8, -5458372904433781419, 1}, /* the bigint 32768 */
        {"\0\0\0\0\0\0\0\xc8", 8, 6340006638963962074, 0},  /* the bigint 200 */
        {"\xf0\xf1\xf2\xf3\xf4\xf5\xf6\xf7\xf8\xf9\xfa\xfb\xfc\xfd\xfe", 15,
         -7737243313669454511, 1},
        {"\xc3\xa9", 2, 5461403030378599040, 1}, /* "é" in UTF-8 */
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        hash_murmur3_cassandra(t[i].s, t[i].n, 0, h);
        hash_murmur3_x64_128(t[i].s, t[i].n, 0, r);
        EQ(h[0], t[i].token, "Cassandra token, sign-extended tail");
        assert((r[0] != h[0]) == t[i].differs);
    }
    printf("Cassandra hash3_x64_128: its pinned values; sign-extended tails as the "
           "driver's tokens, unlike the reference\n");
}

/* bits-and-blooms/bloom@289c255a murmur_test.go:11-32 TestHashBasic: for the data
 * bytes 0, 1, 2, ... of every length 0 to 1000, sum256 equals the reference x64_128 of
 * the data and of the data with one byte 1 written after it. */
static void test_sum256(void)
{
    static uint8_t data[1001];
    for (int i = 0; i <= 1000; i++)
        data[i] = (uint8_t)i;
    for (size_t len = 0; len <= 1000; len++) {
        uint64_t h[4], a[2], b[2];
        uint8_t saved = data[len];
        hash_murmur3_sum256(data, len, h);
        hash_murmur3_x64_128(data, len, 0, a);
        data[len] = 1;
        hash_murmur3_x64_128(data, len + 1, 0, b);
        data[len] = saved;
        EQ(h[0], a[0], "sum256 h1");
        EQ(h[1], a[1], "sum256 h2");
        EQ(h[2], b[0], "sum256 h3");
        EQ(h[3], b[1], "sum256 h4");
    }
    printf("bits-and-blooms sum256: its TestHashBasic at lengths 0-1000\n");
}

/* ---- Spark's Murmur3_x86_32 ----
 * apache/spark@15533491 common/unsafe/src/test/java/org/apache/spark/unsafe/hash/
 * Murmur3_x86_32Suite.java testKnownIntegerInputs, testKnownLongInputs (seed 0; the
 * sketch module's class is a copy of this one). hashUnsafeBytes' per-byte tail: Spark
 * SQL's hash() is Murmur3Hash with seed 42, chaining each argument's hash as the next
 * seed (strings through hashUnsafeBytes, ints through hashInt, array elements in turn),
 * and its documented example (apache/spark@0d640895 sql/catalyst/src/main/scala/org/
 * apache/spark/sql/catalyst/expressions/hash.scala, Murmur3Hash's ExpressionDescription)
 * is SELECT hash('Spark', array(123), 2) = -1321691492: "Spark" has one tail byte. */
static void test_spark(void)
{
    static const struct { int32_t in, out; } ints[] = {
        {0, 593689054}, {-42, -189366624}, {42, -1134849565},
        {INT32_MIN, -1718298732}, {INT32_MAX, -1653689534},
    };
    static const struct { int64_t in; int32_t out; } longs[] = {
        {0, 1669671676}, {-42, -846261623}, {42, 1871679806},
        {INT64_MIN, 1366273829}, {INT64_MAX, -2106506049},
    };
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        EQ((int32_t)hash_spark_int((uint32_t)ints[i].in, 0), ints[i].out, "Spark hashInt");
    for (size_t i = 0; i < sizeof longs / sizeof longs[0]; i++)
        EQ((int32_t)hash_spark_long((uint64_t)longs[i].in, 0), longs[i].out, "Spark hashLong");
    uint32_t h = hash_spark_bytes("Spark", 5, 42);
    h = hash_spark_int(123, h);
    h = hash_spark_int(2, h);
    EQ((int32_t)h, -1321691492, "Spark SQL hash('Spark', array(123), 2)");
    /* Whole 4-byte blocks are the reference's; hashLong is the reference on 8 bytes. */
    EQ(hash_spark_bytes("abcdefgh", 8, 7), hash_murmur3_x86_32("abcdefgh", 8, 7), "blocks");
    assert(hash_spark_bytes("Spark", 5, 42) != hash_murmur3_x86_32("Spark", 5, 42));
    EQ(hash_spark_long(UINT64_C(0x0807060504030201), 9),
       hash_murmur3_x86_32("\x01\x02\x03\x04\x05\x06\x07\x08", 8, 9), "hashLong = 8 bytes");
    printf("Spark Murmur3_x86_32: hashInt, hashLong known inputs; hashUnsafeBytes' tail "
           "through SQL's hash() example\n");
}

/* ---- Hive's and ORC's hash64 ----
 * apache/hive@1a748a70 storage-api/src/test/org/apache/hive/common/util/TestMurmur3.java
 * testHashCodeM3_64: Murmur3.hash64 (seed 104729) of this text is 305830725663368540. */
static void test_hive64(void)
{
    const char *tale = "It was the best of times, it was the worst of times,"
                       " it was the age of wisdom, it was the age of foolishness,"
                       " it was the epoch of belief, it was the epoch of incredulity,"
                       " it was the season of Light, it was the season of Darkness,"
                       " it was the spring of hope, it was the winter of despair,"
                       " we had everything before us, we had nothing before us,"
                       " we were all going direct to Heaven,"
                       " we were all going direct the other way.";
    EQ(hash_hive64(tale, strlen(tale), HASH_HIVE_SEED), 305830725663368540, "Hive hash64");
    printf("Hive/ORC Murmur3.hash64: TestMurmur3.testHashCodeM3_64\n");
}

/* ---- LevelDB's and RocksDB's 32-bit Hash ---- */

/* google/leveldb@99b3c03b (1.23) util/hash_test.cc:11-38 SignedUnsignedIssue. */
static void test_leveldb(void)
{
    static const uint8_t d5[48] = {
        0x01, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00,
        0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x18, 0x28, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    };
    EQ(hash_leveldb(NULL, 0, HASH_BLOOM_SEED), 0xbc9f1d34u, "LevelDB Hash({})");
    EQ(hash_leveldb("\x62", 1, HASH_BLOOM_SEED), 0xef1345c4u, "LevelDB data1");
    EQ(hash_leveldb("\xc3\x97", 2, HASH_BLOOM_SEED), 0x5b663814u, "LevelDB data2");
    EQ(hash_leveldb("\xe2\x99\xa5", 3, HASH_BLOOM_SEED), 0x323c078fu, "LevelDB data3");
    EQ(hash_leveldb("\xe1\x80\xb9\x32", 4, HASH_BLOOM_SEED), 0xed21633au, "LevelDB data4");
    EQ(hash_leveldb(d5, sizeof d5, 0x12345678u), 0xf333dabbu, "LevelDB data5");
    printf("LevelDB Hash: util/hash_test.cc SignedUnsignedIssue\n");
}

/* facebook/rocksdb@bf2c3351 (v7.8.3) util/hash_test.cc:44-98 TEST(HashTest, Values):
 * Hash(data, n, 0xbc9f1d34) of random strings of lengths 0-10, many with a tail byte of
 * 0x80 or more, where LevelDB's unsigned tail gives other values. */
static const struct { const char *s; size_t n; uint32_t h; } ROCKS32[] = {
    {"", 0, 3164544308u},
    {"\x08", 1, 422599524u},
    {"\x17", 1, 3168152998u},
    {"\x9a", 1, 3195034349u},
    {"\x1c", 1, 2651681383u},
    {"\x4d\x76", 2, 2447836956u},
    {"\x52\xd5", 2, 3854228105u},
    {"\x91\xf7", 2, 31066776u},
    {"\xd6\x27", 2, 1806091603u},
    {"\x30\x46\x0b", 3, 3808221797u},
    {"\x56\xdc\xd6", 3, 2157698265u},
    {"\xd4\x52\x33", 3, 1721992661u},
    {"\x6a\xb5\xf4", 3, 2469105222u},
    {"\x67\x53\x81\x1c", 4, 118283265u},
    {"\x69\xb8\xc0\x88", 4, 3416318611u},
    {"\x1e\x84\xaf\x2d", 4, 3315003572u},
    {"\x46\xdc\x54\xbe", 4, 447346355u},
    {"\xd0\x7a\x6e\xea\x56", 5, 4255445370u},
    {"\x86\x83\xd5\xa4\xd8", 5, 2390603402u},
    {"\xb7\x46\xbb\x77\xce", 5, 2048907743u},
    {"\x6c\xa8\xbc\xe5\x99", 5, 2177978500u},
    {"\x5c\x5e\xe1\xa0\x73\x81", 6, 1036846008u},
    {"\x08\x5d\x73\x1c\xe5\x2e", 6, 229980482u},
    {"\x42\xfb\xf2\x52\xb4\x10", 6, 3655585422u},
    {"\x73\xe1\xff\x56\x9c\xce", 6, 3502708029u},
    {"\x5c\xbe\x97\x75\x54\x9a\x52", 7, 815120748u},
    {"\x16\x82\x39\x49\x88\x2b\x36", 7, 3056033698u},
    {"\x59\x77\xf0\xa7\x24\xf4\x78", 7, 587205227u},
    {"\xd3\xa5\x7c\x0e\xc0\x02\x07", 7, 2030937252u},
    {"\x31\x1b\x98\x75\x96\x22\xd3\x9a", 8, 469635402u},
    {"\x38\xd6\xf7\x28\x20\xb4\x8a\xe9", 8, 3530274698u},
    {"\xbb\x18\x5d\xf4\x12\x03\xf7\x99", 8, 1974545809u},
    {"\x80\xd4\x3b\x3b\xae\x22\xa2\x78", 8, 3563570120u},
    {"\x1a\xb5\xd0\xfe\xab\xc3\x61\xb2\x99", 9, 2706087434u},
    {"\x8e\x4a\xc3\x18\x20\x2f\x06\xe6\x3c", 9, 1534654151u},
    {"\xb6\xc0\xdd\x05\x3f\xc4\x86\x4c\xef", 9, 2355554696u},
    {"\x9a\x5f\x78\x0d\xaf\x50\xe1\x1f\x55", 9, 1400800912u},
    {"\x22\x6f\x39\x1f\xf8\xdd\x4f\x52\x17\x94", 10, 3420325137u},
    {"\x32\x89\x2a\x75\x48\x3a\x4a\x02\x69\xdd", 10, 3427803584u},
    {"\x06\x92\x5c\xf4\x88\x0e\x7e\x68\x38\x3e", 10, 1152407945u},
    {"\xbd\x2c\x63\x38\xbf\xe9\x78\xb7\xbf\x15", 10, 3382479516u},
};

static void test_rocksdb32(void)
{
    int differ = 0;
    for (size_t i = 0; i < sizeof ROCKS32 / sizeof ROCKS32[0]; i++) {
        EQ(hash_rocksdb32(ROCKS32[i].s, ROCKS32[i].n, HASH_BLOOM_SEED), ROCKS32[i].h,
           "RocksDB Hash");
        differ += hash_leveldb(ROCKS32[i].s, ROCKS32[i].n, HASH_BLOOM_SEED) != ROCKS32[i].h;
    }
    assert(differ > 10); /* the sign-extended tails are RocksDB's, not LevelDB's */
    printf("RocksDB Hash: util/hash_test.cc Values (%zu, LevelDB's differs on %d)\n",
           sizeof ROCKS32 / sizeof ROCKS32[0], differ);
}

/* ---- RocksDB's Hash64 (XXPH3) ----
 * facebook/rocksdb@bf2c3351 (v7.8.3) util/hash_test.cc:162-233 Hash64SmallValueSchema
 * (Hash64 seed 0 of the strings above) and :254-283 Hash64LargeValueSchema: for every
 * length i < 430 of a repeated pattern, the character mod61_encode[h % 61] of
 * GetSliceHash64's h; the three 430-character descriptors cover every XXPH3 path. */
static const struct { const char *s; size_t n; uint64_t h; } ROCKS64[] = {
    {"", 0, 5999572062939766020ull},
    {"\x08", 1, 583283813901344696ull},
    {"\x17", 1, 16175549975585474943ull},
    {"\x9a", 1, 16322991629225003903ull},
    {"\x1c", 1, 13269285487706833447ull},
    {"\x4d\x76", 2, 6859542833406258115ull},
    {"\x52\xd5", 2, 4919611532550636959ull},
    {"\x91\xf7", 2, 14199427467559720719ull},
    {"\xd6\x27", 2, 12292689282614532691ull},
    {"\x30\x46\x0b", 3, 11404699285340020889ull},
    {"\x56\xdc\xd6", 3, 12404347133785524237ull},
    {"\xd4\x52\x33", 3, 15853805298481534034ull},
    {"\x6a\xb5\xf4", 3, 16863488758399383382ull},
    {"\x67\x53\x81\x1c", 4, 9010661983527562386ull},
    {"\x69\xb8\xc0\x88", 4, 6611781377647041447ull},
    {"\x1e\x84\xaf\x2d", 4, 15290969111616346501ull},
    {"\x46\xdc\x54\xbe", 4, 7063754590279313623ull},
    {"\xd0\x7a\x6e\xea\x56", 5, 6384167718754869899ull},
    {"\x86\x83\xd5\xa4\xd8", 5, 16874407254108011067ull},
    {"\xb7\x46\xbb\x77\xce", 5, 16809880630149135206ull},
    {"\x6c\xa8\xbc\xe5\x99", 5, 1249038833153141148ull},
    {"\x5c\x5e\xe1\xa0\x73\x81", 6, 17358142495308219330ull},
    {"\x08\x5d\x73\x1c\xe5\x2e", 6, 4237646583134806322ull},
    {"\x42\xfb\xf2\x52\xb4\x10", 6, 4373664924115234051ull},
    {"\x73\xe1\xff\x56\x9c\xce", 6, 12012981210634596029ull},
    {"\x5c\xbe\x97\x75\x54\x9a\x52", 7, 5716522398211028826ull},
    {"\x16\x82\x39\x49\x88\x2b\x36", 7, 15604531309862565013ull},
    {"\x59\x77\xf0\xa7\x24\xf4\x78", 7, 8601330687345614172ull},
    {"\xd3\xa5\x7c\x0e\xc0\x02\x07", 7, 8088079329364056942ull},
    {"\x31\x1b\x98\x75\x96\x22\xd3\x9a", 8, 9844314944338447628ull},
    {"\x38\xd6\xf7\x28\x20\xb4\x8a\xe9", 8, 10973293517982163143ull},
    {"\xbb\x18\x5d\xf4\x12\x03\xf7\x99", 8, 9986007080564743219ull},
    {"\x80\xd4\x3b\x3b\xae\x22\xa2\x78", 8, 1729303145008254458ull},
    {"\x1a\xb5\xd0\xfe\xab\xc3\x61\xb2\x99", 9, 13253403748084181481ull},
    {"\x8e\x4a\xc3\x18\x20\x2f\x06\xe6\x3c", 9, 7768754303876232188ull},
    {"\xb6\xc0\xdd\x05\x3f\xc4\x86\x4c\xef", 9, 12439346786701492ull},
    {"\x9a\x5f\x78\x0d\xaf\x50\xe1\x1f\x55", 9, 10841838338450144690ull},
    {"\x22\x6f\x39\x1f\xf8\xdd\x4f\x52\x17\x94", 10, 12883919702069153152ull},
    {"\x32\x89\x2a\x75\x48\x3a\x4a\x02\x69\xdd", 10, 12692903507676842188ull},
    {"\x06\x92\x5c\xf4\x88\x0e\x7e\x68\x38\x3e", 10, 6540985900674032620ull},
    {"\xbd\x2c\x63\x38\xbf\xe9\x78\xb7\xbf\x15", 10, 10551812464348219044ull},
};

static const struct { const char *pattern, *descriptor; } ROCKS64_LARGE[] = {
    {"foo",
         "cRhyWsY67B6klRA1udmOuiYuX7IthyGBKqbeosz2hzVglWCmQx8nEdnpkvPfYX56Up2OWOTV"
         "lTzfAoYwvtqKzjD8E9xttR2unelbXbIV67NUe6bOO23BxaSFRcA3njGu5cUWfgwOqNoTsszp"
         "uPvKRP6qaUR5VdoBkJUCFIefd7edlNK5mv6JYWaGdwxehg65hTkTmjZoPKxTZo4PLyzbL9U4"
         "xt12ITSfeP2MfBHuLI2z2pDlBb44UQKVMx27LEoAHsdLp3WfWfgH3sdRBRCHm33UxCM4QmE2"
         "xJ7gqSvNwTeH7v9GlC8zWbGroyD3UVNeShMLx29O7tH1biemLULwAHyIw8zdtLMDpEJ8m2ic"
         "l6Lb4fDuuFNAs1GCVUthjK8CV8SWI8Rsz5THSwn5CGhpqUwSZcFknjwWIl5rNCvDxXJqYr"},
    {"Rocks",
         "c1EeRkrzgOYWLA8PuhJrwTePJewoB44WdXYDfhbk3ZxTqqg25WlPExDl7IKIQLJvnA6gJxxn"
         "9TCSLkFGfJeXehaSS1GBqWSzfhEH4VXiXIUCuxJXxtKXcSC6FrNIQGTZbYDiUOLD6Y5inzrF"
         "9etwQhXUBanw55xAUdNMFQAm2GjJ6UDWp2mISLiMMkLjANWMKLaZMqaFLX37qB4MRO1ooVRv"
         "zSvaNRSCLxlggQCasQq8icWjzf3HjBlZtU6pd4rkaUxSzHqmo9oM5MghbU5Rtxg8wEfO7lVN"
         "5wdMONYecslQTwjZUpO1K3LDf3K3XK6sUXM6ShQQ3RHmMn2acB4YtTZ3QQcHYJSOHn2DuWpa"
         "Q8RqzX5lab92YmOLaCdOHq1BPsM7SIBzMdLgePNsJ1vvMALxAaoDUHPxoFLO2wx18IXnyX"},
    {"RocksDB",
         "c1EeRkukbkb28wLTahwD2sfUhZzaBEnF8SVrxnPVB6A7b8CaAl3UKsDZISF92GSq2wDCukOq"
         "Jgrsp7A3KZhDiLW8dFXp8UPqPxMCRlMdZeVeJ2dJxrmA6cyt99zkQFj7ELbut6jAeVqARFnw"
         "fnWVXOsaLrq7bDCbMcns2DKvTaaqTCLMYxI7nhtLpFN1jR755FRQFcOzrrDbh7QhypjdvlYw"
         "cdAMSZgp9JMHxbM23wPSuH6BOFgxejz35PScZfhDPvTOxIy1jc3MZsWrMC3P324zNolO7JdW"
         "CX2I5UDKjjaEJfxbgVgJIXxtQGlmj2xkO5sPpjULQV4X2HlY7FQleJ4QRaJIB4buhCA4vUTF"
         "eMFlxCIYUpTCsal2qsmnGOWa8WCcefrohMjDj1fjzSvSaQwlpyR1GZHF2uPOoQagiCpHpm"},
};

static void test_xxph3(void)
{
    for (size_t i = 0; i < sizeof ROCKS64 / sizeof ROCKS64[0]; i++)
        EQ(hash_xxph3_64(ROCKS64[i].s, ROCKS64[i].n, 0), ROCKS64[i].h, "RocksDB Hash64");
    static const char mod61[] = "abcdefghijklmnopqrstuvwxyz123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    char input[440], got[431];
    for (size_t t = 0; t < 3; t++) {
        size_t plen = strlen(ROCKS64_LARGE[t].pattern);
        for (size_t i = 0; i < sizeof input; i++)
            input[i] = ROCKS64_LARGE[t].pattern[i % plen];
        for (size_t i = 0; i < 430; i++)
            got[i] = mod61[hash_xxph3_64(input, i, 0) % 61];
        got[430] = 0;
        if (strcmp(got, ROCKS64_LARGE[t].descriptor) != 0) {
            fprintf(stderr, "FAIL RocksDB Hash64 descriptor of %s\n", ROCKS64_LARGE[t].pattern);
            failures++;
        }
    }
    printf("RocksDB Hash64 (XXPH3): util/hash_test.cc small-value and large-value schemas "
           "(every length to 429)\n");
}

/* ---- XXH64 (libxxhash) ----
 * Cyan4973/xxHash@35b0373c (v0.8.1) cli/xsum_sanity_check.c:46-56 XSUM_fillTestBuffer
 * (byte i = the top byte of PRIME32 * PRIME64^i) and :113-123 XSUM_XXH64_testdata. */
static void test_xxh64(void)
{
    static const struct { size_t len; uint64_t seed, h; } v[] = {
        {0, 0, 0xEF46DB3751D8E999u},   {0, 2654435761u, 0xAC75FDA2929B17EFu},
        {1, 0, 0xE934A84ADB052768u},   {1, 2654435761u, 0x5014607643A9B4C3u},
        {4, 0, 0x9136A0DCA57457EEu},   {14, 0, 0x8282DCC4994E35C8u},
        {14, 2654435761u, 0xC3BD6BF63DEB6DF0u}, {222, 0, 0xB641AE8CB691C174u},
        {222, 2654435761u, 0x20CB8AB7AE10C14Au},
    };
    uint8_t buf[222];
    uint64_t gen = 2654435761u;
    for (size_t i = 0; i < sizeof buf; i++) {
        buf[i] = (uint8_t)(gen >> 56);
        gen *= UINT64_C(11400714785074694797);
    }
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        EQ(hash_xxh64(buf, v[i].len, v[i].seed), v[i].h, "XXH64 sanity");
    printf("XXH64: xxHash 0.8.1's sanity vectors\n");
}

/* ---- bloomfilter.js's FNV ---- */

/* 64-bit FNV-1a over ASCII is FNV-1a over bytes: the FNV reference's test vectors
 * (isthe.com/chongo/tech/comp/fnv, test_fnv.c: FNV1A_64 of "", "a", "foobar").
 * Non-ASCII strings hash their UTF-16 units: tests/test_library_words.c checks those
 * against the library's tests, and they agreed with node running bloomfilter 0.0.16,
 * 0.0.17, 0.0.21 and 1.1.0 on 600 keys (emoji and accents among them). */
static void test_fnv(void)
{
    EQ(hash_fnv64_js("", 0), 0xcbf29ce484222325u, "FNV-1a 64 \"\"");
    EQ(hash_fnv64_js("a", 1), 0xaf63dc4c8601ec8cu, "FNV-1a 64 \"a\"");
    EQ(hash_fnv64_js("foobar", 6), 0x85944171f73967e8u, "FNV-1a 64 \"foobar\"");
    /* The plain byte version (hash splits): the same vectors, and bytes past 0x7f taken
     * one by one (c3 a9, not the unit 0xe9). */
    EQ(hash_fnv1a64("", 0), 0xcbf29ce484222325u, "FNV-1a 64 bytes \"\"");
    EQ(hash_fnv1a64("a", 1), 0xaf63dc4c8601ec8cu, "FNV-1a 64 bytes \"a\"");
    EQ(hash_fnv1a64("foobar", 6), 0x85944171f73967e8u, "FNV-1a 64 bytes \"foobar\"");
    EQ(hash_fnv1a64("\xc3\xa9", 2),
       (((0xcbf29ce484222325u ^ 0xc3) * 0x100000001b3u) ^ 0xa9) * 0x100000001b3u, "c3 a9");
    /* One unit per code unit: "é" (U+00E9) is one unit 0xe9, not the bytes c3 a9. */
    EQ(hash_fnv64_js("\xc3\xa9", 2), (0xcbf29ce484222325u ^ 0xe9) * 0x100000001b3u, "é");
    uint16_t u[8];
    EQ(hash_utf8_to_utf16("\xf0\x9f\x98\x80", 4, u), 2, "emoji units"); /* U+1F600 */
    EQ(u[0], 0xd83d, "high surrogate");
    EQ(u[1], 0xde00, "low surrogate");
    EQ(hash_utf8_to_utf16("a\xff\xc3(", 4, u), 4, "invalid UTF-8 units");
    EQ(u[1], 0xfffd, "0xff");
    EQ(u[2], 0xfffd, "truncated 0xc3");
    EQ(u[3], '(', "resynchronised");
    EQ(hash_utf8_to_utf16("\xed\xa0\x80", 3, u), 3, "a surrogate in UTF-8 is 3 x U+FFFD");
    printf("FNV-1a 64 (bloomfilter.js): FNV's vectors; UTF-8 to UTF-16 units\n");
}

/* ---- DCSO bloom's FNV-1 64 (Go's hash/fnv New64), in its library's file ----
 * Go's own vectors, src/hash/fnv/fnv_test.go golden64: "", "a", "ab", "abc"; and the
 * FNV reference's FNV1_64 of "foobar" (isthe.com test_fnv.c). The library's word is the
 * hash itself (dcso.c). */
static uint64_t dcso_fnv1(const char *s)
{
    rkey_t k = {.kind = KEY_BYTES, .bytes = (const uint8_t *)s, .len = strlen(s)};
    probe_geom_t g = {0};
    uint64_t h;
    library_find("dcso-bloom")->words->words(&k, &g, &h);
    return h;
}
static void test_fnv1(void)
{
    EQ(dcso_fnv1(""), 0xcbf29ce484222325u, "FNV-1 64 \"\"");
    EQ(dcso_fnv1("a"), 0xaf63bd4c8601b7beu, "FNV-1 64 \"a\"");
    EQ(dcso_fnv1("ab"), 0x08326707b4eb37b8u, "FNV-1 64 \"ab\"");
    EQ(dcso_fnv1("abc"), 0xd8dcca186bafadcbu, "FNV-1 64 \"abc\"");
    EQ(dcso_fnv1("foobar"), 0x340d8765a4dda9c2u, "FNV-1 64 \"foobar\"");
    EQ(hash_fnv1_64("", 0), 0xcbf29ce484222325u, "hash_fnv1_64 \"\"");
    EQ(hash_fnv1_64("abc", 3), 0xd8dcca186bafadcbu, "hash_fnv1_64 \"abc\"");
    EQ(hash_fnv1_64("foobar", 6), 0x340d8765a4dda9c2u, "hash_fnv1_64 \"foobar\"");
    printf("FNV-1 64 (DCSO bloom): Go's and FNV's vectors\n");
}

/* ---- MetroHash64 (go-metro, seiflotfy/cuckoofilter's hash) ----
 * go-metro metro_test.go Test64 (lines 9-26): the 63-byte key "0123...012" at seeds 0
 * and 1, the digests as little-endian bytes; they are the reference MetroHash64's
 * published vectors (jandrewrogers/MetroHash src/testvector.h, test_seed_0 and _1). */
static void test_metro64(void)
{
    const char *key63 = "012345678901234567890123456789012345678901234567890123456789012";
    EQ(hash_metro64(key63, 63, 0), 0xAD4B7006AE3D756Bu, "MetroHash64 seed 0");
    EQ(hash_metro64(key63, 63, 1), 0xDFB8B9F41C480D3Bu, "MetroHash64 seed 1");
    printf("MetroHash64 (go-metro): its test vectors\n");
}

/* ---- Go's math/rand (go_rand.c) ----
 * rngCooked: words 0, 1, 2 and 606 of Go 1.19's table (src/math/rand/rng.go, lines 25
 * and 176), which go_rand_cooked computes from gen_cooked.go's generator. The source:
 * regress_test.go's golden values, each method's run from Seed(0): Int63 (lines
 * 244-247) and Int31n(32) as its third draw (line 226; Int31n(1) and Int31n(10) before
 * it each took one draw here). */
static void test_go_rand(void)
{
    const uint64_t *cooked = go_rand_cooked();
    EQ(cooked[0], (uint64_t)INT64_C(-4181792142133755926), "rngCooked[0]");
    EQ(cooked[1], (uint64_t)INT64_C(-4576982950128230565), "rngCooked[1]");
    EQ(cooked[2], UINT64_C(1395769623340756751), "rngCooked[2]");
    EQ(cooked[606], UINT64_C(4152330101494654406), "rngCooked[606]");
    go_rand_t r;
    go_rand_seed(&r, 0);
    static const uint64_t int63[] = {8717895732742165505u, 2259404117704393152u,
                                     6050128673802995827u, 501233450539197794u};
    for (int i = 0; i < 4; i++)
        EQ(go_rand_uint64(&r) & (UINT64_MAX >> 1), int63[i], "Go Int63 from Seed(0)");
    go_rand_seed(&r, 0);
    (void)go_rand_uint64(&r), (void)go_rand_uint64(&r);
    EQ(go_rand_intn_pow2(&r, 32), 25, "Go Int31n(32), third draw from Seed(0)");
    printf("Go math/rand: rngCooked computed, regress_test.go's golden draws\n");
}

/* ---- seedrandom (seedrandom.c) ----
 * seedrandom 3.0.5 README.md lines 28-33: seedrandom('hello.') gives 0.9282578795792454,
 * then 0.3752569768646784, then quick() 0.7316977467853576 (one int32's four outputs
 * over 2^32). */
static void test_seedrandom(void)
{
    seedrandom_t r;
    seedrandom_init(&r, "hello.", 6);
    double a = seedrandom_double(&r), b = seedrandom_double(&r);
    double q = (double)(uint32_t)seedrandom_int32(&r) / 4294967296.0;
    if (a != 0.9282578795792454 || b != 0.3752569768646784 || q != 0.7316977467853576) {
        fprintf(stderr, "FAIL seedrandom('hello.'): %.17g %.17g %.17g\n", a, b, q);
        failures++;
    }
    printf("seedrandom: its README's outputs for 'hello.'\n");
}

int main(void)
{
    test_smhasher();
    test_guava();
    test_cassandra();
    test_sum256();
    test_spark();
    test_hive64();
    test_leveldb();
    test_rocksdb32();
    test_xxph3();
    test_xxh64();
    test_fnv();
    test_fnv1();
    test_metro64();
    test_go_rand();
    test_seedrandom();
    if (failures)
        fprintf(stderr, "%d failures\n", failures);
    return failures ? 1 : 0;
}
