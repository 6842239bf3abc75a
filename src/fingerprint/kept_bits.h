/* kept_bits.h - a built filter kept as its keys' kept bits (fingerprint.h): for filters
 * whose lookup matches a query x exactly when x agrees with some stored key on that
 * key's T low hash bits, as every quotient-family filter's does (quotient_family.h), the
 * stored keys of a state's schedule, each as its low T bits, a sorted group per distinct
 * T. These are the table ops of fingerprint.h's fp_ops_t (fp_qf_ops uses them): build
 * draws the stored keys generation by generation and returns the schedule's refusals;
 * a lookup asks each group once (a binary search); the conditional rate is the measure of
 * the union of the sets {x : x = v mod 2^T}. Thread-safe with one table per thread. */
#ifndef BLOOMSIM_KEPT_BITS_H
#define BLOOMSIM_KEPT_BITS_H

#include "fingerprint/fingerprint.h"

double fp_kept_bytes(const fp_state_t *s);
int fp_kept_alloc(void **t, const fp_state_t *s);
void fp_kept_free(void *t);
int fp_kept_build(void *t, const fp_state_t *s, pcg32_t *r, const scheme_poll_t *poll,
                  uint64_t *refused);
uint64_t fp_kept_lookups(const void *t, const fp_state_t *s, pcg32_t *r, uint64_t L,
                         const scheme_poll_t *poll);
double fp_kept_conditional(void *t, const fp_state_t *s, const scheme_poll_t *poll);

#endif
