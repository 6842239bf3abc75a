/* exec.c - the measurement engine of `audit --exec` (exec.h): filters designed, filled
 * and asked through the adapter, until the target is met. */
#include "audit/exec.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "audit/audit.h"
#include "base/pcg.h"
#include "estimate/estimator.h"
#include "rates/rate.h"

_Static_assert((int)ADAPTER_U64 == (int)KEY_WIRE_U64 && (int)ADAPTER_STR == (int)KEY_WIRE_STR &&
               (int)ADAPTER_HEX == (int)KEY_WIRE_HEX, "a key set's wire is the adapter's");

/* ln 2, which C11's math.h does not name. */
#define LN2 0.69314718055994530942
/* Keys per insert or query command. */
#define EXEC_BATCH 65536

int audit_exec_per_filter(const audit_exec_t *x)
{
    return !x->keys || keyset_per_filter(x->keys);
}

int audit_exec_wire(const audit_exec_t *x)
{
    return x->keys ? x->keys->kind->wire : ADAPTER_U64;
}

double audit_exec_bits_rate(const audit_exec_t *x)
{
    return x->fingerprint_bits ? ldexp(1, -(int)x->fingerprint_bits)
           : x->bits_per_key > 0 ? exp(-x->bits_per_key * LN2 * LN2) : 0;
}

/* A plan's margin on the spread: a spread of 8 filters planned to meet the target with
 * its within-filter variance at 1 / EXEC_SPREAD_MARGIN of the budget comes out above the
 * target (chi^2_7 / 7 > 1.5) about one time in six, and then more filters are asked. */
#define EXEC_SPREAD_MARGIN 1.5

/* Inserted keys filter f is asked again (exec.h): all n where that is no more than its L
 * lookups, else a sample of max(L, 10^5 / F) of them, F the filters planned first, so
 * that the audit asks at least 10^5 in all. */
static uint64_t exec_check_count(uint64_t n, uint64_t L, uint64_t F)
{
    uint64_t share = (EST_CHECK_MIN + F - 1) / F, s = L > share ? L : share;
    return n <= L ? n : s < n ? s : n;
}

/* Keys a plan of F filters of L lookups sends: each filter's n inserts, L queries and its
 * check. */
static double exec_cost(uint64_t n, uint64_t F, uint64_t L)
{
    return (double)F * ((double)n + (double)L + (double)exec_check_count(n, L, F));
}

/* The fewest keys that give the target an honest interval (docs/adapter.md, "How much
 * work"), planned once the adapter has answered the first design: need = (1 - p) /
 * (p R^2) lookups in all is the binomial floor of any plan. Where the adapter tells m and
 * k, the model's between-filter variance v_b is known, and F filters of L <= 0.01 p
 * (1 - p) / v_b lookups have a binomial interval (stats.h): F = need / L, at least 2 (a
 * dispersion test). Otherwise, or where it is cheaper, the interval rests on the spread
 * of at least 8 filters, L lookups each for a within-filter variance p (1 - p) / L of
 * F R^2 p^2 / EXEC_SPREAD_MARGIN - v_b (v_b 0 where m is hidden). The cheaper plan in
 * keys sent; more filters follow if the spread asks (exec_wanted). filter-bench's
 * filters are asked all n of their counters (a defined range), L = n. */
static void exec_plan_lookups(audit_exec_run_t *r)
{
    const audit_exec_t *x = r->x;
    const double p = r->p, R = x->precision, n = (double)x->n;
    const double need = (1 - p) / (p * R * R), w1 = p * (1 - p); /* w1: one lookup's */
    const double cap = (double)AUDIT_MAX_LOOKUPS;
    uint64_t bound = x->keys ? keyset_queries_max(x->keys) : UINT64_MAX;
    double vb = r->m ? rate_between_var(r->m, x->n, r->k, p) : 0;
    if (!(vb >= 0) || !isfinite(vb))
        vb = 0;
    /* The spread's plan: Var(mean) = (v_b + w1 / L) / F <= R^2 p^2 / margin, with F at
     * least 8 and enough that v_b alone takes at most half of it. */
    const double per = R * R * p * p / EXEC_SPREAD_MARGIN;
    double fs = fmax((double)STATS_MIN_SPREAD_FILTERS, ceil(2 * vb / per));
    uint64_t Fs = fs < (double)r->Fmax ? (uint64_t)fs : r->Fmax;
    double room = (double)Fs * per - vb;
    double ls = room > 0 ? ceil(w1 / room) : ceil(1.1 * need / (double)Fs);
    ls = fmin(fmax(ls, 1), fmin(ceil(1.1 * need), cap)); /* never past the floor's */
    uint64_t Ls = (uint64_t)ls;
    uint64_t F = Fs, L = Ls;
    if (r->m) { /* a binomial plan: more filters of fewer lookups each */
        double lb = vb > 0 ? floor(STATS_NEGLIGIBLE * w1 / vb) : cap;
        lb = fmin(lb, fmin(ceil(1.1 * need / 2), cap));
        if (lb >= 1) { /* 10% over the floor, as the precision rule asks (sim_wanted) */
            uint64_t Lb = (uint64_t)lb, Fb = (uint64_t)ceil(1.1 * need / lb);
            Fb = Fb < 2 ? 2 : Fb;
            if (Fb <= r->Fmax && exec_cost(x->n, Fb, Lb) < exec_cost(x->n, Fs, Ls))
                F = Fb, L = Lb;
        }
    }
    if (bound != UINT64_MAX) /* filter-bench: every counter of every filter */
        L = bound, F = r->m ? 2 : STATS_MIN_SPREAD_FILTERS;
    (void)n;
    r->L = L;
    r->want = F < r->Fmax ? F : r->Fmax;
    r->check_n = exec_check_count(x->n, L, r->want);
}

/* The one filter's range of Q queries (cut to the whole ranges a key file holds: the
 * default only, --queries is checked against the file before the run). */
static void exec_range(audit_exec_run_t *r, uint64_t Q)
{
    const uint64_t lines = keyset_queries_total(r->x->keys);
    if (Q > lines) {
        r->range.wanted = Q;
        Q = lines / AUDIT_RANGES * AUDIT_RANGES;
    }
    r->range.queries = Q;
    r->range.per_range = r->L = Q / AUDIT_RANGES;
}

int audit_exec_plan(audit_exec_run_t *r, const audit_exec_t *x, const atomic_int *stop)
{
    *r = (audit_exec_run_t){.x = x, .stop = stop};
    /* --max-filters, or a one-filter range's AUDIT_RANGES batches whatever it says */
    r->c = calloc(x->max_filters > AUDIT_RANGES ? x->max_filters : AUDIT_RANGES, sizeof *r->c);
    if (!r->c)
        return -1;
    r->p = audit_exec_bits_rate(x) > 0 ? audit_exec_bits_rate(x) : x->p;
    r->L = 0; /* exec_plan_lookups, once the first design is answered; or the range's */
    r->Fmax = x->max_filters;
    if (x->keys && !audit_exec_per_filter(x)) { /* one filter, a stated range */
        r->range = (audit_range_t){.on = 1, .given = x->queries > 0, .first = x->n,
                                   .ranges = AUDIT_RANGES};
        r->Fmax = AUDIT_RANGES;
        if (x->queries)
            exec_range(r, x->queries);
    }
    return 0;
}

void audit_exec_free(audit_exec_run_t *r)
{
    free(r->c);
    r->c = NULL;
}

static int stopped(const audit_exec_run_t *r)
{
    return r->stop && atomic_load(r->stop);
}

/* Send `count` keys of filter f's role (inserted, or queried when query is 1) in commands
 * of EXEC_BATCH keys; a query's 1s into *hits. ADAPTER_* status, -1 when stopped. The
 * default keys are mix(salt + i), inserted i < n, queried i >= n; a key set's are those
 * keyset_filter_keys gives filter f (F L <= Q for a file's Q queried lines:
 * keyset_plan_queries). */
static int exec_send(audit_exec_run_t *r, uint64_t f, uint64_t salt, int query,
                     uint64_t count, uint64_t *hits)
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
        adapter_begin(&r->ad, query, audit_exec_wire(r->x), b);
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
        r->sent += b;
        if (r->progress)
            r->progress(r, r->progress_ctx);
        if (stopped(r))
            return -1;
    }
    return ADAPTER_OK;
}

/* Inserted keys of the check's sample sent in one run of consecutive ones (a key set's;
 * the default keys are sampled one by one). */
#define EXEC_CHECK_RUN 1024

/* Ask filter f about `check` of its inserted keys (exec.h): all of them in order, or
 * the sample drawn from g; those reported absent into *absent. ADAPTER_* status, -1 when
 * stopped. */
static int exec_check(audit_exec_run_t *r, uint64_t f, uint64_t salt, uint64_t check,
                      uint64_t *absent)
{
    const audit_exec_t *x = r->x;
    const int all = check == x->n;
    pcg32_t g;
    pcg32_unit(&g, x->seed, 1, f);
    key_stream_t ss;
    uint64_t stream = 0, first, run_left = 0, yes = 0;
    if (x->keys)
        keyset_filter_keys(x->keys, f, r->L, &stream, &first);
    for (uint64_t i = 0; i < check; i += EXEC_BATCH) {
        size_t b = check - i < EXEC_BATCH ? (size_t)(check - i) : EXEC_BATCH;
        adapter_begin(&r->ad, 1, audit_exec_wire(x), b);
        for (size_t j = 0; j < b; j++) {
            rkey_t k = {.kind = KEY_INT};
            if (!x->keys)
                k.u = pcg_mix64(salt + (all ? i + j : pcg32_below(&g, x->n)));
            else {
                if (run_left == 0) { /* a run from a uniform start, or all from 0 */
                    first = all ? 0 : pcg32_below(&g, x->n - EXEC_CHECK_RUN + 1);
                    key_stream_init(&ss, x->keys, KEY_ROLE_INSERT, stream, first);
                    run_left = all ? x->n : EXEC_CHECK_RUN;
                }
                run_left--;
                if (!key_next(&ss, &k))
                    assert(!"a key set ran out of inserted keys");
            }
            adapter_key(&r->ad, &k);
        }
        uint64_t h = 0;
        int st = adapter_end(&r->ad, &h, r->err, sizeof r->err);
        if (st != ADAPTER_OK)
            return st;
        yes += h;
        if (stopped(r))
            return -1;
    }
    *absent = check - yes;
    return ADAPTER_OK;
}

/* Design, fill and ask filter f; its false positives into r->c[f]. ADAPTER_* status.
 * Key sets whose inserted keys are every filter's build the filter once. */
static int exec_filter(audit_exec_run_t *r, uint64_t f)
{
    const audit_exec_t *x = r->x;
    uint64_t m, h;
    unsigned k;
    pcg32_t g;
    pcg32_unit(&g, x->seed, 0, f);
    uint64_t salt = pcg32_next64(&g);
    if (f == 0 || audit_exec_per_filter(x)) {
        int st = x->fingerprint_bits
                     ? adapter_design_fp(&r->ad, x->n, x->fingerprint_bits, &m, &k, r->err,
                                         sizeof r->err)
                     : adapter_design(&r->ad, x->n, x->p, x->bits_per_key, &m, &k, r->err,
                                      sizeof r->err);
        if (st != ADAPTER_OK)
            return st;
        uint64_t table = k ? 0 : m; /* `design M ?`: a table, no Bloom model */
        m = k ? m : 0;
        if (f > 0 && (m != r->m || k != r->k || table != r->table_bits)) {
            snprintf(r->err, sizeof r->err, "the adapter designed m = %" PRIu64 ", k = %u "
                     "for filter 1 and m = %" PRIu64 ", k = %u for filter %" PRIu64 " of the "
                     "same design", r->m ? r->m : r->table_bits, r->k, m ? m : table, k, f + 1);
            return ADAPTER_BROKEN;
        }
        r->m = m, r->k = k, r->table_bits = table;
        if (f == 0 && r->range.on && !r->range.given) { /* the default range: its design's */
            double ideal = r->p;
            if (m && (rate_exact(m, x->n, k, &ideal) != RATE_OK || !(ideal > 0)))
                ideal = r->p;
            r->range.planned_at = ideal;
            uint64_t Q = audit_range_default(ideal, x->precision);
            if (!Q) {
                snprintf(r->err, sizeof r->err, "no default range of queries at a rate of %g: "
                         "give --queries Q", ideal);
                return ADAPTER_REFUSED;
            }
            exec_range(r, Q);
        }
        if (f == 0 && !r->range.on) /* the filters and lookups, now that m and k are known */
            exec_plan_lookups(r);
        if ((st = exec_send(r, f, salt, 0, x->n, &h)) != ADAPTER_OK)
            return st;
        uint64_t failed = 0, retries = 0;
        if (table && (st = adapter_failures(&r->ad, &failed, &retries, r->err,
                                            sizeof r->err)) != ADAPTER_OK)
            return st;
        r->failed += failed, r->retries += retries;
    }
    int st = exec_send(r, f, salt, 1, r->L, &r->c[f]);
    if (st != ADAPTER_OK || !(f == 0 || audit_exec_per_filter(x)))
        return st;
    const uint64_t check = r->range.on ? est_check_count(x->n, r->L) : r->check_n;
    uint64_t absent = 0;
    if ((st = exec_check(r, f, salt, check, &absent)) != ADAPTER_OK)
        return st;
    r->check.filters++;
    r->check.per_filter = check;
    r->check.all = check == x->n;
    r->check.queried += check;
    r->check.absent += absent;
    return ADAPTER_OK;
}

/* The run's summary so far, and whether it meets the target (as sim_target_met). */
static int exec_summary(const audit_exec_run_t *r, stats_summary_t *s)
{
    double rate = 0;
    for (uint64_t f = 0; f < r->F; f++)
        rate += (double)r->c[f];
    rate /= (double)r->F * (double)r->L;
    /* Hidden m and k: no model of the spread between filters, so never assume it is
     * negligible; one filter asked again (a key set of every filter's keys) has none. */
    int own = audit_exec_per_filter(r->x);
    double v = !own ? 0 : r->m ? rate_between_var(r->m, r->x->n, r->k, rate) : INFINITY;
    int summarized = stats_summarize(r->c, r->F, r->L, v, s) == 0;
    assert(summarized); /* F >= 2: --max-filters, and a key file's 2 queried lines */
    (void)summarized;
    double target = r->x->precision * s->rate;
    return s->rate > 0 && s->stderr_ <= target && stats_trusted(s, target, !own);
}

/* The filters the target asks for next (as sim_wanted): 10% more than the standard
 * error so far says, at least one more, and STATS_MIN_SPREAD_FILTERS in all where the
 * interval is the spread's. */
static uint64_t exec_wanted(const audit_exec_run_t *r, const stats_summary_t *s)
{
    double rse = s->rate > 0 ? s->stderr_ / s->rate : INFINITY;
    double grow = isfinite(rse) ? (rse / r->x->precision) * (rse / r->x->precision) * 1.1 : 10;
    double want = ceil((double)r->F * grow);
    /* a binomial interval rests on any number of filters; a spread on 8 at least */
    uint64_t least = s->kind == STATS_BINOMIAL ? 0 : STATS_MIN_SPREAD_FILTERS;
    uint64_t F = r->F + 1 > least ? r->F + 1 : least;
    if (want > (double)F)
        F = want < (double)r->Fmax ? (uint64_t)want : r->Fmax;
    return F < r->Fmax ? F : r->Fmax;
}

int audit_exec_measure(audit_exec_run_t *r, stats_summary_t *s, int *met)
{
    uint64_t want = r->range.on ? AUDIT_RANGES : r->Fmax < 2 ? r->Fmax : 2;
    for (r->F = 0;;) {
        for (r->want = want; r->F < want; r->F++) {
            int st = exec_filter(r, r->F);
            if (st < 0 || st == ADAPTER_STOPPED || stopped(r))
                return ADAPTER_STOPPED;
            if (st != ADAPTER_OK)
                return st;
            if (r->F == 0 && !r->range.on) /* exec_plan_lookups' first filters */
                want = r->want;
        }
        *met = exec_summary(r, s);
        if (r->range.on) { /* the exact count over the range: no sampling interval */
            audit_range_spread(&r->range, r->c);
            s->rate = s->ci_low = s->ci_high = r->range.rate;
            s->stderr_ = 0;
            *met = r->range.wanted == 0;
            return ADAPTER_OK;
        }
        if (*met || r->F >= r->Fmax)
            return ADAPTER_OK;
        want = exec_wanted(r, s);
    }
}
