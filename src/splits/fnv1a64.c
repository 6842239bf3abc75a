/* fnv1a64.c - the splits fnv1a64 and fnv1a64-mixed: plain FNV-1a 64 over the key's bytes
 * (hashes.h, hash_fnv1a64), which has no final mix, cut into its low and high 32 bits,
 * as is and after seed 003's remedy (split.h). bloomfilter.js cuts the same hash of its
 * UTF-16 units so (src/libraries/bloomfilter_js.c: a = the high 32 bits, b = the low).
 * FNV's last step is a multiply by 0x100000001b3, which carries a byte's bits only
 * upward: the low bits of h1 depend on the low bits of every byte alone. */
#include "hashes/hashes.h"
#include "splits/split.h"

static void fnv1a64_halves(const rkey_t *key, uint64_t h[2])
{
    SPLIT_KEY_INPUT(key);
    split_halves32(hash_fnv1a64(in, len), h);
}
static void fnv1a64_mixed_halves(const rkey_t *key, uint64_t h[2])
{
    SPLIT_KEY_INPUT(key);
    split_halves32(split_remedy(hash_fnv1a64(in, len)), h);
}
SPLIT_WORDS(fnv1a64)
SPLIT_WORDS(fnv1a64_mixed)

const split_t split_fnv1a64 = {
    .name = "fnv1a64",
    .summary = "FNV-1a 64 (no final mix), low 32 bits h1, high 32 bits h2",
    .half_bits = 32,
    SPLIT_FNS(fnv1a64, "FNV-1a 64, low half h1, high half h2"),
};

const split_t split_fnv1a64_mixed = {
    .name = "fnv1a64-mixed",
    .summary = "FNV-1a 64 times an odd constant, high half xored into the low, then cut",
    .half_bits = 32, .mixed = 1,
    SPLIT_FNS(fnv1a64_mixed, "FNV-1a 64 with seed 003's remedy, low half h1, high half h2"),
};
