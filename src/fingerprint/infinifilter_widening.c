/* infinifilter_widening.c - InfiniFilter (infinifilter.c) with the field of new entries
 * widening to F + ceil(2 log2 E) after the E-th expansion: the reference's POLYNOMIAL
 * growth (FingerprintGrowthStrategy.java 30-74), under which newer generations' rates
 * fall as 1/E^2, so the rate stays bounded. Void entries move to a secondary table.
 */
#include "fingerprint/quotient_family.h"
#include "fingerprint/registry.h"

static const fp_qf_rules_t rules = {.age_bit = 1, .voids = FP_VOIDS_MOVE,
                                    .grow = fp_qf_grow_widening,
                                    .growth = fp_qf_growth_widening};

static const scheme_t scheme = {.name = "infinifilter-widening"};

const fp_filter_t fp_filter_infinifilter_widening = {
    .name = "infinifilter-widening",
    .summary = "InfiniFilter with fields widening to F + ceil(2 log2 E) after the E-th "
               "expansion (its POLYNOMIAL growth): a bounded rate",
    .ops = &fp_qf_ops,
    .rules = &rules,
    .scheme = &scheme,
};
