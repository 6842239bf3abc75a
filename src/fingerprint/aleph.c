/* aleph.c - Aleph Filter (Dayan, Bercea, Pagh, VLDB 2024) with the widening fields
 * (infinifilter_widening.c): a void entry is copied into both halves at each expansion,
 * so a lookup asks the main table only; the copies count toward its load, and void
 * entries are also kept in a secondary table (for deletes).
 *
 * DuplicatingChainedInfiniFilter.java (github.com/nivdayan/AlephFilter at 3e1aa5f5f49d;
 * quotient_family.c cites its lines).
 */
#include "fingerprint/quotient_family.h"
#include "fingerprint/registry.h"

static const fp_qf_rules_t rules = {.age_bit = 1, .voids = FP_VOIDS_COPY,
                                    .grow = fp_qf_grow_widening,
                                    .growth = fp_qf_growth_widening};

static const scheme_t scheme = {.name = "aleph"};

const fp_filter_t fp_filter_aleph = {
    .name = "aleph",
    .summary = "Aleph Filter (VLDB 2024), widening fields: void entries copied at each "
               "expansion, so a lookup asks one table",
    .ops = &fp_qf_ops,
    .rules = &rules,
    .scheme = &scheme,
};
