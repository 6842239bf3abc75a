/* store.c - see store.h. */
#include "run/store.h"
#include "run/store_kept.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "estimate/simulate.h"
#include "version.h"

/* The longest message here: three paths and a lock's holder (take_lock). */
_Static_assert(EXP_ERR_LEN >= 3 * STORE_PATH_MAX + 400 + 256, "a store message fits");

static void iso_time(time_t t, char *buf, size_t len)
{
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* A new file at path, opened for writing without following a symbolic link (a stale
 * one, or a link, is removed first: unlink removes the link, never its target). NULL
 * with errno set when it cannot be made. */
static FILE *create_new(const char *path)
{
    if (unlink(path) != 0 && errno != ENOENT)
        return NULL;
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (fd >= 0 && !f)
        close(fd);
    return f;
}

static int write_meta(const char *path, const store_t *st, const store_meta_t *m)
{
    FILE *f = create_new(path);
    if (!f)
        return -1;
    char host[256] = "unknown", start[32], end[32];
    gethostname(host, sizeof host - 1);
    iso_time(m->start, start, sizeof start);
    iso_time(m->end, end, sizeof end);
    fprintf(f, "experiment = %s\ntitle = %s\nfile = %s\nfile_fnv1a64 = %s\n"
               "version = %s\ncommand = %s\nseed = %llu\nscale = %s\nthreads = %d\n"
               "ranks = %d\nrank_threads = %s\nrows = %zu\nresumed_rows = %zu\n"
               "start = %s\nend = %s\nseconds = %.1f\nhost = %s\ncompiler = %s\n",
            m->e->name, m->e->title, m->e->path, st->hash, st->version,
            m->command ? m->command : "", (unsigned long long)m->seed, st->scale, m->threads,
            m->ranks > 0 ? m->ranks : 1, m->rank_threads ? m->rank_threads : "",
            m->rows, st->resumed, start, end, m->seconds, host,
#ifdef __clang__
            "clang " __clang_version__
#else
            "gcc " __VERSION__
#endif
    );
    /* Key files (key_sets = file) by the names the experiment gives them (relative: to
     * its folder); a --resume takes them as unchanged. */
    const sweep_t *sw = strcmp(st->scale, "quick") == 0 ? m->e->quick : m->e->full;
    for (size_t i = 0; i < m->e->nsweeps; i++)
        if (sw[i].key_file[0] && (i == 0 || strcmp(sw[i].key_file, sw[i - 1].key_file)))
            fprintf(f, "key_file = %s\n", sw[i].key_file);
    return fclose(f) == 0 ? 0 : -1;
}

/* The value of "key = value" in a metadata file, or "" when absent. */
static void meta_get(const char *path, const char *key, char *val, size_t len)
{
    val[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[2048];
    size_t kl = strlen(key);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, kl) == 0 && strncmp(line + kl, " = ", 3) == 0) {
            snprintf(val, len, "%.*s", (int)strcspn(line + kl + 3, "\r\n"), line + kl + 3);
            break;
        }
    fclose(f);
}

static int file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Exists and is not a regular file (a directory, say): cannot be replaced by rename. */
static int not_regular(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode);
}

/* What a file of the store is when it exists and is not itself a regular file (lstat:
 * a link is not followed), or NULL: bloomsim would write through it, block on it or fail
 * to replace it, so it is refused. */
static const char *obstacle_kind(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0 || S_ISREG(st.st_mode))
        return NULL;
    return S_ISLNK(st.st_mode) ? "a symbolic link?" : S_ISDIR(st.st_mode) ? "a directory"
           : S_ISFIFO(st.st_mode) ? "a named pipe" : S_ISSOCK(st.st_mode) ? "a socket"
           : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : "of another kind";
}

/* Refuse, before any work, every file of the store that is not a regular file: the
 * lock, the partial, NAME.run, the table, its metadata and the files written beside them
 * to be renamed into place. Returns 0, or 2 with the message in err naming the first. */
static int check_obstacles(const store_t *st, const char *outdir, char *err, size_t errlen)
{
    char meta_partial[STORE_PATH_MAX + 16], newcsv[STORE_PATH_MAX + 32];
    char newid[STORE_PATH_MAX + 16];
    snprintf(meta_partial, sizeof meta_partial, "%s.partial", st->meta_path);
    snprintf(newcsv, sizeof newcsv, "%s.new", st->partial);
    snprintf(newid, sizeof newid, "%s.new", st->idpath);
    const char *path[] = {st->lockpath, st->partial, st->idpath,  st->csv_path,
                          st->meta_path, meta_partial, newcsv, newid};
    for (size_t i = 0; i < sizeof path / sizeof path[0]; i++) {
        const char *kind = obstacle_kind(path[i]);
        if (kind) {
            snprintf(err, errlen, "%s: not a regular file of bloomsim's (%s); it writes only "
                     "its own files in --out (got '--out %s')", path[i], kind, outdir);
            return 2;
        }
    }
    return 0;
}

/* Why the table at st->csv_path, whose metadata gave hash and seed ("" when absent), is
 * not a result bloomsim wrote: its first line is not our header, or its metadata is
 * absent or lacks the definition or seed. Returns 1 with the reason in why, else 0. */
static int foreign_table(const store_t *st, const char *hash, const char *seed, char *why,
                         size_t len)
{
    FILE *f = fopen(st->csv_path, "rb");
    char buf[16384], *field[CSV_NCOLS + 1];
    size_t nf = 0;
    int ours = f && csv_read_record(f, buf, sizeof buf, field, CSV_NCOLS + 1, &nf) == 1 &&
               nf > 0 && strcmp(field[0], csv_column(0)->name) == 0;
    if (f)
        fclose(f);
    if (!ours)
        snprintf(why, len, "its first line is not bloomsim's header");
    else if (!file_exists(st->meta_path))
        snprintf(why, len, "no %s beside it", st->meta_path);
    else if (!hash[0] || !seed[0])
        snprintf(why, len, "%s does not parse: it has no %s line", st->meta_path,
                 hash[0] ? "seed" : "file_fnv1a64");
    else
        return 0;
    return 1;
}

/* Keep the complete rows of an interrupted run's table: check its header, read whole
 * records (RFC 4180, CRLF), cut off a torn last one, and check each (store_check_kept) and
 * read it back into kept[] (the TEXT columns from rows[]). Returns the number of rows
 * kept, -1 when the file is not a table of ours, or -2 for a row refused, with the
 * message in err naming the file, its line and the value (nothing changed). */
static long resume_rows(const char *partial, const exp_row_t *rows, size_t nrows,
                        const experiment_t *e, csv_row_t *kept, char *err, size_t errlen)
{
    int fd = open(partial, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
    FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
    if (!f) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    char buf[16384], raw[16384], *field[CSV_NCOLS + 1], why[1024];
    size_t nf;
    long n = -1, good_end = 0, line = 2;
    int first = csv_read_record(f, buf, sizeof buf, field, CSV_NCOLS + 1, &nf);
    if (first == 0)
        n = 0; /* empty: killed before its header reached the disk; nothing to keep */
    if (first == 1 && nf == CSV_NCOLS) {
        n = 0;
        for (size_t c = 0; c < CSV_NCOLS; c++)
            if (strcmp(field[c], csv_column(c)->name) != 0)
                n = -1;
        good_end = ftell(f);
    }
    while (n >= 0 && (size_t)n < nrows &&
           csv_read_record(f, buf, sizeof buf, field, CSV_NCOLS + 1, &nf) == 1) {
        long end = ftell(f);
        size_t rawlen = (size_t)(end - good_end) < sizeof raw ? (size_t)(end - good_end)
                                                                : sizeof raw - 1;
        ssize_t got = pread(fd, raw, rawlen, good_end);
        size_t have = got > 0 ? (size_t)got : 0;
        raw[have] = '\0';
        csv_row_t r;
        if (store_check_kept(raw, have, field, nf, &rows[n], &r, why, sizeof why)) {
            snprintf(err, errlen, "%s:%ld: %s; --force starts over (got '--resume')",
                     partial, line, why);
            n = -2;
            break;
        }
        for (const char *p = raw; (p = memchr(p, '\n', (size_t)(raw + have - p))); p++)
            line++;
        r.experiment = e->name;
        r.scheme = rows[n].scheme->name;
        r.estimator = (&rows[n])->est->name;
        kept[n++] = r;
        good_end = end;
    }
    if (n >= 0 && ftruncate(fileno(f), good_end) != 0)
        n = -1;
    fclose(f);
    return n;
}

/* Format a path into buf; -1 when it does not fit. */
static int path_of(char *buf, size_t len, const char *fmt, const char *a, const char *b,
                   const char *c)
{
    int w = snprintf(buf, len, fmt, a, b, c);
    return w < 0 || (size_t)w >= len ? -1 : 0;
}

/* Refuse to replace a complete result of another definition or seed, or to discard an
 * interrupted run's rows; resume them where allowed. Returns 0 or 2. */
static int check_existing(store_t *st, const store_run_t *run, csv_row_t *kept, char *err,
                          size_t errlen)
{
    const int resume = run->resume, force = run->force;
    char hash[32], seed[32], scale[8], version[128];
    /* An interrupted run first: resumed when asked and made by this very run (whose
     * start already had the right to replace the complete result), else refused unless
     * forced. */
    if (file_exists(st->partial)) {
        meta_get(st->idpath, "file_fnv1a64", hash, sizeof hash);
        meta_get(st->idpath, "seed", seed, sizeof seed);
        meta_get(st->idpath, "scale", scale, sizeof scale);
        meta_get(st->idpath, "version", version, sizeof version);
        int same = strcmp(hash, st->hash) == 0 && strcmp(seed, st->seed) == 0 &&
                   strcmp(scale, st->scale) == 0 && strcmp(version, st->version) == 0;
        if (resume && same) {
            long n = resume_rows(st->partial, run->rows, run->nrows, run->e, kept, err,
                                 errlen);
            if (n == -2)
                return 2;
            if (n < 0) {
                snprintf(err, errlen, "%s: not a result table of this program; --force starts "
                         "over (got '--resume')", st->partial);
                return 2;
            }
            st->resumed = (size_t)n;
            return 0;
        }
        if (!force) {
            snprintf(err, errlen, "%s: holds rows of an interrupted run%s; %s--force starts "
                     "over (got %s)", st->partial, same ? "" : " of another definition, seed or "
                     "version", same ? "--resume continues it, " : "", resume ? "--resume" :
                     "no --resume");
            return 2;
        }
    }
    if (force)
        return 0;
    if (file_exists(st->csv_path)) {
        meta_get(st->meta_path, "file_fnv1a64", hash, sizeof hash);
        meta_get(st->meta_path, "seed", seed, sizeof seed);
        char why[STORE_PATH_MAX + 64];
        if ((strcmp(hash, st->hash) != 0 || strcmp(seed, st->seed) != 0) &&
            foreign_table(st, hash, seed, why, sizeof why)) {
            snprintf(err, errlen, "%s: is not a table bloomsim wrote (%s); --force replaces "
                     "it, --out elsewhere keeps it (got '--out %s')", st->csv_path, why,
                     st->dir);
            return 2;
        }
        if (strcmp(hash, st->hash) != 0 || strcmp(seed, st->seed) != 0) {
            snprintf(err, errlen, "%s: holds a complete result of %s; --force replaces it, "
                     "--out elsewhere keeps it (got seed %s, definition %s)", st->csv_path,
                     strcmp(seed, st->seed) ? "another seed" : "another definition",
                     st->seed, st->hash);
            return 2;
        }
    }
    return 0;
}

/* The holder of a lock another run holds, from its file (fd): "pid P on host H". Its
 * holder writes them just after taking it, so an empty file is read again for a moment. */
static void lock_holder(int fd, char *who, size_t len)
{
    char buf[512] = "";
    for (int i = 0; i < 50; i++) {
        ssize_t got = pread(fd, buf, sizeof buf - 1, 0);
        buf[got > 0 ? got : 0] = '\0';
        if (strstr(buf, "\nhost = "))
            break;
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
    }
    long pid = 0;
    char host[256] = "an unknown host";
    const char *h = strstr(buf, "host = ");
    sscanf(buf, "pid = %ld", &pid);
    if (h)
        snprintf(host, sizeof host, "host %.*s", (int)strcspn(h + 7, "\n"), h + 7);
    if (pid > 0)
        snprintf(who, len, "pid %ld on %s", pid, host);
    else
        snprintf(who, len, "a process that did not say its pid");
}

/* The claims held, for store_abandon: a store is listed once its lock is taken and until
 * store_close; a slot is taken and given back by the one thread that runs (store.h). */
static _Atomic(store_t *) claims[STORE_CLAIMS_MAX];

static void claims_add(store_t *st)
{
    for (size_t i = 0; i < STORE_CLAIMS_MAX; i++)
        if (!atomic_load(&claims[i])) {
            atomic_store(&claims[i], st);
            return;
        }
}

static void claims_remove(const store_t *st)
{
    for (size_t i = 0; i < STORE_CLAIMS_MAX; i++)
        if (atomic_load(&claims[i]) == st)
            atomic_store(&claims[i], NULL);
}

const char *store_abandon(void)
{
    const char *writing = NULL;
    for (size_t i = 0; i < STORE_CLAIMS_MAX; i++) {
        store_t *st = atomic_load(&claims[i]);
        if (!st)
            continue;
        unlink(st->lockpath);
        if (st->csv)
            writing = st->partial;
    }
    return writing;
}

/* Take NAME.lock: open it (made if absent, never through a symbolic link), lock it
 * without waiting, and check that it is still the file at its path, since a run that
 * ends unlinks its lock before releasing it (then try again); then write our pid and
 * host in it. Returns 0, or 2 with the message in err. */
static int take_lock(store_t *st, const char *outdir, char *err, size_t errlen)
{
    int fd = -1;
    for (int tries = 0; tries < 100 && fd < 0; tries++) {
        fd = open(st->lockpath, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
        struct stat a, b;
        if (fd < 0 || fstat(fd, &a) != 0 || !S_ISREG(a.st_mode)) {
            snprintf(err, errlen, "%s: %s (got '--out %s')", st->lockpath,
                     fd >= 0 || errno == ELOOP ? "not a regular file of bloomsim's (a symbolic "
                     "link?); it writes only its own files in --out" : strerror(errno), outdir);
            if (fd >= 0)
                close(fd);
            return 2;
        }
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            char who[400];
            int busy = errno == EWOULDBLOCK;
            if (busy)
                lock_holder(fd, who, sizeof who);
            else
                snprintf(who, sizeof who, "%s", strerror(errno));
            close(fd);
            snprintf(err, errlen, busy ? "%s: being written by another run (%s, holding %s); "
                     "wait for it to end or stop it (got '--out %s')" : "%s: cannot lock %s: %s; "
                     "--out on a file system with locks (got '--out %s')", st->csv_path,
                     busy ? who : st->lockpath, busy ? st->lockpath : who, outdir);
            return 2;
        }
        if (lstat(st->lockpath, &b) != 0 || a.st_ino != b.st_ino || a.st_dev != b.st_dev) {
            close(fd); /* unlinked by the run that held it: take the new one */
            fd = -1;
        }
    }
    char host[256] = "unknown";
    gethostname(host, sizeof host - 1);
    char line[400];
    int len = snprintf(line, sizeof line, "pid = %ld\nhost = %s\n", (long)getpid(), host);
    st->lock = fd;
    if (fd >= 0)
        claims_add(st);
    if (fd < 0 || ftruncate(fd, 0) != 0 || pwrite(fd, line, (size_t)len, 0) != len) {
        snprintf(err, errlen, "%s: cannot write: %s (got '--out %s')", st->lockpath,
                 fd < 0 ? "the lock file keeps being replaced" : strerror(errno), outdir);
        return 2;
    }
    return 0;
}

int store_claim(store_t *st, const store_run_t *run, csv_row_t *kept, char *err,
                size_t errlen)
{
    const experiment_t *e = run->e;
    const char *outdir = run->outdir;
    const int quick = run->quick;
    memset(st, 0, sizeof *st);
    st->lock = -1;
    const char *suffix = quick ? ".quick" : "";
    if (path_of(st->dir, sizeof st->dir, "%s%s%s", outdir, "", "") ||
        path_of(st->csv_path, sizeof st->csv_path, "%s/%s%s.csv", outdir, e->name, suffix) ||
        path_of(st->meta_path, sizeof st->meta_path, "%s/%s%s.meta", outdir, e->name, suffix) ||
        path_of(st->partial, sizeof st->partial, "%s%s%s", st->csv_path, ".partial", "") ||
        path_of(st->idpath, sizeof st->idpath, "%s/%s%s.run", outdir, e->name, suffix) ||
        path_of(st->lockpath, sizeof st->lockpath, "%s/%s%s.lock", outdir, e->name, suffix)) {
        snprintf(err, errlen, "%s: output path too long (got '--out %.200s')", e->path, outdir);
        return 2;
    }
    if (mkdir(outdir, 0777) == 0)
        st->made_dir = 1;
    else if (errno != EEXIST) {
        snprintf(err, errlen, "%s: cannot create output directory: %s (got '%s')", outdir,
                 strerror(errno), outdir);
        return 2;
    }
    snprintf(st->hash, sizeof st->hash, "%016llx", (unsigned long long)e->file_hash);
    snprintf(st->seed, sizeof st->seed, "%llu", (unsigned long long)run->seed);
    snprintf(st->scale, sizeof st->scale, "%s", quick ? "quick" : "full");
    snprintf(st->version, sizeof st->version, "%s", BLOOMSIM_VERSION);
    int rc = check_obstacles(st, outdir, err, errlen);
    if (rc == 0)
        rc = take_lock(st, outdir, err, errlen);
    if (rc == 0)
        rc = check_existing(st, run, kept, err, errlen);
    if (rc)
        store_close(st);
    return rc;
}

/* Write a new partial table (its header) and NAME.run beside the old ones, then rename
 * both into place, partial first: a failure before the renames changes nothing, and
 * between them leaves a header-only partial under the old NAME.run, which resumes (or
 * is refused) as an empty run. Returns 0, or 2 with the message in err. */
static int start_fresh(store_t *st, char *err, size_t errlen)
{
    char newcsv[STORE_PATH_MAX + 32], newid[STORE_PATH_MAX + 16];
    snprintf(newcsv, sizeof newcsv, "%s.new", st->partial);
    snprintf(newid, sizeof newid, "%s.new", st->idpath);
    const char *failed = NULL;
    FILE *csv = create_new(newcsv);
    if (!csv || csv_write_header(csv) != 0 || fflush(csv) != 0)
        failed = st->partial;
    FILE *idf = failed ? NULL : create_new(newid);
    if (!failed && !idf)
        failed = st->idpath;
    if (idf) {
        int wrote = fprintf(idf, "file_fnv1a64 = %s\nseed = %s\nscale = %s\nversion = %s\n",
                            st->hash, st->seed, st->scale, st->version) > 0;
        if (fclose(idf) != 0 || !wrote)
            failed = st->idpath;
    }
    if (!failed && rename(newcsv, st->partial) != 0)
        failed = st->partial;
    else if (!failed && rename(newid, st->idpath) != 0)
        failed = st->idpath;
    if (!failed) {
        st->csv = csv;
        return 0;
    }
    snprintf(err, errlen, "%s: cannot write: %s (got '--out %s')", failed, strerror(errno),
             st->dir);
    if (csv)
        fclose(csv);
    remove(newcsv);
    remove(newid);
    return 2;
}

int store_open(store_t *st, char *err, size_t errlen)
{
    if (st->resumed == 0)
        return start_fresh(st, err, errlen);
    int fd = open(st->partial, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
    st->csv = fd >= 0 ? fdopen(fd, "ab") : NULL;
    if (st->csv)
        return 0;
    snprintf(err, errlen, "%s: cannot write: %s (got '--out %s')", st->partial,
             strerror(errno), st->dir);
    if (fd >= 0)
        close(fd);
    return 2;
}

int store_append(store_t *st, const csv_row_t *row, char *err, size_t errlen)
{
    if (csv_write_row(st->csv, row) || fflush(st->csv)) {
        snprintf(err, errlen, "%s: write failed: %s", st->partial, strerror(errno));
        return 1;
    }
    return 0;
}

int store_publish(store_t *st, const store_meta_t *meta, char *err, size_t errlen)
{
    int closed = fclose(st->csv);
    st->csv = NULL;
    if (closed != 0) {
        snprintf(err, errlen, "%s: write failed: %s", st->partial, strerror(errno));
        return 1;
    }
    /* Both targets must be replaceable before either is replaced. */
    const char *blocked = not_regular(st->csv_path) ? st->csv_path
                          : not_regular(st->meta_path) ? st->meta_path : NULL;
    if (blocked) {
        snprintf(err, errlen, "%s: cannot replace: not a regular file (the finished rows are "
                 "in %s)", blocked, st->partial);
        return 1;
    }
    /* The metadata first, then the table: the partial goes last, so a failure at any
     * step leaves it and NAME.run, and --resume publishes again. */
    char meta_partial[STORE_PATH_MAX + 16];
    snprintf(meta_partial, sizeof meta_partial, "%s.partial", st->meta_path);
    const char *failed = NULL;
    if (write_meta(meta_partial, st, meta))
        failed = meta_partial;
    else if (rename(meta_partial, st->meta_path))
        failed = st->meta_path;
    else if (rename(st->partial, st->csv_path))
        failed = st->csv_path;
    if (failed) {
        snprintf(err, errlen, "%s: cannot write: %s (the finished rows are kept for "
                 "--resume)", failed, strerror(errno));
        remove(meta_partial); /* nothing half written stays */
        return 1;
    }
    remove(st->idpath);
    return 0;
}

void store_close(store_t *st)
{
    if (st->csv)
        fclose(st->csv);
    st->csv = NULL;
    if (st->lock >= 0) { /* unlinked while held: a run that opened it tries again */
        claims_remove(st);
        unlink(st->lockpath);
        close(st->lock);
    }
    st->lock = -1;
    if (st->made_dir)
        rmdir(st->dir); /* only if empty: nothing else was written */
    st->made_dir = 0;
}
