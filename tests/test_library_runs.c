/* test_library_runs.c - runs of real keys through the libraries' own hashes (est_keys.c,
 * plan.c): the counts a run makes equal a filter built here key by key from the same key
 * streams, at 1 and 2 threads, for the key sets and for a file of keys; a precision
 * target on one filter; and what a sweep of real keys refuses. */
#undef NDEBUG
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "estimate/simulate.h"
#include "experiment/experiment.h"
#include "experiment/plan.h"
#include "library_filter.h"

/* A design row of lib at n keys and p measuring key set `set` (filters F, L lookups
 * each), through the experiment file path and plan_real_keys as `bloomsim run` makes it. */
static exp_row_t real_row(const char *lib, uint64_t n, double p, const char *set, uint64_t F,
                          uint64_t L)
{
    char text[512], err[EXP_ERR_LEN];
    snprintf(text, sizeof text, "[sweep]\ndesign_keys = %llu\ndesign_rate = %g\n"
             "libraries = %s\nkey_sets = %s\nfilters = %llu\nlookups = %llu\n",
             (unsigned long long)n, p, lib, set, (unsigned long long)F,
             (unsigned long long)(F * L));
    experiment_t *e = calloc(1, sizeof *e);
    exp_row_t *rows, row;
    size_t nrows;
    assert(e && experiment_load_text("t.ini", text, strlen(text), e, err, sizeof err) == 0);
    assert(plan_rows(e, 0, &rows, &nrows, err, sizeof err) == 0 && nrows == 1);
    row = rows[0];
    free(rows);
    free(e);
    assert(row_real_keys(&row) && row.words == library_find(lib)->words);
    assert(strstr(row.label, lib) == row.label && strstr(row.label, set));
    return row;
}

/* The counts a run of real keys makes equal a filter built here key by key from the same
 * key streams: seq keys (every filter the same one, filter f querying keys f L on) and
 * random and filter-bench keys (filter f its own stream; filter-bench's L cut to n where
 * n is smaller), at 1 and 2 threads, over more than one chunk of
 * EST_CHUNK keys so that chunks meet. Queried keys are never inserted ones. */
static void test_run_real(void)
{
    static const char *libs[] = {"leveldb", "guava", "hadoop"};
    static const char *sets[] = {"seq", "random", "seq-str", "uuid", "filter-bench"};
    for (size_t li = 0; li < 3; li++)
        for (size_t si = 0; si < 5; si++) {
            const uint64_t n = li == 0 && si != 2 && si != 3 ? 300000 : 20000, F = 3, L = 40000;
            exp_row_t row = real_row(libs[li], n, 0.02, sets[si], F, L);
            uint64_t c1[3], c2[3], used;
            assert(sim_row_into(&row, 7, 0, 1, c1, NULL, &used) == 0 && used == F);
            assert(sim_row_into(&row, 7, 0, 2, c2, NULL, &used) == 0 && used == F);
            keyset_t ks = row.keys;
            ks.seed = 7;
            int own = keyset_per_filter(&ks);
            /* filter-bench asks a filter at most its n queries */
            assert(row.lookups_per_filter == (!strcmp(ks.kind->name, "filter-bench") && n < L ? n : L));
            filt_t f;
            filt_init(&f, libs[li], NULL, row.geom.m, row.geom.k);
            assert(f.g.m == row.geom.m);
            for (uint64_t fi = 0; fi < F; fi++) {
                memset(f.b, 0, f.g.m / 8 + 8);
                key_stream_t s;
                rkey_t key;
                key_stream_init(&s, &ks, KEY_ROLE_INSERT, own ? fi : 0, 0);
                uint64_t ins = 0, fp = 0;
                while (key_next(&s, &key))
                    filt_key(&f, &key, 1), ins++;
                key_stream_init(&s, &ks, KEY_ROLE_QUERY, own ? fi : 0, own ? 0 : fi * L);
                for (uint64_t q = 0; q < L && key_next(&s, &key); q++)
                    fp += (uint64_t)filt_key(&f, &key, 0);
                assert(ins == n);
                if (c1[fi] != fp || c2[fi] != fp)
                    printf("FAIL %s %s filter %llu: run %llu and %llu, direct %llu\n", libs[li],
                           sets[si], (unsigned long long)fi, (unsigned long long)c1[fi],
                           (unsigned long long)c2[fi], (unsigned long long)fp);
                assert(c1[fi] == fp && c2[fi] == fp);
            }
            free(f.b);
        }
    printf("runs of real keys: the counts of filters built key by key, at 1 and 2 threads\n");
}

/* A precision target on a one-filter row (seq: batches of queries to one filter) rests on
 * STATS_MIN_SPREAD_FILTERS batches at least, asked from the start (sim_first), where the
 * same design on random keys (a filter per stream) meets it with its 2 filters: LevelDB
 * at 3*10^5 keys, 2% (about 2,000 false positives a batch of 10^5: 1.6% relative error
 * from 2). (Its seq-str keys, whose batches spread wider, take 1,272 batches to 5%.) */
static void test_one_filter_batches(void)
{
    static const char *sets[] = {"seq", "random"};
    for (size_t si = 0; si < 2; si++) {
        exp_row_t row = real_row("leveldb", 300000, 0.02, sets[si], 2, 100000);
        row.precision = 0.05;
        uint64_t *c = calloc(row_max_filters(&row), sizeof *c), used;
        assert(c && sim_row_into(&row, 7, 0, 2, c, NULL, &used) == 0);
        assert(sim_first(&row, NULL).filters == (si == 0 ? STATS_MIN_SPREAD_FILTERS : 2));
        if (si == 0)
            assert(sim_one_filter(&row) && used == STATS_MIN_SPREAD_FILTERS && c[7] > 0);
        else
            assert(!sim_one_filter(&row) && used == 2);
        free(c);
    }
    printf("one-filter rows: a precision target asks %d batches of queries; random keys 2 "
           "filters\n", STATS_MIN_SPREAD_FILTERS);
}

/* A new temporary key file at path (a mkstemp template), open for writing. */
static FILE *key_file_create(char *path)
{
    int fd = mkstemp(path);
    FILE *fp = fd >= 0 ? fdopen(fd, "w") : NULL;
    assert(fp);
    return fp;
}

/* A file key set (bloomsim audit --key-file): its first n lines inserted, filter f's
 * queries from query f L on, taken cyclically over the lines after them; the run's
 * counts equal the filter built here key by key, at 1 and 2 threads. */
static void test_run_file(void)
{
    const uint64_t n = 3000, Q = 1000, F = 3, L = 700;
    char path[] = "/tmp/bloomsim_test_keysXXXXXX";
    FILE *fp = key_file_create(path);
    for (uint64_t i = 0; i < n + Q; i++)
        fprintf(fp, "user:%llu%s\n", (unsigned long long)(i * 7919 % 100003),
                i % 3 ? "" : "\r");
    fclose(fp);
    exp_row_t row = real_row("guava", n, 0.05, "seq", F, L);
    char err[EXP_ERR_LEN];
    keyset_close(&row.keys);
    assert(keyset_open(&row.keys, keyset_kind_find("file"), 0, n, path, err, sizeof err) == KEYSET_OK);
    assert(row.keys.lines == n + Q);
    uint64_t c1[3], c2[3], used;
    assert(sim_row_into(&row, 7, 0, 1, c1, NULL, &used) == 0 && used == F);
    assert(sim_row_into(&row, 7, 0, 2, c2, NULL, &used) == 0 && used == F);
    filt_t f;
    filt_init(&f, "guava", NULL, row.geom.m, row.geom.k);
    key_stream_t s;
    rkey_t key;
    key_stream_init(&s, &row.keys, KEY_ROLE_INSERT, 0, 0);
    while (key_next(&s, &key))
        assert(key.len > 5 && key.bytes[key.len - 1] != '\r'), filt_key(&f, &key, 1);
    for (uint64_t fi = 0; fi < F; fi++) {
        uint64_t fpc = 0;
        for (uint64_t q = 0; q < L; q++) {
            key_stream_init(&s, &row.keys, KEY_ROLE_QUERY, 0, (fi * L + q) % Q);
            assert(key_next(&s, &key));
            fpc += (uint64_t)filt_key(&f, &key, 0);
        }
        assert(c1[fi] == fpc && c2[fi] == fpc);
    }
    free(f.b);
    keyset_close(&row.keys);
    remove(path);
    printf("a file of keys: the counts of its filter built line by line, queries cyclic\n");
}

/* A file too short for 8 batches of the planned lookups, with a precision target: its
 * batches shrink so that the target's 8 fit in its lines (plan_key_file), and the row
 * runs and meets them (a file of 4,000 queried lines planned at 2 x 2,000: 8 x 500). */
static void test_file_target(void)
{
    const uint64_t n = 3000, Q = 4000;
    char path[] = "/tmp/bloomsim_test_keysXXXXXX", err[EXP_ERR_LEN];
    FILE *fp = key_file_create(path);
    for (uint64_t i = 0; i < n + Q; i++)
        fprintf(fp, "user:%llu\n", (unsigned long long)i);
    fclose(fp);
    exp_row_t row = real_row("guava", n, 0.05, "seq", 2, 2000);
    keyset_close(&row.keys);
    row.precision = 0.5;
    assert(plan_key_file(&row, keyset_kind_find("file"), path, path, err, sizeof err) == 0);
    assert(row.lookups_per_filter == Q / STATS_MIN_SPREAD_FILTERS && sim_one_filter(&row));
    assert(row_max_filters(&row) >= STATS_MIN_SPREAD_FILTERS);
    uint64_t c[STATS_MIN_SPREAD_FILTERS], used;
    assert(sim_row_into(&row, 7, 0, 2, c, NULL, &used) == 0 && used == STATS_MIN_SPREAD_FILTERS);
    row_out_t out;
    assert(sim_out_alloc(&out, STATS_MIN_SPREAD_FILTERS) == 0);
    memcpy(out.counts, c, sizeof c);
    stats_summary_t s;
    assert(sim_summarize(&row, used, &out, &s) == 0 && sim_target_met(&row, &s));
    sim_out_free(&out);
    keyset_close(&row.keys);
    remove(path);
    printf("a short file with a target: 8 batches of its lines, met\n");
}

/* What a sweep of real keys refuses, each naming its line and value. */
static void test_real_errors(void)
{
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"[sweep]\ndesign_keys = 1000\ndesign_rate = 0.01\nlibraries = guava\n"
         "key_sets = seq, sq\n", "t.ini:5: key_sets: unknown key set (ideal, seq, seq-str, "
         "random, uuid, file"}, /* the registry's names (test_keys.c, real_keys.sh) */
        {"[sweep]\ndesign_keys = 1000\ndesign_rate = 0.01\nlibraries = guava, bloomfilter-js\n"
         "key_sets = filter-bench\n", "t.ini:5: library bloomfilter-js hashes text only: "
         "filter-bench keys are bytes (got 'filter-bench')"},
        {"[sweep]\ndesign_keys = 1000\ndesign_rate = 0.01\nlibraries = guava\n"
         "key_sets = file\n", "t.ini:5: key_sets: the file key set needs key_file = PATH "
         "(got 'file')"},
        {"[sweep]\ndesign_keys = 1000\ndesign_rate = 0.01\nlibraries = guava\n"
         "key_sets = seq\nkey_file = k.txt\n", "t.ini:6: key_file needs file in key_sets "
         "(got 'k.txt')"},
        {"[sweep]\ndesign_keys = 1000\ndesign_rate = 0.01\nschemes = double\n"
         "key_sets = seq\n", "t.ini:5: key_sets needs libraries or splits (their hashes turn "
         "keys into words) (got 'seq')"},
        /* hash splits (splits/split.h): plain sweeps of seed 003's schemes on real keys */
        {"[sweep]\nbits = 1024\nbits_per_key = 8\nschemes = enhanced\nkey_sets = seq\n",
         "t.ini:5: key_sets needs libraries or splits"},
        {"[sweep]\nbits = 1024\nbits_per_key = 8\nschemes = enhanced\nkey_sets = seq\n"
         "splits = xxh64, nope\n", "t.ini:6: splits: unknown split (fnv1a64, fnv1a64-mixed, "},
        {"[sweep]\nbits = 1024\nbits_per_key = 8\nschemes = enhanced\nkey_sets = ideal\n"
         "splits = xxh64\n", "t.ini:6: splits needs key_sets with real keys (seq, seq-str, "
         "...) to hash (got 'xxh64')"},
        {"[sweep]\ndesign_keys = 1000\ndesign_rate = 0.01\nschemes = enhanced\n"
         "splits = xxh64\n", "t.ini:5: splits does not go with design_keys (got 'splits')"},
        {"[sweep]\nbits = 1024\nbits_per_key = 8\nschemes = enhanced, double\n"
         "key_sets = seq\nsplits = xxh64\n", "t.ini:6: split xxh64 feeds double-odd, "
         "enhanced and squares (their words are h1 and an odd stride on [0, m)), not double "
         "(got 'xxh64')"},
        {"[sweep]\nbits = 1000\nbits_per_key = 8\nschemes = enhanced\nkey_sets = seq\n"
         "splits = xxh64\n", "t.ini:6: split xxh64 needs m a power of two from 2 to 2^32 "
         "(its halves are 32 bits), not 1000 (got 'xxh64')"},
        {"[sweep]\nbits = 1024\nbits_per_key = 8\nschemes = enhanced\nkey_sets = seq\n"
         "splits = xxh64\nestimator = conditional\n", "t.ini:7: real keys (key set seq) are "
         "measured by lookups (got 'conditional')"},
        {"[sweep]\ndesign_keys = 1000\ndesign_rate = 0.01\nlibraries = guava\n"
         "key_sets = seq\nkey_prefix = user:\n", "t.ini:6: key_prefix needs seq-str in "
         "key_sets (got 'user:')"},
        {"[sweep]\ndesign_keys = 1000\ndesign_rate = 0.01\nlibraries = guava, kudu\n"
         "key_sets = ideal, seq\n", "t.ini:5: library kudu has no real hash in bloomsim: the "
         "caller hashes"},
        {"[sweep]\ndesign_keys = 1000\ndesign_rate = 0.01\nlibraries = parquet\n"
         "key_sets = seq\nestimator = conditional\n", "t.ini:6: the conditional estimator does "
         "not apply"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[EXP_ERR_LEN] = "";
        experiment_t *e = calloc(1, sizeof *e);
        exp_row_t *rows = NULL;
        size_t nrows;
        int rc = experiment_load_text("t.ini", cases[i].text, strlen(cases[i].text), e, err,
                                      sizeof err);
        if (rc == 0)
            rc = plan_rows(e, 0, &rows, &nrows, err, sizeof err);
        if (rc != 2 || strncmp(err, cases[i].want, strlen(cases[i].want)) != 0)
            printf("FAIL case %zu: rc %d, '%s'\n", i, rc, err);
        assert(rc == 2 && strncmp(err, cases[i].want, strlen(cases[i].want)) == 0);
        plan_rows_free(rows, rows ? nrows : 0);
        free(e);
    }
    printf("sweeps of real keys: %zu bad inputs, each one line naming its line\n",
           sizeof cases / sizeof cases[0]);
}

/* A sweep of splits plans, per scheme, each key set in file order, a real one once per
 * split: ideal, then seq through fnv1a64 and xxh64-mixed; each real row labelled. */
static void test_split_rows(void)
{
    static const char text[] = "[sweep]\nbits = 4096\nbits_per_key = 8\nschemes = double-odd, "
                               "enhanced\nkey_sets = ideal, seq\nsplits = fnv1a64, xxh64-mixed\n"
                               "estimator = lookups\n";
    char err[EXP_ERR_LEN] = "";
    experiment_t *e = calloc(1, sizeof *e);
    exp_row_t *rows = NULL;
    size_t n;
    assert(experiment_load_text("t.ini", text, strlen(text), e, err, sizeof err) == 0);
    assert(plan_rows(e, 0, &rows, &n, err, sizeof err) == 0 && n == 6);
    assert(!row_real_keys(&rows[0]) && row_real_keys(&rows[1]) && row_real_keys(&rows[5]));
    assert(strcmp(rows[1].scheme->name, "double-odd") == 0);
    assert(strcmp(rows[5].scheme->name, "enhanced") == 0);
    assert(strncmp(rows[1].label, "split fnv1a64; keys seq; hash FNV-1a 64", 38) == 0);
    assert(strncmp(rows[5].label, "split xxh64-mixed; keys seq; hash XXH64", 38) == 0);
    assert(rows[1].words == &split_find("fnv1a64")->words && rows[1].n == 512);
    plan_rows_free(rows, n);
    free(e);
    printf("a sweep of splits: 6 rows, ideal then each split of seq, labelled\n");
}

int main(void)
{
    test_split_rows();
    test_run_real();
    test_one_filter_batches();
    test_run_file();
    test_file_target();
    test_real_errors();
    return 0;
}
