/* seedrandom.c - David Bau's seedrandom 3.0.5 (npm `seedrandom`, davidbau/seedrandom),
 * its default ARC4 generator (generators.h), which npm bloom-filters 3.0.4 seeds with a
 * filter's seed as a decimal string (base-filter.ts: seedrandom(`${this._seed}`)).
 *
 * Source: seedrandom.js of 3.0.5: width 256, chunks 6, 52 significant bits (lines
 * 28-38); seedrandom (line 44): the key is mixkey of the seed string, then ARC4(key);
 * prng (lines 58-73): a numerator of 6 outputs over 2^48, then further outputs until 52
 * bits, shifted down to fewer than 53; int32 (line 75); ARC4 (lines 116-144): the RC4 key
 * schedule with the key repeated, then g(256), outputs dropped; mixkey (lines 179-186):
 * key[j & 255] = 255 & ((smear ^= key[j & 255] * 19) + charCodeAt(j)), where a slot not
 * yet written reads as undefined, whose product is NaN and xors as 0. Checked in
 * tests/test_hashes.c against its README's examples.
 */
#include "hashes/generators.h"

/* g(count) for count <= 4: the next count outputs, the first the most significant. */
static uint32_t g(seedrandom_t *r, unsigned count)
{
    uint32_t out = 0;
    while (count--) {
        uint8_t t = r->s[++r->i];
        r->j = (uint8_t)(r->j + t);
        r->s[r->i] = r->s[r->j];
        r->s[r->j] = t;
        out = out << 8 | r->s[(uint8_t)(r->s[r->i] + t)];
    }
    return out;
}

void seedrandom_init(seedrandom_t *r, const char *seed, size_t len)
{
    uint8_t key[256];
    size_t keylen = 0;
    int32_t smear = 0;
    for (size_t j = 0; j < len; j++) { /* mixkey */
        size_t at = j & 255;
        if (at < keylen)
            smear ^= key[at] * 19;
        key[at] = (uint8_t)(smear + (uint8_t)seed[j]);
        keylen = at + 1 > keylen ? at + 1 : keylen;
    }
    if (!keylen) /* ARC4: an empty key is [0] */
        key[keylen++] = 0;
    for (unsigned i = 0; i < 256; i++)
        r->s[i] = (uint8_t)i;
    uint8_t j = 0;
    for (unsigned i = 0; i < 256; i++) {
        uint8_t t = r->s[i];
        j = (uint8_t)(j + key[i % keylen] + t);
        r->s[i] = r->s[j];
        r->s[j] = t;
    }
    r->i = r->j = 0;
    for (unsigned k = 0; k < 64; k++) /* g(width): 256 outputs dropped */
        (void)g(r, 4);
}

/* Every step is exact in doubles: n stays below 2^61 and a multiple of 2^8 when it is
 * halved, d a power of two. */
double seedrandom_double(seedrandom_t *r)
{
    const double significance = 4503599627370496.0, overflow = 2 * significance; /* 2^52 */
    double n = (double)g(r, 4) * 65536.0 + (double)g(r, 2), d = 281474976710656.0; /* 2^48 */
    unsigned x = 0;
    while (n < significance) {
        n = (n + x) * 256;
        d *= 256;
        x = g(r, 1);
    }
    while (n >= overflow) {
        n /= 2;
        d /= 2;
        x >>= 1;
    }
    return (n + x) / d;
}

int32_t seedrandom_int32(seedrandom_t *r) { return (int32_t)g(r, 4); }
