#!/bin/sh
# docs.sh BLOOMSIM - the documentation cannot drift from the code:
#  - docs/model.md's column table is exactly `bloomsim columns --markdown` (csv.h);
#  - every scheme of `bloomsim list` has a row in docs/model.md's scheme table, every
#    estimator a mention under Estimators, every fingerprint filter a row in its table,
#    and every key set a row in the table of key sets ("Key sets and real hashes");
#  - every experiment in experiments/ has a row in README.md's experiment table;
#  - results/libraries.tsv (the report's library table) is `bloomsim audit --list --tsv`;
#  - README.md, docs/ and results/FINDINGS.md link nowhere outside the repository, and
#    every relative link points at a file that exists.
set -u
B=$1
. tests/lib.sh

"$B" columns --markdown > "$tmp/want"
sed -n '/^<!-- columns:begin/,/^<!-- columns:end -->/p' docs/model.md | sed '1d;$d' > "$tmp/have"
[ -s "$tmp/have" ] && cmp -s "$tmp/want" "$tmp/have" && ok \
    || { bad "docs/model.md's column table differs from 'bloomsim columns --markdown'"; diff "$tmp/want" "$tmp/have" | head -5; }

# The library table the report quotes is the program's own.
"$B" audit --list --tsv > "$tmp/libs"
cmp -s "$tmp/libs" results/libraries.tsv && ok \
    || bad "results/libraries.tsv differs from 'bloomsim audit --list --tsv' (regenerate it)"

"$B" list > "$tmp/list"
for s in $(sed -n '/^schemes:/,/^$/p' "$tmp/list" | awk 'NR > 1 && NF { print $1 }'); do
    grep -q "^| \`$s\` |" docs/model.md && ok || bad "scheme $s has no row in docs/model.md"
done
for s in $(sed -n '/^estimators/,/^$/p' "$tmp/list" | awk 'NR > 1 && NF { print $1 }'); do
    grep -q "\`$s\`" docs/model.md && ok || bad "estimator $s is not in docs/model.md"
done
for s in $(sed -n '/^fingerprint filters/,/^$/p' "$tmp/list" | awk 'NR > 1 && NF { print $1 }'); do
    grep -q "^| \`$s\` |" docs/model.md && ok || bad "fingerprint filter $s has no row in docs/model.md"
done
sed -n '/^| key set | the keys |/,/^$/p' docs/model.md > "$tmp/keysets"
for s in $(sed -n '/^key sets/,/^$/p' "$tmp/list" | awk 'NR > 1 && NF { print $1 }'); do
    grep -q "^| \`$s\` |" "$tmp/keysets" && ok || bad "key set $s has no row in docs/model.md's table of key sets"
done
for f in experiments/*.ini; do
    e=$(basename "$f" .ini)
    grep -q "^| \`$e\` |" README.md && ok || bad "experiment $e has no row in README.md"
done

for d in README.md docs/*.md results/FINDINGS.md; do
    if grep -nE 'https?://|\]\(\.\./\.\./|shared/|SPEC\.md' "$d" > "$tmp/out"; then
        bad "$d links outside the repository: $(head -1 "$tmp/out")"
    else
        ok
    fi
    # Relative links [text](path) or [text](path#anchor) must name existing files.
    dir=$(dirname "$d")
    for l in $(grep -o '](\([^)#]*\)' "$d" | sed 's/^](//' | sort -u); do
        [ -n "$l" ] || continue
        [ -e "$dir/$l" ] && ok || bad "$d links to $l, which does not exist"
    done
done
finish
