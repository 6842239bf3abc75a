/* bits.h - a plain bit array of m bits in 64-bit words. Knows nothing of Bloom filters.
 * Positions are uint64_t, so arrays past 2^32 bits work. Arrays of 2 MiB or more are
 * mapped on 2 MiB boundaries and offered to the kernel for transparent huge pages, which
 * cuts TLB misses on random access to big filters. An array belongs to one thread at a
 * time, except through bits_set_atomic, which any number of threads may call at once. */
#ifndef BLOOMSIM_BITS_H
#define BLOOMSIM_BITS_H

#include <stdint.h>
#include <string.h>

typedef struct bits {
    uint64_t m;      /* bits in use */
    uint64_t nwords; /* ceil(m / 64) */
    uint64_t *word;
    size_t maplen;   /* bytes mapped (huge-page path), 0 when from calloc */
} bits_t;

/* Allocate a zeroed array of m >= 1 bits. Returns 0, or -1 when memory is short.
 * Caller frees with bits_free. */
int bits_alloc(bits_t *b, uint64_t m);
void bits_free(bits_t *b);

/* Number of set bits. */
uint64_t bits_count(const bits_t *b);
/* Number of set bits among positions [lo, hi), lo <= hi <= m. */
uint64_t bits_count_range(const bits_t *b, uint64_t lo, uint64_t hi);

/* Use the array for m <= its allocated size and clear it. */
static inline void bits_reset(bits_t *b, uint64_t m)
{
    b->m = m;
    memset(b->word, 0, ((m + 63) / 64) * sizeof(uint64_t));
}

static inline void bits_set(bits_t *b, uint64_t i)
{
    b->word[i >> 6] |= UINT64_C(1) << (i & 63);
}

/* bits_set for arrays shared between threads: an atomic OR, so concurrent sets of bits
 * in one word are never lost and the result does not depend on their order. */
static inline void bits_set_atomic(bits_t *b, uint64_t i)
{
    __atomic_fetch_or(&b->word[i >> 6], UINT64_C(1) << (i & 63), __ATOMIC_RELAXED);
}

/* Ask for the word holding bit i to be brought into cache, to be written (write = 1) or
 * read; no effect on the contents. */
#define bits_prefetch(b, i, write) __builtin_prefetch(&(b)->word[(i) >> 6], (write), 0)

static inline int bits_test(const bits_t *b, uint64_t i)
{
    return (int)((b->word[i >> 6] >> (i & 63)) & 1);
}

#endif
