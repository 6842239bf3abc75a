/* generators.h - the random generators real filter libraries draw their choices from,
 * bit for bit, so that a transcription makes the same choices as the library: which
 * fingerprint a cuckoo filter kicks out, which seed an xor filter retries with. Each is
 * written here from the generator's published code (cited in its file) and checked in
 * tests/test_hashes.c against the generator's own outputs.
 *
 *   Go's math/rand (go_rand.c): the additive lagged Fibonacci source of Go 1.19 (Debian
 *     bookworm's golang-go), which seiflotfy/cuckoofilter's top-level rand.Intn calls
 *     draw from; its seeding table is computed here as Go's gen_cooked.go computes it.
 *   seedrandom (seedrandom.c): David Bau's seedrandom 3.0.5, RC4 keyed by a string,
 *     which npm bloom-filters 3.0.4's filters draw from (BaseFilter._rng).
 *
 * Pure functions of the state they are given (Go's seeding table, a constant, is computed
 * once a process): any number of threads may each use their own state.
 */
#ifndef BLOOMSIM_HASHES_GENERATORS_H
#define BLOOMSIM_HASHES_GENERATORS_H

#include <stddef.h>
#include <stdint.h>

/* ---- Go's math/rand (go_rand.c) ---- */

#define GO_RAND_LEN 607
#define GO_RAND_TAP 273

/* rngCooked (math/rand/rng.go): the state of gen_cooked.go's generator after 7.8e12
 * steps, which every Seed xors into its state: computed at the first call (about 20 ms,
 * once a process, under call_once), then the same table. */
const uint64_t *go_rand_cooked(void);

/* rngSource: tap, feed and the feedback register. */
typedef struct go_rand {
    int tap, feed;
    uint64_t vec[GO_RAND_LEN];
} go_rand_t;

/* rngSource.Seed(seed). Go's top-level functions (rand.Intn) draw from a source seeded
 * with 1 unless rand.Seed is called (Go 1.19). */
void go_rand_seed(go_rand_t *r, int64_t seed);
/* rngSource.Uint64: the next 64 bits. */
uint64_t go_rand_uint64(go_rand_t *r);
/* Rand.Intn(n) for n a power of two up to 2^30: Int31n masks Int31, the top 31 of
 * Int63's bits (rand.go: Intn, Int31n, Int31). */
static inline unsigned go_rand_intn_pow2(go_rand_t *r, unsigned n)
{
    uint64_t int63 = go_rand_uint64(r) & (UINT64_MAX >> 1);
    return (unsigned)(int63 >> 32) & (n - 1);
}

/* ---- seedrandom (seedrandom.c) ---- */

/* An ARC4 generator as seedrandom(seed) builds it: its state and its two indices. */
typedef struct seedrandom {
    uint8_t s[256];
    uint8_t i, j;
} seedrandom_t;

/* seedrandom(seed) for a string seed of len bytes (ASCII: its char codes): mixkey, the
 * RC4 key schedule, then 256 outputs dropped. */
void seedrandom_init(seedrandom_t *r, const char *seed, size_t len);
/* prng(): a double in [0, 1) from at least 7 outputs, exactly as seedrandom forms it. */
double seedrandom_double(seedrandom_t *r);
/* prng.int32(): four outputs, big-endian, as a signed 32-bit integer. */
int32_t seedrandom_int32(seedrandom_t *r);

#endif
