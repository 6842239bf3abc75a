/* bits.c - allocation and counting for the bit array (bits.h). */
#define _DEFAULT_SOURCE /* MADV_HUGEPAGE */
#include "base/bits.h"

#include <stdlib.h>
#include <sys/mman.h>

#define HUGE_PAGE ((size_t)2 << 20)

/* A zeroed mapping of len bytes (a multiple of HUGE_PAGE) starting on a HUGE_PAGE
 * boundary, where huge pages can back it; NULL when memory is short. The kernel may
 * ignore the advice (THP "never"); the array works the same with small pages. */
static void *map_huge(size_t len)
{
    char *raw = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                     -1, 0);
    if (raw == MAP_FAILED)
        return NULL;
    char *p = (char *)(((uintptr_t)raw + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
    if (p > raw)
        munmap(raw, (size_t)(p - raw));
    if (p + len < raw + len + HUGE_PAGE)
        munmap(p + len, (size_t)(raw + len + HUGE_PAGE - (p + len)));
#ifdef MADV_HUGEPAGE
    madvise(p, len, MADV_HUGEPAGE);
#endif
    return p;
}

int bits_alloc(bits_t *b, uint64_t m)
{
    b->m = m;
    b->nwords = (m + 63) / 64;
    b->maplen = 0;
    size_t bytes = (size_t)(b->nwords ? b->nwords : 1) * sizeof(uint64_t);
    if (bytes >= HUGE_PAGE) {
        b->maplen = (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
        b->word = map_huge(b->maplen);
    } else {
        b->word = calloc(bytes / sizeof(uint64_t), sizeof(uint64_t));
    }
    return b->word ? 0 : -1;
}

void bits_free(bits_t *b)
{
    if (b->maplen && b->word)
        munmap(b->word, b->maplen);
    else
        free(b->word);
    b->word = NULL;
    b->m = b->nwords = 0;
    b->maplen = 0;
}

uint64_t bits_count(const bits_t *b)
{
    uint64_t c = 0, nw = (b->m + 63) / 64;
    for (uint64_t i = 0; i < nw; i++)
        c += (uint64_t)__builtin_popcountll(b->word[i]);
    return c;
}

uint64_t bits_count_range(const bits_t *b, uint64_t lo, uint64_t hi)
{
    if (lo >= hi)
        return 0;
    uint64_t qlo = lo >> 6, qhi = (hi - 1) >> 6;
    uint64_t first = ~UINT64_C(0) << (lo & 63);
    uint64_t lastmask = ~UINT64_C(0) >> (63 - ((hi - 1) & 63));
    if (qlo == qhi)
        return (uint64_t)__builtin_popcountll(b->word[qlo] & first & lastmask);
    uint64_t c = (uint64_t)__builtin_popcountll(b->word[qlo] & first);
    for (uint64_t q = qlo + 1; q < qhi; q++)
        c += (uint64_t)__builtin_popcountll(b->word[q]);
    return c + (uint64_t)__builtin_popcountll(b->word[qhi] & lastmask);
}
