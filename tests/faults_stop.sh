#!/bin/sh
# faults_stop.sh BLOOMSIM - a stop (SIGINT, SIGTERM) ends a run within about a second
# whatever the structure being built (issue 38, item 2): for each structure, a run whose
# second row's filter takes well over 10 s to build here is stopped while it builds; it
# exits 130 (143) with the usual line within 5 s, keeps its first row, and a --resume
# of a small run stopped the same way gives the uninterrupted run's table.
set -u
B=$1
. tests/lib.sh
OMP_NUM_THREADS=1
export OMP_NUM_THREADS

# sweep KIND N: one [sweep] of structure KIND at n = N keys (its filters big for big N).
sweep() {
    case $1 in
    plain) printf '[sweep]\nbits = %s\nbits_per_key = 10\nschemes = double\nk = 7\nfilters = 2\nlookups = 1000\n' $(($2 * 10)) ;;
    rebuilt) printf '[sweep]\ndesign_keys = 1000\ndesign_rate = 0.01\ninserted = %s\nrebuilt = yes\nschemes = double\nfilters = 2\n' "$2" ;;
    stack) printf '[sweep]\ndesign_keys = %s\ndesign_rate = 0.01\ninserted = %s\nstack = %s/2/0.5\nschemes = double\nfilters = 2\n' "$2" $(($2 * 3)) "$2" ;;
    keys) printf '[sweep]\ndesign_keys = %s\ndesign_rate = 0.01\nlibraries = leveldb\nkey_sets = seq\nfilters = 2\nlookups = 1000\n' "$2" ;;
    *) printf '[sweep]\ndesign_keys = %s\ndesign_rate = 0.01\ninserted = %s\nfingerprint = %s\nestimator = lookups\nfilters = 2\nlookups = 1000\n' "$2" "$2" "$1" ;;
    esac
}

# experiment NAME KIND N1 N2: NAME.ini of two rows of KIND, at N1 and N2 keys.
experiment() {
    { printf '[experiment]\ntitle = stop %s\n\n' "$2"; sweep "$2" "$3"; echo; sweep "$2" "$4"; } > "$tmp/$1.ini"
}

# stop KIND N SIGNAL: a run of KIND whose second row builds filters of N keys, stopped by
# SIGNAL once its first row is written and its second filter's build has begun: exit
# 130 (143) with the usual line within 5 s, the first row kept.
stop() {
    experiment "$1" "$1" 1000 "$2"
    rm -rf "$tmp/o"
    "$B" run "$tmp/$1.ini" --out "$tmp/o" > /dev/null 2> "$tmp/$1.err" &
    pid=$!
    wait_rows "$tmp/o/$1.csv.partial" 2 || bad "$1: the first row never came"
    sleep 1.5 # the second row's build is under way (it takes far longer)
    t0=$(date +%s.%N)
    kill -"$3" $pid
    wait $pid
    rc=$?
    t1=$(date +%s.%N)
    took=$(echo "$t1 $t0" | awk '{ printf "%.2f", $1 - $2 }')
    echo "$1 (n = $2) SIG$3: stopped in $took s"
    [ "$3" = INT ] && want=130 || want=143
    [ $rc -eq $want ] && ok || bad "$1 SIG$3: exit $rc, wanted $want: $(cat "$tmp/$1.err")"
    awk -v t="$took" 'BEGIN { exit !(t < 5) }' && ok || bad "$1 SIG$3: took $took s to stop"
    grep -q "interrupted: 1 of 2 rows finished" "$tmp/$1.err" && [ "$(wc -l < "$tmp/$1.err")" -eq 1 ] \
        && ok || bad "$1 SIG$3 message: $(cat "$tmp/$1.err")"
    [ "$(wc -l < "$tmp/o/$1.csv.partial")" -eq 2 ] && ok || bad "$1 SIG$3: kept $(wc -l < "$tmp/o/$1.csv.partial") lines"
}

# Sizes whose second row's build alone takes well over 10 s here (one thread); the
# plain filter is the control (its loops asked already).
stop plain 200000000 INT
stop rebuilt 200000000 INT
stop stack 60000000 TERM
stop keys 200000000 INT
stop quotient 64000000 INT
stop infinifilter 64000000 INT
stop aleph 64000000 TERM
stop cuckoo 64000000 INT
stop cuckoo-rebuilt 64000000 INT

# At a small size, a run stopped while its second row's filters are built, then
# --resume: the table of an uninterrupted run (seconds aside), nothing left behind.
for kind in quotient cuckoo stack; do
    { printf '[experiment]\ntitle = resume %s\n\n' $kind; sweep $kind 1000; echo
      sweep $kind 2000000 | sed 's/^filters = 2$/filters = 12/'; } > "$tmp/r$kind.ini"
    rm -rf "$tmp/o" "$tmp/w"
    "$B" run "$tmp/r$kind.ini" --out "$tmp/w" > /dev/null 2>&1 || bad "$kind: uninterrupted run failed"
    "$B" run "$tmp/r$kind.ini" --out "$tmp/o" > /dev/null 2> "$tmp/r.err" &
    pid=$!
    wait_rows "$tmp/o/r$kind.csv.partial" 2
    sleep 0.3
    kill -INT $pid
    wait $pid
    rc=$?
    [ $rc -eq 130 ] && [ "$(wc -l < "$tmp/o/r$kind.csv.partial")" -eq 2 ] && ok \
        || bad "$kind small: exit $rc, $(cat "$tmp/r.err")"
    "$B" run "$tmp/r$kind.ini" --out "$tmp/o" --resume > /dev/null 2>&1 && ok || bad "$kind: --resume failed"
    strip_seconds "$tmp/o/r$kind.csv" > "$tmp/r1"
    strip_seconds "$tmp/w/r$kind.csv" > "$tmp/r2"
    cmp -s "$tmp/r1" "$tmp/r2" && ok || bad "$kind: resumed table differs from an uninterrupted run"
    [ ! -e "$tmp/o/r$kind.csv.partial" ] && [ ! -e "$tmp/o/r$kind.run" ] && ok || bad "$kind: leftovers"
done
finish
