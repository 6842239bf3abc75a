/* dist_none.c - dist.h in a build without MPI: one rank, nothing to share. */
#include "dist/dist.h"

#include <stdio.h>

static int threads_total = 1;
static char threads_list[16] = "1";

int dist_init(int *argc, char ***argv, char *err, size_t errlen)
{
    (void)argc, (void)argv, (void)err, (void)errlen;
    return 0;
}

void dist_finalize(int rc) { (void)rc; }

int dist_rank(void) { return 0; }
int dist_size(void) { return 1; }
int dist_ranks_here(void) { return 1; }
int dist_threads_total(void) { return threads_total; }
const char *dist_threads_list(void) { return threads_list; }

int dist_agree_threads(int threads)
{
    threads_total = threads;
    snprintf(threads_list, sizeof threads_list, "%d", threads);
    return 0;
}

int dist_agree(int rc, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return rc;
}

int dist_share_experiment(experiment_t *e, char *err, size_t errlen)
{
    (void)e, (void)err, (void)errlen;
    return 0;
}

int dist_row(const row_run_t *run, sim_used_t *used) { return sim_row(run, used); }

void dist_error(char *err, size_t errlen)
{
    if (errlen)
        err[0] = '\0';
}

void dist_end(int rc, atomic_int *stop) { (void)rc, (void)stop; }

void dist_set_rank_timeout(double seconds) { (void)seconds; }

int dist_serve(const exp_row_t *rows, size_t nrows, uint64_t seed, int threads,
               atomic_int *stop)
{
    (void)rows, (void)nrows, (void)seed, (void)threads, (void)stop;
    return 0;
}
