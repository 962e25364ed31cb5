// The bake's pages in a real browser (browser.mjs: Debian's Chromium, headless, over CDP).
//   node view_page_test.mjs OUT SHOTS REFERENCE [--update] [--budget PAGE BYTES]
// OUT/index.html: every model a row, every thumbnail loads and shows a model (more than a few
// colours), every link relative and to a file that is there, the totals in the report's words,
// sorting and both filters do what they say. Every OUT/<model>/view.html: no console error, no
// failed request; the WebGL canvas not blank; every scenario selectable (from the list and the
// table) and played at 400x to its last frame within the frames its length takes at that speed; a
// clip's cloth moves on the canvas (the model hidden, its rendered pixels differ between the
// clip's start and its worst gate step); "all" plots every proxy with figures, each labelled; and
// a 64x40 luminance thumbnail of the rest view within a tolerance of REFERENCE (written by
// --update). --budget: PAGE (a bake with every clip) is under BYTES and plays a clip too.
// Screenshots go to SHOTS/ for people to look at. Prints one line per page and a summary with the
// figures; exits 1 on any failure.
import fs from 'node:fs';
import path from 'node:path';
import { browserPath, launch, luminance, open } from './browser.mjs';

const args = process.argv.slice(2);
const [out, shots, referenceFile] = args;
const update = args.includes('--update');
const budgetAt = args.indexOf('--budget');
const budget = budgetAt >= 0 ? { page: args[budgetAt + 1], bytes: Number(args[budgetAt + 2]) } : null;
if (!out || !shots || !referenceFile) {
  console.error('usage: node view_page_test.mjs OUT SHOTS REFERENCE [--update] [--budget PAGE BYTES]');
  process.exit(2);
}
if (!fs.existsSync(browserPath)) {
  console.error(`view_page_test: no browser at ${browserPath}: scripts/deps.sh installs Debian's chromium`);
  process.exit(1);
}
// Tolerances of the thumbnail comparison: mean absolute difference and the worst cell, of 255.
const MEAN_TOLERANCE = 6;
const CELL_TOLERANCE = 96;
// A rendered thumbnail shows a model when it has at least this many colours (a blank or a flat
// silhouette has one or two).
const THUMBNAIL_COLOURS = 24;
// One frame of the page's clock at 60 frames a second; scenarios play at 400x, 6.7 s of a scenario
// a frame (each frame the page draws costs ~25 ms of software WebGL).
const FRAME_MS = 1000 / 60;
const SPEED = 400;

const report = JSON.parse(fs.readFileSync(path.join(out, 'bake-report.json'), 'utf8'));
const pages = [];
for (const m of report.models) if ((m.outputs || []).includes('view.html')) pages.push(m.output_dir);
const reference = !update && fs.existsSync(referenceFile) ? JSON.parse(fs.readFileSync(referenceFile, 'utf8')) : {};
const fresh = {};
fs.mkdirSync(shots, { recursive: true });
const { browser, close } = await launch();

let failures = 0;
const fail = (what) => { failures++; console.error(`view_page_test: FAIL ${what}`); };
const started = Date.now();
const shotName = (model, what = '') => model.replace(/[\/\\]/g, '__').replace(/[^A-Za-z0-9._-]/g, '_') + what + '.png';

await checkIndex();
for (const model of pages) await checkPage(path.join(out, model, 'view.html'), model);
if (budget) await checkBudget();
await close();
if (update) {
  fs.writeFileSync(referenceFile, JSON.stringify(fresh, null, 0).replace(/\],"/g, '],\n"') + '\n');
  console.log(`view_page_test: wrote ${referenceFile} (${Object.keys(fresh).length} pages)`);
}
console.log(`view_page_test: ${pages.length} pages, ${failures} failures, ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(failures ? 1 : 0);

// ---- the index ------------------------------------------------------------------------------------
async function checkIndex() {
  const { page, problems } = await open(browser, path.join(out, 'index.html'));
  const rows = await page.$$eval('#models tbody tr', (trs) => trs.map((t) => ({ outcome: t.dataset.outcome, kind: t.dataset.kind })));
  if (rows.length !== report.models.length) fail(`index.html lists ${rows.length} models, the report ${report.models.length}`);
  const totals = await page.$eval('#totals', (e) => e.textContent);
  if (!totals.includes(report.summary)) fail(`index.html's totals do not say the report's summary "${report.summary}": ${totals}`);
  // Every thumbnail loads and shows a model: many colours, drawn where the model is.
  const thumbs = await page.$$eval('img.thumb', (imgs) => imgs.map((img) => {
    if (!img.complete || img.naturalWidth === 0) return { src: img.getAttribute('src'), colours: 0, drawn: 0 };
    const c = document.createElement('canvas');
    c.width = img.naturalWidth; c.height = img.naturalHeight;
    const ctx = c.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    const colours = new Set();
    let drawn = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i + 3] > 0) { drawn++; colours.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]); }
    return { src: img.getAttribute('src'), colours: colours.size, drawn };
  }));
  const withThumb = report.models.filter((m) => (m.outputs || []).includes('thumbnail.png')).length;
  if (thumbs.length !== withThumb) fail(`index.html shows ${thumbs.length} thumbnails, the report lists ${withThumb}`);
  for (const t of thumbs)
    if (t.colours < THUMBNAIL_COLOURS || t.drawn < 200) fail(`index.html: thumbnail ${t.src} shows no model (${t.colours} colours, ${t.drawn} pixels drawn)`);
  // Every link is relative, inside OUT, and to a file that is there.
  const links = await page.$$eval('a[href]', (as) => as.map((a) => a.getAttribute('href')));
  for (const href of links) {
    if (!href.startsWith('./')) fail(`index.html: a link that is not relative: ${href}`);
    else if (!fs.existsSync(path.join(out, decodeURIComponent(href)))) fail(`index.html: a link to nothing: ${href}`);
  }
  // Sorting by time: ascending, then descending on a second click.
  const times = async () => page.$$eval('#models tbody tr td.time', (tds) => tds.map((td) => Number(td.dataset.sort)));
  const timeHead = await page.$$eval('#models thead th', (ths) => ths.findIndex((th) => th.textContent === 'time'));
  await page.click(`#models thead th:nth-child(${timeHead + 1})`);
  const up = await times();
  await page.click(`#models thead th:nth-child(${timeHead + 1})`);
  const down = await times();
  const sorted = (a, sign) => a.every((v, i) => i === 0 || sign * (v - a[i - 1]) >= 0);
  if (!sorted(up, 1) || !sorted(down, -1)) fail(`index.html: sorting by time gave ${up} then ${down}`);
  // The filters: refused and failed only; no garment found hidden.
  const visible = async () => page.$$eval('#models tbody tr', (trs) => trs.filter((t) => !t.hidden).length);
  await page.click('#only-problems');
  const problemsShown = await visible();
  await page.click('#only-problems');
  await page.click('#hide-no-garment');
  const garmentsShown = await visible();
  await page.click('#hide-no-garment');
  const expectProblems = report.totals.refused + report.totals.failed;
  const expectGarments = rows.length - rows.filter((r) => r.kind === 'no-garment').length;
  if (problemsShown !== expectProblems) fail(`index.html: "refused and failed only" shows ${problemsShown} rows, expected ${expectProblems}`);
  if (garmentsShown !== expectGarments) fail(`index.html: "hide no garment found" shows ${garmentsShown} rows, expected ${expectGarments}`);
  await page.screenshot({ path: path.join(shots, 'index.png'), fullPage: true });
  for (const p of problems) fail(`index.html: ${p}`);
  console.log(`index.html: ${rows.length} models, ${thumbs.length} thumbnails (fewest colours ${Math.min(...thumbs.map((t) => t.colours))}), ` +
              `${links.length} links, ${problems.length} problems`);
  await page.close();
}

// ---- one model's page -----------------------------------------------------------------------------
async function checkPage(file, model) {
  const t0 = Date.now();
  const { page, problems } = await open(browser, file);
  await page.waitForFunction('window.weftView && window.weftView.ready', { timeout: 20000 });
  // Two frames drawn, then the rest view: a small luminance grid of the canvas and its spread.
  const ran = await page.evaluate((ms) => weftTestClock.advance(ms) + weftTestClock.advance(ms), FRAME_MS);
  if (ran !== 2) fail(`${model}: ${ran} animation frames ran in two frames of the clock, expected the page's loop in each`);
  const grid = await luminance(page);
  await page.screenshot({ path: path.join(shots, shotName(model)) });
  const background = grid[0];
  const drawn = grid.filter((v) => Math.abs(v - background) > 8).length;
  if (drawn < 20) fail(`${model}: the canvas is blank (${drawn} of ${grid.length} cells differ from the background)`);

  // Every scenario selectable, from the list and from the table of verdicts.
  const scenarios = await page.$$eval('#weft-scenario option', (os) => os.map((o) => o.value).filter(Boolean));
  for (const name of scenarios) {
    await page.select('#weft-scenario', name);
    const chosen = await page.evaluate(() => [weftView.scenario, document.querySelector('#weft-scenarios tr.chosen')?.dataset.scenario]);
    if (chosen[0] !== name || chosen[1] !== name) fail(`${model}: choosing "${name}" from the list shows "${chosen[0]}" (table: "${chosen[1]}")`);
  }
  const rows = await page.$$('#weft-scenarios tbody tr');
  if (rows.length !== scenarios.length + 1) fail(`${model}: the table has ${rows.length} rows for ${scenarios.length} scenarios and the rest pose`);
  if (rows.length > 1) {
    await rows[rows.length - 1].click();
    const clicked = await page.evaluate(() => weftView.scenario);
    if (clicked !== scenarios[scenarios.length - 1]) fail(`${model}: clicking the table's last row shows "${clicked}"`);
  }

  // Every scenario played at 400x to its end, frame by frame of the clock: the last frame must be
  // reached, and within the frames its length takes at that speed (two more for rounding).
  const dt = await page.evaluate(() => JSON.parse(document.getElementById('weft-data').textContent).dt);
  let played = 0;
  for (const name of scenarios) {
    const reached = await page.evaluate((n, ms, speed, dt) => {
      const v = window.weftView;
      v.setScenario(n);
      v.play(speed);
      const budget = Math.ceil(v.lastStep * dt / speed / (ms / 1000)) + 2;
      let ticks = 0;
      while (v.playing && ticks < budget) { weftTestClock.advance(ms); ++ticks; }
      return { frame: v.frameIndex, frames: v.frameCount, step: v.step, last: v.lastStep, ticks, budget };
    }, name, FRAME_MS, SPEED, dt);
    if (reached.frames === 0 || reached.frame !== reached.frames - 1 || reached.step !== reached.last)
      fail(`${model}: ${name} stopped at frame ${reached.frame + 1} of ${reached.frames}, step ${reached.step} of ${reached.last}, after ${reached.ticks} frames of the clock (${reached.budget} allowed)`);
    else played++;
  }

  // "all": every proxy with figures plotted in each plot, and labelled when there are several.
  const all = await page.evaluate((name) => {
    const v = window.weftView;
    v.setProxy(-1);
    v.setScenario(name);
    const data = JSON.parse(document.getElementById('weft-data').textContent);
    const withFigures = data.proxies.filter((p) => p.scenarios.some((s) => s.scenario === name && s.figures)).length;
    weftTestClock.advance(16);
    const labels = Array.from(document.querySelectorAll('#weft-labels div')).filter((d) => d.style.display !== 'none').length;
    return { series: v.plotSeries, withFigures, labels, proxies: data.proxies.length,
             legend: document.querySelectorAll('#weft-plot-legend span').length };
  }, scenarios[0] || '');
  if (scenarios.length) {
    if (all.series.length < 3 || all.series.some((n) => n !== all.withFigures))
      fail(`${model}: "all" plots ${JSON.stringify(all.series)} series, expected ${all.withFigures} in each of 3 plots`);
    if (all.legend !== all.withFigures) fail(`${model}: the plots' legend names ${all.legend} proxies of ${all.withFigures}`);
    if (all.proxies > 1 && all.labels !== all.proxies) fail(`${model}: ${all.labels} proxies labelled of ${all.proxies}`);
  }

  // A clip's cloth moves: the model hidden, the canvas at the clip's start and at its worst step.
  const clip = scenarios.find((n) => n.startsWith('clip:'));
  let moved = null;
  if (clip) {
    const at = async (step) => {
      await page.evaluate((n, s) => { weftView.showModel(false); weftView.setScenario(n); weftView.seek(s); weftTestClock.advance(16); }, clip, step);
      return luminance(page, '#weft-canvas', 160, 100);
    };
    const worst = await page.evaluate((n) => { weftView.setScenario(n); return weftView.worstStep || Math.round(weftView.lastStep / 2); }, clip);
    const start = await at(0);
    const later = await at(Math.max(worst, 30));
    moved = start.filter((v, i) => Math.abs(v - later[i]) > 8).length;
    if (moved < 5) fail(`${model}: ${clip}: the cloth's pixels did not move between step 0 and ${worst} (${moved} of 16000 cells)`);
    await page.evaluate(() => { weftView.showModel(true); weftTestClock.advance(16); });
    await page.screenshot({ path: path.join(shots, shotName(model, '-clip')) });
  }
  for (const p of problems) fail(`${model}: ${p}`);

  fresh[model] = grid;
  let compared = 'no reference';
  if (!update) {
    const ref = reference[model];
    if (!ref) fail(`${model}: no reference thumbnail in ${referenceFile} (run with --update and look at ${shots})`);
    else {
      let sum = 0, worst = 0;
      for (let i = 0; i < grid.length; ++i) { const d = Math.abs(grid[i] - ref[i]); sum += d; worst = Math.max(worst, d); }
      const mean = sum / grid.length;
      compared = `mean diff ${mean.toFixed(2)}, worst cell ${worst}`;
      if (mean > MEAN_TOLERANCE || worst > CELL_TOLERANCE)
        fail(`${model}: the rest view differs from its reference: ${compared} (limits ${MEAN_TOLERANCE}, ${CELL_TOLERANCE})`);
    }
  }
  console.log(`${model}: ${drawn}/${grid.length} cells drawn, ${played}/${scenarios.length} scenarios to the last frame, ` +
              `"all" ${JSON.stringify(all.series)}, ${clip ? `${clip} moved ${moved} cells, ` : ''}${compared}, ${Date.now() - t0} ms`);
  await page.close();
}

// ---- the size budget ------------------------------------------------------------------------------
async function checkBudget() {
  const bytes = fs.statSync(budget.page).size;
  if (!(bytes < budget.bytes)) fail(`${budget.page}: ${bytes} bytes, over the budget of ${budget.bytes}`);
  const { page, problems } = await open(browser, budget.page);
  await page.waitForFunction('window.weftView && window.weftView.ready', { timeout: 30000 });
  const info = await page.evaluate(() => {
    const data = JSON.parse(document.getElementById('weft-data').textContent);
    const clips = weftView.scenarios.filter((n) => n.startsWith('clip:'));
    weftView.setScenario(clips[clips.length - 1]);
    weftView.seek(weftView.worstStep || 0);
    weftTestClock.advance(16);
    return { clips: clips.length, runs: data.proxies.reduce((n, p) => n + p.scenarios.length, 0), budget: data.budget, frame: weftView.frameIndex };
  });
  if (info.clips < 2) fail(`${budget.page}: ${info.clips} clips on the page, expected every clip of the model`);
  await page.screenshot({ path: path.join(shots, 'budget.png') });
  for (const p of problems) fail(`${budget.page}: ${p}`);
  console.log(`budget: ${path.basename(path.dirname(budget.page))} ${(bytes / 1e6).toFixed(2)} MB (limit ${(budget.bytes / 1e6).toFixed(1)} MB), ` +
              `${info.clips} clips, ${info.runs} runs, ${info.budget.frames_per_run} frames a run at most, ${info.budget.clip_values} clip values`);
  await page.close();
}
