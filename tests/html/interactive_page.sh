#!/usr/bin/env bash
# tests/html/interactive_page.sh — the interactive part of `warpsim run --html` in headless Chromium: a page
# opened at #line=N clicks that line's table row (the page's script dispatches a click event on it), and the
# lane diagrams it draws must carry the lane -> sector, lane -> bank and branch numbers worked out by hand
# below for 64 x 64 transposes and a divergent branch (tests/html/specs). With JavaScript off the header and
# the source table must still be there, and the panel must be empty. Screenshots go to OUT_DIR.
#
# Usage: interactive_page.sh WARPSIM SOURCE_DIR OUT_DIR
# Exit 0: passed; 1: failed; 77: skipped because chromium or python3 is not installed.
set -uo pipefail
warpsim=$1
src=$2
out=$3

needs=(python3)
source "$src/tests/html/chromium_common.sh"

# page SPEC [DIR]: writes OUT/SPEC.html from DIR/SPEC.json (DIR: tests/html/specs).
page() {
    rm -f "$out/$1.html"
    "$warpsim" run "$src/${2:-tests/html/specs}/$1.json" --quiet --html "$out/$1.html" || fail "$1: warpsim failed"
    [ -s "$out/$1.html" ] || fail "$1: no page"
}

# open NAME SPEC FRAGMENT [chromium flags...]: the DOM after load, read by detail_dom.py, in OUT/NAME.facts.
open_page() {
    local name=$1 spec=$2 fragment=$3
    shift 3
    if ! timeout 120 "$browser" "${flags[@]}" "$@" --dump-dom "file://$out/$spec.html$fragment" \
        >"$out/$name.dom" 2>"$out/$name.log"; then
        fail "$name: chromium could not load the page (log: $out/$name.log)"
    fi
    if grep -q ':CONSOLE' "$out/$name.log"; then
        fail "$name: console messages:"
        grep ':CONSOLE' "$out/$name.log" | sed 's/^/    /'
    fi
    python3 "$src/tests/html/detail_dom.py" "$out/$name.dom" >"$out/$name.facts"
}

# expect NAME LINE: the facts of NAME hold this exact line.
expect() {
    grep -qxF -- "$2" "$out/$1.facts" || fail "$1: expected the line '$2' (facts: $out/$1.facts)"
}
expect_not() {
    if grep -q -- "$2" "$out/$1.facts"; then fail "$1: did not expect '$2' (facts: $out/$1.facts)"; fi
}

shot() {
    timeout 120 "$browser" "${flags[@]}" --window-size=1200,1600 --screenshot="$out/$1.png" \
        "file://$out/$2.html$3" >/dev/null 2>&1
    [ -s "$out/$1.png" ] || fail "$1: no screenshot"
}

lanes() {  # lanes FORMULA: "l:f(l)" for l = 0..31, f in bash arithmetic of l
    local l s=""
    for l in $(seq 0 31); do s+=" $l:$(($1))"; done
    echo "${s# }"
}
evens=$(seq 0 2 30 | tr '\n' ' ' | sed 's/ $//')
odds=$(seq 1 2 31 | tr '\n' ' ' | sed 's/ $//')
all=$(seq 0 31 | tr '\n' ' ' | sed 's/ $//')

# --- transpose_naive, 64 x 64, line 10: out[x * M + (y + j)] = in[(y + j) * N + x] --------------------------
# Block (0,0) warp 0 at j = 0 (the sampled warp: the first with 32 lanes) reads in[x] for x = lane: 4 bytes
# apart, 8 lanes to a 32-byte sector, lane l in sector l / 8; it writes out[64 x]: 256 bytes apart, lane l in
# sector 8 l of the lowest. Requests: 4 blocks x 8 warps x 4 iterations of j = 128 each; sectors 4 and 32
# per request, 128 x (4 + 32) = 4608 for the line. The bounds check (x < N && y + j < M) holds for all 64 x 64
# threads: no lane jumps over the body, all 32 go on.
page transpose_naive_64
# The header's registers are the text report's (ptxas -v where the toolkit is installed, else the estimate).
registers=$("$warpsim" run "$src/tests/html/specs/transpose_naive_64.json" | sed -n 's/^registers *\([0-9]*\) per thread.*/\1/p')
[ -n "$registers" ] || fail "the text report of transpose_naive_64 names no registers"
open_page naive10 transpose_naive_64 '#line=10'
expect naive10 "selected 10"
# The source text travels through the page's JSON ('<' escaped there) and comes back as written.
expect naive10 "heading line 10: if (x < N && y + j < M) out[x * M + (y + j)] = in[(y + j) * N + x];"
expect naive10 "heading global load: 128 requests, 4.00 sectors per request where 4.00 would do"
expect naive10 "heading global store: 128 requests, 32.00 sectors per request where 4.00 would do"
expect naive10 "sectors detail-sectors-0 $(lanes 'l / 8')"
expect naive10 "sectors detail-sectors-1 $(lanes '8 * l')"
expect naive10 "cell 10 sectors 4608"
expect_not naive10 "branch detail-branch-0 taken"
expect naive10 "branch detail-branch-0 not-taken $all"
expect naive10 "header registers $registers per thread"
grep -q '^header occupancy .* %$' "$out/naive10.facts" || fail "naive10: no occupancy in the header"
grep -q '^header predicted_time [0-9.]* us$' "$out/naive10.facts" || fail "naive10: no predicted time in the header"
grep -q '^header bound [a-z0-9]*$' "$out/naive10.facts" || fail "naive10: no bound in the header"
shot naive10 transpose_naive_64 '#line=10'

# The check must be able to fail: the page with the store's lane 1 planted in lane 2's sector 16 must not pass.
sed 's/"lane_sectors":\[\[0\],\[8\],/"lane_sectors":[[0],[16],/' "$out/transpose_naive_64.html" >"$out/planted.html"
cmp -s "$out/planted.html" "$out/transpose_naive_64.html" && fail "planted: the store's lane data was not found to plant"
open_page planted planted '#line=10'
if grep -qxF -- "sectors detail-sectors-1 $(lanes '8 * l')" "$out/planted.facts"; then
    fail "planted: a wrong lane -> sector mapping went unnoticed"
fi

# A line with nothing to draw (11 is the closing brace) says so; no diagram.
open_page naive11 transpose_naive_64 '#line=11'
expect naive11 "row none"
expect naive11 "caption none Line 11 has no memory or branch activity to draw."

# JavaScript off: what a browser without scripts shows is the page's own HTML, so the header and the table
# must be in the file itself and the panel must hold only its placeholder. (Headless Chromium's --dump-dom
# and --screenshot need scripts themselves, so the file is read directly.)
python3 "$src/tests/html/detail_dom.py" "$out/transpose_naive_64.html" >"$out/naive_nojs.facts"
expect naive_nojs "row none"
expect naive_nojs "selected none"
expect naive_nojs "cell 10 sectors 4608"
expect naive_nojs "header registers $registers per thread"
expect_not naive_nojs "detail-sectors"
grep -q '<noscript>' "$out/transpose_naive_64.html" || fail "naive: no <noscript> note for the diagrams"

# The warp the sample shows (after __syncthreads the engine need not resume warp 0 first): warp_of NAME.
warp_of() {
    sed -n 's/^caption shared One warp: block (0,0,0) warp \([0-9]*\),.*/\1/p' "$out/$1.facts" | head -1
}
# bankcount_at W N: 32 numbers, N at bank W and 0 elsewhere.
bankcount_at() {
    local b s=""
    for b in $(seq 0 31); do s+=" $([ "$b" -eq "$1" ] && echo "$2" || echo 0)"; done
    echo "${s# }"
}

# --- transpose_tiled ([32][32]), line 25: out[(y + j) * M + x] = tile[threadIdx.x][threadIdx.y + j] -------
# Warp w of block (0,0) (threadIdx.y = w, x = lane) at j = 0 reads word 32 l + w: every lane in bank w, 32
# different words there, none elsewhere; 32 wavefronts per request where 1 would do. The store is
# coalesced: lane l in sector l / 8. Line 20 writes tile[threadIdx.y + j][threadIdx.x]: word 32 w + l, bank
# l, one word each.
page transpose_tiled_64
open_page tiled25 transpose_tiled_64 '#line=25'
w=$(warp_of tiled25)
[ -n "$w" ] || fail "tiled25: no shared caption naming the warp"
expect tiled25 "heading shared load: 128 requests, 32.00 wavefronts per request where 1.00 would do"
expect tiled25 "banks detail-banks-0 $(lanes "$w")"
expect tiled25 "bankcount detail-banks-0 $(bankcount_at "$w" 32)"
expect tiled25 "sectors detail-sectors-1 $(lanes 'l / 8')"
shot tiled25 transpose_tiled_64 '#line=25'
open_page tiled20 transpose_tiled_64 '#line=20'
expect tiled20 "banks detail-banks-1 $(lanes 'l')"
expect tiled20 "bankcount detail-banks-1$(printf ' 1%.0s' $(seq 1 32))"

# --- transpose_padded ([32][33]), line 39: warp w reads word 33 l + w, in bank (33 l + w) mod 32 =
# (l + w) mod 32: one word per bank, 1 wavefront per request.
page transpose_padded_64
open_page padded39 transpose_padded_64 '#line=39'
w=$(warp_of padded39)
[ -n "$w" ] || fail "padded39: no shared caption naming the warp"
expect padded39 "heading shared load: 128 requests, 1.00 wavefronts per request where 1.00 would do"
expect padded39 "banks detail-banks-0 $(lanes "(l + $w) % 32")"
expect padded39 "bankcount detail-banks-0$(printf ' 1%.0s' $(seq 1 32))"
shot padded39 transpose_padded_64 '#line=39'

# --- divergent_lanes, one block of 64 threads, line 17: if ((threadIdx.x & 1) == 0) -----------------------
# Even lanes take heavy_path_a (line 18), odd lanes heavy_path_b (line 20); both warps of the block reach the
# branch once and split there.
page divergence_lanes_64
open_page div17 divergence_lanes_64 '#line=17'
expect div17 "branch detail-branch-0 taken $evens"
expect div17 "branch detail-branch-0 not-taken $odds"
grep -q '^caption branch .* 16 jump to line 18, 16 go on to line 20\. In the sample the warps split here 2 of 2 times\.$' \
    "$out/div17.facts" || fail "div17: the branch caption does not say 16 lanes to line 18, 16 to line 20, 2 of 2 splits"
shot div17 divergence_lanes_64 '#line=17'
shot div_top divergence_lanes_64 ''

# --- shared_one_bin, line 11: atomicAdd(&bins[3], 1u) by the 32 lanes of one warp ---------------------------
# One word, bank 3, updated 32 times one after another: 32 wavefronts where 1 would do, 31 extra; contention,
# not a bank conflict, so the table gives no way count.
page pattern_shared_one_bin tests/examples/specs
open_page bin11 pattern_shared_one_bin '#line=11'
expect bin11 "heading shared atomic: 1 request, 32.00 wavefronts per request where 1.00 would do"
expect bin11 "banks detail-banks-0 $(lanes 3)"
expect bin11 "bankcount detail-banks-0 $(bankcount_at 3 32)"
expect bin11 "cell 11 extra wavefronts 31"
expect bin11 "caption shared One warp: block (0,0,0) warp 0, 32 active lanes, 4 bytes per lane; the busiest bank: 32 updates served one after another."

[ "$failed" -eq 0 ] && echo "the interactive page passed (screenshots in $out)"
exit "$failed"
