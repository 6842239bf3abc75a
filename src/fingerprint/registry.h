/* registry.h - the fingerprint filters users choose from (experiment key `fingerprint`,
 * `size --filter`), one line an entry, in the order `bloomsim list`, `size --help` and a
 * sweep's rows show them. An entry X(id) stands for the descriptor fp_filter_id, defined
 * in its own file fingerprint/ID.c (with `-` for `_` in its name); registry.c builds the
 * table from this list. Adding a filter is its file, its line here and its line in
 * meson.build (docs/extending.md, "How to add a fingerprint filter").
 */
#ifndef BLOOMSIM_FP_REGISTRY_H
#define BLOOMSIM_FP_REGISTRY_H

#include "fingerprint/fingerprint.h"

#define FP_FILTERS(X)        \
    X(quotient)              \
    X(quotient_fixed)        \
    X(infinifilter)          \
    X(infinifilter_widening) \
    X(aleph)                 \
    X(cuckoo)                \
    X(cuckoo_rebuilt)        \
    X(seiflotfy_cuckoo)      \
    X(bloom_filters_cuckoo)  \
    X(bloom_filters_xor)     \
    X(rocksdb_ribbon)        \
    X(redisbloom_cuckoo)

#define FP_EXTERN_FILTER(id) extern const fp_filter_t fp_filter_##id;
FP_FILTERS(FP_EXTERN_FILTER)

/* The filters, in the order of the list: fp_filter_count() entries. */
size_t fp_filter_count(void);
const fp_filter_t *fp_filter_at(size_t i);
/* The filter of that name, or NULL. */
const fp_filter_t *fp_filter_find(const char *name);

#endif
