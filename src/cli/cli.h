/* cli.h - what the commands of the command line share (src/cli/, one file per command;
 * main.c holds the table of commands, as git's builtin/ and git.c do): the one-line
 * messages and exit statuses, one option parser driven by a table of options (the idea
 * of the experiment parser's table of keys: name, kind, range, message), the options
 * several commands take (defined once below), the stop signals and the progress line.
 *
 * The command line is the only code that parses argv, prints or exits: 0 success, 2 bad
 * input (one line naming the option and the value), 1 a runtime failure.
 */
#ifndef BLOOMSIM_CLI_H
#define BLOOMSIM_CLI_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "base/progress.h"

/* A command: its name, one line for `bloomsim --help`, its entry point, which gets argv
 * from the command's name on and returns the exit status, and whether it may run as
 * one rank of a distributed run (main.c starts MPI around it; dist.h). */
typedef struct cli_command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv);
    int distributed;
} cli_command_t;

/* The command line as typed, for a run's metadata (main.c sets it). */
extern const char *cli_command_line;

int cli_list(int argc, char **argv);
int cli_run(int argc, char **argv);
int cli_exact(int argc, char **argv);
int cli_probes(int argc, char **argv);
int cli_crossread(int argc, char **argv);
int cli_size(int argc, char **argv);
/* size --help (size_help.c). */
void cli_size_help(void);

/* audit --help, and audit --list with --tsv or --hashes (1: given), its exit status
 * (audit_help.c). */
void cli_audit_help(void);
int cli_audit_list(int tsv, int hashes);
int cli_audit(int argc, char **argv);
int cli_columns(int argc, char **argv);
int cli_adapter(int argc, char **argv);

/* Measure what x asks (audit/exec.h's audit_exec_t) through its adapter (audit_exec.c);
 * Ctrl-C or SIGTERM stops it. Returns the exit status after printing the result (as
 * JSON when json is 1: audit_json.h), or its one-line message. */
struct audit_exec;
int cli_audit_exec(const struct audit_exec *x, int json);
/* `bloomsim audit CHAIN ...` (audit_chain.c): argv[1] names the chain c. */
struct library_chain;
int cli_audit_chain(const struct library_chain *c, int argc, char **argv);

/* audit FILTER for a fingerprint filter of a real library (audit_fp.c): its row for n keys
 * at rate (or, for RocksDB's Ribbon filter, bits_per_key >= 0; rate then unused) measured
 * to precision, printed. Returns the exit status, or 2 after its one-line message. */
struct fp_filter;
typedef struct cli_audit_fp {
    const struct fp_filter *filter;
    uint64_t n, seed, max_filters, threads;
    double rate, bits_per_key, precision;
    /* CF.RESERVE's capacity, bucket size, max iterations, expansion (UINT64_MAX: not
     * given) for a filter that takes them (fp_takes_reserve); rate < 0 then: its promise */
    uint64_t cf[4];
} cli_audit_fp_t;
int cli_audit_fingerprint(const cli_audit_fp_t *a);
/* CF.RESERVE's parameters cf (as cli_audit_fp_t's) that RedisBloom refuses, for f: 2
 * after one line naming the flag and RedisBloom's words, else 0. */
int cli_audit_cf_refused(const struct fp_filter *f, const uint64_t cf[4]);

/* Set on the ranks of a distributed run other than rank 0 (dist.h): rank 0 alone
 * reports, so a message appears once. */
extern int cli_quiet;

/* Print "bloomsim: MESSAGE" on stderr (unless cli_quiet) and return code. */
int cli_die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The end of every command (main.c): standard output flushed and checked, so that output
 * lost (a full disk, /dev/full, a file-size limit) is never reported as success. Returns
 * rc, or 1 after "bloomsim: writing standard output: REASON" where rc was 0 and the
 * output did not reach its destination (a failed command keeps its own status and line). */
int cli_finish_stdout(int rc);

/* The end of an audit's "target not reached" line when a key file's queried lines ran
 * out first (audit LIBRARY and audit --exec say it alike): inserts lines inserted, the
 * queried lines after them, of which asked were asked (whole batches: a remainder of
 * fewer lines than a batch is not). */
void cli_print_file_exhausted(uint64_t inserts, uint64_t queried, uint64_t asked);

/* An audit's line on its inserted keys (audit.h's audit_check_t; n keys a filter), and
 * the note on what its "standard errors" beside a reference rate mean (audit_exec.c). */
struct audit_check;
void cli_print_check(const struct audit_check *c, uint64_t n);
void cli_print_z_meaning(void);

/* Queried key j (0: the first after the inserted ones) of a key set that is the same in
 * every filter, as text into out: an integer in decimal, bytes with anything but
 * printable ASCII as \xNN, cut with "..." past about 60 characters. */
struct keyset;
void cli_key_text(const struct keyset *ks, uint64_t j, char *out, size_t len);

/* A one-filter audit's lines on its stated range (audit.h's audit_range_t): the queries
 * (ks's keys; precision: what the default was planned for), the exact count and rate,
 * and the rate's spread across the successive ranges; audit LIBRARY and audit --exec
 * print them alike. */
struct audit_range;
void cli_print_range(const struct audit_range *g, const struct keyset *ks, double precision);

/* ---- options ---- */

typedef enum {
    CLI_FLAG,  /* int, set to 1 */
    CLI_COUNT, /* uint64_t in [min, max], a count as values.h reads it (2e8 too) */
    CLI_RATE,  /* double strictly between 0 and 1 */
    CLI_REAL,  /* double in [lo, hi) */
    CLI_TEXT   /* const char *, the value as given (not empty when min is 1) */
} cli_kind_t;

typedef struct cli_opt {
    const char *name; /* "--keys" */
    cli_kind_t kind;
    void *dst;
    uint64_t min, max; /* CLI_COUNT; CLI_TEXT: min 1 refuses an empty value */
    double lo, hi;     /* CLI_REAL */
    const char *must;  /* "COMMAND: NAME must be MUST (got 'VALUE')" */
    int *given;        /* set to 1 when the option is given; may be NULL */
} cli_opt_t;

/* What a command's parse sees: its name (for messages), its usage (printed on --help
 * and -h; or printed by help(), for a usage made from a table), the word its messages
 * call an unknown option ("option" or "argument"), and
 * positional arguments, each handed to `positional` (which returns 0, or the exit
 * status after its message; NULL: none taken). */
typedef struct cli_spec {
    const char *command;
    const char *usage;       /* NULL: help() prints it */
    void (*help)(void);
    const char *unknown;
    const cli_opt_t *opts;
    size_t nopts;
    int (*positional)(void *ctx, const char *arg);
    void *ctx;
} cli_spec_t;

/* Parse argv[1..argc) (--name VALUE or --name=VALUE). Returns -1 to go on, else the
 * exit status: 0 after --help (usage printed unless cli_quiet), 2 after a one-line
 * message (a bad value, a missing value, an unknown option, a refused positional). */
int cli_parse(const cli_spec_t *spec, int argc, char **argv);

/* Refuse an option the command's mode does not use, so that nothing given does nothing:
 * the first of names (NULL-terminated) found in argv[1..argc) as spec parses it (a value
 * is never taken for an option) gives "COMMAND: NAME WHY (got 'NAME VALUE')" and 2;
 * -1 when none is there. */
int cli_refuse_unused(const cli_spec_t *spec, int argc, char **argv,
                      const char *const *names, const char *why);

/* The options several commands take, defined once: --keys N (>= 1), --rate P,
 * --threads T (1 to 4096), --seed S, --out DIR (not empty). */
#define CLI_OPT_KEYS(p) \
    {.name = "--keys", .kind = CLI_COUNT, .dst = (p), .min = 1, .max = UINT64_MAX, \
     .must = "a whole number >= 1"}
#define CLI_OPT_RATE(p) {.name = "--rate", .kind = CLI_RATE, .dst = (p)}
#define CLI_OPT_THREADS(p) \
    {.name = "--threads", .kind = CLI_COUNT, .dst = (p), .min = 1, \
     .max = CLI_THREADS_MAX, .must = "a whole number from 1 to 4096"}
/* The thread count of a command that runs filters when --threads is not given:
 * OMP_NUM_THREADS where set (its first level: "4,2" is 4), else the threads OpenMP
 * offers (the cores), each refused as --threads is outside 1 to 4096. Returns 0 with
 * *threads set, or 2 with the one-line message in err (not printed: a rank of a
 * distributed run reports through rank 0). */
#define CLI_THREADS_MAX 4096
int cli_default_threads(const char *command, uint64_t *threads, char *err, size_t errlen);
#define CLI_OPT_SEED(p) \
    {.name = "--seed", .kind = CLI_COUNT, .dst = (p), .min = 0, .max = UINT64_MAX, \
     .must = "a whole number"}
#define CLI_OPT_OUT(p) {.name = "--out", .kind = CLI_TEXT, .dst = (p), .min = 1, \
                        .must = "a directory"}

/* ---- runs: stop signals and the progress line ---- */

/* The signal that asked a run to stop (SIGINT, SIGTERM or SIGHUP), 0 while none has;
 * the runner polls it. cli_catch_stop installs the handlers, which do nothing else. */
extern atomic_int cli_stop_signal;
void cli_catch_stop(void);
/* For every command, once (main.c): SIGXFSZ ignored, so that a write past a file-size
 * limit fails with EFBIG and is reported as a full disk is; a key file that shrinks
 * while read (SIGBUS) is one line and exit 2, the finished rows kept for --resume and no
 * lock left. */
void cli_catch_faults(void);

/* The progress line on a terminal (stderr): the caller's context names the run. */
typedef struct cli_progress {
    const char *name;
    int active; /* a line was drawn: clear it before printing (cli_progress_clear) */
} cli_progress_t;
void cli_progress_show(const run_progress_t *p, void *ctx);
void cli_progress_clear(cli_progress_t *t);

/* Where `bloomsim run NAME` finds NAME.ini, in order (experiment_dirs.c): the shipped
 * experiments (installed: DATADIR/bloomsim/experiments; in the build tree: the
 * checkout's), ./experiments, $BLOOMSIM_EXPERIMENTS; each once, those that exist (the
 * last as given). dirs[] point into buf (the shipped one) or the environment. Returns
 * how many. cli_shipped_experiments: the first alone, into buf; 0, or -1 if it does not
 * fit. Neither prints. */
#define CLI_EXPERIMENT_DIRS 3
size_t cli_experiment_dirs(const char *dirs[CLI_EXPERIMENT_DIRS], char *buf, size_t len);
int cli_shipped_experiments(char *buf, size_t len);

#endif
