/* audit_json.h - `bloomsim audit --json` and `audit --exec --json`: what the audits'
 * text shows, as one JSON object on stdout (json_out.h; docs/json.md, "audit" and
 * "audit --exec"). Built from the values the text is printed from, so the two agree.
 */
#ifndef BLOOMSIM_AUDIT_JSON_H
#define BLOOMSIM_AUDIT_JSON_H

#include <stdint.h>

#include "audit/audit.h"
#include "audit/exec.h"
#include "base/csv.h"
#include "estimate/row.h"
#include "libraries/library.h"

/* audit LIBRARY --json: lib's design d, measured by row into r on threads threads from
 * seed, with the check and verdict out, and a one-filter row's stated range g (g->on 0:
 * none). Returns the exit status: the verdict's, or 1 where
 * the output could not be written. */
int audit_json_library(const library_t *lib, const audit_design_t *d, const exp_row_t *row,
                       const csv_row_t *r, int threads, uint64_t seed,
                       const audit_outcome_t *out, const audit_range_t *g);

/* audit --exec --json: the run r of the adapter that called itself name, its summary s,
 * whether the target was met, its verdict v and the seconds it took. Returns the exit
 * status, as audit_json_library's. */
int audit_json_exec(const audit_exec_run_t *r, const char *name, const stats_summary_t *s,
                    int met, const audit_verdict_t *v, double secs);

#endif
