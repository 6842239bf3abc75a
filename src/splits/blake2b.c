/* blake2b.c - the splits blake2b and blake2b-32: a cryptographic digest, BLAKE2b with a
 * 16-byte output and no key (libsodium's crypto_generichash_blake2b, Debian's
 * libsodium-dev; RFC 7693), split as seed 003's Python splits its 128-bit digest (h1 the
 * first 8 bytes, h2 the next 8, little-endian: blake2b) and, beside the 64-bit hashes,
 * its first 8 bytes cut into low and high 32 bits the way they are (blake2b-32). The
 * seed's claim: "for a cryptographic digest, sound".
 *
 * libsodium is optional (meson.build): without it both splits are in the registry, named
 * by `bloomsim list` as unavailable, and a run that asks for one stops before any work
 * with a message naming the package. */
#include <string.h>

#include "config.h"
#include "splits/split.h"

#if BLOOMSIM_SODIUM
#include <sodium.h>

static void blake2b_digest(const rkey_t *key, uint8_t out[16])
{
    SPLIT_KEY_INPUT(key);
    crypto_generichash_blake2b(out, 16, in, len, NULL, 0);
}
static uint64_t le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}
static void blake2b_halves(const rkey_t *key, uint64_t h[2])
{
    uint8_t d[16];
    blake2b_digest(key, d);
    h[0] = le64(d);
    h[1] = le64(d + 8);
}
static void blake2b_32_halves(const rkey_t *key, uint64_t h[2])
{
    uint8_t d[16];
    blake2b_digest(key, d);
    split_halves32(le64(d), h);
}
#define BLAKE2B_UNAVAILABLE NULL
#else
/* Never called: split_check refuses an unavailable split before any key is hashed. */
static void blake2b_halves(const rkey_t *key, uint64_t h[2])
{
    (void)key;
    h[0] = h[1] = 0;
}
#define blake2b_32_halves blake2b_halves
#define BLAKE2B_UNAVAILABLE "bloomsim was built without libsodium (install Debian's " \
                            "libsodium-dev, e.g. with scripts/deps, and rebuild)"
#endif
SPLIT_WORDS(blake2b)
SPLIT_WORDS(blake2b_32)

const split_t split_blake2b_32 = {
    .name = "blake2b-32",
    .summary = "BLAKE2b-128 (libsodium), its first 64 bits cut into low 32 bits h1, high "
               "32 bits h2",
    .half_bits = 32, .unavailable = BLAKE2B_UNAVAILABLE,
    SPLIT_FNS(blake2b_32, "BLAKE2b-128 (libsodium) first 8 bytes, low half h1, high half h2"),
};

const split_t split_blake2b = {
    .name = "blake2b",
    .summary = "BLAKE2b-128 (libsodium), bytes 0-7 h1, bytes 8-15 h2 (seed 003's split)",
    .half_bits = 64, .unavailable = BLAKE2B_UNAVAILABLE,
    SPLIT_FNS(blake2b, "BLAKE2b-128 (libsodium), bytes 0-7 h1, bytes 8-15 h2"),
};
