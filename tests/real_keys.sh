#!/bin/sh
# real_keys.sh BLOOMSIM [MPIRUN] - real keys through the libraries' own hashes end to end
# (issue 22; docs/model.md, Key sets and real hashes):
#  - `audit --key-set` for each key set, `--bits-per-key` for the libraries configured so,
#    the same measured line at 1 and 2 threads;
#  - a sweep with key_sets: ideal and real rows side by side, each row naming its key set
#    and hash, the same table at 1 and 2 threads (and under mpirun with 2 ranks, where
#    given);
#  - filter-bench: at most n queries a filter, more filters past them;
#  - bad input: an unknown key set, an unreadable or too short key file, a library without
#    a real hash, byte keys for a text-only library, too many filter-bench keys, options
#    that do not go together: one line, exit 2, nothing written.
set -u
B=$1
MPIRUN=${2:-}
. tests/lib.sh

# audit with each key set, at 1 and 2 threads.
seq 1 30000 | sed 's/^/user:/' > "$tmp/keys.txt"
for set in seq seq-str random uuid filter-bench url file; do
    extra=""
    [ "$set" = file ] && extra="--key-file $tmp/keys.txt"
    [ "$set" = seq-str ] && extra="--key-prefix id-"
    for t in 1 2; do
        # shellcheck disable=SC2086
        "$B" audit guava --keys 10000 --rate 0.01 --precision 0.1 --key-set $set $extra \
            --threads $t > "$tmp/a$t" 2> "$tmp/err" || bad "audit --key-set $set: $(cat "$tmp/err")"
    done
    grep -q "^  keys       $set" "$tmp/a1" && grep -q "^  hash       Murmur3_x64_128 (Guava)" "$tmp/a1" \
        && grep -q "^Real keys through the library's own hash" "$tmp/a1" \
        && ok || bad "audit --key-set $set: $(cat "$tmp/a1")"
    [ "$(grep '^  measured' "$tmp/a1")" = "$(grep '^  measured' "$tmp/a2")" ] && ok \
        || bad "audit --key-set $set: 1 and 2 threads differ"
done
grep -q "^  keys       file $tmp/keys.txt (30000 lines)" "$tmp/a1" && ok || bad "audit file: $(cat "$tmp/a1")"
# A key file: one filter asked a stated range of its lines after the inserted ones
# (the default at 10%: 9,872 of its 20,000), an exact count; a file too short for the
# default range at 1% gives all its lines in whole ranges, and says its target was not
# reached (exit 3).
lk=$(sed -n 's/^ *measured .* exact: [0-9]* false positives in those \([0-9]*\) queries/\1/p' "$tmp/a1")
[ -n "$lk" ] && [ "$lk" -le 20000 ] && ok || bad "audit file: $lk lookups from 20000 lines: $(cat "$tmp/a1")"
"$B" audit guava --keys 10000 --rate 0.01 --precision 0.01 --key-set file --key-file "$tmp/keys.txt" \
    --threads 2 > "$tmp/a" 2> "$tmp/err"; [ $? -eq 3 ] && grep -q "^  target     not reached" "$tmp/a" \
    && grep -q "^  queries    the 20000 keys after the 10000 inserted: user:10001 to user:30000" "$tmp/a" \
    && grep -q "all the key file holds after them" "$tmp/a" \
    && ok || bad "audit file, short: $(cat "$tmp/a" "$tmp/err")"

# filter-bench asks a filter at most its n queries: past them the precision rule builds
# more filters (2,000 keys at 10 bits per key, 3%: about 70 filters of 2,000 lookups).
"$B" audit rocksdb-legacy --keys 2000 --bits-per-key 10 --key-set filter-bench --precision 0.03 \
    --threads 2 > "$tmp/a" 2> "$tmp/err"
f=$(sed -n 's/^ *\([0-9]*\) filters, lookups estimator/\1/p' "$tmp/a")
lk=$(sed -n 's/^ *\([0-9]*\) lookups, .*/\1/p' "$tmp/a")
[ -n "$f" ] && [ "$f" -gt 8 ] && [ "$lk" -le $((f * 2000)) ] && ! grep -q "not reached" "$tmp/a" \
    && ok || bad "audit filter-bench, 3%: $f filters, $lk lookups: $(cat "$tmp/a" "$tmp/err")"

# A stated range (issue 37): LevelDB's and RocksDB's legacy filter on seq-str keys, one
# filter each, give over the range they print the same exact count whatever --precision
# asks: the default range of one precision, asked with --queries under another, gives
# the same lines; the count is that of a key file holding those very keys; and an
# experiment row of such keys with a precision target asks its 8 batches, no more.
for lib in leveldb rocksdb-legacy; do
    for pr in 0.05 0.01; do
        other=$([ "$pr" = 0.05 ] && echo 0.005 || echo 0.2)
        "$B" audit $lib --keys 100000 --bits-per-key 10 --key-set seq-str --precision $pr \
            --threads 2 > "$tmp/r1" 2> "$tmp/err"
        q=$(sed -n 's/^  queries    the \([0-9]*\) keys after the 100000 inserted: key100000 to key.*/\1/p' "$tmp/r1")
        "$B" audit $lib --keys 100000 --bits-per-key 10 --key-set seq-str --precision $other \
            --queries "$q" --threads 1 > "$tmp/r2" 2> "$tmp/err"
        m1=$(grep -A3 '^  measured' "$tmp/r1")
        [ -n "$q" ] && [ -n "$m1" ] && [ "$m1" = "$(grep -A3 '^  measured' "$tmp/r2")" ] \
            && grep -q "^  queries    the $q keys after the 100000 inserted: key100000 to key$((100000 + q - 1))$" "$tmp/r2" \
            && ok || bad "audit $lib seq-str, range of --precision $pr asked at $other: $(cat "$tmp/r1" "$tmp/r2" "$tmp/err")"
    done
    # the same keys from a file: key0 ... key(n + q - 1)
    awk -v n=$((100000 + q)) 'BEGIN { for (i = 0; i < n; i++) print "key" i }' > "$tmp/sk.txt"
    "$B" audit $lib --keys 100000 --bits-per-key 10 --key-set file --key-file "$tmp/sk.txt" \
        --queries "$q" --threads 2 > "$tmp/r3" 2> "$tmp/err"
    c1=$(sed -n 's/.* exact: \([0-9]*\) false positives in those .*/\1/p' "$tmp/r2")
    [ -n "$c1" ] && [ "$c1" = "$(sed -n 's/.* exact: \([0-9]*\) false positives in those .*/\1/p' "$tmp/r3")" ] \
        && ok || bad "audit $lib: seq-str and a file of the same keys differ: $(cat "$tmp/r2" "$tmp/r3" "$tmp/err")"
done
"$B" audit leveldb --keys 1000 --rate 0.01 --key-set seq --queries 1000 --precision 0.5 \
    > "$tmp/r1" && grep -q "^  queries    the 1000 keys after the 1000 inserted: 1000 to 1999$" "$tmp/r1" \
    && grep -q "^             (--queries)$" "$tmp/r1" && ! grep -q "95% interval" "$tmp/r1" \
    && ok || bad "audit --queries: $(cat "$tmp/r1")"
cat > "$tmp/range.ini" <<'EOF'
[experiment]
title = a one-filter row with a precision target
[sweep]
design_keys = 20000
design_rate = 0.01
libraries = leveldb
key_sets = seq-str
filters = 2
lookups = 20000
precision = 0.001
EOF
"$B" run "$tmp/range.ini" --threads 2 --out "$tmp/range" > /dev/null 2> "$tmp/err" \
    && [ "$(awk -F, 'NR == 2 { print $8, $9 }' "$tmp/range/range.csv")" = "8 80000" ] \
    && ok || bad "run: a one-filter row grew past its 8 batches: $(cat "$tmp/err" "$tmp/range/range.csv")"

# --bits-per-key: LevelDB's NewBloomFilterPolicy(10) is 10 bits a key, k = 6.
"$B" audit leveldb --keys 20000 --bits-per-key 10 --key-set seq-str --precision 0.1 --threads 2 \
    > "$tmp/a" 2> "$tmp/err" && grep -q "m = 200000 bits" "$tmp/a" && grep -q "k = 6," "$tmp/a" \
    && grep -q "^  promised   none: configured by 10 bits per key" "$tmp/a" \
    && ok || bad "audit leveldb --bits-per-key 10: $(cat "$tmp/a" "$tmp/err")"
"$B" audit rocksdb --keys 20000 --bits-per-key 10 --precision 0.1 --threads 2 > "$tmp/a" \
    && grep -q "^Ideal uniform hash words" "$tmp/a" && ok || bad "audit rocksdb --bits-per-key: $(cat "$tmp/a")"

# url keys through two libraries, beside ideal words: the same table at 1 and 2 threads,
# each real row naming the key set and the hash.
cat > "$tmp/url.ini" <<'EOF'
[experiment]
title = url keys
[sweep]
design_keys = 20000
design_rate = 0.01
libraries = leveldb, bloomfilter-js
key_sets = ideal, url
filters = 4
lookups = 200000
EOF
for t in 1 2; do
    "$B" run "$tmp/url.ini" --threads $t --out "$tmp/u$t" > /dev/null 2> "$tmp/err" \
        || bad "run url at $t threads: $(cat "$tmp/err")"
    strip_seconds "$tmp/u$t/url.csv" > "$tmp/url$t.csv"
done
cmp -s "$tmp/url1.csv" "$tmp/url2.csv" && ok || bad "url: 1 and 2 threads differ"
[ "$(grep -c '; keys url; hash ' "$tmp/url1.csv")" -eq 2 ] && [ "$(wc -l < "$tmp/url1.csv")" -eq 5 ] \
    && ok || bad "url: rows do not name the key set: $(cut -c1-80 "$tmp/url1.csv")"

# A sweep with key_sets: rows side by side, naming key set and hash; 1 and 2 threads.
# keys0.txt holds the seq-str keys user:0, user:1, ... as lines: the file key set (its
# path relative to the experiment file) must give the seq-str rows' counts exactly.
seq 0 819999 | sed 's/^/user:/' > "$tmp/keys0.txt"
cat > "$tmp/rk.ini" <<'EOF'
[experiment]
title = real keys beside ideal words
[sweep]
design_keys = 20000
design_rate = 0.01
libraries = leveldb, bloomfilter-js
key_sets = ideal, seq, seq-str, random, uuid, file
key_prefix = user:
key_file = keys0.txt
filters = 4
lookups = 200000

[sweep]                     ; filter-bench: byte keys, at most n queries a filter,
design_keys = 20000         ; then more filters for the precision (also under mpirun)
design_rate = 0.00074
libraries = rocksdb-legacy
key_sets = ideal, filter-bench
filters = 4
lookups = 200000
precision = 0.05
EOF
for t in 1 2; do
    "$B" run "$tmp/rk.ini" --threads $t --out "$tmp/t$t" > /dev/null 2> "$tmp/err" \
        || bad "run rk at $t threads: $(cat "$tmp/err")"
    strip_seconds "$tmp/t$t/rk.csv" > "$tmp/rk$t.csv"
done
cmp -s "$tmp/rk1.csv" "$tmp/rk2.csv" && ok || bad "rk: 1 and 2 threads differ"
[ "$(wc -l < "$tmp/rk1.csv")" -eq 15 ] && ok || bad "rk: $(wc -l < "$tmp/rk1.csv") lines, wanted 15"
for l in leveldb bloomfilter-js; do
    a=$(grep -F "\"$l; keys seq-str 'user:'" "$tmp/rk1.csv" | cut -d, -f8-11)
    b=$(grep -F "\"$l; keys file keys0.txt" "$tmp/rk1.csv" | cut -d, -f8-11)
    [ -n "$a" ] && [ "$a" = "$b" ] && ok || bad "rk: $l's file rows ($b) are not its seq-str rows ($a)"
done
grep -q "^key_file = keys0.txt$" "$tmp/t1/rk.meta" && ok || bad "rk: no key_file in the metadata"

grep -q ",leveldb,binomial\|,leveldb,spread" "$tmp/rk1.csv" \
    && grep -qF "\"leveldb; keys seq-str 'user:'; hash Hash (LevelDB BloomHash, seed 0xbc9f1d34)\"" "$tmp/rk1.csv" \
    && grep -qF "bloomfilter-js; keys uuid; hash FNV-1a 64 over UTF-16 units" "$tmp/rk1.csv" \
    && ok || bad "rk: rows do not name key set and hash: $(cut -c1-60 "$tmp/rk1.csv" | head -3)"
if [ -n "$MPIRUN" ]; then
    set -- -q --oversubscribe --mca btl_vader_single_copy_mechanism none
    if [ "$(id -u)" -eq 0 ]; then
        set -- "$@" --allow-run-as-root
        OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
        export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
    fi
    if "$MPIRUN" "$@" -np 2 "$B" run "$tmp/rk.ini" --threads 1 --out "$tmp/np2" > /dev/null 2> "$tmp/err"; then
        strip_seconds "$tmp/np2/rk.csv" > "$tmp/rknp.csv"
        cmp -s "$tmp/rk1.csv" "$tmp/rknp.csv" && ok || bad "rk: 2 ranks differ from one process"
    else
        bad "rk under mpirun: $(head -3 "$tmp/err")"
    fi
fi

# Bad input: one line, exit 2, nothing written. The key sets' names as messages list them,
# from the registry (bloomsim list): "ideal, seq, ... or LAST".
names=$("$B" list | sed -n '/^key sets/,/^$/p' | awk 'NR > 1 && NF { n[++c] = $1 }
    END { for (i = 1; i <= c; i++) printf "%s%s", i == 1 ? "" : i == c ? " or " : ", ", n[i] }')
case "$names" in "ideal, seq, seq-str, random, uuid, file"*" or "*) ok ;; *) bad "key set names: '$names'" ;; esac
# --queries: a multiple of 8, a key set that is the same in every filter, within a file
expect_error 2 "audit: --queries must be a multiple of 8, the successive ranges whose rates are shown (got '--queries 1001')" \
    audit leveldb --keys 1000 --rate 0.01 --key-set seq --queries 1001
expect_error 2 "random keys are sampled (got '--queries 1000' with --key-set random)" \
    audit leveldb --keys 1000 --rate 0.01 --key-set random --queries 1000
expect_error 2 "audit: --queries 20008 asks more than the 20000 lines of $tmp/keys.txt after its first 10000 (got '--queries 20008')" \
    audit guava --keys 10000 --rate 0.01 --key-set file --key-file "$tmp/keys.txt" --queries 20008
expect_error 2 "audit: --queries 20008 asks more than the 20000 lines of $tmp/keys.txt after its first 10000 (got '--queries 20008')" \
    audit --exec "$B adapter guava" --keys 10000 --rate 0.01 --key-set file --key-file "$tmp/keys.txt" --queries 20008
expect_error 2 "audit: --queries must be a whole number of queries from 8 to 2^56 (got 'x')" audit leveldb --keys 1000 --rate 0.01 --key-set seq --queries x
expect_error 2 "audit: unknown key set; expected $names (got '--key-set sq')" \
    audit guava --keys 1000 --rate 0.01 --key-set sq
expect_error 2 "audit: key file $tmp/none.txt: No such file or directory (got '--key-file $tmp/none.txt')" \
    audit guava --keys 1000 --rate 0.01 --key-set file --key-file "$tmp/none.txt"
expect_error 2 "key file $tmp/keys.txt has 30000 lines, fewer than the 40000 keys to insert" \
    audit guava --keys 40000 --rate 0.01 --key-set file --key-file "$tmp/keys.txt"
expect_error 2 "2 queries need 30002" \
    audit guava --keys 30000 --rate 0.01 --key-set file --key-file "$tmp/keys.txt"
expect_error 2 "audit: --key-set file needs --key-file PATH" audit guava --keys 1000 --rate 0.01 --key-set file
expect_error 2 "audit: --key-prefix goes with --key-set seq-str (got '--key-prefix x')" \
    audit guava --keys 1000 --rate 0.01 --key-set seq --key-prefix x
expect_error 2 "audit: library redisson has no real hash in bloomsim: HighwayHash-128" \
    audit redisson --keys 1000 --rate 0.01 --key-set seq
expect_error 2 "audit: library bloomfilter-js hashes text only: filter-bench keys are bytes (got '--key-set filter-bench')" \
    audit bloomfilter-js --keys 1000 --rate 0.01 --key-set filter-bench
expect_error 2 "audit: filter-bench keys number at most 2^31 inserted keys a filter (a 32-bit counter whose top bit marks the queries): 3000000000 asked" \
    audit rocksdb-legacy --keys 3e9 --bits-per-key 1 --key-set filter-bench
expect_error 2 "it takes a rate (--rate), not bits per key (got '--bits-per-key 10')" \
    audit guava --keys 1000 --bits-per-key 10
expect_error 2 "audit: give --rate or --bits-per-key, not both" audit leveldb --keys 1000 --rate 0.01 --bits-per-key 10
sed 's/^key_sets = .*/key_sets = ideal, sequential/' "$tmp/rk.ini" > "$tmp/bad.ini"
expect_error 2 "bad.ini:7: key_sets: unknown key set ($names) (got 'sequential')" \
    run "$tmp/bad.ini" --out "$tmp/badout"
[ ! -e "$tmp/badout" ] && ok || bad "a refused run wrote $(ls "$tmp/badout")"
# The file key set and key_file go together; a key file that cannot be read, or holds
# no line past the inserted ones, is refused at the key's line.
sed '/^key_file/d' "$tmp/rk.ini" > "$tmp/bad.ini"
expect_error 2 "bad.ini:7: key_sets: the file key set needs key_file = PATH (got 'ideal, seq, seq-str, random, uuid, file')" \
    run "$tmp/bad.ini" --out "$tmp/badout"
sed 's/^key_sets = .*/key_sets = ideal, seq/' "$tmp/rk.ini" > "$tmp/bad.ini"
expect_error 2 "bad.ini:9: key_file needs file in key_sets (got 'keys0.txt')" run "$tmp/bad.ini" --out "$tmp/badout"
sed 's/^key_file = .*/key_file = none.txt/' "$tmp/rk.ini" > "$tmp/bad.ini"
expect_error 2 "bad.ini:9: key_file: key file $tmp/none.txt: No such file or directory (got 'none.txt')" \
    run "$tmp/bad.ini" --out "$tmp/badout"
head -20000 "$tmp/keys0.txt" > "$tmp/short.txt"
sed 's/^key_file = .*/key_file = short.txt/' "$tmp/rk.ini" > "$tmp/bad.ini"
expect_error 2 "bad.ini:9: key_file: key file $tmp/short.txt has 20000 lines: 20000 inserts and 2 queries need 20002" \
    run "$tmp/bad.ini" --out "$tmp/badout"
[ ! -e "$tmp/badout" ] && ok || bad "a refused run wrote $(ls "$tmp/badout")"
sed 's/^libraries = .*/libraries = leveldb, fastbloom/' "$tmp/rk.ini" > "$tmp/bad.ini"
expect_error 2 "bad.ini:7: library fastbloom has no real hash in bloomsim: SipHash-1-3 with random keys" \
    run "$tmp/bad.ini" --out "$tmp/badout"
finish
