/* row.h - one row of a run, what the planner (plan.h) makes of an experiment's sweep and
 * what the simulation (simulate.h), the estimators (estimator.h) and the table
 * (tabulate.h) take: a (size, bits per key or design, scheme) point with its estimator
 * and filter budget; and what a row yields per filter. Types and inline accessors only,
 * so that every module may read a row without depending on the one that plans it.
 */
#ifndef BLOOMSIM_ROW_H
#define BLOOMSIM_ROW_H

#include <stddef.h>
#include <stdint.h>

#include "fingerprint/fingerprint.h"
#include "libraries/library_words.h"
#include "keys/keys.h"
#include "libraries/library.h"
#include "schemes/scheme.h"
#include "rates/sizing.h"

struct est_ops;

/* FINGERPRINT: a fingerprint filter (fingerprint.h), not a Bloom filter: no scheme of
 * probes, its own build, lookups and exact rate. */
typedef enum { STRUCT_PLAIN, STRUCT_DESIGN, STRUCT_STACK, STRUCT_FINGERPRINT } exp_structure_t;

/* A stack of filters: first capacity, growth factor, tightening ratio (seed 001). */
typedef struct exp_stack {
    uint64_t first_capacity;
    double growth, tightening;
} exp_stack_t;

/* One row of a run: a (size, bits per key, scheme) point. */
typedef struct exp_row {
    size_t sweep;                /* the sweep it comes from: full[sweep] or quick[sweep] */
    exp_structure_t structure;
    uint64_t design_keys;        /* DESIGN, STACK: the design (single filter) */
    double design_rate;          /* DESIGN: target rate; STACK: first layer's rate */
    exp_stack_t stack;           /* STACK */
    size_t nlayers;              /* STACK: layers in use */
    sizing_layer_t layer[SIZING_MAX_LAYERS];
    probe_geom_t layer_geom[SIZING_MAX_LAYERS];
    uint64_t single_bits;        /* STACK: one filter sized for n keys at design_rate */
    double bits_per_key;  /* the sweep's b (or the requested bits / keys) */
    uint64_t n;
    probe_geom_t geom;    /* m actually used, k */
    const scheme_t *scheme;
    const sizing_rule_t *sizing; /* DESIGN, STACK: the rule that sized it */
    const library_t *library;    /* a sweep of libraries: the library, else NULL */
    const struct est_ops *est;   /* its estimator (auto resolved per scheme) */
    uint64_t filters;            /* filters, or the first batch with a precision target */
    uint64_t lookups_per_filter; /* lookups estimator */
    uint64_t strides;            /* conditional: strides sampled per filter, 0 = all */
    double precision;            /* target relative standard error, 0 = fixed filters */
    uint64_t max_filters;        /* cap on filters with a precision target */
    int rebuilt;                 /* DESIGN: designed for the n keys inserted, not for
                                  * design_keys (the sweep's `rebuilt`) */
    int compares;                /* the sweep compares structures (rebuilt or fingerprint
                                  * filters): the row fills `structure` and `places` */
    const fp_filter_t *fingerprint; /* FINGERPRINT: the filter; its state after n keys */
    fp_state_t fp;               /* (its geom.m: all its bits; row->scheme: its name) */
    /* Real keys (docs/model.md, Key sets and real hashes): keys.kind NULL (a zeroed
     * row's) for ideal hash words; otherwise the keys (inserts = n; the run's seed
     * replaces keys.seed), the library's hash of them, and the CSV's library column
     * naming the library, the key set and the hash. Rows of real keys are single designed
     * filters measured by lookups, always built by all threads (est_keys.c). */
    keyset_t keys;
    const library_words_t *words;
    char label[256];
} exp_row_t;

/* Does the row insert and look up real keys through its library's hash? */
static inline int row_real_keys(const exp_row_t *row)
{
    return keyset_kind_real(row->keys.kind);
}

/* What a row yields per filter f (arrays of at least as many entries as the row may
 * use: row_max_filters; NULL = not wanted): a counting estimator's false positives, or
 * a rate (other estimators, and any stack) with its sampling variance given the filter
 * (within: 0 when exact), the popcount of a designed filter, a stack's expected layers
 * consulted, the keys a fingerprint filter refused. sim_out_alloc (simulate.h) allocates
 * them all. */
typedef struct row_out {
    uint64_t *counts;
    double *rates, *within;
    uint64_t *popcounts;
    double *consulted;
    uint64_t *refused;
} row_out_t;

/* A stack's layers; a plain or designed filter is one layer. */
static inline size_t row_layers(const exp_row_t *row)
{
    return row->structure == STRUCT_STACK ? row->nlayers : 1;
}
static inline const probe_geom_t *row_layer_geom(const exp_row_t *row, size_t j)
{
    return row->structure == STRUCT_STACK ? &row->layer_geom[j] : &row->geom;
}
static inline uint64_t row_layer_n(const exp_row_t *row, size_t j)
{
    return row->structure == STRUCT_STACK ? row->layer[j].n : row->n;
}

/* Most filters the row may run. */
static inline uint64_t row_max_filters(const exp_row_t *row)
{
    return row->precision > 0 ? row->max_filters : row->filters;
}

#endif
