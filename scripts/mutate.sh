#!/usr/bin/env bash
# Mutation pass over the solver, graph, grow, proxy and validate stages (docs/mutation.md). Slow (one rebuild and
# one suite run per mutation): not part of CI. Usage:
#   scripts/mutate.sh [build-dir] [id ...]     e.g. scripts/mutate.sh build-dev S01 G03
# The build dir must be configured already (see docs/testing.md). Each mutation in
# scripts/mutations.tsv is applied alone to a clean copy of its file, the owning suite's test binary is
# rebuilt and run, and the file is restored. A mutation is killed when the build or the suite fails.
# Prints one line per mutation and a summary; exits 1 when any survived or could not be applied.
# The suite stops at its first failing test (--gtest_fail_fast: a mutation is killed by one failure,
# and a killed mutation then costs seconds, not the suite); MUTATE_FULL=1 runs the whole suite, to
# list every test a mutation fails.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-build-dev}"
shift || true
[[ "$build" = /* ]] || build="$root/$build"
list="$root/scripts/mutations.tsv"
[ -f "$build/build.ninja" ] || { echo "mutate: $build is not a configured Ninja build dir (cmake -S . -B $build -G Ninja ...)" >&2; exit 2; }
log="$build/mutate-logs"
mkdir -p "$log"
backup=""
target_file=""
restore() { if [ -n "$backup" ]; then cp "$backup" "$target_file"; rm -f "$backup"; backup=""; fi; }
# A signal restores the file and stops the pass (a trap alone would restore it and go on to the next
# mutation); bash runs it once the build or suite in the foreground has returned.
trap restore EXIT
trap 'restore; exit 130' INT
trap 'restore; exit 143' TERM

fail_fast=(--gtest_fail_fast)
[ "${MUTATE_FULL:-0}" = 1 ] && fail_fast=()
killed=0; survived=0; broken=0
while IFS=$'\t' read -r id file suite from to what; do
    [[ -z "$id" || "$id" == \#* ]] && continue
    if [ "$#" -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$id"; then continue; fi
    target_file="$root/$file"
    count=$(grep -cF -- "$from" "$target_file" || true)
    if [ "$count" != 1 ]; then
        echo "$id  NOT APPLIED ($count matches of its text in $file)"
        broken=$((broken + 1)); continue
    fi
    backup="$(mktemp)"; cp "$target_file" "$backup"
    FROM="$from" TO="$to" perl -0pi -e 's/\Q$ENV{FROM}\E/$ENV{TO}/' "$target_file"
    if cmp -s "$backup" "$target_file"; then
        echo "$id  NOT APPLIED (no change)"; restore; broken=$((broken + 1)); continue
    fi
    verdict=survived
    if ! cmake --build "$build" -j2 --target "weft_${suite}_tests" >"$log/$id.build" 2>&1; then
        verdict="killed (build)"
    elif ! (cd "$build" && timeout 900 "./tests/weft_${suite}_tests" --gtest_brief=1 "${fail_fast[@]}" >"$log/$id.test" 2>&1); then
        verdict="killed ($(grep -c '^\[  FAILED  \] [A-Za-z]' "$log/$id.test") failing: $(grep '^\[  FAILED  \] [A-Za-z]' "$log/$id.test" | head -3 | sed 's/^\[  FAILED  \] //; s/ (.*//' | tr '\n' ' '))"
    fi
    restore
    case "$verdict" in killed*) killed=$((killed + 1)) ;; *) survived=$((survived + 1)) ;; esac
    printf '%s  %-7s %-8s %s — %s\n' "$id" "$suite" "${verdict%% *}" "$what" "${verdict#killed }"
done <"$list"
# Leave the build as the sources are.
for s in solver graph grow proxy; do cmake --build "$build" -j2 --target "weft_${s}_tests" >/dev/null 2>&1 || true; done
echo "mutate: $killed killed, $survived survived, $broken not applied"
[ "$survived" = 0 ] && [ "$broken" = 0 ]
