#!/usr/bin/env python3
"""The tables of scripts/float_solver.sh from its results folder: each test in double and float, then
the sheet's strain, energy drift and frame (docs/measurements.md#float-or-double). Writes table.md
there and prints it."""
import json
import os
import re
import statistics
import sys


def tests_of(out, variant):
    """{test: (status, first line of the first failure)} over the suites run, from gtest's JSON, or
    from the log where the suite died before writing it."""
    seen = {}
    for name in sorted(os.listdir(out)):
        m = re.fullmatch(variant + r'-(\w+)\.log', name)
        if not m or re.fullmatch(r'hang|step\d+', m.group(1)):
            continue
        js = os.path.join(out, f'{variant}-{m.group(1)}.json')
        if os.path.exists(js):
            for suite in json.load(open(js))['testsuites']:
                for t in suite['testsuite']:
                    full = suite['name'] + '.' + t['name']
                    if t.get('result') == 'SKIPPED':
                        seen[full] = ('skipped', '')
                    elif t.get('failures'):
                        text = t['failures'][0]['failure'].strip().splitlines()
                        seen[full] = ('FAIL', ' '.join(text[:3])[:200])
                    else:
                        seen[full] = ('pass', '')
        else:
            log = open(os.path.join(out, name), errors='replace').read()
            for t in re.findall(r'^\[  FAILED  \] (\S+)', log, re.M):
                seen[t] = ('FAIL', 'the suite died before writing its report')
            seen[f'({m.group(1)} suite)'] = ('CRASH', log.strip().splitlines()[-1][:200] if log.strip() else '')
    return seen


def bench_of(out, variant):
    """{benchmark run name: [iteration runs]} over the hang and the rounds of frames."""
    runs = {}
    for name in sorted(os.listdir(out)):
        if not re.fullmatch(variant + r'-(hang|step\d+)\.json', name) or os.path.getsize(os.path.join(out, name)) == 0:
            continue
        try:
            benchmarks = json.load(open(os.path.join(out, name)))['benchmarks']
        except ValueError:  # a run that died before it finished writing
            continue
        for b in benchmarks:
            if b.get('run_type') != 'aggregate':
                runs.setdefault(b['run_name'], []).append(b)
    return runs


def main():
    out = sys.argv[1]
    lines = []
    d, f = tests_of(out, 'double'), tests_of(out, 'float')
    names = sorted(set(d) | set(f))
    by_suite = {}
    for n in names:
        suite = n.split('.')[0]
        s = by_suite.setdefault(suite, [0, 0, 0])
        s[0] += 1
        s[1] += d.get(n, ('-',))[0] == 'pass'
        s[2] += f.get(n, ('-',))[0] == 'pass'
    lines += ['| suite | tests | pass in double | pass in float |', '|---|---|---|---|']
    lines += [f'| {k} | {v[0]} | {v[1]} | {v[2]} |' for k, v in sorted(by_suite.items())]
    lines += ['', '| test | double | float | float\'s first failure |', '|---|---|---|---|']
    for n in names:
        ds, fs = d.get(n, ('not run', '')), f.get(n, ('not run', ''))
        if ds[0] != fs[0] or fs[0] != 'pass':
            lines.append(f'| {n} | {ds[0]} | {fs[0]} | {fs[1].replace("|", "/")} |')
    lines.append(f'\n{sum(1 for n in names if f.get(n, ("",))[0] == "pass")} of {len(names)} pass in float, '
                 f'{sum(1 for n in names if d.get(n, ("",))[0] == "pass")} in double; the rest of the tests run pass in both.')

    lines += ['', '| sheet | counter | double | float |', '|---|---|---|---|']
    dr, fr = bench_of(out, 'double'), bench_of(out, 'float')
    for name in sorted(set(dr) | set(fr)):
        keys = ['frame_min_ms', 'worst_strain', 'drop_strain'] if 'SheetStep' in name else \
            ['cpu_frame_ms', 'energy_start_J', 'energy_drift_J', 'energy_climb_J', 'kinetic_late_max_J', 'worst_strain']
        for k in keys:
            def cell(runs):
                vals = [r[k] for r in runs.get(name, []) if k in r]
                if not vals:
                    return '-'
                if k.endswith('_ms'):  # timings: the best and the median of the repetitions
                    return f'{min(vals):.3f} (median {statistics.median(vals):.3f})'
                return f'{vals[0]:.7g}' + ('' if len(set(vals)) == 1 else f' .. {max(vals):.7g}')
            lines.append(f'| {name} | {k} | {cell(dr)} | {cell(fr)} |')
    text = '\n'.join(lines) + '\n'
    open(os.path.join(out, 'table.md'), 'w').write(text)
    print(text)


if __name__ == '__main__':
    main()
