/* memory.h - how much memory this process may still use: what every check before work
 * (a run's rows, its plan, an audit) compares its needs with. Knows nothing of filters.
 */
#ifndef BLOOMSIM_MEMORY_H
#define BLOOMSIM_MEMORY_H

#include <stdint.h>

/* Bytes this process may still use, or 0 if unknown: the least of what the kernel says
 * is available (MemAvailable), the room left under the memory limits of the process's
 * cgroup and its ancestors (v2 memory.max, v1 memory.limit_in_bytes, less their usage),
 * and the room left under its address-space limit (RLIMIT_AS, `ulimit -v`, less its
 * VmSize). *what names the limit that binds, for messages: " (the cgroup's memory
 * limit)", " (the address-space limit, ulimit -v)", or "" for MemAvailable. */
uint64_t mem_available(const char **what);

/* Whether `need` bytes fit in `avail`: at most 90% of it; anything fits when avail is
 * 0, unknown. */
int mem_fits(double need, uint64_t avail);

#endif
