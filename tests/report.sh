#!/bin/sh
# report.sh - scripts/report regenerates results/REPORT.md byte for byte from the
# committed tables (plots aside), and every table of it has a row per result row.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
scripts/report --out "$tmp" --no-plots > /dev/null || { echo "report failed"; echo "0 passed, 1 failed"; exit 1; }
pass=0
fail=0
if cmp -s "$tmp/REPORT.md" results/REPORT.md; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: results/REPORT.md differs from a regeneration:"; diff "$tmp/REPORT.md" results/REPORT.md | head -20
fi
for csv in results/*.csv; do
    name=$(basename "$csv" .csv)
    grep -q "^Provenance: \`$csv\`" "$tmp/REPORT.md" && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: no section for $csv"; }
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
