/* metro.c - MetroHash64 (J. Andrew Rogers, 2015) as github.com/dgryski/go-metro codes it
 * (Debian golang-github-dgryski-go-metro-dev 0.0~git20200812.85c65e2), the hash of
 * seiflotfy/cuckoofilter (util.go: metro.Hash64(data, 1337) for a key, and for each
 * fingerprint byte its alternate-bucket offset).
 *
 * Source: go-metro metro64.go (the portable Go; metro_amd64.s is the same function
 * generated for amd64): constants k0..k3 (lines 13-16), hash = (seed + k2) * k0
 * (line 21), the 32-byte lanes (lines 23-43), the 16-, 8-, 4-, 2- and 1-byte tails
 * (lines 45-77) and the finalization (lines 79-81). Its test (metro_test.go Test64:
 * the 63-byte key "0123...012" at seeds 0 and 1) is the reference MetroHash64's
 * published vector, checked in tests/test_hashes.c. Go's RotateLeft64(x, -r) is a
 * rotation right by r.
 */
#include "hashes/hashes.h"

#define K0 UINT64_C(0xD6D018F5)
#define K1 UINT64_C(0xA2AA033B)
#define K2 UINT64_C(0x62992FC1)
#define K3 UINT64_C(0x30BC5B29)

static uint64_t rotr(uint64_t x, unsigned r) { return x >> r | x << (64 - r); }

static uint64_t le(const uint8_t *p, unsigned bytes)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

uint64_t hash_metro64(const void *data, size_t len, uint64_t seed)
{
    const uint8_t *p = data;
    uint64_t hash = (seed + K2) * K0;
    if (len >= 32) {
        uint64_t v0 = hash, v1 = hash, v2 = hash, v3 = hash;
        for (; len >= 32; p += 32, len -= 32) {
            v0 += le(p, 8) * K0;
            v0 = rotr(v0, 29) + v2;
            v1 += le(p + 8, 8) * K1;
            v1 = rotr(v1, 29) + v3;
            v2 += le(p + 16, 8) * K2;
            v2 = rotr(v2, 29) + v0;
            v3 += le(p + 24, 8) * K3;
            v3 = rotr(v3, 29) + v1;
        }
        v2 ^= rotr(((v0 + v3) * K0) + v1, 37) * K1;
        v3 ^= rotr(((v1 + v2) * K1) + v0, 37) * K0;
        v0 ^= rotr(((v0 + v2) * K0) + v3, 37) * K1;
        v1 ^= rotr(((v1 + v3) * K1) + v2, 37) * K0;
        hash += v0 ^ v1;
    }
    if (len >= 16) {
        uint64_t v0 = hash + le(p, 8) * K2;
        v0 = rotr(v0, 29) * K3;
        uint64_t v1 = hash + le(p + 8, 8) * K2;
        v1 = rotr(v1, 29) * K3;
        v0 ^= rotr(v0 * K0, 21) + v1;
        v1 ^= rotr(v1 * K3, 21) + v0;
        hash += v1;
        p += 16, len -= 16;
    }
    if (len >= 8) {
        hash += le(p, 8) * K3;
        p += 8, len -= 8;
        hash ^= rotr(hash, 55) * K1;
    }
    if (len >= 4) {
        hash += le(p, 4) * K3;
        hash ^= rotr(hash, 26) * K1;
        p += 4, len -= 4;
    }
    if (len >= 2) {
        hash += le(p, 2) * K3;
        p += 2, len -= 2;
        hash ^= rotr(hash, 48) * K1;
    }
    if (len >= 1) {
        hash += (uint64_t)p[0] * K3;
        hash ^= rotr(hash, 37) * K1;
    }
    hash ^= rotr(hash, 28);
    hash *= K0;
    hash ^= rotr(hash, 29);
    return hash;
}
