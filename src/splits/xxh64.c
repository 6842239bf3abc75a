/* xxh64.c - the splits xxh64 and xxh64-mixed: XXH64 with seed 0 (Debian's libxxhash,
 * hashes.h hash_xxh64), which ends in an avalanche step, cut into its low and high 32
 * bits, as is and after seed 003's remedy (split.h): the seed's "hash with a documented
 * avalanche step". */
#include "hashes/hashes.h"
#include "splits/split.h"

static void xxh64_halves(const rkey_t *key, uint64_t h[2])
{
    SPLIT_KEY_INPUT(key);
    split_halves32(hash_xxh64(in, len, 0), h);
}
static void xxh64_mixed_halves(const rkey_t *key, uint64_t h[2])
{
    SPLIT_KEY_INPUT(key);
    split_halves32(split_remedy(hash_xxh64(in, len, 0)), h);
}
SPLIT_WORDS(xxh64)
SPLIT_WORDS(xxh64_mixed)

const split_t split_xxh64 = {
    .name = "xxh64",
    .summary = "XXH64 seed 0 (libxxhash), low 32 bits h1, high 32 bits h2",
    .half_bits = 32,
    SPLIT_FNS(xxh64, "XXH64 seed 0, low half h1, high half h2"),
};

const split_t split_xxh64_mixed = {
    .name = "xxh64-mixed",
    .summary = "XXH64 times an odd constant, high half xored into the low, then cut",
    .half_bits = 32, .mixed = 1,
    SPLIT_FNS(xxh64_mixed, "XXH64 seed 0 with seed 003's remedy, low half h1, high half h2"),
};
