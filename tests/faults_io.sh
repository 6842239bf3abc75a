#!/bin/sh
# faults_io.sh BLOOMSIM - output, key files and signals (issue 38, items 3, 4, 5, 6 and 8),
# end to end, run from the source root by meson test:
#  - output that does not reach its destination (/dev/full) is one line and exit 1, on
#    every command and path;
#  - a named pipe, socket or device as key file is refused as "not a regular file",
#    without blocking, by audit and by an experiment;
#  - SIGHUP stops a run as SIGINT does (exit 129, the usual line, rows kept, --resume
#    finishes it); a file-size limit (SIGXFSZ) is a write failure with its message: no
#    0-byte lock or other debris under ulimit -f 0, the finished rows kept past a limit;
#  - a key file truncated while a run reads it: one line, exit 2 (no SIGBUS), the finished
#    rows kept, no lock, and --resume with the file restored equals an unbroken run;
#  - --resume refuses a kept partial row holding a NUL, one that does not parse or is not
#    as bloomsim writes it, and one whose rate its counts do not give: one line naming
#    the partial, its line and the value, exit 2, nothing published or changed;
#  - an option the command's mode does not use is refused, not ignored: audit's --timeout
#    without --exec, --threads with it, anything but --tsv and --hashes with --list,
#    probes' --block-bits on a scheme without blocks.
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

# Item 5: lost output is a failure. Every command, --help and --version included; run's
# summary table (the result files are written: only the summary is lost).
full() {
    "$B" "$@" > /dev/full 2> "$tmp/stderr"
    rc=$?
    want="bloomsim: writing standard output: No space left on device"
    [ "$rc" -eq 1 ] && [ "$(cat "$tmp/stderr")" = "$want" ] && ok \
        || bad "$* > /dev/full exited $rc: $(cat "$tmp/stderr")"
}
for args in "--help" "--version" "list" "columns" "columns --markdown" \
        "exact --bits 4096 --keys 400" "size --keys 1000 --rate 0.01" \
        "probes double --bits 4096 --k 3 --h1 1 --h2 2" "probes --help" \
        "audit guava --keys 1000 --rate 0.01 --precision 0.2 --threads 1" "audit --list" \
        "audit --help" "run --help" "exact --help"; do
    # shellcheck disable=SC2086 # the arguments split on purpose
    "$B" $args > /dev/null 2>&1 || bad "$args fails without /dev/full"
    # shellcheck disable=SC2086
    full $args
done
full run "$tmp/t.ini" --out "$tmp/full"
[ -f "$tmp/full/t.csv" ] && ok || bad "run > /dev/full: no table"
# The same commands to a working stdout still exit 0.
"$B" exact --bits 4096 --keys 400 > /dev/null && ok || bad "exact > /dev/null"

# Item 4: key files that are not regular files, refused at once (a pipe blocked forever
# in open). The watchdog ends a test that blocks.
( sleep 60; kill $$ ) > /dev/null 2>&1 &
watchdog=$!
mkfifo "$tmp/pipe"
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$tmp/sock" \
    2> /dev/null || mkfifo "$tmp/sock"
for f in "$tmp/pipe" "$tmp/sock" /dev/null; do
    expect_error 2 "audit: key file $f: not a regular file (got '--key-file $f')" audit guava \
        --keys 1000 --rate 0.01 --key-set file --key-file "$f"
    printf '[sweep]\ndesign_keys = 1000\ndesign_rate = 0.01\nlibraries = guava\nkey_sets = file\nkey_file = %s\nfilters = 4\n' \
        "$f" > "$tmp/kf.ini"
    expect_error 2 "key file $f: not a regular file" run "$tmp/kf.ini" --out "$tmp/kf"
done
[ ! -e "$tmp/kf" ] && ok || bad "a refused key file left $(ls "$tmp/kf")"
kill $watchdog 2> /dev/null

# Item 8: SIGHUP as SIGINT. intr's rows take about 0.1 s each.
cat > "$tmp/intr.ini" <<INI
[sweep]
bits = 4096
bits_per_key = 4:32:1
schemes = double
filters = 100
lookups = 3000000
INI
"$B" run "$tmp/intr.ini" --out "$tmp/whole" > /dev/null 2>&1
strip_seconds "$tmp/whole/intr.csv" > "$tmp/r1"
"$B" run "$tmp/intr.ini" --out "$tmp/hup" > /dev/null 2> "$tmp/err" &
pid=$!
wait_rows "$tmp/hup/intr.csv.partial" 3 || bad "SIGHUP: no rows"
kill -HUP $pid
wait_exit $pid 200 "SIGHUP: still running"
[ $rc -eq 129 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] \
    && grep -q "^bloomsim: interrupted: [0-9]* of 29 rows finished in $tmp/hup/intr.csv.partial; run it again with --resume" "$tmp/err" \
    && ok || bad "SIGHUP: exit $rc, said $(cat "$tmp/err")"
[ ! -e "$tmp/hup/intr.lock" ] && [ "$(wc -l < "$tmp/hup/intr.csv.partial")" -ge 3 ] && ok \
    || bad "SIGHUP left $(ls "$tmp/hup")"
"$B" run "$tmp/intr.ini" --out "$tmp/hup" --resume > /dev/null 2>&1 && strip_seconds "$tmp/hup/intr.csv" \
    | cmp -s - "$tmp/r1" && ok || bad "SIGHUP: --resume differs from an uninterrupted run"

# ulimit -f 0: the lock cannot be written; one line, exit 2, nothing left (not even the
# directory made for it). (The shell's stderr is a pipe here, which the limit spares.)
said=$( (ulimit -f 0; exec "$B" run "$tmp/intr.ini" --out "$tmp/f0" 2>&1 > /dev/null); echo "exit $?")
[ "$said" = "$(printf 'bloomsim: %s: cannot write: File too large (got %s)\nexit 2' \
    "$tmp/f0/intr.lock" "'--out $tmp/f0'")" ] && ok || bad "ulimit -f 0 said: $said"
[ ! -e "$tmp/f0" ] && ok || bad "ulimit -f 0 left $(ls -A "$tmp/f0")"
# A limit past the header: the rows written before it are kept (exit 1, the disk-full
# line), and --resume finishes the table an uninterrupted run writes.
said=$( (ulimit -f 4; exec "$B" run "$tmp/intr.ini" --out "$tmp/f4" 2>&1 > /dev/null); echo "exit $?")
[ "$said" = "$(printf 'bloomsim: %s: write failed: File too large\nexit 1' \
    "$tmp/f4/intr.csv.partial")" ] && ok || bad "ulimit -f 4 said: $said"
[ ! -e "$tmp/f4/intr.lock" ] && [ "$(wc -l < "$tmp/f4/intr.csv.partial")" -ge 3 ] && ok \
    || bad "ulimit -f 4 left $(ls "$tmp/f4")"
"$B" run "$tmp/intr.ini" --out "$tmp/f4" --resume > /dev/null 2>&1 && strip_seconds "$tmp/f4/intr.csv" \
    | cmp -s - "$tmp/r1" && ok || bad "ulimit -f 4: --resume differs from an uninterrupted run"
# Lost standard output under the limit: the output line, exit 1.
said=$( (ulimit -f 0; "$B" exact --bits 4096 --keys 400 > "$tmp/exact.txt") 2>&1; echo "exit $?")
[ "$said" = "$(printf 'bloomsim: writing standard output: File too large\nexit 1')" ] && ok \
    || bad "exact under ulimit -f 0 said: $said"

# Item 3: a key file that shrinks while read. Each row reads the whole file.
seq 1 1000000 > "$tmp/keys.txt"
cat > "$tmp/kt.ini" <<INI
[sweep]
design_keys = 100000
design_rate = 0.001, 0.002, 0.003, 0.004, 0.005, 0.006, 0.007, 0.008, 0.009, 0.01
libraries = guava, leveldb
key_sets = file
key_file = keys.txt
filters = 4
INI
"$B" run "$tmp/kt.ini" --out "$tmp/kwhole" > /dev/null 2>&1 || bad "the key-file run failed"
strip_seconds "$tmp/kwhole/kt.csv" > "$tmp/k1"
"$B" run "$tmp/kt.ini" --out "$tmp/kt" > /dev/null 2> "$tmp/err" &
pid=$!
wait_rows "$tmp/kt/kt.csv.partial" 3 || bad "key file: no rows"
: > "$tmp/keys.txt"
wait_exit $pid 400 "key file truncated: still running"
[ $rc -eq 2 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] \
    && grep -q "^bloomsim: key file .*keys.txt: changed while read (shorter than the 6888896 bytes it had when opened); the finished rows are kept in $tmp/kt/kt.csv.partial: --resume finishes the run once the file is whole$" "$tmp/err" \
    && ok || bad "key file truncated: exit $rc, said $(cat "$tmp/err")"
kept=$(($(wc -l < "$tmp/kt/kt.csv.partial") - 1))
[ ! -e "$tmp/kt/kt.lock" ] && [ -e "$tmp/kt/kt.run" ] && [ $kept -ge 2 ] && [ $kept -lt 20 ] && ok \
    || bad "key file truncated: left $(ls "$tmp/kt"), $kept rows"
seq 1 1000000 > "$tmp/keys.txt"
"$B" run "$tmp/kt.ini" --out "$tmp/kt" --resume > /dev/null 2>&1 && strip_seconds "$tmp/kt/kt.csv" \
    | cmp -s - "$tmp/k1" && grep -q "^resumed_rows = $kept$" "$tmp/kt/kt.meta" && ok \
    || bad "key file: --resume differs from an unbroken run"
# A SIGBUS that is not a key file's keeps its default action.
"$B" run "$tmp/intr.ini" --out "$tmp/bus" > /dev/null 2>&1 &
pid=$!
wait_rows "$tmp/bus/intr.csv.partial" 2 || bad "kill -BUS: no rows"
kill -BUS $pid
wait_exit $pid 200 "kill -BUS: still running"
[ $rc -eq 135 ] && ok || bad "kill -BUS: exit $rc"

# Item 6 (a): kept partial rows are checked before --resume publishes them. intr stopped
# after a few rows; line 3 of its partial edited each way.
"$B" run "$tmp/intr.ini" --out "$tmp/base" > /dev/null 2>&1 &
pid=$!
wait_rows "$tmp/base/intr.csv.partial" 4 || bad "partial: no rows"
kill -INT $pid
wait $pid
P=$tmp/kp/intr.csv.partial
# edit_row PERL-EXPRESSION WANTED-MESSAGE: line 3 edited, --resume refused.
edit_row() {
    rm -rf "$tmp/kp"
    cp -r "$tmp/base" "$tmp/kp"
    perl -pi -e "$1 if \$. == 3" "$P"
    cp "$P" "$tmp/edited"
    expect_error 2 "$P:3: $2" run "$tmp/intr.ini" --out "$tmp/kp" --resume
    cmp -s "$P" "$tmp/edited" && [ ! -e "$tmp/kp/intr.csv" ] && [ ! -e "$tmp/kp/intr.lock" ] && ok \
        || bad "a refused partial ($1) was changed or published: $(ls "$tmp/kp")"
}
fp=$(sed -n 3p "$tmp/base/intr.csv.partial" | cut -d, -f10)
rate=$(sed -n 3p "$tmp/base/intr.csv.partial" | cut -d, -f11)
edit_row 's/,3000000,/,30\x0000000,/' "a NUL byte in a kept row (got 'intr,double,4096,"
edit_row 's/,100,3000000,/,1e2,3000000,/' "filters does not parse in a kept row (got '1e2')"
edit_row 's/,100,3000000,/,1__00,3000000,/' "filters does not parse in a kept row (got '1__00')"
edit_row 's/,lookups,/,lookups,1,/' "a kept row that does not parse: 56 fields, not 55"
edit_row 's/^intr,double,/intr,enhanced,/' "a kept row of scheme enhanced where this run writes double"
edit_row 's/,4096,/,04096,/' "m is not as bloomsim writes it: '4096' (got '04096')"
edit_row "s/,$fp,/,$((fp + 1)),/" "rate does not follow from its counts: false_positives / lookups = $((fp + 1)) / 3000000 = "
edit_row "s/,$rate,/,0.5,/" "rate does not follow from its counts: false_positives / lookups = $fp / 3000000 = $rate (got '0.5'); --force starts over (got '--resume')"
# Unedited, it resumes to the uninterrupted table.
"$B" run "$tmp/intr.ini" --out "$tmp/base" --resume > /dev/null 2>&1 && strip_seconds "$tmp/base/intr.csv" \
    | cmp -s - "$tmp/r1" && ok || bad "an unedited partial did not resume to the whole table"

# Item 6 (b): options that would do nothing.
expect_error 2 "audit: --timeout only means something with --exec: it bounds the adapter's answer (got '--timeout 5')" \
    audit guava --keys 1000 --rate 0.01 --timeout 5
expect_error 2 "audit: --threads does nothing with --exec: the adapter builds its filters itself, one at a time (got '--threads=2')" \
    audit --exec "$B adapter guava" --keys 1000 --rate 0.01 --threads=2
expect_error 2 "audit: --keys does nothing with --list (got '--keys 5')" audit --list --keys 5
expect_error 2 "audit: --exec does nothing with --list (got '--exec --threads')" audit --list --exec --threads
expect_error 2 "audit: --list lists every library: a library name does nothing with it (got 'guava')" audit guava --list
"$B" audit --list --tsv > /dev/null && ok || bad "audit --list --tsv refused"
expect_error 2 "probes: --block-bits does nothing with scheme double: it has no blocks (got '512')" \
    probes double --bits 4096 --k 3 --h1 1 --h2 2 --block-bits 512
"$B" probes blocked --bits 4096 --k 3 --h1 1 --block-bits 512 --draws 1,2,3 > /dev/null && ok \
    || bad "probes blocked --block-bits refused"

finish
