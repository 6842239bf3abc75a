/* experiment.h - named experiments: the INI file format of SPEC.md ("Experiment files")
 * parsed into a definition, and the definition expanded into the rows of a run.
 *
 * The only module that sees file text. Every error is reported as one line
 * "FILE:LINE: what is wrong (got 'VALUE')" in a caller-supplied buffer; nothing here
 * prints or exits. Pure apart from reading the file; thread-safe.
 */
#ifndef BLOOMSIM_EXPERIMENT_H
#define BLOOMSIM_EXPERIMENT_H

#include <stddef.h>
#include <stdint.h>

#include "scheme.h"
#include "sizing.h"

#define EXP_MAX_LIST 256
#define EXP_MAX_SCHEMES 32
#define EXP_ERR_LEN 512
#define EXP_MAX_SWEEPS 8

typedef enum { K_OPTIMAL, K_CEIL, K_FIXED } k_rule_t;

/* Fields of [sweep] (and of [quick], which overrides them), for line bookkeeping. */
enum {
    F_BITS, F_BPK, F_KEYS, F_K, F_SCHEMES, F_ESTIMATOR, F_FILTERS, F_LOOKUPS, F_STRIDES,
    F_PRECISION, F_MAX_FILTERS, F_DESIGN_KEYS, F_DESIGN_RATE, F_SIZING, F_LOAD, F_INSERTED,
    F_STACK, F_SINGLE, F_NFIELDS
};

#define EXP_MAX_STACKS 8

/* A stack of filters: first capacity, growth factor, tightening ratio (seed 001). */
typedef struct exp_stack {
    uint64_t first_capacity;
    double growth, tightening;
} exp_stack_t;

typedef enum { EST_LOOKUPS, EST_CONDITIONAL, EST_AUTO } estimator_t;

typedef struct sweep {
    uint64_t bits[EXP_MAX_LIST];
    size_t nbits;
    double bpk[EXP_MAX_LIST]; /* bits per key b; n = round(m / b) */
    size_t nbpk;
    uint64_t keys;            /* fixed n instead of bits_per_key (0: not given) */
    k_rule_t k_rule;
    unsigned k;               /* for K_FIXED */
    const scheme_t *schemes[EXP_MAX_SCHEMES];
    size_t nschemes;
    estimator_t estimator;
    uint64_t filters;         /* F: independently built filters per row */
    uint64_t lookups;         /* lookups estimator: total lookups per row over the filters */
    uint64_t strides;         /* conditional: strides sampled per filter (0: all) */
    double precision;         /* target relative standard error per row (0: none) */
    uint64_t max_filters;     /* with a precision target: at most this many filters */
    /* A design instead of bits: m and k from design_keys at each design_rate. */
    uint64_t design_keys;     /* 0: no design */
    double design_rate[EXP_MAX_LIST];
    size_t ndesign_rate;
    sizing_rule_t sizing;
    double load[EXP_MAX_LIST]; /* keys inserted = round(load * design_keys) ... */
    size_t nload;
    uint64_t inserted[EXP_MAX_LIST]; /* ... or these counts */
    size_t ninserted;
    exp_stack_t stack[EXP_MAX_STACKS]; /* stacks at each design rate, as first rate */
    size_t nstacks;
    int single;               /* with stacks: also the single designed filter */
    unsigned line[F_NFIELDS]; /* line that set each field; 0 = not set */
} sweep_t;

typedef struct experiment {
    char path[1024];      /* as given */
    char name[128];       /* file name without directory and .ini */
    char title[4096];
    char description[4096];
    uint64_t file_hash;   /* FNV-1a of the file as read: which definition made a result */
    uint64_t seed;        /* [experiment] seed, default 1; --seed overrides */
    unsigned seed_line;
    /* One or more [sweep] sections, each optionally followed by the [quick] that scales
     * it down; the rows of a run are those of each sweep in turn. */
    size_t nsweeps;
    unsigned sweep_line[EXP_MAX_SWEEPS]; /* line of each [sweep] header */
    sweep_t full[EXP_MAX_SWEEPS];        /* [sweep] */
    sweep_t quick[EXP_MAX_SWEEPS];       /* [sweep] with its [quick] applied */
} experiment_t;

typedef enum { STRUCT_PLAIN, STRUCT_DESIGN, STRUCT_STACK } exp_structure_t;

/* One row of a run: a (size, bits per key, scheme) point. */
typedef struct exp_row {
    size_t sweep;                /* the sweep it comes from: full[sweep] or quick[sweep] */
    exp_structure_t structure;
    uint64_t design_keys;        /* DESIGN, STACK: the design (single filter) */
    double design_rate;          /* DESIGN: target rate; STACK: first layer's rate */
    uint64_t design_m;           /* the single filter designed for design_keys */
    exp_stack_t stack;           /* STACK */
    size_t nlayers;              /* STACK: layers in use */
    sizing_layer_t layer[SIZING_MAX_LAYERS];
    probe_geom_t layer_geom[SIZING_MAX_LAYERS];
    uint64_t single_bits;        /* STACK: one filter sized for n keys at design_rate */
    uint64_t m_requested;
    double bits_per_key;  /* the sweep's b (or m_requested / keys) */
    uint64_t n;
    probe_geom_t geom;    /* m actually used, k */
    const scheme_t *scheme;
    estimator_t estimator; /* lookups or conditional (auto resolved per scheme) */
    uint64_t filters;            /* filters, or the first batch with a precision target */
    uint64_t lookups_per_filter; /* lookups estimator */
    uint64_t strides;            /* conditional: strides sampled per filter, 0 = all */
    double precision;            /* target relative standard error, 0 = fixed filters */
    uint64_t max_filters;        /* cap on filters with a precision target */
} exp_row_t;

/* "lookups", "conditional" or "auto". */
const char *experiment_estimator_name(estimator_t e);

/* Parse the INI file at path. Returns 0, or 2 (bad input) with the message in err. */
int experiment_load(const char *path, experiment_t *e, char *err, size_t errlen);
/* The same for text already in memory (len bytes, need not end in NUL), named path in
 * messages. For fuzzing and tests. */
int experiment_load_text(const char *path, const char *text, size_t len, experiment_t *e,
                         char *err, size_t errlen);

/* Expand a loaded experiment into rows (sweep by sweep; within one, size-major, then b,
 * then scheme, in file order), checking every combination. *rows is malloc'ed; caller frees.
 * Returns 0, or 2 with a message naming the file, line and value. */
int experiment_rows(const experiment_t *e, int quick, exp_row_t **rows, size_t *nrows,
                    char *err, size_t errlen);

/* k for bits per key b under a rule: optimal = round(b ln 2), ceil = ceil(b ln 2),
 * both at least 1; fixed = k. */
unsigned experiment_k(k_rule_t rule, unsigned k, double b);

#endif
