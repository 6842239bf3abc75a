/* chain.h - the scalable filters libraries ship (issue 41): a chain of Bloom filters, its
 * links made by the library's own single-filter arithmetic and sizing, each new link
 * started when the newest is full by the library's own test, and a lookup asking the
 * links until one says yes (docs/model.md, "Chains"). Seed 001's stack (sizing_stack) is
 * the textbook chain; a library's chain is this with its own rules: the first link's
 * sizing, the growth and tightening of the next, when a link is full, and whether a key
 * some link already reports present is added at all (RedisBloom does not: the key is
 * "swallowed", and the links fill more slowly than the keys arrive).
 *
 * A chain row is a stack row (estimate/row.h) whose layers are the links chain_links
 * makes: the simulation builds each link with its keys and asks it with fresh probes,
 * so the rate given the links is 1 - prod(1 - r_j), its exact rate the same product
 * over each link's exact rate, and the estimators those of the stack.
 *
 * Swallowed keys are an expectation, not a draw: while link j fills from a to a + 1 keys,
 * the next key is swallowed with probability s = 1 - (1 - R)(1 - r_j(a)), R the older
 * links' rate and r_j(a) link j's textbook rate at a keys (rate_formula), so it takes
 * 1 / (1 - s) keys on average to add one; chain_links integrates that over each link
 * and gives each link the whole keys it expects to hold.
 *
 * Each library's chain is defined in its own file (redis.c: RedisBloom's SBChain);
 * registry.h lists them. Pure data and pure functions; thread-safe.
 */
#ifndef BLOOMSIM_CHAIN_H
#define BLOOMSIM_CHAIN_H

#include <stddef.h>
#include <stdint.h>

#include "libraries/library_words.h"
#include "rates/sizing.h"
#include "schemes/scheme.h"

/* Links a chain row may hold: more than any library's chain makes before bloomsim's own
 * k limit (SIZING_MAX_K) stops it (RedisBloom at EXPANSION 1: 993 links). */
#define CHAIN_MAX_LINKS 1024

/* How a user creates the chain: first capacity, the promised rate, the growth
 * (EXPANSION; where the library takes none, its own fixed growth, or 0 where it has no
 * one growth) and the tightening (each link's rate over the previous one's, in (0, 1);
 * where the library takes none, its own constant). */
typedef struct chain_params {
    uint64_t capacity;
    double rate;
    double expansion;
    double tightening;
} chain_params_t;

/* Statuses beyond sizing.h's: the library's own refusals of the parameters. */
enum {
    CHAIN_EEXPANSION = 100, /* a growth below 1 */
    CHAIN_EWHOLE,           /* a growth the library takes as a whole number, not whole */
    CHAIN_ENOEXPANSION,     /* an expansion given to a library that takes none */
    CHAIN_ECAPACITY,        /* a first capacity the library refuses (0) */
    CHAIN_ERATE,            /* a rate the library refuses (outside (0, 1)) */
    CHAIN_ELINKS,           /* more than CHAIN_MAX_LINKS links */
    CHAIN_EUNDERFLOW,       /* the next link's rate is 0: the library refuses the link */
    CHAIN_ETIGHTENING,      /* a tightening outside (0, 1) */
    CHAIN_ENOTIGHTENING     /* a tightening other than its own to a library that takes none */
};

typedef struct library_chain {
    const char *name;    /* as `bloomsim audit NAME` and an experiment's stack take it */
    const char *version; /* library, version or commit, files followed */
    const char *summary; /* its rules in a line */
    const scheme_t *scheme; /* each link's index arithmetic */
    /* What a user gets without parameters; defaults.tightening is the library's
     * tightening (the table's column): its constant, or its default where it takes one. */
    chain_params_t defaults;
    int has_expansion;   /* takes an expansion (--expansion) */
    int has_tightening;  /* takes a tightening (--tightening; a stack's NAME/E/T) */
    int swallows;        /* 1: a key any link reports present is not added */
    /* Refuses the expansions the library refuses (chain_check has refused the rest): a
     * CHAIN_E* status, or SIZING_OK; NULL where it takes no expansion. */
    int (*check)(const chain_params_t *p);
    /* Link j, from link j - 1 (NULL for j = 0): writes capacity, rate, m, k. */
    int (*link)(const chain_params_t *p, size_t j, const sizing_layer_t *prev,
                sizing_layer_t *out);
    /* A filter the library reserves for n keys at p->rate: its m, k. */
    int (*reserve)(const chain_params_t *p, uint64_t n, uint64_t *m, unsigned *k);
    /* Words for a status the library itself answers with, or NULL. */
    const char *(*refusal)(int status);
    /* Whether link j (l), holding `added` keys with `set` of its bits set, is full by the
     * library's own test on its real bits (bloomsim adapter's); NULL: full when added
     * reaches l->capacity (the plan's rule for every chain). */
    int (*full)(const chain_params_t *p, size_t j, const sizing_layer_t *l, uint64_t added,
                uint64_t set);
    /* Its real hash of a key (`bloomsim adapter CHAIN`), or NULL: none here. */
    const library_words_t *words;
} library_chain_t;

/* The parameters checked, in this order: a tightening outside (0, 1) (CHAIN_ETIGHTENING),
 * one other than defaults.tightening for a chain without has_tightening
 * (CHAIN_ENOTIGHTENING), a first capacity of 0 (CHAIN_ECAPACITY), a rate outside (0, 1)
 * (CHAIN_ERATE), an expansion other than defaults.expansion for a chain without
 * has_expansion (CHAIN_ENOEXPANSION), then c->check's. A CHAIN_E* status or SIZING_OK. */
int chain_check(const library_chain_t *c, const chain_params_t *p);

/* The expansions most chains' libraries refuse: a growth below 1, and one that is not a
 * whole number or past max_expansion (the library parses it as an integer of that
 * range): a CHAIN_E* status or SIZING_OK. */
int chain_check_whole(const chain_params_t *p, double max_expansion);

/* The links after `keys` insertions into a chain made with p: up to CHAIN_MAX_LINKS to
 * out, their number to *nlinks, the keys swallowed (expected) to *swallowed. A link is
 * full at its capacity of keys added; the next key that is added starts a new one.
 * Returns SIZING_OK or a status for chain_strerror (nothing useful written then). */
int chain_links(const library_chain_t *c, const chain_params_t *p, uint64_t keys,
                sizing_layer_t *out, size_t *nlinks, double *swallowed);

/* How a chain was created, as its library takes it: "capacity C, rate P[, expansion E][,
 * tightening T]", each to the digits that tell it apart (0.8515625 whole), the expansion
 * and tightening only where the library takes them. A static buffer of this thread's. */
const char *chain_describe(const library_chain_t *c, const chain_params_t *p);

/* The words for a status of chain_links or c->check: the library's own where it has
 * them, else sizing_strerror's or this file's. */
const char *chain_strerror(const library_chain_t *c, int status);

/* The bit probes a lookup of an absent key makes, on average, asking the links newest
 * first, each until its first unset bit, and stopping at the first link that says yes
 * (textbook fills: a link of m bits and n keys has each bit set with probability
 * q = 1 - e^{-kn/m}, so it probes (1 - q^k) / (1 - q) bits and says no, passing the key
 * on, with probability 1 - q^k); *links gets the links asked on average. */
double chain_probes(const sizing_layer_t *links, size_t nlinks, double *links_asked);

#endif
