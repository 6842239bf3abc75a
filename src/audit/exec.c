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
    r->L = audit_lookups(r->p, x->precision, 2);
    r->Fmax = x->max_filters;
    if (x->keys && !audit_exec_per_filter(x)) { /* one filter, a stated range */
        r->range = (audit_range_t){.on = 1, .given = x->queries > 0, .first = x->n,
                                   .ranges = AUDIT_RANGES};
        r->Fmax = AUDIT_RANGES;
        if (x->queries)
            exec_range(r, x->queries);
    } else if (x->keys) { /* more filters carry the rest */
        if (keyset_queries_max(x->keys) != UINT64_MAX) /* filter-bench: all n counters */
            r->L = keyset_queries_max(x->keys);
        uint64_t fmax = keyset_plan_queries(x->keys, 1, &r->L);
        if (r->Fmax > fmax)
            r->Fmax = fmax;
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
    const uint64_t check = est_check_count(x->n, r->L);
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
 * error so far says, at least one more and STATS_MIN_SPREAD_FILTERS in all. */
static uint64_t exec_wanted(const audit_exec_run_t *r, const stats_summary_t *s)
{
    double rse = s->rate > 0 ? s->stderr_ / s->rate : INFINITY;
    double grow = isfinite(rse) ? (rse / r->x->precision) * (rse / r->x->precision) * 1.1 : 10;
    double want = ceil((double)r->F * grow);
    uint64_t F = r->F + 1 > STATS_MIN_SPREAD_FILTERS ? r->F + 1 : STATS_MIN_SPREAD_FILTERS;
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
            if (!r->m && audit_exec_per_filter(r->x) && want < STATS_MIN_SPREAD_FILTERS)
                want = STATS_MIN_SPREAD_FILTERS < r->Fmax ? STATS_MIN_SPREAD_FILTERS : r->Fmax;
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
