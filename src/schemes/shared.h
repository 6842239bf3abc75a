/* shared.h - what several scheme files share beyond the loops: geometries, checks of
 * hash words, the bounds of drawn positions, and the models of library schemes whose
 * departures have the same cause (one 32-bit word; 512-bit lines). Each is a plain
 * function for a descriptor's function pointers. Pure; thread-safe.
 */
#ifndef BLOOMSIM_SCHEMES_SHARED_H
#define BLOOMSIM_SCHEMES_SHARED_H

#include <stdint.h>

#include "schemes/scheme.h"

/* ---- geometries ---- */

/* m as requested, k < m (else SCHEME_EKBIG); block ignored. */
int scheme_geom_plain(uint64_t m, unsigned k, uint64_t block, probe_geom_t *g);
/* m up to limit (else SCHEME_EMBIG: the library holds m in a Java int or a signed
 * 32-bit shift), then as scheme_geom_plain. */
int scheme_geom_int_m(uint64_t m, unsigned k, uint64_t limit, probe_geom_t *g);
/* m rounded down to whole lines or blocks of `bits` bits (at least one, else
 * SCHEME_ESMALL), their number odd when `odd` (rounded down), k below the bits used;
 * g->blocks holds their number, g->block stays 0. */
int scheme_geom_lines(uint64_t m, unsigned k, uint64_t bits, int odd, probe_geom_t *g);
/* k slices of w = floor(m/k) bits: m used = k w (k < m, else SCHEME_EKBIG). */
int scheme_geom_slices(uint64_t m, unsigned k, uint64_t block, probe_geom_t *g);
/* m a power of two (else SCHEME_ENOTPOW2), then as scheme_geom_plain. */
int scheme_geom_pow2(uint64_t m, unsigned k, uint64_t block, probe_geom_t *g);

/* ---- hash words (check_words) ---- */

int scheme_words_any(const probe_geom_t *g, const uint64_t *h);
int scheme_words1_32(const probe_geom_t *g, const uint64_t *h);     /* h[0] < 2^32 */
int scheme_words2_32(const probe_geom_t *g, const uint64_t *h);     /* h[0..2) < 2^32 */
int scheme_words2_below_m(const probe_geom_t *g, const uint64_t *h); /* h[0..2) < m */
int scheme_words3_below_m(const probe_geom_t *g, const uint64_t *h); /* h[0..3) < m */

/* ---- bounds of drawn positions (draw_bound) ---- */

uint64_t scheme_draw_below_m(const probe_geom_t *g, unsigned i);
uint64_t scheme_draw_below_w(const probe_geom_t *g, unsigned i);
uint64_t scheme_draw_below_2_32(const probe_geom_t *g, unsigned i);

/* ---- models shared by library schemes (docs/model.md, "The model column") ---- */

/* The distinct values among n uniform 32-bit hashes, on average: D = 2^32 (1 - (1 -
 * 2^-32)^n). */
double scheme_distinct32(uint64_t n);
/* A lookup whose one 32-bit hash equals a stored key's is a false positive for certain;
 * otherwise it is a fresh key against the D distinct hashes stored: c + (1 - c) inner,
 * c = D / 2^32, inner the structure's rate at D keys (NaN when inner < 0). */
double scheme_one_word_floor(double D, double inner);
/* Every probe from one 32-bit word, positions uniform over m (rate_model_hash). */
double scheme_model_one_word(const probe_geom_t *g, uint64_t n);
/* Uniform positions within 512-bit lines: the exact blocked rate (rate_blocked_exact). */
double scheme_model_lines(const probe_geom_t *g, uint64_t n);

#endif
