/* store.h - the result store: where a run's table and metadata go, and their life
 * cycle on disk (docs/model.md, Output).
 *
 *   DIR/NAME.csv.partial  rows as they finish (each flushed), header first
 *   DIR/NAME.run          what makes them: definition hash, seed, scale, version
 *   DIR/NAME.csv, .meta   the complete result, renamed into place at the end
 *
 * A complete result is never half-overwritten, and never replaced by one of another
 * definition or seed without `force`; an interrupted run's rows are kept, refused
 * without `resume` or `force`, and continued with `resume` when the definition, seed,
 * scale and version are the same (NAME.run says). NAME.run goes last, so a run that
 * dies between the two renames leaves it behind, marking the pair unfinished.
 * Not thread-safe: one store per run, used by one thread. Nothing here prints.
 */
#ifndef BLOOMSIM_STORE_H
#define BLOOMSIM_STORE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "csv.h"
#include "experiment.h"

#define STORE_PATH_MAX 1100

typedef struct store {
    char csv_path[STORE_PATH_MAX], meta_path[STORE_PATH_MAX];
    char partial[STORE_PATH_MAX + 16], idpath[STORE_PATH_MAX];
    char hash[32], seed[32], scale[8], version[128]; /* this run's identity */
    FILE *csv;      /* the partial table, open for appending */
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

/* Claim DIR/NAME[.quick].* for a run of e with this seed: create DIR, refuse what must
 * not be replaced, and open the partial table (keeping an interrupted run's complete
 * rows when resuming: they are read back into kept[0..st->resumed), TEXT columns from
 * rows[]). Returns 0; 2 for bad input (unwritable, another definition or seed, an
 * interrupted run without resume), message in err. */
int store_claim(store_t *st, const experiment_t *e, const exp_row_t *rows, size_t nrows,
                const char *outdir, int quick, uint64_t seed, int resume, int force,
                csv_row_t *kept, char *err, size_t errlen);

/* Append one finished row and flush it. Returns 0, or 1 (write error, message in err). */
int store_append(store_t *st, const csv_row_t *row, char *err, size_t errlen);

/* Close the table, write the metadata and rename both into place. Returns 0, or 1
 * (message in err; the finished rows are kept for --resume). */
int store_publish(store_t *st, const store_meta_t *meta, char *err, size_t errlen);

/* Close what is open (after an error or an interruption: the rows stay for --resume). */
void store_close(store_t *st);

#endif
