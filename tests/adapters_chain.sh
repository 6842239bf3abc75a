# adapters_chain.sh - sourced by tests/adapters.sh: the adapter of a library's scalable
# filter (docs/adapter.md, Chains: bloom-filters' ScalableBloomFilter), against `bloomsim
# adapter` for bloomsim's transcription of it. chain_adapter NAME LIB CMD runs, for the
# adapter CMD of chain LIB:
#  - hello; the designs it refuses (bits per key; a growth, which it has none of; a
#    ratio of 1 or 0), after each of which the session goes on;
#  - chains of first size 8 and 100, rate 0.01 and 0.001, ratio 0.5 (its default) and
#    0.8, and for each kind of key (u64, str, hex) 1,000 keys inserted: its links (M and
#    K each), every link's bits, one link's bits alone, the inserted keys asked again
#    (all 1) and 1,000 others; at least 3 links each;
#  - conformance: `bloomsim adapter LIB` answers that session the same, answer for
#    answer and bit for bit; and so 10,000 sequential integers inserted and the
#    100,000 after them asked, at the defaults and at 100, 1%, ratio 0.8: the same
#    links, bits and false positives, key for key. (10^4 keys, not 10^5: the package's
#    add counts the newest link's set bits at every key, so 10^5 keys take node about
#    two minutes.)
#  - garbage (a link past the last; `design-chain` with a malformed ratio) gets an error
#    line and status 1.
# Uses adapters.sh's $B, $tmp, ok, bad, launch, expect, conform and key files.
chain_adapter() {
    name=$1 lib=$2 cmd=$3
    in=$tmp/$name.in
    printf 'hello 1\ndesign-bpk 8 10\ndesign-chain 8 0.01 2 -\ndesign-chain 8 0.01 - 1\ndesign-chain 8 0.01 - 0\n' > "$in"
    for g in 8:0.01:- 100:0.001:- 8:0.001:0.8 100:0.01:0.8; do
        c=${g%%:*} r=${g#*:}
        p=${r%%:*} t=${r#*:}
        for kind in u64 str hex; do
            { echo "design-chain $c $p - $t"; echo "insert $kind 1000"; cat "$tmp/$kind.in"
              echo "links"; echo "bits"; echo "bits 1"
              echo "query $kind 1000"; cat "$tmp/$kind.in"
              echo "query $kind 1000"; cat "$tmp/$kind.out"; } >> "$in"
        done
    done
    echo "quit" >> "$in"
    sh -c "$cmd" < "$in" > "$tmp/$name.out" 2> "$tmp/$name.err"
    rc=$?
    [ $rc -eq 0 ] && ok || bad "$name: session ended with status $rc: $(tail -3 "$tmp/$name.err")"
    # Its own answers: the refusals, every inserted key found, several links a chain.
    if awk 'NR >= 2 && NR <= 5 && !/^error / { print "answer " NR " is no refusal: " $0; bad = 1 }
            NR > 5 && (NR - 6) % 7 == 0 && !/^design [0-9]+ [0-9]+$/ { print "answer " NR ": " substr($0, 1, 60); bad = 1 }
            NR > 5 && (NR - 6) % 7 == 2 && !($2 >= 3) { print "answer " NR ": fewer than 3 links: " $0; bad = 1 }
            NR > 5 && (NR - 6) % 7 == 5 && !/^1+$/ { print "answer " NR ": an inserted key answers 0"; bad = 1 }
            END { exit bad }' "$tmp/$name.out" > "$tmp/$name.check"; then
        ok
    else
        bad "$name: $(head -3 "$tmp/$name.check")"
    fi
    "$B" adapter "$lib" < "$in" > "$tmp/$name.sim" 2> "$tmp/$name.simerr"
    conform "$name" "$tmp/$name.out" "$tmp/$name.sim"
    awk '(NR - 6) % 7 == 2 && NR > 5 { n = n " " $2 } (NR - 6) % 7 == 6 && NR > 5 { f = f " " gsub(/1/, "1") }
         END { print "links (each session):" n "; false positives of 1,000:" f }' "$tmp/$name.out" |
        sed "s/^/$name: /"
    # 10,000 sequential integers, the 100,000 after them asked.
    seq 10000 109999 > "$tmp/seq100k.out"
    for d in "design 8 0.01" "design-chain 100 0.01 - 0.8"; do
        { echo "hello 1"; echo "$d"; echo "insert u64 10000"; head -10000 "$tmp/seq.in"
          echo "query u64 100000"; cat "$tmp/seq100k.out"; echo "links"; echo "bits"
          echo "quit"; } > "$tmp/$name.big"
        sh -c "$cmd" < "$tmp/$name.big" > "$tmp/$name.bigout" 2> "$tmp/$name.err"
        "$B" adapter "$lib" < "$tmp/$name.big" > "$tmp/$name.bigsim" 2> "$tmp/$name.simerr"
        conform "$name ($d, 10,000 keys)" "$tmp/$name.bigout" "$tmp/$name.bigsim"
        echo "$name: conformance: $d, 10,000 sequential u64 keys: $(sed -n 4p "$tmp/$name.bigout" |
            tr -cd 1 | wc -c) false positives of the next 100,000, $(sed -n 5p "$tmp/$name.bigout" |
            cut -d' ' -f2) links, the library's and bloomsim's alike"
    done
    launch c1 "$cmd" 'design 8 0.01\nbits 1\n'
    launch c2 "$cmd" 'design-chain 8 0.01 - x\n'
    launch c3 "$cmd" 'links\n'
    wait
    expect c1 "$name" 2 1
    expect c2 "$name" 1 1
    expect c3 "$name" 1 1
    for g in c1 c2 c3; do
        "$B" adapter "$lib" < "$tmp/$g.in" > "$tmp/$g.sim" 2> /dev/null
        src=$?
        [ "$src" -eq "$(cat "$tmp/$g.rc")" ] &&
            [ "$(wc -l < "$tmp/$g.sim")" -eq "$(wc -l < "$tmp/$g.out")" ] && ok ||
            bad "$name: bloomsim adapter $lib on '$(tr '\n' '|' < "$tmp/$g.in")': status $src"
    done
}
