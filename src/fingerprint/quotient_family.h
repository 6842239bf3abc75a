/* quotient_family.h - the machinery the quotient-style filters share (fingerprint.h):
 * tables of 2^Q slots that store a key in slot h mod 2^Q with a fingerprint of the next
 * bits of h and double, at a load threshold, by moving each fingerprint's lowest bit into
 * its slot number. A filter of the family is its rules (fp_qf_rules_t) and fp_qf_ops:
 * the design, the schedule of inserts and expansions, the space with its metadata, the
 * exact rate, the places a lookup asks and the hand-worked layout all follow from the
 * rules, and a built filter is its keys' kept bits (kept_bits.h). The rules of each
 * filter, and the source they follow, are in its own file (quotient.c, infinifilter.c,
 * ...); quotient_family.c cites the reference code of what they share.
 */
#ifndef BLOOMSIM_QUOTIENT_FAMILY_H
#define BLOOMSIM_QUOTIENT_FAMILY_H

#include "fingerprint/fingerprint.h"

/* What becomes of an entry with no fingerprint bit left ("void"; it keeps its T bits). */
typedef enum {
    FP_VOIDS_STAY,  /* stays in its slot of the main table (the quotient filter) */
    FP_VOIDS_MOVE,  /* moves to a secondary table at the next expansion (InfiniFilter) */
    FP_VOIDS_COPY   /* copied into both halves at each expansion, and also kept in a
                     * secondary table (Aleph) */
} fp_qf_voids_t;

typedef struct fp_qf_rules {
    unsigned age_bit;     /* 1: one bit of the field is the unary age mark (InfiniFilter) */
    fp_qf_voids_t voids;
    /* The field of the slots, new entries' too, after the E-th expansion (E >= 1) of a
     * filter whose first field was F0 bits: writes it to *width and returns 1, or returns
     * 0 when the filter cannot expand an E-th time: it is then full and refuses every
     * later key. A pure function of F0 and E. */
    int (*grow)(unsigned F0, unsigned E, unsigned *width);
    /* `size --filter`'s last line, "each expansion ...", appended as fp_text does. */
    size_t (*growth)(const fp_state_t *s, char *buf, size_t len, size_t at);
} fp_qf_rules_t;

/* The family's ops: every filter of the family points its descriptor's ops here and its
 * rules at its fp_qf_rules_t. */
extern const fp_ops_t fp_qf_ops;

static inline const fp_qf_rules_t *fp_qf_rules(const fp_filter_t *f)
{
    return (const fp_qf_rules_t *)f->rules;
}

/* The widening fields (the reference's POLYNOMIAL growth): after the E-th expansion, the
 * fewest F with 2^F >= 2^F0 E^2, F0 + ceil(2 log2 E); F0 for E <= 1. */
unsigned fp_qf_widened(unsigned F0, unsigned E);
/* The grow rule of the widening fields: fp_qf_widened, and never full. */
int fp_qf_grow_widening(unsigned F0, unsigned E, unsigned *width);
/* The growth line of the widening fields, with what the rules do with a void entry. */
size_t fp_qf_growth_widening(const fp_state_t *s, char *buf, size_t len, size_t at);

#endif
