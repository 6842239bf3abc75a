/* audit.h - does a library keep its promise? The row that measures the filter a library
 * (library.h) builds for n keys at target rate p, and the rates to set beside what it
 * measures. `bloomsim audit` (cli/audit.c) runs the row (simulate.h) and prints them.
 *
 * The row is a design row like an experiment's (`libraries = NAME`, design_keys = n,
 * design_rate = p), made through experiment.h so that it is checked and resolved as a
 * file's would be. Its precision target is a relative standard error; the first batch
 * of filters and the lookups per filter are chosen so that the binomial noise of the
 * lookups at the promised rate alone would meet it (audit_lookups): rows whose measured
 * rate is below the promise, or whose filters differ, add filters until it is met.
 * Pure; thread-safe.
 */
#ifndef BLOOMSIM_AUDIT_H
#define BLOOMSIM_AUDIT_H

#include <stddef.h>
#include <stdint.h>

#include "experiment/experiment.h"
#include "libraries/library.h"

/* Default relative standard error of an audit, the most filters it may build, and the
 * most lookups per filter it plans. */
#define AUDIT_PRECISION 0.02
#define AUDIT_MAX_FILTERS 1000
#define AUDIT_MAX_LOOKUPS (UINT64_C(1) << 36)

/* The design an audit measures, and its reference rates. */
typedef struct audit_design {
    uint64_t n;          /* keys */
    double p;            /* the promise: the rate asked for */
    uint64_t m_computed; /* bits the library's rule computes */
    uint64_t m;          /* bits its filter indexes (the scheme's m) */
    unsigned k;
    double uniform;      /* exact rate of independent uniform probes at (m, n, k) */
    double structure;    /* the exact rate of its structure where it is not the uniform
                          * one (blocks, lines, slices: sizing_rate_exact), else NaN */
    double model;        /* the scheme's model of its departure (scheme_t.model), else NaN */
    double bits_per_key; /* audit_plan_bpk: the bits per key given (p is then the rate they
                          * stand for, e^{-b ln^2 2}); NaN for a design by rate */
} audit_design_t;

/* Filters of the first batch: 2 for filters of 2^24 bits or more (each costs its keys'
 * inserts on all threads), else 8. */
uint64_t audit_first_filters(uint64_t m);

/* Lookups per filter: enough that the first batch's lookups alone, at rate p, give a
 * binomial relative standard error of precision / 2 (4 / (p precision^2) lookups in
 * all, so that what remains of the target is left to the spread between filters), at
 * least 10^4, at most 2^36. */
uint64_t audit_lookups(double p, double precision, uint64_t filters);

/* What an audit asks, whatever its design: lib's filter for n keys, measured to a
 * relative standard error `precision` (> 0) with at most max_filters filters (>= 2; the
 * first batch too). */
typedef struct audit_ask {
    const library_t *lib;
    uint64_t n;
    double precision;
    uint64_t max_filters;
} audit_ask_t;

/* Design a->lib's filter for a->n keys at p and make the row that measures it as a asks,
 * into *row and *d. Returns 0, or 2 with a one-line message in err (the library refuses
 * the design, bloomsim's scheme cannot build it, or the target needs more lookups,
 * (1 - p)/(p precision^2) by the binomial floor alone, than max_filters filters of
 * AUDIT_MAX_LOOKUPS lookups make). */
int audit_plan(const audit_ask_t *a, double p, exp_row_t *row, audit_design_t *d, char *err,
               size_t errlen);

/* audit_plan for the libraries configured by bits per key (LevelDB's and RocksDB's
 * NewBloomFilterPolicy(b); sizing.h's sizing_design_bpk): the design of n keys at b bits
 * per key, whose promise is the rate b stands for, p = e^{-b ln^2 2} (-ln p / ln^2 2 = b,
 * the rate the lookups are planned at). Returns 0, or 2 with a one-line message in err
 * (a library that takes a rate, or refuses b). */
int audit_plan_bpk(const audit_ask_t *a, double bits_per_key, exp_row_t *row,
                   audit_design_t *d, char *err, size_t errlen);

/* A one-filter audit's stated range (docs/model.md, Key sets and real hashes): keys that
 * are the same in every filter (seq, seq-str, file: sim_one_filter) make one filter, and
 * the audit asks it the Q queried keys numbered n to n + Q - 1 (the next Q after the
 * inserted ones), in AUDIT_RANGES successive ranges of Q / AUDIT_RANGES: its false
 * positives over them are an exact count, with no sampling interval, and the ranges'
 * rates say how much the rate varies with the range asked. Q is --queries, a multiple of
 * AUDIT_RANGES, or by default audit_range_default's. */
#define AUDIT_RANGES 8
typedef struct audit_range {
    int on;             /* one filter over a stated range (else: a sampling interval) */
    int given;          /* Q is --queries (else the default) */
    uint64_t first;     /* the number of the first queried key: n */
    uint64_t queries;   /* Q asked */
    uint64_t wanted;    /* the default Q before a key file's lines cut it (0: not cut) */
    double planned_at;  /* the ideal rate the default was planned at */
    uint64_t false_positives;
    uint64_t ranges, per_range;
    double rate, lo, hi, sd; /* the rate over Q; its ranges' lowest, highest, deviation */
} audit_range_t;

/* The default Q: the fewest queries, a multiple of AUDIT_RANGES, whose binomial relative
 * standard error at rate `ideal` (an ideal filter of the same design: its structure's
 * exact rate, else the uniform one) is at most precision, (1 - p) / (p precision^2);
 * 0 when ideal is not in (0, 1) or Q would pass 2^62. */
uint64_t audit_range_default(double ideal, double precision);

/* The rate over the range and its ranges' spread into g (g->ranges, g->per_range set)
 * from the ranges' false positives counts[0..g->ranges). */
void audit_range_spread(audit_range_t *g, const uint64_t *counts);

/* The exit statuses of an audit (docs/usage.md, docs/adapter.md): it measured the rate
 * and found no broken promise; a broken one (an inserted key reported absent, or the
 * interval above --fail-above times the promise); bad input (cli.h); the target not
 * reached within --max-filters (or a key file's lines), nothing broken found. */
enum { AUDIT_PASS = 0, AUDIT_FAIL = 1, AUDIT_BAD_INPUT = 2, AUDIT_UNREACHED = 3 };

/* The check that a filter says yes for every key inserted into it (docs/model.md, No
 * false negatives): across the filters checked, the inserted keys queried and how many
 * were reported absent; per filter, all its n keys (all = 1) or a sample of per_filter
 * of them. */
typedef struct audit_check {
    uint64_t filters, per_filter, queried, absent;
    int all;
} audit_check_t;

/* The check of the filters f < F from their false negatives absent[f] (EST_UNCHECKED:
 * not built afresh, estimator.h), per_filter inserted keys queried in each of n. */
audit_check_t audit_check_sum(const uint64_t *absent, uint64_t F, uint64_t n,
                              uint64_t per_filter);

/* An audit's verdict: its exit status (AUDIT_*) and its line (no newline), "pass",
 * "FAIL: ..." or "target not reached: ...". */
typedef struct audit_verdict {
    int status;
    char line[300];
} audit_verdict_t;

/* What the verdict weighs: the check, the interval's lower bound, the promise (or the rate
 * bits per key stand for), --fail-above R (<= 0: not given) and whether the precision
 * target was met. A false negative fails whatever the rate; then a lower bound above R p
 * (the interval is honest at 95%, so the excess is not noise); then a target not reached;
 * else pass. */
typedef struct audit_weigh {
    audit_check_t check;
    double ci_low, promise, fail_above;
    int target_met;
} audit_weigh_t;

audit_verdict_t audit_verdict(const audit_weigh_t *w);

/* What an audit found beside its rate, for its printers (text; JSON): the check of the
 * inserted keys and the verdict. */
typedef struct audit_outcome {
    audit_check_t check;
    audit_verdict_t verdict;
} audit_outcome_t;

#endif
