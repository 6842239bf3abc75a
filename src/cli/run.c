/* run.c - `bloomsim run NAME...`: check every experiment, run each (runner.h) and print
 * its compact table. */
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audit/exec_row.h"
#include "cli/cli.h"
#include "dist/dist.h"
#include "experiment/plan.h"
#include "run/runner.h"
#include "base/values.h"

static const char usage[] =
    "usage: bloomsim run NAME... [--quick] [--threads N] [--seed S] [--out DIR]\n"
    "                            [--resume] [--force]\n"
    "\n"
    "Runs each named experiment (NAME.ini, or a path to an .ini file) and writes\n"
    "DIR/NAME.csv with DIR/NAME.meta beside it (NAME.quick.csv with --quick). NAME.ini\n"
    "is looked for in order in: the shipped experiments (DATADIR/bloomsim/experiments,\n"
    "e.g. /usr/local/share/bloomsim/experiments; for build/bloomsim, the checkout's\n"
    "experiments/), ./experiments, $BLOOMSIM_EXPERIMENTS; bloomsim list shows each.\n"
    "\n"
    "  --quick      the experiment's [quick] scale: seconds, for tests and CI (without\n"
    "               a [quick]: at most 200 filters, 5 times that with a precision\n"
    "               target, 2e6 lookups and 256 strides a row)\n"
    "  --threads N  threads to use (default: all, or OMP_NUM_THREADS)\n"
    "  --seed S     seed (default: the experiment's seed, else 1); results are a pure\n"
    "               function of the definition, the seed and the program version\n"
    "  --out DIR    output directory (default: out)\n"
    "  --resume     finish an interrupted run (its finished rows are in NAME.csv.partial);\n"
    "               the result equals an uninterrupted run's, timing aside\n"
    "  --force      replace a result or interrupted run of another definition or seed\n"
    "\n"
    "Ctrl-C (SIGINT), SIGTERM or SIGHUP stops a run keeping every finished row; exit\n"
    "130, 143 or 129.\n"
    "Under mpirun or srun (a build with MPI), the ranks run it together, rank 0 writing\n"
    "the same table as one process (docs/cluster.md).\n";

/* The compact table of a design sweep's rows: one line a row. */
static void print_designs(const csv_row_t *rows, size_t nrows)
{
    printf("\n  %-8s %-34s %-14s %s\n", "keys", "structure, scheme", "rate", "x design rate");
    for (size_t i = 0; i < nrows; i++) {
        const csv_row_t *row = &rows[i];
        char what[288], blk[24] = "";
        if (row->block_bits != CSV_ABSENT)
            snprintf(blk, sizeof blk, "/%llu", (unsigned long long)row->block_bits);
        if (isnan(row->first_capacity))
            snprintf(what, sizeof what, "single, %s%s",
                     row->library ? row->library : row->scheme, blk);
        else if (isnan(row->tightening)) /* a chain of fingerprint filters: C/E */
            snprintf(what, sizeof what, "chain %g/%g, %s", row->first_capacity, row->growth,
                     row->scheme);
        else
            snprintf(what, sizeof what, "stack %g/%g/%g, %s%s", row->first_capacity,
                     row->growth, row->tightening, row->scheme, blk);
        printf("  %-8llu %-34s %-14.4e %.3g\n", (unsigned long long)row->n, what, row->rate,
               row->rate_over_design);
    }
}

/* The compact table of one sweep's rows, rows[0..nrows): one block per filter size,
 * bits per key down, schemes across, each cell the measured rate and its ratio to the
 * formula (rows come size-major, then bits per key, then scheme: plan_rows); for
 * designs and stacks, one line a row. */
static void print_sweep(const sweep_t *sw, const csv_row_t *rows, size_t nrows)
{
    exp_variant_t va[EXP_MAX_SCHEMES * EXP_MAX_LIST];
    size_t nsch = plan_variants(sw, va), nb = sw->keys ? 1 : sw->nbpk;
    if (sw->design_keys) {
        print_designs(rows, nrows);
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
 * DIR/NAME.ini of the first of dirs[0..nd) that has it (cli_experiment_dirs). 0 if
 * readable, -1 if not (none has it), -3 if that first one is unreadable, -2 if a path
 * does not fit: *dir is the directory whose did not (NULL for NAME itself). */
static int resolve_experiment(const char *name, const char *const *dirs, size_t nd,
                              char *path, size_t len, const char **dir)
{
    *dir = NULL;
    if (is_path(name)) {
        int n = snprintf(path, len, "%s", name);
        if (n < 0 || (size_t)n >= len)
            return -2;
        return access(path, R_OK) == 0 ? 0 : -1;
    }
    for (size_t d = 0; d < nd; d++) {
        int n = snprintf(path, len, "%s/%s.ini", dirs[d], name);
        if (n < 0 || (size_t)n >= len) {
            *dir = dirs[d];
            return -2;
        }
        if (access(path, F_OK) == 0) /* the first that has it, as bloomsim list says */
            return access(path, R_OK) == 0 ? 0 : -3;
    }
    return -1;
}

#define RUN_MAX_NAMES 64

typedef struct names {
    const char *name[RUN_MAX_NAMES];
    int n;
} names_t;

static int add_name(void *ctx, const char *arg)
{
    names_t *nm = ctx;
    if (nm->n == RUN_MAX_NAMES)
        return cli_die(2, "run: too many experiments (got '%s')", arg);
    nm->name[nm->n++] = arg;
    return 0;
}

/* run's options into o and its experiment names into nm. Returns -1 to go on, else the
 * exit status (0 after --help, 2 for bad input, reported). */
static int parse_run_args(int argc, char **argv, run_opts_t *o, names_t *nm)
{
    uint64_t threads = (uint64_t)o->threads;
    const cli_opt_t opts[] = {
        {.name = "--quick", .kind = CLI_FLAG, .dst = &o->quick},
        {.name = "--resume", .kind = CLI_FLAG, .dst = &o->resume},
        {.name = "--force", .kind = CLI_FLAG, .dst = &o->force},
        CLI_OPT_THREADS(&threads),
        {.name = "--seed", .kind = CLI_COUNT, .dst = &o->seed, .max = UINT64_MAX,
         .must = "a whole number", .given = &o->seed_given},
        CLI_OPT_OUT(&o->outdir),
    };
    cli_spec_t spec = {.command = "run", .usage = usage, .unknown = "option", .opts = opts,
                       .nopts = sizeof opts / sizeof opts[0], .positional = add_name,
                       .ctx = nm};
    int rc = cli_parse(&spec, argc, argv);
    o->threads = (int)threads;
    if (rc < 0 && nm->n == 0)
        return cli_die(2, "run: name an experiment (got nothing); bloomsim list shows them");
    return rc;
}

/* Load experiment names[i] into ex[i] and check that both its scales expand into rows
 * (so a full definition that cannot run fails its --quick test) and that no earlier one
 * writes the same files. Returns 0, or 2 (reported). */
static int load_checked(const names_t *nm, int i, const char *outdir, experiment_t *ex)
{
    char path[1024], err[EXP_ERR_LEN];
    const char *name = nm->name[i];
    const char *dirs[CLI_EXPERIMENT_DIRS], *dir;
    char shipped[1024];
    size_t nd = cli_experiment_dirs(dirs, shipped, sizeof shipped);
    int st = resolve_experiment(name, dirs, nd, path, sizeof path, &dir);
    if (st == -2) {
        if (!dir)
            return cli_die(2, "run: path too long, more than %zu bytes (got '%s')",
                           sizeof path - 1, name);
        return cli_die(2, "run: path too long, more than %zu bytes (got '%s/%s.ini')",
                       sizeof path - 1, dir, name);
    }
    if (st == -3 || (st && is_path(name)))
        return cli_die(2, "run: unknown experiment or unreadable file %s (got '%s'); "
                          "bloomsim list shows them", path, name);
    if (st) {
        char where[3200] = "";
        for (size_t d = 0; d < nd; d++)
            snprintf(where + strlen(where), sizeof where - strlen(where), "%s%s",
                     d == 0 ? " in " : d + 1 == nd ? " or " : ", ", dirs[d]);
        return cli_die(2, "run: unknown experiment or unreadable file (got '%s'): no "
                          "readable %s.ini%s; bloomsim list shows them", name, name,
                       nd ? where : " (no experiment directory exists)");
    }
    if (experiment_load(path, &ex[i], err, sizeof err))
        return cli_die(2, "%s", err);
    for (int q = 0; q < 2; q++)
        if (plan_rows_check(&ex[i], q, err, sizeof err))
            return cli_die(2, "%s", err);
    for (int j = 0; j < i; j++)
        if (strcmp(ex[j].name, ex[i].name) == 0)
            return cli_die(2, "run: %s and %s would both write %s/%s.csv; run them with "
                              "different --out (got '%s')", nm->name[j], name, outdir,
                           ex[i].name, name);
    return 0;
}

/* A row of an adapter's sweep (runner.h, exec_row): the first one sets the adapters'
 * world: SIGPIPE ignored (a dead adapter is an EPIPE, reported, not a silent exit), and
 * this bloomsim's own folder first on PATH, so that `exec = bloomsim adapter LIB` runs
 * the bloomsim that runs the experiment. */
static void exec_ready(int *ready)
{
    if (!*ready) {
        *ready = 1;
        signal(SIGPIPE, SIG_IGN);
        char self[PATH_MAX], path[2 * PATH_MAX];
        ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
        char *slash = len > 0 ? memchr(self, '/', (size_t)len) : NULL;
        if (slash) {
            self[len] = '\0';
            *strrchr(self, '/') = '\0';
            const char *old = getenv("PATH");
            snprintf(path, sizeof path, "%s%s%s", self[0] ? self : "/", old ? ":" : "",
                     old ? old : "");
            setenv("PATH", path, 1);
        }
    }
}

static int run_exec_row(void *ctx, const experiment_t *e, const row_run_t *run,
                        csv_row_t *result, char *err, size_t errlen)
{
    exec_ready(ctx);
    return audit_exec_row(NULL, e, run, result, err, errlen);
}

static int run_exec_check(void *ctx, const experiment_t *e, const exp_row_t *rows,
                          size_t nrows, char *err, size_t errlen)
{
    exec_ready(ctx);
    return audit_exec_rows_check(NULL, e, rows, nrows, err, errlen);
}

/* An adapter's row that answered "no" for an inserted key is a failed audit (exit 1,
 * docs/model.md, No false negatives), its row kept in the table. Returns 1 after a line
 * for each, else 0. */
static int exec_false_negatives(const run_result_t *res)
{
    int failed = 0;
    for (size_t i = 0; i < res->nrows; i++)
        if (res->plan[i].structure == STRUCT_EXEC && res->rows[i].refused > 0) {
            fprintf(stderr, "bloomsim: %s: row %zu: exec '%s' answered no for inserted keys: "
                    "%.6g false negatives per filter; a failed audit\n", res->csv_path, i + 1,
                    res->plan[i].exec, res->rows[i].refused);
            failed = 1;
        }
    return failed;
}

/* Print the outcome of one experiment's run: its table, or why it stopped. Returns the
 * exit status. */
static int report(const experiment_t *e, const run_opts_t *o, const run_result_t *res,
                  int rc, const char *err)
{
    if (rc == RUN_INTERRUPTED) {
        cli_die(rc, "%s", err);
        return 128 + atomic_load(&cli_stop_signal); /* 130 SIGINT, 143 SIGTERM, 129 SIGHUP */
    }
    if (rc)
        return cli_die(rc, "%s", err);
    if (cli_quiet)
        return exec_false_negatives(res);
    print_table(e, o->quick, res);
    if (dist_size() > 1)
        printf("\nwrote %s and %s (%.1f s, %d ranks, %d threads)\n", res->csv_path,
               res->meta_path, res->seconds, dist_size(), dist_threads_total());
    else
        printf("\nwrote %s and %s (%.1f s, %d thread%s)\n", res->csv_path, res->meta_path,
               res->seconds, o->threads, o->threads == 1 ? "" : "s");
    return exec_false_negatives(res);
}

/* Prepare every experiment (plan, memory, the claim on its outputs) before running any,
 * then run them in turn, stopping at the first failure; SIGINT and SIGTERM stop the run
 * in progress, keeping its finished rows. The claims not yet run are given up at the
 * end, latest first. Returns the exit status. */
static int run_all(const experiment_t *ex, int n, run_opts_t *o)
{
    cli_catch_stop();
    o->stop = &cli_stop_signal;
    run_result_t *res = calloc(n > 0 ? (size_t)n : 1, sizeof *res);
    if (!res)
        return cli_die(1, "out of memory");
    char err[EXP_ERR_LEN];
    int rc = 0, prepared = 0;
    for (; prepared < n && rc == 0; prepared++)
        rc = runner_prepare(&ex[prepared], o, &res[prepared], err, sizeof err);
    if (rc)
        cli_die(rc, "%s", err);
    for (int i = 0; i < n && rc == 0; i++) {
        cli_progress_t tp = {.name = ex[i].name};
        if (!cli_quiet && isatty(STDERR_FILENO)) {
            o->progress = cli_progress_show;
            o->progress_ctx = &tp;
        }
        rc = runner_execute(&ex[i], o, &res[i], err, sizeof err);
        cli_progress_clear(&tp);
        rc = report(&ex[i], o, &res[i], rc, err);
        runner_free(&res[i]); /* its claim ends with it */
    }
    while (prepared-- > 0)
        runner_free(&res[prepared]);
    free(res);
    return rc;
}

/* BLOOMSIM_RANK_TIMEOUT, where set: the seconds rank 0 of a distributed run gives a busy
 * worker that sends nothing (dist.h; docs/cluster.md). Returns 0, or 2 with the message
 * in err. */
static int set_rank_timeout(char *err, size_t errlen)
{
    const char *env = getenv("BLOOMSIM_RANK_TIMEOUT");
    double t;
    if (!env || !*env)
        return 0;
    if (values_real(env, &t) != VALUES_OK || !(t >= 2 && t <= 86400)) {
        snprintf(err, errlen, "run: BLOOMSIM_RANK_TIMEOUT must be a number of seconds from 2 "
                 "to 86400 (got '%.60s')", env);
        return 2;
    }
    dist_set_rank_timeout(t);
    return 0;
}

int cli_run(int argc, char **argv)
{
    int exec_ready = 0;
    run_opts_t o = {.threads = 0, .outdir = "out", .command = cli_command_line,
                    .exec_row = run_exec_row, .exec_check = run_exec_check,
                    .exec_ctx = &exec_ready};
    names_t nm = {.n = 0};
    int rc = parse_run_args(argc, argv, &o, &nm);
    if (rc >= 0)
        return rc;
    /* Without --threads, each rank's own OMP_NUM_THREADS or cores, and the rank timeout,
     * checked on every rank before anything is written (rank 0 reports the first that
     * fails). */
    char err[EXP_ERR_LEN] = "";
    uint64_t threads = (uint64_t)o.threads;
    rc = threads ? 0 : cli_default_threads("run", &threads, err, sizeof err);
    o.threads = (int)threads;
    if (rc == 0)
        rc = set_rank_timeout(err, sizeof err);
    rc = dist_agree(rc, err, sizeof err);
    if (rc)
        return cli_die(rc, "%s", err);
    /* Load and check every experiment before running any: rank 0 alone, which then
     * sends each to the other ranks of a distributed run. */
    experiment_t *ex = calloc((size_t)nm.n, sizeof *ex);
    rc = ex ? 0 : cli_die(1, "out of memory");
    for (int i = 0; i < nm.n && rc == 0 && dist_leader(); i++)
        rc = load_checked(&nm, i, o.outdir, ex);
    rc = dist_agree(rc, err, sizeof err);
    if (rc && err[0]) /* a failure of another rank; rank 0 reported its own */
        cli_die(rc, "%s", err);
    for (int i = 0; i < nm.n && rc == 0; i++) {
        rc = dist_agree(dist_share_experiment(&ex[i], err, sizeof err), err, sizeof err);
        if (rc)
            cli_die(rc, "%s", err);
    }
    if (rc == 0)
        rc = run_all(ex, nm.n, &o);
    free(ex);
    return rc;
}
