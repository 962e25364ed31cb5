#!/usr/bin/env bash
# Installs whatever weft needs from Debian's packages and is missing. Idempotent: a machine that has
# everything installs nothing and touches no package list.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libassimp-dev libcli11-dev nlohmann-json3-dev libmeshoptimizer-dev libdraco-dev
  libgtest-dev libgmock-dev libbenchmark-dev
)
# Node.js and npm bundle the page viewer at build time (web/: three.js and esbuild from its lock
# file) and run the JSON Schema and glTF validators and the browser test the tests call. A machine may carry its own
# Node (not Debian's, and then Debian's npm conflicts with it): only install when there is none.
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  packages+=(nodejs npm)
fi
# The browser the page tests drive (tests/js/view_page_test.mjs), headless: scripts/test.sh asks for it;
# with it what the suite's other checks run: numpy for the independent glTF reader of the rest-pose
# test (tests/rest/gltf_rest.py) and lintian for the package test (tests/cli/runtime_test.cpp).
if [[ "${WEFT_DEPS_BROWSER:-0}" == 1 ]]; then
  packages+=(chromium fonts-dejavu-core python3-numpy lintian)
fi
# Optional extras: Bullet for the side-by-side solver benchmark, clang + its runtime for libFuzzer.
if [[ "${WEFT_DEPS_EXTRAS:-1}" == 1 ]]; then
  packages+=(libbullet-dev clang libclang-rt-14-dev)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "weft: installing ${missing[*]}" >&2
  sudo=""
  [[ $(id -u) -ne 0 ]] && sudo="sudo"
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
fi
