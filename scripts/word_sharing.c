/* word_sharing.c - the structure of a library's real hash on real keys, measured
 * (docs/model.md, "Key sets and real hashes"; results/word-sharing.tsv): for each
 * library with a real hash in bloomsim, each key set and each key count n, how many of
 * the n inserted keys get the same hash words as an earlier inserted key (the filter
 * sees them as one key), and how many of Q queried keys get the words of some inserted
 * key (a false positive whatever the filter's size), each beside what independent
 * uniform words of the same width give.
 *
 * The words are the library's (library_words.h), at the geometry its sizing rule
 * designs for n keys at 1% (words on [0, m) and drawn words depend on m). A key's words
 * are compared whole: exactly when they fit in 64 bits, and otherwise by a 64-bit
 * digest of them (a chance equality of two digests has probability 2^-64 per pair:
 * about 3e-4 expected among 10^8 keys).
 *
 * Independent words: with N equally likely word tuples and n keys, the expected number
 * of keys that repeat an earlier one is n - N(1 - (1 - 1/N)^n), and a query meets one
 * of the D distinct inserted tuples with probability D/N (N = 2^W for W bits of words,
 * m^j for j words on [0, m)).
 *
 * Usage: word-sharing [-n N,N,...] [-q Q] [-s SET,SET,...] [LIBRARY...]
 *   N defaults to 1000000,10000000; Q (queries) to 1000000; the key sets to seq,
 *   seq-str, random, uuid (filter-bench on request: at most N queries; libraries that
 *   hash text only skip it) (seed 1, the first stream: one filter-bench id); the
 *   libraries to every covered one.
 * Prints a tab-separated table. Memory: 16 bytes a key. Built by meson, never installed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libraries/library_words.h"
#include "keys/keys.h"
#include "libraries/library.h"
#include "libraries/registry.h"
#include "base/pcg.h"
#include "rates/sizing.h"
#include "base/sorted.h"
#include "base/values.h"

typedef struct {
    unsigned nwords; /* words a key has (g.k for drawn schemes) */
    double log2_n;   /* log2 of the number of equally likely word tuples */
    int exact;       /* 1: the tuple fits in 64 bits and is packed, not digested */
} width_t;

static width_t word_width(const library_words_t *w, const probe_geom_t *g)
{
    width_t d;
    if (w->drawn) {
        d.nwords = g->k;
        d.log2_n = 32.0 * g->k;
    } else {
        d.nwords = w->nwords;
        d.log2_n = w->word_bits ? (double)w->word_bits * w->nwords
                                : log2((double)g->m) * w->nwords;
    }
    d.exact = w->word_bits && !w->drawn && w->word_bits * w->nwords <= 64;
    return d;
}

/* The key's words as one 64-bit value: packed when they fit, a digest otherwise. */
static uint64_t words_of(const library_words_t *w, const probe_geom_t *g, const width_t *d,
                         const rkey_t *key)
{
    uint64_t h[SIZING_MAX_K > 8 ? SIZING_MAX_K : 8];
    w->words(key, g, h);
    if (d->exact)
        return d->nwords == 1 ? h[0] : h[0] | h[1] << 32;
    uint64_t x = UINT64_C(0x9e3779b97f4a7c15);
    for (unsigned i = 0; i < d->nwords; i++)
        x = pcg_mix64(x ^ h[i]) + i;
    return x;
}

/* Least significant digit first, 16 bits a pass; tmp holds n values. */
static void radix_sort(uint64_t *a, uint64_t *tmp, size_t n)
{
    static size_t count[1 << 16];
    for (int shift = 0; shift < 64; shift += 16) {
        memset(count, 0, sizeof count);
        for (size_t i = 0; i < n; i++)
            count[a[i] >> shift & 0xffff]++;
        size_t sum = 0;
        for (size_t b = 0; b < (1 << 16); b++) {
            size_t c = count[b];
            count[b] = sum, sum += c;
        }
        for (size_t i = 0; i < n; i++)
            tmp[count[a[i] >> shift & 0xffff]++] = a[i];
        uint64_t *t = a;
        a = tmp, tmp = t;
    }
    /* four passes: the sorted values are back in the caller's a */
}

/* Expected repeats among n independent keys, and N itself, from log2 N. */
static double expected_repeats(double n, double log2_n)
{
    if (log2_n > 1000)
        return 0;
    double N = exp2(log2_n);
    return n - N * -expm1(n * log1p(-1 / N));
}

static void measure(const library_t *lib, const keyset_t *ks, uint64_t n, uint64_t q,
                    uint64_t *a, uint64_t *tmp)
{
    const library_words_t *w = lib->words;
    probe_geom_t g;
    uint64_t m;
    unsigned k;
    if (sizing_design(lib->sizing, n, 0.01, &m, &k) != 0 ||
        lib->scheme->geometry(m, k, 0, &g) != SCHEME_OK) {
        printf("%s\t%s\t%s\t%llu\tnot designed at 1%%\n", lib->name, w->hash,
               ks->kind->name, (unsigned long long)n);
        return;
    }
    width_t d = word_width(w, &g);
    key_stream_t s;
    rkey_t key;
    key_stream_init(&s, ks, KEY_ROLE_INSERT, 0, 0);
    size_t got = 0;
    while (got < n && key_next(&s, &key))
        a[got++] = words_of(w, &g, &d, &key);
    radix_sort(a, tmp, got);
    size_t distinct = sorted_unique(a, got);
    uint64_t hits = 0, asked = 0;
    key_stream_init(&s, ks, KEY_ROLE_QUERY, 0, 0);
    while (asked < q && key_next(&s, &key))
        asked++, hits += sorted_contains(a, distinct, words_of(w, &g, &d, &key));
    double rep = expected_repeats((double)got, d.log2_n);
    double hit = (double)asked * ((double)got - rep) / exp2(fmin(d.log2_n, 1000));
    printf("%s\t%s\t%s\t%llu\t%.1f\t%llu\t%.4g\t%llu\t%llu\t%.4g\n", lib->name, w->hash,
           ks->kind->name, (unsigned long long)got, d.log2_n,
           (unsigned long long)(got - distinct), rep, (unsigned long long)asked,
           (unsigned long long)hits, hit);
    fflush(stdout);
}

/* Does the key set stream keys of its own, with no file to read? */
static int streamed(const keyset_kind_t *kind)
{
    return keyset_kind_real(kind) && !kind->param_path;
}

/* Their names, comma-separated. */
static const char *streamed_names(void)
{
    static char names[KEYSET_COUNT * 32];
    size_t used = 0;
    for (size_t i = 0; i < KEYSET_COUNT && used < sizeof names; i++)
        if (streamed(keyset_kind_at(i)))
            used += (size_t)snprintf(names + used, sizeof names - used, "%s%s",
                                     used ? ", " : "", keyset_kind_at(i)->name);
    return names;
}

/* Comma-separated counts (values.h: 1e7 reads as 10000000); 0 on a bad one. */
static size_t split_counts(char *arg, uint64_t *out, size_t most)
{
    size_t c = 0;
    for (char *t = strtok(arg, ","); t && c < most; t = strtok(NULL, ","))
        if (values_count(t, &out[c++]) != VALUES_OK)
            return 0;
    return c;
}

int main(int argc, char **argv)
{
    uint64_t ns[16] = {1000000, 10000000}, q = 1000000;
    size_t nn = 2;
    const keyset_kind_t *sets[KEYSET_COUNT];
    size_t nsets = 0;
    static const char *const dflt[] = {"seq", "seq-str", "random", "uuid"};
    for (; nsets < 4; nsets++)
        sets[nsets] = keyset_kind_find(dflt[nsets]);
    int a = 1;
    for (; a + 1 < argc && argv[a][0] == '-'; a += 2) {
        if (!strcmp(argv[a], "-n") || !strcmp(argv[a], "-q")) {
            int keys = argv[a][1] == 'n';
            char given[256]; /* split_counts cuts the argument at its commas */
            snprintf(given, sizeof given, "%s", argv[a + 1]);
            if (keys ? !(nn = split_counts(argv[a + 1], ns, 16))
                     : values_count(argv[a + 1], &q) != VALUES_OK)
                return fprintf(stderr, "word-sharing: %s takes %s (got '%s')\n", argv[a],
                               keys ? "counts, comma-separated" : "a count", given), 2;
        } else if (!strcmp(argv[a], "-s")) {
            nsets = 0;
            for (char *t = strtok(argv[a + 1], ","); t && nsets < KEYSET_COUNT;
                 t = strtok(NULL, ","))
                if (!streamed(sets[nsets++] = keyset_kind_find(t)))
                    return fprintf(stderr, "word-sharing: key set %s: not one of %s\n", t,
                                   streamed_names()), 2;
        } else
            return fprintf(stderr, "word-sharing: unknown option %s\n", argv[a]), 2;
    }
    uint64_t most = 0;
    for (size_t i = 0; i < nn; i++)
        most = ns[i] > most ? ns[i] : most;
    uint64_t *buf = malloc(most * sizeof *buf), *tmp = malloc(most * sizeof *tmp);
    if (!buf || !tmp)
        return fprintf(stderr, "word-sharing: no memory for %llu keys\n",
                       (unsigned long long)most), 2;
    printf("library\thash\tkey_set\tkeys\tword_bits\tshared\tshared_independent\t"
           "queries\tquery_hits\tquery_hits_independent\n");
    for (size_t i = 0; i < library_count(); i++) {
        const library_t *lib = library_at(i);
        const library_words_t *w = lib->words;
        int chosen = w && a >= argc;
        for (int j = a; w && j < argc; j++)
            chosen |= strcmp(argv[j], lib->name) == 0;
        for (size_t ni = 0; chosen && ni < nn; ni++)
            for (size_t si = 0; si < nsets; si++) {
                keyset_t ks;
                char err[200];
                if (!(w->kinds & sets[si]->kinds))
                    continue; /* byte keys: a library of text refuses them */
                if (keyset_open(&ks, sets[si], 1, ns[ni], NULL, err, sizeof err) != KEYSET_OK ||
                    keyset_check(&ks, q, err, sizeof err) != KEYSET_OK)
                    return fprintf(stderr, "word-sharing: %s\n", err), 2;
                measure(lib, &ks, ns[ni], q, buf, tmp);
                keyset_close(&ks);
            }
    }
    free(buf), free(tmp);
    return 0;
}
