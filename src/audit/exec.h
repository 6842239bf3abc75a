/* exec.h - the measurement engine of `bloomsim audit --exec 'CMD'`: any implementation's
 * false-positive rate through the adapter protocol (docs/adapter.md; adapter_client.h), to a
 * target relative standard error. `bloomsim audit --exec` (src/cli/audit_exec.c) starts
 * the adapter, runs this engine and prints what it measured.
 *
 * Filter f is designed afresh, gets the keys key(f, i) for i < n inserted and is asked
 * about L keys key(f, i), i >= n, which are never inserted: key(f, i) = mix(s_f + i),
 * mix splitmix64's finalizer (a bijection, so keys of one filter are distinct) and s_f
 * 64 bits of the run's generator for unit (0, f) (pcg.h). Keys are random-looking
 * 64-bit integers, sent as `u64`; or a key set's (keys.h), by its rules as the
 * real-keys estimator takes them (est_keys.c): which keys filter f takes
 * (keyset_filter_keys), sent as its descriptor's wire form; a key set that is the same
 * in every filter makes one filter asked a stated range (audit.h's audit_range_t: an
 * exact count over it), filter-bench's filters all n of their counters. Its false
 * positives c_f over L lookups make the estimate as a row of `run` makes it (stats.h):
 * binomial where the model's between-filter variance at (m, n, k) is negligible, else
 * from the spread (always, where the adapter hides m and k). F and L are planned once
 * the first design is answered, the cheaper in keys sent of the binomial and the spread
 * plans (docs/adapter.md, How much work); filters are added until the target is met or
 * --max-filters are built. Each filter built is then asked about its inserted keys too
 * (docs/model.md, No false negatives): all n where that is no more than its L lookups,
 * else a sample of max(L, 10^5 / F), F the filters first planned (a range's one filter:
 * est_check_count's): default keys i uniform on [0, n), a
 * key set's in runs of 1024 consecutive keys from uniform starts, drawn from the
 * generator of unit (1, f), which nothing else draws from, after its L lookups, so that
 * no false-positive figure moves. Not thread-safe: one adapter, one thread.
 */
#ifndef BLOOMSIM_AUDIT_EXEC_H
#define BLOOMSIM_AUDIT_EXEC_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "audit/adapter_client.h"
#include "audit/audit.h"
#include "base/stats.h"
#include "keys/keys.h"

/* What `audit --exec` measures: the adapter's command, n keys at rate p, at bits_per_key
 * (> 0; p then ignored) or at fingerprint_bits (> 0: `design-fp`, p and bits_per_key
 * ignored), to relative standard error precision with at most max_filters (>= 2)
 * filters, keys from seed or from a key set. */
typedef struct audit_exec {
    const char *cmd;
    uint64_t n, seed, max_filters;
    double p, bits_per_key, precision;
    unsigned fingerprint_bits;
    double timeout;         /* the most seconds to wait for one answer (0: no limit) */
    const keyset_t *keys;   /* an open key set, or NULL: random u64 keys */
    const char *keys_label; /* its name and parameter, for the output */
    double fail_above;      /* --fail-above R (<= 0: not given; audit.h's audit_verdict) */
    uint64_t queries;       /* --queries Q for a key set that is the same in every filter
                             * (a multiple of AUDIT_RANGES, within a key file's lines), 0:
                             * the default (audit.h's audit_range_t) */
} audit_exec_t;

/* A run: the adapter (started by the caller, adapter_start, and stopped by it) and what
 * the filters measured. */
typedef struct audit_exec_run {
    const audit_exec_t *x;
    const atomic_int *stop; /* nonzero: stop between commands */
    adapter_t ad;
    uint64_t m, L, F, *c;   /* c[f]: false positives of filter f */
    uint64_t table_bits;    /* a fingerprint filter's table (`design M ?`; m, k then 0) */
    uint64_t failed, retries; /* its inserts reported failed, builds retried: all filters */
    uint64_t Fmax;          /* --max-filters, or the batches a key file's lines allow */
    unsigned k;
    double p;               /* the rate the lookups are planned at */
    audit_check_t check;    /* the inserted keys asked again (exec_check) */
    /* A key set that is the same in every filter: the one filter's stated range, planned
     * once the adapter has answered the first design (the default Q is at the exact rate
     * of uniform probes at its m and k, or at p where it hides them), and its count. */
    audit_range_t range;
    uint64_t want, sent;    /* the filters planned so far; the keys sent */
    uint64_t check_n;       /* inserted keys each filter is asked again (exec.c) */
    /* Called after each command (NULL: none), for a progress line. */
    void (*progress)(const struct audit_exec_run *r, void *ctx);
    void *progress_ctx;
    char err[512];
} audit_exec_run_t;

/* The rate a design by bits stands for, not a promise: e^(-B ln^2 2) for B bits a key,
 * 2^-F for an F-bit fingerprint compared once; 0 for a design by rate. */
double audit_exec_bits_rate(const audit_exec_t *x);

/* Plan the run of x into *r: the rate the lookups are planned at (the promise, or
 * audit_exec_bits_rate), the most filters, and a one-filter key set's range where
 * --queries gives it (F and L are planned after the first design: exec.c). Returns 0,
 * or -1 out of memory (r->c, for max_filters counts, at least AUDIT_RANGES;
 * audit_exec_free frees it). */
int audit_exec_plan(audit_exec_run_t *r, const audit_exec_t *x, const atomic_int *stop);
void audit_exec_free(audit_exec_run_t *r);

/* Build filters through the started adapter until the target is met or r->Fmax are
 * built, the summary into *s and whether the target was met into *met. Returns
 * ADAPTER_OK, ADAPTER_STOPPED when *stop was set (or the adapter stopped), or the
 * adapter's failure (ADAPTER_REFUSED, ADAPTER_BROKEN) with its message in r->err. */
int audit_exec_measure(audit_exec_run_t *r, stats_summary_t *s, int *met);

/* Does filter f get keys of its own (the default keys, or a key set's that are each
 * filter's own), or the same inserted keys as every other (one filter, asked more)? */
int audit_exec_per_filter(const audit_exec_t *x);
/* How its keys travel: ADAPTER_U64 for the default keys, else the key set's wire. */
int audit_exec_wire(const audit_exec_t *x);

#endif
