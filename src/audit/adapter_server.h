/* adapter_server.h - the server's side of the adapter protocol (docs/adapter.md):
 * bloomsim itself behind the protocol for a library of its catalogue, which `bloomsim
 * adapter LIBRARY` (src/cli/adapter.c) runs on its standard input and output. The
 * library's sizing rule designs the filter (sizing.h), its real hash turns each key into
 * the words its scheme consumes (libraries/library_words.h), and its scheme's index
 * arithmetic places them (scheme.h). Speaking the same protocol as the adapters of the
 * libraries' own code (tests/conformance/), it is what they are checked against: for the
 * same commands, the same answers and the same bits, byte for byte (tests/adapters.sh).
 * The other side, the driver that speaks to any adapter, is adapter_client.h.
 *
 * As the library adapters do, the libraries that take bits per key (LevelDB, RocksDB:
 * their rules' bpk_from_rate) take `design-bpk` and refuse `design`, keep the keys
 * inserted, and build their filter from all of them at the first `query` or `bits`
 * after an insert, sized for the keys it got; the others take `design` and refuse
 * `design-bpk`. Keys: u64 (the library's own serialisation of an integer, as
 * library_words says), str (the bytes; UTF-8 only for a library that takes text) and hex
 * (the bytes, for a library that takes bytes; library_words' kinds). One answer line a
 * command, flushed; an error other than a refused design ends the session.
 */
#ifndef BLOOMSIM_ADAPTER_SERVER_H
#define BLOOMSIM_ADAPTER_SERVER_H

#include <stdio.h>

#include "fingerprint/fingerprint.h"
#include "libraries/chain.h"
#include "libraries/library.h"
#include "libraries/library_words.h"

/* Serve the protocol for lib, whose real hash is lw (the entry of the same library):
 * commands read from in, answers written to out, until `quit` or the end of in.
 * Returns 0 then, or 1 when an error ended the session (its `error` line answered).
 * Not thread-safe: one session, one thread. */
int adapter_serve(const library_t *lib, const library_words_t *lw, FILE *in, FILE *out);

/* The same for a fingerprint filter's library (f->real, fingerprint/real.h): `design`
 * (a rate) or `design-fp` (fingerprint bits), as it takes, answered `design M ?`, M its
 * table's bits; inserts its library reports failed counted and answered by `failures
 * F R` (with the builds retried with another seed); `bits M HEX` in its table's layout.
 * A design the library clamps is said in a line on diag (the adapter's standard error;
 * NULL: not said). */
int adapter_serve_fingerprint(const fp_filter_t *f, FILE *in, FILE *out, FILE *diag);

/* The same for a library's scalable filter (libraries/chain.h; c->words not NULL): its
 * links as adapter_chain.h holds them, designed by `design N P` or `design-chain N P E
 * T`, with `links`, `bits` (every link's, one after another) and `bits J` (link J's)
 * (docs/adapter.md, Chains). */
int adapter_serve_chain(const library_chain_t *c, FILE *in, FILE *out);

#endif
