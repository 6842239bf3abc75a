/* library_filter.h - the filter the library tests build key by key: a plain bit array,
 * set and tested at the positions a library's real hash words give (library_words.h),
 * to compare with the library's own known answers and with bloomsim's runs. */
#ifndef BLOOMSIM_TEST_LIBRARY_FILTER_H
#define BLOOMSIM_TEST_LIBRARY_FILTER_H

#undef NDEBUG
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "libraries/library.h"
#include "libraries/registry.h"
#include "rates/sizing.h"

typedef struct {
    uint8_t *b;
    probe_geom_t g;
    const scheme_t *s;
    const library_words_t *w;
} filt_t;

static inline void filt_init(filt_t *f, const char *library, const char *scheme, uint64_t m, unsigned k)
{
    f->w = library_find(library)->words;
    f->s = scheme ? scheme_find(scheme) : library_find(library)->scheme;
    assert(f->w && f->s && f->s->geometry(m, k, 0, &f->g) == SCHEME_OK);
    f->b = calloc(f->g.m / 8 + 8, 1);
}

/* Adds (add = 1) or tests a key; returns whether all its bits were set. */
static inline int filt_key(filt_t *f, const rkey_t *key, int add)
{
    uint64_t pos[SIZING_MAX_K];
    library_words_positions(f->w, f->s, &f->g, key, pos);
    int all = 1;
    for (unsigned i = 0; i < f->g.k; i++) {
        all &= f->b[pos[i] / 8] >> (pos[i] % 8) & 1;
        if (add)
            f->b[pos[i] / 8] |= (uint8_t)(1u << (pos[i] % 8));
    }
    return all;
}
static inline int filt_str(filt_t *f, const char *s, int add)
{
    rkey_t k = {.kind = KEY_BYTES, .bytes = (const uint8_t *)s, .len = strlen(s)};
    return filt_key(f, &k, add);
}
static inline int filt_int(filt_t *f, uint64_t v, int add)
{
    rkey_t k = {.kind = KEY_INT, .u = v};
    return filt_key(f, &k, add);
}

#endif
