/* size.c - `bloomsim size`: design a filter for n keys at a target rate by a sizing rule
 * (sizing.h), and print what that filter delivers. The rules and their one-line
 * summaries come from the registry, so `size --help` lists every rule as it is. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "fingerprint/registry.h"
#include "libraries/registry.h"
#include "rates/rate.h"
#include "rates/sizing.h"

/* One rule's line of the help: its name and summary, wrapped at 88 columns. */
static void help_rule(const sizing_rule_t *r)
{
    const int indent = 21, width = 88;
    int col = indent;
    if (strlen(r->name) > 18)
        printf("  %s\n%*s", r->name, indent, "");
    else
        printf("  %-18s ", r->name);
    for (const char *p = r->summary; *p;) {
        int w = (int)strcspn(p, " ");
        if (col > indent && col + 1 + w > width) {
            printf("\n%*s", indent, "");
            col = indent;
        } else if (col > indent) {
            putchar(' ');
            col++;
        }
        col += printf("%.*s", w, p);
        p += w;
        while (*p == ' ')
            p++;
    }
    putchar('\n');
}

static void help(void)
{
    printf("usage: bloomsim size --keys N --rate P [--rule RULE] [--block-bits B] [--k K]\n"
           "       bloomsim size --keys N --rate P --filter FILTER [--load-threshold A]\n"
           "                     [--fingerprint-bits F]\n"
           "       bloomsim size --keys N --bits-per-key B --rule ");
    for (size_t i = 0, first = 1; i < sizing_rule_count(); i++)
        if (sizing_rule_at(i)->bpk_from_rate) {
            printf("%s%s", first ? "" : "|", sizing_rule_at(i)->name);
            first = 0;
        }
    puts("\n\n"
         "Designs a filter for N keys at target false-positive rate P and prints the\n"
         "bits m its library's filter indexes, probes k, bytes, and the formula and\n"
         "exact rates at N keys; and the bits the rule computes where they differ.\n"
         "Block rules (split-block: blocks of B = 256 bits, k = 8 words of B/k bits,\n"
         "one bit per word, as Parquet and Arrow; blocked: B = 512, k positions in\n"
         "one block) print the exact rate of the filter designed instead, and the exact\n"
         "rules the size the formula would give, and its rate; --block-bits B and --k K\n"
         "change a block rule's geometry (split-block: K dividing B; blocked: B <= 2^18).\n"
         "Library rules size as the library does (its rounding to words, lines or\n"
         "powers of two, its caps, its refusals) and print the bits it computes, the\n"
         "bits its filter indexes, and the exact rate that filter delivers beside P;\n"
         "those that take bits per key take --bits-per-key B, or P as -ln P / ln^2 2.\n"
         "bloomsim audit --list names the library behind each rule. The rules:");
    for (size_t i = 0; i < sizing_rule_count(); i++)
        help_rule(sizing_rule_at(i));
    puts("\n"
         "--filter designs a fingerprint filter instead (docs/model.md, Fingerprint\n"
         "filters): the first table (2^q slots, or cuckoo buckets), the fewest fingerprint\n"
         "bits whose exact rate at N keys is at most P (or F bits as given), its bits with\n"
         "their metadata, and what each expansion does; the quotient family doubles when\n"
         "its entries reach the load threshold A (default 0.8). The filters:");
    for (size_t i = 0; i < fp_filter_count(); i++) {
        const fp_filter_t *f = fp_filter_at(i);
        help_rule(&(sizing_rule_t){.name = f->name, .summary = f->summary});
    }
}

/* size --bits-per-key: the rules of libraries that take bits per key, as they take them. */
static int size_bits_per_key(const sizing_rule_t *rule, uint64_t n, double p, double bpk,
                             int geometry)
{
    if (!n)
        return cli_die(2, "size: --keys is required (got no --keys)");
    if (p >= 0)
        return cli_die(2, "size: give --rate or --bits-per-key, not both (got both)");
    if (geometry)
        return cli_die(2, "size: --block-bits and --k apply only to the block rules (got "
                          "'--rule %s')", rule->name);
    uint64_t mc, m;
    unsigned k;
    int st = sizing_design_bpk(rule, n, bpk, &mc, &m, &k);
    if (st != SIZING_OK)
        return cli_die(2, "size: %s (got '--rule %s --keys %llu --bits-per-key %g')",
                       sizing_refusal(rule, st), rule->name, (unsigned long long)n, bpk);
    printf("rule %s: n = %llu keys at %g bits per key\n", rule->name, (unsigned long long)n,
           bpk);
    printf("m = %llu bits (%.4g bits per key), k = %u, %llu bytes\n", (unsigned long long)m,
           (double)m / (double)n, k, (unsigned long long)((m + 7) / 8));
    if (mc != m)
        printf("the library computes %llu bits; its filter indexes %llu bits\n",
               (unsigned long long)mc, (unsigned long long)m);
    printf("promised         (none: the library takes bits per key, not a rate)\n");
    double x;
    if (sizing_rate_exact(rule, m, n, 0, k, &x) == SIZING_OK)
        printf("delivered        %.17g (the exact rate at m of ideal hashing, %s)\n", x,
               sizing_structure_label(rule));
    else
        printf("delivered        (the exact rate cannot be computed at this m)\n");
    return 0;
}

/* A library rule's design: what it promises and what its filter delivers. */
static void print_library(const sizing_rule_t *rule, uint64_t n, double p, uint64_t mc,
                          uint64_t m, unsigned k)
{
    if (rule->bpk_from_rate)
        printf("the library takes bits per key, not a rate: P becomes -ln P / ln^2 2 = %.6g "
               "(%s)\n", -log(p) / (log(2.0) * log(2.0)), rule->bpk_from_rate);
    if (mc != m)
        printf("the library computes %llu bits; its filter indexes %llu bits\n",
               (unsigned long long)mc, (unsigned long long)m);
    printf("promised         %.17g\n", p);
    double x;
    if (sizing_rate_exact(rule, m, n, 0, k, &x) == SIZING_OK) {
        printf("delivered        %.17g (the exact rate at m of ideal hashing, %s)\n", x,
               sizing_structure_label(rule));
        printf("delivered / promised = %.4g\n", x / p);
    } else {
        printf("delivered        (the exact rate cannot be computed at this m)\n");
    }
}

/* Beside a plain rule's k: the k that minimises the exact rate in the same m bits (seed
 * 002's CalculateParams takes ceil(b ln 2), which need not be it). The exact rate is
 * unimodal in k, so the search stops once it rises; nothing is printed where the exact
 * rate cannot be computed. */
static void print_best_k(uint64_t n, uint64_t m, unsigned k, double x_rule)
{
    double best = 2, x;
    unsigned kb = 0;
    for (unsigned j = 1; j <= SIZING_MAX_K && j < m; j++) {
        if (rate_exact(m, n, j, &x) != RATE_OK)
            return;
        if (x >= best)
            break;
        best = x;
        kb = j;
    }
    if (kb == k)
        printf("best k           %u: the rule's (the k that minimises the exact rate at m)\n",
               kb);
    else if (kb)
        printf("best k           %u: exact %.17g (the k that minimises it at m; the rule's k "
               "= %u gives %.6g times it)\n", kb, best, k, x_rule / best);
}

/* A plain rule's design: the reference rates of independent probes. */
static void print_plain(uint64_t n, uint64_t mc, uint64_t m, unsigned k)
{
    double x;
    if (mc != m)
        printf("the rule computes %llu bits; the filter allocates %llu 64-bit words and "
               "indexes all %llu bits\n", (unsigned long long)mc,
               (unsigned long long)(m / 64), (unsigned long long)m);
    printf("formula          %.17g\n", rate_formula(m, n, k));
    printf("formula_finite   %.17g\n", rate_formula_finite(m, n, k));
    if (rate_exact(m, n, k, &x) == RATE_OK) {
        printf("exact            %.17g\n", x);
        print_best_k(n, m, k, x);
    } else {
        printf("exact            (m past 2^40 or k past the exact forms' domain)\n");
    }
}

/* A block rule's design: its blocks, its exact rate, and the formula's size beside it.
 * Returns the exit status. */
static int print_blocks(const sizing_rule_t *rule, uint64_t n, double p, uint64_t block,
                        int k_given, uint64_t mc, uint64_t m, unsigned k)
{
    const uint64_t B = block ? block : rule->block_bits;
    if (rule->over == SIZING_OVER_SPLIT)
        printf("split-block: %llu block%s of %llu bits, each k = %u words of %llu bits, one "
               "bit per word\n", (unsigned long long)(m / B), m == B ? "" : "s",
               (unsigned long long)B, k, (unsigned long long)(B / k));
    else
        printf("blocked: %llu block%s of %llu bits, k = %u positions in one block (%s)\n",
               (unsigned long long)(m / B), m == B ? "" : "s", (unsigned long long)B, k,
               k_given ? "as given" : "the k up to 64 that minimises the exact rate at this size");
    double x;
    if (sizing_rate_exact(rule, m, n, block, k, &x) != SIZING_OK)
        return cli_die(1, "size: the exact rate at %llu bits could not be computed",
                       (unsigned long long)m);
    if (rule == sizing_find("split-block-formula")) {
        printf("the rule computes %llu bits (%.6g bits per key), ceil(n c) with c = -k / "
               "ln(1 - p^(1/k)), and rounds them up to whole blocks\n", (unsigned long long)mc,
               (double)mc / (double)n);
        printf("promised         %.17g\n", p);
        printf("delivered        %.17g (the exact rate of split-block at m)\n", x);
        printf("delivered / promised = %.4g\n", x / p);
        return 0;
    }
    printf("exact            %.17g (at most the target %g)\n", x, p);
    double fewer;
    if (m > B && sizing_rate_exact(rule, m - B, n, block, k, &fewer) == SIZING_OK)
        printf("one block fewer  %.17g (%llu blocks, k = %u)\n", fewer,
               (unsigned long long)(m / B - 1), k);
    uint64_t fmc, fm;
    double fx;
    if (sizing_formula_blocks(n, p, B, k, &fmc, &fm) == SIZING_OK &&
        sizing_rate_exact(rule, fm, n, block, k, &fx) == SIZING_OK)
        printf("formula size     %llu bits (%.4g bits per key): ceil(n c), c = -k / ln(1 - "
               "p^(1/k)) at k = %u, in whole blocks\n"
               "formula delivers %.17g, %.4g times the target; the exact size is %.4g%% "
               "larger\n", (unsigned long long)fm, (double)fm / (double)n, k, fx, fx / p,
               100.0 * ((double)m / (double)fm - 1));
    return 0;
}

/* ---- fingerprint filters (fingerprint.h; docs/model.md, Fingerprint filters) ---- */

/* size --filter NAME: a fingerprint filter's design for n keys at p. */
static int size_fingerprint(const char *name, uint64_t n, double p, double threshold,
                            uint64_t bits, int other)
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
                       (unsigned long long)n, fp_strerror(st), name);
    printf("filter %s: n = %llu keys", name, (unsigned long long)n);
    if (p >= 0)
        printf(" at target rate %g", p);
    if (bits)
        printf(", fingerprint of %llu bits as given", (unsigned long long)bits);
    if (fp_takes_threshold(f))
        printf(", load threshold %g", d.threshold);
    printf("\n");
    char text[2048];
    fp_describe(&s, text, sizeof text);
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

int cli_size(int argc, char **argv)
{
    uint64_t n = 0, block = 0, kreq = 0, fpbits = 0;
    double p = -1, bpk = -1, threshold = -1;
    const char *name = NULL, *filter = NULL;
    const sizing_rule_t *rule = sizing_rule_at(0); /* calculateparams */
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
    };
    cli_spec_t spec = {.command = "size", .help = help, .unknown = "argument", .opts = opts,
                       .nopts = sizeof opts / sizeof opts[0]};
    int rc = cli_parse(&spec, argc, argv);
    if (rc >= 0)
        return rc;
    if (filter)
        return size_fingerprint(filter, n, p, threshold, fpbits,
                                name || block || kreq || bpk >= 0);
    if (threshold >= 0 || fpbits)
        return cli_die(2, "size: --load-threshold and --fingerprint-bits go with --filter "
                          "(got no --filter)");
    if ((rc = find_rule(name, &rule)) != 0)
        return rc;
    if (bpk >= 0)
        return size_bits_per_key(rule, n, p, bpk, block || kreq);
    if (!n || p < 0)
        return cli_die(2, "size: --keys and --rate are required (got %s)",
                       !n ? "no --keys" : "no --rate");
    uint64_t B = rule->kind == SIZING_RULE_BLOCK ? rule->block_bits : 0;
    if (!B && (block || kreq))
        return cli_die(2, "size: --block-bits and --k apply only to the block rules (got "
                          "'--rule %s')", rule->name);
    if (block)
        B = block;
    uint64_t mc, m;
    unsigned k;
    int st = sizing_design_blocked(rule, n, p, block, (unsigned)kreq, &mc, &m, &k);
    if (st == SIZING_EBLOCK)
        return cli_die(2, "size: %s (got '--rule %s --block-bits %llu --k %llu')",
                       sizing_strerror(st), rule->name, (unsigned long long)B,
                       (unsigned long long)kreq);
    if (st != SIZING_OK)
        return cli_die(st == SIZING_ERATE ? 1 : 2, "size: %llu keys at %g: %s (got '--keys "
                       "%llu --rate %g')", (unsigned long long)n, p, sizing_refusal(rule, st),
                       (unsigned long long)n, p);
    printf("rule %s: n = %llu keys at target rate %g\n", rule->name, (unsigned long long)n, p);
    printf("m = %llu bits (%.4g bits per key), k = %u, %llu bytes\n", (unsigned long long)m,
           (double)m / (double)n, k, (unsigned long long)((m + 7) / 8));
    if (rule->kind == SIZING_RULE_LIBRARY)
        print_library(rule, n, p, mc, m, k);
    else if (!B)
        print_plain(n, mc, m, k);
    else
        return print_blocks(rule, n, p, block, kreq != 0, mc, m, k);
    return 0;
}
