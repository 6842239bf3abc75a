/* url.c - the key set `url`: the strings https://example.org/users/<i>/profile, <i> the
 * decimal form of i, with the indices of seq: inserts i = 0..n-1, queries i = n on, the
 * same in every filter, and no parameter. Keys that share a long prefix (26 bytes) and a
 * suffix, as the URLs a web cache or a crawler inserts do: a hash that mixes its input
 * weakly meets them as sequential strings behind a constant block. Inserted and queried
 * keys are disjoint: the suffix begins with '/', which is no digit, so a key's digits
 * are the run after the prefix, and the decimal form of a number is unique (no leading
 * zeros). A stream formats its first key and then counts up in its own digits. */
#include <string.h>

#include "keys/keys.h"

#define URL_PREFIX "https://example.org/users/"
#define URL_SUFFIX "/profile"
enum { URL_PREFIX_LEN = sizeof URL_PREFIX - 1, URL_SUFFIX_LEN = sizeof URL_SUFFIX - 1 };
_Static_assert(URL_PREFIX_LEN + 20 + URL_SUFFIX_LEN <= KEY_BUF_MAX, "a URL fits the buffer");

static void url_stream_init(key_stream_t *s, uint64_t stream)
{
    (void)stream;
    uint64_t index = (s->role == KEY_ROLE_QUERY ? s->ks->inserts : 0) + s->next;
    memcpy(s->buf, URL_PREFIX, URL_PREFIX_LEN);
    s->digits = key_format_u64(index, (char *)s->buf + URL_PREFIX_LEN);
    s->fresh = 1;
}

static int url_next(key_stream_t *s, rkey_t *k)
{
    if (!s->fresh)
        key_decimal_increment(s->buf + URL_PREFIX_LEN, &s->digits);
    s->fresh = 0;
    memcpy(s->buf + URL_PREFIX_LEN + s->digits, URL_SUFFIX, URL_SUFFIX_LEN);
    k->kind = KEY_BYTES;
    k->bytes = s->buf;
    k->len = URL_PREFIX_LEN + s->digits + URL_SUFFIX_LEN;
    return 1;
}

const keyset_kind_t keyset_url = {
    .name = "url",
    .summary = "the strings https://example.org/users/<i>/profile, i as seq's: long shared prefixes",
    .help = "(https://example.org/users/0/profile, ...)",
    .real = 1,
    .kinds = KEY_TEXT | KEY_BYTES,
    .wire = KEY_WIRE_STR,
    .per_filter = 0,
    .min_queries = 1,
    .stream_init = url_stream_init,
    .next = url_next,
};
