/* adapter_client.c - see adapter_client.h. */
#include "audit/adapter_client.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/monotonic.h"

/* Print status st with a message made of fmt into err; returns st. */
static int fail(char *err, size_t errlen, int st, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(char *err, size_t errlen, int st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return st;
}

/* The first SHOWN bytes of s, for a message: printable ASCII, others as '?'. */
#define SHOWN 160
static const char *shown(const char *s, char buf[SHOWN + 4])
{
    size_t i = 0;
    for (; s[i] && i < SHOWN; i++)
        buf[i] = s[i] >= 32 && s[i] < 127 ? s[i] : '?';
    strcpy(buf + i, s[i] ? "..." : "");
    return buf;
}

/* Whether the adapter (the `sh -c` leader) has ended: 1 once reaped, its wait status in
 * a->wstatus (-1: unknown). Never blocks. */
static int leader_ended(adapter_t *a)
{
    if (!a->reaped && a->pid > 0) {
        pid_t r = waitpid(a->pid, &a->wstatus, WNOHANG);
        if (r == a->pid || (r < 0 && errno == ECHILD))
            a->reaped = 1, a->wstatus = r == a->pid ? a->wstatus : -1;
    }
    return a->reaped;
}

/* Wait up to `seconds` (polling every 10 ms) for the leader to end (group 0) or for its
 * whole process group to be gone (group 1): 1 when it is, else 0. */
static int wait_for(adapter_t *a, double seconds, int group)
{
    for (double waited = 0;; waited += 0.01) {
        if (leader_ended(a) && (!group || (kill(-a->pid, 0) != 0 && errno == ESRCH)))
            return 1;
        if (waited >= seconds)
            return 0;
        nanosleep(&(struct timespec){.tv_nsec = 10000000}, NULL);
    }
}

/* End the adapter's process group: SIGTERM to all of it, SIGKILL to what is left after
 * ADAPTER_GRACE seconds, then wait (a bounded time: a member the system has not reaped
 * yet still counts) for it to be gone. */
static void end_group(adapter_t *a)
{
    if (a->pid <= 0)
        return;
    kill(-a->pid, SIGTERM);
    if (!wait_for(a, ADAPTER_GRACE, 1)) {
        kill(-a->pid, SIGKILL);
        wait_for(a, 1.0, 1);
    }
}

/* How the adapter ended (it closed its output, or its leader ended while a process it
 * started holds the pipe), waited for a second if it has not yet: "ended with status 1". */
static const char *ending(adapter_t *a, char buf[128])
{
    const char *held = a->orphaned ? " (a process it started still holds its pipes)" : "";
    if (a->pid <= 0 || !wait_for(a, 1.0, 0) || a->wstatus == -1)
        return "closed its output";
    int st = a->wstatus;
    if (WIFEXITED(st))
        snprintf(buf, 128, "ended with status %d%s%s", WEXITSTATUS(st),
                 WEXITSTATUS(st) == 127 ? " (the shell's: no such command)" : "", held);
    else
        snprintf(buf, 128, "was killed by signal %d%s", WIFSIGNALED(st) ? WTERMSIG(st) : 0,
                 held);
    return buf;
}

/* The next line from the adapter into a->line, its newline replaced by a NUL: 1; 0 at
 * the end of its output (*partial: bytes without a newline came first); -1 on a read
 * error (errno); -2 when *a->stop is set; -3 after a->timeout seconds; -4 when the line
 * runs past max bytes or memory is short. Polls every 100 ms for the stop. */
static int read_line(adapter_t *a, size_t max, int *partial)
{
    double t0 = monotonic_seconds();
    for (size_t scanned = a->start;;) {
        char *nl = a->have > scanned ? memchr(a->buf + scanned, '\n', a->have - scanned)
                                     : NULL; /* buf is NULL before the first read */
        if (nl) {
            *nl = '\0';
            a->line = a->buf + a->start;
            a->start = (size_t)(nl - a->buf) + 1;
            return 1;
        }
        if (a->have - a->start > max)
            return -4;
        if (a->start > 0) { /* move the unfinished line to the front */
            memmove(a->buf, a->buf + a->start, a->have - a->start);
            a->have -= a->start, a->start = 0;
        }
        scanned = a->have;
        if (a->have == a->cap) {
            size_t c = a->cap ? 2 * a->cap : 65536;
            char *nb = realloc(a->buf, c);
            if (!nb)
                return -4;
            a->buf = nb, a->cap = c;
        }
        struct pollfd pf = {.fd = a->from, .events = POLLIN};
        if (a->stop && atomic_load(a->stop))
            return -2;
        if (a->timeout > 0 && monotonic_seconds() - t0 > a->timeout)
            return -3;
        if (poll(&pf, 1, 100) <= 0) {
            /* Nothing for 100 ms after the adapter ended: a process it started holds
             * the pipe, but the adapter has said all it will. */
            if (leader_ended(a)) {
                a->orphaned = 1;
                *partial = a->have > a->start;
                return 0;
            }
            continue; /* nothing yet, or a signal: look at the stop and the clock again */
        }
        ssize_t r = read(a->from, a->buf + a->have, a->cap - a->have);
        if (r < 0 && errno != EINTR)
            return -1;
        if (r == 0) {
            *partial = a->have > a->start;
            return 0;
        }
        a->have += r > 0 ? (size_t)r : 0;
    }
}

static int failed(const adapter_t *a, const char *what, char *err, size_t errlen);

/* Append fmt to the command being written (a->out_failed when memory is short). */
static void put(adapter_t *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(adapter_t *a, const char *fmt, ...)
{
    for (int tries = 0; tries < 2; tries++) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(a->out + a->used, a->outcap - a->used, fmt, ap);
        va_end(ap);
        if (n < 0)
            break;
        if ((size_t)n < a->outcap - a->used) {
            a->used += (size_t)n;
            return;
        }
        size_t c = 2 * (a->outcap + (size_t)n) + 4096;
        char *nb = realloc(a->out, c);
        if (!nb)
            break;
        a->out = nb, a->outcap = c;
    }
    a->out_failed = 1;
}

/* Write the command: 0; or -1 with errno (EPIPE: the adapter is gone; ENOMEM; EINTR: a
 * stop; ETIMEDOUT: it read nothing for a->timeout seconds). */
static int flush_out(adapter_t *a)
{
    size_t off = 0;
    double t0 = monotonic_seconds();
    int rc = a->out_failed ? (errno = ENOMEM, -1) : 0;
    while (rc == 0 && off < a->used) {
        ssize_t w = write(a->to, a->out + off, a->used - off);
        if (w > 0) {
            off += (size_t)w;
            t0 = monotonic_seconds(); /* progress: the timeout starts again */
            continue;
        }
        if (w < 0 && errno != EAGAIN && errno != EINTR) {
            rc = -1;
            break;
        }
        if (a->stop && atomic_load(a->stop)) {
            errno = EINTR, rc = -1;
            break;
        }
        if (a->timeout > 0 && monotonic_seconds() - t0 > a->timeout) {
            errno = ETIMEDOUT, rc = -1;
            break;
        }
        struct pollfd pf = {.fd = a->to, .events = POLLOUT};
        if (poll(&pf, 1, 100) <= 0 && leader_ended(a)) { /* as read_line */
            a->orphaned = 1;
            errno = EPIPE, rc = -1;
        }
    }
    a->used = 0, a->out_failed = 0;
    return rc;
}

/* Send what was written and read one answer line into a->line (without its newline):
 * ADAPTER_OK; ADAPTER_STOPPED; or ADAPTER_BROKEN when the adapter stopped reading or
 * ended first, took too long, or the line runs past max bytes. An adapter that stopped
 * reading may have said why on its last line: that line is judged instead. `what` names
 * the command, for the message. */
static int answer(adapter_t *a, const char *what, size_t max, char *err, size_t errlen)
{
    char b[128];
    int wrote = flush_out(a) == 0, e = errno, partial = 0;
    if (!wrote && a->stop && atomic_load(a->stop))
        return ADAPTER_STOPPED;
    int got = read_line(a, max, &partial);
    if (got == -2)
        return ADAPTER_STOPPED;
    if (!wrote && got == 1)
        return failed(a, what, err, errlen);
    if (!wrote)
        return fail(err, errlen, ADAPTER_BROKEN, "the adapter stopped reading at '%s' (%s)",
                    what, e == EPIPE ? ending(a, b) : e == ETIMEDOUT ? "nothing read within "
                    "the timeout" : strerror(e));
    if (got == 0)
        return fail(err, errlen, ADAPTER_BROKEN, "the adapter %s before answering '%s'%s",
                    ending(a, b), what, partial ? " (a line without its newline)" : "");
    if (got == -1)
        return fail(err, errlen, ADAPTER_BROKEN, "cannot read the adapter's answer to '%s': "
                    "%s", what, strerror(errno));
    if (got == -3)
        return fail(err, errlen, ADAPTER_BROKEN, "no answer to '%s' within %g seconds", what,
                    a->timeout);
    if (got == -4)
        return fail(err, errlen, ADAPTER_BROKEN, "the adapter's answer to '%s' runs past %zu "
                    "bytes", what, max);
    return ADAPTER_OK;
}

/* An `error MESSAGE` answer outside a design: the adapter has ended (or must). */
static int failed(const adapter_t *a, const char *what, char *err, size_t errlen)
{
    char b[SHOWN + 4];
    if (strncmp(a->line, "error ", 6) == 0)
        return fail(err, errlen, ADAPTER_BROKEN, "the adapter failed at '%s': %s", what,
                    shown(a->line + 6, b));
    return fail(err, errlen, ADAPTER_BROKEN, "the adapter's answer to '%s' is not the "
                "protocol's (got '%s')", what, shown(a->line, b));
}

/* s into out (cap bytes, cut short to fit), every byte outside printable ASCII as \xNN,
 * so that an adapter's name cannot drive the terminal it is printed on. */
static void escape(const char *s, char *out, size_t cap)
{
    size_t o = 0;
    for (; *s && o + 5 < cap; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 32 && c < 127 && c != '\\')
            out[o++] = (char)c;
        else
            o += (size_t)snprintf(out + o, cap - o, "\\x%02x", c);
    }
    out[o] = '\0';
}

int adapter_start(adapter_t *a, const char *cmd, const atomic_int *stop, double timeout,
                  char *err, size_t errlen)
{
    *a = (adapter_t){.from = -1, .to = -1, .stop = stop, .timeout = timeout};
    int in[2], out[2];
    if (pipe(in) != 0)
        return fail(err, errlen, ADAPTER_BROKEN, "cannot make a pipe: %s", strerror(errno));
    if (pipe(out) != 0) {
        close(in[0]), close(in[1]);
        return fail(err, errlen, ADAPTER_BROKEN, "cannot make a pipe: %s", strerror(errno));
    }
    fflush(NULL); /* nothing the driver buffered may be written twice */
    pid_t pid = fork();
    if (pid == 0) { /* the child: its own group, so that a stop reaches all it starts */
        setpgid(0, 0);
        if (dup2(in[0], 0) < 0 || dup2(out[1], 1) < 0)
            _exit(127);
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    close(in[0]), close(out[1]);
    if (pid < 0) {
        close(in[1]), close(out[0]);
        return fail(err, errlen, ADAPTER_BROKEN, "cannot start the adapter: %s",
                    strerror(errno));
    }
    setpgid(pid, pid); /* also here: whichever runs first */
    fcntl(in[1], F_SETFD, FD_CLOEXEC), fcntl(out[0], F_SETFD, FD_CLOEXEC);
    a->pid = pid;
    a->from = out[0];
    a->to = in[1];
    fcntl(in[1], F_SETFL, fcntl(in[1], F_GETFL) | O_NONBLOCK);
    put(a, "hello %d\n", ADAPTER_PROTOCOL);
    int st = answer(a, "hello 1", ADAPTER_LINE_MAX, err, errlen);
    if (st != ADAPTER_OK)
        return st;
    if (strncmp(a->line, "hello 1 ", 8) != 0 || !a->line[8])
        return failed(a, "hello 1", err, errlen);
    escape(a->line + 8, a->name, sizeof a->name);
    return ADAPTER_OK;
}

/* A canonical decimal at s (no sign, no leading zero) into *x, up to its end or a space;
 * returns the byte after it, or NULL. */
static const char *decimal(const char *s, uint64_t *x)
{
    if (*s < '0' || *s > '9' || (s[0] == '0' && s[1] >= '0' && s[1] <= '9'))
        return NULL;
    uint64_t v = 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        if (v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
            return NULL;
        v = 10 * v + (uint64_t)(*s - '0');
    }
    *x = v;
    return s;
}

/* x as the shortest %g that reads back as x (a whole number below 10^15 in digits). */
static void shortest(double x, char buf[32])
{
    if (x == floor(x) && x < 1e15) {
        snprintf(buf, 32, "%.0f", x);
        return;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, 32, "%.*g", prec, x);
        if (strtod(buf, NULL) == x)
            return;
    }
}

/* Send the design command what and read its answer into *m and *k. */
static int design_answer(adapter_t *a, const char *what, uint64_t *m, unsigned *k, char *err,
                         size_t errlen)
{
    char b[SHOWN + 4];
    put(a, "%s\n", what);
    int st = answer(a, what, ADAPTER_LINE_MAX, err, errlen);
    if (st != ADAPTER_OK)
        return st;
    if (strncmp(a->line, "error ", 6) == 0)
        return fail(err, errlen, ADAPTER_REFUSED, "the adapter refuses '%s': %s", what,
                    shown(a->line + 6, b));
    if (strcmp(a->line, "design ? ?") == 0) {
        *m = 0, *k = 0;
        return ADAPTER_OK;
    }
    uint64_t mm = 0, kk = 0;
    const char *s = strncmp(a->line, "design ", 7) == 0 ? decimal(a->line + 7, &mm) : NULL;
    if (s && strcmp(s, " ?") == 0 && mm > 0 && mm <= ADAPTER_M_MAX) { /* a table */
        *m = mm, *k = 0;
        return ADAPTER_OK;
    }
    s = s && *s == ' ' ? decimal(s + 1, &kk) : NULL;
    if (!s || *s)
        return failed(a, what, err, errlen);
    /* What no filter can be: no bits or probes, a probe for every bit or more, or more
     * bits than a machine holds for one filter (2^48 bits, 32 TiB). */
    if (mm == 0 || kk == 0 || kk >= mm || mm > ADAPTER_M_MAX)
        return fail(err, errlen, ADAPTER_BROKEN, "the adapter's design for '%s' is no "
                    "filter: m = %" PRIu64 " bits, k = %" PRIu64 " (want 0 < k < m <= 2^48)",
                    what, mm, kk);
    *m = mm, *k = (unsigned)kk;
    return ADAPTER_OK;
}

int adapter_design(adapter_t *a, uint64_t n, double p, double bits_per_key, uint64_t *m,
                   unsigned *k, char *err, size_t errlen)
{
    char what[96], x[32];
    shortest(bits_per_key > 0 ? bits_per_key : p, x);
    snprintf(what, sizeof what, "%s %" PRIu64 " %s", bits_per_key > 0 ? "design-bpk" : "design",
             n, x);
    return design_answer(a, what, m, k, err, errlen);
}

int adapter_design_fp(adapter_t *a, uint64_t n, unsigned f, uint64_t *m, unsigned *k,
                      char *err, size_t errlen)
{
    char what[64];
    snprintf(what, sizeof what, "design-fp %" PRIu64 " %u", n, f);
    return design_answer(a, what, m, k, err, errlen);
}

int adapter_failures(adapter_t *a, uint64_t *inserts, uint64_t *retries, char *err,
                     size_t errlen)
{
    put(a, "failures\n");
    int st = answer(a, "failures", ADAPTER_LINE_MAX, err, errlen);
    if (st != ADAPTER_OK)
        return st;
    const char *s = strncmp(a->line, "failures ", 9) == 0 ? decimal(a->line + 9, inserts)
                                                          : NULL;
    s = s && *s == ' ' ? decimal(s + 1, retries) : NULL;
    return s && !*s ? ADAPTER_OK : failed(a, "failures", err, errlen);
}

/* Append len bytes to the command being written (a->out_failed when memory is short). */
static void put_bytes(adapter_t *a, const void *p, size_t len)
{
    if (a->outcap - a->used < len + 1) {
        size_t c = 2 * (a->used + len) + 4096;
        char *nb = realloc(a->out, c);
        if (!nb) {
            a->out_failed = 1;
            return;
        }
        a->out = nb, a->outcap = c;
    }
    memcpy(a->out + a->used, p, len);
    a->used += len;
}

const char *const ADAPTER_WIRE_NAMES[3] = {"u64", "str", "hex"};

void adapter_begin(adapter_t *a, int query, int wire, size_t count)
{
    a->query = query, a->wire = wire, a->count = count, a->bad_key = 0;
    snprintf(a->what, sizeof a->what, "%s %s %zu", query ? "query" : "insert",
             ADAPTER_WIRE_NAMES[wire], count);
    put(a, "%s\n", a->what);
}

void adapter_key(adapter_t *a, const rkey_t *k)
{
    if (k->kind == KEY_INT) {
        put(a, "%" PRIu64 "\n", k->u);
        return;
    }
    if (a->wire == ADAPTER_HEX) {
        static const char digits[] = "0123456789abcdef";
        for (size_t i = 0; i < k->len; i++) {
            char two[2] = {digits[k->bytes[i] >> 4], digits[k->bytes[i] & 15]};
            put_bytes(a, two, 2);
        }
    } else {
        a->bad_key |= memchr(k->bytes, '\n', k->len) != NULL;
        put_bytes(a, k->bytes, k->len);
    }
    put_bytes(a, "\n", 1);
}

int adapter_end(adapter_t *a, uint64_t *hits, char *err, size_t errlen)
{
    char b[SHOWN + 4];
    const char *what = a->what;
    size_t count = a->count;
    if (a->bad_key) {
        a->used = 0;
        return fail(err, errlen, ADAPTER_BROKEN, "a key of '%s' holds a newline, which no "
                    "key line can", what);
    }
    int st = answer(a, what, !a->query ? ADAPTER_LINE_MAX
                             : count + 64 > ADAPTER_LINE_MAX ? count + 64 : ADAPTER_LINE_MAX,
                    err, errlen);
    if (st != ADAPTER_OK)
        return st;
    if (!a->query) {
        uint64_t got;
        const char *s = strncmp(a->line, "inserted ", 9) == 0 ? decimal(a->line + 9, &got)
                                                              : NULL;
        return !s || *s || got != count ? failed(a, what, err, errlen) : ADAPTER_OK;
    }
    size_t len = strlen(a->line);
    uint64_t ones = 0;
    for (size_t i = 0; i < len; i++) {
        if (a->line[i] != '0' && a->line[i] != '1')
            return strncmp(a->line, "error ", 6) == 0 || i == 0 ?
                       failed(a, what, err, errlen) :
                       fail(err, errlen, ADAPTER_BROKEN, "the adapter's answer to '%s' holds "
                            "a byte other than 0 and 1 at %zu (got '%s')", what, i + 1,
                            shown(a->line, b));
        ones += a->line[i] == '1';
    }
    if (len != count)
        return fail(err, errlen, ADAPTER_BROKEN, "the adapter gave %zu answers to '%s', not "
                    "%zu", len, what, count);
    *hits = ones;
    return ADAPTER_OK;
}

/* A command of count u64 keys. */
static int u64_command(adapter_t *a, int query, const uint64_t *keys, size_t count,
                       uint64_t *hits, char *err, size_t errlen)
{
    adapter_begin(a, query, ADAPTER_U64, count);
    for (size_t i = 0; i < count; i++)
        adapter_key(a, &(rkey_t){.kind = KEY_INT, .u = keys[i]});
    return adapter_end(a, hits, err, errlen);
}

int adapter_insert(adapter_t *a, const uint64_t *keys, size_t count, char *err,
                   size_t errlen)
{
    return u64_command(a, 0, keys, count, NULL, err, errlen);
}

int adapter_query(adapter_t *a, const uint64_t *keys, size_t count, uint64_t *hits,
                  char *err, size_t errlen)
{
    return u64_command(a, 1, keys, count, hits, err, errlen);
}

void adapter_stop(adapter_t *a, int broken, int *status)
{
    if (status)
        *status = -1;
    if (a->to >= 0) {
        if (!broken) {
            put(a, "quit\n");
            flush_out(a);
        }
        close(a->to);
    }
    if (a->from >= 0)
        close(a->from);
    /* A sound adapter gets the timeout (0: as long as it takes) to exit after quit;
     * then, whatever it did, its whole group is ended. */
    int exited = !broken && a->pid > 0 && wait_for(a, a->timeout > 0 ? a->timeout : 1e18, 0);
    int sound = !broken && a->pid > 0;
    end_group(a);
    if (status && exited)
        *status = a->wstatus != -1 && WIFEXITED(a->wstatus) ? WEXITSTATUS(a->wstatus) : -1;
    else if (status && sound)
        *status = ADAPTER_NO_EXIT;
    free(a->buf);
    free(a->out);
    *a = (adapter_t){.from = -1, .to = -1};
}
