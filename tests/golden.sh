#!/bin/sh
# golden.sh BLOOMSIM - the numbers are pinned: every shipped experiment's --quick table,
# its `seconds` column removed (found by header name), must equal tests/golden/NAME.csv
# byte for byte. A change of code that moves any number fails here; a change that is
# meant to move one replaces the golden file in the same commit and says why.
# Regenerate (only then): tests/golden.sh BLOOMSIM --update
set -u
B=$1
. tests/lib.sh
for f in experiments/*.ini; do
    e=$(basename "$f" .ini)
    if ! "$B" run "$e" --quick --threads 2 --out "$tmp" > /dev/null 2> "$tmp/err"; then
        # A split this build lacks (libsodium's BLAKE2b) stops the run, saying so.
        if grep -q "is not in this build" "$tmp/err"; then
            echo "skipped $e: $(cat "$tmp/err")"; continue
        fi
        bad "$e --quick did not run: $(head -2 "$tmp/err")"; continue
    fi
    strip_seconds "$tmp/$e.quick.csv" > "$tmp/$e.csv" || { bad "$e: no table"; continue; }
    if [ "${2:-}" = "--update" ]; then
        cp "$tmp/$e.csv" "tests/golden/$e.csv"
    fi
    if cmp -s "$tmp/$e.csv" "tests/golden/$e.csv"; then
        ok
    else
        bad "$e --quick differs from tests/golden/$e.csv:"
        diff "tests/golden/$e.csv" "$tmp/$e.csv" | head -6
    fi
done
for g in tests/golden/*.csv; do
    [ -f "experiments/$(basename "$g" .csv).ini" ] || bad "$g has no experiment"
done
finish
