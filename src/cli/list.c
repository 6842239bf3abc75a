/* list.c - `bloomsim list`: the named experiments with their titles, the probe schemes,
 * the estimators, the fingerprint filters, the key sets and the hash splits. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "estimate/estimator.h"
#include "experiment/experiment.h"
#include "fingerprint/registry.h"
#include "libraries/registry.h"
#include "splits/split.h"

static const char usage[] =
    "usage: bloomsim list\n\nLists the named experiments (NAME.ini) with their titles, under\n"
    "each directory bloomsim run looks in (bloomsim run --help), then the probe schemes,\n"
    "the estimators, the fingerprint filters, the key sets and the hash splits (each\n"
    "split this build lacks is marked unavailable, with the package to install).\n";

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
}

/* The .ini files of dir, sorted, into names[0..*n) (at most max; caller frees). */
static int read_names(const char *dir, char **names, size_t max, size_t *n)
{
    DIR *d = opendir(dir);
    *n = 0;
    if (d) {
        struct dirent *de;
        while ((de = readdir(d)) && *n < max) {
            size_t l = strlen(de->d_name);
            if (l > 4 && strcmp(de->d_name + l - 4, ".ini") == 0) {
                if (!(names[*n] = strdup(de->d_name))) {
                    closedir(d);
                    free_names(names, *n);
                    return cli_die(1, "out of memory");
                }
                ++*n;
            }
        }
        closedir(d);
    }
    qsort(names, *n, sizeof names[0], cmp_str);
    return 0;
}

/* Whether one of dirs[0..d) holds file name. */
static int held_earlier(const char *const *dirs, size_t d, const char *name)
{
    for (size_t i = 0; i < d; i++) {
        char path[2048];
        int len = snprintf(path, sizeof path, "%s/%s", dirs[i], name);
        if (len > 0 && (size_t)len < sizeof path && access(path, F_OK) == 0)
            return 1;
    }
    return 0;
}

/* Each experiment of dirs[d]: its name and title, or why its file is invalid, or that an
 * earlier directory's file of that name is the one run takes. */
static int print_experiments(const char *const *dirs, size_t d, char **names, size_t nn)
{
    const char *dir = dirs[d];
    experiment_t *e = malloc(sizeof *e);
    if (!e)
        return cli_die(1, "out of memory");
    printf("experiments (%s):\n", dir);
    for (size_t i = 0; i < nn; i++) {
        char path[2048], err[EXP_ERR_LEN] = "";
        int len = snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (len < 0 || (size_t)len >= sizeof path) {
            free(e);
            return cli_die(2, "list: path too long, more than %zu bytes (got '%s/%s')",
                           sizeof path - 1, dir, names[i]);
        }
        if (held_earlier(dirs, d, names[i]))
            printf("  %-20.*s (hidden: run takes the one above)\n",
                   (int)strlen(names[i]) - 4, names[i]);
        else if (experiment_load(path, e, err, sizeof err) == 0)
            printf("  %-20s %s\n", e->name, e->title);
        else
            printf("  %-20.*s (invalid: %s)\n", (int)strlen(names[i]) - 4, names[i], err);
    }
    free(e);
    return 0;
}

/* The experiments of each directory `bloomsim run NAME` searches (cli.h), in its order;
 * a name an earlier directory also holds is marked, since run takes the earlier one. */
static int list_experiments(void)
{
    const char *dirs[CLI_EXPERIMENT_DIRS];
    char shipped[1024];
    size_t nd = cli_experiment_dirs(dirs, shipped, sizeof shipped);
    if (nd == 0)
        printf("experiments: none (bloomsim run --help says where they are looked for)\n");
    for (size_t d = 0; d < nd; d++) {
        char *names[512];
        size_t nn;
        int rc = read_names(dirs[d], names, 512, &nn);
        if (rc)
            return rc;
        if (d)
            putchar('\n');
        rc = print_experiments(dirs, d, names, nn);
        free_names(names, nn);
        if (rc)
            return rc;
    }
    return 0;
}

static int unexpected(void *ctx, const char *arg)
{
    (void)ctx;
    return cli_die(2, "list: unexpected argument (got '%s')", arg);
}

int cli_list(int argc, char **argv)
{
    cli_spec_t spec = {.command = "list", .usage = usage, .unknown = "argument",
                       .positional = unexpected};
    int rc = cli_parse(&spec, argc, argv);
    if (rc >= 0)
        return rc;
    if ((rc = list_experiments()) != 0)
        return rc;
    puts("\nschemes:");
    for (size_t i = 0; i < scheme_count(); i++)
        printf("  %-18s %s\n", scheme_at(i)->name, scheme_at(i)->summary);
    puts("\nestimators (estimator = NAME, or auto: conditional where it applies):");
    for (size_t i = 0; i < est_count(); i++)
        printf("  %-18s %s\n", est_at(i)->name, est_at(i)->summary);
    puts("\nfingerprint filters (fingerprint = NAME... in a design sweep):");
    for (size_t i = 0; i < fp_filter_count(); i++)
        printf("  %-22s %s\n", fp_filter_at(i)->name, fp_filter_at(i)->summary);
    puts("\nkey sets (key_sets = NAME... with libraries or splits; audit --key-set NAME):");
    for (size_t i = 0; i < KEYSET_COUNT; i++)
        printf("  %-18s %s\n", keyset_kind_at(i)->name, keyset_kind_at(i)->summary);
    puts("\nhash splits (splits = NAME... with key_sets in a sweep of bits; probes --split NAME):");
    for (size_t i = 0; i < SPLIT_COUNT; i++) {
        const split_t *s = split_at(i);
        if (s->unavailable)
            printf("  %-18s unavailable: %s\n", s->name, s->unavailable);
        else
            printf("  %-18s %s\n", s->name, s->summary);
    }
    return 0;
}
