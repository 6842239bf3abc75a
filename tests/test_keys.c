/* test_keys.c - the key sets of keys.h: names, formats (decimal strings, version-4
 * UUIDs), determinism from (seed, role, stream, index), disjointness of inserted and
 * queried keys, starting a stream anywhere, and the file key set's lines and errors.
 *
 * Why disjointness holds in general (checked here on samples): seq inserts take 0..n-1
 * and queries n, n+1, ...; seq-str takes the same indices, and a number's decimal form
 * without leading zeros is unique, so PREFIX + decimal(i) = PREFIX + decimal(j) only
 * when i = j; random keys carry the role in bit 63 and UUIDs in the top bit of their
 * first byte, and filter-bench keys in the top bit of their first 32-bit counter, so an
 * inserted key and a queried key differ in that bit whatever the generator gives. A file's lines are the user's: they are disjoint if its lines are.
 */
#undef NDEBUG
#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "keys/keys.h"

/* A key set by name (the registry's entry). */
static const keyset_kind_t *K(const char *name)
{
    const keyset_kind_t *k = keyset_kind_find(name);
    assert(k);
    return k;
}

static void test_names_and_decimal(void)
{
    static const char *names[] = {"ideal", "seq", "seq-str", "random", "uuid", "file",
                                  "filter-bench"};
    /* today's key sets, in today's order (output may show it), then any added after them */
    assert(KEYSET_COUNT >= sizeof names / sizeof names[0]);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        assert(keyset_kind_find(names[i]) == keyset_kind_at(i));
        assert(strcmp(keyset_kind_at(i)->name, names[i]) == 0);
    }
    assert(!keyset_kind_find("sequential") && !keyset_kind_find(NULL));
    assert(!keyset_kind_at(KEYSET_COUNT) && !keyset_kind_real(keyset_kind_at(0)));
    /* every entry: a unique name, what it is, a stream; a parameter with its flag and key */
    char list[1024] = "";
    for (size_t i = 0; i < KEYSET_COUNT; i++) {
        const keyset_kind_t *k = keyset_kind_at(i);
        assert(keyset_kind_find(k->name) == k && *k->summary && k->help[0] == '(' && k->next);
        assert(k->wire >= KEY_WIRE_U64 && k->wire <= KEY_WIRE_HEX && k->kinds && k->min_queries);
        assert(!k->param_flag == !k->param_key && !k->param_flag == !k->param_meta);
        assert(!k->param_flag || (keyset_kind_by_param(k->param_flag) == k &&
                                  keyset_kind_by_param(k->param_key) == k));
        assert(k->param_flag || (!k->param_needed && !k->param_path && !k->param_max));
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                 i == 0 ? "" : i + 1 == KEYSET_COUNT ? " or " : ", ", k->name);
    }
    assert(strcmp(keyset_names_list(), list) == 0);
    assert(strncmp(keyset_names_list(), "ideal, seq, seq-str, random, uuid, file", 39) == 0);
    assert(strncmp(keyset_unknown_message(), "unknown key set (", 17) == 0 &&
           strstr(keyset_unknown_message(), list));
    static const uint64_t v[] = {0, 1, 9, 10, 99, 100, 101, 999, 1000, 123456789,
                                 UINT64_C(9999999999999999999), UINT64_MAX};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        char got[24], want[24];
        size_t n = key_format_u64(v[i], got);
        got[n] = 0;
        snprintf(want, sizeof want, "%" PRIu64, v[i]);
        assert(strcmp(got, want) == 0);
    }
    for (uint64_t x = 0; x < 200000; x += 7) {
        char got[24], want[24];
        got[key_format_u64(x * 1000003, got)] = 0;
        snprintf(want, sizeof want, "%" PRIu64, x * 1000003);
        assert(strcmp(got, want) == 0);
    }
    printf("names; decimal formatting as printf's %%llu\n");
}

/* seq and seq-str: the indices, the prefix, the carries 9 -> 10 and 99..9 -> 100..0. */
static void test_seq(void)
{
    char err[200];
    keyset_t ks;
    key_stream_t s;
    rkey_t k;
    assert(keyset_open(&ks, K("seq"), 1, 1000, NULL, err, sizeof err) == KEYSET_OK);
    key_stream_init(&s, &ks, KEY_ROLE_INSERT, 5, 990);
    for (uint64_t i = 990; i < 1000; i++)
        assert(key_next(&s, &k) && k.kind == KEY_INT && k.u == i);
    assert(!key_next(&s, &k)); /* inserts end at n: never a query key */
    key_stream_init(&s, &ks, KEY_ROLE_QUERY, 0, 0);
    assert(key_next(&s, &k) && k.u == 1000);
    keyset_close(&ks);

    assert(keyset_open(&ks, K("seq-str"), 1, 100000, NULL, err, sizeof err) == KEYSET_OK);
    key_stream_init(&s, &ks, KEY_ROLE_INSERT, 0, 0);
    for (uint64_t i = 0; i < 100000; i++) {
        char want[32];
        assert(key_next(&s, &k) && k.kind == KEY_BYTES);
        int n = snprintf(want, sizeof want, "key%" PRIu64, i);
        assert(k.len == (size_t)n && memcmp(k.bytes, want, (size_t)n) == 0);
    }
    key_stream_init(&s, &ks, KEY_ROLE_QUERY, 0, 999899); /* queries from 100000 + 999899 */
    for (int i = 0; i < 201; i++)
        assert(key_next(&s, &k));
    assert(k.len == 10 && memcmp(k.bytes, "key1100099", 10) == 0);
    keyset_close(&ks);

    assert(keyset_open(&ks, K("seq-str"), 1, 10, "user:", err, sizeof err) == KEYSET_OK);
    key_stream_init(&s, &ks, KEY_ROLE_QUERY, 0, 0);
    assert(key_next(&s, &k) && k.len == 7 && memcmp(k.bytes, "user:10", 7) == 0);
    keyset_close(&ks);
    char longp[KEYSET_PREFIX_MAX + 2];
    memset(longp, 'p', sizeof longp - 1);
    longp[sizeof longp - 1] = 0;
    assert(keyset_open(&ks, K("seq-str"), 1, 10, longp, err, sizeof err) == KEYSET_EPARAM);
    assert(keyset_open(&ks, K("seq"), 1, 10, "x", err, sizeof err) == KEYSET_EPARAM);
    assert(keyset_open(&ks, NULL, 1, 10, NULL, err, sizeof err) == KEYSET_EKIND);
    printf("seq and seq-str: indices, prefixes, carries; inserts end at n\n");
}

/* The version-4 UUID text: 8-4-4-4-12 lowercase hex, version nibble 4, variant 10xx. */
static void check_uuid(const rkey_t *k, int role)
{
    assert(k->kind == KEY_BYTES && k->len == 36);
    for (size_t i = 0; i < 36; i++) {
        char c = (char)k->bytes[i];
        if (i == 8 || i == 13 || i == 18 || i == 23)
            assert(c == '-');
        else
            assert((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
    }
    assert(k->bytes[14] == '4');
    assert(strchr("89ab", k->bytes[19]));
    assert((k->bytes[0] >= '8') == role); /* the role bit: 0-7 inserted, 8-f queried */
}

/* Keys as comparable 64-bit values: the integer, or the UUID's first 8 bytes of hex
 * folded with the rest (a sample check, so a fold is enough: equal keys fold equal). */
static uint64_t fold(const rkey_t *k)
{
    if (k->kind == KEY_INT)
        return k->u;
    uint64_t h = 1469598103934665603u;
    for (size_t i = 0; i < k->len; i++)
        h = (h ^ k->bytes[i]) * 1099511628211u;
    return h;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* n inserted and n queried keys of a key set: no query equals an insert, and the same
 * (seed, stream) gives the same keys from any starting index. */
static void check_disjoint_and_deterministic(const keyset_kind_t *kind, const char *param)
{
    enum { N = 100000 };
    char err[200];
    keyset_t ks;
    assert(keyset_open(&ks, kind, 42, N, param, err, sizeof err) == KEYSET_OK);
    uint64_t *ins = malloc(N * sizeof *ins);
    key_stream_t s, t;
    rkey_t k, k2;
    key_stream_init(&s, &ks, KEY_ROLE_INSERT, 3, 0);
    for (int i = 0; i < N; i++) {
        assert(key_next(&s, &k));
        if (kind == K("uuid"))
            check_uuid(&k, KEY_ROLE_INSERT);
        if (kind == K("random"))
            assert(k.u >> 63 == 0);
        ins[i] = fold(&k);
    }
    qsort(ins, N, sizeof *ins, cmp_u64);
    key_stream_init(&s, &ks, KEY_ROLE_QUERY, 3, 0);
    key_stream_init(&t, &ks, KEY_ROLE_QUERY, 3, 777); /* starts at query 777 */
    for (int i = 0; i < N; i++) {
        assert(key_next(&s, &k));
        if (kind == K("uuid"))
            check_uuid(&k, KEY_ROLE_QUERY);
        if (kind == K("random"))
            assert(k.u >> 63 == 1);
        uint64_t f = fold(&k);
        assert(!bsearch(&f, ins, N, sizeof *ins, cmp_u64));
        if (i >= 777) {
            assert(key_next(&t, &k2));
            assert(fold(&k2) == f);
        }
    }
    /* Same seed and stream: the same keys; another stream or seed: others. */
    keyset_t ks2;
    assert(keyset_open(&ks2, kind, 43, N, param, err, sizeof err) == KEYSET_OK);
    key_stream_init(&s, &ks, KEY_ROLE_INSERT, 3, 0);
    key_stream_init(&t, &ks, KEY_ROLE_INSERT, 3, 0);
    key_stream_t o, p;
    key_stream_init(&o, &ks, KEY_ROLE_INSERT, 4, 0);
    key_stream_init(&p, &ks2, KEY_ROLE_INSERT, 3, 0);
    int same_stream = 0, same_seed = 0;
    for (int i = 0; i < 1000; i++) {
        assert(key_next(&s, &k) && key_next(&t, &k2) && fold(&k) == fold(&k2));
        assert(key_next(&o, &k2));
        same_stream += fold(&k) == fold(&k2);
        assert(key_next(&p, &k2));
        same_seed += fold(&k) == fold(&k2);
    }
    assert(kind->per_filter ? same_stream == 0 && same_seed == 0 : same_stream == 1000 && same_seed == 1000);
    free(ins);
    keyset_close(&ks);
    keyset_close(&ks2);
}

static void test_disjoint(void)
{
    check_disjoint_and_deterministic(K("seq"), NULL);
    check_disjoint_and_deterministic(K("seq-str"), NULL);
    check_disjoint_and_deterministic(K("random"), NULL);
    check_disjoint_and_deterministic(K("uuid"), NULL);
    check_disjoint_and_deterministic(K("filter-bench"), NULL);
    printf("seq, seq-str, random, uuid, filter-bench: 10^5 queries none inserted; "
           "deterministic from (seed, stream, index); UUID version and variant\n");
}

/* filter-bench: the bytes of RocksDB's util/filter_bench.cc KeyMaker::Get(id, v) at commit
 * 8aa99fc7 (lines 141-161; key_size 24, vary_key_size_log2_interval 5): EncodeFixed32(v),
 * EncodeFixed32(id + v), then zeros, 24 + fastrange32((v >> 5) * 1234567891, 5) bytes.
 * The lengths below are worked by hand from that expression: v >> 5 = 0, 1, 2, 3, 4 give
 * products 0, 1234567891, 2469135782, 3703703673 and 4938271564 mod 2^32 = 643304268,
 * whose fastrange32 over 5 is 0, 1, 2, 4, 0; the first query, v = 2^31 (j | 0x80000000
 * with j = 0), has v >> 5 = 2^26 and 1234567891 * 2^26 mod 2^32 = 19 * 2^26, which gives
 * 1. */
static void test_filter_bench(void)
{
    char err[200];
    keyset_t ks;
    key_stream_t s;
    rkey_t k;
    static const struct { uint32_t v; size_t len; } want[] = {
        {0, 24}, {1, 24}, {31, 24}, {32, 25}, {64, 26}, {96, 28}, {127, 28}, {128, 24}};
    assert(keyset_open(&ks, K("filter-bench"), 7, 200, NULL, err, sizeof err) == KEYSET_OK);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        key_stream_init(&s, &ks, KEY_ROLE_INSERT, 2, want[i].v);
        assert(key_next(&s, &k) && k.kind == KEY_BYTES && k.len == want[i].len);
        uint32_t w[2] = {want[i].v, s.id + want[i].v};
        for (size_t b = 0; b < k.len; b++)
            assert(k.bytes[b] == (b < 8 ? (uint8_t)(w[b / 4] >> (8 * (b % 4))) : 0));
    }
    key_stream_init(&s, &ks, KEY_ROLE_QUERY, 2, 0);
    assert(key_next(&s, &k) && k.len == 25);
    assert(k.bytes[0] == 0 && k.bytes[3] == 0x80); /* v = 2^31 */
    uint32_t second = (uint32_t)(s.id + 0x80000000u);
    for (int b = 0; b < 4; b++)
        assert(k.bytes[4 + b] == (uint8_t)(second >> (8 * b)));
    /* n queries a filter (the counters filter_bench asks), at most 2^31 inserts */
    key_stream_init(&s, &ks, KEY_ROLE_QUERY, 2, 199);
    assert(key_next(&s, &k) && !key_next(&s, &k));
    assert(keyset_check(&ks, 200, err, sizeof err) == KEYSET_OK);
    assert(keyset_check(&ks, 201, err, sizeof err) == KEYSET_ECOUNT);
    assert(strstr(err, "at most 200 queries a filter") && strstr(err, "201 asked"));
    keyset_close(&ks);
    assert(keyset_open(&ks, K("filter-bench"), 7, (UINT64_C(1) << 31), NULL, err,
                       sizeof err) == KEYSET_OK);
    keyset_close(&ks);
    assert(keyset_open(&ks, K("filter-bench"), 7, (UINT64_C(1) << 31) + 1, NULL, err,
                       sizeof err) == KEYSET_ECOUNT);
    assert(strstr(err, "at most 2^31 inserted keys") && strstr(err, "2147483649 asked"));
    printf("filter-bench: RocksDB filter_bench's key bytes and lengths; n queries a filter, "
           "2^31 inserts at most\n");
}

/* filter_bench's KeyMaker as that file writes it, buffer and all: one zeroed buffer of
 * key_size + 11 bytes that every call reuses, the key written at offset v % 4 (its
 * alignment), EncodeFixed32 of v and of id + v and of 0, then a Slice of the length
 * below from that offset. Whatever earlier calls left in the buffer is part of the key
 * it returns, so this checks that leftovers never reach one. */
typedef struct { uint8_t buf[24 + 11]; } key_maker_t;
static size_t key_maker_get(key_maker_t *km, uint32_t id, uint32_t v, const uint8_t **key)
{
    size_t start = v % 4, len = 24; /* smallest_size_: 24 - (5 >= 30 ? 2 : 0) */
    len += (size_t)(((uint64_t)(uint32_t)((v >> 5) * 1234567891u) * 5) >> 32);
    uint8_t *d = km->buf + start;
    const uint32_t w[3] = {v, id + v, 0};
    for (int i = 0; i < 12; i++)
        d[i] = (uint8_t)(w[i / 4] >> (8 * (i % 4)));
    *key = d;
    return len;
}

/* Every key of three filters, 10^5 inserted and 10^5 queried each, equals KeyMaker's. */
static void test_filter_bench_maker(void)
{
    enum { N = 100000 };
    char err[200];
    keyset_t ks;
    assert(keyset_open(&ks, K("filter-bench"), 11, N, NULL, err, sizeof err) == KEYSET_OK);
    key_maker_t km;
    memset(&km, 0, sizeof km);
    for (uint64_t f = 0; f < 3; f++)
        for (int role = 0; role < 2; role++) {
            key_stream_t s;
            rkey_t k;
            key_stream_init(&s, &ks, role, f, 0);
            for (uint32_t j = 0; j < N; j++) {
                const uint8_t *want;
                size_t len = key_maker_get(&km, s.id, j | (uint32_t)role << 31, &want);
                assert(key_next(&s, &k) && k.len == len && memcmp(k.bytes, want, len) == 0);
            }
            assert(!key_next(&s, &k));
        }
    keyset_close(&ks);
    printf("filter-bench: 6 * 10^5 keys equal filter_bench's KeyMaker, its buffer reused\n");
}

/* A temporary file with this text; its name in path. */
static void write_file(char *path, size_t cap, const char *text, size_t len)
{
    snprintf(path, cap, "/tmp/bloomsim_test_keys_XXXXXX");
    int fd = mkstemp(path);
    assert(fd >= 0);
    assert(write(fd, text, len) == (ssize_t)len);
    close(fd);
}

static void test_file_lines(void)
{
    char path[64], err[400];
    const char text[] = "alpha\r\nbeta\n\ngamma\ndelta"; /* CRLF, an empty line, no final \n */
    write_file(path, sizeof path, text, sizeof text - 1);
    keyset_t ks;
    assert(keyset_open(&ks, K("file"), 1, 2, path, err, sizeof err) == KEYSET_OK);
    assert(ks.lines == 5);
    assert(keyset_check(&ks, 3, err, sizeof err) == KEYSET_OK);
    assert(keyset_check(&ks, 4, err, sizeof err) == KEYSET_ESHORT);
    assert(strstr(err, path) && strstr(err, "has 5 lines") && strstr(err, "need 6"));
    static const char *want[] = {"alpha", "beta", "", "gamma", "delta"};
    key_stream_t s;
    rkey_t k;
    key_stream_init(&s, &ks, KEY_ROLE_INSERT, 0, 0);
    for (int i = 0; i < 2; i++)
        assert(key_next(&s, &k) && k.len == strlen(want[i]) && !memcmp(k.bytes, want[i], k.len));
    assert(!key_next(&s, &k)); /* the inserted lines end at line n */
    key_stream_init(&s, &ks, KEY_ROLE_QUERY, 0, 0);
    for (int i = 2; i < 5; i++)
        assert(key_next(&s, &k) && k.len == strlen(want[i]) && !memcmp(k.bytes, want[i], k.len));
    assert(!key_next(&s, &k));
    keyset_close(&ks);
    unlink(path);
    printf("file: lines without \\n or \\r\\n, empty lines, a last line without \\n\n");
}

/* Starting anywhere in a file longer than several index strides. */
static void test_file_seek(void)
{
    enum { LINES = 3 * KEYSET_FILE_STRIDE + 17 };
    char *text = malloc(LINES * 12), path[64], err[400];
    size_t len = 0;
    for (int i = 0; i < LINES; i++)
        len += (size_t)sprintf(text + len, "line%d\n", i);
    write_file(path, sizeof path, text, len);
    keyset_t ks;
    assert(keyset_open(&ks, K("file"), 1, 5000, path, err, sizeof err) == KEYSET_OK);
    static const uint64_t firsts[] = {0, 1, KEYSET_FILE_STRIDE - 1, KEYSET_FILE_STRIDE,
                                      4999, 2 * KEYSET_FILE_STRIDE + 5};
    for (size_t j = 0; j < sizeof firsts / sizeof firsts[0]; j++)
        for (int role = 0; role < 2; role++) {
            key_stream_t s;
            rkey_t k;
            uint64_t line = (role ? 5000 : 0) + firsts[j];
            key_stream_init(&s, &ks, role, 0, firsts[j]);
            if (line >= (role ? LINES : 5000u)) {
                assert(!key_next(&s, &k));
                continue;
            }
            char want[32];
            int n = snprintf(want, sizeof want, "line%" PRIu64, line);
            assert(key_next(&s, &k) && k.len == (size_t)n && !memcmp(k.bytes, want, k.len));
        }
    keyset_close(&ks);
    unlink(path);
    free(text);
    printf("file: streams start at any line (sparse index every %d lines)\n",
           KEYSET_FILE_STRIDE);
}

static void test_file_errors(void)
{
    char err[400], path[64];
    keyset_t ks;
    assert(keyset_open(&ks, K("file"), 1, 1, "/nonexistent/bloomsim/keys.txt", err,
                       sizeof err) == KEYSET_EFILE);
    assert(strstr(err, "/nonexistent/bloomsim/keys.txt") && strstr(err, "No such file"));
    assert(keyset_open(&ks, K("file"), 1, 1, "/tmp", err, sizeof err) == KEYSET_EFILE);
    assert(strstr(err, "not a regular file"));
    assert(keyset_open(&ks, K("file"), 1, 1, NULL, err, sizeof err) == KEYSET_EPARAM);
    write_file(path, sizeof path, "a\nb\n", 4);
    assert(keyset_open(&ks, K("file"), 1, 3, path, err, sizeof err) == KEYSET_ESHORT);
    assert(strstr(err, "has 2 lines, fewer than the 3 keys to insert"));
    unlink(path);
    write_file(path, sizeof path, "", 0);
    assert(keyset_open(&ks, K("file"), 1, 0, path, err, sizeof err) == KEYSET_OK);
    assert(ks.lines == 0 && keyset_check(&ks, 1, err, sizeof err) == KEYSET_ESHORT);
    keyset_close(&ks);
    unlink(path);
    if (geteuid() != 0) { /* root reads files whatever their mode */
        write_file(path, sizeof path, "a\n", 2);
        assert(chmod(path, 0) == 0);
        assert(keyset_open(&ks, K("file"), 1, 1, path, err, sizeof err) == KEYSET_EFILE);
        assert(strstr(err, "Permission denied"));
        unlink(path);
    }
    printf("file: missing, not a file, unreadable, too short, empty: clear errors\n");
}

/* url: https://example.org/users/<i>/profile, worked by hand: 26 bytes of prefix
 * ("https://" 8, "example.org" 11, "/users/" 7), the digits, 8 of suffix; i as seq's
 * (inserts 0..n-1, queries n on), carries that lengthen the digits move the suffix; no
 * parameter; the same keys in every stream; disjoint and deterministic. */
static void test_url(void)
{
    char err[200];
    keyset_t ks;
    key_stream_t s;
    rkey_t k;
    const keyset_kind_t *url = K("url");
    assert(!url->param_flag && !url->per_filter && url->wire == KEY_WIRE_STR);
    assert(keyset_open(&ks, url, 1, 1000, "x", err, sizeof err) == KEYSET_EPARAM &&
           strcmp(err, "key set url takes no parameter") == 0);
    assert(keyset_open(&ks, url, 1, 1000, NULL, err, sizeof err) == KEYSET_OK);
    static const struct {
        int role;
        uint64_t first;
        const char *want[3];
    } cases[] = {
        {KEY_ROLE_INSERT, 0, {"https://example.org/users/0/profile",
                              "https://example.org/users/1/profile",
                              "https://example.org/users/2/profile"}},
        {KEY_ROLE_INSERT, 9, {"https://example.org/users/9/profile",
                              "https://example.org/users/10/profile",
                              "https://example.org/users/11/profile"}},
        {KEY_ROLE_INSERT, 998, {"https://example.org/users/998/profile",
                                "https://example.org/users/999/profile", NULL}},
        {KEY_ROLE_QUERY, 0, {"https://example.org/users/1000/profile",
                             "https://example.org/users/1001/profile",
                             "https://example.org/users/1002/profile"}},
        {KEY_ROLE_QUERY, 8999, {"https://example.org/users/9999/profile",
                                "https://example.org/users/10000/profile",
                                "https://example.org/users/10001/profile"}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (uint64_t stream = 0; stream < 3; stream++) { /* every stream the same */
            key_stream_init(&s, &ks, cases[c].role, stream, cases[c].first);
            for (int i = 0; i < 3; i++) {
                const char *w = cases[c].want[i];
                if (!w) {
                    assert(!key_next(&s, &k)); /* inserts end at n */
                    break;
                }
                assert(key_next(&s, &k) && k.kind == KEY_BYTES && k.len == strlen(w));
                assert(memcmp(k.bytes, w, k.len) == 0);
            }
        }
    /* the bytes of key 0: 'h' 't' 't' 'p' 's' ':' '/' '/' ... '0' '/' 'p' ... 'e' */
    key_stream_init(&s, &ks, KEY_ROLE_INSERT, 0, 0);
    assert(key_next(&s, &k) && k.len == 35 && k.bytes[0] == 0x68 && k.bytes[5] == 0x3a &&
           k.bytes[25] == 0x2f && k.bytes[26] == 0x30 && k.bytes[27] == 0x2f &&
           k.bytes[34] == 0x65);
    /* 2^64 - 1 inserts: the last key's 20 digits fit */
    keyset_close(&ks);
    assert(keyset_open(&ks, url, 1, UINT64_MAX, NULL, err, sizeof err) == KEYSET_OK);
    key_stream_init(&s, &ks, KEY_ROLE_INSERT, 0, UINT64_MAX - 1);
    assert(key_next(&s, &k) && k.len == 26 + 20 + 8 &&
           memcmp(k.bytes, "https://example.org/users/18446744073709551614/profile", k.len) == 0);
    keyset_close(&ks);
    check_disjoint_and_deterministic(url, NULL);
    printf("url: https://example.org/users/<i>/profile by hand, carries, no parameter; "
           "10^5 queries none inserted, deterministic\n");
}

int main(void)
{
    test_names_and_decimal();
    test_seq();
    test_disjoint();
    test_filter_bench();
    test_filter_bench_maker();
    test_file_lines();
    test_file_seek();
    test_file_errors();
    test_url();
    return 0;
}
