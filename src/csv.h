/* csv.h - the result table: one RFC 4180 row per (point, scheme), fixed columns
 * (README.md documents each). Doubles print with the fewest significant digits (15 to
 * 17) that read back as the same value; a value that does not exist (NaN) prints as an
 * empty field. */
#ifndef BLOOMSIM_CSV_H
#define BLOOMSIM_CSV_H

#include <stdint.h>
#include <stdio.h>

/* Columns after `seed`: for designs and stacks (seed 001), then a scheme's model
 * (rate.h) and the rate over it; empty (NaN) where they do not apply. */
enum {
    CSV_DESIGN_KEYS, CSV_DESIGN_RATE, CSV_LOAD, CSV_FILL, CSV_N_EST, CSV_N_EST_ERROR,
    CSV_N_EST_SPREAD, CSV_RATE_OVER_DESIGN, CSV_FIRST_CAPACITY, CSV_GROWTH, CSV_TIGHTENING,
    CSV_LAYERS, CSV_TOTAL_BITS, CSV_SINGLE_BITS, CSV_BITS_RATIO, CSV_LAYERS_CONSULTED,
    CSV_BOUND, CSV_MODEL, CSV_RATIO_MODEL, CSV_NEXTRA
};

typedef struct csv_extra {
    double v[CSV_NEXTRA];
} csv_extra_t;

typedef struct csv_row {
    const char *experiment, *scheme, *estimator;
    uint64_t m, n;
    unsigned k;
    double bits_per_key;
    uint64_t filters, lookups, false_positives;
    int counted;          /* lookups and false_positives exist (lookups estimator) */
    double rate, stderr_, ci_low, ci_high;
    double formula, formula_finite, exact, scheme_exact;
    double ratio_formula, ratio_exact, z_exact, rate_times_m;
    double seconds;
    uint64_t seed;
    csv_extra_t extra;
    size_t sweep;         /* not a column: the experiment's sweep the row belongs to */
} csv_row_t;

/* The header line. Returns 0, or -1 on a write error. */
int csv_write_header(FILE *f);
/* One row. Returns 0, or -1 on a write error. */
int csv_write_row(FILE *f, const csv_row_t *r);

#endif
