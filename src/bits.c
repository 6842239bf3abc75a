/* bits.c - allocation and counting for the bit array (bits.h). */
#include "bits.h"

#include <stdlib.h>

int bits_alloc(bits_t *b, uint64_t m)
{
    b->m = m;
    b->nwords = (m + 63) / 64;
    b->word = calloc(b->nwords ? b->nwords : 1, sizeof(uint64_t));
    return b->word ? 0 : -1;
}

void bits_free(bits_t *b)
{
    free(b->word);
    b->word = NULL;
    b->m = b->nwords = 0;
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
