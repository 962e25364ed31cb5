#!/usr/bin/env bash
# ctest view_pages: opens every page of a bake of the shared models (--grow-cloth --validate, pages
# included) in headless Chromium (view_page_test.mjs).
#   view_pages.sh WEFT SHARED_MODELS SCRATCH [--update]   bake into SCRATCH/out, then open its pages
#   view_pages.sh --baked OUT SCRATCH [--update]          open the pages of a bake already made (ctest
#                                                         reuses the golden run's, tests/golden/golden_bake.sh)
# Skips (exit 77) where the shared models, the bake or the browser are absent; fails when npm ci has not run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [[ ${1:-} == --baked ]]; then
    out=$2 scratch=$3
    shift 3
    if [[ ! -f "$out/bake-report.json" ]]; then echo "view_pages: no bake at $out (no shared models?): skipped"; exit 77; fi
else
    weft=$1 models=$2 scratch=$3
    shift 3
    if [[ ! -d "$models" ]]; then echo "view_pages: no shared models at $models: skipped"; exit 77; fi
    out=$scratch/out
fi
if [[ ! -x "${WEFT_CHROMIUM:-/usr/bin/chromium}" ]]; then echo "view_pages: no chromium: skipped (scripts/deps.sh installs it)"; exit 77; fi
if [[ ! -d "$here/node_modules/puppeteer-core" ]]; then echo "view_pages: tests/js/node_modules/puppeteer-core is missing: run npm ci in tests/js (scripts/test.sh does)"; exit 1; fi
if [[ "$here/package-lock.json" -nt "$here/node_modules/.package-lock.json" ]]; then
    echo "view_pages: tests/js/node_modules is older than tests/js/package-lock.json: run npm ci in tests/js (scripts/test.sh does)"; exit 1
fi
rm -rf "$scratch/screenshots"
mkdir -p "$scratch"
if [[ -n ${weft:-} ]]; then
    rm -rf "$out"
    start=$(date +%s%N)
    status=0
    "$weft" bake "$models" -o "$out" --grow-cloth --validate -j 2 -q || status=$?
    echo "view_pages: bake took $((($(date +%s%N) - start) / 1000000)) ms (exit $status: some shared models are refused on purpose)"
    [[ $status -le 1 ]] || exit "$status"
fi
exec node "$here/view_page_test.mjs" "$out" "$scratch/screenshots" "$here/view_reference.json" "$@"
