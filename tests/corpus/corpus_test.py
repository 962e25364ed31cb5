#!/usr/bin/env python3
"""The corpus scorer (scripts/corpus.py) and the labelled list it reads (corpus/corpus.json).

Runs the scorer end to end against a stand-in `weft` (a small script that writes what `weft bake`
writes for the garments a test model asks for), on models read from a git repository and from a plain
folder made here. Python 3 standard library only; ctest runs it as `corpus_script`.
"""
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from contextlib import redirect_stdout, redirect_stderr

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
sys.path.insert(0, os.path.join(ROOT, 'scripts'))
sys.dont_write_bytecode = True
import corpus  # noqa: E402

# Stands in for `weft bake DIR -o OUT --validate ...`: every .gltf under DIR lists, in asset.extras.found,
# the garments weft would report ([name, class, passed, kind, islands], and 'held whole' after them for a
# sheet every particle of which is held); the stand-in writes
# OUT/<relative path>/report.json and validation.json and OUT/bake-report.json as weft does, refuses a
# model one of whose proxies fails, and prints one message per model to standard error.
FAKE_WEFT = r'''#!/usr/bin/env python3
import json, os, sys
args = sys.argv[1:]
src, out = args[1], args[args.index('-o') + 1]
models = []
for d, _, names in sorted(os.walk(src)):
    for n in sorted(names):
        if not n.endswith('.gltf'):
            continue
        rel = os.path.relpath(os.path.join(d, n), src)
        found = json.load(open(os.path.join(d, n)))['asset']['extras']['found']
        mdir = os.path.join(out, rel)
        os.makedirs(mdir, exist_ok=True)
        report = {'garments': [], 'proxies': [], 'sheets': []}
        validation = {'proxies': []}
        issues = [{'severity': 'error', 'code': 'NON_MANIFOLD_EDGE', 'message': m}
                  for m in json.load(open(os.path.join(d, n)))['asset']['extras'].get('errors', [])]
        for name, cls, ok, kind, islands, *held in found:
            f = name + '.clothproxy'
            entry = {'garment': name, 'class': cls, 'built': True, 'file': f}
            if kind == 'sheets':
                entry['stats'] = {'islands': islands, 'closed_islands': 0, 'particles': 12, 'held': 12 if held else 3}
            report[kind].append(entry)
            report['garments'].append({'name': name, 'class': cls, 'moves': True})
            # 'bake' passes validation.json's gates and fails the bake's own check of its render mesh.
            validation['proxies'].append({'file': f, 'garment': name, 'passed': ok is not False})
            if ok is not True:
                issues.append({'severity': 'error', 'code': 'STRAIN',
                               'message': "%s/%s: garment '%s' sprint: failed" % (rel, f, name)})
        # Found and judged no garment (a tail that is the body): listed apart, never built.
        extras = json.load(open(os.path.join(d, n)))['asset']['extras']
        report['not_garments'] = [{'name': a, 'class': b, 'reason': c} for a, b, c in extras.get('not_garments', [])]
        json.dump(report, open(os.path.join(mdir, 'report.json'), 'w'))
        json.dump(validation, open(os.path.join(mdir, 'validation.json'), 'w'))
        status = 'refused' if issues else 'built'
        models.append({'input': rel, 'output_dir': rel, 'status': status, 'issues': issues})
        print('weft bake: %s: %s' % (rel, status), file=sys.stderr)
json.dump({'weft_version': 'stand-in', 'models': models}, open(os.path.join(out, 'bake-report.json'), 'w'))
sys.exit(0)
'''


def read(path):
    with open(path, 'rb') as f:
        return f.read()


def model(found, errors=(), not_garments=()):
    """A .gltf whose extras tell the stand-in what weft finds in it (and the errors naming no garment
    the bake reports, and the name matches it judges no garment); it names a buffer and a texture."""
    return json.dumps({'asset': {'version': '2.0', 'extras': {'found': found, 'errors': list(errors),
                                                              'not_garments': list(not_garments)}},
                       'buffers': [{'uri': 'body.bin', 'byteLength': 4}],
                       'images': [{'uri': '../textures/skin%20atlas.png'}]}).encode()


def entry(name, path, expected, held_out=False, kind='humanoid'):
    return {'name': name, 'repo': 'someone/models', 'commit': None, 'path': path, 'kind': kind,
            'exporter': 'test', 'licence': 'CC0-1.0', 'expected': expected, 'held_out': held_out}


def garment(cls, **carrier):
    return {'class': cls, 'carrier': carrier, 'note': ''}


class Fixture(unittest.TestCase):
    """A git repository someone/models with four models, its commit, and a stand-in weft."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix='corpus-test-')
        self.addCleanup(shutil.rmtree, self.tmp)
        repo = os.path.join(self.tmp, 'mirror', 'someone+models', 'repo')
        work = os.path.join(self.tmp, 'checkout')
        files = {
            # A cape that passes and hair that fails: one pass, one fail; a blanket that passes every
            # gate held whole (EVERYTHING_HELD): nothing of it moves, a fail.
            'chars/hero.gltf': model([['Cape_Mesh', 'cape', True, 'sheets', 1],
                                      ['Hair_Brown', 'hair', False, 'proxies', 1],
                                      ['Blanket', 'blanket', True, 'sheets', 1, 'held whole']]),
            # Three banners in one sheet of three pieces, all passing; a skirt nobody expects.
            'props/banners.gltf': model([['banner_triple', 'flag', True, 'sheets', 3],
                                         ['skirt', 'skirt', True, 'proxies', 1]]),
            # Nothing found: the sail is missed.
            'props/ship.gltf': model([]),
            # A negative that gets a tail: one false garment.
            'animals/snake.gltf': model([['Tail1', 'tail', True, 'proxies', 1]]),
            # A tail that passes validation.json but whose render mesh fails the bake: a fail.
            'animals/wolf.gltf': model([['Tail1', 'tail', 'bake', 'proxies', 1]]),
            # A dress refused for its mesh, the error naming no garment: its passing proxy fails too.
            'chars/dress.gltf': model([['skirt', 'skirt', True, 'proxies', 1]],
                                      ["dress.fbx: the edge from mesh 'Body' vertex 4 is shared by 3 triangles"]),
            # A tail weft finds on its chain and judges the body: an expected tail found and not built
            # (a fail, not a miss), and on a negative no false garment.
            'animals/fox.gltf': model([], not_garments=[['Tail1', 'tail', 'TAIL_IS_BODY: 0.31 of its chain']]),
            'animals/trex.gltf': model([], not_garments=[['Tail1', 'tail', 'TAIL_IS_BODY: 0.40 of its chain']]),
            'chars/body.bin': b'\0\0\0\0', 'props/body.bin': b'\0\0\0\0', 'animals/body.bin': b'\0\0\0\0',
        }
        for path, data in files.items():
            full = os.path.join(work, *path.split('/'))
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, 'wb') as f:
                f.write(data)
        git = ['git', '-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main']
        subprocess.run(git + ['init', '-q', work], check=True)
        subprocess.run(git + ['-C', work, 'add', '.'], check=True)
        subprocess.run(git + ['-C', work, 'commit', '-q', '-m', 'models'], check=True)
        subprocess.run(['git', 'clone', '-q', '--bare', work, repo], check=True)
        self.commit = subprocess.run(['git', '-C', work, 'rev-parse', 'HEAD'], capture_output=True,
                                     text=True, check=True).stdout.strip()
        self.mirror = os.path.join(self.tmp, 'mirror')
        self.plain = os.path.join(self.tmp, 'plain')
        shutil.copytree(work, os.path.join(self.plain, 'someone', 'models'), ignore=shutil.ignore_patterns('.git'))
        self.weft = os.path.join(self.tmp, 'weft')
        with open(self.weft, 'w') as f:
            f.write(FAKE_WEFT)
        os.chmod(self.weft, 0o755)
        self.entries = [
            entry('hero', 'chars/hero.gltf', [garment('cape', node='Cape_Mesh'),
                                              garment('hair', material='Hair_Brown'),
                                              garment('blanket', material='Blanket')]),
            entry('banners', 'props/banners.gltf', [garment('banner', node='banner_triple')] * 3, kind='prop'),
            entry('ship', 'props/ship.gltf', [garment('sail', node='Sail')], held_out=True, kind='prop'),
            entry('snake', 'animals/snake.gltf', [], held_out=True, kind='animal'),
            entry('wolf', 'animals/wolf.gltf', [garment('tail', joint='Tail1')], kind='animal'),
            entry('dress', 'chars/dress.gltf', [garment('dress', material='Dress')]),
            entry('fox', 'animals/fox.gltf', [garment('tail', material='Fur')], kind='animal'),
            entry('trex', 'animals/trex.gltf', [], kind='animal'),
        ]
        for e in self.entries:
            e['commit'] = self.commit

    def write_corpus(self):
        path = os.path.join(self.tmp, 'corpus.json')
        doc = {'schema': 'weft.corpus/1', 'held_out': {'seed': 1, 'share': 0.5}, 'entries': self.entries}
        # The flags must be the split the seed draws; set them from it, as the list's maker does.
        held = corpus.held_out_names(self.entries, 1, 0.5)
        for e in self.entries:
            e['held_out'] = e['name'] in held
        with open(path, 'w') as f:
            json.dump(doc, f)
        return path

    def score(self, *extra):
        """Runs the scorer; returns its exit status, its JSON, and all it printed on standard output
        and standard error, the stand-in weft's messages included (captured at the file descriptors)."""
        score_json = os.path.join(self.tmp, 'score.json')
        captured = os.path.join(self.tmp, 'captured.txt')
        out, err = io.StringIO(), io.StringIO()
        saved = os.dup(2)
        try:
            with open(captured, 'w') as sink:
                os.dup2(sink.fileno(), 2)
                with redirect_stdout(out), redirect_stderr(err):
                    rc = corpus.main(['--corpus', self.write_corpus(), 'score', '--source', self.mirror,
                                      '--weft', self.weft, '--json', score_json, '-j', '1'] + list(extra))
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        with open(score_json) as f:
            return rc, json.load(f), out.getvalue(), err.getvalue() + read(captured).decode()


class Materialise(Fixture):
    def test_copies_the_model_and_its_buffer_and_stands_in_for_the_missing_texture(self):
        dest = os.path.join(self.tmp, 'scratch')
        path, placeholders = corpus.materialise(self.entries[0], corpus.Sources([self.mirror]), dest)
        self.assertEqual(os.path.join(dest, 'hero', 'chars', 'hero.gltf'), path)
        self.assertEqual(b'\0\0\0\0', read(os.path.join(dest, 'hero', 'chars', 'body.bin')))
        # The texture is named through '..' and percent-encoded; the repository lacks it.
        self.assertEqual(['textures/skin atlas.png'], placeholders)
        self.assertEqual(corpus.PLACEHOLDER_PNG, read(os.path.join(dest, 'hero', 'textures', 'skin atlas.png')))

    def test_reads_a_plain_folder_and_checks_the_blob(self):
        sources = corpus.Sources([self.plain])
        data = sources.read('someone/models', self.commit, 'props/ship.gltf')
        blob = corpus.git_blob_id(data)
        git_blob = subprocess.run(['git', '--git-dir', os.path.join(self.mirror, 'someone+models', 'repo'),
                                   'rev-parse', '%s:props/ship.gltf' % self.commit],
                                  capture_output=True, text=True, check=True).stdout.strip()
        self.assertEqual(git_blob, blob)
        with self.assertRaisesRegex(LookupError, 'not the labelled version'):
            sources.read('someone/models', self.commit, 'props/ship.gltf', '0' * 40)

    def test_a_missing_repository_or_file_is_named(self):
        sources = corpus.Sources([self.mirror])
        with self.assertRaisesRegex(LookupError, 'someone/other not found'):
            sources.read('someone/other', self.commit, 'a.glb')
        with self.assertRaisesRegex(LookupError, 'props/none.glb'):
            sources.read('someone/models', self.commit, 'props/none.glb')


class Score(Fixture):
    def test_counts_pass_fail_missed_and_false_per_class(self):
        rc, score, text, _ = self.score('--reveal-held-out')
        self.assertEqual(0, rc)
        splits = score['splits']
        both = {}
        for split in splits.values():
            for cls, c in split['classes'].items():
                row = both.setdefault(cls, {k: 0 for k in ('expected', 'pass', 'fail', 'missed', 'false')})
                for k in row:
                    row[k] += c[k]
        self.assertEqual({'expected': 1, 'pass': 1, 'fail': 0, 'missed': 0, 'false': 0}, both['cape'])
        self.assertEqual({'expected': 1, 'pass': 0, 'fail': 1, 'missed': 0, 'false': 0}, both['hair'])
        self.assertEqual({'expected': 1, 'pass': 0, 'fail': 1, 'missed': 0, 'false': 0}, both['blanket'])
        # One sheet of three pieces found as a flag pairs with the three banners: three passes, in
        # the family, not the class.
        self.assertEqual({'expected': 3, 'pass': 3, 'fail': 0, 'missed': 0, 'false': 0}, both['banner'])
        self.assertEqual({'expected': 1, 'pass': 0, 'fail': 0, 'missed': 1, 'false': 0}, both['sail'])
        self.assertEqual(1, both['skirt']['false'])
        # The wolf's tail fails in the bake, the fox's is found and judged the body, the snake's is false.
        self.assertEqual({'expected': 2, 'pass': 0, 'fail': 2, 'missed': 0, 'false': 1}, both['tail'])
        self.assertEqual({'expected': 1, 'pass': 0, 'fail': 1, 'missed': 0, 'false': 0}, both['dress'])
        by_name = {m['name']: m for m in score['models']}
        self.assertTrue(all(g['other_class'] for g in by_name['banners']['garments']))
        self.assertEqual('refused', by_name['hero']['status'])
        self.assertEqual([{'class': 'tail', 'name': 'Tail1', 'passed': True, 'why': 'expected none'}],
                         by_name['snake']['false_garments'])
        self.assertIn('snake', text)
        fox = by_name['fox']['garments'][0]
        self.assertEqual(('fail', ['TAIL_IS_BODY: 0.31 of its chain']), (fox['outcome'], fox['not_built']))
        self.assertEqual([], by_name['trex']['false_garments'])
        self.assertEqual([{'class': 'tail', 'name': 'Tail1', 'reason': 'TAIL_IS_BODY: 0.40 of its chain'}],
                         by_name['trex']['found_not_built'])

    def test_held_out_models_show_only_in_totals(self):
        work = os.path.join(self.tmp, 'work')
        rc, score, text, err = self.score('--work', work)
        held = {e['name'] for e in self.entries if e['held_out']}
        self.assertTrue(held, 'the split holds something out')
        self.assertEqual(len(held), score['splits']['held_out']['total']['models'])
        self.assertEqual(set(), held & {m['name'] for m in score['models']})
        messages = read(os.path.join(work, 'weft-messages.txt')).decode()
        for name in held:
            self.assertNotIn(name, text)
            self.assertNotIn(name, err)
            self.assertIn(name, messages)  # weft's messages were kept aside, not lost

    def test_only_and_tuned_select_entries(self):
        rc, score, _, _ = self.score('--only', 'ship', '--reveal-held-out')
        self.assertEqual(1, score['entries'])
        rc, score, _, _ = self.score('--tuned')
        tuned = [e['name'] for e in self.entries if not e['held_out']]
        self.assertEqual(sorted(tuned), sorted(m['name'] for m in score['models']))
        self.assertNotIn('held_out', score['splits'])
        self.entries[0]['batch'] = 2  # hero alone in a batch of its own
        rc, score, _, _ = self.score('--batch', '2', '--reveal-held-out')
        self.assertEqual(['hero'], [m['name'] for m in score['models']])
        rc, score, _, _ = self.score('--batch', '1', '--reveal-held-out')
        self.assertEqual(len(self.entries) - 1, score['entries'])


class Split(Fixture):
    def test_a_hand_edited_flag_is_refused_and_split_draws_it_again(self):
        path = self.write_corpus()
        with open(path) as f:
            doc = json.load(f)
        held = [e['name'] for e in doc['entries'] if e['held_out']]
        doc['entries'][[e['name'] for e in doc['entries']].index(held[0])]['held_out'] = False
        with open(path, 'w') as f:
            json.dump(doc, f)
        with self.assertRaisesRegex(SystemExit, 'held_out flags differ.*' + held[0]):
            corpus.load_corpus(path)
        with redirect_stdout(io.StringIO()) as out:
            self.assertEqual(0, corpus.main(['--corpus', path, 'split', '--write']))
        self.assertIn('1 flags changed', out.getvalue())
        again = corpus.load_corpus(path)
        self.assertEqual(held, [e['name'] for e in again['entries'] if e['held_out']])


class Draw(unittest.TestCase):
    def test_never_draws_an_entry_whose_outcome_was_seen(self):
        entries = [{'name': 'm%02d' % i, 'kind': 'prop', 'expected': []} for i in range(30)]
        for e in entries[:25]:
            e['seen_before'] = 'scored while the list was made'
        held = corpus.held_out_names(entries, 7, 1 / 3)
        self.assertEqual({'m25', 'm26', 'm27', 'm28', 'm29'}, held)  # ten wanted, five unseen
        for e in entries:
            e.pop('seen_before', None)
        held = corpus.held_out_names(entries, 7, 1 / 3)
        self.assertEqual(10, len(held))
        self.assertEqual(held, corpus.held_out_names(list(reversed(entries)), 7, 1 / 3))  # order-free
        self.assertNotEqual(held, corpus.held_out_names(entries, 8, 1 / 3))  # the seed decides

    def test_a_later_batch_is_drawn_apart_and_leaves_the_earlier_draw_as_it_was(self):
        entries = [{'name': 'm%02d' % i, 'kind': 'prop', 'expected': []} for i in range(30)]
        before = corpus.held_out_names(entries, 7, 1 / 3)
        batch = [{'name': 'n%02d' % i, 'kind': 'prop', 'expected': [], 'batch': 2} for i in range(9)]
        after = corpus.held_out_names(entries + batch, 7, 1 / 3)
        self.assertEqual(before, {n for n in after if n.startswith('m')})
        self.assertEqual(3, len({n for n in after if n.startswith('n')}))  # a third of the nine
        self.assertEqual('batch2/prop/negative', corpus.stratum(batch[0]))
        self.assertEqual('prop/negative', corpus.stratum(entries[0]))


class Labels(unittest.TestCase):
    """The labelled list itself: what the corpus promises its users."""

    @classmethod
    def setUpClass(cls):
        cls.doc = corpus.load_corpus(corpus.DEFAULT_CORPUS)  # also checks the split against its seed
        cls.entries = cls.doc['entries']

    def test_at_least_sixty_cc0_models_with_their_source(self):
        self.assertGreaterEqual(len(self.entries), 60)
        for e in self.entries:
            self.assertEqual('CC0-1.0', e['licence'], e['name'])
            self.assertTrue(e['licence_source'], e['name'])
            self.assertRegex(e['commit'], '^[0-9a-f]{40}$', e['name'])
            self.assertRegex(e['blob'], '^[0-9a-f]{40}$', e['name'])
            self.assertIn(e['kind'], ('humanoid', 'animal', 'prop'), e['name'])
            for g in e['expected']:
                self.assertTrue(corpus.carriers(g), '%s: a garment names what carries it' % e['name'])

    def test_a_third_held_out_of_what_nobody_had_seen(self):
        strata = {}
        for e in self.entries:
            strata.setdefault(corpus.stratum(e), []).append(e)
        for key, group in strata.items():
            held = sum(e['held_out'] for e in group)
            unseen = sum(not e.get('seen_before') for e in group)
            self.assertEqual(min(round(len(group) / 3), unseen), held, key)
        self.assertEqual([], [e['name'] for e in self.entries if e['held_out'] and e.get('seen_before')])
        self.assertGreaterEqual(sum(e['held_out'] for e in self.entries), 0.28 * len(self.entries))

    def test_no_entry_is_one_of_the_shared_models(self):
        # The shared models (the folder `shared/models` beside the repository) are what the rules were written
        # against; a corpus entry that is one of those files measures nothing new.
        shared = os.path.join(ROOT, '..', 'shared', 'models')
        if not os.path.isdir(shared):
            self.skipTest('no shared models folder beside the repository')
        blobs = {}
        for d, _, names in os.walk(shared):
            for n in names:
                blobs[corpus.git_blob_id(read(os.path.join(d, n)))] = os.path.relpath(os.path.join(d, n), shared)
        self.assertGreater(len(blobs), 5)
        for e in self.entries:
            for f in [e] + e.get('files', []):
                self.assertNotIn(f.get('blob'), blobs, '%s: %s is the shared %s' % (e['name'], f['path'], blobs.get(f.get('blob'))))

    def test_spread_over_exporters_kinds_and_negatives(self):
        self.assertGreaterEqual(len({e['exporter'] for e in self.entries}), 6)
        negatives = [e for e in self.entries if not e['expected']]
        self.assertGreaterEqual(len(negatives), 20)
        self.assertGreaterEqual(len({g['class'] for e in self.entries for g in e['expected']}), 10)


if __name__ == '__main__':
    unittest.main(verbosity=2)
