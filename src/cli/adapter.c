/* adapter.c - `bloomsim adapter LIBRARY`: bloomsim itself behind the adapter protocol
 * (docs/adapter.md) for a library of its catalogue, on standard input and output. This
 * file reads the command's argument; the protocol's server side is
 * src/audit/adapter_server.c.
 */
#include <stdio.h>

#include "audit/adapter_server.h"
#include "cli/cli.h"
#include "fingerprint/real.h"
#include "fingerprint/registry.h"
#include "libraries/library_words.h"
#include "libraries/library.h"
#include "libraries/registry.h"

/* The command's argument: the library and its real hash. */
typedef struct adapter_args {
    const library_t *lib;
    const library_words_t *lw;
    const fp_filter_t *fpf; /* or a fingerprint filter's library */
    const library_chain_t *chain; /* or a library's scalable filter */
} adapter_args_t;

static const char usage[] =
    "usage: bloomsim adapter LIBRARY\n"
    "\n"
    "Speaks the adapter protocol (docs/adapter.md) on standard input and output for\n"
    "LIBRARY of bloomsim audit --list: its sizing rule designs each filter, its real\n"
    "hash turns each key into hash words, its index arithmetic places them. The\n"
    "libraries that take bits per key (leveldb, rocksdb, rocksdb-legacy) take\n"
    "design-bpk; the others design. LIBRARY may also be a fingerprint filter of a real\n"
    "library (seiflotfy-cuckoo, bloom-filters-cuckoo, bloom-filters-xor,\n"
    "rocksdb-ribbon, redisbloom-cuckoo): its table, its hash and its random choices,\n"
    "designed by design (a rate), design-fp (fingerprint bits) or design-bpk\n"
    "(RocksDB's Ribbon filter's bits per key) as the library takes, with failures\n"
    "(redisbloom-cuckoo: design-fp N 8 is CF.RESERVE N with its defaults, its bits\n"
    "every filter of its chain in order). What the adapters of the\n"
    "libraries' own code (tests/conformance/) are checked against, answer for answer\n"
    "and bit for bit. LIBRARY may also be a library's scalable filter with a real hash\n"
    "here (bloom-filters-scalable): design N P or design-chain N P E T, links, bits\n"
    "(every link's) and bits J (docs/adapter.md, Chains).\n";

static int library_arg(void *ctx, const char *arg)
{
    adapter_args_t *s = ctx;
    if (s->lib || s->fpf || s->chain)
        return cli_die(2, "adapter: one library (got '%s' too)", arg);
    const library_chain_t *c = chain_find(arg);
    if (c && !c->words)
        return cli_die(2, "adapter: %s has no real hash here (got '%s')", arg, arg);
    if ((s->chain = c))
        return 0;
    const fp_filter_t *f = fp_filter_find(arg);
    if (f && f->real) {
        s->fpf = f;
        return 0;
    }
    if (!(s->lib = library_find(arg)))
        return cli_die(2, "adapter: unknown library (got '%s'); bloomsim audit --list names "
                          "them, and the fingerprint filters seiflotfy-cuckoo, "
                          "bloom-filters-cuckoo, bloom-filters-xor, rocksdb-ribbon and "
                          "redisbloom-cuckoo", arg);
    if (!(s->lw = s->lib->words))
        return cli_die(2, "adapter: %s has no real hash here: %s (got '%s')", arg,
                       s->lib->words_skipped ? s->lib->words_skipped
                                             : "no entry in library_words", arg);
    return 0;
}

int cli_adapter(int argc, char **argv)
{
    adapter_args_t s = {0};
    cli_spec_t spec = {.command = "adapter", .usage = usage, .unknown = "argument",
                       .positional = library_arg, .ctx = &s};
    int rc = cli_parse(&spec, argc, argv);
    if (rc >= 0)
        return rc;
    if (s.chain)
        return adapter_serve_chain(s.chain, stdin, stdout);
    if (!s.lib && !s.fpf)
        return cli_die(2, "adapter: LIBRARY is required (got none); bloomsim audit --list "
                          "names them");
    if (s.fpf)
        return adapter_serve_fingerprint(s.fpf, stdin, stdout, stderr);
    return adapter_serve(s.lib, s.lw, stdin, stdout);
}
