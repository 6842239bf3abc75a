/* registry.h - the hash splits (split.h), one line each, in the order messages and
 * `bloomsim list` name them. An entry X(id) stands for split_id, the descriptor that
 * its hash's file in src/splits/ defines; split.c builds the table from this list.
 * Adding a split is its descriptor (in its hash's file, or a new file with its line in
 * src/splits/meson.build) and its line here.
 */
#ifndef BLOOMSIM_SPLITS_REGISTRY_H
#define BLOOMSIM_SPLITS_REGISTRY_H

#define SPLIT_REGISTRY(X) \
    X(fnv1a64)            \
    X(fnv1a64_mixed)      \
    X(mulshift)           \
    X(mulshift_mixed)     \
    X(xxh64)              \
    X(xxh64_mixed)        \
    X(murmur3)            \
    X(murmur3_mixed)      \
    X(blake2b_32)         \
    X(blake2b)            \
    /* the end of the list */

/* How many there are. */
#define SPLIT_ONE(id) +1
enum { SPLIT_COUNT = 0 SPLIT_REGISTRY(SPLIT_ONE) };

#endif
