/* cli.c - see cli.h. */
#include "cli/cli.h"

#include <float.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <errno.h>
#include <unistd.h>

#include <omp.h>

#include "config.h"
#include "base/values.h"
#include "keys/keys.h"
#include "run/store.h"

int cli_quiet = 0;
const char *cli_command_line = "";

int cli_die(int code, const char *fmt, ...)
{
    if (cli_quiet)
        return code;
    va_list ap;
    va_start(ap, fmt);
    fputs("bloomsim: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return code;
}

int cli_finish_stdout(int rc)
{
    errno = 0;
    int flushed = fflush(stdout) == 0;
    int err = errno;
    if (flushed && !ferror(stdout))
        return rc;
    if (rc != 0) /* the command failed and said why: one line is enough */
        return rc;
    /* A write that failed before the last flush left no errno to trust. */
    return cli_die(1, "writing standard output: %s", flushed || !err ? "a write failed"
                   : strerror(err));
}

void cli_print_file_exhausted(uint64_t inserts, uint64_t queried, uint64_t asked)
{
    if (asked >= queried)
        printf(": every line of the key file after the %llu inserted is asked (%llu); a "
               "longer file goes further\n", (unsigned long long)inserts,
               (unsigned long long)queried);
    else
        printf(": %llu of the %llu lines of the key file after the %llu inserted are asked "
               "(whole batches); a longer file goes further\n", (unsigned long long)asked,
               (unsigned long long)queried, (unsigned long long)inserts);
}

/* ---- options ---- */

static int is_help(const char *a) { return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0; }

/* The option of spec that argv[*i] names, with its value in *value (NULL for a flag);
 * advances *i past the value. NULL when none matches; *missing when the value is absent. */
static const cli_opt_t *match(const cli_spec_t *spec, int argc, char **argv, int *i,
                              const char **value, int *missing)
{
    for (size_t j = 0; j < spec->nopts; j++) {
        const cli_opt_t *o = &spec->opts[j];
        size_t n = strlen(o->name);
        if (strncmp(argv[*i], o->name, n) != 0)
            continue;
        *value = NULL;
        if (o->kind == CLI_FLAG) {
            if (argv[*i][n] == '\0')
                return o;
            continue;
        }
        if (argv[*i][n] == '=') {
            *value = argv[*i] + n + 1;
            return o;
        }
        if (argv[*i][n] != '\0')
            continue;
        if (*i + 1 >= argc) {
            *missing = 1;
            return NULL;
        }
        *value = argv[++*i];
        return o;
    }
    return NULL;
}

/* Store the value v of option o; 0, or 2 after the option's one-line message. */
static int store(const cli_spec_t *spec, const cli_opt_t *o, const char *v)
{
    const char *cmd = spec->command;
    uint64_t x;
    double d;
    int st;
    switch (o->kind) {
    case CLI_FLAG:
        *(int *)o->dst = 1;
        return 0;
    case CLI_COUNT:
        if (values_count(v, &x) != VALUES_OK || x < o->min || x > o->max)
            return cli_die(2, "%s: %s must be %s (got '%s')", cmd, o->name, o->must, v);
        *(uint64_t *)o->dst = x;
        return 0;
    case CLI_RATE:
        st = values_real(v, &d);
        if (st == VALUES_UNDERFLOW)
            return cli_die(2, "%s: %s is below the smallest positive double, %g (got '%s')",
                           cmd, o->name, DBL_TRUE_MIN, v);
        if (st != VALUES_OK || !(d > 0 && d < 1))
            return cli_die(2, "%s: %s must be a number strictly between 0 and 1 (got '%s')",
                           cmd, o->name, v);
        *(double *)o->dst = d;
        return 0;
    case CLI_REAL:
        if (values_real(v, &d) != VALUES_OK || !(d >= o->lo && d < o->hi))
            return cli_die(2, "%s: %s must be %s (got '%s')", cmd, o->name, o->must, v);
        *(double *)o->dst = d;
        return 0;
    case CLI_TEXT:
        if (o->min && !*v)
            return cli_die(2, "%s: %s needs %s (got '')", cmd, o->name, o->must);
        *(const char **)o->dst = v;
        return 0;
    }
    return 2;
}

int cli_parse(const cli_spec_t *spec, int argc, char **argv)
{
    unsigned char seen[64] = {0}; /* an option given twice is refused: which one counts? */
    if (spec->nopts > sizeof seen)
        return cli_die(2, "%s: too many options in its table (got %zu)", spec->command,
                       spec->nopts);
    for (int i = 1; i < argc; i++) {
        if (is_help(argv[i])) {
            if (!cli_quiet && spec->usage)
                fputs(spec->usage, stdout);
            else if (!cli_quiet)
                spec->help();
            return 0;
        }
        int missing = 0;
        const char *v = NULL, *name = argv[i];
        const cli_opt_t *o = match(spec, argc, argv, &i, &v, &missing);
        if (o) {
            if (seen[o - spec->opts]++)
                return cli_die(2, "%s: %s is given more than once (got '%s')", spec->command,
                               o->name, name);
            int rc = store(spec, o, v);
            if (rc)
                return rc;
            if (o->given)
                *o->given = 1;
        } else if (missing) {
            return cli_die(2, "%s: %s needs a value (got nothing)", spec->command, name);
        } else if (argv[i][0] == '-' || !spec->positional) {
            return cli_die(2, "%s: unknown %s (got '%s'); see bloomsim %s --help",
                           spec->command, spec->unknown, name, spec->command);
        } else {
            int rc = spec->positional(spec->ctx, argv[i]);
            if (rc)
                return rc;
        }
    }
    return -1;
}

int cli_refuse_unused(const cli_spec_t *spec, int argc, char **argv,
                      const char *const *names, const char *why)
{
    for (int i = 1; i < argc; i++) {
        int missing = 0, at = i;
        const char *v = NULL;
        const cli_opt_t *o = match(spec, argc, argv, &i, &v, &missing);
        for (size_t j = 0; o && names[j]; j++)
            if (strcmp(o->name, names[j]) == 0)
                return cli_die(2, "%s: %s %s (got '%s%s%s')", spec->command, o->name, why,
                               argv[at], v && at == i ? "" : v ? " " : "", v && at != i ? v : "");
    }
    return -1;
}

int cli_default_threads(const char *command, uint64_t *threads, char *err, size_t errlen)
{
    const char *env = getenv("OMP_NUM_THREADS");
    if (env && *env) {
        char first[64];
        snprintf(first, sizeof first, "%.*s", (int)strcspn(env, ","), env);
        uint64_t t;
        /* as libgomp reads it: plain digits, blanks around them (not 1e3, nor 1_000) */
        const char *d = first + strspn(first, " \t");
        size_t nd = strspn(d, "0123456789");
        if (nd == 0 || d[nd + strspn(d + nd, " \t")] != '\0' ||
            values_count(first, &t) != VALUES_OK || t < 1 || t > CLI_THREADS_MAX) {
            snprintf(err, errlen, "%s: OMP_NUM_THREADS must be a whole number from 1 to %d "
                     "(got '%.60s'); --threads overrides it", command, CLI_THREADS_MAX, env);
            return 2;
        }
        *threads = t;
        return 0;
    }
    int t = omp_get_max_threads();
    if (t < 1 || t > CLI_THREADS_MAX) {
        snprintf(err, errlen, "%s: OpenMP offers %d threads, more than %d; give --threads "
                 "(got '%d')", command, t, CLI_THREADS_MAX, t);
        return 2;
    }
    *threads = (uint64_t)t;
    return 0;
}

/* ---- runs ---- */

/* A handler may only touch lock-free atomics (C11 7.14.1.1). */
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "atomic_int must be lock-free for the signal handler");
atomic_int cli_stop_signal = 0;

static void on_stop_signal(int sig)
{
    atomic_store_explicit(&cli_stop_signal, sig, memory_order_relaxed);
}

void cli_catch_stop(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL); /* a closed terminal: stop as Ctrl-C does */
}

/* Append s to buf[*used..len) (async-signal-safe: no stdio). */
static void put(char *buf, size_t len, size_t *used, const char *s)
{
    while (*s && *used + 1 < len)
        buf[(*used)++] = *s++;
}

static void put_u64(char *buf, size_t len, size_t *used, uint64_t v)
{
    char d[24];
    size_t n = 0;
    do
        d[n++] = (char)('0' + v % 10);
    while ((v /= 10) > 0);
    char s[24];
    for (size_t i = 0; i < n; i++)
        s[i] = d[n - 1 - i];
    s[n] = '\0';
    put(buf, len, used, s);
}

/* A key file truncated under its map faults past its new end (SIGBUS): one line, every
 * claim given up (the finished rows kept for --resume), exit 2. Any other bus error is
 * a bug, and a SIGBUS sent by kill is not ours to soften: the default action. */
static void on_bus(int sig, siginfo_t *si, void *ctx)
{
    (void)ctx;
    size_t size = 0;
    const char *path = keyset_file_at(si->si_addr, &size);
    if (!path) { /* a fault again on return, or the signal pending (kill -BUS) */
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    const char *partial = store_abandon();
    char line[2 * STORE_PATH_MAX + 512];
    size_t used = 0;
    put(line, sizeof line, &used, "bloomsim: key file ");
    put(line, sizeof line, &used, path);
    put(line, sizeof line, &used, ": changed while read (shorter than the ");
    put_u64(line, sizeof line, &used, size);
    put(line, sizeof line, &used, " bytes it had when opened)");
    if (partial) {
        put(line, sizeof line, &used, "; the finished rows are kept in ");
        put(line, sizeof line, &used, partial);
        put(line, sizeof line, &used, ": --resume finishes the run once the file is whole");
    }
    line[used++] = '\n';
    ssize_t w = write(STDERR_FILENO, line, used);
    (void)w;
    _exit(2);
}

void cli_catch_faults(void)
{
    /* Past a file-size limit (ulimit -f) a write fails with EFBIG, and takes the path
     * of a full disk (its message, its cleanup), instead of a silent death. */
    signal(SIGXFSZ, SIG_IGN);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_bus;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGBUS, &sa, NULL);
}

void cli_progress_show(const run_progress_t *p, void *ctx)
{
    cli_progress_t *t = ctx;
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
    /* No estimate before it means something: 5% of the work done over 2 seconds at
     * least (a first row's warm-up says nothing of the rest). */
    char eta[64] = "time left not yet known";
    if (p->work_fraction >= 0.05 && p->elapsed >= 2)
        snprintf(eta, sizeof eta, "%.0fm%02.0fs left", floor(left / 60), fmod(left, 60));
    fprintf(stderr, "\r\033[K%s: row %zu/%zu, %.0f%%, %s, %s", t->name, p->rows_done,
            p->rows_total, 100 * p->work_fraction, speed, eta);
    fflush(stderr);
    t->active = 1;
}

void cli_progress_clear(cli_progress_t *t)
{
    if (t->active)
        fputs("\r\033[K", stderr);
    t->active = 0;
}
