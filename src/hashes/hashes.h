/* hashes.h - the hash functions the audited libraries really use, bit for bit: one file
 * per family under src/hashes/, each citing the library's source and checked in
 * tests/test_hashes.c against published vectors (the reference implementation's or the
 * library's own tests). docs/model.md (Key sets and real hashes) says which library uses
 * which, with which seeds
 * and on which bytes of a key; library_words.h turns them into each scheme's words.
 *
 * The xxHash family comes from Debian's libxxhash (the reference implementation); the
 * rest is written here from the libraries' code, because no package ships it: variants
 * (Spark's per-byte tail, Cassandra's and RocksDB's sign-extended tails, Hadoop's reversed
 * tail, Hive's one-lane 64-bit Murmur3) and the preview XXH3 that RocksDB froze into its
 * file format (XXPH3, which differs from xxHash 0.8's XXH3 at every length).
 *
 * All functions are pure: any number of threads may call them. Inputs are byte strings
 * read as the libraries read them on a little-endian machine (all of them x86 and
 * ARM64 defaults; the multi-byte loads here are explicit little-endian).
 */
#ifndef BLOOMSIM_HASHES_HASHES_H
#define BLOOMSIM_HASHES_HASHES_H

#include <stddef.h>
#include <stdint.h>

/* The final mix of bloomfilter.js's FNV-1a variants (its fnv_mix, the same in 0.0.16 to
 * 1.1.0): shifts and adds mod 2^32. Inline: the library's ideal-word scheme runs it in its
 * probe loop (src/libraries/bloomfilter_js.c). */
static inline uint32_t hash_fnv_js_mix(uint32_t a)
{
    a += a << 13;
    a ^= a >> 7;
    a += a << 3;
    a ^= a >> 17;
    a += a << 5;
    return a;
}

/* ---- MurmurHash3 (murmur3.c) ---- */

/* The reference MurmurHash3_x86_32 (aappleby/smhasher MurmurHash3.cpp). */
uint32_t hash_murmur3_x86_32(const void *data, size_t len, uint32_t seed);
/* The reference MurmurHash3_x64_128: out[0] = h1, out[1] = h2 (Guava's asBytes() is
 * h1 then h2 little-endian; bits-and-blooms' Sum128 is (h1, h2)). */
void hash_murmur3_x64_128(const void *data, size_t len, uint64_t seed, uint64_t out[2]);
/* Cassandra's MurmurHash.hash3_x64_128: the reference, except that tail bytes are Java
 * bytes, sign-extended to long before the shift. */
void hash_murmur3_cassandra(const void *data, size_t len, uint64_t seed, uint64_t out[2]);
/* bits-and-blooms' sum256: out[0..1] the reference x64_128 of data, out[2..3] of data
 * with one byte 0x01 appended (no copy of data is made). */
void hash_murmur3_sum256(const void *data, size_t len, uint64_t out[4]);
/* Spark's Murmur3_x86_32 (common/sketch): hashInt, hashLong (low int, then high int)
 * and hashUnsafeBytes, whose tail bytes each take a full round, sign-extended. */
uint32_t hash_spark_int(uint32_t v, uint32_t seed);
uint32_t hash_spark_long(uint64_t v, uint32_t seed);
uint32_t hash_spark_bytes(const void *data, size_t len, uint32_t seed);
/* Hive's and ORC's Murmur3.hash64: one 64-bit lane of x64_128's mixing over 8-byte
 * blocks, then fmix64 (not the first half of x64_128). Default seed 104729. */
#define HASH_HIVE_SEED 104729u
uint64_t hash_hive64(const void *data, size_t len, uint32_t seed);

/* ---- MurmurHash2 (murmur2.c) ---- */

/* The reference MurmurHash2 (32-bit): libbloom's murmurhash2, rebloom's. */
uint32_t hash_murmur2(const void *data, size_t len, uint32_t seed);
/* The reference MurmurHash64A: RedisBloom's MurmurHash64A_Bloom. */
uint64_t hash_murmur64a(const void *data, size_t len, uint64_t seed);
/* Hadoop's util/hash/MurmurHash: MurmurHash2's blocks, but its 1-3 tail bytes are taken
 * in reverse order and sign-extended. */
uint32_t hash_murmur2_hadoop(const void *data, size_t len, uint32_t seed);

/* ---- LevelDB's Hash and RocksDB's (leveldb.c) ---- */

/* The Bloom filters' seed, BloomHash (LevelDB util/bloom.cc, RocksDB util/hash.h). */
#define HASH_BLOOM_SEED 0xbc9f1d34u
/* LevelDB 1.23 util/hash.cc Hash: tail bytes unsigned. */
uint32_t hash_leveldb(const void *data, size_t len, uint32_t seed);
/* RocksDB 7.8.3 util/hash.cc Hash: the same, tail bytes sign-extended. */
uint32_t hash_rocksdb32(const void *data, size_t len, uint32_t seed);

/* ---- xxHash (xxhash.c: libxxhash; xxph3.c: RocksDB's XXPH3) ---- */

uint64_t hash_xxh64(const void *data, size_t len, uint64_t seed);
/* RocksDB's Hash64 (util/hash.cc, util/xxph3.h): XXPH3_64bits_withSeed, the XXH3 preview
 * of xxHash 0.7.2 with RocksDB's own result for the empty input. GetSliceHash64 is
 * seed 0. */
uint64_t hash_xxph3_64(const void *data, size_t len, uint64_t seed);

/* ---- FNV-1a variants of bloomfilter.js (fnv.c) ---- */

/* The input is a UTF-8 string and is hashed as the JavaScript string that decodes from
 * it, code unit by code unit (UTF-16; bytes that are not UTF-8 decode to U+FFFD, as in
 * Node's Buffer.toString). */
/* Plain FNV-1a 64 over bytes, no final mix (the reference's FNV1A_64; hash splits). */
uint64_t hash_fnv1a64(const void *data, size_t len);
/* FNV-1 64 over bytes (multiply, then xor: the reference's FNV1_64; Go's hash/fnv New64,
 * which DCSO's bloom, blobloom's example and BoomFilters use). */
uint64_t hash_fnv1_64(const void *data, size_t len);
/* 0.0.19 on (0.0.21, 1.1.0): 64-bit FNV-1a over whole code units, in 16-bit limbs. */
uint64_t hash_fnv64_js(const void *utf8, size_t len);
/* 0.0.17-0.0.18 fnv_1a(v, seed) and up to 0.0.16 fnv_1a(v) (seed 0): 32-bit FNV-1a
 * over each unit's high byte (when not 0) and low byte, then fnv_mix. */
uint32_t hash_fnv1a_js(const void *utf8, size_t len, uint32_t seed);
/* Code units of the JavaScript string of utf8 into units (at most len of them, as a
 * UTF-8 byte never makes more than one unit); returns their number. */
size_t hash_utf8_to_utf16(const void *utf8, size_t len, uint16_t *units);
/* Whether utf8[0..len) is UTF-8 as that decoder reads it (shortest forms, no surrogates,
 * at most U+10FFFF): what a strict decoder (JavaScript's TextDecoder with fatal, Java's
 * with CodingErrorAction.REPORT) accepts. */
int hash_utf8_valid(const void *utf8, size_t len);

/* ---- MetroHash64 (metro.c) ---- */

/* go-metro's Hash64 (MetroHash64): seiflotfy/cuckoofilter's hash, seed 1337. */
uint64_t hash_metro64(const void *data, size_t len, uint64_t seed);

/* ---- integer mixes (wang.c) ---- */

/* Thomas Wang's 64-bit integer hash as ORC's BloomFilter.getLongHash writes it in Java
 * (arithmetic right shifts of a long). */
uint64_t hash_wang64(uint64_t key);

#endif
