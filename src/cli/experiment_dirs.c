/* experiment_dirs.c - where `bloomsim run NAME` and `bloomsim list` find experiments
 * (cli.h, cli_experiment_dirs), in the order bloomsim(1) and `bloomsim run --help` give:
 *
 *  1. the shipped experiments: for an installed program, DATADIR/bloomsim/experiments,
 *     found next to the program (BINDIR/../share/bloomsim/experiments, so that a prefix
 *     moved or installed with DESTDIR still works), else at the configured prefix; for
 *     the program in its build tree (build/bloomsim), the checkout's experiments/;
 *  2. ./experiments;
 *  3. $BLOOMSIM_EXPERIMENTS.
 *
 * The first directory that holds NAME.ini wins; a directory that is the same as an
 * earlier one (the checkout's experiments/ seen as ./experiments) is listed once.
 * "In the build tree" means /proc/self/exe lies in the build directory meson configured;
 * where /proc/self/exe cannot be read the program counts as installed.
 */
#include "cli/cli.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The directory this program's file lies in, into buf (symbolic links resolved).
 * 0, or -1 where /proc/self/exe cannot be read or does not fit. */
static int program_dir(char *buf, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", buf, len - 1);
    if (n <= 0 || (size_t)n >= len - 1)
        return -1;
    buf[n] = '\0';
    char *slash = strrchr(buf, '/');
    if (!slash)
        return -1;
    if (slash == buf)
        slash++; /* the program is in / */
    *slash = '\0';
    return 0;
}

/* Whether paths a and b name the same existing file (device and inode: a symbolic
 * link or another spelling of either still matches). */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

/* dir/rel into buf, each leading ../ of rel taken off dir's end (so that the program
 * shows PREFIX/share/..., not PREFIX/bin/../share/...). snprintf's return. */
static int beside(char *dir, const char *rel, char *buf, size_t len)
{
    while (strncmp(rel, "../", 3) == 0) {
        char *slash = strrchr(dir, '/');
        if (!slash || slash == dir)
            break;
        *slash = '\0';
        rel += 3;
    }
    return snprintf(buf, len, "%s/%s", dir, rel);
}

int cli_shipped_experiments(char *buf, size_t len)
{
    char dir[PATH_MAX];
    int n;
    if (program_dir(dir, sizeof dir) == 0 && same_file(dir, BLOOMSIM_BUILD_DIR)) {
        n = snprintf(buf, len, "%s", BLOOMSIM_SOURCE_EXPERIMENTS);
    } else {
        n = -1;
        if (BLOOMSIM_BIN_TO_EXPERIMENTS[0] && program_dir(dir, sizeof dir) == 0)
            n = beside(dir, BLOOMSIM_BIN_TO_EXPERIMENTS, buf, len);
        if (n < 0 || (size_t)n >= len || !is_dir(buf))
            n = snprintf(buf, len, "%s", BLOOMSIM_DATA_EXPERIMENTS);
    }
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* Whether path names the same directory as one of dirs[0..n). */
static int seen_before(const char *path, const char *const *dirs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (same_file(path, dirs[i]))
            return 1;
    return 0;
}

size_t cli_experiment_dirs(const char *dirs[CLI_EXPERIMENT_DIRS], char *buf, size_t len)
{
    size_t n = 0;
    if (cli_shipped_experiments(buf, len) == 0 && is_dir(buf))
        dirs[n++] = buf;
    if (is_dir("experiments") && !seen_before("experiments", dirs, n))
        dirs[n++] = "experiments";
    const char *env = getenv("BLOOMSIM_EXPERIMENTS");
    if (env && *env && !seen_before(env, dirs, n))
        dirs[n++] = env;
    return n;
}
