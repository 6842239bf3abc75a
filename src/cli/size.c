/* size.c - `bloomsim size`: design a filter for n keys at a target rate by a sizing rule
 * (sizing.h), and print what that filter delivers. The rules and their one-line
 * summaries come from the registry, so `size --help` lists every rule as it is. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/json_out.h"
#include "fingerprint/registry.h"
#include "libraries/registry.h"
#include "rates/rate.h"
#include "rates/sizing.h"

/* A rule's design as size prints it: the rule, the keys, the target (p, or -1 for a
 * design by bits per key, bpk; else bpk is -1), the bits the rule computes and those its
 * filter indexes, k; and with --json the object being built (NULL: text). */
typedef struct size_design {
    const sizing_rule_t *rule;
    uint64_t n, mc, m;
    unsigned k;
    double p, bpk;
    json_object *j;
} size_design_t;

/* The design's first lines (text), or its fields (--json). */
static void print_head(const size_design_t *d)
{
    const uint64_t n = d->n, m = d->m;
    if (d->j) {
        static const char *const kinds[] = {"plain", "block", "library"};
        json_out_text(d->j, "rule", d->rule->name);
        json_out_text(d->j, "kind", kinds[d->rule->kind]);
        json_out_count(d->j, "n", n);
        json_out_num(d->j, "rate", d->p >= 0 ? d->p : NAN);
        if (d->bpk >= 0)
            json_out_num(d->j, "bits_per_key_given", d->bpk);
        json_out_count(d->j, "m", m);
        json_out_num(d->j, "bits_per_key", (double)m / (double)n);
        json_out_count(d->j, "k", d->k);
        json_out_count(d->j, "bytes", (m + 7) / 8);
        json_out_count(d->j, "m_computed", d->mc);
        return;
    }
    if (d->bpk >= 0)
        printf("rule %s: n = %llu keys at %g bits per key\n", d->rule->name,
               (unsigned long long)n, d->bpk);
    else
        printf("rule %s: n = %llu keys at target rate %g\n", d->rule->name,
               (unsigned long long)n, d->p);
    printf("m = %llu bits (%.4g bits per key), k = %u, %llu bytes\n", (unsigned long long)m,
           (double)m / (double)n, d->k, (unsigned long long)((m + 7) / 8));
}

/* The model of library l's arithmetic at the design (scheme.h's model), NaN where it
 * has none or its arithmetic cannot take this m and k. */
static double library_model(const library_t *l, const size_design_t *d)
{
    probe_geom_t g;
    if (!l->scheme->model || l->scheme->geometry(d->m, d->k, 0, &g) != SCHEME_OK)
        return NAN;
    return l->scheme->model(&g, d->n);
}

/* Whether library l's own rate at the design is not the ideal rate printed for it: its
 * arithmetic departs (library.h's departs), or its model (in *model, NaN where none) is
 * not that rate. */
static int library_own(const library_t *l, const size_design_t *d, double ideal,
                       double *model)
{
    *model = library_model(l, d);
    return l->departs || (!isnan(*model) && !(fabs(*model - ideal) <= 1e-9 * ideal));
}

/* Whether a library sized by the rule has its own rate at the design (library_own): then
 * the ideal rate is labelled as such, and each library's own rate follows. */
static int rule_departs(const size_design_t *d, double ideal)
{
    double model;
    for (size_t i = 0; i < library_count(); i++)
        if (library_at(i)->sizing == d->rule && library_own(library_at(i), d, ideal, &model))
            return 1;
    return 0;
}

/* Where a library sized by the rule has its own rate (rule_departs): each library's
 * rate at the design, its model or where to measure it, beside the ideal rate printed
 * above ("libraries" with --json). Nothing when none has. */
static void print_libraries(const size_design_t *d, double ideal)
{
    if (!rule_departs(d, ideal))
        return;
    json_object *a = d->j ? json_out_array(d->j, "libraries") : NULL;
    for (size_t i = 0; i < library_count(); i++) {
        const library_t *l = library_at(i);
        double model;
        if (l->sizing != d->rule)
            continue;
        int own = library_own(l, d, ideal, &model);
        if (d->j) {
            char cmd[128];
            json_object *o = json_out_push_obj(a);
            json_out_text(o, "name", l->name);
            json_out_bool(o, "departs", own);
            json_out_num(o, "model", model);
            if (!isnan(model) && d->p >= 0)
                json_out_num(o, "model_over_promised", model / d->p);
            snprintf(cmd, sizeof cmd, "bloomsim audit %s", l->name);
            if (own && isnan(model))
                json_out_text(o, "measure", cmd);
            continue;
        }
        printf("library %s ", l->name);
        if (own && !isnan(model)) {
            printf("%.17g (its own rate: the model of its arithmetic, docs/model.md)", model);
            if (d->p >= 0)
                printf(", %.4g times the promise", model / d->p);
            printf("\n");
        } else if (own)
            printf("departs from ideal hashing and has no model: measure it with bloomsim "
                   "audit %s\n", l->name);
        else
            printf("keeps to ideal hashing: its rate is the one above\n");
    }
}

/* size --bits-per-key: the rules of libraries that take bits per key, as they take them. */
static int size_bits_per_key(const sizing_rule_t *rule, uint64_t n, double p, double bpk,
                             int geometry, json_object *j)
{
    if (!n)
        return cli_die(2, "size: --keys is required (got no --keys)");
    if (p >= 0)
        return cli_die(2, "size: give --rate or --bits-per-key, not both (got both)");
    if (geometry)
        return cli_die(2, "size: --block-bits and --k apply only to the block rules (got "
                          "'--rule %s')", rule->name);
    size_design_t d = {.rule = rule, .n = n, .p = -1, .bpk = bpk, .j = j};
    int st = sizing_design_bpk(rule, n, bpk, &d.mc, &d.m, &d.k);
    if (st != SIZING_OK)
        return cli_die(2, "size: %s (got '--rule %s --keys %llu --bits-per-key %g')",
                       sizing_refusal(rule, st), rule->name, (unsigned long long)n, bpk);
    print_head(&d);
    double x;
    if (sizing_rate_exact(rule, d.m, n, 0, d.k, &x) != SIZING_OK)
        x = NAN;
    if (j) {
        json_out_num(j, "promised", NAN);
        json_object *o = json_out_obj(j, "ideal");
        json_out_num(o, "rate", x);
        json_out_text(o, "structure", sizing_structure_label(rule));
        print_libraries(&d, x);
        return 0;
    }
    if (d.mc != d.m)
        printf("the library computes %llu bits; its filter indexes %llu bits\n",
               (unsigned long long)d.mc, (unsigned long long)d.m);
    printf("promised         (none: the library takes bits per key, not a rate)\n");
    if (!isnan(x))
        printf("%s %.17g (the exact rate at m of ideal hashing, %s)\n",
               rule_departs(&d, x) ? "ideal hashing   " : "delivered       ", x,
               sizing_structure_label(rule));
    else
        printf("delivered        (the exact rate cannot be computed at this m)\n");
    print_libraries(&d, x);
    return 0;
}

/* A library rule's design: what it promises, what ideal hashing at its m and k delivers,
 * and, where its arithmetic departs, its own rate (print_libraries). */
static void print_library(const size_design_t *d)
{
    const sizing_rule_t *rule = d->rule;
    const double p = d->p;
    double x;
    if (sizing_rate_exact(rule, d->m, d->n, 0, d->k, &x) != SIZING_OK)
        x = NAN;
    const int departs = rule_departs(d, x);
    if (d->j) {
        if (rule->bpk_from_rate)
            json_out_num(d->j, "bits_per_key_from_rate", -log(p) / (log(2.0) * log(2.0)));
        json_out_num(d->j, "promised", p);
        json_object *o = json_out_obj(d->j, "ideal");
        json_out_num(o, "rate", x);
        json_out_text(o, "structure", sizing_structure_label(rule));
        json_out_num(o, "over_promised", x / p);
    } else {
        if (rule->bpk_from_rate)
            printf("the library takes bits per key, not a rate: P becomes -ln P / ln^2 2 = "
                   "%.6g (%s)\n", -log(p) / (log(2.0) * log(2.0)), rule->bpk_from_rate);
        if (d->mc != d->m)
            printf("the library computes %llu bits; its filter indexes %llu bits\n",
                   (unsigned long long)d->mc, (unsigned long long)d->m);
        printf("promised         %.17g\n", p);
        if (isnan(x))
            printf("delivered        (the exact rate cannot be computed at this m)\n");
        else if (!departs)
            printf("delivered        %.17g (the exact rate at m of ideal hashing, %s)\n"
                   "delivered / promised = %.4g\n", x, sizing_structure_label(rule), x / p);
        else
            printf("ideal hashing    %.17g (the exact rate at m of ideal hashing, %s; not the "
                   "library's own rate)\nideal / promised = %.4g (with ideal hashing; each "
                   "library's own rate follows)\n", x, sizing_structure_label(rule), x / p);
    }
    print_libraries(d, x);
}

/* Beside a plain rule's k: the k that minimises the exact rate in the same m bits (seed
 * 002's CalculateParams takes ceil(b ln 2), which need not be it). The exact rate is
 * unimodal in k, so the search stops once it rises; nothing is printed where the exact
 * rate cannot be computed. */
static void print_best_k(const size_design_t *d, double x_rule)
{
    double best = 2, x;
    unsigned kb = 0;
    for (unsigned j = 1; j <= SIZING_MAX_K && j < d->m; j++) {
        if (rate_exact(d->m, d->n, j, &x) != RATE_OK)
            return;
        if (x >= best)
            break;
        best = x;
        kb = j;
    }
    if (!kb)
        return;
    if (d->j) {
        json_object *o = json_out_obj(d->j, "best_k");
        json_out_count(o, "k", kb);
        json_out_num(o, "exact", best);
        json_out_num(o, "rule_over_best", x_rule / best);
    } else if (kb == d->k) {
        printf("best k           %u: the rule's (the k that minimises the exact rate at m)\n",
               kb);
    } else {
        printf("best k           %u: exact %.17g (the k that minimises it at m; the rule's k "
               "= %u gives %.6g times it)\n", kb, best, d->k, x_rule / best);
    }
}

/* A plain rule's design: the reference rates of independent probes. */
static void print_plain(const size_design_t *d)
{
    const uint64_t n = d->n, mc = d->mc, m = d->m;
    const unsigned k = d->k;
    double x;
    if (rate_exact(m, n, k, &x) != RATE_OK)
        x = NAN;
    if (d->j) {
        json_out_count(d->j, "words", m / 64);
        json_out_num(d->j, "formula", rate_formula(m, n, k));
        json_out_num(d->j, "formula_finite", rate_formula_finite(m, n, k));
        json_out_num(d->j, "exact", x);
        if (!isnan(x))
            print_best_k(d, x);
        print_libraries(d, x);
        return;
    }
    if (mc != m)
        printf("the rule computes %llu bits; the filter allocates %llu 64-bit words and "
               "indexes all %llu bits\n", (unsigned long long)mc,
               (unsigned long long)(m / 64), (unsigned long long)m);
    printf("formula          %.17g\n", rate_formula(m, n, k));
    printf("formula_finite   %.17g\n", rate_formula_finite(m, n, k));
    if (!isnan(x)) {
        printf("exact            %.17g\n", x);
        print_best_k(d, x);
    } else {
        printf("exact            (m past 2^40 or k past the exact forms' domain)\n");
    }
    print_libraries(d, x);
}

/* The split-block-formula rule's lines: its computed size, the promise and the exact
 * rate of the filter it builds. */
static void print_split_formula(const size_design_t *d, double x)
{
    if (d->j) {
        json_out_num(d->j, "m_computed_bits_per_key", (double)d->mc / (double)d->n);
        json_out_num(d->j, "promised", d->p);
        json_out_num(d->j, "delivered", x);
        json_out_num(d->j, "delivered_over_promised", x / d->p);
        return;
    }
    printf("the rule computes %llu bits (%.6g bits per key), ceil(n c) with c = -k / "
           "ln(1 - p^(1/k)), and rounds them up to whole blocks\n", (unsigned long long)d->mc,
           (double)d->mc / (double)d->n);
    printf("promised         %.17g\n", d->p);
    printf("delivered        %.17g (the exact rate of split-block at m)\n", x);
    printf("delivered / promised = %.4g\n", x / d->p);
}

/* The exact rule's comparisons: one block fewer, and the size the formula would give. */
static void print_block_formula(const size_design_t *d, uint64_t block, uint64_t B)
{
    const uint64_t n = d->n, m = d->m;
    const unsigned k = d->k;
    const double p = d->p;
    double fewer, fx;
    uint64_t fmc, fm;
    int have_fewer = m > B && sizing_rate_exact(d->rule, m - B, n, block, k, &fewer) ==
                                  SIZING_OK;
    int have_formula = sizing_formula_blocks(n, p, B, k, &fmc, &fm) == SIZING_OK &&
                       sizing_rate_exact(d->rule, fm, n, block, k, &fx) == SIZING_OK;
    if (d->j) {
        json_object *o = have_fewer ? json_out_obj(d->j, "one_block_fewer") : NULL;
        json_out_num(o, "rate", fewer);
        json_out_count(o, "blocks", m / B - 1);
        o = have_formula ? json_out_obj(d->j, "formula_size") : NULL;
        json_out_count(o, "m", fm);
        json_out_num(o, "bits_per_key", (double)fm / (double)n);
        json_out_num(o, "rate", fx);
        json_out_num(o, "rate_over_target", fx / p);
        json_out_num(o, "exact_larger_percent", 100.0 * ((double)m / (double)fm - 1));
        return;
    }
    if (have_fewer)
        printf("one block fewer  %.17g (%llu blocks, k = %u)\n", fewer,
               (unsigned long long)(m / B - 1), k);
    if (have_formula)
        printf("formula size     %llu bits (%.4g bits per key): ceil(n c), c = -k / ln(1 - "
               "p^(1/k)) at k = %u, in whole blocks\n"
               "formula delivers %.17g, %.4g times the target; the exact size is %.4g%% "
               "larger\n", (unsigned long long)fm, (double)fm / (double)n, k, fx, fx / p,
               100.0 * ((double)m / (double)fm - 1));
}

/* A block rule's design: its blocks, its exact rate, and the formula's size beside it.
 * Returns the exit status. */
static int print_blocks(const size_design_t *d, uint64_t block, int k_given)
{
    const uint64_t B = block ? block : d->rule->block_bits, m = d->m;
    const unsigned k = d->k;
    const int split = d->rule->over == SIZING_OVER_SPLIT;
    double x;
    if (sizing_rate_exact(d->rule, m, d->n, block, k, &x) != SIZING_OK)
        return cli_die(1, "size: the exact rate at %llu bits could not be computed",
                       (unsigned long long)m);
    if (d->j) {
        json_object *o = json_out_obj(d->j, "blocks");
        json_out_text(o, "structure", split ? "split-block" : "blocked");
        json_out_count(o, "count", m / B);
        json_out_count(o, "block_bits", B);
        if (split)
            json_out_count(o, "word_bits", B / k);
        else
            json_out_bool(o, "k_given", k_given);
    } else if (split)
        printf("split-block: %llu block%s of %llu bits, each k = %u words of %llu bits, one "
               "bit per word\n", (unsigned long long)(m / B), m == B ? "" : "s",
               (unsigned long long)B, k, (unsigned long long)(B / k));
    else
        printf("blocked: %llu block%s of %llu bits, k = %u positions in one block (%s)\n",
               (unsigned long long)(m / B), m == B ? "" : "s", (unsigned long long)B, k,
               k_given ? "as given" : "the k up to 64 that minimises the exact rate at this size");
    if (d->rule == sizing_find("split-block-formula")) {
        print_split_formula(d, x);
        return 0;
    }
    if (d->j)
        json_out_num(d->j, "exact", x);
    else
        printf("exact            %.17g (at most the target %g)\n", x, d->p);
    print_block_formula(d, block, B);
    return 0;
}

/* ---- fingerprint filters (fingerprint.h; docs/model.md, Fingerprint filters) ---- */

/* size --filter --json: the design's numbers, and the lines of its description. */
static int fingerprint_json(json_object *j, const fp_state_t *s, uint64_t n, double p,
                            uint64_t bits, const char *text)
{
    json_out_text(j, "filter", s->filter->name);
    json_out_count(j, "n", n);
    json_out_num(j, "rate", p >= 0 ? p : NAN);
    if (bits)
        json_out_count(j, "fingerprint_bits_given", bits);
    if (fp_takes_threshold(s->filter))
        json_out_num(j, "load_threshold", s->d.threshold);
    json_out_count(j, "q", s->d.q);
    json_out_count(j, "fingerprint_bits", s->d.bits);
    json_out_count(j, "slots", s->slots);
    json_out_count(j, "bits", s->bits);
    json_out_num(j, "bits_per_key", (double)s->bits / (double)n);
    json_out_count(j, "bytes", (s->bits + 7) / 8);
    json_out_num(j, "exact", fp_exact(s));
    json_object *a = json_out_array(j, "description");
    for (const char *line = text; *line;) {
        size_t len = strcspn(line, "\n");
        json_object_array_add(a, json_object_new_string_len(line, (int)len));
        line += len + (line[len] == '\n');
    }
    return 0;
}

/* size --filter NAME: a fingerprint filter's design for n keys at p. */
static int size_fingerprint(const char *name, uint64_t n, double p, double threshold,
                            uint64_t bits, int other, json_object *j)
{
    const fp_filter_t *f = fp_filter_find(name);
    if (!f) {
        char names[512];
        size_t at = 0;
        for (size_t i = 0; i < fp_filter_count() && at < sizeof names; i++)
            at += (size_t)snprintf(names + at, sizeof names - at, "%s%s", i ? ", " : "",
                                   fp_filter_at(i)->name);
        return cli_die(2, "size: --filter must be a fingerprint filter: %s (got '%s')", names,
                       name);
    }
    if (other)
        return cli_die(2, "size: --filter takes --keys, --rate, --load-threshold and "
                          "--fingerprint-bits only (got '--filter %s' with a Bloom option)", name);
    if (!n || (p < 0 && !bits))
        return cli_die(2, "size: --keys and --rate (or --fingerprint-bits) are required (got "
                          "%s)", !n ? "no --keys" : "no --rate");
    if (threshold == 0)
        return cli_die(2, "size: --load-threshold must be a load above 0 and at most 1, e.g. "
                          "0.8 (got '0')");
    fp_design_t d;
    fp_state_t s;
    int st = fp_design(f, n, p < 0 ? 0.5 : p, threshold < 0 ? FP_THRESHOLD_DEFAULT : threshold,
                       (unsigned)bits, &d);
    if (st == FP_OK)
        st = fp_run(f, &d, n, &s);
    if (st != FP_OK)
        return cli_die(2, "size: %s for %llu keys: %s (got '--filter %s')", name,
                       (unsigned long long)n, fp_refusal(f, st), name);
    char text[2048];
    fp_describe(&s, text, sizeof text);
    if (j)
        return fingerprint_json(j, &s, n, p, bits, text);
    printf("filter %s: n = %llu keys", name, (unsigned long long)n);
    if (p >= 0)
        printf(" at target rate %g", p);
    if (bits)
        printf(", fingerprint of %llu bits as given", (unsigned long long)bits);
    if (fp_takes_threshold(f))
        printf(", load threshold %g", d.threshold);
    printf("\n");
    fputs(text, stdout);
    return 0;
}

/* The rule named by --rule, or the exit status after naming every rule. */
static int find_rule(const char *name, const sizing_rule_t **rule)
{
    if (!name || (*rule = sizing_find(name)))
        return 0;
    char names[1024];
    size_t at = 0;
    for (size_t r = 0; r < sizing_rule_count() && at < sizeof names; r++)
        at += (size_t)snprintf(names + at, sizeof names - at, "%s%s", r ? ", " : "",
                               sizing_rule_at(r)->name);
    return cli_die(2, "size: --rule must be a sizing rule: %s (got '%s')", names, name);
}

/* What size was asked, as parsed (0 or -1: not given). */
typedef struct size_ask {
    uint64_t n, block, kreq, fpbits;
    double p, bpk, threshold;
} size_ask_t;

/* The design asked for, printed (j NULL) or added to j. Returns the exit status. */
static int size_design(const char *filter, const char *name, const size_ask_t *a,
                       json_object *j)
{
    const uint64_t n = a->n, block = a->block, kreq = a->kreq;
    const double p = a->p;
    const sizing_rule_t *rule = sizing_rule_at(0); /* calculateparams */
    int rc;
    if (filter)
        return size_fingerprint(filter, n, p, a->threshold, a->fpbits,
                                name || block || kreq || a->bpk >= 0, j);
    if (a->threshold >= 0 || a->fpbits)
        return cli_die(2, "size: --load-threshold and --fingerprint-bits go with --filter "
                          "(got no --filter)");
    if ((rc = find_rule(name, &rule)) != 0)
        return rc;
    if (a->bpk >= 0)
        return size_bits_per_key(rule, n, p, a->bpk, block || kreq, j);
    if (!n || p < 0)
        return cli_die(2, "size: --keys and --rate are required (got %s)",
                       !n ? "no --keys" : "no --rate");
    uint64_t B = rule->kind == SIZING_RULE_BLOCK ? rule->block_bits : 0;
    if (!B && (block || kreq))
        return cli_die(2, "size: --block-bits and --k apply only to the block rules (got "
                          "'--rule %s')", rule->name);
    if (block)
        B = block;
    size_design_t d = {.rule = rule, .n = n, .p = p, .bpk = -1, .j = j};
    int st = sizing_design_blocked(rule, n, p, block, (unsigned)kreq, &d.mc, &d.m, &d.k);
    if (st == SIZING_EBLOCK)
        return cli_die(2, "size: %s (got '--rule %s --block-bits %llu --k %llu')",
                       sizing_strerror(st), rule->name, (unsigned long long)B,
                       (unsigned long long)kreq);
    if (st != SIZING_OK)
        return cli_die(st == SIZING_ERATE ? 1 : 2, "size: %llu keys at %g: %s (got '--keys "
                       "%llu --rate %g')", (unsigned long long)n, p, sizing_refusal(rule, st),
                       (unsigned long long)n, p);
    print_head(&d);
    if (rule->kind == SIZING_RULE_LIBRARY)
        print_library(&d);
    else if (!B)
        print_plain(&d);
    else
        return print_blocks(&d, block, kreq != 0);
    return 0;
}

int cli_size(int argc, char **argv)
{
    uint64_t n = 0, block = 0, kreq = 0, fpbits = 0;
    double p = -1, bpk = -1, threshold = -1;
    const char *name = NULL, *filter = NULL;
    int json = 0;
    const cli_opt_t opts[] = {
        CLI_OPT_KEYS(&n), CLI_OPT_RATE(&p),
        {.name = "--rule", .kind = CLI_TEXT, .dst = &name},
        {.name = "--bits-per-key", .kind = CLI_REAL, .dst = &bpk, .lo = 0, .hi = 1e18,
         .must = "a number >= 0"},
        {.name = "--block-bits", .kind = CLI_COUNT, .dst = &block, .min = 1,
         .max = UINT64_MAX, .must = "a whole number >= 1"},
        {.name = "--k", .kind = CLI_COUNT, .dst = &kreq, .min = 1, .max = SIZING_MAX_K,
         .must = "a whole number from 1 to 1000"},
        {.name = "--filter", .kind = CLI_TEXT, .dst = &filter, .min = 1,
         .must = "a fingerprint filter"},
        {.name = "--load-threshold", .kind = CLI_REAL, .dst = &threshold, .lo = 0,
         .hi = 1.0000000000000002, .must = "a load above 0 and at most 1, e.g. 0.8"},
        {.name = "--fingerprint-bits", .kind = CLI_COUNT, .dst = &fpbits, .min = 1,
         .max = FP_MAX_BITS, .must = "a whole number of bits from 1 to 64"},
        {.name = "--json", .kind = CLI_FLAG, .dst = &json},
    };
    cli_spec_t spec = {.command = "size", .help = cli_size_help, .unknown = "argument",
                       .opts = opts, .nopts = sizeof opts / sizeof opts[0]};
    int rc = cli_parse(&spec, argc, argv);
    if (rc >= 0)
        return rc;
    json_object *j = json ? json_out_new("size") : NULL;
    if (json && !j)
        return cli_die(1, "size: out of memory for the JSON output");
    rc = size_design(filter, name, &(size_ask_t){.n = n, .block = block, .kreq = kreq,
                                                  .fpbits = fpbits, .p = p, .bpk = bpk,
                                                  .threshold = threshold}, j);
    if (!j)
        return rc;
    if (rc != 0) {
        json_object_put(j);
        return rc;
    }
    return json_out_print(j, "size");
}
