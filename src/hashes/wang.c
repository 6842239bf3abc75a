/* wang.c - Thomas Wang's 64-bit integer hash, ORC's BloomFilter.getLongHash (apache/orc
 * java/core/src/java/org/apache/orc/util/BloomFilter.java @02293868, and Hive
 * storage-api's BloomFilter): the hash addLong takes, where strings take Murmur3.hash64.
 * Java's >> on a long is arithmetic: sar() below spells it out, so that nothing depends
 * on C's implementation-defined right shift of a negative number. */
#include "hashes/hashes.h"

static inline uint64_t sar(uint64_t x, int s)
{
    return (x >> s) | ((uint64_t)0 - (x >> 63)) << (64 - s);
}

uint64_t hash_wang64(uint64_t key)
{
    key = ~key + (key << 21);
    key ^= sar(key, 24);
    key = key + (key << 3) + (key << 8);
    key ^= sar(key, 14);
    key = key + (key << 2) + (key << 4);
    key ^= sar(key, 28);
    return key + (key << 31);
}
