/* dist_mpi_share.c - dist.h with MPI: rank 0 sends each experiment file's text to the
 * other ranks, which load it as rank 0 did (dist_share_experiment; the protocol is in
 * dist_mpi.c). */
#include "dist/dist_mpi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static dist_world_t *const W = &dist_world;

/* Rank 0's experiment file into *text (malloc'ed), its length in *len. 0 or -1. */
static int read_text(const char *path, char **text, uint64_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t cap = 4096, n = 0, got;
    char *buf = malloc(cap);
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *more = realloc(buf, cap *= 2);
            if (!more)
                free(buf);
            buf = more;
        }
    }
    int bad = ferror(f) || !buf;
    fclose(f);
    if (bad) {
        free(buf);
        return -1;
    }
    *text = buf;
    *len = n;
    return 0;
}

int dist_share_experiment(experiment_t *e, char *err, size_t errlen)
{
    if (W->size == 1)
        return 0;
    /* {length or UINT64_MAX when unreadable, file hash} then the path and the text. */
    uint64_t head[2] = {UINT64_MAX, e->file_hash};
    char *text = NULL;
    if (W->rank == 0 && read_text(e->path, &text, &head[0]) != 0)
        head[0] = UINT64_MAX;
    if (MPI_Bcast(head, 2, MPI_UINT64_T, 0, MPI_COMM_WORLD) != MPI_SUCCESS ||
        MPI_Bcast(e->path, sizeof e->path, MPI_CHAR, 0, MPI_COMM_WORLD) != MPI_SUCCESS) {
        free(text);
        snprintf(err, errlen, "%s: could not send the experiment to every rank", e->path);
        return 1;
    }
    if (head[0] == UINT64_MAX) {
        snprintf(err, errlen, "%s: cannot read experiment file again to send it to every "
                 "rank", e->path);
        return 2;
    }
    if (W->rank != 0 && !(text = malloc(head[0] ? head[0] : 1))) {
        snprintf(err, errlen, "%s: out of memory", e->path);
        return 1;
    }
    int rc = 0;
    if (MPI_Bcast(text, (int)head[0], MPI_CHAR, 0, MPI_COMM_WORLD) != MPI_SUCCESS) {
        snprintf(err, errlen, "%s: could not send the experiment to every rank", e->path);
        rc = 1;
    } else if (W->rank != 0) {
        char path[sizeof e->path];
        memcpy(path, e->path, sizeof path);
        rc = experiment_load_text(path, text, head[0], e, err, errlen);
        if (rc == 0 && e->file_hash != head[1]) {
            snprintf(err, errlen, "%s: changed while the run started (got hash %016llx)", path,
                     (unsigned long long)e->file_hash);
            rc = 2;
        }
    } else if (e->file_hash != head[1]) {
        rc = 2;
    }
    free(text);
    return rc;
}
