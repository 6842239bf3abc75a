/* size_help.c - `bloomsim size --help`: the usage, and every sizing rule and fingerprint
 * filter with its summary from the registries, wrapped at 88 columns (size.c is the
 * command). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "fingerprint/registry.h"
#include "libraries/registry.h"
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

void cli_size_help(void)
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
         "That exact rate is of ideal hashing at the library's m and k: where a library's\n"
         "arithmetic departs from it, the library's own rate follows on a line of its\n"
         "name (its model, or: measure it with bloomsim audit LIBRARY).\n"
         "bloomsim audit --list names the library behind each rule. --json prints the\n"
         "same numbers as one JSON object (docs/json.md). The rules:");
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
