/* sweep.h - an experiment's definition as the parser leaves it (experiment.h reads it
 * from a file, plan.h expands it into rows): its sweeps, each a set of sizes, bits per
 * key or designs, schemes, libraries, key sets and estimator settings, and the numbering
 * of the keys that set them (experiment/fields.h describes each key). Types only.
 */
#ifndef BLOOMSIM_SWEEP_H
#define BLOOMSIM_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "keys/keys.h"
#include "libraries/library.h"
#include "estimate/row.h"
#include "schemes/scheme.h"
#include "rates/sizing.h"
#include "splits/split.h"

#define EXP_MAX_LIST 256
#define EXP_MAX_SCHEMES 32
/* Libraries a sweep may name: every row of `bloomsim audit --list`, with room to grow.
 * A list of names being read (experiment/fields.c) has room for either. */
#define EXP_MAX_LIBRARIES 64
_Static_assert(EXP_MAX_LIBRARIES >= EXP_MAX_SCHEMES, "a list of names holds either");
/* A message buffer: room for one naming three paths of a result's files (run/store.h,
 * STORE_PATH_MAX each) and a lock's holder, so its reason is never cut off. */
#define EXP_ERR_LEN 4096
#define EXP_MAX_SWEEPS 8

typedef enum { K_OPTIMAL, K_CEIL, K_FIXED } k_rule_t;

/* Keys of [sweep] (and of [quick], which overrides them), numbering sweep_t.line; then
 * the keys of [experiment]. experiment_fields() describes each. */
enum {
    F_BITS, F_BPK, F_KEYS, F_K, F_SCHEMES, F_ESTIMATOR, F_FILTERS, F_LOOKUPS, F_STRIDES,
    F_PRECISION, F_MAX_FILTERS, F_DESIGN_KEYS, F_DESIGN_RATE, F_SIZING, F_LOAD, F_INSERTED,
    F_STACK, F_SINGLE, F_BLOCK_BITS, F_REBUILT, F_FINGERPRINT, F_LOAD_THRESHOLD,
    F_FINGERPRINT_BITS, F_LIBRARIES, F_KEY_SETS, F_KEY_PREFIX, F_KEY_FILE, F_SPLITS, F_EXEC,
    F_NFIELDS
};
enum { X_TITLE = F_NFIELDS, X_DESCRIPTION, X_SEED, X_NKEYS };

#define EXP_MAX_STACKS 8


/* A sweep's estimator: an index into the registry of estimator.h (0, the default, is
 * lookups), or EXP_ESTIMATOR_AUTO: per row, the preferred estimator that applies. */
#define EXP_ESTIMATOR_AUTO (-1)

typedef struct sweep {
    uint64_t bits[EXP_MAX_LIST];
    size_t nbits;
    uint64_t block_bits[EXP_MAX_LIST]; /* blocked schemes: a row per block size (none:
                                        * each scheme's default) */
    size_t nblock_bits;
    double bpk[EXP_MAX_LIST]; /* bits per key b; n = round(m / b) */
    size_t nbpk;
    uint64_t keys;            /* fixed n instead of bits_per_key (0: not given) */
    k_rule_t k_rule;
    unsigned k;               /* for K_FIXED */
    const scheme_t *schemes[EXP_MAX_SCHEMES];
    size_t nschemes;
    int estimator;            /* est_at(estimator), or EXP_ESTIMATOR_AUTO */
    uint64_t filters;         /* F: independently built filters per row */
    uint64_t lookups;         /* lookups estimator: total lookups per row over the filters */
    uint64_t strides;         /* conditional: strides sampled per filter (0: all) */
    double precision;         /* target relative standard error per row (0: none) */
    uint64_t max_filters;     /* with a precision target: at most this many filters */
    /* A design instead of bits: m and k from design_keys at each design_rate. */
    uint64_t design_keys;     /* 0: no design */
    double design_rate[EXP_MAX_LIST];
    size_t ndesign_rate;
    const sizing_rule_t *sizing; /* design: the rule (calculateparams unless given) */
    double load[EXP_MAX_LIST]; /* keys inserted = round(load * design_keys) ... */
    size_t nload;
    uint64_t inserted[EXP_MAX_LIST]; /* ... or these counts */
    size_t ninserted;
    exp_stack_t stack[EXP_MAX_STACKS]; /* stacks at each design rate, as first rate */
    size_t nstacks;
    int single;               /* with stacks: also the single designed filter */
    /* Designs only, instead of schemes and sizing: libraries (library.h), each its
     * scheme at its own sizing rule. */
    const library_t *libraries[EXP_MAX_LIBRARIES];
    size_t nlibraries;
    /* Designs only: beside the Bloom structures, the single filter designed for the keys
     * inserted at each point, and fingerprint filters (fingerprint.h): their load
     * threshold (not given: FP_THRESHOLD_DEFAULT) and first fingerprint's bits (0: the
     * fewest that meet design_rate). */
    int rebuilt;
    const fp_filter_t *fingerprints[EXP_MAX_SCHEMES];
    size_t nfingerprints;
    double load_threshold;
    uint64_t fingerprint_bits;
    /* Libraries, or schemes with splits: the key sets (keys.h; none given: ideal alone),
     * each library's (or split's) rows once per key set, side by side; seq-str's prefix
     * (empty: "key"). */
    const keyset_kind_t *key_sets[KEYSET_COUNT];
    size_t nkey_sets;
    char key_prefix[KEYSET_PREFIX_MAX + 1];
    /* The file key set's file, as written (relative: to the experiment file's folder). */
    char key_file[1024];
    /* Plain sweeps of schemes only: hash splits (splits/split.h), each real key set's
     * keys through each split's hash, cut into the scheme's words. */
    const split_t *splits[SPLIT_COUNT];
    size_t nsplits;
    /* An adapter's sweep (docs/adapter.md): the command that starts it (sh -c), each row
     * one `bloomsim audit --exec` of it; empty: not one. */
    char exec[1024];
    unsigned line[F_NFIELDS]; /* line that set each field; 0 = not set */
} sweep_t;

typedef struct experiment {
    char path[1024];      /* as given */
    char name[128];       /* file name without directory and .ini */
    char title[4096];
    char description[4096];
    uint64_t file_hash;   /* FNV-1a of the file as read: which definition made a result */
    uint64_t seed;        /* [experiment] seed, default 1; --seed overrides */
    /* One or more [sweep] sections, each optionally followed by the [quick] that scales
     * it down; the rows of a run are those of each sweep in turn. */
    size_t nsweeps;
    sweep_t full[EXP_MAX_SWEEPS];        /* [sweep] */
    sweep_t quick[EXP_MAX_SWEEPS];       /* [sweep] with its [quick] applied */
} experiment_t;

#endif
