/* mulshift.c - the splits mulshift and mulshift-mixed: a weak multiply-shift hash cut
 * into its low and high 32 bits, as is and after seed 003's remedy (split.h).
 *
 * The hash: the key's bytes as 8-byte little-endian words w_1..w_j (the last one padded
 * with zero bytes), x = 0, then x = (x + w) * C mod 2^64 for each, C = 0x910a2dec89025cc1
 * (splitmix64's first output from seed 1, odd: the constant scripts/bench_derive.c's
 * multiply-shift takes). An integer key, one word, hashes to key * C: Dietzfelbinger's
 * multiply-shift before its shift, which keeps the product's high bits because only
 * those depend on every bit of the key. Cut in halves, h1 is the product's low 32 bits,
 * which depend on the key's low 32 bits alone, and for keys 0, 1, 2, ... h1 and h2 are
 * both linear in the key. The padding makes "a" and "a\0" one key; no key set here has
 * such pairs. */
#include <string.h>

#include "splits/split.h"

#define MULSHIFT_C UINT64_C(0x910a2dec89025cc1)

static uint64_t mulshift_hash(const uint8_t *p, size_t len)
{
    uint64_t x = 0;
    for (size_t i = 0; i < len; i += 8) {
        uint64_t w = 0;
        size_t n = len - i < 8 ? len - i : 8;
        for (size_t b = 0; b < n; b++)
            w |= (uint64_t)p[i + b] << (8 * b);
        x = (x + w) * MULSHIFT_C;
    }
    return x;
}

static void mulshift_halves(const rkey_t *key, uint64_t h[2])
{
    SPLIT_KEY_INPUT(key);
    split_halves32(mulshift_hash(in, len), h);
}
static void mulshift_mixed_halves(const rkey_t *key, uint64_t h[2])
{
    SPLIT_KEY_INPUT(key);
    split_halves32(split_remedy(mulshift_hash(in, len)), h);
}
SPLIT_WORDS(mulshift)
SPLIT_WORDS(mulshift_mixed)

const split_t split_mulshift = {
    .name = "mulshift",
    .summary = "multiply-shift over 8-byte words (key * odd constant), low 32 bits h1, "
               "high 32 bits h2",
    .half_bits = 32,
    SPLIT_FNS(mulshift, "multiply-shift 64, low half h1, high half h2"),
};

const split_t split_mulshift_mixed = {
    .name = "mulshift-mixed",
    .summary = "multiply-shift times an odd constant, high half xored into the low, then cut",
    .half_bits = 32, .mixed = 1,
    SPLIT_FNS(mulshift_mixed, "multiply-shift 64 with seed 003's remedy, low half h1, high "
                              "half h2"),
};
