/* experiment.c - parse experiment files and expand them into rows (experiment.h).
 *
 * inih does the INI syntax. Debian's inih (r55) passes no line numbers to handlers and
 * reads lines of at most 200 bytes, so the file is read whole, served to inih line by
 * line from memory by a reader that counts lines and refuses longer ones. Values are
 * stored raw with their line (continuation lines appended) and converted only once the
 * whole file is read, so every message can name the line of the key at fault.
 */
#include "experiment.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#include "cond.h"

#define RAW_LEN 4096
/* Counts past these are typing errors, and would overflow the arithmetic on them. */
#define COUNT_MAX (UINT64_C(1) << 40)
#define LOOKUPS_MAX (UINT64_C(1) << 56)
#define INI_LINE_MAX 200 /* inih's INI_MAX_LINE as built by Debian */

enum { S_NONE, S_EXPERIMENT, S_SWEEP, S_QUICK, S_NSECTIONS };
enum { X_TITLE = F_NFIELDS, X_DESCRIPTION, X_SEED, X_NKEYS };

static const char *const key_names[X_NKEYS] = {
    [F_BITS] = "bits", [F_BPK] = "bits_per_key", [F_KEYS] = "keys", [F_K] = "k",
    [F_SCHEMES] = "schemes", [F_ESTIMATOR] = "estimator", [F_FILTERS] = "filters",
    [F_LOOKUPS] = "lookups", [F_STRIDES] = "strides",
    [F_PRECISION] = "precision", [F_MAX_FILTERS] = "max_filters",
    [F_DESIGN_KEYS] = "design_keys", [F_DESIGN_RATE] = "design_rate", [F_SIZING] = "sizing",
    [F_LOAD] = "load", [F_INSERTED] = "inserted", [F_STACK] = "stack", [F_SINGLE] = "single",
    [X_TITLE] = "title", [X_DESCRIPTION] = "description",
    [X_SEED] = "seed",
};

typedef struct raw_value {
    char text[RAW_LEN];
    unsigned line; /* 0: not given */
} raw_value_t;

typedef struct parse_state {
    const char *path;
    char *buf;            /* the whole file */
    size_t len, pos;
    unsigned line;        /* line most recently served to inih */
    int section;          /* kind of section of that line (S_*) */
    int prev_header;      /* kind of the section header before the current one */
    size_t slot;          /* its values: raw[0] is [experiment], raw[1 + 2i] the i-th
                           * [sweep], raw[2 + 2i] the [quick] that follows it */
    int indented;         /* that line starts with a blank: a continuation line */
    unsigned experiment_line;
    unsigned sweep_line[EXP_MAX_SWEEPS], quick_line[EXP_MAX_SWEEPS];
    size_t nsweeps;
    int last_key;         /* key of the previous handler call, for continuation lines */
    raw_value_t *raw[1 + 2 * EXP_MAX_SWEEPS]; /* X_NKEYS values each, as sections appear */
    char *err;
    size_t errlen;
    unsigned err_line;    /* line of the first error recorded, 0 if none */
} parse_state_t;

static int fail_at(parse_state_t *ps, unsigned line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Record the first error only: inih keeps going after a handler fails. */
static int fail_at(parse_state_t *ps, unsigned line, const char *fmt, ...)
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

/* The values of a section that is absent: none given. */
static const raw_value_t no_values[X_NKEYS];

/* Make slot the one that takes the next keys, allocating its values. Returns 0, or -1
 * (out of memory, reported) with the section marked unknown. */
static int use_slot(parse_state_t *ps, size_t slot)
{
    if (!ps->raw[slot] && !(ps->raw[slot] = calloc(X_NKEYS, sizeof(raw_value_t)))) {
        fail_at(ps, ps->line, "out of memory for this section (got '%s')", "it");
        ps->section = S_NONE;
        return -1;
    }
    ps->slot = slot;
    return 0;
}

static const char *skip_space(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* inih reader: the next line of the in-memory file, noting its number and section. */
static char *reader(char *str, int num, void *stream)
{
    parse_state_t *ps = stream;
    if (ps->pos >= ps->len)
        return NULL;
    const char *start = ps->buf + ps->pos;
    const char *nl = memchr(start, '\n', ps->len - ps->pos);
    size_t n = nl ? (size_t)(nl - start) + 1 : ps->len - ps->pos;
    ps->pos += n;
    ps->line++;
    if (n >= (size_t)num || n >= INI_LINE_MAX) {
        fail_at(ps, ps->line, "line longer than %d characters (continue a value on an "
                              "indented next line)", INI_LINE_MAX - 2);
        str[0] = '\n'; /* hand inih an empty line instead */
        str[1] = '\0';
        return str;
    }
    memcpy(str, start, n);
    str[n] = '\0';
    const char *t = str;
    if (ps->line == 1 && n >= 3 && memcmp(t, "\xEF\xBB\xBF", 3) == 0)
        t += 3; /* UTF-8 byte order mark; inih skips it too */
    t = skip_space(t);
    ps->indented = (*str == ' ' || *str == '\t');
    if (*t == '[') {
        static const char *const names[S_NSECTIONS] = {"", "experiment", "sweep", "quick"};
        const char *end = strchr(t, ']');
        size_t len = end ? (size_t)(end - t - 1) : 0;
        int prev = ps->prev_header;
        ps->section = S_NONE;
        for (int s = S_EXPERIMENT; s < S_NSECTIONS; s++)
            if (end && strlen(names[s]) == len && strncmp(t + 1, names[s], len) == 0)
                ps->section = s;
        if (ps->section == S_NONE) {
            char name[64];
            snprintf(name, sizeof name, "%.*s", end ? (int)len : (int)strcspn(t, "\r\n"),
                     end ? t + 1 : t);
            fail_at(ps, ps->line, "unknown section; expected [experiment], [sweep] or "
                                  "[quick] (got '%s')", name);
        } else if (ps->section == S_EXPERIMENT) {
            if (ps->experiment_line)
                fail_at(ps, ps->line, "section given twice (got '[experiment]')");
            ps->experiment_line = ps->line;
            use_slot(ps, 0);
        } else if (ps->section == S_SWEEP) {
            if (ps->nsweeps == EXP_MAX_SWEEPS) {
                fail_at(ps, ps->line, "at most %d [sweep] sections (got another)",
                        EXP_MAX_SWEEPS);
                ps->section = S_NONE;
            } else {
                ps->sweep_line[ps->nsweeps] = ps->line;
                if (use_slot(ps, 1 + 2 * ps->nsweeps) == 0)
                    ps->nsweeps++;
            }
        } else if (ps->nsweeps == 0 || prev == S_EXPERIMENT) {
            fail_at(ps, ps->line, "[quick] must follow the [sweep] it scales down (got "
                    "'[quick]' %s)", ps->nsweeps ? "after [experiment]" : "first");
            ps->section = S_NONE;
        } else if (ps->quick_line[ps->nsweeps - 1]) {
            fail_at(ps, ps->line, "section given twice for the [sweep] at line %u (got "
                    "'[quick]')", ps->sweep_line[ps->nsweeps - 1]);
        } else {
            ps->quick_line[ps->nsweeps - 1] = ps->line;
            use_slot(ps, 2 * ps->nsweeps);
        }
        ps->prev_header = ps->section;
        ps->last_key = -1;
    }
    return str;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
    parse_state_t *ps = user;
    (void)section; /* the reader tracked it, with unknown ones already reported */
    if (ps->section == S_NONE)
        return ps->err_line == ps->line ? 0 :
               fail_at(ps, ps->line, "key outside any section (got '%s')", name);
    int first = ps->section == S_EXPERIMENT ? X_TITLE : 0;
    int last = ps->section == S_EXPERIMENT ? X_NKEYS : F_NFIELDS;
    int key = -1;
    for (int i = first; i < last; i++)
        if (strcmp(name, key_names[i]) == 0)
            key = i;
    if (key < 0)
        return fail_at(ps, ps->line, "unknown key in [%s] (got '%s')",
                       ps->section == S_EXPERIMENT ? "experiment" :
                       ps->section == S_SWEEP ? "sweep" : "quick", name);
    raw_value_t *rv = &ps->raw[ps->slot][key];
    /* inih reports an indented line after a key as a continuation of that key. */
    int continuation = key == ps->last_key && ps->indented && rv->line != 0;
    if (rv->line != 0 && !continuation)
        return fail_at(ps, ps->line, "key given twice, first at line %u (got '%s')",
                       rv->line, name);
    if (continuation) {
        /* inih strips inline comments only on key lines; do it for continuations too. */
        char cont[RAW_LEN];
        snprintf(cont, sizeof cont, "%s", value);
        for (char *c = cont; *c; c++)
            if (*c == ';' && (c == cont || c[-1] == ' ' || c[-1] == '\t')) {
                *c = '\0';
                break;
            }
        for (size_t l = strlen(cont); l > 0 && (cont[l - 1] == ' ' || cont[l - 1] == '\t');)
            cont[--l] = '\0';
        value = cont;
        size_t used = strlen(rv->text);
        if (used + 1 + strlen(value) >= RAW_LEN)
            return fail_at(ps, ps->line, "value too long (got '%s')", name);
        rv->text[used] = ' ';
        strcpy(rv->text + used + 1, value);
    } else {
        if (strlen(value) >= RAW_LEN)
            return fail_at(ps, ps->line, "value too long (got '%s')", name);
        strcpy(rv->text, value);
        rv->line = ps->line;
    }
    ps->last_key = key;
    return 1;
}

/* ---- value conversion ---- */

/* A count: digits (with optional _ separators), or an exact integer in scientific form
 * such as 2e8. Returns 0 or -1. */
static int parse_u64(const char *s, uint64_t *out)
{
    char digits[64];
    size_t nd = 0;
    s = skip_space(s);
    if (*s == '\0')
        return -1;
    int plain = 1;
    for (const char *p = s; *p; p++) {
        if (*p >= '0' && *p <= '9') {
            if (nd + 1 >= sizeof digits)
                return -1;
            digits[nd++] = *p;
        } else if (*p != '_') {
            plain = 0;
            break;
        }
    }
    if (plain) {
        if (nd == 0)
            return -1;
        digits[nd] = '\0';
        errno = 0;
        unsigned long long v = strtoull(digits, NULL, 10);
        if (errno == ERANGE)
            return -1;
        *out = v;
        return 0;
    }
    char *end;
    errno = 0;
    double d = strtod(s, &end);
    if (errno || *skip_space(end) != '\0' || !(d >= 0) || d > 9007199254740992.0 ||
        d != floor(d))
        return -1;
    *out = (uint64_t)d;
    return 0;
}

static int parse_double(const char *s, double *out)
{
    if (strpbrk(s, "xXpP")) /* no hexadecimal floats: 0x10 is a typing error here */
        return -1;
    char *end;
    errno = 0;
    double d = strtod(s, &end);
    if (end == s || errno || *skip_space(end) != '\0' || !isfinite(d))
        return -1;
    *out = d;
    return 0;
}

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
            if (parse_u64(part[i], &v[i])) {
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
        if (parse_double(part[i], &v[i])) {
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

typedef struct scheme_ctx {
    sweep_t *sw;
    char bad[256];
    const char *why;
} scheme_ctx_t;

static int scheme_token(void *ctx, const char *tok)
{
    scheme_ctx_t *sc = ctx;
    snprintf(sc->bad, sizeof sc->bad, "%s", tok);
    const scheme_t *s = scheme_find(tok);
    if (!s) {
        sc->why = "unknown scheme (bloomsim list shows them)";
        return -1;
    }
    for (size_t i = 0; i < sc->sw->nschemes; i++)
        if (sc->sw->schemes[i] == s) {
            sc->why = "scheme listed twice";
            return -1;
        }
    if (sc->sw->nschemes >= EXP_MAX_SCHEMES) {
        sc->why = "too many schemes";
        return -1;
    }
    sc->sw->schemes[sc->sw->nschemes++] = s;
    return 0;
}

/* Convert one raw [sweep]/[quick] value into the sweep; 0 or -1 with the message set. */
static int set_field(parse_state_t *ps, sweep_t *sw, int f, const raw_value_t *rv)
{
    const char *v = rv->text;
    unsigned line = rv->line;
    sw->line[f] = line;
    switch (f) {
    case F_BITS:
    case F_BPK: {
        list_ctx_t lc = {.integer = f == F_BITS, .dv = sw->bpk, .uv = sw->bits};
        if (each_token(v, list_token, &lc) || lc.n == 0)
            return fail_at(ps, line, "%s: %s (got '%s')", key_names[f],
                           lc.n == 0 && !lc.why ? "needs at least one value" :
                           lc.why ? lc.why : "value too long", lc.why ? lc.bad : v), -1;
        for (size_t i = 0; i < lc.n; i++) {
            if (f == F_BITS && (lc.uv[i] < 2 || lc.uv[i] > (UINT64_C(1) << 40)))
                return fail_at(ps, line, "bits must be between 2 and 2^40 (got '%llu')",
                               (unsigned long long)lc.uv[i]), -1;
            if (f == F_BPK && !(lc.dv[i] > 0))
                return fail_at(ps, line, "bits_per_key must be > 0 (got '%g')",
                               lc.dv[i]), -1;
        }
        if (f == F_BITS)
            sw->nbits = lc.n;
        else
            sw->nbpk = lc.n, sw->keys = 0, sw->line[F_KEYS] = 0;
        return 0;
    }
    case F_KEYS:
        if (parse_u64(v, &sw->keys) || sw->keys == 0)
            return fail_at(ps, line, "keys must be a whole number >= 1 (got '%s')", v), -1;
        sw->nbpk = 0, sw->line[F_BPK] = 0;
        return 0;
    case F_K: {
        uint64_t k;
        if (strcmp(v, "optimal") == 0)
            sw->k_rule = K_OPTIMAL;
        else if (strcmp(v, "ceil") == 0)
            sw->k_rule = K_CEIL;
        else if (parse_u64(v, &k) == 0 && k >= 1 && k <= 1000)
            sw->k_rule = K_FIXED, sw->k = (unsigned)k;
        else
            return fail_at(ps, line, "k must be optimal, ceil or a whole number from 1 to "
                                     "1000 (got '%s')", v), -1;
        return 0;
    }
    case F_SCHEMES: {
        scheme_ctx_t sc = {.sw = sw};
        sw->nschemes = 0;
        if (each_token(v, scheme_token, &sc) || sw->nschemes == 0)
            return fail_at(ps, line, "schemes: %s (got '%s')",
                           sc.why ? sc.why : "needs at least one scheme",
                           sc.why ? sc.bad : v), -1;
        return 0;
    }
    case F_ESTIMATOR:
        for (int e = EST_LOOKUPS; e <= EST_AUTO; e++)
            if (strcmp(v, experiment_estimator_name((estimator_t)e)) == 0) {
                sw->estimator = (estimator_t)e;
                return 0;
            }
        return fail_at(ps, line, "unknown estimator; expected lookups, conditional or auto "
                                 "(got '%s')", v), -1;
    case F_STRIDES:
        if (strcmp(v, "all") == 0)
            sw->strides = 0;
        else if (parse_u64(v, &sw->strides) || sw->strides == 0)
            return fail_at(ps, line, "strides must be all or a whole number >= 1 (got '%s')",
                           v), -1;
        return 0;
    case F_PRECISION:
        if (parse_double(v, &sw->precision) || !(sw->precision >= 0 && sw->precision < 1))
            return fail_at(ps, line, "precision must be a relative standard error from 0 (off) "
                                     "to below 1, e.g. 0.01 (got '%s')", v), -1;
        return 0;
    case F_MAX_FILTERS:
        if (parse_u64(v, &sw->max_filters) || sw->max_filters < 2 ||
            sw->max_filters > COUNT_MAX)
            return fail_at(ps, line, "max_filters must be a whole number from 2 to 2^40 (got "
                                     "'%s')", v), -1;
        return 0;
    case F_DESIGN_KEYS:
        if (parse_u64(v, &sw->design_keys) || sw->design_keys == 0)
            return fail_at(ps, line, "design_keys must be a whole number >= 1 (got '%s')", v), -1;
        return 0;
    case F_DESIGN_RATE:
    case F_LOAD: {
        double *dst = f == F_LOAD ? sw->load : sw->design_rate;
        list_ctx_t lc = {.integer = 0, .dv = dst};
        if (each_token(v, list_token, &lc) || lc.n == 0)
            return fail_at(ps, line, "%s: %s (got '%s')", key_names[f],
                           lc.why ? lc.why : "needs at least one value", lc.why ? lc.bad : v), -1;
        for (size_t i = 0; i < lc.n; i++) {
            if (f == F_DESIGN_RATE && !(dst[i] > 0 && dst[i] < 1))
                return fail_at(ps, line, "design_rate must be strictly between 0 and 1 (got "
                                         "'%g')", dst[i]), -1;
            if (f == F_LOAD && !(dst[i] > 0))
                return fail_at(ps, line, "load must be > 0 (got '%g')", dst[i]), -1;
        }
        if (f == F_LOAD)
            sw->nload = lc.n, sw->ninserted = 0, sw->line[F_INSERTED] = 0;
        else
            sw->ndesign_rate = lc.n;
        return 0;
    }
    case F_INSERTED: {
        list_ctx_t lc = {.integer = 1, .uv = sw->inserted};
        if (each_token(v, list_token, &lc) || lc.n == 0)
            return fail_at(ps, line, "inserted: %s (got '%s')",
                           lc.why ? lc.why : "needs at least one value", lc.why ? lc.bad : v), -1;
        for (size_t i = 0; i < lc.n; i++)
            if (sw->inserted[i] == 0)
                return fail_at(ps, line, "inserted must be >= 1 (got '0')"), -1;
        sw->ninserted = lc.n, sw->nload = 0, sw->line[F_LOAD] = 0;
        return 0;
    }
    case F_SIZING:
        if (sizing_rule_parse(v, &sw->sizing))
            return fail_at(ps, line, "sizing must be calculateparams or guava (got '%s')", v), -1;
        return 0;
    case F_STACK: {
        /* first_capacity/growth/tightening, one or more, blank separated */
        sw->nstacks = 0;
        const char *p = v;
        for (;;) {
            while (*p == ' ' || *p == '\t' || *p == ',')
                p++;
            if (!*p)
                break;
            size_t n = strcspn(p, " \t,");
            char tok[128];
            snprintf(tok, sizeof tok, "%.*s", (int)(n < 127 ? n : 127), p);
            p += n;
            unsigned long long c0;
            double g, t;
            char extra;
            if (tok[strspn(tok, "0123456789./eE+")] != '\0' || strchr(tok, '/') == tok ||
                sw->nstacks == EXP_MAX_STACKS ||
                sscanf(tok, "%llu/%lf/%lf%c", &c0, &g, &t, &extra) != 3 || c0 == 0)
                return fail_at(ps, line, "stack must be first_capacity/growth/tightening, e.g. "
                                         "500/2/0.5, at most 8 of them (got '%s')", tok), -1;
            if (!(g >= 1))
                return fail_at(ps, line, "stack growth must be >= 1 (got '%s')", tok), -1;
            if (!(t >= 1e-6 && t < 1))
                return fail_at(ps, line, "stack tightening must be from 1e-6 to below 1 "
                                         "(got '%s')", tok), -1;
            sw->stack[sw->nstacks++] = (exp_stack_t){c0, g, t};
        }
        if (sw->nstacks == 0)
            return fail_at(ps, line, "stack needs at least one first_capacity/growth/tightening "
                                     "(got '%s')", v), -1;
        return 0;
    }
    case F_SINGLE:
        if (strcmp(v, "yes") == 0)
            sw->single = 1;
        else if (strcmp(v, "no") == 0)
            sw->single = 0;
        else
            return fail_at(ps, line, "single must be yes or no (got '%s')", v), -1;
        return 0;
    case F_FILTERS:
        if (parse_u64(v, &sw->filters) || sw->filters < 2 || sw->filters > COUNT_MAX)
            return fail_at(ps, line, "filters must be a whole number from 2 (to estimate the "
                                     "between-filter spread) to 2^40 (got '%s')", v), -1;
        return 0;
    case F_LOOKUPS:
        if (parse_u64(v, &sw->lookups) || sw->lookups == 0 || sw->lookups > LOOKUPS_MAX)
            return fail_at(ps, line, "lookups must be a whole number from 1 to 2^56 (got '%s')",
                           v), -1;
        return 0;
    }
    return -1;
}

/* The whole file, NUL-terminated (messages quote lines with string functions). */
static int read_file(const char *path, char **buf, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t cap = 4096, n = 0;
    char *b = malloc(cap);
    while (b) {
        n += fread(b + n, 1, cap - 1 - n, f);
        if (n < cap - 1)
            break;
        if (cap >= ((size_t)1 << 24)) { /* 16 MiB: no experiment file is that big */
            free(b);
            b = NULL;
            break;
        }
        char *nb = realloc(b, cap *= 2);
        if (!nb)
            free(b);
        b = nb;
    }
    int bad = ferror(f);
    fclose(f);
    if (!b || bad) {
        free(b);
        return -1;
    }
    b[n] = '\0';
    *buf = b;
    *len = n;
    return 0;
}

/* Parse the file's text in buf[0..len), with buf[len] == '\0' (taken over: freed here). */
static int load_text(const char *path, char *buf, size_t len, experiment_t *e, char *err,
                     size_t errlen);

int experiment_load(const char *path, experiment_t *e, char *err, size_t errlen)
{
    char *buf;
    size_t len;
    if (read_file(path, &buf, &len)) {
        memset(e, 0, sizeof *e);
        snprintf(err, errlen, "%s: cannot read experiment file: %s", path, strerror(errno));
        return 2;
    }
    return load_text(path, buf, len, e, err, errlen);
}

int experiment_load_text(const char *path, const char *text, size_t len, experiment_t *e,
                         char *err, size_t errlen)
{
    char *buf = malloc(len + 1);
    if (!buf) {
        snprintf(err, errlen, "%s: out of memory", path);
        return 2;
    }
    memcpy(buf, text, len);
    buf[len] = '\0';
    return load_text(path, buf, len, e, err, errlen);
}

/* Convert the w-th [sweep] and the [quick] after it into e->full[w] and e->quick[w].
 * Returns 0, or -1 with the message set. */
static int finish_sweep(parse_state_t *ps, experiment_t *e, size_t w)
{
    const raw_value_t *raw = ps->raw[1 + 2 * w];
    const raw_value_t *qraw = ps->raw[2 + 2 * w] ? ps->raw[2 + 2 * w] : no_values;
    e->sweep_line[w] = ps->sweep_line[w];

    /* [sweep], with defaults */
    sweep_t *sw = &e->full[w];
    sw->k_rule = K_OPTIMAL;
    sw->estimator = EST_LOOKUPS;
    sw->filters = 1000;
    sw->lookups = 10000000;
    sw->strides = 4096;
    sw->precision = 0;
    sw->max_filters = 0; /* default: 1000 times filters */
    for (int f = 0; f < F_NFIELDS; f++)
        if (raw[f].line && set_field(ps, sw, f, &raw[f]))
            return -1;
    if (!sw->line[F_SCHEMES]) {
        fail_at(ps, e->sweep_line[w], "[sweep] needs schemes (got 'nothing')");
        return -1;
    }
    if (sw->design_keys) {
        /* A design: m and k come from it; sizes and loads of plain sweeps do not apply. */
        static const int plain_only[] = {F_BITS, F_BPK, F_KEYS};
        for (size_t i = 0; i < 3; i++)
            if (sw->line[plain_only[i]]) {
                fail_at(ps, sw->line[plain_only[i]], "%s does not go with design_keys (got "
                        "'%s')", key_names[plain_only[i]], key_names[plain_only[i]]);
                return -1;
            }
        if (!sw->ndesign_rate) {
            fail_at(ps, sw->line[F_DESIGN_KEYS], "design_keys needs design_rate (got "
                    "'nothing')");
            return -1;
        }
        if (!sw->nload && !sw->ninserted)
            sw->load[0] = 1, sw->nload = 1; /* the design size itself */
        if (sw->line[F_K] && (sw->k_rule != K_FIXED || sw->nstacks)) {
            fail_at(ps, sw->line[F_K], "with design_keys, k must be a number and cannot go "
                    "with stack (each layer takes its rule's k) (got '%s')",
                    raw[F_K].text);
            return -1;
        }
    } else {
        static const int design_only[] = {F_DESIGN_RATE, F_SIZING, F_LOAD, F_INSERTED,
                                          F_STACK, F_SINGLE};
        for (size_t i = 0; i < 6; i++)
            if (sw->line[design_only[i]]) {
                fail_at(ps, sw->line[design_only[i]], "%s needs design_keys (got '%s')",
                        key_names[design_only[i]], key_names[design_only[i]]);
                return -1;
            }
        if (!sw->line[F_BITS]) {
            fail_at(ps, e->sweep_line[w], "[sweep] needs bits or design_keys (got 'nothing')");
            return -1;
        }
    }
    if (raw[F_BPK].line && raw[F_KEYS].line) {
        fail_at(ps, raw[F_KEYS].line, "give bits_per_key or keys, not both "
                "(got 'keys = %s')", raw[F_KEYS].text);
        return -1;
    }
    if (!sw->design_keys && !sw->nbpk && !sw->keys) {
        fail_at(ps, e->sweep_line[w], "[sweep] needs bits_per_key or keys (got '%s')",
                "neither");
        return -1;
    }

    /* [quick] overrides; without it, --quick caps filters and lookups. It may not turn a
     * plain sweep into a design or back: both scales must describe the same kind. */
    e->quick[w] = e->full[w];
    if (ps->quick_line[w]) {
        static const int plain_keys[] = {F_BITS, F_BPK, F_KEYS};
        static const int design_keys[] = {F_DESIGN_KEYS, F_DESIGN_RATE, F_SIZING, F_LOAD,
                                          F_INSERTED, F_STACK, F_SINGLE};
        const int *wrong = sw->design_keys ? plain_keys : design_keys;
        size_t nwrong = sw->design_keys ? 3 : 7;
        for (size_t i = 0; i < nwrong; i++)
            if (qraw[wrong[i]].line) {
                fail_at(ps, qraw[wrong[i]].line, "%s in [quick] %s (got '%s')",
                        key_names[wrong[i]], sw->design_keys ? "does not go with the design "
                        "in [sweep]" : "needs design_keys in [sweep]", key_names[wrong[i]]);
                return -1;
            }
        if (qraw[F_BPK].line && qraw[F_KEYS].line) {
            fail_at(ps, qraw[F_KEYS].line, "give bits_per_key or keys, not "
                    "both (got 'keys = %s')", qraw[F_KEYS].text);
            return -1;
        }
        for (int f = 0; f < F_NFIELDS; f++)
            if (qraw[f].line && set_field(ps, &e->quick[w], f, &qraw[f]))
                return -1;
    } else {
        if (e->quick[w].filters > 200)
            e->quick[w].filters = 200;
        if (e->quick[w].lookups > 2000000)
            e->quick[w].lookups = 2000000;
    }
    for (int q = 0; q < 2; q++) {
        const sweep_t *s = q ? &e->quick[w] : &e->full[w];
        if (s->max_filters && s->max_filters < s->filters) {
            fail_at(ps, s->line[F_MAX_FILTERS], "max_filters must be at least filters (got "
                    "'%llu' for %llu filters)", (unsigned long long)s->max_filters,
                    (unsigned long long)s->filters);
            return -1;
        }
        if (s->estimator != EST_CONDITIONAL && s->lookups < s->filters) {
            fail_at(ps, s->line[F_LOOKUPS] ? s->line[F_LOOKUPS] : s->line[F_FILTERS],
                    "lookups must be at least filters, one lookup per filter (got "
                    "'%llu' lookups for %llu filters)", (unsigned long long)s->lookups,
                    (unsigned long long)s->filters);
            return -1;
        }
    }
    return 0;
}

static int load_text(const char *path, char *buf, size_t len, experiment_t *e, char *err,
                     size_t errlen)
{
    parse_state_t *ps = calloc(1, sizeof *ps);
    if (!ps) {
        free(buf);
        snprintf(err, errlen, "%s: out of memory", path);
        return 2;
    }
    ps->buf = buf;
    ps->len = len;
    ps->path = path;
    ps->err = err;
    ps->errlen = errlen;
    ps->last_key = -1;
    memset(e, 0, sizeof *e);
    snprintf(e->path, sizeof e->path, "%s", path);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    snprintf(e->name, sizeof e->name, "%.*s",
             (int)(strlen(base) > 4 && strcmp(base + strlen(base) - 4, ".ini") == 0 ?
                   strlen(base) - 4 : strlen(base)), base);

    int rc = 2;
    e->file_hash = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < ps->len; i++)
        e->file_hash = (e->file_hash ^ (unsigned char)ps->buf[i]) * UINT64_C(0x100000001b3);
    int ini = ini_parse_stream(reader, ps, handler, ps);
    if (ini > 0 && (ps->err_line == 0 || (unsigned)ini < ps->err_line)) {
        /* inih's own syntax error: quote the line. */
        const char *s = ps->buf;
        for (int l = 1; l < ini && s; l++) {
            s = memchr(s, '\n', ps->len - (size_t)(s - ps->buf));
            s = s ? s + 1 : NULL;
        }
        int n = s ? (int)strcspn(s, "\r\n") : 0;
        snprintf(err, errlen, "%s:%d: not a section header or key = value line (got '%.*s')",
                 path, ini, n > 80 ? 80 : n, s ? s : "");
        goto out;
    }
    if (ps->err_line)
        goto out;

    /* [experiment] */
    const raw_value_t *x = ps->raw[0] ? ps->raw[0] : no_values;
    if (ps->nsweeps == 0) {
        snprintf(err, errlen, "%s:%u: missing [sweep] section (got '%s')", path, ps->line,
                 "end of file");
        goto out;
    }
    snprintf(e->title, sizeof e->title, "%s", x[X_TITLE].line ? x[X_TITLE].text : e->name);
    snprintf(e->description, sizeof e->description, "%s", x[X_DESCRIPTION].text);
    e->seed = 1;
    if (x[X_SEED].line) {
        if (parse_u64(x[X_SEED].text, &e->seed)) {
            fail_at(ps, x[X_SEED].line, "seed must be a whole number (got '%s')",
                    x[X_SEED].text);
            goto out;
        }
        e->seed_line = x[X_SEED].line;
    }
    e->nsweeps = ps->nsweeps;
    for (size_t i = 0; i < ps->nsweeps; i++)
        if (finish_sweep(ps, e, i))
            goto out;
    rc = 0;
out:
    for (size_t i = 0; i < sizeof ps->raw / sizeof ps->raw[0]; i++)
        free(ps->raw[i]);
    free(ps->buf);
    free(ps);
    return rc;
}

const char *experiment_estimator_name(estimator_t e)
{
    return e == EST_LOOKUPS ? "lookups" : e == EST_CONDITIONAL ? "conditional" : "auto";
}

unsigned experiment_k(k_rule_t rule, unsigned k, double b)
{
    double x = b * log(2.0);
    double r = rule == K_FIXED ? k : rule == K_CEIL ? ceil(x) : floor(x + 0.5);
    return r < 1 ? 1u : r > 1000 ? 1000u : (unsigned)r;
}

/* Fill the fields every row shares. */
static void row_common(exp_row_t *r, const sweep_t *s, const scheme_t *sc, int cond_ok)
{
    r->scheme = sc;
    r->estimator = s->estimator == EST_LOOKUPS || !cond_ok ? EST_LOOKUPS : EST_CONDITIONAL;
    r->filters = s->filters;
    r->lookups_per_filter = s->lookups / s->filters + (s->lookups % s->filters != 0);
    r->strides = s->strides;
    r->precision = s->precision;
    r->max_filters = s->max_filters ? s->max_filters
                                    : s->filters < COUNT_MAX / 1000 ? 1000 * s->filters
                                                                     : COUNT_MAX;
}

static int row_error(const experiment_t *e, unsigned line, char *err, size_t errlen,
                     const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int row_error(const experiment_t *e, unsigned line, char *err, size_t errlen,
                     const char *fmt, ...)
{
    char msg[EXP_ERR_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(err, errlen, "%s:%u: %s", e->path, line, msg);
    return 2;
}

/* Geometry of one (scheme, m, k), with the conditional estimator's applicability. */
static int row_geometry(const experiment_t *e, const sweep_t *s, const scheme_t *sc,
                        uint64_t m, unsigned k, uint64_t n, probe_geom_t *g, int *cond_ok,
                        char *err, size_t errlen)
{
    int st = sc->geometry(m, k, 0, g);
    if (st != SCHEME_OK)
        return row_error(e, st == SCHEME_EKBIG && s->line[F_K] ? s->line[F_K] :
                         s->line[F_SCHEMES], err, errlen, "scheme %s at bits = %llu, k = %u: "
                         "%s (got '%s')", sc->name, (unsigned long long)m, k,
                         scheme_strerror(st), st == SCHEME_EKBIG ? "k" : sc->name);
    *cond_ok = cond_supported(sc, g, n);
    if (s->estimator == EST_CONDITIONAL && !*cond_ok)
        return row_error(e, s->line[F_ESTIMATOR], err, errlen, "the conditional estimator "
                         "does not apply to scheme %s at bits = %llu (got 'conditional'; auto "
                         "falls back to lookups)", sc->name, (unsigned long long)m);
    return 0;
}

/* Rows of a design sweep: design rate, then load, then structure (the single designed
 * filter, then each stack), then scheme. */
static int design_rows(const experiment_t *e, const sweep_t *s, exp_row_t *r, char *err,
                       size_t errlen)
{
    size_t nl = s->nload ? s->nload : s->ninserted;
    size_t nstruct = (s->nstacks == 0 || s->single) + s->nstacks;
    size_t i = 0;
    for (size_t a = 0; a < s->ndesign_rate; a++) {
        double p = s->design_rate[a];
        uint64_t dm;
        unsigned dk;
        int st = sizing_design(s->sizing, s->design_keys, p, &dm, &dk);
        if (st != SIZING_OK) {
            return row_error(e, s->line[F_DESIGN_RATE], err, errlen, "design of %llu keys at "
                             "%g: %s (got '%g')", (unsigned long long)s->design_keys, p,
                             sizing_strerror(st), p);
        }
        if (s->k_rule == K_FIXED)
            dk = s->k;
        for (size_t c = 0; c < nl; c++) {
            double nd = s->nload ? floor(s->load[c] * (double)s->design_keys + 0.5)
                                 : (double)s->inserted[c];
            if (nd < 1 || nd > 1e12) {
                if (!s->nload)
                    return row_error(e, s->line[F_INSERTED], err, errlen, "inserted must be at "
                                     "most 10^12 keys (got '%.0f')", nd);
                return row_error(e, s->line[F_LOAD], err, errlen, "load %g gives %s keys "
                                 "(got '%g')", s->load[c], nd < 1 ? "no" : "too many",
                                 s->load[c]);
            }
            uint64_t n = (uint64_t)nd;
            for (size_t d = 0; d < nstruct; d++) {
                int is_stack = d >= nstruct - s->nstacks;
                const exp_stack_t *stk = is_stack ? &s->stack[d - (nstruct - s->nstacks)] : NULL;
                for (size_t q = 0; q < s->nschemes; q++, i++) {
                    exp_row_t *row = &r[i];
                    const scheme_t *sc = s->schemes[q];
                    int cond_ok = 1, ok = 0;
                    row->design_keys = s->design_keys;
                    row->design_rate = p;
                    row->design_m = dm;
                    row->n = n;
                    row->m_requested = dm;
                    if (!is_stack) {
                        row->structure = STRUCT_DESIGN;
                        if (row_geometry(e, s, sc, dm, dk, n, &row->geom, &cond_ok, err, errlen)) {
                            return 2;
                        }
                        row->bits_per_key = (double)row->geom.m / (double)n;
                    } else {
                        row->structure = STRUCT_STACK;
                        row->stack = *stk;
                        st = sizing_stack(s->sizing, stk->first_capacity, p, stk->growth,
                                          stk->tightening, n, row->layer, &row->nlayers);
                        unsigned k1;
                        if (st == SIZING_OK)
                            st = sizing_design(s->sizing, n, p, &row->single_bits, &k1);
                        if (st != SIZING_OK) {
                            return row_error(e, s->line[F_STACK], err, errlen, "stack %llu/%g/%g "
                                             "at %llu keys: %s (got '%llu/%g/%g')",
                                             (unsigned long long)stk->first_capacity,
                                             stk->growth, stk->tightening,
                                             (unsigned long long)n, sizing_strerror(st),
                                             (unsigned long long)stk->first_capacity,
                                             stk->growth, stk->tightening);
                        }
                        uint64_t total_bits = 0;
                        for (size_t j = 0; j < row->nlayers; j++) {
                            if (row_geometry(e, s, sc, row->layer[j].m, row->layer[j].k,
                                             row->layer[j].n, &row->layer_geom[j], &ok, err,
                                             errlen)) {
                                return 2;
                            }
                            cond_ok &= ok;
                            total_bits += row->layer_geom[j].m;
                        }
                        /* The row's m, k: all bits in use, the first layer's k. */
                        row->geom = row->layer_geom[0];
                        row->geom.m = total_bits;
                        row->bits_per_key = (double)total_bits / (double)n;
                    }
                    row_common(row, s, sc, cond_ok);
                }
            }
        }
    }
    return 0;
}

/* Rows of a plain sweep: size, then bits per key, then scheme. */
static int plain_rows(const experiment_t *e, const sweep_t *s, exp_row_t *r, char *err,
                      size_t errlen)
{
    size_t nb = s->keys ? 1 : s->nbpk;
    size_t i = 0;
    for (size_t a = 0; a < s->nbits; a++) {
        uint64_t m = s->bits[a];
        for (size_t c = 0; c < nb; c++) {
            double b = s->keys ? (double)m / (double)s->keys : s->bpk[c];
            double nd = s->keys ? (double)s->keys : floor((double)m / b + 0.5);
            if (nd < 1 || nd > 1e15) {
                return row_error(e, s->line[F_BPK], err, errlen, "bits_per_key %g gives %s "
                                 "keys at bits = %llu (got '%g')", b, nd < 1 ? "no" : "too many",
                                 (unsigned long long)m, b);
            }
            if (s->k_rule != K_FIXED && b * log(2.0) > 1000.5) {
                return row_error(e, s->line[F_BPK], err, errlen, "bits_per_key %g needs k = %.0f "
                                 "probes, more than 1000 (got '%g')", b, b * log(2.0), b);
            }
            unsigned k = experiment_k(s->k_rule, s->k, b);
            for (size_t d = 0; d < s->nschemes; d++, i++) {
                int cond_ok;
                if (row_geometry(e, s, s->schemes[d], m, k, (uint64_t)nd, &r[i].geom, &cond_ok,
                                 err, errlen)) {
                    return 2;
                }
                r[i].structure = STRUCT_PLAIN;
                r[i].m_requested = m;
                r[i].bits_per_key = b;
                r[i].n = (uint64_t)nd;
                row_common(&r[i], s, s->schemes[d], cond_ok);
            }
        }
    }
    return 0;
}

/* Rows a sweep expands into (design_rows and plain_rows write them in this count). */
static size_t sweep_nrows(const sweep_t *s)
{
    if (s->design_keys)
        return s->ndesign_rate * (s->nload ? s->nload : s->ninserted) *
               ((s->nstacks == 0 || s->single) + s->nstacks) * s->nschemes;
    return s->nbits * (s->keys ? 1 : s->nbpk) * s->nschemes;
}

int experiment_rows(const experiment_t *e, int quick, exp_row_t **rows, size_t *nrows,
                    char *err, size_t errlen)
{
    const sweep_t *sw = quick ? e->quick : e->full;
    size_t total = 0;
    for (size_t w = 0; w < e->nsweeps; w++)
        total += sweep_nrows(&sw[w]);
    exp_row_t *all = calloc(total ? total : 1, sizeof *all);
    if (!all)
        return row_error(e, 0, err, errlen, "out of memory");
    for (size_t w = 0, at = 0; w < e->nsweeps; w++) {
        int rc = sw[w].design_keys ? design_rows(e, &sw[w], all + at, err, errlen)
                                   : plain_rows(e, &sw[w], all + at, err, errlen);
        if (rc) {
            free(all);
            return rc;
        }
        for (size_t n = sweep_nrows(&sw[w]); n > 0; n--)
            all[at++].sweep = w;
    }
    *rows = all;
    *nrows = total;
    return 0;
}
