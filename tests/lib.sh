# lib.sh - sourced by the shell tests (cli.sh, runs.sh, mpi.sh, real_keys.sh, golden.sh,
# docs.sh, report.sh): a scratch directory removed on exit, pass/fail counters,
# expect_error, and the closing line meson and CI read.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# The table $1 without its seconds column, found by header name.
strip_seconds() {
    awk -F, 'BEGIN { OFS = "," }
        NR == 1 { for (i = 1; i <= NF; i++) if ($i == "seconds") c = i
                  if (!c) { print "no seconds column" > "/dev/stderr"; exit 1 } }
        { $c = ""; print }' "$1"
}
# expect_error CODE TEXT ARGS...: bloomsim ARGS exits CODE with one line on stderr
# containing TEXT.
expect_error() {
    code=$1 want=$2
    shift 2
    "$B" "$@" > "$tmp/stdout" 2> "$tmp/stderr"
    rc=$?
    lines=$(wc -l < "$tmp/stderr")
    if [ "$rc" -ne "$code" ]; then
        bad "$* exited $rc, wanted $code: $(cat "$tmp/stderr")"
    elif [ "$lines" -ne 1 ]; then
        bad "$* printed $lines lines on stderr: $(cat "$tmp/stderr")"
    elif ! grep -qF -- "$want" "$tmp/stderr"; then
        bad "$* said '$(cat "$tmp/stderr")', wanted '$want'"
    else
        ok
    fi
}
# Print "N passed, N failed" and exit with the verdict.
finish() {
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
    exit
}

# wait_rows FILE N: wait (at most 20 s) until FILE exists with at least N lines, for
# tests that interrupt a run once it has finished some rows.
wait_rows() {
    _n=0
    while [ $_n -lt 400 ]; do
        [ -f "$1" ] && [ "$(wc -l < "$1")" -ge "$2" ] && return 0
        sleep 0.05
        _n=$((_n + 1))
    done
    return 1
}

# wait_exit PID TICKS WHAT: wait (at most TICKS x 0.05 s) for the background run PID to
# end; one still running fails with WHAT and is killed. Sets rc to its exit status.
wait_exit() {
    _n=0
    while kill -0 "$1" 2> /dev/null && [ $_n -lt "$2" ]; do sleep 0.05; _n=$((_n + 1)); done
    if kill -0 "$1" 2> /dev/null; then
        bad "$3"
        kill -KILL "$1"
    fi
    wait "$1"
    rc=$?
}
