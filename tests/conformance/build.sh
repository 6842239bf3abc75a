#!/bin/sh
# tests/conformance/build.sh DIR - build the adapters (docs/adapter.md) whose libraries
# are installed into DIR, and print one line per adapter that can run: its name, the
# library of `bloomsim audit --list` that the installed version is, and the command that
# starts it (for `sh -c`), tab-separated. Adapters whose library is missing are left
# out, with a line on stderr saying why and which package scripts/deps installs for it
# (tests/adapters.sh fails on such a line, unless it is node itself that is missing). Run from
# anywhere; an adapter is rebuilt only when its source (or adapter_io.h, which the C++
# adapters share) is newer than what DIR holds.
# Exit status 1 when an installed library's adapter fails to build.
#   libbloom               C, -lbloom (libbloom-dev; Debian's 1.6 is library libbloom-1)
#   leveldb                C++, -lleveldb (libleveldb-dev)
#   rocksdb-fastlocal      C++, -lrocksdb (librocksdb-dev), format_version 5 (rocksdb,
#                          7.8.3)
#   rocksdb-legacy         the same program, format_version 4
#   rocksdb-ribbon         the same program, NewRibbonFilterPolicy (bloomsim's fingerprint
#                          filter rocksdb-ribbon)
#   guava                  Java, javac against /usr/share/java/guava.jar (libguava-java,
#                          default-jdk-headless)
#   bloomfilter-js-0.0.21  node, tests/conformance/node_modules (npm ci)
#   bloomfilter-js-1.1.0   the same program (library bloomfilter-js)
#   bloom-filters          node
#   bloom-filters-slices   node: its PartitionedBloomFilter (library bloom-filters-slices)
#   bloom-filters-cuckoo   node: bloom-filters' CuckooFilter (bloomsim's fingerprint filter
#                          bloom-filters-cuckoo)
#   bloom-filters-xor      node: its XorFilter (bloom-filters-xor)
#   bloom-filters-scalable node: its ScalableBloomFilter (bloomsim's chain
#                          bloom-filters-scalable)
#   bits-and-blooms        Go, github.com/bits-and-blooms/bloom 3.3.1
#                          (golang-github-willf-bloom-dev, golang-go), built offline in
#                          GOPATH mode from /usr/share/gocode, with adapter_io.go
#   blobloom               Go, github.com/greatroar/blobloom 0.7.1
#                          (golang-github-greatroar-blobloom-dev), the same way
#   dcso-bloom             Go, github.com/DCSO/bloom 0.2.4 (golang-github-dcso-bloom-dev)
#   seiflotfy-cuckoo       Go, github.com/seiflotfy/cuckoofilter bc60055
#                          (golang-github-seiflotfy-cuckoofilter-dev, which brings
#                          go-metro), run with GODEBUG=randseednop=0 so that its
#                          rand.Seed(1) keeps working past Go 1.24 (bloomsim's fingerprint
#                          filter seiflotfy-cuckoo)
#   flor                   Python, flor 1.1.3 (python3-flor): the python3 that imports it
#                          (Debian's /usr/bin/python3 where another comes first on PATH)
set -u
[ $# -eq 1 ] || { echo "usage: tests/conformance/build.sh DIR" >&2; exit 2; }
src=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$1" || exit 1
out=$(cd "$1" && pwd)
status=0
skip() { echo "adapters: $1 skipped: $2" >&2; }
has_header() { # COMPILER LANGUAGE HEADER
    command -v "$1" > /dev/null && printf '#include <%s>\n' "$3" | "$1" -x "$2" -E - > /dev/null 2>&1
}
# compile TARGET SOURCE COMMAND...: when TARGET is older than SOURCE, run COMMAND, which
# writes $tmp (a name of this process's own, so that builds running side by side do not
# clobber each other), then move it into place.
compile() {
    target=$1 source=$2
    shift 2
    [ -e "$target" ] && [ "$target" -nt "$source" ] && [ "$target" -nt "$src/adapter_io.h" ] &&
        return 0
    if "$@" && { [ ! -d "$tmp" ] || rm -rf "$target"; } && mv -f "$tmp" "$target"; then
        return 0
    fi
    rm -rf "$tmp"
    echo "adapters: building $target from $source failed" >&2
    status=1
    return 1
}

if has_header cc c bloom.h; then
    tmp=$out/libbloom-adapter.tmp.$$
    compile "$out/libbloom-adapter" "$src/libbloom_adapter.c" \
        cc -std=c11 -O2 -Wall -Wextra -Wpedantic -Werror "$src/libbloom_adapter.c" -lbloom \
        -o "$tmp" &&
        printf 'libbloom\tlibbloom-1\t%s\n' "$out/libbloom-adapter"
else
    skip libbloom "no cc, or no bloom.h (Debian gcc libbloom-dev; scripts/deps installs them)"
fi

if has_header c++ c++ leveldb/filter_policy.h; then
    tmp=$out/leveldb-adapter.tmp.$$
    compile "$out/leveldb-adapter" "$src/leveldb_adapter.cc" \
        c++ -std=c++17 -O2 -Wall -Wextra -Wpedantic -Werror "$src/leveldb_adapter.cc" \
        -lleveldb -o "$tmp" &&
        printf 'leveldb\tleveldb\t%s\n' "$out/leveldb-adapter"
else
    skip leveldb "no c++, or no leveldb/filter_policy.h (Debian g++ libleveldb-dev; scripts/deps installs them)"
fi

if has_header c++ c++ rocksdb/sst_file_writer.h; then
    tmp=$out/rocksdb-adapter.tmp.$$
    compile "$out/rocksdb-adapter" "$src/rocksdb_adapter.cc" \
        c++ -std=c++17 -O2 -Wall -Wextra -Wpedantic -Werror "$src/rocksdb_adapter.cc" \
        -lrocksdb -o "$tmp" &&
        printf 'rocksdb-fastlocal\trocksdb\t%s fastlocal\n' "$out/rocksdb-adapter" &&
        printf 'rocksdb-legacy\trocksdb-legacy\t%s legacy\n' "$out/rocksdb-adapter" &&
        printf 'rocksdb-ribbon\trocksdb-ribbon\t%s ribbon\n' "$out/rocksdb-adapter"
else
    skip rocksdb "no c++, or no rocksdb/sst_file_writer.h (Debian g++ librocksdb-dev; scripts/deps installs them)"
fi

guava=/usr/share/java/guava.jar
# The JVM: no hsperfdata file (two JVMs meeting on one, as test runs do, printed a
# warning), and any warning of its own on stderr, never on the protocol's stdout.
if command -v javac > /dev/null && command -v java > /dev/null && [ -f "$guava" ]; then
    # -Xlint without classfile: guava.jar names annotation classes it does not ship.
    tmp=$out/guava.tmp.$$
    compile "$out/guava" "$src/GuavaAdapter.java" \
        sh -c 'mkdir -p "$1" && javac -Xlint:all,-classfile -Werror -cp "$2" -d "$1" "$3"' \
        sh "$tmp" "$guava" "$src/GuavaAdapter.java" &&
        printf 'guava\tguava\tjava -XX:-UsePerfData -Xlog:all=warning:stderr -cp %s:%s GuavaAdapter\n' \
            "$out/guava" "$guava"
else
    skip guava "no java and javac, or no $guava (Debian default-jdk-headless libguava-java; scripts/deps installs them)"
fi

if command -v node > /dev/null; then
    for v in 0.0.21 1.1.0; do
        lib=bloomfilter-js-$v
        [ $v = 1.1.0 ] && lib=bloomfilter-js
        if [ -f "$src/node_modules/bloomfilter-$v/package.json" ]; then
            printf 'bloomfilter-js-%s\t%s\tnode %s %s\n' "$v" "$lib" \
                "$src/bloomfilter_js_adapter.js" "$v"
        else
            skip "bloomfilter-js-$v" "tests/conformance/node_modules lacks it (scripts/deps: npm ci)"
        fi
    done
    for f in bloom-filters:bloom_filters bloom-filters-slices:bloom_filters_slices \
             bloom-filters-cuckoo:bloom_filters_cuckoo bloom-filters-xor:bloom_filters_xor \
             bloom-filters-scalable:bloom_filters_scalable; do
        if [ -f "$src/node_modules/bloom-filters/package.json" ]; then
            printf '%s\t%s\tnode %s\n' "${f%%:*}" "${f%%:*}" "$src/${f#*:}_adapter.js"
        else
            skip "${f%%:*}" "tests/conformance/node_modules lacks bloom-filters (scripts/deps: npm ci)"
        fi
    done
else
    skip "the JavaScript adapters" "no node"
fi

# The Go adapters: Debian's golang-go in GOPATH mode, offline, against the packages'
# sources under /usr/share/gocode (nothing fetched, no module), its build cache in DIR.
gopath=/usr/share/gocode
for a in bits_and_blooms:bits-and-blooms:github.com/bits-and-blooms/bloom:golang-github-willf-bloom-dev \
         blobloom:blobloom:github.com/greatroar/blobloom:golang-github-greatroar-blobloom-dev \
         dcso:dcso-bloom:github.com/DCSO/bloom:golang-github-dcso-bloom-dev \
         seiflotfy:seiflotfy-cuckoo:github.com/seiflotfy/cuckoofilter:golang-github-seiflotfy-cuckoofilter-dev; do
    file=${a%%:*} rest=${a#*:}
    name=${rest%%:*} rest=${rest#*:}
    pkg=${rest%%:*} deb=${rest#*:}
    if ! command -v go > /dev/null; then
        skip "$name" "no go (Debian golang-go; scripts/deps installs it)"
    elif [ ! -d "$gopath/src/$pkg" ]; then
        skip "$name" "no $gopath/src/$pkg (Debian $deb; scripts/deps installs it)"
    else
        tmp=$out/$name-adapter.tmp.$$
        [ -e "$out/$name-adapter" ] && [ "$src/adapter_io.go" -nt "$out/$name-adapter" ] &&
            rm -f "$out/$name-adapter"
        compile "$out/$name-adapter" "$src/${file}_adapter.go" \
            env GOPATH="$gopath" GO111MODULE=off GOFLAGS= GOPROXY=off GOCACHE="$out/gocache" \
            go build -o "$tmp" "$src/adapter_io.go" "$src/${file}_adapter.go" &&
            printf '%s\t%s\t%s%s\n' "$name" "$name" \
                "$([ "$file" = seiflotfy ] && echo 'env GODEBUG=randseednop=0 ')" \
                "$out/$name-adapter"
    fi
done

# Flor: the first python3 that imports it (pyenv's python3, say, does not see Debian's
# dist-packages).
py=
for p in python3 /usr/bin/python3; do
    command -v "$p" > /dev/null && "$p" -c 'import flor' 2> /dev/null && { py=$(command -v "$p"); break; }
done
if [ -n "$py" ]; then
    printf 'flor\tdcso-bloom\t%s %s\n' "$py" "$src/flor_adapter.py"
else
    skip flor "no python3 that imports flor (Debian python3-flor; scripts/deps installs it)"
fi
exit $status
