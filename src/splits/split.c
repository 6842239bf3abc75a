/* split.c - the hash splits of split.h: the registry's table (splits/registry.h), the
 * names, and what a split may feed. */
#include "splits/split.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define SPLIT_EXTERN(id) extern const split_t split_##id;
SPLIT_REGISTRY(SPLIT_EXTERN)
#define SPLIT_ADDRESS(id) &split_##id,
static const split_t *const SPLITS[SPLIT_COUNT] = {SPLIT_REGISTRY(SPLIT_ADDRESS)};

const split_t *split_at(size_t i)
{
    return i < SPLIT_COUNT ? SPLITS[i] : NULL;
}

const split_t *split_find(const char *name)
{
    for (size_t i = 0; name && i < SPLIT_COUNT; i++)
        if (strcmp(name, SPLITS[i]->name) == 0)
            return SPLITS[i];
    return NULL;
}

static char names_list[SPLIT_COUNT * 24];
static pthread_once_t names_once = PTHREAD_ONCE_INIT;

static void names_build(void)
{
    size_t used = 0;
    for (size_t i = 0; i < SPLIT_COUNT && used < sizeof names_list; i++) {
        const char *sep = i == 0 ? "" : i + 1 == SPLIT_COUNT ? " or " : ", ";
        int w = snprintf(names_list + used, sizeof names_list - used, "%s%s", sep,
                         SPLITS[i]->name);
        used += w > 0 ? (size_t)w : 0;
    }
}

const char *split_names_list(void)
{
    pthread_once(&names_once, names_build);
    return names_list;
}

/* The schemes whose words are h1 on [0, m) and an odd stride on [0, m): seed 003's
 * double hashing with odd stride, enhanced double hashing, and the seed's own loop. */
static const char *const FED[] = {"double-odd", "enhanced", "squares"};

int split_check(const split_t *s, const scheme_t *sc, uint64_t m, char *err, size_t errlen)
{
    if (s->unavailable) {
        snprintf(err, errlen, "split %s is not in this build: %s", s->name, s->unavailable);
        return SPLIT_EUNAVAILABLE;
    }
    int fed = 0;
    for (size_t i = 0; i < sizeof FED / sizeof FED[0]; i++)
        fed |= strcmp(sc->name, FED[i]) == 0;
    if (!fed) {
        snprintf(err, errlen, "split %s feeds double-odd, enhanced and squares (their words "
                 "are h1 and an odd stride on [0, m)), not %s", s->name, sc->name);
        return SPLIT_ESCHEME;
    }
    if (m < 2 || (m & (m - 1)) != 0 || (s->half_bits < 64 && m > (UINT64_C(1) << s->half_bits))) {
        snprintf(err, errlen, "split %s needs m a power of two from 2 to 2^%u (its halves "
                 "are %u bits), not %llu", s->name, s->half_bits, s->half_bits,
                 (unsigned long long)m);
        return SPLIT_EBITS;
    }
    return SPLIT_OK;
}
