/* lines.h - the cache lines a Bloom filter's lookup of an absent key reads, for a sweep
 * that sets Bloom filters beside fingerprint filters (experiment families: the places
 * column of a library's row there; a fingerprint filter's places are its buckets or
 * slots, fingerprint.h). Pure; thread-safe.
 */
#ifndef BLOOMSIM_LINES_H
#define BLOOMSIM_LINES_H

#include "schemes/scheme.h"

/* Bits in a cache line: 64 bytes. */
#define LINES_BITS 512

/* The 512-bit lines a lookup of an absent key reads in a filter of geometry g whose
 * fraction fill of bits is set, the lookup stopping at its first unset bit (as every
 * library bloomsim audits does): a filter of lines or blocks of at most 512 bits, 1 (its
 * block, the array aligned to lines); k slices (w < m, no blocks), sum_{j<k} fill^j (probe
 * j is read when the j before it were set, each in its own slice and line); an unblocked
 * filter of L = ceil(m / 512) lines, sum_{j<k} (fill (1 - 1/L))^j (probe j read, and in a
 * line none before it read, its positions taken as uniform). NAN for blocks wider than a
 * line, or a fill not in [0, 1]. */
double lines_absent_lookup(const probe_geom_t *g, double fill);

#endif
