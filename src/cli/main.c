/* main.c - the bloomsim command line: a table of commands, one file each in src/cli/.
 *
 * Exit statuses: 0 success, 2 bad input (one line naming the file, line or option and
 * the value), 1 a runtime failure, 128 + the signal for a run stopped by SIGINT,
 * SIGTERM or SIGHUP (130, 143, 129).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>

#include "cli/cli.h"
#include "dist/dist.h"
#include "version.h"

static const cli_command_t commands[] = {
    {"list", "the named experiments and the probe schemes", cli_list, 0},
    {"run", "run experiments, write CSV tables", cli_run, 1},
    {"exact", "reference rates for m bits, n keys, k probes", cli_exact, 0},
    {"probes", "the positions a scheme probes for given hash words", cli_probes, 0},
    {"crossread", "a filter written by one scheme and read by another (same m and k)",
     cli_crossread, 0},
    {"size", "design a filter for n keys at a target rate", cli_size, 0},
    {"audit", "does a library's filter keep its promise? (audit --list: the libraries)",
     cli_audit, 0},
    {"columns", "the columns of the result table and what each means", cli_columns, 0},
    {"adapter", "a library of audit --list behind the adapter protocol (docs/adapter.md)",
     cli_adapter, 0},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f)
{
    fputs("usage: bloomsim COMMAND [ARGS] (bloomsim COMMAND --help for each)\n\n"
          "Measures how often Bloom filters keep their false-positive promise.\n\n", f);
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
    fputs("  help      this list, or bloomsim help COMMAND: that command's --help\n"
          "  -V        the version, release+commit (also --version)\n\n"
          "Exit status: 0 done, 1 a runtime failure, 2 bad input (one line naming the\n"
          "option, file or line and the value), 128+N stopped by signal N (130, 143).\n"
          "Experiments are looked for in the shipped ones, then ./experiments, then\n"
          "$BLOOMSIM_EXPERIMENTS (bloomsim run --help). The manual: man bloomsim.\n", f);
}

static int run_command(const cli_command_t *c, int argc, char **argv);

/* `bloomsim help [COMMAND]`: the list of commands, or COMMAND --help. */
static int help(int argc, char **argv)
{
    if (argc < 3) {
        usage(stdout);
        return 0;
    }
    if (argc > 3)
        return cli_die(2, "help: one command at most (got '%s')", argv[3]);
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(argv[2], commands[i].name) == 0) {
            char *args[] = {argv[0], argv[2], "--help", NULL};
            return run_command(&commands[i], 3, args);
        }
    return cli_die(2, "help: unknown command (got '%s'); see bloomsim help", argv[2]);
}

/* The command line as typed, for the run metadata: allocated to fit, so it is never cut
 * short. NULL when memory is short. */
static char *join_args(int argc, char **argv)
{
    size_t len = 1;
    for (int i = 0; i < argc; i++)
        len += strlen(argv[i]) + 1;
    char *line = malloc(len);
    if (!line)
        return NULL;
    size_t used = 0;
    for (int i = 0; i < argc; i++) {
        size_t l = strlen(argv[i]);
        if (i)
            line[used++] = ' ';
        memcpy(line + used, argv[i], l);
        used += l;
    }
    line[used] = '\0';
    return line;
}

/* A command that may be one rank of a distributed run: MPI starts around it (under
 * mpirun or srun), and the ranks but rank 0 keep quiet. */
static int run_distributed(const cli_command_t *c, int argc, char **argv)
{
    char err[256] = "";
    if (dist_init(&argc, &argv, err, sizeof err))
        return cli_die(1, "%s: %s", c->name, err);
    cli_quiet = !dist_leader();
    int rc = c->run(argc - 1, argv + 1);
    dist_finalize(rc);
    return rc;
}

/* Command c with argv from the program's name on. */
static int run_command(const cli_command_t *c, int argc, char **argv)
{
    if (!c->distributed)
        return c->run(argc - 1, argv + 1);
    char *line = join_args(argc, argv);
    if (!line)
        return cli_die(1, "out of memory");
    cli_command_line = line;
    int rc = run_distributed(c, argc, argv);
    free(line);
    return rc;
}

/* The command argv[1] names, or the program's own options. */
static int dispatch(int argc, char **argv)
{
    gsl_set_error_handler_off();
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        if (argc > 2)
            return cli_die(2, "%s takes no argument (got '%s')", argv[1], argv[2]);
        printf("bloomsim %s\n", BLOOMSIM_VERSION);
        return 0;
    }
    if (strcmp(argv[1], "help") == 0)
        return help(argc, argv);
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return run_command(&commands[i], argc, argv);
    return cli_die(2, "unknown command (got '%s'); see bloomsim --help", argv[1]);
}

/* Every command's output checked at its end (cli_finish_stdout), whatever path it took;
 * a file-size limit turned into a message (cli_catch_faults). */
int main(int argc, char **argv)
{
    /* Off a terminal, standard output is held in one buffer as large as any command's
     * report, so that a failing destination fails at the last flush, with its errno (a
     * write that fails earlier leaves none to report). */
    static char out[1 << 20];
    if (!isatty(STDOUT_FILENO))
        setvbuf(stdout, out, _IOFBF, sizeof out);
    cli_catch_faults();
    return cli_finish_stdout(dispatch(argc, argv));
}
