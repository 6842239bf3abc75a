/* loops.h - the machinery every probe scheme is built from (src/schemes/ and
 * src/libraries/ include it; nothing else does).
 *
 * A scheme is three static inline functions, expanded into its table entry's loops by
 * SCHEME_LOOPS so the hot paths are specialised per scheme (no call per probe):
 *   NAME_draw(g, r, h)      draws the key's hash words h[] from its generator r (a
 *                           hash-word format of words.h, or words on the scheme's own
 *                           ranges);
 *   NAME_start(g, h, it)    sets the probe iterator from hash words;
 *   NAME_next(g, r, it)     returns the next position (independent draws use r here).
 * Lookups stop at a key's first clear bit; that is exact, since a key is a false positive
 * only if all k bits are set, and unused positions of a fresh key are never observed.
 * A scheme's descriptor (scheme.h) takes the generated functions with SCHEME_FNS(NAME),
 * or SCHEME_LOOP_FNS(NAME) for schemes without hash words.
 */
#ifndef BLOOMSIM_SCHEMES_LOOPS_H
#define BLOOMSIM_SCHEMES_LOOPS_H

#include <stdint.h>
#include <string.h>

#include "base/bits.h"
#include "base/pcg.h"
#include "schemes/scheme.h"

/* The per-probe functions below are forced inline into every loop: left to its own
 * inlining budget, gcc kept some out of line in a file this size, and lookups lost 20%. */
#define SCHEME_HOT static inline __attribute__((always_inline))

/* Probe iterator: current position x, its increment y, the increment's increment z. */
typedef struct probe_it {
    uint64_t x, y, z;
    unsigned i;
} probe_it_t;

/* (a + b) mod m for a, b < m <= 2^63. */
SCHEME_HOT uint64_t add_mod(uint64_t a, uint64_t b, uint64_t m)
{
    uint64_t s = a + b;
    return s >= m ? s - m : s;
}

/* Lookups run in batches, breadth first: every key of a batch is tested at probe 0, the
 * survivors are compacted without a branch and tested at probe 1, and so on, so the
 * unpredictable "is this bit set?" never becomes a branch. Keys are drawn from LANES
 * generators seeded from the unit's generator and used in turn, so consecutive draws do
 * not wait on one another. Both are pure functions of the unit's generator: results do
 * not depend on the batch size seen by any one thread. */
enum { LANES = 4, BATCH = 256 }; /* LANES: the unrolled draw below assumes 4 */

SCHEME_HOT void lanes_seed(pcg32_t *lane, pcg32_t *r)
{
    for (int j = 0; j < LANES; j++) {
        uint64_t state = pcg32_next64(r);
        pcg32_seed(&lane[j], state, pcg32_next64(r));
    }
}

/* Draw key J of a batch from lane LANE and find its first probe p_. Without prefetch,
 * test it at once and keep the key if set; with prefetch, store it in pos[J] and ask
 * for its word, to be tested once the whole batch is drawn. Keys J >= nb of a last,
 * partial batch are drawn (so every lane advances alike) but never kept. */
#define FIRST_PROBE(id, LANE, J)                                                       \
    do {                                                                               \
        uint64_t h_[SCHEME_MAX_WORDS];                                                 \
        id##_draw(g, &LANE, h_);                                                       \
        id##_start(g, h_, &it[J]);                                                     \
        uint64_t p_ = id##_next(g, &LANE, &it[J]);                                     \
        if (prefetch) {                                                                \
            pos[J] = p_;                                                               \
            bits_prefetch(b, p_, 0);                                                   \
        } else {                                                                       \
            idx[alive] = J;                                                            \
            alive += (unsigned)bits_test(b, p_) & ((J) < nb);                          \
        }                                                                              \
    } while (0)

/* Inserts into an array shared by threads (shared = 1) run RING positions ahead of
 * their writes: each position is prefetched for writing when computed and set, with an
 * atomic OR, RING positions later, so a core keeps many cache misses in flight. */
enum { RING = 64 }; /* a power of two */

/* Loops ask poll as scheme_poll_says_stop (scheme.h) says: between chunks of keys. */
_Static_assert(SCHEME_POLL_KEYS % BATCH == 0, "lookups ask between whole batches");

/* Each scheme gets insert and lookup, and their variants for big filters,
 * insert_shared and lookup_prefetch, from one body each: the variants consume the
 * generator identically and give identical results (tests/test_scheme.c checks). present
 * replays insert's draws (every probe of every key, as insert draws them) and counts the
 * keys whose k bits are all set: from insert's generator state, every inserted key. The
 * poll is asked between keys (inserts) and between batches (lookups), where it changes
 * nothing that is drawn. */
#define SCHEME_LOOPS_IT(id, itype)                                                               \
    SCHEME_HOT void id##_insert_body(bits_t *b, const probe_geom_t *g, pcg32_t *r,     \
                                     uint64_t n, uint64_t *words, const int shared,    \
                                     const scheme_poll_t *poll)                        \
    {                                                                                  \
        pcg32_t lane[LANES];                                                           \
        uint64_t ring[RING], queued = 0;                                               \
        lanes_seed(lane, r);                                                           \
        for (uint64_t key = 0; key < n && !scheme_poll_says_stop(poll, key); key++) {  \
            uint64_t h[SCHEME_MAX_WORDS] = {0};                                        \
            itype it;                                                             \
            pcg32_t *lr = &lane[key % LANES];                                          \
            id##_draw(g, lr, h);                                                       \
            if (words)                                                                 \
                memcpy(words + SCHEME_MAX_WORDS * key, h, sizeof h);                   \
            id##_start(g, h, &it);                                                     \
            for (unsigned i = 0; i < g->k; i++) {                                      \
                uint64_t p = id##_next(g, lr, &it);                                    \
                if (!shared) {                                                         \
                    bits_set(b, p);                                                    \
                    continue;                                                          \
                }                                                                      \
                bits_prefetch(b, p, 1);                                                \
                if (queued >= RING)                                                    \
                    bits_set_atomic(b, ring[queued % RING]);                           \
                ring[queued++ % RING] = p;                                             \
            }                                                                          \
        }                                                                              \
        for (uint64_t q = queued > RING ? queued - RING : 0; q < queued; q++)          \
            bits_set_atomic(b, ring[q % RING]);                                        \
    }                                                                                  \
    static void id##_insert(bits_t *b, const probe_geom_t *g, pcg32_t *r, uint64_t n,  \
                            uint64_t *words, const scheme_poll_t *poll)                \
    {                                                                                  \
        id##_insert_body(b, g, r, n, words, 0, poll);                                  \
    }                                                                                  \
    static void id##_insert_shared(bits_t *b, const probe_geom_t *g, pcg32_t *r,       \
                                   uint64_t n)                                         \
    {                                                                                  \
        id##_insert_body(b, g, r, n, NULL, 1, NULL);                                   \
    }                                                                                  \
    SCHEME_HOT uint64_t id##_lookup_body(const bits_t *b, const probe_geom_t *g,       \
                                         pcg32_t *r, uint64_t L, const int prefetch,   \
                                         const scheme_poll_t *poll)                    \
    {                                                                                  \
        pcg32_t lane[LANES];                                                           \
        itype it[BATCH];                                                          \
        unsigned idx[BATCH];                                                           \
        uint64_t pos[BATCH];                                                           \
        uint64_t fp = 0;                                                               \
        lanes_seed(lane, r);                                                           \
        for (uint64_t q = 0; q < L && !scheme_poll_says_stop(poll, q); q += BATCH) {   \
            unsigned nb = L - q < BATCH ? (unsigned)(L - q) : BATCH;                   \
            unsigned alive = 0;                                                        \
            for (unsigned j = 0; j < nb; j += LANES) {                                 \
                pcg32_t l0 = lane[0], l1 = lane[1], l2 = lane[2], l3 = lane[3];        \
                FIRST_PROBE(id, l0, j);                                                \
                FIRST_PROBE(id, l1, j + 1);                                            \
                FIRST_PROBE(id, l2, j + 2);                                            \
                FIRST_PROBE(id, l3, j + 3);                                            \
                lane[0] = l0, lane[1] = l1, lane[2] = l2, lane[3] = l3;                \
            }                                                                          \
            if (prefetch)                                                              \
                for (unsigned j = 0; j < nb; j++) {                                    \
                    idx[alive] = j;                                                    \
                    alive += (unsigned)bits_test(b, pos[j]);                           \
                }                                                                      \
            for (unsigned i = 1; i < g->k && alive > 0; i++) {                         \
                unsigned kept = 0;                                                     \
                if (prefetch)                                                          \
                    for (unsigned a = 0; a < alive; a++) {                             \
                        unsigned j = idx[a];                                           \
                        pos[j] = id##_next(g, &lane[j % LANES], &it[j]);               \
                        bits_prefetch(b, pos[j], 0);                                   \
                    }                                                                  \
                for (unsigned a = 0; a < alive; a++) {                                 \
                    unsigned j = idx[a];                                               \
                    uint64_t p = prefetch ? pos[j] : id##_next(g, &lane[j % LANES], &it[j]); \
                    idx[kept] = j;                                                     \
                    kept += (unsigned)bits_test(b, p);                                 \
                }                                                                      \
                alive = kept;                                                          \
            }                                                                          \
            fp += alive;                                                               \
        }                                                                              \
        return fp;                                                                     \
    }                                                                                  \
    static uint64_t id##_lookup(const bits_t *b, const probe_geom_t *g, pcg32_t *r,    \
                                uint64_t L, const scheme_poll_t *poll)                 \
    {                                                                                  \
        return id##_lookup_body(b, g, r, L, 0, poll);                                  \
    }                                                                                  \
    static uint64_t id##_lookup_prefetch(const bits_t *b, const probe_geom_t *g,       \
                                         pcg32_t *r, uint64_t L)                       \
    {                                                                                  \
        return id##_lookup_body(b, g, r, L, 1, NULL);                                  \
    }                                                                                  \
    static uint64_t id##_present(const bits_t *b, const probe_geom_t *g, pcg32_t *r,   \
                                 uint64_t n, const scheme_poll_t *poll)                \
    {                                                                                  \
        pcg32_t lane[LANES];                                                           \
        uint64_t yes = 0;                                                              \
        lanes_seed(lane, r);                                                           \
        for (uint64_t key = 0; key < n && !scheme_poll_says_stop(poll, key); key++) {         \
            uint64_t h[SCHEME_MAX_WORDS] = {0};                                        \
            itype it;                                                                  \
            pcg32_t *lr = &lane[key % LANES];                                          \
            id##_draw(g, lr, h);                                                       \
            id##_start(g, h, &it);                                                     \
            unsigned all = 1;                                                          \
            for (unsigned i = 0; i < g->k; i++)                                        \
                all &= (unsigned)bits_test(b, id##_next(g, lr, &it));                  \
            yes += all;                                                                \
        }                                                                              \
        return yes;                                                                    \
    }                                                                                  \
    __attribute__((unused)) static void id##_positions(const probe_geom_t *g,          \
                                                       const uint64_t *h, uint64_t *pos) \
    {                                                                                  \
        itype it;                                                                 \
        id##_start(g, h, &it);                                                         \
        for (unsigned i = 0; i < g->k; i++)                                            \
            pos[i] = id##_next(g, NULL, &it);                                          \
    }

/* Most schemes keep their probe state in probe_it_t; one that needs more names its own
 * iterator type (bits-and-blooms: four words), so the others' batches stay small. */
#define SCHEME_LOOPS(id) SCHEME_LOOPS_IT(id, probe_it_t)

/* The functions SCHEME_LOOPS(id) generated: the loops alone, for schemes without hash
 * words, or with the positions function too. */
#define SCHEME_LOOP_FNS(id)                                                            \
    .insert = id##_insert, .lookup = id##_lookup, .insert_shared = id##_insert_shared, \
    .lookup_prefetch = id##_lookup_prefetch, .present = id##_present
#define SCHEME_FNS(id) .positions = id##_positions, SCHEME_LOOP_FNS(id)

/* The iterator of double hashing's loop and its library kin: x = h[0] (where the
 * progression starts), y = h[1] (its step). */
SCHEME_HOT void pair_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    (void)g;
    it->x = h[0];
    it->y = h[1];
}

/* Enhanced double hashing's step, (h1 + i h2 + (i^3 - i)/6) mod m from x = h1, y = h2,
 * i = 0 (both below m): differences g(i+1) - g(i) = h2 + i(i+1)/2 grow by i+1 each step,
 * so: emit x; x += y; y += i + 1 (mod m). Needs k < m so that y + i + 1 < 2m. The
 * scheme `enhanced` and bloomfilter.js (0.0.21, 1.1.0) step so. */
SCHEME_HOT uint64_t enhanced_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)r;
    uint64_t p = it->x;
    it->x = add_mod(it->x, it->y, g->m);
    it->i++;
    it->y = add_mod(it->y, it->i, g->m);
    return p;
}

SCHEME_HOT uint32_t rotr32(uint32_t x, unsigned r) { return (x >> r) | (x << (32 - r)); }

#endif
