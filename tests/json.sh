#!/bin/sh
# json.sh BLOOMSIM - the --json output of audit, audit --exec, size, exact, probes and
# crossread (docs/json.md), from the source root by meson test:
#  - every command's object, in each of its forms, parses with Python's json module and
#    keeps to docs/json.md's tables, read from the page itself (tests/json_check.py):
#    every key documented, of its type, the "always" ones present; every number the
#    text of the same run (same arguments, same seed, one thread) prints is in it to the
#    digits printed; and every documented key appears in some output here;
#  - the checker itself fails on a key removed, a key added and a number changed;
#  - doubles round-trip: the JSON's exact rates are the text's %.17g values exactly;
#  - size says what it computes where a library departs: Spark's rule at 10^9 keys and
#    0.001 prints spark-v1's own rate, its model, at the committed libraries-big
#    table's model value, hundreds of times the promise, and the ideal rate is labelled
#    as such (no "delivered / promised = 1");
#  - bad input with --json: one line, exit 2, nothing on stdout.
set -u
B=$1
. tests/lib.sh
SCHEMA=docs/json.md

# pair NAME ARGS...: bloomsim ARGS and ARGS --json, both exiting $want (0 unless the
# caller sets want: 3 for a target not reached), checked together.
pair() {
    name=$1
    shift
    st=0
    "$B" "$@" > "$tmp/$name.txt" 2> "$tmp/err" || st=$?
    if [ "$st" -ne "${want:-0}" ]; then
        bad "$*: exited $st, not ${want:-0}: $(cat "$tmp/err")"
        return
    fi
    st=0
    "$B" "$@" --json > "$tmp/$name.json" 2> "$tmp/err" || st=$?
    if [ "$st" -ne "${want:-0}" ]; then
        bad "$* --json: exited $st, not ${want:-0}: $(cat "$tmp/err")"
        rm -f "$tmp/$name.json"
        return
    fi
    out=$(python3 tests/json_check.py "$SCHEMA" "$tmp/$name.json" "$tmp/$name.txt") \
        && ok || bad "$* --json: $out"
}

pair exact exact --bits 1000 --keys 100 --block-bits 64
pair exact-split exact --bits 4096 --keys 300 --block-bits 512 --k 8
pair probes-blocked probes blocked --bits 4096 --k 3 --h1 2 --draws 1,2,3
pair probes-double probes double --bits 1000 --k 3 --h1 2 --h2 5
pair probes-split probes double-odd --bits 65536 --k 3 --split fnv1a64 --key key7
pair probes-split-int probes enhanced --bits 256 --k 2 --split mulshift-mixed --key-int 1
pair crossread crossread --writer double-odd --reader double-prime --bits 4096 --keys 400 \
    --k 6 --filters 4 --queries 2000 --threads 1
pair size-plain size --keys 1e6 --rate 0.01
pair size-huge size --keys 2e11 --rate 0.01
pair size-spark size --rule spark --keys 1e9 --rate 0.001
pair size-redisson size --keys 1e5 --rate 0.01 --rule redisson
pair size-sbbf size --keys 1e5 --rate 0.01 --rule sbbf
pair size-leveldb size --keys 1e3 --rate 0.01 --rule leveldb
pair size-bpk size --keys 1e6 --bits-per-key 10 --rule leveldb
pair size-split-exact size --keys 1e6 --rate 0.01 --rule split-block-exact
pair size-split-formula size --keys 1e6 --rate 0.01 --rule split-block-formula
pair size-blocked size --keys 1e5 --rate 0.01 --rule blocked-exact --k 6
pair size-quotient size --keys 500 --rate 0.01 --filter quotient
pair size-quotient-bits size --keys 500 --filter quotient --fingerprint-bits 8
pair size-cuckoo size --keys 500 --rate 0.01 --filter cuckoo
pair audit-guava audit guava --keys 1e4 --rate 0.01 --threads 1
pair audit-rocksdb audit rocksdb --keys 1e4 --rate 0.01 --threads 1
pair audit-chain audit redisbloom-sbchain --keys 1e4 --threads 1
pair audit-chain-py audit pybloom-live-scalable --keys 3000 --capacity 100 --rate 0.01 \
    --expansion 2 --threads 1
pair audit-chain-valkey audit valkey-bloom --keys 3000 --tightening 0.25 --threads 1
pair audit-bpk audit leveldb --keys 1e4 --bits-per-key 10 --threads 1
pair audit-real audit leveldb --keys 1e4 --rate 0.01 --key-set seq-str --threads 1
seq 1 1800 | sed 's/^/user:/' > "$tmp/keys.txt"
want=3 pair audit-file-short audit guava --keys 1000 --rate 0.01 --key-set file \
    --key-file "$tmp/keys.txt" --threads 1
want=3 pair audit-short audit guava --keys 1e4 --rate 0.01 --threads 1 --max-filters 2 \
    --precision 0.002
pair exec audit --exec "$B adapter libbloom" --keys 10000 --rate 0.01
pair exec-bpk audit --exec "$B adapter leveldb" --keys 10000 --bits-per-key 10 \
    --key-set seq-str
pair exec-fp audit --exec "$B adapter bloom-filters-xor" --keys 10000 --fingerprint-bits 8 \
    --precision 0.1
want=3 pair exec-file-short audit --exec "$B adapter guava" --keys 1000 --rate 0.01 \
    --key-set file --key-file "$tmp/keys.txt"
want=3 pair exec-short audit --exec "$B adapter libbloom" --keys 1000 --rate 0.1 \
    --precision 0.004 --max-filters 2
out=$(python3 tests/json_check.py --coverage "$SCHEMA" "$tmp"/*.json) && ok || bad "$out"

# The checker fails where it should: a key gone, a key not documented, a number moved.
mutate() {
    python3 -c "import json, sys
d = json.load(open('$tmp/exact.json'))
$1
json.dump(d, open('$tmp/mutated.json', 'w'))"
    python3 tests/json_check.py "$SCHEMA" "$tmp/mutated.json" "$tmp/exact.txt" \
        > /dev/null && bad "json_check.py passed $2" || ok
}
mutate "del d['formula']" "an object without its formula"
mutate "d['extra'] = 1" "an undocumented key"
mutate "d['formula_finite'] *= 1.001" "a number the text does not show"
mutate "d['k'] = 'seven'" "a string for an integer"

# Round trip: the JSON's doubles are the text's %.17g values, bit for bit.
python3 -c "import json
d = json.load(open('$tmp/exact.json'))
t = {l[:17].strip(): l[17:].split()[0] for l in open('$tmp/exact.txt') if l[17:18] not in ' '}
assert d['formula'] == float(t['formula']), (d['formula'], t['formula'])
assert d['formula_finite'] == float(t['formula_finite'])
assert d['exact_dp'] == float(t['exact (DP)'])" && ok || bad "exact --json: a double that does not round-trip"

# size says what it computes: Spark's V1 at the design of results/libraries-big.csv.
model=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["library"] == "spark-v1" { print $c["model"] }' results/libraries-big.csv)
python3 -c "import json
d = json.load(open('$tmp/size-spark.json'))
v1 = [l for l in d['libraries'] if l['name'] == 'spark-v1'][0]
assert v1['departs'] and abs(v1['model'] - $model) <= 1e-12 * $model, v1
assert v1['model_over_promised'] > 900, v1
assert abs(d['ideal']['over_promised'] - 1) < 1e-3, d['ideal']" \
    && ok || bad "size --rule spark --json: spark-v1 not at the table's model $model"
grep -q "^library spark-v1 0\.90897.* 909 times the promise$" "$tmp/size-spark.txt" \
    && grep -q "^ideal / promised = 1 (with ideal hashing; each library's own rate follows)$" \
        "$tmp/size-spark.txt" \
    && ! grep -q "^delivered" "$tmp/size-spark.txt" \
    && ok || bad "size --rule spark: $(cat "$tmp/size-spark.txt")"
grep -q "^library redisson departs from ideal hashing and has no model: measure it with bloomsim audit redisson$" \
    "$tmp/size-redisson.txt" && ok || bad "size --rule redisson: $(cat "$tmp/size-redisson.txt")"
# A rule no library departs from keeps its lines.
"$B" size --keys 1e5 --rate 0.01 --rule cassandra > "$tmp/size"
grep -q "^delivered / promised = " "$tmp/size" && ! grep -q "^library" "$tmp/size" \
    && ok || bad "size --rule cassandra: $(cat "$tmp/size")"

# Bad input with --json: the usual line and status, no JSON.
expect_error 2 "exact: --bits and --keys are required" exact --keys 10 --json
[ -s "$tmp/stdout" ] && bad "exact --json on bad input wrote stdout" || ok
expect_error 2 "size: --rule must be a sizing rule" size --keys 10 --rate 0.1 --rule nope --json
[ -s "$tmp/stdout" ] && bad "size --json on bad input wrote stdout" || ok
expect_error 2 "probes: unknown scheme" probes nope --bits 10 --k 2 --json
expect_error 2 "audit: unknown library" audit nope --keys 10 --rate 0.1 --json

finish
