/* real.h - a fingerprint filter of a real library on real keys: the library's own hash,
 * table layout, sizing and random choices, transcribed bit for bit from its source, for
 * `bloomsim adapter NAME` (audit/adapter_server.c) to serve on the adapter protocol
 * (docs/adapter.md, "Fingerprint filters"). tests/adapters.sh checks it slot for slot
 * against the library's own code behind the same protocol (tests/conformance/). The
 * family's ops (fingerprint.h) measure the same arithmetic on ideal hash bits; this is
 * the library on keys.
 *
 * A filter is designed for n keys either at a rate (FP_REAL_RATE: the protocol's `design
 * N P`, as bloom-filters' CuckooFilter.create), at a fingerprint width (FP_REAL_BITS:
 * `design-fp N F`, as seiflotfy's NewFilter with its one byte, bloom-filters'
 * XorFilter(n, bits)) or at bits per key (FP_REAL_BPK: `design-bpk N B`, RocksDB's
 * NewRibbonFilterPolicy(B)). A filter that builds at once (an xor filter: at_once) is given all
 * its keys at the first query or bits after an insert, as LevelDB's is. Each filter's
 * `bits` is its table in the layout its file documents: slots in order, each W bits,
 * least significant first, M = slots x W, the protocol's bit i = bit i mod 8 of byte
 * i / 8.
 *
 * What can go wrong is said as the library says it: a design it refuses (open's
 * message); an insert the library reports failed (its add returns false: counted by the
 * caller, never hidden); a call that throws in the library (FP_REAL_THROWS, with its
 * message), which ends the adapter as the library's exception would end its caller; and
 * builds retried with another seed (retries).
 *
 * One filter, one thread; different filters are independent.
 */
#ifndef BLOOMSIM_FINGERPRINT_REAL_H
#define BLOOMSIM_FINGERPRINT_REAL_H

#include <stddef.h>
#include <stdint.h>

#include "fingerprint/fingerprint.h"
#include "keys/keys.h"

enum { FP_REAL_RATE = 0, FP_REAL_BITS = 1, FP_REAL_BPK = 2 };
enum { FP_REAL_STORED = 1, FP_REAL_FAILED = 0, FP_REAL_THROWS = -1 };

struct fp_real {
    const char *version;   /* the library and the version of the code followed */
    const char *hash;      /* its hash, for the hello line */
    const char *key_bytes; /* what it hashes for an integer key and for a string */
    unsigned kinds;        /* the keys it takes (keys.h) */
    int takes;             /* FP_REAL_RATE, FP_REAL_BITS or FP_REAL_BPK (`design-bpk N B`:
                            * RocksDB's Ribbon filter's bits per key) */
    int at_once;           /* builds from all its keys at once */
    /* A new, empty filter for n >= 1 keys at x (0 < x < 1 a rate, x fingerprint bits, or
     * x > 0 bits per key)
     * into *t, the bits of its layout into *m: NULL, or the library's refusal in one line
     * (no filter then; *t NULL). A design the library clamps is built as clamped, M says
     * it, and *clamp says how in a line (else NULL). Out of memory is the refusal "out of
     * memory". */
    const char *(*open)(void **t, uint64_t n, double x, uint64_t *m, const char **clamp);
    /* Insert one key (not at_once): FP_REAL_STORED, FP_REAL_FAILED, or FP_REAL_THROWS with
     * the library's message in *why. */
    int (*insert)(void *t, const rkey_t *k, const char **why);
    /* at_once: build from keys[0..n) (any earlier build discarded): FP_REAL_STORED, or
     * FP_REAL_THROWS with *why. */
    int (*build)(void *t, const rkey_t *keys, uint64_t n, const char **why);
    /* Whether the filter answers "maybe present" for k: 1, 0, or FP_REAL_THROWS. */
    int (*query)(const void *t, const rkey_t *k, const char **why);
    /* The layout's ceil(m / 8) bytes into out. */
    void (*bits)(const void *t, uint8_t *out);
    /* The bits of the filter built last, where its keys size it (a Ribbon filter's length
     * follows its first key's hash), or NULL: the design's M. */
    uint64_t (*built_m)(const void *t);
    /* Builds retried with another seed since open; NULL for a filter that never retries
     * (0). */
    uint64_t (*retries)(const void *t);
    void (*close)(void *t);
};

#endif
