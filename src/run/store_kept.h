/* store_kept.h - the check of each row --resume keeps from an interrupted run's partial
 * table (store.c): a row is published as it stands, so one that bloomsim did not write
 * is refused, never copied into the result. */
#ifndef BLOOMSIM_STORE_KEPT_H
#define BLOOMSIM_STORE_KEPT_H

#include <stddef.h>

#include "base/csv.h"
#include "experiment/plan.h"

/* Why a whole record of the partial, raw[0..rawlen) with its fields field[0..nf), is not
 * the row this run writes there (row): a NUL byte, a field that does not parse, another
 * scheme, a field that bloomsim does not write so (an edit: each field written back must
 * be the same text), a rate that its counts do not give (false_positives / lookups, as
 * stats_from_counts computes it). Returns 0 with the row's numbers in *r (its TEXT
 * fields NULL), or 2 with the reason in why ("rate does not follow ... (got 'X')"). */
int store_check_kept(const char *raw, size_t rawlen, char *const *field, size_t nf,
                     const exp_row_t *row, csv_row_t *r, char *why, size_t len);

#endif
