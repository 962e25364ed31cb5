// Pages are inert data (docs/view.md#what-a-page-trusts): models whose file names and material,
// node and mesh names are markup, script and URLs are baked, and their pages opened in headless
// Chromium (browser.mjs). No script of a name runs (no dialog, no console error, nothing set on the
// window), every link on the index is relative and names the model's own files, each name shows as
// the text it is, and each page still draws its model.
//   node hostile_pages.mjs WEFT FLAG_GLB SCRATCH
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { browserPath, launch, luminance, open } from './browser.mjs';

const [weft, flag, scratch] = process.argv.slice(2);
if (!weft || !flag || !scratch) {
  console.error('usage: node hostile_pages.mjs WEFT FLAG_GLB SCRATCH');
  process.exit(2);
}
if (!fs.existsSync(browserPath)) {
  console.log(`hostile_pages: no browser at ${browserPath}: skipped`);
  process.exit(77);
}

// What a name tries: end the data's script element, open a comment, run a script, set a handler,
// break out of an attribute, be a javascript: link, and the line separators JSON allows and JS did not.
const material = 'Flag</script><script>window.__weftPwned="material"</script><!--<script>';
const node = 'Pole"\'><img src=x onerror="window.__weftPwned=\'node\'">&amp;';
const mesh = 'Flag\u2028\u2029<!--<script>window.__weftPwned="mesh"</script>';
const files = ['javascript:window.__weftPwned=1.glb', '<img src=x onerror=window.__weftPwned=2>.glb', 'a&b "c" \'d\' \u2028 e.glb'];

/// flag.glb with its flag's material, its pole's node and its flag's mesh renamed.
function hostileGlb() {
  const bytes = fs.readFileSync(flag);
  const jsonLength = bytes.readUInt32LE(12);
  const gltf = JSON.parse(bytes.subarray(20, 20 + jsonLength).toString('utf8'));
  for (const m of gltf.materials) if (m.name === 'Flag') m.name = material;
  for (const n of gltf.nodes) if (n.name === 'Pole') n.name = node;
  for (const m of gltf.meshes) if (m.name === 'Flag') m.name = mesh;
  let json = Buffer.from(JSON.stringify(gltf), 'utf8');
  json = Buffer.concat([json, Buffer.alloc((4 - (json.length % 4)) % 4, 0x20)]);
  const rest = bytes.subarray(20 + jsonLength);
  const header = Buffer.alloc(20);
  header.write('glTF', 0);
  header.writeUInt32LE(2, 4);
  header.writeUInt32LE(20 + json.length + rest.length, 8);
  header.writeUInt32LE(json.length, 12);
  header.write('JSON', 16);
  return Buffer.concat([header, json, rest]);
}

fs.rmSync(scratch, { recursive: true, force: true });
const models = path.join(scratch, 'models');
fs.mkdirSync(models, { recursive: true });
for (const f of files) fs.writeFileSync(path.join(models, f), hostileGlb());
const out = path.join(scratch, 'out');
try {
  execFileSync(weft, ['bake', models, '-o', out, '--validate', '-q'], { stdio: ['ignore', 'inherit', 'inherit'] });
} catch (e) {
  if (e.status !== 1) throw e;  // a gate may refuse the renamed flag; the pages are written either way
}

let failures = 0;
const fail = (what) => { failures++; console.error(`hostile_pages: FAIL ${what}`); };
const report = JSON.parse(fs.readFileSync(path.join(out, 'bake-report.json'), 'utf8'));
if (report.models.length !== files.length) fail(`${report.models.length} models baked of ${files.length}`);
for (const m of report.models)
  if (!m.cloth || m.cloth.proxies < 1) fail(`${m.input}: no proxy built (${JSON.stringify(m.cloth)}): the renamed flag is no garment`);
const { browser, close } = await launch();

const pwned = (page) => page.evaluate(() => window.__weftPwned);
{
  const { page, problems } = await open(browser, path.join(out, 'index.html'));
  const links = await page.$$eval('a[href]', (as) => as.map((a) => a.getAttribute('href')));
  for (const href of links) {
    if (!href.startsWith('./')) fail(`index.html: a link that is not relative: ${href}`);
    else if (!fs.existsSync(path.join(out, decodeURIComponent(href)))) fail(`index.html: a link to nothing: ${href}`);
  }
  const resolved = await page.$$eval('a[href]', (as) => as.map((a) => a.href));
  for (const url of resolved) if (!url.startsWith('file:')) fail(`index.html: a link that leaves the folder: ${url}`);
  const names = await page.$$eval('#models td.path', (tds) => tds.map((td) => td.textContent));
  for (const f of files) if (!names.includes(f)) fail(`index.html does not show the name ${JSON.stringify(f)} as text (${JSON.stringify(names)})`);
  const thumbs = await page.$$eval('img.thumb', (imgs) => imgs.filter((i) => i.complete && i.naturalWidth > 0).length);
  if (thumbs !== files.length) fail(`index.html: ${thumbs} thumbnails shown of ${files.length}`);
  if (await pwned(page)) fail(`index.html: a name's script ran: ${await pwned(page)}`);
  for (const p of problems) fail(`index.html: ${p}`);
  console.log(`index.html: ${links.length} links, all relative; ${names.length} names shown as text`);
  await page.close();
}
for (const m of report.models) {
  const { page, problems } = await open(browser, path.join(out, m.output_dir, 'view.html'));
  await page.waitForFunction('window.weftView && window.weftView.ready', { timeout: 20000 });
  await page.evaluate(() => { weftTestClock.advance(16); weftTestClock.advance(16); });
  const grid = await luminance(page);
  const drawn = grid.filter((v) => Math.abs(v - grid[0]) > 8).length;
  if (drawn < 20) fail(`${m.input}: the page does not show its model (${drawn} cells drawn)`);
  const shown = await page.evaluate(() => ({ title: document.querySelector('#weft-title h1').textContent, text: document.body.textContent,
                                              scripts: document.scripts.length }));
  if (shown.title !== m.input) fail(`${m.input}: the page's title shows ${JSON.stringify(shown.title)}`);
  if (!shown.text.includes(material)) fail(`${m.input}: the material's name is not shown as text`);
  if (shown.scripts !== 2) fail(`${m.input}: ${shown.scripts} script elements, expected the data and the viewer`);
  const scenarios = await page.$$eval('#weft-scenario option', (os) => os.map((o) => o.value).filter(Boolean));
  for (const name of scenarios) await page.select('#weft-scenario', name);
  if (await pwned(page)) fail(`${m.input}: a name's script ran: ${await pwned(page)}`);
  for (const p of problems) fail(`${m.input}: ${p}`);
  console.log(`${JSON.stringify(m.input)}: drawn ${drawn} cells, ${scenarios.length} scenarios, no script of a name ran`);
  await page.close();
}
await close();
console.log(`hostile_pages: ${report.models.length} pages and the index, ${failures} failures`);
process.exit(failures ? 1 : 0);
