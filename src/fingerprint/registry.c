/* registry.c - the table of registry.h's list, and finding a filter by name. */
#include "fingerprint/registry.h"

#include <string.h>

#define FP_ADDRESS_FILTER(id) &fp_filter_##id,

static const fp_filter_t *const filters[] = {FP_FILTERS(FP_ADDRESS_FILTER)};

size_t fp_filter_count(void) { return sizeof filters / sizeof filters[0]; }

const fp_filter_t *fp_filter_at(size_t i) { return i < fp_filter_count() ? filters[i] : NULL; }

const fp_filter_t *fp_filter_find(const char *name)
{
    for (size_t i = 0; i < fp_filter_count(); i++)
        if (strcmp(filters[i]->name, name) == 0)
            return filters[i];
    return fp_redisbloom_cuckoo_variant(name); /* redisbloom-cuckoo/E/B/I */
}
