#!/usr/bin/env python3
"""Score weft on the labelled corpus of public models (corpus/corpus.json, described in corpus/README.md).

Nothing is downloaded: the models are read from copies of their repositories that you already have
(a mirror root of bare git directories, or plain checkouts), copied into a scratch folder, baked with
`weft bake --validate`, and each garment the labels expect is looked for among the proxies weft wrote.

  scripts/corpus.py sources                       # the repositories and commits the corpus needs
  scripts/corpus.py check  --source ROOT          # which entries can be read from ROOT
  scripts/corpus.py score  --source ROOT --weft build/tools/weft/weft --tuned
  scripts/corpus.py score  --source ROOT --weft ... --held-out --aggregate-only
  scripts/corpus.py score  --source ROOT --weft ... --batch 2 --tuned   # one batch of the list
  scripts/corpus.py split  [--write]              # draw the held-out flags again after editing the list

Python 3 standard library only. See docs/corpus.md.
"""
import argparse
import hashlib
import json
import os
import posixpath
import random
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CORPUS = os.path.join(HERE, '..', 'corpus', 'corpus.json')

# Classes that hang the same way: a garment found as another class of its family still counts as
# found (the column "other class" says how often); a class from another family is a false garment.
FAMILIES = {
    'hair': 'hair', 'ribbon': 'ribbon', 'tail': 'tail', 'hood': 'hood', 'cape': 'cape',
    'skirt': 'lower', 'dress': 'lower', 'robe': 'lower', 'loincloth': 'lower', 'coat_tail': 'lower',
    'banner': 'hanging_sheet', 'flag': 'hanging_sheet', 'curtain': 'curtain', 'sail': 'sail',
    'awning': 'roof_sheet', 'tent': 'roof_sheet', 'blanket': 'draped_sheet', 'tablecloth': 'draped_sheet',
}


def family(cls):
    return FAMILIES.get(cls, cls)


# ---------------------------------------------------------------------------------------------
# Reading the models out of the repositories they came from


def git_blob_id(data):
    """The id git gives these bytes as a blob: how a plain directory's file is checked."""
    return hashlib.sha1(b'blob %d\0' % len(data) + data).hexdigest()


class Sources:
    """Finds a repository under one of the roots: ROOT/owner+name/repo (what `fetch` brings), a bare
    or ordinary git directory, or a plain directory (ROOT/owner+name, ROOT/owner/name, ROOT/name)."""

    def __init__(self, roots):
        self.roots = [os.path.abspath(r) for r in roots]
        self._found = {}

    def _candidates(self, repo):
        owner, name = repo.split('/', 1)
        for root in self.roots:
            for rel in (owner + '+' + name + '/repo', owner + '+' + name, owner + '/' + name, name,
                        owner + '+' + name + '.git', name + '.git'):
                yield os.path.join(root, rel)

    @staticmethod
    def _git_dir(path):
        for d in (path, os.path.join(path, '.git')):
            if os.path.isfile(os.path.join(d, 'HEAD')) and os.path.isdir(os.path.join(d, 'objects')):
                return d
        return None

    def locate(self, repo):
        """(kind, path): ('git', git dir) or ('dir', folder), or None."""
        if repo not in self._found:
            self._found[repo] = None
            for c in self._candidates(repo):
                if not os.path.isdir(c):
                    continue
                g = self._git_dir(c)
                self._found[repo] = ('git', g) if g else ('dir', c)
                break
        return self._found[repo]

    def read(self, repo, commit, path, blob=None):
        """The file's bytes at that commit, or raise LookupError saying why not."""
        where = self.locate(repo)
        if where is None:
            raise LookupError('repository %s not found under %s' % (repo, ', '.join(self.roots)))
        kind, loc = where
        if kind == 'git':
            r = subprocess.run(['git', '--git-dir', loc, 'cat-file', 'blob', '%s:%s' % (commit, path)],
                               capture_output=True)
            if r.returncode != 0:
                raise LookupError('%s: %s:%s not in %s (%s)' % (repo, commit[:12], path, loc,
                                                                r.stderr.decode(errors='replace').strip()))
            data = r.stdout
        else:
            full = os.path.join(loc, *path.split('/'))
            if not os.path.isfile(full):
                raise LookupError('%s: %s missing' % (repo, full))
            with open(full, 'rb') as f:
                data = f.read()
        if blob and git_blob_id(data) != blob:
            raise LookupError('%s: %s is not the labelled version (blob %s, expected %s)'
                              % (repo, path, git_blob_id(data)[:12], blob[:12]))
        return data


def gltf_json(data):
    if data[:4] == b'glTF':
        n = int.from_bytes(data[12:16], 'little')
        return json.loads(data[20:20 + n])
    return json.loads(data)


def dependencies(path, data):
    """Repository paths of the files a model names (glTF buffers and images, OBJ material libraries and
    their maps), relative to the repository root."""
    base = posixpath.dirname(path)
    ext = posixpath.splitext(path)[1].lower()
    names = []
    if ext in ('.gltf', '.glb', '.vrm'):
        try:
            j = gltf_json(data)
        except ValueError:
            return []  # weft will say what is wrong with it
        for key in ('buffers', 'images'):
            for item in j.get(key, []):
                uri = item.get('uri')
                if uri and not uri.startswith('data:'):
                    names.append(urllib.parse.unquote(uri))
    elif ext in ('.obj', '.mtl'):
        for line in data.decode('utf-8', errors='replace').splitlines():
            parts = line.strip().split(None, 1)
            if len(parts) == 2 and (parts[0] == 'mtllib' or parts[0].startswith('map_')):
                names.append(parts[1].strip().split()[-1] if parts[0].startswith('map_') else parts[1].strip())
    return [posixpath.normpath(posixpath.join(base, n)) for n in names]


IMAGE_EXTENSIONS = ('.png', '.jpg', '.jpeg', '.webp', '.ktx2', '.dds', '.tga', '.bmp', '.gif')

# A 1x1 grey PNG. It stands in for a texture the copy of the repository lacks (snapshots leave out files
# of 4 MiB and more): a texture does not change the cloth, and a missing one is refused by weft.
PLACEHOLDER_PNG = bytes.fromhex(
    '89504e470d0a1a0a0000000d4948445200000001000000010800000000'
    '3a7e9b550000000a49444154789c636800000082008177cd72b60000000049454e44ae426082')


def materialise(entry, sources, dest):
    """Copy the entry's model and the files it names into dest/NAME/, keeping their layout relative to
    their common folder in the repository. Returns (the model's path, the images replaced by a
    placeholder because this copy of the repository lacks them), or raises LookupError."""
    repo, commit = entry['repo'], entry['commit']
    blobs = {f['path']: f.get('blob') for f in entry.get('files', [])}
    files, placeholders = {}, []
    todo = [(entry['path'], entry.get('blob'), True)]
    while todo:
        p, blob, required = todo.pop()
        if p in files:
            continue
        try:
            files[p] = sources.read(repo, commit, p, blob)
        except LookupError:
            if required:
                raise
            if posixpath.splitext(p)[1].lower() in IMAGE_EXTENSIONS:
                files[p] = PLACEHOLDER_PNG
                placeholders.append(p)
            continue  # a missing buffer or material library is weft's to report
        for d in dependencies(p, files[p]):
            todo.append((d, blobs.get(d), False))
    top = posixpath.commonpath([posixpath.dirname(p) for p in files]) if len(files) > 1 \
        else posixpath.dirname(entry['path'])
    root = os.path.join(dest, entry['name'])
    for p, data in files.items():
        rel = posixpath.relpath(p, top) if top else p
        out = os.path.join(root, *rel.split('/'))
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, 'wb') as f:
            f.write(data)
    rel = posixpath.relpath(entry['path'], top) if top else entry['path']
    return os.path.join(root, *rel.split('/')), placeholders


# ---------------------------------------------------------------------------------------------
# The corpus file


def load_corpus(path, check_split=True):
    with open(path, encoding='utf-8') as f:
        corpus = json.load(f)
    if corpus.get('schema') != 'weft.corpus/1':
        raise SystemExit('%s: not a weft.corpus/1 file' % path)
    names = [e['name'] for e in corpus['entries']]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise SystemExit('%s: entry names used twice: %s' % (path, ', '.join(dup)))
    for e in corpus['entries']:
        for g in e['expected']:
            if g['class'] not in FAMILIES:
                raise SystemExit('%s: %s: unknown class %r' % (path, e['name'], g['class']))
    split = corpus['held_out']
    drawn = held_out_names(corpus['entries'], split['seed'], split['share'])
    marked = {e['name'] for e in corpus['entries'] if e.get('held_out')}
    if check_split and drawn != marked:
        raise SystemExit('%s: held_out flags differ from the split drawn with seed %r: %s '
                         '(scripts/corpus.py split --write draws them again)'
                         % (path, split['seed'], ', '.join(sorted(drawn ^ marked))))
    return corpus


def stratum(entry):
    """The group a held-out share is drawn from: the kind of model, and whether it expects a garment.
    Entries of a later batch (`batch` 2 and up) are drawn in strata of their own, so adding a batch
    leaves the draw of the earlier ones as it was."""
    key = entry['kind'] + ('/negative' if not entry['expected'] else '/garment')
    batch = entry.get('batch', 1)
    return key if batch == 1 else 'batch%d/%s' % (batch, key)


def held_out_names(entries, seed, share):
    """The entries kept aside: in each stratum of n entries, round(share * n) of them, the first names
    (sorted, then shuffled by random.Random(seed)) among those nobody has seen weft's outcome on
    (`seen_before`), so the split can be drawn again from the list and the seed."""
    chosen = set()
    strata = {}
    for e in entries:
        strata.setdefault(stratum(e), []).append(e)
    for key in sorted(strata):
        names = sorted(e['name'] for e in strata[key] if not e.get('seen_before'))
        random.Random('%s:%s' % (seed, key)).shuffle(names)
        chosen.update(names[:int(round(share * len(strata[key])))])
    return chosen


def select(corpus, args):
    entries = corpus['entries']
    if args.only:
        wanted = set(args.only)
        missing = wanted - {e['name'] for e in entries}
        if missing:
            raise SystemExit('no entry named %s' % ', '.join(sorted(missing)))
        entries = [e for e in entries if e['name'] in wanted]
    if args.batch:
        entries = [e for e in entries if e.get('batch', 1) == args.batch]
    if args.held_out:
        entries = [e for e in entries if e['held_out']]
    elif args.tuned:
        entries = [e for e in entries if not e['held_out']]
    return entries


# ---------------------------------------------------------------------------------------------
# What weft wrote for one model


def read_json(path):
    try:
        with open(path, encoding='utf-8') as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def refusals(bake_entry):
    """The bake's errors for one model: (messages naming a proxy or garment, whether any names none)."""
    errors = [i.get('message', '') for i in bake_entry.get('issues', []) if i.get('severity') == 'error']
    named = [m for m in errors if '.clothproxy' in m or "garment '" in m]
    return named, len(named) < len(errors)


def fails_in_bake(name, file, named_errors):
    return any(("garment '%s'" % name) in m or ('/%s:' % file) in m for m in named_errors)


def found_garments(model_dir, bake_entry):
    """Every garment weft built a proxy for (or found and could not build), with whether it passed:
    [{name, class, built, passed, how, pieces}]. A proxy passes when validation.json says so and the
    bake reported no error naming it (the bake also checks the render mesh bound to the proxy), and
    something of it moves: a sheet every particle of which is held (EVERYTHING_HELD) passes every
    gate by moving rigidly with its holders, and is no cloth. When
    the bake refused the model for an error naming no garment, none of its garments pass; a proxy that
    passed counts even when another garment of its model failed."""
    report = read_json(os.path.join(model_dir, 'report.json')) or {}
    validation = read_json(os.path.join(model_dir, 'validation.json')) or {}
    passed = {p.get('file'): bool(p.get('passed')) for p in validation.get('proxies', [])}
    named_errors, unattributed = refusals(bake_entry)
    out, seen = [], set()
    for kind in ('proxies', 'sheets'):
        for p in report.get(kind, []):
            built = bool(p.get('built')) and bool(p.get('file'))
            stats = p.get('stats', {})
            # A sheet of several open pieces (three banners nailed in one mesh) is that many garments.
            pieces = max(1, stats.get('islands', 1) - stats.get('closed_islands', 0)) if kind == 'sheets' else 1
            held_whole = kind == 'sheets' and 0 < stats.get('particles', 0) <= stats.get('held', 0)
            out.append({'name': p.get('garment', ''), 'class': p.get('class', ''), 'built': built,
                        'passed': (built and passed.get(p.get('file'), False) and not unattributed and not held_whole
                                   and not fails_in_bake(p.get('garment', ''), p.get('file'), named_errors)),
                        'held_whole': held_whole, 'how': p.get('found_by', kind), 'pieces': pieces})
            seen.add(p.get('garment', ''))
    for g in report.get('garments', []):
        if g.get('name') not in seen:  # found, but no proxy came of it (hair lying on the head, say)
            seen.add(g.get('name'))
            out.append({'name': g.get('name', ''), 'class': g.get('class', ''), 'built': False,
                        'passed': False, 'how': g.get('matched_by', ''), 'pieces': 1,
                        'reason': g.get('verdict', '')})
    # Found by name or chain and judged no garment (a tail that is the body): found, and never built.
    for g in report.get('not_garments', []):
        if g.get('name') not in seen:
            seen.add(g.get('name'))
            out.append({'name': g.get('name', ''), 'class': g.get('class', ''), 'built': False,
                        'passed': False, 'how': 'not a garment', 'pieces': 1, 'reason': g.get('reason', '')})
    return out


def names_match(carriers, name):
    n = name.lower()
    for c in carriers:
        c = c.lower()
        if c == n or (len(c) >= 3 and len(n) >= 3 and (c in n or n in c)):
            return True
    return False


def carriers(expected):
    c = expected.get('carrier', {})
    return [v for k in ('material', 'mesh', 'node', 'joint') for v in ([c[k]] if isinstance(c.get(k), str) else c.get(k, []))]


def match(expected, found):
    """Pair each found garment with expected ones: first by the name that carries it (within its class
    family), then by class, then by family; a sheet of n open pieces pairs with up to n. A found garment
    whose name matches an expected one already paired is a second proxy for it, not a false garment.
    Returns (per expected: the found garments paired with it, the unpaired found ones)."""
    pairs = [[] for _ in expected]
    free = []
    for f in found:
        fam = family(f['class'])
        tests = (lambda e: family(e['class']) == fam and names_match(carriers(e), f['name']),
                 lambda e: e['class'] == f['class'],
                 lambda e: family(e['class']) == fam)
        for rank, test in enumerate(tests):
            cands = [i for i, e in enumerate(expected) if test(e)]
            unpaired = [i for i in cands if not pairs[i]]
            if unpaired:
                for i in unpaired[:f['pieces']]:
                    pairs[i].append(f)
                break
            if rank == 0 and cands:
                pairs[cands[0]].append(f)
                break
        else:
            free.append(f)
    return pairs, free


def score_model(entry, model_dir, bake_entry):
    """One entry's outcome: per expected garment pass / fail / missed, and the false garments."""
    found = found_garments(model_dir, bake_entry) if bake_entry else []
    pairs, free = match(entry['expected'], found)
    garments = []
    for e, got in zip(entry['expected'], pairs):
        if any(f['passed'] for f in got):
            outcome = 'pass'
        elif got:
            outcome = 'fail'
        else:
            outcome = 'missed'
        garments.append({'class': e['class'], 'carrier': carriers(e), 'outcome': outcome,
                         'as_class': sorted({f['class'] for f in got}),
                         'not_built': sorted({f['reason'] for f in got if not f['built'] and f.get('reason')}),
                         'other_class': bool(got) and all(f['class'] != e['class'] for f in got),
                         'extra_proxies': max(0, len(got) - 1)})
    # A false garment is a proxy weft built; a garment found but never built is listed apart.
    false = [{'class': f['class'], 'name': f['name'], 'passed': f['passed'],
              'why': 'expected none' if not entry['expected'] else 'no expected garment of its family'}
             for f in free if f['built']]
    status = bake_entry.get('status', 'absent') if bake_entry else 'absent'
    issues = sorted({i.get('code', '') for i in (bake_entry or {}).get('issues', [])
                     if i.get('severity') == 'error'})
    return {'name': entry['name'], 'kind': entry['kind'], 'exporter': entry['exporter'],
            'held_out': entry['held_out'], 'status': status, 'errors': issues,
            'garments': garments, 'false_garments': false,
            'found_not_built': [{'class': f['class'], 'name': f['name'], 'reason': f.get('reason', '')}
                                for f in free if not f['built']]}


# ---------------------------------------------------------------------------------------------
# Adding up


def aggregate(results):
    """Per class: expected, pass, fail (found, but no passing proxy), missed, found as another class of
    its family; false garments per class weft gave them; and the totals."""
    classes = {}
    for r in results:
        for g in r['garments']:
            c = classes.setdefault(g['class'], {'expected': 0, 'pass': 0, 'fail': 0, 'missed': 0,
                                                'other_class': 0, 'false': 0})
            c['expected'] += 1
            c[g['outcome']] += 1
            c['other_class'] += int(g['other_class'])
        for f in r['false_garments']:
            c = classes.setdefault(f['class'] or '?', {'expected': 0, 'pass': 0, 'fail': 0, 'missed': 0,
                                                       'other_class': 0, 'false': 0})
            c['false'] += 1
    total = {k: sum(c[k] for c in classes.values()) for k in ('expected', 'pass', 'fail', 'missed',
                                                               'other_class', 'false')}
    negatives = [r for r in results if not r['garments']]
    total.update({
        'models': len(results),
        'models_refused': sum(1 for r in results if r['status'] not in ('built', 'skipped')),
        'negative_models': len(negatives),
        'negative_models_with_false_garment': sum(1 for r in negatives if r['false_garments']),
        'recall': round(total['pass'] / total['expected'], 4) if total['expected'] else None,
    })
    for c in classes.values():
        c['recall'] = round(c['pass'] / c['expected'], 4) if c['expected'] else None
    return {'classes': dict(sorted(classes.items())), 'total': total}


def table(title, agg):
    rows = ['%s' % title,
            '%-12s %8s %5s %5s %7s %6s %6s %7s' % ('class', 'expected', 'pass', 'fail', 'missed',
                                                  'other', 'false', 'recall')]
    for name, c in list(agg['classes'].items()) + [('TOTAL', agg['total'])]:
        rec = '-' if c['recall'] is None else '%.0f%%' % (100 * c['recall'])
        rows.append('%-12s %8d %5d %5d %7d %6d %6d %7s' % (name, c['expected'], c['pass'], c['fail'],
                                                          c['missed'], c['other_class'], c['false'], rec))
    t = agg['total']
    rows.append('%d models (%d refused or failed); %d expect no garment, %d of them got one'
                % (t['models'], t['models_refused'], t['negative_models'],
                   t['negative_models_with_false_garment']))
    return '\n'.join(rows)


# ---------------------------------------------------------------------------------------------
# Commands


def bake(weft, scratch, out, jobs, extra, quiet_log=None):
    """Run weft bake --validate on the scratch folder. With quiet_log, weft's messages (which name
    models) go to that file instead of the terminal."""
    cmd = [weft, 'bake', scratch, '-o', out, '--validate', '-j', str(jobs), '--no-page', '-q'] + extra
    print('+ ' + ' '.join(cmd), file=sys.stderr)
    if quiet_log:
        with open(quiet_log, 'w', encoding='utf-8') as log:
            r = subprocess.run(cmd, stderr=log)
    else:
        r = subprocess.run(cmd)
    report = read_json(os.path.join(out, 'bake-report.json'))
    if report is None:
        raise SystemExit('weft bake exited %d and wrote no bake-report.json' % r.returncode)
    return report


def cmd_score(args, corpus):
    entries = select(corpus, args)
    sources = Sources(args.source)
    work = args.work or tempfile.mkdtemp(prefix='weft-corpus-')
    scratch, out = os.path.join(work, 'models'), os.path.join(work, 'out')
    for d in (scratch, out):
        if os.path.exists(d):
            shutil.rmtree(d)
    unreadable, placeholders = {}, {}
    for e in entries:
        try:
            _, missing = materialise(e, sources, scratch)
            if missing:
                placeholders[e['name']] = missing
        except LookupError as err:
            unreadable[e['name']] = str(err)
    if unreadable and not args.allow_missing:
        for n, why in sorted(unreadable.items()):
            print('%s: %s' % (n, why), file=sys.stderr)
        raise SystemExit('%d entries cannot be read (--allow-missing scores the rest)' % len(unreadable))
    hidden = not args.reveal_held_out and any(e['held_out'] for e in entries)
    report = bake(args.weft, scratch, out, args.jobs, args.weft_arg or [],
                  os.path.join(work, 'weft-messages.txt') if hidden else None)
    if hidden:
        print('weft\'s messages name held-out models, so they are not shown%s'
              % (': ' + os.path.join(work, 'weft-messages.txt') if args.work else ' (--work keeps them)'),
              file=sys.stderr)
    by_entry = {}
    for m in report.get('models', []):
        by_entry[m['input'].replace('\\', '/').split('/')[0]] = m
    results = []
    for e in entries:
        if e['name'] in unreadable:
            continue
        m = by_entry.get(e['name'])
        model_dir = os.path.join(out, m['output_dir']) if m and m.get('output_dir') else ''
        results.append(score_model(e, model_dir, m))
    splits = {'tuned': [r for r in results if not r['held_out']],
              'held_out': [r for r in results if r['held_out']]}
    score = {'schema': 'weft.corpus-score/1', 'weft': report.get('weft_version'),
             'corpus': os.path.relpath(args.corpus), 'entries': len(results),
             'unreadable': sorted(unreadable),
             'placeholder_images': {n: len(v) for n, v in sorted(placeholders.items())},
             'splits': {k: aggregate(v) for k, v in splits.items() if v}}
    # Per-model outcomes of held-out entries are what tuning must not see: only their totals are shown
    # unless asked for by name.
    shown = [r for r in results if args.reveal_held_out or not r['held_out']]
    if not args.aggregate_only:
        score['models'] = shown
    text = []
    for k, v in score['splits'].items():
        text.append(table('%s (%d models)' % (k.replace('_', '-'), v['total']['models']), v))
    if not args.aggregate_only and shown:
        text.append(per_model_lines(shown))
    print('\n\n'.join(text))
    if args.json:
        with open(args.json, 'w', encoding='utf-8') as f:
            json.dump(score, f, indent=1, sort_keys=True)
            f.write('\n')
    if not args.work:
        shutil.rmtree(work)
    return 0


def per_model_lines(results):
    rows = ['per model (pass/expected, false garments):']
    for r in results:
        ok = sum(1 for g in r['garments'] if g['outcome'] == 'pass')
        detail = ', '.join('%s:%s%s' % (g['class'], g['outcome'], ' (found, not built)' if g.get('not_built') else '')
                           for g in r['garments'])
        false = ', '.join('%s %s' % (f['class'], f['name']) for f in r['false_garments'])
        rows.append('  %-36s %-8s %d/%d %s%s' % (r['name'], r['status'], ok, len(r['garments']), detail,
                                                 ('  FALSE: ' + false) if false else ''))
    return '\n'.join(rows)


def cmd_sources(args, corpus):
    seen = {}
    for e in corpus['entries']:
        seen.setdefault((e['repo'], e['commit']), 0)
        seen[(e['repo'], e['commit'])] += 1
    for (repo, commit), n in sorted(seen.items()):
        print('%s\t%s\t%d entries' % (repo, commit, n))
    return 0


def cmd_split(args, corpus):
    """Draws the held-out flags again from the seed (after entries were added or removed, before
    tuning) and says what changed; --write stores them."""
    split = corpus['held_out']
    drawn = held_out_names(corpus['entries'], split['seed'], split['share'])
    changed = 0
    for e in corpus['entries']:
        if e.get('held_out') != (e['name'] in drawn):
            changed += 1
            print('%-36s %s' % (e['name'], 'held out' if e['name'] in drawn else 'tuned'))
        e['held_out'] = e['name'] in drawn
    print('%d of %d entries held out; %d flags changed' % (len(drawn), len(corpus['entries']), changed))
    if args.write and changed:
        with open(args.corpus, 'w', encoding='utf-8') as f:
            json.dump(corpus, f, indent=1, ensure_ascii=False)
            f.write('\n')
    return 0


def cmd_check(args, corpus):
    sources = Sources(args.source)
    bad = 0
    for e in select(corpus, args):
        try:
            data = sources.read(e['repo'], e['commit'], e['path'], e.get('blob'))
            print('ok      %-36s %8d bytes' % (e['name'], len(data)))
        except LookupError as err:
            bad += 1
            print('MISSING %-36s %s' % (e['name'], err))
    return 1 if bad else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--corpus', default=DEFAULT_CORPUS, help='the labelled list (default corpus/corpus.json)')
    sub = ap.add_subparsers(dest='command', required=True)
    for name in ('sources', 'check', 'score', 'split'):
        p = sub.add_parser(name)
        if name == 'split':
            p.add_argument('--write', action='store_true', help='store the drawn flags in the corpus file')
        if name in ('sources', 'split'):
            continue
        p.add_argument('--source', action='append', required=True, metavar='ROOT',
                       help='a folder holding the repositories (repeatable): ROOT/owner+name/repo as fetch '
                            'brings them, bare or ordinary git directories, or plain checkouts')
        part = p.add_mutually_exclusive_group()
        part.add_argument('--tuned', action='store_true', help='only the entries open for tuning')
        part.add_argument('--held-out', action='store_true', help='only the held-out entries')
        p.add_argument('--only', action='append', metavar='NAME', help='only this entry (repeatable)')
        p.add_argument('--batch', type=int, metavar='N', help='only the entries of batch N (1: the first list)')
        if name == 'score':
            p.add_argument('--weft', required=True, help='the weft binary')
            p.add_argument('--work', help='keep the scratch models and weft output here (default: a temp '
                                          'folder, removed)')
            p.add_argument('--json', help='write the score here (weft.corpus-score/1)')
            p.add_argument('-j', '--jobs', type=int, default=2, help='models baked at once (default 2)')
            p.add_argument('--aggregate-only', action='store_true',
                           help='print and write only the per-class totals, no per-model lines')
            p.add_argument('--reveal-held-out', action='store_true',
                           help='also print and write the per-model outcomes of held-out entries (by default '
                                'only their totals): for the final measurement, not while tuning')
            p.add_argument('--allow-missing', action='store_true', help='score the entries that can be read')
            p.add_argument('--weft-arg', action='append', metavar='ARG',
                           help='one more argument for weft bake (repeatable), e.g. --weft-arg=--classes=hair')
    args = ap.parse_args(argv)
    corpus = load_corpus(args.corpus, check_split=args.command != 'split')
    commands = {'sources': cmd_sources, 'check': cmd_check, 'score': cmd_score, 'split': cmd_split}
    return commands[args.command](args, corpus)


if __name__ == '__main__':
    sys.exit(main())
