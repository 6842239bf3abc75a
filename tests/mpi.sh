#!/bin/sh
# mpi.sh BLOOMSIM MPIRUN - a run over several MPI processes equals one process's
# (docs/cluster.md), run by meson test when MPI and mpirun are found, in builds without
# sanitizers (Open MPI's own allocations would read as leaks to LeakSanitizer):
#  - every shipped experiment's --quick table at 2 and 3 ranks of one thread (over-
#    subscribed on a small machine), and one table of each kind of row at 1 rank, equals
#    a single process's (its golden file), the seconds column aside; the metadata
#    records the ranks; nothing but the results is written;
#  - bad input under mpirun: one line, exit 2, nothing written;
#  - a run interrupted under mpirun keeps its finished rows, and --resume with another
#    number of ranks finishes it, equal to an uninterrupted run;
#  - a worker stopped with SIGSTOP is given up after BLOOMSIM_RANK_TIMEOUT seconds of
#    silence: the run ends naming it, its finished rows kept; a worker busy with long
#    filters is not (its heartbeats go on).
set -u
B=$1
MPIRUN=$2
. tests/lib.sh

# -q: no launcher banners, so our one line is all of stderr; root (CI) must say so.
# No single-copy transfers between ranks: containers that forbid ptrace would have
# Open MPI warn on stderr (the messages here are small either way).
set -- -q --oversubscribe --mca btl_vader_single_copy_mechanism none
if [ "$(id -u)" -eq 0 ]; then
    set -- "$@" --allow-run-as-root
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
fi
all=$(for f in experiments/*.ini; do basename "$f" .ini; done)

# The reference is one process's table: tests/golden/NAME.csv, which golden.sh checks
# against a run of this binary. One rank (rank 0 doing all the work) runs a table of
# each kind of row (conditional, lookups, stack, fingerprint filters, real keys); two and
# three ranks run every experiment.
for np in 1 2 3; do
    names=$all
    [ "$np" -eq 1 ] && names="floor-4096 stack-dials expandable real-keys blocked"
    # shellcheck disable=SC2086
    if ! "$MPIRUN" "$@" -np $np "$B" run $names --quick --threads 1 --out "$tmp/np$np" \
        > /dev/null 2> "$tmp/err"; then
        bad "$np ranks did not run: $(head -3 "$tmp/err")"; continue
    fi
    [ ! -s "$tmp/err" ] && ok || bad "$np ranks printed on stderr: $(head -3 "$tmp/err")"
    for e in $names; do
        if strip_seconds "$tmp/np$np/$e.quick.csv" > "$tmp/b" && cmp -s "tests/golden/$e.csv" "$tmp/b"; then
            ok
        else
            bad "$e --quick on $np ranks differs from one process (tests/golden/$e.csv)"
            diff "tests/golden/$e.csv" "$tmp/b" | head -4
        fi
    done
    grep -q "^ranks = $np$" "$tmp/np$np/floor-4096.quick.meta" \
        && grep -q "^threads = $np$" "$tmp/np$np/floor-4096.quick.meta" && ok \
        || bad "$np ranks: metadata: $(grep -E '^(ranks|threads|rank_threads) =' "$tmp/np$np/floor-4096.quick.meta")"
    [ "$(ls "$tmp/np$np" | grep -cvE '\.quick\.(csv|meta)$')" -eq 0 ] && ok \
        || bad "$np ranks left other files: $(ls "$tmp/np$np")"
done

# Bad input: found by rank 0 before any work, reported once, exit 2 from every rank.
for f in tests/data/bad/reversed-range.ini tests/data/bad/past-memory.ini; do
    # (past-memory's need is the 3 ranks' sum: the line as far as "needs")
    want=$(sed -n '1s/^; expect: //p' "$f" | sed 's/ needs .*/ needs/')
    "$MPIRUN" "$@" -np 3 "$B" run "$f" --quick --threads 1 --out "$tmp/bad" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    if [ $rc -ne 2 ]; then
        bad "$f on 3 ranks exited $rc, wanted 2: $(head -3 "$tmp/err")"
    elif [ "$(wc -l < "$tmp/err")" -ne 1 ] || ! grep -qF -- "$f:$want" "$tmp/err"; then
        bad "$f on 3 ranks said: $(head -5 "$tmp/err")"
    else
        ok
    fi
    [ ! -e "$tmp/bad" ] && [ ! -s "$tmp/out" ] && ok || bad "$f on 3 ranks wrote something"
done

# Interrupted on 2 ranks (SIGINT to the launcher), resumed on 3, equal to one process.
cat > "$tmp/intr.ini" <<INI
[sweep]
bits = 4096
bits_per_key = 4:32:1
schemes = double enhanced
filters = 100
lookups = 20000000
INI
"$B" run "$tmp/intr.ini" --threads 2 --out "$tmp/whole" > /dev/null 2>&1
"$MPIRUN" "$@" -np 2 "$B" run "$tmp/intr.ini" --threads 1 --out "$tmp/io" > /dev/null 2> "$tmp/err" &
pid=$!
wait_rows "$tmp/io/intr.csv.partial" 4
kill -INT $pid
wait $pid
rc=$?
[ $rc -ne 0 ] && grep -q "interrupted: [0-9]* of 58 rows finished" "$tmp/err" && ok \
    || bad "interrupted on 2 ranks: exit $rc, said $(head -3 "$tmp/err")"
kept=$(($(wc -l < "$tmp/io/intr.csv.partial") - 1))
[ $kept -ge 3 ] && [ $kept -lt 58 ] && ok || bad "interrupted on 2 ranks kept $kept rows"
"$MPIRUN" "$@" -np 3 "$B" run "$tmp/intr.ini" --threads 1 --out "$tmp/io" --resume \
    > /dev/null 2>&1 && ok || bad "--resume on 3 ranks failed"
grep -q "^resumed_rows = $kept$" "$tmp/io/intr.meta" && grep -q "^ranks = 3$" "$tmp/io/intr.meta" \
    && ok || bad "resumed metadata: $(grep -E '^(ranks|resumed_rows) =' "$tmp/io/intr.meta")"
strip_seconds "$tmp/io/intr.csv" > "$tmp/r1"
strip_seconds "$tmp/whole/intr.csv" > "$tmp/r2"
cmp -s "$tmp/r1" "$tmp/r2" && ok || bad "interrupted on 2 ranks, resumed on 3: differs from one process"
[ ! -e "$tmp/io/intr.csv.partial" ] && [ ! -e "$tmp/io/intr.run" ] && ok || bad "resume left leftovers"

# A stopped worker (issue 20): rank 1 gets SIGSTOP once rows are finished; rank 0 gives
# it up after 3 s of silence, naming it, and keeps the finished rows. Each rank writes
# its pid first (sh execs bloomsim in its place).
"$MPIRUN" "$@" -np 2 -x BLOOMSIM_RANK_TIMEOUT=3 sh -c 'echo $$ > "$0/pid.${OMPI_COMM_WORLD_RANK:-$PMIX_RANK}"; exec "$1" run "$0/intr.ini" --threads 1 --out "$0/st"' \
    "$tmp" "$B" > /dev/null 2> "$tmp/err" &
pid=$!
wait_rows "$tmp/st/intr.csv.partial" 3
worker=$(cat "$tmp/pid.1")
kill -STOP "$worker"
wait_exit $pid 300 "a stopped worker: the run still waits after 15 s"
kill -KILL "$worker" 2> /dev/null
[ $rc -ne 0 ] && grep -q "rank 1 (.*) sent nothing for 3 s while running filters" "$tmp/err" && ok \
    || bad "a stopped worker: exit $rc, said $(head -3 "$tmp/err")"
kept=$(($(wc -l < "$tmp/st/intr.csv.partial") - 1))
[ $kept -ge 2 ] && [ $kept -lt 58 ] && ok || bad "a stopped worker: kept $kept rows"
# Long filters (about 4 s each at 1 thread) with a 2 s limit: the heartbeats keep the
# busy worker in.
printf '[sweep]\nbits = 4096\nbits_per_key = 8\nschemes = independent\nfilters = 2\nlookups = 1e9\n' > "$tmp/long.ini"
"$MPIRUN" "$@" -np 2 -x BLOOMSIM_RANK_TIMEOUT=2 "$B" run "$tmp/long.ini" --threads 1 --out "$tmp/long" \
    > /dev/null 2> "$tmp/err" && [ -f "$tmp/long/long.csv" ] && ok || bad "long filters under a 2 s limit: $(head -3 "$tmp/err")"
finish
