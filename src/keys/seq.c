/* seq.c - the key set `seq`: the integers 0, 1, 2, ...: inserts 0..n-1, queries n, n+1,
 * ... (disjoint index ranges), the same in every filter. */
#include "keys/keys.h"

static int seq_next(key_stream_t *s, rkey_t *k)
{
    k->kind = KEY_INT;
    k->u = key_index(s);
    return 1;
}

const keyset_kind_t keyset_seq = {
    .name = "seq",
    .summary = "the integers 0, 1, 2, ...: inserts 0..n-1, queries n on",
    .help = "(0, 1, 2, ...)",
    .real = 1,
    .kinds = KEY_INT,
    .wire = KEY_WIRE_U64,
    .per_filter = 0,
    .min_queries = 1,
    .next = seq_next,
};
