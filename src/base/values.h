/* values.h - the numbers a user types, read by one rule wherever they are typed: in
 * experiment files and on the command line.
 *
 *   counts  a whole number: digits, with optional single _ between digits (200_000_000;
 *           1__0 and _1 are not counts), or an
 *           exact whole number in decimal scientific form (2e8, 1E9, 2.5e7) up to 2^53;
 *           1.5, -1 and 0x10 are not counts.
 *   reals   a finite decimal number (0.01, 1e-3); hexadecimal (0x1p-3) is refused
 *           everywhere, since 0x10 is more likely a typing error than a number here.
 *           A number whose magnitude is below the smallest positive double reads as 0,
 *           and says so (VALUES_UNDERFLOW), so that a caller can say why it is refused.
 * Blanks around a value are ignored. Pure; thread-safe.
 */
#ifndef BLOOMSIM_VALUES_H
#define BLOOMSIM_VALUES_H

#include <stdint.h>

enum { VALUES_OK = 0, VALUES_UNDERFLOW = 1, VALUES_BAD = -1 };

/* A count into *out. Returns VALUES_OK or VALUES_BAD (out untouched). */
int values_count(const char *s, uint64_t *out);

/* A real into *out. Returns VALUES_OK, VALUES_UNDERFLOW (*out is then 0) or VALUES_BAD
 * (out untouched). */
int values_real(const char *s, double *out);

#endif
