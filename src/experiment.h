/* experiment.h - named experiments: the INI file format of docs/model.md ("Experiment
 * files") parsed into a definition (plan.h expands it into the rows of a run).
 *
 * The only module that sees file text. Every error is reported as one line
 * "FILE:LINE: what is wrong (got 'VALUE')" in a caller-supplied buffer; nothing here
 * prints or exits. Pure apart from reading the file; thread-safe.
 */
#ifndef BLOOMSIM_EXPERIMENT_H
#define BLOOMSIM_EXPERIMENT_H

#include <stddef.h>
#include <stdint.h>

#include "keys.h"
#include "library.h"
#include "row.h"
#include "scheme.h"
#include "sizing.h"

#define EXP_MAX_LIST 256
#define EXP_MAX_SCHEMES 32
/* Libraries a sweep may name: every row of `bloomsim audit --list`, with room to grow.
 * A list of names being read (experiment_keys.c) has room for either. */
#define EXP_MAX_LIBRARIES 64
_Static_assert(EXP_MAX_LIBRARIES >= EXP_MAX_SCHEMES, "a list of names holds either");
#define EXP_ERR_LEN 512
#define EXP_MAX_SWEEPS 8

typedef enum { K_OPTIMAL, K_CEIL, K_FIXED } k_rule_t;

/* Keys of [sweep] (and of [quick], which overrides them), numbering sweep_t.line; then
 * the keys of [experiment]. experiment_fields() describes each. */
enum {
    F_BITS, F_BPK, F_KEYS, F_K, F_SCHEMES, F_ESTIMATOR, F_FILTERS, F_LOOKUPS, F_STRIDES,
    F_PRECISION, F_MAX_FILTERS, F_DESIGN_KEYS, F_DESIGN_RATE, F_SIZING, F_LOAD, F_INSERTED,
    F_STACK, F_SINGLE, F_BLOCK_BITS, F_REBUILT, F_FINGERPRINT, F_LOAD_THRESHOLD,
    F_FINGERPRINT_BITS, F_LIBRARIES, F_KEY_SETS, F_KEY_PREFIX, F_KEY_FILE, F_NFIELDS
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
    /* Libraries only: the key sets (keys.h; none given: ideal alone), each library's rows
     * once per key set, side by side; seq-str's prefix (empty: "key"). */
    int key_sets[KEYSET_COUNT];
    size_t nkey_sets;
    char key_prefix[KEYSET_PREFIX_MAX + 1];
    /* The file key set's file, as written (relative: to the experiment file's folder). */
    char key_file[1024];
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

/* ---- The keys of an experiment file: one table (experiment.c) drives parsing, range
 * checks, which sweeps and sections take a key, which keys exclude each other, and the
 * messages. Adding a key is one entry; a new kind of value is one converter more. ---- */

typedef enum {
    FT_TEXT,       /* char[size]: the text as given */
    FT_COUNT,      /* uint64_t in [min, max]; zero_word, if set, stands for 0 */
    FT_COUNT_LIST, /* uint64_t[EXP_MAX_LIST], each in [min, max]; length (size_t) at offset2 */
    FT_REAL,       /* double between lo and hi (open says which ends are left out) */
    FT_REAL_LIST,  /* double[EXP_MAX_LIST], each between lo and hi; length at offset2 */
    FT_CHOICE,     /* int: the index of the value among words */
    FT_K_RULE,     /* k_rule_t: optimal, ceil, or K_FIXED with k (unsigned, at offset2) in
                    * [min, max] */
    FT_SCHEMES,    /* const scheme_t *[EXP_MAX_SCHEMES], names unique; count at offset2 */
    FT_STACKS,     /* exp_stack_t[EXP_MAX_STACKS]; count at offset2 */
    FT_SIZING,     /* const sizing_rule_t *, by sizing_find */
    FT_ESTIMATOR,  /* int: a registry index by its estimator's name (estimator.h), or
                    * EXP_ESTIMATOR_AUTO for "auto" */
    FT_LIBRARIES,  /* const library_t *[EXP_MAX_LIBRARIES], names unique; count at offset2 */
    FT_FINGERPRINTS, /* const fp_filter_t *[EXP_MAX_SCHEMES], names unique; count at offset2 */
    FT_KEY_SETS,   /* int[KEYSET_COUNT], key set kinds (keys.h), names unique;
                    * count at offset2 */
    FT_NTYPES
} exp_field_type_t;

enum { IN_EXPERIMENT = 1, IN_SWEEP = 2, IN_QUICK = 4 }; /* sections that take a key */
enum { SW_PLAIN = 1, SW_DESIGN = 2 };  /* sweeps given bits; sweeps given design_keys */
enum { OPEN_LO = 1, OPEN_HI = 2 };     /* FT_REAL*: lo < x rather than lo <= x, ... */
#define EXP_KEY_BIT(f) (UINT32_C(1) << (f))

typedef struct exp_field {
    int key;                  /* F_* or X_* */
    const char *name;         /* as written in the file */
    exp_field_type_t type;
    unsigned sections;        /* IN_*: sections it may be given in */
    unsigned sweeps;          /* SW_*: kinds of sweep that take it; 0 for [experiment] keys */
    uint32_t excludes;        /* EXP_KEY_BIT()s of keys it may not share a section with;
                               * given in [quick], it replaces them as [sweep] gave them */
    uint64_t min, max;        /* FT_COUNT, FT_COUNT_LIST, FT_K_RULE's fixed k */
    double lo, hi;            /* FT_REAL, FT_REAL_LIST */
    unsigned open;            /* OPEN_*: the ends of lo..hi that are excluded */
    uint64_t dflt;            /* FT_COUNT: value when not given (other keys start at 0) */
    uint64_t quick_cap;       /* FT_COUNT: --quick's cap when the sweep has no [quick] */
    const char *zero_word;    /* FT_COUNT: a word that stands for 0 ("all") */
    const char *const *words; /* FT_CHOICE: the values, NULL-terminated */
    const char *must;         /* "NAME must be MUST (got 'VALUE')" for a value out of range */
    size_t offset, size;      /* where the value goes: in experiment_t for [experiment]
                               * keys, in sweep_t for the others; its size in bytes */
    size_t offset2;           /* the second place named above, in the same struct */
} exp_field_t;

/* The table: one entry per key, in the order the keys are converted and checked (which
 * error a file with several reports). *n gets the number of entries. */
const exp_field_t *experiment_fields(size_t *n);


/* Parse the INI file at path. Returns 0, or 2 (bad input) with the message in err. */
int experiment_load(const char *path, experiment_t *e, char *err, size_t errlen);
/* The same for text already in memory (len bytes, need not end in NUL), named path in
 * messages. For fuzzing and tests. */
int experiment_load_text(const char *path, const char *text, size_t len, experiment_t *e,
                         char *err, size_t errlen);

/* The most filters a sweep's rows may use with a precision target: max_filters as given,
 * else 1000 times filters (at most 2^40). */
uint64_t experiment_max_filters(const sweep_t *s);

#endif
