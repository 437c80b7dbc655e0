# tests/cli/expect_lib.sh — the helpers of the command-line tests: `expect RC OUT ERR -- ARGS...` runs warpsim
# with ARGS and checks its exit code and that stdout / stderr contain OUT / ERR (an empty pattern wants an empty
# stream); failures are printed and set `failed`. The caller sets `warpsim` and `out` (a scratch folder).
failed=0

fail() {
    echo "FAIL: $*"
    failed=1
}

expect() {
    local rc=$1 want_out=$2 want_err=$3
    shift 4
    "$warpsim" "$@" >"$out/stdout" 2>"$out/stderr"
    local got=$?
    [ "$got" -eq "$rc" ] || fail "warpsim $*: exit $got, expected $rc: $(head -c 300 "$out/stderr")"
    if [ -z "$want_out" ]; then
        [ ! -s "$out/stdout" ] || fail "warpsim $*: unexpected stdout: $(head -c 300 "$out/stdout")"
    else
        grep -qF -- "$want_out" "$out/stdout" || fail "warpsim $*: stdout lacks '$want_out'"
    fi
    if [ -z "$want_err" ]; then
        [ ! -s "$out/stderr" ] || fail "warpsim $*: unexpected stderr: $(head -c 300 "$out/stderr")"
    else
        grep -qF -- "$want_err" "$out/stderr" || fail "warpsim $*: stderr lacks '$want_err': $(head -c 300 "$out/stderr")"
    fi
}
