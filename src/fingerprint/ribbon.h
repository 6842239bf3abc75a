/* ribbon.h - RocksDB 7.8.3's Standard128Ribbon filter as RocksDB writes it (ribbon.c):
 * its policy's arithmetic from bits per key, and a whole filter (its solution and its 5
 * metadata bytes) built from key hashes in the order given, and asked. The family
 * (`rocksdb-ribbon`) and `bloomsim adapter rocksdb-ribbon` are ribbon.c's; these are for
 * the test that pins filters RocksDB's own tests pinned (tests/test_fingerprint_libraries.c).
 */
#ifndef BLOOMSIM_FINGERPRINT_RIBBON_H
#define BLOOMSIM_FINGERPRINT_RIBBON_H

#include <stddef.h>
#include <stdint.h>

/* BloomLikeFilterPolicy(bits_per_key) (table/block_based/filter_policy.cc:1327-1362
 * @v7.8.3): the bits per key as clamped, its millibits, and desired_one_in_fp_rate_,
 * the Bloom filter's rate at those bits that the Ribbon filter is sized to. */
typedef struct rb_policy {
    double bpk;        /* as clamped: 1 to 100 */
    int millibits;     /* (int)(bpk * 1000 + 0.500001) */
    double one_in;     /* 1 / CacheLocalFpRate(bpk, ChooseNumProbes(millibits), 512) */
    const char *clamp; /* how bpk was clamped, in a line, or NULL */
} rb_policy_t;

/* The policy NewRibbonFilterPolicy(bpk) makes: 0, or -1 when RocksDB builds no filter
 * (bpk below 0.5; *p is then untouched). */
int rb_policy(double bpk, rb_policy_t *p);

/* Standard128RibbonBitsBuilder::Finish (filter_policy.cc:612-765) for the key hashes
 * h[0..n) added in that order (XXPH3 64 of each key; a hash equal to the one before it
 * is dropped, as AddKey drops it, :75-100), n >= 1: the filter, metadata included, into
 * a malloc'd *out of *len bytes, and the seeds whose banding failed into *retries (256
 * when every seed failed and RocksDB fell back to its Bloom filter). Returns 0, or -1
 * when memory is short (nothing allocated then). */
int rb_filter_build(const rb_policy_t *p, const uint64_t *h, uint64_t n, uint8_t **out,
                    size_t *len, uint64_t *retries);

/* The filter's answer for a key of hash h, as BuiltinFilterPolicy's reader for its
 * metadata answers (:1560-1662): 1 maybe present, 0 absent. */
int rb_filter_query(const uint8_t *f, size_t len, uint64_t h);

#endif
