#!/bin/sh
# conformance.sh BLOOMSIM - bloomsim's transcriptions of the libraries against the
# libraries' own code, run from the source root by meson test. For npm's bloom-filters
# 3.0.4 (tests/conformance/, installed by scripts/deps from its lock file): the positions
# of 300 chosen pairs of hash words at sizes from 2 to 2^40 bits and 1 to 30 probes
# (Hashing.doubleHashing) against `bloomsim probes bloom-filters`, and the designs of 36
# key counts and rates (BloomFilter.create's formulas) against `bloomsim size --rule
# bloom-filters`: every position, m and k equal. Skipped (exit 77) on a machine without
# node; node_modules missing fails it, saying that scripts/deps installs it.
set -u
B=$1
. tests/lib.sh
js=tests/conformance/bloom_filters.js
if ! command -v node > /dev/null; then
    echo "skipped: no node on this machine (the JavaScript libraries need it)"
    exit 77
fi
if [ ! -d tests/conformance/node_modules/bloom-filters ]; then
    bad "its library is missing: tests/conformance/node_modules lacks bloom-filters (scripts/deps: npm ci)"
    finish
fi

# Positions: words, size and k drawn by awk from a fixed seed.
awk 'BEGIN { srand(2026); for (t = 0; t < 300; t++) {
        a = int(rand() * 4294967296); b = int(rand() * 4294967296)
        e = 1 + int(rand() * 40); m = 2 + int(rand() * (2 ^ e - 2))
        k = 1 + int(rand() * 30); if (k >= m) k = m - 1
        printf "%.0f %.0f %.0f %d\n", a, b, m, k } }' > "$tmp/cases"
node "$js" positions - < "$tmp/cases" > "$tmp/want"
while read -r a b m k; do
    "$B" probes bloom-filters --bits "$m" --k "$k" --h1 "$a" --h2 "$b" | tail -1
done < "$tmp/cases" > "$tmp/got"
[ "$(wc -l < "$tmp/want")" -eq 300 ] && ok || bad "positions: the library answered $(wc -l < "$tmp/want") of 300 cases"
paste -d '|' "$tmp/cases" "$tmp/want" "$tmp/got" > "$tmp/all"
while IFS='|' read -r c want got; do
    [ "$want" = "$got" ] && ok || bad "positions $c (a b m k): library '$want', bloomsim '$got'"
done < "$tmp/all"

# Designs.
for n in 1 7 1000 12345 1000000 1000000000; do
    for p in 0.5 0.1 0.01 0.001 0.000001 0.3; do echo "$n $p"; done
done > "$tmp/designs"
node "$js" design - < "$tmp/designs" > "$tmp/want"
[ "$(wc -l < "$tmp/want")" -eq 36 ] && ok || bad "design: the library answered $(wc -l < "$tmp/want") of 36 cases"
paste -d '|' "$tmp/designs" "$tmp/want" > "$tmp/all"
while IFS='|' read -r c want; do
    # shellcheck disable=SC2086
    set -- $c
    got=$("$B" size --keys "$1" --rate "$2" --rule bloom-filters 2>&1 |
          sed -n 's/^m = \([0-9]*\) bits .*, k = \([0-9]*\),.*/\1 \2/p')
    [ "$want" = "$got" ] && ok || bad "design n=$1 p=$2: library '$want', bloomsim '$got'"
done < "$tmp/all"
finish
