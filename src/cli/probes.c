/* probes.c - `bloomsim probes SCHEME`: the positions a scheme probes for given hash words
 * (and draws), and the size it uses, so that anyone can check a scheme against its
 * definition (docs/model.md). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/json_out.h"
#include "libraries/registry.h"
#include "schemes/scheme.h"
#include "splits/split.h"

static const char usage[] =
    "usage: bloomsim probes SCHEME --bits M --k K [--h1 A --h2 B ...] [--draws D1,...,DK]\n"
    "                          [--block-bits B] [--json]\n"
    "       bloomsim probes SCHEME --bits M --k K --split NAME (--key TEXT | --key-int N)\n"
    "                          [--json]\n"
    "\n"
    "Prints the k positions SCHEME probes for a key, and the size m it actually uses, so\n"
    "that anyone can check a scheme against its definition (docs/model.md). A key is its\n"
    "hash words (h1, h2, ... as the scheme takes them; they must lie where the scheme draws\n"
    "them from, e.g. [0,m) for double, an odd stride for double-odd) and, for schemes that\n"
    "draw positions after them (independent, partitioned, blocked, split-block), the k\n"
    "draws: for blocked, h1 is the block and draw i the position in it. --block-bits sets\n"
    "the block size of the blocked schemes (default 512 for blocked, 256 for split-block).\n"
    "--split NAME takes the words from a hash split of a real key instead (bloomsim list\n"
    "names the splits; docs/model.md, Hash splits): the key's hash cut into halves h1, h2,\n"
    "then h1 mod m and (h2 mod m) | 1, for double-odd, enhanced and squares on a\n"
    "power-of-two m. --key TEXT hashes the text's bytes, --key-int N the 8 bytes of N\n"
    "little-endian; the halves are printed before the positions.\n"
    "--json prints the same as one JSON object (docs/json.md).\n";

/* What `probes` was asked. */
typedef struct probes_args {
    const char *name, *draws, *split, *key;
    uint64_t key_int;
    int have_key_int;
    uint64_t m, k, block, h[SCHEME_MAX_WORDS];
    int have[SCHEME_MAX_WORDS];
    int json;
} probes_args_t;

static int scheme_name(void *ctx, const char *arg)
{
    probes_args_t *a = ctx;
    if (a->name)
        return cli_die(2, "probes: unknown argument (got '%s'); see bloomsim probes --help",
                       arg);
    a->name = arg;
    return 0;
}

#define PROBES_COUNT(nm, p, g) \
    {.name = nm, .kind = CLI_COUNT, .dst = p, .max = UINT64_MAX, .must = "a whole number", \
     .given = g}

/* Parse probes' arguments. Returns -1 to go on, else the exit status (reported). */
static int parse_probes_args(int argc, char **argv, probes_args_t *a)
{
    _Static_assert(SCHEME_MAX_WORDS == 4, "one option per hash word");
    const cli_opt_t opts[] = {
        PROBES_COUNT("--bits", &a->m, NULL),       PROBES_COUNT("--k", &a->k, NULL),
        PROBES_COUNT("--block-bits", &a->block, NULL),
        PROBES_COUNT("--h1", &a->h[0], &a->have[0]), PROBES_COUNT("--h2", &a->h[1], &a->have[1]),
        PROBES_COUNT("--h3", &a->h[2], &a->have[2]), PROBES_COUNT("--h4", &a->h[3], &a->have[3]),
        {.name = "--draws", .kind = CLI_TEXT, .dst = &a->draws},
        {.name = "--split", .kind = CLI_TEXT, .dst = &a->split},
        {.name = "--key", .kind = CLI_TEXT, .dst = &a->key},
        PROBES_COUNT("--key-int", &a->key_int, &a->have_key_int),
        {.name = "--json", .kind = CLI_FLAG, .dst = &a->json},
    };
    cli_spec_t spec = {.command = "probes", .usage = usage, .unknown = "argument", .opts = opts,
                       .nopts = sizeof opts / sizeof opts[0], .positional = scheme_name,
                       .ctx = a};
    return cli_parse(&spec, argc, argv);
}

/* The k draws of --draws into d, each below the scheme's bound. Returns 0 or 2. */
static int parse_draws(const scheme_t *s, const probe_geom_t *g, const char *text, uint64_t *d)
{
    if (!text)
        return cli_die(2, "probes: scheme %s draws its positions%s: give --draws with k = %u "
                          "values (got nothing)", s->name,
                       s->nwords ? " after its hash words" : "", g->k);
    const char *p = text;
    for (unsigned i = 0; i < g->k; i++) {
        char *end;
        errno = 0;
        if (*p < '0' || *p > '9')
            return cli_die(2, "probes: --draws needs k = %u whole numbers separated by commas "
                              "(got '%s')", g->k, text);
        d[i] = strtoull(p, &end, 10);
        if (errno || (*end != ',' && *end != '\0') || (*end == '\0') != (i + 1 == g->k))
            return cli_die(2, "probes: --draws needs k = %u whole numbers separated by commas "
                              "(got '%s')", g->k, text);
        if (d[i] >= s->draw_bound(g, i))
            return cli_die(2, "probes: draw %u of %s must be below %llu (got '%llu')", i + 1,
                           s->name, (unsigned long long)s->draw_bound(g, i),
                           (unsigned long long)d[i]);
        p = end + 1;
    }
    return 0;
}

/* The scheme asked for, and the hash words and draws it takes. Returns 0 or 2. */
static int check_args(const probes_args_t *a, const scheme_t **s)
{
    if (!a->name)
        return cli_die(2, "probes: name a scheme (got nothing); bloomsim list shows them");
    if (!(*s = scheme_find(a->name)))
        return cli_die(2, "probes: unknown scheme (got '%s'); bloomsim list shows them",
                       a->name);
    if (a->m < 2 || a->m > (UINT64_C(1) << 62) || a->k < 1 || a->k > 1000)
        return cli_die(2, "probes: need --bits from 2 to 2^62 and --k from 1 to 1000 (got "
                          "bits '%llu', k '%llu')", (unsigned long long)a->m,
                       (unsigned long long)a->k);
    if (!a->split && (a->key || a->have_key_int))
        return cli_die(2, "probes: --key and --key-int go with --split (got '%s')",
                       a->key ? "--key" : "--key-int");
    for (unsigned j = 0; j < (*s)->nwords && !a->split; j++)
        if (!a->have[j])
            return cli_die(2, "probes: scheme %s needs --h%u (got nothing)", a->name, j + 1);
    for (unsigned j = (*s)->nwords; j < SCHEME_MAX_WORDS; j++)
        if (a->have[j])
            return cli_die(2, "probes: scheme %s takes no --h%u (got '%llu')", a->name, j + 1,
                           (unsigned long long)a->h[j]);
    if (a->draws && !(*s)->positions_drawn)
        return cli_die(2, "probes: scheme %s takes no draws: its positions come from its hash "
                          "words alone (got '--draws %s')", a->name, a->draws);
    return 0;
}

/* --split: the split's halves of the key (h, 2 of them) and its words in a->h, after
 * the split accepts the scheme at m. Returns 0 or 2. */
static int split_words(probes_args_t *a, const scheme_t *s, const probe_geom_t *g,
                       uint64_t *h)
{
    const split_t *sp = split_find(a->split);
    if (!sp)
        return cli_die(2, "probes: unknown split (%s) (got '%s')", split_names_list(), a->split);
    if (!a->key == !a->have_key_int)
        return cli_die(2, "probes: --split needs one key, --key TEXT or --key-int N (got %s)",
                       a->key ? "both" : "neither");
    for (unsigned j = 0; j < SCHEME_MAX_WORDS; j++)
        if (a->have[j])
            return cli_die(2, "probes: --split makes the words; it takes no --h%u (got '%llu')",
                           j + 1, (unsigned long long)a->h[j]);
    char err[256];
    if (split_check(sp, s, g->m, err, sizeof err) != SPLIT_OK)
        return cli_die(2, "probes: %s (got '--split %s')", err, a->split);
    rkey_t key = a->key ? (rkey_t){.kind = KEY_BYTES, .bytes = (const uint8_t *)a->key,
                                   .len = strlen(a->key)}
                        : (rkey_t){.kind = KEY_INT, .u = a->key_int};
    sp->halves(&key, h);
    sp->words.words(&key, g, a->h);
    a->have[0] = a->have[1] = 1;
    return 0;
}

/* The scheme's geometry at the size asked, and its words in their ranges. 0 or 2. */
static int check_geometry(const probes_args_t *a, const scheme_t *s, probe_geom_t *g)
{
    int st = s->geometry(a->m, (unsigned)a->k, a->block, g);
    if (st != SCHEME_OK)
        return cli_die(2, "probes: %s at bits = %llu, k = %llu: %s (got '%llu')", a->name,
                       (unsigned long long)a->m, (unsigned long long)a->k, scheme_refusal(s, st),
                       (unsigned long long)(st == SCHEME_EBLOCK ? a->block
                                            : st == SCHEME_ESPLIT || st == SCHEME_EKBIG ||
                                                      st == SCHEME_EKFIXED ? a->k : a->m));
    if (a->block && !g->block) /* an option that would do nothing */
        return cli_die(2, "probes: --block-bits does nothing with scheme %s: it has no blocks "
                       "(got '%llu')", a->name, (unsigned long long)a->block);
    st = s->nwords ? s->check_words(g, a->h) : SCHEME_OK;
    if (st != SCHEME_OK) {
        char got[256] = "";
        for (unsigned j = 0, at = 0; j < s->nwords && at < sizeof got; j++)
            at += (unsigned)snprintf(got + at, sizeof got - at, "%sh%u '%llu'", j ? ", " : "",
                                     j + 1, (unsigned long long)a->h[j]);
        return cli_die(2, "probes: %s with m = %llu: %s (got %s)", a->name,
                       (unsigned long long)g->m, scheme_strerror(st), got);
    }
    return 0;
}

/* probes --json: what the text shows, as docs/json.md's "probes" section; pos holds the
 * k positions, then the k draws where the scheme takes them. */
static int probes_json(const probes_args_t *a, const scheme_t *s, const probe_geom_t *g,
                       const uint64_t *pos, const uint64_t *halves)
{
    json_object *o = json_out_new("probes");
    json_out_text(o, "scheme", a->name);
    if (a->split) {
        json_object *sp = json_out_obj(o, "split");
        json_out_text(sp, "name", a->split);
        if (a->key)
            json_out_text(sp, "key", a->key);
        else
            json_out_count(sp, "key_int", a->key_int);
        json_out_count(sp, "h1", halves[0]);
        json_out_count(sp, "h2", halves[1]);
    }
    json_out_count(o, "m", g->m);
    json_out_count(o, "m_requested", a->m);
    json_out_count(o, "k", a->k);
    json_object *w = json_out_array(o, "words");
    for (unsigned j = 0; j < s->nwords; j++)
        json_out_push_count(w, a->h[j]);
    if (s->positions_drawn) {
        json_object *d = json_out_array(o, "draws");
        for (uint64_t i = 0; i < a->k; i++)
            json_out_push_count(d, pos[a->k + i]);
    }
    if (g->block) {
        json_object *b = json_out_obj(o, "block");
        json_out_count(b, "index", a->h[0]);
        json_out_count(b, "blocks", g->blocks);
        json_out_count(b, "first_bit", a->h[0] * g->block);
        json_out_count(b, "last_bit", a->h[0] * g->block + g->block - 1);
    }
    json_object *p = json_out_array(o, "positions");
    for (uint64_t i = 0; i < a->k; i++)
        json_out_push_count(p, pos[i]);
    return json_out_print(o, "probes");
}

int cli_probes(int argc, char **argv)
{
    probes_args_t a = {0};
    const scheme_t *s = NULL;
    probe_geom_t g;
    int rc = parse_probes_args(argc, argv, &a);
    if (rc >= 0)
        return rc;
    uint64_t halves[2] = {0, 0};
    if ((rc = check_args(&a, &s)) != 0)
        return rc;
    if (a.split) { /* the geometry first, for the m the split is checked at */
        int st = s->geometry(a.m, (unsigned)a.k, a.block, &g);
        if (st == SCHEME_OK && (rc = split_words(&a, s, &g, halves)) != 0)
            return rc;
    }
    if ((rc = check_geometry(&a, s, &g)) != 0)
        return rc;
    uint64_t *pos = malloc(2 * a.k * sizeof *pos);
    if (!pos)
        return cli_die(1, "out of memory");
    if (s->positions_drawn && parse_draws(s, &g, a.draws, pos + a.k)) {
        free(pos);
        return 2;
    }
    if (s->positions_drawn)
        s->positions_drawn(&g, a.h, pos + a.k, pos);
    else
        s->positions(&g, a.h, pos);
    if (a.json) {
        rc = probes_json(&a, s, &g, pos, halves);
        free(pos);
        return rc;
    }
    printf("scheme %s, m = %llu (requested %llu), k = %llu", a.name, (unsigned long long)g.m,
           (unsigned long long)a.m, (unsigned long long)a.k);
    if (g.block)
        printf(", block %llu of %llu (bits %llu..%llu)", (unsigned long long)a.h[0],
               (unsigned long long)g.blocks, (unsigned long long)(a.h[0] * g.block),
               (unsigned long long)(a.h[0] * g.block + g.block - 1));
    putchar('\n');
    if (a.split)
        printf("split %s of %s%s%s: h1 = %#llx, h2 = %#llx; words %llu, %llu\n", a.split,
               a.key ? "'" : "", a.key ? a.key : "", a.key ? "'" : "",
               (unsigned long long)halves[0], (unsigned long long)halves[1],
               (unsigned long long)a.h[0], (unsigned long long)a.h[1]);
    for (uint64_t i = 0; i < a.k; i++)
        printf("%llu%c", (unsigned long long)pos[i], i + 1 < a.k ? ' ' : '\n');
    free(pos);
    return 0;
}
