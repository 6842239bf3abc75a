/* ideal.c - the key set `ideal`, the default: no keys at all. A row of ideal keys feeds
 * its library's arithmetic the uniform, independent hash words of its hash's width
 * (schemes/words.h), which isolates the arithmetic and the sizing from the hash. */
#include "keys/keys.h"

/* An ideal stream has no keys. */
static int ideal_next(key_stream_t *s, rkey_t *k)
{
    (void)s, (void)k;
    return 0;
}

const keyset_kind_t keyset_ideal = {
    .name = "ideal",
    .summary = "no keys: the uniform hash words of the library's width (the default)",
    .help = "(default: uniform words)",
    .real = 0,
    .kinds = KEY_INT,
    .wire = KEY_WIRE_U64,
    .per_filter = 1,
    .min_queries = 1,
    .next = ideal_next,
};
