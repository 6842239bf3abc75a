/* words.h - the hash-word formats: what a key is to a scheme whose library hashes it once
 * and derives every probe from the hash's words (the library schemes, from leveldb on).
 *
 * A format is a count of words of one width, 32 or 64 bits, filled in order h[0], h[1],
 * ...: the halves of a 64-bit hash (two 32-bit words), the two words of a 128-bit one,
 * and so on; each library file says which words of its hash go where. Here the words are
 * ideal, uniform draws (pcg32_next for 32 bits, pcg32_next64 for 64); a real hash
 * function plugs in at this seam by producing the same words from a key. A descriptor
 * names its format once with WORDS_U32(n) or WORDS_U64(n) (its word count, width and
 * range check); its NAME_draw is the format's draw, e.g. `#define NAME_draw u32x2_draw`.
 * Schemes with no format draw their words on their own ranges ([0, m) for the textbook
 * family) or draw fresh positions per probe (word_bits 0).
 */
#ifndef BLOOMSIM_SCHEMES_WORDS_H
#define BLOOMSIM_SCHEMES_WORDS_H

#include "schemes/loops.h"
#include "schemes/shared.h"

/* Descriptor fields of a format: n words of 32 bits (each below 2^32) or of 64. */
#define WORDS_U32(n) .nwords = (n), .word_bits = 32, .check_words = scheme_words##n##_32
#define WORDS_U64(n) .nwords = (n), .word_bits = 64, .check_words = scheme_words_any

SCHEME_HOT void u32x1_draw(const probe_geom_t *g, pcg32_t *r, uint64_t *h)
{
    (void)g;
    h[0] = pcg32_next(r);
}
SCHEME_HOT void u32x2_draw(const probe_geom_t *g, pcg32_t *r, uint64_t *h)
{
    (void)g;
    h[0] = pcg32_next(r);
    h[1] = pcg32_next(r);
}
SCHEME_HOT void u64x1_draw(const probe_geom_t *g, pcg32_t *r, uint64_t *h)
{
    (void)g;
    h[0] = pcg32_next64(r);
}
SCHEME_HOT void u64x2_draw(const probe_geom_t *g, pcg32_t *r, uint64_t *h)
{
    (void)g;
    h[0] = pcg32_next64(r);
    h[1] = pcg32_next64(r);
}
SCHEME_HOT void u64x4_draw(const probe_geom_t *g, pcg32_t *r, uint64_t *h)
{
    (void)g;
    for (int j = 0; j < 4; j++)
        h[j] = pcg32_next64(r);
}

/* Schemes without hash words, whose probes are fresh draws (independent, partitioned,
 * hadoop, pybloom-live): nothing to draw before the probes. */
SCHEME_HOT void nowords_draw(const probe_geom_t *g, pcg32_t *r, uint64_t *h)
{
    (void)g, (void)r, (void)h;
}
SCHEME_HOT void nowords_start(const probe_geom_t *g, const uint64_t *h, probe_it_t *it)
{
    (void)g, (void)h;
    it->i = 0;
}

#endif
