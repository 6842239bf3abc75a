/* audit.c - `bloomsim audit LIBRARY`: does a library's filter keep its promise? The row
 * that measures the library's design (audit.h) runs through the runner as a row of `run`
 * does (memory rule, progress, signals: runner_row), and its estimate is printed beside
 * the promise, the uniform and structural exact rates and the model. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audit/audit.h"
#include "audit/exec.h"
#include "cli/audit_json.h"
#include "cli/cli.h"
#include "experiment/plan.h"
#include "run/runner.h"
#include "estimate/simulate.h"
#include "libraries/registry.h"
#include "fingerprint/real.h"
#include "fingerprint/registry.h"

/* A reference rate beside the measured one: their ratio, and how many standard errors
 * apart (cli_print_z_meaning says what that means, once, after the last). */
static void print_against(const char *label, double ref, const csv_row_t *r, const char *what)
{
    if (isnan(ref))
        return;
    printf("  %-10s %-12.4g measured / this = %.4g", label, ref, r->rate / ref);
    if (r->stderr_ > 0)
        printf(" (%+.1f standard errors)", (r->rate - ref) / r->stderr_);
    printf("\n             %s\n", what);
}

/* The "target not reached" line: why the row stopped short of its precision target. */
static void print_target(const exp_row_t *row, const csv_row_t *r, const audit_range_t *g)
{
    if (g->on)
        printf("  target     not reached: the key file holds fewer queried lines than an ideal "
               "filter needs\n             for the precision asked (%llu of %llu)\n",
               (unsigned long long)g->queries, (unsigned long long)g->wanted);
    else {
        double rse = r->rate > 0 ? r->stderr_ / r->rate : INFINITY;
        printf("  target     not reached: %.3g%% relative standard error, asked %g%%, ", 100 * rse,
               100 * r->rse_target);
        if (rse <= r->rse_target) { /* below the target, from too few to trust: stats_trusted */
            if (sim_one_filter(row))
                printf("from %llu batches of one filter's queries (at least %d are needed)",
                       (unsigned long long)r->filters, STATS_MIN_SPREAD_FILTERS);
            else
                printf("from the spread of %llu filters (at least %d are needed to trust one)",
                       (unsigned long long)r->filters, STATS_MIN_SPREAD_FILTERS);
        } else
            printf("after %llu filters", (unsigned long long)r->filters);
        /* A key file's queried lines are each asked once: the row ends where they do. */
        uint64_t q = row_real_keys(row) ? keyset_queries_total(&row->keys) : UINT64_MAX;
        if (r->filters && r->lookups + r->lookups / r->filters > q)
            cli_print_file_exhausted(row->keys.inserts, q, r->lookups);
        else
            printf("%s\n", r->filters >= row->max_filters ? ": the most --max-filters allows"
                                                          : ": the most lookups it makes");
    }
}

/* What the audit measured, beside what the library promised. */
static void print_audit(const library_t *lib, const audit_design_t *d, const exp_row_t *row,
                        const csv_row_t *r, int threads, uint64_t seed,
                        const audit_outcome_t *o, const audit_range_t *g)
{
    printf("%s: %s\n", lib->name, lib->version);
    printf("  design     %llu keys at %g (sizing rule %s): m = %llu bits (%.3g MiB; the rule "
           "computes %llu%s), k = %u, scheme %s\n", (unsigned long long)d->n, d->p,
           lib->sizing->name, (unsigned long long)d->m, (double)d->m / 8388608.0,
           (unsigned long long)d->m_computed,
           d->m < d->m_computed ? ", which the library's int arithmetic wraps to m" : "", d->k,
           lib->scheme->name);
    if (isnan(d->bits_per_key))
        printf("  promised   %g\n", d->p);
    else
        printf("  promised   none: configured by %g bits per key, which stand for %.4g "
               "(-ln p / ln^2 2 = b), shown as the promise\n", d->bits_per_key, d->p);
    if (row_real_keys(row)) {
        char shown[4200] = "";
        if (row->keys.kind->show)
            row->keys.kind->show(&row->keys, 1, shown, sizeof shown);
        printf("  keys       %s%s", row->keys.kind->name, shown);
        printf(", %s\n  hash       %s\n", row->words->key_bytes, row->words->hash);
    }
    if (g->on) {
        cli_print_range(g, &row->keys, r->rse_target);
        printf("             one filter, built once, %s estimator\n", row->est->name);
    } else {
        printf("  measured   %-12.4g 95%% interval %.4g to %.4g; standard error %.2g (%.2f%% "
               "relative)\n", r->rate, r->ci_low, r->ci_high, r->stderr_,
               r->rate > 0 ? 100 * r->stderr_ / r->rate : 0.0);
        printf("             %llu filters, %s estimator\n", (unsigned long long)r->filters,
               row->est->name);
    }
    if (sim_counts(row) && !g->on)
        printf("             %llu lookups, %llu false positives\n",
               (unsigned long long)r->lookups, (unsigned long long)r->false_positives);
    if (row_real_keys(row) && !g->on && keyset_queries_max(&row->keys) != UINT64_MAX)
        printf("             each filter, keys of its own, asked all %llu of its queried keys;"
               " the interval\n             is over filters\n",
               (unsigned long long)keyset_queries_max(&row->keys));
    cli_print_check(&o->check, d->n);
    if (r->target_met == 0)
        print_target(row, r, g);
    if (g->on)
        printf("  ratio      %.4g times the promise (exact, over the range)\n", r->rate / d->p);
    else
        printf("  ratio      %.4g times the promise (interval %.4g to %.4g)\n", r->rate / d->p,
               r->ci_low / d->p, r->ci_high / d->p);
    print_against("uniform", d->uniform, r, "exact rate of independent uniform probes at this "
                  "m, n and k");
    print_against("structure", d->structure, r, "exact rate of its blocks, lines or slices "
                  "with uniform positions inside them");
    print_against("model", d->model, r, "the model of its arithmetic (docs/model.md, Reference "
                  "rates)");
    if (r->stderr_ > 0)
        cli_print_z_meaning();
    printf("  cause      %s\n", lib->cause);
    if (*lib->report)
        printf("  report     %s\n", lib->report);
    printf("  seconds    %.1f on %d thread%s, seed %llu\n", r->seconds, threads,
           threads == 1 ? "" : "s", (unsigned long long)seed);
    printf("  verdict    %s\n", o->verdict.line);
    if (row_real_keys(row))
        printf("Real keys through the library's own hash: this measures the filter a user "
               "of these keys runs (docs/model.md, Key sets and real hashes).\n");
    else
        printf("Ideal uniform hash words of the library's width: this measures its index "
               "arithmetic and sizing, not its hash function.\n");
}

/* The options that set a key set's parameter (keyset_kind_t.param_flag), each with
 * its value (NULL: not given). */
enum { AUDIT_KEY_PARAMS = 2 };
typedef struct audit_key_param {
    const char *flag, *value;
} audit_key_param_t;

/* What audit was asked. */
typedef struct audit_args {
    const library_t *lib;
    const fp_filter_t *fpf; /* or a fingerprint filter of a real library (audit_fp.c) */
    uint64_t n, seed, max_filters, threads;
    double p, precision, bpk, timeout, fail_above;
    uint64_t fbits;   /* --fingerprint-bits, 0: not given */
    uint64_t queries; /* --queries, 0: not given (audit.h's audit_range_t) */
    /* CF.RESERVE's parameters for a filter that takes them (fp_takes_reserve):
     * --capacity, --bucket-size, --max-iterations, --expansion; UINT64_MAX: not given */
    uint64_t cf[4];
    int list, tsv, hashes, json;
    const char *key_set, *exec;
    audit_key_param_t key_params[AUDIT_KEY_PARAMS]; /* --key-prefix, --key-file */
} audit_args_t;

/* The key set --key-set names (none: the default, ideal), or NULL: no such key set. */
static const keyset_kind_t *key_kind(const audit_args_t *a)
{
    return a->key_set ? keyset_kind_find(a->key_set) : keyset_kind_at(0);
}

/* The value given to the option that sets kind's parameter (NULL: none). */
static const char *key_param(const audit_args_t *a, const keyset_kind_t *kind)
{
    for (size_t i = 0; kind->param_flag && i < AUDIT_KEY_PARAMS; i++)
        if (strcmp(a->key_params[i].flag, kind->param_flag) == 0)
            return a->key_params[i].value;
    return NULL;
}

static int library_name(void *ctx, const char *arg)
{
    audit_args_t *a = ctx;
    if (a->lib || a->fpf)
        return cli_die(2, "audit: unknown argument (got '%s'); see bloomsim audit --help", arg);
    const fp_filter_t *f = fp_filter_find(arg);
    if (f && f->real) {
        a->fpf = f;
        return 0;
    }
    if (!(a->lib = library_find(arg)))
        return cli_die(2, "audit: unknown library (got '%s'); bloomsim audit --list names "
                          "them", arg);
    return 0;
}

static int check_key_args(const audit_args_t *a);

/* Options the mode chosen (--list, --exec or a library) does not use, refused: -1, or 2
 * after the line. --list lists; --timeout bounds an adapter's answer; --exec's adapter
 * builds its filters itself, one at a time, with no threads of ours. */
static int audit_refuse_unused(const cli_spec_t *spec, int argc, char **argv,
                               const audit_args_t *a)
{
    static const char *const not_list[] = {
        "--keys", "--rate", "--bits-per-key", "--key-set", "--key-prefix", "--key-file",
        "--precision", "--max-filters", "--threads", "--seed", "--exec", "--timeout",
        "--fingerprint-bits", "--queries", NULL};
    static const char *const not_exec[] = {"--threads", NULL};
    static const char *const not_library[] = {"--timeout", NULL};
    static const char *const not_library_fp[] = {"--fingerprint-bits", NULL};
    if (a->list && a->lib)
        return cli_die(2, "audit: --list lists every library: a library name does nothing "
                       "with it (got '%s')", a->lib->name);
    if (a->list)
        return cli_refuse_unused(spec, argc, argv, not_list, "does nothing with --list");
    if (a->exec)
        return cli_refuse_unused(spec, argc, argv, not_exec, "does nothing with --exec: the "
                                 "adapter builds its filters itself, one at a time");
    int rc = cli_refuse_unused(spec, argc, argv, not_library, "only means something with "
                               "--exec: it bounds the adapter's answer");
    return rc >= 0 ? rc : cli_refuse_unused(spec, argc, argv, not_library_fp, "only means "
                                            "something with --exec: it designs an adapter's "
                                            "fingerprint filter");
}

/* CF.RESERVE's options: refused but for a filter that takes them; given, the filter is the
 * chain of those parameters, redisbloom-cuckoo/E/B/I (past 10^9 each is refused as
 * RedisBloom refuses it, from 32768, 255 and 65535). Returns -1, or 2 after the line. */
static int cf_reserve_args(audit_args_t *a)
{
    static const char *const cf_flag[4] = {"--capacity", "--bucket-size", "--max-iterations",
                                           "--expansion"};
    for (size_t i = 0; i < 4; i++)
        if (a->cf[i] != UINT64_MAX && !(a->fpf && fp_takes_reserve(a->fpf)))
            return cli_die(2, "audit: %s is CF.RESERVE's, for redisbloom-cuckoo (got '%s "
                              "%llu'%s%s)", cf_flag[i], cf_flag[i], (unsigned long long)a->cf[i],
                           a->fpf || a->lib ? " with " : "",
                           a->fpf ? a->fpf->name : a->lib ? a->lib->name : "");
    if (a->fpf && fp_takes_reserve(a->fpf) && (a->p >= 0 || a->bpk >= 0))
        return cli_die(2, "audit: %s takes no %s: CF.RESERVE takes a capacity (--capacity), "
                          "and a filter's rate follows from its bucket size (got '%s %g')",
                       a->fpf->name, a->p >= 0 ? "rate" : "bits per key",
                       a->p >= 0 ? "--rate" : "--bits-per-key", a->p >= 0 ? a->p : a->bpk);
    if (a->fpf && fp_takes_reserve(a->fpf) && cli_audit_cf_refused(a->fpf, a->cf))
        return 2;
    if (!(a->fpf && fp_takes_reserve(a->fpf)) ||
        (a->cf[1] == UINT64_MAX && a->cf[2] == UINT64_MAX && a->cf[3] == UINT64_MAX))
        return -1;
    uint64_t v[3] = {a->cf[3], a->cf[1], a->cf[2]}, dflt[3] = {1, 2, 20};
    char name[96];
    for (size_t i = 0; i < 3; i++)
        v[i] = v[i] == UINT64_MAX ? dflt[i] : v[i] > 1000000000 ? 1000000000 : v[i];
    snprintf(name, sizeof name, "redisbloom-cuckoo/%llu/%llu/%llu", (unsigned long long)v[0],
             (unsigned long long)v[1], (unsigned long long)v[2]);
    if (!(a->fpf = fp_redisbloom_cuckoo_variant(name)))
        return cli_die(2, "audit: too many redisbloom-cuckoo variants (got '%s')", name);
    return -1;
}

static int parse_audit_args(int argc, char **argv, audit_args_t *a)
{
    const cli_opt_t opts[] = {
        {.name = "--list", .kind = CLI_FLAG, .dst = &a->list},
        {.name = "--tsv", .kind = CLI_FLAG, .dst = &a->tsv},
        {.name = "--hashes", .kind = CLI_FLAG, .dst = &a->hashes},
        CLI_OPT_KEYS(&a->n), CLI_OPT_RATE(&a->p),
        {.name = "--bits-per-key", .kind = CLI_REAL, .dst = &a->bpk, .lo = 0, .hi = 1e6,
         .must = "a number of bits from 0 to 10^6"},
        {.name = "--fingerprint-bits", .kind = CLI_COUNT, .dst = &a->fbits, .min = 1,
         .max = 64, .must = "a whole number of bits from 1 to 64"},
        {.name = "--key-set", .kind = CLI_TEXT, .dst = &a->key_set, .min = 1},
        {.name = a->key_params[0].flag, .kind = CLI_TEXT, .dst = &a->key_params[0].value},
        {.name = a->key_params[1].flag, .kind = CLI_TEXT, .dst = &a->key_params[1].value,
         .min = 1, .must = "a file name"},
        {.name = "--precision", .kind = CLI_RATE, .dst = &a->precision},
        {.name = "--max-filters", .kind = CLI_COUNT, .dst = &a->max_filters, .min = 2,
         .max = UINT64_C(1) << 40, .must = "a whole number from 2 to 2^40"},
        CLI_OPT_THREADS(&a->threads), CLI_OPT_SEED(&a->seed),
        {.name = "--exec", .kind = CLI_TEXT, .dst = &a->exec, .min = 1, .must = "a command"},
        {.name = "--timeout", .kind = CLI_REAL, .dst = &a->timeout, .lo = 0, .hi = 1e9,
         .must = "a number of seconds >= 0"},
        {.name = "--fail-above", .kind = CLI_REAL, .dst = &a->fail_above, .lo = DBL_MIN,
         .hi = 1e9, .must = "a ratio above 0 and below 10^9, such as 1.1"},
        {.name = "--json", .kind = CLI_FLAG, .dst = &a->json},
        {.name = "--queries", .kind = CLI_COUNT, .dst = &a->queries, .min = AUDIT_RANGES,
         .max = UINT64_C(1) << 56, .must = "a whole number of queries from 8 to 2^56"},
        {.name = "--capacity", .kind = CLI_COUNT, .dst = &a->cf[0], .min = 0,
         .max = INT64_MAX, .must = "a whole number up to 2^63 - 1 (RedisBloom: \"Bad "
         "capacity\" past it; at least 2 x the bucket size)"},
        {.name = "--bucket-size", .kind = CLI_COUNT, .dst = &a->cf[1], .min = 0,
         .max = UINT64_C(1) << 40, .must = "a whole number (RedisBloom takes 1 to 255)"},
        {.name = "--max-iterations", .kind = CLI_COUNT, .dst = &a->cf[2], .min = 0,
         .max = UINT64_C(1) << 40, .must = "a whole number (RedisBloom takes 1 to 65535)"},
        {.name = "--expansion", .kind = CLI_COUNT, .dst = &a->cf[3], .min = 0,
         .max = UINT64_C(1) << 40, .must = "a whole number (RedisBloom takes 0 to 32768)"},
    };
    cli_spec_t spec = {.command = "audit", .help = cli_audit_help, .unknown = "argument", .opts = opts,
                       .nopts = sizeof opts / sizeof opts[0], .positional = library_name,
                       .ctx = a};
    int rc = cli_parse(&spec, argc, argv);
    if (rc < 0)
        rc = audit_refuse_unused(&spec, argc, argv, a);
    if (rc >= 0)
        return rc;
    if ((rc = cf_reserve_args(a)) >= 0)
        return rc;
    if (a->list)
        return cli_audit_list(a->tsv, a->hashes);
    if (a->tsv || a->hashes)
        return cli_die(2, "audit: %s goes with --list (got '%s' alone)",
                       a->tsv ? "--tsv" : "--hashes", a->tsv ? "--tsv" : "--hashes");
    if (a->exec) {
        if (a->lib || a->fpf)
            return cli_die(2, "audit: --exec measures its adapter, not a library (got '%s')",
                           a->lib ? a->lib->name : a->fpf->name);
        int designs = (a->p >= 0) + (a->bpk >= 0) + (a->fbits > 0);
        if (!a->n || designs != 1)
            return cli_die(2, "audit: --exec needs --keys and one of --rate, --bits-per-key "
                              "and --fingerprint-bits (got %s)", !a->n ? "no --keys" :
                           designs ? "more than one" : "none");
        if (a->bpk == 0)
            return cli_die(2, "audit: --exec takes bits per key above 0 (got "
                              "'--bits-per-key 0')");
        return check_key_args(a);
    }
    if (a->p >= 0 && a->bpk >= 0)
        return cli_die(2, "audit: give --rate or --bits-per-key, not both (got both)");
    int needs_rate = !(a->fpf && fp_takes_reserve(a->fpf)); /* its promise is its own */
    if ((!a->lib && !a->fpf) || !a->n || (needs_rate && a->p < 0 && a->bpk < 0))
        return cli_die(2, "audit: LIBRARY, --keys and --rate (or --bits-per-key) are required "
                          "(got %s)", !a->lib && !a->fpf ? "no library" : !a->n ? "no --keys" : "no --rate");
    return check_key_args(a);
}

/* The key set options: a known key set, a parameter only for the key set it belongs to
 * (keyset_kind_t.param_flag), and one it needs. */
static int check_key_args(const audit_args_t *a)
{
    const keyset_kind_t *kind = key_kind(a);
    if (!kind)
        return cli_die(2, "audit: unknown key set; expected %s (got '--key-set %s')",
                       keyset_names_list(), a->key_set);
    for (size_t i = 0; i < AUDIT_KEY_PARAMS; i++) {
        const audit_key_param_t *kp = &a->key_params[i];
        const keyset_kind_t *owner = keyset_kind_by_param(kp->flag);
        if (kp->value && owner != kind)
            return cli_die(2, "audit: %s goes with --key-set %s (got '%s %s')", kp->flag,
                           owner ? owner->name : "?", kp->flag, kp->value);
    }
    if (kind->param_needed && !key_param(a, kind))
        return cli_die(2, "audit: --key-set %s needs %s %s (got no %s)", kind->name,
                       kind->param_flag, kind->param_meta, kind->param_flag);
    if (a->queries && !(keyset_kind_real(kind) && !kind->per_filter))
        return cli_die(2, "audit: --queries states the range of a key set that is the same "
                       "in every filter (seq, seq-str, url, file); %s keys are sampled (got "
                       "'--queries %llu'%s%s)", kind->name, (unsigned long long)a->queries,
                       a->key_set ? " with --key-set " : "", a->key_set ? a->key_set : "");
    if (a->queries % AUDIT_RANGES)
        return cli_die(2, "audit: --queries must be a multiple of %d, the successive ranges "
                       "whose rates are shown (got '--queries %llu')", AUDIT_RANGES,
                       (unsigned long long)a->queries);
    return -1;
}

/* Make the row measure the real keys the options name (nothing for ideal). Returns -1,
 * or an exit status after its message. */
static int audit_keys(const audit_args_t *a, exp_row_t *row)
{
    const keyset_kind_t *kind = key_kind(a);
    if (!keyset_kind_real(kind))
        return -1;
    const char *param = key_param(a, kind);
    const int path = kind->param_path;
    char err[EXP_ERR_LEN];
    if (plan_real_keys(row, a->lib, kind, param, err, sizeof err))
        return cli_die(2, "audit: %s (got '--key-set %s%s%s%s%s')", err, a->key_set,
                       param && !path ? " " : "", param && !path ? kind->param_flag : "",
                       param && !path ? " " : "", param && !path ? param : "");
    if (!path)
        return -1;
    if (plan_key_file(row, kind, param, param, err, sizeof err))
        return cli_die(2, "audit: %s (got '%s %s')", err, kind->param_flag, param);
    return -1;
}

static int audit_measure(const audit_args_t *ap, const exp_row_t *rowp, const audit_design_t *dp,
                         audit_range_t *g);

/* The stated range of a one-filter audit (audit.h's audit_range_t) into *g, and the row
 * that asks it: AUDIT_RANGES batches of Q / AUDIT_RANGES queries, no more (simulate.h's
 * sim_wanted adds none). Q is --queries, or the default at the rate of an ideal filter of
 * the design (its structure's exact rate, else the uniform one), cut to the whole ranges
 * a key file's lines hold. Returns -1, or an exit status after its message. */
static int plan_range(const audit_args_t *a, exp_row_t *row, const audit_design_t *d,
                      audit_range_t *g)
{
    const double ideal = isnan(d->structure) ? d->uniform : d->structure;
    uint64_t Q = a->queries ? a->queries : audit_range_default(ideal, a->precision);
    if (!Q)
        return cli_die(2, "audit: no default range at an ideal rate of %g for %s's design: "
                       "give --queries Q (got '--keys %llu')", ideal, a->lib->name,
                       (unsigned long long)a->n);
    *g = (audit_range_t){.on = 1, .given = a->queries > 0, .first = d->n,
                         .planned_at = ideal, .ranges = AUDIT_RANGES};
    const uint64_t lines = keyset_queries_total(&row->keys);
    if (Q > lines) { /* a key file's lines after the inserted ones */
        if (a->queries)
            return cli_die(2, "audit: --queries %llu asks more than the %llu lines of %s after "
                           "its first %llu (got '--queries %llu')",
                           (unsigned long long)Q, (unsigned long long)lines, row->keys.path,
                           (unsigned long long)d->n, (unsigned long long)Q);
        g->wanted = Q;
        Q = lines / AUDIT_RANGES * AUDIT_RANGES;
        if (!Q)
            return cli_die(2, "audit: %s holds %llu lines after its first %llu: fewer than "
                           "the %d ranges of one line a range needs (got '--key-file %s')",
                           row->keys.path, (unsigned long long)lines, (unsigned long long)d->n,
                           AUDIT_RANGES, row->keys.path);
    }
    char err[EXP_ERR_LEN];
    if (keyset_check(&row->keys, Q, err, sizeof err))
        return cli_die(2, "audit: %s (got '--queries %llu')", err, (unsigned long long)Q);
    g->queries = Q;
    g->per_range = Q / AUDIT_RANGES;
    row->filters = row->max_filters = AUDIT_RANGES;
    row->lookups_per_filter = g->per_range;
    return -1;
}

/* audit --exec, with the key set the options name (none: its own random keys). */
static int audit_exec(const audit_args_t *a)
{
    const keyset_kind_t *kind = key_kind(a);
    const int real = keyset_kind_real(kind);
    keyset_t ks;
    char err[EXP_ERR_LEN], label[300];
    if (real) {
        const char *param = key_param(a, kind);
        const char *opt = param ? kind->param_flag : "--key-set";
        const char *val = param ? param : a->key_set;
        if (keyset_open(&ks, kind, a->seed, a->n, param, err, sizeof err))
            return cli_die(2, "audit: %s (got '%s %s')", err, opt, val);
        if (keyset_check(&ks, kind->min_queries, err, sizeof err)) {
            keyset_close(&ks);
            return cli_die(2, "audit: %s (got '%s %s')", err, opt, val);
        }
        /* One filter over a stated range: Q within what the key set holds */
        const uint64_t lines = keyset_queries_total(&ks);
        int st = -1;
        if (!kind->per_filter && a->queries > lines)
            st = cli_die(2, "audit: --queries %llu asks more than the %llu lines of %s after "
                         "its first %llu (got '--queries %llu')",
                         (unsigned long long)a->queries, (unsigned long long)lines, ks.path,
                         (unsigned long long)a->n, (unsigned long long)a->queries);
        else if (!kind->per_filter && lines < AUDIT_RANGES)
            st = cli_die(2, "audit: %s holds %llu lines after its first %llu: fewer than the "
                         "%d ranges of one line a range needs (got '%s %s')", ks.path,
                         (unsigned long long)lines, (unsigned long long)a->n, AUDIT_RANGES,
                         opt, val);
        else if (!kind->per_filter && a->queries &&
                 keyset_check(&ks, a->queries, err, sizeof err))
            st = cli_die(2, "audit: %s (got '--queries %llu')", err,
                         (unsigned long long)a->queries);
        if (st >= 0) {
            keyset_close(&ks);
            return st;
        }
        snprintf(label, sizeof label, "%s%s%s", a->key_set, param ? " " : "",
                 param ? param : "");
    }
    int rc = cli_audit_exec(&(audit_exec_t){
        .cmd = a->exec, .n = a->n, .seed = a->seed, .max_filters = a->max_filters, .p = a->p,
        .bits_per_key = a->bpk, .precision = a->precision, .timeout = a->timeout,
        .fingerprint_bits = (unsigned)a->fbits,
        .keys = real ? &ks : NULL, .keys_label = label, .fail_above = a->fail_above,
        .queries = a->queries}, a->json);
    if (real)
        keyset_close(&ks);
    return rc;
}

int cli_audit(int argc, char **argv)
{
    audit_args_t a = {.seed = 1, .max_filters = AUDIT_MAX_FILTERS, .p = -1, .bpk = -1,
                      .fail_above = -1,
                      .timeout = 600, .precision = AUDIT_PRECISION, .threads = 0,
                      .key_params = {{"--key-prefix", NULL}, {"--key-file", NULL}},
                      .cf = {UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX}};
    const library_chain_t *chain = argc > 1 ? chain_find(argv[1]) : NULL;
    if (chain) /* a library's scalable filter: its own options (audit_chain.c) */
        return cli_audit_chain(chain, argc, argv);
    int rc = parse_audit_args(argc, argv, &a);
    if (rc >= 0)
        return rc;
    if (a.exec)
        return audit_exec(&a);
    if (a.fpf) {
        if (a.key_set || a.json || a.fail_above >= 0)
            return cli_die(2, "audit: %s is measured on ideal hashes, in text: --key-set, --json and "
                           "--fail-above go with a library (got '%s')", a.fpf->name,
                           a.key_set ? "--key-set" : a.json ? "--json" : "--fail-above");
        char why[EXP_ERR_LEN] = "";
        if (!a.threads && cli_default_threads("audit", &a.threads, why, sizeof why))
            return cli_die(2, "%s", why);
        return cli_audit_fingerprint(&(cli_audit_fp_t){
            .filter = a.fpf, .n = a.n, .seed = a.seed, .max_filters = a.max_filters,
            .threads = a.threads, .rate = a.p, .bits_per_key = a.bpk, .precision = a.precision,
            .cf = {a.cf[0], a.cf[1], a.cf[2], a.cf[3]}});
    }
    exp_row_t row;
    audit_design_t d;
    char err[EXP_ERR_LEN] = "";
    if (!a.threads && cli_default_threads("audit", &a.threads, err, sizeof err))
        return cli_die(2, "%s", err);
    const audit_ask_t ask = {.lib = a.lib, .n = a.n, .precision = a.precision,
                             .max_filters = a.max_filters};
    if (a.bpk >= 0 ? audit_plan_bpk(&ask, a.bpk, &row, &d, err, sizeof err)
                   : audit_plan(&ask, a.p, &row, &d, err, sizeof err))
        return cli_die(2, "%s", err);
    if ((rc = audit_keys(&a, &row)) >= 0)
        return rc;
    /* Filters of their own with a bound on their queries (filter-bench's n counters):
     * each asked all of them, the same range whatever the precision; more filters carry
     * the rest of the target (docs/model.md). */
    if (row_real_keys(&row) && keyset_queries_max(&row.keys) != UINT64_MAX)
        row.lookups_per_filter = keyset_queries_max(&row.keys);
    audit_range_t g = {0};
    if (!sim_one_filter(&row) || (rc = plan_range(&a, &row, &d, &g)) < 0)
        rc = audit_measure(&a, &row, &d, &g);
    keyset_close(&row.keys);
    return rc;
}

/* Run the planned row and print what it measured; a one-filter row's range into *g. */
static int audit_measure(const audit_args_t *ap, const exp_row_t *rowp, const audit_design_t *dp,
                         audit_range_t *g)
{
    audit_args_t a = *ap;
    exp_row_t row = *rowp;
    audit_design_t d = *dp;
    char err[EXP_ERR_LEN] = "";
    int rc;
    /* Memory before any work, by the rule `run` checks it. */
    const char *limit;
    uint64_t avail = runner_mem_limit(&limit);
    double need = runner_row_memory(&row, (int)a.threads);
    if (!runner_fits(need, avail))
        return cli_die(2, "audit: %s's filter for %llu keys at %g (%llu bits) needs %.1f GiB, "
                          "only %.1f GiB available%s (got '--keys %llu')", a.lib->name,
                       (unsigned long long)a.n, d.p, (unsigned long long)d.m,
                       need / 1073741824.0, (double)avail / 1073741824.0, limit,
                       (unsigned long long)a.n);
    double work = g->on ? (double)g->queries /* lookups, at least */
                        : (1 - d.p) / (d.p * a.precision * a.precision);
    if (work > 1e10 && !cli_quiet)
        fprintf(stderr, "bloomsim: audit: about %.2g lookups for %s: this may take a "
                "while\n", work, g->on ? "the range of queries asked" : "the precision asked");
    row_out_t out;
    const uint64_t Fmax = row_max_filters(&row);
    if (sim_out_alloc(&out, Fmax) || !(out.absent = malloc((size_t)Fmax * sizeof *out.absent))) {
        sim_out_free(&out);
        return cli_die(1, "audit: out of memory for %llu filters", (unsigned long long)Fmax);
    }
    for (uint64_t f = 0; f < Fmax; f++) /* every filter built is checked (row.h) */
        out.absent[f] = EST_UNCHECKED;
    cli_catch_stop();
    cli_progress_t tp = {.name = a.lib->name};
    progress_t ps;
    progress_start(&ps, isatty(STDERR_FILENO) ? cli_progress_show : NULL, &tp, 1,
                   est_row_work(&row), 0);
    const row_run_t run = {.row = &row, .seed = a.seed, .threads = (int)a.threads,
                           .out = &out, .ps = &ps, .stop = &cli_stop_signal};
    csv_row_t r;
    rc = runner_row("audit", "audit", &run, &r, err, sizeof err);
    cli_progress_clear(&tp);
    /* The lookups a filter made at the end (a row whose lookups grew ran every filter
     * again at the new number), which set how many inserted keys each checked. */
    const uint64_t F = rc == 0 ? r.filters : 0;
    const uint64_t L = F && sim_counts(&row) ? r.lookups / F : row.lookups_per_filter;
    audit_outcome_t o = {.check = audit_check_sum(out.absent, F, d.n, est_check_count(d.n, L))};
    if (rc == 0 && g->on) { /* the exact count over the range: no sampling interval */
        audit_range_spread(g, out.counts);
        r.rate = r.ci_low = r.ci_high = g->rate;
        r.stderr_ = 0;
        r.target_met = g->wanted == 0;
    }
    free(out.absent);
    out.absent = NULL;
    sim_out_free(&out);
    if (rc == RUN_INTERRUPTED)
        return cli_die(128 + atomic_load(&cli_stop_signal), "audit: stopped (got signal %d)",
                       atomic_load(&cli_stop_signal));
    if (rc != 0)
        return cli_die(1, "audit: out of memory for %llu-bit filters", (unsigned long long)d.m);
    const audit_weigh_t w = {.check = o.check, .ci_low = r.ci_low, .promise = d.p,
                             .fail_above = a.fail_above, .target_met = r.target_met != 0};
    o.verdict = audit_verdict(&w);
    if (a.json)
        return audit_json_library(a.lib, &d, &row, &r, (int)a.threads, a.seed, &o, g);
    print_audit(a.lib, &d, &row, &r, (int)a.threads, a.seed, &o, g);
    return o.verdict.status;
}
