#!/usr/bin/env bash
# Mutation pass (docs/mutation.md). Slow (one rebuild and one test run per mutation): not part of CI.
#   scripts/mutate.sh [build-dir] [id ...]     e.g. scripts/mutate.sh build-mut S01 G03
# The build dir must be configured already (docs/testing.md; `-DWEFT_TESTS_BUILD_TOOL=OFF` spares
# each mutation a rebuild of the weft program in the suites that never run it). Each mutation of
# scripts/mutations.tsv is applied alone to a clean copy of its file, the owning suite's test binary
# is rebuilt (and `weft` for the suites that run it), and run:
#   1. its named tests (the list's `tests` column, a --gtest_filter), when it names any;
#   2. if they pass (or it names none), the whole suite, stopping at its first failure.
# A mutation is killed when the build or a test fails, survived otherwise; the file is restored.
# Each result is recorded in scripts/mutation_results.tsv (one line a mutation, the latest run's) and
# docs/mutation.md is written from the list and those records (scripts/mutation_doc.py).
# Prints one line per mutation and a summary; exits 1 when any survived or could not be applied.
# MUTATE_FULL=1 runs the whole suite without stopping, to list every test a mutation fails.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-build-dev}"
shift || true
[[ "$build" = /* ]] || build="$root/$build"
list="$root/scripts/mutations.tsv"
records="$root/scripts/mutation_results.tsv"
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

# What the run is of: the commit, and whether the sources differed from it when the pass started.
commit=$(git -C "$root" rev-parse --short=9 HEAD)
[ -n "$(git -C "$root" status --porcelain --untracked-files=no -- lib tools tests)" ] && commit="$commit+dirty"
build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build/CMakeCache.txt")

fail_fast=(--gtest_fail_fast)
[ "${MUTATE_FULL:-0}" = 1 ] && fail_fast=()
# failing LOG: the tests a gtest log failed, space-separated
failing() { grep '^\[  FAILED  \] [A-Za-z]' "$1" | sed 's/^\[  FAILED  \] //; s/ (.*//; s/,.*//' | sort -u | tr '\n' ' ' | sed 's/ $//'; }
# ran LOG: how many tests a gtest log ran
ran() { sed -n 's/^\[==========\] \([0-9]*\) tests\{0,1\} from .* ran.*/\1/p' "$1" | tail -1; }
# record ID VERDICT KILLED_BY HOW SECONDS: replaces the mutation's line of the records
record() {
    local line
    line=$(printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s' "$1" "$2" "$3" "$4" "$commit" "$build_type" \
           "$(date -u +%Y-%m-%dT%H:%MZ)" "$5" "$(cut -d' ' -f1 /proc/loadavg)")
    touch "$records"
    { grep -v "^$1	" "$records" | grep -v '^#'; echo "$line"; } | sort -t$'\t' -k1,1 >"$records.new"
    { echo "# id	verdict	killed_by	how	commit	build	date	seconds	load (written by scripts/mutate.sh)"; cat "$records.new"; } >"$records"
    rm -f "$records.new"
}

suites_run=()
baseline_failed=()
# baseline SUITE: builds the suite unmutated and runs it whole once, before its first mutation: a test
# that fails without a mutation (a missing tool, say: tests/js without npm ci) would kill every
# mutation for the wrong reason. MUTATE_NO_BASELINE=1 skips it (when the suite is known to pass).
baseline() {
    local s=$1 targets=("weft_${1}_tests")
    case "$s" in cli|proxy) targets+=(weft) ;; esac
    [ "${MUTATE_NO_BASELINE:-0}" = 1 ] && return 0
    if ! cmake --build "$build" -j2 --target "${targets[@]}" >"$log/baseline-$s.build" 2>&1 ||
       ! (cd "$build" && timeout 1800 "./tests/weft_${s}_tests" --gtest_brief=1 >"$log/baseline-$s.test" 2>&1); then
        echo "mutate: weft_${s}_tests fails unmutated ($(failing "$log/baseline-$s.test")): its mutations are not run" >&2
        return 1
    fi
}
killed=0; survived=0; broken=0
while IFS=$'\t' read -r id file suite from to tests what; do
    [[ -z "$id" || "$id" == \#* ]] && continue
    if [ "$#" -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$id"; then continue; fi
    # A line of six fields names no tests: its last is what it breaks.
    if [ -z "$what" ]; then what=$tests; tests=-; fi
    # `\n` in a text is a line break: a mutation may span lines.
    from=${from//\\n/$'\n'}
    to=${to//\\n/$'\n'}
    target_file="$root/$file"
    count=$(FROM="$from" perl -0ne 'print scalar(() = /\Q$ENV{FROM}\E/g)' "$target_file")
    if [ "$count" != 1 ]; then
        echo "$id  NOT APPLIED ($count matches of its text in $file)"
        record "$id" "not applied" "$count matches of its text" "-" 0
        broken=$((broken + 1)); continue
    fi
    if ! printf '%s\n' "${suites_run[@]}" | grep -qx "$suite"; then
        baseline "$suite" || baseline_failed+=("$suite")
        suites_run+=("$suite")
    fi
    if printf '%s\n' "${baseline_failed[@]}" | grep -qx "$suite"; then
        echo "$id  NOT RUN (weft_${suite}_tests fails unmutated)"
        broken=$((broken + 1)); continue
    fi
    backup="$(mktemp)"; cp "$target_file" "$backup"
    FROM="$from" TO="$to" perl -0pi -e 's/\Q$ENV{FROM}\E/$ENV{TO}/' "$target_file"
    if cmp -s "$backup" "$target_file"; then
        echo "$id  NOT APPLIED (no change)"; restore
        record "$id" "not applied" "no change" "-" 0
        broken=$((broken + 1)); continue
    fi
    start=$SECONDS
    targets=("weft_${suite}_tests")
    case "$suite" in cli|proxy) targets+=(weft) ;; esac  # the suites that run the program
    verdict=survived; by="-"; how="-"
    exe="$build/tests/weft_${suite}_tests"
    if ! cmake --build "$build" -j2 --target "${targets[@]}" >"$log/$id.build" 2>&1; then
        verdict=killed; by=build; how=build
    else
        if [ "$tests" != "-" ] && [ "${MUTATE_FULL:-0}" != 1 ]; then
            (cd "$build" && timeout 900 "$exe" --gtest_brief=1 "--gtest_filter=$tests" >"$log/$id.named" 2>&1)
            status=$?
            if [ "$status" != 0 ]; then
                verdict=killed; how=named; by=$(failing "$log/$id.named"); [ -n "$by" ] || by="exit $status"
            elif [ "$(ran "$log/$id.named")" = 0 ]; then
                echo "$id  warning: its tests ($tests) match no test of weft_${suite}_tests" >&2
            fi
        fi
        if [ "$verdict" = survived ]; then
            (cd "$build" && timeout 900 "$exe" --gtest_brief=1 "${fail_fast[@]}" >"$log/$id.test" 2>&1)
            status=$?
            if [ "$status" != 0 ]; then
                verdict=killed; how=suite; by=$(failing "$log/$id.test"); [ -n "$by" ] || by="exit $status"
            fi
        fi
    fi
    restore
    case "$verdict" in killed) killed=$((killed + 1)) ;; *) survived=$((survived + 1)) ;; esac
    record "$id" "$verdict" "$by" "$how" $((SECONDS - start))
    printf '%s  %-8s %-8s %s — %s (%s, %d s)\n' "$id" "$suite" "$verdict" "$what" "$by" "$how" $((SECONDS - start))
done <"$list"
# Leave the build as the sources are: every suite the pass rebuilt, and the program.
for s in "${suites_run[@]}"; do
    targets=("weft_${s}_tests")
    case "$s" in cli|proxy) targets+=(weft) ;; esac
    cmake --build "$build" -j2 --target "${targets[@]}" >/dev/null 2>&1 || echo "mutate: rebuilding weft_${s}_tests failed" >&2
done
python3 "$root/scripts/mutation_doc.py" >"$root/docs/mutation.md" || echo "mutate: docs/mutation.md not written" >&2
echo "mutate: $killed killed, $survived survived, $broken not applied"
[ "$survived" = 0 ] && [ "$broken" = 0 ]
