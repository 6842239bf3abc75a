/* sizing.h - designing a filter from a key count and a target false-positive rate, and
 * the layers of a scalable stack of filters (seed 001, "A stack of filters that does
 * not degrade").
 *
 * A design has three numbers: the bit count the rule computes, the number of bits m the
 * library's filter really indexes (the modulus of its positions; what bloomsim builds
 * and what the rates are computed for), and the number of probes k. Rules
 * (docs/model.md, The model; Guava's BloomFilter.java and LockFreeBitArray):
 *   calculateparams  m = ceil(n b), b = -ln p / (ln 2)^2, k = ceil(b ln 2); seed 002's
 *                    CalculateParams (Bendersky's Go filter), computed as it does: b
 *                    first, in double, and k from b, not from m/n. The filter indexes
 *                    the m bits computed. CalculateParams(1e9, 0.01) = (9,585,058,378, 7).
 *   guava            (src/libraries/guava.c) computed m_c = floor(-n ln p / (ln 2)^2)
 *                    (optimalNumOfBits), k = max(1, round((m_c/n) ln 2))
 *                    (optimalNumOfHashFunctions(n, numBits), called by
 *                    BloomFilter.create with the computed numBits); the filter indexes
 *                    m = 64 ceil(m_c / 64) bits: LockFreeBitArray allocates
 *                    long[ceil(m_c/64)], bitSize() = 64 * words, positions are taken
 *                    mod bitSize(). Computed as Java does (double, truncation,
 *                    Math.round). The k rule is BloomFilter.java's at @769e1e9c; later
 *                    versions (google/guava#7346) take k = max(1, round(-ln p / ln 2)),
 *                    which differs only when truncation moves (m_c/n) ln 2 across a .5.
 *   split-block-formula  for split-block filters (rate_blocked.h): bits per key
 *                    c = -k / ln(1 - p^{1/k}), the c with (1 - e^{-k/c})^k = p: the sizing
 *                    formula of Parquet's BloomFilter.md (before its table replaced it)
 *                    and of OptimalNumOfBits in Parquet C++ (Arrow) and Parquet Java;
 *                    computed m_c = ceil(n c), indexed m = m_c rounded up to whole blocks
 *                    of B bits; k = 8 and B = 256 unless given. The implementations
 *                    truncate n c (one bit less at most) and then round the bytes up to
 *                    a power of two, clamped to their bounds; this rule does neither, so
 *                    that it isolates the formula. The formula ignores the uneven loads
 *                    of the blocks: what the size delivers is rate_split_block_exact,
 *                    1.46 p at p = 1% and 2.08 p at 0.1% (n = 10^6).
 *   split-block-exact  the fewest whole blocks of B = 256 bits (k = 8 words of B/k bits)
 *                    whose rate_split_block_exact at n keys is at most p; m_c = m.
 *   blocked-exact    the fewest whole blocks of B = 512 bits whose rate_blocked_exact at
 *                    n keys is at most p; m_c = m. k, unless given, is the k that
 *                    minimises that exact rate at the size tried, not round((m/n) ln 2):
 *                    the uneven loads make fewer probes pay in a blocked filter (10^6
 *                    keys at 1% need 9,918,464 bits at k = 6, where round((m/n) ln 2)
 *                    = 7 would need 9,929,728), and a user sizing for a target rate
 *                    wants the smallest filter of any k. The smallest k wins a tie. The
 *                    search walks from round((m/n) ln 2), clamped to [1,
 *                    SIZING_BEST_K_MAX], towards the lower rate and stops when the next
 *                    k is no better, which finds the minimum where the rate is unimodal
 *                    in k (a full scan of k = 1..64 in tests/test_sizing.c finds it so
 *                    at the sizes tested).
 *                    k stays at most 64: the best k reaches it only for rates far below
 *                    any use (it is 14 at 1e-5), and a walk from round((m/n) ln 2), which
 *                    grows without bound with the size tried, to the best k costs an
 *                    exact rate per step (a search up to 2^64 bits at k <= 1000 took
 *                    75 s). A k given is used as it is, up to SIZING_MAX_K.
 * The exact rules search the number of blocks z: the rate at fixed k decreases with z
 * (the load of a lookup's block, Binomial(n, 1/z), decreases stochastically and a
 * block's rate increases with its load), and so does its minimum over k. From
 * z0 = the formula's size in blocks, an exponential search (doubling up, or halving
 * down while z0 already meets p) brackets the answer, and bisection finds the smallest
 * z that meets p: one block fewer does not. Each step costs one exact rate (blocked
 * with the best k: three or more); there are about log2(z0) + 2 steps where the exact
 * size is less than twice the formula's (1.04 to 1.39 times at 10^6 keys, 10% to
 * 0.001%). 10^6 keys take under a millisecond for
 * split-block, 0.1 to 0.6 s for blocked (1% to 0.001%).
 * Library rules: the filter a library builds from n keys and rate p, m_c the count its
 * formula computes and m the bits it indexes, each rounded, clamped and refused as the
 * library does; each is defined in its library's file under src/libraries/, which cites
 * the library's file and version. The promise of every library rule is p; what it
 * delivers is the exact rate of the structure it is computed over (sizing_rate_exact):
 * independent probes, 512-bit lines, 256-bit split blocks or slices. Computed counts are
 * at least 1: a rate near 1 still gets one bit (guava: one word, the block rules: one
 * block).
 * Every rule is a descriptor (sizing_rule_t) in the registry (registry.h), one line each.
 * Pure functions; thread-safe; no printing.
 */
#ifndef BLOOMSIM_SIZING_H
#define BLOOMSIM_SIZING_H

#include <stddef.h>
#include <stdint.h>

/* What kind of rule: the plain rules of independent probes (calculateparams, guava), the
 * block rules, whose geometry (block bits, k) may be given, or a library's own. */
typedef enum { SIZING_RULE_PLAIN, SIZING_RULE_BLOCK, SIZING_RULE_LIBRARY } sizing_kind_t;

/* The structure a design's delivered rate is computed over (sizing_rate_exact). */
typedef enum {
    SIZING_OVER_UNIFORM, /* independent uniform probes over m bits: rate_exact */
    SIZING_OVER_BLOCKED, /* k uniform positions in one block of block_bits: rate_blocked_exact */
    SIZING_OVER_SPLIT,   /* blocks of block_bits in k words, one bit in each:
                          * rate_split_block_exact */
    SIZING_OVER_SLICES   /* k slices of m/k bits, one bit in each: rate_partitioned_exact */
} sizing_structure_t;

/* What a plain or library rule's design function computes: the bits its formula gives,
 * the bits its filter indexes, and k as the rule computes it (a double, so that a k too
 * large for any use is refused, SIZING_EPROBES, before it is converted; under 1 it
 * becomes 1). */
typedef struct sizing_out {
    uint64_t m_computed, m;
    double k;
} sizing_out_t;

/* A sizing rule. Fields left out are 0 or NULL. */
typedef struct sizing_rule {
    const char *name;    /* as --rule, `sizing =` and the CSV's sizing column take it */
    const char *summary; /* one line for `bloomsim size --help` */
    sizing_kind_t kind;
    sizing_structure_t over;
    uint64_t block_bits; /* SIZING_OVER_BLOCKED and _SPLIT: the block (a block rule's
                          * default; a library's fixed block) */
    /* Plain and library rules: the design of n >= 1 keys at 0 < p < 1 (both checked by
     * the caller), with bpk NaN; or, for rules that take bits per key, at bits_per_key
     * bpk (p is then 0.5 and unused). Returns SIZING_OK with *out filled, or an error.
     * NULL for the block rules (sizing.c designs them). */
    int (*design)(uint64_t n, double p, double bpk, sizing_out_t *out);
    /* Rules of libraries that take bits per key, not a rate (LevelDB, RocksDB): how a
     * rate p becomes their bits per key, for `bloomsim size`; NULL for the others. */
    const char *bpk_from_rate;
    /* Library rules: what the library does where the rule returns status (the exception
     * it throws, the limit it names), or NULL to use sizing_strerror's words; NULL for
     * the others. */
    const char *(*refusal)(int status);
} sizing_rule_t;

/* What sizing_rate_exact computes the rule's delivered rate over, in words ("independent
 * probes over m bits", "split-block, 256-bit blocks of 8 words", ...). */
const char *sizing_structure_label(const sizing_rule_t *rule);

/* Default geometry of the block rules: split-block as Parquet, Arrow, Impala and Kudu
 * build it (256-bit blocks of eight 32-bit words), blocked at one 64-byte cache line
 * (bloomsim's blocked scheme's default block_bits). */
#define SIZING_SPLIT_BLOCK_BITS 256
#define SIZING_SPLIT_BLOCK_K 8
#define SIZING_BLOCKED_BITS 512
/* blocked-exact chooses its k from 1 to this (sizing.h's rule table says why). */
#define SIZING_BEST_K_MAX 64

enum {
    SIZING_OK = 0,
    SIZING_EDOM,     /* n == 0, or p not in (0, 1) */
    SIZING_ETOOBIG,  /* m would not fit in 64 bits */
    SIZING_ELAYERS,  /* stack: growth < 1, tightening not in (0, 1), or too many layers */
    SIZING_EPROBES,  /* k would be more than SIZING_MAX_K */
    SIZING_EBLOCK,   /* block size or k given where the rule takes none, or unfit for it */
    SIZING_ERATE,    /* an exact block rule could not compute the rate at a size tried */
    SIZING_ECAP,     /* library rules: the library refuses a filter this large */
    SIZING_EKEYS,    /* library rules: the library refuses this key count */
    SIZING_EZERO,    /* library rules: the library refuses a computed size of 0 bits */
    SIZING_ENOFILTER, /* library rules: the library builds no filter at this rate */
    SIZING_EKFIELD,  /* library rules: k does not fit the library's field for it */
    SIZING_ELIBRATE, /* library rules: the library refuses a target rate this low */
    SIZING_EBPK,     /* bits per key given to a rule that takes none, or unfit for it */
};

/* The most probes a design may have: bloomsim's limit on k everywhere (experiments,
 * exact, probes). Both rules pass it only for p below about 2^-1000 = 9.3e-302. */
#define SIZING_MAX_K 1000

/* The design of n keys at target rate p under a rule: *m_computed the bits the rule
 * computes, *m the bits the library's filter indexes (>= *m_computed, equal for
 * calculateparams and the exact rules; less only where the library's int arithmetic
 * wraps its count, hive-bloomk), *k the probes; the block rules in their
 * default geometry. Returns SIZING_OK, SIZING_EDOM, SIZING_ETOOBIG or SIZING_EPROBES
 * (checked in that order; the exact rules also SIZING_ERATE) and writes nothing on
 * error. */
int sizing_design_full(const sizing_rule_t *rule, uint64_t n, double p, uint64_t *m_computed,
                       uint64_t *m, unsigned *k);
/* The design of n keys at bits_per_key, for the rules that take bits per key
 * (bpk_from_rate set: leveldb, a whole number >= 0; rocksdb-fastlocal, rocksdb-fastlocal-
 * 9.2 and rocksdb-legacy, any double, under 0.5 no filter): what sizing_design_full gives
 * when the rate converts to these bits per key. Returns SIZING_OK, SIZING_EBPK (another rule, NaN, or
 * leveldb's not whole), SIZING_EDOM (n == 0), SIZING_ETOOBIG or SIZING_ENOFILTER;
 * writes nothing on error. */
int sizing_design_bpk(const sizing_rule_t *rule, uint64_t n, double bits_per_key,
                      uint64_t *m_computed, uint64_t *m, unsigned *k);
/* sizing_design_full without the computed count: the m the filter indexes, and k. */
int sizing_design(const sizing_rule_t *rule, uint64_t n, double p, uint64_t *m, unsigned *k);
/* sizing_design_full with the block rules' geometry given: block bits B and probes k,
 * 0 for the rule's default (B: SIZING_SPLIT_BLOCK_BITS or SIZING_BLOCKED_BITS; k:
 * SIZING_SPLIT_BLOCK_K for split-block, the best k for blocked-exact). Split-block
 * needs k <= B, B a multiple of k; blocked needs B <= RATE_DP_M_MAX (2^18, the domain
 * of rate_blocked_exact); k at most SIZING_MAX_K. calculateparams and guava take
 * neither (both 0). Writes *k_out, the k given or chosen. Returns SIZING_OK,
 * SIZING_EDOM, SIZING_EBLOCK, SIZING_ETOOBIG (m past 2^64 - 1; for the exact rules,
 * when even the most blocks that fit do not meet p), SIZING_EPROBES or SIZING_ERATE,
 * and writes nothing on error. */
int sizing_design_blocked(const sizing_rule_t *rule, uint64_t n, double p, uint64_t block,
                          unsigned k, uint64_t *m_computed, uint64_t *m, unsigned *k_out);
/* The formula size of n keys at rate p with k probes in blocks of B bits: computed
 * m_c = ceil(n c), c = -k / ln(1 - p^{1/k}) (rate_split_block_formula_bpk: the c with
 * (1 - e^{-k/c})^k = p, the textbook rate at fixed k, which ignores the blocks), and
 * m = m_c rounded up to whole blocks. split-block-formula is this at its geometry; for
 * the other block rules it is the size the formula would give at the same B and k.
 * B >= 1, 1 <= k <= SIZING_MAX_K (else SIZING_EBLOCK). Returns SIZING_OK, SIZING_EBLOCK,
 * SIZING_EDOM or SIZING_ETOOBIG; writes nothing on error. */
int sizing_formula_blocks(uint64_t n, double p, uint64_t B, unsigned k, uint64_t *m_computed,
                          uint64_t *m);
/* The exact rate of the filter the rule designs, at m bits, n keys and k probes, over
 * the rule's structure (`over`): rate_exact for independent probes (block 0);
 * rate_blocked_exact or rate_split_block_exact in the library's fixed blocks (block 0,
 * m whole blocks, a split block's k its words), or in blocks of `block` bits (0: the
 * rule's default) for the block rules; rate_partitioned_exact over k slices (m a
 * multiple of k). Writes *out; returns SIZING_OK, SIZING_EBLOCK (geometry as
 * sizing_design_blocked, or m not whole blocks or slices) or SIZING_ERATE. */
int sizing_rate_exact(const sizing_rule_t *rule, uint64_t m, uint64_t n, uint64_t block,
                      unsigned k, double *out);
const char *sizing_strerror(int status);
/* The words for status from the rule that returned it: its library's own refusal where
 * it has one (rule->refusal), else sizing_strerror(status). rule may be NULL. */
const char *sizing_refusal(const sizing_rule_t *rule, int status);

#define SIZING_MAX_LAYERS 64

/* One layer of a stack: layer j has capacity round(c0 s^j), rate eps r^j, sized by the
 * rule (m the bits its filter indexes, as sizing_design); it holds n keys (its capacity,
 * or fewer if it is the newest). */
typedef struct sizing_layer {
    uint64_t capacity, n, m;
    unsigned k;
    double rate;
} sizing_layer_t;

/* The layers a stack (first capacity c0, rate eps, growth s >= 1, tightening
 * 0 < r < 1) has after `keys` insertions: a layer is frozen once it has received its
 * capacity and the next key starts a new one. Writes up to SIZING_MAX_LAYERS layers to
 * out and their number to *nlayers. Returns SIZING_OK or an error. */
int sizing_stack(const sizing_rule_t *rule, uint64_t c0, double eps, double s, double r,
                 uint64_t keys, sizing_layer_t *out, size_t *nlayers);

#endif
