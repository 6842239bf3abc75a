/* murmur2.c - MurmurHash2 as the libraries run it: the reference 32-bit MurmurHash2
 * (libbloom, rebloom 1.x), the reference MurmurHash64A (RedisBloom), and Hadoop's port.
 *
 * Sources (the algorithms; the code here is written from them):
 *   aappleby/smhasher src/MurmurHash2.cpp (MurmurHash2, MurmurHash64A).
 *   jvirkki/libbloom murmur2/MurmurHash2.c @v2.0 (57b35ea2) and @v1.6 (30c0ae4c): the
 *     reference, bytes unsigned, blocks read as native (little-endian) ints.
 *   RedisBloom/RedisBloom deps/murmur2/MurmurHash2.c @b28c2945: MurmurHash2 and
 *     MurmurHash64A_Bloom, both the reference (h = seed ^ (len * m) for the latter).
 *   apache/hadoop hadoop-common-project/hadoop-common/src/main/java/org/apache/hadoop/
 *     util/hash/MurmurHash.java @c7a9cbbd: the blocks are the reference's (the top
 *     byte's sign bits shift out); the tail, left = len % 4 bytes, xors data[len - 3]
 *     << 16, data[len - 2] << 8, data[len - 1] for those present, each a Java byte
 *     widened to int with its sign: the reference's t[2] << 16 ^ t[1] << 8 ^ t[0]
 *     with the bytes reversed and sign-extended.
 */
#include "hashes/hashes.h"

#define M32 0x5bd1e995u
#define M64 UINT64_C(0xc6a4a7935bd1e995)

static inline uint32_t load32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t load64(const uint8_t *p)
{
    return (uint64_t)load32(p) | (uint64_t)load32(p + 4) << 32;
}

/* The 4-byte blocks, from h = seed ^ len. */
static uint32_t blocks2(const uint8_t *p, size_t len, uint32_t seed)
{
    uint32_t h = seed ^ (uint32_t)len;
    for (size_t i = 0; i + 4 <= len; i += 4) {
        uint32_t k = load32(p + i) * M32;
        k ^= k >> 24;
        h = (h * M32) ^ (k * M32);
    }
    return h;
}

static uint32_t final2(uint32_t h)
{
    h ^= h >> 13;
    h *= M32;
    return h ^ (h >> 15);
}

uint32_t hash_murmur2(const void *data, size_t len, uint32_t seed)
{
    const uint8_t *p = data;
    uint32_t h = blocks2(p, len, seed);
    const uint8_t *t = p + len / 4 * 4;
    switch (len & 3) {
    case 3:
        h ^= (uint32_t)t[2] << 16;
        /* fall through */
    case 2:
        h ^= (uint32_t)t[1] << 8;
        /* fall through */
    case 1:
        h ^= t[0];
        h *= M32;
    }
    return final2(h);
}

uint32_t hash_murmur2_hadoop(const void *data, size_t len, uint32_t seed)
{
    const uint8_t *p = data;
    uint32_t h = blocks2(p, len, seed);
    size_t left = len & 3;
    if (left) {
        if (left >= 3)
            h ^= (uint32_t)(int32_t)(int8_t)p[len - 3] << 16;
        if (left >= 2)
            h ^= (uint32_t)(int32_t)(int8_t)p[len - 2] << 8;
        h ^= (uint32_t)(int32_t)(int8_t)p[len - 1];
        h *= M32;
    }
    return final2(h);
}

uint64_t hash_murmur64a(const void *data, size_t len, uint64_t seed)
{
    const uint8_t *p = data;
    uint64_t h = seed ^ (len * M64);
    size_t nblocks = len / 8;
    for (size_t i = 0; i < nblocks; i++) {
        uint64_t k = load64(p + 8 * i) * M64;
        k ^= k >> 47;
        h = (h ^ (k * M64)) * M64;
    }
    const uint8_t *t = p + 8 * nblocks;
    if (len & 7) {
        for (size_t i = 0; i < (len & 7); i++)
            h ^= (uint64_t)t[i] << (8 * i);
        h *= M64;
    }
    h ^= h >> 47;
    h *= M64;
    return h ^ (h >> 47);
}
