#!/bin/sh
# report.sh - scripts/report regenerates results/REPORT.md byte for byte from the
# committed tables (plots aside), and every table of it has a row per result row.
set -u
. tests/lib.sh
scripts/report --out "$tmp" --no-plots > /dev/null || { bad "scripts/report failed"; finish; }
if cmp -s "$tmp/REPORT.md" results/REPORT.md; then ok; else
    bad "results/REPORT.md differs from a regeneration:"; diff "$tmp/REPORT.md" results/REPORT.md | head -20
fi
for csv in results/*.csv; do
    grep -q "^Provenance: \`$csv\`" "$tmp/REPORT.md" && ok || bad "no section for $csv"
done
finish
