/* quotient.c - the quotient filter that expands by fingerprint sacrifice: 2^q slots of
 * r-bit remainders; when its entries reach floor(threshold 2^Q) it doubles by moving one
 * remainder bit of every entry, new ones included, into the quotient, so T = q + r for
 * every key and at the same load the rate doubles at each doubling; once the remainder
 * has no bit left it refuses every later key. Void entries stay in their slots.
 *
 * Dayan et al.'s FingerprintSacrifice.java 27-77 (github.com/nivdayan/AlephFilter at
 * 3e1aa5f5f49d; quotient_family.c cites the rest): expand moves the fingerprint's lowest
 * bit (the "pivot") into the slot number; every slot, new ones included, keeps one bit
 * less; with no bit left the filter is full and refuses later keys.
 */
#include "fingerprint/quotient_family.h"
#include "fingerprint/registry.h"

#include <math.h>

/* After the E-th expansion r - E bits; no E-th expansion once none is left. */
static int grow(unsigned F0, unsigned E, unsigned *width)
{
    if (E > F0)
        return 0;
    *width = F0 - E;
    return 1;
}

static size_t growth(const fp_state_t *s, char *buf, size_t len, size_t at)
{
    unsigned F = s->d.bits;
    return fp_text(buf, len, at, "each expansion   every remainder, new ones too, one bit "
                   "shorter: the rate doubles at each doubling of the keys; after %u "
                   "expansions no bit is left and it refuses keys past %llu\n", F,
                   (unsigned long long)floor(ldexp(s->d.threshold, (int)(s->d.q + F))));
}

static const fp_qf_rules_t rules = {
    .age_bit = 0, .voids = FP_VOIDS_STAY, .grow = grow, .growth = growth};

static const scheme_t scheme = {.name = "quotient"};

const fp_filter_t fp_filter_quotient = {
    .name = "quotient",
    .summary = "quotient filter, 2^q slots of r-bit remainders; doubles at the load "
               "threshold by moving a remainder bit into the quotient (the rate doubles)",
    .ops = &fp_qf_ops,
    .rules = &rules,
    .scheme = &scheme,
};
