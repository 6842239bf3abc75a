/* adapter_server.c - see adapter_server.h. */
#include "audit/adapter_server.h"

#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "audit/adapter_chain.h"
#include "base/bits.h"
#include "fingerprint/real.h"
#include "hashes/hashes.h"
#include "libraries/registry.h"
#include "rates/sizing.h"
#include "version.h"

typedef struct srv {
    FILE *in, *out;
    FILE *diag;                /* a design's clamp is said there (NULL: nowhere) */
    const library_t *lib;      /* a Bloom filter library, or NULL */
    const library_words_t *lw;
    const fp_filter_t *fpf;    /* a fingerprint filter's library (fpf->real), or NULL */
    const library_chain_t *chain; /* a library's scalable filter, or NULL */
    adapter_chain_t ch;        /* its links, while there are some */
    void *table;               /* its filter, while there is one */
    uint64_t failed;           /* its inserts the library reported failed, since design */
    const char *name;          /* the library's name, as `bloomsim adapter` takes it */
    unsigned kinds;            /* the keys it takes (keys.h) */
    uint64_t m;                /* the fingerprint filter's bits (its layout's) */
    const char *why;           /* what its library threw */
    int takes;            /* the design it takes: 'r' a rate, 'b' bits per key, 'f'
                           * fingerprint bits */
    int at_once;          /* it builds from all its keys at the first query or bits */
    int have;             /* a design succeeded */
    uint64_t n;           /* the design's keys */
    double bpk;
    probe_geom_t g;
    bits_t b;             /* b.word NULL until a filter is built */
    int dirty;            /* keys inserted since the filter was built (at_once) */
    /* at_once: the keys inserted, their bytes in one arena (integers as 8 bytes) */
    uint64_t nkeys, capkeys;
    uint64_t *off;        /* key j: kind in bit 63, arena offset; length in len[j] */
    uint32_t *len;
    uint8_t *arena;
    size_t used, cap;
    uint64_t *pos;        /* g.k positions */
    char *line;
    size_t linecap;
    uint8_t key[LIBRARY_WORDS_KEY_MAX];
} srv_t;

/* End the answer line, flushed. */
static int done(srv_t *s)
{
    fputc('\n', s->out);
    fflush(s->out);
    return 0;
}

/* Answer line fmt, flushed; error answers other than a refused design end it. */
static int say(srv_t *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int say(srv_t *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(s->out, fmt, ap);
    va_end(ap);
    return done(s);
}
#define FATAL(s, ...) (say(s, "error " __VA_ARGS__), 1)

/* One input line into s->line without its newline: 1, or 0 at the end of input. */
static int next_line(srv_t *s, size_t *len)
{
    ssize_t n = getline(&s->line, &s->linecap, s->in);
    if (n <= 0)
        return 0;
    if (s->line[n - 1] == '\n')
        s->line[--n] = '\0';
    *len = (size_t)n;
    return 1;
}

/* A canonical decimal (digits, no leading zero) that is all of t, into *x: 0 or -1. */
static int canonical(const char *t, uint64_t *x)
{
    if (!*t || (t[0] == '0' && t[1]))
        return -1;
    uint64_t v = 0;
    for (; *t; t++) {
        if (*t < '0' || *t > '9' || v > (UINT64_MAX - (uint64_t)(*t - '0')) / 10)
            return -1;
        v = 10 * v + (uint64_t)(*t - '0');
    }
    *x = v;
    return 0;
}

/* A key line of kind into *k (bytes in s->key for hex, in s->line for str): 0 or -1. */
static int parse_key(srv_t *s, int kind, size_t len, rkey_t *k)
{
    if (kind == 'u') {
        *k = (rkey_t){.kind = KEY_INT};
        return canonical(s->line, &k->u);
    }
    *k = (rkey_t){.kind = KEY_BYTES, .bytes = (const uint8_t *)s->line, .len = len};
    if (kind == 's') /* any bytes but a newline (NUL too); a text library's UTF-8 */
        return s->kinds & KEY_TEXT && !hash_utf8_valid(k->bytes, len) ? -1 : 0;
    if (len % 2 || len / 2 > sizeof s->key)
        return -1;
    for (size_t i = 0; i < len; i++) {
        char c = s->line[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (d < 0)
            return -1;
        s->key[i / 2] = (uint8_t)(i % 2 ? s->key[i / 2] | d : d << 4);
    }
    k->bytes = s->key, k->len = len / 2;
    return 0;
}

/* The filter of (g, a fresh bit array): 0, or -1 out of memory. */
static int filter_new(srv_t *s)
{
    bits_free(&s->b);
    free(s->pos);
    s->pos = malloc((s->g.k ? s->g.k : 1) * sizeof *s->pos);
    if (!s->pos || bits_alloc(&s->b, s->g.m) != 0)
        return -1;
    return 0;
}

static void filter_add(srv_t *s, const rkey_t *k)
{
    library_words_positions(s->lw, s->lib->scheme, &s->g, k, s->pos);
    for (unsigned i = 0; i < s->g.k; i++)
        bits_set(&s->b, s->pos[i]);
}

static int filter_has(srv_t *s, const rkey_t *k)
{
    library_words_positions(s->lw, s->lib->scheme, &s->g, k, s->pos);
    for (unsigned i = 0; i < s->g.k; i++)
        if (!bits_test(&s->b, s->pos[i]))
            return 0;
    return 1;
}

/* The design of n keys at p (or bpk): into s->g; 0, or the refusal's message. */
static const char *design(srv_t *s, uint64_t n, double p, double bpk)
{
    const sizing_rule_t *rule = s->lib->sizing;
    uint64_t mc, m;
    unsigned k;
    int st = bpk > 0 ? sizing_design_bpk(rule, n, bpk, &mc, &m, &k)
                     : sizing_design_full(rule, n, p, &mc, &m, &k);
    if (st != SIZING_OK)
        return sizing_refusal(rule, st);
    if ((st = s->lib->scheme->geometry(m, k, 0, &s->g)) != SCHEME_OK)
        return scheme_refusal(s->lib->scheme, st);
    return NULL;
}

/* A kept key's bytes, for sorting. */
typedef struct kref {
    const uint8_t *p;
    uint32_t len;
    int is_int;
} kref_t;

static int kref_cmp(const void *x, const void *y)
{
    const kref_t *a = x, *b = y;
    int c = memcmp(a->p, b->p, a->len < b->len ? a->len : b->len);
    return c ? c : (a->len > b->len) - (a->len < b->len);
}

/* Kept key j as a key. */
static rkey_t kept(const srv_t *s, uint64_t j)
{
    rkey_t k = {.kind = s->off[j] >> 63 ? KEY_INT : KEY_BYTES, .len = s->len[j],
                .bytes = s->arena + (s->off[j] & ~(UINT64_C(1) << 63))};
    if (k.kind == KEY_INT)
        memcpy(&k.u, k.bytes, 8);
    return k;
}

/* A fingerprint filter that builds at once: built by its library from every key kept. */
static int real_build(srv_t *s)
{
    rkey_t *k = malloc((s->nkeys ? s->nkeys : 1) * sizeof *k);
    if (!k)
        return FATAL(s, "out of memory");
    for (uint64_t j = 0; j < s->nkeys; j++)
        k[j] = kept(s, j);
    const char *why = "";
    int st = s->fpf->real->build(s->table, k, s->nkeys, &why);
    free(k);
    if (st == FP_REAL_THROWS)
        return FATAL(s, "%s throws: %s", s->name, why);
    s->dirty = 0;
    return 0;
}

/* at_once: (re)build the filter from every key kept, sized for their count. RocksDB
 * counts and adds each distinct key once (a table file holds a key once; the adapter of
 * its own code writes each once), LevelDB every key it is given. */
static int build(srv_t *s)
{
    if (s->fpf)
        return real_build(s);
    kref_t *r = malloc((s->nkeys ? s->nkeys : 1) * sizeof *r);
    if (!r)
        return FATAL(s, "out of memory");
    for (uint64_t j = 0; j < s->nkeys; j++)
        r[j] = (kref_t){.p = s->arena + (s->off[j] & ~(UINT64_C(1) << 63)), .len = s->len[j],
                        .is_int = (int)(s->off[j] >> 63)};
    uint64_t n = s->nkeys;
    if (strncmp(s->lib->name, "rocksdb", 7) == 0 && n > 1) {
        qsort(r, n, sizeof *r, kref_cmp);
        uint64_t d = 1;
        for (uint64_t j = 1; j < n; j++)
            if (kref_cmp(&r[j], &r[d - 1]) != 0)
                r[d++] = r[j];
        n = d;
    }
    const char *why = design(s, n ? n : s->n, 0.5, s->bpk);
    if (why || filter_new(s)) {
        free(r);
        return why ? FATAL(s, "%s cannot build a filter of %" PRIu64 " keys at %g bits per "
                              "key: %s", s->name, n, s->bpk, why)
                   : FATAL(s, "out of memory");
    }
    for (uint64_t j = 0; j < n; j++) {
        rkey_t k = {.kind = r[j].is_int ? KEY_INT : KEY_BYTES, .bytes = r[j].p, .len = r[j].len};
        if (k.kind == KEY_INT)
            memcpy(&k.u, k.bytes, 8);
        filter_add(s, &k);
    }
    free(r);
    s->dirty = 0;
    return 0;
}

/* at_once: keep key k for the build. 0, or -1 out of memory. */
static int keep(srv_t *s, const rkey_t *k)
{
    size_t len = k->kind == KEY_INT ? 8 : k->len;
    if (s->nkeys == s->capkeys) {
        uint64_t c = s->capkeys ? 2 * s->capkeys : 1024;
        uint64_t *o = realloc(s->off, c * sizeof *o);
        if (o)
            s->off = o;
        uint32_t *l = realloc(s->len, c * sizeof *l);
        if (l)
            s->len = l;
        if (!o || !l)
            return -1;
        s->capkeys = c;
    }
    if (s->used + len > s->cap) {
        size_t c = 2 * (s->used + len) + 4096;
        uint8_t *a = realloc(s->arena, c);
        if (!a)
            return -1;
        s->arena = a, s->cap = c;
    }
    memcpy(s->arena + s->used, k->kind == KEY_INT ? (const void *)&k->u : k->bytes, len);
    s->off[s->nkeys] = s->used | (k->kind == KEY_INT ? UINT64_C(1) << 63 : 0);
    s->len[s->nkeys++] = (uint32_t)len;
    s->used += len;
    s->dirty = 1;
    return 0;
}

/* A real number of the protocol (strtod's digits, '.', e, E and signs) that is all of t:
 * 0, or -1. */
static int real(const char *t, double *x)
{
    if (!*t || strspn(t, "0123456789.eE+-") != strlen(t))
        return -1;
    char *end;
    errno = 0;
    *x = strtod(t, &end);
    return *end || errno ? -1 : 0;
}

/* What a design command takes: "a rate", "bits per key", "fingerprint bits". */
static const char *takes_what(int takes)
{
    return takes == 'r' ? "a rate" : takes == 'b' ? "bits per key" : "fingerprint bits";
}

/* A fingerprint filter's library designs its filter: 0, or the refusal answered. */
static int real_design(srv_t *s, uint64_t n, double x, const char *arg, uint64_t *m)
{
    if (s->table)
        s->fpf->real->close(s->table);
    s->table = NULL;
    const char *clamp, *why = s->fpf->real->open(&s->table, n, x, m, &clamp);
    if (clamp && s->diag) /* said where the protocol passes diagnostics through */
        fprintf(s->diag, "bloomsim adapter %s: %s\n", s->name, clamp);
    if (!why)
        return 0;
    say(s, "error %s cannot design %" PRIu64 " keys at %s%s: %s", s->name, n, arg,
        s->takes == 'f' ? " fingerprint bits" : "", why);
    return -1;
}

static int cmd_design(srv_t *s, char **w, int nw)
{
    int takes = strcmp(w[0], "design-bpk") == 0 ? 'b' : strcmp(w[0], "design-fp") == 0 ? 'f'
                                                                                       : 'r';
    uint64_t n, f = 0;
    double x;
    if (nw != 3 || canonical(w[1], &n) || n == 0 ||
        (takes == 'f' ? canonical(w[2], &f) != 0 : real(w[2], &x) != 0) ||
        (takes == 'r' && !(x > 0 && x < 1)) || (takes == 'b' && !(x > 0)))
        return FATAL(s, "%s takes N (a whole number >= 1) and %s", w[0],
                     takes == 'b'   ? "B (bits per key, > 0)"
                     : takes == 'f' ? "F (fingerprint bits, a whole number)"
                                    : "P (a rate strictly between 0 and 1)");
    if (takes == 'f')
        x = (double)f;
    s->have = 0;
    if (takes != s->takes)
        return say(s, "error %s takes %s, not %s", s->name, takes_what(s->takes),
                   takes_what(takes));
    uint64_t m = 0;
    if (s->fpf) {
        if (real_design(s, n, x, w[2], &m))
            return 0;
        s->m = m;
    } else {
        const char *why = design(s, n, takes == 'b' ? 0.5 : x, takes == 'b' ? x : 0);
        if (why)
            return say(s, "error %s cannot design %" PRIu64 " keys at %s%s: %s", s->name, n,
                       w[2], takes == 'b' ? " bits per key" : "", why);
    }
    s->n = n, s->bpk = takes == 'b' ? x : 0, s->nkeys = 0, s->used = 0, s->dirty = 1;
    s->failed = 0;
    if (!s->fpf && !s->at_once && filter_new(s))
        return FATAL(s, "out of memory");
    s->have = 1;
    if (s->fpf) /* its table's bits; no probes */
        return say(s, "design %" PRIu64 " ?", m);
    return say(s, "design %" PRIu64 " %u", s->g.m, s->g.k);
}

/* buf of *cap bytes grown to twice as many (at least 4096), or NULL (buf freed). */
static char *grow(char *buf, size_t *cap)
{
    size_t c = *cap ? 2 * *cap : 4096;
    char *nb = c > *cap ? realloc(buf, c) : NULL;
    if (!nb)
        free(buf);
    *cap = nb ? c : 0;
    return nb;
}

/* Whether the filter answers yes for k: 1, 0, or -1 when its library throws (s->why). */
static int has(srv_t *s, const rkey_t *k)
{
    if (s->chain)
        return adapter_chain_has(&s->ch, k);
    if (!s->fpf)
        return filter_has(s, k);
    int a = s->fpf->real->query(s->table, k, &s->why);
    return a == FP_REAL_THROWS ? -1 : a;
}

/* Insert k (kept, for a filter built at once): 0; -1 out of memory; -2 its library
 * throws (s->why). An insert the library reports failed is counted (`failures`). */
static int add(srv_t *s, const rkey_t *k)
{
    if (s->at_once)
        return keep(s, k) ? -1 : 0;
    if (s->chain) /* a next link the library refuses: it throws */
        return (s->why = adapter_chain_add(&s->ch, k)) ? -2 : 0;
    if (!s->fpf) {
        filter_add(s, k);
        return 0;
    }
    int st = s->fpf->real->insert(s->table, k, &s->why);
    if (st == FP_REAL_THROWS)
        return -2;
    s->failed += st == FP_REAL_FAILED;
    return 0;
}

/* insert or query: the count's key lines; a query answers a line of 0s and 1s. */
static int cmd_keys(srv_t *s, char **w, int nw)
{
    int query = strcmp(w[0], "query") == 0;
    uint64_t count;
    if (nw != 3 || canonical(w[2], &count))
        return FATAL(s, "%s takes KIND COUNT", w[0]);
    int kind = strcmp(w[1], "u64") == 0 ? 'u' : strcmp(w[1], "str") == 0 ? 's'
             : strcmp(w[1], "hex") == 0 ? 'h' : 0;
    unsigned takes = kind == 'u' ? KEY_INT : kind == 's' ? KEY_TEXT | KEY_BYTES : KEY_BYTES;
    if (!kind || !(s->kinds & takes))
        return FATAL(s, "%s takes no keys of kind %s", s->name, w[1]);
    if (!s->have)
        return FATAL(s, "%s before a design", w[0]);
    if (query && s->at_once && s->dirty && build(s))
        return 1;
    char verb[8];
    snprintf(verb, sizeof verb, "%s", w[0]); /* w points into the line, read over below */
    /* A query's answers are held until every key line is read, so that a bad key is
     * answered by its error line alone (the protocol: an answer after all the keys). */
    char *ans = NULL;
    size_t cap = 0;
    int rc = -1, a;
    for (uint64_t i = 0; i < count && rc < 0; i++) {
        size_t len;
        rkey_t k;
        if (!next_line(s, &len))
            rc = FATAL(s, "the input ended inside %s's keys", verb);
        else if (parse_key(s, kind, len, &k))
            rc = FATAL(s, "not a key of its kind: '%.60s'", s->line);
        else if (query && i == cap && !(ans = grow(ans, &cap)))
            rc = FATAL(s, "out of memory");
        else if ((a = query ? has(s, &k) : add(s, &k)) < 0)
            rc = a == -1 && !query ? FATAL(s, "out of memory")
                                   : FATAL(s, "%s throws: %s", s->name, s->why);
        else if (query)
            ans[i] = (char)('0' + a);
    }
    if (rc < 0 && query)
        fwrite(ans, 1, (size_t)count, s->out);
    free(ans);
    return rc >= 0 ? rc : query ? done(s) : say(s, "inserted %" PRIu64, count);
}

/* The bits in the protocol's layout: bit i is bit i mod 8 of byte i / 8. */
static int cmd_bits(srv_t *s, int nw)
{
    if (nw != 1)
        return FATAL(s, "bits takes nothing");
    if (!s->have)
        return FATAL(s, "bits before a design");
    if (s->at_once && s->dirty && build(s))
        return 1;
    if (s->fpf) { /* the library's table in its file's layout */
        /* a table sized by its keys (built_m) may differ from the design's */
        uint64_t m = s->fpf->real->built_m ? s->fpf->real->built_m(s->table) : s->m;
        uint8_t *b = malloc(m / 8 + 1);
        if (!b)
            return FATAL(s, "out of memory");
        s->fpf->real->bits(s->table, b);
        fprintf(s->out, "bits %" PRIu64 " ", m);
        for (uint64_t i = 0; i < (m + 7) / 8; i++)
            fprintf(s->out, "%02x", b[i]);
        free(b);
        return done(s);
    }
    const bits_t *b = &s->b;
    adapter_hex_bits(s->out, &b, &s->g.m, 1);
    return done(s);
}

/* failures (fingerprint filters): the inserts its library reported failed and the builds
 * it retried with another seed (none without .retries), since the design. */
static int cmd_failures(srv_t *s, int nw)
{
    if (nw != 1)
        return FATAL(s, "failures takes nothing");
    if (!s->have)
        return FATAL(s, "failures before a design");
    if (s->at_once && s->dirty && build(s))
        return 1;
    uint64_t (*retries)(const void *) = s->fpf->real->retries;
    return say(s, "failures %" PRIu64 " %" PRIu64, s->failed, retries ? retries(s->table) : 0);
}

/* A chain's design: `design N P` (its other parameters the library's own) or
 * `design-chain N P E T` (growth and tightening, each a number or - for the library's
 * own), answered with its first link's M and K (docs/adapter.md, Chains). */
static int cmd_design_chain(srv_t *s, char **w, int nw)
{
    chain_params_t p = s->chain->defaults;
    int full = strcmp(w[0], "design-chain") == 0, own[2] = {1, 1}, bad = 0;
    double *x[2] = {&p.expansion, &p.tightening};
    for (int i = 0; full && nw == 5 && i < 2; i++)
        bad |= (own[i] = strcmp(w[3 + i], "-") == 0) == 0 && real(w[3 + i], x[i]);
    if (nw != (full ? 5 : 3) || bad || canonical(w[1], &p.capacity) || p.capacity == 0 ||
        real(w[2], &p.rate) || !(p.rate > 0 && p.rate < 1))
        return FATAL(s, "%s takes N (a whole number >= 1), P (a rate strictly between 0 and "
                        "1)%s", w[0], full ? ", E and T (numbers, or - for its own)" : "");
    s->have = 0;
    if ((!own[0] && !s->chain->has_expansion) || (!own[1] && !s->chain->has_tightening))
        return say(s, "error %s takes no %s: give -", s->name, own[0] ? "tightening" : "growth");
    const char *why = adapter_chain_design(&s->ch, s->chain, &p);
    if (why)
        return say(s, "error %s cannot design a chain of %" PRIu64 " keys at %s: %s", s->name,
                   p.capacity, w[2], why);
    s->have = 1;
    return say(s, "design %" PRIu64 " %u", s->ch.link[0].g.m, s->ch.link[0].g.k);
}

/* A chain's `links`, `bits` (every link's) and `bits J` (link J's). */
static int cmd_links(srv_t *s, char **w, int nw)
{
    uint64_t j = 0;
    int bits = strcmp(w[0], "bits") == 0;
    if (nw > 1 + bits || !s->have || (nw == 2 && (canonical(w[1], &j) || j >= s->ch.nlinks)))
        return FATAL(s, "%s takes nothing%s, after a design (it has %zu links)", w[0],
                     bits ? " or a link J" : "", s->ch.nlinks);
    if (bits)
        adapter_chain_bits(&s->ch, nw == 2 ? j : 0, nw == 2 ? j + 1 : s->ch.nlinks, s->out);
    else
        adapter_chain_links(&s->ch, s->out);
    return done(s);
}

/* One command line: 0 to go on, 1 to end with status 1, -1 to quit. */
static int command(srv_t *s)
{
    char *w[5], *p = s->line;
    int nw = 0;
    for (;;) { /* words separated by single spaces */
        if (nw == 5)
            return FATAL(s, "too many words: '%.60s'", s->line);
        w[nw++] = p;
        if (!(p = strchr(p, ' ')))
            break;
        *p++ = '\0';
    }
    for (int i = 0; i < nw; i++)
        if (!*w[i])
            return FATAL(s, "a command is words separated by single spaces");
    if (strcmp(w[0], "hello") == 0)
        return nw == 2 && strcmp(w[1], "1") == 0
                   ? say(s, "hello 1 bloomsim %s %s (its %s and arithmetic; %s)",
                         BLOOMSIM_VERSION, s->name,
                         s->fpf ? "table" : s->chain ? "links" : "sizing",
                         s->fpf ? s->fpf->real->hash : s->lw->hash)
                   : FATAL(s, "this adapter speaks protocol version 1");
    if (s->chain && (strcmp(w[0], "design") == 0 || strcmp(w[0], "design-chain") == 0))
        return cmd_design_chain(s, w, nw);
    if (s->chain && (strcmp(w[0], "links") == 0 || strcmp(w[0], "bits") == 0))
        return cmd_links(s, w, nw);
    if (strcmp(w[0], "design") == 0 || strcmp(w[0], "design-bpk") == 0 ||
        strcmp(w[0], "design-fp") == 0)
        return cmd_design(s, w, nw);
    if (strcmp(w[0], "insert") == 0 || strcmp(w[0], "query") == 0)
        return cmd_keys(s, w, nw);
    if (strcmp(w[0], "bits") == 0)
        return cmd_bits(s, nw);
    if (strcmp(w[0], "failures") == 0 && s->fpf)
        return cmd_failures(s, nw);
    if (strcmp(w[0], "quit") == 0 && nw == 1)
        return -1;
    return FATAL(s, "unknown command: %.60s", w[0]);
}

static int serve(srv_t *s)
{
    size_t len;
    int rc = 0;
    while (rc == 0 && next_line(s, &len))
        rc = command(s);
    if (s->table)
        s->fpf->real->close(s->table);
    adapter_chain_free(&s->ch);
    bits_free(&s->b);
    free(s->pos), free(s->off), free(s->len), free(s->arena), free(s->line);
    return rc < 0 ? 0 : rc;
}

int adapter_serve(const library_t *lib, const library_words_t *lw, FILE *in, FILE *out)
{
    int bpk = lib->sizing->bpk_from_rate != NULL;
    srv_t s = {.in = in, .out = out, .lib = lib, .lw = lw, .name = lib->name,
               .kinds = lw->kinds, .takes = bpk ? 'b' : 'r', .at_once = bpk};
    return serve(&s);
}

int adapter_serve_fingerprint(const fp_filter_t *f, FILE *in, FILE *out, FILE *diag)
{
    srv_t s = {.in = in, .out = out, .diag = diag, .fpf = f, .name = f->name, .kinds = f->real->kinds,
               .takes = f->real->takes == FP_REAL_BITS  ? 'f'
                        : f->real->takes == FP_REAL_BPK ? 'b'
                                                        : 'r',
               .at_once = f->real->at_once};
    return serve(&s);
}

int adapter_serve_chain(const library_chain_t *c, FILE *in, FILE *out)
{
    srv_t s = {.in = in, .out = out, .chain = c, .lw = c->words, .name = c->name,
               .kinds = c->words->kinds, .takes = 'r'};
    return serve(&s);
}
