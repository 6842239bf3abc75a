/* cuckoo_rebuilt.c - the cuckoo filter (cuckoo.c) sized for the keys inserted at each
 * point rather than for design_keys: the static reference at its design load, which a
 * filter that grows is measured against. */
#include "fingerprint/cuckoo.h"
#include "fingerprint/registry.h"

static const scheme_t scheme = {.name = "cuckoo-rebuilt"};

const fp_filter_t fp_filter_cuckoo_rebuilt = {
    .name = "cuckoo-rebuilt",
    .summary = "cuckoo filter sized for the keys inserted at each point (the static "
               "reference)",
    .ops = &fp_cuckoo_ops,
    .rebuilt = 1,
    .scheme = &scheme,
};
