/* fingerprint.h - fingerprint filters (issue 21; docs/model.md, "Fingerprint filters"):
 * tables that keep a few bits of each key's hash in slots, beside the Bloom filters, and
 * that can double by spending one of those bits. They are modelled at the level that
 * decides false positives: which stored fingerprints a query is compared with, and on
 * how many hash bits.
 *
 * A key is 128 ideal hash bits h (fresh uniform bits, as every bloomsim key). The quotient
 * family stores, for each key, the low T bits of h: its slot (the low Q bits, 2^Q slots
 * now) and a fingerprint of the next T - Q bits. An expansion doubles the table by moving
 * each fingerprint's lowest bit into its slot number (Q + 1), so an entry's T never
 * changes; an entry left with no fingerprint bit ("void") still keeps its T bits where
 * the filter puts it. A query x is a false positive exactly when x agrees with some stored
 * key on that key's T low bits: runs, shifting and the metadata bits place entries, they
 * do not change which keys a query matches. So given the stored keys' T_i, with their
 * hash bits independent of the query, the rate is exactly 1 - prod(1 - 2^-T_i) (fp_exact),
 * and a built filter's own rate is the measure of the union of the sets {x : x = h_i mod
 * 2^T_i} (fp_conditional). The insertion schedule (which key is inserted at which Q, with
 * which fingerprint width) depends only on counts, so fp_run computes it once per row.
 *
 * The filters are listed in registry.h, one line each, and each is defined in its own
 * file (fingerprint/NAME.c): its descriptor (name, summary, rules) and its family's ops,
 * the functions below dispatch to. What a family shares with others is in shared files:
 * quotient_family.c (the schedule, space and rates of the quotient-style tables, from
 * their rules) and kept_bits.c (their stored keys as sorted kept bits); cuckoo.c is the
 * cuckoo filter's own. A dispatch costs one indirect call per filter built or asked, none
 * per key: the loops over keys are each family's own.
 *
 * Pure functions of their arguments apart from the caller's generator and work space;
 * thread-safe with one fp_work_t per thread. Nothing prints.
 */
#ifndef BLOOMSIM_FINGERPRINT_H
#define BLOOMSIM_FINGERPRINT_H

#include <stddef.h>
#include <stdint.h>

#include "base/pcg.h"
#include "schemes/scheme.h"

typedef struct fp_ops fp_ops_t;
typedef struct fp_real fp_real_t; /* fingerprint/real.h */

typedef struct fp_filter {
    const char *name;     /* as the experiment key `fingerprint` and the CSV name it */
    const char *summary;  /* one line for `bloomsim list` and `size --help` */
    const fp_ops_t *ops;  /* its family's functions */
    const void *rules;    /* its family's parameters (quotient_family.h: fp_qf_rules_t) */
    int rebuilt;          /* sized for the keys inserted, not for the design's keys */
    const scheme_t *scheme; /* a descriptor holding only its name: the scheme column */
    /* The real library this family transcribes, on real keys (`bloomsim adapter NAME`;
     * real.h), or NULL: a model of a paper's filter. */
    const fp_real_t *real;
    /* FP_EBITS's message for it (NULL: fp_strerror's, which names the papers' filters) */
    const char *bits_refusal;
    /* FP_ERATE's message for it (NULL: fp_strerror's) */
    const char *rate_refusal;
    /* FP_ERESERVE's message for it: the library's words for the parameters its name gives
     * (RedisBloom's cuckoo chain, redisbloom-cuckoo/E/B/I), or NULL */
    const char *reserve_refusal;
} fp_filter_t;

/* The load that triggers an expansion when none is given: the reference's
 * fullness_threshold (QuotientFilter.java). */
#define FP_THRESHOLD_DEFAULT 0.8
/* The most bits a fingerprint may have (the experiment key fingerprint_bits). */
#define FP_MAX_BITS 64
/* Hash bits of a key; slots of a table (as a power of two). */
#define FP_HASH_BITS 128
#define FP_MAX_Q 40
#define FP_MAX_GENS (FP_MAX_Q + 1)

/* A design: the first table and the first fingerprint. */
typedef struct fp_design {
    unsigned q;       /* log2 of the first table's slots (cuckoo: of its buckets) */
    unsigned bits;    /* r (quotient); F with its age bit (InfiniFilter, Aleph); f (cuckoo) */
    double threshold; /* quotient family: the load, in (0, 1], that triggers an expansion */
    uint64_t size;    /* a table whose size is no power of two: its buckets (bloom-filters'
                       * cuckoo) or slots (its xor filter); 0 otherwise */
    double bpk;       /* RocksDB's Ribbon filter: its bits per key setting; 0 otherwise */
    /* A filter that takes CF.RESERVE's parameters (RedisBloom's cuckoo chain; size is then
     * its capacity): slots a bucket, kicks before a filter is added, EXPANSION as given. */
    unsigned bucket, kicks, expansion;
} fp_design_t;

enum {
    FP_OK = 0,
    FP_EBITS,  /* fingerprint bits outside what the filter takes */
    FP_ERATE,  /* no fingerprint the filter takes meets the rate at these keys */
    FP_EBIG,   /* more than 2^40 slots, or more than 128 hash bits, would be needed */
    FP_ERESERVE /* a capacity, bucket size, kicks or expansion the library refuses */
};
const char *fp_strerror(int status);
/* The same for filter f: its own words for the bits it takes (bits_refusal), where it
 * has them. */
const char *fp_refusal(const fp_filter_t *f, int status);

/* The design of filter f for n >= 1 keys at rate 0 < p < 1: the first table its family
 * takes for n keys (quotient family: the smallest q with floor(threshold 2^q) > n, n keys
 * in without an expansion; cuckoo: the buckets efficient/cuckoofilter's constructor
 * takes) and the fewest fingerprint bits whose exact rate at n keys is at most p. bits >
 * 0 gives the fingerprint instead of p (quotient 1 to 64 bits; with an age bit 2 to 64;
 * cuckoo 1 to 32). Returns FP_OK, FP_EBITS, FP_ERATE or FP_EBIG; writes nothing on error. */
int fp_design(const fp_filter_t *f, uint64_t n, double p, double threshold, unsigned bits,
              fp_design_t *d);

/* Whether f is a chain of filters created as CF.RESERVE creates one (RedisBloom's cuckoo
 * chain: its capacity the design's keys, its bucket size, kicks and expansion in its name,
 * redisbloom_cuckoo.c). */
int fp_takes_reserve(const fp_filter_t *f);

/* A filter after n keys were offered: its schedule and its space. For the quotient family
 * everything here is determined by the design and n; a cuckoo filter's refusals depend on
 * its keys and are measured (fp_work_refused). */
typedef struct fp_state {
    const fp_filter_t *filter;
    fp_design_t d;
    uint64_t keys;            /* offered */
    uint64_t stored, refused; /* quotient family (a cuckoo filter: keys, 0) */
    unsigned expansions, q;   /* now: expansions done, log2 slots (cuckoo: buckets) */
    unsigned width;           /* now: the fingerprint field of a slot (cuckoo: f) */
    size_t ngens;             /* generations: the keys inserted between two expansions */
    uint64_t gen_n[FP_MAX_GENS];
    unsigned gen_t[FP_MAX_GENS]; /* hash bits T each key of the generation keeps */
    uint64_t main_entries;    /* physical entries of the main table (Aleph's copies too) */
    uint64_t voids;           /* entries with no fingerprint bit left, each once */
    uint64_t secondary;       /* entries of the secondary table (InfiniFilter, Aleph) */
    unsigned secondary_q, secondary_width;
    uint64_t slots;           /* logical slots of the main table (cuckoo: 4 a bucket) */
    uint64_t bits;            /* every bit: slots with their metadata, extension slots,
                               * the secondary table; a cuckoo filter's bucket bytes */
    double ref_exact;         /* RedisBloom's cuckoo chain: the mean exact rate of its
                               * reference chains (redisbloom_cuckoo.c); 0 otherwise */
} fp_state_t;

/* The state of f designed as d after n keys: its family's schedule of inserts and
 * expansions, then its space. Returns FP_OK or FP_EBIG. */
int fp_run(const fp_filter_t *f, const fp_design_t *d, uint64_t n, fp_state_t *s);

/* RedisBloom's cuckoo chain (redisbloom_cuckoo.c): CF.ADD's capacity for a missing key
 * (CFDefaultInitCapacity, rebloom.c:38); the filter of a name redisbloom-cuckoo/E[/B[/I]]
 * (EXPANSION E, BUCKETSIZE B, MAXITERATIONS I, each a whole number; the others the
 * defaults), made once and kept, or NULL for another name (a value RedisBloom refuses
 * gives a filter whose design is refused in its words); its promise, 2 b / 255 a filter summed
 * over the filters of s; its hash of a key's bytes (MurmurHash64A_Bloom, seed 0); and a
 * hash's fingerprint and two buckets in a filter of `buckets` buckets. */
#define FP_REDISBLOOM_CF_CAPACITY 1024
const fp_filter_t *fp_redisbloom_cuckoo_variant(const char *name);
/* RedisBloom's words for CF.RESERVE's parameters it refuses (-1: the default), and in
 * *which the one it names (0 capacity, 1 bucket size, 2 max iterations, 3 expansion);
 * NULL where it takes them. */
const char *fp_redisbloom_cuckoo_refused(uint64_t capacity, int64_t bucket, int64_t kicks,
                                         int64_t expansion, int *which);
double fp_redisbloom_cuckoo_promise(const fp_state_t *s);
uint64_t fp_redisbloom_cuckoo_hash(const void *data, size_t len);
void fp_redisbloom_cuckoo_where(uint64_t hash, uint64_t buckets, uint8_t *fp, uint64_t *i1,
                                uint64_t *i2);

/* Hash bits in the fingerprint of a key inserted now (quotient: r - E; with an age bit:
 * the field less one; cuckoo: f). */
unsigned fp_new_bits(const fp_state_t *s);

/* The exact rate under ideal hashing, each family's (docs/model.md, "Exact rates"):
 * quotient family 1 - prod_i (1 - 2^-T_i) over the stored keys; cuckoo, with every key
 * stored, 1 - sum_t P(t) (1 - P(t) s_t / z)^n over the tags t. */
double fp_exact(const fp_state_t *s);
/* Places a lookup of an absent key consults on average: 1 table (InfiniFilter: its
 * secondary too, once it has one, when the main table says no), 2 buckets (cuckoo). */
double fp_places(const fp_state_t *s);
/* The between-filter variance of a built filter's own rate: the keys that coincide on
 * their kept bits, counted as rare independent events. */
double fp_between_var(const fp_state_t *s);

/* One stored key as the reference code lays it out, for hand-worked tables: where it
 * is (0 the main table, 1 the secondary table, 2 void copies in the main table), its
 * slot (for copies: the first, the others every 2^T slots), the fingerprint field of its
 * slot (quotient: the remainder; with an age bit: W - 1 - b ones, a zero, then the b
 * hash bits, W the field now), and b, its hash bits beyond the slot. g is its
 * generation, h its hash. Returns 0, or -1 for a family with no such layout (cuckoo), a
 * generation it does not have or a field past 64 bits. */
typedef struct fp_entry {
    int where;
    uint64_t slot, copies, field;
    unsigned bits;
} fp_entry_t;
int fp_entry_of(const fp_state_t *s, size_t g, pcg_u128 h, fp_entry_t *e);

/* The design's table as `bloomsim size --filter` shows it, after its first line: lines
 * of text written into buf[0..len) as snprintf writes (always terminated when len > 0).
 * Returns the length the whole text needs. */
size_t fp_describe(const fp_state_t *s, char *buf, size_t len);
/* Whether the filter grows at a load threshold (the size command shows it). */
int fp_takes_threshold(const fp_filter_t *f);

/* ---- one built filter ---- */

typedef struct fp_work fp_work_t;
/* Work space for filters of state s: 0, or -1 when memory is short (*w is then NULL or
 * partly allocated; fp_work_free frees it either way). */
int fp_work_alloc(fp_work_t **w, const fp_state_t *s);
void fp_work_free(fp_work_t *w);
/* Its bytes, for the memory check. */
double fp_work_bytes(const fp_state_t *s);
/* Build a filter of state s from keys drawn from r. poll (scheme.h; NULL: none) is
 * asked between chunks of its keys and of its sort, never per key, and draws nothing:
 * an unstopped build is the same with or without it. Returns 0, or 1 when poll said to
 * stop (the filter is then unfinished: the caller drops it). */
int fp_build(fp_work_t *w, const fp_state_t *s, pcg32_t *r, const scheme_poll_t *poll);
/* Keys the filter built last refused. */
uint64_t fp_work_refused(const fp_work_t *w);
/* False positives among L fresh absent keys drawn from r; poll as fp_build's (a stopped
 * count is meaningless). */
uint64_t fp_lookups(const fp_work_t *w, const fp_state_t *s, pcg32_t *r, uint64_t L,
                    const scheme_poll_t *poll);
/* The built filter's exact rate over all queries: the measure of the hash values (the
 * query's (bucket, tag) pairs, for cuckoo) that match a stored key; poll as fp_build's
 * (a stopped rate is meaningless). NAN for a family without one (fp_has_conditional). */
double fp_conditional(fp_work_t *w, const fp_state_t *s, const scheme_poll_t *poll);
int fp_has_conditional(const fp_filter_t *f);

/* ---- a family's ops (what fingerprint/NAME.c defines) ---- */

/* The functions of a family, each with the contract of the generic function above of the
 * same name; all are required but entry_of (NULL: no hand-worked layout) and conditional
 * (NULL: no exact rate of a built filter; the planner takes lookups). run fills the
 * schedule of s (whose filter, d and keys are set, the rest zero) and space its slots and
 * bits; a table is what one built filter keeps, build stores the keys it refused in
 * *refused (with retries set: the builds it retried with another seed, every key stored
 * in the end) and returns 0, or 1 when stopped. The generic functions call these once per
 * filter built, asked or designed, never per key. */
struct fp_ops {
    int takes_threshold;
    int retries;  /* its refusals are builds retried with another seed (xor filters) */
    int (*design)(const fp_filter_t *f, uint64_t n, double p, double threshold,
                  unsigned bits, fp_design_t *d);
    int reserve;  /* a chain created as CF.RESERVE creates one (fp_takes_reserve) */
    int (*run)(fp_state_t *s);
    /* Bytes that running the design with n keys may take at most, before any of it is
     * built (a chain whose growth depends on the keys), or NULL: run's needs are small. */
    double (*run_bytes)(const fp_design_t *d, uint64_t n);
    void (*space)(fp_state_t *s);
    unsigned (*new_bits)(const fp_state_t *s);
    double (*exact)(const fp_state_t *s);
    double (*places)(const fp_state_t *s);
    double (*between_var)(const fp_state_t *s);
    int (*entry_of)(const fp_state_t *s, size_t g, pcg_u128 h, fp_entry_t *e);
    size_t (*describe)(const fp_state_t *s, char *buf, size_t len);
    double (*table_bytes)(const fp_state_t *s);
    int (*table_alloc)(void **t, const fp_state_t *s);
    void (*table_free)(void *t);
    int (*build)(void *t, const fp_state_t *s, pcg32_t *r, const scheme_poll_t *poll,
                 uint64_t *refused);
    uint64_t (*lookups)(const void *t, const fp_state_t *s, pcg32_t *r, uint64_t L,
                        const scheme_poll_t *poll);
    double (*conditional)(void *t, const fp_state_t *s, const scheme_poll_t *poll);
};

/* Helpers for the families. */
/* Appends printf-style text at buf + at (within len, always terminated when len > 0);
 * returns at plus the text's length, as snprintf counts it. */
size_t fp_text(char *buf, size_t len, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* 1 - (1 - x)^n without cancellation. */
double fp_one_minus_pow(double x, double n);
/* The low t bits of a 128-bit hash, t <= 128. */
static inline pcg_u128 fp_low_bits(pcg_u128 h, unsigned t)
{
    return t >= FP_HASH_BITS ? h : h & ((((pcg_u128)1) << t) - 1);
}
/* 128 fresh bits from r: the first 64 are the high ones. */
static inline pcg_u128 fp_draw128(pcg32_t *r)
{
    pcg_u128 hi = pcg32_next64(r);
    return hi << 64 | pcg32_next64(r);
}

#endif
