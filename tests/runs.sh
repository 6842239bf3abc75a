#!/bin/sh
# runs.sh BLOOMSIM [RENAME_FAIL_SO] - runs that cannot corrupt each other (issue 20), end
# to end on real processes, run from the source root by meson test (split from cli.sh so
# that the two run side by side):
#  - SIGINT or SIGTERM keeps every finished row, a plain rerun refuses to discard them,
#    --resume finishes and equals an uninterrupted run;
#  - a stop within 2 s at any filter size;
#  - one writer per result, and a claim left by SIGKILL does not block --resume;
#  - no write through a symbolic link; every experiment's checks before any work;
#  - a failed start leaves nothing, a failed publish keeps the rows; never clobber
#    without --force; a forced run and an empty partial resumed.
set -u
B=$1
. tests/lib.sh
# Two threads on any machine, so an interrupted run has as many rows left when the
# signal comes as it has here (the runs' results do not depend on it).
OMP_NUM_THREADS=2
export OMP_NUM_THREADS

# stop_run PID SIGNAL WHAT [FILE]: send SIGNAL (INT or TERM) to the background run PID,
# wait for it, and check that it ended as that stop says (exit 130 or 143), failing with
# WHAT and FILE's contents otherwise. Sets rc to its exit status.
stop_run() {
    kill -"$2" "$1"
    wait "$1"
    rc=$?
    [ "$2" = INT ] && _want=130 || _want=143
    [ $rc -eq $_want ] && ok || bad "$3: exit $rc, wanted $_want${4:+: $(cat "$4")}"
}

# Interruption on a real process: SIGINT or SIGTERM keeps every finished row (exit 130
# or 143); a plain rerun refuses to discard them; --resume finishes, and the result
# equals an uninterrupted run's, the seconds column aside. intr has small filters, one a
# thread; big has filters built by all threads together (EST_SHARED_BITS, 2^24 bits).
cat > "$tmp/intr.ini" <<INI
[sweep]
bits = 4096
bits_per_key = 4:32:1
schemes = double
filters = 100
lookups = 30000000
INI
cat > "$tmp/big.ini" <<INI
[sweep]
bits = 16777216
bits_per_key = 10
k = 7
schemes = guava32 guava64 independent double hash32 enhanced
filters = 4
lookups = 4000000
INI
# interrupt NAME SIGNAL ROWS
interrupt() {
    [ -f "$tmp/whole/$1.csv" ] || "$B" run "$tmp/$1.ini" --out "$tmp/whole" > /dev/null 2>&1
    rm -rf "$tmp/io"
    "$B" run "$tmp/$1.ini" --out "$tmp/io" > /dev/null 2> "$tmp/intr.err" &
    pid=$!
    wait_rows "$tmp/io/$1.csv.partial" 3
    stop_run $pid $2 "$1 SIG$2"
    grep -q "interrupted: [0-9]* of $3 rows finished" "$tmp/intr.err" && ok || bad "$1 SIG$2 message: $(cat "$tmp/intr.err")"
    kept=$(($(wc -l < "$tmp/io/$1.csv.partial") - 1))
    [ $kept -ge 2 ] && [ $kept -lt $3 ] && ok || bad "$1 SIG$2 kept $kept rows"
    expect_error 2 "holds rows of an interrupted run; --resume continues it" run "$tmp/$1.ini" --out "$tmp/io"
    "$B" run "$tmp/$1.ini" --out "$tmp/io" --resume > /dev/null 2>&1 && ok || bad "$1 SIG$2: --resume failed"
    grep -q "^resumed_rows = $kept$" "$tmp/io/$1.meta" && ok || bad "$1 SIG$2: resumed_rows"
    strip_seconds "$tmp/io/$1.csv" > "$tmp/r1"
    strip_seconds "$tmp/whole/$1.csv" > "$tmp/r2"
    cmp -s "$tmp/r1" "$tmp/r2" && ok || bad "$1 SIG$2: resumed CSV differs from an uninterrupted run"
    [ ! -e "$tmp/io/$1.csv.partial" ] && [ ! -e "$tmp/io/$1.run" ] && ok || bad "$1 SIG$2: leftovers"
}
interrupt big INT 6
interrupt intr TERM 29
interrupt intr INT 29
# A stop stops within about a second at any size (issue 20): here a small filter's 10^10
# lookups (minutes) in the second row; SIGINT, twice, while they run: exit 130 within
# 2 s, the first row kept.
cat > "$tmp/slow.ini" <<INI
[sweep]
bits = 4096
bits_per_key = 8
schemes = independent
filters = 2
lookups = 2000

[sweep]
bits = 4096
bits_per_key = 8
schemes = independent
filters = 2
lookups = 2e10
INI
"$B" run "$tmp/slow.ini" --threads 2 --out "$tmp/slow" > /dev/null 2> "$tmp/slow.err" &
pid=$!
wait_rows "$tmp/slow/slow.csv.partial" 2
sleep 0.2
kill -INT $pid
kill -INT $pid
wait_exit $pid 40 "SIGINT during a small filter's lookups: still running after 2 s"
[ $rc -eq 130 ] && grep -q "interrupted: 1 of 2 rows finished" "$tmp/slow.err" \
    && [ "$(wc -l < "$tmp/slow/slow.csv.partial")" -eq 2 ] && ok \
    || bad "SIGINT during a small filter's lookups: exit $rc, $(cat "$tmp/slow.err")"
# One writer per result (issue 20): while a run holds its outputs, a second run on the
# same name and --out is refused before any work, with or without --resume or --force,
# naming the holder; the first run's rows are untouched. (two: intr's rows, faster; the
# first run on one thread, so that it outlasts the refusals.)
sed 's/^lookups = .*/lookups = 10000000/' "$tmp/intr.ini" > "$tmp/two.ini"
"$B" run "$tmp/two.ini" --out "$tmp/two" --threads 1 > /dev/null 2> "$tmp/two.err" &
pid=$!
wait_rows "$tmp/two/two.csv.partial" 3
for flags in "" --resume "--force --seed 2"; do
    # shellcheck disable=SC2086
    expect_error 2 "two.csv: being written by another run (pid $pid on host $(uname -n)" run "$tmp/two.ini" --out "$tmp/two" $flags
done
stop_run $pid INT "the first of two runs" "$tmp/two.err"
kept=$(($(wc -l < "$tmp/two/two.csv.partial") - 1))
"$B" run "$tmp/two.ini" --out "$tmp/two" --resume > /dev/null 2>&1 \
    && grep -q "^resumed_rows = $kept$" "$tmp/two/two.meta" && [ "$(wc -l < "$tmp/two/two.csv")" -eq 30 ] \
    && ok || bad "two runs: the first's rows were not kept whole ($kept)"
[ ! -e "$tmp/two/two.lock" ] && ok || bad "two runs: the lock stayed"
strip_seconds "$tmp/two/two.csv" > "$tmp/r2"
# A claim left by a killed run (SIGKILL) does not block --resume; the result equals the
# one above.
"$B" run "$tmp/two.ini" --out "$tmp/killed" > /dev/null 2>&1 &
pid=$!
wait_rows "$tmp/killed/two.csv.partial" 3
kill -KILL $pid
wait $pid 2> /dev/null
"$B" run "$tmp/two.ini" --out "$tmp/killed" --resume > /dev/null 2> "$tmp/err" && ok \
    || bad "--resume after SIGKILL: $(cat "$tmp/err")"
strip_seconds "$tmp/killed/two.csv" > "$tmp/r1"
cmp -s "$tmp/r1" "$tmp/r2" && [ "$(ls "$tmp/killed")" = "$(printf 'two.csv\ntwo.meta')" ] \
    && ok || bad "--resume after SIGKILL: differs from the run above, or left $(ls "$tmp/killed")"
# Never through a symbolic link: a partial, run marker or lock that is a link (to a file
# outside --out, here) is refused and its target untouched.
for f in intr.csv.partial intr.run intr.lock; do
    rm -rf "$tmp/ln"
    mkdir -p "$tmp/ln"
    echo "not yours" > "$tmp/outside"
    ln -s "$tmp/outside" "$tmp/ln/$f"
    expect_error 2 "$tmp/ln/$f: not a regular file of bloomsim's (a symbolic link?)" run "$tmp/intr.ini" --out "$tmp/ln" --force
    [ "$(cat "$tmp/outside")" = "not yours" ] && [ "$(ls "$tmp/ln")" = "$f" ] && ok \
        || bad "a symbolic link $f: written through, or files left: $(ls "$tmp/ln")"
done
# run A B checks B's outputs and memory before running A (issue 20): B refused, A not
# written.
rm -rf "$tmp/ab"
"$B" run "$tmp/intr.ini" --quick --seed 5 --out "$tmp/ab" > /dev/null 2>&1
expect_error 2 "intr.quick.csv: holds a complete result of another seed" run stride-zero "$tmp/intr.ini" --quick --out "$tmp/ab"
expect_error 2 "past-memory.ini:3: the filter size needs" run stride-zero tests/data/bad/past-memory.ini --quick --out "$tmp/ab"
[ "$(ls "$tmp/ab")" = "$(printf 'intr.quick.csv\nintr.quick.meta')" ] && ok || bad "run A B wrote A before refusing B: $(ls "$tmp/ab")"
# A failed start writes nothing (issue 20): with every write failing (a file size limit
# of 0, as a full disk would), the run says so in one line and leaves nothing, not even
# the directory it made; then the same command runs. (Its stderr goes to a pipe, which
# the limit does not apply to.)
said=$( (ulimit -f 0; trap '' XFSZ; "$B" run "$tmp/intr.ini" --quick --out "$tmp/full" 2>&1 > /dev/null; echo "exit $?") )
[ "$(echo "$said" | wc -l)" -eq 2 ] && echo "$said" | grep -q "^bloomsim: .*: cannot write: File too large" \
    && [ "$(echo "$said" | tail -1)" = "exit 2" ] && ok || bad "a failed start said: $said"
[ ! -e "$tmp/full" ] && ok || bad "a failed start left $(ls -a "$tmp/full")"
mkdir -p "$tmp/full"
(ulimit -f 0; trap '' XFSZ; exec "$B" run "$tmp/intr.ini" --quick --out "$tmp/full") > /dev/null 2>&1
[ -z "$(ls -A "$tmp/full")" ] && ok || bad "a failed start left $(ls -A "$tmp/full")"
"$B" run "$tmp/intr.ini" --quick --out "$tmp/full" > /dev/null 2> "$tmp/err" && ok \
    || bad "after a failed start: $(cat "$tmp/err")"
# A failed publish keeps the rows (issue 20): with either of its renames refused (the
# metadata's into place, then the table's; $2 is a stand-in for such a file system, absent
# under the sanitizers), the run says so in one line and exits 1, its partial and NAME.run
# stay, and --resume publishes the table an unbroken run writes.
if [ -n "${2:-}" ]; then
    strip_seconds "$tmp/full/intr.quick.csv" > "$tmp/r2"
    for suffix in /intr.quick.meta /intr.quick.csv; do
        rm -rf "$tmp/pub"
        said=$(LD_PRELOAD=$2 RENAME_FAIL_SUFFIX=$suffix "$B" run "$tmp/intr.ini" --quick \
                   --out "$tmp/pub" 2>&1 > /dev/null; echo "exit $?")
        [ "$(echo "$said" | wc -l)" -eq 2 ] && [ "$(echo "$said" | tail -1)" = "exit 1" ] \
            && echo "$said" | grep -q "$suffix: cannot write: .*(the finished rows are kept for --resume)" \
            && ok || bad "a publish refused at $suffix said: $said"
        [ -s "$tmp/pub/intr.quick.csv.partial" ] && [ -s "$tmp/pub/intr.quick.run" ] && ok \
            || bad "a publish refused at $suffix kept: $(ls "$tmp/pub")"
        "$B" run "$tmp/intr.ini" --quick --out "$tmp/pub" --resume > /dev/null 2> "$tmp/err" \
            && strip_seconds "$tmp/pub/intr.quick.csv" | cmp -s - "$tmp/r2" \
            && [ "$(ls "$tmp/pub")" = "$(printf 'intr.quick.csv\nintr.quick.meta')" ] && ok \
            || bad "--resume after a publish refused at $suffix: $(cat "$tmp/err"; ls "$tmp/pub")"
    done
fi

# Never clobber: a complete result of another seed stays unless --force.
cp "$tmp/io/intr.csv" "$tmp/before.csv"
expect_error 2 "holds a complete result of another seed; --force replaces it" run "$tmp/intr.ini" --out "$tmp/io" --seed 9
cmp -s "$tmp/before.csv" "$tmp/io/intr.csv" && ok || bad "a refused run touched the result"
"$B" run "$tmp/intr.ini" --out "$tmp/io" --seed 9 --force > /dev/null 2>&1 && ok || bad "--force"
grep -q "^seed = 9$" "$tmp/io/intr.meta" && ok || bad "--force did not replace the result"
# A forced run (seed 10 over seed 9's result) interrupted, then resumed: the resume
# continues it (its start already had the right to replace the result) and the result
# equals an uninterrupted run of seed 10.
"$B" run "$tmp/intr.ini" --out "$tmp/io" --seed 10 --force > /dev/null 2>&1 &
pid=$!
wait_rows "$tmp/io/intr.csv.partial" 3
stop_run $pid INT "the forced run was not interrupted"
"$B" run "$tmp/intr.ini" --out "$tmp/io" --seed 10 --resume > /dev/null 2>&1 && ok || bad "--resume of a forced run refused"
"$B" run "$tmp/intr.ini" --out "$tmp/s10" --seed 10 > /dev/null 2>&1
strip_seconds "$tmp/io/intr.csv" > "$tmp/r1"
strip_seconds "$tmp/s10/intr.csv" > "$tmp/r2"
cmp -s "$tmp/r1" "$tmp/r2" && grep -q "^seed = 10$" "$tmp/io/intr.meta" && ok || bad "resumed forced run differs"
# A run killed before its header reached the disk leaves an empty partial beside its
# run marker: --resume starts it from the first row.
mkdir -p "$tmp/empty"
"$B" run "$tmp/intr.ini" --out "$tmp/empty" --seed 10 > /dev/null 2>&1 &
pid=$!
n=0
while [ $n -lt 400 ] && [ ! -s "$tmp/empty/intr.csv.partial" ]; do sleep 0.05; n=$((n + 1)); done
stop_run $pid INT "the run to leave an empty partial was not interrupted"
: > "$tmp/empty/intr.csv.partial"
"$B" run "$tmp/intr.ini" --out "$tmp/empty" --seed 10 --resume > /dev/null 2>&1 && ok || bad "--resume of an empty partial"
strip_seconds "$tmp/empty/intr.csv" > "$tmp/r1"
cmp -s "$tmp/r1" "$tmp/r2" && ok || bad "resumed empty partial differs"

finish
