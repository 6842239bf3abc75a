# adapters_fp.sh - sourced by tests/adapters.sh: the adapters of fingerprint filters
# (docs/adapter.md, "Fingerprint filters": seiflotfy-cuckoo, bloom-filters-cuckoo,
# bloom-filters-xor, rocksdb-ribbon), each against `bloomsim adapter` for bloomsim's transcription of the
# same library. fp_adapter NAME LIB CMD runs, for the adapter CMD of library LIB:
#  - hello; the design the library does not take refused (a rate, bits per key, or
#    fingerprint bits); fingerprint bits it refuses refused (seiflotfy: anything but
#    its one byte; the xor filter: anything but 8 and 16, 0 being its default 8, which
#    both adapters say on standard error); RocksDB's Ribbon filter takes bits per key,
#    refuses them below 0.5 and clamps them below 1 and from 100, which both say;
#  - designs whose table, `design M ?`, has the bits `bloomsim size --filter LIB` says
#    (its slots times their width: the fingerprint bits, with a null bit for
#    bloom-filters' cuckoo slots; the Ribbon filter's design M, any, as its length
#    follows its keys, and its bits any whole number of 128-bit segments);
#  - for each kind of key (u64, str, hex), 1,000 keys into a filter designed for them
#    (1% for bloom-filters' cuckoo, 10 bits per key for the Ribbon filter, 8 bits for the
#    others): its failures, the inserted
#    keys asked again (all 1 for the xor filter; no more 0s than failed inserts for
#    seiflotfy, whose failed Insert drops a stored key; bloom-filters' cuckoo loses keys
#    it kicks, any number), 1,000 others (few 1s), and its table: M bits in 2 ceil(M / 8)
#    hex digits, nothing past M, and 1,000 less the failures occupied slots (at most
#    1,000 nonzero slots for the xor filter, nonzero segments for the Ribbon filter);
#  - conformance: `bloomsim adapter LIB` answers that session and 100,000 sequential
#    keys (with their failures, the inserted keys asked again and the table) the same,
#    answer for answer and slot for slot; throws of the library (bloom-filters' cuckoo
#    with a fingerprint longer than its hash's digits; the xor filter's add of other than
#    n keys, or of a repeated key) end both with an error and status 1;
#  - garbage gets an error line and status 1, as tests/adapters.sh checks other adapters;
#  - `bloomsim audit --exec` measures the library's adapter and bloomsim's the same (and
#    exits the same: 1 where inserted keys answer absent).
# Uses adapters.sh's $B, $tmp, ok, bad, launch, expect, conform and key files.

# The bits of LIB's table for N keys at X (a rate, or fingerprint bits): bloomsim size.
fp_bits() { # LIB N X rate|fp
    if [ "$4" = rate ]; then o="--rate $3"; else o="--fingerprint-bits $3"; fi
    # shellcheck disable=SC2086
    "$B" size --filter "$1" --keys "$2" $o 2>&1 | sed -n 's/^bits = \([0-9]*\) .*/\1/p'
}

# Checks a fingerprint session's answers (the second file) against the expectations (the
# first): exact lines, and present/absent/table checks; prints one line per kind.
cat > "$tmp/fpcheck.awk" << 'EOF'
function hexval(c) { return index("0123456789abcdef", c) - 1 }
function byte(h, i) { return hexval(substr(h, 2 * i + 1, 1)) * 16 + hexval(substr(h, 2 * i + 2, 1)) }
function bit(h, i) { return int(byte(h, int(i / 8)) / 2 ^ (i % 8)) % 2 }
function fail(msg) { print "FAIL: answer " i ": " msg; failed = 1 }
NR == FNR { want[++nw] = $0; next }
{ got[++ng] = $0 }
END {
    if (ng != nw) { print "FAIL: " ng " answer lines, " nw " expected"; failed = 1 }
    for (i = 1; i <= nw && i <= ng; i++) {
        split(want[i], w, " "); g = got[i]
        if (w[1] == "error") {
            if (g !~ /^error [^ ]/) fail("an error expected, got: " substr(g, 1, 80))
        } else if (w[1] == "hello") {
            if (g !~ /^hello 1 [^ ]/) fail("not a hello line: " substr(g, 1, 80))
        } else if (w[1] == "failures") {
            if (g !~ /^failures [0-9]+ [0-9]+$/) { fail("not failures F R: " substr(g, 1, 80)); continue }
            split(g, f, " "); F = f[2]; R = f[3]
        } else if (w[1] == "present") { # present COUNT all|lost|any
            zeros = gsub(/0/, "0", g)
            if (g !~ /^[01]*$/ || length(g) != w[2]) fail("not " w[2] " answers: " substr(g, 1, 80))
            else if (w[3] == "all" && zeros) fail(zeros " inserted keys answer 0")
            else if (w[3] == "lost" && zeros > F) fail(zeros " inserted keys answer 0, " F " inserts failed")
            lost = zeros
        } else if (w[1] == "absent") { # absent COUNT BOUND KIND
            ones = gsub(/1/, "1", g)
            if (g !~ /^[01]*$/ || length(g) != w[2]) fail("not " w[2] " answers: " substr(g, 1, 80))
            else if (ones > w[3]) fail(ones " of " w[2] " absent " w[4] " keys answer 1")
            fp = ones
        } else if (w[1] == "table") { # table M W occupied|nonzero N KIND
            m = w[2]; W = w[3]; n = w[5]
            if (m == "*" && split(g, b, " ") == 3 && b[2] ~ /^[0-9]+$/ && b[2] % W == 0) m = b[2]
            if (split(g, b, " ") != 3 || b[1] != "bits" || b[2] != m) { fail("want bits " m " HEX, got: " substr(g, 1, 80)); continue }
            h = b[3]
            if (h !~ /^[0-9a-f]*$/ || length(h) != 2 * int((m + 7) / 8)) { fail(length(h) " hex digits for " m " bits"); continue }
            for (j = m; j < 8 * int((m + 7) / 8); j++) if (bit(h, j)) { fail("bits set past m"); break }
            c = 0
            for (s = 0; s < m / W; s++) {
                if (w[4] == "occupied") c += bit(h, s * W + W - 1) || (W == 8 && byte(h, s))
                else { nz = 0; for (j = 0; j < W / 8 && !nz; j++) nz = byte(h, s * W / 8 + j) > 0; c += nz }
            }
            if (w[4] == "occupied" && c != n - F) fail(c " occupied slots, " n - F " stored")
            if (w[4] == "nonzero" && c > n) fail(c " nonzero slots for " n " keys")
            printf "%s keys: %d inserts failed, %d builds retried, %d inserted keys absent, %d false positives of 1000; %d of %d slots %s\n", w[6], F, R, lost, fp, c, m / W, w[4]
        } else if (want[i] ~ /\*/) { # design * ?: any M
            re = want[i]; gsub(/\?/, "[?]", re); gsub(/\*/, "[0-9]+", re)
            if (g !~ "^" re "$") fail("want '" want[i] "', got '" substr(g, 1, 80) "'")
        } else if (g != want[i]) {
            fail("want '" want[i] "', got '" substr(g, 1, 80) "'")
        }
    }
    exit failed
}
EOF

fp_adapter() {
    name=$1 lib=$2 cmd=$3 lax=0
    case $lib in
        bloom-filters-cuckoo)
            mode=rate d=design x=0.01 W=9 occ=occupied present=any fpmax=80
            refuse="design-fp 1000 8|design-bpk 1000 10"
            grid="1:0.01 1000:0.01 12345:0.001 100000:0.0001 777:0.5" ;;
        seiflotfy-cuckoo)
            mode=fp d=design-fp x=8 W=8 occ=occupied present=lost fpmax=80
            refuse="design 1000 0.01|design-fp 1000 0|design-fp 1000 7|design-fp 1000 16|design-fp 1000 33"
            grid="1:8 3:8 1000:8 1024:8 1025:8 100000:8" ;;
        bloom-filters-xor)
            mode=fp d=design-fp x=8 W=8 occ=nonzero present=all fpmax=30
            refuse="design 1000 0.01|design-fp 1000 1|design-fp 1000 12|design-fp 1000 33"
            grid="1:8 1000:16 12345:8" ;;
        rocksdb-ribbon) # the Bloom fallback at 1 and 100 keys; clamps at 777 and 5,000
            mode=bpk d=design-bpk x=10 W=128 occ=nonzero present=all fpmax=30
            refuse="design 1000 0.01|design-fp 1000 8|design-bpk 1000 0.4"
            grid="1:10 100:10 1000:10 12345:9.886 100000:15.406 777:0.7 5000:150" ;;
        *) bad "$name: no fingerprint session for $lib"; return ;;
    esac
    in=$tmp/$name.in exp=$tmp/$name.exp
    printf 'hello 1\n' > "$in"
    printf 'hello\n' > "$exp"
    echo "$refuse" | tr '|' '\n' | while read -r r; do echo "$r" >> "$in"; echo error >> "$exp"; done
    for g in $grid; do
        echo "$d ${g%:*} ${g#*:}" >> "$in"
        if [ $mode = bpk ]; then echo "design * ?" >> "$exp"; continue; fi
        echo "design $(fp_bits "$lib" "${g%:*}" "${g#*:}" $mode) ?" >> "$exp"
    done
    if [ "$lib" = bloom-filters-xor ]; then # 0 is its default, 8
        echo "design-fp 1000 0" >> "$in"
        echo "design $(fp_bits "$lib" 1000 8 fp) ?" >> "$exp"
    fi
    if [ $mode = bpk ]; then m='*'; else m=$(fp_bits "$lib" 1000 $x $mode); fi
    for kind in u64 str hex; do
        { echo "$d 1000 $x"; echo "insert $kind 1000"; cat "$tmp/$kind.in"; echo failures
          echo "query $kind 1000"; cat "$tmp/$kind.in"
          echo "query $kind 1000"; cat "$tmp/$kind.out"; echo "bits"; } >> "$in"
        printf 'design %s ?\ninserted 1000\nfailures\npresent 1000 %s\nabsent 1000 %s %s\ntable %s %s %s 1000 %s\n' \
            "$m" "$present" "$fpmax" "$kind" "$m" "$W" "$occ" "$kind" >> "$exp"
    done
    echo quit >> "$in"
    sh -c "$cmd" < "$in" > "$tmp/$name.out" 2> "$tmp/$name.err"
    [ $? -eq 0 ] && ok || bad "$name: session ended with status $?: $(tail -3 "$tmp/$name.err")"
    if awk -f "$tmp/fpcheck.awk" "$exp" "$tmp/$name.out" > "$tmp/$name.check"; then ok; else bad "$name:"; fi
    sed "s/^/$name: /" "$tmp/$name.check"
    head -1 "$tmp/$name.out" | sed "s/^/$name: /"
    "$B" adapter "$lib" < "$in" > "$tmp/$name.sim" 2> "$tmp/$name.simerr"
    conform "$name" "$tmp/$name.out" "$tmp/$name.sim"
    if [ "$lib" = bloom-filters-xor ]; then # the clamp of 0 to 8 is said, by both
        grep -q "fingerprint bits 0 is new XorFilter's default, 8" "$tmp/$name.simerr" &&
            grep -q "fingerprint bits 0 is new XorFilter's default, 8" "$tmp/$name.err" && ok ||
            bad "$name: the clamp of design-fp 1000 0 to 8 bits is not said on standard error"
    fi
    if [ "$lib" = rocksdb-ribbon ]; then # the clamps of 0.7 to 1 and 150 to 100, by both
        [ "$(grep -c BloomLikeFilterPolicy "$tmp/$name.simerr")" -eq 2 ] &&
            [ "$(grep -c BloomLikeFilterPolicy "$tmp/$name.err")" -eq 2 ] && ok ||
            bad "$name: the clamps of 0.7 and 150 bits per key are not said on standard error"
    fi
    # 100,000 sequential integers, the next 100,000 asked, the table: slot for slot.
    { echo "hello 1"; echo "$d 100000 $x"; echo "insert u64 100000"; cat "$tmp/seq.in"
      echo failures; echo "query u64 100000"; cat "$tmp/seq.in"
      echo "query u64 100000"; cat "$tmp/seq.out"; echo bits; echo quit; } > "$tmp/$name.big"
    sh -c "$cmd" < "$tmp/$name.big" > "$tmp/$name.bigout" 2> "$tmp/$name.err"
    "$B" adapter "$lib" < "$tmp/$name.big" > "$tmp/$name.bigsim" 2> "$tmp/$name.simerr"
    conform "$name (100,000 keys)" "$tmp/$name.bigout" "$tmp/$name.bigsim"
    echo "$name: conformance: 100,000 sequential u64 keys: $(sed -n 4p "$tmp/$name.bigout"), \
$(sed -n 5p "$tmp/$name.bigout" | tr -cd 0 | wc -c) inserted keys absent, \
$(sed -n 6p "$tmp/$name.bigout" | tr -cd 1 | wc -c) false positives of 100,000 \
($(sed -n 2p "$tmp/$name.bigout")), the library's and bloomsim's $lib's alike"
    # Retried seeds: RocksDB's Ribbon filters of u64 keys 29,000 .. 29,999 and 105,000 ..
    # 105,999 at 10 bits per key each band on their second seed (of 300 such filters of
    # 1,000 keys, 7 did): both say so, with the same filters; and the Bloom filter RocksDB
    # builds instead for 100 keys, bit for bit.
    if [ "$lib" = rocksdb-ribbon ]; then
        { echo "hello 1"; for s in 29000 105000; do echo "design-bpk 1000 10"
              echo "insert u64 1000"; seq $s $((s + 999)); echo failures; echo bits; done
          # 100 keys: RocksDB's FastLocalBloom filter, smaller than the Ribbon filter
          echo "design-bpk 100 10"; echo "insert u64 100"; seq 0 99; echo failures; echo bits
          echo "query u64 1000"; seq 1000 1999; echo quit; } > "$tmp/$name.seeds"
        sh -c "$cmd" < "$tmp/$name.seeds" > "$tmp/$name.seedsout" 2> "$tmp/$name.err"
        "$B" adapter "$lib" < "$tmp/$name.seeds" > "$tmp/$name.seedssim" 2> "$tmp/$name.simerr"
        conform "$name (retried seeds)" "$tmp/$name.seedsout" "$tmp/$name.seedssim"
        [ "$(grep -c '^failures 0 1$' "$tmp/$name.seedsout")" -eq 2 ] && ok ||
            bad "$name: the filters of keys 29,000 and 105,000 did not retry one seed each:" \
                "$(grep failures "$tmp/$name.seedsout" | tr '\n' '|')"
    fi
    # Throws of the library end both adapters with an error line and status 1.
    case $lib in
        bloom-filters-cuckoo) throws='design 1000 1e-300\ninsert u64 1\n5\n' ;; # 125 digits
        bloom-filters-xor) throws='design-fp 3 8\ninsert u64 2\n1\n2\nquery u64 1\n1\n'
            launch t2 "$cmd" 'design-fp 2 8\ninsert u64 2\n5\n5\nbits\n' ;;
        *) throws= ;;
    esac
    if [ -n "$throws" ]; then
        launch t1 "$cmd" "$throws"
        wait
        for t in t1 t2; do
            [ -f "$tmp/$t.in" ] || continue
            expect $t "$name" "$(wc -l < "$tmp/$t.out")" 1
            "$B" adapter "$lib" < "$tmp/$t.in" > "$tmp/$t.sim" 2> /dev/null
            st=$?
            if [ $st -eq 1 ] && tail -1 "$tmp/$t.out" | grep -q '^error ' &&
                awk 'NR == FNR { a[FNR] = $0; n = FNR; next } { b[FNR] = $0; m = FNR }
                     END { if (n != m) exit 1; for (i = 1; i <= n; i++)
                               if (a[i] != b[i] && !(a[i] ~ /^error / && b[i] ~ /^error /)) exit 1 }' \
                    "$tmp/$t.out" "$tmp/$t.sim"; then
                ok
            else
                bad "$name: bloomsim adapter $lib on '$(tr '\n' '|' < "$tmp/$t.in")' answered" \
                    "'$(tr '\n' '|' < "$tmp/$t.sim")' (status $st), the library" \
                    "'$(tr '\n' '|' < "$tmp/$t.out")'"
            fi
            rm -f "$tmp/$t.in"
        done
    fi
    # Garbage: an error line and status 1; the end of input between commands: status 0.
    dd="$d 1000 $x"
    launch g1 "$cmd" 'bogus\n'
    launch g2 "$cmd" "$dd\\ninsert u64 2\\n5\\n012\\n"
    launch g3 "$cmd" "$dd\\nquery zzz 1\\nabcd\\n"
    launch g4 "$cmd" 'insert u64 1\n5\n'
    launch g5 "$cmd" "$dd\\ninsert str 3\\na\\n"
    launch g6 "$cmd" 'hello 1\n'
    launch g7 "$cmd" "$dd\\ninsert str 2\\nab\\n\\377\\n"
    wait
    for g in g1 g2 g3 g4 g5; do expect $g "$name" $(($(grep -c '^design' "$tmp/$g.in") + 1)) 1; done
    expect g6 "$name" 1 0
    case $lib in # libraries of bytes take any str line
        seiflotfy-cuckoo|rocksdb-ribbon) expect g7 "$name" 2 0 ;;
        *) expect g7 "$name" 2 1 ;;
    esac
    # audit --exec through the library's adapter and bloomsim's: the same measurement.
    case $mode in rate) o="--rate $x" ;; bpk) o="--bits-per-key $x" ;; *) o="--fingerprint-bits $x" ;; esac
    # shellcheck disable=SC2086
    "$B" audit --exec "$cmd" --keys 10000 $o --precision 0.1 --seed 5 > "$tmp/$name.exec" 2> "$tmp/$name.err"
    s1=$?
    # shellcheck disable=SC2086
    "$B" audit --exec "$B adapter $lib" --keys 10000 $o --precision 0.1 --seed 5 \
        > "$tmp/$name.execsim" 2> "$tmp/$name.simerr"
    s2=$?
    m1=$(grep -A3 '^  measured' "$tmp/$name.exec") m2=$(grep -A3 '^  measured' "$tmp/$name.execsim")
    [ -n "$m1" ] && [ "$m1" = "$m2" ] && [ $s1 = $s2 ] && [ $s1 -le 1 ] && ok ||
        bad "$name: audit --exec measured '$m1' (status $s1) through the library, '$m2'" \
            "(status $s2) through bloomsim's $lib: $(cat "$tmp/$name.err")"
    echo "$name: audit --exec: $(grep '^  measured\|^  inserted\|^  failures' "$tmp/$name.exec" | tr -s ' ' | tr '\n' ';')"
}
