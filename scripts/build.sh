#!/usr/bin/env bash
# Installs missing dependencies and builds weft (Release) into build/. Prints the path of `weft`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build >&2
echo "$PWD/build/tools/weft/weft"
