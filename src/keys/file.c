/* file.c - the key set `file`: the lines of a user's file (audit's --key-file PATH, an
 * experiment's key_file), without "\n" or "\r\n": the first n lines are inserted, the
 * lines after them queried, the same in every filter, each at most once (at least
 * KEYSET_FILE_MIN_QUERIES of them). A queried line that is also an inserted one would
 * be a key of the filter: such a file is refused (file_dups.c; docs/model.md, Key sets
 * and real hashes). The file is mapped read-only and its keys read from the page cache as
 * they are streamed, never copied; a sparse index of line offsets, built when it opens,
 * starts a stream at any line after at most KEYSET_FILE_STRIDE lines of scanning.
 *
 * A file truncated while mapped turns a read past its new end into SIGBUS: every map is
 * listed (keyset_file_at) so that the command line's handler can tell that fault from a
 * bug and name the file (src/cli/cli.c, cli_catch_faults). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "keys/keys.h"

/* A key file's lines to query, at least: two batches of one, a spread to check. */
#define KEYSET_FILE_MIN_QUERIES 2

/* The maps open now, oldest first, for keyset_file_at. Opening and closing take the
 * mutex; a signal handler walks the list without it, with atomic loads: a node is freed
 * only when its key set is closed, which no stream reads then. */
typedef struct file_mapped {
    _Atomic(struct file_mapped *) next;
    const uint8_t *start;
    size_t size;
    const char *path;
} file_mapped_t;
static _Atomic(file_mapped_t *) mapped_head;
static pthread_mutex_t mapped_lock = PTHREAD_MUTEX_INITIALIZER;

/* List a map (0), or -1 when memory is short. Appended, so that closes in the order of
 * opening (plan_rows_free) find theirs first. */
static int mapped_add(const keyset_t *ks)
{
    file_mapped_t *node = malloc(sizeof *node);
    if (!node)
        return -1;
    node->start = ks->map, node->size = ks->size, node->path = ks->path;
    atomic_init(&node->next, NULL);
    pthread_mutex_lock(&mapped_lock);
    _Atomic(file_mapped_t *) *at = &mapped_head;
    while (atomic_load(at))
        at = &atomic_load(at)->next;
    atomic_store(at, node);
    pthread_mutex_unlock(&mapped_lock);
    return 0;
}

static void mapped_remove(const uint8_t *start)
{
    pthread_mutex_lock(&mapped_lock);
    _Atomic(file_mapped_t *) *at = &mapped_head;
    file_mapped_t *node;
    while ((node = atomic_load(at)) && node->start != start)
        at = &node->next;
    if (node)
        atomic_store(at, atomic_load(&node->next));
    pthread_mutex_unlock(&mapped_lock);
    free(node);
}

const char *keyset_file_at(const void *addr, size_t *size)
{
    const uint8_t *a = addr;
    for (file_mapped_t *node = atomic_load(&mapped_head); node; node = atomic_load(&node->next))
        if (a >= node->start && a < node->start + node->size) {
            *size = node->size;
            return node->path;
        }
    return NULL;
}

/* The file's lines: counted, and the start of every KEYSET_FILE_STRIDE-th recorded. A
 * last line without "\n" is a line; an empty file has none. */
static int file_index(keyset_t *ks, char *err, size_t errlen)
{
    size_t cap = 16;
    ks->index = malloc(cap * sizeof *ks->index);
    if (!ks->index)
        return KEYSET_ENOMEM;
    const uint8_t *p = ks->map, *end = ks->map + ks->size;
    uint64_t line = 0;
    ks->insert_end = ks->size;
    while (p < end) {
        if (line % KEYSET_FILE_STRIDE == 0) {
            if (line / KEYSET_FILE_STRIDE == cap) {
                uint64_t *grown = realloc(ks->index, 2 * cap * sizeof *grown);
                if (!grown)
                    return KEYSET_ENOMEM;
                ks->index = grown, cap *= 2;
            }
            ks->index[line / KEYSET_FILE_STRIDE] = (uint64_t)(p - ks->map);
        }
        if (line == ks->inserts)
            ks->insert_end = (size_t)(p - ks->map);
        const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
        line++;
    }
    ks->lines = line;
    if (line < ks->inserts) {
        snprintf(err, errlen, "key file %s has %llu lines, fewer than the %llu keys to insert",
                 ks->path, (unsigned long long)line, (unsigned long long)ks->inserts);
        return KEYSET_ESHORT;
    }
    return KEYSET_OK;
}

/* Maps the file read-only. */
static int file_map(keyset_t *ks, const char *path, char *err, size_t errlen)
{
    ks->path = malloc(strlen(path) + 1);
    if (!ks->path)
        return KEYSET_ENOMEM;
    strcpy(ks->path, path);
    /* A pipe, socket or device is refused before it is opened (open would block on a
     * pipe with no writer, fail on a socket); O_NONBLOCK and fstat close the race of a
     * path replaced in between. */
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "key file %s: not a regular file", path);
        return KEYSET_EFILE;
    }
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0 || fstat(fd, &st) != 0) {
        snprintf(err, errlen, "key file %s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return KEYSET_EFILE;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "key file %s: not a regular file", path);
        close(fd);
        return KEYSET_EFILE;
    }
    ks->size = (size_t)st.st_size;
    if (ks->size > 0) {
        void *m = mmap(NULL, ks->size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m == MAP_FAILED) {
            snprintf(err, errlen, "key file %s: %s", path, strerror(errno));
            close(fd);
            return KEYSET_EFILE;
        }
        ks->map = m;
        (void)posix_madvise(m, ks->size, POSIX_MADV_SEQUENTIAL);
        if (mapped_add(ks) != 0) {
            close(fd);
            return KEYSET_ENOMEM;
        }
    }
    close(fd);
    return file_index(ks, err, errlen);
}

/* The file last found free of queried lines that are inserted, by this thread: a plan
 * opens the same file for every row and every filter, and the check reads all of it. */
typedef struct file_checked {
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime;
    uint64_t inserts;
    int valid;
} file_checked_t;

static int same_checked(const file_checked_t *c, const struct stat *st, uint64_t inserts)
{
    return c->valid && c->dev == st->st_dev && c->ino == st->st_ino &&
           c->size == st->st_size && c->mtime.tv_sec == st->st_mtim.tv_sec &&
           c->mtime.tv_nsec == st->st_mtim.tv_nsec && c->inserts == inserts;
}

static int file_open(keyset_t *ks, const char *param, char *err, size_t errlen)
{
    static _Thread_local file_checked_t checked;
    if (!param || !*param) {
        snprintf(err, errlen, "the file key set needs a file name");
        return KEYSET_EPARAM;
    }
    int st = file_map(ks, param, err, errlen);
    if (st == KEYSET_ENOMEM)
        snprintf(err, errlen, "out of memory indexing key file %s", param);
    if (st != KEYSET_OK)
        return st;
    struct stat now;
    const int known = stat(param, &now) == 0 && (size_t)now.st_size == ks->size;
    if (known && same_checked(&checked, &now, ks->inserts))
        return KEYSET_OK;
    st = keyset_file_duplicates(ks, err, errlen);
    if (st == KEYSET_OK && known)
        checked = (file_checked_t){.dev = now.st_dev, .ino = now.st_ino, .size = now.st_size,
                                   .mtime = now.st_mtim, .inserts = ks->inserts, .valid = 1};
    return st;
}

static uint64_t file_queries_total(const keyset_t *ks)
{
    return ks->lines - ks->inserts;
}

static int file_check(const keyset_t *ks, uint64_t queries, char *err, size_t errlen)
{
    if (ks->lines < ks->inserts + queries) {
        snprintf(err, errlen,
                 "key file %s has %llu lines: %llu inserts and %llu queries need %llu (the "
                 "first %llu lines are inserted, the lines after them queried)",
                 ks->path, (unsigned long long)ks->lines, (unsigned long long)ks->inserts,
                 (unsigned long long)queries, (unsigned long long)(ks->inserts + queries),
                 (unsigned long long)ks->inserts);
        return KEYSET_ESHORT;
    }
    return KEYSET_OK;
}

static void file_close(keyset_t *ks)
{
    if (ks->map) {
        mapped_remove(ks->map);
        munmap((void *)ks->map, ks->size);
    }
    free(ks->index);
    free(ks->path);
    ks->map = NULL, ks->index = NULL, ks->path = NULL;
}

static void file_show(const keyset_t *ks, int audit, char *out, size_t len)
{
    if (audit)
        snprintf(out, len, " %s (%llu lines)", ks->path, (unsigned long long)ks->lines);
    else
        snprintf(out, len, " %s", ks->path);
}

static void file_stream_init(key_stream_t *s, uint64_t stream)
{
    (void)stream;
    const keyset_t *ks = s->ks;
    uint64_t index = (s->role == KEY_ROLE_QUERY ? ks->inserts : 0) + s->next;
    const uint8_t *end = ks->map + ks->size;
    if (index >= ks->lines) {
        s->pos = end;
        return;
    }
    const uint8_t *p = ks->map + ks->index[index / KEYSET_FILE_STRIDE];
    for (uint64_t j = index % KEYSET_FILE_STRIDE; j > 0; j--)
        p = (const uint8_t *)memchr(p, '\n', (size_t)(end - p)) + 1;
    s->pos = p;
}

/* The next line of the file: [pos, "\n"), without a final "\r". */
static int file_next(key_stream_t *s, rkey_t *k)
{
    const keyset_t *ks = s->ks;
    const uint8_t *end = s->role == KEY_ROLE_INSERT ? ks->map + ks->insert_end
                                                     : ks->map + ks->size;
    if (s->pos >= end)
        return 0;
    const uint8_t *nl = memchr(s->pos, '\n', (size_t)(end - s->pos));
    const uint8_t *stop = nl ? nl : end;
    k->kind = KEY_BYTES;
    k->bytes = s->pos;
    k->len = (size_t)(stop - s->pos);
    if (k->len > 0 && stop[-1] == '\r')
        k->len--;
    s->pos = nl ? nl + 1 : end;
    return 1;
}

const keyset_kind_t keyset_file = {
    .name = "file",
    .summary = "the lines of a file: the first n inserted, the lines after them queried, each once",
    .help = "(--key-file's lines: the first N inserted, the rest queried)",
    .real = 1,
    .param_flag = "--key-file",
    .param_key = "key_file",
    .param_meta = "PATH",
    .param_needed = 1,
    .param_path = 1,
    .kinds = KEY_TEXT | KEY_BYTES,
    .wire = KEY_WIRE_STR,
    .per_filter = 0,
    .min_queries = KEYSET_FILE_MIN_QUERIES,
    .open = file_open,
    .check = file_check,
    .close = file_close,
    .queries_total = file_queries_total,
    .show = file_show,
    .stream_init = file_stream_init,
    .next = file_next,
};
