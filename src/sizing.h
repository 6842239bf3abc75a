/* sizing.h - designing a filter from a key count and a target false-positive rate, and
 * the layers of a scalable stack of filters (seed 001, "A stack of filters that does
 * not degrade").
 *
 * A design has three numbers: the bit count the rule computes, the number of bits m the
 * library's filter really indexes (the modulus of its positions; what bloomsim builds
 * and what the rates are computed for), and the number of probes k. Rules
 * (docs/model.md, The model; Guava's BloomFilter.java and LockFreeBitArray):
 *   calculateparams  m = ceil(n b), b = -ln p / (ln 2)^2, k = ceil(b ln 2); seed 002's
 *                    CalculateParams (Bendersky's Go filter), computed as it does: b
 *                    first, in double, and k from b, not from m/n. The filter indexes
 *                    the m bits computed. CalculateParams(1e9, 0.01) = (9,585,058,378, 7).
 *   guava            computed m_c = floor(-n ln p / (ln 2)^2) (optimalNumOfBits),
 *                    k = max(1, round((m_c/n) ln 2)) (optimalNumOfHashFunctions(n,
 *                    numBits), called by BloomFilter.create with the computed numBits);
 *                    the filter indexes m = 64 ceil(m_c / 64) bits: LockFreeBitArray
 *                    allocates long[ceil(m_c/64)], bitSize() = 64 * words, positions
 *                    are taken mod bitSize(). Computed as Java does (double,
 *                    truncation, Math.round). The k rule is BloomFilter.java's at
 *                    @769e1e9c; later versions (google/guava#7346) take k = max(1,
 *                    round(-ln p / ln 2)), which differs only when truncation moves
 *                    (m_c/n) ln 2 across a .5.
 * Computed counts are at least 1: a rate near 1 still gets one bit (guava: one word).
 * Pure functions; thread-safe; no printing.
 */
#ifndef BLOOMSIM_SIZING_H
#define BLOOMSIM_SIZING_H

#include <stddef.h>
#include <stdint.h>

typedef enum { SIZING_CALCULATEPARAMS, SIZING_GUAVA } sizing_rule_t;

enum {
    SIZING_OK = 0,
    SIZING_EDOM,     /* n == 0, or p not in (0, 1) */
    SIZING_ETOOBIG,  /* m would not fit in 64 bits */
    SIZING_ELAYERS,  /* stack: growth < 1, tightening not in (0, 1), or too many layers */
    SIZING_EPROBES,  /* k would be more than SIZING_MAX_K */
};

/* The most probes a design may have: bloomsim's limit on k everywhere (experiments,
 * exact, probes). Both rules pass it only for p below about 2^-1000 = 9.3e-302. */
#define SIZING_MAX_K 1000

/* The design of n keys at target rate p under a rule: *m_computed the bits the rule
 * computes, *m the bits the library's filter indexes (>= *m_computed; equal for
 * calculateparams), *k the probes. Returns SIZING_OK, SIZING_EDOM, SIZING_ETOOBIG or
 * SIZING_EPROBES (checked in that order) and writes nothing on error. */
int sizing_design_full(sizing_rule_t rule, uint64_t n, double p, uint64_t *m_computed,
                       uint64_t *m, unsigned *k);
/* sizing_design_full without the computed count: the m the filter indexes, and k. */
int sizing_design(sizing_rule_t rule, uint64_t n, double p, uint64_t *m, unsigned *k);
/* "calculateparams" or "guava". */
const char *sizing_rule_name(sizing_rule_t rule);
/* Parse a rule name; 0 or -1. */
int sizing_rule_parse(const char *s, sizing_rule_t *rule);
const char *sizing_strerror(int status);

#define SIZING_MAX_LAYERS 64

/* One layer of a stack: layer j has capacity round(c0 s^j), rate eps r^j, sized by the
 * rule (m the bits its filter indexes, as sizing_design); it holds n keys (its capacity,
 * or fewer if it is the newest). */
typedef struct sizing_layer {
    uint64_t capacity, n, m;
    unsigned k;
    double rate;
} sizing_layer_t;

/* The layers a stack (first capacity c0, rate eps, growth s >= 1, tightening
 * 0 < r < 1) has after `keys` insertions: a layer is frozen once it has received its
 * capacity and the next key starts a new one. Writes up to SIZING_MAX_LAYERS layers to
 * out and their number to *nlayers. Returns SIZING_OK or an error. */
int sizing_stack(sizing_rule_t rule, uint64_t c0, double eps, double s, double r,
                 uint64_t keys, sizing_layer_t *out, size_t *nlayers);

#endif
