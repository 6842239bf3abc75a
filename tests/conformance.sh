#!/bin/sh
# conformance.sh BLOOMSIM - bloomsim's transcriptions of the libraries against the
# libraries' own code, run from the source root by meson test. For npm's bloom-filters
# 3.0.4 (tests/conformance/, installed by scripts/deps from its lock file): the positions
# of 300 chosen pairs of hash words at sizes from 2 to 2^40 bits and 1 to 30 probes
# (Hashing.doubleHashing) against `bloomsim probes bloom-filters`, and the designs of 40
# key counts and rates (BloomFilter.create's formulas) against `bloomsim size --rule
# bloom-filters`: every position, m and k equal. Skipped (exit 77) where node or the
# packages are absent.
set -u
B=$1
. tests/lib.sh
js=tests/conformance/bloom_filters.js
if ! command -v node > /dev/null || [ ! -d tests/conformance/node_modules/bloom-filters ]; then
    echo "skipped: node or tests/conformance/node_modules (scripts/deps installs them) absent"
    exit 77
fi

# Positions: words, size and k drawn by awk from a fixed seed.
awk 'BEGIN { srand(2026); for (t = 0; t < 300; t++) {
        a = int(rand() * 4294967296); b = int(rand() * 4294967296)
        e = 1 + int(rand() * 40); m = 2 + int(rand() * (2 ^ e - 2))
        k = 1 + int(rand() * 30); if (k >= m) k = m - 1
        printf "%.0f %.0f %.0f %d\n", a, b, m, k } }' > "$tmp/cases"
while read -r a b m k; do
    want=$(node "$js" positions "$a" "$b" "$m" "$k")
    got=$("$B" probes bloom-filters --bits "$m" --k "$k" --h1 "$a" --h2 "$b" | tail -1)
    [ "$want" = "$got" ] && ok || bad "positions a=$a b=$b m=$m k=$k: library '$want', bloomsim '$got'"
done < "$tmp/cases"

# Designs.
for n in 1 7 1000 12345 1000000 1000000000; do
    for p in 0.5 0.1 0.01 0.001 0.000001 0.3; do
        want=$(node "$js" design "$n" "$p")
        got=$("$B" size --keys "$n" --rate "$p" --rule bloom-filters 2>&1 |
              sed -n 's/^m = \([0-9]*\) bits .*, k = \([0-9]*\),.*/\1 \2/p')
        [ "$want" = "$got" ] && ok || bad "design n=$n p=$p: library '$want', bloomsim '$got'"
    done
done
finish
