/* library_words.h - a library's real hash on a real key: the hash words its scheme
 * consumes, in the order and width the scheme's descriptor expects (scheme.h nwords and
 * word_bits; schemes/words.h's formats), so that the scheme's positions() gives the
 * positions the library itself sets. This is the other side of the seam schemes/words.h
 * describes: the ideal draw of a format replaced by the library's hash of a key (keys.h).
 *
 * Each library's file under src/libraries/ defines its library_words_t beside its
 * scheme, citing where the library hashes and which words go where, and its row points
 * at it (library.h: lib->words); a library without one says why (lib->words_skipped:
 * its hash is keyed by a random per-process or per-filter seed, is the user's, or hashes
 * a serialisation bloomsim does not reproduce). What follows here is what several
 * libraries share: how a key becomes bytes, the kinds of keys, and positions from words.
 *
 * How a key becomes the bytes a library hashes is each library's: an integer key is
 * what a user of that language passes (Guava's Funnels.longFunnel writes 8 bytes
 * little-endian, Cassandra's bigint is 8 bytes big-endian, JavaScript and Redis take its
 * decimal string, ...); a byte string is hashed as it is (JavaScript libraries decode it
 * as UTF-8 to their UTF-16 string first). Each descriptor's key_bytes says which, and
 * docs/model.md (Key sets and real hashes) has the table with sources.
 *
 * Schemes that draw fresh words per probe (hadoop: k chained 32-bit hashes) have no
 * positions(); their descriptor has drawn = 1 and its function writes the k draws
 * d[0..k) that the scheme's positions_drawn() maps.
 *
 * Use (the bits a library's filter holds after inserting keys, as the conformance
 * adapters compare them): lib = library_find(NAME), lw = lib->words (NULL: none);
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

/* The kinds most libraries take: integers and any bytes; the JVM libraries also take a
 * String as text (its UTF-8) and a byte[] as bytes, hashed the same. */
#define LIBRARY_KEYS_INT_BYTES (KEY_INT | KEY_BYTES)
#define LIBRARY_KEYS_INT_TEXT_BYTES (KEY_INT | KEY_TEXT | KEY_BYTES)
/* key_bytes of the C and C++ libraries that take a key as a C program stores it. */
#define LIBRARY_KEYS_LE8 "integer: 8 bytes little-endian; string: its bytes"

/* How a library serialises an integer key. */
enum { LIBRARY_INT_LE8, LIBRARY_INT_BE8, LIBRARY_INT_DEC };

/* The bytes a library hashes for key: a byte string as it is; an integer as 8 bytes
 * little-endian, big-endian, or its decimal digits (into buf, at least 24 bytes). */
static inline const uint8_t *library_key_bytes(const rkey_t *key, int form, uint8_t *buf,
                                               size_t *len)
{
    if (key->kind == KEY_BYTES) {
        *len = key->len;
        return key->bytes;
    }
    if (form == LIBRARY_INT_DEC) {
        *len = key_format_u64(key->u, (char *)buf);
        return buf;
    }
    for (int i = 0; i < 8; i++)
        buf[i] = (uint8_t)(key->u >> (form == LIBRARY_INT_LE8 ? 8 * i : 56 - 8 * i));
    *len = 8;
    return buf;
}

/* Declares in and len: the bytes of key as form serialises an integer. */
#define LIBRARY_KEY_INPUT(key, form)                                                      \
    uint8_t buf_[24];                                                                     \
    size_t len;                                                                           \
    const uint8_t *in = library_key_bytes(key, form, buf_, &len)

/* The k positions a scheme sets for key: its positions() on the words, or
 * positions_drawn() on the draws (pos has g->k entries). */
void library_words_positions(const library_words_t *lw, const scheme_t *s,
                             const probe_geom_t *g, const rkey_t *key, uint64_t *pos);

#endif
