/* library.h - the Bloom-filter libraries bloomsim audits: for each, the probe scheme that
 * is its index arithmetic (scheme.h), the sizing rule that is its design from keys and
 * a target rate (sizing.h), the hash words it feeds them, and what its source and its
 * bug reports say about its rate (shared LIBRARIES.md is where each was read; docs/
 * model.md, "Libraries", is the table users read).
 *
 * A library is a pair (scheme, sizing rule) with its provenance. Where two libraries
 * share an arithmetic exactly or in distribution (Spark's V1 and ORC are Guava's 2012
 * loop; libbloom 1.x is guava32u with a = h1 + h2; the RedisBloom of 2018-19 is plain
 * double hashing on a power-of-two m), the entry names the shared scheme and says why.
 * bloomsim feeds every scheme ideal uniform words of the library's hash width: what it
 * measures is the library's arithmetic and sizing, never its hash function's quality.
 *
 * Pure data; thread-safe.
 */
#ifndef BLOOMSIM_LIBRARY_H
#define BLOOMSIM_LIBRARY_H

#include <stddef.h>

#include "scheme.h"
#include "sizing.h"

typedef struct library {
    const char *name;     /* as `bloomsim audit NAME` and the experiment key take it */
    const char *version;  /* library and the version or commit of the code followed */
    const char *scheme;   /* the scheme that is its index arithmetic */
    sizing_rule_t sizing; /* its design from keys and rate */
    const char *hash;     /* the hash words its positions use, e.g. "2 x 32-bit" */
    const char *cause;    /* what its source says about its rate: the departure expected
                           * and why (arithmetic, sizing, hash width, blocking), or
                           * "none expected" */
    const char *report;   /* the published report about its rate, or "" */
} library_t;

/* The libraries, in the order `audit --list` and the report show them. */
size_t library_count(void);
const library_t *library_at(size_t i);
/* By name; NULL when there is none. */
const library_t *library_find(const char *name);
/* The library's scheme (never NULL for an entry of the table: tests/test_library.c
 * checks every entry). */
const scheme_t *library_scheme(const library_t *lib);

#endif
