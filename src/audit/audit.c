/* audit.c - see audit.h. */
#include "audit/audit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/tabulate.h"
#include "estimate/estimator.h"
#include "experiment/plan.h"
#include "libraries/registry.h"

/* Filters of EST_SHARED_BITS or more are built by all threads at once (estimator.h). */
uint64_t audit_first_filters(uint64_t m)
{
    return m >= EST_SHARED_BITS ? 2 : 8;
}

uint64_t audit_lookups(double p, double precision, uint64_t filters)
{
    /* rse of F L binomial lookups at rate p: 1 / sqrt(F L p) (p small) = precision / 2 */
    double all = 4.0 / (p * precision * precision);
    double per = ceil(all / (double)filters);
    const double lo = 1e4, hi = (double)AUDIT_MAX_LOOKUPS;
    return (uint64_t)(per < lo ? lo : per > hi ? hi : per);
}

/* The row of the library's design in *d as a asks: audit_plan after the sizing. *d holds
 * its n, its promise p (or, designed by bits per key, the rate those bits stand for), the
 * bits the rule computes (m_computed), and the bits m and probes k it designs; the rest
 * is filled here, m becoming the bits its scheme indexes. */
static int plan_design(const audit_ask_t *a, exp_row_t *row, audit_design_t *d, char *err,
                       size_t errlen)
{
    const library_t *lib = a->lib;
    const uint64_t n = a->n, m = d->m, max_filters = a->max_filters;
    const double p = d->p, precision = a->precision;
    const unsigned k = d->k;
    const scheme_t *sc = lib->scheme;
    int st;
    probe_geom_t g;
    if ((st = sc->geometry(m, k, 0, &g)) != SCHEME_OK) {
        snprintf(err, errlen, "audit: %s designs %llu bits and k = %u for %llu keys at %g, "
                 "which its scheme %s cannot build: %s (got '--keys %llu --rate %g')",
                 lib->name, (unsigned long long)m, k, (unsigned long long)n, p, sc->name,
                 scheme_refusal(sc, st), (unsigned long long)n, p);
        return 2;
    }
    /* The row, as an experiment file would give it (experiment.h checks and resolves
     * it: the estimator, the filter cap). */
    uint64_t F = audit_first_filters(m);
    if (F > max_filters) /* --max-filters is the most it builds, first batch included */
        F = max_filters;
    uint64_t L = audit_lookups(p, precision, F);
    /* The binomial floor alone needs (1 - p) / (p r^2) lookups for a relative standard
     * error r at rate p: refuse a target no run within the limits can reach (at most
     * max_filters filters of AUDIT_MAX_LOOKUPS lookups each). */
    double need = (1 - p) / (p * precision * precision);
    if (need > (double)max_filters * AUDIT_MAX_LOOKUPS) {
        snprintf(err, errlen, "audit: a relative standard error of %g at a rate near %g "
                 "needs about %.2g lookups, more than %llu filters of at most 2^36 lookups "
                 "each can make (got '--precision %g')", precision, p, need,
                 (unsigned long long)max_filters, precision);
        return 2;
    }
    char text[1024];
    snprintf(text, sizeof text,
             "[sweep]\ndesign_keys = %llu\ndesign_rate = %.17g\nlibraries = %s\n"
             "estimator = auto\nfilters = %llu\nlookups = %llu\nprecision = %.17g\n"
             "max_filters = %llu\n",
             (unsigned long long)n, p, lib->name, (unsigned long long)F,
             (unsigned long long)(F * L), precision, (unsigned long long)max_filters);
    experiment_t *e = calloc(1, sizeof *e);
    if (!e) {
        snprintf(err, errlen, "audit: out of memory");
        return 2;
    }
    exp_row_t *rows = NULL;
    size_t nrows = 0;
    char why[EXP_ERR_LEN];
    int rc = experiment_load_text("audit", text, strlen(text), e, why, sizeof why);
    if (rc == 0)
        rc = plan_rows(e, 0, &rows, &nrows, why, sizeof why);
    free(e);
    if (rc != 0 || nrows != 1) {
        snprintf(err, errlen, "audit: %s at %llu keys and %g: %s", lib->name,
                 (unsigned long long)n, p, rc ? why : "not one row");
        free(rows);
        return 2;
    }
    *row = rows[0];
    free(rows);
    /* The design itself (the same as the rate's for a design by rate; by bits per key,
     * the library's design at those bits, not at the rate they stand for). */
    row->geom = g;
    row->bits_per_key = (double)g.m / (double)n;
    tab_refs_t ref = tabulate_refs(row);
    double structure;
    d->m = row->geom.m;
    d->k = row->geom.k;
    d->uniform = ref.exact;
    d->structure = NAN;
    if (sizing_rate_exact(lib->sizing, m, n, 0, k, &structure) == SIZING_OK &&
        fabs(structure - ref.exact) > 1e-9 * ref.exact)
        d->structure = structure;
    d->model = ref.model;
    d->bits_per_key = NAN;
    return 0;
}

int audit_plan(const audit_ask_t *a, double p, exp_row_t *row, audit_design_t *d, char *err,
               size_t errlen)
{
    const library_t *lib = a->lib;
    const uint64_t n = a->n;
    uint64_t mc, m;
    unsigned k;
    int st = sizing_design_full(lib->sizing, n, p, &mc, &m, &k);
    if (st != SIZING_OK) {
        snprintf(err, errlen, "audit: %s (sizing rule %s) cannot design %llu keys at %g: %s "
                 "(got '--keys %llu --rate %g')", lib->name, lib->sizing->name,
                 (unsigned long long)n, p, sizing_refusal(lib->sizing, st),
                 (unsigned long long)n, p);
        return 2;
    }
    *d = (audit_design_t){.n = n, .p = p, .m_computed = mc, .m = m, .k = k};
    return plan_design(a, row, d, err, errlen);
}

int audit_plan_bpk(const audit_ask_t *a, double bits_per_key, exp_row_t *row,
                   audit_design_t *d, char *err, size_t errlen)
{
    const library_t *lib = a->lib;
    const uint64_t n = a->n;
    uint64_t mc, m;
    unsigned k;
    int st = sizing_design_bpk(lib->sizing, n, bits_per_key, &mc, &m, &k);
    if (st != SIZING_OK) {
        snprintf(err, errlen, "audit: %s (sizing rule %s) cannot design %llu keys at %g bits "
                 "per key: %s (got '--bits-per-key %g')", lib->name, lib->sizing->name,
                 (unsigned long long)n, bits_per_key,
                 st == SIZING_EBPK && !lib->sizing->bpk_from_rate
                     ? "it takes a rate (--rate), not bits per key"
                     : sizing_refusal(lib->sizing, st), bits_per_key);
        return 2;
    }
    double ln2 = log(2.0), p = exp(-bits_per_key * ln2 * ln2);
    if (!(p > 0 && p < 1)) {
        snprintf(err, errlen, "audit: %g bits per key stand for no rate bloomsim can measure "
                 "(got '--bits-per-key %g')", bits_per_key, bits_per_key);
        return 2;
    }
    *d = (audit_design_t){.n = n, .p = p, .m_computed = mc, .m = m, .k = k};
    int rc = plan_design(a, row, d, err, errlen);
    if (rc == 0)
        d->bits_per_key = bits_per_key;
    return rc;
}

audit_check_t audit_check_sum(const uint64_t *absent, uint64_t F, uint64_t n,
                              uint64_t per_filter)
{
    audit_check_t c = {.per_filter = per_filter, .all = per_filter >= n};
    for (uint64_t f = 0; f < F; f++)
        if (absent[f] != EST_UNCHECKED) {
            c.filters++;
            c.queried += per_filter;
            c.absent += absent[f];
        }
    return c;
}

audit_verdict_t audit_verdict(const audit_weigh_t *w)
{
    audit_verdict_t v = {.status = AUDIT_PASS};
    const audit_check_t *c = &w->check;
    const double R = w->fail_above, lo = w->ci_low / w->promise;
    if (c->absent > 0) {
        v.status = AUDIT_FAIL;
        snprintf(v.line, sizeof v.line, "FAIL: %llu of %llu inserted keys reported absent "
                 "(false negatives)", (unsigned long long)c->absent,
                 (unsigned long long)c->queried);
    } else if (R > 0 && lo > R) {
        v.status = AUDIT_FAIL;
        snprintf(v.line, sizeof v.line, "FAIL: lower bound %.4g is %.4g times the promise, "
                 "above --fail-above %g", w->ci_low, lo, R);
    } else if (!w->target_met) {
        v.status = AUDIT_UNREACHED;
        snprintf(v.line, sizeof v.line, "target not reached: no broken promise found, but "
                 "the rate is not known to the precision asked (exit %d)", AUDIT_UNREACHED);
    } else if (R > 0)
        snprintf(v.line, sizeof v.line, "pass: no false negatives; lower bound %.4g is %.4g "
                 "times the promise, not above --fail-above %g", w->ci_low, lo, R);
    else
        snprintf(v.line, sizeof v.line, "pass: no false negatives (--fail-above R judges the "
                 "rate too)");
    return v;
}

uint64_t audit_range_default(double ideal, double precision)
{
    if (!(ideal > 0 && ideal < 1) || !(precision > 0))
        return 0;
    double q = ceil((1 - ideal) / (ideal * precision * precision) / AUDIT_RANGES);
    if (!(q * AUDIT_RANGES < 4.6e18))
        return 0;
    return (uint64_t)q * AUDIT_RANGES;
}

void audit_range_spread(audit_range_t *g, const uint64_t *counts)
{
    uint64_t sum = 0;
    double lo = INFINITY, hi = -INFINITY, s1 = 0, s2 = 0;
    for (uint64_t b = 0; b < g->ranges; b++) {
        double r = (double)counts[b] / (double)g->per_range;
        sum += counts[b];
        lo = r < lo ? r : lo;
        hi = r > hi ? r : hi;
        s1 += r;
        s2 += r * r;
    }
    const double B = (double)g->ranges, mean = s1 / B;
    g->false_positives = sum;
    g->rate = (double)sum / ((double)g->ranges * (double)g->per_range);
    g->lo = lo, g->hi = hi;
    g->sd = g->ranges > 1 ? sqrt(fmax(0.0, (s2 - B * mean * mean) / (B - 1))) : 0;
}
