/* libbloom_adapter.c - the adapter protocol (docs/adapter.md) for libbloom as Debian
 * packages it (libbloom-dev 1.6): a test-only program, built by
 * tests/conformance/build.sh with `cc ... -lbloom`; bloomsim never links it.
 *
 * libbloom 1.6's API (/usr/include/bloom.h, = jvirkki/libbloom bloom.h @v1.6):
 *   bloom_init(&b, int entries, double error)  0 on success, 1 when entries < 1000 or
 *       error == 0 (bloom.c:87-120 @v1.6); sets b.bits = (int)(entries * bpe) (:103),
 *       b.bytes = ceil(bits / 8) (:105-109), b.hashes = ceil(ln 2 * bpe) (:111);
 *   bloom_add(&b, buf, len), bloom_check(&b, buf, len)  1 = "maybe present" (:123-132);
 *   bloom_version()  the version string compiled in (bloom.h).
 * (libbloom 2.0 has bloom_init2 with unsigned entries; Debian's 1.6 has only bloom_init.)
 * m = b.bits, k = b.hashes. The bits: b.bf, one byte per 8 bits, position x in
 * bf[x >> 3] at mask 1 << (x % 8) (test_bit_set_bit, bloom.c:30-45 @v1.6): already
 * the protocol's layout (bit i = bit i mod 8 of byte i / 8), printed as it is; bf is
 * documented as private in bloom.h, and read here only to print it.
 * Keys: u64 as its 8 bytes little-endian, str as the line's bytes, hex as its bytes:
 * the buffer and length bloom_add takes (libbloom hashes it with murmurhash2, seeds
 * 0x9747b28c and the first hash: bloom.c:57-58 @v1.6).
 */
#define _POSIX_C_SOURCE 200809L
#include <bloom.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *line;
static size_t cap;

/* The next line without its newline, or NULL at the end of input. A last line without
 * a newline counts as a line. */
static const char *next_line(size_t *len)
{
    ssize_t n = getline(&line, &cap, stdin);
    if (n < 0)
        return NULL;
    if (n > 0 && line[n - 1] == '\n')
        line[--n] = '\0';
    *len = (size_t)n;
    return line;
}

static void fail(const char *what, const char *detail)
{
    printf("error %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    fflush(stdout);
    exit(1);
}

/* A canonical decimal unsigned 64-bit integer: digits only, no leading zero. */
static int parse_u64(const char *s, size_t len, uint64_t *out)
{
    if (len == 0 || len > 20 || (s[0] == '0' && len > 1))
        return 0;
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            return 0;
        v = v * 10 + d;
    }
    *out = v;
    return 1;
}

/* A number: all of s, finite. */
static int parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    return *s && *end == '\0' && errno == 0;
}

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* One key line of KIND into buf (u64: 8 bytes little-endian; str: the bytes; hex:
 * decoded), its length in *len. */
static const unsigned char *key_bytes(const char *kind, const char *s, size_t n,
                                      unsigned char *buf, size_t *len)
{
    if (strcmp(kind, "u64") == 0) {
        uint64_t v;
        if (!parse_u64(s, n, &v))
            fail("not a decimal u64 key", s);
        for (int i = 0; i < 8; i++)
            buf[i] = (unsigned char)(v >> (8 * i));
        *len = 8;
        return buf;
    }
    if (strcmp(kind, "str") == 0) {
        *len = n;
        return (const unsigned char *)s;
    }
    /* hex: decoded in place (the line is ours until the next read) */
    if (n % 2)
        fail("odd-length hex key", s);
    unsigned char *out = (unsigned char *)line;
    for (size_t i = 0; i < n / 2; i++) {
        int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);
        if (hi < 0 || lo < 0)
            fail("not a lowercase hex key", s);
        out[i] = (unsigned char)(hi * 16 + lo);
    }
    *len = n / 2;
    return out;
}

/* Split a command into at most 4 words at single spaces; the count, or -1 if malformed
 * (an empty word, or more than 4). The words point into a copy. */
static int split(const char *cmd, char *copy, size_t size, char *w[4])
{
    if (strlen(cmd) >= size)
        return -1;
    strcpy(copy, cmd);
    int n = 0;
    for (char *p = copy;; p++) {
        if (n == 4 || *p == ' ' || *p == '\0')
            return -1;
        w[n++] = p;
        p = strchr(p, ' ');
        if (!p)
            return n;
        *p = '\0';
    }
}

/* insert or query: the count's key lines of one kind; a query answers a line of 0s and
 * 1s. */
static void keys_command(struct bloom *b, int have, char **w, const char *cmd)
{
    size_t n;
    uint64_t count;
    int insert = w[0][0] == 'i';
    char kind[4];
    if (strcmp(w[1], "u64") && strcmp(w[1], "str") && strcmp(w[1], "hex"))
        fail("unknown key kind", w[1]);
    strcpy(kind, w[1]);
    if (!parse_u64(w[2], strlen(w[2]), &count) || count > SIZE_MAX - 2)
        fail("malformed count", cmd);
    if (!have)
        fail("no filter", "a design must come first");
    char *answer = insert ? NULL : malloc(count + 2);
    if (!insert && !answer)
        fail("out of memory", NULL);
    for (uint64_t i = 0; i < count; i++) {
        const char *s = next_line(&n);
        if (!s)
            fail("end of input inside a key list", NULL);
        unsigned char buf[8];
        size_t len;
        const unsigned char *key = key_bytes(kind, s, n, buf, &len);
        if (len > INT_MAX)
            fail("key too long for libbloom (an int length)", NULL);
        if (insert)
            bloom_add(b, key, (int)len);
        else
            answer[i] = bloom_check(b, key, (int)len) == 1 ? '1' : '0';
    }
    if (insert) {
        printf("inserted %" PRIu64 "\n", count);
    } else {
        answer[count] = '\0';
        printf("%s\n", answer);
        free(answer);
    }
}

int main(void)
{
    struct bloom b;
    int have = 0;
    size_t n;
    const char *cmd;
    char copy[128], *w[4];
    while ((cmd = next_line(&n)) != NULL) {
        int nw = split(cmd, copy, sizeof copy, w);
        uint64_t keys;
        double p;
        if (nw == 2 && strcmp(w[0], "hello") == 0 && strcmp(w[1], "1") == 0) {
            printf("hello 1 libbloom %s (Debian libbloom-dev, bloom_init)\n", bloom_version());
        } else if (nw == 1 && strcmp(w[0], "quit") == 0) {
            break;
        } else if (nw == 3 && strcmp(w[0], "design") == 0) {
            if (!parse_u64(w[1], strlen(w[1]), &keys) || keys == 0 ||
                !parse_double(w[2], &p) || !(p > 0 && p < 1))
                fail("malformed design", cmd);
            if (have)
                bloom_free(&b);
            have = 0;
            if (keys > INT_MAX) {
                printf("error libbloom 1.6: bloom_init takes an int number of entries\n");
            } else if (bloom_init(&b, (int)keys, p) != 0) {
                printf("error libbloom 1.6: bloom_init refused it (fewer than 1000 entries, "
                       "or no memory)\n");
            } else {
                have = 1;
                printf("design %d %d\n", b.bits, b.hashes);
            }
        } else if (nw == 3 && strcmp(w[0], "design-bpk") == 0) {
            if (!parse_u64(w[1], strlen(w[1]), &keys) || keys == 0 ||
                !parse_double(w[2], &p) || !(p > 0))
                fail("malformed design-bpk", cmd);
            if (have)
                bloom_free(&b);
            have = 0;
            printf("error libbloom takes a rate (bloom_init), not bits per key\n");
        } else if (nw == 3 && (strcmp(w[0], "insert") == 0 || strcmp(w[0], "query") == 0)) {
            keys_command(&b, have, w, cmd);
        } else if (nw == 1 && strcmp(w[0], "bits") == 0) {
            if (!have)
                fail("no filter", "a design must come first");
            printf("bits %d ", b.bits);
            for (int i = 0; i < b.bytes; i++)
                printf("%02x", b.bf[i]);
            printf("\n");
        } else {
            fail("unknown command", cmd);
        }
        fflush(stdout);
    }
    if (have)
        bloom_free(&b);
    free(line);
    return 0;
}
