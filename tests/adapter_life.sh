#!/bin/sh
# adapter_life.sh BLOOMSIM - an adapter never outlives its audit, and what it says is
# printed safely (docs/adapter.md, Measuring an implementation; issue 37), from the source
# root by meson test, with no library installed (bloomsim's own adapter is the filter):
#  - done: an adapter whose `sh -c` child ignores SIGTERM is ended (SIGKILL after the
#    grace) once the audit is done;
#  - an adapter that exits leaving a child holding its pipes is noticed at once (not
#    after --timeout), reported with its status, exit 2, and the child ended;
#  - an adapter that ignores quit is waited for --timeout seconds, not 10, reported as
#    not exiting, exit 2, and ended with all it started;
#  - a timeout and a stop (SIGTERM to bloomsim) end a hung adapter that ignores SIGTERM;
#  - an adapter's name with terminal control bytes is printed escaped;
#  - an adapter's design no filter can be (k = 0, k >= m, m > 2^48) is refused;
#  - key files: one whose queried lines repeat inserted ones is refused (line, count),
#    by audit LIBRARY and --exec; a line that is not UTF-8 refused by audit LIBRARY for a
#    text library as its adapter refuses it; a str key holding NUL taken by bloomsim's
#    adapters (the protocol allows every byte but a newline);
#  - docs/example_adapter.py (Python) passes audit --exec: exit 0, its rate within 5
#    standard errors of the exact rate of uniform probes at the m and k it answers;
#  - a progress line on a terminal (under script(1), where it is installed), none when
#    standard error is not one.
# "Ended" is checked with kill -0 on the pids the adapters recorded (a zombie not yet
# reaped by the system counts as ended), each within a bounded time.
set -u
B=$1
. tests/lib.sh
A="$B adapter guava"
run="--keys 1000 --rate 0.01 --precision 0.5 --seed 1"

# gone PIDFILE WHAT: the process recorded in PIDFILE has ended.
gone() {
    p=$(cat "$1" 2> /dev/null)
    if [ -z "$p" ]; then
        bad "$2: no pid recorded"
    elif kill -0 "$p" 2> /dev/null && [ "$(awk '{print $3}' /proc/"$p"/stat 2> /dev/null)" != Z ]; then
        bad "$2: process $p of the adapter still runs after the audit"
        kill -KILL "$p" 2> /dev/null
    else
        ok
    fi
}
# within SECONDS START WHAT: no more than SECONDS have passed since START (date +%s).
within() {
    took=$(($(date +%s) - $2))
    if [ "$took" -le "$1" ]; then ok; else bad "$3: took $took s (want <= $1)"; fi
}

# Done: the audit succeeds; the child that ignores SIGTERM is killed after the grace.
t0=$(date +%s)
"$B" audit --exec "(trap '' TERM; exec sleep 300) < /dev/null > /dev/null & echo \$! > $tmp/p1; exec $A" \
    $run > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ "$rc" -eq 0 ] && grep -q '^  measured' "$tmp/out"; then ok; else bad "done: exit $rc: $(cat "$tmp/err")"; fi
within 20 "$t0" "done, a child ignoring SIGTERM"
gone "$tmp/p1" "done, a child ignoring SIGTERM"

# An adapter that answers hello and exits with status 3, leaving a child on its pipes:
# noticed within seconds though --timeout is 600.
t0=$(date +%s)
expect_error 2 "ended with status 3 (a process it started still holds its pipes)" \
    audit --exec "sleep 300 & echo \$! > $tmp/p2; read l; echo 'hello 1 leaver'; exit 3" \
    $run --timeout 600
within 10 "$t0" "a child keeping the pipes"
gone "$tmp/p2" "a child keeping the pipes"

# An adapter that ignores quit (its shell sleeps on, ignoring SIGTERM): waited --timeout
# 3 seconds, then ended; reported as not exiting.
t0=$(date +%s)
expect_error 2 "did not exit within 3 seconds after quit" \
    audit --exec "trap '' TERM; echo \$\$ > $tmp/p3; $A; exec sleep 300" $run --timeout 3
within 15 "$t0" "ignoring quit"
gone "$tmp/p3" "ignoring quit"

# A hung adapter that ignores SIGTERM: --timeout 1 ends the audit (exit 2) and it.
t0=$(date +%s)
expect_error 2 "within 1 seconds" \
    audit --exec "trap '' TERM; echo \$\$ > $tmp/p4; read l; echo 'hello 1 hung'; exec sleep 300" \
    $run --timeout 1
within 10 "$t0" "a timeout"
gone "$tmp/p4" "a timeout"

# A stop: SIGTERM to bloomsim while the hung adapter (ignoring SIGTERM) waits.
t0=$(date +%s)
"$B" audit --exec "trap '' TERM; echo \$\$ > $tmp/p5; read l; echo 'hello 1 hung'; exec sleep 300" \
    $run > /dev/null 2> "$tmp/err" &
pid=$!
n=0
while [ ! -s "$tmp/p5" ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
sleep 0.3
kill -TERM $pid
wait $pid
rc=$?
if [ "$rc" -eq 143 ]; then ok; else bad "a stop: exit $rc (want 143): $(cat "$tmp/err")"; fi
within 10 "$t0" "a stop"
gone "$tmp/p5" "a stop"

# Control bytes in the adapter's name are printed as \xNN.
"$B" audit --exec "read l; printf 'hello 1 \\033[31mred\\007\\n'; exec $A" $run > "$tmp/out" 2> "$tmp/err"
if grep -q "^exec: .x1b\[31mred.x07$" "$tmp/out" && ! grep -q "$(printf '\033')" "$tmp/out"; then
    ok
else
    bad "control bytes in the name: $(od -c "$tmp/out" | head -3) $(cat "$tmp/err")"
fi
# Designs no filter can be.
for d in "10 10" "10 0" "281474976710657 3" "18446744073709551615 7"; do
    expect_error 2 "is no filter: m = ${d% *} bits, k = ${d#* }" \
        audit --exec "read l; echo 'hello 1 liar'; read l; echo 'design $d'; cat > /dev/null" $run
done

# Key files.
printf 'a\nb\nc\nd\nb\ne\nf\ng\nh\na\n' > "$tmp/dup.txt"
expect_error 2 "dup.txt:5: 'b' is also line 2, an inserted one" \
    audit guava --key-set file --key-file "$tmp/dup.txt" --keys 4 --rate 0.1
expect_error 2 "(2 queried lines are; remove them)" \
    audit --exec "$A" --key-set file --key-file "$tmp/dup.txt" --keys 4 --rate 0.1
seq 1 1000 > "$tmp/ok.txt"
if "$B" audit guava --key-set file --key-file "$tmp/ok.txt" --keys 400 --rate 0.1 \
    --precision 0.5 > /dev/null 2>&1; then ok; else bad "a file without repeats refused"; fi
(seq 1 10; printf 'x\377y\n'; seq 11 20) > "$tmp/bad8.txt"
expect_error 2 "bad8.txt:11: not UTF-8, and guava's keys are text" \
    audit guava --key-set file --key-file "$tmp/bad8.txt" --keys 5 --rate 0.1
expect_error 2 "the adapter failed at 'query str 2': not a key of its kind: 'x?y'" \
    audit --exec "$A" --key-set file --key-file "$tmp/bad8.txt" --keys 5 --rate 0.1
got=$(printf 'hello 1\ndesign-bpk 10 10\ninsert str 1\na\000b\nquery str 2\na\000b\na\000c\n' |
      "$B" adapter leveldb | sed 1d | tr '\n' '|')
if [ "$got" = "design 104 6|inserted 1|10|" ]; then ok; else bad "leveldb and NUL: '$got'"; fi
# The Python example adapter of docs/adapter.md.
"$B" audit --exec 'python3 docs/example_adapter.py' --keys 2000 --rate 0.02 --precision 0.2 \
    --seed 3 > "$tmp/out" 2> "$tmp/err"
rc=$?
z=$(sed -n 's/^  uniform .*(\([-+0-9.]*\) standard errors)$/\1/p' "$tmp/out")
if [ "$rc" -eq 0 ] && [ -n "$z" ] && awk -v z="$z" 'BEGIN { exit !(z > -5 && z < 5) }'; then
    ok
else
    bad "docs/example_adapter.py: exit $rc, z '$z': $(cat "$tmp/err") $(cat "$tmp/out")"
fi
printf 'hello 1\ndesign 4 0.01\ninsert str 2\napple\n\nquery hex 2\n6170706c65\n00\nbits\nbogus\n' |
    python3 docs/example_adapter.py > "$tmp/out"
rc=$?
got=$(sed 1d "$tmp/out" | sed 's/^bits \([0-9]*\) .*/bits \1/' | tr '\n' '|')
if [ "$rc" -eq 1 ] && [ "$got" = "design 39 7|inserted 2|10|bits 39|error unknown command: b'bogus'|" ]; then
    ok
else
    bad "docs/example_adapter.py session: status $rc, '$got'"
fi
# Progress: on a terminal only (first drawn after 0.25 s: on a fast machine filter 1 is
# done by then, so the line may first name filter 2).
"$B" audit --exec 'python3 docs/example_adapter.py' --keys 20000 --rate 0.01 --precision 0.2 \
    --seed 1 > /dev/null 2> "$tmp/err"
if [ ! -s "$tmp/err" ]; then ok; else bad "progress without a terminal: $(cat "$tmp/err")"; fi
if command -v script > /dev/null 2>&1; then
    script -qec "$B audit --exec 'python3 docs/example_adapter.py' --keys 20000 --rate 0.01 --precision 0.2 --seed 1" \
        /dev/null > "$tmp/tty" 2>&1
    if tr '\r' '\n' < "$tmp/tty" | grep -aq 'audit --exec: filter [12] of 2 planned, .* M keys sent'; then
        ok
    else
        bad "no progress line on a terminal: $(head -c 300 "$tmp/tty")"
    fi
fi
finish
