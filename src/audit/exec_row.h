/* exec_row.h - a row of an adapter's sweep (`exec = CMD` in an experiment file,
 * docs/model.md, Experiment files): the measurement `bloomsim audit --exec CMD --keys n
 * (--rate p | --bits-per-key b) --precision R --max-filters F --seed S` makes (exec.h,
 * the same engine, the same keys and filters: the run's seed is the audit's), as one row
 * of the table. The runner calls it through run_opts_t.exec_row (run/runner.h), which
 * cannot name this later stage.
 *
 * Each row starts its own adapter process and stops it on every path (done, refused,
 * broken, stopped); the protocol holds one filter at a time. One adapter, one thread: the
 * row is the same at any --threads.
 */
#ifndef BLOOMSIM_AUDIT_EXEC_ROW_H
#define BLOOMSIM_AUDIT_EXEC_ROW_H

#include <stddef.h>

#include "base/csv.h"
#include "estimate/row.h"
#include "experiment/experiment.h"

/* Seconds to wait for one answer of an adapter's row: audit --exec's default --timeout. */
#define AUDIT_EXEC_ROW_TIMEOUT 600.0

/* Measure run->row (STRUCT_EXEC) of experiment e through its adapter into *result:
 * precision 0 and max_filters 0 (not given) are audit's defaults (AUDIT_PRECISION,
 * AUDIT_MAX_FILTERS); the columns as docs/model.md's table says for adapter rows (m and
 * k as the adapter answered, empty where it hides them; `refused`: its false negatives
 * per filter over the inserted keys asked again; `library`: the command). ctx is unused.
 * Returns 0; 2 when the adapter cannot be started, refuses the design or breaks the
 * protocol (the message, naming the file, line and command, in err); 1 out of memory;
 * 3 (RUN_INTERRUPTED) when *run->stop was set. */
int audit_exec_row(void *ctx, const experiment_t *e, const row_run_t *run, csv_row_t *result,
                   char *err, size_t errlen);

/* Before a run writes anything: start the adapter of each run of consecutive rows of
 * one command once, ask it each row's design (the same `design` or `design-bpk` the
 * row's first filter asks) and stop it. Returns 0, or 2 with the message as
 * audit_exec_row's (it does not start, refuses a design, breaks the protocol), or 3 when
 * stopped. ctx is unused. */
int audit_exec_rows_check(void *ctx, const experiment_t *e, const exp_row_t *rows,
                          size_t nrows, char *err, size_t errlen);

#endif
