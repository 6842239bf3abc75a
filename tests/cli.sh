#!/bin/sh
# cli.sh BLOOMSIM - the command line end to end, run from the source root by meson test.
#  - every malformed experiment in tests/data/bad/ (first line "; expect: LINE: message")
#    exits 2 with one line "FILE:LINE: message" and leaves earlier results untouched;
#  - every bad option exits 2 with a one-line message naming the value;
#  - --quick runs at 1 thread write the golden CSV (made at 2 threads), the seconds
#    column aside;
#  - probes, exact, crossread and list print what they should;
#  - the thread count from OMP_NUM_THREADS checked, the memory check under ulimit -v,
#    --quick bounded (issue 20; interrupted and concurrent runs: tests/runs.sh).
set -u
B=$1
. tests/lib.sh

mkdir -p "$tmp/out"
echo "earlier result" > "$tmp/out/sentinel.csv"

for f in tests/data/bad/*.ini; do
    want=$(sed -n '1s/^; expect: //p' "$f")
    expect_error 2 "$f:$want" run "$f" --quick --threads 2 --out "$tmp/out"
done
# The memory check sees the address-space limit (ulimit -v) and cgroup limits, not only
# the machine's memory (issue 20): a 1 GiB filter under a 512 MiB limit is refused
# before any work. (Skipped where the program cannot start under such a limit:
# AddressSanitizer reserves terabytes of address space.)
printf '[sweep]\nbits = 8589934592\nbits_per_key = 10\nschemes = independent\nfilters = 2\n' > "$tmp/gib.ini"
if (ulimit -v 524288 && "$B" --version) > /dev/null 2>&1; then
    (ulimit -v 524288; fail=0; expect_error 2 "$tmp/gib.ini:2: the filter size needs 1.0 GiB (one array shared by all threads), only" run "$tmp/gib.ini" --out "$tmp/out"; exit $fail) \
        && ok || fail=$((fail + 1))
    # audit refuses by the same rule and names the limit that binds.
    (ulimit -v 524288; fail=0; expect_error 2 "needs 1.1 GiB, only" audit guava --keys 1e9 --rate 0.01; exit $fail) \
        && grep -qF "available (the address-space limit, ulimit -v) (got '--keys 1000000000')" "$tmp/stderr" \
        && ok || bad "audit's memory refusal: $(cat "$tmp/stderr")"
    # RedisBloom's cuckoo chain grows with its keys: refused before its reference chains
    # are built, with the most its filters may take (at EXPANSION 2, the filters until their
    # slots pass four times the keys: 2^33 bytes, 8.0 GiB).
    (ulimit -v 524288; fail=0; expect_error 2 "offered 2000000000, needs up to 8.0 GiB, only" \
        audit redisbloom-cuckoo --keys 2e9 --expansion 2; exit $fail) && ok \
        || bad "the cuckoo chain's memory refusal: $(cat "$tmp/stderr")"
fi
# A library's chain (issue 41): the library's own refusals, bloomsim's k limit, and a chain
# past the memory available, each one line before any work.
expect_error 2 "RedisBloom refuses it: \"ERR expansion should be greater or equal to 1\" (got '--expansion 0.5')" \
    audit redisbloom-sbchain --keys 1000 --expansion 0.5
expect_error 2 "\"ERR bad expansion\" (a whole number) (got '--expansion 2.5')" \
    audit redisbloom-sbchain --keys 1000 --expansion 2.5
expect_error 2 "\"ERR (capacity should be larger than 0)\" (got '--capacity 0')" \
    audit redisbloom-sbchain --keys 1000 --capacity 0
expect_error 2 "ValueError(\"Error_Rate must be between 0 and 1.\") (got '--rate 1.5')" \
    audit pybloom-live-scalable --keys 1000 --rate 1.5
expect_error 2 "at 1000000 keys: the next link would need more than 1000 probes (bloomsim's limit)" \
    audit redisbloom-sbchain --keys 1e6 --expansion 1
expect_error 2 "audit: redisbloom-sbchain at 100000000000 keys (30 links, 5521525620096 bits) needs 1285.6 GiB, only" \
    audit redisbloom-sbchain --keys 1e11
expect_error 2 "audit: redisbloom-sbchain needs --keys" audit redisbloom-sbchain --rate 0.01
# The tightening (each link's rate over the last's): a chain whose library takes one (valkey-bloom's
# bloom-tightening-ratio) refuses one outside (0, 1) in its own words; one whose library takes
# none refuses it.
expect_error 2 "valkey-bloom refuses it: \"ERR (0 < tightening ratio range < 1)\" (got '--tightening 1')" \
    audit valkey-bloom --keys 1000 --tightening 1
expect_error 2 "audit: redisbloom-sbchain takes no tightening: its own is 0.5 (got '--tightening 0.25')" \
    audit redisbloom-sbchain --keys 1000 --tightening 0.25
# growable-bloom-filter's asserts, BoomFilters' hint of 0 and its one hint for every link
# (10^8 keys need more than bloomsim's 1024 links).
expect_error 2 "growable-bloom-filter panics: assert!(growth_factor > 1) (got '--expansion 1')" \
    audit growable-bloom-filter --keys 1000 --expansion 1
expect_error 2 "desired_error_prob < 1.0) (got '--rate 0')" \
    audit growable-bloom-filter --keys 1000 --rate 0
expect_error 2 "audit: boomfilters-scalable takes no expansion (got '--expansion 2')" \
    audit boomfilters-scalable --keys 1000 --expansion 2
expect_error 2 "(integer divide by zero) (got '--capacity 0')" \
    audit boomfilters-scalable --keys 1000 --capacity 0
expect_error 2 "at 100000000 keys: more than 1024 links (bloomsim's limit for a chain)" \
    audit boomfilters-scalable --keys 1e8
expect_error 2 "assert!(0.0 < ratio && ratio < 1.0) (GrowableBloomBuilder::tightening_ratio) (got '--tightening 0')" \
    audit growable-bloom-filter --keys 1000 --tightening 0
expect_error 2 "BoomFilters does not check it" audit boomfilters-scalable --keys 1000 --tightening 1.5
# Their audits run: BoomFilters' default chain at 30,000 keys is four filters, the last
# holding 1,445 (as the package's Count() gives), none swallowed.
"$B" audit boomfilters-scalable --keys 30000 --filters 2 --lookups 20000 --threads 1 \
    > "$tmp/boom.txt" 2> "$tmp/err" \
    && grep -qF "30000 inserted, 0.0 swallowed (expected), 4 links (the newest holds 1445 of 9513)" \
        "$tmp/boom.txt" && ok || bad "audit boomfilters-scalable: $(cat "$tmp/boom.txt" "$tmp/err")"
"$B" audit growable-bloom-filter --keys 7000 --filters 2 --lookups 20000 --threads 1 \
    > "$tmp/grow.txt" 2> "$tmp/err" \
    && grep -q "^created      capacity 1000, rate 0.01, expansion 2, tightening .*(the library.s defaults)" \
        "$tmp/grow.txt" && grep -q "^keys  *7000 inserted, [1-9][0-9.]* swallowed (expected), 3 links" \
        "$tmp/grow.txt" && ok || bad "audit growable-bloom-filter: $(cat "$tmp/grow.txt" "$tmp/err")"
# bloom-filters' ScalableBloomFilter: its ratio is its tightening (and each link's load
# factor); it has no expansion, and checks nothing itself.
expect_error 2 "audit: bloom-filters-scalable takes no expansion (got '--expansion 4')" \
    audit bloom-filters-scalable --keys 1000 --expansion 4
expect_error 2 "the ratio is each link's load factor: outside (0, 1) its k and size are not positive numbers: refused (got '--tightening 1.5')" \
    audit bloom-filters-scalable --keys 1000 --tightening 1.5
expect_error 2 "audit: redisbloom-cuckoo takes no rate: CF.RESERVE takes a capacity (--capacity), and a filter's rate follows from its bucket size (got '--rate 0.3')" \
    audit redisbloom-cuckoo --keys 1000 --rate 0.3
expect_error 2 "audit: redisbloom-cuckoo: RedisBloom refuses it: \"BUCKETSIZE: value must be an integer between 1 and 255, inclusive.\" (got '--bucket-size 0')" \
    audit redisbloom-cuckoo --keys 1000 --bucket-size 0
expect_error 2 "RedisBloom refuses it: \"Capacity must be at least (BucketSize * 2)\" (got '--capacity 300')" \
    audit redisbloom-cuckoo --keys 1000 --capacity 300 --bucket-size 200
# RedisBloom's cuckoo chain audited with CF.RESERVE's options (a variant without a real
# hash here: its audit once dereferenced that hash's absence), at 10 times its capacity.
"$B" audit redisbloom-cuckoo --keys 10240 --expansion 4 --bucket-size 4 --threads 1 \
    > "$tmp/cf.txt" 2> "$tmp/err" \
    && grep -qF "CF.RESERVE 1024 BUCKETSIZE 4 MAXITERATIONS 20 EXPANSION 4" "$tmp/cf.txt" \
    && grep -q "^  measured " "$tmp/cf.txt" && ok \
    || bad "audit redisbloom-cuckoo with CF.RESERVE's options: $(cat "$tmp/cf.txt" "$tmp/err")"
[ "$(ls "$tmp/out")" = "sentinel.csv" ] && [ "$(cat "$tmp/out/sentinel.csv")" = "earlier result" ] \
    && ok || bad "bad input touched the output directory: $(ls "$tmp/out")"

expect_error 2 "unknown command (got 'frobnicate')" frobnicate
expect_error 2 "unknown experiment or unreadable file" run no-such-experiment --quick
expect_error 2 "name an experiment (got nothing)" run --quick
expect_error 2 "--threads must be a whole number from 1 to 4096 (got '0')" run floor-4096 --threads 0
expect_error 2 "--threads must be a whole number from 1 to 4096 (got 'two')" run floor-4096 --threads two
expect_error 2 "--seed must be a whole number (got '-1')" run floor-4096 --seed -1
# Every source of the thread count is checked as --threads is (issue 20): OMP_NUM_THREADS
# past 4096 crashed run and audit. with_omp VALUE ARGS...: expect_error ARGS with it.
with_omp() {
    v=$1
    shift
    (OMP_NUM_THREADS=$v; export OMP_NUM_THREADS; fail=0; expect_error "$@"; exit $fail) \
        && ok || fail=$((fail + 1))
}
with_omp 100000 2 "run: OMP_NUM_THREADS must be a whole number from 1 to 4096 (got '100000')" run stride-zero --quick --out "$tmp/omp"
with_omp 5000 2 "audit: OMP_NUM_THREADS must be a whole number from 1 to 4096 (got '5000')" audit guava --keys 1000 --rate 0.01
[ ! -e "$tmp/omp" ] && ok || bad "OMP_NUM_THREADS=100000: run wrote $(ls "$tmp/omp")"
OMP_NUM_THREADS=3 "$B" run stride-zero --quick --out "$tmp/omp3" > /dev/null 2>&1 \
    && grep -q "^threads = 3$" "$tmp/omp3/stride-zero.quick.meta" && ok || bad "OMP_NUM_THREADS=3 not taken"
OMP_NUM_THREADS=100000 "$B" run stride-zero --quick --threads 1 --out "$tmp/omp3" > /dev/null 2>&1 \
    && grep -q "^threads = 1$" "$tmp/omp3/stride-zero.quick.meta" && ok || bad "--threads does not override OMP_NUM_THREADS"
expect_error 2 "--seed needs a value (got nothing)" run floor-4096 --seed
expect_error 2 "unknown option (got '--fast')" run floor-4096 --fast
expect_error 2 "cannot create output directory" run stride-zero --quick --out /etc/passwd/x
cp experiments/stride-zero.ini "$tmp/stride-zero.ini"
expect_error 2 "would both write out/stride-zero.csv; run them with different --out" run stride-zero "$tmp/stride-zero.ini" --quick
expect_error 2 "--bits and --keys are required (got no --keys)" exact --bits 1024
expect_error 2 "--bits must be a whole number >= 1 (got '1e3x')" exact --bits 1e3x --keys 5
expect_error 2 "--bits must be at most 2^40 (got '2199023255552')" exact --bits 2199023255552 --keys 5
expect_error 2 "unknown argument (got '--m')" exact --m 5
expect_error 2 "unknown scheme (got 'quadruple')" probes quadruple --bits 16 --k 3 --h1 1 --h2 1
expect_error 2 "scheme independent draws its positions: give --draws with k = 3 values (got nothing)" probes independent --bits 16 --k 3
expect_error 2 "draw 2 of blocked must be below 512 (got '512')" probes blocked --bits 4096 --k 3 --h1 5 --draws 0,512,1
expect_error 2 "--draws needs k = 3 whole numbers separated by commas (got '0,5')" probes blocked --bits 4096 --k 3 --h1 1 --draws 0,5
expect_error 2 "k must split the block into words of a power-of-two number of bits (got '7')" probes split-block --bits 4096 --k 7 --h1 1 --draws 0,1,2,3,4,5,6
expect_error 2 "block size must be a power of two from 64 to 4096 bits, and at most the filter's bits (got '100')" probes blocked --bits 4096 --k 3 --block-bits 100 --h1 1 --draws 0,5,1
expect_error 2 "scheme double takes no draws" probes double --bits 16 --k 3 --h1 1 --h2 1 --draws 1,2,3
expect_error 2 "hash word outside the range" probes double-odd --bits 16 --k 3 --h1 1 --h2 4
expect_error 2 "hash word outside the range" probes double --bits 16 --k 3 --h1 16 --h2 4
expect_error 2 "needs --h2 (got nothing)" probes double --bits 16 --k 3 --h1 1
expect_error 2 "takes no --h3 (got '5')" probes double --bits 16 --k 3 --h1 1 --h2 1 --h3 5
expect_error 2 "the scheme needs a power-of-two number of bits" probes double-odd --bits 17 --k 3 --h1 1 --h2 1
expect_error 2 "more probes than bits" probes double --bits 16 --k 16 --h1 1 --h2 1

expect_error 2 "--keys and --rate are required (got no --rate)" size --keys 100
expect_error 2 "--rate must be a number strictly between 0 and 1 (got '1')" size --keys 100 --rate 1
expect_error 2 "--rule must be a sizing rule: calculateparams, guava, split-block-formula, split-block-exact, blocked-exact, leveldb," size --keys 100 --rate 0.01 --rule best
expect_error 2 "the filter would need 2^64 bits or more" size --keys 9223372036854775808 --rate 0.01
# A subnormal rate is a number (strtod's ERANGE aside): refused for what it needs.
expect_error 2 "1 keys at 1e-310: the design would need more than 1000 probes" size --keys 1 --rate 1e-310
expect_error 2 "the filter would need 2^64 bits or more" size --keys 9223372036854775808 --rate 1e-310
expect_error 2 "--rate is below the smallest positive double" size --keys 1 --rate 1e-400
# One rule for numbers everywhere (src/base/values.h): counts as typed (1e7, 2.5e7) but whole,
# and no hexadecimal anywhere (files: tests/data/bad/hex-*.ini).
"$B" size --keys 1e7 --rate 0.01 | grep -q "^rule calculateparams: n = 10000000 keys" && ok || bad "size --keys 1e7"
"$B" size --keys 2.5e7 --rate 0.01 | grep -q "n = 25000000 keys" && ok || bad "size --keys 2.5e7"
expect_error 2 "size: --keys must be a whole number >= 1 (got '1.5')" size --keys 1.5 --rate 0.01
expect_error 2 "size: --rate must be a number strictly between 0 and 1 (got '0x1p-3')" size --keys 1000 --rate 0x1p-3
expect_error 2 "exact: --bits must be a whole number >= 1 (got '0x1000')" exact --bits 0x1000 --keys 5
"$B" size --keys 1000 --rate 1e-301 | grep -q "^m = 1442552 bits (1443 bits per key), k = 1000," && ok || bad "size: 1000 keys at 1e-301"
# Paths too long for their buffers are refused, not cut short. in_dir DIR ARGS...:
# expect_error ARGS with BLOOMSIM_EXPERIMENTS=DIR.
in_dir() {
    d=$1
    shift
    (BLOOMSIM_EXPERIMENTS=$d; export BLOOMSIM_EXPERIMENTS; fail=0; expect_error "$@"; exit $fail) \
        && ok || fail=$((fail + 1))
}
long=$(printf 'abcdefghi/%.0s' $(seq 110))long # 1,104 bytes
expect_error 2 "run: path too long, more than 1023 bytes (got '$tmp/$long.ini')" run "$tmp/$long.ini" --quick
in_dir "$tmp/$long" 2 "run: path too long, more than 1023 bytes (got '$tmp/$long/no-such.ini')" run no-such --quick
mkdir -p "$tmp/$long/$long" && cp experiments/guava.ini "$tmp/$long/$long/" \
    && in_dir "$tmp/$long/$long" 2 "list: path too long, more than 2047 bytes (got '$tmp/$long/$long/guava.ini')" list \
    || bad "cannot make a directory of 2,200 bytes"
rm -rf "${tmp:?}/abcdefghi"
# seed 002: CalculateParams(1000000000, 0.01) = (9585058378 7)
"$B" size --keys 1000000000 --rate 0.01 | grep -q "^m = 9585058378 bits (9.585 bits per key), k = 7," && ok || bad "size: seed 002's answer"

# Guava at 10^6 keys and 3%: 7,298,440 bits computed, 114,039 words = 7,298,496 indexed, k = 5.
"$B" size --keys 1000000 --rate 0.03 --rule guava > "$tmp/size"
grep -q "^m = 7298496 bits (7.298 bits per key), k = 5, 912312 bytes$" "$tmp/size" \
    && grep -q "^the rule computes 7298440 bits; the filter allocates 114039 64-bit words and indexes all 7298496 bits$" "$tmp/size" \
    && ok || bad "size --rule guava: $(cat "$tmp/size")"
"$B" size --keys 1000000000 --rate 0.01 | grep -q "^the rule computes" && bad "size: calculateparams printed a computed size apart" || ok

# audit (issue 12): end to end, and what it refuses.
"$B" audit --list > "$tmp/list" && [ "$(wc -l < "$tmp/list")" -ge 29 ] \
    && grep -q "^spark-v1 *guava32 *spark " "$tmp/list" && ok || bad "audit --list: $(head -3 "$tmp/list")"
# within 100 columns, the hash and the version wrapped (issue 37)
awk 'length > 100 { exit 1 }' "$tmp/list" && ok || bad "audit --list: a line past 100 columns: $(awk 'length > 100' "$tmp/list")"
"$B" audit parquet --keys 100000 --rate 0.01 --threads 2 > "$tmp/audit" 2> "$tmp/stderr" \
    && [ ! -s "$tmp/stderr" ] || bad "audit parquet: $(cat "$tmp/stderr")"
# Parquet's formula and power-of-two bytes: 2^20 bits, 8 probes; its blocks' exact rate
# is the structure line; the measured rate within 5 standard errors of it.
grep -q "m = 1048576 bits" "$tmp/audit" && grep -q "^  promised   0.01$" "$tmp/audit" \
    && grep -q "^  structure " "$tmp/audit" && grep -q "^  cause      sizing and blocking" "$tmp/audit" \
    && ok || bad "audit parquet: $(cat "$tmp/audit")"
z=$(sed -n 's/^  structure .*(\([-+][0-9.]*\) standard errors)$/\1/p' "$tmp/audit")
awk -v z="$z" 'BEGIN { exit !(z != "" && z > -5 && z < 5) }' && ok || bad "audit parquet: z = '$z' against its blocks' exact rate"
# The same seed gives the same measurement.
"$B" audit parquet --keys 100000 --rate 0.01 --threads 1 > "$tmp/audit1"
[ "$(grep '^  measured' "$tmp/audit")" = "$(grep '^  measured' "$tmp/audit1")" ] && ok \
    || bad "audit: 1 and 2 threads differ"
expect_error 2 "audit: unknown library (got 'guava33')" audit guava33 --keys 1000 --rate 0.01
# audit of a real library's fingerprint filter (issue 40): RocksDB's Ribbon filter at 10
# bits per key, its rate within 5 standard errors of its exact rate, its bits (7.04 a key
# with the metadata at 20,000 keys: 1,100 segments of 16 bytes and 5 bytes), its cache
# lines; a setting RocksDB clamps said, one it refuses refused, as RocksDB does.
"$B" audit rocksdb-ribbon --keys 20000 --bits-per-key 10 --precision 0.05 --threads 2 \
    > "$tmp/audit" 2> "$tmp/stderr" && [ ! -s "$tmp/stderr" ] || bad "audit rocksdb-ribbon: $(cat "$tmp/stderr")"
awk '/^  measured/ { r = $2; s = $0; sub(/.*standard error /, "", s); sub(/ .*/, "", s) }
     /^  exact/ { x = $2 }
     /^  bits / { b = $2 }
     /^  lookup/ { c = $2 }
     END { exit !(s > 0 && (r - x) / s > -5 && (r - x) / s < 5 && b > 6.5 && b < 8 && c > 3 && c < 5) }' \
    "$tmp/audit" && grep -q "^  retried    [0-9]* builds retried" "$tmp/audit" && ok \
    || bad "audit rocksdb-ribbon: $(cat "$tmp/audit")"
"$B" audit rocksdb-ribbon --keys 2000 --bits-per-key 0.7 --precision 0.1 > "$tmp/audit" 2> "$tmp/stderr" \
    && grep -q "bits per key below 1 are 1" "$tmp/stderr" && grep -q "NewRibbonFilterPolicy(1.000)" "$tmp/audit" \
    && ok || bad "audit rocksdb-ribbon at 0.7 bits per key: $(cat "$tmp/stderr" "$tmp/audit")"
expect_error 2 "audit: rocksdb-ribbon builds no filter below 0.5 bits per key" audit rocksdb-ribbon --keys 1000 --bits-per-key 0.4
expect_error 2 "audit: bloom-filters-xor takes a rate (--rate), not bits per key" audit bloom-filters-xor --keys 1000 --bits-per-key 8
expect_error 2 "audit: LIBRARY, --keys and --rate (or --bits-per-key) are required (got no --rate)" audit guava --keys 1000
expect_error 2 "audit: --rate must be a number strictly between 0 and 1 (got '0')" audit guava --keys 1000 --rate 0
expect_error 2 "HashFunction throws IllegalArgumentException (\"maxValue must be > 0\")" audit hadoop --keys 500000000 --rate 0.01
expect_error 2 "Hive's BloomKFilter takes no rate" audit hive-bloomk --keys 1000 --rate 0.01
expect_error 2 "throws NegativeArraySizeException" audit hive-bloomk --keys 400000000 --rate 0.05
expect_error 2 "Could not create BloomFilter" audit guava --keys 15000000000 --rate 0.01
expect_error 2 "the library refuses a target rate this low" audit cassandra --keys 1000 --rate 1e-5
expect_error 2 "audit: --max-filters must be a whole number from 2 to 2^40 (got '1')" audit guava --keys 1000 --rate 0.01 --max-filters 1
# bloomfilter.js at 10^9 keys and 1% (9.6e9 bits): 1.1.0 throws a RangeError past 2^32
# bits; 0.0.21 builds it but loses keys past 2^31 bits, which bloomsim does not build.
expect_error 2 "audit: bloomfilter-js (sizing rule bloomfilter-js-1.1.0) cannot design 1000000000 keys at 0.01: bloomfilter.js 1.1.0 throws RangeError past 2^32 bits (assertBitSize: \"m must be a positive finite number of bits no greater than 4294967296.\")" audit bloomfilter-js --keys 1000000000 --rate 0.01
expect_error 2 "which its scheme bloomfilter-js-0.0.21 cannot build: past 2^31 bits bloomfilter.js 0.0.21 loses inserted keys: it indexes its Int32Array with a signed shift, so every key with a probe at or past 2^31 tests absent (false negatives)" audit bloomfilter-js-0.0.21 --keys 1000000000 --rate 0.01
# --max-filters is the most it builds, the first batch too; a target it misses is said
# (here: a spread of 2 filters is too few to trust), exit 3 (issue 37); a target beyond
# every limit is refused before any work (issues 19 and 20).
"$B" audit guava --keys 1000 --rate 0.01 --max-filters 2 --threads 2 > "$tmp/audit"; \
    [ $? -eq 3 ] && grep -q "^             2 filters, lookups estimator$" "$tmp/audit" \
    && grep -q "^  target     not reached: .* 2 filters (at least 8 are needed" "$tmp/audit" \
    && ok || bad "audit --max-filters 2: $(cat "$tmp/audit")"
"$B" audit guava --keys 1000 --rate 0.01 --threads 2 > "$tmp/audit" \
    && ! grep -q "^  target" "$tmp/audit" && ok || bad "audit: a target met said missed"
expect_error 2 "needs about 9.9e+19 lookups, more than 1000 filters of at most 2^36 lookups each can make (got '--precision 1e-09')" audit guava --keys 1000 --rate 0.01 --precision 1e-9
expect_error 2 "only" audit bendersky --keys 1000000000000 --rate 0.01
expect_error 2 "audit: unknown argument (got '--bits')" audit guava --bits 1000
# Parquet's split-block formula at 10^6 keys and 1%: c = -8 / ln(1 - 0.01^(1/8)) = 9.6815 bits
# per key (apache/parquet-format issue #547), 37,819 blocks of 256 bits; that size delivers
# 1.463% (rate_split_block_exact), not the 1% promised. The exact size is 10.53 bits per
# key, the 10.5 of Parquet's table.
"$B" size --keys 1000000 --rate 0.01 --rule split-block-formula > "$tmp/size"
grep -q "^m = 9681664 bits (9.682 bits per key), k = 8, 1210208 bytes$" "$tmp/size" \
    && grep -q "^promised         0.01$" "$tmp/size" \
    && grep -q "^delivered        0.01462617" "$tmp/size" \
    && grep -q "^delivered / promised = 1.463$" "$tmp/size" \
    && ok || bad "size --rule split-block-formula: $(cat "$tmp/size")"
"$B" size --keys 1000000 --rate 0.01 --rule split-block-exact > "$tmp/size"
grep -q "^m = 10529280 bits (10.53 bits per key), k = 8, 1316160 bytes$" "$tmp/size" \
    && grep -q "^formula size     9681664 bits" "$tmp/size" \
    && ok || bad "size --rule split-block-exact: $(cat "$tmp/size")"
expect_error 2 "--rule must be a sizing rule: calculateparams, guava, split-block-formula, split-block-exact, blocked-exact, " size --keys 100 --rate 0.01 --rule split-block
expect_error 2 "--block-bits and --k apply only to the block rules (got '--rule guava')" size --keys 100 --rate 0.01 --rule guava --k 3
expect_error 2 "split-block needs k dividing the block bits" size --keys 100 --rate 0.01 --rule split-block-exact --k 7
expect_error 2 "--k must be a whole number from 1 to 1000 (got '0')" size --keys 100 --rate 0.01 --rule blocked-exact --k 0
# Library rules (issue 12): Parquet/Arrow's sbbf sizes 10^6 keys at 1% as (int)9,681,526.7
# bits, rounded up to a power of two: 2^24 bits, 2 MiB.
"$B" size --keys 1000000 --rate 0.01 --rule sbbf > "$tmp/size"
grep -q "^m = 16777216 bits (16.78 bits per key), k = 8, 2097152 bytes$" "$tmp/size" \
    && grep -q "^the library computes 9681526 bits; its filter indexes 16777216 bits$" "$tmp/size" \
    && grep -q "^promised         0.01$" "$tmp/size" \
    && grep -q "^delivered        0.00103457" "$tmp/size" \
    && ok || bad "size --rule sbbf: $(cat "$tmp/size")"
# LevelDB takes whole bits per key: 1% becomes ceil(9.585) = 10, k = (int)(10 * 0.69) = 6.
"$B" size --keys 1000 --rate 0.01 --rule leveldb > "$tmp/size"
grep -q "^m = 10000 bits (10 bits per key), k = 6, 1250 bytes$" "$tmp/size" \
    && grep -q "^the library takes bits per key, not a rate: P becomes -ln P / ln^2 2 = 9.58506" "$tmp/size" \
    && ok || bad "size --rule leveldb: $(cat "$tmp/size")"
# Cassandra at 1%: 10 buckets per element, K = 5; 10,020 bits in 157 words.
"$B" size --keys 1000 --rate 0.01 --rule cassandra | grep -q "^m = 10048 bits (10.05 bits per key), k = 5," \
    && ok || bad "size --rule cassandra"
for r in leveldb rocksdb-fastlocal rocksdb-fastlocal-9.2 rocksdb-legacy sbbf parquet-java \
         parquet-java-fixed kudu-block kudu-block-1.13 spark orc redisson bits-and-blooms \
         cassandra libbloom rust-bloomfilter fastbloom hadoop; do
    "$B" size --keys 100000 --rate 0.01 --rule $r | grep -q "^promised         0.01$" \
        && ok || bad "size --rule $r"
done
# Each library rule's delivered (or "ideal hashing", where a library departs) rate names
# the structure it is computed over: 512-bit lines or blocks, 256-bit split blocks,
# slices, or independent probes over m bits.
for pair in hive-bloomk:512-bit rocksdb-fastlocal:512-bit rocksdb-fastlocal-9.2:512-bit \
            rocksdb-legacy:512-bit sbbf:split-block parquet-java:split-block \
            kudu-block:split-block kudu-block-1.13:split-block pybloom-live:slices \
            spark:independent libbloom:independent bloomfilter-js:independent; do
    r=${pair%%:*} want=${pair#*:}
    rate=0.01
    [ "$r" = hive-bloomk ] && rate=0.05 # BloomKFilter takes no rate: always 0.05
    "$B" size --keys 100000 --rate $rate --rule "$r" | grep -E "^(delivered|ideal hashing)  " | grep -q -- "$want" \
        && ok || bad "size --rule $r: the delivered rate does not say '$want'"
done
expect_error 2 "the library refuses a target rate this low (Cassandra: below 6.71e-05)" size --keys 1000 --rate 1e-5 --rule cassandra
expect_error 2 "libbloom refuses it: bloom_init takes 1000 to 2^32 - 1 entries" size --keys 999 --rate 0.01 --rule libbloom
expect_error 2 "the library builds no filter at this rate" size --keys 1000 --rate 0.9 --rule rocksdb-fastlocal
# Fingerprint filters (issue 21): the seed's first design, 500 keys at 1%. A quotient
# filter at threshold 0.8 takes 2^10 slots (819 keys before it doubles) and 6-bit
# remainders (500 2^-16 = 0.0076); 9 bits a slot with the 3 metadata bits, over 1024 + 20
# extension slots. InfiniFilter's field has one bit more, its age mark; the cuckoo filter
# takes 256 buckets (500/4 -> 128, load 0.977 > 0.96: doubled) of 9-bit tags.
"$B" size --keys 500 --rate 0.01 --filter quotient > "$tmp/size"
grep -q "^q = 10: 1024 slots (+ 20 extension slots), expands after 819 keys$" "$tmp/size" \
    && grep -q "^r = 6 remainder bits, 3 metadata bits a slot: 9 bits a slot$" "$tmp/size" \
    && grep -q "^bits = 9396 (18.79 bits per key), 1175 bytes$" "$tmp/size" \
    && grep -q "^exact            0.00760042" "$tmp/size" \
    && grep -q "refuses keys past 52428$" "$tmp/size" \
    && ok || bad "size --filter quotient: $(cat "$tmp/size")"
"$B" size --keys 500 --rate 0.01 --filter infinifilter | grep -q "^F = 7-bit fingerprint field (1 age bit, 6 hash bits)" \
    && ok || bad "size --filter infinifilter"
"$B" size --keys 500 --rate 0.01 --filter cuckoo > "$tmp/size"
grep -q "^256 buckets of 4 slots (1024 slots, load 0.4883)" "$tmp/size" \
    && grep -q "^f = 9 tag bits: 5 bytes a bucket$" "$tmp/size" \
    && grep -q "^bits = 10240 (20.48 bits per key)" "$tmp/size" \
    && ok || bad "size --filter cuckoo: $(cat "$tmp/size")"
"$B" size --keys 500 --filter quotient --fingerprint-bits 3 | grep -q "^r = 3 remainder bits" \
    && ok || bad "size --filter quotient --fingerprint-bits 3"
expect_error 2 "size: --load-threshold must be a load above 0 and at most 1, e.g. 0.8 (got '1.5')" size --keys 500 --rate 0.01 --filter quotient --load-threshold 1.5
expect_error 2 "size: --load-threshold must be a load above 0 and at most 1, e.g. 0.8 (got '0')" size --keys 500 --rate 0.01 --filter aleph --load-threshold 0
expect_error 2 "size: --fingerprint-bits must be a whole number of bits from 1 to 64 (got '0')" size --keys 500 --rate 0.01 --filter quotient --fingerprint-bits 0
expect_error 2 "size: --fingerprint-bits must be a whole number of bits from 1 to 64 (got '65')" size --keys 500 --rate 0.01 --filter quotient --fingerprint-bits 65
expect_error 2 "fingerprint bits outside what the filter takes" size --keys 500 --filter cuckoo --fingerprint-bits 33
# the names, in registry order, as `bloomsim list` shows them
fp_names=$("$B" list | sed -n '/^fingerprint filters/,/^$/p' | awk 'NR > 1 && NF { print $1 }' | paste -sd, - | sed 's/,/, /g')
expect_error 2 "size: --filter must be a fingerprint filter: $fp_names (got 'bloom')" size --keys 500 --rate 0.01 --filter bloom
expect_error 2 "size: --load-threshold and --fingerprint-bits go with --filter (got no --filter)" size --keys 500 --rate 0.01 --load-threshold 0.9
expect_error 2 "--block-bits and --k apply only to the block rules (got '--rule sbbf')" size --keys 100 --rate 0.01 --rule sbbf --k 8
# Bits per key as RocksDB takes them: 10^6 keys at 10 bits per key are 1,250,000 bytes,
# 19,532 cache lines of 64 bytes; ChooseNumProbes(10000) = 6.
"$B" size --keys 1000000 --bits-per-key 10 --rule rocksdb-fastlocal > "$tmp/size"
grep -q "^m = 10000384 bits (10 bits per key), k = 6, 1250048 bytes$" "$tmp/size" \
    && grep -q "^promised         (none: the library takes bits per key, not a rate)$" "$tmp/size" \
    && ok || bad "size --bits-per-key: $(cat "$tmp/size")"
expect_error 2 "bits per key apply only to leveldb (a whole number >= 0)" size --keys 1000 --bits-per-key 9.5 --rule leveldb
expect_error 2 "give --rate or --bits-per-key, not both" size --keys 1000 --bits-per-key 10 --rate 0.01 --rule leveldb
for c in list run exact probes crossread size; do
    "$B" $c --help > "$tmp/help" 2>&1 && grep -q "usage: bloomsim $c" "$tmp/help" && ok || bad "$c --help"
done

# Probe positions worked by hand: 14 + 5i mod 16.
[ "$("$B" probes double --bits 16 --k 4 --h1 14 --h2 5 | tail -1)" = "14 3 8 13" ] && ok || bad "probes double"
# blocked: 4,096 bits in 8 blocks of 512; block 5 is bits 2560..3071, draws are offsets in it.
"$B" probes blocked --bits 4096 --k 3 --h1 5 --draws 0,511,17 > "$tmp/p"
grep -q "block 5 of 8 (bits 2560..3071)" "$tmp/p" && [ "$(tail -1 "$tmp/p")" = "2560 3071 2577" ] && ok || bad "probes blocked"
# split-block, blocks of 256 in 8 words of 32: block 2 from 512, word i from 512 + 32i.
[ "$("$B" probes split-block --bits 1024 --k 8 --h1 2 --draws 0,1,2,3,31,30,29,28 | tail -1)" = "512 545 578 611 671 702 733 764" ] && ok || bad "probes split-block"
# double-prime at a requested 16 bits uses 13: 4 + 6i mod 13.
"$B" probes double-prime --bits 16 --k 4 --h1 4 --h2 6 > "$tmp/p"
grep -q "m = 13 (requested 16)" "$tmp/p" && [ "$(tail -1 "$tmp/p")" = "4 10 3 9" ] && ok || bad "probes double-prime"

# crossread: bad input, one line naming the flag and value, exit 2, nothing on stdout.
X="--bits 4096 --keys 400 --k 6 --filters 4 --queries 1000"
expect_error 2 "crossread: --writer is required (got nothing)" crossread --reader double $X
expect_error 2 "crossread: --reader: unknown scheme (got 'quadruple')" crossread --writer double --reader quadruple $X
expect_error 2 "crossread: --writer independent draws its positions afresh" crossread --writer independent --reader double $X
expect_error 2 "crossread: --reader double-even refuses the words a digest gives it" crossread --writer double --reader double-even $X
expect_error 2 "crossread: --reader double-odd at bits = 4000, k = 7: the scheme needs a power-of-two number of bits (got '4000')" crossread --writer double --reader double-odd --bits 4000 --keys 400
expect_error 2 "crossread: --filters must be a whole number from 2 to 10^8 (got '1')" crossread --writer double --reader enhanced --bits 4096 --keys 400 --filters 1
expect_error 2 "crossread: --bits and --keys are required (got no --keys)" crossread --writer double --reader enhanced --bits 4096
[ ! -s "$tmp/stdout" ] && ok || bad "crossread printed on a refusal: $(cat "$tmp/stdout")"
if (ulimit -v 524288 && "$B" --version) > /dev/null 2>&1; then
    (ulimit -v 524288; fail=0; expect_error 2 "crossread: 8589934592-bit filters need 1.0 GiB (an array a thread, 1 threads), only" crossread --writer double --reader enhanced --bits 8589934592 --keys 1000 --threads 1; exit $fail) \
        && ok || fail=$((fail + 1))
fi
# The same output on 1 and 2 threads; double read as enhanced shares probes 0 and 1 and
# no other (they part by (i^3 - i)/6 = 1, 4, 10, 20 from probe 2 on); a control reads
# every held key.
"$B" crossread --writer double --reader enhanced $X --threads 1 > "$tmp/x1" &&
    "$B" crossread --writer double --reader enhanced $X --threads 2 > "$tmp/x2" &&
    cmp -s "$tmp/x1" "$tmp/x2" && ok || bad "crossread differs between 1 and 2 threads"
grep -q "^agree      1 1 0 0 0 0$" "$tmp/x1" && ok || bad "crossread double/enhanced: $(grep agree "$tmp/x1")"
"$B" crossread --writer guava32 --reader guava32 $X > "$tmp/x1" &&
    grep -q "^absent     0  .* 0 of 1600 held keys read as absent$" "$tmp/x1" && ok ||
    bad "crossread control: $(cat "$tmp/x1")"

# exact --block-bits: both blocked schemes, their exact rates and the approximations.
"$B" exact --bits 5120000 --keys 512000 --k 8 --block-bits 256 > "$tmp/exact"
grep -q "^blocked  *0.01216482868523" "$tmp/exact" && grep -q "^split-block  *0.01264827466162" "$tmp/exact" \
    && grep -q "CacheLocalFpRate" "$tmp/exact" && grep -q "sizing formula" "$tmp/exact" && ok || bad "exact --block-bits: $(cat "$tmp/exact")"
# A refusal comes alone: nothing printed before it (issue 20).
expect_error 2 "exact: blocked with --block-bits 100: block size must be a power of two" exact --bits 4096 --keys 400 --block-bits 100
[ ! -s "$tmp/stdout" ] && ok || bad "exact --block-bits 100 printed before refusing: $(head -2 "$tmp/stdout")"
"$B" exact --bits 4096 --keys 205 --k 14 > "$tmp/exact" && grep -q "^exact (DP)" "$tmp/exact" \
    && grep -q "^exact (moments)" "$tmp/exact" && ok || bad "exact: $(cat "$tmp/exact")"
"$B" list > "$tmp/list" && for e in exact-vs-formula floor-4096 floor-65536 stride-zero guava hash32; do
    grep -q "^  $e " "$tmp/list" && ok || bad "list lacks $e"
done

# Determinism across thread counts: one thread's table is the golden file's, which
# golden.sh pins to a 2-thread run of this binary; quiet in a pipe (nothing on stderr).
# guava and hash32 build each filter on all threads (EST_SHARED_BITS).
for e in guava hash32 floor-4096 exact-vs-formula; do
    "$B" run $e --quick --threads 1 --out "$tmp/t1" > /dev/null 2> "$tmp/err1"
    if strip_seconds "$tmp/t1/$e.quick.csv" > "$tmp/a" && cmp -s "$tmp/a" "tests/golden/$e.csv"; then
        ok
    else
        bad "$e: CSV at 1 thread differs from tests/golden/$e.csv (2 threads)"
    fi
    [ ! -s "$tmp/err1" ] && ok || bad "$e printed on stderr in a pipe"
    [ -f "$tmp/t1/$e.quick.meta" ] && grep -q "^seed = 1$" "$tmp/t1/$e.quick.meta" && ok || bad "$e metadata"
    [ ! -e "$tmp/t1/$e.quick.csv.partial" ] && ok || bad "$e left a partial file"
done
# A different seed gives a different table (the comparison above is not vacuous).
"$B" run floor-4096 --quick --seed 2 --out "$tmp/s2" > /dev/null 2>&1
strip_seconds "$tmp/s2/floor-4096.quick.csv" > "$tmp/c"
cmp -s "$tmp/a" "$tmp/c" && bad "seed 2 gave the same CSV as seed 1" || ok
# Row count: 90 rows plus the header; the header is the column list of `bloomsim
# columns` (csv.h), in order.
[ "$(wc -l < "$tmp/t1/floor-4096.quick.csv")" -eq 91 ] && ok || bad "floor-4096 row count"
[ "$(head -1 "$tmp/t1/floor-4096.quick.csv" | tr -d '\r')" = "$("$B" columns | awk '{ printf "%s%s", (NR > 1 ? "," : ""), $1 } END { print "" }')" ] \
    && ok || bad "CSV header is not the column list"

# --quick means seconds for a file without [quick] (issue 20): filters and lookups are
# capped, and so is a precision target's growth (at most 5 times the first batch), here
# past reach with 10^7 filters allowed.
cat > "$tmp/noquick.ini" <<INI
[sweep]
bits = 4096
bits_per_key = 8
schemes = independent
filters = 2
lookups = 10000
precision = 1e-6
max_filters = 1e7
INI
timeout 20 "$B" run "$tmp/noquick.ini" --quick --out "$tmp/nq" > /dev/null 2>&1 \
    && [ "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "filters") c = i }
                     NR == 2 { print $c }' "$tmp/nq/noquick.quick.csv")" = 10 ] \
    && ok || bad "--quick without [quick]: not capped at 10 filters"

finish
