#!/usr/bin/env bash
# The main job on the bundled test data: installs and builds what is missing, then bakes every model
# under testdata/ into out/ (out/bake-report.json says what was built and what was refused and why;
# testdata/bad/ holds inputs that are refused on purpose, so the exit status is 1). Extra arguments
# go to `weft bake`.
set -euo pipefail
cd "$(dirname "$0")/.."
weft=$(scripts/build.sh)
exec "$weft" bake testdata -o out "$@"
