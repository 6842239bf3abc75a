#!/bin/sh
# docs.sh BLOOMSIM - the documentation cannot drift from the code:
#  - docs/model.md's column table is exactly `bloomsim columns --markdown` (csv.h);
#  - every scheme of `bloomsim list` has a row in docs/model.md's scheme table, every
#    estimator a mention under Estimators, every fingerprint filter a row in its table,
#    and every key set a row in the table of key sets ("Key sets and real hashes");
#  - every experiment in experiments/ has a row in README.md's experiment table;
#  - results/libraries.tsv (the report's library table) is `bloomsim audit --list --tsv`;
#  - README.md, docs/ and results/FINDINGS.md link nowhere outside the repository, and
#    every relative link points at a file that exists;
#  - README.md has at most 200 lines (the detail is in docs/);
#  - every src/ path that README.md, docs/ or a comment in src/ and tests/ cites exists:
#    one under a folder of src/ (a stage) must exist, and a bare src/FILE is stale when
#    FILE lives in a stage now (other src/ paths cite the libraries' own source trees,
#    src/main/java/...); NAME and est_NAME stand for any file;
#  - each section of docs/extending.md names files, and every one it names exists.
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
n=$(wc -l < README.md)
[ "$n" -le 200 ] && ok || bad "README.md has $n lines, more than 200 (the detail goes to docs/)"

# path_exists P: P exists, or P names a placeholder (NAME) in a folder that exists.
path_exists() {
    case $1 in
        *NAME*) d=${1%%NAME*}; d=${d%/*}; [ -d "$d" ] ;;
        *) [ -e "$1" ] ;;
    esac
}
# The src/ paths cited in files $@ (not $src/..., a shell variable), as FILE:PATH.
cited_src() {
    grep -oE '(^|[^A-Za-z0-9_./$-])src/[A-Za-z0-9_./-]+' "$@" /dev/null |
        sed -E 's/:[^s]?src\//:src\//; s/[.]+$//'
}
srcs=$(git ls-files 'src/*.c' 'src/*.h' 'src/*meson.build' 'tests/*.c' 'tests/*.h' \
           'tests/*.sh' 'tests/*.py' 'tests/meson.build' 2> /dev/null | grep -v node_modules)
for c in $(cited_src README.md docs/*.md $srcs | sort -u); do
    f=${c%%:*} p=${c#*:}
    rest=${p#src/}
    case $rest in
        */*) [ -d "src/${rest%%/*}" ] || continue
             path_exists "$p" && ok || bad "$f cites $p, which does not exist" ;;
        '') ;;
        *) [ -e "$p" ] && { ok; continue; }
           pat=$(echo "$rest" | sed 's/NAME/*/g')
           set -- src/*/$pat
           [ -e "$1" ] && bad "$f cites $p, which is $1 now" || ok ;;
    esac
done

# docs/extending.md: each section names files (paths of the repository or links), and
# every path it names exists.
awk '/^## / { n++ } n { print > (dir "/section" n) }' dir="$tmp" docs/extending.md
for s in "$tmp"/section*; do
    title=$(head -1 "$s")
    paths=$(grep -oE '(^|[^A-Za-z0-9_./$-])(src|tests|scripts|experiments|results|docs)/[A-Za-z0-9_./-]*' "$s" |
            sed -E 's/^[^a-z]//; s/[.]+$//' | sort -u)
    if [ -z "$paths" ] && ! grep -q '](' "$s"; then
        bad "docs/extending.md: '$title' names no file"
        continue
    fi
    for p in $paths; do
        path_exists "$p" && ok || bad "docs/extending.md: '$title' names $p, which does not exist"
    done
done
finish
