/* plan.h - the rows of a run: a loaded experiment (experiment.h) expanded into its rows
 * (row.h), every combination checked: each scheme's geometry at each size, each design
 * by its rule or library, each stack's layers, and the estimator of each row (auto
 * resolved per scheme). Errors name the file, line and value. Pure; thread-safe.
 */
#ifndef BLOOMSIM_PLAN_H
#define BLOOMSIM_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "experiment/experiment.h"
#include "estimate/row.h"

/* A scheme of a sweep at one block size: the blocked schemes get one per block_bits
 * value (block 0, their default, when none is given), the others one with block 0. */
typedef struct exp_variant {
    const scheme_t *scheme;
    uint64_t block;
    const library_t *library; /* a sweep of libraries: the library, else NULL */
    const keyset_kind_t *key_set; /* a sweep of libraries or splits: its key set (keys.h),
                                   * or NULL */
    const split_t *split;     /* a sweep of splits: the split of a real key set, else NULL */
} exp_variant_t;

/* The sweep's variants in row order (schemes in file order, each at its block sizes, or
 * with splits at its key sets in file order, a real one once per split in file order;
 * or the libraries in file order, each at its key sets in file order) into v (room for
 * EXP_MAX_SCHEMES * EXP_MAX_LIST); returns their number. */
size_t plan_variants(const sweep_t *s, exp_variant_t *v);

/* Expand a loaded experiment into rows (sweep by sweep; within one, size-major, then b,
 * then scheme, in file order), checking every combination. *rows is one malloc'ed block,
 * the stack rows' layers in it too; the caller frees it with plan_rows_free. Returns 0,
 * or 2 with a message naming the file, line and value. */
int plan_rows(const experiment_t *e, int quick, exp_row_t **rows, size_t *nrows, char *err,
              size_t errlen);

/* Check a scale as plan_rows does, before any work, but leave out the runs of the
 * fingerprint filters whose growth depends on their keys (an op run_bytes: RedisBloom's
 * cuckoo chain, whose reference chains of every row are its plan's work, seconds at 10^7
 * keys): their parameters, design and the most memory they may take are checked here,
 * what their keys do when the scale is planned to be run. Returns 0, or 2 with the
 * message plan_rows would give. */
int plan_rows_check(const experiment_t *e, int quick, char *err, size_t errlen);

/* Make a designed row of lib (its n and geometry set) measure real keys of kind (keys.h)
 * through lib's own hash (libraries/library_words.h): the key set opened for n inserts with
 * param, its parameter (NULL: none given; a key set whose parameter is a path is the
 * caller's to open, by plan_key_file), the row's lookups and filters within its bounds,
 * the lookups estimator, the label naming library, keys and hash. Returns 0, or 2 with a
 * one-line reason in err (lib has no real hash here, and why; lib's hash does not take
 * the key set's keys; a parameter refused). */
int plan_real_keys(exp_row_t *row, const library_t *lib, const keyset_kind_t *kind,
                   const char *param, char *err, size_t errlen);

/* Make a real-keys row of a key set of kind whose parameter is a path (a file:
 * plan_real_keys done) read the file at path, its label naming it as shown: its first n
 * lines inserted, the lines after them queried, each once, so that the row's lookups per
 * filter and its filters are capped by the lines there are (at least two filters where
 * it has two queried lines: keyset_plan_queries). Returns 0, or 2 with a one-line reason in
 * err (the file unreadable, or without kind->min_queries lines to query). */
int plan_key_file(exp_row_t *row, const keyset_kind_t *kind, const char *path,
                  const char *shown, char *err, size_t errlen);

/* Make a plain row of a scheme (its n and geometry set, split_check passed) measure real
 * keys of kind through split (splits/split.h): the key set opened for n inserts with
 * param, the row's lookups and filters within its bounds, the lookups estimator, the
 * label naming split, keys and hash (the CSV's library column). Returns 0, or 2 with a
 * one-line reason in err (a key set whose parameter is a file; a parameter refused). */
int plan_split_keys(exp_row_t *row, const split_t *split, const keyset_kind_t *kind,
                    const char *param, char *err, size_t errlen);

/* An adapter's sweep (plan_exec.c): its rows' number, and the rows into r (keys inserted,
 * then design_rate or bits_per_key; STRUCT_EXEC, row.h). Nothing to refuse: the
 * experiment's checks did (a command, points), and the adapter answers the rest. */
size_t plan_exec_nrows(const sweep_t *s);
void plan_exec_rows(const sweep_t *s, exp_row_t *r);

/* Free rows from plan_rows, with the key sets their rows hold open. */
void plan_rows_free(exp_row_t *rows, size_t nrows);

/* k for bits per key b under a rule: optimal = round(b ln 2), ceil = ceil(b ln 2),
 * both at least 1; fixed = k. */
unsigned plan_k(k_rule_t rule, unsigned k, double b);

#endif
