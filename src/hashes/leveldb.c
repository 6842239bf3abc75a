/* leveldb.c - LevelDB's 32-bit Hash and RocksDB's, which its Bloom filters take with
 * seed 0xbc9f1d34 (BloomHash): a MurmurHash1-like hash, m = 0xc6a4a793.
 *
 * Sources (the algorithm; the code here is written from it):
 *   google/leveldb util/hash.cc @1.23 (99b3c03b): h = seed ^ (n * m); per 4 bytes
 *     (DecodeFixed32, little-endian) h += w, h *= m, h ^= h >> 16; 1-3 tail bytes added
 *     as static_cast<uint8_t>(data[i]) << 8i, then h *= m, h ^= h >> 24. util/bloom.cc
 *     BloomHash is Hash(key, 0xbc9f1d34). Debian's libleveldb-dev is 1.23.
 *   facebook/rocksdb util/hash.cc @v7.8.3: the same, except the tail bytes are
 *     static_cast<uint32_t>(static_cast<int8_t>(data[i])) << 8i: sign-extended, "part of
 *     the format definition, so we cannot change it" (the code before the cast was a
 *     plain char, signed on x86). util/hash.h BloomHash = Hash(key, 0xbc9f1d34), which
 *     LegacyBloomBitsBuilder::AddKey takes (table/block_based/filter_policy.cc @v7.8.3).
 * The two differ only for inputs whose length is not a multiple of 4 with a tail byte
 * of 0x80 or more (util/hash_test.cc of each pins such inputs).
 */
#include "hashes/hashes.h"

#define M_LDB 0xc6a4a793u

static uint32_t hash32(const uint8_t *p, size_t n, uint32_t seed, int sign_ext)
{
    uint32_t h = seed ^ (uint32_t)(n * M_LDB);
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        h += (uint32_t)p[i] | (uint32_t)p[i + 1] << 8 | (uint32_t)p[i + 2] << 16 |
             (uint32_t)p[i + 3] << 24;
        h *= M_LDB;
        h ^= h >> 16;
    }
    size_t t = n - i;
    if (t == 0)
        return h;
    for (size_t j = t; j-- > 0;) {
        uint32_t b = sign_ext ? (uint32_t)(int32_t)(int8_t)p[i + j] : p[i + j];
        h += b << (8 * j);
    }
    h *= M_LDB;
    return h ^ (h >> 24);
}

uint32_t hash_leveldb(const void *data, size_t len, uint32_t seed)
{
    return hash32(data, len, seed, 0);
}

uint32_t hash_rocksdb32(const void *data, size_t len, uint32_t seed)
{
    return hash32(data, len, seed, 1);
}
