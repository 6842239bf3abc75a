/* memory.c - see memory.h. */
#include "base/memory.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

/* The first number after `key` in a file of "key value" lines (/proc/meminfo,
 * /proc/self/status), in kB, as bytes; 0 when absent. */
static uint64_t proc_kb(const char *path, const char *key)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[256];
    unsigned long long kb = 0;
    size_t kl = strlen(key);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, kl) == 0 && sscanf(line + kl, " %llu", &kb) == 1)
            break;
    fclose(f);
    return (uint64_t)kb * 1024;
}

/* The number a one-line file holds (a cgroup's limit or usage); -1 when absent or not
 * a number ("max": no limit). */
static int file_u64(const char *path, uint64_t *v)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    unsigned long long x;
    int ok = fscanf(f, "%llu", &x) == 1;
    fclose(f);
    *v = x;
    return ok ? 0 : -1;
}

/* The least room, limit minus usage, of the memory cgroup of this process and of each
 * of its ancestors (a limit may sit on any of them): cgroup v2 (memory.max,
 * memory.current under /sys/fs/cgroup), or v1 (memory.limit_in_bytes,
 * memory.usage_in_bytes under /sys/fs/cgroup/memory, where "no limit" is a number near
 * 2^63). UINT64_MAX when no limit applies. */
static uint64_t cgroup_room(void)
{
    uint64_t room = UINT64_MAX;
    FILE *f = fopen("/proc/self/cgroup", "r");
    if (!f)
        return room;
    char line[1024];
    while (fgets(line, sizeof line, f)) { /* ID:CONTROLLERS:PATH */
        char *ctl = strchr(line, ':'), *path = ctl ? strchr(ctl + 1, ':') : NULL;
        if (!path)
            continue;
        *path++ = '\0';
        path[strcspn(path, "\n")] = '\0';
        int v2 = strcmp(ctl + 1, "") == 0, v1 = 0;
        for (char *t = strtok(ctl + 1, ","); t && !v2; t = strtok(NULL, ","))
            v1 |= strcmp(t, "memory") == 0;
        if (!v1 && !v2)
            continue;
        char dir[1200];
        int n = snprintf(dir, sizeof dir, "%s%s", v2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/memory",
                         strcmp(path, "/") ? path : "");
        size_t base = strlen(v2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/memory");
        for (; n > 0 && (size_t)n < sizeof dir - 32;) {
            char lim[1300], use[1300];
            uint64_t l, u;
            snprintf(lim, sizeof lim, "%s/%s", dir, v2 ? "memory.max" : "memory.limit_in_bytes");
            snprintf(use, sizeof use, "%s/%s", dir,
                     v2 ? "memory.current" : "memory.usage_in_bytes");
            if (file_u64(lim, &l) == 0 && l < (UINT64_C(1) << 62) && file_u64(use, &u) == 0 &&
                (l > u ? l - u : 1) < room) /* 1: nothing left, yet not "unknown" */
                room = l > u ? l - u : 1;
            char *up = strrchr(dir, '/');
            if (!up || (size_t)(up - dir) < base)
                break;
            *up = '\0';
            n = (int)strlen(dir);
        }
    }
    fclose(f);
    return room;
}

uint64_t mem_available(const char **what)
{
    uint64_t avail = proc_kb("/proc/meminfo", "MemAvailable:");
    *what = "";
    uint64_t cg = cgroup_room();
    if (cg < avail || (!avail && cg != UINT64_MAX))
        avail = cg, *what = " (the cgroup's memory limit)";
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
        uint64_t used = proc_kb("/proc/self/status", "VmSize:"), lim = rl.rlim_cur;
        uint64_t room = lim > used ? lim - used : 1; /* 1: nothing left, yet not "unknown" */
        if (room < avail || !avail)
            avail = room, *what = " (the address-space limit, ulimit -v)";
    }
    return avail;
}

int mem_fits(double need, uint64_t avail)
{
    return !avail || need <= 0.9 * (double)avail;
}
