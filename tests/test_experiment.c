/* test_experiment.c - experiment files: every shipped experiment loads and expands at
 * both scales; the file format's features (ranges, lists, scientific counts,
 * continuation lines, [quick] overrides, keys instead of bits_per_key) parse as
 * documented. Malformed files are tests/data/bad/, run through the binary by cli.sh. */
#undef NDEBUG
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiment.h"

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert(f);
    fputs(text, f);
    fclose(f);
}

static void test_shipped(void)
{
    static const struct { const char *name; size_t rows, quick_rows; } want[] = {
        {"exact-vs-formula", 4 * 15 * 2, 2 * 15 * 2},
        {"floor-4096", 15 * 6, 15 * 6},
        {"floor-65536", 15 * 6, 4 * 6},
        {"stride-zero", 15 * 2, 15 * 2},
        {"past-design", 2 * 13 * 2, 2 * 4 * 2},
        {"stack", 14 * 2 * 2, 3 * 2 * 2},
        {"stack-dials", 9 * 3, 2 * 3},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        char path[256], err[EXP_ERR_LEN];
        snprintf(path, sizeof path, "experiments/%s.ini", want[i].name);
        experiment_t *e = malloc(sizeof *e);
        int rc = experiment_load(path, e, err, sizeof err);
        if (rc)
            fprintf(stderr, "%s\n", err);
        assert(rc == 0);
        assert(strcmp(e->name, want[i].name) == 0);
        for (int q = 0; q < 2; q++) {
            exp_row_t *rows;
            size_t n;
            assert(experiment_rows(e, q, &rows, &n, err, sizeof err) == 0);
            assert(n == (q ? want[i].quick_rows : want[i].rows));
            free(rows);
        }
        printf("%-18s %zu rows, %zu quick: ok\n", e->name, want[i].rows, want[i].quick_rows);
        free(e);
    }
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
    assert(experiment_rows(e, 0, &rows, &n, err, sizeof err) == 0);
    assert(rows[0].n == 1024 && rows[0].geom.k == 3 && rows[0].geom.m == 4096);
    assert(strcmp(rows[3].scheme->name, "double-prime") == 0 && rows[3].geom.m == 4093);
    assert(rows[3].n == 1024); /* n comes from the requested size, same for every scheme */
    assert(rows[0].filters == 200 && rows[0].precision == 0.01 && rows[0].strides == 4096);
    assert(rows[0].max_filters == 1000000);
    for (size_t i = 0; i < n; i++) /* auto: every scheme here has a conditional form */
        assert(rows[i].estimator == EST_CONDITIONAL);
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
    assert(experiment_rows(e, 1, &rows, &n, err, sizeof err) == 0);
    assert(n == 2 * 1 * 2);
    /* bits 2000, keys 50: b = 40, k = ceil(40 ln 2) = ceil(27.7) = 28 */
    assert(rows[2].n == 50 && rows[2].bits_per_key == 40 && rows[2].geom.k == 28);
    assert(rows[0].lookups_per_filter == 100);
    free(rows);
    assert(experiment_rows(e, 0, &rows, &n, err, sizeof err) == 0);
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
    assert(experiment_rows(e, 0, &rows, &n, err, sizeof err) == 0);
    assert(n == 12);
    for (size_t i = 0; i < n; i++)
        assert(rows[i].sweep == i / 4);
    assert(rows[0].geom.m == (UINT64_C(3) << 29) && rows[0].geom.k == 7 && rows[0].filters == 6);
    assert(rows[0].lookups_per_filter == 20000000);
    assert(rows[4].structure == STRUCT_DESIGN && rows[4].geom.k == 20);
    assert(rows[4].geom.m == (UINT64_C(3) << 29) && rows[4].lookups_per_filter == 250000000);
    assert(rows[8].geom.m == 3000000000 && rows[8].filters == 3 && rows[8].n == 300000000);
    free(rows);
    assert(experiment_rows(e, 1, &rows, &n, err, sizeof err) == 0);
    assert(n == 12 && rows[0].geom.m == 25165824 && rows[4].n == 875175 && rows[11].filters == 2);
    free(rows);
    free(e);
    printf("guava: three sweeps with their own [quick], rows sweep by sweep: ok\n");
}

static void test_k_rules(void)
{
    /* round(b ln 2) and ceil(b ln 2), at least 1 (SPEC.md, The model). */
    assert(experiment_k(K_OPTIMAL, 0, 10) == 7);  /* 6.93 */
    assert(experiment_k(K_CEIL, 0, 10) == 7);
    assert(experiment_k(K_OPTIMAL, 0, 20) == 14); /* 13.86 */
    assert(experiment_k(K_OPTIMAL, 0, 32) == 22); /* 22.18 */
    assert(experiment_k(K_CEIL, 0, 32) == 23);
    assert(experiment_k(K_OPTIMAL, 0, 0.5) == 1);
    assert(experiment_k(K_FIXED, 9, 32) == 9);
    printf("k rules: ok\n");
}

int main(void)
{
    test_shipped();
    test_floor_rows();
    test_format();
    test_sweeps();
    test_k_rules();
    return 0;
}
