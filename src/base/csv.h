/* csv.h - the result table: one RFC 4180 row per (point, scheme), CRLF line ends.
 *
 * Every column is defined once, in CSV_COLUMNS below: its C field, its header name, its
 * kind and its meaning. The struct of a row, the header, the writer, the reader that
 * --resume uses, `bloomsim columns` and the column table of docs/model.md all come from
 * that list (tests/cli.sh checks the documentation against `bloomsim columns
 * --markdown`), so adding a column is one line here plus the code that fills it.
 * Consumers outside C (scripts/reportlib/, scripts/bench, tests) find columns by header
 * name, never by position.
 *
 * Kinds: TEXT (a string; NULL prints empty), COUNT (a whole number; CSV_ABSENT prints
 * empty), REAL (a double with the fewest significant digits, 15 to 17, that read back
 * as the same value; NaN prints empty), SECONDS (a double with 3 decimals: the one
 * column that differs between identical runs). Nothing here allocates or keeps state.
 */
#ifndef BLOOMSIM_CSV_H
#define BLOOMSIM_CSV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* X(KIND, field, "name", "meaning"): in CSV order. */
#define CSV_COLUMNS(X)                                                                   \
    X(TEXT, experiment, "experiment", "experiment name (file name without `.ini`)")      \
    X(TEXT, scheme, "scheme", "probe scheme (a fingerprint filter: its name)")           \
    X(COUNT, m, "m", "bits actually used (the prime for `double-prime`, `k·w` for "       \
      "`partitioned`; a stack: all its layers; a fingerprint filter: all its bits)")                                         \
    X(COUNT, n, "n", "keys inserted per filter: `round(m_requested / b)`, the same for "  \
      "every scheme of a point")                                                         \
    X(COUNT, k, "k", "probes per key: `round(b ln 2)` (`optimal`), `ceil(b ln 2)` "       \
      "(`ceil`) or as given, at least 1 (a stack: its first layer's; a fingerprint filter: " \
      "empty)")                   \
    X(REAL, bits_per_key, "bits_per_key", "the sweep's `b` (`m_requested / keys` when "   \
      "the file gives `keys`; `m / n` for designs and stacks)")                          \
    X(TEXT, estimator, "estimator", "`lookups` or `conditional` (`auto` resolved per "    \
      "scheme)")                                                                         \
    X(COUNT, filters, "filters", "`F`, filters built independently from fresh keys "      \
      "(with a precision target, as many as it took)")                                   \
    X(COUNT, lookups, "lookups", "total lookups, `F·L` with `L = ceil(lookups / "         \
      "filters)` of the file; empty where rates are not counted (`conditional`, stacks)") \
    X(COUNT, false_positives, "false_positives", "false positives counted; empty where "  \
      "`lookups` is")                                                                    \
    X(REAL, rate, "rate", "`false_positives / lookups`, or the mean of the per-filter "   \
      "rates (conditional estimator, stacks)")                                           \
    X(REAL, stderr_, "stderr", "standard error of `rate`, never below what the counts "   \
      "imply: `√(max(s², w²)/F)`, `s²` the spread of the `F` per-filter rates and `w²` "  \
      "their sampling variance given the filter (`rate(1 − rate)/L` for lookups); "      \
      "`√(w²/F)` where the spread is binomial (`interval`)")                               \
    X(REAL, ci_low, "ci_low", "95% interval, low end (`interval` says how it is made), "  \
      "clipped at 0")                                                                    \
    X(REAL, ci_high, "ci_high", "95% interval, high end; with no false positive "         \
      "(lookups), `−ln(0.025)/(F·L)`")                                                   \
    X(REAL, formula, "formula", "`(1 − e^{−kn/m})^k`, the textbook rate")                 \
    X(REAL, formula_finite, "formula_finite", "`(1 − (1 − 1/m)^{kn})^k`")                 \
    X(REAL, exact, "exact", "exact rate of `independent` at this `(m, n, k)`: "           \
      "`E[(X/m)^k]`, `X` the set bits after `nk` uniform throws (a fingerprint filter: "  \
      "its own exact rate)")                        \
    X(REAL, scheme_exact, "scheme_exact", "the scheme's own exact rate where known "      \
      "(`independent`: `exact`; `partitioned`: `(1 − (1 − 1/w)^n)^k`), else empty")      \
    X(REAL, ratio_formula, "ratio_formula", "`rate / formula`")                           \
    X(REAL, ratio_exact, "ratio_exact", "`rate / exact`")                                 \
    X(REAL, z_exact, "z_exact", "`(rate − exact) / stderr`")                              \
    X(REAL, rate_times_m, "rate_times_m", "`rate · m`: the floor in units of `1/m` "      \
      "(empty for fingerprint filters)")                                                 \
    X(SECONDS, seconds, "seconds", "wall time of the row (the only column that differs "  \
      "between identical runs)")                                                         \
    X(COUNT, seed, "seed", "the run's seed")                                             \
    X(REAL, design_keys, "design_keys", "designs and stacks: the keys designed for")      \
    X(REAL, design_rate, "design_rate", "designs and stacks: the target rate (a stack: "  \
      "its first layer's rate `eps`)")                                                   \
    X(REAL, load, "load", "designs and stacks: keys inserted over design keys")           \
    X(REAL, fill, "fill", "designed filter, or a hash split's row: mean fraction of bits " \
      "set")                                                                            \
    X(REAL, n_est, "n_est", "designed filter: mean of the load estimated from the set "   \
      "bits, `−(m/k) ln(1 − X/m)`")                                                      \
    X(REAL, n_est_error, "n_est_error", "designed filter: mean of `n_est/n − 1` over "    \
      "filters")                                                                         \
    X(REAL, n_est_spread, "n_est_spread", "designed filter: standard deviation of "       \
      "`n_est/n − 1` over filters: how well one filter can tell its own load")          \
    X(REAL, rate_over_design, "rate_over_design", "designs and stacks: `rate / "          \
      "design_rate`")                                                                    \
    X(REAL, first_capacity, "first_capacity", "stack: first layer's capacity `c0` (a chain: "  \
      "its first capacity)")       \
    X(REAL, growth, "growth", "stack: capacity growth factor `s` (a chain: "    \
      "its expansion)")                        \
    X(REAL, tightening, "tightening", "stack: rate tightening ratio `r` (a chain: "  \
      "its library's, or the one it was given)")                 \
    X(REAL, layers, "layers", "stack: layers in use (a layer is frozen once full; the "   \
      "next key starts a new one, capacity ×`s`, rate ×`r`, sized by the same rule)")    \
    X(REAL, total_bits, "total_bits", "stack: bits of all layers in use (also the `m` "   \
      "column); a fingerprint filter: all its bits")                                                                         \
    X(REAL, single_bits, "single_bits", "stack and fingerprint filters: bits of one filter " \
      "sized by the rule for the same keys at `eps` (a chain: the filter its library "    \
      "reserves for them at its promise)")                                                          \
    X(REAL, bits_ratio, "bits_ratio", "stack and fingerprint filters: `total_bits / "     \
      "single_bits`")                \
    X(REAL, layers_consulted, "layers_consulted", "stack: mean layers asked per lookup "  \
      "of an absent key (newest first, stopping at the first yes)")                      \
    X(REAL, bound, "bound", "stack: `eps / (1 − r)`; a library's chain: the rate it "    \
      "promises (docs/model.md, Chains)")                                     \
    X(REAL, model, "model", "the scheme's model rate (docs/model.md, Reference rates; "   \
      "blocked schemes: Putze's Poisson mixture), empty for schemes without one")         \
    X(REAL, ratio_model, "ratio_model", "`rate / model`")                                 \
    X(COUNT, block_bits, "block_bits", "blocked schemes: bits per block `B`; empty "        \
      "elsewhere")                                                                        \
    X(REAL, model_rocksdb, "model_rocksdb", "`blocked`: RocksDB's CacheLocalFpRate, the "   \
      "approximation RocksDB uses for its cache-local filters; empty elsewhere")          \
    X(TEXT, sizing, "sizing", "designs and stacks: the sizing rule (`bloomsim size "       \
      "--help`)")                                                                         \
    X(TEXT, library, "library", "sweeps of libraries: the library (`bloomsim audit "       \
      "--list`), whose scheme and sizing rule the row's are; with real keys (`key_sets`), " \
      "`LIBRARY; keys SET; hash HASH`; a hash split's row (`splits`), `split NAME; keys "  \
      "SET; hash HASH`; a chain's row: the chain (`bloomsim audit --list`)")             \
    X(TEXT, interval, "interval", "how `stderr` and the interval were made: `binomial` "  \
      "(between-filter variance negligible: Wilson's interval of the counts), `spread` "  \
      "(estimated from the `F` rates, at least `w²`), `exact` (rates exact given the "    \
      "filter: the spread, `t(F−1)`); docs/model.md, Estimators")                       \
    X(REAL, rse_target, "rse_target", "rows with a precision target: the target "         \
      "relative standard error; empty elsewhere")                                       \
    X(COUNT, target_met, "target_met", "rows with a precision target: 1 when "            \
      "`stderr/rate` met it (from a binomial spread or at least 8 filters), 0 when the "  \
      "row's limits stopped it first")                                                   \
    X(TEXT, structure, "structure", "sweeps that compare structures (`rebuilt` or "      \
      "`fingerprint` given), else empty: `single` (the filter designed for "              \
      "`design_keys`), `rebuilt` (one designed for the keys inserted), `stack`, `chain` (a " \
      "library's scalable filter), or a fingerprint filter (docs/model.md, Fingerprint filters)")                          \
    X(REAL, places, "places", "the same sweeps: places a lookup of an absent key "        \
      "consults, on average: 1 filter (single, rebuilt), the stack's layers asked "       \
      "(`layers_consulted`), a fingerprint filter's tables (InfiniFilter's secondary "    \
      "when the main one says no), buckets (cuckoo: 2) or slots (xor: 3); a library's "   \
      "filter beside fingerprint filters: the 512-bit cache lines its lookup reads, "     \
      "stopping at its first unset bit")                                                  \
    X(COUNT, expansions, "expansions", "fingerprint filters: doublings so far")           \
    X(COUNT, fingerprint_bits, "fingerprint_bits", "fingerprint filters: hash bits in "   \
      "the fingerprint of a key inserted now (quotient: `r` less one a doubling; "        \
      "InfiniFilter and Aleph: the field less its age bit; cuckoo: `f`)")                 \
    X(REAL, refused, "refused", "fingerprint filters: keys refused per filter, on "       \
      "average (a quotient filter with no remainder bit left, a cuckoo filter once its "  \
      "victim slot is taken, seiflotfy's and bloom-filters' failed inserts); their "      \
      "lookups would be false negatives; an xor filter's builds retried with another "    \
      "seed (every key stored). Adapter rows "                                            \
      "(`exec`): the inserted keys the adapter answered no for, per filter on average "   \
      "over those asked again (all, or a sample of 10^5): false negatives, a failed audit. " \
      "A library's chain: the keys swallowed, those a link already reported present and "  \
      "the library did not add (expected, docs/model.md, Chains)")

typedef enum { CSV_TEXT, CSV_COUNT, CSV_REAL, CSV_SECONDS } csv_kind_t;

/* A COUNT that does not exist. */
#define CSV_ABSENT UINT64_MAX

#define CSV_CTYPE_TEXT const char *
#define CSV_CTYPE_COUNT uint64_t
#define CSV_CTYPE_REAL double
#define CSV_CTYPE_SECONDS double

typedef struct csv_row {
#define CSV_FIELD_(kind, field, name, meaning) CSV_CTYPE_##kind field;
    CSV_COLUMNS(CSV_FIELD_)
#undef CSV_FIELD_
} csv_row_t;

/* The columns' indexes, in CSV order: CSV_COL_rate, CSV_COL_seconds, ... */
enum {
#define CSV_INDEX_(kind, field, name, meaning) CSV_COL_##field,
    CSV_COLUMNS(CSV_INDEX_)
#undef CSV_INDEX_
    CSV_NCOLS
};

typedef struct csv_column {
    const char *name;
    csv_kind_t kind;
    size_t offset; /* of its field in csv_row_t */
    const char *meaning;
} csv_column_t;

/* Column i (0 <= i < CSV_NCOLS), or NULL. */
const csv_column_t *csv_column(size_t i);
/* The index of the column with that header name, or -1. */
int csv_column_find(const char *name);

/* A row with every field empty (NULL, CSV_ABSENT, NaN). */
csv_row_t csv_row_empty(void);

/* The header line. Returns 0, or -1 on a write error. */
int csv_write_header(FILE *f);
/* One row. Returns 0, or -1 on a write error. */
int csv_write_row(FILE *f, const csv_row_t *r);
/* The column table as docs/model.md shows it (markdown) or as plain text. */
void csv_print_columns(FILE *f, int markdown);

/* Read one RFC 4180 record ending in CRLF from f into buf (quoted fields may hold
 * commas, doubled quotes and line breaks); fields[0..*nfields) point into buf,
 * unquoted. Returns 1 for a whole record, 0 at the end of the file, -1 for a record
 * that is torn (no CRLF at its end, or an open quote), longer than len or with more
 * than maxfields fields. */
int csv_read_record(FILE *f, char *buf, size_t len, char **fields, size_t maxfields,
                    size_t *nfields);

/* Fill the COUNT, REAL and SECONDS fields of r from one record of a table whose header
 * is ours (fields in CSV order); TEXT fields are left to the caller, who knows what they
 * must be. Returns 0, or -1 when a field is not a number of its kind. */
int csv_parse_row(char *const *fields, size_t nfields, csv_row_t *r);

#endif
