/* filter_bench.c - the key set `filter-bench`: the keys of RocksDB's benchmark
 * util/filter_bench.cc (KeyMaker::Get at commit 8aa99fc7, the benchmark of
 * facebook/rocksdb PR #6317), byte strings: for the filter's 32-bit id F (drawn per
 * stream, as filter_bench draws one per filter) and a 32-bit counter v, the bytes
 * LE32(v), LE32(F + v) and zeros, 24 + floor(5 ((v >> 5) 1234567891 mod 2^32) / 2^32)
 * bytes in all (24 to 28); inserts take v = 0..n-1 (n at most 2^31), queries v = 2^31 + j
 * for j = 0..n-1, the keys filter_bench asks (Get(id, j | 0x80000000) with j below the
 * filter's key count), each once: at most n queries a filter. Inserted and queried keys
 * differ in the counter's top bit. */
#include <stdio.h>
#include <string.h>

#include "keys/keys.h"

/* At most 2^31 inserted keys, and as many queries, a filter. */
#define FILTER_BENCH_MAX (UINT64_C(1) << 31)

static int filter_bench_open(keyset_t *ks, const char *param, char *err, size_t errlen)
{
    (void)param;
    if (ks->inserts > FILTER_BENCH_MAX) {
        snprintf(err, errlen, "filter-bench keys number at most 2^31 inserted keys a filter "
                 "(a 32-bit counter whose top bit marks the queries): %llu asked",
                 (unsigned long long)ks->inserts);
        return KEYSET_ECOUNT;
    }
    return KEYSET_OK;
}

static uint64_t filter_bench_queries_max(const keyset_t *ks)
{
    return ks->inserts;
}

static int filter_bench_check(const keyset_t *ks, uint64_t queries, char *err, size_t errlen)
{
    if (queries > ks->inserts) {
        snprintf(err, errlen, "filter-bench keys: at most %llu queries a filter (as many "
                 "as it inserts, the counters filter_bench asks): %llu asked",
                 (unsigned long long)ks->inserts, (unsigned long long)queries);
        return KEYSET_ECOUNT;
    }
    return KEYSET_OK;
}

static void filter_bench_stream_init(key_stream_t *s, uint64_t stream)
{
    pcg32_unit(&s->rng, s->ks->seed, KEYSET_RNG_TAG + 2, stream);
    s->id = pcg32_next(&s->rng);
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

static int filter_bench_next(key_stream_t *s, rkey_t *k)
{
    if (s->next > s->ks->inserts)
        return 0; /* past the n queries: keyset_check and the callers' caps keep to them */
    k->kind = KEY_BYTES;
    k->bytes = s->buf;
    k->len = filter_bench_key(s->buf, s->id, (uint32_t)(s->next - 1) | (uint32_t)s->role << 31);
    return 1;
}

const keyset_kind_t keyset_filter_bench = {
    .name = "filter-bench",
    .summary = "the byte keys of RocksDB's util/filter_bench.cc (24 to 28 bytes); at most n queries a filter",
    .help = "(the byte keys of RocksDB's filter_bench)",
    .real = 1,
    .kinds = KEY_BYTES,
    .wire = KEY_WIRE_HEX,
    .per_filter = 1,
    .min_queries = 1,
    .open = filter_bench_open,
    .check = filter_bench_check,
    .queries_max = filter_bench_queries_max,
    .stream_init = filter_bench_stream_init,
    .next = filter_bench_next,
};
