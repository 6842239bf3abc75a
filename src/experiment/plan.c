/* plan.c - see plan.h.
 * long: the rows of every structure (single, stack, chain, rebuilt, fingerprint) share its
 * static helpers (row_geometry, row_common, row_error). */
#include "experiment/plan.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "estimate/estimator.h"
#include "base/csv.h"
#include "base/memory.h"
#include "base/stats.h"
#include "libraries/registry.h"

unsigned plan_k(k_rule_t rule, unsigned k, double b)
{
    double x = b * log(2.0);
    double r = rule == K_FIXED ? k : rule == K_CEIL ? ceil(x) : floor(x + 0.5);
    return r < 1 ? 1u : r > 1000 ? 1000u : (unsigned)r;
}

/* A sweep names libraries or schemes, never both (fields.c): the variants'
 * arrays below, EXP_MAX_SCHEMES * EXP_MAX_LIST, hold either. */
_Static_assert(EXP_MAX_LIBRARIES * KEYSET_COUNT <= EXP_MAX_SCHEMES * EXP_MAX_LIST,
               "room for the libraries at every key set");
_Static_assert(EXP_MAX_SCHEMES * KEYSET_COUNT * SPLIT_COUNT <= EXP_MAX_SCHEMES * EXP_MAX_LIST,
               "room for the schemes at every key set and split");

size_t plan_variants(const sweep_t *s, exp_variant_t *v)
{
    size_t n = 0;
    for (size_t i = 0; i < s->nlibraries; i++)
        for (size_t j = 0; j < (s->nkey_sets ? s->nkey_sets : 1); j++)
            v[n++] = (exp_variant_t){s->libraries[i]->scheme, 0, s->libraries[i],
                                     s->nkey_sets ? s->key_sets[j] : NULL, NULL};
    for (size_t i = 0; i < s->nschemes && s->nsplits; i++)
        for (size_t j = 0; j < s->nkey_sets; j++)
            for (size_t q = 0; q < (keyset_kind_real(s->key_sets[j]) ? s->nsplits : 1); q++)
                v[n++] = (exp_variant_t){s->schemes[i], 0, NULL, s->key_sets[j],
                                         keyset_kind_real(s->key_sets[j]) ? s->splits[q]
                                                                          : NULL};
    for (size_t i = 0; i < s->nschemes && !s->nsplits; i++) {
        size_t nb = s->schemes[i]->block_default && s->nblock_bits ? s->nblock_bits : 1;
        for (size_t j = 0; j < nb; j++)
            v[n++] = (exp_variant_t){s->schemes[i], s->schemes[i]->block_default &&
                                                    s->nblock_bits ? s->block_bits[j] : 0,
                                     NULL, NULL, NULL};
    }
    return n;
}

/* Fill the fields every row shares. supported has bit i set when est_at(i) can measure
 * every layer of the row; an explicit estimator was checked by row_geometry, auto takes
 * the most preferred one that can (lookups, index 0, always can). */
static void row_common(exp_row_t *r, const sweep_t *s, const scheme_t *sc, unsigned supported)
{
    r->scheme = sc;
    if (s->estimator != EXP_ESTIMATOR_AUTO) {
        r->est = est_at((size_t)s->estimator);
    } else {
        r->est = est_at(0);
        for (size_t i = 1; i < est_count(); i++)
            if ((supported >> i & 1) && est_at(i)->prefer > r->est->prefer)
                r->est = est_at(i);
    }
    r->filters = s->filters;
    r->lookups_per_filter = s->lookups / s->filters + (s->lookups % s->filters != 0);
    r->strides = s->strides;
    r->precision = s->precision;
    r->max_filters = experiment_max_filters(s);
}

static int row_error(const experiment_t *e, unsigned line, char *err, size_t errlen,
                     const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int row_error(const experiment_t *e, unsigned line, char *err, size_t errlen,
                     const char *fmt, ...)
{
    char msg[EXP_ERR_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(err, errlen, "%s:%u: %s", e->path, line, msg);
    return 2;
}

/* A point of a design sweep: the filter designed for the sweep's design_keys at rate p
 * (m bits, k probes), with n keys inserted; of any sweep, m, k and n alone. */
typedef struct design_point {
    double p;
    uint64_t m;
    unsigned k;
    uint64_t n;
} design_point_t;

/* Geometry of one (scheme, m, k) of the point, and in *supported the estimators that can
 * measure it with its n keys (bit i: est_at(i)); an estimator the sweep names that
 * cannot is an error. */
static int row_geometry(const experiment_t *e, const sweep_t *s, const exp_variant_t *va,
                        const design_point_t *dp, probe_geom_t *g, unsigned *supported,
                        char *err, size_t errlen)
{
    const scheme_t *sc = va->scheme;
    const uint64_t m = dp->m, n = dp->n;
    const unsigned k = dp->k;
    int st = sc->geometry(m, k, va->block, g);
    if (st == SCHEME_EBLOCK && s->line[F_BLOCK_BITS])
        return row_error(e, s->line[F_BLOCK_BITS], err, errlen, "scheme %s at bits = %llu: "
                         "%s (got '%llu')", sc->name, (unsigned long long)m,
                         scheme_strerror(st), (unsigned long long)va->block);
    if (st == SCHEME_ESPLIT)
        return row_error(e, s->line[F_K] ? s->line[F_K] : s->line[F_SCHEMES], err, errlen,
                         "scheme %s with blocks of %llu bits: %s (got k = %u)", sc->name,
                         (unsigned long long)(va->block ? va->block : sc->block_default),
                         scheme_strerror(st), k);
    int about_k = st == SCHEME_EKBIG || st == SCHEME_EKFIXED;
    if (st != SCHEME_OK && va->library)
        return row_error(e, s->line[F_LIBRARIES], err, errlen, "library %s (scheme %s) at "
                         "bits = %llu, k = %u: %s (got '%s')", va->library->name, sc->name,
                         (unsigned long long)m, k, scheme_refusal(sc, st), va->library->name);
    if (st != SCHEME_OK)
        return row_error(e, about_k && s->line[F_K] ? s->line[F_K] : s->line[F_SCHEMES], err,
                         errlen, "scheme %s at bits = %llu, k = %u: %s (got '%s')", sc->name,
                         (unsigned long long)m, k, scheme_refusal(sc, st), about_k ? "k" : sc->name);
    *supported = 0;
    for (size_t i = 0; i < est_count(); i++)
        *supported |= (unsigned)(est_at(i)->supports(sc, g, n) != 0) << i;
    if (s->estimator != EXP_ESTIMATOR_AUTO && !(*supported >> s->estimator & 1)) {
        const char *name = est_at((size_t)s->estimator)->name;
        return row_error(e, s->line[F_ESTIMATOR], err, errlen, "the %s estimator does not "
                         "apply to scheme %s at bits = %llu (got '%s'; auto falls back to "
                         "lookups)", name, sc->name, (unsigned long long)m, name);
    }
    return 0;
}

/* The row of the single filter designed at the point. */
static int single_row(const experiment_t *e, const sweep_t *s, const exp_variant_t *va,
                      const design_point_t *dp, exp_row_t *row, char *err, size_t errlen)
{
    unsigned supported = ~0u;
    row->structure = STRUCT_DESIGN;
    if (row_geometry(e, s, va, dp, &row->geom, &supported, err, errlen))
        return 2;
    row->bits_per_key = (double)row->geom.m / (double)dp->n;
    row_common(row, s, va->scheme, supported);
    row->sizing = va->library ? va->library->sizing : s->sizing;
    row->library = va->library;
    const keyset_kind_t *kind = va->key_set;
    if (!keyset_kind_real(kind))
        return 0;
    if (s->estimator != EXP_ESTIMATOR_AUTO && s->estimator != est_find("lookups"))
        return row_error(e, s->line[F_ESTIMATOR], err, errlen, "real keys (key set %s) are "
                         "measured by lookups (got '%s')", kind->name,
                         est_at((size_t)s->estimator)->name);
    char why[EXP_ERR_LEN];
    unsigned line;
    const char *param = experiment_key_param(s, kind, &line);
    if (plan_real_keys(row, va->library, kind, param, why, sizeof why))
        return row_error(e, s->line[F_KEY_SETS], err, errlen, "%s (got '%s')", why, kind->name);
    if (!kind->param_path)
        return 0;
    if (!param) /* a path it does not need: refused as an empty one */
        param = "";
    /* A relative path is the experiment file's neighbour, wherever the run starts. */
    char path[2200];
    const char *slash = strrchr(e->path, '/');
    if (param[0] == '/' || !slash)
        snprintf(path, sizeof path, "%s", param);
    else
        snprintf(path, sizeof path, "%.*s/%s", (int)(slash - e->path), e->path, param);
    if (plan_key_file(row, kind, path, param, why, sizeof why))
        return row_error(e, line, err, errlen, "%s: %s (got '%s')", kind->param_key, why, param);
    return 0;
}

void plan_rows_free(exp_row_t *rows, size_t nrows)
{
    for (size_t i = 0; rows && i < nrows; i++)
        if (rows[i].structure == STRUCT_DESIGN || rows[i].structure == STRUCT_PLAIN)
            keyset_close(&rows[i].keys);
    free(rows);
}


/* The row of a library's chain (libraries/chain.h) made for the sweep's design_keys at
 * the point's rate with the stack's growth (its expansion), its links in row->layers
 * (room for ROW_MAX_LAYERS), beside the one filter the library reserves for all n keys
 * (single_bits). Its links take the chain's scheme, whatever the sweep's schemes. */
static int chain_row(const experiment_t *e, const sweep_t *s, const design_point_t *dp,
                     const exp_stack_t *stk, exp_row_t *row, char *err, size_t errlen)
{
    const library_chain_t *c = stk->chain;
    const chain_params_t cp = {s->design_keys, dp->p, stk->growth, stk->tightening};
    static _Thread_local sizing_layer_t link[CHAIN_MAX_LINKS];
    int st = chain_links(c, &cp, dp->n, link, &row->nlayers, &row->swallowed);
    unsigned k1;
    if (st == SIZING_OK)
        st = c->reserve(&cp, dp->n, &row->single_bits, &k1);
    if (st != SIZING_OK)
        return row_error(e, s->line[F_STACK], err, errlen, "chain %s (%s) at %llu keys: %s "
                         "(got '%s/%.10g/%.10g')", c->name, chain_describe(c, &cp),
                         (unsigned long long)dp->n, chain_strerror(c, st), c->name,
                         cp.expansion, cp.tightening);
    const exp_variant_t va = {.scheme = c->scheme};
    unsigned supported = ~0u, ok = 0;
    uint64_t total_bits = 0;
    for (size_t j = 0; j < row->nlayers; j++) {
        const design_point_t lp = {link[j].rate, link[j].m, link[j].k, link[j].n};
        row->layers[j].size = link[j];
        if (row_geometry(e, s, &va, &lp, &row->layers[j].geom, &ok, err, errlen))
            return 2;
        supported &= ok;
        total_bits += row->layers[j].geom.m;
    }
    row->geom = row->layers[0].geom;
    row->geom.m = total_bits;
    row->bits_per_key = (double)total_bits / (double)dp->n;
    row_common(row, s, c->scheme, supported);
    row->sizing = s->sizing;
    return 0;
}

/* The row of a stack whose first layer has the point's rate, beside the one filter sized
 * for all n keys at that rate (single_bits); its layers go in row->layers (room for
 * SIZING_MAX_LAYERS, given by the caller). */
static int stack_row(const experiment_t *e, const sweep_t *s, const exp_variant_t *va,
                     const design_point_t *dp, const exp_stack_t *stk, exp_row_t *row,
                     char *err, size_t errlen)
{
    exp_layer_t *layers = row->layers;
    row->structure = STRUCT_STACK;
    row->stack = *stk;
    if (stk->chain)
        return chain_row(e, s, dp, stk, row, err, errlen);
    sizing_layer_t layer[SIZING_MAX_LAYERS];
    const double r0 = stk->first_rate > 0 ? stk->first_rate : dp->p;
    int st = sizing_stack(s->sizing, stk->first_capacity, r0, stk->growth,
                          stk->tightening, dp->n, layer, &row->nlayers);
    unsigned k1;
    if (st == SIZING_OK)
        st = sizing_design(s->sizing, dp->n, dp->p, &row->single_bits, &k1);
    if (st != SIZING_OK)
        return row_error(e, s->line[F_STACK], err, errlen, "stack %llu/%g/%g at %llu keys: %s "
                         "(got '%llu/%g/%g')", (unsigned long long)stk->first_capacity,
                         stk->growth, stk->tightening, (unsigned long long)dp->n,
                         sizing_refusal(s->sizing, st), (unsigned long long)stk->first_capacity,
                         stk->growth, stk->tightening);
    unsigned supported = ~0u, ok = 0;
    uint64_t total_bits = 0;
    for (size_t j = 0; j < row->nlayers; j++) {
        const design_point_t lp = {layer[j].rate, layer[j].m, layer[j].k, layer[j].n};
        layers[j].size = layer[j];
        if (row_geometry(e, s, va, &lp, &layers[j].geom, &ok, err, errlen))
            return 2;
        supported &= ok;
        total_bits += layers[j].geom.m;
    }
    /* The row's m, k: all bits in use, the first layer's k. */
    row->geom = layers[0].geom;
    row->geom.m = total_bits;
    row->bits_per_key = (double)total_bits / (double)dp->n;
    row_common(row, s, va->scheme, supported);
    row->sizing = s->sizing;
    return 0;
}

/* The row of the single filter the sweep's rule designs for the n keys inserted at the
 * point (seed 001's "Rebuilding": the best a caller who keeps the keys can do). */
static int rebuilt_row(const experiment_t *e, const sweep_t *s, const exp_variant_t *va,
                       const design_point_t *dp, exp_row_t *row, char *err, size_t errlen)
{
    design_point_t rp = *dp;
    int st = sizing_design(s->sizing, dp->n, dp->p, &rp.m, &rp.k);
    if (st != SIZING_OK)
        return row_error(e, s->line[F_REBUILT], err, errlen, "rebuilt filter for %llu keys at "
                         "%g: %s (got 'rebuilt = yes')", (unsigned long long)dp->n, dp->p,
                         sizing_refusal(s->sizing, st));
    if (s->k_rule == K_FIXED)
        rp.k = s->k;
    if (single_row(e, s, va, &rp, row, err, errlen))
        return 2;
    row->rebuilt = 1;
    return 0;
}

/* Set while plan_rows_check plans: the rows are checked, not run. */
static _Thread_local int plan_checking;

/* The row of a fingerprint filter (fingerprint.h) at the point: designed for the sweep's
 * design_keys (or, rebuilt, for the keys inserted) at the point's rate, then offered the
 * point's keys; beside it the bits of the one Bloom filter the sweep's rule sizes for
 * those keys. */
static int fingerprint_row(const experiment_t *e, const sweep_t *s, const fp_filter_t *f,
                           const design_point_t *dp, exp_row_t *row, char *err, size_t errlen)
{
    uint64_t keys = f->rebuilt ? dp->n : s->design_keys;
    double threshold = s->line[F_LOAD_THRESHOLD] ? s->load_threshold : FP_THRESHOLD_DEFAULT;
    fp_design_t d;
    int st = fp_design(f, keys, dp->p, threshold, (unsigned)s->fingerprint_bits, &d);
    if (st == FP_OK && f->ops->run_bytes) { /* memory before the run builds anything */
        const char *what;
        uint64_t avail = mem_available(&what);
        double need = f->ops->run_bytes(&d, dp->n);
        if (!mem_fits(need, avail))
            return row_error(e, s->line[F_INSERTED], err, errlen, "fingerprint filter %s "
                             "designed for %llu keys, offered %llu, needs up to %.1f GiB, only "
                             "%.1f GiB available%s (got '%llu')", f->name,
                             (unsigned long long)keys, (unsigned long long)dp->n,
                             need / 1073741824.0, (double)avail / 1073741824.0, what,
                             (unsigned long long)dp->n);
    }
    if (st == FP_OK && f->ops->run_bytes && plan_checking)
        row->fp = (fp_state_t){.filter = f, .d = d, .keys = dp->n}; /* checked, not run */
    else if (st == FP_OK)
        st = fp_run(f, &d, dp->n, &row->fp);
    if (st == FP_EBITS && s->line[F_FINGERPRINT_BITS])
        return row_error(e, s->line[F_FINGERPRINT_BITS], err, errlen, "fingerprint filter %s: "
                         "%s (got '%llu')", f->name, fp_refusal(f, st),
                         (unsigned long long)s->fingerprint_bits);
    if (st != FP_OK)
        return row_error(e, s->line[F_FINGERPRINT], err, errlen, "fingerprint filter %s designed "
                         "for %llu keys at %g, offered %llu: %s (got '%s')", f->name,
                         (unsigned long long)keys, dp->p, (unsigned long long)dp->n,
                         fp_refusal(f, st), f->name);
    row->structure = STRUCT_FINGERPRINT;
    row->fingerprint = f;
    row->geom = (probe_geom_t){.m = row->fp.bits, .w = row->fp.bits};
    row->bits_per_key = (double)row->fp.bits / (double)dp->n;
    row_common(row, s, f->scheme, ~0u);
    if (!fp_has_conditional(f) && !row->est->counts) { /* no exact rate of a built filter */
        if (s->estimator != EXP_ESTIMATOR_AUTO)
            return row_error(e, s->line[F_ESTIMATOR], err, errlen, "fingerprint filter %s "
                             "has no conditional rate (its rate given a table is a sum over "
                             "2^64 hashes): estimator = lookups (got '%s')", f->name,
                             row->est->name);
        row->est = &est_lookups;
    }
    row->est = est_fingerprint(row->est);
    row->sizing = s->sizing;
    unsigned k;
    if (sizing_design(s->sizing, dp->n, dp->p, &row->single_bits, &k) != SIZING_OK)
        row->single_bits = 0;
    return 0;
}

/* Keys inserted at the c-th load (or inserted count) of a design sweep; 0 with the
 * message set when out of range. */
static uint64_t design_load(const experiment_t *e, const sweep_t *s, size_t c, char *err,
                            size_t errlen)
{
    double nd = s->nload ? floor(s->load[c] * (double)s->design_keys + 0.5)
                         : (double)s->inserted[c];
    if (nd >= 1 && nd <= 1e12)
        return (uint64_t)nd;
    if (!s->nload)
        row_error(e, s->line[F_INSERTED], err, errlen, "inserted must be at most 10^12 keys "
                  "(got '%.0f')", nd);
    else if (!s->line[F_LOAD]) /* the default load, 1: the design's keys are too many */
        row_error(e, s->line[F_DESIGN_KEYS], err, errlen, "design_keys must be at most 10^12 "
                  "keys at load 1, the default (got '%llu')",
                  (unsigned long long)s->design_keys);
    else
        row_error(e, s->line[F_LOAD], err, errlen, "load %g gives %s keys (got '%g')",
                  s->load[c], nd < 1 ? "no" : "too many", s->load[c]);
    return 0;
}

/* The point's m and k as the library designs the sweep's design_keys at its rate: what
 * the library refuses is an error naming the libraries line. */
static int library_design(const experiment_t *e, const sweep_t *s, const library_t *lib,
                          design_point_t *dp, char *err, size_t errlen)
{
    int st = sizing_design(lib->sizing, s->design_keys, dp->p, &dp->m, &dp->k);
    if (st != SIZING_OK)
        return row_error(e, s->line[F_LIBRARIES], err, errlen, "library %s: design of %llu "
                         "keys at %g: %s (got '%s')", lib->name,
                         (unsigned long long)s->design_keys, dp->p,
                         sizing_refusal(lib->sizing, st), lib->name);
    return 0;
}

/* Whether a design sweep runs the single designed filter: with no other structure, asked
 * for (`single = yes`), or a library's (its filters are single, beside any fingerprint
 * filters: a sweep of families). */
static size_t sweep_single(const sweep_t *s)
{
    return (s->nstacks == 0 && !s->rebuilt && s->nfingerprints == 0) || s->single ||
           s->nlibraries;
}

/* Rows of a design sweep: design rate, then load, then structure (the single designed
 * filter, each stack, the rebuilt filter, each with a row per scheme or library; then
 * each fingerprint filter). Each stack row takes the next SIZING_MAX_LAYERS of layers. */
static int design_rows(const experiment_t *e, const sweep_t *s, exp_row_t *r,
                       exp_layer_t *layers, char *err, size_t errlen)
{
    size_t nl = s->nload ? s->nload : s->ninserted;
    size_t nsingle = sweep_single(s), nbloom = nsingle + s->nstacks + (s->rebuilt != 0);
    size_t i = 0;
    exp_variant_t va[EXP_MAX_SCHEMES * EXP_MAX_LIST];
    size_t nv = plan_variants(s, va);
    for (size_t a = 0; a < s->ndesign_rate; a++) {
        design_point_t dp = {.p = s->design_rate[a]};
        /* A sweep of libraries designs each by its own rule (library_design). */
        int st = s->nlibraries ? SIZING_OK
                               : sizing_design(s->sizing, s->design_keys, dp.p, &dp.m, &dp.k);
        if (st != SIZING_OK)
            return row_error(e, s->line[F_DESIGN_RATE], err, errlen, "design of %llu keys at "
                             "%g: %s (got '%g')", (unsigned long long)s->design_keys, dp.p,
                             sizing_refusal(s->sizing, st), dp.p);
        if (s->k_rule == K_FIXED)
            dp.k = s->k;
        for (size_t c = 0; c < nl; c++) {
            if ((dp.n = design_load(e, s, c, err, errlen)) == 0)
                return 2;
            for (size_t d = 0; d < nbloom + s->nfingerprints; d++) {
                for (size_t q = 0; q < (d < nbloom ? nv : 1); q++, i++) {
                    exp_row_t *row = &r[i];
                    row->design_keys = s->design_keys;
                    row->design_rate = dp.p;
                    row->n = dp.n;
                    if (d >= nbloom) {
                        if (fingerprint_row(e, s, s->fingerprints[d - nbloom], &dp, row, err,
                                            errlen))
                            return 2;
                        row->compares = 1;
                        continue;
                    }
                    if (va[q].library && library_design(e, s, va[q].library, &dp, err, errlen))
                        return 2;
                    if (d >= nsingle && d < nsingle + s->nstacks)
                        row->layers = layers, layers += ROW_MAX_LAYERS;
                    if (d < nsingle ? single_row(e, s, &va[q], &dp, row, err, errlen)
                        : d < nsingle + s->nstacks
                            ? stack_row(e, s, &va[q], &dp, &s->stack[d - nsingle], row, err,
                                        errlen)
                            : rebuilt_row(e, s, &va[q], &dp, row, err, errlen))
                        return 2;
                    row->compares = s->rebuilt || s->nfingerprints > 0;
                }
            }
        }
    }
    return 0;
}

/* A plain row's real keys through its split (plan_split_keys); what the split refuses
 * is an error at the splits line, what the key set refuses at the key_sets line. */
static int split_row(const experiment_t *e, const sweep_t *s, const exp_variant_t *va,
                     exp_row_t *row, char *err, size_t errlen)
{
    char why[EXP_ERR_LEN];
    const keyset_kind_t *kind = va->key_set;
    if (split_check(va->split, va->scheme, row->geom.m, why, sizeof why) != SPLIT_OK)
        return row_error(e, s->line[F_SPLITS], err, errlen, "%s (got '%s')", why,
                         va->split->name);
    if (s->estimator != EXP_ESTIMATOR_AUTO && s->estimator != est_find("lookups"))
        return row_error(e, s->line[F_ESTIMATOR], err, errlen, "real keys (key set %s) are "
                         "measured by lookups (got '%s')", kind->name,
                         est_at((size_t)s->estimator)->name);
    unsigned line;
    const char *param = experiment_key_param(s, kind, &line);
    if (plan_split_keys(row, va->split, kind, param, why, sizeof why))
        return row_error(e, s->line[F_KEY_SETS], err, errlen, "%s (got '%s')", why, kind->name);
    return 0;
}

/* Rows of a plain sweep: size, then bits per key, then scheme. */
static int plain_rows(const experiment_t *e, const sweep_t *s, exp_row_t *r, char *err,
                      size_t errlen)
{
    size_t nb = s->keys ? 1 : s->nbpk;
    size_t i = 0;
    exp_variant_t va[EXP_MAX_SCHEMES * EXP_MAX_LIST];
    size_t nv = plan_variants(s, va), real = 0;
    for (size_t j = 0; j < s->nkey_sets; j++)
        real += keyset_kind_real(s->key_sets[j]);
    if (s->nsplits && !real)
        return row_error(e, s->line[F_SPLITS], err, errlen, "splits needs key_sets with real "
                         "keys (seq, seq-str, ...) to hash (got '%s')", s->splits[0]->name);
    for (size_t a = 0; a < s->nbits; a++) {
        uint64_t m = s->bits[a];
        for (size_t c = 0; c < nb; c++) {
            double b = s->keys ? (double)m / (double)s->keys : s->bpk[c];
            double nd = s->keys ? (double)s->keys : floor((double)m / b + 0.5);
            if (nd < 1 || nd > 1e15) {
                return row_error(e, s->line[F_BPK], err, errlen, "bits_per_key %g gives %s "
                                 "keys at bits = %llu (got '%g')", b, nd < 1 ? "no" : "too many",
                                 (unsigned long long)m, b);
            }
            if (s->k_rule != K_FIXED && b * log(2.0) > 1000.5) {
                return row_error(e, s->line[F_BPK], err, errlen, "bits_per_key %g needs k = %.0f "
                                 "probes, more than 1000 (got '%g')", b, b * log(2.0), b);
            }
            unsigned k = plan_k(s->k_rule, s->k, b);
            const design_point_t pt = {.m = m, .k = k, .n = (uint64_t)nd};
            for (size_t d = 0; d < nv; d++, i++) {
                unsigned supported;
                if (row_geometry(e, s, &va[d], &pt, &r[i].geom, &supported, err, errlen)) {
                    return 2;
                }
                r[i].structure = STRUCT_PLAIN;
                r[i].bits_per_key = b;
                r[i].n = (uint64_t)nd;
                row_common(&r[i], s, va[d].scheme, supported);
                if (va[d].split && split_row(e, s, &va[d], &r[i], err, errlen))
                    return 2;
            }
        }
    }
    return 0;
}

/* Rows a sweep expands into (design_rows and plain_rows write them in this count). */
static size_t sweep_nrows(const sweep_t *s)
{
    exp_variant_t va[EXP_MAX_SCHEMES * EXP_MAX_LIST];
    size_t nv = plan_variants(s, va);
    if (s->exec[0])
        return plan_exec_nrows(s);
    if (s->design_keys)
        return s->ndesign_rate * (s->nload ? s->nload : s->ninserted) *
               ((sweep_single(s) + s->nstacks + (s->rebuilt != 0)) * nv + s->nfingerprints);
    return s->nbits * (s->keys ? 1 : s->nbpk) * nv;
}

_Static_assert(sizeof(exp_row_t) % _Alignof(exp_layer_t) == 0, "layers may follow rows");

/* Of those, the stack rows. */
static size_t sweep_nstack_rows(const sweep_t *s)
{
    exp_variant_t va[EXP_MAX_SCHEMES * EXP_MAX_LIST];
    return s->design_keys ? s->ndesign_rate * (s->nload ? s->nload : s->ninserted) *
                                s->nstacks * plan_variants(s, va)
                          : 0;
}

/* Refuse, before allocating any, a plan whose rows would not fit in memory (the memory
 * check's rule, base/memory.h): each row, its stack layers and the table row a run keeps
 * for it. The message names the largest sweep at the line of its longest list. */
static int plan_fits(const experiment_t *e, const sweep_t *sw, size_t total, size_t stacks,
                     char *err, size_t errlen)
{
    const char *what;
    double need = (double)total * (double)(sizeof(exp_row_t) + sizeof(csv_row_t)) +
                  (double)stacks * ROW_MAX_LAYERS * (double)sizeof(exp_layer_t);
    uint64_t avail = mem_available(&what);
    if (mem_fits(need, avail))
        return 0;
    size_t big = 0;
    for (size_t w = 1; w < e->nsweeps; w++)
        if (sweep_nrows(&sw[w]) > sweep_nrows(&sw[big]))
            big = w;
    const sweep_t *s = &sw[big];
    unsigned line;
    if (s->design_keys)
        line = s->ndesign_rate >= (s->nload ? s->nload : s->ninserted)
                   ? s->line[F_DESIGN_RATE]
                   : s->line[s->nload ? F_LOAD : F_INSERTED];
    else
        line = s->keys || s->nbits >= s->nbpk ? s->line[F_BITS] : s->line[F_BPK];
    return row_error(e, line, err, errlen, "the plan of %zu rows (%zu in this sweep) needs "
                     "%.1f GiB, only %.1f GiB available%s (got '%zu rows')", total,
                     sweep_nrows(s), need / 1073741824.0, (double)avail / 1073741824.0, what,
                     total);
}

int plan_rows(const experiment_t *e, int quick, exp_row_t **rows, size_t *nrows,
                    char *err, size_t errlen)
{
    const sweep_t *sw = quick ? e->quick : e->full;
    size_t total = 0, stacks = 0;
    for (size_t w = 0; w < e->nsweeps; w++) {
        total += sweep_nrows(&sw[w]);
        stacks += sweep_nstack_rows(&sw[w]);
    }
    int rc = plan_fits(e, sw, total, stacks, err, errlen);
    if (rc)
        return rc;
    /* One block, so that free(rows) frees it all: the rows, then the layers of the stack
     * rows, SIZING_MAX_LAYERS each. */
    size_t room = total ? total : 1;
    exp_row_t *all = calloc(1, room * sizeof *all + stacks * ROW_MAX_LAYERS *
                                                        sizeof(exp_layer_t));
    if (!all)
        return row_error(e, 0, err, errlen, "out of memory");
    exp_layer_t *layers = (exp_layer_t *)(void *)(all + room);
    for (size_t w = 0, at = 0; w < e->nsweeps; w++) {
        if (sw[w].exec[0])
            plan_exec_rows(&sw[w], all + at);
        else
            rc = sw[w].design_keys ? design_rows(e, &sw[w], all + at, layers, err, errlen)
                                   : plain_rows(e, &sw[w], all + at, err, errlen);
        layers += sweep_nstack_rows(&sw[w]) * ROW_MAX_LAYERS;
        if (rc) {
            plan_rows_free(all, total);
            return rc;
        }
        for (size_t n = sweep_nrows(&sw[w]); n > 0; n--)
            all[at++].sweep = w;
    }
    *rows = all;
    *nrows = total;
    return 0;
}

int plan_rows_check(const experiment_t *e, int quick, char *err, size_t errlen)
{
    exp_row_t *rows;
    size_t nrows;
    plan_checking = 1;
    int rc = plan_rows(e, quick, &rows, &nrows, err, errlen);
    plan_checking = 0;
    if (rc == 0)
        plan_rows_free(rows, nrows);
    return rc;
}
