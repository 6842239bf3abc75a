/* estimator.h - the estimators of a filter's false-positive rate, behind one interface
 * (docs/model.md, Estimators).
 *
 * An estimator builds one filter (or one layer of a stack) of n keys from a unit's
 * generator and returns an unbiased estimate of that filter's rate; the simulation
 * (simulate.h) averages over independently built filters. Each estimator is one file,
 * est_NAME.c, defining one est_ops_t, and one entry in the registry of estimator.c:
 *   lookups      est_lookups.c      ask L fresh absent keys, count false positives
 *   conditional  est_conditional.c  the exact rate given the filter (cond.h), or exact
 *                                   over part of the query space and sampled over the rest
 * Fingerprint filters (fingerprint.h) have both under the same names, est_fingerprint.c.
 * An estimator may also run a whole row its own way (run_row): the lookups estimator
 * builds filters of EST_SHARED_BITS and more on all threads at once.
 *
 * Thread-safety: ops are pure functions of their arguments; a plan (made once per
 * row and layer) is read-only and shared by threads; scratch is per thread. Nothing
 * allocates inside measure, prints or exits.
 */
#ifndef BLOOMSIM_ESTIMATOR_H
#define BLOOMSIM_ESTIMATOR_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "base/bits.h"
#include "base/pcg.h"
#include "base/progress.h"
#include "estimate/row.h"
#include "schemes/scheme.h"

/* What one measurement works on: one filter, or one layer of a stack, of the row, on one
 * thread: the layer's geometry and keys (row_layer_geom, row_layer_n), its plan (made by
 * plan_make; shared by threads), the thread's scratch for that plan and its bit array
 * (allocated for g->m bits), and what to ask between chunks of the work (scheme.h; NULL:
 * nothing). */
typedef struct est_layer {
    const exp_row_t *row;
    const probe_geom_t *g;
    uint64_t n;
    const void *plan;
    void *scratch;
    bits_t *b;
    const scheme_poll_t *poll;
    uint64_t check, *absent; /* an audit's: query `check` inserted keys, the false negatives
                              * into *absent (row.h, row_out_t.absent); 0 and NULL: none */
} est_layer_t;

/* An audit's check of the inserted keys (row_out_t.absent): a filter of n keys asked L
 * absent ones queries all n where that is no more than L, else a sample of
 * max(L, EST_CHECK_MIN) of them (never more than n). Ideal keys are independent draws,
 * so the first ones inserted are a random sample; est_keys.c samples a key set's. */
#define EST_CHECK_MIN UINT64_C(100000)
#define EST_UNCHECKED UINT64_MAX
static inline uint64_t est_check_count(uint64_t n, uint64_t L)
{
    uint64_t s = L > EST_CHECK_MIN ? L : EST_CHECK_MIN;
    return n <= s ? n : s;
}

/* The check of a filter l just built from r0 (the generator as insert found it): its
 * first l->check inserted keys queried, those reported absent into *l->absent. */
static inline void est_check_layer(const est_layer_t *l, const scheme_t *s, pcg32_t r0)
{
    if (l->absent)
        *l->absent = l->check - s->present(l->b, l->g, &r0, l->check, l->poll);
}

typedef struct est_ops {
    const char *name;     /* as the `estimator` key and the CSV's estimator column say */
    const char *summary;  /* one line for `bloomsim list` */
    /* The sweep's `estimator = auto` takes, per row, the estimator with the highest
     * preference that supports it (lookups, 0, supports every scheme). */
    int prefer;
    /* Per-filter results are integer counts of false positives over the row's
     * lookups_per_filter lookups (the CSV's lookups and false_positives columns);
     * otherwise rates. */
    int counts;
    /* Can it measure this scheme at this geometry with n keys? */
    int (*supports)(const scheme_t *s, const probe_geom_t *g, uint64_t n);
    /* Bytes one thread needs for one layer besides its bit array (memory check). */
    double (*scratch_bytes)(const exp_row_t *row, const probe_geom_t *g, uint64_t n);
    /* Cost of one filter (one layer) in probe-sized units, for progress only. */
    double (*work)(const exp_row_t *row, const probe_geom_t *g, uint64_t n);
    /* The read-only plan of one layer, shared by threads; NULL ops when none is needed.
     * Return 0, or -1 when memory is short. */
    int (*plan_make)(void **plan, const exp_row_t *row, const probe_geom_t *g,
                     uint64_t n);
    void (*plan_free)(void *plan);
    /* One thread's scratch for a plan; NULL ops when none is needed. 0 or -1. */
    int (*scratch_alloc)(void **scratch, const void *plan);
    void (*scratch_free)(void *scratch);
    /* Build the filter l describes from r and return its estimated rate; a counting
     * estimator stores its false positives in *count. *within receives the variance of
     * that estimate given the filter: 0 when it is exact, the sampling variance when it
     * is sampled (stats.h). When l->poll says stop, measure returns early with a
     * meaningless result, which the caller drops. */
    double (*measure)(const est_layer_t *l, pcg32_t *r, uint64_t *count, double *within);
    /* Optional: does this estimator run the whole row itself (run_row), and how many
     * bit arrays it then needs in all (not per thread)? */
    int (*runs_row)(const exp_row_t *row);
    /* Filters f0..F-1 of run->row into run->out, on run->threads threads, with the one
     * bit array b; the same results for any thread count. *done counts finished filters.
     * Returns 0, or 1 when stopped. */
    int (*run_row)(const row_run_t *run, bits_t *b, uint64_t f0, uint64_t F, uint64_t *done);
} est_ops_t;

/* The cost of a row in probe-sized units, for progress only: per filter, its layers' n k
 * inserts and its estimator's work, times the row's first batch of filters. */
double est_row_work(const exp_row_t *row);

/* The registry, in a fixed order, lookups first (a sweep's default); est_count()
 * entries, at most EST_MAX. */
#define EST_MAX 16
size_t est_count(void);
const est_ops_t *est_at(size_t i);
/* The registry index of the estimator of that name, or -1. */
int est_find(const char *name);

/* The lookups estimator's run of a row of real keys (est_keys.c): filters f0..F-1, each
 * built and queried by all threads; as run_row. */
int est_keys_run_row(const row_run_t *run, bits_t *b, uint64_t f0, uint64_t F, uint64_t *done);

extern const est_ops_t est_lookups;
extern const est_ops_t est_conditional;

/* The fingerprint filters' estimator for a sweep's (est_fingerprint.c, not in the
 * registry): its lookups for lookups, else its conditional form; and the keys the filter
 * a thread built last refused, from that thread's scratch. */
const est_ops_t *est_fingerprint(const est_ops_t *e);
uint64_t est_fingerprint_refused(const void *scratch);

/* Filters of at least this many bits (2 MiB, past the per-core caches) are each built
 * and queried by all threads together (a "shared" row), their keys and lookups split
 * into chunks of EST_CHUNK; smaller ones are built one per thread. Applies to the
 * lookups estimator and single filters (not stacks). The mode is a function of the row
 * alone, never of the thread count. */
#define EST_SHARED_BITS (UINT64_C(1) << 24)
#define EST_CHUNK (UINT64_C(1) << 18)

#endif
