/* xxph3.c - RocksDB's Hash64: XXPH3_64bits_withSeed, the preview of XXH3 (xxHash
 * 0.7.2) that RocksDB froze into its file formats, with RocksDB's own answer for an
 * empty input. The FastLocalBloom filter (format_version 5) takes GetSliceHash64(key) =
 * Hash64(key, 0) and splits it into Lower32of64 and Upper32of64.
 *
 * Why our own code: xxHash 0.8's XXH3_64bits (Debian's libxxhash) is not this hash. On
 * this machine Debian's librocksdb 7.8.3 (rocksdb::Hash64) and libxxhash 0.8.1
 * (XXH3_64bits) differ at every length from 0 to 2048 (0.8 changed the short-input
 * paths, the accumulator lanes and the empty input), and no package ships the preview.
 *
 * Source (the algorithm; the code here is written from it): facebook/rocksdb
 * util/xxph3.h and util/hash.cc @v7.8.3 (Hash64 = XXPH3_64bits_withSeed; len 0: "Return a
 * hash of the seed instead", mul128_fold64(seed + secret[0..8), PRIME64_2)). The input
 * lengths take five paths: 1-3, 4-8, 9-16, 17-128, 129-240 bytes, and longer inputs
 * in stripes of 64 bytes (accumulators of 64-bit width: acc[i] += the input word, not
 * the neighbouring lane's as in 0.8), scrambled every 16 stripes. The 192-byte default
 * secret is xxHash's kSecret. tests/test_hashes.c checks util/hash_test.cc's vectors,
 * which cover every length to 430.
 */
#include <string.h>

#include "hashes/hashes.h"

#define P32_1 UINT64_C(0x9E3779B1)
#define P32_2 UINT64_C(0x85EBCA77)
#define P32_3 UINT64_C(0xC2B2AE3D)
#define P64_1 UINT64_C(0x9E3779B185EBCA87)
#define P64_2 UINT64_C(0xC2B2AE3D27D4EB4F)
#define P64_3 UINT64_C(0x165667B19E3779F9)
#define P64_4 UINT64_C(0x85EBCA77C2B2AE63)
#define P64_5 UINT64_C(0x27D4EB2F165667C5)

enum { SECRET_SIZE = 192, SECRET_SIZE_MIN = 136, STRIPE = 64, ACCS = 8 };

/* long: a table of data, xxHash's default secret (kSecret). */
static const uint8_t SECRET[SECRET_SIZE] = {
    0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c,
    0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb, 0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f,
    0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21,
    0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6, 0x81, 0x3a, 0x26, 0x4c,
    0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb, 0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53, 0x2e, 0xa3,
    0x71, 0x64, 0x48, 0x97, 0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8,
    0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc, 0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d,
    0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31, 0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64,
    0xea, 0xc5, 0xac, 0x83, 0x34, 0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb,
    0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda, 0x49, 0xd3, 0x16, 0x55, 0x26, 0x29, 0xd4, 0x68, 0x9e,
    0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc, 0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce,
    0x45, 0xcb, 0x3a, 0x8f, 0x95, 0x16, 0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b, 0x40, 0x7e,
};

static inline uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t rd64(const uint8_t *p)
{
    return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}
static inline void wr64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* The 128-bit product of a and b, its two halves xored. */
static inline uint64_t fold64(uint64_t a, uint64_t b)
{
    __extension__ unsigned __int128 p = (unsigned __int128)a * b;
    return (uint64_t)p ^ (uint64_t)(p >> 64);
}

static inline uint64_t avalanche(uint64_t h)
{
    h ^= h >> 37;
    h *= P64_3;
    return h ^ (h >> 32);
}

static uint64_t len_0to16(const uint8_t *in, size_t len, uint64_t seed)
{
    if (len > 8) {
        uint64_t lo = rd64(in) ^ (rd64(SECRET) + seed);
        uint64_t hi = rd64(in + len - 8) ^ (rd64(SECRET + 8) - seed);
        return avalanche(len + (lo + hi) + fold64(lo, hi));
    }
    if (len >= 4) {
        uint64_t in64 = rd32(in) | (uint64_t)rd32(in + len - 4) << 32;
        uint64_t keyed = in64 ^ (rd64(SECRET) + seed);
        uint64_t mix = len + ((keyed ^ (keyed >> 51)) * P32_1);
        return avalanche((mix ^ (mix >> 47)) * P64_2);
    }
    if (len > 0) {
        uint32_t c = (uint32_t)in[0] | (uint32_t)in[len >> 1] << 8 |
                     (uint32_t)in[len - 1] << 16 | (uint32_t)len << 24;
        return avalanche((c ^ (rd32(SECRET) + seed)) * P64_1);
    }
    return fold64(seed + rd64(SECRET), P64_2); /* RocksDB's change for the empty input */
}

static inline uint64_t mix16(const uint8_t *in, const uint8_t *s, uint64_t seed)
{
    return fold64(rd64(in) ^ (rd64(s) + seed), rd64(in + 8) ^ (rd64(s + 8) - seed));
}

/* 17 to 128 bytes: pairs of 16-byte pieces from both ends, secret in 16-byte steps. */
static uint64_t len_17to128(const uint8_t *in, size_t len, uint64_t seed)
{
    uint64_t acc = len * P64_1;
    for (size_t r = (len - 1) / 32 + 1; r-- > 0;) {
        acc += mix16(in + 16 * r, SECRET + 32 * r, seed);
        acc += mix16(in + len - 16 * (r + 1), SECRET + 32 * r + 16, seed);
    }
    return avalanche(acc);
}

static uint64_t len_129to240(const uint8_t *in, size_t len, uint64_t seed)
{
    uint64_t acc = len * P64_1;
    size_t rounds = len / 16;
    for (size_t i = 0; i < 8; i++)
        acc += mix16(in + 16 * i, SECRET + 16 * i, seed);
    acc = avalanche(acc);
    for (size_t i = 8; i < rounds; i++)
        acc += mix16(in + 16 * i, SECRET + 16 * (i - 8) + 3, seed);
    acc += mix16(in + len - 16, SECRET + SECRET_SIZE_MIN - 17, seed);
    return avalanche(acc);
}

/* One 64-byte stripe into the 8 accumulators (64-bit accumulator width). */
static inline void stripe(uint64_t *acc, const uint8_t *in, const uint8_t *s)
{
    for (int i = 0; i < ACCS; i++) {
        uint64_t v = rd64(in + 8 * i), k = v ^ rd64(s + 8 * i);
        acc[i] += v + (k & 0xffffffffu) * (k >> 32);
    }
}

static inline void scramble(uint64_t *acc, const uint8_t *s)
{
    for (int i = 0; i < ACCS; i++) {
        uint64_t a = acc[i];
        a ^= a >> 47;
        acc[i] = (a ^ rd64(s + 8 * i)) * P32_1;
    }
}

static uint64_t hash_long(const uint8_t *in, size_t len, const uint8_t *s)
{
    uint64_t acc[ACCS] = {P32_3, P64_1, P64_2, P64_3, P64_4, P32_2, P64_5, P32_1};
    const size_t rounds = (SECRET_SIZE - STRIPE) / 8, block = STRIPE * rounds;
    size_t blocks = len / block;
    for (size_t b = 0; b < blocks; b++) {
        for (size_t n = 0; n < rounds; n++)
            stripe(acc, in + b * block + n * STRIPE, s + 8 * n);
        scramble(acc, s + SECRET_SIZE - STRIPE);
    }
    size_t stripes = (len - block * blocks) / STRIPE;
    for (size_t n = 0; n < stripes; n++)
        stripe(acc, in + blocks * block + n * STRIPE, s + 8 * n);
    if (len & (STRIPE - 1))
        stripe(acc, in + len - STRIPE, s + SECRET_SIZE - STRIPE - 7);
    uint64_t r = len * P64_1;
    for (int i = 0; i < ACCS; i += 2)
        r += fold64(acc[i] ^ rd64(s + 11 + 8 * i), acc[i + 1] ^ rd64(s + 11 + 8 * i + 8));
    return avalanche(r);
}

uint64_t hash_xxph3_64(const void *data, size_t len, uint64_t seed)
{
    const uint8_t *in = data;
    if (len <= 16)
        return len_0to16(in, len, seed);
    if (len <= 128)
        return len_17to128(in, len, seed);
    if (len <= 240)
        return len_129to240(in, len, seed);
    if (seed == 0)
        return hash_long(in, len, SECRET);
    uint8_t custom[SECRET_SIZE]; /* the secret's 16-byte halves moved by +seed, -seed */
    for (int i = 0; i < SECRET_SIZE / 16; i++) {
        wr64(custom + 16 * i, rd64(SECRET + 16 * i) + seed);
        wr64(custom + 16 * i + 8, rd64(SECRET + 16 * i + 8) - seed);
    }
    return hash_long(in, len, custom);
}
