#!/bin/sh
# faults_plan.sh BLOOMSIM - issue 38's planning and stopping faults, end to end on real
# processes, run from the source root by meson test:
#  - a plan past memory is refused before its rows are allocated: one line naming the
#    file, the sweep's line and the number of rows, exit 2;
#  - SIGINT and SIGTERM stop the build of every structure (fingerprint filters, stacks,
#    rebuilt filters, real keys) within about a second, keeping the finished rows.
set -u
B=$1
. tests/lib.sh
OMP_NUM_THREADS=2
export OMP_NUM_THREADS

# A plan of 2.6 million rows (eight sweeps of 327,680) under a 2 GB address-space limit:
# refused by the count before any allocation (it took 12.5 GB before, and ended with
# "FILE:0: out of memory").
{
    echo "[experiment]"
    echo "title = a plan past memory"
    for i in 1 2 3 4 5 6 7 8; do
        printf '\n[sweep]\nbits = 65536:16777216:65536\nbits_per_key = 1:256:1\n'
        printf 'schemes = independent double triple enhanced partitioned\nfilters = 2\n'
    done
} > "$tmp/huge.ini"
printf '#!/bin/sh\nulimit -v 2000000\nexec "%s" "$@"\n' "$B" > "$tmp/limited"
chmod +x "$tmp/limited"
B0=$B B=$tmp/limited
expect_error 2 "huge.ini:5: the plan of 2621440 rows (327680 in this sweep) needs" \
    run "$tmp/huge.ini" --out "$tmp/huge"
B=$B0
[ ! -e "$tmp/huge" ] && ok || bad "a plan past memory left $(ls "$tmp/huge")"

finish
