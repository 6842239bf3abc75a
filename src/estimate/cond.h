/* cond.h - the conditional estimator (docs/model.md, Estimators): for each built filter, the
 * exact false-positive probability over the scheme's whole query distribution, or
 * exact over part of it and sampled over the rest; averaged over filters by the caller.
 *
 *   SCHEME_COND_FILL    independent probes: a query's k positions are independent
 *                       uniform draws, so P(FP | filter) = (X/m)^k, X its set bits.
 *   SCHEME_COND_SLICES  partitioned: probe i is uniform in slice i, so
 *                       P(FP | filter) = prod_i X_i / w, X_i the set bits of slice i.
 *   SCHEME_COND_BLOCKS  blocked: a uniform block, then k independent uniform positions
 *                       in it: P(FP | filter) = mean over blocks of (X_j / B)^k.
 *   SCHEME_COND_SPLIT   split-block: a uniform block, one uniform bit in each of its k
 *                       words: P(FP | filter) = mean over blocks of prod_i X_ji / w.
 *   SCHEME_COND_SHIFT   positions (h1 + f_i(s)) mod m with h1 uniform on [0,m) and the
 *                       stride s uniform on S values, independent of h1. For one s the
 *                       starts h1 that are false positives are the set bits of
 *                       AND_i rot(B, f_i(s)), rot(B, o)[x] = B[(x + o) mod m]: all m
 *                       starts at once, 64 per word operation, stopping once the AND
 *                       is empty. c(s) = popcount of that AND, and
 *                       P(FP | filter) = sum_s c(s) / (m S).
 *
 * Stratified stride sampling (SCHEME_COND_SHIFT). Strides fall in two strata:
 *   D, always enumerated: the degenerate strides of the geometry (those whose k offsets
 *     are not all distinct: stride 0, m/2, m/4, ... for double at a power of two; and
 *     those whose words are all multiples of a divisor q of m with m/q <= 2k, so that
 *     their probes stay in a coset too small for k distinct positions: they carry
 *     much of the floor) and, where a query repeating a key exactly is not negligible
 *     (n/(m S) >= 1e-3 of the formula's rate), the strides of the filter's own keys (a
 *     query with an inserted key's stride shares probes with it; with an equal h1 it
 *     is the key itself). D is fixed once the filter is built.
 *   R, the other S - |D| strides: `samples` strides drawn uniformly from R with
 *     replacement (rejection against D); their mean c times |R| estimates sum_R c.
 * Given the filter, E[estimate] = (sum_D c + sum_R c) / (m S), the exact conditional
 * rate, so averaging over independently built filters is unbiased, and the
 * between-filter spread of the per-filter estimates includes the sampling variance.
 * With samples >= |R| every stride is enumerated and the estimate is exact.
 *
 * Thread-safety: a plan is read-only once made and may be shared; each thread needs
 * its own workspace. Nothing here allocates after cond_work_alloc, prints or exits.
 */
#ifndef BLOOMSIM_COND_H
#define BLOOMSIM_COND_H

#include <stddef.h>
#include <stdint.h>

#include "base/bits.h"
#include "base/pcg.h"
#include "schemes/scheme.h"

typedef struct cond_plan {
    const scheme_t *scheme;
    probe_geom_t g;
    uint64_t n;            /* keys per filter */
    uint64_t strides;      /* S, the size of the stride space (SHIFT) */
    uint64_t *degenerate;  /* sorted stride numbers of the geometry's degenerate strides */
    size_t ndegenerate;
    uint64_t samples;      /* strides sampled from R per filter; >= |R| means all */
    int key_strata;        /* inserted keys' strides are enumerated too (see cond.c) */
} cond_plan_t;

typedef struct cond_work {
    const scheme_poll_t *poll; /* asked while a filter is built and between strides
                                * (NULL: never); its caller sets it */
    uint64_t polled;           /* strides evaluated since it was last asked */
    uint64_t *ext;     /* B repeated: ext bit t = B[t mod m], long enough for any rotation */
    uint64_t *acc;     /* the running AND, one word per 64 starts */
    uint32_t *live;    /* indices of its nonzero words */
    uint64_t *offsets; /* k offsets of the current stride */
    uint64_t *words;   /* hash words of the inserted keys, SCHEME_MAX_WORDS a key */
    uint64_t *strata;  /* D for the current filter, sorted */
    double within;     /* the sampling variance of the last cond_evaluate's value given
                        * the filter: 0 when exact, else |R|^2 Var(c) / (samples (m S)^2)
                        * with Var(c) the sampled strides' own sample variance */
} cond_work_t;

enum { COND_OK = 0, COND_ENOTSUP = 1, COND_ENOMEM = 2 };

/* Can the conditional estimator run this scheme at this geometry with n keys? */
int cond_supported(const scheme_t *s, const probe_geom_t *g, uint64_t n);

/* Make the plan of one row: find the degenerate strides (scanning all strides when
 * there are at most 2^20 of them; the small-coset ones at any size). samples = 0
 * means all.
 * Returns COND_OK, COND_ENOTSUP or COND_ENOMEM. Free with cond_plan_free. */
int cond_plan_make(cond_plan_t *p, const scheme_t *s, const probe_geom_t *g, uint64_t n,
                   uint64_t samples);
void cond_plan_free(cond_plan_t *p);

/* Workspace for one thread and a plan. Returns COND_OK or COND_ENOMEM. */
int cond_work_alloc(cond_work_t *w, const cond_plan_t *p);
void cond_work_free(cond_work_t *w);

/* Build one filter from generator r (inserting the plan's n keys into b) and return
 * its conditional false-positive rate: cond_build then cond_evaluate with the same r. */
double cond_filter_rate(const cond_plan_t *p, bits_t *b, cond_work_t *w, pcg32_t *r);

/* Clear b and insert the plan's n keys drawn from r, keeping what cond_evaluate needs. */
void cond_build(const cond_plan_t *p, bits_t *b, cond_work_t *w, pcg32_t *r);

/* The conditional rate of the filter last built into b with w: exact for FILL and
 * SLICES; for SHIFT exact over D and all of R when samples cover it, else with stride
 * samples drawn from r. Given the filter, its expectation is the exact rate. */
double cond_evaluate(const cond_plan_t *p, const bits_t *b, cond_work_t *w, pcg32_t *r);

/* The SHIFT kind's c(s) for one stride number, exposed for tests: how many starts h1
 * are false positives in filter b. */
uint64_t cond_stride_hits(const cond_plan_t *p, const bits_t *b, cond_work_t *w, uint64_t s);

/* Prepare w->ext from b (done by cond_build; tests calling cond_stride_hits directly
 * call it first). */
void cond_load_filter(const cond_plan_t *p, const bits_t *b, cond_work_t *w);

#endif
