/* experiment_keys.h - inside the experiment parser (experiment.c reads a file's lines
 * and sections, experiment_keys.c converts their values): the raw values with their
 * lines, the parse state both sides share, and the conversion of a section's values by
 * the table of keys. Not for other modules: experiment.h is the interface.
 */
#ifndef BLOOMSIM_EXPERIMENT_KEYS_H
#define BLOOMSIM_EXPERIMENT_KEYS_H

#include <stddef.h>

#include "experiment.h"

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
