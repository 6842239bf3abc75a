/* monotonic.h - seconds on the monotonic clock (POSIX CLOCK_MONOTONIC: never set back,
 * unlike the wall clock), for elapsed times: a run's and a row's seconds, the progress
 * line, an adapter's timeout, the MPI ranks' heartbeats. Only differences of two readings
 * mean anything. Thread-safe. */
#ifndef BLOOMSIM_MONOTONIC_H
#define BLOOMSIM_MONOTONIC_H

#include <time.h>

static inline double monotonic_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif
