/* experiment.c - parse experiment files (experiment.h); plan.c expands them into rows.
 *
 * inih does the INI syntax. Debian's inih (r55) passes no line numbers to handlers and
 * reads lines of at most 200 bytes, so the file is read whole, served to inih line by
 * line from memory by a reader that counts lines and refuses longer ones. Values are
 * stored raw with their line (continuation lines appended) and converted only once the
 * whole file is read, so every message can name the line of the key at fault.
 *
 * The table of keys and their converters are in fields.c: one table describes
 * every key (its type, range, the sections and kinds of sweep that take it, the keys it
 * excludes, the words of its messages), a converter per type turns text into the value,
 * and exp_convert_section runs them in table order; here check_sweep and convert_quick
 * apply the rules between keys.
 */
#include "experiment/experiment.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <ini.h>

#include "estimate/estimator.h"
#include "libraries/registry.h"

#include "experiment/fields.h"

/* Make slot the one that takes the next keys, allocating its values. Returns 0, or -1
 * (out of memory, reported) with the section marked unknown. */
static int use_slot(parse_state_t *ps, size_t slot)
{
    if (!ps->raw[slot] && !(ps->raw[slot] = calloc(X_NKEYS, sizeof(raw_value_t)))) {
        exp_fail_at(ps, ps->line, "out of memory for this section (got '%s')", "it");
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
        exp_fail_at(ps, ps->line, "line longer than %d characters (continue a value on an "
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
            exp_fail_at(ps, ps->line, "unknown section; expected [experiment], [sweep] or "
                                  "[quick] (got '%s')", name);
        } else if (ps->section == S_EXPERIMENT) {
            if (ps->experiment_line)
                exp_fail_at(ps, ps->line, "section given twice (got '[experiment]')");
            ps->experiment_line = ps->line;
            use_slot(ps, 0);
        } else if (ps->section == S_SWEEP) {
            if (ps->nsweeps == EXP_MAX_SWEEPS) {
                exp_fail_at(ps, ps->line, "at most %d [sweep] sections (got another)",
                        EXP_MAX_SWEEPS);
                ps->section = S_NONE;
            } else {
                ps->sweep_line[ps->nsweeps] = ps->line;
                if (use_slot(ps, 1 + 2 * ps->nsweeps) == 0)
                    ps->nsweeps++;
            }
        } else if (ps->nsweeps == 0 || prev == S_EXPERIMENT) {
            exp_fail_at(ps, ps->line, "[quick] must follow the [sweep] it scales down (got "
                    "'[quick]' %s)", ps->nsweeps ? "after [experiment]" : "first");
            ps->section = S_NONE;
        } else if (ps->quick_line[ps->nsweeps - 1]) {
            exp_fail_at(ps, ps->line, "section given twice for the [sweep] at line %u (got "
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
               exp_fail_at(ps, ps->line, "key outside any section (got '%s')", name);
    static const unsigned in[S_NSECTIONS] = {
        [S_EXPERIMENT] = IN_EXPERIMENT, [S_SWEEP] = IN_SWEEP, [S_QUICK] = IN_QUICK};
    int key = -1;
    size_t nfields;
    const exp_field_t *fields = experiment_fields(&nfields);
    for (size_t i = 0; i < nfields; i++)
        if ((fields[i].sections & in[ps->section]) && strcmp(name, fields[i].name) == 0)
            key = fields[i].key;
    if (key < 0)
        return exp_fail_at(ps, ps->line, "unknown key in [%s] (got '%s')",
                       ps->section == S_EXPERIMENT ? "experiment" :
                       ps->section == S_SWEEP ? "sweep" : "quick", name);
    raw_value_t *rv = &ps->raw[ps->slot][key];
    /* inih reports an indented line after a key as a continuation of that key. */
    int continuation = key == ps->last_key && ps->indented && rv->line != 0;
    if (rv->line != 0 && !continuation)
        return exp_fail_at(ps, ps->line, "key given twice, first at line %u (got '%s')",
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
            return exp_fail_at(ps, ps->line, "value too long (got '%s')", name);
        rv->text[used] = ' ';
        strcpy(rv->text + used + 1, value);
    } else {
        if (strlen(value) >= RAW_LEN)
            return exp_fail_at(ps, ps->line, "value too long (got '%s')", name);
        strcpy(rv->text, value);
        rv->line = ps->line;
    }
    ps->last_key = key;
    return 1;
}

/* ---- value conversion ---- */

/* No experiment file is that big: 16 MiB, its NUL included. */
#define EXP_FILE_MAX ((size_t)1 << 24)

/* The whole file, NUL-terminated (messages quote lines with string functions). A path
 * that is not a regular file (a device, a pipe: checked before opening, so a pipe never
 * blocks) or longer than EXP_FILE_MAX - 1 bytes is refused with why set; any other
 * failure returns -1 with errno set. */
static int read_file(const char *path, char **buf, size_t *len, const char **why)
{
    struct stat sb;
    *why = NULL;
    if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode))
        return *why = "not a regular file", -1;
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t cap = 4096, n = 0;
    char *b = malloc(cap);
    while (b) {
        n += fread(b + n, 1, cap - 1 - n, f);
        if (n < cap - 1)
            break;
        if (cap >= EXP_FILE_MAX) { /* full: past the limit unless at its end */
            if (fgetc(f) == EOF)
                break;
            free(b);
            b = NULL;
            *why = "larger than the limit of 16777215 bytes";
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
    const char *why;
    if (read_file(path, &buf, &len, &why)) {
        memset(e, 0, sizeof *e);
        snprintf(err, errlen, "%s: cannot read experiment file: %s", path,
                 why ? why : errno ? strerror(errno) : "out of memory");
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

/* The keys of fingerprint filters need some (load_threshold, fingerprint_bits), and
 * the Bloom structures need schemes (a sweep of fingerprint filters alone has none).
 * Returns 0, or -1 with the message set. */
static int check_fingerprint(parse_state_t *ps, const sweep_t *sw, const raw_value_t *raw)
{
    static const int needs[] = {F_LOAD_THRESHOLD, F_FINGERPRINT_BITS};
    for (size_t i = 0; i < sizeof needs / sizeof needs[0]; i++)
        if (sw->line[needs[i]] && !sw->line[F_FINGERPRINT])
            return exp_fail_at(ps, sw->line[needs[i]], "%s needs fingerprint filters "
                           "(fingerprint = quotient ...) (got '%s')", needs[i] == F_LOAD_THRESHOLD
                           ? "load_threshold" : "fingerprint_bits", raw[needs[i]].text), -1;
    static const int bloom[] = {F_STACK, F_REBUILT, F_SINGLE};
    for (size_t i = 0; i < sizeof bloom / sizeof bloom[0]; i++)
        if (sw->line[bloom[i]] && !sw->line[F_SCHEMES] && !sw->line[F_LIBRARIES])
            return exp_fail_at(ps, sw->line[bloom[i]], "%s needs schemes (the Bloom filters' "
                           "probes) (got '%s')", bloom[i] == F_STACK ? "stack" : bloom[i] ==
                           F_REBUILT ? "rebuilt" : "single", raw[bloom[i]].text), -1;
    return 0;
}

/* The key of the table that sets a key set's parameter (keyset_kind_t.param_key), or
 * NULL where it takes none. */
static const exp_field_t *param_field(const keyset_kind_t *kind)
{
    size_t n;
    const exp_field_t *f = experiment_fields(&n);
    for (size_t i = 0; kind && kind->param_key && i < n; i++)
        if (strcmp(f[i].name, kind->param_key) == 0)
            return &f[i];
    return NULL;
}

const char *experiment_key_param(const sweep_t *s, const keyset_kind_t *kind,
                                 unsigned *line)
{
    const exp_field_t *f = param_field(kind);
    *line = f ? s->line[f->key] : 0;
    const char *v = f ? (const char *)s + f->offset : NULL;
    return v && *v ? v : NULL;
}

/* key_sets takes libraries or splits (their hashes make the keys' words); a key set's
 * parameter key (keyset_kind_t.param_key: key_prefix, key_file) takes that key set and
 * at most its bytes, and a key set that needs its parameter needs the key: the key sets
 * that need theirs first (a file's), then the others, each in registry order. Returns 0,
 * or -1 with the message set. */
static int check_key_sets(parse_state_t *ps, const sweep_t *sw, const raw_value_t *raw)
{
    if (sw->line[F_KEY_SETS] && !sw->nlibraries && !sw->nsplits)
        return exp_fail_at(ps, sw->line[F_KEY_SETS], "key_sets needs libraries or splits (their "
                           "hashes turn keys into words) (got '%s')", raw[F_KEY_SETS].text), -1;
    for (size_t k = 0; k < 2 * KEYSET_COUNT; k++) {
        const keyset_kind_t *kind = keyset_kind_at(k % KEYSET_COUNT);
        const exp_field_t *f = param_field(kind);
        if (!f || kind->param_needed != (k < KEYSET_COUNT))
            continue;
        int chosen = 0;
        for (size_t i = 0; i < sw->nkey_sets; i++)
            chosen |= sw->key_sets[i] == kind;
        unsigned line;
        const char *v = experiment_key_param(sw, kind, &line);
        if (chosen && kind->param_needed && !v)
            return exp_fail_at(ps, sw->line[F_KEY_SETS], "key_sets: the %s key set needs "
                               "%s = %s (got '%s')", kind->name, f->name, kind->param_meta,
                               raw[F_KEY_SETS].text), -1;
        if (line && !chosen)
            return exp_fail_at(ps, line, "%s needs %s in key_sets (got '%s')", f->name,
                               kind->name, raw[f->key].text), -1;
        if (line && kind->param_max && strlen(raw[f->key].text) > kind->param_max)
            return exp_fail_at(ps, line, "%s must be at most %zu bytes (got '%s')", f->name,
                               kind->param_max, raw[f->key].text), -1;
    }
    return 0;
}

/* The kind of a sweep (SW_*): exec makes it an adapter's, design_keys a design. */
static unsigned sweep_kind(const sweep_t *sw)
{ return sw->line[F_EXEC] ? SW_EXEC : sw->design_keys ? SW_DESIGN : SW_PLAIN; }

/* An adapter's sweep: a command, inserted, design_rate or bits_per_key, no other keys;
 * its filters the engine's (2, grown to the target). 0, or -1 with the message set. */
static int check_exec(parse_state_t *ps, sweep_t *sw, const raw_value_t *raw, unsigned line)
{
    const exp_field_t *f = exp_misfit(SW_EXEC, sw->line);
    if (f)
        return exp_fail_at(ps, sw->line[f->key], "%s does not go with exec (got '%s')",
                           f->name, raw[f->key].text), -1;
    if (!sw->exec[0])
        return exp_fail_at(ps, sw->line[F_EXEC], "exec needs a command (got '%s')",
                           raw[F_EXEC].text), -1;
    if (sw->line[F_BPK] && sw->line[F_DESIGN_RATE])
        return exp_fail_at(ps, sw->line[F_BPK], "exec takes design_rate or bits_per_key, not "
                           "both (got 'bits_per_key = %s')", raw[F_BPK].text), -1;
    if (exp_check_excludes(ps, raw))
        return -1;
    if (!sw->ninserted || (!sw->ndesign_rate && !sw->nbpk))
        return exp_fail_at(ps, line, "exec needs inserted and one of design_rate and "
                           "bits_per_key (got no %s)", !sw->ninserted ? "inserted" :
                           "design_rate"), -1;
    sw->filters = 2;
    return 0;
}

/* The rules of a [sweep] between keys, once its values are converted: schemes always;
 * only keys its kind takes (exec: an adapter's; design_keys: a design), with what that kind needs;
 * no two keys that exclude each other. Returns 0, or -1 with the message set. */
static int check_sweep(parse_state_t *ps, sweep_t *sw, const raw_value_t *raw,
                       unsigned sweep_line)
{
    if (sweep_kind(sw) == SW_EXEC)
        return check_exec(ps, sw, raw, sweep_line);
    if (!sw->line[F_SCHEMES] && !sw->line[F_LIBRARIES] && !sw->line[F_FINGERPRINT])
        return exp_fail_at(ps, sweep_line, "[sweep] needs schemes (or, with design_keys, "
                       "libraries) (got 'nothing')"), -1;
    unsigned kind = sw->design_keys ? SW_DESIGN : SW_PLAIN;
    const exp_field_t *f = exp_misfit(kind, sw->line);
    if (f)
        return exp_fail_at(ps, sw->line[f->key], "%s %s (got '%s')", f->name, kind == SW_DESIGN ?
                       "does not go with design_keys" : "needs design_keys", f->name), -1;
    if (exp_check_excludes(ps, raw))
        return -1;
    if (check_key_sets(ps, sw, raw))
        return -1;
    if (kind == SW_DESIGN) {
        if (!sw->ndesign_rate)
            return exp_fail_at(ps, sw->line[F_DESIGN_KEYS], "design_keys needs design_rate (got "
                           "'nothing')"), -1;
        if (!sw->nload && !sw->ninserted)
            sw->load[0] = 1, sw->nload = 1; /* the design size itself */
        if (sw->line[F_K] && (sw->k_rule != K_FIXED || sw->nstacks))
            return exp_fail_at(ps, sw->line[F_K], "with design_keys, k must be a number and "
                           "cannot go with stack (each layer takes its rule's k) (got '%s')",
                           raw[F_K].text), -1;
        if (check_fingerprint(ps, sw, raw))
            return -1;
    } else if (!sw->line[F_BITS]) {
        return exp_fail_at(ps, sweep_line, "[sweep] needs bits or design_keys (got 'nothing')"), -1;
    }
    int blocked = 0;
    for (size_t i = 0; i < sw->nschemes; i++)
        blocked |= sw->schemes[i]->block_default != 0;
    if (sw->nblock_bits && !blocked)
        return exp_fail_at(ps, sw->line[F_BLOCK_BITS], "block_bits needs a blocked scheme "
                       "(blocked, split-block) in schemes (got '%s')", raw[F_BLOCK_BITS].text), -1;
    if (kind == SW_PLAIN && !sw->nbpk && !sw->keys)
        return exp_fail_at(ps, sweep_line, "[sweep] needs bits_per_key or keys (got '%s')",
                       "neither"), -1;
    return 0;
}

/* [quick] overrides the [sweep] it follows (q starts as a copy of it), but may not turn a
 * plain sweep into a design or back: both scales must describe the same kind. Returns 0,
 * or -1 with the message set. */
static int convert_quick(parse_state_t *ps, sweep_t *q, const raw_value_t *qraw)
{
    unsigned kind = sweep_kind(q);
    unsigned given[F_NFIELDS];
    for (int i = 0; i < F_NFIELDS; i++)
        given[i] = qraw[i].line;
    const exp_field_t *f = exp_misfit(kind, given);
    if (f)
        return exp_fail_at(ps, given[f->key], "%s in [quick] %s (got '%s')", f->name,
                       kind == SW_EXEC ? "does not go with exec in [sweep]"
                       : kind == SW_DESIGN ? "does not go with the design in [sweep]"
                                         : "needs design_keys in [sweep]", f->name), -1;
    if (exp_check_excludes(ps, qraw))
        return -1;
    if (exp_convert_section(ps, IN_QUICK, q, qraw))
        return -1;
    return kind == SW_EXEC && !q->exec[0] ? exp_fail_at(ps, given[F_EXEC], "exec needs a "
                                            "command (got '%s')", qraw[F_EXEC].text) - 1 : 0;
}

/* Enough lookups and filters for the estimates; 0, or -1 with the message set. */
static int check_budget(parse_state_t *ps, const sweep_t *s)
{
    if (s->max_filters && s->max_filters < s->filters)
        return exp_fail_at(ps, s->line[F_MAX_FILTERS], "max_filters must be at least filters (got "
                       "'%llu' for %llu filters)", (unsigned long long)s->max_filters,
                       (unsigned long long)s->filters), -1;
    if ((s->estimator == EXP_ESTIMATOR_AUTO || est_at((size_t)s->estimator)->counts) &&
        s->lookups < s->filters)
        return exp_fail_at(ps, s->line[F_LOOKUPS] ? s->line[F_LOOKUPS] : s->line[F_FILTERS],
                       "lookups must be at least filters, one lookup per filter (got "
                       "'%llu' lookups for %llu filters)", (unsigned long long)s->lookups,
                       (unsigned long long)s->filters), -1;
    return 0;
}

/* --quick without a [quick] (docs/model.md, Values) means seconds: the keys that have a
 * quick_cap at it (filters 200, lookups 2e6), and what would grow past them: a
 * precision target's filters at most QUICK_GROWTH times the first batch, the
 * conditional estimator's strides at most QUICK_STRIDES (`all` included). Sizes and
 * key counts stay the file's. */
#define QUICK_GROWTH 5
#define QUICK_STRIDES 256
static void quick_caps(sweep_t *q)
{
    size_t nfields;
    const exp_field_t *fields = experiment_fields(&nfields);
    for (size_t i = 0; i < nfields; i++)
        if (fields[i].quick_cap) {
            uint64_t *v = (uint64_t *)((char *)q + fields[i].offset);
            if (*v > fields[i].quick_cap)
                *v = fields[i].quick_cap;
        }
    if (q->precision > 0 && experiment_max_filters(q) > QUICK_GROWTH * q->filters)
        q->max_filters = QUICK_GROWTH * q->filters;
    if (q->strides == 0 || q->strides > QUICK_STRIDES)
        q->strides = QUICK_STRIDES;
}

/* Convert the w-th [sweep] and the [quick] after it into e->full[w] and e->quick[w];
 * without a [quick], --quick caps it (quick_caps). Returns 0, or -1 with the message
 * set. */
static int finish_sweep(parse_state_t *ps, experiment_t *e, size_t w)
{
    const raw_value_t *raw = ps->raw[1 + 2 * w];
    const raw_value_t *qraw = ps->raw[2 + 2 * w] ? ps->raw[2 + 2 * w] : exp_no_values;
    sweep_t *sw = &e->full[w], *q = &e->quick[w];
    exp_set_defaults(IN_SWEEP, sw);
    sw->sizing = &sizing_calculateparams;
    if (exp_convert_section(ps, IN_SWEEP, sw, raw) || check_sweep(ps, sw, raw, ps->sweep_line[w]))
        return -1;
    *q = *sw;
    if (ps->quick_line[w]) {
        if (convert_quick(ps, q, qraw))
            return -1;
    } else {
        quick_caps(q);
    }
    return check_budget(ps, sw) || check_budget(ps, q) ? -1 : 0;
}

/* A NUL byte in the text: refused with its line (inih would end the line there, so that
 * `bits = 40<NUL>96` would read as 40). Returns 1 after the message, else 0. */
static int nul_byte(parse_state_t *ps)
{
    const char *z = memchr(ps->buf, '\0', ps->len);
    if (!z)
        return 0;
    unsigned line = 1;
    const char *start = ps->buf;
    for (const char *p = ps->buf; p < z; p++)
        if (*p == '\n') {
            line++;
            start = p + 1;
        }
    const char *end = memchr(z, '\n', ps->len - (size_t)(z - ps->buf));
    size_t n = (size_t)((end ? end : ps->buf + ps->len) - start);
    char shown[100];
    size_t k = 0;
    for (size_t i = 0; i < n && k + 3 < sizeof shown; i++) {
        if (start[i] == '\0') {
            shown[k++] = '\\';
            shown[k++] = '0';
        } else if (start[i] != '\r') {
            shown[k++] = start[i];
        }
    }
    shown[k] = '\0';
    snprintf(ps->err, ps->errlen, "%s:%u: a NUL byte in the line (got '%s')", ps->path, line,
             shown);
    return 1;
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
    size_t stem = strlen(base) > 4 && strcmp(base + strlen(base) - 4, ".ini") == 0 ?
                  strlen(base) - 4 : strlen(base);
    int rc = 2;
    if (stem >= sizeof e->name) { /* refused, not cut: a cut name is another run's */
        snprintf(err, errlen, "%s: experiment name longer than %zu characters (got %zu)",
                 path, sizeof e->name - 1, stem);
        goto out;
    }
    snprintf(e->name, sizeof e->name, "%.*s", (int)stem, base);
    if (nul_byte(ps))
        goto out;
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
    const raw_value_t *x = ps->raw[0] ? ps->raw[0] : exp_no_values;
    if (ps->nsweeps == 0) {
        snprintf(err, errlen, "%s:%u: missing [sweep] section (got '%s')", path, ps->line,
                 "end of file");
        goto out;
    }
    exp_set_defaults(IN_EXPERIMENT, e);
    snprintf(e->title, sizeof e->title, "%s", e->name);
    if (exp_convert_section(ps, IN_EXPERIMENT, e, x))
        goto out;
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

uint64_t experiment_max_filters(const sweep_t *s)
{
    if (s->max_filters)
        return s->max_filters;
    return s->filters < COUNT_MAX / 1000 ? 1000 * s->filters : COUNT_MAX;
}
