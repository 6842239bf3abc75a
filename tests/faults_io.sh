#!/bin/sh
# faults_io.sh BLOOMSIM - output, key files and signals (issue 38, items 3, 4, 5, 6 and 8),
# end to end, run from the source root by meson test:
#  - output that does not reach its destination (/dev/full) is one line and exit 1, on
#    every command and path;
#  - a named pipe, socket or device as key file is refused as "not a regular file",
#    without blocking, by audit and by an experiment;
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
( sleep 60; kill $$ 2> /dev/null ) &
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

finish
