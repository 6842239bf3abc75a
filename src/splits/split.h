/* split.h - hash splits: one hash of a real key cut into the two words h1 and h2 that
 * double hashing consumes (seed 003, "Two hash words from one digest"), so that the
 * probe schemes of that seed can be measured on real keys through real hashes.
 *
 * Seed 003 says that splitting a non-cryptographic 64-bit hash into its low and high 32
 * bits makes the probes cluster, because the halves are "nearly a function of one
 * another", and that the remedy is "an explicit mixing of the digest before splitting,
 * such as multiplying by an odd constant and xoring the halves"; and that the halves of
 * a cryptographic 128-bit digest are sound. A split here is one such cut of one hash:
 *
 *   raw      h1 = the low 32 bits of the 64-bit hash x, h2 = its high 32 bits (the
 *            seed's "low 32 bits as h1 and the high 32 as h2");
 *   mixed    the same cut of split_remedy(x): x times an odd constant, then the high
 *            half xored into the low half (below);
 *   128-bit  h1 = the first 8 bytes of the digest, h2 the next 8, little-endian (the
 *            seed's Python: digest[:8], digest[8:]).
 *
 * What a scheme consumes (docs/model.md, Hash splits): h1 mod m and (h2 mod m) | 1, m a
 * power of two at most 2^half_bits, which are the words on [0, m) the schemes double-odd,
 * enhanced and squares take. The stride is forced odd for all three, as the seed's code
 * does (`h2 |= 1`); with a power-of-two m, mod m keeps the low log2(m) bits of each
 * half, the bits a weak hash mixes least. A key is hashed as a C program stores it: an
 * integer as its 8 bytes little-endian, a string as its bytes.
 *
 * Each hash is one file under src/splits/ defining its splits' descriptors (the raw cut
 * and its remedied twin share the hash), registry.h lists them one line each. The
 * descriptors' words are a library_words_t (libraries/library_words.h), so that the
 * real-key estimator (est_keys.c) runs them as it runs a library's hash.
 *
 * Pure functions; any number of threads may call them.
 */
#ifndef BLOOMSIM_SPLITS_SPLIT_H
#define BLOOMSIM_SPLITS_SPLIT_H

#include <stddef.h>
#include <stdint.h>

#include "libraries/library_words.h"
#include "schemes/scheme.h"
#include "splits/registry.h"

typedef struct split {
    const char *name;        /* as `splits =` and `probes --split` take it */
    const char *summary;     /* one line for `bloomsim list` */
    unsigned half_bits;      /* the width of h1 and h2: 32 (a 64-bit hash cut in two) or 64
                              * (a 128-bit digest); m may be at most 2^half_bits */
    int mixed;               /* 1: the remedy (split_remedy) before the cut */
    const char *unavailable; /* NULL; or, where this build lacks the hash, why, in words
                              * that name the package to install */
    /* The two halves of key before reduction: h[0] = h1, h[1] = h2. */
    void (*halves)(const rkey_t *key, uint64_t h[2]);
    library_words_t words;   /* h1 mod m, (h2 mod m) | 1: what est_keys.c consumes */
} split_t;

/* Seed 003's remedy, "multiplying by an odd constant and xoring the halves": y = x C mod
 * 2^64 with C = 0x9e3779b97f4a7c15 (2^64 divided by the golden ratio, made odd: Knuth's
 * multiplicative hashing constant; the seed names none), then y ^ (y >> 32), so that the
 * low half becomes low ^ high and the high half stays. The multiply carries each input
 * bit only upward; the xor brings the product's high bits, which depend on every input
 * bit, down into the low half. Example (tests/test_splits.c): x = 1 gives y = C and
 * 0x9e3779b9e17d05ac. */
#define SPLIT_REMEDY_MUL UINT64_C(0x9e3779b97f4a7c15)
static inline uint64_t split_remedy(uint64_t x)
{
    uint64_t y = x * SPLIT_REMEDY_MUL;
    return y ^ (y >> 32);
}

/* The low and high 32 bits of x as h1 and h2. */
static inline void split_halves32(uint64_t x, uint64_t h[2])
{
    h[0] = x & UINT32_MAX;
    h[1] = x >> 32;
}

/* The words a scheme takes from halves h on a power-of-two m: h1 mod m, (h2 mod m) | 1. */
static inline void split_reduce(const probe_geom_t *g, const uint64_t h[2], uint64_t *out)
{
    out[0] = h[0] & (g->m - 1);
    out[1] = (h[1] & (g->m - 1)) | 1;
}

/* The bytes a split hashes for key (LIBRARY_KEY_INPUT with integers little-endian). */
#define SPLIT_KEY_INPUT(key) LIBRARY_KEY_INPUT(key, LIBRARY_INT_LE8)

/* A split's descriptor fields from its halves function NAME_halves: the words function
 * NAME_words it defines with SPLIT_WORDS(NAME), and the key kinds every split takes. */
#define SPLIT_WORDS(id)                                                                    \
    static void id##_words(const rkey_t *key, const probe_geom_t *g, uint64_t *out)       \
    {                                                                                      \
        uint64_t h[2];                                                                     \
        id##_halves(key, h);                                                               \
        split_reduce(g, h, out);                                                           \
    }
#define SPLIT_FNS(id, hash_name)                                                           \
    .halves = id##_halves,                                                                 \
    .words = {.hash = hash_name, .key_bytes = LIBRARY_KEYS_LE8,                            \
              .kinds = LIBRARY_KEYS_INT_BYTES, .nwords = 2, .word_bits = 0,                \
              .words = id##_words}

/* The registry: split i (i < SPLIT_COUNT), a split by name (NULL: none), the names for
 * messages ("fnv1a64, fnv1a64-mixed, ... or blake2b"), built once, thread-safe. */
const split_t *split_at(size_t i);
const split_t *split_find(const char *name);
const char *split_names_list(void);

/* Whether split s can feed scheme sc at m bits: SPLIT_OK, or why not, with a one-line
 * reason in err (the split unavailable in this build; a scheme other than double-odd,
 * enhanced and squares; m not a power of two, or past 2^half_bits). */
enum { SPLIT_OK = 0, SPLIT_EUNAVAILABLE, SPLIT_ESCHEME, SPLIT_EBITS };
int split_check(const split_t *s, const scheme_t *sc, uint64_t m, char *err, size_t errlen);

#endif
