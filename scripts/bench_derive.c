/* bench_derive.c - what deriving k probes from one digest saves on this machine (seed
 * 003's "Cost accounting"; a benchmark, never a test). scripts/bench runs it
 * (`scripts/bench --derive` writes results/derive-cost.tsv).
 *
 * A real filter of m bits and k = 7 probes (a 1% design) over real keys, one thread, in
 * three ways side by side:
 *   independent  k evaluations of a seeded 64-bit hash, position i = the i-th word
 *                reduced to [0, m) by a multiply (Lemire's fastrange: (h * m) >> 64);
 *                a lookup evaluates the next hash only when the previous bit was set;
 *   double       one digest of two 64-bit words h1, h2, both reduced once, then
 *                g_i = h1 + i h2 mod m by one modular addition a probe;
 *   enhanced     the same digest, g_i = h1 + i h2 + (i^3 - i)/6 mod m by two modular
 *                additions a probe (Dillinger and Manolios' incremental form).
 * The hashes: XXH3 (Debian's libxxhash: XXH3_64bits_withSeed against one
 * XXH3_128bits), XXH64 (the same library: k seeded evaluations against two, the two-word
 * way of Kirsch and Mitzenmacher, and of seed 002's filter), MurmurHash3 x64_128
 * (src/hashes/murmur3.c: k seeded evaluations, its first word each, against one digest's
 * two words), BLAKE2b (Debian's libsodium: k evaluations with a salt of i, 8 bytes out,
 * against one 16-byte digest) and, for 8-byte keys only, a multiply-shift hash (the
 * key times an odd 64-bit constant, k constants against two).
 *
 * Operations, each in ns per key: `hash` (the hash work alone), `positions` (hash and
 * the k positions, no memory touched), `insert`, `lookup-absent` (keys never inserted;
 * most stop at a clear bit) and `lookup-present` (the keys just inserted: all k bits
 * tested), the last three on an 8 KiB filter (2^16 bits, in L1) and a 1 GiB one (2^33
 * bits, transparent huge pages offered). The filters' bits are set at random with
 * probability 1/2 before the lookups of absent keys: the fill of a filter at its
 * design load, which at 1 GiB would take 8.6e8 inserted keys. Keys are windows of a
 * random buffer (key j starts at byte j), so a long key is hashed from cache: the
 * figures are the hashes' and the filter's, not the keys' memory traffic.
 *
 * Each figure is the median of REPS timings on the thread's CPU clock (a shared machine's
 * other processes do not count), the three ways interleaved within each repetition.
 * The number of keys per timing is set once per hash and key length so that k
 * independent positions take about SECONDS. Output: a TSV on stdout, a row an operation:
 * filter (8KiB, 1GiB; "-" for hash and positions, which touch none), hash, key_bytes, op,
 * keys (a timing's), ns_independent, ns_double, ns_enhanced (the medians), their ratios,
 * digest_evals (evaluations the digest's two words take), bits_* (bits tested a key: 7
 * for inserts; for the independent way's lookups also its hash evaluations) and
 * positive_* (share of lookups answered present: about 2^-7 for absent keys, 1 for
 * present ones).
 *
 * Usage: bench-derive [SECONDS [REPS]]   (defaults 0.05 and 5)
 * Built by meson where libsodium is found, never installed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>
#include <xxhash.h>

#include "base/bits.h"
#include "base/pcg.h"
#include "hashes/hashes.h"
#include "bench.h"

#define HOT static inline __attribute__((always_inline))

enum { K = 7, MAX_KEYS = 1 << 19, MIN_KEYS = 1 << 10, MAX_LEN = 4096 };
enum { INDEPENDENT, DOUBLE, ENHANCED, NMODES };
enum { OP_HASH, OP_POSITIONS, OP_INSERT, OP_ABSENT, OP_PRESENT, NOPS };
static const char *const OP_NAMES[NOPS] = {"hash", "positions", "insert", "lookup-absent",
                                           "lookup-present"};
static const size_t LENGTHS[] = {8, 16, 64, 256, 1024, 4096};
#define NLENGTHS (sizeof LENGTHS / sizeof LENGTHS[0])

typedef uint64_t (*one_fn)(const uint8_t *key, size_t len, uint64_t seed);
typedef void (*two_fn)(const uint8_t *key, size_t len, uint64_t h[2]);

/* One timing's work: n keys of len bytes from pool (key j at pool + j). */
typedef struct {
    int mode, op;
    bits_t *b;
    const uint8_t *pool;
    size_t len;
    uint64_t n;
    uint64_t tested; /* out: bits tested (lookups) */
    uint64_t yes;    /* out: lookups answered present */
} job_t;

static volatile uint64_t sink; /* keeps the hash work from being optimised away */

/* ---- the hashes: one seeded 64-bit evaluation, and the digest's two words ---- */

static uint64_t xxh3_one(const uint8_t *key, size_t len, uint64_t seed)
{
    return XXH3_64bits_withSeed(key, len, seed);
}
static void xxh3_two(const uint8_t *key, size_t len, uint64_t h[2])
{
    XXH128_hash_t d = XXH3_128bits(key, len);
    h[0] = d.low64, h[1] = d.high64;
}
static uint64_t xxh64_one(const uint8_t *key, size_t len, uint64_t seed)
{
    return XXH64(key, len, seed);
}
static void xxh64_two(const uint8_t *key, size_t len, uint64_t h[2])
{
    h[0] = XXH64(key, len, 0), h[1] = XXH64(key, len, 1);
}
static uint64_t murmur3_one(const uint8_t *key, size_t len, uint64_t seed)
{
    uint64_t out[2];
    hash_murmur3_x64_128(key, len, seed, out);
    return out[0];
}
static void murmur3_two(const uint8_t *key, size_t len, uint64_t h[2])
{
    hash_murmur3_x64_128(key, len, 0, h);
}
/* BLAKE2b unkeyed, its 16-byte salt holding the evaluation's number: k independent
 * functions at the cost of one compression each (a key would add a block). */
static uint64_t blake2b_one(const uint8_t *key, size_t len, uint64_t seed)
{
    uint8_t salt[crypto_generichash_blake2b_SALTBYTES] = {0}, out[8];
    memcpy(salt, &seed, sizeof seed);
    crypto_generichash_blake2b_salt_personal(out, sizeof out, key, len, NULL, 0, salt, NULL);
    uint64_t h;
    memcpy(&h, out, sizeof h);
    return h;
}
static void blake2b_two(const uint8_t *key, size_t len, uint64_t h[2])
{
    uint8_t out[16];
    crypto_generichash_blake2b(out, sizeof out, key, len, NULL, 0);
    memcpy(h, out, sizeof out);
}
/* Multiply-shift over one 8-byte word: the key times an odd constant; fastrange keeps
 * the product's high bits, the ones multiply-shift makes uniform. The constants are
 * splitmix64's outputs for seeds 1 to K+1, made odd. */
static const uint64_t MULS[K + 1] = {
    0x910a2dec89025cc1u, 0xbeeb8da1658eec67u, 0xf893a2eefb32555fu, 0x71c18690ee42c90bu,
    0x71bb54d8d101b5b9u, 0xc34d0bff90150281u, 0xe099ec6cd7363ca5u, 0x85e7bb0f12278575u};
static uint64_t mulshift_one(const uint8_t *key, size_t len, uint64_t seed)
{
    uint64_t x;
    (void)len;
    memcpy(&x, key, sizeof x);
    return x * MULS[seed];
}
static void mulshift_two(const uint8_t *key, size_t len, uint64_t h[2])
{
    uint64_t x;
    (void)len;
    memcpy(&x, key, sizeof x);
    h[0] = x * MULS[0], h[1] = x * MULS[1];
}

typedef struct {
    const char *name, *what;
    uint64_t (*run)(job_t *j);
    unsigned digest_evals; /* evaluations the digest's two words take */
    size_t only_len;       /* 0, or the one key length the hash takes */
} hash_t;

/* ---- the filter's loops, specialised per hash, way and operation ---- */

HOT uint64_t reduce(uint64_t h, uint64_t m)
{
    return (uint64_t)(((pcg_u128)h * m) >> 64);
}
HOT uint64_t add_mod(uint64_t a, uint64_t b, uint64_t m)
{
    uint64_t s = a + b;
    return s >= m ? s - m : s;
}

HOT uint64_t run_keys(one_fn one, two_fn two, const int mode, const int op, job_t *j)
{
    uint64_t m = j->b->m, acc = 0, tested = 0, yes = 0;
    for (uint64_t key = 0; key < j->n; key++) {
        const uint8_t *p8 = j->pool + key;
        uint64_t h[2] = {0, 0}, x = 0, y = 0;
        if (mode != INDEPENDENT) {
            two(p8, j->len, h);
            x = reduce(h[0], m), y = reduce(h[1], m);
        }
        if (op == OP_HASH) {
            for (unsigned i = 0; mode == INDEPENDENT && i < K; i++)
                acc ^= one(p8, j->len, i);
            acc ^= h[0] ^ h[1];
            continue;
        }
        unsigned i = 0;
        for (; i < K; i++) {
            uint64_t p;
            if (mode == INDEPENDENT) {
                p = reduce(one(p8, j->len, i), m);
            } else {
                p = x;
                x = add_mod(x, y, m);
                if (mode == ENHANCED)
                    y = add_mod(y, i + 1, m);
            }
            if (op == OP_POSITIONS)
                acc ^= p;
            else if (op == OP_INSERT)
                bits_set(j->b, p);
            else if (tested++, !bits_test(j->b, p))
                break;
        }
        yes += i == K;
    }
    j->tested = tested, j->yes = yes;
    return acc;
}

#define RUN_CASE(one, two, mode, op)                                                   \
    case (mode) * NOPS + (op):                                                         \
        return run_keys(one, two, mode, op, j)
#define RUN_MODE(one, two, mode)                                                       \
    RUN_CASE(one, two, mode, OP_HASH);                                                 \
    RUN_CASE(one, two, mode, OP_POSITIONS);                                            \
    RUN_CASE(one, two, mode, OP_INSERT);                                               \
    RUN_CASE(one, two, mode, OP_ABSENT);                                               \
    RUN_CASE(one, two, mode, OP_PRESENT)
#define RUNNER(id)                                                                     \
    static uint64_t id##_run(job_t *j)                                                 \
    {                                                                                  \
        switch (j->mode * NOPS + j->op) {                                              \
            RUN_MODE(id##_one, id##_two, INDEPENDENT);                                 \
            RUN_MODE(id##_one, id##_two, DOUBLE);                                      \
            RUN_MODE(id##_one, id##_two, ENHANCED);                                    \
        }                                                                              \
        abort();                                                                       \
    }
RUNNER(xxh3)
RUNNER(xxh64)
RUNNER(murmur3)
RUNNER(blake2b)
RUNNER(mulshift)

static const hash_t HASHES[] = {
    {"xxh3", "XXH3_64bits_withSeed x k; XXH3_128bits (libxxhash)", xxh3_run, 1, 0},
    {"xxh64", "XXH64 x k; XXH64 seeds 0 and 1 (libxxhash)", xxh64_run, 2, 0},
    {"murmur3", "MurmurHash3_x64_128 seeded, first word x k; one digest", murmur3_run, 1, 0},
    {"blake2b", "BLAKE2b-64 salted x k; BLAKE2b-128 (libsodium)", blake2b_run, 1, 0},
    {"mulshift", "key * odd constant x k; two constants", mulshift_run, 2, 8},
};
#define NHASHES (sizeof HASHES / sizeof HASHES[0])

/* ---- timing ---- */

static double time_job(const hash_t *h, job_t *j)
{
    double t0 = bench_cpu_seconds();
    sink += h->run(j);
    return (bench_cpu_seconds() - t0) / (double)j->n * 1e9;
}

/* Keys per timing for this hash and length: a power of two near SECONDS of independent
 * positions, measured on 2^10 keys. */
static uint64_t keys_for(const hash_t *h, bits_t *b, const uint8_t *pool, size_t len,
                         double seconds)
{
    job_t j = {INDEPENDENT, OP_POSITIONS, b, pool, len, MIN_KEYS, 0, 0};
    time_job(h, &j);
    double ns = time_job(h, &j), want = seconds * 1e9 / ns;
    uint64_t n = MIN_KEYS;
    while (n * 2 <= want && n < MAX_KEYS)
        n *= 2;
    return n;
}

typedef struct {
    const hash_t *h;
    size_t len;
    uint64_t n;
    int reps;
    const uint8_t *present, *absent;
} cell_t;

/* One operation on one filter (b; NULL for hash and positions), the three ways
 * interleaved REPS times; prints its row. lookup-present asks for the keys the insert
 * row before it put into the same filter, each way its own positions. */
static void row(const cell_t *c, int op, bits_t *b, const char *filter, bits_t *scratch)
{
    double t[NMODES][16], med[NMODES];
    uint64_t tested[NMODES] = {0}, yes[NMODES] = {0};
    for (int r = 0; r < c->reps; r++)
        for (int mode = 0; mode < NMODES; mode++) {
            job_t j = {mode, op, b ? b : scratch, op == OP_ABSENT ? c->absent : c->present,
                       c->len, c->n, 0, 0};
            t[mode][r] = time_job(c->h, &j);
            tested[mode] += j.tested, yes[mode] += j.yes;
        }
    for (int mode = 0; mode < NMODES; mode++)
        med[mode] = bench_median(t[mode], (size_t)c->reps);
    printf("%s\t%s\t%zu\t%s\t%llu\t%.2f\t%.2f\t%.2f\t%.3f\t%.3f\t%.3f\t%u", filter,
           c->h->name, c->len, OP_NAMES[op], (unsigned long long)c->n, med[0], med[1], med[2],
           med[0] / med[1], med[0] / med[2], med[2] / med[1], c->h->digest_evals);
    double per = (double)c->n * c->reps;
    for (int mode = 0; mode < NMODES; mode++) /* bits tested a key; K for inserts */
        if (op < OP_INSERT)
            printf("\t-");
        else
            printf("\t%.3f", op == OP_INSERT ? K : (double)tested[mode] / per);
    for (int mode = 0; mode < NMODES; mode++) /* share of lookups answered present */
        if (op < OP_ABSENT)
            printf("\t-");
        else
            printf("\t%.5f", (double)yes[mode] / per);
    printf("\n");
    fflush(stdout);
}

static void fill_half(bits_t *b, uint64_t seed)
{
    pcg32_t r;
    pcg32_unit(&r, seed, 39, 7);
    for (uint64_t w = 0; w < b->nwords; w++)
        b->word[w] = pcg32_next64(&r);
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 0.05;
    int reps = argc > 2 ? atoi(argv[2]) : 5;
    if (seconds <= 0 || reps < 1 || reps > 16 || sodium_init() < 0) {
        fprintf(stderr, "usage: bench-derive [SECONDS [REPS (1 to 16)]]\n");
        return 2;
    }
    static uint8_t present[MAX_KEYS + MAX_LEN], absent[MAX_KEYS + MAX_LEN];
    pcg32_t r;
    pcg32_unit(&r, 1, 39, 3);
    for (size_t i = 0; i < sizeof present; i++)
        present[i] = (uint8_t)pcg32_next(&r), absent[i] = (uint8_t)pcg32_next(&r);
    bits_t small, big, scratch;
    if (bits_alloc(&small, UINT64_C(1) << 16) || bits_alloc(&big, UINT64_C(1) << 33) ||
        bits_alloc(&scratch, UINT64_C(1) << 16)) {
        fprintf(stderr, "bench-derive: no memory for a 1 GiB filter\n");
        return 1;
    }
    printf("filter\thash\tkey_bytes\top\tkeys\tns_independent\tns_double\tns_enhanced\t"
           "independent_over_double\tindependent_over_enhanced\tenhanced_over_double\t"
           "digest_evals\tbits_independent\tbits_double\tbits_enhanced\t"
           "positive_independent\tpositive_double\tpositive_enhanced\n");
    for (size_t hi = 0; hi < NHASHES; hi++)
        for (size_t li = 0; li < NLENGTHS; li++) {
            const hash_t *h = &HASHES[hi];
            if (h->only_len && h->only_len != LENGTHS[li])
                continue;
            cell_t c = {h, LENGTHS[li], 0, reps, present, absent};
            c.n = keys_for(h, &scratch, present, c.len, seconds);
            row(&c, OP_HASH, NULL, "-", &scratch);
            row(&c, OP_POSITIONS, NULL, "-", &scratch);
            bits_t *f[2] = {&small, &big};
            const char *names[2] = {"8KiB", "1GiB"};
            for (int fi = 0; fi < 2; fi++) {
                fill_half(f[fi], 1 + hi * NLENGTHS + li);
                row(&c, OP_ABSENT, f[fi], names[fi], &scratch);
                row(&c, OP_INSERT, f[fi], names[fi], &scratch);
                row(&c, OP_PRESENT, f[fi], names[fi], &scratch);
            }
        }
    bits_free(&small), bits_free(&big), bits_free(&scratch);
    return sink == 42; /* never, but the compiler cannot know */
}
