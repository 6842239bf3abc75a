/* xxhash.c - the xxHash family from Debian's libxxhash (libxxhash-dev, the reference
 * implementation, 0.8.1 on Debian 12): XXH64 for Parquet's split-block filter (seed 0,
 * parquet-format BloomFilter.md; Arrow's XxHasher, parquet-java's LongHashFunction.xx)
 * and for npm bloom-filters (xxhashjs, its seed truncated to 32 bits). RocksDB's 64-bit
 * hash is not XXH3 0.8 but its preview: xxph3.c. */
#include <xxhash.h>

#include "hashes/hashes.h"

uint64_t hash_xxh64(const void *data, size_t len, uint64_t seed)
{
    return XXH64(data, len, seed);
}
