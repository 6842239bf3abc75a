#!/bin/sh
# faults_store.sh BLOOMSIM - the result store's obstacles and messages (issue 38, items 7
# and 9), end to end, run from the source root by meson test:
#  - every file of a result (lock, partial, run marker, table, metadata, the metadata's
#    partial) that is a directory, a named pipe or a symbolic link is refused before any
#    work, in one line naming it (exit 2), with or without --force, nothing else left;
#  - a foreign or garbled NAME.csv is called what it is, not a result of another seed;
#  - an experiment file that is a device, a pipe or past the size limit says so;
#  - design_keys past 10^12 keys at the default load names its line and value;
#  - a long --out path never cuts a message before its reason.
set -u
B=$1
. tests/lib.sh
OMP_NUM_THREADS=2
export OMP_NUM_THREADS
cat > "$tmp/t.ini" <<INI
[sweep]
bits = 4096
bits_per_key = 4:8:1
schemes = double
filters = 10
lookups = 1000
INI

# Each obstacle kind at each output file: refused before any work, exit 2, one line
# naming the file and what it is; only the obstacle stays (no partial, no lock).
for f in t.lock t.csv.partial t.run t.csv t.meta t.meta.partial; do
    for kind in dir fifo link; do
        for force in "" --force; do
            rm -rf "$tmp/o"
            mkdir -p "$tmp/o"
            echo "not yours" > "$tmp/outside"
            case $kind in
                dir) mkdir "$tmp/o/$f"; what="a directory" ;;
                fifo) mkfifo "$tmp/o/$f"; what="a named pipe" ;;
                link) ln -s "$tmp/outside" "$tmp/o/$f"; what="a symbolic link?" ;;
            esac
            expect_error 2 "$tmp/o/$f: not a regular file of bloomsim's ($what); it writes only its own files in --out" \
                run "$tmp/t.ini" --out "$tmp/o" $force
            [ "$(ls "$tmp/o")" = "$f" ] && [ "$(cat "$tmp/outside")" = "not yours" ] && ok \
                || bad "$kind $f $force: left $(ls "$tmp/o"), or wrote through it"
        done
    done
done
# The same with a complete result beside the obstacle (the metadata read for its seed
# would block on a pipe).
rm -rf "$tmp/o"
"$B" run "$tmp/t.ini" --out "$tmp/o" > /dev/null 2>&1
rm "$tmp/o/t.meta"
mkfifo "$tmp/o/t.meta"
( sleep 20; kill $$ 2> /dev/null ) &
watchdog=$!
expect_error 2 "$tmp/o/t.meta: not a regular file of bloomsim's (a named pipe)" run "$tmp/t.ini" --out "$tmp/o" --seed 5
kill $watchdog 2> /dev/null

# A foreign or garbled table: said what it is, never "another seed".
rm -rf "$tmp/f"
mkdir -p "$tmp/f"
printf 'garbage\x01\n' > "$tmp/f/t.csv"
expect_error 2 "$tmp/f/t.csv: is not a table bloomsim wrote (its first line is not bloomsim's header); --force replaces it" \
    run "$tmp/t.ini" --out "$tmp/f"
"$B" run "$tmp/t.ini" --out "$tmp/g" > /dev/null 2>&1
cp "$tmp/g/t.csv" "$tmp/f/t.csv"
expect_error 2 "$tmp/f/t.csv: is not a table bloomsim wrote (no $tmp/f/t.meta beside it)" run "$tmp/t.ini" --out "$tmp/f"
echo "seed = 1" > "$tmp/f/t.meta"
expect_error 2 "$tmp/f/t.csv: is not a table bloomsim wrote ($tmp/f/t.meta does not parse: it has no file_fnv1a64 line)" \
    run "$tmp/t.ini" --out "$tmp/f"
expect_error 2 "$tmp/g/t.csv: holds a complete result of another seed; --force replaces it" run "$tmp/t.ini" --out "$tmp/g" --seed 7
"$B" run "$tmp/t.ini" --out "$tmp/f" --force > /dev/null 2>&1 && head -1 "$tmp/f/t.csv" | grep -q "^experiment," && ok || bad "--force over a foreign table"

# Experiment files that cannot be read say why, never "Success".
expect_error 2 "/dev/zero: cannot read experiment file: not a regular file" run /dev/zero
mkfifo "$tmp/p.ini"
( sleep 20; kill $$ 2> /dev/null ) &
watchdog=$!
expect_error 2 "$tmp/p.ini: cannot read experiment file: not a regular file" run "$tmp/p.ini"
kill $watchdog 2> /dev/null
head -c 16777216 /dev/zero | tr '\0' '#' > "$tmp/big.ini"
expect_error 2 "big.ini: cannot read experiment file: larger than the limit of 16777215 bytes" run "$tmp/big.ini"
head -c 16777215 "$tmp/big.ini" > "$tmp/edge.ini"
"$B" run "$tmp/edge.ini" --out "$tmp/e" > /dev/null 2> "$tmp/err"
grep -q "cannot read" "$tmp/err" && bad "a file at the limit refused: $(cat "$tmp/err")" || ok
rm -f "$tmp/big.ini" "$tmp/edge.ini"

# design_keys past 10^12 at the default load: its line and value.
printf '[sweep]\ndesign_keys = 1e15\ndesign_rate = 0.01\nschemes = double\n' > "$tmp/d.ini"
expect_error 2 "d.ini:2: design_keys must be at most 10^12 keys at load 1, the default (got '1000000000000000')" \
    run "$tmp/d.ini" --out "$tmp/d"

# A long --out (about 1,000 bytes): the message ends with its reason and the path given.
long=$tmp
for i in 1 2 3 4; do long=$long/$(printf 'd%.0s' $(seq 1 240)); done
mkdir -p "$long"
ln -s "$tmp/outside" "$long/t.run"
expect_error 2 "$long/t.run: not a regular file of bloomsim's (a symbolic link?); it writes only its own files in --out (got '--out $long')" \
    run "$tmp/t.ini" --out "$long"
rm "$long/t.run"
"$B" run "$tmp/t.ini" --out "$long" > /dev/null 2>&1
expect_error 2 "holds a complete result of another seed; --force replaces it, --out elsewhere keeps it (got seed 3," \
    run "$tmp/t.ini" --out "$long" --seed 3
finish
