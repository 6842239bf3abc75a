/* test_splits.c - the hash splits of src/splits/: each split's halves h1, h2 by hand on
 * fixed keys, the remedy's arithmetic, the words a scheme takes (h1 mod m, (h2 mod m) |
 * 1), and what a split refuses. The expected halves come from outside bloomsim: FNV-1a
 * 64 and the multiply-shift and remedy formulas of split.h computed in Python's integers,
 * BLAKE2b-128 from Python's hashlib (an implementation independent of libsodium), XXH64
 * of "" from xxHash's documentation (0xef46db3751d8e999), and MurmurHash3_x64_128's
 * first word of "hell" from Guava's Murmur3Hash128Test (as tests/test_hashes.c). */
#undef NDEBUG
#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "libraries/registry.h"
#include "splits/split.h"

static const split_t *S(const char *name)
{
    const split_t *s = split_find(name);
    assert(s);
    return s;
}

static void halves_are(const char *name, const rkey_t *key, uint64_t h1, uint64_t h2)
{
    uint64_t h[2];
    S(name)->halves(key, h);
    if (h[0] != h1 || h[1] != h2) {
        fprintf(stderr, "%s: halves %#" PRIx64 " %#" PRIx64 ", expected %#" PRIx64
                " %#" PRIx64 "\n", name, h[0], h[1], h1, h2);
        assert(0);
    }
}

static rkey_t text(const char *s)
{
    return (rkey_t){.kind = KEY_BYTES, .bytes = (const uint8_t *)s, .len = strlen(s)};
}

static void test_registry(void)
{
    assert(SPLIT_COUNT == 10);
    for (size_t i = 0; i < SPLIT_COUNT; i++) {
        const split_t *s = split_at(i);
        assert(split_find(s->name) == s);
        assert(s->half_bits == 32 || s->half_bits == 64);
        assert(s->words.nwords == 2 && s->words.word_bits == 0);
    }
    assert(split_at(SPLIT_COUNT) == NULL && split_find("nope") == NULL);
    assert(strstr(split_names_list(), "fnv1a64, fnv1a64-mixed, ") == split_names_list());
    assert(strstr(split_names_list(), " or blake2b"));
    printf("registry: %zu splits (%s)\n", (size_t)SPLIT_COUNT, split_names_list());
}

/* x = 1: y = C = 0x9e3779b97f4a7c15; low ^ high = 0x7f4a7c15 ^ 0x9e3779b9 = 0xe17d05ac. */
static void test_remedy(void)
{
    assert(split_remedy(1) == UINT64_C(0x9e3779b9e17d05ac));
    assert(split_remedy(0) == 0);
    uint64_t h[2];
    split_halves32(UINT64_C(0x0123456789abcdef), h);
    assert(h[0] == 0x89abcdef && h[1] == 0x01234567);
    printf("remedy: 1 -> 0x9e3779b9e17d05ac; halves low h1, high h2\n");
}

static void test_halves(void)
{
    rkey_t k7 = text("key7"), url = text("https://example.org/users/12/profile");
    rkey_t one = {.kind = KEY_INT, .u = 1}, empty = text(""), hell = text("hell");
    /* FNV-1a 64 of "key7" = 0x5819c3d75cbda421; of the 8 bytes 01 00 .. 00 0x89cd31291d2aefa4 */
    halves_are("fnv1a64", &k7, 0x5cbda421, 0x5819c3d7);
    halves_are("fnv1a64", &one, 0x1d2aefa4, 0x89cd3129);
    halves_are("fnv1a64", &url, 0x36999505, 0x12a97872);
    halves_are("fnv1a64-mixed", &k7, 0x376a0b18, 0x70f279ad);
    halves_are("fnv1a64-mixed", &url, 0x53ee9fa9, 0x3ed73ac0);
    /* multiply-shift: integer 1 is C itself; "key7" one padded word */
    halves_are("mulshift", &one, 0x89025cc1, 0x910a2dec);
    halves_are("mulshift", &k7, 0x80cde9ab, 0x299bc7f6);
    halves_are("mulshift", &url, 0xf02b4bd5, 0x70898d16);
    halves_are("mulshift-mixed", &one, 0x6e864a3a, 0x9e6f5def);
    halves_are("mulshift-mixed", &url, 0x8e91743f, 0xcc4b1046);
    halves_are("xxh64", &empty, 0x51d8e999, 0xef46db37);
    uint64_t x = split_remedy(UINT64_C(0xef46db3751d8e999));
    halves_are("xxh64-mixed", &empty, x & UINT32_MAX, x >> 32);
    halves_are("murmur3", &hell, 0x3e10f867, 0x62994269);
    x = split_remedy(UINT64_C(0x629942693e10f867));
    halves_are("murmur3-mixed", &hell, x & UINT32_MAX, x >> 32);
#if BLOOMSIM_SODIUM
    halves_are("blake2b", &k7, UINT64_C(0x520d2b71a5843464), UINT64_C(0x74904e5e8aca1bed));
    halves_are("blake2b", &one, UINT64_C(0x9201f7b598d0a29e), UINT64_C(0x97bc3f8df3066cf9));
    halves_are("blake2b-32", &url, 0x81337ecd, 0x1c57700b);
    assert(!S("blake2b")->unavailable && !S("blake2b-32")->unavailable);
    printf("halves: FNV-1a, multiply-shift, XXH64, MurmurHash3, BLAKE2b by hand\n");
#else
    assert(S("blake2b")->unavailable && strstr(S("blake2b")->unavailable, "libsodium-dev"));
    printf("halves: FNV-1a, multiply-shift, XXH64, MurmurHash3 by hand; BLAKE2b not built\n");
#endif
}

/* The words at m = 2^16: h1 & 0xffff, (h2 & 0xffff) | 1; and the positions double-odd
 * makes of them. fnv1a64 of "key7": h1 0x5cbda421 -> 0xa421, h2 0x5819c3d7 -> 0xc3d7. */
static void test_words(void)
{
    const scheme_t *sc = scheme_find("double-odd");
    probe_geom_t g;
    assert(sc->geometry(65536, 3, 0, &g) == SCHEME_OK);
    rkey_t k7 = text("key7");
    uint64_t w[2], pos[3];
    S("fnv1a64")->words.words(&k7, &g, w);
    assert(w[0] == 0xa421 && w[1] == 0xc3d7);
    assert(sc->check_words(&g, w) == SCHEME_OK);
    library_words_positions(&S("fnv1a64")->words, sc, &g, &k7, pos);
    assert(pos[0] == 0xa421 && pos[1] == ((0xa421 + 0xc3d7) & 0xffff) &&
           pos[2] == ((0xa421 + 2 * 0xc3d7) & 0xffff));
    /* An even high half is made odd: mulshift of 1 at m = 2^8: 0xc1, 0xec | 1 = 0xed. */
    assert(sc->geometry(256, 3, 0, &g) == SCHEME_OK);
    rkey_t one = {.kind = KEY_INT, .u = 1};
    S("mulshift")->words.words(&one, &g, w);
    assert(w[0] == 0xc1 && w[1] == 0xed);
    printf("words: h1 mod m, (h2 mod m) | 1; double-odd's positions from them\n");
}

static void test_check(void)
{
    char err[256];
    const split_t *s = S("xxh64");
    assert(split_check(s, scheme_find("double-odd"), 1u << 20, err, sizeof err) == SPLIT_OK);
    assert(split_check(s, scheme_find("enhanced"), 64, err, sizeof err) == SPLIT_OK);
    assert(split_check(s, scheme_find("squares"), 64, err, sizeof err) == SPLIT_OK);
    assert(split_check(s, scheme_find("double"), 64, err, sizeof err) == SPLIT_ESCHEME);
    assert(strstr(err, "not double"));
    assert(split_check(s, scheme_find("enhanced"), 1000, err, sizeof err) == SPLIT_EBITS);
    assert(strstr(err, "not 1000"));
    assert(split_check(s, scheme_find("enhanced"), UINT64_C(1) << 33, err, sizeof err) ==
           SPLIT_EBITS);
    assert(split_check(s, scheme_find("enhanced"), UINT64_C(1) << 32, err, sizeof err) ==
           SPLIT_OK);
    int want = BLOOMSIM_SODIUM ? SPLIT_OK : SPLIT_EUNAVAILABLE;
    assert(split_check(S("blake2b"), scheme_find("enhanced"), UINT64_C(1) << 40, err,
                       sizeof err) == want);
    printf("check: schemes, powers of two, half widths, availability\n");
}

int main(void)
{
    test_registry();
    test_remedy();
    test_halves();
    test_words();
    test_check();
    return 0;
}
