/* sort.h - an in-place sort that can stop: the fingerprint filters' kept bits
 * (kept_bits.c) and a cuckoo filter's query pairs (cuckoo.c) are sorted with it, so that
 * a stop (Ctrl-C) ends a filter's build within a chunk at any filter size instead of
 * waiting for a qsort of 10^8 values (issue 38).
 *
 * FP_SORT_DEFINE(NAME, T) defines `static int NAME(T *v, size_t n, const scheme_poll_t
 * *poll)`: sorts v[0..n) ascending (T ordered by <) and returns 0, or returns 1 as soon
 * as poll (scheme.h; NULL: never) says to stop, v then in some order. A sorted array of
 * values is unique whatever the algorithm, so the result is qsort's, byte for byte: no
 * draw or rate moves. Quicksort (Hoare's partition around v[0], after moving the median of
 * three there; Sedgewick, Algorithms in C, 3rd ed., 7.2 and 7.5), recursing into the
 * smaller part so the stack stays O(log n) deep, insertion sort below FP_SORT_SMALL
 * values; poll is asked once about every FP_SORT_POLL values partitioned (a few
 * milliseconds), never per value.
 */
#ifndef BLOOMSIM_FINGERPRINT_SORT_H
#define BLOOMSIM_FINGERPRINT_SORT_H

#include <stddef.h>
#include <stdint.h>

#include "schemes/scheme.h"

#define FP_SORT_SMALL 16
#define FP_SORT_POLL (UINT64_C(1) << 20)

#define FP_SORT_DEFINE(NAME, T)                                                            \
    static void NAME##_small(T *v, size_t n)                                               \
    {                                                                                      \
        for (size_t i = 1; i < n; i++) {                                                   \
            T x = v[i];                                                                    \
            size_t j = i;                                                                  \
            for (; j > 0 && x < v[j - 1]; j--)                                             \
                v[j] = v[j - 1];                                                           \
            v[j] = x;                                                                      \
        }                                                                                  \
    }                                                                                      \
    /* Moves the median of v[0], v[n / 2], v[n - 1] to v[0]; returns Hoare's split j:   \
     * v[0..j] <= pivot <= v[j + 1..n), 0 <= j < n - 1. */                                 \
    static size_t NAME##_split(T *v, size_t n)                                             \
    {                                                                                      \
        size_t a = 0, b = n / 2, c = n - 1, m;                                             \
        if (v[a] < v[b])                                                                   \
            m = v[b] < v[c] ? b : v[a] < v[c] ? c : a;                                     \
        else                                                                               \
            m = v[a] < v[c] ? a : v[b] < v[c] ? c : b;                                     \
        T p = v[m];                                                                        \
        v[m] = v[0];                                                                       \
        v[0] = p;                                                                          \
        size_t i = 0, j = n;                                                               \
        for (;;) {                                                                         \
            while (v[i] < p) /* v[0] == p stops the first scan */                          \
                i++;                                                                       \
            do                                                                             \
                j--;                                                                       \
            while (p < v[j]);                                                              \
            if (i >= j)                                                                    \
                return j;                                                                  \
            T t = v[i];                                                                    \
            v[i++] = v[j];                                                                 \
            v[j] = t;                                                                      \
        }                                                                                  \
    }                                                                                      \
    static int NAME##_run(T *v, size_t n, const scheme_poll_t *poll, uint64_t *work)       \
    {                                                                                      \
        while (n > FP_SORT_SMALL) {                                                        \
            if (poll && (*work += n) >= FP_SORT_POLL) {                                    \
                *work = 0;                                                                 \
                if (poll->fn(poll->ctx))                                                   \
                    return 1;                                                              \
            }                                                                              \
            size_t left = NAME##_split(v, n) + 1;                                          \
            if (left < n - left) {                                                         \
                if (NAME##_run(v, left, poll, work))                                       \
                    return 1;                                                              \
                v += left, n -= left;                                                      \
            } else {                                                                       \
                if (NAME##_run(v + left, n - left, poll, work))                            \
                    return 1;                                                              \
                n = left;                                                                  \
            }                                                                              \
        }                                                                                  \
        NAME##_small(v, n);                                                                \
        return 0;                                                                          \
    }                                                                                      \
    static int NAME(T *v, size_t n, const scheme_poll_t *poll)                             \
    {                                                                                      \
        uint64_t work = 0;                                                                 \
        return NAME##_run(v, n, poll, &work);                                              \
    }

#endif
