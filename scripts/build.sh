#!/usr/bin/env bash
# Installs missing dependencies and builds the `weft` program alone (Release) into build/: no test
# suite, no benchmark (scripts/test.sh builds those). Prints the path of `weft`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build --target weft >&2
echo "$PWD/build/tools/weft/weft"
