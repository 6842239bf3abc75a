/* keys.c - the key sets of keys.h: names, opening (a file is mapped and its lines
 * indexed sparsely), streams and the formatters they use (decimal, UUID). */
#include "keys/keys.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const KEYSET_NAMES[KEYSET_COUNT] = {
    [KEYSET_IDEAL] = "ideal", [KEYSET_SEQ] = "seq", [KEYSET_SEQ_STR] = "seq-str",
    [KEYSET_RANDOM] = "random", [KEYSET_UUID] = "uuid", [KEYSET_FILE] = "file",
    [KEYSET_FILTER_BENCH] = "filter-bench",
};

/* The random and uuid keys of role r in stream s come from pcg32_unit(seed, KEYS_TAG +
 * r, s): "keys" in the high word keeps them apart from the simulation's units, whose
 * first coordinate is a row number. filter-bench's id of stream s is the first output of
 * pcg32_unit(seed, KEYS_TAG + 2, s). */
#define KEYS_TAG (UINT64_C(0x6b657973) << 32)

int keyset_kind_find(const char *name)
{
    for (int i = 0; i < KEYSET_COUNT; i++)
        if (name && strcmp(name, KEYSET_NAMES[i]) == 0)
            return i;
    return -1;
}

const char *keyset_kind_name(int kind)
{
    return kind >= 0 && kind < KEYSET_COUNT ? KEYSET_NAMES[kind] : "?";
}

/* ---- decimal ---- */

static const char DIGITS2[201] = "00010203040506070809101112131415161718192021222324252627282930"
                                 "31323334353637383940414243444546474849505152535455565758596061"
                                 "62636465666768697071727374757677787980818283848586878889909192"
                                 "93949596979899";

size_t key_format_u64(uint64_t v, char *out)
{
    char tmp[20];
    char *p = tmp + sizeof tmp;
    while (v >= 100) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        p -= 2;
        memcpy(p, DIGITS2 + 2 * r, 2);
    }
    if (v >= 10) {
        p -= 2;
        memcpy(p, DIGITS2 + 2 * v, 2);
    } else {
        *--p = (char)('0' + v);
    }
    size_t n = (size_t)(tmp + sizeof tmp - p);
    memcpy(out, p, n);
    return n;
}

/* ---- opening ---- */

/* The file's lines: counted, and the start of every KEYSET_FILE_STRIDE-th recorded. A
 * last line without "\n" is a line; an empty file has none. */
static int file_index(keyset_t *ks, char *err, size_t errlen)
{
    size_t cap = 16;
    ks->index = malloc(cap * sizeof *ks->index);
    if (!ks->index)
        return KEYSET_ENOMEM;
    const uint8_t *p = ks->map, *end = ks->map + ks->size;
    uint64_t line = 0;
    ks->insert_end = ks->size;
    while (p < end) {
        if (line % KEYSET_FILE_STRIDE == 0) {
            if (line / KEYSET_FILE_STRIDE == cap) {
                uint64_t *grown = realloc(ks->index, 2 * cap * sizeof *grown);
                if (!grown)
                    return KEYSET_ENOMEM;
                ks->index = grown, cap *= 2;
            }
            ks->index[line / KEYSET_FILE_STRIDE] = (uint64_t)(p - ks->map);
        }
        if (line == ks->inserts)
            ks->insert_end = (size_t)(p - ks->map);
        const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
        line++;
    }
    ks->lines = line;
    if (line < ks->inserts) {
        snprintf(err, errlen, "key file %s has %llu lines, fewer than the %llu keys to insert",
                 ks->path, (unsigned long long)line, (unsigned long long)ks->inserts);
        return KEYSET_ESHORT;
    }
    return KEYSET_OK;
}

/* Maps the file read-only: its keys are read from the page cache as they are streamed,
 * never copied. */
static int file_open(keyset_t *ks, const char *path, char *err, size_t errlen)
{
    ks->path = malloc(strlen(path) + 1);
    if (!ks->path)
        return KEYSET_ENOMEM;
    strcpy(ks->path, path);
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        snprintf(err, errlen, "key file %s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return KEYSET_EFILE;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "key file %s: not a regular file", path);
        close(fd);
        return KEYSET_EFILE;
    }
    ks->size = (size_t)st.st_size;
    if (ks->size > 0) {
        void *m = mmap(NULL, ks->size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m == MAP_FAILED) {
            snprintf(err, errlen, "key file %s: %s", path, strerror(errno));
            close(fd);
            return KEYSET_EFILE;
        }
        ks->map = m;
        (void)posix_madvise(m, ks->size, POSIX_MADV_SEQUENTIAL);
    }
    close(fd);
    return file_index(ks, err, errlen);
}

int keyset_open(keyset_t *ks, int kind, uint64_t seed, uint64_t inserts, const char *param,
                char *err, size_t errlen)
{
    memset(ks, 0, sizeof *ks);
    ks->kind = kind, ks->seed = seed, ks->inserts = inserts;
    if (kind < 0 || kind >= KEYSET_COUNT) {
        snprintf(err, errlen, "unknown key set (" KEYSET_NAMES_LIST ")");
        return KEYSET_EKIND;
    }
    int st = KEYSET_OK;
    if (kind == KEYSET_SEQ_STR) {
        const char *prefix = param ? param : KEYSET_PREFIX_DEFAULT;
        if (strlen(prefix) > KEYSET_PREFIX_MAX) {
            snprintf(err, errlen, "key prefix longer than %d bytes", KEYSET_PREFIX_MAX);
            return KEYSET_EPARAM;
        }
        strcpy(ks->prefix, prefix);
        ks->prefix_len = strlen(prefix);
    } else if (kind == KEYSET_FILE) {
        if (!param || !*param) {
            snprintf(err, errlen, "the file key set needs a file name");
            return KEYSET_EPARAM;
        }
        st = file_open(ks, param, err, errlen);
    } else if (param) {
        snprintf(err, errlen, "key set %s takes no parameter", KEYSET_NAMES[kind]);
        return KEYSET_EPARAM;
    } else if (kind == KEYSET_FILTER_BENCH && inserts > KEYSET_FILTER_BENCH_MAX) {
        snprintf(err, errlen, "filter-bench keys number at most 2^31 inserted keys a filter "
                 "(a 32-bit counter whose top bit marks the queries): %llu asked",
                 (unsigned long long)inserts);
        return KEYSET_ECOUNT;
    }
    if (st == KEYSET_ENOMEM)
        snprintf(err, errlen, "out of memory indexing key file %s", param);
    if (st != KEYSET_OK)
        keyset_close(ks);
    return st;
}

int keyset_check(const keyset_t *ks, uint64_t queries, char *err, size_t errlen)
{
    if (queries > UINT64_MAX - ks->inserts) {
        snprintf(err, errlen, "%llu inserts and %llu queries: more than 2^64 - 1 keys",
                 (unsigned long long)ks->inserts, (unsigned long long)queries);
        return KEYSET_ECOUNT;
    }
    if (queries > keyset_queries_max(ks)) {
        snprintf(err, errlen, "filter-bench keys: at most %llu queries a filter (as many "
                 "as it inserts, the counters filter_bench asks): %llu asked",
                 (unsigned long long)ks->inserts, (unsigned long long)queries);
        return KEYSET_ECOUNT;
    }
    if (ks->kind == KEYSET_FILE && ks->lines < ks->inserts + queries) {
        snprintf(err, errlen,
                 "key file %s has %llu lines: %llu inserts and %llu queries need %llu (the "
                 "first %llu lines are inserted, the lines after them queried)",
                 ks->path, (unsigned long long)ks->lines, (unsigned long long)ks->inserts,
                 (unsigned long long)queries, (unsigned long long)(ks->inserts + queries),
                 (unsigned long long)ks->inserts);
        return KEYSET_ESHORT;
    }
    return KEYSET_OK;
}

void keyset_close(keyset_t *ks)
{
    if (ks->map)
        munmap((void *)ks->map, ks->size);
    free(ks->index);
    free(ks->path);
    ks->map = NULL, ks->index = NULL, ks->path = NULL;
}

/* ---- streams ---- */

int keyset_per_filter(const keyset_t *ks)
{
    return ks->kind == KEYSET_RANDOM || ks->kind == KEYSET_UUID ||
           ks->kind == KEYSET_FILTER_BENCH;
}

uint64_t keyset_queries_max(const keyset_t *ks)
{
    return ks->kind == KEYSET_FILTER_BENCH ? ks->inserts : UINT64_MAX;
}

/* PCG outputs per key: two for a 64-bit integer, four for a UUID's 128 bits. */
static uint64_t draws_per_key(int kind)
{
    return kind == KEYSET_UUID ? 4 : 2;
}

void key_stream_init(key_stream_t *s, const keyset_t *ks, int role, uint64_t stream,
                     uint64_t first)
{
    memset(s, 0, sizeof *s);
    s->ks = ks, s->role = role, s->next = first;
    uint64_t index = (role == KEY_ROLE_QUERY ? ks->inserts : 0) + first;
    if (ks->kind == KEYSET_RANDOM || ks->kind == KEYSET_UUID) {
        pcg32_unit(&s->rng, ks->seed, KEYS_TAG + (uint64_t)role, stream);
        pcg32_advance(&s->rng, draws_per_key(ks->kind) * first);
        s->buf[8] = s->buf[13] = s->buf[18] = s->buf[23] = '-'; /* uuid's fixed dashes */
    } else if (ks->kind == KEYSET_FILTER_BENCH) {
        pcg32_unit(&s->rng, ks->seed, KEYS_TAG + 2, stream);
        s->id = pcg32_next(&s->rng);
    } else if (ks->kind == KEYSET_SEQ_STR) {
        memcpy(s->buf, ks->prefix, ks->prefix_len);
        s->digits = key_format_u64(index, (char *)s->buf + ks->prefix_len);
        s->fresh = 1;
    } else if (ks->kind == KEYSET_FILE) {
        const uint8_t *end = ks->map + ks->size;
        if (index >= ks->lines) {
            s->pos = end;
            return;
        }
        const uint8_t *p = ks->map + ks->index[index / KEYSET_FILE_STRIDE];
        for (uint64_t j = index % KEYSET_FILE_STRIDE; j > 0; j--)
            p = (const uint8_t *)memchr(p, '\n', (size_t)(end - p)) + 1;
        s->pos = p;
    }
}

/* The decimal digits after the prefix, plus one (a carry past the first digit makes the
 * number one digit longer: all nines become 1 and zeros). */
static void seq_str_increment(key_stream_t *s)
{
    uint8_t *d = s->buf + s->ks->prefix_len;
    size_t i = s->digits;
    while (i > 0 && d[i - 1] == '9')
        d[--i] = '0';
    if (i > 0) {
        d[i - 1]++;
        return;
    }
    d[0] = '1';
    d[s->digits++] = '0';
}

/* "00".."ff": two characters per byte. */
static const char HEX2[513] =
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
    "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
    "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
    "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
    "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
    "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
    "c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
    "e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";
/* Where byte i of a UUID goes in its 8-4-4-4-12 text (the dashes are written once, by
 * key_stream_init). */
static const uint8_t UUID_AT[16] = {0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34};

/* A version-4 UUID from the generator, the role in the top bit of its first byte. */
static void uuid_next(key_stream_t *s)
{
    uint8_t b[16];
    uint64_t hi = pcg32_next64(&s->rng), lo = pcg32_next64(&s->rng);
    for (int i = 0; i < 8; i++) {
        b[i] = (uint8_t)(hi >> (56 - 8 * i));
        b[8 + i] = (uint8_t)(lo >> (56 - 8 * i));
    }
    b[0] = (uint8_t)((b[0] & 0x7f) | (s->role << 7));
    b[6] = (uint8_t)((b[6] & 0x0f) | 0x40); /* version 4 (RFC 4122, 4.4) */
    b[8] = (uint8_t)((b[8] & 0x3f) | 0x80); /* variant 10 */
    for (int i = 0; i < 16; i++)
        memcpy(s->buf + UUID_AT[i], HEX2 + 2 * b[i], 2);
}

/* filter_bench's KeyMaker::Get(id, v) (util/filter_bench.cc at 8aa99fc7, lines 125-161)
 * at its defaults key_size 24 and vary_key_size_log2_interval 5: EncodeFixed32(v),
 * EncodeFixed32(id + v), zeros, of length smallest_size_ + fastrange32((v >> 5) *
 * 1234567891, 5), where smallest_size_ = 24 - (interval >= 30 ? 2 : 0) = 24 as written
 * there. Its alignment (v % 4) moves the bytes in its buffer, not their values. Returns
 * the length. */
static size_t filter_bench_key(uint8_t *buf, uint32_t id, uint32_t v)
{
    uint32_t w[2] = {v, id + v};
    memset(buf, 0, 28);
    for (int i = 0; i < 8; i++)
        buf[i] = (uint8_t)(w[i / 4] >> (8 * (i % 4)));
    return 24 + (size_t)(((uint64_t)(uint32_t)((v >> 5) * 1234567891u) * 5) >> 32);
}

/* The next line of the file: [pos, "\n"), without a final "\r". */
static int file_next(key_stream_t *s, rkey_t *k)
{
    const keyset_t *ks = s->ks;
    const uint8_t *end = s->role == KEY_ROLE_INSERT ? ks->map + ks->insert_end
                                                     : ks->map + ks->size;
    if (s->pos >= end)
        return 0;
    const uint8_t *nl = memchr(s->pos, '\n', (size_t)(end - s->pos));
    const uint8_t *stop = nl ? nl : end;
    k->kind = KEY_BYTES;
    k->bytes = s->pos;
    k->len = (size_t)(stop - s->pos);
    if (k->len > 0 && stop[-1] == '\r')
        k->len--;
    s->pos = nl ? nl + 1 : end;
    return 1;
}

int key_next(key_stream_t *s, rkey_t *k)
{
    const keyset_t *ks = s->ks;
    if (s->role == KEY_ROLE_INSERT && s->next >= ks->inserts)
        return 0;
    s->next++;
    switch (ks->kind) {
    case KEYSET_SEQ:
        k->kind = KEY_INT;
        k->u = (s->role == KEY_ROLE_QUERY ? ks->inserts : 0) + s->next - 1;
        return 1;
    case KEYSET_RANDOM: {
        uint64_t v = pcg32_next64(&s->rng);
        k->kind = KEY_INT;
        k->u = (v & INT64_MAX) | ((uint64_t)s->role << 63);
        return 1;
    }
    case KEYSET_SEQ_STR:
        if (!s->fresh)
            seq_str_increment(s);
        s->fresh = 0;
        k->kind = KEY_BYTES;
        k->bytes = s->buf;
        k->len = ks->prefix_len + s->digits;
        return 1;
    case KEYSET_UUID:
        uuid_next(s);
        k->kind = KEY_BYTES;
        k->bytes = s->buf;
        k->len = 36;
        return 1;
    case KEYSET_FILE:
        return file_next(s, k);
    case KEYSET_FILTER_BENCH:
        if (s->next > keyset_queries_max(ks))
            return 0; /* keyset_check and the callers' caps keep to them */
        k->kind = KEY_BYTES;
        k->bytes = s->buf;
        k->len = filter_bench_key(s->buf, s->id,
                                  (uint32_t)(s->next - 1) | (uint32_t)s->role << 31);
        return 1;
    default:
        return 0;
    }
}
