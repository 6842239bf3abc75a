/* test_experiment.c - experiment files: every shipped experiment loads and expands at
 * both scales; the file format's features (ranges, lists, scientific counts,
 * continuation lines, [quick] overrides, keys instead of bits_per_key) parse as
 * documented; the table of keys is consistent, and the keys it says exclude each other,
 * or do not go with a kind of sweep, are refused. Malformed files are tests/data/bad/,
 * run through the binary by cli.sh. */
#undef NDEBUG
#include <assert.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "estimate/estimator.h"
#include "experiment/experiment.h"
#include "experiment/fields.h"
#include "experiment/plan.h"

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert(f);
    fputs(text, f);
    fclose(f);
}

/* Every .ini file in experiments/ loads and expands at both scales; those named here into the
 * rows they are known to have. Enumerating the folder keeps the test from going stale. */
static void test_shipped(void)
{
    static const struct { const char *name; size_t rows, quick_rows; } want[] = {
        {"exact-vs-formula", 4 * 15 * 2, 2 * 15 * 2},
        {"floor-4096", 15 * 6, 15 * 6},
        {"floor-65536", 15 * 6, 4 * 6},
        {"guava", 3 * 4, 3 * 4},
        {"hash32", 2 * 2, 2 * 2},
        {"stride-zero", 15 * 2, 15 * 2},
        {"past-design", 2 * 13 * 2, 2 * 4 * 2},
        {"stack", 14 * 2 * 2, 3 * 2 * 2},
        {"stack-dials", 9 * 3, 2 * 3},
    };
    enum { NWANT = sizeof want / sizeof want[0] };
    int found[NWANT] = {0};
    size_t nfiles = 0;
    DIR *dir = opendir("experiments");
    assert(dir);
    for (struct dirent *d; (d = readdir(dir));) {
        size_t len = strlen(d->d_name);
        if (len < 5 || strcmp(d->d_name + len - 4, ".ini") != 0)
            continue;
        char path[512], err[EXP_ERR_LEN];
        snprintf(path, sizeof path, "experiments/%s", d->d_name);
        experiment_t *e = malloc(sizeof *e);
        int rc = experiment_load(path, e, err, sizeof err);
        if (rc)
            fprintf(stderr, "%s\n", err);
        assert(rc == 0);
        assert(strlen(e->name) == len - 4 && strncmp(e->name, d->d_name, len - 4) == 0);
        size_t n[2];
        for (int q = 0; q < 2; q++) {
            exp_row_t *rows;
            assert(plan_rows(e, q, &rows, &n[q], err, sizeof err) == 0);
            assert(n[q] > 0);
            free(rows);
        }
        for (size_t i = 0; i < NWANT; i++)
            if (strcmp(e->name, want[i].name) == 0) {
                assert(n[0] == want[i].rows && n[1] == want[i].quick_rows);
                found[i] = 1;
            }
        printf("%-18s %zu rows, %zu quick: ok\n", e->name, n[0], n[1]);
        free(e);
        nfiles++;
    }
    closedir(dir);
    for (size_t i = 0; i < NWANT; i++)
        assert(found[i]); /* a named experiment was removed or renamed: update want[] */
    printf("%zu shipped experiments, %d with known row counts\n", nfiles, (int)NWANT);
}

/* floor-4096 row 0 (b = 4, independent) and the double-prime row (b = 4): n = 4096/4,
 * k = round(4 ln 2) = 3, m' = 4093, estimator, filters and precision as in the file. */
static void test_floor_rows(void)
{
    char err[EXP_ERR_LEN];
    experiment_t *e = malloc(sizeof *e);
    exp_row_t *rows;
    size_t n;
    assert(experiment_load("experiments/floor-4096.ini", e, err, sizeof err) == 0);
    assert(plan_rows(e, 0, &rows, &n, err, sizeof err) == 0);
    assert(rows[0].n == 1024 && rows[0].geom.k == 3 && rows[0].geom.m == 4096);
    assert(strcmp(rows[3].scheme->name, "double-prime") == 0 && rows[3].geom.m == 4093);
    assert(rows[3].n == 1024); /* n comes from the requested size, same for every scheme */
    assert(rows[0].filters == 200 && rows[0].precision == 0.01 && rows[0].strides == 4096);
    assert(rows[0].max_filters == 1000000);
    for (size_t i = 0; i < n; i++) /* auto: every scheme here has a conditional form */
        assert(rows[i].est == &est_conditional);
    /* last point b = 32: n = 128, k = round(22.18) = 22 */
    assert(rows[n - 1].n == 128 && rows[n - 1].geom.k == 22);
    free(rows);
    free(e);
    printf("floor-4096 rows: n, k, m' as defined\n");
}

static void test_format(void)
{
    const char *path = "/tmp/bloomsim-test-format.ini";
    write_file(path,
               "\xEF\xBB\xBF# comment line after a UTF-8 byte order mark\n"
               "[experiment]\n"
               "title = Format test\n"
               "description = first line\n"
               "  continued line\n"
               "seed = 77\n"
               "[sweep]\n"
               "bits = 1000, 2000 ; an inline comment\n"
               "bits_per_key = 4:8:2 9.5\n"
               "k = 5\n"
               "schemes = independent\n"
               "  double ; a comment on a continuation line\n"
               "filters = 10\n"
               "lookups = 1e3\n"
               "[quick]\n"
               "keys = 50\n"
               "k = ceil\n"
               "lookups = 1_000\n");
    char err[EXP_ERR_LEN];
    experiment_t *e = malloc(sizeof *e);
    int rc = experiment_load(path, e, err, sizeof err);
    if (rc)
        fprintf(stderr, "%s\n", err);
    assert(rc == 0);
    assert(strcmp(e->title, "Format test") == 0);
    assert(strcmp(e->description, "first line continued line") == 0);
    assert(e->seed == 77);
    assert(e->full[0].nbits == 2 && e->full[0].bits[1] == 2000);
    assert(e->full[0].nbpk == 4 && e->full[0].bpk[2] == 8 && e->full[0].bpk[3] == 9.5);
    assert(e->full[0].k_rule == K_FIXED && e->full[0].k == 5);
    assert(e->full[0].nschemes == 2 && strcmp(e->full[0].schemes[1]->name, "double") == 0);
    assert(e->full[0].lookups == 1000 && e->full[0].filters == 10);
    /* [quick]: keys replace bits_per_key; k rule and lookups overridden. */
    assert(e->quick[0].keys == 50 && e->quick[0].nbpk == 0 && e->quick[0].k_rule == K_CEIL);
    exp_row_t *rows;
    size_t n;
    assert(plan_rows(e, 1, &rows, &n, err, sizeof err) == 0);
    assert(n == 2 * 1 * 2);
    /* bits 2000, keys 50: b = 40, k = ceil(40 ln 2) = ceil(27.7) = 28 */
    assert(rows[2].n == 50 && rows[2].bits_per_key == 40 && rows[2].geom.k == 28);
    assert(rows[0].lookups_per_filter == 100);
    free(rows);
    assert(plan_rows(e, 0, &rows, &n, err, sizeof err) == 0);
    assert(n == 2 * 4 * 2 && rows[0].n == 250 && rows[0].geom.k == 5);
    free(rows);
    free(e);
    printf("format: lists, ranges, continuation, comments, [quick] overrides: ok\n");
}

/* experiments/guava.ini: three sweeps, each with its own [quick]; rows come sweep by
 * sweep, a plain sweep, a design by Guava's rule (seed 000's one-in-a-million filter at
 * about 3*2^29 bits), a plain sweep, four schemes each. */
static void test_sweeps(void)
{
    char err[EXP_ERR_LEN];
    experiment_t *e = malloc(sizeof *e);
    exp_row_t *rows;
    size_t n;
    assert(experiment_load("experiments/guava.ini", e, err, sizeof err) == 0);
    assert(e->nsweeps == 3);
    assert(plan_rows(e, 0, &rows, &n, err, sizeof err) == 0);
    assert(n == 12);
    for (size_t i = 0; i < n; i++)
        assert(rows[i].sweep == i / 4);
    assert(rows[0].geom.m == (UINT64_C(3) << 29) && rows[0].geom.k == 7 && rows[0].filters == 6);
    assert(rows[0].lookups_per_filter == 20000000);
    assert(rows[4].structure == STRUCT_DESIGN && rows[4].geom.k == 20);
    assert(rows[4].geom.m == (UINT64_C(3) << 29) && rows[4].lookups_per_filter == 250000000);
    assert(rows[8].geom.m == 3000000000 && rows[8].filters == 3 && rows[8].n == 300000000);
    free(rows);
    assert(plan_rows(e, 1, &rows, &n, err, sizeof err) == 0);
    assert(n == 12 && rows[0].geom.m == 25165824 && rows[4].n == 875175 && rows[11].filters == 2);
    free(rows);
    free(e);
    printf("guava: three sweeps with their own [quick], rows sweep by sweep: ok\n");
}

static void test_k_rules(void)
{
    /* round(b ln 2) and ceil(b ln 2), at least 1 (docs/model.md, The model). */
    assert(plan_k(K_OPTIMAL, 0, 10) == 7);  /* 6.93 */
    assert(plan_k(K_CEIL, 0, 10) == 7);
    assert(plan_k(K_OPTIMAL, 0, 20) == 14); /* 13.86 */
    assert(plan_k(K_OPTIMAL, 0, 32) == 22); /* 22.18 */
    assert(plan_k(K_CEIL, 0, 32) == 23);
    assert(plan_k(K_OPTIMAL, 0, 0.5) == 1);
    assert(plan_k(K_FIXED, 9, 32) == 9);
    printf("k rules: ok\n");
}

/* The table of keys: one entry per F_* and X_* key, names unique, each entry's storage
 * the size its type converts into, ranges and defaults that make sense, exclusions
 * symmetric between keys a sweep of one kind takes. */
static void test_fields(void)
{
    size_t n;
    const exp_field_t *t = experiment_fields(&n);
    assert(n == X_NKEYS);
    for (int key = 0; key < X_NKEYS; key++) {
        int entries = 0;
        for (size_t i = 0; i < n; i++)
            entries += t[i].key == key;
        assert(entries == 1);
    }
    for (size_t i = 0; i < n; i++) {
        const exp_field_t *f = &t[i];
        assert(f->name && f->name[0]);
        for (size_t j = 0; j < i; j++)
            assert(strcmp(f->name, t[j].name) != 0);
        assert(f->type < FT_NTYPES);
        if (f->key < F_NFIELDS) { /* keys of [sweep] and [quick] */
            assert(f->sections == (IN_SWEEP | IN_QUICK) && f->sweeps != 0);
            assert((f->sweeps & ~(unsigned)(SW_PLAIN | SW_DESIGN | SW_EXEC)) == 0);
        } else { /* keys of [experiment] */
            assert(f->sections == IN_EXPERIMENT && f->sweeps == 0 && f->excludes == 0);
        }
        static const size_t size[FT_NTYPES] = {
            [FT_COUNT] = sizeof(uint64_t), [FT_COUNT_LIST] = EXP_MAX_LIST * sizeof(uint64_t),
            [FT_REAL] = sizeof(double), [FT_REAL_LIST] = EXP_MAX_LIST * sizeof(double),
            [FT_CHOICE] = sizeof(int), [FT_K_RULE] = sizeof(k_rule_t),
            [FT_SCHEMES] = EXP_MAX_SCHEMES * sizeof(const scheme_t *),
            [FT_STACKS] = EXP_MAX_STACKS * sizeof(exp_stack_t),
            [FT_SIZING] = sizeof(const sizing_rule_t *), [FT_ESTIMATOR] = sizeof(int),
            [FT_LIBRARIES] = EXP_MAX_LIBRARIES * sizeof(const library_t *),
            [FT_FINGERPRINTS] = EXP_MAX_SCHEMES * sizeof(const fp_filter_t *),
            [FT_KEY_SETS] = KEYSET_COUNT * sizeof(const keyset_kind_t *),
            [FT_SPLITS] = SPLIT_COUNT * sizeof(const split_t *),
        };
        assert(f->type == FT_TEXT ? f->size > 1 : f->size == size[f->type]);
        assert(f->offset + f->size <= (f->key < F_NFIELDS ? sizeof(sweep_t)
                                                          : sizeof(experiment_t)));
        /* every type but these reports "NAME must be MUST" */
        assert(!f->must == (f->type == FT_TEXT || f->type == FT_SCHEMES ||
                            f->type == FT_ESTIMATOR || f->type == FT_LIBRARIES ||
                            f->type == FT_FINGERPRINTS || f->type == FT_KEY_SETS ||
                            f->type == FT_SPLITS));
        assert(!f->words == (f->type != FT_CHOICE));
        if (f->type == FT_COUNT || f->type == FT_COUNT_LIST || f->type == FT_K_RULE)
            assert(f->min <= f->max);
        if (f->type == FT_REAL || f->type == FT_REAL_LIST)
            assert(f->lo < f->hi);
        if (f->type != FT_COUNT)
            assert(!f->zero_word && f->dflt == 0 && f->quick_cap == 0);
        else
            assert((f->dflt == 0 || (f->dflt >= f->min && f->dflt <= f->max)) &&
                   (f->quick_cap == 0 || (f->quick_cap >= f->min && f->quick_cap <= f->max)));
        for (size_t j = 0; j < n; j++) {
            int ex = (f->excludes & EXP_KEY_BIT(t[j].key)) != 0;
            assert(ex == ((t[j].excludes & EXP_KEY_BIT(f->key)) != 0));
            assert(!ex || (j != i && (f->sweeps & t[j].sweeps)));
        }
    }
    printf("key table: %zu keys, each once, consistent\n", n);
}

/* A value each key takes, as text, for the tests below. */
static const char *sample(const exp_field_t *f, char *buf, size_t len)
{
    switch (f->type) {
    case FT_COUNT:
    case FT_COUNT_LIST:
        snprintf(buf, len, "%llu", (unsigned long long)(f->min ? f->min : 1));
        return buf;
    case FT_REAL:
    case FT_REAL_LIST:
        snprintf(buf, len, "%g", isinf(f->hi) ? f->lo + 1 : (f->lo + f->hi) / 2);
        return buf;
    case FT_CHOICE: return f->words[0];
    case FT_K_RULE: return "7"; /* a number: designs take no other k */
    case FT_SCHEMES: return "double";
    case FT_STACKS: return "500/2/0.5";
    case FT_SIZING: return "guava";
    case FT_ESTIMATOR: return "auto";
    case FT_LIBRARIES: return "guava";
    case FT_FINGERPRINTS: return "quotient";
    case FT_KEY_SETS: return "seq";
    case FT_SPLITS: return "xxh64";
    default: return "x";
    }
}

static void same_message(const char *got, const char *want)
{
    if (strcmp(got, want) != 0)
        fprintf(stderr, "got:  %s\nwant: %s\n", got, want);
    assert(strcmp(got, want) == 0);
}

/* Load text; 0 or the message with the path "t.ini" and line. */
static int load(const char *text, experiment_t *e, char *err)
{
    return experiment_load_text("t.ini", text, strlen(text), e, err, EXP_ERR_LEN);
}

/* A valid sweep of one kind (SW_*) lacking the keys in skip: its lines and line count. */
static int base_sweep(unsigned kind, uint32_t skip, char *text, size_t len)
{
    const char *plain = skip & (EXP_KEY_BIT(F_BPK) | EXP_KEY_BIT(F_KEYS)) ? "" : "keys = 100\n";
    const char *schemes = skip & EXP_KEY_BIT(F_SCHEMES) ? "" : "schemes = double\n";
    if (kind == SW_EXEC) /* an adapter's sweep: its command and keys */
        snprintf(text, len, "[sweep]\nexec = true\ninserted = 100\n");
    else if (kind == SW_DESIGN)
        snprintf(text, len, "[sweep]\ndesign_keys = 1000\ndesign_rate = 0.01\n%s", schemes);
    else
        snprintf(text, len, "[sweep]\nbits = 1024\nschemes = double\n%s", plain);
    return kind == SW_EXEC ? 3 : kind == SW_DESIGN ? 3 + (*schemes != 0) : *plain ? 4 : 3;
}

/* Keys that exclude each other are refused together in [sweep] and in [quick], at the
 * later key of the table whichever comes first in the file; in [quick] one replaces the
 * other as [sweep] gave it. */
static void test_excludes(void)
{
    size_t n, pairs = 0;
    const exp_field_t *t = experiment_fields(&n);
    experiment_t *e = malloc(sizeof *e);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < i; j++) {
            if (!(t[j].excludes & EXP_KEY_BIT(t[i].key)))
                continue;
            const exp_field_t *a = &t[j], *b = &t[i];
            unsigned both = a->sweeps & b->sweeps;
            unsigned kind = both & SW_PLAIN ? SW_PLAIN : both & SW_DESIGN ? SW_DESIGN : SW_EXEC;
            uint32_t skip = EXP_KEY_BIT(a->key) | EXP_KEY_BIT(b->key);
            /* libraries exclude schemes too: a pair with libraries has no schemes but
             * where the [sweep] needs them (the last case below). */
            int libs = (skip & EXP_KEY_BIT(F_LIBRARIES)) != 0;
            const char *own = libs && !(skip & EXP_KEY_BIT(F_SCHEMES)) ? "schemes = double\n"
                                                                       : "";
            if (libs)
                skip |= EXP_KEY_BIT(F_SCHEMES);
            char text[1024], bufa[64], bufb[64], want[EXP_ERR_LEN], err[EXP_ERR_LEN];
            int lines = base_sweep(kind, skip, text, sizeof text);
            size_t at = strlen(text);
            const char *va = sample(a, bufa, sizeof bufa), *vb = sample(b, bufb, sizeof bufb);
            /* [sweep] A, B: refused at B */
            snprintf(text + at, sizeof text - at, "%s = %s\n%s = %s\n", a->name, va, b->name,
                     vb);
            assert(load(text, e, err) == 2);
            snprintf(want, sizeof want, "t.ini:%d: give %s or %s, not both (got '%s = %s')",
                     lines + 2, a->name, b->name, b->name, vb);
            same_message(err, want);
            /* [sweep] A; [quick] B, A: refused at B */
            snprintf(text + at, sizeof text - at, "%s%s = %s\n[quick]\n%s = %s\n%s = %s\n",
                     own, a->name, va, b->name, vb, a->name, va);
            assert(load(text, e, err) == 2);
            snprintf(want, sizeof want, "t.ini:%d: give %s or %s, not both (got '%s = %s')",
                     lines + 3 + (*own != 0), a->name, b->name, b->name, vb);
            same_message(err, want);
            /* [sweep] A; [quick] B: B replaces A */
            snprintf(text + at, sizeof text - at, "%s%s = %s\n[quick]\n%s = %s\n", own, a->name,
                     va, b->name, vb);
            assert(load(text, e, err) == 0);
            assert(e->full[0].line[a->key] && !e->full[0].line[b->key]);
            assert(!e->quick[0].line[a->key] && e->quick[0].line[b->key]);
            pairs++;
        }
    assert(pairs >= 2); /* bits_per_key/keys, load/inserted */
    free(e);
    printf("excluded pairs: %zu, each refused in [sweep] and [quick]\n", pairs);
}

/* A key a kind of sweep does not take is refused in it: plain-only keys in a design,
 * design-only keys in a plain sweep (design_keys itself makes the sweep a design, so it
 * is refused only in a [quick]). */
static void test_kinds(void)
{
    size_t n, refused = 0;
    const exp_field_t *t = experiment_fields(&n);
    experiment_t *e = malloc(sizeof *e);
    for (size_t i = 0; i < n; i++)
        for (unsigned kind = SW_PLAIN; kind <= SW_DESIGN; kind <<= 1) {
            const exp_field_t *f = &t[i];
            /* exec makes an adapter's sweep of any sweep: tests/exp_exec.sh */
            if (f->key >= F_NFIELDS || (f->sweeps & kind) || f->key == F_EXEC)
                continue;
            char text[1024], buf[64], want[EXP_ERR_LEN], err[EXP_ERR_LEN];
            int lines = base_sweep(kind, 0, text, sizeof text);
            size_t at = strlen(text);
            const char *v = sample(f, buf, sizeof buf);
            if (f->key != F_DESIGN_KEYS) {
                snprintf(text + at, sizeof text - at, "%s = %s\n", f->name, v);
                assert(load(text, e, err) == 2);
                snprintf(want, sizeof want, "t.ini:%d: %s %s (got '%s')", lines + 1, f->name,
                         kind == SW_DESIGN ? "does not go with design_keys"
                                           : "needs design_keys", f->name);
                same_message(err, want);
                refused++;
            }
            snprintf(text + at, sizeof text - at, "[quick]\n%s = %s\n", f->name, v);
            assert(load(text, e, err) == 2);
            snprintf(want, sizeof want, "t.ini:%d: %s in [quick] %s (got '%s')", lines + 2,
                     f->name, kind == SW_DESIGN ? "does not go with the design in [sweep]"
                                                : "needs design_keys in [sweep]", f->name);
            same_message(err, want);
            refused++;
        }
    free(e);
    printf("keys of the other kind of sweep: %zu refusals\n", refused);
}

int main(void)
{
    test_fields();
    test_excludes();
    test_kinds();
    test_shipped();
    test_floor_rows();
    test_format();
    test_sweeps();
    test_k_rules();
    return 0;
}
