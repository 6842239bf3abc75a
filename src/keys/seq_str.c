/* seq_str.c - the key set `seq-str`: the byte strings PREFIX + decimal(i) (PREFIX "key"
 * unless --key-prefix or key_prefix gives one, at most KEYSET_PREFIX_MAX bytes), the
 * indices of seq: inserts i = 0..n-1, queries i = n on, the same in every filter. The
 * decimal form of a number is unique (no leading zeros), so inserted and queried keys
 * are disjoint. A stream formats its first key and then counts up in its own digits. */
#include <stdio.h>
#include <string.h>

#include "keys/keys.h"

#define SEQ_STR_PREFIX_DEFAULT "key"

static int seq_str_open(keyset_t *ks, const char *param, char *err, size_t errlen)
{
    const char *prefix = param ? param : SEQ_STR_PREFIX_DEFAULT;
    if (strlen(prefix) > KEYSET_PREFIX_MAX) {
        snprintf(err, errlen, "key prefix longer than %d bytes", KEYSET_PREFIX_MAX);
        return KEYSET_EPARAM;
    }
    strcpy(ks->prefix, prefix);
    ks->prefix_len = strlen(prefix);
    return KEYSET_OK;
}

static void seq_str_show(const keyset_t *ks, int audit, char *out, size_t len)
{
    snprintf(out, len, audit ? " (prefix '%s')" : " '%s'", ks->prefix);
}

static void seq_str_stream_init(key_stream_t *s, uint64_t stream)
{
    (void)stream;
    const keyset_t *ks = s->ks;
    uint64_t index = (s->role == KEY_ROLE_QUERY ? ks->inserts : 0) + s->next;
    memcpy(s->buf, ks->prefix, ks->prefix_len);
    s->digits = key_format_u64(index, (char *)s->buf + ks->prefix_len);
    s->fresh = 1;
}

static int seq_str_next(key_stream_t *s, rkey_t *k)
{
    if (!s->fresh)
        key_decimal_increment(s->buf + s->ks->prefix_len, &s->digits);
    s->fresh = 0;
    k->kind = KEY_BYTES;
    k->bytes = s->buf;
    k->len = s->ks->prefix_len + s->digits;
    return 1;
}

const keyset_kind_t keyset_seq_str = {
    .name = "seq-str",
    .summary = "the strings PREFIX + decimal i (PREFIX key unless given), i as seq's",
    .help = "(PREFIX0, PREFIX1, ...)",
    .real = 1,
    .param_flag = "--key-prefix",
    .param_key = "key_prefix",
    .param_meta = "X",
    .param_max = KEYSET_PREFIX_MAX,
    .kinds = KEY_TEXT | KEY_BYTES,
    .wire = KEY_WIRE_STR,
    .per_filter = 0,
    .min_queries = 1,
    .open = seq_str_open,
    .show = seq_str_show,
    .stream_init = seq_str_stream_init,
    .next = seq_str_next,
};
