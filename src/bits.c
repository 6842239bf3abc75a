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
