/* rename_fail.c - a test's stand-in for a file system that refuses one rename: loaded
 * with LD_PRELOAD, rename() fails with EIO when its target's name ends with the value of
 * RENAME_FAIL_SUFFIX, and renames as the C library does otherwise. tests/runs.sh uses it
 * to fail each of a run's two publishing renames in turn (issue 20). Never linked into
 * bloomsim. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rename(const char *from, const char *to)
{
    const char *suffix = getenv("RENAME_FAIL_SUFFIX");
    size_t n = strlen(to), s = suffix ? strlen(suffix) : 0;
    if (s && n >= s && strcmp(to + n - s, suffix) == 0) {
        errno = EIO;
        return -1;
    }
    int (*real)(const char *, const char *);
    *(void **)&real = dlsym(RTLD_NEXT, "rename");
    return real(from, to);
}
