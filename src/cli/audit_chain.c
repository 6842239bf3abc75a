/* audit_chain.c - `bloomsim audit CHAIN --keys N`: a library's scalable filter
 * (libraries/chain.h) created with the library's defaults, or with --capacity, --rate and
 * --expansion as its users create it, filled with N keys: its promise, its measured rate
 * with its interval, its exact rate, its bits per key beside the filter the library
 * reserves for N keys, the links and bit probes a lookup of an absent key makes, and the
 * keys swallowed. The row is a stack row (row.h) run by the runner as `run` runs one. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/json_out.h"
#include "estimate/estimator.h"
#include "estimate/simulate.h"
#include "libraries/registry.h"
#include "run/runner.h"
#include "run/tabulate.h"

static const char usage[] =
    "usage: bloomsim audit CHAIN --keys N [--capacity C] [--rate P] [--expansion E]\n"
    "                      [--tightening R] [--filters F] [--lookups L] [--threads T]\n"
    "                      [--seed S] [--json]\n"
    "\n"
    "Creates CHAIN, a library's scalable filter (bloomsim audit --list), with the\n"
    "library's defaults or with first capacity C, promised rate P, expansion E and\n"
    "tightening R (each link's rate over the last's, in (0, 1); where it takes them),\n"
    "inserts N keys, and prints the promise, the measured rate with its 95% interval,\n"
    "the exact rate over its links, the bits per key beside those of the filter the\n"
    "library reserves for N keys, the links and bit probes a lookup of an absent key\n"
    "makes, and the keys swallowed (a key a link already reports present, which the\n"
    "library does not add; expected counts, docs/model.md, Chains).\n"
    "\n"
    "  --filters F      chains built (default 16)\n"
    "  --lookups L      lookups over all filters, each link's (default 1.6e6)\n"
    "  --json           print the result as one JSON object (docs/json.md)\n";

typedef struct chain_args {
    uint64_t n, capacity, filters, lookups, threads, seed;
    double rate, expansion, tightening;
    int json, given_capacity, given_rate, given_expansion, given_tightening;
} chain_args_t;

/* The row: the chain's links after n keys, each link's geometry in the chain's scheme,
 * the estimator every link supports that the estimators prefer. Returns 0, or 2 after a
 * message. */
static int chain_plan(const library_chain_t *c, const chain_args_t *a,
                      const chain_params_t *cp, exp_row_t *row, exp_layer_t *layers)
{
    static sizing_layer_t link[CHAIN_MAX_LINKS];
    *row = (exp_row_t){.structure = STRUCT_STACK, .n = a->n, .scheme = c->scheme,
                       .filters = a->filters, .design_keys = cp->capacity,
                       .design_rate = cp->rate, .sizing = sizing_find("calculateparams")};
    row->stack = (exp_stack_t){0, cp->expansion, cp->tightening, c, 0};
    row->layers = layers;
    int st = chain_links(c, cp, a->n, link, &row->nlayers, &row->swallowed);
    unsigned k1;
    if (st == SIZING_OK)
        st = c->reserve(cp, a->n, &row->single_bits, &k1);
    if (st != SIZING_OK)
        return cli_die(2, "audit: %s (%s) at %llu keys: %s (got '--keys %llu')", c->name,
                       chain_describe(c, cp), (unsigned long long)a->n, chain_strerror(c, st),
                       (unsigned long long)a->n);
    unsigned supported = ~0u;
    uint64_t total = 0;
    for (size_t j = 0; j < row->nlayers; j++) {
        layers[j].size = link[j];
        int gs = c->scheme->geometry(link[j].m, link[j].k, 0, &layers[j].geom);
        if (gs != SCHEME_OK)
            return cli_die(2, "audit: %s's link %zu (%llu bits, k = %u): %s", c->name, j,
                           (unsigned long long)link[j].m, link[j].k, scheme_strerror(gs));
        unsigned ok = 0;
        for (size_t i = 0; i < est_count(); i++)
            ok |= (unsigned)(est_at(i)->supports(c->scheme, &layers[j].geom, link[j].n) != 0)
                  << i;
        supported &= ok;
        total += layers[j].geom.m;
    }
    row->est = est_at(0);
    for (size_t i = 1; i < est_count(); i++)
        if ((supported >> i & 1) && est_at(i)->prefer > row->est->prefer)
            row->est = est_at(i);
    row->geom = layers[0].geom;
    row->geom.m = total;
    row->bits_per_key = (double)total / (double)a->n;
    row->lookups_per_filter = a->lookups / a->filters + (a->lookups % a->filters != 0);
    row->strides = 4096;
    row->max_filters = a->filters;
    return 0;
}

static void print_chain(const library_chain_t *c, const chain_params_t *cp, const exp_row_t *row,
                        const csv_row_t *r, double probes, int defaults)
{
    const sizing_layer_t *last = &row->layers[row->nlayers - 1].size;
    printf("chain        %s\n             %s\n             %s\n", c->name, c->version,
           c->summary);
    printf("created      %s%s\n", chain_describe(c, cp), defaults ? " (the library's defaults)" : "");
    printf("keys         %llu inserted, %.1f swallowed (expected), %zu links (the newest "
           "holds %llu of %llu)\n", (unsigned long long)row->n, row->swallowed, row->nlayers,
           (unsigned long long)last->n, (unsigned long long)last->capacity);
    printf("promise      %g\n", cp->rate);
    printf("measured     %.4e  95%% [%.4e, %.4e]  %s, %llu filters\n", r->rate, r->ci_low,
           r->ci_high, row->est->name, (unsigned long long)r->filters);
    printf("  / promise  %.3f  [%.3f, %.3f]\n", r->rate / cp->rate, r->ci_low / cp->rate,
           r->ci_high / cp->rate);
    printf("exact        %.4e  (1 - prod(1 - r_j) over its links at their loads)\n", r->exact);
    if (isfinite(r->model)) /* the arithmetic's departure, where its scheme models it */
        printf("model        %.4e  (the same over the %s scheme's model of each link)\n",
               r->model, c->scheme->name);
    printf("bits/key     %.3f  (%llu bits); reserved for %llu keys: %.3f  (ratio %.3f)\n",
           row->bits_per_key, (unsigned long long)row->geom.m, (unsigned long long)row->n,
           (double)row->single_bits / (double)row->n, r->bits_ratio);
    printf("lookup       %.3f links asked (measured), %.3f bit probes (textbook fills)\n",
           r->layers_consulted, probes);
    printf("verdict      %s\n", r->ci_low > cp->rate ? "over its promise (the interval lies "
                                                       "above it)"
                                                     : "within its promise");
}

static int json_chain(const library_chain_t *c, const chain_params_t *cp, const exp_row_t *row,
                      const csv_row_t *r, double probes, uint64_t seed)
{
    json_object *o = json_out_new("audit CHAIN");
    json_out_text(o, "chain", c->name);
    json_out_text(o, "version", c->version);
    json_out_text(o, "rules", c->summary);
    json_out_num(o, "tightening", cp->tightening);
    json_object *p = json_out_obj(o, "created");
    json_out_count(p, "capacity", cp->capacity);
    json_out_num(p, "rate", cp->rate);
    if (c->has_expansion)
        json_out_num(p, "expansion", cp->expansion);
    if (c->has_tightening)
        json_out_num(p, "tightening", cp->tightening);
    json_out_count(o, "keys", row->n);
    json_out_num(o, "swallowed", row->swallowed);
    json_out_count(o, "links", row->nlayers);
    const sizing_layer_t *last = &row->layers[row->nlayers - 1].size;
    json_object *nl = json_out_obj(o, "newest_link");
    json_out_count(nl, "keys", last->n);
    json_out_count(nl, "capacity", last->capacity);
    json_out_num(o, "promise", cp->rate);
    json_object *m = json_out_obj(o, "measured");
    json_out_num(m, "rate", r->rate);
    json_out_num(m, "ci_low", r->ci_low);
    json_out_num(m, "ci_high", r->ci_high);
    json_out_text(m, "estimator", row->est->name);
    json_out_count(m, "filters", r->filters);
    json_out_num(m, "over_promise", r->rate / cp->rate);
    json_out_num(m, "ci_low_over_promise", r->ci_low / cp->rate);
    json_out_num(m, "ci_high_over_promise", r->ci_high / cp->rate);
    json_out_num(o, "exact", r->exact);
    if (isfinite(r->model))
        json_out_num(o, "model", r->model);
    json_out_count(o, "bits", row->geom.m);
    json_out_num(o, "bits_per_key", row->bits_per_key);
    json_out_num(o, "reserved_bits_per_key", (double)row->single_bits / (double)row->n);
    json_out_num(o, "bits_ratio", r->bits_ratio);
    json_out_num(o, "links_asked", r->layers_consulted);
    json_out_num(o, "probes", probes);
    json_out_bool(o, "over_promise", r->ci_low > cp->rate);
    json_out_count(o, "seed", seed);
    return json_out_print(o, "audit");
}

/* The options; the chain's parameters into *cp. Returns -1 to go on, else the exit
 * status after a message. */
static int chain_args(const library_chain_t *c, int argc, char **argv, chain_args_t *ap,
                      chain_params_t *cp)
{
    chain_args_t a = *ap;
    const cli_opt_t opts[] = {
        CLI_OPT_KEYS(&a.n),
        {.name = "--capacity", .kind = CLI_COUNT, .dst = &a.capacity, .min = 0,
         .max = UINT64_MAX, .must = "a whole number", .given = &a.given_capacity},
        {.name = "--rate", .kind = CLI_REAL, .dst = &a.rate, .lo = -1e300, .hi = 1e300,
         .must = "a number", .given = &a.given_rate},
        {.name = "--expansion", .kind = CLI_REAL, .dst = &a.expansion, .lo = -1e300,
         .hi = 1e300, .must = "a number", .given = &a.given_expansion},
        {.name = "--tightening", .kind = CLI_REAL, .dst = &a.tightening, .lo = -1e300,
         .hi = 1e300, .must = "a number", .given = &a.given_tightening},
        {.name = "--filters", .kind = CLI_COUNT, .dst = &a.filters, .min = 2, .max = 1 << 20,
         .must = "a whole number from 2 to 2^20"},
        {.name = "--lookups", .kind = CLI_COUNT, .dst = &a.lookups, .min = 1,
         .max = UINT64_C(1) << 50, .must = "a whole number from 1 to 2^50"},
        CLI_OPT_THREADS(&a.threads), CLI_OPT_SEED(&a.seed),
        {.name = "--json", .kind = CLI_FLAG, .dst = &a.json},
    };
    cli_spec_t spec = {.command = "audit", .usage = usage, .unknown = "argument",
                       .opts = opts, .nopts = sizeof opts / sizeof opts[0]};
    /* argv[1] is the chain's name: parse what follows it. */
    int rc = cli_parse(&spec, argc - 1, argv + 1);
    if (rc >= 0)
        return rc;
    if (!a.n)
        return cli_die(2, "audit: %s needs --keys (got no --keys)", c->name);
    if (a.lookups < a.filters)
        return cli_die(2, "audit: --lookups must be at least --filters (got '--lookups %llu')",
                       (unsigned long long)a.lookups);
    if (a.given_expansion && !c->has_expansion)
        return cli_die(2, "audit: %s takes no expansion (got '--expansion %g')", c->name,
                       a.expansion);
    if (a.given_tightening && !c->has_tightening)
        return cli_die(2, "audit: %s takes no tightening: its own is %g (got '--tightening %g')",
                       c->name, c->defaults.tightening, a.tightening);
    *cp = c->defaults;
    if (a.given_capacity)
        cp->capacity = a.capacity;
    if (a.given_rate)
        cp->rate = a.rate;
    if (a.given_expansion)
        cp->expansion = a.expansion;
    if (a.given_tightening)
        cp->tightening = a.tightening;
    int st = chain_check(c, cp);
    if (st != SIZING_OK) {
        const char *flag = st == CHAIN_ECAPACITY ? "--capacity" : st == CHAIN_ERATE ? "--rate"
                           : st == CHAIN_ETIGHTENING                 ? "--tightening"
                                                                     : "--expansion";
        double v = st == CHAIN_ECAPACITY ? (double)cp->capacity : st == CHAIN_ERATE ? cp->rate
                   : st == CHAIN_ETIGHTENING                        ? cp->tightening
                                                                    : cp->expansion;
        return cli_die(2, "audit: %s: %s (got '%s %g')", c->name, chain_strerror(c, st), flag, v);
    }
    *ap = a;
    return -1;
}

int cli_audit_chain(const library_chain_t *c, int argc, char **argv)
{
    chain_args_t a = {.filters = 16, .lookups = 1600000, .seed = 1};
    chain_params_t cp;
    int rc = chain_args(c, argc, argv, &a, &cp);
    if (rc >= 0)
        return rc;
    char err[EXP_ERR_LEN] = "";
    if (!a.threads && cli_default_threads("audit", &a.threads, err, sizeof err))
        return cli_die(2, "%s", err);
    exp_layer_t *layers = calloc(CHAIN_MAX_LINKS, sizeof *layers);
    if (!layers)
        return cli_die(1, "audit: out of memory");
    exp_row_t row;
    if ((rc = chain_plan(c, &a, &cp, &row, layers)) != 0) {
        free(layers);
        return rc;
    }
    /* Memory before any work, by the rule `run` checks it. */
    const char *limit;
    uint64_t avail = runner_mem_limit(&limit);
    double need = runner_row_memory(&row, (int)a.threads);
    if (!runner_fits(need, avail)) {
        free(layers);
        return cli_die(2, "audit: %s at %llu keys (%zu links, %llu bits) needs %.1f GiB, only "
                          "%.1f GiB available%s (got '--keys %llu')", c->name,
                       (unsigned long long)a.n, row.nlayers, (unsigned long long)row.geom.m,
                       need / 1073741824.0, (double)avail / 1073741824.0, limit,
                       (unsigned long long)a.n);
    }
    row_out_t out;
    if (sim_out_alloc(&out, a.filters)) {
        free(layers);
        return cli_die(1, "audit: out of memory for %llu filters", (unsigned long long)a.filters);
    }
    cli_catch_stop();
    cli_progress_t tp = {.name = c->name};
    progress_t ps;
    progress_start(&ps, isatty(STDERR_FILENO) ? cli_progress_show : NULL, &tp, 1,
                   est_row_work(&row), 0);
    const row_run_t run = {.row = &row, .seed = a.seed, .threads = (int)a.threads, .out = &out,
                           .ps = &ps, .stop = &cli_stop_signal};
    csv_row_t r;
    rc = runner_row("audit", "audit", &run, &r, err, sizeof err);
    cli_progress_clear(&tp);
    sim_out_free(&out);
    if (rc == RUN_INTERRUPTED) {
        free(layers);
        return cli_die(128 + atomic_load(&cli_stop_signal), "audit: stopped (got signal %d)",
                       atomic_load(&cli_stop_signal));
    }
    if (rc != 0) {
        free(layers);
        return cli_die(1, "audit: %s", err);
    }
    sizing_layer_t *links = malloc(row.nlayers * sizeof *links);
    double probes = NAN;
    if (links) {
        for (size_t j = 0; j < row.nlayers; j++)
            links[j] = layers[j].size;
        probes = chain_probes(links, row.nlayers, NULL);
        free(links);
    }
    int defaults = !a.given_capacity && !a.given_rate && !a.given_expansion &&
                   !a.given_tightening;
    if (a.json)
        rc = json_chain(c, &cp, &row, &r, probes, a.seed);
    else
        print_chain(c, &cp, &row, &r, probes, defaults), rc = 0;
    free(layers);
    return rc;
}
