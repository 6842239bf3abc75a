/* test_library_words.c - each library's words from real keys (libraries/library_words.h): every
 * library's words or its reason, the words within what each scheme draws, and
 * known answers from the libraries' own unit tests, where the words meet the scheme's
 * arithmetic and the library's sizing: RocksDB's filter schema (exact false positives
 * and the hash of the filter's bytes, for both its filters), Guava's known false
 * positives, Hadoop's, bloomfilter.js's, the words npm bloom-filters gives, DCSO
 * bloom's test filter, and the bytes growable-bloom-filter and BoomFilters hash.
 */
#undef NDEBUG
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "hashes/hashes.h"
#include "library_filter.h"
#include "test_util.h"

/* ---- the registry ---- */

/* Every library of the registry has its words, with its scheme's word count and width,
 * or says in a line why it has none; the kinds it takes are integers and text or bytes
 * (a library taking bytes hashes text as its bytes; one taking text only, as the
 * JavaScript ones, refuses bytes). */
static void test_table(void)
{
    int covered = 0, skipped = 0;
    for (size_t i = 0; i < library_count(); i++) {
        const library_t *l = library_at(i);
        const library_words_t *w = l->words;
        assert(!w != !l->words_skipped);
        if (!w) {
            assert(*l->words_skipped && !strchr(l->words_skipped, '\n'));
            skipped++;
            continue;
        }
        covered++;
        assert(w->kinds & KEY_INT && w->kinds & (KEY_TEXT | KEY_BYTES));
        assert(!(w->kinds & ~(unsigned)(KEY_INT | KEY_TEXT | KEY_BYTES)));
        assert(w->hash && *w->hash && w->key_bytes && *w->key_bytes && w->words);
        if (w->drawn)
            assert(l->scheme->nwords == 0 && l->scheme->positions_drawn);
        else
            assert(w->nwords == l->scheme->nwords && w->word_bits == l->scheme->word_bits &&
                   l->scheme->positions);
    }
    printf("registry: %d libraries with their words, %d without, each with a reason, of "
           "%zu\n", covered, skipped, library_count());
}

/* The words lie where the scheme draws its own (scheme check_words) and the positions
 * in [0, m), for integer and string keys. */
static void test_ranges(void)
{
    static const char *strs[] = {"", "a", "key123", "550e8400-e29b-41d4-a716-446655440000",
                                 "\xc3\xa9t\xc3\xa9 \xf0\x9f\x98\x80", "\xff\xfe\x80"};
    for (size_t i = 0; i < library_count(); i++) {
        const library_words_t *w = library_at(i)->words;
        const scheme_t *s = library_at(i)->scheme;
        if (!w)
            continue;
        probe_geom_t g;
        uint64_t m = UINT64_C(1) << 20;
        assert(s->geometry(m, test_k(s, m, 7), 0, &g) == SCHEME_OK);
        uint64_t h[SIZING_MAX_K], pos[SIZING_MAX_K];
        for (int j = 0; j < 40; j++) {
            rkey_t k = j < 34 ? (rkey_t){.kind = KEY_INT, .u = j < 30 ? (uint64_t)j * 977
                                                                     : UINT64_MAX - (uint64_t)j}
                              : (rkey_t){.kind = KEY_BYTES, .bytes = (const uint8_t *)strs[j - 34],
                                         .len = strlen(strs[j - 34])};
            w->words(&k, &g, h);
            if (!w->drawn && s->check_words)
                assert(s->check_words(&g, h) == SCHEME_OK);
            library_words_positions(w, s, &g, &k, pos);
            for (unsigned p = 0; p < g.k; p++)
                assert(pos[p] < g.m);
        }
    }
    printf("words within each scheme's ranges, positions below m\n");
}

/* ---- RocksDB ----
 * facebook/rocksdb@bf2c3351 (v7.8.3) util/bloom_test.cc:513-760 TEST_P(FullBloomTest,
 * Schema): keys Key(i) = PutFixed32(i), 4 bytes little-endian; after adding keys 0..n-1
 * at bits_per_key b, BloomHash(FilterData()) (Hash, seed 0xbc9f1d34, of the filter's
 * bytes and its 5 metadata bytes) and FirstFPs(c), the first c of i = 0, 1, ... whose
 * Key(i + 1000000) matches. FastLocalBloom's metadata (filter_policy.cc:378-385): -1, 0,
 * num_probes, 0, 0; the legacy filter's (LegacyBloomBitsBuilder::Finish): num_probes then
 * the line count, fixed32; the legacy values are those of 64-byte cache lines. The
 * geometry is each rule's sizing (rocksdb.c), so this checks hash, words, arithmetic and
 * sizing at once. */
static const struct {
    double bpk;
    int n;
    uint32_t fast_hash, legacy_hash;
    const char *fast_fps;
} ROCKS_SCHEMA[] = {
    {5, 87, 4130687756u, 0, "31,38,40,43,61,83,86,112,125,131"},
    {2, 2087, 3817481309u, 1567096579u, "11,13,17,25,29,30,35,37,45,53"},
    {3, 2087, 2807269961u, 2707206547u, "4,15,17,24,27,28,29,53,63,70"},
    {5, 2087, 204628445u, 515748486u, "15,24,29,39,53,87,89,100,103,104"},
    {8, 2087, 355564975u, 1302145999u, "16,60,66,126,220,238,244,256,265,287"},
    {9, 2087, 2137566013u, 2092755149u, "156,367,791,872,945,1015,1139,1159,1265"},
    {11, 2087, 2561502687u, 3755609649u, "34,74,130,236,643,882,962,1015,1035,1110"},
    {14, 2087, 3709876890u, 178861123u, "130,240,522,565,989,2002,2526,3147,3543"},
    {16, 2087, 1087138490u, 1129406313u, "3299,3611,3916,6620,7822,8079,8482,8942"},
    {10, 2087, 2498541272u, 1478976371u, NULL},
};

/* The filter of keys 0..n-1 at bpk under a RocksDB library; its bytes plus metadata. */
static void rocks_build(filt_t *f, const char *library, double bpk, int n)
{
    sizing_out_t o;
    assert(library_find(library)->sizing->design((uint64_t)n, 0.5, bpk, &o) == SIZING_OK);
    filt_init(f, library, NULL, o.m, (unsigned)o.k);
    for (int i = 0; i < n; i++) {
        uint8_t b[4] = {(uint8_t)i, (uint8_t)(i >> 8), (uint8_t)(i >> 16), (uint8_t)(i >> 24)};
        rkey_t k = {.kind = KEY_BYTES, .bytes = b, .len = 4};
        filt_key(f, &k, 1);
    }
}

static void test_rocksdb_schema(void)
{
    for (size_t t = 0; t < sizeof ROCKS_SCHEMA / sizeof ROCKS_SCHEMA[0]; t++) {
        filt_t f;
        rocks_build(&f, "rocksdb", ROCKS_SCHEMA[t].bpk, ROCKS_SCHEMA[t].n);
        size_t len = f.g.m / 8;
        f.b[len] = 0xff, f.b[len + 1] = 0, f.b[len + 2] = (uint8_t)f.g.k;
        f.b[len + 3] = f.b[len + 4] = 0;
        assert(hash_rocksdb32(f.b, len + 5, HASH_BLOOM_SEED) == ROCKS_SCHEMA[t].fast_hash);
        char fps[200] = "";
        int count = 0, want = 1;
        for (const char *c = ROCKS_SCHEMA[t].fast_fps; c && *c; c++)
            want += *c == ',';
        for (uint32_t i = 0; ROCKS_SCHEMA[t].fast_fps && count < want; i++) {
            uint32_t v = i + 1000000;
            uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
            rkey_t k = {.kind = KEY_BYTES, .bytes = b, .len = 4};
            if (filt_key(&f, &k, 0))
                sprintf(fps + strlen(fps), "%s%u", count++ ? "," : "", i);
        }
        assert(!ROCKS_SCHEMA[t].fast_fps || strcmp(fps, ROCKS_SCHEMA[t].fast_fps) == 0);
        free(f.b);
        if (!ROCKS_SCHEMA[t].legacy_hash)
            continue;
        rocks_build(&f, "rocksdb-legacy", ROCKS_SCHEMA[t].bpk, ROCKS_SCHEMA[t].n);
        len = f.g.m / 8;
        uint32_t lines = (uint32_t)(f.g.m / 512);
        f.b[len] = (uint8_t)f.g.k;
        for (int i = 0; i < 4; i++)
            f.b[len + 1 + i] = (uint8_t)(lines >> (8 * i));
        assert(hash_rocksdb32(f.b, len + 5, HASH_BLOOM_SEED) == ROCKS_SCHEMA[t].legacy_hash);
        free(f.b);
    }
    printf("RocksDB FullBloomTest.Schema: FastLocalBloom's filter hashes and first false "
           "positives, the legacy filter's hashes (10 and 9 designs)\n");
}

/* ---- Guava ----
 * google/guava@42702b0f guava-tests/test/com/google/common/hash/BloomFilterTest.java:
 * BloomFilter.create(funnel, 1000000, 0.03, strategy), the even numbers' decimal strings
 * 0, 2, ..., 1999998 put, then every odd one tested: exactly N false positives, and
 * under 900 none but those listed. testCreateAndCheckMitz32BloomFilterWithKnownFalse-
 * Positives (MITZ_32, Funnels.unencodedCharsFunnel: each char as 2 bytes little-endian)
 * 29824; testCreateAndCheckBloomFilterWithKnownFalsePositives64 (MITZ_64, unencoded
 * chars) 30104; testCreateAndCheckBloomFilterWithKnownUtf8FalsePositives64 (MITZ_64,
 * Funnels.stringFunnel(UTF_8): the library words of a string key) 29763. The design is
 * library guava's sizing (m = 7298496, k = 5). */
static void guava_words_utf16(const rkey_t *key, const probe_geom_t *g, uint64_t *out, int w64)
{
    (void)g;
    uint8_t b[64];
    for (size_t i = 0; i < key->len; i++)
        b[2 * i] = key->bytes[i], b[2 * i + 1] = 0;
    uint64_t h[2];
    hash_murmur3_x64_128(b, 2 * key->len, 0, h);
    if (w64)
        out[0] = h[0], out[1] = h[1];
    else
        out[0] = (uint32_t)h[0], out[1] = h[0] >> 32;
}
static void g16_32(const rkey_t *k, const probe_geom_t *g, uint64_t *o)
{
    guava_words_utf16(k, g, o, 0);
}
static void g16_64(const rkey_t *k, const probe_geom_t *g, uint64_t *o)
{
    guava_words_utf16(k, g, o, 1);
}

static void guava_known(const char *scheme, void (*words)(const rkey_t *, const probe_geom_t *,
                        uint64_t *), int want_fps, const int *under900, size_t nunder)
{
    sizing_out_t o;
    assert(library_find("guava")->sizing->design(1000000, 0.03, NAN, &o) == SIZING_OK);
    assert(o.m == 7298496 && o.k == 5);
    filt_t f;
    filt_init(&f, "guava", scheme, o.m, 5);
    library_words_t lw = *f.w;
    if (words)
        lw.words = words, f.w = &lw;
    char s[16];
    for (int i = 0; i < 2000000; i += 2)
        sprintf(s, "%d", i), filt_str(&f, s, 1);
    int fps = 0;
    for (int i = 1; i < 2000000; i += 2) {
        sprintf(s, "%d", i);
        int fp = filt_str(&f, s, 0);
        fps += fp;
        if (fp && i < 900) {
            int listed = 0;
            for (size_t j = 0; j < nunder; j++)
                listed |= under900[j] == i;
            assert(listed);
        }
    }
    assert(fps == want_fps);
    free(f.b);
}

static void test_guava(void)
{
    static const int m32[] = {49, 51, 59, 163, 199, 321, 325, 363, 367, 469, 545, 561, 727,
                              769, 773, 781};
    static const int m64[] = {15, 25, 287, 319, 381, 399, 421, 465, 529, 697, 767, 857};
    static const int u64[] = {129, 471, 723, 89, 751, 835, 871};
    guava_known("guava32", g16_32, 29824, m32, sizeof m32 / sizeof m32[0]);
    guava_known("guava64", g16_64, 30104, m64, sizeof m64 / sizeof m64[0]);
    guava_known("guava64", NULL, 29763, u64, sizeof u64 / sizeof u64[0]);
    printf("Guava BloomFilterTest: known false positives, MITZ_32 29824 and MITZ_64 30104 "
           "(UTF-16), MITZ_64 29763 (UTF-8)\n");
}

/* ---- Hadoop ----
 * apache/hadoop@03a49982 hadoop-common-project/hadoop-common/src/test/java/org/apache/
 * hadoop/util/bloom/BloomFilterCommonTester.java: filters of (int) (-1000 ln 0.03 /
 * ln^2 2) = 7298 bits and 5 MurmurHash probes; ODD_EVEN_ABSENT_STRATEGY puts the even
 * numbers below 1000 as Key(Integer.toString(i).getBytes()) and asserts every odd one
 * absent but the false positives listed for MURMUR_HASH, {769, 772, 810, 874}
 * (TestBloomFilters' RetouchedBloomFilter checks the other parity with the same list).
 * Their keys are raw bytes (a Key), not BloomMapFile's serialised Writables: the draws
 * here chain the hash over them directly. */
static void test_hadoop(void)
{
    const scheme_t *s = library_find("hadoop")->scheme;
    probe_geom_t g;
    assert(s->geometry((uint64_t)(-1000 * log(0.03) / (log(2) * log(2))), 5, 0, &g) == SCHEME_OK);
    assert(g.m == 7298);
    for (int parity = 0; parity < 2; parity++) {
        uint8_t bits[7298 / 8 + 1] = {0};
        char fps[64] = "", s_[16];
        for (int pass = 0; pass < 2; pass++)
            for (int i = pass ? 1 - parity : parity; i < 1000; i += 2) {
                int n = sprintf(s_, "%d", i), all = 1;
                uint64_t d[5], pos[5];
                uint32_t h = 0;
                for (int j = 0; j < 5; j++)
                    d[j] = h = hash_murmur2_hadoop(s_, (size_t)n, h);
                s->positions_drawn(&g, NULL, d, pos);
                for (int j = 0; j < 5; j++) {
                    all &= bits[pos[j] / 8] >> (pos[j] % 8) & 1;
                    if (!pass)
                        bits[pos[j] / 8] |= (uint8_t)(1u << (pos[j] % 8));
                }
                if (pass && all)
                    sprintf(fps + strlen(fps), " %d", i);
            }
        assert(strcmp(fps, parity ? " 772 810 874" : " 769") == 0);
    }
    /* The words: a Text key is WritableUtils.writeVInt(length) then its bytes. */
    uint8_t text[205] = {3, 'a', 'b', 'c'};
    uint64_t d[3];
    probe_geom_t g3;
    assert(s->geometry(1000, 3, 0, &g3) == SCHEME_OK);
    rkey_t k = {.kind = KEY_BYTES, .bytes = text + 1, .len = 3};
    library_find("hadoop")->words->words(&k, &g3, d);
    assert(d[0] == hash_murmur2_hadoop(text, 4, 0) && d[1] == hash_murmur2_hadoop(text, 4, (uint32_t)d[0]));
    memset(text, 'x', sizeof text);
    text[0] = 0x8f, text[1] = 200; /* 200 bytes: -113 (one length byte follows), 200 */
    k.bytes = text + 2, k.len = 200;
    library_find("hadoop")->words->words(&k, &g3, d);
    assert(d[0] == hash_murmur2_hadoop(text, 202, 0));
    printf("Hadoop BloomFilterCommonTester: the known MurmurHash false positives, both "
           "parities; Text framing\n");
}

/* ---- sequential integers' first words ----
 * results/FINDINGS.md, "The hash's structure on the keys"; scripts/first-word-model. On
 * 8-byte keys whose top 4 bytes are equal, these libraries' first words are bijections of
 * the low 4 bytes, so the integers below 2^32, inserted and queried alike, never share
 * one: why LevelDB's filter and RocksDB's legacy one (a single word) have no n/2^32 floor
 * on the `seq` key set, and why Hadoop's and libbloom's first probes never find an
 * inserted key's. LevelDB's Hash (h += w, h *= the odd m, h ^= h >> 16, each invertible,
 * then the same with the fixed top word; RocksDB's differs only in tail bytes, which 8
 * bytes lack); MurmurHash2 on libbloom's little-endian bytes and Hadoop's MurmurHash on a
 * LongWritable's big-endian ones (the varying block k *= m, k ^= k >> r, k *= m, then
 * h *= m, h ^= k, and the final mix: each step invertible, the fixed block a constant
 * one). The words are the ones the experiments draw (each library's), on 2^20
 * consecutive integers from 0 and across a carry into the top word (2^32 - 2^19 ...
 * 2^32 + 2^19 - 1: two runs of one top word each). A key-dependent seed would fail it. */
static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}
static void test_seq_distinct(void)
{
    static const char *libs[] = {"leveldb", "rocksdb-legacy", "libbloom", "hadoop"};
    static const uint64_t from[] = {0, (1ull << 32) - (1u << 19)};
    enum { N = 1 << 20 };
    uint32_t *w = malloc(N * sizeof *w);
    assert(w);
    for (size_t l = 0; l < sizeof libs / sizeof *libs; l++) {
        filt_t f;
        filt_init(&f, libs[l], NULL, 1u << 20, 5);
        free(f.b);
        for (size_t r = 0; r < sizeof from / sizeof *from; r++) {
            for (uint64_t i = 0; i < N; i++) {
                rkey_t k = {.kind = KEY_INT, .u = from[r] + i};
                uint64_t d[SIZING_MAX_K];
                f.w->words(&k, &f.g, d);
                w[i] = (uint32_t)d[0];
            }
            size_t half = from[r] ? N / 2 : N; /* each run of one top word apart */
            for (size_t lo = 0; lo < N; lo += half) {
                qsort(w + lo, half, sizeof *w, cmp_u32);
                size_t repeats = 0;
                for (size_t i = lo + 1; i < lo + half; i++)
                    repeats += w[i] == w[i - 1];
                if (repeats)
                    fprintf(stderr, "%s: %zu repeated first words among 8-byte integers "
                            "of one top word\n", libs[l], repeats);
                assert(repeats == 0);
            }
        }
    }
    free(w);
    printf("LevelDB, RocksDB legacy, libbloom, Hadoop: 2^20 sequential 8-byte integers, no "
           "repeated first word\n");
}

/* ---- bloomfilter.js ----
 * jasondavies/bloomfilter.js test/bloomfilter-test.js @27b1760b (0.0.16), @ea32aabe
 * (0.0.17) and @ad00141a (0.0.21): "basic" (Bess in, Jane out), "basic uint32"
 * (\u0100 in, \u0101 and \u0103 out) and "works with integer types" (1 in, 2 out) at
 * BloomFilter(1000, 4), i.e. 1024 bits; "wtf" at BloomFilter(20, 10), i.e. 32 bits (abc
 * in, wtf out); 0.0.21's "countBits" (0 in 1024 bits, 4 probes: 4 bits); and 0.0.16's
 * "size", -m ln(1 - bits/m) / k after 0..99, then 0..999: 99.953102 and 950.424571
 * within 1e-6. */
static void test_bloomfilter_js(void)
{
    static const char *libs[] = {"bloomfilter-js-0.0.16", "bloomfilter-js-0.0.17",
                                 "bloomfilter-js"};
    for (size_t v = 0; v < 3; v++) {
        filt_t f;
        filt_init(&f, libs[v], NULL, 1024, 4);
        filt_str(&f, "Bess", 1);
        assert(filt_str(&f, "Bess", 0) && !filt_str(&f, "Jane", 0));
        free(f.b), filt_init(&f, libs[v], NULL, 1024, 4);
        filt_str(&f, "\xc4\x80", 1); /* U+0100 */
        assert(!filt_str(&f, "\xc4\x81", 0) && !filt_str(&f, "\xc4\x83", 0));
        free(f.b), filt_init(&f, libs[v], NULL, 1024, 4);
        filt_int(&f, 1, 1);
        assert(filt_int(&f, 1, 0) && !filt_int(&f, 2, 0));
        free(f.b), filt_init(&f, libs[v], NULL, 32, 10);
        filt_str(&f, "abc", 1);
        assert(!filt_str(&f, "wtf", 0));
        free(f.b), filt_init(&f, libs[v], NULL, 1024, 4);
        if (v == 2) {
            filt_int(&f, 0, 1);
            int bits = 0;
            for (int i = 0; i < 128; i++)
                bits += __builtin_popcount(f.b[i]);
            assert(bits == 4);
        }
        for (int round = 0; v == 0 && round < 2; round++) {
            for (uint64_t i = 0; i < (round ? 1000u : 100u); i++)
                filt_int(&f, i, 1);
            int bits = 0;
            for (int i = 0; i < 128; i++)
                bits += __builtin_popcount(f.b[i]);
            double size = -1024.0 * log(1 - bits / 1024.0) / 4;
            assert(fabs(size - (round ? 950.424571 : 99.953102)) < 1e-6);
        }
        free(f.b);
    }
    printf("bloomfilter.js tests (0.0.16, 0.0.17, 0.0.21): membership, countBits, "
           "0.0.16's size\n");
}

/* ---- npm bloom-filters 3.0.4 ----
 * The words hashTwice gives (first, second), printed by this repository's
 * tests/conformance/bloom_filters.js `words KEY` running bloom-filters 3.0.4 (npm),
 * for keys given as JavaScript strings: an integer key is its decimal string. */
static void test_bloom_filters(void)
{
    static const struct { const char *s; uint32_t first, second; } v[] = {
        {"key0", 3629983019u, 2854919551u}, {"key1", 3203253688u, 3316575424u},
        {"hello", 3704266261u, 3705676088u}, {"h\xc3\xa9llo", 3384573636u, 1309805101u},
    };
    const library_words_t *w = library_find("bloom-filters")->words;
    probe_geom_t g = {0};
    uint64_t h[2];
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        rkey_t k = {.kind = KEY_BYTES, .bytes = (const uint8_t *)v[i].s, .len = strlen(v[i].s)};
        w->words(&k, &g, h);
        assert(h[0] == v[i].first && h[1] == v[i].second);
    }
    rkey_t k0 = {.kind = KEY_INT, .u = 0}, k1 = {.kind = KEY_INT, .u = 1};
    w->words(&k0, &g, h);
    assert(h[0] == 1208131749u && h[1] == 974077695u);
    w->words(&k1, &g, h);
    assert(h[0] == 2922980653u && h[1] == 3137510285u);
    printf("bloom-filters 3.0.4: the words of its hashTwice (conformance script)\n");
}

/* ---- DCSO bloom 0.2.4 ----
 * io_test.go's testdata/test.bloom (Debian's golang-github-dcso-bloom-dev 0.2.4-3): a
 * filter of Initialize(1000, 1e-6), m = 28,755 and k = 20, holding "foo", "bar" and "baz";
 * its 60 set bits (read from the file's words, little-endian, bit i % 64 of word i / 64)
 * are those below, and checkResults finds the three and neither "" nor "12345". Its
 * sizing rule gives that m and k, and an integer is hashed as its decimal string. */
static void test_dcso(void)
{
    static const uint32_t set[60] = {
        7, 956, 1013, 1335, 1402, 1942, 2159, 2674, 2817, 2842, 3005, 3084, 3116, 3240, 3349,
        3951, 5279, 5600, 5719, 5788, 6394, 8015, 8685, 10913, 12025, 12516, 12783, 12880,
        13183, 13270, 13693, 13889, 14601, 15232, 16010, 16242, 16334, 16655, 16886, 17130,
        17354, 17470, 17555, 18274, 18294, 19170, 19736, 19770, 20752, 20954, 20998, 21118,
        21559, 21640, 22876, 23746, 24047, 25481, 27219, 28741};
    sizing_out_t o;
    assert(library_find("dcso-bloom")->sizing->design(1000, 1e-6, NAN, &o) == SIZING_OK);
    assert(o.m == 28755 && o.k == 20);
    filt_t f;
    filt_init(&f, "dcso-bloom", NULL, o.m, 20);
    filt_str(&f, "foo", 1), filt_str(&f, "bar", 1), filt_str(&f, "baz", 1);
    size_t j = 0;
    for (uint32_t i = 0; i < o.m; i++) {
        int on = f.b[i / 8] >> (i % 8) & 1;
        assert(on == (j < 60 && set[j] == i));
        j += (size_t)on;
    }
    assert(j == 60 && filt_str(&f, "bar", 0) && !filt_str(&f, "", 0) && !filt_str(&f, "12345", 0));
    assert(!filt_int(&f, 12345, 0));
    filt_str(&f, "12345", 1);
    assert(filt_int(&f, 12345, 0));
    free(f.b);
    printf("DCSO bloom 0.2.4: testdata/test.bloom's 60 bits from foo, bar, baz\n");
}

/* The words of an integer and a string key, from their bytes. growable-bloom-filter
 * 2.1.1 (double_hashing_hashes, stable_hasher.rs): h1 the xxh3-64 (seed 0) of what Rust's
 * Hash writes, a u64's 8 bytes little-endian or a &str's bytes and 0xff; h2 that with a
 * byte 0 appended, at least 1; taken here with the one-shot XXH3_64bits, where the
 * library file streams. BoomFilters (hashKernel): the FNV-1 64 of the bytes, lower and
 * upper 32 bits: Go's hash/fnv New64 gives 0xaf63bd4c8601b7be for "a" (its fnv_test.go
 * golden64 and the FNV reference's vector), 0x7b495389bdbdd4c7 for "hello", and
 * 0xa8c7f832281a39ef for 42 as 8 bytes big-endian (go 1.19). */
static void test_growable_boomfilters(void)
{
    probe_geom_t g = {0};
    uint64_t h[2];
    const library_words_t *gw = library_find("growable-bloom")->words;
    rkey_t k42 = {.kind = KEY_INT, .u = 42};
    rkey_t hello = {.kind = KEY_BYTES, .bytes = (const uint8_t *)"hello", .len = 5};
    const uint8_t le42[9] = {42, 0, 0, 0, 0, 0, 0, 0, 0};
    gw->words(&k42, &g, h);
    assert(h[0] == XXH3_64bits(le42, 8) && h[1] == XXH3_64bits(le42, 9));
    gw->words(&hello, &g, h);
    assert(h[0] == XXH3_64bits("hello\xff", 6) && h[1] == XXH3_64bits("hello\xff", 7));
    assert(h[0] != XXH3_64bits("hello", 5));
    const library_words_t *bw = library_find("boomfilters-partitioned")->words;
    rkey_t a = {.kind = KEY_BYTES, .bytes = (const uint8_t *)"a", .len = 1};
    bw->words(&a, &g, h);
    assert(h[0] == 0x8601b7be && h[1] == 0xaf63bd4c);
    bw->words(&hello, &g, h);
    assert(h[0] == 3183334599u && h[1] == 2068403081u);
    bw->words(&k42, &g, h);
    assert(h[0] == 672807407u && h[1] == 2831677490u);
    printf("growable-bloom-filter: xxh3 of Rust's Hash bytes; BoomFilters: FNV-1 64 halves\n");
}

int main(void)
{
    test_table();
    test_ranges();
    test_rocksdb_schema();
    test_guava();
    test_hadoop();
    test_seq_distinct();
    test_bloomfilter_js();
    test_bloom_filters();
    test_dcso();
    test_growable_boomfilters();
    return 0;
}
