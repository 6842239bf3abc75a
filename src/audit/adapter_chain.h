/* adapter_chain.h - a library's scalable filter (libraries/chain.h) as `bloomsim adapter
 * CHAIN` holds it (docs/adapter.md, Chains): its links made by the library's own rules
 * (c->link) as keys arrive, each a bit array indexed by the chain's scheme through its
 * real hash (c->words), a new link started when the newest is full by the library's own
 * test on its real bits (c->full; or its count of keys added reaching its capacity), a
 * key any link reports present not added where the library swallows it (c->swallows).
 * adapter_server.c speaks the protocol around it. Not thread-safe: one session. */
#ifndef BLOOMSIM_ADAPTER_CHAIN_H
#define BLOOMSIM_ADAPTER_CHAIN_H

#include <stdint.h>
#include <stdio.h>

#include "base/bits.h"
#include "libraries/chain.h"

typedef struct adapter_link {
    sizing_layer_t size; /* as c->link made it */
    probe_geom_t g;      /* its scheme's geometry */
    bits_t b;
    uint64_t added, set; /* keys added, bits set */
} adapter_link_t;

typedef struct adapter_chain {
    const library_chain_t *c;
    chain_params_t p;
    adapter_link_t *link; /* nlinks of them, room for cap */
    size_t nlinks, cap;
    uint64_t pos[SIZING_MAX_K];
} adapter_chain_t;

/* A new, empty chain of c made with p (the old one freed): its first link. NULL, or the
 * refusal's words (nothing held then). */
const char *adapter_chain_design(adapter_chain_t *a, const library_chain_t *c,
                                 const chain_params_t *p);

/* Insert key k (into a new link first if the newest is full; nothing where swallowed):
 * 0, or the words of the library's refusal of the next link ("out of memory" too). */
const char *adapter_chain_add(adapter_chain_t *a, const rkey_t *k);

/* Whether some link answers yes for k. */
int adapter_chain_has(adapter_chain_t *a, const rkey_t *k);

/* Write `links L M0 K0 M1 K1 ...`, the links oldest first (M the bits each indexes, K its
 * probes), a line without its newline, to out. */
void adapter_chain_links(const adapter_chain_t *a, FILE *out);

/* Write `bits M HEX` for links j0 .. j1 - 1, their bits one after another (link j's bit i
 * the whole's bit i plus the bits of the links before it; M their sum) in the protocol's
 * layout, without the newline, to out. */
void adapter_chain_bits(const adapter_chain_t *a, size_t j0, size_t j1, FILE *out);

/* Write `bits M HEX` for the n bit arrays b[0..n-1] of m[i] bits each, one after another
 * (M their sum), in the protocol's layout (bit i of the whole at bit i mod 8 of byte
 * i / 8), without the newline, to out: a filter's bits, or a chain's links'. */
void adapter_hex_bits(FILE *out, const bits_t *const *b, const uint64_t *m, size_t n);

void adapter_chain_free(adapter_chain_t *a);

#endif
