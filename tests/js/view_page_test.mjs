// The bake's pages in a real browser: Debian's Chromium, headless, driven over CDP by puppeteer-core.
//   node view_page_test.mjs OUT SHOTS REFERENCE [--update]
// For OUT/index.html and every OUT/<model>/view.html it lists: the page loads with no console
// error and no failed request, the WebGL canvas is not blank, playback of every scenario reaches
// its last frame, and a 64x40 luminance thumbnail of the rest view matches REFERENCE (a JSON file,
// written by --update) within a tolerance. Full screenshots go to SHOTS/ for people to look at.
// The test drives the page's clock: its animation frames run only when the test advances it, so a
// page draws the frames the test asks for and no others (left to itself it redraws every frame
// while it is open: 40% of the test's CPU, Chromium's included) and plays at a known speed without
// waiting in real time.
// Prints one line per page and a summary with the figures; exits 1 on any failure.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer from 'puppeteer-core';

const [out, shots, referenceFile, ...flags] = process.argv.slice(2);
const update = flags.includes('--update');
if (!out || !shots || !referenceFile) {
  console.error('usage: node view_page_test.mjs OUT SHOTS REFERENCE [--update]');
  process.exit(2);
}
const browserPath = process.env.WEFT_CHROMIUM || '/usr/bin/chromium';
if (!fs.existsSync(browserPath)) {
  console.error(`view_page_test: no browser at ${browserPath}: scripts/deps.sh installs Debian's chromium`);
  process.exit(1);
}
// Tolerances of the thumbnail comparison: mean absolute difference and the worst cell, of 255.
const MEAN_TOLERANCE = 6;
const CELL_TOLERANCE = 96;

const report = JSON.parse(fs.readFileSync(path.join(out, 'bake-report.json'), 'utf8'));
const pages = [];
for (const m of report.models) if ((m.outputs || []).includes('view.html')) pages.push(m.output_dir);
const reference = !update && fs.existsSync(referenceFile) ? JSON.parse(fs.readFileSync(referenceFile, 'utf8')) : {};
const fresh = {};
fs.mkdirSync(shots, { recursive: true });

const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'weft-chromium-'));
const browser = await puppeteer.launch({
  executablePath: browserPath,
  headless: true,
  userDataDir: profile,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync',
         '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--allow-file-access-from-files'],
  defaultViewport: { width: 960, height: 600 },
});

let failures = 0;
const fail = (what) => { failures++; console.error(`view_page_test: FAIL ${what}`); };
const started = Date.now();
const figures = [];

// Runs in the page before its scripts: requestAnimationFrame queues the callback until the test
// calls weftTestClock.advance(ms), which moves the page's clock on by ms and runs the callbacks
// queued before it with the new time, as one frame. Returns how many callbacks ran.
function installClock() {
  let queued = [];
  let now = performance.now();
  let next = 1;
  window.requestAnimationFrame = (callback) => { queued.push({ id: next, callback }); return next++; };
  window.cancelAnimationFrame = (id) => { queued = queued.filter((q) => q.id !== id); };
  window.weftTestClock = {
    advance(ms) {
      now += ms;
      const frame = queued;
      queued = [];
      for (const q of frame) q.callback(now);
      return frame.length;
    },
  };
}
// One frame of the page's clock at 60 frames a second; scenarios play at 400x, 6.7 s of a scenario
// a frame (each frame the page draws costs ~25 ms of software WebGL: at 60x the test took 40% more
// CPU for the same check).
const FRAME_MS = 1000 / 60;
const SPEED = 400;

async function open(file) {
  const page = await browser.newPage();
  const problems = [];
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
  page.on('request', (r) => { if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) problems.push(`network: ${r.url()}`); });
  await page.evaluateOnNewDocument(installClock);
  await page.goto('file://' + path.resolve(file), { waitUntil: 'load' });
  return { page, problems };
}

// The index: every model listed with its status, every thumbnail loads.
{
  const { page, problems } = await open(path.join(out, 'index.html'));
  const rows = await page.$$eval('#models tr[data-status]', (trs) => trs.map((t) => t.dataset.status));
  const broken = await page.$$eval('img.thumb', (imgs) => imgs.filter((i) => !i.complete || i.naturalWidth === 0).length);
  await page.screenshot({ path: path.join(shots, 'index.png') });
  if (rows.length !== report.models.length) fail(`index.html lists ${rows.length} models, the report ${report.models.length}`);
  if (broken) fail(`index.html: ${broken} thumbnails did not load`);
  for (const p of problems) fail(`index.html: ${p}`);
  console.log(`index.html: ${rows.length} models, ${problems.length} problems`);
  await page.close();
}

for (const model of pages) {
  const t0 = Date.now();
  const { page, problems } = await open(path.join(out, model, 'view.html'));
  await page.waitForFunction('window.weftView && window.weftView.ready', { timeout: 20000 });
  // Two frames drawn, then the rest view: a small luminance grid of the canvas and its spread.
  const ran = await page.evaluate((ms) => weftTestClock.advance(ms) + weftTestClock.advance(ms), FRAME_MS);
  if (ran !== 2) fail(`${model}: ${ran} animation frames ran in two frames of the clock, expected the page's loop in each`);
  const grid = await page.evaluate(() => {
    const src = document.getElementById('weft-canvas');
    const c = document.createElement('canvas');
    c.width = 64; c.height = 40;
    const ctx = c.getContext('2d');
    ctx.drawImage(src, 0, 0, 64, 40);
    const d = ctx.getImageData(0, 0, 64, 40).data;
    const lum = [];
    for (let i = 0; i < d.length; i += 4) lum.push(Math.round(0.2126 * d[i] + 0.7152 * d[i + 1] + 0.0722 * d[i + 2]));
    return lum;
  });
  await page.screenshot({ path: path.join(shots, model.replace(/[\/\\]/g, '__') + '.png') });
  const background = grid[0];
  const drawn = grid.filter((v) => Math.abs(v - background) > 8).length;
  if (drawn < 20) fail(`${model}: the canvas is blank (${drawn} of ${grid.length} cells differ from the background)`);

  // Every scenario played at 400x to its end, frame by frame of the clock: the last frame must be
  // reached, and within the frames its length takes at that speed (two more for rounding).
  const scenarios = await page.evaluate(() => Array.from(document.querySelectorAll('#weft-scenario option')).map((o) => o.value).filter(Boolean));
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
    if (played === 1) {  // the first scenario's end, plots and all, for people to look at
      await page.screenshot({ path: path.join(shots, model.replace(/[\/\\]/g, '__') + '-' + name + '.png') });
    }
  }
  if (scenarios.length) {  // the plots were drawn for the last scenario
    const plots = await page.$$eval('#weft-plots canvas', (cs) => cs.length);
    if (plots < 3) fail(`${model}: ${plots} plots drawn, expected speed, strain and energy`);
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
  const ms = Date.now() - t0;
  figures.push({ model, drawn, scenarios: scenarios.length, played, ms });
  console.log(`${model}: ${drawn}/${grid.length} cells drawn, ${played}/${scenarios.length} scenarios to the last frame, ${compared}, ${ms} ms`);
  await page.close();
}
await browser.close();
fs.rmSync(profile, { recursive: true, force: true });
if (update) {
  fs.writeFileSync(referenceFile, JSON.stringify(fresh, null, 0).replace(/\],"/g, '],\n"') + '\n');
  console.log(`view_page_test: wrote ${referenceFile} (${Object.keys(fresh).length} pages)`);
}
console.log(`view_page_test: ${pages.length} pages, ${failures} failures, ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(failures ? 1 : 0);
