/* arith.h - arithmetic that several library rules share, evaluated as their languages
 * do: Java's casts of a double to long or int truncate and saturate, and Math.round(x)
 * is floor(x + 0.5); Guava's optimalNumOfBits and optimalNumOfHashFunctions, which Spark,
 * ORC, Hive and Redisson copy. Header-only; pure.
 */
#ifndef BLOOMSIM_LIBRARIES_ARITH_H
#define BLOOMSIM_LIBRARIES_ARITH_H

#include <math.h>
#include <stdint.h>

/* 2^64 as a double: counts at or past it do not fit. */
#define TWO_64 18446744073709551616.0
/* Integer.MAX_VALUE as a double. */
#define INT32_MAXD 2147483647.0

/* Java's Math.max(1, (int) Math.round((double) m / n * Math.log(2))). */
static inline double java_k(uint64_t m, uint64_t n)
{
    double k = floor((double)m / (double)n * log(2.0) + 0.5);
    return k < 1 ? 1 : k;
}

/* (long) (-n * Math.log(p) / (Math.log(2) * Math.log(2))), Guava's optimalNumOfBits as
 * Spark, ORC and Redisson copy it; saturating at 2^63 - 1 like Java. */
static inline double java_optimal_bits(uint64_t n, double p)
{
    const double ln2 = log(2.0);
    double x = floor(-(double)n * log(p) / (ln2 * ln2));
    return x > 9223372036854775807.0 ? 9223372036854775807.0 : x;
}

#endif
