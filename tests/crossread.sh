#!/bin/sh
# crossread.sh BLOOMSIM - results/crossread.tsv (seed 003's serialisation trap,
# results/FINDINGS.md 003.28 to 003.30) is what scripts/crossread makes with this
# bloomsim: five of its rows rerun, byte for byte (a power-of-two odd-stride filter read
# modulo a prime and modulo m, plain double hashing reading enhanced at k = 7 and 3,
# Guava's 32-bit strategy reading a filter of its 64-bit one), the header with them;
# and every row's intervals hold their rates.
set -u
B=$1
. tests/lib.sh
T=results/crossread.tsv

rows="8 10 13 20 24"
python3 scripts/crossread --bloomsim "$B" --print $rows > "$tmp/rows" 2> "$tmp/err" ||
    bad "scripts/crossread --print failed: $(cat "$tmp/err")"
grep -v '^#' "$T" | awk -v rows=" $rows " 'NR == 1 || index(rows, " " (NR - 1) " ")' > "$tmp/want"
[ "$(wc -l < "$tmp/want")" -eq 6 ] && ok || bad "$T lacks rows $rows"
diff "$tmp/want" "$tmp/rows" > "$tmp/diff" && ok || bad "$T is not reproduced: $(cat "$tmp/diff")"

# Each interval holds its rate; shares and rates lie in [0, 1].
awk -F'\t' '!/^#/ && NR > 3 {
        for (c = 10; c <= 16; c += 3)
            if (!($(c + 1) <= $c && $c <= $(c + 2) && $(c + 1) >= 0 && $(c + 2) <= 1))
                { print "row " NR - 3 ": column " c ": " $c " outside " $(c + 1) " to " $(c + 2); bad = 1 }
    } END { exit bad }' "$T" > "$tmp/out" && ok || bad "$T: $(cat "$tmp/out")"
finish
