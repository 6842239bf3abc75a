/* libbloom.c - jvirkki/libbloom, 2.0 and 1.x: its index arithmetic (1.x's is guava32u,
 * guava.c), its sizing, and its rows.
 *
 * Source: jvirkki/libbloom bloom.c (bloom_check_add, bloom_init2) at v2.0 (57b35ea2),
 * and up to v1.6 for 1.x; jvirkki/libbloom#14 and #20.
 */
#include <math.h>

#include "libraries/arith.h"
#include "hashes/hashes.h"
#include "libraries/library.h"
#include "libraries/registry.h"
#include "schemes/words.h"

/* ---- the index arithmetic (bloom_check_add) ----
 * Two 32-bit words a = murmurhash2(buf, len, 0x9747b28c), b = murmurhash2(buf, len, a)
 * (unsigned int; with an ideal hash, independent); x = (a + b*i) % bits with i an
 * unsigned long, so the sum is exact in 64 bits (no wrap) for i = 0..k-1. For m > 2^32
 * probe 0 stays below 2^32. (v1.x computed it in unsigned int: (a + i*b) mod 2^32 mod
 * m, i = 0..k-1, which is guava32u with h1 relabelled as h1 + h2: not repeated here.) */
#define libbloom_draw u32x2_draw
#define libbloom_start pair_start /* x = a, y = b */
SCHEME_HOT uint64_t libbloom_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)r;
    uint64_t p = it->x % g->m;
    it->x += it->y; /* a + i*b < (k + 1) 2^32: exact */
    return p;
}
SCHEME_LOOPS(libbloom)

const scheme_t scheme_libbloom = {
    .name = "libbloom",
    .summary = "libbloom 2.0: u32 a, b; (a + i*b) mod m, the sum exact in 64 bits, i = "
               "0..k-1",
    WORDS_U32(2), .geometry = scheme_geom_plain, SCHEME_FNS(libbloom),
};

/* ---- sizing: bloom_init2: entries >= 1000 (an unsigned int), bpe = -log(error) /
 * 0.480453013918201, bits = (unsigned long)((long double) entries * bpe), hashes =
 * (unsigned char)ceil(0.693147180559945 bpe) (constants as in the source; bloom.c:104-110
 * @57b35ea2); positions are (a + i b) % bits: m = m_c (the bytes round up only the
 * allocation). A k past 255 does not fit hashes; 0 bits would take positions mod 0.
 * libbloom 1.x (v1.5 to v1.6; bloom.c:98-111 @v1.6): bits = (int)(dentries * bpe), the
 * product in double, not long double: where the exact product lies within half an ulp
 * below an integer, the double rounds it up and 1.x has one bit more than 2.0 (at 1%,
 * first at 113,117,982 keys: 1,084,242,461 bits against 1,084,242,460). Past 2^31 - 1
 * the (int) conversion is undefined in C; on x86-64 it gives INT_MIN, a negative size
 * whose allocation fails and bloom_init returns an error: refused. v1.0 to v1.4 took
 * any entries >= 1 (the minimum of 1000 came in dbe2777, v1.5). ---- */
static int libbloom_sizing(uint64_t n, double p, int in_double, sizing_out_t *out)
{
    /* 1.x takes entries as an int (bloom.h @v1.6: bloom_init(struct bloom *, int, double)):
     * a caller's 2^31 and more arrive negative (or, from 2^32, wrapped) and are refused
     * by its entries < 1000 check, or taken as another number (tests/adapters.sh found
     * it, bloom_init((int)2^31, 0.7) == 1); 2.0's bloom_init2 takes unsigned entries. */
    if (n < 1000 || n > (in_double ? (uint64_t)INT32_MAX : 4294967295u))
        return SIZING_EKEYS;
    double bpe = -log(p) / 0.480453013918201;
    long double all = in_double ? (long double)((double)n * bpe) : (long double)n * bpe;
    if (!(all < 18446744073709551616.0L))
        return SIZING_ETOOBIG;
    uint64_t bits = (uint64_t)all;
    if (bits == 0)
        return SIZING_EZERO;
    if (in_double && bits > INT32_MAX)
        return SIZING_ECAP;
    out->m_computed = out->m = bits;
    out->k = ceil(0.693147180559945 * bpe);
    return out->k > 255 ? SIZING_EKFIELD : SIZING_OK;
}
static int libbloom_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    (void)bpk;
    return libbloom_sizing(n, p, 0, out);
}
static int libbloom_1_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    (void)bpk;
    return libbloom_sizing(n, p, 1, out);
}

static const char *libbloom_refusal(int status)
{
    switch (status) {
    case SIZING_EKEYS:
        return "libbloom refuses it: bloom_init takes 1000 to 2^32 - 1 entries";
    case SIZING_ECAP:
        return "libbloom 1.x's bit count is an int: past 2^31 - 1 bits the size is negative "
               "and bloom_init fails";
    default:
        return NULL;
    }
}
static const char *libbloom_1_refusal(int status)
{
    return status == SIZING_EKEYS ? "libbloom 1.x refuses it: bloom_init takes an int, 1000 "
                                    "to 2^31 - 1 entries"
                                  : libbloom_refusal(status);
}

const sizing_rule_t sizing_libbloom = {
    .name = "libbloom",
    .summary = "libbloom 2.0: b = -ln P / 0.480453013918201, m = (long double) N b, k = "
               "ceil(0.693147180559945 b); N from 1000 to 2^32 - 1",
    .kind = SIZING_RULE_LIBRARY, .over = SIZING_OVER_UNIFORM, .design = libbloom_design,
    .refusal = libbloom_refusal,
};

const sizing_rule_t sizing_libbloom_1 = {
    .name = "libbloom-1",
    .summary = "libbloom 1.5-1.6: as libbloom, the product in double, N and m ints (at most "
               "2^31 - 1)",
    .kind = SIZING_RULE_LIBRARY, .over = SIZING_OVER_UNIFORM, .design = libbloom_1_design,
    .refusal = libbloom_1_refusal,
};

/* ---- real keys: bloom.c bloom_check_add @v2.0 (57b35ea2) and @v1.6, lines 57-58: a =
 * murmurhash2(buffer, len, 0x9747b28c), b = murmurhash2(buffer, len, a). 2.0's scheme
 * takes (a, b); 1.x's is guava32u with h1 = a - b (above). ---- */
static void libbloom_ab(const rkey_t *key, uint32_t *a, uint32_t *b)
{
    LIBRARY_KEY_INPUT(key, LIBRARY_INT_LE8);
    *a = hash_murmur2(in, len, 0x9747b28cu);
    *b = hash_murmur2(in, len, *a);
}
static void libbloom_words(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    uint32_t a, b;
    libbloom_ab(key, &a, &b);
    out[0] = a, out[1] = b;
}
static void libbloom_1_words(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    (void)g;
    uint32_t a, b;
    libbloom_ab(key, &a, &b);
    out[0] = (uint32_t)(a - b), out[1] = b;
}
static const library_words_t words_libbloom = {
    .hash = "MurmurHash2 (libbloom), seeds 0x9747b28c and a", .key_bytes = LIBRARY_KEYS_LE8,
    .kinds = LIBRARY_KEYS_INT_BYTES, .nwords = 2, .word_bits = 32, .words = libbloom_words,
};
static const library_words_t words_libbloom_1 = {
    .hash = "MurmurHash2 (libbloom), seeds 0x9747b28c and a; h1 = a - b",
    .key_bytes = LIBRARY_KEYS_LE8, .kinds = LIBRARY_KEYS_INT_BYTES, .nwords = 2,
    .word_bits = 32, .words = libbloom_1_words,
};

/* ---- the libraries ---- */

const library_t library_libbloom = {
    .name = "libbloom",
    .version = "libbloom 2.0 (jvirkki/libbloom 57b35ea2) bloom.c",
    .scheme = &scheme_libbloom, .sizing = &sizing_libbloom, .hash = "2 x 32-bit",
    .cause = "arithmetic: a + i b of 32-bit words, exact in 64 bits: probe 0 below 2^32, "
             "probe i below (i + 1) 2^32",
    .report = "jvirkki/libbloom#20, #14: size types",
    .words = &words_libbloom,
};

const library_t library_libbloom_1 = {
    .name = "libbloom-1",
    .version = "libbloom 1.5 to 1.6 (bloom.c @v1.6): (a + i b) in u32, then mod m (m an int); "
               "scheme guava32u, whose h1 + i h2 from i = 1 is a + i b from i = 0 with "
               "a = h1 + h2",
    .scheme = &scheme_guava32u, .sizing = &sizing_libbloom_1, .hash = "2 x 32-bit",
    .cause = "arithmetic: u32 sums mod m, uneven near 2^31 (m is an int)",
    .report = "jvirkki/libbloom#14: types limit size",
    .words = &words_libbloom_1,
};
