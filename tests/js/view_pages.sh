#!/usr/bin/env bash
# ctest view_pages: bakes the shared models with --validate (pages included) and opens every page in
# headless Chromium (view_page_test.mjs). Usage: view_pages.sh WEFT SHARED_MODELS SCRATCH
# Skips (exit 77) where the shared models or the browser are absent; fails when npm ci has not run.
set -euo pipefail
weft=$1 models=$2 scratch=$3
here=$(cd "$(dirname "$0")" && pwd)
if [[ ! -d "$models" ]]; then echo "view_pages: no shared models at $models: skipped"; exit 77; fi
if [[ ! -x "${WEFT_CHROMIUM:-/usr/bin/chromium}" ]]; then echo "view_pages: no chromium: skipped (scripts/deps.sh installs it)"; exit 77; fi
if [[ ! -d "$here/node_modules/puppeteer-core" ]]; then echo "view_pages: run npm ci in tests/js (scripts/test.sh does)"; exit 1; fi
rm -rf "$scratch"
mkdir -p "$scratch"
start=$(date +%s%N)
status=0
"$weft" bake "$models" -o "$scratch/out" --validate -j 2 -q || status=$?
echo "view_pages: bake took $((($(date +%s%N) - start) / 1000000)) ms (exit $status: some shared models are refused on purpose)"
[[ $status -le 1 ]] || exit "$status"
exec node "$here/view_page_test.mjs" "$scratch/out" "$scratch/screenshots" "$here/view_reference.json" "${@:4}"
