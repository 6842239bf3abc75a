/* infinifilter.c - InfiniFilter (Dayan, Twitto, Mannes, Bercea, Gaffney, Pagh, SIGMOD
 * 2023) with its fixed fields: slots of F bits, one of them the unary age mark, so an
 * entry inserted after E expansions keeps F - 1 hash bits beyond the Q = q + E bits of
 * its slot and loses one per expansion; entries left with none move to a secondary
 * table, keeping their bits, which a lookup asks after the main table.
 *
 * BasicInfiniFilter.java and ChainedInfiniFilter.java (github.com/nivdayan/AlephFilter
 * at 3e1aa5f5f49d; quotient_family.c cites their lines), with FingerprintGrowthStrategy's
 * UNIFORM growth: the field of new entries stays F.
 */
#include "fingerprint/quotient_family.h"
#include "fingerprint/registry.h"

static int grow(unsigned F0, unsigned E, unsigned *width)
{
    (void)E;
    *width = F0;
    return 1;
}

static size_t growth(const fp_state_t *s, char *buf, size_t len, size_t at)
{
    return fp_text(buf, len, at, "each expansion   older entries one hash bit shorter, new "
                   "ones %u; an entry with none left moves to a secondary table\n",
                   s->d.bits - 1);
}

static const fp_qf_rules_t rules = {
    .age_bit = 1, .voids = FP_VOIDS_MOVE, .grow = grow, .growth = growth};

static const scheme_t scheme = {.name = "infinifilter"};

const fp_filter_t fp_filter_infinifilter = {
    .name = "infinifilter",
    .summary = "InfiniFilter (SIGMOD 2023): fixed F-bit fields with a unary age mark; "
               "newer entries keep longer fingerprints, void ones move to a secondary",
    .ops = &fp_qf_ops,
    .rules = &rules,
    .scheme = &scheme,
};
