#!/usr/bin/env bash
# ctest view_pages: opens every page of a bake of the shared models (--grow-cloth --validate, pages
# included) in headless Chromium (view_page_test.mjs), and holds the page's size budget: the Witch
# baked with every clip (24 clips) writes a view.html under 5 MB (lib/outputs/view_page.h).
#   view_pages.sh WEFT SHARED_MODELS SCRATCH [--update]   bake into SCRATCH/out, then open its pages
#   view_pages.sh --baked OUT WEFT SHARED_MODELS SCRATCH [--update]
#                                                         open the pages of a bake already made (ctest
#                                                         reuses the golden run's, tests/golden/golden_bake.sh)
# Skips (exit 77) where the shared models, the bake or the browser are absent; fails when npm ci has not run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
baked=
if [[ ${1:-} == --baked ]]; then
    baked=$2
    shift 2
fi
weft=$1 models=$2 scratch=$3
shift 3
out=${baked:-$scratch/out}
if [[ ! -d "$models" ]]; then echo "view_pages: no shared models at $models: skipped"; exit 77; fi
if [[ -n $baked && ! -f "$out/bake-report.json" ]]; then echo "view_pages: no bake at $out: skipped"; exit 77; fi
if [[ ! -x "${WEFT_CHROMIUM:-/usr/bin/chromium}" ]]; then echo "view_pages: no chromium: skipped (scripts/deps.sh installs it)"; exit 77; fi
if [[ ! -d "$here/node_modules/puppeteer-core" ]]; then echo "view_pages: tests/js/node_modules/puppeteer-core is missing: run npm ci in tests/js (scripts/test.sh does)"; exit 1; fi
if [[ "$here/package-lock.json" -nt "$here/node_modules/.package-lock.json" ]]; then
    echo "view_pages: tests/js/node_modules is older than tests/js/package-lock.json: run npm ci in tests/js (scripts/test.sh does)"; exit 1
fi
rm -rf "$scratch/screenshots" "$scratch/budget"
mkdir -p "$scratch"
bake() {
    local start status=0
    start=$(date +%s%N)
    "$weft" bake "$@" -q || status=$?
    echo "view_pages: weft bake $* took $((($(date +%s%N) - start) / 1000000)) ms (exit $status: some models are refused on purpose)"
    [[ $status -le 1 ]] || exit "$status"
}
if [[ -z $baked ]]; then
    rm -rf "$out"
    bake "$models" -o "$out" --grow-cloth --validate -j 2
fi
# The size budget: the model with the most clips and proxies, every clip played.
budget=()
witch=$models/quaternius_umw_Witch.gltf
if [[ -f $witch ]]; then
    bake "$witch" -o "$scratch/budget" --validate --clips all
    budget=(--budget "$scratch/budget/quaternius_umw_Witch.gltf/view.html" 5000000)
fi
exec node "$here/view_page_test.mjs" "$out" "$scratch/screenshots" "$here/view_reference.json" "${budget[@]}" "$@"
