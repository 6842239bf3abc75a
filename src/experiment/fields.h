/* fields.h - the keys of an experiment file: the table that describes each (its type,
 * range, sections and exclusions) and the conversion of a section's values by it, for
 * the parser (experiment.c reads a file's lines and sections, fields.c converts their
 * values); the raw values with their lines and the parse state both sides share. The
 * table (experiment_fields) is public; the parse state is the parser's alone.
 */
#ifndef BLOOMSIM_FIELDS_H
#define BLOOMSIM_FIELDS_H

#include <stddef.h>

#include "experiment/sweep.h"

/* ---- The keys of an experiment file: one table (experiment/fields.c) drives parsing, range
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
    FT_KEY_SETS,   /* const keyset_kind_t *[KEYSET_COUNT] (keys.h), names unique;
                    * count at offset2 */
    FT_SPLITS,     /* const split_t *[SPLIT_COUNT] (splits/split.h), names unique; count
                    * at offset2 */
    FT_NTYPES
} exp_field_type_t;

enum { IN_EXPERIMENT = 1, IN_SWEEP = 2, IN_QUICK = 4 }; /* sections that take a key */
enum { SW_PLAIN = 1, SW_DESIGN = 2, SW_EXEC = 4 }; /* sweeps given bits; given design_keys;
                                                  * given exec (an adapter's) */
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

#define RAW_LEN 4096
/* Counts past these are typing errors, and would overflow the arithmetic on them. */
#define COUNT_MAX (UINT64_C(1) << 40)
#define LOOKUPS_MAX (UINT64_C(1) << 56)
#define INI_LINE_MAX 200 /* inih's INI_MAX_LINE as built by Debian */

enum { S_NONE, S_EXPERIMENT, S_SWEEP, S_QUICK, S_NSECTIONS };

typedef struct raw_value {
    char text[RAW_LEN];
    unsigned line; /* 0: not given */
} raw_value_t;

typedef struct parse_state {
    const char *path;
    char *buf;            /* the whole file */
    size_t len, pos;
    unsigned line;        /* line most recently served to inih */
    int section;          /* kind of section of that line (S_*) */
    int prev_header;      /* kind of the section header before the current one */
    size_t slot;          /* its values: raw[0] is [experiment], raw[1 + 2i] the i-th
                           * [sweep], raw[2 + 2i] the [quick] that follows it */
    int indented;         /* that line starts with a blank: a continuation line */
    unsigned experiment_line;
    unsigned sweep_line[EXP_MAX_SWEEPS], quick_line[EXP_MAX_SWEEPS];
    size_t nsweeps;
    int last_key;         /* key of the previous handler call, for continuation lines */
    raw_value_t *raw[1 + 2 * EXP_MAX_SWEEPS]; /* X_NKEYS values each, as sections appear */
    char *err;
    size_t errlen;
    unsigned err_line;    /* line of the first error recorded, 0 if none */
} parse_state_t;

/* Record the first error only: inih keeps going after a handler fails. Returns 0. */
int exp_fail_at(parse_state_t *ps, unsigned line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The values of a section that is absent: none given. */
extern const raw_value_t exp_no_values[X_NKEYS];

/* Convert the values given in one section (IN_*) into base (a sweep_t or experiment_t),
 * in table order; in a sweep, note each key's line, and clear the keys a key excludes.
 * Returns 0, or -1 with the message set. */
int exp_convert_section(parse_state_t *ps, unsigned section, void *base, const raw_value_t *raw);
/* Values of the keys not given in a section (IN_*): their default, or 0. */
void exp_set_defaults(unsigned section, void *base);
/* The first key (in table order) given at line[] that a sweep of kind (SW_*) does not
 * take, or NULL. */
const exp_field_t *exp_misfit(unsigned kind, const unsigned line[F_NFIELDS]);
/* Refuse two keys of one section that exclude each other; 0, or -1 with the message. */
int exp_check_excludes(parse_state_t *ps, const raw_value_t *raw);

#endif
