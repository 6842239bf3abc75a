#!/bin/sh
# exec.sh BLOOMSIM - the adapter protocol end to end (docs/adapter.md), from the source
# root by meson test, with no library installed:
#  - `bloomsim adapter LIBRARY` answers docs/adapter.md's example session as LevelDB's
#    own code does (the bits 0e42242ec220d18f are what libleveldb-dev 1.23 printed;
#    tests/adapters.sh checks every packaged library this way where it is installed),
#    and ends on bad input with an error line and status 1, at the end of input with 0;
#  - `bloomsim audit --exec` measures a C adapter (bloomsim's own) by rate and by bits
#    per key, to its target, within 5 standard errors of the exact rate at the m and k
#    it reports, the same at the same seed, with its own keys or a key set's (seq: one
#    filter asked again; file: str keys; filter-bench: hex keys, counted as the
#    simulation counts them); and a JavaScript adapter (bloomfilter.js, in
#    tests/conformance/node_modules) where node and the package are installed;
#  - an adapter that dies, refuses the design, answers garbage, too few answers or the
#    wrong count, answers or reads nothing within --timeout, or ends badly after quit:
#    one line, exit 2, nothing on stdout; a stop (SIGTERM) ends it and its adapter.
set -u
B=$1
. tests/lib.sh

# adapter_session NAME INPUT WANT-OUTPUT WANT-STATUS: bloomsim adapter leveldb on INPUT.
adapter_session() {
    printf "$2" | "$B" adapter leveldb > "$tmp/out" 2> "$tmp/err"
    rc=$?
    got=$(sed 1d "$tmp/out" | tr '\n' '|')
    if [ "$rc" -eq "$4" ] && [ "$got" = "$3" ] && grep -q '^hello 1 bloomsim ' "$tmp/out"; then
        ok
    else
        bad "adapter: $1: status $rc (want $4), answers '$got' (want '$3') $(cat "$tmp/err")"
    fi
}
adapter_session "the example of docs/adapter.md" \
    'hello 1\ndesign 4 0.01\ndesign-bpk 4 10\ninsert str 3\napple\nbanana\n\nquery str 4\napple\ncherry\ndurian\nfig\ninsert u64 1\n18446744073709551615\ninsert hex 1\n00ff\nquery hex 2\n00ff\n00\nbits\nbogus\n' \
    'error leveldb takes bits per key, not a rate|design 64 6|inserted 3|1100|inserted 1|inserted 1|10|bits 64 0e42242ec220d18f|error unknown command: bogus|' 1
adapter_session "end of input between commands" 'hello 1\ndesign-bpk 10 10\n' 'design 104 6|' 0
adapter_session "quit" 'hello 1\nquit\nbits\n' '' 0
adapter_session "a non-canonical u64" 'hello 1\ndesign-bpk 10 10\ninsert u64 1\n007\n' \
    'design 104 6|error not a key of its kind: '"'"'007'"'"'|' 1
adapter_session "odd hex" 'hello 1\ndesign-bpk 10 10\nquery hex 1\nabc\n' \
    'design 104 6|error not a key of its kind: '"'"'abc'"'"'|' 1
adapter_session "keys before a design" 'hello 1\ninsert u64 1\n5\n' 'error insert before a design|' 1
adapter_session "the input ending inside keys" 'hello 1\ndesign-bpk 10 10\ninsert u64 2\n5\n' \
    'design 104 6|error the input ended inside insert'"'"'s keys|' 1
adapter_session "two spaces" 'hello 1\ndesign-bpk  10 10\n' \
    'error a command is words separated by single spaces|' 1
adapter_session "another version" 'hello 1\nhello 2\n' 'error this adapter speaks protocol version 1|' 1

# expect_error CODE SUBSTRING ARGS...: exit CODE, one line on stderr containing SUBSTRING,
# nothing on stdout.
expect_error() {
    code=$1 want=$2
    shift 2
    "$B" "$@" > "$tmp/stdout" 2> "$tmp/stderr"
    rc=$?
    if [ "$rc" -ne "$code" ] || [ "$(wc -l < "$tmp/stderr")" -ne 1 ] || [ -s "$tmp/stdout" ] ||
        ! grep -qF -- "$want" "$tmp/stderr"; then
        bad "$* exited $rc (want $code), said '$(cat "$tmp/stderr")' (want '$want')," \
            "printed '$(head -c 200 "$tmp/stdout")'"
    else
        ok
    fi
}
expect_error 2 "adapter: unknown library (got 'nosuch')" adapter nosuch
expect_error 2 "adapter: kudu has no real hash here: the caller hashes" adapter kudu
expect_error 2 "adapter: LIBRARY is required" adapter
# A library's chain without a real hash here (bloom-filters-scalable has one: adapters.sh).
expect_error 2 "adapter: redisbloom-sbchain has no real hash here" adapter redisbloom-sbchain

# audit --exec on a C adapter: bloomsim's own, by rate and by bits per key.
# same_as_simulated NAME ARGS...: audit --exec through `bloomsim adapter NAME` (output in
# $tmp/exec1) and the simulated audit of library NAME, both with ARGS, count the same
# lookups and false positives (in $e: filters, lookups a filter, false positives; in $s:
# lookups, false positives).
same_as_simulated() {
    name=$1
    shift
    "$B" audit --exec "$B adapter $name" "$@" > "$tmp/exec1" 2> "$tmp/stderr"
    # one filter over a stated range: the same exact count over the same keys
    e=$(grep -A2 '^  queries ' "$tmp/exec1")
    if [ -n "$e" ]; then
        "$B" audit "$name" "$@" --threads 1 > "$tmp/exec2" 2> "$tmp/stderr2"
        [ "$e" = "$(grep -A2 '^  queries ' "$tmp/exec2")" ] &&
            [ "$(grep ' exact: ' "$tmp/exec1")" = "$(grep ' exact: ' "$tmp/exec2")" ]
        return
    fi
    e=$(sed -n 's/^ *\([0-9]*\) filters of \([0-9]*\) lookups, \([0-9]*\) false positives.*/\1 \2 \3/p' "$tmp/exec1")
    # the simulated audit's first filters, as many as the adapter's plan built
    "$B" audit "$name" "$@" --threads 1 --max-filters "$(echo "$e" | awk '{ print ($1 < 2 ? 2 : $1) }')" \
        > "$tmp/exec2" 2> "$tmp/stderr2"
    s=$(sed -n 's/^ *\([0-9]*\) lookups, \([0-9]*\) false positives.*/\1 \2/p' "$tmp/exec2")
    [ -n "$e" ] && [ "$(echo "$e" | awk '{ print $1 * $2, $3 }')" = "$s" ]
}

check_exec() { # LABEL FILE M K NAME
    z=$(sed -n 's/^  uniform .*(\([-+][0-9.]*\) standard errors)$/\1/p' "$2")
    if grep -q "^exec: $5 " "$2" && grep -q "m = $3 bits (.*), k = $4," "$2" &&
        ! grep -q "^  target     not reached" "$2" &&
        awk -v z="$z" 'BEGIN { exit !(z != "" && z > -5 && z < 5) }'; then
        ok
    else
        bad "audit --exec $1: z = '$z' against the exact rate: $(cat "$2")"
    fi
}
"$B" audit --exec "$B adapter guava" --keys 10000 --rate 0.01 --precision 0.05 --seed 3 \
    > "$tmp/guava" 2> "$tmp/stderr" && [ ! -s "$tmp/stderr" ] || bad "audit --exec guava: $(cat "$tmp/stderr")"
check_exec guava "$tmp/guava" 95872 7 bloomsim
grep -q "^  promised   0.01$" "$tmp/guava" && grep -q "^  ratio " "$tmp/guava" && ok \
    || bad "audit --exec guava: no promise or ratio: $(cat "$tmp/guava")"
"$B" audit --exec "$B adapter guava" --keys 10000 --rate 0.01 --precision 0.05 --seed 3 \
    > "$tmp/guava2" 2> /dev/null
[ "$(grep '^  measured' "$tmp/guava")" = "$(grep '^  measured' "$tmp/guava2")" ] && ok \
    || bad "audit --exec: the same seed measured differently"
"$B" audit --exec "$B adapter leveldb" --keys 10000 --bits-per-key 10 --precision 0.05 \
    > "$tmp/leveldb" 2> "$tmp/stderr" && [ ! -s "$tmp/stderr" ] || bad "audit --exec leveldb: $(cat "$tmp/stderr")"
# LevelDB's double hashing of one 32-bit word sits above the uniform rate (audit leveldb):
# only the design and the promise's absence are checked.
grep -q "m = 100000 bits (10 bits per key), k = 6," "$tmp/leveldb" &&
    grep -q "^  promised   nothing" "$tmp/leveldb" && ok || bad "audit --exec leveldb: $(cat "$tmp/leveldb")"

# Key sets: seq builds one filter and asks it a stated range (an exact count, the
# spread across its 8 ranges on a line of its own); a file's lines are sent as str keys,
# its queries the lines after the inserted ones; the same seed, the same measurement.
"$B" audit --exec "$B adapter guava" --keys 10000 --rate 0.01 --precision 0.1 --key-set seq \
    > "$tmp/seq" 2> "$tmp/stderr" && grep -q "^  keys       seq (u64), seed 1; the same inserted keys in every filter" "$tmp/seq" &&
    grep -q "^  measured   .* exact: [0-9]* false positives in those 9872 queries$" "$tmp/seq" &&
    grep -q "^  rate varies by query range: .* over 8 successive ranges of 1234 queries$" "$tmp/seq" &&
    grep -q "^  queries    the 9872 keys after the 10000 inserted: 10000 to 19871$" "$tmp/seq" &&
    ok || bad "audit --exec --key-set seq: $(cat "$tmp/seq" "$tmp/stderr")"
# N key-file lines user:0, user:7919, ... (distinct, not sequential).
user_keys() { awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) print "user:" i * 7919 }'; }
user_keys 15000 > "$tmp/keys.txt"
"$B" audit --exec "$B adapter guava" --keys 10000 --rate 0.01 --precision 0.1 --key-set file \
    --key-file "$tmp/keys.txt" > "$tmp/file" 2> "$tmp/stderr"; [ $? -eq 3 ] &&
    grep -q "^  keys       file $tmp/keys.txt (str)" "$tmp/file" && ok \
    || bad "audit --exec --key-set file: $(cat "$tmp/file" "$tmp/stderr")"
# Its 5,000 queried lines, fewer than the default range (9,872 at 10%), are asked once
# each, in 8 ranges of 625 (never wrapping round the file), and the target is out of
# reach; a file long enough meets it, with the simulated audit's exact count.
grep -q "^  queries    the 5000 keys after the 10000 inserted: user:79190000 to user:118777081$" "$tmp/file" &&
    grep -q "over 8 successive ranges of 625 queries$" "$tmp/file" &&
    grep -q "for the precision asked (5000 of 9872)$" "$tmp/file" && ok \
    || bad "audit --exec --key-set file, a short file: $(cat "$tmp/file")"
# 5,003 queried lines make the same 8 ranges of 625: the 3 left over are never asked,
# and the queries line says how many were.
user_keys 15003 > "$tmp/keys3.txt"
"$B" audit --exec "$B adapter guava" --keys 10000 --rate 0.01 --precision 0.1 --key-set file \
    --key-file "$tmp/keys3.txt" > "$tmp/file3" 2> "$tmp/stderr"; [ $? -eq 3 ] &&
    grep -q "^  queries    the 5000 keys after the 10000 inserted" "$tmp/file3" &&
    grep -q "(all the key file holds after them, in whole ranges;" "$tmp/file3" && ok \
    || bad "audit --exec --key-set file, a remainder: $(cat "$tmp/file3" "$tmp/stderr")"
user_keys 60000 > "$tmp/keys2.txt"
same_as_simulated guava --keys 10000 --rate 0.01 --precision 0.1 --key-set file \
    --key-file "$tmp/keys2.txt" && ! grep -q "not reached" "$tmp/exec1" && ok \
    || bad "audit --exec --key-set file, a long file: exec '$e', simulated '$s': $(cat "$tmp/exec1" "$tmp/stderr")"
"$B" audit --exec "$B adapter guava" --keys 10000 --rate 0.01 --precision 0.1 --key-set uuid \
    --seed 4 > "$tmp/uuid1" 2> /dev/null
"$B" audit --exec "$B adapter guava" --keys 10000 --rate 0.01 --precision 0.1 --key-set uuid \
    --seed 4 > "$tmp/uuid2" 2> /dev/null
grep -q "^  keys       uuid (str), seed 4$" "$tmp/uuid1" &&
    [ "$(grep -A1 '^  measured' "$tmp/uuid1")" = "$(grep -A1 '^  measured' "$tmp/uuid2")" ] && ok \
    || bad "audit --exec --key-set uuid: $(cat "$tmp/uuid1")"

# filter-bench keys hold zeros and newlines: sent as hex, they reach the adapter intact,
# and its false positives are the simulated audit's, filter for filter and key for key.
same_as_simulated rocksdb-legacy --keys 10000 --bits-per-key 15 --precision 0.1 \
    --key-set filter-bench && grep -q "^  keys       filter-bench (hex), seed 1$" "$tmp/exec1" && ok \
    || bad "audit --exec --key-set filter-bench: exec '$e', simulated '$s': $(cat "$tmp/exec1" "$tmp/stderr")"

# ... and on a JavaScript adapter, where node and bloomfilter.js 1.1.0 are installed.
if command -v node > /dev/null && [ -f tests/conformance/node_modules/bloomfilter-1.1.0/package.json ]; then
    "$B" audit --exec "node tests/conformance/bloomfilter_js_adapter.js 1.1.0" --keys 10000 \
        --rate 0.01 --precision 0.05 > "$tmp/js" 2> "$tmp/stderr" && [ ! -s "$tmp/stderr" ] \
        || bad "audit --exec bloomfilter.js: $(cat "$tmp/stderr")"
    check_exec bloomfilter.js "$tmp/js" 95872 7 "bloomfilter.js 1.1.0"
else
    echo "skipped: audit --exec on bloomfilter.js (no node, or scripts/deps has not installed it)"
fi

# Bad adapters: one line, exit 2, nothing published.
# No more work than the target needs (docs/adapter.md, How much work): at 1% and R = 0.1
# the binomial floor is (1 - p)/(p R^2) = 9,900 lookups. An adapter that reports m and k
# gets the binomial plan, 2 filters and at most 10% over the floor; one that hides them
# (design ? ?) the spread's 8 filters, at most 1.5 times the floor (the spread's margin),
# and its check of the inserted keys 10^5 / 8 a filter, not 10^5.
"$B" audit --exec "$B adapter guava" --keys 100000 --rate 0.01 --precision 0.1 > "$tmp/plan" 2>&1
fl=$(sed -n 's/^ *\([0-9]*\) filters of \([0-9]*\) lookups, .*/\1 \2/p' "$tmp/plan")
echo "$fl" | awk '{ exit !($1 == 2 && $1 * $2 <= 10890) }' && ok \
    || bad "audit --exec, m and k told: '$fl' is not 2 filters within 10% of 9,900 lookups: $(cat "$tmp/plan")"
"$B" audit --exec "$B adapter guava | sed -u 's/^design [0-9]* [0-9]*$/design ? ?/'" --keys 100000 \
    --rate 0.01 --precision 0.1 > "$tmp/plan" 2>&1
fl=$(sed -n 's/^ *\([0-9]*\) filters of \([0-9]*\) lookups, .*/\1 \2/p' "$tmp/plan")
echo "$fl" | awk '{ exit !($1 == 8 && $1 * $2 <= 1.5 * 9900 + 8) }' &&
    grep -q "^  inserted   a random sample of 12500 of the 100000 keys of each filter asked again: 100000 queries, 0 absent" "$tmp/plan" && ok \
    || bad "audit --exec, m and k hidden: '$fl' is not 8 filters within 1.5 times 9,900 lookups: $(cat "$tmp/plan")"

a="--keys 1000 --rate 0.01 --precision 0.1"
# wrap SED: bloomsim's guava adapter with its answers edited by SED on the way out (GNU
# sed -u: a line at a time, as an adapter must answer).
wrap() { printf '%s\n' "$B adapter guava | sed -u '$1'"; }
# shellcheck disable=SC2086
{
expect_error 2 "ended with status 3" audit --exec 'exit 3' $a
expect_error 2 "ended with status 127 (the shell's: no such command)" audit --exec "$tmp/nosuch 2> /dev/null" $a
expect_error 2 "answer to 'hello 1' is not the protocol's (got 'hi')" audit --exec 'echo hi' $a
expect_error 2 "refuses 'design 1000 0.01': no such design" audit --exec \
    'read l; echo "hello 1 x"; read l; echo "error no such design"; cat > /dev/null' $a
expect_error 2 "ended with status 3" audit --exec \
    'read l; echo "hello 1 x"; read l; echo "design 9600 7"; exit 3' $a
expect_error 2 "answer to 'design 1000 0.01' is not the protocol's (got 'design x y')" \
    audit --exec "$(wrap 's/^design .*/design x y/')" $a
expect_error 2 "answer to 'insert u64 1000' is not the protocol's (got 'inserted 7')" \
    audit --exec "$(wrap 's/^inserted .*/inserted 7/')" $a
expect_error 2 "holds a byte other than 0 and 1 at 1912" \
    audit --exec "$(wrap 's/^[01][01]*$/&2/')" $a
expect_error 2 "gave 1910 answers to 'query u64 1911', not 1911" \
    audit --exec "$(wrap 's/^[01]\([01]*\)$/\1/')" $a
expect_error 2 "the adapter failed at 'query u64 1911': broken" \
    audit --exec "$(wrap 's/^[01][01]*$/error broken/')" $a
expect_error 2 "the adapter ended with status 4 after quit" audit --exec "$B adapter guava; exit 4" $a
expect_error 2 "the adapter refuses 'design-bpk 1000 10': guava takes a rate" \
    audit --exec "$B adapter guava" --keys 1000 --bits-per-key 10
expect_error 2 "audit: --exec needs --keys and one of --rate, --bits-per-key and --fingerprint-bits (got more than one)" \
    audit --exec "$B adapter guava" $a --bits-per-key 10
expect_error 2 "the adapter refuses 'design-fp 1000 8': guava takes a rate, not fingerprint bits" \
    audit --exec "$B adapter guava" --keys 1000 --fingerprint-bits 8
expect_error 2 "audit: --fingerprint-bits only means something with --exec" \
    audit guava --keys 1000 --fingerprint-bits 8
expect_error 2 "audit: --exec measures its adapter, not a library (got 'guava')" \
    audit guava --exec "$B adapter guava" $a
expect_error 2 "audit: unknown key set" audit --exec "$B adapter guava" $a --key-set nosuch
expect_error 2 "audit: --key-set file needs --key-file PATH" audit --exec "$B adapter guava" $a --key-set file
expect_error 2 "audit: key file $tmp/nosuch: No such file or directory (got '--key-file $tmp/nosuch')" \
    audit --exec "$B adapter guava" $a --key-set file --key-file "$tmp/nosuch"
# One queried line is one batch, no spread to measure: a file needs two (with one, the
# capped exec audit printed a summary it never made).
head -n 1001 "$tmp/keys.txt" > "$tmp/keys1001.txt"
expect_error 2 "has 1001 lines: 1000 inserts and 2 queries need 1002" \
    audit --exec "$B adapter guava" --keys 1000 --rate 0.01 --key-set file --key-file "$tmp/keys1001.txt"
expect_error 2 "audit: --exec takes bits per key above 0 (got '--bits-per-key 0')" \
    audit --exec "$B adapter leveldb" --keys 1000 --bits-per-key 0
expect_error 2 "no answer to 'design 1000 0.01' within 1 seconds" audit --exec \
    'read l; echo "hello 1 x"; read l; sleep 30' $a --timeout 1
expect_error 2 "the adapter stopped reading at 'insert u64 65536' (nothing read within the timeout)" \
    audit --exec 'read l; echo "hello 1 x"; read l; echo "design 958506 7"; sleep 30' \
    --keys 100000 --rate 0.01 --timeout 1
}
# A stop (SIGTERM) while the adapter hangs: exit 143 within 2 seconds, the adapter ended.
"$B" audit --exec 'read l; echo "hello 1 x"; read l; echo $$ > '"$tmp/hung"'; sleep 30' $a \
    > "$tmp/stdout" 2> "$tmp/stderr" &
pid=$!
wait_rows "$tmp/hung" 1
kill -TERM $pid
n=0
while kill -0 $pid 2> /dev/null && [ $n -lt 20 ]; do sleep 0.1; n=$((n + 1)); done
wait $pid
rc=$?
if [ $rc -eq 143 ] && grep -q "audit: stopped (got signal 15)" "$tmp/stderr" && [ ! -s "$tmp/stdout" ] &&
    ! kill -0 "$(cat "$tmp/hung")" 2> /dev/null; then
    ok
else
    bad "audit --exec stopped: status $rc after $n tenths, $(cat "$tmp/stderr")"
fi
finish
