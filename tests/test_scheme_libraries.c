/* test_scheme_libraries.c - the library schemes (src/libraries/), worked by hand from
 * each source's arithmetic (each library's file names the file and version): positions
 * from given hash words, each scheme with a case that exercises its wraparound, sign
 * flip or mask; the drawn schemes (hadoop, pybloom-live); the m each library's integers
 * address (its scheme's m_cap, and the message that lists them); lines, blocks, fixed k
 * and word checks. */
#undef NDEBUG
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "libraries/registry.h"
#include "test_util.h"

/* A scheme's k positions from hash words h (those past its nwords 0) at m bits. */
typedef struct hand_case {
    const char *scheme;
    uint64_t m;
    unsigned k;
    uint64_t h[SCHEME_MAX_WORDS];
    uint64_t want[8];
} hand_case_t;

/* long: a table of hand-worked cases, each with its working. */
static const hand_case_t CASES[] = {
    /* bits-and-blooms, location(): probe i is h[i%2] + i*h[2 + ((i + i%2)%4)/2], mod 2^64,
     * mod m; pairs (h0,h2), (h1,h3), (h0,h3), (h1,h2). h = (10, 20, 3, 7), m = 1000:
     * 10, 20+7, 10+14, 20+9, 10+12. */
    {"bits-and-blooms", 1000, 5, {10, 20, 3, 7}, {10, 27, 24, 29, 22}},
    /* Wraparound before the mod: h0 = 2^64-1 gives 18446744073709551615 mod 1000 = 615;
     * i = 1: 5 + 2^63 = 9223372036854775813 -> 813; i = 2: (2^64-1) + 2*2^63 wraps to
     * 2^64-1 -> 615. */
    {"bits-and-blooms", 1000, 3, {UINT64_MAX, 5, 2, UINT64_C(1) << 63}, {615, 813, 615}},
    /* leveldb, m = 1000, h = 2^31 + 1: delta = rotr32(h, 17) = (h >> 17) | (h << 15 mod
     * 2^32) = 2^14 | 2^15 = 49152; h % 1000 = 2147483649 % 1000 = 649, then 2147532801 ->
     * 801, 2147581953 -> 953. */
    {"leveldb", 1000, 3, {2147483649u}, {649, 801, 953}},
    /* leveldb wraps before the %: h = 2^32 - 1, delta = rotr32(h, 17) = 2^32 - 1, so h + delta
     * = 2^32 - 2 (u32), then 2^32 - 3: 295, 294, 293 (exact sums mod 1000 would give 295,
     * 590, 885). */
    {"leveldb", 1000, 3, {4294967295u}, {295, 294, 293}},

    /* rocksdb-legacy at 4,096 bits uses 7 lines (3,584 bits: 8 is even). h = 0x60005 =
     * 393221: line 393221 % 7 = 3 (7 * 56174 = 393218), first bit 1536; delta = (h >> 17) |
     * (h << 15) = 3 | 0x28000 = 163843; bits h & 511 = 5, then 557064 = 0x88008 -> 8,
     * 720907 = 0xb000b -> 11: 1541, 1544, 1547. */
    {"rocksdb-legacy", 4096, 3, {393221}, {1541, 1544, 1547}},
    /* The flaw the source documents: h = 2^31 + 1 has delta = 49152 = 96 * 512, a stride
     * of 0 mod 512, so every probe is bit h & 511 = 1 of line (2^31 + 1) % 7 = 3 (2^31 =
     * 2 mod 7): 1537 three times. */
    {"rocksdb-legacy", 4096, 3, {2147483649u}, {1537, 1537, 1537}},
    /* u32 wrap: h = 2^32 - 1 (= 3 mod 7: 2^32 = 4 mod 7), delta = 2^32 - 1, so h runs
     * 2^32 - 1, - 2, - 3 (u32): bits 511, 510, 509 of line 3. */
    {"rocksdb-legacy", 4096, 3, {4294967295u}, {2047, 2046, 2045}},

    /* rocksdb-fastlocal at 4,096 bits: 8 lines. h1 = 2^32 - 1: line ((2^32 - 1) * 8) >> 32 =
     * 7, first bit 3584. h2 = 1: bits 1 >> 23 = 0; then h = 0x9e3779b9, >> 23 = 0x13c =
     * 316; then 0x9e3779b9^2 mod 2^32 = 0xe35e67b1 (RocksDB's own table of powers), >> 23 =
     * 0x1c6 = 454. */
    {"rocksdb-fastlocal", 4096, 3, {4294967295u, 1}, {3584, 3900, 4038}},

    /* sbbf at 1,024 bits: z = 4 blocks. h = 0xc0000000_00000001: block (0xc0000000 * 4) >>
     * 32 = 3, first bit 768; u32(h) = 1, so word i gets bit SALT[i] >> 27 (its top five
     * bits): 0x47.. -> 8, 0x44.. -> 8, 0x88.. -> 17, 0xa2.. -> 20, 0x70.. -> 14, 0x2d.. ->
     * 5, 0x9e.. -> 19, 0x5c.. -> 11; position 768 + 32 i + bit. */
    {"sbbf", 1024, 8, {UINT64_C(0xc000000000000001)},
      {776, 808, 849, 884, 910, 933, 979, 1003}},
    /* u32 wrap in the salted product: u32(h) = 2^32 - 1, so (h * SALT) mod 2^32 = 2^32 -
     * SALT: 0xb849ec85 -> 23, 0xbb68b26f -> 23, 0x77db52a5 -> 14, 0x5d48d763 -> 11,
     * 0x8fab6a39 -> 17, 0xd20ebdb5 -> 26, 0x6103b6b9 -> 12, 0xa39404cf -> 20; block 0. */
    {"sbbf", 1024, 8, {UINT64_C(0xffffffff)}, {23, 55, 78, 107, 145, 186, 204, 244}},

    /* kudu-block at 1,024 bits: 4 buckets, mask 3. h = 1: Rehash32to32 = (0x7850f11ec6d14889
     * + 0x6773610597ca4c63) >> 32 = 0xdfc45224, & 3 = 0: bucket 0, bits as sbbf's for
     * u32 1: 8, 32 + 8, 64 + 17, 96 + 20, 128 + 14, 160 + 5, 192 + 19, 224 + 11. */
    {"kudu-block", 1024, 8, {1}, {8, 40, 81, 116, 142, 165, 211, 235}},
    /* h = 3: 3 * 0x7850f11ec6d14889 wraps past 2^64 to 0x68f2d35c_5473d99b, + the constant
     * = 0xd0663461_ec3e25fe; bucket 0xd0663461 & 3 = 1 (bit 256); bits (3 * SALT mod 2^32)
     * >> 27: 0xd7223a71 -> 26, 0xcdc5e8b3 -> 25, 0x986e0811 -> 19, 0xe82579d7 -> 29,
     * 0x50fdc155 -> 10, 0x89d3c6e1 -> 17, 0xdef4dbd5 -> 27, 0x1543f193 -> 2. */
    {"kudu-block", 1024, 8, {3}, {282, 313, 339, 381, 394, 433, 475, 482}},

    /* hive-bloomk at 2,048 bits: 4 blocks of 512. h1 = 5, h2 = 9: block (5 + 9) % 4 = 2
     * (bit 1024); c = 5 + (i + 1) 9 for i = 1..3 = 23, 32, 41; long c & 7 = 7, 0, 1 and bit
     * (c >>> 3) & 63 = 2, 4, 5: 1024 + 64 * 7 + 2, 1024 + 4, 1024 + 64 + 5. */
    {"hive-bloomk", 2048, 3, {5, 9}, {1474, 1028, 1093}},
    /* The int32 flips: h1 = 2^31 - 1, h2 = 1. firstHash = 2^31 overflows to -2^31, ~ =
     * 2^31 - 1, % 4 = 3 (bit 1536); c = h1 + 2, + 3, + 4 overflow to -2^31 + 1, + 2, + 3,
     * flipped to 2^31 - 2, - 3, - 4: longs 6, 5, 4, bit (c >>> 3) & 63 = 63 each. */
    {"hive-bloomk", 2048, 3, {2147483647, 1}, {1983, 1919, 1855}},

    /* redisson, m = 100, h1 = 3, h2 = 4: c = 3; + 4 (after probe 0) = 7; + 3 = 10; + 4 =
     * 14; + 3 = 17: the progressions 3, 10, 17 and 7, 14 of stride h1 + h2 = 7. */
    {"redisson", 100, 5, {3, 4}, {3, 7, 10, 14, 17}},
    /* The mask and the u64 wrap: h1 = 2^63 + 5 masks to 5; + h2 = 2^63 - 1 wraps to 4; + h1
     * = 2^63 + 9 masks to 9. */
    {"redisson", 100, 3, {(UINT64_C(1) << 63) + 5, (UINT64_C(1) << 63) - 1}, {5, 4, 9}},

    /* fastbloom, m = 1000, h = 1: probe 0 (1 * 1000) >> 64 = 0; h2 = 0x517cc1b727220a95
     * (about 2^64/pi); h = rotl64(1, 5) + h2 = 0x517cc1b727220ab5 -> floor(1000 *
     * 0.3183...) = 318; h = rotl64(h, 5) + h2 = 0x2f9836e4e44156aa + h2 = 0x8114f89c0b63613f
     * -> floor(1000 * 0.50422...) = 504. */
    {"fastbloom", 1000, 3, {1}, {0, 318, 504}},
    /* The u64 wrap: h = 2^64 - 1 gives probe 0 = 999; h2 = 2^64 - 0x517cc1b727220a95 =
     * 0xae833e48d8ddf56b; rotl64(h, 5) = h, and h + h2 wraps to h2 - 1 -> floor(1000 *
     * 0.68169...) = 681. */
    {"fastbloom", 1000, 2, {UINT64_MAX}, {999, 681}},

    /* spark-v2, m = 100, h1 = 1, h2 = 2: c = 1 * (2^31 - 1) = 2147483647; + 2 each probe:
     * 2147483649 -> 49, 2147483651 -> 51, 2147483653 -> 53. */
    {"spark-v2", 100, 3, {1, 2}, {49, 51, 53}},
    /* The flip, on the index only: h1 = int -1, h2 = 1: c = -2147483647; + 1 =
     * -2147483646, index ~c = 2147483645 -> 45; c = -2147483645 -> 2147483644 -> 44;
     * -2147483644 -> 43 (the flip mirrors the progression). */
    {"spark-v2", 100, 3, {4294967295u, 1}, {45, 44, 43}},
    /* A negative stride from 0: h1 = 0, h2 = int -3: c = -3, -6, -9, -12, indexes ~c = 2, 5,
     * 8, 11 (the earlier V2, flipping c itself, would bounce: 2, 0, 2, 0). */
    {"spark-v2", 100, 4, {0, 4294967293u}, {2, 5, 8, 11}},

    /* cassandra, m = 100, hash[0] = 7 (inc), hash[1] = 3 (base): 3, 10, 17. */
    {"cassandra", 100, 3, {7, 3}, {3, 10, 17}},
    /* Java's signed % and abs: base = 2^64 - 5 is the long -5; -5 % 100 = -5 -> 5; + 3 =
     * -2 -> 2; + 3 = 1 -> 1. */
    {"cassandra", 100, 3, {3, UINT64_MAX - 4}, {5, 2, 1}},
    /* i64 wrap: base = 2^63 - 1 -> 9223372036854775807 % 100 = 7; + 1 wraps to -2^63:
     * -9223372036854775808 % 100 = -8 -> 8; -9223372036854775807 -> 7. */
    {"cassandra", 100, 3, {1, (UINT64_C(1) << 63) - 1}, {7, 8, 7}},

    /* commons-enhanced, m = 100, h1 = 3, h2 = 7: index 3; - 7 = -4 + 100 = 96, inc 7 - 1 =
     * 6; 96 - 6 = 90, inc 6 - 2 = 4; 90 - 4 = 86, inc 4 - 3 = 1; 86 - 1 = 85. Closed form
     * 3 - 7i + (i^3 - i)/6: -4, -10, -14, -15 mod 100. */
    {"commons-enhanced", 100, 5, {3, 7}, {3, 96, 90, 86, 85}},
    /* Unsigned words: h1 = 2^64 - 1 mod 100 = 15 (Java's signed % would give -1), h2 = 2^63
     * mod 100 = 8: 15; 15 - 8 = 7, inc 7; 7 - 7 = 0, inc 7 - 2 = 5; 0 - 5 + 100 = 95. */
    {"commons-enhanced", 100, 4, {UINT64_MAX, UINT64_C(1) << 63}, {15, 7, 0, 95}},
    /* The increment wraps: h1 = 5, h2 = 0: 5; 5 - 0 = 5, inc 0 - 1 + 100 = 99; 5 - 99 + 100
     * = 6 (closed form 5 - 0 + 1). */
    {"commons-enhanced", 100, 3, {5}, {5, 5, 6}},

    /* libbloom (2.0), m = 1000, a = 5, b = 7: 5, 12, 19. */
    {"libbloom", 1000, 3, {5, 7}, {5, 12, 19}},
    /* No u32 wrap: a = b = 2^32 - 1: 4294967295 -> 295, 8589934590 -> 590, 12884901885 ->
     * 885 (v1.x's u32 sum would wrap to 2^32 - 2, 2^32 - 3: 295, 294, 293). */
    {"libbloom", 1000, 3, {4294967295u, 4294967295u}, {295, 590, 885}},

    /* rust-bloomfilter, m = 1000, h0 = 5, h1 = 7: h0, h1, then h0 + 2 h1, h0 + 3 h1: 5, 7,
     * 19, 26. */
    {"rust-bloomfilter", 1000, 4, {5, 7}, {5, 7, 19, 26}},
    /* The prime fold: h0 = P - 2 with P = 2^64 - 59 (= 18446744073709551555 -> 555), h1 =
     * 1: probe 2 is P % P = 0, probe 3 is (P + 1) % P = 1. */
    {"rust-bloomfilter", 1000, 4, {UINT64_MAX - 60, 1}, {555, 1, 0, 1}},
    /* The u64 wrap: h0 = 2^64 - 1 -> 615, h1 = 1; h0 + 2 wraps to 1, h0 + 3 to 2. */
    {"rust-bloomfilter", 1000, 4, {UINT64_MAX, 1}, {615, 1, 1, 2}},

    /* redisbloom, m = 1000, a = 5, b = 7: 5, 12, 19. */
    {"redisbloom", 1000, 3, {5, 7}, {5, 12, 19}},
    /* u64 wrap, no mask: a = 2^64 - 1 -> 615 (guava64's mask would give 2^63 - 1 -> 807);
     * a + b wraps to 0, then 1. */
    {"redisbloom", 1000, 3, {UINT64_MAX, 1}, {615, 0, 1}},

    /* bloomfilter-js, m = 100, a = 3, b = 7: enhanced's 3, 10, 18, 28, 41, 58, 80, 108 -> 8. */
    {"bloomfilter-js", 100, 8, {3, 7}, {3, 10, 18, 28, 41, 58, 80, 8}},
    /* Signed words: a = int -1, -1 % 100 = -1, + 100 = 99; b = int -2 -> 98; r0 = 99; a =
     * (99 + 98) % 100 = 97, b = 99; a = (97 + 99) % 100 = 96 (as unsigned words, a would
     * start at 4294967295 % 100 = 95). */
    {"bloomfilter-js", 100, 3, {4294967295u, 4294967294u}, {99, 97, 96}},
    /* 0.0.21's positions are 1.1.0's (their golden digests agree too). */
    {"bloomfilter-js-0.0.21", 100, 3, {4294967295u, 4294967294u}, {99, 97, 96}},
    /* 1.1.0 past 2^31, m = 3 * 2^30 = 3,221,225,472: a = int -1 -> m - 1 = 3,221,225,471,
     * b = 1; then (m - 1 + 1) % m = 0, b = 2; then 2. A word reaches [m - 2^31, 2^31) =
     * [2^30, 2^31) from both signs: a = 2^30 and a = int -2^31 (the word 2^31, -2^31 + m)
     * both give 2^30. */
    {"bloomfilter-js", UINT64_C(3) << 30, 3, {4294967295u, 1}, {UINT64_C(3221225471), 0, 2}},
    {"bloomfilter-js", UINT64_C(3) << 30, 1, {UINT64_C(1) << 30}, {UINT64_C(1) << 30}},
    {"bloomfilter-js", UINT64_C(3) << 30, 1, {UINT64_C(1) << 31}, {UINT64_C(1) << 30}},

    /* redisbloom-u32, m = 4096, a = 5, b = 7: 5, 12, 19. */
    {"redisbloom-u32", 4096, 3, {5, 7}, {5, 12, 19}},
    /* The u32 wrap before the mod, seen past 2^32: m = 2^33, a = 2^32 - 1, b = 1: a + b
     * wraps to 0, then 1 (libbloom's exact sums would give 2^32, 2^32 + 1). */
    {"redisbloom-u32", UINT64_C(1) << 33, 3, {4294967295u, 1}, {4294967295u, 0, 1}},
    /* Below 2^32 the mod 2^n2 hides the wrap: m = 1024, a = 2^32 - 1, b = 2: 1023, then
     * 1, 3 (4294967297 and 4294967299 mod 1024 alike). */
    {"redisbloom-u32", 1024, 3, {4294967295u, 2}, {1023, 1, 3}},

    /* bloomfilter-js-0.0.17, m = 100, a = 5, b = int -7: the running x keeps JS %'s sign:
     * x = 5 -> 5; x = -2 -> -2 + 100 = 98; x = -9 -> 91. */
    {"bloomfilter-js-0.0.17", 100, 3, {5, 4294967289u}, {5, 98, 91}},
    /* a = int -1, b = int -2: -1 -> 99, -3 -> 97, -5 -> 95 (bloomfilter-js, 0.0.21's
     * enhanced loop, gives 99, 97, 96). */
    {"bloomfilter-js-0.0.17", 100, 3, {4294967295u, 4294967294u}, {99, 97, 95}},
    /* The key "a" in a 128-bit filter, as the library computes it: a = fnv_1a("a") =
     * -649420593, b = fnv_1a("a", 1576284489) = 1477868974 (node, the library's own
     * bloomfilter.js at 0.0.17). -649420593 % 128 = -49 (649420593 = 128 * 5073598 + 49)
     * -> 79; b = 128 * 11545851 + 46, so x = -49 + b = 1477868925 -> % 128 = 125; 125 + 46
     * = 171 -> 43; 43 + 46 -> 89. locations("a") printed 79, 125, 43, 89. */
    {"bloomfilter-js-0.0.17", 128, 4, {4294967296u - 649420593u, 1477868974u},
      {79, 125, 43, 89}},
    /* Past 2^32 the Uint32Array keeps the position mod 2^32: m = 3 * 2^31, a = int -1,
     * b = 1: -1 -> m - 1 = 6442450943, stored as 2147483647; then 0, 1. */
    {"bloomfilter-js-0.0.17", UINT64_C(3) << 31, 3, {4294967295u, 1}, {2147483647u, 0, 1}},

    /* bloomfilter-js-0.0.16: b = fnv_1a_b(a) = fnv_mix(a * 16777619 mod 2^32). At m = 2^32,
     * with k = 2, positions are u32(a) and u32(a + b), so they pin fnv_1a_b. Worked
     * through fnv_mix (a += a << 13; a ^= a >>> 7; a += a << 3; a ^= a >>> 17; a += a << 5;
     * mod 2^32), and confirmed with the library's exported fnv_1a_b at 0.0.16 under node:
     *   a = 0: every step keeps 0, b = 0: both probes at 0.
     *   a = 1: 0x01000193; + << 13 = 0x01326193; ^ >>> 7 = 0x01300550; + << 3 = 0x0ab02fd0;
     *          ^ >>> 17 = 0x0ab02a88; + << 5 = 0x60b57b88 = 1622506376: 1, 1622506377.
     *   a = 2^31 (int -2^31): a * 16777619 = 2^31 (mod 2^32, the factor odd); + << 13
     *          keeps 0x80000000; ^ >>> 7 = 0x81000000; + << 3 = 0x89000000; ^ >>> 17 =
     *          0x89004480; + (0x89004480 << 5 = 0x20089000) = 0xa908d480, int -1459039104:
     *          x = -2^31 -> 2147483648; -2^31 - 1459039104 = -3606522752 -> 688444544.
     *   a = 2^32 - 1 (int -1): b = 0x0ebac3a1 = 247120801: 4294967295, 247120800. */
    {"bloomfilter-js-0.0.16", UINT64_C(1) << 32, 2, {0}, {0, 0}},
    {"bloomfilter-js-0.0.16", UINT64_C(1) << 32, 2, {1}, {1, 1622506377u}},
    {"bloomfilter-js-0.0.16", UINT64_C(1) << 32, 2, {2147483648u}, {2147483648u, 688444544u}},
    {"bloomfilter-js-0.0.16", UINT64_C(1) << 32, 2, {4294967295u}, {4294967295u, 247120800u}},
    /* The key "a" at 128 bits: a = -649420593 (-49 mod 128 -> 79), b = fnv_1a_b(a) =
     * -1053840833 = -(128 * 8233131 + 65), so the stride is -65 = 63 mod 128: 79, 142 ->
     * 14, 77, 140 -> 12, which is what the library's locations("a") printed. */
    {"bloomfilter-js-0.0.16", 128, 4, {4294967296u - 649420593u}, {79, 14, 77, 12}},

    /* bloom-filters, m = 1000, a = 2^32 - 1, b = 4 * 10^9 (b = 0 mod 1000): a + i b +
     * (i^3 - i)/6 = a + i b + 0, 0, 1, 4, 10, 20, 35, 56 for i = 0..7, and a = 295 mod
     * 1000: 295 295 296 299 305 315 330 351, as the package's own doubleHashing gives
     * (tests/conformance.sh checks 300 more). At m = 2^33 the sums are taken mod m, not
     * mod 2^32: a, a + b = 8,294,967,295, a + 2b + 1 - 2^33 = 3,705,032,704. */
    {"bloom-filters", 1000, 8, {4294967295u, 4000000000u},
      {295, 295, 296, 299, 305, 315, 330, 351}},
    {"bloom-filters", UINT64_C(1) << 33, 3, {4294967295u, 4000000000u},
      {4294967295u, UINT64_C(8294967295), UINT64_C(3705032704)}},

    /* bloom-filters-slices, m = 1000, k = 4: slices of s = 250 bits; a = 2^32 - 1 = 45 mod
     * 250, b = 4 * 10^9 = 0 mod 250: index i = 45 + (i^3 - i)/6 = 45, 45, 46, 49, as the
     * package's doubleHashing(i, a, b, 250) gives; slice i starts at 250 i. */
    {"bloom-filters-slices", 1000, 4, {4294967295u, 4000000000u}, {45, 295, 546, 799}},
    /* PartitionedBloomFilter.create(1000, 0.01) (k = 7 slices of 1,370 bits), the key "a":
     * hashTwice gives a = 3682865304, b = 2079021027, and getIndexes("a", 1370, 7, seed)
     * 1164 611 59 879 332 1159 621 (bloom-filters 3.0.4 under node), at 1370 i + index. */
    {"bloom-filters-slices", 9590, 7, {3682865304u, 2079021027u},
     {1164, 1981, 2799, 4989, 5812, 8009, 8841}},

    /* growable-bloom (growable-bloom-filter 2.1.1 index_iterator): slices of s = 1387 bits
     * (m = 7 s); h1 = 0x0123456789abcdef = 81985529216486895 = 1335 mod 1387; h1 + h2 =
     * 2^64 - 1 = 1023 mod 1387, at 1387 + 1023 = 2410; then h1 += h2 (h2 + 1), and so on,
     * wrapping: 1335 2410 3848 5287 6728 8172 9620, as the crate's index_iterator gives
     * (its code run alone under rustc). */
    {"growable-bloom", 9709, 7, {UINT64_C(0x0123456789abcdef), UINT64_C(0xfedcba9876543210)},
     {1335, 2410, 3848, 5287, 6728, 8172, 9620}},
    /* The wrap: h1 = 2^64 - 1 = 615 mod 1000; h1 + h2 = 2^64 - 7 (h2 = 2^64 - 6) = 609, at
     * 1000 + 609; the rest as the crate gives. */
    {"growable-bloom", 8000, 8, {UINT64_MAX, UINT64_MAX - 5},
     {615, 1609, 2603, 3598, 4595, 5595, 6599, 7608}},
    /* h2 = 1, s = 16: h1 = 12345 = 9 mod 16; 12346 = 10 (h2 += 0); 12347 = 11 (h2 = 2);
     * 12349 = 13 (h2 = 4): 9, 16 + 10, 32 + 11, 48 + 13. */
    {"growable-bloom", 64, 4, {12345, 1}, {9, 26, 43, 61}},

    /* boomfilters-partitioned: NewPartitionedBloomFilter(10, 0.01) has k = 7 partitions of
     * s = ceil(96 / 7) = 14; Add("hello"): FNV-1 64 0x7b495389bdbdd4c7, lower = 3183334599
     * = 11 mod 14, upper = 2068403081 = 3 mod 14: partition i at (11 + 3i) mod 14 = 11 0 3
     * 6 9 12 1, the buckets the package sets (go 1.19, its own Buckets read back); "bloomsim"
     * (lower 2042895967 = 7, upper 3818099436 = 4): 7 11 1 5 9 13 3; the integer 42 as 8
     * bytes big-endian (lower 672807407 = 13, upper 2831677490 = 12): 13 11 9 7 5 3 1. */
    {"boomfilters-partitioned", 98, 7, {3183334599u, 2068403081u},
     {11, 14, 31, 48, 65, 82, 85}},
    {"boomfilters-partitioned", 98, 7, {2042895967u, 3818099436u},
     {7, 25, 29, 47, 65, 83, 87}},
    {"boomfilters-partitioned", 98, 7, {672807407u, 2831677490u},
     {13, 25, 37, 49, 61, 73, 85}},

    /* dcso-bloom, m = 1000, h = 1: x = 1 mod P = 1; x g = 2^64 - 1469 (< P) -> 147; x g =
     * (2^64 - 1469)^2 = 1469^2 = 2,157,961 mod 2^64 -> 961; x g = -1469 * 2,157,961 mod 2^64
     * = 2^64 - 3,170,044,709 = 18446744070539506907 (< P) -> 907. */
    {"dcso-bloom", 1000, 3, {1}, {147, 961, 907}},
    /* The word's own mod P: h = 2^64 - 1 gives x = 58; x g = -85,202 mod 2^64 = 2^64 -
     * 85,202 -> 414; x g = 85,202 * 1469 = 125,161,738 -> 738. */
    {"dcso-bloom", 1000, 2, {UINT64_MAX}, {414, 738}},
    /* The fold: h = 1469^-1 mod 2^64 = 3641630892699639189 makes x g = 2^64 - 1, which is
     * P + 58: probe 58 (2^64 - 1 unreduced would give 615), then as above 414. */
    {"dcso-bloom", 1000, 2, {UINT64_C(3641630892699639189)}, {58, 414}},
    /* m = 2^10 divides 2^64: probe i + 1 is -1469 p_i mod 1024, fixed by the first: h = 3,
     * 3 g = -4407 -> 713; -1469 * 713 = -1,047,397 -> 155; -1469 * 155 -> 657; -> 499. */
    {"dcso-bloom", 1024, 4, {3}, {713, 155, 657, 499}},
    /* bloom_test.go TestFingerprinting: Initialize(100000, 0.01) (m = 958,505, k = 7),
     * Fingerprint("bar"), whose FNV-1 64 is 0xd8d9a5186bad3880. */
    {"dcso-bloom", 958505, 7, {UINT64_C(0xd8d9a5186bad3880)},
     {20311, 36825, 412501, 835777, 658914, 853361, 307361}},
};

static void test_hand_cases(void)
{
    for (size_t c = 0; c < sizeof CASES / sizeof CASES[0]; c++) {
        const hand_case_t *t = &CASES[c];
        const scheme_t *s = scheme_find(t->scheme);
        probe_geom_t g;
        uint64_t pos[64];
        assert(s && t->k <= 8 && s->geometry(t->m, t->k, 0, &g) == SCHEME_OK);
        assert(s->check_words(&g, t->h) == SCHEME_OK);
        s->positions(&g, t->h, pos);
        printf("%-21s m=%llu k=%u:", t->scheme, (unsigned long long)g.m, t->k);
        for (unsigned i = 0; i < t->k; i++) {
            printf(" %llu", (unsigned long long)pos[i]);
            assert(pos[i] == t->want[i]);
        }
        printf("\n");
    }
}

/* The schemes of fresh draws: Hadoop's |x % m| of int32 draws, pybloom-live's slices. */
static void test_drawn(void)
{
    /* hadoop, m = 1000: Math.abs((int)x % 1000) for x = 5, 2^32 - 1 (int -1), 2^31 (int
     * -2^31: -2147483648 % 1000 = -648), 2^31 - 1, 3,000,000,000 (int -1,294,967,296,
     * remainder -296; the unsigned remainder would be 0). */
    probe_geom_t hg;
    uint64_t hp[5];
    const scheme_t *hd = scheme_find("hadoop");
    assert(hd->geometry(1000, 5, 0, &hg) == SCHEME_OK);
    hd->positions_drawn(&hg, NULL, (const uint64_t[]){5, 4294967295u, 2147483648u, 2147483647,
                                                     3000000000u}, hp);
    assert(hp[0] == 5 && hp[1] == 1 && hp[2] == 648 && hp[3] == 647 && hp[4] == 296);
    assert(hd->geometry(UINT64_C(1) << 31, 5, 0, &hg) == SCHEME_EMBIG);
    assert(hd->geometry(INT32_MAX, 5, 0, &hg) == SCHEME_OK && hg.m == INT32_MAX);
    assert(hd->draw_bound(&hg, 0) == UINT64_C(1) << 32);

    /* pybloom-live, m = 100, k = 4: slices of s = 25 bits, 16-bit words (s < 2^15); words
     * 5, 65535, 30, 25: 0 + 5; 25 + 65535 % 25 (65535 = 25 * 2621 + 10) = 35; 50 + 5;
     * 75 + 0. */
    probe_geom_t pg;
    uint64_t pp[4];
    const scheme_t *pb = scheme_find("pybloom-live");
    assert(pb->geometry(100, 4, 0, &pg) == SCHEME_OK && pg.m == 100 && pg.w == 25);
    assert(pb->draw_bound(&pg, 0) == UINT64_C(1) << 16);
    pb->positions_drawn(&pg, NULL, (const uint64_t[]){5, 65535, 30, 25}, pp);
    assert(pp[0] == 5 && pp[1] == 35 && pp[2] == 55 && pp[3] == 75);
    /* The word width follows the slice: 32 bits from s = 2^15, 64 bits from s = 2^31. */
    assert(pb->geometry(UINT64_C(1) << 17, 4, 0, &pg) == SCHEME_OK &&
           pb->draw_bound(&pg, 0) == UINT64_C(1) << 32);
    assert(pb->geometry((UINT64_C(1) << 17) - 4, 4, 0, &pg) == SCHEME_OK && pg.w == 32767 &&
           pb->draw_bound(&pg, 0) == UINT64_C(1) << 16);
    assert(pb->geometry(UINT64_C(1) << 33, 4, 0, &pg) == SCHEME_OK &&
           pb->draw_bound(&pg, 0) == UINT64_MAX);
    printf("hadoop, pybloom-live: positions from draws, bounds and geometry\n");
}

/* The m a library's numbers hold: the caps its geometry refuses past, as each scheme's
 * m_cap says (and the message lists every one). */
static void test_caps(void)
{
    probe_geom_t pg;
    /* Java-int and JS-shift limits on m: bloomfilter.js 1.1.0 addresses 2^32 bits
     * (MAX_BITS, an unsigned shift); 0.0.21 2^31 (a signed shift), and past it loses
     * keys. */
    const scheme_t *ce = scheme_find("commons-enhanced"), *js = scheme_find("bloomfilter-js"),
                   *js21 = scheme_find("bloomfilter-js-0.0.21");
    assert(ce->geometry(UINT64_C(1) << 31, 5, 0, &pg) == SCHEME_EMBIG);
    assert(ce->geometry(INT32_MAX, 5, 0, &pg) == SCHEME_OK);
    assert(js->geometry((UINT64_C(1) << 32) + 1, 5, 0, &pg) == SCHEME_EMBIG);
    assert(js->geometry((UINT64_C(1) << 31) + 1, 5, 0, &pg) == SCHEME_OK);
    assert(js->geometry(UINT64_C(1) << 32, 5, 0, &pg) == SCHEME_OK);
    assert(js->check_words(&pg, (const uint64_t[]){UINT64_C(1) << 32, 0}) == SCHEME_EWORD);
    assert(js21->geometry((UINT64_C(1) << 31) + 1, 5, 0, &pg) == SCHEME_ELOSES);
    assert(js21->geometry(UINT64_C(1) << 31, 5, 0, &pg) == SCHEME_OK);
    assert(strstr(scheme_refusal(js21, SCHEME_ELOSES), "false negatives"));
    assert(js21->check_words(&pg, (const uint64_t[]){UINT64_C(1) << 32, 0}) == SCHEME_EWORD);
    /* The older bloom.js indexes with Math.floor, not a shift: no 2^31 limit; Numbers
     * stay exact to 2^52. RedisBloom before 2018-02 rounds to a power of two. */
    const scheme_t *j17 = scheme_find("bloomfilter-js-0.0.17"),
                   *j16 = scheme_find("bloomfilter-js-0.0.16"),
                   *ru = scheme_find("redisbloom-u32");
    assert(j17->geometry((UINT64_C(1) << 31) + 1, 5, 0, &pg) == SCHEME_OK);
    assert(j17->geometry(UINT64_C(1) << 52, 5, 0, &pg) == SCHEME_OK);
    assert(j17->geometry((UINT64_C(1) << 52) + 1, 5, 0, &pg) == SCHEME_EMBIG);
    assert(j16->geometry((UINT64_C(1) << 52) + 1, 5, 0, &pg) == SCHEME_EMBIG);
    assert(j17->check_words(&pg, (const uint64_t[]){0, UINT64_C(1) << 32}) == SCHEME_EWORD);
    assert(j16->geometry(4096, 5, 0, &pg) == SCHEME_OK);
    assert(j16->check_words(&pg, (const uint64_t[]){UINT64_C(1) << 32}) == SCHEME_EWORD);
    assert(ru->geometry(100003, 5, 0, &pg) == SCHEME_ENOTPOW2);
    assert(ru->geometry(1, 0, 0, &pg) == SCHEME_ENOTPOW2);
    assert(ru->geometry(4, 4, 0, &pg) == SCHEME_EKBIG);
    assert(ru->geometry(UINT64_C(1) << 40, 5, 0, &pg) == SCHEME_OK && pg.m == UINT64_C(1) << 40);
    assert(ru->check_words(&pg, (const uint64_t[]){UINT64_C(1) << 32, 0}) == SCHEME_EWORD);

    /* Every scheme with a cap refuses 2^52 + 1 bits; none without one says EMBIG at
     * 2^60; the message lists each cap under its scheme's name. */
    for (size_t i = 0; i < scheme_count(); i++) {
        const scheme_t *s = scheme_at(i);
        int st = s->geometry((UINT64_C(1) << 52) + 1, 8, 0, &pg);
        if (s->m_cap) {
            assert(st == SCHEME_EMBIG || st == SCHEME_ELOSES);
            assert(strstr(scheme_refusal(s, SCHEME_EMBIG), s->m_cap) &&
                   strstr(scheme_refusal(s, SCHEME_EMBIG), s->m_cap_as ? s->m_cap_as : s->name));
        } else {
            assert(s->geometry(UINT64_C(1) << 60, 8, 0, &pg) != SCHEME_EMBIG && !s->loses);
        }
    }
    assert(strcmp(scheme_refusal(scheme_find("hadoop"), SCHEME_EMBIG),
                  "more bits than the library this scheme follows can address (hadoop, "
                  "commons-enhanced: m < 2^31; bloomfilter-js: m <= 2^32; bloomfilter-js-0.0.21: "
                  "m <= 2^31; bloomfilter-js-0.0.1x: m <= 2^52; boomfilters-partitioned: a "
                  "partition <= 2^32 bits)") == 0);
    assert(strcmp(scheme_refusal(js21, SCHEME_EKBIG), scheme_strerror(SCHEME_EKBIG)) == 0);
    printf("caps on m: each scheme's own, listed in one message\n");
}

/* Geometry: lines and blocks rounded down (rocksdb-legacy to an odd count), kudu-block's
 * power-of-two directory, the fixed k = 8, too few bits; 32-bit words checked. */
static void test_geometry(void)
{
    probe_geom_t g;
    const scheme_t *rl = scheme_find("rocksdb-legacy"), *kb = scheme_find("kudu-block");
    assert(rl->geometry(4096, 6, 0, &g) == SCHEME_OK && g.m == 3584 && g.blocks == 7);
    assert(rl->geometry(5000, 6, 0, &g) == SCHEME_OK && g.m == 4608 && g.blocks == 9);
    assert(rl->geometry(511, 6, 0, &g) == SCHEME_ESMALL);
    assert(scheme_find("rocksdb-fastlocal")->geometry(5000, 6, 0, &g) == SCHEME_OK &&
           g.m == 4608 && g.blocks == 9);
    assert(scheme_find("hive-bloomk")->geometry(4096, 6, 0, &g) == SCHEME_OK && g.blocks == 8);
    assert(scheme_find("sbbf")->geometry(100003, 8, 0, &g) == SCHEME_OK && g.m == 99840 &&
           g.blocks == 390);
    assert(scheme_find("sbbf")->geometry(4096, 7, 0, &g) == SCHEME_EKFIXED);
    assert(kb->geometry(100003, 8, 0, &g) == SCHEME_ENOTPOW2);
    assert(kb->geometry(128, 8, 0, &g) == SCHEME_ESMALL);
    assert(kb->geometry(4096, 16, 0, &g) == SCHEME_EKFIXED);
    assert(kb->geometry(4096, 8, 0, &g) == SCHEME_OK && g.blocks == 16);
    assert(kb->check_words(&g, (const uint64_t[]){UINT64_C(1) << 32}) == SCHEME_EWORD);
    assert(rl->geometry(4096, 6, 0, &g) == SCHEME_OK);
    assert(rl->check_words(&g, (const uint64_t[]){UINT64_C(1) << 32}) == SCHEME_EWORD);
    printf("library schemes: geometry and word checks: ok\n");
}

int main(void)
{
    test_hand_cases();
    test_drawn();
    test_caps();
    test_geometry();
    return 0;
}
