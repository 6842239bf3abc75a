/* experiment.h - named experiments: the INI file format of docs/model.md ("Experiment
 * files") parsed into a definition (plan.h expands it into the rows of a run).
 *
 * The only module that sees file text. Every error is reported as one line
 * "FILE:LINE: what is wrong (got 'VALUE')" in a caller-supplied buffer; nothing here
 * prints or exits. Pure apart from reading the file; thread-safe.
 */
#ifndef BLOOMSIM_EXPERIMENT_H
#define BLOOMSIM_EXPERIMENT_H

#include <stddef.h>
#include <stdint.h>

#include "experiment/sweep.h"

/* Parse the INI file at path. Returns 0, or 2 (bad input) with the message in err. */
int experiment_load(const char *path, experiment_t *e, char *err, size_t errlen);
/* The same for text already in memory (len bytes, need not end in NUL), named path in
 * messages. For fuzzing and tests. */
int experiment_load_text(const char *path, const char *text, size_t len, experiment_t *e,
                         char *err, size_t errlen);

/* The most filters a sweep's rows may use with a precision target: max_filters as given,
 * else 1000 times filters (at most 2^40). */
uint64_t experiment_max_filters(const sweep_t *s);

/* A sweep's value of the key that sets a key set's parameter (keyset_kind_t.param_key:
 * key_prefix, key_file), NULL where kind takes none or the sweep gives none, and the
 * line that gave it into *line (0: none). */
const char *experiment_key_param(const sweep_t *s, const keyset_kind_t *kind,
                                 unsigned *line);

#endif
