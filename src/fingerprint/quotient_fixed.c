/* quotient_fixed.c - the quotient filter that does not expand (Bender et al., "Don't
 * Thrash: How to Cache Your Hash on Flash", VLDB 2012), as the base class of the
 * InfiniFilter reference codes it: 2^q slots of r-bit remainders; the key that brings
 * its entries to floor(threshold 2^q) is stored, the filter is then full and refuses
 * every later key. The baseline the expanding filters are set against: the same table
 * as `quotient` before its first doubling, and never more.
 *
 * QuotientFilter.java (github.com/nivdayan/AlephFilter at 3e1aa5f5f49d) 73-74
 * (max_entries_before_full = (int)(2^q * 0.8)), 142-145 (expand: is_full = true, return
 * false), 731-757 (_insert: refused once full; insert, then expand at that count).
 *
 * Exact rate: every stored key keeps T = q + r hash bits and s = min(n, floor(threshold
 * 2^q)) keys are stored, so exact = 1 - (1 - 2^-(q + r))^s (quotient_family.h's rate of
 * one generation); space (2^q + 2q)(3 + r) bits, one place a lookup.
 */
#include "fingerprint/quotient_family.h"
#include "fingerprint/registry.h"

#include <math.h>

/* No expansion: full at the first threshold. */
static int grow(unsigned F0, unsigned E, unsigned *width)
{
    (void)F0, (void)E, (void)width;
    return 0;
}

static size_t growth(const fp_state_t *s, char *buf, size_t len, size_t at)
{
    return fp_text(buf, len, at, "each expansion   none: the table never grows; it is full at "
                   "%llu keys and refuses every later key\n",
                   (unsigned long long)floor(ldexp(s->d.threshold, (int)s->d.q)));
}

static const fp_qf_rules_t rules = {
    .age_bit = 0, .voids = FP_VOIDS_STAY, .grow = grow, .growth = growth};

static const scheme_t scheme = {.name = "quotient-fixed"};

const fp_filter_t fp_filter_quotient_fixed = {
    .name = "quotient-fixed",
    .summary = "quotient filter that does not expand (the reference's base QuotientFilter): "
               "full at the load threshold, it refuses every later key",
    .ops = &fp_qf_ops,
    .rules = &rules,
    .scheme = &scheme,
};
