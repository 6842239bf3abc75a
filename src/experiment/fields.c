/* fields.c - the keys of an experiment file (experiment.h): one table that
 * describes every key (its type, range, the sections and kinds of sweep that take it, the
 * keys it excludes, the words of its messages), one converter per type of value, and the
 * conversion of a section's values in table order (fields.h).
 * long: the table of keys is one table, and its converters sit beside it.
 */
#include "experiment/fields.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "estimate/estimator.h"
#include "fingerprint/registry.h"
#include "libraries/registry.h"
#include "base/values.h"

/* ---- the keys ---- */

#define SWEEP_AT(member) \
    .offset = offsetof(sweep_t, member), .size = sizeof(((sweep_t *)0)->member)
#define EXPERIMENT_AT(member) \
    .offset = offsetof(experiment_t, member), .size = sizeof(((experiment_t *)0)->member)
#define SWEEP_KEY .sections = IN_SWEEP | IN_QUICK

static const char *const no_yes[] = {"no", "yes", NULL};

/* Every key of a file. Order: that of F_* and X_*, the order values are converted and
 * checked in. The messages of ranges are "NAME must be MUST (got 'VALUE')". */
static const exp_field_t fields[] = {
    {.key = F_BITS, .name = "bits", .type = FT_COUNT_LIST, SWEEP_KEY, .sweeps = SW_PLAIN,
     SWEEP_AT(bits), .offset2 = offsetof(sweep_t, nbits),
     .min = 2, .max = COUNT_MAX, .must = "between 2 and 2^40"},
    {.key = F_BPK, .name = "bits_per_key", .type = FT_REAL_LIST, SWEEP_KEY,
     .sweeps = SW_PLAIN | SW_EXEC, .excludes = EXP_KEY_BIT(F_KEYS),
     SWEEP_AT(bpk), .offset2 = offsetof(sweep_t, nbpk),
     .lo = 0, .hi = HUGE_VAL, .open = OPEN_LO, .must = "> 0"},
    {.key = F_KEYS, .name = "keys", .type = FT_COUNT, SWEEP_KEY,
     .sweeps = SW_PLAIN, .excludes = EXP_KEY_BIT(F_BPK), SWEEP_AT(keys),
     .min = 1, .max = UINT64_MAX, .must = "a whole number >= 1"},
    {.key = F_K, .name = "k", .type = FT_K_RULE, SWEEP_KEY, .sweeps = SW_PLAIN | SW_DESIGN,
     .excludes = EXP_KEY_BIT(F_LIBRARIES),
     SWEEP_AT(k_rule), .offset2 = offsetof(sweep_t, k),
     .min = 1, .max = 1000, .must = "optimal, ceil or a whole number from 1 to 1000"},
    {.key = F_SCHEMES, .name = "schemes", .type = FT_SCHEMES, SWEEP_KEY,
     .sweeps = SW_PLAIN | SW_DESIGN, .excludes = EXP_KEY_BIT(F_LIBRARIES), SWEEP_AT(schemes),
     .offset2 = offsetof(sweep_t, nschemes)},
    {.key = F_ESTIMATOR, .name = "estimator", .type = FT_ESTIMATOR, SWEEP_KEY,
     .sweeps = SW_PLAIN | SW_DESIGN, SWEEP_AT(estimator)},
    {.key = F_FILTERS, .name = "filters", .type = FT_COUNT, SWEEP_KEY,
     .sweeps = SW_PLAIN | SW_DESIGN, SWEEP_AT(filters), .min = 2, .max = COUNT_MAX,
     .dflt = 1000, .quick_cap = 200,
     .must = "a whole number from 2 (to estimate the between-filter spread) to 2^40"},
    {.key = F_LOOKUPS, .name = "lookups", .type = FT_COUNT, SWEEP_KEY,
     .sweeps = SW_PLAIN | SW_DESIGN, SWEEP_AT(lookups), .min = 1, .max = LOOKUPS_MAX,
     .dflt = 10000000, .quick_cap = 2000000, .must = "a whole number from 1 to 2^56"},
    {.key = F_STRIDES, .name = "strides", .type = FT_COUNT, SWEEP_KEY,
     .sweeps = SW_PLAIN | SW_DESIGN, SWEEP_AT(strides), .min = 1, .max = UINT64_MAX,
     .zero_word = "all", .dflt = 4096, .must = "all or a whole number >= 1"},
    {.key = F_PRECISION, .name = "precision", .type = FT_REAL, SWEEP_KEY,
     .sweeps = SW_PLAIN | SW_DESIGN | SW_EXEC, SWEEP_AT(precision), .lo = 0, .hi = 1, .open = OPEN_HI,
     .must = "a relative standard error from 0 (off) to below 1, e.g. 0.01"},
    {.key = F_MAX_FILTERS, .name = "max_filters", .type = FT_COUNT, SWEEP_KEY,
     .sweeps = SW_PLAIN | SW_DESIGN | SW_EXEC, SWEEP_AT(max_filters), .min = 2, .max = COUNT_MAX,
     .must = "a whole number from 2 to 2^40"}, /* not given: 1000 times filters */
    {.key = F_DESIGN_KEYS, .name = "design_keys", .type = FT_COUNT, SWEEP_KEY,
     .sweeps = SW_DESIGN, SWEEP_AT(design_keys), .min = 1, .max = UINT64_MAX,
     .must = "a whole number >= 1"},
    {.key = F_DESIGN_RATE, .name = "design_rate", .type = FT_REAL_LIST, SWEEP_KEY,
     .sweeps = SW_DESIGN | SW_EXEC, SWEEP_AT(design_rate), .offset2 = offsetof(sweep_t, ndesign_rate),
     .lo = 0, .hi = 1, .open = OPEN_LO | OPEN_HI, .must = "strictly between 0 and 1"},
    {.key = F_SIZING, .name = "sizing", .type = FT_SIZING, SWEEP_KEY, .sweeps = SW_DESIGN,
     .excludes = EXP_KEY_BIT(F_LIBRARIES), SWEEP_AT(sizing),
     .must = "a sizing rule (bloomsim size --help lists them)"},
    {.key = F_LOAD, .name = "load", .type = FT_REAL_LIST, SWEEP_KEY,
     .sweeps = SW_DESIGN, .excludes = EXP_KEY_BIT(F_INSERTED),
     SWEEP_AT(load), .offset2 = offsetof(sweep_t, nload),
     .lo = 0, .hi = HUGE_VAL, .open = OPEN_LO, .must = "> 0"},
    {.key = F_INSERTED, .name = "inserted", .type = FT_COUNT_LIST, SWEEP_KEY,
     .sweeps = SW_DESIGN | SW_EXEC, .excludes = EXP_KEY_BIT(F_LOAD),
     SWEEP_AT(inserted), .offset2 = offsetof(sweep_t, ninserted),
     .min = 1, .max = UINT64_MAX, .must = ">= 1"},
    {.key = F_STACK, .name = "stack", .type = FT_STACKS, SWEEP_KEY, .sweeps = SW_DESIGN,
     .excludes = EXP_KEY_BIT(F_LIBRARIES), SWEEP_AT(stack), .offset2 = offsetof(sweep_t, nstacks),
     .must = "first_capacity/growth/tightening[/first_rate], e.g. 500/2/0.5, or a "
             "library's chain, NAME[/E[/T]] (bloomsim audit --list), at most 8 of them"},
    /* Plain sweeps only: a design's sizing rule fixes its own block size. */
    {.key = F_BLOCK_BITS, .name = "block_bits", .type = FT_COUNT_LIST, SWEEP_KEY,
     .sweeps = SW_PLAIN, SWEEP_AT(block_bits),
     .offset2 = offsetof(sweep_t, nblock_bits), .min = SCHEME_BLOCK_MIN,
     .max = SCHEME_BLOCK_MAX, .must = "between 64 and 4096 (a power of two)"},
    {.key = F_SINGLE, .name = "single", .type = FT_CHOICE, SWEEP_KEY, .sweeps = SW_DESIGN,
     SWEEP_AT(single), .words = no_yes, .must = "yes or no"},
    /* Issue 21: the structures that grow past the forecast, beside the stack. */
    {.key = F_REBUILT, .name = "rebuilt", .type = FT_CHOICE, SWEEP_KEY, .sweeps = SW_DESIGN,
     .excludes = EXP_KEY_BIT(F_LIBRARIES), SWEEP_AT(rebuilt), .words = no_yes,
     .must = "yes or no"},
    {.key = F_FINGERPRINT, .name = "fingerprint", .type = FT_FINGERPRINTS, SWEEP_KEY,
     .sweeps = SW_DESIGN, .excludes = EXP_KEY_BIT(F_KEY_SETS), SWEEP_AT(fingerprints),
     .offset2 = offsetof(sweep_t, nfingerprints)},
    {.key = F_LOAD_THRESHOLD, .name = "load_threshold", .type = FT_REAL, SWEEP_KEY,
     .sweeps = SW_DESIGN, SWEEP_AT(load_threshold), .lo = 0, .hi = 1, .open = OPEN_LO,
     .must = "a load above 0 and at most 1, e.g. 0.8"},
    {.key = F_FINGERPRINT_BITS, .name = "fingerprint_bits", .type = FT_COUNT, SWEEP_KEY,
     .sweeps = SW_DESIGN, SWEEP_AT(fingerprint_bits), .min = 1, .max = FP_MAX_BITS,
     .must = "a whole number of bits from 1 to 64"},
    /* A library is a scheme and a sizing rule: it takes the place of both; its rule
     * fixes k, and its filters are single (beside fingerprint filters, where the sweep
     * gives them: a sweep of families, whose library rows say the cache lines a lookup
     * reads, run/lines.h). */
    {.key = F_LIBRARIES, .name = "libraries", .type = FT_LIBRARIES, SWEEP_KEY,
     .sweeps = SW_DESIGN, .excludes = EXP_KEY_BIT(F_SCHEMES) | EXP_KEY_BIT(F_SIZING) |
     EXP_KEY_BIT(F_K) | EXP_KEY_BIT(F_STACK) | EXP_KEY_BIT(F_REBUILT), SWEEP_AT(libraries),
     .offset2 = offsetof(sweep_t, nlibraries)},
    /* Real keys through each library's own hash (keys.h, libraries/library_words.h), or
     * in a plain sweep through each hash split (splits/split.h). */
    {.key = F_KEY_SETS, .name = "key_sets", .type = FT_KEY_SETS, SWEEP_KEY,
     .sweeps = SW_DESIGN | SW_PLAIN, .excludes = EXP_KEY_BIT(F_FINGERPRINT), SWEEP_AT(key_sets),
     .offset2 = offsetof(sweep_t, nkey_sets)},
    {.key = F_KEY_PREFIX, .name = "key_prefix", .type = FT_TEXT, SWEEP_KEY,
     .sweeps = SW_DESIGN, SWEEP_AT(key_prefix)},
    {.key = F_KEY_FILE, .name = "key_file", .type = FT_TEXT, SWEEP_KEY,
     .sweeps = SW_DESIGN, SWEEP_AT(key_file)},
    /* Issue 39: hash splits, each real key set's keys hashed once and cut into the
     * schemes' two words (experiment.c, check_key_sets). */
    {.key = F_SPLITS, .name = "splits", .type = FT_SPLITS, SWEEP_KEY, .sweeps = SW_PLAIN,
     SWEEP_AT(splits), .offset2 = offsetof(sweep_t, nsplits)},
    /* An adapter's sweep: each row `audit --exec` of it, designed for its `inserted` keys
     * at each design_rate or bits_per_key (experiment.c, check_exec). */
    {.key = F_EXEC, .name = "exec", .type = FT_TEXT, SWEEP_KEY, .sweeps = SW_EXEC,
     SWEEP_AT(exec)},
    {.key = X_TITLE, .name = "title", .type = FT_TEXT, .sections = IN_EXPERIMENT,
     EXPERIMENT_AT(title)}, /* not given: the file's name */
    {.key = X_DESCRIPTION, .name = "description", .type = FT_TEXT,
     .sections = IN_EXPERIMENT, EXPERIMENT_AT(description)},
    {.key = X_SEED, .name = "seed", .type = FT_COUNT, .sections = IN_EXPERIMENT,
     EXPERIMENT_AT(seed), .min = 0, .max = UINT64_MAX, .dflt = 1, .must = "a whole number"},
};
#define NFIELDS (sizeof fields / sizeof fields[0])
_Static_assert(X_NKEYS <= 32, "excludes holds a bit per key");
_Static_assert(K_OPTIMAL == 0, "keys not given start at 0");

const exp_field_t *experiment_fields(size_t *n)
{
    *n = NFIELDS;
    return fields;
}

static void *field_at(void *base, size_t offset)
{
    return (char *)base + offset;
}

int exp_fail_at(parse_state_t *ps, unsigned line, const char *fmt, ...)
{
    if (ps->err_line == 0 || line < ps->err_line) {
        char msg[EXP_ERR_LEN];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        snprintf(ps->err, ps->errlen, "%s:%u: %s", ps->path, line, msg);
        ps->err_line = line;
    }
    return 0;
}

const raw_value_t exp_no_values[X_NKEYS];

/* Split a list value into tokens separated by blanks or commas; calls fn per token.
 * Returns the first nonzero fn result. */
static int each_token(const char *text, int (*fn)(void *, const char *), void *ctx)
{
    char tok[256];
    const char *p = text;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        if (*p == '\0')
            return 0;
        size_t n = strcspn(p, " \t,");
        if (n >= sizeof tok)
            return -1;
        memcpy(tok, p, n);
        tok[n] = '\0';
        int r = fn(ctx, tok);
        if (r)
            return r;
        p += n;
    }
}

typedef struct list_ctx {
    int integer;     /* parse as counts */
    double *dv;      /* double destination */
    uint64_t *uv;    /* integer destination */
    size_t n;
    const char *why; /* reason for failure */
    char bad[256];   /* offending token */
} list_ctx_t;

static int list_push(list_ctx_t *lc, double d, uint64_t u)
{
    if (lc->n >= EXP_MAX_LIST) {
        lc->why = "list has too many values (at most 256)";
        return -1;
    }
    if (lc->integer)
        lc->uv[lc->n++] = u;
    else
        lc->dv[lc->n++] = d;
    return 0;
}

/* A token is a number or a range start:stop:step, inclusive of stop. */
static int list_token(void *ctx, const char *tok)
{
    list_ctx_t *lc = ctx;
    snprintf(lc->bad, sizeof lc->bad, "%s", tok);
    char part[3][96];
    int nparts = 0;
    const char *p = tok;
    for (;;) {
        size_t n = strcspn(p, ":");
        if (nparts == 3 || n >= sizeof part[0]) {
            lc->why = "malformed range; expected start:stop:step";
            return -1;
        }
        memcpy(part[nparts], p, n);
        part[nparts++][n] = '\0';
        if (p[n] == '\0')
            break;
        p += n + 1;
    }
    if (nparts == 2) {
        lc->why = "malformed range; expected start:stop:step";
        return -1;
    }
    if (lc->integer) {
        uint64_t v[3];
        for (int i = 0; i < nparts; i++)
            if (values_count(part[i], &v[i])) {
                lc->why = "not a whole number";
                return -1;
            }
        if (nparts == 1)
            return list_push(lc, 0, v[0]);
        if (v[2] == 0 || v[1] < v[0]) {
            lc->why = v[2] == 0 ? "range step must be > 0" : "empty or reversed range";
            return -1;
        }
        for (uint64_t x = v[0];; x += v[2]) {
            if (list_push(lc, 0, x))
                return -1;
            if (v[1] - x < v[2]) /* next step would pass stop (and cannot overflow) */
                return 0;
        }
    }
    double v[3];
    for (int i = 0; i < nparts; i++)
        if (values_real(part[i], &v[i])) {
            lc->why = "not a number";
            return -1;
        }
    if (nparts == 1)
        return list_push(lc, v[0], 0);
    if (!(v[2] > 0) || v[1] < v[0]) {
        lc->why = !(v[2] > 0) ? "range step must be > 0" : "empty or reversed range";
        return -1;
    }
    /* Values start + i*step (no accumulated rounding), stop included within 1e-9 steps. */
    double count = floor((v[1] - v[0]) / v[2] + 1e-9) + 1;
    if (count > EXP_MAX_LIST) {
        lc->why = "list has too many values (at most 256)";
        return -1;
    }
    for (double i = 0; i < count; i++)
        if (list_push(lc, v[0] + i * v[2], 0))
            return -1;
    return 0;
}

/* ---- converters: one per type of value (exp_field_type_t) ---- */

/* What is wrong with a value, for the message "FILE:LINE: ... (got 'GOT')". */
typedef struct bad_value {
    enum {
        BAD_MUST,  /* "NAME must be MUST": out of the key's range, or not of its type */
        BAD_NAMED, /* "NAME: WHY" */
        BAD_OWN    /* "WHY" */
    } form;
    const char *why;
    const char *got;  /* the whole value, or token */
    char token[256];  /* the offending token or element, when not the whole value */
    char text[160];   /* a why composed by the converter */
} bad_value_t;

/* Converters: store text as f's value in base (a sweep_t or experiment_t); 0, or -1 with
 * *bad filled in. */
typedef int (*converter_t)(const exp_field_t *f, const char *text, void *base,
                           bad_value_t *bad);

static int bad(bad_value_t *b, int form, const char *why, const char *got)
{
    b->form = form;
    b->why = why;
    b->got = got;
    return -1;
}

static int count_in_range(const exp_field_t *f, uint64_t x)
{
    return x >= f->min && x <= f->max;
}

static int real_in_range(const exp_field_t *f, double x)
{
    return (f->open & OPEN_LO ? x > f->lo : x >= f->lo) &&
           (f->open & OPEN_HI ? x < f->hi : x <= f->hi);
}

static int convert_text(const exp_field_t *f, const char *v, void *base, bad_value_t *b)
{
    (void)b;
    snprintf(field_at(base, f->offset), f->size, "%s", v);
    return 0;
}

static int convert_count(const exp_field_t *f, const char *v, void *base, bad_value_t *b)
{
    uint64_t x = 0;
    if (!(f->zero_word && strcmp(v, f->zero_word) == 0) &&
        (values_count(v, &x) || !count_in_range(f, x)))
        return bad(b, BAD_MUST, NULL, v);
    *(uint64_t *)field_at(base, f->offset) = x;
    return 0;
}

static int convert_real(const exp_field_t *f, const char *v, void *base, bad_value_t *b)
{
    double x;
    if (values_real(v, &x) || !real_in_range(f, x))
        return bad(b, BAD_MUST, NULL, v);
    *(double *)field_at(base, f->offset) = x;
    return 0;
}

/* FT_COUNT_LIST and FT_REAL_LIST: the whole list parses, then each value is in range. */
static int convert_list(const exp_field_t *f, const char *v, void *base, bad_value_t *b)
{
    int integer = f->type == FT_COUNT_LIST;
    list_ctx_t lc = {.integer = integer, .dv = field_at(base, f->offset),
                     .uv = field_at(base, f->offset)};
    if (each_token(v, list_token, &lc) || lc.n == 0) {
        snprintf(b->token, sizeof b->token, "%s", lc.bad);
        return bad(b, BAD_NAMED, lc.why ? lc.why : lc.n ? "value too long"
                                                         : "needs at least one value",
                   lc.why ? b->token : v);
    }
    for (size_t i = 0; i < lc.n; i++) {
        if (integer ? count_in_range(f, lc.uv[i]) : real_in_range(f, lc.dv[i]))
            continue;
        if (integer)
            snprintf(b->token, sizeof b->token, "%llu", (unsigned long long)lc.uv[i]);
        else
            snprintf(b->token, sizeof b->token, "%g", lc.dv[i]);
        return bad(b, BAD_MUST, NULL, b->token);
    }
    *(size_t *)field_at(base, f->offset2) = lc.n;
    return 0;
}

static int convert_choice(const exp_field_t *f, const char *v, void *base, bad_value_t *b)
{
    for (int i = 0; f->words[i]; i++)
        if (strcmp(v, f->words[i]) == 0) {
            *(int *)field_at(base, f->offset) = i;
            return 0;
        }
    return bad(b, BAD_MUST, NULL, v);
}

static int convert_k_rule(const exp_field_t *f, const char *v, void *base, bad_value_t *b)
{
    k_rule_t *rule = field_at(base, f->offset);
    uint64_t k;
    if (strcmp(v, "optimal") == 0) {
        *rule = K_OPTIMAL;
    } else if (strcmp(v, "ceil") == 0) {
        *rule = K_CEIL;
    } else if (values_count(v, &k) == 0 && count_in_range(f, k)) {
        *rule = K_FIXED;
        *(unsigned *)field_at(base, f->offset2) = (unsigned)k;
    } else {
        return bad(b, BAD_MUST, NULL, v);
    }
    return 0;
}

/* A list of distinct names, each resolved by find into a table entry (schemes,
 * libraries): what each kind says when a name is unknown, repeated or one too many. */
typedef struct names_kind {
    const void *(*find)(const char *name);
    const char *unknown, *twice, *many, *none;
    size_t max; /* the most names a list holds */
} names_kind_t;

typedef struct names_ctx {
    const names_kind_t *kind;
    const void *list[EXP_MAX_LIBRARIES];
    size_t n;
    char bad[256];
    const char *why;
} names_ctx_t;

static int name_token(void *ctx, const char *tok)
{
    names_ctx_t *nc = ctx;
    snprintf(nc->bad, sizeof nc->bad, "%s", tok);
    const void *e = nc->kind->find(tok);
    if (!e) {
        nc->why = nc->kind->unknown;
        return -1;
    }
    for (size_t i = 0; i < nc->n; i++)
        if (nc->list[i] == e) {
            nc->why = nc->kind->twice;
            return -1;
        }
    if (nc->n >= nc->kind->max) {
        nc->why = nc->kind->many;
        return -1;
    }
    nc->list[nc->n++] = e;
    return 0;
}

/* The names of v into nc->list, their number (at least one) at f->offset2; the caller
 * stores the entries, each converted back to its own type, at f->offset. */
static int convert_names(names_ctx_t *nc, const exp_field_t *f, const char *v, void *base,
                         bad_value_t *b)
{
    if (each_token(v, name_token, nc) || nc->n == 0) {
        snprintf(b->token, sizeof b->token, "%s", nc->bad);
        return bad(b, BAD_NAMED, nc->why ? nc->why : nc->kind->none, nc->why ? b->token : v);
    }
    *(size_t *)field_at(base, f->offset2) = nc->n;
    return 0;
}

static const void *find_scheme(const char *name) { return scheme_find(name); }
static const void *find_library(const char *name) { return library_find(name); }
static const void *find_fingerprint(const char *name) { return fp_filter_find(name); }

static int convert_schemes(const exp_field_t *f, const char *v, void *base, bad_value_t *b)
{
    static const names_kind_t schemes = {find_scheme,
        "unknown scheme (bloomsim list shows them)", "scheme listed twice",
        "too many schemes", "needs at least one scheme", EXP_MAX_SCHEMES};
    names_ctx_t nc = {.kind = &schemes};
    if (convert_names(&nc, f, v, base, b))
        return -1;
    const scheme_t **list = field_at(base, f->offset);
    for (size_t i = 0; i < nc.n; i++)
        list[i] = nc.list[i];
    return 0;
}

static int convert_libraries(const exp_field_t *f, const char *v, void *base, bad_value_t *b)
{
    static const names_kind_t libraries = {find_library,
        "unknown library (bloomsim audit --list shows them)", "library listed twice",
        "too many libraries", "needs at least one library", EXP_MAX_LIBRARIES};
    names_ctx_t nc = {.kind = &libraries};
    if (convert_names(&nc, f, v, base, b))
        return -1;
    const library_t **list = field_at(base, f->offset);
    for (size_t i = 0; i < nc.n; i++)
        list[i] = nc.list[i];
    return 0;
}

static int convert_fingerprints(const exp_field_t *f, const char *v, void *base,
                                bad_value_t *b)
{
    static const names_kind_t kinds = {find_fingerprint,
        "unknown fingerprint filter (bloomsim list shows them)", "filter listed twice",
        "too many filters", "needs at least one filter", EXP_MAX_SCHEMES};
    names_ctx_t nc = {.kind = &kinds};
    if (convert_names(&nc, f, v, base, b))
        return -1;
    const fp_filter_t **list = field_at(base, f->offset);
    for (size_t i = 0; i < nc.n; i++)
        list[i] = nc.list[i];
    return 0;
}

static const void *find_key_set(const char *name) { return keyset_kind_find(name); }

static int convert_key_sets(const exp_field_t *f, const char *v, void *base, bad_value_t *b)
{
    const names_kind_t kinds = {find_key_set, keyset_unknown_message(), "key set listed twice",
        "too many key sets", "needs at least one key set", KEYSET_COUNT};
    names_ctx_t nc = {.kind = &kinds};
    if (convert_names(&nc, f, v, base, b))
        return -1;
    const keyset_kind_t **list = field_at(base, f->offset);
    for (size_t i = 0; i < nc.n; i++)
        list[i] = nc.list[i];
    return 0;
}

static const void *find_split(const char *name) { return split_find(name); }

static int convert_splits(const exp_field_t *f, const char *v, void *base, bad_value_t *b)
{
    char unknown[SPLIT_COUNT * 24 + 64];
    snprintf(unknown, sizeof unknown, "unknown split (%s)", split_names_list());
    const names_kind_t kinds = {find_split, unknown, "split listed twice", "too many splits",
        "needs at least one split", SPLIT_COUNT};
    names_ctx_t nc = {.kind = &kinds};
    if (convert_names(&nc, f, v, base, b))
        return -1;
    const split_t **list = field_at(base, f->offset);
    for (size_t i = 0; i < nc.n; i++)
        list[i] = nc.list[i];
    return 0;
}

/* A chain's field after its name: at f, "" (absent) or "/X..." with X up to the next
 * '/' empty (the library's own: *x untouched) or a number into *x. 0, or -1 malformed. */
static int chain_field(const char *f, double *x)
{
    if (*f != '/')
        return 0;
    size_t len = strcspn(f + 1, "/");
    if (len == 0)
        return 0;
    char num[64], extra;
    if (len >= sizeof num)
        return -1;
    snprintf(num, sizeof num, "%.*s", (int)len, f + 1);
    return sscanf(num, "%lf%c", x, &extra) == 1 ? 0 : -1;
}

/* first_capacity/growth/tightening, one or more, blank or comma separated. */
static int convert_stacks(const exp_field_t *f, const char *v, void *base, bad_value_t *b)
{
    exp_stack_t *stack = field_at(base, f->offset);
    size_t n = 0;
    char *tok = b->token;
    for (const char *p = v;;) {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        if (!*p)
            break;
        size_t len = strcspn(p, " \t,");
        snprintf(tok, 128, "%.*s", (int)(len < 127 ? len : 127), p);
        p += len;
        unsigned long long c0;
        double g, t;
        char extra;
        /* A library's chain: NAME, NAME/E or NAME/E/T (chain.h), E its expansion and T
         * its tightening, either empty for the library's own (NAME//T); its first
         * capacity the sweep's design_keys, its rate the design rate (the planner checks
         * the rest). */
        size_t nl = strcspn(tok, "/");
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)nl, tok);
        const library_chain_t *chain = chain_find(name);
        if (chain) {
            double e = chain->defaults.expansion, t = chain->defaults.tightening;
            const char *fe = tok + nl;                                  /* "" or "/E..." */
            const char *ft = *fe ? fe + 1 + strcspn(fe + 1, "/") : fe;  /* "" or "/T..." */
            const char *rest = *ft ? ft + 1 + strcspn(ft + 1, "/") : ft;
            if (n == EXP_MAX_STACKS || chain_field(fe, &e) || chain_field(ft, &t) || *rest)
                return bad(b, BAD_MUST, NULL, tok);
            if (!chain->has_expansion && e != chain->defaults.expansion)
                return bad(b, BAD_OWN, "this chain's library takes no expansion (leave it "
                                       "empty: NAME//T)", tok);
            if (!(t > 0 && t < 1))
                return bad(b, BAD_OWN, "chain tightening must be strictly between 0 and 1", tok);
            if (!chain->has_tightening && t != chain->defaults.tightening)
                return bad(b, BAD_OWN, "this chain's library takes no tightening", tok);
            stack[n++] = (exp_stack_t){0, e, t, chain, 0};
            continue;
        }
        if (tok[strspn(tok, "0123456789./eE+")] != '\0' || strchr(tok, '/') == tok ||
            n == EXP_MAX_STACKS)
            return bad(b, BAD_MUST, NULL, tok);
        double r0 = 0; /* the first layer's rate; 0: the design rate */
        int got = sscanf(tok, "%llu/%lf/%lf/%lf%c", &c0, &g, &t, &r0, &extra);
        if ((got != 3 && got != 4) || c0 == 0)
            return bad(b, BAD_MUST, NULL, tok);
        if (got == 4 && !(r0 > 0 && r0 < 1))
            return bad(b, BAD_OWN, "stack first_rate must be strictly between 0 and 1", tok);
        if (!(g >= 1))
            return bad(b, BAD_OWN, "stack growth must be >= 1", tok);
        if (!(t >= 1e-6 && t < 1))
            return bad(b, BAD_OWN, "stack tightening must be from 1e-6 to below 1", tok);
        stack[n++] = (exp_stack_t){c0, g, t, NULL, r0};
    }
    if (n == 0)
        return bad(b, BAD_OWN, "stack needs at least one first_capacity/growth/tightening", v);
    *(size_t *)field_at(base, f->offset2) = n;
    return 0;
}

static int convert_sizing(const exp_field_t *f, const char *v, void *base, bad_value_t *b)
{
    const sizing_rule_t *rule = sizing_find(v);
    if (!rule)
        return bad(b, BAD_MUST, NULL, v);
    *(const sizing_rule_t **)field_at(base, f->offset) = rule;
    return 0;
}

/* The estimator, by its name in the registry (estimator.h), or auto. Not given: index 0,
 * lookups. */
static int convert_estimator(const exp_field_t *f, const char *v, void *base, bad_value_t *b)
{
    int *e = field_at(base, f->offset);
    if (strcmp(v, "auto") == 0) {
        *e = EXP_ESTIMATOR_AUTO;
        return 0;
    }
    if ((*e = est_find(v)) >= 0)
        return 0;
    /* "expected lookups, conditional or auto": the registry's names. */
    size_t at = (size_t)snprintf(b->text, sizeof b->text, "unknown estimator; expected");
    for (size_t i = 0; i < est_count() && at < sizeof b->text; i++)
        at += (size_t)snprintf(b->text + at, sizeof b->text - at, " %s,", est_at(i)->name);
    if (at < sizeof b->text)
        snprintf(b->text + at - 1, sizeof b->text - (at - 1), " or auto");
    return bad(b, BAD_OWN, b->text, v);
}

static const converter_t converters[FT_NTYPES] = {
    [FT_TEXT] = convert_text, [FT_COUNT] = convert_count, [FT_COUNT_LIST] = convert_list,
    [FT_REAL] = convert_real, [FT_REAL_LIST] = convert_list, [FT_CHOICE] = convert_choice,
    [FT_K_RULE] = convert_k_rule, [FT_SCHEMES] = convert_schemes,
    [FT_STACKS] = convert_stacks, [FT_SIZING] = convert_sizing,
    [FT_ESTIMATOR] = convert_estimator, [FT_LIBRARIES] = convert_libraries,
    [FT_FINGERPRINTS] = convert_fingerprints,
    [FT_KEY_SETS] = convert_key_sets, [FT_SPLITS] = convert_splits,
};

/* A key no longer given: its value back to 0 (a list or set to no entries; a sizing rule
 * back to the default, calculateparams). */
static void field_clear(const exp_field_t *f, void *base)
{
    int listed = f->type == FT_COUNT_LIST || f->type == FT_REAL_LIST ||
                 f->type == FT_SCHEMES || f->type == FT_STACKS || f->type == FT_LIBRARIES ||
                 f->type == FT_FINGERPRINTS || f->type == FT_KEY_SETS ||
                 f->type == FT_SPLITS;
    if (listed)
        *(size_t *)field_at(base, f->offset2) = 0;
    else if (f->type == FT_SIZING)
        *(const sizing_rule_t **)field_at(base, f->offset) = &sizing_calculateparams;
    else
        memset(field_at(base, f->offset), 0, f->size);
}

/* Convert the values given in one section (IN_*) into base, in table order. In a sweep,
 * note each key's line; a key clears those it excludes, so that [quick] can give keys
 * where [sweep] gave bits_per_key. Returns 0, or -1 with the message set. */
int exp_convert_section(parse_state_t *ps, unsigned section, void *base,
                           const raw_value_t *raw)
{
    for (size_t i = 0; i < NFIELDS; i++) {
        const exp_field_t *f = &fields[i];
        const raw_value_t *rv = &raw[f->key];
        if (!(f->sections & section) || rv->line == 0)
            continue;
        bad_value_t b = {0};
        if (converters[f->type](f, rv->text, base, &b)) {
            if (b.form == BAD_MUST)
                exp_fail_at(ps, rv->line, "%s must be %s (got '%s')", f->name, f->must, b.got);
            else if (b.form == BAD_NAMED)
                exp_fail_at(ps, rv->line, "%s: %s (got '%s')", f->name, b.why, b.got);
            else
                exp_fail_at(ps, rv->line, "%s (got '%s')", b.why, b.got);
            return -1;
        }
        if (section == IN_EXPERIMENT)
            continue;
        sweep_t *sw = base;
        sw->line[f->key] = rv->line;
        for (size_t j = 0; j < NFIELDS; j++)
            if (f->excludes & EXP_KEY_BIT(fields[j].key)) {
                field_clear(&fields[j], sw);
                sw->line[fields[j].key] = 0;
            }
    }
    return 0;
}

/* Values of the keys not given in a section (IN_*): dflt, or 0. */
void exp_set_defaults(unsigned section, void *base)
{
    for (size_t i = 0; i < NFIELDS; i++)
        if ((fields[i].sections & section) && fields[i].type == FT_COUNT)
            *(uint64_t *)field_at(base, fields[i].offset) = fields[i].dflt;
}

/* The first key (in table order) given at line[] that a sweep of kind (SW_*) does not
 * take, or NULL. */
const exp_field_t *exp_misfit(unsigned kind, const unsigned line[F_NFIELDS])
{
    for (size_t i = 0; i < NFIELDS; i++)
        if ((fields[i].sections & IN_SWEEP) && line[fields[i].key] &&
            !(fields[i].sweeps & kind))
            return &fields[i];
    return NULL;
}

/* Refuse two keys of one section that exclude each other; reported at the later one in
 * table order. Returns 0, or -1 with the message set. */
int exp_check_excludes(parse_state_t *ps, const raw_value_t *raw)
{
    for (size_t i = 0; i < NFIELDS; i++)
        for (size_t j = 0; j < i; j++)
            if ((fields[j].excludes & EXP_KEY_BIT(fields[i].key)) &&
                raw[fields[i].key].line && raw[fields[j].key].line) {
                exp_fail_at(ps, raw[fields[i].key].line, "give %s or %s, not both (got '%s = "
                        "%s')", fields[j].name, fields[i].name, fields[i].name,
                        raw[fields[i].key].text);
                return -1;
            }
    return 0;
}
