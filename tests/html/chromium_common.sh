# tests/html/chromium_common.sh — sourced by the headless-Chromium tests (render_in_chromium.sh,
# interactive_page.sh): finds Chromium (exit 77, CTest's skip code, when it is missing, or when a program the
# caller names in `needs` is), gives it a writable home inside OUT_DIR, its flags, and the fail helper.
#
# Usage (after setting `out`, and `needs=(PROGRAM ...)` if the test needs more than Chromium):
#   source chromium_common.sh
needs=("${needs[@]+"${needs[@]}"}")
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
    echo "SKIPPED: chromium is not installed; install it (Debian: apt-get install chromium, which scripts/deps.sh does)"
    exit 77
fi
for program in "${needs[@]}"; do
    if ! command -v "$program" >/dev/null; then
        echo "SKIPPED: $program is not installed"
        exit 77
    fi
done
mkdir -p "$out"
# Chromium wants a writable home for its profile; keep it inside OUT_DIR.
export HOME="$out/home"
mkdir -p "$HOME"
flags=(--headless --disable-gpu --no-sandbox --no-first-run --hide-scrollbars --enable-logging=stderr --v=0)
failed=0
fail() {
    echo "FAIL: $*"
    failed=1
}
