/* library.h - the Bloom-filter libraries bloomsim audits: for each, the probe scheme that
 * is its index arithmetic (scheme.h), the sizing rule that is its design from keys and
 * a target rate (sizing.h), its real hash of a key (library_words.h), and what its source
 * and its bug reports say about its rate (docs/model.md, "Libraries", is the table users
 * read).
 *
 * A library is a pair (scheme, sizing rule) with its provenance. Each library's file
 * under src/libraries/ holds its schemes, their models, its sizing rules and its rows,
 * side by side, each citing the library's source file and version; registry.h lists
 * them. Where two libraries share an arithmetic exactly or in distribution (Spark's V1
 * and ORC are Guava's 2012 loop; libbloom 1.x is guava32u with a = h1 + h2; the
 * RedisBloom of 2018-19 is plain double hashing on a power-of-two m), the row names the
 * shared scheme and says why.
 *
 * The library schemes compute positions from their hash words exactly as the source's
 * integer semantics do (word widths, signed or unsigned wraparound, the language's %,
 * flips and masks, where the loop starts). bloomsim feeds them ideal uniform words of
 * the library's hash width (schemes/words.h): what it measures is the library's
 * arithmetic and sizing, never its hash function's quality. A scheme takes the m it is
 * given (the library's sizing and rounding are its rule's), except where the arithmetic
 * needs a shape: whole lines or blocks (m rounded down to them), a power-of-two m, a
 * fixed k, or an m the library's numbers hold (else a SCHEME_E* status).
 *
 * Pure data; thread-safe.
 */
#ifndef BLOOMSIM_LIBRARY_H
#define BLOOMSIM_LIBRARY_H

#include <stddef.h>

#include "libraries/library_words.h"
#include "schemes/scheme.h"
#include "rates/sizing.h"

typedef struct library {
    const char *name;     /* as `bloomsim audit NAME` and the experiment key take it */
    const char *version;  /* library and the version or commit of the code followed */
    const scheme_t *scheme;      /* its index arithmetic */
    const sizing_rule_t *sizing; /* its design from keys and rate */
    const char *hash;     /* the hash words its positions use, e.g. "2 x 32-bit" */
    const char *cause;    /* what its source says about its rate: the departure expected
                           * and why (arithmetic, sizing, hash width, blocking), or
                           * "none expected" */
    const char *report;   /* the published report about its rate, or "" */
    /* 1 when its arithmetic departs from the uniform model of its structure at any size
     * (strides 0 mod 512, a stride computed from the one word, progressions anchored at
     * 0): tests/test_library.c then expects its rate above that model's, not at it. */
    int departs;
    /* Its real hash of a key (library_words.h: the key's bytes, the hash, the words its
     * scheme consumes), for real keys (key_sets, audit --key-set, bloomsim adapter); NULL
     * when it has none, and then words_skipped says why in a line. */
    const library_words_t *words;
    const char *words_skipped;
} library_t;

#endif
