/* library_words.h - for each audited library (bloomsim audit --list), its real hash on
 * a real key: the hash words its scheme consumes, in the order and width the scheme's
 * descriptor expects (scheme.h nwords and word_bits; schemes/words.h's formats), so
 * that the scheme's positions() gives the positions the library itself sets. This is
 * the other side of the seam schemes/words.h describes: the ideal draw of a format
 * replaced by the library's hash of a key (keys.h).
 *
 * How a key becomes the bytes a library hashes is each library's: an integer key is
 * what a user of that language passes (Guava's Funnels.longFunnel writes 8 bytes
 * little-endian, Cassandra's bigint is 8 bytes big-endian, JavaScript and Redis take its
 * decimal string, ...); a byte string is hashed as it is (JavaScript libraries decode it
 * as UTF-8 to their UTF-16 string first). Each entry's key_bytes says which, and
 * docs/model.md (Key sets and real hashes) has the table with sources.
 *
 * Schemes that draw fresh words per probe (hadoop: k chained 32-bit hashes) have no
 * positions(); their entry has drawn = 1 and its function writes the k draws d[0..k)
 * that the scheme's positions_drawn() maps. Libraries whose hash is keyed by a random
 * per-process or per-filter seed, is the user's, or hashes a serialisation this file
 * does not reproduce have no entry: library_words_skipped() says why.
 *
 * Use (the bits a library's filter holds after inserting keys, as the conformance
 * adapters compare them): lib = library_find(NAME), lw = library_words_find(NAME);
 * sizing_design(lib->sizing, n, p, &m, &k) (or sizing_design_bpk); lib->scheme->
 * geometry(m, k, 0, &g); then for each key, library_words_positions(lw, lib->scheme, &g,
 * &key, pos) and set bits pos[0..g.k) of a g.m-bit array (bit i: byte i / 8, bit i % 8,
 * or the library's own word layout). est_keys.c builds its filters so.
 *
 * Pure functions of their arguments; thread-safe. No allocation for keys up to
 * LIBRARY_WORDS_KEY_MAX bytes (Hadoop's Text framing copies a key: longer keys take a
 * heap buffer).
 */
#ifndef BLOOMSIM_HASHES_LIBRARY_WORDS_H
#define BLOOMSIM_HASHES_LIBRARY_WORDS_H

#include <stddef.h>
#include <stdint.h>

#include "keys/keys.h"
#include "schemes/scheme.h"

#define LIBRARY_WORDS_KEY_MAX 1024

typedef struct library_words {
    const char *library;   /* the library's name, as bloomsim audit takes it */
    const char *hash;      /* display name, e.g. "Murmur3_x64_128 (Guava)" */
    const char *key_bytes; /* what it hashes for an integer key and for a byte string */
    unsigned kinds;        /* the keys it takes (keys.h): KEY_INT integers; KEY_TEXT text
                            * (a string key must be UTF-8); KEY_BYTES any bytes. A
                            * KEY_BYTES rkey_t is text or bytes, and hashed the same */
    unsigned nwords;       /* words written: the scheme's nwords (0 when drawn) */
    unsigned word_bits;    /* their width, the scheme's word_bits (32 or 64; 0: reduced
                            * below m, for schemes that draw words on [0, m)) */
    int drawn;             /* 1: writes the k draws for positions_drawn (out[0..k)) */
    /* The words of key into out (nwords of them, or g->k draws); g is the filter's
     * geometry (only schemes with words on [0, m) and drawn ones read it). */
    void (*words)(const rkey_t *key, const probe_geom_t *g, uint64_t *out);
} library_words_t;

/* The entries, in registry order of the libraries they cover. */
size_t library_words_count(void);
const library_words_t *library_words_at(size_t i);
/* The entry of a library, or NULL (not covered, or no such library). */
const library_words_t *library_words_find(const char *library);
/* Why a library has no entry, or NULL when it has one (or is unknown here). */
const char *library_words_skipped(const char *library);

/* The k positions a scheme sets for key: its positions() on the words, or
 * positions_drawn() on the draws (pos has g->k entries). */
void library_words_positions(const library_words_t *lw, const scheme_t *s,
                             const probe_geom_t *g, const rkey_t *key, uint64_t *pos);

#endif
