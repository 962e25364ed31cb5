#!/usr/bin/env bash
# The inputs refused on purpose (testdata/bad/: truncated, hostile, non-manifold, NaN ...): bakes
# them into out-refused/ so every refusal can be read, with its code, in
# out-refused/bake-report.json and on standard error. Exits 1 as it should: every model is refused.
set -euo pipefail
cd "$(dirname "$0")/.."
weft=$(scripts/build.sh)
exec "$weft" bake testdata/bad -o out-refused "$@"
