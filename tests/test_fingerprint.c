/* test_fingerprint.c - the fingerprint filters (fingerprint.h; issue 21):
 *  - the registry: every filter's ops and the generic contracts at one design;
 *  - designs: 500 keys at 1% (the seed's first design) for each filter, and the widths
 *    of the widening fields, worked by hand;
 *  - schedules: generations, expansions, voids, the secondary table and the bits of
 *    small filters, worked by hand from the reference's rules (quotient_family.c cites
 *    them);
 *  - hand-worked entries: one key's slot and fingerprint field after none, one and two
 *    expansions, as the reference's Java code lays them out (its unary age mark
 *    included), and a key that runs out of bits;
 *  - the cuckoo filter's exact rate against an enumeration of a tiny filter;
 *  - statistical: every registered filter's exact rate against the lookups estimator and
 *    the conditional one at several loads and expansion counts (within 5 standard errors,
 *    fixed seeds);
 *  - quotient-fixed, the quotient filter that never grows: its schedule by hand, its exact
 *    rate derived and measured below, at and past its capacity;
 *  - the seed's claim on a quick scale: the plain quotient filter's rate doubles at each
 *    doubling of the keys, measured and exact. */
#undef NDEBUG
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fingerprint/registry.h"
#include "fingerprint/quotient_family.h"
#include "experiment/plan.h"
#include "estimate/simulate.h"
#include "base/stats.h"
#include "sweep_rows.h"

static const fp_filter_t *F(const char *name)
{
    const fp_filter_t *f = fp_filter_find(name);
    assert(f);
    return f;
}

/* Every registered filter: its name found, its ops complete, and the contracts of the
 * generic functions at a design of 500 keys at 1%: the exact rate meets it at those keys
 * (a real library's design is its own, kept or not: tests/test_fingerprint_libraries.c),
 * every key offered is stored or refused, its bits and places, and the size command's
 * text ends in lines, with the exact rate in full. */
static void test_registry(void)
{
    assert(fp_filter_count() > 0 && fp_filter_at(fp_filter_count()) == NULL);
    assert(fp_filter_find("bloom") == NULL);
    for (size_t i = 0; i < fp_filter_count(); i++) {
        const fp_filter_t *f = fp_filter_at(i);
        const fp_ops_t *o = f->ops;
        assert(fp_filter_find(f->name) == f && f->summary[0]);
        assert(f->scheme && strcmp(f->scheme->name, f->name) == 0);
        assert(o && o->design && o->run && o->space && o->new_bits && o->exact && o->places);
        assert(o->between_var && o->describe && o->table_bytes && o->table_alloc);
        assert(o->table_free && o->build && o->lookups);
        assert(fp_has_conditional(f) == (o->conditional != NULL) && (o->conditional || f->real));
        fp_design_t d;
        fp_state_t s;
        assert(fp_design(f, 500, 0.01, 0.8, 0, &d) == FP_OK && fp_run(f, &d, 500, &s) == FP_OK);
        double x = fp_exact(&s);
        assert(s.filter == f && s.keys == 500 && s.stored + s.refused == 500);
        assert(x > 0 && (f->real ? x < 1 : x <= 0.01) && s.bits > 0 && s.slots > 0);
        assert(fp_places(&s) >= 1);
        assert(fp_new_bits(&s) >= 1 && fp_between_var(&s) >= 0 && fp_work_bytes(&s) > 0);
        char text[2048], want[64];
        size_t len = fp_describe(&s, text, sizeof text);
        snprintf(want, sizeof want, "\nexact            %.17g", x);
        assert(len > 0 && len < sizeof text && text[len - 1] == '\n' && strstr(text, want));
        assert(fp_describe(&s, text, 8) == len && strlen(text) == 7); /* cut, terminated */
        printf("  %-22s q %u, %u bits: %llu bits, exact %.4g\n", f->name, d.q, d.bits,
               (unsigned long long)s.bits, x);
    }
    printf("registry: %zu filters ok\n", fp_filter_count());
}

static void test_designs(void)
{
    fp_design_t d;
    /* 500 keys at 1%, threshold 0.8: 819 > 500 >= 409 gives q = 10; T = q + r with
     * 500 2^-16 = 0.0076 <= 1% < 500 2^-15 */
    assert(fp_design(F("quotient"), 500, 0.01, 0.8, 0, &d) == FP_OK);
    assert(d.q == 10 && d.bits == 6 && d.threshold == 0.8);
    assert(fp_design(F("infinifilter"), 500, 0.01, 0.8, 0, &d) == FP_OK);
    assert(d.q == 10 && d.bits == 7); /* one bit more: the age mark */
    assert(fp_design(F("aleph"), 500, 0.01, 0.8, 0, &d) == FP_OK && d.bits == 7);
    /* threshold 1: 512 > 500 */
    assert(fp_design(F("quotient"), 500, 0.01, 1.0, 0, &d) == FP_OK && d.q == 9 && d.bits == 7);
    /* cuckoo: 500 / 4 = 125 -> 128 buckets, 500 / 512 = 0.977 > 0.96 -> 256; 9-bit tags
     * give 0.0076, 8-bit ones 0.0152 */
    assert(fp_design(F("cuckoo"), 500, 0.01, 0.8, 0, &d) == FP_OK && d.q == 8 && d.bits == 9);
    assert(fp_design(F("cuckoo"), 400, 0.01, 0.8, 0, &d) == FP_OK && d.q == 7); /* 0.78 */
    /* given bits, and their ranges */
    assert(fp_design(F("quotient"), 500, 0.5, 0.8, 1, &d) == FP_OK && d.bits == 1);
    assert(fp_design(F("infinifilter"), 500, 0.5, 0.8, 1, &d) == FP_EBITS);
    assert(fp_design(F("cuckoo"), 500, 0.5, 0.8, 33, &d) == FP_EBITS);
    assert(fp_design(F("quotient"), 500, 1e-30, 0.8, 0, &d) == FP_ERATE);
    /* the widening fields: F + ceil(2 log2 E) after the E-th expansion; the fixed ones
     * stay F; the quotient filter's remainder loses a bit an expansion, none past r */
    const fp_qf_rules_t *w = fp_qf_rules(F("infinifilter-widening"));
    static const unsigned want[] = {5, 5, 7, 9, 9, 10, 11, 11, 11, 12, 12};
    unsigned x;
    for (unsigned E = 0; E <= 10; E++)
        assert(fp_qf_widened(5, E) == want[E] &&
               (E == 0 || (w->grow(5, E, &x) && x == want[E])));
    assert(fp_qf_rules(F("infinifilter"))->grow(5, 9, &x) && x == 5);
    assert(fp_qf_rules(F("quotient"))->grow(5, 5, &x) && x == 0);
    assert(!fp_qf_rules(F("quotient"))->grow(5, 6, &x));
    printf("designs: ok\n");
}

static void run(const char *name, unsigned q, unsigned bits, double thr, uint64_t n,
                fp_state_t *s)
{
    fp_design_t d = {.q = q, .bits = bits, .threshold = thr};
    assert(fp_run(F(name), &d, n, s) == FP_OK);
}

/* The secondary table entry by entry, as the reference code runs (ChainedInfiniFilter
 * .handle_empty_fingerprint: insert, double past a / 0.95, widen; Duplicating
 * .report_void_entry_creation: double past a, widen, insert), against fp_run's
 * chunked schedule, over designs whose secondary doubles and shrinks its field. */
static void literal_secondary(const fp_state_t *s, int copy, unsigned *sq, unsigned *w,
                              uint64_t *count)
{
    double lim = copy ? s->d.threshold : s->d.threshold / 0.95;
    *sq = 0, *w = 0, *count = 0;
    for (unsigned e = 1; e <= s->expansions; e++) {
        unsigned qb = s->d.q + e - 1, t = copy ? qb + 1 : qb;
        uint64_t c = 0;
        for (size_t g = 0; g < s->ngens; g++)
            c += s->gen_t[g] == t ? s->gen_n[g] : 0;
        for (uint64_t i = 0; i < c; i++) {
            if (!*sq) {
                unsigned p = copy ? s->d.q + 1 : (unsigned)ceil(log2((double)c) - 1e-12);
                *sq = p > 3 ? p : 3;
                *w = copy ? qb + 2 - p : qb - p + 1;
            }
            if (!copy)
                (*count)++;
            while ((double)*count / ldexp(1.0, (int)*sq) > lim)
                (*sq)++, *w = s->d.bits < *w ? *w - 1 : s->d.bits;
            while (*sq + *w <= qb + 1)
                (*w)++;
            if (copy)
                (*count)++;
        }
    }
}

static void test_secondary_literal(void)
{
    static const char *names[] = {"infinifilter", "infinifilter-widening", "aleph"};
    static const double thr[] = {0.5, 0.75, 0.8, 0.95};
    int doubled = 0, shrunk = 0;
    for (size_t f = 0; f < 3; f++)
        for (unsigned q = 3; q <= 6; q++)
            for (unsigned bits = 2; bits <= 7; bits++)
                for (size_t a = 0; a < 4; a++)
                    for (uint64_t n = 10; n <= 40000; n = n * 3 + 1) {
                        fp_state_t s;
                        run(names[f], q, bits, thr[a], n, &s);
                        unsigned sq, w;
                        uint64_t c;
                        literal_secondary(&s, f == 2, &sq, &w, &c);
                        assert(s.secondary == c && s.secondary_q == sq);
                        assert(s.secondary_width == w);
                        doubled += sq > 3 && sq > (f == 2 ? q + 1 : 3);
                        shrunk += c && w < s.q + 1 - sq;
                    }
    assert(doubled > 0 && shrunk > 0); /* the grid reaches both paths */
    printf("secondary: literal schedule ok (%d doubled, %d narrower than Q + 1 - sq)\n",
           doubled, shrunk);
}

/* Thresholds floor(0.75 2^Q): 6, 12, 24, 48, 96, 192 for Q = 3..8. */
static void test_schedules(void)
{
    fp_state_t s;
    /* quotient q = 3, r = 4: 6 keys, expand (r 3), 6, expand (r 2), 8 of 12 */
    run("quotient", 3, 4, 0.75, 20, &s);
    assert(s.ngens == 3 && s.gen_n[0] == 6 && s.gen_n[1] == 6 && s.gen_n[2] == 8);
    assert(s.gen_t[0] == 7 && s.gen_t[1] == 7 && s.gen_t[2] == 7); /* T = q + r always */
    assert(s.expansions == 2 && s.q == 5 && s.width == 2 && fp_new_bits(&s) == 2);
    assert(s.stored == 20 && s.refused == 0 && s.voids == 0 && s.slots == 32);
    assert(s.bits == (32 + 10) * (3 + 2)); /* 2Q extension slots */
    /* after 4 expansions no bit is left: full at 96, the rest refused */
    run("quotient", 3, 4, 0.75, 200, &s);
    assert(s.expansions == 4 && s.q == 7 && s.width == 0 && s.stored == 96);
    assert(s.refused == 104 && s.voids == 96);
    assert(fabs(fp_exact(&s) + expm1(96 * log1p(-1.0 / 128))) < 1e-15);
    /* InfiniFilter q = 3, F = 5 (4 hash bits): T = 7, 8, 9, 10, 11, 12; generation 0 is
     * void at Q = 7, moved to the secondary at Q = 8, which frees 6 of the main table */
    run("infinifilter", 3, 5, 0.75, 100, &s);
    static const uint64_t n1[] = {6, 6, 12, 24, 48, 4};
    assert(s.ngens == 6 && s.expansions == 5 && s.q == 8 && s.width == 5);
    for (size_t g = 0; g < 6; g++)
        assert(s.gen_n[g] == n1[g] && s.gen_t[g] == 7 + g);
    assert(s.voids == 12 && s.secondary == 6 && s.main_entries == 94);
    /* secondary (ChainedInfiniFilter.expand at qb = 7): 6 voids, p = ceil(log2 6) = 3,
     * field qb - p + 1 = 5; the 6 entries move in (6 / 8 <= 0.75 / 0.95, no doubling),
     * then it widens while 3 + w <= qb + 1 = 8: w = 6. Main (256 + 16) (3 + 5). */
    assert(s.secondary_q == 3 && s.secondary_width == 6);
    assert(s.bits == (256 + 16) * 8 + (8 + 6) * 9);
    double main_no = exp(6 * log1p(-1.0 / 256) + 12 * log1p(-1.0 / 512) +
                         24 * log1p(-1.0 / 1024) + 48 * log1p(-1.0 / 2048) +
                         4 * log1p(-1.0 / 4096));
    assert(fabs(fp_places(&s) - (1 + main_no)) < 1e-12);
    /* Aleph, widening (5, 5, 7, 9, 9, 10): T = 7, 8, 11, 14, 15, 17; its void entries
     * stay as copies: 6 x 2 + 6 at Q = 8, so 102 entries before generation 5 */
    run("aleph", 3, 5, 0.75, 100, &s);
    static const unsigned t2[] = {7, 8, 11, 14, 15, 17};
    assert(s.ngens == 6 && s.expansions == 5 && s.q == 8 && s.width == 10);
    for (size_t g = 0; g < 6; g++)
        assert(s.gen_n[g] == n1[g] && s.gen_t[g] == t2[g]);
    assert(s.voids == 12 && s.secondary == 12 && s.main_entries == 106);
    /* secondary (Duplicating, at generation 0's voids, qb = 6): 2^(q0 + 1) = 16 slots,
     * field qb + 2 - 4 = 4 (4 + 4 > 7: no widening); generation 1's at qb = 7 widen it
     * to 5 (4 + 4 <= 8); 11 entries before the last, 11 / 16 <= 0.75: no doubling */
    assert(s.secondary_q == 4 && s.secondary_width == 5 && fp_places(&s) == 1);
    assert(s.bits == (256 + 16) * 13 + (16 + 8) * 8);
    /* cuckoo: 256 buckets of 4 9-bit tags, 5 bytes a bucket */
    fp_design_t d;
    assert(fp_design(F("cuckoo"), 500, 0.01, 0.8, 0, &d) == FP_OK);
    assert(fp_run(F("cuckoo"), &d, 500, &s) == FP_OK);
    assert(s.slots == 1024 && s.bits == 256 * 40 && fp_places(&s) == 2 && fp_new_bits(&s) == 9);
    printf("schedules: ok\n");
}

static void entry(const fp_state_t *s, size_t g, pcg_u128 h, int where, uint64_t slot,
                  uint64_t field, unsigned bits)
{
    fp_entry_t e;
    assert(fp_entry_of(s, g, h, &e) == 0);
    if (e.where != where || e.slot != slot || (where == 0 && (e.field != field || e.bits != bits)))
        fprintf(stderr, "%s g %zu: where %d slot %llu field %llu bits %u\n", s->filter->name,
                g, e.where, (unsigned long long)e.slot, (unsigned long long)e.field, e.bits);
    assert(e.where == where && e.slot == slot);
    assert(where != 0 || (e.field == field && e.bits == bits));
}

/* One key, h = 1011 0110 (182), in tables of 2^3 slots at threshold 1: 1 key (no
 * expansion), 8 (one: the 8th fills the table) and 16 (two). */
static void test_entries(void)
{
    fp_state_t s;
    const pcg_u128 h = 182;
    /* quotient, r = 4: slot = h mod 2^Q, remainder = the next r - E bits */
    run("quotient", 3, 4, 1.0, 1, &s);
    entry(&s, 0, h, 0, 6, 6, 4);  /* slot 110, remainder 0110 */
    run("quotient", 3, 4, 1.0, 8, &s);
    entry(&s, 0, h, 0, 6, 3, 3);  /* slot 0110, remainder 011 */
    run("quotient", 3, 4, 1.0, 16, &s);
    entry(&s, 0, h, 0, 22, 1, 2); /* slot 10110, remainder 01 */
    /* InfiniFilter, F = 5: a zero over 4 hash bits; each expansion shifts the field
     * right (its lowest bit went to the slot) and sets a top bit: 00110, 10011, 11001 */
    run("infinifilter", 3, 5, 1.0, 1, &s);
    entry(&s, 0, h, 0, 6, 6, 4);
    run("infinifilter", 3, 5, 1.0, 8, &s);
    entry(&s, 0, h, 0, 6, 19, 3);
    run("infinifilter", 3, 5, 1.0, 16, &s);
    entry(&s, 0, h, 0, 22, 25, 2);
    /* a key of generation 1 (inserted at Q = 4): 4 hash bits again, 01011, then 10101 */
    run("infinifilter", 3, 5, 1.0, 9, &s);
    entry(&s, 1, h, 0, 6, 11, 4);
    run("infinifilter", 3, 5, 1.0, 16, &s);
    entry(&s, 1, h, 0, 22, 21, 3);
    /* widening: the second expansion widens the field to 7 bits with three top ones over
     * the shifted 1001: 1111001 (121); generation 1 keeps 4 bits under 2 ones: 1101 01 */
    run("infinifilter-widening", 3, 5, 1.0, 16, &s);
    assert(s.width == 7);
    entry(&s, 0, h, 0, 22, 121, 2);
    entry(&s, 1, h, 0, 22, 0x75, 3); /* 11 1 0 101: ones 3, zero, 101 */
    /* F = 3 (2 hash bits): void at Q = 5, all ones over a zero (110); then moved to the
     * secondary (InfiniFilter) or copied to slots 22 and 54 (Aleph) at Q = 6 */
    run("infinifilter", 3, 3, 1.0, 16, &s);
    entry(&s, 0, h, 0, 22, 6, 0);
    run("infinifilter", 3, 3, 1.0, 32, &s);
    assert(s.q == 6);
    entry(&s, 0, h, 1, 22, 0, 0);
    run("aleph", 3, 3, 1.0, 32, &s);
    fp_entry_t e;
    assert(fp_entry_of(&s, 0, h, &e) == 0 && e.where == 2 && e.slot == 22 && e.copies == 2);
    printf("entries: ok\n");
}

/* Two buckets, 2-bit tags, one key: enumerate its bucket and tag and the query's. */
static void test_cuckoo_exact(void)
{
    const double P[4] = {0, 0.5, 0.25, 0.25}; /* tag 0 becomes 1 */
    double want = 0;
    for (unsigned ik = 0; ik < 2; ik++)
        for (unsigned tk = 1; tk < 4; tk++)
            for (unsigned iq = 0; iq < 2; iq++)
                for (unsigned tq = 1; tq < 4; tq++) {
                    unsigned alt = (iq ^ (unsigned)(tq * 0x5bd1e995u)) & 1u;
                    if (tk == tq && (ik == iq || ik == alt))
                        want += 0.25 * P[tk] * P[tq];
                }
    fp_state_t s;
    fp_design_t d = {.q = 1, .bits = 2, .threshold = 0.8};
    assert(fp_run(F("cuckoo"), &d, 1, &s) == FP_OK);
    assert(fabs(want - 0.34375) < 1e-15 && fabs(fp_exact(&s) - want) < 1e-15);
    printf("cuckoo exact: %.6f, as enumerated\n", want);
}

/* The rows of a design sweep of every fingerprint filter of a paper at these key counts
 * (the real libraries' are tests/test_fingerprint_libraries.c's). */
static exp_row_t *rows_of(const char *counts, const char *estimator, size_t *nrows,
                          experiment_t *e)
{
    char names[512] = "", text[1024], err[EXP_ERR_LEN];
    for (size_t i = 0; i < fp_filter_count(); i++) /* every registered filter */
        if (!fp_filter_at(i)->real)
            snprintf(names + strlen(names), sizeof names - strlen(names), " %s",
                     fp_filter_at(i)->name);
    snprintf(text, sizeof text, "[sweep]\ndesign_keys = 500\ndesign_rate = 0.01\n"
             "inserted = %s\nfingerprint =%s\nestimator = %s\nfilters = 16\nlookups = 2e6\n",
             counts, names, estimator);
    if (experiment_load_text("t.ini", text, strlen(text), e, err, sizeof err))
        fprintf(stderr, "%s\n", err);
    exp_row_t *rows;
    assert(plan_rows(e, 0, &rows, nrows, err, sizeof err) == 0);
    return rows;
}

/* Each row's estimate against the exact rate: within 5 of its standard errors. */
static void test_against_exact(const char *estimator, uint64_t seed)
{
    experiment_t *e = malloc(sizeof *e);
    size_t nrows;
    /* no expansion; one (819 filled the first table); one; two; four; six (InfiniFilter's
     * first generation moved to its secondary, the quotient filter without remainder) */
    exp_row_t *rows = rows_of("500 819 1300 3000 10000 32000", estimator, &nrows, e);
    double worst = 0;
    size_t compared[64] = {0};
    assert(fp_filter_count() <= 64);
    for (size_t i = 0; i < nrows; i++) {
        exp_row_t *row = &rows[i];
        row_out_t out;
        sim_used_t used;
        assert(sim_out_alloc(&out, row_max_filters(row)) == 0);
        assert(sim_row(&(row_run_t){.row = row, .seed = seed, .index = i, .threads = 2,
                                    .out = &out}, &used) == 0);
        stats_summary_t st;
        assert(sim_summarize(row, used.filters, &out, &st) == 0);
        double refused = 0;
        for (uint64_t f = 0; f < used.filters; f++)
            refused += (double)out.refused[f];
        double x = fp_exact(&row->fp), z = (st.rate - x) / st.stderr_;
        /* Refusals the schedule did not plan (a cuckoo filter past its capacity): the
         * exact rate assumes the schedule's keys stored, so there is none; a filter sized
         * for the keys inserted never refuses one. */
        if (refused > (double)row->fp.refused * (double)used.filters) {
            assert(!row->fingerprint->rebuilt);
            printf("  %-11s %-22s n %-6llu refused %.0f keys: no exact rate\n", estimator,
                   row->fingerprint->name, (unsigned long long)row->n, refused);
            sim_out_free(&out);
            continue;
        }
        printf("  %-11s %-22s n %-6llu E %u  rate %.6e exact %.6e z %+.2f\n", estimator,
               row->fingerprint->name, (unsigned long long)row->n, row->fp.expansions,
               st.rate, x, z);
        assert(st.stderr_ > 0 && fabs(z) < 5);
        worst = fmax(worst, fabs(z));
        for (size_t j = 0; j < fp_filter_count(); j++)
            compared[j] += fp_filter_at(j) == row->fingerprint;
        sim_out_free(&out);
    }
    for (size_t j = 0; j < fp_filter_count(); j++) /* every filter met its exact rate */
        assert(compared[j] > 0 || fp_filter_at(j)->real);
    printf("%s against exact: %zu rows, largest |z| %.2f\n", estimator, nrows, worst);
    free(rows);
    free(e);
}

/* Seed 001: "the filter then grows as one structure ... at the cost of a fingerprint one
 * bit shorter, which raises its false-positive rate by a factor of two at each doubling":
 * the plain quotient filter at 1, 2, 4, 8 times its design of 500 keys. */
static void test_doubling(void)
{
    experiment_t *e = malloc(sizeof *e);
    size_t nrows;
    exp_row_t *rows = rows_of("500 1000 2000 4000", "conditional", &nrows, e);
    double prev = 0, prev_x = 0;
    for (size_t i = 0; i < nrows; i++) {
        exp_row_t *row = &rows[i];
        if (strcmp(row->fingerprint->name, "quotient") != 0)
            continue;
        double rates[16];
        uint64_t used;
        row->filters = 8;
        assert(sim_row_into(row, 7, i, 2, NULL, rates, &used) == 0 && used == 8);
        double mean = 0, x = fp_exact(&row->fp);
        for (int f = 0; f < 8; f++)
            mean += rates[f] / 8;
        if (prev > 0) {
            printf("  %llu keys: rate %.5f, %.4f times the last (exact %.4f)\n",
                   (unsigned long long)row->n, mean, mean / prev, x / prev_x);
            assert(x / prev_x > 1.96 && x / prev_x < 2.0);
            assert(fabs(mean / prev - 2) < 0.05);
        }
        prev = mean, prev_x = x;
    }
    printf("doubling: ok\n");
    free(rows);
    free(e);
}

/* quotient-fixed (quotient_fixed.c): the table never grows. Hand-worked, q = 3, r = 4 at
 * threshold 0.75: the 6th key fills it, the other 14 are refused, each stored key keeps
 * T = 7 bits, (8 + 6)(3 + 4) bits. Its exact rate, 1 - (1 - 2^-(q + r))^s with s =
 * min(n, floor(a 2^q)) stored keys, against both estimators (fixed seeds, within 5
 * standard errors) for the seed's design of 500 keys at 1% (q = 10, r = 6: 819 keys fill
 * it) offered 500, 819 and 4,000 keys: below, at and far past its capacity. */
/* quotient-fixed's rows against their exact rate (its stored keys at most 819 of them). */
typedef struct qf_ctx {
    const char *est;
    size_t rows;
} qf_ctx_t;

static void qf_check(const exp_row_t *row, const stats_summary_t *st, const row_out_t *out,
                     uint64_t filters, void *ctxp)
{
    qf_ctx_t *ctx = ctxp;
    ctx->rows++;
    double stored = row->n < 819 ? (double)row->n : 819;
    double want = 1 - pow(1 - ldexp(1.0, -16), stored), x = fp_exact(&row->fp);
    double z = (st->rate - x) / st->stderr_;
    assert(row->fp.d.q == 10 && row->fp.d.bits == 6 && row->fp.bits == 9396);
    assert(fabs(x / want - 1) < 1e-12 && (double)row->fp.stored == stored);
    for (uint64_t f = 0; f < filters; f++)
        assert((double)out->refused[f] == (double)row->n - stored);
    printf("  quotient-fixed %-11s n %-5llu stored %.0f rate %.6e exact %.6e z %+.2f\n",
           ctx->est, (unsigned long long)row->n, stored, st->rate, x, z);
    assert(st->stderr_ > 0 && fabs(z) < 5);
}

static void test_quotient_fixed(void)
{
    fp_state_t s;
    run("quotient-fixed", 3, 4, 0.75, 20, &s);
    assert(s.ngens == 1 && s.gen_n[0] == 6 && s.gen_t[0] == 7 && s.expansions == 0);
    assert(s.q == 3 && s.width == 4 && s.stored == 6 && s.refused == 14 && s.voids == 0);
    assert(s.secondary == 0 && s.bits == (8 + 6) * (3 + 4) && fp_places(&s) == 1);
    assert(fabs(fp_exact(&s) - (1 - pow(1 - 1.0 / 128, 6))) < 1e-15);
    const char *est[2] = {"lookups", "conditional"};
    for (int k = 0; k < 2; k++) {
        char text[512];
        snprintf(text, sizeof text, "[sweep]\ndesign_keys = 500\ndesign_rate = 0.01\n"
                 "inserted = 500 819 4000\nfingerprint = quotient-fixed\nestimator = %s\n"
                 "filters = 64\nlookups = 6.4e6\n", est[k]);
        qf_ctx_t ctx = {est[k], 0};
        sweep_rows(text, 20261203 + (uint64_t)k, qf_check, &ctx);
        assert(ctx.rows == 3);
    }
    printf("quotient-fixed: ok\n");
}

int main(void)
{
    test_registry();
    test_designs();
    test_schedules();
    test_secondary_literal();
    test_entries();
    test_cuckoo_exact();
    test_against_exact("lookups", 20261201);
    test_against_exact("conditional", 20261202);
    test_doubling();
    test_quotient_fixed();
    return 0;
}
