/* keys.c - the key sets of keys.h: the registry's table (keys/registry.h), the names,
 * opening, checking and closing through each key set's descriptor, streams, and the
 * decimal formatting the string key sets share. */
#include "keys/keys.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "base/stats.h"

#define KEYSET_EXTERN(id) extern const keyset_kind_t keyset_##id;
KEYSET_REGISTRY(KEYSET_EXTERN)
#define KEYSET_ADDRESS(id) &keyset_##id,
static const keyset_kind_t *const KEYSETS[KEYSET_COUNT] = {KEYSET_REGISTRY(KEYSET_ADDRESS)};

const keyset_kind_t *keyset_kind_at(size_t i)
{
    return i < KEYSET_COUNT ? KEYSETS[i] : NULL;
}

const keyset_kind_t *keyset_kind_find(const char *name)
{
    for (size_t i = 0; name && i < KEYSET_COUNT; i++)
        if (strcmp(name, KEYSETS[i]->name) == 0)
            return KEYSETS[i];
    return NULL;
}

const keyset_kind_t *keyset_kind_by_param(const char *flag_or_key)
{
    for (size_t i = 0; i < KEYSET_COUNT; i++) {
        const keyset_kind_t *k = KEYSETS[i];
        if (k->param_flag && (strcmp(flag_or_key, k->param_flag) == 0 ||
                              strcmp(flag_or_key, k->param_key) == 0))
            return k;
    }
    return NULL;
}

/* The names, "a, b, ... or z", and the message that lists them, built once (the
 * first message may come from any thread). */
static char names_list[KEYSET_COUNT * 32], unknown_message[KEYSET_COUNT * 32 + 32];
static pthread_once_t names_once = PTHREAD_ONCE_INIT;

static void names_build(void)
{
    size_t used = 0;
    for (size_t i = 0; i < KEYSET_COUNT && used < sizeof names_list; i++) {
        const char *sep = i == 0 ? "" : i + 1 == KEYSET_COUNT ? " or " : ", ";
        int w = snprintf(names_list + used, sizeof names_list - used, "%s%s", sep,
                         KEYSETS[i]->name);
        used += w > 0 ? (size_t)w : 0;
    }
    snprintf(unknown_message, sizeof unknown_message, "unknown key set (%s)", names_list);
}

const char *keyset_names_list(void)
{
    pthread_once(&names_once, names_build);
    return names_list;
}

const char *keyset_unknown_message(void)
{
    pthread_once(&names_once, names_build);
    return unknown_message;
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

void key_decimal_increment(uint8_t *d, size_t *digits)
{
    size_t i = *digits;
    while (i > 0 && d[i - 1] == '9')
        d[--i] = '0';
    if (i > 0) {
        d[i - 1]++;
        return;
    }
    d[0] = '1';
    d[(*digits)++] = '0';
}

/* ---- opening ---- */

int keyset_open(keyset_t *ks, const keyset_kind_t *kind, uint64_t seed, uint64_t inserts,
                const char *param, char *err, size_t errlen)
{
    memset(ks, 0, sizeof *ks);
    ks->kind = kind, ks->seed = seed, ks->inserts = inserts;
    if (!kind) {
        snprintf(err, errlen, "%s", keyset_unknown_message());
        return KEYSET_EKIND;
    }
    if (param && !kind->param_flag) {
        snprintf(err, errlen, "key set %s takes no parameter", kind->name);
        return KEYSET_EPARAM;
    }
    int st = kind->open ? kind->open(ks, param, err, errlen) : KEYSET_OK;
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
    return ks->kind->check ? ks->kind->check(ks, queries, err, errlen) : KEYSET_OK;
}

void keyset_close(keyset_t *ks)
{
    if (ks->kind && ks->kind->close)
        ks->kind->close(ks);
}

/* ---- limits ---- */

int keyset_per_filter(const keyset_t *ks)
{
    return ks->kind->per_filter;
}

uint64_t keyset_queries_max(const keyset_t *ks)
{
    return ks->kind->queries_max ? ks->kind->queries_max(ks) : UINT64_MAX;
}

uint64_t keyset_queries_total(const keyset_t *ks)
{
    return ks->kind->queries_total ? ks->kind->queries_total(ks) : UINT64_MAX;
}

uint64_t keyset_plan_queries(const keyset_t *ks, int target, uint64_t *lookups)
{
    if (*lookups > keyset_queries_max(ks))
        *lookups = keyset_queries_max(ks);
    uint64_t q = keyset_queries_total(ks);
    if (q == UINT64_MAX)
        return UINT64_MAX;
    if (*lookups > q / 2) /* two batches at least: a spread to check */
        *lookups = q / 2 ? q / 2 : 1;
    /* A precision target rests on STATS_MIN_SPREAD_FILTERS batches of the one filter's
     * queries (stats_trusted, sim_first): where the lines would give fewer, smaller ones */
    if (target && q / *lookups < STATS_MIN_SPREAD_FILTERS && q >= STATS_MIN_SPREAD_FILTERS)
        *lookups = q / STATS_MIN_SPREAD_FILTERS;
    return q / *lookups;
}

/* ---- streams ---- */

void key_stream_init(key_stream_t *s, const keyset_t *ks, int role, uint64_t stream,
                     uint64_t first)
{
    memset(s, 0, sizeof *s);
    s->ks = ks, s->role = role, s->next = first;
    s->step = ks->kind->next;
    if (ks->kind->stream_init)
        ks->kind->stream_init(s, stream);
}
