/* row.h - one row of a run, what the planner (plan.h) makes of an experiment's sweep and
 * what the simulation (simulate.h), the estimators (estimator.h) and the table
 * (tabulate.h) take: a (size, bits per key or design, scheme) point with its estimator
 * and filter budget, tagged by its structure; what a row yields per filter; and what
 * every filter of a row's run shares (row_run_t). Types and inline accessors only,
 * so that every module may read a row without depending on the one that plans it.
 */
#ifndef BLOOMSIM_ROW_H
#define BLOOMSIM_ROW_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "base/progress.h"
#include "fingerprint/fingerprint.h"
#include "libraries/chain.h"
#include "libraries/library_words.h"
#include "keys/keys.h"
#include "libraries/library.h"
#include "schemes/scheme.h"
#include "rates/sizing.h"

struct est_ops;

/* The structures a row may be, its tag: PLAIN, a filter of a plain sweep (bits and bits
 * per key, no design); DESIGN, one designed filter: by the sweep's rule for design_keys
 * (single), for the n keys inserted (rebuilt), by a library's rule (library.h), or a
 * library's measuring real keys (row_real_keys); STACK, a stack of filters;
 * FINGERPRINT, a fingerprint filter (fingerprint.h), not a Bloom filter: no scheme of
 * probes, its own build, lookups and exact rate. */
typedef enum {
    STRUCT_PLAIN, STRUCT_DESIGN, STRUCT_STACK, STRUCT_FINGERPRINT,
    STRUCT_EXEC /* an adapter's filter (docs/adapter.md), measured through the protocol by
                 * the audit's engine (run.h's exec_row): its n keys designed at
                 * design_rate, or at bits_per_key when design_rate is 0 */
} exp_structure_t;

/* A stack of filters: first capacity, growth factor, tightening ratio and the first
 * layer's rate (seed 001); or a
 * library's chain (libraries/chain.h: chain not NULL), made with its first capacity, its
 * promised rate (the row's design rate) and growth (its expansion, 0 where it has none),
 * its tightening the library's. */
typedef struct exp_stack {
    uint64_t first_capacity;
    double growth, tightening;
    const library_chain_t *chain;
    double first_rate; /* a stack's first layer's rate; 0: the row's design rate */
} exp_stack_t;

/* Layers a stack row has room for: a library's chain may have many more than seed 001's
 * stack (SIZING_MAX_LAYERS). */
#define ROW_MAX_LAYERS CHAIN_MAX_LINKS
_Static_assert(ROW_MAX_LAYERS >= SIZING_MAX_LAYERS, "a stack's layers fit a row");

/* One layer of a stack: its size as the sizing rule made it, and its scheme's geometry. */
typedef struct exp_layer {
    sizing_layer_t size;
    probe_geom_t geom;
} exp_layer_t;

/* One row of a run: what every row has, what every row of a design sweep has, and the
 * fields of its own structure alone: a variant of the union, chosen by `structure` (read
 * a variant's fields only in a row of that structure, or through the accessors below;
 * a plain row has none). A new structure's fields go in a variant of their own. Rows are
 * copied by value; a copy is a view of the planner's: a stack's layers stay in the
 * block of rows plan_rows allocated. */
typedef struct exp_row {
    exp_structure_t structure;   /* the tag */
    size_t sweep;                /* the sweep it comes from: full[sweep] or quick[sweep] */
    double bits_per_key;  /* the sweep's b (or the requested bits / keys) */
    uint64_t n;
    probe_geom_t geom;    /* m actually used, k; a stack's: all its bits, its first k */
    const scheme_t *scheme;
    const struct est_ops *est;   /* its estimator (auto resolved per scheme) */
    uint64_t filters;            /* filters, or the first batch with a precision target */
    uint64_t lookups_per_filter; /* lookups estimator */
    uint64_t strides;            /* conditional: strides sampled per filter, 0 = all */
    double precision;            /* target relative standard error, 0 = fixed filters */
    uint64_t max_filters;        /* cap on filters with a precision target */
    /* Rows of a design sweep (all but PLAIN). */
    uint64_t design_keys;        /* the design (single filter) */
    double design_rate;          /* its target rate; a stack's first layer's */
    const sizing_rule_t *sizing; /* the rule that sized it */
    uint64_t single_bits;        /* STACK, FINGERPRINT: one Bloom filter sized by the
                                  * sweep's rule for n keys at design_rate */
    int compares;                /* the sweep compares structures (rebuilt or fingerprint
                                  * filters): the row fills `structure` and `places` */
    union {
        struct { /* DESIGN; a PLAIN row of a hash split uses keys, words and label */
            /* rebuilt: designed for the n keys inserted, not for design_keys (the
             * sweep's `rebuilt`) */
            int rebuilt;
            /* library: a sweep of libraries' (row_library), else NULL */
            const library_t *library;
            /* real keys (docs/model.md, Key sets and real hashes): keys.kind NULL (a
             * zeroed row's) for ideal hash words; otherwise the keys (inserts = n;
             * the run's seed replaces keys.seed), the library's hash of them, and the
             * CSV's library column naming the library, the key set and the hash. Rows of
             * real keys are library rows measured by lookups, always built by all
             * threads (est_keys.c). */
            keyset_t keys;
            const library_words_t *words;
            char label[256];
        };
        struct { /* STACK */
            exp_stack_t stack;
            size_t nlayers;              /* layers in use, oldest first */
            exp_layer_t *layers;         /* nlayers of them, the planner's */
            double swallowed;            /* a chain's keys swallowed (expected, chain.h) */
        };
        struct { /* EXEC */
            const char *exec; /* the command, the experiment's text (sh -c) */
        };
        struct { /* FINGERPRINT */
            const fp_filter_t *fingerprint; /* the filter; its state after n keys */
            fp_state_t fp;               /* (its geom.m: all its bits; row->scheme: its name) */
        };
    };
} exp_row_t;

/* A designed filter's library, or NULL (a design by the sweep's rule, any other
 * structure). */
static inline const library_t *row_library(const exp_row_t *row)
{
    return row->structure == STRUCT_DESIGN ? row->library : NULL;
}

/* Does the row insert and look up real keys through its library's hash, or (a plain
 * row: the DESIGN variant's keys, words and label, which no other plain row sets) through
 * a hash split's? */
static inline int row_real_keys(const exp_row_t *row)
{
    return (row->structure == STRUCT_DESIGN || row->structure == STRUCT_PLAIN) &&
           keyset_kind_real(row->keys.kind);
}

/* Does the row keep each filter's popcount (row_out_t.popcounts): a designed filter, or a
 * plain row of real keys (a hash split's), whose fill the table shows? */
static inline int row_popcounts(const exp_row_t *row)
{
    return row->structure == STRUCT_DESIGN || row_real_keys(row);
}

/* What a row yields per filter f (arrays of at least as many entries as the row may
 * use: row_max_filters; NULL = not wanted): a counting estimator's false positives, or
 * a rate (other estimators, and any stack) with its sampling variance given the filter
 * (within: 0 when exact), the popcount of a designed filter, a stack's expected layers
 * consulted, the keys a fingerprint filter refused. sim_out_alloc (simulate.h) allocates
 * them all but absent, which an audit sets: where it is not NULL, filter f also queries
 * est_check_count(n, lookups_per_filter) of its inserted keys (estimator.h: all of them,
 * or a sample) and stores how many it reported absent, its false negatives; it stays
 * EST_UNCHECKED where filter f built no filter of its own (a key set's filters of the same
 * keys, est_keys.c) or its scheme cannot replay its inserted keys (estimator.h). */
typedef struct row_out {
    uint64_t *counts;
    double *rates, *within;
    uint64_t *popcounts;
    double *consulted;
    uint64_t *refused;
    uint64_t *absent;
} row_out_t;

/* What every filter of one run of a row shares (simulate.h, estimator.h's run_row,
 * dist.h): the row, its index in the run and the run's seed (filter f draws from
 * pcg32_unit(seed, index, f)), this process's threads, where the filters' results go,
 * the progress (NULL: none) and the stop flag (NULL: none; polled between filters and
 * between chunks of one). */
typedef struct row_run {
    const exp_row_t *row;
    uint64_t seed, index;
    int threads;
    const row_out_t *out;
    progress_t *ps;
    atomic_int *stop;
} row_run_t;

/* A stack's layers; a plain or designed filter is one layer. */
static inline size_t row_layers(const exp_row_t *row)
{
    return row->structure == STRUCT_STACK ? row->nlayers : 1;
}
static inline const probe_geom_t *row_layer_geom(const exp_row_t *row, size_t j)
{
    return row->structure == STRUCT_STACK ? &row->layers[j].geom : &row->geom;
}
static inline uint64_t row_layer_n(const exp_row_t *row, size_t j)
{
    return row->structure == STRUCT_STACK ? row->layers[j].size.n : row->n;
}

/* Most filters the row may run. */
static inline uint64_t row_max_filters(const exp_row_t *row)
{
    return row->precision > 0 ? row->max_filters : row->filters;
}

#endif
