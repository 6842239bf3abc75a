/* murmur3.c - MurmurHash3 as the libraries run it: the reference x86_32 and x64_128
 * (Guava's Murmur3_128HashFunction, bits-and-blooms), Cassandra's x64_128 with
 * sign-extended tail bytes, bits-and-blooms' sum256, Spark's Murmur3_x86_32 with its
 * per-byte tail, and Hive's and ORC's one-lane hash64.
 *
 * Sources (the algorithms; the code here is written from them):
 *   aappleby/smhasher src/MurmurHash3.cpp (MurmurHash3_x86_32, MurmurHash3_x64_128).
 *   google/guava guava/src/com/google/common/hash/Murmur3_128HashFunction.java: the
 *     reference x64_128; asBytes() is h1 then h2, little-endian.
 *   apache/cassandra src/java/org/apache/cassandra/utils/MurmurHash.java hash3_x64_128:
 *     blocks read with & 0xff, tail bytes as ((long) key.get(offset + i)) << 8i, i.e.
 *     sign-extended (copied verbatim in Cassandra's harry, TokenUtil.java; pinned in
 *     test/unit/org/apache/cassandra/utils/MurmurHashPropertyTest.java @13fc57b0).
 *   bits-and-blooms/bloom murmur.go @289c255a (sum256: "strictly equivalent to" hashing
 *     data, then data with a byte 1 appended, with twmb/murmur3's New128).
 *   apache/spark common/sketch/src/main/java/org/apache/spark/util/sketch/
 *     Murmur3_x86_32.java @16f28a15: hashLong mixes the low int then the high int;
 *     hashUnsafeBytes mixes the 4-byte blocks, then each remaining byte alone as a full
 *     block (mixK1, mixH1) of Platform.getByte's signed value, unlike the reference's
 *     one xor-only tail block.
 *   apache/hive storage-api/src/java/org/apache/hive/common/util/Murmur3.java @6dbe9977
 *     hash64 (and apache/orc java/core/src/java/org/apache/orc/util/Murmur3.java, the
 *     same): one lane, k1's mixing of x64_128 and h = rotl(h, 27) * 5 + 0x52dce729 per
 *     8-byte block, unsigned tail bytes, h ^= len, fmix64; seed an int (104729).
 */
#include "hashes/hashes.h"

static inline uint32_t rotl32(uint32_t x, int r)
{
    return (x << r) | (x >> (32 - r));
}
static inline uint64_t rotl64(uint64_t x, int r)
{
    return (x << r) | (x >> (64 - r));
}
static inline uint32_t load32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t load64(const uint8_t *p)
{
    return (uint64_t)load32(p) | (uint64_t)load32(p + 4) << 32;
}

/* ---- x86_32 ---- */

#define C1_32 0xcc9e2d51u
#define C2_32 0x1b873593u

static inline uint32_t mix_k1(uint32_t k)
{
    return rotl32(k * C1_32, 15) * C2_32;
}
static inline uint32_t mix_h1(uint32_t h, uint32_t k)
{
    return rotl32(h ^ k, 13) * 5 + 0xe6546b64u;
}
static inline uint32_t fmix32(uint32_t h, uint32_t len)
{
    h ^= len;
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    return h ^ (h >> 16);
}

/* The 4-byte blocks of data, from h. */
static uint32_t blocks32(const uint8_t *p, size_t nblocks, uint32_t h)
{
    for (size_t i = 0; i < nblocks; i++)
        h = mix_h1(h, mix_k1(load32(p + 4 * i)));
    return h;
}

uint32_t hash_murmur3_x86_32(const void *data, size_t len, uint32_t seed)
{
    const uint8_t *p = data;
    uint32_t h = blocks32(p, len / 4, seed);
    const uint8_t *t = p + len / 4 * 4;
    uint32_t k = 0;
    switch (len & 3) {
    case 3:
        k ^= (uint32_t)t[2] << 16;
        /* fall through */
    case 2:
        k ^= (uint32_t)t[1] << 8;
        /* fall through */
    case 1:
        k ^= t[0];
        h ^= mix_k1(k);
    }
    return fmix32(h, (uint32_t)len);
}

uint32_t hash_spark_int(uint32_t v, uint32_t seed)
{
    return fmix32(mix_h1(seed, mix_k1(v)), 4);
}

uint32_t hash_spark_long(uint64_t v, uint32_t seed)
{
    uint32_t h = mix_h1(seed, mix_k1((uint32_t)v));
    return fmix32(mix_h1(h, mix_k1((uint32_t)(v >> 32))), 8);
}

uint32_t hash_spark_bytes(const void *data, size_t len, uint32_t seed)
{
    const uint8_t *p = data;
    uint32_t h = blocks32(p, len / 4, seed);
    for (size_t i = len / 4 * 4; i < len; i++) /* a Java byte, sign-extended to int */
        h = mix_h1(h, mix_k1((uint32_t)(int32_t)(int8_t)p[i]));
    return fmix32(h, (uint32_t)len);
}

/* ---- x64_128 ---- */

#define C1_64 UINT64_C(0x87c37b91114253d5)
#define C2_64 UINT64_C(0x4cf5ad432745937f)

static inline uint64_t fmix64(uint64_t k)
{
    k ^= k >> 33;
    k *= UINT64_C(0xff51afd7ed558ccd);
    k ^= k >> 33;
    k *= UINT64_C(0xc4ceb9fe1a85ec53);
    return k ^ (k >> 33);
}

/* One 16-byte block (k1, k2) into (h[0], h[1]). */
static inline void block128(uint64_t *h, uint64_t k1, uint64_t k2)
{
    h[0] ^= rotl64(k1 * C1_64, 31) * C2_64;
    h[0] = (rotl64(h[0], 27) + h[1]) * 5 + 0x52dce729;
    h[1] ^= rotl64(k2 * C2_64, 33) * C1_64;
    h[1] = (rotl64(h[1], 31) + h[0]) * 5 + 0x38495ab5;
}

/* Tail byte i (t bytes) as the library widens it: unsigned, or a sign-extended Java
 * byte; then the finalisation with the whole length len. */
static void finish128(uint64_t *h, const uint8_t *t, size_t n, uint64_t len, int sign_ext,
                      uint64_t out[2])
{
    uint64_t k[2] = {0, 0};
    if (sign_ext) {
        for (size_t i = 0; i < n; i++)
            k[i / 8] ^= (uint64_t)(int64_t)(int8_t)t[i] << (8 * (i % 8));
    } else { /* unsigned bytes, as the reference's switch takes them: no loop per byte
              * (a loop took a third of the time of a 10-byte key) */
        if (n >= 8)
            k[0] = load64(t);
        const uint8_t *r = n >= 8 ? t + 8 : t;
        uint64_t w = 0;
        switch (n % 8) {
        case 7: w ^= (uint64_t)r[6] << 48; /* fall through */
        case 6: w ^= (uint64_t)r[5] << 40; /* fall through */
        case 5: w ^= (uint64_t)r[4] << 32; /* fall through */
        case 4: w ^= (uint64_t)load32(r); break;
        case 3: w ^= (uint64_t)r[2] << 16; /* fall through */
        case 2: w ^= (uint64_t)r[1] << 8; /* fall through */
        case 1: w ^= r[0]; /* fall through */
        default: break;
        }
        k[n >= 8] = w;
    }
    if (n > 8)
        h[1] ^= rotl64(k[1] * C2_64, 33) * C1_64;
    if (n > 0)
        h[0] ^= rotl64(k[0] * C1_64, 31) * C2_64;
    h[0] ^= len, h[1] ^= len;
    h[0] += h[1], h[1] += h[0];
    h[0] = fmix64(h[0]), h[1] = fmix64(h[1]);
    h[0] += h[1], h[1] += h[0];
    out[0] = h[0], out[1] = h[1];
}

static void x64_128(const uint8_t *p, size_t len, uint64_t seed, int sign_ext, uint64_t out[2])
{
    uint64_t h[2] = {seed, seed};
    size_t nblocks = len / 16;
    for (size_t i = 0; i < nblocks; i++)
        block128(h, load64(p + 16 * i), load64(p + 16 * i + 8));
    finish128(h, p + 16 * nblocks, len % 16, len, sign_ext, out);
}

void hash_murmur3_x64_128(const void *data, size_t len, uint64_t seed, uint64_t out[2])
{
    x64_128(data, len, seed, 0, out);
}

void hash_murmur3_cassandra(const void *data, size_t len, uint64_t seed, uint64_t out[2])
{
    x64_128(data, len, seed, 1, out);
}

/* The blocks are shared; only the tail differs: t bytes then 0x01, which is a whole
 * block when t is 15 (bits-and-blooms' two branches, murmur.go:271-289). */
void hash_murmur3_sum256(const void *data, size_t len, uint64_t out[4])
{
    const uint8_t *p = data;
    uint64_t h[2] = {0, 0}, g[2];
    size_t nblocks = len / 16, t = len % 16;
    for (size_t i = 0; i < nblocks; i++)
        block128(h, load64(p + 16 * i), load64(p + 16 * i + 8));
    g[0] = h[0], g[1] = h[1];
    finish128(h, p + 16 * nblocks, t, len, 0, out);
    uint8_t tail[16] = {0};
    for (size_t i = 0; i < t; i++)
        tail[i] = p[16 * nblocks + i];
    tail[t] = 1;
    if (t + 1 == 16) {
        block128(g, load64(tail), load64(tail + 8));
        finish128(g, tail, 0, len + 1, 0, out + 2);
    } else {
        finish128(g, tail, t + 1, len + 1, 0, out + 2);
    }
}

/* ---- Hive's hash64 ---- */

uint64_t hash_hive64(const void *data, size_t len, uint32_t seed)
{
    const uint8_t *p = data;
    uint64_t h = (uint64_t)(int64_t)(int32_t)seed; /* long hash = seed (an int) */
    size_t nblocks = len / 8;
    for (size_t i = 0; i < nblocks; i++) {
        h ^= rotl64(load64(p + 8 * i) * C1_64, 31) * C2_64;
        h = rotl64(h, 27) * 5 + 0x52dce729;
    }
    uint64_t k = 0;
    for (size_t i = 0; i < len % 8; i++)
        k ^= (uint64_t)p[8 * nblocks + i] << (8 * i);
    if (len % 8)
        h ^= rotl64(k * C1_64, 31) * C2_64;
    return fmix64(h ^ len);
}
