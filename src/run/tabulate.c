/* tabulate.c - see tabulate.h. */
#include "run/tabulate.h"

#include <math.h>

#include "rates/rate.h"
#include "run/lines.h"

double tabulate_layers_combined(const double *x, size_t n)
{
    if (n == 1)
        return x[0];
    double sum = 0;
    for (size_t j = 0; j < n; j++)
        sum += log1p(-x[j]);
    return -expm1(sum);
}

tab_refs_t tabulate_refs(const exp_row_t *row)
{
    if (row->structure == STRUCT_FINGERPRINT) { /* no probes: its own exact rate alone */
        double x = fp_exact(&row->fp);
        return (tab_refs_t){NAN, NAN, x, x, NAN};
    }
    double v[5][ROW_MAX_LAYERS];
    size_t nl = row_layers(row);
    for (size_t j = 0; j < nl; j++) {
        const probe_geom_t *g = row_layer_geom(row, j);
        uint64_t n = row_layer_n(row, j);
        double sx = row->scheme->exact ? row->scheme->exact(g, n) : NAN;
        v[0][j] = rate_formula(g->m, n, g->k);
        v[1][j] = rate_formula_finite(g->m, n, g->k);
        if (rate_exact(g->m, n, g->k, &v[2][j]) != RATE_OK)
            v[2][j] = NAN;
        v[3][j] = sx < 0 ? NAN : sx;
        v[4][j] = row->scheme->model ? row->scheme->model(g, n) : NAN;
    }
    return (tab_refs_t){tabulate_layers_combined(v[0], nl),
                        tabulate_layers_combined(v[1], nl),
                        tabulate_layers_combined(v[2], nl),
                        tabulate_layers_combined(v[3], nl),
                        tabulate_layers_combined(v[4], nl)};
}

static double mean_of(const double *x, uint64_t n)
{
    long double sum = 0;
    for (uint64_t i = 0; i < n; i++)
        sum += x[i];
    return (double)(sum / (long double)n);
}

/* The warning signal of a designed filter: the load estimated from the set bits of each
 * filter, n_est = -(m/k) ln(1 - X/m), and how far it is from the true n. */
static void design_columns(const exp_row_t *row, uint64_t filters, const uint64_t *popcounts,
                           csv_row_t *out)
{
    const probe_geom_t *g = &row->geom;
    long double fill = 0, err = 0, err2 = 0, est = 0;
    for (uint64_t f = 0; f < filters; f++) {
        /* A filter with every bit set has no finite estimate; it is read as m - 1/2 set
         * bits, the estimate's lower bound for a full filter. */
        double m = (double)g->m, X = (double)popcounts[f];
        double ne = -(m / g->k) * log1p(-fmin(X, m - 0.5) / m);
        fill += X / m;
        est += ne;
        err += ne / (double)row->n - 1;
        err2 += (ne / (double)row->n - 1) * (ne / (double)row->n - 1);
    }
    long double F = (long double)filters, mean_err = err / F;
    out->fill = (double)(fill / F);
    out->n_est = (double)(est / F);
    out->n_est_error = (double)mean_err;
    out->n_est_spread = (double)sqrtl((err2 - F * mean_err * mean_err) / (F - 1));
}

static void stack_columns(const exp_row_t *row, uint64_t filters, const double *consulted,
                          csv_row_t *out)
{
    out->first_capacity = (double)row->stack.first_capacity;
    out->growth = row->stack.growth;
    out->tightening = row->stack.tightening;
    out->layers = (double)row->nlayers;
    out->total_bits = (double)row->geom.m;
    out->single_bits = (double)row->single_bits;
    out->bits_ratio = (double)row->geom.m / (double)row->single_bits;
    out->layers_consulted = mean_of(consulted, filters);
    if (row->compares)
        out->places = out->layers_consulted;
    double r0 = row->stack.first_rate > 0 ? row->stack.first_rate : row->design_rate;
    out->bound = r0 / (1 - row->stack.tightening);
    if (row->stack.chain) { /* a library's chain: its promise, its keys swallowed */
        out->first_capacity = (double)row->design_keys;
        out->bound = row->design_rate;
        out->library = row->stack.chain->name;
        out->refused = row->swallowed;
    }
}

/* The mean of per-filter counts. */
static double mean_count(const uint64_t *x, uint64_t n)
{
    long double sum = 0;
    for (uint64_t i = 0; i < n; i++)
        sum += (long double)x[i];
    return (double)(sum / (long double)n);
}

/* A fingerprint filter's columns: its schedule and space (fingerprint.h), beside the
 * bits of the one Bloom filter the sweep's rule sizes for the same keys. */
static void fingerprint_columns(const exp_row_t *row, uint64_t filters, const row_out_t *out,
                                csv_row_t *r)
{
    const fp_state_t *s = &row->fp;
    r->k = CSV_ABSENT;
    r->rate_times_m = NAN; /* no floor in units of 1/m: its m is not a bit array */
    r->expansions = s->expansions;
    r->fingerprint_bits = fp_new_bits(s);
    r->refused = out->refused ? mean_count(out->refused, filters) : (double)s->refused;
    r->total_bits = (double)s->bits;
    if (row->single_bits) {
        r->single_bits = (double)row->single_bits;
        r->bits_ratio = (double)s->bits / (double)row->single_bits;
    }
    r->places = fp_places(s);
    if (fp_takes_reserve(row->fingerprint)) { /* a chain of filters: its links */
        r->first_capacity = (double)s->d.size;
        r->growth = (double)s->d.expansion;
        r->layers = (double)s->ngens;
        r->layers_consulted = r->places / 2;
    }
}

const char *tabulate_structure(const exp_row_t *row)
{
    if (row->structure == STRUCT_FINGERPRINT)
        return row->fingerprint->name;
    if (!row->compares)
        return NULL;
    if (row->structure == STRUCT_STACK)
        return row->stack.chain ? "chain" : "stack";
    return row->rebuilt ? "rebuilt" : "single";
}

csv_row_t tabulate_row(const char *name, const exp_row_t *row, uint64_t filters,
                       const row_out_t *out, uint64_t seed)
{
    const probe_geom_t *g = &row->geom;
    stats_summary_t s;
    if (sim_summarize(row, filters, out, &s) != 0)
        s = (stats_summary_t){.filters = filters, .rate = NAN, .stderr_ = NAN,
                              .ci_low = NAN, .ci_high = NAN, .kind = 0};
    tab_refs_t ref = tabulate_refs(row);
    /* A fingerprint filter's exact rate is that of the keys its schedule stores: none
     * where built filters refused more (a cuckoo filter's measured refusals; an xor
     * filter's refusals are retried builds, which store every key; a chain's exact rate
     * is its reference chain's, refusals included). */
    if (row->structure == STRUCT_FINGERPRINT && out->refused && !row->fingerprint->ops->retries &&
        !fp_takes_reserve(row->fingerprint) && mean_count(out->refused, filters) >
        (double)row->fp.refused)
        ref.exact = ref.scheme_exact = NAN;
    csv_row_t r = csv_row_empty();
    r.experiment = name;
    r.scheme = row->scheme->name;
    r.estimator = row->est->name;
    r.m = g->m, r.n = row->n, r.k = g->k;
    r.bits_per_key = row->bits_per_key;
    r.filters = s.filters;
    if (sim_counts(row))
        r.lookups = s.lookups, r.false_positives = s.false_positives;
    r.rate = s.rate, r.stderr_ = s.stderr_, r.ci_low = s.ci_low, r.ci_high = s.ci_high;
    r.interval = s.kind == STATS_BINOMIAL ? "binomial" : s.kind == STATS_SPREAD ? "spread"
                 : s.kind == STATS_EXACT  ? "exact" : NULL;
    if (row->precision > 0) {
        r.rse_target = row->precision;
        r.target_met = (uint64_t)sim_target_met(row, &s);
    }
    r.formula = ref.formula, r.formula_finite = ref.formula_finite, r.exact = ref.exact;
    r.scheme_exact = ref.scheme_exact;
    r.ratio_formula = s.rate / ref.formula;
    r.ratio_exact = s.rate / ref.exact;
    r.z_exact = s.stderr_ > 0 ? (s.rate - ref.exact) / s.stderr_ : NAN;
    r.rate_times_m = s.rate * (double)g->m;
    r.seed = seed;
    r.model = ref.model;
    r.ratio_model = s.rate / ref.model;
    if (g->block)
        r.block_bits = g->block;
    if (row->scheme->model_rocksdb && row->structure != STRUCT_STACK)
        r.model_rocksdb = row->scheme->model_rocksdb(g, row->n);
    if (row->structure == STRUCT_PLAIN && row_real_keys(row) && out->popcounts)
        design_columns(row, filters, out->popcounts, &r); /* a hash split's fill */
    if (row->structure == STRUCT_PLAIN)
        return r;
    r.design_keys = (double)row->design_keys;
    r.design_rate = row->design_rate;
    r.sizing = row->sizing->name;
    if (row_library(row))
        r.library = row_real_keys(row) ? row->label : row_library(row)->name;
    r.load = (double)row->n / (double)row->design_keys;
    r.rate_over_design = s.rate / row->design_rate;
    r.structure = tabulate_structure(row);
    if (row->structure == STRUCT_DESIGN) {
        if (row->compares)
            r.places = 1;
        design_columns(row, filters, out->popcounts, &r);
        /* A library's filter beside fingerprint filters (a sweep of families): the cache
         * lines its lookup of an absent key reads, from its measured fill (lines.h). */
        if (row->compares && row_library(row))
            r.places = lines_absent_lookup(g, r.fill);
    } else if (row->structure == STRUCT_STACK) {
        stack_columns(row, filters, out->consulted, &r);
    } else {
        fingerprint_columns(row, filters, out, &r);
    }
    return r;
}
