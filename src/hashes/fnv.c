/* fnv.c - the FNV-1a variants of Jason Davies' bloomfilter.js (npm `bloomfilter`), over
 * the UTF-16 code units of a JavaScript string (v.charCodeAt(i)); add and test take
 * v + "", so a number is hashed as its decimal string.
 *
 * Sources (the algorithms; the code here is written from them):
 *   jasondavies/bloomfilter.js bloomfilter.js @ad00141a (0.0.21) and npm bloomfilter
 *     1.1.0's bloomfilter.js (the same locations()): 64-bit FNV-1a in four 16-bit limbs
 *     v0..v3; per unit, v0 ^= charCodeAt(i) (the whole unit, up to 16 bits), then the
 *     limbs times 0x1b3 with v0 << 8 and v1 << 8 carried into limbs 2 and 3, i.e.
 *     h = (h ^ unit) * 0x100000001b3 mod 2^64 from h = 0xcbf29ce484222325;
 *     a = (v3 << 16) | v2, b = (v1 << 16) | v0: the high and low 32 bits as int32.
 *   the same repository @ea32aabe (0.0.17) and @27b1760b (0.0.16): fnv_1a(v, seed) =
 *     fnv_mix of a = 2166136261 ^ seed, per unit a = fnv_multiply(a ^ high byte) when
 *     the high byte is not 0, then a = fnv_multiply(a ^ low byte); fnv_multiply(a) =
 *     a * 16777619, fnv_mix(a): a += a << 13, a ^= a >>> 7, a += a << 3, a ^= a >>> 17,
 *     a += a << 5, all mod 2^32 (JavaScript's shifts and ^ reduce to 32 bits, and + of
 *     those stays congruent). 0.0.16's fnv_1a has no seed (seed 0).
 * From UTF-8 to the string: the WHATWG Encoding Standard's UTF-8 decoder (what Node's
 * TextDecoder and Buffer.toString do): code points past U+FFFF as surrogate pairs,
 * each maximal invalid subsequence as one U+FFFD.
 *
 * hash_fnv1a64 is plain FNV-1a 64 over bytes (Fowler, Noll, Vo; the reference
 * isthe.com/chongo/tech/comp/fnv: offset basis 0xcbf29ce484222325, prime 0x100000001b3),
 * with no final mix: the unmixed hash seed 003 warns against splitting (src/splits/).
 * Over ASCII bytes it is hash_fnv64_js, whose units are then the bytes.
 */
#include "hashes/hashes.h"

/* What decode returns for an invalid sequence; the string holds U+FFFD there. */
#define NOT_UTF8 0x110000u

/* The code point starting at p[*i] (advancing *i), NOT_UTF8 for an invalid sequence. */
static uint32_t decode(const uint8_t *p, size_t len, size_t *i)
{
    uint8_t b = p[(*i)++];
    if (b < 0x80)
        return b;
    unsigned need;
    uint32_t cp;
    uint8_t lo = 0x80, hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf)
        need = 1, cp = b & 0x1f;
    else if (b >= 0xe0 && b <= 0xef)
        need = 2, cp = b & 0x0f, lo = b == 0xe0 ? 0xa0 : 0x80, hi = b == 0xed ? 0x9f : 0xbf;
    else if (b >= 0xf0 && b <= 0xf4)
        need = 3, cp = b & 0x07, lo = b == 0xf0 ? 0x90 : 0x80, hi = b == 0xf4 ? 0x8f : 0xbf;
    else
        return NOT_UTF8;
    while (need-- > 0) {
        if (*i >= len || p[*i] < lo || p[*i] > hi)
            return NOT_UTF8; /* the offending byte is read again as the next sequence */
        cp = cp << 6 | (p[(*i)++] & 0x3f);
        lo = 0x80, hi = 0xbf;
    }
    return cp;
}

/* The next one or two code units of the string; returns how many. */
static inline int units(const uint8_t *p, size_t len, size_t *i, uint16_t u[2])
{
    if (p[*i] < 0x80) {
        u[0] = p[(*i)++];
        return 1;
    }
    uint32_t cp = decode(p, len, i);
    if (cp == NOT_UTF8)
        cp = 0xfffd;
    if (cp < 0x10000) {
        u[0] = (uint16_t)cp;
        return 1;
    }
    u[0] = (uint16_t)(0xd800 + ((cp - 0x10000) >> 10));
    u[1] = (uint16_t)(0xdc00 + ((cp - 0x10000) & 0x3ff));
    return 2;
}

int hash_utf8_valid(const void *utf8, size_t len)
{
    const uint8_t *p = utf8;
    for (size_t i = 0; i < len;)
        if (decode(p, len, &i) == NOT_UTF8)
            return 0;
    return 1;
}

size_t hash_utf8_to_utf16(const void *utf8, size_t len, uint16_t *out)
{
    const uint8_t *p = utf8;
    size_t i = 0, n = 0;
    uint16_t u[2];
    while (i < len) {
        int c = units(p, len, &i, u);
        for (int j = 0; j < c; j++)
            out[n++] = u[j];
    }
    return n;
}

uint64_t hash_fnv64_js(const void *utf8, size_t len)
{
    const uint8_t *p = utf8;
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    size_t i = 0;
    uint16_t u[2];
    while (i < len) {
        int c = units(p, len, &i, u);
        for (int j = 0; j < c; j++)
            h = (h ^ u[j]) * UINT64_C(0x100000001b3);
    }
    return h;
}

uint64_t hash_fnv1a64(const void *data, size_t len)
{
    const uint8_t *p = data;
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * UINT64_C(0x100000001b3);
    return h;
}

uint64_t hash_fnv1_64(const void *data, size_t len)
{
    const uint8_t *p = data;
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < len; i++)
        h = (h * UINT64_C(0x100000001b3)) ^ p[i];
    return h;
}

#define FNV32_PRIME 16777619u

uint32_t hash_fnv1a_js(const void *utf8, size_t len, uint32_t seed)
{
    const uint8_t *p = utf8;
    uint32_t a = 2166136261u ^ seed;
    size_t i = 0;
    uint16_t u[2];
    while (i < len) {
        int c = units(p, len, &i, u);
        for (int j = 0; j < c; j++) {
            if (u[j] & 0xff00)
                a = (a ^ (uint32_t)(u[j] >> 8)) * FNV32_PRIME;
            a = (a ^ (uint32_t)(u[j] & 0xff)) * FNV32_PRIME;
        }
    }
    return hash_fnv_js_mix(a);
}
