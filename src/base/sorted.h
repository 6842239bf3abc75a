/* sorted.h - sorted arrays of 64-bit values: drop the repeats of a sorted array, and ask
 * whether a value is in one (binary search, for 64-bit values or, through
 * SORTED_DEFINE_CONTAINS, any ordered type). Used by the conditional estimator's strata
 * (cond.c), the quotient family's stored keys (fingerprint/kept_bits.c) and
 * scripts/word_sharing.c. */
#ifndef BLOOMSIM_SORTED_H
#define BLOOMSIM_SORTED_H

#include <stddef.h>
#include <stdint.h>

/* Drop the repeats of the sorted v[0..n) in place; returns how many values remain. */
static inline size_t sorted_unique(uint64_t *v, size_t n)
{
    size_t u = n ? 1 : 0;
    for (size_t i = 1; i < n; i++)
        if (v[i] != v[u - 1])
            v[u++] = v[i];
    return u;
}

/* Defines `static inline int NAME(const T *v, size_t n, T x)`: whether x is among the sorted
 * v[0..n) (binary search), for any type T ordered by < and ==. */
#define SORTED_DEFINE_CONTAINS(NAME, T)                                                    \
    static inline int NAME(const T *v, size_t n, T x)                                      \
    {                                                                                      \
        size_t lo = 0, hi = n;                                                             \
        while (lo < hi) {                                                                  \
            size_t mid = lo + (hi - lo) / 2;                                               \
            if (v[mid] < x)                                                                \
                lo = mid + 1;                                                              \
            else                                                                           \
                hi = mid;                                                                  \
        }                                                                                  \
        return lo < n && v[lo] == x;                                                       \
    }

/* Whether x is among the sorted v[0..n). */
SORTED_DEFINE_CONTAINS(sorted_contains, uint64_t)

#endif
