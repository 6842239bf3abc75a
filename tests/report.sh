#!/bin/sh
# report.sh - scripts/report regenerates results/REPORT.md byte for byte from the
# committed tables (plots aside), every table (NAME.csv; NAME.tsv but libraries.tsv) has
# its section, and `--in` reports any
# directory of tables (a table without metadata included); the real-keys table (key
# sets against ideal words) checked by tests/report_keys.py on the pinned --quick tables
# of real-keys and real-keys-reports; bad arguments stop with one line and exit 2.
set -u
. tests/lib.sh
scripts/report --out "$tmp" --no-plots > /dev/null || { bad "scripts/report failed"; finish; }
if cmp -s "$tmp/REPORT.md" results/REPORT.md; then ok; else
    bad "results/REPORT.md differs from a regeneration:"; diff "$tmp/REPORT.md" results/REPORT.md | head -20
fi
for csv in results/*.csv results/*.tsv; do
    [ "$csv" = results/libraries.tsv ] && continue  # audit --list --tsv: the libraries' notes
    grep -q "^Provenance: \`$csv\`" "$tmp/REPORT.md" && ok || bad "no section for $csv"
done
# Every plot REPORT.md shows is in results/plots/, and nothing else is.
grep -o '(plots/[^)]*\.png)' results/REPORT.md | tr -d '()' | sort -u > "$tmp/linked"
(cd results && ls plots/*.png) | sort > "$tmp/present"
if cmp -s "$tmp/linked" "$tmp/present"; then ok; else
    bad "results/plots/ against the plots REPORT.md links:"; diff "$tmp/linked" "$tmp/present" | head
fi
for g in tests/golden/real-keys.csv tests/golden/real-keys-reports.csv; do
    rm -rf "$tmp/keys" && mkdir "$tmp/keys" && cp "$g" "$tmp/keys/"
    if scripts/report --in "$tmp/keys" --no-plots > /dev/null &&
        grep -q "no metadata" "$tmp/keys/REPORT.md" &&
        python3 tests/report_keys.py "$g" "$tmp/keys/REPORT.md" > "$tmp/keys.out"; then ok; else
        bad "the real-keys table of $g:"; head -5 "$tmp/keys.out"
    fi
done
# A table with a value that is not a number: one line naming file, line, column and
# value, exit 2, nothing written.
rm -rf "$tmp/badtab" && mkdir "$tmp/badtab"
awk -F, 'BEGIN { OFS = "," } NR == 1 { for (i = 1; i <= NF; i++) if ($i == "rate") c = i }
         NR == 3 { $c = "zz" } { print }' tests/golden/floor-4096.csv > "$tmp/badtab/floor-4096.csv"
scripts/report --in "$tmp/badtab" > /dev/null 2> "$tmp/err"
rc=$?
if [ $rc -eq 2 ] && grep -q "floor-4096.csv: line 3, column rate: not a number (got 'zz')" "$tmp/err" &&
    [ "$(wc -l < "$tmp/err")" -eq 1 ] && [ "$(ls "$tmp/badtab")" = floor-4096.csv ]; then ok; else
    bad "a table with rate 'zz': exit $rc, $(cat "$tmp/err"), $(ls "$tmp/badtab")"
fi
# Bad arguments: one line naming them, exit 2, nothing written.
for args in "--bogus" "--in $tmp/none" "--jobs 0" "--in"; do
    rm -rf "$tmp/bad" && mkdir "$tmp/bad"
    scripts/report $args --out "$tmp/bad" > /dev/null 2> "$tmp/err"
    rc=$?
    if [ $rc -eq 2 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] && [ -z "$(ls "$tmp/bad")" ]; then ok; else
        bad "scripts/report $args: exit $rc, $(wc -l < "$tmp/err") lines: $(head -2 "$tmp/err")"
    fi
done
finish
