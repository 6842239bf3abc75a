/* audit_exec.c - `bloomsim audit --exec 'CMD'`: measure any implementation's
 * false-positive rate through the adapter protocol (docs/adapter.md), to a target
 * relative standard error, with its 95% interval, beside the promise and the rates of
 * its (m, k) where the adapter tells them. The engine is src/audit/exec.c (exec.h); here
 * are the adapter's start and stop, the signals, the messages and the printing: nothing
 * is printed on stdout before the end, so a failed measurement publishes nothing.
 */
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include "audit/exec.h"
#include "base/monotonic.h"
#include "cli/audit_json.h"
#include "cli/cli.h"
#include "rates/rate.h"

/* ln 2, which C11's math.h does not name. */
#define LN2 0.69314718055994530942

void cli_print_check(const audit_check_t *c, uint64_t n)
{
    if (!c->filters) {
        printf("  inserted   not checked: no filter of its own was built\n");
        return;
    }
    if (c->all)
        printf("  inserted   all %" PRIu64 " keys of %s asked again: %" PRIu64 " queries, ",
               n, c->filters == 1 ? "the filter" : "each filter", c->queried);
    else
        printf("  inserted   a random sample of %" PRIu64 " of the %" PRIu64 " keys of %s "
               "asked again: %" PRIu64 " queries, ", c->per_filter, n,
               c->filters == 1 ? "the filter" : "each filter", c->queried);
    printf("%" PRIu64 " absent (false negatives)\n", c->absent);
}

void cli_print_z_meaning(void)
{
    printf("             (standard errors: measured minus that rate, over the measured rate's "
           "standard error;\n              beyond about 2 either way, that rate lies outside "
           "the 95%% interval: not noise)\n");
}

void cli_key_text(const keyset_t *ks, uint64_t j, char *out, size_t len)
{
    key_stream_t st;
    rkey_t k;
    key_stream_init(&st, ks, KEY_ROLE_QUERY, 0, j);
    if (!key_next(&st, &k)) {
        snprintf(out, len, "?");
        return;
    }
    if (k.kind == KEY_INT) {
        snprintf(out, len, "%" PRIu64, k.u);
        return;
    }
    size_t used = 0;
    for (size_t i = 0; i < k.len && used + 8 < len; i++) {
        if (used >= 60 && i + 1 < k.len) {
            used += (size_t)snprintf(out + used, len - used, "...");
            break;
        }
        uint8_t c = k.bytes[i];
        used += (size_t)(c >= 0x20 && c < 0x7f && c != '\\'
                             ? snprintf(out + used, len - used, "%c", c)
                             : snprintf(out + used, len - used, "\\x%02x", c));
    }
    out[used < len ? used : len - 1] = '\0';
}

void cli_print_range(const audit_range_t *g, const keyset_t *ks, double precision)
{
    char k0[128], k1[128];
    cli_key_text(ks, 0, k0, sizeof k0);
    cli_key_text(ks, g->queries - 1, k1, sizeof k1);
    printf("  queries    the %" PRIu64 " keys after the %" PRIu64 " inserted: %s to %s\n",
           g->queries, g->first, k0, k1);
    if (g->given)
        printf("             (--queries)\n");
    else if (g->wanted)
        printf("             (all the key file holds after them, in whole ranges; a relative "
               "standard error of %g\n              on an ideal filter of this design, at "
               "%.4g, needs %" PRIu64 ")\n", precision, g->planned_at, g->wanted);
    else
        printf("             (the default: a relative standard error of %g on an ideal filter "
               "of this design,\n              at %.4g; --queries Q asks another range)\n",
               precision, g->planned_at);
    printf("  measured   %-12.4g exact: %" PRIu64 " false positives in those %" PRIu64
           " queries\n             (one filter asked a stated range: an exact count, no "
           "sampling interval)\n", g->rate, g->false_positives, g->queries);
    printf("  rate varies by query range: %.4g to %.4g over %" PRIu64 " successive ranges of "
           "%" PRIu64 " queries\n             (standard deviation %.2g; another range gives "
           "another exact rate)\n", g->lo, g->hi, g->ranges, g->per_range, g->sd);
}

/* The design lines of an audit --exec: what was asked, what the adapter answered, and the
 * promise (none by bits). */
static void exec_print_design(const audit_exec_run_t *r)
{
    const audit_exec_t *x = r->x;
    if (x->fingerprint_bits)
        printf("  design     %" PRIu64 " keys at %u fingerprint bits", x->n, x->fingerprint_bits);
    else if (x->bits_per_key > 0)
        printf("  design     %" PRIu64 " keys at %g bits per key", x->n, x->bits_per_key);
    else
        printf("  design     %" PRIu64 " keys at %g", x->n, x->p);
    if (r->m)
        printf(": m = %" PRIu64 " bits (%.4g bits per key), k = %u, as the adapter answered\n",
               r->m, (double)r->m / (double)x->n, r->k);
    else if (r->table_bits)
        printf(": a fingerprint filter's table of %" PRIu64 " bits (%.4g bits per key), as "
               "the adapter answered\n", r->table_bits, (double)r->table_bits / (double)x->n);
    else
        printf(": the adapter hides m and k\n");
    if (x->fingerprint_bits)
        printf("  promised   nothing (fingerprint bits; one %u-bit fingerprint compared once "
               "is 2^-%u = %.4g)\n", x->fingerprint_bits, x->fingerprint_bits,
               audit_exec_bits_rate(x));
    else if (x->bits_per_key > 0)
        printf("  promised   nothing (bits per key; -ln P / ln^2 2 = %g gives P = %.4g)\n",
               x->bits_per_key, exp(-x->bits_per_key * LN2 * LN2));
    else
        printf("  promised   %g\n", x->p);
}

static void exec_print(const audit_exec_run_t *r, const char *name, const stats_summary_t *s,
                       int met, const audit_verdict_t *v, double secs)
{
    const audit_exec_t *x = r->x;
    printf("exec: %s\n  adapter    '%s'\n", name, x->cmd);
    exec_print_design(r);
    if (r->range.on) {
        cli_print_range(&r->range, x->keys, x->precision);
        printf("             one filter, built once by the adapter\n");
    } else {
        printf("  measured   %-12.4g 95%% interval %.4g to %.4g; standard error %.2g (%.2f%% "
               "relative)\n", s->rate, s->ci_low, s->ci_high, s->stderr_,
               s->rate > 0 ? 100 * s->stderr_ / s->rate : 0.0);
        printf("             %" PRIu64 " filters of %" PRIu64 " lookups, %" PRIu64 " false "
               "positives (%s interval)\n", s->filters, r->L, s->false_positives,
               s->kind == STATS_BINOMIAL ? "binomial" : "between-filter spread");
    }
    cli_print_check(&r->check, x->n);
    if (r->table_bits)
        printf("  failures   %" PRIu64 " inserts the library reported failed, %" PRIu64
               " builds retried with another seed (all filters)\n", r->failed, r->retries);
    if (!x->keys)
        printf("  keys       random 64-bit integers (u64), seed %" PRIu64 "\n", x->seed);
    else
        printf("  keys       %s (%s), seed %" PRIu64 "%s\n", x->keys_label,
               ADAPTER_WIRE_NAMES[audit_exec_wire(x)],
               x->seed, audit_exec_per_filter(x) ? ""
               : "; the same inserted keys in every filter: one filter, asked disjoint keys");
    if (!met && r->range.on)
        printf("  target     not reached: the key file holds fewer queried lines than an ideal "
               "filter needs\n             for the precision asked (%" PRIu64 " of %" PRIu64
               ")\n", r->range.queries, r->range.wanted);
    else if (!met)
        printf("  target     not reached: %.3g%% relative standard error, asked %g%%, after "
               "%" PRIu64 " filters",
               s->rate > 0 ? 100 * s->stderr_ / s->rate : INFINITY, 100 * x->precision,
               s->filters);
    if (!met && r->range.on)
        ;
    else if (!met && r->Fmax < x->max_filters) /* as audit LIBRARY says it */
        cli_print_file_exhausted(x->keys->inserts, keyset_queries_total(x->keys),
                                 s->filters * r->L);
    else if (!met)
        printf(": the most --max-filters allows\n");
    if (!audit_exec_bits_rate(x) && r->range.on)
        printf("  ratio      %.4g times the promise (exact, over the range)\n", s->rate / x->p);
    else if (!audit_exec_bits_rate(x))
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
    if (r->m && s->stderr_ > 0)
        cli_print_z_meaning();
    printf("  seconds    %.1f\n", secs);
    printf("  verdict    %s\n", v->line);
}

/* The progress line on a terminal: the filters planned so far (the target may ask for
 * more once their spread is known, so no time left is guessed), the keys sent. */
typedef struct exec_progress {
    double t0, last;
    int active;
} exec_progress_t;

static void exec_progress(const audit_exec_run_t *r, void *ctx)
{
    exec_progress_t *t = ctx;
    double now = monotonic_seconds();
    if (now - t->last < 0.25)
        return;
    t->last = now, t->active = 1;
    fprintf(stderr, "\r\033[Kaudit --exec: filter %" PRIu64 " of %" PRIu64 " planned, %.3g M "
            "keys sent, %.0f s", r->F + 1, r->want, 1e-6 * (double)r->sent, now - t->t0);
    fflush(stderr);
}

static int stopped(void)
{
    return cli_die(128 + atomic_load(&cli_stop_signal), "audit: stopped (got signal %d)",
                   atomic_load(&cli_stop_signal));
}

int cli_audit_exec(const audit_exec_t *x, int json)
{
    audit_exec_run_t r;
    if (audit_exec_plan(&r, x, &cli_stop_signal) != 0) {
        audit_exec_free(&r);
        return cli_die(1, "audit: out of memory for %" PRIu64 " filters", x->max_filters);
    }
    const double need = r.range.on && x->queries ? (double)x->queries
                        : (1 - r.p) / (r.p * x->precision * x->precision);
    if (need > 1e9 && !cli_quiet)
        fprintf(stderr, "bloomsim: audit: at least %.3g lookups through the adapter for a "
                "relative standard error of %g at %g: this may take a while\n", need,
                x->precision, r.p);
    signal(SIGPIPE, SIG_IGN); /* a dead adapter: EPIPE, reported, not a silent exit */
    cli_catch_stop();
    double t0 = monotonic_seconds();
    exec_progress_t prog = {.t0 = t0, .last = t0};
    if (isatty(2) && !cli_quiet)
        r.progress = exec_progress, r.progress_ctx = &prog;
    int rc = adapter_start(&r.ad, x->cmd, &cli_stop_signal, x->timeout, r.err,
                           sizeof r.err);
    stats_summary_t s;
    int met = 0;
    if (rc == ADAPTER_OK)
        rc = audit_exec_measure(&r, &s, &met);
    if (prog.active) /* before any message */
        fputs("\r\033[K", stderr);
    if (rc == ADAPTER_STOPPED || (rc != ADAPTER_OK && atomic_load(&cli_stop_signal)))
        rc = stopped();
    else if (rc != ADAPTER_OK)
        rc = cli_die(2, "audit: --exec '%s': %s", x->cmd, r.err);
    char name[256];
    snprintf(name, sizeof name, "%s", r.ad.name);
    int status;
    adapter_stop(&r.ad, rc != 0, &status);
    if (rc == 0 && status == ADAPTER_NO_EXIT)
        rc = cli_die(2, "audit: --exec '%s': the adapter did not exit within %g seconds "
                     "after quit (--timeout); ended", x->cmd, x->timeout);
    else if (rc == 0 && status != 0)
        rc = status == -1 ? cli_die(2, "audit: --exec '%s': a signal ended the adapter after "
                                    "quit", x->cmd)
                          : cli_die(2, "audit: --exec '%s': the adapter ended with status %d "
                                    "after quit", x->cmd, status);
    if (rc == 0) {
        const audit_weigh_t w = {.check = r.check, .ci_low = s.ci_low, .promise = r.p,
                                 .fail_above = x->fail_above, .target_met = met};
        const audit_verdict_t v = audit_verdict(&w);
        const double secs = monotonic_seconds() - t0;
        if (json) {
            rc = audit_json_exec(&r, name, &s, met, &v, secs);
        } else {
            exec_print(&r, name, &s, met, &v, secs);
            rc = v.status;
        }
    }
    audit_exec_free(&r);
    return rc;
}
