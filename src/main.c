/* main.c - the bloomsim command line: list, run, exact, probes, size.
 *
 * The only place that parses argv, prints, and chooses exit codes: 0 success, 2 bad
 * input (one line naming the file, line or option and the value), 1 a runtime failure.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>

#include <gsl/gsl_errno.h>
#include <omp.h>

#include "config.h"
#include "dist.h"
#include "estimator.h"
#include "audit.h"
#include "experiment.h"
#include "rate.h"
#include "rate_blocked.h"
#include "runner.h"
#include "scheme.h"
#include "simulate.h"
#include "sizing.h"
#include "version.h"
#include "plan.h"

static const char *cmd = "bloomsim";
/* Set on the ranks of a distributed run other than rank 0 (dist.h): rank 0 alone
 * reports, so a message appears once. */
static int quiet = 0;

/* The signal that asked a run to stop (SIGINT or SIGTERM), 0 while none has. The runner
 * polls it between filters; the handler does nothing else. */
/* A handler may only touch lock-free atomics (C11 7.14.1.1). */
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "atomic_int must be lock-free for the signal handler");
static atomic_int stop_signal = 0;

static void on_stop_signal(int sig) { atomic_store_explicit(&stop_signal, sig, memory_order_relaxed); }

static int die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int die(int code, const char *fmt, ...)
{
    if (quiet)
        return code;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return code;
}

/* A whole number with nothing else around it. */
static int parse_count(const char *s, uint64_t *out)
{
    if (!s || *s < '0' || *s > '9')
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

/* --name VALUE or --name=VALUE at argv[*i]; advances *i past it. NULL when not this option.
 * Sets *missing when the value is absent. */
static const char *opt_value(int argc, char **argv, int *i, const char *name, int *missing)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0)
        return NULL;
    if (argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (argv[*i][n] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        *missing = 1;
        return NULL;
    }
    return argv[++*i];
}

static int is_help(const char *a) { return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0; }

/* A rate strictly between 0 and 1 for option opt of command what; 0, or the exit status
 * after its one-line message. */
static int parse_rate(const char *what, const char *opt, const char *v, double *p)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    /* strtod may set ERANGE for a subnormal result (glibc does for 1e-310): that is still
     * a number and a valid rate; only one that underflows to 0 is not. */
    int range = errno == ERANGE;
    if (end == v || *end)
        return die(2, "%s: %s must be a number strictly between 0 and 1 (got '%s')", what, opt,
                   v);
    if (range && x == 0 && !signbit(x))
        return die(2, "%s: %s is below the smallest positive double, %g (got '%s')", what, opt,
                   DBL_TRUE_MIN, v);
    if (!(x > 0 && x < 1))
        return die(2, "%s: %s must be a number strictly between 0 and 1 (got '%s')", what, opt,
                   v);
    *p = x;
    return 0;
}

/* ---- list ---- */

static const char *experiments_dir(void)
{
    const char *env = getenv("BLOOMSIM_EXPERIMENTS");
    if (env && *env)
        return env;
    struct stat st;
    if (stat("experiments", &st) == 0 && S_ISDIR(st.st_mode))
        return "experiments";
    return BLOOMSIM_EXPERIMENTS_DIR;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
}

static int cmd_list(int argc, char **argv)
{
    if (argc > 1 && is_help(argv[1])) {
        puts("usage: bloomsim list\n\nLists the named experiments (experiments/NAME.ini) with "
             "their titles, and the probe schemes.");
        return 0;
    }
    if (argc > 1)
        return die(2, "list: unexpected argument (got '%s')", argv[1]);
    const char *dir = experiments_dir();
    DIR *d = opendir(dir);
    char *names[512];
    size_t nn = 0;
    if (d) {
        struct dirent *de;
        while ((de = readdir(d)) && nn < 512) {
            size_t l = strlen(de->d_name);
            if (l > 4 && strcmp(de->d_name + l - 4, ".ini") == 0) {
                if (!(names[nn] = strdup(de->d_name))) {
                    closedir(d);
                    free_names(names, nn);
                    return die(1, "out of memory");
                }
                nn++;
            }
        }
        closedir(d);
    }
    qsort(names, nn, sizeof names[0], cmp_str);
    experiment_t *e = malloc(sizeof *e);
    if (!e) {
        free_names(names, nn);
        return die(1, "out of memory");
    }
    printf("experiments (%s):\n", dir);
    for (size_t i = 0; i < nn; i++) {
        char path[2048], err[EXP_ERR_LEN] = "";
        int len = snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (len < 0 || (size_t)len >= sizeof path) {
            die(2, "list: path too long, more than %zu bytes (got '%s/%s')", sizeof path - 1,
                dir, names[i]);
            free(e);
            free_names(names, nn);
            return 2;
        }
        if (experiment_load(path, e, err, sizeof err) == 0)
            printf("  %-20s %s\n", e->name, e->title);
        else
            printf("  %-20.*s (invalid: %s)\n", (int)strlen(names[i]) - 4, names[i], err);
    }
    free(e);
    free_names(names, nn);
    puts("\nschemes:");
    for (size_t i = 0; i < scheme_count(); i++)
        printf("  %-18s %s\n", scheme_at(i)->name, scheme_at(i)->summary);
    puts("\nestimators (estimator = NAME, or auto: conditional where it applies):");
    for (size_t i = 0; i < est_count(); i++)
        printf("  %-18s %s\n", est_at(i)->name, est_at(i)->summary);
    return 0;
}

/* ---- run ---- */

static const char run_usage[] =
    "usage: bloomsim run NAME... [--quick] [--threads N] [--seed S] [--out DIR]\n"
    "                            [--resume] [--force]\n"
    "\n"
    "Runs each named experiment (experiments/NAME.ini, or a path to an .ini file) and\n"
    "writes DIR/NAME.csv with DIR/NAME.meta beside it (NAME.quick.csv with --quick).\n"
    "\n"
    "  --quick      the experiment's [quick] scale: seconds, for tests and CI\n"
    "  --threads N  threads to use (default: all, or OMP_NUM_THREADS)\n"
    "  --seed S     seed (default: the experiment's seed, else 1); results are a pure\n"
    "               function of the definition, the seed and the program version\n"
    "  --out DIR    output directory (default: out)\n"
    "  --resume     finish an interrupted run (its finished rows are in NAME.csv.partial);\n"
    "               the result equals an uninterrupted run's, timing aside\n"
    "  --force      replace a result or interrupted run of another definition or seed\n"
    "\n"
    "Ctrl-C (SIGINT) or SIGTERM stops a run keeping every finished row; exit 130 or 143.\n"
    "Under mpirun or srun (a build with MPI), the ranks run it together, rank 0 writing\n"
    "the same table as one process (docs/cluster.md).\n";

typedef struct tty_progress {
    const char *name;
    int active;
} tty_progress_t;

static void show_progress(const run_progress_t *p, void *ctx)
{
    tty_progress_t *t = ctx;
    double left = p->work_fraction > 0 ? p->elapsed * (1 - p->work_fraction) / p->work_fraction
                                       : 0;
    char speed[64];
    if (p->row_keys_per_s > 0) /* a big filter's row: its time is in inserts */
        snprintf(speed, sizeof speed, "%.1f M keys/s", 1e-6 * p->row_keys_per_s);
    else if (p->lookups_done > 0) /* lookups rows: lookups per second */
        snprintf(speed, sizeof speed, "%.1f M lookups/s",
                 p->elapsed > 0 ? 1e-6 * (double)p->lookups_done / p->elapsed : 0);
    else /* conditional rows: whole filters per second */
        snprintf(speed, sizeof speed, "%.0f filters/s",
                 p->elapsed > 0 ? (double)p->filters_done / p->elapsed : 0);
    fprintf(stderr, "\r\033[K%s: row %zu/%zu, %.0f%%, %s, %.0fm%02.0fs left", t->name,
            p->rows_done, p->rows_total, 100 * p->work_fraction, speed, floor(left / 60),
            fmod(left, 60));
    fflush(stderr);
    t->active = 1;
}

/* The compact table of one sweep's rows, rows[0..nrows): one block per filter size,
 * bits per key down, schemes across, each cell the measured rate and its ratio to the
 * formula (rows come size-major, then bits per key, then scheme: plan_rows); for
 * designs and stacks, one line a row. */
static void print_sweep(const sweep_t *sw, const csv_row_t *rows, size_t nrows)
{
    exp_variant_t va[EXP_MAX_SCHEMES * EXP_MAX_LIST];
    size_t nsch = plan_variants(sw, va), nb = sw->keys ? 1 : sw->nbpk;
    if (sw->design_keys) { /* designs and stacks: one line a row */
        printf("\n  %-8s %-34s %-14s %s\n", "keys", "structure, scheme", "rate",
               "x design rate");
        for (size_t i = 0; i < nrows; i++) {
            const csv_row_t *row = &rows[i];
            char what[64], blk[24] = "";
            if (row->block_bits != CSV_ABSENT)
                snprintf(blk, sizeof blk, "/%llu", (unsigned long long)row->block_bits);
            if (isnan(row->first_capacity))
                snprintf(what, sizeof what, "single, %s%s",
                         row->library ? row->library : row->scheme, blk);
            else
                snprintf(what, sizeof what, "stack %g/%g/%g, %s%s", row->first_capacity,
                         row->growth, row->tightening, row->scheme, blk);
            printf("  %-8llu %-34s %-14.4e %.3g\n", (unsigned long long)row->n, what, row->rate,
                   row->rate_over_design);
        }
        return;
    }
    for (size_t a = 0; a < sw->nbits && (a + 1) * nb * nsch <= nrows; a++) {
        printf("\n  %llu bits: rate (ratio to formula)\n  %6s", (unsigned long long)sw->bits[a],
               "b");
        for (size_t s = 0; s < nsch; s++) { /* a blocked scheme: NAME/BLOCK_BITS */
            char name[48];
            const csv_row_t *row = &rows[a * nb * nsch + s];
            if (row->block_bits != CSV_ABSENT)
                snprintf(name, sizeof name, "%s/%llu", va[s].scheme->name,
                         (unsigned long long)row->block_bits);
            else
                snprintf(name, sizeof name, "%s", va[s].scheme->name);
            printf("  %-22s", name);
        }
        printf("  %s\n", "formula");
        for (size_t c = 0; c < nb; c++) {
            const csv_row_t *row = &rows[(a * nb + c) * nsch];
            printf("  %6.3g", row->bits_per_key);
            for (size_t s = 0; s < nsch; s++) {
                char cell[64];
                snprintf(cell, sizeof cell, "%.3e (%.3gx)", row[s].rate, row[s].ratio_formula);
                printf("  %-22s", cell);
            }
            printf("  %.3e\n", row->formula);
        }
    }
}

/* The compact tables of a run, sweep by sweep. */
static void print_table(const experiment_t *e, int quick, const run_result_t *r)
{
    printf("\n%s: %s\n", e->name, e->title);
    for (size_t i = 0, w = 0; w < e->nsweeps; w++) {
        size_t first = i;
        while (i < r->nrows && r->plan[i].sweep == w)
            i++;
        print_sweep(quick ? &e->quick[w] : &e->full[w], r->rows + first, i - first);
    }
}

/* Whether an experiment name is a file path (has a '/' or ends in .ini). */
static int is_path(const char *name)
{
    size_t l = strlen(name);
    return strchr(name, '/') || (l > 4 && strcmp(name + l - 4, ".ini") == 0);
}

/* The file of experiment NAME into path[0..len): NAME itself if it is a path, else
 * DIR/NAME.ini. 0 if readable, -1 if not, -2 if the path does not fit. */
static int resolve_experiment(const char *name, char *path, size_t len)
{
    int n;
    if (is_path(name))
        n = snprintf(path, len, "%s", name);
    else
        n = snprintf(path, len, "%s/%s.ini", experiments_dir(), name);
    if (n < 0 || (size_t)n >= len)
        return -2;
    return access(path, R_OK) == 0 ? 0 : -1;
}

#define RUN_MAX_NAMES 64

/* run's options into o and its experiment names into names[*nnames]. Returns -1 to go
 * on, else the exit status (0 after --help, 2 for bad input, reported). */
static int parse_run_args(int argc, char **argv, run_opts_t *o, const char **names,
                          int *nnames)
{
    for (int i = 1; i < argc; i++) {
        int missing = 0;
        const char *v;
        uint64_t x;
        if (is_help(argv[i])) {
            if (!quiet)
                fputs(run_usage, stdout);
            return 0;
        } else if (strcmp(argv[i], "--quick") == 0) {
            o->quick = 1;
        } else if (strcmp(argv[i], "--resume") == 0) {
            o->resume = 1;
        } else if (strcmp(argv[i], "--force") == 0) {
            o->force = 1;
        } else if ((v = opt_value(argc, argv, &i, "--threads", &missing))) {
            if (parse_count(v, &x) || x < 1 || x > 4096)
                return die(2, "run: --threads must be a whole number from 1 to 4096 (got '%s')", v);
            o->threads = (int)x;
        } else if ((v = opt_value(argc, argv, &i, "--seed", &missing))) {
            if (parse_count(v, &x))
                return die(2, "run: --seed must be a whole number (got '%s')", v);
            o->seed = x;
            o->seed_given = 1;
        } else if ((v = opt_value(argc, argv, &i, "--out", &missing))) {
            if (!*v)
                return die(2, "run: --out needs a directory (got '')");
            o->outdir = v;
        } else if (missing) {
            return die(2, "run: %s needs a value (got nothing)", argv[i]);
        } else if (argv[i][0] == '-') {
            return die(2, "run: unknown option (got '%s'); see bloomsim run --help", argv[i]);
        } else if (*nnames < RUN_MAX_NAMES) {
            names[(*nnames)++] = argv[i];
        } else {
            return die(2, "run: too many experiments (got '%s')", argv[i]);
        }
    }
    if (*nnames == 0)
        return die(2, "run: name an experiment (got nothing); bloomsim list shows them");
    return -1;
}

/* Load experiment names[i] into ex[i] and check that both its scales expand into rows
 * (so a full definition that cannot run fails its --quick test) and that no earlier one
 * writes the same files. Returns 0, or 2 (reported). */
static int load_checked(const char *const *names, int i, const char *outdir, experiment_t *ex)
{
    char path[1024], err[EXP_ERR_LEN];
    int st = resolve_experiment(names[i], path, sizeof path);
    if (st == -2) {
        if (is_path(names[i]))
            return die(2, "run: path too long, more than %zu bytes (got '%s')",
                       sizeof path - 1, names[i]);
        return die(2, "run: path too long, more than %zu bytes (got '%s/%s.ini')",
                   sizeof path - 1, experiments_dir(), names[i]);
    }
    if (st)
        return die(2, "run: unknown experiment or unreadable file %s (got '%s'); "
                      "bloomsim list shows them", path, names[i]);
    if (experiment_load(path, &ex[i], err, sizeof err))
        return die(2, "%s", err);
    for (int q = 0; q < 2; q++) {
        exp_row_t *rows;
        size_t nrows;
        if (plan_rows(&ex[i], q, &rows, &nrows, err, sizeof err))
            return die(2, "%s", err);
        free(rows);
    }
    for (int j = 0; j < i; j++)
        if (strcmp(ex[j].name, ex[i].name) == 0)
            return die(2, "run: %s and %s would both write %s/%s.csv; run them with different "
                          "--out (got '%s')", names[j], names[i], outdir, ex[i].name, names[i]);
    return 0;
}

/* Run the experiments in turn, stopping at the first failure; SIGINT and SIGTERM stop
 * the run in progress, keeping its finished rows. Returns the exit status. */
static int run_all(const experiment_t *ex, int n, run_opts_t *o)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    o->stop = &stop_signal;
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        char err[EXP_ERR_LEN];
        tty_progress_t tp = {.name = ex[i].name};
        if (!quiet && isatty(STDERR_FILENO)) {
            o->progress = show_progress;
            o->progress_ctx = &tp;
        }
        run_result_t res;
        rc = runner_run(&ex[i], o, &res, err, sizeof err);
        if (tp.active)
            fputs("\r\033[K", stderr);
        if (quiet) {
            if (rc == RUN_INTERRUPTED)
                rc = 128 + atomic_load(&stop_signal);
        } else if (rc == RUN_INTERRUPTED) {
            die(rc, "%s", err);
            rc = 128 + atomic_load(&stop_signal); /* 130 for SIGINT, 143 for SIGTERM */
        } else if (rc) {
            die(rc, "%s", err);
        } else {
            print_table(&ex[i], o->quick, &res);
            if (dist_size() > 1)
                printf("\nwrote %s and %s (%.1f s, %d ranks, %d threads)\n", res.csv_path,
                       res.meta_path, res.seconds, dist_size(), dist_threads_total());
            else
                printf("\nwrote %s and %s (%.1f s, %d thread%s)\n", res.csv_path,
                       res.meta_path, res.seconds, o->threads, o->threads == 1 ? "" : "s");
        }
        runner_free(&res);
    }
    return rc;
}

static int cmd_run(int argc, char **argv, const char *command)
{
    run_opts_t o = {.threads = omp_get_max_threads(), .outdir = "out", .command = command};
    const char *names[RUN_MAX_NAMES];
    int nnames = 0;
    int rc = parse_run_args(argc, argv, &o, names, &nnames);
    if (rc >= 0)
        return rc;
    /* Load and check every experiment before running any: rank 0 alone, which then
     * sends each to the other ranks of a distributed run. */
    experiment_t *ex = calloc((size_t)nnames, sizeof *ex);
    rc = ex ? 0 : die(1, "out of memory");
    for (int i = 0; i < nnames && rc == 0 && dist_leader(); i++)
        rc = load_checked(names, i, o.outdir, ex);
    char err[EXP_ERR_LEN] = "";
    rc = dist_agree(rc, err, sizeof err);
    if (rc && err[0]) /* a failure of another rank; rank 0 reported its own */
        die(rc, "%s", err);
    for (int i = 0; i < nnames && rc == 0; i++) {
        rc = dist_agree(dist_share_experiment(&ex[i], err, sizeof err), err, sizeof err);
        if (rc)
            die(rc, "%s", err);
    }
    if (rc == 0)
        rc = run_all(ex, nnames, &o);
    free(ex);
    return rc;
}

/* ---- exact ---- */

/* exact --block-bits: the blocked schemes' exact rates and the approximations beside
 * them, each over its exact rate. Returns the exit status. */
static int print_blocked_rates(uint64_t m, uint64_t n, unsigned k, uint64_t block)
{
    const scheme_t *schemes[2] = {scheme_find("blocked"), scheme_find("split-block")};
    for (int j = 0; j < 2; j++) {
        probe_geom_t g;
        int st = schemes[j]->geometry(m, k, block, &g);
        if (st != SCHEME_OK) {
            if (j == 0 || st != SCHEME_ESPLIT)
                return die(2, "exact: %s with --block-bits %llu: %s (got '%llu')",
                           schemes[j]->name, (unsigned long long)block, scheme_strerror(st),
                           (unsigned long long)block);
            printf("split-block      (k = %u does not split %llu bits into power-of-two "
                   "words)\n", k, (unsigned long long)block);
            continue;
        }
        double ex = schemes[j]->exact(&g, n);
        if (ex < 0)
            return die(1, "exact: %s: no exact rate for %llu keys in %llu blocks (the load "
                          "distribution is too wide to sum)", schemes[j]->name,
                       (unsigned long long)n, (unsigned long long)g.blocks);
        printf("%-16s %.17g   (%llu blocks of %llu bits, m used %llu)\n", schemes[j]->name, ex,
               (unsigned long long)g.blocks, (unsigned long long)g.block,
               (unsigned long long)g.m);
        double pois = schemes[j]->model(&g, n);
        printf("  Poisson mixture  %.6g   (Putze et al. eq. 3; %.4f of exact)\n", pois, pois / ex);
        if (schemes[j]->model_rocksdb) {
            double cl = schemes[j]->model_rocksdb(&g, n);
            printf("  CacheLocalFpRate %.6g   (RocksDB; %.4f of exact)\n", cl, cl / ex);
        } else {
            double f = rate_formula(g.m, n, k); /* (1 - e^{-k/b})^k at b = m/n */
            printf("  sizing formula   %.6g   ((1 - e^{-k/b})^k, Parquet's; %.4f of exact)\n", f,
                   f / ex);
        }
    }
    return 0;
}

static int cmd_exact(int argc, char **argv)
{
    uint64_t m = 0, n = 0, k = 0, block = 0;
    for (int i = 1; i < argc; i++) {
        int missing = 0;
        const char *v;
        if (is_help(argv[i])) {
            puts("usage: bloomsim exact --bits M --keys N [--k K] [--block-bits B]\n\n"
                 "Prints the reference rates of docs/model.md for m bits, n keys, k probes (default\n"
                 "k = round(m/n ln 2)): the formula (1-e^{-kn/m})^k, its finite form\n"
                 "(1-(1-1/m)^{kn})^k, the exact rate of independent probes by the moment form\n"
                 "and by the dynamic program (where m is small enough), and the exact rate of\n"
                 "partitioned slices. With --block-bits, the blocked filters of B-bit blocks too\n"
                 "(m rounded down to whole blocks): the exact rates of blocked and split-block,\n"
                 "and beside them the approximations in use, Putze's Poisson mixture, RocksDB's\n"
                 "CacheLocalFpRate and the split-block sizing formula, each over the exact rate.");
            return 0;
        }
        uint64_t *dst = NULL;
        const char *nm = argv[i];
        if ((v = opt_value(argc, argv, &i, "--bits", &missing)))
            dst = &m;
        else if ((v = opt_value(argc, argv, &i, "--keys", &missing)))
            dst = &n;
        else if ((v = opt_value(argc, argv, &i, "--k", &missing)))
            dst = &k;
        else if ((v = opt_value(argc, argv, &i, "--block-bits", &missing)))
            dst = &block;
        else if (missing)
            return die(2, "exact: %s needs a value (got nothing)", nm);
        else
            return die(2, "exact: unknown argument (got '%s'); see bloomsim exact --help", nm);
        if (parse_count(v, dst) || *dst == 0)
            return die(2, "exact: %s must be a whole number >= 1 (got '%s')", nm, v);
    }
    if (!m || !n)
        return die(2, "exact: --bits and --keys are required (got %s)", !m ? "no --bits" : "no --keys");
    if (m > (UINT64_C(1) << 40))
        return die(2, "exact: --bits must be at most 2^40 (got '%llu')", (unsigned long long)m);
    if (!k)
        k = plan_k(K_OPTIMAL, 0, (double)m / (double)n);
    if (k > 1000)
        return die(2, "exact: --k must be at most 1000 (got '%llu')", (unsigned long long)k);
    double x;
    printf("m = %llu, n = %llu, k = %llu, bits per key = %.6g\n", (unsigned long long)m,
           (unsigned long long)n, (unsigned long long)k, (double)m / (double)n);
    printf("formula          %.17g\n", rate_formula(m, n, (unsigned)k));
    printf("formula_finite   %.17g\n", rate_formula_finite(m, n, (unsigned)k));
    if (rate_exact_moment(m, n, (unsigned)k, &x) == RATE_OK)
        printf("exact (moments)  %.17g\n", x);
    else
        printf("exact (moments)  (outside the moment form's domain or too ill-conditioned)\n");
    if (rate_exact_dp(m, n, (unsigned)k, &x) == RATE_OK)
        printf("exact (DP)       %.17g\n", x);
    else
        printf("exact (DP)       (m too large for the dynamic program)\n");
    if (k < m)
        printf("partitioned      %.17g   (slices of %llu bits, m used %llu)\n",
               rate_partitioned_exact(m / k, n, (unsigned)k), (unsigned long long)(m / k),
               (unsigned long long)(m / k * k));
    return block ? print_blocked_rates(m, n, (unsigned)k, block) : 0;
}

/* ---- size ---- */

/* size --bits-per-key: leveldb and rocksdb-* from the bits per key the libraries take. */
static int size_bits_per_key(const sizing_rule_t *rule, uint64_t n, double p, double bpk, int geometry)
{
    if (!n)
        return die(2, "size: --keys is required (got no --keys)");
    if (p >= 0)
        return die(2, "size: give --rate or --bits-per-key, not both (got both)");
    if (geometry)
        return die(2, "size: --block-bits and --k apply only to the block rules (got '--rule "
                      "%s')", rule->name);
    uint64_t mc, m;
    unsigned k;
    int st = sizing_design_bpk(rule, n, bpk, &mc, &m, &k);
    if (st != SIZING_OK)
        return die(2, "size: %s (got '--rule %s --keys %llu --bits-per-key %g')",
                   sizing_strerror(st), rule->name, (unsigned long long)n, bpk);
    printf("rule %s: n = %llu keys at %g bits per key\n", rule->name,
           (unsigned long long)n, bpk);
    printf("m = %llu bits (%.4g bits per key), k = %u, %llu bytes\n", (unsigned long long)m,
           (double)m / (double)n, k, (unsigned long long)((m + 7) / 8));
    if (mc != m)
        printf("the library computes %llu bits; its filter indexes %llu bits\n",
               (unsigned long long)mc, (unsigned long long)m);
    printf("promised         (none: the library takes bits per key, not a rate)\n");
    double x;
    if (sizing_rate_exact(rule, m, n, 0, k, &x) == SIZING_OK)
        printf("delivered        %.17g (the exact rate at m of ideal hashing, %s)\n", x,
               sizing_structure_label(rule));
    else
        printf("delivered        (the exact rate cannot be computed at this m)\n");
    return 0;
}

static int cmd_size(int argc, char **argv)
{
    uint64_t n = 0, block = 0, kreq = 0;
    double p = -1, bpk = -1;
    const sizing_rule_t *rule = sizing_rule_at(0); /* calculateparams */
    for (int i = 1; i < argc; i++) {
        int missing = 0;
        const char *v, *nm = argv[i];
        if (is_help(argv[i])) {
            puts("usage: bloomsim size --keys N --rate P [--rule RULE] [--block-bits B] [--k K]\n"
                 "       bloomsim size --keys N --bits-per-key B --rule leveldb|rocksdb-fastlocal|"
                 "rocksdb-legacy\n\n"
                 "Designs a filter for N keys at target false-positive rate P and prints the\n"
                 "bits m its library's filter indexes, probes k, bytes, and the formula and\n"
                 "exact rates at N keys; and the bits the rule computes where they differ.\n"
                 "  calculateparams  m = ceil(N b), b = -ln P / ln^2 2, k = ceil(b ln 2)\n"
                 "                   (seed 002, Bendersky's CalculateParams)\n"
                 "  guava            computed c = floor(-N ln P / ln^2 2), k = round(c/N ln 2),\n"
                 "                   >= 1; the filter indexes m = 64 ceil(c/64) bits (whole\n"
                 "                   64-bit words, as Guava's bit array allocates them)\n"
                 "Block rules (split-block: blocks of B = 256 bits, k = 8 words of B/k bits,\n"
                 "one bit per word, as Parquet and Arrow; blocked: B = 512, k positions in\n"
                 "one block) print the exact rate of the filter designed instead:\n"
                 "  split-block-formula  computed ceil(N c), c = -k / ln(1 - P^(1/k)) bits per\n"
                 "                   key (Parquet's formula), rounded up to whole blocks;\n"
                 "                   Parquet's writers then round up to a power of two bytes,\n"
                 "                   this rule does not. Prints the rate that size delivers\n"
                 "                   beside the promised P\n"
                 "  split-block-exact    the fewest whole blocks whose exact rate is <= P\n"
                 "  blocked-exact    the fewest whole blocks whose exact rate is <= P, at the k\n"
                 "                   that minimises it (or --k)\n"
                 "  the exact rules also print the size the formula would give, and its rate.\n"
                 "--block-bits B and --k K change a block rule's geometry (split-block: K\n"
                 "dividing B; blocked: B <= 2^18).\n"
                 "Library rules size as the library does (its rounding to words, lines or\n"
                 "powers of two, its caps, its refusals) and print the bits it computes, the\n"
                 "bits its filter indexes, and the exact rate that filter delivers beside P:\n"
                 "  leveldb, rocksdb-fastlocal, rocksdb-legacy  take bits per key: P becomes\n"
                 "                   -ln P / ln^2 2 (leveldb: rounded up to whole bits), or\n"
                 "                   --bits-per-key B gives them as the library takes them\n"
                 "  sbbf             Parquet/Arrow: -8N / ln(1 - P^(1/8)), power of two bytes\n"
                 "                   in [32 bytes, 128 MiB]\n"
                 "  kudu-block       Kudu/Impala (older MinLogSpace): the same formula, a\n"
                 "                   power of two of 32-byte buckets, 2 to 2^32\n"
                 "  spark, orc, redisson  Guava's formula, 64-bit words (orc: always one\n"
                 "                   more), none (redisson, at most 2^32 - 2 bits)\n"
                 "  cassandra        BloomCalculations' table of buckets per element (2 to 20),\n"
                 "                   N buckets + 20 bits in 64-bit words; refuses P < 6.71e-5\n"
                 "  bits-and-blooms, libbloom, rust-bloomfilter, fastbloom, hadoop (k = 5,\n"
                 "                   BloomMapFile's formula), hive-bloomk (Guava's formula,\n"
                 "                   padded to whole 512-bit blocks), redisbloom (its formula\n"
                 "                   at P/2, as BF.RESERVE builds), redisbloom-pow2 (2017-19:\n"
                 "                   a power of two above N b), commons, pybloom-live (k =\n"
                 "                   ceil(log2 1/P) slices), bloomfilter-js (32-bit buckets)\n"
                 "bloomsim audit --list names the library behind each rule.");
            return 0;
        }
        if ((v = opt_value(argc, argv, &i, "--keys", &missing))) {
            if (parse_count(v, &n) || n == 0)
                return die(2, "size: --keys must be a whole number >= 1 (got '%s')", v);
        } else if ((v = opt_value(argc, argv, &i, "--rate", &missing))) {
            if (parse_rate("size", "--rate", v, &p))
                return 2;
        } else if ((v = opt_value(argc, argv, &i, "--rule", &missing))) {
            if (!(rule = sizing_find(v))) {
                char names[1024];
                size_t at = 0;
                for (size_t r = 0; r < sizing_rule_count() && at < sizeof names; r++)
                    at += (size_t)snprintf(names + at, sizeof names - at, "%s%s", r ? ", " : "",
                                           sizing_rule_at(r)->name);
                return die(2, "size: --rule must be a sizing rule: %s (got '%s')", names, v);
            }
        } else if ((v = opt_value(argc, argv, &i, "--bits-per-key", &missing))) {
            char *end;
            bpk = strtod(v, &end);
            if (end == v || *end || !(bpk >= 0 && bpk < 1e18))
                return die(2, "size: --bits-per-key must be a number >= 0 (got '%s')", v);
        } else if ((v = opt_value(argc, argv, &i, "--block-bits", &missing))) {
            if (parse_count(v, &block) || block == 0)
                return die(2, "size: --block-bits must be a whole number >= 1 (got '%s')", v);
        } else if ((v = opt_value(argc, argv, &i, "--k", &missing))) {
            if (parse_count(v, &kreq) || kreq == 0 || kreq > SIZING_MAX_K)
                return die(2, "size: --k must be a whole number from 1 to %d (got '%s')",
                           SIZING_MAX_K, v);
        } else if (missing) {
            return die(2, "size: %s needs a value (got nothing)", nm);
        } else {
            return die(2, "size: unknown argument (got '%s'); see bloomsim size --help", nm);
        }
    }
    if (bpk >= 0)
        return size_bits_per_key(rule, n, p, bpk, block || kreq);
    if (!n || p < 0)
        return die(2, "size: --keys and --rate are required (got %s)",
                   !n ? "no --keys" : "no --rate");
    uint64_t B = rule->kind == SIZING_RULE_BLOCK ? rule->block_bits : 0;
    if (!B && (block || kreq))
        return die(2, "size: --block-bits and --k apply only to the block rules (got '--rule "
                      "%s')", rule->name);
    if (block)
        B = block;
    uint64_t mc, m;
    unsigned k;
    int st = sizing_design_blocked(rule, n, p, block, (unsigned)kreq, &mc, &m, &k);
    if (st == SIZING_EBLOCK)
        return die(2, "size: %s (got '--rule %s --block-bits %llu --k %llu')",
                   sizing_strerror(st), rule->name, (unsigned long long)B,
                   (unsigned long long)kreq);
    if (st != SIZING_OK)
        return die(st == SIZING_ERATE ? 1 : 2, "size: %llu keys at %g: %s (got '--keys %llu "
                   "--rate %g')", (unsigned long long)n, p, sizing_strerror(st),
                   (unsigned long long)n, p);
    printf("rule %s: n = %llu keys at target rate %g\n", rule->name,
           (unsigned long long)n, p);
    printf("m = %llu bits (%.4g bits per key), k = %u, %llu bytes\n", (unsigned long long)m,
           (double)m / (double)n, k, (unsigned long long)((m + 7) / 8));
    double x;
    if (rule->kind == SIZING_RULE_LIBRARY) {
        if (rule->bpk_from_rate)
            printf("the library takes bits per key, not a rate: P becomes -ln P / ln^2 2 = %.6g "
                   "(%s)\n", -log(p) / (log(2.0) * log(2.0)), rule->bpk_from_rate);
        if (mc != m)
            printf("the library computes %llu bits; its filter indexes %llu bits\n",
                   (unsigned long long)mc, (unsigned long long)m);
        const char *what = sizing_structure_label(rule);
        printf("promised         %.17g\n", p);
        if (sizing_rate_exact(rule, m, n, 0, k, &x) == SIZING_OK) {
            printf("delivered        %.17g (the exact rate at m of ideal hashing, %s)\n", x,
                   what);
            printf("delivered / promised = %.4g\n", x / p);
        } else {
            printf("delivered        (the exact rate cannot be computed at this m)\n");
        }
        return 0;
    }
    if (!B) {
        if (mc != m)
            printf("the rule computes %llu bits; the filter allocates %llu 64-bit words and "
                   "indexes all %llu bits\n", (unsigned long long)mc,
                   (unsigned long long)(m / 64), (unsigned long long)m);
        printf("formula          %.17g\n", rate_formula(m, n, k));
        printf("formula_finite   %.17g\n", rate_formula_finite(m, n, k));
        if (rate_exact(m, n, k, &x) == RATE_OK)
            printf("exact            %.17g\n", x);
        else
            printf("exact            (m past 2^40 or k past the exact forms' domain)\n");
        return 0;
    }
    int split = rule->over == SIZING_OVER_SPLIT;
    if (split)
        printf("split-block: %llu block%s of %llu bits, each k = %u words of %llu bits, one "
               "bit per word\n", (unsigned long long)(m / B), m == B ? "" : "s",
               (unsigned long long)B, k, (unsigned long long)(B / k));
    else
        printf("blocked: %llu block%s of %llu bits, k = %u positions in one block (%s)\n",
               (unsigned long long)(m / B), m == B ? "" : "s", (unsigned long long)B, k,
               kreq ? "as given" : "the k up to 64 that minimises the exact rate at this size");
    if (sizing_rate_exact(rule, m, n, block, k, &x) != SIZING_OK)
        return die(1, "size: the exact rate at %llu bits could not be computed",
                   (unsigned long long)m);
    if (rule == sizing_find("split-block-formula")) {
        printf("the rule computes %llu bits (%.6g bits per key), ceil(n c) with c = -k / "
               "ln(1 - p^(1/k)), and rounds them up to whole blocks\n", (unsigned long long)mc,
               (double)mc / (double)n);
        printf("promised         %.17g\n", p);
        printf("delivered        %.17g (the exact rate of split-block at m)\n", x);
        printf("delivered / promised = %.4g\n", x / p);
        return 0;
    }
    printf("exact            %.17g (at most the target %g)\n", x, p);
    double fewer;
    if (m > B && sizing_rate_exact(rule, m - B, n, block, k, &fewer) == SIZING_OK)
        printf("one block fewer  %.17g (%llu blocks, k = %u)\n", fewer,
               (unsigned long long)(m / B - 1), k);
    uint64_t fmc, fm;
    double fx;
    if (sizing_formula_blocks(n, p, B, k, &fmc, &fm) == SIZING_OK &&
        sizing_rate_exact(rule, fm, n, block, k, &fx) == SIZING_OK)
        printf("formula size     %llu bits (%.4g bits per key): ceil(n c), c = -k / ln(1 - "
               "p^(1/k)) at k = %u, in whole blocks\n"
               "formula delivers %.17g, %.4g times the target; the exact size is %.4g%% "
               "larger\n", (unsigned long long)fm, (double)fm / (double)n, k, fx, fx / p,
               100.0 * ((double)m / (double)fm - 1));
    return 0;
}

/* ---- probes ---- */

/* The index of a hash-word option --h1 .. --hN (N = SCHEME_MAX_WORDS), with or without
 * "=VALUE", or -1. */
static int hash_word_option(const char *arg)
{
    if (strncmp(arg, "--h", 3) != 0 || arg[3] < '1' || arg[3] > '9')
        return -1;
    char *end;
    long j = strtol(arg + 3, &end, 10);
    if ((*end != '\0' && *end != '=') || j < 1 || j > SCHEME_MAX_WORDS)
        return -1;
    return (int)j - 1;
}

/* What `probes` was asked. */
typedef struct probes_args {
    const char *name, *draws;
    uint64_t m, k, block, h[SCHEME_MAX_WORDS];
    int have[SCHEME_MAX_WORDS];
} probes_args_t;

static const char probes_usage[] =
    "usage: bloomsim probes SCHEME --bits M --k K [--h1 A --h2 B ...] [--draws D1,...,DK]\n"
    "                          [--block-bits B]\n"
    "\n"
    "Prints the k positions SCHEME probes for a key, and the size m it actually uses, so\n"
    "that anyone can check a scheme against its definition (docs/model.md). A key is its\n"
    "hash words (h1, h2, ... as the scheme takes them; they must lie where the scheme draws\n"
    "them from, e.g. [0,m) for double, an odd stride for double-odd) and, for schemes that\n"
    "draw positions after them (independent, partitioned, blocked, split-block), the k\n"
    "draws: for blocked, h1 is the block and draw i the position in it. --block-bits sets\n"
    "the block size of the blocked schemes (default 512 for blocked, 256 for split-block).\n";

/* Parse probes' arguments. Returns -1 to go on, else the exit status (reported). */
static int parse_probes_args(int argc, char **argv, probes_args_t *a)
{
    for (int i = 1; i < argc; i++) {
        int missing = 0, w;
        const char *v, *nm = argv[i];
        char opt[16];
        uint64_t *dst = NULL;
        if (is_help(argv[i])) {
            fputs(probes_usage, stdout);
            return 0;
        }
        if ((v = opt_value(argc, argv, &i, "--bits", &missing)))
            dst = &a->m;
        else if ((v = opt_value(argc, argv, &i, "--k", &missing)))
            dst = &a->k;
        else if ((v = opt_value(argc, argv, &i, "--block-bits", &missing)))
            dst = &a->block;
        else if ((v = opt_value(argc, argv, &i, "--draws", &missing))) {
            a->draws = v;
            continue;
        } else if ((w = hash_word_option(argv[i])) >= 0 &&
                   (snprintf(opt, sizeof opt, "--h%d", w + 1),
                    v = opt_value(argc, argv, &i, opt, &missing)))
            dst = &a->h[w], a->have[w] = 1;
        else if (missing)
            return die(2, "probes: %s needs a value (got nothing)", nm);
        else if (argv[i][0] == '-' || a->name)
            return die(2, "probes: unknown argument (got '%s'); see bloomsim probes --help", nm);
        else {
            a->name = argv[i];
            continue;
        }
        if (parse_count(v, dst))
            return die(2, "probes: %s must be a whole number (got '%s')", nm, v);
    }
    return -1;
}

/* The k draws of --draws into d, each below the scheme's bound. Returns 0 or 2. */
static int parse_draws(const scheme_t *s, const probe_geom_t *g, const char *text, uint64_t *d)
{
    if (!text)
        return die(2, "probes: scheme %s draws its positions%s: give --draws with k = %u "
                      "values (got nothing)", s->name,
                   s->nwords ? " after its hash words" : "", g->k);
    const char *p = text;
    for (unsigned i = 0; i < g->k; i++) {
        char *end;
        errno = 0;
        if (*p < '0' || *p > '9')
            return die(2, "probes: --draws needs k = %u whole numbers separated by commas "
                          "(got '%s')", g->k, text);
        d[i] = strtoull(p, &end, 10);
        if (errno || (*end != ',' && *end != '\0') || (*end == '\0') != (i + 1 == g->k))
            return die(2, "probes: --draws needs k = %u whole numbers separated by commas "
                          "(got '%s')", g->k, text);
        if (d[i] >= s->draw_bound(g, i))
            return die(2, "probes: draw %u of %s must be below %llu (got '%llu')", i + 1,
                       s->name, (unsigned long long)s->draw_bound(g, i),
                       (unsigned long long)d[i]);
        p = end + 1;
    }
    return 0;
}

static int cmd_probes(int argc, char **argv)
{
    probes_args_t a = {0};
    int rc = parse_probes_args(argc, argv, &a);
    if (rc >= 0)
        return rc;
    if (!a.name)
        return die(2, "probes: name a scheme (got nothing); bloomsim list shows them");
    const scheme_t *s = scheme_find(a.name);
    if (!s)
        return die(2, "probes: unknown scheme (got '%s'); bloomsim list shows them", a.name);
    if (a.m < 2 || a.m > (UINT64_C(1) << 62) || a.k < 1 || a.k > 1000)
        return die(2, "probes: need --bits from 2 to 2^62 and --k from 1 to 1000 (got "
                      "bits '%llu', k '%llu')", (unsigned long long)a.m, (unsigned long long)a.k);
    for (unsigned j = 0; j < s->nwords; j++)
        if (!a.have[j])
            return die(2, "probes: scheme %s needs --h%u (got nothing)", a.name, j + 1);
    for (unsigned j = s->nwords; j < SCHEME_MAX_WORDS; j++)
        if (a.have[j])
            return die(2, "probes: scheme %s takes no --h%u (got '%llu')", a.name, j + 1,
                       (unsigned long long)a.h[j]);
    if (a.draws && !s->positions_drawn)
        return die(2, "probes: scheme %s takes no draws: its positions come from its hash "
                      "words alone (got '--draws %s')", a.name, a.draws);
    probe_geom_t g;
    int st = s->geometry(a.m, (unsigned)a.k, a.block, &g);
    if (st != SCHEME_OK)
        return die(2, "probes: %s at bits = %llu, k = %llu: %s (got '%llu')", a.name,
                   (unsigned long long)a.m, (unsigned long long)a.k, scheme_strerror(st),
                   (unsigned long long)(st == SCHEME_EBLOCK ? a.block
                                        : st == SCHEME_ESPLIT || st == SCHEME_EKBIG ||
                                                  st == SCHEME_EKFIXED ? a.k : a.m));
    st = s->nwords ? s->check_words(&g, a.h) : SCHEME_OK;
    if (st != SCHEME_OK) {
        char got[256] = "";
        for (unsigned j = 0, at = 0; j < s->nwords && at < sizeof got; j++)
            at += (unsigned)snprintf(got + at, sizeof got - at, "%sh%u '%llu'", j ? ", " : "",
                                     j + 1, (unsigned long long)a.h[j]);
        return die(2, "probes: %s with m = %llu: %s (got %s)", a.name, (unsigned long long)g.m,
                   scheme_strerror(st), got);
    }
    uint64_t *pos = malloc(2 * a.k * sizeof *pos);
    if (!pos)
        return die(1, "out of memory");
    if (s->positions_drawn && parse_draws(s, &g, a.draws, pos + a.k)) {
        free(pos);
        return 2;
    }
    if (s->positions_drawn)
        s->positions_drawn(&g, a.h, pos + a.k, pos);
    else
        s->positions(&g, a.h, pos);
    printf("scheme %s, m = %llu (requested %llu), k = %llu", a.name, (unsigned long long)g.m,
           (unsigned long long)a.m, (unsigned long long)a.k);
    if (g.block)
        printf(", block %llu of %llu (bits %llu..%llu)", (unsigned long long)a.h[0],
               (unsigned long long)g.blocks, (unsigned long long)(a.h[0] * g.block),
               (unsigned long long)(a.h[0] * g.block + g.block - 1));
    putchar('\n');
    for (uint64_t i = 0; i < a.k; i++)
        printf("%llu%c", (unsigned long long)pos[i], i + 1 < a.k ? ' ' : '\n');
    free(pos);
    return 0;
}

/* ---- columns ---- */

static int cmd_columns(int argc, char **argv)
{
    int markdown = 0;
    for (int i = 1; i < argc; i++) {
        if (is_help(argv[i])) {
            puts("usage: bloomsim columns [--markdown]\n\n"
                 "Prints the columns of the result table, in CSV order, with their meaning\n"
                 "(--markdown: as the table of docs/model.md, which is generated from it).");
            return 0;
        }
        if (strcmp(argv[i], "--markdown") != 0)
            return die(2, "columns: unknown argument (got '%s'); see bloomsim columns --help",
                       argv[i]);
        markdown = 1;
    }
    csv_print_columns(stdout, markdown);
    return 0;
}

/* ---- audit ---- */

static const char audit_usage[] =
    "usage: bloomsim audit LIBRARY --keys N --rate P [--precision R] [--max-filters F]\n"
    "                      [--threads T] [--seed S]\n"
    "       bloomsim audit --list [--tsv]\n"
    "\n"
    "Designs LIBRARY's filter for N keys at target false-positive rate P with the\n"
    "library's own sizing rule, builds it with the library's own index arithmetic,\n"
    "measures its rate to relative standard error R (default 0.02) and prints the\n"
    "promise, the measured rate with its 95% interval, their ratio, the exact rate of\n"
    "uniform independent probes at the same m and k, the exact rate of its blocks or\n"
    "slices where it has them, and the model of its departure where one is known.\n"
    "bloomsim feeds the arithmetic ideal uniform hash words of the library's width: it\n"
    "measures the library's arithmetic and sizing, never its hash function's quality.\n"
    "\n"
    "  --list           the libraries, with the version each follows (--tsv: with the\n"
    "                   cause and report, tab-separated, as results/libraries.tsv)\n"
    "  --precision R    target relative standard error, above 0 and below 1\n"
    "  --max-filters F  build at most F filters (default 1000)\n"
    "  --threads T      threads (default: all); --seed S  seed (default 1)\n"
    "\n"
    "Ctrl-C (SIGINT) or SIGTERM stops it; exit 130 or 143.\n";

static int audit_list(int tsv)
{
    if (tsv) { /* for scripts/report: one library a line, tab-separated */
        for (size_t i = 0; i < library_count(); i++) {
            const library_t *l = library_at(i);
            printf("%s\t%s\t%s\t%s\t%s\t%s\t%s\n", l->name, l->scheme->name,
                   l->sizing->name, l->hash, l->version, l->cause, l->report);
        }
        return 0;
    }
    printf("%-22s %-18s %-16s %-22s %s\n", "library", "scheme", "sizing", "hash", "version");
    for (size_t i = 0; i < library_count(); i++) {
        const library_t *l = library_at(i);
        printf("%-22s %-18s %-16s %-22s %s\n", l->name, l->scheme->name, l->sizing->name,
               l->hash, l->version);
    }
    return 0;
}

/* "x1.234 (z = 5.6)": a rate over a reference, and how many standard errors apart. */
static void print_against(const char *label, double ref, const stats_summary_t *s,
                          const char *what)
{
    if (isnan(ref))
        return;
    printf("  %-10s %-12.4g measured / this = %.4g", label, ref, s->rate / ref);
    if (s->stderr_ > 0)
        printf(" (%+.1f standard errors)", (s->rate - ref) / s->stderr_);
    printf("\n             %s\n", what);
}

static int cmd_audit(int argc, char **argv)
{
    const library_t *lib = NULL;
    uint64_t n = 0, seed = 1, max_filters = AUDIT_MAX_FILTERS;
    double p = -1, precision = AUDIT_PRECISION;
    int threads = omp_get_max_threads(), list = 0, tsv = 0;
    for (int i = 1; i < argc; i++) {
        int missing = 0;
        const char *v, *nm = argv[i];
        uint64_t t;
        if (is_help(argv[i])) {
            fputs(audit_usage, stdout);
            return 0;
        }
        if (strcmp(argv[i], "--list") == 0) {
            list = 1;
            continue;
        }
        if (strcmp(argv[i], "--tsv") == 0) {
            tsv = 1;
            continue;
        }
        if ((v = opt_value(argc, argv, &i, "--keys", &missing))) {
            if (parse_count(v, &n) || n == 0)
                return die(2, "audit: --keys must be a whole number >= 1 (got '%s')", v);
        } else if ((v = opt_value(argc, argv, &i, "--rate", &missing))) {
            if (parse_rate("audit", "--rate", v, &p))
                return 2;
        } else if ((v = opt_value(argc, argv, &i, "--precision", &missing))) {
            if (parse_rate("audit", "--precision", v, &precision))
                return 2;
        } else if ((v = opt_value(argc, argv, &i, "--max-filters", &missing))) {
            if (parse_count(v, &max_filters) || max_filters < 2 || max_filters > (UINT64_C(1) << 40))
                return die(2, "audit: --max-filters must be a whole number from 2 to 2^40 "
                              "(got '%s')", v);
        } else if ((v = opt_value(argc, argv, &i, "--threads", &missing))) {
            if (parse_count(v, &t) || t < 1 || t > 4096)
                return die(2, "audit: --threads must be a whole number from 1 to 4096 (got "
                              "'%s')", v);
            threads = (int)t;
        } else if ((v = opt_value(argc, argv, &i, "--seed", &missing))) {
            if (parse_count(v, &seed))
                return die(2, "audit: --seed must be a whole number (got '%s')", v);
        } else if (missing) {
            return die(2, "audit: %s needs a value (got nothing)", nm);
        } else if (argv[i][0] == '-' || lib) {
            return die(2, "audit: unknown argument (got '%s'); see bloomsim audit --help", nm);
        } else if (!(lib = library_find(argv[i]))) {
            return die(2, "audit: unknown library (got '%s'); bloomsim audit --list names "
                          "them", argv[i]);
        }
    }
    if (list)
        return audit_list(tsv);
    if (tsv)
        return die(2, "audit: --tsv goes with --list (got '--tsv' alone)");
    if (!lib || !n || p < 0)
        return die(2, "audit: LIBRARY, --keys and --rate are required (got %s)",
                   !lib ? "no library" : !n ? "no --keys" : "no --rate");
    exp_row_t row;
    audit_design_t d;
    char err[EXP_ERR_LEN];
    if (audit_plan(lib, n, p, precision, max_filters, &row, &d, err, sizeof err))
        return die(2, "%s", err);
    /* Memory before any work, as `run` checks it. */
    uint64_t avail = runner_mem_available();
    double need = sim_memory(&row, threads) +
                  RUNNER_BYTES_PER_FILTER * (double)row_max_filters(&row);
    if (!runner_fits(need, avail))
        return die(2, "audit: %s's filter for %llu keys at %g (%llu bits) needs %.1f GiB, only "
                      "%.1f GiB available (got '--keys %llu')", lib->name,
                   (unsigned long long)n, p, (unsigned long long)d.m, need / 1073741824.0,
                   (double)avail / 1073741824.0, (unsigned long long)n);
    uint64_t F = row_max_filters(&row);
    row_out_t out = {.counts = calloc(F, sizeof(uint64_t)), .rates = calloc(F, sizeof(double)),
                     .popcounts = calloc(F, sizeof(uint64_t))};
    if (!out.counts || !out.rates || !out.popcounts) {
        free(out.counts), free(out.rates), free(out.popcounts);
        return die(1, "audit: out of memory for %llu filters", (unsigned long long)F);
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    progress_t ps;
    tty_progress_t tp = {.name = lib->name};
    progress_start(&ps, isatty(STDERR_FILENO) ? show_progress : NULL, &tp, 1,
                   est_row_work(&row), 0);
    double t0 = progress_now();
    uint64_t used = 0;
    int rc = sim_row(&row, seed, 0, threads, &out, &used, &ps, &stop_signal);
    double secs = progress_now() - t0;
    if (tp.active)
        fputs("\r\033[K", stderr);
    stats_summary_t s;
    if (rc == 0 && sim_summarize(&row, used, &out, &s) != 0)
        rc = -1;
    free(out.counts), free(out.rates), free(out.popcounts);
    if (rc == 1)
        return die(128 + atomic_load(&stop_signal), "audit: stopped (got signal %d)",
                   atomic_load(&stop_signal));
    if (rc != 0)
        return die(1, "audit: out of memory for %llu-bit filters", (unsigned long long)d.m);
    printf("%s: %s\n", lib->name, lib->version);
    printf("  design     %llu keys at %g (sizing rule %s): m = %llu bits (%.3g MiB; the rule "
           "computes %llu), k = %u, scheme %s\n", (unsigned long long)n, p,
           lib->sizing->name, (unsigned long long)d.m,
           (double)d.m / 8388608.0, (unsigned long long)d.m_computed, d.k, lib->scheme->name);
    printf("  promised   %g\n", p);
    printf("  measured   %-12.4g 95%% interval %.4g to %.4g; standard error %.2g (%.2f%% "
           "relative)\n", s.rate, s.ci_low, s.ci_high, s.stderr_,
           s.rate > 0 ? 100 * s.stderr_ / s.rate : 0.0);
    printf("             %llu filters, %s estimator\n", (unsigned long long)used,
           (&row)->est->name);
    if (sim_counts(&row))
        printf("             %llu lookups, %llu false positives\n",
               (unsigned long long)s.lookups, (unsigned long long)s.false_positives);
    printf("  ratio      %.4g times the promise (interval %.4g to %.4g)\n", s.rate / p,
           s.ci_low / p, s.ci_high / p);
    print_against("uniform", d.uniform, &s, "exact rate of independent uniform probes at this "
                  "m, n and k");
    print_against("structure", d.structure, &s, "exact rate of its blocks, lines or slices "
                  "with uniform positions inside them");
    print_against("model", d.model, &s, "the model of its arithmetic (docs/model.md, Reference "
                  "rates)");
    printf("  cause      %s\n", lib->cause);
    if (*lib->report)
        printf("  report     %s\n", lib->report);
    printf("  seconds    %.1f on %d thread%s, seed %llu\n", secs, threads, threads == 1 ? "" : "s",
           (unsigned long long)seed);
    printf("Ideal uniform hash words of the library's width: this measures its index "
           "arithmetic and sizing, not its hash function.\n");
    return 0;
}

static const char usage[] =
    "usage: bloomsim COMMAND [ARGS] (bloomsim COMMAND --help for each)\n"
    "\n"
    "Measures how often Bloom filters keep their false-positive promise.\n"
    "\n"
    "  list      the named experiments and the probe schemes\n"
    "  run       run experiments, write CSV tables\n"
    "  exact     reference rates for m bits, n keys, k probes\n"
    "  probes    the positions a scheme probes for given hash words\n"
    "  size      design a filter for n keys at a target rate\n"
    "  audit     does a library's filter keep its promise? (audit --list: the libraries)\n"
    "  columns   the columns of the result table and what each means\n"
    "  --version print the version\n";

int main(int argc, char **argv)
{
    gsl_set_error_handler_off();
    if (argc < 2 || is_help(argv[1])) {
        fputs(usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("bloomsim %s\n", BLOOMSIM_VERSION);
        return 0;
    }
    if (strcmp(argv[1], "list") == 0)
        return cmd_list(argc - 1, argv + 1);
    if (strcmp(argv[1], "run") == 0) {
        /* The command line as typed, for the run metadata: allocated to fit, so it is
         * never cut short. */
        size_t len = 1;
        for (int i = 0; i < argc; i++)
            len += strlen(argv[i]) + 1;
        char *command = malloc(len);
        if (!command)
            return die(1, "out of memory");
        size_t used = 0;
        for (int i = 0; i < argc; i++) {
            size_t l = strlen(argv[i]);
            if (i)
                command[used++] = ' ';
            memcpy(command + used, argv[i], l);
            used += l;
        }
        command[used] = '\0';
        /* Under mpirun or srun, one rank of a distributed run (dist.h). */
        char err[256] = "";
        if (dist_init(&argc, &argv, err, sizeof err)) {
            free(command);
            return die(1, "run: %s", err);
        }
        quiet = !dist_leader();
        int rc = cmd_run(argc - 1, argv + 1, command);
        free(command);
        dist_finalize(rc);
        return rc;
    }
    if (strcmp(argv[1], "exact") == 0)
        return cmd_exact(argc - 1, argv + 1);
    if (strcmp(argv[1], "probes") == 0)
        return cmd_probes(argc - 1, argv + 1);
    if (strcmp(argv[1], "size") == 0)
        return cmd_size(argc - 1, argv + 1);
    if (strcmp(argv[1], "audit") == 0)
        return cmd_audit(argc - 1, argv + 1);
    if (strcmp(argv[1], "columns") == 0)
        return cmd_columns(argc - 1, argv + 1);
    return die(2, "unknown command (got '%s'); see bloomsim --help", argv[1]);
}
