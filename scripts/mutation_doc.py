#!/usr/bin/env python3
"""Writes docs/mutation.md to standard output from the mutation list (scripts/mutations.tsv) and the
records of the runs (scripts/mutation_results.tsv, written by scripts/mutate.sh): every mutation, what
it breaks, its last result and the test that killed it. The page is never edited by hand; ctest
`mutation_doc` fails when it differs from what this prints."""
import collections
import os
import re
import sys

TEST_NAME = re.compile(r"^[A-Za-z0-9_/]+\.[A-Za-z0-9_/]+$")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def rows(path, fields):
    out = []
    if not os.path.exists(path):
        return out
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            parts = line.split("\t")
            if len(parts) != fields:
                sys.exit(f"mutation_doc: {path}: {len(parts)} fields, not {fields}: {line[:80]}")
            out.append(parts)
    return out


def cell(text):
    return text.replace("|", "\\|")


def main():
    mutations = rows(os.path.join(ROOT, "scripts", "mutations.tsv"), 7)
    records = {r[0]: r for r in rows(os.path.join(ROOT, "scripts", "mutation_results.tsv"), 9)}
    ids = [m[0] for m in mutations]
    if len(set(ids)) != len(ids):
        sys.exit("mutation_doc: an id is listed twice in scripts/mutations.tsv")

    p = []
    p.append("# The mutation pass")
    p.append("")
    p.append("<!-- Written by scripts/mutation_doc.py from scripts/mutations.tsv and scripts/mutation_results.tsv;")
    p.append("     scripts/mutate.sh rewrites it after every run. Do not edit by hand. -->")
    p.append("")
    p.append("A mutation is one small change to weft's code that a user or the next stage would see: a clamp's")
    p.append("direction, a row's multiplier, a pivot check, a fitted constant, a tie-break that decides which")
    p.append("colour or holder a particle gets, an accessor's component type. The suite that owns the code must")
    p.append("fail on it, and by a test of the behaviour the mutation breaks.")
    p.append("")
    p.append("`scripts/mutate.sh [BUILD] [ID...]` applies each mutation of `scripts/mutations.tsv` alone, rebuilds")
    p.append("the owning suite's test binary in BUILD (a configured Ninja build; `-DWEFT_TESTS_BUILD_TOOL=OFF` spares")
    p.append("each mutation a rebuild of the weft program where the suite does not run it) and runs first the")
    p.append("tests the list names for it (its `tests` column, a `--gtest_filter`), then, if they pass, the whole")
    p.append("suite up to its first failure. A mutation is **killed** when the build or a test fails, **survived**")
    p.append("otherwise; its file is restored after it, on exit and on interrupt. Each result replaces that")
    p.append("mutation's line of `scripts/mutation_results.tsv` (the commit, `+dirty` when the sources differed")
    p.append("from it, the build type, the time, the seconds it took and the machine's load), and this page is")
    p.append("written again from the two files (`scripts/mutation_doc.py`); ctest `mutation_doc` checks it is.")
    p.append("`MUTATE_FULL=1` runs every test of the suite, to list all a mutation fails. Logs:")
    p.append("`BUILD/mutate-logs/ID.build`, `ID.named`, `ID.test`. It is not part of CI (one rebuild a mutation,")
    p.append("one to five minutes each on two shared cores).")
    p.append("")
    p.append("\"Killed by\" names the failing tests: **named** when they are the ones the list names, **suite**")
    p.append("when the named tests passed (or none is named) and another test of the suite failed first,")
    p.append("**build** when the mutation does not compile.")
    p.append("")

    verdicts = collections.Counter()
    by_suite = collections.defaultdict(collections.Counter)
    for m in mutations:
        r = records.get(m[0])
        v = r[1] if r else "not run"
        verdicts[v] += 1
        by_suite[m[2]][v] += 1
    order = ["killed", "survived", "not applied", "not run"]
    p.append("## Summary")
    p.append("")
    p.append(f"{len(mutations)} mutations: " + ", ".join(f"{verdicts[v]} {v}" for v in order if verdicts[v]) + ".")
    p.append("")
    p.append("| suite | mutations | " + " | ".join(order) + " |")
    p.append("|---|---|" + "---|" * len(order))
    for suite in sorted(by_suite):
        c = by_suite[suite]
        p.append(f"| {suite} | {sum(c.values())} | " + " | ".join(str(c[v]) for v in order) + " |")
    p.append("")

    runs = collections.OrderedDict()
    for r in sorted(records.values(), key=lambda r: r[6]):
        if r[0] not in ids:
            continue
        key = (r[4], r[5])
        runs.setdefault(key, []).append(r)
    p.append("## Runs")
    p.append("")
    p.append("| commit | build | from | to | mutations | seconds | load |")
    p.append("|---|---|---|---|---|---|---|")
    for (commit, build), rs in runs.items():
        loads = [float(r[8]) for r in rs if r[8] not in ("", "-")]
        load = f"{min(loads):.1f}-{max(loads):.1f}" if loads else "-"
        p.append(f"| {commit} | {build or '-'} | {rs[0][6]} | {rs[-1][6]} | {len(rs)} | "
                 f"{sum(int(r[7]) for r in rs)} | {load} |")
    p.append("")

    p.append("## Every mutation")
    p.append("")
    p.append("| id | file | suite | what it breaks | result | killed by | how | run |")
    p.append("|---|---|---|---|---|---|---|---|")
    for m in mutations:
        mid, path, suite, _from, _to, _tests, what = m
        r = records.get(mid)
        if r:
            result, by, how, run = r[1], r[2], r[3], f"{r[4]} {r[6]}"
        else:
            result, by, how, run = "not run", "-", "-", "-"
        tests = by.split(" ")
        if all(TEST_NAME.match(t) for t in tests):
            by = ", ".join(f"`{t}`" for t in tests)
        p.append(f"| {mid} | `{path}` | {suite} | {cell(what)} | {result} | {cell(by)} | {how} | {run} |")
    orphans = sorted(set(records) - set(ids))
    if orphans:
        p.append("")
        p.append("Records of mutations no longer listed (ignored): " + ", ".join(orphans) + ".")
    sys.stdout.write("\n".join(p) + "\n")


if __name__ == "__main__":
    main()
