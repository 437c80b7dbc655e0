#!/usr/bin/env bash
# tests/html/render_in_chromium.sh — the HTML page of `warpsim run --html` in a real browser: headless Chromium
# loads the pages of a few examples without a console message, the DOM it builds holds every drawing (by SVG
# id, each with shapes inside), and a screenshot of each page is kept in OUT_DIR for people to look at.
# A planted page with a console error must fail the same check, so the check itself is tested.
#
# Usage: render_in_chromium.sh WARPSIM SOURCE_DIR OUT_DIR
# Exit 0: passed; 1: failed; 77: skipped because chromium is not installed (CTest SKIP_RETURN_CODE).
set -uo pipefail
warpsim=$1
src=$2
out=$3

source "$src/tests/html/chromium_common.sh"

# load PAGE NAME: the DOM after load in NAME.dom, the browser's log in NAME.log; false on console messages.
load() {
    local page=$1 name=$2
    if ! timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$page" >"$out/$name.dom" 2>"$out/$name.log"; then
        echo "chromium could not load $page (log: $out/$name.log)"
        return 1
    fi
    if grep -q ':CONSOLE' "$out/$name.log"; then
        grep ':CONSOLE' "$out/$name.log" | sed 's/^/    /'
        return 1
    fi
    return 0
}

# The svg element with this id and what is inside it, from a dumped DOM (one line per svg is not guaranteed:
# join the lines first).
svg_body() {
    tr -d '\n' <"$1" | grep -o "<svg[^>]*id=\"$2\"[^>]*>.*" | sed 's#</svg>.*##'
}

# check SPEC IDS...: run the spec with --html, load the page, look for each drawing, take a screenshot.
check() {
    local spec=$1
    shift
    local name
    name=$(basename "$spec" .json)
    local page="$out/$name.html"
    rm -f "$page"
    "$warpsim" run "$src/examples/specs/$spec" --quiet --html "$page"
    if [ ! -s "$page" ]; then
        fail "$spec: warpsim wrote no page"
        return
    fi
    load "$page" "$name" || fail "$spec: console messages or no load"
    local opened closed
    opened=$(grep -o '<svg' "$out/$name.dom" | wc -l)
    closed=$(grep -o '</svg>' "$out/$name.dom" | wc -l)
    [ "$opened" -eq "$closed" ] || fail "$spec: $opened <svg> but $closed </svg> in the DOM"
    for id in "$@"; do
        local body
        body=$(svg_body "$out/$name.dom" "$id")
        if [ -z "$body" ]; then
            fail "$spec: no <svg id=\"$id\"> in the DOM"
        elif ! grep -Eq '<(rect|line)' <<<"$body"; then
            fail "$spec: <svg id=\"$id\"> draws nothing"
        fi
    done
    timeout 120 "$browser" "${flags[@]}" --window-size=1200,3200 --screenshot="$out/$name.png" "file://$page" \
        >/dev/null 2>&1
    [ -s "$out/$name.png" ] || fail "$spec: no screenshot"
    echo "checked $spec: $* (screenshot $out/$name.png)"
}

# The check must be able to fail: a page with a console error.
printf '<!DOCTYPE html><html><body><script>console.error("planted")</script></body></html>\n' >"$out/planted.html"
if load "$out/planted.html" planted >/dev/null; then
    fail "a planted console error went unnoticed: the console check does not work with this chromium"
fi

check vector_add_1000.json heat-scale launch thread-layout sm-timeline lanes-to-sectors
check shared_tile_32x32.json heat-scale launch thread-layout sm-timeline lanes-to-sectors lanes-to-banks
check scale_matrix_1000_8x32.json launch thread-layout sm-timeline lanes-to-sectors
check waves_tail_1057.json launch thread-layout sm-timeline lanes-to-sectors
# The tail: 1057 blocks at 1056 per wave leave one block for a second wave on one SM.
grep -q 'class="wave partial tail" data-waves="2-2"' "$out/waves_tail_1057.dom" || fail "waves_tail_1057: no tail wave drawn"

[ "$failed" -eq 0 ] && echo "all pages rendered"
exit "$failed"
