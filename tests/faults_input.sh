#!/bin/sh
# faults_input.sh BLOOMSIM - corrupted input refused, not accepted silently (issue 38,
# item 6): a NUL byte in an experiment file, doubled underscores in a count, a repeated
# option, an OMP_NUM_THREADS that OpenMP would reject, an experiment name past the limit.
set -u
B=$1
. tests/lib.sh

sweep() { printf '[sweep]\nbits = %s\nbits_per_key = 4\nschemes = double\nfilters = 10\n' "$1"; }

# bits = 40<NUL>96 ran with m = 40: the line is refused with its number and value.
printf '[sweep]\nbits = 40\000096\nbits_per_key = 4\nschemes = double\nfilters = 10\n' \
    > "$tmp/nul.ini"
expect_error 2 "nul.ini:2: a NUL byte in the line (got 'bits = 40" run "$tmp/nul.ini" \
    --out "$tmp/o"
[ ! -e "$tmp/o/nul.csv" ] && ok || bad "a NUL experiment ran"

# Doubled, leading and trailing underscores are typing errors; one between digits is not.
{ sweep 4096; echo 'lookups = 1__0000'; } > "$tmp/us.ini"
expect_error 2 "us.ini:6: lookups must be" run "$tmp/us.ini" --out "$tmp/o"
expect_error 2 "(got '4__096')" exact --bits 4__096 --keys 400
expect_error 2 "(got '_4096')" exact --bits _4096 --keys 400
expect_error 2 "(got '4096_')" exact --bits 4096_ --keys 400
"$B" exact --bits 4_096 --keys 4_00 > /dev/null 2>&1 && ok || bad "4_096 refused"

# A repeated option is refused, in either form.
expect_error 2 "exact: --keys is given more than once (got '--keys')" exact --bits 4096 \
    --keys 400 --keys 300
expect_error 2 "run: --out is given more than once (got '--out=$tmp/B')" run "$tmp/us.ini" \
    --out "$tmp/A" --out="$tmp/B"

# OMP_NUM_THREADS=1e3 ran 1,000 threads (libgomp calls it invalid and prints so itself).
sweep 4096 > "$tmp/ok.ini"
OMP_NUM_THREADS=1e3 "$B" run "$tmp/ok.ini" --out "$tmp/o" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -qF "OMP_NUM_THREADS must be a whole number from 1 to 4096 (got '1e3')" \
    "$tmp/err" && [ ! -e "$tmp/o/ok.csv" ] && ok || bad "OMP_NUM_THREADS=1e3: exit $rc: $(cat "$tmp/err")"
OMP_NUM_THREADS=1_0 "$B" run "$tmp/ok.ini" --out "$tmp/o" > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] && ok || bad "OMP_NUM_THREADS=1_0 accepted"

# A name past 127 characters was cut (another name's result): refused.
n=$(printf 'a%.0s' $(seq 128))
sweep 4096 > "$tmp/$n.ini"
expect_error 2 "experiment name longer than 127 characters (got 128)" run "$tmp/$n.ini" \
    --out "$tmp/o"
ls "$tmp/o" 2> /dev/null | grep -q aaaa && bad "a long name ran" || ok

finish
