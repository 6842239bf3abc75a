#!/bin/sh
# report.sh - scripts/report regenerates results/REPORT.md byte for byte from the
# committed tables (plots aside), and every table of it has a row per result row; and
# the real-keys table (key sets against ideal words) checked by tests/report_keys.py on
# the pinned --quick tables of real-keys and real-keys-reports.
set -u
. tests/lib.sh
scripts/report --out "$tmp" --no-plots > /dev/null || { bad "scripts/report failed"; finish; }
if cmp -s "$tmp/REPORT.md" results/REPORT.md; then ok; else
    bad "results/REPORT.md differs from a regeneration:"; diff "$tmp/REPORT.md" results/REPORT.md | head -20
fi
for csv in results/*.csv; do
    grep -q "^Provenance: \`$csv\`" "$tmp/REPORT.md" && ok || bad "no section for $csv"
done
for g in tests/golden/real-keys.csv tests/golden/real-keys-reports.csv; do
    if awk -v name=keys -v plotdir= -f scripts/report.awk "$g" > "$tmp/keys.md" &&
        python3 tests/report_keys.py "$g" "$tmp/keys.md" > "$tmp/keys.out"; then ok; else
        bad "the real-keys table of $g:"; head -5 "$tmp/keys.out"
    fi
done
finish
