/* keys.h - key sets: the real keys a user inserts into a filter and looks up in it,
 * generated as streams (never stored), for the real hash functions of src/hashes/ to
 * turn into the hash words a library's scheme consumes (docs/model.md, Key sets and real
 * hashes).
 *
 * A key is typed: an integer (the value; each library's hash decides its bytes: 8 bytes
 * little-endian for Guava's Funnels.longFunnel, big-endian for Cassandra's bigint, the
 * decimal string for JavaScript and Redis, ...) or a byte string. The key sets:
 *   ideal    no keys: today's uniform hash words (only a name here)
 *   seq      the integers 0, 1, 2, ...: inserts 0..n-1, queries n, n+1, ...
 *   seq-str  the byte strings PREFIX + decimal(i) (PREFIX "key" unless given), the
 *            same indices as seq
 *   random   64-bit integers from PCG32 (pcg.h): bit 63 is the role (inserts 0,
 *            queries 1), the other 63 bits are the generator's
 *   uuid     random version-4 UUIDs, 36 lowercase characters: the top bit of the first
 *            byte is the role (inserts begin with 0-7, queries with 8-f), 121 bits are
 *            the generator's, 6 are the version and variant
 *   file     the lines of a user's file (without "\n" or "\r\n"): the first n lines are
 *            inserted, the lines after them queried
 *   filter-bench  the keys of RocksDB's benchmark util/filter_bench.cc (KeyMaker::Get at
 *            commit 8aa99fc7, the benchmark of facebook/rocksdb PR #6317), byte strings:
 *            for the filter's 32-bit id F (drawn per stream, as filter_bench draws one
 *            per filter) and a 32-bit counter v, the bytes LE32(v), LE32(F + v) and zeros,
 *            24 + floor(5 ((v >> 5) 1234567891 mod 2^32) / 2^32) bytes in all (24 to 28);
 *            inserts take v = 0..n-1 (n at most 2^31), queries v = 2^31 + j for
 *            j = 0..n-1, the keys filter_bench asks (Get(id, j | 0x80000000) with j
 *            below the filter's key count), each once: at most n queries a filter
 * Inserted and queried keys are disjoint by construction: seq and seq-str take disjoint
 * index ranges and the decimal form of a number is unique (no leading zeros); random,
 * uuid and filter-bench differ in the reserved bit. A file's lines are the user's:
 * duplicates in it, across the n-th line, would make a query a key that was inserted
 * (docs/model.md, Key sets and real hashes).
 *
 * Streams: a key stream yields the keys of one role from one index on, and its keys are
 * a pure function of (key set, seed, role, stream, index): any number of threads may
 * each drive their own stream over a shared key set (read only once opened). `stream`
 * selects independent random keys (e.g. one per filter) and filter-bench's filter id;
 * seq, seq-str and file keys are the same in every stream. Starting at index `first`
 * costs O(log first) for random and uuid (PCG jump-ahead), O(1) for seq, seq-str and
 * filter-bench, and at most KEYSET_FILE_STRIDE lines of scanning for file (a sparse
 * index of line offsets is built when the file opens).
 */
#ifndef BLOOMSIM_KEYS_H
#define BLOOMSIM_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include "base/pcg.h"

/* Key kinds, also bits of a kinds mask. KEY_TEXT is a mask bit only: the library's byte
 * strings are its language's text (a Java or JavaScript string), so a string key must be
 * UTF-8 (a key of arbitrary bytes is KEY_BYTES). */
enum { KEY_INT = 1, KEY_BYTES = 2, KEY_TEXT = 4 };

/* A key (POSIX's <sys/types.h> owns the name key_t, hence rkey_t, "real key"). bytes
 * stays valid until the next key_next on the stream that produced it. */
typedef struct rkey {
    int kind;            /* KEY_INT or KEY_BYTES */
    uint64_t u;          /* KEY_INT: the value (a Java long is its two's complement) */
    const uint8_t *bytes;/* KEY_BYTES: the key's bytes */
    size_t len;
} rkey_t;

enum { KEYSET_IDEAL, KEYSET_SEQ, KEYSET_SEQ_STR, KEYSET_RANDOM, KEYSET_UUID, KEYSET_FILE,
       KEYSET_FILTER_BENCH, KEYSET_COUNT };
enum { KEY_ROLE_INSERT = 0, KEY_ROLE_QUERY = 1 };

enum {
    KEYSET_OK = 0,
    KEYSET_EKIND,   /* no key set of that name */
    KEYSET_EPARAM,  /* a prefix past KEYSET_PREFIX_MAX, a file key set without a path, a
                     * parameter for a key set that takes none */
    KEYSET_EFILE,   /* the file cannot be opened, read or mapped */
    KEYSET_ESHORT,  /* the file has fewer lines than the inserts and queries need */
    KEYSET_ECOUNT,  /* inserts + queries past 2^64 - 1; filter-bench: inserts past 2^31,
                     * queries past the inserts */
    KEYSET_ENOMEM
};

#define KEYSET_PREFIX_MAX 64
#define KEYSET_PREFIX_DEFAULT "key"
/* A file key set records the offset of every KEYSET_FILE_STRIDE-th line. */
#define KEYSET_FILE_STRIDE 4096
/* A key file's lines to query, at least: two batches of one, a spread to check. */
#define KEYSET_FILE_MIN_QUERIES 2
/* filter-bench: at most 2^31 inserted keys, and as many queries, a filter. */
#define KEYSET_FILTER_BENCH_MAX (UINT64_C(1) << 31)
/* The longest key a stream formats itself: a prefix and 20 digits, or a UUID. */
#define KEY_BUF_MAX (KEYSET_PREFIX_MAX + 24)

typedef struct keyset {
    int kind;          /* KEYSET_* */
    uint64_t seed;
    uint64_t inserts;  /* n: seq, seq-str and file queries start at index n */
    char prefix[KEYSET_PREFIX_MAX + 1];
    size_t prefix_len;
    /* file: the mapped file, its line count and the sparse index of line starts */
    char *path;
    const uint8_t *map;
    size_t size;
    uint64_t lines;
    uint64_t *index;   /* index[j]: the offset of line j * KEYSET_FILE_STRIDE */
    size_t insert_end; /* the offset of line n, where the inserted lines end */
} keyset_t;

typedef struct key_stream {
    const keyset_t *ks;
    int role;
    uint64_t next;      /* index within the role's keys of the next key */
    pcg32_t rng;        /* random, uuid */
    const uint8_t *pos; /* file: the start of the next line */
    size_t digits;      /* seq-str: how many digits follow the prefix in buf */
    int fresh;          /* seq-str: buf holds the next key (not yet returned) */
    uint32_t id;        /* filter-bench: the filter's id */
    uint8_t buf[KEY_BUF_MAX];
} key_stream_t;

/* KEYSET_* of a name ("ideal", "seq", "seq-str", "random", "uuid", "file",
 * "filter-bench"), or -1. KEYSET_NAMES_LIST: the names, for messages. */
#define KEYSET_NAMES_LIST "ideal, seq, seq-str, random, uuid, file or filter-bench"
int keyset_kind_find(const char *name);
const char *keyset_kind_name(int kind);

/* Opens a key set of kind for n inserts with this seed. param: seq-str's prefix (NULL
 * for "key"), file's path (required); NULL for the others. On failure returns KEYSET_E*
 * with a one-line reason in err (naming the file and the system's error) and leaves
 * nothing to free. */
int keyset_open(keyset_t *ks, int kind, uint64_t seed, uint64_t inserts, const char *param,
                char *err, size_t errlen);
/* KEYSET_OK when the key set holds n inserts and `queries` queries (a filter's, where
 * filters have keys of their own): a file needs n + queries lines (KEYSET_ESHORT
 * otherwise, with the counts in err), filter-bench at most n (KEYSET_ECOUNT). */
int keyset_check(const keyset_t *ks, uint64_t queries, char *err, size_t errlen);
void keyset_close(keyset_t *ks);

/* A stream of the keys of `role` (KEY_ROLE_*), from the role's key number `first` on. */
void key_stream_init(key_stream_t *s, const keyset_t *ks, int role, uint64_t stream,
                     uint64_t first);
/* Does each filter take keys of its own (stream f: random, uuid, filter-bench's id), or
 * the same keys as every other (seq, seq-str, file: one filter, asked disjoint keys)? */
int keyset_per_filter(const keyset_t *ks);
/* The most queries one filter may ask: filter-bench's n (the counters filter_bench
 * asks), UINT64_MAX for the others (a file's lines bound its filters together, by
 * keyset_check). Where a row wants more, it builds more filters. */
uint64_t keyset_queries_max(const keyset_t *ks);

/* The next key into *k: 1, or 0 past the role's keys: an insert stream ends after the
 * n-th inserted key (so that it never yields a query), a file's query stream at its
 * last line; ideal streams have no keys. */
int key_next(key_stream_t *s, rkey_t *k);

/* v in decimal without leading zeros into out (at least 20 bytes, not terminated);
 * returns the digit count. Two digits per division (a table of 00..99). */
size_t key_format_u64(uint64_t v, char *out);

#endif
