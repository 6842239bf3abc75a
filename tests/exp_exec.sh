#!/bin/sh
# exp_exec.sh BLOOMSIM - experiments over adapters (issue 37; docs/model.md, Experiment
# files, `exec`), from the source root by meson test:
#  - experiments/adapter-example.ini --quick equals tests/golden/adapter-example.csv (the
#    seconds column aside) at 1 and 2 threads, and each row is what `bloomsim audit
#    --exec` prints for its point and seed (its --json parsed by Python's json);
#  - SIGINT keeps the finished rows (exit 130), --resume redoes the rest and the table
#    equals an uninterrupted run's byte for byte (seconds aside);
#  - an adapter that forgets every other inserted key: its row kept, exit 1, one line;
#  - bad input (one line naming the file, line and value, exit 2, nothing written): an
#    empty command, keys that make no sense for an adapter, no points, both a rate and
#    bits per key, a command that does not start, a design its adapter refuses.
set -u
B=$1
. tests/lib.sh

# The golden, at 1 and 2 threads.
for t in 1 2; do
    "$B" run adapter-example --quick --threads $t --out "$tmp/g$t" > /dev/null 2>&1 \
        || bad "adapter-example --quick --threads $t did not run"
    strip_seconds "$tmp/g$t/adapter-example.quick.csv" > "$tmp/g$t.csv"
    cmp -s "$tmp/g$t.csv" tests/golden/adapter-example.csv && ok \
        || bad "adapter-example --quick --threads $t differs from its golden"
done

# Row 1 (1000 keys at 0.01, [quick]'s precision 0.1 and max_filters 20, seed 1) against
# audit --exec of the same point.
"$B" audit --exec "$B adapter libbloom" --keys 1000 --rate 0.01 --precision 0.1 \
    --max-filters 20 --seed 1 --json > "$tmp/audit.json" 2>&1 || bad "audit --exec failed"
python3 - "$tmp/audit.json" "$tmp/g1/adapter-example.quick.csv" <<'PY' && ok || bad "row 1 is not audit --exec's measurement"
import csv, json, sys
a = json.load(open(sys.argv[1]))
row = next(csv.DictReader(open(sys.argv[2], newline="")))
m = a["measured"]
assert int(row["filters"]) == m["filters"], (row["filters"], m["filters"])
assert int(row["lookups"]) == m["lookups"] and int(row["false_positives"]) == m["false_positives"]
assert float(row["rate"]) == m["rate"] and float(row["ci_low"]) == m["ci_low"]
assert int(row["m"]) == a["design"]["m"] and int(row["k"]) == a["design"]["k"]
assert float(row["design_rate"]) == a["promise"] and float(row["refused"]) == 0
assert row["library"] == "bloomsim adapter libbloom" and row["scheme"] == "adapter"
PY

# SIGINT after some rows; --resume finishes byte for byte.
cat > "$tmp/intr.ini" <<INI
[sweep]
exec = bloomsim adapter guava
inserted = 1000 1100 1200 1300 1400 1500 1600 1700 1800 1900 2000 2100 2200 2300
design_rate = 0.01 0.02
precision = 0.05
INI
"$B" run "$tmp/intr.ini" --out "$tmp/whole" > /dev/null 2>&1 || bad "intr did not run"
"$B" run "$tmp/intr.ini" --out "$tmp/io" > /dev/null 2> "$tmp/intr.err" &
pid=$!
wait_rows "$tmp/io/intr.csv.partial" 3
kill -INT $pid
wait_exit $pid 200 "SIGINT: still running after 10 s"
[ "$rc" -eq 130 ] && ok || bad "SIGINT: exit $rc, $(cat "$tmp/intr.err")"
kept=$(($(wc -l < "$tmp/io/intr.csv.partial") - 1))
[ $kept -ge 2 ] && [ $kept -lt 28 ] && ok || bad "SIGINT kept $kept rows"
"$B" run "$tmp/intr.ini" --out "$tmp/io" --resume > /dev/null 2>&1 && ok || bad "--resume failed"
grep -q "^resumed_rows = $kept$" "$tmp/io/intr.meta" && ok || bad "resumed_rows"
strip_seconds "$tmp/io/intr.csv" > "$tmp/r1"
strip_seconds "$tmp/whole/intr.csv" > "$tmp/r2"
cmp -s "$tmp/r1" "$tmp/r2" && ok || bad "resumed CSV differs from an uninterrupted run"

# An adapter that forgets every other key it is given: a failed audit, its row kept.
cat > "$tmp/forget.py" <<'PY'
import sys
inp, out = sys.stdin.buffer, sys.stdout
kept, i = set(), 0
while True:
    w = inp.readline().decode().split()
    if not w or w[0] == "quit":
        break
    if w[0] == "hello":
        out.write("hello 1 forgetful\n")
    elif w[0] == "design":
        kept, i = set(), 0
        out.write("design ? ?\n")
    elif w[0] == "insert":
        for _ in range(int(w[2])):
            k = inp.readline().strip()
            if i % 2 == 0:
                kept.add(k)
            i += 1
        out.write("inserted %s\n" % w[2])
    elif w[0] == "query":
        keys = [inp.readline().strip() for _ in range(int(w[2]))]
        out.write("".join("1" if k in kept or int(k) % 100 == 0 else "0" for k in keys) + "\n")
    out.flush()
PY
printf '[sweep]\nexec = python3 %s\ninserted = 1000\ndesign_rate = 0.01\nmax_filters = 8\n' \
    "$tmp/forget.py" > "$tmp/forget.ini"
"$B" run "$tmp/forget.ini" --out "$tmp/fo" > /dev/null 2> "$tmp/fo.err"
rc=$?
[ "$rc" -eq 1 ] && [ "$(wc -l < "$tmp/fo.err")" -eq 1 ] \
    && grep -q "answered no for inserted keys" "$tmp/fo.err" && ok \
    || bad "forgetful adapter: exit $rc, $(cat "$tmp/fo.err")"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "refused") c = i }
         NR == 2 { exit !($c >= 400) }' "$tmp/fo/forget.csv" 2> /dev/null && ok \
    || bad "forgetful adapter: no row with its false negatives"

# Bad input: exit 2, one line naming file, line and value, nothing written.
refuse() { # NAME TEXT: the file $tmp/NAME.ini
    expect_error 2 "$2" run "$tmp/$1.ini" --out "$tmp/bad-$1"
    [ ! -e "$tmp/bad-$1" ] && ok || bad "$1: wrote $(ls "$tmp/bad-$1")"
}
good='inserted = 1000\ndesign_rate = 0.01\n'
printf "[sweep]\nexec =\n$good" > "$tmp/empty.ini"
refuse empty "empty.ini:2: exec needs a command (got '')"
printf "[sweep]\nexec = bloomsim adapter libbloom\n${good}key_sets = seq\n" > "$tmp/keys.ini"
refuse keys "keys.ini:5: key_sets does not go with exec (got 'seq')"
printf "[sweep]\nexec = bloomsim adapter libbloom\n${good}schemes = double\n" > "$tmp/schemes.ini"
refuse schemes "schemes.ini:5: schemes does not go with exec (got 'double')"
printf "[sweep]\nexec = bloomsim adapter libbloom\n${good}lookups = 1000\n" > "$tmp/lookups.ini"
refuse lookups "lookups.ini:5: lookups does not go with exec (got '1000')"
printf "[sweep]\nexec = bloomsim adapter libbloom\ndesign_rate = 0.01\n" > "$tmp/nokeys.ini"
refuse nokeys "nokeys.ini:1: exec needs inserted and one of design_rate and bits_per_key (got no inserted)"
printf "[sweep]\nexec = bloomsim adapter libbloom\n${good}bits_per_key = 10\n" > "$tmp/both.ini"
refuse both "both.ini:5: exec takes design_rate or bits_per_key, not both (got 'bits_per_key = 10')"
printf "[sweep]\nexec = exit 3\n$good" > "$tmp/nocmd.ini"
refuse nocmd "nocmd.ini:2: row 1, 1000 keys at 0.01: exec 'exit 3': the adapter "  # ended, or stopped reading: timing
printf "[sweep]\nexec = bloomsim adapter leveldb\n$good" > "$tmp/refused.ini"
refuse refused "refused.ini:2: row 1, 1000 keys at 0.01: exec 'bloomsim adapter leveldb': the adapter refuses 'design 1000 0.01'"
finish
