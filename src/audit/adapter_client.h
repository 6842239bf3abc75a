/* adapter_client.h - the driver's side of the adapter protocol (docs/adapter.md): start a
 * program that puts a Bloom filter implementation behind the protocol, and speak to it
 * (hello, design, insert and query keys), checking every answer against the protocol.
 * `bloomsim audit --exec` (src/cli/audit_exec.c) measures an implementation through it;
 * the other side, bloomsim's own adapter, is adapter_server.h.
 *
 * The adapter runs as `sh -c CMD` in a process group of its own, its standard input and
 * output on pipes, its standard error the driver's. Each call writes one whole command
 * (key lines included) and then reads its one answer line, as the protocol says; the
 * writes and the reads both give up after the timeout without progress, and on a stop.
 *
 * Every call returns ADAPTER_OK, or a status with a one-line message in err:
 * ADAPTER_REFUSED (the adapter answered `error MESSAGE` to a design: it stays usable)
 * or ADAPTER_BROKEN (it died, closed a pipe, answered garbage or too few answers, or
 * `error` outside a design: it is no longer usable; adapter_stop still reaps it).
 * The caller ignores SIGPIPE, so that a dead adapter makes a write fail with EPIPE
 * instead of ending the driver. Not thread-safe: one adapter, one thread.
 */
#ifndef BLOOMSIM_ADAPTER_CLIENT_H
#define BLOOMSIM_ADAPTER_CLIENT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "keys/keys.h"

enum { ADAPTER_OK = 0, ADAPTER_REFUSED = 1, ADAPTER_BROKEN = 2, ADAPTER_STOPPED = 3 };

/* The protocol version this driver speaks. */
#define ADAPTER_PROTOCOL 1
/* The longest answer line read other than a query's (a query's is COUNT + 1 bytes). */
#define ADAPTER_LINE_MAX 4096

typedef struct adapter {
    pid_t pid;       /* the `sh -c` child, leader of its process group; 0 when none */
    int reaped, wstatus; /* it has ended, with this wait status (-1: unknown) */
    int orphaned;    /* it ended while a process it started held its pipes */
    int to;          /* its standard input (non-blocking), written from out */
    char *out;       /* the command being written: out[0..used) */
    size_t outcap, used;
    int out_failed;  /* memory ran short while a command was formatted */
    int query, wire, bad_key; /* the command being written: a query; its ADAPTER_U64,
                               * _STR or _HEX; a str key held a newline */
    size_t count;
    char what[64];   /* its first line, for messages */
    int from;        /* its standard output, read through buf */
    char *buf;       /* what was read: buf[start..have) is not yet an answer */
    size_t cap, have, start;
    char *line;      /* the last answer read, in buf, without its newline */
    const atomic_int *stop; /* nonzero: stop waiting (ADAPTER_STOPPED); may be NULL */
    double timeout;  /* the most seconds to wait for an answer; 0: no limit */
    char name[256];  /* what its hello said */
} adapter_t;

/* Start `sh -c cmd` and exchange `hello 1` (its name into a->name). While it waits for
 * an answer, every call gives up with ADAPTER_STOPPED as soon as *stop is nonzero, and
 * with ADAPTER_BROKEN after `timeout` seconds without the answer, or without the
 * adapter reading any of a command (0: never). */
int adapter_start(adapter_t *a, const char *cmd, const atomic_int *stop, double timeout,
                  char *err, size_t errlen);

/* A new filter for n keys at rate p (bits_per_key 0), or at bits_per_key bits a key
 * (p ignored). *m and *k receive its bits and probes; both 0 when it answers `? ?`; m
 * and k 0 when it answers `design M ?` (a fingerprint filter's table of M bits, no
 * probes: docs/adapter.md, Fingerprint filters). A design no filter can be (k = 0, k >=
 * m, m > ADAPTER_M_MAX) is ADAPTER_BROKEN. */
#define ADAPTER_M_MAX (UINT64_C(1) << 48)
int adapter_design(adapter_t *a, uint64_t n, double p, double bits_per_key, uint64_t *m,
                   unsigned *k, char *err, size_t errlen);

/* The same for a fingerprint filter designed by its fingerprint bits f (`design-fp N F`). */
int adapter_design_fp(adapter_t *a, uint64_t n, unsigned f, uint64_t *m, unsigned *k,
                      char *err, size_t errlen);

/* A fingerprint filter's `failures` (an adapter that answered `design M ?`): the inserts
 * its library reported failed and the builds it retried since the design. */
int adapter_failures(adapter_t *a, uint64_t *inserts, uint64_t *retries, char *err,
                     size_t errlen);

/* Insert count keys of kind u64. */
int adapter_insert(adapter_t *a, const uint64_t *keys, size_t count, char *err,
                   size_t errlen);

/* Ask about count keys of kind u64; *hits receives how many it answers 1. */
int adapter_query(adapter_t *a, const uint64_t *keys, size_t count, uint64_t *hits,
                  char *err, size_t errlen);

/* A command of any keys, written key by key: adapter_begin (an insert, or a query when
 * query is 1, of count keys sent as wire, ADAPTER_U64 for KEY_INT keys, ADAPTER_STR for
 * KEY_BYTES keys whose bytes hold no newline, ADAPTER_HEX for any KEY_BYTES keys), then
 * adapter_key count times (the key is copied: its bytes may change after), then
 * adapter_end, which sends it and reads the answer (a query's 1s into *hits). */
enum { ADAPTER_U64, ADAPTER_STR, ADAPTER_HEX };
extern const char *const ADAPTER_WIRE_NAMES[3]; /* "u64", "str", "hex" */
void adapter_begin(adapter_t *a, int query, int wire, size_t count);
void adapter_key(adapter_t *a, const rkey_t *k);
int adapter_end(adapter_t *a, uint64_t *hits, char *err, size_t errlen);

/* Send `quit` (unless broken), close the pipes, wait up to the timeout for the adapter
 * to exit, then end its whole process group (SIGTERM; SIGKILL to what is left after
 * ADAPTER_GRACE seconds) and reap it: its exit status in *status (NULL: not wanted), -1
 * when a signal ended it or it was broken, ADAPTER_NO_EXIT when it did not exit within
 * the timeout after quit. Safe on an adapter never started. Every exit path of a caller
 * (done, error, timeout, stop) calls it, so that no process of the adapter outlives it. */
#define ADAPTER_GRACE 2.0
#define ADAPTER_NO_EXIT (-2)
void adapter_stop(adapter_t *a, int broken, int *status);

#endif
