/* scheme.h - probe schemes: how a key's random bits become k bit positions.
 *
 * Definitions are docs/model.md's "Probe schemes" table. Each scheme is one descriptor
 * (scheme_t) in its own file: the generic ones in src/schemes/, each library's in its
 * file under src/libraries/; registry.h lists them in order. A scheme sees a key as the
 * hash words it consumes (h1, h2, h3 drawn unbiased from the key's PCG stream, or ideal
 * words of a hash format, schemes/words.h) or, for `independent` and `partitioned`, as k
 * fresh draws. All functions are pure apart from the caller's generator and bit array,
 * so threads may use the table concurrently with their own arrays and generators.
 */
#ifndef BLOOMSIM_SCHEME_H
#define BLOOMSIM_SCHEME_H

#include <stddef.h>
#include <stdint.h>

#include "base/bits.h"
#include "base/pcg.h"

/* Where a scheme's k probes may land, for one requested (m, k). */
typedef struct probe_geom {
    uint64_t m;      /* bits actually used: the CSV's m column (prime or rounded sizes) */
    uint64_t w;      /* partitioned: slice width; blocked: B; split-block: word width
                      * B/k; otherwise equal to m */
    unsigned k;      /* probes per key */
    uint64_t block;  /* blocked schemes: bits per block B (0 for the others) */
    uint64_t blocks; /* blocked schemes: m / B; the library schemes with lines or
                      * blocks of a fixed size (rocksdb-*, sbbf, kudu-block, hive-bloomk):
                      * their number (block stays 0: no block word, no block_bits) */
} probe_geom_t;

/* Block sizes of the blocked schemes: a power of two from 64 to 4096 bits (a cache line
 * is 512); 0 asks for the scheme's default. */
#define SCHEME_BLOCK_MIN 64
#define SCHEME_BLOCK_MAX 4096

enum {
    SCHEME_OK = 0,
    SCHEME_EKBIG,    /* k >= m: more probes than bits */
    SCHEME_ENOTPOW2, /* the scheme needs a power-of-two m */
    SCHEME_ESMALL,   /* m too small for the scheme (no prime, empty slice) */
    SCHEME_EWORD,    /* a hash word outside the range the scheme draws it from */
    SCHEME_EBLOCK,   /* block size not a power of two from 64 to 4096, or past m */
    SCHEME_ESPLIT,   /* split-block: k does not split the block into power-of-two words */
    SCHEME_EKFIXED,  /* the library fixes k and k differs */
    SCHEME_EMBIG,    /* m past what the library's integer types address (the scheme's
                      * m_cap says where) */
    SCHEME_ELOSES    /* the library builds this m but loses keys (false negatives),
                      * which bloomsim does not measure (the scheme's loses says why) */
};

/* The most hash words a scheme may draw per key (bits-and-blooms draws four). Word
 * arrays, the conditional estimator's stored words and `bloomsim probes --hN` are sized
 * by it. */
#define SCHEME_MAX_WORDS 4

/* What a long insert or lookup asks between chunks of SCHEME_POLL_KEYS keys: fn(ctx)
 * returns nonzero to abandon it, its result then being meaningless (the caller drops
 * it). NULL asks nothing. Asking draws nothing, so the bits set and the count returned
 * when nothing is abandoned are the same as without it. A stop (Ctrl-C) is seen so
 * within a chunk at any filter size, and a distributed run's messages are answered
 * (simulate.c). */
typedef struct scheme_poll {
    int (*fn)(void *ctx);
    void *ctx;
} scheme_poll_t;
#define SCHEME_POLL_KEYS 65536 /* a multiple of the lookup batch (loops.h) */

/* Whether poll says to abandon a loop, asked at key `key` of it: between chunks of
 * SCHEME_POLL_KEYS keys, never at the first (the schemes' loops, loops.h, and the
 * fingerprint filters' builds and lookups ask it so: a test and a branch per key). */
static inline __attribute__((always_inline)) int scheme_poll_says_stop(const scheme_poll_t *poll,
                                                                       uint64_t key)
{
    return poll && key && key % SCHEME_POLL_KEYS == 0 && poll->fn(poll->ctx);
}

/* One entry per scheme, written with designated initializers; fields left out are NULL
 * or 0: nwords 0 (positions are fresh draws, no positions/check_words), no exact rate,
 * no model, cond SCHEME_COND_NONE (lookups only, no stride functions). */
typedef struct scheme {
    const char *name;
    const char *summary;  /* one line for `bloomsim list` and --help */
    unsigned nwords;      /* hash words per key, <= SCHEME_MAX_WORDS (0: k fresh draws) */
    unsigned word_bits;   /* library schemes: the width, 32 or 64, of the nwords hash words
                           * (the hash format a real hash function must produce,
                           * schemes/words.h); 0 for words drawn on the scheme's own
                           * ranges */
    uint64_t block_default; /* blocked schemes: the block size geometry takes for 0 (the
                             * experiment key block_bits applies to them); 0 otherwise */
    /* Library schemes whose geometry refuses an m past what the library's integers
     * address (SCHEME_EMBIG): that cap in words, e.g. "m < 2^31", and the name its
     * message lists it under (NULL: the scheme's own; the schemes of one library that
     * share a cap may share one). Those whose library builds an m but loses keys there
     * (SCHEME_ELOSES): why, in a line. registry.h's scheme_refusal prints them. */
    const char *m_cap, *m_cap_as, *loses;
    /* Size actually used for a requested m, k and block size (blocked schemes; 0 for
     * their default, ignored by the others); SCHEME_OK or an error above. */
    int (*geometry)(uint64_t m, unsigned k, uint64_t block, probe_geom_t *g);
    /* SCHEME_OK when h[0..nwords) lie in the ranges the scheme draws them from. */
    int (*check_words)(const probe_geom_t *g, const uint64_t *h);
    /* The k positions of a key with hash words h (nwords > 0 only). */
    void (*positions)(const probe_geom_t *g, const uint64_t *h, uint64_t *pos);
    /* Schemes whose positions use fresh draws after the hash words (blocked: a block
     * word, then k draws in the block): the k positions from words h and draws d[0..k),
     * each d[i] below draw_bound(g, i). NULL for the others. */
    void (*positions_drawn)(const probe_geom_t *g, const uint64_t *h, const uint64_t *d,
                            uint64_t *pos);
    uint64_t (*draw_bound)(const probe_geom_t *g, unsigned i);
    /* Insert n fresh keys drawn from r. When words is not NULL, key j's hash words are
     * stored at words[SCHEME_MAX_WORDS j ..) (the conditional estimator stratifies on
     * them). poll (may be NULL) is asked between chunks of keys. */
    void (*insert)(bits_t *b, const probe_geom_t *g, pcg32_t *r, uint64_t n,
                   uint64_t *words, const scheme_poll_t *poll);
    /* Look up L fresh (absent) keys drawn from r; returns how many were false positives.
     * poll (may be NULL) is asked between chunks of keys. */
    uint64_t (*lookup)(const bits_t *b, const probe_geom_t *g, pcg32_t *r, uint64_t L,
                       const scheme_poll_t *poll);
    /* For filters far bigger than the caches: insert as insert does (the same bits from
     * the same r), with prefetching and atomic sets, so that threads may insert into one
     * array at once; look up as lookup does (the same count from the same r), prefetching
     * each batch's probes before testing them. Their callers split the keys into chunks
     * and ask between them (est_lookups.c). */
    void (*insert_shared)(bits_t *b, const probe_geom_t *g, pcg32_t *r, uint64_t n);
    uint64_t (*lookup_prefetch)(const bits_t *b, const probe_geom_t *g, pcg32_t *r,
                                uint64_t L);
    /* The keys insert(b, g, r, n, ...) inserts from the same r, drawn as it draws them:
     * how many have all k positions set in b (n for an intact filter; fewer counts false
     * negatives). An audit's check (row.h, row_out_t.absent); poll as insert's. */
    uint64_t (*present)(const bits_t *b, const probe_geom_t *g, pcg32_t *r, uint64_t n,
                        const scheme_poll_t *poll);
    /* The scheme's own exact rate at n keys, where known; NULL otherwise. */
    double (*exact)(const probe_geom_t *g, uint64_t n);
    /* For schemes whose positions are not uniform or not independent across keys: the
     * rate a model of it predicts (rate.h says which model and what it assumes), for the
     * CSV's model column; NULL otherwise. */
    double (*model)(const probe_geom_t *g, uint64_t n);
    /* blocked: RocksDB's CacheLocalFpRate (rate_blocked.h), the CSV's model_rocksdb. */
    double (*model_rocksdb)(const probe_geom_t *g, uint64_t n);
    /* How the conditional estimator treats it (cond.h): */
    int cond;
    /* SCHEME_COND_SHIFT only: positions are (h1 + f_i(stride)) mod m with h1 uniform on
     * [0,m) and the stride (the other hash words) uniform on stride_count values;
     * stride_at writes the words of stride number s into h[1..nwords), stride_index
     * inverts it. */
    uint64_t (*stride_count)(const probe_geom_t *g);
    void (*stride_at)(const probe_geom_t *g, uint64_t s, uint64_t *h);
    uint64_t (*stride_index)(const probe_geom_t *g, const uint64_t *h);
} scheme_t;

/* Conditional estimator kinds. */
enum {
    SCHEME_COND_NONE = 0, /* lookups only (the default of a table entry) */
    SCHEME_COND_FILL,   /* independent probes: the rate of a filter is (X/m)^k */
    SCHEME_COND_SLICES, /* partitioned: the product of the slices' fill fractions */
    SCHEME_COND_SHIFT,  /* h1 plus offsets from a stride: AND of rotated copies */
    SCHEME_COND_BLOCKS, /* blocked: the mean over blocks of (set bits / B)^k */
    SCHEME_COND_SPLIT   /* split-block: the mean over blocks of the product of the
                         * words' fill fractions */
};

/* A one-line reason for a SCHEME_E* status, in general words (registry.h's
 * scheme_refusal gives a scheme's own for its caps). */
const char *scheme_strerror(int status);

/* Largest prime <= m, or 0 when m < 2. Deterministic Miller-Rabin; O(log^3 m) per test. */
uint64_t scheme_prime_below(uint64_t m);

#endif
