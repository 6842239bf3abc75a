/* bendersky.c - Eli Bendersky's Go Bloom filter, the one seed 002 builds: RedisBloom's
 * 64-bit arithmetic (scheme redisbloom, redis.c) sized by seed 002's CalculateParams
 * (rule calculateparams, sizing.c).
 *
 * Source: eliben/code-for-blog 2025/bloom/bloom.go @ec2c2dd5: (h1 + i*h2) % m in uint64,
 * i = 0..k-1, and CalculateParams.
 */
#include "libraries/library.h"
#include "libraries/registry.h"

const library_t library_bendersky = {
    .name = "bendersky",
    .version = "Eli Bendersky's Go filter, eliben/code-for-blog 2025/bloom/bloom.go "
               "@ec2c2dd5 (seed 002): RedisBloom's arithmetic, CalculateParams",
    .scheme = &scheme_redisbloom, .sizing = &sizing_calculateparams, .hash = "2 x 64-bit",
    .cause = "none expected beyond the double-hashing floor (about 1/m)", .report = "",
    .words_skipped = "hash/maphash with seeds from maphash.MakeSeed(), random per "
                     "filter",
};
