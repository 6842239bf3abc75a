/* store.h - the result store: where a run's table and metadata go, and their life
 * cycle on disk (docs/model.md, Output).
 *
 *   DIR/NAME.lock         the claim: locked (flock) by the run that writes NAME's
 *                         outputs, for its whole life, its pid and host written in it;
 *                         removed when the run ends (a killed run's is taken over, the
 *                         kernel having released its lock)
 *   DIR/NAME.csv.partial  rows as they finish (each flushed), header first
 *   DIR/NAME.run          what makes them: definition hash, seed, scale, version
 *   DIR/NAME.csv, .meta   the complete result, renamed into place at the end
 *
 * One writer per result: a second run (of any definition, with or without resume or
 * force) finds the lock held and is refused, naming the holder. A complete result is
 * never half-overwritten, and never replaced by one of another definition or seed
 * without `force`; an interrupted run's rows are kept, refused without `resume` or
 * `force`, and continued with `resume` when the definition, seed, scale and version are
 * the same (NAME.run says). A new partial and its NAME.run are written beside the old
 * ones and renamed over them, partial first, so a failed start changes nothing; NAME.run
 * goes last at the end too, so a run that dies between the two renames leaves it behind,
 * marking the pair unfinished. Files of the store are opened without following a
 * symbolic link (one is refused), so nothing is written outside DIR.
 * Not thread-safe: one store per run, used by one thread. Nothing here prints.
 */
#ifndef BLOOMSIM_STORE_H
#define BLOOMSIM_STORE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "base/csv.h"
#include "experiment/experiment.h"

#define STORE_PATH_MAX 1100

typedef struct store {
    char dir[STORE_PATH_MAX], csv_path[STORE_PATH_MAX], meta_path[STORE_PATH_MAX];
    char partial[STORE_PATH_MAX + 16], idpath[STORE_PATH_MAX], lockpath[STORE_PATH_MAX];
    char hash[32], seed[32], scale[8], version[128]; /* this run's identity */
    FILE *csv;      /* the partial table, open for appending (store_open) */
    int lock;       /* NAME.lock, locked from store_claim to store_close; -1: none */
    int made_dir;   /* store_claim created DIR: removed by store_close if left empty */
    size_t resumed; /* rows kept from an interrupted run */
} store_t;

/* What the metadata records beyond the store's identity. */
typedef struct store_meta {
    const experiment_t *e;
    const char *command;
    uint64_t seed;
    int quick, threads;  /* threads: of all ranks together */
    int ranks;           /* processes of a distributed run (dist.h), 1 otherwise */
    const char *rank_threads; /* each rank's threads, "2,1,1" */
    size_t rows;
    time_t start, end;
    double seconds;
} store_meta_t;

/* The run a store is claimed for: experiment e's planned rows[0..nrows), at its quick
 * scale or in full, with this seed, into DIR = outdir; whether it may resume an
 * interrupted run and whether it may replace one or a result (force). */
typedef struct store_run {
    const experiment_t *e;
    const exp_row_t *rows;
    size_t nrows;
    const char *outdir;
    int quick;
    uint64_t seed;
    int resume, force;
} store_run_t;

/* Claim DIR/NAME[.quick].* for run: create DIR, take NAME.lock (refused while another
 * run holds it), and refuse what must not be replaced; when resuming, read an
 * interrupted run's complete rows back into kept[0..st->resumed) (TEXT columns from
 * run->rows[]; a torn last row is cut off the partial). Nothing else is written: the
 * outputs are started by store_open. Returns 0 (the claim is held until store_close); 2
 * for bad input (unwritable, held by another run, a symbolic link, another definition or
 * seed, an interrupted run without resume), message in err, with nothing left behind. */
int store_claim(store_t *st, const store_run_t *run, csv_row_t *kept, char *err,
                size_t errlen);

/* Start writing a claimed store: open the partial table to append to it (resuming), or
 * write a new one with its header and NAME.run, beside the old ones, then rename them
 * into place. Returns 0, or 2 (cannot write: message in err, nothing changed on disk). */
int store_open(store_t *st, char *err, size_t errlen);

/* Append one finished row and flush it. Returns 0, or 1 (write error, message in err). */
int store_append(store_t *st, const csv_row_t *row, char *err, size_t errlen);

/* Close the table, write the metadata and rename both into place. Returns 0, or 1
 * (message in err; the finished rows are kept for --resume). */
int store_publish(store_t *st, const store_meta_t *meta, char *err, size_t errlen);

/* Close what is open and give up the claim (after an error or an interruption, the
 * rows stay for --resume); a DIR the claim created is removed if it is empty. */
void store_close(store_t *st);

/* For the handler of a fatal signal (async-signal-safe; the process exits next): give up
 * every claim held, unlinking its lock as store_close does and leaving the rows for
 * --resume; returns the partial table being written (NULL: none). STORE_CLAIMS_MAX
 * claims at most are given up (more are left to the kernel: an unlocked NAME.lock blocks
 * nothing). */
#define STORE_CLAIMS_MAX 64
const char *store_abandon(void);

#endif
