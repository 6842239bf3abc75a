/* bench_hashes.c - how fast real keys become a library's hash words on this machine
 * (docs/model.md, "Key sets and real hashes"): for each key set, keys per second generated
 * alone, then for
 * each library keys per second turned into its words (key_next + the library's words)
 * and into its k positions, beside the ideal words the simulation draws today (the
 * format's PCG draw, schemes/words.h) and their positions. Each figure is the median of
 * 5 runs of N keys on one thread, timed by the thread's CPU clock.
 *
 * Usage: bench-hashes [N] [LIBRARY...]   (N defaults to 2000000; all libraries covered)
 * Built by meson beside bloomsim, never installed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libraries/library_words.h"
#include "keys/keys.h"
#include "libraries/library.h"
#include "libraries/registry.h"
#include "schemes/words.h"
#include "bench.h"

enum { RUNS = 5 };
static const char *const SETS[] = {"seq", "seq-str", "random", "uuid"};
#define NSETS (sizeof SETS / sizeof SETS[0])

static volatile uint64_t sink; /* keeps the work from being optimised away */

/* What one run does: 0 keys only, 1 keys + words, 2 keys + positions, 3 ideal words,
 * 4 ideal words + positions. */
typedef struct {
    int what;
    const keyset_t *ks;
    const library_words_t *w;
    const scheme_t *s;
    probe_geom_t g;
    uint64_t n;
} job_t;

/* The format's ideal draw (schemes/words.h), by word count and width. */
static void ideal_draw(const job_t *j, pcg32_t *r, uint64_t *h)
{
    unsigned n = j->s->nwords, b = j->s->word_bits;
    if (b == 32)
        n == 1 ? u32x1_draw(&j->g, r, h) : u32x2_draw(&j->g, r, h);
    else if (b == 64)
        n == 1   ? u64x1_draw(&j->g, r, h)
        : n == 2 ? u64x2_draw(&j->g, r, h)
                 : u64x4_draw(&j->g, r, h);
    else /* words on [0, m): the textbook draw */
        for (unsigned i = 0; i < n; i++)
            h[i] = pcg32_below(r, j->g.m);
}

static double run_once(const job_t *j)
{
    key_stream_t st;
    rkey_t k;
    pcg32_t r;
    uint64_t h[SIZING_MAX_K], pos[SIZING_MAX_K], acc = 0;
    key_stream_init(&st, j->ks, KEY_ROLE_INSERT, 0, 0);
    pcg32_unit(&r, 1, 2, 3);
    double t0 = bench_cpu_seconds();
    for (uint64_t i = 0; i < j->n; i++) {
        if (j->what <= 2 && !key_next(&st, &k))
            abort();
        if (j->what == 0)
            acc += k.kind == KEY_INT ? k.u : k.len;
        else if (j->what == 1)
            j->w->words(&k, &j->g, h), acc += h[0];
        else if (j->what == 2)
            library_words_positions(j->w, j->s, &j->g, &k, pos), acc += pos[0];
        else if (j->what == 3)
            ideal_draw(j, &r, h), acc += h[0];
        else if (j->s->positions)
            ideal_draw(j, &r, h), j->s->positions(&j->g, h, pos), acc += pos[0];
        else { /* drawn schemes: k fresh 32-bit draws */
            for (unsigned p = 0; p < j->g.k; p++)
                h[p] = pcg32_next(&r);
            j->s->positions_drawn(&j->g, NULL, h, pos), acc += pos[0];
        }
    }
    double t = bench_cpu_seconds() - t0;
    sink += acc;
    return (double)j->n / t;
}

/* The median of RUNS runs, in millions per second. */
static double median_rate(const job_t *j)
{
    double r[RUNS];
    for (int i = 0; i < RUNS; i++)
        r[i] = run_once(j);
    return bench_median(r, RUNS) / 1e6;
}

static void bench_library(const library_t *lib, keyset_t *ks, uint64_t n)
{
    job_t j = {.w = lib->words, .s = lib->scheme, .n = n};
    uint64_t m = UINT64_C(1) << 24;
    unsigned k = 7;
    if (j.s->geometry(m, k, 0, &j.g) != SCHEME_OK)
        k = 8, j.s->geometry(m, k, 0, &j.g); /* sbbf and kudu-block fix k = 8 */
    printf("%-22s", lib->name);
    for (int what = 1; what <= 2; what++)
        for (size_t s = 0; s < NSETS; s++) {
            j.what = what, j.ks = &ks[s];
            printf(" %7.1f", median_rate(&j));
        }
    j.what = 3;
    printf(" %7.1f", median_rate(&j));
    j.what = 4;
    printf(" %7.1f   %s\n", median_rate(&j), lib->words->hash);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 2000000;
    keyset_t ks[NSETS];
    char err[200];
    for (size_t s = 0; s < NSETS; s++)
        if (keyset_open(&ks[s], keyset_kind_find(SETS[s]), 1, n, NULL, err, sizeof err) !=
            KEYSET_OK)
            return fprintf(stderr, "bench-hashes: %s\n", err), 2;
    printf("millions per CPU second, median of %d runs of %llu keys, one thread; positions "
           "at m = 2^24, k = 7 (8 for sbbf)\n", RUNS, (unsigned long long)n);
    printf("%-22s", "keys alone");
    for (size_t s = 0; s < NSETS; s++) {
        job_t j = {.what = 0, .ks = &ks[s], .n = n};
        printf(" %7.1f", median_rate(&j));
    }
    printf("\n%-22s %-31s %-31s %7s %7s\n", "library", "words: seq seq-str random uuid",
           "positions: (same key sets)", "ideal", "ideal+p");
    for (size_t i = 0; i < library_count(); i++) {
        const library_t *lib = library_at(i);
        int chosen = lib->words && argc <= 2;
        for (int a = 2; lib->words && a < argc; a++)
            chosen |= strcmp(argv[a], lib->name) == 0;
        if (chosen)
            bench_library(lib, ks, n);
    }
    for (size_t s = 0; s < NSETS; s++)
        keyset_close(&ks[s]);
    return sink == 42; /* never, but the compiler cannot know */
}
