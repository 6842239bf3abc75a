/* random.c - the key set `random`: 64-bit integers from PCG32 (pcg.h), stream f for
 * filter f: bit 63 is the role (inserts 0, queries 1), so inserted and queried keys
 * differ whatever the generator gives; the other 63 bits are the generator's. A stream
 * starts anywhere by PCG jump-ahead, O(log first). */
#include "keys/keys.h"

/* PCG outputs per key: two for a 64-bit integer. */
#define RANDOM_DRAWS 2

static void random_stream_init(key_stream_t *s, uint64_t stream)
{
    pcg32_unit(&s->rng, s->ks->seed, KEYSET_RNG_TAG + (uint64_t)s->role, stream);
    pcg32_advance(&s->rng, RANDOM_DRAWS * s->next);
}

static int random_next(key_stream_t *s, rkey_t *k)
{
    uint64_t v = pcg32_next64(&s->rng);
    k->kind = KEY_INT;
    k->u = (v & INT64_MAX) | ((uint64_t)s->role << 63);
    return 1;
}

const keyset_kind_t keyset_random = {
    .name = "random",
    .summary = "random 64-bit integers (PCG32), bit 63 the role; each filter its own",
    .help = "(64-bit integers)",
    .real = 1,
    .kinds = KEY_INT,
    .wire = KEY_WIRE_U64,
    .per_filter = 1,
    .min_queries = 1,
    .stream_init = random_stream_init,
    .next = random_next,
};
