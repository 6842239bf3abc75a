/* audit_exec.c - `bloomsim audit --exec 'CMD'`: measure any implementation's
 * false-positive rate through the adapter protocol (docs/adapter.md; adapter.h), to a
 * target relative standard error, with its 95% interval, beside the promise and the
 * rates of its (m, k) where the adapter tells them.
 *
 * Filter f is designed afresh, gets the keys key(f, i) for i < n inserted and is asked
 * about L keys key(f, i), i >= n, which are never inserted: key(f, i) = mix(s_f + i),
 * mix splitmix64's finalizer (a bijection, so keys of one filter are distinct) and s_f
 * 64 bits of the run's generator for unit (0, f) (pcg.h). Keys are random-looking
 * 64-bit integers, sent as `u64`. Its false positives c_f over L lookups make the
 * estimate as a row of `run` makes it (stats.h): binomial where the model's
 * between-filter variance at (m, n, k) is negligible, else from the spread (always,
 * where the adapter hides m and k). Filters are added until the target is met or
 * --max-filters are built (or a key file's queried lines are all asked, each once);
 * nothing is printed on stdout before the end, so a failed measurement publishes nothing.
 */
#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "audit/adapter.h"
#include "audit/audit.h"
#include "cli/cli.h"
#include "base/pcg.h"
#include "experiment/plan.h"
#include "rates/rate.h"
#include "base/stats.h"

/* ln 2, which C11's math.h does not name. */
#define LN2 0.69314718055994530942
/* Keys per insert or query command. */
#define EXEC_BATCH 65536

typedef struct exec_run {
    const audit_exec_t *x;
    adapter_t ad;
    uint64_t m, L, F, *c; /* c[f]: false positives of filter f */
    uint64_t Fmax;        /* --max-filters, or the batches a key file's lines allow */
    unsigned k;
    char name[256];       /* what the adapter's hello said */
    char err[512];
} exec_run_t;

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Does filter f get keys of its own (the default keys, or a key set's that are each
 * filter's own), or the same inserted keys as every other (one filter, asked more)? */
static int exec_per_filter(const keyset_t *ks)
{
    return !ks || keyset_per_filter(ks);
}

_Static_assert((int)ADAPTER_U64 == (int)KEY_WIRE_U64 && (int)ADAPTER_STR == (int)KEY_WIRE_STR &&
               (int)ADAPTER_HEX == (int)KEY_WIRE_HEX, "a key set's wire is the adapter's");

/* How the keys travel (adapter.h): the default keys as u64, a key set's as its wire. */
static int exec_wire(const keyset_t *ks)
{
    return !ks ? ADAPTER_U64 : ks->kind->wire;
}

/* Send `count` keys of filter f's role (inserted, or queried when query is 1) in commands
 * of EXEC_BATCH keys; a query's 1s into *hits. ADAPTER_* status, -1 when stopped. The
 * default keys are mix(salt + i), inserted i < n, queried i >= n; a key set's are its
 * streams' (keys.h), as the real-keys estimator takes them (est_keys.c): those
 * keyset_filter_keys gives filter f (a file's lines after the inserted ones each asked
 * once: F L <= Q, keyset_plan_queries). */
static int exec_send(exec_run_t *r, uint64_t f, uint64_t salt, int query, uint64_t count,
                     uint64_t *hits)
{
    const keyset_t *ks = r->x->keys;
    key_stream_t ss;
    if (ks) {
        uint64_t stream, first;
        keyset_filter_keys(ks, f, r->L, &stream, &first);
        key_stream_init(&ss, ks, query ? KEY_ROLE_QUERY : KEY_ROLE_INSERT, stream,
                        query ? first : 0);
    }
    *hits = 0;
    for (uint64_t i = 0; i < count; i += EXEC_BATCH) {
        size_t b = count - i < EXEC_BATCH ? (size_t)(count - i) : EXEC_BATCH;
        adapter_begin(&r->ad, query, exec_wire(ks), b);
        for (size_t j = 0; j < b; j++) {
            rkey_t k = {.kind = KEY_INT, .u = pcg_mix64(salt + (query ? r->x->n : 0) + i + j)};
            if (ks && !key_next(&ss, &k))
                assert(!"a key set ran out of keys"); /* L and F are capped to its lines */
            adapter_key(&r->ad, &k);
        }
        uint64_t h = 0;
        int st = adapter_end(&r->ad, &h, r->err, sizeof r->err);
        if (st != ADAPTER_OK)
            return st;
        *hits += h;
        if (atomic_load(&cli_stop_signal))
            return -1;
    }
    return ADAPTER_OK;
}

/* Design, fill and ask filter f; its false positives into r->c[f]. ADAPTER_* status.
 * Key sets whose inserted keys are every filter's build the filter once. */
static int exec_filter(exec_run_t *r, uint64_t f)
{
    const audit_exec_t *x = r->x;
    uint64_t m, h;
    unsigned k;
    pcg32_t g;
    pcg32_unit(&g, x->seed, 0, f);
    uint64_t salt = pcg32_next64(&g);
    if (f == 0 || exec_per_filter(x->keys)) {
        int st = adapter_design(&r->ad, x->n, x->p, x->bits_per_key, &m, &k, r->err,
                                sizeof r->err);
        if (st != ADAPTER_OK)
            return st;
        if (f > 0 && (m != r->m || k != r->k)) {
            snprintf(r->err, sizeof r->err, "the adapter designed m = %" PRIu64 ", k = %u "
                     "for filter 1 and m = %" PRIu64 ", k = %u for filter %" PRIu64 " of the "
                     "same design", r->m, r->k, m, k, f + 1);
            return ADAPTER_BROKEN;
        }
        r->m = m, r->k = k;
        if ((st = exec_send(r, f, salt, 0, x->n, &h)) != ADAPTER_OK)
            return st;
    }
    return exec_send(r, f, salt, 1, r->L, &r->c[f]);
}

/* The row's summary so far, and whether it meets the target (as sim_target_met). */
static int exec_summary(const exec_run_t *r, stats_summary_t *s)
{
    double rate = 0;
    for (uint64_t f = 0; f < r->F; f++)
        rate += (double)r->c[f];
    rate /= (double)r->F * (double)r->L;
    /* Hidden m and k: no model of the spread between filters, so never assume it is
     * negligible; one filter asked again (seq, seq-str, file) has none. */
    double v = !exec_per_filter(r->x->keys) ? 0
               : r->m ? rate_between_var(r->m, r->x->n, r->k, rate) : INFINITY;
    int summarized = stats_summarize(r->c, r->F, r->L, v, s) == 0;
    assert(summarized); /* F >= 2: --max-filters, and a key file's 2 queried lines */
    (void)summarized;
    double target = r->x->precision * s->rate;
    return s->rate > 0 && s->stderr_ <= target &&
           stats_trusted(s, target, !exec_per_filter(r->x->keys));
}

/* The filters the target asks for next (as sim_wanted): 10% more than the standard
 * error so far says, at least one more and STATS_MIN_SPREAD_FILTERS in all. */
static uint64_t exec_wanted(const exec_run_t *r, const stats_summary_t *s)
{
    double rse = s->rate > 0 ? s->stderr_ / s->rate : INFINITY;
    double grow = isfinite(rse) ? (rse / r->x->precision) * (rse / r->x->precision) * 1.1 : 10;
    double want = ceil((double)r->F * grow);
    uint64_t F = r->F + 1 > STATS_MIN_SPREAD_FILTERS ? r->F + 1 : STATS_MIN_SPREAD_FILTERS;
    if (want > (double)F)
        F = want < (double)r->Fmax ? (uint64_t)want : r->Fmax;
    return F < r->Fmax ? F : r->Fmax;
}

static void exec_print(const exec_run_t *r, const stats_summary_t *s, int met, double secs)
{
    const audit_exec_t *x = r->x;
    printf("exec: %s\n  adapter    '%s'\n", r->name, x->cmd);
    if (x->bits_per_key > 0)
        printf("  design     %" PRIu64 " keys at %g bits per key", x->n, x->bits_per_key);
    else
        printf("  design     %" PRIu64 " keys at %g", x->n, x->p);
    if (r->m)
        printf(": m = %" PRIu64 " bits (%.4g bits per key), k = %u, as the adapter answered\n",
               r->m, (double)r->m / (double)x->n, r->k);
    else
        printf(": the adapter hides m and k\n");
    if (x->bits_per_key > 0)
        printf("  promised   nothing (bits per key; -ln P / ln^2 2 = %g gives P = %.4g)\n",
               x->bits_per_key, exp(-x->bits_per_key * LN2 * LN2));
    else
        printf("  promised   %g\n", x->p);
    printf("  measured   %-12.4g 95%% interval %.4g to %.4g; standard error %.2g (%.2f%% "
           "relative)\n", s->rate, s->ci_low, s->ci_high, s->stderr_,
           s->rate > 0 ? 100 * s->stderr_ / s->rate : 0.0);
    printf("             %" PRIu64 " filters of %" PRIu64 " lookups, %" PRIu64 " false "
           "positives (%s interval)\n", s->filters, r->L, s->false_positives,
           s->kind == STATS_BINOMIAL ? "binomial" : "between-filter spread");
    if (!x->keys)
        printf("  keys       random 64-bit integers (u64), seed %" PRIu64 "\n", x->seed);
    else
        printf("  keys       %s (%s), seed %" PRIu64 "%s\n", x->keys_label,
               ADAPTER_WIRE_NAMES[exec_wire(x->keys)],
               x->seed, exec_per_filter(x->keys) ? ""
               : "; the same inserted keys in every filter: one filter, asked disjoint keys");
    if (!met)
        printf("  target     not reached: %.3g%% relative standard error, asked %g%%, after "
               "%" PRIu64 " filters",
               s->rate > 0 ? 100 * s->stderr_ / s->rate : INFINITY, 100 * x->precision,
               s->filters);
    if (!met && r->Fmax < x->max_filters) /* as audit LIBRARY says it */
        cli_print_file_exhausted(x->keys->inserts, keyset_queries_total(x->keys),
                                 s->filters * r->L);
    else if (!met)
        printf(": the most --max-filters allows\n");
    if (x->bits_per_key <= 0)
        printf("  ratio      %.4g times the promise (interval %.4g to %.4g)\n", s->rate / x->p,
               s->ci_low / x->p, s->ci_high / x->p);
    double ref[2] = {NAN, NAN};
    if (r->m) {
        ref[0] = rate_formula(r->m, x->n, r->k);
        if (rate_exact(r->m, x->n, r->k, &ref[1]) != RATE_OK)
            ref[1] = NAN;
    }
    const char *what[2] = {"(1 - e^(-kn/m))^k, the textbook formula at this m, n and k",
                           "exact rate of independent uniform probes at this m, n and k"};
    for (int i = 0; i < 2; i++) {
        if (isnan(ref[i]))
            continue;
        printf("  %-10s %-12.4g measured / this = %.4g", i ? "uniform" : "formula", ref[i],
               s->rate / ref[i]);
        if (s->stderr_ > 0)
            printf(" (%+.1f standard errors)", (s->rate - ref[i]) / s->stderr_);
        printf("\n             %s\n", what[i]);
    }
    printf("  seconds    %.1f\n", secs);
}

/* Build filters until the target is met or max_filters are built. 0, or the exit status
 * after the message. */
static int exec_measure(exec_run_t *r, stats_summary_t *s, int *met)
{
    const audit_exec_t *x = r->x;
    uint64_t want = r->Fmax < 2 ? r->Fmax : 2;
    for (r->F = 0;;) {
        for (; r->F < want; r->F++) {
            int st = exec_filter(r, r->F);
            if (st < 0 || st == ADAPTER_STOPPED || atomic_load(&cli_stop_signal))
                return cli_die(128 + atomic_load(&cli_stop_signal), "audit: stopped (got "
                               "signal %d)", atomic_load(&cli_stop_signal));
            if (st != ADAPTER_OK)
                return cli_die(2, "audit: --exec '%s': %s", x->cmd, r->err);
            if (!r->m && exec_per_filter(x->keys) && want < STATS_MIN_SPREAD_FILTERS)
                want = STATS_MIN_SPREAD_FILTERS < r->Fmax ? STATS_MIN_SPREAD_FILTERS : r->Fmax;
        }
        if ((*met = exec_summary(r, s)) || r->F >= r->Fmax)
            return 0;
        want = exec_wanted(r, s);
    }
}

int cli_audit_exec(const audit_exec_t *x)
{
    exec_run_t r = {.x = x};
    r.c = calloc(x->max_filters, sizeof *r.c);
    if (!r.c) {
        return cli_die(1, "audit: out of memory for %" PRIu64 " filters", x->max_filters);
    }
    /* Lookups per filter: as audit plans them at the promise (at the bits per key's
     * -ln P / ln^2 2 otherwise), for the first 2 filters. */
    double p = x->bits_per_key > 0 ? exp(-x->bits_per_key * LN2 * LN2) : x->p;
    r.L = audit_lookups(p, x->precision, 2);
    r.Fmax = x->max_filters;
    if (x->keys) { /* more filters carry the rest; a file's lines each asked once */
        uint64_t fmax = keyset_plan_queries(x->keys, 1, &r.L);
        if (r.Fmax > fmax)
            r.Fmax = fmax;
    }
    if ((double)r.L * 2 > 1e9 && !cli_quiet)
        fprintf(stderr, "bloomsim: audit: %" PRIu64 " lookups a filter through the adapter "
                "for a relative standard error of %g at %g: this may take a while\n", r.L,
                x->precision, p);
    signal(SIGPIPE, SIG_IGN); /* a dead adapter: EPIPE, reported, not a silent exit */
    cli_catch_stop();
    double t0 = seconds_now();
    int rc = adapter_start(&r.ad, x->cmd, &cli_stop_signal, x->timeout, r.err,
                           sizeof r.err);
    stats_summary_t s;
    int met = 0;
    if (rc == ADAPTER_STOPPED || (rc != ADAPTER_OK && atomic_load(&cli_stop_signal)))
        rc = cli_die(128 + atomic_load(&cli_stop_signal), "audit: stopped (got signal %d)",
                     atomic_load(&cli_stop_signal));
    else if (rc != ADAPTER_OK)
        rc = cli_die(2, "audit: --exec '%s': %s", x->cmd, r.err);
    else
        rc = exec_measure(&r, &s, &met);
    snprintf(r.name, sizeof r.name, "%s", r.ad.name);
    int status;
    adapter_stop(&r.ad, rc != 0, &status);
    if (rc == 0 && status != 0)
        rc = cli_die(2, "audit: --exec '%s': the adapter ended with status %d after quit",
                     x->cmd, status);
    if (rc == 0)
        exec_print(&r, &s, met, seconds_now() - t0);
    free(r.c);
    return rc;
}
