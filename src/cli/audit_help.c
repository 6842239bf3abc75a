/* audit_help.c - `bloomsim audit --help` (its --key-set paragraph made from the registry
 * of key sets) and `bloomsim audit --list` (the libraries, with the version each follows,
 * wrapped within 100 columns; --tsv and --hashes for scripts). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "keys/keys.h"
#include "libraries/registry.h"

/* The usage, around the key sets' lines (help). */
static const char usage_head[] =
    "usage: bloomsim audit LIBRARY --keys N (--rate P | --bits-per-key B)\n"
    "                      [--key-set KIND [--key-prefix X] [--key-file PATH]]\n"
    "                      [--precision R] [--max-filters F] [--threads T] [--seed S]\n"
    "                      [--queries Q] [--fail-above R]\n"
    "       bloomsim audit --exec 'CMD' --keys N (--rate P | --bits-per-key B |\n"
    "                      --fingerprint-bits F)\n"
    "                      [--key-set KIND [--key-prefix X] [--key-file PATH]]\n"
    "                      [--precision R] [--max-filters F] [--seed S] [--timeout S]\n"
    "                      [--queries Q] [--fail-above R]\n"
    "       bloomsim audit --list [--tsv | --hashes]\n"
    "       bloomsim audit CHAIN --keys N [--capacity C] [--rate P] [--expansion E]\n"
    "                      [--tightening R] [--filters F] [--lookups L] [--threads T]\n"
    "                      [--seed S]\n"
    "       bloomsim audit redisbloom-cuckoo --keys N [--capacity C] [--bucket-size B]\n"
    "                      [--max-iterations I] [--expansion E] [--precision R] [--seed S]\n"
    "\n"
    "Designs LIBRARY's filter for N keys at target false-positive rate P with the\n"
    "library's own sizing rule, builds it with the library's own index arithmetic,\n"
    "measures its rate to relative standard error R (default 0.02) and prints the\n"
    "promise, the measured rate with its 95% interval, their ratio, the exact rate of\n"
    "uniform independent probes at the same m and k, the exact rate of its blocks or\n"
    "slices where it has them, and the model of its departure where one is known.\n"
    "By default bloomsim feeds the arithmetic ideal uniform hash words of the library's\n"
    "width: it measures the library's arithmetic and sizing, not its hash function.\n"
    "--key-set inserts real keys through the library's own hash function instead.\n"
    "Each filter built is also asked about its inserted keys (all of them, or a\n"
    "random sample of at least 10^5): one reported absent fails the audit.\n"
    "Keys that are the same in every filter (seq, seq-str, url, file) make one\n"
    "filter, asked a stated range: the Q keys after the inserted ones (--queries Q; by\n"
    "default the fewest that give an ideal filter of the design relative standard\n"
    "error R), whose false positives are an exact count, no sampling interval; a line\n"
    "of its own shows how the rate varies across 8 successive ranges of Q/8 keys.\n"
    "\n"
    "With --exec, measures any implementation instead: CMD (run by sh -c) speaks the\n"
    "adapter protocol (docs/adapter.md) on its standard input and output; bloomsim\n"
    "asks it to design filters for N keys at P (or at B bits per key), inserts N random\n"
    "64-bit keys (or --key-set's) into each, asks about others never inserted, until\n"
    "the rate's relative standard error is R, and prints the rate, its 95% interval,\n"
    "the promise and the formula and exact rates at the m and k the adapter reports.\n"
    "An adapter that refuses the design, dies, or answers outside the protocol: one\n"
    "line, exit 2.\n"
    "\n"
    "LIBRARY may also be a fingerprint filter of a real library (bloomsim list:\n"
    "rocksdb-ribbon, bloom-filters-xor, ...): its row on ideal hashes, measured by\n"
    "lookups, beside its exact rate, its bits per key with every metadata bit, the\n"
    "places (rocksdb-ribbon: cache lines) a lookup reads and the builds it retried;\n"
    "rocksdb-ribbon takes --bits-per-key B as NewRibbonFilterPolicy(B), clamped as\n"
    "RocksDB clamps it (said), its promise the rate RocksDB sizes it for.\n"
    "redisbloom-cuckoo, RedisBloom's chain of cuckoo filters, is created as CF.RESERVE\n"
    "C BUCKETSIZE B MAXITERATIONS I EXPANSION E creates it (defaults: CF.ADD's 1024,\n"
    "2, 20, 1; a value RedisBloom refuses is refused in its words) and needs no --rate:\n"
    "its promise is the library's, 2 B / 255 a filter summed over its filters; it\n"
    "prints the filters a lookup asks and the keys CF.ADD refused.\n"
    "\n"
    "  --bits-per-key B the design of libraries configured by bits per key (LevelDB,\n"
    "                   RocksDB: NewBloomFilterPolicy(B)) instead of --rate\n"
    "  --fingerprint-bits F  with --exec: the design of fingerprint filters configured\n"
    "                   by their fingerprint's bits (design-fp N F: an xor filter's 8 or\n"
    "                   16), 1 to 64, instead of --rate\n"
    ;
static const char usage_tail[] =
    "  --key-prefix X   seq-str's prefix (default key); --key-file PATH  file's keys\n"
    "  --list           the libraries, with the version each follows (--tsv: with the\n"
    "                   cause and report, tab-separated, as results/libraries.tsv;\n"
    "                   --hashes: their real hashes for --key-set, tab-separated: the\n"
    "                   design each takes (rate or bits-per-key), the keys (int, text,\n"
    "                   bytes), the hash and the bytes it hashes, or - and why none)\n"
    "  --precision R    target relative standard error, above 0 and below 1\n"
    "  --queries Q      with --key-set seq, seq-str, url or file: ask the Q keys after\n"
    "                   the inserted ones, a multiple of 8 (default: as --precision R\n"
    "                   asks of an ideal filter of the design)\n"
    "  --max-filters F  build at most F filters (default 1000)\n"
    "  --threads T      threads (default: all); --seed S  seed (default 1)\n"
    "  --json           print the result as one JSON object (docs/json.md)\n"
    "  --exec CMD       measure the adapter CMD (docs/adapter.md)\n"
    "  --timeout S      with --exec: give up on an answer after S seconds (default\n"
    "                   600; 0: wait for ever)\n"
    "  --capacity C, --expansion E  with a CHAIN (a library's scalable filter, in\n"
    "                   --list): its first capacity and growth (default: the library's);\n"
    "  --tightening R   with a CHAIN whose library takes one: each link's rate over the\n"
    "                   last's, in (0, 1) (default: the library's);\n"
    "                   bloomsim audit CHAIN --help says the rest\n"
    "  --filters F, --lookups L  with a CHAIN: chains built (default 16), lookups over\n"
    "                   all of them, each link's (default 1.6e6)\n"
    "  --fail-above R   fail (exit 1) when the rate's 95% interval lies above R times\n"
    "                   the promise (its lower bound > R P; by bits per key, P is the\n"
    "                   rate they stand for)\n"
    "\n"
    "The \"verdict\" line and the exit status: 0 pass; 1 FAIL (an inserted key\n"
    "reported absent, or --fail-above exceeded); 2 bad input, a refused design or an\n"
    "adapter outside the protocol (one line, nothing on standard output); 3 target\n"
    "not reached within --max-filters (or a key file's lines), nothing broken found.\n"
    "Ctrl-C (SIGINT), SIGTERM or SIGHUP stops it; exit 130, 143 or 129.\n";

/* One word of a help paragraph at *col (indent columns in, width at most), on the next
 * line where it would pass width. */
static void help_word(const char *w, size_t len, int *col, int indent, int width)
{
    if (*col > indent && *col + 1 + (int)len > width) {
        printf("\n%*s", indent, "");
        *col = indent;
    } else if (*col > indent) {
        putchar(' ');
        ++*col;
    }
    *col += printf("%.*s", (int)len, w);
}

/* The words of text, as help_word places them. */
static void help_text(const char *text, int *col, int indent, int width)
{
    for (const char *p = text; *p;) {
        size_t w = strcspn(p, " ");
        if (w)
            help_word(p, w, col, indent, width);
        p += w;
        p += strspn(p, " ");
    }
}

/* The usage, its --key-set paragraph made from the registry of key sets (keys.h):
 * each name and what its keys are, wrapped at 81 columns. */
void cli_audit_help(void)
{
    const int indent = 19, width = 81;
    fputs(usage_head, stdout);
    int col = printf("  %-16s ", "--key-set KIND");
    char item[256];
    for (size_t i = 0; i < KEYSET_COUNT; i++) {
        const keyset_kind_t *k = keyset_kind_at(i);
        snprintf(item, sizeof item, "%s%s %s%s", i + 1 == KEYSET_COUNT ? "or " : "", k->name,
                 k->help, i + 2 < KEYSET_COUNT ? "," : i + 1 == KEYSET_COUNT ? ";" : "");
        help_text(item, &col, indent, width);
    }
    help_text("the keys queried for the rate are never inserted ones", &col, indent, width);
    putchar('\n');
    fputs(usage_tail, stdout);
}

/* Each library's real hash, for scripts (tests/adapters.sh): name, design, the kinds of
 * keys it takes, its hash and what it hashes, or "-", "-" and why it has none. */
static int audit_list_hashes(void)
{
    for (size_t i = 0; i < library_count(); i++) {
        const library_t *l = library_at(i);
        const library_words_t *w = l->words;
        unsigned kinds = w ? w->kinds : 0;
        printf("%s\t%s\t%s%s%s%s\t%s\t%s\n", l->name,
               l->sizing->bpk_from_rate ? "bits-per-key" : "rate", w ? "" : "-",
               kinds & KEY_INT ? "int" : "", kinds & KEY_TEXT ? " text" : "",
               kinds & KEY_BYTES ? " bytes" : "", w ? w->hash : "-",
               w ? w->key_bytes : l->words_skipped);
    }
    return 0;
}

/* audit --list's version lines: their indent and width. */
enum { LIST_INDENT = 4, LIST_WIDTH = 100 };

int cli_audit_list(int tsv, int hashes)
{
    if (tsv && hashes)
        return cli_die(2, "audit: --list takes --tsv or --hashes, not both");
    if (hashes)
        return audit_list_hashes();
    if (tsv) { /* for scripts/report: one library a line, tab-separated */
        for (size_t i = 0; i < library_count(); i++) {
            const library_t *l = library_at(i);
            printf("%s\t%s\t%s\t%s\t%s\t%s\t%s\n", l->name, l->scheme->name, l->sizing->name,
                   l->hash, l->version, l->cause, l->report);
        }
        return 0;
    }
    /* Columns as wide as their longest name, so that the versioned names line up; the
     * version each follows under them, wrapped within 100 columns (issue 37). */
    int wl = 7, ws = 6, wz = 6;
    for (size_t i = 0; i < library_count(); i++) {
        const library_t *l = library_at(i);
        wl = (int)strlen(l->name) > wl ? (int)strlen(l->name) : wl;
        ws = (int)strlen(l->scheme->name) > ws ? (int)strlen(l->scheme->name) : ws;
        wz = (int)strlen(l->sizing->name) > wz ? (int)strlen(l->sizing->name) : wz;
    }
    printf("%-*s %-*s %-*s %s\n%*s(the version it follows)\n", wl, "library", ws, "scheme",
           wz, "sizing", "hash", LIST_INDENT, "");
    for (size_t i = 0; i < library_count(); i++) {
        const library_t *l = library_at(i);
        int col = printf("%-*s %-*s %-*s", wl, l->name, ws, l->scheme->name, wz,
                         l->sizing->name);
        const int hash_at = col + 1; /* the hash wrapped within the width, under itself */
        putchar(' ');
        col = hash_at + printf("%.*s", (int)strcspn(l->hash, " "), l->hash);
        help_text(l->hash + strcspn(l->hash, " "), &col, hash_at, LIST_WIDTH);
        printf("\n%*s", LIST_INDENT, "");
        col = LIST_INDENT;
        help_text(l->version, &col, LIST_INDENT, LIST_WIDTH);
        putchar('\n');
    }
    printf("\nscalable filter (audit CHAIN --keys N [--capacity C] [--rate P] [--expansion E]\n"
           "%*s[--tightening R])\n%*s(its rules; the version it follows)\n", LIST_INDENT, "",
           LIST_INDENT, "");
    for (size_t i = 0; i < chain_count(); i++) {
        const library_chain_t *c = chain_at(i);
        printf("%s (scheme %s)\n%*s", c->name, c->scheme->name, LIST_INDENT, "");
        int col = LIST_INDENT;
        help_text(c->summary, &col, LIST_INDENT, LIST_WIDTH);
        printf("\n%*s", LIST_INDENT, "");
        col = LIST_INDENT;
        help_text(c->version, &col, LIST_INDENT, LIST_WIDTH);
        putchar('\n');
    }
    return 0;
}
