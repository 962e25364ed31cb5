#!/usr/bin/env bash
# The weft_cloth rule (bazel/weft_cloth.bzl) on bazel/example with the test data's flag and mannequin.
#   bazel/test_rule.sh WEFT SCRATCH
# 1. The action as the rule forms it, `weft bake MODEL -o <package>/<name> -j 1 -q --grow-cloth
#    --validate`, run in two execution roots at different absolute paths with an empty environment
#    (env -i), as two machines of a farm would: the declared tree, <package>/<name>/<model file name>/,
#    must hold the proxies and reports and be the same bytes in both. With a bazel here, Bazel's own
#    execution root (step 2) is the second: the action is not run in a second root of ours (two
#    validated bakes fewer), and its trees are compared with the first's there.
# 2. With a `bazel` that runs here (Debian's bazel-bootstrap, offline: nothing fetched), the example
#    workspace is built, its two trees compared with step 1's, then built again from a clean output
#    base against the first build's --disk_cache: every action must be a cache hit. Without one,
#    step 2 is reported as not run (exit 0 after step 1, with a line saying so).
set -euo pipefail
if [[ $# -ne 2 ]]; then echo "usage: test_rule.sh WEFT SCRATCH" >&2; exit 2; fi
weft=$(realpath "$1") scratch=$2
here=$(cd "$(dirname "$0")" && pwd)
src=$(dirname "$here")
rm -rf "$scratch"
mkdir -p "$scratch"
scratch=$(realpath "$scratch")
models=(flag.glb mannequin.glb)
targets=(flag_cloth mannequin_cloth)

fail() { echo "test_rule: $*" >&2; exit 1; }
tree_sums() { (cd "$1" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum); }

# --- 1. the action's command line in two execution roots ---------------------------------------
roots=("$scratch/machine_a/execroot")
have_bazel=0
command -v bazel >/dev/null 2>&1 && have_bazel=1
((have_bazel)) || roots+=("$scratch/machine_b/somewhere/else/execroot")  # else Bazel's execroot is the second
for root in "${roots[@]}"; do
    mkdir -p "$root/models" "$root/tools"
    for m in "${models[@]}"; do cp "$src/testdata/$m" "$root/models/"; done
    cp "$weft" "$root/tools/weft"
    for k in 0 1; do
        # As weft_cloth's ctx.actions.run forms it, the output being bazel-out/<config>/bin/<name>/<model>.
        (cd "$root" && env -i tools/weft bake "models/${models[$k]}" -o "bazel-out/k8-fastbuild/bin/${targets[$k]}" \
            -j 1 -q --grow-cloth --validate) || fail "the action for ${models[$k]} failed in $root"
    done
done
for k in 0 1; do
    a="$scratch/machine_a/execroot/bazel-out/k8-fastbuild/bin/${targets[$k]}/${models[$k]}"
    b="$scratch/machine_b/somewhere/else/execroot/bazel-out/k8-fastbuild/bin/${targets[$k]}/${models[$k]}"
    ls "$a"/*.clothproxy >/dev/null 2>&1 || fail "no proxy in the declared tree $a"
    for f in report.json bake-stamp.json; do [[ -f "$a/$f" ]] || fail "no $f in the declared tree $a"; done
    if grep -rlF "$scratch" "$a"; then fail "${models[$k]}: the tree names the execution root"; fi
    ((have_bazel)) && continue  # compared with Bazel's execution root in step 2
    if ! diff <(tree_sums "$a") <(tree_sums "$b"); then fail "${models[$k]}: the tree differs between the two execution roots"; fi
    echo "test_rule: ${models[$k]}: the action's tree is the same bytes in two execution roots ($(find "$a" -type f | wc -l) files)"
done

# --- 2. bazel itself ----------------------------------------------------------------------------
if ((!have_bazel)); then
    echo "test_rule: no bazel here: the rule itself was not run (step 1 only)"
    exit 0
fi
cp "$here/WORKSPACE" "$here/BUILD" "$here/weft_cloth.bzl" "$scratch/"
ws="$scratch/example"
cp -r "$here/example" "$ws"
mkdir -p "$ws/models"
for m in "${models[@]}"; do cp "$src/testdata/$m" "$ws/models/"; done
cp "$weft" "$ws/tools/weft"
bazel_build() {  # output base $1; the log in $2
    (cd "$ws" && timeout 900 bazel --batch --output_user_root="$scratch/bazel_root" --output_base="$1" build \
        --disk_cache="$scratch/disk_cache" --noshow_progress --spawn_strategy=sandboxed,local \
        "${targets[@]/#///:}") >"$2" 2>&1
}
if ! bazel_build "$scratch/base1" "$scratch/build1.log"; then
    cat "$scratch/build1.log" >&2
    fail "bazel build failed (log above): if it tried to fetch, this bazel does not run offline here"
fi
for k in 0 1; do
    out="$scratch/base1/execroot/weft_example/bazel-out/k8-fastbuild/bin/${targets[$k]}/${models[$k]}"
    [[ -d "$out" ]] || fail "bazel did not write $out"
    a="$scratch/machine_a/execroot/bazel-out/k8-fastbuild/bin/${targets[$k]}/${models[$k]}"
    if ! diff <(tree_sums "$out") <(tree_sums "$a"); then fail "${models[$k]}: bazel's tree differs from the action's"; fi
    echo "test_rule: ${models[$k]}: bazel's tree is the action's in a second execution root, byte for byte ($(find "$out" -type f | wc -l) files)"
done
bazel_build "$scratch/base2" "$scratch/build2.log" || { cat "$scratch/build2.log" >&2; fail "the second bazel build failed"; }
grep -Eq "${#targets[@]} (remote|disk) cache hit" "$scratch/build2.log" ||
    { cat "$scratch/build2.log" >&2; fail "the second build (fresh output base) did not take both trees from the cache"; }
echo "test_rule: a fresh output base took both trees from the disk cache: $(grep -Eo '[0-9]+ (remote|disk) cache hit' "$scratch/build2.log")"
