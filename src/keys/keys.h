/* keys.h - key sets: the real keys a user inserts into a filter and looks up in it,
 * generated as streams (never stored), for the real hash functions of src/hashes/ to
 * turn into the hash words a library's scheme consumes (docs/model.md, Key sets and real
 * hashes).
 *
 * A key is typed: an integer (the value; each library's hash decides its bytes: 8 bytes
 * little-endian for Guava's Funnels.longFunnel, big-endian for Cassandra's bigint, the
 * decimal string for JavaScript and Redis, ...) or a byte string. Each key set is one
 * file, src/keys/NAME.c, defining its descriptor (keyset_kind_t below: its name, its
 * parameter, its keys' form, its limits and its stream functions), and one line of
 * keys/registry.h; each file's opening comment says what its keys are and why inserted
 * and queried keys are disjoint. Nothing outside src/keys/ names a key set: the rest of
 * bloomsim reads the descriptor.
 *
 * Streams: a key stream yields the keys of one role from one index on, and its keys are
 * a pure function of (key set, seed, role, stream, index): any number of threads may
 * each drive their own stream over a shared key set (read only once opened). `stream`
 * selects independent keys where each filter takes keys of its own (per_filter); the
 * others' keys are the same in every stream. Key sets number their keys: inserts
 * 0..n-1, queries n, n+1, ... (key_index), which their keys encode or draw from.
 */
#ifndef BLOOMSIM_KEYS_H
#define BLOOMSIM_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include "base/pcg.h"
#include "keys/registry.h"

/* Key kinds, also bits of a kinds mask. KEY_TEXT is a mask bit only: the library's byte
 * strings are its language's text (a Java or JavaScript string), so a string key must be
 * UTF-8 (a key of arbitrary bytes is KEY_BYTES). */
enum { KEY_INT = 1, KEY_BYTES = 2, KEY_TEXT = 4 };

/* How an adapter is sent a key set's keys (docs/adapter.md): integers as u64, text as
 * str (no newline in a key), any bytes as hex; the order of adapter.h's ADAPTER_U64,
 * ADAPTER_STR and ADAPTER_HEX. */
enum { KEY_WIRE_U64, KEY_WIRE_STR, KEY_WIRE_HEX };

/* A key (POSIX's <sys/types.h> owns the name key_t, hence rkey_t, "real key"). bytes
 * stays valid until the next key_next on the stream that produced it. */
typedef struct rkey {
    int kind;            /* KEY_INT or KEY_BYTES */
    uint64_t u;          /* KEY_INT: the value (a Java long is its two's complement) */
    const uint8_t *bytes;/* KEY_BYTES: the key's bytes */
    size_t len;
} rkey_t;

enum { KEY_ROLE_INSERT = 0, KEY_ROLE_QUERY = 1 };

enum {
    KEYSET_OK = 0,
    KEYSET_EKIND,   /* no key set of that name */
    KEYSET_EPARAM,  /* a parameter refused (too long, missing), or one for a key set that
                     * takes none */
    KEYSET_EFILE,   /* the file cannot be opened, read or mapped */
    KEYSET_ESHORT,  /* the file has fewer lines than the inserts and queries need */
    KEYSET_ECOUNT,  /* inserts + queries past 2^64 - 1, or past a key set's limits */
    KEYSET_ENOMEM
};

#define KEYSET_PREFIX_MAX 64
/* The longest key a stream formats itself: a prefix and 20 digits, or a UUID. */
#define KEY_BUF_MAX (KEYSET_PREFIX_MAX + 24)
/* A file key set records the offset of every KEYSET_FILE_STRIDE-th line. */
#define KEYSET_FILE_STRIDE 4096
/* The random keys of role r in stream s come from pcg32_unit(seed, KEYSET_RNG_TAG + r,
 * s) (a key set that draws per stream another, KEYSET_RNG_TAG + 2): "keys" in the high
 * word keeps them apart from the simulation's units, whose first coordinate is a row
 * number. */
#define KEYSET_RNG_TAG (UINT64_C(0x6b657973) << 32)

struct keyset_kind;

/* An open key set. The fields after `inserts` are the state of the key sets that keep
 * one, each named by the file that uses it. */
typedef struct keyset {
    const struct keyset_kind *kind; /* NULL: none (a zeroed row's: ideal hash words) */
    uint64_t seed;
    uint64_t inserts;  /* n: queries are the keys numbered n on */
    /* seq_str.c: the prefix */
    char prefix[KEYSET_PREFIX_MAX + 1];
    size_t prefix_len;
    /* file.c: the mapped file, its line count and the sparse index of line starts */
    char *path;
    const uint8_t *map;
    size_t size;
    uint64_t lines;
    uint64_t *index;   /* index[j]: the offset of line j * KEYSET_FILE_STRIDE */
    size_t insert_end; /* the offset of line n, where the inserted lines end */
} keyset_t;

/* A file key set's queried lines that are also inserted (file_dups.c): KEYSET_OK when
 * none, else KEYSET_EFILE with the first (its line, the inserted line it repeats) and
 * their count in err; KEYSET_ENOMEM. */
int keyset_file_duplicates(const keyset_t *ks, char *err, size_t errlen);

typedef struct key_stream key_stream_t;
struct key_stream {
    const keyset_t *ks;
    int role;
    uint64_t next;      /* the number within the role's keys of the next key (which a
                         * kind's next, called after the increment, sees as next - 1) */
    int (*step)(key_stream_t *s, rkey_t *k); /* the kind's next */
    pcg32_t rng;        /* random, uuid, filter-bench */
    const uint8_t *pos; /* file: the start of the next line */
    size_t digits;      /* seq-str, url: how many digits follow the prefix in buf */
    int fresh;          /* seq-str, url: buf holds the next key (not yet returned) */
    uint32_t id;        /* filter-bench: the filter's id */
    uint8_t buf[KEY_BUF_MAX];
};

/* A key set's descriptor: everything bloomsim knows of it, in its own file. Function
 * pointers may be NULL where the key set has nothing to do (no state to open or close,
 * no limit to check). */
typedef struct keyset_kind {
    const char *name;    /* as --key-set and key_sets take it */
    const char *summary; /* one line for `bloomsim list` */
    const char *help;    /* what its keys are, for audit --help: "(0, 1, 2, ...)" */
    int real;            /* 1: real keys; 0: none (ideal uniform hash words) */
    /* Its parameter (param_flag NULL: it takes none): the audit option and the
     * experiment key that set it and the option's value as usage names it; needed: it
     * must be given, not empty; path: it is a file's path (an experiment's relative to
     * the experiment file), opened by plan_key_file, whose errors name the option or key. */
    const char *param_flag, *param_key, *param_meta;
    int param_needed, param_path;
    size_t param_max;    /* its most bytes (0: no bound of its own) */
    /* The keys: which key kinds a library's hash must take (library_words_t.kinds:
     * KEY_INT for integers, KEY_TEXT | KEY_BYTES for text, which either takes, KEY_BYTES
     * for arbitrary bytes), and how an adapter is sent them (KEY_WIRE_*). */
    unsigned kinds;
    int wire;
    /* Does each filter take keys of its own (stream f), or the same keys as every other
     * (one filter, asked disjoint queries: filter f the queries from f L on)? */
    int per_filter;
    /* The fewest queries an open key set must hold (a file: two batches of one). */
    uint64_t min_queries;
    /* Sets up the kind's state in ks (kind, seed, inserts set, the rest zero) from param
     * (NULL: none given); KEYSET_* with a one-line reason in err. */
    int (*open)(keyset_t *ks, const char *param, char *err, size_t errlen);
    /* Its limits beyond 2^64 - 1 keys for n inserts and `queries` queries a filter. */
    int (*check)(const keyset_t *ks, uint64_t queries, char *err, size_t errlen);
    void (*close)(keyset_t *ks);     /* frees the state (harmless twice) */
    uint64_t (*queries_max)(const keyset_t *ks);   /* a filter's (NULL: unbounded) */
    uint64_t (*queries_total)(const keyset_t *ks); /* all filters' (NULL: unbounded) */
    /* Its parameter as a row's label shows it (audit 0: " 'user:'") or audit prints it
     * (audit 1: " (prefix 'user:')"), into out; NULL: nothing shown. */
    void (*show)(const keyset_t *ks, int audit, char *out, size_t len);
    /* Sets up s's state (s->ks, role and next set: next is the role's first key to
     * yield) for stream `stream`. */
    void (*stream_init)(key_stream_t *s, uint64_t stream);
    /* The key numbered s->next - 1 of s's role into *k: 1, or 0 past its keys. */
    int (*next)(key_stream_t *s, rkey_t *k);
} keyset_kind_t;

/* The registry: key set i (i < KEYSET_COUNT; 0 is the default, ideal), a key set by
 * name (NULL: none), the key set whose parameter an option or key (--key-prefix,
 * key_file) sets (NULL: none); the names for messages ("ideal, seq, ... or
 * filter-bench") and the message for a name not among them ("unknown key set (ideal,
 * seq, ... or filter-bench)"), both built once, thread-safe, never freed. */
const keyset_kind_t *keyset_kind_at(size_t i);
const keyset_kind_t *keyset_kind_find(const char *name);
const keyset_kind_t *keyset_kind_by_param(const char *flag_or_key);
const char *keyset_names_list(void);
const char *keyset_unknown_message(void);

/* Does kind (NULL: none) give real keys? */
static inline int keyset_kind_real(const keyset_kind_t *kind)
{
    return kind && kind->real;
}

/* Opens a key set of kind for n inserts with this seed. param: the kind's parameter
 * (NULL: not given). On failure returns KEYSET_E* with a one-line reason in err (naming
 * the file and the system's error) and leaves nothing to free. */
int keyset_open(keyset_t *ks, const keyset_kind_t *kind, uint64_t seed, uint64_t inserts,
                const char *param, char *err, size_t errlen);
/* KEYSET_OK when the key set holds n inserts and `queries` queries (a filter's, where
 * filters have keys of their own): at most 2^64 - 1 keys, and the kind's limits. */
int keyset_check(const keyset_t *ks, uint64_t queries, char *err, size_t errlen);
void keyset_close(keyset_t *ks);

/* The path of the open key file whose map holds addr, and its size when opened (*size);
 * NULL when no key file's does. For a SIGBUS handler: async-signal-safe (a file truncated
 * while read faults past its new end). */
const char *keyset_file_at(const void *addr, size_t *size);

/* Does each filter take keys of its own? (keyset_kind_t.per_filter) */
int keyset_per_filter(const keyset_t *ks);
/* The most queries one filter may ask, and all filters together (each query once):
 * UINT64_MAX where the key set sets no bound. */
uint64_t keyset_queries_max(const keyset_t *ks);
uint64_t keyset_queries_total(const keyset_t *ks);

/* Which keys filter f of a run takes, L queries a filter (docs/model.md, Key sets and
 * real hashes): its stream, and the number of its first query: stream f from query 0
 * where each filter takes keys of its own, else stream 0 from query f L (the same
 * filter, asked disjoint batches). */
static inline void keyset_filter_keys(const keyset_t *ks, uint64_t f, uint64_t L,
                                      uint64_t *stream, uint64_t *first)
{
    int own = keyset_per_filter(ks);
    *stream = own ? f : 0;
    *first = own ? 0 : f * L;
}

/* A run's lookups a filter, *lookups as planned, within the key set's bounds, and the
 * most filters it may then build (UINT64_MAX: no bound): at most its queries a filter
 * (filter-bench's n: more filters, not more lookups, where more are wanted); where its
 * queries are bounded in all (Q = keyset_queries_total >= 2: a file's lines after the
 * inserted ones), batches of the one filter, each query asked once: at most Q / 2 (two
 * batches, a spread to check) and, where a precision target is asked (target != 0), at
 * most Q / STATS_MIN_SPREAD_FILTERS where Q allows (the batches a target rests on:
 * stats_trusted); the filters are then Q / *lookups. */
uint64_t keyset_plan_queries(const keyset_t *ks, int target, uint64_t *lookups);

/* A stream of the keys of `role` (KEY_ROLE_*), from the role's key number `first` on. */
void key_stream_init(key_stream_t *s, const keyset_t *ks, int role, uint64_t stream,
                     uint64_t first);

/* The next key into *k: 1, or 0 past the role's keys: an insert stream ends after the
 * n-th inserted key (so that it never yields a query), a query stream where its key set
 * says (a file's last line, filter-bench's n-th); ideal streams have no keys. */
static inline int key_next(key_stream_t *s, rkey_t *k)
{
    if (s->role == KEY_ROLE_INSERT && s->next >= s->ks->inserts)
        return 0;
    s->next++;
    return s->step(s, k);
}

/* The number among all keys (inserts 0..n-1, queries n on) of the key s->next - 1 of
 * s's role: the key a kind's next yields. */
static inline uint64_t key_index(const key_stream_t *s)
{
    return (s->role == KEY_ROLE_QUERY ? s->ks->inserts : 0) + s->next - 1;
}

/* v in decimal without leading zeros into out (at least 20 bytes, not terminated);
 * returns the digit count. Two digits per division (a table of 00..99). */
size_t key_format_u64(uint64_t v, char *out);
/* The decimal number in d[0..*digits), plus one, in place (a carry past the first digit
 * makes it one digit longer: all nines become 1 and zeros; d has room for it). */
void key_decimal_increment(uint8_t *d, size_t *digits);

#endif
