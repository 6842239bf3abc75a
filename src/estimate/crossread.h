/* crossread.h - a filter written by one probe scheme and read by another that agrees on
 * m and k (seed 003's "Serialisation and the trap of a different m"): the share of the
 * keys it holds that the reader reports absent, and the reader's false-positive rate
 * beside the writer's own, on the same filters and the same never-inserted keys
 * (docs/model.md, "Cross-reading"; `bloomsim crossread`).
 *
 * A key is a digest of CROSSREAD_DIGEST_WORDS uniform 64-bit words (what a 256-bit hash
 * of it gives; a 128-bit one fills the first two), and each scheme takes its hash words
 * from the digest as a real implementation of it takes them from one hash
 * (crossread_words): the writer's words and the reader's of one key come from the same
 * digest, so the two differ only where their schemes do. Positions are each scheme's
 * own (scheme_t's geometry and positions); nothing here computes one.
 *
 * Filter f draws its inserted keys' digests from the generator of unit (0, f) of the
 * seed and its never-inserted keys' from unit (1, f) (pcg.h): the same keys for any
 * reader, writer and thread count; results are stored by filter, so they do not depend
 * on the threads. Distinct 256-bit digests stand for distinct keys; two of a filter's
 * keys share one with probability below 2^-200, which no count here can show.
 */
#ifndef BLOOMSIM_CROSSREAD_H
#define BLOOMSIM_CROSSREAD_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "base/stats.h"
#include "schemes/scheme.h"

#define CROSSREAD_DIGEST_WORDS 4

/* The hash words scheme s takes from digest d at geometry g into h[0..s->nwords):
 *  - words of a 64-bit format (word_bits 64): d[0], d[1], ... in order;
 *  - of a 32-bit format (word_bits 32): the 32-bit halves in order, low half first:
 *    d[0] mod 2^32, d[0] >> 32, d[1] mod 2^32, ... (Guava's MURMUR128_MITZ_32 takes its
 *    hash1 and hash2 so from the first 64 bits of Murmur3_x64_128, whose 64-bit words its
 *    MITZ_64 takes: libraries/guava.c);
 *  - of the schemes that draw their words on [0, m) (word_bits 0): d[j] mod m, and where
 *    the scheme refuses the stride that gives, the stride's low bit set, seed 003's
 *    `h2 |= 1` (an even stride made odd, for double-odd and squares; a zero stride made 1,
 *    for double-prime: the seed's "forcing h2 odd, or adding one when it is zero").
 * Returns SCHEME_OK, or SCHEME_EWORD where the scheme still refuses the words. */
int crossread_words(const scheme_t *s, const probe_geom_t *g, const uint64_t *d, uint64_t *h);

/* Whether scheme s can take part: it derives its positions from hash words alone
 * (nwords > 0, no draws), and takes the words crossread_words gives it at geometry g.
 * Returns 0, or -1 with why (a phrase: "draws its positions afresh for each key, ...")
 * in *why. */
int crossread_usable(const scheme_t *s, const probe_geom_t *g, const char **why);

/* What is measured: each of `filters` filters gets n keys inserted by `writer` at the
 * geometry it takes for the m and k both are given; `reader`, at the geometry it takes
 * for the same m and k, asks it about every key it holds and about `queries` keys never
 * inserted, which the writer is asked about too. The array has the larger of the two
 * geometries' m bits; what lies past the writer's m is never set. */
typedef struct crossread {
    const scheme_t *writer, *reader;
    uint64_t m, n, filters, queries, seed;
    unsigned k;
    int threads;
    const atomic_int *stop; /* nonzero: stop between filters; may be NULL */
} crossread_t;

typedef struct crossread_out {
    probe_geom_t gw, gr;       /* the writer's and the reader's geometry */
    uint64_t array_bits;       /* max(gw.m, gr.m) */
    stats_summary_t absent;    /* held keys the reader reports absent: F n keys asked */
    stats_summary_t reader_fp; /* the reader's false positives on the F L strangers */
    stats_summary_t writer_fp; /* the writer's on the same keys */
    uint64_t writer_absent;    /* held keys the writer itself reports absent: 0 unless
                                * the harness is broken */
    double fill;               /* mean share of the writer's gw.m bits set */
    uint64_t *agree;           /* k entries: held keys whose probe i the reader puts where
                                * the writer put it (of F n) */
} crossread_out_t;

enum {
    CROSSREAD_OK = 0,
    CROSSREAD_ENOMEM,   /* memory short */
    CROSSREAD_ESTOPPED, /* *stop was set */
    CROSSREAD_EWORDS    /* a key's words refused by its scheme (crossread_usable passed:
                         * a scheme whose word rule depends on the digest) */
};

/* Measure x (filters >= 2, queries >= 1, n >= 1, both geometries already accepted and
 * given in o->gw, o->gr) into *o, allocating o->agree (crossread_out_free frees it).
 * Returns CROSSREAD_OK or an error above. */
int crossread_measure(const crossread_t *x, crossread_out_t *o);
void crossread_out_free(crossread_out_t *o);

#endif
