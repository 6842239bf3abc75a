/* list.c - `bloomsim list`: the named experiments with their titles, the probe schemes,
 * the estimators, the fingerprint filters and the key sets. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "estimate/estimator.h"
#include "experiment/experiment.h"
#include "fingerprint/registry.h"
#include "libraries/registry.h"

static const char usage[] =
    "usage: bloomsim list\n\nLists the named experiments (experiments/NAME.ini) with their "
    "titles, the probe schemes, the estimators, the fingerprint filters and the key sets.\n";

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

/* Each experiment's name and title, or why its file is invalid. */
static int print_experiments(const char *dir, char **names, size_t nn)
{
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
        if (experiment_load(path, e, err, sizeof err) == 0)
            printf("  %-20s %s\n", e->name, e->title);
        else
            printf("  %-20.*s (invalid: %s)\n", (int)strlen(names[i]) - 4, names[i], err);
    }
    free(e);
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
    const char *dir = cli_experiments_dir();
    char *names[512];
    size_t nn;
    if ((rc = read_names(dir, names, 512, &nn)) != 0)
        return rc;
    rc = print_experiments(dir, names, nn);
    free_names(names, nn);
    if (rc)
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
    puts("\nkey sets (key_sets = NAME... with libraries; audit --key-set NAME):");
    for (size_t i = 0; i < KEYSET_COUNT; i++)
        printf("  %-18s %s\n", keyset_kind_at(i)->name, keyset_kind_at(i)->summary);
    return 0;
}
