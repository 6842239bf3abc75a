/* murmur3.c - the splits murmur3 and murmur3-mixed: the first 64-bit word (h1) of the
 * reference MurmurHash3_x64_128 with seed 0 (hashes.h hash_murmur3_x64_128), which ends
 * in fmix64, cut into its low and high 32 bits, as is and after seed 003's remedy
 * (split.h). */
#include "hashes/hashes.h"
#include "splits/split.h"

static uint64_t murmur3_first(const rkey_t *key)
{
    SPLIT_KEY_INPUT(key);
    uint64_t out[2];
    hash_murmur3_x64_128(in, len, 0, out);
    return out[0];
}

static void murmur3_halves(const rkey_t *key, uint64_t h[2])
{
    split_halves32(murmur3_first(key), h);
}
static void murmur3_mixed_halves(const rkey_t *key, uint64_t h[2])
{
    split_halves32(split_remedy(murmur3_first(key)), h);
}
SPLIT_WORDS(murmur3)
SPLIT_WORDS(murmur3_mixed)

const split_t split_murmur3 = {
    .name = "murmur3",
    .summary = "MurmurHash3_x64_128's first 64 bits, low 32 bits h1, high 32 bits h2",
    .half_bits = 32,
    SPLIT_FNS(murmur3, "MurmurHash3_x64_128 first word, low half h1, high half h2"),
};

const split_t split_murmur3_mixed = {
    .name = "murmur3-mixed",
    .summary = "MurmurHash3's 64-bit half times an odd constant, high half xored into the "
               "low, then cut",
    .half_bits = 32, .mixed = 1,
    SPLIT_FNS(murmur3_mixed, "MurmurHash3_x64_128 first word with seed 003's remedy, low "
                             "half h1, high half h2"),
};
