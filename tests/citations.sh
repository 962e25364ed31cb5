#!/usr/bin/env bash
# The repository cites only itself and papers (docs/architecture.md#conventions). Fails when
#  - a source file under lib/, tools/ or tests/ cites a design document the repository does not have
#    or an issue number ("seed 2", a section sign, "issue 5", "rows.md", "../shared"), or
#  - a published schema or format page under schemas/ does (its own sections may use the section sign), or
#  - a named file or folder of the repository (lib/..., docs/..., scripts/...) in the README, docs/ or a
#    source does not exist, or
#  - a `docs/<page>.md#<anchor>` or `schemas/<page>.md#<anchor>` cited in those folders, the README
#    or docs/ (and a page's own `](#anchor)` / `](page.md#anchor)` links) names a page that does not
#    exist or an anchor none of its headings makes.
# Usage: tests/citations.sh [CHECKOUT]   (ctest runs it as `citations`)
set -u
cd "${1:-$(dirname "$0")/..}" || exit 2
export LC_ALL=C

mapfile -t sources < <(find lib tools tests -type f \( -name '*.h' -o -name '*.hpp' -o -name '*.cpp' \
    -o -name '*.cc' -o -name '*.c' -o -name '*.txt' -o -name '*.cmake' -o -name '*.sh' -o -name '*.py' \
    -o -name '*.js' -o -name '*.mjs' \) -not -path '*/node_modules/*' -not -path tests/citations.sh | sort)
[ "${#sources[@]}" -gt 100 ] || { echo "citations: only ${#sources[@]} source files found under $(pwd)" >&2; exit 2; }

failures=0
forbidden='seed #?[0-9]|§|issue #?[0-9]|rows\.md|\.\./shared'
while IFS= read -r hit; do
    echo "citations: $hit" >&2
    echo "  cites a document outside the repository or an issue number: cite a docs/ page" \
         "(docs/solver.md#tether) or a paper (author, title, year)" >&2
    failures=$((failures + 1))
done < <(printf '%s\n' "${sources[@]}" | xargs grep -nHiE "$forbidden" /dev/null)
# What users read beside the files weft writes: the schemas' descriptions and the format pages.
schema_pages=(schemas/*)
while IFS= read -r hit; do
    echo "citations: $hit" >&2
    echo "  a published schema cites a document outside the repository: cite a docs/ page" >&2
    failures=$((failures + 1))
done < <(grep -nHiE 'seed #?[0-9]|issue #?[0-9]|rows\.md|DESIGN\.md|\.\./shared' "${schema_pages[@]}")

# GitHub's heading anchors: lower case; everything but letters, digits, spaces, '_' and '-' dropped;
# spaces to '-'.
anchors_of() {
    grep -E '^#{1,6} ' "$1" | sed -E 's/^#+ +//' | tr 'A-Z' 'a-z' | sed -E 's/[^a-z0-9 _-]//g; s/ /-/g'
}

checked=0
declare -A anchors
check_ref() {  # file-that-cites page anchor
    checked=$((checked + 1))
    if [ ! -f "$2" ]; then
        echo "citations: $1 cites $2#$3, but $2 does not exist" >&2
        failures=$((failures + 1))
        return
    fi
    [ -n "${anchors[$2]+set}" ] || anchors[$2]=$'\n'"$(anchors_of "$2")"$'\n'
    if [[ "${anchors[$2]}" != *$'\n'"$3"$'\n'* ]]; then
        echo "citations: $1 cites $2#$3, but no heading of $2 makes the anchor '$3'" >&2
        failures=$((failures + 1))
    fi
}

pages=(docs/*.md)
while IFS=: read -r file ref; do
    check_ref "$file" "${ref%%#*}" "${ref#*#}"
done < <(grep -oHE '(docs|schemas)/[A-Za-z0-9_-]+\.md#[A-Za-z0-9_-]+' "${sources[@]}" README.md "${pages[@]}" "${schema_pages[@]}")
for page in "${pages[@]}"; do
    while IFS= read -r ref; do
        ref=${ref#](}
        if [ "${ref:0:1}" = "#" ]; then check_ref "$page" "$page" "${ref#\#}"
        else check_ref "$page" "docs/${ref%%#*}" "${ref#*#}"; fi
    done < <(grep -oE '\]\((#|[A-Za-z0-9_-]+\.md#)[A-Za-z0-9_-]+' "$page")
done

# Every file or folder of the repository that the README, docs/ or a source's comment names must exist:
# a path that starts at a top-level folder (lib/, tools/, tests/, ...), in backticks, a link or plain
# text. What a path names beyond the checkout (a bake's OUT/..., ../shared/...) starts elsewhere;
# placeholders (<model>, *, ...) and generated build outputs are skipped.
named=0
top='lib|tools|tests|schemas|docs|scripts|examples|web|testdata|cmake|corpus|bazel'
while IFS=: read -r file path; do
    path=${path#[^A-Za-z]}                      # the backtick, bracket or space before it
    path=${path%.}; path=${path%/}
    case $path in *'<'*|*'*'*|*'{'*|*'...'*|*'$'*) continue ;; esac
    [[ $path == tests/js/node_modules* || $path == web/node_modules* ]] && continue
    named=$((named + 1))
    if [ ! -e "$path" ]; then
        echo "citations: $file names $path, which does not exist" >&2
        failures=$((failures + 1))
    fi
done < <(grep -oHE "(^|[\`( \[])($top)/[A-Za-z0-9_./<>*{}\$-]*[A-Za-z0-9_/>*}-]" README.md "${pages[@]}" "${sources[@]}" | sort -u)

if [ "$failures" -gt 0 ]; then
    echo "citations: $failures finding(s) in ${#sources[@]} source files" >&2
    exit 1
fi
echo "citations: ${#sources[@]} source files cite no outside document; $checked docs anchors resolve; $named named paths exist"
