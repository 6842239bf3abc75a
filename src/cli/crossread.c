/* crossread.c - `bloomsim crossread`: a filter written by one probe scheme and read by
 * another that agrees on m and k (seed 003's serialisation trap; estimate/crossread.h
 * measures it, docs/model.md "Cross-reading" defines it). */
#include <stdio.h>

#include "cli/cli.h"
#include "cli/json_out.h"
#include "estimate/crossread.h"
#include "experiment/plan.h"
#include "libraries/registry.h"
#include "run/runner.h"

static const char usage[] =
    "usage: bloomsim crossread --writer SCHEME --reader SCHEME --bits M --keys N [--k K]\n"
    "                          [--filters F] [--queries L] [--threads T] [--seed S] [--json]\n"
    "\n"
    "A filter written by one probe scheme and read by another that agrees on m and k\n"
    "(seed 003: \"a filter written by one and read by the other returns negatives for keys\n"
    "it holds\"). Each of F filters (default 100) gets N keys inserted by the writer at the\n"
    "size it takes for M bits and K probes (default K = round(M/N ln 2)); the reader, at\n"
    "the size it takes for the same M and K, asks it about every key it holds and about L\n"
    "keys never inserted (default 100000 a filter), which the writer is asked too. Prints\n"
    "the share of held keys the reader reports absent, the reader's false-positive rate\n"
    "beside the writer's own on the same keys, each with its 95% interval, and for each\n"
    "probe the share of held keys it puts where the writer did. A key is a 256-bit digest\n"
    "each scheme takes its hash words from (docs/model.md, Cross-reading): 64-bit words in\n"
    "order, 32-bit halves low first (Guava's split), words on [0, m) reduced mod m with\n"
    "seed 003's h2 |= 1 where the scheme refuses the stride. A prime-modulus reader\n"
    "(double-prime) reads the largest prime's worth of the M bits. Schemes that draw fresh\n"
    "positions (independent, blocked, ...) cannot take part. --json prints the same as one\n"
    "JSON object (docs/json.md).\n"
    "  --threads T      threads (default: all); --seed S  seed (default 1)\n";

/* What crossread was asked. */
typedef struct crossread_args {
    const char *writer, *reader;
    uint64_t m, n, k, filters, queries, threads, seed;
    int json;
} crossread_args_t;

/* Parse the arguments into a. Returns -1 to go on, else the exit status (reported). */
static int parse_args(int argc, char **argv, crossread_args_t *a)
{
#define XR_COUNT(nm, p, lo) \
    {.name = nm, .kind = CLI_COUNT, .dst = p, .min = lo, .max = UINT64_MAX, \
     .must = "a whole number >= " #lo}
    const cli_opt_t opts[] = {
        {.name = "--writer", .kind = CLI_TEXT, .dst = &a->writer, .min = 1, .must = "a scheme"},
        {.name = "--reader", .kind = CLI_TEXT, .dst = &a->reader, .min = 1, .must = "a scheme"},
        XR_COUNT("--bits", &a->m, 2), CLI_OPT_KEYS(&a->n), XR_COUNT("--k", &a->k, 1),
        {.name = "--filters", .kind = CLI_COUNT, .dst = &a->filters, .min = 2,
         .max = 100000000, .must = "a whole number from 2 to 10^8"},
        XR_COUNT("--queries", &a->queries, 1),
        CLI_OPT_THREADS(&a->threads), CLI_OPT_SEED(&a->seed),
        {.name = "--json", .kind = CLI_FLAG, .dst = &a->json},
    };
#undef XR_COUNT
    cli_spec_t spec = {.command = "crossread", .usage = usage, .unknown = "argument",
                       .opts = opts, .nopts = sizeof opts / sizeof opts[0]};
    return cli_parse(&spec, argc, argv);
}

/* The scheme --flag names, at the size it takes for (m, k), usable for a cross-read.
 * Returns 0, or 2 after the line. */
static int take_scheme(const char *flag, const char *name, const crossread_args_t *a,
                       const scheme_t **s, probe_geom_t *g)
{
    const char *why;
    if (!name)
        return cli_die(2, "crossread: %s is required (got nothing); bloomsim list shows the "
                          "schemes", flag);
    if (!(*s = scheme_find(name)))
        return cli_die(2, "crossread: %s: unknown scheme (got '%s'); bloomsim list shows them",
                       flag, name);
    int st = (*s)->geometry(a->m, (unsigned)a->k, 0, g);
    if (st != SCHEME_OK)
        return cli_die(2, "crossread: %s %s at bits = %llu, k = %llu: %s (got '%llu')", flag,
                       name, (unsigned long long)a->m, (unsigned long long)a->k,
                       scheme_refusal(*s, st),
                       (unsigned long long)(st == SCHEME_EKBIG || st == SCHEME_EKFIXED ? a->k
                                                                                      : a->m));
    if (crossread_usable(*s, g, &why))
        return cli_die(2, "crossread: %s %s %s (got '%s')", flag, name, why, name);
    return 0;
}

/* The three measured lines' numbers, as the JSON's objects. */
static void put_share(json_object *o, const char *key, const stats_summary_t *s, uint64_t asked)
{
    json_object *v = json_out_obj(o, key);
    json_out_num(v, "rate", s->rate);
    json_out_num(v, "ci_low", s->ci_low);
    json_out_num(v, "ci_high", s->ci_high);
    json_out_num(v, "stderr", s->stderr_);
    json_out_count(v, "asked", asked);
    json_out_count(v, "count", s->false_positives);
}

static void put_scheme(json_object *o, const char *key, const scheme_t *s, const probe_geom_t *g)
{
    json_object *v = json_out_obj(o, key);
    json_out_text(v, "scheme", s->name);
    json_out_count(v, "m", g->m);
}

/* crossread --json: what the text shows, as docs/json.md's "crossread" section. */
static int crossread_json(const crossread_t *x, const crossread_out_t *o)
{
    const uint64_t held = x->filters * x->n, asked = x->filters * x->queries;
    json_object *j = json_out_new("crossread");
    put_scheme(j, "writer", x->writer, &o->gw);
    put_scheme(j, "reader", x->reader, &o->gr);
    json_out_count(j, "m", x->m);
    json_out_count(j, "array_bits", o->array_bits);
    json_out_count(j, "n", x->n);
    json_out_count(j, "k", x->k);
    json_out_count(j, "filters", x->filters);
    json_out_count(j, "queries_per_filter", x->queries);
    json_out_count(j, "seed", x->seed);
    json_out_num(j, "fill", o->fill);
    put_share(j, "absent", &o->absent, held);
    put_share(j, "reader_rate", &o->reader_fp, asked);
    put_share(j, "writer_rate", &o->writer_fp, asked);
    json_out_num(j, "reader_over_writer", o->reader_fp.rate / o->writer_fp.rate);
    json_object *ag = json_out_array(j, "agree");
    for (unsigned i = 0; i < x->k; i++) {
        json_object *p = json_out_push_obj(ag);
        json_out_count(p, "probe", i);
        json_out_count(p, "keys", o->agree[i]);
        json_out_num(p, "share", (double)o->agree[i] / (double)held);
    }
    json_out_count(j, "writer_absent", o->writer_absent);
    return json_out_print(j, "crossread");
}

static void print_line(const char *label, const stats_summary_t *s, const char *what)
{
    printf("%-10s %-12.6g 95%% interval %.6g to %.6g; standard error %.2g; %s\n", label,
           s->rate, s->ci_low, s->ci_high, s->stderr_, what);
}

static void print_text(const crossread_t *x, const crossread_out_t *o)
{
    const uint64_t held = x->filters * x->n, asked = x->filters * x->queries;
    char what[160];
    printf("writer     %s, m = %llu, k = %u\n", x->writer->name,
           (unsigned long long)o->gw.m, x->k);
    printf("reader     %s, m = %llu, k = %u (both given %llu bits; the array has %llu)\n",
           x->reader->name, (unsigned long long)o->gr.m, x->k, (unsigned long long)x->m,
           (unsigned long long)o->array_bits);
    printf("keys       %llu inserted in each of %llu filters (fill %.4f), %llu never inserted "
           "asked of each, seed %llu\n", (unsigned long long)x->n,
           (unsigned long long)x->filters, o->fill, (unsigned long long)x->queries,
           (unsigned long long)x->seed);
    snprintf(what, sizeof what, "%llu of %llu held keys read as absent",
             (unsigned long long)o->absent.false_positives, (unsigned long long)held);
    print_line("absent", &o->absent, what);
    snprintf(what, sizeof what, "the reader's false positives, %llu of %llu",
             (unsigned long long)o->reader_fp.false_positives, (unsigned long long)asked);
    print_line("reader", &o->reader_fp, what);
    snprintf(what, sizeof what, "the writer's own, %llu of the same %llu",
             (unsigned long long)o->writer_fp.false_positives, (unsigned long long)asked);
    print_line("writer", &o->writer_fp, what);
    printf("ratio      %.4g the reader's rate over the writer's\n",
           o->reader_fp.rate / o->writer_fp.rate);
    printf("agree      ");
    for (unsigned i = 0; i < x->k; i++)
        printf("%.4g%c", (double)o->agree[i] / (double)held, i + 1 < x->k ? ' ' : '\n');
    printf("           (probe 0 to %u: the share of held keys the reader probes where the "
           "writer set)\n", x->k - 1);
    printf("check      the writer read %llu of its %llu held keys as absent\n",
           (unsigned long long)o->writer_absent, (unsigned long long)held);
}

/* The geometries and the limits, checked before any work. Returns 0 or 2. */
static int check_args(crossread_args_t *a, crossread_t *x, crossread_out_t *o)
{
    char err[256];
    if (!a->m || !a->n)
        return cli_die(2, "crossread: --bits and --keys are required (got %s)",
                       !a->m ? "no --bits" : "no --keys");
    if (a->m > (UINT64_C(1) << 36))
        return cli_die(2, "crossread: --bits must be at most 2^36 (got '%llu')",
                       (unsigned long long)a->m);
    if (!a->k)
        a->k = plan_k(K_OPTIMAL, 0, (double)a->m / (double)a->n);
    if (a->k > 1000)
        return cli_die(2, "crossread: --k must be at most 1000 (got '%llu')",
                       (unsigned long long)a->k);
    if (!a->threads && cli_default_threads("crossread", &a->threads, err, sizeof err))
        return cli_die(2, "%s", err);
    int rc;
    if ((rc = take_scheme("--writer", a->writer, a, &x->writer, &o->gw)) ||
        (rc = take_scheme("--reader", a->reader, a, &x->reader, &o->gr)))
        return rc;
    /* Memory before any work, by the rule run and audit refuse by: an array a thread. */
    const char *limit;
    uint64_t avail = runner_mem_limit(&limit), big = o->gw.m > o->gr.m ? o->gw.m : o->gr.m;
    double need = (double)a->threads * ((double)big / 8 + 3.0 * 8 * (double)a->k) +
                  (double)a->filters * 72;
    if (!runner_fits(need, avail))
        return cli_die(2, "crossread: %llu-bit filters need %.1f GiB (an array a thread, %llu "
                          "threads), only %.1f GiB available%s (got '--bits %llu')",
                       (unsigned long long)big, need / 1073741824.0,
                       (unsigned long long)a->threads, (double)avail / 1073741824.0, limit,
                       (unsigned long long)a->m);
    *x = (crossread_t){.writer = x->writer, .reader = x->reader, .m = a->m, .n = a->n,
                       .filters = a->filters, .queries = a->queries, .seed = a->seed,
                       .k = (unsigned)a->k, .threads = (int)a->threads,
                       .stop = &cli_stop_signal};
    return 0;
}

int cli_crossread(int argc, char **argv)
{
    crossread_args_t a = {.filters = 100, .queries = 100000, .seed = 1};
    crossread_t x = {0};
    crossread_out_t o = {0};
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0)
        return rc;
    if ((rc = check_args(&a, &x, &o)) != 0)
        return rc;
    cli_catch_stop();
    switch (crossread_measure(&x, &o)) {
    case CROSSREAD_OK:
        break;
    case CROSSREAD_ESTOPPED:
        crossread_out_free(&o);
        return cli_die(128 + atomic_load(&cli_stop_signal), "crossread: stopped (got signal "
                       "%d)", atomic_load(&cli_stop_signal));
    case CROSSREAD_EWORDS:
        crossread_out_free(&o);
        return cli_die(1, "crossread: a key's words were refused by %s or %s (got seed %llu)",
                       x.writer->name, x.reader->name, (unsigned long long)x.seed);
    default:
        crossread_out_free(&o);
        return cli_die(1, "crossread: out of memory for %llu-bit filters on %d threads",
                       (unsigned long long)o.array_bits, x.threads);
    }
    if (a.json)
        rc = crossread_json(&x, &o);
    else
        print_text(&x, &o);
    /* A writer that misses its own keys is a broken harness, not a result. */
    if (rc == 0 && o.writer_absent)
        rc = cli_die(1, "crossread: %s read %llu of its own held keys as absent", x.writer->name,
                     (unsigned long long)o.writer_absent);
    crossread_out_free(&o);
    return rc;
}
