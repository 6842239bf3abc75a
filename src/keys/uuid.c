/* uuid.c - the key set `uuid`: random version-4 UUIDs (RFC 4122, 4.4), 36 lowercase
 * characters, stream f for filter f: the top bit of the first byte is the role (inserts
 * begin with 0-7, queries with 8-f), so inserted and queried keys differ; 121 bits are
 * the generator's (PCG32, pcg.h), 6 are the version and variant. A stream starts
 * anywhere by PCG jump-ahead, O(log first). */
#include <string.h>

#include "keys/keys.h"

/* PCG outputs per key: four for a UUID's 128 bits. */
#define UUID_DRAWS 4

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
 * uuid_stream_init). */
static const uint8_t UUID_AT[16] = {0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34};

static void uuid_stream_init(key_stream_t *s, uint64_t stream)
{
    pcg32_unit(&s->rng, s->ks->seed, KEYSET_RNG_TAG + (uint64_t)s->role, stream);
    pcg32_advance(&s->rng, UUID_DRAWS * s->next);
    s->buf[8] = s->buf[13] = s->buf[18] = s->buf[23] = '-';
}

/* A version-4 UUID from the generator, the role in the top bit of its first byte. */
static int uuid_next(key_stream_t *s, rkey_t *k)
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
    k->kind = KEY_BYTES;
    k->bytes = s->buf;
    k->len = 36;
    return 1;
}

const keyset_kind_t keyset_uuid = {
    .name = "uuid",
    .summary = "random version-4 UUID strings, the role in the first digit; each filter its own",
    .help = "(random version-4 UUID strings)",
    .real = 1,
    .kinds = KEY_TEXT | KEY_BYTES,
    .wire = KEY_WIRE_STR,
    .per_filter = 1,
    .min_queries = 1,
    .stream_init = uuid_stream_init,
    .next = uuid_next,
};
